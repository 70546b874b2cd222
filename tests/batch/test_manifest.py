"""Manifests and the folder convention: what runs a sweep evaluates, with which settings."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from robot_msgs.batch.manifest import load_bench_input, load_manifest
from robot_msgs.batch.settings import Settings
from robot_msgs.errors import FormatError
from tests.batch.batch_helpers import make_tree

if TYPE_CHECKING:
    from pathlib import Path

MANIFEST = """
[settings]
align = "se3"
max_diff_s = 0.02
delta = 2
statistic = "median"

[[settings.evaluate]]
metric = "ape"
relation = "translation"

[[settings.evaluate]]
metric = "rpe"
relation = "angle_deg"
delta_unit = "s"
all_pairs = true
align = "none"

[references]
MH_01 = "gt/MH_01.tum"
MH_02 = { path = "gt/MH_02.bag", format = "bag", topic = "/leica/pose" }

[[runs]]
algorithm = "orb"
sequence = "MH_01"
trial = 10
estimate = "orb/10.tum"

[[runs]]
algorithm = "orb"
sequence = "MH_01"
trial = 2
estimate = "orb/2.tum"
estimate_format = "tum"

[[runs]]
algorithm = "orb"
sequence = "MH_02"
trial = "a"
estimate = "orb/a.bag"
reference = "other.tum"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bench.toml"
    path.write_text(text)
    return path


def test_manifest_runs_are_sorted_with_natural_trial_order_and_absolute_paths(tmp_path):
    m = load_manifest(_write(tmp_path, MANIFEST))
    assert [r.label for r in m.runs] == ["orb/MH_01/2", "orb/MH_01/10", "orb/MH_02/a"]
    first = m.runs[0]
    assert first.estimate == str(tmp_path / "orb" / "2.tum")
    assert first.reference == str(tmp_path / "gt" / "MH_01.tum")
    assert first.estimate_format == "tum"


def test_manifest_references_table_gives_format_and_topic_unless_the_run_names_its_own(tmp_path):
    m = load_manifest(_write(tmp_path, MANIFEST.replace('reference = "other.tum"\n', "")))
    bag_run = m.runs[2]
    assert bag_run.reference == str(tmp_path / "gt" / "MH_02.bag")
    assert (bag_run.reference_format, bag_run.reference_topic) == ("bag", "/leica/pose")
    own = load_manifest(_write(tmp_path, MANIFEST)).runs[2]
    assert own.reference == str(tmp_path / "other.tum")
    assert own.reference_topic is None


def test_shared_settings_apply_where_the_metric_takes_them_and_entries_override(tmp_path):
    s = load_manifest(_write(tmp_path, MANIFEST)).settings
    ape, rpe = s.evaluations
    assert ape.kwargs() == {"align": "se3", "max_diff_s": 0.02, "relation": "translation"}
    assert rpe.kwargs() == {
        "align": "none",
        "all_pairs": True,
        "delta": 2.0,
        "delta_unit": "s",
        "max_diff_s": 0.02,
        "relation": "angle_deg",
    }
    assert [ape.name, rpe.name] == ["ape:translation", "rpe:angle_deg:2.0s:all"]
    assert s.statistic == "median"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[settings\n", r"bench.toml: invalid TOML: .*line 1"),
        ("[stuff]\n", r"unknown table `stuff`"),
        ("settings = 3\n", r"expected \[settings\] as a table, got 3"),
        ("[settings]\n", r"no runs: add \[\[runs\]\] entries or a \[\[folders\]\] root"),
        ("runs = 3\n", r"expected \[runs\] as an array of tables, got 3"),
        ('[[runs]]\nalgorithm = "a"\n', r"\[\[runs\]\] #1: unknown key|missing `sequence`"),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\n',
            r"\[\[runs\]\] #1: missing `estimate`",
        ),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = true\nestimate = "e"\n',
            r"#1 `trial`: expected a non-empty string or integer, got True",
        ),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "e"\ncolour = 1\n',
            r"#1: unknown key `colour`",
        ),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = 5\n',
            r"#1 `estimate`: expected a path string, got 5",
        ),
        ("[[folders]]\npath = 'x'\n", r"\[\[folders\]\] #1: expected a table with only `root`"),
        ("[defaults]\ncolour = 1\n[[runs]]\npath = 'x'\n", r"#1: unknown key `colour`"),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "e"\nalign = "se3"\n',
            r"#1: a per-run `align` is refused: a sweep evaluates every run with the one",
        ),
        ("[[runs]]\npath = 'absent'\n", r"#1: `path` .*absent is not a run folder"),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "e"\nexit_code = "1"\n',
            r"#1: expected `exit_code` as an integer",
        ),
        ("[references]\nMH_01 = { file = 'x' }\n", r"\[references\] MH_01: unknown key `file`"),
        ("references = 1\n", r"expected \[references\] as a table"),
    ],
)
def test_invalid_manifests_raise_naming_the_file_and_entry(tmp_path, text, match):
    path = _write(tmp_path, text)
    with pytest.raises(FormatError, match=match) as info:
        load_manifest(path)
    assert str(path) in str(info.value)


def test_two_runs_with_the_same_keys_are_refused(tmp_path):
    run = '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "{}"\n'
    path = _write(tmp_path, run.format("e1.tum") + run.format("e2.tum"))
    with pytest.raises(FormatError, match=r"two runs are a/s/1: .*#1 and .*#2"):
        load_manifest(path)


def test_non_utf8_manifest_is_refused(tmp_path):
    path = tmp_path / "bench.toml"
    path.write_bytes(b"\xff\xfe[settings]")
    with pytest.raises(FormatError, match="expected a UTF-8 TOML manifest"):
        load_manifest(path)


def test_runs_without_a_reference_fall_back_to_the_manifest_references(tmp_path):
    (tmp_path / "runs" / "orb" / "MH_01" / "1").mkdir(parents=True)
    (tmp_path / "runs" / "orb" / "MH_01" / "1" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    path = _write(tmp_path, '[references]\nMH_01 = "gt.csv"\n[[folders]]\nroot = "runs"\n')
    [run] = load_manifest(path).runs
    assert run.reference == str(tmp_path / "gt.csv")


def test_bench_input_is_a_manifest_or_a_folder(tmp_path):
    make_tree(tmp_path / "tree", algorithms=("orb",), sequences=("MH_01",), trials=1)
    assert load_bench_input(tmp_path / "tree").settings == Settings()
    with pytest.raises(FileNotFoundError, match="no such manifest file or folder of runs"):
        load_bench_input(tmp_path / "absent.toml")


def test_runs_by_folder_path_with_defaults_and_report_metadata(tmp_path):
    run = tmp_path / "vins" / "run-3"
    run.mkdir(parents=True)
    (run / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    (run / "meta.json").write_text(json.dumps({"algorithm": "vins", "trial": 3}))
    text = (
        '[defaults]\nsequence = "MH_01"\nreference = "gt.csv"\ndataset = "euroc"\n'
        '[[runs]]\npath = "vins/run-3"\nname = "vins-3"\nhardware = "jetson"\ntrial = 4\n'
        '[[runs]]\nalgorithm = "orb"\ntrial = 1\nestimate = "example:fr1_xyz/rgbdslam.tum"\n'
        'estimate_times = "t.txt"\n'
    )
    m = load_manifest(_write(tmp_path, text))
    orb, vins = m.runs
    assert (vins.label, vins.estimate) == ("vins/MH_01/4", str(run / "estimate.tum"))
    assert vins.reference == str(tmp_path / "gt.csv")
    assert orb.estimate == "example:fr1_xyz/rgbdslam.tum"  # shipped data keeps its name
    assert orb.estimate_times == str(tmp_path / "t.txt")
