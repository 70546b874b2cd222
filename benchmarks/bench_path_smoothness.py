"""PathSmoothness: robot_msgs against robometric-frame, timed and checked in one run.

    PYTHONPATH=src python benchmarks/bench_path_smoothness.py [--repeats 7]

Cases: B=1000 x L=1000 x D=3 random walks near the origin; one trajectory of L=10^6;
and the same batch offset by 1e6 m (map coordinates such as UTM). Each implementation is
timed on update() + compute() of a fresh metric, the runs interleaved, best of --repeats
(the machine is shared). robometric-frame 0.3.0 divides by L - 2, so robot_msgs runs with
normalization="points" for the like-for-like ratio; its default (path length, as
robometric-frame's docs define it) is timed as well. Accuracy is the relative error of the
mean against the same formula evaluated in long double from the same float64 input.
robometric-frame is optional: without it, only robot_msgs rows are printed.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.metrics import PathSmoothness

if TYPE_CHECKING:
    from collections.abc import Callable


def reference(points: np.ndarray, normalization: str) -> float:
    """The mean PathSmoothness in long double, from the float64 points."""
    p = points.astype(np.longdouble)
    steps = np.diff(p, axis=-2)
    change = np.sqrt((np.diff(steps, axis=-2) ** 2).sum(-1)).sum(-1)
    if normalization == "points":
        values = change / (points.shape[-2] - 2)
    else:
        values = change / np.sqrt((steps**2).sum(-1)).sum(-1)
    return float(np.mean(values, dtype=np.longdouble))


def implementations(points: np.ndarray) -> dict[str, tuple[str, Callable[[], float]]]:
    """Name -> (normalization, run) for every implementation available here."""

    def ours(normalization: str) -> Callable[[], float]:
        def run() -> float:
            metric = PathSmoothness(normalization=normalization)  # type: ignore[arg-type]
            metric.update(points)
            return metric.compute()

        return run

    out: dict[str, tuple[str, Callable[[], float]]] = {
        "robot_msgs numpy, points (float64)": ("points", ours("points")),
        "robot_msgs numpy, path_length (float64)": ("path_length", ours("path_length")),
    }
    try:
        import torch

        from robot_msgs.metrics import torch as rm_torch
    except ImportError:
        return out
    as64 = torch.from_numpy(points)

    def ours_torch() -> float:
        metric = rm_torch.PathSmoothness(normalization="points")
        metric.update(as64)
        return float(metric.compute())

    out["robot_msgs torch, points (float64)"] = ("points", ours_torch)
    try:
        from robometric_frame.trajectory_quality import PathSmoothness as Theirs
    except ImportError:
        return out
    as32 = as64.float()

    def theirs(tensor: torch.Tensor) -> Callable[[], float]:
        def run() -> float:
            metric = Theirs()
            metric.update(tensor)
            return float(metric.compute())

        return run

    out["robometric-frame 0.3.0 (float32 input)"] = ("points", theirs(as32))
    out["robometric-frame 0.3.0 (float64 input)"] = ("points", theirs(as64))
    return out


Row = tuple[str, str, float, float, float, float]


def bench(name: str, points: np.ndarray, repeats: int) -> list[Row]:
    """Rows (case, implementation, best wall ms, median wall ms, best CPU ms, relative error)."""
    impls = implementations(points)
    refs = {n: reference(points, n) for n in ("points", "path_length")}
    wall: dict[str, list[float]] = {k: [] for k in impls}
    cpu: dict[str, list[float]] = {k: [] for k in impls}
    values: dict[str, float] = {}
    for _ in range(repeats):
        for key, (_, run) in impls.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            values[key] = run()
            wall[key].append(time.perf_counter() - start)
            cpu[key].append(time.process_time() - start_cpu)
    rows = []
    for key, (normalization, _) in impls.items():
        ref = refs[normalization]
        error = abs(values[key] - ref) / abs(ref)
        best, median = min(wall[key]) * 1e3, float(np.median(wall[key])) * 1e3
        rows.append((name, key, best, median, min(cpu[key]) * 1e3, error))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    batch = np.cumsum(rng.normal(size=(1000, 1000, 3)), axis=1)
    long = np.cumsum(rng.normal(size=(1_000_000, 3)), axis=0)
    cases = {
        "B=1000 L=1000 D=3": batch,
        "B=1 L=10^6 D=3": long,
        "B=1000 L=1000 D=3 +1e6 m": batch + 1e6,
    }
    try:
        import torch

        threads = f"torch threads: {torch.get_num_threads()}"
    except ImportError:
        threads = "torch not installed"
    print(f"numpy {np.__version__}; {threads}; long double eps {np.finfo(np.longdouble).eps:.1e}")
    header = (
        f"{'case':<26} {'implementation':<42} {'best ms':>8} {'median':>8} {'cpu ms':>8} "
        f"{'vs rmf32':>9} {'rel. error':>10}"
    )
    print(header)
    print("-" * len(header))
    for name, points in cases.items():
        rows = bench(name, points, args.repeats)
        theirs = {r[1]: r[2] for r in rows}.get("robometric-frame 0.3.0 (float32 input)")
        for case, impl, best, median, cpu, error in rows:
            ratio = f"{theirs / best:8.2f}x" if theirs else f"{'-':>9}"
            print(
                f"{case:<26} {impl:<42} {best:8.1f} {median:8.1f} {cpu:8.1f} {ratio} {error:10.1e}"
            )
    print(
        "best/median: wall-clock ms over the interleaved repeats; cpu ms: best process CPU time "
        "(all threads);\nvs rmf32: robometric-frame's best wall time on float32 input / this "
        "row's (> 1: faster); rel. error: against long double."
    )


if __name__ == "__main__":
    main()
