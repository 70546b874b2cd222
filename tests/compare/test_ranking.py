"""RankingRow and Ranking: the rules a row's counts keep."""

from __future__ import annotations

import math

import pytest

from robot_msgs.compare import Ranking, RankingRow
from robot_msgs.errors import ValidationError
from robot_msgs.msg.catalog import example


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
