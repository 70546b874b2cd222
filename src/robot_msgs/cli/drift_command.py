"""``robot-msgs drift REF EST``: drift per distance, KITTI devkit or rpg_trajectory_evaluation."""

from __future__ import annotations

import argparse

from robot_msgs.cli._evaluation_args import (
    add_input_args,
    add_output_args,
    add_settings_args,
    read_inputs,
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
from robot_msgs.evaluation import (
    KITTI_LENGTHS_M,
    RPG_FRACTIONS,
    RPG_SETTINGS,
    EvaluationSettings,
    kitti_drift,
    relative_error,
)
from robot_msgs.limits import step_flag

__all__ = ["add_parser", "run"]


#: The flag of each argument of the drift functions, for their errors.
_FLAGS = {"lengths_m": "--lengths", "step_frames": "--step", "fractions": "--fractions"}


def _numbers(text: str) -> list[float]:
    """``"100,200"`` as ``[100.0, 200.0]``; argparse shows the error with the flag."""
    try:
        return [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        msg = f"expected numbers separated by commas, as 100,200, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None


def _check_protocol_flags(args: argparse.Namespace) -> None:
    """Refuse flags that the chosen protocol would ignore."""
    kitti = args.protocol == "kitti"
    if kitti and args.fractions is not None:
        msg = (
            "--fractions: only --protocol rpg takes lengths as fractions of the path; "
            "give --lengths in metres for kitti, or add --protocol rpg"
        )
        raise ValidationError(msg)
    if not kitti and args.step is not None:
        msg = (
            f"--step {args.step}: only --protocol kitti starts a segment every N frames "
            "(rpg starts one at every frame); drop it"
        )
        raise ValidationError(msg)
    if args.fractions is not None and args.lengths is not None:
        msg = "--fractions and --lengths both set the segment lengths; give one of them"
        raise ValidationError(msg)


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
        "--step",
        type=int,
        action=step_flag,
        metavar="FRAMES",
        help="kitti: frames between starts (default 10)",
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
    kitti = args.protocol == "kitti"
    _check_protocol_flags(args)
    # rpg_trajectory_evaluation's defaults: one-to-one within 0.02 s, Sim(3).
    settings = settings_from_args(args, EvaluationSettings() if kitti else RPG_SETTINGS)
    plans = prepare_outputs(args)
    reference, estimate, ref_name, est_name = read_inputs(args)
    given = {"lengths_m": args.lengths, "step_frames": args.step, "fractions": args.fractions}
    try:
        if kitti:
            result = kitti_drift(
                reference,
                estimate,
                settings=settings,
                lengths_m=KITTI_LENGTHS_M if args.lengths is None else args.lengths,
                step_frames=10 if args.step is None else args.step,
                reference_name=ref_name,
                estimate_name=est_name,
            )
        else:
            result = relative_error(
                reference,
                estimate,
                settings=settings,
                fractions=RPG_FRACTIONS if args.fractions is None else args.fractions,
                lengths_m=args.lengths,
                reference_name=ref_name,
                estimate_name=est_name,
            )
    except ValidationError as err:
        value = given.get(err.field)
        if value is None:
            raise
        shown = ",".join(f"{v:g}" for v in value) if isinstance(value, list) else value
        msg = f"{_FLAGS[err.field]} {shown}: {err.reason}"
        raise ValidationError(msg, field=err.field, reason=err.reason) from err
    emit(args, [result], plans, [estimate])
    if args.plot is not None:
        lengths = result.settings["lengths_m"]
        assert isinstance(lengths, tuple)  # recorded as a tuple of metres
        signals = [
            (f"translation_pct@{length:g}m", f"{length:g} m")
            for length in lengths
            if len(result.series[f"translation_pct@{length:g}m"])
        ]
        write_plot(
            args,
            [(result.comparison.estimate, result)],
            signals,
            title=f"{args.protocol} drift: translation error per segment, by segment end",
            frames=stamps_are_frames(args, [args.estimate]),
        )
    return 0
