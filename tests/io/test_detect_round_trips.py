"""The round-trip law of every road a trajectory takes: back equal, or the loss said.

A road (``to_path``/``from_path``, each writer then its reader) returns every field its
format holds equal, and a field it cannot hold is either named in the road's docstring
(it is lost the same way for every trajectory: ``frame_id`` in a text file) or, where
losing it changes the rows read back (frame indices as seconds, rotation blocks as their
nearest rotations), said by a ``DataWarning``. The to_dict/JSON/pickle laws of the
message itself are drawn for every type by ``tests/msg/test_base_laws.py``.
"""

from __future__ import annotations

import importlib.util
import re
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.io import read_trajectory, write_trajectory
from robot_msgs.io.kitti import read_kitti
from robot_msgs.limits import POSITION_LIMIT_M
from robot_msgs.rotations import matrix_from_quat_xyzw
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.typing import Float64Array

FIELDS = (
    "stamps_s",
    "positions_xyz",
    "orientations_quat_xyzw",
    "frame_id",
    "child_frame_id",
    "covariance_6x6",
    "stamps_ns",
    "stamps_are_frames",
    "rotation_matrices",
    "orientations_from_matrices",
    "stamps_repeat",
)
#: Losing these changes the rows read back: every writer but KITTI's says so.
SAID = {
    "stamps_are_frames": "the stamps are frame indices",
    "rotation_matrices": "rotation blocks kept as given",
}
#: What ``to_path`` returns (the rest its docstring names as lost).
PATH_KEEPS = {"stamps_s", "positions_xyz", "orientations_quat_xyzw", "frame_id", "stamps_ns"}

# Edge values a trajectory may hold: -0.0, subnormals, the position limit, stamps at the
# edges of a ROS header (int32 seconds) and of int64 nanoseconds.
_COORDS = st.floats(-POSITION_LIMIT_M, POSITION_LIMIT_M) | st.sampled_from(
    [-0.0, 5e-324, -POSITION_LIMIT_M, POSITION_LIMIT_M, 1e-300]
)
_STAMPS = st.floats(0.0, 2.0**31 - 1.0) | st.sampled_from(
    [-0.0, 5e-324, 1e-9, 0.3, 1305031102.19433, 2.0**31 - 1.0, 2147483647.999999]
)


@st.composite
def trajectories(draw: st.DrawFn) -> PoseTrajectory:
    """A valid trajectory of 1 to 5 poses, every optional field drawn set or not."""
    n = draw(st.integers(1, 5))
    frames = draw(st.booleans())
    if frames:
        stamps = np.arange(float(n))
    else:
        drawn = draw(st.lists(_STAMPS, min_size=n, max_size=n, unique=True))
        stamps = np.array(sorted(drawn, key=lambda t: (t, not np.signbit(t))))
        assume(bool((np.diff(stamps) > 0).all()))
    xyz = np.array(draw(st.lists(st.tuples(_COORDS, _COORDS, _COORDS), min_size=n, max_size=n)))
    raw = draw(
        st.lists(
            st.tuples(*[st.floats(-1.0, 1.0)] * 4) | st.just((0.0, -0.0, 0.0, 1.0)),
            min_size=n,
            max_size=n,
        )
    )
    quats = np.array(raw, dtype=np.float64).reshape(n, 4)
    norms = np.linalg.norm(quats, axis=1)
    assume(bool((norms > 1e-3).all()))
    quats /= norms[:, None]
    cov = np.diag(draw(st.lists(st.floats(0.0, 1e6), min_size=6, max_size=6)))
    blocks = matrix_from_quat_xyzw(quats) + draw(st.sampled_from([0.0, 1e-7])) * np.eye(3)
    return PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=xyz,
        orientations_quat_xyzw=quats,
        frame_id=draw(st.sampled_from(["", "map"])),
        child_frame_id=draw(st.sampled_from(["", "base_link"])),
        covariance_6x6=np.tile(cov, (n, 1, 1)) if draw(st.booleans()) else None,
        stamps_are_frames=frames,
        rotation_matrices=blocks if draw(st.booleans()) else None,
        orientations_from_matrices=draw(st.booleans()),
    )


def _rotations(traj: PoseTrajectory) -> Float64Array:
    """The rotation of each orientation, what a writer of quaternions writes."""
    return matrix_from_quat_xyzw(traj.orientations_quat_xyzw)


def _same(a: Any, b: Any) -> bool:
    """Equal bit for bit (-0.0 is not 0.0), arrays or not."""
    if a is None or b is None or isinstance(a, (str, bool)):
        return a is b or a == b
    return np.asarray(a).shape == np.asarray(b).shape and np.asarray(a).tobytes() == (
        np.asarray(b).tobytes()
    )


def _stamps_back(traj: PoseTrajectory, back: PoseTrajectory) -> None:
    """Stamps through nanoseconds: those kept, seconds within a float64 step or the ns."""
    assert back.stamps_ns is not None
    assert back.stamps_ns.tolist() == traj.nanoseconds().tolist()
    step = np.maximum(np.spacing(np.abs(traj.stamps_s)), 1e-9)
    assert (np.abs(back.stamps_s - traj.stamps_s) <= step).all()


def test_to_path_names_every_field_a_path_does_not_hold() -> None:
    """The docstring is the law's other half: a field added to PoseTrajectory and not to
    a Path is named there, or this fails."""
    assert set(FIELDS) == set(PoseTrajectory.__struct_fields__)
    doc = PoseTrajectory.to_path.__doc__ or ""
    lost = doc[doc.index("It holds none of") :]
    for name in set(FIELDS) - PATH_KEEPS:
        assert f"``{name}``" in lost, name


@settings(max_examples=60, deadline=None)
@given(traj=trajectories())
def test_a_path_round_trip_returns_what_a_path_holds(traj: PoseTrajectory) -> None:
    try:
        traj.nanoseconds(distinct=True)
    except ValidationError:
        assume(False)  # two stamps on one nanosecond: from_path refuses the path, said
    back = PoseTrajectory.from_path(traj.to_path(), child_frame_id=traj.child_frame_id)
    for name in PATH_KEEPS - {"stamps_s", "stamps_ns"}:
        assert _same(getattr(back, name), getattr(traj, name)), name
    _stamps_back(traj, back)
    assert back.child_frame_id == traj.child_frame_id
    if traj.stamps_ns is not None or (back.stamps_s == traj.stamps_s).all():
        lossless = traj.replace(
            stamps_s=back.stamps_s,
            stamps_ns=back.stamps_ns,
            covariance_6x6=None,
            rotation_matrices=None,
            stamps_are_frames=False,
            orientations_from_matrices=False,
        )
        assert back == lossless


#: The bag roads write and read through rosbags (the bags extra; CI's Python 3.10 job has none).
_BAGS = pytest.mark.skipif(
    importlib.util.find_spec("rosbags") is None, reason="bag files need rosbags (the bags extra)"
)
_ROADS = [
    "tum",
    "euroc",
    "kitti",
    *(pytest.param(road, marks=_BAGS) for road in ("mcap poses", "db3 path", "db3 odometry")),
]


def _write_read(folder: Path, road: str, traj: PoseTrajectory) -> PoseTrajectory:
    fmt, _, layout = road.partition(" ")
    suffix = {"euroc": "csv", "kitti": "txt"}.get(fmt, fmt)
    out = folder / f"t.{suffix}"
    files = write_trajectory(out, traj, fmt, layout=layout or "poses", force=True)  # type: ignore[arg-type]
    if fmt == "kitti":
        times = files[1] if len(files) > 1 else None
        if traj.rotation_matrices is not None:
            return read_kitti(out, times_path=times, rotations="as_given")
        return read_kitti(out, times_path=times)
    if layout:
        return read_trajectory(out, topic="/trajectory")
    return read_trajectory(out, format=fmt if fmt == "euroc" else None)


@pytest.mark.parametrize("road", _ROADS)
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(traj=trajectories())
def test_every_writer_reads_back_what_its_format_holds_and_says_what_changes(
    road: str, traj: PoseTrajectory, tmp_path: Path
) -> None:
    fmt = road.split(maxsplit=1)[0]
    if fmt in ("euroc", "mcap", "db3"):
        try:
            traj.nanoseconds("ns" if fmt == "euroc" else "sec_nsec", distinct=True)
        except ValidationError:
            assume(False)  # refused by the writer, naming the stamps (tests of each writer)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = _write_read(tmp_path, road, traj)
    said = " ".join(str(w.message) for w in caught if issubclass(w.category, DataWarning))
    keeps_all = fmt == "kitti"
    for name, words in SAID.items():
        lost = bool(getattr(traj, name) is not None and getattr(traj, name) is not False)
        blocks = traj.rotation_matrices
        if name == "rotation_matrices" and blocks is not None:  # rotations lose nothing
            lost = bool(np.abs(blocks - _rotations(traj)).max() > 1e-12)
        assert (words in said) == (lost and not keeps_all), (name, said)
    assert _same(back.positions_xyz, traj.positions_xyz)
    if fmt == "kitti":
        assert back.orientations_from_matrices  # by construction: read from blocks
        assert back.stamps_are_frames == traj.stamps_are_frames
        if traj.rotation_matrices is not None:
            assert _same(back.rotation_matrices, traj.rotation_matrices)
        np.testing.assert_allclose(
            np.abs(np.einsum("ij,ij->i", back.orientations_quat_xyzw, traj.orientations_quat_xyzw)),
            1.0,
            atol=1e-12,
        )
        assert _same(back.stamps_s, traj.stamps_s)
        return
    assert _same(back.orientations_quat_xyzw, traj.orientations_quat_xyzw)
    assert not back.stamps_are_frames
    assert back.rotation_matrices is None
    assert not back.orientations_from_matrices
    if fmt == "tum":
        assert _same(back.stamps_s, traj.stamps_s)
    elif fmt == "euroc":
        assert back.stamps_ns is None
        step = np.maximum(np.spacing(np.abs(traj.stamps_s)), 1e-9)
        assert (np.abs(back.stamps_s - traj.stamps_s) <= step).all()
    else:
        _stamps_back(traj, back)
        assert back.frame_id == traj.frame_id
        odometry = road.endswith("odometry")
        assert back.child_frame_id == (traj.child_frame_id if odometry else "")
        kept = traj.covariance_6x6 if odometry else None
        if kept is not None and not kept.any():
            kept = None  # all zero is ROS's "unknown": read as none, with a note
        assert _same(back.covariance_6x6, kept)


def test_a_kitti_file_of_frame_indices_keeps_them_by_construction(tmp_path: Path) -> None:
    """No times file is written for frame indices: read back, they are frame indices."""
    traj = PoseTrajectory(
        stamps_s=np.array([0.0, 1.0]),
        positions_xyz=np.array([[0.0, 0.0, 0.0], [1.0, -0.0, 2.0]]),
        orientations_quat_xyzw=np.array([[0.0, 0.0, 0.0, 1.0]] * 2),
        stamps_are_frames=True,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        files = write_trajectory(tmp_path / "k.txt", traj, "kitti")
    assert [f.name for f in files] == ["k.txt"]
    back = read_trajectory(tmp_path / "k.txt")
    assert back.stamps_are_frames
    assert _same(back.positions_xyz, traj.positions_xyz)


def test_rotation_blocks_lost_are_said_with_how_far_they_are(tmp_path: Path) -> None:
    """Blocks read as given were written to TUM as their nearest rotations, silently."""
    block = np.diag([1.0, 1.0, 1.0]) + np.array([[0, 3e-7, 0], [-3e-7, 0, 0], [0, 0, 2e-7]])
    traj = PoseTrajectory(
        stamps_s=np.array([1.0]),
        positions_xyz=np.zeros((1, 3)),
        orientations_quat_xyzw=np.array([[0.0, 0.0, 0.0, 1.0]]),
        rotation_matrices=block[None],
    )
    said = r"t\.tum: the rotation blocks kept as given .* up to 3e-07 off \(max \|M - R\(q\)\|\)"
    with pytest.warns(DataWarning, match=said) as caught:
        write_trajectory(tmp_path / "t.tum", traj)
    assert [w.filename for w in caught] == [__file__]  # the caller's line, not ours
    assert not re.search("frame indices", str(caught[0].message))


def test_rotation_blocks_that_are_rotations_lose_nothing_unsaid(tmp_path: Path) -> None:
    """Blocks that are rotations to float64 rounding were said lost, "up to 2.2e-16 off".

    read_kitti itself takes a block within 1e-12 of a rotation as exact (no warning);
    written as its quaternion it comes back the same to rounding: nothing to say.
    """
    kitti = tmp_path / "k.txt"
    kitti.write_text("1 0 0 0 0 1 0 0 0 0 1 0\n0.36 0.48 -0.8 1 -0.8 0.6 0 2 0.48 0.64 0.6 3\n")
    (tmp_path / "t.txt").write_text("0\n1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # read_kitti: exact blocks, no note
        traj = read_kitti(kitti, times_path=tmp_path / "t.txt", rotations="as_given")
        write_trajectory(tmp_path / "t.tum", traj)  # nothing lost: no DataWarning
    assert traj.rotation_matrices is not None
    assert 0 < np.abs(traj.rotation_matrices - _rotations(traj)).max() < 1e-15
