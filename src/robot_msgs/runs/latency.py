r"""Latency and rates: from a per-frame timing log, or a bag's receive times as a proxy.

Two different numbers, never one for the other (the SLAM guide: "per-frame processing
time differs from latency including queueing"):

.. math::

    \text{latency}_k = t^{\text{available}}_k - t^{\text{acquisition}}_k, \qquad
    \text{processing}_k = t^{\text{available}}_k - t^{\text{start}}_k

so ``latency - processing`` is the time frame ``k`` waited (transport and queueing).
Percentiles are NumPy's linear interpolation between order statistics (Hyndman & Fan
1996, type 7): for samples 10, 20, ..., 1000 ms, p50 = 505 ms and p95 = 950.5 ms.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.run_report import Latency
from robot_msgs.compare.statistics import error_stats, percentile
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.optional import require
from robot_msgs.series import real_array

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.runs.logs import TimingLog
    from robot_msgs.typing import Float64Array

__all__ = [
    "BAG_PROXY_NOTE",
    "PERCENTILE_RULE",
    "dropped_frames",
    "latency_from_bag",
    "latency_from_samples",
    "latency_from_timing",
    "latency_samples_from_bag",
    "rate_hz",
]

BAG_PROXY_NOTE = (
    "latency proxy: bag receive time minus header stamp. It includes transport and "
    "recording delays, assumes the recorder's clock agrees with the stamping clock, and "
    "says nothing about processing time."
)

#: How the p50/p95 of latency and processing time are taken, as reports say it.
PERCENTILE_RULE = "linear between order statistics (NumPy's default, type 7)"


def _percentiles(values: Float64Array) -> tuple[float, float, float, float]:
    """p50, p95, max and mean of ``values`` (NaN for none), samples >= 0.

    NumPy's linear percentiles (:func:`~robot_msgs.compare.statistics.percentile`, bit
    for bit); :func:`~robot_msgs.compare.statistics.error_stats` gives the p95 (of the
    magnitudes: the samples), the max and a mean held within the samples where their
    sum overflows float64 (two latencies of 1e308 s ended the run as "got inf at
    Latency.latency_mean_s", naming no file; a hunt).
    """
    if values.size == 0:
        return (math.nan,) * 4
    stats = error_stats(values)
    return percentile(values, 50.0), stats.p95_abs, stats.max, stats.mean


def latency_from_samples(
    latency_s: Any,
    processing_s: Any = None,
    *,
    source: str = "timing_log",
    clock: str = "",
    notes: tuple[str, ...] = (),
    n_dropped: int = -1,
) -> Latency:
    """Summarise per-frame latency and processing-time samples.

    Parameters
    ----------
    latency_s : array_like, shape (N,), float64, seconds
        Acquisition-to-available latency per frame (queueing included).
    processing_s : array_like, shape (N,), float64, seconds, optional
        Processing time per frame; NaN entries or ``None`` mean unknown.
    source, clock : str
        How the stamps were obtained and how the clocks were synchronised.
    notes : tuple of str
        Caveats for the reader.
    n_dropped : int
        Input frames the log skips (:func:`dropped_frames`); -1 when unknown.

    Raises
    ------
    ValidationError
        Non-finite or negative latency samples, infinite or negative processing samples.

    Examples
    --------
    >>> lat = latency_from_samples(np.arange(1, 101) / 100.0)
    >>> round(lat.latency_p50_s, 6), round(lat.latency_p95_s, 6), lat.latency_max_s
    (0.505, 0.9505, 1.0)
    """
    # WHY real_array: np.asarray(..., float64) let NumPy's ValueError ("could not convert
    # string to float") and TypeError (complex) out, not a ValidationError naming the input.
    lat = real_array("latency_s", latency_s).reshape(-1)
    if not np.isfinite(lat).all() or (lat < 0).any():
        i = int(np.flatnonzero(~(np.isfinite(lat) & (lat >= 0)))[0])
        msg = f"Expected finite latencies >= 0 s, got {float(lat[i])!r} at sample {i}"
        raise ValidationError(msg)
    proc = np.empty(0) if processing_s is None else real_array("processing_s", processing_s)
    proc = proc.reshape(-1)
    known = ~np.isnan(proc)  # NaN: unknown, left out; -0.5 s was summarised, inf left out
    bad = known & ~(np.isfinite(proc) & (proc >= 0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        msg = (
            f"Expected finite processing times >= 0 s (NaN: unknown), got {float(proc[i])!r} "
            f"at sample {i}"
        )
        raise ValidationError(msg)
    proc = proc[known]
    l50, l95, lmax, lmean = _percentiles(lat)
    p50, p95, pmax, pmean = _percentiles(proc)
    return Latency(
        source=source,
        n_frames=int(lat.size),
        latency_p50_s=l50,
        latency_p95_s=l95,
        latency_max_s=lmax,
        latency_mean_s=lmean,
        processing_p50_s=p50,
        processing_p95_s=p95,
        processing_max_s=pmax,
        processing_mean_s=pmean,
        clock=clock,
        notes=notes,
        n_dropped=n_dropped,
    )


def _check_losses(lost: tuple[Float64Array, Float64Array]) -> None:
    """Refuse losses not sorted and disjoint, or one ending before it starts (or NaN).

    WHY: each skipped frame is counted in the one loss it lies in; overlapping losses
    counted a frame in both, and 3 skipped less 4 gave -1, the mark of frame numbers that
    say nothing (a review).
    """
    starts, ends = lost
    if starts.shape != ends.shape:
        msg = f"Expected as many loss ends as starts, got {ends.size} and {starts.size}"
        raise ValidationError(msg)
    bad = np.flatnonzero(~(starts <= ends))
    after = np.flatnonzero(~(ends[:-1] <= starts[1:])) + 1
    if bad.size or after.size:
        k = int(bad[0]) if bad.size else int(after[0])
        got = f"loss {k} [{starts[k]}, {ends[k]})"
        if not bad.size:
            got += f" after [{starts[k - 1]}, {ends[k - 1]})"
        msg = f"Expected losses sorted and disjoint, each [start, end), got {got}"
        raise ValidationError(msg)


def dropped_frames(
    frame: Any,
    acquisition_s: Any = None,
    lost: tuple[Float64Array, Float64Array] | None = None,
) -> int:
    """Return how many input frames a log's ``frame`` numbers skip; -1 when they cannot say.

    The numbers are the input's own (a camera's frame counter): a run that drops frames
    while busy logs ``0, 1, 2, 5, ...``, and the gaps are the frames it never processed.
    Numbers that are not strictly increasing integers (a per-run counter restarted, a
    timestamp) say nothing, and give -1. Frames after the last one logged are not seen.
    With ``lost``, a skipped frame acquired within a tracking loss the log has no row in
    is not counted: a run that logs the frames it gave a pose for skips those while
    lost, which the report counts as the loss already (its seconds). A row at a loss's
    start is the frame tracking was lost on, logged before the run knew: it leaves the
    loss one without rows (the frames after it are the loss's, as a loss from the log's
    first frame while initialising is). Where the log has rows after a loss's start and
    before its end, the run logged while lost, and a frame it skipped there was dropped
    (``vio_ekf``'s example run: frames dropped while busy, two in a loss). A skipped
    frame's acquisition is taken evenly between the two logged around it.

    Parameters
    ----------
    frame : array_like, shape (N,), float64
        The ``frame`` column of ``timing.csv``.
    acquisition_s : array_like, shape (N,), float64, seconds, optional
        Its ``acquisition_s`` column; needed with ``lost``.
    lost : tuple of two ndarrays, shape (L,), float64, seconds, optional
        The losses' starts and ends (``inf``: never recovered), sorted and disjoint, each
        ``[start, end)`` on the log's clock.

    Raises
    ------
    ValidationError
        ``frame`` is not numbers (text, complex, ragged), naming it; with ``lost`` and
        frames skipped, ``acquisition_s`` not one per frame, or losses not sorted and
        disjoint (or NaN).

    Examples
    --------
    >>> dropped_frames([0, 1, 2, 5, 6]), dropped_frames([3, 4]), dropped_frames([0, 0.5])
    (2, 0, -1)
    >>> lost = (np.array([0.25]), np.array([0.35]))  # frame 3, at 0.3 s, while lost (no row)
    >>> dropped_frames([0, 1, 2, 5, 6], [0.0, 0.1, 0.2, 0.5, 0.6], lost)
    1
    >>> lost = (np.array([0.2]), np.array([0.5]))  # lost on frame 2 (a row), 3 and 4 the loss's
    >>> dropped_frames([0, 1, 2, 5, 6], [0.0, 0.1, 0.2, 0.5, 0.6], lost)
    0
    """
    f = real_array("frame", frame).reshape(-1)  # text: our error naming it, not NumPy's
    if f.size == 0:
        return 0
    if not (np.isfinite(f).all() and (np.floor(f) == f).all() and (np.diff(f) > 0).all()):
        return -1
    span = float(f[-1]) - float(f[0]) + 1.0
    if span > 2.0**53:  # not a frame counter: integers past float64's exact ones
        return -1
    skipped = int(span) - int(f.size)
    if lost is None or not skipped or not lost[0].size:
        return skipped
    t = real_array("acquisition_s", acquisition_s).reshape(-1)
    if t.size != f.size:
        msg = f"Expected {f.size} acquisition times, got {t.size}"
        raise ValidationError(msg)
    _check_losses(lost)
    steps = np.diff(f)
    if not (np.diff(t) > 0).all():  # a clock going back says not when frames were: dropped
        return skipped
    # A loss with no row in it lies between two rows, in one gap: rows up to its start
    # and from its end on (WHY one gap per loss, not gaps x losses: 3 * 10^4 gaps and
    # 3 * 10^3 losses took 24 s and 3.2 GB, a review). A loss with rows in it was logged
    # through, one before the first row or from the last on has no gap. A row at the
    # start, the frame it was lost on, is the gap's first: its 9 frames after counted
    # dropped, lost 3 .. 4 s from frame 30 logged, and those after the log's first frame
    # while initialising, lost from it (the loss's start was taken as inside it).
    row = np.searchsorted(t, lost[0], side="right")
    silent = (row == np.searchsorted(t, lost[1])) & (row > 0) & (row < t.size)
    if not silent.any():  # a row in every loss: logged while lost, the skips dropped
        return skipped
    gap = row[silent] - 1
    t0, period, last = t[gap], (t[gap + 1] - t[gap]) / steps[gap], steps[gap] - 1
    # The skipped frames k = 1 .. last at t0 + k period within [start, end), counted in
    # frame periods (rounded to 1e-6 of one: 0.4 s is frame 1 after 0.3 s at 10 Hz).
    first = np.maximum(np.ceil(np.round((lost[0][silent] - t0) / period, 6)), 1.0)
    after = np.minimum(np.ceil(np.round((lost[1][silent] - t0) / period, 6)) - 1.0, last)
    inside = np.clip(after - first + 1.0, 0.0, None)
    return skipped - int(inside.sum())


def latency_from_timing(
    log: TimingLog,
    *,
    clock: str = "",
    lost: tuple[Float64Array, Float64Array] | None = None,
) -> Latency:
    r"""Latency and processing time from a run's ``timing.csv`` (see :mod:`.runs`).

    ``lost``: the tracking losses' starts and ends, whose skipped frames are not dropped
    (:func:`dropped_frames`); a note says how many there were.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from robot_msgs.runs.logs import read_timing
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "timing.csv"
    >>> _ = path.write_text("frame,acquisition_s,processing_start_s,available_s\n"
    ...                     "0,0.0,0.00,0.02\n1,0.1,0.12,0.14\n")
    >>> lat = latency_from_timing(read_timing(path))
    >>> round(lat.latency_max_s, 6), round(lat.processing_max_s, 6), lat.n_dropped
    (0.04, 0.02, 0)
    """
    notes: tuple[str, ...] = ()
    if not clock:
        notes = ("clock synchronisation not stated (meta.json `clock`)",)
    n_dropped = dropped_frames(log.frame)
    if n_dropped < 0:
        notes = (*notes, "frame numbers are not increasing integers: dropped frames unknown")
    elif n_dropped and lost is not None:
        kept = dropped_frames(log.frame, log.acquisition_s, lost)
        if kept < n_dropped:
            k = n_dropped - kept
            said = (
                f"{k} frame{'s' if k > 1 else ''} missing from the timing log while tracking "
                "was lost or initialising: not counted as dropped"
            )
            notes = (*notes, said)
        n_dropped = kept
    return latency_from_samples(
        log.available_s - log.acquisition_s,
        log.available_s - log.processing_start_s,
        source="timing_log",
        clock=clock,
        notes=notes,
        n_dropped=n_dropped,
    )


def rate_hz(stamps_s: Any) -> float:
    """Effective rate of a stamp series: ``(N - 1) / (t_last - t_first)`` in hertz.

    NaN for fewer than two stamps, a zero span, or one so short that the rate is past
    float64 (stamps 5e-324 s apart gave inf Hz, no rate measured).

    Raises
    ------
    ValidationError
        ``stamps_s`` is not numbers (text, complex, ragged), naming it.

    Examples
    --------
    >>> rate_hz([0.0, 0.1, 0.2, 0.4])
    7.5
    """
    t = real_array("stamps_s", stamps_s).reshape(-1)  # as dropped_frames reads its input
    if t.size < 2 or t[-1] <= t[0]:
        return math.nan
    first, last = float(t[0]), float(t[-1])  # Python's floats: inf, never a warning
    span = last - first
    if span == math.inf:  # -1e308 .. 1e308: halves do not overflow (0 Hz before)
        return (t.size - 1) / 2 / (last / 2 - first / 2)
    rate = (t.size - 1) / span
    return rate if rate < math.inf else math.nan


def latency_samples_from_bag(path: Path, topic: str) -> tuple[Float64Array, Float64Array]:
    """Header stamps and receive times (seconds) of every message on ``topic`` of a bag.

    Works with ROS 1 bags, ROS 2 bags (sqlite3 or MCAP) through ``rosbags``; the
    message type must have a ``header`` (``std_msgs/Header``).

    Returns
    -------
    stamps_s, received_s : ndarray, shape (N,), float64, seconds
        ``header.stamp`` and the bag's record time of each message, in bag order.

    Raises
    ------
    FormatError
        No such bag, not a bag (as :func:`robot_msgs.io.bag.open_bag` says), no such
        topic, or its type has no header.
    MissingDependencyError
        Without the ``bags`` extra.
    """
    require("rosbags", "bags", feature="reading bags")
    from robot_msgs.io.bag import open_bag  # noqa: PLC0415

    stamps: list[float] = []
    received: list[float] = []
    # Opened as every bag is (open_bag: its errors are FormatErrors naming it): with
    # rosbags' AnyReader alone, a file that is no bag ended report as 'a bug in robot_msgs'.
    try:
        with open_bag(path) as reader:
            _read_stamps(reader, path, topic, stamps, received)
    except FileNotFoundError as err:  # open_bag's: "PATH: no such file or folder"
        raise FormatError(str(err)) from err
    return np.asarray(stamps, dtype=np.float64), np.asarray(received, dtype=np.float64)


def _read_stamps(
    reader: Any, path: Path, topic: str, stamps: list[float], received: list[float]
) -> None:
    """Append the header stamp and receive time of each message on ``topic`` (seconds)."""
    connections = [c for c in reader.connections if c.topic == topic]
    if not connections:
        known = sorted({c.topic for c in reader.connections})
        msg = f"{path}: expected a topic among {known}, got {topic!r}"
        raise FormatError(msg)
    # One message at a time: rosbags deserialises per message, there is no batch API.
    for connection, receive_ns, raw in reader.messages(connections=connections):
        message = reader.deserialize(raw, connection.msgtype)
        header = getattr(message, "header", None)
        if header is None:
            msg = (
                f"{path}: topic {topic!r}: expected a message with a header, "
                f"got {connection.msgtype}"
            )
            raise FormatError(msg)
        stamps.append(header.stamp.sec + header.stamp.nanosec * 1e-9)
        received.append(receive_ns * 1e-9)


def latency_from_bag(path: Path, topic: str) -> Latency:
    """Build a latency *proxy* from a bag: receive (record) time minus header stamp per message.

    Clearly labelled as a proxy (``source="bag_receive_proxy"`` and
    :data:`BAG_PROXY_NOTE`): the recorder's receive time is when the estimate reached
    the bag, which includes transport; header stamps must be the sensor acquisition
    time and the two clocks must agree. Processing time is unknown (NaN).

    Raises
    ------
    FormatError
        As :func:`latency_samples_from_bag`, or a message received before its stamp
        (the clocks disagree: the proxy would be meaningless).
    """
    stamps, received = latency_samples_from_bag(path, topic)
    delay = received - stamps
    if (delay < 0).any():
        i = int(np.flatnonzero(delay < 0)[0])
        msg = (
            f"{path}: topic {topic!r}: message {i} was received {-delay[i]:.6f} s before its "
            "header stamp: the recorder's and the stamping clocks disagree"
        )
        raise FormatError(msg)
    return latency_from_samples(
        delay,
        None,
        source="bag_receive_proxy",
        clock="bag record time vs header stamp",
        notes=(BAG_PROXY_NOTE,),
    )
