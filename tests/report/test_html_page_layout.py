"""The interactive page's figures laid out in headless Chromium at the widths of screens.

Twelve algorithms of long names, two trials each: every legend shows every entry without
scrolling, and no title of a figure or panel runs into another, from a phone's 360 px to
a desktop's 1,920 px.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from tests.report.cdp import Browser, find_chromium
from tests.report.test_figure_spec import STAMPS, K, _result, _run, _trajectory

if TYPE_CHECKING:
    from collections.abc import Iterator

#: Per plot: [id, kind, its legend's scrollbar's height (0: nothing to scroll), every
#: title's box (the figure's, the panels', the axes') as [left, right, top, bottom], the
#: plot's left and right].
_LAYOUT = """Array.from(document.querySelectorAll('div.plot')).map(d => {
  const legend = d.querySelector('g.legend rect.bg'), bar = d.querySelector('rect.scrollbar');
  const all = 'g.annotation, g.g-gtitle, g[class^="g-x"][class$="title"], g[class^="g-y"][class$="title"]';
  const titles = Array.from(d.querySelectorAll(all)).map(a => {
    const r = a.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom];
  }).filter(r => r[1] > r[0]);
  const box = d.getBoundingClientRect();
  return [d.id, d.dataset.kind, bar ? +bar.getAttribute('height') : 0, titles, box.left, box.right];
})"""


def _write_page(out: Path, names: list[str]) -> Path:
    """Write the page of ``names``' two trials on one sequence to ``out``."""
    from robot_msgs.report.html_page import render_html

    reference = _trajectory(0 * K)
    timing = ([0.04, 0.01, 0.03, 0.02], [0.015, 0.02, 0.005])
    runs = [
        _run(f"{name}/s1/trial_{trial}", _trajectory(0.01 * k * K), reference, timing_s=timing)
        for k, name in enumerate(names, 1)
        for trial in (1, 2)
    ]
    out.write_text(render_html(_result(runs)), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, Path]]:
    pytest.importorskip("plotly")
    executable = find_chromium()
    if executable is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install -y chromium)")
    names = [f"orbslam3_stereo_inertial_variant_{k:02d}" for k in range(1, 13)]
    out = _write_page(tmp_path_factory.mktemp("page") / "report.html", names)
    browser = Browser(executable, tmp_path_factory.mktemp("chromium-profile"))
    try:
        browser.open_page()
        yield browser, out
    finally:
        browser.close()


@pytest.fixture(scope="module")
def three(page: tuple[Browser, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of three algorithms of short names (the example report's), two trials each."""
    return _write_page(
        tmp_path_factory.mktemp("three") / "report.html", ["kfslam", "dvo", "vio_ekf"]
    )


def _laid_out(browser: Browser, page: Path, width: int) -> list[list[Any]]:
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(page.resolve().as_uri())
    browser.drain(1.0)
    layout: list[list[Any]] = browser.evaluate(_LAYOUT)
    return layout


def test_twelve_algorithms_legends_show_every_entry_without_scrolling(
    page: tuple[Browser, Path],
) -> None:
    """The legends of twelve algorithms scrolled: the box plot's twelfth entry and the
    bars' twelfth were below the legend's fold, as were half of the 24 runs' and the
    latency CDF's 24 curves (a hunt). Each figure is as tall as its legend."""
    browser, path = page
    layout = _laid_out(browser, path, 1280)
    kinds = {kind for _, kind, *_ in layout}
    assert {"rpe_box", "comparison", "error_over_time", "latency_cdf"} <= kinds
    scrolled = [(kind, bar) for _, kind, bar, *_ in layout if bar > 0]
    assert scrolled == []


def _overlap(a: list[float], b: list[float]) -> float:
    width = min(a[1], b[1]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[2], b[2])
    return max(0.0, width) * max(0.0, height)


@pytest.mark.parametrize("width", [360, 800, 1280, 1920])
def test_no_title_runs_into_another_or_off_its_plot(page: tuple[Browser, Path], width: int) -> None:
    """Panel titles were wrapped for a page 1,200 px wide: at 800 px the trajectories'
    four panels a row ran 'orbslam3_stereo_inertial_variant_01' into their neighbours',
    and the legend below, in more rows than planned, took the rows' gaps: the second
    row's titles ran into the first's x axis titles; at 360 px the figures' titles ran
    off their right edge (a hunt). Titles are wrapped, and smaller where need be, for the
    width drawn, and the panels keep their height."""
    browser, path = page
    for plot, kind, _, titles, left, right in _laid_out(browser, path, width):
        assert titles, plot
        for k, a in enumerate(titles):
            assert a[0] >= left - 1, (kind, width, a)
            assert a[1] <= right + 1, (kind, width, a)
            for b in titles[k + 1 :]:
                assert _overlap(a, b) == 0, (kind, width, a, b)


#: Per plot: [kind, its legend's box, the boxes its legend must keep off (each panel, its
#: axes' ticks and titles), each panel's width, the figure's width] (boxes as [left,
#: right, top, bottom]).
_COVERED = """Array.from(document.querySelectorAll('div.plot')).map(d => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; };
  const legend = d.querySelector('g.legend rect.bg');
  const under = 'rect.nsewdrag, g.xaxislayer-above, g.yaxislayer-above, g[class^="g-x"][class$="title"]';
  const boxes = Array.from(d.querySelectorAll(under)).map(box).filter(r => r[1] > r[0]);
  const panels = Array.from(d.querySelectorAll('rect.nsewdrag')).map(e => box(e)[1] - box(e)[0]);
  return [d.dataset.kind, legend ? box(legend) : null, boxes, panels, box(d)[1] - box(d)[0]];
})"""


def _check_legends(layout: list[list[Any]], width: int) -> None:
    for kind, legend, boxes, panels, wide in layout:
        covered = [b for b in boxes if legend is not None and _overlap(legend, b) > 0]
        assert covered == [], (kind, width, legend)
        if len(panels) == 1:  # a legend beside it leaves it at least 40 % of the width
            assert panels[0] >= 0.4 * wide - 80, (kind, width, panels, wide)


@pytest.mark.parametrize("width", [360, 800, 1280])
@pytest.mark.parametrize("which", ["three", "twelve"])
def test_no_legend_covers_a_plot_its_ticks_or_titles(
    page: tuple[Browser, Path], three: Path, which: str, width: int
) -> None:
    """At 360 px the trajectories' legend of three algorithms (the example report's)
    covered their x axes' ticks and titles by about 50 px: placed a fifth of the
    panels' height below them, which plotly.js had not yet shrunk for the legend's
    rows; and a legend beside one panel took the width it needed, the panel squeezed
    to 64 px under the latency CDF's legend of twelve algorithms (a hunt). A legend
    below the panels stands 72 px under them; one beside a panel that would keep under
    40 % of the width goes below it."""
    browser, twelve = page
    path = three if which == "three" else twelve
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(path.resolve().as_uri())
    browser.drain(1.0)
    _check_legends(browser.evaluate(_COVERED), width)


#: Per plot: its kind, its width within its border and its drawing's.
_WIDTHS = """Array.from(document.querySelectorAll('div.plot')).map(d => [d.dataset.kind,
  d.clientWidth, d.querySelector('svg.main-svg').getBoundingClientRect().width])"""


@pytest.mark.parametrize(("first", "then"), [(1280, 360), (360, 1280)])
def test_a_page_narrowed_or_widened_draws_its_figures_to_the_new_width(
    page: tuple[Browser, Path], first: int, then: int
) -> None:
    """Drawn at 1,280 px and then narrowed to 360 px (a phone turned, a window made
    narrower), every figure stayed 1,200 px wide and the page scrolled sideways: the
    page's script set each figure's height, and plotly.js then kept its width too and
    no longer followed the window (a hunt); widened, they stayed narrow. Each follows
    the window as it comes into view, its legend placed for the new width."""
    browser, path = page
    metrics = {"width": first, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(path.resolve().as_uri())
    browser.drain(1.0)
    browser.send("Emulation.setDeviceMetricsOverride", metrics | {"width": then})
    browser.drain(1.5)
    for k in range(int(browser.evaluate("document.querySelectorAll('div.plot').length"))):
        browser.evaluate(f"document.querySelectorAll('div.plot')[{k}].scrollIntoView()")
        browser.drain(0.3)
    scroll = browser.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert scroll[0] <= scroll[1]
    drawn = browser.evaluate(_WIDTHS)
    assert [(kind, wide, svg) for kind, wide, svg in drawn if abs(svg - wide) > 1] == []
    _check_legends(browser.evaluate(_COVERED), then)


@pytest.mark.parametrize("kind", ["html", "static.html"])
def test_the_example_report_does_not_scroll_sideways_at_360_px(
    page: tuple[Browser, Path], example_outputs: dict[str, Path], kind: str
) -> None:
    """The shipped example report scrolled sideways at 360 px: its settings' metrics,
    one word of 95 characters (``metrics=ape:translation,rpe:translation:0.5s:all,...``),
    ran 300 px past the window (a hunt). Code breaks where it must."""
    browser, _ = page
    metrics = {"width": 360, "height": 900, "deviceScaleFactor": 1, "mobile": True}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(example_outputs[kind].resolve().as_uri())
    browser.drain(1.0)
    wide = browser.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide[0] <= wide[1]


def test_a_legend_below_keeps_off_turned_category_labels_at_360_px(
    page: tuple[Browser, Path], tmp_path: Path
) -> None:
    """``res --html`` of eight long-named results at 360 px: the box and violin plots'
    legend, moved below its panel, stood 72 px under it and covered the categories'
    turned labels, which reached 120 px down (a review). It stands under the labels."""
    from robot_msgs.cli import main
    from robot_msgs.io.result_files import save_result
    from robot_msgs.msg.catalog import example

    names = [f"orbslam3_stereo_inertial_variant_{k:02d}.json" for k in range(1, 9)]
    for name in names:
        save_result(tmp_path / name, example("compare/EvaluationResult"))  # type: ignore[arg-type]
    out = tmp_path / "res.html"
    assert main(["res", *(str(tmp_path / n) for n in names), "--html", str(out)]) == 0
    browser, _ = page
    metrics = {"width": 360, "height": 900, "deviceScaleFactor": 1, "mobile": True}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(out.resolve().as_uri())
    browser.drain(1.0)
    _check_legends(browser.evaluate(_COVERED), 360)
    assert _off_or_over(browser.evaluate(_OFF)) == []


#: Per plot: its kind, its box, and the boxes of its legend's names, its x axes' tick
#: labels, its y axes' titles and its panels (as [left, right, top, bottom]).
_OFF = """Array.from(document.querySelectorAll('div.plot')).map(d => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; };
  const shown = s => Array.from(d.querySelectorAll(s)).map(box).filter(r => r[1] > r[0]);
  return [d.dataset.kind, box(d), shown('g.legend text.legendtext'),
          shown('g.xaxislayer-above text'), shown('g[class^="g-y"][class$="title"]'),
          shown('rect.nsewdrag')];
})"""


def _off_or_over(layout: list[list[Any]]) -> list[tuple[str, str, list[float]]]:
    """Return each name or tick label past its figure's edge, each y title on a panel."""
    out = []
    for kind, plot, names, ticks, titles, panels in layout:
        out += [(kind, "off", r) for r in names + ticks if r[0] < plot[0] - 1 or r[1] > plot[1] + 1]
        out += [(kind, "over", t) for t in titles for p in panels if _overlap(t, p) > 0]
    return out


@pytest.mark.parametrize("width", [360, 800, 1280])
def test_no_legend_name_runs_off_its_figure_and_no_y_title_into_a_panel(
    page: tuple[Browser, Path], width: int
) -> None:
    """At 360 px the latency CDF's names of 55 characters ran up to 27 px past the
    figure's right edge, and the trajectories' "z [m]" of the second and third panel ran
    16 px into the panel on their left (8 px at 768 px; a hunt). A legend's names below
    the panels are wrapped to the figure's width; a y title that repeats its left
    neighbour's is left to it where the gap between them is too narrow."""
    browser, path = page
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(path.resolve().as_uri())
    browser.drain(1.0)
    assert _off_or_over(browser.evaluate(_OFF)) == []


#: Counts each plot's redraws, the page scrolled to its first plot.
_COUNT = """(() => {
  const plots = Array.from(document.querySelectorAll('div.plot'));
  window.redrawn = plots.map(() => 0);
  plots.forEach((d, i) => d.on('plotly_afterplot', () => { window.redrawn[i] += 1; }));
  plots[0].scrollIntoView();
  return plots.length;
})()"""
_IN_VIEW = """Array.from(document.querySelectorAll('div.plot')).map((d, i) => [i,
  d.getBoundingClientRect()]).filter(([i, r]) => r.bottom > 0 && r.top < innerHeight).map(x => x[0])"""


def test_a_resize_redraws_only_the_figures_in_view_whose_width_it_changed(
    page: tuple[Browser, Path],
) -> None:
    """Each resize of the window redrew every figure (plotly.js's responsive option), one
    of the window's height alone too: 18 relayouts for the example report's nine figures
    (a hunt). A resize redraws the figures in view whose width it changed; the others
    follow as they come into view (test_a_page_narrowed_or_widened...)."""
    browser, path = page
    metrics = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(path.resolve().as_uri())
    browser.drain(1.0)
    plots = int(browser.evaluate(_COUNT))
    browser.drain(0.5)
    browser.evaluate("window.redrawn.fill(0)")
    browser.send("Emulation.setDeviceMetricsOverride", metrics | {"height": 700})
    browser.drain(1.0)
    assert browser.evaluate("window.redrawn") == [0] * plots
    browser.send("Emulation.setDeviceMetricsOverride", metrics | {"width": 1000, "height": 700})
    browser.drain(1.5)
    redrawn = [i for i, n in enumerate(browser.evaluate("window.redrawn")) if n]
    assert set(browser.evaluate(_IN_VIEW)) <= set(redrawn)
    assert 0 < len(redrawn) < plots / 2, (redrawn, plots)


#: Per plot: its kind, its box's width, its drawing's, and how far its x axes' tick
#: labels reach below the plot's bottom (0: within).
_PRINTED = """Array.from(document.querySelectorAll('div.plot')).map(d => {
  const box = d.getBoundingClientRect();
  const ticks = Array.from(d.querySelectorAll('g.xaxislayer-above text')).map(
    t => t.getBoundingClientRect()).filter(r => r.width > 0);
  return [d.dataset.kind, box.width, d.querySelector('svg.main-svg').getBoundingClientRect().width,
          Math.max(0, ...ticks.map(r => r.bottom - box.bottom))];
})"""


def _before_print(browser: Browser) -> None:
    """Lay the page out for the paper as printing does, once "beforeprint"'s tasks are done.

    What is drawn by then (microtasks, no timer) is what is printed.
    """
    browser.send(
        "Runtime.evaluate",
        {
            "expression": "dispatchEvent(new Event('beforeprint'));"
            "new Promise(done => setTimeout(done, 0))",
            "awaitPromise": True,
        },
    )


def test_a_page_printed_draws_its_figures_as_wide_as_the_paper(
    page: tuple[Browser, Path], tmp_path: Path
) -> None:
    """Printed from a 1,280 px window (Ctrl-P, ``chromium --print-to-pdf``), each figure
    stayed drawn 1,200 px wide on paper 680 px wide, where its box cut it: the legends
    and the right of the panels were lost (a review; the page is laid out for the paper
    with no resize). Before printing, each is drawn 680 px wide, its turned names
    within; afterwards, as wide as the window again."""
    from robot_msgs.cli import main
    from robot_msgs.io.result_files import save_result
    from robot_msgs.msg.catalog import example

    names = [f"orbslam3_stereo_inertial_variant_{k:02d}.json" for k in range(1, 4)]
    for name in names:
        save_result(tmp_path / name, example("compare/EvaluationResult"))  # type: ignore[arg-type]
    res = tmp_path / "res.html"
    assert main(["res", *(str(tmp_path / n) for n in names), "--html", str(res)]) == 0
    browser, report = page
    metrics = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    for path in (report, res):
        browser.navigate(path.resolve().as_uri())
        browser.drain(1.0)
        _before_print(browser)
        printed = browser.evaluate(_PRINTED)
        assert [p for p in printed if p[1] > 683 or p[2] > p[1] or p[3] > 0] == [], path.name
        browser.evaluate("dispatchEvent(new Event('afterprint'))")
        browser.drain(1.0)
        shown = browser.evaluate(_PRINTED)[0]
        assert shown[1] > 1000
        assert abs(shown[2] - shown[1]) <= 2
        browser.send("Page.printToPDF", {}, timeout=120.0)  # the browser's own events
        assert browser.problems() == []


def test_a_note_naming_a_long_path_breaks_it_at_360_px(
    page: tuple[Browser, Path], tmp_path: Path
) -> None:
    """``res --html`` of an evo zip in a folder of 100 characters: the Results table's
    note "9 settings (...) are not recorded in <path>" made the page 1,064 px wide at
    360 px and 768 px (a review: only the Notes and info boxes broke long words). Every
    text of the page breaks a word that would run past its line."""
    from robot_msgs.cli import main
    from robot_msgs.io.result_files import save_result
    from robot_msgs.msg.catalog import example

    folder = tmp_path / ("a_folder_name_with_no_place_to_break_" * 3)
    folder.mkdir()
    ours = folder / "ours.json"
    save_result(ours, example("compare/EvaluationResult"))  # type: ignore[arg-type]
    zipped = folder / "evo.zip"
    data = Path(__file__).parents[1] / "data" / "evo_results" / "fr1_xyz_ape_se3.zip"
    zipped.write_bytes(data.read_bytes())
    out = tmp_path / "res.html"
    assert main(["res", str(ours), str(zipped), "--html", str(out), "--force-ranking"]) == 0
    assert "not recorded in" in out.read_text(encoding="utf-8")
    browser, _ = page
    metrics = {"width": 360, "height": 900, "deviceScaleFactor": 1, "mobile": True}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(out.resolve().as_uri())
    browser.drain(1.0)
    wide = browser.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide[0] <= wide[1]


@pytest.mark.parametrize("width", [360, 800, 1400])
def test_no_note_breaks_a_flag_it_names_at_its_hyphens(
    page: tuple[Browser, Path], tmp_path: Path, width: int
) -> None:
    """``res --html`` of results made with other settings names the settings that
    differ in its Notes box: a line ended inside a flag, "--max-" / "diff",
    "--invert-transform-" / "right", "no --" / "offset auto", at 1,400 px and 800 px
    (seen in a review's screenshots). Every flag of a note stays on one line."""
    from robot_msgs.cli import main
    from robot_msgs.io.result_files import save_result
    from robot_msgs.msg.catalog import example

    ours = tmp_path / "ours.json"
    save_result(ours, example("compare/EvaluationResult"))  # type: ignore[arg-type]
    zipped = tmp_path / "evo.zip"
    data = Path(__file__).parents[1] / "data" / "evo_results" / "fr1_xyz_ape_se3.zip"
    zipped.write_bytes(data.read_bytes())
    out = tmp_path / "res.html"
    assert main(["res", str(ours), str(zipped), "--html", str(out)]) == 0
    assert "--invert-transform-right" in out.read_text(encoding="utf-8")
    browser, _ = page
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(out.resolve().as_uri())
    browser.drain(0.5)
    # Where a line of a note (the Notes box's, a table's, a run's) ends inside a word.
    notes = _BROKEN_WORDS.replace("div.table th, div.table td", "div.warn li, p.note, ul li")
    broken: list[str] = browser.evaluate(notes)
    assert broken  # the long notes do break, between words or inside long ones
    assert [b for b in broken if re.search(r"--[\w-]*\|", b)] == [], width


#: Per plot: its kind, its x axes' tick labels (a list per axis), each line of its titles
#: (the figure's and its panels') and its modebar (boxes as [left, right, top, bottom]).
_CROWDED = """Array.from(document.querySelectorAll('div.plot')).map(d => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; };
  const shown = es => Array.from(es).map(box).filter(r => r[1] > r[0]);
  const ticks = Array.from(d.querySelectorAll('g.xaxislayer-above')).map(
    g => shown(g.querySelectorAll('text')));
  const lines = Array.from(d.querySelectorAll('g.g-gtitle text, g.annotation text')).flatMap(
    t => Array.from(t.querySelectorAll('tspan.line').length ? t.querySelectorAll('tspan.line') : [t]));
  return [d.dataset.kind, ticks, shown(lines), box(d.querySelector('div.modebar'))];
})"""


def _crowded(browser: Browser, path: Path, width: int) -> list[list[Any]]:
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(path.resolve().as_uri())
    browser.drain(1.0)
    crowded: list[list[Any]] = browser.evaluate(_CROWDED)
    return crowded


@pytest.mark.parametrize("width", [360, 768])
@pytest.mark.parametrize("which", ["three", "twelve"])
def test_no_two_x_tick_labels_of_an_axis_overlap(
    page: tuple[Browser, Path], three: Path, which: str, width: int
) -> None:
    """At 360 px the trajectories' panels, 40 px wide, had plotly.js's five x ticks,
    their labels turned upright and running into each other ("0.20.40.60.81"; a
    review). An x axis gets no more ticks than its labels fit side by side."""
    browser, twelve = page
    overlapping = [
        (kind, a, b)
        for kind, axes, _, _ in _crowded(browser, three if which == "three" else twelve, width)
        for ticks in axes
        for k, a in enumerate(ticks)
        for b in ticks[k + 1 :]
        if _overlap(a, b) > 0
    ]
    assert overlapping == [], (which, width)


@pytest.mark.parametrize("width", [360, 768])
@pytest.mark.parametrize("which", ["three", "twelve"])
def test_no_title_line_runs_under_the_modebar(
    page: tuple[Browser, Path], three: Path, which: str, width: int
) -> None:
    """At 360 px the modebar (always shown on a screen with no hover, a phone's) covered
    the end of the first line of the figures' titles, the APE over time's and the RPE
    box plot's (a review; at 768 px the example report's repeatability's too). A title
    whose first line reaches the modebar goes below it."""
    browser, twelve = page
    covered = [
        (kind, line)
        for kind, _, lines, bar in _crowded(browser, three if which == "three" else twelve, width)
        for line in lines
        if _overlap(line, bar) > 0
    ]
    assert covered == [], (which, width)


#: The trajectories' panels: each one's [left, width, height].
_PANELS = """Array.from(document.querySelector('div.plot[data-kind="trajectories"]')
  .querySelectorAll('rect.nsewdrag')).map(e => { const r = e.getBoundingClientRect();
  return [Math.round(r.left), r.width, r.height]; })"""


@pytest.mark.parametrize(("width", "columns"), [(360, 1), (800, 2), (1280, 3)])
def test_trajectory_panels_take_as_many_columns_as_keep_each_160_px_wide(
    page: tuple[Browser, Path], three: Path, width: int, columns: int
) -> None:
    """At 360 px the three trajectories' panels stood side by side, 42 px wide each, their
    axes on one scale (147 px at 800 px; a review). They take as many columns as keep
    each 160 px wide (four a row on a page 1,200 px wide), one where none does, at most
    as high as wide where fewer than planned."""
    browser, _ = page
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(three.resolve().as_uri())
    browser.drain(1.0)
    panels = browser.evaluate(_PANELS)
    assert len(panels) == 3
    assert len({left for left, _, _ in panels}) == columns
    assert min(wide for _, wide, _ in panels) >= 160
    if columns < 3:
        assert [(wide, high) for _, wide, high in panels if high > wide + 1] == []


#: Per figure: its kind, its height with its caption, and how it breaks across pages.
_FIGURES = """Array.from(document.querySelectorAll('figure')).map(f => [
  f.querySelector('div.plot').dataset.kind, f.getBoundingClientRect().height,
  getComputedStyle(f).breakInside])"""


def test_a_printed_figure_keeps_to_one_page(
    page: tuple[Browser, Path], example_outputs: dict[str, Path]
) -> None:
    """Printed (``chromium --print-to-pdf``), the example report's trajectories of
    fr1_xyz ran from the foot of page 3 onto page 4, and every figure could (a review).
    No figure breaks across pages, and each is drawn within a Letter page at Chromium's
    margins (10.2 in, 979 px): reflowed for the paper (680 px) into two rows as high as
    planned, fr2_desk's trajectories took 1,015 px."""
    browser, _ = page
    metrics = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(example_outputs["html"].resolve().as_uri())
    browser.drain(1.0)
    _before_print(browser)
    printed = browser.evaluate(_FIGURES)
    browser.evaluate("dispatchEvent(new Event('afterprint'))")
    browser.drain(1.0)
    assert len(printed) == 9
    assert [(kind, high, how) for kind, high, how in printed if how != "avoid" or high > 979] == []


#: Per plot: its kind and its x axes' tick labels (a list of texts per axis).
_TICKS = """Array.from(document.querySelectorAll('div.plot')).map(d => [d.dataset.kind,
  Array.from(d.querySelectorAll('g.xaxislayer-above')).map(
    g => Array.from(g.querySelectorAll('text')).map(t => t.textContent))])"""


@pytest.fixture(scope="module")
def example_page(page: tuple[Browser, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The interactive page of the shipped example runs (``report`` with its defaults)."""
    from robot_msgs.cli import main
    from tests.report.conftest import example_manifest

    out = tmp_path_factory.mktemp("example") / "report.html"
    assert (
        main(["report", str(example_manifest()), "--quiet", "--no-progress", "--html", str(out)])
        == 0
    )
    return out


def test_a_refit_keeps_the_x_ticks_and_labels_that_fit_are_kept(
    page: tuple[Browser, Path], example_page: Path
) -> None:
    """7634e5e foretold an axis' count from the labels last drawn, themselves drawn with
    the count it had set: at 360 px each refit flipped the example's trajectories between
    1 and 2 labels and its repeatability's between "0" and "-0.5 0 0.5 1", which fit
    (since 8598525 reflows the panels: "-2 0 2")."""
    browser, _ = page
    metrics = {"width": 360, "height": 900, "deviceScaleFactor": 1, "mobile": True}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(example_page.resolve().as_uri())
    browser.drain(1.0)
    drawn = browser.evaluate(_TICKS)
    browser.evaluate(
        "document.querySelectorAll('div.plot').forEach(d => Plotly.relayout(d, {autosize: true}))"
    )
    browser.drain(1.0)
    assert browser.evaluate(_TICKS) == drawn
    repeatability = [axes for kind, axes in drawn if kind == "repeatability"]
    assert repeatability
    # plotly draws 3 or 4 (its own count, by the panel's width); 7634e5e cut them to one.
    assert all(len(labels) >= 3 for axes in repeatability for labels in axes), repeatability


#: Per table of the page: its heading, its box's scrolled and shown widths, the height of
#: its box's scrollbar, the right edge of the table and the page's width.
_TABLES = """Array.from(document.querySelectorAll('div.table')).map(d => [
  d.previousElementSibling.textContent, d.scrollWidth, d.clientWidth,
  d.offsetHeight - d.clientHeight, d.querySelector('table').getBoundingClientRect().right,
  document.documentElement.clientWidth])"""


_PAPER = {"width": 739, "height": 900, "deviceScaleFactor": 1, "mobile": False}


def _printed(browser: Browser, page: Path, expression: str) -> Any:
    """Evaluate ``expression`` on ``page`` laid out for print at Letter's width (739 px)."""
    browser.send("Emulation.setDeviceMetricsOverride", _PAPER)
    browser.send("Emulation.setScrollbarsHidden", {"hidden": True})  # paper has none
    browser.send("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        browser.navigate(page.resolve().as_uri())
        browser.drain(0.5)
        return browser.evaluate(expression)
    finally:
        browser.send("Emulation.setEmulatedMedia", {"media": ""})
        browser.send("Emulation.setScrollbarsHidden", {"hidden": False})


@pytest.mark.parametrize("kind", ["html", "static.html"])
def test_a_printed_table_fits_the_paper_with_no_scrollbar(
    page: tuple[Browser, Path], example_outputs: dict[str, Path], kind: str
) -> None:
    """Printed (``chromium --print-to-pdf``, Letter), the example report's wide tables
    scrolled in their boxes as on screen: "Per algorithm and sequence" and the 21 columns
    of Runs were cut at the paper's right edge (Runs' box 1,569 px wide in 769), and a
    scrollbar was printed (a review). Laid out for print at the paper's width (8.5 in less
    Chromium's 0.4 in margins: 739 px), every table fits; on screen, Runs still scrolls in
    its box at the size it had."""
    browser, _ = page
    printed = _printed(browser, example_outputs[kind], _TABLES)
    assert [t[0] for t in printed] == [
        "Ranking", "Per algorithm and sequence", "Repeatability (no reference)", "Runs",
        "Environment",
    ]  # fmt: skip
    assert [t for t in printed if t[1] > t[2] or t[3] > 0 or t[4] > t[5]] == []
    browser.send("Emulation.setDeviceMetricsOverride", _PAPER | {"width": 1280})
    browser.navigate(example_outputs[kind].resolve().as_uri())
    browser.drain(0.5)
    runs = next(t for t in browser.evaluate(_TABLES) if t[0] == "Runs")
    assert runs[1] > runs[2] > 0  # scrolls sideways in its box, as before
    assert browser.evaluate("getComputedStyle(document.querySelector('table')).fontSize") == (
        "13.6px"
    )


#: Every place where a word of a table's cell (header or not) runs on to the next line,
#: as the cell's text with "|" there.
_BROKEN_WORDS = """Array.from(document.querySelectorAll('div.table th, div.table td')).flatMap(c => {
  const chars = [], walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (let i = 0; i < n.data.length; i++) {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      chars.push([n.data[i], r.getBoundingClientRect().top]);
    }
  }
  const text = chars.map(x => x[0]).join('');
  return chars.slice(1).map((x, i) => [chars[i], x, i + 1])
    .filter(([a, b]) => !/\\s/.test(a[0] + b[0]) && b[1] > a[1] + 1)
    .map(([a, b, i]) => text.slice(0, i) + '|' + text.slice(i));
})"""


@pytest.mark.parametrize("kind", ["html", "static.html"])
def test_a_printed_table_breaks_words_only_after_a_slash_or_a_hyphen(
    page: tuple[Browser, Path], example_outputs: dict[str, Path], kind: str
) -> None:
    """Printed, the example report's tables fit the paper (the test above) with every
    word whole: at 0.6em, words broken anywhere, its headers read "succ ess", "late
    ncy", a failure "SIGS EGV", its run names broke every three letters (a review). A
    line now ends inside a word only after "/" (a run's name at its parts) or "-"."""
    browser, _ = page
    broken = _printed(browser, example_outputs[kind], _BROKEN_WORDS)
    assert [b for b in broken if b[b.index("|") - 1] not in "/-"] == []
    assert any(b.endswith("/|trial_1") for b in broken)  # Runs' names do break


def test_a_printed_table_of_runs_of_a_long_name_fits_the_paper(
    page: tuple[Browser, Path], tmp_path: Path
) -> None:
    """A run's name whose part outgrows Runs' first column is broken, not cut off.

    Words whole, the example's runs renamed "dvo_slam_dense_visual_odometry/..." printed a
    Runs table of 814 px on a paper of 707: its last columns were cut at the paper's edge,
    as before 2788049 (a review). Its first column breaks a part too long for it anywhere,
    at no less than 5em, so the example's names still break only after "/" (the test above).
    """
    import shutil

    from robot_msgs.cli import main
    from tests.report.conftest import example_manifest

    runs = tmp_path / "runs"
    shutil.copytree(example_manifest().parent, runs)
    (runs / "dvo").rename(runs / "dvo_slam_dense_visual_odometry")
    manifest = runs / "runs.toml"
    manifest.write_text(manifest.read_text().replace('"dvo/', '"dvo_slam_dense_visual_odometry/'))
    out = tmp_path / "report.html"
    argv = ["report", str(manifest), "--rpe-delta", "0.5", "1", "2", "--quiet", "--no-progress"]
    assert main([*argv, "--html", str(out)]) == 0
    browser, _ = page
    printed = _printed(browser, out, _TABLES)
    assert "Runs" in [t[0] for t in printed]
    assert [t for t in printed if t[1] > t[2] or t[3] > 0 or t[4] > t[5]] == []


def test_a_printed_figure_has_no_modebar(
    page: tuple[Browser, Path], example_outputs: dict[str, Path]
) -> None:
    """Printed, every interactive figure carried plotly's modebar (camera, zoom, pan...),
    buttons that do nothing on paper, over its title. Hidden in print, shown on screen."""
    browser, _ = page
    shown = "Array.from(document.querySelectorAll('div.modebar-container')).map(d => getComputedStyle(d).display)"
    printed = _printed(browser, example_outputs["html"], shown)
    assert printed
    assert set(printed) == {"none"}
    browser.navigate(example_outputs["html"].resolve().as_uri())
    browser.drain(0.5)
    assert "none" not in browser.evaluate(shown)


#: The trajectories' y axes: [each tick label's text and box, each y title's box, each panel's box].
_POSITIONS = """(() => {
  const d = document.querySelector('div.plot[data-kind="trajectories"]');
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; };
  const shown = s => Array.from(d.querySelectorAll(s)).filter(e => box(e)[1] > box(e)[0]);
  return [shown('g.yaxislayer-above text').map(t => [t.textContent, box(t)]),
          shown('g[class^="g-y"][class$="title"]').map(box), shown('rect.nsewdrag').map(box),
          box(d)];
})()"""


@pytest.fixture(scope="module")
def utm(page: tuple[Browser, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of three algorithms' views of positions as large as georeferenced.tum's."""
    from robot_msgs.report.html_page import render_html
    from robot_msgs.trajectory import PoseTrajectory

    turn = np.linspace(0.0, 1.75 * np.pi, len(STAMPS))
    east, north = 458040.0 + 90.0 * np.cos(turn), 5429330.0 + 140.0 * np.sin(turn)

    def positions(k: int) -> PoseTrajectory:
        return PoseTrajectory(
            stamps_s=STAMPS,
            positions_xyz=np.stack([east + k, north, 163.0 + 0 * K], 1),
            orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (len(K), 1)),
        )

    names = ["kfslam", "dvo", "vio_ekf"]
    runs = [_run(f"{n}/s1/trial_1", positions(k), positions(0)) for k, n in enumerate(names, 1)]
    out = tmp_path_factory.mktemp("utm") / "report.html"
    out.write_text(render_html(_result(runs)), encoding="utf-8")
    return out


@pytest.mark.parametrize("width", [360, 800, 1280])
def test_utm_sized_positions_are_written_whole_clear_of_titles_and_panels(
    page: tuple[Browser, Path], utm: Path, width: int
) -> None:
    """georeferenced.tum's northings read "5.4294M" (plotly.js's SI suffix); written whole,
    "5,429,400" was cut by the 60 px margin, under its "y [m]" at 360 px (by 17 px) and ran
    into the panel on its left at 800 px (by 12 px; a review). Each is written whole,
    within the figure, off every panel and every y title."""
    browser, _ = page
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    browser.navigate(utm.resolve().as_uri())
    browser.drain(1.0)
    labels, titles, panels, figure = browser.evaluate(_POSITIONS)
    assert {text[:2] for text, _ in labels} == {"5,"}
    assert all(text.replace(",", "").isdigit() for text, _ in labels), labels
    assert [r for _, r in labels if r[0] < figure[0] - 1] == []
    over = [(text, b) for text, r in labels for b in titles + panels if _overlap(r, b) > 0]
    assert over == [], width
