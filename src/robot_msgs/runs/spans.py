"""The span a run without a reference is judged against: its sequence's, as its runs show it.

Without a reference, a run's span came from its own timing log, or was unknown: a run
that stopped halfway, its estimate and timing log cut alike, covered all of its own span
and succeeded (a review: trials of 60 s and one cut at 30 s, all at coverage 1.0).
The other runs of its sequence, of any algorithm, show how long the sequence is. Each
run shows the span it was judged against (its reference's, or its timing log's), else
its estimate's first to last stamp; the spans of a sequence that overlap are joined
(runs on another clock, whose spans do not meet, are kept apart). A run without a
reference whose joined span, with at least one other run in it, is wider than its own,
or that has no span of its own, is judged against the joined span: ``span_source`` is
:data:`SHOWN_BY_RUNS` and its notes give both spans. A run alone in its sequence keeps
its own span (there is nothing to compare it to). Matched in space (``sync='spatial'``)
a run's reference is on another clock and gives it no span (``span_source`` is not
``"reference"``): it is judged here as a run without a reference.

``robot-msgs report`` and ``robot-msgs bench`` evaluate each run on its own, then judge
again the runs this module names (:func:`sequence_spans`), with the span it gives, by
:func:`~robot_msgs.runs.evaluate_run`: both give the same answer.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from robot_msgs.compare.run_report import RunReport

__all__ = [
    "SHOWN_BY_RUNS",
    "sequence_spans",
    "shown_by_runs_note",
    "unmeasured_in_space",
    "unmeasured_in_space_note",
]

#: ``RunReport.span_source`` of a run judged against the span its sequence's runs show.
SHOWN_BY_RUNS = "runs"


def _shown(report: RunReport) -> tuple[float, float] | None:
    """Return the span a run shows: the one it was judged against, else its estimate's."""
    for start, end in (
        (report.sequence_start_s, report.sequence_end_s),
        (report.estimate_start_s, report.estimate_end_s),
    ):
        if math.isfinite(start) and math.isfinite(end):
            return start, end
    return None


def sequence_spans(reports: Iterable[RunReport]) -> dict[str, tuple[float, float]]:
    """Return the span each run without a reference is to be judged against, by run name.

    Parameters
    ----------
    reports : iterable of RunReport
        Every run, each judged against its own span (:func:`~robot_msgs.runs.evaluate_run`
        without ``sequence_span``); runs are of one sequence when their ``sequence`` is
        the same (not empty).

    Returns
    -------
    dict
        Run name to ``(start_s, end_s)``, seconds on the estimate's clock, for the runs
        not judged on a reference's span (without one, or matched in space), with an
        estimate, whose sequence's runs show a span wider than their own, or that have
        none; the others are left out.

    Examples
    --------
    >>> from robot_msgs.compare import RunReport
    >>> def run(name, end, source="timing"):
    ...     return RunReport(name=name, success=True, sequence="s", n_estimate=2,
    ...                      estimate_start_s=0.0, estimate_end_s=end, sequence_start_s=0.0,
    ...                      sequence_end_s=end, span_source=source)
    >>> sequence_spans([run("a", 60.0), run("b", 60.0), run("cut", 30.0)])
    {'cut': (0.0, 60.0)}
    >>> sequence_spans([run("alone", 30.0)])
    {}
    """
    by_sequence: dict[str, list[tuple[float, float, RunReport]]] = {}
    for report in reports:
        shown = _shown(report)
        if report.sequence and shown is not None:
            by_sequence.setdefault(report.sequence, []).append((*shown, report))
    out: dict[str, tuple[float, float]] = {}
    for members in by_sequence.values():
        members.sort(key=lambda member: member[0])
        joined: list[list[tuple[float, float, RunReport]]] = []
        high = -math.inf
        for member in members:  # spans that meet are one: a sweep over their starts
            if not joined or member[0] > high:
                joined.append([])
            joined[-1].append(member)
            high = max(high, member[1])
        for group in joined:
            start = group[0][0]
            end = max(member[1] for member in group)
            if len(group) < 2 or not end > start:
                continue
            for _, _, report in group:
                own = (report.sequence_start_s, report.sequence_end_s)
                known = math.isfinite(own[0]) and math.isfinite(own[1])
                wider = not known or start < own[0] or end > own[1]
                if report.span_source != "reference" and report.n_estimate > 0 and wider:
                    out[report.name] = (start, end)
    return out


def shown_by_runs_note(n: int, *, in_space: bool = False) -> str:
    """Say that ``n`` runs were judged against the span their sequence's runs show.

    One line for the whole report (``report`` and ``bench`` say it alike); each run's
    notes give both spans. ``in_space``: matched in space (``sync='spatial'``), where a
    run's reference gives it no span (:mod:`robot_msgs.runs.evaluate`), so runs with one
    are judged so too; matched in time the line is said as before 5f60367.

    Examples
    --------
    >>> shown_by_runs_note(1)[:60]
    '1 run without a reference is judged against the span of its '
    >>> shown_by_runs_note(2, in_space=True)[:60]
    '2 runs without a reference, or matched in space, are judged '
    """
    one = n == 1
    their = "its" if one else "their"
    which = "without a reference, or matched in space," if in_space else "without a reference"
    return (
        f"{n} run{'' if one else 's'} {which} {'is' if one else 'are'} judged "
        f"against the span of {their} sequence that the other runs show, not {their} own "
        f"(span_source '{SHOWN_BY_RUNS}'; {their} notes give both spans)"
    )


def unmeasured_in_space(report: RunReport) -> bool:
    """Whether a run matched in space succeeded with no span to judge its end and coverage.

    The caller knows the run was matched in space (``sync='spatial'``): there a run's
    reference gives it no span (:mod:`robot_msgs.runs.evaluate`), and without a timing log
    or a span its sequence's runs show (``span_source`` empty) its success is not checked.
    """
    return report.success and report.n_estimate > 0 and not report.span_source


def unmeasured_in_space_note(n: int) -> str:
    """Say that ``n`` runs matched in space succeeded unchecked: one line for the report.

    WHY: the run's own note says so, but the text report shows no run note; a run cut
    halfway read 'yes' and coverage '-' (a review; it failed 'estimate ends early' on the
    reference's span before runs in space were judged on their own clock).

    Examples
    --------
    >>> unmeasured_in_space_note(1)[:60]
    '1 run matched in space has no span of its own (no timing log'
    """
    one = n == 1
    their = "its" if one else "their"
    return (
        f"{n} run{'' if one else 's'} matched in space {'has' if one else 'have'} no span of "
        f"{their} own (no timing log) and no other run of {their} sequence shows one: the "
        f"end of the sequence and coverage not measured (coverage -), success not checked "
        f"({their} notes say why)"
    )
