"""A text stream that says it is a terminal: what users see on one, captured for tests."""

from __future__ import annotations

import io


class Terminal(io.StringIO):
    """A ``StringIO`` whose ``isatty()`` is true (progress lines, folded text)."""

    def isatty(self) -> bool:
        """Say this stream is a terminal."""
        return True
