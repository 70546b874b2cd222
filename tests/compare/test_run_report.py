"""RunReport and its parts: cross-field checks and what the properties compute."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest

from robot_msgs.compare import (
    GroupSummary,
    Latency,
    Ranking,
    Repeatability,
    Resources,
    RunReport,
    TrackingLoss,
    error_stats,
)
from robot_msgs.errors import ValidationError
from robot_msgs.msg.catalog import example


def test_loss_duration_and_order_checks() -> None:
    assert TrackingLoss(start_s=2.0, end_s=3.5).duration_s == 1.5
    said = "Expected start_s <= end_s, got start_s 2.0 and end_s 1.0"
    with pytest.raises(ValidationError, match=re.escape(said)):
        TrackingLoss(start_s=2.0, end_s=1.0)
    with pytest.raises(
        ValidationError, match=r"a finite time, got float nan - at `TrackingLoss\.start_s`"
    ):
        TrackingLoss(start_s=math.nan, end_s=1.0)


@pytest.mark.parametrize("end_s", [math.nan, math.inf, -math.inf])
def test_a_loss_that_does_not_end_in_finite_time_names_end_s(end_s: float) -> None:
    # start_s = 4.0 is right, and was named: 'Expected finite start and end times, got
    # tuple (4.0, nan) - at `TrackingLoss.start_s`'.
    with pytest.raises(
        ValidationError, match=r"Expected a finite time, got float .* - at `TrackingLoss\.end_s`$"
    ) as caught:
        TrackingLoss(start_s=4.0, end_s=end_s)
    assert caught.value.field == "TrackingLoss.end_s"


def test_a_run_report_with_a_negative_estimate_count_names_it() -> None:
    # n_valid = 4 is right for any n_estimate >= 4, and was named: 'Expected a count in
    # [0, n_estimate=-1], got int 4 - at `RunReport.n_valid`'.
    report = example("compare/RunReport")
    with pytest.raises(
        ValidationError, match=r"Expected a count >= 0, got int -1 - at `RunReport\.n_estimate`$"
    ):
        report.replace(n_estimate=-1)
    said = "Expected n_valid <= n_estimate, got n_valid 4 and n_estimate 0"
    with pytest.raises(ValidationError, match=re.escape(said)):
        report.replace(n_estimate=0, n_valid=4)


def test_run_report_sums_losses_and_keeps_success_apart() -> None:
    report = RunReport(
        name="r", success=True,
        losses=(TrackingLoss(start_s=1.0, end_s=2.5), TrackingLoss(start_s=4.0, end_s=4.5)),
    )  # fmt: skip
    assert report.n_losses == 2
    assert report.lost_s == 2.0
    assert not report.has_reference


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"success": True, "failure": "crash"}, r"Expected '' for a successful run"),
        ({"success": False}, r"Expected a reason for a failed run"),
        ({"success": True, "coverage": 1.5}, r"Expected a share in \[0, 1\] or NaN"),
        (
            {"success": True, "n_estimate": 3, "n_valid": 4},
            r"Expected n_valid <= n_estimate, got n_valid 4 and n_estimate 3",
        ),
        (
            {
                "success": True,
                "losses": (
                    TrackingLoss(start_s=1.0, end_s=3.0),
                    TrackingLoss(start_s=2.0, end_s=4.0),
                ),
            },
            r"losses in time order, not overlapping, got TrackingLoss .* - at `RunReport.losses\[1\]`",
        ),
    ],
)
def test_run_report_refuses_inconsistent_fields(fields: dict[str, Any], match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        RunReport(name="r", **fields)


def test_repeatability_is_always_labelled_and_square() -> None:
    rep = example("compare/Repeatability")
    assert isinstance(rep, Repeatability)
    assert "does not establish position accuracy" in rep.statement
    with pytest.raises(ValidationError, match=r"Expected shape \(2, 2\)"):
        Repeatability(runs=("a", "b"), pairwise_ape_rms_m=np.zeros((3, 3)), pairwise=error_stats([0.1]),
                      endpoint_spread_m=0.0, endpoint_max_m=0.0)  # fmt: skip
    with pytest.raises(ValidationError, match=r"Expected 'Repeatability compares"):
        rep.replace(statement="accurate to 1 cm")


def test_repeatability_refuses_a_signalling_nan_on_its_diagonal_without_a_warning() -> None:
    # np.diag(m).any() of a signalling NaN warned "invalid value encountered in reduce"
    # outside the errstate block: under -W error that RuntimeWarning was the refusal
    rep = example("compare/Repeatability")
    assert isinstance(rep, Repeatability)
    matrix = np.array(rep.pairwise_ape_rms_m)
    matrix[0, 0] = np.array([0x7FF0000000000001], dtype=np.uint64).view(np.float64)[0]
    with pytest.raises(ValidationError, match=r"its diagonal 0.* at `Repeatability\.pairwise"):
        rep.replace(pairwise_ape_rms_m=matrix)


def test_group_summary_success_rate_and_checks() -> None:
    group = example("compare/GroupSummary")
    assert isinstance(group, GroupSummary)
    assert group.n_failed == 1
    assert group.success_rate == 0.75
    with pytest.raises(ValidationError, match=r"at least the 1 failures"):
        group.replace(n_runs=0)
    assert group.signal("coverage") == group.signals[0]
    assert group.signal("latency") is None
    assert math.isnan(GroupSummary(algorithm="a", sequence="s", n_runs=0).success_rate)


def test_ranking_rows_must_be_in_position_order() -> None:
    ranking = example("compare/Ranking")
    assert isinstance(ranking, Ranking)
    assert ranking.rows[0].success_rate == 0.75
    with pytest.raises(ValidationError, match=r"rows in position order"):
        ranking.replace(rows=tuple(reversed(ranking.rows)))
    with pytest.raises(ValidationError, match=r"Expected a count in \[0, n_runs=1\]"):
        ranking.rows[0].replace(n_runs=1)


def test_latency_and_resources_refuse_negative_counts() -> None:
    with pytest.raises(ValidationError, match=r"a count >= 0"):
        Latency(
            source="x",
            n_frames=-1,
            latency_p50_s=0.0,
            latency_p95_s=0.0,
            latency_max_s=0.0,
            latency_mean_s=0.0,
        )
    with pytest.raises(ValidationError, match=r"a count >= 0"):
        Resources(
            n_samples=-1,
            duration_s=0.0,
            peak_rss_bytes=0.0,
            mean_cpu_percent=0.0,
            peak_cpu_percent=0.0,
        )


@pytest.mark.parametrize(
    "matrix",
    [
        [[0.0, 0.012, 0.020], [0.020, 0.0, 0.016], [0.012, 0.016, 0.0]],  # not mirrored
        [[0.5, 0.012, 0.020], [0.012, 0.0, 0.016], [0.020, 0.016, 0.0]],  # diagonal not 0
        [[math.nan, 0.012, 0.020], [0.012, 0.0, 0.016], [0.020, 0.016, 0.0]],
        [[0.0, -0.012, 0.020], [-0.012, 0.0, 0.016], [0.020, 0.016, 0.0]],  # an RMSE < 0
    ],
)
def test_repeatability_refuses_a_pair_matrix_its_docstring_rules_out(
    matrix: list[list[float]],
) -> None:
    """The docstring says mirrored, diagonal 0 (each run against itself), RMSEs; a saved
    one that was none of these loaded."""
    rep = example("compare/Repeatability")
    with pytest.raises(ValidationError, match=r"mirrored, its diagonal 0, .*pairwise_ape_rms_m"):
        rep.replace(pairwise_ape_rms_m=np.array(matrix))


def test_repeatability_keeps_an_unknown_pair_rmse() -> None:
    """A pair without matched poses has a NaN RMSE, mirrored as NaN: still valid."""
    rep = example("compare/Repeatability")
    nan = math.nan
    matrix = np.array([[0.0, nan, 0.020], [nan, 0.0, 0.016], [0.020, 0.016, 0.0]])
    kept = rep.replace(pairwise_ape_rms_m=matrix)
    assert isinstance(kept, Repeatability)
    assert math.isnan(kept.pairwise_ape_rms_m[0, 1])


@pytest.mark.parametrize(
    "name",
    [
        "duration_s",
        "peak_rss_bytes",
        "mean_cpu_percent",
        "peak_cpu_percent",
        "peak_gpu_mem_bytes",
        "mean_gpu_percent",
        "peak_gpu_percent",
    ],
)
@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])
def test_resources_refuse_a_negative_figure(name: str, value: float) -> None:
    # Seconds, bytes and percentages of use are >= 0: -1.0 was kept. NaN (a column
    # absent or empty, resources_from_log) stays. +inf was kept too: no run lasts, holds
    # or uses that much (the resources log refuses an inf sample).
    resources = example("compare/Resources")
    with pytest.raises(
        ValidationError,
        match=rf"Expected a finite value >= 0 \(NaN: unknown\), .* - at `Resources\.{name}`$",
    ) as caught:
        resources.replace(**{name: value})
    assert caught.value.field == f"Resources.{name}"
    assert getattr(resources.replace(**{name: 0.0}), name) == 0.0
    assert math.isnan(getattr(resources.replace(**{name: math.nan}), name))


@pytest.mark.parametrize("name", ["input_rate_hz", "nominal_input_rate_hz", "output_rate_hz"])
@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])
def test_run_report_refuses_a_negative_rate(name: str, value: float) -> None:
    # A rate of frames is >= 0: -1.0 was kept. NaN (unknown, rate_hz of < 2 stamps) stays.
    # +inf Hz was kept too: frames no time apart are no rate that was measured.
    report = example("compare/RunReport")
    with pytest.raises(
        ValidationError,
        match=rf"Expected a finite rate >= 0 \(NaN: unknown\), .* - at `RunReport\.{name}`$",
    ) as caught:
        report.replace(**{name: value})
    assert caught.value.field == f"RunReport.{name}"
    assert math.isnan(getattr(report.replace(**{name: math.nan}), name))


_LATENCY_FIGURES = [
    f"{kind}_{figure}_s"
    for kind in ("latency", "processing")
    for figure in ("p50", "p95", "max", "mean")
]


@pytest.mark.parametrize("name", _LATENCY_FIGURES)
@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])
def test_latency_refuses_a_negative_or_infinite_figure(name: str, value: float) -> None:
    """example("compare/Latency").replace(latency_p50_s=-1.0) and latency_max_s=inf were
    kept: a latency or a processing time is a finite duration >= 0, as latency_from_samples
    says of its samples. NaN (unknown: no processing times, no frames) stays."""
    latency = example("compare/Latency")
    with pytest.raises(
        ValidationError,
        match=rf"Expected a finite duration >= 0 \(NaN: unknown\), .* - at `Latency\.{name}`$",
    ) as caught:
        latency.replace(**{name: value})
    assert caught.value.field == f"Latency.{name}"
    assert math.isnan(getattr(latency.replace(**{name: math.nan}), name))


@pytest.mark.parametrize("kind", ["latency", "processing"])
@pytest.mark.parametrize(
    ("changes", "first", "second"),
    [
        # the example's p50, p95, max: 0.041, 0.087, 0.142 s (processing 0.029, 0.051, 0.09)
        ({"p50": 2.0, "max": 1.0}, "p50", "p95"),  # the first rule broken is named
        ({"p50": 0.1}, "p50", "p95"),
        ({"p95": 0.02}, "p50", "p95"),
        ({"p95": 0.5}, "p95", "max"),
        ({"max": 0.045}, "p95", "max"),
    ],
)
def test_latency_refuses_percentiles_out_of_order_naming_both(
    kind: str, changes: dict[str, float], first: str, second: str
) -> None:
    """A p50 of 2 s beside a max of 1 s was kept: no samples have p50 > p95 or p95 > max.
    Either field breaks the rule, so both are named, as ErrorStats' rules do."""
    latency = example("compare/Latency")
    fields = {f"{kind}_{figure}_s": value for figure, value in changes.items()}
    a, b = f"{kind}_{first}_s", f"{kind}_{second}_s"
    made = {**latency.to_dict(), **fields}
    said = (
        f"Expected {a} <= {b}, got {a} {made[a]!r} and {b} {made[b]!r} "
        f"- at `Latency.{a}` and `Latency.{b}`"
    )
    with pytest.raises(ValidationError, match=f"^{re.escape(said)}$") as caught:
        latency.replace(**fields)
    assert caught.value.field == ""
    kept = latency.replace(**{a: 0.05, b: 0.05})  # equal is a percentile of equal samples
    assert getattr(kept, a) == getattr(kept, b) == 0.05


def test_a_loss_ending_before_it_starts_names_both_times() -> None:
    """TrackingLoss(start_s=2.0, end_s=3.5).replace(start_s=4.0) was refused 'at
    `TrackingLoss.end_s`', the time the caller had not changed: start_s <= end_s is broken
    by either, so both are named, as ErrorStats' rules do; its field is ""."""
    loss = TrackingLoss(start_s=2.0, end_s=3.5)
    said = (
        "Expected start_s <= end_s, got start_s 4.0 and end_s 3.5 "
        "- at `TrackingLoss.start_s` and `TrackingLoss.end_s`"
    )
    for changes in ({"start_s": 4.0}, {"end_s": 1.0}):
        with pytest.raises(ValidationError, match=r"^Expected start_s <= end_s, got") as caught:
            loss.replace(**changes)
        assert str(caught.value).endswith("at `TrackingLoss.start_s` and `TrackingLoss.end_s`")
        assert caught.value.field == ""
    with pytest.raises(ValidationError, match=f"^{re.escape(said)}$"):
        loss.replace(start_s=4.0)
    report = {**example("compare/RunReport").to_dict(), "losses": [loss.to_dict()]}
    report["losses"][0]["start_s"] = 4.0
    placed = "at `RunReport.losses[0].start_s` and `RunReport.losses[0].end_s`"
    with pytest.raises(ValidationError, match=re.escape(placed)):
        RunReport.from_dict(report)


def test_more_valid_poses_than_estimates_names_both_counts() -> None:
    """example("compare/RunReport").replace(n_valid=5) with n_estimate 4 was refused naming
    n_valid alone ('a count in [0, n_estimate=4]'), and replace(n_estimate=3) too, the count
    the caller had not changed: both are named. A negative n_valid is its own fault."""
    report = example("compare/RunReport")
    assert isinstance(report, RunReport)
    assert (report.n_estimate, report.n_valid) == (4, 4)
    for changes, said in [
        ({"n_valid": 5}, "got n_valid 5 and n_estimate 4"),
        ({"n_estimate": 3}, "got n_valid 4 and n_estimate 3"),
    ]:
        with pytest.raises(
            ValidationError,
            match=rf"^Expected n_valid <= n_estimate, {said} "
            r"- at `RunReport\.n_valid` and `RunReport\.n_estimate`$",
        ) as caught:
            report.replace(**changes)
        assert caught.value.field == ""
    with pytest.raises(
        ValidationError, match=r"^Expected a count >= 0, got int -1 - at `RunReport\.n_valid`$"
    ):
        report.replace(n_valid=-1)


_NO_PROCESSING = {
    "processing_p50_s": math.nan,
    "processing_p95_s": math.nan,
    "processing_max_s": math.nan,
    "processing_mean_s": math.nan,
}


def test_a_latency_without_processing_times_passes_the_one_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A bag proxy has none: four NaN went to the full check, 2 us more than a log
    def full(self: Latency) -> None:
        msg = "full check"
        raise AssertionError(msg)

    monkeypatch.setattr(Latency, "_check_figures", full)
    latency = example("compare/Latency")
    assert isinstance(latency, Latency)
    proxy = latency.replace(source="bag_receive_proxy", **_NO_PROCESSING)
    assert math.isnan(proxy.processing_p50_s)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({**_NO_PROCESSING, "processing_p95_s": -1.0}, "processing_p95_s"),
        ({**_NO_PROCESSING, "processing_mean_s": math.inf}, "processing_mean_s"),
        ({**_NO_PROCESSING, "latency_max_s": math.inf}, "latency_max_s"),
    ],
)
def test_a_latency_with_some_processing_times_unknown_is_still_checked(
    changes: dict[str, float], field: str
) -> None:
    with pytest.raises(ValidationError, match=rf"`Latency\.{field}`"):
        example("compare/Latency").replace(**changes)
