"""``robot-msgs rpe REF EST...``: relative pose error, evo's ``evo_rpe`` plus a seconds delta.

Several estimates are each evaluated against REF with the same settings and pairs rule,
as ``ape`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli._input_args import add_input_args, read_inputs_from_args
from robot_msgs.cli._output_args import add_output_args
from robot_msgs.cli._settings_args import (
    add_settings_flags,
    pair_list_from_args,
    settings_from_args,
)
from robot_msgs.cli.commands import COMMANDS

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
            "delta apart and summarise E_ij = (Q_i^-1 Q_j)^-1 (P_i^-1 P_j) (Q: REF, P: EST; "
            "evo's RPE); "
            "several --delta values give one row each; --protocol tum reproduces TUM's "
            "evaluate_rpe.py --fixed_delta --max_pairs 0. "
            "Example: robot-msgs rpe REF EST --delta 1 --delta-unit s --all-pairs"
        ),
    )
    add_input_args(parser, several=True)
    # None imported; --confidence bounds APE's NEES, which RPE has not.
    add_settings_flags(parser, ["Rpe", "PairSettings", "EvaluationSettings"], omit=("confidence",))
    add_output_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the RPE of each estimate and report it; return 0.

    A delta that gives no pose pair is an error naming ``--delta``.
    """
    # Imported here, not for --help: the settings messages, the evaluation, the outputs.
    from robot_msgs.cli._evaluation_output import (  # noqa: PLC0415
        emit,
        evaluate_each,
        prepare_outputs,
        write_plot,
    )
    from robot_msgs.evaluation.settings import EvaluationSettings, PairSettings, Rpe  # noqa: PLC0415

    settings = settings_from_args(args, EvaluationSettings())
    pairs = pair_list_from_args(args, PairSettings(), settings=settings)
    spec = settings_from_args(args, Rpe()).replace(pairs=tuple(pairs))
    plans = prepare_outputs(args, args.estimates)
    (reference, *estimates), (ref_name, *est_names), fixed = read_inputs_from_args(args)
    results, warned = evaluate_each(
        args, "rpe", reference, estimates, (ref_name, est_names), settings, [spec], fixed
    )
    defaults = {**Rpe().record(), **EvaluationSettings().record()}
    del defaults["delta"], defaults["delta_unit"]  # the interval is always said: it is the metric
    emit(args, results, plans, estimates, defaults, [*fixed, warned])
    if args.plot is not None:
        from robot_msgs.compare.signal import delta_words  # noqa: PLC0415
        from robot_msgs.report.figure_text import over_time  # noqa: PLC0415
        from robot_msgs.report.figures import drawn_at  # noqa: PLC0415

        # The delta in the axis's and the legend's words ("1 frame", not "1 f").
        deltas = ", ".join(delta_words(p.delta, p.delta_unit) for p in pairs)
        head = results[0]
        at = drawn_at(head, next(iter(head.comparison.signals), None))
        what = over_time("RPE", frames=head.estimate.stamps_are_frames, at=at)
        write_plot(args, results, results[0].comparison.signals, title=f"{what}, delta {deltas}")
    return 0
