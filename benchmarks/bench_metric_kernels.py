"""The streaming-metric kernels on the NumPy road (and torch beside it), timed in one run.

    PYTHONPATH=src python benchmarks/bench_metric_kernels.py [--repeats 7] [--json OUT]

Each functional twin of :mod:`robot_msgs.metrics` runs on a large batch (where the kernel's
arithmetic dominates) and, 200 times in a row, on one small item (where the per-call cost
of checks and dispatch dominates: a streaming ``update`` per trajectory). Best of
``--repeats`` runs, the cases interleaved (the machine is shared). ``--json`` writes the
timings (keeping the best of the runs already in the file), so two checkouts can be
compared: run it a few times, alternating, with ``PYTHONPATH`` pointing at each ``src``,
and compare the files with ``--compare BEFORE.json AFTER.json``. With torch
installed, the same calls on float64 CPU tensors are timed as well (``torch`` rows).
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import robot_msgs.metrics as m

if TYPE_CHECKING:
    from collections.abc import Callable

SMALL_CALLS = 200


def cases(rng: np.random.Generator) -> dict[str, tuple[Callable[..., Any], tuple[Any, ...]]]:
    """Name -> (function, large arguments); the small case slices one item off them."""
    walk3 = np.cumsum(rng.normal(size=(1000, 1000, 3)), axis=1)
    walk2 = np.cumsum(rng.normal(size=(1000, 200, 2)), axis=1)
    headings = rng.uniform(-4, 4, size=(1000, 200))
    t = np.linspace(-1, 1, 200)
    speed = np.exp(-5 * t**2) * (1 + rng.random((1000, 1))) + 0.01 * rng.random((1000, 200))
    pred = np.cumsum(rng.normal(size=(1000, 100, 2)), axis=1)
    true = pred + rng.normal(scale=0.1, size=pred.shape)
    ref = np.cumsum(rng.normal(size=(100, 40, 2)), axis=1)
    query = np.cumsum(rng.normal(size=(100, 50, 2)), axis=1)
    success = rng.random(100_000) < 0.7
    shortest = rng.uniform(1, 10, 100_000)
    taken = shortest * rng.uniform(1, 2, 100_000)
    return {
        "path_smoothness": (m.path_smoothness, (walk3,)),
        "path_length": (m.path_length, (walk3,)),
        "straightness": (m.straightness, (walk3,)),
        "curvature": (m.curvature, (walk2,)),
        "curvature_change": (m.curvature_change, (walk2, headings)),
        "log_dimensionless_jerk": (lambda s: m.log_dimensionless_jerk(s, 100.0), (speed,)),
        "sparc": (lambda s: m.sparc(s, 100.0), (speed,)),
        "average_displacement_error": (m.average_displacement_error, (pred, true)),
        "final_displacement_error": (m.final_displacement_error, (pred, true)),
        "dtw": (m.dtw, (query, ref)),
        "ndtw": (m.ndtw, (query, ref)),
        "sdtw": (lambda q, r: m.sdtw(q, r, threshold=5.0), (query, ref)),
        "success_rate": (m.success_rate, (success,)),
        "spl": (m.spl, (success, shortest, taken)),
    }


def _best(run: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _interleaved(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    for run in runs.values():  # warm-up: imports, caches, thread pools
        run()
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):  # interleaved: a burst of load spreads over every case
        for key, run in runs.items():
            best[key] = min(best[key], _best(run, 1))
    return best


def measure(repeats: int) -> dict[str, float]:
    """Seconds per case: ``NAME large``, ``NAME small x200``, and the torch rows if present.

    The NumPy rows run first, before any torch operation: torch's worker threads keep
    spinning for a while after each of its calls and would slow the NumPy calls after it.
    """
    rng = np.random.default_rng(5)
    all_cases = cases(rng)
    runs: dict[str, Callable[[], object]] = {}
    for name, (fn, args) in all_cases.items():
        small = tuple(np.asarray(a)[0] for a in args)

        def large_run(fn: Callable[..., Any] = fn, args: tuple[Any, ...] = args) -> object:
            return fn(*args)

        def small_run(fn: Callable[..., Any] = fn, small: tuple[Any, ...] = small) -> object:
            for _ in range(SMALL_CALLS):
                fn(*small)
            return None

        runs[f"{name} large"] = large_run
        runs[f"{name} small x{SMALL_CALLS}"] = small_run
    best = _interleaved(runs, repeats)
    try:
        torch: Any = importlib.import_module("torch")  # optional: the torch rows
    except ImportError:
        return best
    torch_runs: dict[str, Callable[[], object]] = {}
    for name, (fn, args) in all_cases.items():
        tensors = tuple(torch.from_numpy(np.asarray(a)) for a in args)
        if not isinstance(fn(*tensors), torch.Tensor):
            continue  # a checkout whose kernels take NumPy only

        def torch_run(fn: Callable[..., Any] = fn, tensors: tuple[Any, ...] = tensors) -> object:
            return fn(*tensors)

        torch_runs[f"{name} large torch"] = torch_run
    return best | _interleaved(torch_runs, repeats)


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print one row each (or compare two saved runs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write the timings here")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        print(f"{'case':44s} {'before ms':>10s} {'after ms':>10s} {'after/before':>12s}")
        for key in before:
            if key in after:
                b, a = before[key] * 1e3, after[key] * 1e3
                print(f"{key:44s} {b:10.3f} {a:10.3f} {a / b:12.3f}")
        return 0
    timings = measure(args.repeats)
    print(f"{'case':44s} {'best ms':>10s}")
    for key, seconds in timings.items():
        print(f"{key:44s} {seconds * 1e3:10.3f}")
    if args.json:  # best of this run and the runs already in the file
        if args.json.exists():
            earlier = json.loads(args.json.read_text())
            timings = {k: min(v, earlier.get(k, v)) for k, v in timings.items()}
        args.json.write_text(json.dumps(timings, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
