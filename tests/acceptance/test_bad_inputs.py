"""A catalogue of bad inputs to ``robot-msgs traj``: each refused or warned, never misread.

Every case is a file (or files) a new user might hand over, run through the CLI in this
process. An error case must exit 1 with exactly one ``ERROR:`` line that names the place
(file, line, column, field or flag) and no traceback; a warning case (run with
``--check``) must exit 1 with the problem and its fix stated, and the numbers read must be
the right ones. No case may leave a partial, clobbered or temporary file behind.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from robot_msgs.cli import main

if TYPE_CHECKING:
    from pathlib import Path

TUM = "# timestamp tx ty tz qx qy qz qw\n1.0 0 0 0 0 0 0 1\n1.5 1 0 0 0 0 0 1\n2.0 2 0 0 0 0 0 1\n"
TUM_ROWS = TUM.split("\n", 1)[1]
EUROC = (
    "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z []\n"
    "1403715524907143168,0,0,0,1,0,0,0\n1403715525407143168,1,0,0,1,0,0,0\n"
    "1403715525907143168,2,0,0,1,0,0,0\n"
)
KITTI = "1 0 0 0 0 1 0 0 0 0 1 0\n1 0 0 1 0 1 0 0 0 0 1 0\n1 0 0 2 0 1 0 0 0 0 1 0\n"
S = math.sqrt(0.5)


def _rows(stamps: list[str], quat: str = "0 0 0 1") -> str:
    return "".join(f"{t} {i} 0 0 {quat}\n" for i, t in enumerate(stamps))


@dataclass(frozen=True)
class Case:
    """Files to write (a value of None makes a folder), the arguments, what must be said."""

    name: str
    files: dict[str, str | bytes | None]
    args: list[str]
    error: str = ""  # the one ERROR line must match this (after "ERROR: ")
    issue: str = ""  # with --check: an issue must match this
    report: dict[str, object] = field(default_factory=dict)  # numbers the JSON report must hold
    keep: tuple[str, ...] = ()  # files that must be unchanged afterwards
    code: int = 1  # the exit status: 1 for the data, 2 for the command line


CASES = [
    # -- bytes that are not UTF-8 text lines
    Case("utf16-with-mark", {"a.tum": TUM.encode("utf-16")}, ["a.tum"],
         error=r"a\.tum: the file is UTF-16 \(little-endian\) text .*save it as UTF-8"),
    Case("utf16-without-mark", {"a.tum": TUM.encode("utf-16-be")}, ["a.tum"],
         error=r"a\.tum: the file looks like UTF-16 \(big-endian\) text without a byte-order"),
    Case("utf32", {"a.tum": TUM.encode("utf-32")}, ["a.tum"],
         error=r"a\.tum: the file is UTF-32 \(little-endian\) text"),
    Case("cr-only", {"a.tum": TUM.replace("\n", "\r")}, ["a.tum"],
         error=r"a\.tum: lines end in CR only \(classic Mac OS line endings, 4 lines\)"),
    Case("latin-1", {"a.tum": "# caf\xe9\n".encode("latin-1") + TUM_ROWS.encode()}, ["a.tum"],
         error=r"a\.tum: not a text file \(byte 5 is not UTF-8\); for a bag choose the format "
         r"\(--format bag, bag2 or mcap\)"),
    Case("nul-bytes", {"a.tum": b"1.0 0 0\x00 0 0 0 0 1\n"}, ["a.tum"],
         error=r"a\.tum: not a text file \(a NUL byte at byte 7\)"),
    Case("fullwidth-digit", {"a.tum": TUM_ROWS + "３.0 3 0 0 0 0 0 1\n"}, ["a.tum", "--format", "tum"],
         error=r"a\.tum, line 4, column 1 \(t\): '３\.0' is not a number \(U\+FF13 FULLWIDTH DIGIT"),
    # -- not a file
    Case("directory", {"run1": None}, ["run1"],
         error=r"run1: is a directory, not a trajectory file \(a ROS 2 bag folder holds"),
    Case("directory-as-tum", {"run1": None}, ["run1", "--format", "tum"],
         error=r"run1: is a directory, not a trajectory file"),
    Case("missing", {}, ["none.tum"], error=r"none\.tum: no such file"),
    # -- content that fits no format, or two
    Case("empty", {"a.txt": ""}, ["a.txt"],
         error=r"a\.txt: no data rows \(the file is empty or holds only comments\)$"),
    Case("comments-only", {"a.txt": "# nothing here\n\n"}, ["a.txt"],
         error=r"a\.txt: no data rows \(the file is empty or holds only comments\)$"),
    Case("three-columns", {"a.txt": "1 2 3\n4 5 6\n"}, ["a.txt"],
         error=r"a\.txt: cannot tell the format: line 1 has 3 numbers \(TUM has 8, KITTI 12"),
    Case("ambiguous-comma-ns", {"a.csv": EUROC.split("\n", 1)[1]}, ["a.csv"],
         error=r"a\.csv: cannot tell the format: 8 comma-separated columns with integer "
         r"nanosecond stamps .*EuRoC \(qw first\) or TUM \(qw last\); choose the format "
         r"\(--format euroc or --format tum\)"),
    Case("header-quaternion-elsewhere", {"a.txt": "t qw qx qy qz x y z\n" + TUM_ROWS}, ["a.txt"],
         error=r"a\.txt, line 1: the header names the quaternion qx \(column 3\).*reorder"),
    Case("header-qx-over-17-columns",
         {"a.csv": "t,x,y,z,qx,qy,qz,qw" + ",v" * 9 + "\n" + "1.5" + ",0" * 6 + ",1" + ",0" * 9 + "\n"},
         ["a.csv"], error=r"a\.csv: cannot tell the format: line 1's header names qx first"),
    Case("first-line-word", {"a.txt": "1.0 0 0 0 0 0 0 1\nhello 0 0 0 0 0 0 1\n"}, ["a.txt"],
         error=r"a\.txt, line 2, column 1 \(t\): 'hello' is not a number"),
    # -- the wrong format asked for
    Case("tum-as-euroc", {"a.tum": TUM_ROWS}, ["a.tum", "--format", "euroc"],
         error=r"a\.tum: stamps are not EuRoC's integer nanoseconds \(stamp 1\.5 has a fraction "
         r"at line 2\), .*look like a TUM file; choose the format \(--format tum\)"),
    Case("tum-header-as-euroc", {"a.tum": TUM}, ["a.tum", "--format", "euroc"],
         error=r"a\.tum, line 1: the header names qx before qw .*\(--format tum\)"),
    Case("euroc-as-tum", {"data.csv": EUROC}, ["data.csv", "--format", "tum"],
         error=r"data\.csv, line 1: the header names qw first .*\(--format euroc\)"),
    Case("kitti-as-tum", {"00.txt": KITTI}, ["00.txt", "--format", "tum"],
         error=r"00\.txt, line 1: expected 8 columns \(t x y z qx qy qz qw\), got 12"),
    Case("tum-as-kitti", {"a.tum": TUM_ROWS}, ["a.tum", "--format", "kitti"],
         error=r"a\.tum, line 1: expected 12 columns .*, got 8"),
    Case("times-with-tum", {"a.tum": TUM, "t.txt": "0\n"}, ["a.tum", "--times", "t.txt"],
         error=r"a\.tum: a times file is only used with KITTI files, not tum"),
    Case("topic-with-tum", {"a.tum": TUM}, ["a.tum", "--topic", "/odom"],
         error=r"a\.tum: a topic is only used with bags, not tum files"),
    Case("kitti-times-length", {"00.txt": KITTI, "t.txt": "0\n1\n"}, ["00.txt", "--times", "t.txt"],
         error=r"t\.txt: expected one time per pose of .*00\.txt \(3\), got 2"),
    # -- malformed rows
    Case("bad-token", {"a.tum": TUM + "2.5 3 x 0 0 0 0 1\n"}, ["a.tum"],
         error=r"a\.tum, line 5, column 3 \(y\): 'x' is not a number$"),
    Case("short-row", {"a.tum": TUM + "2.5 3 0 0 0 0 1\n"}, ["a.tum"],
         error=r"a\.tum, line 5: expected 8 columns \(t x y z qx qy qz qw\), got 7"),
    Case("empty-comma-field", {"a.csv": "1.0,0,0,0,0,0,0,1\n1.5,1,,0,0,0,0,1\n"}, ["a.csv"],
         error=r"a\.csv, line 2: empty field between commas"),
    Case("kitti-no-rotation", {"00.txt": "1 0 0 0 0 1 0 0 0 0 2 0\n" + KITTI}, ["00.txt"],
         error=r"00\.txt, line 1: the 3x3 block is not a rotation"),
    # -- data the cleaning rules refuse
    Case("quaternion-norm-two", {"a.tum": TUM + "2.5 0 0 0 0 0 0 2\n"}, ["a.tum"],
         error=r"a\.tum, line 5: quaternion .* has norm 2; .*check the column order"),
    Case("quaternion-zero", {"a.tum": TUM + "2.5 0 0 0 0 0 0 0\n"}, ["a.tum"],
         error=r"a\.tum, line 5: quaternion .* has norm 0"),
    Case("all-nan", {"a.tum": "1 nan 0 0 0 0 0 1\n2 nan 0 0 0 0 0 1\n"}, ["a.tum"],
         error=r"a\.tum: 2 row\(s\) with NaN .*would leave 0 poses of 2 rows .* no poses left"),
    Case("most-rows-nan", {"a.tum": _rows(["1", "2", "3"]).replace(" 0 0 0 0 1", " nan 0 0 0 1")
                           + "4 0 0 0 0 0 0 1\n5 0 0 0 0 0 0 1\n"}, ["a.tum"],
         error=r"a\.tum: 3 row\(s\) with NaN .*'rows with NaN or infinite values are dropped' "
         r"would discard 3 of 5 rows \(more than half\)"),
    Case("identical-stamps", {"a.tum": _rows(["7.0"] * 200)}, ["a.tum"],
         error=r"a\.tum: 199 row\(s\) repeat an earlier stamp .*would leave 1 pose of 200 rows"),
    Case("nan-leaves-one", {"a.tum": "1 0 0 0 0 0 0 1\n2 0 inf 0 0 0 0 1\n"}, ["a.tum"],
         error=r"a\.tum: 1 row\(s\) with NaN .*\(line 2\).*would leave 1 pose of 2 rows"),
    Case("strict-unsorted", {"a.tum": _rows(["2", "1", "3"])}, ["a.tum", "--strict"],
         error=r"a\.tum: stamps not in increasing order .*first at line 2.*\(strict reading, "
         r"--strict: refused, not fixed\)"),
    Case("strict-ns-stamps", {"a.tum": _rows(["1305031102000000000", "1305031102500000000"])},
         ["a.tum", "--strict"], error=r"a\.tum: stamps read as nanoseconds .*--strict"),
    # -- outputs: checked before any work, nothing clobbered
    Case("save-exists", {"a.tum": TUM, "out.tum": "keep\n"}, ["a.tum", "--save", "out.tum"],
         error=r"out\.tum exists; pass --force to overwrite it", keep=("out.tum",)),
    Case("save-missing-folder", {"a.tum": TUM}, ["a.tum", "--save", "no/out.tum"],
         error=r"no/out\.tum: cannot write it: the folder .*no does not exist"),
    Case("save-to-folder", {"a.tum": TUM, "out.tum": None}, ["a.tum", "--save", "out.tum", "--force"],
         error=r"ERROR: --save .*out\.tum: is a directory: refusing to write it"),
    Case("save-unknown-suffix", {"a.tum": TUM}, ["a.tum", "--save", "out.txt"],
         error=r"out\.txt: cannot tell the trajectory format from '\.txt'; name it \.tum, .*\(--to tum, "),
    Case("save-bad-input-force", {"a.tum": TUM + "x\n", "out.tum": "keep\n"},
         ["a.tum", "--save", "out.tum", "--force"],
         error=r"a\.tum, line 5: expected 8 columns", keep=("out.tum",)),
    Case("save-kitti-times-exists", {"a.tum": TUM, "00_times.txt": "keep\n"},
         ["a.tum", "--save", "00.txt", "--to", "kitti"],
         error=r"00_times\.txt exists; pass --force", keep=("00_times.txt",)),
    Case("force-without-save", {"a.tum": TUM}, ["a.tum", "--force"],
         error=r"--force only goes with --save OUT or --plot FILE", code=2),
    Case("save-kitti-to-stdout", {"a.tum": TUM}, ["a.tum", "--save", "-", "--to", "kitti"],
         error=r"^ERROR: -: standard output: KITTI writes two files, the poses and their times"),
    # -- warnings: the problem and the fix stated, the numbers right
    Case("tum-ns-stamps", {"a.tum": _rows(["1305031102000000000", "1305031102500000000"])},
         ["a.tum"], issue=r"a\.tum: stamps read as nanoseconds and divided by 1e9 .*write them "
         r"in seconds", report={"start_s": 1305031102.0, "rate_hz": 2.0, "format": "tum"}),
    Case("euroc-seconds", {"data.csv": EUROC.replace("1403715524907143168", "1403715524.5")
                           .replace("1403715525407143168", "1403715525.0")
                           .replace("1403715525907143168", "1403715525.5")},
         ["data.csv"], issue=r"data\.csv: stamps read as seconds, not divided by 1e9 \(stamp "
         r"1403715524\.5 has a fraction at line 2\); EuRoC stamps are integer nanoseconds: write "
         r"them as such", report={"start_s": 1403715524.5, "rate_hz": 2.0, "format": "euroc"}),
    Case("rate-too-low", {"a.tum": _rows(["0.5", "2000000.5", "4000000.5"])}, ["a.tum"],
         issue=r"a\.tum: 3 poses in 4e\+06 s, 5e-07 Hz on average \(below 1e-6 Hz\).*write them "
         r"in seconds or choose the format", report={"poses": 3}),
    Case("rate-too-high", {"a.tum": _rows(["1.0", "1.0000001", "1.0000002"])}, ["a.tum"],
         issue=r"a\.tum: 3 poses in 2e-07 s, 1e\+07 Hz on average \(above 1 MHz\): .*choose the "
         r"format \(--format\)", report={"poses": 3}),
    Case("single-pose", {"a.tum": "1.5 0 0 0 0 0 0 1\n"}, ["a.tum"],
         issue=r"a\.tum: 1 pose only \(time span 0 s, no rate\)", report={"poses": 1}),
    Case("one-nan-row", {"a.tum": TUM + "2.5 nan 0 0 0 0 0 1\n"}, ["a.tum"],
         issue=r"a\.tum: 1 row\(s\) with NaN or infinite values dropped \(line 5\)",
         report={"poses": 3}),
    Case("unsorted", {"a.tum": _rows(["2", "1", "3"])}, ["a.tum"],
         issue=r"a\.tum: stamps not in increasing order \(1 place, first at line 2\): sorted",
         report={"start_s": 1.0}),
    Case("quaternion-off", {"a.tum": _rows(["1", "2"], quat="0 0 0 1.003")}, ["a.tum"],
         issue=r"a\.tum: 2 of 2 quaternion\(s\) not unit: normalised \(max norm deviation 0\.003"),
    Case("kitti-nearly-rotation", {"00.txt": "1.0002 0 0 0 0 1 0 0 0 0 1 0\n" + KITTI}, ["00.txt"],
         issue=r"00\.txt: 1 of 4 rotation blocks not orthonormal: replaced by the nearest "
         r"rotation \(max \|R Rᵀ - I\| 0\.0004 at line 1\)"),
]  # fmt: skip


def _materialise(tmp_path: Path, case: Case) -> dict[str, bytes]:
    """Write the case's files; return the content of those that must be kept."""
    for name, content in case.files.items():
        path = tmp_path / name
        if content is None:
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return {name: (tmp_path / name).read_bytes() for name in case.keep}


def _args(tmp_path: Path, case: Case) -> list[str]:
    """``traj`` and the case's arguments, each path (not a flag, nor a flag's word) in tmp_path."""
    out = ["traj"]
    for i, arg in enumerate(case.args):
        word = i > 0 and case.args[i - 1] in ("--format", "--to", "--topic")
        out.append(arg if arg.startswith("-") or word else str(tmp_path / arg))
    return out


def test_the_catalogue_holds_at_least_thirty_bad_inputs() -> None:
    assert len(CASES) >= 30
    assert len({c.name for c in CASES}) == len(CASES)
    assert all(bool(c.error) != bool(c.issue) for c in CASES)


@pytest.mark.parametrize("case", [c for c in CASES if c.error], ids=lambda c: c.name)
def test_a_bad_input_is_one_error_line_naming_the_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Case
) -> None:
    kept = _materialise(tmp_path, case)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(_args(tmp_path, case)) == case.code
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("ERROR: ")
    assert "Traceback" not in captured.err + captured.out
    assert re.search(case.error, lines[0]), lines[0]
    # Nothing clobbered, nothing half-written, no temporary file left.
    assert {name: (tmp_path / name).read_bytes() for name in case.keep} == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("case", [c for c in CASES if c.issue], ids=lambda c: c.name)
def test_a_doubtful_input_is_read_right_with_the_problem_and_fix_stated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Case
) -> None:
    _materialise(tmp_path, case)
    assert main([*_args(tmp_path, case), "--check", "--json"]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    (report,) = json.loads(captured.out)
    assert any(re.search(case.issue, issue) for issue in report["issues"]), report["issues"]
    for key, value in case.report.items():
        assert report[key] == value, key
    # The same as text: the issue is printed, never "issues none".
    assert main(_args(tmp_path, case)) == 0
    out = capsys.readouterr().out
    assert "issues       none" not in out
    assert all(len(line) <= 80 or " " not in line.strip() for line in out.splitlines())
    assert re.search(case.issue, re.sub(r"\n {15}", " ", out))  # an issue folds under its column
