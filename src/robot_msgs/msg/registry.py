"""Every message type by its ``"_type"``: look one up, list them, or rebuild any message.

:func:`robot_msgs.msg.message` records each class as it is defined; this module imports
the modules that define the package's message families first, so every type is known
however little of the package has been imported. It is kept apart from the message base
(:mod:`robot_msgs.msg`) so that defining a message never imports the families.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping  # at run time: a local import cost 1.5 µs a call
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import UnknownTypeError, ValidationError, did_you_mean, shown_token
from robot_msgs.msg.arrays import field_error
from robot_msgs.msg.base import declared_types
from robot_msgs.msg.json import _too_deep, decode_json, encode_json, ros_names
from robot_msgs.msg.json_text import BOM, parse_error, refuse_repeated_keys

if TYPE_CHECKING:
    from robot_msgs.msg.base import Msg

__all__ = ["MESSAGE_MODULES", "from_dict", "from_json", "registered_types", "to_json", "type_for"]


#: The modules that define message types (a test checks no other module does).
MESSAGE_MODULES: tuple[str, ...] = (
    "robot_msgs.action",
    "robot_msgs.compare.aggregation",
    "robot_msgs.compare.alignment",
    "robot_msgs.compare.comparison",
    "robot_msgs.compare.diagnosis",
    "robot_msgs.compare.extrinsic",
    "robot_msgs.compare.statistics",
    "robot_msgs.compare.ranking",
    "robot_msgs.compare.report",
    "robot_msgs.compare.result",
    "robot_msgs.compare.run_report",
    "robot_msgs.compare.signal",
    "robot_msgs.compare.spatial_match",
    "robot_msgs.compare.step_response",
    "robot_msgs.compare.time_offset",
    "robot_msgs.control.settings",
    "robot_msgs.diagnostic",
    "robot_msgs.evaluation.read_settings",
    "robot_msgs.evaluation.settings",
    "robot_msgs.geometry",
    "robot_msgs.nav",
    "robot_msgs.rcl",
    "robot_msgs.rosgraph",
    "robot_msgs.runs.run_settings",
    "robot_msgs.sensor.camera",
    "robot_msgs.sensor.environment",
    "robot_msgs.sensor.inertial",
    "robot_msgs.sensor.satellite",
    "robot_msgs.sensor.scan",
    "robot_msgs.sensor.state",
    "robot_msgs.shape",
    "robot_msgs.std",
    "robot_msgs.tf2",
    "robot_msgs.trajectory.joint",
    "robot_msgs.trajectory.pose",
    "robot_msgs.visualization",
)


@functools.cache
def _import_families() -> None:
    """Import every module that defines message types, so that all of them are registered.

    Once: they stay imported. WHY: importlib's lookup of the 36 modules on every
    :func:`type_for` took ``robot_msgs.from_dict`` of a Point to 39-52 µs, where
    ``Point.from_dict`` takes 0.7 µs (a walk; min of 7 x 5000 calls, a 2-core machine).
    """
    for name in MESSAGE_MODULES:
        importlib.import_module(name)


def _family_type(type_name: str) -> type[Msg] | None:
    """Return the type ``type_name`` names once its family's modules are imported, or None.

    A ``_type`` is ``family/Name`` and the family's modules are ``robot_msgs.family`` and
    those under it (a test checks every type's): ``geometry/Pose`` needs
    ``robot_msgs.geometry`` (and what it imports), not the 36 modules. WHY: ``robot-msgs
    schema geometry/Pose`` spent ~130 ms of its 0.4 s importing every family. None for
    a name of no family of the package's (a ROS name, a typo): the caller imports them all.
    """
    family = f"robot_msgs.{type_name.partition('/')[0]}"
    modules = [m for m in MESSAGE_MODULES if m == family or m.startswith(f"{family}.")]
    for name in modules:
        importlib.import_module(name)
    return declared_types().get(type_name) if modules else None


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

    ``type_name`` may also be the ROS 2 type (``geometry_msgs/msg/Point``, or ROS 1's
    ``geometry_msgs/Point``), so data labelled with ROS names loads too.

    Raises
    ------
    UnknownTypeError
        No type is registered under ``type_name`` (the message lists the known ones), or
        ``type_name`` is no ``str``.

    Examples
    --------
    >>> type_for("geometry/Point").ROS2
    'geometry_msgs/msg/Point'
    >>> type_for("geometry_msgs/msg/Point").TYPE
    'geometry/Point'
    >>> type_for("robot_msgs/msg/ErrorStats").TYPE  # the name to_ros gives it
    'compare/ErrorStats'
    """
    given: object = type_name  # from callers without a type checker, anything
    if not isinstance(given, str):  # None said "'NoneType' object has no attribute 'replace'"
        msg = f"Expected a message type name (str), got {type(given).__name__} {given!r:.60}"
        raise UnknownTypeError(msg)
    known = declared_types()
    found = known.get(type_name)
    if found is None:
        found = _family_type(type_name)
    if found is None:
        _import_families()
        found = known.get(type_name)
    if found is None:
        found = _by_ros2().get(type_name.replace("/msg/", "/"))
    if found is None:
        # One spelling a type: ours, or ROS's where the name typed is ROS's ("imu" was
        # answered "sensor/Imu, sensor_msgs/Imu", one type twice; a review).
        spellings = _by_ros2() if "_msgs" in type_name else known
        hint = did_you_mean(type_name, list(spellings), last_part=True)
        msg = (
            f"Expected a message type (a `_type` such as geometry/Pose) or its ROS 2 name "
            f"(geometry_msgs/msg/Pose), got "
            f"{shown_token(type_name)}{hint} "
            f"({len(known)} types: the reference pages of `robot-msgs docs` list them)"
        )
        raise UnknownTypeError(msg)
    return found


def _by_ros2() -> dict[str, type[Msg]]:
    """Types by their ROS 2 name in ROS 1's spelling (``pkg/Name``), which both forms reduce to.

    One of the package's own types without a ROS 2 equivalent goes by the name of its
    generated definition (:func:`~robot_msgs.msg.json.ros_names`:
    ``robot_msgs/msg/ErrorStats``); a user's type does not, so it cannot take one of
    theirs by its class name (a user's ``ErrorStats`` took ``compare/ErrorStats``'s; a
    review).
    """
    return {
        ros_names(cls)[1]: cls
        for name, cls in declared_types().items()
        if cls.ROS2 or (cls.__module__.startswith("robot_msgs.") and not name.startswith("test/"))
    }


def from_dict(data: Mapping[str, Any]) -> Msg:
    """Build whichever message ``data["_type"]`` names from its :meth:`Msg.to_dict` form.

    Examples
    --------
    >>> import robot_msgs
    >>> robot_msgs.from_dict({"_type": "geometry/Point", "x": 1.0, "y": 0.0, "z": 0.0})
    Point(x=1.0, y=0.0, z=0.0)
    """
    if not isinstance(data, Mapping) or "_type" not in data:
        got = f"{type(data).__name__} {data!r:.60}"
        msg = f'Expected a dict with a "_type" key, got {got} - at `$`'
        raise ValidationError(msg)
    named = data["_type"]
    if not isinstance(named, str):  # str() made 5 the name '5', quoted as a string
        raise field_error(expected="a message type name (str)", value=named, path="$._type")
    return type_for(named).from_dict(data)


def to_json(msg: Msg) -> bytes:
    """Return a message as compact strict JSON, UTF-8 bytes (NaN as ``null``).

    The infinities are the strings ``"Infinity"`` and ``"-Infinity"``, as protobuf's JSON
    mapping writes them (the summary said they were ``null``, as NaN is); where ``null``
    means ``None`` (an optional float, a settings value) NaN is ``"NaN"``, so
    :func:`from_json` gives NaN and ``None`` back apart. The fast road of the package's
    one JSON policy (:mod:`robot_msgs.strict_json` writes dicts by the same rule):
    msgspec's encoder, several times ``json.dumps``'s speed.

    Examples
    --------
    >>> import robot_msgs
    >>> robot_msgs.to_json(type_for("std/Time")(sec=1))
    b'{"_type":"std/Time","sec":1,"nanosec":0}'
    >>> robot_msgs.to_json(type_for("geometry/Point")(x=float("nan"), y=float("-inf")))
    b'{"_type":"geometry/Point","x":null,"y":"-Infinity","z":0.0}'
    >>> settings = {"max_diff_s": float("nan"), "t_end_s": None}
    >>> aggregate = type_for("compare/Aggregate")(metric="ape", signals=(), n_runs=0,
    ...                                           settings=settings)
    >>> robot_msgs.to_json(aggregate).split(b'"settings":')[1].split(b"}")[0]
    b'{"max_diff_s":"NaN","t_end_s":null'
    """
    return encode_json(msg)


def from_json(data: bytes | str, cls: type[Msg] | None = None) -> Msg:
    """Build a message from JSON text: of ``cls``, or of whichever type ``"_type"`` names.

    ``null`` in a float field is NaN, as :func:`to_json` writes it; a byte-order mark
    at the start is ignored, as on every road that reads JSON text. A number beyond
    float64 (``1e99999``) is named by its field, as with ``cls`` given
    (``- at `Point.x```): the type is the one ``"_type"`` names, ``$`` where none is.

    Examples
    --------
    >>> import robot_msgs
    >>> robot_msgs.from_json(b'{"_type": "geometry_msgs/msg/Point", "x": null}')
    Point(x=nan, y=0.0, z=0.0)
    """
    if cls is not None:
        return decode_json(data, cls)
    import msgspec  # noqa: PLC0415 - the message base's dependency, loaded with it

    try:
        text = (data.encode() if isinstance(data, str) else bytes(data)).removeprefix(BOM)
        value = msgspec.json.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError) as err:  # the latter: a lone surrogate
        if isinstance(err, msgspec.DecodeError):  # msgspec's path is `$[...]` for 1e99999
            named = parse_error(text, _type_named, err)  # or "truncated" for "\ud800"
            if named is not None:
                raise named from err
        head = data[:40] if isinstance(data, str) else bytes(data[:40]).decode("utf-8", "replace")
        msg = f"Expected JSON text of a message, got {head!r}...: {err}"  # the text, not b'...'
        raise ValidationError(msg) from err
    except RecursionError as err:  # msgspec's parser stops at Python's recursion limit
        unread = "message"  # its type is named in the text not read
        raise _too_deep(unread) from err
    refuse_repeated_keys(text, "a message")
    return from_dict(value)


def _type_named(document: object) -> str:
    """Return the class name of the type a parsed message's ``"_type"`` names, else ``$``."""
    named = document.get("_type") if isinstance(document, dict) else None
    if isinstance(named, str):
        try:
            return type_for(named).__name__
        except UnknownTypeError:
            pass
    return "$"
