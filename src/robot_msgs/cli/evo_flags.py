"""evo's flags, answered: each common evo flag named with the flag that does it here.

A user arriving from evo types ``-a``, ``-as``, ``-r trans_part`` or ``--t_max_diff``;
argparse would answer with the top-level usage and ``unrecognized arguments``. The
command line looks the words up here first and answers with the *command's* usage and
one line: ``-a is evo's; here: --align se3``, with the value typed after evo's flag
where ours takes it too (``-r trans_part``: ``--relation trans_part``). The flags are
refused rather than taken as aliases: several mean something else here (evo's
``--align`` and ``--plot`` are switches, ours take a value; evo's ``-v`` is verbosity),
and one spelling per option keeps the help, the saved settings and the error wording one.

evo's commands also take the format first (``evo_ape tum GT EST``, ``evo_ape bag x.bag
/gt /est``); here the format is detected (or given with ``--format``) and a bag's topics
are flags. :func:`evo_syntax_hint` answers that word order the same way, only when the
first positional word is exactly one of evo's format names and no such file exists (a
file named ``tum`` is still read).

The TUM RGB-D benchmark scripts' own flags (``evaluate_ate.py --max_difference``,
``evaluate_rpe.py --fixed_delta``) are answered the same way, as TUM's
(:data:`TUM_FLAGS`): they were "unrecognized arguments".

Examples
--------
>>> evo_hint(["REF", "EST", "-as", "-r", "trans_part"])
"-as -r are evo's; here: --align sim3 --relation trans_part"
>>> evo_hint(["--t_max_diff=0.02"])
"--t_max_diff is evo's; here: --max-diff 0.02"
>>> evo_hint(["--align", "se3"]) is None
True
"""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from robot_msgs.cli._settings_flags import declared_flags
from robot_msgs.io.formats import BAG_FORMATS, READ_SUFFIXES
from robot_msgs.report.text import WIDTH

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

__all__ = [
    "EVO_FLAGS",
    "EVO_FLAGS_BY_COMMAND",
    "EVO_FORMATS",
    "EVO_SWITCHES",
    "EVO_WITHOUT",
    "HOME_COMMANDS",
    "TUM_FLAGS",
    "evo_hint",
    "evo_spelled",
    "evo_syntax_hint",
    "evo_words",
    "in_home_command",
    "scale_file_text",
]

#: evo's flag -> what to type here.
EVO_FLAGS: dict[str, str] = {
    "-a": "--align se3",
    "-as": "--align sim3",
    "-sa": "--align sim3",
    "-s": "--align scale (-a -s: --align sim3)",
    "--correct_scale": "--align scale (-a --correct_scale: --align sim3)",
    "--align_origin": "--align origin",  # with -s: _alignment answers
    "--n_to_align": "--n-align N",
    "-r": "--relation RELATION",
    "--pose_relation": "--relation RELATION",
    "-d": "--delta D",
    "-u": "--delta-unit UNIT",
    "--delta_unit": "--delta-unit UNIT",
    "--all_pairs": "--all-pairs",
    "--pairs_from_reference": "--pairs-from-reference",
    "--t_max_diff": "--max-diff SECONDS",
    "--t_offset": "--offset SECONDS",
    "--t_start": "--t-start SECONDS",
    "--t_end": "--t-end SECONDS",
    "--sync_method": "--sync METHOD",
    "--transform_left": "--transform-left FILE",
    "--transform_right": "--transform-right FILE",
    "--invert_transform": "--invert-transform-left/right",
    "--project_to_plane": "--project-to-plane PLANE",
    "-p": "--plot FILE (a file; no window)",
    "--save_plot": "--plot FILE",
    "--plot_mode": "--plot-plane PLANE",
    "--save_results": "--save FILE.json",
    "--save_as_tum": "--save FILE.tum",
    "--save_as_kitti": "--save FILE.kitti",
    "--save_as_bag": "--save FILE.mcap (or .db3)",
    "--save_table": "--csv FILE",
    "--ref_file": "REF as the first argument",
    "--delta_tol": "--delta-tol RATIO",
    "-t": "--delta-tol RATIO",  # evo_rpe's short form
    "--serialize_plot": "--plot FILE.pdf",
    "-f": "--check",
    "--full_check": "--check",
    "--plot_x_dimension": "nothing: fixed axes",  # evo: index, seconds or distances
    "--no_align": "nothing: it is the default",
    "-v": "nothing: the table is printed",
    "--verbose": "nothing: the table is printed",
    "-va": "--align se3 (-v is not needed)",
    "-vas": "--align sim3 (-v is not needed)",
    "--silent": "nothing: > /dev/null",  # the tables go to stdout; messages to stderr
    # evo's overwrite without asking (confirm_overwrite=not no_warnings)
    "--no_warnings": "--force (to overwrite)",
    "--use_filenames": "nothing: named by file",
    "--merge": "nothing: no pooled statistic",
    "--save_as_bag2": "--save FILE.db3",
    "--show_full_names": "--label NAME",
    "--plot_relative_time": "nothing: default",  # our time axes start at the first pose
    "--use_rel_time": "nothing: default",
    "--logfile": "nothing: 2> FILE",
    "--debug": "--debug before the command",
}

#: The TUM RGB-D scripts' flags that evo lacks (evaluate_ate.py, evaluate_rpe.py,
#: associate.py) -> what to type here (docs/definitions.md, "TUM RGB-D benchmark scripts").
TUM_FLAGS: dict[str, str] = {
    "--max_difference": "--sync one-to-one --max-diff SECONDS",  # associate.py's rule
    "--fixed_delta": "--protocol tum --delta-unit s",  # without --delta_unit: TUM's seconds
    "--max_pairs": "nothing: every pair is taken",  # with --fixed_delta; else _tum_pairs_note
    "--scale": "--transform-left SCALE_FILE",  # scale_file_text: diag(s, s, s, 1)
    "--save_associations": "--save FILE.json",  # the result holds the matched poses
}

#: A number as JSON writes it (RFC 8259, section 6), ASCII digits only.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def scale_file_text(value: str) -> str:
    """Say what the file of TUM's ``--scale value`` holds: the 4x4 diag(s, s, s, 1).

    evaluate_ate.py multiplies the estimate's positions by s before its fit; a left
    transform diag(s, s, s, 1) does that. The answer said ``--transform-left MATRIX`` and
    not what to write in the file. The matrix is said as JSON, one line that
    ``--transform-left`` reads whatever the file is named; s is the number typed, else
    ``s`` (no number, or none a Sim(3) takes: not finite, not > 0). A number TUM's
    ``float()`` reads that JSON does not (``2.``, ``.5``, ``+2``, ``02``, ``1_000``) is
    said as Python writes it: typed as is, the file was refused ("expected JSON"). The
    file is SCALE_FILE, not FILE: beside ``--plot FILE`` or ``--save FILE.json`` in one
    answer, "FILE holds the 4x4" named either.

    Examples
    --------
    >>> scale_file_text("2")
    'SCALE_FILE holds the 4x4 diag(2, 2, 2, 1): [[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,1]]'
    >>> scale_file_text("--verbose").split(": ")[0]
    'SCALE_FILE holds the 4x4 diag(s, s, s, 1)'
    >>> scale_file_text(".5").split(": ")[0]
    'SCALE_FILE holds the 4x4 diag(0.5, 0.5, 0.5, 1)'
    """
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    s = "s"
    if math.isfinite(number) and number > 0:
        s = value if _JSON_NUMBER.fullmatch(value) else repr(number)
    rows = ",".join(f"[{','.join(s if i == j else '0' for j in range(3))},0]" for i in range(3))
    return f"SCALE_FILE holds the 4x4 diag({s}, {s}, {s}, 1): [{rows},[0,0,0,1]]"


def _tum_pairs_note(value: str) -> str:
    """Say why TUM's default RPE, ``--max_pairs value`` without ``--fixed_delta``, has none here.

    evaluate_rpe.py then pairs any two poses (delta ignored), ``--max_pairs`` of them
    drawn at random with ``random.seed(0)`` (every one with 0, or under sqrt(max_pairs)
    poses). Its number depends on the draw, which Python 2 and 3 make differently: on
    fr1_xyz rgbdslam (788 poses), translation rmse 0.020834 m (Python 2's randint,
    emulated), 0.020740 m (Python 3's), 0.020642 to 0.020899 m with seeds 1 to 3,
    0.020714 m over all 788² pairs; and it is a mean over every span, no drift rate.
    The answer is its ``--fixed_delta`` (``--protocol tum``), deterministic; it was
    "nothing: every pair is taken", which read as if the default's pairs were all
    taken here.

    Examples
    --------
    >>> _tum_pairs_note("0")
    'TUM without --fixed_delta pairs every two poses, any span apart: none here'
    """
    if value == "0":
        return "TUM without --fixed_delta pairs every two poses, any span apart: none here"
    count = value if value.isdigit() else "--max_pairs"
    return (
        f"TUM without --fixed_delta pairs any two poses, {count} drawn at random (seed 0): "
        "none here, as its number changes with the draw"
    )


#: The TUM scripts' flags that evo has too: said as TUM's beside :data:`TUM_FLAGS`.
_TUM_ALSO = frozenset({"--verbose", "--delta_unit"})

#: evaluate_rpe.py's default unit, said with ``--fixed_delta`` unless a unit is typed: our
#: default is evo's frames, so ``rpe --fixed_delta`` answered ``--protocol tum`` alone paired
#: poses 1 frame apart where the script pairs them 1 s apart.
_TUM_UNIT = " --delta-unit s"
_UNIT_FLAGS = ("--delta_unit", "-u", "--delta-unit")

#: evaluate_ate.py's flags: the script always fits a rigid alignment (Horn), ours aligns
#: nothing by default, so ``ape`` answers them with ``--align se3`` too unless an
#: alignment is typed (``ape GT EST --max_difference 0.02`` answered with the association
#: alone gave rms 0.0201 m on fr1_xyz rgbdslam, the script 0.0135 m).
_TUM_ATE = frozenset({"--max_difference", "--scale", "--save_associations"})

#: evo's flags with no equivalent here, answered so (not as unrecognized).
EVO_WITHOUT = (
    "--all_channels",
    "--all_topics",
    "--change_unit",
    "--config",
    "--downsample",
    "--ignore_title",
    "--map_tile",
    "--motion_filter",
    "--plot_colormap_max",
    "--plot_colormap_max_percentile",
    "--plot_colormap_min",
    "--plot_full_ref",
    "--plot_markers",
    "--propagate_transform",
    "--rerun",
    "--rerun_rec_id",
    "--ros_map_yaml",
    "-c",
)

_SAVED_ALIGNED = {
    "--save_as_tum": "--save-aligned FILE.tum",
    "--save_as_kitti": "--save-aligned FILE.kitti",
    "--save_as_bag": "--save-aligned FILE.mcap",
    "--save_as_bag2": "--save-aligned FILE.db3",
}

#: evo's --silent (no console output but warnings and errors; results and plots still
#: saved) where a progress line also shows: on a terminal, on stderr, for a step over 2 s.
_SILENT = {"--silent": "--quiet > /dev/null"}

#: Answers that differ by command, over :data:`EVO_FLAGS`: evo_traj's ``--save_as_*``
#: typed after ``ape`` mean the aligned estimate (``ape --save`` writes the result and
#: refuses ``.tum``); evo_traj's ``--merge`` joins its files into one trajectory; evo's
#: ``--silent`` needs ``--quiet`` too where a command shows progress.
EVO_FLAGS_BY_COMMAND: dict[str, dict[str, str]] = {
    "ape": {**_SAVED_ALIGNED, **_SILENT},
    "rpe": {**_SAVED_ALIGNED, **_SILENT},
    "drift": {**_SAVED_ALIGNED, **_SILENT},
    "traj": {
        "--merge": "nothing: each FILE stays apart",
        "--ref_file": "--ref REF",
        "--all_topics": "--topic T1 --topic T2 (BAG alone lists them)",
    },
}

#: Where an answer's flag is looked for when the command typed has none, in this order
#: (``ape -d 1``: ``rpe --delta 1``).
HOME_COMMANDS = ("ape", "rpe", "traj", "res", "drift", "report", "bench", "doctor")

#: Answers whose flag others spell alike but mean otherwise, with the commands it means
#: this in: ``--save FILE.tum`` is traj's (ape's ``--save`` writes a result and refuses
#: ``.tum``), ``--save FILE.json`` ape's (traj's writes a trajectory). Typed elsewhere,
#: the answer names the first of them.
_MEANT_IN: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(_SAVED_ALIGNED, ("traj",)),
    "--save_results": ("ape", "rpe", "drift"),
    "--save_associations": ("ape", "rpe", "drift"),
    "--fixed_delta": ("rpe",),  # drift's --protocol takes kitti or rpg
    "--max_pairs": ("rpe",),  # without --fixed_delta: answered as it
}


#: The placeholders of :data:`EVO_FLAGS` a value typed after evo's flag fills as it is,
#: and evo's delta units, which ours spell otherwise (``-u d``: ``--delta-unit deg``).
#: Placeholders of a number: filled only with one (``-dm`` was answered ``--delta m``).
_NUMBERS = ("N", "D", "SECONDS", "RATIO")
_FILLED: dict[str, dict[str, str]] = {
    **{placeholder: {} for placeholder in ("RELATION", *_NUMBERS, "REF", "FILE")},
    # evo's plot modes that are planes here (its yx, zx, zy are not).
    "PLANE": {plane: plane for plane in ("xy", "xz", "yz", "xyz")},
    # ours as typed (`-u s` was answered `--delta-unit UNIT`), from the settings' DELTA_UNITS
    # by way of their flag table, and evo's d and r, which ours spell deg and rad
    "UNIT": {**{u: u for u in declared_flags()["delta_unit"].choices}, "d": "deg", "r": "rad"},
    # evo's interpolation is interpolate-longer: nearest's matches, the longer trajectory
    # resampled at the shorter one's stamps; interpolate resamples the reference at every
    # estimate stamp (a review: RPE n=80 against evo's 54, rmse -20 %).
    "METHOD": {"nearest_time": "nearest", "interpolation": "interpolate-longer"},
}
#: Closed lists of our flags whose placeholder's list is another flag's: a projection
#: takes the settings' planes, not --plot-plane's views (``--project_to_plane xyz`` was
#: answered ``--project-to-plane xyz``, which the flag refuses).
_FILLED_FOR: dict[str, dict[str, str]] = {
    "--project-to-plane": {p: p for p in declared_flags()["project_to_plane"].choices},
}


#: A file's suffix in a placeholder (``FILE.json``): the name typed is kept, with it.
_SUFFIX = re.compile(r"\.[a-z0-9]+")

#: A compressed file's suffix and the type's before it (``.tar.gz``, ``.json.xz``) are
#: one suffix: ``x.tar.gz`` was answered ``x.tar.json``. The type is a file type's
#: name: ``run.2024.gz`` keeps its ``.2024``, and ``fr1.results.gz`` its ``.results``
#: (any word of letters was taken for a type: answered ``fr1.json``).
_COMPOUND_SUFFIX = re.compile(
    r"(\.(?:tar|json|csv|tsv|txt|tum|kitti|zip|npz|npy|yaml|yml|xml|html|log|bag))?"
    r"\.(?:gz|bz2|xz|zst|lz4|lzma|z)\Z",
    re.IGNORECASE,
)


def _with_value(ours: str, value: str) -> str:
    """Fill the placeholder of ``ours`` with the value typed after evo's flag, if one was.

    Examples
    --------
    >>> _with_value("--relation RELATION", "trans_part"), _with_value("--delta-unit UNIT", "d")
    ('--relation trans_part', '--delta-unit deg')
    >>> _with_value("--max-diff SECONDS", "-a"), _with_value("--delta-unit UNIT", "x")
    ('--max-diff SECONDS', '--delta-unit UNIT')
    >>> _with_value("--plot-plane PLANE", "xyz"), _with_value("--project-to-plane PLANE", "xyz")
    ('--plot-plane xyz', '--project-to-plane PLANE')
    >>> _with_value("--delta D", "m"), _with_value("--delta D", "10")
    ('--delta D', '--delta 10')

    A file of a suffix of ours keeps the name typed, with our suffix (``--save_results
    x.zip`` was answered ``--save FILE.json``, the user's name dropped):

    >>> _with_value("--save FILE.json", "out/x.zip"), _with_value("--save FILE.json", "-")
    ('--save out/x.json', '--save FILE.json')
    >>> _with_value("--save FILE.json", "x.tar.gz")
    '--save x.json'
    """
    head, _, placeholder = ours.rpartition(" ")
    spellings = _FILLED_FOR.get(head, _FILLED.get(placeholder))
    # A word after the flag is its value unless it is a flag ("-0.5" is a number, as to
    # argparse: a dash before a digit or a point).
    flag_next = value.startswith("-") and value[1:2] not in set("0123456789.")
    suffix = placeholder.removeprefix("FILE")
    if _SUFFIX.fullmatch(suffix) and not flag_next and value not in ("", "-"):
        name = PurePath(value).name
        if name not in ("", ".", "..") and not value.endswith("/"):
            # "x." has no suffix to Python: it was answered "x..json". A name of suffixes
            # alone (".json.gz") has no stem: it was answered ".json.json".
            compound = _COMPOUND_SUFFIX.search(name)
            whole = compound is not None and (compound.start() or compound.group(1))
            typed = compound.group() if compound and whole else PurePath(name).suffix
            stem = value.removesuffix(typed).rstrip(".") or ("" if typed else value)
            return f"{head} {_as_typed(stem + suffix)}"
    if spellings is None or not head or not value or flag_next:
        return ours
    if placeholder in _NUMBERS and not _is_number(value):  # evo refuses it too
        return ours
    if spellings:  # a closed list: evo's word said as ours, else the placeholder stays
        return f"{head} {spellings[value]}" if value in spellings else ours
    return f"{head} {_as_typed(value)}"


#: A word a shell reads as itself: letters of any script, digits and ``@%+=:,./-``.
_PLAIN_WORD = re.compile(r"[\w@%+=:,./-]+")


def _as_typed(word: str) -> str:
    """Quote ``word`` as a shell must read it, where it holds more than plain letters.

    WHY: ``--save_results 'my res.zip'`` was answered ``--save my res.json``, two words
    pasted, and ``a;b.zip`` two commands. A plain word, ``résultat.json`` too, stays bare.

    Examples
    --------
    >>> _as_typed("out/résultat.json"), _as_typed("my res.json"), _as_typed("$(x).json")
    ('out/résultat.json', "'my res.json'", "'$(x).json'")
    """
    return word if _PLAIN_WORD.fullmatch(word) else shlex.quote(word)


def _is_number(text: str) -> bool:
    """Whether ``text`` is a number as evo's flags read one (Python's ``float``)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _not_a_number(
    flag: str,
    value: str,
    typed: str,
    command: str,
    offered: Callable[[str], Collection[str]] | None,
    *,
    unit_typed: bool = False,
) -> str:
    """Say that evo's ``flag`` takes a number, not ``value``; a unit's flag if it is one.

    evo_rpe 1.38.1 refuses ``-dm`` ("argument -d/--delta: invalid float value: 'm'"); it
    was answered ``--delta m``, which is neither evo's nor ours. A delta unit typed to
    ``-d`` is said as evo's ``-u`` and ours, unless a unit's flag was typed too
    (``unit_typed``): the answer has its ``--delta-unit`` (``-d m -u m`` said
    ``--delta-unit m`` twice).

    Examples
    --------
    >>> _not_a_number("-d", "m", "-dm", "rpe", None)
    "evo's -d takes a number, not 'm' (evo refuses -dm); -u m is the unit: --delta-unit m"
    >>> _not_a_number("--t_max_diff", "x", "--t_max_diff", "ape", None)
    "evo's --t_max_diff takes a number, not 'x'"
    >>> _not_a_number("-d", "m", "-d", "rpe", None, unit_typed=True)
    "evo's -d takes a number, not 'm'"
    """
    said = f"evo's {flag} takes a number, not {value!r}"
    said += f" (evo refuses {typed})" if typed != flag else ""
    unit = _FILLED["UNIT"].get(value)
    if flag in ("-d", "--delta") and unit is not None and not unit_typed:
        placed = in_home_command(f"--delta-unit {unit}", command, offered)
        said += f"; -u {value} is the unit: {placed}"
    return said


#: evo_traj moves its poses by --transform_left/right after -a, ours before --align
#: (evaluation/transforms.py), and the answer said neither. Measured (evo 1.38.1, fr1_xyz
#: rgbdslam against groundtruth, -a --sync, T = 45 deg yaw and (0.3, -0.2, 0.1) m): evo_traj
#: saved poses 0.725 m rmse from the reference (left) and 0.375 m (right); traj's
#: aligned poses are 0.0134701 m (left: the fit absorbs it, ape's rmse is the same with or
#: without) and 0.0434 m (right).
_TRANSFORM_ORDER = (
    "evo_traj applies the transform after aligning, ours before --align: an --align se3 fit "
    "absorbs a rigid left transform"
)


#: Flags spelled alike that are switches in evo and take a value here: said when given
#: without one (last, or before another flag).
EVO_SWITCHES: dict[str, str] = {
    "--align": "--align se3",
    "--plot": "--plot FILE",
    "--sync": "--sync nearest",  # evo_traj's switch; evo_ape's is --sync_method
}


def _no_value(following: str | None) -> bool:
    """Whether a flag followed by ``following`` (None: nothing) was given no value.

    ``-`` is a value, standard output: ``ape R E --plot -`` (a PNG on standard output)
    was answered "--plot is a switch in evo".

    Examples
    --------
    >>> _no_value(None), _no_value("--json"), _no_value("-"), _no_value("x.pdf")
    (True, True, False, False)
    """
    return following is None or (following.startswith("-") and following != "-")


#: evo's alignment switches, which combine: ``-a -s`` is Sim(3), ``--align_origin -s``
#: origin then scale.
_ALIGN = ("-a", "-va", "--align")
_SCALE = ("-s", "--correct_scale")
_BOTH = ("-as", "-sa", "-vas")


#: Our ``--align`` method with evo's scale switch beside it: the method that also scales.
_SCALED = {"se3": "sim3", "origin": "origin_scale", "none": "scale"}


def _alignment(argv: Sequence[str]) -> tuple[list[str], str] | None:
    """Return evo's alignment switches in ``argv`` and our ``--align`` for them, or None.

    None unless there are two or more of them (one is answered as any evo flag is), or
    evo's scale switch is beside our ``--align METHOD``: ``--align se3 --correct_scale``
    was answered "--align scale", which typed gives ``--align`` twice.

    Examples
    --------
    >>> _alignment(["R", "E", "--align", "origin", "-s"])
    (['-s'], '--align origin_scale, not origin')
    >>> _alignment(["R", "E", "--align=posyaw", "-s"]) is None
    True
    """
    said = []
    method = None  # ours, --align METHOD
    for at, word in enumerate(argv):
        following = argv[at + 1] if at + 1 < len(argv) else None
        switch = word != "--align" or _no_value(following)  # ours takes a value
        if word in (*_ALIGN, *_SCALE, *_BOTH, "--align_origin") and switch:
            said.append(word)
        elif word == "--align" or word.startswith("--align="):
            method = word.partition("=")[2] or following
    if method is not None and said and all(w in _SCALE for w in said):
        if method in _SCALED.values():
            return said, f"--align {method} alone"  # it fits the scale
        if method in _SCALED:  # no aside: one past 80 columns is cut (_found_said)
            return said, f"--align {_SCALED[method]}, not {method}"
        return None
    if len(said) < 2:
        return None
    scale = any(w in (*_SCALE, *_BOTH) for w in said)
    if "--align_origin" in said:
        ours = "--align origin_scale" if scale else "--align origin"
    elif any(w in (*_ALIGN, *_BOTH) for w in said):
        ours = "--align sim3" if scale else "--align se3"
    else:
        ours = "--align scale"
    return said, ours


def in_home_command(
    ours: str,
    command: str,
    offered: Callable[[str], Collection[str]] | None,
    homes: Sequence[str] = HOME_COMMANDS,
) -> str:
    """Name the command that has the answer's flag when ``command`` has none.

    ``homes`` are the commands the answer's flag means it in, looked in in this order.

    Examples
    --------
    >>> offered = {"ape": ["--align"], "rpe": ["--align", "--delta"]}.__getitem__
    >>> in_home_command("--delta 10", "ape", offered), in_home_command("--delta 10", "rpe", offered)
    ('rpe --delta 10', '--delta 10')
    >>> in_home_command("nothing: fixed axes", "ape", offered)
    'nothing: fixed axes'
    >>> in_home_command("--align se3", "ape", offered, homes=("rpe",))
    'rpe --align se3'
    """
    flag = next((w.split("/")[0] for w in ours.split() if w.startswith("--")), None)
    if offered is None or not command or flag is None:
        return ours
    if command in homes and flag in offered(command):
        return ours
    home = next((c for c in homes if c != command and flag in offered(c)), None)
    return ours if home is None else f"{home} {ours}"


def _homes_once(answers: Iterable[str]) -> list[str]:
    """Drop the command an answer names where the one before names it too.

    ``ape -d 10 -u m`` was told ``rpe --delta 10 rpe --delta-unit m`` (a review).

    Examples
    --------
    >>> _homes_once(["rpe --delta 10", "rpe --delta-unit m", "--align se3"])
    ['rpe --delta 10', '--delta-unit m', '--align se3']
    """
    out: list[str] = []
    named = None
    for answer in answers:
        head, _, rest = answer.partition(" ")
        home = head if head in HOME_COMMANDS else None
        out.append(rest if home is not None and home == named else answer)
        named = home
    return out


#: evo's one-letter switches, which argparse lets a user cluster in any order (``-av``,
#: ``-vsa``, ``-vap``); :data:`EVO_FLAGS` spells a few clusters, the others were
#: "unrecognized arguments".
_EVO_LETTERS = frozenset("vasp")
#: evo's one-letter flags that take a value, which argparse takes joined to it too
#: (``-rfull``, ``-d10``, ``-uf``, ``-t0.2``: evo_rpe runs them); they were "unrecognized
#: arguments".
_EVO_VALUED = frozenset("rdut")


def evo_spelled(
    words: Sequence[str], offered: Callable[[str], Collection[str]] | None = None
) -> list[str]:
    """Return ``words`` with evo's flags spelled as :data:`EVO_FLAGS` has them.

    A cluster of evo's one-letter switches not spelled there is split into its letters,
    and evo's flag typed with hyphens (``--plot-mode``, ``--t-max-diff``) is given its
    underscores, unless a command has it so (``offered``: a command's option strings;
    ``ape --all-pairs`` is rpe's flag, not evo's): both were "unrecognized arguments",
    never answered as evo's.

    Examples
    --------
    >>> evo_spelled(["R", "-av", "--plot-mode=xz", "--t-max-diff", "0.1", "-va"])
    ['R', '-a', '-v', '--plot_mode=xz', '--t_max_diff', '0.1', '-va']
    >>> evo_spelled(["-rangle_deg", "-d10"])
    ['-r', 'angle_deg', '-d', '10']
    >>> evo_spelled(["--t-start", "5"], {"ape": ["--t-start"]}.get)
    ['--t-start', '5']
    """
    return [spelled for spelled, _ in _spelled_from(words, offered)]


def _spelled_from(
    words: Sequence[str], offered: Callable[[str], Collection[str]] | None
) -> list[tuple[str, str]]:
    """Return each word of :func:`evo_spelled` with the word typed that it comes from.

    Examples
    --------
    >>> _spelled_from(["-av", "--plot-mode"], None)
    [('-a', '-av'), ('-v', '-av'), ('--plot_mode', '--plot-mode')]
    """
    known = {
        *EVO_FLAGS,
        *TUM_FLAGS,
        *EVO_WITHOUT,
        *(f for d in EVO_FLAGS_BY_COMMAND.values() for f in d),
    }
    out: list[tuple[str, str]] = []
    for word in words:
        flag, eq, value = word.partition("=")
        under = "--" + flag[2:].replace("-", "_")
        if word in known or not word.startswith("-"):
            out.append((word, word))
        elif len(word) > 2 and word[1] != "-" and set(word[1:]) <= _EVO_LETTERS:
            out += [(f"-{letter}", word) for letter in word[1:]]
        elif (
            len(word) > 2
            and word[1] in _EVO_VALUED
            and word[2] != "="
            and not _long_with_one_hyphen(flag, known, offered)
        ):
            out += [(word[:2], word), (word[2:], word)]  # the flag, then its value
        elif flag.startswith("--") and under in known and not _ours(flag, offered):
            out.append((under + eq + value, word))
        else:
            out.append((word, word))
    return out


def _long_with_one_hyphen(
    flag: str, known: Collection[str], offered: Callable[[str], Collection[str] | None] | None
) -> bool:
    """Whether ``flag`` is a long flag, ours or evo's, typed with one hyphen.

    ``-delta``, ``-ref``, ``-dpi``, ``-t_start`` are ``--delta``, ``--ref``, ``--dpi``,
    ``--t-start`` typed as Go's tools spell them (answered "spelled --delta here"), not
    evo's ``-d elta``, ``-r ef``, ``-d pi``, ``-t _start``.

    Examples
    --------
    >>> _long_with_one_hyphen("-delta", (), {"rpe": ["--delta"]}.get)
    True
    >>> _long_with_one_hyphen("-t_max_diff", {"--t_max_diff"}, None)
    True
    >>> _long_with_one_hyphen("-d10", {"--t_max_diff"}, {"rpe": ["--delta"]}.get)
    False
    """
    long = f"-{flag}"
    return long in known or _ours(long.replace("_", "-").lower(), offered)


def _ours(flag: str, offered: Callable[[str], Collection[str] | None] | None) -> bool:
    """Whether a command of ours has ``flag`` (looked up only for evo's flags, an error)."""
    return offered is not None and any(flag in (offered(c) or ()) for c in HOME_COMMANDS)


def evo_hint(
    argv: Sequence[str],
    command: str = "",
    offered: Callable[[str], Collection[str]] | None = None,
) -> str | None:
    r"""Return the hint for the evo flags in ``argv`` (``--flag=value`` too), or None.

    Every evo flag in ``argv`` is answered in the one hint: several of evo's alignment
    switches together (``-a -s``: ``--align sim3``) and the flags ours take together
    (``--delta_unit m --all_pairs``: ``--delta-unit m --all-pairs``), then the switches
    that take a value here, then the flags with no equivalent (``ape GT EST -va --plot
    --save_results r.zip`` was answered for ``--plot`` alone, ``-va`` and
    ``--save_results`` a try later). With ``command`` (the one typed) and ``offered``
    (a command's option strings), the answer is the command's own
    (:data:`EVO_FLAGS_BY_COMMAND`), and one whose flag the command lacks names the
    command that has it (``ape -d 1``: ``rpe --delta 1``).

    Examples
    --------
    >>> evo_hint(["REF", "EST", "--plot"])
    '--plot is a switch in evo; here: --plot FILE'
    >>> hint = evo_hint(["R", "E", "-a", "-s", "--plot", "--rerun", "--map_tile"])
    >>> print(*hint.split("; "), sep="\n")
    -a -s are evo's
    here: --align sim3
    --plot is a switch in evo
    here: --plot FILE
    --rerun --map_tile are evo's
    none here
    """
    answers = {**EVO_FLAGS, **TUM_FLAGS, **EVO_FLAGS_BY_COMMAND.get(command, {})}
    before = argv[: argv.index("--")] if "--" in argv else argv
    spelled = _spelled_from(before, offered)
    before = [word for word, _ in spelled]
    # A cluster is said as typed, once (`-vsa`, not "-s -a -v"; `-vv`, not "-v -v").
    clusters: dict[str, str] = {}
    for word, typed in spelled:
        if word != typed and not typed.startswith("--"):
            clusters.setdefault(word, typed)
    combined = _alignment(before)
    found: list[tuple[str, str]] = []  # evo's flag, ours with its value
    if combined is not None:
        found.append((" ".join(combined[0]), combined[1]))
    switches: list[str] = []
    without: list[str] = []
    notes: list[str] = []  # said last: what a file holds, why a mode has none here
    unit_typed = any(word.split("=", 1)[0] in _UNIT_FLAGS for word in before)
    fixed_typed = any(word.split("=", 1)[0] == "--fixed_delta" for word in before)
    for at, word in enumerate(before):
        flag = word.split("=", 1)[0]
        following = before[at + 1] if at + 1 < len(before) else None
        if combined is not None and word in combined[0]:
            continue
        if flag in answers:
            value = word.split("=", 1)[1] if "=" in word else following or "-"
            own = flag in EVO_FLAGS_BY_COMMAND.get(command, {})  # the command's own meaning
            homes = HOME_COMMANDS if own else _MEANT_IN.get(flag, HOME_COMMANDS)
            ours = answers[flag]
            if flag == "--max_pairs" and not fixed_typed:  # TUM's default mode
                notes.append(_tum_pairs_note(value))
                ours = answers["--fixed_delta"]
            if ours.endswith(_TUM_UNIT) and unit_typed:  # the unit typed is answered itself
                ours = ours.removesuffix(_TUM_UNIT)
            if flag in ("--transform_left", "--transform_right") and _TRANSFORM_ORDER not in notes:
                notes.append(_TRANSFORM_ORDER)
            if flag == "--scale":  # the file's matrix is said last, not typed as FILE
                notes.append(scale_file_text(value))
                value = ""
            number = ours.rpartition(" ")[2] in _NUMBERS and not _no_value(value) and value != "-"
            if number and not _is_number(value):  # `-dm` was answered `--delta m`
                typed = clusters.get(word, word)
                notes.append(
                    _not_a_number(flag, value, typed, command, offered, unit_typed=unit_typed)
                )
            found.append((flag, in_home_command(_with_value(ours, value), command, offered, homes)))
        elif word in EVO_SWITCHES and _no_value(following):
            switches.append(word)
        elif flag in EVO_WITHOUT:
            without.append(flag)
    # an alignment chosen: ours, evo's answered with ours, or evo's --no_align (none)
    aligned = any(w.split("=", 1)[0] in ("--align", "--no_align") for w in before) or any(
        o.split()[0] == "--align" for _, o in found
    )
    if command == "ape" and not aligned and any(f in _TUM_ATE for f, _ in found):
        found.append(("", "--align se3"))  # said with the flags, named by none
    said = [_found_said(found, command, clusters)] if found else []
    # evo's --plot beside --save_plot x.pdf: the answer's --plot x.pdf says both
    given = {o.split()[0] for _, o in found}
    switches = [w for w in switches if EVO_SWITCHES[w].split()[0] not in given]
    if switches:
        verb = "is a switch" if len(switches) == 1 else "are switches"
        ours = " ".join(EVO_SWITCHES[w] for w in switches)
        said.append(f"{' '.join(switches)} {verb} in evo; here: {ours}")
    if without:
        verb = "is" if len(without) == 1 else "are"
        said.append(f"{' '.join(without)} {verb} evo's; none here")
    return "; ".join([*said, *notes]) or None


def _found_said(
    found: Sequence[tuple[str, str]], command: str, typed: Mapping[str, str] | None = None
) -> str:
    """Say evo's flags ``found`` (each with ours) in one answer.

    ``typed`` gives the cluster each of evo's switches was typed in (``-a``: ``-av``),
    which is said in its place, once.
    """
    names = list(dict.fromkeys((typed or {}).get(w, w) for f, _ in found for w in f.split()))
    flags = " ".join(names)
    verb = "are" if len(names) > 1 else "is"  # -a -s, answered together
    tum = [n for n in names if n in TUM_FLAGS]
    whose = "evo's" if not tum else "TUM's" if set(names) <= {*tum, *_TUM_ALSO} else "evo's, TUM's"
    if len(found) == 1:
        said = f"{flags} {verb} {whose}; here: {found[0][1]}"
    else:  # each without its aside: one line; what needs nothing said apart, by flag
        answers = _once_each(o.split(" (", 1)[0] for _, o in found if o[:8] != "nothing:")
        # Another command's flag beside the command's own is said apart: `traj -as
        # --n_to_align 10` was told "here: --align sim3 ape --n-align 10", one line
        # that reads as an ape command.
        homed = [a for a in answers if a.split(" ", 1)[0] in HOME_COMMANDS]
        apart = []
        if homed and len(homed) < len(answers):
            answers = [a for a in answers if a not in homed]
            # without its aside too: cut for the width below, it took the idle ones along
            apart = [f"{flag}: {a}" for flag, o in found if (a := o.split(" (", 1)[0]) in homed]
        ours = " ".join(_homes_once(answers))
        idle = dict.fromkeys(
            f"{flag}: {o.removeprefix('nothing: ')}"
            for flag, o in found
            if o != o.removeprefix("nothing: ")
        )
        here = [f"here: {ours}"] if ours else []
        said = "; ".join([f"{flags} {verb} {whose}", *here, *apart, *idle])
    if len(f"ERROR: robot-msgs {command}: {said}") > WIDTH and " (" in said:
        said = said.rsplit(" (", 1)[0]  # its aside cut, as the named command's
    return said


def _once_each(answers: Iterable[str]) -> list[str]:
    """Keep one answer a flag of ours, the one with a value where one has it.

    ``ape R E -p --save_plot x.png`` was answered ``--plot FILE --plot x.png``, which,
    typed, is refused as --plot given twice.

    Examples
    --------
    >>> _once_each(["--plot FILE", "--align sim3", "--plot x.png"])
    ['--align sim3', '--plot x.png']
    >>> _once_each(["--plot FILE", "rpe --delta 1"])
    ['--plot FILE', 'rpe --delta 1']
    """
    listed = list(answers)

    def placeholder(answer: str) -> bool:
        return any(w.split(".")[0].isupper() for w in answer.split()[1:])

    def flag(answer: str) -> str:
        return next((w for w in answer.split() if w.startswith("--")), answer)

    kept = []
    for answer in listed:
        same = [a for a in listed if flag(a) == flag(answer)]
        best = next((a for a in same if not placeholder(a)), same[0])
        if answer == best and answer not in kept:
            kept.append(answer)
    return kept


def evo_words(command: str) -> frozenset[str]:
    """Return the flags :func:`evo_hint` answers after ``command``: evo's, and its switches.

    Examples
    --------
    >>> {"-va", "--plot_markers", "--plot"} <= evo_words("ape")
    True
    """
    return frozenset(
        {
            *EVO_FLAGS,
            *TUM_FLAGS,
            *EVO_FLAGS_BY_COMMAND.get(command, {}),
            *EVO_WITHOUT,
            *EVO_SWITCHES,
        }
    )


#: evo's format words (``evo_ape FORMAT ...``) -> how the format is said here.
EVO_FORMATS: dict[str, str] = {
    "tum": "[--format tum]",
    "kitti": "[--format kitti]",
    # evo's euroc mode: a EuRoC ground truth (.csv) and a TUM estimate; both detected here.
    "euroc": "(formats detected)",
    "bag": "",
    "bag2": "",
}

#: The commands whose evo twin takes the format first, with what they take instead;
#: ``doctor`` and ``drift`` take ``REF EST`` as ``ape`` does (``doctor tum a b`` was told
#: ``unrecognized arguments: b``).
EVO_COMMANDS = {
    "ape": "REF EST",
    "rpe": "REF EST",
    "traj": "FILE...",
    "doctor": "REF EST",
    "drift": "REF EST",
}


def _positionals(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """Return the words of ``argv`` that ``parser`` would take as positional arguments."""
    takes = {
        flag: action.nargs
        for action in parser._actions  # noqa: SLF001 - argparse lists them nowhere else
        for flag in action.option_strings
    }
    out: list[str] = []
    skip = 0
    for word in argv:
        if skip:
            skip -= 1
        elif word == "--":
            break
        elif word.startswith("-") and len(word) > 1 and not word[1].isdigit():
            nargs = takes.get(word.split("=", 1)[0], 1)
            if "=" not in word:
                skip = nargs if isinstance(nargs, int) else int(nargs != "?")
        else:
            out.append(word)
    return out


def _value_of(flag: str, argv: Sequence[str]) -> str | None:
    """Return the value given to ``flag`` in ``argv`` (``--ref x`` or ``--ref=x``), or None.

    Examples
    --------
    >>> _value_of("--ref", ["a", "--ref", "/gt"]), _value_of("--ref", ["--ref=/gt"])
    ('/gt', '/gt')
    >>> _value_of("--ref", ["--ref"]) is None
    True
    """
    for at, word in enumerate(argv):
        if word.startswith(f"{flag}="):
            return word.split("=", 1)[1]
        if word == flag and at + 1 < len(argv):
            return argv[at + 1]
    return None


def _names_a_bag(word: str, argv: Sequence[str]) -> bool:
    """Return whether ``word``, a REF, names a bag: by its suffix, a folder, or ``--format``.

    ``ape gt.txt --est-topic /odom`` (EST left out) was told to give gt.txt twice as a bag.

    Examples
    --------
    >>> _names_a_bag("x.MCAP", []), _names_a_bag("gt.txt", []), _names_a_bag("x", ["--format=bag"])
    (True, False, True)
    """
    given = _value_of("--ref-format", argv) or _value_of("--format", argv)
    if given is not None:
        return given in BAG_FORMATS
    return READ_SUFFIXES.get(Path(word).suffix.lower()) in BAG_FORMATS or Path(word).is_dir()


def evo_syntax_hint(
    command: str, parser: argparse.ArgumentParser, argv: Sequence[str]
) -> str | None:
    """Return the hint for evo's format-first word order in ``argv``, or None.

    ``argv`` is what follows ``command`` (one of :data:`EVO_COMMANDS`); ``parser`` is
    the command's parser (it says which flags take a value). Only a first positional
    word that is exactly one of :data:`EVO_FORMATS` and no existing file or folder is
    answered. A bag named is answered with the command to type, whole, its bag and
    topics as given (missing topics as placeholders), however wide: ``ape bag2
    nav2_turtlebot.mcap /amcl_pose /odom`` was answered ``--ref-topic T1 --est-topic T2``,
    its names dropped to fit 80 columns, as a command a refusal offers is said whole
    (``traj``'s topic of a bag). Without a bag, its words with placeholders. ``traj``
    reads each topic with a ``--topic``, and evo_traj's ``--ref`` topic is ``--ref-topic``. That
    answer typed with the bag once (``ape x.mcap --ref-topic /a --est-topic /b``, which
    argparse told only "the following arguments are required: EST") is told to give it
    twice, when the one word names a bag (:func:`_names_a_bag`).

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--align")
    >>> evo_syntax_hint("ape", parser, ["--align", "se3", "tum", "gt.txt", "e.txt"])
    "tum is evo's; here: REF EST [--format tum]"
    >>> evo_syntax_hint("ape", parser, ["bag", "x.bag", "/a", "/b"])
    "bag is evo's; here: `robot-msgs ape x.bag x.bag --ref-topic /a --est-topic /b`"
    >>> evo_syntax_hint("traj", parser, ["bag", "x.bag", "/a", "/b"])
    "bag is evo's; here: `robot-msgs traj x.bag --topic /a --topic /b`"
    >>> evo_syntax_hint("traj", parser, ["bag", "x.bag", "/b", "--ref", "/a"])
    "bag is evo's; here: `robot-msgs traj x.bag --topic /b --ref-topic /a`"
    >>> evo_syntax_hint("ape", parser, ["bag"])
    "bag is evo's; here: BAG BAG --ref-topic T1 --est-topic T2"
    >>> evo_syntax_hint("ape", parser, ["x.bag", "--est-topic", "/b"])
    "EST: a bag's two topics are REF and EST, the bag given twice: x.bag x.bag --est-topic /b"
    >>> evo_syntax_hint("ape", parser, ["gt.txt", "e.txt"]) is None
    True
    """
    if command not in EVO_COMMANDS:
        return None
    words = _positionals(parser, argv)
    est_topic, ref_topic = _value_of("--est-topic", argv), _value_of("--ref-topic", argv)
    one_bag = len(words) == 1 and _names_a_bag(words[0], argv)
    if one_bag and est_topic is not None and command != "traj":  # the hint below, typed
        flags = f"--ref-topic {ref_topic} " if ref_topic is not None else ""
        twice = f"{words[0]} {words[0]} {flags}--est-topic {est_topic}"
        return f"EST: a bag's two topics are REF and EST, the bag given twice: {twice}"
    if not words or words[0] not in EVO_FORMATS or Path(words[0]).exists():
        return None
    fmt, topics = words[0], words[2:]
    if EVO_FORMATS[fmt]:
        return f"{fmt} is evo's; here: {EVO_COMMANDS[command]} {EVO_FORMATS[fmt]}"
    ref = _value_of("--ref", argv)
    if command == "traj":  # each topic a --topic; evo_traj's bag --ref is REF's --ref-topic
        # (`bag x.bag t1 t2` was told `BAG --topic t1, then BAG --topic t2`, one run each)
        ests = [t for t in topics if t != ref]
        topic_flags = [w for t in ests or ["TOPIC"] for w in ("--topic", t)]
        topic_flags += ["--ref-topic", ref] if ref is not None else []
        bags = ["BAG"]
    else:  # the names typed, placeholders for those left out
        ref, est = (topics + ["T1", "T2"][len(topics) :])[:2]
        topic_flags, bags = ["--ref-topic", ref, "--est-topic", est], ["BAG", "BAG"]
    if len(words) < 2:  # no bag named: what to type, in words
        return f"{fmt} is evo's; here: {' '.join([*bags, *topic_flags])}"
    # The bag named: the command to type, whole, however wide (a copy-paste matters more
    # than 80 columns, as for every command a refusal offers).
    typed = shlex.join(["robot-msgs", command, *[words[1]] * len(bags), *topic_flags])
    return f"{fmt} is evo's; here: `{typed}`"
