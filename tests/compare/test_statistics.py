"""error_stats: the seed page's example, hand-computed values and properties."""

from __future__ import annotations

import json
import math
import pickle
import re
import sys
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from robot_msgs.compare import Comparison, ErrorStats, Signal, error_stats
from robot_msgs.errors import ValidationError
from robot_msgs.msg.base import _rebuild
from robot_msgs.msg.json import decode_json

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array
    from tests.conftest import SeedExample


def test_seed_example_repr_is_exact(seed_error_stats: SeedExample) -> None:
    assert repr(error_stats([-0.001, 0.002, 0.003])) == seed_error_stats.repr


def test_seed_example_json_is_exact(seed_error_stats: SeedExample) -> None:
    assert (
        json.dumps(error_stats([-0.001, 0.002, 0.003]).to_dict(), indent=2) == seed_error_stats.json
    )


def test_no_finite_sample_gives_nan_and_zero_count() -> None:
    s = error_stats([math.nan, math.inf])
    assert s.n == 0
    for name in ("rms", "mean", "median", "std", "min", "max", "max_abs", "p95_abs", "final"):
        assert math.isnan(getattr(s, name)), name


def test_final_is_last_finite_sample_and_sign_is_kept() -> None:
    s = error_stats([1.0, -2.0, math.nan])
    assert s.final == -2.0
    assert s.min == -2.0
    assert s.max_abs == 2.0
    assert s.n == 2


def test_integrals_hand_computed() -> None:
    # Trapezoids, by hand: e = [1, -1, 2] at t = [0, 1, 3] (h = 1, 2; t0 = 0).
    s = error_stats([1.0, -1.0, 2.0], t=[0.0, 1.0, 3.0])
    assert s.iae == 1 * (1 + 1) / 2 + 2 * (1 + 2) / 2  # 4.0
    assert s.ise == 1 * (1 + 1) / 2 + 2 * (1 + 4) / 2  # 6.0
    # (t - t0)|e| = [0, 1, 6]: 1 * (0 + 1) / 2 + 2 * (1 + 6) / 2
    assert s.itae == 0.5 + 7.0


def test_itae_from_a_step_weighs_by_the_time_since_it_and_not_before_it() -> None:
    """By hand: e = [2, 1, -1, 2] at t = [0, 1, 2, 4], timed from a step at 1 s: weights
    max(t - 1, 0) = [0, 0, 1, 3], so (t - 1)|e| = [0, 0, 1, 6] and ITAE = 1 * (0 + 0) / 2
    + 1 * (0 + 1) / 2 + 2 * (1 + 6) / 2 = 7.5; IAE and ISE do not change. Timed from the
    first sample it is 1 * (0 + 1) / 2 + 1 * (1 + 2) / 2 + 2 * (2 + 8) / 2 = 12. Over more
    than one block (the block origin is the given time, not the block's first)."""
    e, t = [2.0, 1.0, -1.0, 2.0], [0.0, 1.0, 2.0, 4.0]
    s = error_stats(e, t=t, itae_from_s=1.0)
    assert (s.iae, s.ise, s.itae) == (1.5 + 1.0 + 3.0, 2.5 + 1.0 + 5.0, 7.5)
    assert error_stats(e, t=t).itae == error_stats(e, t=t, itae_from_s=0.0).itae == 12.0
    n = 3 * (1 << 16) + 5
    tt = np.arange(n) * 1e-3
    ee = np.exp(-tt)
    many = error_stats(ee, t=tt, itae_from_s=100.0)
    w = np.maximum(tt - 100.0, 0.0) * ee
    assert many.itae == pytest.approx(np.trapezoid(w, tt), rel=1e-12)
    for bad in (math.nan, math.inf, "1", True, 10**400):
        with pytest.raises(ValidationError, match="Expected `itae_from_s` as finite seconds"):
            error_stats(e, t=t, itae_from_s=bad)  # type: ignore[arg-type]


def test_integral_across_zero_crossing_is_the_trapezoid_not_the_exact_area() -> None:
    # e from -1 to 1 over one second: the trapezoid of |e| is 1 (the exact area of the
    # piecewise-linear |e| would be 0.5), of e² 1 (exact 1/3), of t|e| 0.5 (exact 1/4).
    s = error_stats([-1.0, 1.0], t=[0.0, 1.0])
    assert (s.iae, s.ise, s.itae) == (1.0, 1.0, 0.5)


def test_integrals_skip_intervals_with_a_missing_end() -> None:
    s = error_stats([1.0, math.nan, 1.0, 1.0], t=[0.0, 1.0, 2.0, 3.0])
    assert s.iae == 1.0  # only [2, 3] has two finite ends
    assert s.itae == (2.0 + 3.0) / 2  # trapezoid of t|e| on [2, 3], t from t[0] = 0


@settings(deadline=None)
@given(
    st.lists(st.floats(0.01, 10.0), min_size=2, max_size=50),
    st.lists(st.floats(-100.0, 100.0), min_size=2, max_size=50),
)
def test_integrals_equal_numpy_trapezoid(steps: list[float], values: list[float]) -> None:
    """NumPy's trapezoid rule (``np.trapezoid``, formerly ``trapz``) is the reference."""
    n = min(len(steps), len(values))
    t = np.concatenate([[0.0], np.cumsum(steps[: n - 1])])
    e = np.asarray(values[:n])
    s = error_stats(e, t)
    assert s.iae == pytest.approx(np.trapezoid(np.abs(e), t), rel=1e-12, abs=1e-12)
    assert s.ise == pytest.approx(np.trapezoid(e * e, t), rel=1e-12, abs=1e-12)
    assert s.itae == pytest.approx(np.trapezoid((t - t[0]) * np.abs(e), t), rel=1e-12, abs=1e-9)


def test_integrals_in_blocks_equal_one_pass() -> None:
    rng = np.random.default_rng(7)
    n = 3 * (1 << 16) + 5  # more than two blocks
    t = np.cumsum(rng.uniform(0.001, 0.01, n))
    e = rng.normal(size=n)
    e[[10, 70000, 140000]] = math.nan
    s = error_stats(e, t)
    ok = np.isfinite(e[:-1]) & np.isfinite(e[1:])
    h = np.diff(t)[ok]
    a, b = np.abs(e[:-1][ok]), np.abs(e[1:][ok])
    assert s.iae == pytest.approx(float(np.sum(h * (a + b)) / 2), rel=1e-12)
    assert s.ise == pytest.approx(float(np.sum(h * (a * a + b * b)) / 2), rel=1e-12)


def test_integrals_are_nan_without_time_axis() -> None:
    s = error_stats([1.0, 2.0])
    assert math.isnan(s.iae)
    assert math.isnan(s.ise)
    assert math.isnan(s.itae)


@pytest.mark.parametrize(
    ("errors", "t", "match"),
    [
        ([1.0, 2.0], [0.0], r"Expected `t` of shape \(2,\)"),
        ([1.0, 2.0], [1.0, 1.0], r"strictly increasing, got t\[1\] = 1.0"),
        ([1.0, 2.0], [0.0, math.nan], r"strictly increasing, got t\[1\] = nan"),
        (["a", "b"], None, r"Expected `errors` as numbers"),
        ([[1.0, 2.0]], None, r"Expected `errors` of shape \(N,\)"),
    ],
)
def test_bad_input_raises(
    errors: list[float] | list[str] | list[list[float]], t: list[float] | None, match: str
) -> None:
    with pytest.raises(ValidationError, match=match):
        error_stats(errors, t)


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(arrays(np.float64, st.integers(1, 60), elements=finite))
def test_rms_squared_is_mean_squared_plus_variance(e: Float64Array) -> None:
    s = error_stats(e)
    assert s.rms**2 == pytest.approx(s.mean**2 + s.std**2, rel=1e-9, abs=1e-9)


@given(arrays(np.float64, st.integers(1, 60), elements=finite))
def test_order_statistics_are_ordered(e: Float64Array) -> None:
    s = error_stats(e)
    assert s.min <= s.median <= s.max
    assert s.p95_abs <= s.max_abs
    assert s.max_abs == max(abs(s.min), abs(s.max))


@given(
    arrays(np.float64, st.integers(1, 40), elements=finite),
    st.lists(st.integers(0, 39), max_size=10),
)
def test_nan_samples_are_ignored(e: Float64Array, holes: list[int]) -> None:
    with_nan = np.insert(e, [h % (len(e) + 1) for h in holes], math.nan)
    assert error_stats(with_nan) == error_stats(e).replace(final=error_stats(with_nan).final)
    assert error_stats(with_nan).n == len(e)


def test_error_stats_type_is_importable_as_documented() -> None:
    from robot_msgs.compare import ErrorStats as Documented

    assert Documented is ErrorStats


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=40))
def test_median_is_numpys_median_bit_for_bit(values: list[float]) -> None:
    from robot_msgs.compare.statistics import median

    array = np.asarray(values, dtype=np.float64)
    assert median(array) == float(np.median(array))


def test_non_finite_values_are_not_numpys_as_the_docstrings_say() -> None:
    """median and percentile said "exactly as numpy" for any input; they are NumPy's for
    finite values (every caller's), and each difference their docstrings name is this."""
    from robot_msgs.compare.statistics import median, percentile

    nan = np.array([1.0, np.nan, 3.0])
    assert median(nan) == 3.0
    assert np.isnan(np.median(nan))
    gap = np.array([1.0, 2.0, np.nan, 4.0])
    assert percentile(gap, 50.0) == 3.0
    assert np.isnan(np.percentile(gap, 50.0))
    both = np.array([np.inf, -np.inf])
    assert percentile(both, 100.0) == np.inf
    with np.errstate(invalid="ignore"):
        assert np.isnan(np.percentile(both, 100.0))  # inf - inf


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(0.0, 1e6, allow_nan=False), min_size=1, max_size=60),
    st.sampled_from([0.0, 5.0, 50.0, 95.0, 99.0, 100.0]),
)
def test_percentile_is_numpys_linear_percentile_bit_for_bit(values: list[float], q: float) -> None:
    from robot_msgs.compare.statistics import percentile

    array = np.asarray(values, dtype=np.float64)
    assert percentile(array, q) == float(np.percentile(array, q))
    scratch = array.copy()  # partitioned in place: the same selection, the same number
    assert percentile(scratch, q, overwrite=True) == float(np.percentile(array, q))
    assert sorted(scratch.tolist()) == sorted(values)


_VALID = {
    "n": 3, "rms": 0.5, "mean": 0.2, "median": 0.3, "std": 0.4, "min": -0.5,
    "max": 0.6, "max_abs": 0.6, "p95_abs": 0.59, "final": 0.6,
}  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"n": 0}, "rms"),  # a count of zero with numbers in it
        ({"rms": math.nan}, "rms"),  # samples, yet no statistic
        ({"rms": -0.5}, "rms"),
        ({"std": -0.1}, "std"),
        ({"p95_abs": -0.1}, "p95_abs"),
        ({"ise": -1.0}, "ise"),
        ({"itae": -1.0, "iae": math.nan}, "itae"),  # an absent integral is no fault
        ({"mean": math.nan, "final": math.nan}, "mean"),  # the first at fault is named
        ({"final": math.nan}, "final"),
    ],
)
def test_inconsistent_error_stats_are_refused_naming_the_field(
    changes: dict[str, float], field: str
) -> None:
    with pytest.raises(ValidationError, match=rf"at `ErrorStats\.{field}`"):
        ErrorStats(**{**_VALID, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        # rms < |mean|: no samples have them (Cauchy-Schwarz); from either side
        ({"rms": 0.19}, "|mean| <= rms, got mean 0.2 and rms 0.19 - at `ErrorStats.mean` and"),
        ({"mean": 0.55, "max": 0.6}, "|mean| <= rms, got mean 0.55 and rms 0.5 - at"),
        # std > rms: rms² = mean² + std²
        (
            {"std": 0.55},
            "std <= rms (rms² = mean² + std²), got std 0.55 and rms 0.5 - at `ErrorStats.std` and",
        ),
        (
            {"rms": 0.35},
            "std <= rms (rms² = mean² + std²), got std 0.4 and rms 0.35 - at `ErrorStats.std` and",
        ),
        # above the largest magnitude
        ({"rms": 0.65}, "rms <= max_abs, got rms 0.65 and max_abs 0.6 - at `ErrorStats.rms` and"),
        # Order statistics: replace(min=0.35) was refused 'at `ErrorStats.median`', the
        # field the caller had not changed (min -0.5, median 0.3, final 0.6, max 0.6)
        ({"min": 0.35}, "min <= median, got min 0.35 and median 0.3 - at `ErrorStats.min` and"),
        ({"min": 0.7}, "min <= median, got min 0.7 and median 0.3 - at"),  # min > max too
        ({"median": 0.9}, "median <= max, got median 0.9 and max 0.6 - at `ErrorStats.median`"),
        ({"median": -0.6}, "min <= median, got min -0.5 and median -0.6 - at"),
        ({"max": 0.25}, "median <= max, got median 0.3 and max 0.25 - at `ErrorStats.median`"),
        ({"final": -0.9}, "min <= final, got min -0.5 and final -0.9 - at `ErrorStats.min` and"),
        ({"final": 0.65}, "final <= max, got final 0.65 and max 0.6 - at `ErrorStats.final` and"),
        ({"min": -0.7}, "max_abs = max(|min|, |max|), got min -0.7 and max_abs 0.6 - at"),
        ({"max_abs": 0.7}, "max_abs = max(|min|, |max|), got max 0.6 and max_abs 0.7 - at"),
        ({"p95_abs": 0.61}, "p95_abs <= max_abs, got p95_abs 0.61 and max_abs 0.6 - at"),
        ({"mean": 0.61}, "mean <= max, got mean 0.61 and max 0.6 - at `ErrorStats.mean` and"),
        ({"mean": -0.51, "rms": 0.55}, "min <= mean, got min -0.5 and mean -0.51 - at"),
    ],
)
def test_a_rule_between_two_statistics_names_both(changes: dict[str, float], said: str) -> None:
    """ErrorStats.replace(std=0.55) was refused 'at `ErrorStats.rms`': the rule std <= rms
    is broken by either, so the refusal names both, true whichever the caller changed."""
    first, second = re.findall(r"(\w+) [-\d.]+ and (\w+)", said)[0]
    with pytest.raises(ValidationError, match=re.escape(said)) as caught:
        ErrorStats(**{**_VALID, **changes})  # type: ignore[arg-type]
    assert str(caught.value).endswith(f"at `ErrorStats.{first}` and `ErrorStats.{second}`")
    with pytest.raises(ValidationError, match=re.escape(said)):
        ErrorStats(**_VALID).replace(**changes)  # type: ignore[arg-type]
    data = {**ErrorStats(**_VALID).to_dict(), **changes}  # type: ignore[arg-type]
    signal = {"_type": "compare/Signal", "name": "x", "quantity": "x", "unit": "m", "stats": data}
    placed = f"at `Signal.stats.{first}` and `Signal.stats.{second}`"
    with pytest.raises(ValidationError, match=re.escape(said[: said.index(" - at")])) as caught:
        Signal.from_dict(signal)
    assert str(caught.value).endswith(placed)


_INF = math.inf


@pytest.mark.parametrize(
    ("changes", "field"),
    [  # each otherwise consistent: an infinite sample would make them so
        ({"min": -_INF, "max_abs": _INF}, "min"),
        ({"max": _INF, "max_abs": _INF, "final": _INF}, "max"),
        ({"max": _INF, "max_abs": _INF, "median": _INF}, "median"),
        ({"max": _INF, "max_abs": _INF, "p95_abs": _INF}, "max"),
        ({"p95_abs": _INF}, "p95_abs"),
        ({"max_abs": _INF}, "max_abs"),
        ({"final": _INF}, "final"),
        ({"mean": -_INF}, "mean"),
        ({"std": _INF}, "std"),
    ],
)
def test_infinite_statistics_of_finite_samples_are_refused(
    changes: dict[str, float], field: str
) -> None:
    """min = -inf, max = inf... with n > 0 were taken, though finite samples (the seed
    page's 'over its finite samples') never give them; rms alone may overflow to inf."""
    with pytest.raises(
        ValidationError, match=rf"Expected a finite number .* at `ErrorStats\.{field}`"
    ):
        ErrorStats(**{**_VALID, **changes})  # type: ignore[arg-type]
    spelled = {**_VALID, **{k: "-Infinity" if v < 0 else "Infinity" for k, v in changes.items()}}
    with pytest.raises(ValidationError, match=rf"at `ErrorStats\.{field}`"):
        ErrorStats.from_dict(spelled)


def test_the_rms_of_samples_whose_squares_overflow_or_underflow_is_finite() -> None:
    """Samples of 1e200: their squares are inf, and so was sqrt(mean(e²)), where the mean
    and std are scaled to stay finite; samples of 1e-200 have squares flushed to 0, and
    the rms was 0 below a mean of 3.5e-200. By hand: the rms of x, x is x; of 3e-200 and
    4e-200 it is sqrt((9 + 16) / 2) e-200 = 3.5355339059327378e-200."""
    stats = error_stats([1e200, 1e200])
    assert (stats.rms, stats.mean, stats.std, stats.max) == (1e200, 1e200, 0.0, 1e200)
    assert error_stats([-1.7e308, 1.7e308]).rms == 1.7e308
    tiny = error_stats([3e-200, 4e-200])
    assert tiny.rms == pytest.approx(3.5355339059327378e-200, rel=1e-15)
    assert tiny.rms >= tiny.mean
    assert error_stats([5e-324, -5e-324]).rms == 5e-324  # the least subnormal


def test_an_rms_past_float64_is_accepted() -> None:
    """error_stats gave an rms of inf for samples of 1e200 before it scaled them: a
    result saved then still loads."""
    saved = error_stats([1e200, 1e200]).replace(rms=_INF)
    assert ErrorStats.from_dict(saved.to_dict()) == saved


def test_consistent_error_stats_are_accepted_and_empty_ones_are_all_nan() -> None:
    assert ErrorStats(**_VALID).n == 3  # type: ignore[arg-type]
    nan = math.nan
    empty = ErrorStats(
        n=0, rms=nan, mean=nan, median=nan, std=nan, min=nan, max=nan,
        max_abs=nan, p95_abs=nan, final=nan, iae=nan, ise=nan, itae=nan,
    )  # fmt: skip
    # No interval has two finite ends: no integral (it was 0.0 here, as if tracked exactly).
    assert empty == error_stats([nan, nan], t=[0.0, 1.0])


#: One sample of 0.5 m, by hand: it is its min, max, mean, median, final, rms, max_abs and p95.
_ONE = {
    "n": 1, "rms": 0.5, "mean": 0.5, "median": 0.5, "std": 0.0, "min": 0.5,
    "max": 0.5, "max_abs": 0.5, "p95_abs": 0.5, "final": 0.5,
}  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"min": 0.4}, r"min == max when n == 1, got min 0.4 and max 0.5 - at `ErrorStats\.min`"),
        ({"min": -0.5}, r"min == max when n == 1, got min -0.5 and max 0.5"),
        (
            {"mean": 0.5 + 1e-12},
            r"mean == min when n == 1, got min 0.5 and mean 0.500000000001 - at",
        ),
        ({"std": 0.1}, r"Expected 0 when n == 1, got float 0.1 - at `ErrorStats\.std`"),
        ({"p95_abs": 0.4}, r"p95_abs == max_abs when n == 1, got p95_abs 0.4 and max_abs 0.5"),
        ({"iae": 0.0}, r"Expected NaN when n == 1 .* at `ErrorStats\.iae`"),
    ],
)
def test_the_statistics_of_one_sample_have_no_spread(changes: dict[str, float], said: str) -> None:
    """n=1 with min 0.4 and max 0.5, or std 0.1, was taken: no single sample gives them."""
    assert ErrorStats(**_ONE) == error_stats([0.5])  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=said):
        ErrorStats(**{**_ONE, **changes})  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=said):
        error_stats([0.5]).replace(**changes)


#: ErrorStats as release 3ddaaa9 saved them (``to_json`` of ``error_stats`` with a time
#: axis): its integrals of no interval were 0.0.
_SAVED_3DDAAA9 = (
    (
        b'{"_type":"compare/ErrorStats","n":1,"rms":0.5,"mean":0.5,"median":0.5,"std":0.0,'
        b'"min":0.5,"max":0.5,"max_abs":0.5,"p95_abs":0.5,"final":0.5,"iae":0.0,"ise":0.0,'
        b'"itae":0.0}'
    ),
    (
        b'{"_type":"compare/ErrorStats","n":0,"rms":null,"mean":null,"median":null,'
        b'"std":null,"min":null,"max":null,"max_abs":null,"p95_abs":null,"final":null,'
        b'"iae":0.0,"ise":0.0,"itae":0.0}'
    ),
)


class _PickledBefore:
    """What a pickle of an ErrorStats of release 3ddaaa9 holds: ``_rebuild`` and the fields."""

    def __init__(self, fields: dict[str, object]) -> None:
        self.fields = {k: math.nan if v is None else v for k, v in fields.items() if k != "_type"}

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_rebuild, (ErrorStats, self.fields))


@pytest.mark.parametrize("saved", _SAVED_3DDAAA9)
def test_integrals_of_no_interval_saved_as_zero_by_earlier_releases_load_as_nan(
    saved: bytes,
) -> None:
    """A 3ddaaa9 result of one finite sample was refused at its iae (0.0, no interval)."""
    n = json.loads(saved)["n"]
    expected = error_stats([0.5, math.nan] if n else [math.nan] * 2, t=[0.0, 1.0])
    assert decode_json(saved, ErrorStats) == expected
    assert ErrorStats.from_dict(json.loads(saved)) == expected
    comparison = {
        "_type": "compare/Comparison", "metric": "tracking",
        "signals": [{"name": "j", "quantity": "j", "unit": "rad", "stats": json.loads(saved)}],
    }  # fmt: skip
    assert Comparison.from_dict(comparison).stats["j"] == expected
    assert pickle.loads(pickle.dumps(_PickledBefore(json.loads(saved)))) == expected
    assert math.isnan(ErrorStats.from_dict({**json.loads(saved), "iae": None}).iae)
    with pytest.raises(ValidationError, match=r"Expected NaN when n == \d.* at `ErrorStats\.iae`"):
        expected.replace(iae=0.0)  # built, not read: refused
    two = error_stats([0.0, 0.0]).to_dict()
    assert ErrorStats.from_dict({**two, "iae": 0.0}).iae == 0.0  # n > 1: a real 0 stays


def test_a_magnitude_of_minus_zero_is_stored_as_zero() -> None:
    """std=-0.0 was kept and said "-0.0"; it equals 0.0 and hashes alike, so it is stored so."""
    zero = error_stats([1.0, 1.0])
    minus = zero.replace(std=-0.0)
    assert math.copysign(1.0, minus.std) == 1.0
    assert "std=0.0" in repr(minus)
    assert minus == zero
    assert hash(minus) == hash(zero)
    edge = error_stats([0.0, 0.0]).replace(rms=-0.0, max_abs=-0.0, p95_abs=-0.0)
    assert [math.copysign(1.0, v) for v in (edge.rms, edge.max_abs, edge.p95_abs)] == [1.0] * 3
    assert ErrorStats.from_dict({**zero.to_dict(), "std": -0.0}).to_dict()["std"] == 0.0


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_the_statistics_of_one_sample_of_any_magnitude_are_accepted(value: float) -> None:
    """What error_stats gives for one sample (with a time axis too) keeps the n=1 rules."""
    stats = error_stats([value, math.nan], t=[0.0, 1.0])
    assert stats.n == 1
    assert stats.min == stats.max == stats.mean == stats.median == stats.final == value
    assert math.isnan(stats.iae)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(-1e200, 1e200, allow_nan=False),
            st.sampled_from([0.0, -0.0, 5e-324, 1e-300, -1e-160, 1e151, 0.1]),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_the_statistics_of_any_samples_keep_the_moments_laws(values: list[float]) -> None:
    """What :func:`error_stats` computes is never refused (rounding, underflow, overflow)."""
    stats = error_stats(values)
    assert stats.n == len(values)
    assert stats.min <= stats.median <= stats.max


def test_errors_whose_sum_overflows_have_their_finite_mean_and_median() -> None:
    """Past 9e307 a sum of two overflows; the mean and median of the samples do not.

    By hand: twenty times 1e307 has mean 1e307 (the sum, 2e308, is past float64's
    1.8e308); -1e308, 1.5e308, 1.5e308 have mean 2e308 / 3 = 6.666...e307 and median
    1.5e308; 1e308 twice has median 1e308. NumPy's sum and (a + b) / 2 give inf,
    which ErrorStats refuses (outside min..max), so error_stats raised.
    """
    assert error_stats([1e307] * 20).mean == pytest.approx(1e307, rel=1e-15)
    mixed = error_stats([-1e308, 1.5e308, 1.5e308])
    assert mixed.mean == pytest.approx(6.666666666666667e307, rel=1e-15)
    assert mixed.median == 1.5e308
    twice = error_stats([1e308, 1e308])
    assert (twice.mean, twice.median) == (1e308, 1e308)
    # partial sums inf and -inf: NumPy's mean is NaN (so its std); by hand 0 and 9e307
    wide = error_stats([9e307, 9e307, -9e307, -9e307, 0.0, 0.0, 0.0, 0.0])
    assert (wide.mean, wide.median) == (0.0, 0.0)
    assert wide.std == pytest.approx(9e307 / math.sqrt(2.0), rel=1e-15)
    # Three of float64's largest: each third rounded up summed to inf, which ErrorStats
    # now refuses as a mean (the law below found it); the mean of equal values is the value
    top = sys.float_info.max
    assert error_stats([top, top, top]).mean == top


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(allow_nan=False, allow_infinity=False),
            st.sampled_from([1e308, -1e308, 1.7976931348623157e308, 9e307, 1e-300, 0.0]),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_the_statistics_of_samples_of_any_magnitude_are_accepted(values: list[float]) -> None:
    """Up to float64's largest: what :func:`error_stats` computes is never refused."""
    stats = error_stats(values)  # ValidationError on a refusal
    assert stats.n == len(values)
    assert stats.min <= stats.median <= stats.max


def test_inconsistent_saved_error_stats_fail_to_load_naming_the_path() -> None:
    data = ErrorStats(**_VALID).to_dict()  # type: ignore[arg-type]
    data["rms"] = -1.0
    with pytest.raises(ValidationError, match=r"at `ErrorStats\.rms`"):
        ErrorStats.from_dict(data)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(0.0, 1e6, allow_nan=False), st.sampled_from([0.0, -0.0, 5e-324])),
        min_size=1,
        max_size=60,
    ),
    st.sampled_from([0.0, 5.0, 50.0, 95.0, 99.0, 100.0]),
)
def test_one_partition_gives_numpys_median_and_percentile(values: list[float], q: float) -> None:
    """Non-negative errors (norms, angles) take both statistics from one partition."""
    from robot_msgs.compare.statistics import _median_and_percentile

    array = np.asarray(values, dtype=np.float64)
    got = _median_and_percentile(array, q)
    assert got == (float(np.median(array)), float(np.percentile(array, q)))
    stats = error_stats(array)
    assert stats.median == float(np.median(array))
    # the magnitudes' statistics bit for bit, a zero's sign included (|-0.0| is 0.0)
    expected = (np.percentile(np.abs(array), 95.0), np.max(np.abs(array)))
    got_bits = np.array([stats.p95_abs, stats.max_abs]).view(np.int64)
    assert got_bits.tolist() == np.array(expected, dtype=np.float64).view(np.int64).tolist()


def test_missing_data_has_no_integral_never_zero() -> None:
    """A dead sensor (all NaN) or one that drops every other sample got IAE = ISE = ITAE =
    0.0 and ranked best by IAE (a review); the seed page: missing data is NaN, never 0."""
    t = np.arange(0.0, 10.0, 0.01)
    dead = error_stats(np.full(3, np.nan), t=np.arange(3.0))
    assert dead.n == 0
    assert all(math.isnan(v) for v in (dead.iae, dead.ise, dead.itae))
    gappy = np.full(t.size, 0.5)
    gappy[::2] = np.nan  # no interval with two finite ends
    stats = error_stats(gappy, t=t)
    assert stats.n == 500
    assert all(math.isnan(v) for v in (stats.iae, stats.ise, stats.itae))
    # One interval left: its trapezoid (0.5 m over 0.01 s).
    gappy[1:3] = 0.5
    assert error_stats(gappy, t=t).iae == pytest.approx(0.005 * 2)  # two intervals
    with pytest.raises(ValidationError, match=r"NaN when n == 0.*ErrorStats.iae"):
        dead.replace(iae=0.0)


def test_the_unit_of_each_statistic() -> None:
    from robot_msgs.compare.statistics import statistic_unit

    assert [statistic_unit(s, "m") for s in ("rms", "n", "iae", "ise", "itae", "p95_abs")] == [
        "m", "", "m·s", "m²·s", "m·s²", "m",
    ]  # fmt: skip
    assert [statistic_unit(s, "") for s in ("iae", "ise", "itae")] == ["s", "s", "s²"]


def test_the_unit_of_an_integral_of_a_compound_unit_is_bracketed() -> None:
    """The ISE of an error in rad/s is in (rad/s)²·s = rad²/s, not rad/s²·s (which is
    rad/s); of one in N·m, (N·m)²·s, not N·m²·s; of one in m², (m²)²·s."""
    from robot_msgs.compare.statistics import statistic_unit

    assert [statistic_unit(s, "rad/s") for s in ("iae", "ise", "itae", "rms")] == [
        "(rad/s)·s", "(rad/s)²·s", "(rad/s)·s²", "rad/s",
    ]  # fmt: skip
    assert statistic_unit("ise", "N·m") == "(N·m)²·s"
    assert statistic_unit("ise", "m²") == "(m²)²·s"
    assert [statistic_unit("ise", u) for u in ("deg", "%", "°")] == ["deg²·s", "%²·s", "°²·s"]


def test_integrals_past_float64_are_inf_without_a_warning() -> None:
    """The squares of 1e200 overflowed in the ISE with a RuntimeWarning (an error where
    warnings are), where the rms's overflow is silent. By hand, over one interval of 1 s:
    IAE (1e200 + 1e200) / 2 = 1e200, ISE (1e400 + 1e400) / 2 = inf, ITAE (0 + 1e200) / 2."""
    stats = error_stats([1e200, 1e200], t=[0.0, 1.0])  # filterwarnings=error: no warning
    assert stats.iae == 1e200
    assert stats.ise == math.inf
    assert stats.itae == 5e199
    gapped = error_stats([1e200, 1e200, math.nan, 1.0], t=[0.0, 1.0, 2.0, 3.0])
    assert (gapped.iae, gapped.ise) == (1e200, math.inf)


def test_integrals_over_a_span_past_float64_are_nan_without_a_warning() -> None:
    """t from -1e308 to 1e308 s: the interval is inf, and inf x 0 warned 'invalid value'
    (a review). The integral of errors 0 over an infinite span is not a number here."""
    stats = error_stats([0.0, 0.0], t=[-1e308, 1e308])  # filterwarnings=error: no warning
    assert math.isnan(stats.iae)
    assert stats.rms == 0.0


def test_integrals_within_float64_stay_finite_for_errors_past_half_its_range() -> None:
    """Errors of 1e308 over 1 s: the trapezoid (1e308 + 1e308) / 2 = 1e308, but the sum
    of the two ends overflowed and the IAE was inf. By hand (t0 = 0):"""
    stats = error_stats([1.7e308, 1.7e308], t=[0.0, 1.0])  # filterwarnings=error: no warning
    assert (stats.iae, stats.ise, stats.itae) == (1.7e308, math.inf, 8.5e307)
    # IAE 1 + 0.5, ITAE (0 + 1) / 2 + 0.5 (1 + 1.5) / 2 = 1.125, in units of 1e308
    stats = error_stats([1e308, 1e308, 1e308], t=[0.0, 1.0, 1.5])
    assert (stats.iae, stats.itae) == (1.5e308, 1.125e308)
    # ISE of 1.2e154 over 1 s: 1.44e308, where each square summed with the next overflowed
    assert error_stats([1.2e154, 1.2e154], t=[0.0, 1.0]).ise == pytest.approx(1.44e308)
    # past float64 they stay inf: 2e308
    assert error_stats([1e308, 1e308, 1e308], t=[0.0, 1.0, 2.0]).iae == math.inf


@settings(deadline=None)
@given(
    st.lists(st.floats(0.01, 10.0), min_size=3, max_size=30),
    st.lists(st.floats(-100.0, 100.0), min_size=3, max_size=30),
    st.integers(-1000, 1016),  # 100 x 2^1016 = 7e307: k e stays finite
    st.floats(-1e3, 1e3),
    st.data(),
)
def test_integral_laws_scaling_split_and_shift(
    steps: list[float], values: list[float], power: int, shift: float, data: st.DataObject
) -> None:
    """The criteria's laws: e times k scales IAE and ITAE by |k| and ISE by k² (exactly for
    k = ±2^p, up to float64's range); the integrals add over a window split at a sample,
    ITAE with the right part's IAE times its start's offset from t0; a shift of the clock
    changes none of them (t - t0 is what ITAE weighs)."""
    n = min(len(steps), len(values))
    t = np.concatenate([[0.0], np.cumsum(steps[: n - 1])])
    e = np.asarray(values[:n])
    whole = error_stats(e, t)
    k = -math.ldexp(1.0, power)
    scaled = error_stats(k * e, t)
    with np.errstate(over="ignore"):
        for got, want in (
            (scaled.iae, np.float64(whole.iae) * abs(k)),
            (scaled.ise, np.float64(whole.ise) * k * k),
            (scaled.itae, np.float64(whole.itae) * abs(k)),
        ):
            if math.isfinite(want) and abs(want) > 1e-290:  # out of subnormals: exact
                assert got == want
            elif not math.isfinite(want):
                assert got == math.inf
    b = data.draw(st.integers(1, n - 2))
    left, right = error_stats(e[: b + 1], t[: b + 1]), error_stats(e[b:], t[b:])
    assert whole.iae == pytest.approx(left.iae + right.iae, rel=1e-12, abs=1e-12)
    assert whole.ise == pytest.approx(left.ise + right.ise, rel=1e-12, abs=1e-12)
    itae = left.itae + right.itae + (t[b] - t[0]) * right.iae
    assert whole.itae == pytest.approx(itae, rel=1e-9, abs=1e-9)
    moved = error_stats(e, t + shift)
    assert moved.iae == pytest.approx(whole.iae, rel=1e-9, abs=1e-9)
    assert moved.itae == pytest.approx(whole.itae, rel=1e-9, abs=1e-6)
