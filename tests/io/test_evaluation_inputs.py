"""The inputs of one evaluation: large text tables read side by side, told as if one by one."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, FormatError, ValidationError
from robot_msgs.evaluation import ReadSettings
from robot_msgs.io import chunks, evaluation_inputs, resolve_path, table
from robot_msgs.io.evaluation_inputs import InputFile, read_inputs
from robot_msgs.io.side_by_side import side_by_side as side_by_side_reader

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.trajectory import PoseTrajectory


def _tum(
    path: Path,
    n: int,
    *,
    nan_row: int | None = None,
    swap: int | None = None,
    repeat: int | None = None,
) -> str:
    """Write ``n`` poses, with a NaN row, two swapped stamps or a repeated stamp if asked."""
    stamps = np.arange(n, dtype=np.float64) * 0.1
    if swap is not None:
        stamps[[swap, swap + 1]] = stamps[[swap + 1, swap]]
    if repeat is not None:
        stamps[repeat + 1] = stamps[repeat]
    rows = [f"{t:.1f} {k * 0.5} {k * 0.25} 0 0 0 0 1" for k, t in enumerate(stamps)]
    if nan_row is not None:
        rows[nan_row] = f"{stamps[nan_row]:.1f} nan 0 0 0 0 0 1"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _read(
    paths: list[str], *, side_by_side: bool, **kwargs: Any
) -> tuple[list[PoseTrajectory] | str, list[str], int]:
    """Read ``paths`` with 25-byte pieces; the result or error, the warnings, the thread runs."""
    used = 0
    real = side_by_side_reader

    def counted(calls: Any) -> Any:
        nonlocal used
        used += 1
        return real(calls)

    with (
        pytest.MonkeyPatch.context() as patch,
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        patch.setattr(table, "CHUNK_BYTES", 25)
        patch.setattr(chunks, "CORES", 2 if side_by_side else 1)
        patch.setattr(evaluation_inputs, "side_by_side", counted)
        try:
            out: list[PoseTrajectory] | str = read_inputs(
                [InputFile(path=p) for p in paths], **kwargs
            )
        except FormatError as err:
            out = str(err)
    return out, [str(w.message) for w in caught], used


def test_two_large_files_read_side_by_side_equal_the_files_read_one_by_one(
    tmp_path: Path,
) -> None:
    paths = [
        _tum(tmp_path / "ref.tum", 40, nan_row=3),
        _tum(tmp_path / "est.tum", 30, swap=5),
    ]
    together, told_together, used = _read(paths, side_by_side=True)
    alone, told_alone, unused = _read(paths, side_by_side=False)
    assert (used, unused) == (1, 0)
    assert told_together == told_alone
    assert len(told_together) == 2
    assert told_together[0].startswith(paths[0])
    assert told_together[1].startswith(paths[1])
    assert isinstance(together, list)
    assert together == alone
    assert [len(t) for t in together] == [39, 30]


def test_a_refusal_of_the_second_file_comes_after_the_first_files_warning(
    tmp_path: Path,
) -> None:
    paths = [_tum(tmp_path / "ref.tum", 40, nan_row=2), _tum(tmp_path / "est.tum", 30, repeat=4)]
    refused = _read(paths, side_by_side=True, repeated_stamps="refuse")
    alone = _read(paths, side_by_side=False, repeated_stamps="refuse")
    assert refused[:2] == alone[:2]
    assert refused[2] == 1
    error, told = refused[0], refused[1]
    assert isinstance(error, str)
    assert error.startswith(f"{paths[1]}")
    assert "repeated" in error
    assert len(told) == 1
    assert told[0].startswith(f"{paths[0]}")


def test_small_files_one_input_and_bags_are_read_one_by_one(tmp_path: Path) -> None:
    big = [_tum(tmp_path / "a.tum", 40), _tum(tmp_path / "b.tum", 40)]
    small = _tum(tmp_path / "c.tum", 3)  # 3 lines of about 30 bytes: under four pieces
    assert _read(big, side_by_side=True)[2] == 1
    assert _read([big[0], small], side_by_side=True)[2] == 0
    assert _read(big[:1], side_by_side=True)[2] == 0
    cache: dict[tuple[object, ...], PoseTrajectory] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table, "CHUNK_BYTES", 25)
        read_inputs([InputFile(path=big[0])], cache=cache)
    assert _read(big, side_by_side=True, cache=cache)[2] == 0  # one of the two is read
    files = [(tmp_path / "a.tum", "tum", None), (tmp_path / "b.bag", "bag", None)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table, "CHUNK_BYTES", 25)
        patch.setattr(chunks, "CORES", 2)
        assert not evaluation_inputs._side_by_side(files, [(None, None)] * 2)
        files[1] = (tmp_path / "b.tum", "tum", None)
        assert evaluation_inputs._side_by_side(files, [(None, None)] * 2)
        assert not evaluation_inputs._side_by_side(files, [(None, None), ((0, 0, 0), None)])


def test_one_file_twice_with_a_cache_is_read_once_and_shared(tmp_path: Path) -> None:
    path = _tum(tmp_path / "a.tum", 40, nan_row=2)
    cache: dict[tuple[object, ...], PoseTrajectory] = {}
    out, told, used = _read([path, path], side_by_side=True, cache=cache)
    assert isinstance(out, list)
    assert out[0] is out[1]
    assert len(told) == 2  # the same file as the reference, and its NaN row once
    assert used == 0  # one read: nothing to run beside it
    out, told, _ = _read([path, path], side_by_side=True)
    assert isinstance(out, list)
    assert out[0] == out[1]
    assert len(told) == 3  # without a cache each input is read, as it always was


def test_the_references_file_given_as_an_estimate_is_warned(tmp_path: Path) -> None:
    """`ape E E`, or E and a link to it, gave 1e-16 m without a word (a review)."""
    path = _tum(tmp_path / "a.tum", 40)
    link = tmp_path / "link.tum"
    link.symlink_to(path)
    other = _tum(tmp_path / "b.tum", 40)  # the same bytes, another file: not this warning
    for given, spelt in (
        (path, ""),
        (str(link), f" ({path})"),
        (f"{tmp_path}/./a.tum", f" ({path})"),
    ):
        _, told, _ = _read([path, other, given], side_by_side=False)
        said = (
            f"{given}: the same file as the reference{spelt}, read the same way: the estimate "
            "is the reference before any transform or time offset"
        )
        assert told == [said]
    # Read another way (here with a KITTI times file), it is another trajectory.
    kitti = tmp_path / "a.txt"
    kitti.write_text("".join(f"1 0 0 {k} 0 1 0 0 0 0 1 0\n" for k in range(40)))
    times = tmp_path / "times.txt"
    times.write_text("".join(f"{0.1 * k:.1f}\n" for k in range(40)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_inputs([InputFile(path=str(kitti), times_path=times), InputFile(path=str(kitti))])


def test_the_references_file_given_again_is_named_as_given() -> None:
    """`ape example:A example:A` named the reference by its installed file
    (`(/.../robot_msgs/examples/fr1_xyz/groundtruth.tum)`), where other messages and the
    repeated estimate's name example:NAME as given (a review)."""
    given = "example:fr1_xyz/groundtruth.tum"
    _, told, _ = _read([given, given], side_by_side=False)
    said = (
        f"{given}: the same file as the reference, read the same way: the estimate is "
        "the reference before any transform or time offset"
    )
    assert told == [said]


def test_an_estimates_file_given_again_is_warned_once(tmp_path: Path) -> None:
    """`ape REF A A` gave two equal results without a word, where `ape A A` is warned (a review)."""
    ref = _tum(tmp_path / "ref.tum", 40)
    est = _tum(tmp_path / "a.tum", 40)
    link = tmp_path / "link.tum"
    link.symlink_to(est)
    other = _tum(tmp_path / "b.tum", 40)  # the same bytes, another file: not this warning
    _, told, _ = _read([ref, est, other, str(link), est], side_by_side=False)
    assert told == [
        (
            f"{link}: estimate #3 is the same file as estimate #1 ({est}), read the same way: "
            "its results repeat #1's"
        ),
        (
            f"{est}: estimate #4 is the same file as estimate #1, read the same way: its "
            "results repeat #1's"
        ),
    ]
    # The reference's file given twice as an estimate is said as the reference's, each time.
    _, told, _ = _read([ref, ref, ref], side_by_side=False)
    assert [t.startswith(f"{ref}: the same file as the reference, ") for t in told] == [True] * 2


def test_inputs_with_a_times_pipe_are_read_one_by_one(tmp_path: Path) -> None:
    # One pipe given as the times of two KITTI files is read once, by the first reader
    # (side by side, the second blocked in open() after the writer left: a hang).
    import os

    files = [(tmp_path / "a.txt", "kitti", None), (tmp_path / "b.txt", "kitti", None)]
    for file, _, _ in files:
        file.write_text("1 0 0 0 0 1 0 0 0 0 1 0\n" * 40)
    times = tmp_path / "times.txt"
    times.write_text("0\n" * 40)
    pipe = tmp_path / "times.fifo"
    os.mkfifo(pipe)
    frames = [(None, None)] * 2
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table, "CHUNK_BYTES", 25)
        patch.setattr(chunks, "CORES", 2)
        assert evaluation_inputs._side_by_side(files, frames, [times, times])
        assert evaluation_inputs._side_by_side(files, frames, [None, None])
        assert not evaluation_inputs._side_by_side(files, frames, [pipe, pipe])
        assert not evaluation_inputs._side_by_side(files, frames, [None, pipe])


def test_a_file_name_that_is_not_utf8_is_evaluated_under_a_name_results_can_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ape REF $'na\\xffme.tum'` read the file, then refused its own result: the name went
    into `Comparison.estimate` as a lone surrogate, which no result can write."""
    import json
    import os
    from pathlib import Path

    from robot_msgs.cli import main

    ref = tmp_path / "ref.tum"
    ref.write_text("".join(f"{t} {t} 0 0 0 0 0 1\n" for t in range(5)))
    odd = os.fsdecode(bytes(tmp_path) + b"/na\xffme.tum")
    Path(odd).write_text(ref.read_text())
    assert InputFile(path=odd, topic="/a").label == f"{tmp_path}/na\ufffdme.tum /a"
    assert main(["ape", str(ref), odd, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["estimate"] == f"{tmp_path}/na\ufffdme.tum"


@pytest.mark.parametrize("fmt", ["kitti", "lla"])
def test_an_example_file_is_named_as_given_in_errors(fmt: str) -> None:
    # Not the installed file: "/.../robot_msgs/examples/fr1_xyz/rgbdslam.tum, line 2".
    inputs = [
        InputFile(path="example:fr1_xyz/groundtruth.tum"),
        InputFile(path="example:fr1_xyz/rgbdslam.tum", fmt=fmt),
    ]
    with pytest.raises(FormatError, match=r"^example:fr1_xyz/rgbdslam\.tum, line 2: expected"):
        read_inputs(inputs)


def test_a_loop_of_links_with_its_format_given_is_named_not_a_bug(tmp_path: Path) -> None:
    """With the format given (nothing read to detect it) Path.resolve() came first and
    raised RuntimeError on Python < 3.13: ape --ref-format kitti LOOP exited 70."""
    loop = tmp_path / "a.txt"
    (tmp_path / "b.txt").symlink_to(loop)
    loop.symlink_to(tmp_path / "b.txt")
    with pytest.raises(OSError, match="Too many levels of symbolic links"):
        read_inputs([InputFile(path=str(loop), fmt="kitti")])


#: Three poses written qw qx qy qz (a TUM file written w first), stamps in milliseconds.
_W_FIRST_MS = "1000.5 1 2 3 0.8 0 0 0.6\n2000 0 0 0 1 0 0 0\n3000.25 0 0 1 0.6 0.8 0 0\n"


def test_the_reading_settings_read_each_side_as_written(tmp_path: Path) -> None:
    """``read_inputs(reading=...)`` reads a side written w first, in ms, as written.

    By hand: ``qw qx qy qz = 0.8 0 0 0.6`` is ``qx qy qz qw = 0 0 0.6 0.8``, ``1 0 0 0``
    is ``0 0 0 1``, ``0.6 0.8 0 0`` is ``0.8 0 0 0.6``; ``1000.5 ms`` is ``1.0005 s``.
    WHY: only the command line, the doctor and the runs applied ``--w-first`` and
    ``--stamp-divisors``, each after calling this; a Python caller of it could not.
    """
    est = tmp_path / "est.tum"
    est.write_text(_W_FIRST_MS)
    ref = tmp_path / "ref.tum"
    ref.write_text("1.0005 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n3.00025 0 0 0 0 0 0 1\n")
    rules = ReadSettings(w_first="estimate", stamp_divisors=(1.0, 1000.0))
    reference, estimate = read_inputs(
        [InputFile(path=str(ref)), InputFile(path=str(est))], reading=rules
    )
    assert estimate.stamps_s.tolist() == [1.0005, 2.0, 3.00025]
    assert estimate.orientations_quat_xyzw.tolist() == [
        [0.0, 0.0, 0.6, 0.8],
        [0.0, 0.0, 0.0, 1.0],
        [0.8, 0.0, 0.0, 0.6],
    ]
    assert estimate.positions_xyz.tolist() == [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    assert reference.stamps_s.tolist() == [1.0005, 2.0, 3.00025]  # its divisor is 1
    assert reference.orientations_quat_xyzw[:, 3].tolist() == [1.0, 1.0, 1.0]  # not turned
    # Alone, the file is the reference side, unless every input is an estimate (a run
    # without ground truth).
    (alone,) = read_inputs([InputFile(path=str(est))], reading=rules)
    assert alone.stamps_s.tolist() == [1000.5, 2000.0, 3000.25]
    (only,) = read_inputs([InputFile(path=str(est))], reading=rules, estimates_only=True)
    assert only == estimate


def test_two_topics_of_one_bag_are_read_from_one_open(
    evo_data: Path, bag_opens: list[object]
) -> None:
    """``ape BAG BAG --ref-topic A --est-topic B`` opened the bag 4 times (each side's first
    fix, then its read); an open reads the bag's index. Once now, and each side reads
    what it read alone."""
    bag = str(evo_data / "ROS_example.bag")
    inputs = [InputFile(path=bag, topic="groundtruth"), InputFile(path=bag, topic="S-PTAM")]
    alone = [read_inputs([given])[0] for given in inputs]
    opened = bag_opens
    del opened[:]  # the opens of the reads alone
    together = read_inputs(inputs)
    assert len(opened) == 1
    # evo_traj bag ROS_example.bag groundtruth S-PTAM: 12765 and 5439 poses
    assert [len(t) for t in together] == [12765, 5439]
    for read, single in zip(together, alone, strict=True):
        assert read == single
    read_inputs(inputs)  # the block ended: the bag is opened anew
    assert len(opened) == 2


def _nanoseconds(stamp: str) -> str:
    """``1305031102.160407`` written as ``1305031102160407000``: the digits kept, no rounding."""
    whole, fraction = stamp.split(".")
    return whole + fraction.ljust(9, "0")


@pytest.mark.parametrize(
    ("side", "divisors"), [("estimate", (1.0, 1e9)), ("reference", (1e9, 1.0))]
)
def test_a_stamp_divisor_is_refused_where_the_reader_converted_the_stamps_already(
    tmp_path: Path, side: str, divisors: tuple[float, float]
) -> None:
    """The TUM reader reads integer nanosecond stamps as such (divides them by 1e9, with a
    warning); ``stamp_divisors`` then divided them again, without a word: fr1_xyz's
    rgbdslam written in ns read at 30,696,454,512.7 Hz, its 26.56 s as 2.66e-8 s.

    Refused, naming the setting, the side and the reader's conversion. Read without the
    divisor, the file is evo_traj's rgbdslam (788 poses, 26.56256890296936 s).
    """
    source = resolve_path("example:fr1_xyz/rgbdslam.tum").read_text().splitlines()
    rows = [" ".join([_nanoseconds(f[0]), *f[1:]]) for f in (r.split() for r in source)
            if f and not f[0].startswith("#")]  # fmt: skip
    ns = tmp_path / "ns.tum"
    ns.write_text("\n".join(rows) + "\n")
    inputs = [InputFile(path=str(ns)), InputFile(path=str(ns))]
    divisor = divisors[side == "estimate"]
    divided = ReadSettings(stamp_divisors=divisors)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        with pytest.raises(ValidationError, match=r"stamp_divisors") as caught:
            read_inputs(inputs, reading=divided)
    assert caught.value.field == "stamp_divisors"
    assert str(caught.value).startswith(
        f"`stamp_divisors={divisors!r}`: Expected 1 as the {side}'s divisor, got "
        f"{divisor:g}: its reader divided its stamps already ({ns}: stamps read as "
        "nanoseconds and divided by 1e9 ("
    )
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", DataWarning)
        reference, estimate = read_inputs(inputs, reading=ReadSettings())
    kinds = [getattr(w.message, "kind", "") for w in said]
    assert kinds == ["same_input", "stamp_units", "stamp_units"]  # each side read, warned of
    for traj in (reference, estimate):
        assert len(traj) == 788
        assert traj.stamps_s[-1] - traj.stamps_s[0] == pytest.approx(26.56256890296936, abs=1e-6)
    # Each input is read anew where the other side's read is cached without the divisor:
    # a reference read once for many runs does not lift the refusal.
    cache: dict[Any, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        read_inputs(inputs[:1], cache=cache)
        with pytest.raises(ValidationError, match=r"stamp_divisors"):
            read_inputs(inputs, reading=divided, cache=cache)
    assert len(cache) == 1
