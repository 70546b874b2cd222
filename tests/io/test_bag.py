"""Bags written here with rosbags, holding hand-chosen poses, read back by every route."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import struct
import sys
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, FormatError, RobotMsgsError, TopicError
from robot_msgs.io import POSE_TYPES, TopicInfo, list_topics, parse_tf_id, read_bag, read_trajectory
from robot_msgs.io.bag import _a_bug, open_bag
from robot_msgs.io.bag_messages import read_records
from robot_msgs.io.clean import reading_notes
from tests.hostile import deadline, sqlite_held_open

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.trajectory import PoseTrajectory
    from tests.io.conftest import BagMaker, Pose

pytest.importorskip("rosbags")

S = math.sqrt(0.5)
ID = (0.0, 0.0, 0.0, 1.0)
# (sec, nanosec, frame, xyz, quat_xyzw); stamps 10.25 s, 11.5 s, 12.000000001 s.
POSES = [
    (10, 250_000_000, "map", (1.0, 2.0, 3.0), ID),
    (11, 500_000_000, "map", (4.0, 5.0, 6.0), (0.0, 0.0, S, S)),
    (12, 1, "map", (7.0, 8.0, 9.0), (1.0, 0.0, 0.0, 0.0)),
]
STAMPS = [10 + 250_000_000 * 1e-9, 11 + 500_000_000 * 1e-9, 12 + 1 * 1e-9]
KINDS = ["ros1", "sqlite3", "mcap"]


def open_path(bag: Path, kind: str) -> Path:
    # A ROS 2 MCAP bag is a folder; also read its .mcap file on its own.
    return next(bag.glob("*.mcap")) if kind == "mcap" else bag


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "msgtype",
    [
        "geometry_msgs/msg/PoseStamped",
        "geometry_msgs/msg/PoseWithCovarianceStamped",
        "geometry_msgs/msg/TransformStamped",
        "nav_msgs/msg/Odometry",
    ],
)
def test_read_bag_reads_stamps_positions_and_orientations_of_each_pose_type(
    bags: BagMaker, kind: str, msgtype: str
) -> None:
    msgs = [bags.message(kind, msgtype, p) for p in POSES]
    path = open_path(bags.write("poses", kind, {"/est": (msgtype, msgs)}), kind)
    traj = read_bag(path, "/est")
    assert traj.stamps_s.tolist() == STAMPS
    assert traj.positions_xyz.tolist() == [list(p[3]) for p in POSES]
    assert traj.orientations_quat_xyzw.tolist() == [list(p[4]) for p in POSES]
    assert traj.frame_id == "map"
    has_child = msgtype in {"geometry_msgs/msg/TransformStamped", "nav_msgs/msg/Odometry"}
    assert traj.child_frame_id == ("base_link" if has_child else "")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["recording", "recording.dat", "RECORDING.BAG", "r.MCAP"])
def test_a_bag_file_known_by_its_magic_bytes_is_read_whatever_its_name(
    bags: BagMaker, kind: str, name: str
) -> None:
    """A bag file named without its extension was detected by its magic bytes, then
    refused: "cannot open as a ROS bag (AnyReaderError: Unrecognized storage format
    '')", as rosbags chooses its reader by the extension."""
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("poses", kind, {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    file = bag if kind == "ros1" else next(bag.glob("*.db3" if kind == "sqlite3" else "*.mcap"))
    renamed = file.rename(bags.folder / name)  # the file on its own (no metadata.yaml)
    before = sorted(bags.folder.rglob("*"))
    assert list_topics(renamed) == (TopicInfo("/est", "geometry_msgs/msg/PoseStamped", 3),)
    traj = read_trajectory(renamed)
    assert traj.stamps_s.tolist() == STAMPS
    assert traj.positions_xyz.tolist() == [list(p[3]) for p in POSES]
    assert sorted(bags.folder.rglob("*")) == before  # nothing made beside it


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "msgtype", ["geometry_msgs/msg/PoseWithCovarianceStamped", "nav_msgs/msg/Odometry"]
)
def test_read_bag_keeps_the_pose_covariances_in_ros_order(
    bags: BagMaker, kind: str, msgtype: str
) -> None:
    # Pose i gets a covariance whose entry (r, c) is 100 i + 10 r + c, symmetrised.
    raw = [
        np.fromfunction(lambda r, c, i=i: 100.0 * i + 10.0 * np.minimum(r, c) + np.maximum(r, c),
                        (6, 6))
        for i in range(1, 4)
    ]  # fmt: skip
    msgs = [
        bags.message(kind, msgtype, p, covariance=c.ravel())
        for p, c in zip(POSES, raw, strict=True)
    ]
    traj = read_bag(open_path(bags.write("cov", kind, {"/est": (msgtype, msgs)}), kind), "/est")
    assert traj.covariance_6x6 is not None
    assert traj.covariance_6x6.tolist() == [c.tolist() for c in raw]
    assert traj.covariance_6x6[1, 2, 4] == 100.0 * 2 + 10.0 * 2 + 4  # row 2, column 4


def test_read_bag_drops_unknown_all_zero_covariances(bags: BagMaker) -> None:
    msgtype = "geometry_msgs/msg/PoseWithCovarianceStamped"
    zero = [bags.message("ros1", msgtype, p) for p in POSES]
    path = bags.write("zero", "ros1", {"/est": (msgtype, zero)})
    assert read_bag(path, "/est").covariance_6x6 is None  # and no warning: no data problem
    with reading_notes() as notes:  # a note, kept for the one who asks
        assert read_bag(path, "/est").covariance_6x6 is None
    assert [(str(n), n.kind, n.fixed) for n in notes] == [
        (
            f"{path} /est: covariances all zero on every message (ROS's 'unknown'): read as none",
            "unknown_covariances",
            False,
        )
    ]
    some = [bags.message("ros1", msgtype, POSES[0], covariance=np.eye(6).ravel()), *zero[1:]]
    path = bags.write("some", "ros1", {"/est": (msgtype, some)})
    with pytest.warns(DataWarning, match=r"2 of 3 messages have an all-zero \(unknown\)"):
        assert read_bag(path, "/est").covariance_6x6 is None


def test_a_covariance_follows_its_row_when_messages_are_sorted(bags: BagMaker) -> None:
    msgtype = "geometry_msgs/msg/PoseWithCovarianceStamped"
    shuffled = [POSES[1], POSES[0], POSES[2]]
    msgs = [
        bags.message("ros1", msgtype, p, covariance=(np.eye(6) * (k + 1)).ravel())
        for k, p in enumerate(shuffled)
    ]
    path = bags.write("sorted", "ros1", {"/est": (msgtype, msgs)})
    with pytest.warns(DataWarning, match=r"sorted by stamp"):
        traj = read_bag(path, "/est")
    assert traj.covariance_6x6 is not None
    assert traj.covariance_6x6[:, 0, 0].tolist() == [2.0, 1.0, 3.0]


@pytest.mark.parametrize("kind", KINDS)
def test_read_bag_gives_point_stamped_identity_rotations_with_a_warning(
    bags: BagMaker, kind: str
) -> None:
    msgs = [bags.message(kind, "geometry_msgs/msg/PointStamped", p) for p in POSES]
    path = open_path(
        bags.write("points", kind, {"/gps": ("geometry_msgs/msg/PointStamped", msgs)}), kind
    )
    with pytest.warns(
        DataWarning, match=r"/gps: PointStamped has no orientation: identity rotations used"
    ):
        traj = read_bag(path, "/gps")
    assert traj.orientations_quat_xyzw.tolist() == [list(ID)] * 3
    assert traj.positions_xyz[2].tolist() == [7.0, 8.0, 9.0]


@pytest.mark.parametrize("kind", KINDS)
def test_read_bag_takes_the_poses_of_the_last_path_message(bags: BagMaker, kind: str) -> None:
    first = bags.path_message(kind, POSES[:1])
    last = bags.path_message(kind, POSES)
    path = open_path(
        bags.write("path", kind, {"/plan": ("nav_msgs/msg/Path", [first, last])}), kind
    )
    traj = read_bag(path, "/plan")
    assert traj.stamps_s.tolist() == STAMPS
    assert traj.positions_xyz[:, 0].tolist() == [1.0, 4.0, 7.0]


def test_read_bag_refuses_a_path_whose_poses_share_one_stamp(bags: BagMaker) -> None:
    zero = [(0, 0, "map", p[3], p[4]) for p in POSES]
    path = bags.write(
        "plan", "sqlite3", {"/plan": ("nav_msgs/msg/Path", [bags.path_message("sqlite3", zero)])}
    )
    with pytest.raises(
        FormatError, match=r"/plan \(last Path message\): all 3 poses have the stamp 0.0 s"
    ):
        read_bag(path, "/plan")


@pytest.mark.parametrize("kind", KINDS)
def test_read_bag_says_a_topic_whose_header_stamps_are_all_unset(bags: BagMaker, kind: str) -> None:
    """A user walk: a node that publishes PoseStamped without setting header.stamp (all
    0); the refusal said "the file is likely not what its format says (stamps in another
    column or unit?); check the file or choose the format", no cause of a bag's."""
    unset = [(0, 0, "map", p[3], p[4]) for p in POSES]
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", p) for p in unset]
    path = open_path(
        bags.write("unset", kind, {"/est": ("geometry_msgs/msg/PoseStamped", msgs)}), kind
    )
    with pytest.raises(FormatError, match=r"header\.stamp is not set") as said:
        read_bag(path, "/est")
    assert str(said.value) == (
        f"{path} /est: all 3 messages have the stamp 0.0 s: header.stamp is not set by "
        "their publisher (the receive times are not used as stamps, nor by evo); no trajectory "
        "in time"
    )


def test_read_bag_lists_an_empty_frame_id_among_several_as_quotes(bags: BagMaker) -> None:
    """A publisher that leaves frame_id empty until its frame is known: the empty frame
    was listed as nothing, "messages are in 2 frames (, map; 'map' from message 2)"."""
    empty = [(p[0], p[1], "" if k == 0 else "map", p[3], p[4]) for k, p in enumerate(POSES)]
    msgs = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in empty]
    path = bags.write("empty", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    with pytest.warns(DataWarning) as said:
        assert read_bag(path, "/est").frame_id == ""
    assert [str(w.message) for w in said] == [
        (
            f"{path} /est: messages are in 2 frames ('', map; 'map' from message 2): "
            "frame_id set to the first, ''"
        )
    ]


def test_read_bag_sorts_messages_whose_header_stamps_go_back(bags: BagMaker) -> None:
    msgs = [
        bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p)
        for p in (POSES[1], POSES[0], POSES[2])
    ]
    path = bags.write("unsorted", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    with pytest.warns(
        DataWarning,
        match=r"/est: stamps not in increasing order \(1 place, first at message 2\): sorted",
    ):
        traj = read_bag(path, "/est")
    assert traj.stamps_s.tolist() == STAMPS


def test_read_bag_reports_messages_in_several_frames(bags: BagMaker) -> None:
    poses = [POSES[0], (*POSES[1][:2], "odom", *POSES[1][3:])]
    msgs = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in poses]
    path = bags.write("frames", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    with pytest.warns(
        DataWarning,
        match=r"messages are in 2 frames \(map, odom\; 'odom' from message 2\): frame_id set "
        r"to the first, 'map'",
    ) as said:
        assert read_bag(path, "/est").frame_id == "map"
    # Tagged for the doctor: poses of two frames mixed in one trajectory (a user walk: doctor
    # said "nothing found" of a bag whose ground truth changed frame halfway).
    assert [w.message.kind for w in said if isinstance(w.message, DataWarning)] == ["mixed_frames"]
    with pytest.raises(
        FormatError, match=r"2 frames .*strict reading, `strict=True`: refused, not fixed"
    ):
        read_bag(path, "/est", strict=True)


def test_read_bag_matches_a_topic_without_its_leading_slash(bags: BagMaker) -> None:
    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    path = bags.write("slash", "ros1", {"groundtruth": ("geometry_msgs/msg/PoseStamped", msgs)})
    assert len(read_bag(path, "/groundtruth")) == 3


def test_read_bag_names_the_pose_topics_when_the_topic_is_missing(bags: BagMaker) -> None:
    msgs = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    path = bags.write("missing", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    with pytest.raises(
        FormatError, match=r"no topic '/gt'; pose topics: /est \(TF as /tf:parent.child\)"
    ):
        read_bag(path, "/gt")


def test_read_bag_names_the_close_topics_when_the_topic_is_missing(bags: BagMaker) -> None:
    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    pose = "geometry_msgs/msg/PoseStamped"
    path = bags.write("close", "ros1", {"S-PTAM": (pose, msgs), "groundtruth": (pose, msgs)})
    with pytest.raises(
        TopicError,
        match=r"no topic 'SPTAM'; did you mean S-PTAM\? pose topics: S-PTAM, groundtruth \(TF",
    ) as caught:
        read_bag(path, "SPTAM")
    assert caught.value.path == str(path)
    with pytest.raises(TopicError, match=r"no topic '/groundtrut'; did you mean groundtruth\?"):
        read_bag(path, "/groundtrut")


def test_read_bag_answers_a_bare_tf_topic_with_its_transforms(bags: BagMaker) -> None:
    # Dynamic transforms first, each static one marked (the bag of tf_bag below).
    with pytest.raises(
        TopicError,
        match=r"/tf is TF: choose a chain as /tf:parent.child; transforms: map->odom, "
        r"odom->base, base->cam \(static\)$",
    ):
        read_bag(tf_bag(bags, "sqlite3"), "/tf")


def test_read_bag_refuses_a_topic_of_another_type(bags: BagMaker) -> None:
    text = bags.store2.types["std_msgs/msg/String"](data="hello")
    path = bags.write("text", "sqlite3", {"/chatter": ("std_msgs/msg/String", [text])})
    with pytest.raises(
        FormatError, match=r"topic '/chatter' has type std_msgs/msg/String; expected one of"
    ):
        read_bag(path, "/chatter")


def test_read_bag_refuses_a_file_that_is_no_bag(tmp_path: Path) -> None:
    path = tmp_path / "x.mcap"
    path.write_text("not a bag")
    with pytest.raises(FormatError, match=r"x\.mcap: cannot open as a ROS bag"):
        read_bag(path, "/odom")


def test_list_topics_gives_name_type_and_count(bags: BagMaker) -> None:
    msgs = [bags.message("mcap", "nav_msgs/msg/Odometry", p) for p in POSES]
    points = [bags.message("mcap", "geometry_msgs/msg/PointStamped", p) for p in POSES[:2]]
    path = bags.write(
        "two",
        "mcap",
        {
            "/odom": ("nav_msgs/msg/Odometry", msgs),
            "/gps": ("geometry_msgs/msg/PointStamped", points),
        },
    )
    assert list_topics(path) == (
        TopicInfo("/gps", "geometry_msgs/msg/PointStamped", 2),
        TopicInfo("/odom", "nav_msgs/msg/Odometry", 3),
    )
    assert {t.msgtype for t in list_topics(path)} <= set(POSE_TYPES)


def test_read_trajectory_picks_the_only_pose_topic_and_refuses_to_guess_among_several(
    bags: BagMaker,
) -> None:
    msgs = [bags.message("sqlite3", "nav_msgs/msg/Odometry", p) for p in POSES]
    one = bags.write("one", "sqlite3", {"/odom": ("nav_msgs/msg/Odometry", msgs)})
    assert len(read_trajectory(one)) == 3
    two = bags.write(
        "two",
        "sqlite3",
        {"/a": ("nav_msgs/msg/Odometry", msgs), "/b": ("nav_msgs/msg/Odometry", msgs)},
    )
    with pytest.raises(
        TopicError,
        match=r"choose a topic with `topic=` \(pose topics: /a, /b; TF as /tf:parent.child\)",
    ):
        read_trajectory(two)


def test_a_bag_of_tf_only_read_without_a_topic_names_its_transforms(bags: BagMaker) -> None:
    with pytest.raises(
        TopicError,
        match=r"choose a topic with `topic=` \(pose topics: none; TF as /tf:parent.child, "
        r"transforms: map->odom, odom->base, base->cam \(static\)\)",
    ):
        read_trajectory(tf_bag(bags, "mcap"))


# TF: map -> odom moves along x (x = 0 at t = 0, x = 2 at t = 2, two messages);
# odom -> base moves along y (y = 0, 1, 2 at t = 0, 1, 2: the busiest, so it sets the
# stamps); base -> cam is static: z = 0.5 and 90° about z.
def tf_bag(bags: BagMaker, kind: str) -> Path:
    def tf(
        sec: int,
        parent: str,
        child: str,
        xyz: tuple[float, float, float],
        q: tuple[float, float, float, float] = ID,
    ) -> tuple[Pose, str]:
        return ((sec, 0, parent, xyz, q), child)

    dynamic = [
        bags.tf_message(
            kind, [tf(0, "map", "odom", (0.0, 0.0, 0.0)), tf(0, "odom", "base", (0.0, 0.0, 0.0))]
        ),
        bags.tf_message(kind, [tf(1, "odom", "base", (0.0, 1.0, 0.0))]),
        bags.tf_message(
            kind, [tf(2, "map", "odom", (2.0, 0.0, 0.0)), tf(2, "odom", "base", (0.0, 2.0, 0.0))]
        ),
    ]
    static = [bags.tf_message(kind, [tf(0, "base", "cam", (0.0, 0.0, 0.5), (0.0, 0.0, S, S))])]
    if kind == "ros1":
        # ROS 1 frame names often carry a leading slash; tf2 ignores it.
        static = [
            bags.tf_message(kind, [tf(0, "/base", "/cam", (0.0, 0.0, 0.5), (0.0, 0.0, S, S))])
        ]
    return bags.write(
        "tf",
        kind,
        {
            "/tf": ("tf2_msgs/msg/TFMessage", dynamic),
            "/tf_static": ("tf2_msgs/msg/TFMessage", static),
        },
    )


@pytest.mark.parametrize("kind", KINDS)
def test_read_bag_chains_tf_through_dynamic_and_static_transforms(
    bags: BagMaker, kind: str
) -> None:
    traj = read_bag(tf_bag(bags, kind), "/tf:map.cam")
    assert (traj.frame_id, traj.child_frame_id) == ("map", "cam")
    assert traj.stamps_s.tolist() == [0.0, 1.0, 2.0]
    # At t = 1 map -> odom is interpolated halfway: x = 1.
    np.testing.assert_allclose(
        traj.positions_xyz, [[0, 0, 0.5], [1, 1, 0.5], [2, 2, 0.5]], rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(traj.orientations_quat_xyzw, [[0, 0, S, S]] * 3, rtol=0, atol=1e-15)


def test_read_bag_gives_the_inverse_chain_for_swapped_frames(bags: BagMaker) -> None:
    """... and says so: the pose of an ancestor in a descendant's frame is the world seen
    from the sensor, read in silence where the id was most likely written backwards."""
    said = (
        r"/tf:cam\.map is the pose of 'map' in 'cam', which the TF tree has below 'map' "
        r"\(map -> odom -> base -> cam\): the world seen from 'cam' where 'map' is the world, "
        r"not the motion of 'cam'; that is /tf:map\.cam"
    )
    with pytest.warns(DataWarning, match=said):
        traj = read_bag(tf_bag(bags, "sqlite3"), "/tf:cam.map")
    # Inverse of (t, Rz90): -Rz90ᵀ t. At t = 2 s, t = (2, 2, 0.5): Rz90ᵀ t = (2, -2, 0.5).
    np.testing.assert_allclose(traj.positions_xyz[2], [-2.0, 2.0, -0.5], rtol=0, atol=1e-15)
    np.testing.assert_allclose(traj.orientations_quat_xyzw[2], [0, 0, -S, S], rtol=0, atol=1e-15)


def test_read_bag_reads_a_single_dynamic_transform_unchanged(bags: BagMaker) -> None:
    traj = read_bag(tf_bag(bags, "mcap"), "/tf:odom.base")
    assert traj.positions_xyz[:, 1].tolist() == [0.0, 1.0, 2.0]


def test_read_bag_reads_a_static_only_chain_as_one_pose(bags: BagMaker) -> None:
    traj = read_bag(tf_bag(bags, "sqlite3"), "/tf:base.cam")
    assert len(traj) == 1
    assert traj.positions_xyz.tolist() == [[0.0, 0.0, 0.5]]


@pytest.mark.parametrize("kind", KINDS)
def test_read_bag_keeps_tf_header_stamps_exactly_in_nanoseconds(bags: BagMaker, kind: str) -> None:
    """A float64 of 1.7e9 s holds ~0.24 µs: 1700000000.999999999 is 1700000001.0 as a float,
    so only ``stamps_ns`` lets ``traj --save`` write back the stamps the bag holds."""

    def tf(sec: int, nanosec: int, parent: str, child: str) -> tuple[Pose, str]:
        return ((sec, nanosec, parent, (0.0, 0.0, 0.0), ID), child)

    dynamic = [
        bags.tf_message(kind, [tf(1_700_000_000, 999_999_999, "odom", "base")]),
        bags.tf_message(kind, [tf(1_700_000_003, 1, "odom", "base")]),
    ]
    static = [bags.tf_message(kind, [tf(1_700_000_002, 123_456_789, "base", "cam")])]
    path = bags.write(
        "tf_ns",
        kind,
        {
            "/tf": ("tf2_msgs/msg/TFMessage", dynamic),
            "/tf_static": ("tf2_msgs/msg/TFMessage", static),
        },
    )
    exact = [1_700_000_000_999_999_999, 1_700_000_003_000_000_001]
    for ident in ("/tf:odom.base", "/tf:odom.cam"):
        stamps_ns = read_bag(path, ident).stamps_ns
        assert stamps_ns is not None
        assert stamps_ns.tolist() == exact
    static_only = read_bag(path, "/tf:base.cam").stamps_ns
    assert static_only is not None
    assert static_only.tolist() == [1_700_000_002_123_456_789]


@pytest.mark.parametrize(
    ("ident", "error"),
    [
        (
            "/tf:map.nowhere",
            r"no frame 'nowhere' on /tf; transforms: map->odom, odom->base, base->cam \(static",
        ),
        ("/tf:map.camm", r"no frame 'camm' on /tf; did you mean cam\? transforms: map->odom"),
        ("/tf_other:map.cam", r"no TF topic '/tf_other'; TF topics: /tf, /tf_static"),
        ("/tff:map.cam", r"no TF topic '/tff'; did you mean /tf\? TF topics: /tf, /tf_static"),
        ("/tf:map.map", r"parent and child are both 'map'"),
        ("/tf:mapcam", r"'/tf:mapcam' is not a TF id"),
    ],
)
def test_read_bag_explains_bad_tf_ids(bags: BagMaker, ident: str, error: str) -> None:
    with pytest.raises(FormatError, match=error):
        read_bag(tf_bag(bags, "sqlite3"), ident)


def test_read_bag_refuses_frames_in_separate_trees(bags: BagMaker) -> None:
    def tf(parent: str, child: str) -> tuple[Pose, str]:
        return ((0, 0, parent, (0.0, 0.0, 0.0), ID), child)

    msgs = [bags.tf_message("sqlite3", [tf("map", "a"), tf("world", "b")])]
    path = bags.write("split", "sqlite3", {"/tf": ("tf2_msgs/msg/TFMessage", msgs)})
    with pytest.raises(FormatError, match=r"frames 'a' and 'b' are not connected by /tf"):
        read_bag(path, "/tf:a.b")


def test_read_bag_refuses_a_frame_with_two_parents(bags: BagMaker) -> None:
    def tf(parent: str, child: str) -> tuple[Pose, str]:
        return ((0, 0, parent, (0.0, 0.0, 0.0), ID), child)

    msgs = [bags.tf_message("sqlite3", [tf("map", "a"), tf("world", "a")])]
    path = bags.write("two", "sqlite3", {"/tf": ("tf2_msgs/msg/TFMessage", msgs)})
    with pytest.raises(FormatError, match=r"/two: frame 'a' has two parents, 'map' and 'world'"):
        read_bag(path, "/tf:map.a")


def test_read_bag_refuses_a_tf_loop_naming_the_bag(bags: BagMaker) -> None:
    def tf(parent: str, child: str) -> tuple[Pose, str]:
        return ((0, 0, parent, (0.0, 0.0, 0.0), ID), child)

    msgs = [bags.tf_message("sqlite3", [tf("map", "a"), tf("a", "map"), tf("a", "b")])]
    path = bags.write("loop", "sqlite3", {"/tf": ("tf2_msgs/msg/TFMessage", msgs)})
    with pytest.raises(FormatError, match=r"loop.*: the TF tree has a loop through 'map'"):
        read_bag(path, "/tf:map.b")


def test_parse_tf_id_takes_an_optional_static_topic() -> None:
    assert parse_tf_id("/tf:map.base_link:/my_static") == ("/tf", "map", "base_link", "/my_static")


FIXES = [(0.0, 0.0, 0.0), (0.0, 0.001, 0.0), (0.001, 0.001, 3.0), (0.002, 0.0, 3.0)]


@pytest.mark.parametrize("kind", KINDS)
def test_a_navsatfix_bag_and_an_lla_file_agree_in_enu(
    bags: BagMaker, kind: str, tmp_path: Path
) -> None:
    msgs = [bags.navsat(kind, (100 + i, 0), fix) for i, fix in enumerate(FIXES)]
    bag = open_path(bags.write("gps", kind, {"/fix": ("sensor_msgs/msg/NavSatFix", msgs)}), kind)
    text = tmp_path / "gps.lla"
    text.write_text("".join(f"{100 + i} {a!r} {b!r} {c!r}\n" for i, (a, b, c) in enumerate(FIXES)))
    with pytest.warns(DataWarning, match=r"NavSatFix has no orientation"):
        from_bag = read_bag(bag, "/fix")
    with pytest.warns(DataWarning, match=r"has no orientation"):
        from_file = read_trajectory(text)
    assert from_bag.stamps_s.tolist() == from_file.stamps_s.tolist() == [100.0, 101.0, 102.0, 103.0]
    assert from_bag.positions_xyz.tolist() == from_file.positions_xyz.tolist()
    # Hand case: 0.001 deg east on the equator is a sin(0.001 deg) east.
    east = 6378137.0 * math.sin(math.radians(0.001))
    assert from_bag.positions_xyz[1, 0] == pytest.approx(east, abs=1e-9)
    assert from_bag.frame_id == "enu"


def test_fixes_without_a_fix_are_dropped_and_the_first_fix_is_the_origin(bags: BagMaker) -> None:
    msgs = [bags.navsat("ros1", (10, 0), (5.0, 5.0, 0.0), status=-1)]
    msgs += [bags.navsat("ros1", (11 + i, 0), fix) for i, fix in enumerate(FIXES)]
    bag = bags.write("nofix", "ros1", {"/fix": ("sensor_msgs/msg/NavSatFix", msgs)})
    with pytest.warns(DataWarning) as caught:
        traj = read_bag(bag, "/fix")
    assert any(
        "1 of 5 NavSatFix messages have no fix (status < 0): dropped" in str(w.message)
        for w in caught
    )
    assert len(traj) == 4
    assert traj.positions_xyz[0].tolist() == [0.0, 0.0, 0.0]
    from robot_msgs.io.bag import first_fix

    assert first_fix(bag, "/fix") == (0.0, 0.0, 0.0)
    with pytest.raises(FormatError, match=r"applies to NavSatFix topics and lla files"):
        read_bag(bags.write("p", "ros1", {"/p": ("geometry_msgs/msg/PoseStamped",
                 [bags.message("ros1", "geometry_msgs/msg/PoseStamped", POSES[0])])}),
                 "/p", geo_origin=(0.0, 0.0, 0.0))  # fmt: skip


def _pose_bag(bags: BagMaker, kind: str) -> Path:
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", pose) for pose in POSES]
    return bags.write(f"b_{kind}", kind, {"/pose": ("geometry_msgs/msg/PoseStamped", msgs)})


@pytest.mark.parametrize("member", ["metadata.yaml", "storage"])
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_bag_folder_holding_a_special_file_is_refused(
    bags: BagMaker, member: str, special: str
) -> None:
    """A FIFO .db3 hung in SQLite's open (SIGTERM could not end it); /dev/zero as
    metadata.yaml was read until memory ran out."""
    import os

    bag = _pose_bag(bags, "sqlite3")
    target = bag / "metadata.yaml" if member == "metadata.yaml" else next(bag.glob("*.db3"))
    target.unlink()
    if special == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(special)
    what = "a pipe" if special == "fifo" else "a character device"
    with deadline(10), pytest.raises(FormatError, match=rf"{target.name} is {what}"):
        list_topics(bag)
    with deadline(10), pytest.raises(FormatError, match=rf"{target.name} is {what}"):
        read_trajectory(bag, topic="/pose")


def test_a_metadata_yaml_past_its_bound_is_refused_before_rosbags_parses_it(
    evo_data: Path, tmp_path: Path
) -> None:
    """A metadata.yaml of one 10 MB line held ``robot-msgs traj`` 27-30 s: rosbags parsed
    it (pure-Python YAML) under the 1 GiB ``max_bytes`` alone. evo's real bag folder still
    reads; padded by one comment line (which rosbags reads) to 1 byte past 4 MiB it is
    refused by name, and its .db3 given alone reads as before. Seen failing before the
    bound: the padded folder was read (DID NOT RAISE)."""
    bag = tmp_path / "tf_example"
    shutil.copytree(evo_data / "tf_example", bag)
    topics = list_topics(bag)
    # the counts evo's metadata.yaml lists
    assert {(t.topic, t.message_count) for t in topics} == {("/tf", 517), ("/tf_static", 1)}
    meta = bag / "metadata.yaml"
    meta.chmod(0o644)
    bound = 4 << 20
    with meta.open("a", encoding="ascii") as f:
        f.write("#" * (bound - meta.stat().st_size) + "\n")
    said = (
        rf"tf_example: metadata\.yaml is {bound + 1} bytes, more than the {bound} bytes a bag's "
        r"metadata\.yaml may hold \(give the bag's \.db3 or \.mcap file itself\)$"
    )
    with deadline(30), pytest.raises(FormatError, match=said):
        list_topics(bag)
    assert list_topics(bag / "tf_example.db3") == topics


@pytest.mark.parametrize(
    ("extra", "line", "said"),
    [
        # 200,000 lines and flow items in all: read; a comma more (in a comment): refused
        ("#\n" * (200_000 - 37), None, None),
        ("#\n" * (200_000 - 37) + "#,", 200_000, "holds more than the 200000 lines and flow"),
        ("x: " + "[" * 64 + "]" * 64 + "\n", None, None),
        ("x: " + "[" * 65 + "]" * 65 + "\n", 37, r"nests flow collections \(\[ \], \{ \}\) deeper"),
        # closing brackets first (in a comment) hide no opening one
        ("# " + "]" * 100 + "\nx:\n  " + "{a: " * 65 + "}" * 65 + "\n", 39, "nests flow"),
        ("x: " + "[" * 100_000 + "\n", 37, "nests flow"),  # 5 s in rosbags' parser
    ],
)
def test_a_metadata_yaml_of_hostile_structure_is_refused_naming_its_line(
    evo_data: Path, tmp_path: Path, extra: str, line: int | None, said: str | None
) -> None:
    """rosbags' pure-Python YAML parser costs by the token: a flow sequence of 1.4 million
    items within the 4 MiB bound held it about two minutes, one nested 100,000 deep 5 s.
    Lines and flow items are bounded at 200,000 (4 MiB of rosbag2's densest metadata holds
    153,000) and flow nesting at 64 levels (rosbag2 writes none); at the bounds evo's real
    folder reads as before. Seen failing before the bounds: DID NOT RAISE."""
    bag = tmp_path / "tf_example"
    shutil.copytree(evo_data / "tf_example", bag)
    meta = bag / "metadata.yaml"
    meta.chmod(0o644)
    # what ``extra`` counts on: 36 lines, and one flow item (custom_data: {})
    assert meta.read_bytes().count(b"\n") == 36
    assert meta.read_text(encoding="ascii").count("{}") == 1
    with meta.open("a", encoding="ascii") as f:
        f.write(extra)
    with deadline(60):
        if said is None:  # the counts evo's metadata.yaml lists
            topics = {(t.topic, t.message_count) for t in list_topics(bag)}
            assert topics == {("/tf", 517), ("/tf_static", 1)}
            return
        with pytest.raises(FormatError, match=rf"tf_example: metadata\.yaml line {line}: {said}"):
            list_topics(bag)


def test_a_metadata_yaml_that_cannot_be_read_is_a_format_error(
    evo_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read for its structure before rosbags reads it, an I/O error there escaped as an
    OSError, where rosbags' own read of it was a FormatError naming the folder."""
    import errno
    from pathlib import Path

    bag = tmp_path / "tf_example"
    shutil.copytree(evo_data / "tf_example", bag)
    opened = Path.open

    def failing(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self.name == "metadata.yaml":
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(self))
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", failing)
    with pytest.raises(FormatError, match=r"tf_example: cannot read metadata\.yaml \(Input/output"):
        list_topics(bag)


@pytest.mark.parametrize(
    ("extra", "line", "said"),
    [
        # a QoS string as rosbag2 writes it, its lines escaped: rosbags parses it again
        ('x: "' + "- history: 1\\n" * 200_000 + '"\n', 37, "holds more than the 200000"),
        ("x:\r" + "- 1\r" * 200_000, 37, "holds more than the 200000"),  # CR alone: lines
        ("x: &a 1\ny: *a\n", 37, r"defines a YAML anchor \(&\)"),
        ("x: 'R&D'\n", 37, r"defines a YAML anchor \(&\)"),  # wherever it is, as brackets
    ],
    ids=["escaped-newlines", "lone-cr", "anchor", "quoted-ampersand"],
)
def test_a_metadata_yaml_hiding_lines_or_aliasing_is_refused(
    evo_data: Path, tmp_path: Path, extra: str, line: int, said: str
) -> None:
    """The bound on lines counted newline bytes only, while rosbags parses each topic's
    ``offered_qos_profiles`` string as YAML again: a 3.9 MB metadata.yaml whose QoS string
    wrote its 280,000 lines as ``\\n`` escapes (one physical line) took 79 s to refuse, and
    a 121 kB one of 86 lines, one topic aliased 50 times with a QoS string of 20,000 lines,
    64.6 s (an alias costs a parse of the string each: a billion laughs). A CR alone is a
    line break to ruamel too. Seen failing before: DID NOT RAISE."""
    bag = tmp_path / "tf_example"
    shutil.copytree(evo_data / "tf_example", bag)
    meta = bag / "metadata.yaml"
    meta.chmod(0o644)
    with meta.open("a", encoding="ascii", newline="") as f:
        f.write(extra)
    with deadline(60), pytest.raises(FormatError, match=rf"metadata\.yaml line {line}: {said}"):
        list_topics(bag)


def test_a_crlf_metadata_yaml_is_counted_a_line_a_crlf(evo_data: Path, tmp_path: Path) -> None:
    """A CR alone counts as a line; a CR LF is one line, as rosbag2 on Windows may write it."""
    bag = tmp_path / "tf_example"
    shutil.copytree(evo_data / "tf_example", bag)
    meta = bag / "metadata.yaml"
    meta.chmod(0o644)
    text = meta.read_bytes().replace(b"\n", b"\r\n") + b"#\r\n" * (200_000 - 37)
    meta.write_bytes(text)
    topics = {(t.topic, t.message_count) for t in list_topics(bag)}
    assert topics == {("/tf", 517), ("/tf_static", 1)}


def test_a_damaged_compressed_mcap_chunk_is_a_format_error(bags: BagMaker, tmp_path: Path) -> None:
    """rosbags 0.11 decompresses with backports.zstd, whose error escaped as a bug (exit 70)."""
    from robot_msgs.io import write_trajectory

    traj = read_trajectory(open_path(_pose_bag(bags, "mcap"), "mcap"), topic="/pose")
    good = tmp_path / "a.mcap"
    write_trajectory(good, traj.replace(
        stamps_s=np.arange(300.0), positions_xyz=np.zeros((300, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (300, 1)),
    ), topic="/t")  # fmt: skip
    data = bytearray(good.read_bytes())
    chunk = data.find(b"\x28\xb5\x2f\xfd")  # the zstd frame's magic number
    assert chunk > 0
    data[chunk + 40] ^= 0xFF
    bad = tmp_path / "bad.mcap"
    bad.write_bytes(bytes(data))
    with pytest.raises(FormatError, match=r"bad\.mcap: cannot read the bag"):
        read_trajectory(bad, topic="/t")


@pytest.mark.parametrize("kind", ["sqlite3", "mcap"])
def test_one_file_of_a_split_bag_given_alone_is_said_to_be_part_of_it(
    bags: BagMaker, kind: str
) -> None:
    """A user walk: ``ros2 bag record --max-bag-size`` splits a recording into files listed
    by one metadata.yaml; the first file given alone (a shell's completion stops there) was
    read as the whole run, half its poses, without a word (evo does the same)."""
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("split", kind, {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    first = next(f for f in bag.iterdir() if f.suffix in (".db3", ".mcap"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataWarning)  # one file of one: nothing said
        assert len(read_bag(first, "/est")) == len(POSES)
    second = first.with_name(f"split_1{first.suffix}")
    shutil.copyfile(first, second)
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    listed = f"relative_file_paths:\n  - {first.name}\n"
    assert listed in text
    meta.write_text(text.replace(listed, f"{listed}  - {second.name}\n"))
    with pytest.warns(DataWarning) as said:
        assert len(read_bag(first, "/est")) == len(POSES)
    assert [str(w.message) for w in said] == [
        (
            f"{first}: one of the 2 files of the split bag {bag} (its metadata.yaml lists "
            f"{first.name}, {second.name}): read alone, its messages only; give the folder to "
            "read them all"
        )
    ]


def test_one_file_of_a_split_bag_whose_metadata_names_it_with_its_folder_is_said(
    bags: BagMaker,
) -> None:
    """rosbag2 of Eloquent and Foxy wrote ``relative_file_paths`` with the folder before each
    file (``run/run_0.db3``), which rosbags reads as the file of that name in the folder;
    compared whole, the file given alone was not found in the list: no word said."""
    msgs = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("old", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    first = bag / "old.db3"
    second = bag / "old_1.db3"
    shutil.copyfile(first, second)
    meta = bag / "metadata.yaml"
    listed = "relative_file_paths:\n  - old.db3\n"
    text = meta.read_text()
    assert listed in text
    meta.write_text(
        text.replace(listed, "relative_file_paths:\n  - old/old.db3\n  - old/old_1.db3\n")
    )
    with pytest.warns(DataWarning, match=r"one of the 2 files of the split bag") as said:
        assert len(read_bag(first, "/est")) == len(POSES)
    assert [str(w.message) for w in said] == [
        (
            f"{first}: one of the 2 files of the split bag {bag} (its metadata.yaml lists "
            "old.db3, old_1.db3): read alone, its messages only; give the folder to read them all"
        )
    ]


def test_an_mcap_cut_off_as_a_killed_recorder_leaves_it_is_said_so(bags: BagMaker) -> None:
    """A user walk: ``ros2 bag record`` killed (or a copy stopped) leaves an MCAP without
    its footer; rosbags' words "cannot open as a ROS bag (AnyReaderError: File end magic is
    invalid.)" did not say the file was cut off, nor the way out."""
    msgs = [bags.message("mcap", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("killed", "mcap", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    file = open_path(bag, "mcap")
    data = file.read_bytes()
    for at in (len(data) // 2, len(data) - 8, len(data) - 1):  # mid-chunk, in the end magic
        file.write_bytes(data[:at])
        for path in (file, bag):  # the file, and its bag folder
            with pytest.raises(FormatError, match=r"cut off") as said:
                read_bag(path, "/est")
            assert str(said.value) == (
                f"{path}: cannot open as a ROS bag: {file} ends without MCAP's closing "
                "magic: it is cut off (its recorder was killed or is still recording, or a "
                f"copy stopped); `mcap recover {file} -o recovered.mcap` (the mcap CLI) "
                "writes the messages it holds"
            )


def test_a_bag_folder_refused_is_said_by_the_files_its_metadata_lists(
    bags: BagMaker,
) -> None:
    """A file the metadata does not list (left from another recording) was taken as the
    cause: a folder whose listed file is missing was said "names the storage 'sqlite3',
    but BAG/old.mcap is an MCAP file: correct storage_identifier"; and a split bag whose
    listed files are of both storages was told to correct storage_identifier, which
    cannot mend it."""
    msgs = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("run", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    mcap = [bags.message("mcap", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    other = bags.write("other", "mcap", {"/est": ("geometry_msgs/msg/PoseStamped", mcap)})
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    listed = "relative_file_paths:\n  - run.db3\n"
    assert listed in text
    shutil.copyfile(other / "other.mcap", bag / "old.mcap")  # not listed: not read
    assert len(read_bag(bag, "/est")) == len(POSES)
    meta.write_text(text.replace(listed, "relative_file_paths:\n  - gone.db3\n"))
    with pytest.raises(FormatError, match=r"cannot open as a ROS bag") as err:
        read_bag(bag, "/est")
    assert "missing" in str(err.value)  # rosbags' words, the true cause
    assert "old.mcap" not in str(err.value)
    (bag / "old.mcap").rename(bag / "run_1.mcap")
    meta.write_text(text.replace(listed, f"{listed}  - run_1.mcap\n"))
    with pytest.raises(FormatError, match=r"two storages") as err:
        read_bag(bag, "/est")
    assert str(err.value) == (
        f"{bag}: cannot open as a ROS bag: its files are of two storages ({bag}/run.db3 is an "
        f"SQLite file, {bag}/run_1.mcap is an MCAP file): give each file itself"
    )


def test_a_bag_folder_whose_metadata_leaves_the_storage_empty_is_said_as_rosbags_says(
    bags: BagMaker,
) -> None:
    """``storage_identifier:`` with no value: the pattern's ``\\s*`` crossed the line end and
    took the next key as the storage ("names the storage 'topics_with_message_count'");
    the same ``^\\s*`` made a metadata.yaml of 64 Ki blank lines take 23 s to refuse."""
    msgs = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("empty", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    assert "storage_identifier: sqlite3\n" in text
    meta.write_text(text.replace("storage_identifier: sqlite3\n", "storage_identifier:\n"))
    with pytest.raises(FormatError, match=r"cannot open as a ROS bag") as err:
        read_bag(bag, "/est")
    assert "names the storage" not in str(err.value)
    meta.write_text("\n" * (1 << 16))
    with pytest.raises(FormatError, match=r"cannot open as a ROS bag \(AnyReaderError"):
        read_bag(bag, "/est")


@pytest.mark.parametrize(
    ("kind", "said", "other"), [("sqlite3", "mcap", "an SQLite"), ("mcap", "sqlite3", "an MCAP")]
)
def test_a_bag_folder_whose_metadata_names_another_storage_is_said_so(
    bags: BagMaker, kind: str, said: str, other: str
) -> None:
    """A user walk: a metadata.yaml copied from another recording names the other storage;
    rosbags said "(AnyReaderError: File magic is invalid.)" or "(... file is not a
    database)", naming neither metadata.yaml nor the way out (the file itself reads)."""
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("mixed", kind, {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    assert f"storage_identifier: {kind}" in text
    meta.write_text(text.replace(f"storage_identifier: {kind}", f"storage_identifier: {said}"))
    file = next(f for f in bag.iterdir() if f.suffix in (".db3", ".mcap"))
    with pytest.raises(FormatError, match=r"metadata\.yaml") as err:
        read_bag(bag, "/est")
    assert str(err.value) == (
        f"{bag}: cannot open as a ROS bag: its metadata.yaml names the storage '{said}', but "
        f"{bag / file.name} is {other} file: correct storage_identifier in metadata.yaml, or "
        "give the file itself"
    )
    assert len(read_bag(file, "/est")) == len(POSES)  # the way out said


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        (
            b"time=",
            (7).to_bytes(8, "little"),
            (
                "a record does not match its header or the bag's index: /est: a message's log "
                "time is 1000000000 ns in the index, 7000000000 ns in its record"
            ),
        ),
        (
            b"conn=",
            (256).to_bytes(4, "little"),
            "a record refers to an id the bag does not define: 256",
        ),
    ],
)
def test_a_damaged_ros1_record_is_said_to_be_damage_not_a_bare_exception(
    bags: BagMaker, field: bytes, value: bytes, said: str
) -> None:
    """rosbags checks a message's time against the bag's index with a bare ``assert`` and
    looks its connection up in a dict: "cannot read the bag (AssertionError: )" and
    "(KeyError: 256)" told a user nothing (a fuzz of evo's ROS_example.bag)."""
    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("poses", "ros1", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    data = bytearray(bag.read_bytes())
    at = data.index(field, data.index(b"op=\x02")) + len(field)  # the first message's header
    data[at : at + len(value)] = value
    bag.write_bytes(bytes(data))
    expected = f"{bag}: cannot read the bag: it is damaged ({said})"
    with pytest.raises(FormatError, match=f"^{re.escape(expected)}$"):
        read_bag(bag, "/est")


_READ_RECORDS = """
import sys
from robot_msgs.errors import FormatError
from robot_msgs.io import read_records
try:
    print([r.log_time_ns for r in read_records(sys.argv[1], "/est")])
except FormatError as err:
    print(err)
"""


@pytest.mark.parametrize("flags", [[], ["-O"]])
@pytest.mark.parametrize(
    ("byte", "value", "indexed"),
    [(3, 0x80, (2**31 + 1) * 10**9 + 2), (4, 1, 10**9 + 1)],
    ids=["outside-the-span", "within-the-span"],
)
def test_a_damaged_index_time_is_refused_under_python_o_too(
    bags: BagMaker, flags: list[str], byte: int, value: int, indexed: int
) -> None:
    """rosbags checks a message's time against its index entry with a bare ``assert``:
    under ``python -O`` a damaged entry was read as the message's log time (16 of 2000
    damaged copies of evo's bags); within the bag's span (1 s + 1 ns for 1 s + 2 ns) the
    chunk infos did not tell. Refused in either mode, in the same words, naming the topic."""
    import subprocess
    import sys

    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("poses", "ros1", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    data = bytearray(bag.read_bytes())
    entry = (1).to_bytes(4, "little") + (2).to_bytes(4, "little")  # the third at 1 s + 2 ns
    at = data.index(entry, data.index(b"op=\x04"))  # in the index, not in the record
    data[at + byte] = value
    bag.write_bytes(bytes(data))
    run = subprocess.run(  # noqa: S603 - our own script
        [sys.executable, *flags, "-c", _READ_RECORDS, str(bag)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout == (
        f"{bag}, after /est's message at 1000000001 ns: cannot read the bag: it is damaged "
        "(a record does not match its header or the bag's index: /est: a message's log time "
        f"is {indexed} ns in the index, 1000000002 ns "
        "in its record)\n"
    ), run.stdout


def _two_topics_with_conn(
    bags: BagMaker, op: bytes, byte: int, value: int, *, in_index: bool = False
) -> Path:
    """A ROS 1 bag of /a and /b, byte ``byte`` of the first ``op`` record's ``conn=`` (/a's, 0)
    set to ``value``; ``in_index``: the first after the chunks (the index section's)."""
    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write(
        "two",
        "ros1",
        {
            "/a": ("geometry_msgs/msg/PoseStamped", msgs),
            "/b": ("geometry_msgs/msg/PoseStamped", msgs),
        },
    )
    data = bytearray(bag.read_bytes())
    index_pos = int.from_bytes(data[data.index(b"index_pos=") + 10 :][:8], "little")
    at = data.index(b"conn=", data.index(op, index_pos if in_index else 0)) + len(b"conn=")
    assert data[at : at + 4] == (0).to_bytes(4, "little")
    data[at + byte] = value
    bag.write_bytes(bytes(data))
    return bag


def test_a_record_naming_another_topics_connection_is_refused(bags: BagMaker) -> None:
    """rosbags yields a message as its record's connection says, not its index: a bit
    flipped in a record's ``conn`` moved a message from /a to /b without a word."""
    bag = _two_topics_with_conn(bags, b"op=\x02", 0, 1)  # /a's first message: /b's
    damaged = "it is damaged (a record does not match its header or the bag's index: "
    with pytest.raises(
        FormatError, match=re.escape(f"{damaged}a message of /b where the index has another topic)")
    ):
        read_bag(bag, "/a")
    with pytest.raises(FormatError, match=re.escape(f"{damaged}/a has 2 messages, its index 3)")):
        list(read_records(bag))


def test_an_index_that_lost_a_topics_messages_is_refused(bags: BagMaker) -> None:
    """A bit flipped in an index record's ``conn`` filed /a's messages under no connection:
    rosbags read the bag without them (a fuzz of evo's tf_example.bag read 1 of 518). The
    chunk infos count each connection's messages apart from the index."""
    bag = _two_topics_with_conn(bags, b"op=\x04", 2, 1)  # /a's index: 65536, no connection
    expected = (
        f"{bag}: cannot read the bag: it is damaged (a record does not match its header or the "
        "bag's index: /a has 0 messages in the index, 3 in the chunk infos)"
    )
    with pytest.raises(FormatError, match=f"^{re.escape(expected)}$"):
        list(read_records(bag))


def test_a_topic_whose_index_is_damaged_is_listed_saying_so_in_json_too(
    bags: BagMaker, capsys: pytest.CaptureFixture[str]
) -> None:
    """``traj BAG --topic /b --json`` listed /a, whose index lost its 3 messages, with the
    index's count 0 and no word, where reading /a says the index is damaged. Its count is
    still the index's; ``damaged`` says why it cannot be trusted, in the reading's words."""
    from robot_msgs.cli import main
    from robot_msgs.io.bag import indexed_topics

    bag = _two_topics_with_conn(bags, b"op=\x04", 2, 1)  # /a's index: 65536, no connection
    why = "/a has 0 messages in the index, 3 in the chunk infos"
    pose = "geometry_msgs/msg/PoseStamped"
    assert main(["traj", str(bag), "--topic", "/b", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["topics"] == [
        {"topic": "/a", "msgtype": pose, "message_count": 0, "damaged": why},
        {"topic": "/b", "msgtype": pose, "message_count": 3, "damaged": None},
    ]
    assert indexed_topics(bag) == (TopicInfo("/a", pose, 0, why), TopicInfo("/b", pose, 3))
    assert main(["traj", str(bag), "--topic", "/a"]) == 1
    assert f"the bag's index: {why})" in capsys.readouterr().err


def test_a_topic_whose_index_is_damaged_leaves_the_other_topics_readable(
    bags: BagMaker,
) -> None:
    """A ROS 1 bag whose index lost /a's messages refused every topic, /b too, and its
    listing: each topic is checked when it is read (and listed), so /b reads."""
    bag = _two_topics_with_conn(bags, b"op=\x04", 2, 1)  # /a's index: 65536, no connection
    assert read_bag(bag, "/b").stamps_s.tolist() == STAMPS
    assert len(list(read_records(bag, "/b"))) == 3
    damaged = "/a has 0 messages in the index, 3 in the chunk infos"
    with pytest.raises(FormatError, match=re.escape(damaged)):
        read_bag(bag, "/a")
    with pytest.raises(FormatError, match=re.escape(damaged)):
        list_topics(bag)


def test_a_pose_topic_whose_index_is_damaged_is_not_passed_over_when_one_is_chosen(
    bags: BagMaker, capsys: pytest.CaptureFixture[str]
) -> None:
    """/a's index lost its messages (0 counted): a bag read without a topic took /b, the
    one pose topic with messages, without a word, where the bag as written has two to
    choose from. The pose topics a choice counts are checked; a chosen topic still reads."""
    from robot_msgs.cli import main

    bag = _two_topics_with_conn(bags, b"op=\x04", 2, 1)  # /a's index: 65536, no connection
    damaged = "/a has 0 messages in the index, 3 in the chunk infos"
    with pytest.raises(FormatError, match=re.escape(damaged)):
        read_trajectory(bag)
    assert main(["traj", str(bag)]) == 1
    assert damaged in capsys.readouterr().err
    assert read_trajectory(bag, topic="/b").stamps_s.tolist() == STAMPS


_LOST = (
    "/a has a connection without messages, and the chunk infos count messages of "
    "connection 0, which the index does not define"
)


@pytest.mark.parametrize(
    ("conn", "topic", "said"),
    [(1, "/b", "two connections have the id 1 (/a, /b)"), (5, None, _LOST)],
)
def test_a_renumbered_connection_record_is_refused_not_read_as_another_topic(
    bags: BagMaker, conn: int, topic: str | None, said: str
) -> None:
    """/a's connection record renumbered: to /b's id 1, reading /b gave /a's messages
    (/b's own were left to no connection); to an unused id 5, a read of the whole bag
    left /a out without a word. The chunk infos still count each id's messages."""
    bag = _two_topics_with_conn(bags, b"op=\x07", 0, conn, in_index=True)
    damaged = f"it is damaged (a record does not match its header or the bag's index: {said})"

    def read() -> object:
        return read_bag(bag, topic) if topic is not None else list(read_records(bag))

    with pytest.raises(FormatError, match=re.escape(damaged)):
        read()


def test_a_bag_whose_connection_ids_have_gaps_reads_each_topic_as_written(
    bags: BagMaker,
) -> None:
    """Connection ids need not be 0..n-1: /a as 7, /b as 2**31 (every record renumbered)."""
    bag = _two_topics_with_conn(bags, b"op=\x07", 0, 0)  # untouched
    data = bytearray(bag.read_bytes())
    for old, new in ((b"conn=\x00\x00\x00\x00", 7), (b"conn=\x01\x00\x00\x00", 2**31)):
        data = data.replace(old, b"conn=" + new.to_bytes(4, "little"))
    # The bag ends with its one chunk info, whose (conn, count) pairs end it.
    assert data[-16:] == struct.pack("<4I", 0, 3, 1, 3)
    data[-16:] = struct.pack("<4I", 7, 3, 2**31, 3)
    bag.write_bytes(bytes(data))
    assert [r.topic for r in read_records(bag)] == ["/a", "/b"] * 3
    assert read_bag(bag, "/b").stamps_s.tolist() == STAMPS


@pytest.mark.parametrize(
    "error",
    [KeyError("header"), AssertionError("a bug"), AttributeError("'NoneType' has no 'pose'")],
)
def test_our_own_assertion_or_key_error_while_reading_a_bag_is_no_damage(
    bags: BagMaker, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """A KeyError or AssertionError of robot_msgs' code, run inside the bag's reading, was
    said "the bag is damaged" (1b3b43f), an AttributeError "the bag's message definition
    differs": a bug blamed on a good file. It passes unchanged."""
    import robot_msgs.io.bag as bag_module

    def converting(*_: object) -> tuple[float, ...]:
        raise error

    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("poses", "ros1", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    monkeypatch.setattr(bag_module, "_xyz_quat", converting)
    with pytest.raises(type(error)) as raised:
        read_bag(bag, "/est")
    assert raised.value is error


def test_our_own_attribute_error_while_reading_a_bag_is_a_bug_of_the_cli(
    bags: BagMaker, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An AttributeError of robot_msgs' code on a good bag said "the bag's message
    definition differs from ROS's" (exit 1): a bug is exit 70 naming its report."""
    import robot_msgs.io.bag as bag_module
    from robot_msgs.cli import main

    def converting(msg: Any, msgtype: str) -> tuple[float, ...]:
        del msgtype
        return tuple(getattr(msg.pose, "position_xyz"))  # noqa: B009 - a misspelt field

    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("poses", "ros1", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    monkeypatch.setattr(bag_module, "_xyz_quat", converting)
    with pytest.raises(AttributeError, match="position_xyz"):
        read_bag(bag, "/est")
    assert main(["traj", str(bag), "--topic", "/est"]) == 70
    assert "robot-msgs-bug-" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["ros1", "mcap"])
def test_our_own_type_error_while_reading_a_bag_ros_defines_is_a_bug_of_the_cli(
    bags: BagMaker,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kind: str,
) -> None:
    """A TypeError of robot_msgs' code on a bag defining its messages as ROS does said
    "the bag's message definition differs from ROS's" (exit 1): a bug is exit 70."""
    import robot_msgs.io.bag as bag_module
    from robot_msgs.cli import main

    def converting(msg: Any, msgtype: str) -> tuple[float, ...]:
        del msgtype
        return (float(msg.pose), 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)  # a Pose is no number

    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("poses", kind, {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    monkeypatch.setattr(bag_module, "_xyz_quat", converting)
    with pytest.raises(TypeError, match="float"):
        read_bag(bag, "/est")
    assert main(["traj", str(bag), "--topic", "/est"]) == 70
    assert "robot-msgs-bug-" in capsys.readouterr().err


def _read_wrongly(path: Path, wrong: str, foreign: list[Any]) -> None:
    """Read the bag at ``path`` passing rosbags a ``wrong`` argument, as a bug of ours might."""
    with open_bag(path) as reader:
        asked = foreign if wrong == "connection" else reader.connections
        for conn, _, raw in reader.messages(connections=asked):
            reader.deserialize(raw, conn.topic)  # the topic where its type belongs


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("wrong", ["type", "connection"])
def test_a_type_or_connection_the_bag_did_not_give_is_our_bug_not_damage(
    bags: BagMaker, kind: str, wrong: str
) -> None:
    """rosbags raises a KeyError for a type name or a connection it does not know, as for
    a damaged record: one we passed wrongly was said "the bag is damaged" (for a ROS 2 bag,
    "(KeyError: '/pose')"). Refused before rosbags is asked, as our own KeyError."""
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", pose) for pose in POSES]
    other = bags.write("other", kind, {"/pose": ("geometry_msgs/msg/PoseStamped", msgs)})
    with open_bag(open_path(other, kind)) as reader:
        foreign = list(reader.connections)
    said = "'/pose' is the type of no connection" if wrong == "type" else "'/pose' is no connection"
    with pytest.raises(KeyError, match=said):
        _read_wrongly(open_path(_pose_bag(bags, kind), kind), wrong, foreign)


@pytest.mark.parametrize("kind", KINDS)
def test_the_reader_of_open_bag_takes_rosbags_start_and_stop(bags: BagMaker, kind: str) -> None:
    """The checked reader open_bag hands out reads a span of log times as rosbags' does;
    the index's counts are not asked of a part of the bag."""
    with open_bag(open_path(_pose_bag(bags, kind), kind)) as reader:
        read = [t for _, t, _ in reader.messages(start=1_000_000_001, stop=1_000_000_002)]
    assert read == [1_000_000_001]  # the bag's log times are 1e9 + 0, 1, 2 ns


def test_a_topic_without_a_name_is_a_format_error(bags: BagMaker) -> None:
    """A NULL topic name in a .db3's index gave a TypeError from sorting (exit 70)."""
    import sqlite3

    bag = _pose_bag(bags, "sqlite3")
    db3 = next(bag.glob("*.db3"))
    with sqlite3.connect(db3) as db:
        db.executescript(
            "create table t2 as select * from topics; update t2 set name = NULL; "
            "drop table topics; alter table t2 rename to topics;"
        )
    with pytest.raises(FormatError, match=r"a topic without a name or type \(None, "):
        list_topics(db3)


def test_every_entry_of_a_large_bag_folder_is_checked(bags: BagMaker) -> None:
    """Only the first 10,000 names were checked: a FIFO metadata.yaml after them hung."""
    import os

    bag = _pose_bag(bags, "sqlite3")
    for k in range(10_001):
        (bag / f"{k:06d}.txt").touch()
    (bag / "metadata.yaml").unlink()
    os.mkfifo(bag / "metadata.yaml")
    with deadline(10), pytest.raises(FormatError, match=r"metadata\.yaml is a pipe"):
        list_topics(bag)


def test_a_bag_file_of_zeros_is_refused_by_its_first_line(tmp_path: Path) -> None:
    """A preallocated download never filled: rosbags read a 2 GB one whole looking for its
    first line end (34 s, 4.3 GB; a review). The magic line is checked first."""
    zeros = tmp_path / "download.bag"
    with zeros.open("wb") as f:
        f.truncate(1 << 20)
    with pytest.raises(
        FormatError, match=r"download\.bag: not a ROS 1 bag: it starts with b'\\x00"
    ):
        read_trajectory(zeros)


def _bag_of_its_own_definition(
    folder: Path, msgtype: str, definitions: dict[str, str], build: Any, storage: str = "mcap"
) -> Path:
    """A bag of 3 ``msgtype`` messages on ``/x``, some types under ``definitions``.

    A bag carries its message definitions and rosbags decodes by them, so a field can be
    text or an array where ROS has a number. ``build(types, k)`` makes message ``k``.
    ``storage``: ``mcap`` or ``sqlite3`` (a ROS 2 bag folder), ``rosbag1`` (a ``.bag``).
    """
    from rosbags.rosbag1 import Writer as Writer1
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore

    store = get_typestore(Stores.EMPTY)
    for name, text in definitions.items():
        store.register(get_types_from_msg(text, name))
    latest = get_typestore(Stores.LATEST)
    needed = [msgtype, *re.findall(r"\w+/msg/\w+", repr(store.fielddefs))]
    while needed:  # the types msgtype uses, as ROS defines them, unless redefined above
        name = needed.pop()
        if name in store.fielddefs:
            continue
        store.register({name: latest.fielddefs[name]})
        needed += re.findall(r"\w+/msg/\w+", repr(latest.fielddefs[name][1]))
    if storage == "rosbag1":
        path = folder.with_suffix(".bag")
        with Writer1(path) as writer1:
            conn1 = writer1.add_connection("/x", msgtype, typestore=store)
            for k in range(3):
                writer1.write(conn1, k + 1, store.serialize_ros1(build(store.types, k), msgtype))
        return path
    plugin = StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3
    with Writer(folder, version=9, storage_plugin=plugin) as writer:
        conn = writer.add_connection("/x", msgtype, typestore=store)
        for k in range(3):
            writer.write(conn, k + 1, store.serialize_cdr(build(store.types, k), msgtype))
    return folder


def _header(types: Any, k: int, frame: object = "map") -> Any:
    stamp = types["builtin_interfaces/msg/Time"](sec=k, nanosec=0)
    return types["std_msgs/msg/Header"](stamp=stamp, frame_id=frame)


def _ros_pose(types: Any, x: object = 1.0) -> Any:
    return types["geometry_msgs/msg/Pose"](
        position=types["geometry_msgs/msg/Point"](x=x, y=0.0, z=0.0),
        orientation=types["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=0.0, w=1.0),
    )


POINT_TEXT = "string x\nfloat64 y\nfloat64 z"
POINT_ARRAY = "float64[] x\nfloat64 y\nfloat64 z"
COVARIANCE = "geometry_msgs/Pose pose\nfloat64[{}] covariance"
STAMPED = "geometry_msgs/msg/PoseStamped"
WITH_COV = "geometry_msgs/msg/PoseWithCovarianceStamped"


def _stamped(x: object) -> Any:
    return lambda t, k: t[STAMPED](header=_header(t, k), pose=_ros_pose(t, x))


def _with_cov(covariance: Any) -> Any:
    return lambda t, k: t[WITH_COV](
        header=_header(t, k),
        pose=t["geometry_msgs/msg/PoseWithCovariance"](pose=_ros_pose(t), covariance=covariance(k)),
    )


TRANSFORM_INT_CHILD = (
    "std_msgs/Header header\nint32 child_frame_id\ngeometry_msgs/Transform transform"
)


def _transform(t: Any, k: int, *, x: object = 1.0, child: object = "base") -> Any:
    translation = t["geometry_msgs/msg/Vector3"](x=x, y=0.0, z=0.0)
    rotation = t["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=0.0, w=1.0)
    transform = t["geometry_msgs/msg/Transform"](translation=translation, rotation=rotation)
    return t["geometry_msgs/msg/TransformStamped"](
        header=_header(t, k), child_frame_id=child, transform=transform
    )


def _tf(t: Any, k: int) -> Any:
    return t["tf2_msgs/msg/TFMessage"](transforms=[_transform(t, k, x="a")])


@pytest.mark.parametrize(
    ("msgtype", "definitions", "build", "topic", "said"),
    [
        (
            STAMPED,
            {"geometry_msgs/msg/Point": POINT_TEXT},
            _stamped("abc"),
            "/x",
            r"/x: message 1's pose\.position\.x is text \('abc'\), not a float",
        ),
        (
            STAMPED,
            {"geometry_msgs/msg/Point": POINT_ARRAY},
            _stamped(np.array([1.0, 2.0])),
            "/x",
            r"/x: message 1's pose\.position\.x is an array of 2 values, not a float",
        ),
        (
            STAMPED,
            {"std_msgs/msg/Header": "builtin_interfaces/Time stamp\nint32 frame_id"},
            lambda t, k: t[STAMPED](header=_header(t, k, frame=7), pose=_ros_pose(t)),
            "/x",
            r"/x: message 1's header\.frame_id is 7, not text",
        ),
        (
            "geometry_msgs/msg/TransformStamped",
            {"geometry_msgs/msg/TransformStamped": TRANSFORM_INT_CHILD},
            lambda t, k: _transform(t, k, child=5),
            "/x",
            r"/x: message 1's child_frame_id is 5, not text",
        ),
        (
            WITH_COV,
            {"geometry_msgs/msg/PoseWithCovariance": COVARIANCE.format(35)},
            _with_cov(lambda k: np.ones(35)),
            "/x",
            r"/x: pose\.covariance holds 35 numbers, not 36 \(6x6\)",
        ),
        (
            WITH_COV,
            {"geometry_msgs/msg/PoseWithCovariance": COVARIANCE.format("")},
            _with_cov(lambda k: np.ones(36 + k)),
            "/x",
            r"/x: message 2's pose\.covariance is 37 values where message 1 has 36",
        ),
        (
            "tf2_msgs/msg/TFMessage",
            {"geometry_msgs/msg/Vector3": POINT_TEXT},
            _tf,
            "/x:map.base",
            r"/x map->base: transform 1's transform\.translation\.x is text \('a'\), not a float",
        ),
    ],
    ids=[
        "text-x",
        "array-x",
        "int-frame",
        "int-child",
        "35-covariance",
        "37-covariance",
        "tf-text-x",
    ],
)
def test_a_bag_whose_definition_has_no_numbers_where_ros_has_them_is_a_format_error(
    tmp_path: Path,
    msgtype: str,
    definitions: dict[str, str],
    build: Any,
    topic: str,
    said: str,
) -> None:
    """A bag defining Point.x as ``string`` or ``float64[]``, a covariance of 35 or of a
    varying number of values, gave NumPy's ValueError (``could not convert string to
    float``, ``cannot reshape array of size 105 into shape (6,6)``) out of
    read_trajectory; frame_id or child_frame_id as ``int32`` gave a trajectory whose
    frame was the int (or a TypeError, frames differing): said as the bag's definition."""
    bag = _bag_of_its_own_definition(tmp_path / "own", msgtype, definitions, build)
    with pytest.raises(FormatError, match=said + r".*: the bag's message definition differs"):
        read_trajectory(bag, topic=topic)


def _stamped_xy(t: Any, k: int) -> Any:
    point = t["geometry_msgs/msg/Point"](x=1.0, y=0.0)
    rotation = t["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=0.0, w=1.0)
    pose = t["geometry_msgs/msg/Pose"](position=point, orientation=rotation)
    return t[STAMPED](header=_header(t, k), pose=pose)


@pytest.mark.parametrize("storage", ["rosbag1", "mcap"])
def test_a_field_the_bags_own_definition_lacks_is_the_bags_not_our_bug(
    tmp_path: Path, storage: str
) -> None:
    """robot_msgs reads ``pose.position.z`` (its frame raises the AttributeError) of a bag
    whose Point has x and y only: the bag's definition differs, no bug of robot_msgs."""
    definitions = {"geometry_msgs/msg/Point": "float64 x\nfloat64 y"}
    bag = _bag_of_its_own_definition(tmp_path / "own", STAMPED, definitions, _stamped_xy, storage)
    said = (
        "its messages do not have the fields of the type they name (AttributeError: "
        "'geometry_msgs__msg__Point' object has no attribute 'z'); the bag's message "
        "definition differs from ROS's"
    )
    with pytest.raises(FormatError, match=re.escape(said)):
        read_trajectory(bag, topic="/x")


def _path_of_one_pose(t: Any, k: int) -> Any:
    pose = t[STAMPED](header=_header(t, k), pose=_ros_pose(t))
    return t["nav_msgs/msg/Path"](header=_header(t, k), poses=pose)


def _tf_of_one_transform(t: Any, k: int) -> Any:
    return t["tf2_msgs/msg/TFMessage"](transforms=_transform(t, k))


@pytest.mark.parametrize("storage", ["rosbag1", "mcap"])
@pytest.mark.parametrize(
    ("msgtype", "definition", "build", "topic", "field"),
    [
        (
            "nav_msgs/msg/Path",
            "std_msgs/Header header\ngeometry_msgs/PoseStamped poses",
            _path_of_one_pose,
            "/x",
            "PoseStamped",
        ),
        (
            "tf2_msgs/msg/TFMessage",
            "geometry_msgs/TransformStamped transforms",
            _tf_of_one_transform,
            "/x:map.base",
            "TransformStamped",
        ),
    ],
    ids=["path", "tf"],
)
def test_a_type_error_of_a_bag_defining_one_message_where_ros_has_an_array_is_the_bags(
    tmp_path: Path,
    storage: str,
    msgtype: str,
    definition: str,
    build: Any,
    topic: str,
    field: str,
) -> None:
    """robot_msgs iterates ``poses`` or ``transforms`` (its frame raises the TypeError) of a
    bag defining one message there: the bag's definition differs, no bug of robot_msgs."""
    bag = _bag_of_its_own_definition(
        tmp_path / "own", msgtype, {msgtype: definition}, build, storage
    )
    said = f"(TypeError: 'geometry_msgs__msg__{field}' object is not iterable); the bag's message "
    with pytest.raises(FormatError, match=re.escape(said + "definition differs from ROS's")):
        read_trajectory(bag, topic=topic)


QUATERNION_TEXT_W = "float64 x\nfloat64 y\nfloat64 z\nstring w"
POINT_BOOL = "bool x\nfloat64 y\nfloat64 z"
POINT_INT = "int32 x\nfloat64 y\nfloat64 z"


def _text_w(t: Any, k: int) -> Any:
    pose = _ros_pose(t)
    quaternion = t["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=0.0, w="1")
    return t[STAMPED](
        header=_header(t, k), pose=type(pose)(position=pose.position, orientation=quaternion)
    )


def _bool_tf(t: Any, k: int) -> Any:
    return t["tf2_msgs/msg/TFMessage"](transforms=[_transform(t, k, x=True)])


@pytest.mark.parametrize("storage", ["rosbag1", "sqlite3", "mcap"])
@pytest.mark.parametrize(
    ("msgtype", "definitions", "build", "topic", "said"),
    [
        (
            STAMPED,
            {"geometry_msgs/msg/Quaternion": QUATERNION_TEXT_W},
            _text_w,
            "/x",
            r"/x: message 1's pose\.orientation\.w is text \('1'\), not a float",
        ),
        (
            STAMPED,
            {"geometry_msgs/msg/Point": POINT_BOOL},
            _stamped(True),
            "/x",
            r"/x: message 1's pose\.position\.x is a bool \(True\), not a float",
        ),
        (
            STAMPED,
            {"geometry_msgs/msg/Point": POINT_INT},
            _stamped(1),
            "/x",
            r"/x: message 1's pose\.position\.x is an integer \(1\), not a float",
        ),
        (
            WITH_COV,
            {
                "geometry_msgs/msg/PoseWithCovariance": "geometry_msgs/Pose pose\nbool[36] covariance"
            },
            _with_cov(lambda k: np.ones(36, dtype=np.bool_)),
            "/x",
            r"/x: message 1's pose\.covariance holds bool values, not floats",
        ),
        (
            "tf2_msgs/msg/TFMessage",
            {"geometry_msgs/msg/Vector3": POINT_BOOL},
            _bool_tf,
            "/x:map.base",
            r"/x map->base: transform 1's transform\.translation\.x is a bool \(True\), not a float",
        ),
    ],
    ids=["text-w-1", "bool-x", "int-x", "bool-covariance", "tf-bool-x"],
)
def test_a_pose_field_that_is_no_float_in_the_bags_definition_is_refused_not_read_as_1(
    tmp_path: Path,
    msgtype: str,
    definitions: dict[str, str],
    build: Any,
    topic: str,
    said: str,
    storage: str,
) -> None:
    """A bag whose own definition makes Quaternion.w ``string`` holding "1", or Point.x
    ``bool``, was read as the number 1 (NumPy converts both): a coordinate is a float, as
    in ROS's definition; anything else is refused naming the file, topic and field."""
    bag = _bag_of_its_own_definition(tmp_path / "own", msgtype, definitions, build, storage)
    said = rf"^{re.escape(str(bag))} {said}: the bag's message definition differs from ROS's$"
    with pytest.raises(FormatError, match=said):
        read_trajectory(bag, topic=topic)


@pytest.mark.parametrize("fmt", ["bag", "bag2", "mcap"])
def test_a_loop_of_links_given_as_a_bag_is_said_as_such(tmp_path: Path, fmt: str) -> None:
    """A link loop was said as 'no such file or folder' (Path.exists is False for it), where
    the text readers say 'too many levels of symbolic links'."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(OSError, match=r"[Tt]oo many levels of symbolic links") as caught:
        read_trajectory(tmp_path / "a", format=fmt, topic="/x")
    assert caught.value.filename == str(tmp_path / "a")
    assert not isinstance(caught.value, FileNotFoundError)


@pytest.mark.parametrize("fmt", ["bag", "bag2", "mcap"])
def test_a_folder_without_metadata_is_said_to_lack_it(bags: BagMaker, fmt: str) -> None:
    """rosbags' 'Expected metadata file '.../runs' does not exist.' named the folder as the
    metadata file: a folder holding only a .db3 (its metadata.yaml lost) is said as such."""
    bag = _pose_bag(bags, "sqlite3")
    (bag / "metadata.yaml").unlink()
    said = rf"^{re.escape(str(bag))}: a folder without metadata\.yaml: not a ROS 2 bag folder"
    with pytest.raises(FormatError, match=said + r" \(give its \.db3 or \.mcap file\)$"):
        read_trajectory(bag, format=fmt, topic="/pose")


@pytest.mark.parametrize("count", ["-5", "null", "abc", "1.5e300"])
def test_a_message_count_in_metadata_that_is_no_count_is_said_so(
    bags: BagMaker, count: str
) -> None:
    """A bag folder's counts are its metadata.yaml's, unchecked by rosbags: -5 and 1.5e300
    were listed as counts, 'null' refused as 'its messages do not have the fields of the
    type they name' (int(None) in list_topics). The trajectory, which needs no count, reads."""
    bag = _pose_bag(bags, "sqlite3")
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    assert text.count("- message_count: 3\n") == 1  # the topic's; the file's is "  message_count"
    meta.write_text(text.replace("- message_count: 3\n", f"- message_count: {count}\n"))
    said = re.escape(f"{bag}: topic /pose's message count is ")
    with pytest.raises(FormatError, match=f"^{said}.*, no count of messages: the bag's index"):
        list_topics(bag)
    assert len(read_bag(bag, "/pose")) == 3


@pytest.mark.parametrize("storage", ["sqlite3", "mcap"])
@pytest.mark.parametrize("said_type", ["nav_msgs/msg/Odometry", "std_msgs/msg/String"])
def test_a_type_in_metadata_other_than_the_storage_holds_is_said(
    bags: BagMaker, storage: str, said_type: str
) -> None:
    """A bag folder whose metadata.yaml names another type for a topic than its .db3 or
    .mcap holds listed the topic with its count, and reading it said 'no messages'
    (rosbags reads a topic's messages of the type metadata.yaml names); list_topics
    still listed metadata.yaml's type after reading refused it."""
    bag = _pose_bag(bags, storage)
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    assert text.count("geometry_msgs/msg/PoseStamped") == 1
    meta.write_text(text.replace("geometry_msgs/msg/PoseStamped", said_type))
    (file,) = (f for f in bag.iterdir() if f.suffix in {".db3", ".mcap"})
    said = (
        f"{bag}: metadata.yaml says topic /pose holds {said_type}, but its {file.name} holds "
        f"geometry_msgs/msg/PoseStamped: the bag folder's index is damaged (give {file.name} "
        "itself to read what it holds)"
    )
    with pytest.raises(FormatError, match=f"^{re.escape(said)}$"):
        read_trajectory(bag, topic="/pose")
    # Listed as metadata.yaml's type and count, without a word (the listing `robot-msgs
    # traj` shows to choose a topic from).
    with pytest.raises(FormatError, match=f"^{re.escape(said)}$"):
        list_topics(bag)
    assert len(read_bag(file, "/pose")) == 3  # the file itself reads
    assert list_topics(file) == (TopicInfo("/pose", "geometry_msgs/msg/PoseStamped", 3),)


@pytest.mark.parametrize("kind", KINDS)
def test_a_bag_of_floats_is_not_tested_value_by_value(
    bags: BagMaker, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test of each value of each row (is it a float?) cost a tenth of reading a
    # 2e5-message bag: a column is checked by the types it holds, its rows walked only
    # when one is wrong (the refusals above say which message).
    from robot_msgs.io import tf

    def walked(value: object) -> bool:
        raise AssertionError(value)

    monkeypatch.setattr(tf, "_is_float", walked)
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    path = open_path(
        bags.write("poses", kind, {"/est": ("geometry_msgs/msg/PoseStamped", msgs)}), kind
    )
    assert read_bag(path, "/est").stamps_s.tolist() == STAMPS


@pytest.mark.parametrize(
    ("caller", "a_bug"), [("rosbags.rosbag1.reader", False), ("robot_msgs.io.x", True)]
)
def test_a_key_error_of_the_standard_library_counts_as_its_caller(caller: str, a_bug: bool) -> None:
    """A KeyError raised in a frame of ``os`` (called by rosbags or by us) is its caller's."""
    scope: dict[str, Any] = {"__name__": caller, "os": os}
    exec("def look_up():\n    return os.environ['ROBOT_MSGS_NO_SUCH_VARIABLE']", scope)  # noqa: S102
    with pytest.raises(KeyError, match="ROBOT_MSGS_NO_SUCH_VARIABLE") as caught:
        scope["look_up"]()
    assert _a_bug(caught.value) is a_bug


@st.composite
def _damage(draw: st.DrawFn, size: int) -> tuple[str, int, int]:
    """A cut at an offset, a byte changed, or a 4- or 8-byte field set to a huge length."""
    kind = draw(st.sampled_from(["cut", "flip", "huge4", "huge8"]))
    at = draw(st.integers(0, size - 1))
    value = {
        "cut": 0,
        "flip": draw(st.integers(1, 255)),
        "huge4": draw(st.sampled_from([2**31, 2**32 - 1])),
        "huge8": draw(st.sampled_from([2**31, 2**63, 2**64 - 1])),
    }[kind]
    return kind, at, value


@pytest.mark.parametrize("kind", KINDS)
def test_a_cut_or_damaged_bag_raises_only_our_errors(bags: BagMaker, kind: str) -> None:
    """Law: whatever a file's bytes, the bag readers raise nothing but RobotMsgsError,
    and neither hangs (20 s). A sweep of 3392 damaged copies of evo's bags (the ROS 1
    ones also bz2-compressed), its MCAP and a .db3 (cuts, flips, lengths of 2**31 and
    2**63, garbage chunks) found no other error, hang or read above 110 MB."""
    msgs = [bags.message(kind, "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    bag = bags.write("seed", kind, {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    seed = (next(bag.glob("*.db3")) if kind == "sqlite3" else open_path(bag, kind)).read_bytes()
    damaged = bags.folder / {"ros1": "d.bag", "sqlite3": "d.db3", "mcap": "d.mcap"}[kind]

    @settings(max_examples=40, deadline=None)
    @given(_damage(len(seed)))
    def check(damage: tuple[str, int, int]) -> None:
        how, at, value = damage
        data = bytearray(seed[:at] if how == "cut" else seed)
        if how == "flip":
            data[at] ^= value
        elif how != "cut":
            width = 4 if how == "huge4" else 8
            data[at : at + width] = value.to_bytes(8, "little")[:width]
        damaged.write_bytes(bytes(data))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)  # a damaged value, said so
            with deadline(20), contextlib.suppress(RobotMsgsError):
                read_bag(damaged, "/est")
            with deadline(20), contextlib.suppress(RobotMsgsError):
                list(read_records(damaged, "/est"))

    check()


def _db3_bag(folder: Path, n: int = 300) -> tuple[Path, PoseTrajectory]:
    """A ROS 2 sqlite3 bag of ``n`` poses (timestamp_idx on two leaf pages), and them."""
    from robot_msgs.io import write_trajectory
    from robot_msgs.trajectory import PoseTrajectory as Trajectory

    traj = Trajectory(
        stamps_s=np.linspace(1.7e9, 1.7e9 + (n - 1) * 0.1, n),
        positions_xyz=np.c_[np.arange(n) * 0.01, np.zeros((n, 2))],
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
    )
    bag = folder / "t.db3"
    write_trajectory(bag, traj)
    return bag, traj


def test_a_db3_whose_index_lost_entries_is_refused_not_read_short(tmp_path: Path) -> None:
    """A flipped cell count of a timestamp_idx leaf page: rosbags reads ``ORDER BY
    timestamp`` through that index, and the 300 poses were read as 229 without a word
    (of the flips of the index leaf pages' headers and cell pointers, the two of 614
    that were silent: the other leaf's, 283). SQLite's integrity check says it."""
    import sqlite3

    bag, _ = _db3_bag(tmp_path)
    with contextlib.closing(sqlite3.connect(bag)) as con:
        (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'timestamp_idx'")
    data = bytearray(bag.read_bytes())
    interior = (root[0] - 1) * 4096
    assert data[interior] == 0x02  # an index interior page: its right child is a leaf
    leaf = (struct.unpack(">I", data[interior + 8 : interior + 12])[0] - 1) * 4096
    assert data[leaf] == 0x0A
    data[leaf + 4] ^= 0xFF  # the low byte of the leaf's cell count
    bag.write_bytes(bytes(data))
    with pytest.raises(FormatError, match=r"t\.db3: cannot read the bag: it is damaged .*"
                       r"SQLite's integrity check: "):  # fmt: skip
        read_bag(bag, "/trajectory")


def test_a_db3_row_of_no_topic_is_refused_not_dropped(tmp_path: Path) -> None:
    """A row whose topic_id names no topic is valid SQLite, and rosbags' join left it
    out: 299 of 300 poses, silently. The table counts more rows than its topics."""
    import sqlite3

    bag, _ = _db3_bag(tmp_path)
    with contextlib.closing(sqlite3.connect(bag)) as con:
        con.execute("UPDATE messages SET topic_id = 99 WHERE id = 5")
        con.commit()
    with pytest.raises(
        FormatError, match=r"damaged .*the messages table has 300 rows, its topics 299"
    ):
        read_bag(bag, "/trajectory")


def test_a_bag_folder_topic_read_short_of_its_metadata_count_is_refused(bags: BagMaker) -> None:
    """metadata.yaml counts 4 messages of /pose, its .db3 holds 3: read as 3 without a
    word, where a ROS 1 bag's index was already checked so."""
    bag = _pose_bag(bags, "sqlite3")
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    assert text.count("- message_count: 3\n") == 1
    meta.write_text(text.replace("- message_count: 3\n", "- message_count: 4\n"))
    with pytest.raises(FormatError, match=r"damaged .*: /pose has 3 messages, its index 4\)$"):
        read_bag(bag, "/pose")


def test_the_files_of_a_split_bag_share_one_integrity_check_budget(
    bags: BagMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each .db3 of a split bag had its own SQLITE_CHECK_S (2 s): ten large files cost
    20 s at every open, and a command opens a bag up to 5 times. A fake clock: the first
    file's check takes 2.5 s, so the second is not checked (read as before, and said)."""
    import shutil
    from types import SimpleNamespace

    import robot_msgs.io.bag as bag_module

    bag = _pose_bag(bags, "sqlite3")
    (db3,) = bag.glob("*.db3")
    shutil.copy(db3, bag / "second.db3")
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    assert text.count(f"- {db3.name}\n") == 1
    meta.write_text(text.replace(f"- {db3.name}\n", f"- {db3.name}\n  - second.db3\n", 1))
    now = [0.0]
    checked = []
    check = bag_module._sqlite_damage

    def timed(*args: Any) -> tuple[bool, str | None]:
        checked.append(args[0])
        why = check(*args)
        now[0] += 2.5  # the check of one large file
        return why

    monkeypatch.setattr(bag_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(bag_module, "_sqlite_damage", timed)
    with (
        pytest.warns(
            DataWarning, match=r"integrity check of second\.db3 \([\d.]+ MB\) was not finished"
        ),
        open_bag(bag) as reader,
    ):
        assert len(reader.readers[0].storage.storages) == 2
    assert len(checked) == 1


def test_a_db3_not_checked_in_time_is_read_with_one_warning_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past SQLITE_CHECK_S (a 338 MB .db3 needs 4.5 s) a file kept its count checks
    only, and nothing said so. A budget already spent: the check is not started."""
    import robot_msgs.io.bag as bag_module

    bag, traj = _db3_bag(tmp_path)
    monkeypatch.setattr(bag_module, "SQLITE_CHECK_S", -1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read = read_bag(bag, "/trajectory")
        list_topics(bag)  # another open of the same bag: said once
    np.testing.assert_array_equal(read.positions_xyz, traj.positions_xyz)
    said = [str(w.message) for w in caught]
    size = bag.stat().st_size / 1e6
    assert said == [
        (
            f"{bag}: SQLite's integrity check of t.db3 ({size:.3g} MB) was not finished within "
            "its -1 s: only the message counts were checked, so messages that a damaged index "
            "page leaves out would be missed without a word"
        )
    ], said
    assert caught[0].category is DataWarning


def test_a_db3_check_stopped_by_the_budget_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check started in time and stopped by SQLite's progress handler (a fake clock:
    0 s until the check runs, then 10 s) is said as the check not started is."""
    from types import SimpleNamespace

    import robot_msgs.io.bag as bag_module

    bag, _ = _db3_bag(tmp_path, n=3000)
    calls = [0]

    def clock() -> float:
        calls[0] += 1
        return 0.0 if calls[0] <= 2 else 10.0  # the budget's start, the file's start

    monkeypatch.setattr(bag_module, "time", SimpleNamespace(monotonic=clock))
    with pytest.warns(DataWarning, match=r"t\.db3: SQLite's integrity check of t\.db3 \([\d.]+ MB\) "
                      r"was not finished within its 2 s: only the message counts"):  # fmt: skip
        read_bag(bag, "/trajectory")
    assert calls[0] >= 3  # the progress handler asked the clock


# A .db3 while rosbag2 records: SQLite's files beside it --------------------------------


def _beside(db3: Path) -> dict[str, bytes]:
    """The bytes of ``db3`` and of every file named after it beside it (-wal, -shm, ...)."""
    return {f.name: f.read_bytes() for f in sorted(db3.parent.glob(db3.name + "*"))}


def _and_later(folder: Path) -> tuple[Path, PoseTrajectory, Path]:
    """``t.db3`` of 300 poses, and 300 more, 30 s later, in ``later.db3``."""
    from robot_msgs.io import write_trajectory

    bag, traj = _db3_bag(folder)
    more = traj.__class__(
        stamps_s=traj.stamps_s + 30.0,
        positions_xyz=traj.positions_xyz + 5.0,
        orientations_quat_xyzw=traj.orientations_quat_xyzw,
    )
    later = folder / "later.db3"
    write_trajectory(later, more)
    return bag, more, later


def _recording(folder: Path, journal: str) -> tuple[Path, Any, PoseTrajectory]:
    """``t.db3`` of 300 poses and a writer (sqlite3, journal mode ``journal``) still open,
    which has written 300 more poses, 30 s later: committed in WAL mode (not checkpointed),
    in an unfinished transaction whose pages spilled into the file in DELETE mode."""
    import sqlite3

    bag, more, later = _and_later(folder)
    writer = sqlite3.connect(bag, isolation_level=None)
    assert writer.execute(f"PRAGMA journal_mode={journal}").fetchone() == (journal.lower(),)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("PRAGMA cache_size=1")  # pages spill to the file (or the log) at once
    writer.execute("ATTACH ? AS later", (str(later),))
    writer.execute("BEGIN")
    writer.execute("INSERT INTO main.messages (topic_id, timestamp, data) "
                   "SELECT topic_id, timestamp, data FROM later.messages")  # fmt: skip
    if journal == "WAL":
        writer.execute("COMMIT")
    return bag, writer, more


@pytest.mark.parametrize(
    ("journal", "said"),
    [
        # Read as the 300 poses in the file, the 300 committed in t.db3-wal left out, unsaid.
        # "may hold": a -wal whose frames were all checkpointed before a crash holds none.
        ("WAL", (r"t\.db3-wal beside it is not empty: it may hold SQLite writes not yet in "
                 r"t\.db3, which a read-only reader leaves out; read the bag when the "
                 r"recording has ended")),
        # Said: it is damaged (... SQLite's integrity check: wrong # of entries in index).
        ("DELETE", (r"t\.db3-journal beside it holds an unfinished SQLite transaction, so "
                    r"t\.db3 is not whole; read the bag when the recording has ended")),
    ],
)  # fmt: skip
def test_a_db3_still_being_written_is_refused_as_such_and_left_as_it_is(
    tmp_path: Path, journal: str, said: str
) -> None:
    bag, writer, _ = _recording(tmp_path, journal)
    try:
        before = _beside(bag)
        assert (bag.name + ("-wal" if journal == "WAL" else "-journal")) in before
        for read in (lambda: read_bag(bag, "/trajectory"), lambda: list_topics(bag)):
            with pytest.raises(FormatError, match=rf"^{re.escape(str(bag))}: the bag is still "
                               rf"being written, or its recorder stopped .*{said}") as caught:  # fmt: skip
                read()
            assert "damaged" not in str(caught.value)
        assert _beside(bag) == before  # nothing written, no file made or removed
    finally:
        writer.close()


def test_a_db3_whose_log_was_all_checkpointed_before_a_crash_is_read_whole(
    tmp_path: Path,
) -> None:
    """The recorder committed 300 more poses, SQLite checkpointed them into t.db3, and the
    recorder stopped before closing: t.db3-wal keeps its frames (82 KB), all in the file.
    It was refused ("may hold SQLite writes not yet in t.db3"); its pages are the file's,
    so the 600 poses are read, and nothing beside the bag is written."""
    bag, writer, more = _recording(tmp_path, "WAL")
    try:
        assert writer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[0] == 0
        before = _beside(bag)
        assert len(before["t.db3-wal"]) > 0
        read = read_bag(bag, "/trajectory")
        assert [(t.topic, t.message_count) for t in list_topics(bag)] == [("/trajectory", 600)]
        assert _beside(bag) == before
    finally:
        writer.close()
    assert len(read) == 600
    np.testing.assert_array_equal(read.positions_xyz[300:], more.positions_xyz)


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: the lock is not asked about")
def test_a_db3_whose_recorder_still_runs_is_refused_though_its_log_is_all_in_the_file(
    tmp_path: Path,
) -> None:
    """A recorder still running (SQLite, in another process) committed 300 more poses and
    checkpointed them: its -wal is all in t.db3, as a crashed one's is, and the bag was
    read as the 600 poses so far, without a word, while it went on writing. It holds
    t.db3-shm locked: refused, naming it. Killed (-9, a crash), the bag reads whole.
    Nothing beside the bag is written."""
    bag, more, later = _and_later(tmp_path)
    statements = (
        "PRAGMA journal_mode=WAL",
        "PRAGMA wal_autocheckpoint=0",
        "ATTACH '{}' AS later".format(str(later).replace("'", "''")),
        (
            "INSERT INTO main.messages (topic_id, timestamp, data) "
            "SELECT topic_id, timestamp, data FROM later.messages"
        ),
        "PRAGMA wal_checkpoint(PASSIVE)",
    )
    with sqlite_held_open(bag, *statements) as recorder:
        before = _beside(bag)
        assert len(before["t.db3-wal"]) > 0
        for attempt in (lambda: read_bag(bag, "/trajectory"), lambda: list_topics(bag)):
            with pytest.raises(FormatError, match=(
                rf"^{re.escape(str(bag))}: the bag is still being recorded \(process "
                rf"{recorder.pid} holds it open: a lock on t\.db3-shm beside it\): a read "
                r"now would leave out what it writes next; read the bag when the recording "
                r"has ended$"
            )):  # fmt: skip
                attempt()
        assert _beside(bag) == before
        recorder.kill()
        recorder.wait()
    read = read_bag(bag, "/trajectory")
    assert len(read) == 600
    np.testing.assert_array_equal(read.positions_xyz[300:], more.positions_xyz)
    assert _beside(bag) == before


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: the lock is not asked about")
def test_a_finished_db3_a_viewer_holds_open_is_read(tmp_path: Path) -> None:
    """A finished bag in WAL mode that a viewer (``sqlite3``, another process) holds open,
    only reading: the viewer keeps t.db3-shm locked, but its -wal is empty, so nothing is
    left out. The lock alone refused it as "still being recorded (process N holds it
    open...)", which a recorder still running is only while it has a log to fold in."""
    bag, traj = _db3_bag(tmp_path)
    statements = ("PRAGMA journal_mode=WAL", "SELECT count(*) FROM messages")
    with sqlite_held_open(bag, *statements):
        before = _beside(bag)
        assert before.get("t.db3-wal", b"") == b""
        assert "t.db3-shm" in before
        read = read_bag(bag, "/trajectory")
        assert _beside(bag) == before
    np.testing.assert_array_equal(read.positions_xyz, traj.positions_xyz)


def test_the_way_out_of_a_stopped_recorders_log_names_the_file_wherever_it_is_run(
    tmp_path: Path,
) -> None:
    """A bag copied, with its -wal, from a machine whose recorder stopped without closing
    it. The command said named the .db3 by its name only: run anywhere but the bag's
    folder, sqlite3 made an empty t.db3 there, answered 0|-1|-1, and the bag stayed
    refused. It names the file as given (quoted for the shell) and says it writes it."""
    import shutil
    import subprocess

    bag, writer, more = _recording(tmp_path, "WAL")
    copy = tmp_path / "copied bag" / "t.db3"
    copy.parent.mkdir()
    try:
        for f in (bag, bag.with_name("t.db3-wal")):
            shutil.copyfile(f, copy.with_name(f.name))
    finally:
        writer.close()
    with pytest.raises(FormatError, match=r"the bag is still being written") as caught:
        read_bag(copy, "/trajectory")
    said = str(caught.value)
    command = said.split("`")[1]
    assert command == f"sqlite3 '{copy}' 'PRAGMA wal_checkpoint(TRUNCATE)'", said
    assert "writing it" in said
    if shutil.which("sqlite3") is None:
        return
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    subprocess.run(command, shell=True, cwd=elsewhere, check=True, capture_output=True)  # noqa: S602
    assert list(elsewhere.iterdir()) == []
    read = read_bag(copy, "/trajectory")
    assert len(read) == 600
    np.testing.assert_array_equal(read.positions_xyz[300:], more.positions_xyz)


def test_a_bag_folder_whose_db3_is_a_link_is_refused_by_the_log_beside_its_file(
    tmp_path: Path,
) -> None:
    """A bag folder whose .db3 is linked from where the recorder writes it: SQLite keeps
    the -wal beside the file, which the check looked for beside the link, so the folder
    was opened without a word (the log's writes left out), while the .db3 named itself
    (resolved) was refused. A link loop named .db3 stays said by the folder check."""
    bag, writer, _ = _recording(tmp_path, "WAL")
    try:
        folder = tmp_path / "bag"
        folder.mkdir()
        (folder / "t.db3").symlink_to(bag)
        (folder / "metadata.yaml").write_text(
            "rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: sqlite3\n"
            "  relative_file_paths: [t.db3]\n  duration: {nanoseconds: 1}\n"
            "  starting_time: {nanoseconds_since_epoch: 0}\n  message_count: 600\n"
            "  topics_with_message_count: []\n  compression_format: ''\n"
            "  compression_mode: ''\n"
        )
        with pytest.raises(FormatError, match=r"t\.db3-wal beside it is not empty: it may hold"):
            list_topics(folder)
    finally:
        writer.close()
    loop = tmp_path / "loop"
    loop.mkdir()
    (loop / "a.db3").symlink_to(loop / "a.db3")
    with pytest.raises((FormatError, OSError)) as caught:
        list_topics(loop)
    assert "still being written" not in str(caught.value)


def test_a_db3_recorded_in_wal_mode_and_closed_reads_all_without_a_file_made(
    tmp_path: Path,
) -> None:
    """The writer closed, SQLite folded its log into the file (still in WAL mode): the
    bag reads whole, 600 poses. And reading a bag makes no -wal, -shm or -journal file
    beside it, nor changes it: rosbags opens it immutable."""
    bag, writer, more = _recording(tmp_path, "WAL")
    writer.close()
    before = _beside(bag)
    assert list(before) == ["t.db3"]
    assert before["t.db3"][18:20] == b"\x02\x02"  # the header's WAL mode, kept on close
    read = read_bag(bag, "/trajectory")
    assert len(read) == 600
    np.testing.assert_array_equal(read.positions_xyz[300:], more.positions_xyz)
    assert _beside(bag) == before


@pytest.mark.parametrize("beside", ["-wal", "-journal"])
def test_a_file_beside_a_db3_deleted_as_it_is_looked_at_is_taken_as_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside: str
) -> None:
    """SQLite deletes its -wal when the last connection closes and a rollback journal
    when a transaction ends: one seen by is_file, gone by the stat or open after it,
    escaped as FileNotFoundError naming the -wal or -journal (a race with a recorder
    ending). Gone, it holds nothing: the check passes (the bag is read)."""
    from pathlib import Path as RealPath

    from robot_msgs.io import bag as bag_module

    db = tmp_path / "t.db3"
    db.write_bytes(b"SQLite format 3\x00" + bytes(84))
    gone = db.with_name(db.name + beside)
    real_is_file = RealPath.is_file

    def is_file(self: Path) -> bool:  # there when looked at, deleted just after
        return self == gone or real_is_file(self)

    monkeypatch.setattr(RealPath, "is_file", is_file)
    bag_module._check_not_being_written(db, "t.db3")


def test_read_bag_says_how_many_frames_it_leaves_unnamed(bags: BagMaker) -> None:
    """Seven frames were cut at five with nothing said of the other two: "messages are in
    7 frames (f0, f1, f2, f3, f4; 'f1' from message 2)"."""
    poses = [(10 + k, 0, f"f{k}", (float(k), 0.0, 0.0), ID) for k in range(7)]
    msgs = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in poses]
    path = bags.write("seven", "sqlite3", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    with pytest.warns(DataWarning) as said:
        read_bag(path, "/est")
    assert [str(w.message) for w in said] == [
        (
            f"{path} /est: messages are in 7 frames (f0, f1, f2, f3, f4 and 2 more; 'f1' "
            "from message 2): frame_id set to the first, 'f0'"
        )
    ]


def test_topics_of_types_lists_the_topics_of_the_types_asked_and_pose_topics_the_poses(
    bags: BagMaker,
) -> None:
    """``track`` found its JointState topics by ``pose_topics(types=...)``, a call that
    read as one for poses; each is now said by what it asks."""
    from robot_msgs.io.bag import POSE_TYPES, topics_of_types
    from robot_msgs.io.detect import pose_topics

    tf = bags.tf_message("sqlite3", [(POSES[0], "base_link")])
    poses = [bags.message("sqlite3", "geometry_msgs/msg/PoseStamped", p) for p in POSES]
    path = bags.write(
        "two",
        "sqlite3",
        {"/est": ("geometry_msgs/msg/PoseStamped", poses), "/tf": ("tf2_msgs/msg/TFMessage", [tf])},
    )
    assert topics_of_types(path, ("tf2_msgs/msg/TFMessage",)) == ["/tf"]
    assert topics_of_types(path, POSE_TYPES) == pose_topics(path) == ["/est"]


def test_read_bag_reports_an_odometry_child_frame_that_changes_mid_bag(bags: BagMaker) -> None:
    """An Odometry topic whose child_frame_id went from base_link to base_footprint at its
    third message was read without a word, as the last message's child frame."""
    msgs = [
        bags.message("sqlite3", "nav_msgs/msg/Odometry", p, child=child)
        for p, child in zip(POSES, ("base_link", "base_link", "base_footprint"), strict=True)
    ]
    path = bags.write("child", "sqlite3", {"/odom": ("nav_msgs/msg/Odometry", msgs)})
    with pytest.warns(DataWarning) as said:
        assert read_bag(path, "/odom").child_frame_id == "base_link"
    assert [str(w.message) for w in said] == [
        (
            f"{path} /odom: messages are in 2 child frames (base_footprint, base_link; "
            "'base_footprint' from message 3): child_frame_id set to the first, 'base_link'"
        )
    ]
    assert [w.message.kind for w in said if isinstance(w.message, DataWarning)] == ["mixed_frames"]


def test_a_ros2_bag_without_message_definitions_is_read_with_the_latest_types(
    tmp_path: Path,
) -> None:
    # A SQLite bag recorded before Iron holds no message definitions: rosbags takes the
    # types from the default type store, which open_bag now imports on first use only.
    import sqlite3

    from robot_msgs.io import write_trajectory_bag

    gt = read_trajectory("example:fr1_xyz/groundtruth.tum")
    bag = tmp_path / "gt.db3"
    write_trajectory_bag(bag, gt, topic="/gt")
    with contextlib.closing(sqlite3.connect(bag)) as db:
        db.execute("DELETE FROM message_definitions")
        db.commit()
    got = read_trajectory(bag, topic="/gt")
    assert len(got) == len(gt) == 3000
    np.testing.assert_allclose(got.stamps_s, gt.stamps_s, rtol=0, atol=1e-6)  # ns in the bag
    np.testing.assert_allclose(got.positions_xyz, gt.positions_xyz, rtol=0, atol=1e-12)


def test_a_type_store_that_fails_to_import_is_said_as_rosbags_not_the_bags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The latest type store, imported inside ``AnyReader.open()`` since it became lazy,
    failed as "gt.db3: cannot open as a ROS bag (ModuleNotFoundError ...)", blaming a
    sound bag for a broken rosbags; it is the installation's error, naming the bag."""
    import sqlite3

    import rosbags.highlevel  # its own get_typestore, for the empty store, stays whole
    import rosbags.typesys

    from robot_msgs.errors import MissingDependencyError
    from robot_msgs.io import write_trajectory_bag

    bag = tmp_path / "gt.db3"
    write_trajectory_bag(bag, read_trajectory("example:fr1_xyz/groundtruth.tum"), topic="/gt")
    with contextlib.closing(sqlite3.connect(bag)) as db:
        db.execute("DELETE FROM message_definitions")
        db.commit()

    whole = rosbags.typesys.get_typestore

    def broken(name: rosbags.typesys.Stores) -> object:
        if name is not rosbags.typesys.Stores.LATEST:
            return whole(name)
        msg = "No module named 'rosbags.typesys.stores.ros2_kilted'"  # a broken install
        raise ModuleNotFoundError(msg)

    monkeypatch.setattr(rosbags.typesys, "get_typestore", broken)
    said = r"gt\.db3: defines none of its message types, and rosbags' ROS 2 type store failed"
    with pytest.raises(MissingDependencyError, match=said) as info:
        read_trajectory(bag, topic="/gt")
    assert "cannot open" not in str(info.value)
