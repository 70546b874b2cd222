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
10^7 poses is several GiB), ``--max-document SIZE`` raises ``max_document``;
:func:`input_limits` does the same for library code. The
bounds are held in a :class:`contextvars.ContextVar`, so a raised bound is seen by every
reader called inside the ``with`` block and by no other thread.

Numeric options are bounded as the command line is parsed (:func:`bounded_int`): ``--dpi`` from 1 to
:data:`MAX_DPI`, ``--workers`` up to :data:`WORKERS_PER_CPU` times the CPUs, ``--step``
up to :data:`MAX_STEP_FRAMES` (as its settings field declares it).

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
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = [
    "MAX_DPI",
    "MAX_RETRIES",
    "MAX_STEP_FRAMES",
    "POSITION_LIMIT_M",
    "WORKERS_PER_CPU",
    "InputLimits",
    "bounded_int",
    "check_dpi",
    "current_limits",
    "dpi_flag",
    "input_limits",
    "max_workers",
    "parse_size",
    "raised_with",
    "retries_flag",
    "usable_cpus",
    "workers_flag",
]

#: Largest coordinate of a position or point, metres (trajectories and the metrics).
#: WHY: errors are norms of differences and statistics means of squares; past about
#: 1e154 a square is inf, and an infinite error would be left out of the statistics as
#: a missing one. 1e150 keeps every squared distance (of up to a thousand dimensions)
#: and a mean of 10^7 of them finite (no robot is 1e150 m from anything).
POSITION_LIMIT_M = 1e150
#: The largest ``--dpi``: 600 dpi on a 14 x 9 in figure is 45 megapixels.
MAX_DPI = 600
#: ``--workers`` may be at most this many times the machine's CPUs.
WORKERS_PER_CPU = 4
#: The largest ``--step`` (frames between KITTI segment starts).
MAX_STEP_FRAMES = 10**9
#: The largest ``--retries`` (evaluations of one run after its worker died).
MAX_RETRIES = 100

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE | re.ASCII)


class InputLimits(NamedTuple):
    """The bounds on untrusted input (the module's table); every field is a count > 0.

    A named tuple, not a dataclass: every command imports this module to parse its flags,
    and ``dataclasses`` imports ``inspect`` (with ``ast``, ``dis``, ``tokenize``: ~8 ms a
    start for ``--help``, which loads no NumPy).
    """

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
    token = _LIMITS.set(_LIMITS.get()._replace(**changes))
    try:
        yield _LIMITS.get()
    finally:
        _LIMITS.reset(token)


def raised_with(bound: str) -> str:
    """Say how a caller raises ``bound``, a field of :class:`InputLimits`, in an error.

    The library names the call (the command line says its flag instead:
    :func:`robot_msgs.cli._flag_text.flags_in_text`). WHY: readers called from Python
    were told ``robot-msgs --max-bytes SIZE``, a flag a Python caller cannot pass.

    Examples
    --------
    >>> raised_with("max_document")
    '`robot_msgs.limits.input_limits(max_document=...)`'
    """
    return f"`robot_msgs.limits.input_limits({bound}=...)`"


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


def usable_cpus() -> int:
    """Count the CPUs this process may use (``os.sched_getaffinity`` where it exists).

    Examples
    --------
    >>> usable_cpus() >= 1
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


def max_workers() -> int:
    """Return the most workers ``--workers`` may ask for: :data:`WORKERS_PER_CPU` per CPU.

    Examples
    --------
    >>> max_workers() >= WORKERS_PER_CPU
    True
    """
    return WORKERS_PER_CPU * usable_cpus()


def bounded_int(low: int, high: int | Callable[[], int], *, what: str) -> type[argparse.Action]:
    """Make an argparse action that refuses an integer outside ``low`` .. ``high``.

    Used with ``type=int``: the value is checked as the command line is parsed, before
    any work, and refused with a :class:`~robot_msgs.errors.UsageError` naming the
    flag (one ``ERROR:`` line, exit status 2, as argparse's for a value that is no
    integer). ``high`` may be a function, read then (the CPUs of this machine).

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--dpi", type=int, action=bounded_int(1, 600, what="dpi"))
    >>> parser.parse_args(["--dpi", "300"]).dpi
    300
    >>> parser.parse_args(["--dpi", "-5"])
    Traceback (most recent call last):
    ...
    robot_msgs.errors.UsageError: --dpi -5: expected dpi from 1 to 600, got -5
    """

    class Bounded(argparse.Action):
        def __call__(
            self,
            parser: argparse.ArgumentParser,
            namespace: argparse.Namespace,
            values: object,
            option_string: str | None = None,
        ) -> None:
            del parser
            top = high() if callable(high) else high
            if not isinstance(values, int) or not low <= values <= top:
                from robot_msgs.errors import UsageError  # noqa: PLC0415

                shown = str(values)[:40]
                reason = f"expected {what} from {low} to {top}, got {shown}"
                msg = f"{option_string} {shown}: {reason}"
                raise UsageError(msg, field=self.dest, reason=reason)
            setattr(namespace, self.dest, values)

    return Bounded


#: argparse ``action=`` of ``--dpi`` (with ``type=int``): 1 to :data:`MAX_DPI`.
dpi_flag = bounded_int(1, MAX_DPI, what="a resolution in dots per inch")
#: argparse ``action=`` of ``--workers``: 1 to :func:`max_workers`.
workers_flag = bounded_int(1, max_workers, what="a count of workers")
#: argparse ``action=`` of ``--retries``: 0 to :data:`MAX_RETRIES`.
retries_flag = bounded_int(0, MAX_RETRIES, what="a count of retries")


def check_dpi(dpi: int | None) -> None:
    """Refuse a resolution outside 1 .. :data:`MAX_DPI` (``None``: the default) before drawing.

    Raises
    ------
    ValidationError
        ``dpi`` is not an integer in bounds; the message names ``dpi=``.

    Examples
    --------
    >>> check_dpi(150)
    >>> check_dpi(1_000_000)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: `dpi=1000000`: expected a resolution from 1 to 600 dots ...
    """
    if dpi is None:
        return
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 1 <= dpi <= MAX_DPI:
        from robot_msgs.errors import ValidationError  # noqa: PLC0415

        reason = f"expected a resolution from 1 to {MAX_DPI} dots per inch"
        msg = f"`dpi={dpi!r:.40}`: {reason}"
        raise ValidationError(msg, field="dpi", reason=reason)
