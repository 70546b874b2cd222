"""One self-contained HTML page: inline CSS, figures as inline base64 PNG, no scripts.

The page fetches nothing: no stylesheet, font, script or image is referenced by URL
(``tests/report/test_html_chromium.py`` checks this in headless Chromium), so it can be
mailed, archived or opened offline and looks the same in ten years.
"""

from __future__ import annotations

import base64
import html
from typing import TYPE_CHECKING

from robot_msgs.report import plots
from robot_msgs.report.tables import ReportTable, report_tables

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.report.build import ReportResult

__all__ = ["render_html"]

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em auto;
       max-width: 1200px; color: #1b1b1b; background: #ffffff; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.4em 0 0.6em; font-size: 0.85em; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 0.25em 0.6em; }
th { background: #f4f6f8; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.fail { color: #b00020; font-weight: 600; }
p.note { font-size: 0.85em; color: #555; margin: 0.2em 0; }
div.warn, div.info { padding: 0.5em 0.8em; margin: 0.8em 0; }
div.warn { background: #fff4e5; border-left: 4px solid #ff9800; }
div.info { background: #eef6ff; border-left: 4px solid #1f77b4; }
figure { margin: 0.8em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.85em; color: #555; }
code { background: #f4f6f8; padding: 0 0.2em; }
"""


def _table_html(table: ReportTable) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
    rows = []
    for row in table.rows:
        cells = []
        for cell, numeric in zip(row, table.numeric, strict=True):
            css = "num" if numeric else ("fail" if cell == "NO" else "")
            attr = f' class="{css}"' if css else ""
            cells.append(f"<td{attr}>{html.escape(cell)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    notes = "".join(f'<p class="note">{html.escape(n)}</p>' for n in table.notes)
    return (
        f"<h3>{html.escape(table.title)}</h3>\n<table><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>\n{notes}"
    )


def _figure_html(fig: object | None, caption: str) -> str:
    if fig is None:
        return ""
    data = base64.b64encode(plots.figure_png(fig)).decode("ascii")
    alt = html.escape(caption)
    return (
        f'<figure><img alt="{alt}" src="data:image/png;base64,{data}">'
        f"<figcaption>{alt}</figcaption></figure>\n"
    )


def render_html(
    result: ReportResult,
    *,
    title: str = "robot-msgs run report",
    progress: Callable[[str], None] | None = None,
) -> str:
    """Render the whole report as one self-contained HTML document.

    Parameters
    ----------
    result : ReportResult
        From :func:`robot_msgs.report.build_report`.
    title : str
        The page title.
    progress : callable, optional
        Called with a short label before each figure is drawn.

    Raises
    ------
    MissingDependencyError
        Without matplotlib (the ``plot`` extra).
    """
    report = result.report
    say = progress or (lambda _label: None)
    n_ok = sum(r.success for r in report.runs)
    settings = ", ".join(f"{k}={v}" for k, v in report.settings.items())
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        (
            f'<p class="note">robot_msgs {html.escape(report.tool_version)}; '
            f"{len(report.runs)} runs, {n_ok} succeeded; evaluation settings: "
            f"<code>{html.escape(settings)}</code></p>"
        ),
        (
            '<div class="info">Success, tracking losses and coverage are reported apart from '
            "accuracy: APE and RPE are computed on the valid poses of each run only, and the "
            "per-group accuracy uses successful runs only, so read them together with the "
            "success rate.</div>"
        ),
    ]
    if report.notes:
        items = "".join(f"<li>{html.escape(n)}</li>" for n in report.notes)
        parts.append(f'<div class="warn"><strong>Notes</strong><ul>{items}</ul></div>')
    tables = report_tables(report)
    parts.append("<h2>Summary</h2>")
    parts += [_table_html(t) for t in tables[:-1]]
    say("comparison across sequences")
    parts.append(
        _figure_html(plots.comparison_figure(result), "Per-algorithm APE across sequences")
    )
    say("latency CDF")
    parts.append(_figure_html(plots.latency_cdf_figure(result), "Latency CDF with p50 and p95"))
    sequences = list(dict.fromkeys(r.sequence for r in report.runs))
    for sequence in sequences:
        parts.append(f"<h2>Sequence {html.escape(sequence)}</h2>")
        say(f"{sequence}: trajectories")
        parts.append(
            _figure_html(
                plots.trajectories_figure(result, sequence),
                f"{sequence}: aligned trajectories, top view, coloured by APE",
            )
        )
        say(f"{sequence}: error over time")
        parts.append(
            _figure_html(
                plots.error_over_time_figure(result, sequence),
                f"{sequence}: APE over time, tracking losses shaded",
            )
        )
        say(f"{sequence}: RPE")
        parts.append(
            _figure_html(
                plots.rpe_boxplot_figure(result, sequence),
                f"{sequence}: RPE distribution per delta",
            )
        )
        say(f"{sequence}: repeatability")
        rep_fig = plots.repeatability_figure(result, sequence)
        if rep_fig is not None:
            parts.append(
                '<div class="warn">No reference for this sequence: no accuracy is reported. '
                "The figure shows how repeated runs agree with each other, which does not "
                "establish accuracy.</div>"
            )
            parts.append(_figure_html(rep_fig, f"{sequence}: repeated runs in their start frames"))
    parts.append(_table_html(tables[-1]).replace("<h3>", "<h2>", 1).replace("</h3>", "</h2>", 1))
    run_notes = [(r.name, n) for r in report.runs for n in r.notes]
    if run_notes:
        items = "".join(
            f"<li><code>{html.escape(a)}</code>: {html.escape(b)}</li>" for a, b in run_notes
        )
        parts.append(f"<h3>Run notes</h3><ul>{items}</ul>")
    software = sorted({f"{k} {v}" for r in report.runs for k, v in r.software.items()})
    hardware = sorted({r.hardware for r in report.runs if r.hardware})
    parts.append("<h2>Environment</h2>")
    parts.append(f"<p>Hardware: {html.escape('; '.join(hardware) or 'not stated')}</p>")
    parts.append(f"<p>Software: {html.escape(', '.join(software) or 'not stated')}</p>")
    clocks = sorted({r.latency.clock for r in report.runs if r.latency and r.latency.clock})
    parts.append(f"<p>Clocks: {html.escape('; '.join(clocks) or 'not stated')}</p>")
    parts.append("</body></html>\n")
    return "\n".join(p for p in parts if p)
