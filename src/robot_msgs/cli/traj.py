"""``robot-msgs traj FILE...``: inspect, check and convert trajectory files and bags.

Inspect (default) prints, per file, the format and the evidence for it, the poses, time
span, rate, path length, frames and every data problem found (and fixed by the rule
:mod:`robot_msgs.io.clean` states); ``--check`` exits 1 when any file has a problem;
``--save OUT`` converts one file (TUM, KITTI, EuRoC, or a ROS 2 bag ``.mcap``/``.db3``),
atomically, never replacing OUT without ``--force``
(OUT may be ``-`` for standard output; the report then goes to standard error). The
output path is checked (:func:`robot_msgs.files.check_outputs`) before anything is read.

A bag's topics are read with ``--topic``, once per topic, each its own trajectory (evo's
``evo_traj bag BAG T1 T2``); ``--ref-topic`` is REF's, and without ``--ref`` makes the one
FILE's bag REF (evo's ``evo_traj bag BAG T1 --ref T0``).

``--ref REF`` makes every FILE an estimate of REF, as ``evo_traj --ref`` does: with
``--align`` each is associated (``--sync``, ``--max-diff``, ``--spatial-pairs``) and
aligned to REF first, after ``--transform-right auto`` (ours) moved it by its estimated
transform to REF's body (:func:`robot_msgs.evaluation.evaluate`). The whole estimate is
moved by the fitted transform, and ``--save OUT`` writes that aligned estimate, as
``evo_traj -a --save_as_tum`` does; given a pairing flag (``--sync``, ``--max-diff``...),
with or without ``--align``, each FILE keeps only its poses matched to REF, as
``evo_traj --sync`` keeps them. ``--offset SECONDS`` (evo_traj's ``--t_offset``) is added
to each FILE's stamps, never REF's, as it is read: ``--t-start``/``--t-end``, the matching
and ``--save`` see the moved stamps (``ape --offset auto`` estimates an offset; traj takes
seconds). REF itself is never saved: ``evo_traj --save_as_tum`` also
writes REF (as ``<stem>.tum`` in the working folder), but as it was read, neither synced nor
aligned (evo 1.38.1 on fr1_xyz: groundtruth.tum with all 3000 poses beside the 785 of
rgbdslam.tum), which is ``traj REF --save OUT``. ``--plot FILE`` overlays them all
(:func:`robot_msgs.report.figures.overlay_figure`: a view, x/y/z, roll/pitch/yaw and
speed over time). Latitude/longitude inputs (``.lla`` files, ``NavSatFix`` topics) are
then read in one local frame, REF's first fix its origin unless ``--geo-origin`` or
``--crs`` says otherwise, as the evaluation commands read theirs
(:func:`robot_msgs.io.evaluation_inputs.geo_frames`); without ``--ref`` each file is read
about its own first fix. KITTI files read without a times file have frame indices for
stamps, and say ``frames``, never seconds.

Each file is read as the evaluation commands read theirs (:func:`robot_msgs.io.read_inputs`),
with their reading rules (``--w-first``, ``--stamp-divisors``, ``--repeated-stamps``,
``--kitti-rotations``): REF is the reference side, each FILE the estimate side. A bag is
opened once (:func:`robot_msgs.io.bounded.bags_opened_once`).

Examples
--------
>>> from robot_msgs.cli import main
>>> main(["traj", "example:fr1_xyz/rgbdslam.tum", "--check"])
example:fr1_xyz/rgbdslam.tum (tum)
  format       tum (8 space-separated columns)
  poses        788
  time         1305031102.160407 .. 1305031128.722976 s (26.563 s)
  rate         30.7 Hz (median step 0.0326 s)
  path length  8.652 m
  frames       not recorded (tum has no frame ids)
  issues       none
0
"""

from __future__ import annotations

import os
import shlex
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from robot_msgs.cli._boundary import error_text, say
from robot_msgs.cli._flag_text import flags_in_text
from robot_msgs.cli._input_args import add_geo_args, read_files, reading_rules
from robot_msgs.cli._output_args import (
    add_label_flag,
    add_plot_flags,
    add_save_layout_flag,
    check_plot_options,
    check_save_layout,
    trajectory_outputs_to,
)
from robot_msgs.cli._settings_args import add_settings_flags, settings_from_args
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import (
    DataWarning,
    FormatError,
    RobotMsgsError,
    TopicError,
    UsageError,
    ValidationError,
)
from robot_msgs.files import STDOUT, check_outputs
from robot_msgs.io.bounded import bags_opened_once
from robot_msgs.io.formats import BAG_FORMATS, FORMATS, WRITE_FORMATS
from robot_msgs.report.text import WIDTH, controls_escaped, counted, display_width, grouped, wrap

if TYPE_CHECKING:
    import argparse

    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.io.evaluation_inputs import InputFile
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["add_parser", "run", "summarize"]

#: Formats whose files hold no frame ids (a bag's headers, a CRS of fixes do): their
#: ``frames`` line says so, not ``- -> -``; ``--json`` keeps ``""`` for both.
_NO_FRAME_IDS = ("tum", "kitti", "euroc")


#: traj's --offset: evo_traj's --t_offset, which moves the stamps it saves, not only matching.
_OFFSET_HELP = (
    "added to each FILE's stamps (never REF's) as it is read, before --t-start/--t-end, "
    "matching and --save (evo_traj --t_offset), seconds; ape REF EST --offset auto "
    "estimates one"
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``traj`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "traj",
        help=COMMANDS["traj"],
        description=(
            "Show what trajectory files hold (poses, time span, rate, path length, frames, "
            "data problems), check them (exit 1 on problems) or convert one (--save). "
            "FILE may be example:NAME for data shipped with robot_msgs. The reading rules "
            "take each FILE as the estimate side and REF as the reference side (--w-first "
            "estimate, --stamp-divisors 1 1000: each FILE written w first, or in ms). "
            "Example: robot-msgs traj example:fr1_xyz/groundtruth.tum "
            "example:fr1_xyz/rgbdslam.tum --check"
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="trajectory files or bags")
    parser.add_argument(
        "--format",
        "--fmt",
        dest="fmt",
        choices=FORMATS,
        metavar="FORMAT",
        help=f"file format: {', '.join(FORMATS)} (default: detected)",
    )
    parser.add_argument(
        "--topic",
        action="append",
        help="bag topic, or TF as /tf:parent.child; repeat it to read several topics of a "
        "bag, each its own trajectory (evo_traj bag BAG T1 T2)",
    )
    parser.add_argument(
        "--times", type=Path, metavar="FILE", help="KITTI times file (one time a line)"
    )
    parser.add_argument(
        "--strict", action="store_true", help="refuse data problems instead of fixing them"
    )
    add_settings_flags(parser, ["ReadSettings"])
    add_geo_args(
        parser,
        default="with --ref: the first fix of REF, for REF and every FILE; "
        "without: each file's first fix",
    )
    parser.add_argument(
        "--save", type=Path, metavar="OUT", help="convert the (one) FILE to OUT (- for stdout)"
    )
    parser.add_argument(
        "--to", choices=WRITE_FORMATS, help="format of OUT (default from its extension)"
    )
    parser.add_argument(
        "--save-topic",
        metavar="TOPIC",
        help="topic of a .mcap/.db3 OUT (default: --topic when it is one, else /trajectory)",
    )
    add_save_layout_flag(parser, "OUT")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when any file has a data problem"
    )
    parser.add_argument("--json", action="store_true", help="print the summaries as JSON")
    parser.add_argument(
        "--t-start",
        type=float,
        metavar="SECONDS",
        help="keep only the poses stamped at or after this time (on each file's clock)",
    )
    parser.add_argument(
        "--t-end",
        type=float,
        metavar="SECONDS",
        help="keep only the poses stamped at or before this time",
    )
    compare = parser.add_argument_group("against a reference (evo_traj --ref)")
    compare.add_argument(
        "--ref",
        metavar="REF",
        help="reference trajectory: every FILE is an estimate of it; given --sync, --max-diff "
        "or another pairing flag, each FILE keeps only its poses matched to REF (evo_traj "
        "--sync)",
    )
    compare.add_argument(
        "--ref-topic",
        metavar="TOPIC",
        help="bag topic of REF, or TF as /tf:parent.child (default: --topic when given once); "
        "without --ref, REF is the one FILE's: evo_traj bag BAG T1 T2 --ref T0 is BAG --topic "
        "T1 --topic T2 --ref-topic T0",
    )
    add_settings_flags(
        parser,
        ["EvaluationSettings"],  # their defaults; none imported
        only=(
            "align", "n_align", "sync", "max_diff_s", "max_gap_s", "spatial_pairs",
            "max_distance_m", "offset_s", "transform_left",
            "invert_transform_left", "transform_right", "transform_right_auto",
            "invert_transform_right",
        ),  # transform_right_auto: --transform-right auto, which --ref takes, helped too
        described={"offset_s": _OFFSET_HELP},
    )  # fmt: skip
    plot = parser.add_argument_group("plot")
    add_plot_flags(
        plot,
        "overlay: view, x/y/z, roll/pitch/yaw and speed over time; PDF, SVG, EPS or PNG "
        "by the name, 14 x 9 in; needs robot_msgs[plot]",
        dpi="PNG resolution (default 150, at most 600)",
        plane="view of --plot; xyz is 3-D (default: the two widest axes)",
    )
    add_label_flag(plot, "FILE but REF")
    parser.set_defaults(run=run)


def summarize(traj: PoseTrajectory, *, frames: bool = False) -> dict[str, Any]:
    """Numbers that describe a trajectory: count, span, rate, path length and frames.

    With ``frames`` (KITTI without a times file: the stamps are frame indices) the span
    is ``first_frame``/``last_frame``, and there is no duration or rate.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> traj = PoseTrajectory(
    ...     stamps_s=[0.0, 0.5, 1.0],
    ...     positions_xyz=[[0, 0, 0], [3, 4, 0], [3, 4, 1]],
    ...     orientations_quat_xyzw=[[0, 0, 0, 1]] * 3,
    ... )
    >>> summary = summarize(traj)
    >>> summary["poses"], summary["path_length_m"], summary["rate_hz"]
    (3, 6.0, 2.0)
    """
    import numpy as np  # noqa: PLC0415 - not for --help

    from robot_msgs.compare.statistics import median  # noqa: PLC0415 - not for --help

    stamps = traj.stamps_s
    span: dict[str, Any]
    if frames:
        span = {"first_frame": int(stamps[0]), "last_frame": int(stamps[-1])}
    else:
        # In quarters: the steps of stamps ±1e308, and the mean of two that a median takes,
        # overflowed ('a bug': a RuntimeWarning; hread's finding); a quarter is exact.
        step = 4.0 * median(np.diff(stamps * 0.5) * 0.5) if len(traj) > 1 else None
        span = {
            "start_s": float(stamps[0]),
            "end_s": float(stamps[-1]),
            "duration_s": traj.duration_s,
            "median_step_s": step,
            "rate_hz": 1.0 / step if step else None,
        }
    return {
        "poses": len(traj),
        **span,
        "path_length_m": traj.path_length_m,
        "frame_id": traj.frame_id,
        "child_frame_id": traj.child_frame_id,
    }


class _Located(NamedTuple):
    """One FILE found and its format known, not read yet (no dataclass: 10 ms of --help).

    ``topic`` is ``None`` for a bag whose pose topic must be chosen (``report`` then
    lists its topics and TF's transforms, and there is nothing to read).
    """

    file: Path
    fmt: str
    topic: str | None
    report: dict[str, Any]

    @property
    def waiting(self) -> bool:
        """A bag whose topic is not chosen: nothing to read."""
        return self.topic is None and self.fmt in BAG_FORMATS


def _locate(given: InputFile, args: argparse.Namespace, *, inherited: bool = False) -> _Located:
    """Find one FILE, its format (detected once) and a bag's pose topic.

    ``inherited``: ``given.topic`` is --topic taken for REF, which only a bag of REF reads.
    """
    from robot_msgs.io.detect import (  # noqa: PLC0415
        FormatDetection,
        explain_format,
        only_pose_topic,
    )
    from robot_msgs.io.examples import resolve_path  # noqa: PLC0415 - not for --help

    path = given.path
    file = resolve_path(path)
    detection = (
        FormatDetection(fmt=args.fmt, reason="--format") if args.fmt else explain_format(file)
    )
    fmt = detection.fmt
    topic = None if inherited and fmt not in BAG_FORMATS else given.topic
    report: dict[str, Any] = {
        "path": path,
        "format": fmt,
        "format_reason": detection.reason,
        "topic": topic,
    }
    if fmt in BAG_FORMATS:
        from robot_msgs.io.bag import (  # noqa: PLC0415 - bags only
            indexed_topics,
            list_topics,
            tf_chains,
        )

        chosen = topic
        if chosen is None:
            try:
                chosen = only_pose_topic(file)
            except TopicError:  # none or several: listed below
                # WHY not FormatError: a bag that does not open was opened again by the
                # listing, rosbags parsing a bad metadata.yaml twice (1 MiB: 37 s each).
                chosen = None
        # A topic to read takes the index unchecked, as read_trajectory does (its read
        # checks its own entry): a bag folder whose metadata.yaml gave another topic a
        # wrong type stopped `traj --topic /pose` (a review). The listing to choose a topic
        # from is checked.
        listed = list_topics(file) if chosen is None else indexed_topics(file)
        report["topics"] = [t._asdict() for t in listed]
        if topic is None and chosen is not None:
            topic = report["topic"] = chosen
        elif topic is None:  # none or several: the report lists them, and TF's transforms
            tf, pairs = tf_chains(file)
            if tf:
                report["tf"] = {"topic": tf, "transforms": pairs}
            report["issues"] = []
    return _Located(file=file, fmt=fmt, topic=topic, report=report)


def _locate_or_error(
    given: InputFile, args: argparse.Namespace, *, inherited: bool = False
) -> _Located | Exception:
    """:func:`_locate`, or the error that FILE is reported with in its turn."""
    try:
        return _locate(given, args, inherited=inherited)
    except (RobotMsgsError, OSError) as err:
        return err


def _frames(
    located: dict[str, _Located | Exception], args: argparse.Namespace
) -> dict[str, tuple[tuple[float, float, float] | None, str | None]]:
    """Return the ``geo_origin`` and ``crs`` each FILE is read with; none given: ``{}``.

    One frame for REF and every FILE, as the evaluation commands read theirs
    (:func:`robot_msgs.io.evaluation_inputs.geo_frames`: ``--crs``, else ``--geo-origin``,
    else the first fix of REF, or of the first lat/lon FILE when REF holds poses), and
    the flags refused as they refuse them where no input holds latitudes and longitudes.
    Without ``--ref``, ``--geo-origin`` nor ``--crs``: ``{}``, each file read about its own
    first fix. A file whose first fix cannot be read becomes that file's error in ``located``.
    """
    from robot_msgs.io.detect import geo_origin_of  # noqa: PLC0415 - not for --help
    from robot_msgs.io.evaluation_inputs import geo_frames  # noqa: PLC0415 - not for --help

    if args.ref is None and args.geo_origin is None and args.crs is None:
        return {}
    fixes: dict[str, tuple[float, float, float] | None] = {}
    for path, where in located.items():
        if isinstance(where, Exception) or where.waiting:
            continue
        try:
            fixes[path] = geo_origin_of(where.file, format=where.fmt, topic=where.topic)
        except (RobotMsgsError, OSError) as err:  # said when that file is reported
            located[path] = err
    if not fixes:  # nothing to read: each file says why
        return {}
    given = None if args.geo_origin is None else tuple(args.geo_origin)
    frames = geo_frames(list(fixes.values()), geo_origin=given, crs=args.crs)
    return dict(zip(fixes, frames, strict=True))


def _read(
    path: str,
    where: _Located,
    args: argparse.Namespace,
    settings: EvaluationSettings | None,
    frame: tuple[tuple[float, float, float] | None, str | None],
) -> tuple[PoseTrajectory | None, dict[str, Any]]:
    """Read one located FILE; the trajectory (None when a bag needs --topic) and its report.

    Read as the evaluation commands read theirs (:func:`robot_msgs.io.read_inputs`, with
    the reading rules: REF the reference side, each FILE the estimate side); ``frame`` is
    the ``geo_origin`` and ``crs`` it is read with (:func:`_frames`). The time range is
    applied, and the transforms of ``settings`` (as evo_traj's ``--transform_left/right``;
    ``None`` for ``--ref``, which evo_traj does not move).
    """
    from robot_msgs.io.clean import NO_PROBLEM_KINDS, reading_notes  # noqa: PLC0415
    from robot_msgs.io.evaluation_inputs import InputFile, read_inputs  # noqa: PLC0415

    file, fmt, topic, report = where.file, where.fmt, where.topic, dict(where.report)
    if where.waiting:
        return None, report
    with reading_notes() as notes, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DataWarning)
        rules = reading_rules(args)
        (traj,) = read_inputs(
            [InputFile(path=path, fmt=fmt, topic=topic, times_path=args.times)],
            strict=args.strict,
            repeated_stamps=rules.rule_for(""),
            geo_origin=frame[0],
            crs=frame[1],
            reading=rules,
            estimates_only=settings is not None,
        )
    issues: list[str] = []
    said = [str(n) for n in notes]
    for item in caught:
        if issubclass(item.category, DataWarning):
            # Messages name the file as read; the report names it as the user wrote it.
            kind = getattr(item.message, "kind", "")
            (said if kind in NO_PROBLEM_KINDS else issues).append(
                flags_in_text(str(item.message).replace(str(file), path, 1))
            )
        else:  # pragma: no cover - passed on untouched
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)
    if settings is not None and settings.offset_s != 0.0:
        traj = _shifted(traj, settings.offset_s, path)
    if args.t_start is not None or args.t_end is not None:
        # WHY here: the pipeline's module imports the association, alignment and offset
        # search (40 modules), which a summary of a file does not use.
        from robot_msgs.evaluation.pipeline import time_range  # noqa: PLC0415

        kept = len(traj)
        traj, _ = time_range(traj, args.t_start, args.t_end, whose=path)
        report["outside_range"] = kept - len(traj)
    if settings is not None:
        from robot_msgs.evaluation.transforms import apply_transforms  # noqa: PLC0415

        traj = apply_transforms(traj, settings)
    report.update(summarize(traj, frames=traj.stamps_are_frames))
    report["issues"] = issues
    if said:  # no data problem (all-zero covariances: ROS's "unknown"; KITTI's rounding)
        report["notes"] = [n.replace(str(file), path, 1) for n in said]
    return traj, report


def _as_given(message: str, path: str) -> str:
    """``message`` naming ``example:NAME`` as the user wrote it, not the installed file."""
    from robot_msgs.io.examples import resolve_path  # noqa: PLC0415 - not for --help

    try:
        file = str(resolve_path(path))
    except OSError:
        return message
    return message.replace(file, path) if file != path else message


def _as_topic(
    path: str, located: dict[str, _Located | Exception], args: argparse.Namespace, *, is_ref: bool
) -> str:
    """Say that a missing FILE or REF is a topic of a bag given, and what to type; or "".

    evo's bag syntax without its ``bag`` word (``traj x.bag /gt``), and evo_traj's
    ``--ref /gt`` (a topic there, a file here), were "/gt: no such file". Each is told the
    one ``traj`` command that reads every such topic (``--topic``, once per topic) and REF's
    (``--ref-topic``, REF then the bag). ``located`` is keyed by path.
    """
    for bag, where in located.items():
        if isinstance(where, Exception) or where.fmt not in BAG_FORMATS:
            continue
        names = [t["topic"] for t in where.report.get("topics", [])]

        def listed(name: str, names: list[str] = names) -> str | None:
            return next((n for n in names if n.lstrip("/") == name.lstrip("/")), None)

        topic = listed(path)
        if topic is None:
            continue
        missing = [f for f in args.files if isinstance(located.get(f), FileNotFoundError)]
        # --ref names a topic of this bag too (not a file): it is REF's --ref-topic.
        ref_topic = listed(args.ref) if isinstance(located.get(args.ref or ""), OSError) else None
        topics = [t for t in [*(args.topic or ()), *map(listed, missing)] if t is not None]
        topics = [t for t in dict.fromkeys(topics) if t != ref_topic]
        from robot_msgs.cli import typed_without  # noqa: PLC0415 - only for an error

        spelled = {f"{lead}{n.lstrip('/')}" for n in names for lead in ("", "/")}
        dropped = ["--topic", *(["--ref", "--ref-topic"] if ref_topic is not None else [])]
        kept = typed_without(args, inputs=spelled.__contains__, flags=dropped)
        words = [w for t in topics or ["TOPIC"] for w in ("--topic", t)]
        words += ["--ref-topic", ref_topic] if ref_topic is not None else []
        typed = f"{kept} {shlex.join(words)}"
        if ref_topic is None:
            return f"; it is a topic of {bag}: `{typed}` reads {'them' if topics[1:] else 'it'}"
        what = f"a topic of {bag}" if is_ref else f"a topic of {bag}, as --ref {args.ref} is"
        return (
            f"; it is {what}, and --ref names a file here (a topic in evo_traj's bag mode): "
            f"`{typed}` reads them"
        )
    return ""


def _shown(value: Any) -> Any:
    """``value`` with every text in it escaped for the terminal (names come from files)."""
    if isinstance(value, str):
        return controls_escaped(value)
    if isinstance(value, list | tuple):
        return [_shown(v) for v in value]
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items()}
    return value


def _print_report(report: dict[str, Any], out: TextIO) -> None:
    """Print one FILE's report, every line folded to 80 columns (:func:`_say`, :func:`_field`)."""
    from robot_msgs.io.tf import transforms_text  # noqa: PLC0415 - not for --help

    report = _shown(report)  # a bag's topic names, a TF frame: shown, never acting
    topic = f" {report['topic']}" if report.get("topic") else ""
    role = ", reference" if report.get("role") == "reference" else ""
    _say([f"{report['path']}{topic}", f"({report['format']}{role})"], out)
    _field("format", f"{report['format']} ({report['format_reason']})", out)
    if "topics" in report and (report.get("poses") is None or not report.get("topic")):
        for t in report["topics"]:
            _topic_row(t, out)
    if report.get("poses") is None:
        from robot_msgs.io.bag import POSE_TYPES  # noqa: PLC0415 - a bag's topics only

        marked = any(t["msgtype"] in POSE_TYPES for t in report.get("topics", ()))
        what = "a pose topic (*)" if marked else "a topic"
        flag = "--ref-topic" if role else "--topic"  # REF's own flag (--topic is each FILE's)
        _say(f"  choose {what} with {flag}, or TF as {flag} /tf:parent.child", out)
        if "tf" in report:
            tf = report["tf"]
            said = transforms_text(tf["transforms"]).removeprefix("transforms: ")
            _print_items(f"  TF ({tf['topic']}:parent.child):", said.split(", "), out)
        return
    kept = (
        f" ({report['outside_range']} outside --t-start/--t-end)"
        if "outside_range" in report
        else ""
    )
    _field("poses", f"{report['poses']}{kept}", out)
    if "first_frame" in report:
        _field(
            "frame index",
            f"{report['first_frame']} .. {report['last_frame']} "
            "(KITTI without a times file: stamps are frame indices)",
            out,
        )
    else:
        _print_time(report, out)
    _field("path length", f"{_fixed(report['path_length_m'], 3)} m", out)
    frames = f"{report['frame_id'] or '-'} -> {report['child_frame_id'] or '-'}"
    if frames == "- -> -":  # '- -> -' said nothing (of a bag's empty header ids too)
        frames = (
            f"not recorded ({report['format']} has no frame ids)"
            if report["format"] in _NO_FRAME_IDS
            else "not recorded (the messages' frame ids are empty)"
        )
    _field("frames", frames, out)
    for head in ("notes", "issues"):
        items = report.get(head, [])
        if head == "issues" and not items:
            _field("issues", "none", out)
        for i, item in enumerate(items):  # each folded under its value column
            _field(head if i == 0 else "", item, out)


def _field(label: str, value: str, out: TextIO) -> None:
    """Print ``  label  value``, folded to 80 columns under the value's column."""
    head = f"  {label:<12} "
    print("\n".join(wrap(head + value, subsequent_indent=" " * len(head))), file=out)


def _topic_row(topic: dict[str, Any], out: TextIO) -> None:
    """Print a bag's topic, type and count in columns; a row past 80 columns is folded.

    The type and count then go on the next line, in their columns, as a long value is
    folded under its column (a topic of 40 characters ran the row to 95).
    """
    from robot_msgs.io.bag import POSE_TYPES  # noqa: PLC0415 - a bag's topics only

    mark = "*" if topic["msgtype"] in POSE_TYPES else " "
    name = f"  {mark} {topic['topic']:<24} "
    rest = f"{topic['msgtype']:<43} {topic['message_count']:>6}"
    if display_width(name + rest) <= WIDTH:
        print(name + rest, file=out)
        return
    column = " " * 29  # where the type's column starts
    if display_width(column + rest) > WIDTH:  # a type past its column: no padding
        rest = f"{topic['msgtype']} {topic['message_count']}"
    if display_width(name) > len(column):  # a topic past its column: on its own line
        print(name.rstrip(), file=out)
        name = column
    print("\n".join(wrap(name + rest, subsequent_indent=column)), file=out)


def _print_items(head: str, items: list[str], out: TextIO) -> None:
    """Print ``head`` and ``items`` separated by commas, wrapped to the terminal, items whole."""
    words = [head, *(f"{item}," for item in items[:-1]), *items[-1:]]
    print("\n".join(wrap(words, subsequent_indent="    ")), file=out)


def _fixed(value: float, decimals: int) -> str:
    """Return ``value`` with ``decimals`` decimals, or 4 significant digits.

    4 digits where the decimals would be long or say nothing: stamps of 1e300 printed a
    span of 291 digits, and a rate of 1e-291 Hz as 0.0 (a review).
    """
    if value != 0 and not 10.0**-decimals <= abs(value) < 1e12:
        return f"{value:.4g}"
    return f"{value:.{decimals}f}"


def _print_time(report: dict[str, Any], out: TextIO) -> None:
    _field(
        "time",
        f"{report['start_s']!r} .. {report['end_s']!r} s ({_fixed(report['duration_s'], 3)} s)",
        out,
    )
    if report["rate_hz"] is not None:
        rate, step = _fixed(report["rate_hz"], 1), _fixed(report["median_step_s"], 4)
        _field("rate", f"{rate} Hz (median step {step} s)", out)


def _save(traj: PoseTrajectory, args: argparse.Namespace, to: str, where: _Located) -> list[Path]:
    from robot_msgs.io.detect import write_trajectory  # noqa: PLC0415 - not for --help

    (given,) = args.topic or [None]  # one --topic a --save (run)
    given = given if given and not given.startswith("/tf:") else None
    topic = args.save_topic if args.save_topic is not None else given or "/trajectory"
    # A topic of a bag keeps its QoS (a latched /amcl_pose stays transient_local).
    qos = None
    if to in ("mcap", "db3") and where.fmt in BAG_FORMATS and where.topic and where.topic == given:
        from robot_msgs.io.bag_messages import bag_qos  # noqa: PLC0415 - bags only

        qos = bag_qos(where.file).get(where.topic)
    return write_trajectory(
        args.save,
        traj,
        to,
        force=args.force,
        topic=topic,
        layout=args.save_layout or "poses",
        qos=qos,
    )


def _against_reference(
    args: argparse.Namespace,
    settings: EvaluationSettings,
    named: tuple[str | None, list[str]],
    read: dict[str, PoseTrajectory],
    by_key: dict[str, dict[str, Any]],
    out: TextIO,
    *,
    aligning: bool,
) -> list[tuple[str, PoseTrajectory]]:
    """Align each FILE to REF when asked (``aligning``); return the estimates to draw, by name.

    With ``--transform-right auto`` each FILE is first moved by its estimated transform
    (:func:`~robot_msgs.evaluation.estimate_extrinsic`, as the evaluation moves it before
    fitting the alignment), so what is drawn and saved is what was compared. With a
    pairing flag (``--sync``, ``--max-diff``...) each FILE keeps only its poses matched
    to REF, as ``evo_traj --ref REF --sync`` does. ``named`` is REF's key and the FILEs'
    (:attr:`InputFile.label <robot_msgs.io.evaluation_inputs.InputFile.label>`: a FILE, and
    a topic of it, ``x.bag /odom``), by which ``read`` and ``by_key`` hold them.
    """
    ref, keys = named
    estimates = [(key, read[key]) for key in keys if key in read]
    if ref is None or ref not in read or not aligning:
        return estimates
    synced = _synced(args)
    from robot_msgs.cli._evaluation_output import naming  # noqa: PLC0415
    from robot_msgs.evaluation.entry import evaluate  # noqa: PLC0415

    aligned = []
    # The FILEs were read with their transforms applied (_read): fit on them as they are.
    fit = settings.replace(
        offset_s=0.0,  # added to the stamps as they were read
        transform_left=None,
        invert_transform_left=False,
        transform_right=None,
        invert_transform_right=False,
    )
    for path, traj in estimates:
        with naming(path):
            (result,) = evaluate(read[ref], traj, fit, estimate_name=path)
        estimated = result.comparison.estimated
        extrinsic = estimated.extrinsic if estimated is not None else None
        if extrinsic is not None:
            by_key[path]["transform_right"] = list(extrinsic.transform_right())
            if not args.json:
                _say(f"{path} mounted on {ref}: {extrinsic.describe()}", out)
        # Mounted, aligned (and projected) as it was compared: the matched poses when synced.
        moved = result.estimate if synced else result.move(traj)
        aligned.append((path, moved))
        if synced:
            by_key[path]["matched"] = len(moved)
            if not args.json:
                _say(_synced_line(path, ref, traj, moved), out)
        if settings.align != "none":
            by_key[path]["alignment"] = result.alignment.to_dict()
            if not args.json:
                _say(f"{path} aligned to {ref}: {result.alignment.describe()}", out)
            # evo_traj's -a syncs too: its --save_as_tum wrote 785 of rgbdslam's 788 poses
            # where `--align se3`, our answer to -a, saved all 788 without a word.
            matched = len(result.estimate)
            if not synced and matched < len(traj) and not args.json:
                _say(
                    f"  all {len(traj)} poses kept; evo_traj -a keeps the {matched} matched "
                    "(here: --sync nearest)",
                    out,
                )
    return aligned


def _shifted(traj: PoseTrajectory, offset_s: float, path: str) -> PoseTrajectory:
    """Return ``traj`` with ``offset_s`` seconds added to its stamps (``--offset``).

    As evo_traj ``--t_offset`` does: the stamps printed, matched, cut by ``--t-start``/
    ``--t-end`` and saved are the moved ones. Frame indices (KITTI without times) are
    refused: an offset in seconds has no meaning for them.
    """
    from robot_msgs.evaluation.association import _moved_stamps  # noqa: PLC0415

    if traj.stamps_are_frames:
        msg = f"{path}: --offset moves stamps in seconds; it has frame indices (give --times)"
        raise UsageError(msg)
    moved = _moved_stamps(traj.stamps_s, offset_s, "estimate", offset_s)
    return traj.replace(stamps_s=moved)


def _synced_line(path: str, ref: str, traj: PoseTrajectory, moved: PoseTrajectory) -> str:
    """Say how many of ``traj``'s poses were kept against ``ref``, or that it was resampled.

    ``--sync interpolate-longer`` resamples the longer side at the shorter one's stamps:
    a FILE longer than REF then keeps poses interpolated at REF's stamps, none of its own
    ("785 of 3000 poses matched" said they were its poses).
    """
    import numpy as np  # noqa: PLC0415 - not for --help

    if np.isin(moved.stamps_s, traj.stamps_s).all():
        return f"{path} synced to {ref}: {len(moved)} of {len(traj)} poses matched"
    kept = counted(len(moved), "pose")
    return f"{path} resampled at {ref}'s stamps: {kept} interpolated from {len(traj)}"


def _say(line: str | list[str], out: TextIO) -> None:
    """Print ``line`` folded to 80 columns, the rest indented two more than its own indent.

    ``line`` is a text, or its words, each kept whole (a path with its topic). A word
    wider than a line (a long path) stands whole on its own, as every command prints
    it (:func:`~robot_msgs.report.text.wrap`).
    """
    first = line if isinstance(line, str) else line[0]
    indent = " " * (len(first) - len(first.lstrip(" ")) + 2)
    print("\n".join(wrap(line, subsequent_indent=indent)), file=out)


def _plot(
    args: argparse.Namespace,
    reference: PoseTrajectory | None,
    estimates: list[tuple[str, PoseTrajectory]],
    out: TextIO,
) -> None:
    from robot_msgs.report.figure_text import legend_names  # noqa: PLC0415
    from robot_msgs.report.figures import overlay_figure, save_figure  # noqa: PLC0415

    # Named by FILE (its stem), not by its key: `x.mcap --topic /robot/odom` was "odom"
    # (the stem of "x.mcap /robot/odom"), and a TF chain's "tf:odom".
    path_of = {given.label: given.path for given in _inputs(args)[1]}
    names = legend_names([path_of[key] for key, _ in estimates], args.label or _topic_names(args))
    named = [(name, traj) for name, (_, traj) in zip(names, estimates, strict=True)]
    fig = overlay_figure(reference, named, plane=args.plot_plane)
    path = save_figure(fig, args.plot, dpi=args.dpi, force=args.force)
    if os.fspath(path) != STDOUT:  # "wrote -" named no file
        print(f"wrote {controls_escaped(str(path))}", file=sys.stderr if args.json else out)


#: The flags that pair each FILE's poses with REF's: given, each FILE keeps its matched poses.
_PAIRING = ("--sync", "--max-diff", "--max-gap", "--spatial-pairs", "--max-distance")
#: The flags that only go with ``--ref REF`` (and ``--transform-right auto``): refused
#: without it, dropped with it where REF is also the FILE.
_WITH_REF = ("--ref", "--ref-topic", "--align", *_PAIRING)


def _inputs(args: argparse.Namespace) -> tuple[InputFile | None, list[InputFile]]:
    """Return REF (or None) and each FILE once per ``--topic``, as evo_traj's bag mode reads.

    REF reads ``--ref-topic``, else the one ``--topic`` given (of a bag only, :func:`_locate`).
    """
    from robot_msgs.io.evaluation_inputs import InputFile  # noqa: PLC0415 - not for --help

    topics = args.topic or [None]
    once = topics[0] if len(topics) == 1 else None
    ref_topic = args.ref_topic if args.ref_topic is not None else once
    ref = None if args.ref is None else InputFile(path=args.ref, topic=ref_topic)
    return ref, [InputFile(path=f, topic=t) for f in args.files for t in topics]


def _topic_names(args: argparse.Namespace) -> list[str] | None:
    """Name each FILE and topic in a legend by its topic (as ape names ``--est-topic``).

    ``None`` (file stems) without several topics. Several files: ``stem_topic``
    (:func:`~robot_msgs.cli._evaluation_output.input_names`).
    """
    if len(args.topic or ()) < 2:
        return None
    from robot_msgs.cli._evaluation_output import input_names  # noqa: PLC0415
    from robot_msgs.report.figure_text import legend_names  # noqa: PLC0415

    by_topic = [input_names(args.files, t) for t in args.topic]
    names = [names[k] for k in range(len(args.files)) for names in by_topic]
    if len(set(names)) == len(names):
        return names
    # One name twice ("--label given twice", never typed): bags of one stem in two folders
    # (`a/x.bag b/x.bag`), or topics one name but for "/" or a file name's characters
    # (`S-PTAM` and `/S-PTAM`, read loosely; `/a/b` and `/a_b`). Each FILE by its
    # legend name (`a/x`), each topic as typed.
    if len(args.files) == 1:
        return list(args.topic)
    return [f"{f} {t}" for f in legend_names(args.files) for t in args.topic]


def _synced(args: argparse.Namespace) -> bool:
    """Say whether a pairing flag was given: each FILE then keeps its poses matched to REF."""
    return any(getattr(args, flag[2:].replace("-", "_")) is not None for flag in _PAIRING)


def _same_file(a: str, b: str) -> bool:
    """Say whether paths ``a`` and ``b`` name one file (``./gt.tum`` and ``gt.tum`` do)."""
    try:
        return Path(a).samefile(b)
    except (OSError, ValueError):  # one is missing (or '-'): compare the paths
        return os.path.normpath(a) == os.path.normpath(b)


@bags_opened_once()  # each bag's topics, first fix, read (and QoS for --save) from one open
def run(args: argparse.Namespace) -> int:
    """Inspect, check or convert ``args.files``; return the exit code."""
    from robot_msgs.evaluation.settings import EvaluationSettings  # noqa: PLC0415 - not for --help
    from robot_msgs.io.topic_names import check_topic_name  # noqa: PLC0415 - not for --help
    from robot_msgs.optional import require  # noqa: PLC0415 - not for --help

    if args.ref is None and args.ref_topic is not None:  # a topic of the FILE's bag
        if len(args.files) != 1:
            msg = (
                f"--ref-topic without --ref names a topic of the one FILE, got "
                f"{len(args.files)}; give --ref REF too"
            )
            raise UsageError(msg)
        args.ref = args.files[0]
    bag_ref = args.ref is not None and any(_same_file(f, args.ref) for f in args.files)
    if bag_ref and args.ref_topic is not None and args.ref_topic in (args.topic or ()):
        msg = f"--ref-topic {args.ref_topic} is also a --topic of {args.ref}: name it once"
        raise UsageError(msg)
    if bag_ref and args.ref_topic is None:
        # One --topic reads one trajectory of a file: REF and FILE would be the same one
        # (and FILE was dropped from what is aligned, saved and drawn). evo's habit
        # `evo_traj tum A B --ref A` was told of bags only, not what to type.
        from robot_msgs.cli import typed_without  # noqa: PLC0415 - only for a refusal

        # Every other flag typed is kept (`--align se3 --plot x.pdf` were dropped); with
        # no FILE left, REF is the FILE, and the flags that need --ref go with it.
        others = [f for f in args.files if not _same_file(f, args.ref)]
        unref = [*_WITH_REF, *(["--transform-right"] if args.transform_right == "auto" else [])]
        seen: list[str] = []  # with no FILE left, the first stays: REF as the FILE

        def dropped(word: str) -> bool:
            if not _same_file(word, args.ref):
                return False
            seen.append(word)
            return bool(others) or len(seen) > 1

        # --label names each FILE by place: the dropped FILE's label goes with it, and all
        # of them where they fit neither every FILE nor those left (`--label a b: 2 given
        # for 1 input` refused the command offered).
        same = [k for k, f in enumerate(args.files) if _same_file(f, args.ref)]
        gone = same if others else same[1:]  # as `dropped` drops them
        labels = len(args.label or [])
        left = len(args.files) - len(gone)
        unlabel = gone if labels == len(args.files) else [] if labels == left else range(labels)
        typed = typed_without(
            args, inputs=dropped, flags=[] if others else unref, nth={"--label": unlabel}
        )
        msg = (
            f"--ref {args.ref} is also a FILE: name it once (`{typed}`); for topics of one "
            "bag, `robot-msgs traj BAG --topic B --ref-topic A` reads B against A"
        )
        raise UsageError(msg)
    stdout_flags = {"--save": args.save, "--plot": args.plot}
    for flag, given in stdout_flags.items():
        if args.json and given is not None and os.fspath(given) in (STDOUT, "/dev/stdout"):
            # The conversion (or the PNG) goes to standard output: the JSON went to
            # standard error, among the warnings (ape refuses --json --save - too).
            msg = f"--json and {flag} {given} both write to standard output; give {flag} a file"
            raise UsageError(msg)
    if args.save is not None and len(args.files) != 1:
        msg = f"--save converts one FILE, got {len(args.files)}"
        raise UsageError(msg)
    twice = [t for t in dict.fromkeys(args.topic or ()) if args.topic.count(t) > 1]
    if twice:  # one key: read twice, aligned twice, then a legend of "--label" given twice
        msg = f"--topic {twice[0]} given twice: each topic is read once, name it once"
        raise UsageError(msg)
    if args.save is not None and len(args.topic or ()) > 1:  # evo_traj saves each
        msg = (
            f"--save converts one trajectory, got {len(args.topic)} topics; give one "
            "--topic a run (evo_traj --save_as_* wrote each topic to a file of its name)"
        )
        raise UsageError(msg)
    ref_input, files = _inputs(args)
    keys = [i.label for i in files]
    saving_topic = args.save_topic is not None  # '' too: it was taken for no flag
    if args.save is None:
        # Each flag given said, and only those: `traj F --to tum` was told of --force too,
        # and `traj F --to tum --force` of --to alone (--force refused on the next try).
        said = [
            f"{flag} only goes with --save OUT"
            for flag, given in (("--save-topic", saving_topic), ("--to", args.to))
            if given
        ]
        if args.force and args.plot is None:
            said.append("--force only goes with --save OUT or --plot FILE")
        if said:
            msg = "; ".join(said)
            raise UsageError(msg)
    settings = settings_from_args(args, EvaluationSettings())  # errors name the flag
    given = [f for f in _WITH_REF[1:] if getattr(args, f[2:].replace("-", "_")) is not None]
    given += ["--transform-right auto"] if settings.transform_right_auto else []
    if args.ref is None and given:  # each flag given is named (all five were, any given)
        named = ", ".join(given[:-1]) + " and " + given[-1] if len(given) > 1 else given[0]
        verb = "align" if len(given) > 1 else "aligns"
        msg = f"{named} {verb} each FILE to --ref REF; give that too"
        raise UsageError(msg)
    rules = reading_rules(args)  # errors name the flag, before any file is read
    # WHY: `all` was refused per FILE, after the reading began, as a file's error (exit 1);
    # a flag's value no command takes is a usage error (exit 2), as ape's and drift's.
    rules.rule_for("")
    ref_side = [f"--w-first {rules.w_first}"] if rules.w_first == "reference" else []
    divisors = " ".join(f"{d:g}" for d in rules.stamp_divisors)
    ref_side += [f"--stamp-divisors {divisors}"] if rules.stamp_divisors[0] != 1.0 else []
    if args.ref is None and ref_side:  # it read nothing, in silence
        msg = (
            f"{' and '.join(ref_side)} {'read' if ref_side[1:] else 'reads'} REF, and there "
            "is no --ref REF: each FILE is the estimate side (--w-first estimate, "
            "--stamp-divisors 1 EST)"
        )
        raise UsageError(msg)
    if args.label and args.plot is None:
        msg = "--label names the files in --plot's legend; give --plot FILE too"
        raise UsageError(msg)
    check_plot_options(args)
    if args.plot is not None:
        from robot_msgs.report.figure_text import legend_names  # noqa: PLC0415
        from robot_msgs.report.figures import figure_format  # noqa: PLC0415

        legend_names(keys, args.label)  # one per FILE and topic
        figure_format(args.plot)
    # The format and every file --save writes (KITTI: poses and times).
    to, outputs = trajectory_outputs_to(args.save, args.to) if args.save is not None else ("", [])
    check_save_layout(args, "--save", to)
    if saving_topic and to not in ("mcap", "db3"):  # it was ignored in silence
        msg = f"--save-topic names the topic of a .mcap or .db3 OUT, not of {to} text"
        raise UsageError(msg)
    if saving_topic:  # '' and '/' were written as topics, or '' taken for no flag
        try:
            check_topic_name(args.save_topic)
        except ValidationError as err:
            msg = f"--save-topic {shlex.quote(args.save_topic)}: {err.reason}"
            raise UsageError(msg) from err
    # Every output checked before any work, together: --save and --plot of one file (one
    # replaced the other, with --force in silence) are refused naming both flags.
    plots = [args.plot] if args.plot is not None else []
    flags = ["--save"] * len(outputs) + ["--plot"] * len(plots)
    inputs = [*args.files, *([args.ref] if args.ref is not None else []), *read_files(args)]
    check_outputs([*outputs, *plots], force=args.force, flags=flags, inputs=inputs)
    if args.plot is not None:
        require("matplotlib", "plot", feature="--plot")
    out = sys.stdout
    if any(
        p is not None and os.fspath(p) in (STDOUT, "/dev/stdout") for p in stdout_flags.values()
    ):
        out = sys.stderr  # standard output carries the data (or --plot -'s PNG)
    reports: list[dict[str, Any]] = []
    by_key: dict[str, dict[str, Any]] = {}  # each report read, by FILE and topic
    read: dict[str, PoseTrajectory] = {}
    # Each FILE's error, said in one ERROR line after the files read, the files of one
    # error named together (two missing files printed two lines; the others are read).
    # Each error once (a file given twice), with its FILE: a name holding ": " is not
    # read back from the text (a missing `a: b.tum` was named `a`).
    errors: dict[str, str] = {}
    # Moved against REF (aligned, or mounted by an estimated --transform-right): saved moved.
    moving = settings.align != "none" or settings.transform_right_auto or _synced(args)
    aligning = args.ref is not None and moving
    # Keyed by FILE and topic (`x.bag /odom`): one bag's topics, and REF a topic of a FILE's
    # bag, were one key (`--topic` was refused twice; REF was taken for the FILE).
    inputs = ([ref_input] if ref_input is not None else []) + files
    located = {
        i.label: _locate_or_error(i, args, inherited=i is ref_input and args.ref_topic is None)
        for i in inputs
    }
    frames = _frames(located, args)
    for k, given_input in enumerate(inputs):
        is_ref, path, key = ref_input is not None and k == 0, given_input.path, given_input.label
        try:
            where = located[key]
            if isinstance(where, Exception):
                raise where
            frame = frames.get(key, (None, None))
            traj, report = _read(path, where, args, None if is_ref else settings, frame)
        except (RobotMsgsError, OSError) as err:
            message = flags_in_text(_as_given(error_text(err), path))
            if isinstance(err, ValidationError) and path not in message:  # a reading rule's
                message = f"{path}: {message}"  # (--w-first on a KITTI file): which FILE
            if isinstance(err, FileNotFoundError):
                by_path = {i.path: located[i.label] for i in inputs}
                message += _as_topic(path, by_path, args, is_ref=is_ref)
            if args.save is not None:
                raise type(err)(message) from err
            # Its topic tells one bag's rows apart; a file without one keeps the row it had.
            topic = {} if given_input.topic is None else {"topic": given_input.topic}
            reports.append({"path": path, **topic, "error": message})
            errors[message] = path
            continue
        if is_ref:
            report["role"] = "reference"
        by_key[key] = report
        reports.append(report)
        if traj is not None:
            read[key] = traj
        if traj is None and args.check:
            flag = "--ref-topic" if is_ref else "--topic"
            errors[f"{path}: nothing checked; choose a topic with {flag}"] = path
        if args.save is not None and not is_ref:
            if traj is None:
                msg = f"{path}: choose the topic to convert with --topic"
                raise FormatError(msg)
            if not aligning:  # an aligned estimate is saved once it is aligned, below
                report["written"] = [str(p) for p in _save(traj, args, to, where)]
        if not args.json:
            _print_report(report, out)
            for written in report.get("written", []):
                print(f"wrote {controls_escaped(written)}", file=out)
    if errors:
        alike = grouped(list(errors), alike=2, files=list(errors.values()))
        say(f"ERROR: {'; '.join(alike)}")  # a.tum, b.tum: no such file
    failed = bool(errors)
    ref_key = ref_input.label if ref_input is not None else None
    named = ref_key, keys
    drawn = _against_reference(args, settings, named, read, by_key, out, aligning=aligning)
    if args.save is not None and aligning:  # the help says "align each FILE to REF first"
        for key, moved in drawn:
            where = located[key]
            assert not isinstance(where, Exception)  # noqa: S101 - with --save a failed read raised
            by_key[key]["written"] = [str(p) for p in _save(moved, args, to, where)]
            if not args.json:
                for written in by_key[key]["written"]:
                    how = (
                        "aligned to"
                        if settings.align != "none"
                        else "mounted on"
                        if settings.transform_right_auto
                        else "synced to"
                    )
                    shown = (controls_escaped(written), controls_escaped(str(ref_key)))
                    _say([f"wrote {shown[0]}", f"({how} {shown[1]})"], out)
    if args.plot is not None and not failed:
        _plot(args, read.get(ref_key or ""), drawn, out)
    if args.json:
        from robot_msgs.strict_json import dumps  # noqa: PLC0415 - --json only

        print(dumps(reports), end="", file=out)
    problems = any(r.get("issues") for r in reports)
    return 1 if failed or (args.check and problems) else 0
