"""``robot-msgs bench``: evaluate every run of a manifest or folder, locally or on Dask.

Examples
--------
>>> import argparse
>>> parser = argparse.ArgumentParser(prog="robot-msgs")
>>> add_parser(parser.add_subparsers())
>>> args = parser.parse_args(["bench", "runs/", "--out", "results", "--dask", "--workers", "4"])
>>> (args.dask, args.workers, args.retries, args.resume)
(True, 4, 2, False)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.batch.manifest import load_bench_input
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.compare import Ranking
from robot_msgs.report.tables import ranking_table, render_text

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]

_INTERRUPTED = 130  # the shell's code for a process ended by SIGINT


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``bench`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "bench",
        help="evaluate many runs (a manifest or a folder) locally or on a Dask cluster",
        description=(
            "Evaluate every run of a TOML manifest, or of a folder laid out as "
            "ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext> with ROOT/SEQUENCE/reference.<ext>, "
            "with one set of settings. Writes one record per run (OUT/runs/), the results "
            "table (OUT/results.parquet), the Comparisons and Aggregates as JSON, and a "
            "summary. Runs that fail are recorded with their error, never dropped."
        ),
    )
    parser.add_argument("input", metavar="MANIFEST_OR_FOLDER", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="output folder (created)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--dask",
        action="store_true",
        help="start a Dask LocalCluster on 127.0.0.1 (needs robot_msgs[dask])",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="use the running Dask cluster at ADDR (tcp://HOST:PORT); workers must see the files",
    )
    where.add_argument(
        "--serial", action="store_true", help="evaluate in this process, one run at a time"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes (default: the CPUs available)",
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=2,
        help="re-runs of a run whose worker process died, before it is recorded as crashed",
    )
    again = parser.add_mutually_exclusive_group()
    again.add_argument(
        "--resume",
        action="store_true",
        help="keep the stored results whose inputs and settings are unchanged; compute the rest",
    )
    again.add_argument(
        "--force", action="store_true", help="recompute every run and overwrite the outputs"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the sweep; print its summary and rankings. 130 if interrupted (then --resume)."""
    from robot_msgs.batch.evaluate import evaluate_run  # noqa: PLC0415  (reads io, evaluation)

    manifest = load_bench_input(args.input)
    executor = "serial" if args.serial else ("dask" if args.dask else "local")
    try:
        summary = run_sweep(
            manifest,
            args.out,
            fn=evaluate_run,
            executor=executor,
            workers=args.workers,
            scheduler=args.scheduler,
            retries=args.retries,
            resume=args.resume,
            force=args.force,
            progress=None if args.quiet else sys.stderr,
        )
    except KeyboardInterrupt:
        stored = ResultStore(args.out)
        count = len(list(stored.root.glob("*.json"))) if stored.root.is_dir() else 0
        print(
            f"\ninterrupted: {count} run results are stored in {stored.root}; "
            "run the same command with --resume to finish",
            file=sys.stderr,
        )
        return _INTERRUPTED
    print(summary.text())
    for entry in json.loads((Path(args.out) / "ranking.json").read_text(encoding="utf-8")):
        if entry["ranking"] is not None:
            table = ranking_table(Ranking.from_dict(entry["ranking"]))
            print(f"\n{entry['evaluation']}: " + render_text(table))
    return 0
