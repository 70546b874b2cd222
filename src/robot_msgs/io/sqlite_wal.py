"""SQLite write-ahead logs: whether a ``-wal`` beside a database holds anything it lacks.

A ``.db3`` bag is read ``immutable=1``, which ignores its ``-wal``; a non-empty ``-wal``
is refused (:mod:`robot_msgs.io.bag`) unless :func:`wal_is_in_database` shows, reading
both files and writing neither, that what SQLite would read from the pair is the
database file alone: its frames were all checkpointed (copied into the file) before
the writer stopped, which leaves the log as it was (SQLite resets it at the next write,
not at the checkpoint; the count of frames copied lives in the ``-shm``, shared memory
a crash may not have written out, and is not trusted here).

The log's layout (https://www.sqlite.org/fileformat.html, "The Write-Ahead Log"): a
32-byte header (magic ``0x377f0682``/``0x377f0683``, version 3007000, page size,
checkpoint sequence, two salts, a checksum of its first 24 bytes), then frames of a
24-byte header (page number, the database's size in pages after a commit or 0, the two
salts, a cumulative checksum of the frame header's first 8 bytes and the page, chained
from the previous one) and a page. SQLite reads the frames from the first while their
salts are the header's and each checksum holds, up to the last commit frame among them;
the database it sees is the file's pages with each page replaced by its last such frame,
cut at that commit's size. When every one of those pages is the file's page, byte for
byte, and the file has that size, the log adds nothing.

That says what a log holds now, not whether a live process is about to add to it: a
recorder still running that has just checkpointed leaves a log all in the file.
:func:`shm_lock_holder` tells it from one that crashed, by asking (reading nothing,
taking no lock) whether a process holds SQLite's lock in the ``-shm``
(https://www.sqlite.org/walformat.html, "Locks"; SQLite's ``os_unix.c``): every open
connection of the unix VFS holds a shared POSIX lock on its "DMS" byte, 128 (the lock
bytes start at 120; eight slots, then DMS), which the kernel drops when the process ends,
however it ends.
"""

from __future__ import annotations

import os
import stat
import struct
import sys
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["shm_lock_holder", "wal_is_in_database"]

_HEADER = 32
_FRAME_HEADER = 24
_VERSION = 3007000
#: The largest log compared (64 MiB, 16,384 frames of 4 KiB pages: 16 times SQLite's
#: automatic checkpoint of 1000 pages); a larger one is left refused, unread.
MOST_WAL_BYTES = 64 * 2**20
_MASK = 0xFFFFFFFF
#: Bytes of frames summed at once (1024 frames of 4 KiB pages), some 8 times that in words:
#: a count of frames instead took 1024 of 64 KiB pages at once, 7 times the log's size.
_CHUNK_BYTES = 4 * 2**20
#: The byte of the ``-shm`` every open connection holds a shared lock on (SQLite's
#: ``UNIX_SHM_DMS``: the lock bytes start at 120, 8 slots, then DMS).
_SHM_DMS = 128
#: ``struct flock`` as ``fcntl(F_GETLK)`` reads and writes it: (type, whence, start,
#: length, pid) on Linux; (start, length, pid, type, whence) on macOS and the BSDs. Where
#: neither is known the lock is not asked about.
_FLOCK: str | None
if sys.platform.startswith("linux"):
    _FLOCK = "hhqqi"
elif sys.platform == "darwin" or "bsd" in sys.platform:
    _FLOCK = "qqihh"
else:
    _FLOCK = None


def _powers(n: int) -> np.ndarray:
    """Return ``M**j mod 2**32`` for ``j = 0..n``, ``M = [[1, 1], [1, 2]]``: shape (n + 1, 2, 2).

    One step of SQLite's checksum over the words ``a, b`` is ``s0 += a + s1; s1 += b +
    s0``, that is ``s <- M s + (a, a + b)``: linear, so ``k`` steps are ``M**k`` and a sum.
    """
    out = np.empty((n + 1, 2, 2), dtype=np.uint64)
    out[0] = np.eye(2, dtype=np.uint64)
    step = np.array([[1, 1], [1, 2]], dtype=np.uint64)
    for j in range(1, n + 1):
        out[j] = (step @ out[j - 1]) & _MASK
    return out


def _checksum(words: np.ndarray, start: tuple[int, int]) -> tuple[int, int]:
    """SQLite's WAL checksum of ``words`` (uint32, an even count) from ``start``."""
    s0, s1 = start
    for a, b in words.reshape(-1, 2).tolist():
        s0 = (s0 + a + s1) & _MASK
        s1 = (s1 + b + s0) & _MASK
    return s0, s1


def _frame_sums(frames: np.ndarray, order: str, powers: np.ndarray) -> np.ndarray:
    """Return each frame's checksum from a zero start, ``sum M**(m-1-k) u_k``: shape (F, 2).

    ``frames``: shape (F, 24 + page size), uint8; summed are the frame header's first 8
    bytes and the page, as 32-bit words of byte order ``order``, ``m`` pairs of them.
    """
    steps = powers.shape[0] - 1
    weights = powers[::-1][1:].transpose(1, 0, 2).reshape(2, -1)  # M**(m-1-k), k = 0..m-1
    out = np.empty((len(frames), 2), dtype=np.uint64)
    chunk = max(1, _CHUNK_BYTES // frames.shape[1])
    for at in range(0, len(frames), chunk):  # a chunk at a time: 4 words of memory per byte
        part = frames[at : at + chunk]
        summed = np.concatenate([part[:, :8], part[:, _FRAME_HEADER:]], axis=1)
        words = summed.view(order).astype(np.uint64).reshape(-1, steps, 2)
        u = np.stack([words[..., 0], (words[..., 0] + words[..., 1]) & _MASK], axis=-1)
        # uint64 products and sums wrap modulo 2**64, which keeps them right modulo 2**32
        out[at : at + chunk] = (u.reshape(len(part), -1) @ weights.T) & _MASK
    return out


def _open_file(path: Path) -> int:
    """Open ``path`` to read: a descriptor; OSError where it is not a regular file.

    WHY: a FIFO's open waits for a writer, for ever; ``O_NONBLOCK`` opens it at once,
    and the file opened (not the name, which may be swapped after a look) is checked.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        os.close(fd)
        raise
    if not regular:
        os.close(fd)
        msg = f"{path}: not a regular file"
        raise OSError(msg)
    return fd


def shm_lock_holder(db: Path) -> int | None:
    """Return the process holding ``db`` open through SQLite's ``-shm`` beside it, if any.

    Asked with ``fcntl(F_GETLK)``, which says whether a lock would conflict without
    taking one; the ``-shm`` is opened read-only and nothing is written or made (where
    this process holds it open already, that descriptor is asked and none is closed).

    Parameters
    ----------
    db : Path
        The database file (a ``.db3``); its ``-shm`` is ``db`` named with ``-shm`` added.

    Returns
    -------
    int or None
        The id of a process (0 where the kernel does not say which, e.g. one in another
        PID namespace) holding a lock on the ``-shm``'s DMS byte: an open connection, a
        recorder still running. None when no other process holds one (a crashed or
        closed writer's lock is gone with it), when there is no ``-shm`` or it is not a
        regular file, and where this cannot be asked: on Windows (no ``fcntl``; SQLite
        locks there otherwise) and on platforms whose ``struct flock`` is not known.
        Locks held by this process itself are not seen (POSIX locks are the process's).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> db = pathlib.Path(tempfile.mkdtemp()) / "t.db3"
    >>> shm_lock_holder(db) is None  # no -shm
    True
    """
    if _FLOCK is None:
        return None
    try:
        import fcntl  # noqa: PLC0415  # unix only
    except ImportError:  # pragma: no cover - Windows
        return None
    probe = (fcntl.F_WRLCK, os.SEEK_SET, _SHM_DMS, 1, 0)  # conflicts with any lock on it
    fields = probe if _FLOCK.startswith("h") else (*probe[2:], *probe[:2])
    asked = struct.pack(_FLOCK, *fields).ljust(128, b"\0")  # room for any struct flock
    shm = db.with_name(db.name + "-shm")
    held = _descriptor_of(shm)
    try:
        fd = _open_file(shm) if held is None else held
    except OSError:
        return None
    try:
        said = fcntl.fcntl(fd, fcntl.F_GETLK, asked)
    except OSError:
        return None
    finally:
        if held is None:  # closing one this process had open drops its locks on the file
            os.close(fd)
    got = struct.unpack_from(_FLOCK, said)
    kind, pid = (got[0], got[4]) if _FLOCK.startswith("h") else (got[3], got[2])
    return None if kind == fcntl.F_UNLCK else max(int(pid), 0)


def _descriptor_of(path: Path) -> int | None:
    """Return a descriptor this process already holds open on the regular file ``path``, if any.

    WHY: POSIX locks are the process's, and closing any descriptor of a file drops them
    all: opening the ``-shm`` to ask, then closing it, dropped the locks of a SQLite
    connection this process holds on it (SQLite's "How To Corrupt" 2.2.1). The
    descriptors are looked at with ``fstat`` (``/dev/fd`` lists them), none opened.
    """
    try:
        target = path.stat()
        names = os.listdir("/dev/fd")  # noqa: PTH208 - names only, as fd numbers
    except OSError:
        return None
    if not stat.S_ISREG(target.st_mode):
        return None
    for name in names:
        try:
            fd = int(name)
            seen = os.fstat(fd)
        except (OSError, ValueError):  # the listing's own descriptor, closed by now
            continue
        if (seen.st_dev, seen.st_ino) == (target.st_dev, target.st_ino):
            return fd
    return None


def wal_is_in_database(db: Path, wal: Path) -> bool:
    """Whether SQLite would read from ``db`` and ``wal`` together what ``db`` holds alone.

    Parameters
    ----------
    db : Path
        The database file (a ``.db3``).
    wal : Path
        Its write-ahead log (``.db3-wal``), not empty.

    Returns
    -------
    bool
        True when the log's committed frames are all in ``db`` already (module docstring),
        or it holds none; False when it may hold writes ``db`` lacks, or cannot be shown
        not to (unreadable, not a log, larger than :data:`MOST_WAL_BYTES`, not a regular
        file: a FIFO is refused, not waited on). Neither file is written. Whether a live
        process may add to the log is :func:`shm_lock_holder`'s question.

    Examples
    --------
    >>> import pathlib, sqlite3, tempfile
    >>> db = pathlib.Path(tempfile.mkdtemp()) / "t.db3"
    >>> writer = sqlite3.connect(db, isolation_level=None)
    >>> writer.execute("PRAGMA journal_mode=WAL").fetchone()
    ('wal',)
    >>> _ = writer.execute("CREATE TABLE m (x)")
    >>> wal_is_in_database(db, db.with_name("t.db3-wal"))  # the table: in the log only
    False
    >>> _ = writer.execute("PRAGMA wal_checkpoint")  # copied into the file; the log kept
    >>> wal_is_in_database(db, db.with_name("t.db3-wal"))
    True
    >>> writer.close()
    """
    try:
        if wal.stat().st_size > MOST_WAL_BYTES:
            return False
        # WHY a bounded read: a live recorder lengthens the log after its size is looked at
        with open(_open_file(wal), "rb") as file:
            log = file.read(MOST_WAL_BYTES + 1)
        with open(_open_file(db), "rb") as file:
            first = file.read(100)
            size = file.seek(0, 2)
    except OSError:
        return False
    if not _HEADER <= len(log) <= MOST_WAL_BYTES or len(first) < 100:
        return False
    magic, version, page_size = (int.from_bytes(log[i : i + 4], "big") for i in (0, 4, 8))
    if magic not in (0x377F0682, 0x377F0683) or version != _VERSION:
        return False
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return False
    order = ">u4" if magic & 1 else "<u4"
    start = _checksum(np.frombuffer(log, dtype=order, count=6).astype(np.uint64), (0, 0))
    if start != (int.from_bytes(log[24:28], "big"), int.from_bytes(log[28:32], "big")):
        return False
    db_page = int.from_bytes(first[16:18], "big")
    if (65536 if db_page == 1 else db_page) != page_size:
        return False
    step = _FRAME_HEADER + page_size
    count = (len(log) - _HEADER) // step
    frames = np.frombuffer(log, dtype=np.uint8, count=count * step, offset=_HEADER)
    frames = frames.reshape(count, step)
    fields = frames[:, :_FRAME_HEADER].view(">u4").astype(np.int64)  # (F, 6)
    powers = _powers(1 + page_size // 8)  # pairs of words: the header's 8 bytes, the page
    through = powers[-1].tolist()
    sums = _frame_sums(frames, order, powers).tolist()
    salts = (int.from_bytes(log[16:20], "big"), int.from_bytes(log[20:24], "big"))
    s0, s1 = start
    last_commit = -1
    for k in range(count):
        s0, s1 = (
            (through[0][0] * s0 + through[0][1] * s1 + sums[k][0]) & _MASK,
            (through[1][0] * s0 + through[1][1] * s1 + sums[k][1]) & _MASK,
        )
        page_number, pages, salt1, salt2, sum0, sum1 = fields[k].tolist()
        if (salt1, salt2) != salts or (sum0, sum1) != (s0, s1):
            break  # SQLite reads no further: this frame and the ones after are not in the log
        if pages:
            last_commit = k
    if last_commit < 0:
        return True  # no committed frame: SQLite reads the file alone
    pages = int(fields[last_commit, 1])
    if size != pages * page_size:
        return False
    newest = {int(p): k for k, p in enumerate(fields[: last_commit + 1, 0].tolist())}
    if any(not 1 <= p <= pages for p in newest):
        return False
    try:
        with open(_open_file(db), "rb") as file:
            for page_number, k in newest.items():
                file.seek((page_number - 1) * page_size)
                if file.read(page_size) != frames[k, _FRAME_HEADER:].tobytes():
                    return False
    except OSError:
        return False
    return True
