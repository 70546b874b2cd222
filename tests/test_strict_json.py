"""strict_json: every JSON file and ``--json`` output, NumPy's scalars among the values."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.msg import FrozenMap
from robot_msgs.strict_json import dumps


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # A sample of a float32 or int64 array (a count, a rate): json's TypeError got out
        (np.float32(1.5), "1.5"),
        (np.float16(-0.25), "-0.25"),
        (np.float32("nan"), "null"),
        (np.float32("inf"), '"Infinity"'),
        (np.float32("-inf"), '"-Infinity"'),
        (np.int64(-3), "-3"),
        (np.uint64(2**64 - 1), "18446744073709551615"),
        (np.int8(7), "7"),
        (np.bool_(True), "true"),
        (np.bool_(False), "false"),
        ({"rate": [np.float32(0.5), np.int32(2)]}, '{"rate":[0.5,2]}'),
    ],
)
def test_numpy_scalars_are_written_as_the_numbers_they_are(value: Any, text: str) -> None:
    assert dumps(value, indent=None) == text + "\n"
    assert dumps(value) == json.dumps(json.loads(text), indent=2) + "\n"


@pytest.mark.parametrize(
    ("key", "plain"),
    [
        (np.int64(1), 1),
        (np.uint64(2**64 - 1), 2**64 - 1),
        (np.int8(-7), -7),
        (np.float32(1.5), 1.5),
        (np.float16(-0.25), -0.25),
        (np.bool_(True), True),
        (np.str_("a"), "a"),
    ],
)
def test_numpy_scalar_keys_are_written_as_json_writes_the_python_keys(key: Any, plain: Any) -> None:
    # Values were written as the numbers they are, keys were refused ("keys must be str...")
    compact = json.dumps({plain: 2.0}, separators=(",", ":"))
    assert dumps({key: 2.0}, indent=None) == compact + "\n"
    assert dumps({key: 2.0}) == json.dumps({plain: 2.0}, indent=2) + "\n"


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({1: "a", "1": "b"}, r"""got 1 and '1', both written "1\""""),
        ({np.int64(1): "a", "1": "b"}, r"got 1 and '1'"),
        ({True: "a", "true": "b"}, r"got True and 'true'"),
        ({np.bool_(False): "a", "false": "b"}, r"got False and 'false'"),
        ({None: "a", "null": "b"}, r"got None and 'null'"),
        ({"x": [{np.float32(1.5): "a", "1.5": "b"}]}, r"got 1.5 and '1.5'"),
    ],
)
def test_two_keys_json_writes_alike_are_refused(data: Any, said: str) -> None:
    # json.dumps wrote "1" twice: a document our own reader refuses as a repeated key
    with pytest.raises(ValidationError, match=rf"Expected keys that JSON writes as .*{said}"):
        dumps(data)


def test_a_message_mapping_field_is_written_as_the_dict_it_holds() -> None:
    # dumps(msg) wrote its mappings, dumps(msg.as_dict()) refused them: "got FrozenMap"
    held = FrozenMap({"b": 1, "a": float("nan"), "c": (np.int64(2), float("inf"))})
    assert dumps({"p": held}, indent=None) == '{"p":{"b":1,"a":null,"c":[2,"Infinity"]}}\n'


@pytest.mark.parametrize(
    ("value", "match"),
    [
        (object(), r"got object"),
        (np.complex64(1 + 2j), r"got complex64"),
        ({(1, 2): 3}, r"keys"),  # json's own TypeError
        ({np.longdouble(1): 3}, r"keys"),  # item() keeps a longdouble: not a number JSON holds
        ({np.float32("nan"): 3}, r"Out of range"),  # as a float NaN key
    ],
)
def test_what_json_cannot_hold_is_our_error(value: Any, match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        dumps(value)
    with pytest.raises(ValidationError, match=match):
        dumps(value, indent=None)


def test_a_list_that_holds_itself_is_our_error() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValidationError, match=r"holds itself"):
        dumps({"a": loop}, indent=None)
