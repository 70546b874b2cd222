"""Saved results: JSON, .npz and Parquet load back equal, without pickle; bad files named."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.compare.result import EvaluationResult
from robot_msgs.control import tracking
from robot_msgs.errors import (
    DataWarning,
    FormatError,
    MissingDependencyError,
    OutputExistsError,
    ValidationError,
)
from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.io import parquet_pages, read_trajectory
from robot_msgs.io.parquet_pages import chunk_pages
from robot_msgs.io.result_files import load_result, result_format, save_result
from robot_msgs.limits import input_limits
from tests.hostile import deadline

if TYPE_CHECKING:
    from collections.abc import Callable


@pytest.fixture(scope="module")
def results() -> dict[str, EvaluationResult]:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    settings = EvaluationSettings(align="se3")
    return {
        "ape": ape(ref, est, settings=settings),
        "rpe": rpe(ref, est, settings=settings, pairs=PairSettings(delta=1.0, delta_unit="m")),
    }


@pytest.mark.parametrize("suffix", [".json", ".npz", ".parquet", ".pq"])
@pytest.mark.parametrize("metric", ["ape", "rpe"])
def test_every_format_loads_back_equal(
    results: dict[str, EvaluationResult], tmp_path: Path, suffix: str, metric: str
) -> None:
    pytest.importorskip("pyarrow")
    result = results[metric]
    path = save_result(tmp_path / f"r{suffix}", result)
    loaded = load_result(path)
    assert loaded == result
    series = loaded.series["translation"]
    assert np.array_equal(series.errors, result.series["translation"].errors)
    assert loaded.estimate.positions_xyz.dtype == np.float64


def test_npz_is_plain_numpy_without_pickle(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    result = results["ape"]
    path = save_result(tmp_path / "r.npz", result)
    with np.load(path, allow_pickle=False) as archive:
        skeleton = json.loads(archive["robot_msgs.json"].tobytes().decode())
        errors_ref = skeleton["comparison"]["signals"][0]["series"]["errors"]["$array"]
        assert np.array_equal(archive[f"a{errors_ref}"], result.series["translation"].errors)
    with zipfile.ZipFile(path) as z:
        assert all(info.compress_type == zipfile.ZIP_DEFLATED for info in z.infolist())


def test_an_object_that_is_not_a_result_is_refused_without_another_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 36 MB object of 2e6 keys and no _type took 48 s to refuse (17 s in Python): after
    msgspec's reading, json parsed it whole again to say what it was, and the first
    unknown field was found by sorting all 2e6. Its _type (or none) says it now, read by
    msgspec skipping the rest; json parses only what is not such an object."""
    from robot_msgs.io import result_files

    def parsed(*_: object, **__: object) -> None:
        msg = "parsed again"
        raise AssertionError(msg)

    many = tmp_path / "many.json"
    many.write_text(json.dumps({f"k{i}": i for i in range(3000, 0, -1)}))
    monkeypatch.setattr(result_files, "parse_json", parsed)
    with pytest.raises(
        FormatError,
        match=r"many\.json: expected a saved compare/Evaluation"
        r"Result, got an object without _type$",
    ):
        load_result(many)
    other = tmp_path / "other.json"
    other.write_text('{"_type": "compare/Comparison", "k": [1, 2]}')
    with pytest.raises(FormatError, match=r"got 'compare/Comparison'$"):
        load_result(other)
    extra = tmp_path / "extra.json"
    extra.write_text('{"_type": "compare/EvaluationResult", "zz": 1, "b2": 2, "b10": 3}')
    with pytest.raises(FormatError, match=r"extra\.json: .* unknown field 'b10' - at `Eval"):
        load_result(extra)


@pytest.mark.parametrize(
    ("text", "byte"),
    [
        (b'{"a": "\xff"}', 7),
        (b'{"\xff": 1}', 2),
        (b'{"a": "\xc0\xaf", "_type": "compare/Comparison"}', 7),
        (b'{"_type": "compare/EvaluationResult", "a": "\xff"}', 44),
    ],
)
def test_an_object_with_a_byte_that_is_not_utf8_is_said_so(
    tmp_path: Path, text: bytes, byte: int
) -> None:
    """msgspec, reading `_type` alone, skips the other keys and values unchecked: these
    were refused as "an object without _type" (or for its _type), not for their byte."""
    path = tmp_path / "latin1.json"
    path.write_bytes(text)
    with pytest.raises(
        FormatError, match=rf"latin1\.json: not a saved result .*: not UTF-8 text \(byte {byte}\)$"
    ):
        load_result(path)


def test_binary_forms_are_smaller_than_json(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    pytest.importorskip("pyarrow")
    sizes = {
        s: save_result(tmp_path / f"r{s}", results["ape"]).stat().st_size
        for s in (".json", ".npz", ".parquet")
    }
    assert sizes[".npz"] < sizes[".json"] / 2
    # A result keeps the estimate as read (4 decimals in fr1's file), which JSON writes
    # short: 227 kB where the aligned estimate took 251 kB; Parquet stays at 123 kB.
    assert sizes[".parquet"] < sizes[".json"] * 0.6


def test_parquet_holds_one_row_per_array(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    result = results["rpe"]
    table = pq.read_table(save_result(tmp_path / "r.parquet", result))
    rows = table.to_pylist()
    pairs = [r for r in rows if r["dtype"] == "<i8" and r["shape"][-1:] == [2]]
    assert len(pairs) == 1
    expected = result.series["translation"].pairs
    assert expected is not None
    assert pairs[0]["integers"] == expected.ravel().tolist()
    assert b"robot_msgs.json" in (table.schema.metadata or {})


def test_existing_file_is_kept_without_force(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    path = tmp_path / "r.npz"
    path.write_bytes(b"keep")
    with pytest.raises(
        OutputExistsError, match=r"r\.npz exists; pass `force=True` to overwrite it$"
    ):
        save_result(path, results["ape"])
    assert path.read_bytes() == b"keep"
    save_result(path, results["ape"], force=True)
    assert load_result(path) == results["ape"]


@pytest.mark.parametrize("name", ["t.json", "t.npz"])
def test_a_message_that_is_no_result_is_refused_before_a_file_is_written(
    tmp_path: Path, name: str
) -> None:
    """A control loop's tracking Comparison was saved without a word, as a file that
    load_result (and so ``robot-msgs res``) then refused: "expected a saved
    compare/EvaluationResult, got 'compare/Comparison'"."""
    comparison = tracking([0.0, 1.0], [1.0, 1.0], [0.0, 1.0], [0.5, 1.0])
    with pytest.raises(
        ValidationError,
        match=r"Expected an EvaluationResult to save, got compare/Comparison: .*encode_json",
    ):
        save_result(tmp_path / name, comparison)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_a_result_is_named(tmp_path: Path) -> None:
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(FormatError, match=r"other\.npz: not a robot_msgs result"):
        load_result(other)
    text = tmp_path / "comparison.json"
    text.write_text('{"_type": "compare/Comparison"}')
    with pytest.raises(
        FormatError, match=r"comparison\.json: expected a saved compare/EvaluationResult"
    ):
        load_result(text)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(
        FormatError,
        match=r"broken\.json: not a saved result .*: not JSON at line 1, column 2 \(Exp",
    ):
        load_result(broken)
    # evo's zip: said to be one, with its reader named (it said "evo's .zip is read too"
    # and then refused it as not UTF-8 text; a review).
    evo = Path(__file__).parents[1] / "data/evo_results/fr1_xyz_ape_se3.zip"
    with pytest.raises(
        FormatError,
        match=r"fr1_xyz_ape_se3\.zip: a zip archive, not a saved result: evo's "
        r"--save_results zips are read by robot_msgs\.io\.evo_results\.read_evo_result",
    ):
        load_result(evo)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"PK not a zip")
    with pytest.raises(FormatError, match=r"garbage\.npz: not a readable \.npz result"):
        load_result(garbage)


def test_a_damaged_result_names_the_field(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    data = results["ape"].to_dict()
    errors = data["comparison"]["signals"][0]["series"]["errors"]
    errors["data"] = errors["data"][:-1]
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=r"damaged\.json: .*signals\[0\]\.series\.errors"):
        load_result(path)


def test_an_empty_array_numpy_cannot_make_is_a_format_error(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """An array dict of shape [0, 2**62, 2**62] (2**127 bytes beside the zero, no values):
    NumPy's "array is too big" ValueError escaped load_result."""
    data = results["ape"].to_dict()
    data["matched_estimate"]["positions_xyz"] = {
        "dtype": "float64",
        "shape": [0, 2**62, 2**62],
        "data": [],
    }
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=r"huge\.json: .*NumPy can hold"):
        load_result(path)


def test_parquet_without_pyarrow_names_the_extra(
    results: dict[str, EvaluationResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(MissingDependencyError, match=r"robot_msgs\[parquet\]"):
        save_result(tmp_path / "r.parquet", results["ape"])
    assert not (tmp_path / "r.parquet").exists()


def test_a_result_is_never_saved_under_a_name_that_says_another_format(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    for name in ("r.zip", "r.res"):
        with pytest.raises(FormatError, match=r"a result is saved as \.json, \.npz or \.parquet"):
            save_result(tmp_path / name, results["ape"])
        assert not (tmp_path / name).exists()
    # A name without a suffix says no other format: JSON, as standard output is (a pipe,
    # bash's >(cmd) as /dev/fd/63).
    save_result(tmp_path / "r", results["ape"])
    assert load_result(tmp_path / "r") == results["ape"]


def test_format_follows_the_suffix() -> None:
    assert [result_format(n) for n in ("a.NPZ", "a.pq", "a.json", "a")] == [
        "npz",
        "parquet",
        "json",
        "json",
    ]


def test_an_npz_whose_type_is_an_array_is_no_result(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """`"_type": {"$array": 0}` in the skeleton compared an array with a string (ValueError)."""
    path = save_result(tmp_path / "r.npz", results["ape"])
    with zipfile.ZipFile(path) as z:
        entries = {name: z.read(name) for name in z.namelist()}
    skeleton_name = next(n for n in entries if n.startswith("robot_msgs.json"))
    with np.load(path, allow_pickle=False) as archive:
        skeleton = json.loads(archive["robot_msgs.json"].tobytes().decode())
    skeleton["_type"] = {"$array": 0}
    buffer = io.BytesIO()
    np.save(buffer, np.frombuffer(json.dumps(skeleton).encode(), np.uint8))
    entries[skeleton_name] = buffer.getvalue()
    bad = tmp_path / "bad.npz"
    with zipfile.ZipFile(bad, "w") as out:
        for name, data in entries.items():
            out.writestr(name, data)
    with pytest.raises(FormatError, match=r"bad\.npz: expected a saved compare/EvaluationResult"):
        load_result(bad)


def test_an_npz_with_an_array_taken_out_names_the_missing_one(tmp_path: Path) -> None:
    """An .npz result with a5.npy taken out was refused for its last entry: "unexpected
    entry 'a11.npy': a result of 11 arrays holds a0.npy .. a10.npy"."""
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    saved = save_result(tmp_path / "r.npz", ape(ref, est, settings=EvaluationSettings(align="se3")))
    cut = tmp_path / "cut.npz"
    with zipfile.ZipFile(saved) as src, zipfile.ZipFile(cut, "w") as dst:
        names = src.namelist()
        last = max(int(n[1:-4]) for n in names if n.startswith("a") and n[1:-4].isdigit())
        for name in names:
            if name != "a1.npy":
                dst.writestr(name, src.read(name))
    with pytest.raises(
        FormatError,
        match=rf"cut\.npz: entry a1\.npy is missing \(the arrays run a0\.npy \.\. a{last}\.npy, 1 "
        r"missing\)$",
    ):
        load_result(cut)


@pytest.mark.parametrize(
    "parameters",
    [{"$array": 0}, {"$$array": 1}, {"$array": 0, "$$array": 1, "$$$array": "x", "array": 2}],
)
@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
def test_a_parameter_named_like_an_array_reference_loads_back_equal(
    results: dict[str, EvaluationResult],
    tmp_path: Path,
    suffix: str,
    parameters: dict[str, object],
) -> None:
    """A metric parameter `$array` (a valid key) was read back as the result's first array."""
    pytest.importorskip("pyarrow")
    result = results["ape"]
    odd = result.replace(comparison=result.comparison.replace(parameters=parameters))
    loaded = load_result(save_result(tmp_path / f"r{suffix}", odd))
    assert loaded == odd
    assert dict(loaded.comparison.parameters) == parameters


def _npz_with_skeleton(path: Path, out: Path, change: Callable[[str], str]) -> Path:
    """Write the saved ``.npz`` result ``path`` to ``out`` with its JSON skeleton changed."""
    with zipfile.ZipFile(path) as z:
        entries = {name: z.read(name) for name in z.namelist()}
    with np.load(path, allow_pickle=False) as archive:
        text = archive["robot_msgs.json"].tobytes().decode()
    buffer = io.BytesIO()
    np.save(buffer, np.frombuffer(change(text).encode(), np.uint8))
    entries["robot_msgs.json.npy"] = buffer.getvalue()
    with zipfile.ZipFile(out, "w") as dst:
        for name, data in entries.items():
            dst.writestr(name, data)
    return out


def test_an_npz_whose_array_number_is_a_bool_is_refused(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """`{"$array": true}` was read as array 1 (a bool is an int to Python)."""

    def true_for_one(text: str) -> str:
        assert '{"$array":1}' in text
        return text.replace('{"$array":1}', '{"$array":true}')

    path = save_result(tmp_path / "r.npz", results["ape"])
    bad = _npz_with_skeleton(path, tmp_path / "bad.npz", true_for_one)
    with pytest.raises(
        FormatError, match=r"bad\.npz: expected an array number below \d+, got True"
    ):
        load_result(bad)


def test_an_npz_whose_comparison_is_an_array_names_the_field(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """`"comparison": {"$array": 0}` made res say "a bug in robot_msgs" (IndexError)."""

    def array_for_comparison(text: str) -> str:
        skeleton = json.loads(text)
        skeleton["comparison"] = {"$array": 0}
        return json.dumps(skeleton)

    path = save_result(tmp_path / "r.npz", results["ape"])
    bad = _npz_with_skeleton(path, tmp_path / "bad.npz", array_for_comparison)
    said = (
        r"bad\.npz: Expected Comparison as a dict, got array .* - at `EvaluationResult.comparison`"
    )
    with pytest.raises(FormatError, match=said):
        load_result(bad)


def _parquet_with_row(path: Path, source: Path, row: int, **cells: object) -> Path:
    """Write ``source`` (a Parquet result) to ``path`` with the cells of array ``row`` replaced."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(source)
    rows = table.to_pylist()
    rows[row] = {**rows[row], **cells}
    changed = pa.Table.from_pylist(rows, schema=table.schema)
    pq.write_table(changed, path)
    return path


def test_a_parquet_whose_values_decode_past_the_bound_is_refused_before_reading(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """A dictionary-encoded column of 10^6 equal floats is a few hundred bytes of pages: the
    bound was checked against the row groups' encoded size (``total_byte_size``), so a
    7.6 KB file decoded 2e8 floats (3.8 GB resident) before anything was refused."""
    pytest.importorskip("pyarrow")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    n = 10**6
    bomb = _parquet_with_row(tmp_path / "bomb.parquet", saved, 0, shape=[n], floats=[0.0] * n)
    assert bomb.stat().st_size < (1 << 20)  # the 8 MB of zeros are not in the file
    with (
        input_limits(max_bytes=2 << 20),
        pytest.raises(
            FormatError,
            match=r"bomb\.parquet: its columns inflate to \d+ bytes, more than the 2097152 bytes"
            r" .*\(`robot_msgs\.limits\.input_limits\(max_bytes=\.\.\.\)`\)$",
        ),
    ):
        load_result(bomb)


def _varint(value: int) -> bytes:
    """``value`` as a Thrift compact-protocol varint (7 bits a byte, low bits first)."""
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    return bytes([*out, value])


def test_a_parquet_whose_footer_says_fewer_values_than_its_pages_is_refused(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """pyarrow decodes a page to the count of values in *its header*; the bound read the
    footer's count, so a footer saying 16,384 let a page of 10^6 equal floats (8 MB)
    through, and one of 2e8 (1.6 GB) as well."""
    pq = pytest.importorskip("pyarrow.parquet")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    n = 10**6
    bomb = _parquet_with_row(tmp_path / "bomb.parquet", saved, 0, shape=[n], floats=[0.0] * n)
    data = bomb.read_bytes()
    floats = pq.ParquetFile(bomb).metadata.row_group(0).column(3)
    assert floats.path_in_schema == "floats.list.element"
    footer_at = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    # field 5 of ColumnMetaData, i64 zigzag: num_values, said as 16,384 in as many bytes
    told, lie = b"\x16" + _varint(2 * floats.num_values), b"\x16" + _varint(2 * 16_384)
    assert len(told) == len(lie)
    assert data.count(told, footer_at) == 1
    liar = tmp_path / "liar.parquet"
    liar.write_bytes(data[:footer_at] + data[footer_at:].replace(told, lie))
    assert pq.ParquetFile(liar).metadata.row_group(0).column(3).num_values == 16_384
    with (
        input_limits(max_bytes=2 << 20),
        pytest.raises(FormatError, match=r"liar\.parquet: its columns inflate to \d+ bytes, more"),
    ):
        load_result(liar)


def test_a_page_past_a_parquet_mr_chunk_is_counted(tmp_path: Path) -> None:
    """pyarrow reads 100 bytes past a chunk of a file that says parquet-mr before 1.2.9
    wrote it (PARQUET-816); the page headers were walked to the chunk's end only, so a
    page of 10^6 zeros (88 bytes) after it decoded 8 MB under a 2 MiB bound."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    n = 10**6
    floats = pa.array([[0.0] * 10, [0.0] * n], type=pa.list_(pa.float64()))
    table = pa.table({"floats": floats}).replace_schema_metadata({"robot_msgs.json": "{}"})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="none", data_page_size=1, write_batch_size=1)
    data = sink.getvalue().to_pybytes()
    meta = pq.ParquetFile(pa.BufferReader(data)).metadata
    chunk = meta.row_group(0).column(0)
    start, size = chunk.dictionary_page_offset, chunk.total_compressed_size

    def pages(length: int) -> int:
        return chunk_pages(data, start, length, max_pages=99, max_header_bytes=9999)[2]

    last = next(k for k in range(1, size + 1) if pages(k) == pages(size)) - 1  # its page
    assert size - last <= 100
    footer_at = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    footer = data[footer_at:-8]
    for told, lie in [
        (  # total_uncompressed_size, total_compressed_size: fields 6, 7, i64 zigzag
            b"\x16" + _varint(2 * chunk.total_uncompressed_size) + b"\x16" + _varint(2 * size),
            b"\x16" + _varint(2 * chunk.total_uncompressed_size) + b"\x16" + _varint(2 * last),
        ),
        (b"\x16" + _varint(2 * chunk.num_values), b"\x16" + _varint(2 * 16_384)),
        (bytes([len(meta.created_by)]) + meta.created_by.encode(), b"\x18parquet-mr version 1.2.8"),
    ]:
        assert footer.count(told) == 1
        footer = footer.replace(told, lie)
    old = tmp_path / "old.parquet"
    old.write_bytes(data[:footer_at] + footer + len(footer).to_bytes(4, "little") + b"PAR1")
    assert pq.read_table(old).column("floats").combine_chunks().values.nbytes == 8 * (n + 10)
    with (
        input_limits(max_bytes=2 << 20),
        pytest.raises(FormatError, match=r"old\.parquet: its columns inflate to \d+ bytes, more"),
    ):
        load_result(old)


def test_a_text_line_in_a_parquet_result_is_refused_after_few_header_bytes(
    results: dict[str, EvaluationResult],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A 10 MB line of ``a`` put in a saved result (a hostile-input sweep): each ``a`` (0x61)
    is a bool field of a page header, walked a byte at a time up to 16 MiB of headers,
    10.9 to 57 s before the file was refused. A saved result's headers are 30 bytes a
    page (616 bytes in a 25 MB 2e5-pose result), so the walk stops far sooner."""
    pytest.importorskip("pyarrow")

    data = save_result(tmp_path / "r.parquet", results["ape"]).read_bytes()
    at = data.index(b"\n") + 1
    hostile = tmp_path / "line.parquet"
    hostile.write_bytes(data[:at] + b"a" * (10 << 20) + b"\n" + data[at:])
    walked = 0
    byte = parquet_pages._Reader.byte

    def counted(reader: parquet_pages._Reader) -> int:
        nonlocal walked
        walked += 1
        return byte(reader)

    monkeypatch.setattr(parquet_pages._Reader, "byte", counted)
    with deadline(600):
        assert main(["res", str(hostile)]) == 1
    err = capsys.readouterr().err.strip()
    assert re.fullmatch(r"ERROR: \S*line\.parquet: not a readable Parquet file \(.*\)", err)
    assert walked < 1 << 17  # bytes read one at a time, footer and page headers


def test_a_parquet_result_loads_under_a_bound_its_arrays_fit(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """The bound added each chunk's uncompressed pages to its decoded values, so a plain
    float column counted twice: a result was refused under a bound twice its arrays, one
    the same result as .npz loads under."""
    pq = pytest.importorskip("pyarrow.parquet")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    decoded = pq.read_table(saved).nbytes
    bound = max(saved.stat().st_size, decoded + decoded // 4)
    with input_limits(max_bytes=bound):
        assert load_result(saved) == results["ape"]


def _with_footer(path: Path, source: Path, told: bytes, lie: bytes) -> Path:
    """Write ``source`` to ``path`` with the first ``told`` in its footer said as ``lie``."""
    data = source.read_bytes()
    footer_at = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    footer = data[footer_at:-8]
    assert told in footer
    footer = footer.replace(told, lie, 1)
    path.write_bytes(data[:footer_at] + footer + len(footer).to_bytes(4, "little") + b"PAR1")
    return path


def test_a_parquet_whose_size_statistics_are_damaged_is_one_error_not_an_abort(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """pyarrow 26 aborts the process (SIGABRT: -6 here, 134 in a shell; no ERROR line)
    building a column chunk's metadata (``row_group(i).column(j)``) whose definition
    level histogram holds 3 counts for 2 levels (apache/arrow#45283); the bound read its
    counts there, so such a file ended the process (09e6037 took the bound out for it)."""
    pq = pytest.importorskip("pyarrow.parquet")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    rows = pq.read_metadata(saved).num_rows
    assert rows < 64  # its zigzag varint is one byte
    # column `array`'s SizeStatistics: field 2 (no repetition levels), field 3 [0, rows]
    told = bytes([0x29, 0x06, 0x19, 0x26, 0x00, 2 * rows, 0x00])
    lie = bytes([0x29, 0x06, 0x19, 0x36, 0x00, 2 * rows, 0x00, 0x00])  # [0, rows, 0]
    damaged = _with_footer(tmp_path / "damaged.parquet", saved, told, lie)
    command = [sys.executable, "-m", "robot_msgs", "res", str(damaged)]
    done = subprocess.run(  # noqa: S603 - our own interpreter and package
        command, capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert re.fullmatch(
        r"ERROR: .*damaged\.parquet: not a readable Parquet file \(Definition level "
        r"histogram size mismatch, size: 3, expected: 2\)\n",
        done.stderr,
    )


def test_a_parquet_result_whose_footer_names_an_encryption_algorithm_loads(
    results: dict[str, EvaluationResult], tmp_path: Path, table_road: str
) -> None:
    """pyarrow reads a footer naming an encryption algorithm (a plaintext footer) without
    a key, and its columns here are plain; the bound had pyarrow write that footer again
    (``write_metadata_file``), which goes through an encryptor it does not have: the
    process died (SIGSEGV: -11 here, 139 in a shell), where the result loaded before."""
    if table_road == "general":
        pytest.skip("the table readers' road is no part of reading a Parquet result")
    pytest.importorskip("pyarrow")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    data = saved.read_bytes()
    footer_at = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    assert data[-9] == 0  # the footer's stop byte, after field 7 (column_orders)
    # field 8, encryption_algorithm: a union holding AES_GCM_V1 (field 1), an empty struct
    footer = data[footer_at:-9] + b"\x1c\x1c\x00\x00\x00"
    plaintext = tmp_path / "plaintext.parquet"
    plaintext.write_bytes(data[:footer_at] + footer + len(footer).to_bytes(4, "little") + b"PAR1")
    command = [sys.executable, "-m", "robot_msgs", "res", str(plaintext)]
    done = subprocess.run(  # noqa: S603 - our own interpreter and package
        command, capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert load_result(plaintext) == results["ape"]


def test_a_parquet_footer_of_thousands_of_row_groups_is_refused_at_its_first_mib(
    results: dict[str, EvaluationResult], tmp_path: Path, table_road: str
) -> None:
    """A result's row is one array, so its row groups are at most its arrays (100 for an rpg
    result). The footer was read under the page headers' 16 MiB, one byte at a time: a
    12 MB file of 20,000 row groups was walked 23 s before the bound refused it."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    if table_road == "general":
        pytest.skip("the table readers' road is no part of reading a Parquet result")
    data = save_result(tmp_path / "r.parquet", results["ape"]).read_bytes()
    meta = pq.read_metadata(pa.BufferReader(data))
    for _ in range(12):  # its row group 4096 times, each chunk at the file's own pages
        meta.append_row_groups(meta)
    sink = pa.BufferOutputStream()
    meta.write_metadata_file(sink)  # "PAR1", the footer, its length, "PAR1"
    groups = tmp_path / "groups.parquet"
    footer_at = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    groups.write_bytes(data[:footer_at] + sink.getvalue().to_pybytes()[4:])
    assert pq.read_metadata(groups).num_row_groups == 4096
    with pytest.raises(
        FormatError,
        match=r"groups\.parquet: not a readable Parquet file \(Expected Thrift structs of at "
        r"most 1048576 bytes in all, got more\)",
    ):
        load_result(groups)


_FUZZ_CHILD = """
import random, sys
from pathlib import Path
from robot_msgs.errors import RobotMsgsError
from robot_msgs.io.result_files import load_result
from robot_msgs.limits import input_limits
from tests.hostile import deadline

source, case = Path(sys.argv[1]), Path(sys.argv[2])
data = source.read_bytes()
footer_at = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
columns_end = data.rindex(b"robot_msgs.json")  # then the footer's key-value metadata
for k in range(int(sys.argv[3])):
    rnd, changed = random.Random(k), bytearray(data)
    if k % 4 == 3:  # cut: the end, or a piece of the footer
        at = rnd.randrange(len(data))
        changed = changed[:at] if at < footer_at else changed[:footer_at] + changed[at:]
    else:  # bytes set or bits flipped: in the footer's schema and columns (k % 4 < 2), anywhere
        for _ in range(rnd.choice([1, 1, 2, 4, 8])):
            i = rnd.randrange(footer_at, columns_end) if k % 4 < 2 else rnd.randrange(len(data))
            changed[i] = rnd.randrange(256) if k % 4 != 1 else changed[i] ^ 1 << rnd.randrange(8)
    case.write_bytes(changed)
    print(k, end=" ", flush=True)
    try:
        with input_limits(max_bytes=64 << 20):
            load_result(case)
        print("loaded", flush=True)
    except RobotMsgsError:  # the CLI's one ERROR line
        print("refused", flush=True)
"""


def test_a_parquet_result_with_bytes_changed_or_cut_loads_or_is_refused_never_aborts(
    results: dict[str, EvaluationResult], tmp_path: Path, table_road: str
) -> None:
    """Any change to a result's bytes ends in the result or our error: never a traceback,
    never the process ended by pyarrow (SIGABRT). The cases run in a process of their
    own, so an abort is its exit status: 2 of these 700 cases (9 of 3000) aborted with
    the bound 09e6037 took out (size statistics damaged, as in the test above)."""
    pytest.importorskip("pyarrow")
    if table_road == "general":
        pytest.skip("the table readers' road is no part of reading a Parquet result")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    cases = 700
    command = [sys.executable, "-c", _FUZZ_CHILD, str(saved), str(tmp_path / "case.parquet")]
    done = subprocess.run(  # noqa: S603 - our own interpreter and package
        [*command, str(cases)], capture_output=True, text=True, timeout=600, check=False
    )
    last = done.stdout.splitlines()[-1:]
    assert done.returncode == 0, f"case {last}: exit {done.returncode}\n{done.stderr[-2000:]}"
    ends = [line.split()[1] for line in done.stdout.splitlines()]
    assert len(ends) == cases
    assert 0 < ends.count("loaded") < ends.count("refused")


@pytest.mark.parametrize(
    "options",
    [
        {"data_page_version": "2.0"},
        {"use_dictionary": False, "compression": "none", "write_statistics": False},
        {"row_group_size": 5, "data_page_size": 1024, "compression": "gzip"},
        {"write_page_index": True, "write_page_checksum": True},
    ],
    ids=["page-v2", "plain", "row-groups", "page-index"],
)
def test_a_parquet_result_written_with_other_options_loads_back_equal(
    results: dict[str, EvaluationResult], tmp_path: Path, options: dict[str, object]
) -> None:
    """The bound walks every page of every row group: other writers' layouts load."""
    pq = pytest.importorskip("pyarrow.parquet")
    saved = save_result(tmp_path / "r.parquet", results["rpe"])
    other = tmp_path / "other.parquet"
    pq.write_table(pq.read_table(saved), other, **options)
    with input_limits(max_bytes=4 * saved.stat().st_size):
        assert load_result(other) == results["rpe"]


def test_a_parquet_result_said_written_by_old_parquet_mr_loads_back_equal(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """Its chunks are walked 100 bytes past their ends (PARQUET-816), into the next chunk's
    pages or the footer: the walk reads a page header there or stops at the chunk's end."""
    pq = pytest.importorskip("pyarrow.parquet")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    writer = pq.read_metadata(saved).created_by.encode()
    old = b"parquet-mr version 1.2.8"
    assert len(writer) < 128  # its length is one byte
    told, lie = bytes([len(writer)]) + writer, bytes([len(old)]) + old
    old_file = _with_footer(tmp_path / "old.parquet", saved, told, lie)
    assert pq.read_metadata(old_file).created_by == old.decode()
    assert load_result(old_file) == results["ape"]


@pytest.mark.parametrize(
    ("dtype", "cells", "said"),
    [
        ("|i1", {"integers": 1000}, r"value 1000 at 0 does not fit the array's dtype \|i1"),
        ("|u1", {"integers": -1}, r"value -1 at 0 does not fit the array's dtype \|u1"),
        ("|b1", {"integers": 5}, r"value 5 at 0 does not fit the array's dtype \|b1"),
        ("<i8", {"integers": None}, r"expected the values of a <i8 array, got a null among them"),
        ("<f4", {"floats": 1e300}, r"value 1e\+300 at 0 does not fit the array's dtype <f4"),
        ("<f4", {"floats": 0.1}, r"value 0\.1 at 0 does not fit the array's dtype <f4"),
    ],
)
def test_a_parquet_value_its_dtype_cannot_hold_is_refused(
    results: dict[str, EvaluationResult],
    tmp_path: Path,
    dtype: str,
    cells: dict[str, object],
    said: str,
) -> None:
    """A cast wrapped 1000 to -24 in an |i1 array, made 5 True and 1e300 inf (a warning)."""
    pytest.importorskip("pyarrow")
    saved = save_result(tmp_path / "r.parquet", results["ape"])
    (column, value) = next(iter(cells.items()))
    pq = pytest.importorskip("pyarrow.parquet")
    rows = pq.read_table(saved).to_pylist()
    row = next(k for k, r in enumerate(rows) if r[column] is not None and r[column])
    n = len(rows[row][column])
    bad = _parquet_with_row(
        tmp_path / "bad.parquet", saved, row, dtype=dtype, **{column: [value] * n}
    )
    with pytest.raises(FormatError, match=rf"bad\.parquet: array {row}: `{column}`: {said}"):
        load_result(bad)


def test_a_parquet_result_of_narrow_dtypes_loads_its_exact_values(tmp_path: Path) -> None:
    """The writer's widened values narrow back unchanged: uint64's top bit, float32's 0.1."""
    pytest.importorskip("pyarrow")
    from robot_msgs.io.result_files import _cast

    top = np.array([-1, 2**63 - 1], dtype=np.int64)  # how the writer stores uint64 bits
    assert _cast(top, np.dtype("<u8"), "x").tolist() == [2**64 - 1, 2**63 - 1]
    tenth = np.array([np.float32(0.1), np.nan, -np.inf], dtype=np.float64)
    cast = _cast(tenth, np.dtype("<f4"), "x")
    assert cast.dtype == np.float32
    assert cast[0] == np.float32(0.1)
    assert np.isnan(cast[1])
    assert cast[2] == -np.inf


@pytest.mark.parametrize(
    ("text", "kind"),
    [("[]", "array"), ("null", "null"), ('"x"', "string"), ("1e5", "number"), ("true", "boolean")],
)
def test_a_json_document_that_is_no_object_is_named_in_jsons_words(
    tmp_path: Path, text: str, kind: str
) -> None:
    """It said "got a JSON NoneType", "a JSON str", "a JSON list": Python's names."""
    path = tmp_path / "odd.json"
    path.write_text(text)
    said = rf"odd\.json: expected a saved compare/EvaluationResult, got a JSON {kind}$"
    with pytest.raises(FormatError, match=said):
        load_result(path)


@pytest.mark.parametrize(
    ("encoding", "named"),
    [
        ("utf-16", "UTF-16"),
        ("utf-16-le", "UTF-16LE"),
        ("utf-16-be", "UTF-16BE"),
        ("utf-32", "UTF-32"),
    ],
)
def test_a_result_saved_as_utf16_says_so(
    results: dict[str, EvaluationResult], tmp_path: Path, encoding: str, named: str
) -> None:
    """A result re-encoded as UTF-16 (PowerShell's >) was refused with msgspec's words and
    its first bytes: "Expected JSON text for EvaluationResult, got '\\xff\\xfe{\\x00...'"."""
    text = save_result(tmp_path / "r.json", results["ape"]).read_text(encoding="utf-8")
    path = tmp_path / "wide.json"
    path.write_bytes(text.encode(encoding))
    said = rf"wide\.json: the file is {named} text, not UTF-8; save it as UTF-8 \(e\.g\. iconv -f {named} -t UTF-8\)$"
    with pytest.raises(FormatError, match=said):
        load_result(path)


def test_a_key_given_twice_in_a_saved_result_is_refused_naming_it(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """{"rms": 1, "rms": 2} in a saved result's statistics: msgspec kept the last in silence."""
    text = save_result(tmp_path / "r.json", results["ape"]).read_bytes()
    twice = tmp_path / "twice.json"
    twice.write_bytes(text.replace(b'"rms":', b'"rms":1.0,"rms":', 1))
    with pytest.raises(FormatError, match=r"twice\.json: key 'rms' given twice in one object"):
        load_result(twice)


@pytest.mark.parametrize("number", [b"1e99999", b"-1e400"])
def test_a_number_beyond_float64_in_a_saved_result_names_the_field(
    results: dict[str, EvaluationResult], tmp_path: Path, number: bytes
) -> None:
    """It was said by msgspec's path of the parsed text, `$[...][...][0][...][...]`."""
    text = save_result(tmp_path / "r.json", results["ape"]).read_bytes()
    start = text.index(b'"rms":') + len(b'"rms":')
    beyond = tmp_path / "beyond.json"
    beyond.write_bytes(text[:start] + number + text[text.index(b",", start) :])
    said = r"beyond\.json: .*float64's range.* - at `EvaluationResult\.comparison\.signals\[0\]\.stats\.rms`"
    with pytest.raises(FormatError, match=said):
        load_result(beyond)


def _with_skeleton(path: Path, out: Path, change: Callable[[str], str]) -> Path:
    """Write the saved result ``path`` (.npz or Parquet) to ``out``, its skeleton changed."""
    if path.suffix == ".npz":
        return _npz_with_skeleton(path, out, change)
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(path)
    text = table.schema.metadata[b"robot_msgs.json"].decode()
    pq.write_table(table.replace_schema_metadata({"robot_msgs.json": change(text)}), out)
    return out


def _saved_with_iae(result: EvaluationResult, tmp_path: Path, suffix: str, iae: str) -> Path:
    """Save ``result`` as ``suffix`` (Parquet needs pyarrow), its skeleton's iae as ``iae``."""
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")  # the core-only job (Python 3.10) has none

    def change(text: str) -> str:
        found = re.search(r'"iae":([^,}]+)', text)
        assert found is not None
        return text[: found.start(1)] + iae + text[found.end(1) :]

    path = save_result(tmp_path / f"r{suffix}", result)
    return _with_skeleton(path, tmp_path / f"bad{suffix}", change)


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
@pytest.mark.parametrize("number", ["1e99999", "-1e400"])
def test_a_number_beyond_float64_in_a_skeleton_names_the_field(
    results: dict[str, EvaluationResult], tmp_path: Path, suffix: str, number: str
) -> None:
    """json read 1e99999 in a .npz or Parquet result as inf and iae loaded as inf in
    silence, where the JSON form refuses it naming the field."""
    bad = _saved_with_iae(results["ape"], tmp_path, suffix, number)
    said = (
        rf"bad{re.escape(suffix)}: robot_msgs\.json: Expected a number within float64's range "
        r"\(about 1\.8e308 either way\), got one beyond it - at "
        r"`EvaluationResult\.comparison\.signals\[0\]\.stats\.iae`$"
    )
    with pytest.raises(FormatError, match=said):
        load_result(bad)


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_constant_json_has_not_in_a_skeleton_is_refused(
    results: dict[str, EvaluationResult], tmp_path: Path, suffix: str, constant: str
) -> None:
    """json read NaN and Infinity, which the writer never writes and the JSON form refuses."""
    bad = _saved_with_iae(results["ape"], tmp_path, suffix, constant)
    said = rf"bad{re.escape(suffix)}: robot_msgs\.json: expected JSON, got {constant},"
    with pytest.raises(FormatError, match=said):
        load_result(bad)


def test_a_key_of_dollars_in_a_file_of_an_earlier_release_reads_as_written(
    tmp_path: Path,
) -> None:
    """Release 3ddaaa9 (and 9745f2d) wrote every key as it was: its parameter `$$array`
    was read back as `$array`, one `$` taken off that no writer had added."""
    old = Path(__file__).parents[1] / "data" / "saved_3ddaaa9" / "ape_offset_auto.npz"

    def with_parameter(text: str) -> str:
        assert '"parameters":{"relation":"angle_deg"}' in text
        assert "$escaped" not in text
        return text.replace('"relation":"angle_deg"', '"relation":"angle_deg","$$array":1')

    edited = _npz_with_skeleton(old, tmp_path / "old.npz", with_parameter)
    parameters = dict(load_result(edited).comparison.parameters)
    assert parameters == {"relation": "angle_deg", "$$array": 1}


def test_only_a_skeleton_with_escaped_keys_says_so(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """A result without such keys is saved as earlier releases saved it."""
    result = results["ape"]
    odd = result.replace(comparison=result.comparison.replace(parameters={"$array": 0}))
    with np.load(save_result(tmp_path / "odd.npz", odd)) as archive:
        text = archive["robot_msgs.json"].tobytes().decode()
    assert text.startswith('{"$escaped":true,"_type"')
    assert '"parameters":{"$$array":0}' in text
    with np.load(save_result(tmp_path / "plain.npz", result)) as archive:
        assert "$escaped" not in archive["robot_msgs.json"].tobytes().decode()


def test_an_escape_marker_other_than_true_is_refused(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    path = save_result(tmp_path / "r.npz", results["ape"])
    bad = _npz_with_skeleton(path, tmp_path / "bad.npz", lambda t: '{"$escaped":1,' + t[1:])
    with pytest.raises(FormatError, match=r"bad\.npz: `\$escaped`: expected true, got 1"):
        load_result(bad)


@pytest.mark.parametrize("suffix", [".json", ".npz", ".parquet"])
@pytest.mark.parametrize("bom", ["", "\ufeff"], ids=["no BOM", "BOM"])
def test_a_result_reads_with_or_without_a_byte_order_mark(
    results: dict[str, EvaluationResult], tmp_path: Path, suffix: str, bom: str
) -> None:
    """One rule on every JSON road (RFC 8259 §8.1): a .npz or Parquet skeleton with the
    mark was refused ('Unexpected UTF-8 BOM') where the JSON form read it."""
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    result = results["ape"]
    path = save_result(tmp_path / f"r{suffix}", result)
    if suffix == ".json":
        marked = tmp_path / "marked.json"
        marked.write_bytes(bom.encode() + path.read_bytes())
    else:
        marked = _with_skeleton(path, tmp_path / f"marked{suffix}", lambda text: bom + text)
    assert load_result(marked) == result


def test_a_result_with_two_byte_order_marks_is_refused(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """One mark is ignored; a second is text before the JSON."""
    path = save_result(tmp_path / "r.json", results["ape"])
    marked = tmp_path / "marked.json"
    marked.write_bytes(b"\xef\xbb\xbf" * 2 + path.read_bytes())
    with pytest.raises(FormatError, match=r"marked\.json: not a saved result"):
        load_result(marked)


def test_an_escaped_lone_surrogate_in_a_saved_result_names_the_field(
    results: dict[str, EvaluationResult], tmp_path: Path
) -> None:
    """A frame id "\\ud800" (half a UTF-16 pair) was said by msgspec's 'unexpected end of
    escaped utf-16 surrogate pair (byte 122653)', naming no field."""
    text = save_result(tmp_path / "r.json", results["ape"]).read_bytes()
    lone = tmp_path / "lone.json"
    lone.write_bytes(text.replace(b'"frame_id":"', b'"frame_id":"\\ud800', 1))
    said = (
        r"lone\.json: Expected a string UTF-8 can encode, got '\\ud800' holding a lone "
        r"surrogate \(\\ud800, half of a UTF-16 pair\) - at `EvaluationResult\.reference\.frame_id`$"
    )
    with pytest.raises(FormatError, match=said):
        load_result(lone)


def test_the_result_class_itself_is_refused_as_a_class(tmp_path: Path) -> None:
    """``save_result(path, EvaluationResult)`` (the class, not a result) was refused as
    "Expected an EvaluationResult to save, got compare/EvaluationResult": its class
    attribute read as what was given."""
    with pytest.raises(
        ValidationError,
        match=r"Expected an EvaluationResult to save, got the class EvaluationResult: ",
    ):
        save_result(tmp_path / "t.json", EvaluationResult)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix", [".json", ".npz", ".parquet"])
def test_a_result_whose_matched_stamps_repeat_loads_back_equal(tmp_path: Path, suffix: str) -> None:
    """A result of files read with ``repeated_stamps="all"`` holds trajectories whose stamps
    repeat (x = 0, 1, 3, 4 m at 0, 1, 1, 2 s): save_result wrote it and load_result refused
    the file ("Expected strictly increasing stamps (previous 1.0), got float 1.0 - at
    `EvaluationResult.reference.stamps_s[2]`"); then the writer refused it. Its
    trajectories now say their stamps may repeat (``stamps_repeat``): it loads back equal.
    By hand: evo pairs both rows of stamp 1 with the last, x = 3 m: APE errors 0, 2, 0, 0 m,
    rms 1 m."""
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / "t.tum"
    path.write_text("".join(f"{t} {x} 0 0 0 0 0 1\n" for t, x in [(0, 0), (1, 1), (1, 3), (2, 4)]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        traj = read_trajectory(path, repeated_stamps="all")
        result = ape(traj, traj)
    assert result.reference.stamps_s.tolist() == [0.0, 1.0, 1.0, 2.0]
    assert result.stats["translation"].rms == 1.0
    loaded = load_result(save_result(tmp_path / f"r{suffix}", result))
    assert loaded == result
    assert loaded.reference.stamps_repeat
    assert loaded.reference.positions_xyz[:, 0].tolist() == [0.0, 3.0, 3.0, 4.0]
    # Read once a stamp, the same files round-trip.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        once = ape(read_trajectory(path, repeated_stamps="last"), read_trajectory(path))
    assert load_result(save_result(tmp_path / f"once{suffix}", once)) == once
