"""``robot-msgs drift REF EST``: drift per distance, KITTI devkit or rpg_trajectory_evaluation."""

from __future__ import annotations

import argparse

from robot_msgs.cli._evaluation_args import (
    add_input_args,
    add_output_args,
    add_settings_args,
    flag_error,
    read_inputs_from_args,
    settings_from_args,
)
from robot_msgs.cli._evaluation_output import emit, prepare_outputs, write_plot
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.settings import DRIFT_PROTOCOLS, RPG_SETTINGS, Drift, EvaluationSettings

__all__ = ["add_parser", "run"]


def _numbers(text: str) -> list[float]:
    """``"100,200"`` as ``[100.0, 200.0]``; argparse shows the error with the flag."""
    try:
        return [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        msg = f"expected numbers separated by commas, as 100,200, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None


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
        "--protocol", choices=DRIFT_PROTOCOLS, default="kitti", help="default kitti"
    )
    parser.add_argument(
        "--lengths",
        type=_numbers,
        metavar="M,M,...",
        help="segment lengths in metres (default 100,...,800 for kitti; fractions for rpg)",
    )
    parser.add_argument(
        "--step", type=int, metavar="FRAMES", help="kitti: frames between starts (default 10)"
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
    """Compute the drift and report it; return 0.

    Flags the protocol would ignore are refused; an error about the segments names its
    flag (``--lengths``, ``--step``, ``--fractions``).
    """
    from robot_msgs.evaluation.entry import evaluate  # noqa: PLC0415 - the work, not --help

    given = {
        "lengths_m": None if args.lengths is None else tuple(args.lengths),
        "step_frames": args.step,
        "fractions": None if args.fractions is None else tuple(args.fractions),
    }
    given = {k: v for k, v in given.items() if v is not None}
    try:
        spec = Drift(protocol=args.protocol, **given)
    except ValidationError as err:
        raise flag_error(err, given) from err
    # rpg_trajectory_evaluation's defaults: one-to-one within 0.02 s, Sim(3).
    base = EvaluationSettings() if args.protocol == "kitti" else RPG_SETTINGS
    settings = settings_from_args(args, base)
    plans = prepare_outputs(args)
    (reference, estimate), (ref_name, est_name) = read_inputs_from_args(args)
    try:
        (result,) = evaluate(
            reference,
            estimate,
            settings,
            metrics=[spec],
            reference_name=ref_name,
            estimate_name=est_name,
        )
    except ValidationError as err:
        raise flag_error(err, given) from err
    defaults = Drift(protocol=args.protocol).record(reference.path_length_m)
    emit(args, [result], plans, [estimate], {**defaults, **base.record()})
    if args.plot is not None:
        per_length = [
            s
            for s in result.comparison.signals
            if s.quantity == "translation_pct" and s.length_m is not None and s.stats.n
        ]
        write_plot(
            args,
            [result],
            per_length,
            title=f"{args.protocol} drift: translation error per segment, by segment end",
        )
    return 0
