"""Small trajectory files for the evaluation command tests, written as plain text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.typing import Float64Array


def write_tum(path: Path, stamps: Float64Array, positions: Float64Array) -> Path:
    """A TUM file ``t x y z qx qy qz qw`` with identity rotations."""
    rows = np.column_stack([stamps, positions]).tolist()  # Python floats: repr round-trips
    lines = [f"{t!r} {x!r} {y!r} {z!r} 0 0 0 1" for t, x, y, z in rows]
    path.write_text(
        "# timestamp tx ty tz qx qy qz qw\n" + "\n".join(lines) + "\n", encoding="utf-8"
    )
    return path


def line_positions(x: Float64Array) -> Float64Array:
    """Positions ``(x, 0, 0)``."""
    return np.stack([x, 0 * x, 0 * x], axis=1)


def seed_files(tmp_path: Path, estimate_x: Float64Array) -> tuple[Path, Path]:
    """The SLAM guide's reference (x = t, 0..10 s every 0.1 s) and an estimate."""
    t = np.arange(101.0) * 0.1
    ref = write_tum(tmp_path / "reference.tum", t, line_positions(t))
    est = write_tum(tmp_path / "estimate.tum", t, line_positions(estimate_x))
    return ref, est


def write_kitti(path: Path, positions: Float64Array) -> Path:
    """A KITTI pose file with identity rotations."""
    rows = [f"1 0 0 {x!r} 0 1 0 {y!r} 0 0 1 {z!r}" for x, y, z in np.asarray(positions).tolist()]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def write_kitti_off_so3(path: Path, seed: int, n: int = 8) -> Path:
    """``n`` KITTI rows turning about z whose rotation blocks are off SO(3) by ~1e-3."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        c, s = np.cos(0.3 * i), np.sin(0.3 * i)
        block = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        block += rng.uniform(-1e-3, 1e-3, (3, 3))
        rows.append([*block[0], float(i), *block[1], 0.5 * i * i, *block[2], 0.1 * i])
    path.write_text("".join(" ".join(f"{v:.9f}" for v in r) + "\n" for r in rows))
    return path


def write_kitti_run(folder: Path, settings: str = "") -> tuple[Path, Path, Path]:
    """A manifest of one KITTI run (``gt.txt``, ``est.txt``: :func:`write_kitti_off_so3`),
    with ``settings`` (TOML lines) as its ``[settings]``; return reference, estimate, manifest.
    """
    gt = write_kitti_off_so3(folder / "gt.txt", 2)
    est = write_kitti_off_so3(folder / "est.txt", 1)
    manifest = folder / "runs.toml"
    manifest.write_text(
        (f"[settings]\n{settings}\n" if settings else "")
        + '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "est.txt"\n'
        'reference = "gt.txt"\nestimate_format = "kitti"\nreference_format = "kitti"\n'
    )
    return gt, est, manifest


def stats_of(comparison: dict[str, Any]) -> dict[str, Any]:
    """The statistics of each signal of a comparison's JSON form, by signal name."""
    return {s["name"]: s["stats"] for s in comparison["signals"]}


def numbered_table(text: str) -> dict[str, dict[str, str]]:
    """Read a table printed with rows named by long paths: ``#k  NAME`` lines, a blank
    line, then a line a column (``header  value1  value2``); ``{name: {header: value}}``."""
    lines = text.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("#1  ")))
    names: dict[str, str] = {}
    while lines[start].startswith("#"):
        label, name = lines[start].split(None, 1)
        names[label] = name
        start += 1
    labels = lines[start + 1].split()
    table: dict[str, dict[str, str]] = {names[label]: {} for label in labels}
    for line in lines[start + 2 :]:
        if not line or line.startswith("  "):
            break  # the table's end or its notes
        head, *values = line.rsplit(None, len(labels))
        for label, value in zip(labels, values, strict=True):
            table[names[label]][head] = value
    return table


def curve_files(tmp_path: Path, late_s: float) -> tuple[Path, Path]:
    """A 100 Hz reference on a 3-D curve, and the curve seen at 30 Hz stamped ``late_s`` late."""
    t = np.arange(0.0, 30.0, 0.01)
    te = np.arange(1.0, 29.0, 1 / 30)

    def curve(s: np.ndarray) -> np.ndarray:
        return np.stack([np.cos(s), np.sin(2 * s), 0.1 * s], axis=1)

    ref = write_tum(tmp_path / "ref.tum", t, curve(t))
    est = write_tum(tmp_path / "est.tum", te + late_s, curve(te) + np.array([2.0, 0.0, 0.0]))
    return ref, est
