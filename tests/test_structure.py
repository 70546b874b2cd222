"""The package's structure: no import cycle, one file per module path, one name per public function.

The import graph is read from the source (``ast``), every import at any depth (inside
functions too), except those under ``if TYPE_CHECKING:``. Importing ``a.b.c`` from outside
the package ``a.b`` also runs ``a/b/__init__.py``, so an edge to each such enclosing
package is added; the root package, which every module sits in, is not.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import robot_msgs
from robot_msgs.cli.commands import COMMANDS

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


def test_the_message_catalog_is_not_imported_by_the_package_at_run_time() -> None:
    importers = [
        name
        for name in MODULES
        if "robot_msgs.msg.catalog" in _edges(name) and not name.startswith("robot_msgs.docs")
    ]
    assert importers == []


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
