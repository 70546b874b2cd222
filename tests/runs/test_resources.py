"""Resource summaries of resources.csv samples, checked against hand-computed numbers."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.runs.logs import read_resources
from robot_msgs.runs.resources import resources_from_log

if TYPE_CHECKING:
    from pathlib import Path


def test_resources_take_peaks_and_means_of_the_finite_samples(tmp_path: Path) -> None:
    """Hand: CPU (50 + 150 + 100) / 3 = 100 %, peaks 150 % and 3e8 B, 6 threads; the
    empty GPU cells are unknown (NaN), not 0."""
    path = tmp_path / "resources.csv"
    path.write_text(
        "time_s,cpu_percent,rss_bytes,threads,gpu_percent\n0,50,1e8,4,\n1,150,3e8,6,\n2,100,2e8,,\n"
    )
    r = resources_from_log(read_resources(path))
    assert (r.n_samples, r.duration_s) == (3, 2.0)
    assert (r.mean_cpu_percent, r.peak_cpu_percent) == (100.0, 150.0)
    assert (r.peak_rss_bytes, r.peak_threads) == (3e8, 6)
    assert math.isnan(r.mean_gpu_percent)
    assert math.isnan(r.peak_gpu_mem_bytes)


def test_resources_mean_of_samples_whose_sum_overflows_is_their_mean(tmp_path: Path) -> None:
    """Two CPU and GPU samples of 1e308 % (finite, as read): their sum overflowed, and
    the run ended as "got inf at Resources.mean_cpu_percent", naming no file (a hunt).
    The mean of two equal samples is that sample."""
    path = tmp_path / "resources.csv"
    path.write_text("time_s,cpu_percent,rss_bytes,gpu_percent\n0,1e308,1,1e308\n1,1e308,2,1e308\n")
    r = resources_from_log(read_resources(path))
    assert (r.mean_cpu_percent, r.peak_cpu_percent) == (1e308, 1e308)
    assert (r.mean_gpu_percent, r.peak_gpu_percent) == (1e308, 1e308)
