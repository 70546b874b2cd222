"""Resource summaries: peak memory, mean and peak CPU, threads and GPU from samples."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.compare.run_report import Resources
from robot_msgs.compare.statistics import error_stats

if TYPE_CHECKING:
    from robot_msgs.runs.logs import ResourceLog

__all__ = ["resources_from_log"]


def resources_from_log(log: ResourceLog) -> Resources:
    """Summarise a run's ``resources.csv`` samples.

    The CPU mean is the plain mean of the samples (evenly spaced sampling assumed,
    as ``pidstat``/``psutil`` loggers produce); peaks are sample maxima, so a spike
    shorter than the sampling interval can be missed. Optional columns that are absent
    or empty give NaN (``peak_threads``: -1).

    Examples
    --------
    >>> from pathlib import Path
    >>> import numpy as np
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
    # error_stats: the finite samples' peak and mean, a mean that holds where their sum
    # overflows float64 (two CPU samples of 1e308 % ended the run as "got inf at
    # Resources.mean_cpu_percent", naming no file; a hunt).
    rss, cpu, threads, gpu_mem, gpu = (
        error_stats(values)
        for values in (
            log.rss_bytes,
            log.cpu_percent,
            log.threads,
            log.gpu_mem_bytes,
            log.gpu_percent,
        )
    )
    return Resources(
        n_samples=int(t.size),
        duration_s=float(t[-1] - t[0]) if t.size > 1 else 0.0,
        peak_rss_bytes=rss.max,
        mean_cpu_percent=cpu.mean,
        peak_cpu_percent=cpu.max,
        peak_threads=int(threads.max) if threads.n else -1,
        peak_gpu_mem_bytes=gpu_mem.max,
        mean_gpu_percent=gpu.mean,
        peak_gpu_percent=gpu.max,
    )
