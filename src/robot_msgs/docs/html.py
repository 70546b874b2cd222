"""Self-contained HTML reference pages: one per message type, plus an index.

Each page carries its own CSS, loads nothing from the network and escapes every text
it shows. Pages live at ``family/Name.html`` beside ``index.html`` and link to each
other through field types and "Used by".

Examples
--------
>>> from robot_msgs.compare import ErrorStats
>>> from robot_msgs.docs.introspect import PackageFacts, describe
>>> facts = PackageFacts("0.2.0", "unknown", "MIT license", None)
>>> page = render_type_page(describe(ErrorStats), facts)
>>> "from robot_msgs.compare import ErrorStats" in page, "<script" in page
(True, False)
"""

from __future__ import annotations

import re
from html import escape
from itertools import groupby
from typing import TYPE_CHECKING

from robot_msgs.docs.introspect import (
    SELF_NAME,
    FieldDoc,
    MemberDoc,
    PackageFacts,
    TypeDoc,
    describe_all,
    documented_types,
    package_facts,
)
from robot_msgs.docs.rst import docstring_html, inline
from robot_msgs.ros.definitions import generated_name

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from robot_msgs.msg import Msg

__all__ = ["INDEX", "page_path", "render_index", "render_site", "render_type_page"]

INDEX = "index.html"
"""The index page's path, relative to the output folder."""

_CSS = """
:root { --fg: #1d232b; --muted: #5b6573; --line: #d9dee5; --code: #f4f6f9; --link: #0b5cad; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }  /* the search's hidden rows, blocks on a phone */
body { margin: 0; color: var(--fg); background: #fff;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
.crumbs { color: var(--muted); font-size: .9rem; }
h1 { margin: .25rem 0 0; font-size: 2rem; }
h2 { margin: 2.25rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line);
  font-size: 1.35rem; }
h3 { margin: 1.5rem 0 .25rem; font-size: 1.1rem; }
h4 { margin: 1.25rem 0 .25rem; font-size: 1rem; font-family: ui-monospace, monospace; }
.type-name { color: var(--muted); font-family: ui-monospace, monospace; }
.summary { font-size: 1.15rem; margin: .75rem 0; }
.note { color: var(--muted); margin: .25rem 0 .75rem; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  font-size: .88rem; }
h1, .type-name, code { overflow-wrap: break-word; }  /* a long name, label or ROS 2 name */
table.fields td:nth-child(3) code { overflow-wrap: anywhere; }  /* a default's long repr */
table.fields td:first-child code { overflow-wrap: normal; }  /* a field name stays whole */
pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px;
  padding: .6rem .8rem; margin: .4rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.doc { white-space: pre-wrap; margin: .4rem 0; }
.doc-section { margin: .9rem 0 .2rem; font-weight: 600; }
pre.long { max-height: 26rem; overflow: auto; }
table.index { table-layout: fixed; }
table.index td { overflow-wrap: anywhere; }
col.c-type { width: 15rem; }
col.c-ros { width: 19rem; }
details { margin: .5rem 0; }
summary { cursor: pointer; color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem;
  margin: 1rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; min-width: 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { text-align: left; vertical-align: top; padding: .35rem .6rem;
  border-bottom: 1px solid var(--line); }
th { font-size: .85rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
.origin { margin-left: .5rem; padding: 0 .4rem; border: 1px solid var(--line);
  border-radius: 4px; color: var(--muted); font: .75rem system-ui, sans-serif; }
ul.used-by { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
ul.held-by { list-style: none; display: inline; padding: 0; }
ul.held-by li { display: inline; margin-left: .5rem; }
nav.families { display: flex; flex-wrap: wrap; gap: .25rem .9rem; margin: .4rem 0 0;
  font-size: .9rem; }
form.search { margin: .6rem 0 0; }
form.search input { width: min(24rem, 100%); padding: .3rem .5rem; border: 1px solid var(--line);
  border-radius: 4px; font: inherit; }
dl.entries { margin: .3rem 0 .6rem; }
dl.entries dt { font-weight: 400; margin-top: .35rem; }
dl.entries dd { margin: 0 0 0 1.5rem; }
.kind { color: var(--muted); }
ul.doc { margin: .3rem 0; }
pre.math { background: #fff; }
ul.differences li { margin: .2rem 0; }
@media (max-width: 40rem) {  /* a phone: a table row is a block, nothing scrolls sideways */
  :is(table.fields, table.index), :is(table.fields, table.index) :is(tbody, tr, td) {
    display: block; }
  :is(table.fields, table.index) thead { display: none; }
  :is(table.fields, table.index) tr { padding: .4rem 0; border-bottom: 1px solid var(--line); }
  :is(table.fields, table.index) td { padding: .1rem 0; border: 0; overflow-wrap: anywhere; }
  table.fields td:first-child { font-weight: 600; }
  table.fields td:nth-child(2)::before { content: "type "; color: var(--muted); }
  table.fields td:nth-child(3)::before { content: "default "; color: var(--muted); }
}
footer { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .25rem 1rem;
  margin-top: 3rem; padding-top: .75rem; border-top: 1px solid var(--line);
  color: var(--muted); font-size: .85rem; }
"""


def page_path(type_name: str) -> str:
    """Where the page of ``type_name`` goes, relative to the output folder.

    Examples
    --------
    >>> page_path("compare/ErrorStats")
    'compare/ErrorStats.html'
    """
    return f"{type_name}.html"


def _href(cls: type[Msg], *, from_page: bool) -> str:
    """Return a link to the page of ``cls`` from a type page (one folder down) or the index."""
    return ("../" if from_page else "") + page_path(cls.TYPE)


def _ros2(name: str | None) -> str:
    return f"<code>{escape(name)}</code>" if name is not None else "no ROS equivalent"


def _link(cls: type[Msg]) -> str:
    return f'<a href="{escape(_href(cls, from_page=True))}">{escape(cls.__name__)}</a>'


def _linked_label(label: str, refers_to: Sequence[type[Msg]]) -> str:
    """Return the type label, escaped, with every message type it names linked to its page."""
    by_name = {cls.__name__: cls for cls in refers_to}
    parts = re.split(r"([A-Za-z_][A-Za-z0-9_]*)", label)
    return "".join(_link(by_name[p]) if p in by_name else escape(p) for p in parts)


def _target_href(target: str, *, from_page: bool) -> str | None:
    """Return the page of a cross-reference's target when it names a message type, else None."""
    name = target.rsplit(".", 1)[-1]
    by_name = {cls.__name__: cls for cls in documented_types().values()}
    cls = by_name.get(name)
    return _href(cls, from_page=from_page) if cls is not None else None


def _page_links(target: str) -> str | None:
    return _target_href(target, from_page=True)


def _docstring(text: str, *, omit: Collection[str] = ()) -> str:
    """Render a docstring as HTML: reST inline markup, NumPy sections, doctests as code.

    See :mod:`robot_msgs.docs.rst`; message types named in cross-references link to
    their pages. Everything is escaped; ``omit`` names sections left out.
    """
    return docstring_html(text, _page_links, omit=omit)


_BOUNDS = re.compile(r" \(-?\d+\.\.\d+\)")  # an integer's range: ``uint8 (0..255)``
_ARRAY = re.compile(r"(?P<shape>\(.*\)) (?P<dtype>\w+)")  # ``(N, 3) float64``


def _spellings(label: str) -> list[str]:
    """Return how a docstring entry writes the type a Type cell shows as ``label``, longest first.

    The NumPy docstring convention: ``uint8`` for ``uint8 (0..255)``, ``tuple of Signal``
    for ``tuple[Signal, ...]``, ``mapping of str to int`` for ``Mapping[str, int]``,
    ``X or None`` (``X, or None``) for ``X | None``, and ``ndarray, shape (N, 3), float64``
    (the dtype may be left out) for ``(N, 3) float64``.

    Examples
    --------
    >>> _spellings("(N, 2) int64 | None")[:2]
    ['ndarray, shape (N, 2), int64, or None', 'ndarray, shape (N, 2), int64 or None']
    """
    label = _BOUNDS.sub("", label)
    if label.endswith(" | None"):
        inner = _spellings(label.removesuffix(" | None"))
        said = [f"{s}, or None" for s in inner] + [f"{s} or None" for s in inner]
    elif label.startswith("tuple[") and label.endswith(", ...]"):
        said = [f"tuple of {s}" for s in _spellings(label[6:-6])]
    elif label.startswith("Mapping[str, ") and label.endswith("]"):
        said = [f"mapping of str to {s}" for s in _spellings(label[13:-1])]
    elif array := _ARRAY.fullmatch(label):
        shape = f"ndarray, shape {array['shape']}"
        said = [f"{shape}, {array['dtype']}", shape]
    else:
        said = []
    return sorted({label, *said}, key=lambda s: (-len(s), s))


def _unit_and_description(field: FieldDoc) -> str:
    """Return the fields table's last cell: the entry without the type the Type cell shows.

    An entry ``n : int`` with its text reads ``"int: text"`` and ``rms : float, the signal's
    unit`` reads ``"float, the signal's unit: text"``; the row already says ``int`` and
    ``float``, so the cell starts at the unit or the text. The entry may spell the type
    as docstrings do (:func:`_spellings`): ``uint32, pixels`` beside ``uint32 (0..4294967295)``
    starts at ``pixels``.
    """
    text = field.description
    for said in _spellings(field.type_label):
        for separator in (", ", ": "):
            if text.startswith(said + separator):
                return text[len(said) + len(separator) :]
        if text == said:
            return ""
    return text


def _navigation(*, from_page: bool, family: str = "") -> str:
    """Return the family links and the search box of every page (the index filters by ?q=)."""
    home = ("../" if from_page else "") + INDEX
    families = sorted({t.partition("/")[0] for t in documented_types()})
    current = ' aria-current="page"'
    links = " ".join(
        f'<a href="{escape(home)}#{escape(f)}"{current if f == family else ""}>{escape(f)}</a>'
        for f in families
    )
    search = (
        f'<form class="search" action="{escape(home)}" method="get" role="search">'
        '<input type="search" name="q" placeholder="Search types, summaries, ROS 2 names" '
        'aria-label="Search the reference"></form>'
    )
    return f'<nav class="families" aria-label="Families">{links}</nav>\n{search}'


#: The index's one script: filter the rows by the search box (and by ``?q=`` from a page).
_SEARCH_SCRIPT = """<script>
(function () {
  var box = document.querySelector('form.search input');
  var rows = Array.prototype.slice.call(document.querySelectorAll('table.index tbody tr'));
  function filter() {
    var q = box.value.trim().toLowerCase();
    rows.forEach(function (row) {
      row.hidden = q !== '' && row.textContent.toLowerCase().indexOf(q) < 0;
    });
    document.querySelectorAll('section.family').forEach(function (section) {
      section.hidden = !section.querySelector('tbody tr:not([hidden])');
    });
  }
  box.value = new URLSearchParams(location.search).get('q') || '';
  box.addEventListener('input', filter);
  document.querySelector('form.search').addEventListener('submit', function (e) {
    e.preventDefault(); filter();
  });
  filter();
})();
</script>"""


def _document(
    title: str,
    body: str,
    facts: PackageFacts,
    *,
    from_page: bool,
    family: str = "",
    script: str = "",
) -> str:
    home = escape("../" + INDEX if from_page else INDEX)
    build = f"robot_msgs {escape(facts.version)} @ {escape(facts.commit)}"
    links = [f'<a href="{escape(facts.homepage)}">GitHub</a>'] if facts.homepage else []
    about = " · ".join(
        [*links, escape(facts.license), "generated from the package, not written per type"]
    )
    footer = f"<span>{build}</span><span>{about}</span>"
    crumb = f' › <a href="{home}#{escape(family)}">{escape(family)}</a>' if family else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<nav class="crumbs"><a href="{home}">robot_msgs</a>{crumb}</nav>\n'
        f"{_navigation(from_page=from_page, family=family)}\n"
        f"{body}\n<footer>{footer}</footer>\n</main>\n{script}</body>\n</html>\n"
    )


def _member(member: MemberDoc, doc: TypeDoc) -> str:
    origin = (
        f'<span class="origin">from {escape(member.owner)}</span>'
        if member.owner != doc.name
        else ""
    )
    return (
        f'<section class="member" id="{escape(member.name)}">\n'
        f"<h4>{escape(member.name)}{origin}</h4>\n"
        f"<pre><code>{escape(member.signature)}</code></pre>\n"
        f"{_docstring(member.doc)}\n</section>"
    )


def _member_group(title: str, note: str, members: Sequence[MemberDoc], doc: TypeDoc) -> str:
    if not members:
        return ""
    items = "\n".join(_member(m, doc) for m in members)
    return f'<h3>{escape(title)}</h3>\n<p class="note">{escape(note)}</p>\n{items}'


def _functions(doc: TypeDoc) -> str:
    uses_self = any(re.search(rf"\b{SELF_NAME}\b", m.signature) for m in doc.members)
    legend = (
        f'<p class="note"><code>{SELF_NAME}</code> is the message type itself, here '
        f"<code>{escape(doc.name)}</code>.</p>\n"
        if uses_self
        else ""
    )
    groups = [
        _member_group(
            "Constructors",
            "Classmethods and staticmethods: ways to build one.",
            doc.constructors,
            doc,
        ),
        _member_group(
            "Methods", "Return new values; messages are never mutated.", doc.methods, doc
        ),
        _member_group("Properties", "Computed from the fields when read.", doc.properties, doc),
    ]
    return '<h2 id="functions">Functions</h2>\n' + legend + "\n".join(g for g in groups if g)


def _ros2_facts(doc: TypeDoc) -> str:
    if doc.ros2 is None:
        name = generated_name(doc.cls)
        return f"{_ros2(None)} · recorded in bags as <code>{escape(name)}</code> (definition below)"
    link = f' · <a href="{escape(doc.ros2_url)}">definition (Humble)</a>' if doc.ros2_url else ""
    return f"{_ros2(doc.ros2)}{link}"


_EVERY_ROS_TYPE = (
    "As for every type with a ROS 2 equivalent: the field names and order are ROS's; "
    "integer fields are checked against their ROS type's bounds on construction; "
    "sequences are tuples (NumPy arrays, as rosbags gives them, are accepted); "
    ":func:`robot_msgs.ros.to_ros` and :func:`robot_msgs.ros.from_ros` convert."
)


_GENERATED = (
    ":func:`robot_msgs.ros.to_ros`, :func:`robot_msgs.ros.to_cdr` and the bag writers record "
    "it under this definition, generated from its fields; :func:`robot_msgs.ros.from_ros`, "
    ":func:`robot_msgs.ros.from_cdr` and the bag readers read it back."
)


def _differences(doc: TypeDoc) -> str:
    if doc.ros2 is None:  # the definition it is recorded under instead
        note = inline(_GENERATED, _page_links)
        return (
            '<h2 id="ros-definition">ROS 2 message definition (generated)</h2>\n'
            f'<p class="note">{note}</p>\n'
            f"<pre><code>{escape(doc.ros_definition)}</code></pre>"
        )
    items = "\n".join(f"<li>{inline(d, _page_links)}</li>" for d in doc.ros2_differences)
    listed = f'<ul class="differences">\n{items}\n</ul>' if items else "<p>None besides those.</p>"
    return (
        '<h2 id="ros2">Differences from ROS 2</h2>\n'
        f'<p class="note">{inline(_EVERY_ROS_TYPE, _page_links)}</p>\n{listed}'
    )


def _used_by_item(user: type[Msg], holders: Sequence[type[Msg]]) -> str:
    """One "Used by" entry: the type, and the types that hold it in turn, if any."""
    if not holders:
        return f"<li>{_link(user)}</li>"
    # WHY one a line: inline items with nothing between them are one unbreakable word,
    # and Time's "Header, held by" 40 types ran 4 000 px past the page's right edge
    inner = "\n".join(f"<li>{_link(cls)}</li>" for cls in holders)
    return f'<li>{_link(user)}, held by\n<ul class="held-by">{inner}</ul></li>'


def render_type_page(doc: TypeDoc, facts: PackageFacts) -> str:
    """Render the HTML page of one message type.

    Parameters
    ----------
    doc : TypeDoc
        The facts, from :func:`robot_msgs.docs.introspect.describe`.
    facts : PackageFacts
        Version, commit, license and home page for the footer.

    Returns
    -------
    str
        A complete, self-contained HTML document.
    """
    prose = _docstring(doc.body, omit={"Attributes"})  # the fields table shows them
    body_doc = (
        f"<details open>\n<summary>Full docstring</summary>\n{prose}\n</details>" if prose else ""
    )
    rows = "\n".join(
        f"<tr><td><code>{escape(f.name)}</code></td>"
        f"<td><code>{_linked_label(f.type_label, f.refers_to)}</code></td>"
        f"<td><code>{escape(f.default)}</code></td>"
        f"<td>{inline(cell, _page_links) if (cell := _unit_and_description(f)) else '—'}</td></tr>"
        for f in doc.fields
    )
    held = dict(doc.held_by)
    used = (
        '<ul class="used-by">\n'
        + "\n".join(_used_by_item(user, held.get(user, ())) for user in doc.used_by)
        + "\n</ul>"
        if doc.used_by
        else "<p>No other message type refers to it.</p>"
    )
    body = f"""<h1>{escape(doc.name)}</h1>
<div class="type-name">{escape(doc.type_name)}</div>
<p class="summary">{inline(doc.summary, _page_links)}</p>
{body_doc}
<dl class="facts">
<dt>Import</dt><dd><code>{escape(doc.import_line)}</code></dd>
<dt>ROS 2</dt><dd>{_ros2_facts(doc)}</dd>
</dl>
{_differences(doc)}
<h2 id="fields">Fields</h2>
<table class="fields">
<thead><tr><th>Name</th><th>Type</th><th>Default</th><th>Unit and description</th></tr></thead>
<tbody>
{rows}
</tbody>
</table>
<h2 id="example">Example</h2>
<p class="note">One instance from the package's own test catalog; the output is its real
<code>repr()</code>.</p>
<pre class="long"><code>{escape(doc.example_repr)}</code></pre>
<h3><code>to_dict()</code> as JSON</h3>
<pre class="long"><code>{escape(doc.example_json)}</code></pre>
<p class="note">Strict JSON, as <code>robot_msgs.to_json(msg)</code> writes it: NaN is
<code>null</code> (<code>"NaN"</code> where <code>null</code> means <code>None</code>), the
infinities are <code>"Infinity"</code> and <code>"-Infinity"</code>;
<code>robot_msgs.from_json(text)</code> reads it back to an equal message.</p>
{_functions(doc)}
<h2 id="used-by">Used by</h2>
<p class="note">Types whose fields refer to it.</p>
{used}"""
    return _document(f"{doc.name} · robot_msgs", body, facts, from_page=True, family=doc.family)


def render_index(docs: Sequence[TypeDoc], facts: PackageFacts) -> str:
    """Render the index page: every type, grouped by family, with its summary and ROS 2 name."""
    sections = []
    ordered = sorted(docs, key=lambda d: (d.family, d.name))
    for family, members in groupby(ordered, key=lambda d: d.family):
        rows = "\n".join(
            f'<tr><td><a href="{escape(_href(d.cls, from_page=False))}">{escape(d.name)}</a></td>'
            f"<td>{inline(d.summary, lambda t: _target_href(t, from_page=False))}</td>"
            f"<td>{_ros2(d.ros2)}</td></tr>"
            for d in members
        )
        sections.append(
            f'<section class="family">\n<h2 id="{escape(family)}">{escape(family)}</h2>\n'
            '<table class="index">\n'
            '<colgroup><col class="c-type"><col><col class="c-ros"></colgroup>\n'
            "<thead><tr><th>Type</th><th>Summary</th><th>ROS 2</th></tr></thead>\n"
            f"<tbody>\n{rows}\n</tbody>\n</table>\n</section>"
        )
    body = (
        "<h1>robot_msgs reference</h1>\n"
        f'<p class="summary">{len(docs)} message types, grouped by family. Every page is '
        "generated from the package: docstrings, field annotations and the test catalog.</p>\n"
        + "\n".join(sections)
    )
    return _document("robot_msgs reference", body, facts, from_page=False, script=_SEARCH_SCRIPT)


def render_site(
    docs: Sequence[TypeDoc] | None = None, facts: PackageFacts | None = None
) -> dict[str, str]:
    """Every page of the reference, by path relative to the output folder.

    Parameters
    ----------
    docs : sequence of TypeDoc, optional
        The types to document; default every registered type.
    facts : PackageFacts, optional
        Footer facts; default :func:`robot_msgs.docs.introspect.package_facts`.

    Returns
    -------
    dict of str to str
        ``"index.html"`` first, then ``"family/Name.html"`` per type, sorted.

    Examples
    --------
    >>> site = render_site()
    >>> next(iter(site)), "compare/ErrorStats.html" in site
    ('index.html', True)
    """
    docs = describe_all() if docs is None else docs
    facts = package_facts() if facts is None else facts
    pages = {INDEX: render_index(docs, facts)}
    for doc in sorted(docs, key=lambda d: d.type_name):
        pages[page_path(doc.type_name)] = render_type_page(doc, facts)
    return pages
