"""Array fields in JSON: what :func:`array_from_json` takes, refuses and hands over.

The expected values are stated by hand from the dtypes' ranges (``uint8`` 0..255,
``FLT_MAX`` = 3.4028234663852886e38, which ``3.4028235e38`` rounds to), not computed by
the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.msg.arrays import array_from_json, immutable

FLT_MAX = 3.4028234663852886e38


def _read(dtype: str, data: list[object], shape: list[int] | None = None) -> np.ndarray:
    value = {"dtype": dtype, "shape": [len(data)] if shape is None else shape, "data": data}
    return array_from_json(value, "$", np.dtype(dtype))


@pytest.mark.parametrize(
    ("dtype", "data", "expected"),
    [
        ("uint8", [0, 255], [0, 255]),
        ("int8", [-128, 127], [-128, 127]),
        ("uint64", [2**64 - 1], [2**64 - 1]),
        ("int64", [-(2**63)], [-(2**63)]),
        ("float32", [3.4028235e38, -3.4028235e38], [FLT_MAX, -FLT_MAX]),
        ("float32", [0.1], [0.10000000149011612]),  # the nearest float32
        ("float32", ["Infinity", "-Infinity", 1.5], [math.inf, -math.inf, 1.5]),
        ("float32", [math.inf, 2.0], [math.inf, 2.0]),  # a to_dict() form keeps floats
        ("float64", [None, "NaN", 1], [math.nan, math.nan, 1.0]),
        ("bool", [True, False], [True, False]),
    ],
)
def test_values_that_fit_are_read_as_given(
    dtype: str, data: list[object], expected: list[object]
) -> None:
    arr = _read(dtype, data)
    assert arr.dtype == np.dtype(dtype)
    assert np.array_equal(arr, np.array(expected, dtype=dtype), equal_nan=arr.dtype.kind == "f")


@pytest.mark.parametrize(
    ("dtype", "data", "error"),
    [
        ("uint8", [1, 256], r"Expected uint8 \(0\.\.255\), got int 256 - at `\$\.data\[1\]`"),
        ("uint8", [-1], r"Expected uint8 \(0\.\.255\), got int -1 - at `\$\.data\[0\]`"),
        ("int64", [0, 2**63], r"got int 9223372036854775808 - at `\$\.data\[1\]`"),
        ("uint64", [2**64], r"got int 18446744073709551616 - at `\$\.data\[0\]`"),
        (
            "float32",
            [1.0, 1e39],
            r"float32 \(\|x\| <= 3\.40282\d*e\+38\), got float 1e\+39 .*\[1\]`",
        ),
        ("float32", [math.nan, 1e39], r"got float 1e\+39 - at `\$\.data\[1\]`"),  # NaN first
        ("float32", [math.inf, 1e39], r"got float 1e\+39 - at `\$\.data\[1\]`"),
        ("float32", [1.0, "inf"], r"got str 'inf' - at `\$\.data\[1\]`"),
        ("float64", [1.0, 10**400], r"1\.8e308.* at `\$\.data\[1\]`"),
        ("uint8", [1.0], r"Expected values that fit uint8, got list \[1\.0\] - at `\$\.data`"),
        ("bool", [1], r"Expected values that fit bool"),
    ],
)
def test_values_that_do_not_fit_are_refused_naming_the_item(
    dtype: str, data: list[object], error: str
) -> None:
    with pytest.raises(ValidationError, match=error):
        _read(dtype, data)


@pytest.mark.parametrize("shape", [[4], [2, 2], [0, 3], []])
def test_an_array_read_from_json_is_read_only_all_through(shape: list[int]) -> None:
    """Nothing can write to it, the array it views included: a message keeps it, no copy."""
    size = math.prod(shape)
    arr = _read("float64", [float(i) for i in range(size)], shape)
    assert arr.shape == tuple(shape)
    assert not arr.flags.writeable
    assert immutable(arr)
