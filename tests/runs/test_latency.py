"""Latency percentiles and rates against hand-computed values; the bag proxy on a written bag."""

from __future__ import annotations

import math
from importlib.resources import files
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.runs.latency import (
    BAG_PROXY_NOTE,
    dropped_frames,
    latency_from_bag,
    latency_from_samples,
    latency_from_timing,
    rate_hz,
)
from robot_msgs.runs.logs import read_timing
from tests.report.bagtools import write_pose_bag

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def test_latency_percentiles_of_known_samples_from_a_timing_log(tmp_path: Path) -> None:
    # Frames every 0.1 s; latency of frame k is (k + 1) * 10 ms, k = 0..99, so the sorted
    # samples are 10, 20, ..., 1000 ms. Linear interpolation (type 7): p50 sits halfway
    # between the 50th and 51st values, (500 + 510) / 2 = 505 ms; p95 at rank 0.95 * 99 =
    # 94.05, i.e. 950 + 0.05 * 10 = 950.5 ms. Processing is a constant 5 ms.
    k = np.arange(100)
    acq = k * 0.1
    avail = acq + (k + 1) * 0.010
    rows = "".join(
        f"{i},{a:.3f},{b - 0.005:.3f},{b:.3f}\n" for i, a, b in zip(k, acq, avail, strict=True)
    )
    path = tmp_path / "timing.csv"
    path.write_text("frame,acquisition_s,processing_start_s,available_s\n" + rows)
    lat = latency_from_timing(read_timing(path), clock="one host clock")
    assert lat.n_frames == 100
    assert lat.latency_p50_s == pytest.approx(0.505)
    assert lat.latency_p95_s == pytest.approx(0.9505)
    assert lat.latency_max_s == pytest.approx(1.0)
    assert lat.latency_mean_s == pytest.approx(0.505)
    assert lat.processing_p50_s == pytest.approx(0.005)
    assert lat.processing_p95_s == pytest.approx(0.005)
    assert lat.clock == "one host clock"
    assert lat.notes == ()


def test_latency_without_processing_column_has_nan_processing(tmp_path: Path) -> None:
    path = tmp_path / "timing.csv"
    path.write_text("frame,acquisition_s,available_s\n0,0.0,0.02\n1,0.1,0.16\n2,0.2,0.23\n")
    lat = latency_from_timing(read_timing(path))
    assert lat.latency_p50_s == pytest.approx(0.03)
    assert lat.latency_max_s == pytest.approx(0.06)
    assert math.isnan(lat.processing_p50_s)
    assert any("clock synchronisation not stated" in n for n in lat.notes)


def test_latency_mean_of_samples_whose_sum_overflows_is_their_mean(tmp_path: Path) -> None:
    """Two frames available 1e308 s after acquisition (finite, as read): the sum of the
    latencies overflowed, and the run ended as "got inf at Latency.latency_mean_s",
    naming no file (a hunt). The mean of two equal samples is that sample."""
    path = tmp_path / "timing.csv"
    path.write_text("frame,acquisition_s,available_s\n0,0,1e308\n1,1,1e308\n")
    lat = latency_from_timing(read_timing(path))
    assert (lat.latency_mean_s, lat.latency_max_s) == (1e308, 1e308)
    assert lat.latency_p50_s == lat.latency_p95_s == 1e308
    samples = np.array([0.25, 0.5, 0.5, 3.0])  # and NumPy's linear percentiles, bit for bit
    lat = latency_from_samples(samples)
    assert lat.latency_p50_s == float(np.percentile(samples, 50.0)) == 0.5
    assert lat.latency_p95_s == float(np.percentile(samples, 95.0))
    assert lat.latency_p95_s == pytest.approx(2.625)  # index 2.85: 0.5 + 0.85 * 2.5


def test_latency_rejects_negative_samples() -> None:
    with pytest.raises(ValidationError, match=r"latencies >= 0 s, got -0.1 at sample 1"):
        latency_from_samples([0.1, -0.1])


@pytest.mark.parametrize(
    ("latency", "processing", "said"),
    [
        (["a"], None, r"Expected `latency_s` as numbers, got list \['a'\]"),
        ([1 + 2j], None, r"Expected `latency_s` as real numbers"),
        ([0.1], ["fast"], r"Expected `processing_s` as numbers"),
    ],
)
def test_latency_of_samples_that_are_not_numbers_is_a_validation_error_naming_them(
    latency: list[object], processing: list[object] | None, said: str
) -> None:
    """NumPy's ValueError (could not convert string to float) and TypeError (complex)
    escaped latency_from_samples, naming neither argument."""
    with pytest.raises(ValidationError, match=said):
        latency_from_samples(latency, processing_s=processing)


@pytest.mark.parametrize(
    ("processing", "said"),
    [
        ([-0.5, -0.1], "got -0.5 at sample 0"),  # summarised as a p50 of -0.3 s
        ([0.05, -0.1], "got -0.1 at sample 1"),
        ([0.05, -math.inf], "got -inf at sample 1"),
        ([math.inf, 0.05], "got inf at sample 0"),  # left out as if unknown
    ],
)
def test_latency_rejects_negative_or_infinite_processing_samples(
    processing: list[float], said: str
) -> None:
    """latency_from_samples([0.1, 0.2], processing_s=[-0.5, -0.1]) gave processing_p50_s
    -0.3 s: a processing time is >= 0 as a latency is, refused the same way; NaN stays
    unknown (left out)."""
    with pytest.raises(ValidationError, match=rf"processing times >= 0 s .*, {said}$"):
        latency_from_samples([0.1, 0.2], processing_s=processing)
    lat = latency_from_samples([0.1, 0.2], processing_s=[math.nan, 0.05])
    assert lat.processing_p50_s == 0.05  # the one known sample
    assert latency_from_samples([0.1, 0.2], processing_s=[0.0, 0.0]).processing_max_s == 0.0


def test_effective_rate() -> None:
    assert rate_hz([0.0, 0.1, 0.2, 0.4]) == 7.5
    assert math.isnan(rate_hz([1.0]))


def test_a_rate_float64_cannot_hold_is_unknown_and_a_span_past_it_still_divides() -> None:
    """Two stamps 5e-324 s apart gave NumPy's overflow warning and a rate of inf Hz, which
    RunReport refuses (no rate measured); stamps -1e308 and 1e308 s gave 0 Hz (their span
    overflowed). By hand: 1 / 2e308 = 5e-309 Hz."""
    assert math.isnan(rate_hz([0.0, 5e-324]))
    assert math.isnan(rate_hz([0.0, 1e-310, 2e-310]))
    assert rate_hz([-1e308, 1e308]) == pytest.approx(5e-309, rel=1e-12)
    assert rate_hz([-1e308, 0.0, 1e308]) == pytest.approx(1e-308, rel=1e-12)


def test_bag_latency_proxy_is_receive_time_minus_header_stamp_and_says_so(tmp_path: Path) -> None:
    base = 1_700_000_000 * 10**9
    stamps = [base + i * 100_000_000 for i in range(5)]
    delays_ms = [20, 40, 30, 50, 10]
    received = [s + d * 1_000_000 for s, d in zip(stamps, delays_ms, strict=True)]
    write_pose_bag(tmp_path / "bag", stamps, received)
    lat = latency_from_bag(tmp_path / "bag", "/pose")
    assert lat.source == "bag_receive_proxy"
    assert BAG_PROXY_NOTE in lat.notes
    assert "proxy" in BAG_PROXY_NOTE
    assert lat.n_frames == 5
    assert lat.latency_p50_s == pytest.approx(0.030, abs=1e-6)
    # sorted 10, 20, 30, 40, 50 ms: p95 at rank 3.8 -> 40 + 0.8 * 10 = 48 ms
    assert lat.latency_p95_s == pytest.approx(0.048, abs=1e-6)
    assert lat.latency_max_s == pytest.approx(0.050, abs=1e-6)
    assert math.isnan(lat.processing_p50_s)


def test_bag_latency_refuses_messages_received_before_their_stamp(tmp_path: Path) -> None:
    base = 1_700_000_000 * 10**9
    write_pose_bag(tmp_path / "bag", [base, base + 10**8], [base + 10**7, base + 5 * 10**7])
    with pytest.raises(
        FormatError, match=r"message 1 was received 0.050000 s before its header stamp"
    ):
        latency_from_bag(tmp_path / "bag", "/pose")


def test_bag_latency_names_the_topics_when_one_is_missing(tmp_path: Path) -> None:
    base = 1_700_000_000 * 10**9
    write_pose_bag(tmp_path / "bag", [base], [base + 10**7])
    with pytest.raises(FormatError, match=r"expected a topic among \['/pose'\], got '/odom'"):
        latency_from_bag(tmp_path / "bag", "/odom")


@pytest.mark.parametrize(
    ("given", "error"),
    [  # meta.json's `bag`: rosbags' own errors escaped ('a bug in robot_msgs', exit 70)
        ("garbage.bag", r"garbage\.bag: not a ROS 1 bag: it starts with b'not a bag'"),
        ("/dev/zero", r"/dev/zero: is a character device: a bag must be a regular file"),
        ("nope.bag", r"nope\.bag: no such file or folder"),  # said in rosbags' words
        ("folder", r"folder: a folder without metadata\.yaml: not a ROS 2 bag folder"),
    ],
)
def test_bag_latency_of_a_file_that_is_no_bag_is_a_format_error_naming_it(
    tmp_path: Path, given: str, error: str
) -> None:
    pytest.importorskip("rosbags")
    (tmp_path / "garbage.bag").write_text("not a bag")
    (tmp_path / "folder").mkdir()
    with pytest.raises(FormatError, match=error):
        latency_from_bag(tmp_path / given, "/pose")


def test_dropped_frames_are_the_gaps_in_the_logs_frame_numbers(tmp_path: Path) -> None:
    """The example runs' vio_ekf drops frames while busy (its README), which no report
    said: the log's frame numbers skip them. Counted here as the numbers missing from
    ``first..last``, a second way to the same count."""
    path = tmp_path / "timing.csv"
    frames = [0, 1, 2, 5, 6, 9]  # 3, 4, 7 and 8 dropped
    rows = [f"{f},{f / 10},{f / 10 + 0.01},{f / 10 + 0.02}" for f in frames]
    path.write_text("frame,acquisition_s,processing_start_s,available_s\n" + "\n".join(rows))
    lat = latency_from_timing(read_timing(path), clock="same host")
    assert lat.n_dropped == len(set(range(frames[0], frames[-1] + 1)) - set(frames)) == 4
    assert lat.notes == ()
    # Numbers that are no frame counter say nothing, and the latency's notes say so.
    path.write_text("frame,acquisition_s,available_s\n0.5,0.0,0.02\n1.5,0.1,0.12\n")
    lat = latency_from_timing(read_timing(path), clock="same host")
    assert lat.n_dropped == -1
    assert lat.notes == ("frame numbers are not increasing integers: dropped frames unknown",)
    assert dropped_frames([3, 2]) == -1
    assert dropped_frames([]) == 0


@pytest.mark.parametrize(("function", "name"), [(rate_hz, "stamps_s"), (dropped_frames, "frame")])
@pytest.mark.parametrize("given", [["a", "b"], ["0", "1"], [0.0, 1j], [[0.0], [1.0, 2.0]]])
def test_rate_and_dropped_frames_refuse_what_is_not_numbers_naming_the_argument(
    function: Callable[[object], object], name: str, given: list[object]
) -> None:
    """rate_hz(["a", "b"]) let NumPy's ValueError out ("could not convert string to
    float"), and ["0", "1"] were read as numbers, where latency_from_samples refuses both."""
    with pytest.raises(ValidationError, match=rf"Expected `{name}` as "):
        function(given)


def test_the_example_runs_dropped_frames() -> None:
    root = files("robot_msgs") / "examples" / "runs" / "vio_ekf" / "fr1_xyz" / "trial_1"
    log = read_timing(root / "timing.csv")  # type: ignore[arg-type]
    numbers = [int(f) for f in log.frame]
    missing = set(range(numbers[0], numbers[-1] + 1)) - set(numbers)
    assert latency_from_timing(log).n_dropped == len(missing) == 18


def test_skipped_frames_within_a_loss_without_rows_are_not_dropped() -> None:
    """Frames 0 1 2 6 7 at 10 Hz skip 3 4 5 (0.3 0.4 0.5 s, taken evenly between 0.2 and
    0.6 s). Lost 0.35 .. 0.6 s: 0.4 and 0.5 are the loss's, 1 dropped; lost 0.3 .. 0.5 s:
    [0.3, 0.5) holds 0.3 and 0.4, 1 dropped; no loss: 3. Lost from 0.35 s for good, the
    rows at 0.6 and 0.7 s are logged while lost: the run logs while lost, 3 dropped
    (the vio_ekf example: frames dropped while busy, two of them in a loss)."""
    frames, acquired = [0, 1, 2, 6, 7], [0.0, 0.1, 0.2, 0.6, 0.7]
    assert dropped_frames(frames, acquired, (np.array([0.35]), np.array([0.6]))) == 1
    assert dropped_frames(frames, acquired, (np.array([0.3]), np.array([0.5]))) == 1
    assert dropped_frames(frames, acquired, (np.empty(0), np.empty(0))) == 3
    assert dropped_frames(frames, acquired, (np.array([0.35]), np.array([np.inf]))) == 3
    # A clock going back over the gap says nothing of when the frames were: dropped.
    lost = (np.array([0.35]), np.array([0.6]))
    assert dropped_frames(frames, [0.0, 0.1, 0.7, 0.6, 0.8], lost) == 3


def test_a_row_at_a_loss_start_is_the_frame_lost_on_and_its_gap_is_the_loss() -> None:
    """A run that logs the frame it lost tracking on has a row at the loss's start; that
    row was read as the run logging through the loss, and the frames after it counted
    dropped. By hand, frames 0 1 2 6 7 at 10 Hz skip 3 4 5 (0.3 0.4 0.5 s): lost on
    frame 2, 0.2 .. 0.6 s, all 3 the loss's, 0 dropped (it said 3); lost 0.2 .. 0.5 s,
    3 and 4 the loss's, 5 dropped; with a row at 0.4 s inside the loss, logged through:
    3 and 5 dropped. Initialising, lost from the first frame 0 until frame 3, frames
    0 3 4: 1 and 2 the loss's, 0 dropped (it said 2)."""
    frames, acquired = [0, 1, 2, 6, 7], [0.0, 0.1, 0.2, 0.6, 0.7]
    assert dropped_frames(frames, acquired, (np.array([0.2]), np.array([0.6]))) == 0
    assert dropped_frames(frames, acquired, (np.array([0.2]), np.array([0.5]))) == 1
    through = [0, 1, 2, 4, 6, 7], [0.0, 0.1, 0.2, 0.4, 0.6, 0.7]
    assert dropped_frames(*through, (np.array([0.2]), np.array([0.6]))) == 2
    assert dropped_frames([0, 3, 4], [0.0, 0.3, 0.4], (np.array([0.0]), np.array([0.3]))) == 0


def test_losses_not_sorted_and_disjoint_or_times_not_one_per_frame_are_refused() -> None:
    """Overlapping losses [0.3, 0.5) and [0.35, 0.6) counted frame 4 (0.4 s) in both: 3
    skipped less 4 gave -1, the mark of frame numbers that say nothing (a review)."""
    frames, acquired = [0, 1, 2, 6, 7], [0.0, 0.1, 0.2, 0.6, 0.7]
    overlapping = (np.array([0.3, 0.35]), np.array([0.5, 0.6]))
    with pytest.raises(ValidationError, match=r"Expected losses sorted and disjoint"):
        dropped_frames(frames, acquired, overlapping)
    unsorted = (np.array([0.45, 0.3]), np.array([0.6, 0.45]))
    with pytest.raises(ValidationError, match=r"Expected losses sorted and disjoint"):
        dropped_frames(frames, acquired, unsorted)
    with pytest.raises(ValidationError, match=r"Expected 5 acquisition times, got 4"):
        dropped_frames(frames, acquired[:4], (np.array([0.3]), np.array([0.5])))
    # Touching losses are disjoint ([0.3, 0.45) then [0.45, 0.6)): all 3 the losses'.
    assert dropped_frames(frames, acquired, (np.array([0.3, 0.45]), np.array([0.45, 0.6]))) == 0


def test_skipped_frames_in_silent_losses_match_a_count_frame_by_frame() -> None:
    """Against each skipped frame placed by hand, evenly between the rows around it, and
    each loss with no row in it: random logs of 10 Hz frames, many dropped, and losses
    between, around and across rows, before the first and after the last, half of them
    starting on a row (the frame tracking was lost on: not a row in the loss)."""
    rng = np.random.default_rng(3)
    counted = 0
    for _ in range(50):
        frames = np.flatnonzero(rng.random(400) < 0.4).astype(float)
        acquired = frames / 10.0
        grid = np.arange(-10, 410) / 10.0 + rng.choice([0.0, 0.05], 420)
        starts = np.sort(rng.choice(grid, 30, replace=False))
        ends = np.round(starts + rng.choice([0.1, 0.2, 0.5, 1.0], 30), 2)  # 0.1 + 0.2 > 0.3
        ends = np.minimum(ends, np.r_[starts[1:], 99])
        ends[-1] = np.inf if rng.random() < 0.5 else ends[-1]
        losses = list(zip(starts, ends, strict=True))
        silent = [(a, b) for a, b in losses if not ((acquired > a) & (acquired < b)).any()]
        missing = sorted(set(range(int(frames[0]), int(frames[-1]) + 1)) - set(frames))
        ours = sum(any(a <= k / 10.0 < b for a, b in silent) for k in missing)
        assert dropped_frames(frames, acquired, (starts, ends)) == len(missing) - ours
        counted += ours
    assert counted > 100  # the losses' frames were many
