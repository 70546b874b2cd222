"""KITTI rotation blocks used as given (``rotations="as_given"``): evo's arithmetic on them.

A hand calculation with 4x4 matrices, written here as evo's ``lie_algebra`` defines it
(``se3_inverse`` takes the transpose of the rotation block), on blocks visibly off SO(3);
the rows carried through the time range, association, alignment and transforms; and on
the raw KITTI 00 files, evo 1.38.1's own statistics (``tests/data/kitti_rows_as_given.json``,
made by ``tests/data/measure_kitti_rows_as_given.py``).
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.evaluation import EvaluationSettings, ape_errors, apply_transforms, rpe_errors
from robot_msgs.evaluation.pipeline import prepare
from robot_msgs.io import read_kitti, read_trajectory
from robot_msgs.rotations import matrix_from_quat_xyzw

REFERENCE = Path(__file__).parents[1] / "data" / "kitti_rows_as_given.json"


def _rotation_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _blocks(n: int, seed: int, *, off: float, turn: float = 0.0) -> np.ndarray:
    """``n`` poses (4x4): rotations about z times ``I + off·S`` (S symmetric), on a path
    turned by ``turn`` (rad) about z."""
    rng = np.random.default_rng(seed)
    poses = np.tile(np.eye(4), (n, 1, 1))
    for i in range(n):
        sym = rng.uniform(-1.0, 1.0, (3, 3))
        poses[i, :3, :3] = _rotation_z(0.3 * i + rng.uniform(0, 0.2)) @ (
            np.eye(3) + off * (sym + sym.T) / 2
        )
        poses[i, :3, 3] = _rotation_z(turn) @ [2.0 * i, math.sin(i), 0.1 * i * i]
    return poses


def _write(path: Path, poses: np.ndarray) -> Path:
    rows = poses[:, :3, :].reshape(len(poses), 12)
    path.write_text("".join(" ".join(repr(float(v)) for v in row) + "\n" for row in rows))
    return path


def _inverse(pose: np.ndarray) -> np.ndarray:
    """evo's ``se3_inverse``: the transpose of the rotation block, not its inverse."""
    out = np.eye(4)
    out[:3, :3] = pose[:3, :3].T
    out[:3, 3] = -pose[:3, :3].T @ pose[:3, 3]
    return out


def _scalars(error: np.ndarray) -> dict[str, float]:
    return {
        "translation": float(np.linalg.norm(error[:3, 3])),
        "x": float(error[0, 3]),
        "rot_part": float(np.linalg.norm(error[:3, :3] - np.eye(3))),
        "full": float(np.linalg.norm(error - np.eye(4))),
    }


def _read(path: Path, rotations: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # the blocks are off SO(3) on purpose
        return read_kitti(path, rotations=rotations)  # type: ignore[arg-type]


@pytest.fixture
def files(tmp_path: Path) -> tuple[np.ndarray, np.ndarray, Path, Path]:
    ref, est = _blocks(6, 1, off=2e-3), _blocks(6, 2, off=3e-3, turn=0.4)
    return ref, est, _write(tmp_path / "gt.txt", ref), _write(tmp_path / "est.txt", est)


@pytest.mark.parametrize("relation", ["translation", "x", "rot_part", "full"])
def test_rpe_with_the_rows_as_given_is_evos_matrix_arithmetic(
    files: tuple[np.ndarray, np.ndarray, Path, Path], relation: str
) -> None:
    ref, est, ref_path, est_path = files
    pairs = np.array([[0, 1], [1, 3], [2, 5], [4, 5]])
    expected = [
        _scalars(
            _inverse(_inverse(ref[i]) @ ref[j]) @ (_inverse(est[i]) @ est[j]),
        )[relation]
        for i, j in pairs
    ]
    got = rpe_errors(_read(ref_path, "as_given"), _read(est_path, "as_given"), pairs, relation)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    nearest = rpe_errors(_read(ref_path, "nearest"), _read(est_path, "nearest"), pairs, relation)
    assert np.abs(nearest - np.asarray(expected)).max() > 1e-5  # the rule is what differs


@pytest.mark.parametrize("relation", ["rot_part", "full"])
def test_ape_with_the_rows_as_given_is_evos_matrix_arithmetic(
    files: tuple[np.ndarray, np.ndarray, Path, Path], relation: str
) -> None:
    ref, est, ref_path, est_path = files
    expected = [_scalars(_inverse(p) @ q)[relation] for p, q in zip(est, ref, strict=True)]
    got = ape_errors(_read(ref_path, "as_given"), _read(est_path, "as_given"), relation)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    nearest = ape_errors(_read(ref_path, "nearest"), _read(est_path, "nearest"), relation)
    assert np.abs(nearest - np.asarray(expected)).max() > 1e-5


def test_a_translation_ape_is_the_distance_of_the_positions_either_way(
    files: tuple[np.ndarray, np.ndarray, Path, Path],
) -> None:
    ref, est, ref_path, est_path = files  # evo: positions only, for speed and by definition
    expected = np.linalg.norm(est[:, :3, 3] - ref[:, :3, 3], axis=1)
    for rule in ("nearest", "as_given"):
        got = ape_errors(_read(ref_path, rule), _read(est_path, rule), "translation")
        np.testing.assert_allclose(got, expected, rtol=1e-15)


def test_the_rows_follow_the_time_range_the_association_and_the_alignment(
    files: tuple[np.ndarray, np.ndarray, Path, Path],
) -> None:
    _, est, ref_path, est_path = files
    ref_traj, est_traj = _read(ref_path, "as_given"), _read(est_path, "as_given")
    settings = EvaluationSettings(align="se3", t_start_s=1.0, t_end_s=4.0)
    prepared = prepare(ref_traj, est_traj, settings)
    rows = prepared.association.estimate_index
    assert rows.tolist() == [1, 2, 3, 4]
    rotation = prepared.alignment.rotation
    assert abs(rotation[0, 1]) > 0.3  # the alignment turns the estimate back by ~0.4 rad
    assert prepared.estimate.rotation_matrices is not None
    np.testing.assert_allclose(
        prepared.estimate.rotation_matrices, rotation @ est[rows, :3, :3], rtol=0, atol=1e-15
    )
    assert prepared.reference.rotation_matrices is not None
    np.testing.assert_array_equal(
        prepared.reference.rotation_matrices, ref_traj.rotation_matrices[1:5]
    )


def test_transforms_multiply_the_rows_as_given(
    files: tuple[np.ndarray, np.ndarray, Path, Path],
) -> None:
    _, est, _, est_path = files
    left, right = np.eye(4), np.eye(4)
    left[:3, :3], left[:3, 3] = _rotation_z(0.5), [1.0, 2.0, 3.0]
    right[:3, :3], right[:3, 3] = _rotation_z(-0.2), [0.5, 0.0, 0.0]
    settings = EvaluationSettings(
        transform_left=tuple(left.ravel()), transform_right=tuple(right.ravel())
    )
    moved = apply_transforms(_read(est_path, "as_given"), settings)
    expected = left @ est @ right  # evo's T_l P T_r on the 4x4 poses as given
    assert moved.rotation_matrices is not None
    np.testing.assert_allclose(moved.rotation_matrices, expected[:, :3, :3], atol=1e-14)
    np.testing.assert_allclose(moved.positions_xyz, expected[:, :3, 3], atol=1e-13)


def test_the_reader_says_the_rows_are_used_as_given(tmp_path: Path) -> None:
    path = _write(tmp_path / "00.txt", _blocks(3, 0, off=1e-4))
    with pytest.warns(DataWarning, match=r"3 of 3 rotation blocks not orthonormal: used as given"):
        traj = read_trajectory(path, format="kitti", kitti_rotations="as_given")
    assert traj.rotation_matrices is not None
    with pytest.raises(ValidationError, match=r"Expected rotations in \('nearest', 'as_given'\)"):
        read_kitti(path, rotations="raw")  # type: ignore[arg-type]


def _reference_cases() -> list[dict[str, Any]]:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "case",
    _reference_cases(),
    ids=lambda c: f"{c['estimate']}-{c['command']}-{c['relation']}-{'-'.join(c['flags'])}",
)
def test_the_raw_kitti_00_files_give_evos_statistics_with_the_rows_as_given(
    evo_data: Path, case: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    from robot_msgs.cli import main

    gt, est = evo_data / "KITTI_00_gt.txt", evo_data / case["estimate"]
    flags = [*case["flags"], "--relation", case["relation"], "--json"]
    assert main([case["command"], str(gt), str(est), *flags, "--kitti-rotations", "as_given"]) == 0
    (signal,) = json.loads(capsys.readouterr().out)["signals"]
    stats, evo = signal["stats"], case["evo"]
    got = {"rmse": stats["rms"], **{k: stats[k] for k in ("mean", "median", "std", "min", "max")}}
    for name, value in evo.items():
        assert got[name] == pytest.approx(value, rel=1e-10, abs=1e-15), name


def test_rows_read_as_given_are_written_back_as_read(tmp_path: Path) -> None:
    from robot_msgs.io import write_kitti

    poses = _blocks(4, 3, off=1e-3)
    source = _write(tmp_path / "in.txt", poses)
    written, _ = write_kitti(tmp_path / "out.txt", _read(source, "as_given"))
    assert written.read_text() == source.read_text()


def _polar(block: np.ndarray) -> np.ndarray:
    """The rotation nearest ``block`` (Frobenius): ``U Vᵀ`` of its SVD."""
    u, _, vt = np.linalg.svd(block)
    return u @ vt  # type: ignore[no-any-return]


def test_origin_alignment_moves_the_estimate_by_the_first_rows_as_given(tmp_path: Path) -> None:
    # evo's --align_origin on the 4x4 rows as given: T = Q₀ · se3_inverse(P₀), then T · Pₖ.
    # Blocks off SO(3) by ~1e-7, as KITTI's 7 printed digits leave them.
    ref, est = _blocks(6, 4, off=2e-7), _blocks(6, 5, off=2e-7, turn=0.4)
    ref_path, est_path = _write(tmp_path / "gt.txt", ref), _write(tmp_path / "est.txt", est)
    moved = ref[0] @ _inverse(est[0]) @ est
    prepared = prepare(
        _read(ref_path, "as_given"), _read(est_path, "as_given"), EvaluationSettings(align="origin")
    )
    assert prepared.estimate.rotation_matrices is not None
    np.testing.assert_allclose(prepared.estimate.positions_xyz, moved[:, :3, 3], rtol=0, atol=1e-13)
    np.testing.assert_allclose(
        prepared.estimate.rotation_matrices, moved[:, :3, :3], rtol=0, atol=1e-15
    )
    full = [_scalars(_inverse(p) @ q)["full"] for p, q in zip(moved, ref, strict=True)]
    got = ape_errors(prepared.reference, prepared.estimate, "full")
    np.testing.assert_allclose(got, full, rtol=1e-12, atol=1e-15)
    pairs = np.array([[0, 2], [1, 4], [3, 5]])
    steps = [
        _scalars(_inverse(_inverse(ref[i]) @ ref[j]) @ (_inverse(moved[i]) @ moved[j]))
        for i, j in pairs
    ]
    got = rpe_errors(prepared.reference, prepared.estimate, pairs, "translation")
    np.testing.assert_allclose(got, [s["translation"] for s in steps], rtol=1e-12, atol=1e-15)
    # The orientations (the angles' source) are the nearest rotations of the moved blocks,
    # to the square of the blocks' ~6e-7 off SO(3) (a Shepperd quaternion of T's block,
    # not its nearest rotation's, is 1.1e-8 off).
    turned = matrix_from_quat_xyzw(prepared.estimate.orientations_quat_xyzw)
    nearest = np.stack([_polar(block) for block in moved[:, :3, :3]])
    np.testing.assert_allclose(turned, nearest, rtol=0, atol=1e-12)


def test_origin_alignment_of_rows_far_off_turns_by_their_nearest_rotations(
    files: tuple[np.ndarray, np.ndarray, Path, Path],
) -> None:
    ref, est, ref_path, est_path = files  # off by ~1e-3: Q₀ P₀ᵀ is no rotation to hold
    with pytest.warns(DataWarning, match=r"origin alignment: .* off a rotation by .* unlike evo"):
        prepared = prepare(
            _read(ref_path, "as_given"),
            _read(est_path, "as_given"),
            EvaluationSettings(align="origin"),
        )
    expected = _polar(ref[0, :3, :3]) @ _polar(est[0, :3, :3]).T
    np.testing.assert_allclose(prepared.alignment.rotation, expected, rtol=0, atol=1e-14)


def test_strict_reading_refuses_blocks_off_more_than_printed_digits_even_as_given(
    tmp_path: Path,
) -> None:
    from robot_msgs.errors import FormatError

    far = _write(tmp_path / "far.txt", _blocks(3, 0, off=2e-4))
    with pytest.raises(FormatError, match=r"used as given, as evo does .*refused, not fixed"):
        read_kitti(far, rotations="as_given", strict=True)
    near = _write(tmp_path / "near.txt", _blocks(3, 0, off=1e-7))  # 7 printed digits' rounding
    with pytest.warns(DataWarning, match="used as given"):
        assert read_kitti(near, rotations="as_given", strict=True).rotation_matrices is not None


def test_where_the_blocks_are_not_used_the_result_says_so(
    files: tuple[np.ndarray, np.ndarray, Path, Path],
) -> None:
    from robot_msgs.evaluation import PairSettings, Rpe, evaluate

    _, _, ref_path, est_path = files
    ref, est = _read(ref_path, "as_given"), _read(est_path, "as_given")
    est = est.replace(stamps_s=est.stamps_s + 0.5)  # between the reference's stamps
    interpolated = prepare(ref, est, EvaluationSettings(sync="interpolate", max_diff_s=1.0))
    assert any("interpolated: its poses use their nearest" in n for n in interpolated.notes)
    assert not any("kept as given" in n for n in prepare(ref, ref).notes)
    tum = Rpe(pairs=(PairSettings(delta=1.0, delta_unit="f", protocol="tum"),))
    (result,) = evaluate(ref, _read(est_path, "as_given"), metrics=[tum])
    assert any("not used by TUM's protocol" in n for n in result.comparison.notes)
