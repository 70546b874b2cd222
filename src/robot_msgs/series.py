"""One check for 1-D sample series (errors, times, signals) at the API's edge.

WHY one: ``error_stats``, ``step_response`` and ``tracking_error`` each checked their
series with a copy of the same dozen lines, with drifting wording.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    import numpy.typing as npt

    from robot_msgs.typing import Float64Array

__all__ = [
    "check_series",
    "input_eps",
    "is_complex",
    "masked_count",
    "real_array",
    "real_float",
    "refuse_non_real",
]

_EPS = float(np.finfo(np.float64).eps)


def is_complex(value: object) -> bool:
    """Whether ``value`` holds complex numbers by its dtype: NumPy's or a tensor's.

    A NumPy complex scalar, a 0-d array and a torch tensor alike: ``float()`` of a torch
    complex scalar raised torch's RuntimeError, of a NumPy one kept its real part.

    Examples
    --------
    >>> is_complex(np.complex128(1.0)), is_complex(np.array(1.0 + 1.0j)), is_complex(1.0)
    (True, True, False)
    """
    return _complex_dtype(getattr(value, "dtype", None))


def _complex_dtype(dtype: object) -> bool:
    """Whether ``dtype`` (NumPy's, a tensor's, or ``None``) is of complex numbers."""
    # A torch tensor's dtype says is_complex; NumPy's gives its kind.
    return getattr(dtype, "is_complex", False) is True or (
        isinstance(dtype, np.dtype) and dtype.kind == "c"
    )


def real_float(value: object) -> float:
    """``float(value)``, raising TypeError for a NumPy or torch complex number as for Python's.

    WHY: ``float(np.complex128(2 + 1j))`` is 2.0, with NumPy's ComplexWarning (escaping as
    that class where warnings are errors): a complex ``final=`` of a step response, or a
    drift segment length, was taken as its real part; torch's raised its RuntimeError (a
    review).

    Examples
    --------
    >>> real_float(np.float32(0.5)), real_float("2")
    (0.5, 2.0)
    """
    if is_complex(value):
        msg = f"a complex number {value!r}"
        raise TypeError(msg)
    return float(value)  # type: ignore[arg-type]  # anything float() takes


def masked_count(value: object) -> int:
    """Return how many values of a NumPy masked array are masked (0 for anything else).

    WHY: ``np.asarray`` drops the mask, so masked values were read as values:
    ``error_stats`` of ``[1.0, 100.0]`` with 100.0 masked said mean 50.5, and a
    ``LaserScan`` kept its masked ranges (a walk). Read without importing ``numpy.ma``.

    Examples
    --------
    >>> masked_count(np.ma.masked_array([1.0, 100.0], mask=[False, True])), masked_count([1.0])
    (1, 0)
    """
    mask = getattr(value, "mask", None) if isinstance(value, np.ndarray) else None
    return 0 if mask is None else int(np.count_nonzero(mask))


def refuse_non_real(name: str, value: object) -> None:
    """Raise :class:`ValidationError` for complex numbers, datetimes, timedeltas or masked values.

    ``value`` is an array, a NumPy scalar, a tensor, or a list or tuple (read by the
    dtype NumPy gives it: a list of NumPy complex numbers or timedeltas was taken as real
    parts and counts, where Python complex numbers were refused; a review); anything else
    passes, left to the conversion that follows.

    WHY: ``np.asarray(value, dtype=np.float64)`` keeps only the real parts of a complex
    array, with a NumPy ``ComplexWarning`` (which escaped as that class where warnings are
    errors): ``error_stats`` of ``[1+1j, 2]`` said mean 1.5. It turns a ``timedelta64`` or
    ``datetime64`` array (a pandas index's values) into its counts of the dtype's unit,
    which were read as seconds: ``step_response`` of stamps 0, 250, 500 ms said a rise
    time of 400 s (a review).

    Examples
    --------
    >>> refuse_non_real("y", np.array([1.0 + 2.0j]))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `y` as real numbers, got dtype complex128
    >>> refuse_non_real("t", np.array([0, 250], dtype="timedelta64[ms]"))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `t` as numbers (times in seconds), got dtype \
timedelta64[ms], whose values are counts of ms: divide by np.timedelta64(1, 's') first
    """
    masked = masked_count(value)
    if masked:
        msg = (
            f"Expected `{name}` without masked values (numpy.ma's mask is not read: fill or "
            f"leave out those samples first), got {masked} masked"
        )
        raise ValidationError(msg)
    dtype = getattr(value, "dtype", None)
    if dtype is None and isinstance(value, list | tuple):
        try:
            dtype = np.asarray(value).dtype
        except (TypeError, ValueError, OverflowError):  # ragged: left to the conversion
            dtype = None
    if _complex_dtype(dtype):
        msg = f"Expected `{name}` as real numbers, got dtype {dtype}"
        raise ValidationError(msg)
    # pandas' datetimes with a time zone have a dtype of pandas' own, of kind "M" too.
    kind = getattr(dtype, "kind", None)
    if kind in ("m", "M"):
        unit = np.datetime_data(dtype)[0] if isinstance(dtype, np.dtype) else dtype.unit  # type: ignore[union-attr]
        how = "subtract a first stamp, then " if kind == "M" else ""
        msg = (
            f"Expected `{name}` as numbers (times in seconds), got dtype {dtype}, whose "
            f"values are counts of {unit}: {how}divide by np.timedelta64(1, 's') first"
        )
        raise ValidationError(msg)


def real_array(name: str, value: Any, *, expected: str = "numbers") -> Float64Array:
    """``value`` as a float64 array, or :class:`ValidationError` naming ``name``.

    Refuses complex numbers, datetimes and timedeltas (:func:`refuse_non_real`), text,
    ragged lists and numbers past float64 (``10**400``), saying ``Expected `name` as
    {expected}, got ...``; the shape is the caller's to check.

    WHY text is refused: NumPy parses numeric strings, where the library's inputs are
    numbers: ``error_stats(["1", "2", "3"])`` said mean 2.0 (a list of ``"a"`` was
    refused, one of ``"1.0"`` read). Strings in an object array are refused too; its
    numbers are not.

    Examples
    --------
    >>> real_array("y", [1, 2.5])
    array([1. , 2.5])
    >>> real_array("y", ["1.0"])
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `y` as numbers, got list ['1.0']
    """
    refuse_non_real(name, value)  # NumPy keeps real parts, reads datetimes as counts
    try:
        arr = np.asarray(value)
        kind = arr.dtype.kind
        if kind in "US" or (kind == "O" and _holds_text(arr)):
            text = f"text, not numbers: dtype {arr.dtype}"
            raise TypeError(text)  # noqa: TRY301 - said below, as NumPy's own refusals
        return arr.astype(np.float64, copy=False)
    except (TypeError, ValueError, OverflowError) as err:  # text, ragged, objects, 10**400
        msg = f"Expected `{name}` as {expected}, got {type(value).__name__} {value!r:.60}"
        raise ValidationError(msg) from err


def _holds_text(arr: npt.NDArray[np.object_]) -> bool:
    """Whether any element of an object array is ``isinstance`` of ``str`` or ``bytes``.

    WHY by class: ``isinstance`` element by element took 85 ms for 2·10^5 Python floats,
    10 times NumPy's cast that follows; the set of their classes takes a seventh of it.
    ``isinstance`` also asks an object its ``__class__``, which a proxy (a mock) may
    fake: elements of a class from outside ``builtins`` and NumPy are asked one by one.
    """
    classes = set(map(type, arr.flat))
    if any(issubclass(c, str | bytes) for c in classes):
        return True
    other = {c for c in classes if c.__module__ not in {"builtins", "numpy"}}
    return bool(other) and any(isinstance(v, str | bytes) for v in arr.flat if type(v) in other)


def check_series(
    name: str, value: Any, *, min_size: int = 0, finite: bool = False, increasing: bool = False
) -> Float64Array:
    """Return ``value`` as a ``(N,)`` float64 array, or raise a :class:`ValidationError`.

    Parameters
    ----------
    name : str
        The argument's name, used in messages.
    value : array_like, shape (N,)
        The series.
    min_size : int
        The fewest samples allowed.
    finite : bool
        Refuse NaN and infinite samples (the first one is named).
    increasing : bool
        Refuse samples that are not finite and strictly increasing (times).

    Examples
    --------
    >>> check_series("t", [0.0, 0.5, 0.5], increasing=True)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `t` finite and strictly increasing, got t[2] = 0.5
    >>> check_series("y", [[1.0, 2.0]], min_size=2)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `y` of shape (N,) with N >= 2, got shape (1, 2)
    """
    arr = real_array(name, value)
    if arr.ndim != 1 or arr.size < min_size:
        least = f" with N >= {min_size}" if min_size else ""
        msg = f"Expected `{name}` of shape (N,){least}, got shape {arr.shape}"
        raise ValidationError(msg)
    if increasing:
        bad = ~np.isfinite(arr)
        # Neighbours compared, not np.diff: the same answer for finite values (a - b == 0
        # only where a == b, subnormals included) without a float64 copy of the series
        # (80 MB at 10^7 samples, the peak of an APE there).
        bad[1:] |= arr[1:] <= arr[:-1]
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            got = f"{name}[{i}] = {float(arr[i])!r}"
            msg = f"Expected `{name}` finite and strictly increasing, got {got}"
            raise ValidationError(msg)
    elif finite:
        bad_at = np.flatnonzero(~np.isfinite(arr))
        if bad_at.size:
            i = int(bad_at[0])
            msg = f"Expected finite `{name}`, got {float(arr[i])!r} at index {i}"
            raise ValidationError(msg)
    return arr


def input_eps(value: Any) -> float:
    """Machine epsilon of ``value``'s floats: float64's, or a coarser type's (float32's).

    The checks cast every input to float64; this is what its values were rounded to
    before. WHY: float32 positions held to float64's rounding, 2**29 times finer than
    their own, kept their rounding as speeds (LDLJ read it as jerk) and as a turn of a
    fitted line. A value without a ``dtype`` (a list) is read as float64.

    Examples
    --------
    >>> input_eps(np.zeros(2, dtype=np.float32)) == float(np.finfo(np.float32).eps)
    True
    """
    dtype = getattr(value, "dtype", None)
    if isinstance(dtype, np.dtype):
        return max(_EPS, float(np.finfo(dtype).eps)) if dtype.kind == "f" else _EPS
    torch = sys.modules.get("torch")  # a tensor means torch is imported: never import it
    if torch is not None and isinstance(dtype, torch.dtype) and dtype.is_floating_point:
        return max(_EPS, float(torch.finfo(dtype).eps))
    return _EPS
