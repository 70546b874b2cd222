"""Generate the example runs shipped in ``src/robot_msgs/examples/runs/`` (seeded, reproducible).

The motion is real: ground truth of TUM RGB-D ``freiburg1_xyz`` and ``freiburg2_desk`` and
of EuRoC ``V1_02`` (from the evo test data). The *algorithms* are synthetic: each run's
estimate is the ground truth, expressed in the run's own start frame, plus seeded drift and
noise; its timing log comes from a single-worker queue with seeded processing times; its
resource log from seeded CPU and memory models. No real SLAM system was run, and the
numbers rank nothing but these generators.

    PYTHONPATH=src python scripts/make_example_runs.py [--data DIR] [--out DIR]

``--data`` defaults to ``$ROBOT_MSGS_EVO_TESTDATA`` or ``../shared/data/evo-testdata``.
The output folder is replaced as a whole.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    normalize_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    quat_xyzw_slerp,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path(
    os.environ.get("ROBOT_MSGS_EVO_TESTDATA", ROOT.parent / "shared" / "data" / "evo-testdata")
)
DEFAULT_OUT = ROOT / "src" / "robot_msgs" / "examples" / "runs"
DURATION_S = 20.0
FRAME_HZ = 10.0
REFERENCE_HZ = 20.0
HARDWARE = "synthetic example: 8-core x86-64 laptop, 32 GB RAM, 6 GB GPU"
CLOCK = "acquisition, processing and availability stamps on one host clock (synthetic)"


@dataclass(frozen=True)
class Sequence:
    """A window of real ground truth that the example algorithms run on."""

    name: str
    dataset: str
    file: str
    start_s: float  # offset into the ground truth, seconds
    ship_reference: bool


@dataclass(frozen=True)
class Algorithm:
    """A synthetic algorithm: error, timing and resource models."""

    name: str
    version: str
    drift_m_per_sqrt_s: float  # random-walk position drift
    noise_m: float  # white position noise
    yaw_drift_rad_per_sqrt_s: float
    scale_drift: float  # fractional scale error growing linearly to this at the end
    processing_median_s: float
    processing_sigma: float  # log-normal shape
    keyframe_extra_s: float  # extra work every ~1 s
    drop_when_busy: bool  # skip frames that arrive while busy
    cpu_percent: float
    rss_bytes: float
    rss_growth_bytes_per_s: float
    threads: int
    gpu_mem_bytes: float | None
    parameters: dict[str, float | int | str | bool] = field(default_factory=dict)


SEQUENCES = (
    Sequence("fr1_xyz", "tum_rgbd", "freiburg1_xyz-groundtruth.txt", 0.0, ship_reference=True),
    Sequence("fr2_desk", "tum_rgbd", "fr2_desk_groundtruth.txt", 10.0, ship_reference=True),
    Sequence("lab_loop", "euroc_v102", "V102_groundtruth.csv", 5.0, ship_reference=False),
)

ALGORITHMS = (
    Algorithm("kfslam", "2.1.0", 0.0015, 0.002, 0.0008, 0.0, 0.028, 0.25, 0.045,
              drop_when_busy=False, cpu_percent=185.0, rss_bytes=420e6,
              rss_growth_bytes_per_s=2.5e6, threads=6, gpu_mem_bytes=None,
              parameters={"features": 1200, "loop_closure": True}),
    Algorithm("dvo", "0.9.3", 0.0040, 0.003, 0.0020, 0.012, 0.014, 0.20, 0.0,
              drop_when_busy=False, cpu_percent=105.0, rss_bytes=160e6,
              rss_growth_bytes_per_s=0.4e6, threads=3, gpu_mem_bytes=820e6,
              parameters={"pyramid_levels": 4, "gpu": True}),
    Algorithm("vio_ekf", "1.4.2", 0.0025, 0.005, 0.0012, 0.0, 0.075, 0.45, 0.030,
              drop_when_busy=True, cpu_percent=140.0, rss_bytes=260e6,
              rss_growth_bytes_per_s=1.0e6, threads=4, gpu_mem_bytes=None,
              parameters={"imu_rate_hz": 200, "features": 300}),
)  # fmt: skip

# Invented dependency versions: the example shows where versions go, nothing more.
SOFTWARE = {
    "kfslam": {"opencv": "4.8.1", "eigen": "3.4.0"},
    "dvo": {"cuda": "12.2", "eigen": "3.4.0"},
    "vio_ekf": {"opencv": "4.8.1", "gtsam": "4.2.0"},
}

# (algorithm, sequence, trial) -> special events of that run
LOSSES = {
    ("kfslam", "fr2_desk", 2): [(6.0, 7.5)],  # seconds from the start: lost, recovered
    ("dvo", "fr1_xyz", 2): [(11.0, 11.5)],
    ("vio_ekf", "fr1_xyz", 1): [(4.0, 5.5), (14.0, 14.5)],
    ("dvo", "lab_loop", 3): [(15.0, None)],  # never recovered
}
CRASHES = {("vio_ekf", "fr2_desk", 2): (12.0, -11)}  # seconds from the start, exit code
TRIALS = {"fr1_xyz": 2, "fr2_desk": 2, "lab_loop": 3}
RUNS_ON = {"lab_loop": ("kfslam", "dvo")}


def read_ground_truth(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stamps (s), positions (m) and unit quaternions xyzw of a TUM or EuRoC ground truth."""
    if path.suffix == ".csv":
        data = np.loadtxt(path, delimiter=",", comments="#")
        stamps = data[:, 0] * 1e-9
        quats = data[:, [5, 6, 7, 4]]  # EuRoC: w x y z
        return stamps, data[:, 1:4], normalize_quat_xyzw(quats)
    data = np.loadtxt(path, comments="#")
    return data[:, 0], data[:, 1:4], normalize_quat_xyzw(data[:, 4:8])


def tum_text(stamps: np.ndarray, xyz: np.ndarray, quats: np.ndarray, header: str) -> str:
    """TUM lines: 0.1 ms stamps, 0.1 mm positions, quaternions to 1e-9 (unit within 1e-6)."""
    rows = [
        f"{t:.4f} {p[0]:.4f} {p[1]:.4f} {p[2]:.4f} {q[0]:.9f} {q[1]:.9f} {q[2]:.9f} {q[3]:.9f}"
        for t, p, q in zip(stamps, xyz, normalize_quat_xyzw(quats), strict=True)
    ]
    return f"# {header}\n# timestamp tx ty tz qx qy qz qw\n" + "\n".join(rows) + "\n"


GroundTruth = tuple[np.ndarray, np.ndarray, np.ndarray]


def window(seq: Sequence, data: Path) -> GroundTruth:
    """Read the sequence's 20 s of ground truth (with a little margin for interpolation)."""
    stamps, xyz, quats = read_ground_truth(data / seq.file)
    t0 = stamps[0] + seq.start_s
    keep = (stamps >= t0 - 0.5) & (stamps < t0 + DURATION_S + 0.5)
    return stamps[keep], xyz[keep], quats[keep]


def grid(gt: GroundTruth, hz: float) -> np.ndarray:
    """Return a regular clock at ``hz`` over the window, like a camera's frame times."""
    t0 = gt[0][0] + 0.5
    return t0 + np.arange(round(DURATION_S * hz)) / hz


def at_times(gt: GroundTruth, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ground truth interpolated at ``times``: linear positions, SLERP rotations."""
    stamps, xyz, quats = gt
    right = np.clip(np.searchsorted(stamps, times), 1, stamps.size - 1)
    left = right - 1
    frac = (times - stamps[left]) / (stamps[right] - stamps[left])
    pos = xyz[left] + frac[:, None] * (xyz[right] - xyz[left])
    return pos, quat_xyzw_slerp(quats[left], quats[right], frac)


def snap(gt: GroundTruth, ticks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each tick moved onto the nearest ground-truth stamp within 10 ms, and which moved.

    Frames stamped like this match the shipped reference exactly where it has a sample, as
    TUM's camera and motion-capture stamps nearly do; in motion-capture gaps they stay put.
    """
    stamps = gt[0]
    right = np.clip(np.searchsorted(stamps, ticks), 1, stamps.size - 1)
    nearest = np.where(ticks - stamps[right - 1] <= stamps[right] - ticks, right - 1, right)
    moved = np.abs(stamps[nearest] - ticks) <= 0.01
    return np.where(moved, stamps[nearest], ticks), moved


def reference_samples(gt: GroundTruth) -> GroundTruth:
    """Pick the real ground-truth samples nearest each tick of a ``REFERENCE_HZ`` clock.

    Not interpolated: gaps of the motion capture stay gaps.
    """
    stamps, xyz, quats = gt
    times, moved = snap(gt, grid(gt, REFERENCE_HZ))
    idx = np.searchsorted(stamps, times[moved])
    return stamps[idx], xyz[idx], quats[idx]


def rotvec_quat(rotvecs: np.ndarray) -> np.ndarray:
    """Quaternions xyzw of rotation vectors (N, 3)."""
    angle = np.linalg.norm(rotvecs, axis=1, keepdims=True)
    axis = np.divide(rotvecs, angle, out=np.zeros_like(rotvecs), where=angle > 0)
    return np.concatenate([axis * np.sin(angle / 2), np.cos(angle / 2)], axis=1)


def estimate_for(
    alg: Algorithm, stamps: np.ndarray, xyz: np.ndarray, quats: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Ground truth in the run's start frame, with drift, scale drift and noise added."""
    n = stamps.size
    dt = np.diff(stamps, prepend=stamps[0])
    walk = np.cumsum(rng.normal(0.0, 1.0, (n, 3)) * np.sqrt(dt)[:, None], axis=0)
    yaw = np.cumsum(rng.normal(0.0, 1.0, n) * np.sqrt(dt)) * alg.yaw_drift_rad_per_sqrt_s
    r0 = matrix_from_quat_xyzw(quats[:1])[0]
    local = (xyz - xyz[0]) @ r0  # R0^T (p - p0), row-wise
    scale = 1.0 + alg.scale_drift * (stamps - stamps[0]) / DURATION_S
    noise = rng.normal(0.0, alg.noise_m, (n, 3))
    local = local * scale[:, None] + walk * alg.drift_m_per_sqrt_s + noise
    q_local = quat_xyzw_multiply(quat_xyzw_conjugate(np.repeat(quats[:1], n, axis=0)), quats)
    jitter = rng.normal(0, 0.002, (n, 3))
    q_err = rotvec_quat(np.stack([np.zeros(n), np.zeros(n), yaw], axis=1) + jitter)
    return local, quat_xyzw_multiply(q_err, q_local)


def timing_for(alg: Algorithm, frames: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Rows (frame, acquisition, start, available) of a single-worker queue."""
    rows = []
    busy_until = -np.inf
    next_keyframe = frames[0]
    for k, acq in enumerate(frames):
        arrive = acq + 0.002  # transport
        if alg.drop_when_busy and busy_until > arrive + 0.05:
            continue  # the frame is dropped: only the newest waiting frame is kept
        start = max(arrive, busy_until)
        work = alg.processing_median_s * np.exp(rng.normal(0.0, alg.processing_sigma))
        if acq >= next_keyframe:
            work += alg.keyframe_extra_s
            next_keyframe = acq + 1.0
        busy_until = start + work
        rows.append((k, acq, start, busy_until))
    return np.array(rows)


def resources_for(alg: Algorithm, t0: float, t1: float, rng: np.random.Generator) -> str:
    """resources.csv text: one sample a second."""
    t = np.arange(0.0, t1 - t0 + 1e-9, 1.0)
    cpu = np.clip(rng.normal(alg.cpu_percent, 0.12 * alg.cpu_percent, t.size), 5, None)
    rss = alg.rss_bytes + alg.rss_growth_bytes_per_s * t + rng.normal(0, 2e6, t.size)
    head = "time_s,cpu_percent,rss_bytes,threads"
    head += ",gpu_mem_bytes,gpu_percent" if alg.gpu_mem_bytes else ""
    lines = [head]
    for i in range(t.size):
        row = f"{t0 + t[i]:.1f},{cpu[i]:.1f},{rss[i]:.0f},{alg.threads}"
        if alg.gpu_mem_bytes:
            gpu = alg.gpu_mem_bytes + rng.normal(0, 5e6)
            row += f",{gpu:.0f},{np.clip(rng.normal(55, 8), 0, 100):.1f}"
        lines.append(row)
    return "\n".join(lines) + "\n"


def make_run(
    folder: Path,
    alg: Algorithm,
    seq: Sequence,
    trial: int,
    gt: GroundTruth,
    rng: np.random.Generator,
) -> None:
    """Write one run folder."""
    frames, _ = snap(gt, grid(gt, FRAME_HZ))
    t0 = frames[0]
    timing = timing_for(alg, frames, rng)
    crash = CRASHES.get((alg.name, seq.name, trial))
    if crash is not None:
        timing = timing[timing[:, 1] < t0 + crash[0]]
    stamps = frames[timing[:, 0].astype(int)]
    xyz, quats = at_times(gt, stamps)
    est_xyz, est_q = estimate_for(alg, stamps, xyz, quats, rng)
    keep = np.ones(stamps.size, dtype=bool)
    events = []
    for lost, recovered in LOSSES.get((alg.name, seq.name, trial), []):
        end = np.inf if recovered is None else t0 + recovered
        gone = (stamps >= t0 + lost) & (stamps < end)
        keep &= ~gone
        after = stamps >= end
        est_xyz[after] += rng.normal(0.0, 0.015, 3)  # relocalisation leaves an offset
        events.append(f"{t0 + lost:.4f},lost")
        if recovered is not None:
            events.append(f"{t0 + recovered:.4f},recovered")
    folder.mkdir(parents=True)
    header = f"synthetic {alg.name} estimate of {seq.name}, trial {trial} (robot_msgs example)"
    estimate = tum_text(stamps[keep], est_xyz[keep], est_q[keep], header)
    (folder / "estimate.tum").write_text(estimate)
    timing_rows = [f"{int(f)},{a:.4f},{s:.4f},{v:.4f}" for f, a, s, v in timing]
    (folder / "timing.csv").write_text(
        "frame,acquisition_s,processing_start_s,available_s\n" + "\n".join(timing_rows) + "\n"
    )
    if events:
        (folder / "tracking.csv").write_text("time_s,event\n" + "\n".join(events) + "\n")
    end = timing[-1, 3] if crash is not None else frames[-1]
    (folder / "resources.csv").write_text(resources_for(alg, t0, end, rng))
    meta: dict[str, object] = {
        "algorithm": alg.name,
        "version": alg.version,
        "dataset": seq.dataset,
        "sequence": seq.name,
        "trial": trial,
        "hardware": HARDWARE,
        "input_rate_hz": FRAME_HZ,
        "clock": CLOCK,
        "parameters": alg.parameters,
        "software": {**SOFTWARE[alg.name], "generator": "scripts/make_example_runs.py"},
    }
    if crash is not None:
        meta["exit_code"] = crash[1]
    if seq.ship_reference:
        meta["reference"] = f"../../../{seq.name}/reference.tum"
    (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")


def main() -> None:
    """Write every run, the references and the manifest."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    keep_readme = (
        (args.out / "README.md").read_text() if (args.out / "README.md").exists() else None
    )
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    entries = []
    for s_index, seq in enumerate(SEQUENCES):
        gt = window(seq, args.data)
        if seq.ship_reference:
            header = (
                f"ground truth of {seq.name} ({seq.file}), {DURATION_S:g} s: the sample nearest "
                f"each tick of a {REFERENCE_HZ:g} Hz clock (within 10 ms), quaternions renormalised"
            )
            (args.out / seq.name).mkdir()
            (args.out / seq.name / "reference.tum").write_text(
                tum_text(*reference_samples(gt), header)
            )
        for a_index, alg in enumerate(ALGORITHMS):
            if alg.name not in RUNS_ON.get(seq.name, (alg.name,)):
                continue
            for trial in range(1, TRIALS[seq.name] + 1):
                rng = np.random.default_rng([2024, s_index, a_index, trial])
                rel = f"{alg.name}/{seq.name}/trial_{trial}"
                make_run(args.out / rel, alg, seq, trial, gt, rng)
                entries.append(rel)
    manifest = ["# Example runs: robot-msgs report src/robot_msgs/examples/runs/runs.toml", ""]
    manifest += [f'[[runs]]\npath = "{rel}"\n' for rel in entries]
    (args.out / "runs.toml").write_text("\n".join(manifest))
    if keep_readme is not None:
        (args.out / "README.md").write_text(keep_readme)
    total = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"wrote {len(entries)} runs to {args.out} ({total / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
