"""NumPy ``.npy`` bytes read strictly: the header checked against the bytes before any array.

``numpy.load`` trusts the header: it allocates ``prod(shape) * itemsize`` bytes before
reading (a header claiming shape ``(10**12,)`` asks for 7.28 TiB), reads string,
structured, complex and datetime arrays as readily as numbers, and needs pickle for
object arrays. :func:`array_from_npy` reads the header with NumPy's own parser
(``numpy.lib.format``), refuses every dtype but the kinds the caller names, and checks
that the bytes after the header hold exactly the array the header describes; only then
is the array made, as a view of those bytes (no copy).
"""

from __future__ import annotations

import io
import math
import re
import warnings
from typing import Any

import numpy as np

from robot_msgs.documents import _short
from robot_msgs.errors import FormatError

__all__ = ["MAX_DIMENSIONS", "NPY_KINDS", "array_from_npy"]

#: What each dtype kind letter means, for messages.
NPY_KINDS = {
    "b": "booleans",
    "i": "integers",
    "u": "unsigned integers",
    "f": "floats",
    "c": "complex numbers",
    "U": "text",
    "S": "bytes",
    "O": "Python objects",
    "V": "records",
    "M": "dates",
    "m": "time spans",
}
_MAX_HEADER = 10_000  # numpy's own default bound on a header (numpy.lib.format)
#: The most dimensions an array read from a file may have (a pose matrix series has 3).
MAX_DIMENSIONS = 8


def _describe(dtype: np.dtype[Any]) -> str:
    if dtype.fields is not None:
        return f"records ({dtype.str})"
    if dtype.subdtype is not None:
        return f"sub-arrays ({dtype.str})"
    return f"{NPY_KINDS.get(dtype.kind, dtype.kind)} ({dtype.str})"


def array_from_npy(data: bytes, *, where: str, kinds: str = "f") -> np.ndarray[Any, Any]:
    """Read the ``.npy`` bytes ``data`` as an array whose dtype kind is one of ``kinds``.

    Parameters
    ----------
    data : bytes
        The whole ``.npy`` file (a zip entry).
    where : str
        The file and entry, as messages name them.
    kinds : str
        The dtype kinds accepted (``"f"`` floats; ``"fiub"`` floats, integers, booleans).

    Returns
    -------
    ndarray
        A read-only view of ``data`` in the header's dtype and shape.

    Raises
    ------
    FormatError
        Not a ``.npy`` header; a dtype of another kind (objects, text, records, complex);
        more than 8 dimensions; bytes that are not exactly the array's (truncated, or
        trailing bytes).

    Examples
    --------
    >>> buffer = io.BytesIO()
    >>> np.save(buffer, np.array([0.5, 1.5]))
    >>> array_from_npy(buffer.getvalue(), where="a.zip: e.npy")
    array([0.5, 1.5])
    >>> buffer = io.BytesIO()
    >>> np.save(buffer, np.array(["x"]))
    >>> array_from_npy(buffer.getvalue(), where="a.zip: e.npy")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: a.zip: e.npy: expected an array of floats, got text (<U1)
    """
    stream = io.BytesIO(data)
    try:
        with warnings.catch_warnings():  # "created on Python 2": what matters is refused below
            warnings.simplefilter("ignore", UserWarning)
            return _checked(stream, data, where=where, kinds=kinds)
    except FormatError:
        raise
    except Exception as err:
        # which raise ValueError, SyntaxError, tokenize.TokenError... on untrusted bytes.
        # ast's messages name its objects by address (<ast.Call object at 0x7f...>).
        said = re.sub(r"<[\w.]+ object at 0x[0-9a-fA-F]+>", "an expression", _short(err))
        msg = f"{where}: not a NumPy .npy array ({said})"
        raise FormatError(msg) from err


def _checked(stream: io.BytesIO, data: bytes, *, where: str, kinds: str) -> np.ndarray[Any, Any]:
    """Read the header from ``stream`` (positioned at the start of ``data``) and check it."""
    formats = np.lib.format
    version = formats.read_magic(stream)
    read = {(1, 0): formats.read_array_header_1_0, (2, 0): formats.read_array_header_2_0}
    if version not in read:
        msg = f"{where}: expected a .npy file of version 1.0 or 2.0, got {version}"
        raise FormatError(msg)
    shape, fortran, dtype = read[version](stream, max_header_size=_MAX_HEADER)
    wanted = " or ".join(NPY_KINDS[k] for k in kinds)
    if (
        dtype.hasobject
        or dtype.fields is not None
        or dtype.subdtype is not None
        or dtype.kind not in kinds
    ):
        msg = f"{where}: expected an array of {wanted}, got {_describe(dtype)}"
        raise FormatError(msg)
    if len(shape) > MAX_DIMENSIONS:
        msg = f"{where}: expected at most {MAX_DIMENSIONS} dimensions, got {len(shape)}"
        raise FormatError(msg)
    if any(n < 0 for n in shape):  # a product of them said "-8 bytes ... followed by other bytes"
        msg = f"{where}: expected sizes >= 0 in the header's shape, got {shape}"
        raise FormatError(msg)
    offset = stream.tell()
    needed = math.prod(shape) * dtype.itemsize  # Python integers: no overflow
    held = len(data) - offset
    if needed != held:
        what = "truncated" if held < needed else "followed by other bytes"
        msg = (
            f"{where}: the header says shape {shape} of {dtype.str} ({needed} bytes) but "
            f"{held} bytes follow it ({what})"
        )
        raise FormatError(msg)
    flat = np.frombuffer(data, dtype=dtype, count=math.prod(shape), offset=offset)
    return flat.reshape(shape, order="F" if fortran else "C")
