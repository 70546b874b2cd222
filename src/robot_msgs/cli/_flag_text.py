"""Settings and library messages said with command-line flags.

A library error or note names what to change as a call would (`` `max_diff_s=` ``,
``EvaluationSettings.max_diff_s``); on the command line that is a flag. Here: the flag of
a settings field or a library argument (:func:`flag_of`, :func:`setting_flag`), a setting
spelled as the flag that sets it (:func:`flag_text`, :func:`flags_text`,
:func:`flag_value`), the fields and arguments a library message names replaced by their
flags (:func:`flags_in_text`), and a library error about a field said with the flag and
the value given (:func:`reword`: ``--max-diff -1: expected float >= 0, ...``), in one place
for every command (:func:`robot_msgs.cli.main`). The flags are read from the table
generated from the fields' declarations (:mod:`robot_msgs.cli._settings_flags`).
"""

from __future__ import annotations

import math
import re
import shlex
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, TypeVar

from robot_msgs.cli._settings_flags import FlagRow, declared_flags
from robot_msgs.errors import UsageError, ValidationError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Collection, Mapping

__all__ = [
    "FLAG_UNITS",
    "changed_from",
    "fields_as_flags",
    "flag_dest",
    "flag_of",
    "flag_text",
    "flag_value",
    "flags_in_text",
    "flags_text",
    "reword",
    "setting_flag",
    "unit_answer",
    "value_for_flag",
]

V = TypeVar("V")

#: Arguments of library functions that a command-line flag gives (not settings fields).
#: ``format`` is the format read; the format written is ``--to`` (:func:`trajectory_outputs_to`).
_ARGUMENT_FLAGS = {
    "format": "--format",
    "fmt": "--format",  # the reading argument's old name: notes in results saved before
    "strict": "--strict",
    "geo_origin": "--geo-origin",
    "crs": "--crs",
    "force": "--force",
    "resume": "--resume",
    "verify": "--verify",
    "dpi": "--dpi",
    "labels": "--label",
    # The bounds on inputs (robot_msgs.limits.input_limits), given before the command.
    "max_bytes": "--max-bytes",
    "max_document": "--max-document",
    "layout": "--save-layout",  # a bag's messages (write_trajectory_bag); its warning names it
    "partial": "--allow-partial",
    "topic": "--topic",
    "times_path": "--times",
    # A side's times file, as a manifest names it (a run's `reference_times`).
    "reference_times": "--ref-times",
    "estimate_times": "--est-times",
}


def flag_of(name: str) -> str:
    """Return the command-line flag of a settings field or library argument, or ``""``.

    Examples
    --------
    >>> flag_of("max_diff_s"), flag_of("force"), flag_of("nothing")
    ('--max-diff', '--force', '')
    """
    row = declared_flags().get(name)
    return row.name if row is not None else _ARGUMENT_FLAGS.get(name, "")


def setting_flag(name: str) -> str:
    """Name a setting by its flag, told apart from another setting that shares the flag.

    Two fields share ``--offset``: ``offset_auto``, the flag with its word (``--offset
    auto``), and ``offset_s``, the flag with what else it takes (``--offset SECONDS``);
    likewise ``--transform-right auto`` and ``--transform-right FILE``. A flag of one
    setting is its name; ``""``: no flag (as :func:`flag_of`). res headed both offset
    columns ``--offset (differs)`` (a review).

    Examples
    --------
    >>> setting_flag("offset_auto"), setting_flag("offset_s"), setting_flag("max_diff_s")
    ('--offset auto', '--offset SECONDS', '--max-diff')
    >>> setting_flag("transform_right_auto"), setting_flag("transform_right")
    ('--transform-right auto', '--transform-right FILE')
    >>> setting_flag("force"), setting_flag("nothing")
    ('--force', '')
    """
    row = declared_flags().get(name)
    if row is None:
        return _ARGUMENT_FLAGS.get(name, "")
    if row.word:
        return f"{row.name} {row.word}"
    words = {r.word for r in declared_flags().values() if r.name == row.name and r.word}
    if not words:
        return row.name
    metavar = row.metavar if isinstance(row.metavar, str) else " ".join(row.metavar)
    takes = "|".join(m for m in metavar.split("|") if m not in words)
    return f"{row.name} {takes}" if takes else row.name


def flag_dest(flag: str) -> str:
    """Return the ``argparse`` attribute of ``flag`` (``--delta-unit`` → ``delta_unit``)."""
    return flag.removeprefix("--").replace("-", "_")


def value_for_flag(flag: FlagRow, value: Any) -> str:
    """Write a value as the flag takes it (``one-to-one``, ``100,200``)."""
    if isinstance(value, tuple):
        return ("," if flag.commas else " ").join(_value_text(v) for v in value)
    text = _value_text(value)
    return text.replace("_", "-") if flag.dashes else text


#: A field name of two or more words, bare in a description: ``offset_auto``, never English.
_FIELD_NAME = re.compile(r"(?<![\w`-])([a-z]+(?:_[a-z0-9]+)+)(?![\w`=])")


def fields_as_flags(text: str) -> str:
    """Write the field names in a description as their flags (``offset_auto`` → ``--offset auto``).

    Examples
    --------
    >>> fields_as_flags("offset_auto: search within ± this; in delta_unit")
    '--offset auto: search within ± this; in --delta-unit'
    >>> fields_as_flags("the inverse of transform_left, not_a_field")
    'the inverse of --transform-left, not_a_field'
    """

    def flag(match: re.Match[str]) -> str:
        name = match.group(1)  # a field that shares its flag: said as setting_flag says it
        return setting_flag(name) if name in declared_flags() else match.group(0)

    return _FIELD_NAME.sub(flag, text)


def _value_text(value: object) -> str:
    """Write a value short (``0.02``, ``1``) but exact: a flag spelled must set the value.

    A tuple is its values separated by commas (``100,200``). WHY the shorter of the two
    exact spellings: ``:g`` drops a float's ``.0`` (``100``), but of a subnormal its six
    digits are exact too, longer than ``repr``: ``--lengths 1e-320`` was echoed
    ``--lengths 9.99989e-321``.

    Examples
    --------
    >>> _value_text(100.0), _value_text(0.02), _value_text(1e-320), _value_text(1234567.0)
    ('100', '0.02', '1e-320', '1234567.0')
    """
    if isinstance(value, tuple):
        return ",".join(map(_value_text, value))
    if isinstance(value, float):
        text, exact = f"{value:g}", repr(value)
        return text if float(text) == value and len(text) <= len(exact) else exact
    return str(value)


def flag_text(name: str, value: object) -> str:
    """Spell a setting as the flag that sets it: ``--align se3``, ``--all-pairs``.

    A field without a flag is ``name=value``; a switch left off, ``""``.

    Examples
    --------
    >>> flag_text("sync", "one_to_one"), flag_text("all_pairs", True)
    ('--sync one-to-one', '--all-pairs')
    >>> flag_text("lengths_m", (100.0, 200.0)), flag_text("offset_auto", True)
    ('--lengths 100,200', '--offset auto')
    """
    flag_ = declared_flags().get(name)
    if flag_ is None:
        flag = _ARGUMENT_FLAGS.get(name)
        if flag is None:
            return f"{name}={_value_text(value)}"
        flag_ = FlagRow(field=name, name=flag)
    if flag_.word:
        return f"{flag_.name} {flag_.word}" if value else ""
    if flag_.when_set is not None:
        return flag_.name if value == flag_.when_set else ""
    if isinstance(value, bool):
        return flag_.name if value else ""
    if flag_.file:
        return f"{flag_.name} FILE"
    return f"{flag_.name} {value_for_flag(flag_, value)}"


def flag_value(name: str, value: object) -> str:
    """Write a setting's value as its flag takes it: ``one-to-one``, ``100,200``, ``auto``.

    Examples
    --------
    >>> flag_value("sync", "one_to_one"), flag_value("lengths_m", (100.0, 200.0))
    ('one-to-one', '100,200')
    >>> flag_value("offset_auto", True), flag_value("all_pairs", False), flag_value("x", 0.5)
    ('auto', 'off', '0.5')
    """
    flag_ = declared_flags().get(name)
    if flag_ is None:
        return _value_text(value)
    if flag_.word:
        return flag_.word if value else "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    return value_for_flag(flag_, value)


def changed_from(values: Mapping[str, V], defaults: Mapping[str, object]) -> dict[str, V]:
    """Keep the settings of ``values`` that differ from ``defaults``; unset, ``None``, never.

    Examples
    --------
    >>> changed_from({"sync": "one_to_one", "n_align": None, "offset_s": 0.0}, {"offset_s": 0.0})
    {'sync': 'one_to_one'}
    """
    return {k: v for k, v in values.items() if v is not None and repr(v) != repr(defaults.get(k))}


def flags_text(
    values: Mapping[str, object],
    *,
    bare: bool = False,
    defaults: Mapping[str, object] | None = None,
) -> str:
    """Spell settings as their flags, in order; ``bare``: the values only (table cells).

    With ``defaults``, only what differs from them is spelt (unset, ``None``, is never).

    Examples
    --------
    >>> flags_text({"align": "se3", "n_align": 5}), flags_text({"align": "se3"}, bare=True)
    ('--align se3 --n-align 5', 'se3')
    >>> flags_text({})
    'the defaults'
    >>> flags_text({"sync": "one_to_one", "n_align": None, "offset_s": 0.0}, defaults={
    ...     "sync": "nearest", "offset_s": 0.0})
    '--sync one-to-one'
    """
    if defaults is not None:
        values = changed_from(values, defaults)
    if bare:
        return " ".join(map(_value_text, values.values()))
    words = [flag_text(k, v) for k, v in values.items()]
    return " ".join(w for w in words if w) or "the defaults"


_FIELD = re.compile(r"^(?:\w+\.)?(\w+)")
#: A field or argument a library message names, as a call would give it: `align='origin'`,
#: `force=True`, or `max_diff_s=` (any value). A bare `name` is not one: a manifest key.
_NAMED = re.compile(r"`(\w+)=([^`]*)`")
#: A library function a message sends the caller to, as a call would name it
#: (`diagnose()`, `robot_msgs.limits.input_limits(max_bytes=...)`: an argument the caller
#: gives), and the command line's words for it: the command that does its work, and what
#: it calls a value given to a flag (the argument's flag is :func:`flag_of`'s).
_CALLED = re.compile(r"`(?:\w+\.)*(\w+)\((?:(\w+)=\.\.\.)?\)`")
_FUNCTION_COMMANDS = {"diagnose": ("robot-msgs doctor", ""), "input_limits": ("robot-msgs", "SIZE")}


def flags_in_text(
    text: str,
    *,
    command: str = "",
    offered: Callable[[str], Collection[str]] | None = None,
) -> str:
    """Replace the fields and arguments a library message names by their flags.

    Library messages name what to change as a call would (`` `align='origin'` ``,
    `` `force=True` ``, `` `t_start_s=` `` for any value); on the command line those are
    flags. A function they send the caller to (`` `diagnose()` ``) is its command
    (`` `robot-msgs doctor` ``), and with an argument to give, the command's flag
    (`` `input_limits(max_bytes=...)` ``: `` `robot-msgs --max-bytes SIZE` ``). Other
    backticked names (a manifest's keys, a field path) stay. With ``command`` and
    ``offered`` (a command's option strings), a setting whose flag it has not is said
    with the command that has it: ``traj`` has no
    ``--offset auto``, and its messages named it as traj's (the library cannot tell which
    command calls it: one place says it, here). ``offered`` is passed in, not imported:
    the command line's parsers import this module.
    Only where the command gives others of the setting's group by flags: ``res`` (no
    settings flags: they come from results) and ``bench`` (no pair flags: the
    manifest's) are not sent to another command.

    Examples
    --------
    >>> flags_in_text("use `align='origin'`, or pass `force=True`; see `t_start_s=`")
    'use --align origin, or pass --force; see --t-start'
    >>> flags_in_text("at `Pose.x`; key `delta`: bad; `nothing_here=1`")
    'at `Pose.x`; key `delta`: bad; `nothing_here=1`'
    >>> flags_in_text("`all_pairs=False` in a; `t_end_s=None` in b; `offset_auto=False` in c")
    'no --all-pairs in a; no --t-end in b; no --offset auto in c'
    >>> flags_in_text("different settings of `offset_s=` and `offset_auto=`")
    'different settings of --offset SECONDS and --offset auto'
    >>> flags_in_text("the doctor (`diagnose()`) estimates it; `prepare()` chooses")
    'the doctor (`robot-msgs doctor`) estimates it; `prepare()` chooses'
    >>> flags_in_text("raise it (`robot_msgs.limits.input_limits(max_bytes=...)`)")
    'raise it (`robot-msgs --max-bytes SIZE`)'
    >>> from robot_msgs.cli import _options_of
    >>> flags_in_text("the offset (`offset_s=`, or `offset_auto=True`)", command="traj",
    ...               offered=_options_of)
    'the offset (--offset SECONDS, or `robot-msgs ape --offset auto`)'
    >>> flags_in_text("the offset (`offset_s=`), `delta=`", command="res", offered=_options_of)
    'the offset (--offset SECONDS), --delta'
    """

    def flag(match: re.Match[str]) -> str:
        said = flag_said(match)
        row = declared_flags().get(match.group(1))
        if offered is None or not command or row is None or not row.group:
            return said
        if not said.startswith("--"):
            return said
        from robot_msgs.cli.evo_flags import in_home_command  # noqa: PLC0415

        given = offered(command)
        if not any(r.group == row.group and r.name in given for r in declared_flags().values()):
            return said
        if row.word and said not in given:  # `--offset auto`: traj's --offset takes seconds
            from robot_msgs.cli.evo_flags import HOME_COMMANDS  # noqa: PLC0415

            home = next((c for c in HOME_COMMANDS if said in offered(c)), None)
            return said if home is None else f"`robot-msgs {home} {said}`"
        placed = in_home_command(said, command, offered)
        return said if placed == said else f"`robot-msgs {placed}`"

    def flag_said(match: re.Match[str]) -> str:
        name, value = match.group(1), match.group(2)
        if not flag_of(name):
            return match.group(0)
        if not value:  # the setting, any value: told from a setting sharing its flag
            return setting_flag(name)
        import ast  # noqa: PLC0415 - only for a message that names a value

        try:
            given = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            given = value
        if given is None:  # unset: the flag not given
            return f"no {flag_of(name)}"
        # A switch left off is the switch not given (`all_pairs=False`: no --all-pairs).
        return flag_text(name, given) or f"no {flag_text(name, value=True) or flag_of(name)}"

    def called(match: re.Match[str]) -> str:
        found = _FUNCTION_COMMANDS.get(match.group(1))
        argument = match.group(2)
        if found is None or (argument is not None and not (flag_of(argument) and found[1])):
            return match.group(0)  # not a call the command line has words for
        command, value = found
        return f"`{command} {flag_of(argument)} {value}`" if argument else f"`{command}`"

    return _CALLED.sub(called, _NAMED.sub(flag, text))


#: A word a shell reads back as written, unquoted (:func:`shlex.quote`'s, any letter).
_PLAIN_WORD = re.compile(r"[\w@%+=:,./-]+")


def _as_typed(value: object) -> object:
    """Quote a text or path value as it is typed in a shell when it is blank or has spaces.

    Examples
    --------
    >>> _as_typed("a"), _as_typed(" "), _as_typed(""), _as_typed("my run"), _as_typed(2.5)
    ('a', "' '", "''", "'my run'", 2.5)
    """
    if isinstance(value, (str, PurePath)):
        text = str(value)
        return text if _PLAIN_WORD.fullmatch(text) else shlex.quote(text)
    return value


def reword(
    err: ValidationError, args: argparse.Namespace, *, usage: bool = False
) -> ValidationError:
    """Say a library error about a field with the flag that gave its value, if one did.

    ``err.field`` names the field (``EvaluationSettings.max_diff_s``,
    ``Drift.lengths_m[0]``); when the command line gave it, the error becomes ``--flag
    VALUE: reason``. Otherwise (a manifest's value, a command's default) it is unchanged.

    ``usage``: the reworded error is a :class:`~robot_msgs.errors.UsageError`, the
    command line's mistake (exit status 2, as argparse's for a value of the wrong
    type): a flag's value out of its bounds, or that does not fit the other flags or
    the inputs. A file flag's (``--transform-right FILE``) stays a ``ValidationError``
    (exit status 1): what the file holds is refused.

    Examples
    --------
    >>> import argparse
    >>> err = ValidationError("Expected float >= 0, got float -1.0 - at `X.max_diff_s`",
    ...                       field="EvaluationSettings.max_diff_s",
    ...                       reason="expected float >= 0, got float -1.0")
    >>> str(reword(err, argparse.Namespace(max_diff=-1.0)))
    '--max-diff -1: expected float >= 0, got float -1.0'
    >>> type(reword(err, argparse.Namespace(max_diff=-1.0), usage=True)).__name__
    'UsageError'
    """
    match = _FIELD.match(err.field)
    flag = flag_of(match.group(1)) if match else ""
    given = getattr(args, flag_dest(flag), None) if flag else None
    if given is None:
        return err
    row = declared_flags().get(match.group(1) if match else "")
    # Each value as typed: `--label a --label ' '` was echoed `--label a`, its blank lost.
    given = tuple(map(_as_typed, given)) if isinstance(given, list) else _as_typed(given)
    how = row if row is not None else FlagRow(field="", name=flag)
    shown = "" if isinstance(given, bool) else value_for_flag(how, given)
    msg = f"{flag} {shown}".rstrip() + f": {err.reason}"
    said = UsageError if usage and not how.file else ValidationError
    return said(msg, field=err.field, reason=err.reason)


#: The units a value of a flag in seconds or metres may be typed with, in that unit. Micro
#: both as the micro sign and as the Greek mu (a Greek keyboard's, NFKC's): they look alike.
FLAG_UNITS: dict[str, tuple[str, dict[str, float]]] = {
    "SECONDS": (
        "s",
        {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "\u03bcs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0},
    ),
    "METRES": ("m", {"mm": 1e-3, "cm": 1e-2, "m": 1.0, "km": 1e3}),
}


def unit_answer(name: str, metavar: str, number: str, unit: str, typed: str) -> str | None:
    """Answer flag ``name``'s ``number`` (or numbers) typed with ``unit`` (``typed``).

    In a unit of the flag's ``metavar`` (SECONDS, METRES): the number alone in the flag's
    unit. In another unit, or to a flag of plain numbers: that the unit is not taken.
    None where ``unit`` is no unit (a file's name) or the number overflows.

    Examples
    --------
    >>> unit_answer("--max-diff", "SECONDS", "20", "ms", "'20 ms'")
    "'20 ms' is 0.02 s: give the number alone (--max-diff 0.02)"
    >>> unit_answer("--max-diff", "SECONDS", "20", "m", "'20 m'")
    "'20 m': --max-diff takes seconds, not m: give the number of seconds alone"
    >>> unit_answer("--delta", "D", "1", "m", "'1 m'")
    "'1 m': --delta takes numbers without a unit (--delta 1)"
    """
    if not any(unit in units for _, units in FLAG_UNITS.values()):
        return None
    if metavar not in FLAG_UNITS:
        return f"{typed}: {name} takes numbers without a unit ({name} {number})"
    symbol, units = FLAG_UNITS[metavar]
    if unit not in units:
        what = metavar.lower()
        return f"{typed}: {name} takes {what}, not {unit}: give the number of {what} alone"
    values = [float(n) * units[unit] for n in number.replace(",", " ").split()]
    if not all(math.isfinite(v) for v in values):
        return None
    said = " ".join(f"{v:.12g}" for v in values)
    return f"{typed} is {said} {symbol}: give the number alone ({name} {said})"
