"""Fuzz: the text readers (TUM, KITTI, EuRoC, LLA, detection) at edge values.

Two laws, over generated files and trajectories:

1. Nothing but :class:`~robot_msgs.errors.RobotMsgsError` escapes a reader, and no
   warning but the package's ``DataWarning`` (NumPy's overflow and invalid-value warnings
   escaped where inf - inf, 1e308 + 1e308 or a 3x3 block of 1e200 was summed or
   multiplied), on tables of the right width holding NaN, +-inf, -0.0, subnormals, 1e308,
   integers past int64, under the headers the readers know, with any separator, LF or
   CR LF, with or without a byte-order mark.
2. What a writer writes reads back equal: positions exactly, TUM stamps exactly, EuRoC
   stamps to the float64 step or the nanosecond (its unit), whatever the values.
"""

from __future__ import annotations

import contextlib
import tempfile
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, RobotMsgsError, ValidationError
from robot_msgs.io import (
    read_euroc,
    read_kitti,
    read_lla,
    read_trajectory,
    read_tum,
    write_euroc,
    write_kitti,
    write_tum,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Callable

_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_EDGE = [
    "nan", "inf", "-inf", "-0.0", "0", "1", "-1", "0.5", "1e308", "1e309", "5e-324", "1e-320",
    "9" * 30, str(2**63), str(2**63 - 1), str(-(2**63)), "1403715524907143168",
    "1600000000000000", "1e12", "1e200", "-1e300",
]  # fmt: skip
_NUMBER = st.one_of(
    st.sampled_from(_EDGE),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(2**70), 2**70).map(str),
    st.floats(-2.0, 2.0).map(repr),
)
_HEADERS = [
    "", "# t[s] x y z qx qy qz qw\n", "# t[ns] x y z qx qy qz qw\n",
    "#timestamp [ns],px,py,pz,qw,qx,qy,qz\n", "#timestamp [ns] px py pz qw qx qy qz\n",
    "timestamp,x\n", "\ufeff",
]  # fmt: skip
_READERS: dict[str, tuple[Callable[..., PoseTrajectory], int]] = {
    "tum": (read_tum, 8),
    "kitti": (read_kitti, 12),
    "euroc": (read_euroc, 8),
    "euroc-wide": (read_euroc, 10),
    "lla": (read_lla, 4),
    "detected": (read_trajectory, 8),
    "detected-12": (read_trajectory, 12),
}


def _read(reader: str, text: str, *, strict: bool) -> None:
    read, _ = _READERS[reader]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.txt"
        path.write_text(text, encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            warnings.simplefilter("ignore", DataWarning)
            with contextlib.suppress(RobotMsgsError):
                read(path, strict=strict)


@_SETTINGS
@given(data=st.data(), reader=st.sampled_from(sorted(_READERS)), strict=st.booleans())
def test_text_readers_raise_only_our_errors_at_edge_values(
    data: st.DataObject, reader: str, strict: bool
) -> None:
    width = _READERS[reader][1]
    header = data.draw(st.sampled_from(_HEADERS))
    rows = data.draw(st.lists(st.lists(_NUMBER, min_size=width, max_size=width), max_size=6))
    separator = data.draw(st.sampled_from([" ", ",", "\t", ", "]))
    end = data.draw(st.sampled_from(["\n", "\r\n"]))
    _read(reader, header + "".join(separator.join(row) + end for row in rows), strict=strict)


@pytest.mark.parametrize(
    ("reader", "text"),
    [
        ("tum", "0 0 0 0 0 0 inf -inf\n1 0 0 0 0 0 0 1\n"),  # inf - inf
        ("detected-12", "0 0 0 -inf nan inf -0.0 inf nan -inf nan nan\n"),
        ("detected-12", "1.7e308 1 0 0 0 0 1 0 0 0 0 1\n1.7e308 1 0 0 0 0 1 0 0 0 0 1\n"),
        ("kitti", "1e200 0 0 0 0 1e200 0 0 0 0 1e200 0\n"),  # R Rᵀ and det past float64
    ],
)
def test_a_sum_or_product_past_float64_in_a_reader_is_no_numpy_warning(
    reader: str, text: str
) -> None:
    """The cases found: NumPy's overflow or invalid-value warning escaped (an error here)."""
    _read(reader, text, strict=False)


_COORD = st.one_of(
    st.floats(-1e6, 1e6),
    st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1e-300, 1e150, -1e150, 1e100]),
)
_STAMP = st.one_of(
    st.floats(0.0, 4e9),
    st.sampled_from([0.0, 1.0, 1e6, 1e9, 1.6e9, 1e12, 1e15, 1e-9]),
    st.integers(0, 10**6).map(float),
)
_FORMATS: dict[str, tuple[Callable[..., object], Callable[..., PoseTrajectory]]] = {
    "tum": (write_tum, read_tum),
    "euroc": (write_euroc, read_euroc),
    "kitti": (write_kitti, read_kitti),
}


def _euroc_refusal(traj: PoseTrajectory) -> str | None:
    """What write_euroc refuses in ``traj``: a stamp past int64 nanoseconds, two on one."""
    if bool((np.abs(traj.stamps_s) >= 9.2e9).any()):
        return "does not fit int64 nanoseconds"
    if bool((np.diff(traj.nanoseconds("ns")) == 0).any()):
        return "the same integer nanosecond"
    return None


@_SETTINGS
@given(
    stamps=st.lists(_STAMP, min_size=1, max_size=6, unique=True),
    data=st.data(),
    fmt=st.sampled_from(sorted(_FORMATS)),
    detected=st.booleans(),
)
def test_what_a_writer_writes_reads_back_equal(
    stamps: list[float], data: st.DataObject, fmt: str, detected: bool
) -> None:
    n = len(stamps)
    xyz = data.draw(st.lists(st.lists(_COORD, min_size=3, max_size=3), min_size=n, max_size=n))
    quat = np.array(
        data.draw(
            st.lists(
                st.lists(st.floats(-1, 1), min_size=4, max_size=4).filter(
                    lambda q: sum(v * v for v in q) > 0.1
                ),
                min_size=n,
                max_size=n,
            )
        )
    )
    traj = PoseTrajectory(
        stamps_s=np.sort(stamps),
        positions_xyz=np.array(xyz),
        orientations_quat_xyzw=quat / np.linalg.norm(quat, axis=1)[:, None],
    )
    write, read = _FORMATS[fmt]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"t.{fmt}"
        refusal = _euroc_refusal(traj) if fmt == "euroc" else None
        if refusal is not None:  # refused, and only then (test_euroc)
            with pytest.raises(ValidationError, match=refusal):
                write(path, traj)
            return
        write(path, traj)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)  # a rate, a repeated stamp: said
            back = read_trajectory(path) if detected else read(path)
    assert np.array_equal(back.positions_xyz, traj.positions_xyz)
    if fmt == "kitti":  # no stamps; rotations through a matrix
        return
    step = np.maximum(np.spacing(traj.stamps_s), 5e-10) if fmt == "euroc" else 0.0
    assert np.all(np.abs(back.stamps_s - traj.stamps_s) <= step)
    assert np.allclose(back.orientations_quat_xyzw, traj.orientations_quat_xyzw, atol=1e-12)
