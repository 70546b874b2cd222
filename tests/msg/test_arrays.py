"""Array fields in JSON: what :func:`array_from_json` takes, refuses and hands over.

The expected values are stated by hand from the dtypes' ranges (``uint8`` 0..255,
``FLT_MAX`` = 3.4028234663852886e38, which ``3.4028235e38`` rounds to), not computed by
the code under test.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from robot_msgs.errors import ValidationError
from robot_msgs.geometry import Point
from robot_msgs.msg.arrays import (
    _from_lists,
    _to_lists,
    array_from_json,
    array_reader,
    array_to_json,
    immutable,
)
from robot_msgs.sensor import LaserScan

if TYPE_CHECKING:
    from collections.abc import Callable

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


@pytest.mark.parametrize(
    ("dtype", "shape", "data"),
    [
        ("float64", [2**62, 0], []),  # 2**65 bytes beside the zero: "array is too big"
        ("float64", [0, 2**62, 2**62], []),
        ("float64", [0, 2**60], []),  # 2**63 bytes, one more than an intp holds
        ("float64", [0, 2**63], []),  # a size no intp holds
        ("uint8", [0, 2**62, 2], []),
        ("float64", [0] * 65, []),  # NumPy 2 holds 64 axes
        ("float64", [1] * 65, [1.0]),
        ("float64", [2] * 20_000, []),  # its product has 6,021 digits: Python prints 4,300
        ("float64", [4611686018427387904] * 300, []),
    ],
)
def test_a_shape_numpy_cannot_hold_is_refused_naming_it(
    dtype: str, shape: list[int], data: list[object]
) -> None:
    """Not NumPy's ValueError (nor Python's on printing a 6,021-digit size), on both roads."""
    value = {"dtype": dtype, "shape": shape, "data": data}
    error = r"Expected a shape NumPy can hold \(at most 64 sizes.* - at `\$\.shape`"
    for read in (array_reader(np.dtype(dtype)), lambda v, p: _from_lists(v, p, np.dtype(dtype))):
        with pytest.raises(ValidationError, match=error):
            read(value, "$")


@pytest.mark.parametrize(
    ("dtype", "shape"),
    [("float64", [0, 2**60 - 1]), ("uint8", [0, 2**63 - 1]), ("float64", [0] * 64)],
)
def test_an_empty_shape_numpy_holds_is_read(dtype: str, shape: list[int]) -> None:
    """The bound is NumPy's: 2**63 - 1 bytes beside the zeros, 64 axes."""
    arr = array_reader(np.dtype(dtype))({"dtype": dtype, "shape": shape, "data": []}, "$")
    assert arr.shape == tuple(shape)
    assert arr.size == 0


# --------------------------------------------------------------------------- C and lists agree

_DTYPES = [
    "float64",
    "float32",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "bool",
]
_FLOAT_EDGES = st.sampled_from([3.4028235e38, -3.4028235e38, 3.5e38, 1e39, -1e39, -0.0, math.nan])
_ITEMS = st.one_of(
    st.floats(),
    st.floats(width=32),
    _FLOAT_EDGES,
    st.integers(-(2**64), 2**64),
    st.sampled_from([-129, -128, 127, 128, 255, 256, 2**63 - 1, 2**63, -(2**63) - 1]),
    st.booleans(),
    st.none(),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "x"]),
)


@st.composite
def _array_dicts(draw: st.DrawFn) -> tuple[np.dtype, object]:
    """A field's dtype and a JSON array dict for it: as written, or off in one way."""
    dtype = np.dtype(draw(st.sampled_from(_DTYPES)))
    kind = draw(st.sampled_from(["one type", "mixed"]))
    item = {
        "f": st.one_of(st.floats(width=32), st.floats(), _FLOAT_EDGES),
        "b": st.booleans(),
    }.get(dtype.kind, st.integers(-(2**65), 2**65))
    data = draw(st.lists(item if kind == "one type" else _ITEMS, max_size=12))
    shape: list[object] = [len(data)]
    if len(data) in {4, 6, 12} and draw(st.booleans()):
        shape = [2, len(data) // 2]
    value: dict[str, object] = {
        "dtype": draw(st.sampled_from([str(dtype), str(dtype), "float64", "<f8", "int8"])),
        "shape": draw(st.sampled_from([shape, shape, [len(data) + 1], [True], [-1], (len(data),)])),
        "data": draw(st.sampled_from([data, data, tuple(data)])),
    }
    if draw(st.integers(0, 9)) == 0:
        value["extra"] = 1
    return dtype, value


def _outcome(read: Callable[..., np.ndarray], value: object, *dtype: np.dtype) -> np.ndarray | str:
    """The array read, or the text of the error that refused it."""
    try:
        return read(value, "$", *dtype)
    except ValidationError as err:
        return str(err)


@settings(max_examples=3000, deadline=None)
@given(_array_dicts())
def test_the_packed_road_reads_what_the_lists_read(case: tuple[np.dtype, object]) -> None:
    """The C packer (``robot_msgs.msg._json_arrays``) only saves time: for any dict, the
    reader gives the array the Python reading of the lists gives, or the same error."""
    dtype, value = case
    expected, arr = _outcome(_from_lists, value, dtype), _outcome(array_reader(dtype), value)
    if isinstance(expected, str) or isinstance(arr, str):
        assert arr == expected  # the same error text
        return
    assert arr.dtype == expected.dtype
    assert arr.shape == expected.shape
    assert np.array_equal(arr, expected, equal_nan=dtype.kind == "f")
    if dtype.kind == "f":  # -0.0 stays -0.0
        assert np.array_equal(np.signbit(arr), np.signbit(expected))
    assert not arr.flags.writeable
    assert immutable(arr)


def test_the_packer_is_built() -> None:
    """Where a compiler is present (every CI job), the array dicts are read in C."""
    pytest.importorskip("robot_msgs.msg._json_arrays")
    packed = array_reader(np.dtype("uint16"))(
        {"dtype": "uint16", "shape": [2], "data": [1, 2]}, "$"
    )
    assert isinstance(packed.base, bytes)


def test_the_packer_runs_no_code_of_a_dicts_keys() -> None:
    """The packer holds the dict's values by borrowed references while it looks them up:
    a key whose ``__eq__`` ran there could free one (valgrind saw an invalid read of the
    freed ``"shape"`` list). A dict with a key that is not a str is left to Python."""
    module = pytest.importorskip("robot_msgs.msg._json_arrays")
    calls: list[object] = []

    class Key:
        def __hash__(self) -> int:
            return hash("data")

        def __eq__(self, other: object) -> bool:
            calls.append(other)
            value.pop("shape", None)
            return True

    value: dict[object, object] = {"dtype": "float64", "shape": [2], Key(): [1.0, 2.0]}
    assert module.pack(value, "float64", "d") is None
    assert calls == []
    assert value["shape"] == [2]


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(_DTYPES).flatmap(
        lambda dtype: hnp.arrays(
            np.dtype(dtype), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
        )
    ),
    st.sampled_from(["as made", "transposed", "strided", "big-endian"]),
)
def test_the_written_road_writes_what_the_lists_write(arr: np.ndarray, layout: str) -> None:
    """The C writer (``robot_msgs.msg._json_arrays.unpack``) only saves time: any array, in
    any layout, is written as NumPy's lists write it, and read back equal."""
    if layout == "transposed":
        arr = arr.T
    elif layout == "strided" and arr.ndim:
        arr = arr[::2]
    elif layout == "big-endian":
        arr = arr.astype(arr.dtype.newbyteorder(">"))
    written, expected = array_to_json(arr), _to_lists(arr)
    assert written["dtype"] == expected["dtype"]
    assert written["shape"] == expected["shape"]
    assert [type(x) for x in written["data"]] == [type(x) for x in expected["data"]]
    assert np.array_equal(  # NaN as NaN, -0.0 as -0.0 (its sign), every value as written
        np.array(written["data"], dtype=object).astype(str),
        np.array(expected["data"], dtype=object).astype(str),
    )
    if arr.dtype.isnative:
        back = array_from_json(
            {"dtype": written["dtype"], "shape": list(written["shape"]), "data": written["data"]},
            "$",
            arr.dtype,
        )
        assert np.array_equal(back, arr, equal_nan=arr.dtype.kind == "f")


def test_a_masked_array_is_written_as_its_lists_write_it() -> None:
    """A subclass's buffer is not its values: a masked value is ``None`` in NumPy's lists,
    which the C writer (reading the buffer) wrote as the value hidden under the mask."""
    masked = np.ma.array([1.0, 2.0, math.inf], mask=[False, True, False])
    assert array_to_json(masked) == {
        "dtype": "float64",
        "shape": (3,),
        "data": [1.0, None, "Infinity"],
    }


def _lists_in_lists(depth: int) -> object:
    value: object = 1.0
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [10, 5_000])
def test_a_value_nested_past_the_recursion_limit_is_refused_with_our_error(depth: int) -> None:
    # Building the "got ..." of the error called repr(), which raises RecursionError on
    # lists in lists thousands deep: a message built in Python (not decoded) leaked it.
    deep = _lists_in_lists(depth)
    with pytest.raises(ValidationError, match=r"Expected float, got list \[\[\[.* - at `Point\.x`"):
        Point(x=deep)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"got .* - at `LaserScan\.ranges`"):
        LaserScan(ranges=deep)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(mask=st.lists(st.booleans(), min_size=1, max_size=6))
def test_a_masked_array_is_refused_where_a_value_is_masked_and_read_where_none_is(
    mask: list[bool],
) -> None:
    """``np.asarray`` drops a ``numpy.ma`` mask: a ``LaserScan`` built from a masked array
    kept its masked ranges as ranges (a walk); with none masked it is its data."""
    data = np.arange(1, len(mask) + 1, dtype=np.float32)
    value = np.ma.masked_array(data, mask=mask)
    if any(mask):
        said = (
            rf"Expected \(N,\) float32 without masked values \(numpy.ma's mask is not read\), "
            rf"got array of shape \({len(mask)},\) float32 with {sum(mask)} masked "
            r"- at `LaserScan.ranges`"
        )
        with pytest.raises(ValidationError, match=said):
            LaserScan(ranges=value)
        with pytest.raises(ValidationError, match=said):
            LaserScan.from_dict({"ranges": value})
    else:
        assert LaserScan(ranges=value) == LaserScan(ranges=data)
