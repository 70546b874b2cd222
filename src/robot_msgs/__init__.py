"""robot_msgs: typed robot messages and honest, fast evaluation of how well a robot moved.

Messages are immutable, validated value types (``robot_msgs.geometry.Pose``,
``robot_msgs.compare.ErrorStats``...), each with ``to_dict``/``from_dict``/``replace``;
:func:`from_dict` rebuilds any of them from its ``"_type"``.
"""

from importlib.metadata import PackageNotFoundError, version

from robot_msgs.msg import Msg, from_dict, registered_types, type_for

try:
    __version__ = version("robot_msgs")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["Msg", "__version__", "from_dict", "registered_types", "type_for"]
