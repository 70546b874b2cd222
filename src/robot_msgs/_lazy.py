"""Load a package's re-exported names when first used (PEP 562 module ``__getattr__``).

WHY: a package ``__init__`` that imports every module it re-exports makes each import of
one module import them all; ``robot-msgs ape`` then paid for the run-report messages,
the drift kernels and the bag readers. Each subpackage lists its names with
:func:`exports` and imports a module only when one of its names is asked for; type
checkers see the same names through the package's ``TYPE_CHECKING`` imports.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["exports"]


def exports(package: str, modules: Mapping[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """Return a module ``__getattr__`` serving ``modules`` (submodule -> names) of ``package``.

    A name is imported from its submodule on first access and kept in the package, so
    later accesses are plain attribute reads.

    Examples
    --------
    >>> getattr_ = exports("robot_msgs.compare", {"statistics": ("error_stats",)})
    >>> getattr_("error_stats")([0.3, 0.4]).n
    2
    """
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:  # noqa: N807 - the PEP 562 hook
        module = where.get(name)
        if module is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
