"""The one settings block of a sweep: evaluations, their options, and checks."""

from __future__ import annotations

import pytest

from robot_msgs.batch.settings import Evaluation, Settings
from robot_msgs.errors import FormatError


def test_settings_default_to_ape_translation():
    s = Settings.build({})
    assert [ev.to_dict() for ev in s.evaluations] == [
        {"name": "ape:translation", "metric": "ape", "relation": "translation"}
    ]
    assert Settings() == s


@pytest.mark.parametrize(
    ("block", "match"),
    [
        (
            {"evaluate": [{"metric": "ate"}]},
            r"evaluate\[0\]: expected `metric` one of \['ape', 'rpe'\], got 'ate'",
        ),
        ({"evaluate": [{"metric": "ape", "delta": 1.0}]}, r"`delta` is not an option of ape"),
        ({"align": 3}, r"expected `align` as str, got 3"),
        ({"max_diff_s": True}, r"expected `max_diff_s` as float or int, got True"),
        ({"n_align": 2.5}, r"expected `n_align` as int, got 2.5"),
        ({"bogus": 1}, r"unknown setting `bogus`"),
        ({"statistic": "average"}, r"expected `statistic` an ErrorStats field, got 'average'"),
        ({"evaluate": []}, r"expected `evaluate` as a non-empty array of tables"),
        ({"evaluate": ["ape"]}, r"expected evaluate\[0\] as a table"),
        (
            {"evaluate": [{"metric": "ape"}, {"metric": "ape", "align": "se3"}]},
            r"two evaluations are named 'ape:translation'; give each a distinct `name`",
        ),
        ({"evaluate": [{"metric": "ape", "name": ""}]}, r"expected `name` as a non-empty string"),
        (
            {"align": "sim(3)"},
            r"expected `align` one of \['none', 'se3', 'sim3', 'scale', 'posyaw', 'origin'\], got 'sim\(3\)'",
        ),
        (
            {"sync": "one-to-one"},
            r"expected `sync` one of \['nearest', 'one_to_one', 'interpolate'\]",
        ),
        ({"evaluate": [{"metric": "rpe", "delta_unit": "sec"}]}, r"expected `delta_unit` one of"),
        ({"evaluate": [{"metric": "rpe", "pairs_from": "both"}]}, r"expected `pairs_from` one of"),
        (
            {"evaluate": [{"metric": "ape", "relation": "point_distance_error_ratio"}]},
            r"ape `relation`: Expected a relation in translation",
        ),
        (
            {"align_window_s": [3.0, 1.0]},
            r"expected `align_window_s` as \[start, end\] seconds with start < end, got \[3.0, 1.0\]",
        ),
    ],
)
def test_invalid_settings_raise_naming_the_key(block, match):
    with pytest.raises(FormatError, match=match):
        Settings.build(block)


def test_evaluation_names_can_be_given_to_tell_two_of_a_kind_apart():
    s = Settings.build(
        {"evaluate": [{"metric": "ape"}, {"metric": "ape", "align": "se3", "name": "ape-se3"}]}
    )
    assert [ev.name for ev in s.evaluations] == ["ape:translation", "ape-se3"]
    assert Evaluation.build({"metric": "ape", "n_align": 5}).kwargs() == {"n_align": 5}


def test_relation_aliases_and_window_pairs_are_accepted():
    s = Settings.build({"align_window_s": [0, 2.5], "evaluate": [{"relation": "trans_part"}]})
    assert s.evaluations[0].kwargs() == {"align_window_s": (0.0, 2.5), "relation": "trans_part"}
