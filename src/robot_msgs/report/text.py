"""Text for the terminal: its width, the columns a text takes there, wrapping.

Every command's text output fits :data:`WIDTH` columns. A terminal prints East Asian
wide and fullwidth characters (``日``, ``Ａ``) two columns wide and a combining mark (the
accent of ``é`` written ``e`` + U+0301) on the character before it, so ``len``, which
counts code points, is not the width: here every width is a display width
(:func:`display_width`), and padding (:func:`ljust`, :func:`rjust`) and wrapping
(:func:`wrap`) count in it.
"""

from __future__ import annotations

import os
import re
import shlex
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "WIDTH",
    "counted",
    "display_width",
    "file_and_what",
    "grouped",
    "listed",
    "ljust",
    "percent",
    "rjust",
    "wrap",
]

#: Text output fits this many terminal columns.
WIDTH = 80
#: Warnings alike about this many files or more are said once (:func:`grouped`).
ALIKE = 5
#: The files such a grouped warning names.
_EXAMPLES = 3
#: Where a warning's file may end (:func:`file_and_what`).
_FILE_END = re.compile(": ")
#: The longest path a file system takes (Linux's ``PATH_MAX``; macOS's is 1024, and
#: Windows names hold no ``":"``): a longer prefix of a warning names no file.
_LONGEST_PATH = 4096

#: Nonspacing and enclosing marks and format characters (zero width joiner...): no column.
_ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf"})
#: :mod:`textwrap`'s whitespace: a line may break there (not at a no-break space).
_WHITESPACE = "\t\n\x0b\x0c\r "
_CHUNKS = re.compile(f"([{re.escape(_WHITESPACE)}]+)")
_TO_SPACE = str.maketrans(_WHITESPACE, " " * len(_WHITESPACE))


def counted(n: int, noun: str, plural: str = "") -> str:
    """Say ``n`` and its noun, singular for exactly one: the counts of every summary.

    ``plural`` where adding ``s`` is not it. WHY one place: bench said "1 runs:" and
    report "1 of 18 runs have no report", where other counts said their noun by hand.

    Examples
    --------
    >>> counted(1, "run"), counted(0, "run"), counted(2, "run record")
    ('1 run', '0 runs', '2 run records')
    >>> counted(1, "run has", "runs have"), counted(3, "run has", "runs have")
    ('1 run has', '3 runs have')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def listed(names: Sequence[str], shown: int, total: int | None = None, sep: str = ", ") -> str:
    """Name the first ``shown`` of ``names``, and say how many more there are.

    One more than ``shown`` are all named: "and 1 more" says no less than its name.
    ``total``: how many there are, where ``names`` holds only the first of them (a
    doctor's gaps are counted in an array, and only those shown are put in words).
    ``sep`` is put between names; ``"; "`` for names that hold commas (a run and its
    error), and then "; and N more" too.

    WHY: a bag topic's frames were cut at five with nothing said of the rest, "in 7
    frames (f0, f1, f2, f3, f4; ...)". WHY one place: nine messages said it by hand.

    Examples
    --------
    >>> listed(["a", "b", "c", "d"], 3), listed(["a", "b", "c", "d", "e"], 3), listed("a", 1, 4)
    ('a, b, c, d', 'a, b, c and 2 more', 'a and 3 more')
    >>> listed(["a: x, y", "b: z"], 1, 5, sep="; "), listed(["a: x, y", "b: z"], 1, sep="; ")
    ('a: x, y; and 4 more', 'a: x, y; b: z')
    """
    shown = max(shown, 0)
    n = len(names) if total is None else total
    shown += n == shown + 1 == len(names)  # the one more named, not counted
    head = sep.join(names[:shown])
    if n <= shown:
        return head
    # WHY: shown=0 said " and 2 more", an "and" after nothing.
    return f"{head}{sep.rstrip(', ')} and {n - shown} more" if head else f"{n - shown} more"


def file_and_what(text: str) -> tuple[str, str]:
    """Split a warning ``FILE: WHAT`` into the file it begins with and what it says of it.

    The file is the longest part before a ``": "`` that names a path on disk, else the
    part up to the first ``": "``; ``("", text)`` without one. WHY a path on disk: a
    folder named ``run: 1`` was named ``run`` and said to ``1: hold`` its logs, and its
    message holds ``": "`` itself (``...or meta.json: not a run``), so neither the first
    nor the last separator is the file's end in every text.

    Examples
    --------
    >>> file_and_what("a.tum:3: cut"), file_and_what("no file here")
    (('a.tum:3', 'cut'), ('', 'no file here'))
    """
    ends = [m.start() for m in _FILE_END.finditer(text)]
    if not ends:
        return "", text
    # WHY at most _LONGEST_PATH: each prefix was joined again and looked up, 9,999 of a
    # text of 10,000 ": " (a second, quadratic), where a longer one is never a path.
    longer = (i for i in reversed(ends[1:]) if i <= _LONGEST_PATH and os.path.lexists(text[:i]))
    end = next(longer, ends[0])
    return text[:end], text[end + 2 :]


def grouped(
    texts: Sequence[str], alike: int = ALIKE, *, files: Sequence[str] | None = None
) -> list[str]:
    """Say warnings that differ only in the file they begin with once, naming a few files.

    A text ``FILE: WHAT`` (:func:`file_and_what`) said of ``alike`` files
    or more becomes ``A, B, C and N more: WHAT``, where the first of them stood, said
    once; the others stay as they are, in their order. A file is counted and named once
    however many times its warning was given.

    WHY: ``report`` on a raw tree of 2,010 runs printed 1,002 warning lines, 1,000 of
    them one folder each that held a log but no estimate. WHY each file once: a warning
    given twice for its file named it twice and counted it in the ``N more``, and its
    line was said once per time (a review).

    ``files``, one per text, names the file each text begins with where the caller knows
    it (a text not beginning ``FILE: `` has none): a missing ``a: b.tum`` is not on disk
    for :func:`file_and_what` to find its end, and was named ``a``.

    Examples
    --------
    >>> said = [f"r/{k}: holds timing.csv but no estimate" for k in range(6)]
    >>> grouped(["a.tum:3: cut", *said, "b.tum:4: cut"])
    ['a.tum:3: cut', 'r/0, r/1, r/2 and 3 more: holds timing.csv but no estimate', 'b.tum:4: cut']
    >>> grouped(["a.tum: no such file", "b.tum: no such file"], alike=2)
    ['a.tum, b.tum: no such file']
    >>> grouped(["a: b.tum: gone", "c: b.tum: gone"], alike=2, files=["a: b.tum", "c: b.tum"])
    ['a: b.tum, c: b.tum: gone']
    >>> grouped(["a, b.tum: gone", "c.tum: gone"], alike=2, files=["a, b.tum", "c.tum"])
    ["'a, b.tum', c.tum: gone"]
    """
    if files is None:
        split = {text: file_and_what(text) for text in texts}
    else:
        split = {
            text: (file, text[len(file) + 2 :])
            if file and text.startswith(f"{file}: ")
            else ("", text)
            for text, file in zip(texts, files, strict=True)
        }
    of_what: dict[str, dict[str, None]] = {}  # WHAT -> its files, in order, each once
    for file, what in split.values():
        if file and what:
            of_what.setdefault(what, {})[file] = None
    out: list[str] = []
    said: set[str] = set()
    for text in texts:
        file, what = split[text]
        named = list(of_what.get(what, ())) if file and what else []
        if len(named) < alike:
            out.append(f"{_named(file)}: {what}" if ", " in file and what else text)
        elif what not in said:
            said.add(what)
            out.append(f"{listed([_named(f) for f in named], _EXAMPLES)}: {what}")
    return out


def _named(file: str) -> str:
    """Quote a file's name holding ``", "`` as a shell reads it: one name in a list of them.

    WHY: missing ``a, b.tum`` and ``c.tum`` were said ``a, b.tum, c.tum: no such file``,
    the line of three files (a newcomer's walk).
    """
    return shlex.quote(file) if ", " in file else file


def percent(share: float) -> str:
    """Say a share (0 to 1) as a whole percentage, never a share between 0 and 1 as 0% or 100%.

    Where the whole percentage would say 0%, two significant digits; below 0.01 %,
    "less than 0.01%". The same at the other end: where it would say 100% of a share
    under 1, two significant digits of what is missing (``99.5%``); above 99.99 %,
    "more than 99.99%". WHY one function: the doctor said "covers 0.25%" and the
    low-match warning "only 0.13 % ... matched", each with its own copy; the whole
    percentage is the doctor's, whose other shares (``f"{x:.0%}"``) sit in the same
    sentences; the floor is the warning's (the doctor said ``2e-05%``). WHY the top: a
    share of 0.995 was said 100%, which reads as all.

    Raises
    ------
    ValueError
        If ``share`` is not a number from 0 to 1 (NaN, infinite, negative, above 1):
        every caller passes a ratio of counts or spans, so another is a programming
        error, which said "nan%", "-0%" or "150%".

    Examples
    --------
    >>> percent(0.15), percent(0.0), percent(1 / 400), percent(1 / 788), percent(2e-7)
    ('15%', '0%', '0.25%', '0.13%', 'less than 0.01%')
    >>> percent(1.0), percent(0.995), percent(1 - 1 / 788), percent(1 - 2e-7)
    ('100%', '99.5%', '99.87%', 'more than 99.99%')
    """
    if not 0.0 <= share <= 1.0:  # NaN fails both comparisons
        msg = f"percent: a share is from 0 to 1, not {share!r}"
        raise ValueError(msg)
    share += 0.0  # WHY: -0.0 passes the check above, and was said "-0%"
    whole = f"{share:.0%}"
    if share > 0.0 and whole == "0%":
        return "less than 0.01%" if share < 1e-4 else f"{100.0 * share:.2g}%"
    if share < 1.0 and whole == "100%":
        if share > 1.0 - 1e-4:
            return "more than 99.99%"
        missing = f"{100.0 * (1.0 - share):.2g}"  # "0.5", "0.13": its decimals are said
        return f"{100.0 - float(missing):.{len(missing.partition('.')[2])}f}%"
    return whole


# C0 and C1 controls, DEL, and the characters that reorder text on screen (bidi
# embeddings, overrides and isolates, the line and paragraph separators).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def controls_escaped(text: str) -> str:
    r"""Return ``text`` with every control and reordering character written as its code.

    What a file names (a run, a topic, a unit) is shown as written but never acts on the
    terminal: no colour, title or cursor escape, no forged line, no reversed text.

    Examples
    --------
    >>> controls_escaped("a\nERROR: forged\x1b[31m"), controls_escaped("x\u202eevil")
    ('a\\x0aERROR: forged\\x1b[31m', 'x\\u202eevil')
    """

    def shown(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _UNSAFE.sub(shown, text)


def _char_width(char: str) -> int:
    import unicodedata  # noqa: PLC0415 - non-ASCII text only; evo_flags loads this at start-up

    if unicodedata.combining(char) or unicodedata.category(char) in _ZERO_WIDTH_CATEGORIES:
        return 0
    return 2 if unicodedata.east_asian_width(char) in {"W", "F"} else 1


def display_width(text: str) -> int:
    r"""Count the terminal columns ``text`` takes on one line.

    East Asian wide and fullwidth characters (``unicodedata.east_asian_width`` W or F)
    take 2, combining marks (``unicodedata.combining``), other nonspacing and enclosing
    marks and format characters take 0, every other character 1 (ambiguous ones too, as
    outside an East Asian locale).

    Examples
    --------
    >>> display_width("abc"), display_width("東京"), display_width("Ａ１")
    (3, 4, 4)
    >>> display_width("e\u0301")  # é written as e and a combining acute
    1
    """
    if text.isascii():
        return len(text)
    return sum(_char_width(c) for c in text)


def ljust(text: str, width: int) -> str:
    """Pad ``text`` with spaces on the right to ``width`` terminal columns, as ``str.ljust``.

    Examples
    --------
    >>> ljust("東京", 6) + "|", ljust("abc", 2)
    ('東京  |', 'abc')
    """
    return text + " " * (width - display_width(text))


def rjust(text: str, width: int) -> str:
    r"""Pad ``text`` with spaces on the left to ``width`` terminal columns, as ``str.rjust``.

    Examples
    --------
    >>> rjust("e\u0301", 3) == "  e\u0301"  # é written as e and a combining acute
    True
    """
    return " " * (width - display_width(text)) + text


def wrap(
    text: str | Sequence[str],
    width: int = WIDTH,
    *,
    initial_indent: str = "",
    subsequent_indent: str = "",
) -> list[str]:
    """Wrap ``text`` into lines of at most ``width`` terminal columns; never break a word.

    ``text`` is a text, broken at its whitespace (tabs expanded, line ends and other
    whitespace made spaces, a run of spaces inside a line kept), or its words, each kept
    whole (spaces and all) with one space between. Lines are filled greedily; the first
    starts with ``initial_indent``, the others with ``subsequent_indent``; whitespace at
    a break is dropped. A word wider than a line (a long path) is never broken, not even
    at a hyphen: it stands alone on its line, longer than ``width``.

    That is ``textwrap.TextWrapper(width, break_long_words=False,
    break_on_hyphens=False)``, line for line, with one difference: a line's length is
    its :func:`display_width`. ``TextWrapper`` counts ``len`` and cannot be told
    otherwise, so a note holding CJK text would overrun the terminal; hence this
    small greedy wrap.

    Examples
    --------
    >>> wrap("see a-long/path-name.tum for it", 12, subsequent_indent="  ")
    ['see', '  a-long/path-name.tum', '  for it']
    >>> wrap("東京 東京 東京", 10)
    ['東京 東京', '東京']
    >>> wrap(["  TF:", "a->b,", "b->c (static)"], 16, subsequent_indent="    ")
    ['  TF: a->b,', '    b->c (static)']
    """
    if isinstance(text, str):
        plain = text.expandtabs().translate(_TO_SPACE)
        chunks = [chunk for chunk in _CHUNKS.split(plain) if chunk]
    else:
        chunks = [part for word in text for part in (" ", word)][1:]
    chunks.reverse()  # the next chunk is the last: popped in turn
    lines: list[str] = []
    while chunks:
        indent = subsequent_indent if lines else initial_indent
        room = width - display_width(indent)
        if lines and not chunks[-1].strip():
            chunks.pop()  # no line but the first starts with a break's whitespace
        line: list[str] = []
        used = 0
        while chunks and used + display_width(chunks[-1]) <= room:
            used += display_width(chunks[-1])
            line.append(chunks.pop())
        if chunks and not line:
            line.append(chunks.pop())  # wider than a line: whole, on its own
        if line and not line[-1].strip():
            line.pop()  # nor ends with it
        if line:
            lines.append(indent + "".join(line))
    return lines
