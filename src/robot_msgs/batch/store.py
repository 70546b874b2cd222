"""Per-run records on disk, written by the workers, sharded by run key.

Layout under the output folder::

    OUT/runs/<k[:2]>/<k>.json     one RunRecord per run, k its run key (64 hex digits)

WHY sharded: 10^6 records in one folder make every listing and lookup slow on most
file systems; 256 folders hold ~4000 records each at that size.

WHY the workers write them: a record written by the client costs it a write and an
fsync per run (the ceiling of ~120 runs/s measured before); each worker writes its
own, atomically (:func:`robot_msgs.files.write_atomic`: a killed worker leaves only
complete records, and a hidden temporary that :meth:`ResultStore.sweep_temporaries`
removes on ``--resume``).

A record holds the run's :class:`~robot_msgs.batch.tasks.RunResult` (``ok`` or the
run's own ``failed``; an infrastructure failure is never stored), the content digest
the worker computed, and each input's stamp and hash as the worker saw them, which
``--resume`` compares with the files now (:func:`robot_msgs.batch.inputs.unchanged`).
Records of runs no longer in the manifest are ignored, never deleted.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from robot_msgs.batch.inputs import NOT_HASHED, Stamp, unchanged, unread
from robot_msgs.batch.tasks import INFRASTRUCTURE, RunResult, Status, check_outcome
from robot_msgs.errors import ValidationError
from robot_msgs.files import sweep_temporaries, write_atomic
from robot_msgs.io.bounded import mode_kind
from robot_msgs.limits import InputLimits, current_limits
from robot_msgs.msg.fields import FrozenMap
from robot_msgs.strict_json import dumps, from_form

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["RECORD_FORMAT", "RecordHead", "ResultStore", "RunRecord", "own_file_bytes"]

T = TypeVar("T")


def own_file_bytes() -> int:
    """Return the bound on a file a sweep wrote and reads back: ``max_bytes``, never lowered.

    A run record, ``summary.json``, ``ranking.json``, ``reports.json``. WHY not the
    user's ``--max-bytes`` alone: lowered, it bounds the inputs they give, and
    ``--max-bytes 1000 bench`` refused the sweep's own records (1.5 KB each) and stopped
    it. WHY raised with it: ``reports.json`` grows with the runs (a sweep of 10^6 runs
    may need more than 1 GiB, and the flag is how to allow it). Still a bound: the
    folder may be edited, a record linked to ``/dev/zero``.

    Examples
    --------
    >>> from robot_msgs.limits import input_limits
    >>> with input_limits(max_bytes=1000):
    ...     own_file_bytes() == 1 << 30
    True
    """
    return max(current_limits().max_bytes, InputLimits().max_bytes)


#: Version of the record layout; records of another version are recomputed.
RECORD_FORMAT = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class RunRecord:
    """A stored result with its evidence: the inputs' stamps and hashes when it was computed.

    ``inputs`` maps each role (``estimate``, ``reference``, ``timing``...) to
    ``(stamp, sha256)``; ``hashed_at_ns`` is when the worker stamped them (wall clock);
    ``session`` names the sweep that computed it.

    Hashable, as a frozen value is: ``inputs`` is kept as a
    :class:`~robot_msgs.msg.FrozenMap` and each stamp's JSON lists as tuples (the
    record's file is the same). WHY: with the mapping as given (a dict of lists),
    ``hash(record)`` raised ``TypeError: unhashable type: 'dict'``.
    """

    key: str
    session: str
    hashed_at_ns: int
    inputs: Mapping[str, tuple[Stamp, str]]
    result: RunResult

    def __post_init__(self) -> None:
        """Keep ``inputs`` immutable: a FrozenMap of ``(stamp as tuples, sha256)``."""
        frozen = FrozenMap({role: (_tuples(st), h) for role, (st, h) in self.inputs.items()})
        object.__setattr__(self, "inputs", frozen)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "format": RECORD_FORMAT,
            "key": self.key,
            "session": self.session,
            "hashed_at_ns": self.hashed_at_ns,
            "inputs": {r: {"stamp": st, "sha256": h} for r, (st, h) in self.inputs.items()},
            "result": self.result.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunRecord:
        """Rebuild from :meth:`to_dict`'s form.

        Raises
        ------
        ValidationError
            Another format, a missing key, a value of another type, or an invalid result.
        """
        head = RecordHead.from_dict(data)
        return cls(
            key=head.key,
            session=head.session,
            hashed_at_ns=head.hashed_at_ns,
            inputs={role: (seen.stamp, seen.sha256) for role, seen in head.inputs.items()},
            result=RunResult.from_dict(data["result"], at="$.result"),
        )


def _tuples(stamp: Stamp) -> Stamp:
    """Return the stamp with its JSON lists as tuples (hashable), at every depth."""
    return tuple(map(_tuples, stamp)) if isinstance(stamp, list | tuple) else stamp


class _Seen(msgspec.Struct, frozen=True):  # an input when hashed
    stamp: Stamp
    sha256: str


class _ReportHead(msgspec.Struct, frozen=True):  # of a RunReport's JSON form
    success: bool
    failure: str
    comparisons: dict[str, Any]


class _ResultHead(msgspec.Struct, frozen=True):  # of a RunResult's JSON form
    digest: str
    status: Status
    report: _ReportHead | None
    error_type: str
    error: str

    def __post_init__(self) -> None:
        """Refuse what no :class:`RunResult` is, as its load does."""
        check_outcome(
            self.status,
            has_report=self.report is not None,
            error_type=self.error_type,
            error=self.error,
        )


class RecordHead(msgspec.Struct, frozen=True):
    """What ``--resume`` reads of a record (a few µs): its form typed down to the report's head."""

    format: int
    key: str
    session: str
    hashed_at_ns: int
    inputs: dict[str, _Seen]
    result: _ResultHead

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecordHead:
        """Read the head of a record's JSON form (:func:`~robot_msgs.strict_json.from_form`).

        Raises
        ------
        ValidationError
            Not a record of :data:`RECORD_FORMAT`, naming the key at fault.
        """
        head = from_form(cls, data)
        if head.format != RECORD_FORMAT:
            msg = f"Expected record format {RECORD_FORMAT}, got {head.format!r}"
            raise ValidationError(msg)
        return head

    @property
    def hashed(self) -> bool:
        """Whether the inputs' bytes were hashed: a failed run's were not.

        Its inputs are then :data:`~robot_msgs.batch.inputs.NOT_HASHED`, and its digest
        says nothing of their bytes: the worker evaluates it again, never keeps it.
        """
        return all(seen.sha256 != NOT_HASHED for seen in self.inputs.values())

    def current(self, stamps: Mapping[str, Stamp]) -> bool:
        """Whether every input still shows the stamp it had when hashed (and is not racy).

        An input that was not read (a device, a file without read permission:
        :func:`~robot_msgs.batch.inputs.unread`) is never trusted by its stamp.
        """
        return stamps.keys() == self.inputs.keys() and all(
            unchanged(self.inputs[role].stamp, now, self.hashed_at_ns)
            and not unread(self.inputs[role].sha256)
            for role, now in stamps.items()
        )


class ResultStore:
    """The ``runs/`` folder of a sweep's output: save, find and read records by run key.

    Examples
    --------
    >>> import tempfile
    >>> store = ResultStore(tempfile.mkdtemp())
    >>> store.has_records(), store.path_for("ab12").relative_to(store.root).as_posix()
    (False, 'ab/ab12.json')
    """

    def __init__(self, out: str | os.PathLike[str]) -> None:
        self.root = Path(out) / "runs"

    def path_for(self, key: str) -> Path:
        """Where the record of the run with this key lives."""
        return self.root / key[:2] / f"{key}.json"

    def _shards(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        return [self.root, *sorted(p for p in self.root.iterdir() if p.is_dir())]

    def has_records(self) -> bool:
        """Whether any record is stored (a sweep ran into this folder before)."""
        return any(next(folder.glob("*.json"), None) is not None for folder in self._shards())

    def count(self) -> int:
        """How many records are stored."""
        return sum(
            sum(1 for entry in os.scandir(folder) if entry.name.endswith(".json"))
            for folder in self._shards()
        )

    def first(self) -> Path | None:
        """Return the first record stored, in shard and name order (``None``: none).

        Examples
        --------
        >>> import tempfile
        >>> ResultStore(tempfile.mkdtemp()).first() is None
        True
        """
        for folder in self._shards():
            found = min((p for p in folder.glob("*.json") if p.is_file()), default=None)
            if found is not None:
                return found
        return None

    def sweep_temporaries(self) -> list[Path]:
        """Remove the temporary files killed writers left in every shard; return them."""
        return [path for folder in self._shards() for path in sweep_temporaries(folder)]

    def save(self, record: RunRecord) -> Path:
        """Write one record atomically, replacing the run's previous record.

        Raises
        ------
        ValidationError
            An infrastructure failure: it is never stored as the run's result.
        """
        if record.result.status in INFRASTRUCTURE:
            msg = f"Expected a run's own result to store, got status {record.result.status!r}"
            raise ValidationError(msg)
        text = dumps(record.to_dict(), indent=None)
        path = self.path_for(record.key)
        _unlink_special(path)
        return write_atomic(path, text, force=True)

    def _read(self, key: str) -> dict[str, Any] | None:
        path = self.path_for(key)
        text = _record_text(path)
        if text is None:
            return None
        try:
            data: dict[str, Any] = json.loads(text)
        except RecursionError as err:  # the C parser recurses once a level
            msg = f"{path}: nested deeper than any run record ({err}); delete it to recompute"
            raise ValidationError(msg) from err
        except ValueError as err:
            msg = f"{path}: expected a run record, got {err}; delete it to recompute"
            raise ValidationError(msg) from err
        if not isinstance(data, dict) or data.get("key") != key:
            got = data.get("key") if isinstance(data, dict) else type(data).__name__
            msg = f"{path}: expected the record of {key}, got {got}; delete it to recompute"
            raise ValidationError(msg)
        return data

    def head(self, key: str) -> RecordHead | None:
        """Return the head of the run's record, or ``None`` when absent or of another format.

        Raises
        ------
        ValidationError
            The file exists but is not a record (edited by hand?), naming the file.
        """
        return self._parse(key, RecordHead.from_dict)

    def load(self, key: str) -> RunRecord | None:
        """Return the run's record, or ``None`` when absent or of another format.

        Raises
        ------
        ValidationError
            The file exists but is not a record (edited by hand?), naming the file.
        """
        found = self.load_with_json(key)
        return None if found is None else found[0]

    def load_with_json(self, key: str) -> tuple[RunRecord, dict[str, Any]] | None:
        """Return the run's record and its JSON form as read (strict JSON: no NaN).

        WHY both: a report written out again as JSON (``reports.json``) is the stored
        form itself; converting the message back costs more than reading it.

        Raises
        ------
        ValidationError
            The file exists but is not a record (edited by hand?), naming the file.
        """
        return self._parse(key, lambda data: (RunRecord.from_dict(data), data))

    def _parse(self, key: str, build: Callable[[dict[str, Any]], T]) -> T | None:
        """``build`` of the run's record, ``None`` when absent or of another format."""
        data = self._read(key)
        if data is None or data.get("format") != RECORD_FORMAT:
            return None
        try:
            return build(data)
        except ValidationError as err:
            msg = f"{self.path_for(key)}: {err}; delete it to recompute"
            raise ValidationError(msg) from err


def _unlink_special(path: Path) -> None:
    """Remove what stands at a record's path when it is not a regular file (nor a folder).

    WHY: :func:`~robot_msgs.files.write_atomic` writes into a device or a FIFO, and
    through a symbolic link, as an output should; a record linked to ``/dev/null`` was
    written there, so ``--resume`` computed the run and then refused its record, and one
    that was a FIFO waited for a reader for ever. A record is the sweep's own file, never
    a link: it replaces them.
    """
    try:
        mode = path.lstat().st_mode
    except OSError:
        return  # nothing there; or write_atomic says why it cannot write there
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _record_text(path: Path) -> str | None:
    """Read the text of the record at ``path``; ``None`` when there is none.

    WHY not ``read_text``: a record is a file the sweep wrote, but the folder may have been
    edited by hand. One linked to ``/dev/zero`` was read to the end of memory, a FIFO
    waited for a writer, and bytes not UTF-8 escaped as ``UnicodeDecodeError``.

    Raises
    ------
    ValidationError
        Not a regular file, larger than :func:`own_file_bytes`, or not UTF-8, naming the
        file.
    """
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    limit = own_file_bytes()
    why = ""
    if not stat.S_ISREG(info.st_mode):
        why = f"is {mode_kind(info.st_mode)}, not a regular file"
    elif info.st_size > limit:
        why = f"larger than the {limit} bytes a run record may hold ({info.st_size} bytes)"
    else:
        try:
            with path.open("rb") as handle:
                data = handle.read(limit + 1)
        except (FileNotFoundError, NotADirectoryError):
            return None
        if len(data) > limit:  # grown since its size was read
            why = f"larger than the {limit} bytes a run record may hold"
        else:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError as err:
                bad = f"{err.reason} at byte {err.start}"
                why = f"expected UTF-8 text, got undecodable bytes ({bad})"
    msg = f"{path}: {why}; delete it to recompute"
    raise ValidationError(msg)
