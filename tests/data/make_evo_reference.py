"""Run evo's own command-line tools on the evo test data and store their statistics.

Produces ``tests/data/evo_reference.json``, the stored reference numbers that
``tests/acceptance/test_evo_agreement.py`` compares robot_msgs with when evo is not
installed. Each case records the exact command line (run in the data folder, so the file
names are the ones shown), evo's version, the matching robot_msgs call, and evo's
statistics (``stats.json`` of ``--save_results``) plus the number of errors.

Usage, from the repository root, in an environment with evo 1.38.1::

    python tests/data/make_evo_reference.py [--data ../shared/data/evo-testdata]
        [--keep-existing]   # run evo only for the cases not stored yet

The stored file was made with ``--data /work/shared/data/evo-testdata``.

evo writes its settings under ``$HOME/.evo``; the script points ``HOME`` at a temporary
folder so a user's evo configuration cannot change the numbers. robot_msgs never imports
evo (GPL-3.0); this script only runs it.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
# Like tests/conftest.py: $ROBOT_MSGS_EVO_TESTDATA, else ../shared/data/evo-testdata.
DEFAULT_DATA = Path(
    os.environ.get("ROBOT_MSGS_EVO_TESTDATA", HERE.parents[2] / "shared" / "data" / "evo-testdata")
)

# evo's relation names -> ours.
RELATIONS = {
    "trans_part": "translation",
    "angle_deg": "angle_deg",
    "angle_rad": "angle_rad",
    "full": "full",
    "rot_part": "rot_part",
    "point_distance": "point_distance",
    "point_distance_error_ratio": "point_distance_error_ratio",
}
# evo's alignment flags -> ours.
ALIGNMENTS = {
    "none": [],
    "se3": ["-a"],
    "sim3": ["-a", "-s"],
    "scale": ["-s"],
    "origin": ["--align_origin"],
    "origin_scale": ["--align_origin", "-s"],
}
# evo's delta units -> ours.
UNITS = {"f": "f", "m": "m", "r": "rad", "d": "deg"}

# Inputs: evo mode, reference, estimate, and how robot_msgs reads them.
INPUTS: dict[str, dict[str, Any]] = {
    "fr1_drift": {
        "mode": "tum",
        "reference": {"path": "freiburg1_xyz-groundtruth.txt", "fmt": "tum"},
        "estimate": {"path": "freiburg1_xyz-rgbdslam_drift.txt", "fmt": "tum"},
    },
    "fr1_mono": {
        "mode": "tum",
        "reference": {"path": "freiburg1_xyz-groundtruth.txt", "fmt": "tum"},
        "estimate": {"path": "freiburg1_xyz-ORB_kf_mono.txt", "fmt": "tum"},
    },
    "fr2_desk": {
        "mode": "tum",
        "reference": {"path": "fr2_desk_groundtruth.txt", "fmt": "tum"},
        "estimate": {"path": "fr2_desk_ORB.txt", "fmt": "tum"},
    },
    "euroc_v102": {
        "mode": "euroc",
        "reference": {"path": "V102_groundtruth.csv", "fmt": "euroc"},
        "estimate": {"path": "V102.txt", "fmt": "tum", "evo_reads": "V102.dedup.txt"},
    },
    # V102.txt as evo reads it, every row (4 repeat an earlier stamp): robot_msgs reads the
    # estimate with repeated_stamps="all" (--repeated-stamps all).
    "euroc_v102_all": {
        "mode": "euroc",
        "reference": {"path": "V102_groundtruth.csv", "fmt": "euroc"},
        "estimate": {"path": "V102.txt", "fmt": "tum", "repeated_stamps": "all"},
    },
    "kitti00_orb": {
        "mode": "kitti",
        "reference": {
            "path": "KITTI_00_gt.txt",
            "fmt": "kitti",
            "evo_reads": "KITTI_00_gt.polar.txt",
        },
        "estimate": {
            "path": "KITTI_00_ORB.txt",
            "fmt": "kitti",
            "evo_reads": "KITTI_00_ORB.polar.txt",
        },
    },
    "kitti00_sptam": {
        "mode": "kitti",
        "reference": {
            "path": "KITTI_00_gt.txt",
            "fmt": "kitti",
            "evo_reads": "KITTI_00_gt.polar.txt",
        },
        "estimate": {
            "path": "KITTI_00_SPTAM.txt",
            "fmt": "kitti",
            "evo_reads": "KITTI_00_SPTAM.polar.txt",
        },
    },
    "kitti00_orb_raw": {
        "mode": "kitti",
        "reference": {"path": "KITTI_00_gt.txt", "fmt": "kitti"},
        "estimate": {"path": "KITTI_00_ORB.txt", "fmt": "kitti"},
        # Only position-based relations here: the files' 3x3 blocks are rotations only to
        # 2.3e-7 (gt) and 8.1e-7 (ORB) (max |R Rᵀ - I|, 9 decimals of float32 data). evo uses
        # them as they are, robot_msgs' reader projects them onto the nearest rotation, so
        # rotation-dependent results differ at that level (times the lever arm: up to 1e-3
        # relative for 100 m RPE); the kitti00_* cases give evo the projected rotations.
    },
    "bag_sptam": {
        "mode": "bag",
        "bag": "ROS_example.bag",
        "reference": {"path": "ROS_example.bag", "fmt": "bag", "topic": "groundtruth"},
        "estimate": {"path": "ROS_example.bag", "fmt": "bag", "topic": "S-PTAM"},
    },
    "bag_orb": {
        "mode": "bag",
        "bag": "ROS_example.bag",
        "reference": {"path": "ROS_example.bag", "fmt": "bag", "topic": "groundtruth"},
        "estimate": {"path": "ROS_example.bag", "fmt": "bag", "topic": "ORB-SLAM"},
    },
    # evo's --sync_method interpolation resamples the longer trajectory: the reference
    # (fewer poses: every 7th ground-truth row, ~14 Hz beside the estimate's ~30 Hz), the
    # estimate (swapped: the ground truth), or neither (fr1_drift, fr1_mono: the estimate).
    "fr1_sparse_gt": {
        "mode": "tum",
        "reference": {
            "path": "freiburg1_xyz-groundtruth.txt",
            "fmt": "tum",
            "every": 7,
            "evo_reads": "freiburg1_xyz-groundtruth.every7.txt",
        },
        "estimate": {"path": "freiburg1_xyz-rgbdslam.txt", "fmt": "tum"},
    },
    "fr1_swapped": {
        "mode": "tum",
        "reference": {"path": "freiburg1_xyz-rgbdslam.txt", "fmt": "tum"},
        "estimate": {"path": "freiburg1_xyz-groundtruth.txt", "fmt": "tum"},
    },
    "mcap_nav2": {
        "mode": "bag2",
        "bag": "nav2_turtlebot.mcap",
        "reference": {"path": "nav2_turtlebot.mcap", "fmt": "mcap", "topic": "/amcl_pose"},
        "estimate": {"path": "nav2_turtlebot.mcap", "fmt": "mcap", "topic": "/odom"},
    },
}


def _ape(inputs: str, relation: str, align: str = "none", **extra: Any) -> dict[str, Any]:
    return {"tool": "ape", "inputs": inputs, "relation": relation, "align": align, **extra}


def _rpe(
    inputs: str, relation: str, delta: float, unit: str, align: str = "none", **extra: Any
) -> dict[str, Any]:
    return {
        "tool": "rpe",
        "inputs": inputs,
        "relation": relation,
        "align": align,
        "delta": delta,
        "unit": unit,
        **extra,
    }


def cases() -> list[dict[str, Any]]:
    """Every case: each relation, alignment and delta unit evo shares with robot_msgs."""
    out = [
        _ape("fr1_drift", rel, align)
        for align in ALIGNMENTS
        for rel in ("trans_part", "angle_deg", "angle_rad", "full", "rot_part", "point_distance")
    ]
    out += [
        _ape("fr1_drift", "trans_part", "se3", n_to_align=100),
        _ape("fr1_drift", "angle_deg", "sim3", n_to_align=300),
        _ape("fr1_drift", "trans_part", "none", t_offset=0.004, t_max_diff=0.02),
        _ape("fr1_mono", "trans_part", "sim3"),
        _ape("fr2_desk", "trans_part", "se3"),
        _ape("fr2_desk", "angle_deg", "se3"),
        _ape("euroc_v102", "trans_part", "se3"),
        _ape("euroc_v102", "angle_deg", "sim3"),
        _ape("euroc_v102", "full", "origin"),
        _ape("fr1_mono", "trans_part", "origin_scale"),
        _ape("fr1_mono", "angle_deg", "origin_scale", n_to_align=50),
        _ape("kitti00_orb", "trans_part", "origin_scale"),
        _ape("euroc_v102", "trans_part", "origin_scale"),
        _ape("kitti00_orb", "trans_part", "se3"),
        _ape("kitti00_orb", "trans_part", "sim3"),
        _ape("kitti00_orb", "angle_deg", "none"),
        _ape("kitti00_orb", "rot_part", "se3"),
        _ape("kitti00_orb", "full", "se3"),
        _ape("kitti00_sptam", "trans_part", "se3"),
        _ape("kitti00_orb_raw", "trans_part", "se3"),
        _ape("kitti00_orb_raw", "point_distance", "sim3"),
        _ape("bag_sptam", "trans_part", "se3"),
        _ape("bag_sptam", "angle_deg", "none"),
        _ape("bag_orb", "trans_part", "sim3"),
        _ape("mcap_nav2", "trans_part", "none"),
        _ape("mcap_nav2", "angle_deg", "se3"),
    ]
    out += [_rpe("fr1_drift", rel, 1, "f") for rel in RELATIONS]
    out += [
        _rpe("fr1_drift", "trans_part", 10, "f", all_pairs=True),
        _rpe("fr1_drift", "angle_deg", 10, "f", all_pairs=True, pairs_from_reference=True),
        _rpe("fr1_drift", "trans_part", 0.2, "m"),
        _rpe("fr1_drift", "angle_deg", 0.2, "m"),
        _rpe("fr1_drift", "trans_part", 0.2, "m", all_pairs=True),
        _rpe("fr1_drift", "point_distance_error_ratio", 0.2, "m", all_pairs=True),
        _rpe("fr1_drift", "trans_part", 0.2, "m", all_pairs=True, pairs_from_reference=True),
        _rpe("fr1_drift", "trans_part", 0.2, "m", all_pairs=True, delta_tol=0.3),
        _rpe("fr1_drift", "trans_part", 5, "d"),
        _rpe("fr1_drift", "angle_deg", 5, "d", all_pairs=True),
        _rpe("fr1_drift", "rot_part", 5, "d", all_pairs=True, pairs_from_reference=True),
        _rpe("fr1_drift", "angle_rad", 0.1, "r"),
        _rpe("fr1_drift", "trans_part", 0.1, "r", all_pairs=True),
        _rpe("fr1_drift", "trans_part", 1, "f", "sim3"),
        _rpe("fr1_drift", "rot_part", 1, "f", "origin"),
        _rpe("fr1_mono", "trans_part", 1, "f", "origin_scale"),
        _rpe("fr1_drift", "trans_part", 0.2, "m", "scale", all_pairs=True),
        _rpe("fr1_drift", "full", 0.2, "m", "se3", n_to_align=200),
        _rpe("fr1_mono", "trans_part", 1, "f", "sim3"),
        _rpe("fr2_desk", "trans_part", 0.5, "m", all_pairs=True),
        _rpe("fr2_desk", "angle_deg", 10, "d"),
        _rpe("euroc_v102", "trans_part", 1, "f"),
        _rpe("euroc_v102", "angle_deg", 1, "m", all_pairs=True),
        _rpe("euroc_v102", "trans_part", 20, "d", all_pairs=True),
        _rpe("kitti00_orb", "trans_part", 100, "m", all_pairs=True),
        _rpe("kitti00_orb", "angle_deg", 100, "m"),
        _rpe("kitti00_orb", "trans_part", 10, "f"),
        _rpe("kitti00_orb", "point_distance", 1, "f", all_pairs=True),
        _rpe("kitti00_sptam", "angle_rad", 1, "f"),
        _rpe("kitti00_orb_raw", "point_distance", 100, "m", all_pairs=True),
        _rpe("bag_sptam", "trans_part", 1, "m", all_pairs=True),
        _rpe("bag_orb", "angle_deg", 10, "f", "sim3"),
        _rpe("mcap_nav2", "trans_part", 0.5, "m"),
        _rpe("mcap_nav2", "angle_deg", 10, "d", all_pairs=True),
    ]
    # Time ranges (evo's --t_start/--t_end cut the reference before association).
    out += [
        _ape("fr1_drift", "trans_part", "se3", t_start=1305031105.5, t_end=1305031120.25),
        _ape("fr1_drift", "angle_deg", "none", t_end=1305031110.0),
        _ape("fr1_drift", "trans_part", "sim3", t_start=1305031115.0),
        _ape("fr2_desk", "trans_part", "se3", t_start=1311868180.0, t_end=1311868240.0),
        _rpe("fr1_drift", "trans_part", 1, "f", "se3", t_start=1305031105.5, t_end=1305031120.25),
        _rpe("fr1_drift", "angle_deg", 0.2, "m", all_pairs=True, t_start=1305031110.0),
        _rpe("fr2_desk", "trans_part", 0.5, "m", "se3", all_pairs=True, t_end=1311868200.0),
    ]
    # Plane projection (evo's --project_to_plane, applied after the alignment).
    out += [
        _ape("fr2_desk", "trans_part", "se3", project_to_plane="xy"),
        _ape("fr2_desk", "trans_part", "sim3", project_to_plane="xy"),
        _ape("fr2_desk", "angle_deg", "se3", project_to_plane="xy"),
        _ape("fr1_drift", "trans_part", "se3", project_to_plane="xz"),
        _ape("fr1_drift", "trans_part", "sim3", project_to_plane="yz"),
        _ape("fr1_drift", "angle_deg", "sim3", project_to_plane="xz"),
        _ape("fr1_drift", "full", "se3", project_to_plane="yz"),
        _ape("fr1_drift", "trans_part", "none", project_to_plane="xy"),
        _ape("fr1_mono", "trans_part", "sim3", project_to_plane="xy"),
        _rpe("fr2_desk", "trans_part", 0.5, "m", "se3", all_pairs=True, project_to_plane="xy"),
        _rpe("fr2_desk", "angle_deg", 1, "f", "sim3", project_to_plane="xy"),
        _rpe("fr1_drift", "trans_part", 1, "f", "se3", project_to_plane="xz"),
        _rpe("fr1_drift", "rot_part", 0.2, "m", "sim3", project_to_plane="yz"),
        _rpe("fr1_drift", "angle_deg", 10, "d", "se3", project_to_plane="xy"),
        _rpe("fr1_drift", "trans_part", 10, "f", "sim3", all_pairs=True, project_to_plane="xy"),
    ]
    # evo's --sync_method interpolation (ours: sync="interpolate_longer"), each side the
    # longer one; with a wider max_diff and an offset, shorter-side poses share a partner.
    interpolation = {"sync_method": "interpolation"}
    out += [
        _rpe("fr1_sparse_gt", "trans_part", 0.1, "m", **interpolation),
        _rpe("fr1_sparse_gt", "angle_deg", 1, "f", "sim3", t_offset=0.013, t_max_diff=0.1,
             **interpolation),
        _ape("fr1_sparse_gt", "full", "se3", **interpolation),
        _ape("fr1_swapped", "trans_part", "se3", **interpolation),
        _rpe("fr1_swapped", "rot_part", 0.2, "m", all_pairs=True, **interpolation),
        _ape("fr1_drift", "trans_part", "se3", **interpolation),
        _ape("fr1_drift", "angle_deg", "none", t_offset=0.004, t_max_diff=0.02, **interpolation),
        _rpe("fr1_drift", "trans_part", 0.2, "m", **interpolation),
        _ape("fr1_mono", "trans_part", "sim3", **interpolation),
    ]  # fmt: skip
    # Every row of V102.txt, as evo reads it (--repeated-stamps all): evo_rpe's defaults
    # (-d 1 -u f), aligned, and a delta in metres over all pairs.
    out += [
        _ape("euroc_v102_all", "trans_part", "se3"),
        _rpe("euroc_v102_all", "trans_part", 1, "f"),
        _rpe("euroc_v102_all", "trans_part", 1, "f", "se3"),
        _rpe("euroc_v102_all", "angle_deg", 1, "m", all_pairs=True),
    ]
    return out


def _case_id(case: dict[str, Any]) -> str:
    parts = [case["tool"], case["inputs"], case["relation"], case["align"]]
    if case["tool"] == "rpe":
        parts.append(f"{case['delta']:g}{case['unit']}")
        parts += ["all"] if case.get("all_pairs") else []
        parts += ["ref"] if case.get("pairs_from_reference") else []
        parts += [f"tol{case['delta_tol']:g}"] if "delta_tol" in case else []
    parts += [f"n{case['n_to_align']}"] if "n_to_align" in case else []
    parts += [f"off{case['t_offset']:g}"] if "t_offset" in case else []
    parts += [f"from{case['t_start']!r}"] if "t_start" in case else []
    parts += [f"to{case['t_end']!r}"] if "t_end" in case else []
    parts += [f"plane{case['project_to_plane']}"] if "project_to_plane" in case else []
    parts += [case["sync_method"]] if "sync_method" in case else []
    return "-".join(parts)


def _evo_file(side: dict[str, Any]) -> str:
    return str(side.get("evo_reads", side["path"]))


def derive_inputs(data: Path, folder: Path) -> None:
    """Write the derived files evo reads (``evo_reads``), beside links to the originals.

    ``*.polar.txt``: a KITTI file with each 3x3 block replaced by its nearest rotation
    ``U Vᵀ`` (polar factor of the SVD, written with 17 significant digits), the projection
    robot_msgs' KITTI reader applies, so both tools see the same SE(3) poses.
    ``V102.dedup.txt``: V102.txt without the 4 rows that repeat an earlier stamp (the first
    row of each stamp kept), the rule robot_msgs' readers apply; evo keeps both rows.
    ``*.every7.txt``: the pose rows 0, 7, 14... of a TUM file, as written (an input's
    ``every``: robot_msgs reads the whole file and keeps those rows).
    """
    for item in data.iterdir():
        (folder / item.name).symlink_to(item)
    for name in ("KITTI_00_gt", "KITTI_00_ORB", "KITTI_00_SPTAM"):
        rows = np.loadtxt(data / f"{name}.txt").reshape(-1, 3, 4)
        u, _, vt = np.linalg.svd(rows[:, :, :3])
        rows[:, :, :3] = u @ vt
        lines = (" ".join(repr(float(v)) for v in row.ravel()) for row in rows)
        (folder / f"{name}.polar.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    kept, seen = [], set()
    for line in (data / "V102.txt").read_text(encoding="utf-8").splitlines():
        stamp = line.split()[0] if line.strip() and not line.startswith("#") else None
        if stamp is not None and stamp in seen:
            continue
        seen.add(stamp)
        kept.append(line)
    (folder / "V102.dedup.txt").write_text("\n".join(kept) + "\n", encoding="utf-8")
    for spec in INPUTS.values():
        for side in ("reference", "estimate"):
            every = spec[side].get("every")
            if every is not None:
                text = (data / spec[side]["path"]).read_text(encoding="utf-8")
                poses = [line for line in text.splitlines() if line.strip() and line[0] != "#"]
                out = folder / spec[side]["evo_reads"]
                out.write_text("\n".join(poses[::every]) + "\n", encoding="utf-8")


def command(case: dict[str, Any]) -> list[str]:
    """evo's command line for ``case`` (file names relative to the data folder)."""
    spec = INPUTS[case["inputs"]]
    tool = "evo_ape" if case["tool"] == "ape" else "evo_rpe"
    if "bag" in spec:
        args = [spec["mode"], spec["bag"], spec["reference"]["topic"], spec["estimate"]["topic"]]
    else:
        args = [spec["mode"], *(_evo_file(spec[side]) for side in ("reference", "estimate"))]
    args += ["-r", case["relation"], *ALIGNMENTS[case["align"]]]
    if "n_to_align" in case:
        args += ["--n_to_align", str(case["n_to_align"])]
    if case["tool"] == "rpe":
        args += ["-d", f"{case['delta']:g}", "-u", case["unit"]]
        args += ["--all_pairs"] if case.get("all_pairs") else []
        args += ["--pairs_from_reference"] if case.get("pairs_from_reference") else []
        args += ["-t", f"{case['delta_tol']:g}"] if "delta_tol" in case else []
    if "t_offset" in case:
        args += ["--t_offset", f"{case['t_offset']:g}"]
    if "t_max_diff" in case:
        args += ["--t_max_diff", f"{case['t_max_diff']:g}"]
    if "t_start" in case:
        args += ["--t_start", repr(case["t_start"])]
    if "t_end" in case:
        args += ["--t_end", repr(case["t_end"])]
    if "project_to_plane" in case:
        args += ["--project_to_plane", case["project_to_plane"]]
    if "sync_method" in case:
        args += ["--sync_method", case["sync_method"]]
    return [tool, *args]


def ours(case: dict[str, Any]) -> dict[str, Any]:
    """The robot_msgs call that computes the same numbers as ``command(case)``.

    ``settings`` are the fields of ``EvaluationSettings``, ``pairs`` (RPE) those of
    ``PairSettings``: ``ape(ref, est, settings=EvaluationSettings(**settings),
    relation=relation)``.
    """
    settings: dict[str, Any] = {"align": case["align"]}
    if "n_to_align" in case:
        settings["n_align"] = case["n_to_align"]
    if "t_offset" in case:
        settings["offset_s"] = case["t_offset"]
    if "t_max_diff" in case:
        settings["max_diff_s"] = case["t_max_diff"]
    if "t_start" in case:
        settings["t_start_s"] = case["t_start"]
    if "t_end" in case:
        settings["t_end_s"] = case["t_end"]
    if "project_to_plane" in case:
        settings["project_to_plane"] = case["project_to_plane"]
    if case.get("sync_method") == "interpolation":
        settings["sync"] = "interpolate_longer"
    out: dict[str, Any] = {
        "metric": case["tool"],
        "relation": RELATIONS[case["relation"]],
        "settings": settings,
    }
    if case["tool"] == "rpe":
        pairs: dict[str, Any] = {
            "delta": case["delta"],
            "delta_unit": UNITS[case["unit"]],
            "all_pairs": bool(case.get("all_pairs")),
            "pairs_from": "reference" if case.get("pairs_from_reference") else "estimate",
        }
        if "delta_tol" in case:
            pairs["delta_tol"] = case["delta_tol"]
        out["pairs"] = pairs
    return out


def run(case: dict[str, Any], data: Path, home: Path) -> dict[str, Any]:
    """Run evo on one case; return its statistics and error count."""
    argv = command(case)
    exe = Path(sys.executable).with_name(argv[0])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.zip"
        env = {**os.environ, "HOME": str(home), "MPLBACKEND": "Agg"}
        full = [str(exe), *argv[1:], "--silent", "--no_warnings", "--save_results", str(out)]
        subprocess.run(full, cwd=data, env=env, check=True)  # noqa: S603 (our own argv)
        with zipfile.ZipFile(out) as archive:
            stats = json.loads(archive.read("stats.json"))
            errors = np.load(io.BytesIO(archive.read("error_array.npy")))
    return {**{k: float(v) for k, v in stats.items()}, "n": int(errors.size)}


def main() -> int:
    """Run every case and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="evo test data folder")
    parser.add_argument("--out", type=Path, default=HERE / "evo_reference.json")
    parser.add_argument(
        "--keep-existing",
        action="store_true",
        help="reuse the stored evo numbers of cases already in --out (same id and command); "
        "run evo only for new cases",
    )
    args = parser.parse_args()
    stored: dict[str, dict[str, Any]] = {}
    if args.keep_existing and args.out.exists():
        previous = json.loads(args.out.read_text(encoding="utf-8"))
        stored = {c["id"]: c for c in previous["cases"]}
    home = Path(tempfile.mkdtemp(prefix="evo-home-"))
    folder = Path(tempfile.mkdtemp(prefix="evo-data-"))
    try:
        derive_inputs(args.data.resolve(), folder)
        records = []
        for case in cases():
            case_id = _case_id(case)
            line = " ".join(command(case))
            kept = stored.get(case_id)
            reuse = kept is not None and kept["command"] == line
            print(case_id, "(stored)" if reuse else "", flush=True)
            records.append(
                {
                    "id": case_id,
                    "command": line,
                    "inputs": INPUTS[case["inputs"]],
                    "ours": ours(case),
                    "evo": kept["evo"] if reuse and kept is not None else run(case, folder, home),
                }
            )
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    document = {
        "generator": "tests/data/make_evo_reference.py",
        "evo_version": version("evo"),
        "numpy_version": np.__version__,
        "data": "evo test data (MichaelGrupp/evo test/data, commit 26d0953d); commands run there",
        "note": (
            "--silent --no_warnings --save_results FILE were appended to every command; "
            "*.polar.txt, *.every7.txt and V102.dedup.txt are derived by derive_inputs() in "
            "the generator"
        ),
        "cases": records,
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
