"""Every settings field's flag on a command's parser, and the settings the flags give.

The settings flags are not written here: each is declared on its settings field
(:class:`~robot_msgs.flags.Flag`, beside the field's type, choices, bounds and
description), and :func:`add_settings_flags` builds the parser from those declarations,
its help from their descriptions and the command's defaults. It reads them as the rows of
the table generated from them (:mod:`robot_msgs.cli._settings_flags`), so a command's
parser and ``--help`` import no settings class, no msgspec and no NumPy. The flags are parsed with
no default; :func:`settings_from_args` puts the ones given on top of the command's
defaults, so the settings are validated once, by the message. A library error names the
field (``EvaluationSettings.max_diff_s``); :func:`~robot_msgs.cli._flag_text.reword` says
it with the flag and the value given. ``report`` and ``bench`` add the flags of the run
settings (:func:`add_run_settings_args`) and read runs with them on top
(:func:`load_runs_from_args`).
"""

from __future__ import annotations

import argparse
import contextlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from robot_msgs.cli._flag_text import (
    FLAG_UNITS,
    fields_as_flags,
    flag_dest,
    unit_answer,
    value_for_flag,
)
from robot_msgs.cli._settings_flags import FlagRow, flag_rows
from robot_msgs.errors import UsageError, ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from robot_msgs.evaluation.settings import EvaluationSettings, PairSettings
    from robot_msgs.msg import Msg

__all__ = [
    "add_run_settings_args",
    "add_settings_flags",
    "given_run_flags",
    "load_runs_from_args",
    "pair_list_from_args",
    "settings_from_args",
]

M = TypeVar("M", bound="Msg")


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


def _number_not_word(word: str, metavar: str, said: str) -> Any:
    """Return the type of a shared flag whose word this command lacks (traj's ``--offset``).

    ``traj --offset auto`` was told only "invalid float value: 'auto'", as for a typo;
    ``said`` is the command that takes the word, typed whole.
    """

    def number(text: str) -> float:
        if text == word:
            msg = f"expected {metavar}, got {text!r}: this command estimates none; `{said}` does"
            raise argparse.ArgumentTypeError(msg)
        return float(text)

    number.__name__ = "float"  # argparse says "invalid float value" for anything else
    return number


#: The type of a flag's value, by its row's kind.
_SCALARS: dict[str, type] = {"float": float, "int": int, "str": str}


def _measured(name: str, metavar: str) -> Callable[[str], float]:
    """Return the type of a flag of one number in ``metavar``'s unit (SECONDS, METRES).

    A number typed with a unit is answered with the number alone in the flag's unit:
    ``--max-diff 20ms`` was told "invalid float value: '20ms'" and no more. Another
    unit (``--max-diff 2m``) is left to argparse's answer: no guess.

    Examples
    --------
    >>> _measured("--max-diff", "SECONDS")("0.02")
    0.02
    >>> _measured("--max-diff", "SECONDS")("20ms")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '20ms' is 0.02 s: give the number alone (--max-diff 0.02)
    """
    units = FLAG_UNITS[metavar][1]

    def number(text: str) -> float:
        try:
            return float(text)
        except ValueError:
            typed = re.fullmatch(r"\s*([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\s*([^\W\d_]+)\s*", text)
            if typed is None or typed.group(2) not in units:
                raise
            msg = unit_answer(name, metavar, typed.group(1), typed.group(2), repr(text))
            if msg is None:  # '1e400ms' was told to type '--max-diff inf'
                raise
            raise argparse.ArgumentTypeError(msg) from None

    number.__name__ = "float"  # argparse says "invalid float value" for anything else
    return number


def _add_flag(
    group: Any, flag: FlagRow, help_text: str, word: str, lacked: tuple[str, str] = ("", "")
) -> None:
    """Add one field's flag to ``group`` as its declaration says.

    ``word``: the flag is shared with a switch set by this word (``--offset auto``).
    ``lacked``: that word, which this command does not take, and the command that does
    (:func:`_number_not_word`).
    """
    kwargs: dict[str, Any] = {"help": help_text, "dest": flag_dest(flag.name)}
    if flag.metavar:
        kwargs["metavar"] = flag.metavar
    if flag.kind == "switch":
        kwargs |= {"action": "store_true", "default": None}
    elif flag.kind == "choice":
        choices = flag.choices
        if flag.dashes:
            choices = tuple(dict.fromkeys(c.replace("_", "-") for c in choices))
        kwargs["choices"] = choices
        if flag.several:  # ape --relation translation angle_deg: one setting each
            kwargs["nargs"] = "+"
    elif flag.kind == "file":
        kwargs["type"] = _word_or_path(word) if word else Path
    elif flag.kind == "numbers":
        kwargs |= {"type": _numbers(flag.name), "nargs": "+", "action": _Joined}
    elif flag.kind == "floats":
        kwargs |= {"type": float, "nargs": flag.length or "+"}
    else:
        kwargs["type"] = _word_or_number(word) if word else _SCALARS[flag.kind]
        unit = flag.metavar if isinstance(flag.metavar, str) and not flag.several else ""
        if kwargs["type"] is float and unit in FLAG_UNITS:
            kwargs["type"] = _measured(flag.name, unit)
        if lacked[0] and flag.kind == "float" and isinstance(flag.metavar, str):
            kwargs["type"] = _number_not_word(lacked[0], flag.metavar, lacked[1])
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
    omit: Iterable[str] = (),
    note: str = "",
    noted: Iterable[str] = (),
    described: Mapping[str, str] | None = None,
    defaults_of: Mapping[str, object] | None = None,
) -> None:
    """Add the flag of every field of ``defaults``' types that declares one; help from it.

    ``defaults`` are the command's values (``EvaluationSettings()``, ``Ape()``...), or the
    names of settings classes whose own defaults are the command's (``"Ape"``: no class
    imported): each flag's help is its field's description and the default shown is the
    command's.
    ``only`` keeps those fields, ``omit`` drops those (a field the command never uses:
    ``--confidence`` outside APE's NEES); ``note`` is added to the help of the fields in
    ``noted`` (a default that depends on another option or a manifest). A flag two fields share
    (``--offset SECONDS|auto``) is added once, and takes its word only when ``only`` keeps
    the word's field too. Flags are grouped by their declared group.
    ``described`` replaces a field's description where it is not true of this command
    (by field name); ``defaults_of`` a named class's default where the command's differs
    (by field name: report's ``align`` is se3), so that no class is imported for it.
    """
    keep = None if only is None else set(only)
    dropped = set(omit)
    marked = set(noted)
    groups: dict[str, Any] = {}
    added: set[str] = set()
    for value in defaults:
        rows = flag_rows(value if isinstance(value, str) else type(value).__name__)
        words = {f.name: f.word for f in rows if f.word}
        worded = {f.name: f for f in rows if f.word and (keep is None or f.field in keep)}
        for flag in rows:
            name = flag.field
            if (keep is not None and name not in keep) or name in dropped or flag.name in added:
                continue
            added.add(flag.name)
            own = (described or {}).get(name) or flag.description
            text = fields_as_flags(own or name.replace("_", " "))
            default = (
                (defaults_of or {}).get(name, flag.default)
                if isinstance(value, str)
                else getattr(value, name)
            )
            text += _choices_named(flag, text)
            # A switch setting a value: its help says the other. A flag of several values
            # says its default too (rpe --delta's 1 was said nowhere in rpe --help).
            shown = flag.when_set is None
            if default is not None and default is not False and shown:
                text += f" (default {value_for_flag(flag, default)}"
                text += f"; {note})" if name in marked and note else ")"
            other = worded.get(flag.name) if not flag.word else None
            if other is not None:  # the word's own setting, said where the flag is
                said = (described or {}).get(other.field) or other.description
                text += f"; {other.word}: {fields_as_flags(said or other.field)}"
            if flag.group not in groups:
                groups[flag.group] = parser.add_argument_group(flag.group) if flag.group else parser
            word = words.get(flag.name, "") if not flag.word else ""
            row, lacked = flag, ("", "")
            if word and flag.name not in worded and isinstance(flag.metavar, str):
                # Its word's field not kept (traj --offset takes no auto): neither taken
                # nor shown (SECONDS|auto advertised a word the command refuses), and
                # refused naming the command that takes it (ape takes every setting).
                row = flag._replace(metavar=flag.metavar.removesuffix(f"|{word}"))
                root = parser.prog.split(" ", 1)[0]
                lacked = (word, f"{root} ape REF EST {flag.name} {word}")
                word = ""
            _add_flag(groups[flag.group], row, text.replace("%", "%%"), word, lacked)


def _choices_named(flag: FlagRow, text: str) -> str:
    """Return `` (SIDE: reference, estimate or both)`` where ``text`` names none of the choices.

    WHY: a choice flag shown by its metavar (``--w-first SIDE``) lists its choices nowhere
    in ``--help`` unless its description does; ``--w-first``'s did not, and ``--statistic
    FIELD``'s named only its default, so a newcomer learnt them from a wrong guess's error.

    Examples
    --------
    >>> from robot_msgs.cli._settings_flags import flag_rows
    >>> (w_first,) = (row for row in flag_rows("ReadSettings") if row.field == "w_first")
    >>> _choices_named(w_first, "the side whose file writes w first")
    ' (SIDE: reference, estimate or both)'
    >>> _choices_named(w_first, "reference, estimate or both")
    ''
    """
    if flag.kind != "choice" or not isinstance(flag.metavar, str) or not flag.metavar:
        return ""
    choices = [c.replace("_", "-") if flag.dashes else c for c in flag.choices]
    choices = list(dict.fromkeys(choices))
    if any(re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text) for c in choices):
        return ""
    return f" ({flag.metavar}: {', '.join(choices[:-1])} or {choices[-1]})"


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
        given = getattr(args, flag_dest(flag.name), None)
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


#: ``--repeated-stamps`` of report and bench. WHY not the field's own description: that
#: says the last row is kept in TUM's RPE protocol, as ``rpe --protocol tum`` does, but a
#: run's files are read once for all its metrics (:func:`robot_msgs.runs.load_run`), and
#: unset, by the first row: an RPE with ``protocol = "tum"`` in a manifest keeps the first.
_RUNS_REPEATED_STAMPS = (
    "rows with equal stamps: keep the first or the last in the file, or refuse them; "
    "all, evo's rule, is ape's and rpe's alone (default: the first, for every metric: a "
    "run is read once, so an RPE with protocol tum keeps the first too, unlike rpe "
    "--protocol tum; last is evaluate_rpe.py's; or the manifest's [settings])"
)


#: Where the runs' evaluation settings differ from ``EvaluationSettings()``:
#: :data:`~robot_msgs.runs.run_settings.RUN_DEFAULTS` is ``EvaluationSettings(**RUN_CHANGES)``
#: (tests/cli/test_settings_args.py holds them equal). Named here so that ``report --help``
#: and ``bench --help`` import no settings class (msgspec and NumPy: 0.1 s of CPU).
RUN_CHANGES: Mapping[str, object] = {"align": "se3"}


def add_run_settings_args(parser: argparse.ArgumentParser) -> None:
    """Add the settings flags of ``report`` and ``bench``: those of every metric, then the runs'.

    Each overrides the manifest's ``[settings]`` (:class:`~robot_msgs.runs.RunSettings`).
    The flags come from their table (:func:`flag_rows`): no settings class is imported.
    """
    add_settings_flags(
        parser,
        ["EvaluationSettings", "RunSettings"],
        note="or the manifest's [settings]",
        noted=[row.field for row in flag_rows("EvaluationSettings")],
        defaults_of=RUN_CHANGES,
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
    (units,) = (row.choices for row in flag_rows("PairSettings") if row.field == "delta_unit")
    group.add_argument("--rpe-unit", choices=units, help="unit of --rpe-delta (default s)")


def given_run_flags(args: argparse.Namespace) -> list[str]:
    """Name the flags of :func:`add_run_settings_args` given on the command line, in order.

    For ``report`` of a ``bench`` folder, whose runs were evaluated already: only
    the ranking rules (``--statistic``, ``--rank-failures``) can still change what it says.
    """
    from robot_msgs.runs.run_settings import RUN_DEFAULTS  # noqa: PLC0415

    classes = (type(RUN_DEFAULTS).__name__, "RunSettings", "ReadSettings")
    flags = [row.name for cls in classes for row in flag_rows(cls)]
    flags += ["--rpe-delta", "--rpe-unit"]
    return [f for f in dict.fromkeys(flags) if getattr(args, flag_dest(f), None) is not None]


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
