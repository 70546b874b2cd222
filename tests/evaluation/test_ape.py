"""APE: the SLAM guide's table, hand values, invariance, and what the result records."""

from __future__ import annotations

import importlib
import json
import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robot_msgs
from robot_msgs.compare import EvaluationResult
from robot_msgs.compare.alignment import Alignment
from robot_msgs.errors import AlignmentError, AssociationError, DataWarning, ValidationError
from robot_msgs.evaluation import Ape, EvaluationSettings, PairSettings, ape, evaluate, rpe
from robot_msgs.evaluation.alignment import length_units
from robot_msgs.evaluation.ape import aligned_rmse, alignment_hint
from robot_msgs.io import read_trajectory
from robot_msgs.io.examples import resolve_path
from robot_msgs.rotations import matrix_from_quat_xyzw
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import (
    RIGID_MOTIONS,
    RigidMotion,
    line,
    noisy_estimate_and_moved,
    quats_from_rotvecs,
    random_walk,
)

if TYPE_CHECKING:
    from robot_msgs.evaluation.settings import AlignMethod

T = np.arange(101, dtype=np.float64) * 0.1

# The module, not the function ``robot_msgs.evaluation.ape`` that its package exports.
ape_module = importlib.import_module("robot_msgs.evaluation.ape")


def test_seed_table_constant_offset_gives_0_1_m() -> None:
    result = ape(line(), line(T + 0.1))
    assert f"{result.stats['translation'].rms:.6f}" == "0.100000"


def test_seed_table_drift_of_one_centimetre_per_second_gives_0_057879_m() -> None:
    result = ape(line(), line(T + 0.01 * T))
    assert f"{result.stats['translation'].rms:.6f}" == "0.057879"
    # By hand: 0.01 * sqrt(mean(t²)) = 0.01 * sqrt(0.01 * 100 * 101 * 201 / 6 / 101).
    assert result.stats["translation"].rms == pytest.approx(0.01 * math.sqrt(33.5), rel=1e-12)


def test_result_records_settings_counts_units_and_time_integrals() -> None:
    ref = line()
    est = line(T + 0.1).replace(
        stamps_s=T[:60] + 0.004,
        positions_xyz=line(T + 0.1).positions_xyz[:60],
        orientations_quat_xyzw=np.tile([0, 0, 0, 1.0], (60, 1)),
    )
    result = ape(ref, est, relation="x", reference_name="gt.tum", estimate_name="slam.tum")
    assert result.metric == "ape"
    assert dict(result.units) == {"x": "m"}
    assert result.settings["relation"] == "x"
    assert result.settings["align"] == "none"
    assert result.settings["sync"] == "nearest"
    assert result.settings["max_diff_s"] == 0.01
    assert result.counts["matched"] == 60
    assert result.counts["reference"] == 101
    assert result.counts["estimate"] == 60
    assert (result.comparison.reference, result.comparison.estimate) == ("gt.tum", "slam.tum")
    series = result.series["x"]
    np.testing.assert_array_equal(series.stamps_s, est.stamps_s)
    assert series.pairs is None
    assert np.sqrt(np.mean(series.errors**2)) == pytest.approx(result.stats["x"].rms, rel=1e-15)
    stats = result.stats["x"]
    assert stats.mean == pytest.approx(0.1)
    # A constant 0.1 m error over 5.9 s of matched stamps: IAE = 0.59 m s.
    assert stats.iae == pytest.approx(0.1 * 5.9)


def test_relation_alias_trans_part_is_translation() -> None:
    result = ape(line(), line(T + 0.1), relation="trans_part")
    assert list(result.stats) == ["translation"]


def test_se3_alignment_removes_a_rigid_motion_and_is_noted() -> None:
    ref = random_walk(500, seed=11)
    turn = Alignment(
        method="se3",
        rotation=matrix_from_quat_xyzw(quats_from_rotvecs(np.array([[0.1, -0.4, 1.2]])))[0],
        translation_m=np.array([5.0, -2.0, 0.3]),
    )
    est = turn.apply(ref)
    assert ape(ref, est).stats["translation"].rms > 1.0
    result = ape(ref, est, settings=EvaluationSettings(align="se3"), relation="angle_deg")
    assert result.stats["angle_deg"].max < 1e-6
    assert result.settings["align"] == "se3"
    assert any(note.startswith("se3 alignment fitted on 500 poses") for note in result.notes)


def test_sim3_alignment_recovers_a_similarity_of_the_estimate() -> None:
    ref = random_walk(400, seed=12)
    sim = Alignment(
        method="sim3",
        rotation=matrix_from_quat_xyzw(quats_from_rotvecs(np.array([[1.0, 0.2, -0.7]])))[0],
        translation_m=np.array([-3.0, 4.0, 1.0]),
        scale=0.37,
    )
    result = ape(ref, sim.apply(ref), settings=EvaluationSettings(align="sim3"))
    assert result.stats["translation"].max < 1e-9


def test_n_align_fits_on_the_first_poses_only() -> None:
    ref = random_walk(300, seed=13)
    est = ref.replace(
        positions_xyz=ref.positions_xyz + np.where(np.arange(300)[:, None] < 100, 0.0, 1.0)
    )
    result = ape(ref, est, settings=EvaluationSettings(align="se3", n_align=100))
    errors = result.stats["translation"]
    assert errors.min < 1e-9  # the first 100 poses fit exactly
    assert errors.max == pytest.approx(math.sqrt(3.0))
    assert result.settings["n_align"] == 100


@settings(max_examples=25, deadline=None)
@given(RIGID_MOTIONS)
def test_ape_after_se3_alignment_is_invariant_to_a_rigid_transform_of_the_estimate(
    motion: RigidMotion,
) -> None:
    ref, est, moved = noisy_estimate_and_moved(21, motion)
    for relation in ("translation", "angle_rad", "full"):
        before = ape(ref, est, settings=EvaluationSettings(align="se3"), relation=relation).stats[
            relation
        ]
        after = ape(ref, moved, settings=EvaluationSettings(align="se3"), relation=relation).stats[
            relation
        ]
        assert after.rms == pytest.approx(before.rms, rel=1e-9, abs=1e-12)
        assert after.max == pytest.approx(before.max, rel=1e-9, abs=1e-12)


def test_an_unknown_relation_is_refused() -> None:
    with pytest.raises(ValidationError, match=r"Expected one of 'translation', .*`Ape\.relation`"):
        ape(line(), line(), relation="point_distance_error_ratio")


def test_the_result_loads_back_equal_from_its_json() -> None:
    ref = random_walk(200, seed=3)
    est = ref.replace(positions_xyz=ref.positions_xyz + 0.1)
    result = ape(ref, est, settings=EvaluationSettings(align="se3"), relation="angle_deg")
    text = json.dumps(result.to_dict(), allow_nan=False)
    again = robot_msgs.from_dict(json.loads(text))
    assert again == result
    assert isinstance(again, EvaluationResult)


def test_time_range_keeps_the_reference_poses_within_it_before_association() -> None:
    ref, est = line(), line(T + 0.1)
    settings = EvaluationSettings(t_start_s=2.0, t_end_s=5.0)
    result = ape(ref, est, settings=settings)
    # Reference stamps 2.0 .. 5.0 inclusive (every 0.1 s): 31 poses, each matched.
    assert result.counts["matched"] == 31
    assert result.counts["reference"] == 101
    assert result.counts["reference_outside_range"] == 70
    assert result.reference.stamps_s[0] == pytest.approx(2.0)
    assert result.reference.stamps_s[-1] == pytest.approx(5.0)
    np.testing.assert_array_equal(result.reference_index, np.arange(20, 51))
    assert result.settings["t_start_s"] == 2.0


def test_a_time_range_without_reference_poses_is_refused_naming_the_flags() -> None:
    with pytest.raises(
        AssociationError, match=r"No pose of the reference in the time range 20\.000000"
    ):
        ape(line(), line(), settings=EvaluationSettings(t_start_s=20.0))


def test_a_time_range_past_any_clock_is_said_as_its_float_not_309_digits() -> None:
    # --t-start 1e308 was said as 1000000000000000010979063629...: 309 digits and ".000000".
    with pytest.raises(AssociationError, match=r"time range 1e\+308 \.\. inf s \("):
        ape(line(), line(), settings=EvaluationSettings(t_start_s=1e308))
    with pytest.raises(AssociationError, match=r"time range -inf \.\. -1e\+300 s \("):
        ape(line(), line(), settings=EvaluationSettings(t_end_s=-1e300))


def test_stamps_past_any_clock_are_said_as_floats_not_as_numpy_scalars() -> None:
    # The trajectory's own stamps are NumPy floats: 'it spans np.float64(3e+16) ..', where
    # the range beside them said '0.000000' (ape of a TUM file stamped 3e25 ns).
    far = line()
    far = PoseTrajectory(
        stamps_s=3e16 + far.stamps_s * 64,
        positions_xyz=far.positions_xyz,
        orientations_quat_xyzw=far.orientations_quat_xyzw,
    )
    with pytest.raises(
        AssociationError, match=r"it spans 3e\+16 \.\. 3\.0000000000000[0-9]*e\+16 s"
    ):
        ape(far, far, settings=EvaluationSettings(t_start_s=0.0, t_end_s=1.0))


def test_one_to_one_spelling_with_a_hyphen_is_accepted() -> None:
    result = ape(line(), line(T + 0.1), settings=EvaluationSettings(sync="one-to-one"))
    assert result.settings["sync"] == "one_to_one"


def test_degenerate_alignment_and_no_overlap_raise_typed_errors() -> None:
    with pytest.raises(AlignmentError, match=r"positions are collinear"):
        ape(line(), line(T + 0.1), settings=EvaluationSettings(align="se3"))
    later = line().replace(stamps_s=T + 100.0)
    with pytest.raises(
        AssociationError, match=r"^No pose pairs found .*The time spans do not overlap"
    ):
        ape(line(), later)


def test_interpolated_reference_gives_exact_errors_between_its_poses() -> None:
    # Estimate stamps fall half-way between reference poses; x = t is linear, so the
    # interpolated reference is exact and the 0.1 m offset comes out exactly.
    t_est = np.arange(100, dtype=np.float64) * 0.1 + 0.05
    est = line(t_est + 0.1, n=100).replace(stamps_s=t_est)
    result = ape(line(), est, settings=EvaluationSettings(sync="interpolate"), relation="x")
    assert result.counts["matched"] == 100
    assert result.stats["x"].min == pytest.approx(0.1, abs=1e-12)
    assert result.stats["x"].max == pytest.approx(0.1, abs=1e-12)
    assert result.settings["sync"] == "interpolate"


def test_evaluate_of_several_relations_equals_ape_for_each() -> None:
    ref, est = random_walk(300, seed=3), random_walk(300, seed=4)
    settings = EvaluationSettings(align="sim3", n_align=100)
    relations = ("translation", "angle_deg", "full", "z")
    together = evaluate(
        ref, est, settings, metrics=[Ape(relation=r) for r in relations], estimate_name="e"
    )
    for relation, result in zip(relations, together, strict=True):
        assert result == ape(ref, est, settings=settings, relation=relation, estimate_name="e")


def test_an_ape_refuses_an_rpe_only_relation() -> None:
    with pytest.raises(ValidationError, match=r"'point_distance_error_ratio' - at `Ape\.relation`"):
        Ape(relation="point_distance_error_ratio")


@pytest.mark.parametrize(
    ("ref_factor", "est_factor", "said"),
    [
        (1.0, 100.0, "the estimate in centimetres"),
        (1.0, 1000.0, "the estimate in millimetres"),
        (100.0, 1.0, "the reference in centimetres"),
        (1000.0, 1.0, "the reference in millimetres"),
    ],
)
def test_an_unaligned_ape_in_cm_or_mm_hints_at_the_unit_not_at_sim3(
    ref_factor: float, est_factor: float, said: str
) -> None:
    """fr1_xyz's estimate in cm was hinted to `--align sim3` (0.0134 m, not 206 m), which
    hides the fault and any real scale error (a review)."""
    ref, est = (
        read_trajectory(resolve_path(f"example:fr1_xyz/{name}.tum"))
        for name in ("groundtruth", "rgbdslam")
    )
    result = ape(
        ref.replace(positions_xyz=ref_factor * ref.positions_xyz),
        est.replace(positions_xyz=est_factor * est.positions_xyz),
    )
    (hint,) = (note for note in result.comparison.notes if note.startswith("hint:"))
    assert f": {said}, not metres? convert it: `align='sim3'` gives " in hint
    assert "with `align='sim3'` the rmse" not in hint


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 1000),
    RIGID_MOTIONS,
    st.floats(0.2, 5.0),
    st.floats(0.0, 0.2),
)
def test_the_hints_closed_form_shortcut_gives_the_hint_of_both_fits_made_and_measured(
    seed: int, motion: RigidMotion, scale: float, shift_m: float
) -> None:
    """Most runs are settled by the closed-form Sim(3) residual; none may change its hint."""
    ref, _, moved = noisy_estimate_and_moved(seed, motion)
    est = moved.replace(positions_xyz=scale * moved.positions_xyz + shift_m)
    rmse = aligned_rmse(ref, est, "none")
    shortcut = alignment_hint(ref, est, rmse)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ape_module, "_SURELY_NO_HINT", 0.0)  # never settled: both fits, always
        assert alignment_hint(ref, est, rmse) == shortcut


def test_length_units_names_both_readings_when_both_speeds_are_a_robots() -> None:
    fast = line(20.0 * T)  # 20 m/s: in km it reads 0.02 m/s, a robot's speed too
    assert length_units(fast, line(0.02 * T), 1000.0) == (
        "the reference in millimetres or the estimate in kilometres"
    )
    # At 1 m/s, 1 mm/s as read is nobody's speed: the estimate is in kilometres.
    assert length_units(line(), line(0.001 * T), 1000.0) == "the estimate in kilometres"
    # Beyond 10 % of a unit's factor, or another power of ten: a scale, not a unit.
    assert length_units(line(), line(T), 1000.0 * 1.11) is None
    assert length_units(line(), line(T), 10.0) is None


# cnspy_trajectory_evaluation (R. Jung) ------------------------------------------------------
# ``tests/data/cnspy_reference.json`` holds cnspy 0.2.7's ATE (made by
# ``tests/data/make_cnspy_reference.py``): each TUM file written as cnspy's ``PoseStamped``
# CSV (first line ``t,tx,ty,tz,qx,qy,qz,qw``, commas), matched by nearest stamp within
# ``max_difference``, aligned (``alignment_type``, ``num_frames``), and its ``get_ARMSE()``:
# ``ARMSE_p`` the mean position error norm (m), ``ARMSE_R`` the mean rotation angle (deg).
# Here the same CSV is read by ``read_trajectory`` and evaluated with ``--sync nearest
# --max-diff D`` and cnspy's alignment as ours (its ``pos``, the means' offset, is
# ``translation``).

_DATA = Path(__file__).resolve().parents[1] / "data"
_CNSPY = json.loads((_DATA / "cnspy_reference.json").read_text(encoding="utf-8"))
#: cnspy's alignment_type -> robot_msgs' align; its se3 on one frame is ``origin``.
_CNSPY_ALIGN: dict[str, AlignMethod] = {
    "none": "none",
    "se3": "se3",
    "sim3": "sim3",
    "posyaw": "posyaw",
    "pos": "translation",
}
_CNSPY_CASES = _CNSPY["cases"]


def _cnspy_csv(source: Path, out: Path) -> Path:
    """Write ``source`` as cnspy's PoseStamped CSV: its header line, comma-separated rows.

    A TUM file's rows as they are; EuRoC's ground truth in seconds with ``qw`` last, as
    ``tests/data/make_cnspy_reference.py``'s ``pose_rows`` converts it.
    """
    if source.suffix == ".csv":
        raw = np.loadtxt(source, delimiter=",", comments="#")
        rows = np.column_stack((raw[:, 0] / 1e9, raw[:, 1:4], raw[:, 5:8], raw[:, 4]))
    else:
        rows = np.loadtxt(source)
    body = "\n".join(",".join(repr(float(v)) for v in row) for row in rows)
    out.write_text("t,tx,ty,tz,qx,qy,qz,qw\n" + body + "\n", encoding="utf-8")
    return out


@pytest.mark.evo_data
@pytest.mark.parametrize(
    "case",
    _CNSPY_CASES,
    ids=[f"{c['estimate']}-{c['alignment_type']}-{c['num_frames']}" for c in _CNSPY_CASES],
)
def test_ape_mean_equals_cnspys_armse(evo_data: Path, tmp_path: Path, case: dict[str, Any]) -> None:
    """cnspy's ``ARMSE_p``/``ARMSE_R`` are ``ape``'s ``translation``/``angle_deg`` means,
    the means of its ``DifferentialTrajectoryError`` ``rpe --delta 1 --delta-unit f``'s."""
    # fr2_desk's ground truth repeats a stamp (line 10861): cnspy's nearest match takes the
    # later row for an estimate stamped after it, as robot_msgs reading the last one does
    with warnings.catch_warnings():
        # V1_02's ground truth has 12 quaternions up to 1.5e-4 off unit: normalised, as
        # cnspy's UnitQuaternion(...).unit() does before its errors
        warnings.filterwarnings("ignore", ".*gt.csv: 12 of 16702 quaternion", DataWarning)
        ref = read_trajectory(_cnspy_csv(evo_data / case["reference"], tmp_path / "gt.csv"))
        # V102.txt repeats 4 stamps: the first row of each kept, the pairs cnspy's unique
        # matching keeps (its numbers agree)
        warnings.filterwarnings("ignore", ".*est.csv: 4 row.s. repeat", DataWarning)
        est = read_trajectory(_cnspy_csv(evo_data / case["estimate"], tmp_path / "est.csv"))
    frames = case["num_frames"]
    align: AlignMethod = _CNSPY_ALIGN[case["alignment_type"]]
    if (align, frames) == ("se3", 1):  # cnspy fits se3 on one frame as the first poses' offset
        align, frames = "origin", -1
    settings = EvaluationSettings(
        sync="nearest",
        max_diff_s=case["max_difference_s"],
        align=align,
        n_align=None if frames == -1 else frames,
    )
    for relation, key in (("translation", "ARMSE_p_m"), ("angle_deg", "ARMSE_R_deg")):
        stats = ape(ref, est, settings=settings, relation=relation).stats[relation]
        assert stats.n == case["n_matched"]
        assert stats.mean == pytest.approx(case[key], rel=1e-9, abs=1e-12), relation
    # DifferentialTrajectoryError: each pair of consecutive matched poses, rpe's rule
    one_frame = PairSettings(delta=1, delta_unit="f")
    for relation, key in (
        ("translation", "differential_mean_p_m"),
        ("angle_deg", "differential_mean_R_deg"),
    ):
        result = rpe(ref, est, settings=settings, pairs=one_frame, relation=relation)
        stats = result.stats[relation]
        assert stats.n == case["n_matched"] - 1
        assert stats.mean == pytest.approx(case[key], rel=1e-9, abs=1e-12), f"rpe {relation}"
