"""Summaries per (configuration, sequence): success rate, failure reasons, distributions."""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

from robot_msgs.compare.aggregation import aggregate
from robot_msgs.compare.configuration import configuration_labels
from robot_msgs.compare.report import GroupSummary
from robot_msgs.compare.signal import Signal
from robot_msgs.compare.statistics import error_stats

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from robot_msgs.compare.configuration import Configuration
    from robot_msgs.compare.run_report import RunReport
    from robot_msgs.msg import Scalar

__all__ = ["SIGNALS", "summarise_groups"]

#: Per-run figures distributed across runs: name, unit, how to read it from a report.
SIGNALS: tuple[tuple[str, str, Callable[[RunReport], float]], ...] = (
    ("coverage", "1", lambda r: r.coverage),
    ("path_smoothness", "1", lambda r: r.path_smoothness),
    ("tracking_losses", "count", lambda r: float(r.n_losses)),
    ("lost_s", "s", lambda r: r.lost_s),
    ("lost_frames", "frames", lambda r: r.lost_frames),  # stamped by frame index (KITTI)
    ("latency_p50_s", "s", lambda r: r.latency.latency_p50_s if r.latency else math.nan),
    ("latency_p95_s", "s", lambda r: r.latency.latency_p95_s if r.latency else math.nan),
    ("processing_p50_s", "s", lambda r: r.latency.processing_p50_s if r.latency else math.nan),
    ("processing_p95_s", "s", lambda r: r.latency.processing_p95_s if r.latency else math.nan),
    ("input_rate_hz", "Hz", lambda r: r.input_rate_hz),
    ("output_rate_hz", "Hz", lambda r: r.output_rate_hz),
    ("peak_rss_bytes", "B", lambda r: r.resources.peak_rss_bytes if r.resources else math.nan),
    ("mean_cpu_percent", "%", lambda r: r.resources.mean_cpu_percent if r.resources else math.nan),
    ("peak_cpu_percent", "%", lambda r: r.resources.peak_cpu_percent if r.resources else math.nan),
    (
        "peak_gpu_mem_bytes",
        "B",
        lambda r: r.resources.peak_gpu_mem_bytes if r.resources else math.nan,
    ),
)


def summarise_groups(
    reports: Sequence[RunReport], *, statistic: str = "rms", force: bool = False
) -> tuple[GroupSummary, ...]:
    """One :class:`GroupSummary` per (configuration, sequence), in order of first appearance.

    A configuration is an algorithm with its version and parameters
    (:class:`~robot_msgs.compare.Configuration`): runs of ``orb`` 1.0 and 2.0 are two
    groups. When an algorithm has several among ``reports``, each group's ``accuracy``
    says which in its ``group`` (``"configuration": "orb 2.0"``, as tables name it).
    ``accuracy`` aggregates each successful run's ``statistic`` of its APE (the report's
    ``--statistic``, as the ranking's), with every failed run counted by reason
    (:func:`~robot_msgs.compare.aggregation`); ``signals`` distributes
    each of :data:`SIGNALS` over the runs that have it (all runs, failed ones too:
    a failed run's latency is still its latency). ``repeatability`` is copied from the
    runs (set by :func:`~robot_msgs.report.build_report` when there is no reference).

    Raises
    ------
    SettingsMismatchError
        APE comparisons of one group made with different settings, unless ``force``.

    Examples
    --------
    >>> from robot_msgs.msg.catalog import example
    >>> run = example("compare/RunReport")
    >>> failed = run.replace(name="b", success=False, failure="no estimate", comparisons={})
    >>> (group,) = summarise_groups([run, failed])
    >>> group.n_runs, group.success_rate, dict(group.failures), group.accuracy.n_runs
    (2, 0.5, {'no estimate': 1}, 2)
    """
    members: dict[tuple[Configuration, str], list[RunReport]] = {}
    for r in reports:
        members.setdefault((r.configuration, r.sequence), []).append(r)
    labels = configuration_labels(c for c, _ in members)
    out = []
    for (configuration, sequence), runs in members.items():
        failures = [r.failure for r in runs if not r.success]
        comparisons = [r.ape for r in runs if r.success and r.ape is not None]
        accuracy = None
        if any(r.ape is not None for r in runs):
            group: dict[str, Scalar] = {"algorithm": configuration.algorithm, "sequence": sequence}
            if labels[configuration] != configuration.algorithm:
                group["configuration"] = labels[configuration]
            accuracy = aggregate(
                comparisons, failures=failures, statistic=statistic, group=group, force=force
            )
        signals = []
        for name, unit, read in SIGNALS:
            values = [read(r) for r in runs]
            if any(math.isfinite(v) for v in values):
                stats = error_stats(values)
                signals.append(Signal(name=name, quantity=name, unit=unit, stats=stats))
        repeat = next((r.repeatability for r in runs if r.repeatability is not None), None)
        out.append(
            GroupSummary(
                algorithm=configuration.algorithm,
                version=configuration.version,
                parameters=dict(configuration.parameters),
                sequence=sequence,
                n_runs=len(runs),
                failures=dict(Counter(failures)),
                accuracy=accuracy,
                signals=tuple(signals),
                repeatability=repeat,
            )
        )
    return tuple(out)
