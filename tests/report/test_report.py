"""run_report and build_report on constructed runs whose answers are known by hand."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from robot_msgs.compare import REPEATABILITY_STATEMENT
from robot_msgs.errors import SettingsMismatchError, ValidationError
from robot_msgs.io import write_tum
from robot_msgs.report import (
    ReportSettings,
    build_report,
    evaluate_run,
    load_run,
    load_runs,
    run_report,
)
from robot_msgs.trajectory import PoseTrajectory
from tests.report.bagtools import write_pose_bag

NONE = ReportSettings(align="none", rpe_deltas=(1.0,))
T = np.round(np.arange(101) / 10.0, 1)  # 0.0 .. 10.0 s at 10 Hz


def _traj(t, xyz) -> PoseTrajectory:
    t = np.asarray(t, dtype=float)
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.asarray(xyz, dtype=float),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)),
    )


def _line(t, dy=0.0):
    return np.stack([t, np.full_like(t, dy), np.zeros_like(t)], axis=1)


def _run_folder(root, name, estimate, *, reference=None, meta=None, tracking=None, timing=None):
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


def test_two_losses_of_1_5_and_0_5_s_count_2_and_2_s_lost_and_accuracy_skips_them(tmp_path):
    xyz = _line(T, dy=0.1)  # 0.1 m off the reference everywhere...
    lost = ((T >= 2.0) & (T < 3.5)) | ((T >= 6.0) & (T < 6.5))
    xyz[lost, 1] += 5.0  # ...and 5 m off while tracking is lost
    folder = _run_folder(
        tmp_path, "run", _traj(T, xyz), reference=_traj(T, _line(T)),
        tracking="time_s,event\n2.0,lost\n3.5,recovered\n6.0,lost\n6.5,recovered\n",
    )  # fmt: skip
    report = run_report(load_run(folder), NONE)
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
    assert report.rpe[0].stats["translation"].max == pytest.approx(0.0, abs=1e-12)


def test_run_without_reference_has_no_ape_and_a_repeatability_section(tmp_path):
    a = _run_folder(
        tmp_path, "a", _traj(T, _line(T)), meta={"algorithm": "x", "sequence": "s", "trial": 1}
    )
    # Run b drifts sideways by 0.02 m per second: endpoints (10, 0, 0) and (10, 0.2, 0).
    drift = _line(T)
    drift[:, 1] = 0.02 * T
    b = _run_folder(
        tmp_path, "b", _traj(T, drift), meta={"algorithm": "x", "sequence": "s", "trial": 2}
    )
    run_a, run_b = load_run(a), load_run(b)
    report = run_report(run_a, NONE, repeats=[run_b])
    assert report.accuracy is None
    assert report.rpe == ()
    assert report.to_dict()["accuracy"] is None
    rep = report.repeatability
    assert rep is not None
    assert rep.statement == REPEATABILITY_STATEMENT
    assert "does not establish position accuracy" in rep.statement
    assert rep.runs == (str(a), str(b))
    # APE of b against a, unaligned: 0.02 * sqrt(mean(t^2)), mean(t^2) over 0..10 s step 0.1 = 33.5
    assert rep.pairwise_ape_rms_m[0, 1] == pytest.approx(0.02 * math.sqrt(33.5))
    assert rep.pairwise_ape_rms_m[1, 0] == rep.pairwise_ape_rms_m[0, 1]
    assert rep.pairwise_ape_rms_m[0, 0] == 0.0
    assert rep.endpoint_spread_m == pytest.approx(0.1)
    assert rep.endpoint_max_m == pytest.approx(0.2)
    assert rep.settings["align"] == "none"


def test_run_without_reference_or_repeats_has_neither(tmp_path):
    report = run_report(load_run(_run_folder(tmp_path, "a", _traj(T, _line(T)))), NONE)
    assert report.accuracy is None
    assert report.repeatability is None
    assert report.success
    assert any("success not checked" in n for n in report.notes)
    assert math.isnan(report.coverage)


@pytest.mark.parametrize(
    ("meta", "estimate_end", "tracking", "failure", "note"),
    [
        ({"exit_code": -11}, 10.0, None, "exit code -11", None),
        ({"failure": "out of memory"}, 10.0, None, "out of memory", None),
        ({}, 7.0, None, "estimate ends early", "last valid pose at 7.00 s of 10.00 s"),
        (
            {},
            10.0,
            "time_s,event\n8.0,lost\n",
            "tracking lost, not recovered",
            "tracking lost at 8.00 s",
        ),
        ({}, None, None, "no estimate", "no pose in"),
    ],
)
def test_failures_are_short_categories_with_details_in_notes(
    tmp_path, meta, estimate_end, tracking, failure, note
):
    estimate = (
        None if estimate_end is None else _traj(T[estimate_end >= T], _line(T[estimate_end >= T]))
    )
    folder = _run_folder(
        tmp_path, "run", estimate, reference=_traj(T, _line(T)), meta=meta, tracking=tracking
    )
    report = run_report(load_run(folder), NONE)
    assert not report.success
    assert report.failure == failure
    if note is not None:
        assert any(note in n for n in report.notes), report.notes


def test_a_run_ending_within_the_end_tolerance_succeeds(tmp_path):
    t = T[T <= 9.5]
    folder = _run_folder(tmp_path, "run", _traj(t, _line(t)), reference=_traj(T, _line(T)))
    assert run_report(load_run(folder), NONE).success
    strict = ReportSettings(align="none", end_tolerance_s=0.1)
    assert run_report(load_run(folder), strict).failure == "estimate ends early"


def test_timing_gives_latency_rates_and_the_span_without_reference(tmp_path):
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
    report = run_report(load_run(folder), NONE)
    assert report.latency.latency_p50_s == pytest.approx(0.03)
    assert report.latency.processing_p95_s == pytest.approx(0.02)
    assert report.latency.clock == "one clock"
    assert report.input_rate_hz == pytest.approx(9 / 1.0)  # 10 frames over 1 s
    assert report.nominal_input_rate_hz == 10.0
    assert report.output_rate_hz == pytest.approx(9.0)
    assert report.span_source == "timing"
    assert report.success


def test_plotted_series_are_the_summarised_errors(tmp_path):
    # A non-degenerate path so that SE(3) alignment is determined.
    xyz = np.stack([np.cos(T / 2), np.sin(T / 2), 0.1 * T], axis=1)
    est = xyz + 0.01 * np.stack([np.sin(3 * T), np.cos(5 * T), np.sin(7 * T)], axis=1)
    folder = _run_folder(tmp_path, "run", _traj(T, est), reference=_traj(T, xyz))
    settings = ReportSettings(align="se3", rpe_deltas=(0.5, 2.0))
    evaluation = evaluate_run(load_run(folder), settings)
    acc = evaluation.accuracy
    assert np.sqrt(np.mean(acc.errors_m**2)) == pytest.approx(
        acc.ape.stats["translation"].rms, rel=1e-12
    )
    for comparison, errors in zip(acc.rpe, acc.rpe_errors_m, strict=True):
        assert np.sqrt(np.mean(errors**2)) == pytest.approx(
            comparison.stats["translation"].rms, rel=1e-12
        )
        assert comparison.counts["pairs"] == errors.size
    assert [c.settings["delta"] for c in acc.rpe] == [0.5, 2.0]


def test_too_large_rpe_delta_is_skipped_with_a_note(tmp_path):
    folder = _run_folder(tmp_path, "run", _traj(T, _line(T, 0.1)), reference=_traj(T, _line(T)))
    report = run_report(load_run(folder), ReportSettings(align="none", rpe_deltas=(1.0, 50.0)))
    assert len(report.rpe) == 1
    assert any("RPE delta 50 s skipped" in n for n in report.accuracy.notes)


def test_unmatched_run_reports_no_accuracy_with_the_reason(tmp_path):
    later = T + 1000.0
    folder = _run_folder(tmp_path, "run", _traj(later, _line(T)), reference=_traj(T, _line(T)))
    report = run_report(load_run(folder), NONE)
    assert report.accuracy is None
    assert any(n.startswith("accuracy not evaluated:") for n in report.notes)


def _manifest_runs(tmp_path, aligns, offsets=None):
    xyz = np.stack([np.cos(T / 2), np.sin(T / 2), 0.1 * T], axis=1)
    write_tum(tmp_path / "gt.tum", _traj(T, xyz))
    lines = []
    for i, (alg, align) in enumerate(aligns):
        offset = 0.01 * i if offsets is None else offsets[i]
        _run_folder(tmp_path, f"r{i}", _traj(T, xyz + np.array([0.0, offset, 0.0])))
        lines.append(
            f'[[runs]]\npath = "r{i}"\nalgorithm = "{alg}"\nsequence = "s"\nreference = "gt.tum"\n'
        )
        if align:
            lines.append(f'align = "{align}"\n')
    (tmp_path / "runs.toml").write_text("".join(lines))
    return load_runs([tmp_path / "runs.toml"])


def test_report_refuses_to_rank_se3_with_sim3_naming_alignment(tmp_path):
    runs = _manifest_runs(tmp_path, [("a", None), ("b", "sim3")])
    with pytest.raises(SettingsMismatchError, match=r"different `align` settings"):
        build_report(runs, ReportSettings(align="se3"))


def test_forced_report_ranks_and_says_so(tmp_path):
    runs = _manifest_runs(tmp_path, [("a", None), ("b", "sim3")])
    result = build_report(runs, ReportSettings(align="se3"), force=True)
    assert result.report.ranking.forced
    assert any("FORCED" in n and "align" in n for n in result.report.notes)


def test_build_report_groups_ranks_and_reports_progress(tmp_path):
    # Unaligned constant offsets: a's runs 0.00 and 0.04 m (median 0.02), b's 0.05 m.
    runs = _manifest_runs(
        tmp_path, [("a", None), ("b", None), ("a", None)], offsets=[0.0, 0.05, 0.04]
    )
    seen = []
    settings = ReportSettings(align="none")
    result = build_report(runs, settings, progress=lambda d, n, name: seen.append((d, n, name)))
    assert seen == [(1, 3, "r0"), (2, 3, "r1"), (3, 3, "r2")]
    assert [(g.algorithm, g.n_runs) for g in result.report.groups] == [("a", 2), ("b", 1)]
    assert [row.algorithm for row in result.report.ranking.rows] == ["a", "b"]
    assert dict(result.report.ranking.rows[0].scores) == {"s": pytest.approx(0.02)}
    assert result.report.ranking.rows[1].scores["s"] == pytest.approx(0.05)
    assert result.report.settings["align"] == "none"
    assert set(result.runs) == {"r0", "r1", "r2"}


def test_a_run_with_a_bag_and_no_timing_log_gets_the_labelled_latency_proxy(tmp_path):
    base = 1_700_000_000 * 10**9
    stamps = [base + i * 100_000_000 for i in range(4)]
    write_pose_bag(tmp_path / "bag", stamps, [s + 25_000_000 for s in stamps])
    folder = _run_folder(
        tmp_path, "run", _traj(T, _line(T)), meta={"bag": "../bag", "latency_topic": "/pose"}
    )
    report = run_report(load_run(folder), NONE)
    assert report.latency.source == "bag_receive_proxy"
    assert report.latency.latency_p50_s == pytest.approx(0.025, abs=1e-6)
    assert any("proxy" in n for n in report.latency.notes)


def test_settings_take_the_command_line_sync_spelling_and_refuse_unknown_ones():
    assert ReportSettings(sync="one-to-one").sync == "one_to_one"
    with pytest.raises(ValidationError, match=r"Expected sync in nearest, one_to_one, interpolate"):
        ReportSettings(sync="closest")
