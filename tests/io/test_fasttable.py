"""The compiled fast path of the text tables against the general path and Python's float.

The general path (NumPy's ``loadtxt`` over the normalised text) is the rule; the fast
path may decline any input, but what it reads must be bit for bit what the general path
reads, with the same file line for every row.
"""

from __future__ import annotations

import struct
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from robot_msgs.errors import FormatError
from robot_msgs.io import table as table_module
from robot_msgs.io.table import _parse_fast, _parse_general, parse_table, read_table

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.typing import Float64Array

pytestmark = pytest.mark.skipif(
    table_module._fasttable is None,
    reason="robot_msgs.io._fasttable is not built (no C compiler at install); "
    "every table is read by the general path",
)


@pytest.fixture(scope="module", autouse=True)
def table_road() -> str:
    """These tests compare the roads themselves: no run with the compiled one hidden."""
    return "fast"


# Numbers as files write them: fixed, exponent, shortest repr, integers (EuRoC's
# nanoseconds beyond 2^53 and 2^63), signs, leading and trailing zeros, bare points,
# more digits than a uint64 holds, and exponents past the double range.
_NUMBER_FORMS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(-1e6, 1e6).map(lambda x: f"{x:.9f}"),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:.6e}"),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:.17E}"),
    st.integers(-(2**70), 2**70).map(str),
    st.integers(0, 10**6).map(lambda n: f"+{n:08d}"),
    st.sampled_from(
        [
            "0", "-0", "-0.0", "+0.", ".5", "5.", "-.25", "1e5", "1E+05", "1e-5", "2.5e-0",
            "9007199254740993", "9007199254740992.5", "0.1", "1.7976931348623157e308",
            "1.8e308", "4.9e-324", "2e-324", "2.2250738585072011e-308",
            "1403715524907143168", "9223372036854775807", "9223372036854775808",
            "123456789012345678901234567890", "0.000000000000000000000000000001",
            "1e400", "-1e-400", "1e99999999999", "0e99999999999", "00000000000000000000001.5",
        ]
    ),
)  # fmt: skip
# Fields no plain number reader takes, which the fast path must decline.
_ODD_FIELDS = st.sampled_from(
    ["nan", "-inf", "Infinity", "1e", ".", "-", "+", "1_0", "0x10", "1.5x", "é", "1,5e", "--1",
     "1\v2", "nan\x0c", "x\x1fy"]
)  # fmt: skip
_HEADERS = st.sampled_from(
    ["", "timestamp,x,y,z", "t x y", "nan x", "# t x\n", "_t x", "nan\v", "t\x1fx"]
)


@st.composite
def _tables(draw: st.DrawFn) -> tuple[str, int, bool, bool]:
    """A table's text, its column count and the extra_columns and header flags.

    Most tables are well formed (so the fast path has something to read); about one in
    three carries one flaw somewhere: an odd field, a row too short or too long, an
    empty comma field, a trailing comma, a lone CR, a NUL, a byte-order mark.
    """
    ncols = draw(st.integers(1, 4))
    extra = draw(st.booleans())
    header = draw(st.booleans())
    nrows = draw(st.integers(0, 6))
    flawed = draw(st.integers(0, 2)) == 0
    flaw_row = draw(st.integers(0, max(nrows - 1, 0)))
    rows = []
    for r in range(nrows):
        flaw = flawed and r == flaw_row
        width = ncols + (draw(st.sampled_from([0, 1, -1])) if flaw else 0)
        width += draw(st.integers(0, 2)) if extra else 0
        fields = [draw(_NUMBER_FORMS) for _ in range(max(width, 0))]
        if flaw and fields:
            fields[draw(st.integers(0, len(fields) - 1))] = draw(_ODD_FIELDS)
        line = draw(st.sampled_from(["", " ", "\t"]))
        for i, field in enumerate(fields):
            if i:
                line += draw(st.sampled_from([" ", "  ", "\t", ",", ", ", " , "]))
            line += field
        endings = ["", " ", " # note", "#c,,", "\r"]
        line += draw(st.sampled_from([*endings, ",", ",,", "\r1", "\x00"] if flaw else endings))
        rows.append(line)
    ends = draw(st.sampled_from(["\n", "\r\n"]))
    first = draw(_HEADERS if header or flawed else st.sampled_from(["", "# t x"]))
    text = first + ends + ends.join(rows) + draw(st.sampled_from(["", ends]))
    if flawed and draw(st.booleans()):
        text = draw(st.sampled_from(["\ufeff", "\x00", "1\r2 ", "# é\n", ","])) + text
    return text, ncols, extra, header


def _bits(values: Float64Array) -> list[int]:
    bits: list[int] = np.ascontiguousarray(values, dtype=np.float64).view(np.int64).ravel().tolist()
    return bits


def _general(
    text: str, ncols: int, *, extra: bool, header: bool, widths: tuple[int, ...] | None = None
) -> table_module.Table:
    columns = tuple(f"c{i}" for i in range(ncols))
    return _parse_general(
        text, source="t", columns=columns, widths=widths or (ncols,), extra_columns=extra,
        header=header,
    )  # fmt: skip


def _fast(
    text: str | bytes,
    ncols: int,
    *,
    extra: bool = False,
    header: bool = False,
    widths: tuple[int, ...] | None = None,
) -> table_module.Table | None:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return _parse_fast(
        data, source="t", widths=widths or (ncols,), extra_columns=extra, header=header
    )


def _split(ncols: int, seed: int) -> tuple[int, ...]:
    """A split of ``ncols`` columns into groups, from ``seed`` (one group for seed 0)."""
    if seed == 0:
        return (ncols,)
    cuts = sorted({c for c in range(1, ncols) if (seed >> c) & 1})
    return tuple(np.diff([0, *cuts, ncols]).tolist())


@settings(max_examples=600, deadline=None)
@given(_tables(), st.integers(0, 15))
@example(("1 2\n3 4\n", 2, False, False), 0)
@example(("timestamp,x\n1,2\r\n", 2, False, True), 0)
@example(("1 2 3 4\n5 6 7 8\n", 4, False, False), 0b1010)
@example(("nan\v\n1", 1, False, True), 0)  # the general path splits at \v: a NaN row
def test_fast_path_reads_what_the_general_path_reads(
    case: tuple[str, int, bool, bool], split_seed: int
) -> None:
    text, ncols, extra, header = case
    widths = _split(ncols, split_seed)
    fast = _fast(text, ncols, extra=extra, header=header, widths=widths)
    try:
        general = _general(text, ncols, extra=extra, header=header, widths=widths)
    except FormatError:
        assert fast is None, "the fast path read a table the general path refuses"
        return
    if fast is None:
        return
    assert [p.shape for p in fast.parts] == [p.shape for p in general.parts]
    assert [_bits(p) for p in fast.parts] == [_bits(p) for p in general.parts]
    assert _bits(fast.values) == _bits(general.values)
    rows = np.arange(fast.values.shape[0])
    assert fast.line_numbers(rows) == general.line_numbers(rows)


@pytest.mark.parametrize(
    ("text", "ncols", "extra", "header"),
    [
        ("# t x y z qx qy qz qw\n" + "1.5 0.1 -2 3e-3 0 0 0 1\n" * 3, 8, False, False),
        ("1.0e+00 0 0 1.5\r\n-0.5 1 2 3.25\r\n", 4, False, False),
        ("#timestamp,p_x\n1403715524907143168,1.5,9,9\n", 2, True, False),
        ("timestamp,p_x\n1403715524907143168,1.5\n", 2, False, True),
        ("1\t2\n\n  # a comment é\n3 , 4", 2, False, False),
    ],
)
def test_fast_path_takes_plain_tables(text: str, ncols: int, extra: bool, header: bool) -> None:
    fast = _fast(text, ncols, extra=extra, header=header)
    assert fast is not None
    general = _general(text, ncols, extra=extra, header=header)
    assert _bits(fast.values) == _bits(general.values)


@pytest.mark.parametrize(
    "text",
    [
        "1 nan\n",  # NaN rows are the general path's and the cleaning rules'
        "1 2\n3\n",  # a short row: the general path names the line
        "1,,2\n",  # an empty comma field
        "1 2,\n",
        "1 2é\n",  # non-ASCII outside a comment
        "1 2\r3 4\n",  # a lone carriage return
        "1 2\x003 4\n",  # a NUL byte
        "# only comments\n\n",  # no rows: the general path words the error
    ],
)
def test_fast_path_declines_what_it_does_not_take(text: str) -> None:
    fast = _fast(text, 2)
    assert fast is None


@pytest.mark.parametrize("text", ["nan\v\n1\n", "inf\x0c\n1\n", "t\x1fx\n1\n"])
def test_a_header_word_with_a_control_byte_is_declined(text: str) -> None:
    """The general path splits fields at \\v, \\f, \\x1c-\\x1f ("nan\\v" is data to it)."""
    assert _fast(text, 1, header=True) is None


@settings(max_examples=300, deadline=None)
@given(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["%r", "%.17g", "%.16e", "%.3f", "%.25f"]),
)
@example(2.0**53 + 2, "%.0f")
@example(5e-324, "%.17g")
@example(2.2250738585072009e-308, "%.17g")
def test_numbers_are_correctly_rounded(value: float, form: str) -> None:
    """Each number equals Python's ``float`` of its text (the correctly rounded value)."""
    token = form % value
    fast = _fast(token, 1)
    assert fast is not None
    assert struct.pack("<d", fast.values[0, 0]) == struct.pack("<d", float(token))


@settings(max_examples=400, deadline=None)
@given(
    st.integers(1, 10**19 - 1),
    st.integers(-27, 27),
    st.integers(0, 19),
    st.booleans(),
)
@example(9007199254740993, 0, 0, False)  # 2^53 + 1: halfway, to even
@example(1403636579763555527, -9, 9, False)  # a nanosecond stamp
@example(18446744073709551615 // 2, 27, 0, True)
def test_long_mantissas_are_correctly_rounded(
    mantissa: int, exponent: int, point: int, negative: bool
) -> None:
    """Up to 19 digits beyond 2^53 with |e| <= 27: the 128-bit integer road, as float()."""
    digits = str(mantissa)
    point = min(point, len(digits))
    token = (
        ("-" if negative else "")
        + digits[: len(digits) - point]
        + "."
        + digits[len(digits) - point :]
    )
    token += f"e{exponent}"
    fast = _fast(token, 1)
    assert fast is not None
    assert struct.pack("<d", fast.values[0, 0]) == struct.pack("<d", float(token))


def test_halfway_integers_round_to_even() -> None:
    """Integers between doubles: 2^53 + 1 rounds down to even, 2^53 + 3 up, as float()."""
    tokens = ["9007199254740993", "9007199254740995", "-9223372036854775807"]
    fast = _fast(" ".join(tokens), 3)
    assert fast is not None
    assert fast.values[0].tolist() == [2.0**53, 2.0**53 + 4, -(2.0**63)]


def test_both_paths_read_a_file_the_same(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    values = rng.normal(scale=100.0, size=(500, 8))
    path = tmp_path / "t.tum"
    np.savetxt(path, values, fmt="%.9f", header="t x y z qx qy qz qw")
    columns = tuple("txyzabcd")
    fast = read_table(path, columns=columns)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "_fasttable", None)
        general = read_table(path, columns=columns)
    assert _bits(fast.values) == _bits(general.values)
    assert fast.line_numbers(np.array([0, 499])) == [2, 501]


def test_parses_in_threads_read_what_one_thread_reads() -> None:
    """The parse runs without the GIL (two inputs at once): threads change no bit.

    Half the tokens take Python's own conversion (more digits than the 128-bit road holds),
    which takes the GIL back inside the parse; the threads interleave on them.
    """
    rng = np.random.default_rng(7)
    values = rng.normal(scale=100.0, size=(20_000, 4))
    long = [f"{v:.24e}" for v in values[:, 0]]  # 25 digits: the slow conversion
    lines = [
        f"{a} {b:.9f} {float(c)!r} {d:.6e}" for a, (_, b, c, d) in zip(long, values, strict=True)
    ]
    data = "\n".join(lines).encode()

    def parse() -> Float64Array:
        fast = _fasttable_parse(data, 4)
        assert fast is not None
        return fast

    alone = parse()
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda _: parse(), range(8)))
    assert all(_bits(t) == _bits(alone) for t in together)
    assert alone[:, 0].tolist() == [float(t) for t in long]


def _fasttable_parse(data: bytes, ncols: int) -> Float64Array | None:
    fasttable = table_module._fasttable
    assert fasttable is not None
    rows = fasttable.count_lines(data)
    parts, lines = (np.empty((rows, ncols)),), np.empty(rows, dtype=np.int64)
    got = fasttable.parse(data, False, False, parts, lines)
    return None if got < 0 else parts[0][:got]


def test_a_byte_order_mark_is_dropped_before_the_fast_path(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"\xef\xbb\xbf1 2\n3 4\n")
    assert table_module._fasttable is not None
    parts, lines = (np.empty((3, 2)),), np.empty(3, dtype=np.int64)
    assert table_module._fasttable.parse(path.read_bytes(), False, False, parts, lines) == -1
    assert read_table(path, columns=("a", "b")).values.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_count_lines_bounds_the_rows() -> None:
    fasttable = table_module._fasttable
    assert fasttable is not None
    for b in (b"", b"1", b"1\n", b"\n\n2"):
        assert fasttable.count_lines(b) == b.count(b"\n") + 1


@settings(max_examples=300, deadline=None)
@given(
    text=st.binary(max_size=300),
    lines=st.integers(0, 9000),
    high=st.one_of(st.none(), st.integers(0, 9300)),
)
def test_count_lines_counts_line_ends_and_finds_a_byte_past_ascii(
    text: bytes, lines: int, high: int | None
) -> None:
    """``count_lines`` against ``bytes.count`` and ``isascii``, at any offset and length.

    Up to 9000 line ends after the drawn bytes: the 16-byte loop sums its byte lanes
    every 255 blocks (4080 bytes), so long runs of line ends cross that many times.
    """
    fasttable = table_module._fasttable
    assert fasttable is not None
    data = bytearray(text + b"\n" * lines)
    if high is not None and data:
        data[high % len(data)] = 0x80 | data[high % len(data)]
    for piece in (bytes(data), data, memoryview(data)[1:]):
        expected = bytes(piece).count(b"\n") + 1
        assert fasttable.count_lines(piece) == expected
        assert fasttable.count_lines(piece, True) == (expected if bytes(piece).isascii() else -1)


def test_parse_refuses_buffers_too_small() -> None:
    fasttable = table_module._fasttable
    assert fasttable is not None
    lines = np.empty(2, dtype=np.int64)
    with pytest.raises(ValueError, match="too small"):
        fasttable.parse(b"1 2\n3 4\n", False, False, (np.empty((1, 2)),), lines)


@pytest.mark.parametrize(
    ("parts", "match"),
    [
        ((), "expected 1 to 64 arrays"),
        ((np.empty((2, 2), dtype=np.float32),), "expected float64 arrays"),
        ((np.empty((2, 4))[:, ::2],), "contiguous"),
        (tuple(np.empty((2, 9)) for _ in range(8)), "more than 64 columns"),
    ],
)
def test_parse_refuses_parts_it_cannot_write(parts: tuple[np.ndarray, ...], match: str) -> None:
    fasttable = table_module._fasttable
    assert fasttable is not None
    with pytest.raises((ValueError, BufferError), match=match):
        fasttable.parse(b"1 2\n", False, False, parts, np.empty(2, dtype=np.int64))


def test_parse_table_reads_text_utf8_cannot_encode() -> None:
    """A lone surrogate in a comment: no fast path for it, the general path reads the rows."""
    table = parse_table("# \ud800\n1 2\n", source="s", columns=("a", "b"))
    assert table.values.tolist() == [[1.0, 2.0]]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(-1e9, 1e9, allow_nan=False), min_size=2, max_size=2),
        min_size=1,
        max_size=20,
    ),
    st.binary(min_size=1, max_size=30),
)
def test_a_buffer_and_its_length_parse_as_the_bytes_they_hold(
    rows: list[list[float]], after: bytes
) -> None:
    # A reused read buffer: the text, then bytes of the next piece (any bytes, digits
    # included); the parser writes its NUL past the text and reads nothing beyond it.
    fasttable = table_module._fasttable
    assert fasttable is not None
    text = "".join(f"{a!r} {b!r}\n" for a, b in rows).encode()[:-1]  # last line unended
    buffer = bytearray(text + after)
    n = fasttable.count_lines(text)
    whole = ((np.empty((n, 2)),), np.empty(n, dtype=np.int64))
    piece = ((np.empty((n, 2)),), np.empty(n, dtype=np.int64))
    expected = fasttable.parse(text, False, False, *whole)
    assert fasttable.parse(buffer, False, False, *piece, len(text)) == expected == len(rows)
    assert _bits(piece[0][0]) == _bits(whole[0][0])
    assert piece[1].tolist() == whole[1].tolist()
    assert buffer[len(text)] == 0
    assert buffer[len(text) + 1 :] == after[1:]


def test_a_buffer_needs_a_byte_past_its_text_and_bytes_need_no_length() -> None:
    fasttable = table_module._fasttable
    assert fasttable is not None
    parts, lines = (np.empty((2, 2)),), np.empty(2, dtype=np.int64)
    with pytest.raises(ValueError, match="a byte past the text"):
        fasttable.parse(bytearray(b"1 2\n"), False, False, parts, lines, 4)
    with pytest.raises(TypeError, match="expected bytes"):
        fasttable.parse(bytearray(b"1 2\n"), False, False, parts, lines)
    with pytest.raises(BufferError, match="writable"):
        fasttable.parse(b"1 2\n", False, False, parts, lines, 3)
    assert fasttable.parse(bytearray(b"1 2\n3 4"), False, False, parts, lines, 3) == 1
