"""Saved evaluation results: the whole ``EvaluationResult`` as JSON, ``.npz`` or Parquet.

:func:`save_result` writes an :class:`~robot_msgs.compare.EvaluationResult` (the
comparison, every per-pose series, the alignment, the matched reference and the aligned
estimate) in the format the file name says, and :func:`load_result` reads it back equal
(``load_result(p) == result``). :func:`robot_msgs.io.evo_results.read_evo_result` reads
evo's ``--save_results`` zips into the same message.

- ``.json`` (and any other name): the message as strict JSON, one line
  (:func:`robot_msgs.msg.encode_json`: msgspec's encoder, infinities as
  ``"Infinity"``/``"-Infinity"``, NaN as ``null``). Readable anywhere, but every number
  is text: about 20 bytes a float, and parsing is the slow part of loading.
- ``.npz``: NumPy's zip of arrays (deflated). Every array of the result is one entry,
  ``a0.npy``, ``a1.npy``, ... in its own dtype, and the rest of the message (the JSON
  form with each array replaced by ``{"$array": K}``) is the entry ``robot_msgs.json``,
  stored as UTF-8 bytes. Read with ``numpy.load(path)`` (no pickle). A mapping's own key
  ``"$array"`` (a metric parameter of that name) is written ``"$$array"``, and each
  ``"$$...array"`` with one ``$`` more, so no mapping reads back as an array; the
  skeleton then begins ``{"$escaped": true, ...``. Keys are read back with one ``$``
  less only where it does: the releases before (9745f2d, 3ddaaa9) wrote every key as it
  was, so their ``"$$array"`` is a parameter of that name.
- ``.parquet`` / ``.pq`` (the ``parquet`` extra, pyarrow): one row per array, with
  columns ``array`` (K), ``dtype``, ``shape``, and the values flattened in row-major
  order in ``floats`` (float arrays) or ``integers`` (integer and boolean arrays); the
  rest of the message is the file's key-value metadata ``robot_msgs.json``. Compressed
  with zstd; ``pyarrow.parquet.read_table(path)`` (or pandas) shows the arrays.

WHY these two binary forms: JSON of a 10^6-pose APE result is 280 MB of text, 10 s to
write and 3.9 s to load; ``.npz`` keeps the arrays as their bytes with nothing beyond
NumPy (61 MB, 5.1 s to write: deflate is the cost, 0.55 s to load), and Parquet is what
data tools (pandas, polars, DuckDB) read (63 MB, 1.2 s, 0.45 s). Measured by
``benchmarks/bench_result_files.py`` on a 2-core machine. Neither needs pickle to load.
"""

from __future__ import annotations

import io
import math
import os
import re
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from robot_msgs.compare.result import EvaluationResult
from robot_msgs.documents import _short, json_depth, json_kind, parse_json, wide_text_error
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.files import write_atomic
from robot_msgs.io.bounded import read_input, too_large
from robot_msgs.io.npy import MAX_DIMENSIONS, array_from_npy
from robot_msgs.io.zip_archive import ZipArchive, _quoted
from robot_msgs.limits import current_limits
from robot_msgs.msg import decode_json, to_dict_keeping_arrays
from robot_msgs.msg.json import encode_json_into
from robot_msgs.msg.json_text import BOM, out_of_range_in, repeated_key
from robot_msgs.optional import require
from robot_msgs.strict_json import dumps

__all__ = ["RESULT_FORMATS", "load_result", "result_format", "save_result"]

#: The formats of a saved result, by the name's suffix (``-``, standard output, is JSON).
RESULT_FORMATS = {".json": "json", ".npz": "npz", ".parquet": "parquet", ".pq": "parquet"}

_SKELETON = "robot_msgs.json"
#: The name of a result's n-th array in a ``.npz`` (no leading zeros: one name each).
_ARRAY = re.compile(r"a(0|[1-9][0-9]{0,8})\.npy")
_REF = "$array"
#: Keys a mapping of the message may hold that read as an array reference, escaped with
#: one ``$`` more on writing (``$array`` -> ``$$array``) and one less on reading.
_REFLIKE = re.compile(r"\$+array")
#: The skeleton's first key where keys were escaped (files of earlier releases have none).
_ESCAPED = "$escaped"
_KINDS = "fiub"  # the dtype kinds a result's arrays have: floats, integers, booleans


def result_format(path: str | os.PathLike[str], *, saving: bool = False) -> str:
    """Return the format a result file's name says: ``json``, ``npz`` or ``parquet``.

    Reading, any other name is tried as JSON (the reader then says what it is not).

    Raises
    ------
    FormatError
        ``saving`` and any other suffix (a name without one is JSON): a result is never
        written under a name that says something else (``.zip`` is evo's
        ``--save_results`` archive, which this is not).

    Examples
    --------
    >>> result_format("a.npz"), result_format("b.PARQUET"), result_format("c.res")
    ('npz', 'parquet', 'json')
    >>> result_format("c.zip", saving=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: c.zip: a result is saved as .json, .npz or .parquet, ...
    """
    suffix = Path(path).suffix.lower()
    if suffix in RESULT_FORMATS or os.fspath(path) == "-" or not suffix:
        # no suffix: JSON, as "-" is (a pipe, ``>(jq .)`` as /dev/fd/63, a plain name)
        return RESULT_FORMATS.get(suffix, "json")
    if saving:
        msg = f"{path}: a result is saved as .json, .npz or .parquet, not {suffix!r}"
        if suffix == ".zip":
            msg += (
                " (evo's --save_results archive; robot-msgs res reads those, it does not "
                "write them)"
            )
        raise FormatError(msg)
    return "json"


def _skeleton(result: EvaluationResult, arrays: list[np.ndarray[Any, Any]]) -> str:
    """Return the JSON skeleton of ``result``, its arrays appended to ``arrays``.

    ``{"$escaped": true}`` first where a mapping's key was escaped (:func:`_split`).
    """
    escaped: list[str] = []
    tree = _split(to_dict_keeping_arrays(result), arrays, escaped)
    return dumps({_ESCAPED: True, **tree} if escaped else tree, indent=None)


def _split(tree: Any, arrays: list[np.ndarray[Any, Any]], escaped: list[str]) -> Any:
    """Replace every array of a ``to_dict_keeping_arrays`` tree by ``{"$array": K}``.

    A key ``$array``, ``$$array``... gets one ``$`` more, and is added to ``escaped``.
    """
    if isinstance(tree, np.ndarray):
        arrays.append(tree)
        return {_REF: len(arrays) - 1}
    if isinstance(tree, dict):
        out = {}
        for k, v in tree.items():
            if _REFLIKE.fullmatch(k):
                escaped.append(k)
                k = f"${k}"  # noqa: PLW2901 - the key as written
            out[k] = _split(v, arrays, escaped)
        return out
    if isinstance(tree, list):
        return [_split(v, arrays, escaped) for v in tree]
    return tree


def _joined(tree: Any, arrays: list[np.ndarray[Any, Any]], source: str) -> Any:
    """Undo :func:`_skeleton`: the arrays put back, keys unescaped where the file says so."""
    escaped = isinstance(tree, dict) and _ESCAPED in tree
    if escaped:
        tree = dict(tree)
        marker = tree.pop(_ESCAPED)
        if marker is not True:
            msg = f"{source}: `{_ESCAPED}`: expected true, got {marker!r:.40}"
            raise FormatError(msg)
    return _join(tree, arrays, source, escaped=escaped)


def _join(tree: Any, arrays: list[np.ndarray[Any, Any]], source: str, *, escaped: bool) -> Any:
    """Put each array back where its reference stands; ``escaped``: keys with one ``$`` less."""
    if isinstance(tree, dict):
        if set(tree) == {_REF}:
            k = tree[_REF]
            if not (type(k) is int and 0 <= k < len(arrays)):
                msg = f"{source}: expected an array number below {len(arrays)}, got {k!r}"
                raise FormatError(msg)
            return arrays[k]
        return {
            k[1:] if escaped and k.startswith("$$") and _REFLIKE.fullmatch(k) else k: _join(
                v, arrays, source, escaped=escaped
            )
            for k, v in tree.items()
        }
    if isinstance(tree, list):
        return [_join(v, arrays, source, escaped=escaped) for v in tree]
    return tree


def _npz_bytes(skeleton: str, arrays: list[np.ndarray[Any, Any]]) -> bytes:
    buffer = io.BytesIO()
    entries = {f"a{k}": a for k, a in enumerate(arrays)}
    entries[_SKELETON] = np.frombuffer(skeleton.encode("utf-8"), dtype=np.uint8)
    np.savez_compressed(buffer, allow_pickle=False, **entries)
    return buffer.getvalue()


def _parquet_bytes(skeleton: str, arrays: list[np.ndarray[Any, Any]]) -> bytes:
    pa = require("pyarrow", "parquet", feature="saving a result as Parquet")
    pq = require("pyarrow.parquet", "parquet", feature="saving a result as Parquet")
    floats = [a.ravel() if a.dtype.kind == "f" else None for a in arrays]
    integers = [a.ravel().astype(np.int64) if a.dtype.kind in "biu" else None for a in arrays]
    table = pa.table(
        {
            "array": pa.array(range(len(arrays)), type=pa.int64()),
            "dtype": pa.array([a.dtype.str for a in arrays], type=pa.string()),
            "shape": pa.array([list(a.shape) for a in arrays], type=pa.list_(pa.int64())),
            "floats": pa.array(floats, type=pa.list_(pa.float64())),
            "integers": pa.array(integers, type=pa.list_(pa.int64())),
        }
    ).replace_schema_metadata({_SKELETON: skeleton})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    data: bytes = sink.getvalue().to_pybytes()
    return data


def save_result(
    path: str | os.PathLike[str], result: EvaluationResult, *, force: bool = False
) -> Path:
    """Write ``result`` whole, as JSON, ``.npz`` or Parquet as the name says; return the path.

    Written atomically (:func:`robot_msgs.files.write_atomic`); an existing file needs
    ``force``.

    Raises
    ------
    MissingDependencyError
        Parquet without pyarrow (the ``parquet`` extra).
    OutputExistsError
        ``path`` exists and ``force`` is not set.
    ValidationError
        ``result`` is no ``EvaluationResult``, or one of its trajectories has stamps
        that repeat (files read with ``repeated_stamps="all"``): :func:`load_result`
        would refuse the file. The message is the loader's, naming the field.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from robot_msgs.msg.catalog import example
    >>> result = example("compare/EvaluationResult")
    >>> path = save_result(pathlib.Path(tempfile.mkdtemp()) / "r.npz", result)
    >>> load_result(path) == result
    True
    """
    given: object = result  # from callers without a type checker, any message
    if not isinstance(given, EvaluationResult):
        # A tracking Comparison was written without a word, as a file load_result (and
        # so `robot-msgs res`) then refused: "expected a saved compare/EvaluationResult".
        # A class (EvaluationResult itself) has the TYPE of its results: named as a class.
        got = (
            f"the class {given.__name__}"
            if isinstance(given, type)
            else getattr(given, "TYPE", type(given).__name__)
        )
        msg = (
            f"Expected an EvaluationResult to save, got {got}: load_result reads no other "
            "message (robot_msgs.msg.encode_json writes any message as JSON)"
        )
        raise ValidationError(msg)
    _refuse_unordered_stamps(result)
    fmt = result_format(path, saving=True)
    if fmt == "json":
        text = bytearray()
        encode_json_into(result, text)  # one buffer, the newline appended: no copy of it
        text += b"\n"
        return write_atomic(path, text, force=force)
    arrays: list[np.ndarray[Any, Any]] = []
    skeleton = _skeleton(result, arrays)
    data = _npz_bytes(skeleton, arrays) if fmt == "npz" else _parquet_bytes(skeleton, arrays)
    return write_atomic(path, data, force=force)


def _refuse_unordered_stamps(result: EvaluationResult) -> None:
    """Refuse a result whose trajectories' rows the loader refuses, as the loader says it.

    WHY: the matched trajectories of files read with ``repeated_stamps="all"`` repeated
    stamps undeclared (built unchecked); saved, every format was refused by
    :func:`load_result`: "Expected strictly increasing stamps (previous 1.0), got float
    1.0 - at `EvaluationResult.reference.stamps_s[2]`". They now declare it
    (``stamps_repeat``) and load back; a trajectory built unchecked without it is still
    refused here, before any file is written, not when it is read.
    """
    for name in ("reference", "matched_estimate", "compared_estimate"):
        trajectory = getattr(result, name)
        if trajectory is None:
            continue
        try:
            trajectory._validate_rows()  # noqa: SLF001 - the loader's own rule, vectorised
        except ValidationError as err:
            placed = err.placed(type(trajectory).__name__, f"{type(result).__name__}.{name}")
            after = ": load_result would refuse the file"
            said = placed.within("", after)
            raise said from None


def _read_npz(path: Path) -> tuple[str, list[np.ndarray[Any, Any]]]:
    """Read the skeleton and the arrays of a ``.npz`` result: exactly the entries it writes."""
    with ZipArchive(path, what="a readable .npz result") as archive:
        entry = f"{_SKELETON}.npy"
        if entry not in archive.names:
            msg = f"{path}: not a robot_msgs result (no {_SKELETON!r} entry)"
            raise FormatError(msg)
        n = len(archive.names) - 1
        expected = {entry, *(f"a{k}.npy" for k in range(n))}
        unexpected = sorted(set(archive.names) - expected)
        numbered = [_ARRAY.fullmatch(name) for name in archive.names]
        others = [name for name, m in zip(archive.names, numbered, strict=True) if m is None]
        others.remove(entry)
        if unexpected and not others:  # a0.npy .. aK.npy with a gap: one was taken out
            last = max(int(m.group(1)) for m in numbered if m is not None)
            held = {int(m.group(1)) for m in numbered if m is not None}
            gap = min(set(range(last + 1)) - held)
            msg = (
                f"{path}: entry a{gap}.npy is missing (the arrays run a0.npy .. a{last}.npy, "
                f"{last + 1 - len(held)} missing)"
            )
            raise FormatError(msg)
        if unexpected:
            msg = (
                f"{path}: unexpected entry {_quoted(unexpected[0])}: a result of {n} arrays holds "
                f"a0.npy .. a{n - 1}.npy and {entry}"
            )
            raise FormatError(msg)
        data = archive.read(entry, document=True)
        raw = array_from_npy(data, where=f"{path}: {entry}", kinds="u")
        if raw.dtype != np.uint8 or raw.ndim != 1:
            msg = f"{path}: {entry}: expected UTF-8 bytes (uint8, 1-D), got {raw.dtype} {raw.shape}"
            raise FormatError(msg)
        skeleton = _text(raw.tobytes(), f"{path}: {entry}")
        arrays = [
            array_from_npy(archive.read(f"a{k}.npy"), where=f"{path}: a{k}.npy", kinds=_KINDS)
            for k in range(n)
        ]
    return skeleton, arrays


def _text(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        msg = f"{where}: expected UTF-8 JSON, got undecodable bytes at byte {err.start}"
        raise FormatError(msg) from err


def _parquet_array(
    table: Any,
    row: int,
    where: str,
    arrow_error: type[Exception],
) -> np.ndarray[Any, Any]:
    """Array ``row`` of a Parquet result, its ``dtype`` and ``shape`` checked against its values.

    What pyarrow raises on a damaged cell (``arrow_error``, a value that is not UTF-8)
    is a :class:`FormatError` naming the array.
    """
    try:
        return _parquet_cells(table, row, where)
    except FormatError:
        raise
    except (arrow_error, UnicodeDecodeError, TypeError, ValueError) as err:
        msg = f"{where}: not a robot_msgs result's array ({_short(err)})"
        raise FormatError(msg) from err


def _parquet_cells(table: Any, row: int, where: str) -> np.ndarray[Any, Any]:
    """Read and check array ``row`` (see :func:`_parquet_array`)."""
    raw_dtype = table.column("dtype")[row].as_py()
    try:
        dtype = np.dtype(raw_dtype) if isinstance(raw_dtype, str) and len(raw_dtype) <= 8 else None
    except (TypeError, ValueError, SyntaxError):  # NumPy reads "(9)f8" with ast
        dtype = None
    if dtype is None or dtype.kind not in _KINDS or dtype.fields is not None or dtype.hasobject:
        msg = (
            f"{where}: `dtype`: expected a NumPy dtype of floats, integers or booleans "
            f"(such as <f8), got {raw_dtype!r:.40}"
        )
        raise FormatError(msg)
    shape = table.column("shape")[row].as_py()
    if not (
        isinstance(shape, list)
        and len(shape) <= MAX_DIMENSIONS
        and all(isinstance(n, int) and n >= 0 for n in shape)
    ):
        msg = f"{where}: `shape`: expected a list of sizes >= 0, got {shape!r:.60}"
        raise FormatError(msg)
    column = "floats" if dtype.kind == "f" else "integers"
    cell = table.column(column)[row]
    if not cell.is_valid:
        msg = f"{where}: `{column}`: expected the values of a {dtype.str} array, got null"
        raise FormatError(msg)
    if column == "integers" and cell.values.null_count:
        msg = (
            f"{where}: `integers`: expected the values of a {dtype.str} array, "
            "got a null among them"
        )
        raise FormatError(msg)
    values = np.asarray(cell.values.to_numpy(zero_copy_only=False))
    if values.size != math.prod(shape):
        msg = (
            f"{where}: `shape` {tuple(shape)} holds {math.prod(shape)} values, but "
            f"`{column}` has {values.size}"
        )
        raise FormatError(msg)
    return _cast(values, dtype, f"{where}: `{column}`").reshape(shape)


def _cast(values: np.ndarray[Any, Any], dtype: np.dtype[Any], where: str) -> np.ndarray[Any, Any]:
    """Return a Parquet column's values (int64 or float64) in ``dtype``, every value kept.

    The writer stores each array's own values widened, so narrowing them back changes
    none; a value that ``dtype`` cannot hold (1000 in an ``|i1`` array, 5 in a boolean
    one, 1e300 or 0.1 in a ``<f4`` one) is refused, where a cast wrapped it round (-24),
    made it ``True``, ``inf`` or another number. An ``uint64`` array is written as the
    int64 of its bits, so it is read back from them.
    """
    if values.dtype == dtype:
        return values
    with np.errstate(over="ignore", invalid="ignore"):
        out = values.astype(dtype)
        back = out.astype(values.dtype)
    changed = back != values
    if dtype.kind == "f":
        changed &= ~(np.isnan(back) & np.isnan(values))
    if changed.any():
        k = int(np.argmax(changed))
        value = values[k].item()
        msg = f"{where}: value {value!r} at {k} does not fit the array's dtype {dtype.str}"
        raise FormatError(msg)
    return out


_MAX_PAGES = 1_000_000
"""Pages of one Parquet result walked at most (:func:`~robot_msgs.io.parquet_pages.chunk_pages`):
about 14 s; pyarrow writes a page a MiB, so 1 TiB of them."""
_PARQUET_MR_PADDING = 100
"""Bytes pyarrow reads past a column chunk written by parquet-mr before 1.2.9."""
_MAX_HEADER_BYTES = 64 << 10
"""Bytes of the page headers of one Parquet result read at most, one at a time, and one
more for each KiB of the file (:func:`_header_bytes`)."""
_MAX_FOOTER_BYTES = 1 << 20
"""Bytes of the footer of one Parquet result read one at a time at most: 1 to 2.5 s.
WHY apart from the page headers: a result's row is one array, so its row groups are at
most its arrays: a 100-array rpg result written a row group each (page index, sorting
columns) reads 47 KB, :func:`save_result`'s 540 to 589 bytes; under the 16 MiB of the
page headers a 12 MB file of 20,000 row groups read 7.8 MB of footer, refused in 23 s."""


def _header_bytes(size: int) -> int:
    """Return the bytes of page headers walked at most in a Parquet result of ``size`` bytes.

    WHY: they are read a byte at a time, 1 to 5 us each; under a cap of 16 MiB a 10 MB
    line of ``a`` (a bool field a byte) in a saved result walked 16 MiB, 11 to 57 s before
    it was refused. :func:`save_result` writes a page per MiB of a column and 24 to 31
    bytes a header: 241 bytes in a 0.35 MB APE result, 616 in a 25 MB 2e5-pose RPE result
    (measured), 24 bytes a MiB, against the 1024 a MiB walked here; the 64 KiB beside them
    is 270 times a small result's. A 10 MB file then walks 74 KB (0.1 s), 1 GiB 1.06 MiB.
    """
    return _MAX_HEADER_BYTES + size // 1024


def _decoded_bytes(data: bytes, meta: Any) -> int:
    """Return an upper bound on the bytes a Parquet file's columns decode to, from its footer.

    WHY not the row groups' ``total_byte_size``: that is the size of the *encoded* pages,
    and a dictionary- or run-length-encoded column of 2e8 equal floats encodes to 118
    bytes, so a 7.6 KB file passed the bound and decoded to 1.6 GB (3.8 GB resident,
    measured). Each column chunk's ``num_values`` is what it decodes to: 8 bytes a value
    (the columns of a result are 64-bit; a wider type, its width), and a text value at
    most its chunk's whole uncompressed bytes (its dictionary page) each. A chunk counts
    the larger of that and its uncompressed pages, not their sum: a page is decoded and
    let go, and the sum counted a plain column twice, refusing a result of half the
    bound (a review). The footer's counts are checked against the page headers, which
    pyarrow decodes by: a footer saying fewer values passed the bound. Both are read by
    :mod:`robot_msgs.io.parquet_pages`, not by pyarrow's column chunk metadata, which
    aborts the process on a damaged footer, nor by a copy pyarrow writes of it, which
    ends the process on a footer naming an encryption algorithm (its docstring). A
    column's type is the schema's (``meta``), which pyarrow decodes it by, not the
    chunk's own word for it.
    """
    from robot_msgs.io.parquet_pages import chunk_pages, footer_chunks  # noqa: PLC0415

    widths = [
        {"INT96": 12, "FIXED_LEN_BYTE_ARRAY": column.length, "BYTE_ARRAY": None}.get(
            column.physical_type, 8
        )
        for column in (meta.schema.column(j) for j in range(meta.num_columns))
    ]
    writer, groups, _ = footer_chunks(data, max_header_bytes=_MAX_FOOTER_BYTES)
    pages_left, header_bytes_left = _MAX_PAGES, _header_bytes(len(data))
    # WHY: pyarrow reads up to 100 bytes past a chunk of a file whose ``created_by`` is
    # parquet-mr before 1.2.9 (PARQUET-816: it left the dictionary page header out of the
    # chunk's size), and ``created_by`` is the file's own word: a page of 10^6 values (8
    # MB decoded) hid in those bytes, 88 of them. Any parquet-mr file is walked so.
    padded = "parquet-mr" in writer.lower()
    total = 0
    for chunks in groups:
        for j, chunk in enumerate(chunks):
            length = chunk.length
            if padded:
                length += min(_PARQUET_MR_PADDING, max(0, len(data) - chunk.start - length))
            values, size, pages, header_bytes = chunk_pages(
                data, chunk.start, length, max_pages=pages_left, max_header_bytes=header_bytes_left
            )
            pages_left -= pages
            header_bytes_left -= header_bytes
            values = max(values, chunk.num_values)
            size = max(size, chunk.uncompressed)
            width = widths[j] if j < len(widths) else 8
            total += max(size, values * (8 + size if width is None else max(width, 8)))
    return total


def _read_parquet(path: Path) -> tuple[str, list[np.ndarray[Any, Any]]]:
    pa = require("pyarrow", "parquet", feature="reading a Parquet result")
    pq = require("pyarrow.parquet", "parquet", feature="reading a Parquet result")
    limits = current_limits()
    data = read_input(path, limit=limits.max_bytes)
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        inflated = _decoded_bytes(data, parquet.metadata)
    except Exception as err:  # pyarrow raises its own ArrowInvalid / OSError types
        msg = f"{path}: not a readable Parquet file ({_short(err)})"
        raise FormatError(msg) from err
    if inflated > limits.max_bytes:
        raise too_large(str(path), f"its columns inflate to {inflated} bytes", limits.max_bytes)
    try:
        table = parquet.read()
    except Exception as err:
        msg = f"{path}: not a readable Parquet file ({_short(err)})"
        raise FormatError(msg) from err
    metadata = table.schema.metadata or {}
    raw = metadata.get(_SKELETON.encode())
    types = {
        "array": pa.int64(),
        "dtype": pa.string(),
        "shape": pa.list_(pa.int64()),
        "floats": pa.list_(pa.float64()),
        "integers": pa.list_(pa.int64()),
    }
    if raw is None or not types.keys() <= set(table.column_names):
        msg = f"{path}: not a robot_msgs result (no {_SKELETON!r} metadata or array columns)"
        raise FormatError(msg)
    for name, kind in types.items():
        got = table.schema.field(name).type
        if got != kind:
            msg = f"{path}: column `{name}`: expected {kind}, got {got}"
            raise FormatError(msg)
    try:
        order = np.asarray(table.column("array").to_numpy(zero_copy_only=False))
    except (pa.ArrowException, TypeError, ValueError) as err:
        msg = f"{path}: `array`: not a column of numbers ({_short(err)})"
        raise FormatError(msg) from err
    if order.dtype.kind not in "iu" or sorted(order.tolist()) != list(range(order.size)):
        msg = f"{path}: `array`: expected the numbers 0 .. {order.size - 1} once each"
        raise FormatError(msg)
    arrays = [
        _parquet_array(table, int(row), f"{path}: array {k}", pa.ArrowException)
        for k, row in enumerate(np.argsort(order))
    ]
    return _text(raw, f"{path}: metadata {_SKELETON!r}"), arrays


class _Tagged(msgspec.Struct):
    """A JSON object's ``_type`` (unset without one); its other keys are skipped."""

    type: Any = msgspec.field(name="_type", default=msgspec.UNSET)


def _json_fault(file: Path, data: bytes, err: ValidationError) -> FormatError:
    """Say why a JSON file is no saved result: not JSON, another type, or a field at fault."""
    import json  # noqa: PLC0415 - its error type, for a file that is not a result

    if data.startswith(b"PK\x03\x04"):  # a zip: evo's --save_results, read by its own reader
        msg = (
            f"{file}: a zip archive, not a saved result: evo's --save_results zips are read "
            "by robot_msgs.io.evo_results.read_evo_result (and robot-msgs res)"
        )
        return FormatError(msg)
    wide = wide_text_error(data, source=str(file))
    if wide is not None:  # json reads UTF-16 and UTF-32; msgspec and we do not
        return wide
    # An object that is not a result is said by its `_type` alone, which msgspec reads
    # skipping every other value: a 36 MB object of 2e6 keys was parsed whole by json
    # once more (4 s of the refusal's 12 s). Anything else is parsed to say what it is.
    try:
        if not data.isascii():  # msgspec checks no UTF-8 in the values it skips: json,
            data.decode("utf-8", "surrogatepass")  # below, names the byte (as it decodes)
        head = msgspec.json.decode(data.removeprefix(BOM), type=_Tagged)
    except (UnicodeDecodeError, msgspec.DecodeError, RecursionError):  # not an object, or
        head = None  # not strict UTF-8 JSON
    if head is not None and repeated_key(data) is None:
        stand_in = {} if head.type is msgspec.UNSET else {"_type": head.type}
        return _not_a_result(file, stand_in) or FormatError(f"{file}: {err}")
    try:
        tree = parse_json(data, source=str(file))
    except FormatError as bad:  # not JSON: most often not a result at all (a trajectory)
        cause = bad.__cause__
        if isinstance(cause, json.JSONDecodeError):
            detail = f"not JSON at line {cause.lineno}, column {cause.colno} ({cause.msg})"
        elif isinstance(cause, UnicodeDecodeError):
            detail = f"not UTF-8 text (byte {cause.start})"
        else:
            raise  # JSON, but nested too deep or a number Python refuses: said as it is
        msg = (
            f"{file}: not a saved result (the JSON that ape, rpe or drift --save writes; "
            f"evo's .zip is read too): {detail}"
        )
        return FormatError(msg)
    return _not_a_result(file, tree) or FormatError(f"{file}: {err}")


def _not_a_result(file: Path, tree: object) -> FormatError | None:
    """Return the error for a JSON document that is not a saved result (``None`` for one)."""
    named = tree.get("_type") if isinstance(tree, dict) else None
    if isinstance(named, str) and named == EvaluationResult.TYPE:  # an array compares per item
        return None
    if isinstance(tree, dict):
        kind = "an object without _type" if "_type" not in tree else f"{named!r:.80}"
    else:
        kind = f"a JSON {json_kind(tree)}"
    return FormatError(f"{file}: expected a saved {EvaluationResult.TYPE}, got {kind}")


def load_result(path: str | os.PathLike[str]) -> EvaluationResult:
    """Read a result :func:`save_result` wrote (JSON, ``.npz`` or Parquet, by its name).

    Raises
    ------
    FormatError
        The file is not a saved result, or its content is not a valid one (the field
        named); it is larger, or inflates to more, than the bounds of
        :mod:`robot_msgs.limits`; its JSON is nested too deep; an array's dtype is not
        floats, integers or booleans, or its bytes or values do not fit its shape; a
        ``.npz`` holds an entry the writer does not write.
    MissingDependencyError
        Parquet without pyarrow (the ``parquet`` extra).
    """
    file = Path(path)
    fmt = result_format(file)
    if fmt == "json":
        data = read_input(file, limit=current_limits().max_bytes)  # a BOM: decode_json's
        if json_depth(data) > current_limits().max_depth:
            parse_json(data, source=str(file))  # refuses it, saying how deep is allowed
        try:
            with np.errstate(all="ignore"):  # huge values are refused, not warned about
                return decode_json(data, EvaluationResult)
        except ValidationError as err:
            raise _json_fault(file, data, err) from err
    else:
        skeleton, arrays = _read_npz(file) if fmt == "npz" else _read_parquet(file)
        # strict JSON, as the JSON form is read: no NaN, no number beyond float64
        tree = parse_json(skeleton, source=f"{file}: {_SKELETON}", constants=False)
        beyond = out_of_range_in(tree, EvaluationResult.__name__)  # json read it as inf
        if beyond is not None:
            msg = f"{file}: {_SKELETON}: {beyond}"
            raise FormatError(msg) from beyond
        tree = _joined(tree, arrays, str(file))
    wrong = _not_a_result(file, tree)
    if wrong is not None:
        raise wrong
    try:
        with np.errstate(all="ignore"):  # huge values are refused below, not warned about
            return EvaluationResult.from_dict(tree)
    except ValidationError as err:
        msg = f"{file}: {err}"
        raise FormatError(msg) from err
