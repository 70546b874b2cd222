"""What every ROS 2 node publishes about itself (family ``rcl``, ROS 2's ``rcl_interfaces``).

``/rosout`` carries :class:`Log` and ``/parameter_events`` :class:`ParameterEvent`; both
are in every bag ``ros2 bag record -a`` writes, so a whole bag reads only if they do.
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, ClassVar

import msgspec

from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import Int64, Ros, UInt8, UInt32, UInt64
from robot_msgs.std import Time, _zeros
from robot_msgs.typing import UInt8Array

__all__ = [
    "FloatingPointRange",
    "IntegerRange",
    "Log",
    "Parameter",
    "ParameterDescriptor",
    "ParameterEvent",
    "ParameterEventDescriptors",
    "ParameterType",
    "ParameterValue",
]


@message("rcl/Log", ros2="rcl_interfaces/msg/Log")
class Log(Msg):
    """One log line of a node, as ``/rosout`` carries it.

    Attributes
    ----------
    stamp : Time
        When it was logged.
    level : uint8
        :attr:`DEBUG`, :attr:`INFO`, :attr:`WARN`, :attr:`ERROR` or :attr:`FATAL`.
    name : str
        The logger's name (the node's, or ``node.sub``).
    msg : str
        The text.
    file, function : str
        Where in the source it was logged.
    line : uint32
        The line of ``file``.
    """

    DEBUG: ClassVar[int] = 10
    INFO: ClassVar[int] = 20
    WARN: ClassVar[int] = 30
    ERROR: ClassVar[int] = 40
    FATAL: ClassVar[int] = 50

    stamp: Time = Time()
    level: UInt8 = 0
    name: str = ""
    msg: str = ""
    file: str = ""
    function: str = ""
    line: UInt32 = 0


@message("rcl/ParameterType", ros2="rcl_interfaces/msg/ParameterType")
class ParameterType(Msg):
    """ROS's names of the parameter types (:attr:`ParameterValue.type`); no content.

    Attributes
    ----------
    structure_needs_at_least_one_member : uint8
        The one field of an empty IDL struct, as in :class:`robot_msgs.std.Empty`.
    """

    PARAMETER_NOT_SET: ClassVar[int] = 0
    PARAMETER_BOOL: ClassVar[int] = 1
    PARAMETER_INTEGER: ClassVar[int] = 2
    PARAMETER_DOUBLE: ClassVar[int] = 3
    PARAMETER_STRING: ClassVar[int] = 4
    PARAMETER_BYTE_ARRAY: ClassVar[int] = 5
    PARAMETER_BOOL_ARRAY: ClassVar[int] = 6
    PARAMETER_INTEGER_ARRAY: ClassVar[int] = 7
    PARAMETER_DOUBLE_ARRAY: ClassVar[int] = 8
    PARAMETER_STRING_ARRAY: ClassVar[int] = 9

    structure_needs_at_least_one_member: UInt8 = 0


@message("rcl/ParameterValue", ros2="rcl_interfaces/msg/ParameterValue")
class ParameterValue(Msg):
    """A parameter's value: ``type`` says which one of the fields holds it.

    Attributes
    ----------
    type : uint8
        A :class:`ParameterType` constant (``PARAMETER_DOUBLE``...).
    bool_value : bool
        The value where ``type`` is ``PARAMETER_BOOL``.
    integer_value : int64
        The value where ``type`` is ``PARAMETER_INTEGER``.
    double_value : float
        The value where ``type`` is ``PARAMETER_DOUBLE``.
    string_value : str
        The value where ``type`` is ``PARAMETER_STRING``.
    byte_array_value : ndarray, shape (B,), uint8 (ROS ``byte[]``)
        The value where ``type`` is ``PARAMETER_BYTE_ARRAY``; read-only.
    bool_array_value, integer_array_value, double_array_value, string_array_value : tuple
        The value where ``type`` is the matching ``PARAMETER_..._ARRAY``.
    """

    type: UInt8 = 0
    bool_value: bool = False
    integer_value: Int64 = 0
    double_value: float = 0.0
    string_value: str = ""
    byte_array_value: Annotated[UInt8Array, Shape("B"), Ros("byte")] = field(
        default_factory=_zeros("u1")
    )
    bool_array_value: tuple[bool, ...] = ()
    integer_array_value: tuple[Int64, ...] = ()
    double_array_value: tuple[float, ...] = ()
    string_array_value: tuple[str, ...] = ()


@message("rcl/Parameter", ros2="rcl_interfaces/msg/Parameter")
class Parameter(Msg):
    """A named parameter value.

    Attributes
    ----------
    name : str
        The parameter's full name.
    value : ParameterValue
        Its value, of the type its ``type`` says (:class:`ParameterType`).
    """

    name: str = ""
    value: ParameterValue = ParameterValue()


@message("rcl/ParameterEvent", ros2="rcl_interfaces/msg/ParameterEvent")
class ParameterEvent(Msg):
    """A node's parameters added, changed or removed, as ``/parameter_events`` carries them.

    Attributes
    ----------
    stamp : Time
        When the change happened.
    node : str
        The node's fully qualified name.
    new_parameters, changed_parameters, deleted_parameters : tuple of Parameter
        The parameters declared, set, and undeclared by this change.
    """

    stamp: Time = Time()
    node: str = ""
    new_parameters: tuple[Parameter, ...] = ()
    changed_parameters: tuple[Parameter, ...] = ()
    deleted_parameters: tuple[Parameter, ...] = ()


@message("rcl/FloatingPointRange", ros2="rcl_interfaces/msg/FloatingPointRange")
class FloatingPointRange(Msg):
    """The values a float parameter may take: ``from_value`` to ``to_value`` by ``step``.

    Units are the parameter's.

    Attributes
    ----------
    from_value, to_value : float
        The range's ends, both allowed.
    step : float
        0 means any value in the range.
    """

    from_value: float = 0.0
    to_value: float = 0.0
    step: float = 0.0


@message("rcl/IntegerRange", ros2="rcl_interfaces/msg/IntegerRange")
class IntegerRange(Msg):
    """The values an integer parameter may take: ``from_value`` to ``to_value`` by ``step``.

    Attributes
    ----------
    from_value, to_value : int64
        The range's ends, both allowed.
    step : uint64
        0: any value in the range.
    """

    from_value: Int64 = 0
    to_value: Int64 = 0
    step: UInt64 = 0


@message("rcl/ParameterDescriptor", ros2="rcl_interfaces/msg/ParameterDescriptor")
class ParameterDescriptor(Msg):
    """What a node declares of a parameter: its type, meaning and allowed values.

    Attributes
    ----------
    name, description, additional_constraints : str
        The parameter's name, what it means, and any rule on its value the ranges cannot
        state, in words.
    type : uint8
        A :class:`ParameterType` constant.
    read_only, dynamic_typing : bool
        Whether the value cannot change once set, and whether a value of another type may
        replace it.
    floating_point_range, integer_range : tuple of at most one range
        ROS's bounded sequences ``[<=1]``: empty when the parameter has no range.
    """

    name: str = ""
    type: UInt8 = 0
    description: str = ""
    additional_constraints: str = ""
    read_only: bool = False
    dynamic_typing: bool = False
    floating_point_range: Annotated[tuple[FloatingPointRange, ...], msgspec.Meta(max_length=1)] = ()
    integer_range: Annotated[tuple[IntegerRange, ...], msgspec.Meta(max_length=1)] = ()


@message("rcl/ParameterEventDescriptors", ros2="rcl_interfaces/msg/ParameterEventDescriptors")
class ParameterEventDescriptors(Msg):
    """Descriptors of parameters added, changed or removed.

    One atomic update: a parameter name is in at most one of the three lists.

    Attributes
    ----------
    new_parameters : tuple of ParameterDescriptor
        The parameters declared.
    changed_parameters : tuple of ParameterDescriptor
        The parameters whose descriptors changed.
    deleted_parameters : tuple of ParameterDescriptor
        The parameters undeclared.
    """

    new_parameters: tuple[ParameterDescriptor, ...] = ()
    changed_parameters: tuple[ParameterDescriptor, ...] = ()
    deleted_parameters: tuple[ParameterDescriptor, ...] = ()
