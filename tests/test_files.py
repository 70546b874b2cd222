"""write_atomic: all or nothing, no clobbering, ordinary file modes."""

from __future__ import annotations

import os
import stat

import pytest

from robot_msgs.errors import OutputExistsError
from robot_msgs.files import write_atomic


def test_write_atomic_writes_text_and_bytes(tmp_path):
    write_atomic(tmp_path / "a.txt", "héllo")
    write_atomic(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "héllo"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"


def test_write_atomic_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "keep.txt"
    target.write_text("user data")
    with pytest.raises(OutputExistsError, match=r"keep.txt exists; pass --force"):
        write_atomic(target, "new")
    assert target.read_text() == "user data"
    write_atomic(target, "new", force=True)
    assert target.read_text() == "new"


def test_write_atomic_leaves_no_temporary_file_on_failure(tmp_path, monkeypatch):
    def broken_replace(self, target):
        raise OSError("disk full")

    monkeypatch.setattr("pathlib.Path.replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(tmp_path / "out.txt", "data")
    assert list(tmp_path.iterdir()) == []


def test_write_atomic_gives_the_mode_open_would(tmp_path):
    old = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "report.html", "<p>")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
