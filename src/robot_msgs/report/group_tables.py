"""The tables of a report's groups: per algorithm and sequence, and repeatability.

:func:`groups_table` gives one row per (configuration, sequence): success rate and
failure reasons beside accuracy; :func:`repeatability_table` how repeated runs of a
sequence without a reference agree.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from robot_msgs.compare.signal import find_signal
from robot_msgs.compare.statistics import INTEGRAL_STATISTICS, ErrorStats, statistic_unit
from robot_msgs.report.report_table import MISSING, ReportTable, _num, _pct
from robot_msgs.report.run_tables import configuration_names, sequence_name

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.report import Report
    from robot_msgs.compare.run_report import Repeatability

__all__ = ["accuracy_label", "groups_table", "repeatability_table", "repeatability_table_of"]


def accuracy_label(report: Report) -> tuple[str, str]:
    """Say what the groups' accuracy distributes: ``("APE RMSE", "m")``, ``("APE IAE", "m·s")``.

    The statistic of each run the report's groups aggregate (its ``--statistic``) and
    the unit of the APE translation's, from the groups themselves. WHY: the table and the
    figure said "APE RMSE [m]" whatever statistic was asked for (a review of
    ``--statistic max``), and the numbers under it were the RMSE too.

    Groups without a translation APE (runs without a reference) say the statistic of the
    report's settings, in metres: ``--statistic iae`` on them headed the table's empty
    columns "APE RMSE [m]" (a review).

    Examples
    --------
    >>> from robot_msgs.msg.catalog import example
    >>> accuracy_label(example("compare/Report"))
    ('APE RMSE', 'm')
    """
    for g in report.groups:
        signal = find_signal(g.accuracy.signals, "translation") if g.accuracy else None
        if g.accuracy is not None and signal is not None:
            statistic, unit = g.accuracy.statistic, signal.unit
            break
    else:
        asked = report.settings.get("statistic")
        known = {f.name for f in dataclasses.fields(ErrorStats)} - {"n"}
        statistic = asked if isinstance(asked, str) and asked in known else "rms"
        unit = statistic_unit(statistic, "m")
    if statistic == "rms":
        return "APE RMSE", unit
    word = statistic.upper() if statistic in INTEGRAL_STATISTICS else statistic
    return f"APE {word}", unit


def _group_names(report: Report) -> list[str]:
    """Name each group's configuration as the ranking does (``orb``; ``orb 2.0`` among several).

    An algorithm the runs do not name is ``not stated`` (``not stated 2.0``), as in the
    ranking and the environment table (its cell was empty, `` 2.0`` beside it).
    """
    names = configuration_names(g.configuration for g in report.groups)
    return [names[g.configuration] for g in report.groups]


def _smoothness_rates(report: Report) -> tuple[str, ...]:
    """Say that path smoothness is not comparable when the runs' output rates differ, or nothing.

    WHY: PS sums a change per step over the path length, so it depends on the rate the
    path is sampled at: fr2_desk_ORB.txt (29 Hz) gives 0.620, every third pose 0.355, every
    tenth 0.422; medians of runs at 10 and 30 Hz stood side by side unsaid (a review).
    Rates within 5 % of each other (a clock's jitter) are one rate.
    """
    rates = [
        r.output_rate_hz
        for r in report.runs
        if math.isfinite(r.path_smoothness) and math.isfinite(r.output_rate_hz)
    ]
    if not rates or max(rates) <= 1.05 * min(rates):
        return ()
    said = (
        "path smoothness depends on the rate the estimate is sampled at, and these runs' "
        f"output rates differ ({min(rates):.1f} .. {max(rates):.1f} Hz): compare it between "
        "runs of one rate."
    )
    return (said,)


def groups_table(report: Report) -> ReportTable:
    """One row per (configuration, sequence): success rate and failure reasons beside accuracy."""
    rows = []
    for g, name in zip(report.groups, _group_names(report), strict=True):
        ape = g.accuracy.stats.get("translation") if g.accuracy else None
        failures = "; ".join(f"{k} x{v}" for k, v in g.failures.items()) or MISSING
        cover = g.signal("coverage")
        lat = g.signal("latency_p95_s")
        smooth = g.signal("path_smoothness")
        rows.append(
            (
                name,
                sequence_name(g.sequence),
                str(g.n_runs),
                _pct(g.success_rate),
                failures,
                _num(ape.median, 4) if ape else MISSING,
                f"{_num(ape.min, 4)}..{_num(ape.max, 4)}" if ape and ape.n else MISSING,
                _pct(cover.stats.mean) if cover else MISSING,
                _num(lat.stats.median, 0, 1e3) if lat else MISSING,
                _num(smooth.stats.median, 3) if smooth else MISSING,
            )
        )
    label, unit = accuracy_label(report)
    headers = (
        "algorithm", "sequence", "runs", "success", "failures", f"{label} median [{unit}]",
        f"{label} range [{unit}]", "coverage mean", "latency p95 median [ms]",
        "path smoothness median",
    )  # fmt: skip
    said = (
        "APE over successful runs only; coverage, latency and path smoothness over every "
        "run that has them, failed ones too."
    )
    notes = (said, *_smoothness_rates(report))
    numeric = (False, False, True, True, False, True, True, True, True, True)
    return ReportTable("Per algorithm and sequence", headers, tuple(rows), numeric, notes)


def repeatability_table(report: Report) -> ReportTable | None:
    """Sequences without a reference: how repeated runs agree (not accuracy)."""
    return repeatability_table_of(
        [
            (name, g.sequence, g.repeatability)
            for g, name in zip(report.groups, _group_names(report), strict=True)
            if g.repeatability
        ]
    )


def repeatability_table_of(entries: Sequence[tuple[str, str, Repeatability]]) -> ReportTable | None:
    """One row per (algorithm, sequence, repeatability); ``None`` without any."""
    rows = []
    statement = ""
    for algorithm, sequence, rep in entries:
        statement = rep.statement
        rows.append(
            (
                algorithm,
                sequence_name(sequence),
                str(len(rep.runs)),
                _num(rep.pairwise.median, 4),
                _num(rep.pairwise.max, 4),
                _num(rep.endpoint_spread_m, 4),
                _num(rep.endpoint_max_m, 4),
            )
        )
    if not rows:
        return None
    headers = (
        "algorithm", "sequence", "runs", "pairwise APE RMSE median [m]", "pairwise max [m]",
        "endpoint spread [m]", "endpoint max distance [m]",
    )  # fmt: skip
    return ReportTable(
        "Repeatability (no reference)",
        headers,
        tuple(rows),
        (False, False, *([True] * 5)),
        (statement,),
    )
