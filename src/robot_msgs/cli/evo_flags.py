"""evo's flags, answered: each common evo flag named with the flag that does it here.

A user arriving from evo types ``-a``, ``-as``, ``-r trans_part`` or ``--t_max_diff``;
argparse would answer with the top-level usage and ``unrecognized arguments``. The
command line looks the words up here first and answers with the *command's* usage and
one line: ``-a is evo's; here: --align se3``. The flags are refused rather than taken as
aliases: several mean something else here (evo's ``--align`` and ``--plot`` are switches,
ours take a value; evo's ``-v`` is verbosity), and one spelling per option keeps the
help, the saved settings and the error wording one.

Examples
--------
>>> evo_hint(["REF", "EST", "-as", "-r", "trans_part"])
"-as is evo's; here: --align sim3"
>>> evo_hint(["--t_max_diff=0.02"])
"--t_max_diff is evo's; here: --max-diff SECONDS"
>>> evo_hint(["--align", "se3"]) is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["EVO_FLAGS", "EVO_SWITCHES", "evo_hint"]

#: evo's flag -> what to type here.
EVO_FLAGS: dict[str, str] = {
    "-a": "--align se3",
    "-as": "--align sim3",
    "-sa": "--align sim3",
    "-s": "--align scale (with -a: --align sim3)",
    "--correct_scale": "--align scale (with --align: --align sim3)",
    "--align_origin": "--align origin (with -s: --align origin_scale)",
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
    "--project_to_plane": "--project-to-plane PLANE",
    "-p": "--plot FILE (a figure file; nothing opens a window)",
    "--save_plot": "--plot FILE",
    "--plot_mode": "--plot-plane PLANE",
    "--save_results": "--save FILE.json (res reads it back)",
    "--save_as_tum": "--save FILE.tum",
    "--save_as_kitti": "--save FILE.kitti",
    "--save_as_bag": "--save FILE.bag",
    "--ref_file": "REF as the first positional argument",
    "-v": "nothing: the table is always printed",
    "--verbose": "nothing: the table is always printed",
    "-va": "--align se3 (the table is always printed)",
    "-vas": "--align sim3 (the table is always printed)",
    "--silent": "nothing: the table goes to stdout, messages to stderr",
    "--no_warnings": "nothing: warnings are one line each on stderr",
    "--use_filenames": "nothing: results are named by their files",
    "--merge": "nothing: res tables every file given",
}


#: Flags spelled alike that are switches in evo and take a value here: said when given
#: without one (last, or before another flag).
EVO_SWITCHES: dict[str, str] = {"--align": "--align se3", "--plot": "--plot FILE"}


def evo_hint(argv: Sequence[str]) -> str | None:
    """Return the hint for the first evo flag in ``argv`` (``--flag=value`` too), or None.

    Examples
    --------
    >>> evo_hint(["REF", "EST", "--plot"])
    '--plot is a switch in evo; here: --plot FILE'
    """
    for at, word in enumerate(argv):
        if word == "--":
            return None
        flag = word.split("=", 1)[0]
        if flag in EVO_FLAGS:
            return f"{flag} is evo's; here: {EVO_FLAGS[flag]}"
        following = argv[at + 1] if at + 1 < len(argv) else "-"
        if word in EVO_SWITCHES and following.startswith("-"):
            return f"{word} is a switch in evo; here: {EVO_SWITCHES[word]}"
    return None
