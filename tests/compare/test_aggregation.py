"""aggregate and check_same_settings: success apart from accuracy, no silent mixing."""

from __future__ import annotations

import math
from typing import Any

import pytest

from robot_msgs.compare import (
    AggregateTally,
    Comparison,
    SettingsTally,
    aggregate,
    check_same_settings,
    error_stats,
)
from robot_msgs.errors import SettingsMismatchError, ValidationError
from robot_msgs.msg.catalog import example
from tests.compare.comparisons import comparison


def _run(rms_sample: float, alignment: str = "se3", name: str = "run") -> Comparison:
    return comparison(
        metric="ape",
        stats={"translation": error_stats([rms_sample])},
        units={"translation": "m"},
        parameters={"alignment": alignment, "max_diff_s": 0.01},
        estimate=name,
    )


def test_aggregate_counts_failures_apart_from_accuracy() -> None:
    agg = aggregate([_run(0.1), _run(0.2), _run(0.3)], failures=["lost", "lost", "crash"])
    assert agg.n_runs == 6
    assert agg.n_succeeded == 3
    assert agg.success_rate == 0.5
    assert dict(agg.failures) == {"lost": 2, "crash": 1}
    assert agg.stats["translation"].n == 3
    assert agg.stats["translation"].median == pytest.approx(0.2)
    assert dict(agg.settings) == {"alignment": "se3", "max_diff_s": 0.01}


def test_the_unit_of_an_aggregate_is_that_of_its_statistic() -> None:
    """statistic="iae" kept the signal's "m", where each run's IAE is in m·s (the seed
    page: unit × s, unit² × s, unit × s²). By hand, errors 0.1 and 0.3 m held 2 s: IAE
    0.2 and 0.6 m·s, median 0.4 m·s."""

    def run(error: float) -> Comparison:
        stats = error_stats([error, error, error], t=[0.0, 1.0, 2.0])
        return comparison(metric="ape", stats={"translation": stats})

    units = {
        s: aggregate([run(0.1), run(0.3)], statistic=s).signals[0].unit
        for s in ("rms", "iae", "ise", "itae", "n")
    }
    assert units == {"rms": "m", "iae": "m·s", "ise": "m²·s", "itae": "m·s²", "n": ""}
    iae = aggregate([run(0.1), run(0.3)], statistic="iae").stats["translation"]
    assert iae.median == pytest.approx(0.4)
    tally = AggregateTally(statistic="iae")
    tally.update(run(0.1))
    other = AggregateTally(statistic="iae")
    other.update(run(0.3))
    tally.merge(other)
    assert tally.compute().signals[0].unit == "m·s"  # merged, still said once


def test_mixing_alignments_raises_naming_the_setting() -> None:
    with pytest.raises(SettingsMismatchError, match=r"different settings of `alignment=`"):
        aggregate([_run(0.1, "se3", "a"), _run(0.2, "sim3", "b")])


def test_a_refusal_names_every_differing_setting_with_its_values() -> None:
    def run(name: str, **parameters: object) -> Comparison:
        given = {"alignment": "se3", "max_diff_s": 0.01, "t_end_s": None, **parameters}
        return comparison(
            metric="ape",
            stats={"translation": error_stats([0.1])},
            units={"translation": "m"},
            parameters=given,
            estimate=name,
        )

    runs = [run("a"), run("b", alignment="sim3", max_diff_s=0.02), run("c", t_end_s=5.0)]
    with pytest.raises(SettingsMismatchError, match=r"^Refusing to mix") as refused:
        check_same_settings(runs)
    # alignment and max_diff_s split the runs alike (b apart): said together; t_end_s
    # splits them otherwise (c apart).
    assert str(refused.value) == (
        "Refusing to mix results made with different settings of `alignment=` and "
        "`max_diff_s=` (`alignment='se3'`, `max_diff_s=0.01` in a; `alignment='sim3'`, "
        "`max_diff_s=0.02` in b) and of `t_end_s=` (`t_end_s=None` in a; `t_end_s=5.0` in c); "
        "evaluate them with the same settings, or rank them anyway with `force=True` "
        "(the ranking then says so)"
    )


def test_forced_mix_says_so() -> None:
    agg = aggregate([_run(0.1, "se3"), _run(0.2, "sim3")], force=True)
    assert agg.settings["alignment"] == "<mixed>"
    assert any("alignment" in note for note in agg.notes)


def test_different_metrics_do_not_mix() -> None:
    rpe = _run(0.1).replace(metric="rpe")
    with pytest.raises(SettingsMismatchError, match=r"`metric=`"):
        check_same_settings([_run(0.1), rpe])


def test_unknown_statistic_raises() -> None:
    with pytest.raises(ValidationError, match=r"statistic, got 'rmse'"):
        aggregate([_run(0.1)], statistic="rmse")


def test_no_runs_gives_nan_success_rate() -> None:
    agg = aggregate([], failures=[])
    assert agg.n_runs == 0
    assert math.isnan(agg.success_rate)


def test_the_tally_gives_aggregates_answer_one_comparison_at_a_time() -> None:
    runs = [_run(0.1, name="a"), _run(0.4, name="b"), _run(0.2, name="c")]
    tally = AggregateTally(group={"algorithm": "orb"})
    for run in runs:
        tally.update(run)
    tally.fail("lost")
    streamed = tally.compute()
    assert streamed == aggregate(runs, failures=["lost"], group={"algorithm": "orb"})
    # The three runs' RMS errors are 0.1, 0.4, 0.2: mean 0.7 / 3, median 0.2, max 0.4.
    stats = streamed.stats["translation"]
    assert stats.n == 3
    assert (stats.median, stats.max) == pytest.approx((0.2, 0.4))
    assert stats.mean == pytest.approx(0.7 / 3)
    tally.reset()
    assert tally.compute().n_runs == 0


def test_the_tally_keeps_only_the_signals_every_run_has() -> None:
    both = comparison(
        metric="ape",
        stats={"translation": error_stats([0.1]), "rotation": error_stats([0.5])},
        units={"translation": "m", "rotation": "rad"},
    )
    one = comparison(
        metric="ape", stats={"translation": error_stats([0.3])}, units={"translation": "m"}
    )
    tally = AggregateTally()
    tally.update(both)
    tally.update(one)
    assert list(tally.compute().stats) == ["translation"]
    assert list(aggregate([both, one]).stats) == ["translation"]


def test_a_setting_only_later_comparisons_have_is_not_recorded_in_the_earlier_ones() -> None:
    plain = comparison(
        metric="ape", stats={"t": error_stats([0.1])}, units={"t": "m"}, estimate="p"
    )
    later = plain.replace(parameters={"n_align": 10}, estimate="q")
    tally = SettingsTally()
    tally.update(plain)
    tally.update(later)
    with pytest.raises(
        SettingsMismatchError,
        match=(
            r"^Refusing to mix results whose settings cannot all be compared: `n_align=` "
            r"\(not recorded in p; `n_align=10` in q\); if they were made alike, rank them "
            r"anyway with `force=True`"
        ),
    ):
        tally.result()
    assert tally.result(force=True) == {"n_align": "<mixed>"}
    assert check_same_settings([plain, plain.replace(estimate="r")]) == {}


def test_a_refusal_names_no_setting_that_differs_only_in_the_sign_of_zero() -> None:
    """With align differing, offset_s 0.0 and -0.0 (equal) were named as differing too."""
    from robot_msgs.compare import Comparison
    from robot_msgs.compare.aggregation import check_same_settings
    from robot_msgs.errors import SettingsMismatchError
    from robot_msgs.evaluation import EvaluationSettings

    def run(name: str, align: str, offset: float) -> Comparison:
        settings = EvaluationSettings(align=align, offset_s=offset)  # type: ignore[arg-type]
        return Comparison(metric="ape", signals=(), settings=settings, estimate=name)

    with pytest.raises(SettingsMismatchError, match=r"settings of `align=` \(") as refused:
        check_same_settings([run("a", "se3", 0.0), run("b", "sim3", -0.0)])
    assert "offset_s" not in str(refused.value)


@pytest.mark.parametrize("name", ["compare/Aggregate", "compare/GroupSummary"])
@pytest.mark.parametrize(
    ("changes", "at", "got"),
    [
        # n_runs = -3 with no failures was named 'at least the 0 failures'; with a
        # failure count of -5 it was kept, and success_rate was -0.67.
        ({"n_runs": -3, "failures": {}}, "n_runs", -3),
        ({"n_runs": -3, "failures": {"crash": -5}}, "n_runs", -3),
        # Kept: n_succeeded 2 of 2 runs with 3 crashes.
        ({"n_runs": 2, "failures": {"crash": 3, "lost": -3}}, r"failures\['lost'\]", -3),
        ({"n_runs": 0, "failures": {"crash": -1}}, r"failures\['crash'\]", -1),
    ],
)
def test_a_negative_count_of_runs_is_named(
    name: str, changes: dict[str, object], at: str, got: int
) -> None:
    summary: Any = example(name)  # Aggregate or GroupSummary
    label = name.partition("/")[2]
    with pytest.raises(
        ValidationError, match=rf"Expected a count >= 0, got int {got} - at `{label}\.{at}`$"
    ):
        summary.replace(**changes)


@pytest.mark.parametrize("name", ["compare/Aggregate", "compare/GroupSummary"])
def test_more_failures_than_runs_is_still_named_at_n_runs(name: str) -> None:
    summary: Any = example(name)  # Aggregate or GroupSummary
    with pytest.raises(
        ValidationError, match=r"at least the 3 failures, got int 2 - at `.*n_runs`"
    ):
        summary.replace(n_runs=2, failures={"crash": 3})
    assert summary.replace(n_runs=3, failures={"crash": 3, "lost": 0}).n_runs == 3
