"""Ranking: hand-ranked orders, refusal to mix settings, and the forced table saying so."""

from __future__ import annotations

import math
import pickle
from typing import TYPE_CHECKING

import pytest

import robot_msgs
from robot_msgs.compare import Comparison, RunReport, error_stats
from robot_msgs.errors import SettingsMismatchError, ValidationError
from robot_msgs.report.tables import ranking_table
from robot_msgs.runs.rank import RankingTally, average_ranks, rank_algorithms
from tests.compare.comparisons import comparison

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.msg import Scalar, Value


def _ape(rms: float, alignment: str = "se3", **settings: Value) -> Comparison:
    return comparison(
        metric="ape",
        stats={"translation": error_stats([rms])},  # one sample: its rms is `rms`
        units={"translation": "m"},
        parameters={"alignment": alignment, "max_diff_s": 0.01, **settings},
    )


def _run(
    algorithm: str,
    sequence: str,
    rms: float | None,
    *,
    trial: int = 1,
    success: bool = True,
    alignment: str = "se3",
    version: str = "",
    parameters: Mapping[str, Scalar] | None = None,
    **settings: Value,
) -> RunReport:
    return RunReport(
        name=f"{algorithm}/{sequence}/{trial}",
        algorithm=algorithm,
        version=version,
        parameters=parameters or {},
        sequence=sequence,
        trial=str(trial),
        success=success,
        failure="" if success else "tracking lost, not recovered",
        comparisons={} if rms is None else {"ape:translation": _ape(rms, alignment, **settings)},
        coverage=1.0 if success else 0.5,
    )


def test_mixing_se3_and_sim3_aligned_comparisons_raises_naming_alignment() -> None:
    runs = [_run("a", "s1", 0.1, alignment="se3"), _run("b", "s1", 0.2, alignment="sim3")]
    with pytest.raises(SettingsMismatchError, match=r"different settings of `alignment=`"):
        rank_algorithms(runs)


@pytest.mark.parametrize(
    ("setting", "first", "second"),
    [("max_diff_s", 0.01, 0.02), ("delta", 1.0, 2.0), ("correct_scale", False, True)],
)
def test_other_differing_settings_are_named_too(setting: str, first: Value, second: Value) -> None:
    one = _run("a", "s1", 0.1).replace(
        comparisons={"ape:translation": _ape(0.1).replace(parameters={setting: first})}
    )
    two = _run("b", "s1", 0.1).replace(
        comparisons={"ape:translation": _ape(0.1).replace(parameters={setting: second})}
    )
    with pytest.raises(SettingsMismatchError, match=rf"different settings of `{setting}=`"):
        rank_algorithms([one, two])


def test_forced_mix_ranks_and_says_so() -> None:
    runs = [_run("a", "s1", 0.1, alignment="se3"), _run("b", "s1", 0.2, alignment="sim3")]
    ranking = rank_algorithms(runs, force=True)
    assert ranking is not None
    assert ranking.forced
    assert ranking.settings["alignment"] == "<mixed>"
    assert any("FORCED" in note and "alignment" in note for note in ranking.notes)


def test_a_forced_ranking_still_says_its_tie() -> None:
    """The FORCED note replaced the ranking's notes: a tie in it went unsaid (a review)."""
    runs = [_run("b", "s1", 0.1, alignment="se3"), _run("a", "s1", 0.1, alignment="sim3")]
    ranking = rank_algorithms(runs, force=True)
    assert ranking is not None
    assert ranking.notes == (
        "FORCED: comparisons with different alignment settings are ranked together",
        "tie: a, b have the same mean rank (1.50); listed by success rate, then name",
    )


def test_ranking_orders_by_mean_rank_over_sequences_from_median_of_successful_runs() -> None:
    runs = [
        # s1: a median(0.1, 0.3) = 0.2, b 0.15, c 0.5 -> ranks b 1, a 2, c 3
        _run("a", "s1", 0.1, trial=1),
        _run("a", "s1", 0.3, trial=2),
        _run("a", "s1", 0.01, trial=3, success=False),  # failed: not in the score
        _run("b", "s1", 0.15),
        _run("c", "s1", 0.5),
        # s2: a 0.05 -> 1, b all failed -> shares last places with c? c 0.06 -> 2, b 3
        _run("a", "s2", 0.05),
        _run("b", "s2", 0.01, success=False),
        _run("c", "s2", 0.06),
    ]
    ranking = rank_algorithms(runs)
    assert ranking is not None
    rows = {row.algorithm: row for row in ranking.rows}
    assert dict(rows["a"].scores) == {"s1": pytest.approx(0.2), "s2": pytest.approx(0.05)}
    assert dict(rows["a"].ranks) == {"s1": 2.0, "s2": 1.0}
    assert dict(rows["b"].ranks) == {"s1": 1.0, "s2": 3.0}
    assert math.isnan(rows["b"].scores["s2"])
    assert dict(rows["c"].ranks) == {"s1": 3.0, "s2": 2.0}
    # mean ranks a 1.5, b 2.0, c 2.5
    assert [row.algorithm for row in ranking.rows] == ["a", "b", "c"]
    assert [row.position for row in ranking.rows] == [1, 2, 3]
    assert rows["a"].n_runs == 4
    assert rows["a"].n_succeeded == 3
    assert rows["a"].success_rate == 0.75
    assert rows["b"].mean_coverage == pytest.approx(0.75)
    assert ranking.sequences == ("s1", "s2")
    assert ranking.unit == "m"
    assert dict(ranking.settings) == {"alignment": "se3", "max_diff_s": 0.01}
    assert not ranking.forced


def _walk_runs() -> list[RunReport]:
    """A policy that fails more but scores lower on its successes, as the robot-learning walk."""
    diffusion = [0.10, 0.11, 0.30, 0.31]  # and 2 failures
    mlp = [0.20, 0.21, 0.22, 0.23, 0.24]  # and 1 failure
    runs = [_run("diffusion", "s", rms, trial=k) for k, rms in enumerate(diffusion, 1)]
    runs += [_run("mlp", "s", rms, trial=k) for k, rms in enumerate(mlp, 1)]
    # Failed runs whose APE is the lowest of all: a failure is never scored by its APE.
    runs += [_run("diffusion", "s", 0.01, trial=k, success=False) for k in (5, 6)]
    return [*runs, _run("mlp", "s", 0.01, trial=6, success=False)]


def test_failures_rank_apart_by_default_and_as_the_worst_error_when_asked() -> None:
    """Ranked apart, 4/6 successes ranked above 5/6 (the walk: 37/40 above 39/40).

    Apart (by hand): diffusion median(0.10, 0.11, 0.30, 0.31) = 0.205, mlp
    median(0.20 .. 0.24) = 0.22: diffusion first. Worst: diffusion median(0.10, 0.11,
    0.30, 0.31, inf, inf) = (0.30 + 0.31) / 2 = 0.305, mlp median(0.20 .. 0.24, inf) =
    (0.22 + 0.23) / 2 = 0.225: mlp first.
    """
    apart = rank_algorithms(_walk_runs())
    assert apart is not None
    assert [r.algorithm for r in apart.rows] == ["diffusion", "mlp"]
    assert [r.scores["s"] for r in apart.rows] == pytest.approx([0.205, 0.22])
    assert "rank_failures" not in apart.settings
    worst = rank_algorithms(_walk_runs(), failures="worst")
    assert worst is not None
    assert [r.algorithm for r in worst.rows] == ["mlp", "diffusion"]
    assert [r.scores["s"] for r in worst.rows] == pytest.approx([0.225, 0.305])
    assert worst.settings["rank_failures"] == "worst"
    text = ranking_table(worst).notes
    assert text[0].startswith(
        "Ranked by the median over all runs, a failed one counted as the worst error (inf), of"
    )
    assert text[1].endswith(" --rank-failures worst.")
    # Half or more failed: the median is infinite, shown so, ranked last.
    # 3 failures of 7: median 0.31 (the 4th); 4 of 8: (0.31 + inf) / 2.
    more = [_run("diffusion", "s", 0.01, trial=k, success=False) for k in (7, 8)]
    worst = rank_algorithms([*_walk_runs(), *more[:1]], failures="worst")
    assert worst is not None
    assert worst.rows[1].scores["s"] == pytest.approx(0.31)
    half = [*_walk_runs(), *more]
    worst = rank_algorithms(half, failures="worst")
    assert worst is not None
    assert worst.rows[1].scores["s"] == math.inf
    assert ranking_table(worst).rows[1][-1] == "inf (2)"
    with pytest.raises(ValidationError, match="failures 'apart' or 'worst', got 'last'"):
        RankingTally(failures="last")
    one, other = RankingTally(), RankingTally(failures="worst")
    with pytest.raises(ValidationError, match="failures 'apart', signal None, got one ranking by"):
        one.merge(other)


def test_ties_in_mean_rank_go_to_the_higher_success_rate() -> None:
    runs = [
        _run("a", "s1", 0.1),
        _run("a", "s2", 0.3),
        _run("b", "s1", 0.2),
        _run("b", "s2", 0.2),
        _run("b", "s2", 0.2, trial=2, success=False),
    ]
    ranking = rank_algorithms(runs)
    assert ranking is not None
    # a: ranks 1, 2; b: ranks 2, 1 -> both 1.5; a succeeded 2/2, b 2/3
    assert [row.algorithm for row in ranking.rows] == ["a", "b"]


def test_an_algorithm_not_run_on_a_sequence_is_not_ranked_there() -> None:
    ranking = rank_algorithms([_run("a", "s1", 0.1), _run("a", "s2", 0.1), _run("b", "s1", 0.2)])
    assert ranking is not None
    rows = {row.algorithm: row for row in ranking.rows}
    assert dict(rows["b"].ranks) == {"s1": 2.0}
    assert rows["b"].mean_rank == 2.0


def test_algorithms_run_on_different_sequences_get_a_note_with_their_counts() -> None:
    """The issue's case: one run on one sequence ranks first (mean rank 1.00) above one
    run on two; the ranking says so, and its table shows it beside the coverage."""
    runs = [_run("a", "s1", 0.1), _run("b", "s1", 0.2), _run("b", "s2", 0.2)]
    ranking = rank_algorithms(runs)
    assert ranking is not None
    assert [(row.algorithm, row.mean_rank) for row in ranking.rows] == [("a", 1.0), ("b", 1.5)]
    note = (
        "The algorithms ran on different sequences (of 2: a 1, b 2): a mean rank over "
        "fewer sequences is not comparable with one over more."
    )
    assert note in ranking.notes
    table = ranking_table(ranking)
    assert note in table.notes
    assert "coverage" in table.headers
    same = rank_algorithms([_run("a", "s1", 0.1), _run("b", "s1", 0.2)])
    assert same is not None
    assert not any("different sequences" in n for n in same.notes)


def test_average_ranks_by_hand() -> None:
    assert average_ranks([0.3, 0.1, 0.2]) == [3.0, 1.0, 2.0]
    assert average_ranks([0.2, 0.1, 0.2, math.nan]) == [2.5, 1.0, 2.5, 4.0]
    assert average_ranks([math.nan, math.nan]) == [1.5, 1.5]
    assert average_ranks([]) == []


def test_average_ranks_put_no_score_after_a_score_of_inf() -> None:
    """NaN was keyed as inf: an ISE past float64 (inf) and a run without one (NaN) shared
    place 2.5, where the docstring ranks NaN after every number. By hand: 0.1 first,
    inf second, NaN third; two NaNs share 3.5."""
    assert average_ranks([0.1, math.inf, math.nan]) == [1.0, 2.0, 3.0]
    assert average_ranks([math.nan, math.inf, math.nan, 0.1]) == [3.5, 2.0, 3.5, 1.0]
    assert average_ranks([-0.0, 0.0, math.inf, math.inf]) == [1.5, 1.5, 3.5, 3.5]


def test_no_accuracy_means_no_ranking() -> None:
    assert rank_algorithms([_run("a", "s1", None)]) is None


def test_unknown_statistic_and_missing_signal_are_refused() -> None:
    with pytest.raises(ValidationError, match=r"statistic, got 'rmse'"):
        rank_algorithms([_run("a", "s1", 0.1)], statistic="rmse")
    with pytest.raises(ValidationError, match=r"signal 'angle_deg' in the ape of run 'a/s1/1'"):
        rank_algorithms([_run("a", "s1", 0.1)], signal="angle_deg")


def test_rpg_yaw_by_its_old_name_is_refused_naming_the_new_one() -> None:
    # rpg's yaw per segment was `yaw_deg@L m` up to c2d08f8, now `yaw_world_deg@L m`
    # (about world z): a script that ranks by the old name is told the new one, not only
    # handed every signal's name.
    drift = comparison(
        metric="relative_error",
        stats={f"{q}@10m": error_stats([0.5]) for q in ("translation", "yaw_world_deg")},
        units={"translation@10m": "m", "yaw_world_deg@10m": "deg"},
    )
    runs = [_run("a", "s1", 0.1).replace(comparisons={"rpg": drift})]
    assert rank_algorithms(runs, signal="yaw_world_deg@10m") is not None
    with pytest.raises(
        ValidationError,
        match=r"'yaw_deg@10m' in the relative_error of run 'a/s1/1' \(rpg's yaw per segment: "
        r"'yaw_world_deg@10m' since",
    ):
        rank_algorithms(runs, signal="yaw_deg@10m")
    ranking = rank_algorithms(runs, signal="yaw_world_deg@10m")
    assert ranking is not None
    with pytest.raises(ValidationError, match=r"as 'yaw_world_deg@10m' \(about world z\), got"):
        ranking.replace(signal="yaw_deg@10m")
    ape = [_run("a", "s1", 0.1)]  # APE's yaw_deg is about the reference body z: no hint
    with pytest.raises(ValidationError, match=r"in the ape of run 'a/s1/1', got \["):
        rank_algorithms(ape, signal="yaw_deg@10m")


def test_sequences_without_any_reference_are_left_out_of_the_ranking() -> None:
    runs = [
        _run("a", "s1", 0.1),
        _run("b", "s1", 0.2),
        _run("a", "noref", None),
        _run("b", "noref", None, success=False),
    ]
    ranking = rank_algorithms(runs)
    assert ranking is not None
    assert ranking.sequences == ("s1",)
    rows = {row.algorithm: row for row in ranking.rows}
    assert rows["b"].n_runs == 1
    assert rows["b"].success_rate == 1.0


def _rpe(rms: float) -> Comparison:
    return comparison(
        metric="rpe",
        stats={"translation": error_stats([rms])},
        units={"translation": "m"},
        parameters={"align": "se3", "delta": 1.0},
    )


def test_a_named_metric_ranks_by_that_metric_not_the_first() -> None:
    # By APE, a beats b; by RPE, b beats a.
    runs = [
        _run("a", "s1", 0.1).replace(
            comparisons={"ape:translation": _ape(0.1), "rpe:translation:1s": _rpe(0.5)}
        ),
        _run("b", "s1", 0.2).replace(
            comparisons={"ape:translation": _ape(0.2), "rpe:translation:1s": _rpe(0.3)}
        ),
    ]
    by_ape = rank_algorithms(runs)
    by_rpe = rank_algorithms(runs, metric="rpe:translation:1s")
    assert by_ape is not None
    assert by_rpe is not None
    assert [row.algorithm for row in by_ape.rows] == ["a", "b"]
    assert [row.algorithm for row in by_rpe.rows] == ["b", "a"]
    assert by_rpe.metric == "rpe"
    assert by_rpe.rows[0].scores == {"s1": 0.3}


def test_the_tally_ranks_in_any_order_of_runs_and_says_what_it_lacks() -> None:
    reports = [
        _run("orb", "MH_01", 0.10, trial=1),
        _run("vins", "MH_01", 0.20, trial=1),
        _run("orb", "MH_01", 0.30, trial=2),
        _run("vins", "MH_01", 0.05, trial=2, success=False),
    ]
    tally = RankingTally()
    for report in reversed(reports):
        tally.update(report)
    tally.leave_out("SchedulerLost")
    tally.leave_out("SchedulerLost")
    ranking = tally.compute()
    assert ranking is not None
    # Medians of successful runs: orb (0.10, 0.30) -> 0.20, vins (0.20) -> 0.20: a tie,
    # broken by success rate (orb 2/2, vins 1/2).
    assert [(r.algorithm, r.n_runs, r.n_succeeded) for r in ranking.rows] == [
        ("orb", 2, 2),
        ("vins", 2, 1),
    ]
    assert [r.scores["MH_01"] for r in ranking.rows] == pytest.approx([0.20, 0.20])
    assert (dict(ranking.left_out), ranking.n_left_out) == ({"SchedulerLost": 2}, 2)
    assert rank_algorithms(reports) == ranking.replace(left_out={})
    notes = ranking_table(ranking).notes
    assert notes[-1] == (
        "Lacks 2 runs that failed to evaluate or were not evaluated (SchedulerLost 2): they "
        "count for no algorithm."
    )


def test_the_ranking_says_one_run_it_lacks_in_the_singular() -> None:
    """The note said "Lacks 1 runs that failed ..." (counted, as bench's other counts)."""
    tally = RankingTally()
    for report in (_run("orb", "MH_01", 0.10), _run("vins", "MH_01", 0.20)):
        tally.update(report)
    tally.leave_out("FormatError")
    ranking = tally.compute()
    assert ranking is not None
    assert ranking_table(ranking).notes[-1] == (
        "Lacks 1 run that failed to evaluate or was not evaluated (FormatError 1): it "
        "counts for no algorithm."
    )


def test_the_ranking_unit_is_the_statistics() -> None:
    """--statistic iae was headed "[m]": IAE of metres is m·s, ISE m²·s, ITAE m·s² (a review)."""
    runs = [_run("a", "s1", 0.1), _run("b", "s1", 0.2)]
    units = {}
    for statistic in ("rms", "iae", "ise", "itae"):
        ranking = rank_algorithms(runs, statistic=statistic)
        assert ranking is not None
        units[statistic] = ranking.unit
    assert units == {"rms": "m", "iae": "m·s", "ise": "m²·s", "itae": "m·s²"}


def test_successful_runs_without_the_statistic_are_said_to_be_unscored() -> None:
    """An RPE over overlapping pairs has no IAE (no time axis): bench --statistic iae
    ranked every algorithm "- (k)", the legend's "none succeeded", tied, with no word why
    (a walk). Runs a, b and c succeeded; a's and b's signals have no IAE (one sample)."""
    runs = [_run("a", "s1", 0.1), _run("b", "s1", 0.2), _run("c", "s1", None)]
    tally = RankingTally(statistic="iae")
    tally.update(runs[0])
    other = RankingTally(statistic="iae")
    other.update(runs[1])
    other.update(runs[2])
    tally.merge(other)
    for ranking in (rank_algorithms(runs, statistic="iae"), tally.compute()):
        assert ranking is not None
        # One sample has no interval: the reason is not "overlapping pairs" alone.
        assert ranking.notes[-1] == (
            "2 successful runs have no finite iae of translation (an integral needs 2 or more "
            "samples on a time axis; overlapping pairs have no time axis): they are not scored"
        )
    one = rank_algorithms(runs[:1], statistic="ise")
    assert one is not None
    assert one.notes[-1].startswith("1 successful run has no finite ise of translation (")
    ranked = rank_algorithms(runs, statistic="rms")
    assert ranked is not None
    # c's run has no reference: said so, not "no finite rms".
    assert ranked.notes == ("1 successful run has no reference, so no ape: it is not scored",)


def test_a_successful_run_with_no_score_is_shown_na_not_as_failed() -> None:
    """bench --statistic iae showed the RPE's successful runs "- (2)", which the legend
    reads as "none succeeded" (a walk). a's run succeeded with no IAE (one sample), b's
    failed, c's has IAE 0.1 m·s: a and b tie for last, (2 + 3) / 2 = 2.5 each."""
    scored = comparison(  # IAE over [0, 1] s of 0.1 m: 0.1 m·s
        metric="ape",
        stats={"translation": error_stats([0.1, 0.1], [0.0, 1.0])},
        units={"translation": "m"},
        parameters={"alignment": "se3", "max_diff_s": 0.01},
    )
    runs = [
        _run("a", "s1", 0.1),
        _run("b", "s1", 0.1, success=False),
        _run("c", "s1", None).replace(comparisons={"ape:translation": scored}),
    ]
    ranking = rank_algorithms(runs, statistic="iae")
    assert ranking is not None
    a, b = (next(r for r in ranking.rows if r.algorithm == n) for n in ("a", "b"))
    assert (dict(a.scores), dict(a.ranks)) == ({}, {"s1": 2.5})  # no score: not NaN
    assert math.isnan(b.scores["s1"])
    assert b.ranks == {"s1": 2.5}
    table = ranking_table(ranking)
    cells = {row[1]: row[5] for row in table.rows}
    assert cells == {"c": "0.1000 (1)", "a": "n/a (2.5)", "b": "- (2.5)"}
    assert "n/a (k) = succeeded, no iae to score: ranked last)." in " ".join(table.notes[0].split())
    # Failed runs alone (as every ranking saved before reads): "- (k)", no "n/a" legend.
    failed = rank_algorithms(runs[1:], statistic="iae")
    assert failed is not None
    assert "n/a" not in ranking_table(failed).notes[0]


def test_a_successful_run_without_a_reference_is_shown_na_not_as_failed() -> None:
    """report showed an algorithm whose runs of fr1_xyz succeeded with no reference "- (3)",
    the legend's "none succeeded", where the others' runs had one (a walk). By hand: on s1
    a scores 0.1 (1), b's two runs succeeded with no reference, c's failed: b and c tie
    for last, (2 + 3) / 2 = 2.5 each; on s2 c 0.1 (1), b 0.2 (2), a 0.3 (3). Mean ranks:
    c (2.5 + 1) / 2 = 1.75, a (1 + 3) / 2 = 2.0, b (2.5 + 2) / 2 = 2.25."""
    runs = [
        _run("a", "s1", 0.1),
        _run("b", "s1", None),
        _run("b", "s1", None, trial=2),
        _run("c", "s1", 0.05, success=False),
        _run("a", "s2", 0.3),
        _run("b", "s2", 0.2),
        _run("c", "s2", 0.1),
    ]
    tally, other = RankingTally(), RankingTally()
    for run in runs[:2]:
        tally.update(run)
    for run in runs[2:]:
        other.update(run)
    tally.merge(other)
    for ranking in (rank_algorithms(runs), tally.compute()):
        assert ranking is not None
        rows = {row.algorithm: row for row in ranking.rows}
        assert [(r.algorithm, r.mean_rank) for r in ranking.rows] == [
            ("c", 1.75),
            ("a", 2.0),
            ("b", 2.25),
        ]
        assert (dict(rows["b"].scores), dict(rows["b"].ranks)) == (
            {"s2": 0.2},
            {"s1": 2.5, "s2": 2.0},
        )
        assert math.isnan(rows["c"].scores["s1"])
        assert ranking.notes[-1] == (
            "2 successful runs have no reference, so no ape: they are not scored"
        )
        table = ranking_table(ranking)
        cells = {row[1]: row[5] for row in table.rows}
        assert cells == {"c": "- (2.5)", "a": "0.1000 (1)", "b": "n/a (2.5)"}
        legend = " ".join(table.notes[0].split())
        assert "n/a (k) = succeeded, no rms to score: ranked last)." in legend


def test_a_successful_run_without_the_ranked_comparison_is_na_and_the_ranking_round_trips() -> None:
    """b's run succeeded with a reference but its report has no APE (an RPE alone): its
    cell was NaN, shown "- (2)", "none succeeded" of a line whose run succeeded; saved
    and read back (``RankingRow._upgrade``) it was "n/a (2)", unequal to the ranking."""
    runs = [_run("a", "s1", 0.1), _run("b", "s1", None).replace(comparisons={"rpe": _rpe(0.3)})]
    ranking = rank_algorithms(runs, metric="ape:translation")
    assert ranking is not None
    b = ranking.rows[1]
    assert (b.algorithm, dict(b.scores), dict(b.ranks)) == ("b", {}, {"s1": 2.0})
    assert {row[1]: row[5] for row in ranking_table(ranking).rows}["b"] == "n/a (2)"
    assert robot_msgs.from_json(robot_msgs.to_json(ranking)) == ranking
    assert pickle.loads(pickle.dumps(ranking)) == ranking


def test_a_count_is_no_statistic_to_rank_by_and_a_tie_is_said() -> None:
    """--statistic n ranked the algorithm with the fewest matched poses first; positions of
    a tie were told apart by name, unsaid (a review)."""
    with pytest.raises(ValidationError, match=r"got 'n', a count"):
        rank_algorithms([_run("a", "s1", 0.1)], statistic="n")
    ranking = rank_algorithms([_run("b", "s1", 0.1), _run("a", "s1", 0.1)])
    assert ranking is not None
    assert [r.algorithm for r in ranking.rows] == ["a", "b"]
    assert any(n.startswith("tie: a, b have the same mean rank (1.50)") for n in ranking.notes)


def test_two_versions_of_one_algorithm_are_ranked_apart_with_their_own_scores() -> None:
    """orb 1.0 and orb 2.0 were pooled into one line "orb": a blend of both versions."""
    runs = [
        # s1: orb 1.0 median(0.10, 0.30) = 0.20, orb 2.0 0.15, vins 0.25 -> 2.0 1, 1.0 2, vins 3
        _run("orb", "s1", 0.10, trial=1, version="1.0"),
        _run("orb", "s1", 0.30, trial=2, version="1.0"),
        _run("orb", "s1", 0.15, trial=3, version="2.0"),
        _run("vins", "s1", 0.25, version="0.9"),
        # s2: orb 1.0 0.33, orb 2.0 median(0.20, 0.30, 0.50) = 0.30, vins 0.35 -> 2.0 1, 1.0 2
        _run("orb", "s2", 0.33, trial=1, version="1.0"),
        _run("orb", "s2", 0.20, trial=3, version="2.0"),
        _run("orb", "s2", 0.30, trial=4, version="2.0"),
        _run("orb", "s2", 0.50, trial=5, version="2.0"),
        _run("vins", "s2", 0.35, version="0.9"),
    ]
    ranking = rank_algorithms(runs)
    assert ranking is not None
    lines = [
        (r.name, r.algorithm, r.version, r.mean_rank, r.n_runs, dict(r.scores))
        for r in ranking.rows
    ]
    assert lines == [
        ("orb 2.0", "orb", "2.0", 1.0, 4, {"s1": 0.15, "s2": pytest.approx(0.30)}),
        ("orb 1.0", "orb", "1.0", 2.0, 3, {"s1": pytest.approx(0.20), "s2": 0.33}),
        ("vins", "vins", "0.9", 3.0, 2, {"s1": 0.25, "s2": 0.35}),  # one version: its name
    ]
    assert [row[1] for row in ranking_table(ranking).rows] == ["orb 2.0", "orb 1.0", "vins"]


def test_a_parameter_sweep_ranks_each_parameter_set_named_by_the_parameters_that_differ() -> None:
    def sweep(n_features: int, sequence: str, rms: float) -> RunReport:
        parameters = {"n_features": n_features, "scale": 1.2}
        return _run("orb", sequence, rms, trial=n_features, version="1.0", parameters=parameters)

    runs = [
        # s1: 1000 0.4, 2000 0.2, 4000 0.3 -> 2000 1, 4000 2, 1000 3
        sweep(1000, "s1", 0.4),
        sweep(2000, "s1", 0.2),
        sweep(4000, "s1", 0.3),
        # s2: 1000 0.25, 2000 0.1, 4000 0.2 -> 2000 1, 4000 2, 1000 3
        sweep(1000, "s2", 0.25),
        sweep(2000, "s2", 0.1),
        sweep(4000, "s2", 0.2),
    ]
    ranking = rank_algorithms(runs)
    assert ranking is not None
    # Only n_features differs: the version and scale, shared, are not in the names.
    assert [(r.name, r.mean_rank, dict(r.scores)) for r in ranking.rows] == [
        ("orb (n_features=2000)", 1.0, {"s1": 0.2, "s2": 0.1}),
        ("orb (n_features=4000)", 2.0, {"s1": 0.3, "s2": 0.2}),
        ("orb (n_features=1000)", 3.0, {"s1": 0.4, "s2": 0.25}),
    ]
    assert dict(ranking.rows[0].parameters) == {"n_features": 2000, "scale": 1.2}
    assert ranking.rows[0].configuration == runs[1].configuration


def _signed_run(algorithm: str, errors: list[float]) -> RunReport:
    """A run whose APE x errors (m, estimate minus reference) are ``errors``."""
    x = comparison(
        stats={"x": error_stats(errors)}, parameters={"relation": "x", "alignment": "none"}
    )
    return _run(algorithm, "s1", 0.1).replace(comparisons={"ape:x": x})


@pytest.mark.parametrize("statistic", ["mean", "median", "min", "max", "final"])
def test_a_signed_error_ranks_by_its_magnitude_and_the_table_says_so(statistic: str) -> None:
    """APE x ranked by its median put -0.2 m first, ahead of 0.05 m: the most negative
    error "best" (a review). Every ranking orders by magnitude, closest to zero best."""
    far, near = _signed_run("far", [-0.2, -0.2]), _signed_run("near", [0.05, 0.05])
    ranking = rank_algorithms([far, near], metric="ape:x", statistic=statistic)
    assert ranking is not None
    assert [row.algorithm for row in ranking.rows] == ["near", "far"]
    assert [row.scores["s1"] for row in ranking.rows] == [0.05, 0.2]  # |-0.2|
    assert ranking.magnitude
    notes = " ".join(" ".join(ranking_table(ranking).notes).split())
    assert f"of ape x |{statistic}|, per sequence" in notes
    assert f"the errors are signed: each run's {statistic} is ranked by its magnitude" in notes
    assert "closest to zero best" in notes
    # rms is a magnitude, and errors never below zero have no sign to drop: as before.
    for unsaid in (
        rank_algorithms([far, near], metric="ape:x", statistic="rms"),
        rank_algorithms([_run("a", "s1", 0.1), _run("b", "s1", 0.2)], statistic=statistic),
    ):
        assert unsaid is not None
        assert not unsaid.magnitude
        assert "|" not in " ".join(ranking_table(unsaid).notes)
    # The two roads to a ranking agree: tallies of some runs, merged, say it too.
    one, two = (RankingTally(metric="ape:x", statistic=statistic) for _ in range(2))
    one.update(near)
    two.update(far)
    one.merge(two)
    assert one.compute() == ranking


@pytest.mark.parametrize(
    "runs",
    [
        [_run("b", "s1", 0.1), _run("a", "s1", 0.1)],  # the same success rate: by name
        [  # a ranks 1 then 2, b 2 then 1: mean rank 1.50 both; a succeeded 2/2, b 2/3
            _run("a", "s1", 0.1),
            _run("a", "s2", 0.3),
            _run("b", "s1", 0.2),
            _run("b", "s2", 0.2),
            _run("b", "s2", 0.2, trial=2, success=False),
        ],
    ],
)
def test_a_tie_in_mean_rank_is_said_once(runs: list[RunReport]) -> None:
    """bench printed "tie: a, b have the same mean rank (1.50) and success rate; listed by
    name" and "a and b tie at mean rank 1.50: listed by success, then name." for one tie
    (a review): the ranking says it, in one wording, and the table shows that."""
    ranking = rank_algorithms(runs)
    assert ranking is not None
    assert [row.algorithm for row in ranking.rows] == ["a", "b"]
    said = "tie: a, b have the same mean rank (1.50); listed by success rate, then name"
    assert [n for n in ranking.notes if "tie" in n] == [said]
    assert [n for n in ranking_table(ranking).notes if "tie" in n] == [said]


def _nees_run(algorithm: str, values: list[float]) -> RunReport:
    """A run whose APE NEES of positions (3 degrees of freedom) are ``values``."""
    nees = comparison(
        stats={"nees_position": error_stats(values)},
        units={"nees_position": ""},
        parameters={"relation": "nees_position", "alignment": "none"},
    )
    return _run(algorithm, "s1", 0.1).replace(comparisons={"ape:nees_position": nees})


def test_a_nees_ranks_by_its_means_distance_from_its_degrees_of_freedom() -> None:
    """Ranked closest to zero best, an estimator that overstates its covariance (mean
    NEES 0.5) came ahead of a consistent one (2.9, with 3 degrees of freedom): a NEES
    is best at its degrees of freedom, and only its mean has them as its target."""
    runs = [
        _nees_run("unsure", [0.5, 0.5]),
        _nees_run("consistent", [2.0, 3.8]),
        _nees_run("overconfident", [30.0, 30.0]),
    ]
    ranking = rank_algorithms(runs, metric="ape:nees_position", statistic="mean")
    assert ranking is not None
    assert [row.algorithm for row in ranking.rows] == ["consistent", "unsure", "overconfident"]
    # |2.9 - 3|, |0.5 - 3|, |30 - 3|
    assert [row.scores["s1"] for row in ranking.rows] == [pytest.approx(0.1), 2.5, 27.0]
    assert ranking.target == 3.0
    assert not ranking.magnitude
    notes = " ".join(" ".join(ranking_table(ranking).notes).split())
    assert "of ape nees_position |mean - 3|, per sequence" in notes
    assert "mean NEES is its 3 degrees of freedom" in notes
    assert ranking_table(ranking).headers[-1] == "s1"  # unitless: no "s1 []"
    with pytest.raises(ValidationError, match="Expected statistic 'mean' to rank nees_position"):
        rank_algorithms(runs, metric="ape:nees_position", statistic="rms")


def test_seeds_written_as_parameters_are_said_to_split_the_trials() -> None:
    # A learning run logs its seed in parameters: 2 policies x 3 seeds x 2 sequences,
    # the seed also its trial. By hand: mlp has 3 configurations (seed 0, 1, 2), each one
    # run on s1 and one on s2; dit has the seed in `trial` only: one configuration of 3
    # runs per sequence, nothing to say.
    runs = [
        _run("mlp", sequence, 0.1 + seed / 100, trial=seed, parameters={"seed": seed, "h": 16})
        for sequence in ("s1", "s2")
        for seed in range(3)
    ] + [
        _run("dit", sequence, 0.2, trial=seed, parameters={"h": 16})
        for sequence in ("s1", "s2")
        for seed in range(3)
    ]
    ranking = rank_algorithms(runs)
    assert ranking is not None
    assert [row.name for row in ranking.rows] == [
        "mlp (seed=0)",
        "mlp (seed=1)",
        "mlp (seed=2)",
        "dit",
    ]
    said = [note for note in ranking.notes if "one run each per sequence" in note]
    expected = (
        "mlp: 3 configurations told apart by seed, one run each per sequence: no trials "
        "are pooled (a parameter that only seeds a trial belongs in `trial`, not in "
        "`parameters`)"
    )
    assert said == [expected]
    # Two runs of one configuration on a sequence are pooled: nothing to say.
    pooled = rank_algorithms([*runs, runs[0].replace(name="mlp/s1/0b", trial="0b")])
    assert pooled is not None
    assert not [note for note in pooled.notes if "one run each" in note]


def test_failures_as_the_worst_error_never_score_a_line_whose_successes_have_no_score() -> None:
    """Counted worst, one failure beside 2 successes with no APE (no reference where others
    had one) scored 'inf': the median of the failure alone, said 'half or more failed' of 1
    in 3, and ranked ahead of a line of 3 such successes and no failure (inf before NaN).

    By hand: a 0.1 (1), b: 2 unscored + 1 failed, c: 3 unscored. Neither b nor c has a
    scored success: both 'n/a', tied last at (2 + 3) / 2 = 2.5, as counted apart; b's
    failure sinks it below c on success rate.
    """
    runs = [_run("a", "s", 0.1), *(_run("b", "s", None, trial=k) for k in (1, 2))]
    runs += [_run("b", "s", 0.01, trial=3, success=False)]
    runs += [_run("c", "s", None, trial=k) for k in (1, 2, 3)]
    for failures in ("apart", "worst"):
        ranking = rank_algorithms(runs, failures=failures)
        assert ranking is not None
        assert [r.algorithm for r in ranking.rows] == ["a", "c", "b"]
        assert [r.ranks["s"] for r in ranking.rows] == [1.0, 2.5, 2.5]
        assert [dict(r.scores) for r in ranking.rows] == [{"s": pytest.approx(0.1)}, {}, {}]
