"""Import optional extras with a clear message naming the ``pip install`` that brings them."""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from robot_msgs.errors import MissingDependencyError

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["require", "require_installed"]


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


def require_installed(module: str, extra: str, *, feature: str) -> None:
    """Raise :class:`MissingDependencyError` unless ``module`` is installed, without importing it.

    WHY: importing ``distributed`` takes 0.4 s, which a ``--resume`` with nothing left to
    compute never needs; a missing extra is still refused before anything else.

    Examples
    --------
    >>> require_installed("numpy", "core", feature="arrays")
    """
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        msg = (
            f"{feature} needs the optional package {module.split('.', maxsplit=1)[0]!r}: "
            f"pip install 'robot_msgs[{extra}]'"
        )
        raise MissingDependencyError(msg)
