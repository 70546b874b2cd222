"""The settings flags' table is the declarations' own: rewritten from them, it is unchanged.

The command line builds every settings flag from ``_settings_flags_table.py`` so that
``--help`` imports no settings class; the file is generated from the fields' declarations
(``python -m robot_msgs.cli._settings_flags``). A declaration changed without rewriting
the table (a description, a choice, a default, a new flag) fails here.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Annotated, Any

import msgspec
import pytest

from robot_msgs.cli import _settings_flags, _settings_flags_table
from robot_msgs.cli._settings_flags import (
    SETTINGS,
    FlagRow,
    declared_flags,
    flag_rows,
    table_source,
)
from robot_msgs.flags import Flag, flags_of


def test_the_table_is_written_from_the_declarations() -> None:
    written = Path(_settings_flags_table.__file__).read_text(encoding="utf-8")
    assert written == table_source(), "run: python -m robot_msgs.cli._settings_flags"


def test_the_table_reads_back_as_the_rows_it_was_written_from() -> None:
    rows = {name: _settings_flags._rows(module, name) for module, name in SETTINGS}
    assert _settings_flags._table() == rows


@pytest.mark.parametrize(("module", "name"), SETTINGS)
def test_every_flagged_field_has_its_row_with_its_flag_and_default(module: str, name: str) -> None:
    cls = getattr(importlib.import_module(module), name)
    flags = flags_of(cls)
    rows = flag_rows(name)
    assert [r.field for r in rows] == list(flags)
    for row in rows:
        flag = flags[row.field][0]
        assert row[1:10] == (
            flag.name,
            flag.metavar,
            flag.group,
            flag.dashes,
            flag.commas,
            flag.several,
            flag.word,
            flag.when_set,
            flag.file,
        )
        assert row.default == getattr(cls(), row.field)


def test_rows_say_how_the_value_is_read() -> None:
    rows = declared_flags()
    assert rows["align"].kind == "choice"
    assert "origin_scale" in rows["align"].choices
    assert (rows["align_window_s"].kind, rows["align_window_s"].length) == ("floats", 2)
    assert rows["lengths_m"].kind == "numbers"
    assert rows["transform_left"].kind == "file"
    assert rows["offset_auto"].kind == "switch"
    assert rows["pairs_from"].kind == "switch"  # a switch that sets "reference"
    assert (rows["n_align"].kind, rows["max_diff_s"].kind) == ("int", "float")
    assert rows["max_diff_s"].description == "largest stamp difference of a matched pair, seconds"


def test_a_flag_of_a_type_the_command_line_cannot_read_is_refused() -> None:
    annotation = Annotated[dict[str, int], msgspec.Meta(description="x"), Flag("--x")]
    with pytest.raises(TypeError, match="x: a flag of type"):
        _settings_flags._row("x", Flag("--x"), annotation, None)


def test_long_descriptions_are_written_split_and_read_back_whole() -> None:
    text = " ".join(f"word{k}" for k in range(60))
    rows = {"S": (FlagRow(field="f", name="--f", description=text, choices=("a",)),)}
    source = table_source(rows)
    assert max(len(line) for line in source.splitlines()) <= 100
    namespace: dict[str, Any] = {}
    exec(compile(source, "table", "exec"), namespace)  # noqa: S102 - the source just written
    assert {k: tuple(FlagRow(**r) for r in v) for k, v in namespace["TABLE"].items()} == rows
