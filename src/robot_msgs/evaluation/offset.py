r"""The clock offset between an estimate and its reference, estimated from their motion.

An estimate stamped on another clock than its reference (a camera driver's delay, an
unsynchronised computer) is compared at the wrong instants: shifting
``fr2_desk_ORB.txt`` by 0.1 s makes its APE 2.4x worse. evo applies an offset the user
already knows (``--t_offset``); :func:`estimate_offset` finds it.

Method
------
For a candidate offset ``τ`` the reference positions are interpolated linearly at the
estimate's stamps plus ``τ`` (stamps in reference gaps longer than ``max_gap_s`` with
``sync="interpolate"``, else 10 median reference intervals, are left out, as
``sync="interpolate"`` does), the
estimate's positions are fitted onto them by Umeyama's closed form (SE(3), or Sim(3) when
the settings align with ``sim3`` or ``scale``: the fit makes the cost independent of the
estimate's world frame) and the cost is the mean squared residual

.. math::

    J(\tau) = \sigma_x^2 + \sigma_y^2 - 2\,\mathrm{tr}(DS) \quad\text{(SE(3))}, \qquad
    J(\tau) = \sigma_y^2 - \mathrm{tr}(DS)^2 / \sigma_x^2 \quad\text{(Sim(3))}

(Umeyama 1991, eqs. 33-41, without forming the aligned positions). ``J`` is evaluated on
a grid over ``offset_s ± offset_search_s`` (about one candidate per estimate interval, at
most 401, on at most 4 000 evenly spread estimate poses; more candidates, up to 4 001, on
proportionally fewer poses, at least 400, while the reference moves more than a quarter
of its RMS spread in half a grid step: the cost's minimum is about as wide as the time
the motion takes to change, and a grid coarser than that can miss it). The grid's
lowest point and lowest local minima (5 of all, 5 of those overlapping at least half
the most poses any offset overlaps) are each refined within a step to a thousandth of
one, and the one chosen leaves the least share of the reference's variance
unexplained, ``J / σ_y²``, over at least 10 poses (``J`` alone favours an offset that
leaves a few poses overlapping: their fit is small for that alone; a grid point can lie
half a step off a narrow minimum), or, of those within 2x of that share, overlaps the
most poses; it is refined by golden-section search to 1 µs and the curvature ``J''``
is fitted by a parabola over ±2 grid steps (half that, and so on down to the
reference's interval, while the fit's curvature is not 3 standard errors above 0; if
never, the uncertainty is infinite: the cost ripples and does not rise), both on at
most 200 000 evenly spread poses; the cost, the residuals and the pose count at the
optimum are taken on all poses. The standard uncertainty is the least-squares one,

.. math::

    \sigma_\tau^2 = \frac{2 J(\tau^*)}{(3n - p)\, J''(\tau^*)} \cdot \frac{1 + \rho}{1 - \rho},

with ``n`` poses, ``p`` fitted parameters (7 or 8 with the offset) and ``ρ`` the lag-1
autocorrelation of the residuals at the optimum (the second factor widens it for errors
that persist from pose to pose, as SLAM errors do; an AR(1) approximation: a drift that
accumulates, a random walk, is none, and over a long run leaves this too small; the
doctor times such a run by :func:`windowed_offset`). It is never
said smaller than what the search resolves, the largest of: the pull of the reference's
own noise on the minimum (interpolated between two poses it carries less of it; on
the reference's stamps all: :func:`_interpolation_bias`); the golden-section tolerance
(1 µs); the float64 spacing of the stamps (of the largest magnitude on either side: an
offset finer than that is not represented); and the half-width of the offsets whose
cost float64 cannot tell from the minimum's, ``sqrt(2 δJ / J'')`` with
``δJ = 8 ε (σ_x² + σ_y²)`` (``J`` is a difference of the two sides' variances, which
cancel to about that: ``ε`` is float64's machine epsilon). The reference's own rounding
of its stamps (printed digits) is not a floor: both sides read the same stamps, and
where they are apart the rounding moves the reference's poses off the estimate's and
shows in ``J(τ*)`` and the least-squares term. WHY: an exact copy of
``georeferenced.tum`` 0.4 s late was timed at -0.4000029 s "± 0 s" (``J(τ*) = 0``);
its cost is flat to rounding over ±4 µs, and the floor says ± 4.9e-06 s (a review).

Only positions enter the cost: a trajectory that only turns in place cannot be timed by
it (the curve is flat and the estimate is refused).

Quality: the estimate is refused (:class:`~robot_msgs.errors.AssociationError`) when
fewer than 10 poses overlap; when fewer than 3 reference poses lie within the
estimate's span at the optimum (too short an overlap to measure the reference's motion);
when the reference is static (its RMS displacement over the search half-width within 3 x
what its own noise gives, the noise ``σ`` from second differences,
``var(p[i+1] - 2 p[i] + p[i-1]) = 6 σ²``); or when the cost hardly rises
away from the optimum: its median over the range less than 10 % above the minimum
(``contrast`` below 0.1, in ``J`` and in the share of the reference's variance left
unexplained: a reference resting between its motions needs the second) or less than
``1e-6`` of the reference's position variance above it (a circle driven at constant
speed, which the fit can turn to match any offset; or, when even 4 001 offsets lie
farther apart than that quarter of its spread, a minimum between them, which the
message then says). Notes say when the optimum lies at the edge of the search range,
when the curve is shallow (contrast < 1), when a second minimum of those refined, more
than 3 steps away, is nearly as deep (within 2x of its share), when less than 30 % of
the estimate overlaps, when the uncertainty exceeds 5 % of the range, and
when the fit explains less than half of the reference's motion.

Measured on the evo test data (``tests/evaluation/test_offset.py``): ``fr2_desk_ORB.txt``
has an own offset of -2.6 ms; shifted by 0.1 s it gives -102.6 ms and, evaluated with it,
the same APE as the unshifted file with its own estimate; one estimate takes 0.05 s
there, 2.8 s at 10^6 poses (``benchmarks/bench_extensions.py``, on a 2-core machine).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.statistics import median
from robot_msgs.compare.time_offset import TimeOffset
from robot_msgs.errors import AssociationError, ValidationError
from robot_msgs.evaluation.association import resolved_max_gap_s
from robot_msgs.evaluation.settings import SCALED_METHODS, EvaluationSettings, check_inputs
from robot_msgs.rotations import matrix_times_rows, rotation_from_covariance
from robot_msgs.sorted_search import search_sorted
from robot_msgs.trajectory import PoseTrajectory  # noqa: TC001 - the doctests use it

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.typing import BoolArray, Float64Array, IntpArray

__all__ = [
    "coarse_offsets",
    "estimate_offset",
    "full_windows",
    "held_between_jumps",
    "shared_costs",
    "windowed_offset",
]

_MAX_CANDIDATES = 401
_MOST_CANDIDATES = 4_001  # for a motion faster than 401 candidates resolve
_RESOLVE = 0.25  # the reference's move in half a step, of its spread
_MIN_COARSE_POSES = 400
_MIN_CANDIDATES = 21
_COARSE_POSES = 4_000
_FINE_POSES = 200_000
_GRID_ROWS = 1 << 18  # the rows of one batch of the grid's fits (:meth:`_Cost.grid`)
_TOL_S = 1e-6
_COST_ULPS = 8.0  # J's rounding, in machine epsilons of the two sides' variances
_MIN_POSES = 10
_REFUSE_CONTRAST = 0.1
_FLAT_CONTRAST = 1.0  # TimeOffset.flat's
_REFUSE_RISE = 1e-6  # of the reference's position variance
_STATIC_RATIO = 3.0  # displacement over the search half-width, in noise units
_MIN_MOTION_POSES = 3  # reference poses under the estimate: second differences need 3
_LOW_SHARE = 0.3
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0
_REFINED_MINIMA = 5  # the grid's lowest local minima refined before one is chosen
_AMBIGUOUS = 2.0  # a second minimum within this factor of the first's share is as deep
_CURVED = 3.0  # the cost's curvature at the optimum, in standard errors of its parabola


class _Cost:
    """``J(τ)``: the mean squared residual of the fit at offset ``τ``, on chosen rows.

    ``settings`` choose the fit (Sim(3) for the scaled alignments, else SE(3)) and the
    longest reference gap interpolated across (``max_gap_s``, as ``interpolate`` resolves it;
    10 median reference intervals under another ``sync``).

    WHY only ``interpolate``'s: ``interpolate_estimate``'s ``max_gap_s`` limits the
    *estimate's* gaps; applied to the reference's, ``--max-gap 0.1`` (a 50 Hz estimate)
    refused every interval of a 2 Hz reference, and the search found no overlap where the
    matching found 120 pairs (a review).
    """

    def __init__(
        self, reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
    ) -> None:
        origin = float(reference.stamps_s[0])
        self.tr = reference.stamps_s - origin  # small numbers: τ resolves to ~1e-16 s
        self.te = estimate.stamps_s - origin
        self.pr = reference.positions_xyz
        self.pe = estimate.positions_xyz
        self.with_scale = settings.align in SCALED_METHODS
        reference_gap = settings.max_gap_s if settings.sync == "interpolate" else None
        self.gap = resolved_max_gap_s(reference, reference_gap)

    def match(self, tau: float, rows: IntpArray) -> tuple[BoolArray, Float64Array]:
        """Which of ``rows`` interpolate at ``τ``, and the reference positions there.

        Rows are gathered by :func:`numpy.take`, the same values as indexing: 3-5x faster
        for rows of positions (28 against 5 µs for fr2_desk's 2 122), which the grid's
        offsets and their refinement gather some 2 000 times. WHY: refining the grid's
        lowest minima made fr2_desk's ±10 s search 25 % slower (0.20 s to 0.25 s of CPU
        time; a review).

        A reference of one pose (``shared_costs`` takes any) spans no interval: no row
        meets it. WHY: its one stamp was interpolated as 0/0, a RuntimeWarning before
        the NaN that fewer than 3 poses give anyway.
        """
        return self._at(np.take(self.te, rows) + tau)

    def _at(self, t: Float64Array) -> tuple[BoolArray, Float64Array]:
        """Which estimate times ``t`` (s, from the reference's first) interpolate, and where."""
        tr = self.tr
        if tr.size < 2:
            return np.zeros(t.size, dtype=bool), np.empty((0, 3))
        right = np.clip(search_sorted(tr, t, "right"), 1, tr.size - 1)
        left = right - 1
        span = np.take(tr, right) - np.take(tr, left)
        ok = (t >= tr[0]) & (t <= tr[-1]) & (span <= self.gap)
        left, right, span = left[ok], right[ok], span[ok]
        f = ((t[ok] - np.take(tr, left)) / span)[:, None]
        start = np.take(self.pr, left, axis=0)
        y = start + f * (np.take(self.pr, right, axis=0) - start)
        return ok, y

    def _matched(self, rows: IntpArray, ok: BoolArray) -> Float64Array:
        """Return the estimate's positions on ``rows[ok]``."""
        return np.take(self.pe, rows[ok], axis=0)

    def __call__(self, tau: float, rows: IntpArray) -> tuple[float, int]:
        """``J(τ)`` in m² and the number of poses it used (NaN with fewer than 3)."""
        mse, _, n = self.unexplained(tau, rows)
        return mse, n

    def unexplained(self, tau: float, rows: IntpArray) -> tuple[float, float, int]:
        """``J(τ)`` in m², its share of the reference's variance (NaN below 10 poses), poses."""
        ok, y = self.match(tau, rows)
        n = int(np.count_nonzero(ok))
        if n < 3:
            return math.nan, math.nan, n
        mse, sy = _fit(self._matched(rows, ok), y, with_scale=self.with_scale)[:2]
        return mse, mse / sy if n >= _MIN_POSES and sy > 0 else math.nan, n

    def grid(self, taus: Float64Array, rows: IntpArray) -> Float64Array:
        """:meth:`unexplained` at each of ``taus`` (s) at once: ``(taus.size, 3)``.

        WHY at once: a flat 10^5-pose circle with no rotation (a 2-D robot's positions)
        times nothing, and the doctor searched 4 001 offsets eight times, one fit each in
        a loop: 3.6 of diagnose's 4.6 s. At most :data:`_GRID_ROWS` rows a batch.
        """
        out = np.empty((taus.size, 3))
        chunk = max(1, _GRID_ROWS // max(rows.size, 1))
        te = np.take(self.te, rows)
        for start in range(0, taus.size, chunk):
            some = taus[start : start + chunk]
            ok, y = self._at((te[None, :] + some[:, None]).ravel())
            window = np.repeat(np.arange(some.size), rows.size)[ok]
            x = np.take(self.pe, np.tile(rows, some.size)[ok], axis=0)
            mse, sy, n = _window_fits(x, y, window, some.size, with_scale=self.with_scale)
            share = np.where((n >= _MIN_POSES) & (sy > 0), mse / np.where(sy > 0, sy, 1.0), np.nan)
            out[start : start + some.size] = np.stack([np.where(n >= 3, mse, np.nan), share, n], 1)
        return out

    def residuals(self, tau: float, rows: IntpArray) -> tuple[Float64Array, float]:
        """Return the fit's residuals ``(n, 3)`` m at ``τ``, and the reference's variance (m²)."""
        ok, y = self.match(tau, rows)
        x = self._matched(rows, ok)
        _, sy, rotation, scale = _fit(x, y, with_scale=self.with_scale)
        xc, yc = x - x.mean(axis=0), y - y.mean(axis=0)
        out: Float64Array = yc - scale * matrix_times_rows(rotation, xc)
        return out, sy


def _fit(
    x: Float64Array, y: Float64Array, *, with_scale: bool
) -> tuple[float, float, Float64Array, float]:
    """Fit ``x`` onto ``y`` (Umeyama): the mean squared residual, ``σ_y²``, ``R`` and ``s``."""
    n = x.shape[0]
    xc, yc = x - x.mean(axis=0), y - y.mean(axis=0)
    sx = float(np.einsum("ni,ni->", xc, xc)) / n
    sy = float(np.einsum("ni,ni->", yc, yc)) / n
    rotation, d, signs = rotation_from_covariance(np.einsum("ni,nj->ij", yc, xc) / n)
    tds = float(np.sum(d * signs))
    if with_scale:
        scale = tds / sx if sx > 0 else 0.0
        mse = sy - tds * scale
    else:
        scale = 1.0
        mse = sx + sy - 2.0 * tds
    return max(mse, 0.0), sy, rotation, scale


def _window_costs(
    x: Float64Array, y: Float64Array, window: IntpArray, count: int, *, with_scale: bool
) -> Float64Array:
    """Each window's :func:`_fit` at once: its squared residuals' sum, m² ``(count,)``.

    ``window`` labels the rows of ``x`` and ``y`` ``(n, 3)`` m, ``0 .. count - 1``; NaN
    for a window of fewer than 3. WHY at once: a fit a window in a loop took 1 s of CPU
    for 100 windows of a 1 000 s run, 121 offsets (bench_doctor's 10^5 poses).
    """
    mse, _, n = _window_fits(x, y, window, count, with_scale=with_scale)
    out: Float64Array = np.where(n >= 3, mse * n, np.nan)
    return out


def _window_fits(
    x: Float64Array, y: Float64Array, window: IntpArray, count: int, *, with_scale: bool
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """Each window's :func:`_fit`: its mean squared residual and ``σ_y²`` (m²), and rows.

    ``window`` labels the rows of ``x`` and ``y`` ``(n, 3)`` m, ``0 .. count - 1``; each
    output is ``(count,)``, the fit's figures meaningless for fewer than 3 rows.
    """
    n = np.bincount(window, minlength=count).astype(np.float64)
    each = np.maximum(n, 1.0)

    def centred(p: Float64Array) -> Float64Array:
        mean = np.stack([np.bincount(window, p[:, i], count) for i in range(3)], axis=1)
        out: Float64Array = p - (mean / each[:, None])[window]
        return out

    xc, yc = centred(x), centred(y)
    sx = np.bincount(window, np.einsum("ni,ni->n", xc, xc), count) / each
    sy = np.bincount(window, np.einsum("ni,ni->n", yc, yc), count) / each
    products = np.einsum("ni,nj->nij", yc, xc).reshape(-1, 9)
    cov = np.stack([np.bincount(window, products[:, k], count) for k in range(9)], axis=1)
    d, signs = rotation_from_covariance(cov.reshape(count, 3, 3) / each[:, None, None])[1:]
    tds = np.sum(d * signs, axis=1)
    mse = sy - tds * (tds / np.where(sx > 0, sx, np.inf)) if with_scale else sx + sy - 2.0 * tds
    return np.maximum(mse, 0.0), sy, n


def shared_costs(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    offsets_s: Sequence[float],
) -> tuple[Float64Array, Float64Array, int]:
    """Return ``J`` at each offset on its own poses, on the poses shared by all, and their count.

    :func:`estimate_offset`'s cost (the fit's mean squared residual, m²) compares the
    offsets on the estimate poses that meet the reference at each: a fit over fewer poses
    can be better for that alone (a scale error on a straight line at constant speed
    leaves a residual that grows with the span fitted). On the poses that meet the
    reference at every offset, only the clock differs. NaN where fewer than 3 poses meet.

    Examples
    --------
    >>> t = np.arange(0.0, 20.0, 0.05)
    >>> line = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0.5 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (t.size, 1)))
    >>> longer = line.replace(positions_xyz=1.02 * line.positions_xyz)  # a 2 % scale error
    >>> own, shared, n = shared_costs(line, longer, EvaluationSettings(), [0.0, -10.0])
    >>> bool(own[1] < own[0] / 3), bool(abs(shared[1] - shared[0]) < 1e-12), n
    (True, True, 200)
    """
    check_inputs(reference, estimate, settings)
    cost = _Cost(reference, estimate, settings)
    every = np.arange(len(estimate))
    own = np.array([cost(float(tau), every)[0] for tau in offsets_s])
    meet = np.ones(every.size, dtype=bool)
    for tau in offsets_s:
        meet &= cost.match(float(tau), every)[0]
    rows = every[meet]
    shared = np.array([cost(float(tau), rows)[0] for tau in offsets_s])
    return own, shared, int(rows.size)


_WINDOW_S = 10.0  # the estimate's span per window of :func:`windowed_offset`, seconds
_WINDOW_FRAMES = 100.0  # ... in frames, where its stamps are frame indices (KITTI's 10 s)
_MIN_WINDOWS = 8  # at least: their spread is the uncertainty's
_WINDOW_SAMPLES = 4  # samples of the windowed cost per reference interval
_MOST_WINDOW_SAMPLES = 201


def windowed_offset(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    around: TimeOffset,
    *,
    tail_z: float = 3.0,
) -> TimeOffset | None:
    """Time ``estimate`` again with one fit per window: drift left out.

    :func:`estimate_offset` fits one rigid motion to the whole run. A drifting estimate
    (KITTI 00's ORB-SLAM, 4.5 km) leaves residuals of metres that vary slowly with the
    path and so with its velocity: they pull the optimum and persist from pose to pose,
    and its uncertainty, widened for that as an AR(1) would need, said
    -0.095 s ± 0.059 s for the run 0.1 s late (not significant). Here the estimate's
    span is cut into windows of :data:`_WINDOW_S` (:data:`_WINDOW_FRAMES` of frame
    indices, KITTI read without times; at least :data:`_MIN_WINDOWS`, equal), each
    fitted on its own (Umeyama, as :func:`estimate_offset`'s ``settings`` choose), and
    the offset minimises the sum of the windows' squared residuals, sampled
    :data:`_WINDOW_SAMPLES` times per reference interval (a grid of at most
    :data:`_MOST_WINDOW_SAMPLES` first, then finer about its lowest point) over ±3 of
    ``around``'s standard uncertainties (at least 3 samples) about both ``around``'s
    offset and ``settings.offset_s``, on the estimate poses that meet the reference
    over all of it; a parabola over ±2 samples gives the sum's curvature ``H`` and each
    window's slope ``g_w`` at the optimum. WHY about both: a drifting run on time whose
    whole run is pulled 4-6 of its σ off (below) has its windows' minimum near
    ``settings.offset_s``, outside ``around``'s range: it was found at the range's
    edge, and the windows said nothing.

    Statistics. The uncertainty is the sandwich one with the windows as independent
    clusters: ``σ² = K/(K-1) Σ (g_w - ḡ)² / H²`` over the ``K`` windows. It assumes
    nothing of the residuals within a window (correlated, of any spread) and that
    windows are independent. That holds for a drift with independent increments, as
    odometry integrates its errors (a random walk in position or in heading): each
    window's own rigid fit takes out the drift accumulated before it, and what is left
    in it depends on that window's increments and noise alone. The whole run's
    uncertainty assumes residuals that decorrelate geometrically from pose to pose
    (AR(1)); a random walk's do not, however long the run, so its σ is too small for
    a drifting run, and the more so the longer (its residuals are the walk itself).
    WHY: synthetic cars (10 Hz, 100-470 s, on time, a position random walk of 1-5 m
    or a heading random walk of 1-3°, 5 cm noise; ``benchmarks/bench_offset_null.py``)
    were found off by the whole run in 9 of 100 and 5 of 100 (0.015-0.37 s at 3.0-6.1
    σ); by windows, none of 500 (|z| > 2 in 3.6 %, a normal's 4.6 %). Measured on the
    evo test data, KITTI 00 ORB 0.1 s late is timed -0.1027 s ± 0.006 s (truth -0.1: its
    frames are the reference's), and on their own clocks fr1_xyz, fr2_desk, V1_02 and
    KITTI 00 ORB within 1.1 σ of 0.

    That variance has only ``K - 1`` degrees of freedom, so the offset over it follows
    Student's t, not a normal: ``σ`` is widened by ``t_{K-1}(Φ(z)) / z`` at
    ``z = tail_z`` (the Cornish-Fisher series, Abramowitz & Stegun 26.7.5; 0.05 % low at
    ``K = 8``), so that ``tail_z`` of them is exceeded by chance as rarely as ``tail_z``
    standard normals, 0.27 % at 3 (Cameron & Miller 2015, "A practitioner's guide to
    cluster-robust inference", section VI: few clusters want t(G-1) critical values).
    WHY: synthetic pairs with no offset, a random-walk drift and 8 windows (runs of
    40-80 s) were found off at 3 σ in 15 of 800 draws, 1.9 % against the normal's
    0.27 % (a review; the whole run: none); widened, in 3.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        As :func:`estimate_offset` takes them.
    settings : EvaluationSettings
        ``align`` chooses the fit, ``max_gap_s`` the longest reference gap interpolated
        (with ``sync="interpolate"``).
    around : TimeOffset
        :func:`estimate_offset`'s result for them, its uncertainty finite.
    tail_z : float
        The standard uncertainties at which the caller calls an offset significant (the
        doctor's 3): the uncertainty is widened for the windows' count at that tail.

    Returns
    -------
    TimeOffset or None
        ``around`` with this offset and uncertainty, seconds (its cost curve, pose count
        and notes are the whole run's); ``None`` where fewer than :data:`_MIN_WINDOWS`
        windows hold :data:`_MIN_POSES` poses, the minimum lies within 2 samples of the
        range's edge or the sum does not curve up there.
    """
    cost = _Cost(reference, estimate, settings)
    finest = reference.median_step_s
    fine = finest / _WINDOW_SAMPLES
    half = max(3.0 * around.std_s, 3.0 * fine)  # the parabola's ±2 samples and one more
    if not (math.isfinite(half) and finest > 0 and len(estimate) >= _MIN_POSES):
        return None
    low = min(around.offset_s, settings.offset_s) - half
    high = max(around.offset_s, settings.offset_s) + half
    every = np.arange(len(estimate))
    rows = every[cost.match(low, every)[0] & cost.match(high, every)[0]]
    te = cost.te[rows]
    count = max(_MIN_WINDOWS, int((cost.te[-1] - cost.te[0]) // _window(estimate)))
    edges = np.linspace(cost.te[0], cost.te[-1], count + 1)
    window = np.clip(np.searchsorted(edges, te, "right") - 1, 0, count - 1)
    sizes = np.bincount(window, minlength=count)
    kept = np.flatnonzero(sizes >= _MIN_POSES)
    if kept.size < _MIN_WINDOWS:
        return None

    def sums(tau: float) -> Float64Array:
        ok, y = cost.match(tau, rows)
        x, w = cost.pe[rows[ok]], window[ok]
        return _window_costs(x, y, w, count, with_scale=cost.with_scale)[kept]

    while True:  # a coarser grid over a wide range first, then finer about its lowest point
        h = max(fine, (high - low) / (_MOST_WINDOW_SAMPLES - 1))
        taus = low + h * np.arange(math.ceil((high - low) / h) + 1)
        per = np.array([sums(float(tau)) for tau in taus])
        total = per.sum(axis=1)
        if not np.isfinite(total).any():
            return None
        best = int(np.nanargmin(total))
        if best < 2 or best > taus.size - 3:
            return None
        if h <= fine:
            break
        low, high = float(taus[best] - 3.0 * h), float(taus[best] + 3.0 * h)
    near = slice(best - 2, best + 3)
    shifts = taus[near] - taus[best]
    if not np.isfinite(per[near]).all():
        return None
    # In units of the largest: the offset and its uncertainty do not change, and a
    # circle of 1e100 m (costs of 1e203 m²) squares no slope past float64's range.
    per = per / max(float(np.max(np.abs(per[near]))), np.finfo(float).tiny)
    total = per.sum(axis=1)
    a, b, _ = np.polyfit(shifts, total[near], 2)
    if not a > 0:
        return None
    at = float(np.clip(-b / (2.0 * a), shifts[0], shifts[-1]))
    slopes = np.polyfit(shifts, per[near], 2)  # (3, K)
    g = 2.0 * slopes[0] * at + slopes[1]
    std = math.sqrt(kept.size / (kept.size - 1) * float(np.sum((g - g.mean()) ** 2))) / (2.0 * a)
    std *= _student_over_normal(tail_z, kept.size - 1)
    return around.replace(offset_s=float(taus[best]) + at, std_s=max(std, _TOL_S))


def _window(estimate: PoseTrajectory) -> float:
    """Return :func:`windowed_offset`'s window span in ``estimate``'s stamp units."""
    return _WINDOW_FRAMES if estimate.stamps_are_frames else _WINDOW_S


def full_windows(estimate: PoseTrajectory) -> bool:
    """Say whether ``estimate`` spans :data:`_MIN_WINDOWS` whole windows (80 s, 800 frames).

    Shorter, :func:`windowed_offset` cuts it into 8 shorter windows: its drift, over a
    shorter run, pulls the whole run's offset less (:func:`windowed_offset`'s WHY).

    Examples
    --------
    >>> def run(t: Float64Array) -> PoseTrajectory:
    ...     still = np.tile([0.0, 0, 0, 1], (t.size, 1))
    ...     return PoseTrajectory(stamps_s=t, positions_xyz=0 * still[:, :3],
    ...                           orientations_quat_xyzw=still)
    >>> full_windows(run(np.arange(0.0, 79.95, 0.1))), full_windows(run(np.arange(0.0, 80.05, 0.1)))
    (False, True)
    """
    return estimate.duration_s >= _MIN_WINDOWS * _window(estimate)


def _student_over_normal(z: float, dof: int) -> float:
    """Return Student's t quantile (``dof`` degrees of freedom) at a normal's ``Φ(z)``, over ``z``.

    The Cornish-Fisher series in ``1/dof`` to its fourth term (Abramowitz & Stegun 26.7.5):
    at ``z = 3`` 0.05 % low at 7 degrees of freedom, 6e-8 at 46 (against SciPy's ``t.ppf``).

    Examples
    --------
    >>> round(_student_over_normal(3.0, 7) * 3.0, 3), round(_student_over_normal(3.0, 46), 4)
    (4.528, 1.0572)
    """
    terms = (
        (z**3 + z) / 4.0,
        (5.0 * z**5 + 16.0 * z**3 + 3.0 * z) / 96.0,
        (3.0 * z**7 + 19.0 * z**5 + 17.0 * z**3 - 15.0 * z) / 384.0,
        (79.0 * z**9 + 776.0 * z**7 + 1482.0 * z**5 - 1920.0 * z**3 - 945.0 * z) / 92160.0,
    )
    return 1.0 + math.fsum(term / dof ** (i + 1) for i, term in enumerate(terms)) / z


def _candidate_count(
    reference: PoseTrajectory, estimate: PoseTrajectory, low: float, high: float, interval: float
) -> tuple[int, str]:
    """Return how many offsets the grid over ``[low, high]`` has (module docstring).

    And ``""``, or, when even the most candidates leave the reference moving more than
    that between two, what says so.

    About one an estimate interval, at most 401; more (halving the step, up to 4 001, finer
    than an interval if need be: the reference is interpolated at any offset) while the
    reference moves, over half a step, more than a quarter of its RMS spread about its
    mean, both over the stamps the search reaches.
    WHY: the cost is low only within about the time the motion takes to change; 401
    offsets over ±200 s lie 1 s apart, and a motion that decorrelates within 0.5 s was
    refused as flat (or found with a false second minimum) where it times the estimate
    to a microsecond.
    """
    widest = (high - low) / interval + 1
    count = int(min(max(widest, _MIN_CANDIDATES), _MAX_CANDIDATES))
    start, end = float(estimate.stamps_s[0] + low), float(estimate.stamps_s[-1] + high)
    t = reference.stamps_s
    inside = reference.positions_xyz[(t >= start) & (t <= end)]
    if inside.shape[0] < _MIN_MOTION_POSES:
        return count, ""
    spread = math.sqrt(float(np.mean(np.sum((inside - inside.mean(axis=0)) ** 2, axis=1))))
    shortest = reference.median_step_s  # no move is measured over less than a pose apart
    while True:
        step = (high - low) / (count - 1)
        if 0.5 * step < shortest:
            return count, ""
        moved = _motion(reference, start, end, 0.5 * step)[0]
        if not moved > _RESOLVE * spread:
            return count, ""
        if count >= _MOST_CANDIDATES:
            break
        count = min(2 * count - 1, _MOST_CANDIDATES)
    return count, (
        f"the {count} offsets searched lie {step:.3g} s apart, and the reference moves "
        f"{moved:.3g} m RMS in half that, more than a quarter of its {spread:.3g} m RMS about "
        "its mean: a minimum between them can be missed; search a narrower range "
        "(`offset_search_s=`)"
    )


def coarse_offsets(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> str:
    """Say why the offsets :func:`estimate_offset` would search lie too far apart, or ``""``.

    Over ``settings``' range (:attr:`~EvaluationSettings.search_range_s`), even the most
    candidates leave the reference moving more than a quarter of its RMS spread between
    two (the module docstring): a refusal of that search is the search's, not the
    motion's. WHY: the doctor took such a refusal for a motion that times nothing, and
    matched the poses at the wrong offset (a review).

    Examples
    --------
    >>> t = np.arange(0.0, 20.0, 0.05)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([np.cos(t), np.sin(2 * t), 0.1 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (t.size, 1)),
    ... )
    >>> coarse_offsets(ref, ref, EvaluationSettings())
    ''
    """
    check_inputs(reference, estimate, settings)
    if len(reference) < 2 or len(estimate) < 2:
        return ""
    low, high = settings.search_range_s
    interval = estimate.median_step_s
    return _candidate_count(reference, estimate, low, high, interval)[1]


def _golden(
    cost: _Cost, rows: IntpArray, low: float, high: float, tol: float = _TOL_S
) -> tuple[float, float]:
    """Golden-section minimum of ``J`` on ``[low, high]`` to ``tol`` (s): ``(τ, J)``."""
    a, b = low, high
    c = b - _GOLDEN * (b - a)
    d = a + _GOLDEN * (b - a)
    fc, fd = cost(c, rows)[0], cost(d, rows)[0]
    while b - a > tol:
        if not fc > fd:  # NaN on the right keeps the left
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = cost(c, rows)[0]
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = cost(d, rows)[0]
    return (c, fc) if not fc > fd else (d, fd)


def _resolved(
    cost: _Cost,
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    tau: float,
    curvature: float,
) -> float:
    """Return the finest offset the search resolves, seconds (the module docstring's floor)."""
    every = np.arange(len(estimate))
    ok, y = cost.match(tau, every)
    x = np.take(cost.pe, every[ok], axis=0)
    spreads = float(np.var(x, axis=0).sum() + np.var(y, axis=0).sum()) if y.size else 0.0
    rounding = _COST_ULPS * float(np.finfo(float).eps) * spreads
    stamps = max(abs(float(t.stamps_s[k])) for t in (reference, estimate) for k in (0, -1))
    return max(_TOL_S, float(np.spacing(stamps)), math.sqrt(2.0 * rounding / curvature))


def held_between_jumps(held: BoolArray) -> bool:
    """Whether steps, ``held`` where they change nothing, hold still between jumps.

    At least half the steps change nothing, and the changing ones come mostly alone
    (in runs of one at least half of them): a transform only corrections move (a
    localisation's map->odom), not a body stopping now and then or an estimate frozen
    while lost (a few long stretches of motion).
    """
    unchanged = int(np.count_nonzero(held))
    changed = held.size - unchanged
    runs = int(np.count_nonzero(~held[1:] & held[:-1])) + int(held.size > 0 and not held[0])
    return 2 * unchanged >= held.size and 2 * runs >= changed


def _held_interval(side: PoseTrajectory) -> float:
    """Return the timing a side's jumps leave, s: ``Δt / √12`` if it holds still between them.

    A pose that jumps between two poses ``Δt`` apart jumped at any time between them
    (uniform: ``Δt / √12``), the same way at every jump, so no count of jumps averages
    it away; interpolation puts every jump halfway. 0 for a side that does not hold
    still between jumps (:func:`held_between_jumps`). WHY: a reference held for 0.8 s
    between jumps at 10 Hz against the same steps at 100 Hz, on time, was timed
    -0.0400 s ± 0.007 s, and the doctor said a clock offset (a review).
    """
    p = side.positions_xyz
    if len(p) < 3 or not held_between_jumps(np.all(p[1:] == p[:-1], axis=1)):
        return 0.0
    return side.median_step_s / math.sqrt(12.0)


def _interpolation_bias(
    cost: _Cost, rows: IntpArray, tau: float, curvature: float, j0: float
) -> float:
    """Return how far the reference's noise pulls the minimum of ``J`` off the offset, s.

    The reference interpolated a fraction ``f`` of the way between two poses of white
    noise ``σ`` (over three axes, from second differences of poses no more than the
    longest gap interpolated across apart: a mocap dropout's are no noise) carries ``(1 - 2f(1 - f))
    σ²`` of it: ``J`` falls by ``2 σ² mean((1 - 2f) / Δt)`` a second as ``τ`` moves off
    the reference's stamps (``Δt`` the interval interpolated in), and its minimum lies
    that over ``J''`` away. Poses at every phase ``f`` cancel it; an estimate on the
    reference's stamps (the same clock) takes it whole. WHY: smooth random 3-D curves at
    30 Hz, both sides on the same stamps with 1 cm of noise a pose, were said "the
    estimate's clock is off by -0.0040 s ± 0.0003 s" and six of six seeds 2 to 4 ms off
    at 10 to 20 standard uncertainties (at 200 Hz with 1 mm, 0.1 to 0.3 ms ± 0.01 ms; a
    review).

    Only noise the estimate does not share pulls, and ``J`` at the optimum, ``j0``, holds
    at least half of it (``1 - 2f(1 - f) >= 1/2``): ``3 σ²`` is taken as no more than
    ``2 j0``. WHY: second differences are also the motion's; an exact copy on the same
    stamps (RMS 1e-7 m, on time within 1e-7 s) of a smooth curve at 10 Hz was said ± 0.4
    ms, and the evo data's georeferenced.tum against itself ± 0.031 s (a review).
    """
    t = np.take(cost.te, rows) + tau
    right = np.clip(search_sorted(cost.tr, t, "right"), 1, cost.tr.size - 1)
    span = np.take(cost.tr, right) - np.take(cost.tr, right - 1)
    ok = (t >= cost.tr[0]) & (t <= cost.tr[-1]) & (span <= cost.gap) & (span > 0)
    gaps = np.diff(cost.tr)
    even = np.flatnonzero((gaps[1:] <= cost.gap) & (gaps[:-1] <= cost.gap)) + 1
    if not (np.any(ok) and even.size):
        return 0.0
    p = cost.pr
    second = p[even + 1] - 2.0 * p[even] + p[even - 1]
    noise2 = min(float(np.einsum("ni,ni->", second, second)) / (6.0 * even.size), 2.0 * j0)
    f = (t[ok] - np.take(cost.tr, right[ok] - 1)) / span[ok]
    slope = 2.0 * noise2 * float(np.mean((1.0 - 2.0 * f) / span[ok]))
    return abs(slope) / curvature


def _curvature(cost: _Cost, rows: IntpArray, tau: float, step: float, finest: float) -> float:
    """``J''(τ)`` from a parabola fitted over ``τ ± 2 h`` (m²/s²; NaN if undefined).

    ``h`` is the grid's ``step``, halved while the parabola's curvature is not
    :data:`_CURVED` standard errors of its least-squares fit above 0 (a minimum narrower
    than the grid), down to ``finest``, the reference's median interval; NaN where none
    is: the cost does not rise with the offset but ripples by the reference's interval
    (interpolating halfway between two noisy poses halves their noise).
    WHY: a 1 cm/s line at constant speed, on time, 1 mm of noise a pose, the reference
    at 100 Hz and the estimate at 50 Hz, was timed ±3.1 ms and ±9.5 ms by the seed
    (t = 1.8 and 0.3), and ±inf with the estimate at 100 Hz (a curvature below 0; a
    review): the line moved in time is the line moved in space, which the fit undoes.
    The evo test pairs' stand 23 to 2 300 standard errors above 0 at the grid's step.
    """
    h = step
    while True:
        shifts = np.linspace(-2.0, 2.0, 9) * h
        values = np.array([cost(tau + s, rows)[0] for s in shifts])
        keep = np.isfinite(values)
        if np.count_nonzero(keep) < 5:
            return math.nan
        coef = np.polyfit(shifts[keep], values[keep], 2)
        design = np.vander(shifts[keep] / h, 3)  # in steps: well conditioned
        size = float(np.max(np.abs(values[keep])))  # J of 1e300 m²: no overflow squared
        left = (values[keep] - np.polyval(coef, shifts[keep])) / (size if size > 0 else 1.0)
        spread = float(left @ left) / (design.shape[0] - 3)
        spread *= float(np.linalg.inv(design.T @ design)[0, 0])
        if coef[0] * h**2 > _CURVED * math.sqrt(spread) * size:
            return float(2.0 * coef[0])
        h *= 0.5
        if not h >= finest:
            return math.nan


def _lag1(residuals: Float64Array) -> float:
    """Pooled lag-1 autocorrelation of residual vectors in time order, clipped to [0, 0.999]."""
    total = float(np.einsum("ni,ni->", residuals, residuals))
    if residuals.shape[0] < 3 or total == 0.0:
        return 0.0
    lagged = float(np.einsum("ni,ni->", residuals[1:], residuals[:-1]))
    return min(max(lagged / total, 0.0), 0.999)


def _contrast(
    curve: Float64Array, share: Float64Array, j0: float, sy: float
) -> tuple[float, float]:
    """Return the grid's median cost (m²) and its contrast: how far it lies above ``j0``.

    The contrast is the ratio less 1 (negative where the cost at the optimum, ``j0``,
    lies above the median: a flat, noisy curve). It is taken in ``J``; where that says
    the curve is flat (below 1, :attr:`~robot_msgs.compare.TimeOffset.flat`), in the
    share of the reference's variance left unexplained, ``J / σ_y²``, when the grid has
    it and it says the curve is not flat (its median then said as ``J`` at the
    optimum's ``σ_y²``, ``sy``). WHY not whenever the share rises more: a share that is
    flat too, only less so, timed fr2_desk_ORB_kf_mono with se3 over ±200 s at
    -4.44 s ± 8.4 s (share contrast 0.106 against the refusal's 0.1), where the refusal
    said that a scale fitted times it at -0.0033 s (a review).
    WHY the share: the optimum is chosen by it, and a Sim(3) fit leaves at most
    ``σ_y²``: a reference resting but for 10 s of motion, searched ±40 s for an 8 s
    estimate of that motion, 2 mm noise, fitted its resting stretches to a median 1.8 mm
    RMS, below the 3.5 mm its motion left at the true offset (of 1.19 m: 99.999 %
    explained), and the offset was refused as one the error "hardly changes" over,
    "median -75 % above its minimum" (a review).
    """
    costs = curve[np.isfinite(curve)]
    level, top = float(median(costs)), float(costs.max())
    contrast = _ratio(level, top, j0)
    shares = share[np.isfinite(share)]
    if contrast < _FLAT_CONTRAST and shares.size and sy > 0.0:
        by_share = float(median(shares)) * sy
        other = _ratio(by_share, float(shares.max()), j0)
        if other >= _FLAT_CONTRAST:
            return by_share, other
    return level, contrast


def _ratio(level: float, top: float, j0: float) -> float:
    """``level / j0 - 1``; with ``j0 = 0``, 0 when ``top`` (the most) is 0 too, else ∞."""
    if j0 > 0.0:
        return level / j0 - 1.0
    return 0.0 if top == 0.0 else math.inf


def _motion(
    reference: PoseTrajectory, start_s: float, end_s: float, half_s: float
) -> tuple[float, slice]:
    """RMS displacement of the reference over ``half_s`` (m), and the rows it is taken over.

    Over the reference poses stamped in ``[start_s, end_s]`` (a slice: the stamps
    increase): the displacement to the pose nearest ``half_s`` later. Fewer than 3 poses
    there give NaN. WHY apart from the noise: the grid's size and the range's width need
    the motion alone, and the noise, 95 % of the time of both (5.2 of 5.6 ms on V102's
    ground truth), was computed for them and dropped, twice an estimate.
    """
    t, p = reference.stamps_s, reference.positions_xyz
    first = int(np.searchsorted(t, start_s, "left"))
    rows = slice(first, max(first, int(np.searchsorted(t, end_s, "right"))))
    n = rows.stop - rows.start
    if n < _MIN_MOTION_POSES:
        return math.nan, rows
    later = np.clip(search_sorted(t, t[rows] + half_s), 0, t.size - 1)
    step = p[later] - p[rows]
    return math.sqrt(float(np.einsum("ni,ni->", step, step)) / n), rows


def _motion_and_noise(
    reference: PoseTrajectory, start_s: float, end_s: float, half_s: float
) -> tuple[float, float, int]:
    """RMS displacement of the reference over ``half_s``, its sample noise (m), and its poses.

    :func:`_motion`, and the white-noise level over the same poses from second
    differences (``var(p[i+1] - 2 p[i] + p[i-1]) = 6 σ²`` for independent noise of ``σ``
    per pose). Fewer than 3 poses there give neither (NaN), and their count says so.
    """
    motion, rows = _motion(reference, start_s, end_s, half_s)
    n = rows.stop - rows.start
    if n < _MIN_MOTION_POSES:
        return math.nan, math.nan, n
    p = reference.positions_xyz[rows]
    second = p[2:] - 2.0 * p[1:-1] + p[:-2]
    noise = math.sqrt(float(np.einsum("ni,ni->", second, second)) / (6.0 * second.shape[0]))
    return motion, noise, n


def _too_narrow(
    reference: PoseTrajectory,
    span_s: tuple[float, float],
    half_s: float,
    motion: float,
    error: float,
) -> str | None:
    """Say that ``±half_s`` is too narrow to see the error change, or None if it is not.

    Shifting the estimate by the whole range moves the reference ``motion`` (m RMS, by
    :func:`_motion`); less than the alignment ``error`` at the best offset (m
    RMS) is lost in it. WHY: fr1_xyz's rgbdslam estimate searched over ±0.01 s (the
    reference moves 4.1 mm, the error 13.4 mm) was told that the reference "barely moves,
    or it moves so that turning it looks like a shift in time", where ±0.05 s times it.
    The motion is not said: below the reference's sampling interval it is measured to
    the next pose (one 10 ms step of fr1_xyz, 3.3 mm, for ±0.001 s; a review), an upper
    bound, which is all this test needs. The range said is the first doubling of
    ``half_s`` in which the reference moves twice the error; None if no range up to 2^40
    times wider does (then the motion is the cause).
    """
    if not motion < error:
        return None
    wide = half_s
    for _ in range(40):
        wide *= 2.0
        if _motion(reference, span_s[0], span_s[1], wide)[0] >= 2.0 * error:
            return (
                f"the range is too narrow: shifted by {half_s:g} s the reference moves less "
                f"than the alignment error; widen `offset_search_s=` (to {wide:.2g} s it "
                "moves twice the error) or give `offset_s=`"
            )
    return None


def _minima(
    cost: _Cost,
    rows: IntpArray,
    candidates: Float64Array,
    fits: Float64Array,
    *,
    share: bool,
) -> tuple[int, int | None]:
    """Return the grid point whose minimum, refined, is deepest, and the next one far from it.

    ``fits`` holds, per candidate, ``J``, its share and the poses it used (on ``rows``).
    The grid's lowest point (which may lie at an edge) and its lowest
    :data:`_REFINED_MINIMA` local minima, both of all and of those overlapping at least
    half the most poses any offset overlaps, are each refined by golden-section search
    within a step either side, to a thousandth of a step, on ``rows``, and compared by
    the share of the reference's variance left unexplained (``share``), else by ``J``.
    Of those within :data:`_AMBIGUOUS` of the deepest (as alike as the note of ambiguity
    says) the one overlapping the most poses is chosen. The second is the deepest of the
    others more than 3 steps away (``None``: none).
    WHY refined: a motion's minimum narrower than a step is missed by up to half a step
    on the grid; a noise-free lissajous 0.3 s late, searched over ±40 s (401 offsets
    0.2 s apart), left 1.5 % of the motion unexplained at the grid points 0.1 s either
    side of its true offset, and 0.05 % at +28 s, where 21 poses of 840 overlap and a
    short arc fits another: it was timed at +27.97 s (a review). Refined, the true
    offset leaves 1e-9; it shares that with offsets a period of 2π s away, where the
    curve repeats but for a shift, and fewer poses overlap.
    """
    c = np.where(np.isfinite(fits[:, int(share)]), fits[:, int(share)], np.inf)
    overlap = fits[:, 2]
    inner = np.arange(1, c.size - 1)
    local = inner[(c[inner] < c[inner - 1]) & (c[inner] <= c[inner + 1])]
    local = local[np.isfinite(c[local])]
    wide = local[overlap[local] >= 0.5 * overlap.max()]
    lowest = int(np.argmin(c))
    picks = np.unique(
        np.concatenate(
            [
                [lowest],
                *(
                    group[np.argsort(c[group], kind="stable")[:_REFINED_MINIMA]]
                    for group in (local, wide)
                ),
            ]
        )
    )
    last = candidates.size - 1
    step = float(candidates[1] - candidates[0])
    depth, poses = np.full(picks.size, np.inf), np.zeros(picks.size)
    for i, k in enumerate(picks):
        low, high = candidates[max(k - 1, 0)], candidates[min(k + 1, last)]
        tau = _golden(cost, rows, float(low), float(high), 1e-3 * step)[0]
        mse, unexplained, poses[i] = cost.unexplained(tau, rows)
        value = unexplained if share else mse
        depth[i] = value if math.isfinite(value) else np.inf
    if not np.isfinite(depth).any():
        return lowest, None
    near = depth <= _AMBIGUOUS * depth.min()
    order = np.lexsort((depth, -np.where(near, poses, -1.0)))
    best = int(picks[order[0]])
    far = sorted(
        (i for i in range(picks.size) if abs(int(picks[i]) - best) > 3 and np.isfinite(depth[i])),
        key=lambda i: float(depth[i]),
    )
    return best, (int(picks[far[0]]) if far else None)


def _refuse_repeated_stamps(reference: PoseTrajectory, estimate: PoseTrajectory) -> None:
    """Refuse trajectories whose stamps repeat (``stamps_repeat``, read with ``"all"``).

    WHY: the search interpolates the reference at the estimate's shifted stamps and steps
    by the estimate's median interval; rows sharing a stamp name no one pose there, and a
    file whose every stamp is written twice made that interval 0: `ape --repeated-stamps
    all --offset auto` ended in "a bug in robot_msgs (ZeroDivisionError ...)". As the
    interpolating ``sync`` rules, it needs one row a stamp.
    """
    for side, traj in (("reference", reference), ("estimate", estimate)):
        t = traj.stamps_s
        if bool((t[1:] <= t[:-1]).any()):
            reason = (
                f"the {side}'s stamps repeat (read with `repeated_stamps='all'`): a time "
                "offset is searched by interpolating in time, where rows at one stamp name "
                "no one pose; read with 'first' or 'last'"
            )
            msg = f"Cannot estimate a time offset: {reason}"
            raise ValidationError(msg, field="offset_auto", reason=reason)


def estimate_offset(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
) -> TimeOffset:
    """Estimate the clock offset to add to ``estimate``'s stamps to match ``reference``.

    The method, its uncertainty and its quality rules are in the module docstring.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth (already cut to the time range, as
        :func:`~robot_msgs.evaluation.prepare` does) and the trajectory under test, in
        any world frames. Neither is modified.
    settings : EvaluationSettings, optional
        The search range :attr:`~EvaluationSettings.search_range_s` (``offset_s ±
        offset_search_s``, default ±1 s around 0); ``align`` chooses the fit inside
        the cost (Sim(3) for ``sim3`` and ``scale``, else SE(3)); ``max_gap_s`` the
        longest reference gap interpolated across (with ``sync="interpolate"``; the
        estimate's gaps with ``"interpolate_estimate"``, which this search does not limit).

    Returns
    -------
    TimeOffset
        The offset, its uncertainty, the cost curve and the quality notes.

    Raises
    ------
    AssociationError
        Fewer than 10 poses overlap at every offset searched, fewer than 3 reference
        poses lie within the estimate's span at the optimum, or the cost curve is flat
        (a static reference): the message gives the spans and the motion.
    ValidationError
        A trajectory whose stamps repeat (read with ``repeated_stamps="all"``).

    Examples
    --------
    >>> t = np.arange(0.0, 20.0, 0.05)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([np.cos(t), np.sin(2 * t), 0.1 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (t.size, 1)),
    ... )
    >>> late = ref.replace(stamps_s=t + 0.25)  # stamped 0.25 s late
    >>> found = estimate_offset(ref, late, EvaluationSettings(offset_auto=True))
    >>> round(found.offset_s, 4), found.std_s < 1e-3, found.notes
    (-0.25, True, ())
    """
    settings = EvaluationSettings(offset_auto=True) if settings is None else settings
    check_inputs(reference, estimate, settings)
    _refuse_repeated_stamps(reference, estimate)
    low, high = settings.search_range_s
    if len(reference) < 2 or len(estimate) < _MIN_POSES:  # each side's need, said of it
        short = [
            f"the {side} needs at least {least}, got {n}"
            for side, least, n in (
                ("reference", 2, len(reference)), ("estimate", _MIN_POSES, len(estimate))
            )
            if n < least
        ]  # fmt: skip
        msg = f"Cannot estimate a time offset: too few poses: {'; '.join(short)}"
        raise AssociationError(msg)
    cost = _Cost(reference, estimate, settings)
    n_est = len(estimate)
    every = np.arange(n_est)
    fine_rows = every[:: max(1, -(-n_est // _FINE_POSES))]
    interval = estimate.median_step_s
    count, coarse_grid = _candidate_count(reference, estimate, low, high, interval)
    # More candidates than 401 on fewer poses: the grid costs no more (at least 400).
    coarse = max(min(_COARSE_POSES, _COARSE_POSES * _MAX_CANDIDATES // count), _MIN_COARSE_POSES)
    coarse_rows = every[:: max(1, -(-n_est // coarse))]
    candidates = np.linspace(low, high, count)
    step = float(candidates[1] - candidates[0])
    # WHY the share of the reference's variance picks the grid point: a fit over a few
    # poses leaves a small residual for that alone (10 poses of fr2_desk_ORB, 0.45 s at
    # the end of a ±200 s search, fitted to 4.7 mm against 8.1 mm at its true offset over
    # 2132, and the search then said no 10 poses overlap at any offset; a review); the
    # share of the motion left unexplained does not shrink with the poses fitted.
    fits = cost.grid(candidates, coarse_rows)
    curve, share = fits[:, 0], fits[:, 1]
    if np.isfinite(curve).any():
        best, other = _minima(
            cost, coarse_rows, candidates, fits, share=bool(np.isfinite(share).any())
        )
        bracket = candidates[max(best - 1, 0)], candidates[min(best + 1, count - 1)]
        tau = _golden(cost, fine_rows, float(bracket[0]), float(bracket[1]))[0]
        j0, n_used = cost(tau, every)
    if not np.isfinite(curve).any() or n_used < _MIN_POSES:
        msg = (
            f"Cannot estimate a time offset: fewer than {_MIN_POSES} estimate poses overlap "
            f"the reference at any offset in {low:g} .. {high:g} s (estimate "
            f"{estimate.stamps_s[0]:.6f} .. {estimate.stamps_s[-1]:.6f} s, reference "
            f"{reference.stamps_s[0]:.6f} .. {reference.stamps_s[-1]:.6f} s); widen "
            "`offset_search_s=` or give `offset_s=`"
        )
        raise AssociationError(msg)
    residuals, sy = cost.residuals(tau, every)
    level, contrast = _contrast(curve, share, j0, sy)
    half = 0.5 * (high - low)
    start, end = float(estimate.stamps_s[0] + tau), float(estimate.stamps_s[-1] + tau)
    motion, noise, inside = _motion_and_noise(reference, start, end, half)
    if inside < _MIN_MOTION_POSES:
        # WHY: a 0.1 Hz reference under a 3 s estimate was called static, "moves 0 m RMS,
        # no more than its own noise (0 m a pose)", however far it moved (a review).
        msg = (
            f"Cannot estimate a time offset: the overlap is too short: the estimate spans "
            f"{start:.6f} .. {end:.6f} s at the best offset ({tau:+.6f} s), and "
            f"{inside} reference {'pose lies' if inside == 1 else 'poses lie'} within it, "
            f"where at least "
            f"{_MIN_MOTION_POSES} are needed to tell the reference's motion from its noise; "
            "give `offset_s=`"
        )
        raise AssociationError(msg)
    if motion <= _STATIC_RATIO * math.sqrt(2.0) * noise:
        msg = (
            f"Cannot estimate a time offset: the reference is static: within {half:g} s it "
            f"moves {motion:.3g} m RMS, no more than its own noise ({noise:.3g} m a pose) "
            "allows, so its motion cannot time the estimate; give `offset_s=`"
        )
        raise AssociationError(msg)
    rise = level - j0
    if contrast >= _REFUSE_CONTRAST and rise <= _REFUSE_RISE * sy:
        # WHY: a range too narrow for the motion (±0.001 s of a lissajous, timed within
        # ±0.005 s) was said to "hardly change" at "9e+04 % above its minimum" (a review).
        msg = (
            f"Cannot estimate a time offset: over the offsets {low:g} .. {high:g} s the "
            f"alignment error rises from {math.sqrt(j0):.3g} to {math.sqrt(j0 + rise):.3g} m "
            f"RMS, under {_REFUSE_RISE:g} of the reference's spread ({math.sqrt(sy):.3g} m "
            f"RMS about its mean over {n_used} poses): the range is too narrow for the "
            "motion; widen `offset_search_s=` or give `offset_s=`"
        )
        raise AssociationError(msg)
    if contrast < _REFUSE_CONTRAST or rise <= _REFUSE_RISE * sy:
        cause = (
            f"{coarse_grid}, or give `offset_s=`"
            if coarse_grid
            else _too_narrow(reference, (start, end), half, motion, math.sqrt(j0))
            or "it barely moves, or it moves so that turning it looks like a shift in "
            "time (a circle at constant speed); its motion cannot time the estimate: give "
            "`offset_s=`"
        )
        msg = (
            "Cannot estimate a time offset: the alignment error hardly changes over the "
            f"offsets {low:g} .. {high:g} s ("
            + (
                f"median {100 * contrast:.2g} % above its minimum {math.sqrt(j0):.3g} m RMS"
                if contrast >= 0.0
                # WHY: the error at the offset chosen can lie above the median of a flat,
                # noisy curve; it was said as "median -0.97 % above its minimum" (a review).
                else f"median {-100 * contrast:.2g} % below its {math.sqrt(j0):.3g} m RMS at "
                "the best offset found"
            )
            + f", the reference {math.sqrt(sy):.3g} m RMS about its mean over {n_used} poses): "
            + cause
        )
        raise AssociationError(msg, cause=cause)
    finest = reference.median_step_s
    curvature = _curvature(cost, fine_rows, tau, step, finest)
    params = 8 if cost.with_scale else 7
    rho = _lag1(residuals)
    dof = max(3 * n_used - params, 1)
    if curvature > 0:
        std = math.sqrt(2.0 * j0 / (dof * curvature) * (1.0 + rho) / (1.0 - rho))
        std = max(
            std,
            _resolved(cost, reference, estimate, tau, curvature),
            _interpolation_bias(cost, fine_rows, tau, curvature, j0),
            *(_held_interval(side) for side in (reference, estimate)),
        )
    else:
        std = math.inf
    found = TimeOffset(
        offset_s=tau,
        std_s=std,
        search_s=(low, high),
        n_poses=n_used,
        rms_m=math.sqrt(j0),
        contrast=contrast,
        candidates_s=candidates,
        cost_rms_m=np.sqrt(curve),
    )
    notes: list[str] = []
    if found.at_edge:
        notes.append(
            f"the estimated offset {tau:+.4f} s lies at the edge of the search range "
            f"{low:g} .. {high:g} s: the true offset may lie outside; widen `offset_search_s=`"
        )
    if found.flat:
        notes.append(
            f"flat cost curve: the alignment error varies by only {100 * contrast:.0f} % over "
            "the search range, so the offset is weakly determined"
        )
    if other is not None:
        # Each minimum refined, on the same poses: a grid point is off the bottom of its
        # minimum by up to half a step, and a fast motion's true minimum 1e-6 m deep was
        # said to have a second one "2.4 m against 1.34e-06 m" (a review).
        k = other
        low2, high2 = candidates[max(k - 1, 0)], candidates[min(k + 1, count - 1)]
        tau2 = _golden(cost, fine_rows, float(low2), float(high2))[0]
        j2, share2, _ = cost.unexplained(tau2, fine_rows)
        share1 = cost.unexplained(tau, fine_rows)[1]
        deep = (
            share2 < _AMBIGUOUS * share1
            if np.isfinite(share[best])
            else j2 < _AMBIGUOUS * cost(tau, fine_rows)[0]
        )
        if deep:
            found = found.replace(second_minimum_s=tau2, second_rms_m=math.sqrt(j2))
            notes.append(found.ambiguity)
    if n_used < _LOW_SHARE * n_est:
        notes.append(
            f"little overlap: only {n_used} of the {n_est} estimate poses overlap the "
            "reference at the estimated offset"
        )
    if found.poorly_determined:
        notes.append(f"poorly determined: the uncertainty {std:.3g} s is wide for the range")
    if sy > 0 and j0 > 0.5 * sy:
        notes.append(
            f"the fit explains only {100 * (1 - j0 / sy):.0f} % of the reference's motion: "
            "check that the trajectories belong together"
        )
    return found.replace(notes=tuple(notes)) if notes else found
