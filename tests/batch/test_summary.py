"""The sweep's summary: three outcomes kept apart, every unfinished run named, one rate."""

from __future__ import annotations

import math

from robot_msgs.batch.summary import SHOWN_PER_KIND, SweepSummary


def _summary(**fields: object) -> SweepSummary:
    values: dict[str, object] = {
        "out": "o", "executor": "dask (tcp://10.0.0.5:8786)", "n_runs": 100, "n_ok": 100,
        "n_succeeded": 99, "n_failed": 0, "n_crashed": 0, "n_lost": 0, "n_reused": 0,
        "n_computed": 100, "elapsed_s": 12.0, "compute_s": 10.0, "startup_s": 2.0,
        "throughput": 12.5, "table": "o/results.parquet",
    }  # fmt: skip
    return SweepSummary(**(values | fields))  # type: ignore[arg-type]


def test_a_complete_sweep_says_so_with_its_throughput() -> None:
    summary = _summary(run_failures={"killed by SIGSEGV (exit code -11)": 1, "exit code 3": 2})
    assert summary.complete
    head = (
        "100 runs: 100 evaluated (99 succeeded), 0 failed to evaluate, 0 not evaluated; "
        "0 reused, 100 computed in 10.0 s on dask (tcp://10.0.0.5:8786): "
        "12.50 runs/s after the first result at 2.0 s"
    )
    lines = summary.text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert " ".join(lines[:-2]) == head  # wrapped at 80 columns
    # The count first: "exit code -11 1" read as one code.
    assert lines[-2] == "run failures: 2 exit code 3; 1 killed by SIGSEGV (exit code -11)"
    assert lines[-1] == "table: o/results.parquet"
    record = summary.to_dict()
    assert (record["complete"], record["run_failures"]["exit code 3"]) == (True, 2)


def test_runs_lost_to_the_infrastructure_make_it_incomplete_and_are_named() -> None:
    lost = {f"orb/MH_01/{k}": "SchedulerLost: gone" for k in range(SHOWN_PER_KIND + 5)}
    summary = _summary(n_ok=75, n_lost=25, infrastructure=lost)
    assert not summary.complete
    assert summary.n_not_evaluated == 25
    lines = summary.text().splitlines()
    # The parts are the infrastructure's, said so: "0 crashed" beside "run failures: 8
    # segfault" read as no run crashed (a sweep of 192 runs).
    assert "25 not evaluated (0 crashed their worker, 25 lost by the cluster);" in " ".join(lines)
    named = [line for line in lines if line.startswith("not evaluated: orb/")]
    assert len(named) == SHOWN_PER_KIND
    assert named[0] == "not evaluated: orb/MH_01/0: SchedulerLost: gone"
    assert "not evaluated: ... and 5 more (summary.json)" in lines
    assert "--resume computes the 25 runs not evaluated" in lines
    assert summary.to_dict()["infrastructure"] == lost  # every one, in the file


def test_a_sweep_too_short_to_measure_shows_no_rate() -> None:
    text = " ".join(_summary(throughput=math.nan, startup_s=math.nan).text().split())
    # 100 runs in 10 s: the rate of the whole computation, said to include the start-up.
    assert "on dask (tcp://10.0.0.5:8786): 10.00 runs/s, start-up included" in text
    assert "--" not in text
    nothing = _summary(throughput=math.nan, startup_s=math.nan, n_computed=0, n_reused=100)
    assert "no rate (nothing computed)" in " ".join(nothing.text().split())


def test_start_up_is_never_cut_at_its_hyphen() -> None:
    """Issue 21: the summary wrapped as "start-" / "up included" where 80 columns fell."""
    for executor in ("x" * n for n in range(1, 60)):  # the hyphen at every column
        lines = _summary(executor=executor, throughput=math.nan).text().splitlines()
        assert not any(line.endswith("start-") for line in lines)
        assert "start-up included" in " ".join(lines)


def test_every_line_fits_80_columns_the_errors_too() -> None:
    """A sweep of 2010 runs printed its summary at 80 columns but each run that failed
    to evaluate on one line of up to 268 (the error names its file); wrapped as the rest,
    every word kept whole and each line after the first indented."""
    path = "/data/sweeps/2026-12/hostile/fr1_xyz/dangling/estimate.tum"
    error = (
        f"FormatError: {path}: the run's estimate is a symbolic link to "
        "/data/moved/estimate.tum, which does not exist (/data/sweeps/2026-12/hostile)"
    )
    summary = _summary(
        n_ok=99, n_failed=1, errors={"hostile/fr1_xyz/dangling": error},
        stopped="no worker returned anything for 600 s (--stall-timeout): " + path,
        notes=("the records of 12 runs made by robot_msgs 0.1.0 were computed again " * 2,),
    )  # fmt: skip
    lines = summary.text().splitlines()
    assert max(len(line) for line in lines) <= 80
    text = " ".join(line.strip() for line in lines)
    assert f"failed to evaluate: hostile/fr1_xyz/dangling: {error}" in text
    assert f"stopped: {summary.stopped}" in text
    assert f"note: {summary.notes[0].strip()}" in text
    named = next(k for k, line in enumerate(lines) if line.startswith("failed to evaluate:"))
    assert lines[named + 1].startswith("  ")


def test_names_from_files_never_act_on_the_terminal() -> None:
    """A run folder named ``t<ESC>[31mred<LF>line`` (junk estimate) printed the escape raw
    in the summary, turning the terminal red, while the ERROR line wrote ``\\x1b``; a
    meta.json ``failure`` is a file's text too. Both are escaped as in the tables."""
    name = "orb/MH_01/t\x1b[31mred\nline"
    summary = _summary(
        n_ok=99, n_failed=1, errors={name: f"FormatError: /d/{name}/estimate.tum: bad"},
        run_failures={"segfault\x1b]0;owned\x07": 1}, table="o\x1b[2J/results.parquet",
    )  # fmt: skip
    text = summary.text()
    assert not any(c in text for c in "\x1b\x07")
    said = " ".join(text.split())
    escaped = "orb/MH_01/t\\x1b[31mred\\x0aline"
    assert f"failed to evaluate: {escaped}: FormatError: /d/{escaped}/estimate.tum: bad" in said
    assert "run failures: 1 segfault\\x1b]0;owned\\x07" in said
    assert text.splitlines()[-1] == "table: o\\x1b[2J/results.parquet"


def test_a_sweep_of_one_run_says_run_not_runs() -> None:
    """A sweep of one run said "1 runs:" (a review); one lost said "the 1 run"."""
    one = _summary(n_runs=1, n_ok=0, n_succeeded=0, n_lost=1, n_computed=1)
    text = " ".join(one.text().split())
    assert text.startswith("1 run: 0 evaluated (0 succeeded), 0 failed to evaluate, 1 not ")
    assert "--resume computes the 1 run not evaluated" in text
    assert _summary(n_runs=0, n_ok=0).text().startswith("0 runs: 0 evaluated")
