"""read_trajectory: format from extension, magic bytes or content; overrides; examples."""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, FormatError
from robot_msgs.io import (
    FORMATS,
    detect_format,
    example_path,
    geo_origin_of,
    list_examples,
    read_trajectory,
    resolve_path,
    write_trajectory,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from robot_msgs.trajectory import PoseTrajectory

TUM = "# t x y z qx qy qz qw\n1 1 2 3 0 0 0 1\n2 4 5 6 0 0 0 1\n"
KITTI = "1 0 0 1 0 1 0 2 0 0 1 3\n1 0 0 4 0 1 0 5 0 0 1 6\n"
NS = 1403715524907143168
EUROC = f"#timestamp,px,py,pz,qw,qx,qy,qz\n{NS},1,2,3,1,0,0,0\n{NS + 10**9},4,5,6,1,0,0,0\n"


@pytest.mark.parametrize(
    ("name", "text", "fmt"),
    [
        ("a.txt", TUM, "tum"),
        ("a.tum", TUM, "tum"),
        ("a.txt", KITTI, "kitti"),
        ("a.txt", EUROC, "euroc"),
        ("a.csv", EUROC.replace("#", ""), "euroc"),
        ("a.csv", TUM.replace(" ", ","), "tum"),
        ("a.dat", f"{NS} 1 2 3 1 0 0 0 0 0 0\n", "euroc"),
    ],
)
def test_detect_format_reads_the_first_data_line(
    tmp_path: Path, name: str, text: str, fmt: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert detect_format(path) == fmt


@pytest.mark.parametrize(
    ("name", "data", "fmt"),
    [
        ("a.bag", b"", "bag"),
        ("a.db3", b"", "bag2"),
        ("a.mcap", b"", "mcap"),
        ("a.dat", b"#ROSBAG V2.0\n", "bag"),
        ("a.dat", b"SQLite format 3\x00", "bag2"),
        ("a.dat", b"\x89MCAP0\r\n", "mcap"),
    ],
)
def test_detect_format_knows_bags_by_extension_or_magic_bytes(
    tmp_path: Path, name: str, data: bytes, fmt: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert detect_format(path) == fmt


def test_detect_format_takes_a_folder_with_metadata_for_a_ros2_bag(tmp_path: Path) -> None:
    (tmp_path / "metadata.yaml").write_text("rosbag2_bagfile_information: {}\n")
    assert detect_format(tmp_path) == "bag2"


def test_detect_format_says_a_plain_folder_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError, match=rf"{tmp_path}: is a directory, not a trajectory"):
        detect_format(tmp_path)


def test_detect_format_explains_a_line_of_unexpected_width(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("1 2 3\n")
    with pytest.raises(
        FormatError,
        match=r"a\.txt: cannot tell the format: line 1 has 3 numbers .*choose the format \(`format=",
    ):
        detect_format(path)


def test_detect_format_says_a_file_without_data_rows_has_none(tmp_path: Path) -> None:
    # It advised choosing a format, which only led to the reader's "no data rows" (a review).
    path = tmp_path / "a.txt"
    for text, what in (("", "only comments"), ("# nothing\n\n", "only comments"),
                       ("t x y z qx qy qz qw\n", "only comments and a header")):  # fmt: skip
        path.write_text(text)
        with pytest.raises(
            FormatError,
            match=rf"^{re.escape(str(path))}: no data rows \(the file is empty or "
            rf"holds {what}\)$",
        ):
            detect_format(path)


def test_read_trajectory_dispatches_on_the_detected_format(tmp_path: Path) -> None:
    for name, text in (("t.txt", TUM), ("k.txt", KITTI), ("e.csv", EUROC)):
        path = tmp_path / name
        path.write_text(text)
        traj = read_trajectory(path)
        assert traj.positions_xyz.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert read_trajectory(tmp_path / "e.csv").stamps_s.tolist() == [NS / 1e9, (NS + 10**9) / 1e9]
    assert read_trajectory(tmp_path / "k.txt").stamps_s.tolist() == [0.0, 1.0]


def test_read_trajectory_format_can_be_forced(tmp_path: Path) -> None:
    path = tmp_path / "pose.dat"
    # Two KITTI poses: a turn of atan2(0.8, 0.6) about z, then the identity.
    path.write_text("0.6 -0.8 0 5 0.8 0.6 0 0 0 0 1 7\n1 0 0 5 0 1 0 0 0 0 1 7\n")
    assert detect_format(path) == "kitti"
    # As EuRoC: t, p = (r12, r13, tx), q = (w, x, y, z) = the second row (a unit vector),
    # 4 extra columns; the stamps have fractions, so they are not divided by 1e9.
    with pytest.warns(DataWarning, match=r"pose\.dat: stamps read as seconds, not divided by 1e9"):
        traj = read_trajectory(path, format="euroc")
    assert traj.stamps_s.tolist() == [0.6, 1.0]
    assert traj.positions_xyz.tolist() == [[-0.8, 0.0, 5.0], [0.0, 0.0, 5.0]]
    assert traj.orientations_quat_xyzw.tolist() == [[0.6, 0.0, 0.0, 0.8], [1.0, 0.0, 0.0, 0.0]]


@pytest.mark.parametrize(
    ("text", "given", "said"),
    [
        (KITTI, "tum", (r", got 12; it reads as kitti \(12 space-separated columns\): choose "
                        r"`format='kitti'` or leave the format to detection$")),
        (TUM, "kitti", (r", got 8; it reads as tum \(8 space-separated columns, header names "
                        r"qx first\): choose `format='tum'`")),
        (TUM, "lla", r"expected 4 columns \(t lat lon alt\), got 8; it reads as tum "),
    ],
)  # fmt: skip
def test_a_format_given_that_the_content_contradicts_is_answered_with_the_detected_one(
    tmp_path: Path, text: str, given: str, said: str
) -> None:
    """A KITTI file read with ``--format tum`` was told "expected 8 columns, got 12" and no
    more: the reader's own detection names the format the file has, so the error says it.
    ``geo_origin_of`` reads an ``lla`` file first (REF's first fix), and says it too."""
    path = tmp_path / "poses.txt"
    path.write_text(text)
    with pytest.raises(FormatError, match=said):
        read_trajectory(path, format=given)
    if given == "lla":
        with pytest.raises(FormatError, match=said):
            geo_origin_of(path, format=given)


def test_a_bad_line_in_the_format_given_and_detected_gets_no_other_format(tmp_path: Path) -> None:
    path = tmp_path / "poses.txt"
    path.write_text(TUM + "3 7 8 oops 0 0 0 1\n")
    with pytest.raises(FormatError, match=r"'oops' is not a number") as caught:
        read_trajectory(path, format="tum")
    assert "reads as" not in str(caught.value)


def test_read_trajectory_passes_the_times_file_to_kitti(tmp_path: Path) -> None:
    (tmp_path / "k.txt").write_text(KITTI)
    (tmp_path / "times.txt").write_text("0.5\n0.75\n")
    traj = read_trajectory(tmp_path / "k.txt", times_path=tmp_path / "times.txt")
    assert traj.stamps_s.tolist() == [0.5, 0.75]


def test_read_trajectory_refuses_options_the_format_does_not_use(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text(TUM)
    with pytest.raises(FormatError, match=r"a times file is only used with KITTI files, not tum"):
        read_trajectory(path, times_path=path)
    with pytest.raises(FormatError, match=r"a topic is only used with bags, not tum files"):
        read_trajectory(path, topic="/odom")
    with pytest.raises(
        FormatError,
        match=r"unknown format 'csv'; expected one of tum, kitti, euroc, lla, bag, bag2, mcap",
    ):
        read_trajectory(path, format="csv")
    assert FORMATS == ("tum", "kitti", "euroc", "lla", "bag", "bag2", "mcap")


def test_read_trajectory_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"none\.txt: no such file$"):
        read_trajectory(tmp_path / "none.txt")
    with pytest.raises(FileNotFoundError, match=r"none\.txt: no such file"):
        read_trajectory(tmp_path / "none.txt", format="tum")


#: 8 comma-separated columns, integer nanosecond stamps, no header: EuRoC (qw first) or TUM
#: (qw last), refused unless the format is given.
EITHER = f"{NS},1,2,3,0.6,0.8,0,0\n{NS + 10**9},4,5,6,0.6,0.8,0,0\n"
DEPRECATED = r"^`fmt=` is deprecated: give the format as `format=`$"


def test_read_trajectory_reads_the_format_given_as_format(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text(EITHER)
    with pytest.raises(FormatError, match=r"could be EuRoC \(qw first\) or TUM \(qw last\)"):
        read_trajectory(path)
    traj = read_trajectory(path, format="euroc")
    assert traj.stamps_s.tolist() == [NS / 1e9, (NS + 10**9) / 1e9]
    assert traj.positions_xyz.tolist() == [[1, 2, 3], [4, 5, 6]]
    # EuRoC's w, x, y, z = 0.6, 0.8, 0, 0 is x, y, z, w = 0.8, 0, 0, 0.6.
    assert traj.orientations_quat_xyzw.tolist() == [[0.8, 0, 0, 0.6]] * 2


def test_read_trajectory_still_reads_fmt_the_old_name_of_format_with_a_warning(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.csv"
    path.write_text(EITHER)
    with pytest.warns(DeprecationWarning, match=DEPRECATED) as caught:
        old = read_trajectory(path, fmt="euroc")
    assert [w.filename for w in caught] == [__file__]  # the caller's line, not the library's
    new = read_trajectory(path, format="euroc")
    assert old.stamps_s.tolist() == new.stamps_s.tolist()
    assert old.positions_xyz.tolist() == new.positions_xyz.tolist()
    assert old.orientations_quat_xyzw.tolist() == new.orientations_quat_xyzw.tolist()


def test_the_format_given_under_both_names_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text(EITHER)
    both = r"^give the format once, as `format=` \(`fmt=` is its deprecated old name\)$"
    with pytest.raises(TypeError, match=both):
        read_trajectory(path, format="euroc", fmt="euroc")
    with pytest.raises(TypeError, match=both):
        geo_origin_of(path, format="lla", fmt="lla")


def test_geo_origin_of_takes_the_format_as_format_and_fmt_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "fix.txt"  # 4 columns, t lat lon alt: not detected without the format
    path.write_text("0 47.5 8.25 400\n1 47.5 8.26 401\n")
    with pytest.raises(FormatError, match=r"or `format='lla'` for t lat lon alt"):
        geo_origin_of(path)
    assert geo_origin_of(path, format="lla") == (47.5, 8.25, 400.0)
    with pytest.warns(DeprecationWarning, match=DEPRECATED) as caught:
        assert geo_origin_of(path, fmt="lla") == (47.5, 8.25, 400.0)
    assert [w.filename for w in caught] == [__file__]


def test_examples_are_listed_and_resolve_to_files() -> None:
    assert list_examples() == ("fr1_xyz/groundtruth.tum", "fr1_xyz/rgbdslam.tum")
    for name in list_examples():
        assert example_path(name).is_file()
        assert resolve_path(f"example:{name}") == example_path(name)


def test_example_paths_refuse_unknown_names_and_escapes() -> None:
    with pytest.raises(
        FileNotFoundError,
        match=r"no example 'nope.tum'; examples: fr1_xyz/groundtruth.tum, fr1_xyz/rgbdslam.tum",
    ):
        example_path("nope.tum")
    with pytest.raises(FileNotFoundError, match="no example"):
        example_path("../io/__init__.py")


def test_shipped_examples_read_to_the_poses_of_their_lines() -> None:
    # Counts and values from the files themselves (first and last data lines).
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    assert len(est) == 788
    assert est.stamps_s[0] == 1305031102.160407
    assert est.positions_xyz[-1].tolist() == [1.253998, 0.579583, 1.452333]
    # 4-decimal quaternions (norms off by up to 8.4e-5): normalised without a word, strict too.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gt = read_trajectory("example:fr1_xyz/groundtruth.tum", strict=True)
    assert len(gt) == 3000
    assert gt.positions_xyz[0].tolist() == [1.3563, 0.6305, 1.6380]
    q = np.array([0.6132, 0.5962, -0.3311, -0.3986])
    np.testing.assert_allclose(
        gt.orientations_quat_xyzw[0], q / np.linalg.norm(q), rtol=0, atol=1e-16
    )


def test_shipped_examples_stay_small() -> None:
    assert sum(example_path(n).stat().st_size for n in list_examples()) < 1_000_000


def test_frame_indices_written_as_seconds_are_said(tmp_path: Path) -> None:
    """``traj KITTI --save k.tum`` wrote frames 0..4540 as seconds without a word."""
    (tmp_path / "k.txt").write_text(KITTI, encoding="utf-8")
    traj = read_trajectory(tmp_path / "k.txt")
    assert traj.stamps_are_frames
    with pytest.warns(DataWarning, match=r"k\.tum: the stamps are frame indices"):
        write_trajectory(tmp_path / "k.tum", traj)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_trajectory(tmp_path / "again.txt", traj, "kitti")  # frames stay frames
        write_trajectory(tmp_path / "t.tum", read_trajectory(tmp_path / "k.tum"))


def test_a_head_of_comments_only_says_so_not_that_the_file_has_no_data(tmp_path: Path) -> None:
    """A file whose first 64 KiB are one comment (787 good rows after it) was said to
    have "no numeric data line", which is false."""
    from robot_msgs.io.sniff import SNIFF_BYTES

    path = tmp_path / "long.tum"
    path.write_text("# " + "x" * SNIFF_BYTES + "\n" + "0 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 1\n")
    with pytest.raises(
        FormatError,
        match=rf"long\.tum: cannot tell the format: no data line in its first {SNIFF_BYTES} "
        r"bytes \(comments, or a line longer than that\); choose the format",
    ):
        detect_format(path)
    assert len(read_trajectory(path, format="tum")) == 2  # a format given reads it


def test_a_tum_row_with_a_ninth_column_is_not_read_as_euroc(tmp_path: Path) -> None:
    """Columns 5-8 hold a unit quaternion in either order: a TUM file with one more column
    was read as EuRoC and its rotation scrambled, qx taken for qw (a review)."""
    rows = [
        "1305031102.160407 1.344379 0.627206 1.661754 0.658249 0.611043 -0.294444 -0.326553 7",
        "1305031102.194330 1.343641 0.626458 1.652408 0.657327 0.613265 -0.295150 -0.323593 7",
    ]
    path = tmp_path / "nine.tum"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"cannot tell the format: line 1 has 9 numbers"):
        detect_format(path)
    (tmp_path / "nine.csv").write_text("\n".join(r.replace(" ", ",") for r in rows) + "\n")
    assert detect_format(tmp_path / "nine.csv") == "euroc"  # comma-separated: EuRoC's form


def test_a_bag_name_is_never_given_text() -> None:
    """`--save x.mcap --to tum` wrote TUM text into x.mcap, then unreadable as a bag (a review)."""
    from robot_msgs.io import trajectory_outputs

    with pytest.raises(FormatError, match=r"x\.mcap: the name says a mcap bag, the format tum"):
        trajectory_outputs("x.mcap", "tum")
    with pytest.raises(FormatError, match=r"x\.db3: the name says a db3 bag, the format kitti"):
        trajectory_outputs("x.db3", "kitti")
    assert trajectory_outputs("x.txt", "tum")[0] == "tum"  # a text name takes any text format


def test_trajectory_outputs_says_a_ros1_bag_is_read_not_written() -> None:
    """evo's --save_as_bag writes x.bag; here it was "cannot tell the format from '.bag'"."""
    from robot_msgs.io import trajectory_outputs

    with pytest.raises(FormatError, match=r"x\.bag: a ROS 1 bag \(\.bag\) is read, not written; "):
        trajectory_outputs("x.bag")


@pytest.mark.parametrize(
    ("fmt", "said"),
    [
        ("TUM", r"unknown format 'TUM' to write; expected one of tum, kitti, euroc, mcap, db3$"),
        ("bag", r"unknown format 'bag' to write; expected one of .*db3 \(bag is read, not wr"),
        ("lla", r"unknown format 'lla' to write; expected one of .*db3 \(lla is read, not wr"),
        ("", r"unknown format '' to write; expected one of tum, kitti, euroc, mcap, db3$"),
    ],
)
def test_trajectory_outputs_names_the_format_given_not_the_suffix(fmt: str, said: str) -> None:
    """`write_trajectory("x.tum", t, "TUM")` said "cannot tell the trajectory format from
    '.tum'" (the format given was not named), and `format=""` wrote TUM by the suffix,
    where read_trajectory refuses both as an unknown format."""
    from robot_msgs.io import trajectory_outputs

    with pytest.raises(FormatError, match=rf"^x\.tum: {said}"):
        trajectory_outputs("x.tum", fmt)


@pytest.mark.parametrize("name", ["e.tum", "e.kitti", "e.csv", "e.mcap", "e.db3"])
def test_write_trajectory_refuses_no_poses_as_every_reader_does(tmp_path: Path, name: str) -> None:
    """A trajectory of 0 poses was written (a TUM or EuRoC header, an empty KITTI file, a bag
    without a topic) that read_trajectory then refused: "no data rows", "choose a topic"."""
    from robot_msgs.io import write_trajectory

    if name.endswith((".mcap", ".db3")):
        pytest.importorskip("rosbags")
    _refuses_no_poses(write_trajectory, tmp_path / name)


def _refuses_no_poses(write: Callable[[Path, PoseTrajectory], object], path: Path) -> None:
    """``write`` refuses a trajectory of 0 poses, naming ``path``, and writes nothing."""
    from robot_msgs.errors import ValidationError
    from robot_msgs.trajectory import PoseTrajectory

    empty = PoseTrajectory(
        stamps_s=np.zeros(0),
        positions_xyz=np.zeros((0, 3)),
        orientations_quat_xyzw=np.zeros((0, 4)),
    )
    with pytest.raises(ValidationError, match=r"e\.\w+: expected at least one pose, got 0"):
        write(path, empty)
    assert list(path.parent.iterdir()) == []


@pytest.mark.parametrize(
    ("writer", "name"),
    [
        ("robot_msgs.io.tum:write_tum", "e.tum"),
        ("robot_msgs.io.kitti:write_kitti", "e.kitti"),
        ("robot_msgs.io.euroc:write_euroc", "e.csv"),
        ("robot_msgs.io.bag_messages:write_trajectory_bag", "e.mcap"),
    ],
)
def test_each_format_writer_refuses_no_poses_too(tmp_path: Path, writer: str, name: str) -> None:
    """Only write_trajectory refused 0 poses: write_tum, write_kitti, write_euroc and
    write_trajectory_bag (public, in robot_msgs.io) still wrote the files no reader reads."""
    import importlib

    if name.endswith(".mcap"):
        pytest.importorskip("rosbags")
    module, function = writer.split(":")
    _refuses_no_poses(getattr(importlib.import_module(module), function), tmp_path / name)


def test_a_times_file_read_as_poses_is_said_to_be_one_and_where_it_goes(tmp_path: Path) -> None:
    """`ape KITTI_00_gt.txt KITTI_00_gt_times.txt`: 'line 1 has 1 numbers (TUM has 8,
    KITTI 12, ...)' said neither what the file looks like nor where a times file goes."""
    path = tmp_path / "00_times.txt"
    path.write_text("0.000000e+00\n1.037359e-01\n2.073381e-01\n")
    said = (
        f"{path}: cannot tell the format: line 1 has 1 number (TUM has 8, KITTI 12, EuRoC 8 "
        "or more with nanosecond stamps); choose the format (`format=` tum, kitti or euroc); "
        "one number a line is a KITTI times file: give it with its pose file (`times_path=`)"
    )
    with pytest.raises(FormatError, match=f"^{re.escape(said)}$"):
        read_trajectory(path)
