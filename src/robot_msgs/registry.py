"""Every message type by its ``"_type"``: look one up, list them, or rebuild any message.

:func:`robot_msgs.msg.message` records each class as it is defined; this module imports
the modules that define the package's message families first, so every type is known
however little of the package has been imported. It is kept apart from the message base
(:mod:`robot_msgs.msg`) so that defining a message never imports the families.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import UnknownTypeError, ValidationError
from robot_msgs.msg import declared_types

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.msg import Msg

__all__ = ["MESSAGE_MODULES", "from_dict", "registered_types", "type_for"]


#: The modules that define message types (a test checks no other module does).
MESSAGE_MODULES: tuple[str, ...] = (
    "robot_msgs.compare.aggregation",
    "robot_msgs.compare.alignment",
    "robot_msgs.compare.comparison",
    "robot_msgs.compare.statistics",
    "robot_msgs.compare.ranking",
    "robot_msgs.compare.report",
    "robot_msgs.compare.result",
    "robot_msgs.compare.run_report",
    "robot_msgs.compare.step_response",
    "robot_msgs.compare.time_offset",
    "robot_msgs.evaluation.settings",
    "robot_msgs.geometry",
    "robot_msgs.nav",
    "robot_msgs.runs.run_settings",
    "robot_msgs.sensor",
    "robot_msgs.std",
    "robot_msgs.trajectory",
)


def _import_families() -> None:
    """Import every module that defines message types, so that all of them are registered."""
    for name in MESSAGE_MODULES:
        importlib.import_module(name)


def registered_types() -> dict[str, type[Msg]]:
    """Return every registered message type by its ``"_type"``, sorted by name.

    Examples
    --------
    >>> types = registered_types()
    >>> types["compare/ErrorStats"].__name__, list(types) == sorted(types)
    ('ErrorStats', True)
    """
    _import_families()
    return dict(sorted(declared_types().items()))


def type_for(type_name: str) -> type[Msg]:
    """Return the message class registered as ``type_name``.

    Raises
    ------
    UnknownTypeError
        No type is registered under ``type_name``; the message lists the known ones.

    Examples
    --------
    >>> type_for("geometry/Point").ROS2
    'geometry_msgs/msg/Point'
    """
    _import_families()
    known = declared_types()
    try:
        return known[type_name]
    except KeyError:
        names = ", ".join(sorted(known))
        msg = f"Expected a registered _type ({names}), got {type_name!r}"
        raise UnknownTypeError(msg) from None


def from_dict(data: Mapping[str, Any]) -> Msg:
    """Build whichever message ``data["_type"]`` names from its :meth:`Msg.to_dict` form.

    Examples
    --------
    >>> import robot_msgs
    >>> robot_msgs.from_dict({"_type": "geometry/Point", "x": 1.0, "y": 0.0, "z": 0.0})
    Point(x=1.0, y=0.0, z=0.0)
    """
    from collections.abc import Mapping  # noqa: PLC0415 - also a TYPE_CHECKING name above

    if not isinstance(data, Mapping) or "_type" not in data:
        got = f"{type(data).__name__} {data!r:.60}"
        msg = f'Expected a dict with a "_type" key, got {got} - at `$`'
        raise ValidationError(msg)
    return type_for(str(data["_type"])).from_dict(data)
