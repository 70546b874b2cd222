"""JSON Schema of every type: the catalog's JSON validates, wrong JSON does not (jsonschema)."""

from __future__ import annotations

import json

import pytest

from robot_msgs.catalog import examples
from robot_msgs.cli import main
from robot_msgs.json_schema import json_schema
from robot_msgs.registry import to_json, type_for

jsonschema = pytest.importorskip("jsonschema", reason="the reference validator (test extra)")


@pytest.mark.parametrize("name", sorted(examples()))
def test_every_example_validates_against_its_schema(name: str) -> None:
    msg = examples()[name]
    schema = json_schema(type(msg))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(json.loads(to_json(msg)), schema)  # NaN written as null


def test_a_wrong_field_type_and_an_unknown_field_fail_validation() -> None:
    schema = json_schema(type_for("geometry/Point"))
    with pytest.raises(jsonschema.ValidationError, match=r"'far' is not valid"):
        jsonschema.validate({"_type": "geometry/Point", "x": "far"}, schema)
    with pytest.raises(jsonschema.ValidationError, match=r"'w' was unexpected"):
        jsonschema.validate({"_type": "geometry/Point", "w": 1.0}, schema)
    jsonschema.validate({"_type": "geometry_msgs/msg/Point", "x": None}, schema)


def test_int_primitives_carry_their_bounds() -> None:
    schema = json_schema(type_for("std/Time"))
    with pytest.raises(jsonschema.ValidationError, match=r"2147483648 is greater than"):
        jsonschema.validate({"_type": "std/Time", "sec": 2**31}, schema)


def test_schema_command_prints_strict_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "nav_msgs/msg/Odometry"]) == 0
    printed = json.loads(capsys.readouterr().out, parse_constant=lambda c: 1 / 0)
    assert printed == json_schema(type_for("nav/Odometry"))
    assert main(["schema", "nope/Nothing"]) == 1
    assert "got 'nope/Nothing'" in capsys.readouterr().err
