"""How ``robot-msgs ape``, ``rpe`` and ``drift`` report: a table, JSON, a saved file, a plot.

Everything here renders an :class:`~robot_msgs.compare.EvaluationResult` the library
computed: no kernel runs again, so the plotted errors are the ones summarised.
"""

from __future__ import annotations

import io
import math
import os
import sys
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.files import STDOUT, check_outputs, write_atomic
from robot_msgs.optional import require
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from pathlib import Path

    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.compare.result import EvaluationResult

__all__ = ["axis_label", "emit", "format_table", "prepare_outputs", "write_plot"]

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


def axis_label(signal: str, unit: str) -> str:
    """Return ``"translation [m]"``, or the bare name of a dimensionless signal.

    Examples
    --------
    >>> axis_label("translation", "m"), axis_label("rot_part", "")
    ('translation [m]', 'rot_part')
    """
    return f"{signal} [{unit}]" if unit else signal


def prepare_outputs(args: argparse.Namespace) -> None:
    """Check the output flags and every output path (``--save``, ``--plot``) before any work.

    The paths must be distinct, in folders that exist and are writable and, unless
    ``--force``, not existing (:func:`robot_msgs.files.check_outputs`); ``--plot`` names
    a PNG file (or a stream) and needs matplotlib; ``--force`` needs an output to apply to;
    ``--json`` prints to standard output, so ``--save -`` cannot go there too.

    Raises
    ------
    ValidationError
        Flags that do not go together; the message names them.
    OutputPathError, OutputExistsError
        An output path that cannot be written as asked.
    """
    if args.force and args.save is None and args.plot is None:
        msg = "--force only goes with --save FILE or --plot FILE.png (it lets them overwrite)"
        raise ValidationError(msg)
    if args.json and args.save is not None and os.fspath(args.save) == STDOUT:
        msg = "--json and --save - both write to standard output; give --save a file"
        raise ValidationError(msg)
    plot = args.plot
    if (
        plot is not None
        and os.fspath(plot) != STDOUT
        and plot.suffix.lower() != ".png"
        and (plot.is_file() or not plot.exists())
    ):
        msg = f"--plot {plot}: the plot is a PNG image; give a path ending in .png"
        raise ValidationError(msg)
    paths = [p for p in (args.save, plot) if p is not None]
    check_outputs(paths, force=args.force)
    if plot is not None:
        require("matplotlib", "plot", feature="--plot")


def emit(args: argparse.Namespace, result: EvaluationResult) -> None:
    """Print the table or ``--json``, and write ``--save`` (atomically, no clobber).

    With ``--save -`` the saved JSON is standard output's only content; the table goes
    to standard error.

    ``--json`` prints the :class:`~robot_msgs.compare.Comparison`; ``--save`` writes the
    whole result (the comparison, the per-pose series, the alignment and the matched
    trajectories), which :func:`robot_msgs.from_dict` loads back. Both are strict JSON.
    """
    comparison = result.comparison
    to_stdout = args.save is not None and os.fspath(args.save) == STDOUT
    if args.save is not None:
        write_atomic(args.save, dumps(result.to_dict(), indent=None), force=args.force)
    if args.json:
        print(dumps(comparison.to_dict()), end="")
        for note in comparison.notes:
            print(f"NOTE: {note}", file=sys.stderr)
    else:  # beside --save -, the table goes to standard error: stdout holds the JSON only
        print(format_table(comparison), file=sys.stderr if to_stdout else sys.stdout)
    if args.save is not None and not to_stdout:
        print(f"saved {args.save}", file=sys.stderr)


def write_plot(
    path: Path,
    result: EvaluationResult,
    signals: Sequence[tuple[str, str]],
    *,
    title: str,
    ylabel: str,
    force: bool = False,
) -> Path:
    """Write a PNG: the trajectories in their widest plane, and error series over time.

    Parameters
    ----------
    path : Path
        The PNG to write (atomically; an existing file needs ``force``).
    result : EvaluationResult
        The matched reference and the estimate as compared (aligned) are drawn, and the
        series of ``signals``.
    signals : sequence of (signal, label)
        Which of the result's series to draw, and each curve's legend label; times are
        seconds from the first matched stamp.
    title, ylabel : str
        Figure title and the error axis label (with its unit).
    force : bool
        Overwrite an existing file.
    """
    require("matplotlib", "plot", feature="--plot")
    from matplotlib.figure import Figure  # noqa: PLC0415 (optional extra)

    reference, estimate = result.reference, result.estimate
    fig = Figure(figsize=(11, 4.5), layout="constrained")
    top, err = fig.subplots(1, 2, width_ratios=(1, 1.4))
    # The plane of the two widest axes: x-y for most robots, x-z for KITTI's camera frame.
    spans = np.ptp(reference.positions_xyz, axis=0)
    a, b = sorted(int(k) for k in np.argsort(spans)[-2:])
    for traj, style, label in ((reference, "k-", "reference"), (estimate, "-", "estimate")):
        top.plot(traj.positions_xyz[:, a], traj.positions_xyz[:, b], style, lw=1, label=label)
    top.set_aspect("equal", adjustable="datalim")
    top.set_xlabel(f"{'xyz'[a]} [m]")
    top.set_ylabel(f"{'xyz'[b]} [m]")
    top.legend(loc="best")
    top.set_title(f"{'xyz'[a]}-{'xyz'[b]} view")
    t0 = float(estimate.stamps_s[0]) if len(estimate) else 0.0
    for signal, label in signals:
        series = result.series[signal]
        times = series.stamps_s - t0
        if times.size > 1 and bool((times[1:] > times[:-1]).all()):
            err.plot(times, series.errors, lw=1, label=label)
        else:  # overlapping pairs or segments: points, not a line
            err.plot(times, series.errors, ".", ms=2, label=label)
    err.set_xlabel("time since the first matched pose [s]")
    err.set_ylabel(ylabel)
    if len(signals) > 1:
        err.legend(loc="best")
    err.set_title(title)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return write_atomic(path, buffer.getvalue(), force=force)
