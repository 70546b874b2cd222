"""DTW, nDTW, SDTW: google-research r4r/dtw.py's doctest example and hand calculations.

The reference example (google-research/google-research ``r4r/dtw.py``, class ``DTW``
doctest, Ilharco et al. 2019): on ``nx.grid_graph([3, 4])`` with unit edges and
``threshold=3.0``,

    prediction = [(0, 0), (1, 0), (2, 0), (3, 0)]
    reference  = [(0, 0), (1, 0), (2, 1), (3, 2)]
    dtw -> 3.0, ndtw -> 0.77880078307140488, sdtw -> 0.77880078307140488,
    sdtw(prediction[:2], reference) -> 0.0

Shortest paths on a full unit grid graph are city-block (L1) distances, hence
``distance="cityblock"``.
"""

from __future__ import annotations

import math
import tracemalloc
from typing import TYPE_CHECKING, TypedDict

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.metrics import DTW, NDTW, SDTW, dtw, ndtw, sdtw

if TYPE_CHECKING:
    from robot_msgs.metrics.dtw import Distance

PREDICTION = [(0, 0), (1, 0), (2, 0), (3, 0)]
REFERENCE = [(0, 0), (1, 0), (2, 1), (3, 2)]


class _Grid(TypedDict):
    distance: Distance
    threshold: float


GRID: _Grid = {"distance": "cityblock", "threshold": 3.0}


def test_r4r_reference_example() -> None:
    assert float(dtw(PREDICTION, REFERENCE, distance="cityblock")) == pytest.approx(3.0)
    assert float(ndtw(PREDICTION, REFERENCE, **GRID)) == pytest.approx(0.77880078307140488)
    assert float(sdtw(PREDICTION, REFERENCE, **GRID)) == pytest.approx(0.77880078307140488)
    assert float(sdtw(PREDICTION[:2], REFERENCE, **GRID)) == 0.0


def test_r4r_example_streams_through_the_classes() -> None:
    metric = SDTW(threshold=3.0, distance="cityblock")
    metric.update(PREDICTION, REFERENCE)
    metric.update(PREDICTION[:2], REFERENCE)
    assert metric.compute() == pytest.approx(0.77880078307140488 / 2)


def test_euclidean_dtw_hand_computed() -> None:
    # Q = (0,0), (1,1); R = (0,0), (1,0), (2,0). Cost matrix (Euclidean):
    #   d(q1, r*) = 0, 1, 2;  d(q2, r*) = √2, 1, √2.
    # D row 1: 0, 1, 3. D row 2: √2, min(0, 1, √2) + 1 = 1, min(1, 3, 1) + √2 = 1 + √2.
    value = float(dtw([[0.0, 0.0], [1.0, 1.0]], [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]))
    assert value == pytest.approx(1 + math.sqrt(2), rel=1e-15)
    # nDTW with |R| = 3, d_th = 1: exp(-(1 + √2) / 3).
    q, r = [[0.0, 0.0], [1.0, 1.0]], [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    assert float(ndtw(q, r, threshold=1.0)) == pytest.approx(math.exp(-(1 + math.sqrt(2)) / 3))
    # The last points are √2 apart, beyond d_th = 1: SDTW is 0; within d_th = 1.5 it is nDTW.
    assert float(sdtw(q, r, threshold=1.0)) == 0.0
    assert float(sdtw(q, r, threshold=1.5)) == pytest.approx(math.exp(-(1 + math.sqrt(2)) / 4.5))


def test_identical_paths_have_zero_dtw_and_unit_ndtw() -> None:
    path = np.cumsum(np.ones((7, 3)), axis=0)
    assert float(dtw(path, path)) == 0.0
    assert float(ndtw(path, path)) == 1.0


def test_dtw_is_symmetric_for_a_symmetric_distance() -> None:
    rng = np.random.default_rng(0)
    q, r = rng.random((9, 2)), rng.random((5, 2))
    assert float(dtw(q, r)) == pytest.approx(float(dtw(r, q)), rel=1e-15)


def test_batched_pairs_equal_pairs_one_at_a_time() -> None:
    rng = np.random.default_rng(1)
    q, r = rng.random((2, 3, 6, 2)), rng.random((2, 3, 4, 2))
    batched = dtw(q, r)
    assert batched.shape == (2, 3)
    for idx in np.ndindex(2, 3):
        assert batched[idx] == float(dtw(q[idx], r[idx]))


def test_dtw_matches_a_plain_full_matrix_recursion() -> None:
    # Independent check: the textbook O(NM) table filled cell by cell.
    rng = np.random.default_rng(2)
    q, r = rng.random((8, 2)), rng.random((11, 2))
    table = np.full((9, 12), np.inf)
    table[0, 0] = 0.0
    for i in range(1, 9):
        for j in range(1, 12):
            best = min(table[i - 1, j], table[i, j - 1], table[i - 1, j - 1])
            table[i, j] = math.dist(q[i - 1], r[j - 1]) + best
    assert float(dtw(q, r)) == pytest.approx(table[8, 11], rel=1e-14)


def test_single_point_paths() -> None:
    assert float(dtw([[0.0, 0.0]], [[3.0, 4.0], [0.0, 0.0]])) == 5.0


def test_mismatched_pairs_raise() -> None:
    with pytest.raises(ValidationError, match=r"Expected `reference` of shape \(2, 'M', 2\)"):
        dtw(np.zeros((2, 3, 2)), np.zeros((3, 3, 2)))
    with pytest.raises(ValidationError, match=r"Expected `distance` in .*got 'l2'"):
        DTW(distance="l2")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"`threshold` finite and > 0, got 0.0"):
        NDTW(threshold=0.0)


def test_dtw_and_ndtw_instances_do_not_merge() -> None:
    with pytest.raises(TypeError, match="Expected another DTW to merge, got NDTW"):
        DTW().merge(NDTW())


def test_ndtw_of_a_dtw_past_float64_over_the_threshold_is_0_without_a_warning() -> None:
    """1e150 m over a threshold of 1e-300 m overflowed the ratio with a warning (an error
    where warnings are; a review): exp(-inf) is 0, as on a tensor."""
    assert float(ndtw([[0.0]], [[1e150]], threshold=1e-300)) == 0.0
    assert float(sdtw([[1e150]], [[1e150]], threshold=1e-300)) == 1.0  # DTW 0: exp(0)


def test_a_long_prediction_against_a_short_reference_keeps_a_short_wavefront() -> None:
    """Each anti-diagonal made a fresh array of N + 1 cells, N the prediction's length:
    O(N (N + M)) work, so 2e5 predicted points against 10 reference points took 125 s
    where 2000 x 2000 (twice the cells) took 0.6 s (7 s now; the reference's turn,
    10 x 2e5, was as fast). Measured by the wavefront's memory, which is the cost per
    anti-diagonal: 3 arrays of 5001 float64 (120 kB) for 5000 x 2 points, against a few
    kB for 2 x 5000. DTW is symmetric: both turns give the same number, bit for bit."""
    rng = np.random.default_rng(3)
    long, short = rng.random((5000, 2)), rng.random((2, 2))
    expected = float(dtw(short, long))
    tracemalloc.start()
    try:
        value = float(dtw(long, short))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert value == expected
    assert peak < 40_000, peak


def _textbook_dtw(a: list[list[float]], b: list[list[float]], distance: str) -> float:
    """D[i][j] = cost + min(D[i-1][j], D[i][j-1], D[i-1][j-1]), cell by cell, in floats:
    each cost's terms summed in order, as NumPy sums fewer than 8 (its pairwise sum)."""
    n, m = len(a), len(b)
    grid = [[math.inf] * (m + 1) for _ in range(n + 1)]
    grid[0][0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            total = 0.0
            for x, y in zip(a[i - 1], b[j - 1], strict=True):
                total += abs(x - y) if distance == "cityblock" else (x - y) * (x - y)
            cost = total if distance == "cityblock" else math.sqrt(total)
            grid[i][j] = cost + min(grid[i - 1][j], grid[i][j - 1], grid[i - 1][j - 1])
    return grid[n][m]


@pytest.mark.parametrize(("n", "m", "d"), [(300, 7, 3), (7, 300, 2), (1, 40, 1), (45, 40, 7)])
def test_dtw_gives_the_textbook_recurrence_bit_for_bit(n: int, m: int, d: int) -> None:
    """The wavefront over anti-diagonals gives the recurrence's numbers, bit for bit,
    whichever path is the longer and in a batch."""
    rng = np.random.default_rng(n + m + d)
    first, second = rng.normal(size=(2, n, d)) * 100.0, rng.normal(size=(2, m, d))
    for distance in ("euclidean", "cityblock"):
        got = dtw(first, second, distance=distance)
        pairs = zip(first, second, strict=True)
        want = [_textbook_dtw(x.tolist(), y.tolist(), distance) for x, y in pairs]
        assert got.tolist() == want


def test_an_option_given_as_a_numpy_string_is_kept_as_the_choice_it_equals() -> None:
    """A choice read from an array (np.str_) was kept as given: repr said np.str_('cityblock')."""
    metric = DTW(distance=np.str_("cityblock"))
    assert repr(metric) == "DTW(distance='cityblock', count=0)"
    assert repr(metric.settings()) == "{'distance': 'cityblock'}"
