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
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.files import STDOUT, check_outputs
from robot_msgs.optional import require
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "TRAJECTORY_SUFFIXES",
    "Outputs",
    "emit",
    "format_results_table",
    "format_table",
    "prepare_outputs",
    "stamps_are_frames",
    "trajectory_outputs",
    "write_plot",
    "write_trajectory",
]

#: Trajectory formats ``--to`` names, by the suffixes that imply them.
TRAJECTORY_SUFFIXES = {".tum": "tum", ".kitti": "kitti", ".csv": "euroc"}

_COLUMNS = ("n", "rms", "mean", "median", "std", "min", "max")
_TITLES = {
    "ape": "APE (absolute pose error)",
    "rpe": "RPE (relative pose error)",
    "kitti_drift": "KITTI drift (devkit segments)",
    "relative_error": "relative error (rpg_trajectory_evaluation)",
}


def _number(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.6g}"


def _setting(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    return str(value)


def format_table(result: Comparison) -> str:
    """Format a readable summary: names, settings, pose counts, one row per signal, notes.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, error_stats
    >>> print(format_table(Comparison(
    ...     metric="ape", stats={"translation": error_stats([0.1, 0.1])},
    ...     units={"translation": "m"}, settings={"align": "none", "lengths_m": (100.0, 200.0)},
    ...     counts={"matched": 2},
    ... )))
    APE (absolute pose error)
    settings:  align=none  lengths_m=100,200
    poses:     matched 2
    <BLANKLINE>
    signal       unit  n  rms  mean  median  std  min  max
    translation  m     2  0.1  0.1   0.1     0    0.1  0.1
    """
    lines = [_TITLES.get(result.metric, result.metric)]
    if result.reference or result.estimate:
        lines.append(f"reference: {result.reference}")
        lines.append(f"estimate:  {result.estimate}")
    settings = "  ".join(f"{k}={_setting(v)}" for k, v in result.settings.items())
    lines.append(f"settings:  {settings}")
    counts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in result.counts.items())
    lines.append(f"poses:     {counts}")
    rows = [["signal", "unit", *_COLUMNS]]
    for name, stats in result.stats.items():
        values = [_number(getattr(stats, c)) if c != "n" else str(stats.n) for c in _COLUMNS]
        rows.append([name, result.units[name] or "-", *values])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines.append("")
    lines.extend(
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    )
    if result.notes:
        lines.append("")
        lines.append("notes:")
        lines.extend(f"  - {note}" for note in result.notes)
    return "\n".join(lines)


def format_results_table(comparisons: Sequence[Comparison]) -> str:
    """Format several estimates against one reference: one row per estimate and signal.

    The settings every comparison shares are printed once; a setting that differs is
    a column (``align (differs)``) beside the statistics.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, error_stats
    >>> def one(name, rms):
    ...     return Comparison(metric="ape", stats={"translation": error_stats([rms])},
    ...                       units={"translation": "m"}, settings={"align": "se3"},
    ...                       reference="gt.tum", estimate=name, counts={"matched": 1})
    >>> print(format_results_table([one("a.tum", 0.1), one("b.tum", 0.2)]))
    APE (absolute pose error), 2 estimates
    reference: gt.tum
    settings:  align=se3
    <BLANKLINE>
    estimate  signal       unit  matched  n  rms  mean  median  std  min  max
    a.tum     translation  m     1        1  0.1  0.1   0.1     0    0.1  0.1
    b.tum     translation  m     1        1  0.2  0.2   0.2     0    0.2  0.2
    """
    first = comparisons[0]
    keys = list(dict.fromkeys(k for c in comparisons for k in c.settings))
    same = [k for k in keys if len({repr(c.settings.get(k)) for c in comparisons}) == 1]
    differ = [k for k in keys if k not in same]
    title = _TITLES.get(first.metric, first.metric)
    lines = [f"{title}, {len(comparisons)} estimates", f"reference: {first.reference}"]
    lines.append("settings:  " + "  ".join(f"{k}={_setting(first.settings[k])}" for k in same))
    rows = [
        ["estimate", "signal", "unit", *(f"{k} (differs)" for k in differ), "matched", *_COLUMNS]
    ]
    for c in comparisons:
        for name, stats in c.stats.items():
            values = [_number(getattr(stats, k)) if k != "n" else str(stats.n) for k in _COLUMNS]
            varied = [_setting(c.settings.get(k)) for k in differ]
            matched = str(c.counts.get("matched", "-"))
            rows.append([c.estimate, name, c.units[name] or "-", *varied, matched, *values])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines.append("")
    lines.extend(
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    )
    notes = [f"{c.estimate}: {note}" for c in comparisons for note in c.notes]
    if notes:
        lines += ["", "notes:", *(f"  - {note}" for note in notes)]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Outputs:
    """The files one estimate's evaluation writes: the result, the aligned estimate."""

    save: Path | None = None
    aligned: Path | None = None
    aligned_format: str = ""
    paths: list[Path] = field(default_factory=list)


def _stem(path: str) -> str:
    return Path(path.rsplit(":", 1)[-1] if path.startswith("example:") else path).stem


def _named(template: Path | None, flag: str, estimate: str, several: bool) -> Path | None:
    if template is None:
        return None
    text = str(template)
    if "{name}" not in text:
        if several:
            msg = (
                f"{flag} {template}: with several estimates, name one file per estimate "
                "with {name} (the estimate's file stem), e.g. out/{name}.json"
            )
            raise FormatError(msg)
        return template
    return Path(text.replace("{name}", _stem(estimate)))


def trajectory_outputs(path: Path, to: str | None, *, flag: str) -> tuple[str, list[Path]]:
    """Return a trajectory file's format (``--to`` or the suffix) and every file it makes.

    KITTI writes the poses and a times file beside them.

    Examples
    --------
    >>> trajectory_outputs(Path("a/est.kitti"), None, flag="--save-aligned")
    ('kitti', [PosixPath('a/est.kitti'), PosixPath('a/est_times.txt')])
    """
    fmt = to or TRAJECTORY_SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        msg = (
            f"{flag} {path}: cannot tell the format from {path.suffix!r}; "
            "name it .tum, .kitti or .csv, or pass --to tum|kitti|euroc"
        )
        raise FormatError(msg)
    if fmt != "kitti":
        return fmt, [path]
    from robot_msgs.io.kitti import default_times_path  # noqa: PLC0415

    return fmt, [path, default_times_path(path)]


def write_trajectory(path: Path, traj: PoseTrajectory, fmt: str, *, force: bool) -> list[Path]:
    """Write ``traj`` as TUM, KITTI (with its times file) or EuRoC; return the files written."""
    from robot_msgs.io import write_euroc, write_kitti, write_tum  # noqa: PLC0415

    if fmt == "kitti":
        poses, times = write_kitti(path, traj, force=force)
        return [poses] + ([times] if times is not None else [])
    writer = write_euroc if fmt == "euroc" else write_tum
    return [writer(path, traj, force=force)]


def prepare_outputs(args: argparse.Namespace, estimates: Sequence[str] = ()) -> list[Outputs]:
    """Check the output flags and every output path before any work; return each estimate's.

    ``--save`` and ``--save-aligned`` with several estimates must hold ``{name}``;
    ``--to`` needs ``--save-aligned``; ``--force`` needs an output to apply to; ``--json``
    prints to standard output, so ``--save -`` cannot go there too; ``--plot`` must name a
    figure format (or be a stream: PNG) and needs matplotlib. All paths must be distinct,
    in folders that exist and are writable and, unless ``--force``, not existing
    (:func:`robot_msgs.files.check_outputs`).

    Raises
    ------
    ValidationError
        Flags that do not go together; the message names them.
    FormatError
        A file name that says no format we write.
    OutputPathError, OutputExistsError
        An output path that cannot be written as asked.
    """
    names = list(estimates) or [getattr(args, "estimate", "")]
    several = len(names) > 1
    aligned_flag = getattr(args, "save_aligned", None)
    if args.force and args.save is None and args.plot is None and aligned_flag is None:
        msg = (
            "--force only goes with --save, --save-aligned or --plot FILE (it lets them overwrite)"
        )
        raise ValidationError(msg)
    if args.json and args.save is not None and os.fspath(args.save) == STDOUT:
        msg = "--json and --save - both write to standard output; give --save a file"
        raise ValidationError(msg)
    if getattr(args, "to", None) and aligned_flag is None:
        msg = "--to names the format of --save-aligned FILE; give that too"
        raise FormatError(msg)
    plans: list[Outputs] = []
    for name in names:
        save = _named(args.save, "--save", name, several)
        aligned = _named(aligned_flag, "--save-aligned", name, several)
        fmt, files = "", list[Path]()
        if aligned is not None:
            fmt, files = trajectory_outputs(aligned, args.to, flag="--save-aligned")
        paths = ([save] if save is not None else []) + files
        plans.append(Outputs(save=save, aligned=aligned, aligned_format=fmt, paths=paths))
    every = [p for plan in plans for p in plan.paths]
    if args.plot is not None:
        from robot_msgs.report.figures import figure_format  # noqa: PLC0415

        figure_format(args.plot)
        every.append(args.plot)
    check_outputs(every, force=args.force)
    if args.plot is not None:
        require("matplotlib", "plot", feature="--plot")
    return plans


def stamps_are_frames(args: argparse.Namespace, estimates: Sequence[str]) -> bool:
    """Whether the inputs' stamps are KITTI frame indices (KITTI read without a times file)."""
    from robot_msgs.io import detect_format, resolve_path  # noqa: PLC0415

    def kitti(path: str, fmt: str | None) -> bool:
        return (fmt or detect_format(resolve_path(path))) == "kitti"

    if args.ref_times is None and kitti(args.reference, args.ref_format or args.format):
        return True
    fmt = args.est_format or args.format
    return args.est_times is None and any(kitti(p, fmt) for p in estimates)


def _say(args: argparse.Namespace, path: Path) -> None:
    """Name a file written: on stdout, or stderr when stdout carries --json or --save -."""
    busy = args.json or (args.save is not None and os.fspath(args.save) == STDOUT)
    if os.fspath(path) != STDOUT:
        print(f"wrote {path}", file=sys.stderr if busy else sys.stdout)


def emit(
    args: argparse.Namespace,
    results: Sequence[EvaluationResult],
    plans: Sequence[Outputs],
    estimates: Sequence[PoseTrajectory] = (),
) -> None:
    """Print the table or ``--json``; write ``--save`` and ``--save-aligned`` of each result.

    ``--json`` prints the :class:`~robot_msgs.compare.Comparison` (a list of them for
    several estimates); ``--save`` writes the whole result (the comparison, the per-pose
    series, the alignment and the matched trajectories) as its name says
    (:func:`robot_msgs.io.result_files.save_result`), which ``robot-msgs res`` and
    :func:`~robot_msgs.io.result_files.load_result` read back equal. ``--save-aligned``
    writes each input estimate transformed by its result's alignment.
    """
    from robot_msgs.io.result_files import save_result  # noqa: PLC0415

    written: list[Path] = []
    # With --save - the saved JSON is standard output's only content; the table goes to
    # standard error (one estimate only: several need {name}).
    to_stdout = any(p.save is not None and os.fspath(p.save) == STDOUT for p in plans)
    for k, (result, plan) in enumerate(zip(results, plans, strict=True)):
        if plan.save is not None:
            path = save_result(plan.save, result, force=args.force)
            if os.fspath(plan.save) != STDOUT:
                written.append(path)
        if plan.aligned is not None:
            aligned = result.alignment.apply(estimates[k])
            written += write_trajectory(
                plan.aligned, aligned, plan.aligned_format, force=args.force
            )
    comparisons = [r.comparison for r in results]
    if args.json:
        data = [c.to_dict() for c in comparisons]
        print(dumps(data[0] if len(data) == 1 else data), end="")
        for c in comparisons:
            for note in c.notes:
                print(f"NOTE: {note}", file=sys.stderr)
    else:
        table = format_table if len(comparisons) == 1 else None
        text = table(comparisons[0]) if table else format_results_table(comparisons)
        print(text, file=sys.stderr if to_stdout else sys.stdout)
    for path in written:
        _say(args, path)


def write_plot(
    args: argparse.Namespace,
    entries: Sequence[tuple[str, EvaluationResult]],
    signals: Sequence[tuple[str, str]],
    *,
    title: str,
    frames: bool = False,
) -> Path:
    """Draw ``--plot`` (:func:`robot_msgs.report.figures.evaluation_figure`) and name it.

    The format follows the file name (``--dpi`` for PNG), the view ``--plot-plane``.
    """
    from robot_msgs.report.figures import evaluation_figure, save_figure  # noqa: PLC0415

    fig = evaluation_figure(entries, signals, title=title, plane=args.plot_plane, frames=frames)
    path = save_figure(fig, args.plot, dpi=args.dpi, force=args.force)
    _say(args, path)
    return path
