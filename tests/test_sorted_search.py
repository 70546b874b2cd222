"""The law of ``search_sorted``: ``np.searchsorted``'s answer, whatever the needles."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs import sorted_search
from robot_msgs.sorted_search import search_sorted

# Edge values: signed zeros, infinities, NaN (NumPy sorts it last), ties, huge and tiny.
_EDGES = [0.0, -0.0, 1.0, -1.0, 1e308, -1e308, 5e-324, np.inf, -np.inf, np.nan, 2.5]
_VALUES = st.one_of(
    st.sampled_from(_EDGES), st.floats(allow_nan=True, allow_infinity=True, width=64)
)
_ARRAYS = st.lists(_VALUES, max_size=300).map(lambda v: np.array(v, dtype=np.float64))


@settings(max_examples=400, deadline=None)
@given(
    hay=_ARRAYS,
    keys=_ARRAYS,
    order=st.sampled_from(["sorted", "reversed", "as drawn"]),
    side=st.sampled_from(["left", "right"]),
)
def test_equals_numpy(
    hay: np.ndarray, keys: np.ndarray, order: str, side: Literal["left", "right"]
) -> None:
    hay = np.sort(hay)  # NumPy's order: NaN last
    if order != "as drawn":
        keys = np.ascontiguousarray(np.sort(keys)[:: 1 if order == "sorted" else -1])
    expected = np.searchsorted(hay, keys, side=side).tolist()
    got = search_sorted(hay, keys, side)
    assert got.dtype == np.intp
    assert got.tolist() == expected
    compiled = sorted_search._compiled
    if compiled is not None:
        out = np.empty(keys.shape[0], dtype=np.int64)
        in_order = bool(np.array_equal(np.sort(keys), keys, equal_nan=True))
        assert compiled.search(hay, keys, side == "right", out) == in_order
        if in_order:
            assert out.tolist() == expected


@pytest.mark.parametrize("side", ["left", "right"])
def test_dense_sparse_and_blocked_searches(side: Literal["left", "right"]) -> None:
    rng = np.random.default_rng(7)
    hay = np.cumsum(rng.integers(0, 3, 5000)).astype(np.float64)  # plateaus of ties
    for keys in (
        hay + 1.0,  # dense: one needle a stamp
        np.sort(rng.uniform(-5.0, hay[-1] + 5.0, 70)),  # sparse: gallops across
        hay[1000:1100],  # a block starting inside the haystack
        np.full(100, hay[-1] + 1.0),  # all past the end
        np.full(100, -1.0),  # all before the start
    ):
        expected = np.searchsorted(hay, keys, side=side)
        assert search_sorted(hay, keys, side).tolist() == expected.tolist()


def test_the_compiled_merge_is_used_for_sorted_needles() -> None:
    """With the C module built (CI builds it), sorted float64 needles go to it."""
    compiled = sorted_search._compiled
    if compiled is None:
        pytest.skip("built without a C compiler: NumPy answers")
    hay = np.arange(100.0)
    out = np.empty(80, dtype=np.int64)
    assert compiled.search(hay, np.arange(80.0) + 0.5, True, out)
    assert out.tolist() == list(range(1, 81))
    # Needles out of order are reported, not answered wrongly.
    assert not compiled.search(hay, np.arange(80.0)[::-1].copy(), False, out)


def test_other_dtypes_and_shapes_are_numpys() -> None:
    hay = np.arange(10)
    assert search_sorted(hay, np.arange(100) % 10).tolist() == (np.arange(100) % 10).tolist()
    assert search_sorted([0.0, 1.0], 0.5).tolist() == 1
    big_endian = np.arange(100.0).astype(">f8")
    assert search_sorted(big_endian, big_endian, "right").tolist() == list(range(1, 101))


@pytest.mark.parametrize("side", ["RIGHT", "r", "", None])
def test_a_side_numpy_refuses_is_refused_on_every_road(side: object) -> None:
    """NumPy takes only "left" and "right"; 100 sorted float64 needles (the compiled
    road's case) were answered as "left" for any other ``side``, where 3 needles (NumPy's
    road) raised."""
    hay = np.arange(100.0)
    with pytest.raises((ValueError, TypeError)) as numpy_refusal:
        np.searchsorted(hay, hay[:3], side=side)  # type: ignore[call-overload]
    for keys in (hay[:3], hay):
        with pytest.raises(type(numpy_refusal.value), match="search side must"):
            search_sorted(hay, keys, side)  # type: ignore[arg-type]


# Stamps as trajectories have them: strictly increasing, finite; steps drawn from a few
# values so that ties in distance (a stamp midway between two) and shared partners occur.
_STEPS = st.lists(st.sampled_from([0.05, 0.1, 0.1, 0.25, 1.0, 1e-9, 3.0]), max_size=120)


def _stamps(start: float, steps: list[float]) -> np.ndarray:
    return start + np.cumsum(np.array([0.0, *steps], dtype=np.float64))


@settings(max_examples=500, deadline=None)
@given(
    near_steps=_STEPS,
    far_steps=_STEPS,
    near_start=st.sampled_from([0.0, -0.05, 0.125, 1e9, 1.305e9]),
    far_start=st.sampled_from([0.0, 0.05, 1e9, 1.305e9 + 0.02]),
    max_diff=st.sampled_from([0.0, 0.01, 0.02, 0.05, 0.125, 1.0, np.inf]),
)
def test_the_merged_nearest_rule_equals_the_numpy_rule(
    near_steps: list[float],
    far_steps: list[float],
    near_start: float,
    far_start: float,
    max_diff: float,
) -> None:
    """The compiled merge gives the pairs of the vectorised rule, tie for tie."""
    from robot_msgs.evaluation.stamp_matching import _nearest_rows

    if sorted_search._compiled is None:
        pytest.skip("robot_msgs._sorted was not built")
    near, far = _stamps(near_start, near_steps), _stamps(far_start, far_steps)
    merged = sorted_search.nearest_partners(near, far, max_diff)
    assert merged is not None
    expected = _nearest_rows(near, far, max_diff)
    assert [merged[0].tolist(), merged[1].tolist(), merged[2]] == [
        expected[0].tolist(),
        expected[1].tolist(),
        expected[2],
    ]
    assert merged[0].dtype == merged[1].dtype == np.intp


def test_the_nearest_rule_by_hand() -> None:
    """Two stamps claim 1.0 (0.9 and 1.05: the nearer stays); 3.0 is out of reach."""
    near, far = np.array([0.0, 0.9, 1.05, 3.0]), np.array([0.0, 1.0])
    merged = sorted_search.nearest_partners(near, far, 0.2)
    from robot_msgs.evaluation.stamp_matching import _nearest_rows

    for rows in (merged, _nearest_rows(near, far, 0.2)):
        if rows is not None:
            assert (rows[0].tolist(), rows[1].tolist(), rows[2]) == ([0, 2], [0, 1], 1)
