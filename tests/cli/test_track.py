"""``robot-msgs track COMMAND MEASURED``: a control loop's tracking error from two CSV logs.

The numbers come from closed forms and from a python-control simulation shipped as
``example:control_servo/`` (written by ``python tests/data/make_control_servo.py``,
python-control 0.10.2): a setpoint log stepping two joints at t = 1 s and their response
every 2 ms. The integrals of the servo's error are checked against SciPy's adaptive
quadrature of the analytic response (the standard second-order and first-order step
responses), not against our trapezoids.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from decimal import Decimal
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.io import example_path
from tests.cli.evaluation_files import stats_of
from tests.hostile import deadline, fifo_with_writer

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

_COLUMNS = ["iae", "ise", "itae", "rms", "max_abs", "final"]
SERVO = example_path("control_servo")  # the shipped example (make_control_servo.py)
H = 0.002  # the servo's sample period, seconds
WN, ZETA, TAU = 2.0, 0.3, 0.25  # the elbow's loop, the wrist's (make_control_servo.py)


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["track", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_first_order_error_gets_its_closed_form_integrals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A constant command of 1 from t = 0 and a first-order response y = 1 - e^{-t/τ}:
    e = e^{-t/τ}, so IAE = τ(1 - e^{-T/τ}), ISE = τ/2 (1 - e^{-2T/τ}),
    ITAE = τ²(1 - e^{-T/τ}(1 + T/τ)); the rms of the samples e^{-kh/τ}, k = 0..N-1, is
    the geometric sum √((1 - q^N) / (N (1 - q))) with q = e^{-2h/τ}. Trapezoids of step
    h = 1 ms are within h²/12 ∫|f''| of each integral of f: 1.7e-7 (f = e), 3.3e-7 (e²),
    2.5e-7 (t e)."""
    tau, end, h = 0.5, 5.0, 0.001
    t = np.arange(5001) * h
    (tmp_path / "cmd.csv").write_text(f"time,x\n0,1\n{end},1\n")
    rows = "".join(f"{tk!r},{1.0 - math.exp(-tk / tau)!r}\n" for tk in t.tolist())
    (tmp_path / "y.csv").write_text("time,x\n" + rows)
    code, out, _ = _run([str(tmp_path / "cmd.csv"), str(tmp_path / "y.csv"), "--json"], capsys)
    assert code == 0
    x = stats_of(json.loads(out)["tracking"])["x"]
    decay = math.exp(-end / tau)
    assert x["iae"] == pytest.approx(tau * (1.0 - decay), abs=1.7e-7)
    assert x["ise"] == pytest.approx(tau / 2.0 * (1.0 - decay**2), abs=3.4e-7)
    assert x["itae"] == pytest.approx(tau**2 * (1.0 - decay * (1.0 + end / tau)), abs=2.5e-7)
    q = math.exp(-2.0 * h / tau)
    assert x["rms"] == pytest.approx(math.sqrt((1.0 - q**5001) / (5001 * (1.0 - q))), rel=1e-9)
    assert (x["max_abs"], x["n"]) == (1.0, 5001)
    assert x["final"] == pytest.approx(decay, rel=1e-9)


@pytest.mark.parametrize("dead", [0.0, 0.3], ids=["no dead time", "dead time 0.3 s"])
def test_step_info_times_itae_from_the_step_as_the_textbook_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dead: float
) -> None:
    """A step from 0 to 1 at t_s = 2 s, held to 12 s, and a first-order response
    (τ = 0.5 s) after a dead time L given as --delay L: e(t) = e^{-(t - t_s - L)/τ} from
    the step as the error sees it (the command read at t - L) and 0 before it. By hand,
    with s = t - t_s - L: ITAE = ∫ s e^{-s/τ} ds from 0 to T = τ²(1 - e^{-T/τ}(1 + T/τ)),
    which is τ² = 0.25 to 1.1e-8 for T = 10 s; IAE = τ(1 - e^{-T/τ}), plus h/2 for the
    jump from 0 to 1 over the sample before the step (weighted 0 in the ITAE). Trapezoids
    of step h = 1 ms are within h²/12 ∫|f''| <= 2.5e-7 of each (f = s e^{-s/τ},
    ∫|f''| <= 3).
    Timed from the log's first sample, as before, the ITAE was τ² + (t_s + L)τ: 1.25."""
    tau, step, end, h = 0.5, 2.0, 12.0, 0.001
    (tmp_path / "cmd.csv").write_text(f"time,x\n0,0\n{step},1\n{end},1\n")
    t = np.arange(round((end + dead) / h) + 1) * h
    y = np.where(t < step + dead, 0.0, 1.0 - np.exp(-(t - step - dead) / tau))
    rows = "".join(f"{tk!r},{yk!r}\n" for tk, yk in zip(t.tolist(), y.tolist(), strict=True))
    (tmp_path / "y.csv").write_text("time,x\n" + rows)
    args = [str(tmp_path / "cmd.csv"), str(tmp_path / "y.csv"), "--hold", "--step-info"]
    code, out, _ = _run([*args, "--delay", str(dead), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    x = stats_of(result["tracking"])["x"]
    assert x["itae"] == pytest.approx(tau**2, abs=2.6e-7)
    whole = tau * (1.0 - math.exp(-(end - step) / tau))
    assert x["iae"] == pytest.approx(whole + h / 2, abs=2.6e-7)  # the jump's h/2, as below
    assert result["tracking"]["parameters"]["itae_from"] == "the command's step"
    code, out, _ = _run([*args, "--delay", str(dead)], capsys)
    assert "  itae:     weighs |e| by the time since the command's step (0 before it)" in (
        out.splitlines()
    )
    code, out, _ = _run([*args[:3], "--delay", str(dead)], capsys)  # no --step-info
    assert "  itae:     weighs |e| by the time since the first matched sample" in out.splitlines()


def _elbow_error(t: float) -> float:
    """e = 1 - y of the standard second-order step response, t seconds after the step."""
    wd = WN * math.sqrt(1.0 - ZETA**2)
    phi = math.acos(ZETA)
    return math.exp(-ZETA * WN * t) * math.sin(wd * t + phi) / math.sqrt(1.0 - ZETA**2)


def test_the_servo_log_gets_quadratures_of_the_analytic_error_and_its_step_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The setpoint log held (--hold): e = 0 before the step at 1 s, then the analytic
    error to 8 s. Between the samples at 0.998 s and 1.000 s the error jumps from 0 to
    its step; trapezoids add half a sample period times the step's |e|, e², (t - t0)|e|
    there (h/2 and h/2 for the elbow; a quarter and an eighth for the wrist), which the
    expected values add; not to the ITAE, timed from the step with --step-info. The trapezoids of the smooth rest are within
    h²/12 ∫|f''| of each integral: 6.7e-7 for the wrist's |e| and e², less for the elbow's
    (3e-7 measured)."""
    from scipy.integrate import quad

    code, out, _ = _run(
        [
            str(SERVO / "command.csv"),
            str(SERVO / "measured.csv"),
            "--hold",
            "--step-info",
            "--json",
        ],
        capsys,
    )
    assert code == 0
    result = json.loads(out)
    stats = stats_of(result["tracking"])
    elbow, wrist = stats["elbow"], stats["wrist"]
    span = 7.0  # from the step at 1 s to the end at 8 s

    def integral(f: Callable[[float], float]) -> float:
        value, _ = quad(f, 0.0, span, limit=400, epsabs=1e-12)
        return float(value)

    assert elbow["iae"] == pytest.approx(integral(lambda s: abs(_elbow_error(s))) + H / 2, abs=1e-6)
    assert elbow["ise"] == pytest.approx(integral(lambda s: _elbow_error(s) ** 2) + H / 2, abs=1e-6)
    # --step-info times ITAE from the step (the textbook's t = 0): the jump's interval
    # [0.998, 1.000] s adds nothing, its weights 0 at both ends.
    assert elbow["itae"] == pytest.approx(integral(lambda s: s * abs(_elbow_error(s))), abs=1e-6)
    assert elbow["final"] == pytest.approx(_elbow_error(span), abs=1e-9)
    assert (elbow["max_abs"], wrist["max_abs"]) == (1.0, 0.5)
    # The wrist: e = -0.5 e^{-t/τ} after the step: IAE τ/2 (1 - e^{-7/τ}), ISE τ/8 (...).
    assert wrist["iae"] == pytest.approx(0.5 * TAU * (1 - math.exp(-span / TAU)) + H / 4, abs=1e-6)
    assert wrist["ise"] == pytest.approx(
        TAU / 8 * (1 - math.exp(-2 * span / TAU)) + H / 8, abs=1e-6
    )
    step = result["step"]
    damped = math.sqrt(1.0 - ZETA**2)
    assert step["elbow"]["overshoot_pct"] == pytest.approx(
        100.0 * math.exp(-ZETA * math.pi / damped), abs=1e-4
    )
    assert step["wrist"]["rise_time_s"] == pytest.approx(TAU * math.log(9.0), abs=1e-5)
    assert step["wrist"]["settling_time_s"] == pytest.approx(TAU * math.log(50.0), abs=1e-5)
    assert result["settings"]["interpolation"] == "previous"


def test_the_table_fits_80_columns_and_names_its_settings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(
        [
            *(str(SERVO / "command.csv"), str(SERVO / "measured.csv"), "--hold", "--unit", "rad"),
            *("--channels", "wrist", "--step-info", "--settling-time-threshold", "0.05"),
        ],
        capsys,
    )
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[1].split() == ["channel", "unit", "n", *_COLUMNS]
    assert lines[3].split()[:3] == ["wrist", "rad", "4001"]
    assert "  settings: --hold --step-info --settling-time-threshold 0.05" in lines
    assert "  samples:  commanded 3, measured 4001, matched 4001" in lines
    assert "elbow" not in out


def test_the_tables_are_written_as_json_latex_and_markdown_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [tmp_path / name for name in ("r.json", "r.tex", "r.md")]
    args = [str(SERVO / "command.csv"), str(SERVO / "measured.csv"), "--hold"]
    code, out, _ = _run(
        [*args, "--json", str(files[0]), "--latex", str(files[1]), "--markdown", str(files[2])],
        capsys,
    )
    assert code == 0
    assert [f"wrote {f}" for f in files] == out.splitlines()[-3:]
    assert "step" not in json.loads(files[0].read_text())
    assert "\\toprule" in files[1].read_text()
    assert "| elbow" in files[2].read_text()
    code, _, err = _run([*args, "--json", str(files[0])], capsys)  # not overwritten
    assert code == 1
    assert "--force" in err


def _servo_copy(tmp_path: Path, name: str, edit: str, line: int) -> Path:
    """The servo's measured log with its line ``line`` (1-based) replaced by ``edit``."""
    lines = (SERVO / "measured.csv").read_text().splitlines(keepends=True)
    lines[line - 1] = edit
    path = tmp_path / name
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize(
    ("edit", "line", "said"),
    [
        ("t,elbow\n", 1, r"m\.csv:1: expected a column 'wrist', got columns \['t', 'elbow'\]$"),
        ("0.5,0.1,zero\n", 252, r"m\.csv:252: column `wrist`: expected a number, got 'zero'$"),
        (
            "0.5,0,0\n",
            300,
            (
                r"m\.csv:300: column `t`: expected a time after 0\.594 \(strictly increasing\), "
                r"got 0\.5$"
            ),
        ),
    ],
    ids=["missing column", "non-numeric cell", "time backwards"],
)
def test_a_hostile_measured_log_is_one_error_line_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str, line: int, said: str
) -> None:
    measured = _servo_copy(tmp_path, "m.csv", edit, line)
    code, out, err = _run([str(SERVO / "command.csv"), str(measured)], capsys)
    assert (code, out) == (1, "")
    assert len(err.splitlines()) == 1
    assert err.startswith("ERROR: ")
    assert re.search(said, err.rstrip("\n"))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", r"c\.csv:1: expected a header line naming the columns, got an empty file"),
        ("t,elbow,wrist\n", r"c\.csv:1: expected rows of numbers after the header, got none"),
    ],
    ids=["empty", "header only"],
)
def test_an_empty_command_log_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    (tmp_path / "c.csv").write_text(text)
    code, out, err = _run([str(tmp_path / "c.csv"), str(SERVO / "measured.csv")], capsys)
    assert (code, out) == (1, "")
    assert len(err.splitlines()) == 1
    assert re.search(said, err)


def test_a_fifo_is_read_and_its_bad_line_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with deadline(60.0), fifo_with_writer(tmp_path / "cmd", b"t,elbow\n0,1\n8,1\n") as fifo:
        code, out, _ = _run([str(fifo), str(SERVO / "measured.csv")], capsys)
    assert code == 0
    assert "elbow" in out
    with deadline(60.0), fifo_with_writer(tmp_path / "bad", b"t,elbow\n0,1\n8,1e\n") as fifo:
        code, out, err = _run([str(fifo), str(SERVO / "measured.csv")], capsys)
    assert (code, out) == (1, "")
    assert err == f"ERROR: {tmp_path / 'bad'}:3: column `elbow`: expected a number, got '1e'\n"


def test_a_channel_misspelt_is_answered_with_the_close_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = _run(
        [str(SERVO / "command.csv"), str(SERVO / "measured.csv"), "--channels", "elbw"], capsys
    )
    assert code == 1
    assert err.rstrip().endswith("got columns ['t', 'elbow', 'wrist']; did you mean elbow?")


def test_a_command_without_one_step_is_refused_naming_file_and_channel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(SERVO / "measured.csv", tmp_path / "m.csv")
    (tmp_path / "c.csv").write_text("t,elbow,wrist\n0,0,0\n1,1,0\n8,1,0\n")
    code, _, err = _run(
        [str(tmp_path / "c.csv"), str(tmp_path / "m.csv"), "--hold", "--step-info"], capsys
    )
    assert code == 1
    assert err == (
        f"ERROR: {tmp_path / 'c.csv'}: channel 'wrist': Expected a step in `command`, got 0.0 "
        "throughout\n"
    )


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--rise-time-limits", "0.2", "0.8"], "--rise-time-limits sets a step-response figure"),
        (["--delay", "-1"], "--delay -1: expected float >= 0"),
        (
            ["--hold", "--step-info", "--rise-time-limits", "0.9", "0.1"],
            "--rise-time-limits 0.9 0.1:",
        ),
        # A command read linearly ramps from the point before its step: figures timed from
        # the step would be silently wrong, so --step-info asks for --hold.
        (["--step-info"], "--step-info times the command's step as a step; give --hold too"),
        (["--channels", "elbow", "wrist", "elbow"], "--channels names 'elbow' twice"),
    ],
)
def test_a_flag_the_settings_refuse_is_a_command_line_error(
    capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    code, _, err = _run([str(SERVO / "command.csv"), str(SERVO / "measured.csv"), *flags], capsys)
    assert code == 2
    assert said in err


def test_a_misspelt_flag_is_answered_with_the_close_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["track", str(SERVO / "command.csv"), str(SERVO / "measured.csv"), "--dealy", "1"])
    assert "unrecognized arguments: --dealy 1; did you mean --delay?" in capsys.readouterr().err


def test_a_measured_dropout_is_left_out_and_said_in_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The wrist's cells empty from 3.000 s to 3.098 s and NaN at 5 s: the run goes on
    (every gap refused the whole log). Its trapezoids leave out the intervals beside the
    gaps, [2.998, 3.100] and [4.998, 5.002] s, whose exact integrals of |e| = 0.5 e^{-s/τ}
    are subtracted from the whole span's; the note says 0.106 s of the 8 s are left out.
    The step figures, far from the gaps, keep τ ln 9 and τ ln 50."""
    lines = (SERVO / "measured.csv").read_text().splitlines(keepends=True)
    for row in range(1500, 1550):  # line row + 2 holds t = row * 2 ms
        lines[row + 1] = lines[row + 1].rsplit(",", 1)[0] + ",\n"
    lines[2501] = lines[2501].rsplit(",", 1)[0] + ",nan\n"
    (tmp_path / "m.csv").write_text("".join(lines))
    code, out, err = _run(
        [str(SERVO / "command.csv"), str(tmp_path / "m.csv"), "--hold", "--step-info", "--json"],
        capsys,
    )
    assert code == 0
    result = json.loads(out)
    wrist = stats_of(result["tracking"])["wrist"]

    def piece(a: float, b: float) -> float:  # ∫ 0.5 e^{-(t-1)/τ} dt from a to b
        return 0.5 * TAU * (math.exp(-(a - 1.0) / TAU) - math.exp(-(b - 1.0) / TAU))

    whole = piece(1.0, 8.0) + H / 4  # the half-sample jump at the step, as above
    assert wrist["iae"] == pytest.approx(
        whole - piece(2.998, 3.100) - piece(4.998, 5.002), abs=1e-6
    )
    assert wrist["n"] == 4001 - 51
    assert stats_of(result["tracking"])["elbow"]["n"] == 4001
    note = (
        "channel 'wrist': 51 of 4001 matched samples not finite (no measurement), left out; "
        "its iae/ise/itae integrate the 7.894 s of the 8 s span between two measured "
        "samples and leave the other 0.106 s out"
    )
    assert result["tracking"]["notes"] == [note]
    assert "NOTE: channel 'wrist': 51 of 4001 matched samples not finite" in err
    assert result["step"]["wrist"]["rise_time_s"] == pytest.approx(TAU * math.log(9.0), abs=1e-5)
    assert result["step"]["wrist"]["settling_time_s"] == pytest.approx(
        TAU * math.log(50.0), abs=1e-5
    )


def test_a_trailing_dropout_makes_final_the_last_measured_error_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The elbow's cells empty from 7.900 s to the end at 8 s: its ``final`` is the
    analytic error 6.898 s after the step (the last sample measured), 0.01602, not the
    one at 8 s, 0.01391; the note says which sample it is, so the table's figure is not
    read as the error at the end of the test."""
    lines = (SERVO / "measured.csv").read_text().splitlines(keepends=True)
    for row in range(3950, 4001):  # line row + 2 holds t = row * 2 ms
        t, _, wrist = lines[row + 1].split(",")
        lines[row + 1] = f"{t},,{wrist}"
    (tmp_path / "m.csv").write_text("".join(lines))
    code, out, err = _run(
        [str(SERVO / "command.csv"), str(tmp_path / "m.csv"), "--hold", "--json"], capsys
    )
    assert code == 0
    result = json.loads(out)
    elbow = stats_of(result["tracking"])["elbow"]
    assert elbow["final"] == pytest.approx(_elbow_error(7.898 - 1.0), abs=1e-9)
    assert abs(_elbow_error(7.898 - 1.0) - _elbow_error(7.0)) > 1e-3  # the two differ
    (note,) = result["tracking"]["notes"]
    assert note.endswith(
        "; its final is the error at t = 7.898 s, the last measured sample, not at the "
        "span's end (8.0 s)"
    )
    assert "its final is the error at t = 7.898 s" in " ".join(err.split())


def test_a_mode_column_of_text_is_left_out_with_a_note_and_refused_when_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both logs with a controller's ``mode`` column (text): the run failed at its first
    cell ("expected a number, got 'auto'"). Not named, it is left out, a note says so,
    and the numbers are those of the logs without it; named with --channels, it is one
    ERROR line naming file, line and column."""
    cmd = tmp_path / "c.csv"
    cmd.write_text("t,elbow,mode\n0,0,auto\n1,1,auto\n8,1,hold\n")
    lines = (SERVO / "measured.csv").read_text().splitlines()
    (tmp_path / "m.csv").write_text(
        "\n".join([f"{lines[0]},mode", *(f"{line},auto" for line in lines[1:])]) + "\n"
    )
    code, out, _ = _run([str(cmd), str(tmp_path / "m.csv"), "--hold", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert list(stats_of(result["tracking"])) == ["elbow"]
    assert result["tracking"]["notes"] == [
        f"{cmd}:2: column `mode` holds text ('auto'), no channel: left out"
    ]
    code, out, _ = _run(
        [str(SERVO / "command.csv"), str(SERVO / "measured.csv"), "--hold", "--json"], capsys
    )
    assert stats_of(result["tracking"])["elbow"] == stats_of(json.loads(out)["tracking"])["elbow"]
    code, out, _ = _run([str(cmd), str(tmp_path / "m.csv"), "--hold"], capsys)
    assert f"NOTE: {cmd}:2: column `mode` holds text ('auto'), no channel:" in " ".join(out.split())
    code, out, err = _run([str(cmd), str(tmp_path / "m.csv"), "--channels", "mode"], capsys)
    assert (code, out) == (1, "")
    assert err == f"ERROR: {cmd}:2: column `mode`: expected a number, got 'auto'\n"


def _long(wide: str, *, swap_odd: bool = False) -> str:
    """A wide log (``t,elbow,wrist``) as one row per joint per time, with a velocity
    column of zeros; each odd sample's joints in the other order when ``swap_odd``."""
    rows = [line for line in wide.splitlines() if line and not line.startswith("#")]
    names = rows[0].split(",")[1:]
    out = ["time,name,position,velocity"]
    for k, row in enumerate(rows[1:]):
        t, *values = row.split(",")
        pairs = list(zip(names, values, strict=True))
        for name, value in reversed(pairs) if swap_odd and k % 2 else pairs:
            out.append(f"{t},{name},{value},0")
    return "\n".join(out) + "\n"


def test_joint_state_logs_of_one_row_per_joint_give_the_numbers_of_the_wide_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The servo's logs as JointState rows (``time,name,position,velocity``, the joints
    in either order within a time): the run failed ("column `name`: expected a
    number"); now every figure equals the wide logs', bit for bit, dropouts included
    (the wrist's rows missing from 3.000 s to 3.098 s, as its empty cells)."""
    wide = (SERVO / "measured.csv").read_text()
    lines = wide.splitlines(keepends=True)
    for row in range(1500, 1550):  # line row + 2 holds t = row * 2 ms
        lines[row + 1] = lines[row + 1].rsplit(",", 1)[0] + ",\n"
    gappy = "".join(lines)
    (tmp_path / "wide.csv").write_text(gappy)
    long_rows = _long(gappy, swap_odd=True).splitlines(keepends=True)
    kept = [line for line in long_rows if not line.endswith("wrist,,0\n")]  # rows dropped
    assert len(long_rows) - len(kept) == 50
    (tmp_path / "m.csv").write_text("".join(kept))
    (tmp_path / "c.csv").write_text(_long((SERVO / "command.csv").read_text()))
    flags = ["--hold", "--step-info", "--json"]
    code, out, _ = _run([str(SERVO / "command.csv"), str(tmp_path / "wide.csv"), *flags], capsys)
    assert code == 0
    expected = json.loads(out)
    code, out, _ = _run([str(tmp_path / "c.csv"), str(tmp_path / "m.csv"), *flags], capsys)
    assert code == 0
    got = json.loads(out)
    assert stats_of(got["tracking"]) == stats_of(expected["tracking"])
    assert got["step"] == expected["step"]
    assert got["tracking"]["counts"] == expected["tracking"]["counts"]
    assert got["tracking"]["notes"][:2] == [
        f"{tmp_path / name}: one row per joint per time: channels by `name`, values of "
        "`position` (`velocity` not read)"
        for name in ("c.csv", "m.csv")
    ]
    assert got["tracking"]["notes"][2:] == expected["tracking"]["notes"]
    twice = [*kept[:3], kept[2], *kept[3:]]
    (tmp_path / "m.csv").write_text("".join(twice))
    code, out, err = _run([str(tmp_path / "c.csv"), str(tmp_path / "m.csv")], capsys)
    assert (code, out) == (1, "")
    assert err == (
        f"ERROR: {tmp_path / 'm.csv'}:4: expected one row per joint per time, got a second "
        "row of 'wrist' at t = 0.0 s (the first at line 3)\n"
    )


def _joint_bag(
    tmp_path: Path, kind: str, topics: dict[str, list[tuple[int, dict[str, float]]]]
) -> Path:
    """A bag of ``{topic: [(stamp_ns, {joint: position}), ...]}`` JointState messages,
    each with a velocity of -d/dt of the first-order position below (``velocity`` key),
    written by rosbags (ROS 1 ``.bag``, ROS 2 sqlite3 or MCAP), and a PoseStamped topic
    ``/pose``."""
    from tests.io.conftest import BagMaker

    maker = BagMaker(tmp_path)
    store = maker.store1 if kind == "ros1" else maker.store2
    cls = store.types["sensor_msgs/msg/JointState"]
    written: dict[str, tuple[str, list[object]]] = {}
    for topic, samples in topics.items():
        msgs: list[object] = []
        for ns, joints in samples:
            names = [n for n in joints if n != "velocity"]
            msgs.append(
                cls(
                    header=maker.header(kind, ns // 10**9, ns % 10**9, ""),
                    name=names,
                    position=np.array([joints[n] for n in names]),
                    velocity=np.array([joints.get("velocity", 0.0)] * len(names)),
                    effort=np.zeros(0),
                )
            )
        written[topic] = ("sensor_msgs/msg/JointState", msgs)
    written["/pose"] = (
        "geometry_msgs/msg/PoseStamped",
        [
            maker.message(
                kind, "geometry_msgs/msg/PoseStamped", (0, 0, "map", (0, 0, 0), (0, 0, 0, 1))
            )
        ],
    )
    return maker.write(f"joints_{kind}", kind, written)


_TAU, _END_MS = 0.5, 5000  # the first-order response's time constant (s), its span (ms)


def _first_order() -> list[tuple[int, dict[str, float]]]:
    """y = 1 - e^{-t/τ} and its rate e^{-t/τ}/τ, every millisecond from 0 to 5 s."""
    return [
        (
            k * 10**6,
            {"x": 1.0 - math.exp(-k / 1000 / _TAU), "velocity": math.exp(-k / 1000 / _TAU) / _TAU},
        )
        for k in range(_END_MS + 1)
    ]


@pytest.mark.parametrize("kind", ["ros1", "sqlite3", "mcap"])
def test_a_joint_state_bag_gives_the_closed_form_integrals_and_the_csv_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A bag with a command topic (1 rad at 0 s and 5 s, velocity 0) and a state topic
    (the first-order response y = 1 - e^{-t/τ}, τ = 0.5 s, each millisecond): e = e^{-t/τ},
    so IAE = τ(1 - e^{-T/τ}) and, of the velocity (--field velocity, e = -e^{-t/τ}/τ),
    IAE = 1 - e^{-T/τ}; trapezoids of h = 1 ms are within h²/12 ∫|f''| of each (1.7e-7,
    3.3e-7). ``track`` refused the bag ("expected a header line"); now every figure
    equals the CSV logs' of the same samples, bit for bit. A bag of two JointState topics
    is refused naming both, as ``ape`` refuses one of two pose topics."""
    bag = _joint_bag(
        tmp_path,
        kind,
        {
            "/joint_commands": [(0, {"x": 1.0}), (_END_MS * 10**6, {"x": 1.0})],
            "/joint_states": _first_order(),
        },
    )
    code, out, err = _run([str(bag), str(bag)], capsys)
    assert (code, out) == (1, "")
    assert err == (
        f"ERROR: {bag}: choose a topic with --command-topic (JointState topics: "
        "/joint_commands, /joint_states)\n"
    )
    topics = ["--command-topic", "/joint_commands", "--measured-topic", "/joint_states"]
    code, out, _ = _run([str(bag), str(bag), *topics, "--json"], capsys)
    assert code == 0
    from_bag = json.loads(out)
    x = stats_of(from_bag["tracking"])["x"]
    decay = math.exp(-_END_MS / 1000 / _TAU)
    assert x["iae"] == pytest.approx(_TAU * (1.0 - decay), abs=1.7e-7)
    assert x["n"] == _END_MS + 1
    code, out, _ = _run([str(bag), str(bag), *topics, "--field", "velocity", "--json"], capsys)
    assert code == 0
    v = stats_of(json.loads(out)["tracking"])["x"]
    assert v["iae"] == pytest.approx(1.0 - decay, abs=3.4e-7)
    assert v["final"] == pytest.approx(-decay / _TAU, rel=1e-9)
    # The same samples as CSV logs of one row per joint per time: the same numbers.
    (tmp_path / "c.csv").write_text(f"time,name,position\n0.0,x,1.0\n{_END_MS / 1000!r},x,1.0\n")
    rows = "".join(f"{ns / 10**9!r},x,{j['x']!r}\n" for ns, j in _first_order())
    (tmp_path / "m.csv").write_text("time,name,position\n" + rows)
    code, out, _ = _run([str(tmp_path / "c.csv"), str(tmp_path / "m.csv"), "--json"], capsys)
    assert code == 0
    from_csv = json.loads(out)
    assert stats_of(from_csv["tracking"]) == stats_of(from_bag["tracking"])
    assert from_csv["tracking"]["counts"] == from_bag["tracking"]["counts"]


_EPOCH_NS = 1_700_000_000_123_456_789  # a stamp of today, its nanoseconds all typed


def _decimal(ns: int) -> str:
    """``ns`` as decimal seconds with 9 decimals, as a logger of ROS stamps writes them."""
    return f"{ns // 10**9}.{ns % 10**9:09d}"


def _exponent(ns: int) -> str:
    """``ns`` as decimal seconds in exponent form, as NumPy's ``savetxt`` (``%.18e``)."""
    return format(Decimal(ns).scaleb(-9), ".18e")


@pytest.mark.parametrize("kind", ["csv", "csv-e", "ros1", "sqlite3", "mcap"])
def test_epoch_stamps_give_the_trapezoids_closed_forms_to_float64s_own_rounding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """The first-order response of the bag test above (τ = 0.5 s, h = 1 ms, T = 5 s,
    e_k = q^k with q = e^{-h/τ}), stamped from 1700000000.123456789 s (a bag's
    header.stamp, or a CSV log's 9 decimals), one sample before the command too. By
    hand, the trapezoids of n = 5000 intervals are geometric sums:
    IAE = h (1 + q)/2 (1 - q^n)/(1 - q), ISE the same of q², and ITAE (t from the first
    matched sample) = h²/2 (2 S_{n-1} + n q^n), S_m = Σ_{k<=m} k q^k =
    q (1 - (m+1) q^m + m q^{m+1})/(1 - q)². Over float64 seconds since 1970 (2.4e-7 s
    apart) they were 1.45e-7, 2.92e-7 and 1.45e-7 relative off (the library's
    joint_tracking, on the nanoseconds, 4e-17); the times counted in nanoseconds from
    the command's whole second, 4e-17 to 2e-16. Seen failing before. The sample left out
    is said at its time on the clock, and a ramp's final error (0.001 e^{-t/τ} at
    4.567 s, 1.08e-7 rad, behind a command of 1 rad/s to 6 s read linearly) was
    2.59e-7 (the ramp read 1.5e-7 s off); now 2.4e-16 off, within the two float steps of
    4.567 that r - y keeps. Typed in exponent form (``1.700000000123456789e+9``,
    csv-e) the stamps were read as floats, 1.45e-7 relative off (seen failing before)."""
    h, n = 0.001, _END_MS
    q = math.exp(-h / _TAU)
    before = (_EPOCH_NS - 10**6, {"x": 0.0})
    states = [before, *((_EPOCH_NS + ns, j) for ns, j in _first_order())]
    commands = [(_EPOCH_NS, {"x": 1.0}), (_EPOCH_NS + _END_MS * 10**6, {"x": 1.0})]
    ramp_to = _EPOCH_NS + 6 * 10**9
    ramp = [(_EPOCH_NS, {"x": 0.0}), (ramp_to, {"x": 6.0})]
    behind = [(_EPOCH_NS + k * 10**6, {"x": k / 1000 - 0.001 * math.exp(-k / 1000 / _TAU)})
              for k in range(4568)]  # fmt: skip
    if kind.startswith("csv"):
        logs = []
        typed = _exponent if kind == "csv-e" else _decimal
        for name, samples in (("c", commands), ("m", states), ("r", ramp), ("b", behind)):
            rows = "".join(f"{typed(ns)},{j['x']!r}\n" for ns, j in samples)
            (tmp_path / f"{name}.csv").write_text("time,x\n" + rows)
            logs.append([str(tmp_path / f"{name}.csv")])
    else:
        bag = _joint_bag(
            tmp_path,
            kind,
            {"/c": commands, "/m": states, "/r": ramp, "/b": behind},
        )
        logs = [[str(bag), f"--{side}-topic", f"/{t}"]
                for side, t in (("command", "c"), ("measured", "m"), ("command", "r"),
                                ("measured", "b"))]  # fmt: skip
    code, out, _ = _run([*logs[0], *logs[1], "--json"], capsys)
    assert code == 0
    result = json.loads(out)["tracking"]
    x = stats_of(result)["x"]
    # 1 - q^k as -expm1: 1 - q of q near 1 lost 5e-14 of itself, 1e-13 of the ITAE
    iae = h * (1 + q) / 2 * -math.expm1(-n * h / _TAU) / -math.expm1(-h / _TAU)
    ise = h * (1 + q * q) / 2 * -math.expm1(-2 * n * h / _TAU) / -math.expm1(-2 * h / _TAU)
    m = n - 1
    s_m = q * (1 - (m + 1) * q**m + m * q ** (m + 1)) / math.expm1(-h / _TAU) ** 2
    itae = h * h / 2 * (2 * s_m + n * q**n)
    assert x["n"] == n + 1
    assert x["iae"] == pytest.approx(iae, rel=1e-14, abs=0)
    assert x["ise"] == pytest.approx(ise, rel=1e-14, abs=0)
    assert x["itae"] == pytest.approx(itae, rel=1e-14, abs=0)
    span = f"[{_EPOCH_NS / 10**9!r}, {(_EPOCH_NS + _END_MS * 10**6) / 10**9!r}] s"
    assert result["notes"] == [
        f"1 of {n + 2} measured samples lie outside the command span {span} and were left out"
    ]
    code, out, _ = _run([*logs[2], *logs[3], "--json"], capsys)
    assert code == 0
    final = stats_of(json.loads(out)["tracking"])["x"]["final"]
    # within 2 float steps of 4.567 (1.8e-15): what r - y of two such numbers keeps
    assert final == pytest.approx(0.001 * math.exp(-4.567 / _TAU), abs=1.8e-15)


def test_step_info_of_epoch_stamps_gives_the_figures_of_the_same_log_from_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A step at 1 s (τ = 0.5 s, 1 ms samples to 11 s) logged from 0 and from
    1700000000.123456789 s with 9 decimals: rise τ ln 9 and settling τ ln 50 within the
    interpolation's 2e-8 s, and the epoch log's figures and step ITAE those of the log
    from 0 to 1e-12 s. Read as float64 seconds since 1970 the rise was 7.5e-8 s off the
    log from 0's, the settling 8.9e-8 s (and the ITAE 3.6e-8 before the stamps'
    nanoseconds were read); seen failing before. A command of two steps is refused at
    its second step's time on the clock."""
    figures = []
    for base in (0, _EPOCH_NS):
        c, m = tmp_path / f"c{base}.csv", tmp_path / f"m{base}.csv"
        c.write_text(f"t,x\n{_decimal(base)},0\n{_decimal(base + 10**9)},1\n"
                     f"{_decimal(base + 11 * 10**9)},1\n")  # fmt: skip
        y = [0.0 if k < 1000 else 1.0 - math.exp(-(k - 1000) / 1000 / _TAU) for k in range(11001)]
        rows = "".join(f"{_decimal(base + k * 10**6)},{v!r}\n" for k, v in enumerate(y))
        m.write_text("t,x\n" + rows)
        code, out, _ = _run([str(c), str(m), "--hold", "--step-info", "--json"], capsys)
        assert code == 0
        result = json.loads(out)
        step = result["step"]["x"]
        figures.append((step["rise_time_s"], step["settling_time_s"], step["peak_time_s"],
                        stats_of(result["tracking"])["x"]["itae"]))  # fmt: skip
    assert figures[0][0] == pytest.approx(_TAU * math.log(9), abs=2e-8)
    assert figures[0][1] == pytest.approx(_TAU * math.log(50), abs=2e-8)
    assert figures[1] == pytest.approx(figures[0], rel=0, abs=1e-12)
    (tmp_path / "c2.csv").write_text(
        f"t,x\n{_decimal(_EPOCH_NS)},0\n{_decimal(_EPOCH_NS + 10**9)},1\n"
        f"{_decimal(_EPOCH_NS + 2 * 10**9)},2\n"
    )
    m = tmp_path / f"m{_EPOCH_NS}.csv"
    code, out, err = _run([str(tmp_path / "c2.csv"), str(m), "--hold", "--step-info"], capsys)
    assert (code, out) == (1, "")
    assert err.endswith(f"got 2.0 at t_command[2] = {(_EPOCH_NS + 2 * 10**9) / 10**9!r} s\n"), err


_GOOD = {
    "/joint_commands": [(0, {"x": 1.0}), (10**9, {"x": 1.0})],
    "/joint_states": [(0, {"x": 0.5}), (10**6, {"x": 0.75})],
    "/empty": [],
}
_THEN_Y = [(0, {"x": 0.5}), (10**6, {"y": 0.5})]


@pytest.mark.parametrize(
    ("topics", "flags", "said"),
    [
        (
            {},
            ["--measured-topic", "/pose"],
            (
                " /pose: expected a topic of type sensor_msgs/msg/JointState, got "
                "geometry_msgs/msg/PoseStamped"
            ),
        ),
        ({}, ["--measured-topic", "/empty"], " /empty: expected JointState messages, got none"),
        (
            {},
            ["--measured-topic", "/joint_sates"],
            (
                ": no topic '/joint_sates'; did you mean /joint_states, /joint_commands? topics: /empty "
                "(sensor_msgs/msg/JointState), /joint_commands "
                "(sensor_msgs/msg/JointState), /joint_states (sensor_msgs/msg/JointState), /pose "
                "(geometry_msgs/msg/PoseStamped)"
            ),
        ),
        (
            {"/joint_commands": _THEN_Y},
            [],
            (
                " /joint_commands: expected every message to name the first's joints ['x'], got "
                "['y'] in message 1 (give the joints with channels)"
            ),
        ),
        (
            {"/joint_states": _THEN_Y},
            [],
            " /joint_states: Expected joint 'x' in `message[1].name`, got ('y',)",
        ),
        (
            {"/joint_states": [(10**6, {"x": 0.5}), (10**6, {"x": 0.5})]},
            [],
            (
                " /joint_states: expected header.stamp strictly increasing, got message 1 at "
                "0.001 s after 0.001 s\n"
            ),
        ),
        (
            {"/joint_states": [(0, {"x": 0.5}), (0, {"x": 0.6}), (0, {"x": 0.7})]},
            [],
            (
                " /joint_states: expected header.stamp strictly increasing, got message 1 at 0.0 s "
                "after 0.0 s: header.stamp is not set by its publisher (the bag's receive times "
                "are not used as stamps)\n"
            ),
        ),
        (
            {"/joint_states": [(0, {"x": 0.5}), (10**6, {"x": math.inf})]},
            [],
            (
                " /joint_states: message 1 (t = 0.001 s): position of 'x': expected a finite "
                "number or NaN (a dropout), got inf"
            ),
        ),
        (
            {"/joint_commands": [(0, {"x": 1.0}), (10**9, {"x": math.nan})]},
            [],
            (
                " /joint_commands: message 1 (t = 1.0 s): position of 'x': expected a finite "
                "number, got nan"
            ),
        ),
        (
            {},
            ["--field", "effort"],
            " /joint_commands: Expected `message[0].effort` values, got none",
        ),
    ],
    ids=[
        "wrong type",
        "empty topic",
        "misspelt topic",
        "command names change",
        "measured names change",
        "stamps repeat",
        "stamps unset",
        "inf",
        "command nan",
        "no effort",
    ],
)
def test_a_hostile_joint_state_bag_is_one_error_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    topics: dict[str, list[tuple[int, dict[str, float]]]],
    flags: list[str],
    said: str,
) -> None:
    """Each refusal is one ERROR line naming the bag and topic (and message), no
    traceback (as a CSV log's bad cell is its file and line)."""
    bag = _joint_bag(tmp_path, "mcap", {**_GOOD, **topics})
    topic = [] if "--measured-topic" in flags else ["--measured-topic", "/joint_states"]
    args = [str(bag), str(bag), "--command-topic", "/joint_commands", *topic]
    code, out, err = _run([*args, *flags], capsys)
    assert (code, out) == (1, "")
    assert err.startswith(f"ERROR: {bag}{said}")
    assert len(err.splitlines()) == 1


def test_a_measured_nan_of_a_joint_state_bag_is_a_dropout_as_an_empty_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A measured NaN position is left out, with the note a CSV log's empty cell gets:
    of 3 samples at 0, 0.5 and 1 s the middle one is missing, so no interval has both
    ends measured and the two others are the statistics' (n = 2)."""
    measured = [(0, {"x": 0.5}), (5 * 10**8, {"x": math.nan}), (10**9, {"x": 0.75})]
    bag = _joint_bag(tmp_path, "mcap", {**_GOOD, "/joint_states": measured})
    args = ["--command-topic", "/joint_commands", "--measured-topic", "/joint_states"]
    code, out, _ = _run([str(bag), str(bag), *args, "--json"], capsys)
    assert code == 0
    result = json.loads(out)["tracking"]
    assert stats_of(result)["x"]["n"] == 2
    assert any(
        n.startswith("channel 'x': 1 of 3 matched samples not finite") for n in result["notes"]
    )


def test_field_chooses_the_column_of_a_joint_state_log_and_is_refused_for_a_wide_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--field velocity`` reads the velocity column (it always read ``position``):
    a command of velocity 0 against a measured 0.5 rad/s for 2 s has IAE 1.0 by hand;
    a wide log has no field and is refused naming its header line."""
    (tmp_path / "c.csv").write_text("time,name,position,velocity\n0,x,1,0\n2,x,1,0\n")
    (tmp_path / "m.csv").write_text(
        "time,name,position,velocity\n0,x,1,0.5\n1,x,1,0.5\n2,x,1,0.5\n"
    )
    code, out, _ = _run(
        [str(tmp_path / "c.csv"), str(tmp_path / "m.csv"), "--field", "velocity", "--json"], capsys
    )
    assert code == 0
    x = stats_of(json.loads(out)["tracking"])["x"]
    assert (x["iae"], x["final"]) == (1.0, -0.5)
    code, out, _ = _run([str(tmp_path / "c.csv"), str(tmp_path / "m.csv"), "--json"], capsys)
    assert stats_of(json.loads(out)["tracking"])["x"]["iae"] == 0.0  # position, by default
    code, out, err = _run(
        [str(SERVO / "command.csv"), str(SERVO / "measured.csv"), "--field", "effort"], capsys
    )
    assert (code, out) == (1, "")
    assert err == (
        f"ERROR: {SERVO / 'command.csv'}:2: expected a column `effort` (the field asked for), got "
        "a log of a column per channel (a field is read of one row per joint per time, "
        "`time,name,position`)\n"
    )


def test_a_bag_named_without_its_suffix_is_read_as_a_bag_as_ape_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An MCAP file named ``run`` (no ``.mcap``) was read as a CSV log: "expected UTF-8
    text, got undecodable bytes", where ``ape`` detects it by its magic bytes. Now it is
    the bag: against a command of 1, states of 0.5 and 0.75 at 0 and 1 ms have errors
    0.5 and 0.25, IAE (0.5 + 0.25) / 2 * 0.001 by hand."""
    folder = _joint_bag(tmp_path, "mcap", {k: v for k, v in _GOOD.items() if k != "/empty"})
    run = tmp_path / "run"
    shutil.copyfile(next(folder.glob("*.mcap")), run)
    args = ["--command-topic", "/joint_commands", "--measured-topic", "/joint_states"]
    code, out, _ = _run([str(run), str(run), *args, "--json"], capsys)
    assert code == 0
    x = stats_of(json.loads(out)["tracking"])["x"]
    assert (x["n"], x["iae"]) == (2, (0.5 + 0.25) / 2 * 0.001)


def test_a_bag_without_a_joint_state_topic_is_refused_naming_the_topics_it_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bag of a pose topic only was told "choose a topic with --command-topic
    (JointState topics: none)", as if one could be chosen, naming none it has."""
    bag = _joint_bag(tmp_path, "sqlite3", {})
    code, out, err = _run([str(bag), str(bag)], capsys)
    assert (code, out) == (1, "")
    assert err == (
        f"ERROR: {bag}: no sensor_msgs/msg/JointState topic with messages; the bag's 1 "
        "topic: /pose (geometry_msgs/msg/PoseStamped)\n"
    )


def test_logs_on_two_clocks_are_said_at_their_times_as_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command since 1970 and a measurement since boot (5 s to 6.999 s, typed to the
    nanosecond): counted from the command's whole second, the measured times were said
    [5.0, 6.999000072479248] s, no time in the file; as typed now."""
    command = tmp_path / "c.csv"
    command.write_text(f"time,x\n{_decimal(_EPOCH_NS)},0.0\n{_decimal(_EPOCH_NS + 10**9)},1.0\n")
    measured = tmp_path / "m.csv"
    measured.write_text("time,x\n5.000000000,0.0\n6.999000000,1.0\n")
    code, _, err = _run([str(command), str(measured)], capsys)
    assert code == 1
    assert "(measured span [5.0, 6.999] s): are both on the same clock?" in err


def test_times_one_float64_read_as_floats_are_refused_naming_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command 1 ns apart since 1970 (one float64, 1700000000.0), beside a measured log
    not of whole nanoseconds, is counted in its floats: refused as `t_command[1] =
    1700000000.0`, naming no file nor time typed (seen failing before), where the reader
    refused it so before its nanoseconds ordered it. Named now, with its times as typed."""
    command = tmp_path / "c.csv"
    command.write_text(
        "t,x\n1700000000.000000001,0\n1700000000.000000002,1\n1700000001,2\n1700000002,3\n"
    )
    measured = tmp_path / "m.csv"
    measured.write_text("t,x\n1000.0000000005,0\n1700000001,1\n1700000002,2\n")
    code, out, err = _run([str(command), str(measured)], capsys)
    assert (code, out) == (1, "")
    assert err == (
        f"ERROR: {command}: expected times apart as float64 seconds (those of {measured} "
        "are not all whole nanoseconds), got 1700000000.000000001 and 1700000000.000000002 "
        "s, both 1700000000.0\n"
    )
