"""The bounds on untrusted input and on numeric options, stated once.

Every reader of a file the user did not write (a saved result, an evo zip, a manifest, a
``meta.json``, a transform file, a stream) stops at these bounds with a
:class:`~robot_msgs.errors.FormatError` naming the file and the bound, instead of growing
until the machine runs out of memory:

====================  ==============  ==================================================
bound                 default         what it bounds
====================  ==============  ==================================================
``max_bytes``         1 GiB           a saved result file; one zip entry (declared and
                                      read); all the entries of one zip; the bytes read
                                      from a stream (a FIFO, ``<(cmd)``), which has no
                                      size to check first
``max_document``      16 MiB          a manifest, ``meta.json``, a transform file, the
                                      JSON inside an evo zip
``max_depth``         64              nesting of JSON, TOML and YAML documents
``max_zip_entries``   10,000          entries of one zip
====================  ==============  ==================================================

``robot-msgs --max-bytes SIZE COMMAND`` raises ``max_bytes`` for one run (a result of
10^7 poses is several GiB); :func:`input_limits` does the same for library code. The
bounds are held in a :class:`contextvars.ContextVar`, so a raised bound is seen by every
reader called inside the ``with`` block and by no other thread.

Numeric options are bounded before any work (:func:`bounded_int`): ``--dpi`` from 1 to
:data:`MAX_DPI`, ``--workers`` up to :data:`WORKERS_PER_CPU` times the CPUs, ``--step``
up to :data:`MAX_STEP_FRAMES`.

WHY these numbers: 1 GiB holds the arrays of a 10^6-pose result three times over (the
``.npz`` of one is 61 MB, its JSON 280 MB) and inflates in about a second; 16 MiB is
10^3 times the largest manifest shipped; 64 levels is 8 times the deepest document the
package writes (a saved report, 7 levels); 600 dpi on the largest figure (14 x 9 in) is
45 megapixels, 180 MB of RGBA.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = [
    "MAX_DPI",
    "MAX_STEP_FRAMES",
    "WORKERS_PER_CPU",
    "InputLimits",
    "bounded_int",
    "current_limits",
    "input_limits",
    "max_workers",
    "parse_size",
]

#: The largest ``--dpi``: 600 dpi on a 14 x 9 in figure is 45 megapixels.
MAX_DPI = 600
#: ``--workers`` may be at most this many times the machine's CPUs.
WORKERS_PER_CPU = 4
#: The largest ``--step`` (frames between KITTI segment starts).
MAX_STEP_FRAMES = 10**9

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class InputLimits:
    """The bounds on untrusted input (the module's table); every field is a count > 0."""

    max_bytes: int = 1 << 30
    max_document: int = 16 << 20
    max_depth: int = 64
    max_zip_entries: int = 10_000


_DEFAULTS = InputLimits()
_LIMITS: ContextVar[InputLimits] = ContextVar("robot_msgs_input_limits", default=_DEFAULTS)


def current_limits() -> InputLimits:
    """Return the bounds in force (the defaults, or those of the innermost :func:`input_limits`).

    Examples
    --------
    >>> current_limits().max_depth
    64
    """
    return _LIMITS.get()


@contextlib.contextmanager
def input_limits(
    *,
    max_bytes: int | None = None,
    max_document: int | None = None,
    max_depth: int | None = None,
    max_zip_entries: int | None = None,
) -> Iterator[InputLimits]:
    """Raise (or lower) bounds for the readers called inside the ``with`` block.

    Examples
    --------
    >>> with input_limits(max_bytes=4 << 30) as limits:
    ...     current_limits().max_bytes == limits.max_bytes == 4 << 30
    True
    >>> current_limits().max_bytes
    1073741824
    """
    given = {
        "max_bytes": max_bytes,
        "max_document": max_document,
        "max_depth": max_depth,
        "max_zip_entries": max_zip_entries,
    }
    changes = {k: v for k, v in given.items() if v is not None}
    for name, value in changes.items():
        if value < 1:
            msg = f"{name}: expected a count > 0, got {value}"
            raise ValueError(msg)
    token = _LIMITS.set(replace(_LIMITS.get(), **changes))
    try:
        yield _LIMITS.get()
    finally:
        _LIMITS.reset(token)


def parse_size(text: str) -> int:
    """Read a size such as ``512M``, ``4G``, ``1.5GiB`` or ``1000000`` as bytes (powers of 1024).

    Raises
    ------
    argparse.ArgumentTypeError
        Not a size, or zero.

    Examples
    --------
    >>> parse_size("4G"), parse_size("512MiB"), parse_size("1000")
    (4294967296, 536870912, 1000)
    """
    match = _SIZE.fullmatch(text)
    value = float(match.group(1)) * _UNITS[match.group(2).lower()] if match else 0.0
    if not value >= 1:
        msg = f"expected a size such as 512M or 4G, got {text[:40]!r}"
        raise argparse.ArgumentTypeError(msg)
    return int(value)


def max_workers() -> int:
    """Return the most workers ``--workers`` may ask for: :data:`WORKERS_PER_CPU` per CPU.

    Examples
    --------
    >>> max_workers() >= WORKERS_PER_CPU
    True
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CPU * max(cpus or 1, 1)


def bounded_int(low: int, high: int | Callable[[], int], *, what: str) -> Callable[[str], int]:
    """Make an argparse ``type=`` that reads an integer from ``low`` to ``high``, or refuses it.

    ``high`` may be a function (read when the flag is parsed: the CPUs of this machine).
    The refusal names the bound and quotes at most 40 characters of the value.

    Examples
    --------
    >>> dpi = bounded_int(1, MAX_DPI, what="dots per inch")
    >>> dpi("300")
    300
    >>> dpi("-5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected dots per inch from 1 to 600, got -5
    """

    def parse(text: str) -> int:
        top = high() if callable(high) else high
        try:
            value = int(text.strip(), 10) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None or not low <= value <= top:
            msg = f"expected {what} from {low} to {top}, got {text[:40]}"
            raise argparse.ArgumentTypeError(msg)
        return value

    parse.__name__ = what  # argparse names the type in its "invalid ... value" message
    return parse
