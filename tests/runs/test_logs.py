"""Timing, tracking and resource logs: their own consistency rules."""

from __future__ import annotations

import math
import tracemalloc
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import FormatError
from robot_msgs.runs.latency import latency_from_timing
from robot_msgs.runs.logs import read_resources, read_signal_log, read_timing, read_tracking
from tests.hostile import deadline, fifo_with_writer

if TYPE_CHECKING:
    from pathlib import Path

TIMING_HEADER = "frame,acquisition_s,processing_start_s,available_s\n"


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_timing_refuses_acquisition_stamps_out_of_order(tmp_path: Path) -> None:
    path = _write(tmp_path / "timing.csv", TIMING_HEADER + "0,0.1,0.11,0.12\n1,0.1,0.13,0.14\n")
    said = (
        r"timing.csv:3: column `acquisition_s`: expected a stamp after the previous row's 0\.1 "
        r"\(strictly increasing\), got 0\.1$"
    )
    with pytest.raises(FormatError, match=said):
        read_timing(path)


def test_timing_takes_an_empty_processing_start_as_unknown_for_that_frame(tmp_path: Path) -> None:
    """An empty cell of the optional column was refused as "got nan" (a hunt)."""
    rows = "0,0.0,,0.03\n1,0.1,0.11,0.14\n2,0.2,0.25,0.27\n"
    log = read_timing(_write(tmp_path / "timing.csv", TIMING_HEADER + rows))
    assert math.isnan(log.processing_start_s[0])
    assert log.processing_start_s[1:].tolist() == [0.11, 0.25]
    latency = latency_from_timing(log)
    # processing of the frames whose start is known: 0.14 - 0.11, 0.27 - 0.25; max 0.03 s
    assert latency.processing_max_s == pytest.approx(0.03, abs=1e-12)
    assert latency.latency_max_s == pytest.approx(0.07, abs=1e-12)  # 0.27 - 0.2
    early = _write(tmp_path / "early.csv", TIMING_HEADER + "0,0.1,,0.05\n")
    with pytest.raises(
        FormatError, match=r"early.csv:2: column `available_s`: expected a time >= acquisition_s"
    ):
        read_timing(early)


def test_timing_refuses_processing_before_acquisition_and_available_before_start(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "t1.csv", TIMING_HEADER + "0,0.1,0.09,0.12\n")
    with pytest.raises(
        FormatError,
        match=r"t1.csv:2: column `processing_start_s`: expected a time >= acquisition_s 0\.1 "
        r"\(same clock\?\), got 0\.09$",
    ):
        read_timing(path)
    path = _write(tmp_path / "t2.csv", TIMING_HEADER + "0,0.1,0.12,0.11\n")
    with pytest.raises(
        FormatError,
        match=r"t2.csv:2: column `available_s`: expected a time >= processing_start_s 0\.12, "
        r"got 0\.11$",
    ):
        read_timing(path)
    path = _write(tmp_path / "t3.csv", "frame,acquisition_s,available_s\n0,0.1,0.05\n")
    with pytest.raises(
        FormatError,
        match=r"t3.csv:2: column `available_s`: expected a time >= acquisition_s 0\.1 "
        r"\(same clock\?\), got 0\.05$",
    ):
        read_timing(path)
    # -1e308 to 1e308 is 2e308 s, past float64 (inf): its statistics warned of overflow
    path = _write(tmp_path / "t4.csv", "frame,acquisition_s,available_s\n0,-1e308,1e308\n")
    with pytest.raises(
        FormatError,
        match=r"t4.csv:2: column `available_s`: expected a latency within float64's range of "
        r"acquisition_s -1e\+308, got 1e\+308$",
    ):
        read_timing(path)


# ---------------------------------------------------------------- tracking


def test_tracking_events_must_alternate_starting_with_lost(tmp_path: Path) -> None:
    path = _write(tmp_path / "tracking.csv", "time_s,event\n1.0,recovered\n")
    with pytest.raises(
        FormatError, match=r"tracking.csv:2: column `event`: expected 'lost' \(events alternate"
    ):
        read_tracking(path)
    path = _write(tmp_path / "tracking.csv", "time_s,event\n1.0,lost\n2.0,LOST\n")
    with pytest.raises(FormatError, match=r"tracking.csv:3: column `event`: expected 'recovered'"):
        read_tracking(path)


def test_tracking_refuses_unknown_events_flags_and_layouts(tmp_path: Path) -> None:
    with pytest.raises(
        FormatError, match=r"column `event`: expected 'lost' or 'recovered', got 'gone'"
    ):
        read_tracking(_write(tmp_path / "a.csv", "time_s,event\n1.0,gone\n"))
    with pytest.raises(
        FormatError, match=r"column `valid`: expected 1, 0, true or false, got 'yes'"
    ):
        read_tracking(_write(tmp_path / "b.csv", "time_s,valid\n1.0,yes\n"))
    with pytest.raises(
        FormatError, match=r"expected exactly one of the columns `event` or `valid`"
    ):
        read_tracking(_write(tmp_path / "c.csv", "time_s\n1.0\n"))
    with pytest.raises(FormatError, match=r"d.csv:3: column `time_s`: expected a time >= 2.0"):
        read_tracking(_write(tmp_path / "d.csv", "time_s,event\n2.0,lost\n1.0,recovered\n"))
    with pytest.raises(FormatError, match=r"e.csv:3: column `time_s`: expected a time after 2.0"):
        read_tracking(_write(tmp_path / "e.csv", "time_s,valid\n2.0,1\n2.0,0\n"))


def test_tracking_validity_accepts_true_false(tmp_path: Path) -> None:
    log = read_tracking(_write(tmp_path / "v.csv", "time_s,valid\n0,true\n1,False\n2,1\n"))
    assert log.kind == "validity"
    assert log.lost.tolist() == [False, True, False]


# ---------------------------------------------------------------- resources


def test_resources_refuse_negative_values_and_unordered_time(tmp_path: Path) -> None:
    with pytest.raises(
        FormatError, match=r"r.csv:3: column `rss_bytes`: expected a value >= 0, got -5.0"
    ):
        read_resources(_write(tmp_path / "r.csv", "time_s,cpu_percent,rss_bytes\n0,1,1\n1,1,-5\n"))
    with pytest.raises(FormatError, match=r"s.csv:3: column `time_s`: expected a time after 1.0"):
        read_resources(_write(tmp_path / "s.csv", "time_s,cpu_percent,rss_bytes\n1,1,1\n0,1,1\n"))


def test_resources_refuse_a_count_of_threads_that_is_not_whole(tmp_path: Path) -> None:
    """``threads = 1.5`` was taken, and the run's peak said as ``int(1.5)``: 1 (a review)."""
    header = "time_s,cpu_percent,rss_bytes,threads\n"
    with pytest.raises(
        FormatError,
        match=r"r\.csv:3: column `threads`: expected a whole number of threads, got 1\.5$",
    ):
        read_resources(_write(tmp_path / "r.csv", f"{header}0,1,1,2\n1,1,1,1.5\n"))
    with pytest.raises(FormatError, match=r"i\.csv:2: column `threads`: .* got inf$"):
        read_resources(_write(tmp_path / "i.csv", f"{header}0,1,1,inf\n"))
    with pytest.raises(
        FormatError, match=r"b\.csv:3: column `threads`: expected a count of threads below 2\*\*63"
    ):
        read_resources(_write(tmp_path / "b.csv", f"{header}0,1,1,2\n1,1,1,1e19\n"))
    log = read_resources(_write(tmp_path / "w.csv", f"{header}0,1,1,2\n1,1,1,\n2,1,1,3.0\n"))
    assert log.threads.tolist()[::2] == [2.0, 3.0]  # an empty cell is NaN, 3.0 is 3


@pytest.mark.parametrize("column", ["gpu_mem_bytes", "gpu_percent"])
def test_resources_refuse_an_infinite_sample(tmp_path: Path, column: str) -> None:
    """An ``inf`` GPU sample was taken and left out of the peak: the run said 5 bytes."""
    header = f"time_s,cpu_percent,rss_bytes,{column}\n"
    with pytest.raises(
        FormatError, match=rf"r\.csv:2: column `{column}`: expected a finite value, got inf$"
    ):
        read_resources(_write(tmp_path / "r.csv", f"{header}0,1,1,inf\n1,1,1,5\n"))
    log = read_resources(_write(tmp_path / "e.csv", f"{header}0,1,1,\n1,1,1,5\n"))
    assert math.isnan(getattr(log, column)[0])  # an empty cell is still unknown


def test_logs_of_stamps_near_float64s_limits_raise_no_numpy_warning(tmp_path: Path) -> None:
    """The order checks subtracted neighbours (np.diff) and the latency subtracted
    acquisition from availability: stamps of -1e308 and 1e308 printed NumPy's 'overflow
    encountered in subtract' (report: a bug, exit 70, under -W error). The order is
    compared now; a latency past float64 is refused, naming its line."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        resources = read_resources(  # from -1e308 is refused, its span past float64
            _write(tmp_path / "r.csv", "time_s,cpu_percent,rss_bytes\n0,5,5\n1e308,5,5\n")
        )
        tracking = read_tracking(
            _write(tmp_path / "t.csv", "time_s,event\n-1e308,lost\n1e308,recovered\n")
        )
        with pytest.raises(
            FormatError,
            match=r"timing\.csv:2: column `available_s`: expected a latency within float64's range",
        ):
            read_timing(_write(tmp_path / "timing.csv", TIMING_HEADER + "0,-1e308,-1e308,1e308\n"))
    assert resources.time_s.tolist() == [0, 1e308]
    assert tracking.stamps_s.tolist() == [-1e308, 1e308]


def test_resources_spanning_more_than_float64_are_refused_naming_the_last_line(
    tmp_path: Path,
) -> None:
    """The run's duration is the last time less the first: -1e308 to 1e308 passed the
    reader, and report then printed NumPy's 'overflow encountered in scalar subtract' (a
    bug, exit 70, under -W error) from resources_from_log."""
    import warnings

    from robot_msgs.runs.resources import resources_from_log

    header = "time_s,cpu_percent,rss_bytes\n"
    with pytest.raises(
        FormatError,
        match=r"r\.csv:4: column `time_s`: expected a time within float64's range of the "
        r"first sample's -1e\+308, got 1e\+308",
    ):
        read_resources(_write(tmp_path / "r.csv", header + "-1e308,5,5\n0,5,5\n1e308,5,5\n"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log = read_resources(_write(tmp_path / "ok.csv", header + "-1e308,5,5\n-1e307,5,5\n"))
        assert resources_from_log(log).duration_s == 9e307


def test_a_signal_log_reads_its_first_column_as_time_and_the_others_as_channels(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "cmd.csv", "# logged\nt,elbow,wrist\n0,0.5,1\n\n0.25,0.75,-2e-3\n")
    log = read_signal_log(path)
    assert (log.time_column, log.channels) == ("t", ("elbow", "wrist"))
    assert log.stamps_s.tolist() == [0.0, 0.25]
    assert log.values.tolist() == [[0.5, 1.0], [0.75, -0.002]]
    picked = read_signal_log(path, channels=["wrist", "elbow"])
    assert picked.channels == ("wrist", "elbow")
    assert picked.values.tolist() == [[1.0, 0.5], [-0.002, 0.75]]


def test_a_signal_log_keeps_its_stamps_nanoseconds_where_typed_as_whole_nanoseconds(
    tmp_path: Path,
) -> None:
    """1700000000.123456789 s is 1700000000.1234567 as float64 (2.4e-7 s apart there):
    its nanoseconds are kept beside it, of a wide log and of one of a row per joint per
    time (each time's, of the joints read); of a time written 1.7e9 too (None before);
    of one with a part of a nanosecond since 1970, the nearest (a tie to the even one);
    below 2^23 s, where the floats are finer, none."""
    wide = read_signal_log(
        _write(tmp_path / "w.csv", "t,x\n1700000000.123456789,1\n1700000000.1234575,2\n")
    )
    assert wide.stamps_s.tolist() == [1700000000.1234567, 1700000000.1234574]
    assert wide.stamps_ns is not None
    assert wide.stamps_ns.tolist() == [1_700_000_000_123_456_789, 1_700_000_000_123_457_500]
    rows = (
        "time,name,position\n1700000000.000000001,g,0\n1700000000.5,a,1\n1700000000.5,b,2\n"
        "1700000001.000000001,b,3\n1700000001.000000001,a,4\n"
    )
    joints = read_signal_log(_write(tmp_path / "j.csv", rows), channels=["a", "b"])
    assert joints.stamps_ns is not None
    assert joints.stamps_ns.tolist() == [1_700_000_000_500_000_000, 1_700_000_001_000_000_001]
    assert joints.values.tolist() == [[1.0, 2.0], [4.0, 3.0]]
    exponent = read_signal_log(_write(tmp_path / "e.csv", "t,x\n1.7e9,1\n1700000001,2\n"))
    assert exponent.stamps_ns is not None
    assert exponent.stamps_ns.tolist() == [1_700_000_000 * 10**9, 1_700_000_001 * 10**9]
    part = read_signal_log(_write(tmp_path / "p.csv", "t,x\n1.7e9,1\n1700000001.0000000015,2\n"))
    assert part.stamps_ns is not None
    assert part.stamps_ns.tolist() == [1_700_000_000 * 10**9, 1_700_000_001_000_000_002]
    boot = read_signal_log(_write(tmp_path / "b.csv", "t,x\n1.5,1\n2.0000000015,2\n"))
    assert boot.stamps_ns is None
    assert boot.stamps_s.tolist() == [1.5, 2.0000000015]


def test_stamps_a_nanosecond_apart_since_1970_are_ordered_by_their_nanoseconds(
    tmp_path: Path,
) -> None:
    """1700000000.000000001 and .000000002 s are one float64 (1700000000.0; floats are
    2.4e-7 s apart there): the order check on the floats refused the second as no time
    after the first, and the rows of one joint as two at one time (seen failing before).
    Ordered by the nanoseconds typed, they are two samples; a nanosecond back is refused,
    the times said as typed."""
    wide = read_signal_log(
        _write(tmp_path / "w.csv", "t,x\n1700000000.000000001,1\n1700000000.000000002,2\n")
    )
    assert wide.stamps_ns is not None
    assert wide.stamps_ns.tolist() == [1_700_000_000_000_000_001, 1_700_000_000_000_000_002]
    assert wide.values.tolist() == [[1.0], [2.0]]
    rows = "time,name,position\n1700000000.000000001,a,0\n1700000000.000000002,a,1\n"
    joints = read_signal_log(_write(tmp_path / "j.csv", rows))
    assert joints.stamps_ns is not None
    assert joints.stamps_ns.tolist() == [1_700_000_000_000_000_001, 1_700_000_000_000_000_002]
    assert joints.values.tolist() == [[0.0], [1.0]]
    back = "t,x\n1700000000.000000002,1\n1700000000.000000001,2\n"
    with pytest.raises(
        FormatError,
        match=r"b\.csv:3: column `t`: expected a time after 1700000000\.000000002 "
        r"\(strictly increasing\), got 1700000000\.000000001$",
    ):
        read_signal_log(_write(tmp_path / "b.csv", back))
    back = "time,name,position\n1700000000.000000002,a,0\n1700000000.000000001,a,1\n"
    with pytest.raises(
        FormatError,
        match=r"c\.csv:3: column `time`: expected a time >= 1700000000\.000000002 "
        r"\(the rows in time order\), got 1700000000\.000000001$",
    ):
        read_signal_log(_write(tmp_path / "c.csv", back))


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (
            "1700000000.000000001,a,0\n1700000000.000000001,b,0\n1700000000.000000002,a,1\n",
            r"got none of 'b' at t = 1700000000\.000000002 s$",
        ),
        (
            "1700000000.000000001,a,0\n1700000000.000000002,a,1\n1700000000.000000002,a,2\n",
            r"got a second row of 'a' at t = 1700000000\.000000002 s \(the first at line 3\)$",
        ),
        ("0.25,a,0\n0.25,b,0\n0.5,a,1\n", r"got none of 'b' at t = 0\.5 s$"),
    ],
)
def test_a_refusal_of_joint_rows_says_their_time_as_typed(
    tmp_path: Path, rows: str, said: str
) -> None:
    """Times 1 ns apart since 1970, told apart by their nanoseconds, were said as their
    one float64 (`at t = 1700000000.0 s`), as the time before: which time was meant the
    message did not say (seen failing before). Said as typed, as the order's refusal."""
    path = _write(tmp_path / "j.csv", "time,name,position\n" + rows)
    with pytest.raises(FormatError, match=said):
        read_signal_log(path)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("t,x\n", r"m\.csv:1: expected rows of numbers after the header, got none$"),
        ("", r"m\.csv:1: expected a header line naming the columns, got an empty file$"),
        ("t\n0\n", r"m\.csv:1: expected a time column, then a column per channel, got only 't'$"),
        ("t,x\n0,1\n1,x1\n", r"m\.csv:3: column `x`: expected a number, got 'x1'$"),
        ("t,x\n0,1\n1,\n", r"m\.csv:3: column `x`: expected a number, got ''$"),
        ("t,x\n0,1\n1,nan\n", r"m\.csv:3: column `x`: expected a finite number, got 'nan'$"),
        ("t,x\n0,1\n1,2,3\n", r"m\.csv:3: expected 2 comma-separated cells \(t,x\), got 3$"),
        ("t,,x\n0,1,2\n", r"m\.csv:1: expected a name for every column, got none for column 2$"),
        (
            "t,x\n0,1\n# gap\n1,2\n1,3\n",
            r"m\.csv:5: column `t`: expected a time after 1\.0 \(strictly increasing\), got 1\.0$",
        ),
        (
            "t,x\n0,1\n2,2\n1,3\n",
            r"m\.csv:4: column `t`: expected a time after 2\.0 \(strictly increasing\), got 1\.0$",
        ),
    ],
    ids=[
        "no rows",
        "empty",
        "no channel",
        "not a number",
        "empty cell",
        "nan",
        "ragged",
        "unnamed",
        "repeated time",
        "time backwards",
    ],
)
def test_a_hostile_signal_log_is_refused_naming_its_file_and_line(
    tmp_path: Path, text: str, said: str
) -> None:
    with pytest.raises(FormatError, match=said):
        read_signal_log(_write(tmp_path / "m.csv", text))


def test_a_signal_log_without_a_channel_asked_for_names_the_columns_it_has(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "m.csv", "# a log\ntime,elbow\n0,1\n")
    with pytest.raises(
        FormatError, match=r"m\.csv:2: expected a column 'wrist', got columns \['time', 'elbow'\]$"
    ):
        read_signal_log(path, channels=["elbow", "wrist"])
    with pytest.raises(FormatError, match=r"m\.csv:2: expected channels other than the time col"):
        read_signal_log(path, channels=["time"])


def test_a_signal_log_is_read_from_a_fifo_and_refused_there_naming_its_line(
    tmp_path: Path,
) -> None:
    with deadline(60.0), fifo_with_writer(tmp_path / "ok", b"t,x\n0,1\n1,2\n") as fifo:
        assert read_signal_log(fifo).values.tolist() == [[1.0], [2.0]]
    with (
        deadline(60.0),
        fifo_with_writer(tmp_path / "bad", b"t,x\n0,1\n1,two\n") as fifo,
        pytest.raises(FormatError, match=r"bad:3: column `x`: expected a number, got 'two'$"),
    ):
        read_signal_log(fifo)


def test_a_signal_log_read_with_dropouts_takes_an_empty_or_nan_channel_cell_as_nan(
    tmp_path: Path,
) -> None:
    """A logger that missed a sample writes an empty cell (pandas' to_csv) or NaN
    (MATLAB's writematrix): read as NaN with ``dropouts``, for tracking() to leave out.
    inf is no dropout, and a time is never one."""
    path = _write(tmp_path / "m.csv", "t,elbow,wrist\n0,0.5,\n0.5,NaN,1\n1,0.25,2\n")
    log = read_signal_log(path, dropouts=True)
    assert [[math.isnan(v) for v in row] for row in log.values.tolist()] == [
        [False, True],
        [True, False],
        [False, False],
    ]
    assert log.values[2].tolist() == [0.25, 2.0]
    assert read_signal_log(path, channels=["wrist"], dropouts=True).values[1:, 0].tolist() == [
        1.0,
        2.0,
    ]
    with pytest.raises(
        FormatError, match=r"m\.csv:3: column `elbow`: expected a finite number, got 'NaN'$"
    ):
        read_signal_log(path)
    bad = {
        "t,x\n0,1\n1,inf\n": r"i\.csv:3: column `x`: expected a finite number or an empty cell, "
        r"got 'inf'$",
        "t,x\n0,1\n,2\n": r"i\.csv:3: column `t`: expected a number, got ''$",
        "t,x\n0,1\nnan,2\n": r"i\.csv:3: column `t`: expected a finite number, got 'nan'$",
    }
    for text, said in bad.items():
        with pytest.raises(FormatError, match=said):
            read_signal_log(_write(tmp_path / "i.csv", text), dropouts=True)


def test_an_empty_event_or_sample_log_reads_as_nothing_happened(tmp_path: Path) -> None:
    """A logger that writes only when something happens leaves a file of 0 bytes where
    nothing did: it failed its whole run ("expected a header line ..., got an empty
    file"), orb_slam3/V102/trial_07 of a folder of 192 runs left out of the report. No
    loss; no resource sample. A file with bytes but no header is still refused, and an
    empty timing log (a line a frame processed) too."""
    tracking = read_tracking(_write(tmp_path / "tracking.csv", ""))
    assert (tracking.kind, tracking.stamps_s.size, tracking.lost.size) == ("events", 0, 0)
    resources = read_resources(_write(tmp_path / "resources.csv", ""))
    assert (resources.time_s.size, resources.rss_bytes.size, resources.threads.size) == (0, 0, 0)
    for text in ("\n", "# nothing yet\n"):
        with pytest.raises(FormatError, match=r"tracking\.csv:1: expected a header line"):
            read_tracking(_write(tmp_path / "tracking.csv", text))
    with pytest.raises(FormatError, match=r"timing\.csv:1: expected a header line"):
        read_timing(_write(tmp_path / "timing.csv", ""))


def test_a_column_of_text_is_no_channel_unless_named_and_then_an_error_naming_its_cell(
    tmp_path: Path,
) -> None:
    """A controller's ``mode`` column beside the channels refused the whole log at its
    first cell, even with the channels named. Not named, a column whose first cell is
    text is left out with a note naming it; named, its cell is refused (file, line,
    column). A column of numbers with one bad cell is still a channel refused there."""
    path = _write(tmp_path / "m.csv", "# log\nt,mode,elbow\n0,auto,0.5\n1,hold,0.75\n2,auto,1\n")
    log = read_signal_log(path)
    assert (log.channels, log.values[:, 0].tolist()) == (("elbow",), [0.5, 0.75, 1.0])
    assert log.notes == (f"{path}:3: column `mode` holds text ('auto'), no channel: left out",)
    picked = read_signal_log(path, channels=["elbow"], dropouts=True)
    assert (picked.channels, picked.notes) == (("elbow",), ())
    with pytest.raises(
        FormatError, match=r"m\.csv:3: column `mode`: expected a number, got 'auto'$"
    ):
        read_signal_log(path, channels=["mode"])
    late = _write(tmp_path / "l.csv", "t,x,y\n0,1,2\n1,oops,3\n")
    with pytest.raises(FormatError, match=r"l\.csv:3: column `x`: expected a number, got 'oops'$"):
        read_signal_log(late)
    assert read_signal_log(late, channels=["y"]).values[:, 0].tolist() == [2.0, 3.0]
    only = _write(tmp_path / "o.csv", "t,mode\n0,auto\n")
    with pytest.raises(
        FormatError,
        match=r"o\.csv:1: expected a time column, then a column per channel, got only 't' "
        r"and text \('mode'\)$",
    ):
        read_signal_log(only)
    # A non-ASCII digit in a column read lazily is refused as in any other (NumPy took
    # the Arabic-Indic 5 as 5); in a column of text it is text.
    cyrillic = _write(tmp_path / "c.csv", "t,mode,x\n0,ручной,1\n1,auto,2\n")
    assert read_signal_log(cyrillic).channels == ("x",)
    arabic = _write(tmp_path / "a.csv", "t,mode,x\n0,ручной,1\n1,auto,\u0665\n")
    for channels in (None, ["x"]):
        with pytest.raises(FormatError, match=r"a\.csv:3: column `x`: expected a number \("):
            read_signal_log(arabic, channels=channels)


def test_a_joint_state_log_of_one_row_per_joint_per_time_is_pivoted_into_channels(
    tmp_path: Path,
) -> None:
    """``time,name,position,velocity`` (a JointState exported row by row, pandas'
    ``melt``) was refused ("column `name`: expected a number"). The joints become
    channels in the order the file names them, whatever their order in each message;
    a joint without a row at a time is a dropout (with ``dropouts``) or refused; the
    times are those of the chosen joints' rows."""
    text = (
        "time,name,position,velocity\n"
        "0.0,wrist,0.25,0\n0.0,elbow,0.5,0\n"
        "0.5,elbow,0.75,1\n0.5,wrist,-1,2\n"
        "1.0,wrist,3,0\n"  # the elbow missed at 1.0 s
        "1.5,elbow,1,0\n1.5,wrist,2,0\n"
    )
    path = _write(tmp_path / "j.csv", text)
    log = read_signal_log(path, dropouts=True)
    assert (log.time_column, log.channels) == ("time", ("wrist", "elbow"))
    assert log.stamps_s.tolist() == [0.0, 0.5, 1.0, 1.5]
    assert np.array_equal(
        log.values, [[0.25, 0.5], [-1.0, 0.75], [3.0, np.nan], [2.0, 1.0]], equal_nan=True
    )
    assert log.notes == (
        (
            f"{path}: one row per joint per time: channels by `name`, values of `position` "
            "(`velocity` not read)"
        ),
    )
    picked = read_signal_log(path, channels=["elbow"], dropouts=True)
    assert picked.channels == ("elbow",)
    # The times are the chosen joints': the elbow alone has none at 1.0 s (as an arm's
    # joints beside a gripper's published apart are not missing at the gripper's times).
    assert picked.stamps_s.tolist() == [0.0, 0.5, 1.5]
    assert picked.values[:, 0].tolist() == [0.5, 0.75, 1.0]
    with pytest.raises(
        FormatError,
        match=r"j\.csv:6: expected a row of each joint at each time, got none of 'elbow' at "
        r"t = 1\.0 s$",
    ):
        read_signal_log(path)
    apart = "time,name,position\n0,a,1\n0,b,2\n0.05,g,9\n0.1,a,3\n0.1,b,4\n0.15,g,9\n"
    arm = read_signal_log(_write(tmp_path / "g.csv", apart), channels=["a", "b"])
    assert (arm.stamps_s.tolist(), arm.values.tolist()) == ([0.0, 0.1], [[1, 2], [3, 4]])
    effort = _write(tmp_path / "e.csv", "t,name,effort\n0,a,1\n1,a,2\n")
    assert read_signal_log(effort).values[:, 0].tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "time,name,position\n0,a,1\n0,b,2\n1,a,3\n1,b,4\n1,a,5\n",
            (
                r"j\.csv:6: expected one row per joint per time, got a second row of 'a' at "
                r"t = 1\.0 s \(the first at line 4\)$"
            ),
        ),
        (
            "time,name,position\n0,a,1\n1,a,3\n0.5,a,4\n",
            (
                r"j\.csv:4: column `time`: expected a time >= 1\.0 \(the rows in time order\), "
                r"got 0\.5$"
            ),
        ),
        (
            "time,name,position\n0,a,1\n1,,3\n",
            r"j\.csv:3: column `name`: expected a joint name, got ''$",
        ),
        (
            "time,name,position\n0,a,1\n1,a,x\n",
            r"j\.csv:3: column `position`: expected a number, got 'x'$",
        ),
        (
            "time,name,position\n0,a,1\n1,a,inf\n",
            r"j\.csv:3: column `position`: expected a finite number",
        ),
        (
            "time,name,position\n" + "".join(f"{k},j{k},1\n" for k in range(2000)),
            (
                r"j\.csv: expected the joints' rows at shared times \(one JointState's\), got 2000 "
                r"joints at 2000 times in 2000 rows$"
            ),
        ),
    ],
    ids=["twice", "back in time", "no name", "not a number", "inf", "no shared times"],
)
def test_a_hostile_joint_state_log_is_refused_naming_its_file_and_line(
    tmp_path: Path, text: str, said: str
) -> None:
    with pytest.raises(FormatError, match=said):
        read_signal_log(_write(tmp_path / "j.csv", text), dropouts=True)


@pytest.mark.parametrize(
    "header", ["Time,Name,Position", "stamp,joint,pos", "time,Name,position,velocity,effort"]
)
def test_a_joint_state_log_headed_otherwise_is_told_the_header_it_needs(
    tmp_path: Path, header: str
) -> None:
    """Read as a column per channel, it was refused at its second row: "expected a time
    after 0.0 (strictly increasing)", which says nothing of the header (a review)."""
    extra = ",0" * (header.count(",") - 2)
    rows = "".join(f"{t},{j},{t + k}{extra}\n" for t in (0, 1) for k, j in enumerate("ab"))
    path = _write(tmp_path / "j.csv", f"# joint states\n{header}\n{rows}")
    time = header.split(",", maxsplit=1)[0]
    said = (
        rf"j\.csv:2: expected a log of one row per joint per time to be headed "
        rf"`{time},name,position` \(and `velocity`, `effort`; lower case\), got `{header}`$"
    )
    with pytest.raises(FormatError, match=said):
        read_signal_log(path)
    # A wide log with channels so named, its times increasing, reads as before.
    wide = _write(tmp_path / "w.csv", "t,joint,pos\n0,1,2\n1,3,4\n")
    assert read_signal_log(wide).values.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_a_joint_asked_for_and_not_in_a_joint_state_log_is_named_with_the_close_one(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "j.csv", "# states\ntime,name,position\n0,elbow,1\n0,wrist,2\n")
    with pytest.raises(
        FormatError,
        match=r"j\.csv:2: expected joint 'elbw' in column `name`, got joints 'elbow', "
        r"'wrist'; did you mean elbow\?$",
    ):
        read_signal_log(path, channels=["elbw"])


def test_a_joint_asked_for_among_ten_thousand_names_a_few_of_them(tmp_path: Path) -> None:
    """The refusal listed every joint of the log: 10^4 joints made an 89 kB message.
    It names the first five (each quoted as any token of a file) and counts the rest."""
    n = 10_000
    rows = "".join(f"0,j{k},{k}\n" for k in range(n))
    path = _write(tmp_path / "j.csv", "time,name,position\n" + rows)
    said = (
        r"j\.csv:1: expected joint 'elbow' in column `name`, got joints 'j0', 'j1', 'j2', "
        rf"'j3', 'j4' and {n - 5} more$"
    )
    with pytest.raises(FormatError, match=said):
        read_signal_log(path, channels=["elbow"])


def test_a_joint_state_message_of_a_hundred_thousand_joints_is_pivoted_by_name(
    tmp_path: Path,
) -> None:
    """Each joint was looked up by ``tuple.index``, quadratic in the joints: 30000
    joints took 27 s, 10^5 about 5 min. Read by a dict, every joint lands in its own
    channel, in the order asked."""
    n = 100_000
    rows = "".join(f"{t},j{k},{t * n + k}\n" for t in (0, 1) for k in range(n))
    path = _write(tmp_path / "j.csv", "time,name,position\n" + rows)
    wanted = [f"j{k}" for k in reversed(range(n))]
    log = read_signal_log(path, channels=wanted, dropouts=True)
    assert log.channels == tuple(wanted)
    expected = [[float(t * n + k) for k in reversed(range(n))] for t in (0, 1)]
    assert log.values.tolist() == expected


@pytest.mark.parametrize("layout", ["joint state", "wide with a mode"])
def test_a_log_with_a_text_column_is_read_in_memory_near_its_size(
    tmp_path: Path, layout: str
) -> None:
    """Every cell of a log with a text column (a JointState's ``name``, a ``mode``) was
    read as a fixed-width string, as wide as the widest cell: a 33 MB JointState log of
    10^6 rows peaked at 626 MB (1.04 GB in a review's), a 6.9 MB wide one with a mode at
    128 MB. Here, 7.2 MB of JointState (7 joints at 20000 times) peaked at 192 MB and
    0.9 MB of wide log at 23 MB, 27 and 26 times their size; with the numbers parsed as
    float64 and only the text column as text, 44 MB and 4.5 MB (6 and 5 times)."""
    times = 20_000
    stamps = [f"{1_700_000_000 + k / 100:.9f}" for k in range(times)]
    if layout == "joint state":
        joints = [f"panda_joint{j}" for j in range(7)]
        rows = (
            f"{s},{name},{k + j / 10},0.5,-1.25\n"
            for k, s in enumerate(stamps)
            for j, name in enumerate(joints)
        )
        text, shape, last = (
            "time,name,position,velocity,effort\n" + "".join(rows),
            (times, 7),
            19999.6,
        )
    else:
        rows = (
            f"{s},{'hold' if k % 3 else 'auto'},{k},{k + 0.5},-1.25\n" for k, s in enumerate(stamps)
        )
        text, shape, last = "t,mode,a,b,c\n" + "".join(rows), (times, 3), -1.25
    path = _write(tmp_path / "log.csv", text)
    tracemalloc.start()
    try:
        log = read_signal_log(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert log.values.shape == shape
    assert log.values[-1, -1] == last
    assert log.stamps_s[-1] == float(stamps[-1])
    assert peak < 12 * len(text)


def test_a_joint_asked_for_twice_is_read_twice_as_a_wide_logs_channel_is(
    tmp_path: Path,
) -> None:
    """``channels=["a", "a"]`` of a wide log gives column ``a`` twice; of a JointState
    log it was refused with "got none of 'a'" at a line holding an ``a`` (the joint's
    column scattered twice, the first left empty)."""
    wide = read_signal_log(_write(tmp_path / "w.csv", "t,a,b\n0,1,2\n1,3,4\n"), channels=["a", "a"])
    path = _write(tmp_path / "j.csv", "time,name,position\n0,a,1\n0,b,2\n1,b,4\n1,a,3\n")
    for dropouts in (False, True):
        log = read_signal_log(path, channels=["a", "b", "a"], dropouts=dropouts)
        assert log.channels == ("a", "b", "a")
        assert log.values.tolist() == [[1.0, 2.0, 1.0], [3.0, 4.0, 3.0]]
        twice = read_signal_log(path, channels=["a", "a"], dropouts=dropouts)
        assert (twice.channels, twice.values.tolist()) == (wide.channels, wide.values.tolist())


def test_a_joint_state_bag_is_read_into_arrays_not_a_list_of_its_messages(
    tmp_path: Path,
) -> None:
    """``read_signal_log`` listed a bag topic's every JointState message before reading
    their values: 2*10^4 messages of 6 joints (960 kB of values) peaked at 19 MB traced
    (20 times the values; 10^6 messages: 1.77 GB resident, measured with `time -v`).
    Read as they come, under 10 times (4.4 MB measured). The values are the messages'
    (joint j of message k is k + j / 10), joints matched by name in each message."""
    from tests.io.conftest import BagMaker

    maker = BagMaker(tmp_path)
    store = maker.store2
    cls = store.types["sensor_msgs/msg/JointState"]
    names = [f"j{j}" for j in range(6)]
    count = 2 * 10**4
    msgs = [
        cls(
            header=maker.header("mcap", k // 1000, (k % 1000) * 10**6, ""),
            name=names if k % 2 else names[::-1],
            position=np.array([k + j / 10 for j in (range(6) if k % 2 else range(5, -1, -1))]),
            velocity=np.zeros(0),
            effort=np.zeros(0),
        )
        for k in range(count)
    ]
    bag = maker.write("big", "mcap", {"/js": ("sensor_msgs/msg/JointState", msgs)})
    del msgs
    read_signal_log(bag, channels=names)  # the imports and type store, not traced
    tracemalloc.start()
    try:
        log = read_signal_log(bag, channels=names)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    expected = np.arange(count)[:, None] + np.arange(6)[None, :] / 10
    np.testing.assert_array_equal(log.values, expected)
    assert log.stamps_s[-1] == (count - 1) / 1000
    assert peak < 10 * log.values.nbytes


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        ("0,{big},1\n0,b,2\n1,b,4\n", "got none of 'xxx"),
        ("0,{big},1\n0,{big},2\n", "got a second row of 'xxx"),
    ],
)
def test_a_long_joint_name_is_quoted_shortened_in_a_refusal(
    tmp_path: Path, rows: str, said: str
) -> None:
    """A joint's name from the file was quoted whole: a 10 MB name (readable since text
    columns are StringDType) made a 10 MB message. Quoted as any token (32 characters)."""
    big = "x" * 100_000
    path = _write(tmp_path / "j.csv", "time,name,position\n" + rows.format(big=big))
    with pytest.raises(FormatError, match=said) as info:
        read_signal_log(path)
    assert f"'{'x' * 32}'..." in str(info.value)
    assert len(str(info.value)) < 300


@settings(max_examples=50, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 3),
    st.booleans(),
    st.sampled_from(["array", "view", "read-only view"]),
)
def test_a_signal_log_holds_its_arrays_read_only_as_a_message_does(
    n: int, c: int, exact: bool, given_as: str
) -> None:
    """Law: a SignalLog's arrays cannot be written, through it or through what it was
    built from (a writable array, a view, a read-only view of a writable one: copied, as
    a PoseTrajectory's; seen writable before), and hold the values given."""
    from pathlib import Path

    from robot_msgs.runs.logs import SignalLog

    base = np.arange(2 * n * (c + 2), dtype=np.float64)
    values = base[: n * c].reshape(n, c)
    stamps = np.arange(n, dtype=np.float64)
    ns = np.arange(n, dtype=np.int64) * 10**9 if exact else None
    if given_as != "array":
        stamps = base[n * c : n * c + n]  # a view of a writable array
        if given_as == "read-only view":
            stamps.setflags(write=False)
            values.setflags(write=False)
    given_values = (stamps.tolist(), values.tolist())
    log = SignalLog(
        path=Path("m.csv"),
        time_column="t",
        stamps_s=stamps,
        channels=tuple(f"c{k}" for k in range(c)),
        values=values,
        stamps_ns=ns,
    )
    for array in (log.stamps_s, log.values, log.stamps_ns):
        if array is not None:
            assert not array.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                array[...] = 7
    base[:] = -1.0
    if ns is not None:
        ns[:] = -1
        assert log.stamps_ns is not None
        assert log.stamps_ns.tolist() == [k * 10**9 for k in range(n)]
    assert (log.stamps_s.tolist(), log.values.tolist()) == given_values


@pytest.mark.parametrize(
    "text", ["t,x,y\n0,1,2\n1,3,4\n", "time,name,position\n0,a,1\n0,b,2\n1,a,3\n1,b,4\n"]
)
def test_a_read_signal_log_holds_read_only_arrays(tmp_path: Path, text: str) -> None:
    """The readers' logs too (a wide log, one of a row per joint per time; seen writable
    before): `log.values[0, 0] = 7` changed what a later comparison read."""
    log = read_signal_log(_write(tmp_path / "m.csv", text))
    assert log.stamps_ns is not None
    for array in (log.stamps_s, log.values, log.stamps_ns):
        assert not array.flags.writeable
    assert log.values.tolist() == [[1.0, 2.0], [3.0, 4.0]]


#: Each run log's class, its array fields, and the dtype of each.
_RUN_LOG_ARRAYS: dict[str, dict[str, type[np.generic]]] = {
    "TimingLog": {
        "frame": np.float64,
        "acquisition_s": np.float64,
        "processing_start_s": np.float64,
        "available_s": np.float64,
    },
    "TrackingLog": {"stamps_s": np.float64, "lost": np.bool_},
    "ResourceLog": {
        "time_s": np.float64,
        "cpu_percent": np.float64,
        "rss_bytes": np.float64,
        "threads": np.float64,
        "gpu_mem_bytes": np.float64,
        "gpu_percent": np.float64,
    },
}


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(_RUN_LOG_ARRAYS)),
    st.integers(1, 6),
    st.sampled_from(["array", "view", "read-only view"]),
)
def test_a_run_log_holds_its_arrays_read_only_as_a_signal_log_does(
    kind: str, n: int, given_as: str
) -> None:
    """Law: a TimingLog's, TrackingLog's and ResourceLog's arrays cannot be written,
    through the log or through what it was built from (a writable array, a view, a
    read-only view of a writable one), and hold the values given (seen writable before:
    `log.acquisition_s[0] = 7` changed the log, as a SignalLog's did)."""
    from pathlib import Path

    from robot_msgs.runs import logs

    fields = _RUN_LOG_ARRAYS[kind]
    bases = {name: np.arange(2 * n).astype(dtype) for name, dtype in fields.items()}
    given: dict[str, np.ndarray[Any, Any]] = {}
    for name, base in bases.items():
        given[name] = base.copy()[:n] if given_as == "array" else base[:n]
        if given_as == "read-only view":
            given[name].setflags(write=False)
    said = {name: array.tolist() for name, array in given.items()}
    extra = {"kind": "events"} if kind == "TrackingLog" else {}
    log = getattr(logs, kind)(path=Path("x.csv"), **extra, **given)
    for name in fields:
        array = getattr(log, name)
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 1
    for name, base in bases.items():
        base[:] = 0
        if given_as == "array":
            given[name].setflags(write=True)
            given[name][:] = 0
    assert {name: getattr(log, name).tolist() for name in fields} == said


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("timing", TIMING_HEADER + "0,0.0,0.01,0.03\n1,0.1,0.11,0.14\n"),
        ("timing", "frame,acquisition_s,available_s\n0,0.0,0.03\n1,0.1,0.14\n"),
        ("tracking", "time_s,event\n2.0,lost\n3.5,recovered\n"),
        ("tracking", "time_s,valid\n2.0,1\n3.5,0\n"),
        ("tracking", ""),
        ("resources", "time_s,cpu_percent,rss_bytes,threads\n0,50,1e8,4\n1,150,2e8,\n"),
        ("resources", ""),
    ],
)
def test_a_read_run_log_holds_read_only_arrays(tmp_path: Path, name: str, text: str) -> None:
    """The readers' run logs too (seen writable before): writing any array raises."""
    from robot_msgs.runs import logs

    read = {"timing": read_timing, "tracking": read_tracking, "resources": read_resources}[name]
    log = read(_write(tmp_path / f"{name}.csv", text))
    for field in _RUN_LOG_ARRAYS[type(log).__name__]:
        array = getattr(log, field)
        assert isinstance(array, np.ndarray)
        assert not array.flags.writeable, field
        if array.size:
            with pytest.raises(ValueError, match="read-only"):
                array[0] = array[0]
    assert isinstance(log, logs.TimingLog | logs.TrackingLog | logs.ResourceLog)


_SIGNAL_LOG_ARRAYS: dict[str, type[np.generic]] = {
    "stamps_s": np.float64,
    "values": np.float64,
    "stamps_ns": np.int64,
}


@pytest.mark.parametrize("kind", [*sorted(_RUN_LOG_ARRAYS), "SignalLog"])
@pytest.mark.parametrize("writer", ["a view taken before", "setflags(write=True)"])
def test_a_log_copies_a_read_only_array_that_owns_its_memory(kind: str, writer: str) -> None:
    """A read-only array that owns its memory is not provably read-only: a view taken
    before its `setflags(write=False)` still writes to it, and its holder may make it
    writable again. A log copies it (seen failing before: the log held the given array,
    and writing through the view changed it). An array over bytes is kept, uncopied."""
    from pathlib import Path

    from robot_msgs.runs import logs

    fields = _RUN_LOG_ARRAYS.get(kind, _SIGNAL_LOG_ARRAYS)
    owners: dict[str, np.ndarray[Any, Any]] = {
        name: np.arange(2, dtype=dtype) for name, dtype in fields.items()
    }
    if kind == "SignalLog":
        owners["values"] = np.arange(2.0).reshape(2, 1)
    views = {name: owner[:] for name, owner in owners.items()}
    for owner in owners.values():
        owner.setflags(write=False)
    said = {name: owner.tolist() for name, owner in owners.items()}
    extras: dict[str, dict[str, object]] = {
        "TrackingLog": {"kind": "events"},
        "SignalLog": {"time_column": "t", "channels": ("c",)},
    }
    extra = extras.get(kind, {})
    log = getattr(logs, kind)(path=Path("x.csv"), **extra, **owners)
    for name, owner in owners.items():
        if writer == "a view taken before":
            views[name][...] = 1
        else:
            owner.setflags(write=True)
            owner[...] = 1
    assert {name: getattr(log, name).tolist() for name in fields} == said
    over_bytes = {
        name: np.frombuffer(owner.tobytes(), dtype=owner.dtype).reshape(owner.shape)
        for name, owner in owners.items()
    }
    log = getattr(logs, kind)(path=Path("x.csv"), **extra, **over_bytes)
    assert all(getattr(log, name) is array for name, array in over_bytes.items())
