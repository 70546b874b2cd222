"""Trajectory evaluation, step by step: robot_msgs against evo, timed in one run.

    python benchmarks/bench_evaluation.py [--sizes 1e3 1e4 1e5 1e6]
        [--evo-max 1e5] [--evo-quadratic-max 1e5] [--repeats 3]

Data: a random-walk SE(3) ground truth of N poses at 10 Hz (Gaussian steps of ~5 cm,
rotation increments of ~1 degree) and an estimate of N poses with noise, a slow drift
and stamps shifted by 1 ms, both written as TUM files. Steps timed, each on the output of
the previous one: load (both files), associate (evo's nearest rule, 0.01 s), align (SE(3)
Umeyama), APE translation and rotation angle (errors + statistics), RPE translation for
1 frame, 1 m all pairs and 1 s all pairs (pair selection + errors + statistics).

robot_msgs: the median of --repeats, the repeats alternating with evo's runs of the same
size. evo (when installed): the same number of runs per step up to --evo-max poses, the
median shown; its all-pairs path search is quadratic, so above --evo-quadratic-max it is
not run ("-"): a reference figure is measured or absent, never extrapolated. Where evo's
step takes more than 5 s it runs once (marked "1x"). Each time is wall (CPU) seconds of
the step, CPU from ``time.process_time``; evo has no seconds unit ("n/a").
Peak memory: tracemalloc around one robot_msgs run of each step, in a separate pass (so
tracing never slows the timed runs), in MiB and bytes per pose (flat in N = linear).
The evo and robot_msgs statistics of each shared step are compared (max relative
difference), so the ratios are between equal results.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from harness import machine_line

from robot_msgs.compare import error_stats
from robot_msgs.evaluation import (
    EvaluationSettings,
    PairSettings,
    align,
    ape_errors,
    associate,
    rpe_errors,
    select_pairs,
)
from robot_msgs.io import read_tum
from robot_msgs.rotations import normalize_quat_xyzw, quat_xyzw_multiply

STEPS = (
    "load",
    "associate",
    "align",
    "APE translation",
    "APE rotation",
    "RPE 1 f",
    "RPE 1 m all",
    "RPE 1 s all",
)
QUADRATIC_FOR_EVO = {"RPE 1 m all"}


def _quats_from_rotvecs(rotvecs: np.ndarray) -> np.ndarray:
    angle = np.linalg.norm(rotvecs, axis=1, keepdims=True)
    axis = rotvecs / np.where(angle > 0, angle, 1.0)
    return np.concatenate([np.sin(angle / 2) * axis, np.cos(angle / 2)], axis=1)


def _prefix_product(increments: np.ndarray) -> np.ndarray:
    """Orientations q_k = inc_0 ⊗ ... ⊗ inc_k by doubling (log2 N vectorised passes)."""
    acc = increments.copy()
    shift = 1
    while shift < acc.shape[0]:
        acc[shift:] = quat_xyzw_multiply(acc[:-shift], acc[shift:])
        shift *= 2
    return normalize_quat_xyzw(acc)


def make_files(n: int, folder: Path, seed: int = 0) -> tuple[Path, Path]:
    """Write a random-walk ground truth and a noisy, drifting estimate as TUM files."""
    rng = np.random.default_rng(seed)
    t = 1.7e9 + np.arange(n) * 0.1  # Unix-time stamps, 10 Hz
    p_ref = np.cumsum(rng.normal(scale=0.05, size=(n, 3)), axis=0)
    q_ref = _prefix_product(_quats_from_rotvecs(rng.normal(scale=0.01, size=(n, 3))))
    drift = np.linspace(0.0, 1.0, n)[:, None] * np.array([0.5, -0.3, 0.1])
    p_est = p_ref + drift + rng.normal(scale=0.01, size=(n, 3))
    q_noise = _quats_from_rotvecs(rng.normal(scale=0.002, size=(n, 3)))
    q_est = normalize_quat_xyzw(quat_xyzw_multiply(q_ref, q_noise))
    ref, est = folder / "reference.tum", folder / "estimate.tum"
    for path, stamps, p, q in ((ref, t, p_ref, q_ref), (est, t + 0.001, p_est, q_est)):
        np.savetxt(
            path, np.column_stack([stamps, p, q]), fmt="%.6f %.9f %.9f %.9f %.9f %.9f %.9f %.9f"
        )
    return ref, est


# --------------------------------------------------------------------------- robot_msgs


def ours_steps(ref_path: Path, est_path: Path) -> dict[str, Any]:
    """Run every step once; return each step's (wall, CPU) seconds and result."""
    times: dict[str, tuple[float, float]] = {}
    out: dict[str, Any] = {}

    def step(name: str, fn: Any) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        value = fn()
        times[name] = (time.perf_counter() - start, time.process_time() - cpu)
        out[name] = value
        return value

    ref, est = step("load", lambda: (read_tum(ref_path), read_tum(est_path)))
    assoc = step(
        "associate",
        lambda: associate(ref, est, EvaluationSettings(max_diff_s=0.01, sync="nearest")),
    )
    aligned, _ = step(
        "align",
        lambda: align(assoc.reference, assoc.estimate, settings=EvaluationSettings(align="se3")),
    )
    r, e = assoc.reference, aligned
    step("APE translation", lambda: error_stats(ape_errors(r, e, "translation")))
    step("APE rotation", lambda: error_stats(ape_errors(r, e, "angle_deg")))

    def rpe(delta: float, unit: str, *, all_pairs: bool) -> Any:
        pairs = select_pairs(e, PairSettings(all_pairs=all_pairs, delta=delta, delta_unit=unit))
        return error_stats(rpe_errors(r, e, pairs, "translation"))

    step("RPE 1 f", lambda: rpe(1, "f", all_pairs=False))
    step("RPE 1 m all", lambda: rpe(1.0, "m", all_pairs=True))
    step("RPE 1 s all", lambda: rpe(1.0, "s", all_pairs=True))
    return {"times": times, "results": out}


def ours_memory(ref_path: Path, est_path: Path) -> dict[str, float]:
    """Peak traced memory (bytes) of each step, one traced run."""
    peaks: dict[str, float] = {}
    ref = est = assoc = aligned = None

    def traced(name: str, fn: Any) -> Any:
        gc.collect()
        tracemalloc.start()
        value = fn()
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return value

    ref, est = traced("load", lambda: (read_tum(ref_path), read_tum(est_path)))
    assoc = traced(
        "associate",
        lambda: associate(ref, est, EvaluationSettings(max_diff_s=0.01, sync="nearest")),
    )
    aligned, _ = traced(
        "align",
        lambda: align(assoc.reference, assoc.estimate, settings=EvaluationSettings(align="se3")),
    )
    r, e = assoc.reference, aligned
    traced("APE translation", lambda: error_stats(ape_errors(r, e, "translation")))
    traced("APE rotation", lambda: error_stats(ape_errors(r, e, "angle_deg")))
    for name, (delta, unit, all_pairs) in {
        "RPE 1 f": (1, "f", False),
        "RPE 1 m all": (1.0, "m", True),
        "RPE 1 s all": (1.0, "s", True),
    }.items():
        traced(
            name,
            lambda d=delta, u=unit, a=all_pairs: error_stats(
                rpe_errors(
                    r,
                    e,
                    select_pairs(e, PairSettings(all_pairs=a, delta=d, delta_unit=u)),
                    "translation",
                )
            ),
        )
    return peaks


# --------------------------------------------------------------------------- evo


def evo_steps(ref_path: Path, est_path: Path, *, quadratic: bool) -> dict[str, Any] | None:
    """evo's equivalent of each step, once; ``None`` without evo."""
    try:
        from evo.core import metrics, sync
        from evo.core.units import Unit
        from evo.tools import file_interface
    except ImportError:
        return None
    times: dict[str, tuple[float, float]] = {}
    out: dict[str, Any] = {}

    def step(name: str, fn: Any) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        value = fn()
        times[name] = (time.perf_counter() - start, time.process_time() - cpu)
        out[name] = value
        return value

    def stats(metric: Any) -> dict[str, float]:
        return metric.get_all_statistics()

    ref, est = step(
        "load",
        lambda: (
            file_interface.read_tum_trajectory_file(ref_path),
            file_interface.read_tum_trajectory_file(est_path),
        ),
    )
    ref, est = step("associate", lambda: sync.associate_trajectories(ref, est, max_diff=0.01))
    step("align", lambda: est.align(ref, correct_scale=False))

    def ape(relation: Any) -> dict[str, float]:
        metric = metrics.APE(relation)
        metric.process_data((ref, est))
        return stats(metric)

    step("APE translation", lambda: ape(metrics.PoseRelation.translation_part))
    step("APE rotation", lambda: ape(metrics.PoseRelation.rotation_angle_deg))

    def rpe(delta: float, unit: Any, *, all_pairs: bool) -> dict[str, float]:
        metric = metrics.RPE(
            metrics.PoseRelation.translation_part, delta, unit, 0.1, all_pairs=all_pairs
        )
        metric.process_data((ref, est))
        return stats(metric)

    step("RPE 1 f", lambda: rpe(1, Unit.frames, all_pairs=False))
    if quadratic:
        step("RPE 1 m all", lambda: rpe(1.0, Unit.meters, all_pairs=True))
    return {"times": times, "results": out}


def _rel_diff(ours: Any, evo: dict[str, float]) -> float:
    got = {"rmse": ours.rms, "mean": ours.mean, "median": ours.median, "max": ours.max}
    return max(abs(got[k] - evo[k]) / abs(evo[k]) for k in got)


# --------------------------------------------------------------------------- main


def _fmt_time(value: tuple[float, float] | None, mark: str = "") -> str:
    if value is None:
        return "-"
    wall, cpu = value
    if wall < 1:
        return f"{mark}{wall * 1e3:.1f} ({cpu * 1e3:.1f}) ms"
    return f"{mark}{wall:.2f} ({cpu:.2f}) s"


def _median_times(runs: list[dict[str, Any]], name: str) -> tuple[float, float]:
    walls = [r["times"][name][0] for r in runs]
    cpus = [r["times"][name][1] for r in runs]
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e3, 1e4, 1e5, 1e6])
    parser.add_argument("--evo-max", type=float, default=1e5, help="largest N evo runs at")
    parser.add_argument(
        "--evo-quadratic-max", type=float, default=1e5, help="largest N for evo's O(N^2) step"
    )
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"before: {machine_line()}")
    try:
        from importlib.metadata import version

        print(f"evo {version('evo')}")
    except ImportError:  # importlib.metadata.PackageNotFoundError
        print("evo not installed: robot_msgs rows only")
    rows: list[tuple[int, str, str, str, str, str, str]] = []
    totals: list[tuple[int, float, float | None]] = []
    for size in args.sizes:
        n = int(size)
        with tempfile.TemporaryDirectory() as tmp:
            ref_path, est_path = make_files(n, Path(tmp))
            runs: list[dict[str, Any]] = []
            evo_runs: list[dict[str, Any]] = []
            slow = False  # an evo step took > 5 s: evo's figures of this size are one run
            for _ in range(args.repeats):  # ours and evo alternate
                runs.append(ours_steps(ref_path, est_path))
                if n <= args.evo_max and not slow:
                    quadratic = n <= args.evo_quadratic_max
                    evo = evo_steps(ref_path, est_path, quadratic=quadratic)
                    if evo is not None:
                        evo_runs.append(evo)
                        slow = any(wall > 5 for wall, _ in evo["times"].values())
            peaks = ours_memory(ref_path, est_path)
        mine = {s: _median_times(runs, s) for s in STEPS}
        evo_times = {
            s: _median_times([r for r in evo_runs if s in r["times"]], s)
            for s in STEPS
            if any(s in r["times"] for r in evo_runs)
        }
        for name in STEPS:
            theirs = evo_times.get(name)
            mark = "1x " if len(evo_runs) == 1 < args.repeats and theirs is not None else ""
            ratio = "-" if theirs is None else f"{theirs[0] / mine[name][0]:.0f}x"
            check = "-"
            if evo_runs and name in evo_runs[0]["results"] and name.startswith(("APE", "RPE")):
                check = f"{_rel_diff(runs[0]['results'][name], evo_runs[0]['results'][name]):.1e}"
            if evo_runs and name == "RPE 1 s all":
                theirs_txt = "n/a (no s unit)"
            else:
                theirs_txt = _fmt_time(theirs, mark)
            rows.append(
                (
                    n,
                    name,
                    _fmt_time(mine[name]),
                    theirs_txt,
                    ratio,
                    f"{peaks[name] / 2**20:.1f} MiB ({peaks[name] / n:.0f} B/pose)",
                    check,
                )
            )
        evo_total = sum(t[0] for t in evo_times.values()) if evo_times else None
        totals.append((n, sum(t[0] for t in mine.values()), evo_total))
        print(f"done N={n}", flush=True)
    header = ("N", "step", "robot_msgs", "evo", "evo/ours", "peak memory (ours)", "rel. diff")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
    print()
    print("whole pipeline (sum of the steps' wall times; evo: the steps it ran):")
    for n, total, theirs in totals:
        extra = "" if theirs is None else f"  evo {theirs:.3f} s  ({theirs / total:.0f}x)"
        print(f"  N={n:>8}: robot_msgs {total:.3f} s{extra}")
    print(
        "wall (CPU) of each step, median of the runs; 1x: one evo step took > 5 s, so evo ran once"
    )
    print(f"after: {machine_line()}")


if __name__ == "__main__":
    main()
