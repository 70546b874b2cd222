"""sequence_spans: the span a run without a reference is judged against, as its runs show it."""

from __future__ import annotations

import math

from robot_msgs.compare import RunReport
from robot_msgs.runs.spans import sequence_spans

NAN = math.nan


def _run(
    name: str,
    span: tuple[float, float] = (NAN, NAN),
    *,
    source: str = "timing",
    estimate: tuple[float, float] = (NAN, NAN),
    sequence: str = "s",
    n_estimate: int = 100,
) -> RunReport:
    """A run judged against ``span``; its estimate from ``estimate`` (default: ``span``)."""
    first, last = estimate if math.isfinite(estimate[0]) else span
    return RunReport(
        name=name,
        success=True,
        sequence=sequence,
        n_estimate=n_estimate,
        estimate_start_s=first,
        estimate_end_s=last,
        sequence_start_s=span[0],
        sequence_end_s=span[1],
        span_source=source if math.isfinite(span[0]) else "",
    )


def test_a_trial_cut_halfway_is_judged_against_the_span_of_the_other_trials() -> None:
    runs = [_run("a", (0.0, 60.0)), _run("b", (0.0, 60.0)), _run("cut", (0.0, 30.0))]
    assert sequence_spans(runs) == {"cut": (0.0, 60.0)}


def test_a_run_alone_in_its_sequence_or_without_a_sequence_keeps_its_own_span() -> None:
    assert sequence_spans([_run("a", (0.0, 60.0)), _run("b", (0.0, 30.0), sequence="t")]) == {}
    assert sequence_spans([_run("a", (0.0, 60.0), sequence=""), _run("b", (0.0, 30.0))]) == {}


def test_the_span_joins_every_run_of_the_sequence_whatever_its_algorithm_or_source() -> None:
    # A reference's span (another algorithm's run) and an estimate's (no timing log).
    runs = [
        _run("ref", (-1.0, 61.0), source="reference"),
        _run("timed", (0.0, 60.0)),
        _run("bare", estimate=(0.5, 59.0)),
    ]
    assert sequence_spans(runs) == {"timed": (-1.0, 61.0), "bare": (-1.0, 61.0)}


def test_a_run_without_a_span_of_its_own_is_judged_against_the_runs_that_meet_it() -> None:
    # No timing log: its estimate's first to last stamp is what it shows; the longest
    # is judged against its own estimate's stretch, now that others show the sequence.
    runs = [_run("long", estimate=(0.0, 60.0)), _run("short", estimate=(0.0, 30.0))]
    assert sequence_spans(runs) == {"long": (0.0, 60.0), "short": (0.0, 60.0)}


def test_runs_on_another_clock_are_not_joined() -> None:
    # Stamps from 0 and stamps of the epoch do not meet: each keeps its own span.
    runs = [_run("a", (0.0, 30.0)), _run("epoch", (1.3e9, 1.3e9 + 60.0))]
    assert sequence_spans(runs) == {}
    runs.append(_run("a2", (0.0, 60.0)))
    assert sequence_spans(runs) == {"a": (0.0, 60.0)}


def test_runs_with_a_reference_or_without_an_estimate_are_not_judged_again() -> None:
    runs = [
        _run("long", (0.0, 60.0)),
        _run("ref", (0.0, 30.0), source="reference"),
        _run("none", (0.0, 30.0), n_estimate=0),
    ]
    assert sequence_spans(runs) == {}
