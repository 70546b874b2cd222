"""The settings flags as rows of data, read from a table generated from their declarations.

Each settings option is declared once, on its field (:class:`~robot_msgs.flags.Flag`,
beside its type, choices, bounds and description). Reading those declarations means
importing the settings messages, hence msgspec and the message base (~25 ms of CPU a
start), and NumPy through the relations' kernels; ``robot-msgs ape --help`` needs none of
it. So the command line builds its flags, help and error wording from
:data:`~robot_msgs.cli._settings_flags_table.TABLE`: one row per flagged field, read as a
:class:`FlagRow`, *generated* from the declarations by :func:`table_source`
(``python -m robot_msgs.cli._settings_flags`` rewrites it), and compared with them by
``tests/cli/test_settings_flags.py``, which fails when a declaration changed and the table
was not rewritten. The settings classes are imported only to build the values. The table
is plain data (it imports nothing), so this module reads it and it never reads back.

WHY a generated table and not a cache written at run time: a run writes no file it was
not asked for, and the table is reviewed and versioned with the declarations it mirrors.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

__all__ = ["SETTINGS", "FlagRow", "declared_flags", "flag_rows", "table_source", "write_flag_table"]

#: The settings classes whose fields declare flags, as ``(module, class)``, in the order
#: :func:`declared_flags` reads them (a later class's field of the same name wins: one name,
#: one flag).
SETTINGS: tuple[tuple[str, str], ...] = (
    ("robot_msgs.evaluation.settings", "EvaluationSettings"),
    ("robot_msgs.evaluation.settings", "PairSettings"),
    ("robot_msgs.evaluation.settings", "Ape"),
    ("robot_msgs.evaluation.settings", "Rpe"),
    ("robot_msgs.evaluation.settings", "Drift"),
    ("robot_msgs.runs.run_settings", "RunSettings"),
    ("robot_msgs.evaluation.read_settings", "ReadSettings"),
    ("robot_msgs.control.settings", "TrackingSettings"),
)

#: The scalar types a flag's value may have, by name.
_SCALARS = ("float", "int", "str")


class FlagRow(NamedTuple):
    """One settings field's flag: its declaration and what its type says about its value.

    The attributes from ``name`` to ``file`` are the field's :class:`~robot_msgs.flags.Flag`
    (same names, same meaning). The rest come from the field's annotation and class.

    Attributes
    ----------
    field : str
        The settings field, ``max_diff_s``.
    kind : str
        How the value is read: ``"switch"`` (no value: a ``bool`` field, or a
        ``when_set``), ``"choice"`` (one of :attr:`choices`), ``"file"`` (a path the
        command line reads), ``"numbers"`` (one argument of comma-separated numbers),
        ``"floats"`` (:attr:`length` numbers, or one or more when 0), or the scalar type's
        name, ``"float"``, ``"int"`` or ``"str"``.
    choices : tuple of str
        A ``Literal`` field's values, as declared (``one_to_one``, not ``one-to-one``).
    length : int
        The numbers a ``"floats"`` flag takes (the tuple's ``min_length``); 0: one or more.
    description : str or None
        The field's ``Meta`` description: the flag's help.
    default : object
        The class's default value of the field.
    """

    field: str
    name: str
    metavar: str | tuple[str, ...] = ""
    group: str = ""
    dashes: bool = False
    commas: bool = False
    several: bool = False
    word: str = ""
    when_set: object = None
    file: bool = False
    kind: str = "str"
    choices: tuple[str, ...] = ()
    length: int = 0
    description: str | None = None
    default: object = None


@functools.cache
def _table() -> dict[str, tuple[FlagRow, ...]]:
    """Read the generated table: the rows of every settings class, by class name."""
    from robot_msgs.cli._settings_flags_table import TABLE  # noqa: PLC0415

    return {name: tuple(FlagRow(**row) for row in rows) for name, rows in TABLE.items()}


def flag_rows(cls_name: str) -> tuple[FlagRow, ...]:
    """Return the flag rows of the settings class ``cls_name``, in field order.

    Examples
    --------
    >>> [r.name for r in flag_rows("Ape")]
    ['--relation']
    """
    return _table()[cls_name]


@functools.cache
def declared_flags() -> dict[str, FlagRow]:
    """Return every settings field's flag row, by field name (one name, one flag).

    Examples
    --------
    >>> declared_flags()["max_diff_s"].name
    '--max-diff'
    """
    return {row.field: row for _, name in SETTINGS for row in _table()[name]}


def _row(field: str, flag: object, annotation: object, default: object) -> FlagRow:
    """Describe one declared field as a :class:`FlagRow` (the table's generator)."""
    import dataclasses  # noqa: PLC0415
    import typing  # noqa: PLC0415
    from typing import Literal  # noqa: PLC0415

    import msgspec  # noqa: PLC0415

    from robot_msgs.flags import Flag  # noqa: PLC0415

    assert isinstance(flag, Flag)  # noqa: S101 - flags_of returns only Flag markers
    inner, *metadata = typing.get_args(annotation)
    meta = next((m for m in metadata if isinstance(m, msgspec.Meta)), None)
    choices: tuple[str, ...] = ()
    length = 0
    if inner is bool or flag.when_set is not None:
        kind = "switch"
    elif typing.get_origin(inner) is Literal:
        kind, choices = "choice", typing.get_args(inner)
    elif flag.file:
        kind = "file"
    elif typing.get_origin(inner) is tuple:
        kind = "numbers" if flag.commas else "floats"
        length = (meta.min_length or 0) if meta is not None and not flag.commas else 0
    elif getattr(inner, "__name__", "") in _SCALARS:
        kind = inner.__name__
    else:
        msg = f"{field}: a flag of type {inner!r}; the command line reads {_SCALARS} only"
        raise TypeError(msg)
    return FlagRow(
        field=field,
        **{f.name: getattr(flag, f.name) for f in dataclasses.fields(flag)},
        kind=kind,
        choices=choices,
        length=length,
        description=meta.description if meta is not None else None,
        default=default,
    )


def _rows(module: str, name: str) -> tuple[FlagRow, ...]:
    """Describe the flagged fields of the settings class ``module.name`` from its declarations."""
    import importlib  # noqa: PLC0415

    from robot_msgs.flags import flags_of  # noqa: PLC0415

    cls = getattr(importlib.import_module(module), name)
    defaults = cls()
    return tuple(
        _row(field, flag, annotation, getattr(defaults, field))
        for field, (flag, annotation) in flags_of(cls).items()
    )


def _literal(value: object) -> str:
    """Write a value of a row as Python source, strings in double quotes as ruff writes them."""
    if isinstance(value, str):
        text = repr(value)
        if text.startswith("'") and '"' not in value:
            text = '"' + text[1:-1].replace("\\'", "'") + '"'
        return text
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, tuple):
        inner = ", ".join(_literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    msg = f"a flag row holds None, bool, int, float, str or tuples of them, got {value!r}"
    raise TypeError(msg)


def _argument(name: str, value: object, indent: str) -> list[str]:
    """Write ``"name": value,`` as lines of at most 100 characters (long strings split)."""
    key = f"{indent}{_literal(name)}: "
    text = f"{key}{_literal(value)},"
    if len(text) <= 100:
        return [text]
    if isinstance(value, tuple):
        return [f"{key}(", *(f"{indent}    {_literal(v)}," for v in value), f"{indent}),"]
    if not isinstance(value, str):
        return [text]
    pieces: list[str] = []
    words = value.split(" ")
    piece = ""
    for k, word in enumerate(words):
        word_ = word if k == len(words) - 1 else word + " "
        if piece and len(indent) + 4 + len(repr(piece + word_)) > 100:
            pieces.append(piece)
            piece = ""
        piece += word_
    pieces.append(piece)
    return [f"{key}(", *(f"{indent}    {_literal(p)}" for p in pieces), f"{indent}),"]


def table_source(rows: Mapping[str, tuple[FlagRow, ...]] | None = None) -> str:
    """Return the source of ``_settings_flags_table.py``: the rows of every settings class.

    ``rows``: the rows to write, by class name; by default read from the declarations of
    :data:`SETTINGS` (which imports them). Each row is written as the keywords of its
    :class:`FlagRow`, only those that differ from the defaults.
    """
    if rows is None:
        rows = {name: _rows(module, name) for module, name in SETTINGS}
    lines = [
        '"""The flag of every settings field, as data: the command line builds its flags from it.',
        "",
        "DO NOT EDIT: written by ``python -m robot_msgs.cli._settings_flags`` from the settings'",
        "declarations (each field's Flag, type, description and default); the test",
        "``tests/cli/test_settings_flags.py`` fails when this file differs from them. Each row",
        "holds the keywords of a ``robot_msgs.cli._settings_flags.FlagRow``.",
        '"""',
        "",
        "from typing import Any",
        "",
        "TABLE: dict[str, tuple[dict[str, Any], ...]] = {",
    ]
    blank = FlagRow(field="", name="")
    for name, class_rows in rows.items():
        lines.append(f"    {_literal(name)}: (")
        for row in class_rows:
            lines.append("        {")
            for attribute, value in zip(FlagRow._fields, row, strict=True):
                default = getattr(blank, attribute)
                same = value == default and type(value) is type(default)
                if attribute in ("field", "name") or not same:
                    lines.extend(_argument(attribute, value, " " * 12))
            lines.append("        },")
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_flag_table() -> Path:
    """Rewrite ``_settings_flags_table.py`` beside this module from the declarations."""
    from pathlib import Path  # noqa: PLC0415

    path = Path(__file__).with_name("_settings_flags_table.py")
    path.write_text(table_source(), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"wrote {write_flag_table()}")
