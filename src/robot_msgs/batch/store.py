"""Per-run result records on disk: one JSON file per task, named by its content hash.

Layout under the output folder::

    OUT/runs/<digest>.json     one RunResult each, written atomically as it arrives

WHY one file per run and not one big file: a sweep interrupted at any moment (Ctrl-C,
a killed job, a lost node) leaves only complete records behind (each is written to a
temporary file and renamed into place), so ``--resume`` trusts every record it finds.
Records of runs no longer in the manifest are ignored, never deleted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.batch.tasks import RunResult
from robot_msgs.errors import ValidationError
from robot_msgs.files import write_atomic
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from robot_msgs.batch.tasks import Task

__all__ = ["ResultStore"]


class ResultStore:
    """The ``runs/`` folder of a sweep's output: save, load and list records.

    Examples
    --------
    >>> import tempfile
    >>> store = ResultStore(tempfile.mkdtemp())
    >>> store.has_records()
    False
    """

    def __init__(self, out: str | Path) -> None:
        self.root = Path(out) / "runs"

    def path_for(self, digest: str) -> Path:
        """Where the record of the task with this content hash lives."""
        return self.root / f"{digest}.json"

    def has_records(self) -> bool:
        """Whether any record is stored (a sweep ran into this folder before)."""
        return self.root.is_dir() and any(self.root.glob("*.json"))

    def save(self, result: RunResult) -> Path:
        """Write one record atomically (replacing a previous record of the same task)."""
        text = dumps(result.to_dict(), indent=None)
        return write_atomic(self.path_for(result.digest), text, force=True)

    def load(self, digest: str) -> RunResult | None:
        """Return the stored record of ``digest``, or ``None`` when absent.

        Raises
        ------
        ValidationError
            The file exists but is not a record (edited by hand?), naming the file.
        """
        path = self.path_for(digest)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            result = RunResult.from_dict(json.loads(text))
        except (ValueError, ValidationError) as err:
            msg = f"{path}: expected a run result record, got {err}; delete it to recompute"
            raise ValidationError(msg) from err
        if result.digest != digest:
            msg = f"{path}: expected the record of {digest}, got {result.digest}"
            raise ValidationError(msg)
        return result

    def reusable(self, tasks: Iterable[Task]) -> dict[str, RunResult]:
        """Return the stored records ``--resume`` keeps: ``ok`` and ``failed`` ones of these tasks.

        ``crashed`` records are recomputed: a worker dying may have had a cause outside
        the run (a node lost, memory taken by another job).
        """
        kept: dict[str, RunResult] = {}
        for task in tasks:
            record = self.load(task.digest)
            if record is not None and record.status != "crashed":
                kept[task.digest] = record
        return kept

    def load_all(self, tasks: Sequence[Task]) -> list[RunResult]:
        """Return the records of ``tasks``, in the tasks' order.

        Raises
        ------
        ValidationError
            A task has no record (the sweep did not finish).
        """
        records = []
        for task in tasks:
            record = self.load(task.digest)
            if record is None:
                msg = f"no result stored for {task.run.label} ({self.path_for(task.digest)})"
                raise ValidationError(msg)
            records.append(record)
        return records
