"""evaluate_run on constructed runs whose answers are known by hand."""

from __future__ import annotations

import json
import math
import re
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import DataWarning
from robot_msgs.evaluation import EvaluationSettings
from robot_msgs.evaluation.ape import ape_result
from robot_msgs.io import write_kitti, write_tum
from robot_msgs.metrics import path_length, path_smoothness
from robot_msgs.runs import RunSettings, default_metrics, evaluate_run, load_run, load_runs
from robot_msgs.trajectory import PoseTrajectory
from tests.report.bagtools import write_pose_bag

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.compare import EvaluationResult, RunReport
    from robot_msgs.evaluation import Ape
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.runs import RunEvaluation
    from robot_msgs.typing import Float64Array

NONE = RunSettings(evaluation=EvaluationSettings(align="none"), metrics=default_metrics((1.0,)))
T = np.round(np.arange(101) / 10.0, 1)  # 0.0 .. 10.0 s at 10 Hz


def _traj(t: Float64Array, xyz: Float64Array) -> PoseTrajectory:
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.asarray(xyz, dtype=float),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)),
    )


def _line(t: Float64Array, dy: float = 0.0) -> Float64Array:
    return np.stack([t, np.full_like(t, dy), np.zeros_like(t)], axis=1)


def _evaluation(folder: Path, settings: RunSettings = NONE) -> RunEvaluation:
    (spec,) = load_runs([folder]).runs
    return evaluate_run(load_run(spec), settings)


def run_report(folder: Path, settings: RunSettings = NONE) -> RunReport:
    """The report of the run folder ``folder``."""
    return _evaluation(folder, settings).report


def _run_folder(
    root: Path,
    name: str,
    estimate: PoseTrajectory | None,
    *,
    reference: PoseTrajectory | None = None,
    meta: dict[str, object] | None = None,
    tracking: str | None = None,
    timing: str | None = None,
) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    if estimate is not None:
        write_tum(folder / "estimate.tum", estimate)
    if reference is not None:
        write_tum(folder / "reference.tum", reference)
    if meta is not None:
        (folder / "meta.json").write_text(json.dumps(meta))
    if tracking is not None:
        (folder / "tracking.csv").write_text(tracking)
    if timing is not None:
        (folder / "timing.csv").write_text(timing)
    return folder


def test_frames_missing_from_the_timing_log_while_lost_are_the_loss_not_dropped_frames(
    tmp_path: Path,
) -> None:
    """A run that logs the frames it gave a pose for skips those while lost: frames 30
    .. 39 (acquired 3.0 .. 3.9 s, lost 3 .. 4 s) were 10 dropped frames beside the loss's
    1.0 s, the same frames counted twice. By hand: 0 .. 100 less 30 .. 39 (lost) and 70,
    71 (busy): 12 skipped, 2 dropped, 10 said to be the loss's."""
    frames = [k for k in range(101) if not 30 <= k <= 39 and k not in (70, 71)]
    timing = "frame,acquisition_s,available_s\n" + "".join(
        f"{k},{k / 10:.1f},{k / 10 + 0.02:.2f}\n" for k in frames
    )
    tracking = "time_s,event\n3.0,lost\n4.0,recovered\n"
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T)), tracking=tracking, timing=timing)
    report = run_report(folder)
    assert report.lost_s == pytest.approx(1.0)
    assert report.latency is not None
    assert report.latency.n_dropped == 2
    assert (
        "10 frames missing from the timing log while tracking was lost or initialising: "
        "not counted as dropped"
    ) in report.latency.notes
    # Without the loss they are all dropped, and nothing is said.
    folder = _run_folder(tmp_path, "busy", _traj(T, _line(T)), timing=timing)
    latency = run_report(folder).latency
    assert latency is not None
    assert latency.n_dropped == 12
    assert not any("while tracking was lost" in note for note in latency.notes)


def test_frames_after_the_frame_lost_on_and_while_initialising_are_the_loss_not_dropped(
    tmp_path: Path,
) -> None:
    """Frames 0 .. 100 at 10 Hz (a reference and estimate from 1.0 s), lost 3 .. 4 s. A
    run logging frame 30, the one it lost tracking on, had its 9 frames after counted
    dropped (11 with 70 and 71, busy): 2 dropped, 9 the loss's. Initialising from frame 0
    (logged), lost 0 .. 1 s before the reference starts (the sequence does not meet that
    loss), frames 1 .. 9 were dropped too (20): 2 dropped, 18 the losses'."""
    t = T[10:]
    frames = [k for k in range(101) if not (1 <= k <= 9 or 31 <= k <= 39 or k in (70, 71))]
    timing = "frame,acquisition_s,available_s\n" + "".join(
        f"{k},{k / 10:.1f},{k / 10 + 0.02:.2f}\n" for k in frames
    )
    tracking = "time_s,event\n0.0,lost\n1.0,recovered\n3.0,lost\n4.0,recovered\n"
    folder = _run_folder(
        tmp_path, "run", _traj(t, _line(t)), reference=_traj(t, _line(t)),
        tracking=tracking, timing=timing,
    )  # fmt: skip
    report = run_report(folder)
    assert report.lost_s == pytest.approx(1.0)  # 3 .. 4 s: the sequence is 1 .. 10 s
    assert report.latency is not None
    assert report.latency.n_dropped == 2
    assert (
        "18 frames missing from the timing log while tracking was lost or initialising: "
        "not counted as dropped"
    ) in report.latency.notes


def test_two_losses_of_1_5_and_0_5_s_count_2_and_2_s_lost_and_accuracy_skips_them(
    tmp_path: Path,
) -> None:
    xyz = _line(T, dy=0.1)  # 0.1 m off the reference everywhere...
    lost = ((T >= 2.0) & (T < 3.5)) | ((T >= 6.0) & (T < 6.5))
    xyz[lost, 1] += 5.0  # ...and 5 m off while tracking is lost
    folder = _run_folder(
        tmp_path, "run", _traj(T, xyz), reference=_traj(T, _line(T)),
        tracking="time_s,event\n2.0,lost\n3.5,recovered\n6.0,lost\n6.5,recovered\n",
    )  # fmt: skip
    report = run_report(folder)
    assert report.accuracy is not None
    assert report.n_losses == 2
    assert report.lost_s == pytest.approx(2.0)
    assert [loss.duration_s for loss in report.losses] == pytest.approx([1.5, 0.5])
    assert report.success
    assert report.failure == ""
    assert report.coverage == pytest.approx(0.8)  # 8 s of 10 s with a valid estimate
    assert report.n_estimate == 101
    assert report.n_valid == 101 - 15 - 5
    ape = report.accuracy.stats["translation"]
    assert ape.n == 81
    assert ape.rms == pytest.approx(0.1)
    assert ape.max == pytest.approx(0.1)  # the 5 m poses are not in it
    assert any("valid poses of 101" in n for n in report.accuracy.notes)
    assert list(report.comparisons) == ["ape:translation", "rpe:translation:1s:all"]
    assert report.rpe[0].stats["translation"].max == pytest.approx(0.0, abs=1e-12)


def test_run_without_reference_has_no_comparison_and_is_not_a_failure(tmp_path: Path) -> None:
    report = run_report(_run_folder(tmp_path, "a", _traj(T, _line(T))))
    assert report.accuracy is None
    assert dict(report.comparisons) == {}
    assert report.to_dict()["comparisons"] == {}
    assert report.repeatability is None
    assert report.success
    assert any("success not checked" in n for n in report.notes)
    assert math.isnan(report.coverage)


@pytest.mark.parametrize(
    ("meta", "estimate_end", "tracking", "failure", "note"),
    [
        ({"exit_code": -11}, 10.0, None, "killed by SIGSEGV (exit code -11)", None),
        ({"exit_code": 3}, 10.0, None, "exit code 3", None),
        ({"failure": "out of memory"}, 10.0, None, "out of memory", None),
        ({}, 7.0, None, "estimate ends early", "last valid pose at 7.00 s of 10.00 s"),
        (  # every pose in a loss: there is no last valid pose to say (it said '-inf s')
            {},
            8.5,
            "time_s,event\n0.0,lost\n9.0,recovered\n",
            "estimate ends early",
            "no valid pose: the 86 poses all fall in tracking losses",
        ),
        (
            {},
            10.0,
            "time_s,event\n8.0,lost\n",
            "tracking lost, not recovered",
            "tracking lost at 8.00 s",
        ),
        ({}, None, None, "no estimate", "estimate.tum does not exist (the run wrote nothing"),
    ],
)
def test_failures_are_short_categories_with_details_in_notes(
    tmp_path: Path,
    meta: dict[str, object],
    estimate_end: float | None,
    tracking: str | None,
    failure: str,
    note: str | None,
) -> None:
    estimate = (
        None if estimate_end is None else _traj(T[estimate_end >= T], _line(T[estimate_end >= T]))
    )
    folder = _run_folder(
        tmp_path, "run", estimate, reference=_traj(T, _line(T)), meta=meta, tracking=tracking
    )
    report = run_report(folder)
    assert not report.success
    assert report.failure == failure
    if note is not None:
        assert any(note in n for n in report.notes), report.notes


def test_an_empty_estimate_file_is_named_as_empty(tmp_path: Path) -> None:
    """A 0-byte estimate.tum read "no pose in .../estimate.tum", as a file of comments does.

    Both are "no estimate"; the note tells the run that wrote nothing from a header alone.
    """
    reference = _traj(T, _line(T))
    empty = _run_folder(tmp_path, "empty", None, reference=reference)
    (empty / "estimate.tum").write_bytes(b"")
    header = _run_folder(tmp_path, "header", None, reference=reference)
    (header / "estimate.tum").write_text("# timestamp tx ty tz qx qy qz qw\n")
    said = {}
    for folder in (empty, header):
        report = run_report(folder)
        assert report.failure == "no estimate"
        said[folder.name] = report.notes[0]
    assert said["empty"] == f"{empty / 'estimate.tum'} is empty (0 bytes: the run wrote nothing)"
    assert said["header"] == f"no pose in {header / 'estimate.tum'}"


def test_a_run_ending_within_the_end_tolerance_succeeds(tmp_path: Path) -> None:
    t = T[T <= 9.5]
    folder = _run_folder(tmp_path, "run", _traj(t, _line(t)), reference=_traj(T, _line(T)))
    assert run_report(folder).success
    strict = NONE.replace(end_tolerance_s=0.1)
    assert run_report(folder, strict).failure == "estimate ends early"


def test_timing_gives_latency_rates_and_the_span_without_reference(tmp_path: Path) -> None:
    # 11 frames at 10 Hz; 10 processed (frame 5 dropped); latency 30 ms, processing 20 ms.
    frames = [k for k in range(11) if k != 5]
    timing = "frame,acquisition_s,processing_start_s,available_s\n" + "".join(
        f"{k},{k / 10:.2f},{k / 10 + 0.01:.2f},{k / 10 + 0.03:.2f}\n" for k in frames
    )
    t = np.array([k / 10 for k in frames])
    folder = _run_folder(
        tmp_path,
        "run",
        _traj(t, _line(t)),
        timing=timing,
        meta={"input_rate_hz": 10.0, "clock": "one clock"},
    )
    report = run_report(folder)
    assert report.latency is not None
    assert report.latency.latency_p50_s == pytest.approx(0.03)
    assert report.latency.processing_p95_s == pytest.approx(0.02)
    assert report.latency.clock == "one clock"
    assert report.input_rate_hz == pytest.approx(9 / 1.0)  # 10 frames over 1 s
    assert report.nominal_input_rate_hz == 10.0
    assert report.output_rate_hz == pytest.approx(9.0)
    assert report.span_source == "timing"
    assert report.success


def test_the_evidence_is_the_summarised_errors(tmp_path: Path) -> None:
    # A non-degenerate path so that SE(3) alignment is determined.
    xyz = np.stack([np.cos(T / 2), np.sin(T / 2), 0.1 * T], axis=1)
    est = xyz + 0.01 * np.stack([np.sin(3 * T), np.cos(5 * T), np.sin(7 * T)], axis=1)
    folder = _run_folder(tmp_path, "run", _traj(T, est), reference=_traj(T, xyz))
    settings = RunSettings(metrics=default_metrics((0.5, 2.0)))
    evaluation = _evaluation(folder, settings)
    assert list(evaluation.results) == list(evaluation.report.comparisons)
    for name, result in evaluation.results.items():
        errors = result.series["translation"].errors
        rms = evaluation.report.comparisons[name].stats["translation"].rms
        assert np.sqrt(np.mean(errors**2)) == pytest.approx(rms, rel=1e-12)
    assert [c.parameters["delta"] for c in evaluation.report.rpe] == [0.5, 2.0]
    assert [c.signals[0].delta for c in evaluation.report.rpe] == [0.5, 2.0]
    assert evaluation.primary is evaluation.results["ape:translation"]
    assert list(evaluation.rpe_results) == ["rpe:translation:0.5s:all", "rpe:translation:2s:all"]


def test_metrics_sharing_settings_share_one_alignment_and_own_settings_get_their_own(
    tmp_path: Path,
) -> None:
    xyz = np.stack([np.cos(T / 2), np.sin(T / 2), 0.1 * T], axis=1)
    est = xyz + np.array([0.3, 0.0, 0.0])  # a constant offset: SE(3) removes it, none keeps it
    folder = _run_folder(tmp_path, "run", _traj(T, est), reference=_traj(T, xyz))
    settings = RunSettings.from_options(
        {"evaluate": [{"metric": "ape"}, {"metric": "ape", "align": "none", "name": "raw"}]},
        where="test",
    )
    report = run_report(folder, settings)
    assert report.comparisons["ape:translation"].stats["translation"].max < 1e-9
    assert report.comparisons["raw"].stats["translation"].rms == pytest.approx(0.3)
    assert report.comparisons["raw"].settings == EvaluationSettings()


def test_too_large_rpe_delta_is_skipped_with_a_note(tmp_path: Path) -> None:
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T, 0.1)), reference=_traj(T, _line(T)))
    report = run_report(folder, NONE.replace(metrics=default_metrics((1.0, 50.0))))
    assert len(report.rpe) == 1
    assert any("rpe:translation:50s:all skipped" in n for n in report.notes)


def test_a_time_range_cuts_the_reference_and_the_sequence_span(tmp_path: Path) -> None:
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T, 0.1)), reference=_traj(T, _line(T)))
    settings = NONE.replace(evaluation=EvaluationSettings(align="none", t_start_s=2.0, t_end_s=6.0))
    report = run_report(folder, settings)
    assert report.accuracy is not None
    assert report.accuracy.counts["matched"] == 41  # 2.0 .. 6.0 s at 10 Hz
    assert (report.sequence_start_s, report.sequence_end_s) == (2.0, 6.0)
    assert report.success


# Five frames acquired at 0, 0.5 .. 2 s, each available 0.1 s + 10 ms per frame later.
_EARLY_TIMING = "frame,acquisition_s,available_s\n" + "".join(
    f"{i},{i * 0.5},{i * 0.5 + 0.1 + i * 0.01}\n" for i in range(5)
)


def test_a_time_range_cuts_the_losses_and_the_latency_too(tmp_path: Path) -> None:
    """--t-start 5 said 1 loss of 1.0 s (at 3 .. 4 s) beside a coverage of 100 % of
    5 .. 10 s, and a latency over 5 frames all acquired before 5 s (a review)."""
    ref = _traj(T, _line(T))
    folder = _run_folder(
        tmp_path,
        "run",
        _traj(T, _line(T, 0.01)),
        reference=ref,
        tracking="time_s,event\n3,lost\n4,recovered\n",
        timing=_EARLY_TIMING,
    )
    late = NONE.replace(evaluation=EvaluationSettings(align="none", t_start_s=5.0))
    report = run_report(folder, late)
    assert (report.sequence_start_s, report.sequence_end_s) == (5.0, 10.0)
    assert report.losses == ()
    assert report.coverage == 1.0
    assert report.latency is not None
    assert report.latency.n_frames == 0
    assert math.isnan(report.input_rate_hz)
    # Up to 3.5 s: the loss from 3 s meets it, and every frame (0 .. 2 s) was acquired in it.
    early = NONE.replace(evaluation=EvaluationSettings(align="none", t_end_s=3.5))
    report = run_report(folder, early)
    assert [(loss.start_s, loss.end_s) for loss in report.losses] == [(3.0, 4.0)]
    assert report.lost_s == pytest.approx(0.5)
    assert report.latency is not None
    assert report.latency.n_frames == 5
    assert report.latency.latency_p50_s == pytest.approx(0.12)  # frame 2: 0.1 + 0.02 s
    assert "losses, coverage, latency and path smoothness within 0.00 .. 3.50 s" in report.notes


@pytest.mark.parametrize(
    ("t_start", "t_end"), [(20.0, None), (None, -1.0), (10.0, None), (12.0, 15.0)]
)
def test_a_time_range_that_misses_the_sequence_fails_the_run_saying_so(
    tmp_path: Path, t_start: float | None, t_end: float | None
) -> None:
    """--t-start 20 of a reference spanning 0 .. 10 s gave a span from 20 to 10 s and a
    success (a review)."""
    ref = _traj(T, _line(T))
    folder = _run_folder(tmp_path, "run", ref, reference=ref)
    settings = NONE.replace(
        evaluation=EvaluationSettings(align="none", t_start_s=t_start, t_end_s=t_end)
    )
    report = run_report(folder, settings)
    assert not report.success
    assert report.failure == "time range outside the sequence"
    assert (report.sequence_start_s, report.sequence_end_s) == (0.0, 10.0)
    assert math.isnan(report.coverage)
    assert "leaves nothing of the sequence, 0.00 .. 10.00 s" in report.notes[0]


def test_a_time_range_that_misses_the_sequence_is_said_to_its_digits(tmp_path: Path) -> None:
    """A range of Unix stamps was said as 't_start 1.30503e+09 s and t_end 1.30503e+09
    s' (--t-start 1305031110 --t-end 1305031115 of fr2_desk; rvC's review)."""
    ref = _traj(T + 1305031120.25, _line(T))
    folder = _run_folder(tmp_path, "run", ref, reference=ref)
    window = EvaluationSettings(align="none", t_start_s=1305031110.0, t_end_s=1305031115.5)
    report = run_report(folder, NONE.replace(evaluation=window))
    assert report.failure == "time range outside the sequence"
    assert "(t_start 1305031110 s and t_end 1305031115.5 s)" in report.notes[0]


@pytest.mark.parametrize("tracking", ["time_s,event\n5,lost\n", "time_s,event\n-1,lost\n"])
def test_a_time_range_that_misses_the_sequence_judges_no_loss_outside_it(
    tmp_path: Path, tracking: str
) -> None:
    """--t-start 20 of a reference spanning 0 .. 10 s, tracking lost at 5 s for good, said
    'tracking lost, not recovered' (rvC's review): the range leaves nothing to judge."""
    ref = _traj(T, _line(T))
    folder = _run_folder(tmp_path, "run", ref, reference=ref, tracking=tracking)
    late = NONE.replace(evaluation=EvaluationSettings(align="none", t_start_s=20.0))
    report = run_report(folder, late)
    assert report.failure == "time range outside the sequence"
    assert "leaves nothing of the sequence, 0.00 .. 10.00 s" in report.notes[0]


@pytest.mark.parametrize("meta", [None, {"failure": "crashed"}])
def test_a_time_range_that_misses_the_sequence_leaves_no_loss_latency_or_rate(
    tmp_path: Path, meta: dict[str, object] | None
) -> None:
    """--t-start 20 of a reference spanning 0 .. 10 s failed the run as 'time range outside
    the sequence' beside 1 loss of 1.0 s (3 .. 4 s), a latency over the 5 frames acquired
    at 0 .. 2 s (p50 120 ms) and a processed rate of 2.0 Hz, all from outside the range:
    said as a range that meets the sequence but holds none of them says it (no loss, a
    latency of 0 frames, no rate), whatever the run's own failure."""
    ref = _traj(T, _line(T))
    folder = _run_folder(
        tmp_path,
        "run",
        ref,
        reference=ref,
        meta=meta,
        tracking="time_s,event\n3,lost\n4,recovered\n",
        timing=_EARLY_TIMING,
    )
    late = NONE.replace(evaluation=EvaluationSettings(align="none", t_start_s=20.0))
    report = run_report(folder, late)
    assert report.failure == ("crashed" if meta else "time range outside the sequence")
    assert report.losses == ()
    assert report.lost_s == 0.0
    assert math.isnan(report.coverage)
    assert report.latency is not None
    assert report.latency.n_frames == 0
    assert math.isnan(report.latency.latency_p50_s)
    assert math.isnan(report.input_rate_hz)
    assert any("leaves nothing of the sequence, 0.00 .. 10.00 s" in n for n in report.notes)


@pytest.mark.parametrize(
    ("t_start", "t_end", "said"),
    [(5.0, None, "from 5.00 s"), (None, 3.5, "up to 3.50 s"), (2.0, 3.5, "within 2.00 .. 3.50 s")],
)
def test_a_time_range_of_a_run_without_a_span_is_said_as_given(
    tmp_path: Path, t_start: float | None, t_end: float | None, said: str
) -> None:
    """No reference and no timing log, so no span to cut the range to: the note said
    'losses, coverage and latency within nan .. nan s' (--t-start 5)."""
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T)), tracking="time_s,event\n3,lost\n")
    window = EvaluationSettings(align="none", t_start_s=t_start, t_end_s=t_end, offset_s=0.5)
    report = run_report(folder, NONE.replace(evaluation=window))
    assert f"losses, coverage, latency and path smoothness {said}" in report.notes


@pytest.mark.parametrize(
    ("t_start", "t_end", "loss", "lost_s"),
    [(5.0, None, (5.0, 10.0), 5.0), (None, 6.0, (3.0, 6.0), 3.0), (4.0, 8.0, (4.0, 8.0), 4.0)],
)
def test_a_time_range_cuts_the_losses_of_a_run_without_a_span_as_of_one_with_a_span(
    tmp_path: Path,
    t_start: float | None,
    t_end: float | None,
    loss: tuple[float, float],
    lost_s: float,
) -> None:
    """No reference and no timing log, tracking lost at 3 s for good over an estimate of
    0 .. 10 s: --t-start 5 said the loss 3 .. 10 s, 7.0 s lost (--t-end 6: the same)
    beside 'losses, coverage and latency from 5.00 s'; with a reference spanning the
    estimate the range cuts it (5.0 s lost, 3.0 s for --t-end 6)."""
    tracking = "time_s,event\n3,lost\n"
    window = EvaluationSettings(align="none", t_start_s=t_start, t_end_s=t_end)
    settings = NONE.replace(evaluation=window)
    alone = _run_folder(tmp_path, "alone", _traj(T, _line(T)), tracking=tracking)
    report = run_report(alone, settings)
    assert [(x.start_s, x.end_s, x.recovered) for x in report.losses] == [(*loss, False)]
    assert report.lost_s == lost_s
    assert report.failure == "tracking lost, not recovered"
    ref = _traj(T, _line(T))
    spanned = run_report(
        _run_folder(tmp_path, "ref", ref, reference=ref, tracking=tracking), settings
    )
    assert spanned.lost_s == lost_s
    assert spanned.failure == "tracking lost, not recovered"


def test_a_time_range_of_a_run_without_a_span_judges_the_poses_within_it(tmp_path: Path) -> None:
    """Tracking lost from 3 s to 8 s of an estimate of 0 .. 10 s without a reference or
    timing log: --t-start 4 --t-end 6 holds 21 poses (4.0 .. 6.0 s), all lost, and the run
    succeeded, as its poses outside the range were valid."""
    folder = _run_folder(
        tmp_path, "run", _traj(T, _line(T)), tracking="time_s,event\n3,lost\n8,recovered\n"
    )
    window = EvaluationSettings(align="none", t_start_s=4.0, t_end_s=6.0)
    report = run_report(folder, NONE.replace(evaluation=window))
    assert report.failure == "estimate ends early"
    note = "no valid pose in the time range: the 21 poses within it all fall in tracking losses"
    assert report.notes[0] == note
    assert report.lost_s == 2.0
    whole = run_report(folder, NONE.replace(evaluation=EvaluationSettings(align="none")))
    assert whole.success  # the range alone fails it
    last = EvaluationSettings(align="none", t_start_s=7.95, t_end_s=8.05)  # the pose at 7.9 s
    one = run_report(folder, NONE.replace(evaluation=last.replace(t_start_s=7.85, t_end_s=7.95)))
    assert one.notes[0] == "no valid pose in the time range: its one pose falls in tracking losses"
    assert run_report(folder, NONE.replace(evaluation=last)).success  # the pose at 8.0 s


def _lost_from_3_to_6_s(tmp_path: Path, *, recovered: bool = True) -> Path:
    """A run 0.01 m off a line of 0 .. 10 s at 10 Hz, tracking lost at 3 s (recovered at 6 s)."""
    return _run_folder(
        tmp_path,
        "run" if recovered else "never",
        _traj(T, _line(T, 0.01)),
        reference=_traj(T, _line(T)),
        tracking="time_s,event\n3,lost\n" + ("6,recovered\n" if recovered else ""),
    )


def test_a_time_range_wholly_inside_a_tracking_loss_says_nothing_in_it_was_tracked(
    tmp_path: Path,
) -> None:
    """Tracking lost from 3 s to 6 s of a reference of 0 .. 10 s: --t-start 4 --t-end 5
    advised to "raise `max_diff_s=`" for each metric (a hunt), as if stamps were too far
    apart; no pose in the range was tracked. By hand: no valid pose in 4 .. 5 s, so no
    accuracy, and the coverage of the range is 0."""
    folder = _lost_from_3_to_6_s(tmp_path)
    window = EvaluationSettings(align="none", t_start_s=4.0, t_end_s=5.0)
    report = run_report(folder, NONE.replace(evaluation=window))
    assert report.accuracy is None
    assert report.coverage == 0.0
    assert not any("max_diff_s" in note for note in report.notes)
    said = (
        "accuracy not evaluated: tracking was lost over the whole time range (lost at "
        "3.00 s, recovered at 6.00 s): no pose in it was tracked"
    )
    assert said in report.notes
    # A range that meets a tracked pose is evaluated as before.
    edge = run_report(folder, NONE.replace(evaluation=window.replace(t_end_s=6.5)))
    assert edge.accuracy is not None
    assert edge.accuracy.counts["matched"] == 6  # 6.0 .. 6.5 s at 10 Hz


def test_a_time_range_ending_where_tracking_recovers_evaluates_the_pose_tracked_there(
    tmp_path: Path,
) -> None:
    """A loss is [start, end): tracking lost at 3 s and recovered at 6 s leaves the pose at
    6.0 s tracked, so --t-start 4 --t-end 6 holds one tracked pose; it was said "no pose in
    it was tracked" (the loss read as [3, 6]). By hand: one pair, 6.0 s, 0.01 m apart. A
    loss never recovered covers a range up to the end: nothing in it was tracked."""
    folder = _lost_from_3_to_6_s(tmp_path)
    window = EvaluationSettings(align="none", t_start_s=4.0, t_end_s=6.0)
    report = run_report(folder, NONE.replace(evaluation=window))
    assert not any("no pose in it was tracked" in note for note in report.notes)
    assert report.accuracy is not None
    assert report.accuracy.counts["matched"] == 1
    assert report.accuracy.stats["translation"].rms == pytest.approx(0.01)
    never = _lost_from_3_to_6_s(tmp_path, recovered=False)
    report = run_report(never, NONE.replace(evaluation=window.replace(t_end_s=10.0)))
    assert report.accuracy is None
    said = "tracking was lost over the whole time range (lost at 3.00 s, never recovered)"
    assert any(said in note for note in report.notes)


@pytest.mark.parametrize(("t_start", "t_end"), [(20.0, None), (None, -1.0), (12.0, 15.0)])
def test_a_time_range_that_misses_the_estimate_of_a_run_without_a_span_fails_it(
    tmp_path: Path, t_start: float | None, t_end: float | None
) -> None:
    """No reference and no timing log, an estimate of 0 .. 10 s: --t-start 20 left nothing
    of it to judge and the run succeeded ('end of the sequence unknown'), where a run with
    a reference of 0 .. 10 s fails as 'time range outside the sequence'."""
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T)), tracking="time_s,event\n3,lost\n")
    window = EvaluationSettings(align="none", t_start_s=t_start, t_end_s=t_end)
    report = run_report(folder, NONE.replace(evaluation=window))
    assert report.failure == "time range outside the sequence"
    assert report.losses == ()
    assert math.isnan(report.coverage)
    assert "leaves nothing of the estimate, 0.00 .. 10.00 s" in report.notes[0]
    assert "no reference or timing log gives the sequence's span" in report.notes[0]


def test_unmatched_run_reports_no_accuracy_with_the_reason(tmp_path: Path) -> None:
    later = T + 1000.0
    folder = _run_folder(tmp_path, "run", _traj(later, _line(T)), reference=_traj(T, _line(T)))
    report = run_report(folder)
    assert report.accuracy is None
    assert any(n.startswith("ape:translation not evaluated:") for n in report.notes)


def test_a_run_with_a_bag_and_no_timing_log_gets_the_labelled_latency_proxy(tmp_path: Path) -> None:
    base = 1_700_000_000 * 10**9
    stamps = [base + i * 100_000_000 for i in range(4)]
    write_pose_bag(tmp_path / "bag", stamps, [s + 25_000_000 for s in stamps])
    folder = _run_folder(
        tmp_path, "run", _traj(T, _line(T)), meta={"bag": "../bag", "latency_topic": "/pose"}
    )
    report = run_report(folder)
    assert report.latency is not None
    assert report.latency.source == "bag_receive_proxy"
    assert report.latency.latency_p50_s == pytest.approx(0.025, abs=1e-6)
    assert any("proxy" in n for n in report.latency.notes)


def test_a_tum_protocol_metric_and_offset_auto_from_the_settings_block(tmp_path: Path) -> None:
    xyz = np.stack([np.cos(T / 2), np.sin(T), 0.1 * T], axis=1)
    t_ref = np.round(np.arange(401) / 40.0, 3)  # 40 Hz ground truth
    ref_xyz = np.stack([np.cos(t_ref / 2), np.sin(t_ref), 0.1 * t_ref], axis=1)
    late = _traj(T + 0.05, xyz)  # the estimate's clock runs 50 ms late
    folder = _run_folder(tmp_path, "run", late, reference=_traj(t_ref, ref_xyz))
    settings = RunSettings.from_options(
        {
            "align": "se3",
            "sync": "interpolate",
            "offset_auto": True,
            "evaluate": [
                {"metric": "ape"},
                {"metric": "rpe", "delta": 10, "delta_unit": "f", "protocol": "tum",
                 "align": "none", "sync": "nearest", "offset_auto": False, "offset_s": -0.05},
            ],
        },
        where="test",
    )  # fmt: skip
    report = run_report(folder, settings)
    ape = report.comparisons["ape:translation"]
    assert ape.estimated is not None
    assert ape.estimated.time_offset is not None
    assert ape.estimated.time_offset.offset_s == pytest.approx(-0.05, abs=1e-4)
    assert ape.stats["translation"].max < 1e-3  # interpolated at the right instants
    tum = report.comparisons["rpe:translation:10f:tum"]
    assert tum.parameters["protocol"] == "tum"
    assert tum.stats["translation"].max < 1e-12  # the right reference stamps: no error


def test_a_run_covering_19_percent_is_no_success_by_default(tmp_path: Path) -> None:
    """The issue's keyframe-only run: poses to the end, but seconds apart after 1.9 s.

    By hand: 10 Hz from 0 to 1.9 s covers 1.9 s; the poses at 4, 6, 8 and 10 s are 2 s
    apart, over the 1 s ``coverage_gap_s``, and cover nothing: 1.9 / 10 = 19 %.
    """
    t = np.concatenate([T[T <= 1.9], [4.0, 6.0, 8.0, 10.0]])
    folder = _run_folder(tmp_path, "run", _traj(t, _line(t)), reference=_traj(T, _line(T)))
    report = run_report(folder)
    assert report.coverage == pytest.approx(0.19, abs=1e-12)
    assert (report.success, report.failure) == (False, "coverage too low")
    assert any("cover 19% of the sequence, under the 50%" in n for n in report.notes)
    lenient = run_report(folder, NONE.replace(min_coverage=0.1))
    assert (lenient.success, lenient.failure) == (True, "")


def test_tracking_lost_for_good_fails_even_where_the_end_is_unknown(tmp_path: Path) -> None:
    """No reference, no timing log: a run whose own tracking log says it never recovered
    was a success ("success not checked"; a review)."""
    folder = _run_folder(tmp_path, "a", _traj(T, _line(T)), tracking="time_s,event\n8.0,lost\n")
    report = run_report(folder)
    assert not report.success
    assert report.failure == "tracking lost, not recovered"
    assert any("never recovered (the end of the sequence is unknown)" in n for n in report.notes)


@pytest.mark.parametrize(("t_start", "before"), [(None, 1.0), (5.0, 6.0)])
def test_tracking_lost_before_the_sequence_starts_says_so(
    tmp_path: Path, t_start: float | None, before: float
) -> None:
    """Lost at -1 s and never recovered, of a reference from 0 s: 'tracking lost at -1.00 s
    of 10.00 s'; with --t-start 5, 'at -6.00 s of 5.00 s' (a review)."""
    ref = _traj(T, _line(T))
    folder = _run_folder(tmp_path, "a", ref, reference=ref, tracking="time_s,event\n-1,lost\n")
    settings = NONE.replace(evaluation=EvaluationSettings(align="none", t_start_s=t_start))
    report = run_report(folder, settings)
    assert report.failure == "tracking lost, not recovered"
    assert report.notes[0] == (
        f"tracking lost {before:.2f} s before the sequence's start and never recovered"
    )


def test_no_valid_pose_fails_even_where_the_end_is_unknown(tmp_path: Path) -> None:
    """No reference, no timing log, lost at -1 s and recovered at 100 s over an estimate of
    0 .. 10 s: a success with n_valid 0 (a review)."""
    tracking = "time_s,event\n-1,lost\n100,recovered\n"
    report = run_report(_run_folder(tmp_path, "a", _traj(T, _line(T)), tracking=tracking))
    assert report.n_valid == 0
    assert not report.success
    assert report.failure == "estimate ends early"
    assert report.notes[0] == "no valid pose: the 101 poses all fall in tracking losses"


def test_lost_seconds_count_within_the_sequence_only(tmp_path: Path) -> None:
    """Lost 3 s before the reference starts to 0.5 s after it: 3.5 s lost was printed beside
    a coverage that counted 0.5 s (a review). The loss keeps its logged times."""
    ref = _traj(T, _line(T))
    t0 = float(T[0])
    tracking = f"time_s,event\n{t0 - 3.0},lost\n{t0 + 0.5},recovered\n"
    report = run_report(_run_folder(tmp_path, "a", ref, reference=ref, tracking=tracking))
    (loss,) = report.losses
    assert loss.duration_s == pytest.approx(3.5)
    assert report.lost_s == pytest.approx(0.5)


def test_a_sequence_span_judges_a_run_without_reference_and_not_one_with(tmp_path: Path) -> None:
    """The span the other runs of its sequence show (robot_msgs.runs.spans): a run without
    a reference or timing log that lost tracking at 8 s for good lost it to 20 s."""
    tracking = "time_s,event\n8.0,lost\n"
    folder = _run_folder(tmp_path, "a", _traj(T, _line(T)), tracking=tracking)
    (spec,) = load_runs([folder]).runs
    report = evaluate_run(load_run(spec), NONE, sequence_span=(0.0, 20.0)).report
    assert (report.sequence_start_s, report.sequence_end_s, report.span_source) == (
        0.0,
        20.0,
        "runs",
    )
    assert report.failure == "tracking lost, not recovered"
    assert report.losses[-1].end_s == 20.0
    assert report.coverage == pytest.approx(0.4)
    assert any("it has no reference or timing log of its own" in n for n in report.notes)
    ref = _traj(T, _line(T))
    (spec,) = load_runs([_run_folder(tmp_path, "b", ref, reference=ref)]).runs
    kept = evaluate_run(load_run(spec), NONE, sequence_span=(0.0, 20.0)).report
    assert (kept.sequence_end_s, kept.span_source, kept.success) == (10.0, "reference", True)


def test_a_manifest_min_coverage_judges_the_run(tmp_path: Path) -> None:
    """[settings] min_coverage was refused as an unknown key. A run whose valid poses cover
    7.5 s of 10 s (lost from 2.5 s to 5 s; by hand: 0.75) succeeds at the default 0.5 and
    fails at 0.8."""
    _run_folder(
        tmp_path, "run", _traj(T, _line(T)), reference=_traj(T, _line(T)),
        tracking="time_s,event\n2.5,lost\n5.0,recovered\n",
    )  # fmt: skip
    manifest = tmp_path / "m.toml"
    for share, success in ((0.5, True), (0.8, False)):
        manifest.write_text(f'[settings]\nmin_coverage = {share}\n[[runs]]\npath = "run"\n')
        read = load_runs([manifest])
        (spec,) = read.runs
        report = evaluate_run(load_run(spec), read.settings).report
        assert report.coverage == pytest.approx(0.75)
        assert report.success is success
        assert report.failure == ("" if success else "coverage too low")


def test_the_time_range_note_is_on_the_reference_clock_as_given(tmp_path: Path) -> None:
    """With --offset 0.5 (the estimate's clock 0.5 s behind), --t-start 5 was said as
    'losses, coverage and latency within 4.50 .. 9.50 s', the estimate's clock, where the
    range is given, and its missing note said, on the reference's (rvC's review)."""
    ref = _traj(T, _line(T))
    folder = _run_folder(tmp_path, "run", _traj(T - 0.5, _line(T, 0.01)), reference=ref)
    late = NONE.replace(evaluation=EvaluationSettings(align="none", t_start_s=5.0, offset_s=0.5))
    report = run_report(folder, late)
    assert "losses, coverage, latency and path smoothness within 5.00 .. 10.00 s" in report.notes


@pytest.mark.parametrize(
    ("tracking", "failure", "note"),
    [
        (
            None,
            "",
            "end of the sequence unknown (no reference, no timing log): success not checked",
        ),
        (
            "time_s,event\n4.51,lost\n4.54,recovered\n",
            "estimate ends early",
            "no valid pose in the time range: it holds no pose, tracking lost",
        ),
    ],
)
def test_a_time_range_between_two_poses_of_a_run_without_a_span_is_judged_by_its_losses(
    tmp_path: Path, tracking: str | None, failure: str, note: str
) -> None:
    """No reference and no timing log, poses at 10 Hz: --t-start 4.52 --t-end 4.55 holds no
    pose, and without any loss the run failed as 'estimate ends early', said 'no valid pose
    in the time range: its one pose falls in tracking losses' (a run with a span of the
    same poses succeeds)."""
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T)), tracking=tracking)
    window = EvaluationSettings(align="none", t_start_s=4.52, t_end_s=4.55)
    report = run_report(folder, NONE.replace(evaluation=window))
    assert (report.failure, report.notes[0]) == (failure, note)
    ref = _traj(T, _line(T))
    spanned = _run_folder(tmp_path, "ref", ref, reference=ref)
    assert run_report(spanned, NONE.replace(evaluation=window)).success


def test_a_time_range_gives_the_output_rate_within_it_as_the_input_rate(tmp_path: Path) -> None:
    """An estimate at 20 Hz over 0 .. 5 s and 10 Hz over 5 .. 10 s, frames acquired at
    10 Hz: --t-start 5 said 15 Hz output (the whole run's 150 steps over 10 s) beside
    10 Hz processed within the range (a hunt); by hand, 50 steps over 5 .. 10 s: 10 Hz."""
    t = np.concatenate([np.arange(100) / 20.0, np.arange(50, 101) / 10.0])
    timing = "frame,acquisition_s,available_s\n" + "".join(
        f"{k},{k / 10:.1f},{k / 10 + 0.02:.2f}\n" for k in range(101)
    )
    folder = _run_folder(tmp_path, "run", _traj(t, _line(t)), timing=timing)
    whole = run_report(folder)
    assert whole.output_rate_hz == pytest.approx(15.0)
    late = run_report(folder, NONE.replace(evaluation=EvaluationSettings(t_start_s=5.0)))
    assert late.input_rate_hz == pytest.approx(10.0)
    assert late.output_rate_hz == pytest.approx(10.0)
    outside = run_report(folder, NONE.replace(evaluation=EvaluationSettings(t_start_s=20.0)))
    assert math.isnan(outside.output_rate_hz)


def test_a_loss_wholly_outside_the_sequence_is_not_counted(tmp_path: Path) -> None:
    """An estimate from -5 s, tracking lost -3 .. -1 s while initialising, a reference of
    0 .. 10 s: the report said 1 loss beside 0.0 s lost and a coverage of 100 %, and no
    loss with --t-start 0, the same span (a hunt). A loss that meets the sequence stays
    whole (its recovery time), its lost seconds cut to the sequence: -3 .. 0.5 s, 0.5 s."""
    t = np.round(np.arange(-50, 101) / 10.0, 1)
    ref = _traj(T, _line(T))
    for name, tracking, kept, lost_s in (
        ("before", "time_s,event\n-3,lost\n-1,recovered\n", [], 0.0),
        ("across", "time_s,event\n-3,lost\n0.5,recovered\n", [(-3.0, 0.5)], 0.5),
        ("after", "time_s,event\n12,lost\n", [], 0.0),
    ):
        folder = _run_folder(tmp_path, name, _traj(t, _line(t)), reference=ref, tracking=tracking)
        for settings in (NONE, NONE.replace(evaluation=EvaluationSettings(t_start_s=0.0))):
            report = run_report(folder, settings)
            assert [(x.start_s, x.end_s) for x in report.losses] == kept
            assert (report.n_losses, report.lost_s) == (len(kept), lost_s)
            assert report.success


def test_coverage_too_low_is_said_with_the_decimals_that_tell_it_from_the_bound(
    tmp_path: Path,
) -> None:
    """Poses every 1 ms over 0 .. 4.995 s, then one at 10 s (a gap past coverage_gap_s):
    by hand 4.995 s of 10 s covered, 0.4995, under the default 0.5. The note said 'cover
    50% of the sequence, under the 50% success needs' (a hunt)."""
    t = np.concatenate([np.round(np.arange(4996) / 1000.0, 3), [10.0]])
    ref = _traj(T, _line(T))
    report = run_report(_run_folder(tmp_path, "run", _traj(t, _line(t)), reference=ref))
    assert report.coverage == pytest.approx(0.4995)
    assert report.failure == "coverage too low"
    assert report.notes[0] == (
        "the valid poses cover 49.95% of the sequence, under the 50.00% success needs "
        "(`min_coverage=`)"
    )


SPATIAL = NONE.replace(evaluation=EvaluationSettings(align="none", sync="spatial"))


@pytest.mark.parametrize("shift_s", [5000.0, -5000.0])
def test_matched_in_space_the_reference_span_judges_no_coverage_or_end_of_another_clock(
    tmp_path: Path, shift_s: float
) -> None:
    """Poses paired by position, the estimate's clock 5000 s late (or early) against a
    reference of 0 .. 10 s: the APE was computed (101 pairs, 0 m) and the run failed as
    'coverage too low' (0 %) or 'estimate ends early' by stamps no offset relates (a
    review). In space the reference's span is not on the estimate's clock: without a
    timing log coverage is not measured (NaN) and the end not checked, as the doctor
    says coverage 'not checked (in space)'."""
    t = T + shift_s
    folder = _run_folder(tmp_path, "run", _traj(t, _line(T)), reference=_traj(T, _line(T)))
    report = run_report(folder, SPATIAL)
    assert report.accuracy is not None
    assert report.accuracy.stats["translation"].n == 101
    assert report.accuracy.stats["translation"].rms == pytest.approx(0.0, abs=1e-12)
    assert (report.success, report.failure) == (True, "")
    assert math.isnan(report.coverage)
    assert math.isnan(report.sequence_start_s)
    assert any("not measured (in space)" in n for n in report.notes)


def test_matched_in_space_a_run_is_judged_on_its_own_clock_by_its_timing_log(
    tmp_path: Path,
) -> None:
    """In space, with a timing log (acquired on the run's clock, 5000 .. 5010 s): the run
    is judged against that span, not the reference's 0 .. 10 s. Its estimate of 5000 ..
    5004 s ends, by hand, at 4.00 s of 10.00 s: 'estimate ends early' (it was judged
    against the reference's span, and passed the end at 5004 s > 10 s)."""
    t = T[:41] + 5000.0
    timing = "frame,acquisition_s,available_s\n" + "".join(
        f"{k},{5000 + k:.1f},{5000 + k + 0.02:.2f}\n" for k in range(11)
    )
    folder = _run_folder(
        tmp_path, "run", _traj(t, _line(T[:41])), reference=_traj(T, _line(T)), timing=timing
    )
    report = run_report(folder, SPATIAL)
    assert (report.sequence_start_s, report.sequence_end_s) == (5000.0, 5010.0)
    assert report.span_source == "timing"
    assert report.failure == "estimate ends early"
    assert report.notes[0] == "last valid pose at 4.00 s of 10.00 s"


def test_matched_in_space_a_time_range_on_the_reference_clock_cuts_no_run_stamp(
    tmp_path: Path,
) -> None:
    """In space --t-start 5 cuts the reference's poses only (on its clock,
    :func:`robot_msgs.evaluation.prepare`); the run read it on the estimate's clock 5000 s
    late and failed it as 'coverage too low' (0 % of 5 .. 10 s). Its losses stay whole,
    and its path smoothness, which the note did not say."""
    t = T + 5000.0
    folder = _run_folder(
        tmp_path, "run", _traj(t, _line(T)), reference=_traj(T, _line(T)),
        tracking="time_s,event\n5003,lost\n5004,recovered\n",
    )  # fmt: skip
    ranged = SPATIAL.replace(evaluation=SPATIAL.evaluation.replace(t_start_s=5.0))
    report = run_report(folder, ranged)
    assert (report.success, report.failure) == (True, "")
    assert [(x.start_s, x.end_s) for x in report.losses] == [(5003.0, 5004.0)]
    assert (
        "losses, coverage, latency and path smoothness over the whole run: matched in space, "
        "the time range cuts the reference's poses only"
    ) in report.notes


def test_matched_in_space_a_run_judged_on_its_peers_span_says_its_reference_is_elsewhere(
    tmp_path: Path,
) -> None:
    """In space a run with a reference but no timing log is judged against the span its
    sequence's runs show (5000 .. 5010 s, on the estimates' clock); its note said 'it has
    no reference' of a run with one. Its estimate, 5000 .. 5004 s, ends at 4.00 of 10 s."""
    t = T[:41] + 5000.0
    folder = _run_folder(tmp_path, "run", _traj(t, _line(T[:41])), reference=_traj(T, _line(T)))
    (spec,) = load_runs([folder]).runs
    report = evaluate_run(load_run(spec), SPATIAL, sequence_span=(5000.0, 5010.0)).report
    assert (report.span_source, report.failure) == ("runs", "estimate ends early")
    assert any("matched in space, its reference is on another clock" in n for n in report.notes)


def test_matched_in_space_a_run_without_a_reference_is_cut_by_the_time_range_as_in_time(
    tmp_path: Path,
) -> None:
    """A run without a reference is matched to nothing: in space as in time --t-start 5
    is on its estimate's clock (its span 5 .. 10 s, its loss at 3 .. 4 s left out). In
    space the range was ignored and said to cut 'the reference's poses only' (a review)."""
    timing = "frame,acquisition_s,available_s\n" + "".join(
        f"{k},{k:.1f},{k + 0.02:.2f}\n" for k in range(11)
    )
    tracking = "time_s,event\n3,lost\n4,recovered\n"
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T)), tracking=tracking, timing=timing)
    reports = []
    for sync in ("nearest", "spatial"):
        ranged = NONE.replace(evaluation=EvaluationSettings(align="none", sync=sync, t_start_s=5.0))
        reports.append(run_report(folder, ranged))
    in_time, in_space = reports
    assert (in_space.sequence_start_s, in_space.sequence_end_s) == (5.0, 10.0)
    assert in_space.losses == ()
    assert in_space.notes == in_time.notes
    assert "losses, coverage, latency and path smoothness within 5.00 .. 10.00 s" in in_space.notes


def test_a_kitti_run_without_times_has_no_output_rate_in_hertz(tmp_path: Path) -> None:
    """KITTI 00 runs read without their times files said `output [Hz] 1.0`: one pose a
    frame index, not a second (the README: frame, never seconds or Hz)."""
    folder = tmp_path / "run"
    folder.mkdir()
    write_kitti(folder / "estimate.txt", _traj(T, _line(T, 0.1)), write_times=False)
    write_kitti(folder / "reference.txt", _traj(T, _line(T)), write_times=False)
    report = run_report(folder)
    assert report.comparisons["ape:translation"].stats["translation"].rms == pytest.approx(0.1)
    assert math.isnan(report.output_rate_hz)


def test_a_kitti_run_without_times_records_its_losses_in_frames(tmp_path: Path) -> None:
    """A KITTI run read without its times files is stamped by frame index: its tracking
    log counts frames, and the report said 'lost [s] 200.0' for a loss from frame 1000 to
    1200 (a hunt). The report now records that its stamps are frames: 5 frames lost
    (10 .. 15, by hand), no seconds; a loss never recovered is said in frames too."""
    n = 41  # frames 0 .. 40
    frames = np.arange(n, dtype=float)
    for name, events, recovered in (
        ("back", "10,lost\n15,recovered\n", True),
        ("gone", "30,lost\n", False),
    ):
        folder = tmp_path / name
        folder.mkdir()
        write_kitti(folder / "estimate.txt", _traj(frames, _line(frames, 0.1)), write_times=False)
        write_kitti(folder / "reference.txt", _traj(frames, _line(frames)), write_times=False)
        (folder / "tracking.csv").write_text(f"time_s,event\n{events}")
        with warnings.catch_warnings():
            # Lost for good, its valid poses end at frame 29: said as of an estimate that
            # stopped early (frames_by_index), not what this test is about.
            warnings.filterwarnings("ignore", "[^:]*: the reference's 41 and the estimate's 30")
            report = run_report(folder)
        assert report.stamps_are_frames
        assert math.isnan(report.lost_s)
        assert report.lost_frames == (5.0 if recovered else 10.0)  # 15 - 10; 40 - 30
        if not recovered:
            assert report.failure == "tracking lost, not recovered"
            # Frames 0 .. 40 are 41: 'of 40 frames' said one less (a review).
            said = "tracking lost at frame 30 of frames 0 .. 40 and never recovered"
            assert report.notes[0] == said
            # From a time range's start, frame 30 was 'frame 20 of 30 frames'.
            cut = NONE.replace(evaluation=NONE.evaluation.replace(t_start_s=10.0))
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "[^:]*: the reference's 41 and the estimate's 30")
                notes = run_report(folder, cut).notes
            assert notes[0] == "tracking lost at frame 30 of frames 10 .. 40 and never recovered"
    timed = run_report(
        _run_folder(tmp_path, "tum", _traj(T, _line(T)), reference=_traj(T, _line(T)))
    )
    assert not timed.stamps_are_frames
    assert math.isnan(timed.lost_frames)


@pytest.mark.parametrize(("cut", "success"), [(5, True), (15, False)])
def test_a_kitti_run_without_times_is_judged_as_with_them_at_its_stated_rate(
    tmp_path: Path, evo_data: Path, cut: int, *, success: bool
) -> None:
    """S-PTAM on KITTI 00 without its last ``cut`` frames, read with and without the times
    files: 5 frames are 0.52 s of the times file (under the 1 s end tolerance), 15 are
    1.56 s (over it). Without times, 1 s was applied as 1 frame: the 5 frames missing
    failed 'estimate ends early' (a hunt). At the run's stated 10 Hz, 1 s is 10 frames,
    and both readings are judged alike, with the same loss (frames 2000 .. 2016)."""
    est = (evo_data / "KITTI_00_SPTAM.txt").read_text().splitlines(keepends=True)
    times = (evo_data / "KITTI_00_gt_times.txt").read_text().split()
    (tmp_path / "est.txt").write_text("".join(est[:-cut]))
    (tmp_path / "est_times.txt").write_text("\n".join(times[:-cut]))
    settings = RunSettings(metrics=default_metrics(()))
    reports = {}
    for name, timed in (("frames", False), ("timed", True)):
        meta = {
            "input_rate_hz": 10,
            **{f"{side}_format": "kitti" for side in ("estimate", "reference")},
            "estimate": "../est.txt",
            "reference": str(evo_data / "KITTI_00_gt.txt"),
            **({"estimate_times": "../est_times.txt"} if timed else {}),
            **({"reference_times": str(evo_data / "KITTI_00_gt_times.txt")} if timed else {}),
        }
        lost, back = (times[2000], times[2016]) if timed else ("2000", "2016")
        tracking = f"time_s,event\n{lost},lost\n{back},recovered\n"
        folder = _run_folder(tmp_path, name, None, meta=meta, tracking=tracking)
        with warnings.catch_warnings():  # matched by index; KITTI's printed rotations
            warnings.filterwarnings("ignore", ".*frame indices|.*off orthonormal")
            reports[name] = run_report(folder, settings)
    frames, timed_report = reports["frames"], reports["timed"]
    assert frames.stamps_are_frames
    assert not timed_report.stamps_are_frames
    assert (frames.success, timed_report.success) == (success, success)
    assert frames.failure == timed_report.failure == ("" if success else "estimate ends early")
    # 16 of 4540 frames lost, 1.66 of 470.58 s (the times file), and the last frames
    # missing: alike to 0.1 %.
    assert frames.coverage == pytest.approx(timed_report.coverage, abs=1e-3)
    assert frames.coverage == pytest.approx(1 - (16 + cut) / 4540)


@pytest.mark.parametrize(
    ("n_poses", "failure"),
    [(41, ""), (40, ""), (30, "estimate ends early"), (20, "estimate ends early")],
)
def test_a_kitti_run_without_times_or_rate_counts_its_limits_one_frame_a_second(
    tmp_path: Path, n_poses: int, failure: str
) -> None:
    """Without a stated input_rate_hz, frames have no second: the end tolerance and the
    coverage gap (1 s) count one frame, stricter than a camera's rate, and a note says
    so and what to give. They were not checked: an estimate that stopped at half the
    sequence (20 of 41 frames) was a success (a review)."""
    frames = np.arange(41, dtype=float)
    cut = frames[:n_poses]
    write_kitti(tmp_path / "estimate.txt", _traj(cut, _line(cut, 0.1)), write_times=False)
    write_kitti(tmp_path / "reference.txt", _traj(frames, _line(frames)), write_times=False)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*frame indices")
        report = run_report(tmp_path)
    assert report.failure == failure
    assert report.coverage == pytest.approx((n_poses - 1) / 40)
    assert any("states no input_rate_hz: its end and coverage limits" in n for n in report.notes)


def test_a_metric_refused_on_a_run_leaves_the_others_computed_once_and_warned_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A KITTI run read without its times that stopped early (frames 0 .. 29 of 0 .. 40),
    under the report's default metrics: its one-second RPE is refused on frame indices,
    and each metric was evaluated again on its own, so the warning that the frames are
    matched by index was printed three times per run and the APE computed twice (KITTI 00
    ORB in a report; a review). Both once now; the RPE is still noted as skipped."""
    frames = np.arange(41.0)
    folder = tmp_path / "run"
    folder.mkdir()
    write_kitti(folder / "estimate.txt", _traj(frames[:30], _line(frames[:30], 0.1)),
                write_times=False)  # fmt: skip
    write_kitti(folder / "reference.txt", _traj(frames, _line(frames)), write_times=False)
    computed = []

    def counted(prepared: Prepared, spec: Ape, names: tuple[str, str]) -> EvaluationResult:
        computed.append(spec)
        return ape_result(prepared, spec, names)

    monkeypatch.setattr("robot_msgs.evaluation.entry.ape_result", counted)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = run_report(folder)
    said = [str(w.message) for w in caught if "stamps are frame indices" in str(w.message)]
    assert len(said) == 1, said
    assert len(computed) == 1
    assert report.comparisons["ape:translation"].stats["translation"].rms == pytest.approx(0.1)
    assert [n[:30] for n in report.notes if n.startswith("rpe")] == [
        "rpe:translation:1s:all skipped"
    ]


@pytest.mark.parametrize(("gap_s", "coverage"), [(0.2, 1.0), (0.05, 0.0)])
def test_a_kitti_run_without_times_counts_its_coverage_gap_in_frames_at_its_rate(
    tmp_path: Path, gap_s: float, coverage: float
) -> None:
    """One pose a frame at a stated 10 Hz: a coverage gap of 0.2 s is 2 frames and covers
    them, one of 0.05 s is half a frame and covers none, as on the times file's clock.
    The end tolerance alone counted in frames (the gap left at 0.2 frames) covered none."""
    frames = np.arange(41, dtype=float)
    write_kitti(tmp_path / "estimate.txt", _traj(frames, _line(frames, 0.1)), write_times=False)
    write_kitti(tmp_path / "reference.txt", _traj(frames, _line(frames)), write_times=False)
    (tmp_path / "meta.json").write_text(json.dumps({"input_rate_hz": 10}))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*frame indices")
        report = run_report(tmp_path, RunSettings(coverage_gap_s=gap_s))
    assert report.coverage == pytest.approx(coverage)


def test_a_warning_of_a_run_is_said_once_over_metrics_of_different_settings(
    tmp_path: Path,
) -> None:
    """Metrics of different settings (an aligned APE beside one without alignment) are
    prepared apart, and a KITTI run read without its times that stopped early said that
    its frames are matched by index once per set of settings (a review of 7491d7f: two
    lines per run where it meant one). Once, and each set still notes it."""
    folder, settings = _kitti_run_stopped_early_under_two_settings(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = run_report(folder, settings)
    said = [str(w.message) for w in caught if "stamps are frame indices" in str(w.message)]
    assert len(said) == 1, said
    for name in ("ape:translation", "raw"):
        assert any("stamps are frame indices" in n for n in report.comparisons[name].notes)


def test_a_warning_said_once_is_still_filtered_by_the_module_it_names(tmp_path: Path) -> None:
    """fd61346 recorded a run's warnings and warned them again: warned again, a warning
    named its file's path as its module, and a caller's ``filterwarnings("ignore",
    module=...)`` let it through (a review). Shown once, it keeps its module; still noted."""
    folder, settings = _kitti_run_stopped_early_under_two_settings(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=DataWarning, module=re.escape(__name__))
        report = run_report(folder, settings)
    assert not [w for w in caught if "stamps are frame indices" in str(w.message)]
    assert any("stamps are frame indices" in n for n in report.comparisons["raw"].notes)


def _kitti_run_stopped_early_under_two_settings(tmp_path: Path) -> tuple[Path, RunSettings]:
    """Return a KITTI run without times whose estimate stops early, and settings of an
    APE aligned and one not: two sets of settings, each warning that frames are indices."""
    frames = np.arange(41.0)
    xyz = np.stack([np.cos(frames / 5), np.sin(frames / 5), 0.1 * frames], axis=1)
    folder = tmp_path / "run"
    folder.mkdir()
    write_kitti(folder / "estimate.txt", _traj(frames[:30], xyz[:30] + 0.1), write_times=False)
    write_kitti(folder / "reference.txt", _traj(frames, xyz), write_times=False)
    settings = RunSettings.from_options(
        {"evaluate": [{"metric": "ape"}, {"metric": "ape", "align": "none", "name": "raw"}]},
        where="test",
    )
    return folder, settings


def test_an_empty_tracking_log_is_no_loss_and_its_notes_say_it_was_empty(
    tmp_path: Path,
) -> None:
    """A 0-byte tracking.csv reads as no event (a logger that writes only on a loss), but
    so would one a logger never wrote to: '0 losses' alone passed that over unsaid. A
    header-only log states its columns, so it says nothing more."""
    ref = _traj(T, _line(T))
    empty = run_report(_run_folder(tmp_path, "empty", ref, reference=ref, tracking=""))
    assert (empty.n_losses, empty.success) == (0, True)
    assert "tracking.csv is empty (0 bytes): read as no tracking event, no loss" in empty.notes
    headed = _run_folder(tmp_path, "headed", ref, reference=ref, tracking="time_s,event\n")
    assert not any("empty" in note for note in run_report(headed).notes)


def test_an_empty_resources_log_is_no_sample_and_its_notes_say_it_was_empty(
    tmp_path: Path,
) -> None:
    """A 0-byte resources.csv read as no sample (no CPU or memory figure) without a word,
    where the same of tracking.csv is said; a header-only one states its columns. Seen
    failing before: no such note."""
    ref = _traj(T, _line(T))
    empty = _run_folder(tmp_path, "empty", ref, reference=ref)
    (empty / "resources.csv").write_bytes(b"")
    report = run_report(empty)
    assert report.resources is not None
    assert (report.resources.n_samples, report.success) == (0, True)
    assert "resources.csv is empty (0 bytes): read as no resource sample" in report.notes
    headed = _run_folder(tmp_path, "headed", ref, reference=ref)
    (headed / "resources.csv").write_text("time_s,cpu_percent,rss_bytes\n")
    assert not any("empty" in note for note in run_report(headed).notes)


def test_path_smoothness_is_of_the_tracked_stretches_in_the_time_range(tmp_path: Path) -> None:
    """robometric-frame's example with a turn, (0,0) (1,0) (2,0) (2,1): steps (1,0) (1,0)
    (0,1), their differences (0,0) (-1,1): change √2, path length 3. Tracking is lost at
    4 s, recovered at 5 s, then (10,1) (11,1) (12,1): change 0, length 2. Per stretch, by
    hand: (√2 + 0) / (3 + 2). The jump over the loss, (2,1) to (10,1), was one step (8,0)
    and two changes of step, (8,-1) and (-7,0): (√2 + √65 + 7) / 13 = 1.2674. A pose 9 m
    away while lost, or none at all, and one after --t-end are left out alike."""
    t = np.arange(9.0)
    xyz = np.array(
        [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [9, 9, 0], [10, 1, 0], [11, 1, 0],
         [12, 1, 0], [7, 7, 0.0]]
    )  # fmt: skip
    tracking = "time_s,event\n4.0,lost\n5.0,recovered\n"
    cut = RunSettings(evaluation=EvaluationSettings(align="none", t_end_s=7.0))
    for name, kept in (("lost pose", t >= 0), ("no pose while lost", t != 4)):
        folder = _run_folder(tmp_path, name, _traj(t[kept], xyz[kept]), tracking=tracking)
        got = run_report(folder, cut).path_smoothness
        assert got == pytest.approx(math.sqrt(2) / 5, rel=1e-12), name
    # One loss-free stretch gives the library's number (a straight line and a turn).
    folder = _run_folder(tmp_path, "turn", _traj(t[:4], xyz[:4]))
    assert run_report(folder).path_smoothness == pytest.approx(math.sqrt(2) / 3, rel=1e-12)
    # Two valid poses are no path to smooth: NaN, as for no estimate.
    few = _run_folder(tmp_path, "two", _traj(t[:2], xyz[:2]))
    assert math.isnan(run_report(few).path_smoothness)


def test_path_smoothness_over_losses_at_the_start_and_for_good_is_the_stretches_sum(
    tmp_path: Path,
) -> None:
    """Lost from 0 s (the first poses), at 13, 20 .. 21, 22 .. 23, 25 s and from 50 s for
    good: stretches 2 .. 12 (still), 14 .. 19, 21 (1 pose), 23 .. 24 (2 poses), 26 .. 49.
    Those of 3 poses or more count, each by the library's own number on it (0 for the
    still one, which still adds no length): their changes summed over their lengths."""
    rng = np.random.default_rng(7)
    t = np.arange(60.0)
    xyz = np.cumsum(rng.normal(size=(60, 3)), axis=0)
    xyz[:13] = xyz[0]
    tracking = "time_s,event\n0.0,lost\n2.0,recovered\n13.0,lost\n14.0,recovered\n"
    tracking += "20.0,lost\n21.0,recovered\n22.0,lost\n23.0,recovered\n25.0,lost\n"
    tracking += "26.0,recovered\n50.0,lost\n"
    folder = _run_folder(tmp_path, "run", _traj(t, xyz), tracking=tracking)
    pieces = [xyz[2:13], xyz[14:20], xyz[26:50]]
    lengths = [float(path_length(p)) for p in pieces]
    changes = [float(path_smoothness(p)) * n for p, n in zip(pieces, lengths, strict=True)]
    assert lengths[0] == changes[0] == 0.0
    got = run_report(folder, NONE).path_smoothness
    assert got == pytest.approx(sum(changes) / sum(lengths), rel=1e-12)
