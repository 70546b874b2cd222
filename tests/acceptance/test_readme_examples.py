"""The README's Python blocks run as written, and its doctor session prints what it shows.

A newcomer copies them first. No test ran them: the first shell command is run by
``tests/cli/test_ape.py``, the benchmarks by ``test_readme_benchmarks.py``, but a
``>>>`` block or a script whose names moved would have failed only in a reader's hands.
The doctor session is rebuilt from the shipped example as its comments say (stamps 0.3 s
early; stamps from 0) and compared line by line. Every other ``robot-msgs`` line that reads
only shipped data (``example:NAME``) runs as written.
"""

from __future__ import annotations

import doctest
import json
import re
import shlex
from importlib.resources import files
from pathlib import Path

import pytest

from robot_msgs.cli import main

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)```", README, re.DOTALL)
SESSION = re.search(r"```text\n(\$ robot-msgs doctor .*?)```", README, re.DOTALL)
TRACK = re.search(r"```bash\n(S=example:control_servo.*?)```", README, re.DOTALL)


def test_the_readme_has_a_doctest_block_and_a_script_block() -> None:
    assert [">>>" in block for block in PYTHON] == [True, False]
    assert SESSION is not None


@pytest.mark.parametrize("block", PYTHON, ids=["doctest", "script"])
def test_every_python_block_runs_as_written(
    block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing it writes lands in the checkout
    if ">>>" not in block:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - the README's own code
        return
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda _: None)
    assert (runner.tries, runner.failures) == (len(test.examples), 0)


def _shifted(path: Path, *, by: float | None = None) -> None:
    """Write the shipped rgbdslam estimate to ``path``, stamps moved by ``by`` seconds, or
    from 0 without ``by``; every other byte of each row as shipped."""
    text = (files("robot_msgs") / "examples" / "fr1_xyz" / "rgbdslam.tum").read_text("utf-8")
    rows = [line.split(" ", 1) for line in text.splitlines() if not line.startswith("#")]
    first = float(rows[0][0])
    path.write_text(
        "".join(
            f"{float(t) + (by if by is not None else -first):.6f} {rest}\n" for t, rest in rows
        ),
        encoding="utf-8",
    )


def test_the_doctor_session_prints_what_the_readme_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert SESSION is not None
    monkeypatch.chdir(tmp_path)
    _shifted(tmp_path / "early.tum", by=-0.3)
    _shifted(tmp_path / "relative.tum")
    commands = re.split(r"^\$ ", SESSION.group(1), flags=re.MULTILINE)[1:]
    assert len(commands) == 2
    for command in commands:
        typed, *shown = command.rstrip("\n").split("\n")
        args = shlex.split(typed, comments=True)
        assert args[:2] == ["robot-msgs", "doctor"]
        assert main(args[1:]) == 0
        assert capsys.readouterr().out.splitlines() == shown


def test_the_track_lines_run_on_the_shipped_servo_and_write_what_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's ``robot-msgs track`` lines read ``example:control_servo/``: each runs as
    written (``$S`` as its first line sets it), and the last writes its JSON and Markdown."""
    assert TRACK is not None
    monkeypatch.chdir(tmp_path)
    assignment, *lines = TRACK.group(1).rstrip("\n").split("\n")
    name, value = shlex.split(assignment, comments=True)[0].split("=", 1)
    assert len(lines) == 3
    for line in lines:
        args = shlex.split(line.replace(f"${name}", value), comments=True)
        assert args[:2] == ["robot-msgs", "track"]
        assert main(args[1:]) == 0, capsys.readouterr().err
        assert "elbow" in capsys.readouterr().out
    result = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    assert sorted(result["step"]) == ["elbow", "wrist"]
    assert result["settings"]["interpolation"] == "previous"
    assert "| elbow" in (tmp_path / "t.md").read_text(encoding="utf-8")


#: A file the README names as the reader's own (``est_a.tum``: "your estimates").
_INPUT = re.compile(r"\.(tum|txt|zip|npz|bag|mcap)$")


def _shipped_commands() -> list[list[str]]:
    """The README's ``robot-msgs`` lines that read only shipped data, as arguments.

    From its ``bash`` and ``text`` blocks: ``\\`` lines joined, a block's ``NAME=value``
    put in its ``$NAME``; a line with an input of the reader's own is left out.
    """
    commands = []
    for block in re.findall(r"```(?:bash|text)\n(.*?)```", README, re.DOTALL):
        lines = block.replace("\\\n", " ").splitlines()
        names = dict(re.findall(r"^(\w+)=(\S+?)(?:;|\s|$)", block, re.MULTILINE))
        for line in lines:
            typed = line.removeprefix("$ ")
            for name, value in names.items():
                typed = typed.replace(f"${name}", value)
            if not typed.startswith("robot-msgs ") or "example:" not in typed:
                continue
            args = shlex.split(typed, comments=True)[1:]
            if not any(_INPUT.search(a) and not a.startswith("example:") for a in args):
                commands.append(args)
    return commands


SHIPPED = _shipped_commands()


def test_the_readme_commands_on_shipped_data_are_found() -> None:
    assert sorted({args[0] for args in SHIPPED}) == ["bench", "report", "track"]


@pytest.mark.parametrize("args", SHIPPED, ids=lambda args: " ".join(args)[:60])
def test_every_readme_command_on_shipped_data_runs_as_written(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newcomer pastes them first; only the first command and the track lines were run.

    ``bench`` starts worker processes (several seconds): its own tests run the example.
    """
    if args[0] == "bench":
        pytest.skip("bench starts worker processes: tests/cli/test_bench.py runs the example runs")
    if "--html" in args:
        pytest.importorskip("plotly")
    monkeypatch.chdir(tmp_path)
    assert main(args) == 0
