"""``TimeOffset``: a clock offset estimated between an estimate and its reference, with evidence."""

from __future__ import annotations

import math
from typing import Annotated

import numpy as np

from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.check import COMPILED
from robot_msgs.msg.primitives import Count, MissingFloat
from robot_msgs.typing import Float64Array

__all__ = ["TimeOffset"]

#: A ``contrast`` below this is a flat cost curve: the offset is weakly determined.
_WEAK_CONTRAST = 1.0
#: A ``std_s`` above this share of the range searched is poorly determined.
_WIDE_STD = 0.05


@message("compare/TimeOffset")
class TimeOffset(Msg):
    """The clock offset that best lines an estimate's motion up with the reference's.

    There is no ROS equivalent.

    Attributes
    ----------
    offset_s : float, seconds
        Added to the estimate's stamps to put them on the reference's clock (the meaning
        of ``EvaluationSettings.offset_s``).
    std_s : float, seconds
        Its standard uncertainty (``inf`` when the cost curve has no curvature at the
        optimum).
    search_s : tuple of float, seconds
        The range searched, ``(low, high)``.
    n_poses : int
        The estimate poses the cost was computed on at the optimum.
    rms_m : float, metres
        The RMS position error there after the fit.
    contrast : float
        How much the cost rises away from the optimum: the median over the searched
        offsets of the mean squared error, divided by its minimum, minus 1 (0: a flat
        curve, nothing to time the trajectories by).
    candidates_s : ndarray, shape (K,), float64, seconds
        Each offset of the coarse search: with ``cost_rms_m``, the cost curve.
    cost_rms_m : ndarray, shape (K,), float64, metres
        The RMS error at each of ``candidates_s``, finite and >= 0 (NaN: too few poses
        overlap there).
    notes : tuple of str
        What a reader must know about the estimate's quality (an optimum at the edge of
        the search, a flat curve, a second minimum, little overlap).
    second_minimum_s : float, seconds
        A second minimum of the cost as deep as ``offset_s``'s (NaN: none; and in results
        saved before it was kept, whose note says it): the motion times the
        trajectories more than one way (:attr:`ambiguity`).
    second_rms_m : float, metres
        The RMS position error at ``second_minimum_s`` (NaN with it).

    Examples
    --------
    >>> t = TimeOffset(offset_s=-0.1, std_s=0.001, search_s=(-1.0, 1.0), n_poses=10,
    ...                rms_m=0.01, contrast=40.0, candidates_s=[-0.1], cost_rms_m=[0.01])
    >>> t.offset_s, t.notes
    (-0.1, ())
    """

    offset_s: float
    std_s: float
    search_s: tuple[float, ...]
    n_poses: Count
    rms_m: float
    contrast: float
    candidates_s: Annotated[Float64Array, Shape("K")]
    cost_rms_m: Annotated[Float64Array, Shape("K")]
    notes: tuple[str, ...] = ()
    second_minimum_s: MissingFloat = math.nan
    second_rms_m: MissingFloat = math.nan

    def _validate(self) -> None:
        lo_hi = self.search_s
        if len(lo_hi) != 2 or not lo_hi[0] <= lo_hi[1]:
            raise self._fail(field="search_s", expected="(low, high) with low <= high", got=lo_hi)
        if not self.std_s >= 0:
            raise self._fail(field="std_s", expected="an uncertainty >= 0", got=self.std_s)
        if not 0.0 <= self.rms_m < 1e308:  # most often passed; NaN, +inf to the full check
            self._check_measures(("rms_m",), "a finite RMS >= 0 (NaN: unknown)")
        if self.second_minimum_s == self.second_minimum_s or self.second_rms_m == self.second_rms_m:
            self._check_second()  # NaN, NaN (none) is most often passed
        costs = self.cost_rms_m  # RMSs too, as rms_m: -1 and +inf were kept, never checked
        # In C where built (0.1 us; NumPy's test 3-5 us): NaN (no fit at that offset), or
        # no answer (None), goes to NumPy's
        if not (
            COMPILED is not None and COMPILED.all_finite(costs) and COMPILED.at_least(costs, 0.0)
        ):
            self._check_costs(costs)

    def _check_second(self) -> None:
        """Refuse a second minimum without its RMS (or the reverse), or not finite."""
        if not math.isfinite(self.second_minimum_s):
            raise self._fail(
                field="second_minimum_s",
                expected="a finite offset with second_rms_m (NaN with it: none)",
                got=self.second_minimum_s,
            )
        if not 0.0 <= self.second_rms_m < math.inf:
            raise self._fail(
                field="second_rms_m",
                expected="a finite RMS >= 0 with second_minimum_s (NaN with it: none)",
                got=self.second_rms_m,
            )

    def _check_costs(self, costs: Float64Array) -> None:
        """Refuse a cost below 0 or +inf, naming its index; NaN (no fit there) passes.

        The known values go to the compiled test first: a curve with NaN at its ends
        took NumPy's five passes, 5 us more than one without.
        """
        known = costs[costs == costs]  # noqa: PLR0124 - NaN is the one value unequal to itself
        if COMPILED is not None and COMPILED.all_finite(known) and COMPILED.at_least(known, 0.0):
            return
        bad = ~(np.isnan(costs) | ((costs >= 0) & (costs < math.inf)))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            expected = "a finite RMS >= 0 (NaN: unknown)"
            raise self._fail(field=f"cost_rms_m[{i}]", expected=expected, got=float(costs[i]))

    @property
    def at_edge(self) -> bool:
        """Whether the optimum lies within one grid step of an end of ``search_s``.

        The true offset may then lie outside the range searched. ``False`` without a
        cost curve (an offset saved with its value only).

        Examples
        --------
        >>> edge = TimeOffset(offset_s=-0.999, std_s=0.3, search_s=(-1.0, 1.0), n_poses=10,
        ...                   rms_m=0.2, contrast=2.0, candidates_s=[-1.0, -0.5, 0.0, 0.5, 1.0],
        ...                   cost_rms_m=[0.2, 0.3, 0.4, 0.5, 0.6])
        >>> edge.at_edge, edge.replace(offset_s=-0.4).at_edge
        (True, False)
        """
        if self.candidates_s.size < 2:
            return False
        step = float(self.candidates_s[1] - self.candidates_s[0])
        low, high = self.search_s
        return self.offset_s - low < step or high - self.offset_s < step

    @property
    def ambiguity(self) -> str:
        """Say that a second minimum fits as well as the optimum (the estimator's note), or ``""``.

        ``""`` too for a result saved before :attr:`second_minimum_s` was kept.

        Examples
        --------
        >>> TimeOffset(offset_s=-0.1, std_s=0.001, search_s=(-1.0, 1.0), n_poses=10,
        ...            rms_m=0.01, contrast=40.0, candidates_s=[-0.1], cost_rms_m=[0.01],
        ...            second_minimum_s=0.4, second_rms_m=0.0101).ambiguity
        'ambiguous: a second minimum at +0.4000 s (RMS 0.0101 m against 0.01 m); periodic \
motion can time the trajectories more than one way'
        """
        if math.isnan(self.second_minimum_s):
            return ""
        return (
            f"ambiguous: a second minimum at {self.second_minimum_s:+.4f} s (RMS "
            f"{self.second_rms_m:.3g} m against {self.rms_m:.3g} m); periodic motion can time "
            "the trajectories more than one way"
        )

    @property
    def poorly_determined(self) -> bool:
        """Whether ``std_s`` exceeds :data:`_WIDE_STD` of the range searched (the estimator's note).

        Examples
        --------
        >>> wide = TimeOffset(offset_s=0.14, std_s=0.18, search_s=(-1.0, 1.0), n_poses=10,
        ...                   rms_m=0.2, contrast=2.0, candidates_s=[0.1], cost_rms_m=[0.2])
        >>> wide.poorly_determined, wide.replace(std_s=0.006).poorly_determined
        (True, False)
        """
        low, high = self.search_s
        return self.std_s > _WIDE_STD * (high - low)

    @property
    def flat(self) -> bool:
        """Whether the cost hardly rises away from the optimum (``contrast`` below 1)."""
        return self.contrast < _WEAK_CONTRAST

    def describe(self) -> str:
        """Return a one-line account for a result's notes.

        Examples
        --------
        >>> TimeOffset(offset_s=-0.1026, std_s=0.0004, search_s=(-1.0, 1.0), n_poses=2169,
        ...            rms_m=0.00804, contrast=40.0, candidates_s=[0.0],
        ...            cost_rms_m=[0.1]).describe()
        'time offset estimated: -0.1026 s ± 0.0004 s (searched -1 .. 1 s, 2169 poses, \
RMS 0.00804 m at the optimum)'
        """
        lo, hi = self.search_s
        return (
            f"time offset estimated: {self.offset_s:+.4f} s ± {self.std_s:.2g} s (searched "
            f"{lo:g} .. {hi:g} s, {self.n_poses} poses, RMS {self.rms_m:.3g} m at the optimum)"
        )
