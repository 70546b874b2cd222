"""Trajectory evaluation, step by step: robot_msgs against evo, timed in one run.

    PYTHONPATH=src python benchmarks/bench_evaluation.py [--sizes 1e3 1e4 1e5 1e6]
        [--evo-max 1e5] [--evo-quadratic-max 1e4] [--repeats 3]

Data: a random-walk SE(3) ground truth of N poses at 10 Hz (Gaussian steps of ~5 cm,
rotation increments of ~1 degree) and an estimate of N poses with noise, a slow drift
and stamps shifted by 1 ms, both written as TUM files. Steps timed, each on the output of
the previous one: load (both files), associate (evo's nearest rule, 0.01 s), align (SE(3)
Umeyama), APE translation and rotation angle (errors + statistics), RPE translation for
1 frame, 1 m all pairs and 1 s all pairs (pair selection + errors + statistics).

robot_msgs: best of --repeats. evo (when installed): one run per step up to --evo-max
poses; its all-pairs path search is quadratic, so it runs only up to --evo-quadratic-max
and is extrapolated as c N^2 beyond (marked "~"); evo has no seconds unit ("n/a").
Peak memory: tracemalloc around one robot_msgs run of each step, in a separate pass (so
tracing never slows the timed runs), in MiB and bytes per pose (flat in N = linear).
The evo and robot_msgs statistics of each shared step are compared (max relative
difference), so the ratios are between equal results.
"""

from __future__ import annotations

import argparse
import gc
import os
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

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
    """Run every step once; return each step's time (s) and result."""
    times: dict[str, float] = {}
    out: dict[str, Any] = {}

    def step(name: str, fn: Any) -> Any:
        start = time.perf_counter()
        value = fn()
        times[name] = time.perf_counter() - start
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
    times: dict[str, float] = {}
    out: dict[str, Any] = {}

    def step(name: str, fn: Any) -> Any:
        start = time.perf_counter()
        value = fn()
        times[name] = time.perf_counter() - start
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


def _fmt_time(value: float | None, mark: str = "") -> str:
    if value is None:
        return "-"
    return f"{mark}{value * 1e3:.1f} ms" if value < 1 else f"{mark}{value:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e3, 1e4, 1e5, 1e6])
    parser.add_argument("--evo-max", type=float, default=1e5, help="largest N evo runs at")
    parser.add_argument(
        "--evo-quadratic-max", type=float, default=1e4, help="largest N for evo's O(N^2) step"
    )
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; numpy {np.__version__}")
    try:
        from importlib.metadata import version

        print(f"evo {version('evo')}")
    except Exception:
        print("evo not installed: robot_msgs rows only")
    quad_coeff: float | None = None  # evo's seconds per N^2 for the all-pairs path step
    rows: list[tuple[int, str, str, str, str, str, str]] = []
    totals: list[tuple[int, float, float | None]] = []
    for size in args.sizes:
        n = int(size)
        with tempfile.TemporaryDirectory() as tmp:
            ref_path, est_path = make_files(n, Path(tmp))
            runs = [ours_steps(ref_path, est_path) for _ in range(args.repeats)]
            best = {s: min(r["times"][s] for r in runs) for s in STEPS}
            peaks = ours_memory(ref_path, est_path)
            evo = None
            if n <= args.evo_max:
                evo = evo_steps(ref_path, est_path, quadratic=n <= args.evo_quadratic_max)
        evo_times: dict[str, float] = {} if evo is None else dict(evo["times"])
        marks: dict[str, str] = {}
        if evo is not None and "RPE 1 m all" in evo_times:
            quad_coeff = evo_times["RPE 1 m all"] / n**2
        elif evo is not None and quad_coeff is not None:
            evo_times["RPE 1 m all"] = quad_coeff * n**2
            marks["RPE 1 m all"] = "~"
        for name in STEPS:
            mine = best[name]
            theirs = evo_times.get(name)
            ratio = "-" if theirs is None else f"{marks.get(name, '')}{theirs / mine:.0f}x"
            check = "-"
            if evo is not None and name in evo["results"] and name.startswith(("APE", "RPE")):
                check = f"{_rel_diff(runs[0]['results'][name], evo['results'][name]):.1e}"
            if evo is not None and name == "RPE 1 s all":
                theirs_txt = "n/a (no s unit)"
            else:
                theirs_txt = _fmt_time(theirs, marks.get(name, ""))
            rows.append(
                (
                    n,
                    name,
                    _fmt_time(mine),
                    theirs_txt,
                    ratio,
                    f"{peaks[name] / 2**20:.1f} MiB ({peaks[name] / n:.0f} B/pose)",
                    check,
                )
            )
        evo_total = None
        if evo is not None:
            evo_total = sum(evo_times.get(s, 0.0) for s in STEPS)
        totals.append((n, sum(best.values()), evo_total))
        print(f"done N={n}", flush=True)
    header = ("N", "step", "robot_msgs", "evo", "evo/ours", "peak memory (ours)", "rel. diff")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
    print()
    print("whole pipeline (sum of the steps above; evo without the s step):")
    for n, mine, theirs in totals:
        extra = "" if theirs is None else f"  evo {_fmt_time(theirs)}  ({theirs / mine:.0f}x)"
        print(f"  N={n:>8}: robot_msgs {_fmt_time(mine)}{extra}")
    print("~: extrapolated as c N^2 from the largest N evo ran the quadratic step at")


if __name__ == "__main__":
    main()
