"""``robot-msgs docs``: write the HTML reference, one page per message type plus an index.

Examples
--------
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as out:
...     written = write_reference(Path(out))
...     [p.relative_to(out).as_posix() for p in written][:2]
['index.html', 'action/GoalInfo.html']
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import OutputExistsError
from robot_msgs.files import check_folder, write_atomic
from robot_msgs.report.text import listed

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run", "write_reference"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``docs`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "docs",
        help=COMMANDS["docs"],
        description=(
            "Write one self-contained HTML page per message type, plus index.html, "
            "generated from the installed package."
        ),
    )
    parser.add_argument("--out", type=Path, required=True, help="output folder (created)")
    parser.add_argument(
        "--force", action="store_true", help="overwrite pages that already exist there"
    )
    parser.set_defaults(run=run)


def write_reference(out: Path, *, force: bool = False) -> list[Path]:
    """Write the reference pages into ``out``; return the paths written.

    Parameters
    ----------
    out : Path
        Output folder; created if missing. Files already there that the reference
        does not produce are left alone.
    force : bool
        Overwrite pages already present. Without it, any page that would be
        overwritten stops the run before anything is written.

    Raises
    ------
    OutputExistsError
        A page exists and ``force`` is false.
    OutputPathError
        ``out`` or one of the subfolders the pages go into is a file or not writable, or a
        file stands where one of their parents should be; said before any page is written.
    """
    from robot_msgs.docs import render_site  # noqa: PLC0415 - every message type: not for --help

    check_folder(out)
    pages = render_site()
    targets = {out / rel: html for rel, html in pages.items()}
    existing = [path for path in targets if path.exists()]
    if existing and not force:
        shown = listed([str(p) for p in existing], 3)
        msg = f"{out} already holds reference pages ({shown}); pass --force to overwrite"
        raise OutputExistsError(msg)
    for folder in sorted({path.parent for path in targets}):  # nothing half-written
        check_folder(folder)
    return [write_atomic(path, html, force=force) for path, html in targets.items()]


def run(args: argparse.Namespace) -> int:
    """Write the pages and print each path written, then a count."""
    check_folder(args.out, label="--out")
    written = write_reference(args.out, force=args.force)
    for path in written:
        print(path)
    print(f"{len(written)} files written to {args.out}")
    return 0
