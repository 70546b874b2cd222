"""ROS's primitive field types as annotations: the bounds an ``int`` field keeps, ``float32``.

A message field annotated ``UInt32`` is an ``int`` that construction refuses outside
``[0, 2**32 - 1]``, as the ROS field it maps to cannot hold it; ``Float32`` is a ``float``
rounded to the nearest float32 on construction, as the wire would round it, so a message
equals itself after a trip through CDR. Plain ``float`` is ROS's ``float64``, plain
``str`` its ``string`` and plain ``bool`` its ``bool``. WHY annotations and not classes:
the values stay plain Python ``int`` and ``float``; only the check differs.

Examples
--------
>>> from robot_msgs.std import Time
>>> Time(sec=2**31)
Traceback (most recent call last):
...
robot_msgs.errors.ValidationError: Expected int32 (-2147483648..2147483647), got int 2147483648 \
- at `Time.sec`
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated

from msgspec import Meta

__all__ = [
    "BOUNDS",
    "COUNT",
    "POSITION",
    "WORDED",
    "Byte",
    "Char",
    "Count",
    "Float32",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "MissingFloat",
    "Position",
    "Ros",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
]

#: Inclusive bounds of each ROS integer primitive (``byte`` and ``char`` are octets in ROS 2).
BOUNDS: dict[str, tuple[int, int]] = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint8": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
    "byte": (0, 2**8 - 1),
    "char": (0, 2**8 - 1),
}


@dataclasses.dataclass(frozen=True)
class Ros:
    """The ROS primitive a scalar field holds, such as ``Annotated[int, Ros("uint32")]``."""

    name: str

    def __post_init__(self) -> None:
        if self.name not in BOUNDS and self.name != "float32":
            msg = f"Expected a ROS integer primitive or 'float32', got {self.name!r}"
            raise ValueError(msg)


def _bounded(name: str) -> Meta:
    """Return msgspec's bound of a ROS integer: checked on decoding, and in the JSON Schema.

    msgspec bounds fit an int64: ``uint64``'s upper one is stated in the schema only (the
    constructor checks it).
    """
    low, high = BOUNDS[name]
    if high >= 2**63:
        return Meta(ge=low, extra_json_schema={"maximum": high})
    return Meta(ge=low, le=high)


Int8 = Annotated[int, Ros("int8"), _bounded("int8")]
Int16 = Annotated[int, Ros("int16"), _bounded("int16")]
Int32 = Annotated[int, Ros("int32"), _bounded("int32")]
Int64 = Annotated[int, Ros("int64"), _bounded("int64")]
UInt8 = Annotated[int, Ros("uint8"), _bounded("uint8")]
UInt16 = Annotated[int, Ros("uint16"), _bounded("uint16")]
UInt32 = Annotated[int, Ros("uint32"), _bounded("uint32")]
UInt64 = Annotated[int, Ros("uint64"), _bounded("uint64")]
Byte = Annotated[int, Ros("byte"), _bounded("byte")]
Char = Annotated[int, Ros("char"), _bounded("char")]
Float32 = Annotated[float, Ros("float32")]

#: The bound of a :data:`Count`; a field's errors say "a count >= 0" where it is met.
COUNT = Meta(ge=0, description="a count")
#: A count (of samples, poses, runs): an ``int >= 0``, declared once for the three that
#: read it: construction, the decoder (msgspec's ``ge``) and the JSON Schema
#: (``"minimum": 0``). WHY: each type refused ``n = -1`` in its own ``_validate``, which
#: the published schema did not carry, so a document it took was refused on reading.
Count = Annotated[int, COUNT]
#: The bound of a :data:`Position`; its errors say "a position >= 1".
POSITION = Meta(ge=1, description="a position, 1-based")
#: A 1-based position (a ranking's row): an ``int >= 1``, declared once as :data:`Count`.
Position = Annotated[int, POSITION]
#: What a bound field's errors say below its bound, by its ``Meta`` (the reference pages'
#: Type column says ``int``, as the seed pages do).
WORDED = ((COUNT, "a count >= 0"), (POSITION, "a position >= 1"))

if TYPE_CHECKING:  # a float to type checkers and to every caller
    from typing import TypeAlias

    MissingFloat: TypeAlias = float
else:

    class _AnyFloat(type):
        def __instancecheck__(cls, value: object) -> bool:
            return type(value) is float

    class MissingFloat(metaclass=_AnyFloat):
        """The annotation of a float field whose default, NaN, means missing data.

        Such a field holds a plain float like any other (``ErrorStats.iae``: NaN without
        a time axis); only the reading of JSON differs. A NaN is written ``null``, which
        msgspec's typed decoder refuses for a ``float``, so a message holding one was
        parsed, revived and converted instead (:func:`robot_msgs.msg.json.decode_json`).
        For this annotation msgspec hands the value to the package's decoding hook, which
        reads ``null`` as NaN and returns a plain float: every float is an instance of
        this class (msgspec checks what a hook returns with ``isinstance``), and nothing
        is ever made of it.

        WHY: the catalog's ``Comparison``, ``Report`` and ``RunReport`` (every signal's
        ``ErrorStats`` has NaN integrals unless a run gives its time axis) took 1.10x,
        1.18x and 1.12x ``json``'s round trip of their ``to_dict()``
        (``benchmarks/bench_messages.py --only json``), where issue 20 asks for less.
        """
