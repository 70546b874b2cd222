"""Along/cross-track, vertical, roll/pitch/yaw: hand-computed cases and the exact sums."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import PairSettings, ape_errors, rpe, rpe_errors
from robot_msgs.evaluation.components import track_axes
from robot_msgs.rotations import quat_xyzw_multiply
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import random_walk

if TYPE_CHECKING:
    from robot_msgs.compare import EvaluationResult


def trajectory(positions: np.ndarray, quats: np.ndarray | None = None) -> PoseTrajectory:
    n = positions.shape[0]
    return PoseTrajectory(
        stamps_s=np.arange(n, dtype=np.float64),
        positions_xyz=positions,
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)) if quats is None else quats,
    )


def yaw_quats(yaw_rad: np.ndarray) -> np.ndarray:
    zero = np.zeros_like(yaw_rad)
    return np.stack([zero, zero, np.sin(yaw_rad / 2), np.cos(yaw_rad / 2)], axis=1)


NORTH = trajectory(np.stack([np.zeros(10), np.arange(10.0), np.zeros(10)], axis=1))


def test_heading_north_an_east_error_is_to_the_right() -> None:
    # Driving along +y: along = +y, cross (left) = z x y = -x, vertical = z.
    est = NORTH.replace(positions_xyz=NORTH.positions_xyz + np.array([0.3, 0.4, -0.1]))
    got = {r: ape_errors(NORTH, est, r) for r in ("along_track", "cross_track", "vertical")}
    assert got["along_track"] == pytest.approx(np.full(10, 0.4), abs=1e-15)
    assert got["cross_track"] == pytest.approx(np.full(10, -0.3), abs=1e-15)
    assert got["vertical"] == pytest.approx(np.full(10, -0.1), abs=1e-15)


def test_on_a_circle_a_radial_error_is_all_cross_track() -> None:
    # Counter-clockwise: the centre is on the left, so 0.2 m outwards is -0.2 cross-track;
    # the chord q[i+1] - q[i-1] of uniformly spaced points is parallel to the tangent at q[i].
    a = np.linspace(0.0, 2 * np.pi, 73)[:-1]
    ring = np.stack([np.cos(a), np.sin(a), np.zeros_like(a)], axis=1)
    ref, est = trajectory(5.0 * ring), trajectory(5.2 * ring)
    inner = slice(1, -1)  # the ends take one-sided differences
    assert ape_errors(ref, est, "cross_track")[inner] == pytest.approx(-0.2, abs=1e-12)
    assert ape_errors(ref, est, "along_track")[inner] == pytest.approx(0.0, abs=1e-12)


def test_standing_or_climbing_keeps_the_last_direction_of_motion() -> None:
    path = np.array([[0.0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 0, 1], [2, 0, 2], [2, 0, 3]])
    along, cross = track_axes(path)
    # Rows 3 and 4 only climb (their neighbours differ by z alone, or by less than 1 nm in
    # x-y): they keep row 2's direction (+x); row 2's own central difference is +x too.
    assert along.tolist() == [[1.0, 0.0, 0.0]] * 6
    assert cross.tolist() == [[0.0, 1.0, 0.0]] * 6
    still = np.array([[0.0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3]])
    with pytest.raises(ValidationError, match=r"a reference that moves horizontally"):
        track_axes(still)
    start_still = np.array([[0.0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 1, 0]])
    assert track_axes(start_still)[0][0].tolist() == [0.0, 1.0, 0.0]  # the first after


def test_a_yaw_error_is_yaw_and_a_roll_error_is_roll_in_the_body_frame() -> None:
    heading = yaw_quats(np.full(10, math.radians(90.0)))  # facing +y
    ref = NORTH.replace(orientations_quat_xyzw=heading)
    turned = NORTH.replace(orientations_quat_xyzw=yaw_quats(np.full(10, math.radians(95.0))))
    assert ape_errors(ref, turned, "yaw_deg") == pytest.approx(np.full(10, 5.0), abs=1e-12)
    assert ape_errors(ref, turned, "roll_deg") == pytest.approx(np.zeros(10), abs=1e-12)
    # A 3 deg turn about the body's x axis (R_est = R_ref Rx(3 deg)) is a roll of +3 deg,
    # although in the world it is a turn about +y, where the body's x axis points.
    roll = np.tile([math.sin(math.radians(1.5)), 0.0, 0.0, math.cos(math.radians(1.5))], (10, 1))
    rolled = NORTH.replace(orientations_quat_xyzw=quat_xyzw_multiply(heading, roll))
    assert ape_errors(ref, rolled, "roll_deg") == pytest.approx(np.full(10, 3.0), abs=1e-12)
    assert ape_errors(ref, rolled, "pitch_rad") == pytest.approx(np.zeros(10), abs=1e-15)


def test_rpe_components_of_a_lateral_drift_and_a_heading_drift() -> None:
    east = trajectory(np.stack([np.arange(20.0), np.zeros(20), np.zeros(20)], axis=1))
    drift = east.positions_xyz + np.stack([np.zeros(20), 0.01 * np.arange(20), np.zeros(20)], 1)
    est = east.replace(
        positions_xyz=drift, orientations_quat_xyzw=yaw_quats(np.radians(0.1 * np.arange(20)))
    )
    pairs = np.stack([np.arange(19), np.arange(1, 20)], axis=1)
    # Each step the estimate moves 1 cm to the left (+y) more, and turns 0.1 deg more.
    # Pair (i, i+1): world error R(Q_i) R(P_i)ᵀ (p_j - p_i) - (q_j - q_i) with R(Q_i) = I
    # and R(P_i) = Rz(0.1 i deg): the estimate's step (1, 0.01, 0) turned back by 0.1 i deg.
    step = np.array([1.0, 0.01, 0.0])
    angle = np.radians(0.1 * np.arange(19))
    world = np.stack(
        [np.cos(angle) * step[0] + np.sin(angle) * step[1] - 1.0,
         -np.sin(angle) * step[0] + np.cos(angle) * step[1],
         np.zeros(19)],
        axis=1,
    )  # fmt: skip
    assert rpe_errors(east, est, pairs, "along_track") == pytest.approx(world[:, 0], abs=1e-14)
    assert rpe_errors(east, est, pairs, "cross_track") == pytest.approx(world[:, 1], abs=1e-14)
    assert rpe_errors(east, est, pairs, "yaw_deg") == pytest.approx(np.full(19, 0.1), abs=1e-12)
    assert rpe_errors(east, est, pairs, "roll_deg") == pytest.approx(np.zeros(19), abs=1e-14)


def _noisy_pair(seed: int) -> tuple[PoseTrajectory, PoseTrajectory]:
    ref = random_walk(500, seed=seed)
    noise = random_walk(500, seed=seed + 1, step_m=0.01, step_rad=0.05)
    est = ref.replace(
        positions_xyz=ref.positions_xyz + noise.positions_xyz,
        orientations_quat_xyzw=noise.orientations_quat_xyzw,
    )
    return ref, est


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_squares_sum_to_the_translation_and_the_angle(seed: int) -> None:
    ref, est = _noisy_pair(seed)
    track = sum(ape_errors(ref, est, r) ** 2 for r in ("along_track", "cross_track", "vertical"))
    assert track == pytest.approx(ape_errors(ref, est, "translation") ** 2, rel=1e-12)
    turn = sum(ape_errors(ref, est, r) ** 2 for r in ("roll_rad", "pitch_rad", "yaw_rad"))
    assert turn == pytest.approx(ape_errors(ref, est, "angle_rad") ** 2, rel=1e-10)
    pairs = np.stack([np.arange(0, 490, 3), np.arange(10, 500, 3)], axis=1)
    track = sum(
        rpe_errors(ref, est, pairs, r) ** 2 for r in ("along_track", "cross_track", "vertical")
    )
    assert track == pytest.approx(rpe_errors(ref, est, pairs, "translation") ** 2, rel=1e-12)
    turn = sum(rpe_errors(ref, est, pairs, r) ** 2 for r in ("roll_deg", "pitch_deg", "yaw_deg"))
    assert turn == pytest.approx(rpe_errors(ref, est, pairs, "angle_deg") ** 2, rel=1e-10)


def test_component_relations_through_rpe_with_pair_settings() -> None:
    ref, est = _noisy_pair(4)
    result = rpe(ref, est, pairs=PairSettings(delta=5), relation="cross_track")
    assert result.units["cross_track"] == "m"
    assert result.settings["relation"] == "cross_track"


# trajectopy's definitions (5.1.2, ate() with orientations; /work/shared/docs/definitions.md):
# the deviation in the reference body's axes, and as_euler("xyz") of R_ref R_est^T.


def test_trajectopy_body_axes_differ_from_the_direction_of_motion_by_hand() -> None:
    # Driving along +x while the body faces +y (yaw 90 deg): the body's x axis is the
    # world's +y, its y axis the world's -x. An error of (0.1, 0.2, 0.3) m in the world is
    # R_ref^T e = (0.2, -0.1, 0.3) in the body's axes, by hand; along the motion it is 0.1
    # along-track and 0.2 cross-track (left of +x is +y).
    east = trajectory(np.stack([np.arange(10.0), np.zeros(10), np.zeros(10)], axis=1))
    ref = east.replace(orientations_quat_xyzw=yaw_quats(np.full(10, math.radians(90.0))))
    est = ref.replace(positions_xyz=ref.positions_xyz + np.array([0.1, 0.2, 0.3]))
    body = [ape_errors(ref, est, r) for r in ("along_track_body", "cross_track_body")]
    assert body[0] == pytest.approx(np.full(10, 0.2), abs=1e-15)
    assert body[1] == pytest.approx(np.full(10, -0.1), abs=1e-15)
    assert ape_errors(ref, est, "vertical_body") == pytest.approx(np.full(10, 0.3), abs=1e-15)
    assert ape_errors(ref, est, "along_track") == pytest.approx(np.full(10, 0.1), abs=1e-15)
    assert ape_errors(ref, est, "cross_track") == pytest.approx(np.full(10, 0.2), abs=1e-15)
    # A body pitched 90 deg nose-up: its z axis is the world's -x, so a world-z error is
    # along the body's x (forward), not vertical.
    half = math.sqrt(0.5)
    up = east.replace(orientations_quat_xyzw=np.tile([0.0, -half, 0.0, half], (10, 1)))
    lifted = up.replace(positions_xyz=up.positions_xyz + np.array([0.0, 0.0, 0.5]))
    assert ape_errors(up, lifted, "along_track_body") == pytest.approx(np.full(10, 0.5))
    assert ape_errors(up, lifted, "vertical_body") == pytest.approx(np.zeros(10), abs=1e-15)
    assert ape_errors(up, lifted, "vertical") == pytest.approx(np.full(10, 0.5), abs=1e-15)


def test_trajectopy_world_euler_angles_by_hand() -> None:
    heading = yaw_quats(np.full(10, math.radians(90.0)))  # facing +y
    ref = NORTH.replace(orientations_quat_xyzw=heading)
    # A 10 deg roll about the body's x axis (R_est = R_ref Rx(10 deg)). R_ref R_est^T =
    # Rz(90) Rx(-10) Rz(-90) turns -10 deg about Rz(90) x = the world's +y: a world pitch
    # of -10 deg, where the body-frame relation says a roll of +10 deg.
    roll = np.tile([math.sin(math.radians(5.0)), 0.0, 0.0, math.cos(math.radians(5.0))], (10, 1))
    rolled = NORTH.replace(orientations_quat_xyzw=quat_xyzw_multiply(heading, roll))
    assert ape_errors(ref, rolled, "pitch_world_deg") == pytest.approx(np.full(10, -10.0))
    assert ape_errors(ref, rolled, "roll_world_deg") == pytest.approx(np.zeros(10), abs=1e-12)
    assert ape_errors(ref, rolled, "yaw_world_rad") == pytest.approx(np.zeros(10), abs=1e-12)
    assert ape_errors(ref, rolled, "roll_deg") == pytest.approx(np.full(10, 10.0))
    # 5 deg more yaw: R_ref R_est^T = Rz(-5 deg), the reference relative to the estimate.
    turned = NORTH.replace(orientations_quat_xyzw=yaw_quats(np.full(10, math.radians(95.0))))
    assert ape_errors(ref, turned, "yaw_world_deg") == pytest.approx(np.full(10, -5.0))
    assert ape_errors(ref, turned, "yaw_world_rad") == pytest.approx(
        np.full(10, math.radians(-5.0))
    )
    assert ape_errors(ref, turned, "yaw_deg") == pytest.approx(np.full(10, 5.0))


def test_trajectopy_components_on_fr1_xyz_as_scipy_computes_its_formulas() -> None:
    # trajectopy's ate() computes, with SciPy's Rotation (its Rotations subclasses it, "-"
    # is a * b.inv()): (test - ref) @ R_ref.as_matrix() and (R_ref * R_test.inv())
    # .as_euler("xyz"). The same SciPy calls, on the se3-aligned fr1_xyz (trajectopy's own
    # numbers, unaligned: test_trajectopy_components_on_fr1_xyz_agree_with_trajectopy).
    rotation = pytest.importorskip("scipy.spatial.transform").Rotation
    from robot_msgs.evaluation import EvaluationSettings, ape
    from robot_msgs.io import read_trajectory

    result = ape(
        read_trajectory("example:fr1_xyz/groundtruth.tum"),
        read_trajectory("example:fr1_xyz/rgbdslam.tum"),
        settings=EvaluationSettings(align="se3"),
    )
    ref, est = result.reference, result.estimate
    r_ref = rotation.from_quat(ref.orientations_quat_xyzw)
    r_est = rotation.from_quat(est.orientations_quat_xyzw)
    diff = est.positions_xyz - ref.positions_xyz
    directed = np.einsum("ni,nij->nj", diff, r_ref.as_matrix())
    euler = (r_ref * r_est.inv()).as_euler("xyz")
    for k, name in enumerate(("along_track_body", "cross_track_body", "vertical_body")):
        assert ape_errors(ref, est, name) == pytest.approx(directed[:, k], rel=1e-9, abs=1e-15)
    for k, name in enumerate(("roll_world", "pitch_world", "yaw_world")):
        assert ape_errors(ref, est, f"{name}_rad") == pytest.approx(euler[:, k], abs=1e-12)
        got = ape_errors(ref, est, f"{name}_deg")
        assert got == pytest.approx(np.degrees(euler[:, k]), abs=1e-10)
    # Different numbers from the direction-of-motion and body rotation-vector relations.
    assert not np.allclose(ape_errors(ref, est, "along_track"), directed[:, 0], atol=1e-4)
    assert not np.allclose(ape_errors(ref, est, "roll_rad"), euler[:, 0], atol=1e-4)


# trajectopy 5.1.2's own ate() on the raw fr1_xyz, NEAREST_TEMPORAL matching within 10 ms,
# no alignment: tests/data/make_trajectopy_component_reference.py (its command is in the
# file). Tolerance 1e-12 (m, rad): both tools evaluate the same closed formulas in float64
# on the same file values (trajectopy through SciPy's Rotation, robot_msgs through its
# quaternion kernels); they agreed to 5e-16 rad and 3e-17 m when this was written, on
# errors of 1e-4..4e-2, while a convention difference (sign, axis order, Euler order,
# world vs body axes) moves them by 1e-4 or more here.
TRAJECTOPY_ATE = json.loads(
    (Path(__file__).parents[1] / "data" / "trajectopy_component_reference.json").read_text()
)


def _ape_fr1_xyz(relation: str) -> EvaluationResult:
    from robot_msgs.evaluation import ape
    from robot_msgs.io import read_trajectory

    return ape(
        read_trajectory("example:fr1_xyz/groundtruth.tum"),
        read_trajectory("example:fr1_xyz/rgbdslam.tum"),
        relation=relation,
    )


@pytest.mark.parametrize("relation", TRAJECTOPY_ATE["columns"][2:])
def test_trajectopy_components_on_fr1_xyz_agree_with_trajectopy(relation: str) -> None:
    rows = np.array(TRAJECTOPY_ATE["rows"])
    theirs = rows[:, TRAJECTOPY_ATE["columns"].index(relation)]
    result = _ape_fr1_xyz(relation)
    # The default association (evo's nearest, 10 ms) finds trajectopy's pairs.
    assert result.reference_index.tolist() == rows[:, 0].astype(int).tolist()
    assert result.estimate_index.tolist() == rows[:, 1].astype(int).tolist()
    assert result.series[relation].errors == pytest.approx(theirs, rel=0, abs=1e-12)
    stats, summary = result.stats[relation], TRAJECTOPY_ATE["summaries"][relation]
    assert stats.n == TRAJECTOPY_ATE["n_pairs"]
    for name in ("rms", "mean", "min", "max"):
        assert getattr(stats, name) == pytest.approx(summary[name], rel=0, abs=1e-12)
    if relation.endswith("_rad"):  # the same numbers in degrees
        degrees = relation.removesuffix("_rad") + "_deg"
        got = _ape_fr1_xyz(degrees).series[degrees].errors
        assert got == pytest.approx(np.degrees(theirs), rel=0, abs=1e-10)


def test_the_relation_help_states_each_frame(capsys: pytest.CaptureFixture[str]) -> None:
    from robot_msgs.cli import main

    with pytest.raises(SystemExit, match=r"^0$"):
        main(["ape", "--help"])
    block = capsys.readouterr().out.split("  --relation RELATION")[1].split("\n\n")[0]
    assert max(len(line) for line in block.splitlines()) <= 80
    text = " ".join(block.split())
    for words in (
        (
            "along_track/cross_track/vertical (m; frame: the reference's horizontal direction of "
            "motion, world z up)"
        ),
        (
            "roll/pitch/yaw_rad|_deg (rotation vector of R_ref^T R_est; frame: the reference "
            "body's axes)"
        ),
        (
            "along_track_body/cross_track_body/vertical_body (m; frame: the reference body's x, "
            "y, z axes)"
        ),
        (
            "roll/pitch/yaw_world_rad|_deg (xyz Euler angles of R_ref R_est^T; frame: the world's "
            "axes)"
        ),
    ):
        assert words in text


def test_one_still_pose_is_said_in_the_singular() -> None:
    """A reference of one pose was refused as "1 poses that do not" move."""
    with pytest.raises(ValidationError, match=r"got 1 pose that does not \(the direction"):
        track_axes(np.zeros((1, 3)))
