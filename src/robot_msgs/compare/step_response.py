"""``StepResponse``: rise, settling, overshoot and peak of a measured step.

The figures are computed by :func:`robot_msgs.control.step_response`; the convention they
follow (MATLAB's ``stepinfo(y, t, yfinal, yinit)``, not python-control's ``step_info``) is
stated there.
"""

from __future__ import annotations

import math

from robot_msgs.msg import Msg, message
from robot_msgs.msg.primitives import Count

__all__ = ["StepResponse"]


@message("compare/StepResponse")
class StepResponse(Msg):
    """Figures of one measured step response, relative to ``initial`` and ``final``.

    Times are in seconds from the first sample (the step is taken to be applied at
    ``t[0]``). With ``r(t) = (y(t) - initial) / (final - initial)`` the normalised
    response (0 before, 1 after the step, whatever its direction).

    WHY ``initial_given``/``final_given``: a figure relative to a measured end value and one
    relative to a commanded target are different numbers; the message says which it is.

    Attributes
    ----------
    initial, final : float
        The values ``r`` is relative to: the commanded ones where given
        (``initial_given``, ``final_given``), else the first and the last sample.
    steady_state : float
        The last sample, to compare with ``final``, the target.
    rise_time_s : float, s
        From ``r`` first reaching ``rise_limits[0]`` to first reaching
        ``rise_limits[1]`` (10 % to 90 % by default); NaN if never reached.
    settling_time_s : float, s
        When ``|r - 1|`` last leaves ``settling_threshold`` (2 %) of the step size and
        stays inside; NaN if still outside at the last sample.
    overshoot_pct : float, %
        ``100 · max(0, max r - 1)``.
    undershoot_pct : float, %
        ``100 · max(0, -min r)`` (first moving the wrong way).
    peak : float
        The sample furthest in the direction of the step (the lowest one for a downward
        step).
    peak_time_s : float, s
        When ``peak`` was sampled.
    rise_limits : tuple of float
        The levels of ``r`` the rise time is taken between (default 10 % and 90 %).
    settling_threshold : float
        The band around ``r = 1``, as a share of the step size (default 2 %).
    initial_given, final_given : bool
        Whether ``initial`` and ``final`` are commanded targets, not measured end values.
    n : int
        The number of samples.
    """

    initial: float
    final: float
    steady_state: float
    rise_time_s: float
    settling_time_s: float
    overshoot_pct: float
    undershoot_pct: float
    peak: float
    peak_time_s: float
    rise_limits: tuple[float, ...] = (0.1, 0.9)
    settling_threshold: float = 0.02
    initial_given: bool = False
    final_given: bool = False
    n: Count = 0

    def _validate(self) -> None:
        lo_hi = self.rise_limits
        if len(lo_hi) != 2 or not 0.0 <= lo_hi[0] < lo_hi[1] <= 1.0:
            raise self._fail(
                field="rise_limits", expected="(low, high) with 0 <= low < high <= 1", got=lo_hi
            )
        if not (math.isfinite(self.settling_threshold) and self.settling_threshold > 0):
            raise self._fail(
                field="settling_threshold",
                expected="a finite fraction > 0",
                got=self.settling_threshold,
            )
        # One test of the five figures, most often passed: NaN, +inf (and 1e308 up, to be
        # sure) go to the full check. Literal floats compare faster than 0 or math.inf
        if not (
            0.0 <= self.rise_time_s < 1e308
            and 0.0 <= self.settling_time_s < 1e308
            and 0.0 <= self.peak_time_s < 1e308
            and 0.0 <= self.overshoot_pct < 1e308
            and 0.0 <= self.undershoot_pct < 1e308
        ):
            self._check_figures()
        if self.initial == self.final:
            raise self._fail(
                field="final",
                expected=f"a value other than initial {self.initial!r}",
                got=self.final,
            )

    def _check_figures(self) -> None:
        """Refuse a time or a percentage below 0 or +inf (NaN: not reached, unknown).

        The times are seconds from the first sample of a finite series, the rise time the
        later crossing's minus the earlier's; the percentages are ``100 · max(0, ...)`` of
        finite samples. ``rise_time_s=-1.0`` and ``settling_time_s=inf`` were kept.
        """
        self._check_measures(_TIMES, "a finite time >= 0 (NaN: not reached)")
        self._check_measures(("peak_time_s",), "a finite time >= 0 (NaN: unknown)")
        self._check_measures(_PERCENTAGES, "a finite percentage >= 0 (NaN: unknown)")


#: The times of :class:`StepResponse` whose NaN means "not reached", and its percentages.
_TIMES = ("rise_time_s", "settling_time_s")
_PERCENTAGES = ("overshoot_pct", "undershoot_pct")
