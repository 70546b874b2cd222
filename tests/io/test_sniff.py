"""Format detection from evidence: header names, stamp magnitude, columns; what it says it saw."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, FormatError
from robot_msgs.io import explain_format, read_euroc, read_trajectory, read_tum
from robot_msgs.io.sniff import dated_unit, nanosecond_evidence, read_head, seconds_evidence

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from robot_msgs.trajectory import PoseTrajectory

# Three poses 0.5 s apart, a 90 degree turn about z on the last: (x, y, z, w) = (0, 0, s, s).
S = math.sqrt(0.5)
STAMPS_NS = [1305031102_160407000, 1305031102_660407000, 1305031103_160407000]
POSES = [(1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0), (1.5, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0),
         (2.0, 2.0, 3.0, 0.0, 0.0, S, S)]  # fmt: skip
TUM_HEADER = "timestamp tx ty tz qx qy qz qw"
EUROC_HEADER = (
    "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z []"
)


def tum_rows(*, ns: bool = False, sep: str = " ") -> str:
    rows = []
    for t, (x, y, z, qx, qy, qz, qw) in zip(STAMPS_NS, POSES, strict=True):
        stamp = str(t) if ns else repr(t / 1e9)
        rows.append(sep.join([stamp, *(repr(v) for v in (x, y, z, qx, qy, qz, qw))]))
    return "\n".join(rows) + "\n"


def euroc_rows(*, seconds: bool = False, extra: int = 0) -> str:
    rows = []
    for t, (x, y, z, qx, qy, qz, qw) in zip(STAMPS_NS, POSES, strict=True):
        stamp = repr(t / 1e9) if seconds else str(t)
        values = [stamp, *(repr(v) for v in (x, y, z, qw, qx, qy, qz))] + ["0.0"] * extra
        rows.append(",".join(values))
    return "\n".join(rows) + "\n"


def write(tmp_path: Path, text: str, name: str = "traj.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def quiet(fn: Callable[..., PoseTrajectory], *args: Any, **kwargs: Any) -> PoseTrajectory:
    """``fn(*args, **kwargs)`` with any warning an error: the reading is clean."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, **kwargs)


def test_a_header_without_hash_naming_qx_first_is_tum(tmp_path: Path) -> None:
    path = write(tmp_path, TUM_HEADER + "\n" + tum_rows())
    assert str(explain_format(path)) == "tum (8 space-separated columns, header names qx first)"
    traj = quiet(read_trajectory, path)
    assert traj.orientations_quat_xyzw[2].tolist() == [0.0, 0.0, S, S]
    assert traj.stamps_s.tolist() == [t / 1e9 for t in STAMPS_NS]


def test_a_tum_comment_header_is_read_for_its_names(tmp_path: Path) -> None:
    text = "# ground truth trajectory\n# file: 'x.bag'\n# " + TUM_HEADER + "\n" + tum_rows()
    assert str(explain_format(write(tmp_path, text))) == (
        "tum (8 space-separated columns, header names qx first)"
    )


def test_a_comment_of_another_width_is_no_header(tmp_path: Path) -> None:
    # rgbdslam.tum's first line: 7 words over 8 columns.
    text = "# TF Coordinate Frame ID: /openni_rgb_optical_frame(data: /x)\n" + tum_rows()
    head = read_head(write(tmp_path, text))
    assert head.header is None
    assert str(explain_format(tmp_path / "traj.txt")) == "tum (8 space-separated columns)"


def test_a_euroc_header_naming_qw_first_is_euroc_whatever_the_separator(tmp_path: Path) -> None:
    path = write(tmp_path, EUROC_HEADER + "\n" + euroc_rows(), name="data.csv")
    assert str(explain_format(path)) == "euroc (8 comma-separated columns, header names qw first)"
    spaced = write(tmp_path, "t px py pz qw qx qy qz\n" + euroc_rows().replace(",", " "))
    assert str(explain_format(spaced)) == "euroc (8 space-separated columns, header names qw first)"
    assert quiet(read_trajectory, spaced).orientations_quat_xyzw[2].tolist() == [0.0, 0.0, S, S]


@pytest.mark.parametrize(
    "names",
    ["qx", "q_x", "q.x", "quat_x", "q_RS_x []", "orientation.x", "pose.orientation.x"],
)
def test_quaternion_names_in_their_common_spellings_are_recognised(
    tmp_path: Path, names: str
) -> None:
    cols = ["t", "x", "y", "z"] + [_spell(names, c) for c in "wxyz"]
    path = write(tmp_path, ",".join(cols) + "\n" + euroc_rows())
    assert explain_format(path).reason == "8 comma-separated columns, header names qw first"


def _spell(name: str, component: str) -> str:
    head, _, tail = name.rpartition("x")
    return head + component + tail


def test_a_tum_file_with_nanosecond_stamps_is_tum_read_as_nanoseconds(tmp_path: Path) -> None:
    seconds = quiet(read_tum, write(tmp_path, tum_rows(), name="s.tum"))
    path = write(tmp_path, tum_rows(ns=True), name="ns.tum")
    assert str(explain_format(path)) == "tum (8 space-separated columns, integer nanosecond stamps)"
    with pytest.warns(
        DataWarning,
        match=r"ns\.tum: stamps read as nanoseconds and divided by 1e9 \(integer stamps up to "
        r"1\.31e\+18: .*\); TUM stamps are seconds: write them in seconds",
    ):
        traj = read_trajectory(path)
    # Not the EuRoC misreading: the quaternions are x, y, z, w, the stamps seconds.
    assert traj.orientations_quat_xyzw.tolist() == seconds.orientations_quat_xyzw.tolist()
    np.testing.assert_allclose(traj.stamps_s, seconds.stamps_s, rtol=0, atol=1e-6)
    with pytest.raises(FormatError, match=r"ns\.tum: stamps read as nanoseconds.*`strict=True`"):
        read_trajectory(path, strict=True)


@pytest.mark.parametrize("rate_hz", [30.0, 10.0, 1.0])
@pytest.mark.parametrize(("unit", "scale"), [("microseconds", 10**6), ("milliseconds", 10**3)])
def test_integer_unix_micro_and_milliseconds_are_read_in_their_unit(
    tmp_path: Path, unit: str, scale: int, rate_hz: float
) -> None:
    """Unix microseconds (1.3e15) were read as nanoseconds: a 30 Hz run squeezed into
    27 ms, 15 days after 1970. Their rate alone misread 10 Hz and 1 Hz files (a review):
    as that unit they are a date in 2011."""
    # A run from 1305031102 s (2011): stamps by hand, written as integers.
    seconds = 1305031102 + np.arange(40) / rate_hz
    ticks = np.round(seconds * scale).astype(np.int64)
    text = "".join(f"{t} {i} 0 0 0 0 0 1\n" for i, t in enumerate(ticks))
    path = write(tmp_path, text, name="u.tum")
    divisor = f"1e{len(str(scale)) - 1}"
    with pytest.warns(
        DataWarning,
        match=rf"u\.tum: stamps read as {unit} and divided by {divisor} \(integer stamps up to "
        rf"1\.31e\+\d\d: 1e12 or more, .*; as {unit} a date in 2011\); TUM stamps are seconds",
    ):
        traj = read_trajectory(path)
    assert traj.stamps_s.tolist() == (ticks / scale).tolist()
    # Half a tick of rounding, plus float64 spacing at 1.3e9 s (2.4e-7 s).
    np.testing.assert_allclose(traj.stamps_s, seconds, rtol=0, atol=0.5 / scale + 5e-7)


def test_relative_nanosecond_stamps_are_recognised_by_their_rate(tmp_path: Path) -> None:
    # 0, 5 ms, 10 ms in ns: as seconds one pose per 58 days, as nanoseconds 200 Hz.
    text = "".join(f"{i * 5_000_000} {i} 0 0 0 0 0 1\n" for i in range(3))
    with pytest.warns(DataWarning, match=r"integer stamps 5e\+06 apart on average: as seconds"):
        traj = read_tum(write(tmp_path, text))
    assert traj.stamps_s.tolist() == [0.0, 0.005, 0.01]


def test_a_tum_file_read_as_euroc_is_refused_not_divided(tmp_path: Path) -> None:
    path = write(tmp_path, tum_rows(), name="t.tum")
    with pytest.raises(
        FormatError,
        match=r"t\.tum: stamps are not EuRoC's integer nanoseconds \(stamp 1305031102\.160407 "
        r"has a fraction at line 1\), .*choose the format \(`format='tum'`\)",
    ):
        read_trajectory(path, format="euroc")


def test_a_tum_header_read_as_euroc_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "# " + TUM_HEADER + "\n" + tum_rows(ns=True), name="t.tum")
    with pytest.raises(
        FormatError,
        match=r"t\.tum, line 1: the header names qx before qw .*choose the format \(`format='tum'`\)",
    ):
        read_euroc(path)


def test_a_euroc_header_read_as_tum_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, EUROC_HEADER + "\n" + euroc_rows(), name="data.csv")
    with pytest.raises(
        FormatError,
        match=r"data\.csv, line 1: the header names qw first .*choose the format \(`format='euroc'`\)",
    ):
        read_trajectory(path, format="tum")


def test_a_euroc_file_whose_stamps_are_seconds_is_read_as_seconds_with_a_warning(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, EUROC_HEADER + "\n" + euroc_rows(seconds=True), name="data.csv")
    assert explain_format(path).fmt == "euroc"
    with pytest.warns(
        DataWarning,
        match=r"data\.csv: stamps read as seconds, not divided by 1e9 \(stamp 1305031102\.160407 "
        r"has a fraction at line 2\); EuRoC stamps are integer nanoseconds",
    ):
        traj = read_trajectory(path)
    assert traj.stamps_s.tolist() == [t / 1e9 for t in STAMPS_NS]
    assert traj.orientations_quat_xyzw[2].tolist() == [0.0, 0.0, S, S]


def test_euroc_integer_seconds_are_recognised_by_their_rate(tmp_path: Path) -> None:
    text = "timestamp,px,py,pz,qw,qx,qy,qz\n" + "".join(f"{i},0,0,0,1,0,0,0\n" for i in (1, 2, 3))
    with pytest.warns(DataWarning, match=r"as nanoseconds 1e\+09 Hz, as seconds 1 Hz"):
        assert read_euroc(write(tmp_path, text)).stamps_s.tolist() == [1.0, 2.0, 3.0]


def test_eight_comma_columns_of_nanoseconds_without_a_header_are_refused_as_ambiguous(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, euroc_rows(), name="x.csv")
    with pytest.raises(
        FormatError,
        match=r"x\.csv: cannot tell the format: 8 comma-separated columns with integer "
        r"nanosecond stamps and no header naming the columns could be EuRoC \(qw first\) or "
        r"TUM \(qw last\); choose the format \(`format='euroc'` or `format='tum'`\)",
    ):
        explain_format(path)


def test_eight_comma_columns_of_seconds_without_a_header_are_tum(tmp_path: Path) -> None:
    path = write(tmp_path, tum_rows(sep=","), name="x.csv")
    assert str(explain_format(path)) == "tum (8 comma-separated columns, stamps in seconds)"


def test_more_than_eight_columns_are_euroc_and_twelve_of_nanoseconds_are_not_kitti(
    tmp_path: Path,
) -> None:
    wide = write(tmp_path, euroc_rows(extra=9), name="a.csv")
    assert (
        str(explain_format(wide))
        == "euroc (17 comma-separated columns, more than TUM's 8, integer nanosecond stamps)"
    )
    twelve = write(tmp_path, euroc_rows(extra=4), name="b.csv")
    assert explain_format(twelve).fmt == "euroc"
    kitti = write(tmp_path, "1 0 0 5 0 1 0 6 0 0 1 7\n", name="c.txt")
    assert str(explain_format(kitti)) == "kitti (12 space-separated columns)"


def test_a_header_naming_qx_first_over_seventeen_columns_is_refused(tmp_path: Path) -> None:
    names = "t,x,y,z,qx,qy,qz,qw," + ",".join(f"v{i}" for i in range(9))
    path = write(tmp_path, names + "\n" + euroc_rows(extra=9), name="a.csv")
    with pytest.raises(
        FormatError,
        match=r"a\.csv: cannot tell the format: line 1's header names qx first \(TUM's order\) "
        r"but the rows have 17 columns \(TUM has 8\); choose the format",
    ):
        explain_format(path)


def test_a_header_with_the_quaternion_elsewhere_is_refused_naming_the_columns(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, "t qw qx qy qz x y z\n" + tum_rows(), name="a.txt")
    with pytest.raises(
        FormatError,
        match=r"a\.txt, line 1: the header names the quaternion qx \(column 3\), qy \(column 4\), "
        r"qz \(column 5\), qw \(column 2\); .*reorder the columns",
    ):
        explain_format(path)
    with pytest.raises(FormatError, match=r"reorder the columns"):
        read_tum(path)


def test_bags_are_known_by_magic_bytes_and_say_so(tmp_path: Path) -> None:
    path = tmp_path / "a.dat"
    path.write_bytes(b"#ROSBAG V2.0\n")
    assert str(explain_format(path)) == "bag (magic bytes '#ROSBAG V2.0')"
    (tmp_path / "bag").mkdir()
    (tmp_path / "bag" / "metadata.yaml").write_text("x: 1\n")
    assert str(explain_format(tmp_path / "bag")) == "bag2 (a ROS 2 bag folder, metadata.yaml)"


def test_stamp_unit_evidence_by_hand() -> None:
    assert nanosecond_evidence(np.array([1.0, 2.0, 3.0])) is None  # 1 Hz seconds
    assert nanosecond_evidence(np.array([np.nan, 2e12])) is not None  # NaN ignored
    assert nanosecond_evidence(np.array([0.0, 1e3])) is None  # 1 mHz: plausible seconds
    assert seconds_evidence(np.array([0.0, 1e3, 2e3])) is None  # 1 MHz: plausible ns
    assert seconds_evidence(np.array([np.nan, 1.5])) == ("stamp 1.5 has a fraction", 1)


def test_the_real_data_is_detected_with_its_evidence(evo_data: Path) -> None:
    expected = {
        "freiburg1_xyz-groundtruth.txt": "tum (8 space-separated columns, header names qx first)",
        "freiburg1_xyz-rgbdslam.txt": "tum (8 space-separated columns)",
        "V102.txt": "tum (8 space-separated columns)",
        "V102_groundtruth.csv": "euroc (17 comma-separated columns, header names qw first)",
        "KITTI_00_gt.txt": "kitti (12 space-separated columns)",
        "georeferenced.tum": "tum (8 space-separated columns)",
    }
    assert {name: str(explain_format(evo_data / name)) for name in expected} == expected


@pytest.mark.parametrize(
    "header",
    [
        "#timestamp [ns],px,py,pz,qw,qx,qy,qz",
        "#timestamp[ns],px,py,pz,qw,qx,qy,qz",
        "# timestamp [ns], px, py, pz, qw, qx, qy, qz",
        "timestamp [ns],px,py,pz,qw,qx,qy,qz",
        "#timestamp [ns] px py pz qw qx qy qz",
        "timestamp [ns] px py pz qw qx qy qz",
        "#timestamp [ns] p_RS_R_x [m] p_RS_R_y [m] p_RS_R_z [m] q_RS_w [] q_RS_x [] q_RS_y [] q_RS_z []",
        "#timestamp\t(ns)\tpx\tpy\tpz\tqw\tqx\tqy\tqz",
    ],
)
def test_a_nanosecond_header_is_recognised_however_its_unit_is_spaced(
    tmp_path: Path, header: str
) -> None:
    """`#timestamp [ns] px ...` split at blanks made `[ns]` a column of its own: nine names
    over eight columns, so no header, no unit and no quaternion order (the 8-column file was
    then refused as ambiguous); a unit in brackets belongs to the name before it."""
    path = write(tmp_path, header + "\n" + euroc_rows().replace(",", " "), name="data.csv")
    head = read_head(path)
    assert head.header is not None
    assert (head.header.stamp_unit, head.header.quaternion) == ("ns", "wxyz")
    assert quiet(read_trajectory, path).stamps_s.tolist() == [t / 1e9 for t in STAMPS_NS]


def test_a_lone_carriage_return_after_one_field_is_said_of_one_field(tmp_path: Path) -> None:
    """A first line `5\\r  ` was said to hold "(1 fields)"."""
    path = tmp_path / "a.txt"
    path.write_bytes(b"5\r  \n1 2 3 4 5 6 7 8\n")
    assert "only blanks after it on the line (1 field);" in read_head(path).bad


@pytest.mark.parametrize(
    ("seconds", "year"),
    [(946_684_800, 2000), (978_307_199, 2000), (4_102_444_799, 2099), (1_600_000_000, 2020)],
)
def test_dated_unit_names_the_calendar_year_at_new_year(seconds: int, year: int) -> None:
    """2000-01-01 00:00 UTC (the first Unix date read) in microseconds was said to be in
    1999 by the mean Gregorian year, and 2099-12-31 23:59:59 in 2100 (EuRoC's and TUM's
    `[ns]` warnings name it)."""
    stamps = np.array([seconds * 1e6, seconds * 1e6 + 1e4])
    assert dated_unit(stamps) == ("microseconds", 1e6, year)


def test_head_numbers_are_the_rows_up_to_the_first_of_another_width(tmp_path: Path) -> None:
    # By hand: blank, comment-only and comma-only lines are skipped, a trailing comment is
    # cut, commas and tabs separate; the line of three numbers ends the rows.
    file = tmp_path / "a.txt"
    body = "1 2 3 4\n\n# note\n5,6\t7 8 # cut\n ,\n-1e2 .5 NaN inf\n9 9 9\n1 1 1 1\n"
    file.write_text(body)
    numbers = read_head(file).numbers
    assert numbers.shape == (3, 4)
    assert numbers[:2].tolist() == [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]
    assert numbers[2, :2].tolist() == [-100.0, 0.5]
    assert math.isnan(numbers[2, 2])
    assert numbers[2, 3] == math.inf


def test_head_numbers_stop_at_two_hundred_rows(tmp_path: Path) -> None:
    file = tmp_path / "a.txt"
    file.write_text("".join(f"{k} 0\n\n" for k in range(300)))
    numbers = read_head(file).numbers
    assert numbers.shape == (200, 2)
    assert numbers[-1].tolist() == [199.0, 0.0]


def test_head_rows_bounds_the_numbers_read_but_not_the_header(tmp_path: Path) -> None:
    file = tmp_path / "a.txt"
    file.write_text("# t x y z qx qy qz qw\n" + "".join(f"{k} 0 0 0 0 0 0 1\n" for k in range(5)))
    whole, first = read_head(file), read_head(file, rows=1)
    assert whole.numbers.shape == (5, 8)
    assert first.numbers.tolist() == [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]
    assert (first.header, first.columns, first.first_line) == (whole.header, 8, 2)


def test_a_head_line_ending_in_a_long_digit_run_ends_the_rows(tmp_path: Path) -> None:
    # Trying every split of the digits, sniffing this head took minutes.
    file = tmp_path / "a.txt"
    file.write_text("1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 " + "9" * 60_000 + "x\n")
    assert read_head(file).numbers.tolist() == [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]


@pytest.mark.parametrize("word", ["\u0131nf", "\u0130nf", "\u0130NF", "nan\u0131"])
def test_an_infinity_spelt_with_a_turkish_i_is_refused_as_not_a_number(
    tmp_path: Path, word: str
) -> None:
    """Unicode case folding matched the dotless "ınf" and "İnf" as a number; float() then
    refused it with a ValueError, which escaped the reader (exit 70, "a bug")."""
    path = tmp_path / "t.tum"
    path.write_text(f"1 {word} 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 1, column 2: .* is not a number \(U\+01"):
        read_trajectory(path)


@pytest.mark.parametrize("word", ["\u0131nf", "\u0130NF"])
def test_an_infinity_spelt_with_a_turkish_i_past_the_first_row_ends_the_head_rows(
    tmp_path: Path, word: str
) -> None:
    """The head's block match embeds the number pattern without its ASCII flag: Unicode
    case folding took "ınf" on line 2 as a number, and float() refused it (exit 70)."""
    path = tmp_path / "t.tum"
    path.write_text(f"1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 {word}\n", encoding="utf-8")
    assert read_head(path).numbers.tolist() == [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]
    with pytest.raises(FormatError, match=r"line 2, column 8 \(qw\): .* is not a number \(U\+01"):
        read_trajectory(path)


def test_the_stamp_unit_guess_reads_the_stamp_column_a_header_names(tmp_path: Path) -> None:
    """A header read by name (cnspy's ``t`` in column 4) had explain_format judge the
    units of column 1, tx: integer nanosecond stamps in ``t`` went unsaid, and positions
    of 1.3e18 were said to be "integer nanosecond stamps" (read_tum reads ``t``)."""
    ns = [1305031102160407000 + k * 33_000_000 for k in range(3)]
    rows_ns = "".join(f"{k * 0.1},0.0,0.0,{t},0,0,0,1\n" for k, t in enumerate(ns))
    stamps_ns = write(tmp_path, "tx,ty,tz,t,qx,qy,qz,qw\n" + rows_ns, name="ns.csv")
    cnspy = "cnspy's header: t, tx, ty, tz, qx, qy, qz, qw read by name"
    assert str(explain_format(stamps_ns)) == (
        f"tum (8 comma-separated columns, {cnspy}, integer nanosecond stamps)"
    )
    rows_s = "".join(f"{t},0.0,0.0,{t / 1e9!r},0,0,0,1\n" for t in ns)
    stamps_s = write(tmp_path, "tx,ty,tz,t,qx,qy,qz,qw\n" + rows_s, name="s.csv")
    assert str(explain_format(stamps_s)) == f"tum (8 comma-separated columns, {cnspy})"
