"""A run's inputs: the run folder convention, the manifest, and their readers.

A run folder
------------
One run of one algorithm on one sequence lives in a folder::

    run/
      estimate.tum     the estimated trajectory (TUM: ``t x y z qx qy qz qw``); missing or
                       empty means the run produced nothing (a failure, not an error)
      reference.tum    optional ground truth (or ``"reference"`` in meta.json / the
                       manifest pointing to a shared file)
      timing.csv       optional, one row per processed frame, seconds on one clock:
                       frame,acquisition_s,processing_start_s,available_s
                       (``processing_start_s`` may be left out)
      tracking.csv     optional, either events  time_s,event   (event: lost | recovered)
                       or a validity flag      time_s,valid   (1 valid, 0 lost)
      resources.csv    optional samples: time_s,cpu_percent,rss_bytes
                       [,threads][,gpu_mem_bytes][,gpu_percent]
      meta.json        optional metadata (below)

``meta.json`` keys, all optional: ``algorithm``, ``version``, ``dataset``, ``sequence``,
``hardware`` (str), ``trial`` (int), ``parameters`` ({name: scalar}), ``software``
({package: version}), ``input_rate_hz`` (the sensor's nominal rate, number), ``clock``
(how the timing clocks were synchronised, str), ``failure`` (why the run failed, str),
``exit_code`` (int; non-zero is a failure), ``estimate`` / ``reference`` (paths relative
to the folder; default ``estimate.tum`` / ``reference.tum``), ``estimate_format`` /
``reference_format`` and ``estimate_topic`` / ``reference_topic`` (passed to
:func:`robot_msgs.io.read_trajectory`, for bags), ``bag`` and ``latency_topic`` (a bag
whose header stamps against receive times give a latency proxy when there is no
``timing.csv``). Unknown keys are errors, so a typo cannot pass unseen.

A manifest
----------
A TOML (``.toml``) or JSON (``.json``) file listing runs; paths are relative to it::

    [defaults]                     # applied to every run unless it sets the key
    dataset = "tum_rgbd"

    [[runs]]
    path = "kfslam/fr1_xyz/trial_1"
    algorithm = "kfslam"           # any meta.json key, overriding meta.json
    reference = "fr1_xyz/reference.tum"
    align = "sim3"                 # optional per-run alignment for the evaluation

JSON has the same shape: ``{"defaults": {...}, "runs": [{"path": ...}, ...]}``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import FormatError
from robot_msgs.files import parse_toml
from robot_msgs.io.examples import EXAMPLE_PREFIX, resolve_path
from robot_msgs.report.logs import (
    ResourceLog,
    TimingLog,
    TrackingLog,
    read_resources,
    read_timing,
    read_tracking,
)

if TYPE_CHECKING:
    from robot_msgs.msg import Scalar
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "EXAMPLE_PREFIX",
    "META_KEYS",
    "RunInputs",
    "RunMeta",
    "load_run",
    "load_runs",
    "read_manifest",
    "read_meta",
    "resolve_input",
]

#: meta.json keys and the JSON type each must have.
META_KEYS: dict[str, str] = {
    "algorithm": "str",
    "version": "str",
    "dataset": "str",
    "sequence": "str",
    "hardware": "str",
    "clock": "str",
    "failure": "str",
    "trial": "int",
    "exit_code": "int",
    "input_rate_hz": "number",
    "parameters": "object",
    "software": "object",
    "estimate": "str",
    "estimate_format": "str",
    "estimate_topic": "str",
    "reference": "str",
    "reference_format": "str",
    "reference_topic": "str",
    "bag": "str",
    "latency_topic": "str",
}

#: Keys a manifest entry may add to :data:`META_KEYS`.
MANIFEST_KEYS: dict[str, str] = {"path": "str", "name": "str", "align": "str"}


@dataclass(frozen=True, slots=True, kw_only=True)
class RunMeta:
    """What a run was: its metadata, from meta.json and the manifest (see module docs)."""

    algorithm: str = ""
    version: str = ""
    dataset: str = ""
    sequence: str = ""
    hardware: str = ""
    clock: str = ""
    failure: str = ""
    trial: int = 0
    exit_code: int | None = None
    input_rate_hz: float = math.nan
    parameters: Mapping[str, Scalar] = field(default_factory=dict)
    software: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunInputs:
    """Everything known about one run before evaluation.

    ``estimate`` is ``None`` when the run wrote no pose (a failed run); ``reference`` is
    ``None`` without ground truth. ``align`` is a per-run evaluation override from the
    manifest (``None``: the report's setting).
    """

    name: str
    folder: Path | None
    meta: RunMeta
    estimate: PoseTrajectory | None
    estimate_path: Path | None
    reference: PoseTrajectory | None = None
    reference_path: Path | None = None
    timing: TimingLog | None = None
    tracking: TrackingLog | None = None
    resources: ResourceLog | None = None
    bag: Path | None = None
    latency_topic: str = ""
    align: str | None = None


# --------------------------------------------------------------------------- meta, manifest


def _check_keys(data: Mapping[str, Any], path: Path, prefix: str, keys: Mapping[str, str]) -> None:
    """Raise naming the file, the key path (``runs[2].trial``) and what was wrong."""
    for key, value in data.items():
        kind = keys.get(key)
        if kind is None:
            msg = f"{path}: {prefix or 'keys'}: expected keys among {sorted(keys)}, got {key!r}"
            raise FormatError(msg)
        ok = {
            "str": isinstance(value, str),
            "int": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, int | float) and not isinstance(value, bool),
            "object": isinstance(value, Mapping),
        }[kind]
        if not ok:
            got = f"{type(value).__name__} {value!r:.40}"
            raise FormatError(f"{path}: {prefix}{key}: expected {kind}, got {got}")
    for key in ("parameters", "software"):
        for name, value in dict(data.get(key, {})).items():
            scalar = value is None or isinstance(value, str | int | float | bool)
            if (key == "software" and not isinstance(value, str)) or not scalar:
                want = "a version string" if key == "software" else "a scalar (str, number, bool)"
                got = type(value).__name__
                raise FormatError(f"{path}: {prefix}{key}.{name}: expected {want}, got {got}")


def read_meta(path: Path) -> dict[str, Any]:
    """Read and check a run's ``meta.json``; return its keys (see the module docs).

    Raises
    ------
    FormatError
        Not JSON (line and column named), not an object, an unknown key, a wrong type.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        msg = f"{path}:{err.lineno}:{err.colno}: expected JSON, got {err.msg}"
        raise FormatError(msg) from err
    if not isinstance(data, dict):
        raise FormatError(f"{path}: expected a JSON object, got {type(data).__name__}")
    _check_keys(data, path, "", META_KEYS)
    return data


def _load_toml(path: Path) -> Any:
    try:
        return parse_toml(path.read_text(encoding="utf-8"))
    except ValueError as err:  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        raise FormatError(f"{path}: expected TOML, got {err}") from err


def read_manifest(path: Path) -> list[dict[str, Any]]:
    r"""Read a TOML or JSON manifest into one dict per run, defaults merged, paths absolute.

    Raises
    ------
    FormatError
        Unreadable file, an unknown suffix, no ``runs`` list, a run without ``path``, an
        unknown key or a wrong type (named as ``runs[i].key``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "runs.toml").write_text(
    ...     '[defaults]\ndataset = "tum"\n[[runs]]\npath = "a"\nalgorithm = "x"\n'
    ... )
    >>> entry = read_manifest(folder / "runs.toml")[0]
    >>> entry["dataset"], entry["algorithm"], entry["path"] == folder / "a"
    ('tum', 'x', True)
    """
    if not path.is_file():
        raise FormatError(f"{path}: no such manifest file")
    if path.suffix == ".toml":
        data = _load_toml(path)
    elif path.suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            msg = f"{path}:{err.lineno}:{err.colno}: expected JSON, got {err.msg}"
            raise FormatError(msg) from err
    else:
        raise FormatError(f"{path}: expected a .toml or .json manifest, got {path.suffix!r}")
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
        raise FormatError(f"{path}: expected a `runs` list of tables")
    unknown = sorted(set(data) - {"runs", "defaults"})
    if unknown:
        raise FormatError(f"{path}: expected keys `runs` and `defaults`, got {unknown[0]!r}")
    keys = {**META_KEYS, **MANIFEST_KEYS}
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise FormatError(f"{path}: defaults: expected a table, got {type(defaults).__name__}")
    _check_keys(defaults, path, "defaults.", keys)
    entries = []
    for i, run in enumerate(data["runs"]):
        if not isinstance(run, dict):
            raise FormatError(f"{path}: runs[{i}]: expected a table, got {type(run).__name__}")
        _check_keys(run, path, f"runs[{i}].", keys)
        if "path" not in run:
            raise FormatError(f"{path}: runs[{i}]: expected a `path` to the run folder")
        entry = {**defaults, **run}
        for key in ("path", "reference", "estimate", "bag"):
            if key in entry:
                entry[key] = path.parent / entry[key]
        entries.append(entry)
    return entries


# --------------------------------------------------------------------------- runs


def _read_trajectory(path: Path, fmt: str | None, topic: str | None) -> PoseTrajectory:
    from robot_msgs.io import read_trajectory  # noqa: PLC0415 - io is a sibling feature

    return read_trajectory(path, fmt=fmt, topic=topic)


def _has_poses(path: Path) -> bool:
    """Whether a text trajectory file has at least one non-comment line (bags: exists)."""
    if path.suffix in {".bag", ".mcap", ".db3"} or path.is_dir():
        return True
    with path.open(encoding="utf-8", errors="replace") as handle:
        return any(line.strip() and not line.lstrip().startswith("#") for line in handle)


def load_run(
    folder: Path,
    *,
    overrides: Mapping[str, Any] | None = None,
    name: str | None = None,
    cache: dict[tuple[Path, str | None, str | None], PoseTrajectory] | None = None,
) -> RunInputs:
    """Read one run folder (see the module docs); ``overrides`` are manifest keys.

    Parameters
    ----------
    folder : Path
        The run folder.
    overrides : mapping, optional
        Keys that win over ``meta.json`` (a manifest entry); paths already absolute.
    name : str, optional
        The run's name in reports (default: the folder path as given).
    cache : dict, optional
        Trajectories already read, by ``(path, format, topic)``: shared references are
        read once.

    Raises
    ------
    FormatError
        The folder is missing, or a file in it is malformed (file, line, field named).
    """
    if not folder.is_dir():
        raise FormatError(f"{folder}: expected a run folder, got no such directory")
    meta_path = folder / "meta.json"
    keys: dict[str, Any] = read_meta(meta_path) if meta_path.is_file() else {}
    for key in ("reference", "estimate", "bag"):
        if key in keys:
            keys[key] = folder / keys[key]
    keys.update(overrides or {})
    cache = {} if cache is None else cache

    def trajectory(path: Path, fmt: str | None, topic: str | None) -> PoseTrajectory:
        key = (path.resolve(), fmt, topic)
        if key not in cache:
            cache[key] = _read_trajectory(path, fmt, topic)
        return cache[key]

    estimate_path = Path(keys.get("estimate", folder / "estimate.tum"))
    estimate = None
    if estimate_path.exists() and _has_poses(estimate_path):
        estimate = trajectory(
            estimate_path, keys.get("estimate_format"), keys.get("estimate_topic")
        )
    reference_path: Path | None = Path(keys.get("reference", folder / "reference.tum"))
    reference = None
    if reference_path is not None and reference_path.exists():
        reference = trajectory(
            reference_path, keys.get("reference_format"), keys.get("reference_topic")
        )
    elif "reference" in keys:
        raise FormatError(f"{reference_path}: reference named for run {folder} does not exist")
    else:
        reference_path = None
    meta = RunMeta(
        **{k: keys[k] for k in RunMeta.__dataclass_fields__ if k in keys},
    )
    files = {
        "timing": (folder / "timing.csv", read_timing),
        "tracking": (folder / "tracking.csv", read_tracking),
        "resources": (folder / "resources.csv", read_resources),
    }
    logs = {key: reader(p) if p.is_file() else None for key, (p, reader) in files.items()}
    return RunInputs(
        name=name or keys.get("name") or str(folder),
        folder=folder,
        meta=meta,
        estimate=estimate,
        estimate_path=estimate_path,
        reference=reference,
        reference_path=reference_path,
        timing=logs["timing"],  # type: ignore[arg-type]
        tracking=logs["tracking"],  # type: ignore[arg-type]
        resources=logs["resources"],  # type: ignore[arg-type]
        bag=Path(keys["bag"]) if "bag" in keys else None,
        latency_topic=keys.get("latency_topic", ""),
        align=keys.get("align"),
    )


def resolve_input(path: str | Path) -> Path:
    """``path``, or for ``example:NAME`` the file or folder ``NAME`` under the package's examples.

    Raises
    ------
    FormatError
        An ``example:`` name that does not exist.

    Examples
    --------
    >>> resolve_input("example:runs/runs.toml").name
    'runs.toml'
    >>> resolve_input("my_runs/run_1").as_posix()
    'my_runs/run_1'
    """
    try:
        return resolve_path(path)
    except FileNotFoundError as err:
        msg = f"{path}: no such example ({err}; try example:runs/runs.toml)"
        raise FormatError(msg) from err


def load_runs(paths: list[Path] | tuple[Path, ...]) -> list[RunInputs]:
    """Read run folders and manifests (``.toml``/``.json``) in order; references read once.

    ``example:NAME`` reads what the package ships (``example:runs/runs.toml``). Run
    names: a manifest entry's ``name``, else its path relative to the manifest's folder;
    a folder given directly keeps the path as given.

    Raises
    ------
    FormatError
        As :func:`load_run` and :func:`read_manifest`, or two runs with one name.
    """
    cache: dict[tuple[Path, str | None, str | None], PoseTrajectory] = {}
    runs: list[RunInputs] = []
    for given in paths:
        path = resolve_input(given)
        if path.is_file() and path.suffix in {".toml", ".json"}:
            for entry in read_manifest(path):
                folder = Path(entry.pop("path"))
                try:
                    default_name = folder.relative_to(path.parent).as_posix()
                except ValueError:
                    default_name = str(folder)
                name = entry.pop("name", default_name)
                runs.append(load_run(folder, overrides=entry, name=name, cache=cache))
        else:
            runs.append(load_run(path, name=str(given), cache=cache))
    seen: set[str] = set()
    for run in runs:
        if run.name in seen:
            raise FormatError(f"expected distinct run names, got {run.name!r} twice")
        seen.add(run.name)
    return runs
