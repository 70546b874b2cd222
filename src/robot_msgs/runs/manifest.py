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

import functools
import json
import os
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.documents import parse_json, parse_toml, read_document
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation.settings import EvaluationSettings
from robot_msgs.io.bounded import stream_kind
from robot_msgs.io.examples import EXAMPLE_PREFIX, resolve_path
from robot_msgs.msg import field_specs
from robot_msgs.runs.folders import (
    INPUT_KEYS,
    Listing,
    PathResolver,
    is_run_folder,
    iter_discovered,
    list_folder,
    run_from_folder,
    run_from_keys,
)
from robot_msgs.runs.meta import ENTRY_KEYS, PATH_KEYS, check_keys
from robot_msgs.runs.run_settings import RunSettings
from robot_msgs.runs.spec import RunChecker, RunSpec

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence

    from robot_msgs.runs.run_settings import MetricSpec

__all__ = ["Manifest", "RunReader", "load_runs", "read_manifest", "resolve_input"]

_TABLES = ("settings", "references", "defaults", "runs", "folders")
_EVALUATION_KEYS = frozenset(field_specs(EvaluationSettings))
_AHEAD = 256  # run folders of [[runs]] entries listed ahead of the one being read


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


def _references(
    base: Path, table: Mapping[str, Any], where: str, resolver: PathResolver
) -> dict[str, dict[str, Any]]:
    """Read ``[references]``: sequence -> path, or -> {path, format, topic, times}."""
    refs: dict[str, dict[str, Any]] = {}
    for sequence, value in table.items():
        at = f"{where} [references] {sequence}"
        entry = value if isinstance(value, dict) else {"path": value}
        unknown = sorted(set(entry) - {"path", *INPUT_KEYS})
        if unknown:
            msg = f"{at}: unknown key `{unknown[0]}`; expected path, format, topic, times"
            raise FormatError(msg)
        values: dict[str, Any] = {
            "reference": resolver.absolute(base, entry.get("path"), f"{at} `path`")
        }
        for key in INPUT_KEYS:
            if key in entry:
                raw = entry[key]
                if not isinstance(raw, str) or not raw:
                    msg = f"{at} `{key}`: expected a non-empty string, got {raw!r}"
                    raise FormatError(msg)
                values[f"reference_{key}"] = (
                    resolver.absolute(base, raw, at) if key == "times" else raw
                )
        refs[sequence] = values
    return refs


def _entry(
    base: Path,
    entry: Mapping[str, Any],
    refs: Mapping[str, Any],
    where: str,
    resolver: PathResolver,
    listing: Listing | None = None,
) -> RunSpec:
    """One ``[[runs]]`` entry (``[defaults]`` merged in) as a run.

    ``listing`` is its run folder's, listed ahead (:class:`_ManifestFile`).
    """
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
            keys[key] = resolver.absolute(base, keys[key], f"{where} `{key}`")
    name = keys.pop("name", None)
    if "path" in keys:
        given = keys.pop("path")
        try:
            folder = resolve_input(given)  # example:NAME too, as a command-line input
        except FormatError as err:
            msg = f"{where}: `path` {err}"
            raise FormatError(msg) from err
        if listing is None or listing.folder != folder:
            listing = list_folder(folder)
        if name is None:
            name = _folder_name(base, given)
        if not listing.found:
            # WHY a run's failure: raised, one trial deleted (or a typo) stopped the
            # reading of every run, so bench and report evaluated none. It fails alone,
            # as a broken meta.json does, and --resume evaluates it once it is there.
            why = f"{where}: `path` {folder} is not a run folder (no such directory)"
            return run_from_keys(
                keys,
                name=name,
                where=where,
                folder=folder,
                references=refs,
                listing=listing,
                error=why,
            )
        return run_from_folder(
            folder,
            name=name,
            overrides=keys,
            references=refs,
            where=where,
            listing=listing,
            resolver=resolver,
        )
    missing = [k for k in ("algorithm", "sequence", "trial", "estimate") if k not in keys]
    if missing:
        msg = f"{where}: missing `{missing[0]}` (or a run folder `path`)"
        raise FormatError(msg)
    label = f"{keys['algorithm']}/{keys['sequence']}/{keys['trial']}"
    return run_from_keys(keys, name=name or label, where=where, references=refs)


def _folder_name(base: Path, given: str) -> str:
    """Name a run declared by its folder ``given`` (absolute, or ``example:NAME``).

    The folder relative to the manifest's folder ``base``, else as given.
    """
    if given.startswith(EXAMPLE_PREFIX):
        return given.removeprefix(EXAMPLE_PREFIX)
    try:
        return Path(given).relative_to(base).as_posix()
    except ValueError:
        return str(Path(given))


class _ManifestFile:
    """One manifest: parsed and its tables checked at once, its runs built as they are asked for.

    The run folders of ``[[runs]]`` entries are listed ahead, :data:`_AHEAD` at a time,
    in threads (a file system answers many listings at once).
    """

    def __init__(self, path: Path, resolver: PathResolver, *, threads: int = 8) -> None:
        if path.suffix not in (".toml", ".json"):
            msg = f"{path}: expected a .toml or .json manifest, got {path.suffix!r}"
            raise FormatError(msg)
        data = _load(path)
        where = str(path)
        if not isinstance(data, dict):
            msg = f"{where}: expected a table of {', '.join(_TABLES)}, got {type(data).__name__}"
            raise FormatError(msg)
        unknown = sorted(set(data) - set(_TABLES))
        if isinstance(data.get("_type"), str):  # a saved message ("unknown table `_type`")
            msg = (
                f"{where}: a saved {str(data['_type'])[:60]!r} message, not a manifest: "
                f"give the runs it was made from (their folders or manifest), or a bench "
                f"output folder"
            )
            raise FormatError(msg)
        if unknown:
            msg = f"{where}: unknown table `{unknown[0]}`; expected {', '.join(_TABLES)}"
            raise FormatError(msg)
        self.where = where
        self.base = path.resolve().parent
        self.resolver = resolver
        self.threads = threads
        self.settings = _table(data, "settings", dict, where) if "settings" in data else None
        self.refs = _references(self.base, _table(data, "references", dict, where), where, resolver)
        self.defaults = _table(data, "defaults", dict, where)
        self.entries = _table(data, "runs", list, where)
        self.folders = _table(data, "folders", list, where)
        self._refuse_one_name_twice()
        self._refuse_one_root_twice()

    def _name_of(self, entry: object) -> str | None:
        """Return the name an entry's run will have, as :func:`_entry` gives it.

        ``None`` for an invalid entry (said when it is read).
        """
        if not isinstance(entry, dict):
            return None
        keys = self.defaults | entry
        if "name" in keys:
            return keys["name"] if isinstance(keys["name"], str) else None
        given = keys.get("path")
        if isinstance(given, str) and given:
            try:
                return _folder_name(self.base, self.resolver.absolute(self.base, given, ""))
            except FormatError:
                return None
        if "path" in keys or not all(k in keys for k in ("algorithm", "sequence", "trial")):
            return None
        return f"{keys['algorithm']}/{keys['sequence']}/{keys['trial']}"

    def _refuse_one_name_twice(self) -> None:
        """Refuse two ``[[runs]]`` entries whose runs would have one name, naming both.

        WHY here: found when the second was read, a sweep had evaluated the runs before
        it (1501 entries, #3 and #1501 one folder: 21 records stored, then stopped). Both
        entries are in the file; :class:`~robot_msgs.runs.spec.RunChecker` still checks
        what only the run folders say (the keys of their ``meta.json``).
        """
        first: dict[str, int] = {}
        for i, entry in enumerate(self.entries, start=1):
            name = self._name_of(entry)
            if name is None:
                continue
            if name in first:
                msg = (
                    f"two runs are named {name!r}: {self.where} [[runs]] #{first[name]} and "
                    f"{self.where} [[runs]] #{i}; give each a distinct `name`"
                )
                raise FormatError(msg)
            first[name] = i

    def _refuse_one_root_twice(self) -> None:
        """Refuse two ``[[folders]]`` roots of which one is, or is inside, the other.

        The runs of the inner root are found under both, and were refused as two runs of
        one name (or keys) only when the second root's first run was reached: after every
        run of the first was read, and evaluated by a sweep. A root's folder is found
        without listing it (a path resolved); WHY not more up front: the names of the
        runs under two distinct roots, or the keys their ``meta.json`` give, are known
        only by walking them (a walk of 3·10^4 run folders took 76.5 s cold), which the
        sweep does while it computes (:mod:`robot_msgs.batch.intake`).
        """
        roots: list[tuple[str, str]] = []
        for i, entry in enumerate(self.folders, start=1):
            if not (isinstance(entry, dict) and isinstance(entry.get("root"), str)):
                continue  # said when it is read
            at = f"{self.where} [[folders]] #{i}"
            try:
                root = resolve_input(self.resolver.absolute(self.base, entry["root"], at))
            except FormatError:
                continue  # said when it is read
            real = os.path.realpath(root)
            for other, where in roots:
                if os.path.commonpath((real, other)) in (real, other):
                    msg = (
                        f"{where} and {at}: the roots {other} and {real} hold the same run "
                        "folders (one is, or is inside, the other); give one of them"
                    )
                    raise FormatError(msg)
            roots.append((real, at))

    def _folder_of(self, entry: object) -> Path | None:
        """Return the run folder an entry names, to list ahead (``None``: none, or invalid)."""
        if not isinstance(entry, dict):
            return None
        value = (self.defaults | entry).get("path")
        if not isinstance(value, str) or not value or value.startswith(EXAMPLE_PREFIX):
            return None
        try:
            return Path(self.resolver.absolute(self.base, value, self.where))
        except FormatError:  # named with its entry and key when the entry is read
            return None

    def runs(self) -> Iterator[RunSpec]:
        """Yield the manifest's runs in order: its ``[[runs]]``, then its ``[[folders]]``.

        Raises
        ------
        FormatError
            An invalid entry (when it is reached); no run at all (at the end).
        """
        found = 0
        seen: set[str] = set()
        with ThreadPoolExecutor(self.threads, thread_name_prefix="robot-msgs-read") as pool:
            ahead: deque[Future[Listing] | None] = deque()
            entries = iter(enumerate(self.entries))
            queued: deque[tuple[int, object]] = deque()
            for i, entry in entries:
                queued.append((i, entry))
                folder = self._folder_of(entry)
                ahead.append(None if folder is None else pool.submit(list_folder, folder))
                if len(queued) < _AHEAD:
                    continue
                run = self._entry(*queued.popleft(), ahead.popleft())
                seen.add(run.sequence)
                yield run
                found += 1
            while queued:
                run = self._entry(*queued.popleft(), ahead.popleft())
                seen.add(run.sequence)
                yield run
                found += 1
        for i, entry in enumerate(self.folders):
            at = f"{self.where} [[folders]] #{i + 1}"
            if not (
                isinstance(entry, dict)
                and set(entry) == {"root"}
                and isinstance(entry["root"], str)
            ):
                msg = f"{at}: expected a table with only `root` (a path), got {entry!r:.60}"
                raise FormatError(msg)
            try:  # example:NAME too, as a command-line input
                root = resolve_input(self.resolver.absolute(self.base, entry["root"], at))
            except FormatError as err:
                msg = f"{at}: `root` {err}"
                raise FormatError(msg) from err
            prefix = entry["root"].removeprefix(EXAMPLE_PREFIX).rstrip("/")
            for run in iter_discovered(
                root, references=self.refs, resolver=self.resolver, threads=self.threads
            ):
                found += 1
                seen.add(run.sequence)
                yield replace(run, name=f"{prefix}/{run.name}")
        self._warn_unused_references(seen)
        if not found:
            msg = f"{self.where}: no runs: add [[runs]] entries or a [[folders]] root holding runs"
            raise FormatError(msg)

    def _warn_unused_references(self, sequences: set[str]) -> None:
        """Say which ``[references]`` entries no run's sequence uses (a typo drops a reference).

        ``fr1_xzy`` for ``fr1_xyz`` left every run of the sequence without its ground
        truth, judged and reported as reference-free, with no word of it (a review).
        """
        unused = sorted(set(self.refs) - sequences)
        if not unused:
            return
        import warnings  # noqa: PLC0415 - only to say so

        from robot_msgs.errors import DataWarning, caller_stacklevel, did_you_mean  # noqa: PLC0415

        named = sorted(s for s in sequences if s)
        for sequence in unused:
            near = did_you_mean(sequence, named)
            msg = (
                f"{self.where} [references] {sequence}: no run is of this sequence, so "
                f"its reference is not used{near}"
            )
            warnings.warn(msg, DataWarning, stacklevel=caller_stacklevel())

    def _entry(self, i: int, entry: object, listed: Future[Listing] | None) -> RunSpec:
        at = f"{self.where} [[runs]] #{i + 1}"
        if not isinstance(entry, dict):
            msg = f"{at}: expected a table, got {entry!r:.60}"
            raise FormatError(msg)
        listing = None if listed is None else listed.result()
        return _entry(self.base, self.defaults | entry, self.refs, at, self.resolver, listing)


def read_manifest(path: Path) -> _Read:
    """Read a manifest's runs and its ``[settings]`` table (schema in the module docstring).

    Raises
    ------
    FormatError
        Unreadable or invalid TOML/JSON (line and column named), an unknown table or key,
        a per-run setting, a value of the wrong type, or no run at all; the message names
        the manifest and the entry.
    """
    manifest = _ManifestFile(path, PathResolver())
    runs = list(manifest.runs())
    return _Read(runs=runs, settings=manifest.settings, where=f"{manifest.where} [settings]")


class RunReader:
    """Manifests, run folders and roots of runs, read as a stream: the settings at once.

    The inputs are checked and every manifest is parsed (its settings known) when the
    reader is made; the runs are built as they are asked for, in order, each checked
    against those before it (two runs with one name are refused when the second comes).
    WHY: a sweep hands out its first runs while the rest are still read (the walk of a
    tree of 3·10^4 runs took 76.5 s cold before this reading was faster and streamed).
    :func:`load_runs` reads one to its end.

    Parameters
    ----------
    inputs, evaluation, metrics, judge, reading
        As for :func:`load_runs`.
    threads : int
        Threads that list run folders ahead of the one being read.

    Raises
    ------
    FormatError
        On making it: an input that is none of the above, an invalid manifest file or
        settings, two manifests with different ``[settings]``. While reading: as
        :func:`load_runs`.

    Examples
    --------
    >>> reader = RunReader(["example:runs/runs.toml"])
    >>> reader.settings.evaluation.align, reader.found
    ('se3', 0)
    >>> runs = list(reader)
    >>> reader.found == len(runs), reader.done
    (True, True)
    """

    def __init__(
        self,
        inputs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        evaluation: Mapping[str, Any] | None = None,
        metrics: Sequence[MetricSpec] | None = None,
        judge: Mapping[str, Any] | None = None,
        reading: Mapping[str, Any] | None = None,
        threads: int = 8,
    ) -> None:
        given_paths = _input_paths(inputs)
        self._resolver = PathResolver()
        self._sources: list[Callable[[], Iterator[RunSpec]]] = []
        tables: list[tuple[dict[str, Any], str]] = []
        for given in given_paths:
            path = resolve_input(given)
            if path.is_file():
                manifest = _ManifestFile(path, self._resolver, threads=threads)
                self._sources.append(manifest.runs)
                if manifest.settings is not None:
                    tables.append((manifest.settings, f"{manifest.where} [settings]"))
            elif is_run_folder(path):
                name = given.removeprefix(EXAMPLE_PREFIX)
                self._sources.append(functools.partial(_one_folder, path.resolve(), name))
            elif path.is_dir():
                self._sources.append(
                    functools.partial(
                        iter_discovered, path, resolver=self._resolver, threads=threads
                    )
                )
            else:
                kind = stream_kind(path)  # a FIFO or a device: not "no such file"
                if kind is not None:
                    msg = f"{given}: is {kind}: a manifest must be a regular file"
                else:
                    msg = f"{given}: no such manifest file, run folder or folder of runs"
                raise FormatError(msg)
        distinct = {json.dumps(t, sort_keys=True, default=str) for t, _ in tables}
        if len(distinct) > 1:
            names = " and ".join(where for _, where in tables[:2])
            msg = f"{names} differ: runs evaluated together need one settings block"
            raise FormatError(msg)
        table, where = tables[0] if tables else ({}, "[settings]")
        #: The one settings value of every run (a manifest's, the defaults, the flags on top).
        self.settings = RunSettings.from_options(
            table,
            where=where,
            evaluation=evaluation,
            metrics=metrics,
            judge=judge,
            reading=reading,
        )
        #: The inputs, as given (``summary.json``'s ``manifest``).
        self.source = ", ".join(given_paths)
        #: Runs read so far, in order (their count: ``found``); ``done`` once all are read.
        self.runs: list[RunSpec] = []
        self.found = 0
        self.done = False
        self._started = False

    def __iter__(self) -> Iterator[RunSpec]:
        """Yield every run, in order (once: a reader is read once).

        Raises
        ------
        FormatError
            An invalid manifest entry or run folder; a root or manifest without runs; a
            run with the name, or the keys and configuration, of an earlier one. (An
            invalid ``meta.json``, or a ``[[runs]]`` entry's missing folder, fails its run
            alone, when it is evaluated: :attr:`RunSpec.error`.)
        """
        if self._started:
            msg = "a RunReader is read once; make another to read the runs again"
            raise RuntimeError(msg)
        self._started = True
        checker = RunChecker()
        for source in self._sources:
            for run in source():
                checker.add(run)
                self.runs.append(run)
                self.found += 1
                yield run
        self.done = True

    def read(self) -> Manifest:
        """Read every run: the :class:`Manifest`."""
        for _ in self:
            pass
        return Manifest(runs=tuple(self.runs), settings=self.settings, source=self.source)


def _input_paths(inputs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """Return the inputs :class:`RunReader` was given as path strings, one path alone as one.

    WHY: a str is a sequence too, and ``load_runs("runs.toml")`` was read letter by
    letter ("r: no such manifest file", "." the working folder); a path-like other than
    ``Path`` alone (a ``PurePath``, a user's ``os.PathLike``) was still "not iterable",
    one in a list named its run folder's run by its ``repr``, and bytes said
    "startswith first arg must be bytes" (a review of 7de3d9a).

    Examples
    --------
    >>> from pathlib import PurePosixPath
    >>> _input_paths("runs.toml"), _input_paths(PurePosixPath("runs")), _input_paths(("a",))
    (['runs.toml'], ['runs'], ['a'])
    """
    listed: list[object] = (
        [inputs] if isinstance(inputs, str | bytes | os.PathLike) else list(inputs)
    )
    paths: list[str] = []
    for given in listed:
        path = os.fspath(given) if isinstance(given, os.PathLike) else given
        if not isinstance(path, str):
            msg = (
                f"Expected a path as str or os.PathLike[str], got {type(path).__name__} "
                f"{path!r:.60}"
            )
            raise ValidationError(msg)
        paths.append(path)
    return paths


def _one_folder(folder: Path, name: str) -> Iterator[RunSpec]:
    yield run_from_folder(folder, name=name)


def load_runs(
    inputs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    evaluation: Mapping[str, Any] | None = None,
    metrics: Sequence[MetricSpec] | None = None,
    judge: Mapping[str, Any] | None = None,
    reading: Mapping[str, Any] | None = None,
) -> Manifest:
    """Read manifests, run folders and roots of runs (module docstring), and their settings.

    Parameters
    ----------
    inputs : path-like or sequence of path-like
        Manifests (``.toml``/``.json``), run folders, roots, or ``example:NAME``; one
        path alone is one input. A run
        folder's run is named as given; a root's runs by their folder under the root (two
        roots holding the same names are refused: name them in a manifest).
    evaluation, metrics, judge, reading
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
        different ``[settings]``; two runs with one name, or the same keys and configuration.
    ValidationError
        An input that is not a path (bytes: decode it first, ``os.fsdecode``).
    """
    reader = RunReader(inputs, evaluation=evaluation, metrics=metrics, judge=judge, reading=reading)
    return reader.read()
