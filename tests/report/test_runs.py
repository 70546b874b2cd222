"""Run inputs: logs, meta.json and manifests, and the errors that name file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robot_msgs.errors import FormatError
from robot_msgs.report.runs import load_run, load_runs, read_manifest, read_meta, resolve_input


def _write(path, text):
    path.write_text(text)
    return path


# ---------------------------------------------------------------- meta, manifest


def test_meta_refuses_unknown_keys_wrong_types_and_bad_json(tmp_path):
    with pytest.raises(
        FormatError, match=r"meta.json: keys: expected keys among .* got 'algoritm'"
    ):
        read_meta(_write(tmp_path / "meta.json", json.dumps({"algoritm": "orb"})))
    with pytest.raises(FormatError, match=r"meta.json: trial: expected int, got str 'one'"):
        read_meta(_write(tmp_path / "meta.json", json.dumps({"trial": "one"})))
    with pytest.raises(FormatError, match=r"meta.json: trial: expected int, got bool"):
        read_meta(_write(tmp_path / "meta.json", json.dumps({"trial": True})))
    with pytest.raises(
        FormatError, match=r"meta.json: software.opencv: expected a version string, got float"
    ):
        read_meta(_write(tmp_path / "meta.json", json.dumps({"software": {"opencv": 4.8}})))
    with pytest.raises(FormatError, match=r"meta.json: parameters.mask: expected a scalar"):
        read_meta(_write(tmp_path / "meta.json", json.dumps({"parameters": {"mask": [1, 2]}})))
    with pytest.raises(FormatError, match=r"meta.json:2:2: expected JSON"):
        read_meta(_write(tmp_path / "meta.json", '{"trial": 1\n}}'))
    with pytest.raises(FormatError, match=r"meta.json: expected a JSON object, got list"):
        read_meta(_write(tmp_path / "meta.json", "[]"))


def test_manifest_toml_merges_defaults_and_makes_paths_relative_to_it(tmp_path):
    path = _write(
        tmp_path / "runs.toml",
        '[defaults]\ndataset = "tum"\nreference = "gt.tum"\n'
        '[[runs]]\npath = "a"\nalgorithm = "x"\n'
        '[[runs]]\npath = "b"\ndataset = "other"\nalign = "sim3"\n',
    )
    first, second = read_manifest(path)
    assert first == {
        "dataset": "tum",
        "reference": tmp_path / "gt.tum",
        "path": tmp_path / "a",
        "algorithm": "x",
    }
    assert second["dataset"] == "other"
    assert second["align"] == "sim3"


def test_manifest_json_has_the_same_shape(tmp_path):
    path = _write(tmp_path / "runs.json", json.dumps({"runs": [{"path": "a", "trial": 2}]}))
    assert read_manifest(path) == [{"path": tmp_path / "a", "trial": 2}]


def test_manifest_errors_name_the_entry_and_key(tmp_path):
    with pytest.raises(FormatError, match=r"runs.toml: runs\[1\].trial: expected int, got str"):
        read_manifest(
            _write(
                tmp_path / "runs.toml", '[[runs]]\npath = "a"\n[[runs]]\npath = "b"\ntrial = "2"\n'
            )
        )
    with pytest.raises(FormatError, match=r"runs.toml: runs\[0\]: expected a `path`"):
        read_manifest(_write(tmp_path / "runs.toml", '[[runs]]\nalgorithm = "a"\n'))
    with pytest.raises(FormatError, match=r"runs.toml: expected a `runs` list"):
        read_manifest(_write(tmp_path / "runs.toml", 'runs = "a"\n'))
    with pytest.raises(
        FormatError, match=r"runs.toml: expected keys `runs` and `defaults`, got 'run'"
    ):
        read_manifest(_write(tmp_path / "runs.toml", '[[runs]]\npath = "a"\n[[run]]\npath = "b"\n'))
    with pytest.raises(FormatError, match=r"runs.toml: expected TOML"):
        read_manifest(_write(tmp_path / "runs.toml", "[[runs]\n"))
    (tmp_path / "latin1.toml").write_bytes(b'[[runs]]\npath = "caf\xe9"\n')
    with pytest.raises(FormatError, match=r"latin1.toml: expected TOML, got 'utf-8' codec"):
        read_manifest(tmp_path / "latin1.toml")
    with pytest.raises(FormatError, match=r"runs.json:1:\d+: expected JSON"):
        read_manifest(_write(tmp_path / "runs.json", "{runs"))
    with pytest.raises(FormatError, match=r"expected a .toml or .json manifest, got '.yaml'"):
        read_manifest(_write(tmp_path / "runs.yaml", ""))
    with pytest.raises(FormatError, match=r"no such manifest file"):
        read_manifest(tmp_path / "missing.toml")
    with pytest.raises(FormatError, match=r"runs.toml: defaults: expected a table"):
        read_manifest(_write(tmp_path / "runs.toml", 'defaults = 1\n[[runs]]\npath = "a"\n'))
    with pytest.raises(FormatError, match=r"runs.json: runs\[0\]: expected a table, got int"):
        read_manifest(_write(tmp_path / "runs.json", '{"runs": [1]}'))


# ---------------------------------------------------------------- run folders


def test_run_without_estimate_is_a_failed_run_not_an_error(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    _write(
        folder / "meta.json",
        json.dumps({"algorithm": "x", "sequence": "s", "trial": 3, "exit_code": -11}),
    )
    _write(folder / "estimate.tum", "# nothing written before the crash\n")
    run = load_run(folder)
    assert run.estimate is None
    assert run.meta.algorithm == "x"
    assert run.meta.trial == 3
    assert run.meta.exit_code == -11
    assert run.timing is None
    assert run.tracking is None
    assert run.resources is None


def test_run_folder_must_exist_and_named_reference_too(tmp_path):
    with pytest.raises(FormatError, match=r"expected a run folder, got no such directory"):
        load_run(tmp_path / "missing")
    folder = tmp_path / "run"
    folder.mkdir()
    _write(folder / "meta.json", json.dumps({"reference": "../gt.tum"}))
    with pytest.raises(FormatError, match=r"gt.tum: reference named for run .* does not exist"):
        load_run(folder)


def test_manifest_entries_override_meta_and_names_come_from_paths(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        _write(tmp_path / name / "meta.json", json.dumps({"algorithm": "meta", "trial": 1}))
    _write(
        tmp_path / "runs.toml",
        '[[runs]]\npath = "a"\nalgorithm = "manifest"\n[[runs]]\npath = "b"\nname = "bee"\n',
    )
    runs = load_runs([tmp_path / "runs.toml"])
    assert [r.name for r in runs] == ["a", "bee"]
    assert [r.meta.algorithm for r in runs] == ["manifest", "meta"]


def test_duplicate_run_names_are_refused(tmp_path):
    (tmp_path / "a").mkdir()
    with pytest.raises(FormatError, match=r"expected distinct run names, got .* twice"):
        load_runs([tmp_path / "a", tmp_path / "a"])


def test_example_prefix_reaches_the_shipped_runs():
    runs = load_runs([Path("example:runs/kfslam/fr1_xyz/trial_1")])
    assert runs[0].name == "example:runs/kfslam/fr1_xyz/trial_1"
    assert runs[0].meta.algorithm == "kfslam"
    with pytest.raises(FormatError, match=r"example:runs/nope: no such example"):
        resolve_input("example:runs/nope")
    with pytest.raises(FormatError, match=r"no such example"):
        resolve_input("example:../pyproject.toml")
