"""A run's input files: what they look like on disk, what they hold, and the run's two hashes.

- The **run key** (:func:`run_key`) says what a run is without reading its files: its
  name, keys, input options and metadata (``meta.json`` and the manifest's keys), the
  sweep's settings but the rankings' rules (:meth:`~robot_msgs.runs.RunSettings.evaluated`:
  another ``--rank-failures`` reuses every run), the per-run function, the package
  version and the revision of the judging rules
  (:data:`robot_msgs.runs.evaluate.JUDGING_REVISION`). The client computes it for every
  run in microseconds; it names the run's record
  (:mod:`robot_msgs.batch.store`).
- The **content digest** (:func:`content_digest`) is the run key plus the SHA-256 of the
  bytes of every input (trajectories, times files, the run folder's logs, a latency bag).
  The *worker* computes it from the bytes it evaluates, so the digest stored with a
  result is the digest of the bytes that produced it. A run with nothing stored to
  reuse is evaluated first and hashed only if it succeeds: a failed run's inputs are
  :data:`NOT_HASHED`.

WHY failures go unhashed: a 4 GiB estimate that was no text file (its reader refuses
it at its first byte, 0.3 s) was hashed whole first, 33 s for a run that fails. A
failure is still kept by its stamps on ``--resume``; once they move it is evaluated
again (nothing to compare a digest with), which costs what hashing it would.

WHY the worker hashes: hashed by the client at start-up and read by a worker later, an
estimate replaced during a sweep and restored afterwards kept an RMS of 0.0884 m in
the table where the true value is 0.5510 m, and every start re-hashed every input byte
on the client (5 s for 3000 runs; 1 TB read at 10^6 runs).

WHY size and modification time: ``--resume`` must not read 1 TB to learn that nothing
changed. A record keeps each input's :func:`stamp` (size and ``st_mtime_ns``) as the
worker saw it before hashing, and :func:`unchanged` trusts a record whose inputs still
show those stamps; any other is sent to a worker, which re-hashes it and keeps the
result if the digest is the same. A file modified less than :data:`RACY_S` before it
was hashed is never trusted by its stamp: a second change within the same timestamp
tick (file systems stamp with a coarse clock, FAT with 2 s) and of the same size would
be invisible (git's "racily clean" entries). Paths are in neither hash, so a moved tree
still resumes.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat as stat_mode
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from robot_msgs._version import __version__
from robot_msgs.io.bounded import stream_kind
from robot_msgs.io.examples import EXAMPLE_PREFIX

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.runs.spec import RunSpec

__all__ = [
    "MISSING",
    "NOT_HASHED",
    "RACY_S",
    "HashCache",
    "Stamp",
    "content_digest",
    "file_sha256",
    "function_id",
    "input_files",
    "run_identity",
    "run_key",
    "settings_identity",
    "stamp",
    "strict_stamp",
    "unchanged",
    "unhashed",
    "unread",
]

#: The hash and stamp of an input that does not exist (a run that wrote nothing).
MISSING = "missing"
#: How :func:`file_sha256` marks an input that is not a file or folder.
SPECIAL = "special: "
#: How :func:`file_sha256` marks a file it cannot read (a folder's too): error type, file, why.
UNREADABLE = "unreadable: "
#: The hash of a readable input whose bytes were not read (``read=False``): a failed run's.
NOT_HASHED = "not hashed"
#: Seconds: a file modified this close to its hashing is re-hashed on ``--resume``.
RACY_S = 2.0
_READ = 1 << 20

Stamp: TypeAlias = Any
"""JSON form of what an input looks like: ``[size, mtime_ns]`` for a file, a list of
``[name, size, mtime_ns]`` for a folder's files, or :data:`MISSING`."""


def function_id(fn: Callable[..., object]) -> str:
    """``module:qualname`` of a per-run function: part of the run key."""
    return f"{fn.__module__}:{fn.__qualname__}"


def input_files(run: RunSpec) -> dict[str, str | None]:
    """Every input of ``run`` by role, ``example:`` paths resolved (``None``: not given).

    The bag a latency proxy is read from is an input too (``bag``).
    """
    roles = run.input_paths() | {"bag": run.meta.bag}
    return {role: None if path is None else _local(path) for role, path in roles.items()}


def _local(path: str) -> str:
    if not path.startswith(EXAMPLE_PREFIX):
        return path
    from robot_msgs.io import resolve_path  # noqa: PLC0415  (only shipped examples need io)

    try:
        return str(resolve_path(path))
    except FileNotFoundError:
        return path  # stamped and hashed as missing; the run then says which example


def stamp(path: str | None) -> Stamp:
    """``[size, mtime_ns]`` of a file, ``[[name, size, mtime_ns], ...]`` of a folder's files.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_bytes(b"abc")
    >>> stamp(str(p))[0], stamp(str(p.with_name("none")))
    (3, 'missing')
    """
    if path is None:
        return MISSING
    try:
        info = Path(path).stat()
    except OSError:  # not there; or a link loop, a name too long: hashing it says which
        return MISSING
    if not stat_mode.S_ISDIR(info.st_mode):
        return [info.st_size, info.st_mtime_ns]
    root = Path(path)
    return [
        [str(item.relative_to(root)), s.st_size, s.st_mtime_ns]
        for item in sorted(p for p in root.rglob("*") if p.is_file())
        for s in (item.stat(),)
    ]


def strict_stamp(path: str | None) -> tuple[object, ...]:
    """Return what a worker compares before and after evaluating: size, mtime, ctime, inode.

    Stricter than :func:`stamp` (a replaced file has another inode, any write moves the
    ctime), for one session only: a copied or moved tree changes them all.
    """
    if path is None:
        return (MISSING,)
    target = Path(path)
    try:
        items = sorted(p for p in target.rglob("*") if p.is_file()) if target.is_dir() else [target]
        stats = [item.stat() for item in items]
    except (FileNotFoundError, NotADirectoryError):
        return (MISSING,)
    except OSError as err:  # WHY: a link loop raised here ended the sweep; hashed, it fails its run
        return (UNREADABLE, err.errno)
    return tuple((s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino) for s in stats)


def unchanged(stored: Stamp, now: Stamp, hashed_at_ns: int) -> bool:
    """Whether an input stamped ``stored`` when hashed at ``hashed_at_ns`` can be trusted now.

    Examples
    --------
    >>> old = 1_000_000_000_000_000_000  # a file modified long before it was hashed
    >>> unchanged([3, old], [3, old], old + 10**10), unchanged([3, old], [4, old], old + 10**10)
    (True, False)
    >>> unchanged([3, old], [3, old], old + 10**9)  # hashed 1 s after its change: racy
    False
    """
    if stored != now:
        return False
    if stored == MISSING:
        return True
    racy_ns = int(RACY_S * 1e9)
    mtimes = [stored[1]] if stored and isinstance(stored[0], int) else [f[2] for f in stored]
    return all(mtime < hashed_at_ns - racy_ns for mtime in mtimes)


def file_sha256(path: str | os.PathLike[str] | None, *, read: bool = True) -> str:
    """SHA-256 (hex) of a file's bytes, of a folder's files (names and bytes), or ``"missing"``.

    ``example:NAME`` paths are the package's shipped examples, hashed by their bytes. A
    missing input is not an error here: the run then ends as a recorded failure, and
    the hash changes once the file appears. A device, FIFO or socket is not read (a
    sweep reads its inputs once to hash them and again to evaluate them): its hash is
    ``"special: "`` and what it is; a file that cannot be read (no read permission), or
    a folder holding one, hashes as ``"unreadable: "``, the file and why. The run then
    fails saying so (:func:`unhashed`). With ``read=False`` every file is opened, not
    read: the same marks, and :data:`NOT_HASHED` for what would have been hashed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_bytes(b"abc")
    >>> file_sha256(p)[:16], file_sha256(p.with_name("none.txt")), file_sha256(p, read=False)
    ('ba7816bf8f01cfea', 'missing', 'not hashed')
    """
    if path is None:
        return MISSING
    target = Path(_local(os.fspath(path)))
    digest = hashlib.sha256()
    if target.is_dir():
        for item in sorted(p for p in target.rglob("*") if p.is_file()):
            digest.update(str(item.relative_to(target)).encode() + b"\0")
            inner = file_sha256(item, read=read)
            if inner.startswith(UNREADABLE):  # the run's failure, naming the file
                return inner
            digest.update(inner.encode())
        return digest.hexdigest() if read else NOT_HASHED
    kind = stream_kind(target)
    if kind is not None:  # never read: /dev/zero does not end, a FIFO would be used up
        return f"{SPECIAL}{kind}"
    try:
        with target.open("rb") as handle:
            while read and (chunk := handle.read(_READ)):
                digest.update(chunk)
    except (FileNotFoundError, NotADirectoryError):
        return MISSING
    except OSError as err:  # WHY: raised, it stopped the whole sweep (--serial) or retried
        return f"{UNREADABLE}{type(err).__name__}: {target}: {err.strerror or err}"
    return digest.hexdigest() if read else NOT_HASHED


def unhashed(path: str | None, digest: str) -> tuple[str, str] | None:
    """Return why the input at ``path``, hashed as ``digest``, was not read, else None.

    The error type and text the run fails with: a device, FIFO or socket
    (``FormatError``), a file that cannot be read (its ``OSError``, naming the file).

    Examples
    --------
    >>> unhashed("/dev/zero", file_sha256("/dev/zero"))[1][:47]
    '/dev/zero: is a character device, not a regular'
    >>> error_type, why = unhashed("d", "unreadable: PermissionError: d/a.tum: Permission denied")
    >>> error_type, why[:39]
    ('PermissionError', 'd/a.tum: Permission denied: a sweep rea')
    >>> unhashed("a.tum", "missing") is None
    True
    """
    if digest.startswith(SPECIAL):
        kind = digest.removeprefix(SPECIAL)
        why = f"{path}: is {kind}, not a regular file: a sweep reads its inputs to hash them"
        return "FormatError", f"{why} (give a file)"
    if digest.startswith(UNREADABLE):
        error_type, _, why = digest.removeprefix(UNREADABLE).partition(": ")
        why += ": a sweep reads its inputs to hash them"
        return error_type, f"{why} (make it readable, then bench --resume)"
    return None


def unread(digest: str) -> bool:
    """Whether ``digest`` marks an input not read (:func:`unhashed`), not its bytes.

    A record holding one is never trusted by its stamps (:meth:`RecordHead.current
    <robot_msgs.batch.store.RecordHead.current>`). WHY: ``chmod`` leaves a file's size
    and mtime as they were, so ``--resume`` kept the failure of a file made readable
    since, and only ``--verify`` (every input re-hashed) evaluated it.

    Examples
    --------
    >>> unread(file_sha256("/dev/zero")), unread("unreadable: PermissionError: a: no")
    (True, True)
    >>> unread("missing"), unread(64 * "e")
    (False, False)
    """
    return digest.startswith((SPECIAL, UNREADABLE))


class HashCache:
    """SHA-256 of files already hashed by this process, by path and :func:`strict_stamp`.

    A worker evaluates many runs of one sequence: their shared reference is hashed once
    per worker process, not once per run, and hashed again as soon as its size, mtime,
    ctime or inode moves. At most ``size`` files are kept (the oldest go first).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_bytes(b"abc")
    >>> cache = HashCache()
    >>> cache.sha256(str(p), strict_stamp(str(p))) == file_sha256(p), len(cache)
    (True, 1)
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._known: dict[tuple[str, tuple[object, ...]], str] = {}

    def __len__(self) -> int:
        return len(self._known)

    def sha256(self, path: str | None, strict: tuple[object, ...], *, read: bool = True) -> str:
        """Return the file's hash, reading it only when ``(path, strict)`` is new.

        ``read=False``: the hash if known, else :func:`file_sha256` without reading (not kept).
        """
        if path is None or strict == (MISSING,):
            return MISSING
        key = (path, strict)
        known = self._known.get(key)
        if known is None and not read:
            return file_sha256(path, read=False)
        if known is None:
            known = self._known[key] = file_sha256(path)
            while len(self._known) > self.size:
                del self._known[next(iter(self._known))]
        return known


def settings_identity(settings: Mapping[str, Any], fn: Callable[..., object]) -> str:
    """Return what every run key of a sweep shares: version, judging, function, settings (JSON).

    The judging is :data:`robot_msgs.runs.evaluate.JUDGING_REVISION`, read at each call:
    records judged by other rules under the same version are recomputed, not reused.

    Examples
    --------
    >>> from robot_msgs.runs import evaluate
    >>> json.loads(settings_identity({}, run_key))["judging"] == evaluate.JUDGING_REVISION
    True
    """
    from robot_msgs.runs import evaluate  # noqa: PLC0415  (the evaluation, for its revision)

    shared = {
        "version": __version__,
        "judging": evaluate.JUDGING_REVISION,
        "function": function_id(fn),
        "settings": settings,
    }
    return json.dumps(shared, sort_keys=True, separators=(",", ":"))


def run_identity(run: RunSpec) -> dict[str, Any]:
    """Return what identifies ``run`` besides its files' bytes: keys, options and metadata."""
    values = ((f.name, getattr(run.meta, f.name)) for f in fields(run.meta))
    # ``bag`` is a path, left out; the bag's bytes are hashed as an input.
    meta = {k: dict(v) if isinstance(v, Mapping) else v for k, v in values if k != "bag"}
    return {"run": run.identity(), "meta": meta}


def run_key(shared: str, run: RunSpec) -> str:
    """SHA-256 (hex) of :func:`settings_identity` and :func:`run_identity`: names the record.

    Examples
    --------
    >>> from robot_msgs.runs import RunSpec
    >>> shared = settings_identity({"align": "se3"}, run_key)
    >>> a = run_key(shared, RunSpec(name="orb/MH_01/1", estimate="/data/a.tum"))
    >>> a == run_key(shared, RunSpec(name="orb/MH_01/1", estimate="/moved/a.tum"))
    True
    >>> a == run_key(shared, RunSpec(name="orb/MH_01/2", estimate="/data/a.tum"))
    False
    """
    text = json.dumps(run_identity(run), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{shared}\n{text}".encode()).hexdigest()


def content_digest(key: str, hashes: Mapping[str, str]) -> str:
    """SHA-256 (hex) of the run key and each input's hash by role: the result's identity.

    Examples
    --------
    >>> content_digest("k", {"estimate": "aa"}) != content_digest("k", {"estimate": "ab"})
    True
    """
    text = json.dumps({"key": key, "inputs": dict(hashes)}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
