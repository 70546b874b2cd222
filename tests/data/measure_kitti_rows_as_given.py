"""Measure how far our KITTI numbers are from evo's, with either rule for the rotation blocks.

The raw KITTI 00 files print 3x3 blocks that are off SO(3) by up to 8.1e-7 (7 printed
digits). By default our reader replaces each by its nearest rotation; evo keeps the rows
and computes with them, which ``--kitti-rotations as_given`` does too. This script runs
evo and both of our rules on the raw files and prints, per case and rule, the relative
difference of each statistic and the worst one; the output stored beside it is
``tests/data/kitti_rows_as_given.txt`` (the README quotes it). With ``--json FILE`` it
also writes evo's statistics per case, which ``tests/io/test_kitti_rows_as_given.py``
compares ours with.

Usage, from the repository root, in an environment with evo 1.38.1::

    python tests/data/measure_kitti_rows_as_given.py ../shared/data/evo-testdata \
        --json tests/data/kitti_rows_as_given.json

evo (GPL-3.0) is imported here only, inside :func:`main`; robot_msgs never imports it.
evo's Python API is the code its ``evo_ape``/``evo_rpe`` run (read, ``align``,
``APE``/``RPE``), so its figures are those of the command line.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import warnings
from typing import Any

STATS = ("rmse", "mean", "median", "std", "min", "max")
# (command, relation, our flags, evo's delta: frames as int, metres as float, None: APE)
CASES: list[tuple[str, str, list[str], int | float | None]] = [
    ("ape", "translation", [], None),
    ("ape", "translation", ["--align", "se3"], None),
    ("ape", "angle_deg", ["--align", "se3"], None),
    ("rpe", "translation", ["--delta", "1", "--delta-unit", "f"], 1),
    ("rpe", "angle_deg", ["--delta", "1", "--delta-unit", "f"], 1),
    ("rpe", "translation", ["--delta", "100", "--delta-unit", "f"], 100),
    ("rpe", "angle_deg", ["--delta", "100", "--delta-unit", "f"], 100),
    ("rpe", "translation", ["--delta", "100", "--delta-unit", "m"], 100.0),
    ("rpe", "angle_deg", ["--delta", "100", "--delta-unit", "m"], 100.0),
    ("ape", "rot_part", ["--align", "se3"], None),
    ("ape", "full", ["--align", "se3"], None),
    ("rpe", "rot_part", ["--delta", "1", "--delta-unit", "f"], 1),
    ("rpe", "full", ["--delta", "100", "--delta-unit", "f"], 100),
]
RULES = ("nearest", "as_given")


def _ours(gt: str, est: str, command: str, relation: str, flags: list[str]) -> dict[str, float]:
    from robot_msgs.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main([command, gt, est, "--relation", relation, "--json", *flags])
    if code != 0:
        msg = f"robot-msgs {command} failed ({code})"
        raise RuntimeError(msg)
    (signal,) = json.loads(out.getvalue())["signals"]
    stats = signal["stats"]
    return {"rmse": stats["rms"], **{k: stats[k] for k in STATS[1:]}}


def _evo(gt: str, est: str, relation: str, *, align: bool, delta: float | None) -> Any:
    from evo.core import metrics
    from evo.tools import file_interface

    ref = file_interface.read_kitti_poses_file(gt)
    traj = file_interface.read_kitti_poses_file(est)
    if align:
        traj.align(ref, correct_scale=False)
    kind = {
        "translation": metrics.PoseRelation.translation_part,
        "angle_deg": metrics.PoseRelation.rotation_angle_deg,
        "rot_part": metrics.PoseRelation.rotation_part,
        "full": metrics.PoseRelation.full_transformation,
    }[relation]
    if delta is None:
        metric: Any = metrics.APE(kind)
    else:
        unit = metrics.Unit.meters if isinstance(delta, float) else metrics.Unit.frames
        metric = metrics.RPE(kind, delta, unit, all_pairs=False)
    metric.process_data((ref, traj))
    return metric.get_all_statistics()


def main() -> int:
    """Print the comparison for KITTI 00 ORB and S-PTAM against the ground truth."""
    args = sys.argv[1:]
    target = None
    if "--json" in args:
        at = args.index("--json")
        target = args[at + 1]
        del args[at : at + 2]
    data = args[0] if args else "../shared/data/evo-testdata"
    gt = f"{data}/KITTI_00_gt.txt"
    warnings.simplefilter("ignore")  # our reader's projection warning, evo's notices
    reference = []
    for name in ("KITTI_00_ORB.txt", "KITTI_00_SPTAM.txt"):
        est = f"{data}/{name}"
        for command, relation, flags, delta in CASES:
            align = "--align" in flags
            evo = {
                k: float(v) for k, v in _evo(gt, est, relation, align=align, delta=delta).items()
            }
            reference.append(
                {"estimate": name, "command": command, "relation": relation, "flags": flags}
                | {"evo": {k: evo[k] for k in STATS}}
            )
            for rule in RULES:
                ours = _ours(gt, est, command, relation, [*flags, "--kitti-rotations", rule])
                rel = {k: abs(ours[k] - evo[k]) / abs(evo[k]) for k in STATS}
                worst = max(rel, key=lambda k: rel[k])
                print(
                    f"{name} {command} {relation} {' '.join(flags) or '(unaligned)'} "
                    f"[{rule}]: "
                    + " ".join(f"{k} {rel[k]:.1e}" for k in STATS)
                    + f"; worst {worst}: ours {ours[worst]!r}, evo {evo[worst]!r}"
                )
    if target is not None:
        with open(target, "w", encoding="utf-8") as out:  # noqa: PTH123 - a script
            json.dump(reference, out, indent=1)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
