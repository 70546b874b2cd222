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
  stored as UTF-8 bytes. Read with ``numpy.load(path)`` (no pickle).
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
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from robot_msgs.compare.result import EvaluationResult
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.files import write_atomic
from robot_msgs.msg import decode_json, to_dict_keeping_arrays
from robot_msgs.msg_json import encode_json_into
from robot_msgs.optional import require
from robot_msgs.strict_json import dumps

__all__ = ["RESULT_FORMATS", "load_result", "result_format", "save_result"]

#: The formats of a saved result, by the name's suffix (``-``, standard output, is JSON).
RESULT_FORMATS = {".json": "json", ".npz": "npz", ".parquet": "parquet", ".pq": "parquet"}

_SKELETON = "robot_msgs.json"
_REF = "$array"


def result_format(path: str | os.PathLike[str], *, saving: bool = False) -> str:
    """Return the format a result file's name says: ``json``, ``npz`` or ``parquet``.

    Reading, any other name is tried as JSON (the reader then says what it is not).

    Raises
    ------
    FormatError
        ``saving`` and any other suffix: a result is never written under a name that
        says something else (``.zip`` is evo's ``--save_results`` archive, which this is
        not).

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
    if suffix in RESULT_FORMATS or os.fspath(path) == "-":
        return RESULT_FORMATS.get(suffix, "json")
    if saving:
        said = f"{suffix!r}" if suffix else "a name without a suffix"
        msg = f"{path}: a result is saved as .json, .npz or .parquet, not {said}"
        if suffix == ".zip":
            msg += (
                " (evo's --save_results archive; robot-msgs res reads those, it does not "
                "write them)"
            )
        raise FormatError(msg)
    return "json"


def _split(tree: Any, arrays: list[np.ndarray[Any, Any]]) -> Any:
    """Replace every array of a ``to_dict_keeping_arrays`` tree by ``{"$array": K}``."""
    if isinstance(tree, np.ndarray):
        arrays.append(tree)
        return {_REF: len(arrays) - 1}
    if isinstance(tree, dict):
        return {k: _split(v, arrays) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_split(v, arrays) for v in tree]
    return tree


def _join(tree: Any, arrays: list[np.ndarray[Any, Any]], source: str) -> Any:
    """Undo :func:`_split`: put each array back where its reference stands."""
    if isinstance(tree, dict):
        if set(tree) == {_REF}:
            k = tree[_REF]
            if not (isinstance(k, int) and 0 <= k < len(arrays)):
                msg = f"{source}: expected an array number below {len(arrays)}, got {k!r}"
                raise FormatError(msg)
            return arrays[k]
        return {k: _join(v, arrays, source) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_join(v, arrays, source) for v in tree]
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

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from robot_msgs.catalog import example
    >>> result = example("compare/EvaluationResult")
    >>> path = save_result(pathlib.Path(tempfile.mkdtemp()) / "r.npz", result)
    >>> load_result(path) == result
    True
    """
    fmt = result_format(path, saving=True)
    if fmt == "json":
        text = bytearray()
        encode_json_into(result, text)  # one buffer, the newline appended: no copy of it
        text += b"\n"
        return write_atomic(path, text, force=force)
    arrays: list[np.ndarray[Any, Any]] = []
    skeleton = dumps(_split(to_dict_keeping_arrays(result), arrays), indent=None)
    data = _npz_bytes(skeleton, arrays) if fmt == "npz" else _parquet_bytes(skeleton, arrays)
    return write_atomic(path, data, force=force)


def _read_npz(path: Path) -> tuple[str, list[np.ndarray[Any, Any]]]:
    try:
        with np.load(path, allow_pickle=False) as archive:
            if _SKELETON not in archive.files:
                msg = f"{path}: not a robot_msgs result (no {_SKELETON!r} entry)"
                raise FormatError(msg)
            skeleton = archive[_SKELETON].tobytes().decode("utf-8")
            n = len(archive.files) - 1
            arrays = [archive[f"a{k}"] for k in range(n)]
    except (zipfile.BadZipFile, KeyError, ValueError, UnicodeDecodeError) as err:
        msg = f"{path}: not a readable .npz result ({err})"
        raise FormatError(msg) from err
    return skeleton, arrays


def _read_parquet(path: Path) -> tuple[str, list[np.ndarray[Any, Any]]]:
    pq = require("pyarrow.parquet", "parquet", feature="reading a Parquet result")
    try:
        table = pq.read_table(path)
    except Exception as err:  # pyarrow raises its own ArrowInvalid / OSError types
        msg = f"{path}: not a readable Parquet file ({err})"
        raise FormatError(msg) from err
    metadata = table.schema.metadata or {}
    raw = metadata.get(_SKELETON.encode())
    needed = {"array", "dtype", "shape", "floats", "integers"}
    if raw is None or not needed <= set(table.column_names):
        msg = f"{path}: not a robot_msgs result (no {_SKELETON!r} metadata or array columns)"
        raise FormatError(msg)
    arrays: list[np.ndarray[Any, Any]] = []
    order = table.column("array").to_numpy()
    for row in np.argsort(order):
        dtype = np.dtype(table.column("dtype")[int(row)].as_py())
        shape = tuple(table.column("shape")[int(row)].as_py())
        column = "floats" if dtype.kind == "f" else "integers"
        values = table.column(column)[int(row)].values.to_numpy(zero_copy_only=False)
        arrays.append(np.asarray(values).astype(dtype, copy=False).reshape(shape))
    return raw.decode("utf-8"), arrays


def _json_fault(file: Path, data: bytes, err: ValidationError) -> FormatError:
    """Say why a JSON file is no saved result: not JSON, another type, or a field at fault."""
    try:
        tree = msgspec.json.decode(data)
    except msgspec.DecodeError as bad:
        return FormatError(f"{file}: not a JSON result ({bad})")
    if not isinstance(tree, dict) or tree.get("_type") != EvaluationResult.TYPE:
        kind = tree.get("_type") if isinstance(tree, dict) else type(tree).__name__
        return FormatError(f"{file}: expected a saved {EvaluationResult.TYPE}, got {kind!r}")
    return FormatError(f"{file}: {err}")


def load_result(path: str | os.PathLike[str]) -> EvaluationResult:
    """Read a result :func:`save_result` wrote (JSON, ``.npz`` or Parquet, by its name).

    Raises
    ------
    FormatError
        The file is not a saved result, or its content is not a valid one (the field
        named).
    MissingDependencyError
        Parquet without pyarrow (the ``parquet`` extra).
    """
    file = Path(path)
    fmt = result_format(file)
    if fmt == "json":
        data = file.read_bytes()
        try:
            return decode_json(data, EvaluationResult)
        except ValidationError as err:
            raise _json_fault(file, data, err) from err
    else:
        skeleton, arrays = _read_npz(file) if fmt == "npz" else _read_parquet(file)
        try:
            tree = _join(json.loads(skeleton), arrays, str(file))
        except json.JSONDecodeError as err:
            msg = f"{file}: its {_SKELETON!r} is not JSON ({err})"
            raise FormatError(msg) from err
    if not isinstance(tree, dict) or tree.get("_type") != EvaluationResult.TYPE:
        kind = tree.get("_type") if isinstance(tree, dict) else type(tree).__name__
        msg = f"{file}: expected a saved {EvaluationResult.TYPE}, got {kind!r}"
        raise FormatError(msg)
    try:
        return EvaluationResult.from_dict(tree)
    except ValidationError as err:
        msg = f"{file}: {err}"
        raise FormatError(msg) from err
