"""The HTML report in headless Chromium: renders, no console error, no network request, plots."""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, TypedDict

import numpy as np
import pytest

from tests.report.cdp import Browser, find_chromium

if TYPE_CHECKING:
    from pathlib import Path

WIDTH = 1280


class Rendered(TypedDict):
    """What headless Chromium made of the example report."""

    url: str
    requests: list[str]
    problems: list[str]
    images: list[list[bool | int]]  # [complete, naturalWidth, naturalHeight] per <img>
    png: bytes


@pytest.fixture(scope="module")
def rendered(
    example_outputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Rendered:
    executable = find_chromium()
    if executable is None:
        pytest.skip(
            "Chromium is not installed (Debian: apt-get install -y chromium); .ci/run installs it where it can"
        )
    browser = Browser(executable, tmp_path_factory.mktemp("chromium-profile"), width=WIDTH)
    try:
        browser.open_page()
        url = example_outputs["html"].resolve().as_uri()
        browser.navigate(url)
        browser.drain(1.0)
        images = browser.evaluate(
            "Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight])"
        )
        png = browser.screenshot(WIDTH)
        return {
            "url": url,
            "requests": browser.requests(),
            "problems": browser.problems(),
            "images": images,
            "png": png,
        }
    finally:
        browser.close()


def test_html_has_no_external_reference(example_outputs: dict[str, Path]) -> None:
    text = example_outputs["html"].read_text(encoding="utf-8")
    assert not re.search(r"(?i)\b(?:https?|wss?|ftp)://", text)
    assert not re.search(r"(?i)<(?:script|link|iframe)\b", text)
    assert not re.search(r"(?i)\bsrc=\"(?!data:)", text)


def test_chromium_renders_without_console_errors(rendered: Rendered) -> None:
    assert rendered["problems"] == []


def test_chromium_makes_no_network_request(rendered: Rendered) -> None:
    # The document itself is read from disk; inline data: images do not touch the network.
    others = [u for u in rendered["requests"] if u != rendered["url"] and not u.startswith("data:")]
    assert others == []
    assert rendered["url"] in rendered["requests"]


def test_every_plot_decodes(rendered: Rendered, example_outputs: dict[str, Path]) -> None:
    n_img = example_outputs["html"].read_text(encoding="utf-8").count("<img ")
    assert n_img >= 8  # comparison, latency, 2 x (trajectories, error, RPE), repeatability
    assert len(rendered["images"]) == n_img
    assert all(complete and w > 100 and h > 100 for complete, w, h in rendered["images"])


def test_screenshot_shows_the_plots(rendered: Rendered) -> None:
    image = pytest.importorskip("PIL.Image")
    shot = np.asarray(image.open(io.BytesIO(rendered["png"])).convert("RGB")).astype(int)
    assert shot.shape[1] == WIDTH
    assert shot.shape[0] > 3000  # the whole page, not one viewport
    non_white = np.any(shot < 245, axis=2).mean()
    saturated = (shot.max(axis=2) - shot.min(axis=2) > 80).mean()
    # Text and table rules alone are grey; plot lines, bars and colour maps are colourful.
    assert non_white > 0.05
    assert saturated > 0.005


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
