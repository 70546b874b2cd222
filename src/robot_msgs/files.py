"""Files: output that respects what is there (documents are read by :mod:`robot_msgs.documents`).

:func:`write_atomic` writes by what the path is:

- ``-`` is standard output: the data is written there.
- A character device or a FIFO (``/dev/stdout``, ``/dev/null``, a named pipe) is written
  into, never replaced; it needs no ``force``, as nothing is clobbered.
- A symbolic link is written through: its target is replaced atomically, the link stays.
- A regular file, or nothing, is replaced atomically: readers see the old file or the
  new, never half. The data goes to a hidden ``.NAME.K.tmp`` beside the target (K = 0,
  1, ... the first free), flushed to disk, then renamed over the target. The writer
  holds an advisory lock (``flock``) on it while writing, which the kernel drops when the
  process dies, so the next write to the same target tells a killed process's leftover
  (unlocked) from a live writer's (locked) and removes it.
- Anything else (a folder, a block device, a socket) is refused.

:func:`open_atomic` does the same for a file written in pieces (a results table streamed
row group by row group): the pieces go to the locked temporary, which replaces the target
only when the ``with`` block ends without an error.

Errors name the target, never the temporary file. :func:`check_outputs` refuses a set
of output paths before any work: the same file twice, a folder that is missing or not
writable, a file that exists without ``force``.

WHY a named temporary file and not Linux's anonymous ``O_TMPFILE`` (which a killed
process cannot leave behind): linking it into place goes through ``/proc/self/fd``,
which answers EXDEV in containers such as our CI's, or through ``linkat(AT_EMPTY_PATH)``,
which needs CAP_DAC_READ_SEARCH; the named file is the road that must be right anyway,
and its leftovers are swept by the rule above.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from robot_msgs.errors import (
    OutputExistsError,
    OutputPathError,
    RobotMsgsError,
    UsageError,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

if sys.platform != "win32":  # Windows has no flock: there leftovers are not swept
    import fcntl

__all__ = [
    "STDOUT",
    "check_folder",
    "check_outputs",
    "open_atomic",
    "sweep_temporaries",
    "write_atomic",
]

#: The path that means standard output.
STDOUT = "-"

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_MAX_TEMPORARIES = 64
_REASONS = {
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on the device",
    getattr(errno, "EDQUOT", -1): "disk quota exceeded",
}


def _named(err: OSError, target: object, action: str = "write") -> OSError:
    """``err`` again, its message naming ``target`` (not a temporary file) and the reason."""
    reason = _REASONS.get(err.errno or 0, err.strerror or str(err))
    if err.errno in (errno.EACCES, errno.EPERM):
        reason += f" in {Path(str(target)).parent or '.'}"
    named = type(err)(f"{target}: cannot {action} it: {reason}")
    named.errno = err.errno
    setattr(named, _NAMED, str(target))  # a mark no OSError declares
    return named


#: The attribute :func:`_named` marks its errors with (the file they name): an error that
#: names its file passes another file's writer unchanged (see :func:`open_atomic`).
_NAMED = "_robot_msgs_names"


def _names_a_file(err: OSError) -> bool:
    """Whether ``err`` already names the file it is about: ours, or :func:`_named`'s."""
    return isinstance(err, RobotMsgsError) or hasattr(err, _NAMED)


def _file_above(path: Path) -> Path | None:
    """Return the nearest existing parent of ``path`` if it is not a folder (a file in the way)."""
    for parent in path.absolute().parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None  # pragma: no cover - the root exists


def _exists(path: Path, kind: str, real: Path) -> str:
    """Say why ``path`` is not replaced without ``--force``, and what is there."""
    if kind == "link":  # a dangling link: nothing to overwrite, but the path is taken
        return (
            f"{path} exists: a symbolic link to {real}, which does not exist yet; "
            "pass `force=True` to write through the link"
        )
    return f"{path} exists; pass `force=True` to overwrite it"


def _kind(target: Path) -> tuple[str, Path]:
    """Classify ``target`` and return the path to write: ``missing``, ``file`` or ``stream``.

    A symbolic link is followed to its target (a dangling link is ``link`` to the path
    it points at). Refuses folders, block devices and sockets.
    """
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        if target.is_symlink():
            return "link", Path(os.path.realpath(target))
        return "missing", target
    except NotADirectoryError as err:  # a file where a folder should be
        blocking = _file_above(target)
        if blocking is None:  # pragma: no cover - a race: the file went away
            raise _named(err, target) from err
        msg = f"{target}: cannot write it: {blocking} is a file, not a folder"
        raise OutputPathError(msg) from err
    except OSError as err:  # a loop of links
        raise _named(err, target) from err
    if stat.S_ISREG(mode):
        return "file", Path(os.path.realpath(target)) if target.is_symlink() else target
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "stream", target
    from robot_msgs.io.bounded import mode_kind  # noqa: PLC0415 - io imports this module

    msg = f"{target}: is {mode_kind(mode)}: refusing to write it; give the path of a file"
    raise OutputPathError(msg)


def write_atomic(
    path: str | os.PathLike[str], data: str | bytes | bytearray, *, force: bool = False
) -> Path:
    r"""Write ``data`` to ``path`` by what the path is (see the module): never half a file.

    Parameters
    ----------
    path : path-like
        The file to write, ``-`` for standard output, a device or FIFO to write into, or
        a symbolic link to write through. Missing folders are created.
    data : str, bytes or bytearray
        The whole content (``str`` is written as UTF-8; a ``bytearray`` as it is, so a
        big text built in one need not be copied).
    force : bool
        Replace an existing file (or the target of a link); without it one raises.
        Streams (``-``, devices, FIFOs) need none.

    Returns
    -------
    Path
        The path written, as given.

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false; nothing is written.
    OutputPathError
        ``path`` is a folder, a block device or a socket.
    OSError
        The write failed; the message names ``path`` and the reason.

    Examples
    --------
    >>> import tempfile
    >>> out = write_atomic(Path(tempfile.mkdtemp()) / "sub" / "a.txt", "one\n")
    >>> write_atomic(out, "two\n")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.OutputExistsError: ... exists; pass `force=True` to overwrite it
    >>> write_atomic(out, "two\n", force=True).read_text()
    'two\n'
    >>> _ = write_atomic("-", "to standard output\n")
    to standard output
    """
    _refuse_folder_name(path)
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if os.fspath(path) == STDOUT:
        _write_stdout(payload)
        return target
    kind, real = _kind(target)
    if kind == "stream":
        _write_into(real, payload, shown=target)
        return target
    if kind in ("file", "link") and not force:
        msg = _exists(target, kind, real)
        raise OutputExistsError(msg)
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise _named(err, target) from err
    try:
        try:
            _replace(real, payload)
        except FileNotFoundError:
            # The temporary file vanished under us: another writer of the same target
            # took it for a leftover in the instant between creating and locking it.
            _replace(real, payload)
    except OSError as err:
        raise _named(err, target) from err
    return target


@contextlib.contextmanager
def open_atomic(path: str | os.PathLike[str], *, force: bool = False) -> Iterator[BinaryIO]:
    r"""Open ``path`` to write it in pieces; it appears whole when the block ends, or not at all.

    The same rules as :func:`write_atomic` for a regular file, a link or nothing: the
    pieces go to a locked hidden temporary beside the target, flushed to disk and
    renamed over it when the ``with`` block ends normally; on any exception (an
    interrupt included) the temporary is removed and the target is left as it was.
    Standard output, devices and FIFOs are refused: a file written in pieces is a file.

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false; nothing is written.
    OutputPathError
        ``path`` is ``-``, a stream, a folder, a block device or a socket.
    OSError
        A write failed; the message names ``path`` and the reason. An error raised in the
        block that names its own file already (another writer's, nested) passes unchanged.

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "rows.txt"
    >>> with open_atomic(target) as handle:
    ...     _ = handle.write(b"one\n")
    ...     target.exists()
    False
    >>> with open_atomic(target, force=True) as handle:
    ...     _ = handle.write(b"two\n")
    ...     _ = handle.write(b"three\n")
    >>> target.read_text()
    'two\nthree\n'
    """
    _refuse_folder_name(path)
    target = Path(path)
    kind, real = ("stream", target) if os.fspath(path) == STDOUT else _kind(target)
    if kind == "stream":
        msg = f"{target}: is a stream: a file written in pieces needs the path of a file"
        raise OutputPathError(msg)
    if kind in ("file", "link") and not force:
        raise OutputExistsError(_exists(target, kind, real))
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        with _replacing(real) as fd, open(fd, "wb", closefd=False) as handle:
            yield handle
    except OSError as err:
        if _names_a_file(err):  # another file's, raised in the block (a second writer's)
            raise
        raise _named(err, target) from err


def _refuse_folder_name(path: str | os.PathLike[str]) -> None:
    """Refuse an output path written with a trailing ``/``: it names a folder, not a file.

    ``Path("X/")`` is ``X``, so without this ``--save X/`` wrote a file ``X``.
    """
    text = os.fspath(path)
    if len(text) > 1 and text.endswith(("/", os.sep)):
        msg = f"{text}: ends in '/', so it names a folder; give the path of a file"
        raise OutputPathError(msg)


def _write_stdout(payload: bytes | bytearray) -> None:
    """Write ``payload`` to standard output whole, or raise.

    Written to the descriptor in a loop: a ``BufferedWriter`` given more than its buffer
    returns the count of a partial write when the reader goes away, and the rest would
    be lost without a word. A reader that went away raises the ``BrokenPipeError``
    itself (the command line ends silently on it, as Unix tools do).
    """
    stream = sys.stdout
    if stream is None:  # the process started with standard output closed (>&-)
        msg = "standard output is closed (>&-); nothing can be written to it"
        raise OutputPathError(msg)
    try:
        stream.flush()
        try:
            fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):  # a test's StringIO: no descriptor
            fd = None
        if fd is not None:
            _write_all(functools.partial(os.write, fd), payload)
        elif (buffer := getattr(stream, "buffer", None)) is not None:
            _write_all(buffer.write, payload)
            buffer.flush()
        else:  # a text stream without bytes underneath
            stream.write(payload.decode("utf-8"))
            stream.flush()
    except OSError as err:
        # A reader gone away passes, and so does the command line's standard output's
        # own error (its flush of text printed before): named once, not twice
        if isinstance(err, BrokenPipeError) or _names_a_file(err):
            raise
        raise _named(err, "standard output") from err


def _write_into(target: Path, payload: bytes | bytearray, *, shown: Path) -> None:
    """Write into a device or FIFO in place (no truncation, no rename, no fsync).

    Opening a FIFO waits for its reader (a program started later may be the one); as on
    the reading side (:func:`robot_msgs.io.bounded.read_input`), the wait is named on a
    terminal after 2 s, where it was silent, Ctrl-C ends it, and after
    :data:`~robot_msgs.io.bounded.FIFO_WAIT_S` it is refused (:func:`_open_fifo`).
    """
    try:
        if stat.S_ISFIFO(target.stat().st_mode):
            from robot_msgs.progress import Stage  # noqa: PLC0415 - only for a FIFO

            waiting = f"{shown}: waiting for a program to read this FIFO (Ctrl-C stops)"
            with Stage(waiting, stream=sys.stderr):
                fd = _open_fifo(target, shown)
        else:
            fd = os.open(target, os.O_WRONLY | _CLOEXEC)
    except OutputPathError:
        raise
    except OSError as err:
        raise _named(err, shown) from err
    try:
        _write_all(functools.partial(os.write, fd), payload)
    except OSError as err:
        raise _named(err, shown) from err
    finally:
        os.close(fd)


def _open_fifo(target: Path, shown: Path) -> int:
    """Open the FIFO ``target`` to write once a program reads it, or refuse after FIFO_WAIT_S.

    WHY: the open blocks until a reader comes, and nothing bounded it: ``ape ... --save
    FIFO`` with no reader hung for ever, no error in a batch or CI (measured: still
    waiting after 7 min), where reading a FIFO with no writer is refused after
    ``FIFO_WAIT_S``. Without a reader a non-blocking open fails (ENXIO), so it is tried
    every 20 ms; the descriptor is made blocking again for the writes.
    """
    import time  # noqa: PLC0415 - only for a FIFO

    from robot_msgs.io import bounded  # noqa: PLC0415

    deadline = time.monotonic() + bounded.FIFO_WAIT_S
    while (fd := _open_if_read(target)) is None:
        if time.monotonic() >= deadline:
            msg = (
                f"{shown}: is a pipe (FIFO) that no program opened to read within "
                f"{bounded.FIFO_WAIT_S:g} s: refusing to wait longer (start the reader first, "
                "or give a file)"
            )
            raise OutputPathError(msg)
        time.sleep(0.02)
    os.set_blocking(fd, True)
    return fd


def _open_if_read(fifo: Path) -> int | None:
    """Open ``fifo`` to write without waiting: ``None`` while no program has it open to read."""
    try:
        return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK | _CLOEXEC)
    except OSError as err:
        if err.errno == errno.ENXIO:
            return None
        raise


def _write_all(write: Callable[[memoryview], int], payload: bytes | bytearray) -> None:
    """Call ``write`` (``os.write`` to a descriptor, a binary stream's) until all is written."""
    view = memoryview(payload)
    while view:
        view = view[write(view) :]


def _replace(real: Path, payload: bytes | bytearray) -> None:
    """Write ``payload`` to a locked temporary beside ``real`` and rename it over ``real``."""
    with _replacing(real) as fd:
        _write_all(functools.partial(os.write, fd), payload)


@contextlib.contextmanager
def _replacing(real: Path) -> Iterator[int]:
    """Yield a locked temporary beside ``real``; renamed over it when the block ends normally.

    On any exception (an interrupt included) the temporary is removed instead.
    """
    try:
        mode: int | None = stat.S_IMODE(real.stat().st_mode)  # keep an existing file's
    except FileNotFoundError:
        mode = None  # a new file: 0o666 less the umask, as open() gives
    fd, tmp = _claim_temporary(real)
    try:
        yield fd
        if mode is not None:
            os.fchmod(fd, mode)
        os.fsync(fd)
        tmp.replace(real)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)  # drops the lock


def _claim_temporary(real: Path) -> tuple[int, Path]:
    """Create and lock the first free ``.NAME.K.tmp``; remove stale ones on the way."""
    claimed: tuple[int, Path] | None = None
    for k in range(_MAX_TEMPORARIES):
        tmp = real.with_name(f".{real.name}.{k}.tmp")
        if claimed is not None:  # past ours: remove the leftovers, stop at the first gap
            if not tmp.exists():
                break
            _remove_if_stale(tmp)
            continue
        for _ in range(2):
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
            except FileExistsError:
                if _remove_if_stale(tmp):
                    continue  # a leftover removed: try the name again
                break  # a live writer's: try the next name
            _lock(fd)
            claimed = (fd, tmp)
            break
    if claimed is None:
        raise FileExistsError(errno.EEXIST, f"{_MAX_TEMPORARIES} writers at once")
    return claimed


def _lock(fd: int) -> None:
    if sys.platform != "win32":
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _remove_if_stale(tmp: Path) -> bool:
    """Remove ``tmp`` when no process holds its lock (its writer died); True when gone."""
    try:
        fd = os.open(tmp, os.O_RDONLY | _CLOEXEC)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        if sys.platform == "win32":  # pragma: no cover - no way to tell a live writer
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # locked: a live writer
        with contextlib.suppress(OSError):
            if tmp.stat().st_ino == os.fstat(fd).st_ino:  # still the file we locked
                tmp.unlink()
        return not tmp.exists()
    finally:
        os.close(fd)


def sweep_temporaries(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files that killed writers left in ``folder``; return them.

    :func:`write_atomic` removes those of the target it writes; this is for a command
    that resumes work in a folder (``bench --resume``) and may not rewrite every file.
    Only files named as :func:`write_atomic` names them (``.NAME.K.tmp``) and locked by
    no process are removed.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / ".a.json.0.tmp").write_text("half")  # as a killed writer leaves it
    >>> [p.name for p in sweep_temporaries(folder)], sorted(folder.iterdir())
    (['.a.json.0.tmp'], [])
    """
    removed = []
    for entry in sorted(Path(folder).glob(".*.tmp")):
        stem = entry.name[1:-4]
        name, _, k = stem.rpartition(".")
        if name and k.isdigit() and entry.is_file() and _remove_if_stale(entry):
            removed.append(entry)
    return removed


def check_folder(path: str | os.PathLike[str], *, label: str = "") -> Path:
    """Refuse, before any work, an output folder that cannot be used or created.

    Parameters
    ----------
    path : path-like
        A folder that the command writes files into, created (with its parents) when
        missing.
    label : str
        How the caller named the folder (a flag such as ``--out``): messages start with
        it.

    Returns
    -------
    Path
        ``path``, as given.

    Raises
    ------
    OutputPathError
        ``path`` is a file (or another non-folder), a file stands where one of its
        parents should be, or the folder that would hold it is not writable.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_folder(folder / "new" / "sub").name
    'sub'
    >>> _ = (folder / "a.txt").write_text("x")
    >>> check_folder(folder / "a.txt", label="--out")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.OutputPathError: --out .../a.txt: is a file, not a folder; give a folder ...
    """
    target = Path(path)
    shown = f"{label} {target}" if label else str(target)
    if target.exists() and not target.is_dir():  # /dev/null was said to be "a file"
        from robot_msgs.io.bounded import mode_kind  # noqa: PLC0415 - io imports this module

        what = mode_kind(target.stat().st_mode)
        msg = f"{shown}: is {what}, not a folder; give a folder (it is created if missing)"
        raise OutputPathError(msg)
    blocking = _file_above(target)
    if blocking is not None:
        msg = f"{shown}: cannot create the folder: {blocking} is a file, not a folder"
        raise OutputPathError(msg)
    existing = target.absolute()
    while not existing.exists():
        existing = existing.parent
    if not os.access(existing, os.W_OK | os.X_OK):
        msg = f"{shown}: cannot write into it: the folder {existing} is not writable"
        raise OutputPathError(msg)
    return target


def check_outputs(
    paths: Iterable[str | os.PathLike[str]],
    *,
    force: bool,
    create_folders: bool = False,
    flags: Sequence[str] | None = None,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> list[Path]:
    """Refuse, before any work, output paths that cannot all be written as asked.

    Parameters
    ----------
    paths : iterable of path-like
        The outputs of one command (``-`` is standard output).
    force : bool
        Existing files may be replaced (the CLI's ``--force``).
    create_folders : bool
        A missing folder is fine when its nearest existing parent is writable (the
        writer creates it, as :func:`write_atomic` does); by default it is refused.
    flags : sequence of str, optional
        The command-line flag that named each path (``--save``, ``--plot``): two of
        them naming one file are then the command line's mistake, said with both flags.
    inputs : iterable of path-like
        The files the command reads: an output that is one of them is refused, ``force``
        or not (``res r.json --csv r.json --force`` replaced the result it was to read).

    Returns
    -------
    list of Path
        The paths, as given.

    Raises
    ------
    OutputPathError
        Two paths are the same file (after resolving links), or an output is an input; a
        folder is missing or not writable; a path is a folder, a block device or a socket.
    UsageError
        With ``flags``, two paths are the same file, or an output is an input (refused
        before whether they exist).
    OutputExistsError
        A file exists and ``force`` is false.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_outputs([folder / "a.json", folder / "b.csv"], force=False)[1].name
    'b.csv'
    >>> check_outputs([folder / "a.json", folder / "." / "a.json"], force=False)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.OutputPathError: ... are the same file ...; give each output its own path
    >>> check_outputs(["a.png", "./a.png"], force=False, flags=["--save", "--plot"])
    Traceback (most recent call last):
    ...
    robot_msgs.errors.UsageError: --save a.png and --plot a.png are the same file (...); ...
    """
    paths = list(paths)
    for path in paths:
        _refuse_folder_name(path)
    given = [Path(p) for p in paths]
    named = [""] * len(given) if flags is None else [f"{flag} " for flag in flags]
    found: list[tuple[str, str, Path]] = []  # each path's key (the file it is), kind, target
    seen: dict[str, int] = {}
    read = {str(Path(os.path.realpath(p))): p for p in inputs if os.fspath(p) != STDOUT}
    mistake = OutputPathError if flags is None else UsageError  # flags: the command line's
    for k, path in enumerate(given):
        if os.fspath(path) == STDOUT:
            key, kind, real = STDOUT, "stream", path
        else:
            try:
                kind, real = _kind(path)
            except OutputPathError as err:  # a folder, a device: said with its flag
                msg = f"{named[k]}{err}"
                raise OutputPathError(msg) from None
            key = str(Path(os.path.realpath(real)))
        if key in read:
            msg = (
                f"{named[k]}{path} is the input {read[key]} ({key}): writing it would replace "
                "what the command reads; give the output its own path"
            )
            raise mistake(msg)
        if key in seen:
            first = seen[key]
            msg = (
                f"{named[first]}{given[first]} and {named[k]}{path} are the same file ({key}); "
                "give each output its own path"
            )
            raise mistake(msg)
        seen[key] = k
        found.append((key, kind, real))
    for path, (key, kind, real) in zip(given, found, strict=True):
        if kind == "stream":
            if key != STDOUT and not os.access(real, os.W_OK):
                msg = f"{path}: cannot write it: permission denied"
                raise OutputPathError(msg)
            continue
        if kind in ("file", "link") and not force:
            msg = _exists(path, kind, real)
            raise OutputExistsError(msg)
        folder = Path(os.path.realpath(real)).parent
        if create_folders:
            while not folder.exists() and folder.parent != folder:
                folder = folder.parent
        if not folder.is_dir():
            what = "does not exist" if not folder.exists() else "is not a folder"
            msg = f"{path}: cannot write it: the folder {folder} {what}"
            raise OutputPathError(msg)
        if not os.access(folder, os.W_OK | os.X_OK):
            msg = f"{path}: cannot write it: the folder {folder} is not writable"
            raise OutputPathError(msg)
    return given
