"""ROS 2 interop: to_ros/from_ros, CDR bytes against rosbags' own, real bags, the registry."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import robot_msgs
from robot_msgs.compare import TrackingLoss
from robot_msgs.errors import FormatError, UnknownTypeError, ValidationError
from robot_msgs.geometry import Point, PoseArray, PoseStamped
from robot_msgs.msg import FieldSpec, Msg, field_schema
from robot_msgs.msg.catalog import examples
from robot_msgs.std import Header, Time

if TYPE_CHECKING:
    from collections.abc import Iterator

pytest.importorskip("rosbags", reason="ROS interop needs the bags extra (rosbags)")

from rosbags.serde import SerdeError
from rosbags.typesys import Stores, get_typestore

from robot_msgs.io.bag import open_bag
from robot_msgs.ros import from_cdr, from_ros, humble_typestore, ros_types, to_cdr, to_ros
from robot_msgs.ros.definitions import definition, generated_name

REFERENCE = json.loads(
    (Path(__file__).parents[1] / "data" / "ros_cdr_reference.json").read_text(encoding="utf-8")
)
#: The packages of ROS 2 Humble's common_interfaces that define messages.
COMMON_INTERFACES = (
    "actionlib_msgs", "diagnostic_msgs", "geometry_msgs", "nav_msgs", "sensor_msgs",
    "shape_msgs", "std_msgs", "stereo_msgs", "trajectory_msgs", "visualization_msgs",
)  # fmt: skip


def _mapped() -> Iterator[tuple[str, Msg]]:
    for name, msg in sorted(examples().items()):
        if type(msg).ROS2 is not None:
            yield name, msg


@pytest.mark.parametrize(("name", "msg"), list(_mapped()), ids=lambda v: str(v)[:40])
def test_example_through_rosbags_cdr_comes_back_equal(name: str, msg: Msg) -> None:
    store = get_typestore(Stores.ROS2_HUMBLE)  # rosbags' own store, not the package's
    ros2 = type(msg).ROS2
    assert ros2 is not None
    raw = store.serialize_cdr(to_ros(msg), ros2)
    assert from_ros(store.deserialize_cdr(raw, ros2)) == msg, name


@pytest.mark.parametrize(("name", "msg"), list(_mapped()), ids=lambda v: str(v)[:40])
def test_cdr_bytes_equal_rosbags_own(name: str, msg: Msg) -> None:
    assert to_cdr(msg).hex() == REFERENCE["cdr_hex"][name]
    assert from_cdr(to_cdr(msg), name) == msg


def test_the_reference_covers_every_mapped_type() -> None:
    assert set(REFERENCE["cdr_hex"]) == {name for name, _ in _mapped()}


@pytest.mark.parametrize(
    ("name", "msg"),
    [(n, m) for n, m in sorted(examples().items()) if type(m).ROS2 is None],
    ids=lambda v: str(v)[:40],
)
def test_own_types_round_trip_through_generated_definitions(name: str, msg: Msg) -> None:
    assert from_cdr(to_cdr(msg), name) == msg
    assert from_cdr(to_cdr(msg), f"robot_msgs/msg/{type(msg).__name__}") == msg


def test_a_generated_definition_is_the_msg_text_bags_carry_for_it() -> None:
    """The reference pages show :func:`definition` as the text bags record a type under;
    it named nested types ``robot_msgs/msg/Signal``, where the ``.msg`` text bags carry
    (rosbags' ``generate_msgdef``, written into an MCAP's schema) and ROS's ``.msg`` files
    say ``robot_msgs/Signal``: 14 of the 33 generated types differed (a walk)."""
    store = humble_typestore()
    generated = [
        cls
        for name, cls in robot_msgs.registered_types().items()
        if cls.ROS2 is None and not name.startswith("test/")
    ]
    assert len(generated) == 33
    for cls in generated:
        carried, _ = store.generate_msgdef(generated_name(cls))
        own = carried.split("=" * 80 + "\n")[0]
        assert definition(cls) == own.rstrip("\n") + "\n", cls.__name__


def _ros_type(spec: FieldSpec) -> str:
    """The ROS field type a robot_msgs field maps to, spelled as rosbags' definitions are."""
    if spec.kind == "float":
        return "float64"
    if spec.kind == "float32":
        return "float32"
    if spec.kind == "int":
        assert spec.ros is not None, "every int field of a ROS type is a ROS primitive"
        return spec.ros
    if spec.kind in {"str", "bool"}:
        return {"str": "string", "bool": "bool"}[spec.kind]
    if spec.kind == "msg":
        assert spec.msg_type is not None
        ros2: str | None = spec.msg_type.ROS2
        assert ros2 is not None
        return ros2
    if spec.kind == "tuple":
        assert spec.inner is not None
        return f"{_ros_type(spec.inner)}[]"
    assert spec.kind == "array"
    assert spec.dtype is not None
    assert spec.shape is not None
    dims = spec.shape.dims
    fixed = all(isinstance(d, int) for d in dims)
    size = math.prod(d for d in dims if isinstance(d, int)) if fixed else ""
    return f"{spec.ros or spec.dtype.name}[{size}]"


def _rosbags_type(node: Any) -> str:
    kind, arg = int(node[0]), node[1]
    if kind == 1:
        return str(arg[0])
    if kind == 2:
        return str(arg)
    sub, length = arg
    return f"{_rosbags_type(sub)}[{length if kind == 3 else ''}]"


def test_field_names_and_types_equal_rosbags_humble_definitions() -> None:
    store = get_typestore(Stores.ROS2_HUMBLE)
    checked = 0
    for name, cls in robot_msgs.registered_types().items():
        if cls.ROS2 is None or name.startswith("test/"):
            continue
        ours = [(field, _ros_type(spec)) for field, spec in field_schema(cls).items()]
        theirs = [(field, _rosbags_type(node)) for field, node in store.fielddefs[cls.ROS2][1]]
        assert ours == theirs, name
        checked += 1
    assert checked == 122


def test_the_pages_ros_array_types_are_rosbags_humble_definitions() -> None:
    """The reference pages said ``ROS has a sequence uint8[]`` of ``ByteMultiArray.data``
    and ``ParameterValue.byte_array_value``, which ROS defines as ``byte[]``."""
    from robot_msgs.docs.ros_notes import ros2_differences

    store = get_typestore(Stores.ROS2_HUMBLE)
    said = re.compile(r"``(\w+)``: ROS has a (?:flat|sequence) ``([\w\[\]]+)``")
    checked = 0
    for name, cls in robot_msgs.registered_types().items():
        if cls.ROS2 is None or name.startswith("test/"):
            continue
        theirs = {field: _rosbags_type(node) for field, node in store.fielddefs[cls.ROS2][1]}
        for note in ros2_differences(cls):
            for field, ros_type in said.findall(note):
                assert ros_type == theirs[field], (name, field)
                checked += 1
    assert checked == 32
    notes = ros2_differences(robot_msgs.registered_types()["std/ByteMultiArray"])
    assert notes[0].startswith("``data``: ROS has a sequence ``byte[]``; here a read-only")


def _bag_of_an_older_definition(folder: Path, definition: str, values: dict[str, Any]) -> Path:
    """An MCAP bag of ``robot_msgs/msg/ErrorStats`` under ``definition``, by rosbags alone."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import get_types_from_msg

    store = get_typestore(Stores.ROS2_HUMBLE)
    store.register(get_types_from_msg(definition, "robot_msgs/msg/ErrorStats"))
    obj = store.types["robot_msgs/msg/ErrorStats"](**values)
    with Writer(folder / "old", version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conn = writer.add_connection("/stats", "robot_msgs/msg/ErrorStats", typestore=store)
        writer.write(conn, 5, store.serialize_cdr(obj, "robot_msgs/msg/ErrorStats"))
    return folder / "old"


def test_a_bag_written_before_a_field_existed_reads_it_as_its_default(tmp_path: Path) -> None:
    """ErrorStats says data written before iae, ise and itae existed still loads: such a
    bag raised "its messages do not have the fields of the type they name"."""
    from robot_msgs.compare import ErrorStats
    from robot_msgs.errors import FormatError
    from robot_msgs.io import read_records

    names = ("rms", "mean", "median", "std", "min", "max", "max_abs", "p95_abs", "final")
    values = dict(zip(names, (1.0, 0.5, 0.5, 0.25, 0.0, 1.0, 1.0, 0.75, 1.0), strict=True))
    older = "int64 n\n" + "".join(f"float64 {name}\n" for name in names)
    bag = _bag_of_an_older_definition(tmp_path / "a", older, {"n": 3, **values})
    (record,) = read_records(bag)
    assert record.message == ErrorStats(n=3, **values)  # iae, ise, itae NaN: their default
    assert math.isnan(record.message.to_dict()["iae"])
    without_n = "".join(f"float64 {name}\n" for name in names)
    bag = _bag_of_an_older_definition(tmp_path / "b", without_n, values)
    with pytest.raises(FormatError, match=r"/stats, message at 5 ns: Expected required field 'n'"):
        list(read_records(bag))


def test_every_ros_constant_is_a_class_constant_of_the_same_value() -> None:
    store = get_typestore(Stores.ROS2_HUMBLE)
    checked = 0
    for name, cls in robot_msgs.registered_types().items():
        if cls.ROS2 is None or name.startswith("test/"):
            continue
        for constant, _, value in store.fielddefs[cls.ROS2][0]:
            assert getattr(cls, constant, None) == value, (name, constant)
            checked += 1
    assert checked == 99  # in rosbags 0.11's Humble store; BatteryState's 21 among them


def test_coverage_of_common_interfaces_is_counted() -> None:
    store = get_typestore(Stores.ROS2_HUMBLE)
    common = {n for n in store.fielddefs if n.split("/")[0] in COMMON_INTERFACES}
    covered = common & set(ros_types())
    assert len(common) == 118  # rosbags 0.11's Humble store: 10 packages of messages
    assert len(covered) == 105
    assert common - covered == {
        # ROS 1's actions, kept in Humble's common_interfaces for the ros1_bridge
        "actionlib_msgs/msg/GoalID",
        "actionlib_msgs/msg/GoalStatus",
        "actionlib_msgs/msg/GoalStatusArray",
        # commands to a joystick's rumble and lights, not data a robot records
        "sensor_msgs/msg/JoyFeedback",
        "sensor_msgs/msg/JoyFeedbackArray",
        # RViz's interactive markers: a user interface protocol
        "visualization_msgs/msg/ImageMarker",
        "visualization_msgs/msg/InteractiveMarker",
        "visualization_msgs/msg/InteractiveMarkerControl",
        "visualization_msgs/msg/InteractiveMarkerFeedback",
        "visualization_msgs/msg/InteractiveMarkerInit",
        "visualization_msgs/msg/InteractiveMarkerPose",
        "visualization_msgs/msg/InteractiveMarkerUpdate",
        "visualization_msgs/msg/MenuEntry",
    }


def test_ros2_type_names_are_accepted_as_type() -> None:
    d = Point(x=1.0).to_dict()
    for name in ("geometry_msgs/msg/Point", "geometry_msgs/Point"):
        assert robot_msgs.from_dict({**d, "_type": name}) == Point(x=1.0)
        assert Point.from_dict({**d, "_type": name}) == Point(x=1.0)
    assert from_cdr(to_cdr(Point(x=1.0)), "geometry_msgs/Point") == Point(x=1.0)
    with pytest.raises(ValidationError, match=r"Expected _type 'geometry/Point'"):
        Point.from_dict({**d, "_type": "geometry_msgs/msg/Vector3"})


def test_ros1_header_seq_is_dropped_and_stated() -> None:
    store = get_typestore(Stores.ROS1_NOETIC)
    stamp = store.types["builtin_interfaces/msg/Time"](sec=5, nanosec=7)
    header = store.types["std_msgs/msg/Header"](seq=42, stamp=stamp, frame_id="map")
    assert from_ros(header) == Header(stamp=Time(sec=5, nanosec=7), frame_id="map")


def test_ros_nanoseconds_beyond_a_second_are_carried_into_seconds() -> None:
    stamp = humble_typestore().types["builtin_interfaces/msg/Time"](sec=5, nanosec=1_500_000_000)
    assert from_ros(stamp) == Time(sec=6, nanosec=500_000_000)
    numpy_ints = humble_typestore().types["builtin_interfaces/msg/Time"](
        sec=np.int32(3), nanosec=np.uint32(2_000_000_000)
    )
    assert from_ros(numpy_ints) == Time(sec=5, nanosec=0)


@pytest.mark.parametrize(
    ("sec", "nanosec", "said"),
    [
        # int() let these out as ValueError, OverflowError and TypeError ...
        (math.nan, 0, r"Expected int, got float nan - at `Time\.sec`"),
        (0, math.inf, r"Expected int, got float inf - at `Time\.nanosec`"),
        (None, 0, r"Expected int, got NoneType None - at `Time\.sec`"),
        # ... and made these other stamps: 1.5 s was 1 s, "5" 5 s, -1 ns a carry
        (1.5, 0, r"Expected int, got float 1\.5 - at `Time\.sec`"),
        ("5", 0, r"Expected int, got str '5' - at `Time\.sec`"),
        (1, -1, r"got int -1 - at `Time\.nanosec`"),
    ],
)
def test_a_ros_stamp_that_is_not_whole_numbers_is_named_not_cut(
    sec: object, nanosec: object, said: str
) -> None:
    stamp = humble_typestore().types["builtin_interfaces/msg/Time"](sec=sec, nanosec=nanosec)
    with pytest.raises(ValidationError, match=said):
        from_ros(stamp)


def test_a_ros_type_without_equivalent_and_a_field_lost_are_errors() -> None:
    store = humble_typestore()
    with pytest.raises(UnknownTypeError, match=r"got 'sensor_msgs/msg/JoyFeedback'"):
        from_ros(store.types["sensor_msgs/msg/JoyFeedback"](type=0, id=0, intensity=0.0))
    header = store.types["std_msgs/msg/Header"](stamp=to_ros(Time()), frame_id="")
    object.__setattr__(header, "__msgtype__", "geometry_msgs/msg/Point")  # mislabelled
    with pytest.raises(ValidationError, match=r"got unknown field 'frame_id'"):
        from_ros(header)


@pytest.mark.parametrize("given", [None, 5, {"_type": "geometry/Point"}])
def test_what_is_no_message_is_refused_on_the_way_to_ros_naming_its_type(given: object) -> None:
    """``to_ros(None)`` and ``to_cdr(None)`` said "type object 'NoneType' has no attribute
    'ROS2'", an AttributeError, where ``from_ros(None)`` is ours (a walk)."""
    said = rf"Expected a robot_msgs message or message class \(Msg\), got {type(given).__name__}$"
    with pytest.raises(ValidationError, match=said):
        to_ros(given)  # type: ignore[arg-type]  # the walk's mistake
    with pytest.raises(ValidationError, match=said):
        to_cdr(given)  # type: ignore[arg-type]


def test_a_message_class_given_for_its_instance_is_named_on_the_way_to_ros() -> None:
    """``to_ros(Time)`` and ``to_cdr(Time)`` said "got a message class", not which."""
    said = r"^Expected a message, got the class Time; pass an instance$"
    with pytest.raises(ValidationError, match=said):
        to_ros(Time)  # type: ignore[arg-type]  # the walk's mistake
    with pytest.raises(ValidationError, match=said):
        to_cdr(Time)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("named", "got"), [(3, "int 3"), (None, "NoneType None"), ([1], r"list \[1\]")]
)
def test_a_type_name_that_is_not_a_string_is_refused_by_from_cdr(named: object, got: str) -> None:
    """``from_cdr(data, 3)`` said "'int' object has no attribute 'split'" (a walk); a list,
    given to the cached ``_decoder_for``, "unhashable type: 'list'" (a review)."""
    with pytest.raises(UnknownTypeError, match=rf"Expected a message type name \(str\), got {got}"):
        from_cdr(to_cdr(Time(sec=1)), named)  # type: ignore[arg-type]  # the walk's mistake


def test_to_ros_flattens_matrices_to_ros_fixed_arrays() -> None:
    from robot_msgs.geometry import PoseWithCovariance

    good = PoseWithCovariance()
    assert to_ros(good).covariance.shape == (36,)
    assert to_ros(good).covariance.dtype == np.float64


# --------------------------------------------------------------------------- real data


def _messages(bag: Path, topics: tuple[str, ...]) -> Iterator[tuple[Any, Any, bytes]]:
    with open_bag(bag) as reader:
        conns = [c for c in reader.connections if c.topic in topics]
        for conn, _, raw in reader.messages(connections=conns):
            yield conn, reader.deserialize(raw, conn.msgtype), bytes(raw)


@pytest.mark.evo_data
def test_nav2_odom_and_amcl_pose_reserialise_to_the_bags_own_bytes(evo_data: Path) -> None:
    counts = {"/odom": 0, "/amcl_pose": 0}
    for conn, obj, raw in _messages(evo_data / "nav2_turtlebot.mcap", tuple(counts)):
        msg = from_ros(obj)
        assert to_cdr(msg) == raw, (conn.topic, counts[conn.topic])
        counts[conn.topic] += 1
    assert counts == {"/odom": 2639, "/amcl_pose": 135}  # the bag's message counts


def _content(obj: Any) -> Any:
    """A rosbags object as plain nested values, without ROS 1's ``seq``."""
    if hasattr(obj, "__msgtype__"):
        names = [f for f in obj.__dataclass_fields__ if f not in {"__msgtype__", "seq"}]
        return {f: _content(getattr(obj, f)) for f in names if not f.isupper()}
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, list):
        return [_content(v) for v in obj]
    return obj


@pytest.mark.evo_data
def test_ros1_pose_topics_convert_with_equal_content(evo_data: Path) -> None:
    topics = ("groundtruth", "ORB-SLAM", "S-PTAM")
    n = 0
    for _, obj, _ in _messages(evo_data / "ROS_example.bag", topics):
        msg = from_ros(obj)
        assert isinstance(msg, PoseStamped)
        assert _content(to_ros(msg)) == _content(obj)
        n += 1
    assert n == 12765 + 8362 + 5439  # the three topics' message counts


def test_cdr_decoding_takes_the_final_padding_rosbags_takes_and_no_more() -> None:
    """Up to 3 bytes after a message are its final padding, as rosbags reads them.

    rosbags' serialiser writes none (std_msgs/UInt8 is 5 bytes, ``00 01 00 00 07``), but
    the DDS layer under ROS 2 pads a sample to a 4-byte boundary (DDS-XTypes 1.3
    7.6.3.1.2), and rosbag2 stores what it delivers; rosbags' ``deserialize_cdr`` takes
    ``pos + 4 + 3 >= len``. A 4th byte is refused, counted.
    """
    store = get_typestore(Stores.ROS2_HUMBLE)
    uint8 = store.types["std_msgs/msg/UInt8"]
    assert bytes(store.serialize_cdr(uint8(data=7), "std_msgs/msg/UInt8")) == b"\0\1\0\0\7"
    msg = examples()["action/GoalStatus"]  # ends in a uint8 (status): 29 bytes
    raw = bytes(to_cdr(msg))
    assert len(raw) == 29
    for extra in range(4):
        padded = raw + b"\0" * extra
        assert from_cdr(padded, "action_msgs/msg/GoalStatus") == msg
        store.deserialize_cdr(padded, "action_msgs/msg/GoalStatus")  # rosbags reads it too
    with pytest.raises(FormatError, match=r"GoalStatus, got 4 bytes too many"):
        from_cdr(raw + b"\0" * 4, "action_msgs/msg/GoalStatus")
    with pytest.raises(SerdeError, match=r"size mismatch"):
        store.deserialize_cdr(raw + b"\0" * 4, "action_msgs/msg/GoalStatus")


def test_cdr_decoding_still_checks_what_the_wire_cannot_prove() -> None:
    from robot_msgs.sensor import PointCloud2, PointField

    store = get_typestore(Stores.ROS2_HUMBLE)
    field = store.types["sensor_msgs/msg/PointField"]
    good = store.serialize_cdr(
        field(name="x", offset=0, datatype=7, count=1), "sensor_msgs/msg/PointField"
    )
    bad = store.serialize_cdr(
        field(name="x", offset=0, datatype=0, count=1), "sensor_msgs/msg/PointField"
    )
    for _ in range(3):  # the first message is built by the class, the next ones copied
        assert from_cdr(bytes(good), "sensor_msgs/msg/PointField") == PointField(
            name="x", offset=0, datatype=7, count=1
        )
    with pytest.raises(
        ValidationError, match=r"uint8 \(1\.\.8\), got int 0 - at `PointField\.datatype`"
    ):
        from_cdr(bytes(bad), "sensor_msgs/msg/PointField")
    cloud = store.types["sensor_msgs/msg/PointCloud2"]
    header = to_ros(Header())
    short = cloud(
        header=header, height=1, width=2, fields=[], is_bigendian=False, point_step=4,
        row_step=8, data=np.zeros(3, dtype=np.uint8), is_dense=True,
    )  # fmt: skip
    whole = cloud(
        header=header, height=1, width=2, fields=[], is_bigendian=False, point_step=4,
        row_step=8, data=np.zeros(8, dtype=np.uint8), is_dense=True,
    )  # fmt: skip
    for _ in range(2):
        assert isinstance(
            from_cdr(
                bytes(store.serialize_cdr(whole, "sensor_msgs/msg/PointCloud2")),
                "sensor/PointCloud2",
            ),
            PointCloud2,
        )
    with pytest.raises(
        ValidationError, match=r"row_step \* height = 8 bytes.* at `PointCloud2\.data`"
    ):
        from_cdr(
            bytes(store.serialize_cdr(short, "sensor_msgs/msg/PointCloud2")), "sensor/PointCloud2"
        )
    decoded = from_cdr(
        bytearray(store.serialize_cdr(whole, "sensor_msgs/msg/PointCloud2")), "sensor/PointCloud2"
    )
    assert isinstance(decoded, PointCloud2)
    assert not decoded.data.flags.writeable  # a copy of a caller's writable buffer, read-only


def test_generated_cdr_whose_fields_hold_no_value_names_the_field() -> None:
    """CDR of a generated type (RankingRow) whose JSON field is not JSON, or whose mapping
    has more keys than values: json's JSONDecodeError and zip's ValueError escaped."""
    import dataclasses

    store = humble_typestore()
    name = "robot_msgs/msg/RankingRow"
    row = to_ros(examples()["compare/RankingRow"])
    cases = [
        (dataclasses.replace(row, parameters_json='{"a": '), r"at `RankingRow.parameters`"),
        (dataclasses.replace(row, parameters_json="[" * 100_000), r"at `RankingRow.parameters`"),
        # json.loads kept the last of two keys, read 1e99999 as inf and NaN as a float
        (
            dataclasses.replace(row, parameters_json='{"a": 1, "b": 2, "a": 3}'),
            (
                r"^Expected JSON text for RankingRow\.parameters with each key once in an object, "
                r"got key 'a' twice: which one is meant\?$"
            ),
        ),
        (
            dataclasses.replace(row, parameters_json='{"a": 1, "b": 1e99999}'),
            (
                r"^Expected a number within float64's range .*, got one beyond it - at "
                r"`RankingRow\.parameters\.b`$"
            ),
        ),
        (dataclasses.replace(row, parameters_json='{"a": NaN}'), r"at `RankingRow.parameters`"),
        (
            dataclasses.replace(row, ranks_keys=["fr1_xyz", "fr2_desk"]),
            r"Expected as many ranks_values as ranks_keys \(2\), got int 1 - at `RankingRow.ranks`",
        ),
    ]
    for obj, said in cases:
        raw = bytes(store.serialize_cdr(obj, name))
        with pytest.raises(ValidationError, match=said):
            from_cdr(raw, "compare/RankingRow")
    lone = dataclasses.replace(row, parameters_json='{"a": "\ud800"}')  # no CDR holds it
    with pytest.raises(ValidationError, match=r"at `RankingRow.parameters`"):
        from_ros(lone)


def test_a_nested_value_from_ros_is_named_at_its_place() -> None:
    # The nested message was built first and named its own type (`Time.sec`,
    # `Point.x`), where from_dict and from_json name the place in the whole message.
    types = humble_typestore().types
    stamp = types["builtin_interfaces/msg/Time"](sec=1.5, nanosec=0)
    header = types["std_msgs/msg/Header"](stamp=stamp, frame_id="map")
    with pytest.raises(
        ValidationError, match=r"got float 1\.5 - at `Header\.stamp\.sec`$"
    ) as caught:
        from_ros(header)
    assert caught.value.field == "Header.stamp.sec"
    point, quaternion = types["geometry_msgs/msg/Point"], types["geometry_msgs/msg/Quaternion"]
    good = types["geometry_msgs/msg/Pose"](
        position=point(x=0.0, y=0.0, z=0.0), orientation=quaternion(x=0.0, y=0.0, z=0.0, w=1.0)
    )
    bad = types["geometry_msgs/msg/Pose"](
        position=point(x="a", y=0.0, z=0.0), orientation=quaternion(x=0.0, y=0.0, z=0.0, w=1.0)
    )
    zero = types["builtin_interfaces/msg/Time"](sec=0, nanosec=0)
    right = types["std_msgs/msg/Header"](stamp=zero, frame_id="map")
    poses = types["geometry_msgs/msg/PoseArray"](header=right, poses=[good, bad])
    said = r"Expected float, got str 'a' - at `PoseArray\.poses\[1\]\.position\.x`$"
    with pytest.raises(ValidationError, match=said) as caught:
        from_ros(poses)
    assert caught.value.field == "PoseArray.poses[1].position.x"


def test_a_nested_place_is_worked_out_only_for_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Formatting each field's place on the way (`PoseArray.poses[1]`) made from_ros of a
    # PoseStamped a quarter slower: a message that converts never asks for it.
    from robot_msgs.ros import convert

    def never(value: object, place: str) -> object:
        raise AssertionError(place)

    monkeypatch.setattr(convert, "_placed_value_from_ros", never)
    types = humble_typestore().types
    point, quaternion = types["geometry_msgs/msg/Point"], types["geometry_msgs/msg/Quaternion"]
    pose = types["geometry_msgs/msg/Pose"](
        position=point(x=1.0, y=2.0, z=3.0), orientation=quaternion(x=0.0, y=0.0, z=0.0, w=1.0)
    )
    stamp = types["builtin_interfaces/msg/Time"](sec=1, nanosec=2_000_000_005)
    header = types["std_msgs/msg/Header"](stamp=stamp, frame_id="map")
    poses = from_ros(types["geometry_msgs/msg/PoseArray"](header=header, poses=[pose, pose]))
    assert isinstance(poses, PoseArray)
    assert poses.header.stamp == Time(sec=3, nanosec=5)
    assert [p.position.x for p in poses.poses] == [1.0, 1.0]


def _with(obj: Any, path: tuple[str | int, ...], value: Any) -> Any:
    """A copy of the rosbags object ``obj`` with the field at ``path`` set to ``value``."""
    import dataclasses

    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(obj)
        items[head] = _with(items[head], rest, value)
        return items
    return dataclasses.replace(obj, **{head: _with(getattr(obj, head), rest, value)})


def test_a_nested_value_of_a_generated_type_from_ros_is_named_at_its_place() -> None:
    """from_ros of the package's own types (rosbags' generated classes) named a nested
    message's refusal at its own type (`ErrorStats.std`), where the hand-built ones and
    from_dict name the place (`Report.runs[0].comparisons['ape:translation']...`)."""
    signal = examples()["compare/Signal"]
    comparison = examples()["compare/Comparison"]
    first = comparison.as_dict()["signals"][0]
    two = comparison.replace(signals=(first, signal.replace(name="y")))
    run = examples()["compare/RunReport"]
    report = examples()["compare/Report"]
    cases = [
        (signal, ("stats", "std"), -1.0, "Signal.stats.std"),
        (two, ("signals", 1, "stats", "n"), -1, "Comparison.signals[1].stats.n"),
        (run, ("comparisons_values", 0, "signals", 0, "stats", "std"), -1.0,
         "RunReport.comparisons['ape:translation'].signals[0].stats.std"),
        (run, ("resources", 0, "duration_s"), -1.0, "RunReport.resources.duration_s"),
        (report, ("runs", 0, "losses", 0, "end_s"), math.inf, "Report.runs[0].losses[0].end_s"),
    ]  # fmt: skip
    for msg, path, value, place in cases:
        broken = _with(to_ros(msg), path, value)
        with pytest.raises(ValidationError, match=re.escape(f" - at `{place}`") + "$") as caught:
            from_ros(broken)
        assert caught.value.field == place


def test_a_type_declared_after_the_first_ros_call_round_trips(tmp_path: Path) -> None:
    """A user's type declared after the store was made was missing from it: ``to_ros`` and
    ``to_cdr`` raised ``KeyError: 'robot_msgs/msg/Blip'``, ``from_cdr`` said it had no
    equivalent (a review); declared before the first call, it worked."""
    from robot_msgs.io import read_messages, write_messages
    from robot_msgs.msg import message
    from robot_msgs.msg.base import _REGISTRY

    assert from_cdr(to_cdr(Point(x=1.0)), "geometry/Point") == Point(x=1.0)  # the store is made

    @message("mine/Blip")
    class Blip(Msg):
        level: float
        count: int = 0
        tags: tuple[str, ...] = ()
        where: Point = Point()
        loss: TrackingLoss | None = None

    try:
        blip = Blip(level=2.5, count=-3, tags=("a", "b"), where=Point(z=4.0),
                    loss=TrackingLoss(start_s=1.0, end_s=2.0, recovered=True))  # fmt: skip
        assert from_ros(to_ros(blip)) == blip
        for named in ("mine/Blip", "robot_msgs/msg/Blip", "robot_msgs/Blip"):
            assert from_cdr(to_cdr(blip), named) == blip, named
        assert ros_types()["robot_msgs/msg/Blip"] is Blip
        messages = [blip, Blip(level=-1.0)]
        bag = write_messages(tmp_path / "blip.mcap", "/blip", messages, log_times_ns=[1, 2])
        assert list(read_messages(bag, "/blip")) == messages
    finally:
        del _REGISTRY["mine/Blip"]  # keep the registry equal to the catalog


def test_a_type_whose_ros_name_is_taken_is_refused_and_takes_nothing() -> None:
    """A user's ``ErrorStats`` is ``robot_msgs/msg/ErrorStats``, the name of the package's
    ``compare/ErrorStats``: ``to_ros`` raised rosbags' TypeError (an unexpected keyword),
    and declared before the first ROS call, an AssertionError stopped every conversion."""
    from robot_msgs.compare import error_stats
    from robot_msgs.msg import message
    from robot_msgs.msg.base import _REGISTRY

    to_cdr(Point(x=1.0))

    @message("mine/ErrorStats")
    class ErrorStats(Msg):
        value: float = 0.0

    try:
        said = r"got mine/ErrorStats: robot_msgs/msg/ErrorStats, which compare/ErrorStats holds"
        with pytest.raises(UnknownTypeError, match=said):
            to_ros(ErrorStats())
        with pytest.raises(UnknownTypeError, match=said):
            to_cdr(ErrorStats())
        theirs = error_stats([1.0, -2.0])
        with pytest.raises(UnknownTypeError, match=said):
            from_cdr(to_cdr(theirs), "mine/ErrorStats")
        assert from_cdr(to_cdr(theirs), "robot_msgs/msg/ErrorStats") == theirs
        assert from_ros(to_ros(theirs)) == theirs
        assert ros_types()["robot_msgs/msg/ErrorStats"].TYPE == "compare/ErrorStats"
    finally:
        del _REGISTRY["mine/ErrorStats"]
