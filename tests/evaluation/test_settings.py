"""EvaluationSettings and PairSettings: one spelling, validated once, recorded structured."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import robot_msgs
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation import EvaluationSettings, PairSettings


@pytest.mark.parametrize(
    ("kwargs", "field", "match"),
    [
        (
            {"align": "affine"},
            "align",
            r"Expected one of 'none', 'se3', 'sim3', 'scale', 'posyaw', ",
        ),
        ({"sync": "closest"}, "sync", r"Expected one of 'nearest', 'one_to_one', 'interpolate'"),
        ({"align": "se3", "n_align": 0}, "n_align", r"Expected int >= 1, got int 0"),
        ({"align": "se3", "n_align": 2.5}, "n_align", r"Expected int, got float 2\.5"),
        (
            {"align": "se3", "n_align": 5, "align_window_s": (0.0, 1.0)},
            "align_window_s",
            r"a window or the first N poses, not both",
        ),
        ({"align": "se3", "align_window_s": (3.0, 1.0)}, "align_window_s", r"start <= end"),
        ({"align": "se3", "align_window_s": (1.0,)}, "align_window_s", r"of length 2\.\.2"),
        ({"n_align": 10}, "n_align", r"an alignment method to fit on these poses \(`align='se3'`"),
        ({"align_window_s": (0.0, 1.0)}, "align_window_s", r"\.\.\.\), not `align='none'`"),
        ({"max_diff_s": -0.001}, "max_diff_s", r"Expected float >= 0, got float -0\.001"),
        (
            {"sync": "one-to-one", "max_diff_s": 0.0},
            "max_diff_s",
            r"more than 0 with `sync='one_to_one'`: it keeps pairs strictly closer than `max_diff",
        ),
        ({"max_diff_s": math.inf}, "max_diff_s", r"Expected finite numbers, got float inf"),
        ({"offset_s": math.nan}, "offset_s", r"Expected finite numbers, got float nan"),
        ({"sync": "interpolate", "max_gap_s": -1.0}, "max_gap_s", r"Expected float > 0"),
        (
            {"sync": "spatial", "max_gap_s": 1.0},
            "max_gap_s",
            r"or `sync='interpolate_estimate'` \(only they bridge gaps; `sync='spatial'` does not\)",
        ),
        (
            {"sync": "interpolate_longer", "max_gap_s": 1.0},
            "max_gap_s",
            r"only they limit the gaps bridged; `sync='interpolate_longer'` bridges any",
        ),
        (
            {"max_distance_m": 1.0},
            "max_distance_m",
            r"`sync='spatial'` \(the distance of a spatial match; `sync='nearest'` matches in",
        ),
        (
            {"offset_search_s": 1.0},
            "offset_search_s",
            r"Expected `offset_auto=True`: the range of the offset search",
        ),
        (
            {"sync": "spatial", "spatial_pairs": "closest"},
            "spatial_pairs",
            r"Expected one of 'path'",
        ),
        (
            {"spatial_pairs": "first"},
            "spatial_pairs",
            r"`sync='spatial'` \(it chooses the pairs of a spatial match; `sync='nearest'` matches",
        ),
        (
            {"sync": "spatial", "spatial_pairs": "first", "transform_right_auto": True},
            "spatial_pairs",
            r"`spatial_pairs='path'` to estimate the right transform \(`transform_right_auto=True`\)",
        ),
        ({"t_start_s": math.inf}, "t_start_s", r"Expected finite numbers"),
        ({"t_start_s": 5.0, "t_end_s": 4.0}, "t_end_s", r"an end at or after the start \(5\.0 s\)"),
    ],
)
def test_bad_settings_raise_naming_the_field(
    kwargs: dict[str, Any], field: str, match: str
) -> None:
    with pytest.raises(ValidationError, match=match) as caught:
        EvaluationSettings(**kwargs)
    assert caught.value.field == f"EvaluationSettings.{field}"
    assert f"at `EvaluationSettings.{field}`" in str(caught.value)


@pytest.mark.parametrize(
    ("kwargs", "field", "match"),
    [
        ({"delta": 0.0}, "delta", r"Expected float > 0, got float 0\.0"),
        ({"delta": -1.0, "delta_unit": "m"}, "delta", r"Expected float > 0"),
        ({"delta": math.inf, "delta_unit": "m"}, "delta", r"Expected finite numbers"),
        ({"delta": 2.5}, "delta", r"a whole number of frames \(.*\), got float 2\.5"),
        ({"delta": 4.0, "delta_unit": "rad"}, "delta", r"at most 3\.14159 rad, got float 4\.0"),
        ({"delta": 181.0, "delta_unit": "deg"}, "delta", r"at most 180 deg, got float 181\.0"),
        ({"delta_unit": "km"}, "delta_unit", r"Expected one of 'f', 's', 'm', 'rad', 'deg'"),
        ({"pairs_from": "both"}, "pairs_from", r"Expected one of 'estimate', 'reference'"),
        ({"delta_tol": -0.1}, "delta_tol", r"Expected float >= 0 and < 1"),
        ({"delta_tol": 100.0}, "delta_tol", r"Expected float >= 0 and < 1, got float 100\.0"),
        ({"delta_tol": 0.2}, "delta_tol", r"Expected no tolerance \(.*this is delta_unit f\)"),
    ],
)
def test_bad_pair_settings_raise_naming_the_field(
    kwargs: dict[str, Any], field: str, match: str
) -> None:
    with pytest.raises(ValidationError, match=match) as caught:
        PairSettings(**kwargs)
    assert caught.value.field == f"PairSettings.{field}"


def test_one_to_one_is_accepted_with_a_dash_and_stored_with_an_underscore() -> None:
    assert EvaluationSettings(sync="one-to-one") == EvaluationSettings(sync="one_to_one")


def test_replace_validates_again() -> None:
    settings = EvaluationSettings(align="se3", n_align=5)
    with pytest.raises(ValidationError, match=r"to fit on these poses .*, not `align='none'`"):
        settings.replace(align="none")


def test_record_is_structured_and_round_trips() -> None:
    settings = EvaluationSettings(align="se3", align_window_s=(1.0, 2.5), t_end_s=9.0)
    record = settings.record()
    assert record["align_window_s"] == (1.0, 2.5)  # a tuple, not "1.0..2.5"
    assert json.loads(json.dumps(record))["align_window_s"] == [1.0, 2.5]
    assert EvaluationSettings.from_record(json.loads(json.dumps(record))) == settings


def test_settings_are_messages_that_load_back_from_their_dict() -> None:
    for value in (EvaluationSettings(sync="interpolate", max_gap_s=0.5), PairSettings(delta=2.0)):
        assert robot_msgs.from_dict(json.loads(json.dumps(value.to_dict()))) == value


def test_options_decode_toml_values_and_name_file_and_key() -> None:
    options = {"align": "sim3", "align_window_s": [0, 10], "max_diff_s": 1}
    settings = EvaluationSettings.from_options(options, where="runs.toml [settings]")
    assert settings.align_window_s == (0.0, 10.0)
    assert settings.max_diff_s == 1.0
    with pytest.raises(FormatError, match=r"runs\.toml \[settings\]: unknown key `alignment`"):
        EvaluationSettings.from_options({"alignment": "se3"}, where="runs.toml [settings]")
    with pytest.raises(
        FormatError, match=r"runs\.toml \[settings\]: `max_diff_s`: expected float >= 0"
    ):
        EvaluationSettings.from_options({"max_diff_s": -1}, where="runs.toml [settings]")


def test_pair_labels_name_the_delta() -> None:
    assert PairSettings(delta=1.0, delta_unit="s", all_pairs=True).label() == "1s:all"
    assert PairSettings(delta=10, delta_unit="f").label() == "10f"
