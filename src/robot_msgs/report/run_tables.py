"""The tables of a report's runs: one row per run, its CSV, and the runs' environment.

:func:`runs_table` and :func:`runs_csv` give each run's success apart from its accuracy,
then its timing and resources (units in the headers: SI, or ms and MB where the header
says so; the CSV in raw SI numbers); :func:`environment_table` the versions, hardware and
software the runs state.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from typing import TYPE_CHECKING

from robot_msgs.compare.configuration import configuration_labels
from robot_msgs.report.report_table import MISSING, ReportTable, _num, _pct
from robot_msgs.report.table_renderers import csv_cell
from robot_msgs.runs.latency import PERCENTILE_RULE

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from robot_msgs.compare.configuration import Configuration
    from robot_msgs.compare.report import Report
    from robot_msgs.compare.run_report import Latency, RunReport

__all__ = [
    "NOT_STATED",
    "configuration_names",
    "environment_table",
    "rpe_metrics",
    "runs_csv",
    "runs_table",
    "sequence_name",
]

#: What a table says for what the runs do not state (an algorithm, a version, hardware).
NOT_STATED = "not stated"


def configuration_names(configurations: Iterable[Configuration]) -> dict[Configuration, str]:
    """Name configurations as the tables and figures do: an unnamed algorithm ``not stated``.

    :func:`~robot_msgs.compare.configuration.configuration_labels`, whose name of an
    algorithm the runs do not name was empty (`` 2.0`` for one of two versions of it).

    Examples
    --------
    >>> from robot_msgs.compare.configuration import Configuration
    >>> list(configuration_names([Configuration("", "1.0"), Configuration("", "2.0")]).values())
    ['not stated 1.0', 'not stated 2.0']
    """
    labels = configuration_labels(configurations)
    return {c: label if c.algorithm else f"{NOT_STATED}{label}" for c, label in labels.items()}


def sequence_name(sequence: str) -> str:
    """Name a sequence as the tables and figures do: one the runs do not name ``not stated``.

    As :func:`configuration_names` says an unnamed algorithm: the ranking's column read
    `` [m]``, the group tables' cell and the figures' labels were empty, the page's
    section ``Sequence `` (a review).

    Examples
    --------
    >>> sequence_name("fr1_xyz"), sequence_name("")
    ('fr1_xyz', 'not stated')
    """
    return sequence or NOT_STATED


def rpe_metrics(report: Report) -> dict[str, tuple[float | int | None, str]]:
    """Every translation RPE of the report's runs, in the settings' order: name -> (delta, unit).

    Their columns hold the translation RMSE in metres: an RPE of angles has none (its
    column, "RPE 1 s RMSE [m]", was always empty, and beside a translation RPE over 1 s
    the CSV had two columns ``rpe_rmse_m@1s``). A delta two metrics share (all pairs and
    consecutive pairs) is ``None``: their columns are named by the metrics.

    Examples
    --------
    >>> from robot_msgs.msg.catalog import example
    >>> rpe_metrics(example("compare/Report"))
    {}
    """
    out: dict[str, tuple[float | int | None, str]] = {}
    for r in report.runs:
        for name, c in r.comparisons.items():
            if c.metric == "rpe" and name not in out and "translation" in c.stats:
                one = c.signals[0]
                out[name] = (one.delta if len(c.signals) == 1 else None, one.delta_unit or "")
    shared = Counter(delta for delta in out.values() if delta[0] is not None)
    return {
        name: (None, unit) if shared[(delta, unit)] > 1 else (delta, unit)
        for name, (delta, unit) in out.items()
    }


#: Lost seconds below this are stamp rounding, no loss: a loss logged as recovered at
#: the sequence's start, which an ``--offset`` put 1 ulp (2.4e-7 s at Unix-epoch stamps)
#: later on the estimate's clock, printed "0.0000002" s lost (a review).
_STAMP_NOISE_S = 1e-6


def _rpe_rms(r: RunReport, name: str) -> float:
    c = r.comparisons.get(name)
    return c.stats["translation"].rms if c is not None and "translation" in c.stats else math.nan


def _run_row(
    r: RunReport, rpe_names: Sequence[str], extra: Sequence[str], bound: float | None
) -> tuple[str, ...]:
    ape = r.ape.stats["translation"].rms if r.ape and "translation" in r.ape.stats else math.nan
    lat = r.latency
    res = r.resources
    return (
        r.name,
        "yes" if r.success else "NO",
        r.failure or MISSING,
        str(r.n_losses),
        _num(r.lost_s, 1, noise=_STAMP_NOISE_S),
        *((_num(r.lost_frames, 0),) if "frames" in extra else ()),
        _pct(r.coverage, bound),
        _num(ape, 4),
        *(_num(_rpe_rms(r, name), 4) for name in rpe_names),
        _num(lat.latency_p50_s, 0, 1e3) if lat else MISSING,
        _num(lat.latency_p95_s, 0, 1e3) if lat else MISSING,
        *((_num(lat.latency_max_s, 0, 1e3) if lat else MISSING,) if "latency" in extra else ()),
        _num(lat.processing_p50_s, 0, 1e3) if lat else MISSING,
        *((_dropped(lat),) if "dropped" in extra else ()),
        *((_num(r.input_rate_hz, 1),) if "input" in extra else ()),
        _num(r.output_rate_hz, 1),
        _num(res.peak_rss_bytes, 0, 1e-6) if res else MISSING,
        _num(res.mean_cpu_percent, 0) if res else MISSING,
        *((_threads(r),) if "threads" in extra else ()),
        *(
            (
                _num(res.peak_gpu_mem_bytes, 0, 1e-6) if res else MISSING,
                _num(res.mean_gpu_percent, 0) if res else MISSING,
            )
            if "gpu" in extra
            else ()
        ),
    )


def _dropped(lat: Latency | None) -> str:
    """Return a run's dropped input frames as the runs table shows them (``-``: unknown)."""
    return str(lat.n_dropped) if lat is not None and lat.n_dropped >= 0 else MISSING


def _threads(r: RunReport) -> str:
    """Return a run's peak threads as the runs table shows them (``-``: not logged)."""
    res = r.resources
    return str(res.peak_threads) if res is not None and res.peak_threads >= 0 else MISSING


def _extra_columns(report: Report) -> tuple[str, ...]:
    """Return the columns some run has a value for: lost frames, latency max, dropped, rates...

    WHY: the README promises latency p50/p95/max, input and output rates and GPU use;
    max, the input rate and GPU were in the CSV or JSON only (a review). A column no
    run fills is left out, so a report without GPUs stays as narrow as before. Dropped
    frames show where a run dropped any: the example runs' ``vio_ekf`` drops frames
    while busy, which no table said (its rate alone, the frames it processed, hid it).
    Threads: the guide's resources are "CPU/GPU, threads, memory", and the peak threads
    the example runs log were in the CSV and JSON alone (a hunt). Lost frames: a run
    stamped by frame index (KITTI without times) loses frames, not seconds.
    """
    runs = report.runs
    extra = []
    if any(r.stamps_are_frames for r in runs):  # KITTI without times: 200 frames were '200.0 s'
        extra.append("frames")
    if any(r.latency is not None for r in runs):
        extra.append("latency")
    if any(r.latency is not None and r.latency.n_dropped > 0 for r in runs):
        extra.append("dropped")
    if any(math.isfinite(r.input_rate_hz) for r in runs):
        extra.append("input")
    if any(
        r.resources is not None
        and (
            math.isfinite(r.resources.peak_gpu_mem_bytes)
            or math.isfinite(r.resources.mean_gpu_percent)
        )
        for r in runs
    ):
        extra.append("gpu")
    if any(r.resources is not None and r.resources.peak_threads >= 0 for r in runs):
        extra.append("threads")
    return tuple(extra)


def runs_table(report: Report) -> ReportTable:
    """One row per run: success apart from accuracy, then timing and resources.

    Every translation RPE the settings asked for is a column (``RPE 0.5 s RMSE [m]``...;
    :func:`rpe_metrics`).
    """
    rpe = rpe_metrics(report)
    labels = [
        f"RPE {delta:g} {unit} RMSE [m]" if delta is not None else f"{name} RMSE [m]"
        for name, (delta, unit) in rpe.items()
    ]
    rpe_names: list[str] = list(rpe)
    if not rpe_names:
        labels, rpe_names = ["RPE RMSE [m]"], [""]
    extra = _extra_columns(report)
    headers = (
        "run", "success", "failure", "losses", "lost [s]",
        *(("lost [frames]",) if "frames" in extra else ()),
        "coverage", "APE RMSE [m]", *labels,
        "latency p50 [ms]", "latency p95 [ms]",
        *(("latency max [ms]",) if "latency" in extra else ()),
        "processing p50 [ms]",
        *(("dropped",) if "dropped" in extra else ()),
        *(("processed [Hz]",) if "input" in extra else ()),
        "output [Hz]", "peak RSS [MB]", "CPU mean [%]",
        *(("peak threads",) if "threads" in extra else ()),
        *(("peak GPU mem [MB]", "GPU mean [%]") if "gpu" in extra else ()),
    )  # fmt: skip
    numeric = (False, False, False, *([True] * (len(headers) - 3)))
    # The coverage beside its judgment: never rounded across the bound it is judged by.
    given = report.settings.get("min_coverage")
    bound = float(given) if isinstance(given, (int, float)) else None
    rows = tuple(_run_row(r, rpe_names, extra, bound) for r in report.runs)
    return ReportTable("Runs", headers, rows, numeric)


def _distinct(values: Iterable[str]) -> str:
    """Join the distinct ``values`` (first-seen order, empty ones as ``not stated``) by ``; ``."""
    return "; ".join(dict.fromkeys(v or NOT_STATED for v in values)) or NOT_STATED


def environment_table(report: Report) -> ReportTable:
    """One row per algorithm (its versions, its runs), its hardware and software in notes.

    The guide's report states them beside the numbers (resources: CPU/GPU, memory and
    software versions). Hardware and software are free text of any length: as notes
    they wrap to the page where a column would not; a run that states none is counted
    as ``not stated``, and so is a run without an algorithm. The last note gives this
    tool's version, the latency clocks and the percentile rule of the latencies.
    """
    by_algorithm: dict[str, list[RunReport]] = {}
    for r in report.runs:
        by_algorithm.setdefault(r.algorithm, []).append(r)
    # A run folder without meta.json (a [[runs]] `path`, a folder given alone) may name no
    # algorithm: its line read ': hardware not stated' (a review).
    rows = tuple(
        (algorithm or NOT_STATED, _distinct(r.version for r in runs), str(len(runs)))
        for algorithm, runs in by_algorithm.items()
    )
    notes = tuple(
        f"{algorithm or f'algorithm {NOT_STATED}'}: "
        f"hardware {_distinct(r.hardware for r in runs)}; software "
        + _distinct(", ".join(f"{k} {v}" for k, v in r.software.items()) for r in runs)
        + "."
        for algorithm, runs in by_algorithm.items()
    )
    clocks = _distinct(r.latency.clock for r in report.runs if r.latency)
    # The rule too: with few frames it changes p95 (10 .. 100 ms: 95.5 ms here, 100 ms by
    # nearest rank), and the report gave none (a hunt).
    rule = f"; latency p50/p95: {PERCENTILE_RULE}" if any(r.latency for r in report.runs) else ""
    tool = f"robot_msgs {report.tool_version or NOT_STATED}; latency clocks: {clocks}{rule}."
    headers = ("algorithm", "version", "runs")
    return ReportTable("Environment", headers, rows, (False, False, True), (*notes, tool))


def runs_csv(report: Report) -> str:
    """One CSV row per run with raw SI numbers (NaN as an empty cell).

    Columns: identity and success, losses, coverage, APE statistics, the RPE RMSE of
    every translation RPE asked for (``rpe_rmse_m@0.5s``...; by its metric's name when
    two share a delta; ``rpe_rmse_m`` without one: :func:`rpe_metrics`), latency, rates,
    resources (GPU utilisation too, as the runs table shows it), version, parameters,
    hardware and software versions (``{package: version}`` as one JSON text), alignment.
    """
    from robot_msgs.compare.run_report import (  # noqa: PLC0415 - the CSV's alone
        parameters_text,
        versions_text,
    )

    rpe = rpe_metrics(report)
    rpe_names = list(rpe) or [""]
    rpe_columns = [
        f"rpe_rmse_m@{delta:g}{unit}" if delta is not None else f"rpe_rmse_m@{name}"
        for name, (delta, unit) in rpe.items()
    ] or ["rpe_rmse_m"]
    header = [
        "run", "algorithm", "sequence", "trial", "success", "failure", "n_losses", "lost_s",
        "lost_frames", "coverage", "ape_rmse_m", "ape_mean_m", "ape_median_m", "ape_max_m",
        "ape_matched",
        *rpe_columns, "path_smoothness", "latency_p50_s", "latency_p95_s", "latency_max_s",
        "processing_p50_s",
        "processing_p95_s", "dropped_frames", "input_rate_hz", "nominal_input_rate_hz",
        "output_rate_hz",
        "peak_rss_bytes", "mean_cpu_percent", "peak_cpu_percent", "peak_threads",
        "peak_gpu_mem_bytes", "mean_gpu_percent", "peak_gpu_percent", "version",
        "parameters", "hardware", "software", "alignment",
    ]  # fmt: skip
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    nan = math.nan
    for r in report.runs:
        ape = r.ape.stats.get("translation") if r.ape else None
        lat, res = r.latency, r.resources
        values: list[object] = [
            r.name, r.algorithm, r.sequence, r.trial, r.success, r.failure, r.n_losses, r.lost_s,
            r.lost_frames, r.coverage,
            ape.rms if ape else nan, ape.mean if ape else nan, ape.median if ape else nan,
            ape.max if ape else nan, ape.n if ape else "",
            *(_rpe_rms(r, name) for name in rpe_names), r.path_smoothness,
            lat.latency_p50_s if lat else nan, lat.latency_p95_s if lat else nan,
            lat.latency_max_s if lat else nan, lat.processing_p50_s if lat else nan,
            lat.processing_p95_s if lat else nan,
            lat.n_dropped if lat and lat.n_dropped >= 0 else "",
            r.input_rate_hz, r.nominal_input_rate_hz, r.output_rate_hz,
            res.peak_rss_bytes if res else nan, res.mean_cpu_percent if res else nan,
            res.peak_cpu_percent if res else nan,
            res.peak_threads if res and res.peak_threads >= 0 else "",  # -1: not logged
            res.peak_gpu_mem_bytes if res else nan, res.mean_gpu_percent if res else nan,
            res.peak_gpu_percent if res else nan,
            r.version, parameters_text(r.parameters), r.hardware, versions_text(r.software),
            r.accuracy.settings.align if r.accuracy and r.accuracy.settings else "",
        ]  # fmt: skip
        writer.writerow(
            ["" if isinstance(v, float) and math.isnan(v) else csv_cell(v) for v in values]
        )
    return buffer.getvalue()
