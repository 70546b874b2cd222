r"""Alignment of an associated estimate to its reference: Umeyama Sim(3)/SE(3), scale, yaw, origin.

Every function is pure: it returns a new trajectory and the :class:`Alignment` used, and
never changes its inputs. The fits use positions only (as evo, TUM's ``evaluate_ate.py`` and
rpg_trajectory_evaluation do), except ``origin`` and the one-pose ``posyaw`` fit, which use
the first pose's orientation.

References
----------
S. Umeyama, "Least-squares estimation of transformation parameters between two point
patterns", IEEE Trans. PAMI 13(4), 1991, eqs. (34)-(43).
Z. Zhang and D. Scaramuzza, "A Tutorial on Quantitative Trajectory Evaluation for
Visual(-Inertial) Odometry", IROS 2018 (rpg_trajectory_evaluation), section on 4-DoF
(position + yaw) alignment.
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np

from robot_msgs.compare.alignment import ROTATION_TOL, Alignment, is_rotation_matrix
from robot_msgs.errors import AlignmentError, DataWarning, ValidationError, caller_stacklevel
from robot_msgs.evaluation.arguments import check_points
from robot_msgs.evaluation.settings import check_inputs
from robot_msgs.evaluation.stamp_units import ROBOT_SPEEDS_M_S, stamp_text
from robot_msgs.report.text import counted
from robot_msgs.rotations import matrix_from_quat_xyzw, rotation_from_covariance
from robot_msgs.series import input_eps

if TYPE_CHECKING:
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = [
    "UNIT_LOG_TOL",
    "UnitReading",
    "align",
    "fit_alignment",
    "fit_alignment_and_scale",
    "fit_rmse",
    "length_units",
    "mirrored_fit",
    "umeyama",
    "unit_readings",
]

#: Float64's unit roundoff times two: ``np.finfo(np.float64).eps``.
_EPS = float(np.finfo(np.float64).eps)

#: A position spread (RMS distance from the mean) at most this share of the coordinates'
#: magnitude ``M`` is treated as zero: the points are one point up to rounding. A
#: coordinate rounds to within half an ulp, ``eps M / 2``; 64 ulps leave room for points
#: computed through a chain of float64 operations (a transform, a unit conversion), each
#: adding up to half an ulp. 1.4e-14 relative: 77 nm at UTM northings (5.43e6 m).
#: WHY: it was 1e-9 (5.4 mm there), 4.5e6 times the rounding, and refused 20 UTM poses
#: spread 4.6 mm that evo fits with a 0.32 mm residual (a hunter's finding).
STATIC_TOL = 64 * _EPS

#: The cross-covariance's second singular value ``d₂`` is treated as zero (the points lie
#: on a line up to rounding) at most this many ulps, plus the summation chain, of the scale
#: ``sigma_x sigma_y`` of its entries' rounding; see :func:`_collinear_floor`.
COLLINEAR_TOL = 16 * _EPS

#: posyaw's horizontal cross-covariance ``hypot(C01 - C10, C00 + C11)`` at most this share of
#: ``sqrt(Σ|xh|² Σ|yh|²)`` leaves the yaw undetermined (not derived from rounding yet). The
#: share is ``max_θ tr(R_z(θ) C) / sqrt(Σ|xh|² Σ|yh|²)``, near 1 for any ``y ≈ R_z x + t``
#: (measured: 1 - 4e-16 at the origin and at 5e6 m, 0.93 rounded to float32 at 5e6 m), so
#: it refuses no such fit; it meets mirrored or unrelated horizontal motions only.
_YAW_TOL = 1e-9

_ALTERNATIVES = "use `align='origin'` (first poses coincide) or `align='none'`"


#: A Sim(3) scale within this of 100 or 1000, or of their inverses (log10: 10 %), is
#: lengths in another unit, not a monocular scale.
UNIT_LOG_TOL = 0.0414

#: Lengths written 10^k times their metres, by k: the unit they are in.
_SMALLER_UNITS = {2: "centimetres", 3: "millimetres"}
_LARGER_UNITS = {3: "kilometres"}  # 10^-k times: hectometres are nobody's


def _speed(traj: PoseTrajectory) -> float:
    return traj.path_length_m / traj.duration_s if traj.duration_s > 0 else math.nan


class UnitReading(NamedTuple):
    """One reading of a Sim(3) scale as lengths in another unit: ``side`` in ``unit``."""

    side: Literal["estimate", "reference"]
    unit: str  # 'millimetres', 'centimetres', 'kilometres'

    def __str__(self) -> str:
        return f"the {self.side} in {self.unit}"


def unit_readings(
    ref: PoseTrajectory, est: PoseTrajectory, scale: float
) -> tuple[UnitReading, ...]:
    """Say which side's lengths a Sim(3) ``scale`` near 100 or 1000 puts in another unit.

    ``scale`` fits ``est`` to ``ref`` (``ref = scale R est + t``): near 1/1000 the
    estimate is in millimetres or the reference in kilometres, near 1/100 the estimate in
    centimetres; near 100 and 1000 the reverse. Of two readings, the one whose side in
    metres moves at a robot's speed as read
    (:data:`~robot_msgs.evaluation.stamp_units.ROBOT_SPEEDS_M_S`) is named, else both.
    Empty for any other scale: within :data:`UNIT_LOG_TOL` of no such factor. The
    readings are data, so a caller choosing a fix by side needs no sentence parsed;
    :func:`length_units` says them.

    WHY: a factor of 100 was called a monocular scale with ``--align sim3`` as the fix,
    which hides the fault and any real scale error, and a reference in millimetres was
    called an estimate in kilometres (a review).

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(50.0)
    >>> q = np.tile([0.0, 0, 0, 1], (50, 1))
    >>> ref = PoseTrajectory(stamps_s=t, positions_xyz=np.stack([0.3 * t, 0 * t, 0 * t], 1),
    ...                      orientations_quat_xyzw=q)
    >>> mm = ref.replace(positions_xyz=1000 * ref.positions_xyz)
    >>> unit_readings(ref, mm, 0.001)
    (UnitReading(side='estimate', unit='millimetres'),)
    >>> length_units(ref, mm, 0.001), length_units(mm, ref, 1000.0)
    ('the estimate in millimetres', 'the reference in millimetres')
    >>> length_units(ref, ref.replace(positions_xyz=100 * ref.positions_xyz), 0.0101)
    'the estimate in centimetres'
    >>> length_units(ref, ref, 0.5) is None
    True
    """
    if not scale > 0:
        return ()
    power = math.log10(scale)
    k = round(power)
    if abs(power - k) >= UNIT_LOG_TOL or abs(k) not in _SMALLER_UNITS:
        return ()
    # The side whose numbers are 10^|k| times the other's, and the other.
    big: Literal["estimate", "reference"]
    small: Literal["estimate", "reference"]
    (big, big_traj), (small, small_traj) = (
        (("estimate", est), ("reference", ref))
        if k < 0
        else (("reference", ref), ("estimate", est))
    )
    readings = [(UnitReading(big, _SMALLER_UNITS[abs(k)]), small_traj)]
    if abs(k) in _LARGER_UNITS:
        readings.append((UnitReading(small, _LARGER_UNITS[abs(k)]), big_traj))
    low, high = ROBOT_SPEEDS_M_S
    # A reading is plausible when the side it leaves in metres moves at a robot's speed.
    plausible = [read for read, metres in readings if low <= _speed(metres) <= high]
    return (plausible[0],) if len(plausible) == 1 else tuple(read for read, _ in readings)


def length_units(ref: PoseTrajectory, est: PoseTrajectory, scale: float) -> str | None:
    """Say :func:`unit_readings` of ``scale``: one plausible reading, else each joined by "or".

    ``None`` for a scale no unit explains.
    """
    return " or ".join(map(str, unit_readings(ref, est, scale))) or None


def umeyama(
    source_xyz: Float64Array, target_xyz: Float64Array, *, with_scale: bool
) -> tuple[Float64Array, Float64Array, float]:
    r"""Fit the least-squares similarity (or rigid) transform taking ``source`` onto ``target``.

    Minimises :math:`\sum_i \lVert y_i - (s R x_i + t) \rVert^2` (Umeyama 1991):

    .. math::

        \mu_x = \tfrac1n \sum x_i, \quad
        \sigma_x^2 = \tfrac1n \sum \lVert x_i - \mu_x \rVert^2, \quad
        \Sigma_{xy} = \tfrac1n \sum (y_i - \mu_y)(x_i - \mu_x)^\top = U D V^\top

        S = \operatorname{diag}(1, 1, \operatorname{sign}(\det U \det V)), \quad
        R = U S V^\top, \quad
        s = \operatorname{tr}(D S) / \sigma_x^2, \quad
        t = \mu_y - s R \mu_x

    (eqs. 34-43; ``S`` is the reflection fix, ``s = 1`` without scale), which is evo's
    ``umeyama_alignment`` (``--align`` and ``--align --correct_scale``).

    Parameters
    ----------
    source_xyz, target_xyz : ndarray, shape (N, 3), float64, metres
        Corresponding points: row ``i`` of one matches row ``i`` of the other.
    with_scale : bool
        Fit the scale ``s`` (Sim(3)) or keep ``s = 1`` (SE(3)).

    Returns
    -------
    R : ndarray, shape (3, 3), float64
        A proper rotation (``det R = +1``).
    t : ndarray, shape (3,), float64, metres
    s : float

    Raises
    ------
    ValidationError
        Shapes other than two equal ``(N, 3)``, no rows, or non-finite values.
    AlignmentError
        Degenerate points: all equal on either side, or collinear (covariance rank < 2),
        where the rotation about the line is undetermined. evo says "Degenerate
        covariance rank"; the message here says why and what to use instead.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    >>> R, t, s = umeyama(x, 2.0 * x[:, [1, 0, 2]] * [-1, 1, 1] + 5.0, with_scale=True)
    >>> np.round(R, 12) + 0.0, t, round(s, 12)
    (array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]]), array([5., 5., 5.]), 2.0)
    """
    x, y = _point_pairs(source_xyz, target_xyz)
    scaled: object = with_scale  # from callers without a type checker, anything
    if isinstance(scaled, np.ndarray):  # an array: "truth value ... is ambiguous"
        msg = f"Expected `with_scale` as True or False, got {scaled!r:.60}"
        raise ValidationError(msg)
    # WHY: float32 points were held to float64's rounding, 2**29 times finer than their
    # own: a 10 m line at 1 km rounded to float32 was fitted, turned 1.1 deg about itself.
    eps = max(input_eps(source_xyz), input_eps(target_xyz))
    return _noncollinear_umeyama(x, y, with_scale=bool(with_scale), eps=eps)[:3]


def _point_pairs(
    source_xyz: Float64Array, target_xyz: Float64Array
) -> tuple[Float64Array, Float64Array]:
    """Return both point sets checked (:func:`check_points`), of one shape ``(N, 3)``."""
    x = check_points("source_xyz", source_xyz)
    y = check_points("target_xyz", target_xyz)
    if x.shape != y.shape:
        msg = f"Expected target_xyz of shape {x.shape} like source_xyz, got {y.shape}"
        raise ValidationError(msg)
    return x, y


def _static_tol(eps: float) -> float:
    """:data:`STATIC_TOL`, plus an ulp of coordinates coarser than float64 (float32's).

    Rounded to float32 once, a coordinate is off by at most half of its ulp; the float64
    arithmetic after the cast keeps its 64 ulps.
    """
    return STATIC_TOL + (eps - _EPS)


def _noncollinear_umeyama(
    x: Float64Array, y: Float64Array, *, with_scale: bool, eps: float = _EPS
) -> tuple[Float64Array, Float64Array, float, float]:
    """:func:`_umeyama`'s ``R, t, s`` and free scale, refusing collinear positions.

    ``eps`` is the coordinates' rounding (float64's, or float32's where they were float32).
    """
    R, t, s, d, free, floor = _umeyama(x, y, with_scale=with_scale, eps=eps)
    if d[1] <= floor:
        msg = (
            f"Cannot fit {'Sim(3)' if with_scale else 'SE(3)'}: the positions are collinear "
            f"(covariance rank 1 of 3, singular values {d[0]:.3g}, {d[1]:.3g}, {d[2]:.3g}): "
            "the rotation about the line is undetermined; "
            "use `align='origin'`, or `align='posyaw'` for a horizontal line"
        )
        raise AlignmentError(msg)
    return R, t, s, free


def mirrored_fit(source_xyz: Float64Array, target_xyz: Float64Array) -> tuple[float, float]:
    """Return the RMS residuals (m) of the best Sim(3) fit and of the best mirrored one.

    Umeyama's fit with and without its reflection fix ``S``: the residual of
    ``y ≈ s M x + t`` for an orthogonal ``M`` is ``Σ|y - μy|² - tr(D S)² / Σ|x - μx|²``
    (``S = I`` lets ``M`` mirror). A mirrored fit far better than a proper one says the
    estimate's frame has one axis flipped (left-handed); positions in a plane cannot
    tell (a mirror image of a plane is a half turn of it), so both residuals agree there.

    Parameters
    ----------
    source_xyz, target_xyz : ndarray, shape (N, 3), float64, metres
        Corresponding points, as :func:`umeyama` takes them.

    Returns
    -------
    tuple of float
        ``(proper, mirrored)`` RMS residuals in metres; ``proper`` is the Sim(3) APE of
        the positions, ``mirrored`` is never larger.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(50, 3))
    >>> proper, mirrored = mirrored_fit(x * [1, -1, 1], x)  # y flipped
    >>> bool(proper > 0.5), round(mirrored, 12)
    (True, 0.0)
    """
    n, sxx, syy, d, fix = _fit_sums(source_xyz, target_xyz)
    if not sxx > 0.0:  # no spread, or sums past float64 (NaN)
        return math.sqrt(syy / n), math.sqrt(syy / n)
    proper = max(0.0, syy - _explained(float(d[0] + d[1] + fix * d[2]), sxx))
    mirrored = max(0.0, syy - _explained(float(d[0] + d[1] - fix * d[2]), sxx))
    return math.sqrt(proper / n), math.sqrt(min(proper, mirrored) / n)


def _explained(trace: float, sxx: float) -> float:
    """``tr(DS)² / σx``, the squared spread a Sim(3) fit explains, without overflow.

    WHY ``(tr / √σx)²``: ``tr²`` alone passes float64 beyond 1e154 (a circle of 1e100 m;
    a review), and ``tr / σx``, the fit's scale, beyond 1e308 where the source is 1e-156
    m and the target 1e153 m (Hypothesis); ``tr / √σx`` is at most ``√σy`` (Cauchy-Schwarz).
    """
    return (trace / math.sqrt(sxx)) ** 2


#: :func:`fit_rmse` trusts a squared residual of at least this share of the positions'
#: summed squared spread: float64 sums round at about 1e-16 of it, so the residual is
#: then good to about 1e-8, far inside any threshold it is held against.
FIT_RMSE_TRUSTED = 1e-8


def fit_rmse(source_xyz: Float64Array, target_xyz: Float64Array) -> tuple[float, float]:
    """Return the RMS residuals (m) of the best SE(3) and Sim(3) fits, without moving a pose.

    Umeyama's closed forms, from one pass over the positions: with centred sums
    ``σx = Σ|x - μx|²``, ``σy = Σ|y - μy|²`` and the cross-covariance's singular values
    ``D`` (reflection fixed by ``S``), the SE(3) residual is ``σy + σx - 2 tr(D S)`` and
    the Sim(3) one ``σy - tr(D S)² / σx``, each over ``N``; the Sim(3) one is never
    larger. They are differences of large sums: a residual whose square is below
    :data:`FIT_RMSE_TRUSTED` of ``σx + σy`` is NaN (rounding could decide it: fit and
    measure instead, as :func:`align` and an APE do), and so is every residual of
    positions without spread.

    WHY: ``ape``'s alignment hint (:func:`robot_msgs.evaluation.ape.alignment_hint`)
    fitted, moved and measured the estimate twice to find most often that no hint is
    due: 0.17 s of a 0.8 s ``ape`` at 10^6 poses (profiled).

    Parameters
    ----------
    source_xyz, target_xyz : ndarray, shape (N, 3), float64, metres
        Corresponding points, as :func:`umeyama` takes them.

    Returns
    -------
    tuple of float
        ``(se3, sim3)`` in metres, each NaN where not trusted.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(1000, 3))
    >>> y = 2.0 * x + rng.normal(scale=0.01, size=x.shape)  # noise rms 0.01·√3 = 0.0173
    >>> se3, sim3 = fit_rmse(x, y)
    >>> round(sim3, 4), bool(se3 > 0.5), fit_rmse(x, x)
    (0.0172, True, (nan, nan))
    """
    n, sxx, syy, d, fix = _fit_sums(source_xyz, target_xyz)
    spread = sxx + syy
    trace = float(d[0] + d[1] + fix * d[2])
    se3 = syy + sxx - 2.0 * trace
    sim3 = syy - _explained(trace, sxx) if sxx > 0.0 else math.nan

    def trusted(squares: float) -> float:
        return math.sqrt(squares / n) if squares >= FIT_RMSE_TRUSTED * spread > 0.0 else math.nan

    return trusted(se3), trusted(sim3)


def _fit_sums(
    source_xyz: Float64Array, target_xyz: Float64Array
) -> tuple[int, float, float, Float64Array, float]:
    """Return ``N``, ``σx``, ``σy``, the cross-covariance's singular values and ``det`` sign fix."""
    x, y = _point_pairs(source_xyz, target_xyz)
    try:
        _, _, sxx, syy, cov = _moments(x, y)
    except AlignmentError:  # sums past float64: no residual to trust
        return x.shape[0], math.nan, math.nan, np.full(3, math.nan), 1.0
    _, d, signs = rotation_from_covariance(cov)
    return x.shape[0], sxx, syy, d, float(signs[2])


def _spread_is_zero(centred: Float64Array, points: Float64Array) -> bool:
    """Whether the points are one point up to rounding of their coordinates.

    The centred rows' own sum (the mean's rounding, up to ``N eps`` of the coordinates) is
    taken out of their squares, as :func:`_moments` does.
    """
    n = centred.shape[0]
    off = centred.sum(axis=0)
    return _static(max(0.0, float(np.vdot(centred, centred)) - float(off @ off) / n), n, points)


def _static(
    sum_squares: float,
    n: int,
    points: Float64Array,
    mean: Float64Array | None = None,
    *,
    eps: float = _EPS,
) -> bool:
    """:func:`_spread_is_zero` from the sum of the squared centred coordinates.

    With the points' ``mean``, a spread clearly above the tolerance is told without the
    points' min and max (8 ms for two (10^6, 3) arrays): no coordinate is further from 0
    than ``max |mean| + sqrt(sum_squares)``, so a spread over the tolerance of that bound
    (with room for rounding) is over the tolerance of the largest coordinate too.
    """
    tol = _static_tol(eps)
    spread = math.sqrt(sum_squares / n)
    if mean is not None:
        bound = float(np.max(np.abs(mean))) + math.sqrt(sum_squares)
        if spread > tol * bound * (1.0 + 1e-6):
            return False
    magnitude = max(-float(points.min()), float(points.max()))
    return spread <= tol * magnitude


#: Rows centred at once by :func:`_moments`: two (rows, 3) buffers of 48 KB, reused. Small
#: enough that OpenBLAS runs every call on one thread (it threads a dot of more than 10^4
#: values, a matrix-vector product of more than 9216): with two threads, blocks of 65536
#: rows took 43-264 ms at 10^6 rows on a loaded 2-core machine, against 24-27 ms here
#: (and 22-42 ms with OPENBLAS_NUM_THREADS=1 at any block size).
_ROWS = 2048


def _moments(
    x: Float64Array, y: Float64Array
) -> tuple[Float64Array, Float64Array, float, float, Float64Array]:
    """Means, sums of squared centred coordinates and ``Σ (y - μy)(x - μx)ᵀ`` of ``(N, 3)`` rows.

    WHY in blocks, by BLAS: ``x.mean(axis=0)`` is a strided loop (12.7 ms at 10^6 rows
    against 0.7 ms for ``ones @ x``), and centring whole arrays makes two new (N, 3)
    arrays (48 MB at 10^6 rows, 39-125 ms of page faults on first touch in a fresh
    process). Block by block, the centred rows go into two small reused buffers; the
    sums differ from the one-pass ones by rounding only.

    WHY corrected (Chan, Golub and LeVeque's two-pass algorithm, "Algorithms for computing
    the sample variance", Am. Stat. 37(3), 1983, eq. 1.7): the computed mean is off the
    true one by the rounding of an ``N``-term sum, up to ``N eps`` of the coordinates, and
    every centred row carries that offset. Its share of the sums, ``|Σ (x - μ)|² / N``
    (and ``Σ (y - μy) Σ (x - μx)ᵀ / N``), is taken out: 10^6 copies of one UTM point
    (5.43e6 m) had a spread of 171 ulps of their coordinates without it (measured),
    well within rounding after it.
    """
    n = x.shape[0]
    rows = min(n, _ROWS)
    ones = np.ones(rows)
    sum_x, sum_y = np.zeros(3), np.zeros(3)
    for start in range(0, n, rows):
        stop = min(start + rows, n)
        sum_x += ones[: stop - start] @ x[start:stop]
        sum_y += ones[: stop - start] @ y[start:stop]
    mean_x, mean_y = sum_x / n, sum_y / n
    xc, yc = np.empty((rows, 3)), np.empty((rows, 3))
    sxx = syy = 0.0
    cov = np.zeros((3, 3))
    off_x, off_y = np.zeros(3), np.zeros(3)  # sums of the centred rows: the means' errors
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused below
        for start in range(0, n, rows):
            m = min(start + rows, n) - start
            bx, by = xc[:m], yc[:m]
            np.subtract(x[start : start + m], mean_x, out=bx)
            np.subtract(y[start : start + m], mean_y, out=by)
            sxx += float(np.vdot(bx, bx))
            syy += float(np.vdot(by, by))
            cov += by.T @ bx
            off_x += ones[:m] @ bx
            off_y += ones[:m] @ by
        sxx -= float(off_x @ off_x) / n
        syy -= float(off_y @ off_y) / n
        cov -= np.outer(off_y, off_x) / n
    if not (math.isfinite(sxx + syy) and np.isfinite(cov).all()):
        # Finite coordinates past ~1e154 m: their squares overflow, and the SVD raised
        # NumPy's LinAlgError ("SVD did not converge"). Checked before the clip at 0,
        # which took an overflowed sum (inf - inf, NaN) for 0: mirrored_fit of points at
        # 1 m against points at 1e200 m said a perfect fit, or overflowed (a review).
        msg = (
            "Cannot fit an alignment: the positions' squared spread overflows float64 "
            f"(largest |coordinate| {max(float(np.abs(x).max()), float(np.abs(y).max())):.3g}"
            " m); are they in metres?"
        )
        raise AlignmentError(msg)
    return mean_x + off_x / n, mean_y + off_y / n, max(0.0, sxx), max(0.0, syy), cov


def _collinear_floor(
    n: int,
    sxx: float,
    syy: float,
    mean_x: Float64Array,
    mean_y: Float64Array,
    *,
    eps: float = _EPS,
) -> float:
    r"""Return the second singular value of ``Σ (y - μy)(x - μx)ᵀ / N`` that rounding can make.

    Two sources, each bounded and measured on exactly collinear inputs (a line of 1 mm to
    100 km, at the origin and at 5e6 m, 3 to 10^6 points, turned and scaled):

    * The arithmetic: each entry is a sum of products, rounded along a chain of
      ``min(N, 2048) + ceil(N / 2048)`` additions (:func:`_moments` sums blocks of 2048
      rows), so the error matrix is at most ``chain · eps · σx σy`` in norm
      (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002, eq. 3.5, with
      Cauchy-Schwarz over the entries; ``σx² = Σ |x - μx|² / N``), plus the SVD's own
      backward error, a few ulps of ``d₁ ≤ σx σy``: :data:`COLLINEAR_TOL` (16 ulps) covers
      it. Measured: ``d₂`` at most 3.8 ulps of ``σx σy`` at the origin and at 1e3 m.
    * The coordinates: each side's points are off their exact line by their rounding,
      held to :data:`STATIC_TOL` of their magnitude ``M`` as :func:`_static` holds a
      point's; the lateral offsets of both sides give ``d₂`` about their product,
      ``(STATIC_TOL Mx)(STATIC_TOL My)``. Measured at 5e6 m: ``d₂`` at most
      ``0.02 (eps Mx)(eps My)`` over 4 ulps of ``σx σy`` (a line of 1 mm there: ``d₂ / d₁``
      up to 803 ulps, refused by this term alone), within this floor by 25 times or more.

    WHY: the rule was ``d₂ ≤ 1e-9 d₁``, which refused a 1 km line with a 5 mm lateral
    wiggle and 1 mm noise (``d₂ / d₁`` = 1.5e-10) that evo fits and whose rotation about
    the line the wiggle determines (a hunter's finding).

    ``M`` is bounded by ``max |μ| + sqrt(Σ |x - μ|²)`` (no coordinate is further from 0),
    which spares a pass over the points and only widens the floor. ``eps`` is the
    coordinates' rounding (float32's where they were float32; the sums are float64's).
    """
    chain = min(n, _ROWS) + -(-n // _ROWS)
    arithmetic = (COLLINEAR_TOL + chain * _EPS) * (math.sqrt(sxx) * math.sqrt(syy) / n)
    mag_x = float(np.max(np.abs(mean_x))) + math.sqrt(sxx)
    mag_y = float(np.max(np.abs(mean_y))) + math.sqrt(syy)
    tol = _static_tol(eps)
    return arithmetic + (tol * mag_x) * (tol * mag_y)


def _umeyama(
    x: Float64Array, y: Float64Array, *, with_scale: bool, eps: float = _EPS
) -> tuple[Float64Array, Float64Array, float, Float64Array, float, float]:
    """Umeyama's fit without the collinearity check; also the singular values and free scale.

    The free scale is the Sim(3) fit's ``tr(D S) / σx²``, whatever ``with_scale`` says: a
    rigid fit's rotation is the same, so an SE(3) fit learns it for nothing. The last value
    is :func:`_collinear_floor`: a second singular value at most that is rounding.
    """
    n = x.shape[0]
    if n == 1:
        # One pose was called "all the same point (1 poses, static)", blaming the motion.
        msg = (
            "Cannot fit an alignment on 1 pose: a rotation or scale needs the positions of "
            f"several poses (3 or more, not on a line); fit on more poses or {_ALTERNATIVES}"
        )
        raise AlignmentError(msg)
    mean_x, mean_y, sxx, syy, cov = _moments(x, y)
    for side, sum_squares, points, mean in (
        ("estimate", sxx, x, mean_x),
        ("reference", syy, y, mean_y),
    ):
        if _static(sum_squares, n, points, mean, eps=eps):
            spread = math.sqrt(sum_squares / n)
            # WHY: 3 UTM poses 3.2 mm apart were "all the same point" (hev's finding).
            said = (
                "all the same point"
                if spread == 0.0
                else f"the same point up to rounding (spread {spread:.3g} m RMS, under "
                f"{_static_tol(eps):.2g} of their coordinates' "
                f"{float(np.max(np.abs(points))):.3g} m)"
            )
            msg = (
                f"Cannot fit an alignment: the {side} positions used for the fit are {said} "
                f"({counted(n, 'pose')}, static), so no rotation or scale can be fitted; "
                f"{_ALTERNATIVES}"
            )
            raise AlignmentError(msg)
    sigma2 = sxx / n
    cov /= n
    R, d, signs = rotation_from_covariance(cov)
    free = float(np.sum(d * signs)) / sigma2
    s = free if with_scale else 1.0
    if not s > 0:
        msg = (
            "Cannot fit a scale: the estimate and reference positions are uncorrelated "
            f"(cross-covariance singular values {d[0]:.3g}, {d[1]:.3g}, {d[2]:.3g}); "
            "check that the trajectories are associated correctly"
        )
        raise AlignmentError(msg)
    t = mean_y - s * (R @ mean_x)
    return R, t, s, d, free, _collinear_floor(n, sxx, syy, mean_x, mean_y, eps=eps)


def _yaw_fit(x: Float64Array, y: Float64Array) -> tuple[Float64Array, Float64Array]:
    r"""rpg_trajectory_evaluation's position + yaw fit (``align_umeyama(..., yaw_only=True)``).

    With :math:`C = \sum_i (x_i - \mu_x)(y_i - \mu_y)^\top` the yaw maximising
    :math:`\operatorname{tr}(R_z(\theta) C)` is :math:`\theta = \operatorname{atan2}(C_{01} -
    C_{10}, C_{00} + C_{11})` (rpg writes it ``π/2 - atan2(C00 + C11, C01 - C10)``, the same
    angle), and :math:`t = \mu_y - R_z(\theta) \mu_x`.
    """
    mean_x, mean_y = x.mean(axis=0), y.mean(axis=0)
    xc, yc = x - mean_x, y - mean_y
    c = xc.T @ yc
    a, b = c[0, 1] - c[1, 0], c[0, 0] + c[1, 1]
    flat_x = _spread_is_zero(xc[:, :2], x[:, :2])
    flat_y = _spread_is_zero(yc[:, :2], y[:, :2])
    horizontal = math.sqrt(
        float(np.einsum("ni,ni->", xc[:, :2], xc[:, :2]))
        * float(np.einsum("ni,ni->", yc[:, :2], yc[:, :2]))
    )
    if flat_x or flat_y:
        msg = (
            "Cannot fit posyaw: the positions used for the fit "
            f"({counted(x.shape[0], 'pose')}) do not move horizontally (all equal, or only "
            f"along z), so the yaw is undetermined; {_ALTERNATIVES}"
        )
        raise AlignmentError(msg)
    if math.hypot(a, b) <= _YAW_TOL * horizontal:
        # WHY apart: both sides move, and a square mirrored in y was said not to move.
        msg = (
            f"Cannot fit posyaw: the estimate and reference positions used for the fit "
            f"({counted(x.shape[0], 'pose')}) move horizontally, but no yaw turns one's "
            "horizontal motion onto the other's (one is the other's mirror image, or they are "
            "unrelated), so the yaw is undetermined; check the axes' handedness and the "
            f"association, or {_ALTERNATIVES}"
        )
        raise AlignmentError(msg)
    R = _rot_z(math.atan2(a, b))
    return R, mean_y - R @ mean_x


def _rot_z(theta: float) -> Float64Array:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _origin_rotation(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    first: int,
    r_ref: Float64Array,
    r_est: Float64Array,
) -> Float64Array:
    """Return ``origin``'s rotation ``R(Q₀) R(P₀)ᵀ`` of the first fit poses.

    ``r_ref`` and ``r_est`` are their orientations' matrices. A trajectory that keeps its
    rotation blocks as a file printed them (KITTI's rows, ``rotation_matrices``) is moved
    as evo moves it, by ``Q₀ · se3_inverse(P₀)`` on the blocks themselves (the transpose
    as inverse), while that product is a rotation within
    :data:`~robot_msgs.compare.alignment.ROTATION_TOL` (an :class:`Alignment` holds a
    rotation; on KITTI 00's 7-digit files the products stay within it, ``max |M Mᵀ - I|``
    at most 9.5e-7 over every row); further off, the product of the orientations' (the
    nearest rotations'), as without kept blocks, with a
    :class:`~robot_msgs.errors.DataWarning` saying so.
    """
    nearest: Float64Array = r_ref @ r_est.T
    kept_ref, kept_est = reference.rotation_matrices, estimate.rotation_matrices
    if kept_ref is None and kept_est is None:
        return nearest
    block_ref = r_ref if kept_ref is None else kept_ref[first]
    block_est = r_est if kept_est is None else kept_est[first]
    as_given: Float64Array = block_ref @ block_est.T
    if is_rotation_matrix(as_given):
        return as_given
    off = float(np.abs(as_given @ as_given.T - np.eye(3)).max())
    msg = (
        f"origin alignment: the product of the first poses' rotation blocks kept as given "
        f"is off a rotation by {off:.2g} (max |M Mᵀ - I|, more than {ROTATION_TOL:g}): "
        "aligned by their nearest rotations' instead, unlike evo"
    )
    warnings.warn(
        DataWarning(msg, kind="non_orthonormal_rotations", fixed=True),
        stacklevel=caller_stacklevel(),
    )
    return nearest


def _unit(quat_xyzw: Float64Array) -> Float64Array:
    """Return a quaternion a trajectory holds (norm 1 within 1e-6) divided by its norm.

    WHY: ``origin``'s rotation made of it unnormalised was off a rotation by twice the
    norm's deviation (1.8e-6 at 1 + 9e-7), and the fit failed "Expected a rotation
    matrix" in :class:`~robot_msgs.compare.alignment.Alignment`; evo normalises too.
    """
    out: Float64Array = quat_xyzw / np.linalg.norm(quat_xyzw)
    return out


def _fit_rows(estimate: PoseTrajectory, settings: EvaluationSettings) -> slice | IntpArray:
    """Rows of the (associated) poses that the fit uses.

    A slice where the rows are the first ones (all of them by default): the positions are
    then views, not copies (at 10^7 poses each copy is 240 MB).
    """
    n = len(estimate)
    if settings.n_align is not None:
        return slice(0, min(settings.n_align, n))
    if settings.align_window_s is not None:
        start, end = settings.align_window_s
        stamps = estimate.stamps_s
        rows = np.flatnonzero((stamps >= start) & (stamps <= end))
        if rows.size == 0:
            # Frame indices (KITTI without its times) in frames, as time_range says them.
            frames = estimate.stamps_are_frames
            text, unit = (lambda t: f"{t:g}", "frames") if frames else (stamp_text, "s")
            msg = (
                f"No pose to fit the alignment on: the alignment window {text(start)} "
                f".. {text(end)} {unit} (`align_window_s=`) holds none of the matched "
                f"estimate's {'frames' if frames else 'stamps'} ({text(stamps[0])} .. "
                f"{text(stamps[-1])}{'' if frames else ' s'})"
            )
            raise AlignmentError(msg)
        return rows
    return slice(0, n)


def align(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings,
) -> tuple[PoseTrajectory, Alignment]:
    """Fit a transform of ``estimate`` onto ``reference`` and return the moved copy.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Already associated: equal lengths, row ``i`` of one matches row ``i`` of the other
        (see :func:`robot_msgs.evaluation.associate`). Neither is modified.
    settings : EvaluationSettings
        ``align``, the method: ``se3``: rotation + translation by Umeyama (evo
        ``--align``). ``sim3``: plus scale (evo ``--align --correct_scale``). ``scale``:
        only the Sim(3) fit's scale is applied, ``x' = s x`` (evo ``--correct_scale``
        alone). ``posyaw``: rotation about ``z`` + translation, rpg_trajectory_evaluation's
        4-DoF fit for visual-inertial estimates whose gravity direction is known; with a
        single fit pose rpg's one-frame version, ``θ`` from the orientations.
        ``translation``: the offset ``mean(p_ref) - mean(p_est)`` of the fit poses'
        positions, no rotation (cnspy's ``pos``). ``origin``:
        the first fit pose of the estimate is moved onto the reference's,
        ``T = P_ref · P_est⁻¹`` (evo ``--align_origin``). ``origin_scale``: the estimate
        scaled first by ``scale``'s factor, then ``origin`` (evo ``--align_origin
        --correct_scale``). ``none``: identity.
        ``n_align``: fit on the first ``n_align`` poses (evo ``--n_to_align``; all poses
        if fewer); ``align_window_s``: fit on the poses whose estimate stamps lie in
        ``[start, end]`` seconds (inclusive). The other settings are not used here.

    Returns
    -------
    aligned : PoseTrajectory
        ``estimate`` with every pose moved by the fitted transform.
    alignment : Alignment
        The transform, the method and the number of poses fitted on.

    Raises
    ------
    ValidationError
        Unequal lengths.
    AlignmentError
        A degenerate fit: static positions, collinear positions (se3, sim3), no horizontal
        motion (posyaw), an empty window; the message suggests an alternative.

    Notes
    -----
    ``scale`` is more lenient than evo: collinear positions fix the scale (``tr(DS)`` is
    then ``d₁``) even though they leave the rotation undetermined, so only static positions
    are refused, where evo raises "Degenerate covariance rank" for both.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.evaluation import EvaluationSettings
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(4.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t,
    ...     positions_xyz=[[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
    ...     orientations_quat_xyzw=[[0.0, 0, 0, 1]] * 4,
    ... )
    >>> est = ref.replace(positions_xyz=0.5 * ref.positions_xyz + [3.0, 0, 0])
    >>> aligned, how = align(ref, est, settings=EvaluationSettings(align="sim3"))
    >>> bool(np.allclose(aligned.positions_xyz, ref.positions_xyz)), round(how.scale, 12)
    (True, 2.0)
    """
    alignment = fit_alignment(reference, estimate, settings=settings)
    return alignment.apply(estimate), alignment


def fit_alignment(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings,
) -> Alignment:
    """Fit the transform of ``estimate`` onto ``reference`` that :func:`align` applies.

    The same parameters, the same errors; the estimate is not moved (a metric that reads
    positions only moves them in chunks: the aligned copy of 10^7 poses is 560 MB).
    """
    return fit_alignment_and_scale(reference, estimate, settings=settings)[0]


def fit_alignment_and_scale(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings,
) -> tuple[Alignment, float]:
    """:func:`fit_alignment`, and the scale a Sim(3) fit of the same poses finds.

    For ``"se3"`` and ``"sim3"`` the Sim(3) scale comes with the fit, at no cost (the
    two share their rotation); for the other methods it is NaN. An SE(3) evaluation of
    an estimate whose Sim(3) scale is far from 1 measures that scale error too, which a
    caller can say (:func:`~robot_msgs.evaluation.prepare` notes it).

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.evaluation import EvaluationSettings
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> ref = PoseTrajectory(
    ...     stamps_s=np.arange(4.0),
    ...     positions_xyz=[[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
    ...     orientations_quat_xyzw=[[0.0, 0, 0, 1]] * 4,
    ... )
    >>> est = ref.replace(positions_xyz=0.5 * ref.positions_xyz)
    >>> how, scale = fit_alignment_and_scale(ref, est, settings=EvaluationSettings(align="se3"))
    >>> how.scale, round(scale, 12)
    (1.0, 2.0)
    """
    check_inputs(reference, estimate, settings)
    method = settings.align
    if len(estimate) != len(reference):
        msg = (
            f"Expected associated trajectories of equal length, got {len(estimate)} estimate "
            f"and {len(reference)} reference poses: associate them first"
        )
        raise ValidationError(msg)
    if len(estimate) == 0:
        msg = "Cannot align empty trajectories"
        raise AlignmentError(msg)
    rows = _fit_rows(estimate, settings)
    x = estimate.positions_xyz[rows]
    y = reference.positions_xyz[rows]
    n_fit = x.shape[0]
    identity, zero = np.eye(3), np.zeros(3)
    free = math.nan
    if method == "none":
        return Alignment(method="none", rotation=identity, translation_m=zero), free
    if method in ("se3", "sim3"):
        R, t, s, free = _noncollinear_umeyama(*_point_pairs(x, y), with_scale=method == "sim3")
    elif method == "scale":
        s = _umeyama(x, y, with_scale=True)[2]
        R, t = identity, zero
    elif method == "translation":  # cnspy's pos: the offset of the fitted positions' means
        R, t, s = identity, y.mean(axis=0) - x.mean(axis=0), 1.0
    elif method in ("origin", "origin_scale") or (method == "posyaw" and n_fit == 1):
        # evo's --correct_scale scales the estimate before --align_origin moves it.
        s = _umeyama(x, y, with_scale=True)[2] if method == "origin_scale" else 1.0
        first = rows.start if isinstance(rows, slice) else int(rows[0])
        r_est = matrix_from_quat_xyzw(_unit(estimate.orientations_quat_xyzw[first]))
        r_ref = matrix_from_quat_xyzw(_unit(reference.orientations_quat_xyzw[first]))
        if method != "posyaw":
            R = _origin_rotation(reference, estimate, first, r_ref, r_est)
        else:  # rpg's alignPositionYawSingle: the yaw maximising tr(Rz R_est R_refᵀ)
            c = r_est @ r_ref.T
            R = _rot_z(math.atan2(c[0, 1] - c[1, 0], c[0, 0] + c[1, 1]))
        t = reference.positions_xyz[first] - R @ (s * estimate.positions_xyz[first])
        n_fit = n_fit if method == "origin_scale" else 1
    else:  # posyaw
        R, t = _yaw_fit(x, y)
        s = 1.0
    return Alignment(method=method, rotation=R, translation_m=t, scale=s, n_fit=n_fit), free
