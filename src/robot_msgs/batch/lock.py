"""One client per output folder: an exclusive lock held while a sweep runs.

WHY: two clients on one folder duplicated all the work (855 evaluations for 600 runs
with ``--resume`` on both, measured), and without ``--resume`` the second failed after
computing everything, with a misleading "pass --force". Now the second is refused
before it reads a run.

The lock is ``OUT/.bench.lock``, held with ``flock`` on an open descriptor for as long
as the sweep runs. The kernel drops it when the process ends, however it ends (``kill
-9``, the OOM killer), so a lock nobody holds is stale by definition, with no guess from
process ids: the next sweep takes it over and says whose it was. A clean release
deletes the file while still holding the lock, so a sweep leaves nothing behind; the race
this opens (a client that opened the file just before it was deleted, then locks the
deleted file) is closed in :meth:`FolderLock.acquire`: holding the lock, a client checks
that the path still names the file it locked, and opens it again if not. Only a killed
client's lock file stays, naming its owner.

On a network file system the lock is as good as the file system's locks: NFSv4 maps
``flock`` to its byte-range locks, seen by every client; an NFS mount with ``nolock`` or
a file system without locks (some FUSE mounts) makes it local to one machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.errors import FolderLockedError

if TYPE_CHECKING:
    from types import TracebackType

    from typing_extensions import Self

if sys.platform != "win32":  # no flock on Windows: the lock is not taken there
    import fcntl

__all__ = ["LOCK_NAME", "FolderLock", "lock_owner"]

#: The lock file, in the output folder.
LOCK_NAME = ".bench.lock"
_MAX_LOCK_BYTES = 4096  # what it holds is one short JSON line
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` names the file open as ``fd`` (not deleted or replaced since)."""
    try:
        held, named = os.fstat(fd), path.stat()
    except OSError:
        return False
    return (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)


def _owner_text(raw: bytes) -> str:
    """Say who wrote a lock file (``pid 12 on host, since 2026-01-02 10:00:00``)."""
    try:
        owner = json.loads(raw.decode("utf-8"))
        return (
            f"pid {int(owner['pid'])} on {str(owner['host'])[:100]}, "
            f"since {str(owner['started'])[:40]}"
        )
    except (ValueError, KeyError, TypeError, RecursionError):  # 2000 nested brackets fit
        return "an unknown process (the lock file does not say)"


def lock_owner(folder: str | os.PathLike[str]) -> str | None:
    """Say who took the lock of ``folder``, held or left (``None``: no lock file, or released).

    A sweep that ended deletes its lock file (or empties it); one that was killed leaves
    it, naming its process; a running one holds it.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> lock_owner(folder) is None
    True
    >>> with FolderLock(folder):
    ...     lock_owner(folder)  # doctest: +ELLIPSIS
    'pid ... on ..., since ...'
    """
    path = Path(folder) / LOCK_NAME
    if not path.is_file():  # a FIFO there would block the open
        return None
    try:
        with path.open("rb") as handle:
            raw = handle.read(_MAX_LOCK_BYTES)
    except OSError:
        return None
    return _owner_text(raw) if raw.strip() else None


class FolderLock:
    """The exclusive lock on a sweep's output folder, as a context manager.

    Parameters
    ----------
    folder : path-like
        The output folder (it must exist).

    Raises
    ------
    FolderLockedError
        On :meth:`acquire`: another process holds the lock; the message names it.
    OutputPathError
        On :meth:`acquire`: the lock file cannot be created (a read-only folder).

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with FolderLock(folder) as held:
    ...     FolderLock(folder).acquire()
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FolderLockedError: ... is in use by another sweep (pid ...
    >>> FolderLock(folder).acquire() is None  # released: taken again, nothing to say
    True
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.path = Path(folder) / LOCK_NAME
        #: What :meth:`acquire` said when it took over a killed client's lock ("" if not).
        self.taken_over = ""
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> str | None:
        """Take the lock; return a message when it took over a killed client's lock.

        Holding it already is fine (nothing happens).
        """
        if self._fd is not None or sys.platform == "win32":
            return None
        from robot_msgs.files import _named  # noqa: PLC0415 - the one wording of write errors

        while True:  # again only when a releasing client deleted the file just locked
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | _CLOEXEC, 0o644)
            except OSError as err:
                raise _named(err, self.path) from err
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as err:
                owner = _owner_text(os.pread(fd, _MAX_LOCK_BYTES, 0))
                os.close(fd)
                msg = (
                    f"{self.path.parent} is in use by another sweep ({owner}; lock "
                    f"{self.path}): one client per output folder; wait for it to end or "
                    "stop it, or give another --out"
                )
                raise FolderLockedError(msg) from err
            if _same_file(fd, self.path):
                break
            os.close(fd)
        try:
            left = os.pread(fd, _MAX_LOCK_BYTES, 0)
            mine = {
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "started": time.strftime("%Y-%m-%d %H:%M:%S"),
            }
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(mine) + "\n").encode(), 0)
        except OSError as err:
            os.close(fd)
            raise _named(err, self.path) from err
        self._fd = fd
        if left.strip():
            self.taken_over = (
                f"took over the lock of {self.path.parent} left by {_owner_text(left)}, "
                "which no longer holds it (killed?)"
            )
            return self.taken_over
        return None

    def release(self) -> None:
        """Delete the lock file and drop the lock (a no-op when not held)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):  # deleted while held: see the module docstring
            if _same_file(fd, self.path):
                self.path.unlink()
        with contextlib.suppress(OSError):  # if it could not be deleted, it is emptied
            os.ftruncate(fd, 0)
        os.close(fd)  # drops the lock

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
