"""Load a package's re-exported names when first used (PEP 562 module ``__getattr__``).

WHY: a package ``__init__`` that imports every module it re-exports makes each import of
one module import them all; ``robot-msgs ape`` then paid for the run-report messages,
the drift kernels and the bag readers. Each subpackage lists its names with
:func:`exports` and imports a module only when one of its names is asked for; type
checkers see the same names through the package's ``TYPE_CHECKING`` imports.

A package served this way keeps its exported names when a submodule of the same name is
imported: ``robot_msgs.evaluation`` exports the function ``ape`` and holds the module
``evaluation/ape.py`` (named for what a reader looks for). WHY: Python binds a submodule
on its package when the submodule is first imported, so whoever imported
``robot_msgs.evaluation.ape`` first (the doctor, the command line) would have turned
``from robot_msgs.evaluation import ape`` into the module for the rest of the process.
An eager ``from .entry import ape`` in ``__init__`` wins by running last; a lazy face
wins by declining that binding. The module itself is reached by ``from
robot_msgs.evaluation.ape import ...`` or :func:`importlib.import_module`; ``import
robot_msgs.evaluation.ape as m`` gives the function, as with any package that re-exports
a name over a submodule.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["exports"]

#: Package name -> the names its face exports (read by :class:`_Face`).
_EXPORTED: dict[str, frozenset[str]] = {}


class _Face(ModuleType):
    """A package module whose exported names win over its submodules of the same name."""

    def __setattr__(self, name: str, value: Any) -> None:
        if (
            isinstance(value, ModuleType)
            and value.__name__ == f"{self.__name__}.{name}"
            and name in _EXPORTED.get(self.__name__, ())
        ):
            return  # the import system binding the submodule: the exported name stays
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        """List the exported names too, loaded or not (a notebook's completion shows them)."""
        return sorted(set(super().__dir__()) | _EXPORTED.get(self.__name__, frozenset()))


def exports(
    package: str,
    modules: Mapping[str, tuple[str, ...]],
    *,
    kept: Mapping[str, str] | None = None,
) -> Callable[[str], Any]:
    """Return a module ``__getattr__`` serving ``modules`` (submodule -> names) of ``package``.

    A name is imported from its submodule on first access and kept in the package, so
    later accesses are plain attribute reads. The package's module becomes a
    :class:`_Face`, so importing a submodule named like an exported name does not replace
    that name. ``kept`` (name -> submodule) serves names that are not exported but that
    something written by an earlier release names here (a pickle's ``_rebuild``).

    Examples
    --------
    >>> getattr_ = exports("robot_msgs.compare", {"statistics": ("error_stats",)})
    >>> getattr_("error_stats")([0.3, 0.4]).n
    2
    """
    where = {name: module for module, names in modules.items() for name in names}
    served = {**(kept or {}), **where}
    _EXPORTED[package] = _EXPORTED.get(package, frozenset()) | frozenset(where)
    face = sys.modules.get(package)
    if face is not None and type(face) is ModuleType:
        face.__class__ = _Face

    def __getattr__(name: str) -> Any:  # noqa: N807 - the PEP 562 hook
        module = served.get(name)
        if module is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
