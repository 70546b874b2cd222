"""``robot-msgs drift REF EST``: drift per distance, KITTI devkit or rpg_trajectory_evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli._evaluation_args import (
    add_input_args,
    add_output_args,
    add_settings_args,
    read_inputs,
    settings_from_args,
)
from robot_msgs.cli._evaluation_output import emit, prepare_outputs, write_plot
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.evaluation import (
    KITTI_LENGTHS_M,
    RPG_FRACTIONS,
    RPG_SETTINGS,
    EvaluationSettings,
    kitti_drift,
    relative_error,
)

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]


def _numbers(text: str) -> list[float]:
    return [float(v) for v in text.split(",") if v.strip()]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``drift`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "drift",
        help=COMMANDS["drift"],
        description=(
            "KITTI protocol: segments of 100..800 m of ground-truth path, one starting every "
            "10 frames; translation error in %% and rotation error in deg/m, averaged over "
            "all segments (the published KITTI figures). --protocol rpg: "
            "rpg_trajectory_evaluation's relative error over 10..50 %% of the path length."
        ),
    )
    add_input_args(parser)
    parser.add_argument(
        "--protocol", choices=("kitti", "rpg"), default="kitti", help="default kitti"
    )
    parser.add_argument(
        "--lengths",
        type=_numbers,
        metavar="M,M,...",
        help="segment lengths in metres (default 100,...,800 for kitti; fractions for rpg)",
    )
    parser.add_argument(
        "--step", type=int, default=10, metavar="FRAMES", help="kitti: frames between starts"
    )
    parser.add_argument(
        "--fractions",
        type=_numbers,
        metavar="F,F,...",
        help="rpg: lengths as fractions of the path length (default 0.1,...,0.5)",
    )
    add_settings_args(
        parser, EvaluationSettings(), note="rpg: one-to-one within 0.02 s, sim3 alignment"
    )
    add_output_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the drift and report it; return 0."""
    kitti = args.protocol == "kitti"
    # rpg_trajectory_evaluation's defaults: one-to-one within 0.02 s, Sim(3).
    settings = settings_from_args(args, EvaluationSettings() if kitti else RPG_SETTINGS)
    prepare_outputs(args)
    reference, estimate, ref_name, est_name = read_inputs(args)
    if kitti:
        result = kitti_drift(
            reference,
            estimate,
            settings=settings,
            lengths_m=args.lengths or KITTI_LENGTHS_M,
            step_frames=args.step,
            reference_name=ref_name,
            estimate_name=est_name,
        )
    else:
        result = relative_error(
            reference,
            estimate,
            settings=settings,
            fractions=args.fractions or RPG_FRACTIONS,
            lengths_m=args.lengths,
            reference_name=ref_name,
            estimate_name=est_name,
        )
    emit(args, result)
    if args.plot is not None:
        lengths = result.settings["lengths_m"]
        assert isinstance(lengths, tuple)  # recorded as a tuple of metres
        signals = [
            (f"translation_pct@{length:g}m", f"{length:g} m")
            for length in lengths
            if len(result.series[f"translation_pct@{length:g}m"])
        ]
        write_plot(
            args.plot,
            result,
            signals,
            title=f"{args.protocol} drift: translation error per segment start",
            ylabel="translation error [%]",
            force=args.force,
        )
    return 0
