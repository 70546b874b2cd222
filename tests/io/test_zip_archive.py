"""Zip files read with bounds: bombs, shadowing names, encrypted and unsupported entries."""

from __future__ import annotations

import resource
import zipfile
from typing import TYPE_CHECKING

import pytest

from robot_msgs.errors import FormatError
from robot_msgs.io.zip_archive import ZipArchive
from robot_msgs.limits import input_limits
from tests.hostile import add_zero_bomb, patch_entry, warnings_allowed

if TYPE_CHECKING:
    from pathlib import Path


def _zip(path: Path, entries: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, warnings_allowed():
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def test_an_entry_is_read_whole_within_the_bound(tmp_path: Path) -> None:
    path = _zip(tmp_path / "a.zip", {"a.txt": b"x" * 1000})
    with ZipArchive(path) as archive:
        assert archive.names == ("a.txt",)
        assert archive.size("a.txt") == 1000
        assert archive.read("a.txt") == b"x" * 1000


def test_a_bomb_is_refused_by_its_declared_size_before_inflating(tmp_path: Path) -> None:
    # 64 MiB of zeros streamed through deflate: 300 KB on disk.
    path = add_zero_bomb(tmp_path / "bomb.zip", "error_array.npy", 64 << 20, mode="w")
    assert path.stat().st_size < 1 << 20
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with (
        input_limits(max_bytes=1 << 20),
        ZipArchive(path) as archive,
        pytest.raises(
            FormatError,
            match=r"bomb\.zip: 'error_array\.npy': declares 67108864 bytes, past the bound of "
            r"1048576 bytes .*raise the bound "
            r"\(`robot_msgs\.limits\.input_limits\(max_bytes=\.\.\.\)`\)$",
        ),
    ):
        archive.read("error_array.npy")
    # Nothing inflated: the peak memory of the process did not grow by the entry's size.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 32 << 10  # KiB


def test_a_bomb_that_lies_about_its_size_stops_at_what_it_declares(tmp_path: Path) -> None:
    path = add_zero_bomb(tmp_path / "bomb.zip", "e.npy", 64 << 20, mode="w")
    patch_entry(path, "e.npy", size=100)  # declares 100 bytes, inflates to 64 MiB
    with ZipArchive(path) as archive, pytest.raises(FormatError, match=r"'e\.npy': damaged entry"):
        archive.read("e.npy")


def test_the_entries_of_one_zip_are_bounded_together(tmp_path: Path) -> None:
    path = _zip(tmp_path / "a.zip", {f"e{k}": bytes(600) for k in range(3)})
    with input_limits(max_bytes=1000), ZipArchive(path) as archive:
        archive.read("e0")
        with pytest.raises(FormatError, match=r"'e1': declares 600 bytes, past the bound"):
            archive.read("e1")


def test_two_entries_with_one_name_are_refused(tmp_path: Path) -> None:
    path = _zip(tmp_path / "a.zip", {"a.npy": b"1"})
    with zipfile.ZipFile(path, "a") as archive, warnings_allowed():
        archive.writestr("a.npy", b"2")
    with pytest.raises(FormatError, match=r"a\.zip: two entries named 'a\.npy'"):
        ZipArchive(path)


def test_an_encrypted_entry_is_refused(tmp_path: Path) -> None:
    path = patch_entry(_zip(tmp_path / "a.zip", {"a.npy": b"123"}), "a.npy", flag_bits=1)
    with ZipArchive(path) as archive, pytest.raises(FormatError, match=r"'a\.npy': is encrypted"):
        archive.read("a.npy")


def test_an_entry_compressed_with_method_99_is_refused(tmp_path: Path) -> None:
    path = patch_entry(_zip(tmp_path / "a.zip", {"a.npy": b"123"}), "a.npy", method=99)
    with (
        ZipArchive(path) as archive,
        pytest.raises(FormatError, match=r"'a\.npy': compression method 99 is not read"),
    ):
        archive.read("a.npy")


def test_a_bad_crc_is_a_damaged_entry(tmp_path: Path) -> None:
    path = patch_entry(_zip(tmp_path / "a.zip", {"a.npy": b"123" * 10}), "a.npy", crc=1)
    with (
        ZipArchive(path) as archive,
        pytest.raises(FormatError, match=r"'a\.npy': damaged entry \(Bad CRC-32"),
    ):
        archive.read("a.npy")


def test_too_many_entries_are_refused(tmp_path: Path) -> None:
    path = _zip(tmp_path / "a.zip", {f"e{k}": b"" for k in range(20)})
    with (
        input_limits(max_zip_entries=10),
        pytest.raises(FormatError, match=r"a\.zip: 20 entries, more than the 10 read"),
    ):
        ZipArchive(path)


def test_not_a_zip_is_named(tmp_path: Path) -> None:
    path = tmp_path / "a.zip"
    path.write_bytes(b"hello")
    with pytest.raises(FormatError, match=r"a\.zip: not an evo zip \(File is not a zip file\)"):
        ZipArchive(path, what="an evo zip")
