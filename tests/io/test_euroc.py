"""EuRoC ground-truth CSV: nanosecond stamps, w-first quaternions, ignored columns."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, FormatError, OutputExistsError, ValidationError
from robot_msgs.io import read_euroc, read_trajectory, write_euroc
from robot_msgs.io.euroc import EUROC_HEADER
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from pathlib import Path

HEADER = "#timestamp, p_RS_R_x [m], p_RS_R_y [m], p_RS_R_z [m], q_RS_w [], q_RS_x [], q_RS_y [], q_RS_z [], v_RS_R_x [m s^-1]\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "data.csv"
    path.write_text(text)
    return path


def test_read_euroc_reorders_w_first_quaternions_and_ignores_extra_columns(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "1403715524907143168,0.5,1.5,2.5,0.6,0,0.8,0,9,9,9\n")
    traj = read_euroc(path)
    assert traj.positions_xyz.tolist() == [[0.5, 1.5, 2.5]]
    # Columns qw, qx, qy, qz = 0.6, 0, 0.8, 0 become x, y, z, w = 0, 0.8, 0, 0.6.
    assert traj.orientations_quat_xyzw.tolist() == [[0.0, 0.8, 0.0, 0.6]]


def test_read_euroc_converts_nanoseconds_as_evo_does(tmp_path: Path) -> None:
    ns = [1403715524907143168, 1403715524912143104]
    path = write(tmp_path, HEADER + "".join(f"{t},0,0,0,1,0,0,0\n" for t in ns))
    # evo: the ns column parsed as float64, then divided by 1e9.
    assert read_euroc(path).stamps_s.tolist() == [float(t) / 1e9 for t in ns]


def test_read_euroc_skips_a_header_without_hash(tmp_path: Path) -> None:
    path = write(tmp_path, "timestamp,px,py,pz,qw,qx,qy,qz\n1000000000,1,2,3,1,0,0,0\n")
    traj = read_euroc(path)
    assert traj.stamps_s.tolist() == [1.0]


def test_read_euroc_counts_lines_with_the_header_for_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "timestamp,px,py,pz,qw,qx,qy,qz\n1,1,2,3,1,0,0,0\n2,1,2,3,1,0,0\n")
    with pytest.raises(
        FormatError,
        match=r"data\.csv, line 3: expected at least 8 columns \(t_ns px py pz qw qx qy qz\), got 7",
    ):
        read_euroc(path)


def test_read_euroc_names_the_column_of_a_bad_field(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + "1,1,2,3,1,0,0,0\n2,1,2,3,w,0,0,0\n")
    with pytest.raises(FormatError, match=r"line 3, column 5 \(qw\): 'w' is not a number"):
        read_euroc(path)


def test_read_euroc_refuses_a_second_non_numeric_line(tmp_path: Path) -> None:
    path = write(tmp_path, "a,b,c,d,e,f,g,h\nA,B,C,D,E,F,G,H\n")
    with pytest.raises(FormatError, match=r"line 2, column 1 \(t_ns\): 'A' is not a number"):
        read_euroc(path)


def _traj() -> PoseTrajectory:
    rng = np.random.default_rng(11)
    q = rng.normal(size=(30, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    ns = 1_403_715_524_907_143_168 + np.cumsum(rng.integers(4_000_000, 6_000_000, 30))
    return PoseTrajectory(
        stamps_s=ns / 1e9, positions_xyz=rng.normal(size=(30, 3)), orientations_quat_xyzw=q
    )


def test_write_then_read_euroc_gives_back_the_trajectory(tmp_path: Path) -> None:
    traj = _traj()
    back = read_euroc(write_euroc(tmp_path / "out.csv", traj))
    # Stamps pass through integer nanoseconds: equal to within one float64 step.
    np.testing.assert_allclose(back.stamps_s, traj.stamps_s, rtol=np.finfo(float).eps, atol=0)
    assert np.array_equal(back.positions_xyz, traj.positions_xyz)
    np.testing.assert_allclose(
        back.orientations_quat_xyzw, traj.orientations_quat_xyzw, rtol=0, atol=1e-15
    )


def test_write_euroc_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    target = write(tmp_path, "old\n")
    with pytest.raises(OutputExistsError, match=r"data\.csv exists"):
        write_euroc(target, _traj())
    assert target.read_text() == "old\n"


def test_write_euroc_output_is_readable_by_evo(tmp_path: Path) -> None:
    file_interface = pytest.importorskip("evo.tools.file_interface")
    traj = _traj()
    out = write_euroc(tmp_path / "out.csv", traj)
    theirs = file_interface.read_euroc_csv_trajectory(str(out))
    assert np.array_equal(theirs.positions_xyz, traj.positions_xyz)
    assert np.array_equal(theirs.timestamps, read_euroc(out).stamps_s)


def test_stamps_are_written_as_typed_and_read_back_equal(tmp_path: Path) -> None:
    """`traj fr1.tum --save g.csv` wrote 1305031098.6659 s as 1305031098665900032 ns."""
    stamps = np.array([1305031098.6659, 1305031098.7, 1305031099.912143134, 1305031100.0])
    traj = PoseTrajectory(
        stamps_s=np.sort(stamps),
        positions_xyz=np.zeros((4, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (4, 1)),
    )
    path = write_euroc(tmp_path / "data.csv", traj)
    firsts = [line.split(",")[0] for line in path.read_text().splitlines()[1:]]
    assert "1305031098665900000" in firsts
    assert "1305031098700000000" in firsts
    back = read_euroc(path).stamps_s
    assert np.all(np.abs(back - traj.stamps_s) <= np.spacing(traj.stamps_s))


def test_stamps_past_int64_nanoseconds_are_refused(tmp_path: Path) -> None:
    """Stamps from 9.2e9 s were all written as -9223372036854775808 (an int64 overflow).

    The refusal named the stamp but not the file (robot-msgs traj far.tum --save far.csv
    said "ERROR: stamp 10000000000.5 s does not fit ..."): it names the file written."""
    from robot_msgs.errors import ValidationError

    traj = PoseTrajectory(
        stamps_s=1e10 + np.arange(3.0),
        positions_xyz=np.zeros((3, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (3, 1)),
    )
    with pytest.raises(
        ValidationError, match=r"data\.csv: stamp 10000000000\.0 s does not fit int64 nanoseconds"
    ):
        write_euroc(tmp_path / "data.csv", traj)
    assert not (tmp_path / "data.csv").exists()


@settings(max_examples=150, deadline=None)
@given(
    start=st.floats(1e8, 2e9),
    steps=st.lists(st.floats(1e-3, 10.0), min_size=1, max_size=20),
)
def test_written_stamps_read_back_within_one_float_step(start: float, steps: list[float]) -> None:
    """The law behind the roundest nanoseconds: a round trip moves no stamp by more than
    one float64 step (the ten candidates and their fallback never do worse)."""
    import tempfile
    from pathlib import Path as _Path

    stamps = start + np.concatenate([[0.0], np.cumsum(steps)])
    n = stamps.size
    traj = PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=np.zeros((n, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (n, 1)),
    )
    with tempfile.TemporaryDirectory() as folder:
        back = read_euroc(write_euroc(_Path(folder) / "data.csv", traj)).stamps_s
    assert np.all(np.abs(back - stamps) <= np.spacing(stamps))


def test_a_tum_file_converted_to_euroc_reads_back_except_where_no_integer_can(
    tmp_path: Path,
) -> None:
    """fr1_xyz rgbdslam (788 rows, six decimals) to EuRoC and back: a stamp comes back
    changed only where no integer reads back to it through EuRoC's arithmetic, which a
    brute-force search of every integer within 300 ns says (141 rows came back one float
    step off when every stamp was written as typed)."""
    from robot_msgs.io import read_trajectory

    traj = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    back = read_euroc(write_euroc(tmp_path / "r.csv", traj)).stamps_s
    changed = back != traj.stamps_s
    near = np.rint(traj.stamps_s * 1e9).astype(np.int64)[:, None] + np.arange(-300, 301)
    possible = (near / 1e9 == traj.stamps_s[:, None]).any(axis=1)
    assert np.array_equal(changed, ~possible)
    assert int(changed.sum()) == 49


def test_a_trajectory_sampled_at_2_mhz_reads_back_from_its_nanosecond_header(
    tmp_path: Path,
) -> None:
    """Stamps 500 ns apart written under `#timestamp [ns]` read back as nanoseconds: the
    rate guess (2 MHz as ns, 0.002 Hz as seconds) took them for seconds, 1e9 off. The
    rate is still checked, and said."""
    stamps = np.asarray(1.0 + np.arange(5) * 5e-7, dtype=np.float64)
    traj = PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=np.zeros((5, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (5, 1)),
    )
    path = write_euroc(tmp_path / "data.csv", traj)
    assert path.read_text().splitlines()[2].startswith("1000000500,")
    for read in (read_euroc, read_trajectory):
        with pytest.warns(DataWarning, match=r"5 poses in 2e-06 s, 2e\+06 Hz on average"):
            assert read(path).stamps_s.tolist() == stamps.tolist()


def test_write_euroc_refuses_two_stamps_on_one_nanosecond(tmp_path: Path) -> None:
    """1.0 and 1.0000000001 s (0.1 ns apart) were both written as 1000000000 ns: read back,
    the second pose was dropped as a repeated stamp. Refused, and nothing is written."""
    traj = PoseTrajectory(
        stamps_s=np.array([1.0, 1.0000000001, 2.0]),
        positions_xyz=np.zeros((3, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (3, 1)),
    )
    with pytest.raises(
        ValidationError,
        match=r"data\.csv: stamps 1\.0 and 1\.0000000001 s \(poses 0 and 1\) are the same "
        r"integer nanosecond 1000000000: stamps in nanoseconds cannot tell them apart",
    ) as refused:
        write_euroc(tmp_path / "data.csv", traj)
    # Said within the file's name as every error is (RobotMsgsError.within): its reason too.
    assert refused.value.field == "stamps_s"
    assert refused.value.reason.startswith(f"{tmp_path / 'data.csv'}: stamps 1.0 and ")
    assert not (tmp_path / "data.csv").exists()


def test_nanoseconds_that_are_a_unix_date_as_microseconds_are_read_as_stated_and_said(
    tmp_path: Path,
) -> None:
    """1.6e15 + 1e7 k under `#timestamp [ns]` are 18.5 days after 1970 began at 100 Hz
    (nanoseconds since boot?) or 2020-09-13 at 0.1 Hz (Unix microseconds?): read as the
    header says, as before, but no longer without a word. Nothing is changed, so `strict`
    reads them too, with the same warning."""
    rows = "".join(f"{1_600_000_000_000_000 + k * 10_000_000},{k},0,0,1,0,0,0\n" for k in range(3))
    path = write(tmp_path, EUROC_HEADER + "\n" + rows)
    said = (
        r"data\.csv: stamps read as nanoseconds \(the header, line 1, states timestamp \[ns\], "
        r"but as nanoseconds they fall in 1970, as microseconds in 2020 \(18\.5 days after "
        r"1970 began at 100 Hz, or at 0\.1 Hz\): the rate cannot tell a clock since boot from "
        r"Unix time, so the statement is believed\)"
    )
    for strict in (False, True):
        with pytest.warns(DataWarning, match=said) as caught:
            back = read_euroc(path, strict=strict)
        assert len(caught) == 1
        assert back.stamps_s.tolist() == [1.6e6, 1.6e6 + 0.01, 1.6e6 + 0.02]


def test_nanoseconds_since_boot_whose_coarser_reading_is_no_pose_rate_are_read_in_silence(
    tmp_path: Path,
) -> None:
    """1.8e12 + 1e7 k under `#timestamp [ns]` are 30 minutes after boot at 100 Hz, or Unix
    milliseconds in 2027 at 1e-4 Hz (one pose in 2.8 hours): the rate tells, so they are
    read as stated without a word, as before 056f506, also under `strict`."""
    rows = "".join(f"{1_800_000_000_000 + k * 10_000_000},{k},0,0,1,0,0,0\n" for k in range(3))
    path = write(tmp_path, EUROC_HEADER + "\n" + rows)
    for strict in (False, True):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            back = read_euroc(path, strict=strict)
        assert back.stamps_s.tolist() == [1800.0, 1800.01, 1800.02]


@pytest.mark.parametrize(
    ("header", "stated"),
    [
        (EUROC_HEADER, r"the header, line 1, states timestamp \[ns\]"),
        ("#timestamp,px,py,pz,qw,qx,qy,qz", r"EuRoC's stamps are nanoseconds"),
    ],
)
def test_unix_microseconds_at_100_hz_are_read_as_microseconds_as_under_a_tum_header(
    tmp_path: Path, header: str, stated: str
) -> None:
    """1.6e15 + 1e4 k (Unix microseconds at 100 Hz, 100 kHz as nanoseconds) read as
    nanoseconds, 18.5 days after 1970 began, where `# t[ns]` in a TUM file read them as
    microseconds: one rule (`stated_ns_unit`) for both, refused by `strict`. EuRoC's
    format states nanoseconds, so a header without the unit follows it too."""
    rows = "".join(f"{1_600_000_000_000_000 + k * 10_000},{k},0,0,1,0,0,0\n" for k in range(3))
    path = write(tmp_path, header + "\n" + rows)
    said = (
        rf"stamps read as microseconds and divided by 1e6, not 1e9 \({stated}, but as "
        r"nanoseconds they fall in 1970, as microseconds in 2020 "
        r"\(18\.5 days after 1970 began at 1e\+05 Hz, or at 100 Hz\)\)"
    )
    with pytest.warns(DataWarning, match=said) as caught:
        back = read_euroc(path)
    assert len(caught) == 1
    assert back.stamps_s.tolist() == [1.6e9, 1.6e9 + 0.01, 1.6e9 + 0.02]
    with pytest.raises(FormatError, match=said):
        read_euroc(path, strict=True)
