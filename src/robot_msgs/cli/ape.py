"""``robot-msgs ape REF EST...``: absolute pose error, evo's ``evo_ape`` with clearer flags.

Several estimates are each evaluated against REF with the same settings (REF read once):
one table with a row per estimate, a JSON list of the comparisons, one saved file each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli._input_args import add_input_args, read_inputs_from_args, unknown_covariances_of
from robot_msgs.cli._output_args import add_output_args
from robot_msgs.cli._settings_args import add_settings_flags, settings_from_args
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import UsageError, ValidationError

if TYPE_CHECKING:
    import argparse

    from robot_msgs.evaluation.settings import Ape

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``ape`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "ape",
        help=COMMANDS["ape"],
        description=(
            "Associate EST with REF in time, align it, and summarise the absolute pose "
            "error E_i = P_i^-1 Q_i per matched pose (P: EST aligned, Q: REF; evo's APE); "
            "several ESTs are each evaluated with the same settings. Example: robot-msgs ape "
            "example:fr1_xyz/groundtruth.tum example:fr1_xyz/rgbdslam.tum --align se3"
        ),
    )
    add_input_args(parser, several=True)
    add_settings_flags(parser, ["Ape", "EvaluationSettings"])  # their defaults; none imported
    add_output_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the APE of each estimate and report it; return 0."""
    # Imported here, not for --help: the settings messages, the evaluation, the outputs.
    from robot_msgs.cli._evaluation_output import (  # noqa: PLC0415
        emit,
        evaluate_each,
        prepare_outputs,
        write_plot,
    )
    from robot_msgs.evaluation.consistency import NEES_DOF  # noqa: PLC0415
    from robot_msgs.evaluation.settings import Ape, EvaluationSettings  # noqa: PLC0415

    settings = settings_from_args(args, EvaluationSettings())
    specs = _relations_from_args(args, settings_from_args(args, Ape()))
    nees = [s.relation for s in specs if s.relation in NEES_DOF]
    if not nees and settings.confidence != EvaluationSettings().confidence:
        # It bounds NEES only: taken in silence and shown in "settings:" as if it applied.
        *most, last = NEES_DOF
        given = " ".join(s.relation for s in specs)
        msg = (
            f"--confidence {settings.confidence:g}: sets the chi-square bounds of NEES; give "
            f"it with --relation {', '.join(most)} or {last}, not {given}"
        )
        raise UsageError(msg)
    plans = prepare_outputs(args, args.estimates)
    (reference, *estimates), (ref_name, *est_names), fixed = read_inputs_from_args(args)
    if nees:  # a topic whose covariances are all zero, named
        needed_by = f"NEES (--relation {nees[0]})"
        for k, estimate in enumerate(estimates, start=1):
            if estimate.covariance_6x6 is None:
                said = unknown_covariances_of(args, k, needed_by)
                if said is not None:
                    raise ValidationError(said)
    results, warned = evaluate_each(
        args, "ape", reference, estimates, (ref_name, est_names), settings, specs, fixed
    )
    defaults = {**Ape().record(), **EvaluationSettings().record()}
    emit(args, results, plans, estimates, defaults, [*fixed, warned])
    if args.plot is not None:
        from robot_msgs.report.figure_text import over_time  # noqa: PLC0415

        what = over_time("APE", frames=results[0].estimate.stamps_are_frames)
        write_plot(
            args, results, results[0].comparison.signals, title=f"{what} (align {settings.align})"
        )
    return 0


def _relations_from_args(args: argparse.Namespace, spec: Ape) -> list[Ape]:
    """One :class:`Ape` per ``--relation`` value (``--relation translation angle_deg``).

    Raises
    ------
    UsageError
        A relation given twice (``trans_part`` is ``translation``): one signal each; two
        NEES relations, whose chi-square bounds one result cannot both hold; several
        relations of two units with ``--plot``, whose error axes has one.
    """
    from robot_msgs.evaluation.consistency import NEES_DOF  # noqa: PLC0415
    from robot_msgs.evaluation.relations import RELATION_UNITS  # noqa: PLC0415

    given = getattr(args, "relation", None) or [spec.relation]
    specs = [spec.replace(relation=r) for r in given]
    relations = [s.relation for s in specs]
    twice = next((r for r in relations if relations.count(r) > 1), None)
    if twice is not None:
        msg = f"--relation {' '.join(given)}: {twice} given twice; give each relation once"
        raise UsageError(msg)
    nees = [r for r in relations if r in NEES_DOF]
    if len(nees) > 1:
        msg = (
            f"--relation {' '.join(given)}: one NEES relation per run ({', '.join(nees)} "
            "have chi-square bounds of their own); run ape once for each"
        )
        raise UsageError(msg)
    units = dict.fromkeys(RELATION_UNITS[r] for r in relations)
    if args.plot is not None and len(units) > 1:
        msg = (
            f"--plot draws the errors on one axis, of one unit; --relation {' '.join(given)} "
            f"has {', '.join(u or 'no unit' for u in units)}: plot each unit in a run of its own"
        )
        raise UsageError(msg)
    return specs
