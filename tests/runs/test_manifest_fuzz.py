"""Fuzz: manifests (TOML and JSON) and ``meta.json`` raise only the package's errors.

A manifest holding every table (settings with metrics, references, defaults, runs by
folder and by files, folders) and a full ``meta.json`` are mutated a few hundred times
each (bytes flipped, cut, repeated, spliced; tokens such as ``[``, ``{``, ``NaN``,
400 digits and NUL inserted), within a time budget, from a fixed seed. Reading the runs
and their settings may refuse a mutant only with
:class:`~robot_msgs.errors.RobotMsgsError`, and no case may hang.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.runs.manifest import load_runs
from robot_msgs.runs.meta import read_meta
from tests.hostile import fuzz, mutations

if TYPE_CHECKING:
    from pathlib import Path

SEED = 20232
BUDGET_S = 6.0
TUM = "0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n2 2 0 0 0 0 0 1\n"
MANIFEST = """\
[settings]
align = "se3"
t_start_s = 0.0
[[settings.evaluate]]
metric = "rpe"
delta = 1.0
delta_unit = "s"
all_pairs = true

[references]
s1 = "gt.tum"
s2 = { path = "gt.tum", format = "tum" }

[defaults]
dataset = "demo"

[[runs]]
path = "runs/a/s1/1"
name = "a-1"

[[runs]]
algorithm = "b"
sequence = "s2"
trial = 2
estimate = "est.tum"
parameters = { rate = 10, mode = "fast" }

[[folders]]
root = "runs"
"""
META = {
    "algorithm": "a",
    "sequence": "s1",
    "trial": 1,
    "version": "1.0",
    "hardware": "cpu",
    "exit_code": 0,
    "input_rate_hz": 30.0,
    "parameters": {"k": 3, "x": 0.5, "on": True},
    "software": {"numpy": "2.0"},
    "estimate": "estimate.tum",
}


def _tree(root: Path) -> None:
    for name in ("gt.tum", "est.tum", "runs/a/s1/1/estimate.tum"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(TUM)


def test_manifests(tmp_path: Path) -> None:
    _tree(tmp_path)
    rng = np.random.default_rng(SEED)
    as_json = json.dumps(
        {"runs": [{"path": "runs/a/s1/1"}, {"algorithm": "b", "sequence": "s2", "trial": 2,
                                            "estimate": "est.tum"}],
         "settings": {"align": "sim3"}, "references": {"s1": "gt.tum"}}
    )  # fmt: skip
    flips = {".toml": mutations(MANIFEST.encode(), rng), ".json": mutations(as_json.encode(), rng)}
    chosen: list[str] = []

    def mutant() -> bytes:
        chosen.append(".toml" if rng.integers(3) else ".json")
        return flips[chosen[-1]]()

    def check(data: bytes) -> None:
        path = tmp_path / f"m{chosen[-1]}"
        path.write_bytes(data)
        load_runs([path])

    assert fuzz(check, mutant, cases=400, seconds=BUDGET_S, at_least=50) >= 50


def test_meta_json(tmp_path: Path) -> None:
    rng = np.random.default_rng(SEED)
    flip = mutations(json.dumps(META).encode(), rng)
    path = tmp_path / "meta.json"

    def check(data: bytes) -> None:
        path.write_bytes(data)
        read_meta(path)

    assert fuzz(check, flip, cases=1000, seconds=BUDGET_S, at_least=200) >= 200
