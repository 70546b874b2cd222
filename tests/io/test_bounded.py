"""Inputs read by what they are: pipes read once and kept, devices refused, streams bounded."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from robot_msgs import progress
from robot_msgs.errors import FormatError
from robot_msgs.io import bounded, detect_format, read_trajectory
from robot_msgs.io.bounded import kept_streams, read_input, stream_kind
from robot_msgs.io.transform_file import read_transform
from robot_msgs.limits import input_limits
from robot_msgs.runs.manifest import read_manifest
from tests.hostile import deadline, fifo_with_writer
from tests.terminal import Terminal

if TYPE_CHECKING:
    from collections.abc import Callable

TUM = b"# t x y z qx qy qz qw\n0 0 0 0 0 0 0 1\n0.5 3 4 0 0 0 0 1\n1.0 3 4 1 0 0 0 1\n"


def test_a_fifo_with_a_writer_is_read_once_and_every_reader_sees_its_bytes(
    tmp_path: Path,
) -> None:
    # Detection reads the head, the reader reads it all: before, the second open saw what
    # the first left (nothing), or waited for a writer that had gone. read_trajectory
    # keeps the bytes for its own readers; kept_streams() keeps them for a longer piece
    # of work (a command-line command runs in one).
    with fifo_with_writer(tmp_path / "run.tum", TUM) as fifo, deadline(10), kept_streams():
        assert detect_format(fifo) == "tum"
        traj = read_trajectory(fifo)
        assert read_input(fifo, head=5) == TUM[:5]
    assert len(traj) == 3
    assert traj.positions_xyz[1].tolist() == [3.0, 4.0, 0.0]


def test_a_process_substitution_is_read_like_a_file(tmp_path: Path) -> None:
    # bash's <(cat file) is /dev/fd/N, an anonymous pipe: read in a child that has it.
    file = tmp_path / "run.tum"
    file.write_bytes(TUM)
    script = (
        "import sys; from robot_msgs.io import read_trajectory; "
        "print(len(read_trajectory(sys.argv[1])))"
    )
    out = subprocess.run(  # noqa: S603 - our own interpreter, in bash for <(...)
        ["/bin/bash", "-c", f'"{sys.executable}" -c "{script}" <(cat "{file}")'],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.split() == ["3"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_without_being_read(device: str) -> None:
    if not Path(device).exists():  # pragma: no cover - every Unix has them
        pytest.skip(f"no {device}")
    with (
        deadline(10),
        pytest.raises(
            FormatError,
            match=rf"^{device}: is a character device, not a file: refusing to read it",
        ),
    ):
        read_trajectory(device, format="tum")


def test_a_stream_longer_than_the_bound_is_refused(tmp_path: Path) -> None:
    with (
        fifo_with_writer(tmp_path / "big.tum", TUM * 100) as fifo,
        input_limits(max_bytes=1000),
        deadline(10),
        pytest.raises(FormatError, match=r"big\.tum: a stream, more than the 1000 bytes read"),
    ):
        read_input(fifo)


def test_a_pipe_written_again_is_read_again(tmp_path: Path) -> None:
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    for payload in (b"first\n", b"second\n"):
        writer = threading.Thread(target=fifo.write_bytes, args=(payload,))
        writer.start()
        with deadline(10):
            assert read_input(fifo) == payload
        writer.join()


def test_what_a_path_is_is_said() -> None:
    assert stream_kind("/dev/null") == "a character device"
    assert stream_kind(Path(__file__)) is None
    assert stream_kind("/no/such/file") is None


def test_a_regular_file_larger_than_a_bound_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "a"
    file.write_bytes(b"x" * 10)
    assert read_input(file, limit=10) == b"x" * 10
    with pytest.raises(
        FormatError, match=r"a: is 10 bytes, more than the 9 bytes read from one input"
    ):
        read_input(file, limit=9)


def test_a_fifo_waiting_for_its_writer_says_so_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO nobody wrote to was 90 s of silence: the wait is named, and ends on a write."""
    monkeypatch.setattr(progress, "STAGE_AFTER_S", 0.0)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    fifo = tmp_path / "later.tum"
    os.mkfifo(fifo)

    def write_later() -> None:
        time.sleep(0.5)
        fifo.write_bytes(TUM)

    writer = threading.Thread(target=write_later)
    writer.start()
    with deadline(10):
        assert read_input(fifo) == TUM
    writer.join()
    shown = terminal.getvalue()
    assert f"{fifo}: waiting for a program to write into this FIFO (Ctrl-C stops) ..." in shown
    assert "done in 0:00:0" in shown


def test_a_document_past_its_bound_names_the_flag_that_raises_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A manifest past 16 MiB was told to raise --max-bytes, which does not bound it; the
    advice was followed and the same error came back."""
    from robot_msgs.cli import main
    from robot_msgs.limits import current_limits

    file = tmp_path / "runs.toml"
    file.write_text("# " + "x" * 200 + "\n")
    # The library names the argument a Python caller raises it with (it was told
    # "robot-msgs --max-bytes SIZE", a flag it cannot pass); the command line, the flag.
    with (
        input_limits(max_document=100),
        pytest.raises(
            FormatError,
            match=r"more than the 100 bytes read from one input; .*raise the bound "
            r"\(`robot_msgs\.limits\.input_limits\(max_document=\.\.\.\)`\)$",
        ),
    ):
        read_input(file, document=True)
    with (
        input_limits(max_bytes=100),
        pytest.raises(
            FormatError, match=r"\(`robot_msgs\.limits\.input_limits\(max_bytes=\.\.\.\)`\)$"
        ),
    ):
        read_input(file, limit=current_limits().max_bytes)
    file.write_text("# " + "x" * (17 << 20) + "\n")
    assert main(["report", str(file)]) == 1
    said = capsys.readouterr().err
    assert "raise the bound (`robot-msgs --max-document SIZE`)" in said
    assert "input_limits" not in said
    # With both bounds equal the advice was told apart by size, and said --max-bytes.
    assert main(["--max-bytes", "16M", "report", str(file)]) == 1
    assert "(`robot-msgs --max-document SIZE`)" in capsys.readouterr().err
    assert main(["--max-document", "32M", "report", str(file)]) == 1  # read now: no runs
    assert "more than the" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "read"),
    [
        ("run.tum", lambda p: read_trajectory(p, format="tum")),
        ("run.txt", lambda p: read_trajectory(p, format="kitti")),
        ("data.csv", lambda p: read_trajectory(p, format="euroc")),
        ("fix.csv", lambda p: read_trajectory(p, format="lla")),
        ("run.txt", read_trajectory),
        ("runs.toml", lambda p: read_manifest(Path(p))),
        ("turn.json", read_transform),
    ],
)
def test_a_fifo_no_program_writes_to_is_refused_not_waited_on_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, read: Callable[[Path], object]
) -> None:
    """Opening a FIFO with no writer blocked for ever (every text reader, the manifest and
    the transform file): after FIFO_WAIT_S it is refused, once, naming the file."""
    monkeypatch.setattr(bounded, "FIFO_WAIT_S", 0.2)
    fifo = tmp_path / name
    os.mkfifo(fifo)
    with (
        deadline(10),
        pytest.raises(
            FormatError,
            match=rf"^{re.escape(str(fifo))}: is a pipe \(FIFO\) that no program opened to "
            r"write within 0\.2 s: refusing to wait longer \(start the writer first",
        ),
    ):
        read(fifo)


@pytest.mark.parametrize("fmt", ["bag", "bag2", "mcap"])
def test_a_fifo_given_as_a_bag_is_refused_at_once(tmp_path: Path, fmt: str) -> None:
    fifo = tmp_path / "run.bag"
    os.mkfifo(fifo)
    with (
        deadline(10),
        pytest.raises(FormatError, match=r"run\.bag: is a pipe \(FIFO\): a bag must be a regular"),
    ):
        read_trajectory(fifo, format=fmt)


@pytest.mark.parametrize("name", ["run.bag", "run.db3", "run.MCAP"])
def test_a_fifo_named_as_a_bag_is_refused_at_once_when_the_format_is_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Detecting the format read the magic bytes first, waiting FIFO_WAIT_S (30 s) for a
    writer before a FIFO error; a bag never reads from a pipe, so it is refused as with format=."""
    monkeypatch.setattr(bounded, "FIFO_WAIT_S", 5.0)  # the old wait, if any, ends the test
    fifo = tmp_path / name
    os.mkfifo(fifo)
    shown = re.escape(str(fifo))
    with (
        deadline(10),
        pytest.raises(FormatError, match=rf"^{shown}: is a pipe \(FIFO\): a bag must be a regular"),
    ):
        read_trajectory(fifo)
