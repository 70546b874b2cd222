"""Facts about a message type, gathered from the package itself for its reference page.

Nothing here is written per type: the summary and docstring are the class's own, the
fields come from the annotations (:func:`robot_msgs.msg.field_specs`), the example from
the test catalog (:func:`robot_msgs.msg.catalog.example`), the functions from the class
dictionary, and "Used by" from every registered type's annotations.

Examples
--------
>>> from robot_msgs.compare import ErrorStats
>>> doc = describe(ErrorStats)
>>> doc.import_line
'from robot_msgs.compare import ErrorStats'
>>> doc.ros2 is None, [t.__name__ for t in doc.used_by]
(True, ['Repeatability', 'Signal'])
>>> for user, holders in doc.held_by:
...     print(user.__name__, "held by", [t.__name__ for t in holders])
Repeatability held by ['GroupSummary', 'RunReport']
Signal held by ['Aggregate', 'Comparison', 'GroupSummary']
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import re
import subprocess
import types
import typing
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

import robot_msgs
from robot_msgs.docs.ros_notes import ros2_differences, ros2_url
from robot_msgs.docs.rst import entries, sections, without_developer_notes
from robot_msgs.errors import UnknownTypeError
from robot_msgs.msg import Msg, encode_json, field_specs
from robot_msgs.msg.catalog import catalogued, example
from robot_msgs.msg.registry import registered_types
from robot_msgs.ros.definitions import definition

__all__ = [
    "COMMIT_FILE",
    "FieldDoc",
    "MemberDoc",
    "PackageFacts",
    "TypeDoc",
    "built_commit",
    "describe",
    "describe_all",
    "documented_types",
    "example_json",
    "field_descriptions",
    "held_by",
    "import_line",
    "package_facts",
    "used_by",
]

SELF_NAME = "M"
"""How signatures write the message's own type (``Self`` in the source), as the seed page does."""

_NO_DOCSTRING = "No docstring."
_LICENSE = "MIT license"


@dataclasses.dataclass(frozen=True)
class FieldDoc:
    """One row of the fields table.

    ``refers_to`` are the message types named in the annotation (for links);
    ``description`` the unit and meaning from the class docstring's ``Attributes``
    section (reST inline markup), or ``""``.
    """

    name: str
    type_label: str
    default: str
    refers_to: tuple[type[Msg], ...]
    description: str = ""


@dataclasses.dataclass(frozen=True)
class MemberDoc:
    """A constructor, method or property: its name, signature text and own docstring.

    ``owner`` is the class that defines it: the documented type itself, or a base
    such as :class:`~robot_msgs.msg.Msg` ("from Msg" on the page).
    """

    name: str
    kind: str  # "constructor", "method" or "property"
    signature: str
    doc: str
    owner: str


@dataclasses.dataclass(frozen=True)
class TypeDoc:
    """Everything one reference page shows about a message type."""

    cls: type[Msg]
    type_name: str
    family: str
    name: str
    summary: str
    body: str
    import_line: str
    ros2: str | None
    fields: tuple[FieldDoc, ...]
    example_repr: str
    example_json: str
    members: tuple[MemberDoc, ...]
    used_by: tuple[type[Msg], ...]
    ros2_url: str | None = None
    ros2_differences: tuple[str, ...] = ()
    held_by: tuple[tuple[type[Msg], tuple[type[Msg], ...]], ...] = ()
    """Each of ``used_by`` with the types that in turn refer to it (one level up)."""
    ros_definition: str = ""
    """The ``.msg`` text a type without ROS 2 equivalent is recorded under in bags
    (:mod:`robot_msgs.ros.definitions`, as ``robot_msgs/msg/NAME``); empty for the others."""

    @property
    def constructors(self) -> tuple[MemberDoc, ...]:
        """Classmethods and staticmethods, by name."""
        return tuple(m for m in self.members if m.kind == "constructor")

    @property
    def methods(self) -> tuple[MemberDoc, ...]:
        """Public instance methods, by name."""
        return tuple(m for m in self.members if m.kind == "method")

    @property
    def properties(self) -> tuple[MemberDoc, ...]:
        """Read-only computed attributes, by name."""
        return tuple(m for m in self.members if m.kind == "property")


@dataclasses.dataclass(frozen=True)
class PackageFacts:
    """What every page's footer says: version, commit, license and home page."""

    version: str
    commit: str
    license: str
    homepage: str | None


# --------------------------------------------------------------------------- docstrings


def _split_doc(cls: type) -> tuple[str, str]:
    """Return the docstring's first line (summary) and the rest, dedented; "" where absent.

    The rest is without its developer notes (:func:`~robot_msgs.docs.rst.without_developer_notes`).
    """
    doc = inspect.cleandoc(cls.__doc__) if cls.__doc__ else ""
    summary, _, body = doc.partition("\n")
    return summary.strip(), without_developer_notes(body)


def _own_doc(obj: object) -> str:
    """Return the object's own docstring (never a base class's), dedented, without notes."""
    doc = getattr(obj, "__doc__", None)
    return without_developer_notes(inspect.cleandoc(doc)) if doc else _NO_DOCSTRING


# --------------------------------------------------------------------------- import line


def import_line(cls: type[Msg]) -> str:
    """Return the public import of ``cls``: its family module if that exports it.

    Otherwise the shortest enclosing module whose ``__all__`` lists it, else its own module.

    Examples
    --------
    >>> from robot_msgs.geometry import Pose
    >>> import_line(Pose)
    'from robot_msgs.geometry import Pose'
    """
    name = cls.__name__
    family = cls.TYPE.partition("/")[0]
    parts = cls.__module__.split(".")
    candidates = [f"robot_msgs.{family}"] + [".".join(parts[:i]) for i in range(1, len(parts))]
    for module_name in candidates:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if getattr(module, name, None) is cls and name in getattr(module, "__all__", ()):
            return f"from {module_name} import {name}"
    return f"from {cls.__module__} import {name}"


# --------------------------------------------------------------------------- fields


def _message_types_in(annotation: Any) -> list[type[Msg]]:
    """Message classes named anywhere in an annotation (tuple, Mapping, Optional...)."""
    if isinstance(annotation, type) and issubclass(annotation, Msg):
        return [annotation]
    found = [cls for arg in typing.get_args(annotation) for cls in _message_types_in(arg)]
    return list(dict.fromkeys(found))


_FIELD_REFS: dict[type[Msg], dict[str, list[type[Msg]]]] = {}
""":func:`_field_refs` by class: "Used by" asks every type's annotations, many times over."""


def _field_refs(cls: type[Msg]) -> dict[str, list[type[Msg]]]:
    if cls not in _FIELD_REFS:
        hints = typing.get_type_hints(cls, include_extras=True)
        refs = {f.name: _message_types_in(hints[f.name]) for f in dataclasses.fields(cls)}
        _FIELD_REFS[cls] = refs
    return _FIELD_REFS[cls]


def _default_text(value: object) -> str:
    """Format a default as the table shows it: its ``repr``, arrays by shape, dtype and value."""
    if isinstance(value, np.ndarray):
        flat = value.ravel()
        if flat.size and bool(np.all(flat == flat[0])):
            return f"{value.shape} {value.dtype}, all {flat[0].item()!r}"
        return f"{value.shape} {value.dtype} {flat.tolist()!r}"
    return repr(value)


def _meta_description(annotation: Any) -> str:
    """Return the ``Meta(description=...)`` of an annotation (``| None`` looked through), or ""."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Annotated:
        said = [m.description for m in args[1:] if isinstance(m, msgspec.Meta) and m.description]
        return said[0] if said else _meta_description(args[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return next((d for a in args if (d := _meta_description(a))), "")
    return ""


def field_descriptions(cls: type[Msg]) -> dict[str, str]:
    """Return each field's unit and meaning: its docstring entry, else its ``Meta`` description.

    An entry ``name : type, unit`` of the docstring's ``Attributes`` section and its
    indented text become ``"type, unit: text"`` (reST inline markup kept); ``a, b : ...``
    describes both fields. A field without one says what its annotation's
    ``Meta(description=...)`` says (the settings' ``--help`` text), if anything.

    Examples
    --------
    >>> from robot_msgs.sensor import Imu
    >>> field_descriptions(Imu)["angular_velocity"]
    'Vector3, rad/s'
    >>> from robot_msgs.evaluation import EvaluationSettings
    >>> field_descriptions(EvaluationSettings)["n_align"]
    'fit the alignment on the first N matched poses (default: all)'
    """
    _, body = _split_doc(cls)
    out: dict[str, str] = {}
    for names, kind, text in entries(sections(body).get("Attributes", "")):
        for name in names:
            out[name] = f"{kind}: {text}" if kind and text else kind or text
    hints = typing.get_type_hints(cls, include_extras=True)
    for f in dataclasses.fields(cls):
        if f.name not in out and (said := _meta_description(hints[f.name])):
            out[f.name] = said
    return out


def _fields(cls: type[Msg]) -> tuple[FieldDoc, ...]:
    labels = field_specs(cls)
    refs = _field_refs(cls)
    described = field_descriptions(cls)
    rows = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = _default_text(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = _default_text(f.default_factory())
        else:
            default = "required"
        row = FieldDoc(f.name, labels[f.name], default, tuple(refs[f.name]))
        rows.append(dataclasses.replace(row, description=described.get(f.name, "")))
    return tuple(rows)


def documented_types() -> dict[str, type[Msg]]:
    """Return the package's message types: registered ones with an example in the catalog, by name.

    The tests keep this equal to the whole registry; types registered by tests only
    (family ``test/``) have no example and get no page.
    """
    names = set(catalogued())
    return {name: cls for name, cls in registered_types().items() if name in names}


def used_by(cls: type[Msg]) -> tuple[type[Msg], ...]:
    """Documented types with a field that refers to ``cls``, directly or inside a container.

    Examples
    --------
    >>> from robot_msgs.std import Time
    >>> [t.__name__ for t in used_by(Time)]
    ['Clock', 'GoalInfo', 'Header', 'Log', 'MapMetaData', 'ParameterEvent', 'TimeReference']
    """
    users = [
        other
        for other in documented_types().values()
        if other is not cls and any(cls in refs for refs in _field_refs(other).values())
    ]
    return tuple(sorted(users, key=lambda t: t.__name__))


def held_by(cls: type[Msg]) -> tuple[tuple[type[Msg], tuple[type[Msg], ...]], ...]:
    """Each type of :func:`used_by` paired with the documented types that refer to it in turn.

    A type held inside another message (``ErrorStats`` in a ``Signal``) is reached
    through that holder; this says where the holder lives, one level up.

    Examples
    --------
    >>> from robot_msgs.compare import ErrorStats
    >>> for user, holders in held_by(ErrorStats):
    ...     print(user.__name__, "held by", [t.__name__ for t in holders])
    Repeatability held by ['GroupSummary', 'RunReport']
    Signal held by ['Aggregate', 'Comparison', 'GroupSummary']
    """
    return tuple((user, tuple(t for t in used_by(user) if t is not cls)) for user in used_by(cls))


# --------------------------------------------------------------------------- example


def _dump(value: Any, indent: int) -> str:
    """``json.dumps(value, indent=2)``, except that lists of scalars stay on one line."""
    pad = "  " * indent
    if isinstance(value, dict) and value:
        items = [
            f"{pad}  {json.dumps(k, ensure_ascii=False)}: {_dump(v, indent + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        items = [f"{pad}  {_dump(v, indent + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def example_json(msg: Msg) -> str:
    """``msg`` as the strict JSON the package writes, indented by 2, every value shown.

    The text :func:`robot_msgs.msg.encode_json` writes, laid out: NaN is ``null`` (``"NaN"``
    where ``null`` means ``None``) and the infinities ``"Infinity"``/``"-Infinity"``, so any
    JSON parser reads it and :func:`robot_msgs.msg.decode_json` gives an equal message.
    Lists of plain values (array ``data``, ``shape``) are written on one line.

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> print(example_json(Point(x=1.0, y=float("nan"))))
    {
      "_type": "geometry/Point",
      "x": 1.0,
      "y": null,
      "z": 0.0
    }
    """
    return _dump(json.loads(encode_json(msg)), 0)


# --------------------------------------------------------------------------- functions


class _Text:
    """An annotation shown as written (``inspect`` would quote a string annotation)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _annotation(annotation: Any) -> Any:
    if annotation is inspect.Parameter.empty:
        return annotation
    text = annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
    return _Text(re.sub(r"\bSelf\b", SELF_NAME, text))


def _signature(name: str, func: Any, *, drop_first: bool) -> str:
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    if drop_first and params:
        params = params[1:]
    params = [p.replace(annotation=_annotation(p.annotation)) for p in params]
    shown = sig.replace(parameters=params, return_annotation=_annotation(sig.return_annotation))
    return f"{name}{shown}"


def _members(cls: type[Msg]) -> tuple[MemberDoc, ...]:
    """Public constructors, methods and properties of ``cls`` and its message bases."""
    field_names = {f.name for f in dataclasses.fields(cls)}
    members: list[MemberDoc] = []
    for name in sorted(dir(cls)):
        if name.startswith("_") or name in field_names:
            continue
        owner = next((k for k in cls.__mro__ if name in vars(k)), None)
        if owner is None or not issubclass(owner, Msg):
            continue
        raw = vars(owner)[name]
        if isinstance(raw, classmethod | staticmethod):
            func = raw.__func__
            is_class = isinstance(raw, classmethod)
            sig = _signature(name, func, drop_first=is_class)
            members.append(MemberDoc(name, "constructor", sig, _own_doc(func), owner.__name__))
        elif isinstance(raw, property) and raw.fget is not None:
            ret = _annotation(inspect.signature(raw.fget).return_annotation)
            sig = name if ret is inspect.Parameter.empty else f"{name} -> {ret!r}"
            members.append(MemberDoc(name, "property", sig, _own_doc(raw), owner.__name__))
        elif inspect.isfunction(raw):
            sig = _signature(name, raw, drop_first=True)
            members.append(MemberDoc(name, "method", sig, _own_doc(raw), owner.__name__))
    return tuple(members)


# --------------------------------------------------------------------------- package facts


def _git_commit(where: Path) -> str:
    """Short hash of HEAD when ``where`` is a tracked part of a git checkout, else "unknown".

    A ``-dirty`` suffix says the package's files differ from that commit. Never raises.
    """

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603 - fixed arguments, no shell
            ["git", "-C", str(where), *args],  # noqa: S607 - git from PATH, as a developer runs it
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )

    try:
        tracked = git("ls-files", "--error-unmatch", "__init__.py")
        head = git("rev-parse", "--short=7", "HEAD")
        if tracked.returncode != 0 or head.returncode != 0:
            return "unknown"
        dirty = git("status", "--porcelain", "--", ".").stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head.stdout.strip() + ("-dirty" if dirty else "")


def package_facts() -> PackageFacts:
    """Return the installed package's version, git commit (or "unknown"), license and home page."""
    homepage = None
    try:
        from importlib.metadata import PackageNotFoundError, metadata  # noqa: PLC0415

        urls = metadata("robot_msgs").get_all("Project-URL") or []
        homepage = next((u.partition(", ")[2] for u in urls if u.startswith("Homepage")), None)
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        homepage = None
    here = Path(robot_msgs.__file__).resolve().parent
    commit = _git_commit(here)
    if commit == "unknown":
        commit = built_commit(here)
    return PackageFacts(robot_msgs.__version__, commit, _LICENSE, homepage)


#: Written into the package by ``setup.py`` when a wheel is built from a git checkout.
COMMIT_FILE = "_commit.txt"


def built_commit(package_dir: Path) -> str:
    r"""Return the commit recorded in ``package_dir`` when it was built, else "unknown".

    An installed wheel is no git checkout: ``setup.py`` writes the short hash of the
    checkout it was built from into :data:`COMMIT_FILE`, so pages say which code they
    describe.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> built_commit(folder)
    'unknown'
    >>> _ = (folder / COMMIT_FILE).write_text("25f6276\n", encoding="utf-8")
    >>> built_commit(folder)
    '25f6276'
    """
    try:
        text = (package_dir / COMMIT_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return "unknown"
    return text if re.fullmatch(r"[0-9a-f]{7,40}(-dirty)?", text) else "unknown"


# --------------------------------------------------------------------------- whole types


def describe(cls: type[Msg]) -> TypeDoc:
    """Gather every fact the reference page of ``cls`` shows.

    Parameters
    ----------
    cls : type[Msg]
        A registered message type with an example in :mod:`robot_msgs.msg.catalog`.

    Returns
    -------
    TypeDoc
        Summary, docstring body, import line, ROS 2 name, fields, example ``repr`` and
        JSON, constructors/methods/properties and the types that use it.

    Examples
    --------
    >>> from robot_msgs.std import Time
    >>> doc = describe(Time)
    >>> doc.ros2, [m.signature for m in doc.constructors][:2]
    ('builtin_interfaces/msg/Time', ['from_dict(data: Mapping[str, Any]) -> M', 'from_ns(ns: int) -> Time'])
    """  # noqa: E501 - a doctest output line cannot be wrapped
    try:
        instance = example(cls.TYPE)
    except KeyError:
        msg = f"Expected a type with an example in robot_msgs.msg.catalog, got {cls.TYPE!r}"
        raise UnknownTypeError(msg) from None
    summary, body = _split_doc(cls)
    family, _, name = cls.TYPE.partition("/")
    return TypeDoc(
        cls=cls,
        type_name=cls.TYPE,
        family=family,
        name=name,
        summary=summary,
        body=body,
        import_line=import_line(cls),
        ros2=cls.ROS2,
        fields=_fields(cls),
        example_repr=repr(instance),
        example_json=example_json(instance),
        members=_members(cls),
        used_by=used_by(cls),
        held_by=held_by(cls),
        ros2_url=ros2_url(cls),
        ros2_differences=ros2_differences(cls),
        ros_definition="" if cls.ROS2 else definition(cls),
    )


def describe_all() -> list[TypeDoc]:
    """:func:`describe` for every documented type, sorted by ``"_type"``."""
    return [describe(cls) for cls in documented_types().values()]
