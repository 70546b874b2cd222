"""NEES: errors drawn from the stated covariances are consistent, scaled ones are not."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.compare.alignment import Alignment
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import EvaluationSettings, ape, apply_transforms, associate
from robot_msgs.evaluation.consistency import chi2_bounds, nees_summary, nees_values
from robot_msgs.io import read_trajectory
from robot_msgs.rotations import matrix_from_quat_xyzw, quat_xyzw_multiply
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import quats_from_rotvecs, random_walk

N = 10_000


def covariances(n: int, rng: np.random.Generator) -> np.ndarray:
    """Random symmetric positive definite 6x6 covariances: cm and degree scales, correlated."""
    a = rng.normal(size=(n, 6, 6)) * np.array([0.02, 0.02, 0.02, 0.01, 0.01, 0.01])[:, None]
    out: np.ndarray = np.einsum("nij,nkj->nik", a, a) + np.diag([1e-4] * 3 + [1e-5] * 3)
    return out


def perturbed(
    reference: PoseTrajectory, cov: np.ndarray, rng: np.random.Generator
) -> PoseTrajectory:
    """The reference with an error (δp, δθ) ~ N(0, Σ_i) at each pose: p + δp, Exp(δθ) R."""
    chol = np.linalg.cholesky(cov)
    e = np.einsum("nij,nj->ni", chol, rng.normal(size=(len(reference), 6)))
    quats = quat_xyzw_multiply(quats_from_rotvecs(e[:, 3:]), reference.orientations_quat_xyzw)
    return reference.replace(
        positions_xyz=reference.positions_xyz + e[:, :3],
        orientations_quat_xyzw=quats,
        covariance_6x6=cov,
    )


@pytest.fixture(scope="module")
def consistent() -> tuple[PoseTrajectory, PoseTrajectory]:
    rng = np.random.default_rng(12)
    reference = random_walk(N, seed=3)
    return reference, perturbed(reference, covariances(N, rng), rng)


def test_errors_drawn_from_the_covariance_give_the_degrees_of_freedom(
    consistent: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    reference, estimate = consistent
    for relation, dof in (("nees", 6), ("nees_position", 3), ("nees_orientation", 3)):
        result = ape(reference, estimate, relation=relation)
        mean = result.stats[relation].mean
        assert mean == pytest.approx(dof, rel=0.03), relation
        assert result.comparison.estimated is not None
        bounds = result.comparison.estimated.nees_mean_bounds
        assert bounds is not None
        low, high = bounds
        assert low < mean < high, relation
        assert result.comparison.estimated.nees_dof == dof
        assert "within the 95 % bounds" in result.notes[-1]
        # About 95 % of the poses inside the per-pose 95 % bounds.
        inside = result.counts["nees_inside_pose_bounds"] / N
        assert inside == pytest.approx(0.95, abs=0.01), relation


@pytest.mark.parametrize(
    ("factor", "verdict"), [(4.0, "too large (pessimistic)"), (0.25, "too small (overconfident)")]
)
def test_a_scaled_covariance_shows_as_inconsistent(
    consistent: tuple[PoseTrajectory, PoseTrajectory], factor: float, verdict: str
) -> None:
    reference, estimate = consistent
    assert estimate.covariance_6x6 is not None
    scaled = estimate.replace(covariance_6x6=estimate.covariance_6x6 * factor)
    result = ape(reference, scaled, relation="nees")
    assert result.stats["nees"].mean == pytest.approx(6.0 / factor, rel=0.03)
    assert f"inconsistent, the covariances are {verdict}" in result.notes[-1]


def test_a_hand_computed_case() -> None:
    # Position error (0.3, 0, 0.4) m against variances 0.09 and 0.04 m²; a 0.1 rad error
    # about z against 0.01 rad²: NEES = 1 + 4 + 1 = 6; position alone 5, rotation 1.
    ref = PoseTrajectory(
        stamps_s=np.zeros(1), positions_xyz=np.zeros((1, 3)),
        orientations_quat_xyzw=np.array([[0.0, 0.0, 0.0, 1.0]]),
    )  # fmt: skip
    cov = np.diag([0.09, 1.0, 0.04, 1.0, 1.0, 0.01])[None]
    est = ref.replace(
        positions_xyz=np.array([[0.3, 0.0, 0.4]]),
        orientations_quat_xyzw=quats_from_rotvecs(np.array([[0.0, 0.0, 0.1]])),
        covariance_6x6=cov,
    )
    assert nees_values(ref, est, "nees") == pytest.approx([6.0], rel=1e-12)
    assert nees_values(ref, est, "nees_position") == pytest.approx([5.0], rel=1e-12)
    assert nees_values(ref, est, "nees_orientation") == pytest.approx([1.0], rel=1e-12)


def _still_and_off_in_x(
    n: int, error_m: float, x_variance_m2: float
) -> tuple[PoseTrajectory, PoseTrajectory]:
    """A still reference of ``n`` poses; an estimate ``error_m`` off along x, claiming
    ``x_variance_m2`` there (0.01 m² on y and z, 1e-4 rad² on the angles)."""
    ref = PoseTrajectory(
        stamps_s=np.arange(float(n)),
        positions_xyz=np.zeros((n, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
    )
    cov = np.tile(np.diag([x_variance_m2, 0.01, 0.01, 1e-4, 1e-4, 1e-4]), (n, 1, 1))
    est = ref.replace(positions_xyz=np.tile([error_m, 0.0, 0.0], (n, 1)), covariance_6x6=cov)
    return ref, est


def test_an_infinite_nees_is_overconfident_never_consistent() -> None:
    """A filter claiming 1e-310 m² (a subnormal variance) with errors of 0.2 m has a NEES
    of 0.04 / 1e-310, past float64: the infinite values were left out of the mean, and
    the note said "mean NEES nan over 0 poses (6 dof): within the 95 % bounds ... of a
    consistent filter" (a review)."""
    note = ape(*_still_and_off_in_x(20, 0.2, 1e-310), relation="nees").notes[-1]
    assert note.startswith("mean NEES inf over 20 poses (6 dof): above the 95 % bounds")
    assert "too small (overconfident)" in note
    assert "0 poses (0.0 %) within the per-pose" in note
    _, counts, notes = nees_summary(np.array([np.nan, np.nan]), "nees", 0.95)
    assert counts == {"nees_inside_pose_bounds": 0}
    assert notes == ["no pose has a NEES (2 not a number): nothing to judge the filter by"]


def test_a_mean_nees_past_float64s_sums_is_said() -> None:
    """200 poses of NEES 1.3**2 / 1e-306 = 1.69e306 each (by hand) sum past float64:
    the mean raised numpy's 'overflow encountered in reduce' where warnings are errors,
    and was said as inf otherwise; the mean of the values is 1.69e306 (a review of
    6d4226c, whose infinite NEES are kept)."""
    note = ape(*_still_and_off_in_x(200, 1.3, 1e-306), relation="nees").notes[-1]
    assert note.startswith("mean NEES 1.69e+306 over 200 poses (6 dof): above the 95 % bounds")
    _, _, (said,) = nees_summary(np.array([1e308, 1e308, np.nan]), "nees", 0.95)
    assert said.startswith("mean NEES 1e+308 over 2 poses")


def test_the_bounds_are_scipys_chi_square_quantiles() -> None:
    # Tables: chi-square(6) 2.5 % and 97.5 % points 1.2373 and 14.449; for the mean of
    # 10 000 values the bounds are close to 6 ± 1.96 sqrt(12 / 10 000).
    assert chi2_bounds(6, 1, 0.95) == pytest.approx((1.2373, 14.449), abs=1e-3)
    low, high = chi2_bounds(6, 10_000, 0.95)
    half = 1.96 * np.sqrt(12.0 / 10_000)
    assert (low, high) == pytest.approx((6 - half, 6 + half), abs=2e-3)


def test_the_covariance_turns_with_the_alignment(
    consistent: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    reference, estimate = consistent
    turn = matrix_from_quat_xyzw(quats_from_rotvecs(np.array([[0.3, -1.0, 2.0]])))[0]
    frame = Alignment(method="se3", rotation=turn, translation_m=np.array([4.0, 5.0, -1.0]))
    moved_ref, moved_est = frame.apply(reference), frame.apply(estimate)
    # The same errors and covariances seen from another world frame: the same NEES.
    want = nees_values(reference, estimate)
    assert nees_values(moved_ref, moved_est) == pytest.approx(want, rel=1e-9)


def test_the_covariance_follows_a_right_transform_to_first_order() -> None:
    rng = np.random.default_rng(5)
    base = random_walk(20, seed=8)
    lever = (1.0, 0.0, 0.0, 0.3, 0.0, 1.0, 0.0, -0.1, 0.0, 0.0, 1.0, 0.2, 0.0, 0.0, 0.0, 1.0)
    settings = EvaluationSettings(transform_right=lever)
    # Small perturbations (δp, δθ) of the poses move the transformed poses by J (δp, δθ);
    # J Σ Jᵀ is then the covariance of the transformed poses. Check J by differences.
    cov = np.tile(np.eye(6), (20, 1, 1))
    moved = apply_transforms(base.replace(covariance_6x6=cov), settings)
    assert moved.covariance_6x6 is not None
    jac_cov = moved.covariance_6x6  # J I Jᵀ = J Jᵀ
    delta = rng.normal(size=(20, 6)) * 1e-7
    nudged = base.replace(
        positions_xyz=base.positions_xyz + delta[:, :3],
        orientations_quat_xyzw=quat_xyzw_multiply(
            quats_from_rotvecs(delta[:, 3:]), base.orientations_quat_xyzw
        ),
    )
    moved_nudged = apply_transforms(nudged, settings)
    dp = moved_nudged.positions_xyz - apply_transforms(base, settings).positions_xyz
    # J = [[I, -[a]x], [0, I]] maps (δp, δθ) to (δp - a x δθ... ) = δp + δθ x a.
    lever_world = apply_transforms(base, settings).positions_xyz - base.positions_xyz
    expected = delta[:, :3] + np.cross(delta[:, 3:], lever_world)
    assert dp == pytest.approx(expected, abs=1e-12)
    jac = np.tile(np.eye(6), (20, 1, 1))
    jac[:, :3, 3] = np.cross(np.eye(3)[0], lever_world)
    jac[:, :3, 4] = np.cross(np.eye(3)[1], lever_world)
    jac[:, :3, 5] = np.cross(np.eye(3)[2], lever_world)
    assert jac_cov == pytest.approx(np.einsum("nij,nkj->nik", jac, jac), abs=1e-12)


def test_no_or_a_singular_covariance_is_refused() -> None:
    ref = random_walk(5, seed=1)
    with pytest.raises(ValidationError, match=r"an estimate with pose covariances for NEES"):
        ape(ref, ref, relation="nees")
    singular = np.tile(np.eye(6), (5, 1, 1))
    singular[3, 2, 2] = 0.0
    with pytest.raises(ValidationError, match=r"a singular one at matched pose 3"):
        ape(ref, ref.replace(covariance_6x6=singular), relation="nees")


def test_a_covariance_with_a_negative_eigenvalue_is_refused_naming_the_pose() -> None:
    """Symmetric with a non-negative diagonal, but not positive semi-definite: the x, y
    block [[1, 2], [2, 1]] has eigenvalues 3 and -1. Its NEES was computed, negative for
    some errors (a cnspy PosOrientWithCov file with pxy twice pxx gave min -3.4 and the
    verdict 'too large (pessimistic)'); no covariance has a negative variance along any
    direction."""
    ref = random_walk(5, seed=1)
    cov = np.tile(np.eye(6), (5, 1, 1))
    cov[2, :2, :2] = [[1.0, 2.0], [2.0, 1.0]]
    est = ref.replace(covariance_6x6=cov)
    for relation in ("nees", "nees_position", "nees_planar"):
        with pytest.raises(
            ValidationError,
            match=rf"Expected positive semi-definite covariances for {relation}, got one with "
            r"a negative eigenvalue \(-1\) at matched pose 2",
        ):
            ape(ref, est, relation=relation)
    assert ape(ref, est, relation="nees_orientation").stats["nees_orientation"].n == 5


def test_a_planar_covariance_refused_for_nees_names_nees_planar() -> None:
    """AMCL's covariance (nav2_turtlebot.mcap's /amcl_pose, message 11, read as it is): x,
    y and yaw set, z, roll and pitch zero. cnspy's NEES reads such a pose as 0 (its
    LinAlgError caught); here the 6-dof and position NEES were refused without naming the
    relation that this estimator's covariance serves."""
    ref = random_walk(5, seed=1)
    amcl = np.zeros((6, 6))
    amcl[:2, :2] = [[0.112227, -0.004502], [-0.004502, 0.075614]]
    amcl[5, 5] = 0.072968
    est = ref.replace(covariance_6x6=np.tile(amcl, (5, 1, 1)))
    for relation in ("nees", "nees_position"):
        with pytest.raises(ValidationError, match=r"pose 0 .*: relation nees_planar$"):
            ape(ref, est, relation=relation)
    assert ape(ref, est, relation="nees_planar").stats["nees_planar"].n == 5
    flat = np.tile(amcl, (5, 1, 1))
    flat[2, 5, 5] = 0.0  # no yaw variance on one pose: no planar NEES to suggest either
    with pytest.raises(ValidationError, match=r"\(smallest eigenvalue 0\)$"):
        ape(ref, est.replace(covariance_6x6=flat), relation="nees")


def test_a_bad_covariance_is_refused_naming_the_pose() -> None:
    ref = random_walk(3, seed=1)
    cov = np.tile(np.eye(6), (3, 1, 1))
    cov[1, 0, 1] = 0.5  # not symmetric
    with pytest.raises(ValidationError, match=r"at `PoseTrajectory\.covariance_6x6\[1\]`"):
        ref.replace(covariance_6x6=cov)
    cov[1] = np.inf  # inf - inf in the symmetry test: no RuntimeWarning before the refusal
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValidationError, match=r"at `PoseTrajectory\.covariance_6x6\[1\]`"):
            ref.replace(covariance_6x6=cov)


def test_planar_nees_by_hand_uses_x_y_and_yaw_only() -> None:
    """x, y, yaw errors (0.1, -0.2) m and 0.05 rad; the other rows unset (zero) and ignored.

    Σ_xy = [[0.04, 0.01], [0.01, 0.09]] (det 0.0035): e_xyᵀ Σ_xy⁻¹ e_xy =
    (0.09·0.01 - 2·0.01·(0.1·-0.2) + 0.04·0.04) / 0.0035 = 0.0029 / 0.0035 = 29/35;
    yaw: 0.05² / 0.0025 = 1; NEES = 64/35. The z error of 5 m and the roll of 0.3 rad,
    whose covariance rows are zero (not estimated), do not enter.
    """
    ref = PoseTrajectory(
        stamps_s=np.array([0.0]),
        positions_xyz=np.array([[1.0, 2.0, 0.0]]),
        orientations_quat_xyzw=np.array([[0, 0, 0, 1.0]]),
    )
    cov = np.zeros((6, 6))
    cov[:2, :2] = [[0.04, 0.01], [0.01, 0.09]]
    cov[5, 5] = 0.0025
    turn = quats_from_rotvecs(np.array([[0.3, 0.0, 0.0]]))  # roll first, about the body x
    yaw = quats_from_rotvecs(np.array([[0.0, 0.0, 0.05]]))
    est = ref.replace(
        positions_xyz=np.array([[1.1, 1.8, 5.0]]),
        orientations_quat_xyzw=quat_xyzw_multiply(yaw, turn),
        covariance_6x6=cov[None],
    )
    flat = est.replace(orientations_quat_xyzw=yaw)
    assert nees_values(ref, flat, "nees_planar")[0] == pytest.approx(64 / 35, rel=1e-12)
    with pytest.raises(ValidationError, match="singular"):
        nees_values(ref, est, "nees")  # the 6-dof NEES needs all six rows


def test_all_zero_covariances_are_named_as_such() -> None:
    ref = PoseTrajectory(
        stamps_s=np.array([0.0, 1.0]),
        positions_xyz=np.array([[0.0, 0, 0], [1, 0, 0]]),
        orientations_quat_xyzw=np.array([[0, 0, 0, 1.0]] * 2),
    )
    est = ref.replace(covariance_6x6=np.zeros((2, 6, 6)))
    with pytest.raises(ValidationError, match=r"got all-zero ones on every pose \(ROS's 'unknown'"):
        nees_values(ref, est, "nees_planar")


@pytest.mark.evo_data
def test_planar_nees_runs_on_the_nav2_bag(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: /amcl_pose's planar covariance was refused as singular, /odom's as none."""
    from robot_msgs.cli import main

    bag = str(evo_data / "nav2_turtlebot.mcap")
    argv = ["ape", bag, bag, "--relation", "nees_planar", "--align", "se3"]
    assert main([*argv, "--ref-topic", "/odom", "--est-topic", "/amcl_pose"]) == 0
    out = capsys.readouterr().out
    assert "nees_planar  -     83" in out
    said = " ".join(out.split())  # the notes wrap at 80 columns
    assert "over 83 poses (3 dof): above the 95 % bounds 2.496 .. 3.549: inconsistent" in said
    assert main([*argv, "--ref-topic", "/amcl_pose", "--est-topic", "/odom"]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: {bag} /odom: covariances all zero on every message (ROS's 'unknown'): read "
        "as none; NEES (--relation nees_planar) needs the estimate's pose covariances: "
        "choose a topic that sets them\n"
    )


def test_one_pose_is_said_in_the_singular() -> None:
    """The note said "over 1 poses" and "1 poses (100.0 %) within" for one NEES."""
    _, counts, notes = nees_summary(np.array([6.0]), "nees", 0.95)
    assert counts["nees_inside_pose_bounds"] == 1
    assert notes[0].startswith("mean NEES 6 over 1 pose (6 dof): within")
    assert "; 1 pose (100.0 %) within the per-pose 95 % bounds" in notes[0]


# cnspy_trajectory_evaluation (R. Jung) ------------------------------------------------------
# ``tests/data/cnspy_nees_reference.json`` holds cnspy 0.2.7's NEES of each matched pose of
# fr1_xyz's rgbdslam estimate written as its PoseWithCov CSV with the full-rank covariances
# of ``covariance_rows`` below (made by ``tests/data/make_cnspy_reference.py``).

_CNSPY_NEES = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "cnspy_nees_reference.json").read_text(
        encoding="utf-8"
    )
)


def covariance_rows(n: int) -> np.ndarray:
    """``(n, 6, 6)``: ``B Bᵀ + 1e-5 diag(1 ... 6)``, ``B[j, k] = 0.01 cos(0.1 i + 1.3 j + 0.7 k)``
    for row ``i``, as ``tests/data/make_cnspy_reference.py`` writes them for cnspy."""
    i = np.arange(n, dtype=float)[:, None, None]
    j = np.arange(6, dtype=float)[None, :, None]
    k = np.arange(6, dtype=float)[None, None, :]
    b = 0.01 * np.cos(0.1 * i + 1.3 * j + 0.7 * k)
    out: np.ndarray = b @ b.transpose(0, 2, 1) + np.diag(1e-5 * np.arange(1.0, 7.0))
    return out


@pytest.mark.evo_data
def test_nees_of_each_pose_equals_cnspys(evo_data: Path, tmp_path: Path) -> None:
    """cnspy's per-pose NEES (full-rank 6x6 covariances; evo-testdata has none) is ours.

    Its position error is ours (``p_est - p_gt``): ``nees_position`` is its ``NEES_p``
    as read. Its orientation error is local, ``Log(R_estᵀ R_gt)`` (its type5; its type6
    computes the same), ours about the world's axes, ``Log(R_est R_gtᵀ) = -R_gt`` times
    its: ``nees`` and ``nees_orientation`` are its ``NEES_T`` and ``NEES_R`` with the
    covariance's orientation rows and columns turned by ``-R_gt``. Its bounds are
    one-sided at ``1 - confidence``, ours two-sided at half that: its 95 % are our 90 %.
    """
    data = _CNSPY_NEES
    ref = read_trajectory(evo_data / data["reference"])
    rows = np.loadtxt(evo_data / data["estimate"])
    upper = np.triu_indices(6)
    cov = covariance_rows(len(rows))
    names = "t,tx,ty,tz,qx,qy,qz,qw,Txx,Txy,Txz,Txa,Txb,Txc,Tyy,Tyz,Tya,Tyb,Tyc,Tzz,Tza,Tzb,"
    names += "Tzc,Taa,Tab,Tac,Tbb,Tbc,Tcc"
    table = np.hstack((rows, cov[:, upper[0], upper[1]]))
    path = tmp_path / "est.csv"
    body = "\n".join(",".join(repr(float(v)) for v in row) for row in table)
    path.write_text(names + "\n" + body + "\n", encoding="utf-8")
    est = read_trajectory(path)
    pairs = associate(ref, est, EvaluationSettings(sync="nearest", max_diff_s=0.01))
    ref_m, est_m = pairs.reference, pairs.estimate
    np.testing.assert_array_equal(est_m.stamps_s, data["t_s"])
    assert est_m.covariance_6x6 is not None
    np.testing.assert_allclose(
        nees_values(ref_m, est_m, "nees_position"), data["NEES_p"], rtol=1e-9, atol=0
    )
    turn = np.zeros((len(ref_m), 6, 6))
    turn[:, :3, :3] = np.eye(3)
    turn[:, 3:, 3:] = -matrix_from_quat_xyzw(ref_m.orientations_quat_xyzw)
    turned = est_m.replace(covariance_6x6=turn @ est_m.covariance_6x6 @ turn.transpose(0, 2, 1))
    np.testing.assert_allclose(
        nees_values(ref_m, turned, "nees"), data["NEES_T"], rtol=1e-9, atol=0
    )
    np.testing.assert_allclose(
        nees_values(ref_m, turned, "nees_orientation"), data["NEES_R"], rtol=1e-9, atol=0
    )
    low, high = data["chi_square_confidence_bounds_0.95_6dof"]
    assert chi2_bounds(6, 1, 0.90) == pytest.approx((low, high), rel=1e-12)
