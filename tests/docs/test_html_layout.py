"""The reference pages laid out in headless Chromium at a phone's and a desktop's width."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from robot_msgs.docs import render_site
from tests.report.cdp import Browser, find_chromium

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reference")
    for rel, html in render_site().items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(html, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    executable = find_chromium()
    if executable is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install -y chromium)")
    browser = Browser(executable, tmp_path_factory.mktemp("chromium-profile"))
    try:
        browser.open_page()
        yield browser
    finally:
        browser.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_no_page_scrolls_sideways(browser: Browser, site: Path, width: int) -> None:
    """At 360 px 151 of the 155 pages scrolled sideways: the four-column fields table
    (ParameterValue's 507 px too wide), the index's fixed 34rem of columns, a long ROS 2
    name in its grid cell. On a phone a table row is now a block, and code breaks where
    it must."""
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    browser.send("Emulation.setDeviceMetricsOverride", metrics)
    wide = {}
    for page in sorted(site.rglob("*.html")):
        browser.navigate(page.as_uri())
        scroll, client = browser.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        if scroll > client:
            wide[page.relative_to(site).as_posix()] = scroll - client
    assert wide == {}


def test_the_index_search_hides_rows_on_a_phone_too(browser: Browser, site: Path) -> None:
    """A table row shown as a block on a phone kept showing when the search hid it:
    ``display: block`` outranks the browser's own ``[hidden] { display: none }``."""
    browser.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 900, "deviceScaleFactor": 1, "mobile": True},
    )
    browser.navigate((site / "index.html").as_uri() + "?q=imu")
    shown = browser.evaluate(
        "Array.from(document.querySelectorAll('table.index tbody tr'))"
        ".filter(r => r.getClientRects().length).map(r => r.cells[0].textContent)"
    )
    assert shown == ["AccelWithCovarianceStamped", "Clock", "Imu"]  # as at 1280 px


def test_a_type_stays_whole_on_a_desktop(browser: Browser, site: Path) -> None:
    """At 1280 px there is room for every type in the fields table, and a type breaks only
    at its blanks: ``code { overflow-wrap: anywhere }`` let the table narrow its Type
    column below ``(-9223372036854775808..9223372036854775807)``, cut after 13 digits."""
    browser.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False},
    )
    browser.navigate((site / "rcl" / "ParameterValue.html").as_uri())
    cut = browser.evaluate(
        "Array.from(document.querySelectorAll('table.fields td:nth-child(2) code'))"
        ".filter(c => c.getClientRects().length > c.textContent.split(' ').length)"
        ".map(c => c.textContent)"
    )
    assert cut == []
