"""``.npy`` bytes read strictly: the header checked against the bytes, only plain numbers."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from robot_msgs.errors import FormatError
from robot_msgs.io.npy import array_from_npy
from tests.hostile import npy_bytes, npy_header_only


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        dtype=st.sampled_from([np.float64, np.float32, np.int64, np.uint8, np.bool_]),
        shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
    ),
    st.booleans(),
)
def test_a_saved_array_reads_back_equal(array: np.ndarray, fortran: bool) -> None:
    array = np.asfortranarray(array) if fortran else array
    got = array_from_npy(npy_bytes(array), where="x", kinds="fiub")
    assert got.dtype == array.dtype
    assert got.shape == array.shape
    np.testing.assert_array_equal(got, array)


def test_a_header_claiming_a_trillion_values_is_refused_before_any_allocation() -> None:
    # numpy.load would ask for 10^12 * 8 bytes (7.28 TiB) before reading.
    with pytest.raises(
        FormatError,
        match=r"e\.npy: the header says shape \(1000000000000,\) of <f8 \(8000000000000 bytes\) "
        r"but 0 bytes follow it \(truncated\)",
    ):
        array_from_npy(npy_header_only((10**12,)), where="e.npy")


@pytest.mark.parametrize(
    ("array", "got"),
    [
        (np.array(["a", "b"]), r"text \(<U1\)"),
        (np.array([1 + 2j]), r"complex numbers \(<c16\)"),
        (np.zeros(2, dtype=[("a", "<f8"), ("b", "<i4")]), r"records"),
        (np.array([{"x": 1}], dtype=object), r"Python objects \(\|O\)"),
        (np.array(["2020-01-01"], dtype="datetime64[D]"), r"dates"),
        (np.array([1, 2]), r"integers \(<i8\)"),
    ],
)
def test_arrays_of_other_kinds_are_refused(array: np.ndarray, got: str) -> None:
    with pytest.raises(FormatError, match=rf"^e\.npy: expected an array of floats, got {got}"):
        array_from_npy(npy_bytes(array), where="e.npy")


def test_trailing_bytes_and_bad_headers_are_refused() -> None:
    data = npy_bytes(np.array([1.0, 2.0]))
    with pytest.raises(FormatError, match=r"16 bytes\) but 17 bytes follow it \(followed by"):
        array_from_npy(data + b"x", where="e.npy")
    with pytest.raises(FormatError, match=r"^e\.npy: not a NumPy \.npy array"):
        array_from_npy(b"\x93NUMPY\x01\x00\x10\x00{'descr': 1}    \n", where="e.npy")
    with pytest.raises(FormatError, match=r"^e\.npy: not a NumPy \.npy array"):
        array_from_npy(b"hello", where="e.npy")
    with pytest.raises(FormatError, match=r"expected at most 8 dimensions, got 9"):
        array_from_npy(npy_header_only((1,) * 9), where="e.npy")


def test_a_header_with_an_expression_is_refused_without_a_python_address() -> None:
    """The error quoted ast's own message: `<ast.Call object at 0x7fb79c878370>`."""
    header = "{'descr': eval('1'), 'fortran_order': False, 'shape': (1,), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    data = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + bytes(8)
    with pytest.raises(FormatError, match=r"^e\.npy: not a NumPy \.npy array \(") as caught:
        array_from_npy(data, where="e.npy")
    assert "object at 0x" not in str(caught.value)


@pytest.mark.parametrize(("shape", "follow"), [((-1,), 0), ((2, -4), 0), ((-2, -4), 64)])
def test_a_negative_size_in_the_header_is_named(shape: tuple[int, ...], follow: int) -> None:
    """Shape (-1,) was said as "(-8 bytes) but 0 bytes follow it (followed by other bytes)",
    (-2, -4) as NumPy's "can only specify one unknown dimension"."""
    said = rf"^e\.npy: expected sizes >= 0 in the header's shape, got {re.escape(str(shape))}$"
    with pytest.raises(FormatError, match=said):
        array_from_npy(npy_header_only(shape) + bytes(follow), where="e.npy")
