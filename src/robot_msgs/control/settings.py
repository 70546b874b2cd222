"""``TrackingSettings``: how a logged command is compared with a logged measurement.

One value for every option that changes a number of :func:`~robot_msgs.control.tracking`
and :func:`~robot_msgs.control.step_response_to_command`, declared once with its flag
(:class:`~robot_msgs.flags.Flag`): ``robot-msgs track`` builds its flags, help and error
wording from these fields (as ``ape`` from ``EvaluationSettings``), and the library
functions take the same values as keywords. The names follow python-control's and
MATLAB's ``stepinfo`` options (``RiseTimeLimits``, ``SettlingTimeThreshold``).
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from msgspec import Meta

from robot_msgs.flags import Flag
from robot_msgs.msg import Msg, message
from robot_msgs.msg.fields import FINITE

__all__ = ["TrackingSettings"]

_STEP = "step response (with --step-info)"


@message("control/TrackingSettings")
class TrackingSettings(Msg):
    """How a command is read against a measurement, and which step figures are taken.

    Examples
    --------
    >>> TrackingSettings(interpolation="previous", delay_s=0.05).delay_s
    0.05
    >>> TrackingSettings(rise_limits=(0.9, 0.1))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected (low, high) with 0 <= low < high <= 1, got \
tuple (0.9, 0.1) - at `TrackingSettings.rise_limits`
    """

    interpolation: Annotated[
        Literal["linear", "previous"],
        Meta(
            description="hold each command value until the next (zero-order hold: a setpoint "
            "log written when it changes), instead of reading the command linearly between "
            "its points"
        ),
        Flag("--hold", when_set="previous"),
    ] = "linear"
    delay_s: Annotated[
        float,
        Meta(
            ge=0,
            description="the loop's transport (dead) time, seconds: each measurement at t is "
            "scored against the command at t - SECONDS",
        ),
        Flag("--delay", "SECONDS"),
        FINITE,
    ] = 0.0
    field: Annotated[
        Literal["position", "velocity", "effort"],
        Meta(
            description="the JointState field compared (position, velocity or effort) of a "
            "log of one row per joint per time or a bag's JointState topic; not given, a log "
            "without a position column is read of its first of velocity, effort"
        ),
        Flag("--field", "QUANTITY"),
    ] = "position"
    step_info: Annotated[
        bool,
        Meta(
            description="also the step-response figures of each channel (rise and settling "
            "time, overshoot, undershoot, peak), timed from the command's one step and "
            "relative to its values before and after it (MATLAB stepinfo's yinit, yfinal)"
        ),
        Flag("--step-info", group=_STEP),
    ] = False
    rise_limits: Annotated[
        tuple[float, ...],
        Meta(
            min_length=2,
            max_length=2,
            description="the shares of the step the rise time runs between (stepinfo's "
            "RiseTimeLimits)",
        ),
        Flag("--rise-time-limits", ("LOW", "HIGH"), group=_STEP),
        FINITE,
    ] = (0.1, 0.9)
    settling_threshold: Annotated[
        float,
        Meta(
            gt=0,
            description="half-width of the settling band, a share of the step "
            "(stepinfo's SettlingTimeThreshold)",
        ),
        Flag("--settling-time-threshold", "SHARE", group=_STEP),
        FINITE,
    ] = 0.02

    def _validate(self) -> None:
        if not math.isfinite(self.delay_s):
            raise self._fail(field="delay_s", expected="finite seconds >= 0", got=self.delay_s)
        low, high = self.rise_limits
        if not 0.0 <= low < high <= 1.0:
            expected = "(low, high) with 0 <= low < high <= 1"
            raise self._fail(field="rise_limits", expected=expected, got=self.rise_limits)
        if not math.isfinite(self.settling_threshold):
            expected = "a finite share > 0"
            raise self._fail(
                field="settling_threshold", expected=expected, got=self.settling_threshold
            )
