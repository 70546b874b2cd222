"""``robot-msgs report``: evaluate runs and write what they did, beyond accuracy.

Prints the summary tables (ranking, per algorithm and sequence, repeatability, runs) and
writes any of JSON (the :class:`~robot_msgs.compare.Report` message's ``to_dict``, strict
JSON), CSV (one row per run), one self-contained HTML page, LaTeX and Markdown tables.
Every output is checked before any work starts (nothing is overwritten without
``--force``) and written atomically. The runs and settings are read as ``robot-msgs
bench`` reads them (:mod:`robot_msgs.runs`), and evaluated by the same per-run function;
a folder ``bench`` wrote is reported from the run reports it stored
(:mod:`robot_msgs.batch.sweep_report`), nothing evaluated again.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.cli._boundary import warnings_grouped
from robot_msgs.cli._flag_text import flags_in_text
from robot_msgs.cli._output_args import add_table_flags, given_outputs, say_tables
from robot_msgs.cli._settings_args import add_run_settings_args, load_runs_from_args
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import UsageError, ValidationError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.report.build import ReportResult

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``report`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "report",
        help=COMMANDS["report"],
        description=(
            "Evaluate run folders, roots of run folders or manifests (.toml/.json, also "
            "example:runs/runs.toml) and report success, tracking losses, coverage, "
            "accuracy on the valid poses, latency, rates, resources and a ranking. The "
            "settings are the manifest's [settings], with the flags below on top. A "
            "bench output folder (bench --out DIR) is reported from its stored run "
            "reports, without evaluating again. Example: robot-msgs report "
            "example:runs/runs.toml --markdown tables.md"
        ),
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="RUN_OR_MANIFEST",
        help="run folders, folders of run folders, manifests (.toml/.json, example:NAME) or "
        "a bench --out folder, alone",
    )
    out = parser.add_argument_group("outputs (none overwritten without --force)")
    out.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="self-contained HTML report, interactive (plotly.js inlined: robot_msgs[html])",
    )
    out.add_argument(
        "--static",
        action="store_true",
        help="--html with PNG figures and no script, for e-mail and print (robot_msgs[plot])",
    )
    add_table_flags(out, "the Report message", "one row per run")
    out.add_argument("--force", action="store_true", help="overwrite existing output files")
    add_run_settings_args(parser)
    parser.add_argument(
        "--allow-partial",
        action="store_true",
        help=(
            "report the runs that evaluate and name those that do not (a warning each, "
            "a note in the report), as bench --allow-partial; without it the first run "
            "that cannot be evaluated, or a bench folder with runs missing, is an error"
        ),
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress line on stderr (default: when stderr is a terminal)",
    )
    said = parser.add_mutually_exclusive_group()
    said.add_argument(
        "--summary",
        action="store_true",
        help=(
            "print the ranking, per algorithm and sequence, repeatability and environment "
            "tables, not the table of one row per run (the output files are whole)"
        ),
    )
    said.add_argument(
        "--quiet",
        action="store_true",
        help="no summary tables and no progress line (--progress still shows it)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``robot-msgs report``; return the exit code."""
    from robot_msgs.files import STDOUT, check_outputs, write_atomic  # noqa: PLC0415
    from robot_msgs.report.run_tables import runs_csv  # noqa: PLC0415
    from robot_msgs.report.table_renderers import render_latex, render_markdown  # noqa: PLC0415
    from robot_msgs.report.tables import report_tables  # noqa: PLC0415
    from robot_msgs.report.text import controls_escaped  # noqa: PLC0415
    from robot_msgs.strict_json import dumps  # noqa: PLC0415

    outputs = given_outputs(args, ("html", "json", "csv", "latex", "markdown"))
    if args.static and "html" not in outputs:
        msg = "--static is a form of --html FILE; give that too"
        raise UsageError(msg)
    sweep = _sweep_folder(args)
    # A bench folder is read from its files: --json DIR/summary.json replaced its summary.
    read = [*args.inputs, *(sweep.iterdir() if sweep is not None else ())]
    check_outputs(
        outputs.values(), force=args.force, flags=[f"--{n}" for n in outputs], inputs=read
    )
    if "html" in outputs:
        from robot_msgs.optional import require  # noqa: PLC0415

        if args.static:
            require("matplotlib", "plot", feature="report --html --static")
        else:
            require("plotly", "html", feature="report --html (or --static for PNG figures)")
    if sweep is None:
        with warnings_grouped():
            result = _evaluated(args, outputs)
    else:
        result = _sweep_report(args, sweep, html="html" in outputs)
    report = result.report
    if args.allow_partial:  # the runs left out, each named and worded as bench says them
        from robot_msgs.cli._boundary import say  # noqa: PLC0415

        for kind, named in (
            ("failed to evaluate", result.failed),
            ("not evaluated", result.not_evaluated),
        ):
            for name, error in named.items():
                say(f"WARNING: run {name} {kind}: {error}")
    tables = report_tables(report)
    contents: dict[str, str] = {}
    if "json" in outputs:
        contents["json"] = dumps(report, indent=1)
    if "csv" in outputs:
        contents["csv"] = runs_csv(report)
    if "latex" in outputs:
        contents["latex"] = render_latex(tables)
    if "markdown" in outputs:
        contents["markdown"] = render_markdown(tables)
    if "html" in outputs:
        from robot_msgs.report.html_page import render_html  # noqa: PLC0415

        contents["html"] = render_html(result, static=args.static, words=_report_flags)
    for name, text in contents.items():
        write_atomic(outputs[name], text, force=args.force)
    if not args.quiet:  # the notes in flags, as the page's
        shown = report_tables(report, runs=False) if args.summary else tables
        said_to = say_tables(shown, [_report_flags(n) for n in report.notes], outputs)
        for name in contents:
            if os.fspath(outputs[name]) != STDOUT:
                print(f"wrote {controls_escaped(str(outputs[name]))}", file=said_to)
    return 0


def _evaluated(args: argparse.Namespace, outputs: Mapping[str, Path]) -> ReportResult:
    """Read and evaluate the runs ``args.inputs`` name, with a progress line if asked.

    Raises
    ------
    UsageError
        An output is one of a run's files (``--csv RUN/estimate.tum --force`` replaced it).
    """
    from robot_msgs.files import check_outputs  # noqa: PLC0415
    from robot_msgs.io.examples import EXAMPLE_PREFIX  # noqa: PLC0415
    from robot_msgs.progress import Progress  # noqa: PLC0415
    from robot_msgs.report.build import build_report  # noqa: PLC0415

    manifest = load_runs_from_args(args, list(args.inputs))
    if outputs:
        read = [
            path
            for run in manifest.runs
            for path in (
                *run.input_paths().values(),
                f"{run.folder}/meta.json" if run.folder else None,
            )
            if path and not path.startswith(EXAMPLE_PREFIX)
        ]
        flags = [f"--{n}" for n in outputs]
        check_outputs(outputs.values(), force=args.force, flags=flags, inputs=read)
    show = sys.stderr.isatty() and not args.quiet if args.progress is None else args.progress
    bar = Progress(len(manifest.runs), stream=sys.stderr if show else None, label="report")
    try:
        return build_report(
            manifest,
            partial=args.allow_partial,
            progress=lambda _name, failed: bar.advance(failed=int(failed)),
            evidence="html" in outputs,  # what its figures draw; the tables need the reports
        )
    finally:
        bar.close()


def _sweep_folder(args: argparse.Namespace) -> Path | None:
    """Return the ``bench`` output folder to report, if that is what ``args.inputs`` name.

    Raises
    ------
    ValidationError
        A ``bench`` folder beside other inputs.
    """
    from robot_msgs.batch.sweep_report import is_sweep_folder  # noqa: PLC0415

    sweeps = [Path(p) for p in args.inputs if is_sweep_folder(p)]
    if not sweeps:
        return None
    if len(args.inputs) > 1:
        msg = (
            f"{sweeps[0]}: a bench output folder is reported alone (its runs are evaluated "
            "already); give the runs or manifests of both to report them together"
        )
        raise ValidationError(msg)
    return sweeps[0]


def _sweep_report(args: argparse.Namespace, folder: Path, *, html: bool) -> ReportResult:
    """Read a ``bench`` folder's report; refuse the flags that would need the runs again.

    Raises
    ------
    ValidationError
        A settings flag other than the ranking rules (``--statistic``, ``--rank-failures``).
    FormatError
        As :func:`~robot_msgs.batch.sweep_report.read_sweep`.
    """
    from robot_msgs.batch.sweep_report import read_sweep  # noqa: PLC0415
    from robot_msgs.cli._settings_args import given_run_flags  # noqa: PLC0415

    # The ranking rules, as bench's: no run's report depends on them (RunSettings.evaluated).
    ranking = ("--statistic", "--rank-failures")
    refused = [flag for flag in given_run_flags(args) if flag not in ranking]
    if refused:
        msg = (
            f"{refused[0]}: {folder} holds runs that bench evaluated already, with the "
            "settings in its summary.json; report the manifest again to evaluate them "
            "with other settings (only the ranking rules, --statistic and "
            "--rank-failures, apply to a bench folder)"
        )
        raise ValidationError(msg)
    result = read_sweep(
        folder,
        statistic=args.statistic,
        rank_failures=args.rank_failures,
        force=False,
        partial=args.allow_partial,
    )
    if html:
        note = (
            "the HTML has no trajectory, error, RPE or latency figures: a bench folder keeps "
            "no trajectories or timing samples (report the manifest to draw them)"
        )
        import dataclasses  # noqa: PLC0415 - not for --help (with inspect, ast: 10 ms)

        report = result.report.replace(notes=(*result.report.notes, note))
        result = dataclasses.replace(result, report=report)
    return result


def _report_flags(text: str) -> str:
    """Say a note's settings as this command's flags: ``rpe``'s delta is ``--rpe-delta``.

    A run note said ``--delta-unit f``, which ``report`` refuses (a review). A side's
    times file is the manifest's key here (``report`` has no ``--ref-times``).

    Examples
    --------
    >>> _report_flags("give the times files, or `delta_unit='f'` for frames; `delta=` too")
    'give the times files, or --rpe-unit f for frames; --rpe-delta too'
    >>> _report_flags("give both times files (`reference_times=`, `estimate_times=`)")
    'give both times files (`reference_times`, `estimate_times`)'
    """
    text = re.sub(r"`((?:reference|estimate)_times)=`", r"`\1`", text)
    said = flags_in_text(text)
    return re.sub(r"--delta(?![\w-])", "--rpe-delta", said.replace("--delta-unit", "--rpe-unit"))
