"""Data problems: each is fixed by its stated rule with a DataWarning, or refused when strict."""

from __future__ import annotations

import math
import re
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, FormatError, ValidationError
from robot_msgs.io import read_trajectory, read_tum
from robot_msgs.io.clean import RepeatedStamps, finish_trajectory
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from pathlib import Path

    import numpy.typing as npt

ID = "0 0 0 1"


def write(tmp_path: Path, rows: list[str], name: str = "run.txt") -> Path:
    path = tmp_path / name
    path.write_text("# t x y z qx qy qz qw\n" + "\n".join(rows) + "\n")
    return path


def test_rows_with_nan_are_dropped_and_named_by_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [
            f"1 0 0 0 {ID}",
            f"2 nan 0 0 {ID}",
            f"3 0 0 0 {ID}",
            f"4 0 inf 0 {ID}",
            "5 0 0 0 0 0 0 NaN",
            f"6 0 0 0 {ID}",
            f"7 0 0 0 {ID}",
        ],
    )
    with pytest.warns(
        DataWarning,
        match=r"run\.txt: 3 row\(s\) with NaN or infinite values dropped \(lines 3, 5, 6\)",
    ):
        traj = read_tum(path)
    assert traj.stamps_s.tolist() == [1.0, 3.0, 6.0, 7.0]


def test_many_nan_rows_list_the_first_five_lines_and_a_count(tmp_path: Path) -> None:
    rows = [f"{i} nan 0 0 {ID}" for i in range(8)] + [f"{i} 0 0 0 {ID}" for i in range(9, 17)]
    with pytest.warns(DataWarning, match=r"8 row\(s\) .* \(lines 2, 3, 4, 5, 6 and 3 more\)"):
        assert len(read_tum(write(tmp_path, rows))) == 8


def test_dropping_more_than_half_the_rows_is_refused_naming_file_and_rule(tmp_path: Path) -> None:
    rows = [f"{i} nan 0 0 {ID}" for i in range(5)] + [f"{i} 0 0 0 {ID}" for i in range(5, 9)]
    with pytest.raises(
        FormatError,
        match=r"run\.txt: 5 row\(s\) with NaN or infinite values \(lines 2, 3, 4, 5, 6\); "
        r"the rule 'rows with NaN or infinite values are dropped' would discard 5 of 9 rows "
        r"\(more than half\): refused.*choose the format \(`format=`\)",
    ):
        read_tum(write(tmp_path, rows))


def test_dropping_rows_down_to_one_pose_is_refused(tmp_path: Path) -> None:
    with pytest.raises(
        FormatError, match=r"run\.txt: .* would leave 1 pose of 2 rows \(fewer than 2\)"
    ):
        read_tum(write(tmp_path, [f"1 0 0 0 {ID}", f"2 nan 0 0 {ID}"]))


def test_identical_stamps_collapsing_a_file_to_one_pose_are_refused(tmp_path: Path) -> None:
    # 200 rows of one stamp: keeping the first of each stamp would leave 1 pose.
    rows = [f"5 {i} 0 0 {ID}" for i in range(200)]
    with pytest.raises(
        FormatError,
        match=r"run\.txt: 199 row\(s\) repeat an earlier stamp \(lines 3, 4, 5, 6, 7 and 194 "
        r"more\); the rule 'of rows with equal stamps the first is kept' would leave 1 pose "
        r"of 200 rows",
    ):
        read_tum(write(tmp_path, rows))


def test_nan_rows_are_refused_when_strict(tmp_path: Path) -> None:
    path = write(tmp_path, [f"1 0 0 0 {ID}", f"2 0 0 nan {ID}"])
    with pytest.raises(
        FormatError,
        match=r"run\.txt, line 3: nan in field z \(1 row\(s\) with NaN.*strict reading, `strict=True`: refused, not fixed",
    ):
        read_tum(path, strict=True)


def test_a_file_of_nan_rows_only_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"run\.txt: 1 row\(s\) with NaN.*no poses left"):
        read_tum(write(tmp_path, [f"1 nan 0 0 {ID}"]))


def test_unsorted_stamps_are_sorted_with_the_first_place_named(tmp_path: Path) -> None:
    path = write(tmp_path, [f"1 1 0 0 {ID}", f"3 3 0 0 {ID}", f"2 2 0 0 {ID}", f"0.5 0.5 0 0 {ID}"])
    with pytest.warns(
        DataWarning,
        match=r"stamps not in increasing order \(2 places, first at line 4\): sorted by stamp",
    ):
        traj = read_tum(path)
    assert traj.stamps_s.tolist() == [0.5, 1.0, 2.0, 3.0]
    assert traj.positions_xyz[:, 0].tolist() == [0.5, 1.0, 2.0, 3.0]


def test_unsorted_stamps_are_refused_when_strict(tmp_path: Path) -> None:
    with pytest.raises(
        FormatError,
        match=r"first at line 3\): sorted by stamp \(strict reading, `strict=True`: refused, not fixed\)",
    ):
        read_tum(write(tmp_path, [f"2 0 0 0 {ID}", f"1 0 0 0 {ID}"]), strict=True)


def _finish_bag_stamps(ns: npt.NDArray[np.int64]) -> tuple[PoseTrajectory, list[str]]:
    """Finish still poses at bag header stamps ``ns``; return them and the warnings said."""
    sec, nanosec = np.divmod(ns, 1_000_000_000)
    with pytest.warns(DataWarning) as record:
        traj = finish_trajectory(
            sec + nanosec * 1e-9,
            np.zeros((len(ns), 3)),
            np.array([[0.0, 0.0, 0.0, 1.0]] * len(ns)),
            source="bag /odom",
            where=lambda rows: [f"message {int(r) + 1}" for r in rows],
            stamps_ns=ns,
        )
    return traj, [str(w.message) for w in record]


def test_repeated_stamps_of_distinct_nanoseconds_are_said_so() -> None:
    """Header stamps 2 ns apart near 1.7e9 s are one float64 of seconds: the row was
    said to "repeat an earlier stamp", which the bag's nanoseconds do not show (evo
    keeps both rows)."""
    ns = np.array([1_700_000_000_999_999_999, 1_700_000_001_000_000_001, 1_700_000_002 * 10**9])
    traj, warned = _finish_bag_stamps(ns)
    said = (
        "bag /odom: 1 row(s) repeat an earlier stamp (message 2), 1 of them only in float64 "
        "seconds (another header nanosecond, closer than float64's 238 ns step at "
        "1700000001.0 s): kept the first row of each stamp (evo keeps every row: `repeated_stamps='all'`)"
    )
    assert warned == [said]
    assert traj.stamps_ns is not None
    assert traj.stamps_ns.tolist() == [1_700_000_000_999_999_999, 1_700_000_002 * 10**9]


def test_repeated_stamps_say_the_float64_step_of_the_row_whose_nanoseconds_differ() -> None:
    """A true repeat at 1073741823 s (steps of 119 ns, below 2**30 s) came first: the
    message named its step and stamp for the pair 2 ns apart at 1073741825 s (238 ns)."""
    s = 1_000_000_000
    ns = np.array(
        [1_073_741_823 * s, 1_073_741_823 * s, 1_073_741_825 * s - 1, 1_073_741_825 * s + 1]
    )
    _, warned = _finish_bag_stamps(ns)
    said = (
        "bag /odom: 2 row(s) repeat an earlier stamp (message 2, message 4), 1 of them only "
        "in float64 seconds (another header nanosecond, closer than float64's 238 ns step "
        "at 1073741825.0 s): kept the first row of each stamp (evo keeps every row: `repeated_stamps='all'`)"
    )
    assert warned == [said]


def test_repeated_stamps_keep_the_first_row_in_file_order(tmp_path: Path) -> None:
    path = write(tmp_path, [f"1 10 0 0 {ID}", f"2 20 0 0 {ID}", f"1 11 0 0 {ID}", f"2 21 0 0 {ID}"])
    # Sorting is stable, so of each stamp the row that came first in the file survives.
    with pytest.warns(DataWarning) as record:
        traj = read_tum(path)
    messages = [str(w.message) for w in record]
    assert any(
        "2 row(s) repeat an earlier stamp (lines 4, 5): kept the first row of each stamp" in m
        for m in messages
    )
    assert traj.stamps_s.tolist() == [1.0, 2.0]
    assert traj.positions_xyz[:, 0].tolist() == [10.0, 20.0]


def test_repeated_stamps_keep_the_last_row_when_asked(tmp_path: Path) -> None:
    """TUM's scripts read rows into a dict keyed by stamp: the last row of a stamp wins."""
    path = write(tmp_path, [f"1 10 0 0 {ID}", f"2 20 0 0 {ID}", f"1 11 0 0 {ID}", f"2 21 0 0 {ID}"])
    with pytest.warns(DataWarning) as record:
        traj = read_tum(path, repeated_stamps="last")
    messages = [str(w.message) for w in record]
    assert any("(lines 4, 5): kept the last row of each stamp" in m for m in messages)
    assert traj.stamps_s.tolist() == [1.0, 2.0]
    assert traj.positions_xyz[:, 0].tolist() == [11.0, 21.0]
    by_stamp = {row.split()[0]: row.split()[1] for row in path.read_text().splitlines()}
    assert traj.positions_xyz[:, 0].tolist() == [float(by_stamp["1"]), float(by_stamp["2"])]


@pytest.mark.parametrize("rule", ["first", "last", "all"])
def test_repeated_stamps_are_said_to_a_python_caller_by_the_argument_not_the_flag(
    tmp_path: Path, rule: RepeatedStamps
) -> None:
    """A notebook reading evo's V102.txt was told "(evo keeps every row: --repeated-stamps
    all)", a flag it cannot pass; the argument is named, and the command line says its flag
    (tests/cli/test_ape.py)."""
    path = write(tmp_path, [f"1 10 0 0 {ID}", f"1 11 0 0 {ID}", f"2 20 0 0 {ID}"])
    with pytest.warns(DataWarning, match="repeat an earlier stamp") as record:
        read_trajectory(path, repeated_stamps=rule)
    said = [str(w.message) for w in record if "repeat an earlier stamp" in str(w.message)]
    assert len(said) == 1
    assert "`repeated_stamps='all'`" in said[0]
    assert "--" not in said[0]


def test_every_row_kept_is_said_as_evo_and_rpg_keep_them(tmp_path: Path) -> None:
    """rpg_trajectory_evaluation keeps every row too (its ``read_timestamps`` drops
    none; ``one_to_one`` pairs them by rows since e2e598f): the note credited evo alone."""
    path = write(tmp_path, [f"1 10 0 0 {ID}", f"1 11 0 0 {ID}", f"2 20 0 0 {ID}"])
    with pytest.warns(DataWarning, match=r"kept every row, as evo and rpg \(`repeated_stamps="):
        read_trajectory(path, repeated_stamps="all")


def test_repeated_stamps_are_refused_when_asked(tmp_path: Path) -> None:
    path = write(tmp_path, [f"1 0 0 0 {ID}", f"1 0 0 0 {ID}", f"2 0 0 0 {ID}"])
    with pytest.raises(
        FormatError, match=r"1 row\(s\) repeat an earlier stamp \(line 3\): refused"
    ):
        read_tum(path, repeated_stamps="refuse")


@pytest.mark.parametrize("rule", ["keep", "refused", "First", None, 1])
@pytest.mark.parametrize("reader", ["read_tum", "read_trajectory"])
def test_a_repeated_stamps_rule_that_is_no_choice_is_refused(
    tmp_path: Path, rule: object, reader: str
) -> None:
    """Any other value kept the first row without a word ("keep" as evo keeps both rows,
    a misspelt "refuse"): refused, even by a file without repeated stamps."""
    path = write(tmp_path, [f"1 0 0 0 {ID}", f"1 0 0 0 {ID}", f"2 0 0 0 {ID}"])
    clean = write(tmp_path, [f"1 0 0 0 {ID}", f"2 0 0 0 {ID}"], name="clean.txt")
    read = read_tum if reader == "read_tum" else read_trajectory
    said = (
        r"^Expected `repeated_stamps` as one of 'first', 'last', 'refuse', 'all' \(which "
        r"row of equal stamps is kept, refuse them, or keep all, as evo\), got "
        rf"{re.escape(repr(rule))}$"
    )
    for file in (path, clean):
        with pytest.raises(ValidationError, match=said):
            read(file, repeated_stamps=rule)  # type: ignore[arg-type]


def test_repeated_stamps_are_refused_when_strict(tmp_path: Path) -> None:
    with pytest.raises(
        FormatError, match=r"1 row\(s\) repeat an earlier stamp \(line 3\).*`strict=True`"
    ):
        read_tum(write(tmp_path, [f"1 0 0 0 {ID}", f"1 0 0 0 {ID}", f"2 0 0 0 {ID}"]), strict=True)


def test_slightly_non_unit_quaternions_are_normalised_with_the_worst_deviation(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, [f"1 0 0 0 {ID}", "2 0 0 0 0 0 0 1.0003", "3 0 0 0 0 0 0.6 0.8"])
    with pytest.warns(
        DataWarning,
        match=r"1 of 3 quaternion\(s\) not unit: normalised \(max norm deviation 0.0003 at line 3\)",
    ):
        traj = read_tum(path)
    assert traj.orientations_quat_xyzw.tolist() == [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0.6, 0.8]]


def test_normalising_keeps_the_sign_of_the_quaternion(tmp_path: Path) -> None:
    with pytest.warns(DataWarning, match="normalised"):
        traj = read_tum(write(tmp_path, ["1 0 0 0 0 0 0 -1.001"]))
    assert traj.orientations_quat_xyzw.tolist() == [[0.0, 0.0, 0.0, -1.0]]


def test_non_unit_quaternions_are_refused_when_strict(tmp_path: Path) -> None:
    with pytest.raises(
        FormatError,
        match=r"not unit: normalised .* \(strict reading, `strict=True`: refused, not fixed\)",
    ):
        read_tum(write(tmp_path, ["1 0 0 0 0 0 0 1.001"]), strict=True)


def test_quaternions_within_the_trajectory_tolerance_are_normalised_silently(
    tmp_path: Path,
) -> None:
    traj = read_tum(write(tmp_path, ["1 0 0 0 0 0 0 1.0000005"]), strict=True)
    assert traj.orientations_quat_xyzw.tolist() == [[0.0, 0.0, 0.0, 1.0]]


def test_quaternions_printed_to_four_decimals_pass_strict_silently(tmp_path: Path) -> None:
    # Line 391 of the TUM RGB-D fr1/xyz ground truth (the shipped example), the file's
    # largest deviation: norm 1 + 8.4e-5, within the 1e-4 that 4-decimal rounding can give.
    q = "0.6653 0.6329 -0.2776 -0.2827"
    norm = math.sqrt(sum(float(v) ** 2 for v in q.split()))
    assert 8.3e-5 < norm - 1 < 8.5e-5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        traj = read_tum(write(tmp_path, [f"1 0 0 0 {q}", f"2 0 0 0 {ID}"]), strict=True)
    assert math.isclose(float(np.linalg.norm(traj.orientations_quat_xyzw[0])), 1, abs_tol=1e-15)


def test_quaternions_just_beyond_four_decimal_rounding_are_reported(tmp_path: Path) -> None:
    with pytest.warns(DataWarning, match=r"1 of 1 quaternion\(s\) not unit: normalised"):
        read_tum(write(tmp_path, ["1 0 0 0 0 0 0 1.00011"]))


@pytest.mark.parametrize(
    ("quat", "norm"),
    # norms by hand: sqrt(0.25 * 3 + 0.16) = sqrt(0.91), sqrt(2); huge and tiny ones scaled,
    # not squared (they said norm inf and norm 0)
    [
        ("0 0 0 0", "0"),
        ("0 0 0 2", "2"),
        ("0.5 0.5 0.5 0.4", "0.953939"),
        ("1 0 0 1", "1.41421"),
        ("0 0 1e200 1e200", r"1\.41421e\+200"),
        ("0 0 1e-200 1e-200", r"1\.41421e-200"),
    ],
)
def test_zero_or_far_from_unit_quaternions_are_refused_even_without_strict(
    tmp_path: Path, quat: str, norm: str
) -> None:
    path = write(tmp_path, [f"1 0 0 0 {ID}", f"2 0 0 0 {quat}"])
    with pytest.raises(
        FormatError,
        match=rf"run\.txt, line 3: quaternion .* has norm {norm}; expected a unit quaternion \(within 0.01\), check the column order",
    ):
        read_tum(path)


@pytest.mark.parametrize("x", ["1e308", "-1e200", "1.0000001e150"])
def test_positions_past_the_limit_are_refused_with_their_line(tmp_path: Path, x: str) -> None:
    """1e308 or 1e200 m read fine; their errors' squares were inf and the statistics left
    them out as missing poses (ape: n 784 of 785 matched, or n 0 and rms nan; exit 0)."""
    path = write(tmp_path, [f"1 0 0 0 {ID}", f"2 {x} 0 0 {ID}", f"3 {x} 1 0 {ID}"])
    with pytest.raises(
        FormatError,
        match=rf"run\.txt, line 3: position \({re.escape(repr(float(x)))}, 0\.0, 0\.0\) is beyond "
        r"\+-1e\+150 m, "
        r"near where squared errors overflow float64 \(2 row\(s\) like this\)",
    ):
        read_tum(path)
    read_tum(write(tmp_path, [f"1 0 0 0 {ID}", f"2 1e150 -1e150 0 {ID}"]))  # the limit itself


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_trajectory_holds_a_coordinate_exactly_when_it_is_within_the_limit(x: float) -> None:
    """The law: PoseTrajectory takes every coordinate within POSITION_LIMIT_M, none past it."""
    from robot_msgs.errors import ValidationError
    from robot_msgs.trajectory import POSITION_LIMIT_M

    def make() -> PoseTrajectory:
        return PoseTrajectory(
            stamps_s=np.array([0.0, 1.0]),
            positions_xyz=np.array([[0.0, 0.0, 0.0], [0.0, x, 0.0]]),
            orientations_quat_xyzw=np.array([[0.0, 0.0, 0.0, 1.0]] * 2),
        )

    if abs(x) <= POSITION_LIMIT_M:
        assert float(make().positions_xyz[1, 1]) == x
    else:
        with pytest.raises(
            ValidationError,
            match=r"within \+-1e\+150 m, got .* at `PoseTrajectory\.positions_xyz\[1\]`",
        ):
            make()


def test_finish_trajectory_uses_the_labels_it_is_given() -> None:
    with pytest.warns(
        DataWarning, match=r"bag /odom: 1 row\(s\) repeat an earlier stamp \(message 2\)"
    ):
        traj = finish_trajectory(
            np.array([5.0, 5.0, 6.0]),
            np.zeros((3, 3)),
            np.array([[0.0, 0.0, 0.0, 1.0]] * 3),
            source="bag /odom",
            where=lambda rows: [f"message {int(r) + 1}" for r in rows],
            frame_id="odom",
            child_frame_id="base_link",
        )
    assert (len(traj), traj.frame_id, traj.child_frame_id) == (2, "odom", "base_link")


def test_problems_are_fixed_in_the_stated_order(tmp_path: Path) -> None:
    # NaN first (line 3 dropped), then normalise, then sort, then drop the repeat.
    path = write(
        tmp_path, [f"3 3 0 0 {ID}", f"1 nan 0 0 {ID}", "1 1 0 0 0 0 0 1.0002", f"3 4 0 0 {ID}"]
    )
    with pytest.warns(DataWarning) as record:
        traj = read_tum(path)
    assert len(record) == 4
    # Each message names the file line of its row (the header is line 1), through the
    # drop and the sort.
    found = [str(w.message).split(": ", 1)[1] for w in record]
    assert found == [
        "1 row(s) with NaN or infinite values dropped (line 3)",
        "1 of 3 quaternion(s) not unit: normalised (max norm deviation 0.0002 at line 4)",
        "stamps not in increasing order (1 place, first at line 4): sorted by stamp",
        (
            "1 row(s) repeat an earlier stamp (line 5): kept the first row of each stamp "
            "(evo keeps every row: `repeated_stamps='all'`)"
        ),
    ]
    assert traj.stamps_s.tolist() == [1.0, 3.0]
    assert traj.positions_xyz[:, 0].tolist() == [1.0, 3.0]
    assert math.isclose(float(np.linalg.norm(traj.orientations_quat_xyzw[0])), 1.0, abs_tol=1e-15)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, math.nan]), min_size=1, max_size=12),
    st.integers(0, 2**32 - 1),
)
def test_cleaned_trajectories_pass_the_constructor_checks(stamps: list[float], seed: int) -> None:
    """The cleaned poses skip the constructor's checks; building them anew must validate."""
    rng = np.random.default_rng(seed)
    n = len(stamps)
    quat = rng.normal(size=(n, 4))
    quat /= np.linalg.norm(quat, axis=1, keepdims=True)
    quat *= 1.0 + rng.uniform(-1e-3, 1e-3, size=(n, 1))  # off unit: normalised with a warning
    xyz = rng.normal(size=(n, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # the fixes are other tests' subject
        finite = [t for t in stamps if not math.isnan(t)]
        dropped, repeats = n - len(finite), len(finite) - len(set(finite))
        # The limits: no rule may discard more than half of the rows or leave < 2 poses.
        refused = (dropped > 0 and (2 * dropped > n or len(finite) < 2)) or (
            repeats > 0 and (2 * repeats > n or len(set(finite)) < 2)
        )
        if refused:
            with pytest.raises(FormatError, match=r"s: .*would (leave|discard)"):
                finish_trajectory(
                    np.array(stamps), xyz, quat, source="s", where=lambda r: [str(i) for i in r]
                )
            return
        out = finish_trajectory(
            np.array(stamps), xyz, quat, source="s", where=lambda r: [str(i) for i in r]
        )
    assert PoseTrajectory(**out.as_dict()) == out
    assert not out.stamps_s.flags.writeable


def test_stamps_whose_span_overflows_float64_are_said_without_numpys_warning(
    tmp_path: Path,
) -> None:
    """KITTI times -1e308, 0, 1e308 (finite, so read) made the rate check subtract them in
    NumPy: 'RuntimeWarning: overflow encountered in scalar subtract' left read_trajectory
    (an error under -W error; printed by the command line) and the note said '3 poses in
    inf s, 0 Hz'. 1e308 - (-1e308) = 2e308 is past float64's largest, 1.797e308."""
    poses = tmp_path / "00.txt"
    poses.write_text("".join(f"1 0 0 {k} 0 1 0 0 0 0 1 0\n" for k in range(3)))
    times = tmp_path / "times.txt"
    times.write_text("-1e308\n0\n1e308\n")
    said = (
        r"00\.txt: 3 poses from -1e\+308 s to 1e\+308 s, a span beyond float64 "
        r"\(below 1e-6 Hz\)"
    )
    # A RuntimeWarning, matching nothing here, would be raised again: an error (filterwarnings).
    with pytest.warns(DataWarning, match=said):
        traj = read_trajectory(poses, format="kitti", times_path=times)
    assert traj.stamps_s.tolist() == [-1e308, 0.0, 1e308]


def test_all_rows_of_a_file_out_of_stamp_order_are_refused(tmp_path: Path) -> None:
    """evo pairs an unsorted file by a linear search, which takes the first row of a stamp.

    Sorted, its binary search takes the last row of a stamp, as we do on the file we sort:
    V102.txt with rows 101 and 102 swapped, as the reference of its own 803 unique
    stamps moved by 0.01 sin(i) m, gives evo_ape an rmse of 0.012242 m and us 0.013515 m
    (evo's on the sorted file). Refused, not paired otherwise than evo.
    """
    path = write(tmp_path, [f"2 0 0 0 {ID}", f"1 0 0 0 {ID}", f"1 1 0 0 {ID}"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        with pytest.raises(FormatError, match=r"not in increasing order.*sort the file"):
            read_tum(path, repeated_stamps="all")
        assert len(read_tum(path, repeated_stamps="first")) == 2
        sorted_file = write(tmp_path, [f"1 0 0 0 {ID}", f"1 1 0 0 {ID}", f"2 0 0 0 {ID}"])
        assert read_tum(sorted_file, repeated_stamps="all").positions_xyz[:, 0].tolist() == [
            0.0,
            1.0,
            0.0,
        ]
        unsorted_unique = write(tmp_path, [f"2 0 0 0 {ID}", f"1 0 0 0 {ID}"], name="u.txt")
        assert len(read_tum(unsorted_unique, repeated_stamps="all")) == 2
