"""TimeOffset: validated on construction, round-trips, says itself in one line."""

from __future__ import annotations

import math

import numpy as np
import pytest

import robot_msgs
from robot_msgs.compare import TimeOffset
from robot_msgs.errors import ValidationError
from robot_msgs.msg.check import COMPILED


def offset(**changes: object) -> TimeOffset:
    values: dict[str, object] = {
        "offset_s": -0.1,
        "std_s": 0.002,
        "search_s": (-1.0, 1.0),
        "n_poses": 100,
        "rms_m": 0.01,
        "contrast": 50.0,
        "candidates_s": np.array([-0.1, 0.0]),
        "cost_rms_m": np.array([0.01, 0.05]),
    }
    return TimeOffset(**{**values, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"search_s": (1.0, -1.0)}, "search_s"),
        ({"search_s": (0.0,)}, "search_s"),
        ({"std_s": -1.0}, "std_s"),
        ({"std_s": math.nan}, "std_s"),
        ({"n_poses": -1}, "n_poses"),
    ],
)
def test_bad_values_are_refused_naming_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=rf"at `TimeOffset\.{field}`"):
        offset(**changes)


def test_an_infinite_uncertainty_is_allowed_and_round_trips() -> None:
    flat = offset(std_s=math.inf, notes=("flat cost curve",))
    assert robot_msgs.from_dict(flat.to_dict()) == flat


def test_describe_gives_the_offset_its_uncertainty_and_the_range() -> None:
    assert offset().describe() == (
        "time offset estimated: -0.1000 s ± 0.002 s (searched -1 .. 1 s, 100 poses, "
        "RMS 0.01 m at the optimum)"
    )


@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])  # +inf: no RMS measured
def test_a_negative_rms_at_the_optimum_is_refused(value: float) -> None:
    # A root mean square is >= 0: -1.0 was kept and describe() said "RMS -1 m".
    with pytest.raises(
        ValidationError,
        match=r"Expected a finite RMS >= 0 \(NaN: unknown\), .* - at `TimeOffset\.rms_m`$",
    ):
        offset(rms_m=value)
    assert offset(rms_m=0.0).rms_m == 0.0
    assert math.isnan(offset(rms_m=math.nan).rms_m)


@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])
def test_a_cost_curve_rms_below_zero_or_infinite_is_refused_naming_its_index(
    value: float,
) -> None:
    """cost_rms_m, the RMS error at each offset searched, was not checked at all: -1 m and
    +inf were kept. Each is bounded as rms_m is, named by its index; NaN (no fit at that
    offset: too few poses overlap) stays."""
    with pytest.raises(
        ValidationError,
        match=r"^Expected a finite RMS >= 0 \(NaN: unknown\), got float "
        rf"{value!r} - at `TimeOffset\.cost_rms_m\[1\]`$",
    ) as caught:
        offset(cost_rms_m=np.array([0.01, value]))
    assert caught.value.field == "TimeOffset.cost_rms_m[1]"
    kept = offset(cost_rms_m=np.array([math.nan, 0.0]))
    assert math.isnan(kept.cost_rms_m[0])
    assert kept.cost_rms_m[1] == 0.0
    many = np.full(100, 0.5)
    many[70] = -1.0  # past the short road of a few values
    many[3] = math.nan
    with pytest.raises(ValidationError, match=r"- at `TimeOffset\.cost_rms_m\[70\]`$"):
        offset(candidates_s=np.linspace(-1.0, 1.0, 100), cost_rms_m=many)


def test_an_offset_saved_before_the_second_minimum_was_kept_loads_without_one() -> None:
    """The second minimum was a note only (read back by its opening word); its offset and
    RMS are fields now, and a result saved without them loads with none (NaN)."""
    saved = offset(notes=("ambiguous: a second minimum at +0.9000 s ...",)).to_dict()
    del saved["second_minimum_s"], saved["second_rms_m"]
    loaded = robot_msgs.from_dict(saved)
    assert isinstance(loaded, TimeOffset)
    assert math.isnan(loaded.second_minimum_s)
    assert loaded.ambiguity == ""
    two = offset(second_minimum_s=0.9, second_rms_m=0.0102)
    assert robot_msgs.from_json(robot_msgs.to_json(two)) == two
    assert two.ambiguity == (
        "ambiguous: a second minimum at +0.9000 s (RMS 0.0102 m against 0.01 m); periodic "
        "motion can time the trajectories more than one way"
    )


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"second_minimum_s": 0.9}, "second_rms_m"),
        ({"second_rms_m": 0.01}, "second_minimum_s"),
        ({"second_minimum_s": math.inf, "second_rms_m": 0.01}, "second_minimum_s"),
        ({"second_minimum_s": 0.9, "second_rms_m": -1.0}, "second_rms_m"),
    ],
)
def test_a_second_minimum_without_its_rms_or_not_finite_is_refused(
    changes: dict[str, object], field: str
) -> None:
    with pytest.raises(
        ValidationError, match=rf"^Expected a finite .* - at `TimeOffset\.{field}`$"
    ):
        offset(**changes)


def five_point_curve(costs: object) -> TimeOffset:
    """A fit at 0 s over the candidates -1, -0.5, 0, 0.5, 1 s with these costs."""
    return offset(
        offset_s=0.0,
        std_s=0.001,
        n_poses=10,
        rms_m=0.1,
        contrast=1.0,
        candidates_s=np.array([-1.0, -0.5, 0.0, 0.5, 1.0]),
        cost_rms_m=costs,
    )


@pytest.mark.skipif(COMPILED is None, reason="built without the compiled tests")
def test_a_cost_curve_with_nan_at_its_ends_is_tested_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    # NaN where too few poses overlap took NumPy's five passes, 5 us more than one without
    costs = np.array([math.nan, 0.2, 0.1, 0.2, math.nan])

    def numpy_road(*args: object) -> None:
        msg = "NumPy's road"
        raise AssertionError(msg)

    monkeypatch.setattr(np, "isnan", numpy_road)
    assert five_point_curve(costs).cost_rms_m[2] == 0.1


@pytest.mark.parametrize(("bad", "index"), [(-1.0, 2), (math.inf, 3)])
def test_a_cost_curve_with_nan_still_refuses_a_bad_cost(bad: float, index: int) -> None:
    costs = np.array([math.nan, 0.2, 0.1, 0.2, math.nan])
    costs[index] = bad
    with pytest.raises(ValidationError, match=rf"`TimeOffset\.cost_rms_m\[{index}\]`"):
        five_point_curve(costs)
