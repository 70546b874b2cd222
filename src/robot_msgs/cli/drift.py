"""``robot-msgs drift REF EST``: drift per distance, KITTI devkit or rpg_trajectory_evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli._input_args import add_input_args, read_inputs_from_args
from robot_msgs.cli._output_args import add_output_args
from robot_msgs.cli._settings_args import add_settings_flags, settings_from_args
from robot_msgs.cli.commands import COMMANDS

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]

#: The fields whose default ``--protocol rpg`` changes: those where
#: :data:`~robot_msgs.evaluation.settings.RPG_SETTINGS` differs from ``EvaluationSettings()``
#: (tests/cli/test_drift.py holds them equal). Named here so that ``drift --help`` imports
#: no settings class (msgspec and NumPy: 0.15 s of its start-up).
RPG_CHANGED = ("align", "max_diff_s", "sync")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``drift`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "drift",
        help=COMMANDS["drift"],
        description=(
            "KITTI protocol: segments of 100..800 m of ground-truth path, one starting every "
            "10 frames; translation error in % and rotation error in deg/m, averaged over "
            "all segments (the published KITTI figures). --protocol rpg: "
            "rpg_trajectory_evaluation's relative error over 10..50 % of the path length."
        ),
    )
    add_input_args(parser)
    add_settings_flags(
        parser,
        ["Drift", "EvaluationSettings"],  # their defaults; none imported
        omit=("confidence",),  # the bounds of APE's NEES, which drift has not
        note="rpg: one-to-one within 0.02 s, sim3 alignment",
        noted=RPG_CHANGED,
    )
    add_output_args(
        parser,
        plot="the trajectories, and each segment length's translation error per segment "
        "over the segment's start (one length: the trajectory coloured by it, with its rms, "
        "mean and median): PDF, SVG, EPS or PNG by the name, 11 x 4.5 in; needs "
        "robot_msgs[plot]",
        several=False,
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the drift and report it; return 0.

    Flags the protocol would ignore are refused; an error about the segments names its
    flag (``--lengths``, ``--step``, ``--fractions``).
    """
    # Imported here, not for --help: the settings messages, the evaluation, the outputs.
    from robot_msgs.cli._evaluation_output import (  # noqa: PLC0415
        emit,
        evaluate_each,
        prepare_outputs,
        write_plot,
    )
    from robot_msgs.evaluation.settings import (  # noqa: PLC0415
        RPG_SETTINGS,
        Drift,
        EvaluationSettings,
    )

    spec = settings_from_args(args, Drift())
    # rpg_trajectory_evaluation's defaults: one-to-one within 0.02 s, Sim(3).
    base = EvaluationSettings() if spec.protocol == "kitti" else RPG_SETTINGS
    settings = settings_from_args(args, base)
    plans = prepare_outputs(args)
    (reference, estimate), (ref_name, est_name), fixed = read_inputs_from_args(args)
    (result,), warned = evaluate_each(
        args, "drift", reference, [estimate], (ref_name, [est_name]), settings, spec, fixed
    )
    from robot_msgs.evaluation.drift import rpg_path_length_m  # noqa: PLC0415 - NumPy

    # The lengths rpg's fractions give of the path it takes: said only when given
    # (those of given --fractions were said as --lengths beside them, which refuse both).
    path_m = rpg_path_length_m(reference, settings)
    defaults = Drift(protocol=spec.protocol).record(path_m)
    if spec.lengths_m is None:
        defaults["lengths_m"] = spec.record(path_m)["lengths_m"]
    emit(args, [result], plans, [estimate], {**defaults, **base.record()}, [*fixed, warned])
    if args.plot is not None:
        from robot_msgs.compare.result import drift_title  # noqa: PLC0415 - plots only

        write_plot(
            args,
            [result],
            result.segment_signals(),
            title=drift_title(spec.protocol),
            at="segment start",
        )
    return 0
