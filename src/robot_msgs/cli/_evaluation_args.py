"""Flags shared by the evaluation commands: inputs, outputs, and every settings field's flag.

The settings flags are not written here: each is declared on its settings field
(:class:`~robot_msgs.flags.Flag`, beside the field's type, choices, bounds and
description), and :func:`add_settings_flags` builds the parser from those declarations,
its help from their descriptions and the command's defaults. It reads them as the rows of
the table generated from them (:mod:`robot_msgs.cli._settings_flags`), so a command's
parser and ``--help`` import no settings class, no msgspec and no NumPy. The flags are parsed with
no default; :func:`settings_from_args` puts the ones given on top of the command's
defaults, so the settings are validated once, by the message. A library error names the
field (``EvaluationSettings.max_diff_s``); :func:`reword` says it with the flag and the
value given (``--max-diff -1: expected float > 0, ...``), in one place for every
command (:func:`robot_msgs.cli.main`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shlex
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, TypeVar

from robot_msgs.cli._settings_flags import FlagRow, declared_flags, flag_rows
from robot_msgs.errors import FormatError, TopicError, UsageError, ValidationError
from robot_msgs.io import FORMATS, WRITE_FORMATS
from robot_msgs.limits import dpi_flag

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from robot_msgs.evaluation.read_settings import ReadSettings
    from robot_msgs.evaluation.settings import EvaluationSettings, PairSettings
    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.io.evaluation_inputs import InputFile
    from robot_msgs.msg import Msg
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "add_geo_args",
    "add_input_args",
    "add_json_file_flag",
    "add_output_args",
    "add_plot_flags",
    "add_run_settings_args",
    "add_save_layout_flag",
    "add_settings_flags",
    "changed_from",
    "check_plot_options",
    "check_save_layout",
    "flag_of",
    "flag_text",
    "flags_in_text",
    "flags_text",
    "given_outputs",
    "inputs_from_args",
    "load_runs_from_args",
    "pair_list_from_args",
    "read_files",
    "read_inputs_from_args",
    "reading_rules",
    "reword",
    "setting_flag",
    "settings_from_args",
    "side_error",
    "trajectory_outputs_to",
    "unknown_covariances_of",
]

M = TypeVar("M", bound="Msg")
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


def trajectory_outputs_to(path: str | os.PathLike[str], to: str | None) -> tuple[str, list[Path]]:
    """:func:`robot_msgs.io.trajectory_outputs` of ``--save``/``--save-aligned`` and ``--to``.

    The library names the format written ``format=``, as it names the format read; on the
    command line the one is ``--to``, the other ``--format``, so its error says ``--to``.

    Raises
    ------
    FormatError
        As :func:`~robot_msgs.io.trajectory_outputs`, naming ``--to``.
    """
    from robot_msgs.io.detect import trajectory_outputs  # noqa: PLC0415 - NumPy when saving

    try:
        return trajectory_outputs(path, to)
    except FormatError as err:
        msg = str(err).replace("`format=`", "--to")
        raise FormatError(msg) from err


def _dest(flag: str) -> str:
    return flag.removeprefix("--").replace("-", "_")


def _numbers(name: str) -> Callable[[str], tuple[float, ...]]:
    """Return the type of one word of a list flag: ``"100,200"`` as ``(100.0, 200.0)``.

    The flag takes several words too (:class:`_Joined`): ``--lengths 100 200`` as
    ``--delta 1 2`` does (an evo user types spaces; it said "unrecognized arguments: 200").
    A file taken in the list is named as :func:`_listed_number` names it.
    """
    number = _listed_number(name)

    def numbers(text: str) -> tuple[float, ...]:
        try:
            return tuple(float(v) for v in text.replace(",", " ").split())  # "100 200" quoted too
        except ValueError:
            with contextlib.suppress(ValueError):
                number(text)  # a file in the list: says so
            msg = f"expected numbers separated by spaces or commas, as 100 200, got {text!r}"
            raise argparse.ArgumentTypeError(msg) from None

    numbers.__name__ = "numbers"
    return numbers


class _Joined(argparse.Action):
    """Store the numbers of every word of a list flag as one tuple (``100,200 400``)."""

    def __call__(
        self,
        _parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        _option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, tuple(v for word in values for v in word))


def _shown(flag: FlagRow, value: Any) -> str:
    """Write a value as the flag takes it (``one-to-one``, ``100,200``)."""
    if isinstance(value, tuple):
        return ("," if flag.commas else " ").join(_value_text(v) for v in value)
    text = _value_text(value)
    return text.replace("_", "-") if flag.dashes else text


def _word_or_number(word: str) -> Any:
    def parse(text: str) -> float | str:
        if text == word:
            return text
        try:
            return float(text)
        except ValueError:
            msg = f"expected seconds or {word!r}, got {text!r}"
            raise argparse.ArgumentTypeError(msg) from None

    return parse


def _word_or_path(word: str) -> Any:
    def parse(text: str) -> Path | str:
        return text if text == word else Path(text)

    return parse


#: The type of a flag's value, by its row's kind.
_SCALARS: dict[str, type] = {"float": float, "int": int, "str": str}


def _add_flag(group: Any, flag: FlagRow, help_text: str, word: str) -> None:
    """Add one field's flag to ``group`` as its declaration says.

    ``word``: the flag is shared with a switch set by this word (``--offset auto``).
    """
    kwargs: dict[str, Any] = {"help": help_text, "dest": _dest(flag.name)}
    if flag.metavar:
        kwargs["metavar"] = flag.metavar
    if flag.kind == "switch":
        kwargs |= {"action": "store_true", "default": None}
    elif flag.kind == "choice":
        choices = flag.choices
        if flag.dashes:
            choices = tuple(dict.fromkeys(c.replace("_", "-") for c in choices))
        kwargs["choices"] = choices
    elif flag.kind == "file":
        kwargs["type"] = _word_or_path(word) if word else Path
    elif flag.kind == "numbers":
        kwargs |= {"type": _numbers(flag.name), "nargs": "+", "action": _Joined}
    elif flag.kind == "floats":
        kwargs |= {"type": float, "nargs": flag.length or "+"}
    else:
        kwargs["type"] = _word_or_number(word) if word else _SCALARS[flag.kind]
        if flag.several:
            kwargs["nargs"] = "+"
            if kwargs["type"] is float:
                kwargs["type"] = _listed_number(flag.name)
    group.add_argument(flag.name, **kwargs)


def _listed_number(name: str) -> Callable[[str], float]:
    """Return the type of a flag of one or more numbers, which says a file taken in its list.

    ``rpe --delta 1 REF EST`` took REF as a delta ("invalid float value"): a flag of
    several values takes every word up to the next flag.
    """

    def number(text: str) -> float:
        try:
            return float(text)
        except ValueError:
            if not Path(text).exists() and not text.startswith("example:"):
                raise
            msg = (
                f"{text!r} is a file: {name} takes every word up to the next flag; give the "
                "files before it (or end its numbers with --)"
            )
            raise argparse.ArgumentTypeError(msg) from None

    number.__name__ = "float"  # argparse says "invalid float value" for anything else
    return number


def add_settings_flags(
    parser: argparse.ArgumentParser,
    defaults: Sequence[Msg | str],
    *,
    only: Iterable[str] | None = None,
    note: str = "",
    noted: Iterable[str] = (),
    described: Mapping[str, str] | None = None,
) -> None:
    """Add the flag of every field of ``defaults``' types that declares one; help from it.

    ``defaults`` are the command's values (``EvaluationSettings()``, ``Ape()``...), or the
    names of settings classes whose own defaults are the command's (``"Ape"``: no class
    imported): each flag's help is its field's description and the default shown is the
    command's.
    ``only`` keeps those fields; ``note`` is added to the help of the fields in ``noted``
    (a default that depends on another option or a manifest). A flag two fields share
    (``--offset SECONDS|auto``) is added once. Flags are grouped by their declared group.
    ``described`` replaces a field's description where it is not true of this command
    (by field name).
    """
    keep = None if only is None else set(only)
    marked = set(noted)
    groups: dict[str, Any] = {}
    added: set[str] = set()
    for value in defaults:
        rows = flag_rows(value if isinstance(value, str) else type(value).__name__)
        words = {f.name: f.word for f in rows if f.word}
        worded = {f.name: f for f in rows if f.word and (keep is None or f.field in keep)}
        for flag in rows:
            name = flag.field
            if (keep is not None and name not in keep) or flag.name in added:
                continue
            added.add(flag.name)
            own = (described or {}).get(name) or flag.description
            text = _fields_as_flags(own or name.replace("_", " "))
            default = flag.default if isinstance(value, str) else getattr(value, name)
            # A switch setting a value: its help says the other. A flag of several values
            # says its default too (rpe --delta's 1 was said nowhere in rpe --help).
            shown = flag.when_set is None
            if default is not None and default is not False and shown:
                text += f" (default {_shown(flag, default)}"
                text += f"; {note})" if name in marked and note else ")"
            other = worded.get(flag.name) if not flag.word else None
            if other is not None:  # the word's own setting, said where the flag is
                said = (described or {}).get(other.field) or other.description
                text += f"; {other.word}: {_fields_as_flags(said or other.field)}"
            if flag.group not in groups:
                groups[flag.group] = parser.add_argument_group(flag.group) if flag.group else parser
            word = words.get(flag.name, "") if not flag.word else ""
            _add_flag(groups[flag.group], flag, text.replace("%", "%%"), word)


#: A field name of two or more words, bare in a description: ``offset_auto``, never English.
_FIELD_NAME = re.compile(r"(?<![\w`-])([a-z]+(?:_[a-z0-9]+)+)(?![\w`=])")


def _fields_as_flags(text: str) -> str:
    """Write the field names in a description as their flags (``offset_auto`` → ``--offset auto``).

    Examples
    --------
    >>> _fields_as_flags("offset_auto: search within ± this; in delta_unit")
    '--offset auto: search within ± this; in --delta-unit'
    >>> _fields_as_flags("the inverse of transform_left, not_a_field")
    'the inverse of --transform-left, not_a_field'
    """

    def flag(match: re.Match[str]) -> str:
        name = match.group(1)  # a field that shares its flag: said as setting_flag says it
        return setting_flag(name) if name in declared_flags() else match.group(0)

    return _FIELD_NAME.sub(flag, text)


def read_files(args: argparse.Namespace) -> list[str]:
    """Return the files a command reads beside its trajectories: times and transform files.

    What an output must not be, beside the trajectories (``check_outputs``' ``inputs``):
    ``--save-aligned T.json --force`` replaced the ``--transform-left`` file it read,
    and ``traj 00.txt --times 00_times.txt --save 00.kitti --force`` the times file (KITTI
    writes its times beside the poses).

    Examples
    --------
    >>> import argparse
    >>> from pathlib import Path
    >>> read_files(argparse.Namespace(times=Path("t.txt"), transform_right=Path("auto")))
    ['t.txt']
    """
    found = [getattr(args, name, None) for name in ("times", "ref_times", "est_times")]
    rows = flag_rows("EvaluationSettings")
    words = {f.name: f.word for f in rows if f.word}
    for flag in rows:
        given = getattr(args, _dest(flag.name), None) if flag.file else None
        if isinstance(given, str | os.PathLike) and os.fspath(given) != words.get(flag.name):
            found.append(given)  # a file, not the flag's word (--transform-right auto)
    return [os.fspath(f) for f in found if isinstance(f, str | os.PathLike) and os.fspath(f)]


def _given(args: argparse.Namespace, cls: type[Msg]) -> dict[str, Any]:
    """Collect the fields of ``cls`` whose flag was given, with the flag's value.

    A switch sets its field (``--pairs-from-reference``: ``"reference"``); a word given to
    a shared flag sets the field it marks (``--offset auto``); a file flag is read
    (:func:`robot_msgs.io.read_transform`); choices written with dashes are stored with
    underscores; a flag of several values (``--delta 1 2``) sets its field only when
    given one (:func:`pair_list_from_args` makes one setting per value).
    """
    values: dict[str, Any] = {}
    rows = flag_rows(cls.__name__)
    words = {f.name: f.word for f in rows if f.word}
    for flag in rows:
        name = flag.field
        given = getattr(args, _dest(flag.name), None)
        if given is None:
            continue
        word = flag.word or words.get(flag.name, "")
        if word and (given == word) != bool(flag.word):
            continue  # the word is the switch's; a number the other field's
        if flag.word:
            given = True
        elif flag.when_set is not None:
            given = flag.when_set
        elif flag.file:
            from robot_msgs.io.transform_file import read_transform  # noqa: PLC0415

            given = read_transform(given, flag=flag.name)
        elif flag.several:
            if len(given) != 1:
                continue
            given = given[0]
        elif isinstance(given, list):
            given = tuple(given)
        elif flag.dashes:
            given = given.replace("-", "_")
        values[name] = given
    return values


def settings_from_args(args: argparse.Namespace, base: M) -> M:
    """Return ``base`` (a settings value) with the flags of its fields that were given.

    Raises
    ------
    ValidationError
        A value the settings refuse; the field is named (:func:`reword` names the flag).

    Examples
    --------
    >>> import argparse
    >>> from robot_msgs.evaluation import EvaluationSettings
    >>> parser = argparse.ArgumentParser()
    >>> add_settings_flags(parser, [EvaluationSettings()])
    >>> args = parser.parse_args(["--sync", "one-to-one", "--align", "sim3"])
    >>> s = settings_from_args(args, EvaluationSettings(max_diff_s=0.02))
    >>> s.sync, s.max_diff_s, s.align
    ('one_to_one', 0.02, 'sim3')
    """
    values = _given(args, type(base))
    return base.replace(**values) if values else base


def pair_list_from_args(
    args: argparse.Namespace, base: PairSettings, *, settings: EvaluationSettings | None = None
) -> list[PairSettings]:
    """One :class:`PairSettings` per ``--delta`` value, the other pair flags on top of each.

    With ``settings``, the evaluation settings are checked against the pairs' protocol
    (``--protocol tum`` has no use for ``--align``, ``--sync``...).

    Examples
    --------
    >>> import argparse
    >>> from robot_msgs.evaluation import PairSettings
    >>> parser = argparse.ArgumentParser()
    >>> add_settings_flags(parser, [PairSettings()])
    >>> args = parser.parse_args(["--delta", "1", "2", "--delta-unit", "s"])
    >>> [p.label() for p in pair_list_from_args(args, PairSettings())]
    ['1s', '2s']
    """
    shared = settings_from_args(args, base)
    if settings is not None and shared.protocol == "tum":
        from robot_msgs.evaluation.tum_rpe import check_tum_settings  # noqa: PLC0415

        check_tum_settings(settings)
    deltas = getattr(args, "delta", None)
    if not deltas or len(deltas) == 1:
        return [shared]
    return [shared.replace(delta=delta) for delta in deltas]


def _value_text(value: object) -> str:
    """Write a value short (``0.02``, ``1``) but exact: a flag spelled must set the value.

    A tuple is its values separated by commas (``100,200``).
    """
    if isinstance(value, tuple):
        return ",".join(map(_value_text, value))
    if isinstance(value, float):
        text = f"{value:g}"
        return text if float(text) == value else repr(value)
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
    return f"{flag_.name} {_shown(flag_, value)}"


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
    return _shown(flag_, value)


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


def flags_in_text(text: str) -> str:
    """Replace the fields and arguments a library message names by their flags.

    Library messages name what to change as a call would (`` `align='origin'` ``,
    `` `force=True` ``, `` `t_start_s=` `` for any value); on the command line those are
    flags. Other backticked names (a manifest's keys, a field path) stay.

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
    """

    def flag(match: re.Match[str]) -> str:
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

    return _NAMED.sub(flag, text)


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
    >>> err = ValidationError("Expected float > 0, got float -1.0 - at `X.max_diff_s`",
    ...                       field="EvaluationSettings.max_diff_s",
    ...                       reason="expected float > 0, got float -1.0")
    >>> str(reword(err, argparse.Namespace(max_diff=-1.0)))
    '--max-diff -1: expected float > 0, got float -1.0'
    >>> type(reword(err, argparse.Namespace(max_diff=-1.0), usage=True)).__name__
    'UsageError'
    """
    match = _FIELD.match(err.field)
    flag = flag_of(match.group(1)) if match else ""
    given = getattr(args, _dest(flag), None) if flag else None
    if given is None:
        return err
    row = declared_flags().get(match.group(1) if match else "")
    # Each value as typed: `--label a --label ' '` was echoed `--label a`, its blank lost.
    given = tuple(map(_as_typed, given)) if isinstance(given, list) else _as_typed(given)
    how = row if row is not None else FlagRow(field="", name=flag)
    shown = "" if isinstance(given, bool) else _shown(how, given)
    msg = f"{flag} {shown}".rstrip() + f": {err.reason}"
    said = UsageError if usage and not how.file else ValidationError
    return said(msg, field=err.field, reason=err.reason)


def add_geo_args(group: argparse._ActionsContainer, *, default: str) -> None:
    """Add ``--geo-origin LAT LON ALT`` and ``--crs EPSG:CODE`` (lat/lon/alt inputs).

    They give the reading arguments ``geo_origin`` and ``crs`` of
    :func:`robot_msgs.io.read_trajectory`; ``default`` says the origin without the flag.
    """
    group.add_argument(
        "--geo-origin",
        type=float,
        nargs=3,
        metavar=("LAT", "LON", "ALT"),
        help="lat/lon/alt inputs (.lla files, NavSatFix topics): the local ENU origin, "
        f"degrees and metres above the WGS-84 ellipsoid (default {default})",
    )
    group.add_argument(
        "--crs",
        metavar="EPSG:CODE",
        help="lat/lon/alt inputs: a projected CRS instead of ENU, as EPSG:32632 for UTM "
        "zone 32N (needs robot_msgs[geo])",
    )


def add_input_args(parser: argparse.ArgumentParser, *, several: bool = False) -> None:
    """Add ``REF EST``, ``--format``, ``--ref-topic``/``--est-topic``, ``--ref/est-times``.

    With ``several``, ``EST...`` takes one or more estimates (``args.estimates``).
    """
    parser.add_argument("reference", metavar="REF", help="ground-truth file, bag, or example:NAME")
    if several:
        parser.add_argument(
            "estimates",
            nargs="+",
            metavar="EST",
            help="estimated trajectory files or bags, each evaluated against REF",
        )
    else:
        parser.add_argument("estimate", metavar="EST", help="estimated trajectory file or bag")
    group = parser.add_argument_group("input")
    group.add_argument(
        "--format",
        choices=FORMATS,
        help="format of both inputs (default: detected from each file)",
    )
    group.add_argument("--ref-format", choices=FORMATS, help="format of REF only")
    group.add_argument("--est-format", choices=FORMATS, help="format of EST only")
    group.add_argument(
        "--ref-topic", metavar="TOPIC", help="bag topic of REF, or a TF id /tf:parent.child"
    )
    group.add_argument(
        "--est-topic", metavar="TOPIC", help="bag topic of EST, or a TF id /tf:parent.child"
    )
    group.add_argument(
        "--ref-times",
        type=Path,
        metavar="FILE",
        help="KITTI times file of REF (default: frame indices)",
    )
    group.add_argument(
        "--est-times",
        type=Path,
        metavar="FILE",
        help="KITTI times file of EST (default: frame indices)",
    )
    group.add_argument(
        "--strict",
        action="store_true",
        help="refuse data problems (NaN rows, repeated stamps, non-unit quaternions) "
        "instead of fixing them with a warning",
    )
    add_geo_args(group, default="REF's first fix, for both")
    add_settings_flags(parser, ["ReadSettings"])


#: ``--repeated-stamps`` of report and bench. WHY not the field's own description: that
#: says the last row is kept in TUM's RPE protocol, as ``rpe --protocol tum`` does, but a
#: run's files are read once for all its metrics (:func:`robot_msgs.runs.load_run`), and
#: unset, by the first row: an RPE with ``protocol = "tum"`` in a manifest keeps the first.
_RUNS_REPEATED_STAMPS = (
    "rows with equal stamps: keep the first or the last in the file, or refuse them "
    "(default: the first, for every metric: a run is read once, so an RPE with protocol "
    "tum keeps the first too, unlike rpe --protocol tum; last is evaluate_rpe.py's; or "
    "the manifest's [settings])"
)


def add_run_settings_args(parser: argparse.ArgumentParser) -> None:
    """Add the settings flags of ``report`` and ``bench``: those of every metric, then the runs'.

    Each overrides the manifest's ``[settings]`` (:class:`~robot_msgs.runs.RunSettings`).
    """
    from robot_msgs.evaluation.settings import DELTA_UNITS  # noqa: PLC0415
    from robot_msgs.runs.run_settings import RUN_DEFAULTS, RunSettings  # noqa: PLC0415

    add_settings_flags(
        parser,
        [RUN_DEFAULTS, RunSettings()],
        note="or the manifest's [settings]",
        noted=[row.field for row in flag_rows(type(RUN_DEFAULTS).__name__)],
    )
    add_settings_flags(
        parser,
        ["ReadSettings"],
        note="or the manifest's [settings]",
        noted=[row.field for row in flag_rows("ReadSettings")],
        described={"repeated_stamps": _RUNS_REPEATED_STAMPS},
    )
    group = parser.add_argument_group("metrics (default: the manifest's)")
    group.add_argument(
        "--rpe-delta",
        type=_listed_number("--rpe-delta"),
        nargs="*",
        metavar="D",
        help="RPE over all pairs D apart, one metric per delta, beside APE translation "
        "(default 1; give none for APE only)",
    )
    group.add_argument("--rpe-unit", choices=DELTA_UNITS, help="unit of --rpe-delta (default s)")


def given_run_flags(args: argparse.Namespace) -> list[str]:
    """Name the flags of :func:`add_run_settings_args` given on the command line, in order.

    For ``report`` of a ``bench`` folder, whose runs were evaluated already: only
    ``--statistic`` can still change what it says.
    """
    from robot_msgs.runs.run_settings import RUN_DEFAULTS  # noqa: PLC0415

    classes = (type(RUN_DEFAULTS).__name__, "RunSettings", "ReadSettings")
    flags = [row.name for cls in classes for row in flag_rows(cls)]
    flags += ["--rpe-delta", "--rpe-unit"]
    return [f for f in dict.fromkeys(flags) if getattr(args, _dest(f), None) is not None]


def load_runs_from_args(
    args: argparse.Namespace, inputs: list[Any], *, stream: bool = False
) -> Any:
    """:func:`robot_msgs.runs.load_runs` of ``inputs`` with the settings flags on top.

    With ``stream``, the :class:`~robot_msgs.runs.RunReader` instead: the settings read,
    the runs read as they are asked for (``bench`` computes the first while the rest
    are read).

    Raises
    ------
    FormatError
        As ``load_runs`` (the manifest and key named).
    ValidationError
        A flag's value does not fit; the field is named (:func:`reword` names the flag).
    UsageError
        ``--rpe-delta`` or ``--rpe-unit`` does not fit; the flag is named.
    """
    from robot_msgs.evaluation.read_settings import ReadSettings  # noqa: PLC0415
    from robot_msgs.evaluation.settings import EvaluationSettings  # noqa: PLC0415
    from robot_msgs.runs.manifest import RunReader, load_runs  # noqa: PLC0415
    from robot_msgs.runs.run_settings import RunSettings, default_metrics  # noqa: PLC0415

    evaluation = _given(args, EvaluationSettings)
    metrics = None
    if args.rpe_delta is not None or args.rpe_unit is not None:
        deltas = (1.0,) if args.rpe_delta is None else tuple(args.rpe_delta)
        twice = next((d for d in deltas if deltas.count(d) > 1), None)
        if twice is not None:  # was "[settings]: `metrics`: expected distinct names", exit 1
            shown = " ".join(f"{d:g}" for d in deltas)
            msg = f"--rpe-delta {shown}: expected distinct deltas, got {twice:g} twice"
            raise UsageError(msg)
        try:
            metrics = default_metrics(deltas, args.rpe_unit or "s")
        except ValidationError as err:  # the pairs of --rpe-delta, not of a --delta
            flag = "--rpe-unit" if err.field.endswith("delta_unit") else "--rpe-delta"
            # The library's `delta_unit='s'` is --rpe-unit here (report has no --delta-unit).
            reason = re.sub(r"`delta_unit='(\w+)'`", r"--rpe-unit \1", err.reason)
            # The value as rpe --delta says it (report said "--rpe-delta: expected ...").
            given = args.rpe_unit if flag == "--rpe-unit" else args.rpe_delta
            value = " ".join(f"{d:g}" for d in given) if isinstance(given, list) else given
            msg = f"{flag} {value}: {reason}" if value is not None else f"{flag}: {reason}"
            raise UsageError(msg, reason=reason) from err
    judge = {
        k: v for k, v in _given(args, RunSettings).items() if k not in ("evaluation", "reading")
    }
    reading = _given(args, ReadSettings)
    if stream:
        return RunReader(
            inputs, evaluation=evaluation, metrics=metrics, judge=judge, reading=reading
        )
    return load_runs(inputs, evaluation=evaluation, metrics=metrics, judge=judge, reading=reading)


def add_json_file_flag(group: argparse._ActionsContainer, what: str) -> None:
    """Add ``--json [FILE]``: ``what`` as JSON to FILE, or to standard output without one.

    The one declaration for ``res`` and ``report``, whose other outputs take files; like
    ``ape --json``, a bare ``--json`` prints (``-`` names standard output too).
    """
    group.add_argument(
        "--json",
        type=Path,
        nargs="?",
        const=Path("-"),
        metavar="FILE",
        help=f"{what} as JSON (to standard output without FILE, or with -)",
    )


def given_outputs(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Path]:
    """Return the output files of ``names`` given (``--json FILE``...), by name.

    Raises
    ------
    UsageError
        ``--force`` without any of them: it has nothing to overwrite.
    """
    outputs = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    if args.force and not outputs:
        msg = f"--force only goes with an output ({', '.join(f'--{n}' for n in names)})"
        raise UsageError(msg)
    return outputs


def add_label_flag(group: argparse._ActionsContainer, inputs: str = "EST") -> None:
    """Add ``--label NAME`` (repeatable): each input's name in the figures' legends.

    The one declaration of the flag, for ``ape``/``rpe``/``drift``, ``traj`` and ``res``;
    :func:`robot_msgs.report.figure_text.legend_names` applies it.
    """
    group.add_argument(
        "--label",
        action="append",
        metavar="NAME",
        help=f"legend name of each {inputs}, in order: give it once per {inputs} "
        "(default: the file stem)",
    )


def add_plot_flags(
    group: argparse._ActionsContainer,
    plot: str,
    *,
    dpi: str = "PNG resolution of --plot (default 150, <= 600)",
    plane: str = "",
) -> None:
    """Add ``--plot FILE`` and ``--dpi N``, and ``--plot-plane`` where ``plane`` helps it.

    The one declaration of the flags, for ``ape``/``rpe``/``drift``, ``traj`` and ``res``,
    each with its own help; :func:`check_plot_options` refuses the others without ``--plot``.
    """
    group.add_argument("--plot", type=Path, metavar="FILE", help=plot)
    group.add_argument("--dpi", type=int, action=dpi_flag, metavar="N", help=dpi)
    if plane:
        group.add_argument("--plot-plane", choices=("xy", "xz", "yz", "xyz"), help=plane)


def check_plot_options(args: argparse.Namespace) -> None:
    """Refuse ``--plot-plane`` and ``--dpi`` without ``--plot``, whose figure they set.

    Raises
    ------
    UsageError
        One of them given without ``--plot`` (exit status 2, as ``--label`` alone).
    """
    if args.plot is not None:
        return
    for flag, name, what in (
        ("--plot-plane", "plot_plane", "the trajectory view"),
        ("--dpi", "dpi", "the PNG resolution"),
    ):
        if getattr(args, name, None) is not None:
            msg = f"{flag} sets {what} of --plot's figure; give --plot FILE too"
            raise UsageError(msg)


def add_save_layout_flag(group: argparse._ActionsContainer, output: str) -> None:
    """Add ``--save-layout``: the messages of a ``.mcap``/``.db3`` ``output``.

    The library's ``layout=`` (:func:`robot_msgs.io.write_trajectory`), whose warning
    for a child frame or covariances not written names it.
    """
    group.add_argument(
        "--save-layout",
        choices=("poses", "path", "odometry"),
        help=f"messages of a .mcap/.db3 {output}: geometry_msgs/PoseStamped per pose "
        "(poses, the default), one nav_msgs/Path (path), or nav_msgs/Odometry per pose "
        "(odometry: keeps the child frame and covariances)",
    )


def check_save_layout(args: argparse.Namespace, flag: str, fmt: str) -> None:
    """Refuse ``--save-layout`` without a bag written by ``flag`` (``fmt``: its format).

    Raises
    ------
    UsageError
        ``--save-layout`` with no ``flag`` or with a text format (it was ignored).
    """
    if getattr(args, "save_layout", None) is None or fmt in ("mcap", "db3"):
        return
    if fmt:  # it was ignored in silence, as --save-topic was
        msg = f"--save-layout names the messages of a .mcap or .db3 {flag} OUT, not of {fmt} text"
    else:
        msg = f"--save-layout only goes with {flag} OUT.mcap or OUT.db3"
    raise UsageError(msg)


#: What ``--plot`` draws for ``ape`` and ``rpe``: one estimate's trajectory coloured by
#: its error, and the error over time with its statistics.
_PLOT_OVER_TIME = (
    "trajectories coloured by error and error over time (rms, mean, median): "
    "PDF, SVG, EPS or PNG by the name, 11 x 4.5 in; needs robot_msgs[plot]"
)


def add_output_args(
    parser: argparse.ArgumentParser, *, plot: str = _PLOT_OVER_TIME, several: bool = True
) -> None:
    """Add ``--json``, ``--save``, ``--save-aligned``, ``--to``, ``--plot``, ``--dpi``...

    ``plot`` is what ``--plot`` draws; ``several``: the command takes several estimates
    (``ape``, ``rpe``), whose output names hold ``{name}`` and whose JSON is a list.
    ``drift`` takes one and draws its segments' errors (its help said "trajectories
    coloured by error and error over time (rms, mean, median)", which its figure is not).
    """
    group = parser.add_argument_group(
        "output (with several estimates, FILE names hold {name}: each estimate's name)"
        if several
        else "output"
    )
    group.add_argument(
        "--json",
        action="store_true",
        help="print the result as JSON (Comparison.to_dict"
        + ("; a list for several estimates)" if several else ")"),
    )
    group.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the whole result (per-pose errors, alignment, matched and aligned "
        "trajectories): .npz or .parquet as the name says (parquet: robot_msgs[parquet]), "
        "else JSON; robot-msgs res reads it",
    )
    group.add_argument(
        "--save-aligned",
        type=Path,
        metavar="FILE",
        help="write the estimate moved as it was compared: the transforms, the alignment "
        "and the plane projection (TUM, KITTI, EuRoC or a ROS 2 bag by the name's "
        ".tum/.kitti/.csv/.mcap/.db3, or --to)",
    )
    group.add_argument("--to", choices=WRITE_FORMATS, help="format of --save-aligned")
    add_save_layout_flag(group, "--save-aligned")
    add_plot_flags(
        group,
        plot,
        plane="trajectory view of --plot; xyz is 3-D (default: the reference's two widest axes)",
    )
    add_label_flag(group)
    group.add_argument("--force", action="store_true", help="overwrite existing output files")
    group.add_argument(
        "--quiet",
        action="store_true",
        help="no progress on stderr (shown only on a terminal, for a step over 2 s)",
    )


def inputs_from_args(args: argparse.Namespace) -> list[InputFile]:
    """Return ``REF`` and every ``EST`` as the flags describe them (nothing read yet)."""
    from robot_msgs.io.evaluation_inputs import InputFile  # noqa: PLC0415

    estimates = getattr(args, "estimates", None) or [args.estimate]
    sides = [("ref", args.reference), *(("est", path) for path in estimates)]
    return [
        InputFile(
            path=path,
            fmt=getattr(args, f"{side}_format") or args.format,
            topic=getattr(args, f"{side}_topic"),
            times_path=getattr(args, f"{side}_times"),
        )
        for side, path in sides
    ]


def read_inputs_from_args(
    args: argparse.Namespace,
) -> tuple[list[PoseTrajectory], list[str], list[list[str]]]:
    """Read ``REF`` and every ``EST`` as the flags say, in one frame.

    :func:`robot_msgs.io.read_inputs`: each format detected once, a bag's pose topic
    chosen once, latitude/longitude inputs in one frame (``--crs``, else ``--geo-origin``,
    else the first fix of the first of them, REF first). A file of one pose is read with
    a warning. A bag topic whose covariances are all zero is a reading note, not said
    here (most metrics do not use them): NEES names it (:func:`unknown_covariances_of`).

    Returns
    -------
    trajectories, labels, said
        The trajectories and their labels, REF first, and for each input the data
        problems its reading fixed (:class:`~robot_msgs.errors.DataWarning`, shown on
        standard error as they come): what the results' notes must keep, since a
        ``--json`` or ``--save`` result without them does not say its inputs were fixed.
    """
    import warnings  # noqa: PLC0415

    from robot_msgs.errors import DataWarning  # noqa: PLC0415

    inputs = inputs_from_args(args)
    try:
        with warnings.catch_warnings(record=True) as caught:
            read = _read(args, inputs)
    except FormatError as err:  # the side's flag: --format and --topic would say both
        sided = side_error(err, inputs)
        if sided is None:
            raise
        raise sided from err
    finally:
        for shown in caught:  # shown as if never caught, in their order
            warnings.showwarning(shown.message, shown.category, shown.filename, shown.lineno)
    said: list[list[str]] = [[] for _ in inputs]
    for shown in caught:
        if not issubclass(shown.category, DataWarning):
            continue
        text = str(shown.message)
        whose = [k for k, i in enumerate(inputs) if _names(text, i.path)]
        for k in whose or range(len(inputs)):  # unnamed: every input's
            said[k].append(text)
    if getattr(args, "sync", None) != "spatial":
        _check_frames_beside_seconds(read, inputs)
    return read, [i.label for i in inputs], said


def _check_frames_beside_seconds(
    read: Sequence[PoseTrajectory], inputs: Sequence[InputFile]
) -> None:
    """Refuse frame indices beside seconds, naming the times flag and a times file beside.

    The library says "give the reference's times file"; here the flag is known, and a
    KITTI file that ``write_trajectory`` (or evo's test data, ``KITTI_00_gt_times.txt``)
    wrote has its times beside it, which a user was not told of.
    """
    from robot_msgs.errors import AssociationError  # noqa: PLC0415
    from robot_msgs.io.kitti import default_times_path  # noqa: PLC0415

    ref = read[0]
    for k, est in enumerate(read[1:], start=1):
        if ref.stamps_are_frames == est.stamps_are_frames:
            continue
        side, flag = (0, "--ref-times") if ref.stamps_are_frames else (k, "--est-times")
        other = k if side == 0 else 0
        path = inputs[side].path
        beside = None if path.startswith("example:") else default_times_path(path)
        hint = f" ({beside} lies beside it)" if beside is not None and beside.is_file() else ""
        # evo's KITTI_00_gt.txt given its times beside KITTI_00_ORB.txt without: one
        # frame a row in both, which is how evo and KITTI's devkit match them.
        given = inputs[other].times_path is not None
        unsaid = "--est-times" if side == 0 else "--ref-times"
        both = f", or leave out {unsaid} (both by frame index)" if given else ""
        msg = (
            f"{path} is stamped by frame index (KITTI read without its times) and "
            f"{inputs[other].path} by seconds: they cannot be matched in time; give "
            f"{flag} FILE{hint}{both}, or --sync spatial to match by position"
        )
        raise AssociationError(msg)


def side_error(err: FormatError, inputs: Sequence[InputFile]) -> FormatError | None:
    """Say the flag of the side an error is about, or None to keep ``err``.

    A bag without a topic (:class:`~robot_msgs.errors.TopicError`, "choose a topic with
    `topic=`") is answered ``--ref-topic`` or ``--est-topic``: the inputs are read in
    order, so it is the first bag given no topic. A reader's "choose the format
    (`format=` ...)" is ``--ref-format`` or ``--est-format`` as the file is REF or an
    EST: ``--format`` sets both sides, so following it broke a good estimate beside a bad
    reference. REF given as an EST too, or another error: None (``--format`` says both).
    """
    if isinstance(err, TopicError):
        from robot_msgs.io import resolve_path  # noqa: PLC0415

        untold = [
            k
            for k, i in enumerate(inputs)
            if i.topic is None and str(resolve_path(i.path)) == err.path
        ]
        flag = "--ref-topic" if untold[:1] == [0] else "--est-topic"
        return TopicError(str(err).replace("`topic=`", flag), path=err.path)
    whose = [k for k, i in enumerate(inputs) if _names(str(err), i.path)]
    if type(err) is not FormatError or not _FORMAT_NAMED.search(str(err)) or not whose:
        return None
    if whose == [0]:
        flag = "--ref-format"
    elif 0 not in whose:
        flag = "--est-format"
    else:  # REF is an EST too: the one flag says both
        return None
    # "`format=` tum, kitti or euroc" and "`format='euroc'`" alike: a reader that names
    # the format to choose was answered "--format euroc", which broke the other side (a
    # review: each side's error then sent the user to the other's).
    return FormatError(
        _FORMAT_NAMED.sub(lambda m: flag + (f" {m.group(1)}" if m.group(1) else ""), str(err))
    )


#: A reader's advice to choose a format, with or without the format it names.
_FORMAT_NAMED = re.compile(r"`format=(?:'([^'`]*)')?`")


def _names(text: str, path: str) -> bool:
    """Whether a reader's message is about the input ``path`` (it starts with its name)."""
    from robot_msgs.io import resolve_path  # noqa: PLC0415

    try:
        resolved = str(resolve_path(path))
    except (OSError, ValueError):
        resolved = path
    # "FILE: ...", "FILE, line 3: ...", a bag's "FILE /topic: ..." (not "FILE 2.tum: ...")
    starts = ((f"{name}:", f"{name},", f"{name} /") for name in (path, resolved))
    return any(text.startswith(start) for start in starts)


def _read(args: argparse.Namespace, inputs: list[InputFile]) -> list[PoseTrajectory]:
    """Read ``inputs`` (:func:`robot_msgs.io.read_inputs`) with the reading flags."""
    from robot_msgs.io.evaluation_inputs import read_inputs  # noqa: PLC0415

    return read_inputs(
        inputs,
        strict=args.strict,
        repeated_stamps=_repeated_stamps(args),
        geo_origin=None if args.geo_origin is None else tuple(args.geo_origin),
        crs=args.crs,
        kitti_rotations=reading_rules(args).kitti_rotations,
    )


def reading_rules(args: argparse.Namespace) -> ReadSettings:
    """Return the reading rules the flags give (``--repeated-stamps``, ``--kitti-rotations``)."""
    from robot_msgs.evaluation.read_settings import ReadSettings  # noqa: PLC0415

    return settings_from_args(args, ReadSettings())


def _repeated_stamps(args: argparse.Namespace) -> RepeatedStamps:
    """Return the repeated-stamps rule the flags give (``--repeated-stamps``, ``--protocol``)."""
    return reading_rules(args).rule_for(getattr(args, "protocol", None) or "")


def unknown_covariances_of(args: argparse.Namespace, index: int, needed_by: str) -> str | None:
    """Return why input ``index`` (1: the first EST) has no covariances, if they were all zero.

    :func:`robot_msgs.io.evaluation_inputs.unknown_covariances` on that input, read with
    the reading flags: the file and topic whose every covariance is all zero, and that
    ``needed_by`` needs them; or ``None``.
    """
    from robot_msgs.io.evaluation_inputs import unknown_covariances  # noqa: PLC0415

    given = inputs_from_args(args)[index]
    return unknown_covariances(
        given, needed_by, strict=args.strict, repeated_stamps=_repeated_stamps(args)
    )
