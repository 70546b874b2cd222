"""``robot-msgs res RESULT...``: compare saved results, ours and evo's, as ``evo_res`` does.

Reads results ``robot-msgs ape/rpe/drift --save`` wrote (JSON, ``.npz``, Parquet) and
evo's ``--save_results`` zips (without pickle), prints one table of their statistics
with the settings that differ as columns, ranks them only when their settings agree
(``--force-ranking`` ranks anyway, marked so), and writes the same tables as ``report`` does
(``--json``, ``--csv``, ``--latex``, ``--markdown``), one interactive page
(``--html``) and figures (``--plot``: error over
time and distance, box, violin, histogram; drift results' rotation boxed too). Every
output is checked before any work.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.cli._flag_text import flags_in_text
from robot_msgs.cli._output_args import (
    add_label_flag,
    add_plot_flags,
    add_table_flags,
    check_plot_options,
    given_outputs,
    say_tables,
)
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import FormatError, UsageError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``res`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "res",
        help=COMMANDS["res"],
        description=(
            "Compare saved results: robot-msgs ape/rpe/drift --save files (.json, .npz, "
            ".parquet) and evo --save_results zips. Example: robot-msgs res a.json b.npz "
            "evo_ape.zip --plot res.pdf"
        ),
    )
    parser.add_argument("results", nargs="+", metavar="RESULT", help="saved result files")
    out = parser.add_argument_group("outputs (none overwritten without --force)")
    add_table_flags(out, "the comparison", "one row per result and signal")
    out.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="one interactive page: the tables and the plots (plotly.js inlined: robot_msgs[html])",
    )
    add_plot_flags(
        out,
        "error over time and distance, box, violin, histogram (drift results: their "
        "rotation boxed too): PDF, SVG, EPS or PNG by the name, 13 x 8 in; needs "
        "robot_msgs[plot]",
    )
    add_label_flag(out, "RESULT")
    parser.add_argument(
        "--signal",
        action="append",
        metavar="NAME",
        help="keep only this signal of each result, by name, else by quantity (yaw_world_deg: "
        "an rpg drift's yaw at every length, boxed per length as rpg does); repeat to keep "
        "several, the first boxed and tabled first",
    )
    out.add_argument("--force", action="store_true", help="overwrite existing output files")
    parser.add_argument(
        "--force-ranking",
        action="store_true",
        help="rank results made with different settings anyway (the ranking says so)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``robot-msgs res``; return the exit code."""
    from robot_msgs.files import STDOUT, check_outputs, write_atomic  # noqa: PLC0415
    from robot_msgs.report.saved_results import (  # noqa: PLC0415
        compare_results,
        load_saved_results,
        results_csv,
    )
    from robot_msgs.report.table_renderers import render_latex, render_markdown  # noqa: PLC0415
    from robot_msgs.report.text import controls_escaped  # noqa: PLC0415
    from robot_msgs.strict_json import dumps  # noqa: PLC0415

    outputs = given_outputs(args, ("json", "csv", "latex", "markdown", "html", "plot"))
    # The command line first, then the outputs, then the inputs, as ape and traj: a
    # --label refused only after the outputs were (the user's --force for nothing).
    if args.label and args.plot is None and args.html is None:
        msg = "--label names the results in --plot's and --html's legends; give one of them"
        raise UsageError(msg)
    check_plot_options(args)
    from robot_msgs.report.figure_text import legend_names  # noqa: PLC0415

    labels = legend_names([str(p) for p in args.results], args.label)
    if args.plot is not None:
        from robot_msgs.report.figures import figure_format  # noqa: PLC0415

        figure_format(args.plot)
    check_outputs(
        outputs.values(),
        force=args.force,
        flags=[f"--{n}" for n in outputs],
        inputs=args.results,
    )
    if args.plot is not None:
        from robot_msgs.optional import require  # noqa: PLC0415

        require("matplotlib", "plot", feature="--plot")
    if args.html is not None:
        from robot_msgs.optional import require  # noqa: PLC0415

        require("plotly", "html", feature="res --html")
    named = load_saved_results(args.results)
    if args.signal:
        named = [(path, _kept(path, result, args.signal)) for path, result in named]
    comparison = compare_results(named, force=args.force_ranking)
    if args.signal:  # WHY: a filtered table and its JSON said nothing of the signals left out
        words = " ".join(f"--signal {shlex.quote(w)}" for w in args.signal)
        comparison.notes.append(f"{words}: only these signals of each result are compared")
    # Every output says settings as flags: the library's `force=True` is --force-ranking
    # (an HTML page told a command-line user to pass `force=True`; a review).
    comparison.notes[:] = [
        flags_in_text(n.replace("`force=True`", "--force-ranking")) for n in comparison.notes
    ]
    # Markdown and LaTeX print a table's notes (under it, in its table environment), not
    # the comparison's, which the text, the JSON and the HTML print: they said neither
    # the filter nor why there is no ranking ("not ranked: ..."). One list, under Results.
    results, *others = comparison.tables
    tables = [replace(results, notes=(*results.notes, *comparison.notes)), *others]
    contents: dict[str, str] = {}
    if "json" in outputs:
        contents["json"] = dumps(comparison.to_dict())
    if "csv" in outputs:
        contents["csv"] = results_csv(comparison, args.signal or ())
    if "latex" in outputs:
        contents["latex"] = render_latex(tables)
    if "markdown" in outputs:
        contents["markdown"] = render_markdown(tables)
    if "html" in outputs:
        from robot_msgs.report.html_page import render_results_html  # noqa: PLC0415

        contents["html"] = render_results_html(comparison, labels=labels)
    figure = None
    refused = ""
    if args.plot is not None:
        from robot_msgs.report.plots import results_figure  # noqa: PLC0415

        try:
            figure = results_figure(named, labels=labels)
        except FormatError as err:  # the tables still compare them, as --html's page does
            refused = f"--plot {args.plot}: nothing drawn: {err}"
    said_to = say_tables(comparison.tables, comparison.notes, outputs)
    for name, text in contents.items():
        written = write_atomic(outputs[name], text, force=args.force)
        if os.fspath(outputs[name]) != STDOUT:
            print(f"wrote {controls_escaped(str(written))}", file=said_to)
    if figure is not None:
        from robot_msgs.report.figures import save_figure  # noqa: PLC0415

        saved = save_figure(figure, args.plot, dpi=args.dpi, force=args.force)
        if os.fspath(saved) != STDOUT:  # "wrote -" named no file
            print(f"wrote {controls_escaped(str(saved))}", file=said_to)
    if refused:  # after the tables and the other outputs, as traj goes on past a bad file
        from robot_msgs.cli._boundary import say  # noqa: PLC0415

        say(f"ERROR: {refused}")
        return 1
    return 0


def _kept(path: str, result: EvaluationResult, wanted: Sequence[str]) -> EvaluationResult:
    """Return ``result`` with only the ``wanted`` signals (a name, or a quantity: every length).

    A drift result holds six quantities at each length (rpg's) and the tables and boxes
    took them all, the first one boxed; rpg's plots box one: its yaw, or its
    translation in % beside its rotation per metre. The selection is
    :func:`~robot_msgs.compare.signal.select_signals`, as ``EvaluationResult.plot``'s.
    """
    from robot_msgs.compare.signal import select_signals  # noqa: PLC0415
    from robot_msgs.report.text import listed  # noqa: PLC0415

    signals = result.comparison.signals
    kept, unknown = select_signals(signals, wanted)
    if unknown:  # the names too: those of RPE's deltas went unsaid (translation@1f)
        quantities = list(dict.fromkeys(s.quantity for s in signals))
        names = [s.name for s in signals if s.name not in quantities]
        named = f" or a signal's name ({listed(names, 3)})" if names else ""
        msg = (
            f"--signal: expected a quantity of {path} ({', '.join(quantities)}){named}, "
            f"got {unknown[0][:40]!r}"
        )
        raise UsageError(msg)
    return result.replace(comparison=result.comparison.replace(signals=tuple(kept)))
