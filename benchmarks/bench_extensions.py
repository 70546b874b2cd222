"""The evaluation extensions timed against the reference tools, in one run.

    PYTHONPATH=src python benchmarks/bench_extensions.py [--sizes 1e3 1e4 1e5]
        [--tum-script PATH/evaluate_rpe.py] [--tum-max 1e4] [--repeats 3]

Data: a random-walk SE(3) ground truth of N poses at 100 Hz and an estimate of it at the
same stamps with noise and a 40 ms clock offset.

- ``TUM RPE 1 s``: ``rpe(..., PairSettings(protocol="tum"))`` against TUM's
  ``evaluate_rpe.py`` ``evaluate_trajectory(..., fixed_delta=True, max_pairs=0)`` (the
  script made Python 3 by tests/data/make_tum_rpe_reference.py's one-line patch; its
  dict-of-4x4-matrices reading included, as a user runs it), up to ``--tum-max`` poses;
  both results' translation RMSE are compared.
- ``project xy``: ``project_to_plane`` of both trajectories against evo 1.38.1's
  ``PosePath3D.project`` (in place, on copies made outside the timing).
- ``offset auto``: ``estimate_offset`` alone, and ``ape`` with ``offset_auto`` against a
  plain ``ape`` (no tool estimates an offset and evaluates with it, so the ratio is to our
  own APE).
- ``quaternion check``: ``quaternion_order_check`` (run inside every ``prepare``) against
  ``prepare`` itself.

Best of ``--repeats``; ratios are reference time over robot_msgs time (higher is faster).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.evaluation.offset import estimate_offset
from robot_msgs.evaluation.pipeline import prepare
from robot_msgs.evaluation.projection import project_to_plane
from robot_msgs.evaluation.quaternion_order import quaternion_order_check
from robot_msgs.io import write_tum
from robot_msgs.rotations import normalize_quat_xyzw, quat_xyzw_multiply
from robot_msgs.trajectory import PoseTrajectory


def _walk(n: int, seed: int) -> PoseTrajectory:
    rng = np.random.default_rng(seed)
    angles = rng.normal(size=(n, 3)) * 0.01
    half = np.linalg.norm(angles, axis=1, keepdims=True) / 2
    axis = angles / np.maximum(2 * half, 1e-300)
    steps = np.concatenate([np.sin(half) * axis, np.cos(half)], axis=1)
    quats = steps.copy()
    shift = 1
    while shift < n:
        quats[shift:] = quat_xyzw_multiply(quats[:-shift], quats[shift:])
        shift *= 2
    positions = np.cumsum(rng.normal(size=(n, 3)) * 0.01, axis=0)
    return PoseTrajectory(
        stamps_s=1000.0 + np.arange(n) * 0.01,
        positions_xyz=positions,
        orientations_quat_xyzw=normalize_quat_xyzw(quats),
    )


def _best(fn: Any, repeats: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def _tum_module(script: Path) -> Any:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "data"))
    from make_tum_rpe_reference import patch  # type: ignore[import-not-found]

    folder = Path(tempfile.mkdtemp())
    program = folder / "evaluate_rpe.py"
    program.write_text(patch(script.read_text(encoding="utf-8")), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("tum_evaluate_rpe", program)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _evo_trajectory(traj: PoseTrajectory) -> Any:
    os.environ.setdefault("HOME", tempfile.mkdtemp())  # evo writes ~/.evo on import
    from evo.core.trajectory import PoseTrajectory3D  # type: ignore[import-not-found]

    q = traj.orientations_quat_xyzw
    return PoseTrajectory3D(
        positions_xyz=traj.positions_xyz,
        orientations_quat_wxyz=q[:, [3, 0, 1, 2]],
        timestamps=traj.stamps_s,
    )


def _row(step: str, n: int, ours: float, theirs: float | None, note: str = "") -> str:
    if theirs is None:
        return f"{step:<18}{n:>9}{ours:>14.4f}{'-':>14}{'-':>8}  {note}"
    return f"{step:<18}{n:>9}{ours:>14.4f}{theirs:>14.4f}{theirs / ours:>8.1f}  {note}"


def _tum_rows(n: int, ref: PoseTrajectory, est: PoseTrajectory, tum: Any, repeats: int) -> str:
    pairs = PairSettings(delta=1.0, delta_unit="s", protocol="tum")
    settings = EvaluationSettings(offset_s=-0.04)
    ours, result = _best(lambda: rpe(ref, est, pairs=pairs, settings=settings), repeats)
    if tum is None:
        return _row("TUM RPE 1 s", n, ours, None)
    folder = Path(tempfile.mkdtemp())
    write_tum(folder / "gt.tum", ref)
    write_tum(folder / "est.tum", est)

    def script() -> Any:
        gt = tum.read_trajectory(str(folder / "gt.tum"))
        es = tum.read_trajectory(str(folder / "est.tum"))
        return tum.evaluate_trajectory(gt, es, 0, True, 1.0, "s", -0.04, 1.0)  # noqa: FBT003

    theirs, rows = _best(script, 1)
    rmse = float(np.sqrt(np.mean(np.array(rows)[:, 4] ** 2)))
    diff = abs(result.stats["translation"].rms / rmse - 1)
    note = f"evaluate_rpe.py; {len(rows)} pairs both, RMSE rel. diff {diff:.1e}"
    return _row("TUM RPE 1 s", n, ours, theirs, note)


def _projection_row(n: int, ref: PoseTrajectory, est: PoseTrajectory, repeats: int) -> str:
    ours, _ = _best(lambda: (project_to_plane(ref, "xy"), project_to_plane(est, "xy")), repeats)
    try:
        from evo.core.trajectory import Plane  # type: ignore[import-not-found]
    except ImportError:
        return _row("project xy", n, ours, None, "evo not installed")
    copies = [(_evo_trajectory(ref), _evo_trajectory(est)) for _ in range(repeats)]
    for a, b in copies:  # evo builds its 4x4 poses lazily: outside the timing
        _ = a.poses_se3, b.poses_se3

    def evo_project() -> None:
        a, b = copies.pop()
        a.project(Plane.XY)
        b.project(Plane.XY)

    theirs, _ = _best(evo_project, repeats)
    return _row("project xy", n, ours, theirs, "evo 1.38.1 PosePath3D.project")


def _offset_row(n: int, ref: PoseTrajectory, est: PoseTrajectory, repeats: int) -> str:
    auto = EvaluationSettings(offset_auto=True, align="se3", sync="interpolate")
    known = auto.replace(offset_auto=False, offset_s=-0.04)
    ours, found = _best(lambda: estimate_offset(ref, est, auto), repeats)
    plain, _ = _best(lambda: ape(ref, est, settings=known), repeats)
    note = f"found {found.offset_s * 1e3:+.3f} ms (true -40); reference: our APE, offset given"
    return _row("offset auto", n, ours, plain, note)


def _check_row(n: int, ref: PoseTrajectory, est: PoseTrajectory, repeats: int) -> str:
    settings = EvaluationSettings(offset_s=-0.04)
    prep = prepare(ref, est, settings)
    raw = prep.association.estimate
    ours, _ = _best(lambda: quaternion_order_check(prep.reference, raw), repeats)
    whole, _ = _best(lambda: prepare(ref, est, settings), repeats)
    return _row("quaternion check", n, ours, whole, "reference: the whole prepare() it runs in")


def main() -> int:
    """Time every extension at each size and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e3, 1e4, 1e5])
    parser.add_argument("--tum-script", type=Path, help="TUM's evaluate_rpe.py")
    parser.add_argument("--tum-max", type=float, default=1e4)
    parser.add_argument("--evo-max", type=float, default=1e5)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    tum = _tum_module(args.tum_script) if args.tum_script else None
    print(f"{'step':<18}{'N':>9}{'ours [s]':>14}{'ref. [s]':>14}{'ratio':>8}  note")
    for size in args.sizes:
        n = int(size)
        ref = _walk(n, 0)
        noise = np.random.default_rng(1).normal(size=(n, 3)) * 0.002
        est = ref.replace(stamps_s=ref.stamps_s + 0.04, positions_xyz=ref.positions_xyz + noise)
        print(_tum_rows(n, ref, est, tum if n <= args.tum_max else None, args.repeats))
        if n <= args.evo_max:
            print(_projection_row(n, ref, est, args.repeats))
        print(_offset_row(n, ref, est, args.repeats))
        print(_check_row(n, ref, est, args.repeats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
