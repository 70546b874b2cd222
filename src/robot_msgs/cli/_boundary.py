r"""The command line's boundary: whatever happens in a command ends as one line and a status.

:func:`run_guarded` runs a command and turns everything that can end it into an exit
status and at most one line on standard error, with no traceback:

======  ==========================================================================
status  what ended the command
======  ==========================================================================
0       it finished
1       an error in what it was given or asked to write: the package's errors
        (:class:`~robot_msgs.errors.RobotMsgsError`), the operating system's
        (``OSError``: no such file, no permission, disk full), no memory left
2       the command line itself (argparse: an unknown flag, a value of the wrong
        type; :class:`~robot_msgs.errors.UsageError`: a flag's value out of its bounds,
        or that does not fit the other flags or the inputs)
70      a bug in robot_msgs (any other exception; ``EX_SOFTWARE`` of ``sysexits.h``):
        the line says so and names the file the traceback was written to
        (``--debug`` prints it instead)
130     Ctrl-C (SIGINT), as a shell reports a process it ended
141     standard output closed by its reader (``robot-msgs ... | head -1``): no
        line at all, as Unix tools end silently on SIGPIPE
143     SIGTERM (what ``timeout``, ``kill`` and SLURM send)
======  ==========================================================================

Outputs are written atomically (:mod:`robot_msgs.files`), so an interrupted command
leaves no file half-written and no temporary behind. A standard output that is closed
(``>&-``) fails the first write to it, with one line, as ``cat`` does.

Every line is escaped before it reaches the terminal: control characters (a newline in
a file name would forge a second ``ERROR:`` line; an escape sequence would recolour or
retitle the terminal) and Unicode direction overrides are shown as ``\\xNN``/``\\uNNNN``,
and a line is cut at :data:`_MOST_SHOWN` characters.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import os
import re
import signal
import sys
import threading
import warnings
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from robot_msgs.errors import DataWarning, RobotMsgsError, UsageError
from robot_msgs.report.text import controls_escaped, grouped

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import FrameType

__all__ = [
    "EXIT_BUG",
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_PIPE",
    "EXIT_TERMINATED",
    "EXIT_USAGE",
    "Terminated",
    "error_text",
    "escape",
    "fold_words",
    "run_guarded",
    "say",
    "terminal_width",
    "warnings_grouped",
]

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_BUG = 70
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141
EXIT_TERMINATED = 143

_MOST_SHOWN = 2000


class Terminated(BaseException):
    """SIGTERM arrived: raised in the main thread, so every ``finally`` and cleanup runs."""


def escape(text: str) -> str:
    r"""Return ``text`` safe to print on a terminal: controls escaped, cut to a bounded length.

    Examples
    --------
    >>> escape("a\nERROR: forged\x1b[31m")
    'a\\x0aERROR: forged\\x1b[31m'
    >>> escape("x\u202eevil")
    'x\\u202eevil'
    """
    line = controls_escaped(text)
    return line if len(line) <= _MOST_SHOWN else line[: _MOST_SHOWN - 3] + "..."


def error_text(err: BaseException) -> str:
    """Return what an error says, without an ``OSError``'s ``[Errno N]`` code.

    Examples
    --------
    >>> import errno
    >>> error_text(FileNotFoundError(errno.ENOENT, "x.tum: no such file"))
    'x.tum: no such file'
    >>> error_text(PermissionError(errno.EACCES, "Permission denied", "out.png"))
    'out.png: permission denied'
    >>> error_text(ValueError("plain"))
    'plain'
    """
    if isinstance(err, OSError) and err.strerror:
        why = err.strerror[:1].lower() + err.strerror[1:]
        if err.filename is None or why.startswith(str(err.filename)):
            return why
        return f"{err.filename}: {why}"
    return str(err)


def say(line: str) -> None:
    """Print one escaped line on standard error; a closed standard error says nothing.

    On a terminal the line is folded to its width (:func:`folded`); in a pipe or a log it
    stays one line, for grep.
    """
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(folded(escape(line), stream) + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


@contextlib.contextmanager
def warnings_grouped() -> Iterator[None]:
    """Show the data warnings of the block at its end, those alike about many files once.

    The others are shown as they were, first (:func:`~robot_msgs.report.text.grouped`).
    ``report`` holds its reading and evaluation, ``bench`` its sweep: one line for 1,000
    folders that hold a log but no estimate, after the progress line, not through it.
    """
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataWarning)
            yield
    finally:  # an error ends the command: what was said before it is shown still
        for w in caught:
            if not issubclass(w.category, DataWarning):
                warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        texts = [str(w.message) for w in caught if issubclass(w.category, DataWarning)]
        for text in grouped(texts):
            warnings.showwarning(text, DataWarning, __file__, 0)


def folded(text: str, stream: TextIO) -> str:
    """Fold ``text`` to the terminal's width under its label (``ERROR: ``...) on a terminal.

    An error or warning of 500 characters (the spans of an association that found no
    pair) ran off an 80-column terminal; in a pipe or a log it is returned as it is.
    """
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if not terminal:
        return text
    from robot_msgs.report.text import wrap  # noqa: PLC0415

    label, colon, _ = text.partition(": ")
    indent = len(label) + 2 if colon and label.isupper() and " " not in label else 2
    width = terminal_width(stream)
    return "\n".join(wrap(fold_words(text), width, subsequent_indent=" " * indent))


#: A bare flag (``--offset``, ``(--offset``) or a bare number (``3``, ``0.0205``): what
#: keeps the word after it on its line.
_TAKES_NEXT = re.compile(r"[(\[]?--[a-z][a-z0-9-]*|[(\[]?[0-9][0-9.]*")


def fold_words(line: str) -> list[str]:
    """Split ``line`` at its spaces into the words a fold keeps whole: a flag with its value.

    A bare flag (``--offset``, ``(--offset``) takes the next word unless that is a flag;
    so does a bare number, its noun or unit. WHY: KITTI 00's ORB 100 frames early ended
    the doctor's 80-column line with "[fix: --offset" and began the next with "100]":
    pasted, the flag ran without its value (a review). fr1_xyz's ground truth against
    KITTI 00's ORB ended its header's line with "1 error, 1" and began the next with
    "info"; V1_02's reading warning, "12 of 16702" and "quaternion(s)".

    Examples
    --------
    >>> fold_words("fix: --offset 0.1 --force, 3 warnings")
    ['fix:', '--offset 0.1', '--force,', '3 warnings']
    """
    words: list[str] = []
    for word in line.split(" "):
        if words and _TAKES_NEXT.fullmatch(words[-1]) and word and not word.startswith("--"):
            words[-1] += f" {word}"
        else:
            words.append(word)
    return words


def terminal_width(stream: TextIO) -> int:
    """Return the columns a line on ``stream`` folds to: COLUMNS, else its terminal's, else 80.

    At least 40. WHY: :func:`shutil.get_terminal_size` asks standard output's terminal,
    so ``ape --json > r.json`` on a 60-column terminal folded its ``NOTE:`` lines to 80
    columns, the fallback of a file. Raises nothing: ``stream`` may be any stand-in.
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        # No descriptor (a StringIO), no tty; or a stand-in stream's fileno() giving None
        # or a huge number: a TypeError or an OverflowError escaped say() (a review).
        except (AttributeError, OSError, ValueError, TypeError, OverflowError):
            columns = 0
    return max(columns or 80, 40)


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    del frame
    signal.signal(signum, signal.SIG_IGN)  # the first one ends the command; cleanup runs
    raise Terminated


#: The signals that stop a command (:func:`run_guarded`).
_STOPS = (signal.SIGINT, signal.SIGTERM)


def _ignore_stops() -> None:
    """Ignore SIGINT and SIGTERM: the process is ending with a status already decided."""
    for signum in _STOPS:
        signal.signal(signum, signal.SIG_IGN)


@functools.cache
def _ignore_stops_at_exit() -> None:
    """Register :func:`_ignore_stops` to run at exit, once in the process.

    Registered before the command's exit functions (multiprocessing's joins), so run
    after them: the last moment before Python takes its own handlers away. WHY once: a
    program calling ``main()`` in a loop (``sys.argv`` set each time) registered one more
    exit function per call.
    """
    atexit.register(_ignore_stops)


def _end_now(code: int, signum: int, frame: FrameType | None) -> None:
    """End the process at once with ``code``, the status of the command that was run.

    What the command printed is written first. WHY: standard output in a pipe or a file
    is written in blocks, and ``python -m robot_msgs`` writes the last block only as the
    interpreter shuts down: a SIGTERM then lost the results printed before an error
    (``os._exit`` writes nothing). A reader gone away or a closed stream keeps the status
    already decided (141 for a reader gone away was decided when the command's output
    was flushed, and standard output then points at /dev/null).
    """
    del signum, frame
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            # RuntimeError: the signal came inside a write to the same buffer
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                stream.flush()
    os._exit(code)


def _stopped(stop: BaseException, *, ending: bool) -> int:
    """Say that a Ctrl-C or SIGTERM stopped the command; return its status (130, 143)."""
    if ending:  # a second Ctrl-C while this line is written would be a traceback
        _ignore_stops()
    if isinstance(stop, Terminated):
        say("ERROR: terminated (SIGTERM); nothing was left half-written")
        return EXIT_TERMINATED
    say("ERROR: interrupted (Ctrl-C); nothing was left half-written")
    return EXIT_INTERRUPTED


def _stop_cause(err: BaseException) -> BaseException | None:
    """Return the Ctrl-C or SIGTERM that ``err`` was raised from, if one was.

    WHY: Python 3.11 wraps what a class's ``__set_name__`` raises in a ``RuntimeError``
    ("Error calling __set_name__"), so a Ctrl-C that landed while a dataclass was made (a
    module imported lazily by ``ape``) was written up as a bug, status 70, not 130.
    """
    cause = err.__cause__
    while cause is not None and not isinstance(cause, (KeyboardInterrupt, Terminated)):
        cause = cause.__cause__
    return cause


class _ClosedStdout:
    """What ``sys.stdout`` is when the process started without one: a write fails as EBADF."""

    def write(self, text: str) -> int:
        """Fail: there is nowhere to write."""
        del text
        error = OSError("standard output is closed (>&-); nothing can be written to it")
        error.errno = errno.EBADF
        raise error

    def flush(self) -> None:
        """Do nothing: nothing was written."""

    def isatty(self) -> bool:
        """Say it is no terminal."""
        return False


class _NamedStdout:
    """Standard output whose write errors name it (a reader gone away passes unchanged).

    WHY: ``ape --json > /dev/full`` said "ERROR: no space left on device", naming no
    file: a print's ``OSError`` carries no file name, where ``--save -`` said
    "standard output: cannot write it: ..." (:mod:`robot_msgs.files`).
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text``; an error names standard output."""
        try:
            return self._stream.write(text)
        except OSError as err:
            _raise_named(err)

    def flush(self) -> None:
        """Flush; an error names standard output."""
        try:
            self._stream.flush()
        except OSError as err:
            _raise_named(err)

    def __getattr__(self, name: str) -> object:
        if name == "_stream":  # a copy made without __init__: no stream to forward to
            raise AttributeError(name)
        return getattr(self._stream, name)


def _raise_named(err: OSError) -> NoReturn:
    """Raise ``err`` naming standard output, or ``err`` itself where it passes as it is.

    A reader gone away passes (the boundary's silent 141), and so does an error that
    names its file already. WHY: a ``run_guarded`` inside another wraps the outer one's
    standard output; an ``EIO`` (a terminal hung up) said "standard output: cannot
    write it: standard output: cannot write it: Input/output error".
    """
    from robot_msgs.files import _named, _names_a_file  # noqa: PLC0415 - one wording

    if isinstance(err, BrokenPipeError) or _names_a_file(err):
        raise err
    raise _named(err, "standard output") from err


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the flush at exit does not fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # a test's StringIO has no descriptor
        pass


def _traceback_file(error: BaseException) -> str | None:
    """Write the traceback of ``error`` to a new file in the temporary folder; its path."""
    try:
        import tempfile  # noqa: PLC0415 - only for a bug: random, shutil on every command
        import traceback  # noqa: PLC0415 - only for a bug: linecache, tokenize, textwrap

        fd, path = tempfile.mkstemp(prefix="robot-msgs-bug-", suffix=".txt")
        # WHY backslashreplace: an argument of bytes UTF-8 does not decode (a file name)
        # reaches argv as lone surrogates; writing them raised UnicodeEncodeError, and
        # the bug's one line became two tracebacks
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(f"robot-msgs {' '.join(sys.argv[1:])}\n")
            traceback.print_exception(error, file=handle)
    except OSError:
        return None
    return path


def _bug(error: BaseException, *, debug: bool) -> int:
    from robot_msgs._version import __version__  # noqa: PLC0415

    what = f"{type(error).__name__}: {error}"
    if debug:
        import traceback  # noqa: PLC0415 - only for a bug

        traceback.print_exception(error, file=sys.stderr)
        say(f"ERROR: a bug in robot_msgs {__version__} ({what}); please report it")
        return EXIT_BUG
    where = _traceback_file(error)
    kept = f"the traceback is in {where}" if where else "the traceback could not be written"
    say(
        f"ERROR: a bug in robot_msgs {__version__} ({what}); {kept}; please report it "
        "(robot-msgs --debug ... prints it)"
    )
    return EXIT_BUG


def run_guarded(
    command: Callable[[], int],
    *,
    debug: bool = False,
    wording: Callable[[BaseException], str] = str,
    ending: bool = False,
) -> int:
    """Run ``command`` inside the boundary (see the module); return its exit status.

    ``wording`` says a known error in the command line's words (the library names
    fields and arguments; the command line, its flags).

    SIGTERM is turned into :class:`Terminated` while the command runs (in the main
    thread only; the previous handler is put back after).

    ``ending``: the process exits with the status returned (``robot-msgs`` itself, not
    a caller in this process). Once the command is over, a SIGINT or SIGTERM ends the
    process at once with its status, and one in the interpreter's last teardown is
    ignored. WHY: a second Ctrl-C (or SIGTERM) 0.02-0.3 s after the first came after
    the ``ERROR: interrupted`` line, while the interpreter shut down: Python puts the
    default action back before it frees its modules, and the process died by the
    signal (status -2 or -15 to its parent, not 130 or 143) in 7 of 12 ``bench`` and
    10 of 20 ``report`` tries; in ``atexit`` a Ctrl-C was a traceback.
    """
    if not ending or threading.current_thread() is not threading.main_thread():
        return _guarded(command, debug=debug, wording=wording, ending=False)
    _ignore_stops_at_exit()
    code = _guarded(command, debug=debug, wording=wording, ending=True)
    # WHY: CPython (3.8 on; -2 seen on 3.10 to 3.13) marks a KeyboardInterrupt that
    # left code run by exec or eval of a string (a dataclass's generated __init__, made
    # as a module is imported) as unhandled, even once caught, and under `python -m
    # robot_msgs` then ends the process by SIGINT (-2) after the status 130 was decided:
    # 1 in about 30 Ctrl-Cs of `report`. Each exec of a string clears that mark first
    # (Python/pythonrun.c, run_eval_code_obj; checked in Modules/main.c, Py_RunMain).
    exec("", {})  # noqa: S102 - a constant empty string
    for signum in _STOPS:
        signal.signal(signum, functools.partial(_end_now, code))
    return code


def _guarded(
    command: Callable[[], int],
    *,
    debug: bool,
    wording: Callable[[BaseException], str],
    ending: bool,
) -> int:
    """Run ``command`` as :func:`run_guarded` says; ``ending``: leave SIGINT, SIGTERM ignored."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous: Any = signal.getsignal(signal.SIGTERM)
    stdout: TextIO | None = sys.stdout
    # started with standard output closed (>&-), or one whose write errors name it.
    # WHY only when not yet there, and put back only if still ours: two threads running
    # commands at once (a library user's main() in threads) each wrapped and put back
    # what it found, and the later one put back the other's wrapper for good.
    ours: _ClosedStdout | _NamedStdout | None = None
    if not isinstance(stdout, (_ClosedStdout, _NamedStdout)):
        ours = _ClosedStdout() if stdout is None else _NamedStdout(stdout)
        sys.stdout = ours
    try:
        # Set inside the try: a signal in the bytecodes between setting it and the try
        # (the moment a child shows its handler) was a traceback, not one line.
        if main_thread:
            signal.signal(signal.SIGTERM, _on_sigterm)
        code = command()
        if sys.stdout is not None:
            sys.stdout.flush()  # a reader that went away shows here, not at exit
    except (KeyboardInterrupt, Terminated) as err:
        return _stopped(err, ending=ending)
    except BrokenPipeError as err:
        if err.strerror is None:  # named by robot_msgs.files: a FIFO output, not stdout
            say(f"ERROR: {err}")
            return EXIT_ERROR
        _silence_stdout()
        return EXIT_PIPE
    except (RobotMsgsError, OSError) as err:
        say(f"ERROR: {wording(err)}")
        return EXIT_USAGE if isinstance(err, UsageError) else EXIT_ERROR
    except MemoryError:
        say(
            "ERROR: out of memory: the input is larger than this machine can hold "
            "(the bounds on inputs are raised with robot-msgs --max-bytes SIZE)"
        )
        return EXIT_ERROR
    except Exception as err:  # noqa: BLE001 - the boundary: anything else is a bug
        stop = _stop_cause(err)
        return _bug(err, debug=debug) if stop is None else _stopped(stop, ending=ending)
    finally:
        if ours is not None and sys.stdout is ours:
            sys.stdout = stdout
        if ending:
            _ignore_stops()  # until run_guarded, knowing the status, ends on a signal
        elif main_thread:
            signal.signal(signal.SIGTERM, previous)
    return code
