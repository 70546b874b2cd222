"""Produce tests/data/io_reference.json: what evo (and, for TF, SciPy) read from the evo test data.

Run from the repository root, with evo 1.38.1, rosbags and SciPy installed:

    PYTHONPATH=src .venv/bin/python tests/data/make_io_reference.py

Text files and pose topics are read with evo's own readers (``evo.tools.file_interface``),
so the stored numbers are evo's, not ours. evo cannot read TF without a ROS install
(``tf2_py``), so the TF chains are computed here from the raw TF messages with SciPy's
``Rotation``/``Slerp``, following the rule documented in ``robot_msgs.io.tf``: stamps of
the chain's busiest dynamic transform inside the span all dynamic transforms cover,
other dynamic transforms interpolated (linear translation, SLERP), static ones composed.
No robot_msgs code is used.
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Iterable

    from robot_msgs.typing import Float64Array

DATA = Path(
    os.environ.get(
        "ROBOT_MSGS_EVO_TESTDATA", Path(__file__).resolve().parents[3] / "shared/data/evo-testdata"
    )
)
OUT = Path(__file__).with_name("io_reference.json")

TEXT = {
    "tum": [
        "freiburg1_xyz-groundtruth.txt",
        "freiburg1_xyz-rgbdslam.txt",
        "freiburg1_xyz-rgbdslam_drift.txt",
        "freiburg1_xyz-ORB_kf_mono.txt",
        "fr2_desk_groundtruth.txt",
        "fr2_desk_ORB.txt",
        "V102.txt",
        "georeferenced.tum",
    ],
    "euroc": ["V102_groundtruth.csv"],
    "kitti": ["KITTI_00_gt.txt", "KITTI_00_ORB.txt", "KITTI_00_SPTAM.txt"],
}
TOPICS = {
    "ROS_example.bag": ["groundtruth", "ORB-SLAM", "S-PTAM"],
    "nav2_turtlebot.mcap": ["/odom", "/amcl_pose"],
}
TF = {
    "tf_example.bag": ["/tf:odom.base_footprint", "/tf:odom.base_link"],
    "tf_example": ["/tf:odom.base_link"],
    "nav2_turtlebot.mcap": [
        "/tf:odom.base_link",
        "/tf:map.base_link",
        "/tf:map.oakd_rgb_camera_optical_frame",
    ],
}


def pose(t: float, xyz: Iterable[float], quat_wxyz: Iterable[float]) -> dict[str, Any]:
    return {
        "t": float(t),
        "xyz": [float(v) for v in xyz],
        "quat_wxyz": [float(v) for v in quat_wxyz],
    }


def summary(
    stamps: Float64Array, xyz: Float64Array, wxyz: Float64Array, reader: str
) -> dict[str, Any]:
    stamps = np.asarray(stamps)
    unique = np.unique(stamps).size
    return {
        "reader": reader,
        "rows": int(stamps.size),
        "unique_stamps": int(unique),
        "first": pose(stamps[0], xyz[0], wxyz[0]),
        "last": pose(stamps[-1], xyz[-1], wxyz[-1]),
    }


def tf_chain(path: Path, ident: str) -> dict[str, Any]:
    from rosbags.highlevel import AnyReader
    from rosbags.typesys import Stores, get_typestore
    from scipy.spatial.transform import Rotation, Slerp

    topic, _, frames = ident.partition(":")
    parent, _, child = frames.partition(".")
    edges: dict[str, tuple[str, bool, list[tuple[float, ...]]]] = {}
    with AnyReader([path], default_typestore=get_typestore(Stores.LATEST)) as reader:
        conns = [c for c in reader.connections if c.topic in (topic, "/tf_static")]
        for conn, _, raw in reader.messages(connections=conns):
            # A TFMessage, of the classes rosbags builds from the bag's own definitions.
            msg: Any = reader.deserialize(raw, conn.msgtype)
            for tf in msg.transforms:
                static = conn.topic == "/tf_static"
                s, p, q = tf.header.stamp, tf.transform.translation, tf.transform.rotation
                row = (s.sec + s.nanosec * 1e-9, p.x, p.y, p.z, q.x, q.y, q.z, q.w)
                entry = edges.setdefault(tf.child_frame_id, (tf.header.frame_id, static, []))
                entry[2].append(row)

    def up(frame: str) -> list[str]:
        out = [frame]
        while out[-1] in edges:
            out.append(edges[out[-1]][0])
        return out

    a, b = up(parent), up(child)
    common = next(f for f in b if f in a)
    chain_p = list(reversed(a[: a.index(common)]))
    chain_c = list(reversed(b[: b.index(common)]))
    dyn: dict[str, Float64Array] = {}
    for f in chain_p + chain_c:
        _, static, rows = edges[f]
        if not static:
            arr = np.array(rows)
            _, first = np.unique(arr[:, 0], return_index=True)
            dyn[f] = arr[np.sort(first)]
    busiest = max(dyn, key=lambda f: len(dyn[f]))
    lo = max(d[0, 0] for d in dyn.values())
    hi = min(d[-1, 0] for d in dyn.values())
    stamps = dyn[busiest][:, 0]
    stamps = stamps[(stamps >= lo) & (stamps <= hi)]

    def at(f: str, t: float) -> tuple[Float64Array, Any]:
        """Translation and SciPy ``Rotation`` of frame ``f``'s transform at time ``t``."""
        _, static, rows = edges[f]
        arr = np.array(rows) if static else dyn[f]
        if static:
            return arr[-1, 1:4], Rotation.from_quat(arr[-1, 4:8])
        if f == busiest:
            row = arr[arr[:, 0] == t][0]
            return row[1:4], Rotation.from_quat(row[4:8])
        i = np.searchsorted(arr[:, 0], t, side="right") - 1
        i = min(max(i, 0), len(arr) - 2)
        t0, t1 = arr[i, 0], arr[i + 1, 0]
        frac = (t - t0) / (t1 - t0)
        p = arr[i, 1:4] + frac * (arr[i + 1, 1:4] - arr[i, 1:4])
        rot = Slerp([0.0, 1.0], Rotation.from_quat(arr[i : i + 2, 4:8]))([frac])[0]
        return p, rot

    def chain_pose(frames_: list[str], t: float) -> tuple[Float64Array, Any]:
        p, r = np.zeros(3), Rotation.identity()
        for f in frames_:
            pf, rf = at(f, t)
            p, r = p + r.apply(pf), r * rf
        return p, r

    out: dict[str, Any] = {
        "reader": "SciPy Rotation/Slerp over raw TF messages (rule of robot_msgs.io.tf)",
        "rows": int(stamps.size),
    }
    for key, t in (("first", stamps[0]), ("last", stamps[-1])):
        pp, rp = chain_pose(chain_p, t)
        pc, rc = chain_pose(chain_c, t)
        rinv = rp.inv()
        p = rinv.apply(pc - pp)
        r = rinv * rc
        x, y, z, w = r.as_quat()
        out[key] = pose(t, p, [w, x, y, z])
    return out


def main() -> None:
    import evo
    from evo.tools import file_interface as fi
    from rosbags.rosbag1 import Reader as Reader1
    from rosbags.rosbag2 import Reader as Reader2

    ref: dict[str, Any] = {
        "command": "PYTHONPATH=src .venv/bin/python tests/data/make_io_reference.py",
        "evo_version": evo.__version__,
        "rosbags_version": metadata.version("rosbags"),
        "note": "evo keeps repeated stamps; unique_stamps counts distinct ones (robot_msgs keeps the first of each)",
        "text": {},
        "topics": {},
        "tf": {},
    }
    readers = {
        "tum": fi.read_tum_trajectory_file,
        "euroc": fi.read_euroc_csv_trajectory,
        "kitti": fi.read_kitti_poses_file,
    }
    for fmt, names in TEXT.items():
        for name in names:
            traj = readers[fmt](str(DATA / name))
            stamps = getattr(traj, "timestamps", np.arange(traj.num_poses, dtype=float))
            entry = summary(
                stamps,
                traj.positions_xyz,
                traj.orientations_quat_wxyz,
                f"evo {readers[fmt].__name__}",
            )
            entry["format"] = fmt
            ref["text"][name] = entry
    for name, topics in TOPICS.items():
        for topic in topics:
            reader = Reader1(DATA / name) if name.endswith(".bag") else Reader2(DATA / name)
            with reader:
                traj = fi.read_bag_trajectory(reader, topic)
            ref["topics"][f"{name} {topic}"] = summary(
                traj.timestamps,
                traj.positions_xyz,
                traj.orientations_quat_wxyz,
                "evo read_bag_trajectory",
            )
    for name, idents in TF.items():
        for ident in idents:
            ref["tf"][f"{name} {ident}"] = tf_chain(DATA / name, ident)
    OUT.write_text(json.dumps(ref, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
