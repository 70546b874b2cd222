"""Bags as messages: read_messages/read_records streaming, writing messages and trajectories."""

from __future__ import annotations

import re
import tracemalloc
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.errors import FormatError, OutputExistsError, ValidationError
from robot_msgs.geometry import PoseStamped
from robot_msgs.msg.catalog import example, examples
from robot_msgs.nav import Odometry
from robot_msgs.nav import Path as NavPath
from robot_msgs.std import Time
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tests.io.conftest import BagMaker

pytest.importorskip("rosbags")

from robot_msgs.io import (
    BagRecord,
    TopicInfo,
    read_bag,
    read_messages,
    read_records,
    write_messages,
    write_records,
    write_trajectory,
    write_trajectory_bag,
)


def _exact_trajectory() -> PoseTrajectory:
    # Stamps with nanoseconds a float64 of seconds since 1970 cannot hold.
    ns = 1_700_000_000_000_000_000 + np.array([1, 333_333_337, 666_666_671, 999_999_999])
    poses = [
        PoseStamped.from_dict(
            {
                "header": {"stamp": Time.from_ns(int(t)).to_dict(), "frame_id": "odom"},
                "pose": {"position": {"x": 0.5 * i, "y": -0.25 * i, "z": 0.0}},
            }
        )
        for i, t in enumerate(ns)
    ]
    return PoseTrajectory.from_poses(poses, child_frame_id="base_link")


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_trajectory_reads_back_equal_with_exact_stamps(tmp_path: Path, suffix: str) -> None:
    traj = _exact_trajectory()
    with pytest.warns(DataWarning, match=r"child frame \(base_link\): not written"):
        out = write_trajectory_bag(tmp_path / f"t{suffix}", traj, topic="/est")
    back = read_bag(out, "/est")
    assert back.stamps_ns is not None
    assert traj.stamps_ns is not None
    assert back.stamps_ns.tolist() == traj.stamps_ns.tolist()
    assert back == traj.replace(child_frame_id="")  # PoseStamped carries no child frame
    poses = [m for m in read_messages(out, "/est") if isinstance(m, PoseStamped)]
    assert len(poses) == len(traj)
    assert PoseTrajectory.from_poses(poses) == back
    records = list(read_records(out, "/est"))
    assert [r.log_time_ns for r in records] == traj.stamps_ns.tolist()  # logged at the stamps
    assert {r.seq for r in records} == {None}


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_path_and_odometry_layouts_read_back(tmp_path: Path, suffix: str) -> None:
    traj = _exact_trajectory()
    with pytest.warns(DataWarning, match=r"child frame \(base_link\): not written"):
        path_bag = write_trajectory_bag(tmp_path / f"p{suffix}", traj, layout="path")
    (message,) = read_messages(path_bag, "/trajectory")
    assert isinstance(message, NavPath)
    assert PoseTrajectory.from_path(message, child_frame_id="base_link") == traj
    assert read_bag(path_bag, "/trajectory").replace(child_frame_id="base_link") == traj
    odom_bag = write_trajectory_bag(tmp_path / f"o{suffix}", traj, layout="odometry")
    odometry = list(read_messages(odom_bag, "/trajectory"))
    assert all(isinstance(m, Odometry) and m.child_frame_id == "base_link" for m in odometry)
    assert read_bag(odom_bag, "/trajectory") == traj


def test_every_catalogued_message_writes_and_reads_back(tmp_path: Path) -> None:
    records = [
        BagRecord(f"/{name.replace('/', '_')}", 1_000 + i, msg)
        for i, (name, msg) in enumerate(sorted(examples().items()))
    ]
    out = write_records(tmp_path / "all.mcap", records)
    assert list(read_records(out)) == records


@pytest.mark.parametrize(("suffix", "sizes"), [(".db3", (500, 5000)), (".mcap", (1500, 6000))])
def test_read_messages_streams(tmp_path: Path, suffix: str, sizes: tuple[int, int]) -> None:
    """Peak memory while reading does not grow with the bag (4x or 10x the messages).

    MCAP is read a chunk at a time (rosbags writes ~1 MB chunks): both sizes span chunks.
    """
    base = example("nav/Odometry")
    assert isinstance(base, Odometry)
    warm = write_messages(tmp_path / f"warm{suffix}", "/odom", [base])
    assert len(list(read_messages(warm, "/odom"))) == 1  # imports and caches, not traced
    peaks = []
    for n in sizes:
        stamps = (Time.from_ns(10**9 + i * 10**7) for i in range(n))
        bag = write_messages(
            tmp_path / f"o{n}{suffix}",
            "/odom",
            (base.replace(header=base.header.replace(stamp=s)) for s in stamps),
        )
        tracemalloc.start()
        count = sum(1 for _ in read_messages(bag, "/odom"))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert count == n
    assert peaks[1] < 2 * peaks[0], peaks


def test_ros1_seq_is_kept_in_records(bags: BagMaker) -> None:
    pose = (5, 7, "map", (1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0))
    msg = bags.message("ros1", "geometry_msgs/msg/PoseStamped", pose)
    msg.header.seq = 17
    bag = bags.write("seq", "ros1", {"/pose": ("geometry_msgs/msg/PoseStamped", [msg])})
    (record,) = read_records(bag, "/pose")
    assert record.seq == 17
    assert isinstance(record.message, PoseStamped)
    assert record.message.header.stamp == Time(sec=5, nanosec=7)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("op", " (ReaderError: Expected to find message data.)"),
        (
            "time",
            (
                ": it is damaged (a record does not match its header or the bag's index: /est: "
                "a message's log time is 1000000001 ns in the index, 1 ns in its record)"
            ),
        ),
    ],
)
def test_read_records_says_a_damaged_bag_as_read_bag_does_naming_the_message_before(
    bags: BagMaker, damage: str, said: str
) -> None:
    """read_records said a damaged record "cannot be read (ReaderError: ...)", read_bag "cannot
    read the bag (...)"; an AssertionError of rosbags passed to open_bag unnamed. One wording
    now, read_records' naming the last message read."""
    poses = [(10, 0, "map", (1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0))] * 2
    msgs = [bags.message("ros1", "geometry_msgs/msg/PoseStamped", p) for p in poses]
    bag = bags.write("two", "ros1", {"/est": ("geometry_msgs/msg/PoseStamped", msgs)})
    data = bytearray(bag.read_bytes())
    second = data.index(b"op=\x02", data.index(b"op=\x02") + 1)  # the second message's header
    if damage == "op":
        data[second + 3] = 3  # a bag header's op where a message's is
    else:
        data[data.index(b"time=", second) + 5] ^= 1  # its time, 1 ns off its index's
    bag.write_bytes(bytes(data))
    with pytest.raises(FormatError, match=f"^{re.escape(f'{bag}: cannot read the bag{said}')}$"):
        read_bag(bag, "/est")
    expected = f"{bag}, after /est's message at 1000000000 ns: cannot read the bag{said}"
    with pytest.raises(FormatError, match=f"^{re.escape(expected)}$"):
        list(read_records(bag, "/est"))


def test_writing_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    odom = example("nav/Odometry")
    out = write_messages(tmp_path / "a.mcap", "/odom", [odom])
    with pytest.raises(OutputExistsError, match=r"a.mcap exists; pass `force=True`"):
        write_messages(out, "/odom", [odom])
    assert write_messages(out, "/odom", [odom, odom], force=True) == out
    with pytest.raises(FormatError, match=r"expected a .mcap or .db3 bag, got '.bag'"):
        write_messages(tmp_path / "a.bag", "/odom", [odom])
    with pytest.raises(FormatError, match=r"expected nav_msgs/msg/Odometry messages"):
        write_messages(tmp_path / "b.mcap", "/odom", [odom, example("geometry/PoseStamped")])
    assert not (tmp_path / "b.mcap").exists()  # never a partial file
    with pytest.raises(ValidationError, match=r"no header stamp\): pass log_times_ns"):
        write_messages(tmp_path / "c.mcap", "/p", [example("geometry/Point")])
    write_messages(tmp_path / "c.mcap", "/p", [example("geometry/Point")], log_times_ns=[5])
    with pytest.raises(FormatError, match=r"no topic '/nope'; topics: /odom \(nav_msgs"):
        next(read_messages(out, "/nope"))


def test_a_log_time_the_storage_cannot_hold_is_refused_naming_it(tmp_path: Path) -> None:
    """MCAP stores log times as unsigned 64 bits, sqlite as signed: a log time of -1 ns
    into a .mcap let rosbags' OverflowError out ("can't convert negative int to
    unsigned"), 2**63 ns into a .db3 sqlite's; both are refused naming the file, the
    topic and the message, and nothing is written."""
    odom = example("nav/Odometry")
    for name, time_ns in (("a.mcap", -1), ("b.mcap", 2**64), ("c.db3", 2**63)):
        with pytest.raises(
            ValidationError, match=rf"{name} /odom: message 1's log time {time_ns} ns"
        ):
            write_messages(tmp_path / name, "/odom", [odom, odom], log_times_ns=[0, time_ns])
    assert list(tmp_path.iterdir()) == []  # never a partial file
    out = write_messages(tmp_path / "d.db3", "/odom", [odom], log_times_ns=[-1])
    assert [r.log_time_ns for r in read_records(out)] == [-1]  # sqlite holds it
    out = write_messages(tmp_path / "e.mcap", "/odom", [odom], log_times_ns=[2**64 - 1])
    assert [r.log_time_ns for r in read_records(out)] == [2**64 - 1]


@pytest.mark.parametrize(
    ("log_time", "shown"),
    [
        (float("nan"), "nan"),  # let Python's ValueError out of int()
        (float("inf"), "inf"),  # let Python's OverflowError out of int()
        (1.7, "1.7"),  # was written as 1 ns, without a word
        ("12", "'12'"),  # text was read as a number
        (None, "None"),  # was read as the end of the log times: "got 0 for more messages"
    ],
)
def test_a_log_time_that_is_no_whole_number_of_nanoseconds_is_refused_naming_it(
    tmp_path: Path, log_time: Any, shown: str
) -> None:
    odom = example("nav/Odometry")
    with pytest.raises(
        ValidationError,
        match=rf"a.mcap /odom: message 1's log time {shown} is no whole number of nanoseconds",
    ):
        write_messages(tmp_path / "a.mcap", "/odom", [odom, odom], log_times_ns=[0, log_time])
    assert list(tmp_path.iterdir()) == []  # never a partial file
    out = write_messages(tmp_path / "b.mcap", "/odom", [odom], log_times_ns=[np.float64(3.0)])
    assert [r.log_time_ns for r in read_records(out)] == [3]  # a whole float is its integer


@pytest.mark.parametrize(
    ("record", "said"),
    [
        (BagRecord("/s", 1, None), r"message 0 on /s is a NoneType, not a robot_msgs message"),  # type: ignore[arg-type]
        (BagRecord(5, 1, example("std/String")), r"message 0's topic 5 is no text"),  # type: ignore[arg-type]
        (BagRecord("/s\ud800", 1, example("std/String")), r"message 0's topic '/s\\ud800' is no"),
    ],
)
def test_a_record_rosbags_cannot_write_is_our_error(
    tmp_path: Path, record: BagRecord, said: str
) -> None:
    """They let AttributeError and UnicodeEncodeError out of rosbags' writer."""
    with pytest.raises(ValidationError, match=said):
        write_records(tmp_path / "a.mcap", [record])
    assert list(tmp_path.iterdir()) == []


def test_a_bag_written_through_a_link_to_a_file_named_otherwise(tmp_path: Path) -> None:
    """Through a link out.mcap -> store.dat (force=True, as the refusal without it asks)
    the write failed, "No such file or directory: '.store.dat.0.tmp/store/store.dat'": the
    bag written by the link's suffix was looked for by the target's."""
    odom = example("nav/Odometry")
    link = tmp_path / "out.mcap"
    link.symlink_to(tmp_path / "store.dat")
    assert write_messages(link, "/odom", [odom], force=True) == link
    assert (tmp_path / "store.dat").read_bytes().startswith(b"\x89MCAP")
    assert list(read_messages(link, "/odom")) == [odom]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mcap", "store.dat"]


def test_a_trajectory_stamped_before_1970_or_past_2038_is_refused_naming_the_bag(
    tmp_path: Path,
) -> None:
    """A trajectory stamped -1 s written to .mcap let an OverflowError out of
    write_trajectory (the command line: "a bug in robot_msgs"); one stamped 3e9 s (2065)
    said only "Expected int32 ..., got int 3000000000 - at `Time.sec`", no file and no
    pose. A ROS 2 header stamp holds int32 seconds (2**31 s is 2038-01-19T03:14:08Z)."""
    quat = np.array([[0.0, 0, 0, 1]] * 2)
    before = PoseTrajectory(
        stamps_s=np.array([-1.0, 0.0]), positions_xyz=np.zeros((2, 3)), orientations_quat_xyzw=quat
    )
    with pytest.raises(
        ValidationError, match=r"b\.mcap: pose 0's stamp -1\.0 s is before 1970, outside what a"
    ):
        write_trajectory(tmp_path / "b.mcap", before)
    back = read_bag(write_trajectory(tmp_path / "b.db3", before)[0], "/trajectory")
    assert back.stamps_s.tolist() == [-1.0, 0.0]  # a .db3 holds it
    late = np.array([2.0**31 - 1, 2.0**31])  # the last second a header holds, then the next
    past = PoseTrajectory(
        stamps_s=late, positions_xyz=np.zeros((2, 3)), orientations_quat_xyzw=quat
    )
    for name in ("p.mcap", "p.db3"):
        with pytest.raises(
            ValidationError,
            match=rf"{name}: pose 1's stamp 2147483648.0 s is at or after 2038-01-19T03:14:08Z",
        ):
            write_trajectory(tmp_path / name, past)
    far = past.replace(stamps_s=np.array([1e10, 1e10 + 1]))  # past int64 nanoseconds
    with pytest.raises(ValidationError, match=r"f\.db3: stamp 10000000000\.0 s does not fit int64"):
        write_trajectory(tmp_path / "f.db3", far)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db3"]


@pytest.mark.evo_data
def test_nav2_odometry_keeps_twist_covariance_and_frames(evo_data: Path) -> None:
    odometry = list(read_messages(evo_data / "nav2_turtlebot.mcap", "/odom"))
    assert len(odometry) == 2639
    assert all(isinstance(m, Odometry) for m in odometry)
    assert {m.header.frame_id for m in odometry if isinstance(m, Odometry)} == {"odom"}
    moving = [m for m in odometry if isinstance(m, Odometry) and m.twist.twist.linear.x != 0.0]
    assert moving  # the robot drives: the twist that read_bag drops is here
    traj = read_bag(evo_data / "nav2_turtlebot.mcap", "/odom")
    assert traj.stamps_ns is not None
    first = odometry[0]
    assert isinstance(first, Odometry)
    assert int(traj.stamps_ns[0]) == first.header.stamp.to_ns()


# --------------------------------------------------------------------------- whole bags

mcap_ros2 = pytest.importorskip("mcap_ros2", reason="the reference MCAP library (test extra)")

from mcap.reader import make_reader  # noqa: E402
from mcap_ros2.decoder import DecoderFactory  # noqa: E402
from mcap_ros2.writer import Writer as ReferenceWriter  # noqa: E402
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from robot_msgs.errors import DataWarning, UnknownTypeError  # noqa: E402
from robot_msgs.io.bag_messages import RawRecord, bag_qos, unmapped_topics  # noqa: E402
from robot_msgs.rcl import Log, ParameterEvent  # noqa: E402
from robot_msgs.rosgraph import Clock  # noqa: E402
from robot_msgs.std import Byte  # noqa: E402

HUMBLE = get_typestore(Stores.ROS2_HUMBLE)


def _reference_bag(path: Path, topics: dict[str, tuple[str, list[dict[str, object]]]]) -> Path:
    """Write an MCAP with mcap_ros2 (no robot_msgs code): topic -> (type, messages as dicts)."""
    with path.open("wb") as file:
        writer = ReferenceWriter(file)
        for topic, (msgtype, messages) in topics.items():
            schema = writer.register_msgdef(
                msgtype, HUMBLE.generate_msgdef(msgtype, ros_version=2)[0]
            )
            for i, message in enumerate(messages):
                writer.write_message(
                    topic, schema, message, log_time=1000 + i, publish_time=1000 + i
                )
        writer.finish()  # type: ignore[no-untyped-call,unused-ignore]  # typed only with the test extra
    return path


def _decoded(path: Path) -> list[tuple[str, object]]:
    """The messages of an MCAP as the reference library decodes them."""
    with path.open("rb") as file:
        reader = make_reader(file, decoder_factories=[DecoderFactory()])
        return [(c.topic, d) for _, c, _, d in reader.iter_decoded_messages()]


def _stamp(sec: int) -> dict[str, int]:
    return {"sec": sec, "nanosec": 0}


def _record_all_bag(path: Path) -> Path:
    """What ``ros2 bag record -a`` holds besides the data: /rosout, /parameter_events, /clock."""
    value = {"type": 3, "double_value": 0.26}
    return _reference_bag(
        path,
        {
            "/rosout": (
                "rcl_interfaces/msg/Log",
                [
                    {
                        "stamp": _stamp(s),
                        "level": 20,
                        "name": "nav2",
                        "msg": f"step {s}",
                        "file": "a.cpp",
                        "function": "f",
                        "line": 10 + s,
                    }
                    for s in range(3)
                ],
            ),
            "/parameter_events": (
                "rcl_interfaces/msg/ParameterEvent",
                [
                    {
                        "stamp": _stamp(1),
                        "node": "/controller_server",
                        "changed_parameters": [{"name": "max_vel_x", "value": value}],
                    }
                ],
            ),
            "/clock": ("rosgraph_msgs/msg/Clock", [{"clock": _stamp(s)} for s in range(4)]),
            "/joy/set_feedback": (
                "sensor_msgs/msg/JoyFeedback",
                [{"type": 1, "id": 0, "intensity": 0.5}],
            ),
        },
    )


def test_a_whole_bag_reads_every_message_it_can_and_names_the_rest(tmp_path: Path) -> None:
    bag = _record_all_bag(tmp_path / "all.mcap")
    with pytest.warns(
        DataWarning, match=r"/joy/set_feedback \(sensor_msgs/msg/JoyFeedback, 1 message\)"
    ):
        records = list(read_records(bag))
    topics = [r.topic for r in records]
    assert topics.count("/rosout") == 3
    assert topics.count("/clock") == 4
    assert topics.count("/parameter_events") == 1
    assert len(records) == 8
    logs = [r.message for r in records if r.topic == "/rosout"]
    assert [m.msg for m in logs if isinstance(m, Log)] == ["step 0", "step 1", "step 2"]
    event = next(r.message for r in records if r.topic == "/parameter_events")
    assert isinstance(event, ParameterEvent)
    assert event.changed_parameters[0].value.double_value == 0.26
    clocks = [r.message for r in records if r.topic == "/clock"]
    assert [c.clock.sec for c in clocks if isinstance(c, Clock)] == [0, 1, 2, 3]
    (unmapped,) = unmapped_topics(bag)
    assert unmapped == TopicInfo("/joy/set_feedback", "sensor_msgs/msg/JoyFeedback", 1)


def test_raw_gives_the_cdr_bytes_and_type_of_what_has_no_mapping(tmp_path: Path) -> None:
    bag = _record_all_bag(tmp_path / "all.mcap")
    records = list(read_records(bag, raw=True))
    assert len(records) == 9
    (raw,) = [r for r in records if isinstance(r, RawRecord)]
    assert (raw.topic, raw.msgtype) == ("/joy/set_feedback", "sensor_msgs/msg/JoyFeedback")
    feedback: Any = HUMBLE.deserialize_cdr(raw.data, raw.msgtype)
    assert (feedback.type, feedback.id, feedback.intensity) == (1, 0, 0.5)
    with pytest.raises(UnknownTypeError, match=r"got 'sensor_msgs/msg/JoyFeedback'"):
        list(read_records(bag, "/joy/set_feedback"))


def test_a_byte_of_200_crosses_both_ways(tmp_path: Path) -> None:
    theirs = _reference_bag(
        tmp_path / "theirs.mcap",
        {
            "/byte": ("std_msgs/msg/Byte", [{"data": 200}, {"data": 255}]),
            "/diagnostics": (
                "diagnostic_msgs/msg/DiagnosticStatus",
                [{"level": 200, "name": "n", "message": "", "hardware_id": "", "values": []}],
            ),
        },
    )
    assert list(read_messages(theirs, "/byte")) == [Byte(data=200), Byte(data=255)]
    (status,) = read_messages(theirs, "/diagnostics")
    assert status.level == 200  # type: ignore[attr-defined]
    ours = write_messages(tmp_path / "ours.mcap", "/byte", [Byte(data=200)], log_times_ns=[1])
    assert [d.data for _, d in _decoded(ours)] == [200]  # type: ignore[attr-defined]


def test_written_mcap_is_zstd_chunked_names_itself_and_carries_qos(tmp_path: Path) -> None:
    odom = example("nav/Odometry")
    out = write_messages(tmp_path / "named.mcap", "/odom", [odom] * 50)
    with out.open("rb") as file:
        reader = make_reader(file)
        summary = reader.get_summary()
        assert summary is not None
        assert {c.compression for c in summary.chunk_indexes} == {"zstd"}
        (channel,) = summary.channels.values()
        assert "reliability: reliable" in channel.metadata["offered_qos_profiles"]
        (metadata,) = list(reader.iter_metadata())
    assert "- named.mcap" in metadata.metadata["serialized_metadata"]
    assert [t for t, _ in _decoded(out)] == ["/odom"] * 50  # the reference reads it back
    plain = write_messages(tmp_path / "plain.mcap", "/odom", [odom], compression="none")
    with plain.open("rb") as file:
        summary = make_reader(file).get_summary()
        assert summary is not None
        assert {c.compression for c in summary.chunk_indexes} == {""}
    with pytest.raises(FormatError, match=r"a .db3 file is written uncompressed"):
        write_messages(tmp_path / "x.db3", "/odom", [odom], compression="zstd")


def _slow_odometry(n: int) -> Iterator[Odometry]:
    base = example("nav/Odometry")
    assert isinstance(base, Odometry)
    for i in range(n):
        yield base.replace(header=base.header.replace(stamp=Time(sec=i)))


def test_a_failed_write_leaves_nothing_and_no_partial_file(tmp_path: Path) -> None:
    def failing() -> Iterator[Odometry]:
        yield from _slow_odometry(10)
        msg = "the source broke"
        raise RuntimeError(msg)

    with pytest.raises(RuntimeError, match="the source broke"):
        write_messages(tmp_path / "f.mcap", "/odom", failing())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_writing_streams_in_memory_independent_of_the_bag_size(tmp_path: Path, suffix: str) -> None:
    """Peak traced memory while writing 1500 and 12000 Odometry messages (8x) is the same."""
    write_messages(tmp_path / f"warm{suffix}", "/odom", _slow_odometry(2))  # imports, caches
    peaks = []
    for n in (1500, 12000):
        tracemalloc.start()
        write_messages(tmp_path / f"o{n}{suffix}", "/odom", _slow_odometry(n))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert sum(1 for _ in read_messages(tmp_path / f"o{n}{suffix}", "/odom")) == n
    assert peaks[1] < 1.5 * peaks[0], peaks


_KILLED_WRITER = """
import sys, time
from robot_msgs.msg.catalog import example
from robot_msgs.io import write_messages
from robot_msgs.std import Time

base = example("nav/Odometry")

def forever():
    i = 0
    while True:
        i += 1
        if i == 200:
            print("writing", flush=True)
        if i > 200:
            time.sleep(0.001)
        yield base.replace(header=base.header.replace(stamp=Time(sec=i)))

write_messages(sys.argv[1], "/odom", forever())
"""


def test_kill_9_during_a_write_leaves_no_file_and_nothing_in_tmpdir(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    out, scratch = tmp_path / "out", tmp_path / "tmpdir"
    out.mkdir()
    scratch.mkdir()
    target = out / "killed.mcap"
    env = {**os.environ, "TMPDIR": str(scratch)}
    for _ in range(2):  # the second killed writer also sweeps the first one's leftover
        with subprocess.Popen(  # noqa: S603 - our own script
            [sys.executable, "-c", _KILLED_WRITER, str(target)],
            env=env,
            stdout=subprocess.PIPE,
        ) as writer:
            assert writer.stdout is not None
            assert writer.stdout.readline() == b"writing\n"
            writer.send_signal(signal.SIGKILL)
            writer.wait()
        assert not target.exists()
        assert list(scratch.iterdir()) == []
    assert {p.name for p in out.iterdir()} <= {".killed.mcap.0.lock", ".killed.mcap.0.tmp"}
    write_messages(target, "/odom", _slow_odometry(3))  # the next write sweeps the leftover
    assert [p.name for p in out.iterdir()] == ["killed.mcap"]
    assert len(list(read_messages(target, "/odom"))) == 3


@pytest.mark.evo_data
def test_a_copied_bag_keeps_its_messages_and_its_qos(evo_data: Path, tmp_path: Path) -> None:
    source = evo_data / "nav2_turtlebot.mcap"
    copy = write_records(tmp_path / "copy.mcap", read_records(source), qos=bag_qos(source))
    assert bag_qos(copy) == bag_qos(source)
    assert all(p for p in bag_qos(source).values())  # the source has real profiles
    assert list(read_records(copy)) == list(read_records(source))


def test_a_trajectorys_child_frame_and_covariances_are_kept_or_said(tmp_path: Path) -> None:
    """Written as PoseStamped, the child frame and covariances went without a word; the
    odometry layout wrote zero covariances where the trajectory had them (a review)."""
    from robot_msgs.io import read_bag, write_trajectory_bag

    traj = example("trajectory/PoseTrajectory")
    assert isinstance(traj, PoseTrajectory)
    n = len(traj)
    cov = np.tile(np.diag([1e-2, 2e-2, 3e-2, 1e-4, 2e-4, 3e-4]), (n, 1, 1))
    traj = traj.replace(child_frame_id="base_link", covariance_6x6=cov)
    with pytest.warns(DataWarning, match=r"child frame \(base_link\) and covariances: not written"):
        write_trajectory_bag(tmp_path / "p.mcap", traj)
    out = write_trajectory_bag(tmp_path / "o.mcap", traj, layout="odometry")
    back = read_bag(out, "/trajectory")
    assert back.child_frame_id == "base_link"
    assert back.covariance_6x6 is not None
    np.testing.assert_array_equal(back.covariance_6x6, cov)


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
@pytest.mark.parametrize("layout", ["poses", "path", "odometry"])
def test_write_trajectory_bag_refuses_two_stamps_on_one_nanosecond(
    tmp_path: Path, suffix: str, layout: str
) -> None:
    """1.0 and 1.0000000001 s (0.1 ns apart) were both stamped 1 s 0 ns: read back, the
    second pose was dropped as a repeated stamp, said only at read time (write_euroc's
    fault, 3d09fad). Refused at write time, and nothing is written."""
    traj = PoseTrajectory(
        stamps_s=np.array([1.0, 1.0000000001, 2.0]),
        positions_xyz=np.zeros((3, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (3, 1)),
    )
    out = tmp_path / f"t{suffix}"
    with pytest.raises(
        ValidationError,
        match=rf"t\{suffix}: stamps 1\.0 and 1\.0000000001 s \(poses 0 and 1\) are the same "
        r"integer nanosecond 1000000000: stamps in nanoseconds cannot tell them apart",
    ) as refused:
        write_trajectory_bag(out, traj, layout=layout)  # type: ignore[arg-type]
    # Said within the file's name as every error is (RobotMsgsError.within): its reason too.
    assert refused.value.field == "stamps_s"
    assert refused.value.reason.startswith(f"{out}: stamps 1.0 and ")
    assert not out.exists()


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_a_full_disk_names_the_bag_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    """On a full 512 KiB tmpfs, `traj fr1_xyz-groundtruth --save full/m.mcap` said
    "ERROR: no space left on device" (no file named), and `full/d.db3` "a bug in robot_msgs
    (OperationalError: database or disk is full)": rosbags' errors passed unnamed."""
    import errno
    import sqlite3

    from rosbags import rosbag2

    def full(*_: object) -> None:
        if suffix == ".mcap":  # the MCAP writer writes through a file object
            raise OSError(errno.ENOSPC, "No space left on device")
        err = sqlite3.OperationalError("database or disk is full")
        setattr(err, "sqlite_errorcode", 13)  # noqa: B010 - SQLITE_FULL, as 3.11+ sets it
        raise err

    monkeypatch.setattr(rosbag2.Writer, "write", full)
    out = tmp_path / f"t{suffix}"
    with pytest.raises(OSError, match=rf"^{re.escape(str(out))}: cannot write it: no space left"):
        write_trajectory_bag(out, _exact_trajectory().replace(child_frame_id=""))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("error", ["IntegrityError", "ProgrammingError", "InterfaceError"])
def test_a_db3_error_not_of_the_disk_stays_a_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: str
) -> None:
    """Every sqlite3 error was said as "OUT: cannot write it: ...", as if the file or the
    disk were at fault; only an OperationalError (full, locked, I/O) is of the disk."""
    import sqlite3

    from rosbags import rosbag2

    def broken(*_: object) -> None:
        msg = "UNIQUE constraint failed: messages.id"
        raise getattr(sqlite3, error)(msg)

    monkeypatch.setattr(rosbag2.Writer, "write", broken)
    out = tmp_path / "t.db3"
    with pytest.raises(getattr(sqlite3, error), match=r"^UNIQUE constraint failed"):
        write_trajectory_bag(out, _exact_trajectory().replace(child_frame_id=""))
    assert list(tmp_path.iterdir()) == []


def _qos_yaml(**changed: str) -> str:
    """A recorded profile as rosbag2 writes it (v9), with ``changed`` values as given."""
    values = {
        "history": "keep_last",
        "depth": "1",
        "reliability": "reliable",
        "durability": "transient_local",
        "deadline": "{sec: 0, nsec: 0}",
        "lifespan": "{sec: 0, nsec: 0}",
        "liveliness": "automatic",
        "liveliness_lease_duration": "{sec: 0, nsec: 0}",
        "avoid_ros_namespace_conventions": "false",
    } | changed
    return "- " + "\n  ".join(f"{k}: {v}" for k, v in values.items())


def _with_recorded_qos(bag: Path, text: str) -> Path:
    """Set every topic's recorded profiles of the ``.db3`` ``bag`` to the YAML ``text``."""
    import sqlite3

    with sqlite3.connect(bag) as db:
        db.execute("UPDATE topics SET offered_qos_profiles = ?", (text,))
    return bag


@pytest.mark.parametrize(
    ("changed", "got"),
    [
        ({"depth": '"1\\n- evil: ["'}, r"str '1\\n- evil: \[' - at `.*\[0\]\.depth`"),
        ({"depth": "-1"}, r"int -1 - at `.*\[0\]\.depth`"),
        ({"depth": "18446744073709551616"}, r"int 18446744073709551616 - at `.*\.depth`"),
        ({"depth": "[1, 2]"}, r"list \[1, 2\] - at `.*\.depth`"),
        ({"depth": "true"}, r"bool True - at `.*\.depth`"),
        ({"deadline": "{sec: 1.5, nsec: 0}"}, r"float 1.5 - at `.*\.deadline\.sec`"),
        ({"lifespan": "{sec: 0, nsec: .nan}"}, r"float nan - at `.*\.lifespan\.nsec`"),
        ({"avoid_ros_namespace_conventions": "maybe"}, r"str 'maybe' - at `.*_conventions`"),
    ],
)
def test_bag_qos_leaves_out_a_recorded_profile_ros2_bag_cannot_read(
    tmp_path: Path, changed: dict[str, str], got: str
) -> None:
    """rosbags keeps a recorded depth, duration or flag as its YAML gives it: copied, a
    depth of '1\\n- evil: [' or -1 made a bag whose QoS ``ros2 bag play`` cannot read."""
    odom = [example("nav/Odometry")]
    good = _with_recorded_qos(write_messages(tmp_path / "good.db3", "/odom", odom), _qos_yaml())
    assert [q.depth for q in bag_qos(good)["/odom"]] == [1]
    bad = write_messages(tmp_path / "bad.db3", "/odom", odom)
    _with_recorded_qos(bad, _qos_yaml(**changed))
    said = rf"bad.db3 /odom: QoS not copied .*: Expected .*, got {got}"
    with pytest.warns(DataWarning, match=said):
        assert bag_qos(bad) == {}
    with pytest.raises(ValidationError, match=rf"out.mcap: Expected .*, got {got}"):
        write_records(
            tmp_path / "out.mcap",
            read_records(good),
            qos={"/odom": list(next(iter(_recorded_profiles(bad).values())))},
        )
    assert not (tmp_path / "out.mcap").exists()


def _recorded_profiles(bag: Path) -> dict[str, list[Any]]:
    """The profiles as rosbags reads them, unchecked."""
    from robot_msgs.io.bag import open_bag

    with open_bag(bag) as reader:
        return {c.topic: list(c.ext.offered_qos_profiles) for c in reader.connections}
