"""Example trajectories shipped inside the package, addressed as ``example:NAME``."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

__all__ = ["EXAMPLE_PREFIX", "example_path", "list_examples", "resolve_path"]

#: Paths starting with this name a shipped example: ``example:fr1_xyz/groundtruth.tum``.
EXAMPLE_PREFIX = "example:"


#: Sub-folders of ``examples/`` that hold something other than trajectories: ``runs/`` holds
#: the run folders of ``robot-msgs report`` (``example:runs/runs.toml``), ``control_servo/``
#: the logs of ``robot-msgs track`` (``example:control_servo/command.csv``);
#: :func:`example_path` reaches them, :func:`list_examples` does not list them.
_NOT_TRAJECTORIES = ("runs", "control_servo")


def _root() -> Path:
    # The package's folder, as importlib.resources.files("robot_msgs") names it for a package
    # installed as files (the only kind whose examples are files: every caller gets a Path),
    # without importing importlib.resources (zipfile, tempfile, random, shutil: ~6 ms a run).
    return Path(__file__).parent.parent / "examples"


def list_examples() -> tuple[str, ...]:
    """Names of the shipped example files, sorted (``fr1_xyz/groundtruth.tum``, ...).

    Examples
    --------
    >>> "fr1_xyz/groundtruth.tum" in list_examples()
    True
    """
    root = _root()
    names = (
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file()
        and p.name != "README.md"
        and not p.name.startswith(".")
        and p.relative_to(root).parts[0] not in _NOT_TRAJECTORIES
    )
    return tuple(sorted(names))


def example_path(name: str) -> Path:
    """Find the shipped example ``name`` (with or without the ``example:`` prefix).

    A trajectory file, or anything else under ``examples/`` such as the report's run
    folders and manifest (``runs/runs.toml``).

    Raises
    ------
    FileNotFoundError
        No such example; the message lists the names there are.

    Examples
    --------
    >>> example_path("example:fr1_xyz/rgbdslam.tum").name
    'rgbdslam.tum'
    """
    name = name.removeprefix(EXAMPLE_PREFIX)
    parts = PurePosixPath(name).parts
    target = _root().joinpath(*parts)
    if parts and ".." not in parts and target.exists():
        return target
    msg = f"no example {name!r}; examples: {', '.join(list_examples())}"
    raise FileNotFoundError(msg)


def resolve_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a :class:`Path`, resolving ``example:NAME`` to the shipped file.

    Examples
    --------
    >>> resolve_path("runs/est.tum").as_posix()
    'runs/est.tum'
    >>> resolve_path("example:fr1_xyz/groundtruth.tum").name
    'groundtruth.tum'
    """
    text = os.fspath(path)
    if text.startswith(EXAMPLE_PREFIX):
        return example_path(text)
    return Path(text)
