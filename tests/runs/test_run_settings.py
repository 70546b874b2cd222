"""RunSettings and MetricSpec: the one settings value of a report or a sweep."""

from __future__ import annotations

import json

import pytest

import robot_msgs
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation import EvaluationSettings, PairSettings
from robot_msgs.evaluation.entry import check_metric_settings
from robot_msgs.evaluation.settings import Rpe
from robot_msgs.runs import MetricSpec, RunSettings, default_metrics


def test_defaults_are_the_reports_se3_ape_and_one_second_rpe() -> None:
    s = RunSettings()
    assert s.evaluation == EvaluationSettings(align="se3")
    assert [m.name for m in s.metrics] == ["ape:translation", "rpe:translation:1s:all"]
    assert s.metrics[1].pairs == PairSettings(delta=1.0, delta_unit="s", all_pairs=True)
    assert (s.statistic, s.coverage_gap_s, s.end_tolerance_s) == ("rms", 1.0, 1.0)
    assert RunSettings.from_options({}, where="x") == s


def test_default_metrics_take_several_deltas_or_none() -> None:
    assert [m.name for m in default_metrics((0.5, 2.0), "m")] == [
        "ape:translation",
        "rpe:translation:0.5m:all",
        "rpe:translation:2m:all",
    ]
    assert [m.name for m in default_metrics((), "s")] == ["ape:translation"]


@pytest.mark.parametrize(
    ("kwargs", "field", "match"),
    [
        ({"metric": "ate"}, "metric", r"Expected one of ape, rpe, got str 'ate'"),
        ({"metric": "ape", "relation": "speed"}, "relation", r"Expected one of translation,"),
        (
            {"metric": "rpe"},
            "pairs",
            r"Expected pair settings, got NoneType None",
        ),
        (
            {"metric": "ape", "pairs": PairSettings()},
            "pairs",
            r"Expected no pair settings for APE",
        ),
        ({"metric": "ape", "name": ""}, "name", r"a non-empty name"),
    ],
)
def test_bad_metrics_raise_naming_the_field(
    kwargs: dict[str, object], field: str, match: str
) -> None:
    values = {"name": "m", **kwargs}
    with pytest.raises(ValidationError, match=match) as caught:
        MetricSpec(**values)  # type: ignore[arg-type]
    assert caught.value.field == f"MetricSpec.{field}"


def test_a_metric_built_with_an_alias_stores_the_relation_by_its_name() -> None:
    assert MetricSpec.build("ape", relation="trans_part").relation == "translation"


def test_bad_run_settings_raise_naming_the_field() -> None:
    with pytest.raises(ValidationError, match=r"one of 'rms', 'mean', .*, got str 'average'"):
        RunSettings(statistic="average")  # the declared Literal of ErrorStats' fields
    # `n` was offered (report --statistic's choices) and then refused by the ranking, "a
    # count": the setting holds error statistics only (a review).
    with pytest.raises(ValidationError, match=r"one of 'rms', 'mean', .*, got str 'n'"):
        RunSettings(statistic="n")
    with pytest.raises(ValidationError, match=r"Expected float > 0, got float 0.0") as caught:
        RunSettings(coverage_gap_s=0.0)
    assert caught.value.field == "RunSettings.coverage_gap_s"
    twice = (MetricSpec.build("ape"), MetricSpec.build("ape"))
    with pytest.raises(ValidationError, match=r"distinct names \(two are 'ape:translation'\)"):
        RunSettings(metrics=twice)


def test_a_metric_with_its_own_settings_is_evaluated_with_them() -> None:
    own = EvaluationSettings(align="none")
    s = RunSettings(
        metrics=(MetricSpec.build("ape"), MetricSpec.build("ape", settings=own, name="raw"))
    )
    assert s.settings_of(s.metrics[0]) == s.evaluation
    assert s.settings_of(s.metrics[1]) == own


def test_options_decode_metrics_and_name_where() -> None:
    s = RunSettings.from_options(
        {
            "sync": "one_to_one",
            "coverage_gap_s": 0.5,
            "evaluate": [
                {"metric": "ape", "name": "ape-se3"},
                {"metric": "rpe", "relation": "angle_deg", "delta": 10, "delta_unit": "f"},
            ],
        },
        where="m.toml [settings]",
    )
    assert s.evaluation.sync == "one_to_one"
    assert s.evaluation.align == "se3"  # the run default, not the API's
    assert [m.name for m in s.metrics] == ["ape-se3", "rpe:angle_deg:10f"]
    assert s.coverage_gap_s == 0.5
    with pytest.raises(FormatError, match=r"m\.toml \[settings\] evaluate\[1\]: `delta`"):
        RunSettings.from_options(
            {"evaluate": [{"metric": "ape"}, {"metric": "rpe", "delta": -1}]},
            where="m.toml [settings]",
        )
    with pytest.raises(FormatError, match=r"expected `evaluate` as a non-empty array of tables"):
        RunSettings.from_options({"evaluate": []}, where="m.toml [settings]")


def test_min_coverage_is_taken_from_the_settings_table_as_the_other_judgement_keys() -> None:
    """[settings] min_coverage = 0.8 was refused as an unknown key, listing only the
    alignment keys, though the table's list of keys, --min-coverage's help ('default: the
    manifest's') and the RunSettings docs name it."""
    s = RunSettings.from_options({"min_coverage": 0.8}, where="m.toml [settings]")
    assert s.min_coverage == 0.8
    with pytest.raises(FormatError, match=r"m\.toml \[settings\]: `min_coverage`"):
        RunSettings.from_options({"min_coverage": 2.0}, where="m.toml [settings]")


def test_the_rank_rule_is_a_settings_key_recorded_only_where_chosen() -> None:
    """Ranking failed runs as the worst error had no setting (the robot-learning walk)."""
    s = RunSettings.from_options({"rank_failures": "worst"}, where="m.toml [settings]")
    assert s.rank_failures == "worst"
    assert s.record()["rank_failures"] == "worst"
    # The default records nothing new: the reports of runs ranked apart read as before.
    assert "rank_failures" not in RunSettings().record()
    with pytest.raises(FormatError, match=r"m\.toml \[settings\]: `rank_failures`"):
        RunSettings.from_options({"rank_failures": "last"}, where="m.toml [settings]")


def test_record_is_flat_and_structured() -> None:
    record = RunSettings().record()
    assert record["align"] == "se3"
    assert record["metrics"] == ("ape:translation", "rpe:translation:1s:all")
    assert json.loads(json.dumps(record))["metrics"] == [
        "ape:translation",
        "rpe:translation:1s:all",
    ]


def test_run_settings_are_messages_that_load_back_equal() -> None:
    s = RunSettings(metrics=default_metrics((0.5, 2.0), "m"), statistic="median")
    assert robot_msgs.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_an_unknown_settings_key_lists_every_key_the_settings_table_takes() -> None:
    # A typo of `statistic` must be told the key it missed, not only the alignment keys.
    with pytest.raises(FormatError, match=r"unknown key `statistc`; expected one of ") as refused:
        RunSettings.from_options({"statistc": "max"}, where="runs.toml [settings]")
    assert str(refused.value) == (
        "runs.toml [settings]: unknown key `statistc`; expected one of align, align_window_s, "
        "confidence, coverage_gap_s, end_tolerance_s, evaluate, invert_transform_left, "
        "invert_transform_right, kitti_rotations, max_diff_s, max_distance_m, max_gap_s, "
        "min_coverage, n_align, offset_auto, offset_s, offset_search_s, project_to_plane, "
        "rank_failures, repeated_stamps, spatial_pairs, stamp_divisors, statistic, sync, t_end_s, t_start_s, "
        "transform_left, transform_right, transform_right_auto, w_first"
    )


def test_trajectopys_spatial_pairs_with_an_rpe_metric_are_refused_before_any_run() -> None:
    """Review: bench --sync spatial --spatial-pairs first dropped RPE from every run in
    silence (refused per run, recorded as a skipped metric) and exited 0."""
    first = EvaluationSettings(sync="spatial", spatial_pairs="first")
    with pytest.raises(ValidationError, match=r"`spatial_pairs='path'` for RPE \(rpe:translation"):
        RunSettings(evaluation=first)
    ape_only = RunSettings(evaluation=first, metrics=(MetricSpec(name="ape", metric="ape"),))
    assert ape_only.evaluation.spatial_pairs == "first"


def test_a_tum_protocol_rpe_with_an_alignment_is_refused_before_any_run() -> None:
    """``report`` with ``protocol = "tum"`` under the runs' SE(3) alignment read every run,
    skipped the RPE in each (TUM's protocol aligns nothing) and exited 0, "no run has an
    accuracy figure": the forward-pairs rule was checked before any run, TUM's not."""
    tum = MetricSpec.build("rpe", pairs=PairSettings(delta=10, delta_unit="f", protocol="tum"))
    with pytest.raises(ValidationError, match=r"^expected the default with protocol 'tum'"):
        RunSettings(evaluation=EvaluationSettings(align="se3"), metrics=(tum,))
    own = MetricSpec.build(
        "rpe", pairs=tum.pairs, settings=EvaluationSettings(align="none"), name="own"
    )
    assert RunSettings(evaluation=EvaluationSettings(align="se3"), metrics=(own,)).metrics


def test_a_metrics_settings_are_refused_as_evaluate_refuses_them() -> None:
    """Review of a8a58b0: RunSettings had its own dispatch of evaluate's refusals (forward
    pairs, then TUM's); spatial pairs of rule "first" under a TUM-protocol RPE were refused
    for the pairs, where evaluate refuses the sync TUM's protocol does not use."""
    pairs = PairSettings(delta=10, delta_unit="f", protocol="tum")
    first = EvaluationSettings(sync="spatial", spatial_pairs="first")
    with pytest.raises(ValidationError, match="with protocol 'tum'") as evaluate_refused:
        check_metric_settings(first, Rpe(pairs=(pairs,)))
    tum = MetricSpec.build("rpe", pairs=pairs)
    with pytest.raises(ValidationError, match="with protocol 'tum'") as run_refused:
        RunSettings(evaluation=first, metrics=(tum,))
    assert str(run_refused.value) == str(evaluate_refused.value)


def test_a_refusal_names_the_manifests_key_as_toml_and_leaves_a_flags_value_to_the_cli() -> None:
    ape_only = (MetricSpec(name="ape", metric="ape"),)
    table = {"sync": "spatial", "spatial_pairs": "first"}
    # The table's value that a flag contradicts: the table's key, said as TOML.
    with pytest.raises(FormatError, match=r"^m\.toml") as refused:
        RunSettings.from_options(
            table, where="m.toml [settings]", evaluation={"transform_right_auto": True},
            metrics=ape_only,
        )  # fmt: skip
    assert str(refused.value).startswith(
        "m.toml [settings]: `spatial_pairs`: expected `spatial_pairs = 'path'` to estimate the "
        "right transform (`transform_right_auto = true`)"
    )
    # A flag's own value: the field named, for the command line to say its flag.
    with pytest.raises(
        ValidationError, match=r"^expected `spatial_pairs='path'` for RPE"
    ) as flagged:
        RunSettings.from_options({}, where="[settings]", evaluation=table)
    assert not isinstance(flagged.value, FormatError)
    assert flagged.value.field == "EvaluationSettings.spatial_pairs"


def test_the_reading_rules_come_from_the_table_and_the_flags_win() -> None:
    table = {"kitti_rotations": "as_given", "repeated_stamps": "refuse"}
    s = RunSettings.from_options(table, where="runs.toml [settings]")
    assert (s.reading.kitti_rotations, s.reading.repeated_stamps) == ("as_given", "refuse")
    # recorded with the report's settings, as they change the numbers; defaults left out
    assert (s.record()["kitti_rotations"], s.record()["repeated_stamps"]) == ("as_given", "refuse")
    assert "kitti_rotations" not in RunSettings().record()
    flagged = RunSettings.from_options(table, where="x", reading={"kitti_rotations": "nearest"})
    assert (flagged.reading.kitti_rotations, flagged.reading.repeated_stamps) == (
        "nearest",
        "refuse",
    )
    with pytest.raises(FormatError, match=r"runs.toml \[settings\].*kitti_rotations.*'raw'"):
        RunSettings.from_options({"kitti_rotations": "raw"}, where="runs.toml [settings]")
    with pytest.raises(FormatError, match=r"unknown key `kitti_rotation`; .* kitti_rotations,"):
        RunSettings.from_options({"kitti_rotation": "as_given"}, where="x")
