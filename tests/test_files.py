"""write_atomic and check_outputs: all or nothing, no clobbering, special files respected."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import threading
from pathlib import Path

import pytest

from robot_msgs.errors import OutputExistsError, OutputPathError, UsageError
from robot_msgs.files import (
    check_folder,
    check_outputs,
    open_atomic,
    sweep_temporaries,
    write_atomic,
)

ROOT = os.geteuid() == 0


def test_write_atomic_writes_text_and_bytes(tmp_path: Path) -> None:
    write_atomic(tmp_path / "a.txt", "héllo")
    write_atomic(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "héllo"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"


def test_write_atomic_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("user data")
    with pytest.raises(
        OutputExistsError, match=r"keep.txt exists; pass `force=True` to overwrite it$"
    ):
        write_atomic(target, "new")
    assert target.read_text() == "user data"
    write_atomic(target, "new", force=True)
    assert target.read_text() == "new"


def test_write_atomic_leaves_no_temporary_file_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")

    def broken_replace(self: Path, other: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("pathlib.Path.replace", broken_replace)
    with pytest.raises(OSError, match=r"out\.txt: cannot write it: no space left on the device"):
        write_atomic(target, "data", force=True)
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    assert target.read_text() == "old"


def test_write_atomic_error_names_the_target_never_the_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def refusing_open(path: str | os.PathLike[str], flags: int, *args: int) -> int:
        if str(path).endswith(".tmp"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", refusing_open)
    with pytest.raises(
        PermissionError, match=r"out\.json: cannot write it: permission denied in "
    ) as caught:
        write_atomic(tmp_path / "out.json", "{}")
    message = str(caught.value)
    assert message == f"{tmp_path / 'out.json'}: cannot write it: permission denied in {tmp_path}"
    assert ".tmp" not in message
    assert caught.value.errno == errno.EACCES


@pytest.mark.skipif(ROOT, reason="root writes into read-only folders")
def test_write_atomic_into_a_read_only_folder_names_the_target(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(PermissionError, match=r"ro/out\.json: cannot write it: permission"):
            write_atomic(folder / "out.json", "{}")
    finally:
        folder.chmod(0o755)


def test_write_atomic_gives_a_new_file_the_mode_open_would(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "report.html", "<p>")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_write_atomic_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "secret.json"
    target.write_text("{}")
    target.chmod(0o600)
    write_atomic(target, '{"a": 1}', force=True)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_text() == '{"a": 1}'


def test_write_atomic_writes_through_a_symlink_and_keeps_it(tmp_path: Path) -> None:
    real = tmp_path / "data" / "out.tum"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "latest.tum"
    link.symlink_to(real)
    with pytest.raises(OutputExistsError, match=r"latest\.tum exists; pass `force=True`"):
        write_atomic(link, "new\n")
    write_atomic(link, "new\n", force=True)
    assert link.is_symlink()
    assert link.readlink() == real
    assert real.read_text() == "new\n"
    assert sorted(p.name for p in real.parent.iterdir()) == ["out.tum"]


def test_write_atomic_creates_the_target_of_a_dangling_symlink_with_force(tmp_path: Path) -> None:
    link = tmp_path / "out.tum"
    link.symlink_to(tmp_path / "elsewhere.tum")
    with pytest.raises(
        OutputExistsError, match=r"out\.tum exists: a symbolic link to .*elsewhere\.tum, which"
    ):
        write_atomic(link, "x\n")
    write_atomic(link, "x\n", force=True)
    assert link.is_symlink()
    assert (tmp_path / "elsewhere.tum").read_text() == "x\n"


def test_open_atomic_says_a_dangling_symlink_as_write_atomic_does(tmp_path: Path) -> None:
    # One wording for both writers: open_atomic said "exists; pass `force=True` to
    # overwrite it" of a link to nothing, where there is nothing to overwrite.
    link = tmp_path / "out.tum"
    link.symlink_to(tmp_path / "elsewhere.tum")
    with pytest.raises(
        OutputExistsError, match=r"out\.tum exists: a symbolic link to .*elsewhere\.tum, which"
    ):
        open_atomic(link).__enter__()


def test_write_atomic_writes_into_a_fifo_and_leaves_it_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, "through the pipe\n")  # no force: nothing is replaced
    reader.join(timeout=10)
    assert received == [b"through the pipe\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_fifo_waiting_for_its_reader_says_so_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ape ... --save FIFO` with no reader was silent for ever, even on a terminal (the
    reading side named its wait); now the wait is named, and ends when a reader comes."""
    import time

    from robot_msgs import progress
    from tests.hostile import deadline
    from tests.terminal import Terminal

    monkeypatch.setattr(progress, "STAGE_AFTER_S", 0.0)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    fifo = tmp_path / "result.json"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read_later() -> None:
        time.sleep(0.5)
        received.append(fifo.read_bytes())

    reader = threading.Thread(target=read_later)
    reader.start()
    with deadline(10):
        write_atomic(fifo, "late reader\n")
    reader.join(timeout=10)
    assert received == [b"late reader\n"]
    shown = terminal.getvalue()
    assert f"{fifo}: waiting for a program to read this FIFO (Ctrl-C stops) ..." in shown


def test_a_fifo_no_program_reads_is_refused_not_waited_on_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ape ... --save FIFO` with no reader blocked in open() for ever (still waiting after
    7 min), where reading a FIFO with no writer is refused after FIFO_WAIT_S: now so is
    writing, naming the file, with nothing written and the FIFO left a FIFO."""
    import re

    from robot_msgs.io import bounded
    from tests.hostile import deadline

    monkeypatch.setattr(bounded, "FIFO_WAIT_S", 0.2)
    fifo = tmp_path / "result.json"
    os.mkfifo(fifo)
    with (
        deadline(10),
        pytest.raises(
            OutputPathError,
            match=rf"^{re.escape(str(fifo))}: is a pipe \(FIFO\) that no program opened to "
            r"read within 0\.2 s: refusing to wait longer \(start the reader first",
        ),
    ):
        write_atomic(fifo, "nobody reads this\n", force=True)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(tmp_path.iterdir()) == [fifo]


def test_write_atomic_writes_into_a_character_device(tmp_path: Path) -> None:
    assert write_atomic("/dev/null", "discarded\n").as_posix() == "/dev/null"
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_write_atomic_into_a_full_device_names_it_and_leaves_it_a_device() -> None:
    with pytest.raises(OSError, match=r"^/dev/full: cannot write it: no space left on the device"):
        write_atomic("/dev/full", "x", force=True)
    assert stat.S_ISCHR(Path("/dev/full").stat().st_mode)


def test_write_atomic_dash_is_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    write_atomic("-", b"1 2 3\n")
    assert capsysbinary.readouterr().out == b"1 2 3\n"


def test_write_atomic_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OutputPathError, match=rf"{tmp_path}: is a directory: refusing to write"):
        write_atomic(tmp_path, "x", force=True)
    assert tmp_path.is_dir()


def test_write_atomic_removes_what_a_killed_writer_left(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    # Leftovers of two killed writers of this target (no process holds their locks).
    (tmp_path / ".out.json.0.tmp").write_text("half a fi")
    (tmp_path / ".out.json.1.tmp").write_text("half")
    (tmp_path / ".other.json.0.tmp").write_text("not ours")
    write_atomic(target, "whole\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.json.0.tmp", "out.json"]
    assert target.read_text() == "whole\n"


def test_write_atomic_leaves_a_live_writers_temporary_file_alone(tmp_path: Path) -> None:
    live = tmp_path / ".out.json.0.tmp"
    live.write_text("being written")
    fd = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a live writer holds it
        write_atomic(tmp_path / "out.json", "mine\n")
        assert live.read_text() == "being written"
    finally:
        os.close(fd)
    assert (tmp_path / "out.json").read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.json.0.tmp", "out.json"]


def test_sweep_temporaries_removes_only_unlocked_leftovers(tmp_path: Path) -> None:
    (tmp_path / ".a.json.0.tmp").write_text("left")
    (tmp_path / ".b.json.3.tmp").write_text("left")
    (tmp_path / ".notes.tmp").write_text("a user's file, not named as ours")
    locked = tmp_path / ".c.json.0.tmp"
    locked.write_text("live")
    fd = os.open(locked, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        removed = sweep_temporaries(tmp_path)
    finally:
        os.close(fd)
    assert [p.name for p in removed] == [".a.json.0.tmp", ".b.json.3.tmp"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".c.json.0.tmp", ".notes.tmp"]


def test_check_outputs_refuses_the_same_file_twice_after_resolving_links(tmp_path: Path) -> None:
    (tmp_path / "link.json").symlink_to(tmp_path / "out.json")
    with pytest.raises(
        OutputPathError,
        match=r"out\.json and .*link\.json are the same file .*; give each output its own path",
    ):
        check_outputs([tmp_path / "out.json", tmp_path / "link.json"], force=True)
    with pytest.raises(OutputPathError, match=r"- and - are the same file"):
        check_outputs(["-", "-"], force=True)


def test_check_outputs_names_the_flags_of_two_outputs_at_one_file_first(tmp_path: Path) -> None:
    # traj --save X.png --to tum --plot X.png: the figure replaced the poses (with --force
    # in silence); an existing X.png said "exists", not the mistake.
    (tmp_path / "x.png").write_text("keep")
    paths = [tmp_path / "x.png", tmp_path / "." / "x.png"]
    with pytest.raises(
        UsageError, match=r"^--save .*x\.png and --plot .*x\.png are the same file \("
    ):
        check_outputs(paths, force=False, flags=["--save", "--plot"])
    with pytest.raises(OutputPathError, match=r"x\.png and .*x\.png are the same file"):
        check_outputs(paths, force=False)  # without flags: as before, the files named


def test_check_outputs_refuses_an_existing_file_without_force(tmp_path: Path) -> None:
    (tmp_path / "b.csv").write_text("keep")
    with pytest.raises(
        OutputExistsError, match=r"b\.csv exists; pass `force=True` to overwrite it"
    ):
        check_outputs([tmp_path / "a.json", tmp_path / "b.csv"], force=False)
    assert check_outputs([tmp_path / "a.json", tmp_path / "b.csv"], force=True)[1].name == "b.csv"


def test_check_outputs_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(
        OutputPathError, match=rf"out\.json: cannot write it: the folder {tmp_path / 'nope'} does"
    ):
        check_outputs([tmp_path / "nope" / "out.json"], force=False)
    # A writer that creates folders may say so.
    check_outputs([tmp_path / "nope" / "out.json"], force=False, create_folders=True)


def test_check_outputs_refuses_a_folder_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if str(p) == str(tmp_path) else real_access(p, mode)
    )
    with pytest.raises(
        OutputPathError, match=rf"out\.json: cannot write it: the folder {tmp_path} is not writable"
    ):
        check_outputs([tmp_path / "out.json"], force=True)


def test_check_outputs_takes_streams_without_force(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert len(check_outputs(["-", "/dev/null", fifo], force=False)) == 3


def test_check_outputs_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OutputPathError, match=r"is a directory: refusing to write it"):
        check_outputs([tmp_path], force=True)


def test_open_atomic_shows_the_file_only_once_it_is_whole(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "rows.bin"
    with open_atomic(target) as handle:
        handle.write(b"first ")
        assert not target.exists()
        [temporary] = [p.name for p in (tmp_path / "sub").iterdir()]
        assert temporary == ".rows.bin.0.tmp"
        handle.write(b"second")
    assert target.read_bytes() == b"first second"
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["rows.bin"]


def test_open_atomic_leaves_the_old_file_when_the_writer_fails(tmp_path: Path) -> None:
    target = tmp_path / "rows.bin"
    target.write_bytes(b"old")

    def interrupted() -> None:
        with open_atomic(target, force=True) as handle:
            handle.write(b"half")
            msg = "Ctrl-C while writing"
            raise KeyboardInterrupt(msg)

    with pytest.raises(KeyboardInterrupt, match=r"^Ctrl-C while writing$"):
        interrupted()
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["rows.bin"]
    with pytest.raises(OutputExistsError, match=r"rows\.bin exists; pass `force=True`"):
        open_atomic(target).__enter__()


def test_a_second_writer_s_error_inside_open_atomic_keeps_its_own_file_s_name(
    tmp_path: Path,
) -> None:
    # batch's outputs and write_kitti nest two writers; the outer one said the inner
    # one's error as its own: "a.bin: cannot write it: b.json exists; ..." (a review).
    first, second = tmp_path / "a.bin", tmp_path / "b.json"
    second.write_bytes(b"kept")
    exists = r"^\S*b\.json exists; pass `force=True`"
    with pytest.raises(OutputExistsError, match=exists), open_atomic(first), open_atomic(second):
        pass
    # A plain OSError of the block (a write to the handle: a full disk) is the file's own.
    full = OSError(errno.ENOSPC, "No space left on device")
    inner, outer = (rf"^\S*{name}: cannot write it: no space left" for name in ("c.json", "a.bin"))
    with pytest.raises(OSError, match=inner), open_atomic(first), open_atomic(tmp_path / "c.json"):
        raise full
    with pytest.raises(OSError, match=outer), open_atomic(first):
        raise full
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json"]
    assert second.read_bytes() == b"kept"


def test_open_atomic_refuses_streams_and_folders(tmp_path: Path) -> None:
    with pytest.raises(OutputPathError, match=r"-: is a stream"):
        open_atomic("-").__enter__()
    with pytest.raises(OutputPathError, match=r"is a directory"):
        open_atomic(tmp_path).__enter__()


def test_an_output_below_a_file_names_the_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "a.tum").write_text("keep")
    with pytest.raises(
        OutputPathError, match=r"a\.tum/out\.json: cannot write it: .*a\.tum is a file"
    ):
        check_outputs([tmp_path / "a.tum" / "out.json"], force=True, create_folders=True)
    with pytest.raises(OutputPathError, match=r"a\.tum/sub/out\.json: .*a\.tum is a file, not a"):
        write_atomic(tmp_path / "a.tum" / "sub" / "out.json", "x")
    assert (tmp_path / "a.tum").read_text() == "keep"


def test_check_folder_takes_a_folder_to_create_and_refuses_a_file(tmp_path: Path) -> None:
    assert check_folder(tmp_path / "new" / "sub") == tmp_path / "new" / "sub"
    assert not (tmp_path / "new").exists()  # checked, not created
    (tmp_path / "a.tum").write_text("keep")
    with pytest.raises(OutputPathError, match=r"^--out .*a\.tum: is a file, not a folder; give"):
        check_folder(tmp_path / "a.tum", label="--out")
    with pytest.raises(
        OutputPathError, match=r"^.*a\.tum/x: cannot create the folder: .*a\.tum is a file"
    ):
        check_folder(tmp_path / "a.tum" / "x")
    # `docs --out /dev/null` was told /dev/null "is a file" (a helper's finding)
    with pytest.raises(OutputPathError, match=r"^--out /dev/null: is a character device, not a"):
        check_folder("/dev/null", label="--out")


@pytest.mark.skipif(ROOT, reason="root writes into read-only folders")
def test_check_folder_refuses_a_folder_it_cannot_write_into(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(OutputPathError, match=r"locked/out: cannot write into it: the folder"):
            check_folder(locked / "out")
    finally:
        locked.chmod(0o700)
