"""The doctor's checks of the fit of matched poses: scale, alignment window, worst intervals.

Each APE figure they quote names the offset the poses were matched at (:func:`_matched_at`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AlignmentError
from robot_msgs.evaluation.alignment import align, umeyama, unit_readings
from robot_msgs.evaluation.ape import aligned_rmse
from robot_msgs.evaluation.doctor._rules import (
    _COLLINEAR,
    _DOMINANT_SHARE,
    _FIRST_SHARE,
    _MIN_FIRST,
    _ROUNDING,
    _SCALE_OFF,
    _SHOWN_WINDOWS,
    _WINDOW_CHANGE,
    _WINDOWS,
    _round,
)
from robot_msgs.evaluation.relations import ape_errors, rpe_errors
from robot_msgs.evaluation.settings import SCALED_METHODS, EvaluationSettings

if TYPE_CHECKING:
    from robot_msgs.compare.extrinsic import Extrinsic
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory


def _scale(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    settings: EvaluationSettings,
    extrinsic: Extrinsic | None,
) -> Finding | None:
    """Find a scale far from 1: the extrinsic's when one was found, else Umeyama's on positions.

    WHY the extrinsic's: a lever arm moves the sensor's positions off the body's, and a
    fit on positions then takes part of it for scale (a 0.2 m lever arm on
    ``freiburg1_xyz``'s 0.3 m motion reads as a scale of 0.9).
    """
    if extrinsic is not None:
        s = extrinsic.scale
    else:
        try:
            s = umeyama(matched_est.positions_xyz, matched_ref.positions_xyz, with_scale=True)[2]
        except AlignmentError:
            return None
    if abs(s - 1.0) <= _SCALE_OFF:
        return None
    se3 = aligned_rmse(matched_ref, matched_est, "se3")
    sim3 = aligned_rmse(matched_ref, matched_est, "sim3")
    accepted = settings.align in SCALED_METHODS
    # A factor of 100 or 1000: metres written in cm or mm (or km), not a monocular scale.
    readings = unit_readings(matched_ref, matched_est, s)
    units = " or ".join(map(str, readings))  # as length_units says them
    unit_error = bool(readings)
    why = (
        f"{units}, not metres? convert it: sim3 would also hide any real scale error"
        if unit_error
        else "a monocular estimate?"
    )
    fix: dict[str, Value] = {} if accepted or unit_error else {"align": "sim3"}
    # WHY only the estimate, one reading, no transform given: a left transform scales the
    # estimate alone (a reference in millimetres scaled so gives errors in millimetres
    # said as metres), and would replace the one given, which this scale is measured after.
    estimate_alone = len(readings) == 1 and readings[0].side == "estimate"
    if estimate_alone and settings.transform_left is None:
        fix = {"transform_left": _scale_matrix(10.0 ** round(math.log10(s)))}
    return Finding(
        kind="scale",
        severity="info" if accepted else "warning",
        summary=f"the estimate's lengths are {1.0 / s:.3g} times the reference's (Sim(3) "
        f"scale {s:.3g}; {why}): APE {se3:.3g} m with se3, {sim3:.3g} m with sim3"
        f"{_matched_at(settings)}, which hides the scale error and its drift",
        evidence={
            "scale": _round(s),
            "estimate_scale": _round(1.0 / s),
            "ape_rmse_se3_m": _round(se3),
            "ape_rmse_sim3_m": _round(sim3),
        },
        fix=fix,
    )


#: Degrees of latitude or longitude a metre: 9.0e-6 of latitude, 9.0e-6 / cos(lat) of
#: longitude (1.3e-5 at 48 deg, 1e-3 at 89.5 deg); from a tenth of the least, a horizontal
#: motion seen partly, to the most.
_DEG_PER_M = (1e-6, 1e-3)
#: x, y this many times farther from 0 than they spread are a place on Earth, not a
#: local frame's coordinates (a run's metres, or kilometres, start near their origin).
_FAR_FROM_ORIGIN = 1_000.0
#: Within this many degrees of (0, 0) (open sea in the Gulf of Guinea), x, y in degrees'
#: range may as well be a local frame in a tiny unit placed off its origin.
_NEAR_NULL_DEG = 1.0


def _lat_lon(matched_ref: PoseTrajectory, matched_est: PoseTrajectory) -> Finding | None:
    """Find an estimate whose x, y are latitude and longitude in degrees (z altitude in m).

    WHY: an ``lla`` file's columns written into a TUM file's x, y, z (fr1_xyz's rgbdslam
    converted to lat/lon at 48.1 N 11.5 E) gave no finding; its APE was 0.163 m under
    sim3 against 0.0135 m in metres, with no alignment a meaningless number. Said when
    x and y lie within -90..90 and -180..180 (or -180..180 and -90..90), far from 0
    against their spread (:data:`_FAR_FROM_ORIGIN`), and spread
    :data:`_DEG_PER_M` degrees a metre of the reference's spread (its 3-D RMS distance
    from its mean, ``(N, 3)`` m); within :data:`_NEAR_NULL_DEG` of (0, 0), only where z
    (altitude) spreads more than the most degrees a metre of that: metres, not x, y's unit.
    """
    xy = matched_est.positions_xyz[:, :2]
    high = np.abs(xy).max(axis=0)
    if high[0] > 180.0 or high[1] > 180.0 or min(high) > 90.0:
        return None
    spread_est = float(np.sqrt(((xy - xy.mean(axis=0)) ** 2).sum(axis=1).mean()))
    ref = matched_ref.positions_xyz
    spread_ref = float(np.sqrt(((ref - ref.mean(axis=0)) ** 2).sum(axis=1).mean()))
    centre = float(np.linalg.norm(xy.mean(axis=0)))
    if spread_ref == 0.0 or centre <= _FAR_FROM_ORIGIN * spread_est:
        return None
    per_m = spread_est / spread_ref
    if not _DEG_PER_M[0] <= per_m <= _DEG_PER_M[1]:
        return None
    # WHY: fr1's rgbdslam scaled by 1e-5 (a local frame in a tiny unit, a monocular
    # scale) and moved 0.003 off its origin was said to be latitude and longitude, an
    # error that stops every check, where the scale is the finding. Near (0, 0) degrees
    # cannot be told from such a frame by x, y; an lla file's z is altitude in metres,
    # a local frame's is in its x, y's unit: said only where z moves as metres do.
    z = matched_est.positions_xyz[:, 2]
    if centre < _NEAR_NULL_DEG and not float(np.std(z)) / spread_ref > _DEG_PER_M[1]:
        return None
    lat, lon = ("y", "x") if high[0] > 90.0 else ("x", "y")
    at = xy.mean(axis=0) if lat == "x" else xy.mean(axis=0)[::-1]
    write = "cut -d' ' -f1-4 EST" if lat == "x" else "awk '{print $1, $3, $2, $4}' EST"
    return Finding(
        kind="scale",
        severity="error",
        summary=f"the estimate's {lat}, {lon} are latitude and longitude in degrees "
        f"({at[0]:.4f}, {at[1]:.4f}), not metres: they spread {per_m:.2g} deg a metre "
        f"the reference spreads; write its stamp, {lat}, {lon} and z (altitude, m) "
        f"as `t lat lon alt` rows (`{write} > EST.lla` for a TUM file), "
        "read as `--est-format lla` (metres in a local east-north-up frame, at "
        "`--geo-origin` or its first fix), and compare positions only",
        evidence={
            "latitude_deg": _round(float(at[0])),
            "longitude_deg": _round(float(at[1])),
            "degrees_per_m": _round(per_m),
        },
    )


def _scale_matrix(factor: float) -> tuple[float, ...]:
    """Return diag(factor, factor, factor, 1), row-major: a left transform scaling lengths."""
    return tuple(float(v) for v in np.diag([factor, factor, factor, 1.0]).ravel())


def _matched_at(settings: EvaluationSettings) -> str:
    """Say the clock offset the poses were matched at, if any: APE figures depend on it.

    ``ape`` with the same flags gave other figures (0.00975 m against the doctor's 0.0079
    m with sim3 on fr1_xyz's ORB keyframes) until given the offset the doctor found.
    """
    if settings.offset_s == 0.0:
        return ""
    return f" (poses matched at an offset of {settings.offset_s:.6g} s: `offset_s=`)"


#: The methods that fit no rotation on the positions (none, or the first orientations).
_NO_POSITION_ROTATION = ("scale", "translation", "origin", "origin_scale")


def _alignment(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    method: str,
    settings: EvaluationSettings,
) -> Finding | None:
    spread = matched_ref.positions_xyz - matched_ref.positions_xyz.mean(axis=0)
    sv = np.linalg.svd(spread, compute_uv=False)
    # WHY only where the rotation is fitted on positions: `--align translation` on a
    # line was warned of its undetermined rotation, which it does not fit, and told to
    # use origin, which turns the orientations too (origin was told to use itself).
    if method not in _NO_POSITION_ROTATION and (sv[0] == 0 or sv[1] / sv[0] < _COLLINEAR):
        return Finding(
            kind="alignment",
            severity="warning",
            summary="the reference positions are (nearly) collinear: the rotation about "
            "their line is not determined by an alignment on positions",
            evidence={"singular_values_m": tuple(_round(v) for v in sv)},
            fix={"align": "origin"},
        )
    n = len(matched_ref)
    first = max(_MIN_FIRST, int(_FIRST_SHARE * n))
    if first >= n:
        return None
    fitting = EvaluationSettings(align=method)  # type: ignore[arg-type]
    try:
        all_fit = align(matched_ref, matched_est, settings=fitting)[0]
        first_fit = align(matched_ref, matched_est, settings=fitting.replace(n_align=first))[0]
    except AlignmentError as err:
        return Finding(
            kind="alignment",
            severity="warning",
            summary=f"the alignment on the first {first} poses is degenerate: {err}",
            evidence={"n_align": first},
        )
    rmse_all = float(np.sqrt(np.mean(ape_errors(matched_ref, all_fit) ** 2)))
    rmse_first = float(np.sqrt(np.mean(ape_errors(matched_ref, first_fit) ** 2)))
    # WHY the floor: a noise-free circle against itself scaled x2 was said to change with
    # its window, "APE 4.9e-16 m ... 2.42e-15 m" (a review): float64 rounding, no drift.
    rounding = _ROUNDING * float(np.abs(matched_ref.positions_xyz).max())
    if not rmse_first > max(_WINDOW_CHANGE * rmse_all, rounding):
        return None
    return Finding(
        kind="alignment",
        severity="info",
        summary=f"the fit changes with its window: APE {rmse_all:.3g} m fitted on all "
        f"{n} poses, {rmse_first:.3g} m fitted on the first {first} (drift shows only in "
        f"the second){_matched_at(settings)}",
        evidence={
            "ape_rmse_all_m": _round(rmse_all),
            "ape_rmse_first_m": _round(rmse_first),
            "n_first": first,
        },
    )


def _worst_intervals(matched_ref: PoseTrajectory, aligned: PoseTrajectory) -> Finding | None:
    stamps = matched_ref.stamps_s
    n = stamps.size
    if n < 2 * _WINDOWS:
        return None
    edges = np.linspace(stamps[0], stamps[-1], _WINDOWS + 1)
    ape_sq = ape_errors(matched_ref, aligned) ** 2
    pairs = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
    rpe_sq = rpe_errors(matched_ref, aligned, pairs) ** 2
    parts = []
    evidence: dict[str, Value] = {}
    rounding = _ROUNDING * float(np.abs(matched_ref.positions_xyz).max())
    # Frame indices (KITTI without its times) were said as seconds, "0.0..454.0 s" (a review).
    frames = matched_ref.stamps_are_frames
    unit, digits, since = ("frames", 0, "frame") if frames else ("s", 1, "time")
    for name, sq, t in (("ape", ape_sq, stamps), ("rpe", rpe_sq, stamps[1:])):
        total = float(sq.sum())
        if total <= sq.size * rounding * rounding:  # a product: ** raises past 1e154
            continue
        window = np.clip(np.searchsorted(edges, t, side="right") - 1, 0, _WINDOWS - 1)
        shares = np.bincount(window, weights=sq, minlength=_WINDOWS) / total
        order = np.argsort(shares)[::-1][:_SHOWN_WINDOWS]
        if shares[order[0]] < _DOMINANT_SHARE:
            continue
        shown = [
            f"{edges[i] - edges[0]:.{digits}f}..{edges[i + 1] - edges[0]:.{digits}f} {unit} "
            f"({shares[i]:.0%})"
            for i in order
        ]
        parts.append(f"{name.upper()} {', '.join(shown)}")
        evidence[f"{name}_window_starts_s"] = tuple(float(edges[i]) for i in order)
        evidence[f"{name}_window_ends_s"] = tuple(float(edges[i + 1]) for i in order)
        evidence[f"{name}_shares"] = tuple(_round(float(shares[i]), 3) for i in order)
    if not parts:
        return None
    return Finding(
        kind="worst_intervals",
        severity="info",
        summary=(
            f"share of the mean square error by {since} since {edges[0]:.{3 * (not frames)}f} "
            f"{'' if frames else 's'}".rstrip()
            + ": "
            + "; ".join(parts)
        ),
        evidence=evidence,
    )
