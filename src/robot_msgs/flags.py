"""``Flag``: a settings field's command-line flag, declared on the field beside its type.

A settings message declares each option once, on its field: the type and choices
(``Literal``), the bounds and the description (``Annotated[..., msgspec.Meta(...)]``)
and, with a :class:`Flag` in the same ``Annotated``, the flag that sets it::

    max_diff_s: Annotated[
        float, Meta(gt=0, description="largest stamp difference of a matched pair"),
        Flag("--max-diff", "SECONDS", group="association in time"),
    ] = 0.01

The command line builds its parser, its help text and its error wording from these
declarations (:mod:`robot_msgs.cli._settings_args` and :mod:`robot_msgs.cli._flag_text`,
through the table :mod:`robot_msgs.cli._settings_flags` generates from them), and the
JSON Schema carries the same choices, bounds and descriptions. msgspec ignores the
marker. The library itself never names a flag: its errors name the field
(``EvaluationSettings.max_diff_s``), and the command line says which flag that is.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

__all__ = ["Flag", "flags_of"]


@dataclasses.dataclass(frozen=True, slots=True)
class Flag:
    """How a settings field is given on the command line.

    Attributes
    ----------
    name : str
        The flag, ``--max-diff``.
    metavar : str or tuple of str
        What its value is called in ``--help`` (``SECONDS``; ``("START", "END")`` for a
        pair of numbers); empty for a switch.
    group : str
        The ``--help`` section it is listed in.
    dashes : bool
        Choices are written with ``-`` for ``_`` (``--sync one-to-one``).
    commas : bool
        A list of numbers in one or more words, separated by spaces or commas
        (``--lengths 100 200`` or ``--lengths 100,200``).
    several : bool
        The flag takes one or more values, each a setting of its own (``--delta 1 2``).
    word : str
        A ``bool`` field set by this word as the value of a flag it shares with another
        field (``--offset auto`` sets ``offset_auto``, ``--offset 0.1`` ``offset_s``).
    when_set : object
        The value a switch (a flag without value) sets the field to
        (``--pairs-from-reference``: ``pairs_from="reference"``); ``None``: ``True``.
    file : bool
        The value is a file the command line reads into the field (a transform's 16
        numbers from ``--transform-left FILE``).
    """

    name: str
    metavar: str | tuple[str, ...] = ""
    group: str = ""
    dashes: bool = False
    commas: bool = False
    several: bool = False
    word: str = ""
    when_set: Any = None
    file: bool = False


@functools.cache
def flags_of(cls: type) -> dict[str, tuple[Flag, Any]]:
    """Return the flag of each field of ``cls`` that declares one, with its annotation.

    The annotation is the field's, ``None`` removed (``X | None`` gives ``X``).

    Examples
    --------
    >>> from robot_msgs.evaluation import EvaluationSettings
    >>> flags_of(EvaluationSettings)["max_diff_s"][0].name
    '--max-diff'
    """
    out: dict[str, tuple[Flag, Any]] = {}
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        annotation = _not_none(hint)
        if typing.get_origin(annotation) is not typing.Annotated:
            continue
        flag = next((m for m in annotation.__metadata__ if isinstance(m, Flag)), None)
        if flag is not None:
            out[name] = (flag, annotation)
    return out


def _not_none(kind: Any) -> Any:
    """``X`` of ``X | None``; any other annotation as it is."""
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if typing.get_origin(kind) in (typing.Union, types.UnionType) and len(args) == 1:
        return args[0]
    return kind
