"""rpg_trajectory_evaluation's result folder, answered with the files and flags it means here.

rpg's ``analyze_trajectory_single.py FOLDER`` reads ``FOLDER/stamped_groundtruth.txt``
and ``FOLDER/stamped_traj_estimate.txt`` (TUM columns), associated by TUM's one-to-one
rule within 0.02 s (on rows: a repeated stamp's rows all kept, ``--repeated-stamps all``
here), and aligns as ``FOLDER/eval_cfg.yaml`` says (``align_type``:
sim3, se3, posyaw or none; ``align_num_frames``: the first N frames, -1 all; sim3 on
all frames without the file), within ``FOLDER/start_end_time.yaml``'s
``start_time_sec``/``end_time_sec`` (stamps in seconds; the ground truth's path length
is taken within them too). rpg associates the whole files and then drops the matches
whose ground-truth stamp is outside; ``--t-start``/``--t-end`` cut the reference first,
as evo does, so a pose at either end can differ (EuRoC V1_02 within 1403715535 ..
1403715590 s: 551 matches to rpg's 550, Sim(3) APE rmse 0.0642959 m to 0.0643356 m).
Here REF and EST are files and the alignment a flag:
``drift FOLDER --protocol rpg`` was told only "the following arguments are required: EST".

Examples
--------
>>> rpg_folder_hint("drift", ["gt.txt", "est.txt"]) is None  # files: nothing to answer
True
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

__all__ = ["GROUND_TRUTH", "rpg_folder_hint"]

#: The file that marks an rpg_trajectory_evaluation folder.
GROUND_TRUTH = "stamped_groundtruth.txt"

#: The commands whose REF EST such a folder stands for.
_COMMANDS = ("ape", "rpe", "drift", "doctor")


#: The most of ``eval_cfg.yaml`` read: rpg's file is two lines, and a hint must not read a
#: stray big file whole (a 1 GiB file took 42 s and 2.1 GB of memory to say the line).
_CONFIG_BYTES = 1 << 16


def _eval_cfg_text(config: Path) -> str:
    """Return the start of ``config`` if it is a readable regular file, else ``""``.

    A FIFO, a folder or a device of that name is not opened (a FIFO would block).
    """
    if not config.is_file():
        return ""
    try:
        with config.open("rb") as file:
            return file.read(_CONFIG_BYTES).decode(errors="replace")
    except OSError:  # unreadable: answered with rpg's defaults, as without the file
        return ""


#: The ``align_type`` values rpg's ``alignTrajectory`` takes; it asserts on any other.
_RPG_ALIGN = ("sim3", "se3", "posyaw", "none")


def _eval_cfg_flags(config: Path) -> tuple[str, str]:
    """Return our alignment flags for rpg's ``eval_cfg.yaml`` (its defaults without one).

    And what is wrong with the file, or ``""``: an ``align_type`` rpg does not take was
    passed on as ``--align sim4``, which argparse refused as "invalid choice", naming
    neither the file nor rpg's four (nor ``scale``, ours, that rpg refuses).

    Examples
    --------
    >>> import tempfile
    >>> config = Path(tempfile.mkdtemp()) / "eval_cfg.yaml"
    >>> _ = config.write_text("align_type: sim4")
    >>> _eval_cfg_flags(config)[1].split(": ", 1)[1]
    "expected align_type sim3, se3, posyaw or none, got 'sim4'"
    """
    text = _eval_cfg_text(config)
    # The value whole, to a quote, a comment or the line's end (`\s*` ran on past an
    # empty value into the next line: "--align align_num_frames").
    align = re.search(r"^align_type:[ \t]*['\"]?([^\s'\"#]*)", text, re.MULTILINE)
    method, problem = align.group(1) if align else "sim3", ""
    if method not in _RPG_ALIGN:  # said with TYPE; align_num_frames is still answered
        value = method[:40]  # a 64 KiB word is not said whole
        accepted = f"{', '.join(_RPG_ALIGN[:-1])} or {_RPG_ALIGN[-1]}"
        method, problem = "TYPE", f"{config}: expected align_type {accepted}, got {value!r}"
    # ASCII digits, compared as text: int() refuses a run of over 4300 digits (a
    # ValueError, exit 70), and ``\d`` would put Arabic-Indic digits in the hint.
    frames = re.search(r"^align_num_frames:\s*([0-9]+|-[0-9]+)", text, re.MULTILINE)
    said = f" --align {method}"
    if frames and frames.group(1).lstrip("0") and not frames.group(1).startswith("-"):
        said += f" --n-align {frames.group(1)}"
    return said, problem


#: A number as rpg's YAML reader (PyYAML, YAML 1.1) makes a float or an int of it: an
#: exponent only after a dot (``1e2`` is the string ``'1e2'``, which rpg's Python 2
#: comparison puts above every stamp, so it cuts nothing).
_YAML_NUMBER = (
    r"[-+]?(?:[0-9]+(?![.0-9eE])|[0-9]*\.[0-9]+(?:[eE][-+][0-9]+)?"
    r"|[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?)"
)


def _range_flags(times: Path) -> str:
    r"""Return ``--t-start``/``--t-end`` for rpg's ``start_end_time.yaml``, or ``""``.

    Examples
    --------
    >>> import tempfile
    >>> times = Path(tempfile.mkdtemp()) / "start_end_time.yaml"
    >>> _ = times.write_text("start_time_sec: 10.5\nend_time_sec: 60\n")
    >>> _range_flags(times)
    ' --t-start 10.5 --t-end 60'
    """
    text = _eval_cfg_text(times)
    said = ""
    for key, flag in (("start_time_sec", "--t-start"), ("end_time_sec", "--t-end")):
        found = re.search(rf"^{key}:[ \t]*({_YAML_NUMBER})[ \t]*(?:#.*)?$", text, re.MULTILINE)
        # float() of a run of digits past 308 is inf, which no flag takes: not said
        if found and len(found.group(1)) <= 40:
            said += f" {flag} {found.group(1)}"
    return said


def _holds_rpg(word: str) -> bool:
    """Whether ``word`` names a folder holding :data:`GROUND_TRUTH`; False where it cannot.

    Every word is looked at, before the command line is parsed: ``Path.is_file`` raises
    for a name too long or a folder not searchable (``ape R E --label`` with a 300-character
    name ended "NAME/stamped_groundtruth.txt: file name too long", a file never typed).
    """
    try:
        return (Path(word) / GROUND_TRUTH).is_file()
    except OSError:
        return False


#: rpg's estimate files by ``--est_types`` (its ``fn_constants.py``), its default first;
#: ``--mul_trials N`` reads ``NAME0.txt`` to ``NAME{N-1}.txt``.
_ESTIMATES = {
    "traj_est": "stamped_traj_estimate",
    "pose_graph": "stamped_pose_graph_estimate",
    "ba_estimate": "stamped_ba_estimate",
}


def _trials(folder: Path, stem: str) -> list[str]:
    """Return the ``stem`` files rpg reads in ``folder``: the one, else the trials by number.

    ``sorted`` of the names put ``...estimate10.txt`` before ``...estimate2.txt``; a name
    such as ``...estimate_old.txt`` is no trial of rpg's, nor ``...estimate007.txt``:
    rpg names trial ``i`` by ``str(i)`` (``analyze_trajectory_single.py``), and beside
    ``...estimate7.txt`` that was trial 7 twice. Empty: none there.
    """
    if (folder / f"{stem}.txt").is_file():
        return [f"{stem}.txt"]
    numbered = re.compile(rf"{stem}(0|[1-9][0-9]*)\.txt")
    found = ((numbered.fullmatch(p.name), p.name) for p in folder.glob(f"{stem}*.txt"))
    return [name for _, name in sorted((int(m.group(1)), name) for m, name in found if m)]


def _estimates(folder: Path) -> tuple[list[str], str]:
    """Return the trials of the first estimate type there (``traj_est`` without any).

    And the other types there, said as rpg's ``--est_types`` (or ``""``): rpg's own
    example results hold ``stamped_ba_estimate0.txt`` .. ``9.txt`` alone.
    """
    held = {kind: trials for kind, stem in _ESTIMATES.items() if (trials := _trials(folder, stem))}
    kinds = list(held)
    chosen = held.pop(kinds[0]) if kinds else [f"{_ESTIMATES['traj_est']}.txt"]
    others = ", ".join(f"{trials[0]} (rpg's --est_types {kind})" for kind, trials in held.items())
    return chosen, f"; also here: {others}" if others else ""


def rpg_folder_hint(
    command: str, words: Sequence[str], *, valued: Collection[str] = ()
) -> str | None:
    """Return the answer to an rpg folder given as REF or EST, or None.

    ``words`` are those after ``command``; an answer names the folder's two files and
    the flags that evaluate them as rpg's ``analyze_trajectory_single.py`` does
    (``drift``: its relative error; ``ape``: its absolute one), every trial of a folder
    of ``--mul_trials`` estimates for ``ape``/``rpe`` (they take several EST; ``drift``
    and ``doctor`` are told to run once per trial). A word after one of the
    ``valued`` flags is that flag's value, not an input: ``--protocol rpg`` beside a
    folder named ``rpg`` refused the very command the answer gives.
    """
    if command not in _COMMANDS:
        return None
    inputs = (w for i, w in enumerate(words) if i == 0 or words[i - 1] not in valued)
    folder = next((Path(w) for w in inputs if not w.startswith("-") and _holds_rpg(w)), None)
    if folder is None:
        return None
    trials, others = _estimates(folder)
    several = command in ("ape", "rpe")  # they take EST...; drift and doctor one EST
    estimate = " ".join(str(folder / name) for name in (trials if several else trials[:1]))
    # rpg keeps every row, a repeated stamp's too (V1_02: 798 matches, 794 with the first
    # row of each; drift at 7.58 m: 690 segments, 688).
    rules = " --sync one-to-one --max-diff 0.02"
    rules = " --protocol rpg" if command == "drift" else rules
    rules += " --repeated-stamps all"
    flags, problem = _eval_cfg_flags(folder / "eval_cfg.yaml")
    span = _range_flags(folder / "start_end_time.yaml")
    said = f"{folder} is rpg_trajectory_evaluation's folder; "
    said += f"here: {folder / GROUND_TRUTH} {estimate}{rules}{flags}{span}"
    if span:  # module docstring: one pose at either end can differ
        said += "; rpg drops matches outside the range after associating, "
        said += "we cut the reference first"
    if len(trials) > 1 and not several:
        number = re.sub(r"^[a-z_]+", "", trials[-1])
        said += f"; {len(trials)} trials ({trials[0]} .. {number}): "
        said += f"{command} takes one EST, run it once per trial"
    said += others
    return f"{said}; {problem}" if problem else said
