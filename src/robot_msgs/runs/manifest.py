"""What ``robot-msgs report`` and ``bench`` evaluate: manifests, run folders and roots of runs.

Manifest schema (TOML or JSON of the same shape; paths relative to the manifest's folder)
-------------------------------------------------------------------------------------------
::

    [settings]                    # robot_msgs.runs.RunSettings: one block for every run
    align = "se3"                 # the EvaluationSettings fields: align, n_align, sync, ...
    t_start_s = 1305031102.0
    [[settings.evaluate]]         # the metrics (default: APE translation, RPE 1 s all pairs)
    metric = "rpe"
    delta = 1.0
    delta_unit = "s"
    all_pairs = true

    [references]                  # optional: one reference per sequence
    MH_01 = "gt/MH_01.csv"
    MH_02 = { path = "gt/MH_02.bag", format = "bag", topic = "/leica/pose" }

    [defaults]                    # optional: keys every [[runs]] entry gets unless it sets them
    dataset = "euroc"

    [[runs]]                      # a run by its folder (meta.json there; the entry's keys win)
    path = "kfslam/fr1_xyz/trial_1"
    name = "kfslam-1"             # optional; default: the path

    [[runs]]                      # ... or by its files
    algorithm = "orb"
    sequence = "MH_01"
    trial = 1
    estimate = "orb/MH_01/1/estimate.tum"

    [[folders]]                   # runs found by the folder convention (robot_msgs.runs.folders)
    root = "results"

A ``[[runs]]`` entry takes the keys of :mod:`robot_msgs.runs.meta`; a per-run ``align``
(or any other evaluation setting) is refused: a set of runs has one settings block.

Inputs
------
:func:`load_runs` takes any mix of manifests, run folders (a folder holding
``estimate.<ext>`` or ``meta.json``) and roots of run folders (read by the convention),
each also as ``example:NAME`` for what the package ships (``example:runs/runs.toml``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import FormatError
from robot_msgs.evaluation.settings import EvaluationSettings
from robot_msgs.files import parse_json, parse_toml, read_document
from robot_msgs.io.examples import EXAMPLE_PREFIX, resolve_path
from robot_msgs.msg import field_specs
from robot_msgs.runs.folders import (
    absolute_path,
    discover_runs,
    is_run_folder,
    run_from_folder,
    run_from_keys,
)
from robot_msgs.runs.meta import ENTRY_KEYS, PATH_KEYS, check_keys
from robot_msgs.runs.run_settings import RunSettings
from robot_msgs.runs.spec import RunSpec, check_runs

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.runs.run_settings import MetricSpec

__all__ = ["Manifest", "load_runs", "read_manifest", "resolve_input"]

_TABLES = ("settings", "references", "defaults", "runs", "folders")
_INPUTS = ("format", "topic", "times")
_EVALUATION_KEYS = frozenset(field_specs(EvaluationSettings))


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    """The runs to evaluate, in declared order, and the one settings value for all of them."""

    runs: tuple[RunSpec, ...]
    settings: RunSettings = field(default_factory=RunSettings)
    source: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Read:
    """One manifest as read: its runs and its raw ``[settings]`` table."""

    runs: list[RunSpec]
    settings: dict[str, Any] | None
    where: str


def resolve_input(path: str | Path) -> Path:
    """``path``, or for ``example:NAME`` the file or folder ``NAME`` the package ships.

    Raises
    ------
    FormatError
        An ``example:`` name that does not exist.

    Examples
    --------
    >>> resolve_input("example:runs/runs.toml").name
    'runs.toml'
    """
    try:
        return resolve_path(path)
    except FileNotFoundError as err:
        msg = f"{path}: no such example ({err}; try example:runs/runs.toml)"
        raise FormatError(msg) from err


def _load(path: Path) -> Any:
    text = read_document(path, what="manifest")
    if path.suffix == ".toml":
        return parse_toml(text, source=str(path))
    return parse_json(text, source=str(path))


def _table(data: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    value = data.get(name, kind())
    if not isinstance(value, kind):
        shape = "a table" if kind is dict else "an array of tables"
        msg = f"{where}: expected [{name}] as {shape}, got {value!r:.60}"
        raise FormatError(msg)
    return value


def _references(base: Path, table: Mapping[str, Any], where: str) -> dict[str, dict[str, Any]]:
    """Read ``[references]``: sequence -> path, or -> {path, format, topic, times}."""
    refs: dict[str, dict[str, Any]] = {}
    for sequence, value in table.items():
        at = f"{where} [references] {sequence}"
        entry = value if isinstance(value, dict) else {"path": value}
        unknown = sorted(set(entry) - {"path", *_INPUTS})
        if unknown:
            msg = f"{at}: unknown key `{unknown[0]}`; expected path, format, topic, times"
            raise FormatError(msg)
        values: dict[str, Any] = {
            "reference": absolute_path(base, entry.get("path"), f"{at} `path`")
        }
        for key in _INPUTS:
            if key in entry:
                raw = entry[key]
                if not isinstance(raw, str) or not raw:
                    msg = f"{at} `{key}`: expected a non-empty string, got {raw!r}"
                    raise FormatError(msg)
                values[f"reference_{key}"] = absolute_path(base, raw, at) if key == "times" else raw
        refs[sequence] = values
    return refs


def _entry(base: Path, entry: Mapping[str, Any], refs: Mapping[str, Any], where: str) -> RunSpec:
    """One ``[[runs]]`` entry (``[defaults]`` merged in) as a run."""
    if _EVALUATION_KEYS & set(entry):
        key = min(_EVALUATION_KEYS & set(entry))
        msg = (
            f"{where}: a per-run `{key}` is refused: every run is evaluated with the one "
            "[settings] block, so its numbers can be ranked together; evaluate the runs "
            "that need other settings in a report of their own"
        )
        raise FormatError(msg)
    check_keys(entry, where, ENTRY_KEYS)
    keys = dict(entry)
    for key in PATH_KEYS:
        if key in keys:
            keys[key] = absolute_path(base, keys[key], f"{where} `{key}`")
    name = keys.pop("name", None)
    if "path" in keys:
        folder = Path(keys.pop("path"))
        if not folder.is_dir():
            msg = f"{where}: `path` {folder} is not a run folder (no such directory)"
            raise FormatError(msg)
        if name is None:
            try:
                name = folder.relative_to(base).as_posix()
            except ValueError:
                name = str(folder)
        return run_from_folder(folder, name=name, overrides=keys, references=refs, where=where)
    missing = [k for k in ("algorithm", "sequence", "trial", "estimate") if k not in keys]
    if missing:
        msg = f"{where}: missing `{missing[0]}` (or a run folder `path`)"
        raise FormatError(msg)
    label = f"{keys['algorithm']}/{keys['sequence']}/{keys['trial']}"
    return run_from_keys(keys, name=name or label, where=where, references=refs)


def read_manifest(path: Path) -> _Read:
    """Read a manifest's runs and its ``[settings]`` table (schema in the module docstring).

    Raises
    ------
    FormatError
        Unreadable or invalid TOML/JSON (line and column named), an unknown table or key,
        a per-run setting, a value of the wrong type, or no run at all; the message names
        the manifest and the entry.
    """
    if path.suffix not in (".toml", ".json"):
        msg = f"{path}: expected a .toml or .json manifest, got {path.suffix!r}"
        raise FormatError(msg)
    data = _load(path)
    where = str(path)
    if not isinstance(data, dict):
        msg = f"{where}: expected a table of {', '.join(_TABLES)}, got {type(data).__name__}"
        raise FormatError(msg)
    unknown = sorted(set(data) - set(_TABLES))
    if unknown:
        msg = f"{where}: unknown table `{unknown[0]}`; expected {', '.join(_TABLES)}"
        raise FormatError(msg)
    base = path.resolve().parent
    settings = _table(data, "settings", dict, where) if "settings" in data else None
    refs = _references(base, _table(data, "references", dict, where), where)
    defaults = _table(data, "defaults", dict, where)
    runs: list[RunSpec] = []
    for i, entry in enumerate(_table(data, "runs", list, where)):
        at = f"{where} [[runs]] #{i + 1}"
        if not isinstance(entry, dict):
            msg = f"{at}: expected a table, got {entry!r:.60}"
            raise FormatError(msg)
        runs.append(_entry(base, defaults | entry, refs, at))
    for i, entry in enumerate(_table(data, "folders", list, where)):
        at = f"{where} [[folders]] #{i + 1}"
        if not (
            isinstance(entry, dict) and set(entry) == {"root"} and isinstance(entry["root"], str)
        ):
            msg = f"{at}: expected a table with only `root` (a path), got {entry!r:.60}"
            raise FormatError(msg)
        root = Path(absolute_path(base, entry["root"], at))
        prefix = entry["root"].rstrip("/")
        runs.extend(_renamed(r, f"{prefix}/{r.name}") for r in discover_runs(root, references=refs))
    if not runs:
        msg = f"{where}: no runs: add [[runs]] entries or a [[folders]] root holding runs"
        raise FormatError(msg)
    return _Read(runs=runs, settings=settings, where=f"{where} [settings]")


def _renamed(run: RunSpec, name: str) -> RunSpec:
    from dataclasses import replace  # noqa: PLC0415

    return replace(run, name=name)


def load_runs(
    inputs: Sequence[str | Path],
    *,
    evaluation: Mapping[str, Any] | None = None,
    metrics: Sequence[MetricSpec] | None = None,
    judge: Mapping[str, Any] | None = None,
) -> Manifest:
    """Read manifests, run folders and roots of runs (module docstring), and their settings.

    Parameters
    ----------
    inputs : sequence of path-like
        Manifests (``.toml``/``.json``), run folders, roots, or ``example:NAME``. A run
        folder's run is named as given; a root's runs by their folder under the root (two
        roots holding the same names are refused: name them in a manifest).
    evaluation, metrics, judge
        Settings the command line gave (:meth:`RunSettings.from_options`): they win over
        a manifest's ``[settings]``.

    Returns
    -------
    Manifest
        The runs, in the order given, and the settings (a manifest's ``[settings]``,
        else the defaults, with the command line's on top).

    Raises
    ------
    FormatError
        As :func:`read_manifest`; an input that is none of the above; two manifests with
        different ``[settings]``; two runs with one name or the same keys.
    """
    runs: list[RunSpec] = []
    tables: list[tuple[dict[str, Any], str]] = []
    for given in inputs:
        path = resolve_input(given)
        shown = str(given)
        if path.is_file():
            read = read_manifest(path)
            runs.extend(read.runs)
            if read.settings is not None:
                tables.append((read.settings, read.where))
        elif is_run_folder(path):
            runs.append(run_from_folder(path.resolve(), name=shown.removeprefix(EXAMPLE_PREFIX)))
        elif path.is_dir():
            runs.extend(discover_runs(path))
        else:
            msg = f"{given}: no such manifest file, run folder or folder of runs"
            raise FormatError(msg)
    distinct = {json.dumps(t, sort_keys=True, default=str) for t, _ in tables}
    if len(distinct) > 1:
        names = " and ".join(where for _, where in tables[:2])
        msg = f"{names} differ: runs evaluated together need one settings block"
        raise FormatError(msg)
    table, where = tables[0] if tables else ({}, "[settings]")
    settings = RunSettings.from_options(
        table, where=where, evaluation=evaluation, metrics=metrics, judge=judge
    )
    source = ", ".join(str(p) for p in inputs)
    return Manifest(runs=check_runs(runs), settings=settings, source=source)
