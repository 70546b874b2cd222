"""Type checks at the evaluation API's entry points, so a wrong argument is named, not crashed on.

WHY: ``ape(reference, [[0, 1, 2]])`` used to fail deep inside with ``AttributeError:
'list' object has no attribute 'stamps_s'``. Each public entry point checks what it was
given once, before any work, and says what to pass instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from robot_msgs.errors import ValidationError

__all__ = ["check_argument"]

_HINTS = {
    "PoseTrajectory": "read a file with robot_msgs.io.read_trajectory or build one with "
    "PoseTrajectory(stamps_s=..., positions_xyz=..., orientations_quat_xyzw=...)",
    "EvaluationSettings": "build one with EvaluationSettings(align='se3', ...), or from a "
    "dict with EvaluationSettings(**options)",
    "PairSettings": "build one with PairSettings(delta=..., delta_unit=...)",
}


def check_argument(name: str, value: Any, expected: type[Any]) -> None:
    """Raise :class:`ValidationError` naming ``name`` unless ``value`` is an ``expected``.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> check_argument("estimate", [[0.0, 1.0]], PoseTrajectory)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `estimate` as a PoseTrajectory, got list \
[[0.0, 1.0]] (read a file with robot_msgs.io.read_trajectory or build one with \
PoseTrajectory(stamps_s=..., positions_xyz=..., orientations_quat_xyzw=...))
    """
    if isinstance(value, expected):
        return
    kind = expected.__name__
    article = "an" if kind[0] in "AEIOU" else "a"
    if isinstance(value, np.ndarray):
        got = f"array of shape {value.shape} {value.dtype}"
    else:
        text = repr(value)
        got = f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"
    hint = _HINTS.get(kind)
    msg = f"Expected `{name}` as {article} {kind}, got {got}" + (f" ({hint})" if hint else "")
    reason = f"expected {article} {kind}, got {type(value).__name__}"
    raise ValidationError(msg, field=name, reason=reason)
