"""robot_msgs: typed robot messages and honest, fast evaluation of how well a robot moved.

Messages are immutable, validated value types (``robot_msgs.geometry.Pose``,
``robot_msgs.compare.ErrorStats``...), each with ``to_dict``/``from_dict``/``replace``;
:func:`from_dict` rebuilds any of them from its ``"_type"``, :func:`to_json` and
:func:`from_json` write and read strict JSON.

WHY the names below are loaded on first use: ``robot-msgs --help`` and every command
import this package, and the message machinery (NumPy) is only needed by some.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports
from robot_msgs._version import __version__

if TYPE_CHECKING:
    from robot_msgs.msg.base import Msg
    from robot_msgs.msg.registry import from_dict, from_json, registered_types, to_json, type_for

__all__ = [
    "Msg",
    "__version__",
    "from_dict",
    "from_json",
    "registered_types",
    "to_json",
    "type_for",
]

__getattr__ = exports(
    __name__,
    {
        "msg.base": ("Msg",),
        "msg.registry": ("from_dict", "from_json", "registered_types", "to_json", "type_for"),
    },
)
