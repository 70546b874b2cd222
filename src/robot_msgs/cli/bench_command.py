"""``robot-msgs bench``: evaluate every run of a manifest or folder, locally or on Dask.

The runs and settings are read as ``robot-msgs report`` reads them (:mod:`robot_msgs.runs`)
and each run is evaluated by the same per-run function, so a sweep and a report of the
same runs give the same numbers and the same ranking.

Exit status: 0 when every run was evaluated (runs that failed as runs, by their own
report, are results); 1 when a run could not be evaluated (unreadable input) or its worker
kept dying, unless ``--allow-partial``; 130 when interrupted (then ``--resume``).

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

from robot_msgs.cli._evaluation_args import add_run_settings_args, load_runs_from_args
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]

_INTERRUPTED = 130  # the shell's code for a process ended by SIGINT


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``bench`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "bench",
        help=COMMANDS["bench"],
        description=(
            "Evaluate every run of a manifest (.toml/.json), of run folders, or of a "
            "folder laid out as ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext> with "
            "ROOT/SEQUENCE/reference.<ext> (also example:runs/runs.toml), with one set of "
            "settings (the manifest's [settings], with the flags below on top). Writes one "
            "record per run (OUT/runs/), the results table (OUT/results.parquet), the "
            "reports, aggregates, rankings and repeatability as JSON, and a summary. Runs "
            "that cannot be evaluated are recorded with their error, never dropped."
        ),
    )
    parser.add_argument("inputs", nargs="+", metavar="MANIFEST_OR_FOLDER")
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
        "--dashboard",
        action="store_true",
        help="with --dask: serve the cluster's dashboard on 127.0.0.1 and print its address",
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
    parser.add_argument(
        "--allow-partial",
        action="store_true",
        help="exit 0 even when some runs could not be evaluated (they are listed)",
    )
    add_run_settings_args(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the sweep; print its summary, rankings and repeatability."""
    from robot_msgs.batch.store import ResultStore  # noqa: PLC0415 - keeps --help fast
    from robot_msgs.batch.sweep import run_sweep  # noqa: PLC0415
    from robot_msgs.batch.worker import evaluate_task  # noqa: PLC0415
    from robot_msgs.compare import Ranking, Repeatability  # noqa: PLC0415
    from robot_msgs.files import check_folder  # noqa: PLC0415
    from robot_msgs.report.tables import (  # noqa: PLC0415
        ranking_table,
        render_text,
        repeatability_table_of,
    )

    if args.dashboard and not args.dask:
        msg = "--dashboard serves the dashboard of the LocalCluster --dask starts; add --dask"
        raise ValidationError(msg)
    if args.workers is not None and (args.serial or args.scheduler):
        where = (
            "--serial evaluates in this process"
            if args.serial
            else ("the cluster at --scheduler has its own workers")
        )
        msg = f"--workers {args.workers}: has no effect, as {where}; drop it"
        raise ValidationError(msg)
    check_folder(args.out, label="--out")
    manifest = load_runs_from_args(args, list(args.inputs))
    executor = "serial" if args.serial else ("dask" if args.dask else "local")
    try:
        summary = run_sweep(
            manifest,
            args.out,
            fn=evaluate_task,
            executor=executor,
            workers=args.workers,
            scheduler=args.scheduler,
            retries=args.retries,
            resume=args.resume,
            force=args.force,
            progress=None if args.quiet else sys.stderr,
            dashboard=args.dashboard,
        )
    except ValidationError as err:
        if err.field not in ("workers", "retries"):
            raise
        msg = f"--{err.field} {getattr(args, err.field)}: {err.reason}"
        raise ValidationError(msg, field=err.field, reason=err.reason) from err
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
    out = Path(args.out)
    for entry in json.loads((out / "ranking.json").read_text(encoding="utf-8")):
        if entry["ranking"] is not None:
            ranked = ranking_table(Ranking.from_dict(entry["ranking"]))
            print(f"\n{entry['evaluation']}: " + render_text(ranked))
    repeats = [
        Repeatability.from_dict(d)
        for d in json.loads((out / "repeatability.json").read_text(encoding="utf-8"))
    ]
    keys = {spec.name: (spec.algorithm, spec.sequence) for spec in manifest.runs}
    table = repeatability_table_of([(*keys[rep.runs[0]], rep) for rep in repeats])
    if table is not None:
        print("\n" + render_text(table))
    if not summary.complete:
        n = summary.n_failed + summary.n_crashed
        first, error = next(iter(summary.errors.items()))
        more = f" (and {n - 1} more: see 'not evaluated' above)" if n > 1 else ""
        text = f"{n} of {summary.n_runs} runs could not be evaluated: {first}: {error}{more}"
        if args.allow_partial:
            print(f"WARNING: {text}; accepted by --allow-partial", file=sys.stderr)
            return 0
        print(f"ERROR: {text}; --allow-partial accepts a partial sweep", file=sys.stderr)
        return 1
    return 0
