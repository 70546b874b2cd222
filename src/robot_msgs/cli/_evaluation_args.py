"""Flags shared by the evaluation commands: inputs, and the settings every metric shares.

The names say what they mean (``--align se3``, ``--max-diff``) where evo uses ``-a``,
``--t_max_diff``; the values are evo's where evo has one (relation names, delta units).
Every settings flag is one field of :class:`~robot_msgs.evaluation.EvaluationSettings` or
:class:`~robot_msgs.evaluation.PairSettings` (:data:`FLAGS`): the flags are parsed with no
default, the command's defaults are a settings value, and :func:`settings_from_args` puts
the flags given on top of it, so the settings are validated once and an error names the
flag.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.settings import (
    ALIGNMENT_METHODS,
    DEFAULT_OFFSET_SEARCH_S,
    DELTA_UNITS,
    PLANES,
    RPE_PROTOCOLS,
    SYNC_METHODS,
    EvaluationSettings,
    PairSettings,
)
from robot_msgs.io import FORMATS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.msg import Msg
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "FLAGS",
    "SYNC_CHOICES",
    "add_consistency_args",
    "add_input_args",
    "add_output_args",
    "add_pair_args",
    "add_run_settings_args",
    "add_settings_args",
    "add_transform_args",
    "flag_error",
    "flag_text",
    "flags_text",
    "load_runs_from_args",
    "pair_list_from_args",
    "pairs_from_args",
    "read_inputs_from_args",
    "settings_from_args",
]

M = TypeVar("M", bound="Msg")

#: ``--sync`` values: the association methods, spelt with dashes.
SYNC_CHOICES = tuple(method.replace("_", "-") for method in SYNC_METHODS)

#: The flag of each settings field.
FLAGS: dict[str, str] = {
    "align": "--align",
    "n_align": "--n-align",
    "align_window_s": "--align-window",
    "sync": "--sync",
    "max_diff_s": "--max-diff",
    "offset_s": "--offset",
    "max_gap_s": "--max-gap",
    "t_start_s": "--t-start",
    "t_end_s": "--t-end",
    "offset_auto": "--offset",
    "offset_search_s": "--offset-search",
    "confidence": "--confidence",
    "transform_left": "--transform-left",
    "invert_transform_left": "--invert-transform-left",
    "transform_right": "--transform-right",
    "invert_transform_right": "--invert-transform-right",
    "project_to_plane": "--project-to-plane",
    "delta": "--delta",
    "delta_unit": "--delta-unit",
    "all_pairs": "--all-pairs",
    "pairs_from": "--pairs-from-reference",
    "delta_tol": "--delta-tol",
    "protocol": "--protocol",
    "coverage_gap_s": "--coverage-gap",
    "end_tolerance_s": "--end-tolerance",
    "statistic": "--statistic",
    "relation": "--relation",
    "lengths_m": "--lengths",
    "step_frames": "--step",
    "fractions": "--fractions",
    "geo_origin": "--geo-origin",
    "crs": "--crs",
}
#: Fields whose flag takes its numbers separated by commas (one argument).
_COMMAS = frozenset({"lengths_m", "fractions"})


def _value_text(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("_", "-") if isinstance(value, str) else str(value)


def flag_text(name: str, value: object) -> str:
    """Spell a setting as the flag that sets it: ``--align se3``, ``--all-pairs``.

    A field without a flag is ``name=value``.

    Examples
    --------
    >>> flag_text("sync", "one_to_one"), flag_text("all_pairs", True)
    ('--sync one-to-one', '--all-pairs')
    >>> flag_text("lengths_m", (100.0, 200.0)), flag_text("offset_auto", True)
    ('--lengths 100,200', '--offset auto')
    """
    flag = FLAGS.get(name)
    if flag is None:
        return f"{name}={_value_text(value)}"
    if name == "offset_auto":
        return f"{flag} auto" if value else ""
    if name == "pairs_from":
        return flag if value == "reference" else ""
    if isinstance(value, bool):
        return flag if value else ""
    if name in ("transform_left", "transform_right"):
        return f"{flag} FILE"
    if isinstance(value, tuple):
        sep = "," if name in _COMMAS else " "
        return f"{flag} {sep.join(_value_text(v) for v in value)}"
    return f"{flag} {_value_text(value)}"


def flags_text(values: Mapping[str, object], *, bare: bool = False) -> str:
    """Spell settings as their flags, in order; ``bare``: the values only (table cells).

    Examples
    --------
    >>> flags_text({"align": "se3", "n_align": 5}), flags_text({"align": "se3"}, bare=True)
    ('--align se3 --n-align 5', 'se3')
    >>> flags_text({})
    'the defaults'
    """
    if bare:
        return " ".join(
            _value_text(v) if not isinstance(v, tuple) else ",".join(map(_value_text, v))
            for v in values.values()
        )
    words = [flag_text(k, v) for k, v in values.items()]
    return " ".join(w for w in words if w) or "the defaults"


def _offset(text: str) -> float | str:
    """``--offset``: seconds, or ``auto``."""
    if text == "auto":
        return text
    try:
        return float(text)
    except ValueError:
        msg = f"expected seconds or 'auto', got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None


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
    group.add_argument("--ref-format", choices=FORMATS, help="format of REF only")
    group.add_argument("--est-format", choices=FORMATS, help="format of EST only")
    group.add_argument("--ref-topic", help="bag topic of REF, or a TF id /tf:parent.child")
    group.add_argument("--est-topic", help="bag topic of EST, or a TF id /tf:parent.child")
    group.add_argument(
        "--ref-times", type=Path, help="KITTI times file of REF (default: frame indices)"
    )
    group.add_argument(
        "--est-times", type=Path, help="KITTI times file of EST (default: frame indices)"
    )
    group.add_argument(
        "--strict",
        action="store_true",
        help="refuse data problems (NaN rows, repeated stamps, non-unit quaternions) "
        "instead of fixing them with a warning",
    )
    group.add_argument(
        "--geo-origin",
        type=float,
        nargs=3,
        metavar=("LAT", "LON", "ALT"),
        help="lat/lon/alt inputs (.lla files, NavSatFix topics): the local ENU origin, "
        "degrees and metres above the WGS-84 ellipsoid (default REF's first fix, for both)",
    )
    group.add_argument(
        "--crs",
        metavar="EPSG:CODE",
        help="lat/lon/alt inputs: a projected CRS instead of ENU (needs robot_msgs[geo])",
    )


def add_settings_args(
    parser: argparse.ArgumentParser, defaults: EvaluationSettings, *, note: str = ""
) -> None:
    """Add the time range, association and alignment flags; help shows ``defaults``.

    ``note`` is added to the help of the flags whose default depends on another option
    (``drift --protocol rpg`` has its own).
    """
    d = defaults
    extra = f"; {note}" if note else ""
    span = parser.add_argument_group("time range (seconds on the reference's clock)")
    span.add_argument(
        "--t-start",
        type=float,
        metavar="SECONDS",
        help="only reference poses stamped at or after this time (evo --t_start)",
    )
    span.add_argument(
        "--t-end",
        type=float,
        metavar="SECONDS",
        help="only reference poses stamped at or before this time (evo --t_end)",
    )
    sync = parser.add_argument_group("association in time")
    sync.add_argument(
        "--sync",
        choices=SYNC_CHOICES,
        help="nearest: evo's rule; one-to-one: TUM associate.py's greedy rule; "
        "interpolate: reference resampled at the estimate's stamps "
        f"(default {d.sync.replace('_', '-')}{extra})",
    )
    sync.add_argument(
        "--max-diff",
        type=float,
        metavar="SECONDS",
        help=f"largest stamp difference of a matched pair (default {d.max_diff_s:g}{extra})",
    )
    sync.add_argument(
        "--offset",
        type=_offset,
        metavar="SECONDS|auto",
        help=f"added to the estimate's stamps for matching (default {d.offset_s:g}); auto: "
        "estimated from the motion, with its uncertainty and quality notes, then used",
    )
    sync.add_argument(
        "--offset-search",
        type=float,
        metavar="SECONDS",
        help=f"--offset auto: search offsets within ± this (default {DEFAULT_OFFSET_SEARCH_S:g})",
    )
    sync.add_argument(
        "--max-gap",
        type=float,
        metavar="SECONDS",
        help="interpolate: longest reference gap bridged (default 10 x median interval)",
    )
    fit = parser.add_argument_group("alignment")
    fit.add_argument(
        "--align",
        choices=ALIGNMENT_METHODS,
        help="se3: rotation + translation (evo -a); sim3: plus scale (-as); scale: scale only "
        "(-s); posyaw: translation + yaw (VIO); origin: first poses coincide; "
        f"none (default {d.align}{extra})",
    )
    which = fit.add_mutually_exclusive_group()
    which.add_argument(
        "--n-align", type=int, metavar="N", help="fit the alignment on the first N matched poses"
    )
    which.add_argument(
        "--align-window",
        type=float,
        nargs=2,
        metavar=("START", "END"),
        help="fit the alignment on the matched poses stamped within [START, END] seconds",
    )
    fit.add_argument(
        "--project-to-plane",
        choices=PLANES,
        help="after alignment, project both trajectories to this plane (evo --project_to_plane)",
    )
    add_transform_args(parser)


def add_consistency_args(parser: argparse.ArgumentParser) -> None:
    """Add ``--confidence``, the probability of the NEES chi-square bounds."""
    group = parser.add_argument_group("consistency (--relation nees, nees_position, ...)")
    group.add_argument(
        "--confidence",
        type=float,
        metavar="P",
        help="two-sided probability of the chi-square bounds of NEES (default 0.95)",
    )


def add_transform_args(parser: argparse.ArgumentParser) -> None:
    """Add ``--transform-left/right FILE`` and ``--invert-transform-left/right``."""
    group = parser.add_argument_group(
        "extrinsic transforms of the estimate (P -> T_left P T_right, before anything else)"
    )
    for side, meaning in (("left", "world frame, may scale"), ("right", "body frame, rigid")):
        group.add_argument(
            f"--transform-{side}",
            type=Path,
            metavar="FILE",
            help=f"{side}-multiply every estimate pose ({meaning}; evo_traj "
            f"--transform_{side}): a 4x4 text or .npy matrix, or a JSON/YAML pose",
        )
        group.add_argument(
            f"--invert-transform-{side}",
            action="store_true",
            default=None,
            help=f"use the inverse of --transform-{side}",
        )


def add_pair_args(parser: argparse.ArgumentParser, defaults: PairSettings) -> None:
    """Add the RPE pair flags (``--delta``, ``--delta-unit``, ...); help shows ``defaults``."""
    d = defaults
    group = parser.add_argument_group("pose pairs")
    group.add_argument(
        "--delta",
        type=float,
        nargs="+",
        metavar="D",
        help=f"interval of a pair; several give one result row per delta (default {d.delta:g})",
    )
    group.add_argument(
        "--delta-unit",
        choices=DELTA_UNITS,
        help=f"f frames, s seconds, m metres of path, rad/deg rotation angle "
        f"(default {d.delta_unit})",
    )
    group.add_argument(
        "--all-pairs",
        action="store_true",
        default=None,
        help="a pair from every pose, not consecutive ones",
    )
    group.add_argument(
        "--pairs-from-reference",
        action="store_true",
        default=None,
        help="select the pairs by the reference's motion (default: the estimate's)",
    )
    group.add_argument(
        "--delta-tol",
        type=float,
        metavar="RATIO",
        help=f"relative tolerance of all-pairs and seconds deltas, in [0, 1) "
        f"(default {d.delta_tol:g}, evo's)",
    )
    group.add_argument(
        "--protocol",
        choices=RPE_PROTOCOLS,
        help="evo: evo's pairs and association (default); tum: TUM RGB-D evaluate_rpe.py "
        "--fixed_delta --max_pairs 0 (its pairing, its nearest-stamp matching)",
    )


def _given(args: argparse.Namespace, fields: Any) -> dict[str, Any]:
    """Collect the settings fields whose flag was given, with the flag's value.

    ``--offset auto`` sets ``offset_auto``, a number ``offset_s``; a transform FILE is
    read here (:func:`robot_msgs.io.read_transform`), so the settings hold its numbers.
    """
    values: dict[str, Any] = {}
    for name in fields:
        dest = FLAGS[name].removeprefix("--").replace("-", "_")
        value = getattr(args, dest, None)
        if value is None:
            continue
        if name == "align_window_s":
            value = tuple(value)
        elif name == "sync":
            value = value.replace("-", "_")
        elif name == "pairs_from":
            value = "reference" if value else "estimate"
        elif name in ("offset_s", "offset_auto"):
            if (value == "auto") != (name == "offset_auto"):
                continue
            value = value == "auto" or value
        elif name in ("transform_left", "transform_right"):
            from robot_msgs.io.transform_file import read_transform  # noqa: PLC0415

            value = read_transform(value, flag=FLAGS[name])
        elif name == "delta" and isinstance(value, list):
            if len(value) != 1:
                continue  # several deltas: pair_list_from_args
            value = value[0]
        values[name] = value
    return values


def flag_error(err: ValidationError, values: dict[str, Any]) -> ValidationError:
    """Reword the error of a settings field set by a flag with the flag and its value.

    An error about a field no flag in ``values`` set comes back unchanged.
    """
    field = err.field.rsplit(".", 1)[-1]
    if field not in FLAGS or field not in values:
        return err
    given = values[field]
    shown = " ".join(str(v) for v in given) if isinstance(given, tuple) else given
    if isinstance(given, bool):
        shown = "auto" if field == "offset_auto" else ""
    if field in ("transform_left", "transform_right"):
        shown = "FILE"
    msg = f"{FLAGS[field]} {shown}".rstrip() + f": {err.reason}"
    return ValidationError(msg, field=err.field, reason=err.reason)


def _build(base: M, values: dict[str, Any]) -> M:
    """Return ``base`` with ``values``; a settings error names the flag, not the field."""
    try:
        return base.replace(**values)
    except ValidationError as err:
        error = flag_error(err, values)
        if error is err:
            raise
        raise error from err


def settings_from_args(args: argparse.Namespace, base: EvaluationSettings) -> EvaluationSettings:
    """Return ``base`` with the settings flags that were given on top.

    Raises
    ------
    ValidationError
        Settings that do not fit together or a bad value; the message names the flag.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_settings_args(parser, EvaluationSettings())
    >>> args = parser.parse_args(["--sync", "one-to-one", "--align", "sim3"])
    >>> s = settings_from_args(args, EvaluationSettings(max_diff_s=0.02))
    >>> s.sync, s.max_diff_s, s.align
    ('one_to_one', 0.02, 'sim3')
    >>> settings_from_args(parser.parse_args(["--n-align", "0", "--align", "se3"]), s)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: --n-align 0: expected a pose count >= 1, got int 0
    """
    return _build(base, _given(args, EvaluationSettings.__dataclass_fields__))


def pairs_from_args(args: argparse.Namespace, base: PairSettings) -> PairSettings:
    """Return ``base`` with the pair flags that were given on top (errors name the flag).

    ``--delta-tol`` is refused where it changes nothing: frames (``f``), and consecutive
    pairs by path or angle, are picked without a tolerance.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_pair_args(parser, PairSettings())
    >>> pairs_from_args(parser.parse_args(["--delta-unit", "s", "--delta-tol", "0.2"]),
    ...                 PairSettings()).delta_tol
    0.2
    >>> pairs_from_args(parser.parse_args(["--delta-tol", "0.2"]), PairSettings())
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: --delta-tol 0.2: has no effect with --delta-unit f ...
    """
    values = _given(args, PairSettings.__dataclass_fields__)
    pairs = _build(base, values)
    tolerant = pairs.delta_unit == "s" or (pairs.all_pairs and pairs.delta_unit != "f")
    if "delta_tol" in values and not tolerant:
        mode = "" if pairs.delta_unit == "f" else " without --all-pairs"
        msg = (
            f"--delta-tol {pairs.delta_tol:g}: has no effect with --delta-unit "
            f"{pairs.delta_unit}{mode} (it is the tolerance of seconds deltas and of all "
            "pairs by m, rad or deg); drop it"
        )
        raise ValidationError(msg, field="PairSettings.delta_tol", reason=msg)
    return pairs


def pair_list_from_args(
    args: argparse.Namespace, base: PairSettings, *, settings: EvaluationSettings | None = None
) -> list[PairSettings]:
    """One :class:`PairSettings` per ``--delta`` value, the other pair flags on top of each.

    With ``settings``, the evaluation settings are checked against the pairs' protocol
    (``--protocol tum`` has no use for ``--align``, ``--sync``...); an error names the flag.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_pair_args(parser, PairSettings())
    >>> args = parser.parse_args(["--delta", "1", "2", "--delta-unit", "s"])
    >>> [p.label() for p in pair_list_from_args(args, PairSettings())]
    ['1s', '2s']
    """
    shared = pairs_from_args(args, base)
    if settings is not None and shared.protocol == "tum":
        from robot_msgs.evaluation.tum_rpe import check_tum_settings  # noqa: PLC0415

        try:
            check_tum_settings(settings)
        except ValidationError as err:
            raise flag_error(err, _given(args, EvaluationSettings.__dataclass_fields__)) from err
    deltas = getattr(args, "delta", None)
    if not deltas or len(deltas) == 1:
        return [shared]
    return [_build(shared, {"delta": delta}) for delta in deltas]


def add_run_settings_args(parser: argparse.ArgumentParser) -> None:
    """Add the settings flags of ``report`` and ``bench``: those of every metric, then the runs'.

    Each overrides the manifest's ``[settings]`` (:class:`~robot_msgs.runs.RunSettings`).
    """
    from robot_msgs.runs.run_settings import RUN_DEFAULTS  # noqa: PLC0415

    add_settings_args(parser, RUN_DEFAULTS, note="or the manifest's [settings]")
    group = parser.add_argument_group("metrics and run judgement (default: the manifest's)")
    group.add_argument(
        "--rpe-delta",
        type=float,
        nargs="*",
        metavar="D",
        help="RPE over all pairs D apart, one metric per delta, beside APE translation "
        "(default 1; give none for APE only)",
    )
    group.add_argument("--rpe-unit", choices=DELTA_UNITS, help="unit of --rpe-delta (default s)")
    group.add_argument(
        "--statistic",
        metavar="FIELD",
        help="ErrorStats field rankings and aggregates compare (default rms)",
    )
    group.add_argument(
        "--coverage-gap",
        type=float,
        metavar="SECONDS",
        help="longer gaps between estimate poses are not covered (default 1)",
    )
    group.add_argument(
        "--end-tolerance",
        type=float,
        metavar="SECONDS",
        help="a run succeeds if its last valid pose is at most this before the end (default 1)",
    )


def load_runs_from_args(args: argparse.Namespace, inputs: list[Any]) -> Any:
    """:func:`robot_msgs.runs.load_runs` of ``inputs`` with the settings flags on top.

    Raises
    ------
    FormatError
        As ``load_runs`` (the manifest and key named).
    ValidationError
        A flag's value does not fit; the message names the flag.
    """
    from robot_msgs.runs.manifest import load_runs  # noqa: PLC0415
    from robot_msgs.runs.run_settings import default_metrics  # noqa: PLC0415

    evaluation = _given(args, EvaluationSettings.__dataclass_fields__)
    metrics = None
    if args.rpe_delta is not None or args.rpe_unit is not None:
        deltas = (1.0,) if args.rpe_delta is None else tuple(args.rpe_delta)
        unit = args.rpe_unit or "s"
        try:
            metrics = default_metrics(deltas, unit)
        except ValidationError as err:
            field = err.field.rsplit(".", 1)[-1]
            flag = "--rpe-unit" if field == "delta_unit" else "--rpe-delta"
            msg = f"{flag}: {err.reason}"
            raise ValidationError(msg, field=err.field, reason=err.reason) from err
    judge = {
        name: getattr(args, dest)
        for name, dest in (
            ("statistic", "statistic"),
            ("coverage_gap_s", "coverage_gap"),
            ("end_tolerance_s", "end_tolerance"),
        )
        if getattr(args, dest) is not None
    }
    try:
        return load_runs(inputs, evaluation=evaluation, metrics=metrics, judge=judge)
    except ValidationError as err:
        raise flag_error(err, {**evaluation, **judge}) from err


def add_output_args(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``, ``--save``, ``--save-aligned``, ``--to``, ``--plot``, ``--dpi``..."""
    group = parser.add_argument_group(
        "output (with several estimates, FILE names hold {name}: the estimate's file stem)"
    )
    group.add_argument(
        "--json",
        action="store_true",
        help="print the result as JSON (Comparison.to_dict; a list for several estimates)",
    )
    group.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the whole result (per-pose errors, alignment, matched and aligned "
        "trajectories): .npz or .parquet as the name says (parquet: robot_msgs[parquet]), "
        "else JSON; robot-msgs res reads it",
    )
    group.add_argument(
        "--save-aligned",
        type=Path,
        metavar="FILE",
        help="write the estimate transformed by the fitted alignment (TUM, KITTI or EuRoC "
        "by the name's .tum/.kitti/.csv, or --to)",
    )
    group.add_argument("--to", choices=("tum", "kitti", "euroc"), help="format of --save-aligned")
    group.add_argument(
        "--plot",
        type=Path,
        metavar="FILE",
        help="trajectories coloured by error and error over time (rms, mean, median): "
        "PDF, SVG, EPS or PNG by the name, 11 x 4.5 in; needs robot_msgs[plot]",
    )
    group.add_argument(
        "--dpi", type=int, metavar="N", help="PNG resolution of --plot (default 150)"
    )
    group.add_argument(
        "--plot-plane",
        choices=("xy", "xz", "yz", "xyz"),
        help="trajectory view of --plot; xyz is 3-D (default: the reference's two widest axes)",
    )
    group.add_argument("--force", action="store_true", help="overwrite existing output files")


def read_inputs_from_args(args: argparse.Namespace) -> tuple[list[PoseTrajectory], list[str]]:
    """Read ``REF`` and every ``EST`` as the flags say, in one frame; return them and their labels.

    :func:`robot_msgs.io.read_inputs`: each format detected once, a bag's pose topic
    chosen once, latitude/longitude inputs in one frame (``--crs``, else ``--geo-origin``,
    else the first fix of the first of them, REF first). A file of one pose is read with
    a warning.
    """
    from robot_msgs.io.evaluation_inputs import InputFile, read_inputs  # noqa: PLC0415

    estimates = getattr(args, "estimates", None) or [args.estimate]
    inputs = [
        InputFile(
            path=args.reference,
            fmt=args.ref_format or args.format,
            topic=args.ref_topic,
            times_path=args.ref_times,
        ),
        *(
            InputFile(
                path=path,
                fmt=args.est_format or args.format,
                topic=args.est_topic,
                times_path=args.est_times,
            )
            for path in estimates
        ),
    ]
    geo = {"geo_origin": args.geo_origin, "crs": args.crs}
    try:
        read = read_inputs(
            inputs,
            strict=args.strict,
            geo_origin=None if args.geo_origin is None else tuple(args.geo_origin),
            crs=args.crs,
        )
    except ValidationError as err:
        raise flag_error(err, {k: v for k, v in geo.items() if v is not None}) from err
    return read, [i.label for i in inputs]
