"""``robot-msgs ape REF EST``: absolute pose error, evo's ``evo_ape`` with clearer flags."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli._evaluation_args import (
    add_input_args,
    add_output_args,
    add_settings_args,
    read_inputs,
    settings_from_args,
)
from robot_msgs.cli._evaluation_output import axis_label, emit, prepare_outputs, write_plot
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.evaluation import APE_RELATIONS, EvaluationSettings, ape
from robot_msgs.evaluation.relations import RELATION_ALIASES

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``ape`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "ape",
        help=COMMANDS["ape"],
        description=(
            "Associate EST with REF in time, align it, and summarise the absolute pose "
            "error E_i = P_i^-1 Q_i per matched pose (evo's APE). Example: robot-msgs ape "
            "example:fr1_xyz/groundtruth.tum example:fr1_xyz/rgbdslam.tum --align se3"
        ),
    )
    add_input_args(parser)
    parser.add_argument(
        "--relation",
        choices=(*APE_RELATIONS, *RELATION_ALIASES),
        default="translation",
        help="translation (m, evo trans_part), angle_deg, angle_rad, full, rot_part, "
        "point_distance, or a signed axis x/y/z (m, estimate minus reference)",
    )
    add_settings_args(parser, EvaluationSettings())
    add_output_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the APE and report it; return 0."""
    settings = settings_from_args(args, EvaluationSettings())
    prepare_outputs(args)
    reference, estimate, ref_name, est_name = read_inputs(args)
    result = ape(
        reference,
        estimate,
        settings=settings,
        relation=args.relation,
        reference_name=ref_name,
        estimate_name=est_name,
    )
    emit(args, result)
    if args.plot is not None:
        ((name, unit),) = result.units.items()
        write_plot(
            args.plot,
            result,
            [(name, name)],
            title=f"APE {name} (align {settings.align})",
            ylabel=axis_label(name, unit),
            force=args.force,
        )
    return 0
