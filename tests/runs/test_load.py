"""Reading a run's files: errors name the file and what to set where the run is declared."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from robot_msgs.errors import FormatError
from robot_msgs.runs import RunSpec, load_run

if TYPE_CHECKING:
    from pathlib import Path


def test_a_format_that_cannot_be_told_is_set_in_the_run_s_entry_not_by_a_flag(
    tmp_path: Path,
) -> None:
    estimate = tmp_path / "estimate.txt"
    estimate.write_text("1 2 3\n4 5 6\n")
    reference = tmp_path / "reference.txt"
    reference.write_text("1 2 3\n4 5 6\n")
    run = RunSpec(name="r", estimate=str(estimate))
    # bench and report read runs from manifests and folders: they have no --format.
    with pytest.raises(
        FormatError, match=r"choose the format \(estimate_format = tum, kitti or euroc\)$"
    ):
        load_run(run)
    (tmp_path / "good.tum").write_text("0 0 0 0 0 0 0 1\n")
    run = RunSpec(name="r", estimate=str(tmp_path / "good.tum"), reference=str(reference))
    with pytest.raises(
        FormatError, match=r"reference.txt: cannot tell the format: .*\(reference_format = tum"
    ):
        load_run(run)
