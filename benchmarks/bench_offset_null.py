"""False alarms of the doctor's clock-offset check on synthetic drifting cars on time.

    PYTHONPATH=src python benchmarks/bench_offset_null.py [--drift position heading white]
        [--runs 100] [--first-seed 0] [--late 0.02]

Data (:func:`drifting_car`): a car at 10 Hz for 100-470 s (KITTI 00 is 470 s), 5-11 m/s,
turning by 45-90° every 30 s or so, and its estimate on the same stamps with 5 cm of
white noise and a drift: a position random walk of 1-5 m by the end (``position``), a
heading random walk of 1-3° (``heading``), or none (``white``). No clock offset at all:
every offset said is a false alarm. Each run prints the whole run's offset
(:func:`~robot_msgs.evaluation.estimate_offset`) in its σ, which the doctor called
significant beyond 3 before the windows could overrule it, and what the doctor says now
(``diagnose(...).finding("time_offset")``).

Measured on the shared 2-core machine (2026-12-07), seeds 0-99 (position, heading) and
0-199 (position, white): the whole run beyond 3 σ in 9 of 100 (position) and 5 of 100
(heading), 0 of 100 (white); the doctor, with the windows deciding on runs of 8 whole
windows, 0 of 500. The nominal rate of a 3 σ test is 0.27 %. A review's new seeds
(1000-1199, after the windows' poorly determined case widened the whole run's σ): the
doctor 3 of 200 (position), 0 of 200 (heading): still above 0.27 % with position drift.

Measured again (2026-12-07): seeds 1000-1199 by the doctor, 3 of 200 with position
drift (1076, 1077, 1123) and 0 of 200 with heading drift; seeds 0-199 by
:func:`~robot_msgs.evaluation.offset.windowed_offset` about
:func:`~robot_msgs.evaluation.estimate_offset`'s offset (what the doctor runs on them,
its own search aside), 0 of 200 (position) and 1 of 200 (heading, seed 114, which the
doctor does not say). The 200 alone are unlikely at 0.27 % (3 or more: 1.7 %); the 400
with position drift are not (9.5 %), nor 4 of 800 (2.16 expected; 4 or more: 17 %).
``--late`` stamps the estimate late by that (the truth is its negative) and counts the
offsets said beyond 3 σ of the truth: heading drift, seeds 0-39, ``--late 0.02`` found
in 32 of 40 and ``--late -0.02`` in 30, none wrong (the windows replayed on each run's
slopes; the doctor agreed on seeds 0-9). Bell & McCaffrey's small-sample
correction of the windows (CR2 and their degrees of freedom, a median 0.45 of the
windows' count on these cars) says 1 of 800 on time but finds 46 of those 80: not taken.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

from robot_msgs.errors import AssociationError
from robot_msgs.evaluation import EvaluationSettings, diagnose, estimate_offset
from robot_msgs.rotations import matrix_from_rotation_vector, quat_xyzw_from_matrix
from robot_msgs.trajectory import PoseTrajectory


def drifting_car(seed: int, drift: str) -> tuple[PoseTrajectory, PoseTrajectory]:
    """Return a car's ground truth and its drifting estimate on the same stamps, on time."""
    rng = np.random.default_rng(seed)
    duration = rng.uniform(100.0, 470.0)
    t = np.arange(0.0, duration, 0.1)
    n = t.size
    yaw = np.zeros(n)
    for start in np.sort(rng.uniform(0.0, duration, int(duration / 30.0) + 1)):
        length = rng.uniform(4.0, 8.0)
        turn = rng.choice([-1.0, 1.0]) * np.pi / 2.0 * rng.uniform(0.5, 1.0)
        yaw += turn * np.clip((t - start) / length, 0.0, 1.0)
    yaw += 0.1 * np.sin(2.0 * np.pi * t / rng.uniform(20.0, 60.0) + rng.uniform(0.0, 6.0))
    speed = 8.0 + 3.0 * np.sin(2.0 * np.pi * t / rng.uniform(30.0, 90.0) + rng.uniform(0.0, 6.0))
    heading = np.stack([np.cos(yaw), np.sin(yaw), 0.0 * t], axis=1)
    positions = np.cumsum(heading * speed[:, None] * 0.1, axis=0)
    positions[:, 2] = 0.5 * np.sin(t / 40.0)
    quats = quat_xyzw_from_matrix(matrix_from_rotation_vector(np.stack([0 * t, 0 * t, yaw], 1)))
    ref = PoseTrajectory(stamps_s=t, positions_xyz=positions, orientations_quat_xyzw=quats)
    if drift == "heading":
        wrong = yaw + np.cumsum(rng.normal(0.0, np.radians(rng.uniform(1.0, 3.0)) / np.sqrt(n), n))
        moved = np.stack([np.cos(wrong), np.sin(wrong), 0.0 * t], axis=1)
        estimated = np.cumsum(moved * speed[:, None] * 0.1, axis=0)
        estimated[:, 2] = positions[:, 2]
    elif drift == "position":
        walk = rng.normal(0.0, rng.uniform(1.0, 5.0) / np.sqrt(n), (n, 3))
        estimated = positions + np.cumsum(walk, axis=0)
    else:
        estimated = positions.copy()
    estimated += rng.normal(0.0, 0.05, (n, 3))
    return ref, ref.replace(positions_xyz=estimated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drift", nargs="+", default=["position", "heading", "white"])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--late", type=float, default=0.0, help="estimate stamped late, s")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"{'drift':>8} {'seed':>5} {'span s':>7} {'whole run s':>20} {'z':>6}  doctor says")
    for drift in args.drift:
        whole_alarms = doctor_alarms = wrong = 0
        for seed in range(args.first_seed, args.first_seed + args.runs):
            ref, est = drifting_car(seed, drift)
            est = est.replace(stamps_s=est.stamps_s + args.late)
            try:
                whole = estimate_offset(ref, est, EvaluationSettings())
                z = (whole.offset_s + args.late) / whole.std_s
                said = f"{whole.offset_s:+.4f} ± {whole.std_s:.4f}"
            except AssociationError:
                z, said = 0.0, "refused"
            whole_alarms += abs(z) > 3.0
            found = diagnose(ref, est).finding("time_offset")
            doctor_alarms += found is not None
            if found is not None:
                said_s, std_s = found.evidence["offset_s"], found.evidence["std_s"]
                assert isinstance(said_s, float)
                assert isinstance(std_s, float)
                wrong += abs(said_s + args.late) > 3.0 * std_s
            text = "" if found is None else found.summary
            print(f"{drift:>8} {seed:>5} {ref.duration_s:>7.1f} {said:>20} {z:>6.2f}  {text}")
        print(
            f"{drift}: the whole run beyond 3 σ of the truth in {whole_alarms} of {args.runs}, "
            f"the doctor says an offset in {doctor_alarms} of {args.runs}, "
            f"{wrong} beyond 3 σ of the truth ({-args.late:+g} s)"
        )


if __name__ == "__main__":
    main()
