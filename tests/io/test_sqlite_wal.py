"""wal_is_in_database: a -wal's commits shown to be in its database, as SQLite reads the pair."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tracemalloc
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.io import sqlite_wal
from robot_msgs.io.sqlite_wal import shm_lock_holder, wal_is_in_database
from tests.hostile import deadline, sqlite_held_open

if TYPE_CHECKING:
    from pathlib import Path


def _writer(folder: Path) -> sqlite3.Connection:
    """A database ``t.db3`` in WAL mode, without automatic checkpoints, kept open."""
    writer = sqlite3.connect(folder / "t.db3", isolation_level=None)
    assert writer.execute("PRAGMA journal_mode=WAL").fetchone() == ("wal",)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE m (id INTEGER PRIMARY KEY, data BLOB)")
    return writer


def _insert(writer: sqlite3.Connection, rows: int, seed: int) -> None:
    writer.execute("BEGIN")
    writer.executemany(
        "INSERT INTO m (data) VALUES (?)", [(bytes([seed % 256]) * (50 + k),) for k in range(rows)]
    )
    writer.execute("COMMIT")


def _copy(folder: Path, into: Path, *, wal: bool = True) -> Path:
    """Copy ``t.db3`` (and its -wal) as a crash leaves them: the writer still open."""
    into.mkdir(parents=True)
    for name in ("t.db3", "t.db3-wal") if wal else ("t.db3",):
        shutil.copyfile(folder / name, into / name)
    return into / "t.db3"


def _checkpointed_crash(tmp_path: Path) -> Path:
    """``t.db3`` of 300 rows, checkpointed, copied with its -wal while still open (a crash)."""
    folder = tmp_path / "rec"
    folder.mkdir()
    writer = _writer(folder)
    try:
        _insert(writer, 300, 0)
        writer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        return _copy(folder, tmp_path / "copy")
    finally:
        writer.close()


def _rows(db: Path, *, immutable: bool) -> list[tuple[object, ...]]:
    """The schema and the rows SQLite reads from ``db`` (the table may be in the log only)."""
    uri = f"file:{db}?immutable=1" if immutable else f"file:{db}"
    with sqlite3.connect(uri, uri=True) as reader:
        schema = reader.execute("SELECT name, sql FROM sqlite_master").fetchall()
        rows = reader.execute("SELECT id, data FROM m ORDER BY id").fetchall() if schema else []
    return schema + rows


def _sqlite_says_the_file_alone_is_the_pair(folder: Path, tmp: Path) -> bool:
    """SQLite's own answer: the rows it reads from the pair (recovering the log, in a copy)
    are the rows of the file alone (another copy, read ``immutable``, as rosbags reads)."""
    pair = _rows(_copy(folder, tmp / "pair"), immutable=False)
    alone = _rows(_copy(folder, tmp / "alone", wal=False), immutable=True)
    return pair == alone


@pytest.mark.parametrize(
    ("steps", "in_file"),
    [
        (["insert"], False),  # committed, not checkpointed: 300 rows only in the log
        (["insert", "checkpoint"], True),  # all copied into the file; the log kept as it was
        (["insert", "checkpoint", "insert"], False),  # a write after: the log restarted
        (["insert", "checkpoint", "insert", "checkpoint"], True),  # stale frames after it
    ],
)
def test_a_log_is_in_its_database_exactly_when_sqlite_reads_the_file_alone_so(
    tmp_path: Path, steps: list[str], in_file: bool
) -> None:
    """A .db3 whose -wal frames were all checkpointed before a crash was refused as "may
    hold writes"; SQLite's own reading of the pair is the reference."""
    folder = tmp_path / "rec"
    folder.mkdir()
    writer = _writer(folder)
    try:
        for k, step in enumerate(steps):
            if step == "insert":
                _insert(writer, 300, k)
            else:
                assert writer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[0] == 0
        copy = _copy(folder, tmp_path / "copy")
    finally:
        writer.close()
    assert (copy.parent / "t.db3-wal").stat().st_size > 0
    before = {f.name: f.read_bytes() for f in copy.parent.iterdir()}
    assert wal_is_in_database(copy, copy.with_name("t.db3-wal")) is in_file
    assert {f.name: f.read_bytes() for f in copy.parent.iterdir()} == before  # read only
    assert _sqlite_says_the_file_alone_is_the_pair(copy.parent, tmp_path / "sqlite") is in_file


@settings(max_examples=25, deadline=None)
@given(steps=st.lists(st.sampled_from(["insert", "small", "checkpoint"]), min_size=1, max_size=6))
def test_a_log_said_to_be_in_its_database_is_read_by_sqlite_as_the_file_alone(
    tmp_path_factory: pytest.TempPathFactory, steps: list[str]
) -> None:
    """The law: never True where SQLite reads more from the pair than from the file; and
    True right after a checkpoint (nothing written since)."""
    tmp = tmp_path_factory.mktemp("w")
    folder = tmp / "rec"
    folder.mkdir()
    writer = _writer(folder)
    try:
        for k, step in enumerate(steps):
            if step == "checkpoint":
                writer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            else:
                _insert(writer, 300 if step == "insert" else 1, k)
        copy = _copy(folder, tmp / "copy")
    finally:
        writer.close()
    said = wal_is_in_database(copy, copy.with_name("t.db3-wal"))
    if said:
        assert _sqlite_says_the_file_alone_is_the_pair(copy.parent, tmp / "sqlite")
    if steps[-1] == "checkpoint":
        assert said


def test_a_log_not_shown_to_be_in_its_database_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checkpointed, so in the file; but a damaged header, a log past the size compared, or
    a file of another page size is not shown so: left refused (False), read as before."""
    copy = _checkpointed_crash(tmp_path)
    wal = copy.with_name("t.db3-wal")
    assert wal_is_in_database(copy, wal)
    monkeypatch.setattr(sqlite_wal, "MOST_WAL_BYTES", wal.stat().st_size - 1)
    assert not wal_is_in_database(copy, wal)
    monkeypatch.undo()
    good = wal.read_bytes()
    wal.write_bytes(good[:20] + bytes([good[20] ^ 1]) + good[21:])  # a salt: header checksum
    assert not wal_is_in_database(copy, wal)
    wal.write_bytes(good[:31])
    assert not wal_is_in_database(copy, wal)
    wal.write_bytes(good)
    assert not wal_is_in_database(copy, tmp_path / "none.db3")


def test_a_log_that_grows_past_the_size_compared_after_it_is_looked_at_is_not_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size was looked at (stat), then the whole file read: a log a live recorder
    lengthens in between was read past MOST_WAL_BYTES, unbounded. The bytes read are what
    is compared: at most MOST_WAL_BYTES + 1 of them, and a longer log is left refused."""
    copy = _checkpointed_crash(tmp_path)
    wal = copy.with_name("t.db3-wal")
    size = wal.stat().st_size
    assert wal_is_in_database(copy, wal)
    monkeypatch.setattr(sqlite_wal, "MOST_WAL_BYTES", size - 1)
    real_stat = type(wal).stat

    def looked_at_before_it_grew(path: Path, **kwargs: bool) -> os.stat_result:
        info = real_stat(path, **kwargs)
        if path.name != "t.db3-wal":
            return info
        fields = list(info)
        fields[stat.ST_SIZE] = 32  # its header only, when looked at
        return os.stat_result(fields)

    monkeypatch.setattr(type(wal), "stat", looked_at_before_it_grew)
    assert not wal_is_in_database(copy, wal)


def test_a_log_of_large_pages_is_summed_a_bounded_chunk_of_bytes_at_a_time(
    tmp_path: Path,
) -> None:
    """The frames were summed 1024 at a time, whatever their page size: 64 KiB pages (the
    largest) summed a 64 MiB log at once, some 7 times its size in words (474 MB for
    the largest log compared). Chunks are of _CHUNK_BYTES: the memory beyond the log's
    own bytes is bounded by them (16 times), not by the log."""
    folder = tmp_path / "rec"
    folder.mkdir()
    writer = sqlite3.connect(folder / "t.db3", isolation_level=None)
    try:
        writer.execute("PRAGMA page_size=65536")
        assert writer.execute("PRAGMA journal_mode=WAL").fetchone() == ("wal",)
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("CREATE TABLE m (data BLOB)")
        writer.execute("BEGIN")
        writer.executemany(
            "INSERT INTO m VALUES (?)", [(bytes([k % 256]) * 60_000,) for k in range(600)]
        )
        writer.execute("COMMIT")
        writer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        copy = _copy(folder, tmp_path / "copy")
    finally:
        writer.close()
    wal = copy.with_name("t.db3-wal")
    size = wal.stat().st_size
    chunk = 4 * 2**20  # sqlite_wal._CHUNK_BYTES
    assert size > 8 * chunk  # 600 pages of 64 KiB: 39 MB
    tracemalloc.start()
    try:
        assert wal_is_in_database(copy, wal)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < size + 16 * chunk  # 73 MB; 276 MB when summed 1024 frames at a time


def _files(folder: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(folder.iterdir())}


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: the lock is not asked about")
def test_a_database_another_process_holds_open_is_said_held_until_it_is_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite itself, a connection held open in another process, is the reference. It
    checkpointed: its log is all in the file, as a crashed writer's is, so the log alone
    cannot tell a recorder still running (read short) from one that crashed. While it
    is open its lock on t.db3-shm names it; killed (-9: nothing closed, the -wal and
    -shm left as they were), no process holds one. Nothing is written or made."""
    db, wal = tmp_path / "t.db3", tmp_path / "t.db3-wal"
    assert shm_lock_holder(db) is None  # no -shm
    statements = ("PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0", "CREATE TABLE m (x)")
    done = ("INSERT INTO m VALUES (1)", "PRAGMA wal_checkpoint(PASSIVE)")
    with sqlite_held_open(db, *statements, *done) as recorder:
        before = _files(tmp_path)
        assert list(before) == ["t.db3", "t.db3-shm", "t.db3-wal"]
        assert wal_is_in_database(db, wal)
        assert shm_lock_holder(db) == recorder.pid
        monkeypatch.setattr(sqlite_wal, "_FLOCK", None)  # a platform not asked about
        assert shm_lock_holder(db) is None
        monkeypatch.undo()
        assert _files(tmp_path) == before
        recorder.kill()
        recorder.wait()
    assert shm_lock_holder(db) is None
    assert wal_is_in_database(db, wal)
    assert _files(tmp_path) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_log_database_or_shm_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    """A FIFO given to wal_is_in_database as the -wal or the database: its open waited
    for a writer, for ever (the check beside a bag looks at the -wal first; a caller of
    the function itself did not). Refused at once (False); a FIFO -shm holds no lock."""
    copy = _checkpointed_crash(tmp_path)
    wal, fifo = copy.with_name("t.db3-wal"), tmp_path / "fifo"
    assert wal_is_in_database(copy, wal)
    os.mkfifo(fifo)
    os.mkfifo(copy.with_name("t.db3-shm"))
    with deadline(60):
        assert not wal_is_in_database(copy, fifo)
        assert not wal_is_in_database(fifo, wal)
        assert shm_lock_holder(copy) is None


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: the lock is not asked about")
def test_asking_keeps_the_locks_this_process_holds_on_the_shm(tmp_path: Path) -> None:
    """POSIX locks are the process's, and closing any descriptor of the file drops them
    all: asking opened the -shm and closed it, dropping the DMS lock of a connection this
    process holds (SQLite's "howtocorrupt" 2.2.1: another process then takes itself for
    the last connection and rebuilds or deletes the -shm under it). SQLite, in another
    process, is the reference: it sees this process's lock before and after asking."""
    db = tmp_path / "t.db3"
    mine = sqlite3.connect(db)
    try:
        for statement in (
            "PRAGMA journal_mode=WAL",
            "CREATE TABLE m (x)",
            "INSERT INTO m VALUES (1)",
        ):
            mine.execute(statement)
        mine.commit()
        ask = (
            "import pathlib, sys; from robot_msgs.io.sqlite_wal import shm_lock_holder; "
            "print(shm_lock_holder(pathlib.Path(sys.argv[1])))"
        )

        def seen_by_another() -> str:
            done = subprocess.run(  # noqa: S603 - this interpreter, fixed code
                [sys.executable, "-c", ask, str(db)], capture_output=True, text=True, check=True
            )
            return done.stdout.strip()

        assert seen_by_another() == str(os.getpid())
        assert shm_lock_holder(db) is None  # this process's own lock is not seen
        assert seen_by_another() == str(os.getpid())
    finally:
        mine.close()
