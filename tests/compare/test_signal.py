"""Signal: its statistics are those of its series' finite samples, or it is refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs import from_dict
from robot_msgs.compare import Signal, error_stats
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
    ("errors", "stats_of"),
    [
        ([0.1, 0.2, 0.3], [0.1]),  # the statistics of 1 sample on a series of 3 (n edited)
        ([float("nan")] * 3, [0.1, 0.2, 0.3]),  # a series whose errors were all nulled
    ],
)
def test_statistics_that_the_series_does_not_hold_are_refused(
    errors: list[float], stats_of: list[float]
) -> None:
    """A saved result edited in its statistics or its series showed numbers nothing held
    (``res`` printed n 3 beside a series of 785, or rms 0.0135 over all-null errors)."""
    good = Signal.of("translation", "m", errors, stamps_s=[0.0, 1.0, 2.0])
    tampered = good.to_dict()
    tampered["stats"] = error_stats(stats_of).to_dict()
    n = int(np.isfinite(errors).sum())
    with pytest.raises(
        ValidationError,
        match=rf"Expected statistics of the {n} finite samples of the series, got str "
        rf"'n={len(stats_of)}' - at `Signal\.stats`",
    ):
        from_dict(tampered)
