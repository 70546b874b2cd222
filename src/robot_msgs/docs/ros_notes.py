"""What a reference page says of a type's ROS 2 equivalent: its definition, the differences.

The differences are derived from the field annotations, so no page can forget one:
a matrix held where ROS has a flat fixed array, a NumPy array where ROS has a sequence,
``float32`` rounding, integer bounds; plus what a type's own ``ROS2_NOTES`` says (the
``Time``/``Duration`` ``nanosec`` range, ROS 1's ``seq``).

Examples
--------
>>> from robot_msgs.geometry import PoseWithCovariance
>>> ros2_url(PoseWithCovariance)
'https://github.com/ros2/common_interfaces/blob/humble/geometry_msgs/msg/PoseWithCovariance.msg'
>>> print(ros2_differences(PoseWithCovariance)[0].partition(";")[0])
``covariance``: ROS has a flat ``float64[36]``
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.msg import field_schema

if TYPE_CHECKING:
    from robot_msgs.msg import FieldSpec, Msg

__all__ = ["ros2_differences", "ros2_url"]

_RCL = "https://github.com/ros2/rcl_interfaces/blob/humble"
#: The folder (in its repository, at the Humble branch) that holds each ROS 2 package;
#: a package missing here is in common_interfaces.
_PACKAGES = {
    "action_msgs": f"{_RCL}/action_msgs",
    "builtin_interfaces": f"{_RCL}/builtin_interfaces",
    "rcl_interfaces": f"{_RCL}/rcl_interfaces",
    "rosgraph_msgs": f"{_RCL}/rosgraph_msgs",
    "tf2_msgs": "https://github.com/ros2/geometry2/blob/humble/tf2_msgs",
    # WHY the root: this repository is the package (its msg/ folder is at the top)
    "unique_identifier_msgs": "https://github.com/ros2/unique_identifier_msgs/blob/humble",
}
_COMMON = "https://github.com/ros2/common_interfaces/blob/humble"


def ros2_url(cls: type[Msg]) -> str | None:
    """Return the link to the ``.msg`` file of ``cls``'s ROS 2 equivalent (Humble), or None.

    Examples
    --------
    >>> from robot_msgs.action import UUID
    >>> ros2_url(UUID)
    'https://github.com/ros2/unique_identifier_msgs/blob/humble/msg/UUID.msg'
    """
    if cls.ROS2 is None:
        return None
    package, _, name = cls.ROS2.partition("/msg/")
    return f"{_PACKAGES.get(package, f'{_COMMON}/{package}')}/msg/{name}.msg"


def _array_note(name: str, spec: FieldSpec) -> str | None:
    """Return the note on an array field (one without a ``Shape`` is a ROS sequence), or None."""
    shape = spec.shape
    ros = spec.ros or spec.dtype  # WHY: ROS's byte[] is held as uint8, and its page said uint8[]
    if shape is None or not all(isinstance(d, int) for d in shape.dims):
        return (
            f"``{name}``: ROS has a sequence ``{ros}[]``; here a read-only NumPy array "
            f"of ``{spec.dtype}`` (a list or an array is accepted)."
        )
    if len(shape.dims) > 1:
        size = math.prod(d for d in shape.dims if isinstance(d, int))
        return (
            f"``{name}``: ROS has a flat ``{ros}[{size}]``; here a ``{shape}`` "
            f"matrix, row-major (the flat {size} values are accepted)."
        )
    return None


def _is_float32(spec: FieldSpec) -> bool:
    return spec.kind == "float32" or (spec.inner is not None and spec.inner.kind == "float32")


def ros2_differences(cls: type[Msg]) -> tuple[str, ...]:
    """Return every difference from the ROS 2 definition, one sentence each (reST inline).

    Integer fields are checked against their ROS type's bounds on construction and
    sequences are held as tuples (NumPy arrays accepted): true of every type, stated
    once on each page rather than here.
    """
    if cls.ROS2 is None:
        return ()
    schema = field_schema(cls)
    notes = [
        note
        for name, spec in schema.items()
        if spec.kind == "array" and (note := _array_note(name, spec))
    ]
    singles = [f"``{name}``" for name, spec in schema.items() if _is_float32(spec)]
    if singles:
        notes.append(
            f"{', '.join(singles)}: ``float32``, rounded to the nearest float32 on construction, "
            "as the wire would round them (so a message equals itself after CDR)."
        )
    notes.extend(getattr(cls, "ROS2_NOTES", ()))
    return tuple(notes)
