"""``robot-msgs rpe REF EST...``: relative pose error, evo's ``evo_rpe`` plus a seconds delta.

Several estimates are each evaluated against REF with the same settings and pairs rule,
as ``ape`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli._evaluation_args import (
    add_input_args,
    add_output_args,
    add_pair_args,
    add_settings_args,
    pair_list_from_args,
    read_estimate,
    read_reference,
    settings_from_args,
)
from robot_msgs.cli._evaluation_output import (
    emit,
    prepare_outputs,
    stamps_are_frames,
    write_plot,
)
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import RPE_RELATIONS, EvaluationSettings, PairSettings, rpe
from robot_msgs.evaluation.relations import RELATION_ALIASES

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``rpe`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "rpe",
        help=COMMANDS["rpe"],
        description=(
            "Associate EST with REF in time, optionally align it, pick pose pairs (i, j) a "
            "delta apart and summarise E_ij = (Q_i^-1 Q_j)^-1 (P_i^-1 P_j) (evo's RPE); "
            "several --delta values give one row each; --protocol tum reproduces TUM's "
            "evaluate_rpe.py --fixed_delta --max_pairs 0. "
            "Example: robot-msgs rpe REF EST --delta 1 --delta-unit s --all-pairs"
        ),
    )
    add_input_args(parser, several=True)
    parser.add_argument(
        "--relation",
        choices=(*RPE_RELATIONS, *RELATION_ALIASES),
        default="translation",
        help="as for ape, plus point_distance_error_ratio (%%)",
    )
    add_pair_args(parser, PairSettings())
    add_settings_args(parser, EvaluationSettings())
    add_output_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the RPE of each estimate and report it; return 0.

    A delta that gives no pose pair is an error naming ``--delta`` and ``--delta-unit``.
    """
    settings = settings_from_args(args, EvaluationSettings())
    pairs = pair_list_from_args(args, PairSettings(), settings=settings)
    deltas = " ".join(f"{p.delta:g}" for p in pairs)
    plans = prepare_outputs(args, args.estimates)
    reference, ref_name = read_reference(args)
    estimates, results = [], []
    for path in args.estimates:
        estimate, est_name = read_estimate(args, path)
        estimates.append(estimate)
        try:
            result = rpe(
                reference,
                estimate,
                settings=settings,
                pairs=pairs,
                relation=args.relation,
                reference_name=ref_name,
                estimate_name=est_name,
            )
        except ValidationError as err:
            if err.field != "PairSettings.delta":  # no pair at this delta: say it with the flags
                raise
            more = "" if pairs[0].all_pairs else " or --all-pairs"
            which = f"{est_name}: " if len(args.estimates) > 1 else ""
            msg = (
                f"{which}--delta {deltas} --delta-unit {pairs[0].delta_unit}: {err.reason}; "
                f"use a smaller --delta{more}"
            )
            raise ValidationError(msg, field=err.field, reason=err.reason) from err
        results.append(result)
    emit(args, results, plans, estimates)
    if args.plot is not None:
        names = list(results[0].units)  # one signal per delta
        write_plot(
            args,
            [(r.comparison.estimate, r) for r in results],
            [(name, "error" if len(names) == 1 else name) for name in names],
            title=f"RPE over time, delta {deltas} {pairs[0].delta_unit}",
            frames=stamps_are_frames(args, args.estimates),
        )
    return 0
