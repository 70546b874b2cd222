"""Input files read by what they are: the one road from a path to its bytes.

:func:`read_input` looks at what the path is before opening it:

- a regular file is read (all of it, its first bytes, or refused when larger than a
  bound the caller gives: a saved result, a manifest);
- a stream (a FIFO, or ``<(cmd)``, which the shell passes as ``/dev/fd/N``, a pipe) is
  opened once and read to its end, up to :attr:`~robot_msgs.limits.InputLimits.max_bytes`
  (it has no size to check first); inside :func:`kept_streams` its bytes are kept, so
  the format detection, the header check and the reader, which each read the path, all
  see the same bytes; a FIFO that no program opens to write within :data:`FIFO_WAIT_S`
  is refused (its open would wait for ever);
- a device (``/dev/zero``, ``/dev/urandom``, a terminal), a socket or anything else is
  refused without being opened: it has no end, or reading it does something.

WHY the kept bytes: a stream's bytes can be read once only. A FIFO opened once for the
format detection's 64 bytes and again for the data gave the reader what was left after
the first open (the detection's read consumed the pipe), so ``<(cat file)`` was read as
an empty or garbled file. Keeping them is the only way every reader of the path gets
them. They are kept for one piece of work, not for the process: :func:`kept_streams`
opens a scope (``read_trajectory`` and a command-line command each run in one), keyed by
the stream's device and inode; outside any scope a pipe is read anew each time, so a
FIFO written again by a new writer is read again.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import FormatError
from robot_msgs.limits import current_limits, raised_with

if TYPE_CHECKING:
    import threading
    from collections.abc import Iterator

__all__ = [
    "BAGS_KEPT_OPEN",
    "FIFO_WAIT_S",
    "KeptBag",
    "bags_kept",
    "bags_opened_once",
    "check_input_kind",
    "close_unused_bags",
    "kept_streams",
    "mode_kind",
    "named_open_error",
    "read_input",
    "stream_kind",
    "too_large",
]

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_PIECE = 1 << 20
#: How long opening a FIFO waits for a program to open it to write, seconds; then refused.
FIFO_WAIT_S = 30.0
_KEPT: ContextVar[dict[tuple[int, int], bytes] | None] = ContextVar(
    "robot_msgs_kept_streams", default=None
)


@contextlib.contextmanager
def kept_streams() -> Iterator[None]:
    """Keep the bytes of every pipe read inside the block, for the other readers of its path.

    Nested blocks share the outermost one's bytes; they are dropped when it ends.

    Examples
    --------
    >>> with kept_streams():
    ...     pass
    """
    if _KEPT.get() is not None:
        yield
        return
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


#: The most bags a :func:`bags_opened_once` block keeps open that no caller reads now: a
#: reference and an estimate, or a few FILEs of ``traj``, are each opened once, and more
#: are opened again (least recently used closed first) rather than all held to the end.
BAGS_KEPT_OPEN = 4


class KeptBag:
    """A bag kept open in a :func:`bags_opened_once` block.

    ``reader`` is what :func:`robot_msgs.io.bag.open_bag` yields, ``opened`` the path
    rosbags opened, ``closer`` closes it, and ``users`` counts the callers reading it now
    (a bag read is never closed under them). WHY no dataclass: this module is imported by
    ``ape --help``, which imports no ``dataclasses`` (``inspect``, ``ast``: 7 ms;
    ``tests/cli/test_ape_imports.py``).
    """

    __slots__ = ("closer", "opened", "reader", "users")

    def __init__(
        self, *, reader: Any, opened: Path, closer: contextlib.ExitStack, users: int = 0
    ) -> None:
        self.reader = reader
        self.opened = opened
        self.closer = closer
        self.users = users


#: The bags open in the current :func:`bags_opened_once` block, by real path, least
#: recently used first; ``None`` outside one.
_BAGS: ContextVar[dict[str, KeptBag] | None] = ContextVar(
    "robot_msgs_bags_opened_once", default=None
)


@contextlib.contextmanager
def bags_opened_once() -> Iterator[None]:
    """Open each bag read inside the block once: every later reader of it shares its reader.

    WHY: choosing a bag's pose topic, listing its topics, its first fix and its read each
    opened it (``traj BAG`` 3 times, ``ape BAG BAG --ref-topic A --est-topic B`` 4), and
    the open is what costs (a ROS 1 bag's index and chunk infos read, SQLite's integrity
    check of up to :data:`~robot_msgs.io.bag.SQLITE_CHECK_S`). The bags are closed when the
    outermost block ends. A pipe's bytes are kept so for a whole command
    (:func:`kept_streams`); a bag only while one set of inputs is read
    (:func:`~robot_msgs.io.read_inputs`, ``robot-msgs traj``), or a batch's bags would all
    stay open to its end, and of those no more than :data:`BAGS_KEPT_OPEN` that no caller
    reads: ``traj`` of 40 bags held 40 readers, each with its index in memory (257 MB
    peak RSS for 40 copies of evo's 3.7 MB ``ROS_example.bag``, 74 MB one at a time).

    Examples
    --------
    >>> with bags_opened_once():
    ...     pass
    """
    if _BAGS.get() is not None:
        yield
        return
    kept: dict[str, KeptBag] = {}
    token = _BAGS.set(kept)
    try:
        yield
    finally:
        _BAGS.reset(token)
        with contextlib.ExitStack() as stack:  # each closed, should one close raise
            for bag in kept.values():
                stack.callback(bag.closer.close)
            kept.clear()


def bags_kept() -> dict[str, KeptBag] | None:
    """Return the bags open in the current :func:`bags_opened_once` block (None outside one).

    By real path, least recently used first: :func:`robot_msgs.io.bag.open_bag` moves a
    bag it hands out to the end, and closes the first unused ones with
    :func:`close_unused_bags`.
    """
    return _BAGS.get()


def close_unused_bags(kept: dict[str, KeptBag], *, room: int = 0) -> None:
    """Close the least recently used bags of ``kept`` that no caller reads.

    As many as leave :data:`BAGS_KEPT_OPEN` open, less ``room`` (1: before another opens).
    """
    unused = [key for key, bag in kept.items() if not bag.users]
    for key in unused[: max(0, len(kept) + room - BAGS_KEPT_OPEN)]:
        kept.pop(key).closer.close()


def mode_kind(mode: int) -> str:
    """Name what a ``stat`` mode is, for a message: ``a character device``, ``a directory``...

    Examples
    --------
    >>> mode_kind(os.stat("/dev/null").st_mode), mode_kind(os.stat("/").st_mode)
    ('a character device', 'a directory')
    """
    for test, what in (
        (stat.S_ISREG, "a file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISFIFO, "a pipe (FIFO)"),
    ):
        if test(mode):
            return what
    return "neither a file nor a pipe"


def stream_kind(path: str | os.PathLike[str]) -> str | None:
    """Say what ``path`` is when not a regular file or folder (``a pipe (FIFO)``...), else None.

    Missing paths and paths that cannot be looked at give None: the reader says why.

    Examples
    --------
    >>> stream_kind("/dev/null")
    'a character device'
    >>> import tempfile; stream_kind(tempfile.mkdtemp()) is None
    True
    """
    try:
        mode = Path(path).stat().st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return mode_kind(mode)


def check_input_kind(path: str | os.PathLike[str], *, source: str | None = None) -> None:
    """Refuse a device, a socket or anything but a file, a folder or a pipe, without opening it.

    Raises
    ------
    FormatError
        ``path`` is a character or block device, a socket or another special file; the
        message says which.

    Examples
    --------
    >>> check_input_kind("/dev/zero")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: /dev/zero: is a character device, not a file: refusing ...
    """
    kind = stream_kind(path)
    if kind is not None and kind != "a pipe (FIFO)":
        shown = str(path) if source is None else source
        msg = (
            f"{shown}: is {kind}, not a file: refusing to read it "
            "(give a file, or a pipe such as <(cmd))"
        )
        raise FormatError(msg)


def read_input(
    path: str | os.PathLike[str] | Path,
    *,
    source: str | None = None,
    limit: int | None = None,
    head: int | None = None,
    document: bool = False,
) -> bytes:
    """Read the bytes of the input ``path`` by what it is (see the module).

    Parameters
    ----------
    path : path-like
        A regular file or a pipe.
    source : str, optional
        The file as messages name it (default ``str(path)``).
    limit : int, optional
        The most bytes the file may hold; by default a regular file is not bounded and a
        pipe is bounded by ``max_bytes`` (:mod:`robot_msgs.limits`).
    head : int, optional
        Return only the first ``head`` bytes (a pipe is still read whole, once).
    document : bool
        A document (a manifest, ``meta.json``, a transform file): bounded by
        ``max_document`` instead of ``limit``, and its error says how to raise that bound.

    Raises
    ------
    FileNotFoundError, IsADirectoryError, PermissionError
        No such file, a folder, no permission; the message names ``source``.
    FormatError
        A device, a socket or another special file; more bytes than ``limit``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = file.write_bytes(b"0123456789")
    >>> read_input(file, head=4), read_input(file)
    (b'0123', b'0123456789')
    >>> read_input(file, limit=5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: .../a.txt: is 10 bytes, more than the 5 bytes read from one...
    """
    shown = str(path) if source is None else source
    if document:
        limit = current_limits().max_document
    check_input_kind(path, source=shown)
    kept = _kept_stream(path)
    if kept is not None:  # read before: a FIFO with no writer left would block on open
        return kept if head is None else kept[:head]
    try:
        fd = _open(path, shown)
    except FileNotFoundError as err:
        msg = f"{shown}: no such file"
        raise FileNotFoundError(errno.ENOENT, msg) from err
    except IsADirectoryError as err:
        msg = f"{shown}: is a directory"
        raise IsADirectoryError(errno.EISDIR, msg) from err
    except PermissionError as err:
        msg = f"{shown}: cannot read it: permission denied"
        raise PermissionError(errno.EACCES, msg) from err
    except FormatError:  # a FIFO no program opened to write: said by _open_fifo
        raise
    except ValueError as err:  # an embedded NUL byte
        msg = f"{shown!r}: not a valid path ({err})"
        raise FormatError(msg) from err
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            msg = f"{shown}: is a directory"
            raise IsADirectoryError(errno.EISDIR, msg)
        if stat.S_ISREG(info.st_mode):
            if limit is not None and info.st_size > limit and (head is None or head > limit):
                raise too_large(shown, f"is {info.st_size} bytes", limit, document=document)
            with open(fd, "rb", closefd=False) as handle:
                return handle.read(head)  # None: to the end
        if not stat.S_ISFIFO(info.st_mode):  # swapped after the check: refuse it still
            msg = f"{shown}: is {mode_kind(info.st_mode)}, not a file: refusing to read it"
            raise FormatError(msg)
        bound = current_limits().max_bytes if limit is None else limit
        data = _read_stream(fd, shown, bound, document=document)
        return data if head is None else data[:head]
    finally:
        os.close(fd)


def named_open_error(
    err: FileNotFoundError | IsADirectoryError, source: str, *, what: str
) -> OSError:
    """Say ``err`` in one plain sentence (no ``[Errno N]``): ``source``, and ``what`` it is not.

    Examples
    --------
    >>> named_open_error(IsADirectoryError(21, "x"), "runs/", what="a zip file")
    IsADirectoryError('runs/: is a directory, not a zip file')
    """
    if isinstance(err, IsADirectoryError):
        msg = f"{source}: is a directory, not {what}"
        return IsADirectoryError(msg)
    msg = f"{source}: no such file"
    return FileNotFoundError(msg)


def _open(path: str | os.PathLike[str], shown: str) -> int:
    """Open ``path`` for reading; a FIFO with no writer yet says so on a terminal while it waits.

    Opening a FIFO waits for its writer (a program started later may be the one); that
    wait was silent, so a FIFO nobody writes to looked like a hang. After 2 s it is named
    on a terminal (:class:`~robot_msgs.progress.Stage`), Ctrl-C ends it, and after
    :data:`FIFO_WAIT_S` it is refused (:func:`_open_fifo`).
    """
    try:
        is_fifo = stat.S_ISFIFO(Path(path).stat().st_mode)
    except (OSError, ValueError):
        is_fifo = False  # os.open below says what is wrong
    if not is_fifo:
        return os.open(path, os.O_RDONLY | _CLOEXEC | _NOCTTY)
    import sys  # noqa: PLC0415 - only for a FIFO

    from robot_msgs.progress import Stage  # noqa: PLC0415

    with Stage(
        f"{shown}: waiting for a program to write into this FIFO (Ctrl-C stops)", stream=sys.stderr
    ):
        return _open_fifo(path, shown)


def _open_fifo(path: str | os.PathLike[str], shown: str) -> int:
    """Open the FIFO ``path`` once a program opens it to write, or refuse after FIFO_WAIT_S.

    WHY a thread: the open itself blocks until a writer comes, and nothing bounds it (a
    FIFO nobody writes to hung every text reader, the manifest and transform readers,
    for ever, no error in a batch or CI). The open runs in a thread the caller waits for;
    when no writer came in time (or Ctrl-C), the FIFO is opened to write here, which
    ends the thread's open, and closed again. Once a writer is there, reading waits for
    it as for any pipe.

    WHY not refused at once: a non-blocking open tells only that no writer is there yet
    (a read gives ``b""``, as for a writer gone without writing), and a writer started
    after the reader is a normal use (measured: writers 3 s and 10 s late read in full).
    ``<(cmd)`` is an anonymous pipe, whose open Linux never makes wait (fs/pipe.c).
    """
    import threading  # noqa: PLC0415 - only for a FIFO

    opened: list[int] = []
    failed: list[OSError] = []

    def open_it() -> None:
        try:
            opened.append(os.open(path, os.O_RDONLY | _CLOEXEC | _NOCTTY))
        except OSError as err:
            failed.append(err)

    thread = threading.Thread(target=open_it, name="robot_msgs-fifo-open", daemon=True)
    thread.start()
    try:
        thread.join(FIFO_WAIT_S)
    finally:
        waited = thread.is_alive()
        if waited:
            _release_fifo(path, thread)
    if failed:
        raise failed[0]
    if waited or not opened:
        for fd in opened:
            os.close(fd)
        msg = (
            f"{shown}: is a pipe (FIFO) that no program opened to write within "
            f"{FIFO_WAIT_S:g} s: refusing to wait longer (start the writer first, or give a file)"
        )
        raise FormatError(msg)
    return opened[0]


def _release_fifo(path: str | os.PathLike[str], thread: threading.Thread) -> None:
    """End ``thread``'s open of the FIFO ``path`` by opening it to write and closing it."""
    for _ in range(500):  # ENXIO until the thread's open counts as a reader: ms at most
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK | _CLOEXEC))
        except OSError:
            thread.join(0.01)
        else:
            thread.join(1.0)
        if not thread.is_alive():
            return


def too_large(shown: str, got: str, limit: int, *, document: bool = False) -> FormatError:
    """Say that ``shown`` is past ``limit`` bytes, and how a caller raises that bound."""
    bound = raised_with("max_document" if document else "max_bytes")
    msg = (
        f"{shown}: {got}, more than the {limit} bytes read from one input; if it is what "
        f"you meant, raise the bound ({bound})"
    )
    return FormatError(msg)


def _kept_stream(path: str | os.PathLike[str]) -> bytes | None:
    kept = _KEPT.get()
    if not kept:
        return None
    try:
        info = Path(path).stat()
    except (OSError, ValueError):
        return None
    return kept.get((info.st_dev, info.st_ino)) if stat.S_ISFIFO(info.st_mode) else None


def _read_stream(fd: int, shown: str, bound: int, *, document: bool = False) -> bytes:
    pieces: list[bytes] = []
    size = 0
    while piece := os.read(fd, _PIECE):
        size += len(piece)
        if size > bound:
            raise too_large(shown, "a stream", bound, document=document)
        pieces.append(piece)
    data = b"".join(pieces)
    kept = _KEPT.get()
    if kept is not None:
        info = os.fstat(fd)
        kept[(info.st_dev, info.st_ino)] = data
    return data
