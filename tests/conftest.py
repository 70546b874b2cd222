"""Shared fixtures: where the evo test data lives, if it is here at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

_DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "evo-testdata"


def evo_testdata_dir() -> Path | None:
    """The evo test data folder, from ROBOT_MSGS_EVO_TESTDATA or ../shared, or None."""
    path = Path(os.environ.get("ROBOT_MSGS_EVO_TESTDATA", _DEFAULT))
    return path if path.is_dir() else None


@pytest.fixture
def evo_data() -> Path:
    """The evo test data folder; the test is skipped, with the reason shown, when absent."""
    path = evo_testdata_dir()
    if path is None:
        pytest.skip(
            "evo test data not found: set ROBOT_MSGS_EVO_TESTDATA to the folder "
            f"(looked at {_DEFAULT})"
        )
    return path
