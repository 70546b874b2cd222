"""The HTML report in headless Chromium: interactive (plotly) and static (PNG) pages.

Both: render with no console error, make no network request, draw every plot. The
interactive page also answers a scripted hover (the hovered pose's run, stamp and error,
shown on the linked trajectory view too) and a scripted zoom (drag on the error plot).
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np
import pytest

from tests.report.cdp import Browser, find_chromium

if TYPE_CHECKING:
    from collections.abc import Iterator

WIDTH = 1280
#: Set to a path to keep a screenshot of the interactive page during the hover test
#: (docs/report-screenshot.png is made so: ROBOT_MSGS_SCREENSHOT=$PWD/docs/report-screenshot.png
#: python -m pytest tests/report/test_html_page.py).
SCREENSHOT = os.environ.get("ROBOT_MSGS_SCREENSHOT")


class Rendered(TypedDict):
    """What headless Chromium made of one page."""

    url: str
    requests: list[str]
    problems: list[str]
    images: list[list[bool | int]]  # [complete, naturalWidth, naturalHeight] per <img>
    plots: list[list[Any]]  # [id, drawn svg layers, width, height] per plotly div
    png: bytes


def _browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    executable = find_chromium()
    if executable is None:
        pytest.skip(
            "Chromium is not installed (Debian: apt-get install -y chromium); .ci/run installs it where it can"
        )
    return Browser(executable, tmp_path_factory.mktemp("chromium-profile"), width=WIDTH)


def _render(browser: Browser, page: Path) -> Rendered:
    url = page.resolve().as_uri()
    browser.navigate(url)
    browser.drain(1.0)
    images = browser.evaluate(
        "Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight])"
    )
    plots = browser.evaluate(
        "Array.from(document.querySelectorAll('div.plot')).map(d => [d.id, "
        "d.querySelectorAll('svg.main-svg').length, d.clientWidth, d.clientHeight])"
    )
    return {
        "url": url,
        "requests": browser.requests(),
        "problems": browser.problems(),
        "images": images,
        "plots": plots,
        "png": browser.screenshot(WIDTH),
    }


@pytest.fixture(scope="module")
def interactive(
    example_outputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Browser, Rendered]]:
    browser = _browser(tmp_path_factory)
    try:
        browser.open_page()
        yield browser, _render(browser, example_outputs["html"])
    finally:
        browser.close()


@pytest.fixture(scope="module")
def static(example_outputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    browser = _browser(tmp_path_factory)
    try:
        browser.open_page()
        return _render(browser, example_outputs["static.html"])
    finally:
        browser.close()


def _no_request_but_the_page(rendered: Rendered) -> None:
    # The document itself is read from disk; inline data: images do not touch the network.
    others = [u for u in rendered["requests"] if u != rendered["url"] and not u.startswith("data:")]
    assert others == []
    assert rendered["url"] in rendered["requests"]


def _shows_plots(png: bytes) -> None:
    image = pytest.importorskip("PIL.Image")
    shot = np.asarray(image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    assert shot.shape[1] == WIDTH
    assert shot.shape[0] > 3000  # the whole page, not one viewport
    non_white = np.any(shot < 245, axis=2).mean()
    saturated = (shot.max(axis=2) - shot.min(axis=2) > 80).mean()
    # Text and table rules alone are grey; plot lines, bars and colour maps are colourful.
    assert non_white > 0.05
    assert saturated > 0.005


# --------------------------------------------------------------------------- static page


def test_static_html_has_no_script_and_no_external_reference(
    example_outputs: dict[str, Path],
) -> None:
    text = example_outputs["static.html"].read_text(encoding="utf-8")
    assert not re.search(r"(?i)\b(?:https?|wss?|ftp)://", text)
    assert not re.search(r"(?i)<(?:script|link|iframe)\b", text)
    assert not re.search(r"(?i)\bsrc=\"(?!data:)", text)


def test_static_page_renders_without_console_errors_or_requests(static: Rendered) -> None:
    assert static["problems"] == []
    _no_request_but_the_page(static)


def test_static_page_decodes_every_plot(static: Rendered, example_outputs: dict[str, Path]) -> None:
    n_img = example_outputs["static.html"].read_text(encoding="utf-8").count("<img ")
    assert n_img >= 8  # comparison, latency, 2 x (trajectories, error, RPE), repeatability
    assert len(static["images"]) == n_img
    assert all(complete and w > 100 and h > 100 for complete, w, h in static["images"])
    _shows_plots(static["png"])


# --------------------------------------------------------------------------- interactive page


def test_interactive_html_references_nothing_outside_itself(
    example_outputs: dict[str, Path],
) -> None:
    text = example_outputs["html"].read_text(encoding="utf-8")
    # Scripts are inline (plotly.js holds URLs of map services it never calls for these
    # plots: what counts is that Chromium requests nothing, tested below).
    assert re.findall(r"(?i)<script\b[^>]*>", text) == ["<script>", "<script>"]
    assert not re.search(r"(?i)<(?:link|iframe|img)\b", text)
    assert not re.search(r"(?i)\b(?:src|href)=", text.split("<script>", 1)[0])


def test_interactive_page_renders_without_console_errors_or_requests(
    interactive: tuple[Browser, Rendered],
) -> None:
    _, rendered = interactive
    assert rendered["problems"] == []
    _no_request_but_the_page(rendered)


def test_interactive_page_draws_every_plot(
    interactive: tuple[Browser, Rendered], example_outputs: dict[str, Path]
) -> None:
    _, rendered = interactive
    n_div = example_outputs["html"].read_text(encoding="utf-8").count('<div class="plot"')
    assert n_div >= 8  # comparison, latency, 2 x (trajectories, error, RPE), repeatability
    assert len(rendered["plots"]) == n_div
    for plot_id, layers, width, height in rendered["plots"]:
        assert layers >= 2, plot_id  # plotly drew its SVG layers
        assert width > 600, plot_id
        assert height > 300, plot_id
    _shows_plots(rendered["png"])


_COLOUR_BAR_OVER_LEGEND = """Array.from(document.querySelectorAll('div.plot')).flatMap(d => {
  const bar = d.querySelector('g.colorbar'), legend = d.querySelector('g.legend');
  if (!bar || !legend) return [];
  const a = bar.getBoundingClientRect(), b = legend.getBoundingClientRect();
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return [[d.id, Math.max(0, w) * Math.max(0, h)]];
})"""


def test_no_colour_bar_runs_into_a_legend(interactive: tuple[Browser, Rendered]) -> None:
    # The trajectories' colour bar title, written across, covered the legend's first
    # entry (156 and 4014 px² on the example page at 1280 px before).
    browser, _ = interactive
    overlaps = browser.evaluate(_COLOUR_BAR_OVER_LEGEND)
    assert len(overlaps) >= 2  # one trajectories view a sequence with a reference
    assert [area for _, area in overlaps] == [0] * len(overlaps), overlaps


_ISOLATED_POINT = """(() => {
  // The pose of run RUN on the first sequence's error plot farthest from every other
  // curve, so the hover cannot land on another run; its position in the viewport.
  const gd = document.querySelector('div.plot[data-kind="error_over_time"]');
  gd.scrollIntoView({block: 'center'});
  const L = gd._fullLayout, t = gd.data.find(d => d.meta === RUN), r = gd.getBoundingClientRect();
  const px = (tr, i) => [L.xaxis.l2p(tr.x[i]), L.yaxis.l2p(tr.y[i])];
  const others = gd.data.filter(o => o !== t && o.mode === 'lines' && !o.fill);
  let best = -1, k = 0;
  for (let i = 1; i < t.x.length - 1; i++) {  // not an end, on the axes' edge
    if (t.x[i] === null) continue;
    const [a, b] = px(t, i);
    let near = Infinity;
    for (const o of others) for (let j = 0; j < o.x.length; j++) {
      if (o.x[j] === null) continue;
      const [c, d] = px(o, j);
      near = Math.min(near, Math.hypot(a - c, b - d));
    }
    if (near > best) { best = near; k = i; }
  }
  const view = document.querySelector(
    `div.plot[data-kind="trajectories"][data-link="${gd.dataset.link}"]`);
  return [gd.id, view.id, r.left + L._size.l + px(t, k)[0], r.top + L._size.t + px(t, k)[1],
          t.meta, t.customdata[k][0], t.y[k]];
})()"""


def _hover_texts(browser: Browser, plot_id: str) -> list[str]:
    texts: list[str] = browser.evaluate(
        f"Array.from(document.querySelectorAll('#{plot_id} .hoverlayer .hovertext'))"
        ".map(e => e.textContent)"
    )
    return texts


def _isolated_point(run: str) -> str:
    return _ISOLATED_POINT.replace("RUN", f'"{run}"')


# The trajectory view has a panel per algorithm: the third run is drawn in the second.
@pytest.mark.parametrize("run", ["kfslam/fr1_xyz/trial_1", "dvo/fr1_xyz/trial_1"])
def test_hover_shows_run_stamp_and_error_in_both_linked_views(
    interactive: tuple[Browser, Rendered], run: str
) -> None:
    browser, _ = interactive
    plot_id, trajectories, x, y, meta, stamp, error = browser.evaluate(_isolated_point(run))
    assert _hover_texts(browser, plot_id) == []
    assert _hover_texts(browser, trajectories) == []
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    browser.drain(0.5)
    (text,) = _hover_texts(browser, plot_id)
    assert meta == run
    assert text.startswith(run)
    assert f"stamp {stamp:.6f} s" in text
    assert f"APE {error:.4f} m" in text
    (linked,) = _hover_texts(browser, trajectories)
    assert linked.startswith(run)
    assert f"stamp {stamp:.6f} s" in linked
    if SCREENSHOT and run.startswith("kfslam"):  # the page with both hover labels showing
        Path(SCREENSHOT).write_bytes(browser.screenshot(WIDTH, resize=False))
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 5, "y": 5})
    browser.drain(0.3)
    assert _hover_texts(browser, plot_id) == []


def test_dragging_on_the_error_plot_zooms_it(interactive: tuple[Browser, Rendered]) -> None:
    browser, _ = interactive
    plot_id, _, x, y, *_ = browser.evaluate(_isolated_point("kfslam/fr1_xyz/trial_1"))
    read = f"document.getElementById('{plot_id}')._fullLayout.xaxis.range.slice()"
    before = browser.evaluate(read)
    start, end = (x - 150, y - 40), (x + 50, y + 40)
    browser.send(
        "Input.dispatchMouseEvent",
        {"type": "mousePressed", "x": start[0], "y": start[1], "button": "left", "clickCount": 1},
    )
    for step in range(1, 11):
        point = [s + (e - s) * step / 10 for s, e in zip(start, end, strict=True)]
        browser.send(
            "Input.dispatchMouseEvent",
            {"type": "mouseMoved", "x": point[0], "y": point[1], "button": "left", "buttons": 1},
        )
    browser.send(
        "Input.dispatchMouseEvent",
        {"type": "mouseReleased", "x": end[0], "y": end[1], "button": "left", "clickCount": 1},
    )
    browser.drain(0.5)
    after = browser.evaluate(read)
    assert after[0] > before[0]
    assert after[1] < before[1]
    assert browser.problems() == []


def test_the_harness_sees_requests_console_errors_and_exceptions(tmp_path: Path) -> None:
    """The checks above can fail: a page that fetches and throws is caught."""
    executable = find_chromium()
    if executable is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install -y chromium)")
    page = tmp_path / "bad.html"
    # Port 9 is on Chromium's unsafe-port list: the request is attempted, never connected.
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>bad</title>'
        '<link rel="stylesheet" href="http://127.0.0.1:9/x.css"></head><body>'
        '<img src="http://127.0.0.1:9/a.png"><script>console.error("boom"); missing();</script>'
        "</body></html>"
    )
    browser = Browser(executable, tmp_path / "profile")
    try:
        browser.open_page()
        browser.navigate(page.as_uri())
        browser.drain(1.0)
        requests, problems = browser.requests(), browser.problems()
    finally:
        browser.close()
    assert "http://127.0.0.1:9/x.css" in requests
    assert "http://127.0.0.1:9/a.png" in requests
    assert any("boom" in p for p in problems)
    assert any("missing is not defined" in p for p in problems)


# --------------------------------------------------------------------------- hostile names


def test_a_result_named_with_markup_draws_every_plot_and_runs_nothing(tmp_path: Path) -> None:
    """A name holding ``<!--<script>`` left every plot of the page undrawn; one holding a
    ``<script>`` or an ``onerror`` must run nothing."""
    pytest.importorskip("plotly")
    from robot_msgs.cli import main
    from robot_msgs.io.result_files import save_result
    from robot_msgs.msg.catalog import example

    executable = find_chromium()
    if executable is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install -y chromium)")
    names = [
        "<!--<script>a.json",
        "</script><script>window.pwned=1<!--.json",
        "<img src=x onerror=window.pwned=2>.json",
        "\u2028&amp;\u2029.json",
    ]
    for name in names:
        save_result(tmp_path / name, example("compare/EvaluationResult"))  # type: ignore[arg-type]
    page = tmp_path / "page.html"
    assert main(["res", *(str(tmp_path / n) for n in names), "--html", str(page)]) == 0
    browser = Browser(executable, tmp_path / "profile", width=WIDTH)
    try:
        browser.open_page()
        rendered = _render(browser, page)
        pwned = browser.evaluate("window.pwned === undefined ? null : window.pwned")
    finally:
        browser.close()
    assert pwned is None
    assert rendered["problems"] == []
    assert rendered["plots"], "no plot"
    for plot_id, layers, _, _ in rendered["plots"]:
        assert layers >= 2, plot_id


def test_the_environment_keeps_each_algorithms_versions_and_software_apart(
    example_outputs: dict[str, Path],
) -> None:
    """The page pooled every run's software into one list and showed no version, where
    the text and Markdown keep them per algorithm (a review)."""
    text = example_outputs["html"].read_text(encoding="utf-8")
    environment = text[text.index("<h2>Environment</h2>") :].split("<script", 1)[0]
    markdown = example_outputs["md"].read_text(encoding="utf-8")
    for version in ("2.1.0", "0.9.3", "1.4.2"):  # the example runs' meta.json
        assert version in environment
        assert version in markdown
    assert "dvo: hardware " in environment
    assert "software cuda 12.2, eigen 3.4.0" in environment
