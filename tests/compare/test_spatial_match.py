"""SpatialMatch: validated on construction, round-trips with NaN distances and no tolerance."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import robot_msgs
from robot_msgs.compare import SpatialMatch
from robot_msgs.errors import ValidationError


def match(**changes: object) -> SpatialMatch:
    values: dict[str, object] = {
        "reference_index": np.array([0, 4]),
        "estimate_index": np.array([0, 2]),
        "distance_m": np.array([0.01, 0.02]),
        "nearest_index": np.array([0, 4, 4, -1]),
        "nearest_distance_m": np.array([0.01, 0.03, 0.02, math.nan]),
        "n_reference": 5,
        "n_estimate": 4,
        "n_within": 3,
        "offset_s": -1000.0,
        "offset_spread_s": 0.01,
        "n_shared": 1,
    }
    return SpatialMatch(**{**values, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"reference_index": np.array([4, 0])}, "reference_index"),
        ({"estimate_index": np.array([2, 2])}, "estimate_index"),
        (
            {"nearest_index": np.array([0, 4, 4]), "nearest_distance_m": np.zeros(3)},
            "nearest_index",
        ),
        ({"max_distance_m": 0.0}, "max_distance_m"),
        ({"max_distance_m": math.inf}, "max_distance_m"),
        ({"distance_m": np.array([-0.01, 0.02])}, "distance_m"),
        ({"distance_m": np.array([math.nan, 0.02])}, "distance_m"),  # a pair has a distance
        ({"distance_m": np.array([-math.inf, 0.02])}, "distance_m"),
        ({"n_backward": -1}, "n_backward"),
    ],
)
def test_bad_values_are_refused_naming_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=rf"at `SpatialMatch\.{field}`"):
        match(**changes)


def test_an_infinite_pair_distance_is_kept() -> None:
    assert match(distance_m=np.array([math.inf, 0.02])).distance_m[0] == math.inf


def test_round_trips_with_nan_distances_and_without_a_tolerance() -> None:
    m = match()
    assert m.max_distance_m is None
    assert m.n_matched == 2
    assert robot_msgs.from_dict(m.to_dict()) == m
    assert robot_msgs.from_json(robot_msgs.to_json(m)) == m
    with_limit = match(max_distance_m=0.05)
    assert robot_msgs.from_json(robot_msgs.to_json(with_limit)) == with_limit
    assert with_limit != m


def test_trajectopys_rule_keeps_estimate_rows_that_run_backwards_but_distinct() -> None:
    # "first": pairs in reference order, the estimate's rows as trajectopy keeps them.
    first = match(estimate_index=np.array([2, 0]), spatial_pairs="first")
    assert first.estimate_index.tolist() == [2, 0]
    assert robot_msgs.from_json(robot_msgs.to_json(first)) == first
    with pytest.raises(
        ValidationError, match=r"distinct rows .* at `SpatialMatch\.estimate_index`"
    ):
        match(estimate_index=np.array([2, 2]), spatial_pairs="first")
    with pytest.raises(ValidationError, match=r"at `SpatialMatch\.reference_index`"):
        match(reference_index=np.array([4, 0]), spatial_pairs="first")
    with pytest.raises(
        ValidationError, match=r"strictly increasing .* `SpatialMatch\.estimate_index`"
    ):
        match(estimate_index=np.array([2, 0]))
    with pytest.raises(ValidationError, match=r"at `SpatialMatch\.spatial_pairs`"):
        match(spatial_pairs="closest")


@pytest.mark.parametrize("rows", [3, 100])  # a few rows, and more than the list test takes
def test_rows_must_increase_and_distances_be_at_least_zero_at_any_size(rows: int) -> None:
    n = 2 * rows
    base: dict[str, Any] = {
        "reference_index": np.arange(rows) * 2,
        "estimate_index": np.arange(rows),
        "distance_m": np.full(rows, 0.01),
        "nearest_index": np.zeros(n, dtype=np.int64),
        "nearest_distance_m": np.zeros(n),
        "n_estimate": n,
    }
    assert match(**base).n_matched == rows
    repeated = base["reference_index"].copy()
    repeated[-1] = repeated[-2]  # the last row twice: not strictly increasing
    with pytest.raises(
        ValidationError, match=r"strictly increasing .* `SpatialMatch\.reference_index`"
    ):
        match(**{**base, "reference_index": repeated})
    for bad in (math.nan, -1e-9):
        distances = base["distance_m"].copy()
        distances[-1] = bad
        with pytest.raises(ValidationError, match=r"`SpatialMatch\.distance_m`"):
            match(**{**base, "distance_m": distances})
