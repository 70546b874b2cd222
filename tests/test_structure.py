"""The package's structure: no import cycle, one file per module path, one name per public
function, package faces that write their names once and resolve them.

The import graph is read from the source (``ast``), every import at any depth (inside
functions too), except those under ``if TYPE_CHECKING:``. Importing ``a.b.c`` from outside
the package ``a.b`` also runs ``a/b/__init__.py``, so an edge to each such enclosing
package is added; the root package, which every module sits in, is not.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import typing
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

import robot_msgs
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.evaluation.settings import DriftProtocol

ROOT = Path(robot_msgs.__file__).parent
PACKAGE = "robot_msgs"


def _modules() -> dict[str, Path | None]:
    """Module name -> source (``None`` for a compiled module, a leaf of the graph)."""
    out: dict[str, Path | None] = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    for path in ROOT.rglob("*.c"):
        out[".".join(path.relative_to(ROOT.parent).with_suffix("").parts)] = None
    return out


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports, at any depth, outside ``TYPE_CHECKING`` blocks."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.orelse:
                    visit_one(stmt)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rsplit(".", 1)[0]
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.orelse:
                visit_one(stmt)
            return
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _edges(name: str) -> set[str]:
    path = MODULES[name]
    if path is None:
        return set()
    edges: set[str] = set()
    for imported in _imported(name, path):
        if not imported.startswith(PACKAGE):
            continue
        target = imported
        while target not in MODULES and "." in target:
            target = target.rsplit(".", 1)[0]
        edges.add(target)
        parts = target.split(".")
        for k in range(2, len(parts)):
            enclosing = ".".join(parts[:k])
            if not (name == enclosing or name.startswith(enclosing + ".")):
                edges.add(enclosing)
    edges.discard(name)
    return edges


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle_at_any_depth() -> None:
    graph = {name: _edges(name) for name in MODULES}
    assert _cycles(graph) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_command_line_module_imports_another_ones_private_name() -> None:
    """The modules of ``robot_msgs.cli`` import one another's names without a ``_``.

    WHY: ``drift`` imported ``_evaluation_output._settings_lines``, and seven more private
    names went between cli modules (``_flag_text._dest``, ``evo_flags._placed``...).
    """
    found = [
        f"{name}: {node.module}.{alias.name}"
        for name, path in MODULES.items()
        if name.startswith(f"{PACKAGE}.cli") and path is not None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith(f"{PACKAGE}.cli.")
        and node.module != name
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert found == []


#: What makes a file importable as a module: a source, or a compiled extension.
_SUFFIXES = (".py", ".so", ".pyd")


def _files_by_module(root: Path) -> dict[str, list[str]]:
    """Dotted module name under ``root`` -> the files that would be imported under it.

    A folder with an ``__init__.py`` is the package of its name; a ``NAME.py`` or a
    compiled ``NAME.<tag>.so`` is the module ``NAME``.
    """
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root.parent)
        if path.is_dir() and (path / "__init__.py").is_file():
            name = ".".join(rel.parts)
        elif path.is_file() and path.suffix in _SUFFIXES and path.stem != "__init__":
            name = ".".join([*rel.parts[:-1], path.name.split(".")[0]])
        else:
            continue
        found.setdefault(name, []).append(str(rel))
    return found


def _shared_paths(root: Path) -> dict[str, list[str]]:
    return {name: files for name, files in _files_by_module(root).items() if len(files) > 1}


def test_each_module_path_names_one_file() -> None:
    """``robot_msgs.a.b`` is one file: no ``b.py`` beside a package ``b/`` or a compiled ``b``.

    Python imports one of them and hides the other without a word (a package wins over a
    module, a compiled extension over a source), so a module left behind by a move, or a
    new one named like the package beside it, is dead code. Two modules may share a
    basename in different folders when they play the same role for different subjects
    (``evaluation/ape.py`` computes APE, ``cli/ape.py`` is its command); two public
    functions or classes may not share a name (below).
    """
    assert _shared_paths(ROOT) == {}


def test_the_path_check_finds_a_module_beside_its_package(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "ros").mkdir(parents=True)
    for name in ("__init__.py", "ros.py", "ros/__init__.py", "ok.py", "fast.c"):
        (package / name).touch()
    (package / "fast.cpython-311-x86_64-linux-gnu.so").touch()
    (package / "fast.py").touch()
    assert _shared_paths(package) == {
        "pkg.fast": ["pkg/fast.cpython-311-x86_64-linux-gnu.so", "pkg/fast.py"],
        "pkg.ros": ["pkg/ros", "pkg/ros.py"],
    }


def _public_functions() -> Counter[str]:
    counts: Counter[str] = Counter()
    for path in ROOT.rglob("*.py"):
        # The CLI command modules share the protocol add_parser/run by design; the torch
        # adapter mirrors the NumPy metrics under the same names (one meaning, two backends).
        if (path.parent.name == "cli" and path.stem in COMMANDS) or path.parent.name == "metrics":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                counts[node.name] += not _is_overload(node)  # typing.overload: one function
    return counts


def _is_overload(node: ast.FunctionDef | ast.ClassDef) -> bool:
    return any(
        getattr(d, "id", getattr(d, "attr", None)) == "overload" for d in node.decorator_list
    )


def test_no_two_public_functions_or_classes_share_a_name() -> None:
    counts = _public_functions()
    assert [name for name, count in counts.items() if count > 1] == []


#: Constants written twice, found by the test below and left to their own change.
_CONSTANTS_LEFT_TWICE: frozenset[str] = frozenset()


def _constants_written_twice() -> dict[str, list[str]]:
    """Constant name -> the modules of one package assigning it one literal value, where two.

    Modules of one package only: across packages one word may name another thing (the
    ``_SIDES`` of runs/folders.py are a run folder's file stems).
    """
    written: dict[tuple[str, str, Path], list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.Assign):
                continue
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            for name in (n for n in names if n.lstrip("_").isupper()):
                try:
                    value = repr(ast.literal_eval(node.value))
                except ValueError:
                    continue
                key = (name, value, path.parent)
                written.setdefault(key, []).append(str(path.relative_to(ROOT)))
    return {name: paths for (name, _, _), paths in written.items() if len(paths) > 1}


def test_no_two_modules_write_one_constant() -> None:
    """``_SIDES = ("estimate", "reference")`` was written in evaluation/association.py and
    evaluation/no_match.py, two definitions to keep agreeing."""
    twice = _constants_written_twice()
    assert {k: v for k, v in twice.items() if k not in _CONSTANTS_LEFT_TWICE} == {}
    assert set(twice) == _CONSTANTS_LEFT_TWICE  # one fixed: leave it off the list


#: Statements that hold no other statement: where a literal pairing is written.
_COMPOUND = (
    ast.If, ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef,
    ast.ClassDef, ast.Match,
)  # fmt: skip


def _drift_pairings() -> list[str]:
    """``module:line`` of each simple statement naming a drift metric and a drift protocol."""
    protocols = set(typing.get_args(DriftProtocol))
    metrics = {"kitti_drift", "relative_error"}  # the metric names results carry
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.stmt) or isinstance(node, _COMPOUND):
                continue
            words = {
                n.value
                for n in ast.walk(node)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            }
            if words & metrics and words & protocols:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_drift_metric_of_each_protocol_is_written_once() -> None:
    """The metric -> protocol map was written in report/saved_results.py (a dict) and
    compare/result.py (``"rpg" if metric == "relative_error" else "kitti"``), two to keep
    agreeing: one declaration only, in evaluation/settings.py."""
    found = _drift_pairings()
    assert [f.split(":")[0] for f in found] == ["evaluation/settings.py"], found


def test_the_message_catalog_is_not_imported_by_the_package_at_run_time() -> None:
    importers = [
        name
        for name in MODULES
        if "robot_msgs.msg.catalog" in _edges(name) and not name.startswith("robot_msgs.docs")
    ]
    assert importers == []


# --------------------------------------------------------------------------- package faces


def _face_problems(package: str, source: str) -> list[str]:
    """What a package face says more than once and does not say alike.

    A lazy face (``_lazy.exports``) names each export in three places: the lazy map
    (name -> submodule), ``__all__`` and the ``if TYPE_CHECKING:`` imports type checkers
    read. They must agree exactly: the same names, each from the same submodule, listed
    once; a name bound eagerly at the top (``__version__``) is in ``__all__`` only. A
    hand-written module ``__getattr__`` is a problem too: nothing could check it.
    """
    problems: list[str] = []
    tree = ast.parse(source)
    lazy: dict[str, str] = {}
    typed: dict[str, str] = {}
    listed: list[str] = []
    eager: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom) and (stmt.module or "").startswith(PACKAGE):
                    for alias in stmt.names:
                        name = alias.asname or alias.name
                        if name in typed:
                            problems.append(f"{name}: imported twice under TYPE_CHECKING")
                        typed[name] = stmt.module or ""
        elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            problems.append("__getattr__ is written by hand; serve the names with exports()")
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            name = target.id if isinstance(target, ast.Name) else ""
            if name == "__all__":
                listed = list(ast.literal_eval(node.value))
            elif name == "__getattr__":
                if not (
                    isinstance(node.value, ast.Call)
                    and getattr(node.value.func, "id", "") == "exports"
                    and len(node.value.args) == 2  # (__name__, {module: names})
                ):
                    problems.append("__getattr__ is not exports(__name__, {module: names})")
                    continue
                mapping: dict[str, tuple[str, ...]] = ast.literal_eval(node.value.args[1])
                for module, names in mapping.items():
                    for each in names:
                        if each in lazy:
                            problems.append(
                                f"{each}: served from {lazy[each]} and {package}.{module}"
                            )
                        lazy[each] = f"{package}.{module}"
            else:
                eager.add(name)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            eager.update(alias.asname or alias.name for alias in node.names)
    if not lazy:
        return problems
    if len(set(listed)) != len(listed):
        problems.append(f"__all__ repeats {sorted(n for n, c in Counter(listed).items() if c > 1)}")
    for name in sorted(set(lazy) | set(typed) | set(listed)):
        if name in eager:
            if name in lazy or name in typed:
                problems.append(f"{name}: bound at import and served lazily")
            continue
        places = (("lazy map", lazy.get(name)), ("TYPE_CHECKING", typed.get(name)))
        said = [f"{place}: {module}" for place, module in places if module is not None]
        if name not in listed:
            said.append("not in __all__")
        if name not in lazy or lazy[name] != typed.get(name) or name not in listed:
            problems.append(f"{name}: {'; '.join(said) or 'in __all__ only'}")
    return problems


def _init_files() -> list[Path]:
    return sorted(ROOT.rglob("__init__.py"))


def _package_of(init: Path) -> str:
    return ".".join(init.parent.relative_to(ROOT.parent).parts)


def _lazy_faces() -> list[Path]:
    return [p for p in _init_files() if "__getattr__" in p.read_text(encoding="utf-8")]


def test_the_lazy_faces_are_found() -> None:
    faces = {_package_of(p) for p in _lazy_faces()}
    assert {"robot_msgs", "robot_msgs.evaluation", "robot_msgs.msg", "robot_msgs.ros"} <= faces


@pytest.mark.parametrize("init", _lazy_faces(), ids=_package_of)
def test_each_package_face_writes_its_names_once(init: Path) -> None:
    assert _face_problems(_package_of(init), init.read_text(encoding="utf-8")) == []


def test_the_face_check_finds_every_disagreement() -> None:
    source = """
from typing import TYPE_CHECKING
from robot_msgs._lazy import exports
from robot_msgs._version import __version__

if TYPE_CHECKING:
    from robot_msgs.pkg.a import alpha, beta
    from robot_msgs.pkg.b import gamma
    from robot_msgs.pkg.c import delta

__all__ = ["__version__", "alpha", "beta", "epsilon", "gamma", "gamma", "zeta"]

__getattr__ = exports(
    __name__, {"a": ("alpha", "beta"), "b": ("delta", "epsilon"), "c": ("beta",)}
)
"""
    assert _face_problems("robot_msgs.pkg", source) == [
        "beta: served from robot_msgs.pkg.a and robot_msgs.pkg.c",
        "__all__ repeats ['gamma']",
        "beta: lazy map: robot_msgs.pkg.c; TYPE_CHECKING: robot_msgs.pkg.a",
        "delta: lazy map: robot_msgs.pkg.b; TYPE_CHECKING: robot_msgs.pkg.c; not in __all__",
        "epsilon: lazy map: robot_msgs.pkg.b",
        "gamma: TYPE_CHECKING: robot_msgs.pkg.b",
        "zeta: in __all__ only",
    ]
    by_hand = "def __getattr__(name):\n    raise AttributeError(name)\n"
    assert _face_problems("robot_msgs.pkg", by_hand) == [
        "__getattr__ is written by hand; serve the names with exports()"
    ]


@pytest.mark.parametrize("init", _init_files(), ids=_package_of)
def test_every_name_a_package_exports_resolves_to_its_definition(init: Path) -> None:
    """Each name of ``__all__`` resolves, to the exported object and not to a submodule.

    A submodule named like an exported name (``evaluation/ape.py`` beside the function
    ``ape``) is imported first, as the doctor or the command line would: the package
    must still give the exported object.
    """
    package = _package_of(init)
    face = importlib.import_module(package)
    wrong = []
    for name in face.__all__:
        if importlib.util.find_spec(f"{package}.{name}") is not None:
            importlib.import_module(f"{package}.{name}")
        try:
            value = getattr(face, name)
        except AttributeError as err:
            wrong.append(f"{name}: {err}")
            continue
        if isinstance(value, ModuleType):
            wrong.append(f"{name}: the module {value.__name__}")
    assert wrong == []


#: Suites that check the package as a whole rather than one module: agreement with the
#: reference tools on real data, the catalogue of bad inputs, this file.
CROSS_CUTTING = {"tests/acceptance", "tests/test_structure.py"}


def _mirrors(test: Path, tests_root: Path) -> bool:
    """Whether ``tests/<dir>/test_<name>.py`` tests a module ``<dir>/<module>``.

    ``<name>`` is the module's name, or starts with it and an underscore for a second
    file on one module (``test_detect_fuzz.py``); a compiled module ``_fasttable.c`` is
    mirrored by ``test_fasttable.py``.
    """
    folder = ROOT.joinpath(*test.parent.relative_to(tests_root).parts)
    name = test.stem.removeprefix("test_")
    candidates = [p.stem for p in folder.glob("*.py")] + [p.stem for p in folder.glob("*.c")]
    candidates += [p.name for p in folder.iterdir() if p.is_dir()] if folder.is_dir() else []
    return any(
        name in (module, module.lstrip("_")) or name.startswith(module.lstrip("_") + "_")
        for module in candidates
        if module != "__init__"
    )


def test_the_tests_mirror_the_package() -> None:
    tests_root = Path(__file__).parent
    strays = [
        str(path.relative_to(tests_root.parent))
        for path in sorted(tests_root.rglob("test_*.py"))
        if not any(
            str(path.relative_to(tests_root.parent)).startswith(prefix) for prefix in CROSS_CUTTING
        )
        and not _mirrors(path, tests_root)
    ]
    assert strays == []
