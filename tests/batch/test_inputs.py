"""Inputs: stamps, hashes, run keys and content digests: what decides what --resume recomputes."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.batch.inputs import (
    MISSING,
    RACY_S,
    HashCache,
    content_digest,
    file_sha256,
    function_id,
    input_files,
    run_key,
    settings_identity,
    stamp,
    strict_stamp,
    unchanged,
)
from robot_msgs.runs import RunSettings, load_runs
from robot_msgs.runs.run_settings import RUN_DEFAULTS
from tests.batch.batch_helpers import make_tree, position_error, scripted

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.batch.tasks import RunFunction


def _digests(
    inputs: Path, fn: RunFunction = position_error, settings: RunSettings | None = None
) -> dict[str, str]:
    """Each run's content digest, computed from its files as a worker computes it."""
    m = load_runs([inputs])
    if settings is not None:
        m = dataclasses.replace(m, settings=settings)
    shared = settings_identity(m.settings.to_dict(), fn)
    return {
        run.label: content_digest(
            run_key(shared, run),
            {role: file_sha256(path) for role, path in input_files(run).items()},
        )
        for run in m.runs
    }


def _keys(inputs: Path, fn: RunFunction = position_error) -> dict[str, str]:
    m = load_runs([inputs])
    shared = settings_identity(m.settings.to_dict(), fn)
    return {run.label: run_key(shared, run) for run in m.runs}


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    assert set(before) == set(after)
    return {k for k in before if before[k] != after[k]}


def test_file_hash_is_sha256_of_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "f.tum"
    path.write_bytes(b"0 1 2 3 0 0 0 1\n")
    assert file_sha256(path) == hashlib.sha256(b"0 1 2 3 0 0 0 1\n").hexdigest()
    assert file_sha256(tmp_path / "absent") == "missing"
    assert file_sha256(None) == "missing"


def test_folder_hash_covers_names_and_bytes(tmp_path: Path) -> None:
    bag = tmp_path / "bag"
    bag.mkdir()
    (bag / "a.db3").write_bytes(b"x")
    before = file_sha256(bag)
    (bag / "a.db3").write_bytes(b"y")
    changed = file_sha256(bag)
    (bag / "a.db3").rename(bag / "b.db3")
    assert len({before, changed, file_sha256(bag)}) == 3


def test_hash_changes_only_for_the_run_whose_input_changed(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    (tmp_path / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    assert _changed(before, _digests(tmp_path)) == {"orb/MH_01/2"}


def test_a_run_folders_logs_are_inputs_of_its_hash(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    (tmp_path / "vins" / "MH_02" / "1" / "tracking.csv").write_text("time_s,event\n1.0,lost\n")
    assert _changed(before, _digests(tmp_path)) == {"vins/MH_02/1"}


def test_changing_a_shared_reference_changes_every_run_of_its_sequence(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    with (tmp_path / "MH_02" / "reference.tum").open("a") as handle:
        handle.write("# a comment changes the bytes\n")
    assert _changed(before, _digests(tmp_path)) == {
        f"{a}/MH_02/{t}" for a in ("orb", "vins") for t in "12"
    }


@pytest.mark.parametrize(
    ("meta", "why"),
    [
        ({"exit_code": -11}, "the run reported failing"),
        ({"version": "2.0"}, "its report shows the algorithm's version"),
        ({"parameters": {"features": 1200}}, "its report shows the parameters"),
    ],
)
def test_a_runs_metadata_is_part_of_its_hash(
    tmp_path: Path, meta: dict[str, Any], why: str
) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    (tmp_path / "orb" / "MH_02" / "2" / "meta.json").write_text(json.dumps(meta))
    assert _changed(before, _digests(tmp_path)) == {"orb/MH_02/2"}, why


def test_an_invalid_meta_json_keeps_the_run_key_and_is_an_input_of_its_hash(
    tmp_path: Path,
) -> None:
    """A run whose meta.json is broken has the key its path gives: its keys are not read.

    Mended to what the path says (``{}`` for ``{``), the key is the same, so the file's
    bytes are an input of the broken run: its stored failure is not kept on --resume.
    """
    make_tree(tmp_path, trials=2)
    keys, digests = _keys(tmp_path), _digests(tmp_path)
    meta = tmp_path / "orb" / "MH_02" / "2" / "meta.json"
    meta.write_text("{")
    assert _keys(tmp_path) == keys
    [broken] = [run for run in load_runs([tmp_path]).runs if run.error]
    assert input_files(broken)["meta"] == str(meta)
    assert _changed(digests, _digests(tmp_path)) == {"orb/MH_02/2"}
    meta.write_text("{}")
    assert _digests(tmp_path) == digests
    assert all("meta" not in input_files(run) for run in load_runs([tmp_path]).runs)


def test_the_bag_of_a_latency_proxy_is_an_input_of_its_hash(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=1)
    run = tmp_path / "orb" / "MH_01" / "1"
    (run / "meta.json").write_text('{"bag": "recording.bag", "latency_topic": "/pose"}')
    (run / "recording.bag").write_bytes(b"first recording")
    before = _digests(tmp_path)
    (run / "recording.bag").write_bytes(b"other recording")
    assert _changed(before, _digests(tmp_path)) == {"orb/MH_01/1"}


def test_hash_depends_on_settings_and_function_but_not_on_where_the_tree_is(
    tmp_path: Path,
) -> None:
    # A manifest names its runs relative to itself, so a moved tree keeps its run names.
    make_tree(tmp_path / "a" / "runs", trials=1)
    (tmp_path / "a" / "bench.toml").write_text('[[folders]]\nroot = "runs"\n')
    base = _digests(tmp_path / "a" / "bench.toml")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert _digests(tmp_path / "b" / "bench.toml") == base
    sim3 = RunSettings(evaluation=RUN_DEFAULTS.replace(align="sim3"))
    assert set(_digests(tmp_path / "a" / "bench.toml", settings=sim3).values()).isdisjoint(
        base.values()
    )
    other_fn = _digests(tmp_path / "a" / "bench.toml", fn=scripted)
    assert set(other_fn.values()).isdisjoint(base.values())
    assert len(set(base.values())) == len(base)  # run keys make identical files distinct


def test_a_runs_name_is_part_of_its_hash(tmp_path: Path) -> None:
    # The name is in the stored report, so a record of another name cannot be reused.
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    manifest = tmp_path / "bench.toml"
    manifest.write_text('[[runs]]\npath = "runs/orb/MH_01/1"\n')
    [(label, before)] = _digests(manifest).items()
    assert label == "runs/orb/MH_01/1"  # a run folder without keys is labelled by its name
    manifest.write_text('[[runs]]\npath = "runs/orb/MH_01/1"\nname = "orb-first"\n')
    [(label, after)] = _digests(manifest).items()
    assert label == "orb-first"
    assert after != before


def test_function_id_names_module_and_qualname() -> None:
    assert function_id(position_error) == "tests.batch.batch_helpers:position_error"


def test_the_run_key_is_read_from_no_input_and_changes_with_metadata_not_bytes(
    tmp_path: Path,
) -> None:
    make_tree(tmp_path, trials=2)
    before = _keys(tmp_path)
    (tmp_path / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    assert _keys(tmp_path) == before  # the record's name does not move with the bytes
    (tmp_path / "orb" / "MH_01" / "2" / "meta.json").write_text('{"version": "2.0"}')
    assert _changed(before, _keys(tmp_path)) == {"orb/MH_01/2"}
    assert len(set(before.values())) == len(before)


def test_a_file_stamp_is_its_size_and_mtime_and_a_folders_lists_its_files(tmp_path: Path) -> None:
    path = tmp_path / "est.tum"
    path.write_bytes(b"0 1 2 3 0 0 0 1\n")
    os.utime(path, ns=(1_000, 2_000_000_000))
    assert stamp(str(path)) == [16, 2_000_000_000]
    bag = tmp_path / "bag"
    (bag / "sub").mkdir(parents=True)
    (bag / "sub" / "b.db3").write_bytes(b"yy")
    (bag / "a.db3").write_bytes(b"x")
    os.utime(bag / "a.db3", ns=(1, 5))
    os.utime(bag / "sub" / "b.db3", ns=(1, 7))
    assert stamp(str(bag)) == [["a.db3", 1, 5], ["sub/b.db3", 2, 7]]
    assert stamp(str(tmp_path / "absent")) == MISSING
    assert stamp(None) == MISSING


def test_a_strict_stamp_sees_a_replaced_file_that_keeps_size_and_mtime(tmp_path: Path) -> None:
    path = tmp_path / "est.tum"
    path.write_bytes(b"first")
    os.utime(path, ns=(1, 10**18))
    before, strict = stamp(str(path)), strict_stamp(str(path))
    other = tmp_path / "other.tum"
    other.write_bytes(b"other")
    os.utime(other, ns=(1, 10**18))
    other.replace(path)  # same size, same mtime: only the inode and ctime tell
    assert stamp(str(path)) == before
    assert strict_stamp(str(path)) != strict


def test_a_stamp_is_trusted_only_when_equal_and_older_than_its_hashing_by_the_racy_margin() -> None:
    mtime = 1_700_000_000 * 10**9
    margin = int(RACY_S * 1e9)
    assert unchanged([5, mtime], [5, mtime], mtime + margin + 1)
    assert not unchanged([5, mtime], [5, mtime], mtime + margin)  # changed too close to it
    assert not unchanged([5, mtime], [6, mtime], mtime + 10 * margin)
    assert not unchanged([5, mtime], [5, mtime + 1], mtime + 10 * margin)
    assert unchanged(MISSING, MISSING, 0)
    assert not unchanged(MISSING, [5, mtime], mtime + 10 * margin)
    folder = [["a", 1, mtime], ["b", 2, mtime + margin]]
    assert not unchanged(folder, folder, mtime + margin + 1)  # b is racy
    assert unchanged(folder, folder, mtime + 2 * margin + 1)


def test_the_hash_cache_reads_a_file_once_until_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "ref.tum"
    path.write_bytes(b"abc")
    cache = HashCache(size=2)
    first = cache.sha256(str(path), strict_stamp(str(path)))
    assert first == hashlib.sha256(b"abc").hexdigest()
    path.write_bytes(b"abd")
    # A stale stamp gives the cached value (the caller stamps before hashing) ...
    assert cache.sha256(str(path), next(iter(cache._known))[1]) == first
    # ... a fresh stamp, the new bytes.
    assert cache.sha256(str(path), strict_stamp(str(path))) == hashlib.sha256(b"abd").hexdigest()
    other = tmp_path / "other.tum"
    other.write_bytes(b"x")
    cache.sha256(str(other), strict_stamp(str(other)))
    assert len(cache) == 2  # the oldest went first
    assert cache.sha256(None, (MISSING,)) == MISSING


def test_example_paths_are_resolved_to_the_shipped_files() -> None:
    from robot_msgs.io import example_path
    from robot_msgs.runs import RunSpec

    run = RunSpec(name="r", estimate="example:fr1_xyz/rgbdslam.tum")
    assert input_files(run)["estimate"] == str(example_path("fr1_xyz/rgbdslam.tum"))
    assert file_sha256("example:fr1_xyz/rgbdslam.tum") == file_sha256(
        example_path("fr1_xyz/rgbdslam.tum")
    )
