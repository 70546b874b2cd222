"""``robot-msgs rpe REF EST``: relative pose error, evo's ``evo_rpe`` plus a seconds delta."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli._evaluation_args import (
    add_alignment_args,
    add_input_args,
    add_output_args,
    add_sync_args,
    evaluation_kwargs,
    read_inputs,
)
from robot_msgs.cli._evaluation_output import axis_label, check_outputs, emit, write_plot
from robot_msgs.evaluation import (
    DELTA_UNITS,
    RPE_RELATIONS,
    prepare,
    rpe_errors,
    rpe_from_prepared,
    select_pairs,
)
from robot_msgs.evaluation.relations import RELATION_ALIASES

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``rpe`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "rpe",
        help="relative pose error over pose pairs a delta apart (evo_rpe)",
        description=(
            "Associate EST with REF in time, optionally align it, pick pose pairs (i, j) a "
            "delta apart and summarise E_ij = (Q_i^-1 Q_j)^-1 (P_i^-1 P_j) (evo's RPE). "
            "Example: robot-msgs rpe REF EST --delta 1 --delta-unit s --all-pairs"
        ),
    )
    add_input_args(parser)
    parser.add_argument(
        "--relation",
        choices=(*RPE_RELATIONS, *RELATION_ALIASES),
        default="translation",
        help="as for ape, plus point_distance_error_ratio (%%)",
    )
    pairs = parser.add_argument_group("pose pairs")
    pairs.add_argument("--delta", type=float, default=1.0, help="interval of a pair (default 1)")
    pairs.add_argument(
        "--delta-unit",
        choices=DELTA_UNITS,
        default="f",
        help="f frames, s seconds, m metres of path, rad/deg rotation angle (default f)",
    )
    pairs.add_argument(
        "--all-pairs", action="store_true", help="a pair from every pose, not consecutive ones"
    )
    pairs.add_argument(
        "--pairs-from-reference",
        action="store_true",
        help="select the pairs by the reference's motion (default: the estimate's)",
    )
    pairs.add_argument(
        "--delta-tol",
        type=float,
        default=0.1,
        metavar="RATIO",
        help="relative tolerance of all-pairs and seconds deltas (default 0.1, evo's)",
    )
    add_sync_args(parser)
    add_alignment_args(parser)
    add_output_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the RPE and report it; return 0."""
    check_outputs(args)
    reference, estimate, ref_name, est_name = read_inputs(args)
    prep = prepare(reference, estimate, **evaluation_kwargs(args))
    pairs_from = "reference" if args.pairs_from_reference else "estimate"
    result = rpe_from_prepared(
        prep,
        relation=args.relation,
        delta=args.delta,
        delta_unit=args.delta_unit,
        all_pairs=args.all_pairs,
        pairs_from=pairs_from,
        rel_delta_tol=args.delta_tol,
        reference_name=ref_name,
        estimate_name=est_name,
    )
    emit(args, result)
    if args.plot is not None:
        source = prep.estimate if pairs_from == "estimate" else prep.reference
        pairs = select_pairs(
            source, args.delta, args.delta_unit, all_pairs=args.all_pairs,
            rel_delta_tol=args.delta_tol,
        )  # fmt: skip
        ((name, unit),) = result.units.items()
        errors = rpe_errors(prep.reference, prep.estimate, pairs, name)
        times = source.stamps_s[pairs[:, 1]] - source.stamps_s[0]
        write_plot(
            args.plot,
            prep.reference,
            prep.estimate,
            [(name, times, errors)],
            title=f"RPE {name}, delta {args.delta:g} {args.delta_unit}",
            ylabel=axis_label(name, unit),
            force=args.force,
        )
    return 0
