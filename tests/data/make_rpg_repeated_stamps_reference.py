"""Replay rpg_trajectory_evaluation's association on EuRoC V1_02, every row kept.

Produces ``tests/data/rpg_repeated_stamps_reference.json`` for
``tests/evaluation/test_association.py``. rpg (uzh-rpg/rpg_trajectory_evaluation,
``src/rpg_trajectory_evaluation/associate_timestamps.py``, the same at 295ea5eb and
749ce6e7) reads the first column of every row (``read_timestamps``: no row dropped,
a repeated stamp included), forms every (|t_est - t_gt|, estimate row, ground-truth
row) under 0.02 s, sorts them and accepts greedily, each row once; its
``trajectory_loading.load_stamped_dataset`` calls it with the estimate first. This script
does that on the raw files with no robot_msgs code (NumPy only for the candidates).

On the poses of those matches, in rpg's order (estimate rows ascending), it then replays
rpg's relative error (``compute_trajectory_errors.compute_relative_error``, its Sim(3)
scale from ``align_trajectory.align_umeyama`` over every match, segment lengths of 10..50 %
of the raw ground truth's path truncated to centimetres, ``max_dist_diff`` 0.2 x length,
``trajectory_utils.compute_comparison_indices_length``'s closest end): the segment count
and the RMSE of the translation error per length, written here from rpg's rules, not its
code, as reference numbers for ``drift --protocol rpg --repeated-stamps all``. Checked
against rpg's own code: fed the first row of each repeated stamp (794 matches) this replay
gives ``tests/data/rpg_reference.json``'s ``euroc_v102`` translation rmse at all five
lengths to 1e-15 (7.58 m: 688 segments, 0.12155095344733 m), which rpg's
``compute_relative_error`` made.

Usage::

    python tests/data/make_rpg_repeated_stamps_reference.py [--data EVO_TESTDATA]
"""

from __future__ import annotations

import argparse
import json
import math
import os
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MAX_DIFF = 0.02  # rpg's load_stamped_dataset default
FRACTIONS = (0.1, 0.2, 0.3, 0.4, 0.5)  # rpg's preset_boxplot_percentages


def _stamps(path: Path, *, ns: bool) -> list[float]:
    """First column of every non-comment row, seconds (ns / 10**9 rounded once)."""
    out = []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        first = line.replace(",", " ").split()[0]
        out.append(int(first) / 10**9 if ns else float(first))
    return out


def _rows(path: Path, *, euroc: bool) -> np.ndarray:
    """Every non-comment row as ``x y z qx qy qz qw`` (EuRoC's ``w x y z`` reordered)."""
    rows = []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        cols = [float(v) for v in line.replace(",", " ").split()[1:8]]
        rows.append(cols[:3] + cols[4:7] + cols[3:4] if euroc else cols)
    return np.asarray(rows)


def _matrices(rows: np.ndarray) -> np.ndarray:
    """4x4 poses of ``x y z qx qy qz qw`` rows (the quaternion normalised)."""
    q = rows[:, 3:7] / np.linalg.norm(rows[:, 3:7], axis=1, keepdims=True)
    x, y, z, w = q.T
    out = np.zeros((len(rows), 4, 4))
    out[:, 0] = np.c_[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), rows[:, 0]]
    out[:, 1] = np.c_[2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), rows[:, 1]]
    out[:, 2] = np.c_[2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y), rows[:, 2]]
    out[:, 3, 3] = 1.0
    return out


def _sim3_scale(model: np.ndarray, data: np.ndarray) -> float:
    """Umeyama's scale of ``model ~ s R data + t`` (rpg's align_umeyama(model=gt, data=est))."""
    mc, dc = model - model.mean(0), data - data.mean(0)
    u, d, vt = np.linalg.svd(mc.T @ dc / len(model))
    sign = np.ones(3)
    if np.linalg.det(u) * np.linalg.det(vt) < 0:
        sign[2] = -1.0
    return float((d * sign).sum() / (dc**2).sum(1).mean())


def _path(positions: np.ndarray) -> np.ndarray:
    """Distance travelled from the first row, per row (0 first)."""
    return np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(positions, axis=0), axis=1))])


def rpg_relative_translation(
    gt: np.ndarray, est: np.ndarray, raw_gt: np.ndarray
) -> dict[str, dict[str, float]]:
    """rpg's relative translation error per segment length on matched ``(N, 7)`` rows."""
    scale = _sim3_scale(gt[:, :3], est[:, :3])
    path = _path(gt[:, :3])
    total = _path(raw_gt[:, :3])[-1]
    t_gt, t_es = _matrices(gt), _matrices(est)
    out = {}
    for fraction in FRACTIONS:
        length = math.trunc(fraction * total * 100.0) / 100.0
        starts, ends = [], []  # rpg's list: the closest end of every start that has one
        for i, d in enumerate(path):
            miss = np.abs(path[i:] - (d + length))
            best = int(np.argmin(miss))  # the first on a tie, as its strict `<` keeps it
            if miss[best] < 0.2 * length:
                starts.append(i)
                ends.append(i + best)
        # rpg zips its compacted ends with starts 0, 1, ...: robot_msgs keeps each start
        # with its own end, the same pairs only where no start before the last lacks one.
        assert starts == list(range(len(starts))), "a start in the middle has no end"
        errors = []
        for i, j in enumerate(ends):
            c12 = np.linalg.inv(t_es[i]) @ t_es[j]
            c12[:3, 3] *= scale
            m12 = np.linalg.inv(t_gt[i]) @ t_gt[j]
            errors.append(np.linalg.norm((np.linalg.inv(m12) @ c12)[:3, 3]))
        out[f"{length:g}"] = {
            "length_m": length,
            "segments": len(errors),
            "translation_rmse_m": math.sqrt(float(np.mean(np.square(errors)))),
        }
    return out


def rpg_associate(first: list[float], second: list[float]) -> list[tuple[int, int]]:
    """rpg's ``associate(first, second, 0.0, MAX_DIFF)``: rows, greedy, nearest first."""
    second_a = np.asarray(second)
    candidates = []
    for i, a in enumerate(first):
        near = np.flatnonzero(np.abs(a - second_a) < MAX_DIFF)
        candidates += [(abs(a - second[j]), i, int(j)) for j in near]
    candidates.sort()
    free_first, free_second = set(range(len(first))), set(range(len(second)))
    matches = []
    for _, i, j in candidates:
        if i in free_first and j in free_second:
            free_first.remove(i)
            free_second.remove(j)
            matches.append((i, j))
    return sorted(matches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    default = os.environ.get("ROBOT_MSGS_EVO_TESTDATA", "/work/shared/data/evo-testdata")
    parser.add_argument("--data", type=Path, default=Path(default))
    args = parser.parse_args()
    est = _stamps(args.data / "V102.txt", ns=False)
    gt = _stamps(args.data / "V102_groundtruth.csv", ns=True)
    matches = rpg_associate(est, gt)  # sorted: estimate rows ascending, rpg's order
    est_rows = _rows(args.data / "V102.txt", euroc=False)
    gt_rows = _rows(args.data / "V102_groundtruth.csv", euroc=True)
    est_i, gt_i = (np.array(side) for side in zip(*matches, strict=True))
    relative = rpg_relative_translation(gt_rows[gt_i], est_rows[est_i], gt_rows)
    out = {
        "generator": "tests/data/make_rpg_repeated_stamps_reference.py",
        "rpg_source": "associate_timestamps.py at 295ea5eb / 749ce6e7 (same associate())",
        "max_diff_s": MAX_DIFF,
        "estimate_rows": len(est),
        "reference_rows": len(gt),
        "n_matches": len(matches),
        "estimate_index": [i for i, _ in matches],
        "reference_index": [j for _, j in matches],
        "relative_error_sim3": relative,
    }
    (HERE / "rpg_repeated_stamps_reference.json").write_text(json.dumps(out) + "\n")
    print(len(matches), "matches;", json.dumps(relative))


if __name__ == "__main__":
    main()
