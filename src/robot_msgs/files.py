"""Files: safe output (write beside the target, then rename into place) and TOML input."""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from robot_msgs.errors import OutputExistsError

__all__ = ["parse_toml", "write_atomic"]


def parse_toml(text: str) -> dict[str, Any]:
    r"""The TOML document ``text`` as a dict: ``tomllib`` (Python 3.11+) or ``tomli`` (3.10).

    Raises
    ------
    ValueError
        Invalid TOML (``TOMLDecodeError``, whose message gives line and column); callers
        name the file.

    Examples
    --------
    >>> parse_toml('a = 1\n[b]\nc = "x"')
    {'a': 1, 'b': {'c': 'x'}}
    """
    # tomli is a dependency on Python 3.10 only (pyproject: tomli>=2; python_version<'3.11').
    module = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    data: dict[str, Any] = module.loads(text)
    return data


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *, force: bool = False) -> Path:
    r"""Write ``data`` to ``path`` all at once: readers see the old file or the new, never half.

    Parameters
    ----------
    path : path-like
        The file to write.
    data : str or bytes
        The whole content (``str`` is written as UTF-8).
    force : bool
        Replace an existing file; without it an existing file raises.

    Returns
    -------
    Path
        The path written.

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false; nothing is written.

    Examples
    --------
    >>> import tempfile
    >>> out = write_atomic(Path(tempfile.mkdtemp()) / "sub" / "a.txt", "one\n")
    >>> write_atomic(out, "two\n")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.OutputExistsError: ... exists; pass --force (force=True) to overwrite it
    >>> write_atomic(out, "two\n", force=True).read_text()
    'two\n'
    """
    target = Path(path)
    if target.exists() and not force:
        msg = f"{target} exists; pass --force (force=True) to overwrite it"
        raise OutputExistsError(msg)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes the file 0600; give it the mode a plain open() would (umask honoured).
        umask = os.umask(0)
        os.umask(umask)
        Path(tmp).chmod(0o666 & ~umask)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
