"""Signal: its statistics are those of its series' finite samples, or it is refused."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs import from_dict
from robot_msgs.compare import ErrorSeries, Signal, error_stats
from robot_msgs.errors import ValidationError

_SAMPLES = st.lists(
    st.floats(-1e6, 1e6) | st.just(float("nan")) | st.just(float("inf")), min_size=0, max_size=40
)


@settings(max_examples=150, deadline=None)
@given(_SAMPLES)
def test_a_signal_of_errors_counts_their_finite_samples(errors: list[float]) -> None:
    """The law behind the check: what Signal.of builds always passes it."""
    values = np.array(errors, dtype=np.float64)
    signal = Signal.of("translation", "m", values, stamps_s=np.arange(values.size, dtype=float))
    assert signal.series is not None
    assert signal.stats.n == signal.series.n_finite == int(np.isfinite(values).sum())
    assert from_dict(signal.to_dict()) == signal


@pytest.mark.parametrize(
    ("errors", "stats_of", "said"),
    [
        # the statistics of 1 sample on a series of 3 (n edited)
        ([0.1, 0.2, 0.3], [0.1], r"\(3 of them\), got str 'n=1'"),
        # a series whose errors were all nulled
        ([float("nan")] * 3, [0.1, 0.2, 0.3], r"\(0 of them\), got str 'n=3'"),
        # an extreme edited
        ([0.1, 0.2, 0.3], [0.1, 0.2, 0.4], r"\(min 0\.1, max 0\.3\), got str 'min=0\.1, max=0\.4'"),
        # the rms edited (the same count and extremes)
        ([0.1, 0.15, 0.3], [0.1, 0.25, 0.3], r"\(rms 0\.20207.*\), got str 'rms=0\.23"),
    ],
)
def test_statistics_that_the_series_does_not_hold_are_refused(
    errors: list[float], stats_of: list[float], said: str
) -> None:
    """A saved result edited in its statistics or its series showed numbers nothing held
    (``res`` printed n 3 beside a series of 785, rms 0.0135 over all-null errors, or an
    rms edited to 0.013 beside errors whose rms is 0.01347)."""
    good = Signal.of("translation", "m", errors, stamps_s=[0.0, 1.0, 2.0])
    tampered = good.to_dict()
    tampered["stats"] = error_stats(stats_of).to_dict()
    with pytest.raises(
        ValidationError,
        match=rf"Expected statistics of the finite samples of the series {said}.* - at `Signal\.stats`",
    ):
        from_dict(tampered)


_EDGE_FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-310, 1e154, 1e200, -1e200, float("inf"), float("nan")]),
)


@settings(max_examples=300, deadline=None)
@given(
    errors=st.lists(_EDGE_FLOATS, max_size=32),
    source=st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), max_size=32),
)
def test_a_few_samples_are_checked_as_numpy_checks_them(
    errors: list[float], source: list[float]
) -> None:
    """The Python road for up to 32 samples says what the NumPy road says, for any stats."""
    from robot_msgs.compare import signal as module

    stats = error_stats(np.asarray(source or [0.0]))
    e = np.asarray(errors, dtype=np.float64)
    few = module._disagreement(stats, e)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "_FEW", -1)
        with np.errstate(all="ignore"):
            many = module._disagreement(stats, e)
    assert (few is None) == (many is None)
    if few is not None and many is not None:
        assert few[1] == many[1]  # the same field at fault
    own = error_stats(e) if np.isfinite(e).any() else None
    if own is not None and np.isfinite(own.rms):
        assert module._disagreement(own, e) is None


@pytest.mark.parametrize("size", [3, 60])  # the Python road, and NumPy's
@pytest.mark.parametrize("magnitude", [1e200, 1e-200])
def test_a_signal_of_samples_whose_squares_overflow_or_underflow_holds_its_rms(
    size: int, magnitude: float
) -> None:
    """The scaled rms (finite past 1e154, not 0 below 1e-154) and the plain one results
    saved before hold (inf, or 0) both agree with the series; another rms does not."""
    errors = np.full(size, magnitude)
    signal = Signal.of("translation", "m", errors, stamps_s=np.arange(size, dtype=np.float64))
    assert signal.stats.rms == pytest.approx(magnitude, rel=1e-15)  # of equal samples: one
    assert from_dict(signal.to_dict()) == signal
    plain = math.inf if magnitude > 1.0 else 0.0
    saved = signal.replace(stats=signal.stats.replace(rms=plain))
    assert from_dict(saved.to_dict()) == saved
    half = signal.stats.replace(rms=magnitude / 2)
    said = rf"got str 'rms={re.escape(repr(half.rms))}' - at `Signal\.stats`"
    with pytest.raises(ValidationError, match=said):
        signal.replace(stats=half)


def test_a_few_samples_whose_squares_overflow_are_checked_as_numpy_checks_them() -> None:
    """Hypothesis found two errors of 9.48e153, whose squares sum to just under float64's
    largest: the Python road raised ``OverflowError`` (math.fsum's "intermediate
    overflow") where NumPy's road sums them (and past the largest gives inf, as
    ``error_stats`` says)."""
    from robot_msgs.compare import signal as module

    e = np.array([0.0, 9.48e153, 9.48e153])
    own = error_stats(e)
    assert math.isclose(own.rms, 9.48e153 * math.sqrt(2 / 3), rel_tol=1e-15)
    assert module._disagreement(own, e) is None
    assert module._disagreement(own.replace(rms=1.0), e)[1] == "rms=1.0"  # type: ignore[index]
    many = np.repeat(e, 20)  # past the Python road's 32 samples, and past float64
    assert math.isclose(error_stats(many).rms, 9.48e153 * math.sqrt(2 / 3), rel_tol=1e-15)
    assert module._disagreement(error_stats(many[:30]), many[:30]) is None
    with np.errstate(over="ignore"):
        assert module._disagreement(error_stats(many), many) is None


@pytest.mark.parametrize(
    ("errors", "stamps", "said"),
    [
        (["a"], [0.0], r"Expected `errors` as numbers, got list \['a'\]"),
        (["1.5"], [0.0], r"Expected `errors` as numbers, got list \['1.5'\]"),
        ([1 + 2j], [0.0], r"Expected `errors` as real numbers"),
        ([0.1, 0.2], np.array([0, 250], dtype="timedelta64[ms]"), r"`stamps_s` as numbers"),
    ],
)
def test_signal_of_refuses_what_error_stats_refuses_naming_the_argument(
    errors: object, stamps: object, said: str
) -> None:
    """Signal.of converted with np.asarray(..., float64): ["1.5"] was read as 1.5 where
    error_stats refuses text, stamps of 0 and 250 ms as 0 and 250 s, and ["a"] or a
    complex number let NumPy's ValueError or TypeError out."""
    with pytest.raises(ValidationError, match=said):
        Signal.of("x", "m", errors, stamps_s=stamps)  # type: ignore[arg-type]


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.floats(-1e9, 1e9), min_size=1, max_size=20),
    st.data(),
)
def test_an_error_series_refuses_a_stamp_that_is_not_finite(
    stamps: list[float], data: st.DataObject
) -> None:
    """A saved .npz whose stamps were float16 (1.3e9 overflows to inf) loaded, and res
    --plot/--html then printed NumPy's 'invalid value encountered in subtract'."""
    k = data.draw(st.integers(0, len(stamps) - 1))
    stamps[k] = data.draw(st.sampled_from([math.inf, -math.inf, math.nan]))
    errors = np.zeros(len(stamps))
    with pytest.raises(
        ValidationError, match=r"Expected finite values, .* at `ErrorSeries\.stamps_s`"
    ):
        ErrorSeries(stamps_s=np.array(stamps), errors=errors)


def test_a_yaw_deg_signal_of_a_segment_length_is_refused_naming_the_new_name() -> None:
    # yaw_deg is the yaw about the reference body's z (APE, RPE); rpg's yaw per segment is
    # about world z, yaw_world_deg (a saved yaw_deg@L m of c2d08f8 is migrated on reading).
    with pytest.raises(
        ValidationError, match=r"yaw_world_deg \(about world z\), got .*at `Signal\.quantity`"
    ):
        Signal.of("yaw_deg", "deg", [1.0, 2.0], stamps_s=[0.0, 1.0], length_m=10.0)
    assert Signal.of("yaw_deg", "deg", [1.0], stamps_s=[0.0]).name == "yaw_deg"


def test_a_word_naming_a_signal_picks_it_alone_not_its_quantity_beside_it() -> None:
    """A KITTI drift holds ``translation_pct`` pooled and ``translation_pct@100m`` ... per
    length, each of quantity ``translation_pct``: ``plot("translation_pct")`` drew the
    pooled signal and every length on one axis (3 lines for 2 lengths). A word naming no
    signal still picks its quantity (rpg's ``yaw_world_deg`` at every length)."""
    from robot_msgs.compare.signal import select_signals

    pooled = Signal.of("translation_pct", "%", [1.0, 2.0], stamps_s=[0.0, 1.0])
    lengths = [
        Signal.of("translation_pct", "%", [1.0], stamps_s=[0.0], length_m=v) for v in (1.0, 2.0)
    ]
    kept, unknown = select_signals([pooled, *lengths], ["translation_pct", "roll"])
    assert ([s.name for s in kept], unknown) == (["translation_pct"], ["roll"])
    kept, _ = select_signals(lengths, ["translation_pct"])
    assert [s.name for s in kept] == ["translation_pct@1m", "translation_pct@2m"]
