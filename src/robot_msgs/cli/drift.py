"""``robot-msgs drift REF EST``: drift per distance, KITTI devkit or rpg_trajectory_evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.cli._evaluation_args import (
    add_alignment_args,
    add_input_args,
    add_output_args,
    add_sync_args,
    evaluation_kwargs,
    read_inputs,
)
from robot_msgs.cli._evaluation_output import check_outputs, emit, write_plot
from robot_msgs.evaluation import (
    KITTI_LENGTHS_M,
    RPG_FRACTIONS,
    kitti_drift,
    kitti_segments,
    path_distances,
    prepare,
    relative_error,
    rpe_errors,
    rpg_segments,
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
        help="drift per distance travelled: KITTI devkit (default) or rpg relative error",
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
    add_sync_args(parser, default=None)
    add_alignment_args(parser, default=None)
    add_output_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the drift and report it; return 0."""
    check_outputs(args)
    reference, estimate, ref_name, est_name = read_inputs(args)
    if args.protocol == "kitti":
        settings = evaluation_kwargs(args)
        result = kitti_drift(
            reference,
            estimate,
            lengths_m=args.lengths or KITTI_LENGTHS_M,
            step_frames=args.step,
            reference_name=ref_name,
            estimate_name=est_name,
            **settings,
        )
    else:  # rpg_trajectory_evaluation's defaults: one-to-one within 0.02 s, Sim(3)
        settings = evaluation_kwargs(
            args, default_sync="one_to_one", default_max_diff=0.02, default_align="sim3"
        )
        result = relative_error(
            reference,
            estimate,
            fractions=args.fractions or RPG_FRACTIONS,
            lengths_m=args.lengths,
            reference_name=ref_name,
            estimate_name=est_name,
            **settings,
        )
    emit(args, result)
    if args.plot is not None:
        prep = prepare(reference, estimate, **settings)
        ref, est = prep.reference, prep.estimate
        lengths = [float(v) for v in str(result.settings["lengths_m"]).split(",")]
        distances = path_distances(ref.positions_xyz)
        series = []
        for value in lengths:
            if args.protocol == "kitti":
                first, last, _ = kitti_segments(distances, [value], args.step)
            else:
                first, last = rpg_segments(distances, value, 0.2 * value)
            if first.size:
                pairs = np.stack([first, last], axis=1)
                # For the rpg protocol the aligned estimate's relative translation equals
                # rpg's scaled one, so the curve shows rpg's translation_pct.
                t_pct = rpe_errors(ref, est, pairs, "translation") / value * 100.0
                series.append((f"{value:g} m", ref.stamps_s[first] - ref.stamps_s[0], t_pct))
        write_plot(
            args.plot,
            ref,
            est,
            series,
            title=f"{args.protocol} drift: translation error per segment start",
            ylabel="translation error [%]",
            force=args.force,
        )
    return 0
