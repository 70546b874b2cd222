"""Transform files: one 4x4 SE(3) or Sim(3) transform, as text, ``.npy``, JSON or YAML.

What ``--transform-left`` / ``--transform-right`` read; the layouts evo's
``file_interface.load_transform`` reads, plus the ROS pose layouts:

- a text file of 4 rows of 4 numbers (``np.savetxt``), or a ``.npy`` file (``np.save``);
- JSON or YAML with the keys ``x, y, z, qx, qy, qz, qw`` and an optional ``scale``
  (evo's layout);
- JSON or YAML ``{position: {x, y, z}, orientation: {x, y, z, w}}`` (a ROS ``Pose``) or
  ``{translation: {x, y, z}, rotation: {x, y, z, w}}`` (a ROS ``Transform``), either one
  optionally under a ``pose`` or ``transform`` key, as ``ros2 topic echo`` prints them;
- JSON or YAML ``{matrix: [[...], [...], [...], [...]]}``.

Quaternions are normalised; one that is far from unit (norm off by more than 1e-3) is
refused, as is anything that is not a Sim(3) matrix. YAML needs PyYAML (the ``yaml``
extra).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import FormatError
from robot_msgs.files import parse_json, parse_yaml
from robot_msgs.io.bounded import read_input
from robot_msgs.io.npy import array_from_npy
from robot_msgs.limits import current_limits
from robot_msgs.optional import require
from robot_msgs.rotations import matrix_from_quat_xyzw

if TYPE_CHECKING:
    import os

__all__ = ["read_transform"]

_QUATERNION_TOL = 1e-3
_FLAT = ("x", "y", "z", "qx", "qy", "qz", "qw")


def _short(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= 120 else text[:117] + "..."


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        msg = f"{where}: expected a number, got {value!r:.40}"
        raise FormatError(msg)
    try:
        return float(value)
    except OverflowError as err:
        msg = (
            f"{where}: expected a number float64 holds, got an integer of {len(str(value))} digits"
        )
        raise FormatError(msg) from err


def _vector(node: object, keys: tuple[str, ...], where: str) -> list[float]:
    if not isinstance(node, dict) or not all(k in node for k in keys):
        got = sorted(map(str, node))[:8] if isinstance(node, dict) else type(node).__name__
        msg = f"{where}: expected a mapping with keys {', '.join(keys)}, got {got}"
        raise FormatError(msg)
    return [_number(node[k], f"{where}.{k}") for k in keys]


def _from_pose(xyz: list[float], quat_xyzw: list[float], scale: float, where: str) -> np.ndarray:
    q = np.asarray(quat_xyzw)
    norm = float(np.linalg.norm(q))
    if not abs(norm - 1.0) <= _QUATERNION_TOL:
        msg = f"{where}: expected a unit quaternion, got norm {norm:.6g} ({quat_xyzw})"
        raise FormatError(msg)
    if not (math.isfinite(scale) and scale > 0):
        msg = f"{where}: expected a scale > 0, got {scale!r}"
        raise FormatError(msg)
    out = np.eye(4)
    out[:3, :3] = scale * matrix_from_quat_xyzw((q / norm)[None])[0]
    out[:3, 3] = xyz
    return out


def _from_mapping(data: object, where: str) -> np.ndarray:
    if isinstance(data, dict):
        if not any(k in data for k in ("x", "position", "translation", "matrix")):
            for wrapper in ("pose", "transform"):  # TransformStamped, Odometry: one level down
                if isinstance(data.get(wrapper), dict):
                    return _from_mapping(data[wrapper], f"{where} {wrapper}")
        if all(k in data for k in _FLAT):
            values = [_number(data[k], f"{where} {k}") for k in _FLAT]
            scale = _number(data.get("scale", 1.0), f"{where} scale")
            return _from_pose(values[:3], values[3:], scale, where)
        for place, turn in (("position", "orientation"), ("translation", "rotation")):
            if place in data and turn in data:
                xyz = _vector(data[place], ("x", "y", "z"), f"{where} {place}")
                quat = _vector(data[turn], ("x", "y", "z", "w"), f"{where} {turn}")
                return _from_pose(xyz, quat, 1.0, where)
        if "matrix" in data:
            return _as_matrix(data["matrix"], f"{where} matrix")
    msg = (
        f"{where}: expected keys x, y, z, qx, qy, qz, qw [scale] (evo), position + orientation "
        "(ROS Pose), translation + rotation (ROS Transform) or matrix, got "
        f"{sorted(map(str, data))[:8] if isinstance(data, dict) else type(data).__name__}"
    )
    raise FormatError(msg)


def _as_matrix(rows: object, where: str) -> np.ndarray:
    try:
        matrix = np.asarray(rows, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as err:
        msg = f"{where}: expected 4 rows of 4 numbers ({_short(err)})"
        raise FormatError(msg) from err
    if matrix.shape != (4, 4):
        msg = f"{where}: expected a 4x4 matrix, got shape {matrix.shape}"
        raise FormatError(msg)
    return matrix


def read_transform(path: str | os.PathLike[str], *, flag: str = "") -> tuple[float, ...]:
    """Read one 4x4 transform (module docstring) as 16 numbers, row-major.

    Parameters
    ----------
    path : path-like
        The file.
    flag : str
        The command-line flag that named the file, for error messages.

    Returns
    -------
    tuple of 16 float
        The matrix row by row (what ``EvaluationSettings.transform_left/right`` hold);
        its validity as SE(3)/Sim(3) is checked by the settings.

    Raises
    ------
    FormatError
        Unreadable content, a missing key, a non-unit quaternion; the message names the
        file (and the flag).
    FileNotFoundError
        No such file.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "T.json")
    >>> with open(path, "w") as f:
    ...     _ = f.write('{"x": 1, "y": 2, "z": 3, "qx": 0, "qy": 0, "qz": 0, "qw": 1}')
    >>> read_transform(path)[:4]
    (1.0, 0.0, 0.0, 1.0)
    """
    file = Path(path)
    where = f"{flag} {file}" if flag else str(file)
    try:
        raw = read_input(file, source=where, limit=current_limits().max_document)
    except (FileNotFoundError, IsADirectoryError) as err:
        msg = f"{where}: no such file"
        raise FileNotFoundError(msg) from err
    if raw.startswith(b"\x93NUMPY"):
        matrix = _as_matrix(array_from_npy(raw, where=where, kinds="fiu"), where)
    else:
        text = raw.decode("utf-8", errors="replace")
        matrix = _from_text(text, file, where)
    if not np.isfinite(matrix).all():
        msg = f"{where}: expected finite numbers, got {matrix.tolist()}"
        raise FormatError(msg)
    return tuple(float(v) for v in matrix.ravel())


def _from_text(text: str, file: Path, where: str) -> np.ndarray:
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")) and file.suffix.lower() not in (".yaml", ".yml"):
        data: Any = parse_json(text, source=where)
        return _from_mapping(data, where) if isinstance(data, dict) else _as_matrix(data, where)
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    numeric = all(all(_is_number(v) for v in ln.replace(",", " ").split()) for ln in lines if lines)
    if lines and numeric:
        rows = [[float(v) for v in ln.replace(",", " ").split()] for ln in lines]
        return _as_matrix(rows, where)
    require("yaml", "yaml", feature="YAML transform files")
    return _from_mapping(parse_yaml(text, source=where), where)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
