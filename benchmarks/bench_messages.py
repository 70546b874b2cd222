"""The message base against a plain frozen dataclass, msgspec and rosbags, measured in one run.

    python benchmarks/bench_messages.py [--n 100000] [--repeats 5]

For ``n`` ``Pose`` and ``Odometry`` messages (the values of the package's catalog
examples, the stamp varied per message), each row times one operation per message:

- ``construct``: building the message with its nested messages (robot_msgs validates
  every field); the references are a plain ``dataclass(frozen=True, slots=True,
  kw_only=True)`` of the same fields (no validation), ``msgspec.Struct(frozen=True)``
  (no validation on ``__init__``) and rosbags' own message classes (what a bag reader
  builds; needs the ``bags`` extra).
- ``to_dict`` / ``from_dict``: robot_msgs' JSON-safe dict and back (validated), against
  ``dataclasses.asdict`` and a hand-written ``from_dict`` of the plain dataclass.
- ``json round trip``: message -> JSON bytes -> message (``robot_msgs.to_json`` /
  ``robot_msgs.from_json``), against ``json.dumps`` + ``json.loads`` of the same ``to_dict()``
  dicts (the dict <-> message steps not even counted for the reference).

The table shows the best of ``--repeats`` per operation in µs per message and the ratio
to the reference measured in the same run. Machines shared with other jobs are noisy:
compare the ratios, and repeat.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.geometry import (
    Point,
    Pose,
    PoseWithCovariance,
    Quaternion,
    Twist,
    TwistWithCovariance,
    Vector3,
)
from robot_msgs.nav import Odometry
from robot_msgs.std import Header, Time

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DPoint:
    x: float = 0.0
    y: float = 0.0
    z: float = 0.0


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DQuat:
    x: float = 0.0
    y: float = 0.0
    z: float = 0.0
    w: float = 1.0


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DPose:
    position: DPoint
    orientation: DQuat


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DTime:
    sec: int = 0
    nanosec: int = 0


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DHeader:
    stamp: DTime
    frame_id: str = ""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DPoseCov:
    pose: DPose
    covariance: Any


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DTwist:
    linear: DPoint
    angular: DPoint


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DTwistCov:
    twist: DTwist
    covariance: Any


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DOdometry:
    header: DHeader
    child_frame_id: str
    pose: DPoseCov
    twist: DTwistCov


COV = np.diag([0.01, 0.01, 0.04, 0.001, 0.001, 0.002])
COV.setflags(write=False)


def ours_pose(i: int) -> Pose:
    return Pose(
        position=Point(x=float(i), y=2.0, z=0.5),
        orientation=Quaternion(x=0.0, y=0.0, z=0.7071067811865476, w=0.7071067811865476),
    )


def plain_pose(i: int) -> DPose:
    return DPose(
        position=DPoint(x=float(i), y=2.0, z=0.5),
        orientation=DQuat(x=0.0, y=0.0, z=0.7071067811865476, w=0.7071067811865476),
    )


def ours_odometry(i: int) -> Odometry:
    return Odometry(
        header=Header(stamp=Time(sec=i, nanosec=0), frame_id="odom"),
        child_frame_id="base_link",
        pose=PoseWithCovariance(pose=ours_pose(i), covariance=COV),
        twist=TwistWithCovariance(
            twist=Twist(linear=Vector3(x=0.5, y=0.0, z=0.0), angular=Vector3(x=0.0, y=0.0, z=0.1)),
            covariance=COV,
        ),
    )


def plain_odometry(i: int) -> DOdometry:
    return DOdometry(
        header=DHeader(stamp=DTime(sec=i, nanosec=0), frame_id="odom"),
        child_frame_id="base_link",
        pose=DPoseCov(pose=plain_pose(i), covariance=COV),
        twist=DTwistCov(
            twist=DTwist(linear=DPoint(x=0.5, y=0.0, z=0.0), angular=DPoint(x=0.0, y=0.0, z=0.1)),
            covariance=COV,
        ),
    )


def plain_pose_from_dict(d: dict[str, Any]) -> DPose:
    return DPose(position=DPoint(**d["position"]), orientation=DQuat(**d["orientation"]))


def msgspec_pose() -> Callable[[int], Any] | None:
    try:
        import msgspec
    except ImportError:
        return None

    class MPoint(msgspec.Struct, frozen=True, kw_only=True):
        x: float = 0.0
        y: float = 0.0
        z: float = 0.0

    class MQuat(msgspec.Struct, frozen=True, kw_only=True):
        x: float = 0.0
        y: float = 0.0
        z: float = 0.0
        w: float = 1.0

    class MPose(msgspec.Struct, frozen=True, kw_only=True):
        position: MPoint
        orientation: MQuat

    return lambda i: MPose(
        position=MPoint(x=float(i), y=2.0, z=0.5),
        orientation=MQuat(x=0.0, y=0.0, z=0.7071067811865476, w=0.7071067811865476),
    )


def rosbags_makers() -> tuple[Callable[[int], Any], Callable[[int], Any]] | None:
    try:
        from rosbags.typesys import Stores, get_typestore
    except ImportError:
        return None
    t = get_typestore(Stores.ROS2_HUMBLE).types
    point, quat = t["geometry_msgs/msg/Point"], t["geometry_msgs/msg/Quaternion"]
    pose_t, vec = t["geometry_msgs/msg/Pose"], t["geometry_msgs/msg/Vector3"]
    flat = COV.ravel().copy()

    def pose(i: int) -> Any:
        return pose_t(
            position=point(x=float(i), y=2.0, z=0.5),
            orientation=quat(x=0.0, y=0.0, z=0.7071067811865476, w=0.7071067811865476),
        )

    def odometry(i: int) -> Any:
        return t["nav_msgs/msg/Odometry"](
            header=t["std_msgs/msg/Header"](
                stamp=t["builtin_interfaces/msg/Time"](sec=i, nanosec=0), frame_id="odom"
            ),
            child_frame_id="base_link",
            pose=t["geometry_msgs/msg/PoseWithCovariance"](pose=pose(i), covariance=flat),
            twist=t["geometry_msgs/msg/TwistWithCovariance"](
                twist=t["geometry_msgs/msg/Twist"](
                    linear=vec(x=0.5, y=0.0, z=0.0), angular=vec(x=0.0, y=0.0, z=0.1)
                ),
                covariance=flat,
            ),
        )

    return pose, odometry


def _json_codec() -> tuple[Callable[[Any], bytes], Callable[[bytes, Any], Any]] | None:
    """The base's own JSON functions, or None for a base without them (the json module)."""
    import robot_msgs.msg as base

    encode, decode = getattr(base, "encode_json", None), getattr(base, "decode_json", None)
    return (encode, decode) if encode is not None and decode is not None else None


def best(fn: Callable[[], object], n: int, repeats: int) -> float:
    """Best wall time of ``fn()`` over ``repeats``, in µs per message."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) / n * 1e6


def row(name: str, ours: float, reference: float, ref_name: str) -> None:
    print(f"  {name:<34} {ours:8.2f} µs {reference:8.2f} µs   {ours / reference:5.2f}x  {ref_name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    n, r = args.n, args.repeats
    idx = range(n)
    ms = msgspec_pose()
    rb = rosbags_makers()
    for label, ours, plain, rb_make in (
        ("Pose", ours_pose, plain_pose, rb[0] if rb else None),
        ("Odometry", ours_odometry, plain_odometry, rb[1] if rb else None),
    ):
        print(f"{label}: {n} messages, best of {r}; columns: robot_msgs, reference, ratio")
        t_ours = best(lambda ours=ours: [ours(i) for i in idx], n, r)
        t_plain = best(lambda plain=plain: [plain(i) for i in idx], n, r)
        row("construct (validated)", t_ours, t_plain, "plain frozen dataclass")
        if label == "Pose" and ms is not None:
            t_ms = best(lambda: [ms(i) for i in idx], n, r)
            row("construct (validated)", t_ours, t_ms, "msgspec.Struct (no validation)")
        if rb_make is not None:
            t_rb = best(lambda rb_make=rb_make: [rb_make(i) for i in idx], n, r)
            row("construct (validated)", t_ours, t_rb, "rosbags class")
        msgs = [ours(i) for i in idx]
        dicts = [m.to_dict() for m in msgs]
        t_to = best(lambda msgs=msgs: [m.to_dict() for m in msgs], n, r)
        plains = [plain(i) for i in idx]
        t_asdict = best(lambda plains=plains: [dataclasses.asdict(p) for p in plains], n, r)
        row("to_dict", t_to, t_asdict, "dataclasses.asdict")
        cls = type(msgs[0])
        t_from = best(lambda cls=cls, dicts=dicts: [cls.from_dict(d) for d in dicts], n, r)
        if label == "Pose":
            pdicts = [dataclasses.asdict(p) for p in plains]
            t_pfrom = best(lambda pdicts=pdicts: [plain_pose_from_dict(d) for d in pdicts], n, r)
            row("from_dict (validated)", t_from, t_pfrom, "plain dataclass from dict")
        else:
            row("from_dict (validated)", t_from, t_to, "(our own to_dict)")
        codec = _json_codec()
        if codec is not None:
            enc, dec = codec
            t_json = best(
                lambda cls=cls, msgs=msgs, enc=enc, dec=dec: [dec(enc(m), cls) for m in msgs], n, r
            )
        else:  # a base without to_json: its dicts through the json module
            t_json = best(
                lambda cls=cls, msgs=msgs: [cls.from_dict(json.loads(json.dumps(m.to_dict()))) for m in msgs],
                n, r,
            )  # fmt: skip
        t_ref = best(lambda dicts=dicts: [json.loads(json.dumps(d)) for d in dicts], n, r)
        row("json round trip (message -> message)", t_json, t_ref, "json.dumps+loads of the dicts")


if __name__ == "__main__":
    main()
