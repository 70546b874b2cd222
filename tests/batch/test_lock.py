"""One client per output folder: a held lock refuses at once, a killed client's is taken over."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.batch.lock import LOCK_NAME, FolderLock, lock_owner
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.errors import FolderLockedError, OutputPathError
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import calls, make_tree, scripted

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no flock on Windows")

_HOLD = """
import sys, time
from robot_msgs.batch.lock import FolderLock
FolderLock(sys.argv[1]).acquire()
print("held", flush=True)
time.sleep(600)
"""


@contextlib.contextmanager
def _holder(folder: Path) -> Iterator[subprocess.Popen[str]]:
    """A process that takes the folder's lock and keeps it until killed (at the end)."""
    with subprocess.Popen(  # noqa: S603 - our interpreter
        [sys.executable, "-c", _HOLD, str(folder)], stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "held\n"
        try:
            yield proc
        finally:
            proc.kill()
            proc.wait()


def test_a_held_lock_refuses_another_holder_naming_the_process(tmp_path: Path) -> None:
    with _holder(tmp_path) as proc:
        shown = rf"in use by another sweep \(pid {proc.pid} on "
        with pytest.raises(FolderLockedError, match=shown):
            FolderLock(tmp_path).acquire()


def test_a_released_lock_leaves_no_file_and_is_taken_again_silently(tmp_path: Path) -> None:
    with FolderLock(tmp_path) as lock:
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()
    assert not lock.held
    assert not (tmp_path / LOCK_NAME).exists()  # deleted while held: a sweep leaves nothing
    again = FolderLock(tmp_path)
    assert again.acquire() is None
    assert again.taken_over == ""
    again.release()


def test_a_client_that_locked_a_file_deleted_under_it_opens_the_path_again(
    tmp_path: Path,
) -> None:
    # The race of deleting a lock file: a client opened it just before the holder deleted
    # it and released; its flock then succeeds on a file no one else can see. It must
    # notice (the path names another file, or none) and lock the file at the path.
    stale = os.open(tmp_path / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    (tmp_path / LOCK_NAME).unlink()
    real_open = os.open
    opened: list[int] = []

    def open_once_stale(path: Any, flags: int, mode: int = 0o777) -> int:
        if not opened:
            opened.append(stale)
            return stale  # the descriptor of the deleted file, as the race leaves it
        fd = real_open(path, flags, mode)
        opened.append(fd)
        return fd

    lock = FolderLock(tmp_path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", open_once_stale)
        lock.acquire()
    assert len(opened) == 2  # opened again after seeing the deleted file
    assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()
    other = FolderLock(tmp_path)
    with pytest.raises(FolderLockedError, match="is in use by another sweep"):
        other.acquire()
    lock.release()


def test_the_lock_of_a_killed_client_is_taken_over_with_a_message_naming_it(tmp_path: Path) -> None:
    with _holder(tmp_path) as proc:
        os.kill(proc.pid, signal.SIGKILL)  # the kernel drops its flock, its file stays
        proc.wait()
    lock = FolderLock(tmp_path)
    said = lock.acquire()
    try:
        assert said is not None
        assert said.startswith(f"took over the lock of {tmp_path} left by pid {proc.pid} on ")
        assert said.endswith("which no longer holds it (killed?)")
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()
    finally:
        lock.release()


def test_a_lock_file_of_garbage_is_still_a_lock_file(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).write_bytes(b"\xff\x00not json")
    lock = FolderLock(tmp_path)
    assert lock.acquire() == (
        f"took over the lock of {tmp_path} left by an unknown process (the lock file does not "
        "say), which no longer holds it (killed?)"
    )
    lock.release()


def test_a_lock_file_of_nested_brackets_is_still_a_lock_file(tmp_path: Path) -> None:
    """2000 nested brackets (4000 bytes, within what is read of it) ended bench --resume and
    report of a stopped sweep as 'a bug in robot_msgs' (RecursionError from json.loads)."""
    (tmp_path / LOCK_NAME).write_text("[" * 2000 + "]" * 2000)
    assert lock_owner(tmp_path) == "an unknown process (the lock file does not say)"
    lock = FolderLock(tmp_path)
    assert lock.acquire() == (
        f"took over the lock of {tmp_path} left by an unknown process (the lock file does not "
        "say), which no longer holds it (killed?)"
    )
    lock.release()


def test_a_folder_where_no_lock_can_be_made_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).mkdir()  # a folder where the lock file should be
    with pytest.raises(OSError, match=rf"{LOCK_NAME}: cannot write it"):
        FolderLock(tmp_path).acquire()


def test_a_sweep_into_a_locked_folder_is_refused_before_any_run(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    manifest = load_runs([tmp_path / "runs"])
    out = tmp_path / "out"
    out.mkdir()
    with _holder(out):
        started = time.monotonic()
        with pytest.raises(FolderLockedError, match=rf"{out} is in use by another sweep"):
            run_sweep(manifest, out, fn=scripted, executor="serial", progress=None)
        assert time.monotonic() - started < 5.0
    assert calls(tmp_path / "runs") == {}  # nothing evaluated
    assert sorted(p.name for p in out.iterdir()) == [LOCK_NAME]
    summary = run_sweep(manifest, out, fn=scripted, executor="serial", progress=None)
    assert summary.complete  # the lock of the killed holder: taken over
    assert issubclass(FolderLockedError, OutputPathError)
