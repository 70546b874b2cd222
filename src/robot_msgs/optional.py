"""Import optional extras with a clear message naming the ``pip install`` that brings them."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from robot_msgs.errors import MissingDependencyError

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["require"]


def require(module: str, extra: str, *, feature: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` naming the extra to install.

    Examples
    --------
    >>> require("numpy", "core", feature="arrays").__name__
    'numpy'
    """
    try:
        return importlib.import_module(module)
    except ImportError as err:
        msg = (
            f"{feature} needs the optional package {module.split('.', maxsplit=1)[0]!r}: "
            f"pip install 'robot_msgs[{extra}]'"
        )
        raise MissingDependencyError(msg) from err
