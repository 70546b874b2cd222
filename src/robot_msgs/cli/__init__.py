"""The ``robot-msgs`` command line: a thin parser over functions that return an exit code.

Each subcommand lives in its own module of this package, named as the command
(``cli/ape.py`` is ``robot-msgs ape``), with ``add_parser(subparsers)`` and
``run(args) -> int``; :data:`COMMANDS` lists them in the order ``--help`` shows.

WHY the parser is built for one command: building every subcommand imports every command
module (the readers, the evaluation, the report's plots...). ``robot-msgs COMMAND`` builds
COMMAND's parser in full and the others by name and help only, so a command imports only
what it needs and ``robot-msgs --help`` imports no command at all.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import re
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from robot_msgs._version import __version__
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import DataWarning, UsageError, ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

__all__ = ["COMMANDS", "build_parser", "main"]


class _Formatter(argparse.HelpFormatter):
    """argparse's help, never breaking a word at its hyphen.

    WHY: textwrap breaks at hyphens, so at 80 columns ``rpe --help`` showed its example
    as ``Example: robot-`` / ``msgs rpe REF EST ...`` (a command that cannot be copied),
    and ``--transform-left`` said ``row-`` / ``major``, ``--strict`` ``non-`` / ``unit``.
    """

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap  # noqa: PLC0415 - as argparse: only for help

        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.wrap(text, width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        r"""Fill ``text``; its closing ``Example: COMMAND`` on lines of its own.

        The command is folded with ``\`` as a shell reads it, as ``doctor`` lays its
        example out: ``ape --help`` ended a line on ``Example: robot-msgs`` and went on
        with ``ape example:...``, two lines that do not paste as one command.
        """
        import textwrap  # noqa: PLC0415 - as argparse: only for help

        text = self._whitespace_matcher.sub(" ", text).strip()
        prose, said, example = text.partition(" Example: ")
        filled = textwrap.fill(
            prose, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
        )
        if not said:
            return filled
        lead = f"{indent}Example: "
        lines = textwrap.wrap(
            example,
            width - 2,  # room for " \\"
            initial_indent=lead,
            subsequent_indent=" " * len(lead),
            break_long_words=False,
            break_on_hyphens=False,
        )
        return f"{filled}\n" + " \\\n".join(lines)


class _RawDescriptionFormatter(argparse.RawDescriptionHelpFormatter, _Formatter):
    """:class:`_Formatter` with a description laid out by hand (``doctor``'s kinds)."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, with the fixes every subcommand inherits.

    - Help is laid out by :class:`_Formatter`: no word is broken at its hyphen (a
      description laid out by hand, ``RawDescriptionHelpFormatter``, stays as written).

    - A value such as ``-1e-3``, ``-.5`` or ``-inf`` is a negative number, not an unknown
      option (argparse before Python 3.13 took only ``-1`` and ``-1.5`` as numbers).
    - Its one error line is escaped as :func:`~robot_msgs.cli._boundary.escape` does:
      a value with a newline or an escape sequence cannot forge or recolour a line.
    - A file flag (``type=Path``, all but the ``--out`` folders) given with a trailing
      ``/`` is refused: ``Path("X/")`` is ``X``, so ``--save X/`` wrote a file ``X``.
    - An empty path is refused, in a flag or a positional: ``Path("")`` is ``.``, so
      ``docs --out ""`` (an unset ``$OUT``) wrote its pages into the current folder and
      ``report ""`` reported the runs found there.
    - A flag of one value given twice with two values (``--align origin --align se3``) is
      refused naming both; argparse kept the last in silence. The same value twice is
      taken: it says one thing. Repeatable flags (``action="append"``, ``--label``) stay
      repeatable.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raw = kwargs.get("formatter_class") is argparse.RawDescriptionHelpFormatter
        kwargs["formatter_class"] = _RawDescriptionFormatter if raw else _Formatter
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE_NUMBER
        self._given: dict[argparse.Action, tuple[object, list[str]]] = {}

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        """Parse as argparse does; a flag of one value may be given twice only with one value."""
        self._given = {}
        try:
            return super().parse_known_args(*args, **kwargs)
        finally:
            self._given = {}

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        words = [w for w in arg_strings if w != "--"]
        values = super()._get_values(action, arg_strings)
        if not action.option_strings or isinstance(action, _REPEATABLE):
            return values
        before = self._given.get(action)
        if before is None:
            self._given[action] = (values, words)
        elif before[1] != words and before[0] != values:  # NaN is not NaN: the words are
            flag = "/".join(action.option_strings)
            first, second = (" ".join(w) or "no value" for w in (before[1], words))
            once = "give it once"
            if action.nargs in ("+", "*"):
                once += f", with all its values: {action.option_strings[0]} {first} {second}"
            msg = f"{flag} given twice ({first}, {second}); {once}"
            raise argparse.ArgumentError(None, msg)
        return values

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        if not arg_string and _names_a_path(action):
            name = action.option_strings[0] if action.option_strings else str(action.metavar)
            what = _PATH_OF.get(
                str(action.metavar), "a folder" if action.dest == "out" else "a file"
            )
            msg = f"{name} '': an empty path names nothing; give the path of {what}"
            raise UsageError(msg)
        if (
            action.type is Path
            and action.option_strings
            and action.dest != "out"
            and len(arg_string) > 1
            and arg_string.endswith("/")
        ):
            from robot_msgs.errors import OutputPathError  # noqa: PLC0415

            flag = action.option_strings[0]
            msg = f"{flag} {arg_string}: ends in '/', so it names a folder; give the path of a file"
            raise OutputPathError(msg)
        return super()._get_value(action, arg_string)

    def error(self, message: str) -> NoReturn:
        """Print a short usage and the escaped message; exit with status 2.

        The short usage names the arguments and ``[options]``: argparse's full usage of
        ``ape`` ran to 25 lines, and the one line that said what was wrong came after it.
        That line is folded on a terminal as an ``ERROR:`` line is, and stays one line in
        a pipe: ``rpe R E -d 1 -u m -r angle_deg``'s answer ran 98 columns, cut mid-word
        by an 80-column terminal.
        """
        from robot_msgs.cli._boundary import escape, folded, terminal_width  # noqa: PLC0415
        from robot_msgs.report.text import wrap  # noqa: PLC0415

        formatter = self._get_formatter()
        formatter.add_usage(None, self._get_positional_actions(), [])
        usage = " ".join(formatter.format_help().split())  # "usage: robot-msgs ape REF EST..."
        head, _, arguments = usage.partition(self.prog)
        # Folded as argparse folds its usage (bench's ran to 114 columns), a bracket whole.
        words = [f"{head}{self.prog}", "[options]", *_USAGE_WORD.findall(arguments)]
        words.append(f"({self.prog} --help lists them)")
        short = "\n".join(
            wrap(words, terminal_width(sys.stderr), subsequent_indent=" " * len(head))
        )
        message = _inputs_said(self, message)
        if self.prog == "robot-msgs" and message.endswith("required: COMMAND"):
            short += "".join(f"\n{line}" for line in _commands_listed(terminal_width(sys.stderr)))
        said = folded(f"ERROR: {self.prog}: {escape(message)}", sys.stderr)
        self.exit(2, f"{short}\n{said}\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """Refuse a value not among many choices with the close ones, not all of them.

        WHY: ``ape --relation angle`` was answered with its 32 choices on one line of 528
        columns; argparse's own message stays for a few choices. A relation of the other
        of ``ape`` and ``rpe`` is said so: ``ape --relation point_distance_error_ratio``
        (RPE's) was asked "did you mean point_distance?", another quantity.
        """
        names = [str(choice) for choice in action.choices or ()]
        text = str(value)
        # ape --relation x REF EST: a flag of several choices took the files
        listed = bool(names and action.option_strings) and action.nargs == "+"
        listed = listed and text not in names
        if listed and (Path(text).exists() or text.startswith("example:")):
            flag = action.option_strings[0]
            msg = (
                f"{text!r} is a file: {flag} takes every word up to the next flag; give "
                "the files before it (or end its values with --)"
            )
            raise argparse.ArgumentError(action, msg)
        if len(names) > _LISTED_CHOICES and str(value) not in names:
            from robot_msgs.errors import did_you_mean  # noqa: PLC0415 - only for the error

            close = _relation_elsewhere(self.prog, action, str(value))
            close = close or did_you_mean(str(value), names)
            msg = f"invalid choice: {value!r}{close} ({self.prog} --help lists all {len(names)})"
            raise argparse.ArgumentError(action, msg)
        super()._check_value(action, value)


def _inputs_said(parser: argparse.ArgumentParser, message: str) -> str:
    """Say what REF and EST are where argparse says only that they are required.

    WHY: ``ape REF`` alone was told "the following arguments are required: EST" (a
    newcomer's walk), not what EST is; ``ape``, ``rpe``, ``drift`` and ``doctor`` take
    their inputs by :func:`~robot_msgs.cli._input_args.add_input_args`.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("reference", metavar="REF")
    >>> _ = parser.add_argument("estimate", metavar="EST")
    >>> _inputs_said(parser, "the following arguments are required: EST")
    'needs two trajectories: REF (the reference) then EST (the estimate); EST is missing'
    """
    missing = message.removeprefix("the following arguments are required: ").split(", ")
    positionals = [action.metavar for action in parser._get_positional_actions()]  # noqa: SLF001
    if positionals != ["REF", "EST"] or not set(missing) <= {"REF", "EST"}:
        return message
    said = "EST is missing" if missing == ["EST"] else "REF and EST are missing"
    return f"needs two trajectories: REF (the reference) then EST (the estimate); {said}"


def _commands_listed(width: int) -> list[str]:
    r"""Return the commands ``--help`` lists, each with its help, folded to ``width``.

    WHY: ``robot-msgs`` alone said only "the following arguments are required:
    COMMAND" (a newcomer's walk), naming none of them.

    Examples
    --------
    >>> print(*_commands_listed(80)[:3], sep="\n")
    commands:
      docs    write the HTML reference of every message type
      schema  print the JSON Schema of a message type
    """
    from robot_msgs.report.text import wrap  # noqa: PLC0415 - only for an error

    column = " " * (2 + max(map(len, COMMANDS)) + 2)
    lines = ["commands:"]
    for name, text in COMMANDS.items():
        first = f"  {name}".ljust(len(column))
        lines += wrap(text, width, initial_indent=first, subsequent_indent=column)
    return lines


def _relation_elsewhere(prog: str, action: argparse.Action, value: str) -> str:
    """Say that ``value`` is a ``--relation`` of the other of ``ape`` and ``rpe``, or "".

    Examples
    --------
    >>> relation = argparse.Action(["--relation"], "relation")
    >>> _relation_elsewhere("robot-msgs ape", relation, "point_distance_error_ratio")
    ': a relation of robot-msgs rpe only'
    >>> _relation_elsewhere("robot-msgs rpe", relation, "point_distance_error_ratio")
    ''
    """
    if "--relation" not in action.option_strings:
        return ""
    from robot_msgs.cli._settings_flags_table import TABLE  # noqa: PLC0415 - only for the error

    for settings, command in (("Ape", "ape"), ("Rpe", "rpe")):
        row = next(row for row in TABLE[settings] if row["field"] == "relation")
        if prog != f"robot-msgs {command}" and value in row["choices"]:
            return f": a relation of robot-msgs {command} only"
    return ""


def _names_a_path(action: argparse.Action) -> bool:
    """Whether ``action`` takes a path: ``type=Path``, or a file's metavar."""
    return action.type is Path or (
        isinstance(action.metavar, str) and action.metavar in _PATH_METAVARS
    )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the ``robot-msgs`` parser: every subcommand in full, or only ``command``.

    With ``command``, the other subcommands are listed by name and help only (enough for
    ``--help`` and for argparse to tell a known command from a typo).
    """
    from robot_msgs.limits import parse_size  # noqa: PLC0415

    parser = _Parser(
        prog="robot-msgs",
        description="Typed robot messages and honest, fast trajectory evaluation.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"robot_msgs {__version__}")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="on an unexpected error (a bug), print its traceback instead of writing it to a file",
    )
    parser.add_argument(
        "--max-bytes",
        type=parse_size,
        metavar="SIZE",
        help="the most bytes read from one saved result, zip entry or pipe (default 1G; e.g. 4G)",
    )
    parser.add_argument(
        "--max-document",
        type=parse_size,
        metavar="SIZE",
        help="the most bytes of one manifest, meta.json, transform file or evo zip's JSON "
        "(default 16M)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, text in COMMANDS.items():
        if command is None or name == command:
            module = importlib.import_module(f"robot_msgs.cli.{name}")
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
    *,
    command: str = "",
) -> None:
    from robot_msgs.cli._boundary import escape, folded  # noqa: PLC0415

    del filename, lineno, file, line
    from robot_msgs.cli._flag_text import flags_in_text  # noqa: PLC0415

    label = "WARNING" if issubclass(category, DataWarning) else category.__name__
    stream = sys.stderr
    if stream is None:
        return
    # On a terminal a long warning (KITTI's rounding note is 230 characters) is folded to
    # its width under its label; in a pipe or a log it stays one line, for grep.
    said = flags_in_text(str(message), command=command, offered=_options_of)
    print(folded(escape(f"{label}: {said}"), stream), file=stream)


@functools.cache
def _options_of(command: str) -> frozenset[str]:
    """Return the option strings of ``command`` (``--align``, ``--save``, ...).

    A flag that takes a word as well as a value (metavar ``SECONDS|auto``) is there with
    the word too (``--offset auto``): traj's ``--offset`` takes seconds only.
    """
    sub = _subparser(build_parser(command), command)
    actions = sub._actions  # noqa: SLF001 - argparse keeps its actions nowhere else
    words = {
        f"{flag} {word}"
        for action in actions
        if isinstance(action.metavar, str)
        for word in action.metavar.split("|")[1:]
        for flag in action.option_strings
    }
    return frozenset(flag for action in actions for flag in action.option_strings) | words


@functools.cache
def _values_of(command: str) -> dict[str, int | str | None]:
    """Return the option strings of ``command`` that take values, with their ``nargs``."""
    sub = _subparser(build_parser(command), command)
    return {
        flag: action.nargs
        for action in sub._actions  # noqa: SLF001 - argparse keeps its actions nowhere else
        for flag in action.option_strings
        if action.nargs != 0
    }


def _flag_values(after: list[str], command: str) -> set[int]:
    """Return the places in ``after`` of words argparse takes as a flag's value.

    ``ape R E --label \u2014offset`` names an estimate "\u2014offset": a word after a
    flag that takes a value is that value (several after ``--lengths``, one at most after
    ``--json``, whose value is optional), unless it is a flag itself.

    Examples
    --------
    >>> sorted(_flag_values(["R", "--label", "\u2014x", "E", "--offset", "-0.5"], "ape"))
    [2, 5]
    >>> sorted(_flag_values(["R", "--lab", "x", "--label=y", "E"], "ape"))
    [2]
    """
    valued = _values_of(command)
    places: set[int] = set()
    at = 0
    while at < len(after):
        word = after[at]
        at += 1
        if word == "--":
            break
        if "=" in word or not _is_flag(word):
            continue
        # argparse's abbreviation of a flag (--lab: --label) takes its values too
        known = [o for o in valued if word.startswith("--") and o.startswith(word)]
        nargs = valued[word] if word in valued else valued[known[0]] if len(known) == 1 else 0
        # one (nargs None or "?"), a count, or all up to the next flag ("+", "*")
        most = 1 if nargs in (None, "?") else nargs if isinstance(nargs, int) else len(after)
        while most and at < len(after) and after[at] != "--" and not _is_flag(after[at]):
            places.add(at)
            at += 1
            most -= 1
    return places


def typed_without(
    args: argparse.Namespace,
    *,
    inputs: Callable[[str], bool],
    flags: Collection[str] = (),
    nth: Mapping[str, Collection[int]] | None = None,
) -> str:
    """Return the command line typed, less the inputs ``inputs`` picks and ``flags``.

    What a refusal offers to type keeps every other word the user gave (``traj A B --ref
    A --align se3 --plot x.pdf`` was offered ``robot-msgs traj B --ref A``, its flags
    dropped). A flag is dropped with its values, abbreviated (``--al``) or with ``=``:
    every time it is given if in ``flags``, else the times ``nth`` names, counted from 0
    (the ``--label`` of a dropped input). ``args`` holds the words typed (:func:`main`
    keeps them), else its ``files``.

    Examples
    --------
    >>> args = argparse.Namespace(
    ...     typed=["traj", "a.tum", "b.tum", "--ref", "a.tum", "--al", "se3", "--check"]
    ... )
    >>> typed_without(args, inputs="a.tum".__eq__)
    'robot-msgs traj b.tum --ref a.tum --al se3 --check'
    >>> typed_without(args, inputs="b.tum".__eq__, flags=("--ref", "--align"))
    'robot-msgs traj a.tum --check'
    >>> args.typed += ["--label", "a", "--lab=b"]
    >>> typed_without(args, inputs="a.tum".__eq__, nth={"--label": [0]})
    'robot-msgs traj b.tum --ref a.tum --al se3 --check --lab=b'
    """
    import shlex  # noqa: PLC0415 - only for a refusal

    given = list(getattr(args, "typed", None) or [args.command, *args.files])
    command = _command_of(given)
    at = given.index(command) + 1
    after = given[at:]
    values = _flag_values(after, command)
    options = _options_of(command)
    kept = given[:at]
    dropping = False  # the values of a dropped flag go with it
    positional = False  # after "--" every word is an input
    times: dict[str, int] = {}  # how often each flag was given so far
    for k, word in enumerate(after):
        if k in values and not positional:
            if not dropping:
                kept.append(word)
            continue
        dropping = False
        if word == "--" and not positional:
            positional = True
        elif _is_flag(word) and not positional:
            flag = word.split("=", 1)[0]
            known = [o for o in options if flag.startswith("--") and o.startswith(flag)]
            full = flag if flag in options or len(known) != 1 else known[0]
            times[full] = times.get(full, -1) + 1
            if full in flags or times[full] in (nth or {}).get(full, ()):
                dropping = True
                continue
        elif inputs(word):
            continue
        kept.append(word)
    return shlex.join(["robot-msgs", *kept])


def _dashes_hint(unknown: list[str], options: frozenset[str]) -> str | None:
    """Answer our own flags typed with evo's underscores (``--max_diff``), or None.

    evo spells every flag with underscores; those evo has are answered by
    :func:`~robot_msgs.cli.evo_flags.evo_hint`, but ours alone (``--max_diff``,
    ``--save_aligned``, ``--ref_topic``) were "unrecognized arguments".

    Examples
    --------
    >>> ours = frozenset({"--max-diff", "--ref-topic"})
    >>> _dashes_hint(["--max_diff", "0.1"], ours)
    '--max_diff is spelled --max-diff here'
    >>> _dashes_hint(["--max_diff", "0.1", "--ref_topic=/x"], ours)
    '--max_diff --ref_topic are spelled --max-diff --ref-topic here'
    >>> _dashes_hint(["--nothing_like"], ours) is None
    True

    One hyphen (``-max-diff``, as Go's and Java's tools spell flags) and capitals
    (``--Max-Diff``) are answered so too.

    >>> _dashes_hint(["-max_diff", "--Ref-Topic"], ours)
    '-max_diff --Ref-Topic are spelled --max-diff --ref-topic here'

    So is our flag cut short as argparse takes it (``--max_dif``): it was told that
    --max-diff is a flag of other commands, not of ape, which has it.

    >>> _dashes_hint(["--max_dif"], ours)
    '--max_dif is spelled --max-diff here'
    """
    typed, dashed = [], []
    for word in unknown:
        flag = word.split("=", 1)[0]
        ours = flag.replace("_", "-").lower()
        if flag[:1] == "-" and flag[1:2].isalpha() and len(flag) > 2:
            ours = f"-{ours}"  # -max-diff: one hyphen
        ours = _abbreviated(ours, [options]) if ours.startswith("--") else ours
        if flag.startswith("-") and ours != flag and ours in options:
            typed.append(flag)
            dashed.append(ours)
    if not typed:
        return None
    verb = "is" if len(typed) == 1 else "are"
    return f"{' '.join(typed)} {verb} spelled {' '.join(dashed)} here"


def _typographic_hint(after: list[str], command: str) -> str | None:
    """Answer flags pasted with a typographic dash (``—align``), or None.

    A page or a word processor turns ``--`` into an em or en dash: ``ape R E —align
    se3`` took ``—align`` and ``se3`` for estimates ("—align: no such file", exit 1).
    Answered only where the hyphenated word is one of the command's flags and no such
    file exists.

    Examples
    --------
    >>> _typographic_hint(["R", "E", "\u2014align", "se3"], "ape")
    '\u2014align is typed with a dash (U+2014), not hyphens: --align'
    >>> _typographic_hint(["R", "E", "\u2014nothing"], "ape") is None
    True
    """
    if not any(word[:1] in _DASHES for word in after):
        # WHY first: the command's options and valued flags come from a second parser of
        # the command, built for this question alone (two more parsers: 5 ms of CPU).
        return None
    options = _options_of(command)
    values = _flag_values(after, command)  # `--label \u2014offset` names an estimate
    typed, ours, codes = [], [], []
    for at, word in enumerate(after):
        if word == "--":
            break
        flag = word.split("=", 1)[0]
        if flag[:1] not in _DASHES or os.path.lexists(word) or at in values:
            continue
        hyphenated = "--" + flag.lstrip("".join(_DASHES) + "-").replace("_", "-")
        if hyphenated in options:
            typed.append(flag)
            ours.append(hyphenated)
            codes.append(f"U+{ord(flag[0]):04X}")
    if not typed:
        return None
    dash = "a dash" if len(typed) == 1 else "dashes"
    code = ", ".join(dict.fromkeys(codes))
    verb = "is" if len(typed) == 1 else "are"
    return f"{' '.join(typed)} {verb} typed with {dash} ({code}), not hyphens: {' '.join(ours)}"


def _unit_apart_hint(after: list[str], sub: argparse.ArgumentParser) -> str | None:
    """Answer a flag's number typed apart from its unit (``--max-diff 20 ms``), or None.

    argparse took ``20`` and answered ``ms`` as an unrecognized argument (or as an
    estimate); ``--max-diff 20ms`` is answered by the flag's own type with the number
    alone. The same answer here (:func:`~robot_msgs.cli._flag_text.unit_answer`),
    where the next word is a unit and no such file; another unit, or a flag of plain
    numbers (``drift --seconds 10 s``), is told the unit is not taken, and a flag whose
    unit is a flag of its own (``rpe --delta 1 m``) is shown it.

    Examples
    --------
    >>> sub = _subparser(build_parser("ape"), "ape")
    >>> _unit_apart_hint(["R", "E", "--max-diff", "20", "ms"], sub)
    "argument --max-diff: '20 ms' is 0.02 s: give the number alone (--max-diff 0.02)"
    >>> _unit_apart_hint(["R", "E", "--max-diff", "20", "E2"], sub) is None
    True
    """
    from robot_msgs.cli._flag_text import unit_answer  # noqa: PLC0415

    actions = sub._option_string_actions  # noqa: SLF001 - argparse keeps them nowhere else
    words = after[: after.index("--")] if "--" in after else after
    for at, word in enumerate(words):
        flag, equals, value = word.partition("=")
        action = actions.get(flag)
        if action is None or action.nargs not in (None, "+") or not callable(action.type):
            continue
        taken = ([value] if equals else []) + words[at + 1 :]
        # The numbers the flag took (one, or up to the next word: --delta 1 2 m), then that word.
        count = next((n for n, w in enumerate(taken) if not _is_numbers(w)), len(taken))
        if count == 0 or count == len(taken) or (action.nargs is None and count > 1):
            continue
        number, unit = " ".join(taken[:count]), taken[count]
        if unit.startswith("-") or os.path.lexists(unit):
            continue
        typed = repr(f"{number} {unit}")
        apart = actions.get(f"{flag}-unit")  # rpe --delta 1 m: --delta-unit m
        if apart is not None and apart.choices is not None and unit in apart.choices:
            shown = f"{flag} {number} {flag}-unit {unit}"
            return f"argument {flag}: {typed}: the unit is its own flag ({shown})"
        metavar = action.metavar if isinstance(action.metavar, str) else ""
        said = unit_answer(flag, metavar.partition("|")[0], number, unit, typed)
        if said is not None:
            return f"argument {flag}: {said}"
    return None


def _is_numbers(word: str) -> bool:
    """Whether ``word`` is numbers alone, comma-separated (``100,200``)."""
    try:
        return all(float(part) or True for part in word.split(",") if part) and bool(word)
    except ValueError:
        return False


def _elsewhere_hint(unknown: list[str], command: str) -> str | None:
    r"""Answer flags of another command given to ``command`` (``ape --delta 1``), or None.

    ``ape REF EST --delta 1`` was told "unrecognized arguments: --delta 1", a flag the
    user had met in ``rpe``: it is said whose it is. A flag of one file that ``command``
    takes for each side (traj's ``--topic``, ``--times``) is said with those two. So is
    the abbreviation the other command takes (argparse's, of one of its flags):
    ``ape REF EST --all-pair`` was asked "did you mean --spatial-pairs?", another idea.

    Examples
    --------
    >>> _elsewhere_hint(["--delta", "1"], "ape")
    "--delta is rpe's, not ape's"
    >>> _elsewhere_hint(["--lengths", "100", "--all-pairs"], "ape")
    "--lengths is drift's, not ape's; --all-pairs is rpe's, not ape's"
    >>> _elsewhere_hint(["--topic", "/gt"], "ape")
    "--topic is traj's; here: --ref-topic and --est-topic"
    >>> _elsewhere_hint(["--quiet"], "res")
    '--quiet is a flag of ape, rpe, drift, report and bench, not of res'
    >>> _elsewhere_hint(["--nothing"], "ape") is None
    True
    >>> said = _elsewhere_hint(["--all-pair", "--top", "/gt", "--qui"], "ape")
    >>> print(*said.split("; "), sep="\n")
    --all-pair is rpe's --all-pairs, not ape's
    --top is traj's --topic
    here: --ref-topic and --est-topic
    --qui (--quiet) is a flag of rpe, drift, report and bench, not of ape
    """
    if not any(word.replace("_", "-").startswith("--") for word in unknown):
        return None  # before building every other command's parser to look in
    said = []
    others = {name: _options_of(name) for name in COMMANDS if name != command}
    for word in unknown:
        typed = word.split("=", 1)[0].replace("_", "-")
        if not typed.startswith("--"):
            continue
        flag = _abbreviated(typed, others.values())
        owners = [name for name, options in others.items() if flag in options]
        named = "" if flag == typed else f" {flag}"  # the flag an abbreviation stands for
        sides = [f"--{side}-{flag[2:]}" for side in ("ref", "est")]
        if len(owners) == 1 and set(sides) <= set(_options_of(command)):  # traj's --topic
            said.append(f"{typed} is {owners[0]}'s{named}; here: {' and '.join(sides)}")
        elif len(owners) == 1:
            said.append(f"{typed} is {owners[0]}'s{named}, not {command}'s")
        elif owners:  # "is ape and rpe and drift and report and bench's" read badly
            listed = f"{', '.join(owners[:-1])} and {owners[-1]}"
            typed += f" ({flag})" if named else ""
            said.append(f"{typed} is a flag of {listed}, not of {command}")
    return "; ".join(said) or None


def _abbreviated(typed: str, offered: Iterable[Collection[str]]) -> str:
    """Return the flag ``typed`` abbreviates in each command of ``offered`` that takes it.

    ``typed`` itself where a command has it, where no command takes it, or where the
    commands would read it as different flags (or one of them as several: argparse
    refuses an ambiguous abbreviation).

    Examples
    --------
    >>> _abbreviated("--all-pair", [{"--all-pairs", "--delta"}, {"--align"}])
    '--all-pairs'
    >>> _abbreviated("--al", [{"--all-pairs"}, {"--align"}])
    '--al'
    """
    offered = list(offered)
    if any(typed in options for options in offered):
        return typed
    taken = [{o for o in options if o.startswith(typed)} for options in offered]
    full = set().union(*taken)
    return full.pop() if len(full) == 1 else typed


def _is_flag(word: str) -> bool:
    """Whether ``word`` is a flag as argparse reads one (not ``-``, not ``-0.5``)."""
    return word.startswith("-") and word != "-" and not _NEGATIVE_NUMBER.match(word)


def _unknown_said(unknown: list[str], command: str, parser: argparse.ArgumentParser) -> str:
    r"""Say every word of ``unknown`` that ``command`` does not take, in one message.

    Each flag is said by the first that answers it: our flag typed with evo's
    underscores (:func:`_dashes_hint`), another command's flag
    (:func:`_elsewhere_hint`), else argparse's "unrecognized arguments"; the words
    after an answered flag are its value. ``ape REF EST --max_diff 0.1 --bogus`` was
    told of --max_diff alone, and of --bogus a try later. "" when ``unknown`` is empty.

    Examples
    --------
    >>> import argparse
    >>> words = ["--max_diff", "0.1", "--delta", "1", "--bogus", "2"]
    >>> print(*_unknown_said(words, "ape", argparse.ArgumentParser()).split("; "), sep="\n")
    --max_diff is spelled --max-diff here
    --delta is rpe's, not ape's
    unrecognized arguments: --bogus 2
    """
    options = _options_of(command)
    dashed: list[str] = []
    elsewhere: list[str] = []
    before: list[str] = []  # robot-msgs' own flags, typed after the command
    rest: list[str] = []
    answered = False  # the word before was an answered flag: a value is its own
    for word in unknown:
        if not _is_flag(word):
            if before and before[-1] in _TOP_VALUED:  # --max-bytes 1G: said with its value
                before[-1] += f" {word}"
            elif not answered:
                rest.append(word)
            continue
        answered = True
        if word.split("=", 1)[0] in _TOP_FLAGS:
            before.append(word)
        elif _dashes_hint([word], options):
            dashed.append(word)
        elif _elsewhere_hint([word], command):
            elsewhere.append(word)
        else:
            rest.append(word)
            answered = False
    said = [
        _dashes_hint(dashed, options),
        _elsewhere_hint(elsewhere, command),
        _unrecognized(parser, rest, command) if rest else None,
    ]
    if before:  # `ape R E --max-bytes 1G` was "unrecognized arguments", a flag of ours
        before = [f"{w} SIZE" if w in _TOP_VALUED else w for w in before]  # no value typed
        flags = " ".join(w.split("=", 1)[0].split()[0] for w in before)
        verb = "goes" if len(before) == 1 else "go"
        then = "" if "--version" in before else f" {command}"  # --version takes none
        said.insert(0, f"{flags} {verb} before the command: robot-msgs {' '.join(before)}{then}")
    return "; ".join(part for part in said if part)


def _unknown_flags(after: list[str], command: str) -> list[str]:
    """Return the flags in ``after`` that neither ``command`` nor evo's hints know.

    Read from the words as typed, as the evo hints are, before argparse (which stops at
    evo's ``--align -s``, a flag without its value): a prefix of one of the command's
    flags is argparse's abbreviation of it, not unknown.

    Examples
    --------
    >>> _unknown_flags(["R", "-va", "--bogus=1", "--forc", "--offset", "-0.5", "-"], "ape")
    ['--bogus=1']
    """
    from robot_msgs.cli.evo_flags import evo_spelled, evo_words  # noqa: PLC0415 - for an error

    options = _options_of(command)
    evo = evo_words(command)
    out = []
    for at, word in enumerate(after):
        if word == "--":
            break
        flag = word.split("=", 1)[0]
        if not _is_flag(word) or flag in options or flag in evo:
            continue
        if evo_spelled([word], _options_of) != [word]:  # -av, --plot-mode: evo's, answered
            continue
        if flag.startswith("--") and any(option.startswith(flag) for option in options):
            continue
        out.append(word)
        value = after[at + 1] if at + 1 < len(after) else "-"
        if word in _TOP_VALUED and not _is_flag(value):  # said with it: --max-bytes 1G
            out.append(value)
    return out


def _command_of(given: list[str]) -> str:
    """Find the subcommand's name: the first word that is no option nor an option's value."""
    skip = False
    for word in given:
        if skip:
            skip = False
        elif word in ("--max-bytes", "--max-document"):
            skip = True
        elif not word.startswith("-"):
            return word
    return ""


#: The variables that set a BLAS library's thread count (OpenBLAS, MKL, BLIS); OpenBLAS
#: and MKL read ``OMP_NUM_THREADS`` too, so a user's setting of any of them is kept whole.
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")
_THREAD_SETTINGS = (*_BLAS_THREADS, "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _one_blas_thread() -> None:
    """Run BLAS on one thread in this process, unless the user chose a count or NumPy is loaded.

    WHY: the package's matrix products are ``(N, 3)`` by ``(3, 3)``, sums of ``(N, 3)``
    rows and dot products: memory-bound, a few milliseconds at 10^6 poses on one thread.
    OpenBLAS threads any dot of more than 10^4 values, and its idle threads then spin
    on the other core. On the 2-core machine, ``python -c "import numpy"`` took 0.17-0.26 s
    of CPU against 0.08-0.11 s with one thread (the pool's start), and ``robot-msgs ape
    REF EST --align se3`` at 10^6 poses 1.02-1.27 s against 0.74-0.89 s (a 10^6-pose
    file's one ``vdot`` in :func:`~robot_msgs.trajectory.pose.rows_past_limit` spun
    the core the other file was being read on). Read before NumPy loads OpenBLAS, so
    set here, before any command imports it; children (``bench``'s workers) inherit it.
    """
    if "numpy" in sys.modules:  # called in a process that already loaded it: too late
        return
    if any(name in os.environ for name in _THREAD_SETTINGS):
        return
    for name in _BLAS_THREADS:
        os.environ[name] = "1"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``robot-msgs`` with ``argv`` (default: the process arguments); return the exit code.

    Whatever ends a command ends as one ``ERROR:`` line on standard error (escaped) and
    an exit status by its kind, never a traceback: 1 for bad input or output, 2 for the
    command line (a flag's value the library refuses too), 70 for a bug (the line names
    the file holding the traceback), 130 for Ctrl-C, 141 when standard output's reader
    went away, 143 for SIGTERM (the table is in
    :mod:`robot_msgs.cli._boundary`). Without ``argv`` it runs as the program, whose
    process exits with the status returned: a Ctrl-C or SIGTERM after the command ends
    the process at once with that status (:func:`~robot_msgs.cli._boundary.run_guarded`).
    """
    _one_blas_thread()
    from robot_msgs.cli._boundary import error_text, run_guarded  # noqa: PLC0415

    given = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in given[: given.index(_command_of(given))] if _command_of(given) else False

    def command() -> int:
        from robot_msgs.io.bounded import kept_streams  # noqa: PLC0415

        with kept_streams():  # a pipe given as an input is read once by all its readers
            return run_command()

    def worded(err: BaseException) -> str:
        # The library names fields and arguments; the command line, its flags.
        from robot_msgs.cli._flag_text import flags_in_text  # noqa: PLC0415

        return flags_in_text(error_text(err), command=_command_of(given), offered=_options_of)

    def run_command() -> int:
        command = _command_of(given)
        parser = build_parser(command if command in COMMANDS else "")
        if command in COMMANDS:
            # Unknown words are answered with the command's usage, evo's flags and
            # evo's format-first word order (`ape tum GT EST`) by name.
            from robot_msgs.cli.evo_flags import evo_hint, evo_syntax_hint  # noqa: PLC0415
            from robot_msgs.cli.rpg_folder import rpg_folder_hint  # noqa: PLC0415

            sub = _subparser(parser, command)
            after = given[given.index(command) + 1 :]
            # Both at once: evo's most common line, `evo_ape tum GT EST -va`, was answered
            # for -va alone, and then, -va replaced, for tum.
            hints = (
                _typographic_hint(after, command),
                _unit_apart_hint(after, sub),
                evo_syntax_hint(command, sub, after),
                evo_hint(after, command, _options_of),
                rpg_folder_hint(command, after, valued=_valued_flags(sub)),
            )
            if any(hints):  # and the other unknown flags: one error says them all
                others = _unknown_said(_unknown_flags(after, command), command, sub)
                sub.error("; ".join(hint for hint in (*hints, others) if hint))
            args, unknown = parser.parse_known_args(given)
            if unknown:
                sub.error(_unknown_said(unknown, command, sub))
            args.typed = given  # what a refusal offers to type keeps it (typed_without)
        else:
            args = parser.parse_args(given)
        with warnings.catch_warnings():
            # Data problems fixed by a stated rule are shown to the user, whatever the
            # interpreter's warning filters say (pytest turns warnings into errors).
            warnings.simplefilter("always", DataWarning)
            warnings.showwarning = functools.partial(_show_warning, command=command)
            try:
                if args.max_bytes is None and args.max_document is None:
                    code: int = args.run(args)
                else:
                    from robot_msgs.limits import input_limits  # noqa: PLC0415

                    with input_limits(max_bytes=args.max_bytes, max_document=args.max_document):
                        code = args.run(args)
            except ValidationError as err:
                # The library names the field; a value a flag gave is said with the flag,
                # the command line's mistake (UsageError, exit 2), for every command.
                from robot_msgs.cli._flag_text import reword  # noqa: PLC0415

                said = reword(err, args, usage=True)
                if said is err:
                    raise
                raise said from err
        return code

    return run_guarded(command, debug=debug, wording=worded, ending=argv is None)


def _valued_flags(parser: argparse.ArgumentParser) -> frozenset[str]:
    """Return the option strings of ``parser`` whose next word is their value."""
    return frozenset(
        option
        for action in parser._actions  # noqa: SLF001 - argparse's only list
        if action.nargs != 0
        for option in action.option_strings
    )


def _unrecognized(
    parser: argparse.ArgumentParser, unknown: Sequence[str], command: str = ""
) -> str:
    """Say the words ``parser`` left over, and why when they are inputs given after flags.

    ``ape REF EST --align se3 EST2`` was told ``unrecognized arguments: EST2`` of a file
    it takes: argparse takes a command's inputs in one run, so one typed after flags that
    follow the others is left over. Said only of words that name inputs (an existing
    path or ``example:NAME``), for a command that takes several; of a command that takes
    one EST (``drift``, ``doctor``), that it takes one, and how several are compared.
    """
    said = f"unrecognized arguments: {' '.join(unknown)}{_close_flags(parser, unknown, command)}"
    positionals = parser._get_positional_actions()  # noqa: SLF001 - argparse's only list
    several = any(action.nargs in ("+", "*") for action in positionals)
    inputs = [w for w in unknown if w.startswith("example:") or os.path.lexists(w)]
    if not inputs or len(inputs) < len(unknown) or unknown[0].startswith("-"):
        return said
    if not several and any(action.metavar == "EST" for action in positionals):
        # `drift REF A B` (an rpg user comparing estimators, as `ape REF A B` does)
        name = parser.prog.rsplit(" ", 1)[-1]
        said += f": {name} takes one EST; run it once per estimate"
        if any(action.dest == "save" for action in parser._actions):  # noqa: SLF001
            said += " with --save FILE, then robot-msgs res FILE... compares them"
        return said
    if not several:
        return said
    what = "an input" if len(inputs) == 1 else "inputs"
    together = "give the inputs together, all before or all after the flags"
    return f"{said}: {what} apart from the others, after flags; {together}"


def _close_flags(parser: argparse.ArgumentParser, unknown: Sequence[str], command: str = "") -> str:
    """Name the flags of ``parser`` and evo's close to the flags in ``unknown``, or "".

    WHY: ``ape R E --algin se3`` was told "unrecognized arguments: --algin se3" and no
    more, where a misspelt command (``aep``) and a misspelt ``--relation`` value were
    answered with the close names (:func:`~robot_msgs.errors.did_you_mean`). evo's
    flags are close names too: the closest, when evo's, is named alone with the answer
    evo's flag typed right gets (:func:`~robot_msgs.cli.evo_flags.evo_hint`).
    ``--plot_mod xz`` (an abbreviation evo takes) was asked "did you mean --plot?", a
    file to write, and ``--align_orign`` "--align, --align-window?".

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--align"), parser.add_argument("--check")
    >>> _close_flags(parser, ["--algin", "se3"])
    '; did you mean --align?'
    >>> _close_flags(parser, ["--algin", "--chek=1", "--bogus"])
    '; --algin: did you mean --align?; --chek: did you mean --check?'
    >>> _close_flags(parser, ["--bogus", "se3"])
    ''
    >>> _close_flags(parser, ["--align_orign"], "ape")
    "; did you mean --align_origin? --align_origin is evo's; here: --align origin"
    """
    from robot_msgs.cli.evo_flags import evo_hint, evo_words  # noqa: PLC0415 - for an error
    from robot_msgs.errors import close_names, closeness  # noqa: PLC0415 - only for an error

    options = [
        flag
        for action in parser._actions  # noqa: SLF001 - argparse's only list
        for flag in action.option_strings
        if flag.startswith("--")
    ]
    evo = sorted(w for w in evo_words(command) if w.startswith("--") and w not in options)
    said = {}
    for at, word in enumerate(unknown):
        if not _is_flag(word):
            continue
        flag, eq, value = word.partition("=")
        ours = close_names(flag, options)
        # evo's when closest and close: `--delt` (ape) was told evo's --delta_tol at 0.62
        best = close_names(flag, [*ours, *evo], cutoff=_EVO_CLOSE)[:1]
        if best and ours and closeness(flag, ours[0]) >= closeness(flag, best[0]):
            best = ours[:1]  # a tie is ours: `--tstart` went to evo's --t_start ('_' > '-')
        if best and best[0] in evo:  # its value typed: `--plot_mod xz`, --plot-plane xz
            typed = [best[0] + eq + value, *unknown[at + 1 : at + 2]]
            said[flag] = f" did you mean {best[0]}? {evo_hint(typed, command, _options_of)}"
        elif ours:
            said[flag] = f" did you mean {', '.join(ours)}?"
    if len(said) == 1 and sum(map(_is_flag, unknown)) == 1:
        return f";{next(iter(said.values()))}"
    return "".join(f"; {flag}:{text}" for flag, text in said.items())


#: How close a misspelt flag is to evo's for the answer to be evo's flag's (difflib's ratio):
#: evo users' typos (``--plot_mod``, ``--align_orign``, ``--pose_relaton``) are 0.94 to
#: 0.96; ``ape --delt`` (rpe's --delta cut short) is 0.62 to evo's --delta_tol.
_EVO_CLOSE = 0.8

#: The flags of ``robot-msgs`` itself, given before the command, and those of them that
#: take a value (:func:`build_parser`).
_TOP_FLAGS = frozenset({"--debug", "--max-bytes", "--max-document", "--version"})
_TOP_VALUED = frozenset({"--max-bytes", "--max-document"})
#: Dashes a page or a word processor puts for ``--``: em dash, en dash, minus sign.
_DASHES = ("\u2014", "\u2013", "\u2212")
#: Actions meant to be given more than once (``--label A --label B``).
_REPEATABLE = (
    argparse._AppendAction,  # noqa: SLF001 - argparse names its action kinds nowhere else
    argparse._AppendConstAction,  # noqa: SLF001
    argparse._CountAction,  # noqa: SLF001
    argparse._ExtendAction,  # noqa: SLF001
)
#: A word of a usage: a bracketed group (``[EST ...]``) or a run of non-spaces.
_USAGE_WORD = re.compile(r"\[[^\]]*\]|\S+")

#: Up to this many choices argparse's refusal lists them all (:meth:`_Parser._check_value`).
_LISTED_CHOICES = 8
#: The metavars of the arguments that name a file or folder but are kept as text
#: (``example:NAME``, ``auto``), and what each names where it is not a file.
_PATH_METAVARS = frozenset(
    {"FILE", "FILE|auto", "OUT", "REF", "EST", "RESULT", "RUN_OR_MANIFEST", "MANIFEST_OR_FOLDER"}
)
_PATH_OF = {
    "RUN_OR_MANIFEST": "a run folder or manifest",
    "MANIFEST_OR_FOLDER": "a manifest or folder",
}
#: A negative number, as a flag's value: -1, -1e-3, -.5, and -inf, -nan (which float()
#: reads; ``--offset -inf`` was told "expected one argument", where --offset=-inf is
#: refused as not finite). The digits split one way, as in ``io.table.NUMBER_TOKEN`` (not
#: imported: it would import NumPy before the BLAS threads are set): ``[0-9]+\.?[0-9]*``
#: tried every split of a digit run that then failed, quadratic in the run.
_NEGATIVE_NUMBER = re.compile(
    r"^-(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))$",
    re.ASCII,
)
_EPILOG = """\
example:NAME is data shipped with robot_msgs; robot-msgs COMMAND --help says
what each command takes, with an example of its own.
Example: robot-msgs ape example:fr1_xyz/groundtruth.tum \\
         example:fr1_xyz/rgbdslam.tum --align se3

exit status: 0 done; 1 bad input or output (one ERROR: line); 2 bad command
line; 70 a bug in robot_msgs (the line names the file with the traceback;
--debug prints it); 130 Ctrl-C; 141 standard output closed by its reader;
143 SIGTERM"""
