"""NumPy-style docstrings as HTML: the reStructuredText the package's docstrings use, rendered.

Block level: paragraphs; NumPy section titles (a line underlined with dashes) as small
headings; ``name : type`` entries of ``Parameters``/``Attributes``/``Returns``/``Raises``
sections as definition lists; doctests and ``.. math::`` as code blocks. Inline:
double-backquoted literals and single-backquoted names as code, cross-references
(``:meth:`~robot_msgs.msg.Msg.replace```, ``:class:`Pose```) as code with the shown
name (``~`` keeps the last part), linked where the caller knows a page for the target.
Everything else is escaped and shown as written.

WHY by hand and not docutils: the docstrings are NumPy style (numpydoc's sections on top
of reST), which docutils alone renders as a mess of definition lists and errors; the
subset above is all the package's docstrings use, and the page generator must work with
the core dependencies only.

Examples
--------
>>> inline("Missing data is NaN with ``n == 0``; see :meth:`~robot_msgs.msg.Msg.replace`.")
'Missing data is NaN with <code>n == 0</code>; see <code>replace()</code>.'
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

__all__ = [
    "docstring_html",
    "entries",
    "inline",
    "plain_text",
    "sections",
    "without_developer_notes",
]

#: ``:role:`target``` and ``:role:`text <target>```, ``` ``literal`` ``` and `` `name` ``.
_INLINE = re.compile(r":(?P<role>[a-z]+):`(?P<ref>[^`]+)`|``(?P<literal>.+?)``|`(?P<name>[^`]+)`")
_CALLABLE_ROLES = {"meth", "func"}
_ENTRY = re.compile(r"^(?P<names>[A-Za-z_*][\w*, ]*?)\s+:\s*(?P<type>.*)$")
#: A developer note: a paragraph whose first word is ``WHY``.
_NOTE = re.compile(r"[ \t]*WHY\b")
_UNDERLINE = re.compile(r"-{3,}")


def without_developer_notes(text: str) -> str:
    r"""Return a docstring without its developer notes: the paragraphs that begin ``WHY``.

    The notes say why the code is as it is, for whoever changes it; the reference pages
    leave them out (the source keeps them). A note ends at a blank line or at a section
    title.

    Examples
    --------
    >>> print(without_developer_notes("Facts.\n\nWHY so: reasons,\nmore.\n\nMore facts."))
    Facts.
    <BLANKLINE>
    More facts.
    """
    lines = text.splitlines()
    kept: list[str] = []
    dropping = False
    for k, line in enumerate(lines):
        title = k + 1 < len(lines) and _UNDERLINE.fullmatch(lines[k + 1].strip()) is not None
        if not line.strip() or title:
            dropping = False
        elif (k == 0 or not lines[k - 1].strip()) and _NOTE.match(line):
            dropping = True
        if not dropping:
            kept.append(line)
    return re.sub(r"\n(?:[ \t]*\n){2,}", "\n\n", "\n".join(kept)).strip("\n")


def _shown(role: str, ref: str) -> tuple[str, str]:
    """Return the text shown for a cross-reference and its target."""
    explicit = re.fullmatch(r"(?P<text>.+?)\s*<(?P<target>[^>]+)>", ref)
    if explicit:
        return explicit["text"], explicit["target"]
    target = ref.lstrip("~")
    text = target.rsplit(".", 1)[-1] if ref.startswith("~") else target
    if role in _CALLABLE_ROLES and not text.endswith(")"):
        text += "()"
    return text, target


def inline(text: str, link: Callable[[str], str | None] | None = None) -> str:
    """Render the inline markup of one paragraph to HTML, escaping the rest.

    ``link(target)`` gives the ``href`` of a cross-reference's target, or ``None``.

    Examples
    --------
    >>> inline("a `mean` and :class:`X`", lambda target: "X.html" if target == "X" else None)
    'a <code>mean</code> and <a href="X.html"><code>X</code></a>'
    """
    out: list[str] = []
    at = 0
    for match in _INLINE.finditer(text):
        out.append(escape(text[at : match.start()]))
        at = match.end()
        if match["role"]:
            shown, target = _shown(match["role"], match["ref"])
            code = f"<code>{escape(shown)}</code>"
            if match["role"] == "math":
                code = f'<code class="math">{escape(match["ref"])}</code>'
            href = link(target) if link is not None else None
            out.append(f'<a href="{escape(href)}">{code}</a>' if href else code)
        else:
            literal = match["literal"] if match["literal"] is not None else match["name"]
            out.append(f"<code>{escape(literal)}</code>")
    out.append(escape(text[at:]))
    return "".join(out)


def plain_text(text: str) -> str:
    """Return ``text`` with its inline markup removed, as a reader sees it rendered.

    Examples
    --------
    >>> plain_text("NaN with ``n == 0``, `final` and :meth:`~Msg.replace`")
    'NaN with n == 0, final and replace()'
    """

    def shown(match: re.Match[str]) -> str:
        if match["role"]:
            return _shown(match["role"], match["ref"])[0]
        return match["literal"] if match["literal"] is not None else match["name"]

    return _INLINE.sub(shown, text)


def sections(text: str) -> dict[str, str]:
    r"""Split a NumPy docstring body into its sections: ``{"": prose, "Attributes": ..., ...}``.

    Examples
    --------
    >>> sections("Prose.\n\nAttributes\n----------\nx : float, m\n")["Attributes"]
    'x : float, m'
    """
    out: dict[str, list[str]] = {"": []}
    current = ""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and lines[i].strip() and re.fullmatch(r"-{3,}", lines[i + 1].strip()):
            current = lines[i].strip()
            out[current] = []
            i += 2
            continue
        out[current].append(lines[i])
        i += 1
    return {name: "\n".join(body).strip("\n") for name, body in out.items()}


def entries(section: str) -> list[tuple[tuple[str, ...], str, str]]:
    r"""Parse ``name : type`` entries with their indented descriptions.

    Returns ``[(names, type text, description)]``; ``a, b : float`` names two fields.

    Examples
    --------
    >>> entries("x, y : float, metres\n    Position.\nn : int")
    [(('x', 'y'), 'float, metres', 'Position.'), (('n',), 'int', '')]
    """
    found: list[tuple[tuple[str, ...], str, list[str]]] = []
    for line in section.split("\n"):
        match = _ENTRY.match(line) if line[:1].strip() else None
        if match:
            names = tuple(n.strip() for n in match["names"].split(",") if n.strip())
            found.append((names, match["type"].strip(), []))
        elif found and line.strip():
            found[-1][2].append(line.strip())
    return [(names, kind, " ".join(desc)) for names, kind, desc in found]


def _block(paragraph: str, link: Callable[[str], str | None] | None) -> str:
    lines = paragraph.split("\n")
    first = lines[0].lstrip()
    if first.startswith(">>>"):
        return f"<pre><code>{escape(paragraph)}</code></pre>"
    if first.startswith(".. math::"):
        formula = "\n".join(line.strip() for line in lines[1:]) or first.removeprefix(".. math::")
        return f'<pre class="math"><code>{escape(formula.strip())}</code></pre>'
    if first.startswith((".. ", "=====")):
        return f"<pre><code>{escape(paragraph)}</code></pre>"  # a table or directive as written
    if first.startswith("- "):
        items = re.split(r"\n(?=\s*- )", paragraph)
        rendered = "".join(f"<li>{inline(item.strip()[2:], link)}</li>" for item in items)
        return f'<ul class="doc">{rendered}</ul>'
    return f'<p class="doc">{inline(" ".join(line.strip() for line in lines), link)}</p>'


def _entry_list(section: str, link: Callable[[str], str | None] | None) -> str:
    items = []
    for names, kind, description in entries(section):
        label = ", ".join(f"<code>{escape(n)}</code>" for n in names)
        kind_html = f' <span class="kind">{inline(kind, link)}</span>' if kind else ""
        desc = f"<dd>{inline(description, link)}</dd>" if description else "<dd></dd>"
        items.append(f"<dt>{label}{kind_html}</dt>{desc}")
    return f'<dl class="entries">{"".join(items)}</dl>'


_ENTRY_SECTIONS = {"Parameters", "Attributes", "Returns", "Raises", "Yields", "Other Parameters"}


def docstring_html(
    text: str, link: Callable[[str], str | None] | None = None, *, omit: Collection[str] = ()
) -> str:
    r"""Render a NumPy-style docstring body to HTML (see the module for what is rendered).

    ``omit`` names sections left out (a type's page shows ``Attributes`` as its fields table).

    Examples
    --------
    >>> print(docstring_html("See ``x``.\n\nExamples\n--------\n>>> 1 + 1\n2"))
    <p class="doc">See <code>x</code>.</p>
    <div class="doc-section">Examples</div>
    <pre><code>&gt;&gt;&gt; 1 + 1
    2</code></pre>
    """
    blocks: list[str] = []
    for title, body in sections(text).items():
        if title in omit:
            continue
        if title:
            blocks.append(f'<div class="doc-section">{escape(title)}</div>')
        if not body.strip():
            continue
        if title in _ENTRY_SECTIONS and entries(body):
            blocks.append(_entry_list(body, link))
            continue
        blocks.extend(_block(p, link) for p in re.split(r"\n\s*\n", body.strip("\n")) if p.strip())
    return "\n".join(blocks)
