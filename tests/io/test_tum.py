"""TUM files: hand-written tiny files with known values, separators, errors, round trips."""

from __future__ import annotations

import json
import math
import warnings
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, FormatError, OutputExistsError
from robot_msgs.io import detect_format, read_tum, write_tum
from robot_msgs.io.clean import reading_notes
from robot_msgs.trajectory import PoseTrajectory

SQRT_HALF = math.sqrt(0.5)


def write(tmp_path: Path, text: str, name: str = "traj.tum") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_read_tum_returns_the_numbers_of_each_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "# timestamp tx ty tz qx qy qz qw\n"
        "1.0 0.5 -1.25 2 0 0 0 1\n"
        f"2.5 1 2 3 0 0 {SQRT_HALF!r} {SQRT_HALF!r}\n",
    )
    traj = read_tum(path)
    assert traj.stamps_s.tolist() == [1.0, 2.5]
    assert traj.positions_xyz.tolist() == [[0.5, -1.25, 2.0], [1.0, 2.0, 3.0]]
    assert traj.orientations_quat_xyzw.tolist() == [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, SQRT_HALF, SQRT_HALF],
    ]


@pytest.mark.parametrize(
    "line",
    [
        "1.0\t2\t3\t4\t0\t0\t0\t1",
        "1.0,2,3,4,0,0,0,1",
        "1.0, 2, 3, 4, 0, 0, 0, 1",
        "  1.0   2 3 4 0 0 0 1   ",
        "1.0 2 3 4 0 0 0 1 # trailing comment",
        "1.0 2 3 4 0 0 0 1\r",
    ],
    ids=["tabs", "commas", "comma-space", "runs-of-spaces", "inline-comment", "crlf"],
)
def test_read_tum_accepts_tabs_commas_and_runs_of_blanks(tmp_path: Path, line: str) -> None:
    traj = read_tum(write(tmp_path, line + "\n"))
    assert traj.stamps_s.tolist() == [1.0]
    assert traj.positions_xyz.tolist() == [[2.0, 3.0, 4.0]]


def test_read_tum_skips_blank_lines_comments_and_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.tum"
    path.write_bytes(b"\xef\xbb\xbf# header\n\n1 0 0 0 0 0 0 1\n\n# mid\n2 0 0 0 0 0 0 1\n")
    assert read_tum(path).stamps_s.tolist() == [1.0, 2.0]


def test_read_tum_names_line_and_count_when_a_row_has_too_few_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "# c\n1 0 0 0 0 0 0 1\n2 0 0 0 0 0 1\n")
    with pytest.raises(FormatError, match=r"traj\.tum, line 3: expected 8 columns .* got 7$"):
        read_tum(path)


def test_read_tum_names_line_when_a_row_has_too_many_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1 9\n")
    with pytest.raises(FormatError, match=r"line 2: expected 8 columns .* got 9"):
        read_tum(path)


def test_read_tum_names_line_column_and_text_of_a_field_that_is_no_number(tmp_path: Path) -> None:
    path = write(tmp_path, "1 0 0 0 0 0 0 1\n\n2 0 0y 0 0 0 0 1\n")
    with pytest.raises(
        FormatError,
        match=r"traj\.tum, line 3, column 3 \(y\): '0y' is not a number$",
    ):
        read_tum(path)


def test_read_tum_refuses_an_empty_field_between_commas(tmp_path: Path) -> None:
    path = write(tmp_path, "1,0,0,0,0,0,0,1\n2,0,,0,0,0,0,1,0\n")
    with pytest.raises(FormatError, match=r"line 2: empty field between commas"):
        read_tum(path)


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("2,0,,0,0,0,0,1", 3),
        ("2 0 0,,0 0 0 1", 4),  # blanks and commas mixed: the column was said to be 2
        ("2\t0 0 0 0,,0 0 1", 6),
        (",2 0 0 0 0 0 0 1", 1),
        ("2 0 0 0 0 0 0 1,", 9),
    ],
)
def test_an_empty_field_is_named_by_its_column(tmp_path: Path, line: str, column: int) -> None:
    """Columns are separated by any run of blanks or commas; the empty field's column
    counted the commas before it alone ("2 0 0,,0 0 0 1": column 2, not 4)."""
    path = write(tmp_path, f"1 0 0 0 0 0 0 1\n{line}\n")
    with pytest.raises(
        FormatError, match=rf"line 2: empty field between commas \(column {column}\)$"
    ):
        read_tum(path)


def test_read_tum_refuses_a_trailing_comma(tmp_path: Path) -> None:
    path = write(tmp_path, "1,0,0,0,0,0,0,1,\n")
    with pytest.raises(FormatError, match=r"line 1: empty field between commas"):
        read_tum(path)


def test_read_tum_refuses_a_file_without_rows(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"traj\.tum: no data rows \(expected 8 numbers a row"):
        read_tum(write(tmp_path, "# only a comment\n\n"))


def test_read_tum_refuses_binary_content(tmp_path: Path) -> None:
    path = tmp_path / "bin.tum"
    path.write_bytes(b"\x89\xff\x00\x01")
    with pytest.raises(FormatError, match=r"bin\.tum: not a text file"):
        read_tum(path)


def test_read_tum_raises_file_not_found_for_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"missing\.tum: no such file$"):
        read_tum(tmp_path / "missing.tum")


def test_read_tum_reads_nan_as_a_data_problem_not_a_format_error(tmp_path: Path) -> None:
    path = write(tmp_path, "1 0 0 0 0 0 0 1\n2 nan 0 0 0 0 0 1\n")
    with pytest.raises(FormatError, match=r"line 2: nan in field x .*`strict=True`"):
        read_tum(path, strict=True)


def _traj() -> PoseTrajectory:
    rng = np.random.default_rng(7)
    q = rng.normal(size=(50, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return PoseTrajectory(
        stamps_s=1.6e9 + np.cumsum(rng.uniform(0.01, 0.1, 50)),
        positions_xyz=rng.normal(size=(50, 3)) * 100,
        orientations_quat_xyzw=q,
        frame_id="map",
    )


def test_write_then_read_tum_gives_back_the_same_floats(tmp_path: Path) -> None:
    traj = _traj()
    out = write_tum(tmp_path / "out.tum", traj)
    back = read_tum(out)
    assert np.array_equal(back.stamps_s, traj.stamps_s)
    assert np.array_equal(back.positions_xyz, traj.positions_xyz)
    # A unit quaternion (norm 1 +- 2 ulps) is not divided by its norm again: the same bits.
    assert np.array_equal(back.orientations_quat_xyzw, traj.orientations_quat_xyzw)


def test_write_tum_refuses_to_overwrite_without_force_and_leaves_the_file(tmp_path: Path) -> None:
    target = write(tmp_path, "keep me\n", name="out.tum")
    with pytest.raises(OutputExistsError, match=r"out\.tum exists; pass `force=True`"):
        write_tum(target, _traj())
    assert target.read_text() == "keep me\n"
    write_tum(target, _traj(), force=True)
    assert len(read_tum(target)) == 50


def test_write_tum_output_is_readable_by_evo(tmp_path: Path) -> None:
    file_interface = pytest.importorskip("evo.tools.file_interface")
    traj = _traj()
    out = write_tum(tmp_path / "out.tum", traj)
    theirs = file_interface.read_tum_trajectory_file(str(out))
    assert np.array_equal(theirs.timestamps, traj.stamps_s)
    assert np.array_equal(theirs.positions_xyz, traj.positions_xyz)


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)


@settings(max_examples=60, deadline=None)
@given(
    # Steps of 10 us or more: a mean rate above 1 MHz is reported as implausible (clean.py).
    steps=st.lists(st.floats(min_value=1e-5, max_value=1e3), min_size=1, max_size=20),
    start=st.floats(min_value=-1e9, max_value=2e9),
    data=st.data(),
)
def test_tum_round_trip_keeps_every_float_for_any_trajectory(
    tmp_path_factory: pytest.TempPathFactory, steps: list[float], start: float, data: st.DataObject
) -> None:
    n = len(steps)
    stamps = start + np.cumsum(steps)
    if np.any(np.diff(stamps) <= 0):  # steps lost below the float spacing of start
        return
    xyz = np.array(data.draw(st.lists(st.tuples(finite, finite, finite), min_size=n, max_size=n)))
    raw = np.array(
        data.draw(
            st.lists(
                st.tuples(*[st.floats(min_value=-1, max_value=1)] * 4).filter(
                    lambda q: sum(v * v for v in q) > 0.1
                ),
                min_size=n,
                max_size=n,
            )
        )
    )
    quats = raw / np.linalg.norm(raw, axis=1, keepdims=True)
    traj = PoseTrajectory(stamps_s=stamps, positions_xyz=xyz, orientations_quat_xyzw=quats)
    out = write_tum(tmp_path_factory.mktemp("rt") / "t.tum", traj)
    back = read_tum(out)
    assert np.array_equal(back.stamps_s, traj.stamps_s)
    assert np.array_equal(back.positions_xyz, traj.positions_xyz)
    np.testing.assert_allclose(back.orientations_quat_xyzw, quats, rtol=0, atol=1e-15)


def _still(stamps: list[float]) -> PoseTrajectory:
    n = len(stamps)
    return PoseTrajectory(
        stamps_s=np.array(stamps),
        positions_xyz=np.arange(3.0 * n).reshape(n, 3),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
    )


@pytest.mark.parametrize(
    "stamps",
    [[0.0, 2e6, 4e6], [1e12, 1e12 + 1, 1e12 + 2], [-3e16, 0.0, 1e16]],
    ids=["2e6-apart", "1e12-and-more", "1e16-apart"],
)
def test_write_tum_stamps_far_apart_or_large_read_back_as_seconds(
    tmp_path: Path, stamps: list[float]
) -> None:
    """Integer stamps 2e6 s apart (or of 1e12 s) were read back as nanoseconds: 0, 2 ms, 4 ms."""
    traj = _still(stamps)
    out = write_tum(tmp_path / "far.tum", traj)
    assert out.read_text().splitlines()[0] == "# t[s] x y z qx qy qz qw"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = read_tum(out)
    assert np.array_equal(back.stamps_s, traj.stamps_s)
    assert np.array_equal(back.positions_xyz, traj.positions_xyz)
    # The header states seconds: it said 'stamps in a larger unit than the format's
    # (nanoseconds read as seconds?)' for one pose in 23 days, which the header denies.
    assert [str(w.message) for w in caught] == []
    assert np.array_equal(read_tum(out, strict=True).stamps_s, traj.stamps_s)  # was refused


@pytest.mark.parametrize("stamps", [[0.0, 2e6, 4e6], [0.0, 1e-9, 2e-9]], ids=["slow", "fast"])
def test_a_header_stating_seconds_silences_the_stamp_unit_guess(
    tmp_path: Path, stamps: list[float]
) -> None:
    """`# t[s]` over stamps 2e6 s apart warned 'nanoseconds read as seconds?' (1 ns apart:
    'seconds divided by 1e9?'), and strict=True refused the file write_tum had written;
    without the unit stated the guess stands."""
    rows = "".join(f"{t!r} 0 0 0 0 0 0 1\n" for t in stamps)
    stated = write(tmp_path, "# t[s] x y z qx qy qz qw\n" + rows)
    assert read_tum(stated, strict=True).stamps_s.tolist() == stamps
    bare = write(tmp_path, rows, name="bare.tum")
    with pytest.warns(DataWarning, match=r"nanoseconds|divided by 1e9"):
        read_tum(bare)


def test_a_file_of_an_earlier_release_with_stamps_2e6_apart_reads_as_nanoseconds(
    tmp_path: Path,
) -> None:
    # What write_tum wrote before it stated the unit: the header without `[s]`.
    path = write(tmp_path, "# t x y z qx qy qz qw\n0.0 0 0 0 0 0 0 1\n2000000.0 0 0 0 0 0 0 1\n")
    with pytest.warns(DataWarning, match=r"stamps read as nanoseconds and divided by 1e9"):
        back = read_tum(path)
    assert back.stamps_s.tolist() == [0.0, 0.002]


@settings(max_examples=40, deadline=None)
@given(
    start=st.integers(min_value=-(10**15), max_value=10**15),
    steps=st.lists(st.integers(min_value=1, max_value=10**14), min_size=1, max_size=10),
)
def test_tum_round_trip_keeps_integer_stamps_of_any_size(
    tmp_path_factory: pytest.TempPathFactory, start: int, steps: list[int]
) -> None:
    stamps = [float(start + sum(steps[:i])) for i in range(len(steps) + 1)]
    traj = _still(stamps)
    out = write_tum(tmp_path_factory.mktemp("rt") / "t.tum", traj)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = read_tum(out)
    assert np.array_equal(back.stamps_s, traj.stamps_s)
    assert all(isinstance(w.message, DataWarning) and not w.message.fixed for w in caught)


def test_a_header_stating_nanoseconds_is_taken_at_its_word(tmp_path: Path) -> None:
    """`# t[ns]` over integer stamps 1e6 apart (1 kHz as nanoseconds) read them as seconds,
    1e6 s apart, without a word (as seconds 1e-6 Hz, not below the rate the guess needs)."""
    rows = "".join(f"{k * 1_000_000} {k} 0 0 0 0 0 1\n" for k in range(3))
    path = write(tmp_path, "# t[ns] x y z qx qy qz qw\n" + rows)
    said = r"stamps read as nanoseconds and divided by 1e9 \(the header, line 1, states t\[ns\]\)"
    with pytest.warns(DataWarning, match=said):
        back = read_tum(path)
    assert back.stamps_s.tolist() == [0.0, 0.001, 0.002]
    with pytest.raises(FormatError, match=said):
        read_tum(path, strict=True)  # as nanoseconds found by their size or rate are
    assert read_tum(write(tmp_path, rows, name="bare.tum")).stamps_s.tolist() == [0.0, 1e6, 2e6]


def test_a_header_stating_nanoseconds_over_stamps_a_nanosecond_apart_says_the_rate(
    tmp_path: Path,
) -> None:
    # Integer seconds under a header that says nanoseconds: taken at its word, and the
    # rate that gives (1e9 Hz) is said too, so the wrong header shows.
    path = write(tmp_path, "# t[ns] x y z qx qy qz qw\n1 0 0 0 0 0 0 1\n2 1 0 0 0 0 0 1\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = read_tum(path)
    assert back.stamps_s.tolist() == [1e-9, 2e-9]
    said = [str(w.message) for w in caught]
    assert len(said) == 2
    assert "(the header, line 1, states t[ns])" in said[0]
    assert "1e+09 Hz on average (above 1 MHz)" in said[1]


def test_a_nanosecond_header_over_unix_microseconds_is_said_and_read_as_microseconds(
    tmp_path: Path,
) -> None:
    """`# t[ns]` over 1.6e15 (Unix microseconds, 2020-09-13) at 100 Hz read as nanoseconds
    gave 1.6e6 s at 100 kHz: 18.5 days after 1970 began, with a warning that only repeated
    the header. The date and the rate decide the unit, as without a header, and the one
    warning names the file, the header's line and both readings (refused by `strict`)."""
    rows = "".join(f"{1_600_000_000_000_000 + k * 10_000} {k} 0 0 0 0 0 1\n" for k in range(3))
    path = write(tmp_path, "# t[ns] x y z qx qy qz qw\n" + rows)
    said = (
        r"traj\.tum: stamps read as microseconds and divided by 1e6 \(the header, line 1, "
        r"states t\[ns\], but as nanoseconds they fall in 1970, as microseconds in 2020 "
        r"\(18\.5 days after 1970 began at 1e\+05 Hz, or at 100 Hz\)\)"
    )
    with pytest.warns(DataWarning, match=said) as caught:
        back = read_tum(path)
    assert len(caught) == 1
    assert back.stamps_s.tolist() == [1.6e9, 1.6e9 + 0.01, 1.6e9 + 0.02]
    with pytest.raises(FormatError, match=said):
        read_tum(path, strict=True)


@pytest.mark.parametrize(
    "start_ns",
    [
        1_200_000_000_000,  # 20 minutes after boot: milliseconds in 2008
        1_800_000_000_000,  # a simulation 30 minutes in: milliseconds in 2027
        1_600_000_000_000_000,  # 18.5 days after boot: microseconds in 2020
    ],
)
def test_a_nanosecond_header_over_nanoseconds_since_boot_is_believed(
    tmp_path: Path, start_ns: int
) -> None:
    """A clock since boot in nanoseconds, 16 to 68 minutes (or 11 to 47 days) in, is a
    2000-2100 date in milliseconds (microseconds): the date alone overruled `# t[ns]`,
    and 100 Hz read as 0.1 Hz or 1e-4 Hz. At a pose rate as nanoseconds the header is
    believed."""
    rows = "".join(f"{start_ns + k * 10_000_000} {k} 0 0 0 0 0 1\n" for k in range(3))
    path = write(tmp_path, "# t[ns] x y z qx qy qz qw\n" + rows)
    with pytest.warns(DataWarning, match=r"stamps read as nanoseconds and divided by 1e9 \(the"):
        back = read_tum(path)
    assert back.stamps_s.tolist() == [start_ns / 1e9 + k * 0.01 for k in range(3)]


def test_unix_microseconds_at_10_hz_under_a_nanosecond_header_are_said_in_both_readings(
    tmp_path: Path,
) -> None:
    """`# t[ns]` over 1305031102e6 + 1e5 k (Unix microseconds, 2011-05-10, 10 Hz) read as
    nanoseconds, 15.1 days after 1970 began at 10 kHz, a pose rate: the rate cannot tell
    them from a clock since boot, so the header is believed, and the one warning now
    names both readings (it only repeated the header)."""
    rows = "".join(f"{1_305_031_102_000_000 + k * 100_000} {k} 0 0 0 0 0 1\n" for k in range(3))
    path = write(tmp_path, "# t[ns] x y z qx qy qz qw\n" + rows)
    said = (
        r"stamps read as nanoseconds and divided by 1e9 \(the header, line 1, states t\[ns\], "
        r"but as nanoseconds they fall in 1970, as microseconds in 2011 \(15\.1 days after "
        r"1970 began at 1e\+04 Hz, or at 10 Hz\): the rate cannot tell a clock since boot "
        r"from Unix time, so the statement is believed\)"
    )
    with pytest.warns(DataWarning, match=said) as caught:
        back = read_tum(path)
    assert len(caught) == 1
    assert back.stamps_s.tolist() == [1305031.102, 1305031.1021, 1305031.1022]


def test_a_trajectopy_traj_file_is_read_by_its_fields_header() -> None:
    """trajectopy's own file (``#fields t,l,px,py,pz,qx,qy,qz,qw,vx,vy,vz``, written by
    trajectopy 5.1.2's ``Trajectory.to_file``: ``tests/data/make_trajectopy_traj_file.py``)
    was refused ("reorder the columns"): a trajectopy user's trajectories on disk are these.
    Its poses are the TUM file's it was made from, to its 9 printed decimals."""
    from pathlib import Path

    from robot_msgs.io import explain_format, read_trajectory

    data = Path(__file__).resolve().parents[1] / "data"
    path = data / "trajectopy_rgbdslam_head.traj"
    assert str(explain_format(path)) == (
        "tum (12 comma-separated columns, trajectopy's #fields header: t, px, py, pz, qx, qy, "
        "qz, qw read by name)"
    )
    traj = read_trajectory(path)
    source = np.loadtxt(
        data.parent.parent / "src" / "robot_msgs" / "examples" / "fr1_xyz" / "rgbdslam.tum"
    )[:50]
    np.testing.assert_allclose(traj.stamps_s, source[:, 0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(traj.positions_xyz, source[:, 1:4], rtol=0, atol=1e-9)
    quat = source[:, 4:8] / np.linalg.norm(source[:, 4:8], axis=1, keepdims=True)
    same = np.abs(np.sum(traj.orientations_quat_xyzw * quat, axis=1))  # q and -q: one rotation
    np.testing.assert_allclose(same, 1.0, rtol=0, atol=1e-9)


def test_a_trajectopy_file_without_a_quaternion_is_refused_naming_its_fields(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path,
        "#fields t,px,py,pz,ex,ey,ez\n#rot_unit deg\n1.0,0,0,0,10,20,30\n2.0,1,0,0,10,20,30\n",
        name="a.traj",
    )
    with pytest.raises(
        FormatError,
        match=r"a\.traj, line 1: trajectopy's #fields header names t, px, py, pz, ex, ey, ez: "
        r"the readers need the quaternion fields qx, qy, qz, qw",
    ):
        read_tum(path)


def test_a_trajectopy_header_naming_a_field_twice_is_refused(tmp_path: Path) -> None:
    """``#fields t,t,px,...`` was read by its first ``t`` without a word: which column
    holds the stamps is not known, so the file is refused naming the field and the line."""
    path = write(
        tmp_path,
        "#epsg 0\n#fields t,t,px,py,pz,qx,qy,qz,qw\n1.0,5.0,0,0,0,0,0,0,1\n2.0,6.0,1,0,0,0,0,0,1\n",
        name="a.traj",
    )
    with pytest.raises(
        FormatError,
        match=r"a\.traj, line 2: trajectopy's #fields header: expected each of t, px, py, pz, "
        r"qx, qy, qz, qw once, got t more than once in t, t, px, py, pz, qx, qy, qz, qw",
    ):
        read_tum(path)


@pytest.mark.parametrize(
    ("names", "count"),
    [("t,l,px,py,pz,qx,qy,qz,qw", 9), ("t,l,px,py,pz,qx,qy,qz,qw,vx,vy,vz,ax,ay", 14)],
    ids=["fewer", "more"],
)
def test_a_trajectopy_header_and_rows_of_other_widths_are_refused_naming_the_line(
    tmp_path: Path, names: str, count: int
) -> None:
    """A ``#fields`` line of another count than the rows' 12 columns was no header at all
    (it names fewer or more columns than the data) and the 12 numbers a line were read
    as a KITTI file: "line 3: the 3x3 block is a reflection". The line says what the
    columns are: the mismatch is said, naming the ``#fields`` line."""
    row = "1.0,0,0,0,0,0,0,0,1,0,0,0\n2.0,1,1,0,0,0,0,0,1,0,0,0\n"
    from robot_msgs.io import read_trajectory

    path = write(tmp_path, f"#epsg 0\n#fields {names}\n{row}", name="a.traj")
    said = (
        r"a\.traj, line 2: trajectopy's #fields header: expected as many fields as the rows "
        rf"have columns \(12\), got {count}: t, l, px"
    )
    with pytest.raises(FormatError, match=said):
        read_trajectory(path)


def test_a_trajectopy_header_with_a_tab_after_fields_is_read_by_name(tmp_path: Path) -> None:
    """``#fields<TAB>t,...`` was taken for a generic header ("reorder the columns"); the
    fields here are in another order than trajectopy's (qw first), read by name."""
    path = write(
        tmp_path,
        "#fields\tqw,qx,qy,qz,t,px,py,pz\n1,0,0,0,1.5,7,8,9\n0,0,0,1,2.5,1,2,3\n",
        name="a.traj",
    )
    traj = read_tum(path)
    assert traj.stamps_s.tolist() == [1.5, 2.5]
    assert traj.positions_xyz.tolist() == [[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]
    assert traj.orientations_quat_xyzw.tolist() == [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]]


def test_a_blank_separated_fields_comment_is_no_trajectopy_header(tmp_path: Path) -> None:
    """``# fields t x y z qx qy qz qw`` over a TUM file is a person's comment, not
    trajectopy's comma-separated ``#fields`` line: the file is read as TUM."""
    path = write(tmp_path, "# fields t x y z qx qy qz qw\n1.0 0 0 0 0 0 0 1\n2.0 1 0 0 0 0 0 1\n")
    assert read_tum(path).stamps_s.tolist() == [1.0, 2.0]


# trajectopy 5.1.2 reads second 1.0 of GPS week 2000, offset 0.5 s, as 1525564783.5: by hand,
# 1.0 + 2000 * 604800 - 18 (its leap seconds) + 315964800 (1980-01-06 in Unix seconds) + 0.5.
@pytest.mark.parametrize(
    ("lines", "stamps"),
    [
        ("#time_offset 100\n", [101.0, 102.25]),
        ("#time_format gps_sow\n#gps_week 2000\n#time_offset 0.5\n", [1525564783.5, 1525564784.75]),
        ("#time_format unix\n#delimiter ','\n", [1.0, 2.25]),
    ],
    ids=["offset", "gps", "unix"],
)
def test_trajectopy_time_headers_shift_the_stamps_as_trajectopy_reads_them(
    tmp_path: Path, lines: str, stamps: list[float]
) -> None:
    """``#time_offset`` and ``#time_format gps_sow`` were read in silence as Unix seconds."""
    rows = "1.0,0,0,0,0,0,0,1\n2.25,1,0,0,0,0,0,1\n"
    path = write(tmp_path, f"{lines}#fields t,px,py,pz,qx,qy,qz,qw\n{rows}", name="a.traj")
    assert read_tum(path).stamps_s.tolist() == stamps


#: trajectopy 5.1.2's reading of small .traj files (make_trajectopy_header_reference.py).
_TRAJECTOPY_READS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "trajectopy_header_reference.json").read_text(
        encoding="utf-8"
    )
)


def _as_trajectopy_reads(tmp_path: Path, case: str) -> None:
    want = _TRAJECTOPY_READS[case]
    traj = read_tum(write(tmp_path, want["text"], name=f"{case}.traj"))
    assert traj.stamps_s.tolist() == pytest.approx(want["stamps_s"], rel=0, abs=1e-9)
    assert traj.positions_xyz.tolist() == want["positions_xyz"]


def test_a_time_offset_after_the_first_rows_applies_to_all_as_trajectopy_reads_it(
    tmp_path: Path,
) -> None:
    """trajectopy takes every line starting with # as its header, the last of each key
    winning: #time_offset 100 above the rows and 0.25 between them read 1.25, 2.25 and
    3.25 s there, 101, 102 and 103 s here (the later line a comment)."""
    _as_trajectopy_reads(tmp_path, "time_offset_after_rows")


def test_a_semicolon_delimiter_reads_as_trajectopy_reads_it(tmp_path: Path) -> None:
    """``#delimiter ';'`` was refused (the readers took commas, blanks and tabs); trajectopy
    splits its rows at the semicolons: 1.0 and 2.5 s, the second at (1, 2, 3)."""
    _as_trajectopy_reads(tmp_path, "semicolon")


@pytest.mark.parametrize("case", ["datetime_utc", "datetime_gps_format", "datetime_two_columns"])
def test_dated_stamps_read_as_trajectopy_reads_them(tmp_path: Path, case: str) -> None:
    """``#time_format datetime`` was refused by name; trajectopy reads 2011-05-10
    12:38:22.16 as 1305031102.16 s (UTC), ``#datetime_timezone GPS`` 18 s less, and its
    date and time in two ``t`` columns joined by a blank."""
    _as_trajectopy_reads(tmp_path, case)


_DATED = "#time_format datetime\n#fields t,px,py,pz,qx,qy,qz,qw\n"
_ROW = "2011-05-10 12:38:22.16,0,0,0,0,0,0,1\n"


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (_ROW + "2011-13-10 12:38:22.16,0,0,0,0,0,0,1\n", r"line 4, column 1: '2011-13-10 12"),
        (_ROW + "2011-02-29 12:38:22.16,0,0,0,0,0,0,1\n", r"line 4, column 1: '2011-02-29 12"),
        (_ROW + "2011-05-10 24:00:00.0,0,0,0,0,0,0,1\n", r"line 4, column 1: '2011-05-10 24"),
        (_ROW + "2011-05-10 12:38:60.0,0,0,0,0,0,0,1\n", r"line 4, column 1: '2011-05-10 12"),
        (_ROW + "\n1.5,0,0,0,0,0,0,1\n", r"line 5, column 1: '1.5' is no date and time"),
        ("2011-05-10 12:38:22.1234567,0,0,0,0,0,0,1\n", r"line 3, column 1: '2011-05-10 12"),
        ("2011-05-10 12:38:22.16x,0,0,0,0,0,0,1\n", r"line 3, column 1: '2011-05-10 12"),
        (_ROW * 4000 + "2011-05-10 12:38:2.,0,0,0,0,0,0,1\n", r"line 4003, column 1: '2011"),
        (_ROW + "\uff12011-05-10 12:38:22.16,0,0,0,0,0,0,1\n", r"line 4, column 1: '\uff12011"),
    ],
    ids=["month-13", "feb-29", "hour-24", "second-60", "a-number", "7-digits", "junk",
         "beyond-the-head", "fullwidth-digit"],
)  # fmt: skip
def test_a_row_not_dated_as_the_format_says_is_refused_naming_it(
    tmp_path: Path, rows: str, said: str
) -> None:
    """Each fails strptime in trajectopy (month 13, 29 February 2011, hour 24, second 60,
    7 digits of a second, text after it); a number among dated rows would be read as
    seconds beside them. One error naming line and column 1."""
    path = write(tmp_path, _DATED + rows, name="a.traj")
    with pytest.raises(FormatError, match=rf"a\.traj, {said}"):
        read_tum(path)


def test_a_datetime_timezone_other_than_utc_and_gps_is_read_as_utc_with_a_warning(
    tmp_path: Path,
) -> None:
    """trajectopy 5.1.2 warns of it and reads UTC; so here, the line named."""
    text = "#time_format datetime\n#datetime_timezone CET\n#fields t,px,py,pz,qx,qy,qz,qw\n"
    path = write(tmp_path, text + _ROW, name="a.traj")
    with pytest.warns(DataWarning, match=r"a\.traj, line 2: trajectopy's #datetime_timezone CET"):
        assert read_tum(path).stamps_s.tolist() == [1305031102.16]
    with pytest.raises(FormatError, match=r"line 2: trajectopy's #datetime_timezone CET"):
        read_tum(path, strict=True)


def test_dated_stamps_with_a_delimiter_a_zone_and_an_offset_add_up(tmp_path: Path) -> None:
    """The reference's GPS reading (18 s less than UTC) with ``#delimiter ';'`` and
    ``#time_offset 0.5`` after the rows: 1305031102.16 - 18 + 0.5 s, by hand."""
    text = "#delimiter ';'\n#time_format datetime\n#datetime_timezone GPS\n"
    text += "#fields t,px,py,pz,qx,qy,qz,qw\n2011-05-10 12:38:22.16;1;2;3;0;0;0;1\n"
    traj = read_tum(write(tmp_path, text + "#time_offset 0.5\n", name="a.traj"))
    assert traj.stamps_s.tolist() == pytest.approx([1305031084.66], rel=0, abs=1e-9)
    assert traj.positions_xyz.tolist() == [[1.0, 2.0, 3.0]]


def test_two_t_columns_need_one_blank_in_the_format_to_join_them(tmp_path: Path) -> None:
    """trajectopy joins date and time with one blank; a format of two does not say
    which one joins them."""
    text = "#time_format datetime\n#datetime_format %Y %m %d %H:%M:%S\n"
    text += "#fields t,t,px,py,pz,qx,qy,qz,qw\n2011 05 10,12:38:22,0,0,0,0,0,0,1\n"
    with pytest.raises(FormatError, match=r"a\.traj, line 3: trajectopy's #fields t,t"):
        read_tum(write(tmp_path, text, name="a.traj"))


@settings(max_examples=60, deadline=None)
@given(
    when=st.datetimes(),  # years 1 to 9999: microseconds past 2**53 after 2255
    fmt=st.sampled_from(["%Y-%m-%d %H:%M:%S.%f", "%d.%m.%Y %H:%M:%S", "%m/%d/%Y%H%M%S.%f"]),
)
def test_a_dated_stamp_reads_as_pythons_timestamp_of_it(
    tmp_path_factory: pytest.TempPathFactory, when: datetime, fmt: str
) -> None:
    """Law: the seconds read are Python's ``datetime.timestamp()`` (UTC) of the text
    ``strftime`` writes and ``strptime`` reads back (trajectopy's reading), exactly."""
    text = when.strftime(fmt.replace("%Y", f"{when.year:04d}"))
    want = datetime.strptime(text, fmt).replace(tzinfo=timezone.utc).timestamp()
    header = f"#time_format datetime\n#datetime_format {fmt}\n#fields t,px,py,pz,qx,qy,qz,qw\n"
    path = write(tmp_path_factory.mktemp("d"), f"{header}{text},0,0,0,0,0,0,1\n", name="a.traj")
    assert read_tum(path).stamps_s.tolist() == [want]


@settings(max_examples=40, deadline=None)
@given(
    delimiter=st.sampled_from([";", "|", ":", "/", "\u00a7", "\t", " "]),
    values=st.lists(
        st.tuples(*[st.floats(min_value=-1e6, max_value=1e6)] * 3), min_size=1, max_size=8
    ),
    blank=st.booleans(),
)
def test_a_delimited_file_reads_as_the_same_rows_with_commas(
    tmp_path_factory: pytest.TempPathFactory,
    delimiter: str,
    values: list[tuple[float, float, float]],
    blank: bool,
) -> None:
    """Law: rows written with trajectopy's ``#delimiter X`` (blanks around it or not) read
    to the same floats as the rows written with commas."""
    rows = [[1.0 + k, *xyz, 0.0, 0.0, 0.0, 1.0] for k, xyz in enumerate(values)]
    folder = tmp_path_factory.mktemp("delimiter")
    files = []
    for name, sep in (("comma.traj", ","), ("other.traj", delimiter)):
        joint = f" {sep} " if blank else sep
        text = f"#delimiter '{sep}'\n#fields t,px,py,pz,qx,qy,qz,qw\n"
        text += "".join(joint.join(repr(v) for v in row) + "\n" for row in rows)
        files.append(write(folder, text, name=name))
    want, got = read_tum(files[0]), read_tum(files[1])
    np.testing.assert_array_equal(got.stamps_s, want.stamps_s)
    np.testing.assert_array_equal(got.positions_xyz, want.positions_xyz)


def test_a_bad_field_between_delimiters_is_refused_naming_line_and_column(
    tmp_path: Path,
) -> None:
    """A row of ``#delimiter '|'`` with a field that is no number: one error, its place."""
    text = "#delimiter '|'\n#fields t,px,py,pz,qx,qy,qz,qw\n1.0|0|0|0|0|0|0|1\n2.0|1|y|0|0|0|0|1\n"
    with pytest.raises(FormatError, match=r"a\.traj, line 4, column 3 \(py\): 'y' is not a number"):
        read_tum(write(tmp_path, text, name="a.traj"))


@pytest.mark.parametrize("row", ["2.0;1;0;0;0;0;0,1", "2.0;0,5;0;0;0;0;0;1"])
def test_a_comma_in_a_row_of_a_semicolon_file_is_refused_naming_its_line(
    tmp_path: Path, row: str
) -> None:
    """A comma there is not a separator for trajectopy (its field "0,1" is no number); it
    was one here, the first row read as 8 numbers, (0, 0, 1) its quaternion's last."""
    text = f"#delimiter ';'\n#fields t,px,py,pz,qx,qy,qz,qw\n1.0;0;0;0;0;0;0;1\n{row}\n"
    with pytest.raises(FormatError, match=r"a\.traj, line 4: a comma in a row of a file whose "):
        read_tum(write(tmp_path, text, name="a.traj"))


def test_an_indented_comment_with_a_comma_in_a_semicolon_file_reads(tmp_path: Path) -> None:
    """A ``#`` line after blanks is a comment to the readers (and to pandas, trajectopy's
    reader); its comma was taken for one in a row and the file refused (a review).
    Expected: the two rows, 1.0 and 2.0 s, the second at x = 1."""
    text = (
        "#delimiter ';'\n#fields t,px,py,pz,qx,qy,qz,qw\n1.0;0;0;0;0;0;0;1\n"
        "  # a, b\n2.0;1;0;0;0;0;0;1\n"
    )
    traj = read_tum(write(tmp_path, text, name="a.traj"))
    assert traj.stamps_s.tolist() == [1.0, 2.0]
    assert traj.positions_xyz[:, 0].tolist() == [0.0, 1.0]


@pytest.mark.parametrize("row", ["2.0 1;0;0;0;0;0;1", "2.0;1;0;0;0;0;0\t1"])
def test_a_blank_between_fields_of_a_semicolon_row_is_refused_naming_its_line(
    tmp_path: Path, row: str
) -> None:
    """trajectopy reads "2.0 1" as one field (sep ';') and fails, and fails split at
    blanks too; it was read here as two numbers, the row (2, 1, 0, 0) its stamp and x."""
    text = f"#delimiter ';'\n#fields t,px,py,pz,qx,qy,qz,qw\n1.0;0;0;0;0;0;0;1\n{row}\n"
    with pytest.raises(FormatError, match=r"a\.traj, line 4: a blank between two fields"):
        read_tum(write(tmp_path, text, name="a.traj"))


def test_blank_rows_in_a_semicolon_file_read_as_trajectopy_falls_back_to_blanks(
    tmp_path: Path,
) -> None:
    """Rows with no ';' trajectopy reads split at blanks (its one-column fallback); and
    blanks around a ';' are no second separator: 1.0 and 2.0 s, the second at x = 1."""
    text = "#delimiter ';'\n#fields t,px,py,pz,qx,qy,qz,qw\n1.0 0 0 0 0 0 0 1\n2.0 1 0 0 0 0 0 1\n"
    assert read_tum(write(tmp_path, text, name="a.traj")).stamps_s.tolist() == [1.0, 2.0]
    text = "#delimiter ';'\n#fields t,px,py,pz,qx,qy,qz,qw\n1.0 ; 0 ; 0;0;0;0;0;1\n"
    text += "2.0 ;1 ;0; 0;0;0;0;1 \n"
    traj = read_tum(write(tmp_path, text, name="b.traj"))
    assert traj.positions_xyz[:, 0].tolist() == [0.0, 1.0]


@pytest.mark.parametrize("below", ["# end\n", "#delimiter ;\n", ""])
def test_cnspys_csv_takes_no_trajectopy_keys_above_or_below_its_rows(
    tmp_path: Path, below: str
) -> None:
    """cnspy's CSV (its pose by name, here reordered) reads no trajectopy keys: with a
    ``#time_offset 100`` comment above its header and any ``#`` line below its rows it
    was read 101, 102 s (1, 2 s without the line below), and a ``#delimiter ;`` comment
    below them refused the file (a review). Expected: its ``t`` column as written."""
    rows = "1.0,0,0,0,1,1,2,3\n2.0,0,0,0,1,1,2,3\n"
    path = write(
        tmp_path, "#time_offset 100\nt,qx,qy,qz,qw,tx,ty,tz\n" + rows + below, name="a.csv"
    )
    traj = read_tum(path)
    np.testing.assert_array_equal(traj.stamps_s, [1.0, 2.0])
    np.testing.assert_array_equal(traj.positions_xyz, [[1, 2, 3], [1, 2, 3]])


def test_a_fields_line_after_the_first_rows_is_refused_naming_it(tmp_path: Path) -> None:
    """trajectopy would read the rows above it by its columns too; refused, not ignored."""
    text = "#fields t,px,py,pz,qx,qy,qz,qw\n1,0,0,0,0,0,0,1\n#fields t,px,py,pz,qw,qx,qy,qz\n"
    path = write(tmp_path, text + "2,1,0,0,1,0,0,0\n", name="a.traj")
    with pytest.raises(FormatError, match=r"a\.traj, line 3: trajectopy's #fields header after"):
        read_tum(path)


def test_key_lines_among_many_comments_below_the_rows_are_found_on_their_lines(
    tmp_path: Path,
) -> None:
    """The ``#`` lines below the rows are now found by one regular expression for the key
    lines, not a Python loop over each comment (300k comments read in 3.0 s): the keys
    among comments (naming "fields" and "time_offset" in words, no key) still apply
    and are said on their own lines. By hand: the header is line 1, then rows 1-3 s on
    lines 2, 103 and 204, each after 100 comment lines; #time_offset 0.5 on line 305."""
    comments = "".join(f"# fields x y z; see time_offset {k}\n" for k in range(100))
    rows = [f"{t},{t},0,0,0,0,0,1\n" for t in (1, 2, 3)]
    text = "#fields t,px,py,pz,qx,qy,qz,qw\n" + comments.join(rows) + comments
    traj = read_tum(write(tmp_path, text + "#time_offset 0.5\n", name="a.traj"))
    np.testing.assert_array_equal(traj.stamps_s, [1.5, 2.5, 3.5])
    np.testing.assert_array_equal(traj.positions_xyz[:, 0], [1, 2, 3])
    later = write(tmp_path, text + "#fields t,px,py,pz,qw,qx,qy,qz\n", name="b.traj")
    with pytest.raises(FormatError, match=r"b\.traj, line 305: trajectopy's #fields header after"):
        read_tum(later)
    bad = write(tmp_path, text + "#time_offset soon\n" + comments, name="c.traj")
    with pytest.raises(FormatError, match=r"c\.traj, line 305: trajectopy's #time_offset soon"):
        read_tum(bad)


@pytest.mark.parametrize(
    ("lines", "rows", "said"),
    [
        (
            "#time_format datetime\n#datetime_format %y-%m-%d %H:%M:%S\n",
            "11-05-10 12:38:22,0,0,0,0,0,0,1\n11-05-10 12:38:23,1,0,0,0,0,0,1\n",
            r"line 2: trajectopy's #datetime_format %y-%m-%d %H:%M:%S: strptime directive %y",
        ),
        (
            "#time_format datetime\n#datetime_format %Y-%m-%d %H:%M:%S%\n",
            "2011-05-10 12:38:22,0,0,0,0,0,0,1\n2011-05-10 12:38:23,1,0,0,0,0,0,1\n",
            r"line 2: trajectopy's #datetime_format %Y-%m-%d %H:%M:%S%: strptime directive %:",
        ),
        (
            "#name a\n#delimiter ';;'\n",
            "1.0;;0;;0;;0;;0;;0;;0;;1\n2.0;;1;;0;;0;;0;;0;;0;;1\n",
            r"line 2: trajectopy's #delimiter ';;': expected one character in quotes",
        ),
        (
            "#delimiter '\"'\n",
            '1.0"0"0"0"0"0"0"1\n2.0"1"0"0"0"0"0"1\n',
            r"line 1: trajectopy's #delimiter '\"': expected one character in quotes",
        ),
        (
            "#delimiter '#'\n",
            "1.0#0#0#0#0#0#0#1\n",
            r"line 1: trajectopy's #delimiter '#': expected one character in quotes",
        ),
        (
            "#time_format gps_sow\n",
            "1.0,0,0,0,0,0,0,1\n2.0,1,0,0,0,0,0,1\n",
            r"line 1: trajectopy's #time_format gps_sow: expected its GPS week as #gps_week WEEK",
        ),
    ],
    ids=[
        "datetime-short-year",
        "datetime-stray-percent",
        "delimiter-of-two",
        "delimiter-quote",
        "delimiter-comment",
        "gps-without-week",
    ],
)
def test_trajectopy_time_and_delimiter_headers_not_read_are_refused_naming_them(
    tmp_path: Path, lines: str, rows: str, said: str
) -> None:
    """They were refused as a count of columns ("expected as many fields as the rows have
    columns (9)"), or, a GPS second of week, read in silence as a Unix second."""
    path = write(tmp_path, f"{lines}#fields t,px,py,pz,qx,qy,qz,qw\n{rows}", name="a.traj")
    with pytest.raises(FormatError, match=rf"a\.traj, {said}"):
        read_tum(path)


# cnspy's CSV files with covariances -----------------------------------------------------------

#: The ROS ``PoseWithCovariance`` row-major indices cnspy's ``ROSMsg2CSVLine`` writes after
#: the pose: ``to_PoseWithCov`` the upper triangle, ``to_PosOrientWithCov`` the upper
#: triangles of the position and the orientation blocks (cnspy-rosbag2csv 0.2.6).
_CNSPY_POSE_WITH_COV = (0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 14, 15, 16, 17, 21, 22, 23, 28, 29, 35)
_CNSPY_POS_ORIENT_WITH_COV = (0, 1, 2, 7, 8, 14, 21, 22, 23, 28, 29, 35)


@pytest.mark.parametrize(
    ("header", "cells"),
    [
        (
            (
                "t,tx,ty,tz,qx,qy,qz,qw,Txx,Txy,Txz,Txa,Txb,Txc,Tyy,Tyz,Tya,Tyb,Tyc,Tzz,Tza,Tzb,"
                "Tzc,Taa,Tab,Tac,Tbb,Tbc,Tcc"
            ),
            _CNSPY_POSE_WITH_COV,
        ),
        (
            "t,tx,ty,tz,qx,qy,qz,qw,pxx,pxy,pxz,pyy,pyz,pzz,qrr,qrp,qry,qpp,qpy,qyy",
            _CNSPY_POS_ORIENT_WITH_COV,
        ),
    ],
    ids=["PoseWithCov", "PosOrientWithCov"],
)
def test_cnspys_csv_with_covariances_is_read_with_them(
    tmp_path: Path, header: str, cells: tuple[int, ...]
) -> None:
    """cnspy's ``PoseWithCov`` (29 columns) and ``PosOrientWithCov`` (20) files, what its
    ROSBag2CSV writes of PoseWithCovarianceStamped topics, were refused ("the rows have 29
    columns (TUM has 8)"); read, each value lands in its ROS cell and the one mirrored."""
    values = [0.5 + k for k in range(len(cells))]
    rows = [f"{t},1,2,3,0,0,0,1," + ",".join(str(v * t) for v in values) for t in (1.0, 2.0)]
    path = tmp_path / "est.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert detect_format(path) == "tum"
    traj = read_tum(path)
    want = np.zeros((2, 36))
    for k, cell in enumerate(cells):
        row, col = divmod(cell, 6)
        want[:, cell] = want[:, col * 6 + row] = [values[k] * 1.0, values[k] * 2.0]
    assert traj.covariance_6x6 is not None
    np.testing.assert_array_equal(traj.covariance_6x6.reshape(2, 36), want)
    np.testing.assert_array_equal(traj.positions_xyz, [[1, 2, 3], [1, 2, 3]])


def test_cnspys_csv_with_all_zero_covariances_reads_none(tmp_path: Path) -> None:
    """cnspy's ROSBag2CSV writes zeros as the covariance of a message without one: all zero
    on every row is ROS's 'unknown', read as none, as the bag readers do."""
    header = "t,tx,ty,tz,qx,qy,qz,qw,pxx,pxy,pxz,pyy,pyz,pzz,qrr,qrp,qry,qpp,qpy,qyy"
    rows = [f"{t},1,2,3,0,0,0,1" + ",0" * 12 for t in (1, 2)]
    path = tmp_path / "est.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert read_tum(path).covariance_6x6 is None


@pytest.mark.parametrize(("value", "shown"), [("nan", "nan"), ("-1", "-1.0"), ("inf", "inf")])
def test_cnspys_csv_with_a_bad_variance_is_refused_naming_line_and_column(
    tmp_path: Path, value: str, shown: str
) -> None:
    """A NaN or negative variance was refused as ``covariance_6x6[0]`` of the trajectory,
    neither line nor column named."""
    header = "t,tx,ty,tz,qx,qy,qz,qw,pxx,pxy,pxz,pyy,pyz,pzz,qrr,qrp,qry,qpp,qpy,qyy"
    rows = [f"{t},1,2,3,0,0,0,1,1,0,0,1,0,1,1,0,0,1,0,1" for t in (1, 2, 3)]
    rows[1] = rows[1].replace(",1,0,1,1,0,0,1,0,1", f",1,0,{value},1,0,0,1,0,1", 1)
    path = tmp_path / "est.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=rf"est\.csv, line 3, column 14 \(pzz\): '?{shown}'? is"):
        read_tum(path)


@pytest.mark.parametrize(
    "week",
    ["\u00b2", "9" * 400, "9" * 5000],
    ids=["superscript-two", "past-float", "past-int-digits"],
)
def test_a_gps_week_that_is_no_week_is_refused_naming_its_line(tmp_path: Path, week: str) -> None:
    """``#gps_week ²`` passed ``str.isdigit`` and crashed ``int()`` (ValueError); 400
    digits overflowed the float of its seconds (OverflowError), 5000 digits Python's
    integer limit (ValueError): a reader of untrusted files raises only FormatError."""
    head = f"#time_format gps_sow\n#gps_week {week}\n#fields t,px,py,pz,qx,qy,qz,qw\n"
    path = write(tmp_path, head + "1.0,0,0,0,0,0,0,1\n2.0,1,0,0,0,0,0,1\n", name="a.traj")
    with pytest.raises(
        FormatError,
        match=r"a\.traj, line 2: trajectopy.s #time_format gps_sow: expected its GPS week",
    ):
        read_tum(path)


def test_cnspys_csv_with_all_zero_covariances_says_so_as_the_bag_readers_do(
    tmp_path: Path,
) -> None:
    """All zero on every row was read as none in silence, where a bag topic's all-zero
    covariances leave a reading note (kind ``unknown_covariances``) that NEES names: NEES
    on such a file said 'read them from PoseWithCovarianceStamped or Odometry topics'."""
    header = "#t,tx,ty,tz,qx,qy,qz,qw,pxx,pxy,pxz,pyy,pyz,pzz,qrr,qrp,qry,qpp,qpy,qyy"
    rows = [f"{t},1,2,3,0,0,0,1" + ",0" * 12 for t in (1, 2)]
    path = tmp_path / "est.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    with reading_notes() as notes:
        assert read_tum(path).covariance_6x6 is None
    assert [(str(n), n.kind) for n in notes] == [
        (
            f"{path}: covariances all zero on every row (ROS's 'unknown'): read as none",
            "unknown_covariances",
        )
    ]


def test_cnspys_csv_with_some_all_zero_covariances_reads_none_with_a_warning(
    tmp_path: Path,
) -> None:
    """A row without a covariance (all zero) among rows with one was kept as a zero matrix,
    which NEES then refused as 'a singular one at matched pose 0'; a bag topic with such a
    message is read without covariances, with a warning: one rule for both."""
    header = "#t,tx,ty,tz,qx,qy,qz,qw,pxx,pxy,pxz,pyy,pyz,pzz,qrr,qrp,qry,qpp,qpy,qyy"
    cov = ",1,0,0,1,0,1,1,0,0,1,0,1"
    rows = [f"{t},1,2,3,0,0,0,1" + (",0" * 12 if t == 1 else cov) for t in (1, 2, 3)]
    path = tmp_path / "est.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.warns(DataWarning, match=r"1 of 3 rows have an all-zero \(unknown\) covariance"):
        assert read_tum(path).covariance_6x6 is None


@pytest.mark.parametrize(
    "header",
    [
        "#t,tx,ty,tz,qx,qy,qz,qw,pxx,pxy,pxz,pyy,pyz,pzz,qrr,qrp,qry,qpp,qpy,qyy,type1,R_small_theta",
        (
            "#t,tx,ty,tz,qx,qy,qz,qw,Txx,Txy,Txz,Txa,Txb,Txc,Tyy,Tyz,Tya,Tyb,Tyc,Tzz,Tza,Tzb,"
            "Tzc,Taa,Tab,Tac,Tbb,Tbc,Tcc,type5,q_small_theta"
        ),
    ],
    ids=["PosOrientWithCov", "PoseWithCov"],
)
def test_cnspys_csv_with_its_error_definition_is_refused_naming_it(
    tmp_path: Path, header: str
) -> None:
    """cnspy's spatial formats may end the header with the covariance's error definition
    (``type1`` ... ``type6``: local or global, ``R_small_theta``, ``q_small_theta`` ...),
    names without columns (cnspy_spatial_csv_formats' sample ID1-pose-est-cov-type1-
    thetaR.csv). The header, naming more columns than the rows have, was passed over and
    the rows refused as TUM ('expected 8 columns (t x y z qx qy qz qw), got 20'); read
    under ROS's definition (errors about the world's axes) a type1 (body-frame) covariance
    would give a wrong NEES. Refused naming the definition."""
    width = len(header.split(",")) - 2
    rows = [f"{t},1,2,3,0,0,0,1" + ",1" * (width - 8) for t in (1, 2)]
    path = tmp_path / "est.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    kind, definition = header.split(",")[-2:]
    with pytest.raises(
        FormatError,
        match=rf"est\.csv, line 1: cnspy's header names its covariance's error "
        rf"definition \({kind}, {definition}\)",
    ):
        read_tum(path)


_CNSPY_HEADERS = {
    "PoseStamped": "t,tx,ty,tz,qx,qy,qz,qw",
    "PoseWithCov": (
        "t,tx,ty,tz,qx,qy,qz,qw,Txx,Txy,Txz,Txa,Txb,Txc,Tyy,Tyz,Tya,Tyb,Tyc,Tzz,Tza,Tzb,"
        "Tzc,Taa,Tab,Tac,Tbb,Tbc,Tcc"
    ),
    "PosOrientWithCov": "t,tx,ty,tz,qx,qy,qz,qw,pxx,pxy,pxz,pyy,pyz,pzz,qrr,qrp,qry,qpp,qpy,qyy",
}


@settings(max_examples=30, deadline=None)
@given(data=st.data(), fmt=st.sampled_from(sorted(_CNSPY_HEADERS)))
def test_cnspys_csv_reads_its_columns_by_name_in_any_order(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, fmt: str
) -> None:
    """cnspy reads its CSV files by the header's names (pandas' columns; its format is the
    set of names), so its columns may come in any order; robot_msgs read them only in
    cnspy's order: ``tz,...,tx`` reordered was refused ('names the quaternion ... reorder
    the columns') or, a covariance column moved, refused as 29 columns of TUM. Law: a
    file with its columns reordered (header and rows alike) reads as the one in order."""
    names = _CNSPY_HEADERS[fmt].split(",")
    order = data.draw(st.permutations(range(len(names))))
    rows = [[t, 1.0 + t, 2.0, 3.0 * t, 0.0, 0.6, 0.0, 0.8] for t in (1.0, 2.0, 3.0)]
    for k, row in enumerate(rows):  # variances 1 + k, other cells k / 10 (SPD)
        row += [1.0 + k if n[1] == n[2] else k / 10 for n in names[8:]]
    folder = tmp_path_factory.mktemp("cnspy")
    in_order, moved = folder / "in_order.csv", folder / "moved.csv"
    for path, cols in ((in_order, range(len(names))), (moved, order)):
        lines = [",".join(names[i] for i in cols)]
        lines += [",".join(repr(row[i]) for i in cols) for row in rows]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    want, got = read_tum(in_order), read_tum(moved)
    assert got == want
    assert (got.covariance_6x6 is None) == (fmt == "PoseStamped")
    if got.covariance_6x6 is not None:
        np.testing.assert_array_equal(got.covariance_6x6, want.covariance_6x6)


@pytest.mark.parametrize(
    ("fmt", "extra", "values"),
    [
        ("PoseTypedStamped", "scale,est_err_type", "1.0,type1"),
        ("PoseWithCovTyped", "est_err_type,err_representation", "type6,theta_so3"),
        ("PosOrientWithCovTyped", "est_err_type,err_representation", "type5,theta_R"),
    ],
)
def test_cnspys_typed_csv_is_refused_naming_its_format(
    tmp_path: Path, fmt: str, extra: str, values: str
) -> None:
    """cnspy's Typed formats end each row with text (its error type and representation,
    ``PoseTypedStamped`` a scale first): refused as "'type1' is not a number", the format
    not named. Refused naming it and the untyped format to write instead, by ``read_tum``
    and by the detection alike."""
    base = _CNSPY_HEADERS[{"PoseTypedStamped": "PoseStamped"}.get(fmt, fmt.replace("Typed", ""))]
    width = len(base.split(","))
    rows = [f"{t},1,2,3,0,0,0,1" + ",1" * (width - 8) + f",{values}" for t in (1, 2)]
    path = tmp_path / "est.csv"
    path.write_text(f"{base},{extra}\n" + "\n".join(rows) + "\n", encoding="utf-8")
    want = rf"est\.csv, line 1: cnspy's {fmt} header: its columns {extra.replace(',', ', ')}"
    with pytest.raises(FormatError, match=want):
        read_tum(path)
    with pytest.raises(FormatError, match=want):
        detect_format(path)


def test_cnspys_pose_error_csv_is_refused_naming_its_format(tmp_path: Path) -> None:
    """cnspy's PoseErrorStamped (header as cnspy_spatial_csv_formats' CSVSpatialFormatType
    gives it: t, nu_x..nu_z, theta_x..theta_z, est_err_type, err_representation) holds
    errors, no poses: it was refused as "'type5' is not a number" (seen on the old
    code), the format not named."""
    header = "t,nu_x,nu_y,nu_z,theta_x,theta_y,theta_z,est_err_type,err_representation"
    rows = [f"{t},0.01,0.02,0.03,0.001,0.002,0.003,type5,theta_R" for t in (1, 2)]
    path = tmp_path / "err.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    want = r"err\.csv, line 1: cnspy's PoseErrorStamped header: the file holds pose errors"
    with pytest.raises(FormatError, match=want):
        read_tum(path)
    with pytest.raises(FormatError, match=want):
        detect_format(path)
