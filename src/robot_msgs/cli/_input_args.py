"""The inputs of an evaluation command: ``REF`` and ``EST``, their flags, and reading them.

:func:`add_input_args` adds the trajectories and the input flags (``--format``,
``--ref-topic``, ``--ref-times``, ``--strict``, ``--geo-origin``, the reading settings'
flags...); :func:`read_inputs_from_args` reads them in one frame, an error about one side
said with that side's flag (:func:`side_error`), frame indices beside seconds refused with
the times flag to give. :func:`read_files` names the other files a command reads (times
and transform files), which no output may replace.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.cli._flag_text import flag_dest
from robot_msgs.cli._settings_args import add_settings_flags, settings_from_args
from robot_msgs.cli._settings_flags import flag_rows
from robot_msgs.errors import FormatError, TopicError
from robot_msgs.io import FORMATS

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from robot_msgs.evaluation.read_settings import ReadSettings
    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.io.evaluation_inputs import InputFile
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "add_geo_args",
    "add_input_args",
    "inputs_from_args",
    "read_files",
    "read_inputs_from_args",
    "reading_changed",
    "reading_rules",
    "side_error",
    "unknown_covariances_of",
    "warn_swapped",
]


def read_files(args: argparse.Namespace) -> list[str]:
    """Return the files a command reads beside its trajectories: times and transform files.

    What an output must not be, beside the trajectories (``check_outputs``' ``inputs``):
    ``--save-aligned T.json --force`` replaced the ``--transform-left`` file it read,
    and ``traj 00.txt --times 00_times.txt --save 00.kitti --force`` the times file (KITTI
    writes its times beside the poses).

    Examples
    --------
    >>> import argparse
    >>> from pathlib import Path
    >>> read_files(argparse.Namespace(times=Path("t.txt"), transform_right=Path("auto")))
    ['t.txt']
    """
    found = [getattr(args, name, None) for name in ("times", "ref_times", "est_times")]
    rows = flag_rows("EvaluationSettings")
    words = {f.name: f.word for f in rows if f.word}
    for flag in rows:
        given = getattr(args, flag_dest(flag.name), None) if flag.file else None
        if isinstance(given, str | os.PathLike) and os.fspath(given) != words.get(flag.name):
            found.append(given)  # a file, not the flag's word (--transform-right auto)
            if ":" in os.fspath(given):  # FILE:KEY's file: `--save-aligned cfg.json --to
                # tum --force` replaced the calibration read as cfg.json:body_T_cam0
                from robot_msgs.io.transform_file import _file_and_key  # noqa: PLC0415

                found[-1] = _file_and_key(given)[0]
    return [os.fspath(f) for f in found if isinstance(f, str | os.PathLike) and os.fspath(f)]


def add_geo_args(group: argparse._ActionsContainer, *, default: str) -> None:
    """Add ``--geo-origin LAT LON ALT`` and ``--crs EPSG:CODE`` (lat/lon/alt inputs).

    They give the reading arguments ``geo_origin`` and ``crs`` of
    :func:`robot_msgs.io.read_trajectory`; ``default`` says the origin without the flag.
    """
    group.add_argument(
        "--geo-origin",
        type=float,
        nargs=3,
        metavar=("LAT", "LON", "ALT"),
        help="lat/lon/alt inputs (.lla files, NavSatFix topics): the local ENU origin, "
        f"degrees and metres above the WGS-84 ellipsoid (default {default})",
    )
    group.add_argument(
        "--crs",
        metavar="EPSG:CODE",
        help="lat/lon/alt inputs: a projected CRS instead of ENU, as EPSG:32632 for UTM "
        "zone 32N (needs robot_msgs[geo])",
    )


def add_input_args(parser: argparse.ArgumentParser, *, several: bool = False) -> None:
    """Add ``REF EST``, ``--format``, ``--ref-topic``/``--est-topic``, ``--ref/est-times``.

    With ``several``, ``EST...`` takes one or more estimates (``args.estimates``).
    """
    parser.add_argument("reference", metavar="REF", help="ground-truth file, bag, or example:NAME")
    if several:
        parser.add_argument(
            "estimates",
            nargs="+",
            metavar="EST",
            help="estimated trajectory files or bags, each evaluated against REF",
        )
    else:
        parser.add_argument("estimate", metavar="EST", help="estimated trajectory file or bag")
    group = parser.add_argument_group("input")
    group.add_argument(
        "--format",
        choices=FORMATS,
        help="format of both inputs (default: detected from each file)",
    )
    for side in ("ref", "est"):
        name = "REF" if side == "ref" else "EST"
        group.add_argument(
            f"--{side}-format",
            choices=FORMATS,
            help=f"format of {name} only (default: --format, else detected)",
        )
    for side in ("ref", "est"):
        name = "REF" if side == "ref" else "EST"
        group.add_argument(
            f"--{side}-topic",
            metavar="TOPIC",
            help=f"bag topic of {name}, or a TF id /tf:parent.child (default: the bag's "
            "one pose topic; a bag of several is refused naming them)",
        )
    group.add_argument(
        "--ref-times",
        type=Path,
        metavar="FILE",
        help="KITTI times file of REF (default: frame indices)",
    )
    group.add_argument(
        "--est-times",
        type=Path,
        metavar="FILE",
        help="KITTI times file of EST (default: frame indices)",
    )
    group.add_argument(
        "--strict",
        action="store_true",
        help="refuse data problems (NaN rows, repeated stamps, non-unit quaternions) "
        "instead of fixing them with a warning",
    )
    group.add_argument(
        "--not-swapped",
        action="store_true",
        help="REF and EST are in the order meant: no warning that EST's name says ground "
        "truth and REF's does not",
    )
    add_geo_args(group, default="REF's first fix, for both")
    add_settings_flags(parser, ["ReadSettings"])


def inputs_from_args(args: argparse.Namespace) -> list[InputFile]:
    """Return ``REF`` and every ``EST`` as the flags describe them (nothing read yet)."""
    from robot_msgs.io.evaluation_inputs import InputFile  # noqa: PLC0415

    estimates = getattr(args, "estimates", None) or [args.estimate]
    sides = [("ref", args.reference), *(("est", path) for path in estimates)]
    return [
        InputFile(
            path=path,
            fmt=getattr(args, f"{side}_format") or args.format,
            topic=getattr(args, f"{side}_topic"),
            times_path=getattr(args, f"{side}_times"),
        )
        for side, path in sides
    ]


def read_inputs_from_args(
    args: argparse.Namespace,
) -> tuple[list[PoseTrajectory], list[str], list[list[str]]]:
    """Read ``REF`` and every ``EST`` as the flags say, in one frame.

    :func:`robot_msgs.io.read_inputs`: each format detected once, a bag's pose topic
    chosen once, latitude/longitude inputs in one frame (``--crs``, else ``--geo-origin``,
    else the first fix of the first of them, REF first). A file of one pose is read with
    a warning. A bag topic whose covariances are all zero is a reading note, not said
    here (most metrics do not use them): NEES names it (:func:`unknown_covariances_of`).

    Returns
    -------
    trajectories, labels, said
        The trajectories and their labels, REF first, and for each input the data
        problems its reading fixed (:class:`~robot_msgs.errors.DataWarning`, shown on
        standard error as they come): what the results' notes must keep, since a
        ``--json`` or ``--save`` result without them does not say its inputs were fixed.
    """
    import warnings  # noqa: PLC0415

    from robot_msgs.errors import DataWarning  # noqa: PLC0415

    inputs = inputs_from_args(args)
    warn_swapped(args, inputs)
    try:
        with warnings.catch_warnings(record=True) as caught:
            read = _read(args, inputs)
    except FormatError as err:  # the side's flag: --format and --topic would say both
        sided = side_error(err, inputs)
        if sided is None:
            raise
        raise sided from err
    finally:
        for shown in caught:  # shown as if never caught, in their order
            warnings.showwarning(shown.message, shown.category, shown.filename, shown.lineno)
    said: list[list[str]] = [[] for _ in inputs]
    for shown in caught:
        if not issubclass(shown.category, DataWarning):
            continue
        text = str(shown.message)
        whose = [k for k, i in enumerate(inputs) if _names(text, i.path)]
        for k in whose or range(len(inputs)):  # unnamed: every input's
            said[k].append(text)
    for k, note in enumerate(_as_written_notes(args, inputs)):
        said[k] += note
    if getattr(args, "sync", None) != "spatial":
        _check_frames_beside_seconds(read, inputs)
    return read, [i.label for i in inputs], said


def warn_swapped(args: argparse.Namespace, inputs: Sequence[InputFile]) -> None:
    """Warn when an EST is named as ground truth and REF is not: REF and EST given swapped.

    WHY: evo's order is REF EST too, and ``ape rgbdslam.tum groundtruth.tum`` ran without
    a word. SE(3) APE is nearly the same either way, so nothing in the numbers showed it;
    a Sim(3) scale, RPE's pairs and ``--t-start`` (on the reference's clock) are not.
    The names decide (a path's file or folder, a topic: ``groundtruth``, ``ground_truth``,
    ``gt``); the inputs are evaluated as given, and ``--not-swapped`` (named in the
    warning) says the order is meant: nothing else silenced it (a newcomer's walk).
    Every command that takes ``--not-swapped`` says it, ``doctor`` too: a swapped pair is
    a finding of a diagnosis (the doctor took the flag and never warned).

    Examples
    --------
    >>> import warnings
    >>> from robot_msgs.io.evaluation_inputs import InputFile
    >>> import argparse
    >>> args = argparse.Namespace(not_swapped=False)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_swapped(args, [InputFile(path="orb.txt"), InputFile(path="KITTI_00_gt.txt")])
    ...     warn_swapped(args, [InputFile(path="KITTI_00_gt.txt"), InputFile(path="orb.txt")])
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    KITTI_00_gt.txt, an EST, is named as ground truth and REF orb.txt is not: ...
    >>> len(caught)
    1
    """
    import warnings  # noqa: PLC0415

    from robot_msgs.errors import DataWarning  # noqa: PLC0415

    ref, *estimates = inputs
    if getattr(args, "not_swapped", False) or _named_ground_truth(ref):
        return
    for est in estimates:
        if _named_ground_truth(est):
            msg = (
                f"{est.label}, an EST, is named as ground truth and REF {ref.label} is not: "
                "REF (the reference) comes first, REF EST; evaluated as given "
                "(--not-swapped silences this)"
            )
            warnings.warn(DataWarning(msg), stacklevel=2)
            return


def _named_ground_truth(given: InputFile) -> bool:
    """Whether ``given``'s file name or its topic says ground truth, else its folder's.

    The file's own name decides where it says ground truth or estimate; its folder only
    where the name says neither (KITTI's ``gt/00.txt``, EuRoC's
    ``state_groundtruth_estimate0/data.csv``), and then a folder named ground truth
    alone or a file named ``data``: ``/data/gt_runs/00.txt`` is a run (a review). WHY:
    ``gt/est.tum`` was warned for its folder, and ``est_vs_gt.txt``, a name of both, for
    its ``gt`` (a newcomer's walk): a name that says estimate too says neither.
    """

    def words_of(text: str) -> set[str]:
        return set(re.split(r"[^a-z0-9]+", text.lower())) - {""}

    def ground_truth_in(text: str) -> bool:
        joined = re.sub(r"[^a-z0-9]+", " ", text.lower())
        return bool({"gt", "groundtruth"} & words_of(text)) or "ground truth" in joined

    def said(text: str) -> bool:
        return ground_truth_in(text) and not _ESTIMATE_WORDS & words_of(text)

    path = Path(given.path.removeprefix("example:"))
    if said(given.topic or ""):
        return True
    if ground_truth_in(path.name) or _ESTIMATE_WORDS & words_of(path.stem):
        return said(path.name)  # the file's own name decides
    folder = path.parent.name
    alone = words_of(folder) <= {"gt", "groundtruth", "ground", "truth"}
    return said(folder) and (alone or path.stem == "data")


#: Words of a name that says estimate (or both: ``est_vs_gt``), never ground truth.
_ESTIMATE_WORDS = frozenset({"est", "estimate", "vs", "versus"})


def _as_written_notes(args: argparse.Namespace, inputs: Sequence[InputFile]) -> list[list[str]]:
    """Say, for each input, how ``--w-first`` and ``--stamp-divisors`` read it (REF first).

    WHY: a result saved with ``--save`` kept the reading's fixes in its notes, but not
    that its stamps were divided by 1000 or its quaternions read w first: it did not say
    how its inputs were read, and its numbers could not be redone from it.
    """
    rules = reading_rules(args)
    ref, est = rules.stamp_divisors
    out: list[list[str]] = []
    for k, given in enumerate(inputs):
        side = "estimate" if k else "reference"
        done = [f"its quaternions read w first (--w-first {rules.w_first})"]
        done = done if rules.w_first in (side, "both") else []
        if rules.stamp_divisors[k > 0] != 1.0:
            done.append(f"its stamps divided (--stamp-divisors {ref:g} {est:g})")
        out.append([f"{given.label}: {' and '.join(done)}"] if done else [])
    return out


def _check_frames_beside_seconds(
    read: Sequence[PoseTrajectory], inputs: Sequence[InputFile]
) -> None:
    """Refuse frame indices beside seconds, naming the times flag and a times file beside.

    The library says "give the reference's times file"; here the flag is known, and a
    KITTI file that ``write_trajectory`` (or evo's test data, ``KITTI_00_gt_times.txt``)
    wrote has its times beside it, which a user was not told of.
    """
    from robot_msgs.errors import AssociationError  # noqa: PLC0415
    from robot_msgs.io.kitti import default_times_path  # noqa: PLC0415

    ref = read[0]
    for k, est in enumerate(read[1:], start=1):
        if ref.stamps_are_frames == est.stamps_are_frames:
            continue
        side, flag = (0, "--ref-times") if ref.stamps_are_frames else (k, "--est-times")
        other = k if side == 0 else 0
        path = inputs[side].path
        beside = None if path.startswith("example:") else default_times_path(path)
        hint = f" ({beside} lies beside it)" if beside is not None and beside.is_file() else ""
        # evo's KITTI_00_gt.txt given its times beside KITTI_00_ORB.txt without: one
        # frame a row in both, which is how evo and KITTI's devkit match them.
        given = inputs[other].times_path is not None
        unsaid = "--est-times" if side == 0 else "--ref-times"
        both = f", or leave out {unsaid} (both by frame index)" if given else ""
        msg = (
            f"{path} is stamped by frame index (KITTI read without its times) and "
            f"{inputs[other].path} by seconds: they cannot be matched in time; give "
            f"{flag} FILE{hint}{both}, or --sync spatial to match by position"
        )
        raise AssociationError(msg)


def side_error(err: FormatError, inputs: Sequence[InputFile]) -> FormatError | None:
    """Say the flag of the side an error is about, or None to keep ``err``.

    A bag without a topic (:class:`~robot_msgs.errors.TopicError`, "choose a topic with
    `topic=`") is answered ``--ref-topic`` or ``--est-topic``: the inputs are read in
    order, so it is the first bag given no topic. A reader's "choose the format
    (`format=` ...)" is ``--ref-format`` or ``--est-format`` as the file is REF or an
    EST: ``--format`` sets both sides, so following it broke a good estimate beside a bad
    reference. REF given as an EST too, or another error: None (``--format`` says both).
    A times file read as poses (the reader's ``times_path=``) is answered ``--ref-times
    or --est-times``, on any side.
    """
    if isinstance(err, TopicError):
        from robot_msgs.io import resolve_path  # noqa: PLC0415

        untold = [
            k
            for k, i in enumerate(inputs)
            if i.topic is None and str(resolve_path(i.path)) == err.path
        ]
        flag = "--ref-topic" if untold[:1] == [0] else "--est-topic"
        return TopicError(str(err).replace("`topic=`", flag), path=err.path)
    # A times file read as poses: the reader's `times_path=` is a side's --ref-times or
    # --est-times here, of the pose file it belongs to, which only the user knows (it was
    # answered --times, traj's flag).
    text = str(err).replace("`times_path=`", "--ref-times or --est-times")
    whose = [k for k, i in enumerate(inputs) if _names(text, i.path)]
    if type(err) is not FormatError or not _FORMAT_NAMED.search(text) or not whose:
        return None if text == str(err) else FormatError(text)
    if whose == [0]:
        flag = "--ref-format"
    elif 0 not in whose:
        flag = "--est-format"
    else:  # REF is an EST too: the one flag says both
        return None if text == str(err) else FormatError(text)
    # "`format=` tum, kitti or euroc" and "`format='euroc'`" alike: a reader that names
    # the format to choose was answered "--format euroc", which broke the other side (a
    # review: each side's error then sent the user to the other's).
    return FormatError(
        _FORMAT_NAMED.sub(lambda m: flag + (f" {m.group(1)}" if m.group(1) else ""), text)
    )


#: A reader's advice to choose a format, with or without the format it names.
_FORMAT_NAMED = re.compile(r"`format=(?:'([^'`]*)')?`")


def _names(text: str, path: str) -> bool:
    """Whether a reader's message is about the input ``path`` (it starts with its name)."""
    from robot_msgs.io import resolve_path  # noqa: PLC0415

    try:
        resolved = str(resolve_path(path))
    except (OSError, ValueError):
        resolved = path
    # "FILE: ...", "FILE, line 3: ...", a bag's "FILE /topic: ..." (not "FILE 2.tum: ...")
    starts = ((f"{name}:", f"{name},", f"{name} /") for name in (path, resolved))
    return any(text.startswith(start) for start in starts)


def _read(args: argparse.Namespace, inputs: list[InputFile]) -> list[PoseTrajectory]:
    """Read ``inputs`` (:func:`robot_msgs.io.read_inputs`) with the reading flags.

    Each side as its file was written (:meth:`~robot_msgs.evaluation.ReadSettings.as_written`).
    """
    from robot_msgs.io.evaluation_inputs import read_inputs  # noqa: PLC0415

    return read_inputs(
        inputs,
        strict=args.strict,
        repeated_stamps=_repeated_stamps(args),
        geo_origin=None if args.geo_origin is None else tuple(args.geo_origin),
        crs=args.crs,
        reading=reading_rules(args),
    )


def reading_rules(args: argparse.Namespace) -> ReadSettings:
    """Return the reading rules the flags give (``--repeated-stamps``, ``--kitti-rotations``)."""
    from robot_msgs.evaluation.read_settings import ReadSettings  # noqa: PLC0415

    return settings_from_args(args, ReadSettings())


def reading_changed(args: argparse.Namespace) -> dict[str, Value]:
    """Return the reading rules in force that differ from the defaults, by field.

    What the ``settings:`` line of ``ape``, ``rpe`` and ``drift`` says beside the
    comparison's settings. The repeated-stamps rule as the protocol resolves it
    (:meth:`~robot_msgs.evaluation.ReadSettings.rule_for`): ``first`` is no change
    where the protocol keeps the first, ``last`` none under TUM's. WHY: the reading
    rules are not the comparison's (its record holds the evaluation settings alone), so
    ``drift --protocol rpg --repeated-stamps all`` said ``settings:  the defaults``
    beside 798 pairs where the defaults make 794.

    Examples
    --------
    >>> import argparse
    >>> reading_changed(argparse.Namespace(repeated_stamps="all", protocol="rpg"))
    {'repeated_stamps': 'all'}
    >>> reading_changed(argparse.Namespace(repeated_stamps="last", protocol="tum"))
    {}
    """
    from robot_msgs.evaluation.read_settings import ReadSettings  # noqa: PLC0415
    from robot_msgs.msg import field_specs  # noqa: PLC0415

    protocol = getattr(args, "protocol", None) or ""
    given, default = reading_rules(args), ReadSettings()
    # Checked when the inputs were read (_repeated_stamps): said here, not refused again.
    given = given.replace(repeated_stamps=given.rule_for(protocol, every_row=True))
    default = default.replace(repeated_stamps=default.rule_for(protocol))
    return {
        name: getattr(given, name)
        for name in field_specs(ReadSettings)
        if getattr(given, name) != getattr(default, name)
    }


def _repeated_stamps(args: argparse.Namespace) -> RepeatedStamps:
    """Return the repeated-stamps rule the flags give (``--repeated-stamps``, ``--protocol``).

    ``all`` only for ``ape``, ``rpe`` and ``drift --protocol rpg`` with evo's ``nearest``
    association or TUM's ``one_to_one`` (rpg's, which keeps every row), no
    ``--transform-right auto``
    (its hand-eye fit builds a trajectory of the matched poses) and no ``--protocol tum``
    (``evaluate_rpe.py`` keys rows by stamp): elsewhere it is refused naming the flag.
    """
    right = getattr(args, "transform_right", None)
    command = getattr(args, "command", None)
    every_row = (
        # rpg's relative error pairs matched rows (rpg_result), as ape and rpe do.
        (command in ("ape", "rpe") or (command == "drift" and args.protocol == "rpg"))
        # As typed here (`one-to-one`), or as a setting (`one_to_one`).
        and str(getattr(args, "sync", None)).replace("-", "_") in ("None", "nearest", "one_to_one")
        and not (isinstance(right, str | os.PathLike) and os.fspath(right) == "auto")
        and getattr(args, "protocol", None) != "tum"
    )
    return reading_rules(args).rule_for(getattr(args, "protocol", None) or "", every_row=every_row)


def unknown_covariances_of(args: argparse.Namespace, index: int, needed_by: str) -> str | None:
    """Return why input ``index`` (1: the first EST) has no covariances, if they were all zero.

    :func:`robot_msgs.io.evaluation_inputs.unknown_covariances` on that input, read with
    the reading flags: the file and topic whose every covariance is all zero, and that
    ``needed_by`` needs them; or ``None``.
    """
    from robot_msgs.io.evaluation_inputs import unknown_covariances  # noqa: PLC0415

    given = inputs_from_args(args)[index]
    return unknown_covariances(
        given, needed_by, strict=args.strict, repeated_stamps=_repeated_stamps(args)
    )
