"""robot_msgs: typed robot messages and honest, fast evaluation of how well a robot moved.

Messages are immutable, validated value types (``robot_msgs.geometry.Pose``,
``robot_msgs.compare.ErrorStats``...), each with ``to_dict``/``from_dict``/``replace``;
:func:`from_dict` rebuilds any of them from its ``"_type"``, :func:`to_json` and
:func:`from_json` write and read strict JSON.

WHY the names below are loaded on first use: ``robot-msgs --help`` and every command
import this package, and the message machinery (NumPy) is only needed by some.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robot_msgs._version import __version__

if TYPE_CHECKING:
    from robot_msgs.msg import Msg
    from robot_msgs.registry import from_dict, from_json, registered_types, to_json, type_for

__all__ = [
    "Msg",
    "__version__",
    "from_dict",
    "from_json",
    "registered_types",
    "to_json",
    "type_for",
]


def __getattr__(name: str) -> Any:
    """Load ``Msg`` and the registry functions when first asked for (PEP 562)."""
    if name == "Msg":
        from robot_msgs.msg import Msg  # noqa: PLC0415

        return Msg
    if name in {"from_dict", "from_json", "registered_types", "to_json", "type_for"}:
        from robot_msgs import registry  # noqa: PLC0415

        return getattr(registry, name)
    msg = f"module 'robot_msgs' has no attribute {name!r}"
    raise AttributeError(msg)
