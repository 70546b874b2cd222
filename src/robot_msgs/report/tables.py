"""Report tables, and their text, Markdown, LaTeX and CSV forms.

Each table is built once from a :class:`~robot_msgs.compare.Report` and rendered by any
of the writers, so the terminal, the paper and the HTML page show the same numbers.
Missing values print as ``-``; units are in the headers (SI, or ms and MB where the
header says so).
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from robot_msgs.compare.configuration import configuration_labels
from robot_msgs.report.text import WIDTH, controls_escaped, display_width, ljust, rjust, wrap

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from robot_msgs.compare.ranking import Ranking
    from robot_msgs.compare.report import Report
    from robot_msgs.compare.run_report import Latency, Repeatability, RunReport
    from robot_msgs.msg import Value
    from robot_msgs.runs.run_settings import MetricSpec

__all__ = [
    "ReportTable",
    "csv_cell",
    "groups_table",
    "markdown_text",
    "metric_title",
    "ranking_table",
    "render_latex",
    "render_markdown",
    "render_text",
    "repeatability_table",
    "repeatability_table_of",
    "report_tables",
    "rpe_metrics",
    "runs_csv",
    "runs_table",
    "settings_text",
]

MISSING = "-"
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_MARKDOWN_SPECIAL = re.compile(r"[\\`*<>|~&$]|\](?=[(\[])")
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True, slots=True)
class ReportTable:
    """A titled table of already formatted cells; ``numeric[i]`` right-aligns column i."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]
    notes: tuple[str, ...] = ()


def _num(value: float, digits: int = 3, scale: float = 1.0) -> str:
    """``value * scale`` with ``digits`` decimals, or ``-`` when NaN."""
    return MISSING if not math.isfinite(value) else f"{value * scale:.{digits}f}"


def _pct(value: float) -> str:
    """Return a share in whole percent; one decimal where rounding would say all or none.

    A coverage of 0.9975 printed "100%", hiding the shortfall (a review).

    Examples
    --------
    >>> [_pct(v) for v in (0.5, 0.9975, 1.0, 0.002, 0.0)]
    ['50%', '99.8%', '100%', '0.2%', '0%']
    """
    if not math.isfinite(value):
        return MISSING
    shown = f"{100 * value:.0f}"
    if (shown == "100" and value < 1.0) or (shown == "0" and value > 0.0):
        shown = f"{100 * value:.1f}"
    return f"{shown}%"


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


def _rpe_rms(r: RunReport, name: str) -> float:
    c = r.comparisons.get(name)
    return c.stats["translation"].rms if c is not None and "translation" in c.stats else math.nan


def _run_row(r: RunReport, rpe_names: Sequence[str], extra: Sequence[str]) -> tuple[str, ...]:
    ape = r.ape.stats["translation"].rms if r.ape and "translation" in r.ape.stats else math.nan
    lat = r.latency
    res = r.resources
    return (
        r.name,
        "yes" if r.success else "NO",
        r.failure or MISSING,
        str(r.n_losses),
        _num(r.lost_s, 1),
        _pct(r.coverage),
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


def _extra_columns(report: Report) -> tuple[str, ...]:
    """Return the columns some run has a value for: latency max, dropped frames, rates, GPU.

    WHY: the README promises latency p50/p95/max, input and output rates and GPU use;
    max, the input rate and GPU were in the CSV or JSON only (a review). A column no
    run fills is left out, so a report without GPUs stays as narrow as before. Dropped
    frames show where a run dropped any: the example runs' ``vio_ekf`` drops frames
    while busy, which no table said (its rate alone, the frames it processed, hid it).
    """
    runs = report.runs
    extra = []
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
        "run", "success", "failure", "losses", "lost [s]", "coverage", "APE RMSE [m]", *labels,
        "latency p50 [ms]", "latency p95 [ms]",
        *(("latency max [ms]",) if "latency" in extra else ()),
        "processing p50 [ms]",
        *(("dropped",) if "dropped" in extra else ()),
        *(("processed [Hz]",) if "input" in extra else ()),
        "output [Hz]", "peak RSS [MB]", "CPU mean [%]",
        *(("peak GPU mem [MB]", "GPU mean [%]") if "gpu" in extra else ()),
    )  # fmt: skip
    numeric = (False, False, False, *([True] * (len(headers) - 3)))
    rows = tuple(_run_row(r, rpe_names, extra) for r in report.runs)
    return ReportTable("Runs", headers, rows, numeric)


def _group_names(report: Report) -> list[str]:
    """Name each group's configuration as the ranking does (``orb``; ``orb 2.0`` among several)."""
    labels = configuration_labels(g.configuration for g in report.groups)
    return [labels[g.configuration] for g in report.groups]


def groups_table(report: Report) -> ReportTable:
    """One row per (configuration, sequence): success rate and failure reasons beside accuracy."""
    rows = []
    for g, name in zip(report.groups, _group_names(report), strict=True):
        ape = g.accuracy.stats.get("translation") if g.accuracy else None
        failures = "; ".join(f"{k} x{v}" for k, v in g.failures.items()) or MISSING
        cover = g.signal("coverage")
        lat = g.signal("latency_p95_s")
        rows.append(
            (
                name,
                g.sequence,
                str(g.n_runs),
                _pct(g.success_rate),
                failures,
                _num(ape.median, 4) if ape else MISSING,
                f"{_num(ape.min, 4)}..{_num(ape.max, 4)}" if ape and ape.n else MISSING,
                _pct(cover.stats.mean) if cover else MISSING,
                _num(lat.stats.median, 0, 1e3) if lat else MISSING,
            )
        )
    headers = (
        "algorithm", "sequence", "runs", "success", "failures", "APE RMSE median [m]",
        "APE RMSE range [m]", "coverage mean", "latency p95 median [ms]",
    )  # fmt: skip
    notes = ("APE over successful runs only; failed runs count in success and failures.",)
    numeric = (False, False, True, True, False, True, True, True, True)
    return ReportTable("Per algorithm and sequence", headers, tuple(rows), numeric, notes)


def settings_text(settings: Mapping[str, Value]) -> str:
    """Spell a report's settings as the flags that set them, only where not the defaults.

    The defaults are ``robot-msgs report``'s and ``bench``'s (:class:`RunSettings`, and
    its RPE over all pairs 1 s apart), which are not ``ape``'s: with none changed, they
    are named (``--align se3``) rather than called "the defaults". One vocabulary in
    every output: report's and bench's own flags (``--rpe-delta``, ``--rpe-unit``), the
    flag's spelling of a value (``--sync one-to-one``), never a field name or a Python
    ``None``.

    Examples
    --------
    >>> settings_text({"align": "se3", "sync": "one_to_one", "n_align": None, "delta": 1.0})
    '--sync one-to-one'
    >>> settings_text({"align": "sim3", "confidence": 0.95, "delta_unit": "m"})
    '--align sim3 --rpe-unit m'
    >>> settings_text({"align": "se3", "delta": 1.0, "delta_unit": "s", "all_pairs": True})
    "report's defaults: --align se3, RPE over all pairs 1 s apart"
    >>> settings_text({"align": "se3", "relation": "translation"})
    "report's defaults: --align se3"
    """
    from robot_msgs.cli._flag_text import changed_from, flags_text  # noqa: PLC0415
    from robot_msgs.evaluation.settings import Ape  # noqa: PLC0415
    from robot_msgs.runs.run_settings import DEFAULT_METRICS, RunSettings  # noqa: PLC0415

    run = RunSettings().record()
    pairs = next(m.pairs for m in DEFAULT_METRICS if m.pairs is not None)
    defaults = {**Ape().record(), **pairs.record(), **run}
    own = {"delta": "--rpe-delta", "delta_unit": "--rpe-unit"}  # report's flags, not rpe's
    changed = changed_from(settings, defaults)
    words = [flags_text({k: v for k, v in changed.items() if k not in own}, defaults=defaults)]
    words += [
        f"{flag} {flags_text({k: changed[k]}, bare=True)}"
        for k, flag in own.items()
        if k in changed
    ]
    text = " ".join(w for w in words if w != "the defaults")
    if text:
        return text
    text = f"report's defaults: --align {run['align']}"
    if "delta" in settings:  # an RPE's settings
        text += f", RPE over all pairs {pairs.delta:g} {pairs.delta_unit} apart"
    return text


def metric_title(metric: MetricSpec) -> str:
    """Name a metric of a sweep in words; a name the manifest gave it (``name =``) as given.

    Its default name is a key (``rpe:angle_deg:10f:all``), not words for a heading.

    Examples
    --------
    >>> from robot_msgs.evaluation import PairSettings
    >>> from robot_msgs.runs.run_settings import MetricSpec
    >>> metric_title(MetricSpec.build("ape"))
    'APE translation error'
    >>> pairs = PairSettings(delta=10, delta_unit="f", all_pairs=True)
    >>> metric_title(MetricSpec.build("rpe", relation="angle_deg", pairs=pairs))
    'RPE rotation error over 10 frames, all pairs'
    >>> metric_title(MetricSpec.build("ape", name="ATE"))
    'ATE'
    """
    from robot_msgs.report.figures import signal_words  # noqa: PLC0415 - NumPy
    from robot_msgs.runs.run_settings import MetricSpec  # noqa: PLC0415

    pairs = metric.pairs
    if metric.name != MetricSpec.build(metric.metric, relation=metric.relation, pairs=pairs).name:
        return metric.name
    if pairs is None:
        return f"{metric.metric.upper()} {signal_words(metric.relation)}"
    words = signal_words(metric.relation, delta=pairs.delta, delta_unit=pairs.delta_unit)
    return f"{metric.metric.upper()} {words}" + (", all pairs" if pairs.all_pairs else "")


def ranking_table(ranking: Ranking, judged: Mapping[str, Value] | None = None) -> ReportTable:
    """Tabulate the ranking: position, algorithm, mean rank, success, score (rank) per sequence."""
    headers = (
        "#", "algorithm", "mean rank", "success", "coverage",
        *(f"{s} [{ranking.unit}]" if ranking.unit else s for s in ranking.sequences),  # NEES: none
    )  # fmt: skip
    rows = []
    for row in ranking.rows:
        cells = [
            f"{_num(row.scores[s], 4)} ({row.ranks[s]:g})" if s in row.ranks else MISSING
            for s in ranking.sequences
        ]
        rows.append(
            (
                str(row.position),
                row.name,
                f"{row.mean_rank:.2f}",
                f"{row.n_succeeded}/{row.n_runs}",
                _pct(row.mean_coverage),
                *cells,
            )
        )
    # How success was judged (coverage, end tolerance) decides the success column and
    # the ranking, and the reading rules chosen move the numbers: the report's run
    # settings join the ranked metric's.
    judges = (
        "min_coverage", "end_tolerance_s", "coverage_gap_s", "kitti_rotations", "repeated_stamps",
    )  # fmt: skip
    extra = {k: v for k, v in (judged or {}).items() if k in judges}
    settings = settings_text({**ranking.settings, **extra})
    # A signed error's median is ranked by its magnitude (rank_value): said, with the sign
    # the scores no longer have.
    figure = f"|{ranking.statistic}|" if ranking.magnitude else ranking.statistic
    signed = (
        f"; the errors are signed: each run's {ranking.statistic} is ranked by its "
        "magnitude, closest to zero best"
        if ranking.magnitude
        else ""
    )
    if ranking.target:  # a NEES: rank_target says why
        figure = f"|{ranking.statistic} - {ranking.target:g}|"
        signed = (
            f"; a consistent estimate's mean NEES is its {ranking.target:g} degrees of "
            "freedom: each run's is ranked by its distance from them, closest best"
        )
    notes = [
        (
            f"Ranked by the median over successful runs of {ranking.metric} {ranking.signal} "
            f"{figure}, per sequence (rank in brackets; - = not run there; - (k) "
            f"= run there, none succeeded: ranked last){signed}."
        ),
        f"Settings: {settings}.",
        *ranking.notes,  # a tie among them, said where the ranking is made
    ]
    if ranking.left_out:
        reasons = ", ".join(f"{why} {n}" for why, n in ranking.left_out.items())
        notes.append(
            f"Lacks {ranking.n_left_out} runs that failed to evaluate or were not evaluated "
            f"({reasons}): they count for no algorithm."
        )
    title = "Ranking (FORCED: settings mixed)" if ranking.forced else "Ranking"
    return ReportTable(
        title,
        headers,
        tuple(rows),
        (True, False, True, True, True, *([True] * len(ranking.sequences))),
        tuple(notes),
    )


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
                sequence,
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


def _distinct(values: Iterable[str]) -> str:
    """Join the distinct ``values`` (first-seen order, empty ones as ``not stated``) by ``; ``."""
    return "; ".join(dict.fromkeys(v or "not stated" for v in values)) or "not stated"


def environment_table(report: Report) -> ReportTable:
    """One row per algorithm (its versions, its runs), its hardware and software in notes.

    The guide's report states them beside the numbers (resources: CPU/GPU, memory and
    software versions). Hardware and software are free text of any length: as notes
    they wrap to the page where a column would not; a run that states none is counted
    as ``not stated``. The last note gives this tool's version and the latency clocks.
    """
    by_algorithm: dict[str, list[RunReport]] = {}
    for r in report.runs:
        by_algorithm.setdefault(r.algorithm, []).append(r)
    rows = tuple(
        (algorithm, _distinct(r.version for r in runs), str(len(runs)))
        for algorithm, runs in by_algorithm.items()
    )
    notes = tuple(
        f"{algorithm}: hardware {_distinct(r.hardware for r in runs)}; software "
        + _distinct(", ".join(f"{k} {v}" for k, v in r.software.items()) for r in runs)
        + "."
        for algorithm, runs in by_algorithm.items()
    )
    clocks = _distinct(r.latency.clock for r in report.runs if r.latency)
    tool = f"robot_msgs {report.tool_version or 'not stated'}; latency clocks: {clocks}."
    headers = ("algorithm", "version", "runs")
    return ReportTable("Environment", headers, rows, (False, False, True), (*notes, tool))


def report_tables(report: Report, *, environment: bool = True) -> list[ReportTable]:
    """Every table of a report, in reading order: ranking, groups, repeatability, runs.

    Then, with ``environment``, the versions and hardware (:func:`environment_table`).
    """
    tables = []
    if report.ranking is not None:
        tables.append(ranking_table(report.ranking, report.settings))
    tables.append(groups_table(report))
    repeat = repeatability_table(report)
    if repeat is not None:
        tables.append(repeat)
    tables.append(runs_table(report))
    if environment:
        tables.append(environment_table(report))
    return tables


# --------------------------------------------------------------------------- renderers


def _column_blocks(widths: Sequence[int], keys: int, width: int) -> list[list[int]]:
    """Split column indices into blocks no wider than ``width``, each repeating the keys.

    ``keys`` leading columns name a row and start every block; the other columns fill
    as few blocks as fit, shared out evenly (4 + 3 rather than 6 + 1), at least one per
    block (a single column wider than ``width`` stays whole). One block when the whole
    table fits.

    Examples
    --------
    >>> _column_blocks([6, 4, 9, 9, 9], keys=2, width=40)
    [[0, 1, 2, 3], [0, 1, 4]]
    >>> _column_blocks([6, 4, 9, 9, 9, 9, 9], keys=2, width=50)
    [[0, 1, 2, 3, 4], [0, 1, 5, 6]]
    >>> _column_blocks([6, 4, 9], keys=2, width=40)
    [[0, 1, 2]]
    """
    base = sum(widths[:keys]) + 2 * max(keys - 1, 0)

    def fill(most: int) -> list[list[int]]:
        blocks: list[list[int]] = []
        block, used = list(range(keys)), base
        for i in range(keys, len(widths)):
            extra = widths[i] + (2 if block else 0)
            if len(block) > keys and (used + extra > width or len(block) - keys >= most):
                blocks.append(block)
                block, used = list(range(keys)), base
                extra = widths[i] + (2 if block else 0)
            block.append(i)
            used += extra
        return [*blocks, block]

    rest = len(widths) - keys
    greedy = fill(rest)
    even = fill(-(-rest // len(greedy)))
    return even if len(even) == len(greedy) else greedy


def _transposed(table: ReportTable, width: int) -> list[str]:
    r"""Render rows named by long texts (paths): numbered columns, or one record a row.

    The names are listed once as ``#1``, ``#2``, ...; the table then has a line per
    column and a column per row, so values of different rows stand side by side. When
    that is wider than ``width`` too, each row is printed as a record, one ``header
    value`` line a column, as ``psql`` does; a header wider than half the width stands on
    its own line, its value on the next, in the values' column.

    Examples
    --------
    >>> t = ReportTable("", ("file", "rms"), (("a/long/path.json", "0.5"), ("b.zip", "1")),
    ...                 (False, True))
    >>> print("\n".join(_transposed(t, 20)))
    #1  a/long/path.json
    #2  b.zip
    <BLANKLINE>
          #1  #2
    rms  0.5   1
    >>> print("\n".join(_transposed(t, 11)))
    file  a/long/path.json
    rms   0.5
    <BLANKLINE>
    file  b.zip
    rms   1
    >>> t = ReportTable("", ("file", "a/long/sequence [m]"), (("b.zip", "1"),), (False, True))
    >>> print("\n".join(_transposed(t, 20)))
    file  b.zip
    a/long/sequence [m]
          1
    """
    labels = [f"#{n}" for n in range(1, len(table.rows) + 1)]
    heads = table.headers[1:]
    lead = max(display_width(h) for h in heads) if heads else 0
    columns = [
        max(len(label), *(display_width(c) for c in row[1:]))
        for label, row in zip(labels, table.rows, strict=True)
    ]
    if heads and lead + sum(w + 2 for w in columns) <= width:
        out = [f"{label}  {row[0]}".rstrip() for label, row in zip(labels, table.rows, strict=True)]
        numbered = (label.rjust(w) for label, w in zip(labels, columns, strict=True))
        out += ["", "  ".join([" " * lead, *numbered])]
        for i, head in enumerate(heads, start=1):
            align = rjust if table.numeric[i] else ljust
            cells = (align(row[i], w) for row, w in zip(table.rows, columns, strict=True))
            out.append("  ".join([ljust(head, lead), *cells]).rstrip())
        return out
    # A header wider than half the width (a sequence named by a long path, in a ranking's
    # column head) padded every line of every record to its width: the values all started
    # past the width (a review). It stands on its own line, its value below in the column.
    name = max((w for h in table.headers if (w := display_width(h)) <= width // 2), default=0)
    out = []
    for n, row in enumerate(table.rows):
        out += [""] if n else []
        for h, c in zip(table.headers, row, strict=True):
            if display_width(h) > name:
                out += [h, *([f"{' ' * name}  {c}".rstrip()] if c.strip() else [])]
            else:
                out.append(f"{ljust(h, name)}  {c}".rstrip())
    return out


def _key_columns(table: ReportTable, widths: Sequence[int], width: int) -> int | None:
    """Count the leading columns that name a row, repeated in every folded block.

    A rank or index first (a number before a text: ``#``, ``algorithm``) counts with its
    name. Then text columns are added until they tell the rows apart (``estimate``,
    ``signal`` when one file has several signals), and more while they fit, and a
    ``unit`` column right after them however wide they are: every block of numbers says
    its unit. None when the columns that tell the rows apart are wider than half
    ``width``: the table is then better transposed (:func:`_transposed`) than folded.

    Examples
    --------
    >>> t = ReportTable("", ("#", "name", "a", "b"), (("1", "x", "1", "2"),),
    ...                 (True, False, True, True))
    >>> _key_columns(t, [1, 4, 1, 1], 80)
    2
    >>> t = ReportTable("", ("file", "signal", "rms"), (("f", "@1", "1"), ("f", "@10", "2")),
    ...                 (False, False, True))
    >>> _key_columns(t, [30, 6, 3], 80), _key_columns(t, [30, 6, 3], 60)
    (2, None)
    >>> t = ReportTable("", ("result", "unit", "rms"), (("r", "m", "1"),), (False, False, True))
    >>> _key_columns(t, [38, 4, 3], 80)
    2
    """
    n = len(widths)
    if n < 2:
        return 0

    def span(k: int) -> int:
        return sum(widths[:k]) + 2 * (k - 1)

    keys = _naming_columns(table)
    if span(keys) > width // 2:
        return None
    while keys < n - 1 and not table.numeric[keys] and span(keys + 1) <= width // 2:
        keys += 1
    if keys < n - 1 and table.headers[keys] == "unit":  # no number without its unit
        keys += 1
    return keys


def _naming_columns(table: ReportTable) -> int:
    """Count the leading columns that tell the rows apart (a rank counts with its name).

    Examples
    --------
    >>> t = ReportTable("", ("#", "name", "a", "b"), (("1", "x", "1", "2"),),
    ...                 (True, False, True, True))
    >>> _naming_columns(t)
    2
    """
    n = len(table.headers)
    keys = 2 if table.numeric[0] and not table.numeric[1] and n > 2 else 1
    while (
        keys < n - 1
        and not table.numeric[keys]
        and len({row[:keys] for row in table.rows}) < len(table.rows)
    ):
        keys += 1
    return keys


def _widths(table: ReportTable) -> list[int]:
    """Each column's width in terminal columns: its header's or its widest cell's."""
    return [
        max(display_width(h), *(display_width(r[i]) for r in table.rows))
        if table.rows
        else display_width(h)
        for i, h in enumerate(table.headers)
    ]


def render_text(table: ReportTable, width: int = WIDTH) -> str:
    """Render a plain-text table for the terminal, columns padded, numbers right-aligned.

    Widths are terminal columns (:func:`~robot_msgs.report.text.display_width`: a CJK
    character takes two, a combining mark none), so columns of such names stay aligned.
    A table wider than ``width`` columns is folded, as pandas prints wide frames: the
    leading columns that name a row (:func:`_key_columns`) start each block, and the
    other columns follow in blocks that fit, separated by a blank line. When the columns
    that tell the rows apart are wider than half the width (a long path), the first
    column's names are listed once as ``#1``, ``#2``, ... and the table is transposed to
    a line a column, or, wider still, each row is printed as a record
    (:func:`_transposed`), however few its numbers: every block names its rows. Every
    digit is kept.

    Examples
    --------
    >>> table = ReportTable("T", ("name", "x"), (("a", "1.5"), ("bb", "10.25")), (False, True))
    >>> print(render_text(table))
    T
    name      x
    ----  -----
    a       1.5
    bb    10.25
    >>> row = ("translation", "0.0134701", "0.0347595")
    >>> wide = ReportTable("W", ("signal", "rms", "max"), (row,), (False, True, True))
    >>> print(render_text(wide, width=24))
    W
    signal             rms
    -----------  ---------
    translation  0.0134701
    <BLANKLINE>
    signal             max
    -----------  ---------
    translation  0.0347595
    >>> long = ReportTable("L", ("estimate", "n", "rms", "max"), (("a/long/path/to/an/estimate.tum",
    ...                    "785", "0.0134701", "0.0347595"),), (False, True, True, True))
    >>> print(render_text(long, width=40))
    L
    #1  a/long/path/to/an/estimate.tum
    <BLANKLINE>
                #1
    n          785
    rms  0.0134701
    max  0.0347595
    """
    table = ReportTable(  # names from files are shown as written, never act on a terminal
        controls_escaped(table.title),
        tuple(controls_escaped(h) for h in table.headers),
        tuple(tuple(controls_escaped(c) for c in row) for row in table.rows),
        table.numeric,
        tuple(controls_escaped(n) for n in table.notes),
    )
    widths = _widths(table)
    keys = _key_columns(table, widths, width)
    out = [table.title]
    wide = sum(widths) + 2 * (len(widths) - 1) > width
    if wide and table.rows and keys is None:
        # Rows named by wide texts: transposed or records, unless folding under the
        # naming columns takes fewer lines (`res` of two KITTI drift results, 18 signals
        # each, named by result, unit and signal: 482 lines of records; a review).
        shown = _transposed(table, width)
        naming = _naming_columns(table)
        naming += naming < len(widths) - 1 and table.headers[naming] == "unit"
        fits = sum(widths[:naming]) + 2 * naming + max(widths[naming:], default=0) <= width
        folded = _folded(table, widths, naming, width) if fits else shown
        out += folded if len(folded) < len(shown) else shown
    else:
        out += _folded(table, widths, keys or 0, width)
    # Notes wrap at the width (a path longer than that stays whole on its line).
    out += [
        line
        for note in table.notes
        for line in wrap(note, width, initial_indent="  ", subsequent_indent="    ")
    ]
    return "\n".join(out)


def _folded(table: ReportTable, widths: Sequence[int], keys: int, width: int) -> list[str]:
    """Return the lines of ``table`` in blocks no wider than ``width``, each led by ``keys``."""

    def line(cells: Sequence[str], columns: Sequence[int]) -> str:
        parts = [
            rjust(cells[i], widths[i]) if table.numeric[i] else ljust(cells[i], widths[i])
            for i in columns
        ]
        return "  ".join(parts).rstrip()

    out: list[str] = []
    for n, columns in enumerate(_column_blocks(widths, keys, width)):
        out += [""] if n else []
        out.append(line(table.headers, columns))
        out.append("  ".join("-" * widths[i] for i in columns))
        out += [line(row, columns) for row in table.rows]
    return out


def markdown_text(text: str) -> str:
    r"""Return ``text`` for a Markdown table cell, shown as written: nothing in it is markup.

    Backslash-escaped: ``\ ` * < > | ~ & $`` (emphasis, code, HTML tags, autolinks,
    entities, table cells, strikethrough, GitHub's maths), ``]`` where a link or image
    would follow (``](`` and ``][``: ``[m]`` stays as written) and ``_`` where it could
    start or end emphasis (``fr1_xyz`` keeps its underscore plain, as GitHub reads it).
    Line ends and other control characters become spaces: a cell is one line.

    Examples
    --------
    >>> print(markdown_text("**bold** <script>x</script> [a](b) [m] fr1_xyz _it_ a|b"))
    \*\*bold\*\* \<script\>x\</script\> [a\](b) [m] fr1_xyz \_it\_ a\|b
    """
    plain = _CONTROLS.sub(" ", text)
    plain = _MARKDOWN_SPECIAL.sub(lambda m: "\\" + m.group(), plain)
    return _EDGE_UNDERSCORE.sub(r"\\_", plain)


def csv_cell(value: object) -> object:
    """Return ``value`` for a CSV cell that a spreadsheet will not run as a formula.

    A text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
    prefixed with ``'`` (OWASP's advice for CSV injection), unless it is a number
    (``-1.5`` stays a number). Numbers and other values pass unchanged.

    Examples
    --------
    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-1.5"), csv_cell("@SUM(A1)"), csv_cell(-2.0)
    ("'=HYPERLINK(1)", '-1.5', "'@SUM(A1)", -2.0)
    """
    if not isinstance(value, str) or not value.startswith(_FORMULA_STARTS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


def render_markdown(tables: Sequence[ReportTable]) -> str:
    """GitHub-flavoured Markdown: a heading, a pipe table and its notes per table.

    Examples
    --------
    >>> print(render_markdown([ReportTable("T", ("a", "b"), (("x", "1"),), (False, True))]))
    ### T
    <BLANKLINE>
    | a | b |
    |:--|--:|
    | x | 1 |
    <BLANKLINE>
    """
    parts = []
    for t in tables:
        rule = "|" + "|".join("--:" if num else ":--" for num in t.numeric) + "|"
        lines = [
            f"### {t.title}",
            "",
            "| " + " | ".join(markdown_text(h) for h in t.headers) + " |",
            rule,
        ]
        lines += ["| " + " | ".join(markdown_text(c) for c in row) + " |" for row in t.rows]
        lines += [""] + [f"*{markdown_text(n)}*" for n in t.notes] + ([""] if t.notes else [])
        parts.append("\n".join(lines))
    return "\n".join(parts)


_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # After a line break ``\\`` a ``[`` opens its optional length: a cell or a stacked
    # header line starting with one ("[m]") was an error, and pdflatex looped on it.
    "[": "{[}",
    "]": "{]}",
    # And a ``*`` there made it ``\\*`` (no page break): the star was dropped unseen.
    "*": "{*}",
}


#: Characters of cells (and two between columns) a LaTeX table is folded at, headers
#: stacked. Measured with pdflatex on the shipped example report in a one-column
#: ``article`` (345 pt of text): unfolded, 4 of its 5 tables ran past the page, the runs
#: table by 765 pt; folded at 68, 2 of 11 by 3-4 pt (at 72: 3 of 10 by up to 11 pt).
LATEX_WIDTH = 68


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters.

    Examples
    --------
    >>> latex_escape("APE_rms 50% & more")
    'APE\\_rms 50\\% \\& more'

    ``--`` and ``---`` are ligatures (en and em dash) in LaTeX's text fonts: a flag such
    as ``--align`` is kept as two hyphens by an empty group between them.

    >>> latex_escape("--align se3")
    '-{}-align se3'
    """
    escaped = "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)
    return escaped.replace("--", "-{}-").replace("--", "-{}-") if "--" in escaped else escaped


def _header_lines(header: str, cells: int) -> list[str]:
    """Break a header into lines as wide as its column's cells (at least 8), at spaces.

    Examples
    --------
    >>> _header_lines("pairwise APE RMSE median [m]", 6)
    ['pairwise', 'APE RMSE', 'median', '[m]']
    >>> _header_lines("run", 24)
    ['run']
    """
    return wrap(header, max(cells, 8)) or [header]


def _latex_header(lines: Sequence[str], *, numeric: bool) -> str:
    r"""Write a header cell: one line as it is, several stacked (``\shortstack``, core LaTeX)."""
    if len(lines) == 1:
        return latex_escape(lines[0])
    stacked = r" \\ ".join(latex_escape(line) for line in lines)
    return f"\\shortstack[{'r' if numeric else 'l'}]{{{stacked}}}"


def render_latex(tables: Sequence[ReportTable], width: int = LATEX_WIDTH) -> str:
    r"""LaTeX ``table`` environments with ``booktabs`` rules, notes as a footnote-size paragraph.

    Needs ``\usepackage{booktabs}`` in the preamble. A header wider than its column's
    cells is stacked on lines as wide as them (``\shortstack``); a table still wider
    than ``width`` characters (:data:`LATEX_WIDTH`) is folded as :func:`render_text`
    folds it, into tables captioned ``(1 of k)`` that each repeat the columns naming a
    row.

    Examples
    --------
    >>> print(render_latex([ReportTable("T_1", ("a", "b"), (("x", "1"),), (False, True))]))
    % robot-msgs report; needs \usepackage{booktabs}
    \begin{table}[htbp]
      \centering
      \caption{T\_1}
      \begin{tabular}{lr}
        \toprule
        a & b \\
        \midrule
        x & 1 \\
        \bottomrule
      \end{tabular}
    \end{table}
    <BLANKLINE>
    """
    out = ["% robot-msgs report; needs \\usepackage{booktabs}"]
    for t in tables:
        cells = [
            max((display_width(r[i]) for r in t.rows), default=0) for i in range(len(t.headers))
        ]
        heads = [_header_lines(h, c) for h, c in zip(t.headers, cells, strict=True)]
        widths = [max(c, *map(display_width, h)) for c, h in zip(cells, heads, strict=True)]
        keys = _key_columns(t, widths, width)
        if keys is None:  # names wider than half the page: repeated all the same (a part
            keys = _naming_columns(t)  # without them is numbers no one can place)
        blocks = _column_blocks(widths, keys, width)
        for n, columns in enumerate(blocks, start=1):
            spec = "".join("r" if t.numeric[i] else "l" for i in columns)
            part = f" ({n} of {len(blocks)})" if len(blocks) > 1 else ""
            out += [
                r"\begin{table}[htbp]",
                r"  \centering",
                f"  \\caption{{{latex_escape(t.title)}{part}}}",
                f"  \\begin{{tabular}}{{{spec}}}",
                r"    \toprule",
                "    "
                + " & ".join(_latex_header(heads[i], numeric=t.numeric[i]) for i in columns)
                + r" \\",
                r"    \midrule",
            ]
            out += [
                "    " + " & ".join(latex_escape(row[i]) for i in columns) + r" \\"
                for row in t.rows
            ]
            out += [r"    \bottomrule", r"  \end{tabular}"]
            if t.notes and n == len(blocks):
                notes = " ".join(latex_escape(note) for note in t.notes)
                out.append("  \\par\\footnotesize " + notes)
            out += [r"\end{table}", ""]
    return "\n".join(out)


def runs_csv(report: Report) -> str:
    """One CSV row per run with raw SI numbers (NaN as an empty cell).

    Columns: identity and success, losses, coverage, APE statistics, the RPE RMSE of
    every translation RPE asked for (``rpe_rmse_m@0.5s``...; by its metric's name when
    two share a delta; ``rpe_rmse_m`` without one: :func:`rpe_metrics`), latency, rates,
    resources.
    """
    from robot_msgs.compare.run_report import parameters_text  # noqa: PLC0415 - the CSV's alone

    rpe = rpe_metrics(report)
    rpe_names = list(rpe) or [""]
    rpe_columns = [
        f"rpe_rmse_m@{delta:g}{unit}" if delta is not None else f"rpe_rmse_m@{name}"
        for name, (delta, unit) in rpe.items()
    ] or ["rpe_rmse_m"]
    header = [
        "run", "algorithm", "sequence", "trial", "success", "failure", "n_losses", "lost_s",
        "coverage", "ape_rmse_m", "ape_mean_m", "ape_median_m", "ape_max_m", "ape_matched",
        *rpe_columns, "latency_p50_s", "latency_p95_s", "latency_max_s", "processing_p50_s",
        "processing_p95_s", "dropped_frames", "input_rate_hz", "nominal_input_rate_hz",
        "output_rate_hz",
        "peak_rss_bytes", "mean_cpu_percent", "peak_cpu_percent", "peak_threads",
        "peak_gpu_mem_bytes", "version", "parameters", "alignment",
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
            r.coverage,
            ape.rms if ape else nan, ape.mean if ape else nan, ape.median if ape else nan,
            ape.max if ape else nan, ape.n if ape else "",
            *(_rpe_rms(r, name) for name in rpe_names),
            lat.latency_p50_s if lat else nan, lat.latency_p95_s if lat else nan,
            lat.latency_max_s if lat else nan, lat.processing_p50_s if lat else nan,
            lat.processing_p95_s if lat else nan,
            lat.n_dropped if lat and lat.n_dropped >= 0 else "",
            r.input_rate_hz, r.nominal_input_rate_hz, r.output_rate_hz,
            res.peak_rss_bytes if res else nan, res.mean_cpu_percent if res else nan,
            res.peak_cpu_percent if res else nan, res.peak_threads if res else "",
            res.peak_gpu_mem_bytes if res else nan,
            r.version, parameters_text(r.parameters),
            r.accuracy.settings.align if r.accuracy and r.accuracy.settings else "",
        ]  # fmt: skip
        writer.writerow(
            ["" if isinstance(v, float) and math.isnan(v) else csv_cell(v) for v in values]
        )
    return buffer.getvalue()
