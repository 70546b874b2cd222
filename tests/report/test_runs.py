"""Run inputs: logs, meta.json and manifests, and the errors that name file, line and field."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.errors import FormatError
from robot_msgs.report.csvlog import read_csv_table
from robot_msgs.report.logs import read_resources, read_timing, read_tracking
from robot_msgs.report.runs import load_run, load_runs, read_manifest, read_meta, resolve_input

TIMING_HEADER = "frame,acquisition_s,processing_start_s,available_s\n"


def _write(path, text):
    path.write_text(text)
    return path


# ---------------------------------------------------------------- csv tables


def test_table_skips_comments_and_blank_lines_and_reads_empty_optional_cells_as_nan(tmp_path):
    path = _write(
        tmp_path / "r.csv",
        "# logger v1\ntime_s,cpu_percent,rss_bytes,gpu_percent\n\n0,10,1,\n# gap\n1,20,2,50\n",
    )
    log = read_resources(path)
    assert log.time_s.tolist() == [0.0, 1.0]
    assert math.isnan(log.gpu_percent[0])
    assert log.gpu_percent[1] == 50.0
    assert np.isnan(log.threads).all()


def test_table_error_names_file_line_and_column_of_a_bad_cell(tmp_path):
    path = _write(
        tmp_path / "timing.csv", TIMING_HEADER + "0,0.0,0.01,0.02\n# note\n1,0.1,abc,0.12\n"
    )
    with pytest.raises(
        FormatError,
        match=r"timing.csv:4: column `processing_start_s`: expected a number, got 'abc'",
    ):
        read_timing(path)


def test_table_error_names_a_row_with_too_few_cells(tmp_path):
    path = _write(tmp_path / "timing.csv", TIMING_HEADER + "0,0.0,0.01,0.02\n1,0.1,0.12\n")
    with pytest.raises(
        FormatError, match=r"timing.csv:3: expected 4 comma-separated cells .* got 3"
    ):
        read_timing(path)


def test_table_error_when_every_row_has_the_wrong_cell_count(tmp_path):
    path = _write(tmp_path / "timing.csv", TIMING_HEADER + "0,0.0,0.01\n1,0.1,0.12\n")
    with pytest.raises(FormatError, match=r"timing.csv:2: expected 4 comma-separated cells"):
        read_timing(path)


def test_table_refuses_unknown_missing_and_duplicate_columns(tmp_path):
    path = _write(tmp_path / "a.csv", "time_s,cpu\n0,1\n")
    with pytest.raises(FormatError, match=r"a.csv:1: expected columns among .* got 'cpu'"):
        read_csv_table(path, required=("time_s",), optional=("cpu_percent",))
    path = _write(tmp_path / "b.csv", "time_s\n0\n")
    with pytest.raises(FormatError, match=r"b.csv:1: expected a column 'cpu_percent'"):
        read_csv_table(path, required=("time_s", "cpu_percent"))
    path = _write(tmp_path / "c.csv", "time_s,time_s\n0,0\n")
    with pytest.raises(FormatError, match=r"c.csv:1: expected distinct column names"):
        read_csv_table(path, required=("time_s",))


def test_table_refuses_empty_and_missing_files_and_empty_required_cells(tmp_path):
    with pytest.raises(FormatError, match=r"empty.csv:1: expected a header line"):
        read_csv_table(_write(tmp_path / "empty.csv", "# only a comment\n"), required=("t",))
    with pytest.raises(FormatError, match=r"nope.csv: no such file"):
        read_csv_table(tmp_path / "nope.csv", required=("t",))
    with pytest.raises(FormatError, match=r"d.csv:3: column `t`: expected a number, got ''"):
        read_csv_table(_write(tmp_path / "d.csv", "t,u\n1,2\n,3\n"), required=("t", "u"))
    with pytest.raises(
        FormatError, match=r"e.csv:2: column `t`: expected a finite number, got 'inf'"
    ):
        read_csv_table(_write(tmp_path / "e.csv", "t\ninf\n"), required=("t",))
    (tmp_path / "f.csv").write_bytes(b"t\n\xff\xfe\n")
    with pytest.raises(FormatError, match=r"f.csv: expected UTF-8 text"):
        read_csv_table(tmp_path / "f.csv", required=("t",))


def test_header_only_table_has_no_rows(tmp_path):
    table = read_csv_table(_write(tmp_path / "h.csv", "t,u\n"), required=("t", "u"))
    assert table.rows == 0
    assert table.floats("t").shape == (0,)


# ---------------------------------------------------------------- timing


def test_timing_refuses_acquisition_stamps_out_of_order(tmp_path):
    path = _write(tmp_path / "timing.csv", TIMING_HEADER + "0,0.1,0.11,0.12\n1,0.1,0.13,0.14\n")
    with pytest.raises(
        FormatError, match=r"timing.csv:3: column `acquisition_s`: expected a stamp after"
    ):
        read_timing(path)


def test_timing_refuses_processing_before_acquisition_and_available_before_start(tmp_path):
    path = _write(tmp_path / "t1.csv", TIMING_HEADER + "0,0.1,0.09,0.12\n")
    with pytest.raises(
        FormatError,
        match=r"t1.csv:2: column `processing_start_s`: expected a time >= acquisition_s 0.1",
    ):
        read_timing(path)
    path = _write(tmp_path / "t2.csv", TIMING_HEADER + "0,0.1,0.12,0.11\n")
    with pytest.raises(
        FormatError,
        match=r"t2.csv:2: column `available_s`: expected a time >= processing_start_s 0.12",
    ):
        read_timing(path)
    path = _write(tmp_path / "t3.csv", "frame,acquisition_s,available_s\n0,0.1,0.05\n")
    with pytest.raises(
        FormatError, match=r"t3.csv:2: column `available_s`: expected a time >= acquisition_s 0.1"
    ):
        read_timing(path)


# ---------------------------------------------------------------- tracking


def test_tracking_events_must_alternate_starting_with_lost(tmp_path):
    path = _write(tmp_path / "tracking.csv", "time_s,event\n1.0,recovered\n")
    with pytest.raises(
        FormatError, match=r"tracking.csv:2: column `event`: expected 'lost' \(events alternate"
    ):
        read_tracking(path)
    path = _write(tmp_path / "tracking.csv", "time_s,event\n1.0,lost\n2.0,LOST\n")
    with pytest.raises(FormatError, match=r"tracking.csv:3: column `event`: expected 'recovered'"):
        read_tracking(path)


def test_tracking_refuses_unknown_events_flags_and_layouts(tmp_path):
    with pytest.raises(
        FormatError, match=r"column `event`: expected 'lost' or 'recovered', got 'gone'"
    ):
        read_tracking(_write(tmp_path / "a.csv", "time_s,event\n1.0,gone\n"))
    with pytest.raises(
        FormatError, match=r"column `valid`: expected 1, 0, true or false, got 'yes'"
    ):
        read_tracking(_write(tmp_path / "b.csv", "time_s,valid\n1.0,yes\n"))
    with pytest.raises(
        FormatError, match=r"expected exactly one of the columns `event` or `valid`"
    ):
        read_tracking(_write(tmp_path / "c.csv", "time_s\n1.0\n"))
    with pytest.raises(FormatError, match=r"d.csv:3: column `time_s`: expected a time >= 2.0"):
        read_tracking(_write(tmp_path / "d.csv", "time_s,event\n2.0,lost\n1.0,recovered\n"))
    with pytest.raises(FormatError, match=r"e.csv:3: column `time_s`: expected a time after 2.0"):
        read_tracking(_write(tmp_path / "e.csv", "time_s,valid\n2.0,1\n2.0,0\n"))


def test_tracking_validity_accepts_true_false(tmp_path):
    log = read_tracking(_write(tmp_path / "v.csv", "time_s,valid\n0,true\n1,False\n2,1\n"))
    assert log.kind == "validity"
    assert log.lost.tolist() == [False, True, False]


# ---------------------------------------------------------------- resources


def test_resources_refuse_negative_values_and_unordered_time(tmp_path):
    with pytest.raises(
        FormatError, match=r"r.csv:3: column `rss_bytes`: expected a value >= 0, got -5.0"
    ):
        read_resources(_write(tmp_path / "r.csv", "time_s,cpu_percent,rss_bytes\n0,1,1\n1,1,-5\n"))
    with pytest.raises(FormatError, match=r"s.csv:3: column `time_s`: expected a time after 1.0"):
        read_resources(_write(tmp_path / "s.csv", "time_s,cpu_percent,rss_bytes\n1,1,1\n0,1,1\n"))


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
