"""The ``robot-msgs`` command line: a thin parser over functions that return an exit code.

Each subcommand lives in its own module of this package, ``<command>_command.py``, with
``add_parser(subparsers)`` and ``run(args) -> int``; :data:`COMMANDS` lists them in the
order ``--help`` shows.

WHY the parser is built for one command: building every subcommand imports every command
module (the readers, the evaluation, the report's plots...). ``robot-msgs COMMAND`` builds
COMMAND's parser in full and the others by name and help only, so a command imports only
what it needs and ``robot-msgs --help`` imports no command at all.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from typing import TYPE_CHECKING

from robot_msgs._version import __version__
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import DataWarning, RobotMsgsError, ValidationError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["COMMANDS", "build_parser", "main"]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the ``robot-msgs`` parser: every subcommand in full, or only ``command``.

    With ``command``, the other subcommands are listed by name and help only (enough for
    ``--help`` and for argparse to tell a known command from a typo).
    """
    parser = argparse.ArgumentParser(
        prog="robot-msgs",
        description="Typed robot messages and honest, fast trajectory evaluation.",
    )
    parser.add_argument("--version", action="version", version=f"robot_msgs {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, text in COMMANDS.items():
        if command is None or name == command:
            module = importlib.import_module(f"robot_msgs.cli.{name}_command")
            module.add_parser(subparsers)
        else:
            subparsers.add_parser(name, help=text)
    return parser


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """Return the parser of ``command`` (its usage is what an error about its flags shows)."""
    for action in parser._actions:  # noqa: SLF001 - argparse keeps subparsers nowhere else
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            found: argparse.ArgumentParser = action.choices[command]
            return found
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
    from robot_msgs.cli._evaluation_args import flags_in_text  # noqa: PLC0415

    label = "WARNING" if issubclass(category, DataWarning) else category.__name__
    print(f"{label}: {flags_in_text(str(message))}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``robot-msgs`` with ``argv`` (default: the process arguments); return the exit code.

    Known errors (bad input, missing extras, refused overwrites) print one ``ERROR:``
    line on stderr and return 1, without a traceback.
    """
    given = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in given if not a.startswith("-")), "")
    parser = build_parser(command if command in COMMANDS else "")
    if command in COMMANDS:
        # Unknown words are answered with the command's usage, evo's flags by name.
        from robot_msgs.cli.evo_flags import evo_hint  # noqa: PLC0415

        sub = _subparser(parser, command)
        hint = evo_hint(given[given.index(command) + 1 :])
        if hint is not None:
            sub.error(hint)
        args, unknown = parser.parse_known_args(given)
        if unknown:
            sub.error(f"unrecognized arguments: {' '.join(unknown)}")
    else:
        args = parser.parse_args(given)
    with warnings.catch_warnings():
        # Data problems fixed by a stated rule are shown to the user, whatever the
        # interpreter's warning filters say (pytest turns warnings into errors).
        warnings.simplefilter("always", DataWarning)
        warnings.showwarning = _show_warning
        try:
            code: int = args.run(args)
        except (RobotMsgsError, OSError) as err:
            # The library names fields and arguments; the command line, its flags.
            from robot_msgs.cli._evaluation_args import flags_in_text, reword  # noqa: PLC0415

            said = reword(err, args) if isinstance(err, ValidationError) else err
            print(f"ERROR: {flags_in_text(str(said))}", file=sys.stderr)
            return 1
    return code
