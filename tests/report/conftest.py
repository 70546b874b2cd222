"""Fixtures for the report tests: the shipped example runs, reported once per session."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from robot_msgs.cli import main


def example_manifest() -> Path:
    """The manifest of the example runs shipped in the package."""
    return Path(str(files("robot_msgs") / "examples" / "runs" / "runs.toml"))


@pytest.fixture(scope="session")
def example_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every output of ``robot-msgs report`` on the example runs, written once."""
    pytest.importorskip("matplotlib")
    pytest.importorskip("plotly")
    out = tmp_path_factory.mktemp("example_report")
    paths = {ext: out / f"report.{ext}" for ext in ("html", "json", "csv", "tex", "md")}
    code = main(
        [
            "report", str(example_manifest()), "--rpe-delta", "0.5", "1", "2", "--quiet",
            "--no-progress", "--html", str(paths["html"]), "--json", str(paths["json"]),
            "--csv", str(paths["csv"]), "--latex", str(paths["tex"]), "--markdown", str(paths["md"]),
        ]
    )  # fmt: skip
    assert code == 0
    paths["static.html"] = out / "static.html"
    static = ["report", str(example_manifest()), "--rpe-delta", "0.5", "1", "2", "--quiet"]
    static += ["--no-progress", "--html", str(paths["static.html"]), "--static"]
    assert main(static) == 0
    return paths
