"""Alignment: recovery of known transforms, independent solvers, degenerate inputs, evo on real data.

Independent references: SciPy's ``Rotation.align_vectors`` (Kabsch, its own SVD code) for the
best rotation; the least-squares scale for a fixed rotation; a dense search over the yaw
angle and rpg_trajectory_evaluation's closed form for ``posyaw``; evo's own numbers (stored in
``tests/data/evo_alignment_reference.json`` with the script that wrote them, and recomputed
live when evo is installed).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

import robot_msgs.evaluation.alignment as alignment_module
from robot_msgs.compare import Alignment
from robot_msgs.errors import AlignmentError, ValidationError
from robot_msgs.evaluation import EvaluationSettings, align, umeyama
from robot_msgs.evaluation.alignment import fit_rmse, mirrored_fit
from robot_msgs.rotations import (
    angle_from_quat_xyzw,
    matrix_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
)
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import load_evo_file

if TYPE_CHECKING:
    import numpy.typing as npt

    from robot_msgs.evaluation.settings import AlignMethod
    from robot_msgs.typing import Float64Array

DATA = Path(__file__).resolve().parents[1] / "data"
REFERENCE = json.loads((DATA / "evo_alignment_reference.json").read_text())


# Helpers ------------------------------------------------------------------------------------


def traj(
    positions: npt.ArrayLike,
    quats: Float64Array | None = None,
    stamps: Float64Array | None = None,
) -> PoseTrajectory:
    p = np.asarray(positions, dtype=float)
    n = p.shape[0]
    if quats is None:
        quats = Rotation.random(n, random_state=n).as_quat()
    return PoseTrajectory(
        stamps_s=np.arange(n, dtype=float) if stamps is None else stamps,
        positions_xyz=p,
        orientations_quat_xyzw=quats,
    )


def rot_z(theta: float) -> Float64Array:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


unit = st.floats(-1.0, 1.0, allow_nan=False)


@st.composite
def rotations(draw: st.DrawFn) -> Float64Array:
    q = np.array(draw(st.tuples(unit, unit, unit, unit)))
    assume(np.linalg.norm(q) > 0.1)
    matrix: Float64Array = Rotation.from_quat(q / np.linalg.norm(q)).as_matrix()
    return matrix


@st.composite
def spread_points(draw: st.DrawFn, min_size: int = 4, max_size: int = 30) -> Float64Array:
    """Points whose covariance has rank 3, well conditioned (not near a line or a plane)."""
    n = draw(st.integers(min_size, max_size))
    seed = draw(st.integers(0, 2**32 - 1))
    scale = draw(st.floats(0.01, 1000.0))
    pts = np.random.default_rng(seed).normal(size=(n, 3)) * scale
    sv = np.linalg.svd(pts - pts.mean(axis=0), compute_uv=False)
    assume(sv[2] > 1e-2 * sv[0])
    return pts


# Recovery of known transforms (Hypothesis) ---------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    spread_points(),
    rotations(),
    st.tuples(*[st.floats(-100.0, 100.0)] * 3),
    st.floats(0.05, 20.0),
)
def test_sim3_alignment_recovers_a_random_similarity(
    reference_xyz: Float64Array, R: Float64Array, t_drawn: tuple[float, float, float], s: float
) -> None:
    t = np.asarray(t_drawn)
    # estimate = Sim(3)^-1 (reference): aligning it must find (R, t, s) and give the reference back.
    estimate_xyz = ((reference_xyz - t) @ R) / s
    ref = traj(reference_xyz)
    aligned, how = align(ref, traj(estimate_xyz), settings=EvaluationSettings(align="sim3"))
    size = 1.0 + np.abs(reference_xyz).max() + np.linalg.norm(t)
    np.testing.assert_allclose(how.rotation, R, rtol=0, atol=1e-9)
    np.testing.assert_allclose(how.scale, s, rtol=1e-9)
    np.testing.assert_allclose(how.translation_m, t, rtol=0, atol=1e-9 * size)
    np.testing.assert_allclose(aligned.positions_xyz, reference_xyz, rtol=0, atol=1e-9 * size)
    assert how.n_fit == len(ref)


@settings(max_examples=200, deadline=None)
@given(spread_points(), rotations(), st.tuples(*[st.floats(-100.0, 100.0)] * 3))
def test_se3_alignment_recovers_a_random_rigid_motion(
    reference_xyz: Float64Array, R: Float64Array, t_drawn: tuple[float, float, float]
) -> None:
    t = np.asarray(t_drawn)
    estimate_xyz = (reference_xyz - t) @ R
    aligned, how = align(
        traj(reference_xyz), traj(estimate_xyz), settings=EvaluationSettings(align="se3")
    )
    size = 1.0 + np.abs(reference_xyz).max() + np.linalg.norm(t)
    np.testing.assert_allclose(how.rotation, R, rtol=0, atol=1e-9)
    assert how.scale == 1.0
    np.testing.assert_allclose(how.translation_m, t, rtol=0, atol=1e-9 * size)
    np.testing.assert_allclose(aligned.positions_xyz, reference_xyz, rtol=0, atol=1e-9 * size)


@settings(max_examples=100, deadline=None)
@given(spread_points(), st.floats(-math.pi, math.pi), st.tuples(*[st.floats(-100.0, 100.0)] * 3))
def test_posyaw_alignment_recovers_a_random_yaw_and_translation(
    reference_xyz: Float64Array, yaw: float, t_drawn: tuple[float, float, float]
) -> None:
    t = np.asarray(t_drawn)
    R = rot_z(yaw)
    estimate_xyz = (reference_xyz - t) @ R
    aligned, how = align(
        traj(reference_xyz), traj(estimate_xyz), settings=EvaluationSettings(align="posyaw")
    )
    size = 1.0 + np.abs(reference_xyz).max() + np.linalg.norm(t)
    np.testing.assert_allclose(how.rotation, R, rtol=0, atol=1e-9)
    np.testing.assert_allclose(aligned.positions_xyz, reference_xyz, rtol=0, atol=1e-9 * size)


# Against independent solvers (noisy data, where the fit is a compromise) --------------------


RNG = np.random.default_rng(11)
NOISY_REF = RNG.normal(size=(60, 3)) * [3.0, 2.0, 0.5]
NOISY_EST = (NOISY_REF @ rot_z(0.7).T) * 0.8 + [1.0, -2.0, 0.3] + RNG.normal(size=(60, 3)) * 0.2


def test_se3_rotation_matches_scipy_kabsch_including_a_reflected_target() -> None:
    for target in (NOISY_REF, NOISY_REF * [1.0, 1.0, -1.0]):  # the second is a mirror image
        R, t, s = umeyama(NOISY_EST, target, with_scale=False)
        want, _ = Rotation.align_vectors(target - target.mean(0), NOISY_EST - NOISY_EST.mean(0))
        np.testing.assert_allclose(R, want.as_matrix(), atol=1e-12)
        assert np.linalg.det(R) == pytest.approx(1.0)
        np.testing.assert_allclose(t, target.mean(0) - R @ NOISY_EST.mean(0), atol=1e-12)
        assert s == 1.0


@pytest.mark.parametrize("rows", [1, 7, 60, 2048])
def test_sums_taken_in_blocks_of_rows_give_umeyamas_fit(
    rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The textbook sums in one pass (means, centred arrays, Σ (y - μy)(x - μx)ᵀ, eqs.
    # 34-43) against the blocked ones, far from the origin as UTM positions are.
    monkeypatch.setattr(alignment_module, "_ROWS", rows)
    x, y = NOISY_EST + 4e5, NOISY_REF + 4e5
    xc, yc = x - x.mean(0), y - y.mean(0)
    u, d, vt = np.linalg.svd(yc.T @ xc / len(x))
    sign = np.diag([1.0, 1.0, np.sign(np.linalg.det(u) * np.linalg.det(vt))])
    want_r = u @ sign @ vt
    want_s = float(np.trace(np.diag(d) @ sign) / (np.sum(xc * xc) / len(x)))
    R, t, s = umeyama(x, y, with_scale=True)
    np.testing.assert_allclose(R, want_r, atol=1e-12)
    assert s == pytest.approx(want_s, rel=1e-12)
    np.testing.assert_allclose(t, y.mean(0) - want_s * want_r @ x.mean(0), atol=1e-7)
    with pytest.raises(AlignmentError, match="same point"):
        umeyama(np.tile(x[:1], (60, 1)), y, with_scale=False)


def test_sim3_and_scale_use_the_least_squares_scale_of_the_best_rotation() -> None:
    R, _, s = umeyama(NOISY_EST, NOISY_REF, with_scale=True)
    xc, yc = NOISY_EST - NOISY_EST.mean(0), NOISY_REF - NOISY_REF.mean(0)
    # For a fixed rotation, argmin_s sum |y - s R x|^2 is sum(y . R x) / sum |x|^2.
    want = float(np.sum(yc * (xc @ R.T)) / np.sum(xc * xc))
    assert s == pytest.approx(want, rel=1e-12)
    aligned, how = align(
        traj(NOISY_REF), traj(NOISY_EST), settings=EvaluationSettings(align="scale")
    )
    assert how.scale == pytest.approx(want, rel=1e-12)
    np.testing.assert_array_equal(how.rotation, np.eye(3))
    np.testing.assert_array_equal(how.translation_m, np.zeros(3))
    np.testing.assert_allclose(aligned.positions_xyz, want * NOISY_EST, rtol=1e-12)
    # evo's --correct_scale leaves orientations alone.
    np.testing.assert_array_equal(
        aligned.orientations_quat_xyzw, traj(NOISY_EST).orientations_quat_xyzw
    )


def test_posyaw_matches_a_dense_yaw_search_and_rpg_closed_form() -> None:
    _, how = align(traj(NOISY_REF), traj(NOISY_EST), settings=EvaluationSettings(align="posyaw"))
    xc, yc = NOISY_EST - NOISY_EST.mean(0), NOISY_REF - NOISY_REF.mean(0)
    thetas = np.linspace(-math.pi, math.pi, 200001)
    # sum_i y_i . Rz(theta) x_i, the correlation the yaw maximises.
    score = np.cos(thetas) * np.sum(yc[:, 0] * xc[:, 0] + yc[:, 1] * xc[:, 1]) + np.sin(
        thetas
    ) * np.sum(yc[:, 1] * xc[:, 0] - yc[:, 0] * xc[:, 1])
    best = thetas[np.argmax(score)]
    got = math.atan2(how.rotation[1, 0], how.rotation[0, 0])
    assert abs(got - best) < 1e-4
    # rpg: C = data^T model (centred), theta = pi/2 - atan2(C00 + C11, C01 - C10).
    c = xc.T @ yc
    rpg = math.pi / 2 - math.atan2(c[0, 0] + c[1, 1], c[0, 1] - c[1, 0])
    np.testing.assert_allclose(how.rotation, rot_z(rpg), atol=1e-12)
    np.testing.assert_allclose(
        how.translation_m, NOISY_REF.mean(0) - rot_z(rpg) @ NOISY_EST.mean(0)
    )


def test_posyaw_on_one_pose_uses_the_orientation_as_rpg_does() -> None:
    # Intrinsic Z-Y-X: R = Rz(yaw) Ry(pitch) Rx(roll), so the two differ by Rz(1.2) on the left.
    q_ref = Rotation.from_euler("ZYX", [0.3, 0.1, -0.2]).as_quat()
    q_est = Rotation.from_euler("ZYX", [-0.9, 0.1, -0.2]).as_quat()
    ref = traj([[1.0, 2.0, 3.0], [2.0, 2.0, 3.0]], quats=np.array([q_ref, q_ref]))
    est = traj([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0]], quats=np.array([q_est, q_est]))
    aligned, how = align(ref, est, settings=EvaluationSettings(align="posyaw", n_align=1))
    np.testing.assert_allclose(how.rotation, rot_z(1.2), atol=1e-12)
    np.testing.assert_allclose(aligned.positions_xyz[0], [1.0, 2.0, 3.0], atol=1e-12)
    assert how.n_fit == 1


# Origin, selections, identity ----------------------------------------------------------------


def test_origin_makes_the_first_poses_coincide() -> None:
    ref, est = traj(NOISY_REF), traj(NOISY_EST)
    aligned, how = align(ref, est, settings=EvaluationSettings(align="origin"))
    np.testing.assert_allclose(aligned.positions_xyz[0], ref.positions_xyz[0], atol=1e-12)
    np.testing.assert_allclose(
        matrix_from_quat_xyzw(aligned.orientations_quat_xyzw[0]),
        matrix_from_quat_xyzw(ref.orientations_quat_xyzw[0]),
        atol=1e-12,
    )
    assert (how.method, how.n_fit, how.scale) == ("origin", 1, 1.0)
    # The relative motion is untouched: T is applied to every pose on the left.
    d_est = np.linalg.norm(np.diff(est.positions_xyz, axis=0), axis=1)
    d_aligned = np.linalg.norm(np.diff(aligned.positions_xyz, axis=0), axis=1)
    np.testing.assert_allclose(d_aligned, d_est, rtol=1e-12)


def test_n_first_and_window_fit_on_the_selected_poses_and_move_all() -> None:
    ref, est = traj(NOISY_REF), traj(NOISY_EST)
    R, t, s = umeyama(NOISY_EST[:20], NOISY_REF[:20], with_scale=True)
    aligned, how = align(ref, est, settings=EvaluationSettings(align="sim3", n_align=20))
    np.testing.assert_allclose(how.rotation, R, atol=1e-15)
    assert how.n_fit == 20
    np.testing.assert_allclose(aligned.positions_xyz, s * NOISY_EST @ R.T + t, atol=1e-12)
    R_w, _, _ = umeyama(NOISY_EST[10:31], NOISY_REF[10:31], with_scale=False)
    _, how_w = align(
        ref, est, settings=EvaluationSettings(align="se3", align_window_s=(10.0, 30.0))
    )  # stamps are 0, 1, 2, ...
    np.testing.assert_allclose(how_w.rotation, R_w, atol=1e-15)
    assert how_w.n_fit == 21
    assert align(ref, est, settings=EvaluationSettings(align="se3", n_align=1000))[1].n_fit == 60


def test_none_returns_the_estimate_and_the_identity() -> None:
    est = traj(NOISY_EST)
    aligned, how = align(traj(NOISY_REF), est, settings=EvaluationSettings(align="none"))
    assert aligned == est
    np.testing.assert_array_equal(how.matrix(), np.eye(4))
    assert how.n_fit == 0


def test_inputs_are_never_modified() -> None:
    ref, est = traj(NOISY_REF), traj(NOISY_EST)
    before = ref.to_dict(), est.to_dict()
    for method in ("none", "se3", "sim3", "scale", "posyaw", "origin"):
        align(ref, est, settings=EvaluationSettings(align=method))
    assert (ref.to_dict(), est.to_dict()) == before


# Degenerate fits and bad arguments -----------------------------------------------------------


LINE = np.outer(np.arange(10.0), [1.0, 2.0, 0.5]) + np.array([100.0, 0.0, 0.0])
STATIC = np.tile([1.0, 2.0, 3.0], (10, 1))
VERTICAL = np.outer(np.arange(10.0), [0.0, 0.0, 1.0]) + np.array([4.0, 5.0, 0.0])


@pytest.mark.parametrize("method", ["se3", "sim3"])
def test_collinear_positions_raise_with_the_reason_and_alternatives(method: AlignMethod) -> None:
    with pytest.raises(
        AlignmentError,
        match=r"positions are collinear.*rotation about the line is undetermined.*`align='origin'`",
    ):
        align(traj(LINE * 2.0), traj(LINE), settings=EvaluationSettings(align=method))


@pytest.mark.parametrize("method", ["se3", "sim3", "scale", "posyaw"])
def test_static_positions_raise(method: AlignMethod) -> None:
    with pytest.raises(
        AlignmentError, match=r"(same point|do not move horizontally).*`align='origin'`"
    ):
        align(traj(NOISY_REF[:10]), traj(STATIC), settings=EvaluationSettings(align=method))
    with pytest.raises(AlignmentError, match=r"(same point|do not move horizontally)"):
        align(traj(STATIC), traj(NOISY_REF[:10]), settings=EvaluationSettings(align=method))


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 50),
    offset=st.floats(-1e6, 1e6),
    ratio=st.sampled_from([0.0, 1e-16, 1e-15, 1e-14, 1.4e-14, 2e-14, 1e-13, 1e-3, 1.0]),
)
def test_the_static_shortcut_by_the_mean_answers_as_the_min_and_max_do(
    seed: int, n: int, offset: float, ratio: float
) -> None:
    """``_static`` given the mean says what it says from the points' min and max.

    Point clouds whose spread is drawn around the tolerance (64 ulps of the coordinates),
    far from the origin or around it.
    """
    rng = np.random.default_rng(seed)
    points = offset + rng.normal(0.0, 1.0, (n, 3)) * ratio * max(abs(offset), 1.0)
    mean = points.mean(axis=0)
    sum_squares = float(np.sum((points - mean) ** 2))
    by_mean = alignment_module._static(sum_squares, n, points, mean)
    assert by_mean == alignment_module._static(sum_squares, n, points)


def test_scale_is_fitted_on_a_line_where_only_the_rotation_is_undetermined() -> None:
    _, how = align(traj(LINE * 3.0), traj(LINE), settings=EvaluationSettings(align="scale"))
    assert how.scale == pytest.approx(3.0, rel=1e-12)


def test_posyaw_on_a_vertical_line_raises() -> None:
    with pytest.raises(
        AlignmentError, match=r"posyaw.*do not move horizontally.*yaw is undetermined"
    ):
        align(traj(VERTICAL + 1.0), traj(VERTICAL), settings=EvaluationSettings(align="posyaw"))


def test_posyaw_on_a_horizontal_line_works() -> None:
    line = np.outer(np.arange(10.0), [1.0, 0.0, 0.0])
    _, how = align(
        traj(line @ rot_z(0.5).T), traj(line), settings=EvaluationSettings(align="posyaw")
    )
    np.testing.assert_allclose(how.rotation, rot_z(0.5), atol=1e-12)


def test_a_window_without_estimate_stamps_raises_naming_the_window_and_its_flag() -> None:
    settings = EvaluationSettings(align="se3", align_window_s=(100.0, 200.0))
    with pytest.raises(
        AlignmentError,
        match=r"window 100\.000000 \.\. 200\.000000 s \(`align_window_s=`\) holds none",
    ):
        align(traj(NOISY_REF), traj(NOISY_EST), settings=settings)


def test_unequal_lengths_raise() -> None:
    with pytest.raises(ValidationError, match=r"equal length, got 60 estimate and 59 reference"):
        align(traj(NOISY_REF[:59]), traj(NOISY_EST), settings=EvaluationSettings(align="se3"))


def test_umeyama_checks_its_arrays() -> None:
    with pytest.raises(ValidationError, match=r"source_xyz` of shape \(N, 3\)"):
        umeyama(np.zeros((4, 2)), np.zeros((4, 2)), with_scale=False)
    with pytest.raises(ValidationError, match=r"target_xyz of shape \(4, 3\)"):
        umeyama(NOISY_EST[:4], NOISY_REF[:5], with_scale=False)
    with pytest.raises(ValidationError, match=r"finite `target_xyz`.*row 1"):
        umeyama(NOISY_EST[:3], np.array([[0.0, 0, 0], [np.nan, 0, 0], [1, 1, 1]]), with_scale=False)
    # Text and ragged lists let NumPy's ValueError out (found by a hunt).
    with pytest.raises(
        ValidationError, match=r"`target_xyz` as numbers of shape \(N, 3\), got str"
    ):
        umeyama(NOISY_EST[:3], "x", with_scale=False)  # type: ignore[arg-type]
    with pytest.raises(
        ValidationError, match=r"`source_xyz` as numbers of shape \(N, 3\), got list"
    ):
        umeyama([[0.0, 0, 0], [1, 1]], NOISY_REF[:2], with_scale=False)  # type: ignore[arg-type]
    # An array raised NumPy's "truth value of an array ... is ambiguous".
    with pytest.raises(ValidationError, match=r"`with_scale` as True or False, got array"):
        umeyama(NOISY_EST[:4], NOISY_REF[:4], with_scale=np.zeros(2))  # type: ignore[arg-type]


def test_umeyama_on_coordinates_whose_squares_overflow_raises_an_alignment_error() -> None:
    # Finite coordinates of 1e200 m: the sums overflowed and the SVD raised NumPy's
    # LinAlgError ("SVD did not converge"); the closed-form residuals are NaN (not trusted).
    x = NOISY_EST[:5] * 1e200
    with pytest.raises(AlignmentError, match=r"squared spread overflows float64"):
        umeyama(x, x, with_scale=True)
    assert all(math.isnan(v) for v in fit_rmse(x, x))
    assert all(math.isnan(v) for v in mirrored_fit(x, x))


def test_one_side_whose_squares_overflow_is_not_taken_for_a_side_without_spread() -> None:
    """The sum of squares of points at 1e200 m overflowed (inf - inf: NaN) and the clip at 0
    took it for 0: mirrored_fit of points at 1 m against them said a perfect fit (0, 0),
    or NumPy's 'overflow encountered in scalar multiply' (a review). No residual is trusted."""
    x, y = NOISY_EST[:8], NOISY_REF[:8] * 1e200
    assert all(math.isnan(v) for v in mirrored_fit(x, y))
    assert all(math.isnan(v) for v in fit_rmse(x, y))
    with pytest.raises(AlignmentError, match=r"squared spread overflows float64 \(largest"):
        umeyama(x, y, with_scale=True)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(3, 8),
    st.integers(-300, 300),
    st.integers(-300, 300),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
@example(7, -156, 153, 54, False)  # the fit's scale passed 1e308 (CI, Hypothesis)
@example(3, -156, 153, 0, False)
def test_fits_of_points_at_any_finite_magnitude_raise_only_our_errors(
    n: int, x_exponent: int, y_exponent: int, seed: int, with_scale: bool
) -> None:
    """Points of 1e-300 m to 1e300 m, on either side: a fit, NaN residuals or our error,
    never NumPy's LinAlgError or a RuntimeWarning (errors here)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)) * 10.0**x_exponent
    y = rng.normal(size=(n, 3)) * 10.0**y_exponent
    proper, mirrored = mirrored_fit(x, y)
    assert math.isnan(proper) or mirrored <= proper
    sim3 = fit_rmse(x, y)[1]
    assert math.isnan(sim3) or sim3 == proper  # one Sim(3) residual, by both roads
    with contextlib.suppress(AlignmentError):
        umeyama(x, y, with_scale=with_scale)


# The Alignment message -----------------------------------------------------------------------


def test_alignment_apply_and_matrix_agree() -> None:
    R = Rotation.from_rotvec([0.1, -0.4, 0.9]).as_matrix()
    a = Alignment(
        method="sim3", rotation=R, translation_m=np.array([1.0, 2.0, 3.0]), scale=0.5, n_fit=3
    )
    est = traj(NOISY_EST)
    moved = a.apply(est)
    homogeneous = np.c_[NOISY_EST, np.ones(60)] @ a.matrix().T
    np.testing.assert_allclose(moved.positions_xyz, homogeneous[:, :3], atol=1e-12)
    want_r = R @ matrix_from_quat_xyzw(est.orientations_quat_xyzw)
    np.testing.assert_allclose(
        matrix_from_quat_xyzw(moved.orientations_quat_xyzw), want_r, atol=1e-12
    )
    assert Alignment.from_dict(a.to_dict()) == a


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"method": "affine"}, r"Expected one of .*method"),
        ({"rotation": np.diag([1.0, 1.0, -1.0])}, r"rotation matrix \(orthonormal, det \+1\)"),
        ({"rotation": np.eye(3) * 1.1}, r"rotation matrix"),
        ({"scale": 0.0}, r"finite scale > 0"),
        ({"translation_m": [np.inf, 0.0, 0.0]}, r"finite values.*translation_m"),
        ({"n_fit": -1}, r"count >= 0"),
    ],
)
def test_alignment_message_validates(changes: dict[str, Any], match: str) -> None:
    base: dict[str, Any] = {"method": "se3", "rotation": np.eye(3), "translation_m": np.zeros(3)}
    with pytest.raises(ValidationError, match=match):
        Alignment(**{**base, **changes})


# Real data: evo's alignment (stored numbers, and evo itself when installed) ------------------


def _evo_pairs(evo_data: Path, case: dict[str, Any]) -> tuple[PoseTrajectory, PoseTrajectory]:
    """The pose pairs evo aligned: evo's associated rows (stored), or all rows for KITTI.

    Stamps are replaced by the pair index: two of the files repeat stamps, which evo keeps
    and a PoseTrajectory refuses, and stamps do not enter these fits.
    """
    ref_raw = load_evo_file(evo_data / case["reference"])
    est_raw = load_evo_file(evo_data / case["estimate"])
    if case["associated_with_max_diff"] is None:
        ref_rows = est_rows = np.arange(ref_raw[0].size)
    else:
        (assoc,) = [
            c
            for c in REFERENCE["association"]
            if (c["reference"], c["estimate"], c["offset"])
            == (case["reference"], case["estimate"], 0.0)
            and c["max_diff"] == case["associated_with_max_diff"]
        ]
        ref_rows, est_rows = np.array(assoc["reference_rows"]), np.array(assoc["estimate_rows"])
    stamps = np.arange(ref_rows.size, dtype=float)
    ref = PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=ref_raw[1][ref_rows],
        orientations_quat_xyzw=ref_raw[2][ref_rows],
    )
    est = PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=est_raw[1][est_rows],
        orientations_quat_xyzw=est_raw[2][est_rows],
    )
    return ref, est


def _assert_agrees_with_evo(ref: PoseTrajectory, est: PoseTrajectory, want: dict[str, Any]) -> None:
    n_first = None if want["n_to_align"] == -1 else want["n_to_align"]
    aligned, how = align(
        ref, est, settings=EvaluationSettings(align=want["method"], n_align=n_first)
    )
    assert len(aligned) == want["n_poses"]
    np.testing.assert_allclose(how.rotation, want["rotation"], rtol=0, atol=1e-9)
    t = np.asarray(want["translation"])
    np.testing.assert_allclose(how.translation_m, t, rtol=0, atol=1e-9 * max(1.0, np.abs(t).max()))
    assert how.scale == pytest.approx(want["scale"], rel=1e-9)
    size = max(1.0, np.abs(ref.positions_xyz).max())
    for row, key in ((0, "aligned_first_xyz"), (-1, "aligned_last_xyz")):
        np.testing.assert_allclose(aligned.positions_xyz[row], want[key], rtol=0, atol=1e-9 * size)
    w, x, y, z = want["aligned_last_quat_wxyz"]
    q = np.array([[x, y, z, w]]) / np.linalg.norm([x, y, z, w])
    diff = quat_xyzw_multiply(quat_xyzw_conjugate(q), aligned.orientations_quat_xyzw[-1:])
    assert angle_from_quat_xyzw(diff)[0] < 1e-8


def alignment_id(case: dict[str, Any]) -> str:
    return f"{case['estimate']}-{case['method']}-{case['n_to_align']}"


@pytest.mark.evo_data
@pytest.mark.parametrize("case", REFERENCE["alignment"], ids=alignment_id)
def test_alignment_matches_evo_on_real_data_stored(evo_data: Path, case: dict[str, Any]) -> None:
    ref, est = _evo_pairs(evo_data, case)
    _assert_agrees_with_evo(ref, est, case)


@pytest.mark.evo_data
@pytest.mark.parametrize("case", REFERENCE["alignment"], ids=alignment_id)
def test_alignment_matches_evo_on_real_data_live(
    evo_data: Path, case: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("evo")
    spec = importlib.util.spec_from_file_location(
        "make_ref", DATA / "make_evo_alignment_reference.py"
    )
    assert spec is not None
    assert spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setattr(script, "DATA", evo_data)
    fresh = script.alignment_case(
        case["reference"], case["estimate"], case["method"], case["n_to_align"]
    )
    ref, est = _evo_pairs(evo_data, case)
    _assert_agrees_with_evo(ref, est, fresh)


@pytest.mark.parametrize("method", ["se3", "sim3", "origin", "none"])
def test_the_sim3_scale_comes_with_an_se3_fit_and_is_the_sim3_fits_own(method: str) -> None:
    rng = np.random.default_rng(7)
    points = rng.normal(size=(50, 3))
    ref = PoseTrajectory(
        stamps_s=np.arange(50.0),
        positions_xyz=points,
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (50, 1)),
    )
    est = ref.replace(positions_xyz=0.4 * points + rng.normal(scale=0.01, size=(50, 3)))
    settings = EvaluationSettings(align=method)  # type: ignore[arg-type]
    fitted, scale = alignment_module.fit_alignment_and_scale(ref, est, settings=settings)
    assert fitted == alignment_module.fit_alignment(ref, est, settings=settings)
    if method in ("origin", "none"):
        assert math.isnan(scale)
        return
    sim3 = alignment_module.fit_alignment(ref, est, settings=EvaluationSettings(align="sim3"))
    assert scale == sim3.scale  # the same rotation, so the same tr(DS) / sigma_x^2
    assert 2.4 < scale < 2.6  # 1 / 0.4
    assert fitted.scale == (scale if method == "sim3" else 1.0)


# A Sim(3) residual trusted by the reference's spread alone, not by both (a CI find).
@example(
    np.array(
        [
            [-0.65179115, -0.17471729, 1.66372399],
            [0.65914775, -1.64139729, -0.00520326],
            [-0.62346374, 0.14863152, -1.60818778],
            [0.24177188, 0.23538092, 1.57562603],
            [0.31664502, 0.51054666, -1.49311668],
        ]
    ),
    np.eye(3),
    14.0,
    0.015625,
    2,
)
@settings(max_examples=150, deadline=None)
@given(
    spread_points(min_size=5),
    rotations(),
    st.floats(0.05, 20.0),
    st.floats(0.0, 1.0),
    st.integers(0, 2**32 - 1),
)
def test_fit_rmse_is_the_rmse_of_the_fitted_and_moved_positions(
    reference_xyz: Float64Array, R: Float64Array, s: float, noise: float, seed: int
) -> None:
    """The closed forms against the road they shortcut: fit, move every pose, measure."""
    rng = np.random.default_rng(seed)
    spread = float(np.abs(reference_xyz).max())
    estimate_xyz = s * reference_xyz @ R + rng.normal(
        scale=noise * spread, size=reference_xyz.shape
    )
    ref, est = traj(reference_xyz), traj(estimate_xyz)
    closed = alignment_module.fit_rmse(estimate_xyz, reference_xyz)
    methods: tuple[AlignMethod, AlignMethod] = ("se3", "sim3")
    for method, got in zip(methods, closed, strict=True):
        aligned, _ = align(ref, est, settings=EvaluationSettings(align=method))
        measured = math.sqrt(np.mean(np.sum((aligned.positions_xyz - reference_xyz) ** 2, axis=1)))
        if math.isnan(got):  # not trusted: the residual's square is tiny against the spreads
            squares = sum(
                float(np.sum((p - p.mean(axis=0)) ** 2)) for p in (estimate_xyz, reference_xyz)
            )
            limit = alignment_module.FIT_RMSE_TRUSTED * squares
            assert len(reference_xyz) * measured**2 <= 1.01 * limit + 1e-300
        else:
            assert got == pytest.approx(measured, rel=1e-6, abs=1e-12 * spread)
    assert math.isnan(closed[1]) or closed[1] <= closed[0] * (1 + 1e-9) or math.isnan(closed[0])


def test_fit_rmse_is_nan_where_rounding_decides_and_without_spread() -> None:
    x = np.random.default_rng(3).normal(size=(40, 3)) * 1e3
    assert all(math.isnan(v) for v in alignment_module.fit_rmse(x, x))  # perfect fit
    assert all(math.isnan(v) for v in alignment_module.fit_rmse(np.ones((5, 3)), np.ones((5, 3))))
    # A residual a thousandth of the spread is far above rounding: both are given.
    se3, sim3 = alignment_module.fit_rmse(x, x + 1.0 * np.eye(3)[np.arange(40) % 3])
    assert not math.isnan(se3)
    assert not math.isnan(sim3)


@pytest.mark.parametrize("method", ["se3", "sim3", "scale", "origin_scale"])
def test_a_fit_on_one_pose_says_so_rather_than_calling_the_positions_static(
    method: AlignMethod,
) -> None:
    """`--n-align 1` was refused as 'the estimate positions used for the fit are all the
    same point (1 poses, static)': one pose is no motion to be static, and the cure is
    more poses."""
    ref = traj(NOISY_REF[:10])
    est = traj(NOISY_REF[:10] * 2.0)
    with pytest.raises(AlignmentError, match=r"on 1 pose: .*several poses") as caught:
        align(ref, est, settings=EvaluationSettings(align=method, n_align=1))
    assert "static" not in str(caught.value)
    assert "1 poses" not in str(caught.value)


@pytest.mark.parametrize("method", ["origin", "origin_scale"])
def test_origin_alignment_of_quaternions_off_unit_within_the_tolerance(
    method: AlignMethod,
) -> None:
    """A PoseTrajectory holds quaternions whose norm is 1 within 1e-6; the origin fit made
    its rotation of them unnormalised (the matrix scaled by the norm squared, 1 + 1.8e-6)
    and failed "Expected a rotation matrix (orthonormal, det +1) ... at
    `Alignment.rotation`". Its rotation is that of the unit quaternions (SciPy's
    ``Rotation.from_quat`` normalises, as evo's ``quaternion_matrix`` does)."""
    rng = np.random.default_rng(7)
    q_ref = Rotation.random(10, random_state=1).as_quat()
    q_est = Rotation.random(10, random_state=2).as_quat() * (1.0 + 9e-7)
    ref = traj(NOISY_REF[:10], q_ref)
    est = traj(NOISY_REF[:10] + rng.normal(size=(10, 3)), q_est)
    _, fit = align(ref, est, settings=EvaluationSettings(align=method))
    expected = Rotation.from_quat(q_ref[0]).as_matrix() @ Rotation.from_quat(q_est[0]).as_matrix().T
    np.testing.assert_allclose(fit.rotation, expected, rtol=0, atol=1e-12)


UTM = np.array([500_000.0, 5_430_000.0, 100.0])


def _evo_fit(
    x: Float64Array, y: Float64Array, *, with_scale: bool
) -> tuple[Float64Array, Float64Array, float]:
    """evo's ``umeyama_alignment`` of rows ``x`` onto ``y``, where evo is installed."""
    geometry = pytest.importorskip("evo.core.geometry")
    r, t, s = geometry.umeyama_alignment(x.T, y.T, with_scale)
    return np.asarray(r), np.asarray(t), float(s)


def _assert_fit_is(got: tuple[Float64Array, Float64Array, float], want: tuple[Any, ...]) -> None:
    """Rotation, translation and scale agree to 1e-9 relative."""
    np.testing.assert_allclose(got[0], want[0], rtol=0, atol=1e-9)
    t = np.asarray(want[1])
    np.testing.assert_allclose(got[1], t, rtol=0, atol=1e-9 * np.abs(t).max())
    assert got[2] == pytest.approx(want[2], rel=1e-9)


def _spread_4_6_mm_at_utm() -> tuple[Float64Array, Float64Array, Float64Array]:
    """20 poses spread 4.6 mm RMS about a UTM point, moved by a known turn, 0.3 mm noise."""
    rng = np.random.default_rng(3)
    p = rng.normal(size=(20, 3))
    p -= p.mean(axis=0)
    p *= 0.0046 / math.sqrt(float(np.sum(p**2)) / 20)
    turn = Rotation.from_rotvec([0.02, -0.01, 0.03]).as_matrix()
    x = UTM + p
    return x, UTM + 0.3 + p @ turn.T + rng.normal(scale=0.0003, size=p.shape), turn


def test_points_spread_millimetres_at_utm_coordinates_are_fitted_as_evo_fits_them() -> None:
    """20 poses spread 4.6 mm at UTM coordinates (5.43e6 m) were 'the same point up to
    rounding (spread 0.0046 m RMS, under 1e-09 of their coordinates' 5.43e+06 m)': the
    tolerance was 1e-9 of the coordinates (5.4 mm), 4.5e6 times their rounding
    (``eps M`` = 1.2e-9 m). evo fits them with a 0.32 mm residual; so does umeyama."""
    x, y, turn = _spread_4_6_mm_at_utm()
    assert math.sqrt(float(np.sum((x - x.mean(0)) ** 2)) / 20) == pytest.approx(0.0046, rel=1e-6)
    R, t, s = umeyama(x, y, with_scale=False)
    # Least squares: no larger than the residual of the true transform, the noise itself.
    residual, noise = y - (x @ R.T + t), y - (x @ turn.T + 0.3)
    assert 0.0 < float(np.sum(residual**2)) <= float(np.sum(noise**2))
    # Kabsch by SciPy's own SVD code, on the centred points.
    want, _ = Rotation.align_vectors(y - y.mean(0), x - x.mean(0))
    np.testing.assert_allclose(R, want.as_matrix(), rtol=0, atol=1e-9)
    assert float(np.abs(R - turn).max()) < 0.2  # near the turn: 4.6 mm and 0.3 mm noise
    _assert_fit_is((R, t, s), _evo_fit(x, y, with_scale=False))


@pytest.mark.parametrize("n", [2, 3, 20, 1000, 100_000])
def test_one_point_up_to_rounding_at_utm_coordinates_is_refused(n: int) -> None:
    """One UTM point repeated, and that point rounded within 1.5 ulps of each coordinate,
    are one point up to rounding. The computed mean of 10^5 copies is off the point by
    rounding, up to 100 ulps of it, which every centred row carried into the spread
    (measured); the fit takes the mean's error out of the sums."""
    rng = np.random.default_rng(n)
    same = np.tile(UTM, (n, 1))
    jittered = UTM + rng.uniform(-1.5, 1.5, (n, 3)) * np.spacing(UTM)
    moved = UTM + rng.normal(size=(n, 3))
    for points in (same, jittered):
        with pytest.raises(AlignmentError, match=r"the same point.*static"):
            umeyama(points, moved, with_scale=False)
        with pytest.raises(AlignmentError, match=r"reference positions .*the same point"):
            umeyama(moved, points, with_scale=True)


def test_the_computed_means_rounding_is_not_taken_for_a_spread() -> None:
    """2e5 copies of one UTM point whose sums round: without the corrected two-pass moments
    the computed mean's error gave them a spread of 75 ulps of their coordinates (measured),
    over the 64 of the tolerance, and they were said to be collinear, not one point. (The
    round UTM point above sums exactly, and passes either way.)"""
    point = np.array([612_345.6789, 4_987_654.321, 250.25])
    same = np.tile(point, (200_000, 1))
    moved = point + np.random.default_rng(7).normal(size=same.shape)
    with pytest.raises(AlignmentError, match=r"estimate positions .*all the same point"):
        umeyama(same, moved, with_scale=False)
    with pytest.raises(AlignmentError, match=r"reference positions .*all the same point"):
        umeyama(moved, same, with_scale=True)


def test_points_apart_by_less_than_the_tolerance_are_said_with_their_spread() -> None:
    """Three UTM poses apart by an ulp or two were 'all the same point' (hev's finding):
    their spread is said, and why."""
    base = np.array([[500_000.0, 5_400_000.0, 100.0]])
    ulp = float(np.spacing(5_400_000.0))  # 2**-30 m = 9.3e-10 m
    x = base + np.array([[0.0, 0.0, 0.0], [ulp, 0.0, 0.0], [0.0, ulp, 0.0]])
    with pytest.raises(AlignmentError, match=r"up to rounding") as caught:
        umeyama(x, x + 1.0, with_scale=False)
    # About their mean (a/3, a/3): squared distances 2a²/9, 5a²/9, 5a²/9; RMS 2a/3.
    assert f"{2 * ulp / 3:.3g}" == "6.21e-10"
    # 64 ulps of 1: 64 · 2**-52 = 1.42e-14.
    assert (
        "are the same point up to rounding (spread 6.21e-10 m RMS, under 1.4e-14 of their "
        "coordinates' 5.4e+06 m) (3 poses, static)"
    ) in str(caught.value)


def _wiggly_kilometre(noise: float) -> tuple[Float64Array, Float64Array, Float64Array]:
    """1000 poses along 1 km of x with a 5 mm sine across it (period 126 m), moved by a
    known turn and translation, with ``noise`` m of noise on the reference."""
    rng = np.random.default_rng(0)
    a = np.linspace(0.0, 1000.0, 1000)
    x = np.stack([a, 0.005 * np.sin(a / 20.0), np.zeros_like(a)], axis=1)
    turn = Rotation.from_rotvec([0.002, 0.003, 0.004]).as_matrix()
    y = x @ turn.T + [10.0, 20.0, 3.0] + rng.normal(scale=noise, size=x.shape)
    return x, y, turn


@pytest.mark.parametrize("with_scale", [False, True])
def test_a_thin_but_real_spread_about_a_line_is_fitted_as_evo_fits_it(with_scale: bool) -> None:
    """A 1 km line with a 5 mm lateral wiggle and 1 mm noise: 'the positions are collinear
    (covariance rank 1 of 3, singular values 8.35e+04, 1.23e-05, 0)', as ``d₂ ≤ 1e-9 d₁``
    said (here 1.5e-10), though the wiggle determines the rotation about the line and evo
    fits it. The rule now refuses what rounding can make only."""
    x, y, turn = _wiggly_kilometre(0.0)
    R, t, s = umeyama(x, y, with_scale=with_scale)
    np.testing.assert_allclose(R, turn, rtol=0, atol=1e-9)  # exact data: the turn itself
    np.testing.assert_allclose(t, [10.0, 20.0, 3.0], rtol=0, atol=1e-9)
    assert s == pytest.approx(1.0, rel=1e-12)
    x, y, turn = _wiggly_kilometre(0.001)
    got = umeyama(x, y, with_scale=with_scale)
    want, _ = Rotation.align_vectors(y - y.mean(0), x - x.mean(0))
    np.testing.assert_allclose(got[0], want.as_matrix(), rtol=0, atol=1e-9)
    _assert_fit_is(got, _evo_fit(x, y, with_scale=with_scale))


@pytest.mark.parametrize("offset", [0.0, 1e3, 5e6])
@pytest.mark.parametrize("length", [1e-3, 1.0, 1e5])
@pytest.mark.parametrize("n", [3, 1000, 100_000])
def test_exactly_collinear_positions_are_refused_at_any_magnitude(
    offset: float, length: float, n: int
) -> None:
    """Points on one line, turned, scaled and moved, each coordinate rounded to float64:
    the rounding puts them off the line by up to half an ulp of the coordinates (2.3e-10
    m at 5e6 m), which a 1 mm line there turns into ``d₂ / d₁`` up to 803 ulps
    (measured); the collinear rule counts that rounding as well as the sums'."""
    rng = np.random.default_rng(n)
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    along = rng.uniform(0.0, length, n)[:, None]
    turn = Rotation.random(random_state=n).as_matrix()
    x = offset * np.array([0.3, -1.0, 0.1]) + along * u
    y = offset * np.array([-0.2, 0.9, 0.05]) + 1.7 * along * (turn @ u)
    for with_scale in (False, True):
        with pytest.raises(AlignmentError, match=r"positions are collinear"):
            umeyama(x, y, with_scale=with_scale)


def test_complex_positions_are_refused_not_cut_to_their_real_parts() -> None:
    """umeyama, fit_rmse and mirrored_fit of a complex (N, 3) array fitted its real parts
    in silence (NumPy's ComplexWarning, escaping as that class where warnings are errors);
    a list of complex numbers was refused."""
    x = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    z: Any = x + 1j * x  # what a caller without a type checker may pass
    with pytest.raises(ValidationError, match=r"Expected `source_xyz` as real numbers, got dtype"):
        umeyama(z, x, with_scale=False)
    with pytest.raises(ValidationError, match=r"Expected `target_xyz` as real numbers, got dtype"):
        fit_rmse(x, z)
    with pytest.raises(ValidationError, match=r"Expected `target_xyz` as real numbers, got dtype"):
        mirrored_fit(x, z)


@pytest.mark.parametrize(("offset", "length"), [(10.0, 1.0), (1e3, 10.0), (3e5, 10.0)])
def test_a_line_rounded_to_float32_is_collinear_up_to_float32s_rounding(
    offset: float, length: float
) -> None:
    """Float32 points were held to float64's rounding, 2**29 times finer than their own: a
    10 m line at 1 km, rounded to float32, was fitted, turned 1.1 deg about itself by the
    rounding alone (measured), where the same line in float64 is refused."""
    u = np.array([1.0, 2.0, 0.5]) / math.sqrt(5.25)
    x = (offset + np.linspace(0.0, length, 500)[:, None] * u).astype(np.float32)
    y = (x.astype(np.float64) @ Rotation.from_rotvec([0.0, 0.0, 0.3]).as_matrix().T).astype(
        np.float32
    )
    with pytest.raises(AlignmentError, match=r"positions are collinear"):
        umeyama(x, y, with_scale=False)  # type: ignore[arg-type]  # float32, as callers pass


def test_float32_points_spread_metres_at_utm_coordinates_are_fitted() -> None:
    """Float32's ulp at 5.43e6 m is 0.5 m: 200 poses spread 5 m there are still fitted,
    near the turn that moved them (a float32 coordinate is off by half an ulp at most)."""
    rng = np.random.default_rng(5)
    turn = Rotation.from_rotvec([0.0, 0.0, 0.3]).as_matrix()
    p = rng.normal(size=(200, 3)) * [5.0, 5.0, 1.5]
    x, y = (UTM + p).astype(np.float32), (UTM + p @ turn.T).astype(np.float32)
    R, _, _ = umeyama(x, y, with_scale=False)  # type: ignore[arg-type]
    assert float(np.abs(R - turn).max()) < 0.01


def test_umeyama_refuses_numeric_text_not_parsed() -> None:
    """NumPy parsed a '<U' array of numbers: umeyama fitted positions given as text."""
    text = np.array([["0", "0", "0"], ["1", "0", "0"], ["0", "1", "0"]])
    with pytest.raises(
        ValidationError, match=r"`source_xyz` as numbers of shape \(N, 3\), got ndarray"
    ):
        umeyama(text, NOISY_REF[:3], with_scale=False)


def test_umeyama_refuses_an_integer_past_float64_as_our_error() -> None:
    """A Python int past float64 (10**400) let NumPy's OverflowError out of check_points."""
    huge = [[10**400, 0, 0], [1, 0, 0], [0, 1, 0]]
    with pytest.raises(
        ValidationError, match=r"`source_xyz` as numbers of shape \(N, 3\), got list"
    ):
        umeyama(huge, NOISY_REF[:3], with_scale=False)  # type: ignore[arg-type]


def test_posyaw_of_a_mirrored_horizontal_motion_says_so_not_that_nothing_moves() -> None:
    """A square mirrored in y was refused as 'do not move horizontally (all equal, or only
    along z)', of poses 1 m apart. Hand: Σ x yᵀ = diag(2, -2) over the horizontal axes,
    so C01 - C10 = C00 + C11 = 0: every yaw leaves tr(R C) at 0."""
    square = np.array([[1.0, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]])
    with pytest.raises(
        AlignmentError, match=r"posyaw.*move horizontally.*mirror.*yaw is undetermined"
    ) as caught:
        align(traj(square * [1, -1, 1]), traj(square), settings=EvaluationSettings(align="posyaw"))
    assert "do not move" not in str(caught.value)
