"""The TUM protocol: evaluate_rpe.py's pairs, matching and error, against the script's numbers."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.evaluation import Ape, EvaluationSettings, PairSettings, Rpe, evaluate, rpe
from robot_msgs.evaluation.tum_rpe import closest_index, tum_pair_rows
from robot_msgs.io import read_trajectory
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.io.clean import RepeatedStamps

REFERENCE = json.loads(
    (Path(__file__).parents[1] / "data" / "tum_rpe_reference.json").read_text(encoding="utf-8")
)
CASES: list[dict[str, Any]] = REFERENCE["cases"]
#: evaluate_rpe.py takes angles as arccos((tr R - 1) / 2), which resolves an angle near 0
#: only to about sqrt(2 eps) = 2.1e-8 rad; our angles come from quaternions. The errors
#: here are 1e-4 rad and more, where both agree far better (2.5e-12 rad measured).
ROTATION_ABS_RAD = 1e-10
STATS = ("rmse", "mean", "median", "std", "min", "max")


def _read(folder: Path, name: str, repeated_stamps: RepeatedStamps = "last") -> PoseTrajectory:
    """Read as the script does: of rows with equal stamps the last (its dict keeps it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return read_trajectory(folder / name, repeated_stamps=repeated_stamps)


@pytest.mark.evo_data
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_equals_evaluate_rpe_fixed_delta_max_pairs_0(case: dict[str, Any], evo_data: Path) -> None:
    ref, est = _read(evo_data, case["reference"]), _read(evo_data, case["estimate"])
    pairs = PairSettings(delta=case["delta"], delta_unit=case["delta_unit"], protocol="tum")
    settings = EvaluationSettings(offset_s=case["offset_s"])
    trans = rpe(ref, est, settings=settings, pairs=pairs, relation="translation")
    angle = rpe(ref, est, settings=settings, pairs=pairs, relation="angle_rad")
    series = trans.series["translation"]
    assert len(series) == case["n"]
    rows = series.pairs
    assert rows is not None
    stamps = trans.estimate.stamps_s
    assert [stamps[rows[0, 0]], stamps[rows[0, 1]]] == case["first_pair_stamps"]
    assert [stamps[rows[-1, 0]], stamps[rows[-1, 1]]] == case["last_pair_stamps"]
    got_t, got_r = trans.stats["translation"], angle.stats["angle_rad"]
    for key in STATS:
        ours = {"rmse": got_t.rms}.get(key, getattr(got_t, key, None))
        assert ours == pytest.approx(case["translation_m"][key], rel=1e-9, abs=1e-15), key
        ours = {"rmse": got_r.rms}.get(key, getattr(got_r, key, None))
        assert ours == pytest.approx(case["rotation_rad"][key], rel=1e-9, abs=ROTATION_ABS_RAD), key


@pytest.mark.evo_data
def test_v102_needs_the_last_of_each_repeated_stamp(evo_data: Path) -> None:
    """V102.txt repeats 4 stamps: keeping the first row misses the script's numbers."""
    case = next(c for c in CASES if c["id"] == "V102-1s")
    ref = _read(evo_data, case["reference"])
    pairs = PairSettings(delta=1.0, delta_unit="s", protocol="tum")
    first = rpe(ref, _read(evo_data, "V102.txt", "first"), pairs=pairs, relation="translation")
    rms = first.stats["translation"].rms
    assert rms != pytest.approx(case["translation_m"]["rmse"], rel=1e-3)


@pytest.mark.evo_data
def test_the_command_line_reads_the_last_row_under_protocol_tum(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from robot_msgs.cli import main

    case = next(c for c in CASES if c["id"] == "V102-1s")
    ref, est = str(evo_data / case["reference"]), str(evo_data / case["estimate"])
    argv = ["rpe", ref, est, "--protocol", "tum", "--delta", "1", "--delta-unit", "s"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "kept the last row of each stamp" in err
    assert f"{case['translation_m']['rmse']:.6g}" in out
    assert main([*argv, "--repeated-stamps", "refuse"]) == 1
    assert "4 row(s) repeat an earlier stamp (lines 433, 684, 736, 788): refused" in (
        capsys.readouterr().err
    )


def test_the_reference_covers_seconds_metres_frames_and_angles() -> None:
    units = {c["delta_unit"] for c in CASES}
    assert units == {"s", "m", "f", "rad", "deg"}
    assert all("--fixed_delta" in c["command"] and "--max_pairs 0" in c["command"] for c in CASES)
    one_second = next(c for c in CASES if c["id"] == "freiburg1_xyz-rgbdslam-1s")
    assert one_second["n"] == 753  # the figure; evo-style seconds pairs give 755
    assert {c["estimate"] for c in CASES} >= {"V102.txt"}  # repeated stamps (issue 21)


@pytest.mark.evo_data
def test_one_second_pairs_differ_from_our_evo_style_seconds(evo_data: Path) -> None:
    ref = _read(evo_data, "freiburg1_xyz-groundtruth.txt")
    est = _read(evo_data, "freiburg1_xyz-rgbdslam.txt")
    # TUM's association (one-to-one within 0.02 s), then our seconds rule on all pairs.
    settings = EvaluationSettings(sync="one_to_one", max_diff_s=0.02)
    pairs = PairSettings(delta=1.0, delta_unit="s", all_pairs=True)
    assert rpe(ref, est, settings=settings, pairs=pairs).counts["pairs"] == 755


def test_closest_index_is_the_scripts_binary_search() -> None:
    # Hand traces of find_closest_index([0, 1, 2, 3], t); it starts with best = 0 at the
    # distance |L[0] - t| and replaces it only by a strictly nearer midpoint.
    # t = 1.5: midpoint 2 (0.5 < 1.5: best 2), then 1 (0.5, not nearer): 2, the later one.
    # t = 0.5: midpoints 2 (1.5), 1 (0.5, not nearer than L[0]'s 0.5), 0: 0, the earlier.
    # t = 3.0: midpoint 2, then 3, an exact hit. t = 99: the last; t = -1: the first.
    values = np.array([0.0, 1.0, 2.0, 3.0])
    assert closest_index(values, np.array([1.5, 0.5, 3.0, 99.0, -1.0])).tolist() == [2, 0, 3, 3, 0]


def _wavy(duration_s: float) -> PoseTrajectory:
    """A path along x waving in y, sampled at 10 Hz, without turning."""
    t = np.arange(0.0, duration_s, 0.1)
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, np.sin(t), 0 * t], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)),
    )


def test_pairs_ending_at_the_last_pose_are_dropped_and_j_may_equal_i() -> None:
    t = np.array([0.0, 0.1, 0.2, 1.0, 1.1, 1.2])
    traj = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.zeros((6, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (6, 1)),
    )
    rows = tum_pair_rows(traj, PairSettings(delta=0.3, delta_unit="s", protocol="tum"))
    # 0 -> 0.3 nearest 0.2 (row 2); 1 -> 0.4: 0.2; 2 -> 0.5: 0.2 (itself); 3 -> 1.3: 1.2, the
    # last row: dropped, as are 4 and 5.
    assert rows.tolist() == [[0, 2], [1, 2], [2, 2]]


def test_several_deltas_give_one_signal_each() -> None:
    ref = _wavy(20.0)
    est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)
    deltas = [PairSettings(delta=d, delta_unit="s", protocol="tum") for d in (1.0, 2.0)]
    both = rpe(ref, est, pairs=deltas)
    assert list(both.stats) == ["translation@1s", "translation@2s"]
    assert both.settings["delta"] == (1.0, 2.0)
    for each, key in zip(deltas, both.stats, strict=True):
        alone = rpe(ref, est, pairs=each).stats["translation"]
        assert both.stats[key].rms == alone.rms
        assert both.counts[f"pairs@{key.split('@')[1]}"] == alone.n


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        (EvaluationSettings(align="se3"), "align"),
        (EvaluationSettings(sync="one_to_one"), "sync"),
        (EvaluationSettings(max_diff_s=0.02), "max_diff_s"),
        (EvaluationSettings(project_to_plane="xy"), "project_to_plane"),
    ],
)
def test_settings_the_protocol_has_no_use_for_are_refused(
    settings: EvaluationSettings, field: str
) -> None:
    t = np.arange(0.0, 5.0, 0.1)
    traj = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, 0 * t, 0 * t], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)),
    )
    with pytest.raises(ValidationError, match=r"with protocol 'tum'") as caught:
        rpe(traj, traj, settings=settings, pairs=PairSettings(protocol="tum"))
    assert caught.value.field == f"EvaluationSettings.{field}"
    with pytest.raises(
        ValidationError, match=r"one of translation, angle_rad, angle_deg with protocol 'tum'"
    ):
        rpe(traj, traj, pairs=PairSettings(protocol="tum"), relation="full")


def test_evaluate_matches_the_tum_protocol_its_own_way_beside_other_metrics() -> None:
    ref = _wavy(5.0)
    est = ref.replace(stamps_s=ref.stamps_s + 0.003, positions_xyz=ref.positions_xyz * 1.01)
    tum = Rpe(pairs=(PairSettings(protocol="tum"),))
    both = evaluate(ref, est, metrics=[Ape(), tum])
    assert both[0] == evaluate(ref, est)[0]
    assert both[1] == rpe(ref, est, pairs=PairSettings(protocol="tum"))
    assert any(n.startswith("TUM evaluate_rpe.py protocol") for n in both[1].comparison.notes)


def test_pairs_one_frame_apart_say_that_the_scripts_default_is_one_second() -> None:
    # `rpe --protocol tum` keeps evo's default pairs (1 frame) where evaluate_rpe.py's
    # default is 1 s: per-frame figures beside a paper's per-second ones, unsaid.
    ref = _wavy(5.0)
    est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)
    said = 'evaluate_rpe.py\'s default is 1 s: `delta_unit="s"` for its figures'
    frames = rpe(ref, est, pairs=PairSettings(protocol="tum"))
    assert sum(said in n for n in frames.comparison.notes) == 1
    for other in ({"delta_unit": "s"}, {"delta": 2.0}):
        chosen = rpe(ref, est, pairs=PairSettings(protocol="tum", **other))
        assert not any(said in n for n in chosen.comparison.notes)


def test_overlapping_pairs_have_no_integrals_as_evos_all_pairs() -> None:
    """Every pose starts a pair: at 1 s (10 poses) the pairs overlap, as evo's all pairs,
    which have no IAE/ISE/ITAE (their starts are no time axis); the TUM protocol gave
    them. One frame apart each pair starts where the one before ended: they keep theirs."""
    ref = _wavy(5.0)
    est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)
    second = rpe(ref, est, pairs=PairSettings(delta=1.0, delta_unit="s", protocol="tum"))
    stats = second.stats["translation"]
    assert stats.n > 1
    assert np.isnan([stats.iae, stats.ise, stats.itae]).all()
    every = rpe(ref, est, pairs=PairSettings(delta=1.0, delta_unit="s", all_pairs=True))
    assert np.isnan(every.stats["translation"].iae)
    frame = rpe(ref, est, pairs=PairSettings(protocol="tum")).stats["translation"]
    assert not np.isnan([frame.iae, frame.ise, frame.itae]).any()


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"all_pairs": True}, "all_pairs"), ({"pairs_from": "reference"}, "pairs_from")],
)
def test_evo_only_pair_settings_are_refused_with_tum(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError, match=r"with protocol 'tum'") as caught:
        PairSettings(protocol="tum", **changes)
    assert caught.value.field == f"PairSettings.{field}"


def test_pair_settings_that_differ_in_more_than_delta_are_refused() -> None:
    t = np.arange(0.0, 5.0, 0.1)
    traj = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, 0 * t, 0 * t], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)),
    )
    pairs = [PairSettings(delta=1), PairSettings(delta=1, delta_unit="m")]
    with pytest.raises(ValidationError, match=r"differ only in delta .*got list \['delta_unit'\]"):
        rpe(traj, traj, pairs=pairs)


def test_an_estimate_whose_stamps_all_lead_back_to_one_is_refused_as_the_script_does() -> None:
    """evaluate_rpe.py refuses 'Number of overlap in the timestamps is too small'.

    Reference at 10, 11, 12, 12.1, 12.2 s (median interval 0.55 s: matches within 1.1 s);
    the estimate at 9.0 .. 9.4 s, before it. Every estimate stamp's nearest reference
    stamp is 10 s, whose nearest estimate stamp is 9.4 s: one stamp of overlap, which the
    script refuses. Its pairs (0, 1), (1, 2), (2, 3) all match reference pose 0 at both
    ends, so they compared the estimate's motion with no motion at all (a number was given).
    """
    ref = PoseTrajectory(
        stamps_s=np.array([10.0, 11.0, 12.0, 12.1, 12.2]),
        positions_xyz=np.arange(15.0).reshape(5, 3),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (5, 1)),
    )
    est = ref.replace(stamps_s=np.array([9.0, 9.1, 9.2, 9.3, 9.4]))
    pairs = PairSettings(delta=1, delta_unit="f", protocol="tum")
    with pytest.raises(ValidationError, match=r"overlap.* 1 estimate stamp"):
        rpe(ref, est, pairs=pairs)
    # Two stamps of overlap pass the script's check: 9.4 and 10.9 s lead back to themselves.
    both = ref.replace(stamps_s=np.array([9.0, 9.1, 9.2, 9.4, 10.9]))
    assert rpe(ref, both, pairs=pairs).counts["pairs"] == 3


def test_tum_matched_estimate_keeps_the_exact_nanosecond_stamps() -> None:
    """TUM's RPE built its matched estimate by hand, not by ``take_rows``: a bag's exact
    ``stamps_ns`` (and a covariance) were dropped there after evo's protocol kept them."""
    from robot_msgs.trajectory.pose import stamps_s_from_ns

    ns = 1502792600_000000000 + np.arange(30, dtype=np.int64) * 100_000_039
    t = stamps_s_from_ns(ns)
    ref = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t - t[0], 0 * t, 0 * t], 1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (t.size, 1)),
        stamps_ns=ns,
    )
    spec = Rpe(pairs=(PairSettings(delta=1.0, delta_unit="s", protocol="tum"),))
    for protocol_spec in (spec, Rpe()):
        (result,) = evaluate(ref, ref, metrics=[protocol_spec])
        matched = result.matched_estimate
        assert matched is not None
        assert matched.stamps_ns is not None
        assert matched.stamps_ns.tolist() == ns.tolist()


def test_reference_rows_nearest_several_estimate_stamps_are_counted_once() -> None:
    """By hand: estimate stamps 0, 0.1, 0.2, 1, 2 s each take the nearest reference stamp
    of 0, 1, 2 s (within 2 median intervals, 2 s): reference row 0 in three pairs. It said
    "reference 3, matched 5, unmatched reference 0"; the 3 reference rows matched, 1 of
    them shared, now stand beside the 5 pairs."""
    stamps = np.array([0.0, 0.1, 0.2, 1.0, 2.0])
    quats = np.tile([0.0, 0.0, 0.0, 1.0], (5, 1))
    est = PoseTrajectory(
        stamps_s=stamps, positions_xyz=np.zeros((5, 3)), orientations_quat_xyzw=quats
    )
    ref = PoseTrajectory(
        stamps_s=stamps[[0, 3, 4]], positions_xyz=np.zeros((3, 3)), orientations_quat_xyzw=quats[:3]
    )
    counts = rpe(ref, est, pairs=PairSettings(protocol="tum")).counts
    assert {k: v for k, v in counts.items() if "reference" in k or k == "matched"} == {
        "reference": 3,
        "matched": 5,
        "matched_reference_rows": 3,
        "shared_reference_rows": 1,
        "unmatched_reference": 0,
    }
