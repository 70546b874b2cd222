"""``ErrorStats``: the summary of one error signal, and :func:`error_stats` that computes it."""

from __future__ import annotations

import contextlib
import math
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.msg import Msg, message
from robot_msgs.msg.primitives import Count, MissingFloat
from robot_msgs.series import check_series

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.typing import Float64Array

__all__ = [
    "INTEGRAL_STATISTICS",
    "PUBLISHED_STATISTICS",
    "SIGNED_STATISTICS",
    "ErrorStats",
    "error_stats",
    "median",
    "percentile",
    "rank_value",
    "statistic_unit",
]

#: :class:`ErrorStats` fields that keep the error's sign (the others are magnitudes or a count).
SIGNED_STATISTICS: tuple[str, ...] = ("mean", "median", "min", "max", "final")
#: :class:`ErrorStats` fields that integrate over time: NaN without a time axis, or
#: without two finite samples at consecutive times.
INTEGRAL_STATISTICS: tuple[str, ...] = ("iae", "ise", "itae")
#: The statistic a metric's own publications quote, where it is not the rms: the KITTI
#: devkit's figures are means over all segments. A command's table leads with it and
#: ``res`` ranks by it (written once: the two had each their own copy).
PUBLISHED_STATISTICS: Mapping[str, str] = MappingProxyType({"kitti_drift": "mean"})


@message("compare/ErrorStats")
class ErrorStats(Msg):
    """Summary of one error signal over its finite samples, in the signal's own SI unit.

    `mean`, `median`, `min`, `max` and `final` keep the error's sign; `rms`, `max_abs` and
    `p95_abs` are of its magnitude. Missing data is NaN with ``n == 0``, never 0. With
    ``n > 0`` every one is a finite number (:func:`error_stats` keeps `rms` finite where
    the squares of the samples are not); an `rms` of inf, as results saved before gave
    for samples beyond 1e154, is read.

    WHY this set: evo's rmse / mean / median / std / min / max (the SLAM-evaluation
    standard), plus what tracking needs on top: the worst magnitude, a p95 that ignores a
    single glitch sample, and `final`, the error left when the motion ends.

    `iae`, `ise` and `itae` are the control-loop integral criteria (∫|e|, ∫e², ∫(t - t₀)|e|, in
    the signal's unit × s, unit² × s and unit × s²): trapezoids over the intervals whose both ends
    were observed. They are NaN without a time axis.

    WHY NaN by default: a series given without its time axis has no integral, and data
    serialised before these fields existed still loads.

    Attributes
    ----------
    n : int
        The finite samples summarised; 0: no data, and every other field is then NaN;
        1: ``min == max == mean == median == final``, ``std == 0``, ``p95_abs ==
        max_abs`` and the integrals NaN.
    rms : float, the signal's unit
        Root mean square, ``sqrt(mean(e²))``: of the error's magnitude, >= 0.
    mean : float, the signal's unit
        Mean, keeping the error's sign.
    median : float, the signal's unit
        Median, keeping the error's sign.
    std : float, the signal's unit
        Population standard deviation (ddof 0, as evo's), >= 0; ``-0.0`` is stored as
        ``0.0``, as in every magnitude.
    min : float, the signal's unit
        The smallest sample, keeping the error's sign.
    max : float, the signal's unit
        The largest sample, keeping the error's sign.
    max_abs : float, the signal's unit
        The worst magnitude, ``max(|min|, |max|)``.
    p95_abs : float, the signal's unit
        95th percentile of the magnitude (linear interpolation): the worst magnitude
        ignoring a single glitch sample; at most ``max_abs``.
    final : float, the signal's unit
        The last finite sample, keeping the error's sign: the error left when the motion
        ends.
    iae : float, the signal's unit × s
        ∫|e| dt, trapezoids over the intervals whose both ends were observed; NaN
        without a time axis or without such an interval (one sample, every other one
        missing).
    ise : float, the signal's unit² × s
        ∫e² dt, trapezoids and NaN as for ``iae``.
    itae : float, the signal's unit × s²
        ∫max(t - t₀, 0)|e| dt, t₀ the series' first time or the step the error answers
        (``error_stats(itae_from_s=...)``: the textbook ITAE of a step response, weight 0
        before it), trapezoids and NaN as for ``iae``.
    """

    n: Count
    rms: float
    mean: float
    median: float
    std: float
    min: float
    max: float
    max_abs: float
    p95_abs: float
    final: float
    iae: MissingFloat = math.nan
    ise: MissingFloat = math.nan
    itae: MissingFloat = math.nan

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Read an integral of 0.0 over ``n <= 1`` samples as NaN: no interval, as saved before.

        Releases before d6abe9c summed no trapezoid to 0.0 where no interval had two
        finite ends; with at most one finite sample there is none, so such a 0.0 says
        only that. WHY: a result
        release 3ddaaa9 saved (one finite sample of a joint, with a time axis) loaded
        before the n=1 rules, and was then refused at its ``iae`` (a review of 25d2e9b).
        """
        n = data.get("n")
        if type(n) is not int or n > 1:
            return data
        zeros = [
            k for k in INTEGRAL_STATISTICS if type(data.get(k)) in (float, int) and data[k] == 0
        ]
        return {**data, **dict.fromkeys(zeros, math.nan)} if zeros else data

    def _validate(self) -> None:
        # WHY the attributes are read, and tested, at once: every JSON reading of a
        # comparison runs this per signal; the loops alone only find the field at fault.
        values = (
            self.rms, self.mean, self.median, self.std, self.min, self.max,
            self.max_abs, self.p95_abs, self.final,
        )  # fmt: skip
        if self.n == 0:  # the integrals too: no sample, no interval
            names = (*_SUMMARY, *INTEGRAL_STATISTICS)
            for name, value in zip(names, (*values, self.iae, self.ise, self.itae), strict=True):
                if not math.isnan(value):
                    raise self._fail(field=name, expected="NaN when n == 0", got=value)
            return
        if not all(map(math.isfinite, values)):  # one test of them all, most often passed
            self._check_finite(values)
        if (  # NaN compares False: the integrals may be absent
            self.rms < 0 or self.std < 0 or self.max_abs < 0 or self.p95_abs < 0
            or self.iae < 0 or self.ise < 0 or self.itae < 0
        ):  # fmt: skip
            name = next(n for n in (*_MAGNITUDES, *INTEGRAL_STATISTICS) if getattr(self, n) < 0)
            raise self._fail(field=name, expected="a magnitude >= 0", got=getattr(self, name))
        if 0.0 in (  # -0.0 too: equal to 0.0, hashed alike, but said "-0.0" (a walk)
            self.rms, self.std, self.max_abs, self.p95_abs, self.iae, self.ise, self.itae
        ):  # fmt: skip
            for name in (*_MAGNITUDES, *INTEGRAL_STATISTICS):
                if getattr(self, name) == 0.0:
                    self._normalise(name, 0.0)
        if self.n == 1:
            self._check_one_sample()
        # Rules between two statistics, named by the rule broken and both its fields:
        # replace(min=0.35) was refused 'at `ErrorStats.median`', a field not changed
        if not self.min <= self.median <= self.max:
            raise self._fail_order(name="median", value=self.median)
        if not self.min <= self.final <= self.max:
            raise self._fail_order(name="final", value=self.final)
        if self.max_abs != max(abs(self.min), abs(self.max)):
            side = "min" if abs(self.min) > abs(self.max) else "max"  # the one it should be
            rule = "max_abs = max(|min|, |max|)"
            raise self._fail_rule(first=side, second="max_abs", rule=rule)
        if self.p95_abs > self.max_abs:
            raise self._fail_rule(first="p95_abs", second="max_abs", rule="p95_abs <= max_abs")
        self._check_moments()

    def _check_one_sample(self) -> None:
        """Refuse a spread in one sample's statistics: it is its min, max, mean and p95.

        ``min == max == mean`` (so ``median`` and ``final``, between them), ``std == 0``,
        ``p95_abs == max_abs``, and no integral (no interval has two finite ends). WHY: n=1
        with min 0.4 and max 0.5, or std 0.1, was taken (a walk); no single sample gives it.
        """
        if self.max != self.min:
            raise self._fail_rule(first="min", second="max", rule="min == max when n == 1")
        if self.mean != self.min:
            raise self._fail_rule(first="min", second="mean", rule="mean == min when n == 1")
        if self.std != 0.0:
            raise self._fail(field="std", expected="0 when n == 1", got=self.std)
        if self.p95_abs != self.max_abs:
            rule = "p95_abs == max_abs when n == 1"
            raise self._fail_rule(first="p95_abs", second="max_abs", rule=rule)
        for name in INTEGRAL_STATISTICS:
            if not math.isnan(getattr(self, name)):
                expected = "NaN when n == 1 (no interval has two finite ends)"
                raise self._fail(field=name, expected=expected, got=getattr(self, name))

    def _fail_order(self, name: str, value: float, slack: float = 0.0) -> ValidationError:
        """Build the refusal of ``min <= name <= max``, naming ``name`` and the bound broken."""
        if value < self.min - slack:
            return self._fail_rule(first="min", second=name, rule=f"min <= {name}")
        return self._fail_rule(first=name, second="max", rule=f"{name} <= max")

    def _check_finite(self, values: tuple[float, ...]) -> None:
        """Refuse NaN in any statistic of ``n > 0`` samples, and inf in all but ``rms``.

        They are statistics of finite samples: the order statistics (``min``, ``max``,
        ``median``, ``p95_abs``, ``max_abs``, ``final``) are samples or between two, and
        :func:`error_stats` keeps ``mean`` and ``std`` finite past float64's squares and
        sums, and ``rms`` too; an ``rms`` of inf is read, as :func:`error_stats` gave it
        for samples beyond 1e154 before it scaled them.
        """
        for name, value in zip(_SUMMARY, values, strict=True):
            if value != value:  # noqa: PLR0124 - NaN
                raise self._fail(field=name, expected=f"a number when n == {self.n}", got=value)
        for name, value in zip(_SUMMARY, values, strict=True):
            if name != "rms" and math.isinf(value):
                expected = f"a finite number when n == {self.n} (a statistic of finite samples)"
                raise self._fail(field=name, expected=expected, got=value)

    def _check_moments(self) -> None:
        """Refuse moments no samples have: min <= mean <= max, |mean|, std <= rms <= max_abs.

        Up to rounding: ``1e-9 max_abs`` (the mean of equal samples may differ from them
        in the last bit, and ``rms² = mean² + std²`` only to rounding). ``rms`` is checked
        only where the squares of the samples neither underflow nor overflow
        (``1e-150 <= max_abs <= 1e150``): beyond, ``sqrt(mean(e²))`` is 0 or inf.
        """
        slack = 1e-9 * self.max_abs
        if not self.min - slack <= self.mean <= self.max + slack:
            raise self._fail_order(name="mean", value=self.mean, slack=slack)
        if not _SQUARES_SAFE[0] <= self.max_abs <= _SQUARES_SAFE[1]:
            return
        low = max(abs(self.mean), self.std) - slack
        if not low <= self.rms <= self.max_abs + slack:
            # Named by the rule broken, both its fields: replace(std=...) was refused
            # naming rms alone, the field the caller had not changed
            if self.rms > self.max_abs + slack:
                raise self._fail_rule(first="rms", second="max_abs", rule="rms <= max_abs")
            if abs(self.mean) - slack > self.rms:
                raise self._fail_rule(first="mean", second="rms", rule="|mean| <= rms")
            rule = "std <= rms (rms² = mean² + std²)"
            raise self._fail_rule(first="std", second="rms", rule=rule)


def statistic_unit(statistic: str, unit: str) -> str:
    """Return the unit of an :class:`ErrorStats` field for a signal in ``unit``.

    ``n`` is a count; the integrals are ``unit × s``, ``unit² × s`` and ``unit × s²`` (the
    seed page); every other field is in the signal's unit. A unit of more than one
    symbol is bracketed first. WHY: the ISE of a joint velocity in rad/s was said
    ``rad/s²·s`` (rad/s, another quantity) and of an effort in N·m ``N·m²·s``, where
    the squared error is in (rad/s)² and (N·m)² (a review).

    Examples
    --------
    >>> [statistic_unit(s, "m") for s in ("rms", "n", "iae", "ise", "itae")]
    ['m', '', 'm·s', 'm²·s', 'm·s²']
    >>> statistic_unit("ise", ""), statistic_unit("ise", "rad/s"), statistic_unit("iae", "N·m")
    ('s', '(rad/s)²·s', '(N·m)·s')
    """
    if statistic == "n":
        return ""
    integral = {"iae": ("", "s"), "ise": ("²", "s"), "itae": ("", "s²")}.get(statistic)
    if integral is None:
        return unit
    power, time = integral
    if not unit:
        return time
    if not all(c.isalpha() or c in "%°" for c in unit):  # rad/s, N·m, m², m s-1
        unit = f"({unit})"
    return f"{unit}{power}·{time}"


def rank_value(stats: ErrorStats, statistic: str, *, target: float = 0.0) -> float:
    """Return what rankings order ``stats`` by, smallest best: ``statistic``'s magnitude.

    The one rule of every ranking (a sweep's, ``res``'s): an error is better the closer it
    is to zero. A statistic that keeps the sign (:data:`SIGNED_STATISTICS`) of a signed
    error (``x``, ``along_track``, ``roll_deg``...) is ranked by its magnitude: ranked as
    given, a median of -0.2 m came first, ahead of 0.05 m (a review). Of an error that is
    never negative, and of a magnitude (``rms``, ``max_abs``...), it is the statistic.
    ``target`` is what a perfect estimate scores where that is not 0 (a NEES's mean: its
    degrees of freedom, :func:`robot_msgs.evaluation.consistency.rank_target`); the
    value is then the distance from it.

    Examples
    --------
    >>> stats = error_stats(np.array([-0.2, -0.2]))
    >>> float(stats.median), rank_value(stats, "median"), rank_value(stats, "rms")
    (-0.2, 0.2, 0.2)
    >>> rank_value(error_stats(np.array([1.0, 2.0])), "mean", target=3.0)
    1.5
    """
    value = float(getattr(stats, statistic))
    if target:
        return abs(value - target)
    return abs(value) if statistic in SIGNED_STATISTICS else value


#: Magnitudes whose squares (and their mean) neither underflow nor overflow in float64.
_SQUARES_SAFE = (1e-150, 1e150)


def _rms(finite: Float64Array, max_abs: float) -> float:
    """Return ``sqrt(mean(e²))`` of finite samples whose largest magnitude is ``max_abs``.

    Finite at any magnitude, as the mean is: where the squares overflow (samples past
    about 1e154) or underflow (below 1e-150), it is the rms of the samples over a power
    of two near ``max_abs`` (an exact division), times it. Elsewhere the plain sum, as
    it always was.

    Examples
    --------
    >>> _rms(np.array([1e200, -1e200]), 1e200), _rms(np.array([-1e-200, 1e-200]), 1e-200)
    (1e+200, 1e-200)
    """
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        rms = float(np.sqrt(np.mean(finite * finite)))
        if math.isfinite(rms) and not 0.0 < max_abs < _SQUARES_SAFE[0]:
            return rms
        two = math.ldexp(1.0, math.frexp(max_abs)[1] - 1)  # max_abs / two in [1, 2)
        scaled = finite / two
        return float(np.sqrt(np.mean(scaled * scaled))) * two


#: The statistics of the samples: all NaN exactly when there are none (``n == 0``).
_SUMMARY = ("rms", "mean", "median", "std", "min", "max", "max_abs", "p95_abs", "final")
#: The statistics of the magnitude, never negative.
_MAGNITUDES = ("rms", "std", "max_abs", "p95_abs")

#: Intervals integrated at a time: the dozen temporaries of a block stay in cache, where
#: one pass over 10^7 samples held 1.1 GB of them (measured with tracemalloc).
_BLOCK = 1 << 16


def _integrals(e: Float64Array, t: Float64Array, t0: float) -> tuple[float, float, float]:
    r"""IAE, ISE and ITAE of ``e``: trapezoids over the intervals whose two ends are finite.

    .. math::

        \mathrm{IAE} = \sum_i h_i \frac{|e_i| + |e_{i+1}|}{2}, \quad
        \mathrm{ISE} = \sum_i h_i \frac{e_i^2 + e_{i+1}^2}{2}, \quad
        \mathrm{ITAE} = \sum_i h_i \frac{\tau_i |e_i| + \tau_{i+1} |e_{i+1}|}{2}

    with :math:`h_i = t_{i+1} - t_i` and :math:`\tau = \max(t - t_0, 0)`, the trapezoid rule of
    MATLAB's and NumPy's ``trapz`` applied to ``|e|``, ``e²`` and ``(t - t₀)|e|``, which is
    what users compare with. An interval with a NaN or infinite end is left out. WHY
    trapezoids of the integrands and not the exact integral of the piecewise-linear
    signal: the seed page documents the trapezoids, and the two differ where the signal
    crosses zero (``|e|``) and for ``e²``. The intervals are summed in blocks of
    ``_BLOCK``, so the temporaries stay small at 10^7 samples. With no interval whose two
    ends are finite (a sensor that gave nothing, or every other sample missing) there is
    no integral: NaN, as the seed page says missing data is, never 0 (a review: a dead
    sensor ranked best by IAE).

    An integral within float64 is finite however large the errors: where a sum of two
    ends (``|e_i| + |e_{i+1}|``, the squares, ``(t - t₀)|e|``) overflowed, it is the
    integral of ``e / 2^k`` (an exact division, ``2^k`` near ``max |e|``) times ``2^k``
    (``4^k`` for the ISE), as :func:`_rms` does. WHY: errors of 1e308 over 1 s gave an
    IAE of inf for a trapezoid of 1e308 (a review).
    """
    iae, ise, itae, counted = _summed_integrals(e, t, t0)
    if counted == 0:
        return math.nan, math.nan, math.nan
    if math.isinf(iae) or math.isinf(ise) or math.isinf(itae):
        largest = float(np.max(np.abs(e[np.isfinite(e)])))
        two = math.ldexp(1.0, math.frexp(largest)[1] - 1)  # largest / two in [1, 2)
        small = _summed_integrals(e / two, t, t0)
        iae = small[0] * two if math.isinf(iae) else iae
        ise = small[1] * two * two if math.isinf(ise) else ise
        itae = small[2] * two if math.isinf(itae) else itae
    return iae, ise, itae


def _summed_integrals(
    e: Float64Array, t: Float64Array, t0: float
) -> tuple[float, float, float, int]:
    """:func:`_integrals`' trapezoid sums, block by block, and the intervals counted."""
    iae = ise = itae = 0.0
    counted = 0
    for start in range(0, e.size - 1, _BLOCK):
        stop = min(start + _BLOCK, e.size - 1) + 1
        block = _block_integrals(e[start:stop], t[start:stop], t0)
        iae, ise, itae = iae + block[0], ise + block[1], itae + block[2]
        counted += block[3]
    return iae, ise, itae, counted


def _block_integrals(
    e: Float64Array, t: Float64Array, t0: float
) -> tuple[float, float, float, int]:
    """:func:`_integrals` over the intervals between the samples of one block, and their count."""
    finite = np.isfinite(e)
    if finite.all():
        # Every interval counts: each sample's terms made once and summed as neighbours
        # (the same products and sums as below, bit for bit), not five masked copies
        # (12.5 -> 7.3 ms at 10^6 samples, which every APE sums).
        magnitude = np.abs(e)
        h = np.diff(t)
        iae = float(np.sum(h * (magnitude[:-1] + magnitude[1:])) / 2.0)
        square = magnitude * magnitude
        ise = float(np.sum(h * (square[:-1] + square[1:])) / 2.0)
        weighted = np.maximum(t - t0, 0.0) * magnitude
        itae = float(np.sum(h * (weighted[:-1] + weighted[1:])) / 2.0)
        return iae, ise, itae, int(h.size)
    ok = finite[:-1] & finite[1:]
    a, b = np.abs(e[:-1][ok]), np.abs(e[1:][ok])
    h = np.diff(t)[ok]
    tau = np.maximum(t - t0, 0.0)
    tau_a, tau_b = tau[:-1][ok], tau[1:][ok]
    iae = float(np.sum(h * (a + b)) / 2.0)
    ise = float(np.sum(h * (a * a + b * b)) / 2.0)
    itae = float(np.sum(h * (tau_a * a + tau_b * b)) / 2.0)
    return iae, ise, itae, int(h.size)


def median(values: Float64Array) -> float:
    """Return the median of a non-empty 1-D float array of finite values, as ``numpy.median``.

    The middle value, or the mean of the two middle values (``(a + b) / 2``, which is
    what ``numpy.median``'s mean of two values computes; ``a / 2 + b / 2`` where the sum
    overflows, and numpy's is inf). For finite values: every caller passes them. Others
    are taken in ``numpy.partition``'s order (NaN last), without NumPy's NaN check: with
    a NaN, numpy's median is NaN and this one is NaN only where a middle value is one
    (3.0 for 1, NaN, 3). WHY not ``numpy.median``: its
    NaN check imports ``numpy.ma`` on first use, 5-6 ms of every command's start-up
    (measured on ``robot-msgs ape``); ``numpy.partition`` does the work.

    Examples
    --------
    >>> median(np.array([3.0, 1.0, 2.0])), median(np.array([4.0, 1.0, 3.0, 2.0]))
    (2.0, 2.5)
    >>> median(np.array([1.0, np.nan, 3.0]))  # not finite: numpy.median gives nan
    3.0
    """
    n = values.size
    return _middle(np.partition(values, n // 2 if n % 2 else (n // 2 - 1, n // 2)), n)


def _middle(part: Float64Array, n: int) -> float:
    """Return the median of ``n`` values partitioned at the middle one, or the middle two."""
    k = n // 2
    return float(part[k]) if n % 2 else _midpoint(float(part[k - 1]), float(part[k]))


def _midpoint(a: float, b: float) -> float:
    """Return ``(a + b) / 2``, numpy.median's mean of two; ``a / 2 + b / 2`` if the sum overflows.

    WHY: two finite middle values beyond 9e307 have a finite median; numpy's is inf, which
    :class:`ErrorStats` refuses (outside ``min..max``), so :func:`error_stats` failed.

    Examples
    --------
    >>> _midpoint(1.0, 2.0), _midpoint(1e308, 1e308)
    (1.5, 1e+308)
    """
    middle = (a + b) / 2.0
    return a / 2.0 + b / 2.0 if math.isinf(middle) else middle


def percentile(values: Float64Array, q: float, *, overwrite: bool = False) -> float:
    """Return the ``q``-th percentile of a non-empty 1-D array of finite values, as NumPy's.

    NumPy's default ``linear`` rule: the virtual index ``(n - 1) q / 100``, then
    ``a + (b - a) t`` between its neighbours, or ``b - (b - a)(1 - t)`` for ``t >= 0.5``;
    at the last index (``q = 100``, or one value) the maximum, as ``numpy.max`` finds it
    (-0.0 for 0.0, -0.0, where NumPy's is 0.0; equal as numbers). For finite values:
    every caller passes them. Others are taken in ``numpy.partition``'s order (NaN last),
    without NumPy's NaN check: with a NaN, NumPy's percentile is NaN and this one is NaN
    only where the rank reaches one (3.0 at ``q = 50`` for 1, 2, NaN, 4); at ``q = 100``
    inf for inf, -inf, where NumPy's is NaN (inf - inf). WHY not ``numpy.percentile``:
    its ``numpy.unique`` imports ``numpy.ma`` on first use (5-7 ms of every command's
    start-up). ``overwrite``: the caller's scratch ``values`` are partitioned in place (no
    copy; the same selection, so the same result).

    Examples
    --------
    >>> percentile(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), 95.0)
    3.8
    >>> percentile(np.array([1.0, 2.0, np.nan, 4.0]), 50.0)  # numpy.percentile gives nan
    3.0
    """
    n = values.size
    virtual = (n - 1) * (q / 100)
    if virtual >= n - 1:
        return float(np.max(values))
    low = math.floor(virtual)
    if overwrite:
        values.partition((low, low + 1))
        part = values
    else:
        part = np.partition(values, (low, low + 1))
    return _between(part, virtual)


def _between(part: Float64Array, virtual: float) -> float:
    """Return :func:`percentile`'s value at rank ``virtual`` of values partitioned around it."""
    low = math.floor(virtual)
    a, b = part[low], part[low + 1]
    t = virtual - low
    diff = b - a
    return float(b - diff * (1 - t)) if t >= 0.5 else float(a + diff * t)


def _median_and_percentile(values: Float64Array, q: float) -> tuple[float, float]:
    """:func:`median` and :func:`percentile` of ``values`` from one partition (a copy).

    The same order statistics, so the same two numbers bit for bit; one ``(N,)`` copy
    and one selection instead of two (6-8 ms of an RPE's statistics at 10^6 pairs).

    Examples
    --------
    >>> _median_and_percentile(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), 95.0)
    (2.0, 3.8)
    """
    n = values.size
    k = n // 2
    virtual = (n - 1) * (q / 100)
    top = virtual >= n - 1
    below = math.floor(virtual)
    kth = {k, k - 1} if n % 2 == 0 else {k}
    kth |= set() if top else {below, below + 1}
    part = np.partition(values, sorted(kth))
    return _middle(part, n), float(np.max(values)) if top else _between(part, virtual)


def error_stats(errors: Any, t: Any = None, *, itae_from_s: float | None = None) -> ErrorStats:
    """Summarise an error signal over its finite samples.

    Parameters
    ----------
    errors : array_like, shape (N,), float64, the signal's unit
        Signed errors; NaN or infinite samples are left out of every statistic.
    t : array_like, shape (N,), float64, seconds, optional
        Strictly increasing sample times; without them ``iae``, ``ise`` and ``itae``
        are NaN.
    itae_from_s : float, seconds, optional
        The time ``itae`` weighs the error from, ∫max(t - t₀, 0)|e| dt:
        a step the error answers (the textbook ITAE of a step response, timed from the
        step, not from the first sample); the weight is 0 before it. Default ``t[0]``.

    Returns
    -------
    ErrorStats
        ``mean``, ``median``, ``min``, ``max`` and ``final`` (the last finite sample)
        keep the sign; ``rms``, ``max_abs`` and ``p95_abs`` (linear interpolation) are of
        the magnitude, ``std`` is the population's (ddof 0). No finite sample: every
        float is NaN and ``n == 0``.

    Raises
    ------
    ValidationError
        Non-numeric input, a shape other than ``(N,)``, ``t`` of another length, or
        ``t`` not finite and strictly increasing, ``itae_from_s`` not a finite number.

    Examples
    --------
    >>> error_stats([-0.001, 0.002, 0.003])
    ErrorStats(n=3, rms=0.0021602468994692866, mean=0.0013333333333333333, median=0.002, \
std=0.0016996731711975948, min=-0.001, max=0.003, max_abs=0.003, p95_abs=0.0029, final=0.003, \
iae=nan, ise=nan, itae=nan)
    """
    e = check_series("errors", errors)
    iae = ise = itae = math.nan
    if t is not None:
        times = check_series("t", t)
        if times.shape != e.shape:
            msg = f"Expected `t` of shape {e.shape} like `errors`, got shape {times.shape}"
            raise ValidationError(msg)
        check_series("t", times, increasing=True)
        t0 = float(times[0]) if times.size else 0.0
        if itae_from_s is not None:
            given: object = itae_from_s  # from callers without a type checker, anything
            t0 = math.nan
            if isinstance(given, int | float | np.integer | np.floating) and not isinstance(
                given, bool
            ):
                with contextlib.suppress(OverflowError):  # an int past float64
                    t0 = float(given)
            if not math.isfinite(t0):
                msg = f"Expected `itae_from_s` as finite seconds, got {itae_from_s!r:.60}"
                raise ValidationError(msg)
        if e.size > 1:
            # An integral past float64 is inf, as a square is; over a span past float64 (inf
            # seconds) it is NaN where an error is 0 (inf x 0), not a warning.
            with np.errstate(over="ignore", invalid="ignore"):
                iae, ise, itae = _integrals(e, times, t0)
    mask = np.isfinite(e)
    finite = e if mask.all() else e[mask]  # no copy of a series without gaps
    n = int(finite.size)
    if n == 0:
        nan = math.nan
        return ErrorStats(
            n=0, rms=nan, mean=nan, median=nan, std=nan, min=nan, max=nan,
            max_abs=nan, p95_abs=nan, final=nan, iae=iae, ise=ise, itae=itae,
        )  # fmt: skip
    # One (N,) temporary at a time: each statistic's is freed before the next, and the
    # magnitudes, made last, are partitioned in place for the percentile.
    # Beyond 1e154 a square is inf (the rms is then scaled: _rms); beyond 9e307 a partial
    # sum of the mean may be inf, or NaN (inf - inf), where the mean is not: it is then
    # the mean of the samples over their largest magnitude, times it. The sum of e / n
    # was inf for three samples of 1.797e308 (each third rounded up; the Hypothesis law
    # below ErrorStats' finite mean found it), so the mean is also held within the
    # samples it is the mean of.
    low, high = float(np.min(finite)), float(np.max(finite))
    scale = max(abs(low), abs(high))
    rms = _rms(finite, scale)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        mean = float(np.mean(finite))
        if not math.isfinite(mean):
            mean = min(max(float(np.mean(finite / scale)), low / scale), high / scale) * scale
        std = float(np.std(finite))
    mean = min(max(mean, low), high)
    if not math.isfinite(std):  # squares or sums past float64: the std of the samples / max_abs
        std = float(np.std(finite / scale)) * scale
    if low > 0.0:  # norms, angles: the magnitudes are the values (no -0.0), one partition
        middle, p95_abs = _median_and_percentile(finite, 95.0)
        max_abs = high
    else:
        middle = median(finite)
        magnitude = np.abs(finite)
        max_abs = float(np.max(magnitude))
        p95_abs = percentile(magnitude, 95.0, overwrite=True)
        del magnitude
    return ErrorStats(
        n=n,
        rms=rms,
        mean=mean,
        median=middle,
        std=std,
        min=low,
        max=high,
        max_abs=max_abs,
        p95_abs=p95_abs,
        final=float(finite[-1]),
        iae=iae,
        ise=ise,
        itae=itae,
    )
