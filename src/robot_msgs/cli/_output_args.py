"""The output flags of the commands, each declared once, and the checks of what they go with.

``--json``, ``--save``, ``--save-aligned`` and ``--to``, ``--plot`` and ``--dpi``,
``--label``, ``--save-layout``, ``--force`` and ``--quiet``: :func:`add_output_args`
adds those of ``ape``, ``rpe`` and ``drift``; ``traj``, ``res`` and ``report`` add the ones
they take. :func:`check_plot_options` and :func:`check_save_layout` refuse a flag given
without the output it sets; :func:`given_outputs` refuses ``--force`` without one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.errors import FormatError, OutputPathError, UsageError
from robot_msgs.files import STDOUT
from robot_msgs.io import WRITE_FORMATS
from robot_msgs.limits import dpi_flag

if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping, Sequence
    from typing import TextIO

    from robot_msgs.report.report_table import ReportTable

__all__ = [
    "add_label_flag",
    "add_output_args",
    "add_plot_flags",
    "add_save_layout_flag",
    "add_table_flags",
    "check_plot_options",
    "check_save_layout",
    "given_outputs",
    "say_tables",
    "trajectory_outputs_to",
]


def trajectory_outputs_to(path: str | os.PathLike[str], to: str | None) -> tuple[str, list[Path]]:
    """:func:`robot_msgs.io.trajectory_outputs` of ``--save``/``--save-aligned`` and ``--to``.

    The library names the format written ``format=``, as it names the format read; on the
    command line the one is ``--to``, the other ``--format``, so its error says ``--to``.

    Raises
    ------
    FormatError
        As :func:`~robot_msgs.io.trajectory_outputs`, naming ``--to``.
    """
    from robot_msgs.io.detect import trajectory_outputs  # noqa: PLC0415 - NumPy when saving

    try:
        return trajectory_outputs(path, to)
    except FormatError as err:
        msg = str(err).replace("`format=`", "--to")
        raise FormatError(msg) from err


def add_table_flags(group: argparse._ActionsContainer, what: str, csv: str | None) -> None:
    """Add ``--json [FILE]``, ``--csv FILE``, ``--latex FILE`` and ``--markdown FILE``.

    The one declaration for ``res``, ``report`` and ``track``, whose outputs take files:
    ``what`` as JSON, ``csv`` the help of ``--csv`` (``None``: no ``--csv``), and the tables
    in LaTeX and Markdown (:func:`say_tables` prints them). Like ``ape --json``, a bare
    ``--json`` prints (``-`` names standard output too).
    """
    group.add_argument(
        "--json",
        type=Path,
        nargs="?",
        const=Path("-"),
        metavar="FILE",
        help=f"{what} as JSON (to standard output without FILE, or with -)",
    )
    if csv is not None:
        group.add_argument("--csv", type=Path, metavar="FILE", help=csv)
    group.add_argument("--latex", type=Path, metavar="FILE", help="LaTeX tables (booktabs)")
    group.add_argument("--markdown", type=Path, metavar="FILE", help="Markdown tables")


def say_tables(
    tables: Sequence[ReportTable], notes: Sequence[str], outputs: Mapping[str, Path]
) -> TextIO:
    """Print ``tables`` and each of ``notes`` folded; return the stream they went to.

    Standard output, or standard error beside an output on standard output (``-``): that
    output is then its only content.
    """
    from robot_msgs.report.table_renderers import render_text  # noqa: PLC0415
    from robot_msgs.report.text import wrap  # noqa: PLC0415

    said_to = sys.stderr if any(os.fspath(p) == STDOUT for p in outputs.values()) else sys.stdout
    print("\n\n".join(render_text(t) for t in tables), file=said_to)
    for note in notes:
        print("\n".join(wrap(f"NOTE: {note}", subsequent_indent="  ")), file=said_to)
    return said_to


def given_outputs(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Path]:
    """Return the output files of ``names`` given (``--json FILE``...), by name.

    Raises
    ------
    UsageError
        ``--force`` without any of them: it has nothing to overwrite.
    """
    outputs = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    if args.force and not outputs:
        msg = f"--force only goes with an output ({', '.join(f'--{n}' for n in names)})"
        raise UsageError(msg)
    return outputs


def add_label_flag(group: argparse._ActionsContainer, inputs: str = "EST") -> None:
    """Add ``--label NAME`` (repeatable): each input's name in the figures' legends.

    The one declaration of the flag, for ``ape``/``rpe``/``drift``, ``traj`` and ``res``;
    :func:`robot_msgs.report.figure_text.legend_names` applies it.
    """
    group.add_argument(
        "--label",
        action="append",
        metavar="NAME",
        help=f"legend name of each {inputs}, in order: give it once per {inputs} "
        "(default: the file stem)",
    )


def add_plot_flags(
    group: argparse._ActionsContainer,
    plot: str,
    *,
    dpi: str = "PNG resolution of --plot (default 150, <= 600)",
    plane: str = "",
) -> None:
    """Add ``--plot FILE`` and ``--dpi N``, and ``--plot-plane`` where ``plane`` helps it.

    The one declaration of the flags, for ``ape``/``rpe``/``drift``, ``traj`` and ``res``,
    each with its own help; :func:`check_plot_options` refuses the others without ``--plot``.
    """
    group.add_argument("--plot", type=Path, metavar="FILE", help=plot)
    group.add_argument("--dpi", type=int, action=dpi_flag, metavar="N", help=dpi)
    if plane:
        group.add_argument("--plot-plane", choices=("xy", "xz", "yz", "xyz"), help=plane)


def check_plot_options(args: argparse.Namespace) -> None:
    """Refuse ``--plot-plane`` and ``--dpi`` without ``--plot``, and ``--plot -`` on a terminal.

    WHY: ``--plot -`` writes the figure's PNG bytes to standard output, and on a terminal
    they filled the screen with binary; as ``gzip`` refuses to write compressed data to a
    terminal, the figure goes to a pipe, a redirection or a file, checked before any work.

    Raises
    ------
    UsageError
        One of them given without ``--plot`` (exit status 2, as ``--label`` alone).
    OutputPathError
        ``--plot -`` while standard output is a terminal (exit status 1).
    """
    if args.plot is not None:
        if os.fspath(args.plot) == STDOUT and _stdout_is_terminal():
            msg = (
                "--plot - writes the figure's PNG bytes to standard output, which is a "
                "terminal: redirect it (--plot - > plot.png, or | display) or give --plot a "
                "file name"
            )
            raise OutputPathError(msg)
        return
    for flag, name, what in (
        ("--plot-plane", "plot_plane", "the trajectory view"),
        ("--dpi", "dpi", "the PNG resolution"),
    ):
        if getattr(args, name, None) is not None:
            msg = f"{flag} sets {what} of --plot's figure; give --plot FILE too"
            raise UsageError(msg)


def _stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (False when it is closed or has no such test)."""
    stream = sys.stdout
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, OSError, ValueError):  # closed, or a stream without isatty
        return False


def add_save_layout_flag(group: argparse._ActionsContainer, output: str) -> None:
    """Add ``--save-layout``: the messages of a ``.mcap``/``.db3`` ``output``.

    The library's ``layout=`` (:func:`robot_msgs.io.write_trajectory`), whose warning
    for a child frame or covariances not written names it.
    """
    group.add_argument(
        "--save-layout",
        choices=("poses", "path", "odometry"),
        help=f"messages of a .mcap/.db3 {output}: geometry_msgs/PoseStamped per pose "
        "(poses, the default), one nav_msgs/Path (path), or nav_msgs/Odometry per pose "
        "(odometry: keeps the child frame and covariances)",
    )


def check_save_layout(args: argparse.Namespace, flag: str, fmt: str) -> None:
    """Refuse ``--save-layout`` without a bag written by ``flag`` (``fmt``: its format).

    Raises
    ------
    UsageError
        ``--save-layout`` with no ``flag`` or with a text format (it was ignored).
    """
    if getattr(args, "save_layout", None) is None or fmt in ("mcap", "db3"):
        return
    if fmt:  # it was ignored in silence, as --save-topic was
        msg = f"--save-layout names the messages of a .mcap or .db3 {flag} OUT, not of {fmt} text"
    else:
        msg = f"--save-layout only goes with {flag} OUT.mcap or OUT.db3"
    raise UsageError(msg)


#: What ``--plot`` draws for ``ape`` and ``rpe``: one estimate's trajectory coloured by
#: its error, and the error over time with its statistics.
_PLOT_OVER_TIME = (
    "trajectories coloured by error and error over time (rms, mean, median): "
    "PDF, SVG, EPS or PNG by the name, 11 x 4.5 in (taller under the legend of many "
    "estimates); needs robot_msgs[plot]"
)


def add_output_args(
    parser: argparse.ArgumentParser, *, plot: str = _PLOT_OVER_TIME, several: bool = True
) -> None:
    """Add ``--json``, ``--save``, ``--save-aligned``, ``--to``, ``--plot``, ``--dpi``...

    ``plot`` is what ``--plot`` draws; ``several``: the command takes several estimates
    (``ape``, ``rpe``), whose output names hold ``{name}`` and whose JSON is a list.
    ``drift`` takes one and draws its segments' errors (its help said "trajectories
    coloured by error and error over time (rms, mean, median)", which its figure is not).
    """
    group = parser.add_argument_group(
        "output (with several estimates, FILE names hold {name}: each estimate's name)"
        if several
        else "output"
    )
    group.add_argument(
        "--json",
        action="store_true",
        help="print the result as JSON (Comparison.to_dict"
        + ("; a list for several estimates)" if several else ")"),
    )
    group.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the whole result (per-pose errors, alignment, matched and aligned "
        "trajectories) as .json, .npz or .parquet by the name (parquet: "
        "robot_msgs[parquet]; a name without a suffix: JSON); robot-msgs res reads it",
    )
    group.add_argument(
        "--save-aligned",
        type=Path,
        metavar="FILE",
        help="write the estimate moved as it was compared: the transforms, the alignment "
        "and the plane projection (TUM, KITTI, EuRoC or a ROS 2 bag by the name's "
        ".tum/.kitti/.csv/.mcap/.db3, or --to)",
    )
    group.add_argument(
        "--to", choices=WRITE_FORMATS, help="format of --save-aligned (default: by its name)"
    )
    add_save_layout_flag(group, "--save-aligned")
    add_plot_flags(
        group,
        plot,
        plane="trajectory view of --plot; xyz is 3-D (default: the reference's two widest axes)",
    )
    add_label_flag(group)
    group.add_argument("--force", action="store_true", help="overwrite existing output files")
    group.add_argument(
        "--quiet",
        action="store_true",
        help="no progress on stderr (shown only on a terminal, for a step over 2 s)",
    )
