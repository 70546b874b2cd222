"""What a sweep evaluates: a TOML manifest, or a folder of runs, and ONE settings block.

Manifest schema (TOML; paths are relative to the manifest's folder)
--------------------------------------------------------------------
::

    [settings]                    # robot_msgs.batch.settings: shared by every evaluation
    align = "se3"                 # none | se3 | sim3 | scale | posyaw | origin
    sync = "nearest"              # nearest | one_to_one | interpolate
    max_diff_s = 0.01
    statistic = "rms"             # ErrorStats field compared across runs (Aggregates)

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

    [defaults]                    # optional: keys every [[runs]] entry gets unless it sets them
    estimate_format = "tum"

    [[runs]]                      # a run by its files ...
    algorithm = "orb"
    sequence = "MH_01"
    trial = 1
    estimate = "orb/MH_01/1/estimate.tum"
    # reference = "..."           (else [references][sequence])
    # estimate_topic, estimate_times, reference_format, reference_topic, reference_times

    [[runs]]                      # ... or by its run folder (robot_msgs.batch.runs)
    path = "vins/MH_01/run-3"     # meta.json there gives the keys; the entry's keys win

    [[folders]]                   # runs found by the folder convention (robot_msgs.batch.runs)
    root = "results"

A ``[[runs]]`` entry may also carry the run report's metadata keys (``name``, ``version``,
``hardware``...), which bench ignores, so a ``robot-msgs report`` manifest plus a
``[settings]`` block is a bench manifest; a per-run ``align`` is refused. A folder given
instead of a manifest is read by the folder convention and evaluated with the default
settings (APE translation, no alignment, nearest association within 0.01 s).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from robot_msgs.batch.runs import (
    RunSpec,
    check_runs,
    discover_runs,
    references_table,
    run_from_entry,
)
from robot_msgs.batch.settings import Settings
from robot_msgs.errors import FormatError
from robot_msgs.files import parse_toml

__all__ = ["Manifest", "load_bench_input", "load_manifest"]

_TABLES = ("settings", "references", "defaults", "runs", "folders")


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    """The runs of a sweep, in deterministic order, and its settings."""

    runs: tuple[RunSpec, ...]
    settings: Settings = field(default_factory=Settings)
    source: str = ""


def _table(data: dict[str, Any], name: str, kind: type, where: str) -> Any:
    value = data.get(name, kind())
    if not isinstance(value, kind):
        shape = "a table" if kind is dict else "an array of tables"
        msg = f"{where}: expected [{name}] as {shape}, got {value!r}"
        raise FormatError(msg)
    return value


def load_manifest(path: str | Path) -> Manifest:
    """Read a TOML manifest (schema in the module docstring).

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
        Invalid TOML (with line and column), an unknown table or key, a missing field, a
        value of the wrong type, or two runs with the same algorithm/sequence/trial; the
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
        data = parse_toml(text)
    except ValueError as err:  # tomllib.TOMLDecodeError is a ValueError
        msg = f"{source}: invalid TOML: {err}"
        raise FormatError(msg) from err
    unknown = sorted(set(data) - set(_TABLES))
    if unknown:
        msg = f"{source}: unknown table `{unknown[0]}`; expected {', '.join(_TABLES)}"
        raise FormatError(msg)
    base = source.resolve().parent
    where = str(source)
    settings = Settings.build(_table(data, "settings", dict, where), where=f"{where} [settings]")
    refs = references_table(base, _table(data, "references", dict, where), where)
    defaults = _table(data, "defaults", dict, where)
    runs = []
    for i, entry in enumerate(_table(data, "runs", list, where)):
        at = f"{where} [[runs]] #{i + 1}"
        if not isinstance(entry, dict):
            msg = f"{at}: expected a table, got {entry!r}"
            raise FormatError(msg)
        runs.append(run_from_entry(base, defaults | entry, refs, at))
    for i, entry in enumerate(_table(data, "folders", list, where)):
        at = f"{where} [[folders]] #{i + 1}"
        if (
            not isinstance(entry, dict)
            or set(entry) != {"root"}
            or not isinstance(entry["root"], str)
        ):
            msg = f"{at}: expected a table with only `root` (a path), got {entry!r}"
            raise FormatError(msg)
        runs.extend(discover_runs(base / entry["root"], references=refs))
    if not runs:
        msg = f"{where}: no runs: add [[runs]] entries or a [[folders]] root holding runs"
        raise FormatError(msg)
    return Manifest(runs=check_runs(runs), settings=settings, source=where)


def load_bench_input(path: str | Path) -> Manifest:
    """A manifest file, or a folder of runs evaluated with the default settings.

    Raises
    ------
    FormatError
        As :func:`load_manifest` or :func:`~robot_msgs.batch.runs.discover_runs`.
    FileNotFoundError
        ``path`` does not exist.
    """
    target = Path(path)
    if target.is_dir():
        return Manifest(runs=check_runs(discover_runs(target)), source=str(target))
    if not target.exists():
        msg = f"{target}: no such manifest file or folder of runs"
        raise FileNotFoundError(msg)
    return load_manifest(target)
