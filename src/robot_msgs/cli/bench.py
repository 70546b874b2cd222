"""``robot-msgs bench``: evaluate every run of a manifest or folder, locally or on Dask.

The runs and settings are read as ``robot-msgs report`` reads them (:mod:`robot_msgs.runs`)
and each run is evaluated by the same per-run function, so a sweep and a report of the
same runs give the same numbers and the same ranking.

Exit status: 0 when every run was evaluated (runs that failed as runs, by their own
report, are results); 1 when a run failed to evaluate (unreadable input) or was not
evaluated (its worker kept dying, the scheduler was lost, no worker for
``--stall-timeout``), unless ``--allow-partial``; 74 (``EX_IOERR``) when a record or an
output could not be written (a full disk): the sweep stopped at once, evaluated nothing
more and names every run not stored, whatever ``--allow-partial`` says; 130 when
interrupted by Ctrl-C, 143 by SIGTERM (what ``timeout`` and SLURM send): the local
workers are stopped first. ``--resume`` finishes the sweep in every case. A second
``bench`` on an output folder in use is refused at once (exit 1).

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

import contextlib
import math
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.cli._boundary import EXIT_INTERRUPTED, EXIT_TERMINATED, say, warnings_grouped
from robot_msgs.cli._settings_args import add_run_settings_args, load_runs_from_args
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import UsageError, ValidationError
from robot_msgs.limits import retries_flag, workers_flag

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator, Sequence
    from types import FrameType

    from robot_msgs.batch.lock import FolderLock
    from robot_msgs.runs.run_settings import RunSettings
    from robot_msgs.runs.spec import RunSpec

__all__ = ["STORAGE_ERROR", "add_parser", "run"]

#: The exit status of a sweep stopped by a storage error (sysexits' EX_IOERR).
STORAGE_ERROR = 74


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: every worker stopped, the resume hint printed."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    del frame
    signal.signal(signum, signal.SIG_IGN)  # the first one stops the sweep; cleanup runs on
    raise _Terminated


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
            "that cannot be evaluated are recorded with their error, never dropped. "
            "Example: robot-msgs bench example:runs/runs.toml --out sweep/"
        ),
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="MANIFEST_OR_FOLDER",
        help="manifests (.toml/.json, example:NAME), run folders or sweep roots "
        "(ROOT/ALGORITHM/SEQUENCE/TRIAL)",
    )
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
        action=workers_flag,
        metavar="N",
        default=None,
        help="worker processes (default: the CPUs available)",
    )
    parser.add_argument(
        "--chunk-s",
        type=float,
        default=None,
        metavar="SECONDS",
        help=(
            "seconds of measured work one task (a chunk of runs) aims at (default: 1, and "
            "more on clusters of over 166 worker threads: 0.006 s a thread, so the Dask "
            "scheduler, at ~3 ms of CPU a task, is at most half busy)"
        ),
    )
    parser.add_argument(
        "--stall-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help=(
            "stop the sweep, as an incomplete one that --resume finishes, after this long "
            "without a worker or without a result (default: 600; 0: wait for ever); "
            "the progress line says so within seconds either way"
        ),
    )
    parser.add_argument(
        "--retries",
        type=int,
        action=retries_flag,
        metavar="N",
        default=2,
        help=(
            "re-runs of a run whose worker died while it ran alone, or that a lost scheduler "
            "took with it, before it is recorded as not evaluated (every executor; "
            "default %(default)s)"
        ),
    )
    again = parser.add_mutually_exclusive_group()
    again.add_argument(
        "--resume",
        action="store_true",
        help=(
            "keep the stored results whose inputs and settings are unchanged (by their "
            "size and modification time: an input changed and restored with `cp -p` "
            "keeps its old result until --verify); compute the rest"
        ),
    )
    again.add_argument(
        "--force", action="store_true", help="recompute every run and overwrite the outputs"
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help=(
            "with --resume: re-hash every input instead of trusting unchanged sizes and "
            "modification times (the workers hash; results whose inputs' bytes match are kept)"
        ),
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
    if args.scheduler is not None:  # a typo is one clear error, before anything else
        from robot_msgs.batch.dask_executor import check_scheduler_address  # noqa: PLC0415

        args.scheduler = check_scheduler_address(args.scheduler)
    if args.dashboard and not args.dask:
        msg = "--dashboard serves the dashboard of the LocalCluster --dask starts; add --dask"
        raise UsageError(msg)
    if args.verify and not args.resume:
        msg = "--verify re-hashes the inputs of stored results: add --resume"
        raise UsageError(msg)
    if args.workers is not None and (args.serial or args.scheduler):
        where = (
            "--serial evaluates in this process"
            if args.serial
            else ("the cluster at --scheduler has its own workers")
        )
        msg = f"--workers {args.workers}: has no effect, as {where}; drop it"
        raise UsageError(msg)
    for flag, seconds, zero in (
        ("chunk-s", args.chunk_s, False),
        ("stall-timeout", args.stall_timeout, True),
    ):
        if seconds is None:
            continue
        if not (math.isfinite(seconds) and (seconds >= 0 if zero else seconds > 0)):
            # A value out of its bounds is the command line's (exit 2, as --workers 0 and
            # every settings flag): these exited 1, and said 0 as 0.0.
            reason = f"expected a number of seconds {'>= 0' if zero else '> 0'}, got {seconds:g}"
            msg = f"--{flag} {seconds:g}: {reason}"
            raise UsageError(msg, field=flag.replace("-", "_"), reason=reason)
    from robot_msgs.batch.lock import FolderLock  # noqa: PLC0415 - keeps --help fast
    from robot_msgs.files import check_folder  # noqa: PLC0415

    check_folder(args.out, label="--out")
    created = not args.out.exists()
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with FolderLock(args.out) as lock:  # a second client is refused before it reads a run
            return _sweep(args, lock)
    finally:  # the lock file goes with the lock: a folder made for nothing goes too
        if created:
            with contextlib.suppress(OSError):  # not empty: the sweep wrote something
                args.out.rmdir()


def _sweep(args: argparse.Namespace, lock: FolderLock) -> int:
    """Read the runs and sweep them into the locked ``--out``; print what came of it."""
    from robot_msgs.batch.store import ResultStore  # noqa: PLC0415 - keeps --help fast
    from robot_msgs.batch.sweep import run_sweep  # noqa: PLC0415
    from robot_msgs.batch.watchdog import STALL_TIMEOUT_S  # noqa: PLC0415
    from robot_msgs.batch.worker import evaluate_task  # noqa: PLC0415
    from robot_msgs.report.text import counted  # noqa: PLC0415

    if not args.quiet:  # at once: reading a large manifest and importing NumPy take a while
        if lock.taken_over:
            say(f"bench: {lock.taken_over}")
        say(f"bench: reading the runs of {' '.join(map(str, args.inputs))}")
    reader = load_runs_from_args(args, list(args.inputs), stream=True)
    executor = "serial" if args.serial else ("dask" if args.dask else "local")
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
    stall = STALL_TIMEOUT_S if args.stall_timeout is None else args.stall_timeout
    try:
        with warnings_grouped():  # a tree's 40 log-only folders: one line, not 40
            summary = run_sweep(
                reader,
                args.out,
                fn=evaluate_task,
                executor=executor,
                workers=args.workers,
                scheduler=args.scheduler,
                retries=args.retries,
                resume=args.resume,
                force=args.force,
                verify=args.verify,
                progress=None if args.quiet else sys.stderr,
                dashboard=args.dashboard,
                chunk_s=args.chunk_s,
                stall_timeout_s=stall,
                lock=lock,
            )
    except ValidationError as err:
        if err.field not in ("workers", "retries"):
            raise
        msg = f"--{err.field} {getattr(args, err.field)}: {err.reason}"
        raise ValidationError(msg, field=err.field, reason=err.reason) from err
    except KeyboardInterrupt as stop:
        stored = ResultStore(args.out)
        how = "terminated (SIGTERM)" if isinstance(stop, _Terminated) else "interrupted"
        stopped = (
            f"this client stopped (the workers of the cluster at {args.scheduler} finish the "
            "chunks they hold and store their records, which --resume keeps)"
            if args.scheduler
            else "every worker stopped"
        )
        if not args.quiet:  # the progress line ended
            print(file=sys.stderr)
        # Through the boundary's say: labelled, and a name escaped (an --out with a newline
        # forged a second line).
        say(
            f"ERROR: {how}: {stopped}; "
            f"{counted(stored.count(), 'run result is', 'run results are')} stored in "
            f"{stored.root}; run the same command with --resume to finish"
        )
        return EXIT_TERMINATED if isinstance(stop, _Terminated) else EXIT_INTERRUPTED
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    print(summary.text())
    if summary.storage_error:
        unstored = next(iter(summary.infrastructure.items()), None)
        runs = f"; the first: {unstored[0]}: {unstored[1]}" if unstored else ""
        say(
            f"ERROR: the sweep stopped: {summary.stopped}; {summary.n_not_evaluated} of "
            f"{counted(summary.n_runs, 'run')} not evaluated or not stored (named in summary.json"
            f"{runs}); free some space and run the same command with --resume"
        )
        return STORAGE_ERROR
    # The runs the rankings hold: those with a report (the others count for none).
    unreported = {*summary.errors, *summary.infrastructure}
    reported = [run for run in reader.runs if run.name not in unreported]
    _print_rankings(Path(args.out), reported, reader.settings)
    if not summary.complete:
        text = (
            f"{summary.n_failed + summary.n_not_evaluated} of {counted(summary.n_runs, 'run')} "
            "did not "
            f"finish ({summary.n_failed} failed to evaluate, {summary.n_not_evaluated} not "
            "evaluated)"
        )
        named = {**summary.errors, **summary.infrastructure}
        if named:  # the first by name, so the error line alone says what went wrong
            first, error = next(iter(named.items()))
            more = f" (and {len(named) - 1} more: see above)" if len(named) > 1 else ""
            text += f": {first}: {error}{more}"
        if args.allow_partial:
            say(f"WARNING: {text}; accepted by --allow-partial")
            return 0
        say(f"ERROR: {text}; --allow-partial accepts a partial sweep")
        return 1
    return 0


def _print_rankings(out: Path, runs: Sequence[RunSpec], settings: RunSettings) -> None:
    from robot_msgs.compare import (  # noqa: PLC0415
        Ranking,
        Repeatability,
        configuration_labels,
    )
    from robot_msgs.report.group_tables import repeatability_table_of  # noqa: PLC0415
    from robot_msgs.report.ranking_tables import metric_title, ranking_table  # noqa: PLC0415
    from robot_msgs.report.table_renderers import render_text  # noqa: PLC0415

    # Each ranking headed by its metric in words ("RPE translation error over 1 s, all
    # pairs"), not its key (rpe:translation:1s:all) (a review).
    titles = {metric.name: metric_title(metric) for metric in settings.metrics}
    judged = settings.record()
    with _written_by_bench(out / "ranking.json") as entries:
        rankings = [
            (titles.get(str(entry["evaluation"]), str(entry["evaluation"])), ranking)
            for entry in entries
            if (ranking := entry["ranking"]) is not None
        ]
        tables = [(title, ranking_table(Ranking.from_dict(r), judged)) for title, r in rankings]
    for title, ranked in tables:
        print(f"\n{title}: " + render_text(ranked))
    with _written_by_bench(out / "repeatability.json") as documents:
        repeats = [Repeatability.from_dict(d) for d in documents]
    # Each group named as the ranking names its configuration (``orb 2.0`` among several):
    # from the configurations of ``runs``, those the rankings hold.
    configurations = [spec.configuration for spec in runs]
    labels = configuration_labels(configurations)
    keys = {
        spec.name: (labels[c], spec.sequence) for spec, c in zip(runs, configurations, strict=True)
    }
    with _written_by_bench(out / "repeatability.json"):
        table = repeatability_table_of([(*keys[rep.runs[0]], rep) for rep in repeats])
    if table is not None:
        print("\n" + render_text(table))


@contextlib.contextmanager
def _written_by_bench(file: Path) -> Iterator[Any]:
    """Read a JSON file the sweep wrote; any fault reading or using it is an error naming it.

    WHY: a no-op ``--resume`` prints the rankings of the files it kept, trusted as written;
    one edited or broken (10^4 nested brackets, an object for the array) ended as 'a bug
    in robot_msgs', or as an error that did not say which file.
    """
    from robot_msgs.batch.sweep_report import _document  # noqa: PLC0415
    from robot_msgs.errors import FormatError, RobotMsgsError  # noqa: PLC0415

    try:
        yield _document(file)
    except (RobotMsgsError, OSError, KeyError, TypeError, AttributeError, ValueError) as err:
        msg = (
            f"{file}: not the file bench wrote ({err}); delete {file.parent / 'summary.json'} "
            "and run the same command with --resume to write the outputs again"
        )
        raise FormatError(msg) from err
