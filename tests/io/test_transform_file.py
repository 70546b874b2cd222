"""read_transform: the 4x4 and pose layouts evo and ROS write, and errors naming the file."""

from __future__ import annotations

import importlib.util
import json
import math
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import FormatError
from robot_msgs.io.transform_file import read_transform

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
        ("d.txt", "1 0 0\n0 1 0\n0 0 1\n", r"d\.txt: expected a 4x4 matrix, got shape \(3, 3\)"),
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
