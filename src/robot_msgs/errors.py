"""The package's error hierarchy: one root, each error also the builtin it refines.

Catch :class:`RobotMsgsError` to handle anything this package raises on purpose.
Every subclass also inherits the builtin exception it refines (``ValueError``,
``LookupError``, ...) so that code written against the builtins keeps working.
"""

from __future__ import annotations

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
    "ValidationError",
    "did_you_mean",
]


class RobotMsgsError(Exception):
    """Root of every error robot_msgs raises on purpose."""


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
    """Two trajectories cannot be matched in time (no overlap, too few matches, bad tolerance)."""


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


def did_you_mean(given: str, choices: list[str] | tuple[str, ...]) -> str:
    """Return ``"; did you mean A, B?"`` naming the choices close to ``given``, or ``""``.

    Close as :func:`difflib.get_close_matches` says (at most 3, ratio 0.6 or more),
    compared without leading slashes (``/odom`` and ``odom`` are one name to a user).

    Examples
    --------
    >>> did_you_mean("SPTAM", ["ORB-SLAM", "S-PTAM", "groundtruth"])
    '; did you mean S-PTAM?'
    >>> did_you_mean("/xyz", ["/odom"])
    ''
    """
    import difflib  # noqa: PLC0415 - only for the error

    bare = {c.lstrip("/"): c for c in choices}
    close = difflib.get_close_matches(given.lstrip("/"), list(bare), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(bare[c] for c in close)}?" if close else ""
