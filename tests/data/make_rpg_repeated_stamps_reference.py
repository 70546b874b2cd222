"""Replay rpg_trajectory_evaluation's association on EuRoC V1_02, every row kept.

Produces ``tests/data/rpg_repeated_stamps_reference.json`` for
``tests/evaluation/test_association.py``. rpg (uzh-rpg/rpg_trajectory_evaluation,
``src/rpg_trajectory_evaluation/associate_timestamps.py``, the same at 295ea5eb and
749ce6e7) reads the first column of every row (``read_timestamps``: no row dropped,
a repeated stamp included), forms every (|t_est - t_gt|, estimate row, ground-truth
row) under 0.02 s, sorts them and accepts greedily, each row once; its
``trajectory_loading.load_stamped_dataset`` calls it with the estimate first. This script
does that on the raw files with no robot_msgs code (NumPy only for the candidates).

Usage::

    python tests/data/make_rpg_repeated_stamps_reference.py [--data EVO_TESTDATA]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MAX_DIFF = 0.02  # rpg's load_stamped_dataset default


def _stamps(path: Path, *, ns: bool) -> list[float]:
    """First column of every non-comment row, seconds (ns / 10**9 rounded once)."""
    out = []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        first = line.replace(",", " ").split()[0]
        out.append(int(first) / 10**9 if ns else float(first))
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
    matches = rpg_associate(est, gt)
    out = {
        "generator": "tests/data/make_rpg_repeated_stamps_reference.py",
        "rpg_source": "associate_timestamps.py at 295ea5eb / 749ce6e7 (same associate())",
        "max_diff_s": MAX_DIFF,
        "estimate_rows": len(est),
        "reference_rows": len(gt),
        "n_matches": len(matches),
        "estimate_index": [i for i, _ in matches],
        "reference_index": [j for _, j in matches],
    }
    (HERE / "rpg_repeated_stamps_reference.json").write_text(json.dumps(out) + "\n")
    print(len(matches), "matches")


if __name__ == "__main__":
    main()
