"""``robot-msgs report``: evaluate runs and write what they did, beyond accuracy.

Prints the summary tables (ranking, per algorithm and sequence, repeatability, runs) and
writes any of JSON (the :class:`~robot_msgs.compare.Report` message's ``to_dict``, NaN as
``null``), CSV (one row per run), one self-contained HTML page, LaTeX and Markdown tables.
Every output is checked before any work starts (nothing is overwritten without
``--force``) and written atomically.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, TextIO

from robot_msgs.cli._evaluation_args import SYNC_CHOICES
from robot_msgs.errors import OutputExistsError
from robot_msgs.files import write_atomic
from robot_msgs.report.settings import ALIGNMENTS, DELTA_UNITS, ReportSettings

__all__ = ["ProgressBar", "add_parser", "json_safe", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``report`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "report",
        help="report runs: success, losses, accuracy, latency, resources, ranking",
        description=(
            "Evaluate run folders or manifests (.toml/.json) and report success, tracking "
            "losses, coverage, accuracy on the valid poses, latency, rates, resources and a "
            "ranking that refuses to mix evaluation settings."
        ),
    )
    parser.add_argument("inputs", nargs="+", type=Path, metavar="RUN_OR_MANIFEST")
    out = parser.add_argument_group("outputs (none overwritten without --force)")
    out.add_argument("--html", type=Path, help="self-contained HTML report with plots")
    out.add_argument("--json", type=Path, help="the Report message as JSON")
    out.add_argument("--csv", type=Path, help="one row per run")
    out.add_argument("--latex", type=Path, help="LaTeX tables (booktabs)")
    out.add_argument("--markdown", type=Path, help="Markdown tables")
    out.add_argument("--force", action="store_true", help="overwrite existing output files")
    ev = parser.add_argument_group("evaluation")
    ev.add_argument("--align", choices=ALIGNMENTS, default="se3", help="alignment (default se3)")
    ev.add_argument("--n-align", type=int, help="fit the alignment on the first N matched poses")
    ev.add_argument(
        "--sync", choices=SYNC_CHOICES, default="nearest", help="time association (as for ape)"
    )
    ev.add_argument("--max-diff", type=float, default=0.01, help="association tolerance [s]")
    ev.add_argument("--offset", type=float, default=0.0, help="added to estimate stamps [s]")
    ev.add_argument(
        "--rpe-delta", type=float, nargs="*", default=[1.0], help="RPE deltas (none: no RPE)"
    )
    ev.add_argument("--rpe-unit", choices=DELTA_UNITS, default="s", help="unit of the deltas")
    ev.add_argument(
        "--coverage-gap", type=float, default=1.0, help="longer estimate gaps are not covered [s]"
    )
    ev.add_argument(
        "--end-tolerance",
        type=float,
        default=1.0,
        help="a run succeeds if its last valid pose is at most this before the end [s]",
    )
    ev.add_argument(
        "--allow-mixed-settings",
        action="store_true",
        help="rank comparisons made with different settings anyway (the report says so)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    parser.add_argument("--quiet", action="store_true", help="no summary on stdout")
    parser.set_defaults(run=run)


class ProgressBar:
    r"""A one-line progress bar on a stream: ``[#####.....] 5/10 name``.

    Examples
    --------
    >>> import io
    >>> stream = io.StringIO()
    >>> bar = ProgressBar(stream, width=10)
    >>> bar(5, 10, "run")
    >>> stream.getvalue()
    '\r[#####.....] 5/10 run'
    """

    def __init__(self, stream: TextIO, *, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self._shown = 0

    def __call__(self, done: int, total: int, label: str) -> None:
        """Show ``done`` of ``total`` steps, with a label."""
        filled = self.width * done // max(total, 1)
        text = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {label}"
        pad = max(self._shown - len(text), 0)
        self.stream.write(text + " " * pad)
        self.stream.flush()
        self._shown = len(text)

    def close(self) -> None:
        """End the line."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = 0


def json_safe(value: Any) -> Any:
    """``value`` with NaN and infinities replaced by ``None`` (strict JSON).

    Examples
    --------
    >>> json_safe({"a": [1.0, float("nan")], "b": {"c": float("inf")}})
    {'a': [1.0, None], 'b': {'c': None}}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def run(args: argparse.Namespace) -> int:
    """Run ``robot-msgs report``; return the exit code."""
    from robot_msgs.report.report import build_report  # noqa: PLC0415 - keeps --help fast
    from robot_msgs.report.runs import load_runs  # noqa: PLC0415
    from robot_msgs.report.tables import (  # noqa: PLC0415
        render_latex,
        render_markdown,
        render_text,
        report_tables,
        runs_csv,
    )

    outputs = {
        name: getattr(args, name)
        for name in ("html", "json", "csv", "latex", "markdown")
        if getattr(args, name) is not None
    }
    for path in outputs.values():
        if path.exists() and not args.force:
            msg = f"{path} exists; pass --force to overwrite it"
            raise OutputExistsError(msg)
    if "html" in outputs:
        from robot_msgs.optional import require  # noqa: PLC0415

        require("matplotlib", "plot", feature="--html plots")
    settings = ReportSettings(
        align=args.align,
        n_align=args.n_align,
        sync=args.sync,
        max_diff_s=args.max_diff,
        offset_s=args.offset,
        rpe_deltas=tuple(args.rpe_delta),
        rpe_unit=args.rpe_unit,
        coverage_gap_s=args.coverage_gap,
        end_tolerance_s=args.end_tolerance,
    )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = ProgressBar(sys.stderr) if show else None
    try:
        runs = load_runs(list(args.inputs))
        result = build_report(runs, settings, force=args.allow_mixed_settings, progress=bar)
        report = result.report
        tables = report_tables(report)
        contents: dict[str, str] = {}
        if "json" in outputs:
            contents["json"] = json.dumps(json_safe(report.to_dict()), indent=1, allow_nan=False)
        if "csv" in outputs:
            contents["csv"] = runs_csv(report)
        if "latex" in outputs:
            contents["latex"] = render_latex(tables)
        if "markdown" in outputs:
            contents["markdown"] = render_markdown(tables)
        if "html" in outputs:
            from robot_msgs.report.html import render_html  # noqa: PLC0415

            steps = [0]

            def figure_progress(label: str) -> None:
                steps[0] += 1
                if bar is not None:
                    bar(steps[0], steps[0], f"plot: {label}")

            contents["html"] = render_html(result, progress=figure_progress)
    finally:
        if bar is not None:
            bar.close()
    for name, text in contents.items():
        write_atomic(outputs[name], text, force=args.force)
    if not args.quiet:
        print("\n\n".join(render_text(t) for t in tables))
        for note in report.notes:
            print(f"NOTE: {note}")
        for name in contents:
            print(f"wrote {outputs[name]}")
    return 0
