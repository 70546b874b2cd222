"""The short ``repr`` of a large message: big arrays by dtype and shape, results by summary.

A message whose arrays, at any depth, hold more than :data:`REPR_ARRAY_ELEMENTS` elements
in all is shown in a short form: each array of more than :data:`REPR_ARRAY_SHOWN`
elements as ``<float64 array (785, 3)>`` (a one-dimensional one with its first and last
values, ``<int64 array (785,) [349, ..., 2996]>``), the fields equal to their defaults left
out, and any field a type summarises itself (:meth:`Msg._repr_field`: a comparison's
signals by ``n``, ``rms`` and ``mean``) by its summary. A message that holds many others
(a :class:`~robot_msgs.compare.Report`) has the short form whatever its arrays, its
collections by their count and first and last names (:func:`by_names`). Every other
message keeps msgspec's full ``repr``, which ``eval`` turns back into an equal message
where its values print exactly.

WHY: an evaluation of 785 poses printed 65 KB of NumPy's digits (already cut by NumPy
with ``...``, so not a constructor call either), which buries the REPL and a log. The
values stay available in full: ``to_dict()`` (and ``encode_json``) give every one.

Examples
--------
>>> import numpy as np
>>> from robot_msgs.trajectory import PoseTrajectory
>>> t = np.arange(200) * 0.5
>>> traj = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((200, 3)),
...                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (200, 1)))
>>> traj  # doctest: +NORMALIZE_WHITESPACE
PoseTrajectory(stamps_s=<float64 array (200,) [0, ..., 99.5]>,
    positions_xyz=<float64 array (200, 3)>, orientations_quat_xyzw=<float64 array (200, 4)>)
>>> small = PoseTrajectory(stamps_s=t[:2], positions_xyz=np.zeros((2, 3)),
...                        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (2, 1)))
>>> "frame_id=''" in repr(small)  # msgspec's full form: every field, defaults too
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.msg.fields import values_equal
from robot_msgs.msg.json import struct_defaults

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.msg.base import Msg

__all__ = [
    "REPR_ARRAY_ELEMENTS",
    "REPR_ARRAY_SHOWN",
    "array_text",
    "by_names",
    "has_large_array",
    "short_repr",
]

#: A message whose arrays hold more elements than this in all has the short ``repr``.
REPR_ARRAY_ELEMENTS = 100
#: In the short form, arrays of more elements than this are shown by dtype and shape.
REPR_ARRAY_SHOWN = 16


def has_large_array(value: object) -> bool:
    """Whether ``value``'s arrays hold more than :data:`REPR_ARRAY_ELEMENTS` elements in all.

    Examples
    --------
    >>> has_large_array((np.zeros(3), {"a": np.zeros(98)})), has_large_array(np.zeros(101))
    (True, True)
    """
    return _elements(value) > REPR_ARRAY_ELEMENTS


def _elements(value: object) -> int:
    if isinstance(value, np.ndarray):
        return int(value.size)
    fields = getattr(type(value), "__struct_fields__", None)
    if fields is not None:
        return sum(_elements(getattr(value, name)) for name in fields)
    if isinstance(value, tuple | list):
        return sum(_elements(v) for v in value)
    if isinstance(value, Mapping):
        return sum(_elements(v) for v in value.values())
    return 0


def array_text(value: np.ndarray[Any, Any]) -> str:
    """Return NumPy's ``repr`` of a small array, dtype and shape (and ends) of a larger one.

    Examples
    --------
    >>> array_text(np.arange(3))
    'array([0, 1, 2])'
    >>> array_text(np.arange(17, dtype=np.int64))
    '<int64 array (17,) [0, ..., 16]>'
    >>> array_text(np.array([1305031102155800064, 1305031102187800064] * 9))
    '<int64 array (18,) [1305031102155800064, ..., 1305031102187800064]>'
    >>> array_text(np.zeros((50, 3)))
    '<float64 array (50, 3)>'
    """
    if value.size <= REPR_ARRAY_SHOWN:
        return repr(value)
    text = f"<{value.dtype} array {value.shape}"
    if value.ndim == 1 and value.dtype.kind in "biuf":
        # First and last, as NumPy elides ("[a, ..., b]", not a range "a .. b"); integers
        # whole (stamps in nanoseconds lost their digits to %g).
        first, last = value[0].item(), value[-1].item()
        shown = "{}" if value.dtype.kind in "biu" else "{:.10g}"
        text += f" [{shown.format(first)}, ..., {shown.format(last)}]"
    return text + ">"


def by_names(names: Sequence[str], kind: str, *, empty: str = "()") -> str:
    """Return a collection by its count and its first and last names; ``empty`` for none.

    WHY: a notebook cell ending in ``build_report(...)`` printed 346,829 characters for
    the 18 example runs, every field of every run (the report's own repr, 117,720); the
    runs and groups are shown by name, their fields by indexing them.

    Examples
    --------
    >>> by_names([], "run", empty="{}"), by_names(["a"], "run"), by_names("ab", "run")
    ('{}', "<1 run: 'a'>", "<2 runs: 'a', 'b'>")
    >>> by_names("abc", "group")
    "<3 groups: 'a', ..., 'c'>"
    """
    if not names:
        return empty
    shown = [repr(names[0]), "...", repr(names[-1])] if len(names) > 2 else map(repr, names)
    return f"<{len(names)} {kind}{'s' if len(names) > 1 else ''}: {', '.join(shown)}>"


def short_repr(value: object) -> str:
    """Return the short form of ``value``: large arrays summarised, defaults left out.

    A message's own summary of a field (:meth:`Msg._repr_field`) is used where it gives one.
    """
    if isinstance(value, np.ndarray):
        return array_text(value)
    cls = type(value)
    fields = getattr(cls, "__struct_fields__", None)
    if fields is not None:
        message: Msg = value  # type: ignore[assignment]  # a struct is a message here
        defaults = struct_defaults(cls)
        parts = []
        for name in fields:
            field_value = getattr(message, name)
            if name in defaults and values_equal(field_value, _default(defaults[name])):
                continue
            summary = message._repr_field(name, field_value)  # noqa: SLF001 - the hook
            text = short_repr(field_value) if summary is None else summary
            parts.append(f"{name}={text}")
        return f"{cls.__name__}({', '.join(parts)})"
    if isinstance(value, tuple | list):
        inner = ", ".join(short_repr(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k!r}: {short_repr(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _default(default: Any) -> Any:
    factory = getattr(default, "factory", None)
    return default if factory is None else factory()
