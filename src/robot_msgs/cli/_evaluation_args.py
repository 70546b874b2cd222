"""Flags shared by ``robot-msgs ape``, ``rpe`` and ``drift``: inputs, sync, alignment, output.

The names say what they mean (``--align se3``, ``--max-diff``) where evo uses ``-a``,
``--t_max_diff``; the values are evo's where evo has one (relation names, delta units).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.compare.alignment import ALIGNMENT_METHODS
from robot_msgs.evaluation import SYNC_METHODS
from robot_msgs.io import FORMATS, read_trajectory

if TYPE_CHECKING:
    import argparse

    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "SYNC_CHOICES",
    "add_alignment_args",
    "add_input_args",
    "add_output_args",
    "add_sync_args",
    "evaluation_kwargs",
    "read_inputs",
]

#: ``--sync`` values: the association methods, spelt with dashes.
SYNC_CHOICES = tuple(method.replace("_", "-") for method in SYNC_METHODS)


def add_input_args(parser: argparse.ArgumentParser) -> None:
    """Add ``REF EST``, ``--format``, ``--ref-topic``/``--est-topic``, ``--ref/est-times``."""
    parser.add_argument("reference", metavar="REF", help="ground-truth file, bag, or example:NAME")
    parser.add_argument("estimate", metavar="EST", help="estimated trajectory file or bag")
    group = parser.add_argument_group("input")
    group.add_argument(
        "--format",
        choices=FORMATS,
        help="format of both inputs (default: detected from each file)",
    )
    group.add_argument("--ref-format", choices=FORMATS, help="format of REF only")
    group.add_argument("--est-format", choices=FORMATS, help="format of EST only")
    group.add_argument("--ref-topic", help="bag topic of REF, or a TF id /tf:parent.child")
    group.add_argument("--est-topic", help="bag topic of EST, or a TF id /tf:parent.child")
    group.add_argument(
        "--ref-times", type=Path, help="KITTI times file of REF (default: frame indices)"
    )
    group.add_argument(
        "--est-times", type=Path, help="KITTI times file of EST (default: frame indices)"
    )
    group.add_argument(
        "--strict",
        action="store_true",
        help="refuse data problems (NaN rows, repeated stamps, non-unit quaternions) "
        "instead of fixing them with a warning",
    )


def add_sync_args(parser: argparse.ArgumentParser, *, default: str | None = "nearest") -> None:
    """``--sync``, ``--max-diff``, ``--offset`` and ``--max-gap``."""
    group = parser.add_argument_group("association in time")
    group.add_argument(
        "--sync",
        choices=SYNC_CHOICES,
        default=default,
        help="nearest: evo's rule; one-to-one: TUM associate.py's greedy rule; "
        "interpolate: reference resampled at the estimate's stamps "
        f"(default {default or 'nearest; one-to-one for --protocol rpg'})",
    )
    group.add_argument(
        "--max-diff",
        type=float,
        metavar="SECONDS",
        help="largest stamp difference of a matched pair (default 0.01; 0.02 for rpg drift)",
    )
    group.add_argument(
        "--offset",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="added to the estimate's stamps for matching (default 0)",
    )
    group.add_argument(
        "--max-gap",
        type=float,
        metavar="SECONDS",
        help="interpolate: longest reference gap bridged (default 10 x median interval)",
    )


def add_alignment_args(parser: argparse.ArgumentParser, *, default: str | None = "none") -> None:
    """``--align``, ``--n-align`` and ``--align-window``."""
    group = parser.add_argument_group("alignment")
    group.add_argument(
        "--align",
        choices=ALIGNMENT_METHODS,
        default=default,
        help="se3: rotation + translation (evo -a); sim3: plus scale (-as); scale: scale only "
        "(-s); posyaw: translation + yaw (VIO); origin: first poses coincide; "
        f"none (default {default or 'none; sim3 for --protocol rpg'})",
    )
    fit = group.add_mutually_exclusive_group()
    fit.add_argument(
        "--n-align", type=int, metavar="N", help="fit the alignment on the first N matched poses"
    )
    fit.add_argument(
        "--align-window",
        type=float,
        nargs=2,
        metavar=("START", "END"),
        help="fit the alignment on the matched poses stamped within [START, END] seconds",
    )


def add_output_args(parser: argparse.ArgumentParser) -> None:
    """``--json``, ``--save``, ``--force`` and ``--plot``."""
    group = parser.add_argument_group("output")
    group.add_argument(
        "--json", action="store_true", help="print the result as JSON (Comparison.to_dict)"
    )
    group.add_argument("--save", type=Path, metavar="FILE", help="write the result as JSON")
    group.add_argument(
        "--plot",
        type=Path,
        metavar="FILE.png",
        help="trajectories (top view) and error over time; needs robot_msgs[plot]",
    )
    group.add_argument("--force", action="store_true", help="overwrite --save/--plot files")


def evaluation_kwargs(
    args: argparse.Namespace,
    *,
    default_sync: str = "nearest",
    default_max_diff: float = 0.01,
    default_align: str = "none",
) -> dict[str, Any]:
    """Keyword arguments of the association and alignment flags, for ``prepare`` and metrics.

    The defaults apply to flags left unset (``drift --protocol rpg`` has its own).

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_sync_args(parser, default=None)
    >>> add_alignment_args(parser, default=None)
    >>> args = parser.parse_args(["--sync", "one-to-one"])
    >>> kwargs = evaluation_kwargs(args, default_align="sim3")
    >>> kwargs["sync"], kwargs["max_diff_s"], kwargs["align"]
    ('one_to_one', 0.01, 'sim3')
    """
    window = None if args.align_window is None else tuple(args.align_window)
    return {
        "align": args.align or default_align,
        "n_align": args.n_align,
        "align_window_s": window,
        "sync": (args.sync or default_sync).replace("-", "_"),
        "max_diff_s": default_max_diff if args.max_diff is None else args.max_diff,
        "offset_s": args.offset,
        "max_gap_s": args.max_gap,
    }


def _label(path: str, topic: str | None) -> str:
    return path if topic is None else f"{path}:{topic}"


def read_inputs(args: argparse.Namespace) -> tuple[PoseTrajectory, PoseTrajectory, str, str]:
    """Read ``REF`` and ``EST`` as the flags say; return both and their labels."""
    reference = read_trajectory(
        args.reference,
        fmt=args.ref_format or args.format,
        topic=args.ref_topic,
        times_path=args.ref_times,
        strict=args.strict,
    )
    estimate = read_trajectory(
        args.estimate,
        fmt=args.est_format or args.format,
        topic=args.est_topic,
        times_path=args.est_times,
        strict=args.strict,
    )
    return (
        reference,
        estimate,
        _label(args.reference, args.ref_topic),
        _label(args.estimate, args.est_topic),
    )
