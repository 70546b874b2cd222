"""Group summaries: success rate, failure reasons and per-signal distributions across runs."""

from __future__ import annotations

import pytest

from robot_msgs.compare import Comparison, Latency, Resources, RunReport, TrackingLoss, error_stats
from robot_msgs.errors import SettingsMismatchError
from robot_msgs.report.groups import summarise_groups
from tests.compare.comparisons import comparison


def _latency(p95: float) -> Latency:
    return Latency(source="timing_log", n_frames=10, latency_p50_s=p95 / 2, latency_p95_s=p95,
                   latency_max_s=p95, latency_mean_s=p95 / 2)  # fmt: skip


def _ape(rms: float, alignment: str = "se3") -> Comparison:
    return comparison(metric="ape", stats={"translation": error_stats([rms])}, units={"translation": "m"},
                      parameters={"alignment": alignment})  # fmt: skip


def test_group_reports_success_rate_failure_reasons_and_distributions() -> None:
    runs = [
        RunReport(name="1", algorithm="a", sequence="s", success=True, comparisons={"ape:translation": _ape(0.1)},
                  coverage=1.0, latency=_latency(0.04),
                  resources=Resources(n_samples=2, duration_s=1.0, peak_rss_bytes=2e8,
                                      mean_cpu_percent=100.0, peak_cpu_percent=150.0)),
        RunReport(name="2", algorithm="a", sequence="s", success=True, comparisons={"ape:translation": _ape(0.3)},
                  coverage=0.8, latency=_latency(0.06),
                  losses=(TrackingLoss(start_s=1.0, end_s=2.5), TrackingLoss(start_s=4.0, end_s=4.5))),
        RunReport(name="3", algorithm="a", sequence="s", success=False, failure="exit code -11",
                  coverage=0.4, comparisons={"ape:translation": _ape(0.01)}),
        RunReport(name="4", algorithm="a", sequence="s", success=False, failure="exit code -11"),
        RunReport(name="5", algorithm="b", sequence="s", success=True),
    ]  # fmt: skip
    a, b = summarise_groups(runs)
    assert (a.algorithm, a.sequence, a.n_runs) == ("a", "s", 4)
    assert dict(a.failures) == {"exit code -11": 2}
    assert a.success_rate == 0.5
    # accuracy over the two successful runs only; failures counted apart
    assert a.accuracy is not None
    assert a.accuracy.n_runs == 4
    assert a.accuracy.stats["translation"].n == 2
    assert a.accuracy.stats["translation"].mean == pytest.approx(0.2)
    stats = {s.name: s.stats for s in a.signals}
    assert stats["coverage"].n == 3
    assert stats["coverage"].mean == pytest.approx((1.0 + 0.8 + 0.4) / 3)
    assert stats["lost_s"].max == pytest.approx(2.0)
    assert stats["tracking_losses"].max == 2.0
    assert stats["latency_p95_s"].median == pytest.approx(0.05)
    assert stats["peak_rss_bytes"].n == 1
    latency = a.signal("latency_p95_s")
    assert latency is not None
    assert latency.unit == "s"
    assert "processing_p50_s" not in stats  # NaN in every run
    assert b.accuracy is None
    assert b.success_rate == 1.0


def test_group_refuses_mixed_settings_unless_forced() -> None:
    runs = [
        RunReport(
            name="1",
            algorithm="a",
            sequence="s",
            success=True,
            comparisons={"ape:translation": _ape(0.1, "se3")},
        ),
        RunReport(
            name="2",
            algorithm="a",
            sequence="s",
            success=True,
            comparisons={"ape:translation": _ape(0.1, "sim3")},
        ),
    ]
    with pytest.raises(SettingsMismatchError, match=r"`alignment=`"):
        summarise_groups(runs)
    (group,) = summarise_groups(runs, force=True)
    assert group.accuracy is not None
    assert group.accuracy.settings["alignment"] == "<mixed>"


def test_versions_and_parameter_sets_of_one_algorithm_are_summarised_apart() -> None:
    """orb 1.0 and 2.0 runs were one group "orb": its APE median blended both versions."""

    def run(name: str, version: str, rms: float, **parameters: int) -> RunReport:
        return RunReport(name=name, algorithm="orb", version=version, parameters=parameters,
                         sequence="s", success=True, comparisons={"ape:translation": _ape(rms)})  # fmt: skip

    runs = [run("1", "1.0", 0.1), run("2", "2.0", 0.3), run("3", "1.0", 0.2), run("4", "2.0", 0.5)]
    one, two = summarise_groups(runs)
    assert (one.version, one.n_runs, two.version, two.n_runs) == ("1.0", 2, "2.0", 2)
    assert one.accuracy is not None
    assert two.accuracy is not None
    assert one.accuracy.stats["translation"].median == pytest.approx(0.15)
    assert two.accuracy.stats["translation"].median == pytest.approx(0.4)
    assert dict(two.accuracy.group) == {
        "algorithm": "orb",
        "sequence": "s",
        "configuration": "orb 2.0",
    }
    sweep = summarise_groups([run("1", "1.0", 0.1, n=1000), run("2", "1.0", 0.3, n=2000)])
    assert [dict(g.parameters) for g in sweep] == [{"n": 1000}, {"n": 2000}]
    assert [g.accuracy.group["configuration"] for g in sweep if g.accuracy] == [
        "orb (n=1000)",
        "orb (n=2000)",
    ]
    (alone,) = summarise_groups([run("1", "1.0", 0.1), run("3", "1.0", 0.2)])
    assert alone.accuracy is not None
    assert dict(alone.accuracy.group) == {"algorithm": "orb", "sequence": "s"}  # as before


def test_a_group_stamped_by_frame_index_distributes_lost_frames_not_seconds() -> None:
    """KITTI runs read without their times files lose frames, not seconds: their group
    said lost_s (unit s) 200 for frames 1000 .. 1200 (a hunt). By hand: 200 and 0 frames."""
    runs = [
        RunReport(name=str(k), algorithm="a", sequence="00", success=True, stamps_are_frames=True,
                  sequence_start_s=0.0, sequence_end_s=4540.0, losses=losses)
        for k, losses in enumerate([(TrackingLoss(start_s=1000.0, end_s=1200.0),), ()])
    ]  # fmt: skip
    (group,) = summarise_groups(runs)
    assert group.signal("lost_s") is None
    lost = group.signal("lost_frames")
    assert lost is not None
    assert (lost.unit, lost.stats.max, lost.stats.min) == ("frames", 200.0, 0.0)
