"""Agreement with evo 1.38.1 to 1e-9 relative, on the real trajectories of evo's test data.

Two checks: the stored numbers of ``tests/data/evo_reference.json`` (made by
``tests/data/make_evo_reference.py``, which runs evo's CLIs; each case keeps its command
line) need only the data folder; the live check runs evo's Python API when evo is
installed. Both skip, with the reason shown, without the data folder.
"""

from __future__ import annotations

import copy
import functools
import json
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.compare import Comparison
from robot_msgs.errors import DataWarning
from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.io import read_trajectory

if TYPE_CHECKING:
    from types import ModuleType

    from robot_msgs.compare import ErrorStats
    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.trajectory import PoseTrajectory

    # evo's main_ape, main_rpe, metrics, sync and file_interface modules (evo is untyped).
    EvoApi = tuple[ModuleType, ModuleType, ModuleType, ModuleType, ModuleType]

REFERENCE = json.loads(
    (Path(__file__).parents[1] / "data" / "evo_reference.json").read_text(encoding="utf-8")
)
CASES: list[dict[str, Any]] = REFERENCE["cases"]
STATS = ("rmse", "mean", "median", "std", "min", "max")
RTOL = 1e-9


@functools.cache
def _read(
    folder: str, path: str, fmt: str, topic: str | None, repeated_stamps: RepeatedStamps = "first"
) -> PoseTrajectory:
    with warnings.catch_warnings():
        # The TUM files' 4-decimal quaternions are renormalised (evo does the same when it
        # builds its matrices); the readers say so with a DataWarning.
        warnings.simplefilter("ignore", DataWarning)
        return read_trajectory(
            Path(folder) / path, format=fmt, topic=topic, repeated_stamps=repeated_stamps
        )


def _every(traj: PoseTrajectory, every: int | None) -> PoseTrajectory:
    """Keep the rows 0, ``every``, 2 ``every``... (evo reads them from a derived file)."""
    if every is None:
        return traj
    return traj.replace(
        stamps_s=traj.stamps_s[::every],
        positions_xyz=traj.positions_xyz[::every],
        orientations_quat_xyzw=traj.orientations_quat_xyzw[::every],
    )


def _inputs(case: dict[str, Any], folder: Path) -> tuple[PoseTrajectory, PoseTrajectory]:
    spec = case["inputs"]
    reference, estimate = (
        _every(
            _read(
                str(folder),
                spec[side]["path"],
                spec[side]["fmt"],
                spec[side].get("topic"),
                spec[side].get("repeated_stamps", "first"),
            ),
            spec[side].get("every"),
        )
        for side in ("reference", "estimate")
    )
    return reference, estimate


def _ours(case: dict[str, Any], folder: Path) -> ErrorStats:
    reference, estimate = _inputs(case, folder)
    spec = case["ours"]
    settings = EvaluationSettings(**spec["settings"])
    if spec["metric"] == "ape":
        result = ape(reference, estimate, settings=settings, relation=spec["relation"])
    else:
        pairs = PairSettings(**spec["pairs"])
        result = rpe(reference, estimate, settings=settings, pairs=pairs, relation=spec["relation"])
    (stats,) = result.stats.values()
    return stats


def _assert_agrees(stats: ErrorStats, expected: dict[str, float]) -> None:
    assert stats.n == expected["n"]
    got = {
        "rmse": stats.rms,
        "mean": stats.mean,
        "median": stats.median,
        "std": stats.std,
        "min": stats.min,
        "max": stats.max,
    }
    # Exact zeros (the first pose after origin alignment) come out as rounding noise in both
    # tools, so a floor of 1e-12 of the largest error stands in for "relative" near zero.
    floor = 1e-12 * abs(expected["max"])
    for key in STATS:
        assert got[key] == pytest.approx(expected[key], rel=RTOL, abs=floor), key
    assert stats.n * stats.rms**2 == pytest.approx(expected["sse"], rel=RTOL)


def test_the_reference_covers_every_plane_on_ape_and_rpe_with_se3_and_sim3() -> None:
    projected = [c for c in CASES if "project_to_plane" in c["ours"]["settings"]]
    assert {c["ours"]["settings"]["project_to_plane"] for c in projected} == {"xy", "xz", "yz"}
    for metric in ("ape", "rpe"):
        aligns = {
            c["ours"]["settings"]["align"] for c in projected if c["ours"]["metric"] == metric
        }
        assert {"se3", "sim3"} <= aligns
    assert all("--project_to_plane" in c["command"] for c in projected)


def test_the_reference_covers_evos_interpolation_with_either_side_resampled() -> None:
    """evo's --sync_method interpolation is sync="interpolate_longer" (a review: n 80 vs 54)."""
    interpolated = [c for c in CASES if c["ours"]["settings"].get("sync") == "interpolate_longer"]
    assert all(c["command"].endswith("--sync_method interpolation") for c in interpolated)
    assert {c["ours"]["metric"] for c in interpolated} == {"ape", "rpe"}
    # The reference with fewer poses (every 7th ground-truth row; the SLAM output given as
    # the reference) and the estimate with fewer (the usual case), with an offset too.
    assert {"fr1_sparse_gt", "fr1_swapped", "fr1_drift", "fr1_mono"} == {
        c["id"].split("-")[1] for c in interpolated
    }
    assert any("t_offset" in c["command"] for c in interpolated)


def test_the_reference_covers_time_ranges_on_ape_and_rpe() -> None:
    ranged = [c for c in CASES if {"t_start_s", "t_end_s"} & set(c["ours"]["settings"])]
    assert {c["ours"]["metric"] for c in ranged} == {"ape", "rpe"}
    assert all("--t_start" in c["command"] or "--t_end" in c["command"] for c in ranged)
    assert {c["inputs"]["reference"]["fmt"] for c in ranged} == {"tum"}


def test_the_reference_covers_every_shared_relation_alignment_unit_and_input_format() -> None:
    ours = [case["ours"] for case in CASES]
    relations = {o["relation"] for o in ours}
    assert relations == {
        "translation",
        "angle_deg",
        "angle_rad",
        "full",
        "rot_part",
        "point_distance",
        "point_distance_error_ratio",
    }
    assert {o["settings"]["align"] for o in ours} == {
        "none", "se3", "sim3", "scale", "origin", "origin_scale",
    }  # fmt: skip
    assert {o["pairs"]["delta_unit"] for o in ours if o["metric"] == "rpe"} == {
        "f",
        "m",
        "rad",
        "deg",
    }
    formats = {case["inputs"][side]["fmt"] for case in CASES for side in ("reference", "estimate")}
    assert formats == {"tum", "euroc", "kitti", "bag", "mcap"}
    assert REFERENCE["evo_version"] == "1.38.1"


@pytest.mark.evo_data
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_agrees_with_stored_evo_numbers(case: dict[str, Any], evo_data: Path) -> None:
    _assert_agrees(_ours(case, evo_data), case["evo"])


# Live: evo's Python API on the TUM cases (evo is GPL-3.0: run, never shipped or copied).


def _live(case: dict[str, Any]) -> bool:
    """TUM and EuRoC cases (V102.txt also read every row), less evo's slow (quadratic) all-pairs angle searches."""
    pairs = case["ours"].get("pairs", {})
    slow = pairs.get("all_pairs") and pairs.get("delta_unit") in {"rad", "deg"}
    return case["id"].split("-")[1] in {"fr1_drift", "euroc_v102", "euroc_v102_all"} and not slow


LIVE = [case for case in CASES if _live(case)]


@pytest.fixture(scope="module")
def evo_api(tmp_path_factory: pytest.TempPathFactory) -> EvoApi:
    with pytest.MonkeyPatch.context() as patch:
        # evo writes its settings under $HOME/.evo on import: keep that out of the user's home.
        patch.setenv("HOME", str(tmp_path_factory.mktemp("evo-home")))
        pytest.importorskip("evo")
        from evo import main_ape, main_rpe
        from evo.core import metrics, sync
        from evo.tools import file_interface
    return main_ape, main_rpe, metrics, sync, file_interface


@functools.cache
def _evo_read(
    folder: str,
    mode: str,
    ref_name: str,
    est_name: str,
    file_interface: ModuleType,
    every: int | None = None,
    every_row: bool = False,
) -> tuple[Any, Any]:
    ref_path, est_path = Path(folder) / ref_name, Path(folder) / est_name
    if mode == "euroc":
        traj_ref = file_interface.read_euroc_csv_trajectory(ref_path)
    else:
        traj_ref = file_interface.read_tum_trajectory_file(ref_path)
    traj_est = file_interface.read_tum_trajectory_file(est_path)
    # Rows repeating an earlier stamp (4 in V102.txt): keep the first, as our readers do
    # (evo keeps both); see derive_inputs() in tests/data/make_evo_reference.py. Read
    # with repeated_stamps="all", every row, as evo.
    if not every_row:
        first_rows = np.sort(np.unique(traj_est.timestamps, return_index=True)[1])
        traj_est.reduce_to_ids(first_rows)
    if every is not None:  # evo read these rows from a derived file (derive_inputs())
        traj_ref.reduce_to_ids(np.arange(0, traj_ref.num_poses, every))
    return traj_ref, traj_est


def _evo_live(case: dict[str, Any], folder: Path, evo_api: EvoApi) -> dict[str, float]:
    main_ape, main_rpe, metrics, sync, file_interface = evo_api
    spec = case["inputs"]
    traj_ref, traj_est = (
        copy.deepcopy(t)
        for t in _evo_read(
            str(folder),
            spec["mode"],
            spec["reference"]["path"],
            spec["estimate"]["path"],
            file_interface,
            spec["reference"].get("every"),
            spec["estimate"].get("repeated_stamps") == "all",
        )
    )
    ours = case["ours"]
    kwargs = {**ours["settings"], **ours.get("pairs", {}), "relation": ours["relation"]}
    if "t_start_s" in kwargs or "t_end_s" in kwargs:  # evo_ape/evo_rpe --t_start/--t_end
        traj_ref.reduce_to_time_range(kwargs.get("t_start_s"), kwargs.get("t_end_s"))
    interpolation = kwargs.get("sync") == "interpolate_longer"  # --sync_method interpolation
    traj_ref, traj_est = sync.associate_trajectories(
        traj_ref,
        traj_est,
        sync_method=sync.SyncMethod.interpolation
        if interpolation
        else sync.SyncMethod.nearest_time,
        max_diff=kwargs.get("max_diff_s", 0.01),
        offset_2=kwargs.get("offset_s", 0.0),
    )
    relation = {
        "translation": metrics.PoseRelation.translation_part,
        "angle_deg": metrics.PoseRelation.rotation_angle_deg,
        "angle_rad": metrics.PoseRelation.rotation_angle_rad,
        "full": metrics.PoseRelation.full_transformation,
        "rot_part": metrics.PoseRelation.rotation_part,
        "point_distance": metrics.PoseRelation.point_distance,
        "point_distance_error_ratio": metrics.PoseRelation.point_distance_error_ratio,
    }[kwargs["relation"]]
    align = kwargs["align"]
    common = {
        "align": align in {"se3", "sim3"},
        "correct_scale": align in {"sim3", "scale", "origin_scale"},
        "align_origin": align in {"origin", "origin_scale"},
        "n_to_align": kwargs.get("n_align", -1),
    }
    if "project_to_plane" in kwargs:  # evo_ape/evo_rpe --project_to_plane
        from evo.core.trajectory import Plane

        common["project_to_plane"] = Plane(kwargs["project_to_plane"])
    ref, est = copy.deepcopy(traj_ref), copy.deepcopy(traj_est)
    if case["ours"]["metric"] == "ape":
        result = main_ape.ape(ref, est, relation, **common)
    else:
        unit = {
            "f": metrics.Unit.frames,
            "m": metrics.Unit.meters,
            "rad": metrics.Unit.radians,
            "deg": metrics.Unit.degrees,
        }[kwargs["delta_unit"]]
        result = main_rpe.rpe(
            ref, est, relation, delta=kwargs["delta"], delta_unit=unit, rel_delta_tol=kwargs.get("delta_tol", 0.1),
            all_pairs=kwargs["all_pairs"], pairs_from_reference=kwargs["pairs_from"] == "reference", **common,
        )  # fmt: skip
    return {**result.stats, "n": int(np.asarray(result.np_arrays["error_array"]).size)}


@pytest.mark.evo_data
@pytest.mark.parametrize("case", LIVE, ids=[case["id"] for case in LIVE])
def test_agrees_with_evo_run_live(
    case: dict[str, Any], evo_data: Path, evo_api: EvoApi, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _evo_live(case, evo_data, evo_api)
    capsys.readouterr()  # evo prints progress for all-pairs angle searches
    _assert_agrees(_ours(case, evo_data), expected)
    # The live run is the same evo as the stored one: the stored numbers are current.
    for key in STATS:
        assert expected[key] == pytest.approx(
            case["evo"][key], rel=1e-12, abs=1e-12 * abs(expected["max"])
        )


# ROS 2 sqlite3: evo's test data has one such bag, with /tf only, which evo reads only
# through ROS's tf2_py. So the ROS 1 bag's pose topics are converted to a ROS 2 sqlite3
# bag with rosbags' converter (the same messages, re-encoded as CDR): reading it must give
# evo's stored numbers for the ROS 1 bag.

BAG_CASES = [case for case in CASES if case["inputs"]["reference"]["fmt"] == "bag"]


@pytest.fixture(scope="module")
def sqlite3_bag(evo_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("rosbags")
    from rosbags.convert import convert

    out = tmp_path_factory.mktemp("bag2") / "ros_example"
    convert(
        srcs=[evo_data / "ROS_example.bag"], dst=out, dst_storage="sqlite3", dst_version=8,
        compress=None, compress_mode="file", default_typestore=None, typestore=None,
        exclude_topics=[], include_topics=[], exclude_msgtypes=[], include_msgtypes=[],
    )  # fmt: skip
    assert (out / "metadata.yaml").exists()
    assert list(out.glob("*.db3"))
    return out


@pytest.mark.evo_data
@pytest.mark.parametrize("case", BAG_CASES, ids=[case["id"] for case in BAG_CASES])
def test_ros2_sqlite3_bag_agrees_with_stored_evo_numbers(
    case: dict[str, Any], evo_data: Path, sqlite3_bag: Path
) -> None:
    converted = copy.deepcopy(case)
    for side in ("reference", "estimate"):
        converted["inputs"][side].update(path=str(sqlite3_bag), fmt="bag2")
    _assert_agrees(_ours(converted, evo_data), case["evo"])


# The time range through the command line: robot-msgs ape/rpe --t-start/--t-end give evo's
# numbers for evo_ape/evo_rpe --t_start/--t_end (the stored command of each case).

RANGED = [c for c in CASES if {"t_start_s", "t_end_s"} & set(c["ours"]["settings"])]


def _flags(case: dict[str, Any]) -> list[str]:
    ours = case["ours"]
    settings = ours["settings"]
    flags = ["--relation", ours["relation"], "--align", settings["align"], "--json"]
    for key, flag in (
        ("t_start_s", "--t-start"),
        ("t_end_s", "--t-end"),
        ("max_diff_s", "--max-diff"),
        ("offset_s", "--offset"),
    ):
        if key in settings:
            flags += [flag, repr(settings[key])]
    if "sync" in settings:
        flags += ["--sync", settings["sync"].replace("_", "-")]  # as the flag takes it
    if ours["metric"] == "rpe":
        pairs = ours["pairs"]
        flags += ["--delta", repr(pairs["delta"]), "--delta-unit", pairs["delta_unit"]]
        flags += ["--all-pairs"] if pairs["all_pairs"] else []
    return flags


def _assert_printed_evos_numbers(case: dict[str, Any], printed: str) -> None:
    """The ``--json`` comparison printed has evo's n, rmse and max of ``case``, its relation."""
    result = Comparison.from_dict(json.loads(printed))
    (signal,) = result.signals
    expected = case["evo"]
    assert signal.stats.n == expected["n"]
    assert signal.stats.rms == pytest.approx(expected["rmse"], rel=RTOL)
    assert signal.stats.max == pytest.approx(expected["max"], rel=RTOL)
    assert signal.quantity == case["ours"]["relation"]


@pytest.mark.evo_data
@pytest.mark.parametrize("case", RANGED, ids=[case["id"] for case in RANGED])
def test_time_range_flags_agree_with_evo(
    case: dict[str, Any], evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from robot_msgs.cli import main

    spec = case["inputs"]
    paths = [str(evo_data / spec[side]["path"]) for side in ("reference", "estimate")]
    assert main([case["ours"]["metric"], *paths, *_flags(case)]) == 0
    _assert_printed_evos_numbers(case, capsys.readouterr().out)


# evo's --sync_method interpolation through the command line: robot-msgs ape/rpe
# --sync interpolate-longer give evo_ape/evo_rpe's numbers (the stored command of each case).

INTERPOLATED = [c for c in CASES if c["ours"]["settings"].get("sync") == "interpolate_longer"]


@pytest.mark.evo_data
@pytest.mark.parametrize("case", INTERPOLATED, ids=[case["id"] for case in INTERPOLATED])
def test_sync_interpolate_longer_flag_agrees_with_evos_interpolation(
    case: dict[str, Any], evo_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from robot_msgs.cli import main

    paths = []
    for side in ("reference", "estimate"):
        spec = case["inputs"][side]
        path = evo_data / spec["path"]
        if "every" in spec:  # the rows evo read, written as derive_inputs() writes them
            lines = path.read_text(encoding="utf-8").splitlines()
            rows = [line for line in lines if line.strip() and line[0] != "#"]
            path = tmp_path / spec["evo_reads"]
            path.write_text("\n".join(rows[:: spec["every"]]) + "\n", encoding="utf-8")
        paths.append(str(path))
    assert main([case["ours"]["metric"], *paths, *_flags(case)]) == 0
    _assert_printed_evos_numbers(case, capsys.readouterr().out)


# evo's own reading of V102.txt, every row (4 repeat an earlier stamp), through the command
# line: robot-msgs ape/rpe --repeated-stamps all give evo_ape/evo_rpe's numbers (the stored
# command of each case: evo_rpe's defaults, -d 1 -u f, among them).

EVERY_ROW = [c for c in CASES if c["inputs"]["estimate"].get("repeated_stamps") == "all"]


def test_the_reference_covers_every_row_on_ape_and_rpe() -> None:
    assert {c["ours"]["metric"] for c in EVERY_ROW} == {"ape", "rpe"}
    assert any(c["command"].endswith("-d 1 -u f") for c in EVERY_ROW)  # evo_rpe's defaults
    assert all(" V102.txt " in c["command"] for c in EVERY_ROW)  # as written, not deduplicated


@pytest.mark.evo_data
@pytest.mark.parametrize("case", EVERY_ROW, ids=[case["id"] for case in EVERY_ROW])
def test_repeated_stamps_all_flag_agrees_with_evo_on_every_row(
    case: dict[str, Any], evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from robot_msgs.cli import main

    spec = case["inputs"]
    paths = [str(evo_data / spec[side]["path"]) for side in ("reference", "estimate")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        code = main([case["ours"]["metric"], *paths, *_flags(case), "--repeated-stamps", "all"])
    assert code == 0
    _assert_printed_evos_numbers(case, capsys.readouterr().out)
