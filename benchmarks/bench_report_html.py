"""The HTML report, interactive (plotly.js inlined) against static (PNG), timed in one run.

    PYTHONPATH=src python benchmarks/bench_report_html.py [--repeats 3]

On the shipped example runs (``example:runs/runs.toml``, RPE deltas 0.5, 1 and 2 s),
evaluated once, then for each form of the page:

- ``build``: :func:`robot_msgs.report.html_page.render_html` (figures and page; the
  static page rasterises nine matplotlib figures, the interactive one writes their data
  and inlines plotly.js), best of ``--repeats``;
- ``size``: the page in bytes (and how much of it is plotly.js);
- ``load`` and ``drawn``: in headless Chromium (``tests/report/cdp.py``), from navigation
  to the load event, and to every figure drawn (each ``<img>`` decoded; each plotly
  ``div`` holding its SVG layers), best of ``--repeats`` fresh page loads.

Ratios are interactive / static. Also printed: the import time of what the interactive
page needs in Python (``plotly.offline``, for its bundle), which ``robot-msgs --help``
never pays (the CLI imports commands lazily).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from robot_msgs.io import resolve_path
from robot_msgs.report.build import build_report
from robot_msgs.report.html_page import render_html
from robot_msgs.runs.manifest import load_runs
from robot_msgs.runs.run_settings import default_metrics
from tests.report.cdp import Browser, find_chromium

DRAWN = """(() => {
  const imgs = Array.from(document.images);
  const divs = Array.from(document.querySelectorAll('div.plot'));
  return imgs.every(i => i.complete && i.naturalWidth > 0)
      && divs.every(d => d.querySelectorAll('svg.main-svg').length >= 2);
})()"""


def _best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _browser_times(browser: Browser, page: Path, repeats: int) -> tuple[float, float]:
    loads, drawn = [], []
    for _ in range(repeats):
        browser.navigate("about:blank")
        start = time.perf_counter()
        browser.navigate(page.as_uri())
        loads.append(time.perf_counter() - start)
        while not browser.evaluate(DRAWN):
            time.sleep(0.005)
        drawn.append(time.perf_counter() - start)
    return min(loads), min(drawn)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp())
    executable = find_chromium()
    # Started first: the DevTools pipe must land on fds 3 and 4, free only at start-up.
    browser = Browser(executable, out / "profile") if executable is not None else None
    manifest = load_runs(
        [str(resolve_path("example:runs/runs.toml"))], metrics=default_metrics((0.5, 1.0, 2.0), "s")
    )
    result = build_report(manifest)
    pages = {}
    rows = {}
    for name, static in (("static", True), ("interactive", False)):
        build = _best(lambda s=static: render_html(result, static=s), args.repeats)
        page = out / f"{name}.html"
        page.write_text(render_html(result, static=static), encoding="utf-8")
        pages[name] = page
        rows[name] = {"build": build, "size": page.stat().st_size}
    from plotly.offline import get_plotlyjs

    bundle = len(get_plotlyjs().encode())
    if browser is not None:
        try:
            browser.open_page()
            for name, page in pages.items():
                rows[name]["load"], rows[name]["drawn"] = _browser_times(
                    browser, page, args.repeats
                )
        finally:
            browser.close()
    imports = (
        subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import plotly.offline"],
            capture_output=True,
            text=True,
            check=True,
        )
        .stderr.strip()
        .splitlines()[-1]
    )
    print(f"{'':12} {'build [s]':>10} {'size [MB]':>10} {'load [s]':>9} {'drawn [s]':>10}")
    for name, row in rows.items():
        load = f"{row['load']:9.3f}" if "load" in row else "        -"
        drawn = f"{row['drawn']:10.3f}" if "drawn" in row else "         -"
        print(f"{name:12} {row['build']:10.3f} {row['size'] / 1e6:10.2f} {load} {drawn}")
    i, s = rows["interactive"], rows["static"]
    ratios = [f"build x{i['build'] / s['build']:.2f}", f"size x{i['size'] / s['size']:.2f}"]
    if "drawn" in i:
        ratios += [f"load x{i['load'] / s['load']:.2f}", f"drawn x{i['drawn'] / s['drawn']:.2f}"]
    print("interactive / static:", ", ".join(ratios))
    print(f"plotly.js bundle: {bundle / 1e6:.2f} MB of the interactive page")
    print(f"import plotly.offline (cumulative us): {imports.split('|')[1].strip()}")
    if browser is None:
        print("(no Chromium: load and draw times not measured)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
