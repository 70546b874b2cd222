"""read_transform / write_transform: the 4x4 and pose layouts evo and ROS write, round trips."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, FormatError, OutputExistsError, ValidationError
from robot_msgs.evaluation import EvaluationSettings, ape
from robot_msgs.io import read_trajectory
from robot_msgs.io.transform_file import TRANSFORM_LAYOUTS, read_transform, write_transform
from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    matrix_from_rotation_vector,
    quat_xyzw_from_matrix,
)
from robot_msgs.trajectory import PoseTrajectory
from tests.terminal import Terminal

if TYPE_CHECKING:
    from pathlib import Path

needs_yaml = pytest.mark.skipif(
    importlib.util.find_spec("yaml") is None,
    reason="YAML transform files need the optional package pyyaml (the yaml extra)",
)
H = math.sqrt(0.5)
# A quarter turn about z and a translation (1, 2, 3): the matrix every layout below holds.
EXPECTED = (0.0, -1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 3.0, 0.0, 0.0, 0.0, 1.0)


def close(values: tuple[float, ...], expected: tuple[float, ...] = EXPECTED) -> bool:
    return bool(np.allclose(values, expected, atol=1e-15))


def test_a_text_matrix(tmp_path: Path) -> None:
    path = tmp_path / "T.txt"
    np.savetxt(path, np.array(EXPECTED).reshape(4, 4))
    assert close(read_transform(path))


def test_a_npy_matrix(tmp_path: Path) -> None:
    path = tmp_path / "T.npy"
    np.save(path, np.array(EXPECTED).reshape(4, 4))
    assert close(read_transform(path))


def test_evo_json_with_a_scale(tmp_path: Path) -> None:
    path = tmp_path / "T.json"
    keys = {"x": 1, "y": 2, "z": 3, "qx": 0, "qy": 0, "qz": H, "qw": H, "scale": 2.0}
    path.write_text(json.dumps(keys), encoding="utf-8")
    scaled = tuple(2.0 * v if i % 4 < 3 and i < 12 else v for i, v in enumerate(EXPECTED))
    assert close(read_transform(path), scaled)


@needs_yaml
def test_ros_pose_and_transform_yaml(tmp_path: Path) -> None:
    pose = tmp_path / "pose.yaml"
    pose.write_text(
        "position: {x: 1.0, y: 2.0, z: 3.0}\n"
        f"orientation: {{x: 0.0, y: 0.0, z: {H!r}, w: {H!r}}}\n",
        encoding="utf-8",
    )
    assert close(read_transform(pose))
    echo = tmp_path / "tf.yaml"  # what `ros2 topic echo` prints for a TransformStamped
    echo.write_text(
        "header:\n  frame_id: base_link\nchild_frame_id: camera\ntransform:\n"
        "  translation:\n    x: 1.0\n    y: 2.0\n    z: 3.0\n"
        f"  rotation:\n    x: 0.0\n    y: 0.0\n    z: {H!r}\n    w: {H!r}\n",
        encoding="utf-8",
    )
    assert close(read_transform(echo))


def test_a_json_matrix_key(tmp_path: Path) -> None:
    path = tmp_path / "T.json"
    path.write_text(json.dumps({"matrix": np.array(EXPECTED).reshape(4, 4).tolist()}))
    assert close(read_transform(path))


@pytest.mark.parametrize(
    ("name", "text", "match"),
    [
        ("a.json", '{"x": 1, "y": 2}', r"a\.json: expected keys x, y, z, qx, qy, qz, qw"),
        ("b.json", '{"x": 1, "y": 2, "z": 3, "qx": 0, "qy": 0, "qz": 0, "qw": 2}', r"norm 2"),
        ("c.json", '{"x": 1,', r"c\.json:1:9: expected JSON"),
        ("d.txt", "1 0 0\n0 1 0\n0 0 1\n", r"d\.txt, line 1: expected 4 columns \(T\[i,0\] "),
        pytest.param(
            "e.yaml",
            "position: {x: 1, y: 2}\norientation: {x: 0, y: 0, z: 0, w: 1}\n",
            r"keys x, y, z",
            marks=needs_yaml,
        ),
        (
            "f.json",
            '{"x": "one", "y": 2, "z": 3, "qx": 0, "qy": 0, "qz": 0, "qw": 1}',
            r"x: expected a number",
        ),
        # Two readings of one file: json and PyYAML kept the last key, the reader the
        # first layout it knew; the other was ignored without a word.
        (
            "g.json",
            '{"x": 1, "x": 500, "y": 0, "z": 0, "qx": 0, "qy": 0, "qz": 0, "qw": 1}',
            r"g\.json: key 'x' given twice in one object",
        ),
        pytest.param(
            "h.yaml",
            "x: 1\nx: 5\ny: 0\nz: 0\nqx: 0\nqy: 0\nqz: 0\nqw: 1\n",
            r"h\.yaml: line 2: key 'x' given twice in one mapping",
            marks=needs_yaml,
        ),
        (
            "i.json",
            (
                '{"matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], '
                '"x": 5, "y": 0, "z": 0, "qx": 0, "qy": 0, "qz": 0, "qw": 1}'
            ),
            r"i\.json: expected one transform, got x, y, z, qx, qy, qz, qw and matrix",
        ),
        (
            "j.json",
            (
                '{"pose": {"position": {"x": 1, "y": 2, "z": 3}, "orientation": {"x": 0, "y": 0, '
                '"z": 0, "w": 1}}, "transform": {"translation": {"x": 9, "y": 9, "z": 9}, '
                '"rotation": {"x": 0, "y": 0, "z": 0, "w": 1}}}'
            ),
            r"j\.json: expected one transform, got pose and transform",
        ),
        # A translation past where squared errors overflow: every error was inf and left
        # out of the statistics as missing (n 0, rms nan, exit 0).
        (
            "k.txt",
            "1 0 0 1e308\n0 1 0 0\n0 0 1 0\n0 0 0 1\n",
            r"k\.txt, line 1: expected a translation within \+-1e\+150 m, got \[1e\+308, 0\.0, 0\.0\]",
        ),
        # np.linalg.norm warned of an overflow out of the reader (an error under -W error).
        (
            "l.json",
            '{"x": 0, "y": 0, "z": 0, "qx": 1e200, "qy": 1e200, "qz": 0, "qw": 0}',
            r"l\.json: expected a unit quaternion, got norm 1\.41421e\+200",
        ),
        # A string cell: NumPy read it with Python's float, as 12.0 (Arabic-Indic 12).
        (
            "n.json",
            '{"matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, "\u0661\u0662"]]}',
            r"n\.json matrix\[3\]\[3\]: expected a number, got '١٢'",
        ),
        (
            "m.json",
            '{"x": 0, "y": 0, "z": 0, "qx": 1e-200, "qy": 0, "qz": 0, "qw": 0}',
            r"m\.json: expected a unit quaternion, got norm 1e-200",
        ),
    ],
)
def test_bad_files_name_the_file_and_what_was_expected(
    tmp_path: Path, name: str, text: str, match: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=match):
        read_transform(path, flag="--transform-left")
    with pytest.raises(FormatError, match=r"^--transform-left "):
        read_transform(path, flag="--transform-left")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"--transform-right .*nope\.txt: no such file"):
        read_transform(tmp_path / "nope.txt", flag="--transform-right")


# Writing ----------------------------------------------------------------------------------

_FINITE = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_subnormal=True)
_LAYOUTS: list[tuple[str, str | None]] = [
    ("T.txt", None),
    ("T.npy", None),
    ("T.json", "matrix"),
    ("T.json", "evo"),
    ("T.json", "pose"),
    ("T.json", "transform"),
    ("T.yaml", "evo"),
    ("T.yml", "matrix"),
    ("T.yaml", "pose"),
    ("T.yaml", "transform"),
]


@st.composite
def _transforms(draw: st.DrawFn, *, scaled: bool) -> np.ndarray:
    rotvec = np.array(draw(st.lists(st.floats(-3.1, 3.1), min_size=3, max_size=3)))
    out = np.eye(4)
    scale = draw(st.floats(1e-3, 1e3)) if scaled else 1.0
    out[:3, :3] = scale * matrix_from_rotation_vector(rotvec[None])[0]
    out[:3, 3] = draw(st.lists(_FINITE, min_size=3, max_size=3))
    return out


@settings(max_examples=60, deadline=None)
@given(matrix=_transforms(scaled=False), case=st.sampled_from(_LAYOUTS))
def test_every_layout_reads_back_what_was_written(
    tmp_path_factory: pytest.TempPathFactory,
    matrix: np.ndarray,
    case: tuple[str, str | None],
) -> None:
    name, layout = case
    if name.endswith((".yaml", ".yml")) and importlib.util.find_spec("yaml") is None:
        return
    path = write_transform(tmp_path_factory.mktemp("w") / name, matrix, layout=layout)  # type: ignore[arg-type]
    back = np.array(read_transform(path)).reshape(4, 4)
    if layout in (None, "matrix"):
        assert np.array_equal(back, matrix)  # bit for bit, -0.0 and subnormals included
    else:  # through a quaternion: to rounding
        np.testing.assert_allclose(back[:3, :3], matrix[:3, :3], atol=1e-14)
        assert np.array_equal(back[:3, 3], matrix[:3, 3])


@settings(max_examples=30, deadline=None)
@given(matrix=_transforms(scaled=True))
def test_a_sim3_round_trips_in_evo_keys_and_as_a_matrix(
    tmp_path_factory: pytest.TempPathFactory, matrix: np.ndarray
) -> None:
    folder = tmp_path_factory.mktemp("s")
    evo = np.array(read_transform(write_transform(folder / "T.json", matrix))).reshape(4, 4)
    np.testing.assert_allclose(evo, matrix, rtol=1e-12, atol=1e-12 * np.abs(matrix).max())
    text = np.array(read_transform(write_transform(folder / "T.txt", matrix))).reshape(4, 4)
    assert np.array_equal(text, matrix)


def test_the_16_numbers_of_a_setting_are_accepted(tmp_path: Path) -> None:
    path = write_transform(tmp_path / "T.json", EXPECTED, layout="transform")
    assert json.loads(path.read_text())["translation"] == {"x": 1.0, "y": 2.0, "z": 3.0}
    assert close(read_transform(path))


@pytest.mark.parametrize(
    ("matrix", "layout", "name", "match"),
    [
        (np.eye(3), None, "T.json", r"Expected a finite 4x4 transform"),
        (np.full((4, 4), np.nan), None, "T.json", r"Expected a finite 4x4"),
        ("abc", None, "T.json", r"Expected a 4x4 transform of numbers"),
        ([[1, 2], [3]], None, "T.json", r"Expected a 4x4 transform of numbers"),
        (np.diag([1.0, 2.0, 1.0, 1.0]), None, "T.json", r"SE\(3\) or Sim\(3\)"),
        (np.diag([1.0, 1.0, -1.0, 1.0]), None, "T.json", r"SE\(3\) or Sim\(3\)"),
        (np.diag([2.0, 2.0, 2.0, 2.0]), None, "T.json", r"SE\(3\) or Sim\(3\)"),
        # NumPy's Gram matrix and det warned (an error under -W error) before the refusal:
        # past 1e154 an overflow, a subnormal pivot (5e-324) a division by zero.
        (np.diag([1e200, 1e200, 1e200, 1.0]), None, "T.json", r"SE\(3\) or Sim\(3\)"),
        (
            [[0, 5e-324, 0, 0], [1, 0, 0, 0], [2, 0, 1e308, 0], [0, 0, 0, 1]],
            None,
            "T.json",
            r"SE\(3\) or Sim\(3\)",
        ),
        (np.diag([2.0, 2.0, 2.0, 1.0]), "pose", "T.json", r"a ROS pose has no scale"),
        (np.eye(4), "evo", "T.txt", r"holds the matrix; write the 'evo' layout"),
        (np.eye(4), "euler", "T.json", r"Expected a layout in"),
    ],
)
def test_what_is_not_a_transform_or_a_layout_is_refused(
    tmp_path: Path, matrix: object, layout: str | None, name: str, match: str
) -> None:
    with pytest.raises(ValidationError, match=match):
        write_transform(tmp_path / name, matrix, layout=layout)  # type: ignore[arg-type]
    assert not (tmp_path / name).exists()


def test_an_existing_file_is_kept_without_force(tmp_path: Path) -> None:
    path = tmp_path / "T.txt"
    path.write_text("keep\n")
    with pytest.raises(
        OutputExistsError, match=r"T\.txt exists; pass `force=True` to overwrite it$"
    ):
        write_transform(path, np.eye(4))
    assert path.read_text() == "keep\n"
    write_transform(path, np.eye(4), force=True)
    assert close(read_transform(path), tuple(np.eye(4).ravel()))


def test_the_layouts_are_the_ones_read() -> None:
    assert TRANSFORM_LAYOUTS == ("evo", "pose", "transform", "matrix")


def test_a_folder_is_named_as_one(tmp_path: Path) -> None:
    """`--transform-left <folder>` said "no such file"."""
    with pytest.raises(IsADirectoryError, match=r"--transform-left .*: is a directory, not a"):
        read_transform(tmp_path, flag="--transform-left")


# EuRoC MAV's mav0/cam0/sensor.yaml as the dataset ships it (Burri et al., IJRR 2016):
# T_BS is body_from_sensor, row-major, under OpenCV's rows/cols/data keys.
EUROC_CAM0_SENSOR_YAML = """\
# General sensor definitions.
sensor_type: camera
comment: VI-Sensor cam0 (MT9M034)

# Sensor extrinsics wrt. the body-frame.
T_BS:
  cols: 4
  rows: 4
  data: [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
         0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768,
        -0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949,
         0.0, 0.0, 0.0, 1.0]

# Camera specific definitions.
rate_hz: 20
resolution: [752, 480]
camera_model: pinhole
intrinsics: [458.654, 457.296, 367.215, 248.375] #fu, fv, cu, cv
distortion_model: radial-tangential
distortion_coefficients: [-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05]
"""
EUROC_CAM0_T_BS = (
    0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
    0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768,
    -0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949,
    0.0, 0.0, 0.0, 1.0,
)  # fmt: skip


@needs_yaml
def test_a_euroc_sensor_yaml_gives_its_t_bs(tmp_path: Path) -> None:
    """EuRoC's own calibration file was refused: "expected keys x, y, z, qx, ... got ['T_BS', ...]"."""
    path = tmp_path / "sensor.yaml"
    path.write_text(EUROC_CAM0_SENSOR_YAML, encoding="utf-8")
    assert read_transform(path) == EUROC_CAM0_T_BS  # the printed decimals, row by row


@needs_yaml
@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "T_BS:\n  cols: 4\n  rows: 4\n  data: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]\n",
            r"s\.yaml, line 1: T_BS: expected rows x cols = 16 numbers in data \(rows 4, cols 4\), got 12",
        ),
        (
            "T_BS:\n  cols: 3\n  rows: 3\n  data: [1, 0, 0, 0, 1, 0, 0, 0, 1]\n",
            r"s\.yaml, line 1: T_BS: expected a 4x4 matrix, got shape \(3, 3\)",
        ),
        ("T_BS: [1, 2]\n", r"s\.yaml, line 1: T_BS: expected a 4x4 matrix, got shape \(2,\)"),
        # 16 numbers said as 2 x 8 (or 0 rows): was "expected rows x cols = 16 ..., got 16"
        (
            "T_BS:\n  rows: 2\n  cols: 8\n  data: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]\n",
            r"s\.yaml, line 1: T_BS: expected a 4x4 matrix \(rows 4, cols 4\), got rows 2, cols 8$",
        ),
        (
            "T_BS:\n  rows: 0\n  cols: 4\n  data: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]\n",
            r"s\.yaml, line 1: T_BS: expected a 4x4 matrix \(rows 4, cols 4\), got rows 0, cols 4$",
        ),
        (
            "T_BS:\n  rows: 4\n  data: [1]\n",
            r"s\.yaml, line 1: T_BS: expected keys rows, cols \(integers\)",
        ),
        (
            "T_BS:\n  rows: 2\n  cols: 2\n  data: [a, b, c, d]\n",
            r"s\.yaml, line 1: T_BS\[0\]\[0\]: expected a number, got 'a'",
        ),
        (
            "T_BS: {rows: 1, cols: 1, data: [1]}\nmatrix: [[1]]\n",
            r"expected one transform, got matrix and T_BS",
        ),
    ],
)
def test_a_bad_t_bs_is_named(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=match):
        read_transform(path)


def _imu_and_camera(
    *, seed: int, imu_from_camera: np.ndarray
) -> tuple[PoseTrajectory, PoseTrajectory]:
    """50 random world-from-IMU poses (1 s apart) and the camera's, ``P @ imu_from_camera``."""
    rng = np.random.default_rng(seed)
    imu = np.tile(np.eye(4), (50, 1, 1))
    imu[:, :3, :3] = matrix_from_rotation_vector(rng.normal(size=(50, 3)))
    imu[:, :3, 3] = rng.normal(size=(50, 3))
    ref, est = (
        PoseTrajectory(
            stamps_s=np.arange(50.0),
            positions_xyz=poses[:, :3, 3],
            orientations_quat_xyzw=quat_xyzw_from_matrix(poses[:, :3, :3]),
        )
        for poses in (imu, imu @ imu_from_camera)
    )
    return ref, est


@needs_yaml
def test_a_camera_estimate_is_brought_to_the_imu_by_the_inverse_t_bs(tmp_path: Path) -> None:
    """World-from-camera poses ``P T_BS`` come back to ``P`` with ``--invert-transform-right``."""
    path = tmp_path / "sensor.yaml"
    path.write_text(EUROC_CAM0_SENSOR_YAML, encoding="utf-8")
    t_bs = np.array(EUROC_CAM0_T_BS).reshape(4, 4)
    # T_BS is body from camera: world-from-camera poses are world-from-body ones times it
    ref, est = _imu_and_camera(seed=3, imu_from_camera=t_bs)
    settings = EvaluationSettings(transform_right=read_transform(path), invert_transform_right=True)
    errors = ape(ref, est, settings=settings).stats["translation"]
    assert errors.max < 1e-12
    wrong = ape(ref, est, settings=settings.replace(invert_transform_right=False))
    assert wrong.stats["translation"].min > 0.05  # twice the 6.9 cm lever arm, turned


@needs_yaml
@settings(max_examples=40, deadline=None)
@given(matrix=_transforms(scaled=True), flow=st.booleans())
def test_a_t_bs_node_reads_back_bit_for_bit_row_major(
    tmp_path_factory: pytest.TempPathFactory, matrix: np.ndarray, flow: bool
) -> None:
    """Any Sim(3) written as EuRoC writes T_BS (shortest decimals) is the matrix read back."""
    numbers = ", ".join(map(repr, matrix.ravel().tolist()))
    block = "".join(f"    - {v!r}\n" for v in matrix.ravel().tolist())
    data = f"[{numbers}]" if flow else "\n" + block
    path = tmp_path_factory.mktemp("t") / "sensor.yaml"
    path.write_text(f"sensor_type: camera\nT_BS:\n  cols: 4\n  rows: 4\n  data: {data}\n")
    assert np.array_equal(np.array(read_transform(path)).reshape(4, 4), matrix)


# evo 1.38.1, tests/data/evo_reference.json case ape-euroc_v102-trans_part-se3:
# `evo_ape euroc V102_groundtruth.csv V102.dedup.txt -r trans_part -a`.
EVO_V102_SE3 = {
    "rmse": 0.09174733111977473,
    "min": 0.0026853017072863655,
    "max": 0.25615233960927125,
}


@needs_yaml
@pytest.mark.evo_data
def test_v102_in_the_camera_frame_meets_evo_with_euroc_sensor_yaml(
    evo_data: Path, tmp_path: Path
) -> None:
    """V102's IMU poses turned into cam0's (``P T_BS``) and back by sensor.yaml give evo's APE."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        ref = read_trajectory(evo_data / "V102_groundtruth.csv")
        imu = read_trajectory(evo_data / "V102.txt")
    poses = np.tile(np.eye(4), (len(imu), 1, 1))
    poses[:, :3, :3] = matrix_from_quat_xyzw(imu.orientations_quat_xyzw)
    poses[:, :3, 3] = imu.positions_xyz
    camera = poses @ np.array(EUROC_CAM0_T_BS).reshape(4, 4)
    est = imu.replace(
        positions_xyz=camera[:, :3, 3],
        orientations_quat_xyzw=quat_xyzw_from_matrix(camera[:, :3, :3]),
    )
    path = tmp_path / "sensor.yaml"
    path.write_text(EUROC_CAM0_SENSOR_YAML, encoding="utf-8")
    settings = EvaluationSettings(
        align="se3", transform_right=read_transform(path), invert_transform_right=True
    )
    stats = ape(ref, est, settings=settings).stats["translation"]
    assert stats.n == 794
    assert stats.rms == pytest.approx(EVO_V102_SE3["rmse"], rel=1e-9)
    assert stats.min == pytest.approx(EVO_V102_SE3["min"], rel=1e-9)
    assert stats.max == pytest.approx(EVO_V102_SE3["max"], rel=1e-9)


# A text matrix's numbers: the trajectory readers' rule --------------------------------


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        # Python's float() reads both; the TUM, KITTI and EuRoC readers refuse them.
        ("1_000", r"'1_000' is not a number$"),
        ("\u0661\u0662", r"'١٢' is not a number \(U\+0661 ARABIC-INDIC DIGIT ONE is not ASCII"),
        # A typo: it fell through to the YAML reader ("expected keys ..., got str").
        ("1.O", r"'1\.O' is not a number$"),
        ("nan", r"expected finite numbers, got nan$"),  # said np.float64(nan)
    ],
)
def test_a_bad_cell_is_named_by_file_line_and_value(tmp_path: Path, cell: str, said: str) -> None:
    path = tmp_path / "T_cam_imu.txt"
    path.write_text(
        f"# from the calibration\n1 0 0 0\n0 1 0 0\n0 0 {cell} 0\n0 0 0 1\n", encoding="utf-8"
    )
    where = rf"^--transform-left {path}, line 4, column 3 \(T\[i,2\]\): "
    with pytest.raises(FormatError, match=where + said):
        read_transform(path, flag="--transform-left")


# Cells a hand or a program writes into a transform file, with what each reads as
# (None: refused).
_GOOD_CELLS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),  # subnormals, -0.0, 1.8e308 among them
    st.sampled_from([0.0, -0.0, 1.0, 1e150, -1e150, 1.7976931348623157e308, 5e-324]),
).map(lambda v: (repr(v), v))
_BAD_CELLS = st.sampled_from(
    ["nan", "NaN", "-inf", "inf", "Infinity", "1e999", "-1e999", "1_000", "0.5_0",
     "\u0661\u0662", "\uff11", "\u0967.5", "", "1.O", "0x10", "1,5e", "--1", "1e", "."]
).map(lambda token: (token, None))  # fmt: skip


@st.composite
def _text_files(draw: st.DrawFn) -> tuple[str, np.ndarray | None, set[int]]:
    """A text transform file, the matrix it holds (None: refused) and its refusable lines."""
    cells = [draw(st.one_of(_GOOD_CELLS, _BAD_CELLS) if draw(st.booleans()) else _GOOD_CELLS)
             for _ in range(16)]  # fmt: skip
    separator = draw(st.sampled_from([" ", "  ", "\t", ", ", ","]))
    rows = draw(st.integers(0, 4))  # whole rows kept: fewer than 4 is a truncated file
    part = draw(st.integers(0, 3)) if rows < 4 else 0  # and the cells of the next one
    lines: list[str] = ["# T_base_camera"] if draw(st.booleans()) else []
    bad: set[int] = set()
    read = []  # the lines that are rows (a line of empty cells and blanks is none)
    for i in range(rows + (part > 0)):
        row = cells[4 * i : 4 * i + (4 if i < rows else part)]
        lines.append(separator.join(token for token, _ in row))
        if not lines[-1].strip():
            continue
        read.append(len(lines))
        far = i < 3 and len(row) == 4 and row[3][1] is not None and abs(row[3][1]) > 1e150
        if len(row) < 4 or far or any(value is None for _, value in row):
            bad.add(len(lines))
    if 0 < len(read) < 4:
        bad.add(read[-1])  # where the file ends too early
    text = "\n".join(lines) + ("\n" if draw(st.booleans()) else "")
    if bad or len(read) < 4:
        return text, None, bad
    return text, np.array([value for _, value in cells]).reshape(4, 4), bad


@settings(max_examples=300, deadline=None)
@given(case=_text_files())
def test_a_text_matrix_reads_exactly_or_one_error_names_file_and_line(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[str, np.ndarray | None, set[int]]
) -> None:
    text, expected, bad = case
    path = tmp_path_factory.mktemp("t") / "T.txt"
    path.write_text(text, encoding="utf-8")
    if expected is not None:
        got = np.array(read_transform(path)).reshape(4, 4)
        # Bit for bit: -0.0 stays -0.0, 5e-324 and 1.8e308 their own.
        assert got.view(np.int64).tolist() == expected.view(np.int64).tolist()
        return
    with pytest.raises(FormatError, match=f"^{re.escape(str(path))}") as caught:
        read_transform(path)
    said = str(caught.value)
    if not bad:  # no row at all: nothing to name but the file
        assert "no data rows" in said, said
        return
    line = re.match(rf"{re.escape(str(path))}, line (\d+)", said)
    assert line is not None, said
    assert int(line.group(1)) in bad, (said, bad)


@settings(max_examples=100, deadline=None)
@given(cells=st.lists(st.one_of(_GOOD_CELLS, _BAD_CELLS), min_size=16, max_size=16))
def test_a_json_matrix_reads_exactly_or_one_error_names_the_file(
    tmp_path_factory: pytest.TempPathFactory, cells: list[tuple[str, float | None]]
) -> None:
    path = tmp_path_factory.mktemp("t") / "T.json"
    rows = [", ".join(token for token, _ in cells[4 * i : 4 * i + 4]) for i in range(4)]
    path.write_text('{"matrix": [[' + "], [".join(rows) + "]]}", encoding="utf-8")
    values = [value for _, value in cells]
    far = any(v is not None and abs(v) > 1e150 for v in values[3:12:4])
    if None in values or far:
        with pytest.raises(FormatError, match=re.escape(str(path))):
            read_transform(path)
        return
    got = np.array(read_transform(path)).reshape(4, 4)
    assert got.view(np.int64).tolist() == np.array(values).reshape(4, 4).view(np.int64).tolist()


@needs_yaml
@pytest.mark.parametrize("parser", ["libyaml", "python"])
@pytest.mark.parametrize(
    ("value", "read"),
    [
        # YAML 1.1 reads these as numbers (1000, 16, 90, 1000.5, inf); the trajectory
        # readers refuse each. 1:30 is sexagesimal: 90.
        ("1_000", "1000"),
        ("0x10", "16"),
        ("1:30", "90"),
        ("1_000.5", "1000.5"),
        (".inf", "inf"),
        # Numbers as a TUM file writes them, which YAML 1.1 left strings (refused).
        ("1e-08", 1e-08),
        ("-2E3", -2000.0),
        ("2.5", 2.5),
        ("010", 10.0),  # YAML 1.1: octal, 8
    ],
)
def test_a_yaml_number_follows_the_trajectory_readers_rule(
    tmp_path: Path, parser: str, value: str, read: str | float
) -> None:
    path = tmp_path / "T.yaml"
    # A tab (in a comment) makes parse_yaml use PyYAML's Python parser, not libyaml.
    note = "# T_cam_imu\t\n" if parser == "python" else "# T_cam_imu\n"
    path.write_text(f"{note}qx: 0\nqy: 0\nx: {value}\ny: 0\nz: 0\nqz: 0\nqw: 1\n")
    if isinstance(read, float):
        assert read_transform(path)[3] == read
        return
    said = (
        rf"^{re.escape(str(path))}: line 4: {re.escape(repr(value))} is not a number as the "
        rf"trajectory files write them \(YAML 1\.1 reads it as {read}\); write decimal digits"
    )
    with pytest.raises(FormatError, match=said):
        read_transform(path)


@needs_yaml
@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_a_yaml_saved_with_windows_or_old_mac_line_ends_is_read_as_yaml(
    tmp_path: Path, end: str
) -> None:
    """Every key of this file ends its line (``matrix:`` CR LF, then a block list): the
    text-matrix test for a YAML key took only a blank or LF after the colon, so the file
    went to the table reader ("line 1: expected 4 columns ..., got 1"); it read before."""
    path = tmp_path / "T.yaml"
    rows = np.array(EXPECTED).reshape(4, 4).tolist()
    text = "matrix:" + end + "".join(f"  - {row}{end}" for row in rows)
    path.write_bytes(text.encode())
    assert read_transform(path) == EXPECTED


@needs_yaml
@settings(max_examples=100, deadline=None)
@given(cells=st.lists(st.one_of(_GOOD_CELLS, _BAD_CELLS), min_size=16, max_size=16))
def test_a_yaml_matrix_reads_exactly_or_one_error_names_the_file(
    tmp_path_factory: pytest.TempPathFactory, cells: list[tuple[str, float | None]]
) -> None:
    path = tmp_path_factory.mktemp("t") / "T.yaml"
    rows = [", ".join(token for token, _ in cells[4 * i : 4 * i + 4]) for i in range(4)]
    path.write_text("matrix:\n" + "".join(f"  - [{row}]\n" for row in rows), encoding="utf-8")
    values = [value for _, value in cells]
    far = any(v is not None and abs(v) > 1e150 for v in values[3:12:4])
    if None in values or far:
        with pytest.raises(FormatError, match=re.escape(str(path))):
            read_transform(path)
        return
    got = np.array(read_transform(path)).reshape(4, 4)
    assert got.view(np.int64).tolist() == np.array(values).reshape(4, 4).view(np.int64).tolist()


# EuRoC V1 rooms' mav0/vicon0/sensor.yaml as shipped: T_BS printed to 5 decimals, R R^T
# 7.36e-6 off I (numpy on the printed numbers), beyond the settings' 1e-6.
EUROC_VICON0_SENSOR_YAML = """\
sensor_type: visual-inertial
comment: Vicon pose measurements

# Sensor extrinsics wrt. the body-frame.
T_BS:
  cols: 4
  rows: 4
  data: [ 0.33638, -0.01749,  0.94156,  0.06901,
         -0.02078, -0.99972, -0.01114, -0.02781,
          0.94150, -0.01582, -0.33665, -0.12395,
              0.0,      0.0,      0.0,      1.0]
"""


@needs_yaml
def test_euroc_vicon0_t_bs_printed_to_5_decimals_is_read_as_its_nearest_rotation(
    tmp_path: Path,
) -> None:
    """EuRoC's own vicon0/sensor.yaml was refused ("R^T R is 7.4e-06 s^2 from s^2 I")."""
    path = tmp_path / "sensor.yaml"
    path.write_text(EUROC_VICON0_SENSOR_YAML, encoding="utf-8")
    said = r"sensor\.yaml: the 3x3 block is not a rotation \(max \|R Rᵀ - I\| 7\.4e-06\)"
    with pytest.warns(DataWarning, match=said):
        got = np.array(read_transform(path, flag="--transform-right")).reshape(4, 4)
    printed = np.array(
        [
            [0.33638, -0.01749, 0.94156],
            [-0.02078, -0.99972, -0.01114],
            [0.94150, -0.01582, -0.33665],
        ]
    )
    u, _, vt = np.linalg.svd(printed)  # the polar factor, by SVD: Higham 1986
    np.testing.assert_allclose(got[:3, :3], u @ vt, rtol=0, atol=1e-14)
    assert got[:3, 3].tolist() == [0.06901, -0.02781, -0.12395]  # as printed
    assert EvaluationSettings(transform_right=tuple(got.ravel())).transform_right is not None


@needs_yaml
@pytest.mark.parametrize(
    "block",
    [
        # a typo in the third decimal (0.94156 -> 0.94956): no rounding, still refused
        (
            "0.33638, -0.01749, 0.94956, 0, -0.02078, -0.99972, -0.01114, 0, "
            "0.94150, -0.01582, -0.33665, 0"
        ),
        # a reflection as near orthonormal as the print: never a rotation
        "1.00001, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0",
    ],
)
def test_a_block_beyond_rounding_is_left_for_the_settings_to_refuse(
    tmp_path: Path, block: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(f"T_BS: {{rows: 4, cols: 4, data: [{block}, 0, 0, 0, 1]}}\n", encoding="utf-8")
    values = read_transform(path)  # no warning: as written
    assert values[:12] == tuple(float(v) for v in block.split(", "))
    with pytest.raises(ValidationError, match=r"whose 3x3 block is s R"):
        EvaluationSettings(transform_right=values)


# VINS-Fusion's EuRoC stereo config, OpenCV FileStorage YAML (`%YAML:1.0`, `!!opencv-matrix`):
# HKUST-Aerial-Robotics/VINS-Fusion, config/euroc/euroc_stereo_imu_config.yaml (commit
# 939f01282fa4d79422fc4b76520470057edc1f9c), its first 39 lines as published, trailing
# spaces dropped. body_T_cam0 maps camera-frame points to the body (IMU): EuRoC's T_BS.
VINS_EUROC_STEREO_IMU_CONFIG = """\
%YAML:1.0

#common parameters
#support: 1 imu 1 cam; 1 imu 2 cam: 2 cam;
imu: 1
num_of_cam: 2

imu_topic: "/imu0"
image0_topic: "/cam0/image_raw"
image1_topic: "/cam1/image_raw"
output_path: "/home/tony-ws1/output/"

cam0_calib: "cam0_pinhole.yaml"
cam1_calib: "cam1_pinhole.yaml"
image_width: 752
image_height: 480


# Extrinsic parameter between IMU and Camera.
estimate_extrinsic: 0   # 0  Have an accurate extrinsic parameters. We will trust the following imu^R_cam, imu^T_cam, don't change it.
                        # 1  Have an initial guess about extrinsic parameters. We will optimize around your initial guess.

body_T_cam0: !!opencv-matrix
   rows: 4
   cols: 4
   dt: d
   data: [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
           0.999557249008, 0.0149672133247, 0.025715529948,  -0.064676986768,
           -0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949,
           0, 0, 0, 1]

body_T_cam1: !!opencv-matrix
   rows: 4
   cols: 4
   dt: d
   data: [0.0125552670891, -0.999755099723, 0.0182237714554, -0.0198435579556,
           0.999598781151, 0.0130119051815, 0.0251588363115, 0.0453689425024,
          -0.0253898008918, 0.0179005838253, 0.999517347078, 0.00786212447038,
          0, 0, 0, 1]

#Multiple thread support
multiple_thread: 1
"""

# Kalibr's camchain of EuRoC's stereo rig (its nested-rows layout; T_cam_imu maps IMU-frame
# points to the camera's, T_cn_cnm1 cam0's to cam1's): ethz-asl/voxblox,
# voxblox_ros/cfg/calibrations/euroc_camchain.yaml (commit 573a952b0c87f43c35b76e9839b515128555c040).
KALIBR_EUROC_CAMCHAIN = """\
cam0:
  T_cam_imu:
  - [0.014067833389924844, 0.9996023098557362, -0.024440094001271714, 0.0657094717307726]
  - [-0.9998997399258257, 0.014103075047756597, 0.0012701852087405128, -0.01662153508680676]
  - [0.0016143605484757653, 0.0244197748817434, 0.9997004893640622, 0.0014868599890966905]
  - [0.0, 0.0, 0.0, 1.0]
  cam_overlaps: [1]
  camera_model: pinhole
  distortion_coeffs: [-0.011602611404146694, 0.05399058892805103, -0.07542693754837938,
    0.03666365316319072]
  distortion_model: equidistant
  intrinsics: [461.3418503026154, 460.13885656354387, 366.4281018364134, 248.8415565479774]
  resolution: [752, 480]
  rostopic: /cam0/image_raw
  flip_camera: true
cam1:
  T_cam_imu:
  - [0.011810542390279122, 0.9995951714398011, -0.02588444171084584, -0.04439379107435547]
  - [-0.9998052969172723, 0.01221433647773218, 0.015497685006934178, -0.016235309745499065]
  - [0.01580757238202092, 0.025696365864524458, 0.9995448051171812, 0.0012030335279962774]
  - [0.0, 0.0, 0.0, 1.0]
  T_cn_cnm1:
  - [0.9999964092230391, 0.0022551294207702314, -0.0014477335121195142, -0.11006339056724425]
  - [-0.002234380261272062, 0.9998970009983116, 0.014177268405057909, 0.000510253673254922]
  - [0.0014795559720994585, -0.014173982710466103, 0.9998984494078623, -0.0006164896618526655]
  - [0.0, 0.0, 0.0, 1.0]
  cam_overlaps: [0]
  camera_model: pinhole
  distortion_coeffs: [0.005730625619095735, -0.009587210461496316, 0.01921165649877144,
    -0.010717188529046507]
  distortion_model: equidistant
  intrinsics: [459.6820431465863, 458.37659300282706, 380.01198798196646, 255.55347731935623]
  resolution: [752, 480]
  rostopic: /cam1/image_raw
  flip_camera: true
"""
KALIBR_CAM0_T_CAM_IMU = (
    0.014067833389924844, 0.9996023098557362, -0.024440094001271714, 0.0657094717307726,
    -0.9998997399258257, 0.014103075047756597, 0.0012701852087405128, -0.01662153508680676,
    0.0016143605484757653, 0.0244197748817434, 0.9997004893640622, 0.0014868599890966905,
    0.0, 0.0, 0.0, 1.0,
)  # fmt: skip
VINS_BODY_T_CAM1 = (
    0.0125552670891, -0.999755099723, 0.0182237714554, -0.0198435579556,
    0.999598781151, 0.0130119051815, 0.0251588363115, 0.0453689425024,
    -0.0253898008918, 0.0179005838253, 0.999517347078, 0.00786212447038,
    0.0, 0.0, 0.0, 1.0,
)  # fmt: skip


@needs_yaml
def test_vins_fusion_body_t_cam0_is_euroc_t_bs(tmp_path: Path) -> None:
    """VINS-Fusion's OpenCV config was refused ("invalid YAML", its ``%YAML:1.0`` header).

    Its body_T_cam0 and EuRoC's sensor.yaml T_BS describe one sensor, printed alike.
    """
    path = tmp_path / "euroc_stereo_imu_config.yaml"
    path.write_text(VINS_EUROC_STEREO_IMU_CONFIG, encoding="utf-8")
    assert read_transform(f"{path}:body_T_cam0") == EUROC_CAM0_T_BS
    assert read_transform(f"{path}:body_T_cam1") == VINS_BODY_T_CAM1
    said = (
        rf"^{re.escape(str(path))}: expected one transform, got 2: body_T_cam0, body_T_cam1; "
        r"name one as FILE:KEY$"
    )
    with pytest.raises(FormatError, match=said):
        read_transform(path)


@needs_yaml
@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_a_vins_config_saved_with_windows_or_old_mac_line_ends_is_read(
    tmp_path: Path, end: str
) -> None:
    """The header and tag were found only before LF: with CR LF the ``!!opencv-matrix`` tag
    stayed ("could not determine a constructor"), with CR the header ("%YAML:1.0 ...
    found ':'"); PyYAML ends a line at LF, CR LF or CR alike."""
    path = tmp_path / "euroc_stereo_imu_config.yaml"
    path.write_bytes(VINS_EUROC_STEREO_IMU_CONFIG.replace("\n", end).encode())
    assert read_transform(f"{path}:body_T_cam0") == EUROC_CAM0_T_BS
    bad = VINS_EUROC_STEREO_IMU_CONFIG.replace("T_cam1: !!opencv-matrix", "T_cam1: !!opencv-m")
    path.write_bytes(bad.replace("\n", end).encode())
    with pytest.raises(FormatError, match=r"\.yaml, line 32: body_T_cam1: expected the tag"):
        read_transform(path)


@needs_yaml
def test_a_kalibr_camchain_gives_the_transform_named(tmp_path: Path) -> None:
    """Kalibr's camchain: ``FILE:cam0`` its one transform, ``FILE:cam1`` asks which of two."""
    path = tmp_path / "camchain.yaml"
    path.write_text(KALIBR_EUROC_CAMCHAIN, encoding="utf-8")
    assert read_transform(f"{path}:cam0") == KALIBR_CAM0_T_CAM_IMU
    assert read_transform(f"{path}:cam0/T_cam_imu") == KALIBR_CAM0_T_CAM_IMU
    c0, c1, c1_c0 = (
        np.array(read_transform(f"{path}:{key}")).reshape(4, 4)
        for key in ("cam0/T_cam_imu", "cam1/T_cam_imu", "cam1/T_cn_cnm1")
    )
    assert c1_c0[0, 3] == -0.11006339056724425  # the 11 cm stereo baseline, as printed
    # One chain: cam1 from cam0 is cam1 from IMU after IMU from cam0 (5.6e-16, NumPy).
    assert np.abs(c1 @ np.linalg.inv(c0) - c1_c0).max() < 1e-12
    for key, keys in (
        ("", "cam0/T_cam_imu, cam1/T_cam_imu, cam1/T_cn_cnm1"),
        (":cam1", "cam1/T_cam_imu, cam1/T_cn_cnm1"),
    ):
        with pytest.raises(FormatError, match=f"expected one transform, got [23]: {keys};"):
            read_transform(f"{path}{key}")


@needs_yaml
@pytest.mark.parametrize(
    ("text", "key", "match"),
    [
        (
            "%YAML:1.0\nT: !!opencv-matrx\n   rows: 4\n   cols: 4\n   dt: d\n   data: [1]\n",
            "",
            r"s\.yaml, line 2: T: expected the tag !!opencv-matrix, got !!opencv-matrx",
        ),
        (
            "%YAML:1.0\nT: !!opencv-matrix\n   rows: 4\n   cols: 4\n   dt: d\n   data: [1, 0, 0]\n",
            ":T",
            r"s\.yaml, line 2: T: expected rows x cols = 16 numbers in data \(rows 4, cols 4\), got 3",
        ),
        ("a: [[1]]\n", ":b", r"s\.yaml: no key b; the keys: a"),
        ("%YAML:1.0\nT: !!opencv-matrix\n  rows: 4\n", ":T/x", r"s\.yaml: no key T/x; the keys"),
    ],
)
def test_a_bad_opencv_node_or_key_is_named(tmp_path: Path, text: str, key: str, match: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=match):
        read_transform(f"{path}{key}")


@needs_yaml
@pytest.mark.parametrize(
    ("edit", "key", "said"),
    [
        ((), ":body_T_cam2", "FILE: no key body_T_cam2; the keys: body_T_cam0, body_T_cam1"),
        (
            ("T_cam0: !!opencv-matrix", "T_cam0: !!opencv-matrix3"),
            "",
            "FILE, line 23: body_T_cam0: expected the tag !!opencv-matrix, got !!opencv-matrix3",
        ),
        (
            ("   cols: 4", "   cols: 3"),
            ":body_T_cam0",
            "FILE, line 23: body_T_cam0: expected rows x cols = 12 numbers in data (rows 4, cols 3), got 16",
        ),
    ],
)
def test_a_bad_key_or_node_ends_in_one_error_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: tuple[str, ...],
    key: str,
    said: str,
) -> None:
    from robot_msgs.cli import main

    path = tmp_path / "vins.yaml"
    text = VINS_EUROC_STEREO_IMU_CONFIG
    path.write_text(text.replace(edit[0], edit[1], 1) if edit else text, encoding="utf-8")
    tum = tmp_path / "a.tum"
    tum.write_text("".join(f"{t} {t} 0 0 0 0 0 1\n" for t in range(5)), encoding="utf-8")
    code = main(["ape", str(tum), str(tum), "--transform-right", f"{path}{key}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0
    assert err == [f"ERROR: --transform-right {said.replace('FILE', str(path))}"]


@needs_yaml
def test_the_tag_is_blanked_not_a_key_spelled_as_it(tmp_path: Path) -> None:
    """The first ``!!opencv-matrix`` of the line was blanked, here the quoted key's."""
    path = tmp_path / "s.yaml"
    data = ", ".join(map(str, EXPECTED))
    node = "   rows: 4\n   cols: 4\n   dt: d\n   data: [" + data + "]\n"
    path.write_text('%YAML:1.0\n"!!opencv-matrix": !!opencv-matrix\n' + node)
    assert read_transform(path) == EXPECTED


@needs_yaml
def test_a_key_holding_a_slash_is_read_as_listed(tmp_path: Path) -> None:
    """A key ``a/b`` was split at its slash: "no key a/b; the keys: a/b, c"."""
    path = tmp_path / "s.yaml"
    path.write_text(f"a/b: {np.array(EXPECTED).reshape(4, 4).tolist()}\nc: [[1]]\n")
    assert read_transform(f"{path}:a/b") == EXPECTED


@needs_yaml
def test_a_camera_estimate_is_brought_to_the_imu_by_kalibr_t_cam_imu(tmp_path: Path) -> None:
    """World-from-camera poses ``P inv(T_cam_imu)`` come back to ``P`` uninverted."""
    path = tmp_path / "camchain.yaml"
    path.write_text(KALIBR_EUROC_CAMCHAIN, encoding="utf-8")
    t_cam_imu = np.array(KALIBR_CAM0_T_CAM_IMU).reshape(4, 4)
    # T_cam_imu is camera from IMU: world-from-camera poses are world-from-IMU ones times its inverse
    ref, est = _imu_and_camera(seed=5, imu_from_camera=np.linalg.inv(t_cam_imu))
    settings = EvaluationSettings(transform_right=read_transform(f"{path}:cam0"))
    assert ape(ref, est, settings=settings).stats["translation"].max < 1e-12
    wrong = ape(ref, est, settings=settings.replace(invert_transform_right=True))
    assert wrong.stats["translation"].min > 0.05  # twice the 6.8 cm lever arm, turned


# Names, and the words YAML 1.1 reads as booleans, null and numbers (`on:` was the key
# True, named so and found only as FILE:True; `0x10:` was refused as a number).
_YAML_WORDS = ["yes", "No", "ON", "off", "true", "null", "~", "1.0", "0x10", "010", "1_000"]
_KEYS = st.one_of(
    st.sampled_from(_YAML_WORDS), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
)


@needs_yaml
@settings(max_examples=60, deadline=None)
@given(matrix=_transforms(scaled=True), key=_KEYS, other=_KEYS)
def test_an_opencv_node_reads_back_bit_for_bit(
    tmp_path_factory: pytest.TempPathFactory, matrix: np.ndarray, key: str, other: str
) -> None:
    """Any Sim(3) written as OpenCV's FileStorage writes a matrix is the matrix read back."""
    data = ", ".join(map(repr, matrix.ravel().tolist()))
    node = "{key}: !!opencv-matrix\n   rows: 4\n   cols: 4\n   dt: d\n   data: [{data}]\n"
    text = "%YAML:1.0\n---\n" + node.format(key=key, data=data)
    if other != key:  # a second transform: the key chooses
        text += node.format(key=other, data="1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1")
    path = tmp_path_factory.mktemp("t") / "config.yaml"
    path.write_text(text, encoding="utf-8")
    back = np.array(read_transform(f"{path}:{key}")).reshape(4, 4)
    assert back.view(np.int64).tolist() == matrix.view(np.int64).tolist()


# msckf_vio's EuRoC calibration, Kalibr's camchain with each matrix one flat list of 16
# numbers, row by row, and a T_imu_body added: KumarRobotics/msckf_vio,
# config/camchain-imucam-euroc.yaml (commit 050c50defa5a7fd9a04c1eed5687b405f02919b5),
# lines 4-37 as published (its 3 comment lines dropped; line 1 here is its line 4).
MSCKF_VIO_EUROC_CAMCHAIN = """\
cam0:
  T_cam_imu:
    [0.014865542981794,   0.999557249008346,  -0.025774436697440,   0.065222909535531,
    -0.999880929698575,   0.014967213324719,   0.003756188357967,  -0.020706385492719,
     0.004140296794224,   0.025715529947966,   0.999660727177902,  -0.008054602460030,
                     0,                   0,                   0,   1.000000000000000]
  camera_model: pinhole
  distortion_coeffs: [-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05]
  distortion_model: radtan
  intrinsics: [458.654, 457.296, 367.215, 248.375]
  resolution: [752, 480]
  timeshift_cam_imu: 0.0
cam1:
  T_cam_imu:
    [0.012555267089103,   0.999598781151433,  -0.025389800891747,  -0.044901980682509,
    -0.999755099723116,   0.013011905181504,   0.017900583825251,  -0.020569771258915,
     0.018223771455443,   0.025158836311552,   0.999517347077547,  -0.008638135126028,
                     0,                   0,                   0,   1.000000000000000]
  T_cn_cnm1:
    [0.999997256477881,   0.002312067192424,   0.000376008102415,  -0.110073808127187,
    -0.002317135723281,   0.999898048506644,   0.014089835846648,   0.000399121547014,
    -0.000343393120525,  -0.014090668452714,   0.999900662637729,  -0.000853702503357,
                     0,                   0,                   0,   1.000000000000000]
  camera_model: pinhole
  distortion_coeffs: [-0.28368365,  0.07451284, -0.00010473, -3.55590700e-05]
  distortion_model: radtan
  intrinsics: [457.587, 456.134, 379.999, 255.238]
  resolution: [752, 480]
  timeshift_cam_imu: 0.0
T_imu_body:
  [1.0000, 0.0000, 0.0000, 0.0000,
  0.0000, 1.0000, 0.0000, 0.0000,
  0.0000, 0.0000, 1.0000, 0.0000,
  0.0000, 0.0000, 0.0000, 1.0000]
"""

# OpenVINS's EuRoC camchain (Kalibr's nested rows, T_imu_cam: IMU from camera, EuRoC's T_BS
# printed alike): rpng/open_vins, config/euroc_mav/kalibr_imucam_chain.yaml (commit
# 14211e2a8fdf713d433c8069b5aaa2119653b07c), its first 9 lines.
OPENVINS_EUROC_IMUCAM_CHAIN = """\
%YAML:1.0

cam0:
  T_imu_cam: #rotation from camera to IMU R_CtoI, position of camera in IMU p_CinI
    - [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975]
    - [0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768]
    - [-0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949]
    - [0.0, 0.0, 0.0, 1.0]
  cam_overlaps: [1]
"""

# ORB-SLAM3 1.0's EuRoC stereo-inertial config (OpenCV FileStorage, keys with dots;
# IMU.T_b_c1 is body from camera 1, EuRoC's T_BS): electech6/ORB_SLAM3_detailed_comments
# (a fork of UZ-SLAMLab/ORB_SLAM3 1.0), Examples/Stereo-Inertial/EuRoC.yaml (commit
# 7cafb8806639fef52111f9c486e303eaa2fd0c83), lines 1 and 56-72.
ORB_SLAM3_EUROC_STEREO_INERTIAL = """\
%YAML:1.0
Stereo.ThDepth: 60.0
Stereo.T_c1_c2: !!opencv-matrix
  rows: 4
  cols: 4
  dt: f
  data: [0.999997256477797,-0.002317135723275,-0.000343393120620,0.110074137800478,
         0.002312067192432,0.999898048507103,-0.014090668452683,-0.000156612054392,
         0.000376008102320,0.014089835846691,0.999900662638081,0.000889382785432,
         0,0,0,1.000000000000000]

# Transformation from camera 0 to body-frame (imu)
IMU.T_b_c1: !!opencv-matrix
  rows: 4
  cols: 4
  dt: f
  data: [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
         0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768,
         -0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949,
         0.0, 0.0, 0.0, 1.0]
"""


@needs_yaml
def test_msckf_vio_flat_t_cam_imu_is_the_inverse_of_euroc_t_bs(tmp_path: Path) -> None:
    """msckf_vio's camchain writes each 4x4 as one list of 16 numbers: refused as
    "expected a 4x4 matrix, got shape (16,)". Read row by row, its cam0 T_cam_imu is the
    inverse of EuRoC's cam0 T_BS (another file, other digits): 4.8e-16 off I, NumPy."""
    path = tmp_path / "camchain-imucam-euroc.yaml"
    path.write_text(MSCKF_VIO_EUROC_CAMCHAIN, encoding="utf-8")
    t_cam_imu = read_transform(f"{path}:cam0")
    assert t_cam_imu[:4] == (
        0.014865542981794,
        0.999557249008346,
        -0.02577443669744,
        0.065222909535531,
    )
    assert t_cam_imu == read_transform(f"{path}:cam0/T_cam_imu")
    product = np.array(t_cam_imu).reshape(4, 4) @ np.array(EUROC_CAM0_T_BS).reshape(4, 4)
    assert np.abs(product - np.eye(4)).max() < 1e-12
    # one chain: cam1 from cam0 is cam1 from IMU after IMU from cam0 (4.6e-16, NumPy)
    c0, c1, c1_c0 = (
        np.array(read_transform(f"{path}:{key}")).reshape(4, 4)
        for key in ("cam0/T_cam_imu", "cam1/T_cam_imu", "cam1/T_cn_cnm1")
    )
    assert np.abs(c1 @ np.linalg.inv(c0) - c1_c0).max() < 1e-12
    assert read_transform(f"{path}:T_imu_body") == tuple(np.eye(4).ravel())
    said = "got 4: cam0/T_cam_imu, cam1/T_cam_imu, cam1/T_cn_cnm1, T_imu_body;"
    with pytest.raises(FormatError, match=re.escape(said)):
        read_transform(path)


@needs_yaml
@pytest.mark.parametrize(
    ("edit", "said"),
    [
        # Kalibr's cam0 T_cam_imu printed column by column (Eigen's order): translation last
        (
            "columns",
            (
                "FILE, line 2: cam0/T_cam_imu: expected 16 numbers of a 4x4 transform, row by "
                "row, the last 4 being 0, 0, 0, 1, got 0.0657095, -0.0166215, 0.00148686, 1 "
                "(column by column?)"
            ),
        ),
        ("word", "FILE, line 2: cam0/T_cam_imu[3][0]: expected a number, got 'zero'"),
    ],
)
def test_16_numbers_not_ending_0_0_0_1_are_refused_naming_file_line_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str, said: str
) -> None:
    from robot_msgs.cli import main

    rows = np.array(KALIBR_CAM0_T_CAM_IMU).reshape(4, 4)
    if edit == "columns":
        data = ", ".join(repr(float(v)) for v in rows.T.ravel())
    else:
        data = ", ".join(["0.0"] * 12 + ["zero", "0", "0", "1"])
    text = "cam0:\n  T_cam_imu: [" + data + "]\n  camera_model: pinhole\n"
    path = tmp_path / "camchain.yaml"
    path.write_text(text, encoding="utf-8")
    tum = tmp_path / "a.tum"
    tum.write_text("".join(f"{t} {t} 0 0 0 0 0 1\n" for t in range(5)), encoding="utf-8")
    assert main(["ape", str(tum), str(tum), "--transform-right", f"{path}:cam0"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"ERROR: --transform-right {said.replace('FILE', str(path))}"]


def read_transform_text(text: str, folder: Path, key: str) -> tuple[float, ...]:
    """Read ``FILE:KEY`` of ``text`` written to a file in ``folder``."""
    path = folder / "read.yaml"
    path.write_text(text, encoding="utf-8")
    return read_transform(f"{path}:{key}")


@needs_yaml
def test_openvins_and_orb_slam3_extrinsics_are_euroc_t_bs(tmp_path: Path) -> None:
    """OpenVINS's nested T_imu_cam and ORB-SLAM3's ``IMU.T_b_c1: !!opencv-matrix`` (a key
    with a dot) hold EuRoC's cam0 T_BS, printed alike: read as it is, bit for bit."""
    assert read_transform_text(OPENVINS_EUROC_IMUCAM_CHAIN, tmp_path, "cam0") == EUROC_CAM0_T_BS
    orb = ORB_SLAM3_EUROC_STEREO_INERTIAL
    assert read_transform_text(orb, tmp_path, "IMU.T_b_c1") == EUROC_CAM0_T_BS
    baseline = read_transform_text(orb, tmp_path, "Stereo.T_c1_c2")[3]
    assert baseline == 0.110074137800478  # the 11 cm stereo baseline, as printed


@needs_yaml
def test_yaml_1_1_words_as_keys_keep_their_spelling(tmp_path: Path) -> None:
    """``on:`` and ``no:`` were the keys True and False: the error listed "True, False",
    and ``FILE:on`` found "no key on; the keys: True, False"."""
    turn = np.array(EXPECTED).reshape(4, 4).tolist()
    path = tmp_path / "s.yaml"
    path.write_text(f"on: {turn}\nno: {np.eye(4).tolist()}\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"got 2: on, no; name one as "):
        read_transform(path)
    assert read_transform(f"{path}:on") == EXPECTED
    assert read_transform(f"{path}:no") == tuple(np.eye(4).ravel())


@needs_yaml
@pytest.mark.parametrize("key", ["yes", "ON", "null", "~", "0x10", "1.0", "1_000", "010"])
def test_a_key_yaml_1_1_reads_as_a_value_is_found_as_written(tmp_path: Path, key: str) -> None:
    """``yes`` was True, ``null`` and ``~`` None, ``1.0`` the float 1.0 ("no key 1.0; the
    keys: 1.0, b"? found: the float's str), ``0x10`` refused as a number."""
    turn = np.array(EXPECTED).reshape(4, 4).tolist()
    path = tmp_path / "s.yaml"
    path.write_text(f"{key}: {turn}\nb: {np.eye(4).tolist()}\n", encoding="utf-8")
    assert read_transform(f"{path}:{key}") == EXPECTED
    with pytest.raises(FormatError, match=f"got 2: {re.escape(key)}, b; name one"):
        read_transform(path)


@needs_yaml
def test_a_key_given_twice_is_named_as_written(tmp_path: Path) -> None:
    """``on`` and ``yes`` are two names: refused as "key True given twice"."""
    path = tmp_path / "s.yaml"
    path.write_text(f"on: {np.eye(4).tolist()}\nyes: [[1]]\nyes: [[2]]\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"s\.yaml: line 3: key 'yes' given twice"):
        read_transform(f"{path}:on")
    path.write_text(f"on: {np.eye(4).tolist()}\nyes: [[1]]\n", encoding="utf-8")
    assert read_transform(f"{path}:on") == tuple(np.eye(4).ravel())


@needs_yaml
def test_several_matrices_are_refused_in_one_short_error_line_folded_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 4-camera camchain (EuRoC's, cam1 repeated as cam2 and cam3) holds 7 matrices: the
    ``ERROR:`` line listed all 7 and the path twice (226 columns, the file named
    camchain-imucam.yaml); now 3 and "4 more" (157), one line in a pipe, folded to 80
    columns on a terminal as every error line is."""
    from robot_msgs.cli import main

    cam1 = KALIBR_EUROC_CAMCHAIN[KALIBR_EUROC_CAMCHAIN.index("cam1:") :]
    path = tmp_path / "camchain-imucam.yaml"
    text = KALIBR_EUROC_CAMCHAIN + cam1.replace("cam1:", "cam2:") + cam1.replace("cam1:", "cam3:")
    path.write_text(text, encoding="utf-8")
    tum = tmp_path / "a.tum"
    tum.write_text("".join(f"{t} {t} 0 0 0 0 0 1\n" for t in range(5)), encoding="utf-8")
    argv = ["ape", str(tum), str(tum), "--transform-right", str(path)]
    assert main(argv) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"ERROR: --transform-right {path}: expected one transform, got 7: cam0/T_cam_imu, "
        "cam1/T_cam_imu, cam1/T_cn_cnm1 and 4 more; name one as FILE:KEY"
    )
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 1
    shown = terminal.getvalue().splitlines()
    assert len(shown) > 1
    assert all(len(x) <= 80 or str(path) in x for x in shown)
    assert all(x.startswith(" " * 7) for x in shown[1:])  # under the text, past "ERROR: "
    assert " ".join(x.strip() for x in shown) == line


# ORB-SLAM3's own EuRoC stereo-inertial config, OpenCV FileStorage YAML as OpenCV reads it:
# `data:[` and `Viewer.PointSize:2`, a key and its value with no space between, which YAML
# reads as text. UZ-SLAMLab/ORB_SLAM3, Examples/Stereo-Inertial/EuRoC.yaml (commit
# df16ecc040d35ecbd9f81477e32e80b49460276c), lines 1, 34-42 and 57-61, and its line
# `Viewer.PointSize:2`. Tbc is body (IMU) from camera 0: EuRoC's T_BS, printed alike.
ORB_SLAM3_UZ_EUROC_STEREO_INERTIAL = """\
%YAML:1.0
# Transformation from camera 0 to body-frame (imu)
Tbc: !!opencv-matrix
   rows: 4
   cols: 4
   dt: f
   data: [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
         0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768,
        -0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949,
         0.0, 0.0, 0.0, 1.0]
LEFT.D: !!opencv-matrix
   rows: 1
   cols: 5
   dt: d
   data:[-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05, 0.0]
Viewer.PointSize:2
"""


@needs_yaml
def test_orb_slam3_key_and_value_without_a_space_are_read_as_opencv_reads_them(
    tmp_path: Path,
) -> None:
    """ORB-SLAM3's EuRoC config was refused: "invalid YAML (while scanning a simple key ...
    could not find expected ':')" at its ``data:[...]``; its Tbc is EuRoC's cam0 T_BS."""
    path = tmp_path / "EuRoC.yaml"
    path.write_text(ORB_SLAM3_UZ_EUROC_STEREO_INERTIAL, encoding="utf-8")
    assert read_transform(path) == EUROC_CAM0_T_BS  # its one 4x4: LEFT.D is 1 x 5
    assert read_transform(f"{path}:Tbc") == EUROC_CAM0_T_BS
    # YAML's own files keep YAML's reading: without OpenCV's header, "a:[1]" is text
    path.write_text(ORB_SLAM3_UZ_EUROC_STEREO_INERTIAL.replace("%YAML:1.0\n", ""))
    with pytest.raises(FormatError, match=r"EuRoC\.yaml: invalid YAML"):
        read_transform(path)


@needs_yaml
def test_an_opencv_files_text_that_begins_name_colon_is_not_made_a_key(tmp_path: Path) -> None:
    """Every line that began ``name:x`` in a ``%YAML:1.0`` file was given a space after its
    colon: a plain string's second line (``kalibr:2024 data``), read before, was refused
    as "mapping values are not allowed here" at ``kalibr: 2024 data``, text never
    written; a block scalar's and a quoted string's lines were changed. Only where a
    mapping's key stands is ``key:value`` a key, as ORB-SLAM3's ``data:[...]`` still is."""
    path = tmp_path / "extrinsics.yaml"
    path.write_text(
        "%YAML:1.0\n"
        "note: calibrated with\n"
        "  kalibr:2024 data\n"
        "how: |\n"
        "  see:http://x\n"
        "T: !!opencv-matrix\n"
        "   rows: 4\n"
        "   cols: 4\n"
        "   dt: d\n"
        "   data:[1, 0, 0, 1,\n"
        "         0, 1, 0, 2,\n"
        "         0, 0, 1, 3,\n"
        "         0, 0, 0, 1]\n"
        "Viewer.PointSize:2\n",
        encoding="utf-8",
    )
    translated = (1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 1.0, 3.0, 0.0, 0.0, 0.0, 1.0)
    assert read_transform(f"{path}:T") == translated
    assert read_transform(path) == translated
