"""A minimal DevTools-protocol client over ``--remote-debugging-pipe`` for headless Chromium.

The browser reads JSON commands (NUL-terminated) from fd 3 and writes replies and events to
fd 4. Only what the HTML report test needs: open a page, collect network requests, console
messages and exceptions, evaluate an expression, take a full-page screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--metrics-recording-only",
    "--remote-debugging-pipe",
)


def find_chromium() -> str | None:
    """Debian's ``chromium`` (or another Chromium/Chrome on PATH), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class Browser:
    """One headless Chromium with a fresh profile, driven through the DevTools pipe."""

    def __init__(
        self, executable: str, profile: Path, *, width: int = 1280, height: int = 900
    ) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # The child must see the pipe ends as fds 3 and 4.
        # The executable is the Chromium found on PATH; preexec_fn is the only way to place
        # the pipe on fds 3 and 4 (the test process runs no other threads).
        self.proc = subprocess.Popen(  # noqa: S603
            [
                executable,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(3, 4),
            preexec_fn=_dup_to(to_browser_r, from_browser_w),  # noqa: PLW1509
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    # ------------------------------------------------------------------ protocol

    def send(
        self, method: str, params: dict[str, Any] | None = None, *, timeout: float = 30.0
    ) -> dict[str, Any]:
        """Send a command (on the attached page session, if any) and wait for its reply."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if self.session is not None and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    msg = f"{method}: {reply['error']}"
                    raise RuntimeError(msg)
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str, *, timeout: float = 30.0) -> dict[str, Any]:
        """Wait for an event ``method`` (already received ones count)."""
        for event in self.events:
            if event.get("method") == method:
                return event
        deadline = time.monotonic() + timeout
        while True:
            event = self._read(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def drain(self, seconds: float) -> None:
        """Collect events for ``seconds`` more (late console messages, requests)."""
        deadline = time.monotonic() + seconds
        while (event := self._read_or_none(deadline)) is not None:
            self.events.append(event)

    def _read_or_none(self, deadline: float) -> dict[str, Any] | None:
        try:
            return self._read(deadline)
        except TimeoutError:
            return None

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                msg = "no message from Chromium in time"
                raise TimeoutError(msg)
            ready, _, _ = select.select([self._from_browser], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                msg = f"Chromium closed the DevTools pipe: {err[-2000:]}"
                raise RuntimeError(msg)
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    # ------------------------------------------------------------------ page helpers

    def open_page(self) -> None:
        """Create a page target, attach to it, and enable the domains that report problems."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    def navigate(self, url: str, *, timeout: float = 60.0) -> None:
        """Load ``url`` and wait for its load event."""
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.send("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired", timeout=timeout)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result["result"].get("value")

    def screenshot(self, width: int, *, resize: bool = True) -> bytes:
        """A PNG of the whole page, ``width`` CSS pixels wide.

        ``resize=False`` keeps the viewport as it is (a page already shown whole keeps
        its hover labels, which a resize would clear).
        """
        height = int(self.evaluate("document.documentElement.scrollHeight"))
        if resize:
            self.send(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            )
        shot = self.send(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, timeout=60.0
        )
        return base64.b64decode(shot["data"])

    def requests(self) -> list[str]:
        """URLs of every request the page made."""
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e.get("method") == "Network.requestWillBeSent"
        ]

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, and log entries at error level."""
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in {
                "error",
                "warning",
                "assert",
            }:
                out.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                out.append(f"exception: {params.get('exceptionDetails')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in {
                "error",
                "warning",
            }:
                entry = params["entry"]
                out.append(
                    f"log {entry.get('level')}: {entry.get('text')} ({entry.get('url', '')})"
                )
            elif method == "Network.loadingFailed":
                out.append(f"loading failed: {params}")
        return out

    def close(self) -> None:
        """Close the browser and reap it."""
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.send("Browser.close", timeout=5.0)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        if self.proc.stderr:
            self.proc.stderr.close()


def _dup_to(read_end: int, write_end: int) -> Callable[[], None]:
    def child() -> None:
        # dup both first (the originals may themselves be 3 or 4), then place them.
        r, w = os.dup(read_end), os.dup(write_end)
        os.dup2(r, 3)
        os.dup2(w, 4)

    return child
