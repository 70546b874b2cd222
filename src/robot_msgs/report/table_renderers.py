"""Report tables as text, Markdown and LaTeX, and their cells as CSV and Markdown.

Each table is built once (:class:`~robot_msgs.report.report_table.ReportTable`) and
rendered by any of these writers, so the terminal, the paper and the HTML page show the
same numbers. A table wider than the terminal or the page is folded into blocks that
each repeat the columns naming a row (:func:`render_text`, :func:`render_latex`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from robot_msgs.report.report_table import ReportTable
from robot_msgs.report.text import WIDTH, controls_escaped, display_width, ljust, rjust, wrap

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "LATEX_WIDTH",
    "csv_cell",
    "latex_escape",
    "markdown_text",
    "render_latex",
    "render_markdown",
    "render_text",
]

_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_MARKDOWN_SPECIAL = re.compile(r"[\\`*<>|~&$]|\](?=[(\[])")
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _column_blocks(widths: Sequence[int], keys: int, width: int) -> list[list[int]]:
    """Split column indices into blocks no wider than ``width``, each repeating the keys.

    ``keys`` leading columns name a row and start every block; the other columns fill
    as few blocks as fit, shared out evenly (4 + 3 rather than 6 + 1), at least one per
    block (a single column wider than ``width`` stays whole). One block when the whole
    table fits.

    Examples
    --------
    >>> _column_blocks([6, 4, 9, 9, 9], keys=2, width=40)
    [[0, 1, 2, 3], [0, 1, 4]]
    >>> _column_blocks([6, 4, 9, 9, 9, 9, 9], keys=2, width=50)
    [[0, 1, 2, 3, 4], [0, 1, 5, 6]]
    >>> _column_blocks([6, 4, 9], keys=2, width=40)
    [[0, 1, 2]]
    """
    base = sum(widths[:keys]) + 2 * max(keys - 1, 0)

    def fill(most: int) -> list[list[int]]:
        blocks: list[list[int]] = []
        block, used = list(range(keys)), base
        for i in range(keys, len(widths)):
            extra = widths[i] + (2 if block else 0)
            if len(block) > keys and (used + extra > width or len(block) - keys >= most):
                blocks.append(block)
                block, used = list(range(keys)), base
                extra = widths[i] + (2 if block else 0)
            block.append(i)
            used += extra
        return [*blocks, block]

    rest = len(widths) - keys
    greedy = fill(rest)
    even = fill(-(-rest // len(greedy)))
    return even if len(even) == len(greedy) else greedy


def _transposed(table: ReportTable, width: int) -> list[str]:
    r"""Render rows named by long texts (paths): numbered columns, or one record a row.

    The names are listed once as ``#1``, ``#2``, ...; the table then has a line per
    column and a column per row, so values of different rows stand side by side. When
    that is wider than ``width`` too, each row is printed as a record, one ``header
    value`` line a column, as ``psql`` does; a header wider than half the width stands on
    its own line, its value on the next, in the values' column.

    Examples
    --------
    >>> t = ReportTable("", ("file", "rms"), (("a/long/path.json", "0.5"), ("b.zip", "1")),
    ...                 (False, True))
    >>> print("\n".join(_transposed(t, 20)))
    #1  a/long/path.json
    #2  b.zip
    <BLANKLINE>
          #1  #2
    rms  0.5   1
    >>> print("\n".join(_transposed(t, 11)))
    file  a/long/path.json
    rms   0.5
    <BLANKLINE>
    file  b.zip
    rms   1
    >>> t = ReportTable("", ("file", "a/long/sequence [m]"), (("b.zip", "1"),), (False, True))
    >>> print("\n".join(_transposed(t, 20)))
    file  b.zip
    a/long/sequence [m]
          1
    """
    labels = [f"#{n}" for n in range(1, len(table.rows) + 1)]
    heads = table.headers[1:]
    lead = max(display_width(h) for h in heads) if heads else 0
    columns = [
        max(len(label), *(display_width(c) for c in row[1:]))
        for label, row in zip(labels, table.rows, strict=True)
    ]
    if heads and lead + sum(w + 2 for w in columns) <= width:
        out = [f"{label}  {row[0]}".rstrip() for label, row in zip(labels, table.rows, strict=True)]
        numbered = (label.rjust(w) for label, w in zip(labels, columns, strict=True))
        out += ["", "  ".join([" " * lead, *numbered])]
        for i, head in enumerate(heads, start=1):
            align = rjust if table.numeric[i] else ljust
            cells = (align(row[i], w) for row, w in zip(table.rows, columns, strict=True))
            out.append("  ".join([ljust(head, lead), *cells]).rstrip())
        return out
    # A header wider than half the width (a sequence named by a long path, in a ranking's
    # column head) padded every line of every record to its width: the values all started
    # past the width (a review). It stands on its own line, its value below in the column.
    # A value wider than the room right of the names wraps in its column, as a folded
    # table's cell does: a group's failure 'killed by SIGKILL (exit code 137: 128 + 9, as
    # a shell reports it) x1' ran to column 93 of 80 (a review).
    name = max((w for h in table.headers if (w := display_width(h)) <= width // 2), default=0)
    room, indent = max(width - name - 2, 1), " " * (name + 2)
    out = []
    for n, row in enumerate(table.rows):
        out += [""] if n else []
        for h, c in zip(table.headers, row, strict=True):
            first, *more = _cell_lines(c, room) if display_width(c) > room else [c]
            if display_width(h) > name:
                out += [h, f"{indent}{first}".rstrip()] if c.strip() else [h]
            else:
                out.append(f"{ljust(h, name)}  {first}".rstrip())
            out += [f"{indent}{line}" for line in more]
    return out


def _key_columns(table: ReportTable, widths: Sequence[int], width: int) -> int | None:
    """Count the leading columns that name a row, repeated in every folded block.

    A rank or index first (a number before a text: ``#``, ``algorithm``) counts with its
    name. Then text columns are added until they tell the rows apart (``estimate``,
    ``signal`` when one file has several signals), and more while they fit, and a
    ``unit`` column right after them however wide they are: every block of numbers says
    its unit. None when the columns that tell the rows apart are wider than half
    ``width``: the table is then better transposed (:func:`_transposed`) than folded.

    Examples
    --------
    >>> t = ReportTable("", ("#", "name", "a", "b"), (("1", "x", "1", "2"),),
    ...                 (True, False, True, True))
    >>> _key_columns(t, [1, 4, 1, 1], 80)
    2
    >>> t = ReportTable("", ("file", "signal", "rms"), (("f", "@1", "1"), ("f", "@10", "2")),
    ...                 (False, False, True))
    >>> _key_columns(t, [30, 6, 3], 80), _key_columns(t, [30, 6, 3], 60)
    (2, None)
    >>> t = ReportTable("", ("result", "unit", "rms"), (("r", "m", "1"),), (False, False, True))
    >>> _key_columns(t, [38, 4, 3], 80)
    2
    """
    n = len(widths)
    if n < 2:
        return 0

    def span(k: int) -> int:
        return sum(widths[:k]) + 2 * (k - 1)

    keys = _naming_columns(table)
    if span(keys) > width // 2:
        return None
    while keys < n - 1 and not table.numeric[keys] and span(keys + 1) <= width // 2:
        keys += 1
    if keys < n - 1 and table.headers[keys] == "unit":  # no number without its unit
        keys += 1
    return keys


def _naming_columns(table: ReportTable) -> int:
    """Count the leading columns that tell the rows apart (a rank counts with its name).

    Examples
    --------
    >>> t = ReportTable("", ("#", "name", "a", "b"), (("1", "x", "1", "2"),),
    ...                 (True, False, True, True))
    >>> _naming_columns(t)
    2
    """
    n = len(table.headers)
    keys = 2 if table.numeric[0] and not table.numeric[1] and n > 2 else 1
    while (
        keys < n - 1
        and not table.numeric[keys]
        and len({row[:keys] for row in table.rows}) < len(table.rows)
    ):
        keys += 1
    return keys


def _widths(table: ReportTable) -> list[int]:
    """Each column's width in terminal columns: its header's or its widest cell's."""
    return [
        max(display_width(h), *(display_width(r[i]) for r in table.rows))
        if table.rows
        else display_width(h)
        for i, h in enumerate(table.headers)
    ]


def render_text(table: ReportTable, width: int = WIDTH) -> str:
    """Render a plain-text table for the terminal, columns padded, numbers right-aligned.

    Widths are terminal columns (:func:`~robot_msgs.report.text.display_width`: a CJK
    character takes two, a combining mark none), so columns of such names stay aligned.
    A table wider than ``width`` columns is folded, as pandas prints wide frames: the
    leading columns that name a row (:func:`_key_columns`) start each block, and the
    other columns follow in blocks that fit, separated by a blank line. When the columns
    that tell the rows apart are wider than half the width (a long path), the first
    column's names are listed once as ``#1``, ``#2``, ... and the table is transposed to
    a line a column, or, wider still, each row is printed as a record
    (:func:`_transposed`), however few its numbers: every block names its rows. Every
    digit is kept.

    Examples
    --------
    >>> table = ReportTable("T", ("name", "x"), (("a", "1.5"), ("bb", "10.25")), (False, True))
    >>> print(render_text(table))
    T
    name      x
    ----  -----
    a       1.5
    bb    10.25
    >>> row = ("translation", "0.0134701", "0.0347595")
    >>> wide = ReportTable("W", ("signal", "rms", "max"), (row,), (False, True, True))
    >>> print(render_text(wide, width=24))
    W
    signal             rms
    -----------  ---------
    translation  0.0134701
    <BLANKLINE>
    signal             max
    -----------  ---------
    translation  0.0347595
    >>> long = ReportTable("L", ("estimate", "n", "rms", "max"), (("a/long/path/to/an/estimate.tum",
    ...                    "785", "0.0134701", "0.0347595"),), (False, True, True, True))
    >>> print(render_text(long, width=40))
    L
    #1  a/long/path/to/an/estimate.tum
    <BLANKLINE>
                #1
    n          785
    rms  0.0134701
    max  0.0347595
    """
    table = ReportTable(  # names from files are shown as written, never act on a terminal
        controls_escaped(table.title),
        tuple(controls_escaped(h) for h in table.headers),
        tuple(tuple(controls_escaped(c) for c in row) for row in table.rows),
        table.numeric,
        tuple(controls_escaped(n) for n in table.notes),
    )
    widths = _widths(table)
    keys = _key_columns(table, widths, width)
    out = [table.title]
    wide = sum(widths) + 2 * (len(widths) - 1) > width
    if wide and table.rows and keys is None:
        # Rows named by wide texts: transposed or records, unless folding under the
        # naming columns takes fewer lines (`res` of two KITTI drift results, 18 signals
        # each, named by result, unit and signal: 482 lines of records; a review).
        shown = _transposed(table, width)
        naming = _naming_columns(table)
        naming += naming < len(widths) - 1 and table.headers[naming] == "unit"
        fits = sum(widths[:naming]) + 2 * naming + max(widths[naming:], default=0) <= width
        folded = _folded(table, widths, naming, width) if fits else shown
        out += folded if len(folded) < len(shown) else shown
    else:
        out += _folded(table, widths, keys or 0, width)
    # Notes wrap at the width (a path longer than that stays whole on its line).
    out += [
        line
        for note in table.notes
        for line in wrap(note, width, initial_indent="  ", subsequent_indent="    ")
    ]
    return "\n".join(out)


def _cell_lines(cell: str, room: int) -> list[str]:
    """Wrap a text cell into lines of ``room`` columns, its ``; ``-separated parts whole.

    The parts of a list (a group's failures: ``lost x2; segfault x1``) are kept whole
    where each fits ``room``; otherwise the cell wraps at its spaces, never in a word.

    Examples
    --------
    >>> _cell_lines("tracking lost x2; segfault in loop closing x1", 30)
    ['tracking lost x2;', 'segfault in loop closing x1']
    >>> _cell_lines("a bb ccc", 4)
    ['a bb', 'ccc']
    """
    parts = cell.split("; ")
    if len(parts) > 1 and all(display_width(p) < room for p in parts):
        return wrap([*(f"{p};" for p in parts[:-1]), parts[-1]], room)
    return wrap(cell, room) or [""]


def _folded(table: ReportTable, widths: Sequence[int], keys: int, width: int) -> list[str]:
    """Return the lines of ``table`` in blocks no wider than ``width``, each led by ``keys``.

    A text column wider than the naming columns leave is wrapped in its cells
    (:func:`_cell_lines`), the naming columns blank on a row's continuation lines: a
    group's failures, 60 columns, set an 80-column terminal's table 88 wide.
    """
    room = width - (sum(widths[:keys]) + 2 * keys)
    cells = [
        [
            _cell_lines(c, room) if i >= keys and not table.numeric[i] and widths[i] > room else [c]
            for i, c in enumerate(row)
        ]
        for row in table.rows
    ]
    widths = [
        max(display_width(table.headers[i]), *(display_width(x) for r in cells for x in r[i]))
        if cells
        else w
        for i, w in enumerate(widths)
    ]

    def line(row: Sequence[str], columns: Sequence[int]) -> str:
        parts = [
            rjust(row[i], widths[i]) if table.numeric[i] else ljust(row[i], widths[i])
            for i in columns
        ]
        return "  ".join(parts).rstrip()

    def lines(row: Sequence[Sequence[str]], columns: Sequence[int]) -> list[str]:
        height = max(len(row[i]) for i in columns)
        return [line([c[k] if k < len(c) else "" for c in row], columns) for k in range(height)]

    out: list[str] = []
    for n, columns in enumerate(_column_blocks(widths, keys, width)):
        out += [""] if n else []
        out.append(line(table.headers, columns))
        out.append("  ".join("-" * widths[i] for i in columns))
        out += [x for row in cells for x in lines(row, columns)]
    return out


def markdown_text(text: str) -> str:
    r"""Return ``text`` for a Markdown table cell, shown as written: nothing in it is markup.

    Backslash-escaped: ``\ ` * < > | ~ & $`` (emphasis, code, HTML tags, autolinks,
    entities, table cells, strikethrough, GitHub's maths), ``]`` where a link or image
    would follow (``](`` and ``][``: ``[m]`` stays as written) and ``_`` where it could
    start or end emphasis (``fr1_xyz`` keeps its underscore plain, as GitHub reads it).
    Line ends and other control characters become spaces: a cell is one line.

    Examples
    --------
    >>> print(markdown_text("**bold** <script>x</script> [a](b) [m] fr1_xyz _it_ a|b"))
    \*\*bold\*\* \<script\>x\</script\> [a\](b) [m] fr1_xyz \_it\_ a\|b
    """
    plain = _CONTROLS.sub(" ", text)
    plain = _MARKDOWN_SPECIAL.sub(lambda m: "\\" + m.group(), plain)
    return _EDGE_UNDERSCORE.sub(r"\\_", plain)


def csv_cell(value: object) -> object:
    """Return ``value`` for a CSV cell that a spreadsheet will not run as a formula.

    A text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
    prefixed with ``'`` (OWASP's advice for CSV injection), unless it is a number
    (``-1.5`` stays a number). Numbers and other values pass unchanged.

    Examples
    --------
    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-1.5"), csv_cell("@SUM(A1)"), csv_cell(-2.0)
    ("'=HYPERLINK(1)", '-1.5', "'@SUM(A1)", -2.0)
    """
    if not isinstance(value, str) or not value.startswith(_FORMULA_STARTS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


def render_markdown(tables: Sequence[ReportTable]) -> str:
    """GitHub-flavoured Markdown: a heading, a pipe table and its notes per table.

    Examples
    --------
    >>> print(render_markdown([ReportTable("T", ("a", "b"), (("x", "1"),), (False, True))]))
    ### T
    <BLANKLINE>
    | a | b |
    |:--|--:|
    | x | 1 |
    <BLANKLINE>
    """
    parts = []
    for t in tables:
        rule = "|" + "|".join("--:" if num else ":--" for num in t.numeric) + "|"
        lines = [
            f"### {t.title}",
            "",
            "| " + " | ".join(markdown_text(h) for h in t.headers) + " |",
            rule,
        ]
        lines += ["| " + " | ".join(markdown_text(c) for c in row) + " |" for row in t.rows]
        # Stripped: ``* x*`` opens a list item and ``*x *`` no emphasis (CommonMark's
        # flanking rules); the ``*`` and ``_`` inside are escaped by ``markdown_text``.
        notes = [markdown_text(n).strip() for n in t.notes]
        lines += [""] + [f"*{n}*" for n in notes if n] + ([""] if t.notes else [])
        parts.append("\n".join(lines))
    return "\n".join(parts)


_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # After a line break ``\\`` a ``[`` opens its optional length: a cell or a stacked
    # header line starting with one ("[m]") was an error, and pdflatex looped on it.
    "[": "{[}",
    "]": "{]}",
    # And a ``*`` there made it ``\\*`` (no page break): the star was dropped unseen.
    "*": "{*}",
}


#: Characters of cells (and two between columns) a LaTeX table is folded at, headers
#: stacked. Measured with pdflatex on the shipped example report in a one-column
#: ``article`` (345 pt of text): unfolded, 4 of its 5 tables ran past the page, the runs
#: table by 765 pt; folded at 68, 2 of 11 by 3-4 pt (at 72: 3 of 10 by up to 11 pt).
LATEX_WIDTH = 68


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters.

    Examples
    --------
    >>> latex_escape("APE_rms 50% & more")
    'APE\\_rms 50\\% \\& more'

    ``--`` and ``---`` are ligatures (en and em dash) in LaTeX's text fonts: a flag such
    as ``--align`` is kept as two hyphens by an empty group between them.

    >>> latex_escape("--align se3")
    '-{}-align se3'
    """
    escaped = "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)
    return escaped.replace("--", "-{}-").replace("--", "-{}-") if "--" in escaped else escaped


def _header_lines(header: str, cells: int) -> list[str]:
    """Break a header into lines as wide as its column's cells (at least 8), at spaces.

    Examples
    --------
    >>> _header_lines("pairwise APE RMSE median [m]", 6)
    ['pairwise', 'APE RMSE', 'median', '[m]']
    >>> _header_lines("run", 24)
    ['run']
    """
    return wrap(header, max(cells, 8)) or [header]


def _latex_header(lines: Sequence[str], *, numeric: bool) -> str:
    r"""Write a header cell: one line as it is, several stacked (``\shortstack``, core LaTeX)."""
    if len(lines) == 1:
        return latex_escape(lines[0])
    stacked = r" \\ ".join(latex_escape(line) for line in lines)
    return f"\\shortstack[{'r' if numeric else 'l'}]{{{stacked}}}"


def render_latex(tables: Sequence[ReportTable], width: int = LATEX_WIDTH) -> str:
    r"""LaTeX ``table`` environments with ``booktabs`` rules, notes as a footnote-size paragraph.

    Needs ``\usepackage{booktabs}`` in the preamble. A header wider than its column's
    cells is stacked on lines as wide as them (``\shortstack``); a table still wider
    than ``width`` characters (:data:`LATEX_WIDTH`) is folded as :func:`render_text`
    folds it, into tables captioned ``(1 of k)`` that each repeat the columns naming a
    row.

    Examples
    --------
    >>> print(render_latex([ReportTable("T_1", ("a", "b"), (("x", "1"),), (False, True))]))
    % robot-msgs report; needs \usepackage{booktabs}
    \begin{table}[htbp]
      \centering
      \caption{T\_1}
      \begin{tabular}{lr}
        \toprule
        a & b \\
        \midrule
        x & 1 \\
        \bottomrule
      \end{tabular}
    \end{table}
    <BLANKLINE>
    """
    out = ["% robot-msgs report; needs \\usepackage{booktabs}"]
    for t in tables:
        cells = [
            max((display_width(r[i]) for r in t.rows), default=0) for i in range(len(t.headers))
        ]
        heads = [_header_lines(h, c) for h, c in zip(t.headers, cells, strict=True)]
        widths = [max(c, *map(display_width, h)) for c, h in zip(cells, heads, strict=True)]
        keys = _key_columns(t, widths, width)
        if keys is None:  # names wider than half the page: repeated all the same (a part
            keys = _naming_columns(t)  # without them is numbers no one can place)
        blocks = _column_blocks(widths, keys, width)
        for n, columns in enumerate(blocks, start=1):
            spec = "".join("r" if t.numeric[i] else "l" for i in columns)
            part = f" ({n} of {len(blocks)})" if len(blocks) > 1 else ""
            out += [
                r"\begin{table}[htbp]",
                r"  \centering",
                f"  \\caption{{{latex_escape(t.title)}{part}}}",
                f"  \\begin{{tabular}}{{{spec}}}",
                r"    \toprule",
                "    "
                + " & ".join(_latex_header(heads[i], numeric=t.numeric[i]) for i in columns)
                + r" \\",
                r"    \midrule",
            ]
            out += [
                "    " + " & ".join(latex_escape(row[i]) for i in columns) + r" \\"
                for row in t.rows
            ]
            out += [r"    \bottomrule", r"  \end{tabular}"]
            if t.notes and n == len(blocks):
                # WHY \par: joined by blanks, a note without a full stop ran into the next
                # ("... says so) -{}-signal ..."); a paragraph each, as Markdown's lines.
                notes = " \\par ".join(latex_escape(note) for note in t.notes)
                out.append("  \\par\\footnotesize " + notes)
            out += [r"\end{table}", ""]
    return "\n".join(out)
