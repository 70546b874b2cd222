"""Run folders: what one holds, and the convention that finds many under a root.

A run folder
------------
One run of one algorithm on one sequence lives in a folder holding ``estimate.<ext>``
and/or ``meta.json``::

    run/
      estimate.tum     the estimated trajectory (any format robot_msgs reads, by
                       extension: .tum .txt .csv .kitti .bag .db3 .mcap); missing or empty
                       means the run produced nothing (a failure, not an error)
      reference.tum    optional ground truth (or ``reference`` in meta.json or the
                       manifest, pointing to a shared file)
      timing.csv       optional, one row per processed frame, seconds on one clock:
                       frame,acquisition_s,processing_start_s,available_s
                       (``processing_start_s`` may be left out)
      tracking.csv     optional, either events  time_s,event   (event: lost | recovered)
                       or a validity flag      time_s,valid   (1 valid, 0 lost)
      resources.csv    optional samples: time_s,cpu_percent,rss_bytes
                       [,threads][,gpu_mem_bytes][,gpu_percent]
      meta.json        optional metadata (:mod:`robot_msgs.runs.meta`)

The folder convention
---------------------
Every folder under a root holding ``estimate.<ext>`` or ``meta.json`` is a run (hidden
folders are skipped). Its keys come from the path ``ROOT/{algorithm}/{sequence}/{trial}/``
and are overridden by ``meta.json`` (at other depths ``meta.json`` must name all three).
Its reference is, in order: a manifest entry's or ``meta.json``'s ``reference``; the
folder's own ``reference.<ext>``; ``ROOT/{sequence}/reference.<ext>``; the manifest's
``[references]`` entry for the sequence.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import DataWarning, FormatError
from robot_msgs.io.bounded import stream_kind
from robot_msgs.io.examples import EXAMPLE_PREFIX
from robot_msgs.runs.meta import PATH_KEYS, meta_from, read_meta
from robot_msgs.runs.spec import RunSpec, natural_key

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

__all__ = [
    "TRAJECTORY_EXTENSIONS",
    "absolute_path",
    "discover_runs",
    "is_run_folder",
    "regular_file",
    "run_from_folder",
    "run_from_keys",
]

#: File extensions taken as trajectories (``estimate.<ext>``, ``reference.<ext>``).
TRAJECTORY_EXTENSIONS = (".tum", ".txt", ".csv", ".kitti", ".bag", ".db3", ".mcap")

_RUN_KEYS = ("algorithm", "sequence", "trial")
_NAME_MAX = 255  # bytes of one name, and of a whole path (Linux's NAME_MAX and PATH_MAX)
_PATH_MAX = 4096
_SIDES = ("estimate", "reference")
_INPUTS = ("format", "topic", "times")


def absolute_path(base: Path, value: object, where: str) -> str:
    """``value`` as an absolute path relative to ``base``; ``example:`` names kept as written.

    Raises
    ------
    FormatError
        ``value`` is not a non-empty string; the message names ``where``.

    Examples
    --------
    >>> from pathlib import Path
    >>> absolute_path(Path("/data"), "gt/MH_01.csv", "m.toml")
    '/data/gt/MH_01.csv'
    >>> absolute_path(Path("/data"), "example:fr1_xyz/groundtruth.tum", "m.toml")
    'example:fr1_xyz/groundtruth.tum'
    """
    if not isinstance(value, str) or not value:
        msg = f"{where}: expected a path string, got {value!r:.60}"
        raise FormatError(msg)
    if "\x00" in value:
        msg = f"{where}: expected a path, got {value!r:.60}, which holds a NUL byte"
        raise FormatError(msg)
    longest = max(len(part.encode("utf-8", "surrogatepass")) for part in value.split("/"))
    if len(value) > _PATH_MAX or longest > _NAME_MAX:
        msg = (
            f"{where}: expected a path, got {value!r:.60}, longer than the system allows "
            f"({_NAME_MAX} bytes a name, {_PATH_MAX} a path)"
        )
        raise FormatError(msg)
    if value.startswith(EXAMPLE_PREFIX):
        return value
    try:
        return str((base / value).resolve())
    except (OSError, RuntimeError) as err:  # a loop of symbolic links (RuntimeError <= 3.12)
        reason = getattr(err, "strerror", None) or "a loop of symbolic links"
        msg = f"{where}: cannot follow the path {value!r:.60}: {reason}"
        raise FormatError(msg) from err


def regular_file(path: Path, what: str) -> bool:
    """Whether ``path`` is a regular file to read; a special file there is named in a warning.

    A run folder's ``meta.json`` or log that is a pipe or a device is not read (a pipe
    without a writer would block, a device has no end) and the warning says so, so it
    is not skipped unseen.

    Examples
    --------
    >>> import pathlib, warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     regular_file(pathlib.Path("/dev/null"), "timing log")
    False
    >>> print(seen[0].message)
    /dev/null: is a character device, not a regular file: not read as the run's timing log
    """
    if path.is_file():
        return True
    kind = stream_kind(path)
    if kind is not None:
        warnings.warn(
            f"{path}: is {kind}, not a regular file: not read as the run's {what}",
            DataWarning,
            stacklevel=2,
        )
    return False


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


def is_run_folder(folder: Path) -> bool:
    """Whether ``folder`` is a run folder: it holds ``meta.json`` or ``estimate.<ext>``."""
    if not folder.is_dir():
        return False
    if (folder / "meta.json").exists():  # a special file too: run_from_folder names it
        return True
    return any(
        p.suffix.lower() in TRAJECTORY_EXTENSIONS for p in folder.glob("estimate.*") if p.is_file()
    )


def _trial(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def run_from_keys(
    keys: Mapping[str, Any],
    *,
    name: str,
    where: str,
    folder: Path | None = None,
    references: Mapping[str, Mapping[str, str | None]] | None = None,
) -> RunSpec:
    """Build a :class:`RunSpec` from checked keys whose paths are already absolute.

    Raises
    ------
    FormatError
        A run declared by its files gives no ``estimate``.
    """
    run_keys = {
        k: _trial(keys[k]) if k == "trial" else str(keys[k]) for k in _RUN_KEYS if k in keys
    }
    if "estimate" in keys:
        estimate = str(keys["estimate"])
    elif folder is not None:
        estimate = str(_trajectory_file(folder, "estimate") or folder / "estimate.tum")
    else:
        msg = f"{where}: expected an `estimate` file (or a run folder `path`)"
        raise FormatError(msg)
    inputs: dict[str, Any] = {
        f"{side}_{key}": keys[f"{side}_{key}"]
        for side in _SIDES
        for key in _INPUTS
        if f"{side}_{key}" in keys
    }
    reference: str | None = keys.get("reference")
    if reference is None and folder is not None:
        own = _trajectory_file(folder, "reference")
        reference = str(own) if own is not None else None
    if reference is None and references and run_keys.get("sequence") in references:
        shared = references[run_keys["sequence"]]
        reference = shared["reference"]
        inputs.update({k: v for k, v in shared.items() if k != "reference" and k not in inputs})
    return RunSpec(
        name=name,
        folder=None if folder is None else str(folder),
        estimate=estimate,
        reference=reference,
        meta=meta_from(keys),
        source=where,
        **run_keys,
        **inputs,
    )


def run_from_folder(
    folder: Path,
    *,
    name: str,
    root: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    references: Mapping[str, Mapping[str, str | None]] | None = None,
    where: str = "",
) -> RunSpec:
    """Read a run folder as a :class:`RunSpec` (the rules are in the module docstring).

    Parameters
    ----------
    folder : Path
        The run folder (absolute).
    name : str
        The run's name in tables.
    root : Path, optional
        The folder-convention root: keys from ``ROOT/{algorithm}/{sequence}/{trial}``
        (then required), and ``ROOT/{sequence}/reference.<ext>``.
    overrides : mapping, optional
        Keys that win over ``meta.json`` (a manifest entry; paths already absolute).
    references : mapping, optional
        Sequence to reference fields (a manifest's ``[references]``): the last resort.
    where : str
        How errors name the run's declaration.

    Raises
    ------
    FormatError
        An invalid ``meta.json``, two ``estimate.<ext>`` files, or, under a root, run keys
        that neither the path nor ``meta.json`` give.
    """
    where = where or str(folder)
    keys: dict[str, Any] = {}
    rel = folder.relative_to(root).parts if root is not None else ()
    if len(rel) == 3:
        keys.update(zip(_RUN_KEYS, rel, strict=True))
    meta_path = folder / "meta.json"
    if regular_file(meta_path, "meta.json"):
        meta = read_meta(meta_path)
        for key in PATH_KEYS:
            if key in meta:
                meta[key] = absolute_path(folder, meta[key], f"{meta_path} `{key}`")
        keys.update(meta)
    keys.update(overrides or {})
    if root is not None:
        missing = [k for k in _RUN_KEYS if k not in keys]
        if missing:
            msg = (
                f"{where}: cannot tell the run's {', '.join(missing)}: expected the folder at "
                f"{root}/ALGORITHM/SEQUENCE/TRIAL, or a meta.json naming them"
            )
            raise FormatError(msg)
        if "reference" not in keys and "sequence" in keys:
            sequence_dir = root / str(keys["sequence"])
            shared = _trajectory_file(sequence_dir, "reference") if sequence_dir.is_dir() else None
            if shared is not None and _trajectory_file(folder, "reference") is None:
                keys["reference"] = str(shared)
    return run_from_keys(keys, name=name, where=where, folder=folder, references=references)


def discover_runs(
    root: Path, *, references: Mapping[str, Mapping[str, str | None]] | None = None
) -> list[RunSpec]:
    r"""Find the runs under ``root`` by the folder convention (module docstring).

    Runs are named by their folder relative to ``root`` (so a moved tree keeps its
    names) and come in natural order (``trial_2`` before ``trial_10``).

    Raises
    ------
    FormatError
        ``root`` is not a folder or holds no run; a run folder is invalid.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "orb" / "MH_01" / "2").mkdir(parents=True)
    >>> (root / "MH_01").mkdir()
    >>> _ = (root / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    >>> _ = (root / "MH_01" / "reference.tum").write_text("0 0 0 0 0 0 0 1\n")
    >>> [(r.name, r.label, pathlib.Path(r.reference).name) for r in discover_runs(root)]
    [('orb/MH_01/2', 'orb/MH_01/2', 'reference.tum')]
    """
    base = root.resolve()
    if not base.is_dir():
        msg = f"{root}: expected a folder of runs (ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)"
        raise FormatError(msg)
    candidates = {
        p.parent
        for pattern in ("estimate.*", "meta.json")
        for p in base.rglob(pattern)
        if (p.is_file() or stream_kind(p) is not None)
        and (p.name == "meta.json" or p.suffix.lower() in TRAJECTORY_EXTENSIONS)
    }
    runs = [
        run_from_folder(
            folder,
            name=folder.relative_to(base).as_posix(),
            root=base,
            references=references,
        )
        for folder in sorted(candidates, key=lambda f: natural_key(f.relative_to(base).as_posix()))
        if not any(part.startswith(".") for part in folder.relative_to(base).parts)
    ]
    if not runs:
        msg = f"{root}: no runs found (expected ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)"
        raise FormatError(msg)
    return runs
