"""Run folders: what one holds, and the convention that finds many under a root.

A run folder
------------
One run of one algorithm on one sequence lives in a folder holding ``estimate.<ext>``
and/or ``meta.json``::

    run/
      estimate.tum     the estimated trajectory (any format robot_msgs reads, by
                       extension: .tum .txt .csv .kitti .bag .db3 .mcap); missing or empty
                       means the run produced nothing (a failure, not an error); a
                       symbolic link to nothing is a broken input (an error)
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
folders are skipped). A folder linked in (a symbolic link: results kept elsewhere) is
searched as if it were there, each folder once: a link into the root (but into a hidden
folder, not searched otherwise), to a folder that holds the root, or to one that overlaps
a folder read through another link is named in a warning and not followed (its runs
would count twice, or the walk would loop). Of two such links the first the walk meets
is followed: it goes through folders in name order, deciding each folder's links (in
name order) before walking the folders below it, so a link can win over a shallower one
in a later folder. A link to nothing (its target missing) is named in a warning too,
except in a run folder (there it is one of the run's files).
Its keys come from the path ``ROOT/{algorithm}/{sequence}/{trial}/`` and are overridden
by ``meta.json`` (at other depths ``meta.json`` must name all three).
A ``meta.json`` that cannot be read or is invalid fails its run alone, naming the file
(:attr:`RunSpec.error`): the runs beside it are read and evaluated.
Its reference is, in order: a manifest entry's or ``meta.json``'s ``reference``; the
folder's own ``reference.<ext>``; ``ROOT/{sequence}/reference.<ext>``; the manifest's
``[references]`` entry for the sequence.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat as stat_mode
import warnings
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, NamedTuple

from robot_msgs.errors import DataWarning, FormatError, caller_stacklevel
from robot_msgs.io.bounded import stream_kind
from robot_msgs.io.examples import EXAMPLE_PREFIX
from robot_msgs.runs.meta import PATH_KEYS, meta_from, read_meta
from robot_msgs.runs.spec import RunSpec, natural_key

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

__all__ = [
    "INPUT_KEYS",
    "TRAJECTORY_EXTENSIONS",
    "Listing",
    "PathResolver",
    "discover_runs",
    "is_run_folder",
    "iter_discovered",
    "list_folder",
    "regular_file",
    "run_from_folder",
    "run_from_keys",
]

#: File extensions taken as trajectories (``estimate.<ext>``, ``reference.<ext>``).
TRAJECTORY_EXTENSIONS = (".tum", ".txt", ".csv", ".kitti", ".bag", ".db3", ".mcap")

_RUN_KEYS = ("algorithm", "sequence", "trial")
_NAME_MAX = 255  # bytes of one name, and of a whole path (Linux's NAME_MAX and PATH_MAX)
_PATH_MAX = 4096
#: Folders below a root walked for runs, at most. WHY: the walk recurses once a level, and
#: 1100 nested folders (or a folder bind-mounted into itself) ended it in a RecursionError.
_DEEPEST = 256
#: Characters of a path below the root shown in an error, at most (its middle elided).
_SHOWN = 80
_SIDES = ("estimate", "reference")
_LOGS = ("timing.csv", "tracking.csv", "resources.csv")
#: Said with a link not followed because it overlaps another (the module's rule).
_FIRST_MET = (
    "of two links the first met is followed: folders in name order, "
    "each folder's links before the folders below it"
)
#: The keys that say how a side's file is read (``reference_format``, ``estimate_topic``...).
INPUT_KEYS = ("format", "topic", "times")


class PathResolver:
    """Make manifest and ``meta.json`` paths absolute, as ``Path.resolve`` does, with a cache.

    WHY: ``(base / value).resolve()`` stats every component of every path (7 ``lstat``
    calls a path, 85 % of reading a manifest of 10^4 runs, measured). Here the real path
    of each folder is kept once found, so a path costs one ``lstat`` of its folder the
    first time and one of its file: the same string, as the folders are the same
    (symbolic links are followed, ``..`` taken after them, missing parts appended).
    One resolver per reading: a folder's link can change between readings.

    Examples
    --------
    >>> from pathlib import Path
    >>> resolver = PathResolver()
    >>> resolver.absolute(Path("/data"), "gt/../gt/MH_01.csv", "m.toml")
    '/data/gt/MH_01.csv'
    """

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def _real_folder(self, path: str) -> str:
        known = self._folders.get(path)
        if known is not None:
            return known
        parent, name = os.path.split(path)
        if not name or name in (".", "..") or not parent or parent == path:
            real = os.path.realpath(path)
        else:
            real = self._real(self._real_folder(parent), name)
        self._folders[path] = real
        return real

    @staticmethod
    def _real(folder: str, name: str) -> str:
        """``folder/name`` with ``folder`` real already: resolved if ``name`` is a link."""
        joined = os.path.join(folder, name)  # noqa: PTH118 - strings: no Path per part
        try:
            link = stat_mode.S_ISLNK(os.lstat(joined).st_mode)
        except (OSError, ValueError):
            link = False  # missing (appended as it is), or not a path the system takes
        return os.path.realpath(joined) if link else joined

    def absolute(self, base: Path, value: object, where: str) -> str:
        """Return ``value`` as an absolute, real path; ``example:`` names kept as written.

        Raises
        ------
        FormatError
            ``value`` is no path (not a non-empty string, a NUL byte, too long) or cannot
            be followed; the message names ``where``.
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
        joined = os.path.join(os.path.abspath(base), value)  # noqa: PTH100, PTH118 - strings
        folder, name = os.path.split(joined)
        try:
            if not name or name in (".", "..") or not folder:
                return str(Path(joined).resolve(strict=False))
            real = self._real(self._real_folder(folder), name)
        except (OSError, RuntimeError) as err:  # a loop of links (RuntimeError <= 3.12)
            reason = getattr(err, "strerror", None) or "a loop of symbolic links"
            msg = f"{where}: cannot follow the path {value!r:.60}: {reason}"
            raise FormatError(msg) from err
        if _is_loop(real):
            msg = f"{where}: cannot follow the path {value!r:.60}: a loop of symbolic links"
            raise FormatError(msg)
        return real


def _is_loop(path: str) -> bool:
    """Whether ``path`` (made real as far as it goes) still ends in a symbolic link: a loop."""
    try:
        return stat_mode.S_ISLNK(os.lstat(path).st_mode)
    except OSError as err:  # ELOOP: a folder on the way is the loop
        return err.errno == errno.ELOOP
    except ValueError:
        return False


class Listing(NamedTuple):
    """What a folder holds, read once: each entry's name and kind, the sub-folders to walk."""

    folder: Path
    kinds: dict[str, str]  # name -> "file", "dir" (links followed) or "other"
    walk: tuple[str, ...]  # sub-folders, not hidden, not links: walked for runs
    found: bool = True  # False: no such folder
    links: tuple[str, ...] = ()  # sub-folders, not hidden, that are links: walked once
    dangling: tuple[str, ...] = ()  # links to nothing, not hidden, not a run's files


def list_folder(folder: Path) -> Listing:
    """List ``folder`` in one ``scandir`` (nothing for a folder that is missing or unreadable).

    A ``meta.json`` is read here too, to the page cache: a reader that lists folders in
    threads reads those files in parallel as well.
    """
    kinds: dict[str, str] = {}
    walk: list[str] = []
    links: list[str] = []
    dangling: list[str] = []
    found = True
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    kind = "dir" if entry.is_dir() else ("file" if entry.is_file() else "other")
                    if kind == "dir" and not entry.name.startswith("."):
                        (links if entry.is_symlink() else walk).append(entry.name)
                    elif kind == "other" and _dangling(entry):
                        dangling.append(entry.name)
                except OSError:
                    kind = "other"
                kinds[entry.name] = kind
    except (FileNotFoundError, NotADirectoryError):
        found = False
    except PermissionError:
        pass  # a folder all the same, unreadable: its files are not found
    if kinds.get("meta.json") == "file":
        with contextlib.suppress(OSError), (folder / "meta.json").open("rb") as handle:
            handle.read(1 << 20)
    return Listing(folder, kinds, tuple(walk), found, tuple(links), tuple(sorted(dangling)))


def _dangling(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a link to nothing that may have been a folder of runs.

    Not hidden, and not a file a run folder reads (a run's broken input is its error).
    """
    name = entry.name
    runs_file = name in (*_LOGS, "meta.json") or (
        name.partition(".")[0] in _SIDES and PurePath(name).suffix.lower() in TRAJECTORY_EXTENSIONS
    )
    return (
        not (name.startswith(".") or runs_file)
        and entry.is_symlink()
        and not Path(entry.path).exists()
    )


def _trajectory_in(listing: Listing, stem: str) -> Path | None:
    """Return the folder's ``stem.<ext>`` trajectory (a file, or a bag's folder), if any."""
    found = sorted(
        name
        for name in listing.kinds
        if name.startswith(f"{stem}.") and PurePath(name).suffix.lower() in TRAJECTORY_EXTENSIONS
    )
    if len(found) > 1:
        names = ", ".join(found)
        msg = f"{listing.folder}: expected one {stem} trajectory, got {len(found)} ({names})"
        raise FormatError(msg)
    return listing.folder / found[0] if found else None


def regular_file(path: Path, what: str) -> bool:
    """Whether ``path`` is a regular file to read; a special file there is named in a warning.

    A run folder's ``meta.json`` that is a pipe, a device, a folder or a link to no file
    is not read (a pipe without a writer would block, a device has no end) and the
    warning says so, so it is not skipped unseen (a log such is refused:
    :func:`robot_msgs.runs.load_run`).

    Examples
    --------
    >>> import pathlib, warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     regular_file(pathlib.Path("/dev/null"), "meta.json")
    False
    >>> print(seen[0].message)
    /dev/null: is a character device, not a regular file: not read as the run's meta.json
    """
    if path.is_file():
        return True
    # a folder was passed over without a word (its run lost its latency or metadata)
    kind = "a directory" if path.is_dir() else stream_kind(path)
    if kind is None and path.is_symlink():  # passed over unsaid, as no meta.json at all
        kind = "a symbolic link to no file (missing, or a loop of links)"
    if kind is not None:
        warnings.warn(
            f"{path}: is {kind}, not a regular file: not read as the run's {what}",
            DataWarning,
            stacklevel=caller_stacklevel(),
        )
    return False


def _is_run(listing: Listing) -> bool:
    """Whether a listed folder is a run folder: ``meta.json`` or an ``estimate.<ext>`` file.

    A ``meta.json`` or an estimate that is a special file (a pipe, a device) counts:
    reading the run names it in a warning, evaluating it fails naming it, rather than
    skipping the folder unseen.
    """
    kinds = listing.kinds
    if kinds.get("meta.json") in ("file", "other"):
        return True
    return any(
        kind in ("file", "other")
        and name.startswith("estimate.")
        and PurePath(name).suffix.lower() in TRAJECTORY_EXTENSIONS
        for name, kind in kinds.items()
    )


def _warn_if_logs_alone(listing: Listing) -> None:
    """Warn that a folder holding run logs but no estimate or ``meta.json`` is no run.

    WHY: such a folder (a trial that crashed before writing its estimate) was skipped
    without a word, and its failure left out of the success rate: 1 of 1 runs
    succeeded where 1 of 2 had (a hunt). The convention stays: it is not a run.
    """
    logs = [name for name in _LOGS if listing.kinds.get(name) == "file"]
    if logs:
        warnings.warn(
            f"{listing.folder}: holds {', '.join(logs)} but no estimate.<ext> or meta.json: "
            "not a run, and not counted (a run that wrote no estimate counts as failed "
            "with a meta.json)",
            DataWarning,
            stacklevel=caller_stacklevel(),
        )


def is_run_folder(folder: Path) -> bool:
    """Whether ``folder`` is a run folder: it holds ``meta.json`` or ``estimate.<ext>``."""
    return folder.is_dir() and _is_run(list_folder(folder))


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
    listing: Listing | None = None,
    error: str = "",
) -> RunSpec:
    """Build a :class:`RunSpec` from checked keys whose paths are already absolute.

    ``listing`` is the run folder's :func:`list_folder`, when it was listed already;
    ``error`` why the run cannot be evaluated (:attr:`RunSpec.error`).

    Raises
    ------
    FormatError
        A run declared by its files gives no ``estimate``.
    """
    run_keys = {
        k: _trial(keys[k]) if k == "trial" else str(keys[k]) for k in _RUN_KEYS if k in keys
    }
    if folder is not None and listing is None and not ("estimate" in keys and "reference" in keys):
        listing = list_folder(folder)
    if "estimate" in keys:
        estimate = str(keys["estimate"])
    elif folder is not None and listing is not None:
        estimate = str(_trajectory_in(listing, "estimate") or folder / "estimate.tum")
    else:
        msg = f"{where}: expected an `estimate` file (or a run folder `path`)"
        raise FormatError(msg)
    inputs: dict[str, Any] = {
        f"{side}_{key}": keys[f"{side}_{key}"]
        for side in _SIDES
        for key in INPUT_KEYS
        if f"{side}_{key}" in keys
    }
    reference: str | None = keys.get("reference")
    if reference is None and listing is not None:
        own = _trajectory_in(listing, "reference")
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
        error=error,
        **run_keys,
        **inputs,
    )


def _check_utf8(folder: Path) -> None:
    """Refuse a run folder whose path is not UTF-8: its name could not be written.

    WHY: a folder named with byte 0xff became the run name ``dvo/fr1_\udcff/trial_1``;
    ``bench`` computed every run, then stopped writing its outputs on "Expected a str
    UTF-8 can encode ... at `RunReport.name`" (results are JSON and Parquet, UTF-8).
    """
    try:
        str(folder).encode()
    except UnicodeEncodeError:
        shown = os.fsencode(folder).decode(errors="backslashreplace")
        msg = (
            f"{shown}: the folder's name is not UTF-8, and a run is named by its folder in "
            "results (JSON, Parquet); rename it"
        )
        raise FormatError(msg) from None


def run_from_folder(
    folder: Path,
    *,
    name: str,
    root: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    references: Mapping[str, Mapping[str, str | None]] | None = None,
    where: str = "",
    listing: Listing | None = None,
    resolver: PathResolver | None = None,
    sequence_reference: Callable[[Path], Path | None] | None = None,
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
    listing, resolver, sequence_reference
        What a reader of many runs has already: the folder's :func:`list_folder`, a
        :class:`PathResolver`, and ``ROOT/{sequence}/reference.<ext>`` by sequence folder
        (read once per sequence).

    Returns
    -------
    RunSpec
        The run; one whose ``meta.json`` cannot be read or is invalid has its keys from
        the path and the manifest entry alone and the reason as its :attr:`RunSpec.error`
        (it fails to evaluate, and the runs beside it are evaluated).

    Raises
    ------
    FormatError
        Two ``estimate.<ext>`` files, or, under a root, run keys that neither the path
        nor a valid ``meta.json`` give.
    """
    where = where or str(folder)
    _check_utf8(folder)
    listing = list_folder(folder) if listing is None else listing
    resolver = PathResolver() if resolver is None else resolver
    keys: dict[str, Any] = {}
    rel = folder.relative_to(root).parts if root is not None else ()
    if len(rel) == 3:
        keys.update(zip(_RUN_KEYS, rel, strict=True))
    meta_path = folder / "meta.json"
    kind = listing.kinds.get("meta.json")
    broken = ""
    if kind == "file" or (kind in ("other", "dir") and regular_file(meta_path, "meta.json")):
        try:
            meta = read_meta(meta_path)
            for key in PATH_KEYS:
                if key in meta:
                    meta[key] = resolver.absolute(folder, meta[key], f"{meta_path} `{key}`")
        except FormatError as err:
            broken = str(err)
        except OSError as err:  # unreadable (permissions)
            broken = f"{meta_path}: cannot read the run's meta.json: {err.strerror or err}"
        else:
            keys.update(meta)
    keys.update(overrides or {})
    if root is not None:
        missing = [k for k in _RUN_KEYS if k not in keys]
        if missing and not broken:  # the broken meta.json is said instead, by the run
            msg = (
                f"{where}: cannot tell the run's {', '.join(missing)}: expected the folder at "
                f"{root}/ALGORITHM/SEQUENCE/TRIAL, or a meta.json naming them"
            )
            raise FormatError(msg)
        if "reference" not in keys and "sequence" in keys:
            sequence_dir = root / str(keys["sequence"])
            find = _shared_reference if sequence_reference is None else sequence_reference
            shared = find(sequence_dir)
            if shared is not None and _trajectory_in(listing, "reference") is None:
                keys["reference"] = str(shared)
    return run_from_keys(
        keys,
        name=name,
        where=where,
        folder=folder,
        references=references,
        listing=listing,
        error=broken,
    )


def _shared_reference(sequence_dir: Path) -> Path | None:
    """``ROOT/{sequence}/reference.<ext>``, or ``None``."""
    return _trajectory_in(list_folder(sequence_dir), "reference") if sequence_dir.is_dir() else None


class _Walk:
    """The runs under a root in natural order, folders listed ahead in threads.

    WHY: the walk this replaces listed each run folder six times and stat-ed it seven
    (``rglob`` twice, a ``glob`` per trajectory, the sequence's reference once a run):
    2.5 ms a run cold, 0.66 ms warm (3·10^4 and 10^4 runs, measured). Here each folder
    is listed once, by a pool of threads that lists the folders ahead of the one whose
    runs are being built (a file system answers many listings at once: a network one
    especially), and each sequence's reference is found once.

    Order: the runs come as sorting their relative paths by :func:`natural_key` would
    give, each folder's subtree in place: its entries are sorted by the key of
    ``name`` (the folder as a run) and of ``name + "/"`` (the runs below it), which
    orders whole paths the same way. Names whose keys tie (``01`` and ``1``) have their
    runs sorted together by their whole paths.
    """

    def __init__(
        self,
        base: Path,
        *,
        references: Mapping[str, Mapping[str, str | None]] | None,
        resolver: PathResolver,
        threads: int,
    ) -> None:
        self.base = base
        self.references = references
        self.resolver = resolver
        self.threads = threads
        self.listed = 0
        self._sequences: dict[Path, Path | None] = {}
        self._followed: dict[str, Path] = {}  # a linked folder's real path -> the link
        # Each folder above a followed one -> the first followed below it. WHY: each link
        # was compared with every followed one, 44 s for 4,000 links (0.35 s as folders).
        self._under: dict[str, str] = {}

    def _sequence_reference(self, sequence_dir: Path) -> Path | None:
        if sequence_dir not in self._sequences:
            self._sequences[sequence_dir] = _shared_reference(sequence_dir)
        return self._sequences[sequence_dir]

    def _run(self, listing: Listing) -> RunSpec:
        folder = listing.folder
        return run_from_folder(
            folder,
            name=folder.relative_to(self.base).as_posix(),
            root=self.base,
            references=self.references,
            listing=listing,
            resolver=self.resolver,
            sequence_reference=self._sequence_reference,
        )

    def runs(self) -> Iterator[RunSpec]:
        """Yield the runs, in order."""
        with ThreadPoolExecutor(self.threads, thread_name_prefix="robot-msgs-walk") as pool:
            top = list_folder(self.base)
            if _is_run(top):
                yield self._run(top)
            yield from self._below(top, pool, 0)

    def _follow(self, link: Path) -> bool:
        """Whether to search the folder ``link`` leads to; why not in a warning.

        WHY: linked folders were not searched, without a word (a runs folder assembled
        from links to where each algorithm's results are kept read none of them). Each
        real folder is read once, under its path in the root: a link that leads into the
        root or into (or over) a folder read through an earlier link would count its runs
        twice, and one to a folder holding the root (or the link) would loop.
        """
        real = os.path.realpath(link)
        why = ""
        # Hidden folders are not walked: a link to one (runs/vins -> .store/vins) is the
        # only way its runs are read. It was refused as 'read where they are' (a review).
        if os.path.commonpath([real, self.base]) == str(self.base) and not any(
            part.startswith(".") for part in Path(real).relative_to(self.base).parts
        ):
            why = (
                f"a symbolic link to {real}, inside the runs folder: not followed (its runs "
                "are read where they are, not twice)"
            )
        elif os.path.commonpath([real, self.base]) == real:
            why = f"a symbolic link to {real}, which holds the runs folder: not followed (a loop)"
        elif (target := self._followed_over(real)) is not None:
            where = "read" if real == target else f"inside {target} read"
            why = (
                f"a symbolic link to {real}, {where} through {self._followed[target]}: not "
                f"followed (its runs twice; {_FIRST_MET})"
            )
        elif (target := self._under.get(real)) is not None:
            why = (
                f"a symbolic link to {real}, which holds {target} read through "
                f"{self._followed[target]}: not followed (a loop, or its runs twice; {_FIRST_MET})"
            )
        if why:
            warnings.warn(f"{link}: {why}", DataWarning, stacklevel=caller_stacklevel())
            return False
        self._followed[real] = link
        for above in map(str, Path(real).parents):
            if above in self._under:  # and so is every folder above it
                break
            self._under[above] = real
        return True

    def _followed_over(self, real: str) -> str | None:
        """Return the folder read through a link that is ``real`` or holds it, if any."""
        return next((f for f in (real, *map(str, Path(real).parents)) if f in self._followed), None)

    def _listed(self, listed: Future[Listing], folder: Path, depth: int) -> Listing:
        """Return ``folder``'s listing; a folder that cannot be listed is named short.

        Raises
        ------
        FormatError
            The system refused to list the folder (its path longer than the system
            allows, an I/O error): the message names the root, the depth and the folder's
            path below the root with its middle elided. A root 20 folders of 250-character
            names deep ended as the system's OSError, its message the whole 4,000-byte
            path (a review).
        """
        try:
            return listed.result()
        except OSError as err:
            below = folder.relative_to(self.base).as_posix()
            shown = below if len(below) <= _SHOWN else f"{below[:38]}...{below[-39:]}"
            size = len(os.fsencode(folder))
            reason = (
                f"its path is {size} bytes, longer than the {_PATH_MAX} the system allows"
                if err.errno == errno.ENAMETOOLONG
                else (err.strerror or str(err)).lower()
            )
            msg = f"{self.base}: cannot list the folder {depth} levels down ({shown}): {reason}"
            raise FormatError(msg) from err

    def _below(self, listing: Listing, pool: ThreadPoolExecutor, depth: int) -> Iterator[RunSpec]:
        """Yield the runs below a listed folder (not the folder itself), in order.

        ``pool`` lists the folders below ahead of the one whose runs are being built;
        ``depth`` is the folder's below the root.

        Raises
        ------
        FormatError
            The folder, :data:`_DEEPEST` levels down, holds folders.
        """
        self.listed += 1
        # WHY: a link to a moved results folder read nothing, unsaid. Not in a run folder:
        # its links are the run's files (a config linked to nothing was one warning a run).
        for name in () if _is_run(listing) else listing.dangling:
            link = listing.folder / name
            warnings.warn(
                f"{link}: a symbolic link to {os.path.realpath(link)}, which does not exist: "
                "not followed (no runs read there)",
                DataWarning,
                stacklevel=caller_stacklevel(),
            )
        # By name, then as written: names of one natural key (``01``, ``1``) came in the
        # order the system listed them, and so did which of two overlapping links won.
        linked = sorted(listing.links, key=lambda name: (natural_key(name), name))
        names = (*listing.walk, *(name for name in linked if self._follow(listing.folder / name)))
        if names and depth >= _DEEPEST:
            first = "/".join(listing.folder.relative_to(self.base).parts[:3])
            msg = (
                f"{self.base}: folders nested deeper than {_DEEPEST} levels ({first}/...); "
                "no layout of runs needs that many"
            )
            raise FormatError(msg)
        ahead = {name: pool.submit(list_folder, listing.folder / name) for name in names}
        items = sorted(
            [(natural_key(name), 0, name) for name in names]  # the folder as a run
            + [(natural_key(f"{name}/"), 1, name) for name in names]  # the runs below it
        )
        for _, group in itertools.groupby(items, key=lambda item: item[0]):
            tied = list(group)
            if len(tied) == 1:
                _, below, name = tied[0]
                child = self._listed(ahead[name], listing.folder / name, depth + 1)
                if below:
                    yield from self._below(child, pool, depth + 1)
                elif _is_run(child):
                    yield self._run(child)
                else:
                    _warn_if_logs_alone(child)
                continue
            found = []  # tied keys: the runs of these entries sorted by whole paths
            for _, below, name in sorted(tied, key=lambda item: (item[2], item[1])):
                child = self._listed(ahead[name], listing.folder / name, depth + 1)
                if below:
                    found += list(self._below(child, pool, depth + 1))
                elif _is_run(child):
                    found.append(self._run(child))
                else:
                    _warn_if_logs_alone(child)
            yield from sorted(found, key=lambda run: (natural_key(run.name), run.name))


def iter_discovered(
    root: Path,
    *,
    references: Mapping[str, Mapping[str, str | None]] | None = None,
    resolver: PathResolver | None = None,
    threads: int = 8,
) -> Iterator[RunSpec]:
    """Yield the runs under ``root`` by the folder convention, in order, as they are found.

    :func:`discover_runs` as a stream (the same runs in the same order), ``threads``
    listing folders ahead.

    Raises
    ------
    FormatError
        ``root`` is not a folder or holds no run (once every folder is walked); a run
        folder is invalid, or folders are nested deeper than 256 levels (when it is reached).
    """
    # realpath, not Path.resolve(): that raised RuntimeError on a loop of links before
    # Python 3.13 (discover_runs(LOOP): not a FormatError); is_dir() below names it
    base = Path(os.path.realpath(root))
    if not base.is_dir():
        msg = f"{root}: expected a folder of runs (ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)"
        raise FormatError(msg)
    walk = _Walk(
        base,
        references=references,
        resolver=PathResolver() if resolver is None else resolver,
        threads=threads,
    )
    found = 0
    for run in walk.runs():
        found += 1
        yield run
    if not found:
        msg = f"{root}: no runs found (expected ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)"
        raise FormatError(msg + _rpg_said(base))


def _rpg_said(base: Path) -> str:
    """Name the rpg_trajectory_evaluation folders in ``base``'s first three levels, or ``""``.

    rpg's ``analyze_trajectories.py`` reads ``<platform>/<alg>/<platform>_<alg>_<dataset>/``
    folders of ``stamped_groundtruth.txt`` and ``stamped_traj_estimate.txt``: a tree that
    is no run folder here, though a manifest's ``[[runs]]`` take its files as they are.
    """
    from robot_msgs.cli.rpg_folder import GROUND_TRUTH  # noqa: PLC0415 - only for an error
    from robot_msgs.report.text import listed  # noqa: PLC0415

    found = sorted(
        (
            p.parent.relative_to(base).as_posix()
            for depth in range(4)
            for p in base.glob("/".join(["*"] * depth + [GROUND_TRUTH]))
        ),
        key=natural_key,
    )
    if not found:
        return ""
    are = "are rpg_trajectory_evaluation folders"
    if found == ["."]:
        found, are = ["it"], "is an rpg_trajectory_evaluation folder"
    elif len(found) == 1:
        are = "is an rpg_trajectory_evaluation folder"
    return (
        f"; {listed(found, 2)} {are}: a manifest's [[runs]] entries name their files "
        "(estimate, reference)"
    )


def discover_runs(
    root: Path, *, references: Mapping[str, Mapping[str, str | None]] | None = None
) -> list[RunSpec]:
    r"""Find the runs under ``root`` by the folder convention (module docstring).

    Runs are named by their folder relative to ``root`` (so a moved tree keeps its
    names) and come in natural order (``trial_2`` before ``trial_10``).

    Raises
    ------
    FormatError
        ``root`` is not a folder or holds no run; a run folder is invalid; folders are
        nested deeper than 256 levels.

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
    return list(iter_discovered(root, references=references))
