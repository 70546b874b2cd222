"""Fuzz: the readers of saved results, evo zips, transform files and bags raise only our errors.

Each reader gets a few hundred mutants of valid files (flipped, cut, repeated and spliced
bytes; zip entries changed, repeated, renamed or dropped; tokens such as ``NaN``,
``1e999``, 400 digits, ``[``, NUL), within a time budget per test, from a fixed seed.
The law: nothing but :class:`~robot_msgs.errors.RobotMsgsError` escapes, and no case
runs longer than 20 s (a hang). Warnings other than the package's ``DataWarning`` are
errors here, as everywhere in the suite.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.io import read_trajectory
from robot_msgs.io.evo_results import read_evo_result
from robot_msgs.io.result_files import load_result, save_result
from robot_msgs.io.transform_file import read_transform
from robot_msgs.msg.catalog import example
from tests.hostile import EVO_INFO, EVO_STATS, fuzz, mutations, npy_bytes, zip_mutant

ZIPS = Path(__file__).parents[1] / "data" / "evo_results"
SEED = 20231
BUDGET_S = 6.0


def _entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_evo_zips(tmp_path: Path) -> None:
    rng = np.random.default_rng(SEED)
    seeds = [_entries(p) for p in sorted(ZIPS.glob("*.zip"))]
    seeds.append(
        {
            "info.json": json.dumps(EVO_INFO).encode(),
            "stats.json": json.dumps(EVO_STATS).encode(),
            "error_array.npy": npy_bytes(np.array([0.5, 0.5])),
            "timestamps.npy": npy_bytes(np.array([1.0, 2.0])),
            "alignment_transformation_sim3.npy": npy_bytes(np.eye(4)),
        }
    )
    raw = [(ZIPS / "fr1_xyz_rpe_se3_1m.zip").read_bytes()]
    path = tmp_path / "evo.zip"

    def mutant() -> bytes:
        if rng.integers(4) == 0:
            return mutations(raw[0], rng)()
        return zip_mutant(seeds[int(rng.integers(len(seeds)))], rng)

    def check(data: bytes) -> None:
        path.write_bytes(data)
        read_evo_result(path)

    assert fuzz(check, mutant, cases=400, seconds=BUDGET_S, at_least=50) >= 50


@pytest.mark.parametrize("suffix", [".json", ".npz", ".parquet"])
def test_saved_results(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    rng = np.random.default_rng(SEED)
    seed = save_result(tmp_path / f"seed{suffix}", example("compare/EvaluationResult"))  # type: ignore[arg-type]
    data = seed.read_bytes()
    entries = _entries(seed) if suffix == ".npz" else {}
    path = tmp_path / f"r{suffix}"
    flip = mutations(data, rng)

    def mutant() -> bytes:
        return zip_mutant(entries, rng) if entries and rng.integers(3) else flip()

    def check(content: bytes) -> None:
        path.write_bytes(content)
        load_result(path)

    assert fuzz(check, mutant, cases=300, seconds=BUDGET_S, at_least=50) >= 50


def test_transform_files(tmp_path: Path) -> None:
    rng = np.random.default_rng(SEED)
    seeds = {
        ".json": b'{"x": 1, "y": 2, "z": 3, "qx": 0, "qy": 0, "qz": 0, "qw": 1, "scale": 1.5}',
        ".yaml": b"pose:\n  position: {x: 1, y: 2, z: 3}\n  orientation: {x: 0, y: 0, z: 0, w: 1}\n",
        ".txt": b"1 0 0 1\n0 1 0 2\n0 0 1 3\n0 0 0 1\n",
        ".npy": npy_bytes(np.eye(4)),
        ".json ": b'{"matrix": [[1, 0, 0, 1], [0, 1, 0, 2], [0, 0, 1, 3], [0, 0, 0, 1]]}',
    }
    flips = {suffix.strip(): mutations(data, rng) for suffix, data in seeds.items()}
    suffixes = list(flips)
    chosen: list[str] = []

    def mutant() -> bytes:
        chosen.append(suffixes[int(rng.integers(len(suffixes)))])
        return flips[chosen[-1]]()

    def check(data: bytes) -> None:
        path = tmp_path / f"t{chosen[-1]}"
        path.write_bytes(data)
        read_transform(path, flag="--transform-left")

    assert fuzz(check, mutant, cases=600, seconds=BUDGET_S, at_least=100) >= 100


def test_bags(tmp_path: Path) -> None:
    pytest.importorskip("rosbags")
    rng = np.random.default_rng(SEED)
    good = _pose_bag(tmp_path / "good")
    seed = next(good.glob("*.mcap")).read_bytes()
    flip = mutations(seed, rng)
    payloads = [b"", bytes(range(40)), b"\x00\x01\x00\x00" + b"\xff" * 60]

    def mutant() -> bytes:
        if rng.integers(3) == 0:  # a bag whose messages are random CDR
            payload = payloads[int(rng.integers(len(payloads)))]
            return b"CDR" + mutations(payload or b"\x00\x01\x00\x00", rng)()
        return flip()

    def check(data: bytes) -> None:
        if data.startswith(b"CDR"):
            folder = _pose_bag(tmp_path / "cdr", payload=data[3:])
            read_trajectory(folder, topic="/pose")
            return
        path = tmp_path / "m.mcap"
        path.write_bytes(data)
        read_trajectory(path, format="mcap", topic="/pose")

    assert fuzz(check, mutant, cases=150, seconds=BUDGET_S, at_least=20) >= 20


def _pose_bag(folder: Path, payload: bytes | None = None) -> Path:
    """A ROS 2 MCAP bag of 3 PoseStamped messages; ``payload`` replaces their CDR bytes."""
    import shutil

    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_typestore

    shutil.rmtree(folder, ignore_errors=True)
    store = get_typestore(Stores.LATEST)
    msg_type = store.types["geometry_msgs/msg/PoseStamped"]
    header = store.types["std_msgs/msg/Header"]
    stamp = store.types["builtin_interfaces/msg/Time"]
    pose = store.types["geometry_msgs/msg/Pose"]
    point = store.types["geometry_msgs/msg/Point"]
    quat = store.types["geometry_msgs/msg/Quaternion"]
    with Writer(folder, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conn = writer.add_connection("/pose", "geometry_msgs/msg/PoseStamped", typestore=store)
        for k in range(3):
            message = msg_type(
                header=header(stamp=stamp(sec=k, nanosec=0), frame_id="map"),
                pose=pose(
                    position=point(x=float(k), y=0.0, z=0.0),
                    orientation=quat(x=0.0, y=0.0, z=0.0, w=1.0),
                ),
            )
            data = store.serialize_cdr(message, "geometry_msgs/msg/PoseStamped")
            writer.write(conn, (k + 1) * 1000, payload if payload is not None else data)
    return folder
