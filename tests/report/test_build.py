"""build_report on constructed runs: groups, ranking, repeatability, progress."""

from __future__ import annotations

import dataclasses
import json
import math
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.compare import REPEATABILITY_STATEMENT
from robot_msgs.errors import AssociationError, FormatError, RobotMsgsError, ValidationError
from robot_msgs.io import write_kitti, write_tum
from robot_msgs.report import build_report
from robot_msgs.report.build import _in_run
from robot_msgs.runs import load_runs
from robot_msgs.runs.evaluate import UNRATED_NOTE
from robot_msgs.runs.spans import shown_by_runs_note, unmeasured_in_space_note
from robot_msgs.strict_json import dumps
from robot_msgs.trajectory import PoseTrajectory
from tests.runs.tree import make_cut_trials

if TYPE_CHECKING:
    from pathlib import Path

T = np.round(np.arange(101) / 10.0, 1)  # 0.0 .. 10.0 s at 10 Hz
XYZ = np.stack([np.cos(T / 2), np.sin(T / 2), 0.1 * T], axis=1)
SPATIAL = '[settings]\nsync = "spatial"\n'


def _traj(xyz: np.ndarray) -> PoseTrajectory:
    return PoseTrajectory(
        stamps_s=T, positions_xyz=xyz, orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (T.size, 1))
    )


def _manifest(tmp_path: Path, runs: list[tuple[str, float]], settings: str = "") -> Path:
    """Runs of algorithms on sequence ``s``, each the reference shifted by an offset in y."""
    write_tum(tmp_path / "gt.tum", _traj(XYZ))
    lines = [settings]
    for i, (algorithm, offset) in enumerate(runs):
        folder = tmp_path / f"r{i}"
        folder.mkdir()
        write_tum(folder / "estimate.tum", _traj(XYZ + np.array([0.0, offset, 0.0])))
        lines.append(
            f'[[runs]]\npath = "r{i}"\nalgorithm = "{algorithm}"\nsequence = "s"\n'
            f'trial = {i}\nreference = "gt.tum"\n'
        )
    (tmp_path / "runs.toml").write_text("".join(lines), encoding="utf-8")
    return tmp_path / "runs.toml"


def test_build_report_groups_ranks_and_reports_progress(tmp_path: Path) -> None:
    # Unaligned constant offsets: a's runs 0.00 and 0.04 m (median 0.02), b's 0.05 m.
    path = _manifest(
        tmp_path, [("a", 0.0), ("b", 0.05), ("a", 0.04)], '[settings]\nalign = "none"\n'
    )
    seen: list[tuple[str, bool]] = []
    result = build_report(
        load_runs([path]), progress=lambda name, failed: seen.append((name, failed))
    )
    assert seen == [("r0", False), ("r1", False), ("r2", False)]
    report = result.report
    assert [(g.algorithm, g.n_runs) for g in report.groups] == [("a", 2), ("b", 1)]
    assert report.ranking is not None
    assert [row.algorithm for row in report.ranking.rows] == ["a", "b"]
    assert dict(report.ranking.rows[0].scores) == {"s": pytest.approx(0.02)}
    assert report.ranking.rows[1].scores["s"] == pytest.approx(0.05)
    assert report.settings["align"] == "none"
    assert report.settings["metrics"] == ("ape:translation", "rpe:translation:1s:all")
    assert set(result.runs) == {"r0", "r1", "r2"}


def test_the_statistic_of_the_settings_is_what_the_ranking_compares(tmp_path: Path) -> None:
    path = _manifest(
        tmp_path, [("a", 0.01), ("b", 0.02)], '[settings]\nalign = "none"\nstatistic = "max"\n'
    )
    ranking = build_report(load_runs([path])).report.ranking
    assert ranking is not None
    assert ranking.statistic == "max"
    assert ranking.rows[0].scores["s"] == pytest.approx(0.01)


@pytest.mark.parametrize(
    ("statistic", "label", "median", "low", "high"),
    [
        # Each run's APE is g t over t in 0..10 s (g = 0.001, 0.003 m/s): its IAE is the
        # trapezoids of a line, exactly 50 g m·s; its max 10 g m; its RMSE g sqrt(mean t²),
        # mean t² = 201 / 6 = 33.5 over the 101 stamps t = k / 10.
        ("iae", "APE IAE", 0.1, 0.05, 0.15),
        ("max", "APE max", 0.02, 0.01, 0.03),
        (
            "rms",
            "APE RMSE",
            0.002 * math.sqrt(33.5),
            0.001 * math.sqrt(33.5),
            0.003 * math.sqrt(33.5),
        ),
    ],
)
def test_the_groups_accuracy_is_of_the_statistic_of_the_settings_and_says_it(
    tmp_path: Path, statistic: str, label: str, median: float, low: float, high: float
) -> None:
    """``--statistic`` ranked the runs, but the groups' accuracy (the per algorithm and
    sequence table, the comparison figure) was each run's APE RMSE whatever it said, and
    was headed "APE RMSE [m]"."""
    from robot_msgs.compare.statistics import statistic_unit
    from robot_msgs.report.figure_spec import comparison_spec
    from robot_msgs.report.group_tables import groups_table

    path = _manifest(
        tmp_path,
        [("a", 0.0), ("a", 0.0)],
        f'[settings]\nalign = "none"\nstatistic = "{statistic}"\n',
    )
    for i, growth in enumerate((0.001, 0.003)):  # the estimate drifts sideways, g m/s
        drifting = _traj(XYZ + np.outer(growth * T, [0, 1, 0]))
        write_tum(tmp_path / f"r{i}" / "estimate.tum", drifting, force=True)
    result = build_report(load_runs([path]))
    (group,) = result.report.groups
    assert group.accuracy is not None
    assert group.accuracy.statistic == statistic
    stats = group.accuracy.stats["translation"]
    assert (stats.median, stats.min, stats.max) == pytest.approx((median, low, high), rel=1e-9)
    unit = statistic_unit(statistic, "m")
    table = groups_table(result.report)
    row = dict(zip(table.headers, table.rows[0], strict=True))
    assert row[f"{label} median [{unit}]"] == f"{median:.4f}"
    assert row[f"{label} range [{unit}]"] == f"{low:.4f}..{high:.4f}"
    spec = comparison_spec(result)
    assert spec is not None
    assert f"({label} of the successful runs" in spec.title
    assert spec.panels[0].y_title == f"{label} [{unit}]"


@pytest.mark.parametrize(
    ("statistic", "header"),
    [
        ("iae", "APE IAE median [m·s]"),
        ("ise", "APE ISE median [m²·s]"),
        ("rms", "APE RMSE median [m]"),
    ],
)
def test_groups_without_accuracy_head_their_column_with_the_settings_statistic(
    tmp_path: Path, statistic: str, header: str
) -> None:
    """Runs without a reference: no group has an APE to say its statistic, and the table's
    empty accuracy columns were headed "APE RMSE [m]" whatever --statistic was given."""
    from robot_msgs.report.group_tables import groups_table

    folder = tmp_path / "t0"
    folder.mkdir()
    write_tum(folder / "estimate.tum", _traj(XYZ))
    (folder / "meta.json").write_text('{"algorithm": "x", "sequence": "s"}', encoding="utf-8")
    (tmp_path / "runs.toml").write_text(
        f'[settings]\nstatistic = "{statistic}"\n[[runs]]\npath = "t0"\n', encoding="utf-8"
    )
    report = build_report(load_runs([tmp_path / "runs.toml"])).report
    assert report.groups[0].accuracy is None
    table = groups_table(report)
    assert header in table.headers
    assert header.replace("median", "range") in table.headers


@pytest.mark.parametrize("evidence", [True, False])
def test_runs_without_reference_get_a_repeatability_and_no_ranking(
    tmp_path: Path, evidence: bool
) -> None:
    for i, dy in enumerate((0.0, 0.02)):
        folder = tmp_path / f"t{i}"
        folder.mkdir()
        # Run 1 drifts sideways by 0.02 m per second: endpoints (10, 0, 0) and (10, 0.2, 0).
        xyz = np.stack([T, dy * T, np.zeros_like(T)], axis=1)
        write_tum(folder / "estimate.tum", _traj(xyz))
        meta = {"algorithm": "x", "sequence": "s", "trial": i + 1}
        (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    (tmp_path / "runs.toml").write_text(
        '[settings]\nalign = "none"\n[[runs]]\npath = "t0"\n[[runs]]\npath = "t1"\n',
        encoding="utf-8",
    )
    result = build_report(load_runs([tmp_path / "runs.toml"]), evidence=evidence)
    a, b = result.report.runs
    assert a.accuracy is None
    assert a.success
    assert result.runs["t0"].estimate is not None  # what the repeatability reads, kept
    rep = a.repeatability
    assert rep is not None
    assert rep == b.repeatability
    assert rep.statement == REPEATABILITY_STATEMENT
    assert rep.runs == ("t0", "t1")
    # APE of t1 against t0, unaligned: 0.02 * sqrt(mean(t^2)), mean(t^2) over 0..10 s = 33.5
    assert rep.pairwise_ape_rms_m[0, 1] == pytest.approx(0.02 * math.sqrt(33.5))
    assert rep.pairwise_ape_rms_m[1, 0] == rep.pairwise_ape_rms_m[0, 1]
    assert rep.endpoint_spread_m == pytest.approx(0.1)
    assert rep.endpoint_max_m == pytest.approx(0.2)
    assert rep.settings["align"] == "none"
    assert result.report.ranking is None
    assert (
        "no run has an accuracy figure (no reference, or every metric skipped: the runs' "
        "notes say why): no accuracy ranking"
    ) in result.report.notes
    group = result.report.groups[0]
    assert group.repeatability == rep


def test_a_report_without_evidence_keeps_no_series_and_says_the_same(tmp_path: Path) -> None:
    """``evidence=False`` (``report`` without ``--html``) keeps the reports, nothing per pose.

    WHY: a text report of 2,010 runs held each run's series and trajectories to its end
    (peak 1.09 GB).
    """
    path = _manifest(tmp_path, [("a", 0.0), ("b", 0.05)], '[settings]\nalign = "none"\n')
    whole = build_report(load_runs([path]))
    slim = build_report(load_runs([path]), evidence=False)
    assert all(e.results and e.estimate is not None for e in whole.runs.values())
    assert [(e.results, e.estimate, e.reference) for e in slim.runs.values()] == [
        ({}, None, None), ({}, None, None),
    ]  # fmt: skip
    assert dumps(slim.report) == dumps(whole.report)
    accuracy = slim.report.runs[1].accuracy
    assert accuracy is not None
    assert accuracy.stats["translation"].rms == pytest.approx(0.05)  # the offset, unaligned


def test_one_run_without_reference_has_no_repeatability(tmp_path: Path) -> None:
    folder = tmp_path / "only"
    folder.mkdir()
    write_tum(folder / "estimate.tum", _traj(XYZ))
    (report,) = build_report(load_runs([folder])).report.runs
    assert report.repeatability is None


def test_start_frame_positions_refuses_a_run_without_an_estimate(tmp_path: Path) -> None:
    # Checked with an assert before, which `python -O` drops (then: an AttributeError on None).
    from robot_msgs.report.figure_spec import start_frame_positions

    result = build_report(load_runs([_manifest(tmp_path, [("a", 0.5)])]))
    (run,) = result.runs.values()
    positions = start_frame_positions(run)
    assert positions.shape == (T.size, 3)
    assert np.allclose(positions[0], 0.0)
    with pytest.raises(
        ValidationError, match=r"^Run r0 has no estimate to draw in its start frame$"
    ):
        start_frame_positions(dataclasses.replace(run, estimate=None))


def test_a_trial_without_reference_that_stops_halfway_covers_half_and_fails(
    tmp_path: Path,
) -> None:
    """Its own estimate and timing log, cut alike, made its span: it covered all of it and
    succeeded beside trials twice as long (a review). Its sequence's runs show the span."""
    result = build_report(load_runs([make_cut_trials(tmp_path)]))
    runs = {r.name: r for r in result.report.runs}
    cut = runs["orb/s/3"]
    assert (cut.success, cut.failure) == (False, "estimate ends early")
    assert cut.coverage == pytest.approx(0.5)
    assert (cut.sequence_start_s, cut.sequence_end_s, cut.span_source) == (0.0, 6.0, "runs")
    assert (
        "judged against the span of s that the other runs show, 6.00 s (its own timing log "
        "spans 3.00 s)"
    ) in cut.notes
    assert result.runs["orb/s/3"].report == cut
    for name in ("orb/s/1", "orb/s/2"):  # they show the span, their own
        assert (runs[name].success, runs[name].coverage, runs[name].span_source) == (
            True,
            1.0,
            "timing",
        )
    assert shown_by_runs_note(1) in result.report.notes
    # Matched in time, said as before runs in space were judged so too (5f60367 added
    # 'or matched in space' to this line of every report).
    assert (
        "1 run without a reference is judged against the span of its sequence that the "
        "other runs show, not its own (span_source 'runs'; its notes give both spans)"
    ) in result.report.notes
    assert runs["orb/s/1"].repeatability is not None  # the cut trial is not compared
    assert runs["orb/s/1"].repeatability.runs == ("orb/s/1", "orb/s/2")


def test_a_trial_alone_in_its_sequence_keeps_its_own_span(tmp_path: Path) -> None:
    (run,) = build_report(load_runs([make_cut_trials(tmp_path, (3.0,))])).report.runs
    assert (run.success, run.coverage, run.span_source) == (True, 1.0, "timing")


def test_a_run_in_space_judged_on_no_span_is_said_in_the_report_not_only_its_notes(
    tmp_path: Path,
) -> None:
    """Matched in space, alone, without a timing log: its end and coverage are not
    measured and its success not checked. Only its note said so, which the text report
    does not show: it read 'yes', coverage '-' (a review). Matched in time, no such line."""
    for kind in ("in_space", "in_time"):
        (tmp_path / kind).mkdir()
    in_space = build_report(load_runs([_manifest(tmp_path / "in_space", [("a", 0.0)], SPATIAL)]))
    (run,) = in_space.report.runs
    assert (run.success, run.span_source, math.isnan(run.coverage)) == (True, "", True)
    assert unmeasured_in_space_note(1) in in_space.report.notes
    in_time = build_report(load_runs([_manifest(tmp_path / "in_time", [("a", 0.0)])])).report
    assert in_time.runs[0].span_source == "reference"
    assert unmeasured_in_space_note(1) not in in_time.notes


def test_a_metric_skipped_in_runs_is_said_in_the_report_not_only_their_notes(
    tmp_path: Path,
) -> None:
    """KITTI 00 run folders without times files: the default 1 s RPE is skipped on frame
    indices, and the text report showed `RPE RMSE [m] -` with no word why (the runs'
    notes, which it does not print, said it)."""
    folders = []
    for name in ("orb", "sptam"):
        folder = tmp_path / name
        folder.mkdir()
        write_kitti(folder / "estimate.txt", _traj(XYZ), write_times=False)
        write_kitti(folder / "reference.txt", _traj(XYZ), write_times=False)
        folders.append(folder)
    report = build_report(load_runs(folders)).report
    (note,) = [n for n in report.runs[0].notes if "skipped" in n]
    metric, _, why = note.partition(" skipped: ")
    assert metric == "rpe:translation:1s:all"
    assert f"{metric} skipped in 2 runs ({folders[0]}, {folders[1]}): {why}" in report.notes


def test_a_metric_not_evaluated_in_a_run_is_said_in_the_report_as_a_skipped_one(
    tmp_path: Path,
) -> None:
    """An alignment window that holds none of a run's poses: `APE RMSE [m] -` and a note
    that 'the runs' notes say why', which the text report does not print."""
    folder = tmp_path / "orb"
    folder.mkdir()
    write_kitti(folder / "estimate.txt", _traj(XYZ), write_times=False)
    write_kitti(folder / "reference.txt", _traj(XYZ), write_times=False)
    runs = load_runs([folder], evaluation={"align": "se3", "align_window_s": (500.0, 600.0)})
    report = build_report(runs).report
    (note,) = [n for n in report.runs[0].notes if n.startswith("ape:translation ")]
    why = note.removeprefix("ape:translation not evaluated: ")
    assert why.startswith("No pose to fit the alignment on: the alignment window 500 .. 600")
    assert f"ape:translation not evaluated in 1 run ({folder}): {why}" in report.notes


def test_frame_runs_without_a_rate_are_said_in_the_report_not_only_their_notes(
    tmp_path: Path,
) -> None:
    """KITTI run folders without times files or input_rate_hz: their end and coverage
    limits count one frame a second, which only the runs' notes said; the text report,
    which does not print them, showed a success or 'estimate ends early' and a coverage
    without a word why (a review). A run that states its rate is not named."""
    folders = []
    for name, rate in (("orb", None), ("sptam", None), ("dso", 10)):
        folder = tmp_path / name
        folder.mkdir()
        write_kitti(folder / "estimate.txt", _traj(XYZ), write_times=False)
        write_kitti(folder / "reference.txt", _traj(XYZ), write_times=False)
        if rate is not None:
            (folder / "meta.json").write_text(f'{{"input_rate_hz": {rate}}}')
        folders.append(folder)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*frame indices")
        report = build_report(load_runs(folders)).report
    assert UNRATED_NOTE in report.runs[0].notes
    assert UNRATED_NOTE not in report.runs[2].notes
    assert f"2 runs ({folders[0]}, {folders[1]}): {UNRATED_NOTE}" in report.notes


def test_a_special_log_of_a_run_fails_it_as_bench_fails_it(tmp_path: Path) -> None:
    """A timing.csv that is a pipe or a device was warned about and passed over: its run
    lost its latency without a word in the page or its notes, where bench failed the run
    (rgbdslam 38/48 in one, 37/47 in the other, in a folder of 192 runs). Refused, as a
    malformed log is, naming the file and the run."""
    for trial in ("1", "2"):
        folder = tmp_path / "algo" / "seq" / trial
        folder.mkdir(parents=True)
        write_tum(folder / "estimate.tum", _traj(XYZ))
    log = tmp_path / "algo" / "seq" / "1" / "timing.csv"
    log.symlink_to("/dev/null")
    with pytest.raises(FormatError, match="algo/seq/1") as caught:
        build_report(load_runs([tmp_path]))
    expected = f"{log}: is a character device, not a regular file: a run's timing log is read"
    assert expected in str(caught.value)


def _subclasses(cls: type[RobotMsgsError]) -> list[type[RobotMsgsError]]:
    return [cls, *(kin for sub in cls.__subclasses__() for kin in _subclasses(sub))]


@pytest.mark.parametrize("kind", _subclasses(RobotMsgsError), ids=lambda kind: kind.__name__)
def test_every_error_of_the_package_is_said_naming_its_run(kind: type[RobotMsgsError]) -> None:
    """_in_run builds the same class with its message alone (its TypeError fallback is gone)."""
    said = _in_run(kind("a.tum: why"), "r1", "m.toml")
    assert type(said) is kind
    assert str(said).startswith("run r1 (m.toml): a.tum: why"), str(said)


def test_an_error_said_naming_its_run_keeps_its_fields() -> None:
    """_in_run rebuilt the error from its text: an AssociationError lost its ``cause``, a
    ValidationError's ``reason`` became the whole text."""
    cause = _in_run(AssociationError("a.tum: no overlap", cause="it barely moves"), "r1", "")
    assert isinstance(cause, AssociationError)
    assert (str(cause), cause.cause) == (
        "run r1: a.tum: no overlap; `partial=True` reports the others",
        "it barely moves",
    )
    bad = ValidationError("Expected 1, got 2 - at `S.n`", field="S.n", reason="expected 1, got 2")
    said = _in_run(bad, "r1", "")
    assert isinstance(said, ValidationError)
    assert (said.field, said.reason) == (
        "S.n",
        "run r1: expected 1, got 2; `partial=True` reports the others",
    )


def test_the_repr_of_a_report_result_names_its_runs_by_count_and_ends(tmp_path: Path) -> None:
    """build_report(...) as a notebook cell's last line printed 346,829 characters for the
    18 example runs: every field of every run, twice."""
    path = _manifest(tmp_path, [("a", 0.0), ("b", 0.05), ("a", 0.04)])
    result = build_report(load_runs([path]))
    assert repr(result) == (
        "ReportResult(report=<Report: 3 runs, 2 groups, ranked>, runs=<3 runs: 'r0', ..., "
        "'r2'>, failed={}, not_evaluated={})"
    )


def test_the_repr_of_a_report_names_its_runs_and_groups_by_count_and_ends(
    tmp_path: Path,
) -> None:
    """A Report's repr was 117,720 characters for the 18 example runs: every field of every
    run report and group summary. It shows them as its ReportResult does, by count and ends."""
    path = _manifest(tmp_path, [("a", 0.0), ("b", 0.05), ("a", 0.04)])
    report = build_report(load_runs([path])).report
    shown = repr(report)
    assert shown.startswith(
        "Report(runs=<3 runs: 'r0', ..., 'r2'>, groups=<2 groups: 'a/s', 'b/s'>, "
        "ranking=Ranking(metric='ape', "
    )
    assert "RunReport(" not in shown
    assert "GroupSummary(" not in shown
    two = repr(report.replace(runs=report.runs[:2], groups=()))
    assert two.startswith("Report(runs=<2 runs: 'r0', 'r1'>, ranking=")  # groups=(): default
    # One run's report is shown in full, as before: eval gives it back.
    one = report.replace(runs=report.runs[:1], groups=report.groups[:1])
    assert repr(one).startswith("Report(runs=(RunReport(name='r0', success=True, algorithm='a'")
