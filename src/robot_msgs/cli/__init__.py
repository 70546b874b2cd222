"""The ``robot-msgs`` command line: a thin parser over functions that return an exit code.

Each subcommand lives in its own module of this package with ``add_parser(subparsers)``
and ``run(args) -> int``; :data:`COMMANDS` lists them in the order ``--help`` shows.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from typing import TYPE_CHECKING

from robot_msgs._version import __version__
from robot_msgs.errors import DataWarning, RobotMsgsError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["COMMANDS", "main"]

COMMANDS: tuple[str, ...] = ("docs", "traj", "ape", "rpe", "drift", "report", "bench")


def build_parser() -> argparse.ArgumentParser:
    """The full ``robot-msgs`` parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="robot-msgs",
        description="Typed robot messages and honest, fast trajectory evaluation.",
    )
    parser.add_argument("--version", action="version", version=f"robot_msgs {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"robot_msgs.cli.{name}")
        module.add_parser(subparsers)
    return parser


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: object = None,
    line: str | None = None,
) -> None:
    del filename, lineno, file, line
    label = "WARNING" if issubclass(category, DataWarning) else category.__name__
    print(f"{label}: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``robot-msgs`` with ``argv`` (default: the process arguments); return the exit code.

    Known errors (bad input, missing extras, refused overwrites) print one ``ERROR:``
    line on stderr and return 1, without a traceback.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        # Data problems fixed by a stated rule are shown to the user, whatever the
        # interpreter's warning filters say (pytest turns warnings into errors).
        warnings.simplefilter("always", DataWarning)
        warnings.showwarning = _show_warning
        try:
            code: int = args.run(args)
        except (RobotMsgsError, OSError) as err:
            print(f"ERROR: {err}", file=sys.stderr)
            return 1
    return code
