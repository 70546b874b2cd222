"""Runs: the folder convention and run folders (meta.json), shared with the run report."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, FormatError
from robot_msgs.limits import input_limits
from robot_msgs.runs import discover_runs, load_run, load_runs
from robot_msgs.runs.folders import PathResolver, is_run_folder, regular_file
from robot_msgs.runs.spec import natural_key
from tests.runs.tree import make_tree

if TYPE_CHECKING:
    from collections.abc import Iterator


def test_folder_convention_finds_runs_and_sequence_references(tmp_path: Path) -> None:
    offsets = make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01", "MH_02"), trials=2)
    runs = discover_runs(tmp_path)
    assert [r.label for r in runs] == [f"orb/{s}/{t}" for s in ("MH_01", "MH_02") for t in "12"]
    assert {(r.algorithm, r.sequence, r.trial) for r in runs} == set(offsets)
    assert runs[0].reference == str(tmp_path / "MH_01" / "reference.tum")
    assert runs[0].estimate == str(tmp_path / "orb" / "MH_01" / "1" / "estimate.tum")


def test_run_folder_reference_and_meta_json_take_precedence(tmp_path: Path) -> None:
    make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=1)
    run = tmp_path / "orb" / "MH_01" / "1"
    (run / "reference.csv").write_text("x")
    (run / "meta.json").write_text(json.dumps({"algorithm": "orb-slam3", "trial": 7.0}))
    (run / "estimate.png").write_text("not a trajectory")
    [found] = discover_runs(tmp_path)
    assert (found.algorithm, found.sequence, found.trial) == ("orb-slam3", "MH_01", "7")
    assert found.reference == str(run / "reference.csv")


def test_run_report_folders_at_any_depth_are_found_through_meta_json(tmp_path: Path) -> None:
    run = tmp_path / "2024" / "night" / "orb" / "MH_01" / "run-3"
    run.mkdir(parents=True)
    (run / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    (run / "meta.json").write_text(
        json.dumps({"algorithm": "orb", "sequence": "MH_01", "trial": 3})
    )
    [found] = discover_runs(tmp_path)
    assert found.label == "orb/MH_01/3"
    assert found.reference is None


def test_folder_convention_errors_name_the_folder(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"expected a folder of runs"):
        discover_runs(tmp_path / "absent")
    with pytest.raises(FormatError, match=r"no runs found"):
        discover_runs(tmp_path)
    shallow = tmp_path / "orb" / "MH_01"
    shallow.mkdir(parents=True)
    (shallow / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    with pytest.raises(
        FormatError, match=r"MH_01: cannot tell the run's algorithm, sequence, trial: expected"
    ):
        discover_runs(tmp_path)
    (shallow / "meta.json").write_text("{oops")  # the run fails to evaluate, named by it
    [run] = discover_runs(tmp_path)
    with pytest.raises(FormatError, match=r"meta.json:1:2: expected JSON"):
        load_run(run)
    (shallow / "meta.json").write_text("[1]")
    [run] = discover_runs(tmp_path)
    with pytest.raises(FormatError, match=r"meta.json: expected a JSON object, got a JSON array"):
        load_run(run)
    (shallow / "meta.json").write_text('{"algorithm": "a", "sequence": "s", "trial": 1}')
    (shallow / "estimate.csv").write_text("x")
    with pytest.raises(FormatError, match=r"expected one estimate trajectory, got 2"):
        discover_runs(tmp_path)


def test_a_run_folder_whose_name_is_not_utf8_is_refused_naming_it(tmp_path: Path) -> None:
    """A trial folder named with byte 0xff: ``bench`` computed every run and then stopped
    writing its outputs ("Expected a str UTF-8 can encode ... at `RunReport.name`"), the
    run's name being its folder's; now the runs are refused as they are read."""
    make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=1)
    try:
        (tmp_path / "orb" / "MH_01" / "1").rename(tmp_path / "orb" / "MH_01" / os.fsdecode(b"\xff"))
    except OSError:  # a file system that refuses such names (APFS) cannot hold one
        pytest.skip("the file system refuses a name that is not UTF-8")
    with pytest.raises(
        FormatError, match=r"orb/MH_01/\\xff: the folder's name is not UTF-8, and a run is named"
    ):
        discover_runs(tmp_path)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"algorithm": "orb", ', r"meta.json:1:22: expected JSON"),
        ('{"trial": [1]}', r"meta.json: `trial`: expected a non-empty string or an integer"),
        ('{"estimate": ""}', r"meta.json `estimate`: expected a path string"),
        ('{"version": "' + "x" * 2000 + '"}', r"meta.json: is 2\d{3} bytes, more than"),
    ],
)
def test_an_invalid_meta_json_fails_its_run_alone(tmp_path: Path, text: str, said: str) -> None:
    """One broken meta.json stopped the reading of every run, even with ``--allow-partial``.

    Its run keeps the keys its path gives (its run key as without a meta.json), fails to
    evaluate naming the file, and the runs beside it are read.
    """
    make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=2)
    broken = tmp_path / "orb" / "MH_01" / "2"
    (broken / "meta.json").write_text(text)
    with input_limits(max_document=1024):
        good, bad = discover_runs(tmp_path)
    assert good.error == ""
    assert (bad.name, bad.label, bad.reference) == (
        "orb/MH_01/2",
        "orb/MH_01/2",
        str(tmp_path / "MH_01" / "reference.tum"),
    )
    assert re.match(f"{re.escape(str(broken))}/{said}", bad.error), bad.error
    assert load_run(good).estimate is not None
    with pytest.raises(FormatError, match=said):
        load_run(bad)


def test_hidden_folders_are_skipped(tmp_path: Path) -> None:
    make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=1)
    hidden = tmp_path / ".trash" / "MH_01" / "1"
    hidden.mkdir(parents=True)
    (hidden / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    assert [r.label for r in discover_runs(tmp_path)] == ["orb/MH_01/1"]


def test_linked_algorithm_and_trial_folders_are_searched_under_their_names_in_the_root(
    tmp_path: Path,
) -> None:
    """An algorithm folder linked in from where its results are stored (``runs/vins ->
    /data/vins``), or a trial folder, was silently not searched: 1 run read of 3."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    make_tree(tmp_path / "data", algorithms=("vins", "orb"), sequences=("MH_01",), trials=1)
    (root / "vins").symlink_to(tmp_path / "data" / "vins")
    (root / "orb" / "MH_01" / "2").symlink_to(tmp_path / "data" / "orb" / "MH_01" / "1")
    runs = discover_runs(root)
    assert [r.label for r in runs] == ["orb/MH_01/1", "orb/MH_01/2", "vins/MH_01/1"]
    assert runs[2].algorithm == "vins"
    assert runs[2].estimate == str(root / "vins" / "MH_01" / "1" / "estimate.tum")
    assert runs[2].reference == str(root / "MH_01" / "reference.tum")


def test_a_linked_folder_read_already_or_a_loop_is_not_followed_and_named(tmp_path: Path) -> None:
    """Each folder is read once, under its path in the root: a link into the root (its
    runs are read where they are), a loop (a link to a folder holding it, or the root)
    and a second link to a folder read through a first are named in a warning, not
    followed."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    make_tree(tmp_path / "data", algorithms=("vins",), sequences=("MH_01",), trials=1)
    (root / "latest").symlink_to(root / "orb")  # into the root
    (root / "orb" / "back").symlink_to(tmp_path)  # holds the root: a loop
    (root / "vins").symlink_to(tmp_path / "data" / "vins")
    (root / "vins2").symlink_to(tmp_path / "data" / "vins" / "MH_01")  # read through vins
    loop = tmp_path / "data" / "vins" / "MH_01" / "1" / "up"
    loop.symlink_to(tmp_path / "data")  # holds the folder it is in
    with pytest.warns(DataWarning) as seen:
        runs = discover_runs(root)
    assert [r.label for r in runs] == ["orb/MH_01/1", "vins/MH_01/1"]
    said = sorted(str(w.message) for w in seen)
    data = tmp_path / "data"
    latest = f"{root / 'latest'}: a symbolic link to {root / 'orb'}, inside the runs folder"
    up = f"{root / 'vins' / 'MH_01' / '1' / 'up'}: a symbolic link to {data}, which holds"
    back = root / "orb" / "back"
    vins2 = f"{root / 'vins2'}: a symbolic link to {data / 'vins' / 'MH_01'}, inside"
    through = f"{data / 'vins'} read through {root / 'vins'}: not followed"
    rule = "of two links the first met is followed: folders in name order, each folder's links"
    assert said == [
        f"{latest}: not followed (its runs are read where they are, not twice)",
        f"{back}: a symbolic link to {tmp_path}, which holds the runs folder: not followed (a loop)",
        f"{up} {through} (a loop, or its runs twice; {rule} before the folders below it)",
        f"{vins2} {through} (its runs twice; {rule} before the folders below it)",
    ]


def test_a_link_to_a_folder_that_is_not_there_is_named_in_a_warning(tmp_path: Path) -> None:
    """``runs/vins -> /data/vins`` after /data/vins moved read none of its runs without a
    word, where a link not followed for a loop is named. A run's own broken input (its
    ``estimate.tum`` linked to nothing) stays that run's error, and hidden links are not
    looked at."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    (root / "vins").symlink_to(tmp_path / "moved" / "vins")
    (root / ".old").symlink_to(tmp_path / "moved" / "old")
    (root / "orb" / "MH_01" / "1" / "timing.csv").symlink_to(tmp_path / "moved" / "timing.csv")
    with pytest.warns(DataWarning) as seen:
        runs = discover_runs(root)
    assert [r.label for r in runs] == ["orb/MH_01/1"]
    moved = tmp_path / "moved" / "vins"
    said = f"{root / 'vins'}: a symbolic link to {moved}, which does not exist: not followed"
    assert [str(w.message) for w in seen] == [f"{said} (no runs read there)"]


def test_links_to_nothing_in_run_folders_are_not_a_warning_each(tmp_path: Path) -> None:
    """A ``config.yaml`` linked to a moved file in every run folder was one warning a run
    ("no runs read there"): a run folder's files are the run's, not folders of runs."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=3)
    for trial in (root / "orb" / "MH_01").iterdir():
        (trial / "config.yaml").symlink_to(tmp_path / "moved" / "config.yaml")
    (root / "vins").symlink_to(tmp_path / "moved" / "vins")
    with pytest.warns(DataWarning) as seen:
        runs = discover_runs(root)
    assert len(runs) == 3
    assert [str(w.message).partition(":")[0] for w in seen] == [str(root / "vins")]


class _Listed:
    """What ``os.scandir`` gives, its entries in a chosen order."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self.entries = entries

    def __enter__(self) -> Iterator[os.DirEntry[str]]:
        return iter(self.entries)

    def __exit__(self, *exc: object) -> None:
        return None


@pytest.mark.parametrize("reverse", [False, True])
def test_of_two_overlapping_links_the_first_in_name_order_is_followed_however_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reverse: bool
) -> None:
    """``01`` and ``1`` (one natural key) linked to one folder: which was followed was the
    order the file system listed them in. Now by name: ``01``, whatever the listing."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    make_tree(tmp_path / "data", algorithms=("vins",), sequences=("MH_01",), trials=1)
    (root / "1").symlink_to(tmp_path / "data" / "vins")
    (root / "01").symlink_to(tmp_path / "data" / "vins")
    scandir = os.scandir

    def listed(path: Path) -> _Listed:
        with scandir(path) as entries:
            return _Listed(sorted(entries, key=lambda e: e.name, reverse=reverse))

    monkeypatch.setattr(os, "scandir", listed)
    with pytest.warns(DataWarning, match=r"runs/1: a symbolic link to .* read through .*runs/01:"):
        runs = discover_runs(root)
    assert [r.label for r in runs] == ["01/MH_01/1", "orb/MH_01/1"]


def test_a_link_to_a_hidden_folder_in_the_root_is_followed(tmp_path: Path) -> None:
    """Hidden folders are not searched, so runs kept in ``runs/.store/vins`` and linked in
    as ``runs/vins`` are read only through the link: it was refused as "inside the runs
    folder ... its runs are read where they are", and they were read nowhere."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    make_tree(root / ".store", algorithms=("vins",), sequences=("MH_01",), trials=1)
    (root / "vins").symlink_to(root / ".store" / "vins")
    (root / ".store" / "vins" / "MH_01" / "1" / "up").symlink_to(root)  # still a loop
    with pytest.warns(DataWarning, match=r"up: a symbolic link to .*runs, inside the runs"):
        runs = discover_runs(root)
    assert [r.label for r in runs] == ["orb/MH_01/1", "vins/MH_01/1"]


def test_each_linked_folder_costs_the_same_whatever_the_links_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each link was compared with every folder followed before it: 4,000 links to
    distinct folders took 44 s to search (0.35 s as real folders; measured). Counted
    here as path comparisons: by hand, the two with the root per link, not n^2 / 2."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    n = 200
    for i in range(n):
        (tmp_path / "data" / f"t{i}").mkdir(parents=True)
        (root / f"link{i}").symlink_to(tmp_path / "data" / f"t{i}")
    compared = 0
    commonpath = os.path.commonpath

    def counted(paths: list[str]) -> str:
        nonlocal compared
        compared += 1
        return commonpath(paths)

    monkeypatch.setattr(os.path, "commonpath", counted)
    assert [r.label for r in discover_runs(root)] == ["orb/MH_01/1"]
    assert compared <= 2 * n


def test_meta_json_names_inputs_formats_and_a_reported_failure(tmp_path: Path) -> None:
    run = tmp_path / "orb" / "MH_01" / "1"
    run.mkdir(parents=True)
    (run / "traj.txt").write_text("0 0 0 0 0 0 0 1\n")
    meta = {
        "algorithm": "orb", "estimate": "traj.txt", "estimate_format": "tum",
        "reference": "../../../gt.bag", "reference_topic": "/gt", "exit_code": 3,
        "version": "1.0", "hardware": "laptop",
    }  # fmt: skip
    (run / "meta.json").write_text(json.dumps(meta))
    [found] = discover_runs(tmp_path)
    assert found.estimate == str(run / "traj.txt")
    assert (found.estimate_format, found.reference_topic) == ("tum", "/gt")
    assert found.reference == str(tmp_path / "gt.bag")
    assert found.meta.reported_failure == "exit code 3"
    assert (found.meta.version, found.meta.hardware) == ("1.0", "laptop")


@pytest.mark.parametrize(
    ("code", "said"),
    [
        # 137 - 128 = 9, SIGKILL (the out-of-memory killer's); 139 - 128 = 11, SIGSEGV
        (137, "killed by SIGKILL (exit code 137: 128 + 9, as a shell reports it)"),
        (139, "killed by SIGSEGV (exit code 139: 128 + 11, as a shell reports it)"),
        (124, "exit code 124 (what `timeout` returns when its time limit is reached)"),
        (-9, "killed by SIGKILL (exit code -9)"),
        (2, "exit code 2"),
        (255, "exit code 255"),  # 128 + 127: no signal
    ],
)
def test_a_shells_exit_status_of_a_killed_or_timed_out_run_is_said(
    tmp_path: Path, code: int, said: str
) -> None:
    """A run under `timeout 600` or killed for memory logs the shell's `$?` (124, 137):
    the report said 'exit code 137', not that a signal killed it (a user walk)."""
    run = tmp_path / "orb" / "MH_01" / "1"
    run.mkdir(parents=True)
    (run / "meta.json").write_text(json.dumps({"exit_code": code}))
    [found] = discover_runs(tmp_path)
    assert found.meta.reported_failure == said


def test_a_run_folder_without_estimate_is_still_a_run(tmp_path: Path) -> None:
    run = tmp_path / "orb" / "MH_01" / "1"
    run.mkdir(parents=True)
    (run / "meta.json").write_text(json.dumps({"failure": "tracking lost at start"}))
    [found] = discover_runs(tmp_path)
    assert found.label == "orb/MH_01/1"
    assert found.estimate == str(run / "estimate.tum")  # absent: a recorded failure later
    assert found.meta.reported_failure == "tracking lost at start"


def test_a_folder_of_logs_without_estimate_or_meta_json_is_named_not_skipped_unsaid(
    tmp_path: Path,
) -> None:
    """A trial that crashed before writing its estimate, its timing and tracking logs
    written, no meta.json: it was skipped without a word, the sequence said 1 of 1 runs
    succeeded (a hunt). It is still no run (the convention), and a warning says so."""
    done = tmp_path / "orb" / "MH_01" / "1"
    done.mkdir(parents=True)
    (done / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    crashed = tmp_path / "orb" / "MH_01" / "2"
    crashed.mkdir()
    (crashed / "timing.csv").write_text("frame,acquisition_s,available_s\n0,0,0.1\n")
    (crashed / "tracking.csv").write_text("time_s,event\n")
    (tmp_path / "MH_01").mkdir()
    (tmp_path / "MH_01" / "reference.tum").write_text("0 0 0 0 0 0 0 1\n")  # no warning
    said = rf"{re.escape(str(crashed))}: holds timing.csv, tracking.csv but no estimate"
    with pytest.warns(DataWarning, match=said) as seen:
        found = discover_runs(tmp_path)
    assert [run.label for run in found] == ["orb/MH_01/1"]
    assert len(seen) == 1


def test_the_example_runs_read_the_same_as_a_root_and_through_their_manifest() -> None:
    from importlib.resources import files

    root = Path(str(files("robot_msgs") / "examples" / "runs"))
    by_folder = load_runs([root]).runs
    by_manifest = load_runs([root / "runs.toml"]).runs
    assert sorted(r.label for r in by_folder) == sorted(r.label for r in by_manifest)
    assert len(by_folder) == 18
    runs = {r.label: r for r in by_folder}
    assert runs["dvo/fr1_xyz/1"].reference == str(root / "fr1_xyz" / "reference.tum")
    assert runs["dvo/lab_loop/3"].reference is None  # the sequence without ground truth
    assert runs["vio_ekf/fr2_desk/2"].meta.reported_failure == "killed by SIGSEGV (exit code -11)"
    assert {r.meta.reported_failure for r in by_folder} == {"", "killed by SIGSEGV (exit code -11)"}
    assert {r.name for r in by_manifest} >= {"kfslam/fr1_xyz/trial_1", "dvo/lab_loop/trial_3"}


def test_a_run_folder_holds_an_estimate_or_a_meta_json(tmp_path: Path) -> None:
    assert not is_run_folder(tmp_path)
    (tmp_path / "estimate.png").write_text("not a trajectory")
    assert not is_run_folder(tmp_path)
    (tmp_path / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    assert is_run_folder(tmp_path)
    assert not is_run_folder(tmp_path / "estimate.tum")


_NAMES = st.sampled_from(["1", "01", "2", "10", "a", "a-b", "a.1", "a1", "a01", "b", ".h", "x y"])


def _reference_order(root: Path) -> list[str]:
    """The runs under ``root`` as the folder convention defines their order.

    Every folder holding ``meta.json`` or ``estimate.<ext>`` outside hidden folders, sorted
    by :func:`natural_key` of its path relative to the root (ties: by the path itself).
    """
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        if "meta.json" in files or "estimate.tum" in files:
            found.append(Path(folder).relative_to(root).as_posix())
    return sorted(found, key=lambda name: (natural_key(name), name))


@settings(max_examples=60, deadline=None)
@given(paths=st.lists(st.lists(_NAMES, min_size=1, max_size=4), min_size=1, max_size=12))
def test_the_walk_finds_the_runs_in_the_order_of_their_whole_paths(
    tmp_path_factory: pytest.TempPathFactory, paths: list[list[str]]
) -> None:
    root = tmp_path_factory.mktemp("walk")
    for k, parts in enumerate(paths):
        folder = root.joinpath(*parts)
        folder.mkdir(parents=True, exist_ok=True)
        meta = {"algorithm": "a", "sequence": "s", "trial": str(k)}
        (folder / "meta.json").write_text(json.dumps(meta))
    expected = _reference_order(root)
    if not expected:  # every run in a hidden folder
        with pytest.raises(FormatError, match=r"no runs found"):
            discover_runs(root)
        return
    assert [run.name for run in discover_runs(root)] == expected


def test_the_path_resolver_gives_what_resolve_gives(tmp_path: Path) -> None:
    (tmp_path / "data" / "gt").mkdir(parents=True)
    (tmp_path / "data" / "gt" / "MH_01.csv").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "data")
    (tmp_path / "data" / "est.tum").symlink_to(tmp_path / "data" / "gt" / "MH_01.csv")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    resolver = PathResolver()
    for base, value in [
        (tmp_path, "data/gt/MH_01.csv"),
        (tmp_path, "link/gt/MH_01.csv"),  # a linked folder
        (tmp_path, "link/gt/../gt/./MH_01.csv"),  # .. after a link
        (tmp_path / "link", "../link/est.tum"),  # a linked file
        (tmp_path, "link/missing/more/x.tum"),  # missing parts: appended
        (tmp_path, str(tmp_path / "data" / "gt")),  # absolute
        (tmp_path, "data/gt/"),
        (tmp_path, "data/.."),
    ]:
        assert resolver.absolute(base, value, "m.toml") == str((base / value).resolve()), value
    # A loop of links (resolve() raises RuntimeError): refused, naming where it was given.
    with pytest.raises(FormatError, match=r"m\.toml: cannot follow the path 'loop/x': a loop"):
        resolver.absolute(tmp_path, "loop/x", "m.toml")


def _nested(root: Path, depth: int) -> Path:
    """Make ``root/a/a/.../a``, ``depth`` folders deep; return the deepest."""
    root.mkdir()
    folder = root
    for _ in range(depth):  # one by one: mkdir(parents=True) recurses once a level too
        folder /= "a"
        folder.mkdir()
    return folder


def test_a_tree_of_folders_too_deep_to_walk_is_refused_naming_the_root(tmp_path: Path) -> None:
    # 1100 nested folders (a bind mount of a folder into itself nests without end) ended
    # report and bench as "a bug in robot_msgs" (RecursionError); refused by name instead.
    deepest = _nested(tmp_path / "deep", 1100)
    try:
        with pytest.raises(FormatError, match=r"/deep: folders nested deeper than 256 levels"):
            discover_runs(tmp_path / "deep")
    finally:  # removed bottom up: pytest's cleanup (shutil.rmtree) recurses once a level
        while deepest != tmp_path:
            deepest.rmdir()
            deepest = deepest.parent
    # At the bound a run is still found (meta.json names its keys, as at any other depth).
    bottom = _nested(tmp_path / "at_bound", 256)
    keys = {"algorithm": "orb", "sequence": "MH_01", "trial": 1}
    (bottom / "meta.json").write_text(json.dumps(keys))
    [found] = discover_runs(tmp_path / "at_bound")
    assert found.label == "orb/MH_01/1"


def test_a_folder_whose_path_the_system_refuses_is_named_by_the_root_and_its_depth(
    tmp_path: Path,
) -> None:
    """A root 20 folders of 250-character names deep ended as the system's OSError, its
    message the whole path, cut at 2,000 characters (a review): the error names the root,
    the depth, and the path below the root with its middle elided."""
    root = tmp_path / "deep"
    root.mkdir()
    letters = "abcdefghijklmnopqrst"
    fd = os.open(root, os.O_RDONLY)
    try:
        for letter in letters:  # by descriptor: the paths grow past what the system takes
            os.mkdir(letter * 250, dir_fd=fd)
            below = os.open(letter * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = below
        os.close(os.open("estimate.tum", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    finally:
        os.close(fd)
    depth = (4096 - len(str(root))) // 251 + 1  # the first folder whose path passes 4096
    size = len(str(root)) + 251 * depth
    elided = f"{'a' * 38}...{letters[depth - 1] * 39}"
    said = (
        f"{root}: cannot list the folder {depth} levels down ({elided}): its path is "
        f"{size} bytes, longer than the 4096 the system allows"
    )
    with pytest.raises(FormatError, match=f"^{re.escape(said)}$"):
        discover_runs(root)


@pytest.mark.parametrize("name", ["meta.json", "timing.csv"])
def test_a_folder_where_a_runs_file_belongs_is_named_in_a_warning(
    tmp_path: Path, name: str
) -> None:
    """A folder named meta.json or timing.csv was passed over without a word (the run
    lost its metadata or its latency), where a pipe or a device there is named."""
    folder = tmp_path / name
    folder.mkdir()
    with pytest.warns(
        DataWarning, match=rf"{re.escape(str(folder))}: is a directory, not a regular file"
    ):
        assert not regular_file(folder, name)


def test_a_loop_of_links_given_as_the_root_of_runs_is_named_not_a_bug(tmp_path: Path) -> None:
    """Path.resolve() raised RuntimeError('Symlink loop ...') before Python 3.13:
    discover_runs(LOOP) let it out, where a root that is no folder is a FormatError."""
    loop = tmp_path / "a"
    (tmp_path / "b").symlink_to(loop)
    loop.symlink_to(tmp_path / "b")
    with pytest.raises(FormatError, match=rf"^{re.escape(str(loop))}: expected a folder of runs"):
        discover_runs(loop)
