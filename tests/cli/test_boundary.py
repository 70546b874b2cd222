"""The command line's boundary: one escaped line and an exit status for whatever ends a command.

In this process for exceptions (a bug, no memory, Ctrl-C, SIGTERM); in a child process
for what only a real process shows: SIGINT and SIGTERM during ``traj --save`` of a large
file, a reader of standard output that goes away, standard output closed. And the
command line's own mistake that argparse let pass: a flag of one value given twice.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import errno
import io
import itertools
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import robot_msgs
from robot_msgs.cli import _subparser, build_parser, main
from robot_msgs.cli._boundary import Terminated, _NamedStdout, escape, run_guarded
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import UsageError, ValidationError
from robot_msgs.files import STDOUT, write_atomic
from tests.terminal import Terminal

if TYPE_CHECKING:
    from collections.abc import Callable

CLEAN = "# t x y z qx qy qz qw\n0 0 0 0 0 0 0 1\n0.5 3 4 0 0 0 0 1\n1.0 3 4 1 0 0 0 1\n"


def _fail_with(monkeypatch: pytest.MonkeyPatch, action: Callable[[], object]) -> None:
    """Make ``traj``'s run do ``action`` (raise something) instead of its work."""
    from robot_msgs.cli import traj

    def run(args: object) -> int:
        del args
        action()
        return 0

    monkeypatch.setattr(traj, "run", run)


def _raise(error: BaseException) -> Callable[[], object]:
    def action() -> object:
        raise error

    return action


def test_an_unexpected_exception_is_a_bug_named_with_its_traceback_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    _fail_with(monkeypatch, _raise(TypeError("unsupported operand")))
    assert main(["traj", "x.tum"]) == 70
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = err.splitlines()
    match = re.fullmatch(
        r"ERROR: a bug in robot_msgs \S+ \(TypeError: unsupported operand\); the traceback is in "
        r"(\S+); please report it \(robot-msgs --debug \.\.\. prints it\)",
        line,
    )
    assert match is not None, line
    kept = Path(match.group(1))
    assert kept.parent == tmp_path
    text = kept.read_text()
    assert "Traceback (most recent call last)" in text
    assert "TypeError: unsupported operand" in text


def test_a_bug_under_an_argument_of_undecodable_bytes_keeps_its_traceback_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``traj --save-topic $'/a\\xff'`` reached a bug in rosbags' writer; writing the argv
    (``'/a\\udcff'``, Python's surrogate escape of the byte) into the traceback file raised
    UnicodeEncodeError, and two tracebacks were printed instead of the one line."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    monkeypatch.setattr(sys, "argv", ["robot-msgs", "traj", "x.tum", "--save-topic", "/a\udcff"])
    _fail_with(monkeypatch, _raise(UnicodeEncodeError("utf-8", "/a\udcff", 2, 3, "surrogates")))
    assert main(["traj", "x.tum", "--save-topic", "/a\udcff"]) == 70
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = err.splitlines()
    kept = Path(re.search(r"the traceback is in (\S+);", line).group(1))  # type: ignore[union-attr]
    text = kept.read_text(encoding="utf-8")
    assert text.startswith("robot-msgs traj x.tum --save-topic /a\\udcff\n")
    assert "Traceback (most recent call last)" in text


def test_debug_prints_the_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fail_with(monkeypatch, _raise(KeyError("k")))
    assert main(["--debug", "traj", "x.tum"]) == 70
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last)")
    assert err.splitlines()[-1].startswith("ERROR: a bug in robot_msgs")


def _raised_from(stop: BaseException) -> RuntimeError:
    """The ``RuntimeError`` Python 3.11 raises from what a ``__set_name__`` raised."""
    error = RuntimeError("Error calling __set_name__ on 'Field' instance '_made' in 'Prepared'")
    error.__cause__ = stop
    return error


@pytest.mark.parametrize(
    ("error", "code", "line"),
    [
        (KeyboardInterrupt(), 130, "ERROR: interrupted (Ctrl-C); nothing was left half-written"),
        # Python 3.11 wraps a Ctrl-C in a class's __set_name__ (a dataclass made as a module
        # is imported): it was a bug, status 70
        (_raised_from(KeyboardInterrupt()), 130, "ERROR: interrupted (Ctrl-C); nothing was"),
        (_raised_from(Terminated()), 143, "ERROR: terminated (SIGTERM); nothing was left"),
        (MemoryError(), 1, "ERROR: out of memory: the input is larger than this machine can hold"),
        (RecursionError("deep"), 70, "ERROR: a bug in robot_msgs"),
        (UsageError("--dpi 0: expected 1 to 600, got 0"), 2, "ERROR: --dpi 0: expected 1 to"),
    ],
)
def test_each_kind_of_ending_is_one_line_and_its_status(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: BaseException,
    code: int,
    line: str,
) -> None:
    _fail_with(monkeypatch, _raise(error))
    assert main(["traj", "x.tum"]) == code
    (got,) = capsys.readouterr().err.splitlines()
    assert got.startswith(line)


def test_a_flags_value_the_library_refuses_is_a_usage_error_naming_the_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The library names the field; given by a flag, the command line's mistake: status 2,
    # as argparse's for a value of the wrong type (it was 1, as a bad file's).
    reason = "expected float > 0, got float -1.0"
    refused = ValidationError(
        "Expected float > 0, got float -1.0 - at `EvaluationSettings.max_diff_s`",
        field="EvaluationSettings.max_diff_s",
        reason=reason,
    )
    _fail_with(monkeypatch, _raise(refused))
    assert main(["traj", "x.tum", "--max-diff", "-1"]) == 2
    assert capsys.readouterr().err == f"ERROR: --max-diff -1: {reason}\n"
    assert main(["traj", "x.tum"]) == 1  # no flag gave it (a default, a manifest): as it was
    assert capsys.readouterr().err.startswith("ERROR: Expected float > 0")


def test_sigterm_in_any_command_is_143(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def terminate() -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # pragma: no cover - the signal ends the sleep

    before = signal.getsignal(signal.SIGTERM)
    _fail_with(monkeypatch, terminate)
    assert main(["traj", "x.tum"]) == 143
    assert capsys.readouterr().err == "ERROR: terminated (SIGTERM); nothing was left half-written\n"
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is put back


def test_sigterm_the_moment_its_handler_is_set_is_143_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SIGTERM right after the handler was set, before the guarded block, was a traceback.

    That is the moment a parent watching the child's handlers (below) signals it.
    """
    from robot_msgs.cli import _boundary

    setting = signal.signal

    def set_then_signalled(signum: int, handler: object) -> object:
        before = setting(signum, handler)  # type: ignore[arg-type]
        if handler is _boundary._on_sigterm:  # the handler under test
            os.kill(os.getpid(), signal.SIGTERM)
        return before

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(signal, "signal", set_then_signalled)
    _fail_with(monkeypatch, lambda: None)
    assert main(["traj", "x.tum"]) == 143
    assert capsys.readouterr().err == "ERROR: terminated (SIGTERM); nothing was left half-written\n"
    assert signal.getsignal(signal.SIGTERM) == before


def test_every_command_runs_inside_the_boundary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    for name in COMMANDS:
        module = importlib.import_module(f"robot_msgs.cli.{name}")
        monkeypatch.setattr(module, "run", lambda args: (_ for _ in ()).throw(KeyboardInterrupt))
        argv = {"docs": ["docs", "--out", "x"], "schema": ["schema", "std/Header"]}.get(
            name, [name, "a", "b"]
        )
        if name in ("report", "bench"):
            argv = [name, "a", *(["--out", "o"] if name == "bench" else [])]
        assert main(argv) == 130, name
        assert capsys.readouterr().err.startswith("ERROR: interrupted (Ctrl-C)"), name


def test_escape_shows_controls_and_direction_overrides() -> None:
    assert escape("a\nb\tc\x1b[2J\x7f") == "a\\x0ab\\x09c\\x1b[2J\\x7f"
    assert escape("evil\u202egnp.exe") == "evil\\u202egnp.exe"
    assert escape("x" * 5000).endswith("...")
    assert len(escape("x" * 5000)) == 2000
    assert escape("fr1_xyz ünïcödé") == "fr1_xyz ünïcödé"


def test_a_warning_is_escaped_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = tmp_path / "bad\nWARNING: forged.tum"
    name.write_text("0 0 0 0 0 0 0 1\n0 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 1\n")
    assert main(["ape", str(name), str(name)]) == 0  # warns on reading the repeated stamp
    err = capsys.readouterr().err
    assert all(line.startswith("WARNING: ") for line in err.splitlines()), err
    assert "bad\\x0aWARNING: forged.tum" in err


def test_a_file_name_on_standard_output_is_escaped_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ape's "estimate:" line and every "wrote FILE" printed a file name raw: an escape
    sequence in it (clear the screen, recolour) reached the terminal, and a newline forged
    a line of the result, where traj's summary and every error escape it."""
    rows = "0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n2 2 1 0 0 0 0 1\n"
    ref = tmp_path / "ref.tum"
    ref.write_text(rows)
    est = tmp_path / "e\x1b[2J\nrms forged.tum"
    est.write_text(rows)
    saved = tmp_path / "s\x1b[31m.tum"
    for argv in (
        ["ape", str(ref), str(est)],
        ["ape", str(ref), str(est), str(ref)],  # the table of several estimates
        ["rpe", str(ref), str(est)],
        ["ape", str(ref), str(est), "--save-aligned", str(saved), "--force"],
        ["traj", str(est), "--save", str(saved), "--force"],
    ):
        assert main(argv) == 0, argv
        out, err = capsys.readouterr()
        assert "\x1b" not in out + err, argv
        assert "\nrms forged" not in out + err, argv
        assert "e\\x1b[2J\\x0arms forged.tum" in out + err or "s\\x1b[31m.tum" in out, argv
    assert saved.exists()


# -- in a child process --------------------------------------------------------------------

ROBOT_MSGS = [sys.executable, "-m", "robot_msgs"]


@pytest.fixture(scope="module")
def large_tum(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 600,000-pose TUM file (46 MB): ``traj --save`` takes a few seconds on it."""
    n = 600_000
    t = np.arange(n) * 0.01
    rows = np.column_stack(
        [t, np.cumsum(np.ones((n, 3)) * 1e-3, axis=0), np.zeros((n, 3)), np.ones(n)]
    )
    path = tmp_path_factory.mktemp("large") / "large.tum"
    with path.open("w") as handle:
        for block in range(0, n, 100_000):
            handle.write(
                "\n".join(" ".join(map(repr, r)) for r in rows[block : block + 100_000].tolist())
            )
            handle.write("\n")
    return path


#: What a child shows of its work, from /proc (Linux): these tests wait on it, not a clock.
#: All three: without io (a kernel without I/O accounting) the wait spun 120 s, then
#: failed as if the command had ended early.
_PROC = all(Path("/proc/self", entry).exists() for entry in ("status", "io", "fd"))


def _at_work(process: subprocess.Popen[str], large_tum: Path, moment: str) -> None:
    """Wait until the child reaches ``moment`` of ``traj large.tum --save``; fail if it ends.

    ``started``: its SIGTERM handler is set, so the boundary answers a signal from here
    on; ``reading``: that, and it opened ``large_tum`` (or has read it: a poll may miss
    the open file); ``converting``: it read as many bytes as ``large_tum`` holds (its
    imports read a few MB, the file 46) and closed it. WHY not a sleep: 0.8 s was the
    moment to signal, and under the load of six helpers on two cores the child could be
    still starting, when a signal ends it with no line (-15) or a traceback (Ctrl-C).
    """
    size = large_tum.stat().st_size
    proc = Path(f"/proc/{process.pid}")
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        try:
            status = (proc / "status").read_text()
            caught = int(status.split("SigCgt:")[1].split()[0], 16)
            io = (proc / "io").read_text()
            read = int(io.split("rchar:")[1].split()[0])
            opened = any(
                os.path.realpath(fd) == str(large_tum.resolve()) for fd in (proc / "fd").iterdir()
            )
        except (OSError, IndexError):  # it ended between two reads: poll() says so
            pass  # (a `continue` skipped the sleep: a spin on a core of two, 120 s)
        else:
            started = bool(caught & 1 << (signal.SIGTERM - 1))
            reached = {
                "started": started,
                "reading": started and (opened or read >= size),
                "converting": started and not opened and read >= size,
            }
            if reached[moment]:
                return
        time.sleep(0.001)
    assert process.poll() is None, f"the command ended before the signal ({moment})"
    process.kill()  # not left converting 46 MB beside the next test
    process.communicate()
    pytest.fail(f"the command did not reach {moment} in 120 s")  # pragma: no cover


@pytest.mark.slow
@pytest.mark.skipif(not _PROC, reason="waits on the child's /proc entries (Linux)")
@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [
        (signal.SIGINT, 130, "ERROR: interrupted (Ctrl-C); nothing was left half-written"),
        (signal.SIGTERM, 143, "ERROR: terminated (SIGTERM); nothing was left half-written"),
    ],
)
def test_a_signal_during_traj_save_is_one_line_its_status_and_nothing_left(
    large_tum: Path, tmp_path: Path, signum: int, code: int, line: str
) -> None:
    out = tmp_path / "out.tum"
    for moment in ("started", "reading", "converting"):
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and module
            [*ROBOT_MSGS, "traj", str(large_tum), "--save", str(out), "--force"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _at_work(process, large_tum, moment)
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)
        assert process.returncode == code, (moment, err)
        assert err == line + "\n", moment
        assert list(tmp_path.iterdir()) == []  # no output, no temporary file


#: A child that runs ``robot-msgs traj x.tum`` as the program, whose command is ended by
#: a signal (argv[1]) and gets a second one at a moment of the process's exit (argv[2]):
#: in an exit function, or as a module is freed after Python took its handlers away.
_SIGNALLED_TWICE = """
import atexit, os, sys, time
from robot_msgs.cli import main, traj

signum, moment = int(sys.argv.pop(1)), sys.argv.pop(1)


class Freed:
    def __del__(self, kill=os.kill, pid=os.getpid(), signum=signum):
        kill(pid, signum)


def run(args):
    if moment == "atexit":  # registered after the boundary's exit function: run before it
        atexit.register(os.kill, os.getpid(), signum)
    else:
        traj.freed_last = Freed()
    os.kill(os.getpid(), signum)
    time.sleep(5)


traj.run = run
sys.exit(main())
"""


@pytest.mark.parametrize("moment", ["atexit", "teardown"])
@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [
        (signal.SIGINT, 130, "ERROR: interrupted (Ctrl-C); nothing was left half-written"),
        (signal.SIGTERM, 143, "ERROR: terminated (SIGTERM); nothing was left half-written"),
    ],
)
def test_a_second_signal_while_the_process_exits_keeps_its_status_and_one_line(
    signum: int, code: int, line: str, moment: str
) -> None:
    """A second Ctrl-C 0.02-0.3 s after the first killed ``bench`` by SIGINT (-2, not 130).

    It came after the ``ERROR:`` line, as the interpreter shut down: Python had put the
    default action back, or it was a traceback in an exit function (SIGTERM: -15).
    """
    child = subprocess.run(  # noqa: S603 - our own interpreter and package
        [sys.executable, "-c", _SIGNALLED_TWICE, str(int(signum)), moment, "traj", "x.tum"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (child.returncode, child.stderr) == (code, line + "\n")


def _traj_run_as_python_m(
    tmp_path: Path, name: str, patch: str
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m NAME traj x.tum``, a package whose ``patch`` replaces ``traj.run``.

    Standard output is left buffered (no ``PYTHONUNBUFFERED``), as in a user's pipe.
    """
    package = tmp_path / name
    package.mkdir()
    main_text = f"import sys\nfrom robot_msgs.cli import main, traj\n{patch}sys.exit(main())\n"
    (package / "__main__.py").write_text(main_text)
    src = str(Path(robot_msgs.__file__).resolve().parents[1])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run(  # noqa: S603 - our own interpreter and package
        [sys.executable, "-m", name, "traj", "x.tum"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**env, "PYTHONPATH": os.pathsep.join([str(tmp_path), src])},
    )


def test_ctrl_c_inside_generated_code_is_130_under_python_m_too(tmp_path: Path) -> None:
    """Ctrl-C in code made by exec of a string (a dataclass's __init__) ended as -2.

    CPython marks such a KeyboardInterrupt as unhandled even once caught, and ``python -m``
    then ends the process by SIGINT after the status 130: 1 in about 30 Ctrl-Cs of
    ``python -m robot_msgs report``, where the command line ``robot-msgs`` (a script)
    exits 130.
    """
    child = _traj_run_as_python_m(
        tmp_path, "ctrl_c_in_exec", "traj.run = lambda args: exec('raise KeyboardInterrupt')\n"
    )
    said = "ERROR: interrupted (Ctrl-C); nothing was left half-written\n"
    assert (child.returncode, child.stderr) == (130, said)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_as_python_m_exits_keeps_what_the_command_printed(
    tmp_path: Path, signum: int
) -> None:
    """A signal after a command's error lost the results it had printed before it (status 1).

    Standard output in a pipe is written in blocks, ``python -m`` writes the last one as
    the interpreter shuts down, and the boundary's handler ended the process before that.
    """
    child = _traj_run_as_python_m(
        tmp_path,
        "printed_then_signalled",
        "import atexit, os\n"
        "from robot_msgs.errors import RobotMsgsError\n"
        "def run(args):\n"
        "    print('ATE 0.01')\n"
        f"    atexit.register(os.kill, os.getpid(), {int(signum)})\n"
        "    raise RobotMsgsError('x.tum: later, a plot could not be written')\n"
        "traj.run = run\n",
    )
    said = "ERROR: x.tum: later, a plot could not be written\n"
    assert (child.returncode, child.stdout, child.stderr) == (1, "ATE 0.01\n", said)


def test_main_as_the_program_called_again_registers_its_exit_function_once() -> None:
    """A program calling ``main()`` in a loop registered one more exit function per call."""
    script = (
        "import atexit, sys\n"
        "from robot_msgs.cli import main, traj\n"
        "traj.run = lambda args: 0\n"
        "sys.argv = ['robot-msgs', 'traj', 'x.tum']\n"
        "main()\n"
        "once = atexit._ncallbacks()\n"
        "for _ in range(5):\n"
        "    main()\n"
        "print(atexit._ncallbacks() - once)\n"
    )
    child = subprocess.run(  # noqa: S603 - our own interpreter and package
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (child.returncode, child.stdout, child.stderr) == (0, "0\n", "")


@pytest.mark.slow
def test_a_reader_that_goes_away_ends_the_command_silently_with_141(large_tum: Path) -> None:
    line = (
        f'{" ".join(ROBOT_MSGS)} traj "{large_tum}" --save - --to tum | head -c 100 > /dev/null; '
        'echo "${PIPESTATUS[0]}" >&2'
    )
    shown = subprocess.run(  # noqa: S603 - our own command line, in bash for the pipe
        ["/bin/bash", "-c", line],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert shown.stderr.splitlines()[-1] == "141"
    assert shown.stderr.splitlines()[:-1] == []  # no ERROR line, no "Exception ignored"


def test_standard_output_closed_fails_the_first_write_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "a.tum"
    path.write_text(CLEAN)
    for args in (["traj", str(path)], ["traj", str(path), "--save", "-", "--to", "tum"]):
        shown = subprocess.run(  # noqa: S603 - our own command line, in bash for >&-
            ["/bin/bash", "-c", " ".join([*ROBOT_MSGS, *args]) + " >&-"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert shown.returncode == 1
        assert re.fullmatch(
            r"ERROR: (standard output: cannot write it: )?standard output is closed \(>&-\); "
            r"nothing can be written to it\n",
            shown.stderr,
        ), shown.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args", [["traj", "{path}"], ["traj", "{path}", "--json"], ["schema", "geometry/PoseStamped"]]
)
def test_a_full_standard_output_is_named_in_the_one_error_line(
    args: list[str], tmp_path: Path
) -> None:
    """`traj a.tum > /dev/full` said "ERROR: no space left on device", naming no file."""
    path = tmp_path / "a.tum"
    path.write_text(CLEAN)
    shown = subprocess.run(  # noqa: S603 - our own command line, in bash for > /dev/full
        [
            "/bin/bash",
            "-c",
            " ".join([*ROBOT_MSGS, *(a.format(path=path) for a in args)]) + " > /dev/full",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 1
    assert shown.stderr == (
        "ERROR: standard output: cannot write it: no space left on the device\n"
    )


class _HungUp(io.RawIOBase):
    """A terminal whose session is gone: a write fails with EIO, which files has no words for."""

    def __init__(self) -> None:
        super().__init__()
        self.gone = True

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        if self.gone:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return len(memoryview(data))  # type: ignore[arg-type]


def _print_then_save() -> object:
    sys.stdout.write("printed first\n")  # held in the text layer until the flush before the bytes
    return write_atomic(STDOUT, b"saved")


def _nested() -> object:
    def inner() -> int:
        sys.stdout.write("x" * 100_000)  # past the buffer: the write fails inside the inner command
        return 0

    return run_guarded(inner)


@pytest.mark.parametrize("action", [_print_then_save, _nested], ids=["save-stdout", "nested"])
def test_standard_output_is_named_once_in_the_error_line(
    action: Callable[[], object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hung-up standard output said "standard output: cannot write it: standard output: ..."."""
    _fail_with(monkeypatch, action)
    raw = _HungUp()
    hung_up = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8")
    said = io.StringIO()
    monkeypatch.setattr(sys, "stdout", hung_up)
    monkeypatch.setattr(sys, "stderr", said)
    main(["traj", "x.tum"])
    raw.gone = False  # closed without an error at its collection
    hung_up.close()
    assert said.getvalue().splitlines()[0] == (
        "ERROR: standard output: cannot write it: Input/output error"
    )


def test_max_bytes_raises_the_bound_for_one_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.hostile import add_zero_bomb, evo_zip

    path = add_zero_bomb(evo_zip(tmp_path / "e.zip", without=("error_array",)), "x.npy", 3 << 20)
    with_entry = tmp_path / "e.zip"
    assert main(["--max-bytes", "2M", "res", str(with_entry)]) == 1
    assert "'x.npy'" not in capsys.readouterr().err  # unknown entries are never read
    add_zero_bomb(path, "error_array.npy", 3 << 20)
    assert main(["--max-bytes", "2M", "res", str(with_entry)]) == 1
    err = capsys.readouterr().err
    assert "'error_array.npy': declares 3145728 bytes, past the bound of 2097152 bytes" in err
    # Said with the flag (the library names input_limits(max_bytes=...), a call's words).
    assert err.rstrip().endswith("raise the bound (`robot-msgs --max-bytes SIZE`)")
    assert main(["--max-bytes", "8M", "res", str(with_entry)]) == 1  # read, then not a .npy
    assert "error_array.npy: not a NumPy .npy array" in capsys.readouterr().err
    with pytest.raises(SystemExit, match=r"^2$"):  # argparse: not a size
        main(["--max-bytes", "0", "res", str(with_entry)])
    assert "expected a size such as 512M or 4G" in capsys.readouterr().err


def _positionals(parser: argparse.ArgumentParser) -> list[str]:
    """Words that fill ``parser``'s positional arguments (one for each that takes any)."""
    return [
        f"p{k}.txt"
        for k, action in enumerate(parser._actions)
        if not action.option_strings and action.nargs not in ("*", "?")
    ]


def _two_values(action: argparse.Action) -> tuple[list[str], list[str]]:
    """Two values ``action`` takes that it stores as two different values."""
    count = action.nargs if isinstance(action.nargs, int) else 1
    if action.choices is not None:
        first, second = [str(c) for c in list(action.choices)[:2]]
        return [first] * count, [second] * count
    return [str(k + 1) for k in range(count)], [str(k + 2) for k in range(count)]


def _single_valued(command: str) -> list[tuple[str, argparse.Action]]:
    """Every flag of ``command`` that takes a value and is not meant to be repeated."""
    sub = _subparser(build_parser(command), command)
    return [
        (command, action)
        for action in sub._actions
        if action.option_strings
        and action.nargs != 0
        and not isinstance(action, argparse._AppendAction)
    ]


FLAGS_OF_ONE_VALUE = [case for command in COMMANDS for case in _single_valued(command)]


@pytest.mark.parametrize(
    ("command", "action"),
    FLAGS_OF_ONE_VALUE,
    ids=[f"{c} {a.option_strings[0]}" for c, a in FLAGS_OF_ONE_VALUE],
)
def test_a_flag_of_one_value_given_twice_with_two_values_is_refused_naming_both(
    command: str,
    action: argparse.Action,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # were it taken, nothing is written beside the sources
    flag = action.option_strings[0]
    first, second = _two_values(action)
    words = [*_positionals(_subparser(build_parser(command), command)), flag, *first, flag, *second]
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, *words])
    err = capsys.readouterr().err
    assert err.startswith(f"usage: robot-msgs {command} ")
    names = "/".join(action.option_strings)
    values = f"({' '.join(first)}, {' '.join(second)})"
    said = f"ERROR: robot-msgs {command}: {names} given twice {values}; give it once"
    assert err.strip().splitlines()[-1].startswith(said)


def test_a_long_warning_is_folded_on_a_terminal_and_one_line_in_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 150-character warning ran off an 80-column terminal; a log keeps it on one line."""
    folder = tmp_path / ("a_folder_with_a_rather_long_name_" * 3)
    folder.mkdir()
    est = folder / "estimate.tum"
    rows = [f"{t}.0 {t} 0 0 0 0 0 1" for t in range(10)]
    rows[4] = "4.0 nan 0 0 0 0 0 1"
    est.write_text("\n".join(rows) + "\n", encoding="utf-8")
    ref = tmp_path / "reference.tum"
    ref.write_text("\n".join(f"{t}.0 {t} 0 0 0 0 0 1" for t in range(10)) + "\n")
    assert main(["ape", str(ref), str(est)]) == 0
    (line,) = [x for x in capsys.readouterr().err.splitlines() if x.startswith("WARNING")]
    assert len(line) > 100
    assert str(est) in line
    # Another file: Python shows a warning of the same text once.
    est = est.rename(folder / "estimate_again.tum")
    line = line.replace("estimate.tum", "estimate_again.tum")
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["ape", str(ref), str(est)]) == 0
    shown = terminal.getvalue().splitlines()
    start = next(k for k, x in enumerate(shown) if x.startswith("WARNING:"))
    folded = [shown[start]]
    for x in shown[start + 1 :]:
        if not x.startswith(" " * 9):
            break
        folded.append(x)
    assert len(folded) > 1
    # every line fits but a word wider than a line (the path stands alone on its own)
    assert all(len(x) <= 80 or str(est) in x for x in folded)
    assert " ".join(x.strip() for x in folded) == line


def test_an_error_line_is_folded_on_a_terminal_and_one_line_in_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Warnings were folded on a terminal, ``ERROR:`` lines never: the association's
    no-pair error ran 515 columns off an 80-column terminal."""
    ref = tmp_path / "reference.tum"
    ref.write_text("".join(f"{t + 1000}.0 {t} 0 0 0 0 0 1\n" for t in range(10)))
    est = tmp_path / "estimate.tum"
    est.write_text("".join(f"{t}.0 {t} 0 0 0 0 0 1\n" for t in range(10)))
    assert main(["ape", str(ref), str(est)]) == 1
    (line,) = capsys.readouterr().err.splitlines()  # in a pipe: one line, for grep
    assert line.startswith(f"ERROR: {est}: No pose pairs found")
    assert len(line) > 200
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["ape", str(ref), str(est)]) == 1
    shown = terminal.getvalue().splitlines()
    assert len(shown) > 3
    assert all(len(x) <= 80 or str(ref) in x or str(est) in x for x in shown)
    assert all(x.startswith(" " * 7) for x in shown[1:])  # under the text, past "ERROR: "
    assert " ".join(x.strip() for x in shown) == line


def test_a_usage_error_is_folded_on_a_terminal_and_one_line_in_a_pipe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ERROR:`` lines were folded on a terminal, argparse's ``error:`` lines never: the
    answer to evo's ``-d 1 -u m -r angle_deg`` ran 98 columns, cut mid-word by an
    80-column terminal. A usage error is an ``ERROR:`` line too, folded as they are."""
    argv = ["rpe", "a.tum", "b.tum", "-d", "1", "-u", "m", "-r", "angle_deg"]
    line = (
        "ERROR: robot-msgs rpe: -d -u -r are evo's; here: --delta 1 --delta-unit m "
        "--relation angle_deg"
    )
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(argv)
    assert capsys.readouterr().err.splitlines()[-1] == line  # in a pipe: one line, for grep
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(argv)
    shown = terminal.getvalue().splitlines()
    start = next(k for k, x in enumerate(shown) if x.startswith("ERROR: robot-msgs rpe: "))
    assert shown[start:] == [
        "ERROR: robot-msgs rpe: -d -u -r are evo's; here: --delta 1 --delta-unit m",
        "       --relation angle_deg",
    ]


def test_no_command_lists_the_commands_within_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``robot-msgs`` alone said only "the following arguments are required: COMMAND" (a
    newcomer's walk): the commands ``--help`` lists are shown, one line each, exit 2."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match=r"^2$"):
        main([])
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    listed = [line.split()[0] for line in lines if re.match(r"  \S", line)]
    assert listed == list(COMMANDS)
    assert lines[-1] == "ERROR: robot-msgs: the following arguments are required: COMMAND"
    assert [line for line in lines if line.startswith("ERROR")] == lines[-1:]


@pytest.mark.parametrize(
    ("argv", "missing"),
    [
        (["ape", "ref.tum"], "EST is missing"),
        (["rpe", "ref.tum", "--delta", "1"], "EST is missing"),
        (["drift", "ref.tum"], "EST is missing"),
        (["doctor"], "REF and EST are missing"),
        (["ape"], "REF and EST are missing"),
    ],
)
def test_a_missing_ref_or_est_is_said_what_it_is(
    argv: list[str], missing: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape REF`` alone said only "the following arguments are required: EST" (a
    newcomer's walk), not what EST is."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(argv)
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if line.startswith("ERROR")] == lines[-1:]
    assert lines[-1] == (
        f"ERROR: robot-msgs {argv[0]}: needs two trajectories: REF (the reference) then "
        f"EST (the estimate); {missing}"
    )


@pytest.mark.parametrize("letters", range(50))
def test_a_folded_line_keeps_a_count_with_its_noun_and_a_flag_with_its_value(
    letters: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """V1_02's reading warning (the evo data) ended an 80-column line with "12 of 16702"
    and began the next with "quaternion(s)"; KITTI 00's with "4541 of 4541" / "rotation";
    an ERROR line could end with "--ref" and give its value on the next, which pasted
    runs without it. Folded as the doctor folds (a count with its noun, a flag with its
    value), joined back it is the one line a pipe shows."""
    from robot_msgs.cli._boundary import folded

    monkeypatch.setenv("COLUMNS", "80")
    line = (
        f"WARNING: /data/{'v' * letters}.csv: 12 of 16702 quaternion(s) not unit: normalised"
        " (max norm deviation 0.00015 at line 6071); results differ from tools that use the "
        "rows as given (evo; here --kitti-rotations as_given) by about as much"
    )
    shown = folded(line, Terminal()).splitlines()
    assert len(shown) > 1
    assert all(len(x) <= 80 for x in shown)
    assert not any(x.endswith((" 16702", " 12", "--kitti-rotations")) for x in shown), shown
    assert " ".join(x.strip() for x in shown) == line


@pytest.mark.parametrize("descriptor", [None, "2", 1.5, 2**31, 2**70, -1])
def test_a_stand_in_stderr_with_an_odd_descriptor_is_folded_to_80_columns(
    descriptor: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """terminal_width asks the stream's own descriptor: a stand-in stderr (a tty to
    isatty) whose fileno() gave None, a string or a number past a C int raised a
    TypeError or an OverflowError out of say(), past its OSError/ValueError guard, where
    shutil's fallback had given 80. With no descriptor to ask it is 80 again."""
    from robot_msgs.cli._boundary import say, terminal_width

    class StandIn(Terminal):
        def fileno(self) -> Any:
            return descriptor

    monkeypatch.delenv("COLUMNS", raising=False)
    assert terminal_width(StandIn()) == 80
    stand_in = StandIn()
    monkeypatch.setattr("sys.stderr", stand_in)
    say("WARNING: " + " ".join(["word"] * 20))
    shown = stand_in.getvalue().splitlines()
    assert len(shown) == 2
    assert max(map(len, shown)) <= 80


def test_stderr_is_folded_to_its_own_terminals_width_when_stdout_is_not_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape ... --json > r.json`` on a 60-column terminal folded its NOTE line and an
    error's usage to 80 columns: the width was standard output's terminal's, a file, so
    the fallback. Standard error's own terminal is asked; COLUMNS still comes first."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))

    class Sixty(Terminal):
        def fileno(self) -> int:
            return follower

    try:
        monkeypatch.delenv("COLUMNS", raising=False)
        argv = ["ape", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]
        for said in ([*argv, "--align", "se3", "--json"], [*argv, "--algin", "se3"]):
            terminal = Sixty()
            monkeypatch.setattr("sys.stderr", terminal)
            with contextlib.suppress(SystemExit):
                main(said)
            shown = terminal.getvalue().splitlines()
            assert len(shown) > 1
            assert all(len(line) <= 60 for line in shown), shown
        monkeypatch.setenv("COLUMNS", "100")
        terminal = Sixty()
        monkeypatch.setattr("sys.stderr", terminal)
        assert main([*argv, "--align", "se3", "--json"]) == 0
        assert max(map(len, terminal.getvalue().splitlines())) > 80
    finally:
        os.close(leader)
        os.close(follower)
    capsys.readouterr()


def test_an_input_typed_after_flags_is_said_to_be_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape REF EST --align se3 EST2`` was told ``unrecognized arguments: EST2``, a file it
    takes: argparse takes the inputs in one run. A word that is no input stays as it was."""
    monkeypatch.chdir(tmp_path)
    for name in ("ref.tum", "a.tum", "b.tum"):
        (tmp_path / name).write_text("0 0 0 0 0 0 0 1\n", encoding="utf-8")
    cases = {
        ("ape", "ref.tum", "a.tum", "--align", "se3", "b.tum"): (
            "unrecognized arguments: b.tum: an input apart from the others, after flags; "
            "give the inputs together, all before or all after the flags"
        ),
        ("traj", "a.tum", "--check", "ref.tum", "b.tum"): (
            "unrecognized arguments: ref.tum b.tum: inputs apart from the others, after "
            "flags; give the inputs together, all before or all after the flags"
        ),
        ("ape", "ref.tum", "a.tum", "--align", "se3", "se3"): "unrecognized arguments: se3",
        # drift takes one estimate: said so, and how several are compared (an rpg user
        # comparing estimators typed `drift REF A B`, as `ape REF A B` takes them)
        ("drift", "ref.tum", "a.tum", "--align", "se3", "b.tum"): (
            "unrecognized arguments: b.tum: drift takes one EST; run it once per estimate "
            "with --save FILE, then robot-msgs res FILE... compares them"
        ),
        ("drift", "ref.tum", "a.tum", "b.tum", "--protocol", "rpg"): (
            "unrecognized arguments: b.tum: drift takes one EST; run it once per estimate "
            "with --save FILE, then robot-msgs res FILE... compares them"
        ),
        ("doctor", "ref.tum", "a.tum", "b.tum"): (
            "unrecognized arguments: b.tum: doctor takes one EST; run it once per estimate"
        ),
        ("drift", "ref.tum", "a.tum", "b.tum", "nothing.tum"): "unrecognized arguments: "
        "b.tum nothing.tum",  # a word that is no input: as it was
    }
    for argv, said in cases.items():
        with pytest.raises(SystemExit, match=r"^2$"):
            main(list(argv))
        last = capsys.readouterr().err.splitlines()[-1]
        assert last == f"ERROR: robot-msgs {argv[0]}: {said}"


def test_a_misspelt_flag_is_answered_with_the_close_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ape R E --algin se3`` was told "unrecognized arguments: --algin se3" and no more,
    where a misspelt command (``aep``) and a misspelt ``--relation`` are answered with
    the close names (a newcomer's review). A word close to none stays as it was."""
    ref = "example:fr1_xyz/groundtruth.tum"
    cases = {
        ("ape", ref, ref, "--algin", "se3"): (
            "unrecognized arguments: --algin se3; did you mean --align, --n-align?"
        ),
        ("rpe", ref, ref, "--dleta", "1"): (
            "unrecognized arguments: --dleta 1; did you mean --delta?"
        ),
        ("traj", ref, "--chek"): "unrecognized arguments: --chek; did you mean --check?",
        ("traj", ref, "--chek", "--jsno"): (
            "unrecognized arguments: --chek --jsno; --chek: did you mean --check?; "
            "--jsno: did you mean --json?"
        ),
        ("ape", ref, ref, "--bogus"): "unrecognized arguments: --bogus",
    }
    for argv, said in cases.items():
        with pytest.raises(SystemExit, match=r"^2$"):
            main(list(argv))
        last = capsys.readouterr().err.splitlines()[-1]
        assert last == f"ERROR: robot-msgs {argv[0]}: {said}"


def test_an_abbreviation_of_another_commands_flag_is_said_to_be_its(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ape R E --all-pair``, argparse's abbreviation of rpe's ``--all-pairs`` (rpe takes
    it), was asked "did you mean --spatial-pairs?", another idea: the close flags are
    ``ape``'s own. It is said as ``--all-pairs`` is, whose flag it is; a prefix that
    another command would refuse as ambiguous (``--delt``: rpe's --delta, --delta-unit)
    stays unrecognized."""
    ref = "example:fr1_xyz/groundtruth.tum"
    cases = {
        ("ape", ref, ref, "--all-pair"): "--all-pair is rpe's --all-pairs, not ape's",
        ("ape", ref, ref, "--all-pairs"): "--all-pairs is rpe's, not ape's",
        ("ape", ref, ref, "--top", "/gt"): (
            "--top is traj's --topic; here: --ref-topic and --est-topic"
        ),
        ("res", ref, "--qui"): (
            "--qui (--quiet) is a flag of ape, rpe, drift, report and bench, not of res"
        ),
        ("ape", ref, ref, "--delt", "1"): "unrecognized arguments: --delt 1",
    }
    for argv, said in cases.items():
        with pytest.raises(SystemExit, match=r"^2$"):
            main(list(argv))
        last = capsys.readouterr().err.splitlines()[-1]
        assert last == f"ERROR: robot-msgs {argv[0]}: {said}"


@pytest.mark.parametrize("command", ["res", "traj", "ape"])
def test_no_errno_code_in_an_error_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`res adir` said "ERROR: [Errno 21] adir: is a directory"; ape said it plainly."""
    folder = tmp_path / "adir"
    folder.mkdir()
    argv = [command, str(folder)] + ([str(folder)] if command == "ape" else [])
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Errno" not in err
    assert f"ERROR: {folder}: is a directory" in err


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_help_fits_80_columns(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group titles of 82-83 characters, `--format {...}, --fmt {...}` of 89, --align's usage."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"] if command else ["--help"])
    out = capsys.readouterr().out
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert wide == []
    # argparse's own metavar, the destination in capitals (--ref-times REF_TIMES where
    # every other flag says FILE or TOPIC, a review): each flag names what it takes
    assert re.findall(r"--[a-z-]+ [A-Z]+_[A-Z_]+\b", out) == []
    # ... and argparse's own of one word: report's --csv CSV, --html HTML, traj's --times
    # TIMES, bench's --workers WORKERS, where res's --csv and ape's --ref-times say FILE.
    # (the flag's own name, where that is what it takes: --format FORMAT, --ref REF)
    named = {"FORMAT", "OUT", "REF", "RELATION", "TOPIC"}
    own = [
        m
        for m in re.findall(r"(--[a-z-]+) ([A-Z]+)\b", out)
        if m[1] == m[0][2:].upper() and m[1] not in named
    ]
    assert own == []


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_no_help_breaks_a_word_at_its_hyphen(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80 columns ``rpe --help`` showed its example as ``Example: robot-`` and ``msgs
    rpe REF EST ...`` on the next line; ``--strict`` said ``non-`` / ``unit`` (a review)."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"] if command else ["--help"])
    lines = capsys.readouterr().out.splitlines()
    broken = [
        f"{line.strip()} / {after.strip()}"
        for line, after in itertools.pairwise(lines)
        if re.search(r"[A-Za-z]-$", line) and re.match(r"\s*[A-Za-z]", after)
    ]
    assert broken == []


@pytest.mark.parametrize(
    "command", ["", "ape", "rpe", "res", "doctor", "traj", "drift", "report", "bench"]
)
def test_the_example_of_a_help_pastes_as_one_command(
    command: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """At 80 columns ``ape --help`` ended a line on ``Example: robot-msgs`` and went on with
    ``ape example:fr1_xyz/...``: pasted, the shell ran ``robot-msgs`` alone (a review).
    The example's lines, joined as a shell joins ``\\`` lines, are the whole command;
    those on the shipped data run (bench's, which starts worker processes, is not run).

    ``robot-msgs --help`` showed no command to start with, nor ``example:NAME``, and
    ``traj``, ``drift``, ``report`` and ``bench`` no example (a newcomer's walk)."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)  # what an example writes lands here
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"] if command else ["--help"])
    out = capsys.readouterr().out
    start = out.index("Example: ") + len("Example: ")
    pasted = out[start:].split("\n\n", 1)[0].replace("\\\n", " ")
    assert "\n" not in pasted
    args = shlex.split(pasted)
    assert args[:2] == ["robot-msgs", command or "ape"]
    if command != "bench" and any(arg.startswith("example:") for arg in args):
        assert main(args[1:]) == 0


@pytest.mark.parametrize("command", ["ape", "rpe", "drift", "doctor"])
def test_a_flag_whose_absence_picks_something_says_what(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A newcomer's review of ``--help``: --ref-format, --est-format ("format of REF
    only"), --ref-topic, --est-topic and --to ("format of --save-aligned") did not say
    what is used without them (--format, else detected; the bag's one pose topic; the
    name's suffix), where every other flag of the kind says its default."""
    sub = _subparser(build_parser(command), command)
    flags = ["--ref-format", "--est-format", "--ref-topic", "--est-topic", "--to"]
    unsaid = [
        flag
        for action in sub._actions
        for flag in action.option_strings
        if flag in flags and "(default: " not in (action.help or "")
    ]
    assert unsaid == []
    assert {f for a in sub._actions for f in a.option_strings} >= set(flags) - (
        {"--to"} if command == "doctor" else set()
    )


@pytest.mark.parametrize(
    ("command", "relation", "other"),
    [("ape", "point_distance_error_ratio", "rpe"), ("rpe", "nees", "ape")],
)
def test_a_relation_of_the_other_command_is_said_to_be_its(
    command: str, relation: str, other: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape --relation point_distance_error_ratio`` (RPE's) was asked "did you mean
    point_distance?", another quantity; ``rpe --relation nees`` was refused unexplained."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, "a.tum", "b.tum", "--relation", relation])
    (said,) = [line for line in capsys.readouterr().err.splitlines() if "ERROR:" in line]
    assert said == (
        f"ERROR: robot-msgs {command}: argument --relation: invalid choice: '{relation}': "
        f"a relation of robot-msgs {other} only (robot-msgs {command} --help lists all "
        f"{32 if command == 'ape' else 20})"
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_every_positional_argument_is_described(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """report's RUN_OR_MANIFEST and bench's MANIFEST_OR_FOLDER stood alone under
    "positional arguments:", where ape's REF and EST, res's RESULT say what they take."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"])
    out = capsys.readouterr().out
    if "positional arguments:" not in out:  # docs takes none
        return
    section = out.split("positional arguments:\n", 1)[1].split("\n\n", 1)[0]
    for line in section.splitlines():
        if not line.startswith(" " * 4):  # a metavar's line: its help beside it
            assert len(line.split()) > 1, line


def test_a_value_not_among_many_choices_is_answered_with_the_close_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--relation angle`` was answered with all 32 relations on one 528-column line."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "a.tum", "b.tum", "--relation", "angle"])
    (said,) = [line for line in capsys.readouterr().err.splitlines() if "ERROR:" in line]
    assert said == (
        "ERROR: robot-msgs ape: argument --relation: invalid choice: 'angle'; did you mean "
        "angle_rad, angle_deg? (robot-msgs ape --help lists all 32)"
    )
    # A few choices are still all listed, as argparse lists them.
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "a.tum", "b.tum", "--sync", "foo"])
    assert "(choose from 'nearest', 'one-to-one'," in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "name", "what"),
    [
        (["docs", "--out", ""], "--out", "a folder"),
        (["bench", "runs.toml", "--out", ""], "--out", "a folder"),
        (["traj", "a.tum", "--save", ""], "--save", "a file"),
        (["ape", "a.tum", "b.tum", "--transform-left", ""], "--transform-left", "a file"),
        (["ape", "a.tum", "b.tum", "--transform-right", ""], "--transform-right", "a file"),
        (["res", "r.json", "--csv", ""], "--csv", "a file"),
        (["report", "runs.toml", "--json", ""], "--json", "a file"),
        (["traj", ""], "FILE", "a file"),
        (["traj", "a.tum", "--ref", ""], "--ref", "a file"),
        (["ape", "", "b.tum"], "REF", "a file"),
        (["res", ""], "RESULT", "a file"),
        (["report", ""], "RUN_OR_MANIFEST", "a run folder or manifest"),
    ],
)
def test_an_empty_path_is_refused_naming_its_argument(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    name: str,
    what: str,
) -> None:
    # Path("") is ".": `docs --out ""` (an unset $OUT) wrote every page into the current
    # folder, `report ""` reported the runs found there, `traj ""` said ': is a directory'.
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"ERROR: {name} '': an empty path names nothing; give the path of {what}\n"
    assert list(tmp_path.iterdir()) == []


def test_an_output_that_is_an_input_is_refused_even_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``res r.json --csv r.json --force`` replaced the saved result it was to read with
    CSV, and ``traj a.tum --save a.tum --force`` rewrote its input (a review): --force
    replaces old outputs, never an input."""
    est = tmp_path / "a.tum"
    est.write_bytes((files("robot_msgs") / "examples" / "fr1_xyz" / "rgbdslam.tum").read_bytes())
    result = tmp_path / "r.json"
    assert main(["ape", "example:fr1_xyz/groundtruth.tum", str(est), "--save", str(result)]) == 0
    before = {p: p.read_bytes() for p in (est, result)}
    link = tmp_path / "link.tum"
    link.symlink_to(est)
    capsys.readouterr()
    for argv, flag, output, given in (
        (["res", str(result), "--csv", str(result), "--force"], "--csv", result, result),
        (["traj", str(est), "--save", str(est), "--force"], "--save", est, est),
        (["traj", str(est), "--save", str(link), "--force"], "--save", link, est),
        (
            ["ape", "example:fr1_xyz/groundtruth.tum", str(est), "--save-aligned", str(est)],
            "--save-aligned",
            est,
            est,
        ),
    ):
        assert main([*argv, "--force"] if argv[0] == "ape" else argv) == 2
        assert capsys.readouterr().err == (
            f"ERROR: {flag} {output} is the input {given} ({given.resolve()}): writing it "
            "would replace what the command reads; give the output its own path\n"
        )
    assert {p: p.read_bytes() for p in (est, result)} == before


def test_a_times_or_transform_file_read_is_an_input_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape REF EST --transform-left T.json --save-aligned T.json --to tum --force``
    replaced the transform file it read with the aligned trajectory, and ``traj 00.txt
    --times 00_times.txt --save 00.kitti --force`` the times file it read (KITTI writes
    its times beside the poses): they were not counted among the inputs."""
    kitti = tmp_path / "00.txt"
    kitti.write_text("1 0 0 0 0 1 0 0 0 0 1 0\n1 0 0 1 0 1 0 0 0 0 1 0\n1 0 0 2 0 1 0 1 0 0 1 0\n")
    times = tmp_path / "00_times.txt"
    times.write_text("0\n1\n2\n")
    transform = tmp_path / "T.json"
    transform.write_text('{"x": 0, "y": 0, "z": 0, "qx": 0, "qy": 0, "qz": 0, "qw": 1}')
    ref = tmp_path / "ref.tum"
    ref.write_text("0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n2 2 1 0 0 0 0 1\n")
    est = tmp_path / "est.tum"
    est.write_bytes(ref.read_bytes())
    chain = tmp_path / "camchain.json"  # read as camchain.json:cam0 (FILE:KEY)
    chain.write_text(
        '{"cam0": {"T_cam_imu": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}}'
    )
    before = {p: p.read_bytes() for p in (kitti, times, transform, ref, est, chain)}
    out = tmp_path / "00.kitti"
    for argv, flag, output, given in (
        (["traj", str(kitti), "--times", str(times), "--save", str(out)], "--save", times, times),
        (
            ["ape", str(kitti), str(kitti), "--ref-times", str(times), "--est-times",
             str(times), "--save-aligned", str(out)],
            "--save-aligned",
            times,
            times,
        ),
        (
            ["ape", str(ref), str(ref), "--transform-left", str(transform), "--save-aligned",
             str(transform), "--to", "tum"],
            "--save-aligned",
            transform,
            transform,
        ),
        (
            ["traj", str(est), "--ref", str(ref), "--transform-right", str(transform),
             "--align", "se3", "--save", str(transform), "--to", "tum"],
            "--save",
            transform,
            transform,
        ),
        (
            ["ape", str(ref), str(ref), "--transform-right", f"{chain}:cam0", "--save-aligned",
             str(chain), "--to", "tum"],
            "--save-aligned",
            chain,
            chain,
        ),
    ):  # fmt: skip
        assert main([*argv, "--force"]) == 2, argv
        assert capsys.readouterr().err == (
            f"ERROR: {flag} {output} is the input {given} ({given.resolve()}): writing it "
            "would replace what the command reads; give the output its own path\n"
        ), argv
    assert {p: p.read_bytes() for p in (kitti, times, transform, ref, est, chain)} == before


def test_traj_s_one_file_flag_is_answered_with_the_two_that_split_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ape x.bag x.bag --topic /gt`` was told only "--topic is traj's, not ape's"."""
    for given, said in (
        (["ape", "x.bag", "x.bag", "--topic", "/gt"], "--topic is traj's; here: --ref-topic"),
        (["doctor", "r.txt", "e.txt", "--times", "t.txt"], "--times is traj's; here: --ref-times"),
    ):
        with pytest.raises(SystemExit, match=r"^2$"):
            main(given)
        flag = said.split()[-1].removeprefix("--ref-")
        assert capsys.readouterr().err.splitlines()[-1] == (
            f"ERROR: robot-msgs {given[0]}: {said} and --est-{flag}"
        )


def test_a_flag_of_another_command_is_said_whose_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    """``ape REF EST --delta 1`` was told 'unrecognized arguments: --delta 1' (a review)."""
    for given, said in (
        (["ape", "r.tum", "e.tum", "--delta", "1"], "--delta is rpe's, not ape's"),
        (["drift", "r.tum", "e.tum", "--delta-unit", "m"], "--delta-unit is rpe's, not drift's"),
        (
            ["ape", "r.tum", "e.tum", "--lengths", "100", "--workers", "2"],
            "--lengths is drift's, not ape's; --workers is bench's, not ape's",
        ),
        # a flag of several: "--quiet is ape and rpe and drift and report and bench's"
        (
            ["res", "r.json", "--quiet"],
            "--quiet is a flag of ape, rpe, drift, report and bench, not of res",
        ),
    ):
        with pytest.raises(SystemExit, match=r"^2$"):
            main(given)
        assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs {given[0]}: {said}"


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (
            ["--max-bytes", "1G"],
            "--max-bytes goes before the command: robot-msgs --max-bytes 1G ape",
        ),
        (
            ["--max-document=2M", "--bogus"],
            "--max-document goes before the command: robot-msgs --max-document=2M ape; unrecognized arguments: --bogus",
        ),
        (["--max-bytes"], "--max-bytes goes before the command: robot-msgs --max-bytes SIZE ape"),
        (["--version"], "--version goes before the command: robot-msgs --version"),
        (
            ["-va", "--max-bytes", "1G"],
            "-va is evo's; here: --align se3 (-v is not needed); --max-bytes goes before the command: robot-msgs --max-bytes 1G ape",
        ),
    ],
)
def test_a_flag_of_robot_msgs_given_after_the_command_is_said_so(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape R E --max-bytes 1G`` was told 'unrecognized arguments: --max-bytes 1G', a flag
    the command line has, before the command."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", *words])
    assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs ape: {said}"


@pytest.mark.parametrize("value", ["-inf", "-Infinity", "-nan"])
def test_a_negative_infinity_is_a_value_refused_as_not_finite(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape R E --offset -inf`` was told "argument --offset: expected one argument" (it
    was given one), where ``--offset=-inf`` is refused as not finite."""
    assert main(["ape", "r.tum", "e.tum", "--offset", value]) == 2
    err = capsys.readouterr().err
    assert re.match(r"ERROR: --offset -?(inf|nan): expected finite numbers, got float ", err), err


def test_a_flag_value_of_a_long_digit_run_is_told_apart_from_a_number_in_linear_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Trying every split of the digits, telling ``-999...x`` from a negative number took
    14.6 s at 20,000 digits (quadratic; an argument may hold 128 KiB)."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", "--offset", "-" + "9" * 60_000 + "x"])
    assert "--offset: expected one argument" in capsys.readouterr().err


def test_a_copy_of_the_named_standard_output_is_no_endless_recursion() -> None:
    """copy.copy builds the wrapper without __init__: looking up its stream must not recurse."""
    stream = io.StringIO()
    copied = copy.copy(_NamedStdout(stream))
    copied.write("x")
    assert stream.getvalue() == "x"


@pytest.mark.parametrize("first_to_end", [0, 1])
def test_commands_run_at_once_in_threads_leave_standard_output_as_it_was(
    first_to_end: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two threads' commands each put back what they found: the later one, the other's wrapper.

    ``sys.stdout`` stayed a named wrapper after both returned (4 threads running ``traj``
    30 times each left it so).
    """
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    started = [threading.Event(), threading.Event()]
    ended = [threading.Event(), threading.Event()]
    named: list[bool] = []

    def command(k: int) -> int:
        started[k].set()
        started[1 - k].wait(10)  # both running at once
        if k != first_to_end:
            ended[first_to_end].wait(10)
        named.append(isinstance(sys.stdout, _NamedStdout))
        return 0

    def run(k: int) -> None:
        run_guarded(lambda: command(k))
        ended[k].set()

    threads = [threading.Thread(target=run, args=(k,)) for k in (0, 1)]
    threads[0].start()
    started[0].wait(10)  # the first has wrapped standard output before the second starts
    threads[1].start()
    for thread in threads:
        thread.join(10)
    assert sys.stdout is stream
    assert named[0]  # the first to end wrote to the named standard output
