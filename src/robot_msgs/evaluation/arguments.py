"""Type checks at the evaluation API's entry points, so a wrong argument is named, not crashed on.

WHY: ``ape(reference, [[0, 1, 2]])`` used to fail deep inside with ``AttributeError:
'list' object has no attribute 'stamps_s'``. Each public entry point checks what it was
given once, before any work, and says what to pass instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.series import real_array

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array

__all__ = ["check_argument", "check_points"]

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


def check_points(name: str, values: Any, *, min_rows: int = 1) -> Float64Array:
    """Return ``values`` as a finite ``(N, 3)`` float64 array, or raise a :class:`ValidationError`.

    WHY: the functions taking positions as arrays (``umeyama``, ``path_distances``) let
    NumPy's ``ValueError``/``IndexError`` out on text, a flat or ragged list, or a
    ``(N, 2)`` array, and ``path_distances`` returned NaN distances in silence.

    Examples
    --------
    >>> check_points("positions_xyz", [[0, 0, 0], [1, 2, 3]]).dtype
    dtype('float64')
    >>> check_points("positions_xyz", [[0.0, 0.0], [1.0, 2.0]])
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `positions_xyz` of shape (N, 3) with N >= 1, \
got shape (2, 2)
    """
    arr = real_array(name, values, expected="numbers of shape (N, 3)")
    if arr.ndim != 2 or arr.shape[1] != 3 or arr.shape[0] < min_rows:
        least = f" with N >= {min_rows}" if min_rows else ""
        msg = f"Expected `{name}` of shape (N, 3){least}, got shape {arr.shape}"
        raise ValidationError(msg)
    # A finite sum proves every value finite without an (N, 3) mask; finite values past
    # 1e308 may sum to inf (no warning), and the mask then finds them finite.
    with np.errstate(over="ignore"):
        total = arr.sum()
    if not np.isfinite(total) and not np.isfinite(arr).all():
        row = int(np.flatnonzero(~np.isfinite(arr).all(axis=1))[0])
        msg = f"Expected finite `{name}`, got {arr[row]} at row {row}"
        raise ValidationError(msg)
    return arr
