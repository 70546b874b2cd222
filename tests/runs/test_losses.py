"""Losses, validity and coverage: hand-computed intervals."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.compare import TrackingLoss
from robot_msgs.runs.logs import TrackingLog, read_tracking
from robot_msgs.runs.losses import coverage, losses_from_log, valid_mask


def _events(*pairs: tuple[float, str]) -> TrackingLog:
    return TrackingLog(
        path=Path("tracking.csv"),
        kind="events",
        stamps_s=np.array([t for t, _ in pairs]),
        lost=np.array([e == "lost" for _, e in pairs]),
    )


def test_two_losses_of_one_and_a_half_and_half_a_second_total_two_seconds(tmp_path: Path) -> None:
    path = tmp_path / "tracking.csv"
    path.write_text("time_s,event\n2.0,lost\n3.5,recovered\n6.0,lost\n6.5,recovered\n")
    losses = losses_from_log(read_tracking(path), end_s=10.0)
    assert len(losses) == 2
    assert [loss.duration_s for loss in losses] == [1.5, 0.5]
    assert sum(loss.duration_s for loss in losses) == 2.0
    assert all(loss.recovered for loss in losses)


def test_validity_flags_give_losses_from_first_invalid_to_next_valid(tmp_path: Path) -> None:
    # 10 Hz poses; invalid at 1.0, 1.1, 1.2 and from 1.8 to the end (never recovered).
    t = np.round(np.arange(0, 21) / 10.0, 1)
    valid = np.ones(t.size, dtype=int)
    valid[[10, 11, 12]] = 0
    valid[18:] = 0
    path = tmp_path / "tracking.csv"
    rows = "".join(f"{a},{b}\n" for a, b in zip(t, valid, strict=True))
    path.write_text("time_s,valid\n" + rows)
    losses = losses_from_log(read_tracking(path), end_s=3.0)
    assert [(x.start_s, x.end_s, x.recovered) for x in losses] == [
        (1.0, 1.3, True),
        (1.8, 3.0, False),
    ]
    assert losses[0].duration_s == pytest.approx(0.3)


def test_unrecovered_loss_runs_to_the_end_of_the_sequence() -> None:
    losses = losses_from_log(_events((4.0, "lost")), end_s=10.0)
    assert losses == (TrackingLoss(start_s=4.0, end_s=10.0, recovered=False),)


def test_unrecovered_loss_without_known_end_stops_at_the_last_event() -> None:
    losses = losses_from_log(
        _events((1.0, "lost"), (2.0, "recovered"), (4.0, "lost")), end_s=math.nan
    )
    assert losses[-1] == TrackingLoss(start_s=4.0, end_s=4.0, recovered=False)


def test_valid_mask_excludes_poses_inside_half_open_losses() -> None:
    losses = [
        TrackingLoss(start_s=1.0, end_s=2.0),
        TrackingLoss(start_s=3.0, end_s=5.0, recovered=False),
    ]
    t = np.array([0.5, 1.0, 1.999, 2.0, 2.5, 3.0, 7.0])
    assert valid_mask(t, losses).tolist() == [True, False, False, True, True, False, False]


def test_coverage_subtracts_losses_from_the_reference_span() -> None:
    t = np.arange(0, 101) / 10.0
    losses = [TrackingLoss(start_s=2.0, end_s=3.5), TrackingLoss(start_s=6.0, end_s=6.5)]
    # covered: 10 s minus 1.5 s and 0.5 s lost, over 10 s
    assert coverage(t, losses, start_s=0.0, end_s=10.0, coverage_gap_s=1.0) == pytest.approx(0.8)


def test_coverage_counts_late_start_early_end_and_long_gaps_as_uncovered() -> None:
    # Estimate from 1 s to 4 s and 6 s to 8 s at 0.5 s steps; the 2 s gap exceeds coverage_gap.
    t = np.concatenate([np.arange(1.0, 4.01, 0.5), np.arange(6.0, 8.01, 0.5)])
    # covered: [1, 4] + [6, 8] = 5 s of a 10 s span
    assert coverage(t, [], start_s=0.0, end_s=10.0, coverage_gap_s=1.0) == pytest.approx(0.5)
    # with a larger coverage_gap the gap counts: [1, 8] = 7 s
    assert coverage(t, [], start_s=0.0, end_s=10.0, coverage_gap_s=2.5) == pytest.approx(0.7)


def test_coverage_clips_to_the_span_and_is_nan_without_one() -> None:
    t = np.arange(-5.0, 15.01, 0.5)
    assert coverage(t, [], start_s=0.0, end_s=10.0, coverage_gap_s=1.0) == pytest.approx(1.0)
    assert math.isnan(coverage(t, [], start_s=math.nan, end_s=math.nan, coverage_gap_s=1.0))
    assert coverage(t[:1], [], start_s=0.0, end_s=10.0, coverage_gap_s=1.0) == 0.0


def test_unrecovered_loss_uncovers_everything_after_it() -> None:
    t = np.arange(0, 101) / 10.0
    losses = [TrackingLoss(start_s=7.5, end_s=10.0, recovered=False)]
    assert coverage(t, losses, start_s=0.0, end_s=10.0, coverage_gap_s=1.0) == pytest.approx(0.75)


def test_full_coverage_is_one_whatever_the_rounding_of_its_pieces() -> None:
    """50 stamps 0.1 s apart, as read from "%.9f" text, covered 1.0000000000000002 of
    0 .. 4.9 s (the pieces' sum passed the span by rounding): RunReport refused it, and
    every run of such files failed to evaluate (a review)."""
    t = np.array([float(f"{k * 0.1:.9f}") for k in range(50)])
    assert coverage(t, [], start_s=0.0, end_s=4.9, coverage_gap_s=1.0) == 1.0
