"""Write the control_servo example: a two-joint servo's setpoint log and its response.

Command (from the worktree root, with python-control 0.10.2 installed):

    python tests/data/make_control_servo.py

It writes, into ``src/robot_msgs/examples/control_servo/`` (shipped: the README's
``robot-msgs track example:control_servo/...`` lines read them), ``command.csv`` (a
setpoint log, written when the setpoint changes, plus a point at the end of the test:
read it with ``--hold``) and ``measured.csv`` (the joints sampled every 2 ms), and
``tests/data/control_servo/step_info.json`` (python-control's ``step_info`` of each
joint's samples from the step on). ``elbow``: a second-order loop, ωn = 2 rad/s, ζ = 0.3,
from 0 to 1 rad at t = 1 s; ``wrist``: a first-order loop, τ = 0.25 s, from 0 to -0.5 rad
at t = 1 s.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

STEP_S = 1.0
END_S = 8.0
DT_S = 0.002
WN, ZETA, TAU = 2.0, 0.3, 0.25
TARGETS = {"elbow": 1.0, "wrist": -0.5}


def main() -> None:
    # Only this script needs python-control, which ships no type information.
    import control  # type: ignore[import-untyped]

    out = Path(__file__).parents[2] / "src" / "robot_msgs" / "examples" / "control_servo"
    reference = Path(__file__).with_name("control_servo")
    reference.mkdir(exist_ok=True)
    t = np.round(np.arange(0.0, END_S + DT_S / 2, DT_S), 9)
    after = t >= STEP_S
    loops = {
        "elbow": control.tf([WN**2], [1.0, 2.0 * ZETA * WN, WN**2]),
        "wrist": control.tf([1.0], [TAU, 1.0]),
    }
    columns = {}
    info = {}
    for name, loop in loops.items():
        response = control.step_response(loop, T=t[after] - STEP_S)
        y = np.zeros_like(t)
        y[after] = TARGETS[name] * np.asarray(response.outputs)
        columns[name] = y
        steps = control.step_info(y[after], t[after] - STEP_S, yfinal=TARGETS[name])
        info[name] = {k: float(v) for k, v in steps.items()}
    rows = "".join(
        f"{t[k]:.3f},{columns['elbow'][k]:.12g},{columns['wrist'][k]:.12g}\n" for k in range(t.size)
    )
    (out / "measured.csv").write_text("t,elbow,wrist\n" + rows, encoding="utf-8")
    (out / "command.csv").write_text(
        f"# setpoint log: written on change, and at the end of the test\nt,elbow,wrist\n"
        f"0,0,0\n{STEP_S:g},1,-0.5\n{END_S:g},1,-0.5\n",
        encoding="utf-8",
    )
    stored = {
        "command": "python tests/data/make_control_servo.py",
        "python_control_version": control.__version__,
        **info,
    }
    (reference / "step_info.json").write_text(
        json.dumps(stored, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
