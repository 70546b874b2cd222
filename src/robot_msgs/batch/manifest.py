"""What a sweep evaluates: the runs (a TOML manifest or a folder convention) and ONE settings block.

Manifest (TOML; paths are relative to the manifest's folder)
-------------------------------------------------------------
::

    [settings]                    # shared by every evaluation of every run
    align = "se3"                 # none | se3 | sim3 | scale | posyaw | origin
    sync = "nearest"              # nearest | one_to_one | interpolate
    max_diff_s = 0.01
    statistic = "rms"             # ErrorStats field distributed across runs in Aggregates

    [[settings.evaluate]]         # one Comparison per run and entry (default: APE translation)
    metric = "ape"
    relation = "translation"

    [[settings.evaluate]]
    metric = "rpe"
    relation = "angle_deg"
    delta = 1.0
    delta_unit = "s"
    all_pairs = true
    align = "none"                # an entry's keys override the shared ones

    [references]                  # optional: one reference per sequence
    MH_01 = "gt/MH_01.csv"
    MH_02 = { path = "gt/MH_02.bag", format = "bag", topic = "/leica/pose" }

    [[runs]]
    algorithm = "orb"
    sequence = "MH_01"
    trial = 1
    estimate = "orb/MH_01/1/estimate.tum"
    # reference = "..."  (else [references][sequence])
    # estimate_format, estimate_topic, estimate_times, reference_format, ... optional

    [[folders]]                   # optional: runs found by the folder convention below
    root = "results"

Folder convention (``robot-msgs bench FOLDER`` or ``[[folders]]``)
------------------------------------------------------------------
A run is a folder holding one ``estimate.<ext>`` (``ext`` a trajectory file extension).
Its keys are ``algorithm``, ``sequence`` and ``trial`` from the folder's ``meta.json``
when it has them (the run-report convention, any depth), else from the path
``ROOT/{algorithm}/{sequence}/{trial}/``. Its reference is the folder's own
``reference.<ext>``, else ``ROOT/{sequence}/reference.<ext>``, else the manifest's
``[references]`` entry. A bare folder is evaluated with the default settings
(:data:`DEFAULT_EVALUATION`, nearest association within 0.01 s, no alignment).

WHY one settings block: a ranking may only compare numbers computed the same way (the
SLAM guide: "do not silently mix these evaluation settings within one ranking"), so a
sweep has one set of settings and per-run overrides do not exist.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.compare import ErrorStats
from robot_msgs.errors import FormatError

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "APE_OPTIONS",
    "DEFAULT_EVALUATION",
    "RPE_OPTIONS",
    "TRAJECTORY_EXTENSIONS",
    "Evaluation",
    "Manifest",
    "RunSpec",
    "Settings",
    "discover_runs",
    "load_bench_input",
    "load_manifest",
]

#: Options an APE evaluation accepts, with the types a manifest may give them.
APE_OPTIONS: dict[str, tuple[type, ...]] = {
    "relation": (str,),
    "align": (str,),
    "n_align": (int,),
    "sync": (str,),
    "max_diff_s": (float, int),
    "offset_s": (float, int),
}
#: Options an RPE evaluation accepts: APE's plus the pair selection.
RPE_OPTIONS: dict[str, tuple[type, ...]] = {
    **APE_OPTIONS,
    "delta": (float, int),
    "delta_unit": (str,),
    "all_pairs": (bool,),
    "pairs_from": (str,),
}
_OPTIONS = {"ape": APE_OPTIONS, "rpe": RPE_OPTIONS}
_SHARED_ONLY = {"statistic"}

#: The evaluation a sweep runs when its settings name none.
DEFAULT_EVALUATION: dict[str, Any] = {"metric": "ape", "relation": "translation"}

#: File extensions the folder convention takes as trajectories (``estimate.<ext>``).
TRAJECTORY_EXTENSIONS = (".tum", ".txt", ".csv", ".kitti", ".bag", ".db3", ".mcap")

_RUN_KEYS = ("algorithm", "sequence", "trial")
_INPUT_KEYS = ("format", "topic", "times")
_RUN_FIELDS = {
    *_RUN_KEYS,
    "estimate",
    "reference",
    *(f"{side}_{key}" for side in ("estimate", "reference") for key in _INPUT_KEYS),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class RunSpec:
    """One run to evaluate: its keys and where its inputs are (absolute paths).

    ``reference`` is ``None`` when no reference was found; evaluating such a run ends
    as a recorded failure that says where the sweep looked.
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
            **{
                f"{side}_{key}": getattr(self, f"{side}_{key}")
                for side in ("estimate", "reference")
                for key in ("format", "topic")
            },
        }


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Evaluation:
    """One metric call per run: ``metric`` (``"ape"`` or ``"rpe"``) and its keyword options.

    ``name`` labels its rows in the results table; by default ``metric:relation`` plus,
    for RPE, the delta (``rpe:translation:1.0s:all``).

    Examples
    --------
    >>> entry = {"metric": "rpe", "relation": "translation", "delta": 1, "delta_unit": "m"}
    >>> ev = Evaluation.build(entry)
    >>> ev.name, ev.kwargs()
    ('rpe:translation:1.0m', {'delta': 1.0, 'delta_unit': 'm', 'relation': 'translation'})
    """

    metric: str
    options: tuple[tuple[str, str | float | int | bool], ...]
    name: str

    @classmethod
    def build(cls, entry: Mapping[str, Any], *, where: str = "settings") -> Evaluation:
        """Check one ``[[settings.evaluate]]`` entry (shared settings merged in) and build it.

        Raises
        ------
        FormatError
            An unknown metric, an option the metric does not take, or a value of the wrong type.
        """
        metric = entry.get("metric", "ape")
        if metric not in _OPTIONS:
            msg = f"{where}: expected `metric` one of {sorted(_OPTIONS)}, got {metric!r}"
            raise FormatError(msg)
        allowed = _OPTIONS[metric]
        options: dict[str, str | float | int | bool] = {}
        value: str | float | int | bool
        for key, value in entry.items():
            if key in {"metric", "name"}:
                continue
            if key not in allowed:
                expected = f"expected one of {sorted(allowed)}"
                msg = f"{where}: `{key}` is not an option of {metric}; {expected}"
                raise FormatError(msg)
            types = allowed[key]
            if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
                names = " or ".join(t.__name__ for t in types)
                msg = f"{where}: expected `{key}` as {names}, got {value!r}"
                raise FormatError(msg)
            options[key] = float(value) if float in types else value
        name = entry.get("name")
        if name is None:
            name = f"{metric}:{options.get('relation', 'translation')}"
            if metric == "rpe":
                name += f":{options.get('delta', 1.0)}{options.get('delta_unit', 'f')}"
                name += ":all" if options.get("all_pairs") else ""
        if not isinstance(name, str) or not name:
            msg = f"{where}: expected `name` as a non-empty string, got {name!r}"
            raise FormatError(msg)
        return cls(metric=metric, options=tuple(sorted(options.items())), name=name)

    def kwargs(self) -> dict[str, str | float | int | bool]:
        """The keyword arguments of ``robot_msgs.evaluation.ape``/``rpe`` for this evaluation."""
        return dict(self.options)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"name", "metric", **options}``."""
        return {"name": self.name, "metric": self.metric, **dict(self.options)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The ONE settings block of a sweep: its evaluations and the statistic aggregated."""

    evaluations: tuple[Evaluation, ...] = field(
        default_factory=lambda: (Evaluation.build(DEFAULT_EVALUATION),)
    )
    statistic: str = "rms"

    @classmethod
    def build(cls, block: Mapping[str, Any], *, where: str = "[settings]") -> Settings:
        """Check a ``[settings]`` table (shared keys plus ``[[settings.evaluate]]``).

        Examples
        --------
        >>> s = Settings.build({"align": "se3", "evaluate": [{"metric": "ape"}]})
        >>> [ev.to_dict() for ev in s.evaluations]
        [{'name': 'ape:translation', 'metric': 'ape', 'align': 'se3'}]
        """
        shared = {k: v for k, v in block.items() if k != "evaluate"}
        statistic = shared.pop("statistic", "rms")
        if statistic not in ErrorStats.__dataclass_fields__:
            msg = f"{where}: expected `statistic` an ErrorStats field, got {statistic!r}"
            raise FormatError(msg)
        unknown = sorted(set(shared) - set(RPE_OPTIONS) - _SHARED_ONLY)
        if unknown:
            msg = f"{where}: unknown setting `{unknown[0]}`; expected one of {sorted(RPE_OPTIONS)}"
            raise FormatError(msg)
        entries = block.get("evaluate", [DEFAULT_EVALUATION])
        if not isinstance(entries, list) or not entries:
            msg = f"{where}: expected `evaluate` as a non-empty array of tables, got {entries!r}"
            raise FormatError(msg)
        evaluations: list[Evaluation] = []
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                msg = f"{where}: expected evaluate[{i}] as a table, got {entry!r}"
                raise FormatError(msg)
            metric = entry.get("metric", "ape")
            accepted = _OPTIONS.get(metric, {})
            merged = {k: v for k, v in shared.items() if k in accepted} | entry
            evaluations.append(Evaluation.build(merged, where=f"{where} evaluate[{i}]"))
        names = [ev.name for ev in evaluations]
        duplicate = next((n for n in names if names.count(n) > 1), None)
        if duplicate is not None:
            msg = f"{where}: two evaluations are named {duplicate!r}; give each a distinct `name`"
            raise FormatError(msg)
        return cls(evaluations=tuple(evaluations), statistic=statistic)

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form (part of every task's content hash)."""
        return {
            "statistic": self.statistic,
            "evaluate": [ev.to_dict() for ev in self.evaluations],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    """The runs of a sweep and its settings, as loaded from a manifest file or a folder."""

    runs: tuple[RunSpec, ...]
    settings: Settings = field(default_factory=Settings)
    source: str = ""


# --------------------------------------------------------------------------- loading


def _toml_loads(text: str) -> dict[str, Any]:
    # tomli is a dependency on Python 3.10 only (pyproject: tomli>=2; python_version<'3.11').
    module = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    data: dict[str, Any] = module.loads(text)
    return data


def _path(base: Path, value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        msg = f"{where}: expected a path string, got {value!r}"
        raise FormatError(msg)
    return str((base / value).resolve())


def _text(value: object, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        msg = f"{where}: expected a non-empty string or integer, got {value!r}"
        raise FormatError(msg)
    return str(value)


def _reference_table(base: Path, table: object, where: str) -> dict[str, dict[str, str | None]]:
    """``[references]``: sequence -> path, or -> {path, format, topic, times}."""
    if not isinstance(table, dict):
        msg = f"{where}: expected [references] as a table of sequence = path, got {table!r}"
        raise FormatError(msg)
    refs: dict[str, dict[str, str | None]] = {}
    for sequence, value in table.items():
        at = f"{where} [references] {sequence}"
        entry = value if isinstance(value, dict) else {"path": value}
        unknown = sorted(set(entry) - {"path", *_INPUT_KEYS})
        if unknown:
            msg = f"{at}: unknown key `{unknown[0]}`; expected path, format, topic, times"
            raise FormatError(msg)
        refs[sequence] = {
            "reference": _path(base, entry.get("path"), at),
            "reference_format": entry.get("format"),
            "reference_topic": entry.get("topic"),
            "reference_times": _path(base, entry["times"], at) if "times" in entry else None,
        }
    return refs


def _run_from_entry(
    base: Path, entry: object, refs: Mapping[str, Mapping[str, str | None]], where: str
) -> RunSpec:
    if not isinstance(entry, dict):
        msg = f"{where}: expected a table, got {entry!r}"
        raise FormatError(msg)
    unknown = sorted(set(entry) - _RUN_FIELDS)
    if unknown:
        msg = f"{where}: unknown key `{unknown[0]}`; expected some of {sorted(_RUN_FIELDS)}"
        raise FormatError(msg)
    missing = [k for k in (*_RUN_KEYS, "estimate") if k not in entry]
    if missing:
        msg = f"{where}: missing `{missing[0]}`"
        raise FormatError(msg)
    keys = {k: _text(entry[k], f"{where} `{k}`") for k in _RUN_KEYS}
    values: dict[str, Any] = {"estimate": _path(base, entry["estimate"], f"{where} `estimate`")}
    if "reference" in entry:
        values["reference"] = _path(base, entry["reference"], f"{where} `reference`")
    else:
        values.update(refs.get(keys["sequence"], {}))
    for side in ("estimate", "reference"):
        for key in _INPUT_KEYS:
            name = f"{side}_{key}"
            if name in entry:
                raw = entry[name]
                values[name] = (
                    _path(base, raw, f"{where} `{name}`")
                    if key == "times"
                    else _text(raw, f"{where} `{name}`")
                )
    return RunSpec(**keys, **values, source=where)


def load_manifest(path: str | Path) -> Manifest:
    """Read a TOML manifest: its ``[settings]``, ``[[runs]]``, ``[[folders]]``, ``[references]``.

    Parameters
    ----------
    path : path-like
        The manifest; relative paths inside it are relative to its folder.

    Returns
    -------
    Manifest
        Runs in deterministic order (algorithm, sequence, natural trial order).

    Raises
    ------
    FormatError
        Invalid TOML (with line and column), an unknown key, a missing field, a value
        of the wrong type, or two runs with the same algorithm/sequence/trial; the
        message names the manifest and the entry.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "bench.toml").write_text('''
    ... [settings]
    ... align = "se3"
    ... [[runs]]
    ... algorithm = "orb"
    ... sequence = "MH_01"
    ... trial = 1
    ... estimate = "orb.tum"
    ... reference = "gt.tum"
    ... ''')
    >>> m = load_manifest(folder / "bench.toml")
    >>> m.runs[0].label, m.settings.evaluations[0].kwargs()
    ('orb/MH_01/1', {'align': 'se3', 'relation': 'translation'})
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        msg = f"{source}: expected a UTF-8 TOML manifest, got undecodable bytes ({err.reason})"
        raise FormatError(msg) from err
    try:
        data = _toml_loads(text)
    except ValueError as err:  # tomllib.TOMLDecodeError is a ValueError
        msg = f"{source}: invalid TOML: {err}"
        raise FormatError(msg) from err
    unknown = sorted(set(data) - {"settings", "runs", "folders", "references"})
    if unknown:
        msg = (
            f"{source}: unknown table `{unknown[0]}`; expected settings, runs, folders, references"
        )
        raise FormatError(msg)
    base = source.resolve().parent
    settings_block = data.get("settings", {})
    if not isinstance(settings_block, dict):
        msg = f"{source}: expected [settings] as a table, got {settings_block!r}"
        raise FormatError(msg)
    settings = Settings.build(settings_block, where=f"{source} [settings]")
    refs = _reference_table(base, data.get("references", {}), str(source))
    runs = [
        _run_from_entry(base, entry, refs, f"{source} [[runs]] #{i + 1}")
        for i, entry in enumerate(_array(data.get("runs", []), f"{source} [[runs]]"))
    ]
    for i, entry in enumerate(_array(data.get("folders", []), f"{source} [[folders]]")):
        where = f"{source} [[folders]] #{i + 1}"
        if not isinstance(entry, dict) or set(entry) != {"root"}:
            msg = f"{where}: expected a table with only `root`, got {entry!r}"
            raise FormatError(msg)
        runs.extend(discover_runs(_path(base, entry["root"], where), references=refs))
    if not runs:
        msg = f"{source}: no runs: add [[runs]] entries or a [[folders]] root holding runs"
        raise FormatError(msg)
    return Manifest(runs=_checked(runs), settings=settings, source=str(source))


def _array(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        msg = f"{where}: expected an array of tables, got {value!r}"
        raise FormatError(msg)
    return value


def _checked(runs: Iterable[RunSpec]) -> tuple[RunSpec, ...]:
    """Sort runs and refuse two with the same keys (their rows would be indistinguishable)."""
    seen: dict[tuple[str, str, str], RunSpec] = {}
    for run in runs:
        key = (run.algorithm, run.sequence, run.trial)
        if key in seen:
            msg = (
                f"two runs are {run.label}: {seen[key].source or seen[key].estimate} and "
                f"{run.source or run.estimate}; give each a distinct trial"
            )
            raise FormatError(msg)
        seen[key] = run
    return tuple(sorted(seen.values(), key=lambda r: r.sort_key))


def _trajectory_file(folder: Path, stem: str) -> Path | None:
    found = sorted(p for p in folder.glob(f"{stem}.*") if p.suffix.lower() in TRAJECTORY_EXTENSIONS)
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        msg = f"{folder}: expected one {stem} trajectory, got {len(found)} ({names})"
        raise FormatError(msg)
    return found[0] if found else None


def _meta_keys(folder: Path) -> dict[str, str]:
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
    keys: dict[str, str] = {}
    for key in _RUN_KEYS:
        value = data.get(key)
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            value = int(value)
        if value is not None:
            keys[key] = _text(value, f"{meta} `{key}`")
    return keys


def discover_runs(
    root: str | Path, *, references: Mapping[str, Mapping[str, str | None]] | None = None
) -> list[RunSpec]:
    r"""Find the runs under ``root`` by the folder convention (see the module docstring).

    Parameters
    ----------
    root : path-like
        The folder to search.
    references : mapping, optional
        Sequence to reference fields (from a manifest's ``[references]``), used when
        neither the run folder nor ``ROOT/{sequence}/`` holds a ``reference.<ext>``.

    Returns
    -------
    list of RunSpec
        In deterministic order.

    Raises
    ------
    FormatError
        ``root`` is not a folder or holds no run; a run folder has two estimates, an
        invalid ``meta.json``, or is neither at ``ROOT/{algorithm}/{sequence}/{trial}``
        nor described by its ``meta.json``.

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
        msg = f"{root}: expected a folder of runs (ROOT/algorithm/sequence/trial/estimate.*)"
        raise FormatError(msg)
    runs: list[RunSpec] = []
    folders = sorted({p.parent for p in base.rglob("estimate.*") if p.is_file()})
    for folder in folders:
        rel = folder.relative_to(base).parts
        if any(part.startswith(".") for part in rel):
            continue
        estimate = _trajectory_file(folder, "estimate")
        if estimate is None:
            continue
        keys = _meta_keys(folder)
        if len(rel) == 3:
            keys = dict(zip(_RUN_KEYS, rel, strict=True)) | keys
        missing = [k for k in _RUN_KEYS if k not in keys]
        if missing:
            msg = (
                f"{folder}: cannot tell the run's {', '.join(missing)}: expected the folder at "
                f"{base}/ALGORITHM/SEQUENCE/TRIAL or a meta.json naming them"
            )
            raise FormatError(msg)
        values: dict[str, Any] = {}
        reference = _trajectory_file(folder, "reference")
        if reference is None and (base / keys["sequence"]).is_dir():
            reference = _trajectory_file(base / keys["sequence"], "reference")
        if reference is not None:
            values["reference"] = str(reference)
        elif references and keys["sequence"] in references:
            values.update(references[keys["sequence"]])
        runs.append(RunSpec(**keys, estimate=str(estimate), **values, source=str(folder)))
    if not runs:
        msg = f"{root}: no runs found (expected ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)"
        raise FormatError(msg)
    return runs


def load_bench_input(path: str | Path) -> Manifest:
    """A manifest file, or a folder of runs evaluated with the default settings.

    Raises
    ------
    FormatError
        As :func:`load_manifest` or :func:`discover_runs`.
    FileNotFoundError
        ``path`` does not exist.
    """
    target = Path(path)
    if target.is_dir():
        return Manifest(runs=_checked(discover_runs(target)), source=str(target))
    if not target.exists():
        msg = f"{target}: no such manifest file or folder of runs"
        raise FileNotFoundError(msg)
    return load_manifest(target)
