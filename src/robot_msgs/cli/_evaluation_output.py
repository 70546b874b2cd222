"""How ``robot-msgs ape``, ``rpe`` and ``drift`` report: a table, JSON, saved files, a plot.

Everything here renders the :class:`~robot_msgs.compare.EvaluationResult` values the
library computed, one per estimate: no kernel runs again, so the plotted errors are the
ones summarised. Every output path is known and checked before any work
(:func:`prepare_outputs`); with several estimates, ``--save`` and ``--save-aligned``
name one file per estimate through ``{name}`` (the estimate's file stem). Each file
written is named on standard output (``wrote FILE``), or on standard error when
standard output carries ``--json``.
"""

from __future__ import annotations

import math
import os
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.cli._boundary import say
from robot_msgs.cli._flag_text import changed_from, flag_text, flags_in_text, flags_text
from robot_msgs.cli._input_args import read_files, reading_changed
from robot_msgs.cli._output_args import check_plot_options, check_save_layout, trajectory_outputs_to
from robot_msgs.compare.statistics import PUBLISHED_STATISTICS
from robot_msgs.errors import (
    AlignmentError,
    AssociationError,
    UsageError,
    ValidationError,
)
from robot_msgs.files import STDOUT, check_outputs
from robot_msgs.optional import require
from robot_msgs.report.text import controls_escaped, wrap

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator, Mapping, Sequence

    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import Signal
    from robot_msgs.compare.statistics import ErrorStats
    from robot_msgs.evaluation.entry import Metric
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.msg import Value
    from robot_msgs.progress import Stage
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "Outputs",
    "emit",
    "evaluate_each",
    "format_results_table",
    "format_table",
    "naming",
    "prepare_outputs",
    "settings_lines",
    "write_plot",
]

_COLUMNS = ("n", "rms", "mean", "median", "std", "min", "max")


def _columns(metric: str) -> tuple[str, ...]:
    """Order ``metric``'s statistics columns: its published figure first after ``n``.

    Examples
    --------
    >>> _columns("kitti_drift")[:3], _columns("ape")[:3]
    (('n', 'mean', 'rms'), ('n', 'rms', 'mean'))
    """
    lead = PUBLISHED_STATISTICS.get(metric)  # the figure its publications quote first
    if lead is None:
        return _COLUMNS
    return ("n", lead, *(c for c in _COLUMNS[1:] if c != lead))


_TITLES = {
    "ape": "APE (absolute pose error)",
    "rpe": "RPE (relative pose error)",
    "kitti_drift": "KITTI drift (devkit segments)",
    "relative_error": "relative error (rpg_trajectory_evaluation)",
}


def _title(result: Comparison) -> str:
    """Title ``result``'s table by its metric, and by the divisor where it is no devkit's.

    WHY: ``drift --per-actual-length`` was titled "KITTI drift (devkit segments)" alone,
    the devkit's nominal length, for errors divided by each segment's path driven; and
    ``--seconds`` so, for segments in seconds divided by their intervals.
    """
    title = _TITLES.get(result.metric, result.metric)
    if result.parameters.get("lengths_s") is not None:  # trajectopy's per second
        return "drift per second (segments in seconds, per actual interval)"
    if result.parameters.get("per_actual_length") is True:
        return f"{title.removesuffix(')')}, per actual length)"
    return title


def _number(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.6g}"


def _stats_cells(stats: ErrorStats, metric: str) -> list[str]:
    return [str(stats.n), *(_number(getattr(stats, c)) for c in _columns(metric)[1:])]


def _notes(notes: Sequence[str]) -> list[str]:
    """Return ``notes:`` and each note as a list item, wrapped to the terminal's width.

    A path is never broken, at a hyphen or anywhere (:func:`~robot_msgs.report.text.wrap`).
    """
    if not notes:
        return []
    lines = (
        line
        for note in notes
        for line in wrap(flags_in_text(note), initial_indent="  - ", subsequent_indent="    ")
    )
    return ["", "notes:", *lines]


def format_table(
    result: Comparison, defaults: Mapping[str, Value], reading: Mapping[str, Value] | None = None
) -> str:
    """Format a readable summary: names, settings, pose counts, one row per signal, notes.

    ``settings`` lists what differs from ``defaults`` (the command's own: the
    parameters and settings it evaluates with unless told otherwise), then the
    ``reading`` rules given (:func:`~robot_msgs.cli._input_args.reading_changed`), spelt
    as the flags that set them.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, Signal
    >>> from robot_msgs.evaluation import EvaluationSettings
    >>> signal = Signal.of("translation", "m", [0.1, 0.1], stamps_s=[0.0, 1.0])
    >>> print(format_table(Comparison(
    ...     metric="ape", signals=(signal,), settings=EvaluationSettings(align="se3"),
    ...     parameters={"relation": "translation"}, counts={"matched": 2},
    ... ), {"relation": "translation", **EvaluationSettings().record()}))
    APE (absolute pose error)
    settings:  --align se3
    poses:     matched 2
    <BLANKLINE>
    signal       unit  n  rms  mean  median  std  min  max
    -----------  ----  -  ---  ----  ------  ---  ---  ---
    translation  m     2  0.1   0.1     0.1    0  0.1  0.1
    """
    from robot_msgs.report.report_table import ReportTable  # noqa: PLC0415
    from robot_msgs.report.table_renderers import render_text  # noqa: PLC0415

    lines = [_title(result)]
    if result.reference or result.estimate:
        lines.append(f"reference: {result.reference}")
        lines.append(f"estimate:  {result.estimate}")
    changed = {**changed_from(result.record(), defaults), **(reading or {})}
    lines += settings_lines(result.metric, changed)
    # Each count kept beside its number: V102's line folded "unmatched reference" from its 15908.
    counts = _count_words(result.counts)
    words = [f"{count}," for count in counts[:-1]] + counts[-1:]
    lines += wrap(words, initial_indent="poses:     ", subsequent_indent=" " * 11)
    cells = [(s.name, s.unit or "-", *_stats_cells(s.stats, result.metric)) for s in result.signals]
    columns = _columns(result.metric)
    table = ReportTable("", ("signal", "unit", *columns), tuple(cells), (False, False, *[True] * 7))
    lines.append(render_text(table))
    return "\n".join(lines + _notes(result.notes))


def _count_words(counts: Mapping[str, int]) -> list[str]:
    """Say each count as its words and number; rows shared by pairs beside the rows matched.

    Examples
    --------
    >>> _count_words({"reference": 16702, "matched": 798, "matched_reference_rows": 794,
    ...               "shared_reference_rows": 4, "unmatched_reference": 15908})
    ['reference 16702', 'matched 798', 'matched reference rows 794 (4 in two pairs each)', \
'unmatched reference 15908']
    >>> _count_words({"matched": 5, "matched_reference_rows": 3, "shared_reference_rows": 1})
    ['matched 5', 'matched reference rows 3 (1 in more than one pair)']
    >>> _count_words({"reference": 3000, "matched": 785, "matched_reference_rows": 1570})
    ['reference 3000', 'matched 785', 'matched reference rows 1570 (each interpolation reads 2)']
    """
    words = []
    for key, value in counts.items():
        if key.startswith("shared_") and key.endswith("_rows"):
            continue
        word = f"{key.replace('_', ' ')} {value}"
        shared = counts.get(f"shared_{key.removeprefix('matched_')}")
        if key.startswith("matched_") and shared is None:  # a resampled side's
            twice = value == 2 * counts.get("matched", 0)
            word += " (each interpolation reads 2)" if twice else " (read by the interpolations)"
        elif key.startswith("matched_"):
            # Each pair holds one row of the side: the pairs beyond its rows are second
            # (or later) uses; as many as the shared rows, each is in exactly two.
            twice = counts.get("matched", 0) - value == shared
            word += f" ({shared} in {'two pairs each' if twice else 'more than one pair'})"
        words.append(word)
    return words


def _unshared(counts: Mapping[str, int], key: str) -> int | str:
    """Return what a comparison lacking ``key`` says of it: its pairs, or ``"-"``.

    A side's rows matched are its pairs where no row is shared (:meth:`Association.counts`
    leaves the key out then); any other count it lacks is unknown.
    """
    if key.startswith("matched_") and key.endswith("_rows"):
        return counts.get("matched", "-")
    return "-"


def _flag_words(name: str, value: Value) -> list[str]:
    """Spell a setting as its flag, in words a line may break between: never after the flag.

    ``--relation`` of six relations was one word of 100 columns.

    Examples
    --------
    >>> _flag_words("relation", ("x", "y")), _flag_words("align", "se3")
    (['--relation x', 'y'], ['--align se3'])
    """
    text = flag_text(name, value)
    flag, _, values = text.partition(" ")
    if not isinstance(value, tuple) or " " not in values:
        return [text] if text else []
    first, *more = values.split(" ")
    return [f"{flag} {first}", *more]


def settings_lines(
    metric: str, changed: Mapping[str, Value], record: Mapping[str, Value] | None = None
) -> list[str]:
    """Say the flags given; an APE or RPE says "(not aligned)" when it was not aligned.

    evo's APE and RPE titles say "(not aligned)"; "the defaults" alone hid that the APE
    includes the estimate's frame (``record``: the settings shared by every estimate).
    Wrapped as the ``poses:`` line is, a flag never parted from its value.
    """
    aligned = (record if record is not None else changed).get("align", "none")
    words = [w for k, v in changed.items() for w in _flag_words(k, v)]
    words = words or [flags_text(changed)]  # "the defaults"
    if metric in ("ape", "rpe") and aligned in ("none", None):
        words.append("(not aligned)")
    return wrap(words, initial_indent="settings:  ", subsequent_indent=" " * 11)


def format_results_table(
    comparisons: Sequence[Comparison],
    defaults: Mapping[str, Value],
    reading: Mapping[str, Value] | None = None,
) -> str:
    """Format several estimates against one reference: one row per estimate and signal.

    The settings every comparison shares and that differ from ``defaults`` are printed
    once, the ``reading`` rules given after them (as :func:`format_table`); a setting
    that differs between them is a column (``align (differs)``).

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, Signal
    >>> def one(name, rms):
    ...     signal = Signal.of("translation", "m", [rms], stamps_s=[0.0])
    ...     return Comparison(metric="ape", signals=(signal,), parameters={"align": "se3"},
    ...                       reference="gt.tum", estimate=name, counts=counts)
    >>> counts = {"estimate": 2, "matched": 1, "unmatched_estimate": 1, "unmatched_reference": 0}
    >>> print(format_results_table([one("a.tum", 0.1), one("b.tum", 0.2)], {}))
    APE (absolute pose error), 2 estimates
    reference: gt.tum
    settings:  --align se3
    <BLANKLINE>
    estimate  signal       unit  poses  matched  unmatched est  unmatched ref  n
    --------  -----------  ----  -----  -------  -------------  -------------  -
    a.tum     translation  m         2        1              1              0  1
    b.tum     translation  m         2        1              1              0  1
    <BLANKLINE>
    estimate  signal       unit  rms  mean  median  std  min  max
    --------  -----------  ----  ---  ----  ------  ---  ---  ---
    a.tum     translation  m     0.1   0.1     0.1    0  0.1  0.1
    b.tum     translation  m     0.2   0.2     0.2    0  0.2  0.2
    """
    from robot_msgs.report.report_table import ReportTable  # noqa: PLC0415
    from robot_msgs.report.table_renderers import render_text  # noqa: PLC0415

    first = comparisons[0]
    records = [c.record() for c in comparisons]
    keys = list(dict.fromkeys(k for r in records for k in r))
    differ = [k for k in keys if len({repr(r.get(k)) for r in records}) > 1]
    lines = [f"{_title(first)}, {len(comparisons)} estimates", f"reference: {first.reference}"]
    shared = {k: v for k, v in changed_from(first.record(), defaults).items() if k not in differ}
    shared.update(reading or {})
    lines += settings_lines(first.metric, shared, first.record())
    # The counts the single-estimate header says (the unmatched were missing here; a review).
    counted = ["estimate", "matched", "unmatched_estimate", "unmatched_reference"]
    said = ["poses", "matched", "unmatched est", "unmatched ref"]
    # Rows shared by pairs (stamps that repeat): a side's rows matched, so that its rows
    # add up ("poses 16702, matched 798, unmatched est 15908" with V1_02.txt as REF).
    for side, short in (("estimate", "est"), ("reference", "ref")):
        if any(f"matched_{side}_rows" in c.counts for c in comparisons):
            at = counted.index(f"unmatched_{side}")  # beside the side's unmatched rows
            counted.insert(at, f"matched_{side}_rows")
            said.insert(at, f"{short} rows matched")
    headers = ("estimate", "signal", "unit", *(f"{k} (differs)" for k in differ), *said)
    rows = [
        (
            c.estimate,
            s.name,
            s.unit or "-",
            *(flags_text({k: r.get(k)}, bare=True) for k in differ),
            *(str(c.counts.get(k, _unshared(c.counts, k))) for k in counted),
            *_stats_cells(s.stats, c.metric),
        )
        for c, r in zip(comparisons, records, strict=True)
        for s in c.signals
    ]
    numeric = (*[False] * (len(headers) - len(said)), *[True] * len(said), *[True] * 7)
    columns = _columns(first.metric)
    lines.append(render_text(ReportTable("", (*headers, *columns), tuple(rows), numeric)))
    return "\n".join(lines + _notes([f"{c.estimate}: {n}" for c in comparisons for n in c.notes]))


@dataclass(frozen=True, slots=True)
class Outputs:
    """The files one estimate's evaluation writes: the result, the aligned estimate."""

    save: Path | None = None
    aligned: Path | None = None
    aligned_format: str = ""
    paths: list[Path] = field(default_factory=list)


def _stem(path: str) -> str:
    return Path(path.rsplit(":", 1)[-1] if path.startswith("example:") else path).stem


def input_names(paths: Sequence[str], topic: str | None) -> list[str]:
    """Name each estimate for ``{name}`` and legends: its file stem, or its bag topic.

    Several topics of one bag were all named after the bag (``ROS_example``), so their
    results took one file name and one legend entry; with ``--est-topic`` the topic
    names the estimate (``/`` made ``_``), after its file's stem when several files share it.

    Examples
    --------
    >>> input_names(["runs/ROS_example.bag"], "/S-PTAM"), input_names(["a/est.tum"], None)
    (['S-PTAM'], ['est'])
    >>> input_names(["a.bag", "b.bag"], "/robot/odom"), input_names(["x.bag"], "/tf:odom.base")
    (['a_robot_odom', 'b_robot_odom'], ['tf_odom.base'])
    """
    if not topic or not topic.strip("/"):
        return [_stem(p) for p in paths]
    # A file name's characters only: a TF chain (/tf:odom.base_footprint) put a colon in it.
    name = re.sub(r"[^\w.\-]+", "_", topic.strip("/"))
    return [name] if len(paths) == 1 else [f"{_stem(p)}_{name}" for p in paths]


def _named(template: Path | None, flag: str, estimate: str, *, several: bool) -> Path | None:
    if template is None:
        return None
    text = str(template)
    if "{name}" not in text:
        if several:
            msg = (
                f"{flag} {template}: with several estimates, name one file per estimate "
                "with {name} (the estimate's file stem), e.g. out/{name}.json"
            )
            raise UsageError(msg)  # the flag's value does not fit the inputs: exit 2
        return template
    return Path(text.replace("{name}", estimate))


def _check_result_name(save: Path, typed: Path, command: str) -> None:
    """Refuse a ``--save`` name that says another format; a trajectory's names ``--save-aligned``.

    ``ape --save est.tum`` (evo's ``--save_as_tum``, typed as ours) was told only that a
    result is saved as .json, .npz or .parquet; the aligned estimate it meant is written
    by ``--save-aligned``, named as ``typed`` (``{name}`` kept). ``ape --save x.txt`` is
    ``evaluate_ate.py``'s (it writes the aligned estimate), told with ``--to tum``; after
    ``rpe`` it is ``evaluate_rpe.py``'s, each pair's errors, which the result holds: not
    pointed at ``--save-aligned``.
    """
    from robot_msgs.errors import FormatError  # noqa: PLC0415
    from robot_msgs.io.formats import WRITE_SUFFIXES  # noqa: PLC0415
    from robot_msgs.io.result_files import result_format  # noqa: PLC0415

    try:
        result_format(save, saving=True)
    except FormatError as err:
        suffix = save.suffix.lower()
        if suffix not in WRITE_SUFFIXES and (suffix, command) != (".txt", "ape"):
            raise
        to = " --to tum" if suffix == ".txt" else ""
        msg = f"{err}; --save-aligned {typed}{to} writes the estimate as it was compared"
        raise FormatError(msg) from err


def prepare_outputs(args: argparse.Namespace, estimates: Sequence[str] = ()) -> list[Outputs]:
    """Check the output flags and every output path before any work; return each estimate's.

    ``--save`` and ``--save-aligned`` with several estimates must hold ``{name}``;
    ``--to`` needs ``--save-aligned``; ``--force`` needs an output to apply to, ``--label``,
    ``--plot-plane`` and ``--dpi`` need ``--plot``; ``--json``
    prints to standard output, so ``--save -`` cannot go there too; ``--plot`` must name a
    figure format (or be a stream: PNG) and needs matplotlib. All paths must be distinct,
    in folders that exist and are writable and, unless ``--force``, not existing
    (:func:`robot_msgs.files.check_outputs`).

    Raises
    ------
    UsageError
        Flags that do not go together, or ``--save``/``--save-aligned`` without ``{name}``
        for several estimates; the message names them (exit status 2).
    FormatError
        A file name that says no format we write.
    OutputPathError, OutputExistsError
        An output path that cannot be written as asked.
    """
    given = list(estimates) or [getattr(args, "estimate", "")]
    names = input_names(given, getattr(args, "est_topic", None))
    several = len(names) > 1
    aligned_flag = getattr(args, "save_aligned", None)
    if args.force and args.save is None and args.plot is None and aligned_flag is None:
        msg = (
            "--force only goes with --save, --save-aligned or --plot FILE (it lets them overwrite)"
        )
        raise UsageError(msg)
    if args.json and args.save is not None and os.fspath(args.save) == STDOUT:
        msg = "--json and --save - both write to standard output; give --save a file"
        raise UsageError(msg)
    if args.json and _plot_to_stdout(args):  # the PNG and the JSON ran together
        msg = "--json and --plot - both write to standard output; give --plot a file"
        raise UsageError(msg)
    if getattr(args, "to", None) and aligned_flag is None:
        msg = "--to names the format of --save-aligned FILE; give that too"
        raise UsageError(msg)
    if getattr(args, "label", None):
        if args.plot is None:
            msg = "--label names the estimates in --plot's legend; give --plot FILE too"
            raise UsageError(msg)
        from robot_msgs.report.figure_text import legend_names  # noqa: PLC0415

        legend_names(given, args.label)  # one per estimate: refused before any work
    check_plot_options(args)
    plans: list[Outputs] = []
    for name in names:
        save = _named(args.save, "--save", name, several=several)
        if save is not None:
            _check_result_name(
                save, args.save, getattr(args, "command", "")
            )  # another format's: refused now
        aligned = _named(aligned_flag, "--save-aligned", name, several=several)
        fmt, files = "", list[Path]()
        if aligned is not None:
            fmt, files = trajectory_outputs_to(aligned, args.to)
        paths = ([save] if save is not None else []) + files
        plans.append(Outputs(save=save, aligned=aligned, aligned_format=fmt, paths=paths))
    for plan in plans:  # a --save-layout with no bag to apply to was ignored
        check_save_layout(args, "--save-aligned", plan.aligned_format)
    every = [p for plan in plans for p in plan.paths]
    flags = []  # each path's flag: a plan's paths are its --save, then its --save-aligned
    for plan in plans:
        saved = int(plan.save is not None)
        flags += ["--save"] * saved + ["--save-aligned"] * (len(plan.paths) - saved)
    if args.plot is not None:
        from robot_msgs.report.figures import figure_format  # noqa: PLC0415

        figure_format(args.plot)
        every.append(args.plot)
        flags.append("--plot")
    given = [args.reference, *getattr(args, "estimates", [getattr(args, "estimate", "")])]
    inputs = [*(f for f in given if f), *read_files(args)]
    check_outputs(every, force=args.force, flags=flags, inputs=inputs)
    if args.plot is not None:
        require("matplotlib", "plot", feature="--plot")
    return plans


def _plot_to_stdout(args: argparse.Namespace) -> bool:
    """Whether ``--plot -`` writes the figure (PNG) to standard output."""
    return args.plot is not None and os.fspath(args.plot) == STDOUT


def _say(args: argparse.Namespace, path: Path) -> None:
    """Name a file written: on stdout, or stderr when stdout carries --json or --save -."""
    busy = (
        args.json or (args.save is not None and os.fspath(args.save) == STDOUT)
    ) or _plot_to_stdout(args)
    if os.fspath(path) != STDOUT:
        print(f"wrote {controls_escaped(str(path))}", file=sys.stderr if busy else sys.stdout)


def _names_escaped(comparison: Comparison) -> Comparison:
    """``comparison`` with its file names and notes escaped for the terminal, for the table.

    WHY: the table names the files compared (``estimate:  NAME``) and its notes quote
    them; a file name's escape sequence acted on the terminal, and a newline in it forged
    a line of the result, where every error and warning line is escaped.
    """
    return comparison.replace(
        reference=controls_escaped(comparison.reference),
        estimate=controls_escaped(comparison.estimate),
        notes=tuple(controls_escaped(note) for note in comparison.notes),
    )


def emit(
    args: argparse.Namespace,
    results: Sequence[EvaluationResult],
    plans: Sequence[Outputs],
    estimates: Sequence[PoseTrajectory],
    defaults: Mapping[str, Value],
    shown: Sequence[Sequence[str]] = (),
) -> None:
    """Print the table or ``--json``; write ``--save`` and ``--save-aligned`` of each result.

    ``--json`` prints the :class:`~robot_msgs.compare.Comparison` without its series (a
    list of them for several estimates); ``--save`` writes the whole result (the
    comparison with every per-pose series, the alignment and the matched trajectories)
    as its name says (:func:`robot_msgs.io.result_files.save_result`), which
    ``robot-msgs res`` and :func:`~robot_msgs.io.result_files.load_result` read back
    equal. ``--save-aligned`` writes each input estimate moved as its compared poses were
    (:meth:`~robot_msgs.compare.EvaluationResult.move`: the transforms, the estimated
    mount, the alignment and the projection; :func:`robot_msgs.io.write_trajectory`).
    The table shows the settings that differ from ``defaults`` and the reading rules
    given (:func:`~robot_msgs.cli._input_args.reading_changed`). ``shown``: the reading
    warnings already on standard error (:func:`read_inputs_from_args`), which neither
    ``--json`` nor the table repeats as notes (the saved result keeps them), and those
    the evaluations showed (:func:`evaluate_each`'s ``warned``).
    """
    written: list[Path] = []
    # With --save - the saved JSON is standard output's only content; the table goes to
    # standard error (one estimate only: several need {name}).
    # So with --plot -: the table ran into the PNG on standard output.
    to_stdout = _plot_to_stdout(args) or any(
        p.save is not None and os.fspath(p.save) == STDOUT for p in plans
    )
    # Every aligned estimate, checked before any file is written: `--repeated-stamps all
    # --save r.json --save-aligned b.mcap` wrote r.json, then refused b.mcap's two rows at
    # one stamp (a review). Nothing half-written.
    moved: list[PoseTrajectory | None] = []
    for k, (result, plan) in enumerate(zip(results, plans, strict=True)):
        moved.append(None)
        if plan.aligned is not None:
            from robot_msgs.io.detect import check_trajectory_to_write  # noqa: PLC0415

            aligned = result.move(estimates[k])  # transformed, mounted, aligned, projected
            check_trajectory_to_write(
                plan.aligned,
                aligned,
                plan.aligned_format,
                layout=getattr(args, "save_layout", None) or "poses",
            )
            moved[k] = aligned
    for result, plan, estimate in zip(results, plans, moved, strict=True):
        if plan.save is not None:
            from robot_msgs.io.result_files import save_result  # noqa: PLC0415

            path = save_result(plan.save, result, force=args.force)
            if os.fspath(plan.save) != STDOUT:
                written.append(path)
        if plan.aligned is not None and estimate is not None:
            from robot_msgs.io.detect import write_trajectory  # noqa: PLC0415

            written += write_trajectory(
                plan.aligned,
                estimate,
                plan.aligned_format,
                force=args.force,
                layout=getattr(args, "save_layout", None) or "poses",
            )
    comparisons = [r.comparison.summary() for r in results]
    said = {text for texts in shown for text in texts}
    if args.json:
        from robot_msgs.strict_json import dumps  # noqa: PLC0415

        print(dumps(comparisons[0] if len(comparisons) == 1 else comparisons), end="")
        for c in comparisons:
            for note in c.notes:
                if note not in said:  # with its flags, as the table says it (a review)
                    say(f"NOTE: {flags_in_text(note)}")  # folded on a terminal, as a WARNING
    else:
        # A KITTI file's rounding paragraph was a WARNING, then again a note (a review).
        comparisons = [
            _names_escaped(c.replace(notes=tuple(n for n in c.notes if n not in said)))
            for c in comparisons
        ]
        reading = reading_changed(args)
        if len(comparisons) == 1:
            text = format_table(comparisons[0], defaults, reading)
        else:
            text = format_results_table(comparisons, defaults, reading)
        print(text, file=sys.stderr if to_stdout else sys.stdout)
    for path in written:
        _say(args, path)


def _step(args: argparse.Namespace, text: str) -> Stage:
    """Progress of one long step: on a terminal after 2 s, never with ``--quiet``."""
    from robot_msgs.progress import Stage  # noqa: PLC0415

    return Stage(text, stream=None if getattr(args, "quiet", False) else sys.stderr)


@contextmanager
def naming(name: str) -> Iterator[None]:
    """Begin a pair-level error raised inside with the estimate's ``name`` it is about.

    WHY: "No pose pairs found ..." said not which of several estimates (a hunt), and
    with one estimate ("Cannot fit an alignment on 1 pose ...") it named no file at
    all (a fuzz). The error keeps its class and every field: a
    :class:`~robot_msgs.errors.ValidationError`'s field, so the command line says its
    flag before the name; an :class:`~robot_msgs.errors.AssociationError`'s ``cause``.

    Examples
    --------
    >>> from robot_msgs.errors import AlignmentError
    >>> try:
    ...     with naming("est.tum"):
    ...         raise AlignmentError("Cannot fit an alignment on 1 pose")
    ... except AlignmentError as err:
    ...     print(err)
    est.tum: Cannot fit an alignment on 1 pose
    """
    try:
        yield
    except (AssociationError, AlignmentError, ValidationError) as err:
        if str(err).startswith(f"{name}: "):
            raise
        named = err.within(f"{name}: ")
        raise named from err


def evaluate_each(
    args: argparse.Namespace,
    command: str,
    reference: PoseTrajectory,
    estimates: Sequence[PoseTrajectory],
    names: tuple[str, Sequence[str]],
    settings: EvaluationSettings,
    metrics: Sequence[Metric],
    said: Sequence[Sequence[str]] = (),
) -> tuple[list[EvaluationResult], list[str]]:
    """Evaluate each estimate against ``reference`` by ``metrics``, each a progress step.

    Several metrics (``ape --relation translation angle_deg``) are computed by one
    :func:`evaluate`, from one association and alignment, and joined into one result
    per estimate (:func:`_joined`).
    ``names`` are the reference's and the estimates' as given. A step that takes over
    2 s (an offset search, 10^6 poses) says so on a terminal (:class:`Stage`). ``said``:
    what reading each input fixed, REF first (:func:`read_inputs_from_args`): an
    estimate's result notes the reference's and its own first.

    Returns
    -------
    results, warned
        The results, and the data warnings the evaluations showed on standard error
        (:class:`~robot_msgs.errors.DataWarning`, kept in the results' notes), which
        :func:`emit` repeats in no note: `ape --json` of KITTI files of two lengths said
        the frame-count warning, then again as a NOTE in the library's words (a review).
    """
    import warnings  # noqa: PLC0415

    from robot_msgs.errors import DataWarning  # noqa: PLC0415
    from robot_msgs.evaluation.entry import (  # noqa: PLC0415 - the work, not --help
        check_metric_settings,
        evaluate,
    )
    from robot_msgs.evaluation.pipeline import time_range  # noqa: PLC0415

    # What no estimate changes is refused once, naming none: a flag, the reference's range.
    for metric in metrics:
        check_metric_settings(settings, metric)
    time_range(reference, settings.t_start_s, settings.t_end_s)
    searching = " (searching the clock offset)" if settings.searches_offset else ""
    ref_name, est_names = names
    results = []
    warned: list[str] = []
    for k, (estimate, name) in enumerate(zip(estimates, est_names, strict=True)):
        try:
            with (
                warnings.catch_warnings(record=True) as caught,
                _step(args, f"{command}: evaluating {name}{searching}"),
                naming(name),
            ):
                result = _joined(
                    evaluate(
                        reference,
                        estimate,
                        settings,
                        metrics=metrics,
                        reference_name=ref_name,
                        estimate_name=name,
                    )
                )
        finally:
            for shown in caught:  # shown as if never caught, in their order
                warnings.showwarning(shown.message, shown.category, shown.filename, shown.lineno)
        warned += [str(w.message) for w in caught if issubclass(w.category, DataWarning)]
        fixed = dict.fromkeys([*said[0], *said[k + 1]]) if said else {}
        if fixed:
            comparison = result.comparison
            notes = (*fixed, *comparison.notes)
            result = result.replace(comparison=comparison.replace(notes=notes))
        results.append(result)
    return results, warned


def _joined(results: Sequence[EvaluationResult]) -> EvaluationResult:
    """Join the results of several metrics of one preparation: their signals side by side.

    The results share the matched poses and the alignment (one :func:`evaluate`); the
    joined one holds every signal, counts and notes, a parameter that differs as the
    tuple of its values' texts (``relation``, as ``rpe --delta 1 2``'s ``delta``), and the
    estimates of the one that has NEES bounds (ape takes one NEES relation per run).

    Examples
    --------
    >>> from robot_msgs.evaluation import Ape, evaluate
    >>> from robot_msgs.io import read_trajectory
    >>> ref, est = (read_trajectory(f"example:fr1_xyz/{n}.tum") for n in ("groundtruth",
    ...                                                           "rgbdslam"))
    >>> one = _joined(evaluate(ref, est, metrics=[Ape(), Ape(relation="angle_deg")]))
    >>> [s.name for s in one.comparison.signals], one.comparison.parameters["relation"]
    (['translation', 'angle_deg'], ('translation', 'angle_deg'))
    """
    first, *rest = results
    if not rest:
        return first
    comparisons = [r.comparison for r in results]
    keys = dict.fromkeys(k for c in comparisons for k in c.parameters)
    parameters: dict[str, Value] = {}
    for key in keys:
        values = [c.parameters.get(key) for c in comparisons]
        same = len({repr(v) for v in values}) == 1
        parameters[key] = values[0] if same else tuple(str(v) for v in values)
    nees = (c.estimated for c in comparisons if c.estimated and c.estimated.nees_dof)
    comparison = first.comparison.replace(
        signals=tuple(s for c in comparisons for s in c.signals),
        parameters=parameters,
        estimated=next(nees, first.comparison.estimated),
        counts={k: v for c in comparisons for k, v in c.counts.items()},
        notes=tuple(dict.fromkeys(n for c in comparisons for n in c.notes)),
    )
    return first.replace(comparison=comparison)


def write_plot(
    args: argparse.Namespace,
    results: Sequence[EvaluationResult],
    signals: Sequence[Signal],
    *,
    title: str,
) -> Path:
    """Draw ``--plot`` (:func:`robot_msgs.report.figures.evaluation_figure`) and name it.

    ``signals`` are the first result's to draw over time (each result's signal of the
    same name is drawn). The format follows the file name (``--dpi`` for PNG), the view
    ``--plot-plane``, the legend names ``--label`` (default: each estimate's file stem).
    """
    from robot_msgs.report.figure_text import legend_names  # noqa: PLC0415
    from robot_msgs.report.figures import evaluation_figure, save_figure  # noqa: PLC0415

    topic = getattr(args, "est_topic", None)
    paths = [r.comparison.estimate.removesuffix(f" {topic}") for r in results]
    names = legend_names(paths, args.label or (input_names(paths, topic) if topic else None))
    entries = list(zip(names, results, strict=True))
    with _step(args, f"drawing {args.plot}"):
        fig = evaluation_figure(entries, signals, title=title, plane=args.plot_plane)
        path = save_figure(fig, args.plot, dpi=args.dpi, force=args.force)
    _say(args, path)
    return path
