"""``check_series``: every flaw of a 1-D series named, with the argument's name."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import ValidationError
from robot_msgs.series import check_series


@pytest.mark.parametrize(
    ("value", "options", "match"),
    [
        (["a", "b"], {}, r"Expected `s` as numbers, got list \['a', 'b'\]"),
        # NumPy's OverflowError escaped for an int past float64 (a review)
        ([1, 10**400], {}, r"Expected `s` as numbers, got list \[1, 1000"),
        ([[1.0, 2.0]], {}, r"Expected `s` of shape \(N,\), got shape \(1, 2\)"),
        ([1.0], {"min_size": 2}, r"of shape \(N,\) with N >= 2, got shape \(1,\)"),
        ([1.0, math.nan, 3.0], {"finite": True}, r"Expected finite `s`, got nan at index 1"),
        ([0.0, 2.0, 1.0], {"increasing": True}, r"strictly increasing, got s\[2\] = 1\.0"),
        ([math.inf, 2.0], {"increasing": True}, r"strictly increasing, got s\[0\] = inf"),
    ],
)
def test_a_flawed_series_is_named_with_its_flaw(
    value: object, options: dict[str, int], match: str
) -> None:
    with pytest.raises(ValidationError, match=match):
        check_series("s", value, **options)  # type: ignore[arg-type]


def test_a_good_series_comes_back_as_float64_and_nan_passes_unless_refused() -> None:
    out = check_series("s", [1, 2, 3], min_size=3, increasing=True)
    assert out.dtype == np.float64
    assert out.tolist() == [1.0, 2.0, 3.0]
    assert math.isnan(check_series("s", [math.nan])[0])


@pytest.mark.parametrize(
    "value",
    [np.array([1.0 + 2.0j, 3.0]), np.array([1.0, 2.0], dtype=np.complex64), np.complex128(1.0)],
)
def test_complex_values_are_refused_not_cut_to_their_real_part(value: object) -> None:
    """A complex array lost its imaginary parts in silence (a NumPy ComplexWarning, which
    escaped as that class where warnings are errors): error_stats of [1+1j, 2] said mean
    1.5, and a list of the same numbers was refused as 'not numbers'."""
    with pytest.raises(ValidationError, match=r"Expected `s` as real numbers, got dtype complex"):
        check_series("s", value)


def test_a_complex_tensor_is_refused_too() -> None:
    """np.asarray of a complex torch tensor is a complex array: its real parts were kept."""
    torch = pytest.importorskip("torch")
    with pytest.raises(ValidationError, match=r"Expected `s` as real numbers, got dtype torch\."):
        check_series("s", torch.tensor([1.0 + 1.0j, 2.0]))
    assert check_series("s", torch.tensor([1.0, 2.0])).tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    ("value", "unit"),
    [
        (np.array([0, 250, 500], dtype="timedelta64[ms]"), "ms"),
        (np.array(["2024-01-01T00:00:00", "2024-01-01T00:00:01"], dtype="datetime64[ns]"), "ns"),
    ],
)
def test_times_as_numpy_datetimes_are_refused_not_read_as_counts(value: object, unit: str) -> None:
    """A timedelta64[ms] or datetime64[ns] series (a pandas index's values) became its
    counts of milliseconds or nanoseconds, read as seconds: step_response of a response
    stamped 0, 250, 500 ms said a rise time of 400 'seconds' (0.4 s)."""
    with pytest.raises(ValidationError, match=rf"Expected `s` as numbers.*got dtype .*\[{unit}\]"):
        check_series("s", value)


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ([np.complex128(1.0 + 1.0j), 2.0], r"real numbers, got dtype complex128"),
        ((np.complex64(1.0 + 1.0j),), r"real numbers, got dtype complex64"),
        ([np.timedelta64(250, "ms"), np.timedelta64(500, "ms")], r"counts of ms"),
    ],
)
def test_numpy_complex_numbers_and_timedeltas_in_a_list_are_refused(
    value: object, match: str
) -> None:
    """A list of NumPy complex numbers kept their real parts (NumPy's ComplexWarning, an
    error where warnings are), where a list of Python complex numbers was refused; a list
    of timedelta64[ms] became its counts of ms, read as seconds."""
    with pytest.raises(ValidationError, match=rf"Expected `s` as .*{match}"):
        check_series("s", value)
    assert check_series("s", [np.float32(1.0), 2]).tolist() == [1.0, 2.0]


def test_pandas_datetimes_with_a_time_zone_are_refused_not_read_as_counts() -> None:
    """A pandas Series of datetimes with a time zone (a dtype of pandas' own, of kind M)
    passed the datetime64 refusal and became its counts of ns: error_stats said a mean
    of 5e8 for stamps 0 and 1 s apart."""
    pd = pytest.importorskip("pandas")
    stamps = pd.Series(pd.to_datetime([0, 1], unit="s", utc=True))
    with pytest.raises(ValidationError, match=r"Expected `s` as numbers \(times in seconds\).*UTC"):
        check_series("s", stamps)
    assert check_series("s", pd.Series([1.0, 2.0])).tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    "value",
    [
        ["1.0", "2.0"],
        np.array(["1", "2"]),  # '<U1'
        np.array([b"1", b"2"]),  # '|S1'
        np.array(["1.0", 2.0], dtype=object),
        ["nan", "inf"],
    ],
)
def test_numeric_text_is_refused_not_parsed(value: object) -> None:
    """NumPy parses numeric strings: error_stats(['1', '2', '3']) said mean 2.0, where a
    series is numbers (a list of 'a' was refused, one of '1.0' read)."""
    with pytest.raises(ValidationError, match=r"Expected `s` as numbers, got "):
        check_series("s", value)


def test_numbers_in_an_object_array_still_pass() -> None:
    assert check_series("s", np.array([1, 2.5], dtype=object)).tolist() == [1.0, 2.5]


class _PosingAsText:
    """Reports ``str`` as its ``__class__`` (as a ``Mock(spec=str)`` does), and reads as 1.0."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return str

    def __float__(self) -> float:
        return 1.0


class _Text(str):
    """Text of a class of its own."""

    __slots__ = ()


def _old_check_series(value: npt.NDArray[np.object_]) -> list[float]:
    """check_series before its object arrays were read by class: isinstance, one by one."""
    if any(isinstance(v, str | bytes) for v in value.flat):
        msg = "text"
        raise TypeError(msg)
    return [float(v) for v in value.astype(np.float64)]


_ELEMENTS = st.one_of(
    st.floats(),
    st.integers(-(10**400), 10**400),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.sampled_from(["1.5", b"2", np.str_("3"), np.bytes_(b"4"), _Text("5"), bytearray(b"6")]),
    st.floats(width=32).map(np.float32),
    st.sampled_from([Decimal("0.1"), Fraction(1, 3), _PosingAsText(), np.int8(-3)]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ELEMENTS, max_size=6))
def test_object_arrays_are_refused_exactly_as_element_by_element_isinstance(
    elements: list[object],
) -> None:
    """Text in an object array was found by isinstance element by element (85 ms for 2e5
    floats); it is found by the elements' classes now, with the same refusals."""
    value = np.empty(len(elements), dtype=object)
    value[:] = elements
    try:
        expected = _old_check_series(value)
    except (TypeError, ValueError, OverflowError):
        with pytest.raises(ValidationError, match=r"Expected `s` as numbers, got ndarray"):
            check_series("s", value)
    else:
        got = check_series("s", value).tolist()
        assert np.array_equal(got, expected, equal_nan=True)


def test_text_posing_by_its_class_in_an_object_array_is_refused() -> None:
    value = np.array([1.0, _PosingAsText()], dtype=object)
    with pytest.raises(ValidationError, match=r"Expected `s` as numbers, got ndarray"):
        check_series("s", value)


@settings(max_examples=40, deadline=None)
@given(mask=st.lists(st.booleans(), min_size=1, max_size=6), dtype=st.sampled_from(["f8", "i8"]))
def test_a_masked_value_is_refused_and_an_array_with_none_masked_is_read(
    mask: list[bool], dtype: str
) -> None:
    """``np.asarray`` drops a ``numpy.ma`` mask, so masked samples were read as samples:
    ``error_stats`` of ``[1.0, 100.0]`` with 100.0 masked said mean 50.5 (a walk)."""
    data = np.arange(1, len(mask) + 1, dtype=dtype) * 10
    value = np.ma.masked_array(data, mask=mask)
    if any(mask):
        said = rf"Expected `s` without masked values .*, got {sum(mask)} masked$"
        with pytest.raises(ValidationError, match=said):
            check_series("s", value)
    else:
        assert check_series("s", value).tolist() == data.astype(float).tolist()
