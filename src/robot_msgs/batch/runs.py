"""The runs of a sweep: :class:`RunSpec`, manifest entries, run folders and the folder convention.

A run folder (the run-report convention, :mod:`robot_msgs.report`)
-----------------------------------------------------------------
A folder holding ``estimate.<ext>`` and/or ``meta.json``. ``meta.json`` may give
``algorithm``, ``sequence``, ``trial``, ``estimate`` / ``reference`` (paths relative to
the folder), ``estimate_format`` / ``reference_format``, ``estimate_topic`` /
``reference_topic``, and ``failure`` (text) or a non-zero ``exit_code``: the run
reported that it failed, and is recorded as failed without being evaluated. Its other
keys (``version``, ``hardware``, ...) belong to the run report and are not read here.
Without an ``estimate`` key the estimate is the folder's ``estimate.<ext>``, and a run
folder without any estimate is a recorded failure (the run produced nothing), not an
error.

Folder convention (``robot-msgs bench ROOT`` or a manifest's ``[[folders]]``)
----------------------------------------------------------------------------
Every folder under ``ROOT`` holding ``estimate.<ext>`` or ``meta.json`` is a run (hidden
folders are skipped). Its keys come from the path ``ROOT/{algorithm}/{sequence}/{trial}/``
and are overridden by ``meta.json`` (at other depths ``meta.json`` must name all three).
Its reference is, in order: ``meta.json``'s ``reference``; the folder's own
``reference.<ext>``; ``ROOT/{sequence}/reference.<ext>``; the manifest's
``[references]`` entry for the sequence.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import FormatError
from robot_msgs.io.examples import EXAMPLE_PREFIX

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "EXAMPLE_PREFIX",
    "TRAJECTORY_EXTENSIONS",
    "RunSpec",
    "check_runs",
    "discover_runs",
    "references_table",
    "run_from_entry",
    "run_from_folder",
]

#: File extensions the folder convention takes as trajectories (``estimate.<ext>``).
TRAJECTORY_EXTENSIONS = (".tum", ".txt", ".csv", ".kitti", ".bag", ".db3", ".mcap")

_RUN_KEYS = ("algorithm", "sequence", "trial")
_SIDES = ("estimate", "reference")
_INPUT_KEYS = ("format", "topic", "times")
#: Keys of a ``[[runs]]`` entry (and of ``[defaults]``) that bench reads.
ENTRY_KEYS = frozenset(
    {*_RUN_KEYS, *_SIDES, "path", "failure", "exit_code"}
    | {f"{side}_{key}" for side in _SIDES for key in _INPUT_KEYS}
)
#: Run-report metadata a manifest entry may carry; bench accepts and ignores it.
REPORT_ONLY_KEYS = frozenset(
    {"name", "version", "dataset", "hardware", "clock", "input_rate_hz", "parameters"}
    | {"software", "bag", "latency_topic"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunSpec:
    """One run to evaluate: its keys and where its inputs are (absolute paths).

    ``reference`` is ``None`` when no reference was found, and ``failure`` holds the
    reason a run reported failing (``meta.json``): evaluating either ends as a recorded
    failure that says why. ``source`` says where the run was declared.
    """

    algorithm: str
    sequence: str
    trial: str
    estimate: str
    reference: str | None = None
    estimate_format: str | None = None
    estimate_topic: str | None = None
    estimate_times: str | None = None
    reference_format: str | None = None
    reference_topic: str | None = None
    reference_times: str | None = None
    failure: str = ""
    source: str = ""

    @property
    def label(self) -> str:
        """``algorithm/sequence/trial``: how messages and errors name the run."""
        return f"{self.algorithm}/{self.sequence}/{self.trial}"

    @property
    def sort_key(self) -> tuple[str, str, tuple[tuple[int, int | str], ...]]:
        """Deterministic order: algorithm, sequence, then trial in natural order (2 < 10)."""
        return (self.algorithm, self.sequence, _natural(self.trial))

    def identity(self) -> dict[str, str | None]:
        """What identifies the run besides its files' bytes (no paths: a moved tree resumes)."""
        return {
            "algorithm": self.algorithm,
            "sequence": self.sequence,
            "trial": self.trial,
            "failure": self.failure,
            **{
                f"{side}_{key}": getattr(self, f"{side}_{key}")
                for side in _SIDES
                for key in ("format", "topic")
            },
        }


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


def _path(base: Path, value: object, where: str) -> str:
    """An absolute path (``base``-relative), or an ``example:`` name kept as written."""
    if not isinstance(value, str) or not value:
        msg = f"{where}: expected a path string, got {value!r}"
        raise FormatError(msg)
    if value.startswith(EXAMPLE_PREFIX):
        return value
    return str((base / value).resolve())


def _text(value: object, where: str) -> str:
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)  # JSON writers may print trial 3 as 3.0
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        msg = f"{where}: expected a non-empty string or integer, got {value!r}"
        raise FormatError(msg)
    return str(value)


def _trajectory_file(folder: Path, stem: str) -> Path | None:
    found = sorted(
        p
        for p in folder.glob(f"{stem}.*")
        if p.suffix.lower() in TRAJECTORY_EXTENSIONS and not p.name.startswith(".")
    )
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        msg = f"{folder}: expected one {stem} trajectory, got {len(found)} ({names})"
        raise FormatError(msg)
    return found[0] if found else None


def _failure(keys: Mapping[str, Any], where: str) -> str:
    """The failure a run reported (``failure`` text, or a non-zero ``exit_code``), or ''."""
    failure = keys.get("failure", "")
    code = keys.get("exit_code")
    if not isinstance(failure, str):
        msg = f"{where}: expected `failure` as a string, got {failure!r}"
        raise FormatError(msg)
    if code is not None and (isinstance(code, bool) or not isinstance(code, int)):
        msg = f"{where}: expected `exit_code` as an integer, got {code!r}"
        raise FormatError(msg)
    if not failure and code:
        failure = f"exit code {code}"
    return failure


def _inputs(base: Path, keys: Mapping[str, Any], where: str) -> dict[str, str]:
    """Format, topic and times options of both inputs (times files are paths)."""
    values: dict[str, str] = {}
    for side in _SIDES:
        for key in _INPUT_KEYS:
            name = f"{side}_{key}"
            if name in keys:
                at = f"{where} `{name}`"
                raw = keys[name]
                values[name] = _path(base, raw, at) if key == "times" else _text(raw, at)
    return values


def _read_meta(folder: Path) -> dict[str, Any]:
    meta = folder / "meta.json"
    if not meta.is_file():
        return {}
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        msg = f"{meta}: expected a JSON object, got invalid JSON ({err})"
        raise FormatError(msg) from err
    if not isinstance(data, dict):
        msg = f"{meta}: expected a JSON object, got {type(data).__name__}"
        raise FormatError(msg)
    return {k: v for k, v in data.items() if k in ENTRY_KEYS and k != "path"}


def run_from_folder(
    folder: Path,
    *,
    root: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    references: Mapping[str, Mapping[str, str | None]] | None = None,
    where: str = "",
) -> RunSpec:
    """A run folder as a :class:`RunSpec` (see the module docstring for the rules).

    Parameters
    ----------
    folder : Path
        The run folder (absolute).
    root : Path, optional
        The folder-convention root: keys from ``ROOT/{algorithm}/{sequence}/{trial}``,
        and ``ROOT/{sequence}/reference.<ext>``.
    overrides : mapping, optional
        Keys that win over ``meta.json`` (a manifest entry; paths already absolute).
    references : mapping, optional
        Sequence to reference fields (a manifest's ``[references]``): the last resort.
    where : str
        How errors name the run's declaration.

    Raises
    ------
    FormatError
        An invalid ``meta.json``, two ``estimate.<ext>`` files, or run keys that neither
        the path nor ``meta.json`` nor ``overrides`` give.
    """
    where = where or str(folder)
    keys: dict[str, Any] = {}
    rel = folder.relative_to(root).parts if root is not None else ()
    if len(rel) == 3:
        keys.update(zip(_RUN_KEYS, rel, strict=True))
    meta = _read_meta(folder)
    for side in _SIDES:
        if side in meta:
            meta[side] = _path(folder, meta[side], f"{folder / 'meta.json'} `{side}`")
    keys.update(meta)
    keys.update(overrides or {})
    missing = [k for k in _RUN_KEYS if k not in keys]
    if missing:
        layout = f"{root}/ALGORITHM/SEQUENCE/TRIAL, " if root is not None else ""
        msg = (
            f"{where}: cannot tell the run's {', '.join(missing)}: expected the folder at "
            f"{layout}a meta.json naming them, or the keys in the manifest entry"
        )
        raise FormatError(msg)
    run_keys = {k: _text(keys[k], f"{where} `{k}`") for k in _RUN_KEYS}
    estimate = keys.get("estimate") or _trajectory_file(folder, "estimate")
    values: dict[str, Any] = {"estimate": str(estimate or folder / "estimate.tum")}
    values.update(_inputs(folder, keys, where))
    reference = keys.get("reference") or _trajectory_file(folder, "reference")
    sequence_dir = root / run_keys["sequence"] if root is not None else None
    if reference is None and sequence_dir is not None and sequence_dir.is_dir():
        reference = _trajectory_file(sequence_dir, "reference")
    if reference is not None:
        values["reference"] = str(reference)
    elif references and run_keys["sequence"] in references:
        values.update({k: v for k, v in references[run_keys["sequence"]].items() if k not in keys})
    return RunSpec(**run_keys, **values, failure=_failure(keys, where), source=where)


def run_from_entry(
    base: Path,
    entry: Mapping[str, Any],
    references: Mapping[str, Mapping[str, str | None]],
    where: str,
) -> RunSpec:
    """A manifest ``[[runs]]`` entry (``[defaults]`` merged in) as a :class:`RunSpec`.

    An entry names its files (``estimate``, ``reference``...) or a run folder (``path``,
    read as :func:`run_from_folder` with the entry's keys winning).

    Raises
    ------
    FormatError
        An unknown key, a per-run ``align`` (one settings block per sweep), a missing
        key, or a value of the wrong type; the message names the manifest entry.
    """
    if "align" in entry:
        msg = (
            f"{where}: a per-run `align` is refused: a sweep evaluates every run with the one "
            "[settings] block, so its numbers can be ranked together"
        )
        raise FormatError(msg)
    unknown = sorted(set(entry) - ENTRY_KEYS - REPORT_ONLY_KEYS)
    if unknown:
        msg = f"{where}: unknown key `{unknown[0]}`; expected some of {sorted(ENTRY_KEYS)}"
        raise FormatError(msg)
    keys = {k: v for k, v in entry.items() if k in ENTRY_KEYS}
    for name in (*_SIDES, "path", "estimate_times", "reference_times"):
        if name in keys:
            keys[name] = _path(base, keys[name], f"{where} `{name}`")
    if "path" in keys:
        folder = Path(keys.pop("path"))
        if not folder.is_dir():
            msg = f"{where}: `path` {folder} is not a run folder"
            raise FormatError(msg)
        return run_from_folder(folder, overrides=keys, references=references, where=where)
    missing = [k for k in (*_RUN_KEYS, "estimate") if k not in keys]
    if missing:
        msg = f"{where}: missing `{missing[0]}` (or a run folder `path`)"
        raise FormatError(msg)
    run_keys = {k: _text(keys[k], f"{where} `{k}`") for k in _RUN_KEYS}
    values: dict[str, Any] = {"estimate": keys["estimate"], **_inputs(base, keys, where)}
    if "reference" in keys:
        values["reference"] = keys["reference"]
    else:
        shared = references.get(run_keys["sequence"], {})
        values.update({k: v for k, v in shared.items() if k not in values})
    return RunSpec(**run_keys, **values, failure=_failure(keys, where), source=where)


def references_table(
    base: Path, table: Mapping[str, Any], where: str
) -> dict[str, dict[str, str | None]]:
    """A manifest's ``[references]``: sequence -> path, or -> {path, format, topic, times}.

    Raises
    ------
    FormatError
        An unknown key or a value of the wrong type, naming the sequence.

    Examples
    --------
    >>> from pathlib import Path
    >>> refs = references_table(Path("/data"), {"MH_01": {"path": "gt.bag", "topic": "/p"}}, "m")
    >>> refs["MH_01"]["reference"], refs["MH_01"]["reference_topic"]
    ('/data/gt.bag', '/p')
    """
    refs: dict[str, dict[str, str | None]] = {}
    for sequence, value in table.items():
        at = f"{where} [references] {sequence}"
        entry = value if isinstance(value, dict) else {"path": value}
        unknown = sorted(set(entry) - {"path", *_INPUT_KEYS})
        if unknown:
            msg = f"{at}: unknown key `{unknown[0]}`; expected path, format, topic, times"
            raise FormatError(msg)
        keys = {f"reference_{k}": entry[k] for k in _INPUT_KEYS if k in entry}
        refs[sequence] = {
            "reference": _path(base, entry.get("path"), f"{at} `path`"),
            "reference_format": None,
            "reference_topic": None,
            "reference_times": None,
            **_inputs(base, keys, at),
        }
    return refs


def discover_runs(
    root: str | Path, *, references: Mapping[str, Mapping[str, str | None]] | None = None
) -> list[RunSpec]:
    r"""Find the runs under ``root`` by the folder convention (see the module docstring).

    Parameters
    ----------
    root : path-like
        The folder to search.
    references : mapping, optional
        Sequence to reference fields (from a manifest's ``[references]``), used when no
        other reference is found.

    Returns
    -------
    list of RunSpec
        In deterministic order.

    Raises
    ------
    FormatError
        ``root`` is not a folder or holds no run; a run folder is invalid
        (:func:`run_from_folder`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "orb" / "MH_01" / "2").mkdir(parents=True)
    >>> (root / "MH_01").mkdir()
    >>> _ = (root / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    >>> _ = (root / "MH_01" / "reference.tum").write_text("0 0 0 0 0 0 0 1\n")
    >>> [(r.label, pathlib.Path(r.reference).name) for r in discover_runs(root)]
    [('orb/MH_01/2', 'reference.tum')]
    """
    base = Path(root).resolve()
    if not base.is_dir():
        msg = f"{root}: expected a folder of runs (ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)"
        raise FormatError(msg)
    candidates = {
        p.parent
        for pattern in ("estimate.*", "meta.json")
        for p in base.rglob(pattern)
        if p.is_file() and (p.name == "meta.json" or p.suffix.lower() in TRAJECTORY_EXTENSIONS)
    }
    runs = [
        run_from_folder(folder, root=base, references=references)
        for folder in sorted(candidates)
        if not any(part.startswith(".") for part in folder.relative_to(base).parts)
    ]
    if not runs:
        msg = f"{root}: no runs found (expected ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)"
        raise FormatError(msg)
    return runs


def check_runs(runs: Iterable[RunSpec]) -> tuple[RunSpec, ...]:
    """Sort runs and refuse two with the same keys (their rows would be indistinguishable).

    Raises
    ------
    FormatError
        Two runs share algorithm, sequence and trial; both declarations are named.
    """
    seen: dict[tuple[str, str, str], RunSpec] = {}
    for run in runs:
        key = (run.algorithm, run.sequence, run.trial)
        if key in seen:
            msg = (
                f"two runs are {run.label}: {seen[key].source} and {run.source}; "
                "give each a distinct trial"
            )
            raise FormatError(msg)
        seen[key] = run
    return tuple(sorted(seen.values(), key=lambda r: r.sort_key))
