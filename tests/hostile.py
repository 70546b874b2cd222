"""Hostile files, built in the tests: zip bombs, patched zips, deep documents, FIFOs, bad bags.

Every builder makes the file the way an attacker or an unlucky user would, from
nothing shipped: a zip bomb by streaming zeros through ``zipfile``, a zip entry marked
encrypted or compressed with method 99 by patching its headers, a ``.npy`` header that
claims 10^12 values, documents nested 100,000 deep, a FIFO fed by a writer thread, a
bag whose messages are garbage CDR (written with rosbags).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import zipfile
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path
    from types import FrameType

EVO_INFO = {
    "title": "APE w.r.t. translation part (m)\n(with SE(3) Umeyama alignment)",
    "ref_name": "gt.tum",
    "est_name": "est.tum",
    "label": "APE (m)",
}
EVO_STATS = {"rmse": 0.5, "mean": 0.5, "median": 0.5, "std": 0.0, "min": 0.5, "max": 0.5}
EVO_STATS["sse"] = 0.5


def npy_bytes(array: np.ndarray[Any, Any]) -> bytes:
    """``array`` as the bytes of a ``.npy`` file (``numpy.save``)."""
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=True)
    return buffer.getvalue()


def npy_header_only(shape: tuple[int, ...], descr: str = "<f8") -> bytes:
    """The header of a version 1.0 ``.npy`` file claiming ``shape``, with no data after it."""
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape!r}, }}"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin-1")


def evo_zip(
    path: Path,
    *,
    arrays: dict[str, bytes] | None = None,
    info: object = None,
    stats: object = None,
    extra: dict[str, bytes] | None = None,
    without: tuple[str, ...] = (),
) -> Path:
    """An evo result zip: info.json, stats.json and ``.npy`` arrays (two errors by default)."""
    arrays = {
        "error_array": npy_bytes(np.array([0.5, 0.5])),
        "timestamps": npy_bytes(np.array([1.0, 2.0])),
        **(arrays or {}),
    }
    arrays = {name: data for name, data in arrays.items() if name not in without}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("info.json", json.dumps(EVO_INFO if info is None else info))
        archive.writestr("stats.json", json.dumps(EVO_STATS if stats is None else stats))
        for name, data in arrays.items():
            archive.writestr(f"{name}.npy", data)
        with warnings_allowed():  # zipfile warns on a duplicate name: that is the point
            for name, data in (extra or {}).items():
                archive.writestr(name, data)
    return path


@contextlib.contextmanager
def warnings_allowed() -> Iterator[None]:
    """Let a builder do what the library warns about (pytest turns warnings into errors)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def add_zero_bomb(path: Path, name: str, inflated: int, *, mode: Literal["a", "w"] = "a") -> Path:
    """Add an entry of ``inflated`` zero bytes, deflated as it streams (a zip bomb).

    2 GiB of zeros deflate to about 9 MB at level 1 (2 MB at level 9) in about 5 s.
    """
    piece = bytes(min(inflated, 1 << 20))
    with (
        zipfile.ZipFile(path, mode, zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open(name, "w", force_zip64=True) as entry,
    ):
        left = inflated
        while left:
            entry.write(piece[: min(left, len(piece))])
            left -= min(left, len(piece))
    return path


def patch_entry(
    path: Path,
    name: str,
    *,
    flag_bits: int | None = None,
    method: int | None = None,
    crc: int | None = None,
    size: int | None = None,
) -> Path:
    """Rewrite fields of entry ``name`` in its local header and the central directory.

    What no honest writer produces: an entry marked encrypted (flag bit 0), compressed
    with a method zipfile lacks (99, WinZip's AES), with a wrong CRC, or declaring a
    size other than its own.
    """
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(name)
    local = info.header_offset
    central = -1
    start = 0
    while (found := data.find(b"PK\x01\x02", start)) >= 0:
        length = struct.unpack_from("<H", data, found + 28)[0]
        if bytes(data[found + 46 : found + 46 + length]) == name.encode():
            central = found
            break
        start = found + 4
    assert central >= 0, name
    for header, flags_at, method_at, crc_at, size_at in (
        (local, 6, 8, 14, 22),
        (central, 8, 10, 16, 24),
    ):
        if flag_bits is not None:
            struct.pack_into("<H", data, header + flags_at, flag_bits)
        if method is not None:
            struct.pack_into("<H", data, header + method_at, method)
        if crc is not None:
            struct.pack_into("<I", data, header + crc_at, crc)
        if size is not None:
            struct.pack_into("<I", data, header + size_at, size)
    path.write_bytes(bytes(data))
    return path


def deep_json(levels: int) -> str:
    """A JSON document nested ``levels`` deep in an object: ``{"a": [[[...]]]}``."""
    return '{"a": ' + "[" * levels + "]" * levels + "}"


def deep_toml(levels: int) -> str:
    """A TOML document whose array is nested ``levels`` deep."""
    return "a = " + "[" * levels + "]" * levels + "\n"


def deep_yaml(levels: int) -> str:
    """A YAML document of flow sequences nested ``levels`` deep."""
    return "a: " + "[" * levels + "]" * levels + "\n"


@contextlib.contextmanager
def fifo_with_writer(path: Path, data: bytes) -> Iterator[Path]:
    """A FIFO at ``path`` and a thread writing ``data`` into it once, then closing it."""
    os.mkfifo(path)

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), path.open("wb") as handle:
            handle.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        if writer.is_alive():  # no reader came: open the FIFO to let the writer end
            with contextlib.suppress(OSError):
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                os.close(fd)
        writer.join(timeout=5)


_HOLD_OPEN = """
import sqlite3, sys
writer = sqlite3.connect(sys.argv[1], isolation_level=None)
for statement in sys.argv[2:]:
    writer.execute(statement)
print("open", flush=True)
sys.stdin.read()
"""


@contextlib.contextmanager
def sqlite_held_open(db: Path, *statements: str) -> Iterator[subprocess.Popen[str]]:
    """Another process (SQLite, through python's sqlite3) that runs ``statements`` on
    ``db`` and keeps its connection open, as a recorder still running does, until the
    block ends or the test kills it (``kill -9``: a crash, nothing closed)."""
    child = subprocess.Popen(  # noqa: S603 - this interpreter, fixed code
        [sys.executable, "-c", _HOLD_OPEN, str(db), *statements],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "open\n", "the child's statements failed"
        yield child
    finally:
        child.kill()
        child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()


def garbage_cdr_bag(folder: Path, *, storage: str = "mcap") -> Path:
    """A ROS 2 bag (written with rosbags) whose PoseStamped messages are garbage CDR bytes."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_typestore

    shutil.rmtree(folder, ignore_errors=True)
    store = get_typestore(Stores.LATEST)
    plugin = StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3
    with Writer(folder, version=9, storage_plugin=plugin) as writer:
        conn = writer.add_connection("/pose", "geometry_msgs/msg/PoseStamped", typestore=store)
        for k in range(5):
            # A little-endian CDR header, then a string length of 67 million.
            writer.write(conn, (k + 1) * 1000, bytes([0, 1, 0, 0]) + bytes(range(7)) * 3)
    return folder


class Hang(Exception):  # noqa: N818 - named for what it means
    """A call ran past its deadline."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread when the block runs longer than ``seconds``."""

    def alarm(signum: int, frame: FrameType | None) -> None:
        del signum, frame
        msg = f"still running after {seconds} s"
        raise Hang(msg)

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def mutations(seed: bytes, rng: np.random.Generator) -> Callable[[], bytes]:
    """A function giving mutants of ``seed``: flipped, cut, repeated, spliced bytes.

    One kind nests a value 3000 deep where a value starts (after ``= `` or ``: ``), so a
    parser of a document meets the depth, not only a syntax error.
    """
    tokens = [
        b"\x00", b"\xff", b"[", b"{", b"}", b"]", b'"', b"NaN", b"1e999", b"-0",
        b"9" * 400, b"\n", b"$", b"\\", b"PK\x03\x04", b"\x93NUMPY",
        b"[" * 3000, b'{"a":' * 2000, b"9" * 5000, b"a = [" * 1500, b"- " * 2000,
    ]  # fmt: skip

    def mutant() -> bytes:
        data = bytearray(seed)
        for _ in range(int(rng.integers(1, 6))):
            if not data:
                data.extend(tokens[int(rng.integers(len(tokens)))])
                continue
            at = int(rng.integers(len(data)))
            kind = int(rng.integers(7))
            if kind == 0:
                data[at] ^= 1 << int(rng.integers(8))
            elif kind == 1:
                data[at] = int(rng.integers(256))
            elif kind == 2:
                del data[at : at + int(rng.integers(1, 64))]
            elif kind == 3:
                data[at:at] = tokens[int(rng.integers(len(tokens)))]
            elif kind == 4:
                end = min(len(data), at + int(rng.integers(1, 256)))
                data[at:at] = data[at:end] * int(rng.integers(1, 4))
            elif kind == 5:
                del data[at:]
            else:  # a value nested 3000 deep, where a value starts (= in TOML, : in JSON)
                starts = [
                    i + 2 for i in range(len(data) - 1) if bytes(data[i : i + 2]) in (b"= ", b": ")
                ]
                if starts:
                    where = starts[int(rng.integers(len(starts)))]
                    data[where:where] = b"[" * 3000 + b"]" * int(rng.integers(2)) * 3000
        return bytes(data)

    return mutant


def zip_mutant(entries: dict[str, bytes], rng: np.random.Generator) -> bytes:
    """A zip of ``entries`` with one changed as an attacker would: its bytes, name or count.

    Mutating the zip's own bytes mostly breaks a CRC; changing an entry and zipping it
    again reaches the readers of the entries (``.npy`` headers, JSON).
    """
    items = list(entries.items())
    k = int(rng.integers(len(items)))
    name, data = items[k]
    kind = int(rng.integers(5))
    if kind <= 1:
        items[k] = (name, mutations(data, rng)())
    elif kind == 2:  # the same entry again, elsewhere or at once
        items.append((f"zz/{name}" if rng.integers(2) else name, mutations(data, rng)()))
    elif kind == 3:
        del items[k]
    else:  # another entry's bytes under this name
        items[k] = (name, items[int(rng.integers(len(items)))][1])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive, warnings_allowed():
        for entry, content in items:
            archive.writestr(entry, content)
    return buffer.getvalue()


def fuzz(
    check: Callable[[bytes], object],
    mutants: Callable[[], bytes],
    *,
    cases: int,
    seconds: float,
    at_least: int = 0,
    per_case: float = 20.0,
) -> int:
    """Run ``check`` on mutants until ``cases`` ran or ``seconds`` passed; return how many ran.

    ``at_least`` cases run whatever the time (a loaded machine runs fewer in the budget,
    and a fuzz test must not pass by running almost nothing). Only the package's errors
    may escape ``check``; one that runs past ``per_case`` seconds is a hang. A failure
    names the case's first bytes, so it can be rebuilt.
    """
    import time
    import warnings

    from robot_msgs.errors import DataWarning, RobotMsgsError

    start = time.monotonic()
    ran = 0
    while ran < cases and (ran < at_least or time.monotonic() - start < seconds):
        data = mutants()
        try:
            with deadline(per_case), warnings.catch_warnings():
                warnings.simplefilter("ignore", DataWarning)  # data problems fixed by a rule
                check(data)
        except RobotMsgsError:
            pass
        except Hang as err:
            msg = f"case {ran} hung: {data[:120]!r}"
            raise AssertionError(msg) from err
        except Exception as err:
            msg = f"case {ran} raised {type(err).__name__}: {err!s:.300} - input {data[:120]!r}"
            raise AssertionError(msg) from err
        ran += 1
    return ran
