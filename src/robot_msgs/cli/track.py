"""``robot-msgs track COMMAND MEASURED``: a control loop's tracking error from two logs.

Each log is a CSV file with a header: the time in seconds first, then a column per
channel, or one row per joint per time (``time,name,position``)
(:func:`~robot_msgs.runs.logs.read_signal_log`). The error ``commanded -
measured`` of each channel is summarised by :func:`~robot_msgs.control.tracking`
(IAE, ISE, ITAE, rms, worst magnitude, final error) and, with ``--step-info``, the measured
response to the command's one step by
:func:`~robot_msgs.control.step_response_to_command` (MATLAB ``stepinfo``'s figures).
The options are :class:`~robot_msgs.control.TrackingSettings`' fields, each flag
declared there once.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.cli._output_args import add_table_flags
from robot_msgs.cli._settings_args import add_settings_flags
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import FormatError, TopicError, UsageError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare import Comparison, StepResponse
    from robot_msgs.control import TrackingSettings
    from robot_msgs.report.report_table import ReportTable
    from robot_msgs.runs.logs import SignalLog
    from robot_msgs.typing import Float64Array

__all__ = ["add_parser", "run"]

#: The statistics of each channel's error, in the table's order (ErrorStats' fields).
_STATISTICS = ("iae", "ise", "itae", "rms", "max_abs", "final")
#: The step figures of each channel: StepResponse's fields and their headers.
_STEP_FIGURES = (
    ("rise_time_s", "rise s"),
    ("settling_time_s", "settling s"),
    ("overshoot_pct", "overshoot %"),
    ("undershoot_pct", "undershoot %"),
    ("peak", "peak"),
    ("peak_time_s", "peak s"),
    ("steady_state", "steady state"),
)
_EXAMPLE = (
    "robot-msgs track setpoints.csv joints.csv --hold --step-info --channels elbow wrist "
    "--delay 0.01"
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``track`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "track",
        help=COMMANDS["track"],
        description=(
            "Compare a logged command with the logged measurement, channel by channel: the "
            "error e = commanded - measured at each measured time within the command's span "
            "(the command read linearly, or held with --hold), its IAE, ISE and ITAE "
            "(trapezoids, as MATLAB's trapz; ITAE weighs |e| by the time since the first "
            "matched sample, or with --step-info since the command's step), rms, worst "
            "magnitude and final value (the last measured error). Each "
            "file is a CSV with a header: the time in seconds first (to the nanosecond as "
            "typed: 1700000000.123456789, 1.7e9), then one column per "
            "channel (joint), a column of text (a mode) left out; or one row per joint "
            "per time, time,name,position (a JointState's rows); or a ROS 1 bag, ROS 2 bag "
            "or MCAP file, of its JointState topic. The measured file needs "
            "the command's channels. With --step-info "
            "(and --hold: the figures time a step), rise and settling time, overshoot and "
            f"peak of each channel's response to the command's one step. Example: {_EXAMPLE}"
        ),
    )
    parser.add_argument(
        "command", type=Path, metavar="COMMAND", help="the command log (CSV), or a bag"
    )
    parser.add_argument(
        "measured", type=Path, metavar="MEASURED", help="the measurement log (CSV), or a bag"
    )
    parser.add_argument(
        "--channels",
        nargs="+",
        metavar="NAME",
        help="the channels to compare, by column name, or joint name in a log of a row "
        "per joint (default: every column of numbers of COMMAND after its time, or "
        "every joint)",
    )
    parser.add_argument(
        "--unit",
        default="",
        metavar="SYMBOL",
        help="the channels' unit, for the tables (rad, m, N·m...)",
    )
    for side, name in (("command", "COMMAND"), ("measured", "MEASURED")):
        parser.add_argument(
            f"--{side}-topic",
            metavar="TOPIC",
            help=f"bag topic of {name} (sensor_msgs/msg/JointState; default: the bag's one "
            "JointState topic; a bag of several is refused naming them)",
        )
    add_settings_flags(parser, ["TrackingSettings"])
    out = parser.add_argument_group("output")
    add_table_flags(out, "the settings, the Comparison and the step responses", csv=None)
    out.add_argument("--force", action="store_true", help="overwrite existing output files")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compare the logs and print the tables; write ``--json``, ``--latex``, ``--markdown``."""
    from robot_msgs.cli._evaluation_output import naming  # noqa: PLC0415
    from robot_msgs.cli._output_args import given_outputs, say_tables  # noqa: PLC0415
    from robot_msgs.cli._settings_args import settings_from_args  # noqa: PLC0415
    from robot_msgs.control import (  # noqa: PLC0415 - NumPy, the messages: not for --help
        TrackingSettings,
        step_response_to_command,
        tracking,
    )
    from robot_msgs.files import STDOUT, check_outputs, write_atomic  # noqa: PLC0415
    from robot_msgs.report.text import controls_escaped  # noqa: PLC0415
    from robot_msgs.runs.logs import read_signal_log  # noqa: PLC0415

    settings = settings_from_args(args, TrackingSettings())
    defaults = TrackingSettings()
    if not settings.step_info:
        for field, flag in (
            ("rise_limits", "--rise-time-limits"),
            ("settling_threshold", "--settling-time-threshold"),
        ):
            if getattr(settings, field) != getattr(defaults, field):
                msg = f"{flag} sets a step-response figure; give --step-info too"
                raise UsageError(msg)
    if settings.step_info and settings.interpolation != "previous":
        # Read linearly, the command ramps from the point before its step, so figures timed
        # from the step (as stepinfo's are) would misstate the response.
        msg = "--step-info times the command's step as a step; give --hold too"
        raise UsageError(msg)
    twice = [name for k, name in enumerate(args.channels or ()) if name in args.channels[:k]]
    if twice:
        msg = f"--channels names {twice[0]!r} twice; give each channel once"
        raise UsageError(msg)
    outputs = given_outputs(args, ("json", "latex", "markdown"))
    check_outputs(
        outputs.values(),
        force=args.force,
        flags=[f"--{n}" for n in outputs],
        inputs=[args.command, args.measured],
    )
    # --field given (not its default) is read or refused; by default a JointState log
    # without a position column is read of its first field, as before the flag.
    read_field = settings.field if settings.field != defaults.field else None
    topic_flag = "--command-topic"  # whose topic a TopicError is about: the log read
    try:
        command = read_signal_log(
            args.command, channels=args.channels, field=read_field, topic=args.command_topic
        )
        # An empty or nan measured cell is a dropout: tracking() leaves it out and its note
        # says what time the integrals still cover (refused, it lost the whole log to one gap).
        topic_flag = "--measured-topic"
        measured = read_signal_log(
            args.measured,
            channels=command.channels,
            dropouts=True,
            field=read_field,
            topic=args.measured_topic,
        )
    except TopicError as err:  # the library's `topic=` is a side's flag here
        raise TopicError(str(err).replace("`topic=`", topic_flag), path=err.path) from err
    t_command, t_measured, origin_s = _times(command, measured)
    steps: dict[str, StepResponse] = {}
    if settings.step_info:  # first: its errors name the channel whose command has no step
        for c, name in enumerate(command.channels):
            with naming(f"{args.command}: channel {name!r}"):
                steps[name] = step_response_to_command(
                    t_command,
                    command.values[:, c],
                    t_measured,
                    measured.values[:, c],
                    rise_limits=settings.rise_limits,
                    settling_threshold=settings.settling_threshold,
                    origin_s=origin_s,
                )
    comparison = tracking(
        t_command,
        command.values,
        t_measured,
        measured.values,
        channels=command.channels,
        units=args.unit,
        reference=str(args.command),
        estimate=str(args.measured),
        interpolation=settings.interpolation,
        delay_s=settings.delay_s,
        # A step test's ITAE is timed from its step, as the textbook's and MATLAB's.
        itae_from="step" if settings.step_info else "start",
        origin_s=origin_s,
    )
    if command.notes or measured.notes:  # columns of text left out: said with the rest
        notes = (*command.notes, *measured.notes, *comparison.notes)
        comparison = comparison.replace(notes=notes)
    tables = _tables(comparison, steps, settings, defaults)
    contents: dict[str, str] = {}
    if "json" in outputs:
        from robot_msgs.strict_json import dumps  # noqa: PLC0415

        whole: dict[str, object] = {"settings": settings, "tracking": comparison.summary()}
        if steps:
            whole["step"] = steps
        contents["json"] = dumps(whole)
    if "latex" in outputs or "markdown" in outputs:
        from robot_msgs.report.table_renderers import (  # noqa: PLC0415
            render_latex,
            render_markdown,
        )

        if "latex" in outputs:
            contents["latex"] = render_latex(tables)
        if "markdown" in outputs:
            contents["markdown"] = render_markdown(tables)
    said_to = say_tables(tables, comparison.notes, outputs)
    for name, text in contents.items():
        written = write_atomic(outputs[name], text, force=args.force)
        if os.fspath(outputs[name]) != STDOUT:
            print(f"wrote {controls_escaped(str(written))}", file=said_to)
    return 0


def _times(command: SignalLog, measured: SignalLog) -> tuple[Float64Array, Float64Array, float]:
    """Return the logs' times in seconds and the clock time they are counted from.

    With both logs' stamps in nanoseconds (a bag's, a CSV log's: ``SignalLog.stamps_ns``), their
    seconds after the whole second of the command's first stamp
    (:func:`~robot_msgs.control.tracking_error.seconds_after`, ``joint_tracking``'s
    conversion); else the float seconds read, from 0. WHY: float64 seconds since 1970 are
    2.4e-7 s apart: over them, a first-order response's IAE (τ = 0.5 s, 1 ms samples) was
    1.5e-7 relative off its closed form, where the library, counting a JointState's
    nanoseconds from the command's start, was 4e-17 off (measured). The whole second
    keeps the notes' times as typed (0.3 s, not 0.1 + 0.2). A log 2^53 ns (104 days) or
    more from that second is read as its floats, from 0: such times counted from it are
    no longer exact, and the error of logs on two clocks (since boot, since 1970) said
    the measured span [5.0, 6.999000072479248] s for a log typed to 6.999 s.
    """
    from robot_msgs.control.tracking_error import seconds_after  # noqa: PLC0415

    if command.stamps_ns is None or measured.stamps_ns is None:
        inexact = command if command.stamps_ns is None else measured
        return _floats(command, measured, f"those of {inexact.path} are not all whole nanoseconds")
    origin_ns = int(command.stamps_ns[0]) // 10**9 * 10**9
    for stamps in (command.stamps_ns, measured.stamps_ns):
        if max(abs(int(stamps[0]) - origin_ns), abs(int(stamps[-1]) - origin_ns)) >= 2**53:
            return _floats(command, measured, "the logs 2^53 ns (104 days) or more apart")
    return (
        seconds_after(command.stamps_ns, origin_ns),
        seconds_after(measured.stamps_ns, origin_ns),
        float(origin_ns // 10**9),
    )


def _floats(
    command: SignalLog, measured: SignalLog, why: str
) -> tuple[Float64Array, Float64Array, float]:
    """Return :func:`_times` of the logs' float seconds, from 0 (``why``: not their nanoseconds).

    Raises
    ------
    FormatError
        A log whose times, ordered by their nanoseconds, are one float64: 1700000000.000000001
        and .000000002 s. WHY: refused by ``tracking`` as ``t_command[1] = 1700000000.0``,
        naming no file and no time as typed.
    """
    import numpy as np  # noqa: PLC0415

    from robot_msgs.runs.csvlog import value_said  # noqa: PLC0415

    for log in (command, measured):
        same = np.flatnonzero(log.stamps_s[1:] <= log.stamps_s[:-1])
        if log.stamps_ns is not None and same.size:
            k = int(same[0])
            msg = (
                f"{log.path}: expected times apart as float64 seconds ({why}), got "
                f"{value_said(log.stamps_ns, k)} and {value_said(log.stamps_ns, k + 1)} s, "
                f"both {float(log.stamps_s[k])!r}"
            )
            raise FormatError(msg)
    return command.stamps_s, measured.stamps_s, 0.0


def _cell(value: float) -> str:
    """Write a figure as ``ape``'s table does: 6 significant digits, ``-`` for NaN."""
    return "-" if math.isnan(value) else f"{value:.6g}"


def _tables(
    comparison: Comparison,
    steps: Mapping[str, StepResponse],
    settings: TrackingSettings,
    defaults: TrackingSettings,
) -> list[ReportTable]:
    """Build the tracking table (a row per channel) and, with ``--step-info``, the step's."""
    from robot_msgs.cli._flag_text import flags_text  # noqa: PLC0415
    from robot_msgs.report.report_table import ReportTable  # noqa: PLC0415

    counts = ", ".join(f"{k} {v}" for k, v in comparison.counts.items())
    given = flags_text(settings.to_dict(), defaults=defaults.to_dict())
    title = "tracking error, commanded - measured"
    rows = tuple(
        (
            s.name,
            s.unit or "-",
            str(s.stats.n),
            *(_cell(getattr(s.stats, k)) for k in _STATISTICS),
        )
        for s in comparison.signals
    )
    headers = ("channel", "unit", "n", *_STATISTICS)
    notes = (
        f"command:  {comparison.reference}",
        f"measured: {comparison.estimate}",
        f"samples:  {counts}",
        f"settings: {given}",
        (
            "itae:     weighs |e| by the time since the command's step (0 before it)"
            if "itae_from" in comparison.parameters
            else "itae:     weighs |e| by the time since the first matched sample"
        ),
    )
    tables = [ReportTable(title, headers, rows, (False, False, *[True] * 7), notes)]
    if steps:
        step_rows: Sequence[tuple[str, ...]] = tuple(
            (name, *(_cell(getattr(info, f)) for f, _ in _STEP_FIGURES))
            for name, info in steps.items()
        )
        first = next(iter(steps.values()))
        tables.append(
            ReportTable(
                "step response, from the command's step",
                ("channel", *(h for _, h in _STEP_FIGURES)),
                tuple(step_rows),
                (False, *[True] * len(_STEP_FIGURES)),
                (
                    (
                        f"rise from {first.rise_limits[0]:g} to {first.rise_limits[1]:g} of "
                        f"the step; settled within {first.settling_threshold:g} of it"
                    ),
                ),
            )
        )
    return tables
