"""Write python_control_step_info.json: python-control's step_info on three sampled responses.

Command (from the worktree root, with python-control 0.10.2 installed):

    python tests/data/make_python_control_step_info.py > tests/data/python_control_step_info.json
"""

from __future__ import annotations

import json

import numpy as np


def signals() -> dict[str, tuple[np.ndarray, np.ndarray, dict[str, float]]]:
    """The sampled responses and the keyword arguments given to ``step_info``."""
    t = np.arange(0.0, 10.0, 0.01)
    t5 = np.arange(0.0, 5.0, 0.01)
    return {
        "first_order_5_to_6": (t, 5.0 + (1.0 - np.exp(-t)), {}),
        "first_order_0_to_1": (t, 1.0 - np.exp(-t), {}),
        "decay_1_to_0_yfinal_0": (t5, np.exp(-t5), {"yfinal": 0.0}),
    }


def main() -> None:
    # Only this script needs python-control, which ships no type information.
    import control  # type: ignore[import-untyped]

    out: dict[str, object] = {
        "command": "python tests/data/make_python_control_step_info.py",
        "python_control_version": control.__version__,
    }
    for name, (t, y, kwargs) in signals().items():
        info = control.step_info(y, t, **kwargs)
        out[name] = {k: float(v) for k, v in info.items()}
    print(json.dumps(out, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
