"""``numpy.searchsorted`` for needles that are sorted too: stamps in stamps, path lengths.

:func:`search_sorted` gives exactly ``np.searchsorted(haystack, needles, side)`` for a
sorted ``haystack``. When the needles are in nondecreasing order as well (the estimate's
stamps searched in the reference's, ``D_i + δ`` in the cumulative path length ``D``),
the compiled ``robot_msgs._sorted`` walks both arrays once, galloping from the last
answer, instead of a full binary search per needle.

WHY a compiled merge: at 10^6 needles into 10^6 stamps, ``np.searchsorted`` takes
23-28 ms (20 cache-missing steps a needle) and the merge 3-4 ms; all-pairs metre RPE at
10^6 poses made 62 ms of such searches. Searching blocks of needles in the slice of the
haystack they fall in, with NumPy only, took 15 ms. Without a C compiler at install
(the module is optional, as ``robot_msgs.io._fasttable``), or for needles that turn out
not to be sorted, NumPy answers: the same values, slower.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from robot_msgs.typing import Float64Array, IntpArray

__all__ = ["nearest_partners", "path_pairs", "search_sorted"]


class _Compiled(Protocol):
    """The C module's functions (it has no Python source for mypy)."""

    def search(
        self,
        haystack: object,
        needles: object,
        right: bool,  # noqa: FBT001 - the C function's positional flag
        out: object,
        /,
    ) -> bool:
        """Fill ``out``; ``False`` when the needles are not sorted."""

    def nearest(
        self, near: object, far: object, max_diff: float, near_out: object, far_out: object, /
    ) -> tuple[int, int]:
        """Fill the pairs of evo's nearest rule; return how many were kept and dropped."""

    def path_pairs(self, distances: object, delta: float, tol: float, out: object, /) -> int:
        """Fill all-pairs metre RPE's pairs, row after row; return how many were kept."""


_compiled: _Compiled | None
try:
    import robot_msgs._sorted as _module  # type: ignore[import-not-found]

    _compiled = _module
except ImportError:  # built without a C compiler
    _compiled = None

#: Below this many needles NumPy's own search is as fast as the call into C.
_SMALL = 64
#: The sides NumPy takes; the C module is told ``side == "right"``, so any other would be
#: answered as "left" where NumPy raises.
_SIDES = ("left", "right")


def search_sorted(
    haystack: ArrayLike, needles: ArrayLike, side: Literal["left", "right"] = "left"
) -> IntpArray:
    """Return ``np.searchsorted(haystack, needles, side)``, fast for sorted needles.

    Parameters
    ----------
    haystack : array_like, shape (N,)
        Sorted values (NumPy's order: NaN last).
    needles : array_like, shape (M,)
        Values to place; any order (sorted ones are the fast case).
    side : {"left", "right"}
        As :func:`numpy.searchsorted`: the first index ``i`` with ``needle <= haystack[i]``
        (left) or ``needle < haystack[i]`` (right).

    Returns
    -------
    ndarray of intp, shape (M,)
        The insertion indices, ``0 .. N``.

    Examples
    --------
    >>> search_sorted([0.0, 1.0, 1.0, 2.0], [-1.0, 1.0, 1.5, 9.0]).tolist()
    [0, 1, 3, 4]
    >>> search_sorted([0.0, 1.0, 1.0, 2.0], [1.0], side="right").tolist()
    [3]
    """
    hay = np.asarray(haystack)
    keys = np.asarray(needles)
    if (
        _compiled is None
        or side not in _SIDES  # NumPy's error for any other (the C reads one flag)
        or keys.ndim != 1
        or keys.shape[0] < _SMALL
        or hay.ndim != 1
        or hay.dtype != np.float64
        or keys.dtype != np.float64
    ):
        return np.searchsorted(hay, keys, side=side)
    hay = np.ascontiguousarray(hay)
    keys = np.ascontiguousarray(keys)
    out = np.empty(keys.shape[0], dtype=np.int64)  # the C answers in int64 on any build
    if _compiled.search(hay, keys, side == "right", out):
        found: IntpArray = out.astype(np.intp, copy=False)
        return found
    return np.searchsorted(hay, keys, side=side)


def nearest_partners(
    near: Float64Array, far: Float64Array, max_diff: float
) -> tuple[IntpArray, IntpArray, int] | None:
    """Return evo's nearest-stamp pairs of two sorted stamp arrays by one merge, if compiled.

    Each stamp of ``near`` takes the nearest stamp of ``far`` within ``max_diff`` (the
    later one only when strictly nearer); of the stamps that take the same partner only
    the closest stays (the earliest on a tie). The rule of
    :func:`robot_msgs.evaluation.association.associate` (``sync="nearest"``), which
    calls this first and runs its NumPy form when this returns ``None`` (no compiled
    module, or an empty ``far``).

    WHY compiled: the NumPy form makes ~20 passes over the stamps with as many (N,)
    temporaries: 12-18 ms at 10^6 poses on a first call in a fresh process (and 420 MB
    of temporaries at 10^7), where the merge takes 2-3 ms and only its two outputs
    (``benchmarks/bench_scale.py`` measures the whole commands).

    Parameters
    ----------
    near, far : ndarray, shape (M,) and (N,), float64
        Strictly increasing finite stamps, seconds (``far`` already moved by any offset).
    max_diff : float
        The largest stamp difference of a pair, seconds.

    Returns
    -------
    tuple of (ndarray of intp, ndarray of intp, int), or None
        Rows of ``near`` and of ``far`` kept, increasing, and how many were dropped as
        a partner's farther claimant.

    Examples
    --------
    >>> pairs = nearest_partners(np.array([0.0, 0.9, 1.05, 3.0]), np.array([0.0, 1.0]), 0.2)
    >>> pairs is None or [a.tolist() for a in pairs[:2]] + [pairs[2]] == [[0, 2], [0, 1], 1]
    True
    """
    if _compiled is None or far.shape[0] == 0:
        return None
    near = np.ascontiguousarray(near, dtype=np.float64)
    far = np.ascontiguousarray(far, dtype=np.float64)
    near_rows = np.empty(near.shape[0], dtype=np.int64)
    far_rows = np.empty(near.shape[0], dtype=np.int64)
    kept, dropped = _compiled.nearest(near, far, float(max_diff), near_rows, far_rows)
    if kept < near.shape[0]:  # arrays of their own: a view would be copied again downstream
        near_rows, far_rows = near_rows[:kept].copy(), far_rows[:kept].copy()
    return (
        near_rows.astype(np.intp, copy=False),
        far_rows.astype(np.intp, copy=False),
        int(dropped),
    )


def path_pairs(distances: Float64Array, delta: float, tol: float) -> IntpArray | None:
    """Return all-pairs metre RPE's pose pairs in one pass, if compiled (else ``None``).

    For each start ``i``, the ``j > i`` whose path length from ``i``, ``D[j] - D[i]``,
    is nearest ``delta`` (the earliest on a tie), kept when within ``tol``: the rule of
    :func:`robot_msgs.evaluation.pairs.select_pairs` (``delta_unit="m"``,
    ``all_pairs=True``), whose NumPy form runs when this returns ``None``. The same float
    operations in the same order, row by row, so the same pairs (a property test
    compares both).

    WHY compiled: the NumPy form searches ``D`` for every start and fixes plateaus of
    equal lengths with ~15 (N,) temporaries in blocks: 65-71 ms at 10^6 poses in the
    ``rpe`` command (its first use of those pages; 28-31 ms warm, min of 5), a sixth of
    the whole command, where one walk takes 12-13 ms, its branch on how far ``upper``
    moves mostly mispredicted.

    Parameters
    ----------
    distances : ndarray, shape (N,), float64
        Nondecreasing travelled distance ``D`` from the first pose, metres.
    delta, tol : float
        The pair's path length and how far from it a kept pair may be, metres.

    Returns
    -------
    ndarray of intp, shape (K, 2), or None
        The kept pairs ``(i, j)`` by increasing ``i``.

    Examples
    --------
    >>> pairs = path_pairs(np.array([0.0, 0.5, 1.0, 1.0, 2.1]), 1.0, 0.2)
    >>> pairs is None or pairs.tolist() == [[0, 2], [2, 4], [3, 4]]  # 0.5 m: none near 1 m
    True
    """
    if _compiled is None:
        return None
    d = np.ascontiguousarray(distances, dtype=np.float64)
    out = np.empty((max(d.shape[0] - 1, 0), 2), dtype=np.int64)
    kept = _compiled.path_pairs(d, float(delta), float(tol), out.reshape(-1))
    out.resize((kept, 2), refcheck=False)  # in place: no copy of the pairs kept
    pairs: IntpArray = out.astype(np.intp, copy=False)
    return pairs
