"""Manifests and inputs: which runs are evaluated, with which one settings block."""

from __future__ import annotations

import json
import os
import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

import pytest

from robot_msgs.compare import Configuration
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation import EvaluationSettings
from robot_msgs.runs import RunSettings, load_run, load_runs, read_manifest
from robot_msgs.runs.manifest import RunReader, resolve_input
from tests.hostile import deadline
from tests.runs.tree import make_tree

if TYPE_CHECKING:
    from pathlib import Path

MANIFEST = """
[settings]
align = "se3"
max_diff_s = 0.02
statistic = "median"

[[settings.evaluate]]
metric = "ape"
relation = "translation"

[[settings.evaluate]]
metric = "rpe"
relation = "angle_deg"
delta = 2
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


def _write(tmp_path: Path, text: str, name: str = "bench.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_runs_keep_the_declared_order_with_absolute_paths(tmp_path: Path) -> None:
    m = load_runs([_write(tmp_path, MANIFEST)])
    assert [r.label for r in m.runs] == ["orb/MH_01/10", "orb/MH_01/2", "orb/MH_02/a"]
    assert [r.name for r in m.runs] == ["orb/MH_01/10", "orb/MH_01/2", "orb/MH_02/a"]
    second = m.runs[1]
    assert second.estimate == str(tmp_path / "orb" / "2.tum")
    assert second.reference == str(tmp_path / "gt" / "MH_01.tum")
    assert second.estimate_format == "tum"


def test_the_references_table_gives_format_and_topic_unless_the_run_names_its_own(
    tmp_path: Path,
) -> None:
    m = load_runs([_write(tmp_path, MANIFEST.replace('reference = "other.tum"\n', ""))])
    bag_run = m.runs[2]
    assert bag_run.reference == str(tmp_path / "gt" / "MH_02.bag")
    assert (bag_run.reference_format, bag_run.reference_topic) == ("bag", "/leica/pose")
    own = load_runs([_write(tmp_path, MANIFEST)]).runs[2]
    assert own.reference == str(tmp_path / "other.tum")
    assert own.reference_topic is None


def test_the_settings_block_decodes_into_run_settings_with_per_metric_overrides(
    tmp_path: Path,
) -> None:
    s = load_runs([_write(tmp_path, MANIFEST)]).settings
    assert s.evaluation == EvaluationSettings(align="se3", max_diff_s=0.02)
    ape, rpe = s.metrics
    assert (ape.name, ape.settings) == ("ape:translation", None)
    assert rpe.name == "rpe:angle_deg:2s:all"
    assert rpe.settings == EvaluationSettings(align="none", max_diff_s=0.02)
    assert s.settings_of(rpe).align == "none"
    assert s.statistic == "median"


def test_without_a_settings_block_runs_get_the_report_defaults(tmp_path: Path) -> None:
    make_tree(tmp_path / "tree")
    settings = load_runs([tmp_path / "tree"]).settings
    assert settings == RunSettings()
    assert settings.evaluation.align == "se3"
    assert [m.name for m in settings.metrics] == ["ape:translation", "rpe:translation:1s:all"]


def test_flags_win_over_the_settings_block(tmp_path: Path) -> None:
    path = _write(tmp_path, MANIFEST)
    m = load_runs([path], evaluation={"align": "sim3"}, judge={"statistic": "max"})
    assert m.settings.evaluation.align == "sim3"
    assert m.settings.evaluation.max_diff_s == 0.02  # from the manifest
    assert m.settings.statistic == "max"
    with pytest.raises(ValidationError, match=r"^Expected float >= 0, got float -1\.0") as caught:
        load_runs([path], evaluation={"max_diff_s": -1.0})
    assert caught.value.field == "EvaluationSettings.max_diff_s"


def test_metrics_from_flags_and_from_the_table_are_refused_together(tmp_path: Path) -> None:
    from robot_msgs.runs import default_metrics

    with pytest.raises(FormatError, match=r"the metrics are given twice"):
        load_runs([_write(tmp_path, MANIFEST)], metrics=default_metrics((2.0,)))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[settings\n", r"bench\.toml: invalid TOML: .*line 1"),
        ("[stuff]\n", r"unknown table `stuff`"),
        ("settings = 3\n", r"expected \[settings\] as a table, got 3"),
        ("[settings]\n", r"no runs: add \[\[runs\]\] entries or a \[\[folders\]\] root"),
        ("runs = 3\n", r"expected \[runs\] as an array of tables, got 3"),
        ('[[runs]]\nalgorithm = "a"\n', r"\[\[runs\]\] #1: missing `sequence`"),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\n',
            r"\[\[runs\]\] #1: missing `estimate`",
        ),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = true\nestimate = "e"\n',
            r"#1: `trial`: expected a non-empty string or an integer, got bool True",
        ),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "e"\ncolour = 1\n',
            r"#1: unknown key `colour`",
        ),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = 5\n',
            r"#1: `estimate`: expected a string, got int 5",
        ),
        # A run named "" was a blank row in every table (a review), a path or not.
        ("[[runs]]\npath = '.'\nname = ''\n", r"#1: `name`: expected a name with more than "),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "e"\nname = "  "\n',
            r"#1: `name`: expected a name with more than spaces, got str '  '",
        ),
        ("[[folders]]\npath = 'x'\n", r"\[\[folders\]\] #1: expected a table with only `root`"),
        ("[defaults]\ncolour = 1\n[[runs]]\npath = 'x'\n", r"#1: unknown key `colour`"),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "e"\nalign = "se3"\n',
            r"#1: a per-run `align` is refused: every run is evaluated with the one",
        ),
        (
            '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "e"\nexit_code = "1"\n',
            r"#1: `exit_code`: expected an integer",
        ),
        ("[references]\nMH_01 = { file = 'x' }\n", r"\[references\] MH_01: unknown key `file`"),
        ("references = 1\n", r"expected \[references\] as a table"),
        ("[settings]\nalignment = 'se3'\n[[runs]]\npath = '.'\n", r"unknown key `alignment`"),
        (
            "[settings]\nmax_diff_s = -1\n[[runs]]\npath = '.'\n",
            r"\[settings\]: `max_diff_s`: expected float >= 0, got int -1",
        ),
        (
            "[settings]\nstatistic = 'average'\n[[runs]]\npath = '.'\n",
            r"\[settings\]: `statistic`: expected one of 'rms', .*, got str 'average'",
        ),
        (
            "[[settings.evaluate]]\nmetric = 'ape'\ndelta = 1\n[[runs]]\npath = '.'\n",
            r"evaluate\[0\]: unknown key `delta`",
        ),
        (
            "[[settings.evaluate]]\nmetric = 'rpe'\ndelta_unit = 'sec'\n[[runs]]\npath = '.'\n",
            r"evaluate\[0\]: `delta_unit`: expected one of 'f', 's', 'm', 'rad', 'deg', got str 'sec'",
        ),
        (
            "[[settings.evaluate]]\nmetric = 'ate'\n[[runs]]\npath = '.'\n",
            r"evaluate\[0\]: `metric`: expected one of ape, rpe, got 'ate'",
        ),
        (
            (
                "[[settings.evaluate]]\nmetric = 'ape'\n[[settings.evaluate]]\nmetric = 'ape'\n"
                "[[runs]]\npath = '.'\n"
            ),
            r"`metrics`: expected distinct names \(two are 'ape:translation'\)",
        ),
        (
            "[[settings.evaluate]]\nrelation = 'point_distance_error_ratio'\n[[runs]]\npath = '.'\n",
            r"evaluate\[0\]: `relation`: expected one of translation",
        ),
    ],
)
def test_invalid_manifests_raise_naming_the_file_and_entry(
    tmp_path: Path, text: str, match: str
) -> None:
    (tmp_path / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n", encoding="utf-8")
    path = _write(tmp_path, text)
    with pytest.raises(FormatError, match=match) as info:
        load_runs([path])
    assert str(path) in str(info.value)


def test_an_entry_whose_run_folder_is_missing_is_a_run_that_fails_alone(tmp_path: Path) -> None:
    """One [[runs]] entry naming a folder that is not there (a trial deleted, a typo)
    stopped the reading of every run, so bench and report evaluated none; it is now a
    run that fails to evaluate, naming the entry and the folder, as a broken meta.json."""
    for trial in (1, 2):
        (tmp_path / f"t{trial}").mkdir()
        (tmp_path / f"t{trial}" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    entry = '[[runs]]\npath = "{}"\nalgorithm = "orb"\nsequence = "s"\ntrial = {}\n'
    path = _write(tmp_path, "".join(entry.format(f"t{k}", k) for k in (1, 9, 2)))
    runs = load_runs([path]).runs
    assert [(run.name, run.label) for run in runs] == [
        ("t1", "orb/s/1"),
        ("t9", "orb/s/9"),
        ("t2", "orb/s/2"),
    ]
    assert [bool(run.error) for run in runs] == [False, True, False]
    said = f"{path} [[runs]] #2: `path` {tmp_path / 't9'} is not a run folder (no such directory)"
    assert runs[1].error == said
    with pytest.raises(FormatError, match="is not a run folder") as info:
        load_run(runs[1])
    assert str(info.value) == said


def test_two_runs_with_the_same_keys_or_name_are_refused(tmp_path: Path) -> None:
    run = '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "{}"\nname = "{}"\n'
    path = _write(tmp_path, run.format("e1.tum", "one") + run.format("e2.tum", "two"))
    with pytest.raises(FormatError, match=r"two runs are a/s/1: .*#1 and .*#2"):
        load_runs([path])
    path = _write(tmp_path, run.format("e1.tum", "x") + run.format("e2.tum", "x").replace("1", "2"))
    with pytest.raises(FormatError, match=r"two runs are named 'x'"):
        load_runs([path])


def test_two_entries_of_one_name_are_refused_before_any_run_is_read(tmp_path: Path) -> None:
    """A manifest naming one folder twice was refused when its second entry was reached:
    a sweep of 1501 entries (#3 and #1501 one folder) had stored 21 records by then, and
    stopped. Both entries are in the manifest: refused on opening it, naming both."""
    for trial in (1, 2):
        (tmp_path / f"t{trial}").mkdir()
        (tmp_path / f"t{trial}" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    entries = ["path = 't1'", "path = 't2'", "path = 't1'", "path = 't2'\nname = 'other'"]
    path = _write(tmp_path, "".join(f"[[runs]]\n{entry}\n" for entry in entries))
    said = f"two runs are named 't1': {path} [[runs]] #1 and {path} [[runs]] #3; give each"
    with pytest.raises(FormatError, match=re.escape(said)):
        RunReader([path])
    named = ["name = 'a'\npath = 't1'", "name = 'b'\npath = 't2'", "name = 'a'\npath = 't2'"]
    path = _write(tmp_path, "".join(f"[[runs]]\n{entry}\n" for entry in named))
    with pytest.raises(FormatError, match=r"two runs are named 'a': .*#1 and .*#3; give each"):
        RunReader([path])
    keyed = '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = {}\nestimate = "e.tum"\n'
    path = _write(tmp_path, keyed.format(1) + keyed.format(2) + keyed.format(1))
    with pytest.raises(FormatError, match=r"two runs are named 'a/s/1': .*#1 and .*#3; give each"):
        RunReader([path])


def test_two_folders_roots_one_inside_the_other_are_refused_on_opening(tmp_path: Path) -> None:
    """Roots ``runs`` and ``runs/orb`` both hold orb's runs (named runs/orb/MH_01/1 twice):
    refused only when the second root's first run was reached, after every run of the
    first was read (and evaluated by a sweep). Refused on opening now, naming both; two
    distinct roots are not (their runs' names are known only by walking them)."""
    make_tree(tmp_path / "runs", algorithms=("orb", "vins"))
    real = os.path.realpath(tmp_path / "runs")
    for second in ("runs/orb", "./runs/"):
        path = _write(tmp_path, f'[[folders]]\nroot = "runs"\n[[folders]]\nroot = "{second}"\n')
        said = f"{path} [[folders]] #1 and {path} [[folders]] #2: the roots {real} and "
        with pytest.raises(FormatError, match=re.escape(said) + r".*give one of them"):
            RunReader([path])
    make_tree(tmp_path / "more", algorithms=("dso",))
    path = _write(tmp_path, '[[folders]]\nroot = "runs"\n[[folders]]\nroot = "more"\n')
    names = [run.name for run in RunReader([path])]
    assert names == ["runs/orb/MH_01/1", "runs/vins/MH_01/1", "more/dso/MH_01/1"]


def test_the_root_folder_and_a_folder_inside_it_are_refused_on_opening(tmp_path: Path) -> None:
    """Roots ``/`` and ``<tmp>/runs`` were not seen as nested: the check looked for the
    prefix ``/`` + ``/``, which no path has. Refused on opening, before any walk (the
    deadline guards against walking ``/`` were it not)."""
    make_tree(tmp_path / "runs", algorithms=("orb",))
    real = os.path.realpath(tmp_path / "runs")
    for first, second in (("/", real), (real, "/")):
        path = _write(tmp_path, f'[[folders]]\nroot = "{first}"\n[[folders]]\nroot = "{second}"\n')
        said = f"{path} [[folders]] #1 and {path} [[folders]] #2: the roots {first} and {second} "
        with (
            deadline(60),
            pytest.raises(FormatError, match=re.escape(said) + r".*give one of them"),
        ):
            RunReader([path])


def test_runs_of_another_version_or_parameters_may_share_a_trial(tmp_path: Path) -> None:
    """orb 1.0 trial 1 beside orb 2.0 trial 1 was refused ("two runs are orb/s/1"), though
    runs are ranked and summarised by configuration (algorithm, version, parameters) and
    each run's record, row and name are its own; one configuration's keys stay unique."""
    run = '[[runs]]\nalgorithm = "orb"\nsequence = "s"\ntrial = 1\nestimate = "e.tum"\n'
    declared = [
        'name = "a"\nversion = "1.0"\n',
        'name = "b"\nversion = "2.0"\n',
        'name = "c"\nversion = "2.0"\nparameters = { n = 2 }\n',
    ]
    runs = load_runs([_write(tmp_path, "".join(run + extra for extra in declared))]).runs
    assert [(r.name, r.label, r.configuration) for r in runs] == [
        ("a", "orb/s/1", Configuration.of("orb", "1.0")),
        ("b", "orb/s/1", Configuration.of("orb", "2.0")),
        ("c", "orb/s/1", Configuration.of("orb", "2.0", {"n": 2})),
    ]
    again = run + 'name = "d"\nversion = "2.0"\nparameters = { n = 2 }\n'
    with pytest.raises(FormatError, match=r"two runs are orb/s/1: .*#3 and .*#4"):
        load_runs([_write(tmp_path, "".join(run + extra for extra in declared) + again)])


def test_a_non_utf8_manifest_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bench.toml"
    path.write_bytes(b"[settings]\xff")
    with pytest.raises(FormatError, match="expected a UTF-8 manifest"):
        load_runs([path])


def test_a_json_manifest_has_the_same_shape(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "meta.json").write_text(json.dumps({"algorithm": "x", "trial": 2}))
    path = _write(
        tmp_path,
        json.dumps({"settings": {"align": "sim3"}, "runs": [{"path": "a", "sequence": "s"}]}),
        "runs.json",
    )
    m = load_runs([path])
    assert [(r.label, r.name) for r in m.runs] == [("x/s/2", "a")]
    assert m.settings.evaluation.align == "sim3"
    with pytest.raises(FormatError, match=r"runs\.json:1:\d+: expected JSON"):
        load_runs([_write(tmp_path, "{runs", "runs.json")])
    with pytest.raises(FormatError, match=r"expected a \.toml or \.json manifest, got '\.yaml'"):
        load_runs([_write(tmp_path, "", "runs.yaml")])


def test_runs_without_a_reference_fall_back_to_the_manifest_references(tmp_path: Path) -> None:
    (tmp_path / "runs" / "orb" / "MH_01" / "1").mkdir(parents=True)
    (tmp_path / "runs" / "orb" / "MH_01" / "1" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    path = _write(tmp_path, '[references]\nMH_01 = "gt.csv"\n[[folders]]\nroot = "runs"\n')
    [run] = load_runs([path]).runs
    assert run.reference == str(tmp_path / "gt.csv")
    assert run.name == "runs/orb/MH_01/1"


def test_entries_by_folder_win_over_meta_json_and_names_come_from_paths(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "meta.json").write_text(
            json.dumps({"algorithm": "meta", "trial": 1}), encoding="utf-8"
        )
    path = _write(
        tmp_path,
        '[defaults]\ndataset = "euroc"\n'
        '[[runs]]\npath = "a"\nalgorithm = "manifest"\n[[runs]]\npath = "b"\nname = "bee"\n',
    )
    runs = load_runs([path]).runs
    assert [r.name for r in runs] == ["a", "bee"]
    assert [r.algorithm for r in runs] == ["manifest", "meta"]
    assert [r.meta.dataset for r in runs] == ["euroc", "euroc"]
    assert runs[0].folder == str(tmp_path / "a")


def test_inputs_mix_manifests_run_folders_and_roots(tmp_path: Path) -> None:
    make_tree(tmp_path / "root", algorithms=("orb",), trials=1)
    make_tree(tmp_path / "other", algorithms=("vins",), trials=2)
    one = tmp_path / "root" / "orb" / "MH_01" / "1"
    m = load_runs([one, tmp_path / "other"])
    assert m.runs[0].name == str(one)
    assert m.runs[0].reference is None  # a folder given alone: no root to find ROOT/MH_01
    assert [r.label for r in m.runs[1:]] == ["vins/MH_01/1", "vins/MH_01/2"]
    assert m.runs[1].name == "vins/MH_01/1"  # named under its root: a moved tree keeps names
    assert m.runs[1].reference == str(tmp_path / "other" / "MH_01" / "reference.tum")
    with pytest.raises(FormatError, match=r"absent: no such manifest file, run folder"):
        load_runs([tmp_path / "absent"])


def test_two_manifests_with_different_settings_are_refused(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n", encoding="utf-8")
    one = _write(
        tmp_path, "[settings]\nalign = 'se3'\n[[runs]]\npath = 'run'\nname = 'a'\n", "a.toml"
    )
    two = _write(
        tmp_path, "[settings]\nalign = 'sim3'\n[[runs]]\npath = 'run'\nname = 'b'\n", "b.toml"
    )
    with pytest.raises(FormatError, match=r"differ: runs evaluated together need one settings"):
        load_runs([one, two])


def test_example_names_reach_the_shipped_runs() -> None:
    m = load_runs(["example:runs/runs.toml"])
    assert len(m.runs) == 18
    assert m.runs[0].name == "kfslam/fr1_xyz/trial_1"
    single = load_runs(["example:runs/kfslam/fr1_xyz/trial_1"]).runs[0]
    assert single.name == "runs/kfslam/fr1_xyz/trial_1"
    assert single.algorithm == "kfslam"
    with pytest.raises(FormatError, match=r"example:runs/nope: no such example"):
        resolve_input("example:runs/nope")


def test_one_path_alone_is_one_input_not_its_letters(tmp_path: Path) -> None:
    """load_runs("example:runs/runs.toml") read the string letter by letter and said
    "e: no such manifest file, run folder or folder of runs"; a Path was not iterable."""
    listed = load_runs(["example:runs/runs.toml"])
    assert load_runs("example:runs/runs.toml").runs == listed.runs
    make_tree(tmp_path)  # orb/MH_01/1
    assert [r.name for r in load_runs(tmp_path).runs] == ["orb/MH_01/1"]
    with pytest.raises(FormatError, match=r"^nope\.toml: no such manifest file"):
        load_runs("nope.toml")


class _UserPath:
    """A path-like that is no ``PurePath``: what ``os.PathLike`` promises, no more."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return self.path


def test_any_path_like_alone_is_one_input_and_names_its_run_by_its_path(tmp_path: Path) -> None:
    """7de3d9a took a str or Path alone; a PurePath or a user's os.PathLike alone was still
    "not iterable", and one in a list named its run folder's run by its repr."""
    make_tree(tmp_path)  # orb/MH_01/1
    folder = str(tmp_path / "orb" / "MH_01" / "1")
    for given in (PurePosixPath(folder), _UserPath(folder), [_UserPath(folder)]):
        manifest = load_runs(given)
        assert [r.name for r in manifest.runs] == [folder]
        assert manifest.source == folder
    shipped = load_runs(_UserPath("example:runs/runs.toml"))
    assert shipped.runs == load_runs(["example:runs/runs.toml"]).runs


@pytest.mark.parametrize("given", [b"runs.toml", [b"runs.toml"], ["runs.toml", 3]])
def test_an_input_that_is_no_path_is_refused_naming_it(given: object) -> None:
    """bytes alone said "expected str, bytes or os.PathLike object, not int" (its first
    byte), in a list "startswith first arg must be bytes"."""
    with pytest.raises(
        ValidationError, match=r"^Expected a path as str or os\.PathLike\[str\], got"
    ):
        load_runs(given)  # type: ignore[arg-type]  # what is refused


def test_a_manifest_names_shipped_run_folders_and_roots_by_example_names(tmp_path: Path) -> None:
    # `path = "example:runs/kfslam/fr1_xyz/trial_1"` was refused as "not a run folder (no
    # such directory)" and a [[folders]] root "example:runs" as "expected a folder of
    # runs", where `estimate = "example:..."` reads the shipped file (a hunt).
    manifest = tmp_path / "m.json"
    entry = {"path": "example:runs/kfslam/fr1_xyz/trial_1"}
    manifest.write_text(json.dumps({"runs": [entry], "folders": [{"root": "example:runs/dvo"}]}))
    runs = load_runs([manifest]).runs
    assert [r.name for r in runs[:3]] == [
        "runs/kfslam/fr1_xyz/trial_1",
        "runs/dvo/fr1_xyz/trial_1",
        "runs/dvo/fr1_xyz/trial_2",
    ]
    assert len(runs) == 1 + 7  # dvo's trials: 2 on fr1_xyz, 2 on fr2_desk, 3 on lab_loop
    by_example = load_runs(["example:runs/kfslam/fr1_xyz/trial_1"]).runs[0]
    assert (runs[0].estimate, runs[0].reference) == (by_example.estimate, by_example.reference)
    assert runs[0].algorithm == "kfslam"


def test_read_manifest_gives_the_runs_and_the_raw_settings_table(tmp_path: Path) -> None:
    read = read_manifest(_write(tmp_path, MANIFEST))
    assert len(read.runs) == 3
    assert read.settings is not None
    assert read.settings["align"] == "se3"
    assert read.where == f"{tmp_path / 'bench.toml'} [settings]"


def test_a_fifo_given_as_a_manifest_is_named_as_one(tmp_path: Path) -> None:
    """`report FIFO` said "no such manifest file, run folder or folder of runs"."""
    fifo = tmp_path / "runs.toml"
    os.mkfifo(fifo)
    with pytest.raises(FormatError, match=r"runs\.toml: is a pipe \(FIFO\): a manifest must be"):
        load_runs([fifo])


def test_a_reference_no_run_uses_is_named(tmp_path: Path) -> None:
    """`fr1_xzy = ...` for fr1_xyz dropped the ground truth of every run of the sequence
    without a word: they were judged and ranked as reference-free (a review)."""
    from robot_msgs.errors import DataWarning

    typo = MANIFEST.replace('MH_01 = "gt/MH_01.tum"', 'MH_0l = "gt/MH_01.tum"')
    with pytest.warns(
        DataWarning,
        match=r"\[references\] MH_0l: no run is of this sequence.*did you mean MH_02, MH_01\?",
    ):
        runs = load_runs([_write(tmp_path, typo)]).runs
    assert runs[0].reference is None


def test_a_saved_report_is_not_taken_for_a_manifest(tmp_path: Path) -> None:
    """``report saved_report.json`` said "unknown table `_type`" (a review)."""
    from robot_msgs.msg.catalog import example
    from robot_msgs.msg.registry import to_json

    path = tmp_path / "report.json"
    path.write_bytes(to_json(example("compare/Report")))
    with pytest.raises(FormatError, match=r"a saved 'compare/Report' message, not a manifest"):
        load_runs([path])


@pytest.mark.parametrize("path", ["a" * 5000, "x\x00y"])
def test_an_unusable_run_path_names_its_entry_and_key(tmp_path: Path, path: str) -> None:
    """The folder listed ahead raised first, naming only the manifest file."""
    manifest = tmp_path / "bench.json"
    manifest.write_text(json.dumps({"runs": [{"path": path}]}), encoding="utf-8")
    with pytest.raises(FormatError, match=r"bench\.json \[\[runs\]\] #1 `path`: expected a path"):
        load_runs([manifest])
