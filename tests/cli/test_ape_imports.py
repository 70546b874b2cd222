"""What a command imports is part of its speed: ``ape --help`` and ``ape REF EST`` stay light.

Each case runs the command in a fresh interpreter and lists ``sys.modules`` afterwards; a
heavy module on the list fails the test, so a new top-level import of one (a figure backend,
the bag readers, ``numpy.ma`` through ``numpy.median``, ``zipfile`` through the result
files) shows here before it shows in every command's start-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from robot_msgs.cli.commands import COMMANDS
from robot_msgs.io import example_path
from robot_msgs.msg.registry import MESSAGE_MODULES

if TYPE_CHECKING:
    from pathlib import Path

PROBE = """
import sys
from robot_msgs.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
open(sys.argv[1], "w").write("\\n".join(sorted(sys.modules)))
"""

#: Never imported by an evaluation that plots and saves nothing.
HEAVY = (
    "numpy.ma",  # numpy.median/percentile/unique import it on first use: 5-7 ms
    "zipfile",  # the result files and evo zips
    "json",  # --json and the saved results only
    "tempfile",  # importlib.resources: only for example: paths
    "importlib.resources",
    "concurrent.futures",  # the second parsing thread, for files of two pieces or more
    "logging",  # through concurrent.futures: 3 ms
    "scipy",
    "matplotlib",
    "plotly",
    "rosbags",
    "dask",
    "pyarrow",
    "torch",
    "robot_msgs.io.result_files",
    "robot_msgs.io.bag",
    "robot_msgs.io.bag_messages",
    "robot_msgs.report.figures",
    # The ROS message families: a trajectory file becomes a PoseTrajectory without them
    # (trajectory/pose.py imports them only to convert to and from PoseStamped and Path).
    "robot_msgs.geometry",
    "robot_msgs.std",
    "robot_msgs.nav",
    "robot_msgs.trajectory.joint",
)

#: Also never imported to print a command's help: no reader, no trajectory, no result, and
#: no settings class (the flags come from their generated table, cli/_settings_flags_table.py):
#: so no msgspec, no message base, no NumPy.
HEAVY_FOR_HELP = (
    *HEAVY,
    "numpy",
    "msgspec",
    "robot_msgs.msg",
    "robot_msgs.flags",
    "robot_msgs.evaluation.settings",
    "robot_msgs.evaluation.read_settings",
    "robot_msgs.evaluation.relations",
    "robot_msgs.cli._evaluation_output",
    "dataclasses",  # with inspect, ast, dis: robot_msgs.limits is a NamedTuple for this
    "traceback",  # only for a bug (cli/_boundary.py)
    "ast",  # only to read a value a message names (cli/_flag_text.flags_in_text)
    "robot_msgs.io.detect",
    "robot_msgs.io.table",
    "robot_msgs.io.tum",
    "robot_msgs.trajectory",
    "robot_msgs.compare",
    "robot_msgs.evaluation.entry",
)


def _imported(tmp_path: Path, *argv: str) -> set[str]:
    listing = tmp_path / "modules.txt"
    subprocess.run(  # noqa: S603 - our own interpreter and arguments
        [sys.executable, "-c", PROBE, str(listing), *argv],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return set(listing.read_text().split())


def _heavy(modules: set[str], heavy: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy))


@pytest.mark.parametrize(
    "command", ["ape", "rpe", "track", "drift", "doctor", "report", "bench", "traj"]
)
def test_help_imports_no_reader_no_result_and_no_heavy_library(
    tmp_path: Path, command: str
) -> None:
    modules = _imported(tmp_path, command, "--help")
    assert "robot_msgs.cli._settings_flags_table" in modules  # the flags, from the table
    assert _heavy(modules, HEAVY_FOR_HELP) == LISTED_FOR_HELP.get(command, [])


#: What a command's help lists, imported for it: doctor's kinds of finding (their module
#: holds the dict alone; robot_msgs.compare's face imports nothing).
LISTED_FOR_HELP = {"doctor": ["robot_msgs.compare", "robot_msgs.compare.finding_kinds"]}


#: Also never imported by ``docs --help``: the reference pages' builder, which imports
#: every message family (0.29 s of ``docs --help`` against 0.07 s of ``robot-msgs --help``).
HEAVY_FOR_DOCS_HELP = (*HEAVY_FOR_HELP, "robot_msgs.docs")


def test_docs_help_imports_no_message_family(tmp_path: Path) -> None:
    modules = _imported(tmp_path, "docs", "--help")
    assert "robot_msgs.cli.docs" in modules  # its parser was built
    assert _heavy(modules, HEAVY_FOR_DOCS_HELP) == []


@pytest.mark.parametrize("align", ["none", "se3"])
@pytest.mark.parametrize("paths", ["plain", "example:"])
def test_ape_imports_no_heavy_library(tmp_path: Path, align: str, paths: str) -> None:
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    if paths == "plain":
        ref, est = str(example_path(ref)), str(example_path(est))
    modules = _imported(tmp_path, "ape", ref, est, "--align", align)
    assert "robot_msgs.evaluation.entry" in modules  # it did evaluate
    assert _heavy(modules, HEAVY) == []


#: Prints the BLAS thread variables ``main`` leaves, as NumPy (imported after it) reads them.
BLAS_PROBE = """
import os, sys
from robot_msgs.cli import main
if sys.argv[1] == "numpy first":
    import numpy
try:
    main(["--version"])
except SystemExit:
    pass
print(os.environ.get("OPENBLAS_NUM_THREADS"), os.environ.get("MKL_NUM_THREADS"))
"""

_THREAD_VARIABLES = (
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "GOTO_NUM_THREADS",
    "OMP_NUM_THREADS",
)


@pytest.mark.parametrize(
    ("given", "order", "expected"),
    [
        ({}, "main first", "1 1"),  # nothing chosen: BLAS on one thread
        ({"OMP_NUM_THREADS": "3"}, "main first", "None None"),  # the user's choice is kept
        ({"OPENBLAS_NUM_THREADS": "2"}, "main first", "2 None"),
        ({}, "numpy first", "None None"),  # too late to matter: the environment is left as it is
    ],
)
def test_a_command_runs_blas_on_one_thread_unless_the_user_chose(
    given: dict[str, str], order: str, expected: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in _THREAD_VARIABLES} | given
    done = subprocess.run(  # noqa: S603 - our own interpreter and arguments
        [sys.executable, "-c", BLAS_PROBE, order],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.stdout.split("\n")[-2] == expected


def test_traj_summary_imports_no_heavy_library(tmp_path: Path) -> None:
    # Its median step once took numpy.median, and numpy.ma with it (12-27 ms).
    ref = str(example_path("example:fr1_xyz/groundtruth.tum"))
    est = str(example_path("example:fr1_xyz/rgbdslam.tum"))
    modules = _imported(tmp_path, "traj", ref, est)
    assert "robot_msgs.cli.traj" in modules  # it did run
    assert _heavy(modules, HEAVY_FOR_SUMMARY) == []


#: Also never imported to summarise files (traj without --ref or a time range): the
#: evaluation's pipeline, and the association, alignment and offset search it imports
#: (21 modules; 0.193 s of CPU against 0.173 s for `traj` of fr1_xyz's two files).
HEAVY_FOR_SUMMARY = (
    *HEAVY,
    "robot_msgs.evaluation.pipeline",
    "robot_msgs.evaluation.association",
    "robot_msgs.evaluation.alignment",
    "robot_msgs.evaluation.offset",
    "robot_msgs.evaluation.hand_eye",
    "robot_msgs.compare.time_offset",
)


@pytest.mark.parametrize("evo", [["-a"], ["-as"], ["-r", "trans_part"], ["--t_max_diff", "0.1"]])
def test_an_evo_flag_is_answered_from_its_own_command_alone(tmp_path: Path, evo: list[str]) -> None:
    # `ape REF EST -a se3` built every command's parser (0.13 s of CPU against 0.09 s)
    # to look for other commands' flags among no unknown flag at all.
    ref = str(example_path("example:fr1_xyz/groundtruth.tum"))
    est = str(example_path("example:fr1_xyz/rgbdslam.tum"))
    modules = _imported(tmp_path, "ape", ref, est, *evo)
    assert "robot_msgs.cli.ape" in modules  # its parser was built
    others = sorted(m for m in modules if m.startswith("robot_msgs.cli.") and m[15:] in COMMANDS)
    assert others == ["robot_msgs.cli.ape"]


def test_schema_of_one_type_imports_its_family_alone(tmp_path: Path) -> None:
    # `schema geometry/Pose` imported all 36 modules of message types (~130 ms of 0.4 s)
    # to look up one; geometry's own imports bring std (Header).
    modules = _imported(tmp_path, "schema", "geometry/Pose")
    assert "robot_msgs.msg.json_schema" in modules  # it did print the schema
    families = sorted(m for m in MESSAGE_MODULES if m in modules)
    assert families == ["robot_msgs.geometry", "robot_msgs.std"]


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_a_bag_that_defines_its_types_imports_no_type_store(tmp_path: Path, suffix: str) -> None:
    # Every bag opened imported rosbags' latest ROS 2 type store, and with it every
    # distribution's module of types, dashing to kilted (60 ms of `ape` on an MCAP file,
    # 0.30 s): only a bag whose connections define no type reads it.
    pytest.importorskip("rosbags")
    from robot_msgs.io import read_trajectory, write_trajectory_bag

    bag = tmp_path / f"gt{suffix}"
    write_trajectory_bag(bag, read_trajectory("example:fr1_xyz/groundtruth.tum"), topic="/gt")
    modules = _imported(
        tmp_path, "ape", str(bag), str(bag), "--ref-topic", "/gt", "--est-topic", "/gt"
    )
    assert "robot_msgs.io.bag" in modules  # it did read the bag
    stores = sorted(m for m in modules if m.startswith("rosbags.typesys.stores.ros"))
    assert stores == []


#: Lists the commands each parser built while ``main`` ran was built for.
PARSERS_PROBE = """
import sys
import robot_msgs.cli as cli
built = []
build = cli.build_parser
def counted(command=None):
    built.append(command)
    return build(command)
cli.build_parser = counted
try:
    cli.main(sys.argv[2:])
except SystemExit:
    pass
open(sys.argv[1], "w").write(repr(built))
"""


@pytest.mark.parametrize("command", ["ape", "traj"])
def test_a_command_line_without_a_mistake_builds_one_parser(tmp_path: Path, command: str) -> None:
    # The answer to flags typed with a typographic dash (`—align`) built two more parsers
    # of the command (its options, its valued flags) for every command line, dash or not.
    listing = tmp_path / "parsers.txt"
    ref = str(example_path("example:fr1_xyz/groundtruth.tum"))
    est = str(example_path("example:fr1_xyz/rgbdslam.tum"))
    subprocess.run(  # noqa: S603 - our own interpreter and arguments
        [sys.executable, "-c", PARSERS_PROBE, str(listing), command, ref, est],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert listing.read_text() == repr([command])
