"""The message layer against the libraries underneath it, A and B alternated pair by pair.

    python benchmarks/bench_messages.py [--pairs 7] [--quick]

Each row times one operation, robot_msgs (A) against its reference (B), in ``--pairs``
pairs run alternately (A then B, then B then A, ...); the table gives the median of the
pairwise ratios A/B with their min and max, and the median time per operation of each.
Inputs are made the same way for both sides, outside the timed loop, one fresh input
per operation (no shared read-only array that only one side benefits from):

- ``construct``: every catalog type, the whole nested message built by a generated
  expression, against a ``dataclass(frozen=True, slots=True, kw_only=True)`` mirror of each
  nested type built by the same expression (no validation, no copy). Each operation gets
  its own fresh, writable NumPy arrays: robot_msgs copies them and makes them read-only,
  the dataclass keeps them as given.
- ``json``: every catalog type, ``decode_json(encode_json(m))`` against ``json.loads(
  json.dumps(d))`` of the same message's ``to_dict()`` (the dict <-> message steps not even
  counted for the reference).
- ``cdr encode`` / ``cdr decode``: ``to_cdr``/``from_cdr`` against rosbags' own
  ``serialize_cdr``/``deserialize_cdr`` into its own classes; the reference objects are
  rosbags' real objects of the same values, the bytes the same ``bytes``.
- ``read_messages``: a whole topic of an MCAP file written once, against rosbags'
  ``AnyReader`` reading and deserialising it.
- ``save EvaluationResult``: a 2·10^5-pose APE result saved as JSON by
  ``robot_msgs.io.save_result`` (strict JSON, atomic write) against
  ``msgspec.json.encode`` of the same message (arrays as lists, nothing written); then
  loaded by ``robot_msgs.io.load_result`` (depth bound, typed decoding, each key once
  per object, every field checked) against ``msgspec.json.decode`` of the same file
  into plain data (no target: the row says what loading costs beyond parsing).

Machines shared with other jobs are noisy: the ratios of one run are the result.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np

from robot_msgs.msg import Msg, decode_json, encode_json
from robot_msgs.msg.catalog import example, examples

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

Timed = "Callable[[], float]"


# --------------------------------------------------------------------------- pairs


def _time(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def pairs(a: Callable[[], object], b: Callable[[], object], n_pairs: int) -> tuple[float, ...]:
    """Alternate ``a`` and ``b``; return (median ratio, min, max, median a s, median b s)."""
    ratios, times_a, times_b = [], [], []
    for i in range(n_pairs):
        if i % 2:
            tb, ta = _time(b), _time(a)
        else:
            ta, tb = _time(a), _time(b)
        ratios.append(ta / tb)
        times_a.append(ta)
        times_b.append(tb)
    return (
        statistics.median(ratios),
        min(ratios),
        max(ratios),
        statistics.median(times_a),
        statistics.median(times_b),
    )


def row(label: str, result: tuple[float, ...], per: int, limit: float | None) -> bool:
    ratio, low, high, ta, tb = result
    held = limit is None or ratio <= limit
    mark = "" if limit is None else ("  ok" if held else "  OVER")
    print(
        f"{label:<44} {ta / per * 1e6:10.2f} {tb / per * 1e6:10.2f}   "
        f"{ratio:5.2f}x [{low:4.2f}-{high:4.2f}]{mark}"
    )
    return held


def header(title: str, limit: str) -> None:
    print(f"\n{title} ({limit})")
    print(f"{'':<44} {'ours µs':>10} {'ref µs':>10}   median [min-max] of A/B")


# --------------------------------------------------------------------------- construction


_MIRRORS: dict[type, type] = {}


def _mirror(cls: type[Msg]) -> type:
    """A plain frozen, slotted, keyword-only dataclass with ``cls``'s fields."""
    found = _MIRRORS.get(cls)
    if found is None:
        fields = [(name, Any) for name in cls.__struct_fields__]
        found = dataclasses.make_dataclass(
            f"Plain{cls.__name__}", fields, frozen=True, slots=True, kw_only=True
        )
        _MIRRORS[cls] = found
    return found


def _expression(value: Any, names: dict[str, Any], arrays: list[np.ndarray], *, plain: bool) -> str:
    """Python source building ``value``: messages by their class, arrays as arguments."""
    if isinstance(value, Msg):
        cls = _mirror(type(value)) if plain else type(value)
        key = f"T{len(names)}"
        names[key] = cls
        parts = [
            f"{name}={_expression(getattr(value, name), names, arrays, plain=plain)}"
            for name in value.__struct_fields__
        ]
        return f"{key}({', '.join(parts)})"
    if isinstance(value, np.ndarray):
        arrays.append(value)
        return f"a[{len(arrays) - 1}]"
    if isinstance(value, tuple):
        return "(" + "".join(f"{_expression(v, names, arrays, plain=plain)}, " for v in value) + ")"
    if isinstance(value, dict) or hasattr(value, "items"):
        items = ", ".join(
            f"{k!r}: {_expression(v, names, arrays, plain=plain)}" for k, v in value.items()
        )
        return "{" + items + "}"
    key = f"c{len(names)}"
    names[key] = value
    return key


def _maker(
    message: Msg, *, plain: bool
) -> tuple[Callable[[list[np.ndarray]], Any], list[np.ndarray]]:
    names: dict[str, Any] = {}
    arrays: list[np.ndarray] = []
    body = _expression(message, names, arrays, plain=plain)
    exec(f"def make(a):\n    return {body}\n", names)
    return names["make"], arrays


def _construction(message: Msg, n: int) -> tuple[Callable[[], object], Callable[[], object]]:
    ours, templates = _maker(message, plain=False)
    plain, _ = _maker(message, plain=True)

    def fresh() -> list[list[np.ndarray]]:
        return [[np.array(t, copy=True) for t in templates] for _ in range(n)]

    def run_ours() -> object:
        inputs = _inputs.pop()
        start = time.perf_counter()
        for a in inputs:
            ours(a)
        return time.perf_counter() - start

    def run_plain() -> object:
        inputs = _inputs.pop()
        start = time.perf_counter()
        for a in inputs:
            plain(a)
        return time.perf_counter() - start

    _inputs: list[list[list[np.ndarray]]] = []

    def a() -> object:
        _inputs.append(fresh())
        return run_ours()

    def b() -> object:
        _inputs.append(fresh())
        return run_plain()

    return a, b


def _self_timed_pairs(
    a: Callable[[], object], b: Callable[[], object], n_pairs: int
) -> tuple[float, ...]:
    """:func:`pairs` for runs that time themselves (input making left out)."""
    ratios, times_a, times_b = [], [], []
    for i in range(n_pairs):
        if i % 2:
            tb, ta = float(b()), float(a())  # type: ignore[arg-type]
        else:
            ta, tb = float(a()), float(b())  # type: ignore[arg-type]
        ratios.append(ta / tb)
        times_a.append(ta)
        times_b.append(tb)
    return (
        statistics.median(ratios),
        min(ratios),
        max(ratios),
        statistics.median(times_a),
        statistics.median(times_b),
    )


def bench_construction(names: Sequence[str], n: int, n_pairs: int) -> list[str]:
    header("construct: robot_msgs against a frozen dataclass mirror", "target <= 2x")
    over = []
    for name in names:
        message = example(name)
        per = max(1, n // max(1, len(message.to_dict().__repr__()) // 400))
        a, b = _construction(message, per)
        if not row(name, _self_timed_pairs(a, b, n_pairs), per, 2.0):
            over.append(name)
    return over


# --------------------------------------------------------------------------- JSON


def bench_json(names: Sequence[str], n: int, n_pairs: int) -> list[str]:
    header("json round trip: decode_json(encode_json(m)) against json of to_dict()", "target < 1x")
    over = []
    for name in names:
        message = example(name)
        cls = type(message)
        tree = message.to_dict()
        per = max(1, n // max(1, len(json.dumps(tree)) // 200))

        def ours(m: Msg = message, c: type[Msg] = cls, k: int = per) -> None:
            for _ in range(k):
                decode_json(encode_json(m), c)

        def reference(d: dict[str, Any] = tree, k: int = per) -> None:
            for _ in range(k):
                json.loads(json.dumps(d))

        if not row(name, pairs(ours, reference, n_pairs), per, 1.0):
            over.append(name)
    return over


# --------------------------------------------------------------------------- CDR, bags


def _cloud(points: int) -> Msg:
    from robot_msgs.sensor import PointCloud2, PointField
    from robot_msgs.std import Header, Time

    rng = np.random.default_rng(0)
    xyz = rng.normal(size=(points, 4)).astype(np.float32)
    fields = tuple(
        PointField(name=f, offset=4 * i, datatype=PointField.FLOAT32, count=1)
        for i, f in enumerate(("x", "y", "z", "intensity"))
    )
    return PointCloud2(
        header=Header(stamp=Time(sec=1), frame_id="lidar"),
        height=1,
        width=points,
        fields=fields,
        point_step=16,
        row_step=16 * points,
        data=np.frombuffer(xyz.tobytes(), dtype=np.uint8),
        is_dense=True,
    )


def _cdr_messages() -> dict[str, Msg]:
    return {
        "Pose": example("geometry/Pose"),
        "Odometry": example("nav/Odometry"),
        "Imu": example("sensor/Imu"),
        "PointCloud2 (10^4 points)": _cloud(10_000),
    }


def bench_cdr(n: int, n_pairs: int) -> list[str]:
    from robot_msgs.ros import from_cdr, humble_typestore, to_cdr, to_ros

    store = humble_typestore()
    header("cdr: to_cdr / from_cdr against rosbags' serialize / deserialize", "target <= 1.3x")
    over = []
    for label, message in _cdr_messages().items():
        name = type(message).ROS2
        assert name is not None
        obj = to_ros(message)  # rosbags' real object of the same values
        raw = bytes(store.serialize_cdr(obj, name))
        assert raw == to_cdr(message)
        per = n if "Cloud" not in label else max(1, n // 20)

        def enc_ours(m: Msg = message, k: int = per) -> None:
            for _ in range(k):
                to_cdr(m)

        def enc_ref(o: Any = obj, t: str = name, k: int = per) -> None:
            for _ in range(k):
                store.serialize_cdr(o, t)

        def dec_ours(r: bytes = raw, t: str = name, k: int = per) -> None:
            for _ in range(k):
                from_cdr(r, t)

        def dec_ref(r: bytes = raw, t: str = name, k: int = per) -> None:
            for _ in range(k):
                store.deserialize_cdr(r, t)

        if not row(f"encode {label}", pairs(enc_ours, enc_ref, n_pairs), per, 1.3):
            over.append(f"encode {label}")
        if not row(f"decode {label}", pairs(dec_ours, dec_ref, n_pairs), per, 1.3):
            over.append(f"decode {label}")
    return over


def bench_read(n: int, n_pairs: int, folder: Path) -> list[str]:
    from rosbags.highlevel import AnyReader
    from rosbags.typesys import Stores, get_typestore

    from robot_msgs.io import read_messages, write_messages

    header(
        "read_messages: a topic of an MCAP file against rosbags' reader + deserialize",
        "target <= 1.3x",
    )
    store = get_typestore(Stores.LATEST)
    over = []
    for label, message in _cdr_messages().items():
        count = n if "Cloud" not in label else max(1, n // 20)
        path = folder / f"{label.split()[0]}.mcap"
        write_messages(path, "/t", (message for _ in range(count)), log_times_ns=range(count))

        def ours(p: Path = path) -> None:
            for _ in read_messages(p, "/t"):
                pass

        def reference(p: Path = path) -> None:
            with AnyReader([p], default_typestore=store) as reader:
                conns = [c for c in reader.connections if c.topic == "/t"]
                for conn, _, data in reader.messages(connections=conns):
                    reader.deserialize(data, conn.msgtype)

        if not row(f"read {label}", pairs(ours, reference, n_pairs), count, 1.3):
            over.append(f"read {label}")
    return over


# --------------------------------------------------------------------------- saving a result


def _big_result(poses: int) -> Msg:
    from robot_msgs.evaluation import EvaluationSettings, ape
    from robot_msgs.trajectory import PoseTrajectory

    t = np.arange(poses, dtype=np.float64) / 100.0
    yaw = t / 50.0
    reference = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([np.cos(yaw) * t, np.sin(yaw) * t, 0.1 * np.sin(t)], axis=1),
        orientations_quat_xyzw=np.stack(
            [np.zeros_like(t), np.zeros_like(t), np.sin(yaw / 2), np.cos(yaw / 2)], axis=1
        ),
    )
    noise = np.random.default_rng(1).normal(scale=0.01, size=(poses, 3))
    estimate = reference.replace(positions_xyz=reference.positions_xyz * 1.01 + noise)
    return ape(reference, estimate, settings=EvaluationSettings(align="se3"))


def _plain_arrays(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return {
            "dtype": str(value.dtype),
            "shape": list(value.shape),
            "data": value.ravel().tolist(),
        }
    if hasattr(value, "items"):
        return dict(value)
    raise NotImplementedError


def bench_save(poses: int, n_pairs: int, folder: Path) -> list[str]:
    from robot_msgs.io.result_files import load_result, save_result

    header(
        f"save EvaluationResult ({poses} poses) as JSON against msgspec.json.encode",
        "target <= 1.5x",
    )
    result = _big_result(poses)
    path = folder / "result.json"
    encoder = msgspec.json.Encoder(enc_hook=_plain_arrays)

    def ours() -> None:
        save_result(path, result, force=True)  # type: ignore[arg-type]

    def reference() -> None:
        encoder.encode(result)

    held = row("save_result(.json)", pairs(ours, reference, n_pairs), 1, 1.5)
    print(f"  ({path.stat().st_size / 1e6:.0f} MB written)")

    def load() -> None:
        load_result(path)

    def parse() -> None:
        msgspec.json.decode(path.read_bytes())

    row("load_result(.json) against msgspec.json.decode", pairs(load, parse, n_pairs), 1, None)
    return [] if held else ["save EvaluationResult"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=7, help="A/B pairs per row (default 7)")
    parser.add_argument("--n", type=int, default=2000, help="operations per timed run")
    parser.add_argument("--poses", type=int, default=200_000, help="poses of the saved result")
    parser.add_argument("--quick", action="store_true", help="a few types, small sizes")
    parser.add_argument(
        "--only", choices=["construct", "json", "cdr", "read", "save"], action="append"
    )
    args = parser.parse_args()
    names = sorted(examples())
    if args.quick:
        names = ["geometry/Pose", "nav/Odometry", "sensor/Imu", "compare/ErrorStats"]
        args.n, args.poses = 200, 20_000
    only = set(args.only or ["construct", "json", "cdr", "read", "save"])
    print(
        f"robot_msgs message layer, {args.pairs} A/B pairs per row, Python {sys.version.split()[0]}"
    )
    over: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "construct" in only:
            over += bench_construction(names, args.n, args.pairs)
        if "json" in only:
            over += bench_json(names, args.n, args.pairs)
        if "cdr" in only:
            over += bench_cdr(args.n, args.pairs)
        if "read" in only:
            over += bench_read(args.n, args.pairs, folder)
        if "save" in only:
            over += bench_save(args.poses, min(args.pairs, 5), folder)
    print(f"\n{len(over)} rows over their target: {', '.join(over) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
