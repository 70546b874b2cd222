"""Every JSON the CLI writes, to standard output or to a file, parses with a strict parser.

Strict: ``json.loads(..., parse_constant=...)`` raising on ``NaN`` and ``Infinity``, which
are not JSON. The cases include results with NaN statistics (RPE over all pairs has no
time axis, so its IAE/ISE/ITAE are NaN; a lone pose has no rate).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.cli import main

if TYPE_CHECKING:
    from pathlib import Path

REF = "example:fr1_xyz/groundtruth.tum"
EST = "example:fr1_xyz/rgbdslam.tum"


def _strict(text: str) -> Any:
    def refuse(token: str) -> Any:
        msg = f"not strict JSON: {token}"
        raise ValueError(msg)

    return json.loads(text, parse_constant=refuse)


def _has_null_float(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_null_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null_float(v) for v in value)
    return value is None


@pytest.mark.parametrize(
    "argv",
    [
        ["ape", REF, EST, "--align", "se3", "--json"],
        ["rpe", REF, EST, "--delta", "1", "--delta-unit", "m", "--all-pairs", "--json"],
        ["schema", "compare/ErrorStats"],
    ],
    ids=["ape", "rpe-all-pairs", "schema"],
)
def test_stdout_json_is_strict(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 0
    _strict(capsys.readouterr().out)


def test_rpe_nan_integrals_are_null_and_read_back_as_nan(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import robot_msgs

    assert (
        main(["rpe", REF, EST, "--delta", "1", "--delta-unit", "m", "--all-pairs", "--json"]) == 0
    )
    data = _strict(capsys.readouterr().out)
    assert _has_null_float(data)
    comparison = robot_msgs.from_dict(data)
    stats = comparison.stats["translation"]  # type: ignore[attr-defined]
    assert math.isnan(stats.iae)


def test_saved_results_and_traj_json_are_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rpe.json"
    argv = ["rpe", REF, EST, "--delta", "1", "--delta-unit", "m", "--all-pairs", "--save", str(out)]
    assert main(argv) == 0
    _strict(out.read_text(encoding="utf-8"))
    one = tmp_path / "one.tum"
    one.write_text("0 0 0 0 0 0 0 1\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["traj", str(one), EST, "--json"]) == 0
    _strict(capsys.readouterr().out)
