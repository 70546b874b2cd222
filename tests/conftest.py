"""Shared fixtures: where the evo test data lives, if it is here at all."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

_DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "evo-testdata"


def evo_testdata_dir() -> Path | None:
    """The evo test data folder, from ROBOT_MSGS_EVO_TESTDATA or ../shared, or None."""
    path = Path(os.environ.get("ROBOT_MSGS_EVO_TESTDATA", _DEFAULT))
    return path if path.is_dir() else None


@pytest.fixture(scope="session")
def evo_data() -> Path:
    """The evo test data folder; the test is skipped, with the reason shown, when absent."""
    path = evo_testdata_dir()
    if path is None:
        pytest.skip(
            "evo test data not found: set ROBOT_MSGS_EVO_TESTDATA to the folder "
            f"(looked at {_DEFAULT})"
        )
    return path


SEED_ERROR_STATS_PAGE = Path(__file__).parent / "data" / "seeds" / "robot_msgs-ErrorStats.txt"


@dataclasses.dataclass(frozen=True)
class SeedExample:
    """The ErrorStats example exactly as the seed reference page prints it."""

    repr: str
    json: str


@pytest.fixture(scope="session")
def seed_error_stats() -> SeedExample:
    """Repr and ``to_dict()`` JSON of the seed page's example, read from the page itself."""
    lines = SEED_ERROR_STATS_PAGE.read_text(encoding="utf-8").splitlines()
    repr_line = next(line for line in lines if line.startswith("ErrorStats(n=3"))
    start = lines.index("{")
    end = lines.index("}", start)
    return SeedExample(repr=repr_line, json="\n".join(lines[start : end + 1]))


@pytest.fixture
def bag_opens(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The readers rosbags' ``AnyReader.open`` opened while the test runs, in order.

    An open reads a bag's index (and, for ROS 2, SQLite's integrity check): the tests of
    ``bags_opened_once`` count them. Skips without rosbags.
    """
    pytest.importorskip("rosbags")
    from rosbags.highlevel import AnyReader

    opened: list[object] = []
    real_open = AnyReader.open

    def counted(reader: AnyReader) -> None:
        opened.append(reader)
        real_open(reader)

    monkeypatch.setattr(AnyReader, "open", counted)
    return opened
