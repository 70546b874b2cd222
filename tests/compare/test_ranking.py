"""RankingRow and Ranking: the rules a row's counts keep."""

from __future__ import annotations

import math
import pickle

import pytest

from robot_msgs.compare import Ranking, RankingRow
from robot_msgs.errors import ValidationError
from robot_msgs.msg import decode_json
from robot_msgs.msg.catalog import example
from robot_msgs.report.ranking_tables import ranking_table


def _row(n_runs: int, n_succeeded: int) -> RankingRow:
    return RankingRow(
        algorithm="orb", position=1, mean_rank=1.0, n_runs=n_runs, n_succeeded=n_succeeded
    )


@pytest.mark.parametrize("n_succeeded", [0, -1, 3])
def test_row_with_negative_run_count_names_n_runs(n_succeeded: int) -> None:
    # n_runs = -1 is wrong on its own, whatever n_succeeded says: it is named first.
    with pytest.raises(
        ValidationError, match=r"Expected a count >= 0, got int -1 - at `RankingRow\.n_runs`"
    ) as caught:
        _row(n_runs=-1, n_succeeded=n_succeeded)
    assert caught.value.field == "RankingRow.n_runs"


@pytest.mark.parametrize("n_succeeded", [-1, 4])
def test_row_with_succeeded_outside_runs_names_n_succeeded(n_succeeded: int) -> None:
    with pytest.raises(ValidationError, match=r"\[0, n_runs=3\].*at `RankingRow\.n_succeeded`"):
        _row(n_runs=3, n_succeeded=n_succeeded)


def test_row_counts_at_their_bounds_are_valid() -> None:
    assert _row(n_runs=0, n_succeeded=0).n_runs == 0
    assert _row(n_runs=3, n_succeeded=3).success_rate == 1.0


def test_ranking_with_a_negative_left_out_count_names_it() -> None:
    # {"failed": -2} was kept, and n_left_out said -2 runs were left out.
    ranking = example("compare/Ranking")
    assert isinstance(ranking, Ranking)
    with pytest.raises(
        ValidationError,
        match=r"Expected a count >= 0, got int -2 - at `Ranking\.left_out\['failed'\]`",
    ) as caught:
        ranking.replace(left_out={"failed": -2})
    assert caught.value.field == "Ranking.left_out['failed']"
    assert ranking.replace(left_out={"failed": 0}).n_left_out == 0


@pytest.mark.parametrize("coverage", [-1.0, 1.5, math.inf, -math.inf])
def test_row_mean_coverage_is_a_share(coverage: float) -> None:
    # A mean of run coverages, each a share in [0, 1] (RunReport.coverage's rule): -1.0
    # was kept, and tables showed a coverage of -100 %.
    row = _row(n_runs=3, n_succeeded=2)
    with pytest.raises(
        ValidationError,
        match=r"Expected a share in \[0, 1\] or NaN, .* - at `RankingRow\.mean_coverage`$",
    ):
        row.replace(mean_coverage=coverage)
    for share in (0.0, 1.0, math.nan):
        assert row.replace(mean_coverage=share) == row.replace(mean_coverage=share)


@pytest.mark.parametrize("position", [0, -1])
def test_row_position_is_one_based(position: int) -> None:
    # A row alone took position 0 or -1; only Ranking's order check refused them, so a
    # row read or built by itself said it ranked 0th.
    with pytest.raises(
        ValidationError,
        match=rf"Expected a position >= 1, got int {position} - at `RankingRow\.position`$",
    ) as caught:
        _row(n_runs=3, n_succeeded=2).replace(position=position)
    assert caught.value.field == "RankingRow.position"
    assert _row(n_runs=3, n_succeeded=2).replace(position=2).position == 2


#: A ranking as 3486607^ saved it (encode_json): a's run succeeded with no IAE (one
#: sample), b's failed, c's has 0.1 m·s. Both a's and b's cells were NaN, shown "- (2.5)".
_SAVED_BEFORE_NA = (
    '{"_type":"compare/Ranking","metric":"ape","signal":"translation","statistic":"iae",'
    '"unit":"m·s","sequences":["s1"],"rows":['
    '{"_type":"compare/RankingRow","algorithm":"c","position":1,"mean_rank":1.0,"n_runs":1,'
    '"n_succeeded":1,"mean_coverage":1.0,"scores":{"s1":0.1},"ranks":{"s1":1.0},'
    '"version":"","parameters":{},"label":"c"},'
    '{"_type":"compare/RankingRow","algorithm":"a","position":2,"mean_rank":2.5,"n_runs":1,'
    '"n_succeeded":1,"mean_coverage":1.0,"scores":{"s1":null},"ranks":{"s1":2.5},'
    '"version":"","parameters":{},"label":"a"},'
    '{"_type":"compare/RankingRow","algorithm":"b","position":3,"mean_rank":2.5,"n_runs":1,'
    '"n_succeeded":0,"mean_coverage":0.5,"scores":{"s1":null},"ranks":{"s1":2.5},'
    '"version":"","parameters":{},"label":"b"}],'
    '"settings":{"alignment":"se3","max_diff_s":0.01},"forced":false,"notes":[],'
    '"left_out":{},"magnitude":false,"target":0.0}'
)


def test_a_saved_nan_score_of_a_line_with_no_failed_run_is_shown_na() -> None:
    """An old ranking showed a's successful, unscored run "- (2.5)", the legend's "none
    succeeded". Every run of a's line succeeded, so its NaN was no score: "n/a (2.5)".
    b's line has a failed run: its NaN stays "- (2.5)" (it cannot be told apart)."""
    ranking = decode_json(_SAVED_BEFORE_NA.encode(), Ranking)
    cells = {row[1]: row[5] for row in ranking_table(ranking).rows}
    assert cells == {"c": "0.1000 (1)", "a": "n/a (2.5)", "b": "- (2.5)"}
    assert "n/a (k) = succeeded, no iae to score" in " ".join(
        ranking_table(ranking).notes[0].split()
    )
    a, b = ranking.rows[1:]
    assert (dict(a.scores), math.isnan(b.scores["s1"])) == ({}, True)
    row = RankingRow(
        algorithm="a", position=2, mean_rank=2.5, n_runs=2, n_succeeded=2,
        scores={"s2": 0.3}, ranks={"s1": 2.5, "s2": 1.0},
    )  # fmt: skip
    rebuild, (cls, fields) = row.__reduce__()  # what unpickling calls
    pickled = {**fields, "scores": {"s1": math.nan, "s2": 0.3}}  # as a release before 3486607
    back = rebuild(cls, pickled)
    assert isinstance(back, RankingRow)
    assert dict(back.scores) == {"s2": 0.3}


def test_a_nan_score_in_a_line_none_of_whose_runs_failed_is_refused() -> None:
    """Read back, such a NaN is no score ("n/a", ``RankingRow._upgrade``): a row made with
    one changed in a JSON or pickle round trip ("- (k)", then "n/a (k)"). A line with a
    failed run keeps its NaN: that sequence's runs may all have failed."""
    with pytest.raises(ValidationError, match=r"Expected no NaN score .* at `RankingRow.scores`"):
        _row(n_runs=2, n_succeeded=2).replace(scores={"s1": math.nan})
    kept = _row(n_runs=2, n_succeeded=1).replace(scores={"s1": math.nan})
    assert pickle.loads(pickle.dumps(kept)) == kept
