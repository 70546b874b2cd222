"""Resource summaries: peak memory, mean and peak CPU, threads and GPU from samples."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.run_report import Resources

if TYPE_CHECKING:
    from robot_msgs.runs.logs import ResourceLog
    from robot_msgs.typing import Float64Array

__all__ = ["resources_from_log"]


def _peak(values: Float64Array) -> float:
    finite = values[np.isfinite(values)]
    return float(np.max(finite)) if finite.size else math.nan


def _mean(values: Float64Array) -> float:
    finite = values[np.isfinite(values)]
    return float(np.mean(finite)) if finite.size else math.nan


def resources_from_log(log: ResourceLog) -> Resources:
    """Summarise a run's ``resources.csv`` samples.

    The CPU mean is the plain mean of the samples (evenly spaced sampling assumed,
    as ``pidstat``/``psutil`` loggers produce); peaks are sample maxima, so a spike
    shorter than the sampling interval can be missed. Optional columns that are absent
    or empty give NaN (``peak_threads``: -1).

    Examples
    --------
    >>> from pathlib import Path
    >>> from robot_msgs.runs.logs import ResourceLog
    >>> nan = np.full(3, np.nan)
    >>> log = ResourceLog(path=Path("r.csv"), time_s=np.array([0.0, 1.0, 2.0]),
    ...                   cpu_percent=np.array([50.0, 150.0, 100.0]),
    ...                   rss_bytes=np.array([1e8, 3e8, 2e8]), threads=np.array([4.0, 6, 6]),
    ...                   gpu_mem_bytes=nan, gpu_percent=nan)
    >>> r = resources_from_log(log)
    >>> r.mean_cpu_percent, r.peak_cpu_percent, r.peak_rss_bytes, r.peak_threads
    (100.0, 150.0, 300000000.0, 6)
    """
    t = log.time_s
    threads = _peak(log.threads)
    return Resources(
        n_samples=int(t.size),
        duration_s=float(t[-1] - t[0]) if t.size > 1 else 0.0,
        peak_rss_bytes=_peak(log.rss_bytes),
        mean_cpu_percent=_mean(log.cpu_percent),
        peak_cpu_percent=_peak(log.cpu_percent),
        peak_threads=-1 if math.isnan(threads) else int(threads),
        peak_gpu_mem_bytes=_peak(log.gpu_mem_bytes),
        mean_gpu_percent=_mean(log.gpu_percent),
        peak_gpu_percent=_peak(log.gpu_percent),
    )
