"""Suite-wide rules: skip an absent extra's modules; keep temporary files in basetemp."""

from __future__ import annotations

import tempfile
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

collect_ignore: list[str] = []
try:
    import array_api_compat  # noqa: F401
    import torch  # noqa: F401
    import torchmetrics  # noqa: F401
except ImportError:
    collect_ignore += [
        "src/robot_msgs/metrics/torch.py",
        "tests/metrics/_torch_dist_worker.py",
    ]


@pytest.fixture(scope="session", autouse=True)
def _temporary_files_under_basetemp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point ``tempfile`` (and child processes' ``TMPDIR``) into pytest's own base folder.

    A test that makes the CLI meet a bug leaves its traceback file (``robot-msgs-bug-*.txt``)
    where ``tempfile`` writes; without this each run left one in the machine's ``/tmp``.
    """
    folder = tmp_path_factory.mktemp("tempfiles")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(folder))
        patch.setattr(tempfile, "tempdir", str(folder))
        yield folder
