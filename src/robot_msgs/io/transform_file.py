"""Transform files: one 4x4 SE(3) or Sim(3) transform, as text, ``.npy``, JSON or YAML.

What ``--transform-left`` / ``--transform-right`` read; the layouts evo's
``file_interface.load_transform`` reads, plus the ROS pose layouts:

- a text file of 4 rows of 4 numbers (``np.savetxt``; numbers as the trajectory readers
  read them, :func:`robot_msgs.io.table.parse_table`), or a ``.npy`` file (``np.save``);
- JSON or YAML with the keys ``x, y, z, qx, qy, qz, qw`` and an optional ``scale``
  (evo's layout);
- JSON or YAML ``{position: {x, y, z}, orientation: {x, y, z, w}}`` (a ROS ``Pose``) or
  ``{translation: {x, y, z}, rotation: {x, y, z, w}}`` (a ROS ``Transform``), either one
  optionally under a ``pose`` or ``transform`` key, as ``ros2 topic echo`` prints them;
- JSON or YAML ``{matrix: [[...], [...], [...], [...]]}``;
- a EuRoC ``sensor.yaml`` (``mav0/cam0/sensor.yaml``...): its ``T_BS`` node, OpenCV's
  ``{rows: 4, cols: 4, data: [16 numbers, row-major]}``, the sensor's pose in the body
  (IMU) frame, ``p_B = T_BS p_S``. An estimate of the camera's poses (world from camera)
  is brought to the body by its inverse: ``--transform-right sensor.yaml
  --invert-transform-right``. A ``matrix`` may be given as such a node too;
- OpenCV FileStorage YAML (``%YAML:1.0``, ``key: !!opencv-matrix`` nodes), as VINS-Fusion,
  Kimera and ORB-SLAM3 write their extrinsics: VINS-Fusion's ``body_T_cam0`` and
  ORB-SLAM3's ``Tbc`` / ``IMU.T_b_c1`` are body (IMU) from camera, ``p_B = T p_C``, as
  EuRoC's ``T_BS``. A key and its value with no space between (ORB-SLAM3's ``data:[...]``)
  are read as OpenCV reads them;
- Kalibr's camchain (``cam0: T_cam_imu: [[...], ...]``): ``T_cam_imu`` is camera from IMU,
  ``p_C = T p_I``, so a camera-frame estimate is brought to the IMU by it, uninverted
  (``--transform-right camchain.yaml:cam0``); ``T_cn_cnm1`` is cam n from cam n-1.
  OpenVINS's ``T_imu_cam`` is the inverse, IMU from camera. A matrix may also be one list
  of 16 numbers, row by row, as msckf_vio writes ``T_cam_imu`` and ``T_imu_body``: its last
  four must be 0, 0, 0, 1 (16 numbers column by column end with the translation).

A file of several 4x4 matrices (under a key, or one level down: ``cam1/T_cn_cnm1``) is
read as ``FILE:KEY`` (``config.yaml:body_T_cam1``, ``camchain.yaml:cam1/T_cam_imu``); without
a key it is refused naming a few of them. A key naming a mapping of one matrix reads that
one (``camchain.yaml:cam0``). A YAML key is a name, as written: ``on:`` is the key ``on``
(YAML 1.1 reads it as True), and a node's errors name the line of its key.

Quaternions are normalised; one that is far from unit (norm off by more than 1e-3) is
refused, as is anything that is not a Sim(3) matrix. A rotation block off orthonormal by
the rounding of its printed digits (``max |R Rᵀ - I|`` up to 1e-3, ``det R > 0``; EuRoC's
vicon0 ``T_BS``, 5 decimals, is 7.4e-6 off) is replaced by its nearest rotation, and said
(a ``DataWarning``), where the settings would refuse it (off by more than 1e-6). YAML
needs PyYAML (the ``yaml`` extra).

:func:`write_transform` writes one transform in any of these layouts (the layout
``read_transform`` reads back): the file's suffix chooses JSON (``.json``), YAML
(``.yaml``, ``.yml``; written without PyYAML, the layouts are flat), NumPy (``.npy``) or
text (anything else: 4 rows of 4 numbers). Numbers are written as their shortest exact
decimal (``repr``), so a matrix layout reads back bit for bit; the quaternion layouts
to rounding (about 1e-16).
"""

from __future__ import annotations

import io
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeGuard

import numpy as np

from robot_msgs.documents import _short, parse_json, parse_yaml
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.files import write_atomic
from robot_msgs.io.bounded import named_open_error, read_input
from robot_msgs.io.clean import ROUNDED_ROTATIONS, report
from robot_msgs.io.npy import array_from_npy
from robot_msgs.io.table import NUMBER_TOKEN, parse_table
from robot_msgs.optional import require
from robot_msgs.report.text import listed
from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    nearest_rotation_matrix,
    quat_xyzw_from_matrix,
    rotation_matrix_deviation,
    transform_problem,
)
from robot_msgs.trajectory import POSITION_LIMIT_M

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["TRANSFORM_LAYOUTS", "read_transform", "write_transform"]

_QUATERNION_TOL = 1e-3
#: A YAML mapping's key (``x: 1``, ``matrix:``) on a line, before any comment: a file
#: without one is no transform YAML reads (a bare list or scalar), so it is a text matrix.
#: Lines end as YAML ends them, LF, CR LF or CR: ``matrix:`` CR LF is a key.
_YAML_KEY = re.compile(r"(?:^|\r)[^#\r\n]*:(?:[ \t\r]|$)", re.MULTILINE)
#: OpenCV FileStorage's YAML header (VINS-Fusion, Kimera, ORB-SLAM write it), which PyYAML
#: refuses: YAML's own says ``%YAML 1.1``. Read as a blank line, so lines keep their numbers.
_OPENCV_HEADER = re.compile(r"\A%YAML:1\.0[ \t]*(?=\n|\Z)")
#: A key of an OpenCV FileStorage YAML file (a name at a line's start, as OpenCV's keys
#: are) and its colon: with no space after it (``data:[...]``, ``Viewer.PointSize:2``),
#: OpenCV reads a key and YAML text; ORB-SLAM3's own EuRoC configs write it. Group 2: the
#: value, which opens a mapping below when it is empty or only a tag or anchor.
_OPENCV_KEY = re.compile(r"([ ]*[A-Za-z_][A-Za-z0-9_.]*):(?:(?=[^\s:])|[ \t]|$)(.*)")
_OPENS_MAPPING = re.compile(r"[ \t]*(?:[!&]\S*[ \t]*)*(?:#.*)?")
#: A mapping value tagged as OpenCV tags its nodes (``body_T_cam0: !!opencv-matrix``), a tag
#: the safe loader does not know: ``!!opencv-matrix`` is blanked (its node is the mapping
#: ``{rows, cols, dt, data}``), any other ``!!opencv-`` tag refused naming its key.
_OPENCV_TAG = re.compile(r"^[ \t]*([^#\n]*?):[ \t]+(!!opencv-\S*)[ \t]*(?:#.*)?$", re.MULTILINE)
#: The text matrix's columns, as its errors name them.
_CELLS = ("T[i,0]", "T[i,1]", "T[i,2]", "T[i,3]")
_FLAT = ("x", "y", "z", "qx", "qy", "qz", "qw")
#: The layouts of a mapping, by the keys that show each (module docstring).
_LAYOUTS = {
    "x, y, z, qx, qy, qz, qw": _FLAT,
    "position + orientation": ("position", "orientation"),
    "translation + rotation": ("translation", "rotation"),
    "matrix": ("matrix",),
    "T_BS": ("T_BS",),
}
#: What :func:`write_transform` writes into JSON and YAML: evo's flat keys, a ROS ``Pose``,
#: a ROS ``Transform``, or the matrix.
TRANSFORM_LAYOUTS = ("evo", "pose", "transform", "matrix")
#: Largest deviation of ``RᵀR / s²`` from the identity accepted by :func:`write_transform`.
_ROTATION_TOL = 1e-6
#: Largest ``max |R Rᵀ - I|`` of a file's rotation block read as its nearest rotation:
#: the rounding of printed digits (4 decimals: up to ~2e-4), as a quaternion's norm
#: within :data:`_QUATERNION_TOL` is normalised.
_ROUNDED_BLOCK_TOL = 1e-3


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
    # Components past 1e154 square past float64 (norm inf, refused below): without
    # errstate the overflow warned out of the reader first. WHY not math.hypot: it
    # differs from NumPy's norm in the last bit for 1 quaternion in 4, and so the matrix;
    # the message says it, scaled (1e200 components: not inf; 1e-200: not 0), as clean's.
    with np.errstate(all="ignore"):
        norm = float(np.linalg.norm(q))
    if not abs(norm - 1.0) <= _QUATERNION_TOL:
        said = math.hypot(*quat_xyzw)
        msg = f"{where}: expected a unit quaternion, got norm {said:.6g} ({quat_xyzw})"
        raise FormatError(msg)
    if not (math.isfinite(scale) and scale > 0):
        msg = f"{where}: expected a scale > 0, got {scale!r}"
        raise FormatError(msg)
    out = np.eye(4)
    out[:3, :3] = scale * matrix_from_quat_xyzw((q / norm)[None])[0]
    out[:3, 3] = xyz
    return out


def _layouts(data: dict[Any, Any]) -> list[str]:
    """Name the layouts ``data`` holds (evo's flat keys, a Pose, a Transform, a matrix...)."""
    found = [name for name, keys in _LAYOUTS.items() if any(k in data for k in keys)]
    return found + [w for w in ("pose", "transform") if isinstance(data.get(w), dict)]


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a node is: the file (and flag), the keys down to it, the line of the last one.

    Said ``FILE, line 5: cam0/T_cam_imu`` where the line is known (YAML, whose keys
    carry it), ``FILE cam0/T_cam_imu`` where not (JSON), as the OpenCV tag's error says.
    """

    file: str
    keys: str = ""
    line: int | None = None

    def under(self, key: str, written: object = None, *, join: str = " ") -> _Place:
        """Return the place of the node under ``key`` (``written``: the key as loaded)."""
        keys = f"{self.keys}{join}{key}" if self.keys else key
        return _Place(self.file, keys, getattr(written, "line", None))

    def __str__(self) -> str:
        """Say the place, as errors begin."""
        if not self.keys:
            return self.file
        return (
            f"{self.file}, line {self.line}: {self.keys}"
            if self.line
            else f"{self.file} {self.keys}"
        )


def _written(data: dict[Any, Any], key: str) -> object:
    """Return the key of ``data`` equal to ``key`` as loaded (a YAML key: with its line)."""
    return next((k for k in data if k == key), key)


def _from_mapping(data: object, place: _Place) -> np.ndarray:
    where = str(place)
    if isinstance(data, dict):
        layouts = _layouts(data)
        if len(layouts) > 1:  # one would be taken and the other ignored: a silent choice
            msg = f"{where}: expected one transform, got {' and '.join(layouts)}: which is meant?"
            raise FormatError(msg)
        if not any(k in data for k in ("x", "position", "translation", "matrix", "T_BS")):
            for wrapper in ("pose", "transform"):  # TransformStamped, Odometry: one level down
                if isinstance(data.get(wrapper), dict):
                    return _from_mapping(
                        data[wrapper], place.under(wrapper, _written(data, wrapper))
                    )
        if all(k in data for k in _FLAT):
            values = [_number(data[k], f"{where} {k}") for k in _FLAT]
            scale = _number(data.get("scale", 1.0), f"{where} scale")
            return _from_pose(values[:3], values[3:], scale, where)
        for spot, turn in (("position", "orientation"), ("translation", "rotation")):
            if spot in data and turn in data:
                xyz = _vector(data[spot], ("x", "y", "z"), f"{where} {spot}")
                quat = _vector(data[turn], ("x", "y", "z", "w"), f"{where} {turn}")
                return _from_pose(xyz, quat, 1.0, where)
        for key in ("matrix", "T_BS"):
            if key in data:
                return _as_matrix(data[key], str(place.under(key, _written(data, key))))
    msg = (
        f"{where}: expected keys x, y, z, qx, qy, qz, qw [scale] (evo), position + orientation "
        "(ROS Pose), translation + rotation (ROS Transform), matrix or T_BS (EuRoC "
        "sensor.yaml), got "
        f"{sorted(map(str, data))[:8] if isinstance(data, dict) else type(data).__name__}"
    )
    raise FormatError(msg)


def _opencv_tag(found: re.Match[str], text: str, where: str) -> str:
    """Blank an ``!!opencv-matrix`` tag (``_OPENCV_TAG``); refuse another naming its key."""
    if found[2] != "!!opencv-matrix":
        line = text.count("\n", 0, found.start()) + 1
        msg = (
            f"{where}, line {line}: {found[1]:.60}: expected the tag !!opencv-matrix, got "
            f"{found[2]:.40}"
        )
        raise FormatError(msg)
    start, end = found.start(2) - found.start(), found.end(2) - found.start()
    return found[0][:start] + " " * (end - start) + found[0][end:]  # the tag's span, not a key


def _is_flat(node: object) -> TypeGuard[list[object]]:
    """Whether ``node`` is 16 values and no list or mapping: a 4x4 matrix, row by row."""
    return (
        isinstance(node, list)
        and len(node) == 16
        and not any(isinstance(v, list | dict) for v in node)
    )


def _is_matrix(node: object) -> bool:
    """Whether ``node`` is a 4x4 matrix: an OpenCV node of 4 rows and 4 cols, 4 lists or 16."""
    if isinstance(node, dict):
        return node.get("rows") == 4 and node.get("cols") == 4 and "data" in node
    rows = isinstance(node, list) and len(node) == 4 and all(isinstance(r, list) for r in node)
    return rows or _is_flat(node)


def _matrix_keys(data: dict[Any, Any]) -> list[str]:
    """Name the 4x4 matrices of a mapping, one level down too (Kalibr's ``cam1/T_cn_cnm1``)."""
    found: list[str] = []
    for key, node in data.items():
        if _is_matrix(node):
            found.append(str(key))
        elif isinstance(node, dict):
            found += [f"{key}/{inner}" for inner, value in node.items() if _is_matrix(value)]
    return found


def _child(data: object, key: str, where: str) -> tuple[object, object]:
    """Return the node of ``data`` at ``key`` (``cam1/T_cn_cnm1``) and its last key as loaded."""
    node: Any = data
    written: object = key
    # a key holding a slash is one part: _matrix_keys lists it so ("no key a/b; ... a/b")
    whole = isinstance(data, dict) and any(str(k) == key for k in data)
    for part in [key] if whole else key.split("/"):
        found = [k for k in node if str(k) == part] if isinstance(node, dict) else []
        if not found:
            shown = _matrix_keys(data) if isinstance(data, dict) else []
            shown = shown or (sorted(map(str, data))[:8] if isinstance(data, dict) else [])
            msg = f"{where}: no key {key}; the keys: {', '.join(shown) or 'none'}"
            raise FormatError(msg)
        written = found[0]
        node = node[written]
    return node, written


#: How many of several matrices' keys the error lists (then "and N more"): the
#: ``ERROR:`` line of a 4-camera camchain (7 keys, its path said twice) ran to 226 columns.
_KEYS_SHOWN = 3


def _several(where: str, keys: list[str]) -> FormatError:
    """Refuse a document of several matrices and no key, listing a few of them.

    Examples
    --------
    >>> print(_several("c.yaml", ["a", "b", "c", "d", "e"]))
    c.yaml: expected one transform, got 5: a, b, c and 2 more; name one as FILE:KEY
    >>> print(_several("c.yaml", ["a", "b", "c", "d"]))  # "d", not "1 more"
    c.yaml: expected one transform, got 4: a, b, c, d; name one as FILE:KEY
    """
    named = listed([_short(k, 40) for k in keys], _KEYS_SHOWN)
    # FILE, not the file again: the line begins with it (a long path was said twice)
    return FormatError(
        f"{where}: expected one transform, got {len(keys)}: {named}; name one as FILE:KEY"
    )


def _from_document(data: object, where: str, key: str) -> np.ndarray:
    """Return the matrix of a JSON or YAML document, at ``key`` when given (``FILE:KEY``)."""
    node, place = data, _Place(where)
    if key:
        node, written = _child(data, key, where)
        place = place.under(key, written)
    if isinstance(node, list) or (isinstance(node, dict) and {"rows", "cols"} <= node.keys()):
        return _as_matrix(node, str(place))  # rows, 16 numbers or an OpenCV node: checked there
    if isinstance(node, dict) and not _layouts(node):
        keys = _matrix_keys(node)
        if len(keys) == 1:
            inner, written = _child(node, keys[0], str(place))
            return _as_matrix(inner, str(place.under(keys[0], written, join="/")))
        if keys:  # one would be taken and the others ignored: a silent choice
            raise _several(where, [f"{key}/{k}" if key else k for k in keys])
    return _from_mapping(node, place)


def _flat_rows(values: list[object], where: str) -> list[list[object]]:
    """Return 16 values as 4 rows, row-major, refusing a last row other than 0, 0, 0, 1.

    WHY the last row: the 16 numbers of a matrix are also printed column by column
    (Eigen's order), whose last four are the translation and 1; read row by row, they
    would make a matrix whose last row alone says it is no transform.
    """
    rows = [values[i : i + 4] for i in range(0, 16, 4)]
    last = [_number(v, f"{where}[3][{j}]") for j, v in enumerate(rows[3])]
    if last != [0.0, 0.0, 0.0, 1.0]:
        msg = (
            f"{where}: expected 16 numbers of a 4x4 transform, row by row, the last 4 being "
            f"0, 0, 0, 1, got {', '.join(f'{v:g}' for v in last)} (column by column?)"
        )
        raise FormatError(msg)
    return rows


def _as_matrix(rows: object, where: str) -> np.ndarray:
    """Return the 4x4 matrix of nested rows, or of OpenCV's ``{rows, cols, data}`` node."""
    if isinstance(rows, dict):  # EuRoC's T_BS: data row-major, rows x cols numbers
        n_rows, n_cols, data = rows.get("rows"), rows.get("cols"), rows.get("data")
        if not (type(n_rows) is int and type(n_cols) is int and isinstance(data, list)):
            got = sorted(map(str, rows))[:8]
            msg = f"{where}: expected keys rows, cols (integers) and data (a list), got {got}"
            raise FormatError(msg)
        if not (0 < n_rows <= 4 and 0 < n_cols <= 4):  # 16 numbers as 2 x 8 are no 4x4
            msg = (
                f"{where}: expected a 4x4 matrix (rows 4, cols 4), got rows {n_rows}, cols {n_cols}"
            )
            raise FormatError(msg)
        if len(data) != n_rows * n_cols:
            msg = (
                f"{where}: expected rows x cols = {n_rows * n_cols} numbers in data (rows "
                f"{n_rows}, cols {n_cols}), got {len(data)}"
            )
            raise FormatError(msg)
        rows = [data[i : i + n_cols] for i in range(0, len(data), n_cols)]
    elif _is_flat(rows):  # msckf_vio's T_cam_imu: [16 numbers], as OpenCV's data
        rows = _flat_rows(rows, where)
    # WHY each cell first: NumPy converts a string with Python's float, so a JSON or YAML
    # cell "1_000" or "١٢" (Arabic-Indic 12) was read as 1000.0 or 12.0.
    for i, row in enumerate(rows if isinstance(rows, list) else []):
        for j, value in enumerate(row if isinstance(row, list) else [row]):
            _number(value, f"{where}[{i}][{j}]")
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
        The file; ``FILE:KEY`` (``camchain.yaml:cam1/T_cn_cnm1``), when no file is named
        so, the 4x4 matrix of a JSON or YAML file under that key (module docstring).
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
        Unreadable content, a missing key, a non-unit quaternion, several matrices and no
        key; the message names the file (and the flag).
    FileNotFoundError
        No such file.

    Warns
    -----
    DataWarning
        A rotation block off orthonormal by printed rounding, replaced (module docstring).

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
    file, key = _file_and_key(path)
    where = f"{flag} {file}" if flag else str(file)
    try:
        raw = read_input(file, source=where, document=True)
    except (FileNotFoundError, IsADirectoryError) as err:
        raise named_open_error(err, where, what="a transform file") from err
    lines: list[int] | None = None  # the file line of each row, of a text matrix
    if raw.startswith(b"\x93NUMPY"):
        matrix = _as_matrix(array_from_npy(raw, where=where, kinds="fiu"), where)
    else:
        text = raw.decode("utf-8", errors="replace")
        matrix, lines = _from_text(text, file, where, key)
    if key and (lines is not None or raw.startswith(b"\x93NUMPY")):
        msg = f"{where}: a matrix file has no keys, got :{key}"
        raise FormatError(msg)
    bad = np.argwhere(~np.isfinite(matrix))
    if bad.size:
        row, col = (int(v) for v in bad[0])
        at = f"{where}, line {lines[row]}, column {col + 1} ({_CELLS[col]})" if lines else where
        msg = f"{at}: expected finite numbers, got {float(matrix[row, col])!r}"
        raise FormatError(msg)
    far = np.abs(matrix[:3, 3]) > POSITION_LIMIT_M  # it would move poses past it
    if far.any():
        at = f"{where}, line {lines[int(np.argmax(far))]}" if lines else where
        msg = (
            f"{at}: expected a translation within +-{POSITION_LIMIT_M:g} m, got "
            f"{matrix[:3, 3].tolist()}"
        )
        raise FormatError(msg)
    return tuple(float(v) for v in _rounded_block(matrix, where).ravel())


def _rounded_block(matrix: np.ndarray, where: str) -> np.ndarray:
    """Return ``matrix`` with a rotation block off by printed rounding made a rotation.

    WHY: EuRoC's own ``vicon0/sensor.yaml`` (5 decimals, ``RᵀR`` 7.4e-6 off ``I``) was
    refused by the settings' 1e-6 with no way through but retyping it. A block that the
    settings take is returned bit for bit; one further off than
    :data:`_ROUNDED_BLOCK_TOL` (a typo, a shear, a scale), or a reflection, is left for
    them to refuse, saying by how much.
    """
    probe = np.eye(4)
    probe[:3, :3] = matrix[:3, :3]  # the block alone: a wrong last row is refused later
    if not transform_problem(tuple(float(v) for v in probe.ravel()), rigid=False):
        return matrix
    block = matrix[None, :3, :3]
    off = float(rotation_matrix_deviation(block)[0])  # inf for a reflection
    if not off <= _ROUNDED_BLOCK_TOL:
        return matrix
    out = np.array(matrix, dtype=np.float64)
    out[:3, :3] = nearest_rotation_matrix(block)[0]
    report(
        f"{where}: the 3x3 block is not a rotation (max |R Rᵀ - I| {off:.2g}): replaced by "
        "the nearest rotation - the rounding of printed digits",
        strict=False,
        kind=ROUNDED_ROTATIONS,
    )
    return out


def _file_and_key(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """Split ``FILE:KEY`` into the file and the key when no file is named ``FILE:KEY``.

    Examples
    --------
    >>> [str(part) for part in _file_and_key("no/such.yaml:cam0")]  # no such.yaml: a name
    ['no/such.yaml:cam0', '']
    """
    file = Path(path)
    head, colon, key = os.fspath(path).rpartition(":")
    if colon and key and not file.exists() and Path(head).is_file():
        return Path(head), key
    return file, ""


def _opencv_keys(text: str) -> str:
    """Return ``text`` with a space after each OpenCV ``key:value`` key's colon.

    WHY only where a block mapping's key stands (the first line, a line under a key
    whose value is empty or a tag, a sibling of an open mapping's keys): a line of a
    block scalar, a multi-line string or a flow list that began ``name:`` was rewritten
    too, and ``note: calibrated with`` / ``  kalibr:2024 data`` (one plain string, read
    before) was refused as "mapping values are not allowed here" at text never written.
    """
    lines = text.split("\n")
    indents: list[int] = []  # the indents of the open block mappings' keys, outermost first
    last, opens = -1, True  # the last content line's indent; whether a mapping opens below it
    for n, line in enumerate(lines):
        body = line.lstrip(" ")
        if not body.strip() or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        if body.rstrip() == "---":  # a document's start: its first line is a key's place
            indents, last, opens = [], -1, True
            continue
        while indents and indents[-1] > indent:
            indents.pop()
        key = _OPENCV_KEY.fullmatch(line)
        if key and ((indent > last and opens) or (indents and indents[-1] == indent)):
            if line[key.end(1) + 1 : key.end(1) + 2] not in ("", " ", "\t"):
                lines[n] = f"{key[1]}: {line[key.end(1) + 1 :]}"
            if not indents or indents[-1] < indent:
                indents.append(indent)
            opens = _OPENS_MAPPING.fullmatch(key[2]) is not None
        else:
            opens = False
        last = indent
    return "\n".join(lines)


def _from_text(
    text: str, file: Path, where: str, key: str = ""
) -> tuple[np.ndarray, list[int] | None]:
    """Return the matrix of a JSON, YAML or text file, and the file line of each text row."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")) and file.suffix.lower() not in (".yaml", ".yml"):
        data: Any = parse_json(text, source=where)
        return _from_document(data, where, key), None
    if _YAML_KEY.search(text):
        require("yaml", "yaml", feature="YAML transform files")
        # LF, as PyYAML ends lines at CR LF and CR too: the header and tag (found before LF)
        # of a config saved on Windows were left to the loader, which refused them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text, opencv = _OPENCV_HEADER.subn("", text)  # a blank line 1: lines keep numbers
        if opencv:  # OpenCV's dialect: "key:value" is a key (ORB-SLAM3's data:[...])
            text = _opencv_keys(text)
        if "!!opencv-" in text:
            text = _OPENCV_TAG.sub(lambda found: _opencv_tag(found, text, where), text)
        # numbers: the table's rule too; keys: names, as written (``on:``, not True)
        data = parse_yaml(text, source=where, numbers=NUMBER_TOKEN, keys_as_written=True)
        return _from_document(data, where, key), None
    # WHY the trajectory readers' table: each cell "1_000" and "١٢" (which float() reads)
    # are refused as they refuse them, and a bad cell is named by its line and column; a
    # typo fell through to the YAML reader ("expected keys ..., got str").
    table = parse_table(text, source=where, columns=_CELLS)
    lines = table.line_numbers(np.arange(min(len(table.values), 5)))
    if len(lines) != 4:
        at = f"{where}, line {lines[-1]}"
        got = "a 5th row" if len(lines) > 4 else f"{len(lines)} row{'s' * (len(lines) != 1)}"
        msg = f"{at}: expected a 4x4 matrix (4 rows of 4 numbers), got {got}"
        raise FormatError(msg)
    return table.values, lines


def write_transform(
    path: str | os.PathLike[str],
    matrix: ArrayLike,
    *,
    layout: Literal["evo", "pose", "transform", "matrix"] | None = None,
    force: bool = False,
) -> Path:
    """Write one SE(3) or Sim(3) transform in a layout :func:`read_transform` reads.

    Parameters
    ----------
    path : path-like
        The file; its suffix chooses the format (module docstring). Written atomically.
    matrix : array_like, shape (4, 4) or (16,), float
        The transform ``[s R, t; 0, 1]`` (translation in metres), or its 16 numbers
        row by row (``EvaluationSettings.transform_right``,
        :meth:`~robot_msgs.compare.Extrinsic.transform_right`).
    layout : {"evo", "pose", "transform", "matrix"}, optional
        For JSON and YAML: evo's keys ``x y z qx qy qz qw`` (plus ``scale`` when not 1,
        the default), a ROS ``Pose`` (``position``, ``orientation``), a ROS ``Transform``
        (``translation``, ``rotation``) or ``{matrix: [...]}``. Text and ``.npy`` files
        hold the matrix.
    force : bool
        Replace an existing file.

    Returns
    -------
    Path
        The path written.

    Raises
    ------
    ValidationError
        Not a finite SE(3)/Sim(3) matrix; a scale in a ROS layout (which has none); a
        quaternion layout for a text or ``.npy`` file; an unknown layout.
    OutputExistsError
        The file exists and ``force`` is false.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "T.json")
    >>> turn = [[0.0, -1, 0, 1], [1, 0, 0, 2], [0, 0, 1, 3], [0, 0, 0, 1]]
    >>> write_transform(path, turn).read_text()[:51]
    '{"x": 1.0, "y": 2.0, "z": 3.0, "qx": 0.0, "qy": 0.0'
    >>> [round(v, 12) + 0.0 for v in read_transform(path)[:4]]  # to rounding
    [0.0, -1.0, 0.0, 1.0]
    """
    file = Path(path)
    values = _checked_transform(matrix)
    suffix = file.suffix.lower()
    kind = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".npy": "npy"}.get(suffix, "text")
    if layout is not None and layout not in TRANSFORM_LAYOUTS:
        msg = f"Expected a layout in {TRANSFORM_LAYOUTS}, got {layout!r}"
        raise ValidationError(msg, field="layout")
    chosen = layout or ("evo" if kind in ("json", "yaml") else "matrix")
    if kind in ("text", "npy") and chosen != "matrix":
        msg = (
            f"{file}: a {kind} transform file holds the matrix; write the {chosen!r} layout "
            "to a .json or .yaml file"
        )
        raise ValidationError(msg, field="layout")
    if kind == "npy":
        buffer = io.BytesIO()
        np.save(buffer, values, allow_pickle=False)
        return write_atomic(file, buffer.getvalue(), force=force)
    if kind == "text":
        rows = "\n".join(" ".join(repr(float(v)) for v in row) for row in values)
        return write_atomic(file, rows + "\n", force=force)
    mapping = _layout_mapping(values, chosen, file)
    if kind == "json":
        return write_atomic(file, json.dumps(mapping) + "\n", force=force)
    return write_atomic(file, _yaml_text(mapping), force=force)


def _checked_transform(matrix: ArrayLike) -> np.ndarray:
    try:
        values = np.array(matrix, dtype=np.float64)
    except (TypeError, ValueError) as err:
        msg = f"Expected a 4x4 transform of numbers, got {matrix!r}"
        raise ValidationError(msg, field="matrix") from err
    if values.shape == (16,):
        values = values.reshape(4, 4)
    if values.shape != (4, 4) or not np.isfinite(values).all():
        msg = f"Expected a finite 4x4 transform (or 16 numbers), got {values.tolist()}"
        raise ValidationError(msg, field="matrix")
    if transform_problem(tuple(float(v) for v in values.ravel()), rigid=False):
        msg = f"Expected an SE(3) or Sim(3) matrix [s R, t; 0 0 0 1], got {values.tolist()}"
        raise ValidationError(msg, field="matrix")
    return values


def _layout_mapping(values: np.ndarray, layout: str, file: Path) -> dict[str, Any]:
    if layout == "matrix":
        return {"matrix": [[float(v) for v in row] for row in values]}
    block = values[:3, :3]
    scale = math.sqrt(float(np.trace(block.T @ block)) / 3.0)
    x, y, z, w = (float(v) for v in quat_xyzw_from_matrix((block / scale)[None])[0])
    px, py, pz = (float(v) for v in values[:3, 3])
    if layout == "evo":
        flat = {"x": px, "y": py, "z": pz, "qx": x, "qy": y, "qz": z, "qw": w}
        return flat if scale == 1.0 else {**flat, "scale": scale}
    if not abs(scale - 1.0) <= _ROTATION_TOL:
        msg = f"{file}: a ROS {layout} has no scale, got a Sim(3) with scale {scale:.9g}"
        raise ValidationError(msg, field="layout")
    place, turn = ("position", "orientation") if layout == "pose" else ("translation", "rotation")
    return {place: {"x": px, "y": py, "z": pz}, turn: {"x": x, "y": y, "z": z, "w": w}}


def _yaml_float(value: float) -> str:
    """``repr`` with a point in the mantissa: YAML 1.1 (PyYAML) reads ``1e-08`` as a string."""
    text = repr(value)
    mantissa, e, exponent = text.partition("e")
    return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else text


def _yaml_text(mapping: dict[str, Any]) -> str:
    """Block YAML of a mapping of numbers, or of mappings or lists of numbers (no PyYAML)."""
    lines: list[str] = []
    for key, value in mapping.items():
        if isinstance(value, dict):
            lines.append(f"{key}:")
            lines.extend(f"  {k}: {_yaml_float(v)}" for k, v in value.items())
        elif isinstance(value, list):
            lines.append(f"{key}:")
            lines.extend("  - [" + ", ".join(_yaml_float(v) for v in row) + "]" for row in value)
        else:
            lines.append(f"{key}: {_yaml_float(value)}")
    return "\n".join(lines) + "\n"
