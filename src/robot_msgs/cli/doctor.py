"""``robot-msgs doctor REF EST``: what is wrong with an evaluation's setup, before the number.

Reads both inputs as ``ape`` would, runs :func:`robot_msgs.evaluation.diagnose_files`
and prints one line a finding (severity, kind, what was found, the flags that fix or
accept it), or the :class:`~robot_msgs.compare.Diagnosis` with ``--json``. The doctor
never writes a file. Exit status 0 whatever it finds, 1 when the inputs cannot be read;
with ``--check`` (for a script or CI, as ``traj --check``), 1 also when it finds an error
or a warning.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from robot_msgs.cli._flag_text import flags_in_text
from robot_msgs.cli._input_args import (
    add_input_args,
    inputs_from_args,
    reading_rules,
    side_error,
    warn_swapped,
)
from robot_msgs.cli._settings_args import add_settings_flags, settings_from_args
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.compare.finding_kinds import FINDING_KINDS
from robot_msgs.errors import FormatError

if TYPE_CHECKING:
    import argparse

    from robot_msgs.compare.diagnosis import Diagnosis, Finding

__all__ = ["add_parser", "format_diagnosis", "run"]


def _kinds_help() -> str:
    """List every kind with what it means, wrapped to the terminal's width."""
    from robot_msgs.report.text import wrap  # noqa: PLC0415

    return "\n".join(
        line
        for kind, text in FINDING_KINDS.items()
        for line in wrap(text, initial_indent=f"  {kind}: ", subsequent_indent="      ")
    )


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``doctor`` with the ``robot-msgs`` parser."""
    import argparse  # noqa: PLC0415

    parser = subparsers.add_parser(
        "doctor",
        help=COMMANDS["doctor"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Run the checks a careful evaluator makes on REF and EST and print one line a\n"
            "finding: severity (error, warning, info), kind, the evidence, and the flags\n"
            "that fix or accept it. A clean pair prints no warning. Files are only read.\n"
            "Example: robot-msgs doctor example:fr1_xyz/groundtruth.tum \\\n"
            "           example:fr1_xyz/rgbdslam.tum\n\nkinds:\n" + _kinds_help()
        ),
    )
    add_input_args(parser)
    # --confidence bounds APE's NEES, which the doctor does not compute.
    add_settings_flags(parser, ["EvaluationSettings"], omit=("confidence",))  # none imported
    parser.add_argument(
        "--json", action="store_true", help="print the diagnosis as JSON (for tools)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when an error or a warning is found (for scripts; infos pass)",
    )
    parser.set_defaults(run=run)


def _fix_text(finding: Finding) -> str:
    """Spell the fix as flags; an estimated transform as ``--transform-right auto``.

    A left transform that scales lengths (the estimate in millimetres) is
    ``--transform-left SCALE_FILE`` and what the file holds, said as TUM's ``--scale``
    is (:func:`~robot_msgs.cli.evo_flags.scale_file_text`). WHY: the matrix itself was said
    ``--transform-left FILE``, with nothing to write in the file (a review).
    """
    from robot_msgs.cli.evo_flags import scale_file_text  # noqa: PLC0415 - fixes of lengths only

    fix = {
        ("transform_right_auto" if k == "transform_right" else k): (
            True if k == "transform_right" else v
        )
        for k, v in finding.fix.items()
    }
    matrix = fix.pop("transform_left", None)
    said = flags_in_text(", ".join(f"`{k}={v!r}`" for k, v in fix.items()))
    if not isinstance(matrix, tuple):
        return said
    file = f"--transform-left SCALE_FILE; {scale_file_text(repr(matrix[0]))}"
    return f"{said}, {file}" if said else file


def format_diagnosis(
    diagnosis: Diagnosis,
    width: int | None = None,
    *,
    in_space: bool = False,
) -> str:
    """Return the text ``doctor`` prints: a header, then one line a finding.

    ``width``: fold each line to that many columns, a finding's continuation under its
    kind (a terminal's width; a pipe or a log keeps one line a finding, for grep).
    ``in_space``: matched in space (``--sync spatial``), a last line names the checks of
    stamps not run (:data:`~robot_msgs.evaluation.doctor.TIMED_KINDS`). WHY: a clean pair
    printed "nothing found" alone; only ``--json``'s ``checks`` said that no clock,
    coverage or rate was compared (a review). ``time_offset`` there is said with the
    offset search unused when the diagnosis says so (its ``unused_settings``).
    """
    from robot_msgs.evaluation.doctor import TIMED_KINDS, not_checked  # noqa: PLC0415

    head = f"doctor: {diagnosis.estimate} against {diagnosis.reference}: "
    counts = [
        f"{n} {s}{'s' * (n != 1)}"
        for s in ("error", "warning", "info")
        if (n := len(diagnosis.kinds(s)))
    ]
    lines = [head + (", ".join(counts) if counts else "nothing found")]
    for finding in diagnosis.findings:
        fix = _fix_text(finding)
        line = f"{finding.severity:<7} {finding.kind}: {flags_in_text(finding.summary)}"
        lines.append(line + (f" [fix: {fix}]" if fix else ""))
    unused = " (`offset_auto=` unused)" * ("offset_auto" in diagnosis.unused_settings)
    unused = flags_in_text(unused)
    unchecked = not_checked(TIMED_KINDS, diagnosis.checks, diagnosis.findings)
    unrun = ", ".join(k + unused * (k == "time_offset") for k in unchecked) if in_space else ""
    if unrun:  # 74 columns, all four; 95 with the offset search unused (folded to width)
        lines.append(f"not checked (in space): {unrun}")
    if width is not None:
        from robot_msgs.cli._boundary import fold_words  # noqa: PLC0415
        from robot_msgs.report.text import wrap  # noqa: PLC0415

        lines = [
            part
            for line in lines
            for part in wrap(fold_words(line), width, subsequent_indent=" " * 8)
        ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Diagnose REF and EST and print the findings; return 0."""
    from robot_msgs.evaluation.doctor import diagnose_files  # noqa: PLC0415 - not for --help
    from robot_msgs.evaluation.settings import EvaluationSettings  # noqa: PLC0415
    from robot_msgs.msg import encode_json  # noqa: PLC0415

    settings = settings_from_args(args, EvaluationSettings())
    inputs = inputs_from_args(args)
    warn_swapped(args, inputs)  # a swapped REF EST is a finding, said as ape says it
    try:
        diagnosis = diagnose_files(
            inputs,
            settings,
            strict=args.strict,
            geo_origin=None if args.geo_origin is None else tuple(args.geo_origin),
            crs=args.crs,
            reading=reading_rules(args),
        )
    except FormatError as err:  # as ape says it: the side's flag, not --format for both
        sided = side_error(err, inputs)
        if sided is None:
            raise
        raise sided from err
    if args.json:
        sys.stdout.write(encode_json(diagnosis).decode() + "\n")
    else:
        import shutil  # noqa: PLC0415

        width = max(shutil.get_terminal_size().columns, 40) if sys.stdout.isatty() else None
        print(format_diagnosis(diagnosis, width, in_space=settings.sync == "spatial"))
    return 1 if args.check and diagnosis.kinds("error", "warning") else 0
