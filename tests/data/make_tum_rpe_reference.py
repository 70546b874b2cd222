"""Run TUM RGB-D's ``evaluate_rpe.py --fixed_delta --max_pairs 0`` and store its numbers.

Produces ``tests/data/tum_rpe_reference.json``, which
``tests/evaluation/test_tum_rpe.py`` compares ``rpe(..., PairSettings(protocol="tum"))``
with. The script (Sturm et al., TUM RGB-D benchmark, ``rgbd_benchmark_tools``, BSD
licence) is not shipped here: give the path of a copy with ``--script``.

The script is Python 2; it runs under Python 3 with one change that touches no arithmetic
(``keys = traj.keys(); keys.sort()`` becomes ``keys = sorted(traj.keys())``, twice, in
``distances_along_trajectory`` and ``rotations_along_trajectory``). The patched text is
written to a temporary folder and run as a program, exactly as a user runs it, with
``--verbose --save FILE``; the printed lines are stored. Because the script prints 6
decimals, the full-precision statistics are taken from the same patched module's
``read_trajectory`` and ``evaluate_trajectory``, called with the arguments its
``__main__`` passes, and reduced as its ``__main__`` reduces them (``numpy.std`` is the
population deviation; rotations are kept in radians, where the script prints degrees,
and its printed rotational median is in radians despite its label).

Usage, from the repository root::

    python tests/data/make_tum_rpe_reference.py --script PATH/evaluate_rpe.py \\
        [--data ../shared/data/evo-testdata]

The stored file was made with ``--data /work/shared/data/evo-testdata`` and a copy of the
script whose SHA-256 is recorded in the file (the copy in ``Jinxit/lsdslam`` at commit
52f6541, identical in its arithmetic to the ``j != len(traj_est) - 1`` version most
copies carry). The first ten cases were first made with another byte-level copy
(SHA-256 27bacbcc...); the regeneration that added the V1_02 cases reproduced all ten
bit for bit. V1_02's ground truth is EuRoC CSV, which the script cannot read: it is
converted to TUM text first (:func:`tum_from_euroc`, no float arithmetic), and the
V102.txt estimate is given as it is, with its 4 repeated stamps.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = Path(
    os.environ.get("ROBOT_MSGS_EVO_TESTDATA", HERE.parents[2] / "shared" / "data" / "evo-testdata")
)

_PY2 = "keys = traj.keys()\n    keys.sort()"
_PY3 = "keys = sorted(traj.keys())"

REFERENCE = "freiburg1_xyz-groundtruth.txt"

#: EuRoC references, converted to the TUM text the script reads (:func:`tum_from_euroc`).
EUROC_REFERENCES = {"V102.txt": "V102_groundtruth.csv"}

#: (estimate file, delta, unit, offset); the reference is REFERENCE unless the estimate
#: is in EUROC_REFERENCES. V102.txt repeats 4 stamps: the script keeps the last row of
#: each (its dict keyed by stamp), which ``protocol="tum"`` must reproduce.
CASES: list[tuple[str, float, str, float]] = [
    ("freiburg1_xyz-rgbdslam.txt", 1.0, "s", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 0.5, "s", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 1.0, "s", 0.012),
    ("freiburg1_xyz-rgbdslam_drift.txt", 1.0, "s", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 0.1, "m", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 0.5, "m", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 1.0, "f", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 10.0, "f", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 0.05, "rad", 0.0),
    ("freiburg1_xyz-rgbdslam.txt", 3.0, "deg", 0.0),
    ("V102.txt", 1.0, "s", 0.0),
    ("V102.txt", 1.0, "m", 0.0),
]


def tum_from_euroc(csv: Path, out: Path) -> None:
    """Write EuRoC ground truth as TUM text: exact decimal seconds, ``x y z qx qy qz qw``.

    The stamp ``ns`` is written as ``s.nnnnnnnnn`` from the integer (no float on the
    way), the position and the quaternion as the CSV spells them, reordered.
    """
    rows = []
    for line in csv.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        v = [c.strip() for c in line.split(",")]
        sec, nsec = divmod(int(v[0]), 10**9)
        rows.append(f"{sec}.{nsec:09d} {v[1]} {v[2]} {v[3]} {v[5]} {v[6]} {v[7]} {v[4]}")
    out.write_text("\n".join(rows) + "\n", encoding="utf-8")


def patch(source: str) -> str:
    """The script's text with its two Python-2-only lines changed (module docstring)."""
    if source.count(_PY2) != 2:
        msg = f"expected 2 occurrences of {_PY2!r} in the script, got {source.count(_PY2)}"
        raise SystemExit(msg)
    return source.replace(_PY2, _PY3)


def _stats(values: np.ndarray) -> dict[str, float]:
    """The script's ``__main__`` reduction of an error array."""
    return {
        "rmse": float(np.sqrt(np.dot(values, values) / len(values))),
        "mean": float(np.mean(values)),
        "median": float(np.median(values)),
        "std": float(np.std(values)),
        "min": float(np.min(values)),
        "max": float(np.max(values)),
    }


def _reference(estimate: str) -> str:
    euroc = EUROC_REFERENCES.get(estimate)
    return REFERENCE if euroc is None else euroc.removesuffix(".csv") + ".tum"


def _reference_of_csv(csv: str) -> str:
    return csv.removesuffix(".csv") + ".tum"


def _command(estimate: str, delta: float, unit: str, offset: float) -> list[str]:
    args = [
        _reference(estimate),
        estimate,
        "--fixed_delta",
        "--delta",
        f"{delta:g}",
        "--delta_unit",
        unit,
    ]
    args += ["--max_pairs", "0"]
    if offset:
        args += ["--offset", f"{offset:g}"]
    return ["evaluate_rpe.py", *args, "--verbose"]


def main() -> int:
    """Run every case and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--script", type=Path, required=True, help="TUM's evaluate_rpe.py")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="evo test data folder")
    parser.add_argument("--out", type=Path, default=HERE / "tum_rpe_reference.json")
    args = parser.parse_args()
    source = args.script.read_text(encoding="utf-8")
    patched = patch(source)
    records: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "evaluate_rpe.py"
        program.write_text(patched, encoding="utf-8")
        spec = importlib.util.spec_from_file_location("tum_evaluate_rpe", program)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        data = args.data.resolve()
        work = Path(tmp) / "data"
        work.mkdir()
        for item in data.iterdir():
            if item.is_file():
                (work / item.name).symlink_to(item)
        for csv in EUROC_REFERENCES.values():
            tum_from_euroc(data / csv, work / _reference_of_csv(csv))
        for estimate, delta, unit, offset in CASES:
            argv = _command(estimate, delta, unit, offset)
            saved = Path(tmp) / "pairs.txt"
            run = subprocess.run(  # noqa: S603 - our own argv
                [sys.executable, str(program), *argv[1:], "--save", str(saved)],
                cwd=work,
                check=True,
                capture_output=True,
                text=True,
            )
            traj_gt = module.read_trajectory(str(work / _reference(estimate)))
            traj_est = module.read_trajectory(str(data / estimate))
            result = np.array(
                module.evaluate_trajectory(traj_gt, traj_est, 0, True, delta, unit, offset, 1.0)
            )
            printed = [line for line in run.stdout.splitlines() if line.strip()]
            assert printed[0] == f"compared_pose_pairs {len(result)} pairs"
            print(" ".join(argv), len(result), flush=True)
            records.append(
                {
                    "id": f"{estimate.removesuffix('.txt')}-{delta:g}{unit}"
                    + (f"-off{offset:g}" if offset else ""),
                    "command": " ".join(argv),
                    "reference": EUROC_REFERENCES.get(estimate, REFERENCE),
                    "estimate": estimate,
                    "delta": delta,
                    "delta_unit": unit,
                    "offset_s": offset,
                    "n": len(result),
                    "first_pair_stamps": [float(result[0, 0]), float(result[0, 1])],
                    "last_pair_stamps": [float(result[-1, 0]), float(result[-1, 1])],
                    "translation_m": _stats(result[:, 4]),
                    "rotation_rad": _stats(result[:, 5]),
                    "printed": printed,
                    "saved_rows": sum(1 for _ in saved.open(encoding="utf-8")),
                }
            )
    document = {
        "generator": "tests/data/make_tum_rpe_reference.py",
        "script": "TUM RGB-D rgbd_benchmark_tools evaluate_rpe.py (BSD), run under Python 3",
        "script_sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
        "patched_sha256": hashlib.sha256(patched.encode("utf-8")).hexdigest(),
        "patch": f"{_PY2!r} -> {_PY3!r} (2 occurrences; no arithmetic changed)",
        "python": sys.version.split()[0],
        "numpy_version": np.__version__,
        "data": "evo test data (MichaelGrupp/evo test/data, commit 26d0953d); commands run there",
        "cases": records,
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
