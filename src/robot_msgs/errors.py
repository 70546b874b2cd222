"""The package's error hierarchy: one root, each error also the builtin it refines.

Catch :class:`RobotMsgsError` to handle anything this package raises on purpose.
Every subclass also inherits the builtin exception it refines (``ValueError``,
``LookupError``, ...) so that code written against the builtins keeps working.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType

    from typing_extensions import Self

__all__ = [
    "AlignmentError",
    "AssociationError",
    "DataWarning",
    "ExecutorError",
    "FolderLockedError",
    "FormatError",
    "MissingDependencyError",
    "OutputExistsError",
    "OutputPathError",
    "RobotMsgsError",
    "SettingsMismatchError",
    "TopicError",
    "UnknownTypeError",
    "UsageError",
    "ValidationError",
    "caller_stacklevel",
    "close_names",
    "closeness",
    "did_you_mean",
    "shown_token",
]


class RobotMsgsError(Exception):
    """Root of every error robot_msgs raises on purpose."""

    def within(self, before: str, after: str = "") -> Self:
        """Return this error saying ``before``, its text, then ``after``: class and fields kept.

        How a caller says where an error happened (the file, the run) without losing
        what its fields carry. WHY the fields: rebuilt from its text alone, an
        :class:`AssociationError` lost its ``cause`` (30001a9).

        Examples
        --------
        >>> err = AssociationError("No pose pairs found", cause="no overlap")
        >>> named = err.within("est.tum: ")
        >>> str(named), named.cause
        ('est.tum: No pose pairs found', 'no overlap')
        """
        said = type(self)(f"{before}{self}{after}")  # every class is built from its text alone
        said.__dict__.update(self.__dict__)  # its fields (an ImportError's text is no field)
        # WHY: the builtins keep these outside __dict__. An OSError's strerror and filename
        # are not set: they would replace the text (said by it already).
        kept: BaseException = said  # typed as the builtin, which mypy can narrow
        given: BaseException = self
        if isinstance(given, ImportError) and isinstance(kept, ImportError):
            kept.name, kept.path = given.name, given.path
        if isinstance(given, OSError) and isinstance(kept, OSError):
            kept.errno = given.errno
        return said


class ValidationError(RobotMsgsError, ValueError):
    """A value does not fit a message field: names the type, the field path, expected and got.

    ``field`` is the field's path (``"EvaluationSettings.n_align"``, or ``""`` when the
    error is not about one field) and ``reason`` the "expected ..., got ..." part, so a
    front end can say which of its own options was wrong (a command-line flag, a
    manifest key) without parsing the message.
    """

    def __init__(self, message: str, *, field: str = "", reason: str = "") -> None:
        super().__init__(message)
        self.field = field
        self.reason = reason or message

    def within(self, before: str, after: str = "") -> Self:
        """As :meth:`RobotMsgsError.within`, the ``reason`` said within the same words."""
        said = super().within(before, after)
        said.reason = f"{before}{self.reason}{after}"
        return said

    def placed(self, name: str, place: str) -> ValidationError:
        """Return this error of a message ``name`` said at ``place``, where it is nested.

        A nested message is built on its own, so its refusal names its own type
        (``Time.sec``); within a whole message the place is ``Header.stamp.sec``. The
        text and ``field`` are rooted alike, both places of a rule between two fields
        (``at `ErrorStats.std` and `ErrorStats.rms```) too; an error not about ``name``
        is kept.

        Examples
        --------
        >>> err = ValidationError("Expected ... - at `Time.sec`", field="Time.sec")
        >>> moved = err.placed("Time", "Header.stamp")
        >>> str(moved), moved.field
        ('Expected ... - at `Header.stamp.sec`', 'Header.stamp.sec')
        """
        field = self.field
        if field == name or field.startswith((f"{name}.", f"{name}[")):
            field = place + field[len(name) :]
        text = str(self)
        for end in (".", "`", "["):
            text = text.replace(f"at `{name}{end}", f"at `{place}{end}")
            text = text.replace(f"and `{name}{end}", f"and `{place}{end}")  # a rule's two
        return ValidationError(text, field=field, reason=self.reason)


class UsageError(ValidationError):
    """A flag's value is refused: out of its bounds, or not fitting the other flags or inputs.

    The message names the flag (``--max-diff -1: expected float >= 0, ...``). The command
    line exits with status 2 for it, as argparse does for a value of the wrong type; a
    problem with the data or the files read exits 1.
    """


class UnknownTypeError(RobotMsgsError, LookupError):
    """A ``"_type"`` string names no registered message type."""


class FormatError(RobotMsgsError, ValueError):
    """A file cannot be read as the format asked for: names the file, line, column and text."""


class TopicError(FormatError):
    """A bag's topic or TF frame is not in it, or a bag of several pose topics got none.

    ``path`` is the bag as it was given to the reader, so that a front end can say which
    of its inputs needs a topic (``--ref-topic`` or ``--est-topic``).
    """

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class AssociationError(RobotMsgsError, ValueError):
    """Two trajectories cannot be matched in time (no overlap, too few matches, bad tolerance).

    ``cause``: the end of the message that says why the motion cannot time them, where
    another finding may say it better (a flat offset cost that a scale fitted times);
    ``""`` for other refusals.
    """

    def __init__(self, message: str, *, cause: str = "") -> None:
        super().__init__(message)
        self.cause = cause


class AlignmentError(RobotMsgsError, ValueError):
    """An alignment cannot be fitted (degenerate, collinear or static positions, too few poses)."""


class SettingsMismatchError(RobotMsgsError, ValueError):
    """Results made with different evaluation settings were about to be mixed."""


class MissingDependencyError(RobotMsgsError, ImportError):
    """An optional extra is needed for this feature; the message names the ``pip install``."""


class OutputExistsError(RobotMsgsError, FileExistsError):
    """An output file already exists and overwriting it was not asked for (``--force``)."""


class OutputPathError(RobotMsgsError, OSError):
    """An output path cannot be written: given twice, no writable folder, or not a file."""


class FolderLockedError(OutputPathError):
    """An output folder is in use by another sweep (``robot-msgs bench``): one client per folder."""


class ExecutorError(RobotMsgsError, RuntimeError):
    """Workers cannot run a batch at all (they die on start, or cannot import the function)."""


class DataWarning(UserWarning):
    """Input data had a problem that was fixed by a stated rule (the message says which).

    ``kind`` names the problem for tools (a kind of
    :data:`~robot_msgs.compare.diagnosis.FINDING_KINDS`, ``""`` when none applies) and
    ``fixed`` says whether the rule repaired it (``False``: only reported), so that
    ``robot-msgs doctor`` reports what reading found without reading its wording.

    Examples
    --------
    >>> w = DataWarning("a.tum: 2 row(s) repeat an earlier stamp", kind="repeated_stamps")
    >>> str(w), w.kind, w.fixed
    ('a.tum: 2 row(s) repeat an earlier stamp', 'repeated_stamps', True)
    """

    def __init__(self, message: str, *, kind: str = "", fixed: bool = True) -> None:
        super().__init__(message)
        self.kind = kind
        self.fixed = fixed


def caller_stacklevel() -> int:
    """Return the ``stacklevel`` that points a warning at the first caller outside the package.

    For the function about to call :func:`warnings.warn`: a :class:`DataWarning` about a
    user's data names the line of the user's own code (a notebook cell, a script) that
    led to it, not a line inside robot_msgs, however deep the package's calls are (the
    fixed levels pointed at ``pipeline.py`` for a notebook's ``ape(...)``; a review).
    """
    import sys  # noqa: PLC0415 - only when warning

    frame: FrameType | None = sys._getframe(2)  # noqa: SLF001 - the caller of the one warning
    level = 2
    # contextlib: a warning held by a context manager of the package is told on its exit.
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] in (
        "robot_msgs",
        "contextlib",
    ):
        frame = frame.f_back
        level += 1
    return level


#: At most this many characters of a token are quoted in a message (:func:`shown_token`).
_TEXT_SHOWN = 32


def shown_token(token: str) -> str:
    """Quote a token of a file or a command line for a message: ``repr``, at most 32 characters.

    Messages quote the offending token only, never the line: the file may be anything a
    manifest points at (``/etc/shadow``), and its lines are not the message's to print;
    a name given on the command line may be 100 000 characters long.

    Examples
    --------
    >>> shown_token("0y"), shown_token("x" * 100)[-8:]
    ("'0y'", "xxxx'...")
    """
    return repr(token if len(token) <= _TEXT_SHOWN else token[:_TEXT_SHOWN]) + (
        "..." if len(token) > _TEXT_SHOWN else ""
    )


def close_names(
    given: str,
    choices: list[str] | tuple[str, ...],
    *,
    last_part: bool = False,
    cutoff: float = 0.6,
) -> list[str]:
    """Return the choices close to ``given``, the closest first (at most 3).

    Close as :func:`difflib.get_close_matches` says (ratio ``cutoff`` or more), compared
    without leading slashes (``/odom`` and ``odom`` are one name to a user) and dashes
    (``--`` made every flag close to ``--chek``: ``--help``, ``--force``).
    ``last_part``: a ``given`` without ``/`` is also compared with the part of each
    choice after its last ``/`` (a type's bare name, ``Imu`` for ``sensor/Imu``), equal
    names (case aside) first.

    Examples
    --------
    >>> close_names("--plot_mod", ["--plot", "--plot_mode", "--json"])
    ['--plot_mode', '--plot']
    >>> close_names("/xyz", ["/odom"])
    []

    A choice that is ``given`` in another case is the one meant, alone: difflib's ratio
    is case sensitive, and ``robot-msgs Ape`` was asked "did you mean rpe, ape?".

    >>> close_names("Ape", ["ape", "rpe"])
    ['ape']
    """
    import difflib  # noqa: PLC0415 - only for the error

    cased = [c for c in choices if c.lstrip("/-").lower() == given.lstrip("/-").lower()]
    if cased:
        return cased[:3]
    bare = {c.lstrip("/-"): c for c in choices}
    near = difflib.get_close_matches(given.lstrip("/-"), list(bare), 3, cutoff)
    close = [bare[c] for c in near]
    if last_part and "/" not in given:
        names: dict[str, list[str]] = {}
        for choice in choices:
            names.setdefault(choice.rpartition("/")[2].lower(), []).append(choice)
        near = difflib.get_close_matches(given.lower(), list(names), n=3, cutoff=cutoff)
        by_name = [c for name in near for c in names[name]]
        close = list(dict.fromkeys([*by_name, *close]))[:3]
    return close


def closeness(given: str, choice: str) -> float:
    """Return how close ``choice`` is to ``given`` as :func:`close_names` compares them.

    :class:`difflib.SequenceMatcher`'s ratio, leading slashes and dashes aside. WHY:
    :func:`close_names` orders equally close choices by the alphabet, backwards, so a
    tie between two lists needs the ratio: ``--tstart`` is as close to our --t-start
    as to evo's --t_start, and ``_`` sorts after ``-``.

    Examples
    --------
    >>> closeness("--tstart", "--t-start") == closeness("--tstart", "--t_start")
    True
    >>> round(closeness("--plot_mod", "--plot_mode"), 3)
    0.941
    """
    import difflib  # noqa: PLC0415 - only for an error

    return difflib.SequenceMatcher(None, choice.lstrip("/-"), given.lstrip("/-")).ratio()


def did_you_mean(
    given: str, choices: list[str] | tuple[str, ...], *, last_part: bool = False
) -> str:
    """Return ``"; did you mean A, B?"`` naming the choices close to ``given``, or ``""``.

    The choices are :func:`close_names`'s.

    Examples
    --------
    >>> did_you_mean("SPTAM", ["ORB-SLAM", "S-PTAM", "groundtruth"])
    '; did you mean S-PTAM?'
    >>> did_you_mean("/xyz", ["/odom"])
    ''
    >>> did_you_mean("--chek", ["--check", "--help", "--force"])
    '; did you mean --check?'
    >>> did_you_mean("imu", ["sensor/Image", "sensor/Imu", "geometry/Pose"], last_part=True)
    '; did you mean sensor/Imu?'
    """
    close = close_names(given, choices, last_part=last_part)
    return f"; did you mean {', '.join(close)}?" if close else ""
