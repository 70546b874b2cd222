"""A catalogue of bad inputs to ``ape``, ``rpe``, ``drift``, ``report``, ``bench`` and ``docs``.

The companion of ``test_bad_inputs.py`` (files handed to ``robot-msgs traj``): here the
flags that do not go together, outputs that cannot be written as asked, manifests and
run folders with a mistake, degenerate data and a sweep in which every run fails. Each
case is a folder of files and a command run in it, in this process. It must exit as
stated (1 for an error, 2 for a flag's value refused) with, on standard error, exactly the ``WARNING:`` lines it lists
and at most one ``ERROR:`` line, which names the place (file, line, key, field or flag);
no traceback. Nothing may be left behind but what the case says the command writes: no
partial, temporary or clobbered file, links still links to the same target, FIFOs still
FIFOs.
"""

from __future__ import annotations

import math
import os
import re
import socket
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from robot_msgs.cli import main
from tests.acceptance.test_bad_inputs import CASES as TRAJ_CASES

if TYPE_CHECKING:
    from collections.abc import Iterator


@dataclass(frozen=True)
class Link:
    """A symbolic link to ``target`` (relative to the link's folder)."""

    target: str


@dataclass(frozen=True)
class Fifo:
    """A named pipe."""


Content = str | bytes | None | Link | Fifo  # None: a folder


def _tum(stamps: list[float], z: float = 0.0) -> str:
    """A TUM file of a planar curve (x = t, y = sin t) at height ``z``, identity rotations."""
    rows = "".join(f"{t!r} {t!r} {math.sin(t)!r} {z!r} 0 0 0 1\n" for t in stamps)
    return "# timestamp tx ty tz qx qy qz qw\n" + rows


T = [0.1 * k for k in range(101)]  # 10 s at 10 Hz: a 12.25 m path
REF = _tum(T)
EST = _tum(T, z=0.01)
LATE = _tum([t + 1000.0 for t in T])  # the same motion, 1000 s later on its clock
ONE = _tum([2.0])
ONE_POSE = (
    r"^one\.tum: 1 pose only \(time span 0 s, no rate\): nothing to evaluate; check that the "
    r"file holds the whole trajectory$"
)
KITTI = "".join(f"1 0 0 {t!r} 0 1 0 0 0 0 1 0\n" for t in T)  # the same x = t, no times file
SWAPPED = (
    r"^groundtruth\.tum, an EST, is named as ground truth and REF est\.tum is not: REF \(the "
    r"reference\) comes first, REF EST; evaluated as given \(--not-swapped silences this\)$"
)
SAME = "".join("7.0 0 0 0 0 0 0 1\n" for _ in range(200))  # 200 rows, one stamp


def _runs(root: str = "runs", estimate: str | None = None, trials: int = 2) -> dict[str, Content]:
    """A folder of runs by the convention: ROOT/MH_01/reference.tum, ROOT/orb/MH_01/K/."""
    files: dict[str, Content] = {f"{root}/MH_01/reference.tum": _tum(T[:30])}
    for trial in range(1, trials + 1):
        text = estimate if estimate is not None else _tum(T[:30], z=0.05 * trial)
        files[f"{root}/orb/MH_01/{trial}/estimate.tum"] = text
    return files


def _manifest(text: str, **extra: Content) -> dict[str, Content]:
    """``runs.toml`` with ``text``, beside the runs of :func:`_runs`."""
    return {**_runs(), "runs.toml": text, **extra}


RUN1 = "runs/orb/MH_01/1"
TIMING = "frame,acquisition_s,processing_start_s,available_s\n0,0.0,0.01,0.02\n"


@dataclass(frozen=True)
class Case:
    """Files to make, a command run among them, and what it must answer."""

    name: str
    files: dict[str, Content]
    args: list[str]
    error: str = ""  # the one ERROR line must match this (after "ERROR: "); "" for none
    warnings: tuple[str, ...] = ()  # the WARNING lines, in order (after "WARNING: ")
    code: int = 1
    keep: tuple[str, ...] = ()  # files that must be unchanged afterwards
    made: tuple[str, ...] = ()  # glob patterns of the files the command may write
    stdout: str = ""  # standard output must match this
    needs: str = ""  # a module the case needs (the Dask cases)


SERIAL = ["--serial", "--quiet"]
SWEEP_OUTPUTS = (
    "out",
    "out/runs",
    "out/runs/??",
    "out/runs/??/*.json",
    "out/*.json",
    "out/results.*",
)

CASES = [
    # -- ape: flags that do not go together, each named
    Case("ape-n-align-without-align", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--n-align", "10"],
         error=r"^--n-align 10: expected an alignment method to fit on these poses \(--align se3, "
               r"--align sim3\.\.\.\), not --align none, got int 10$", code=2),
    Case("ape-t-start-after-t-end", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--t-start", "5", "--t-end", "2"],
         error=r"^--t-end 2: expected an end at or after the start \(5\.0 s\)", code=2),
    Case("ape-align-window-reversed", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--align", "se3", "--align-window", "5", "2"],
         error=r"^--align-window 5 2: expected \(start, end\) seconds with start <= end", code=2),
    Case("ape-align-window-without-poses", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--align", "se3", "--align-window", "100", "200"],
         error=r"alignment window 100\.000000 \.\. 200\.000000 s \(--align-window\) holds none "
         r"of the matched estimate's stamps"),
    Case("ape-t-start-after-the-reference", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--t-start", "100"],
         error=r"No pose of the reference in the time range 100\.000000 \.\. inf s .*--t-start"),
    # KITTI files read with evo's habit of naming the format: the rows' 12 columns were said,
    # not that they are KITTI's (a newcomer's walk).
    Case("ape-kitti-files-with-format-tum", {"gt.txt": KITTI, "est.txt": KITTI},
         ["ape", "gt.txt", "est.txt", "--format", "tum"],
         error=r"^gt\.txt, line 1: expected 8 columns \(t x y z qx qy qz qw\), got 12; it reads "
         r"as kitti \(12 space-separated columns\): choose --ref-format kitti or leave the "
         r"format to detection$"),
    # REF and EST swapped, evo's order forgotten: evaluated as given (se3 APE is the same
    # either way; sim3's scale, RPE's pairs and --t-start's clock are not), and said once.
    Case("ape-ground-truth-given-as-the-estimate", {"est.tum": EST, "groundtruth.tum": REF},
         ["ape", "est.tum", "groundtruth.tum"],
         warnings=(SWAPPED,),
         code=0, stdout=r"reference: est\.tum\nestimate:  groundtruth\.tum\n"),
    Case("rpe-estimate-named-data-in-a-ground-truth-folder",
         {"ref.tum": REF, "gt/data.tum": EST}, ["rpe", "ref.tum", "gt/data.tum"],
         warnings=(r"^gt/data\.tum, an EST, is named as ground truth and REF ref\.tum is not",),
         code=0),
    Case("rpe-estimate-numbered-in-a-ground-truth-folder",
         {"results/00.tum": REF, "gt/00.tum": EST}, ["rpe", "results/00.tum", "gt/00.tum"],
         warnings=(r"^gt/00\.tum, an EST, is named as ground truth and REF results/00\.tum",),
         code=0),
    Case("ape-force-without-output", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--force"],
         error=r"^--force only goes with --save, --save-aligned or --plot FILE", code=2),
    # --plot-plane and --dpi set --plot's figure: alone they were ignored in silence (a review).
    Case("ape-plot-plane-without-plot", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--plot-plane", "xy"],
         error=r"^--plot-plane sets the trajectory view of --plot's figure; give --plot FILE "
         r"too$", code=2),
    Case("rpe-dpi-without-plot", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--dpi", "300"],
         error=r"^--dpi sets the PNG resolution of --plot's figure; give --plot FILE too$",
         code=2),
    # -- ape: outputs, checked before anything is read; nothing clobbered
    Case("ape-save-and-save-aligned-one-path", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--save", "x.json", "--save-aligned", "x.json",
          "--to", "tum"],
         error=r"^--save x\.json and --save-aligned x\.json are the same file .*; give each "
         r"output its own path", code=2),
    Case("ape-save-as-an-image", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--save", "x.png"],
         error=r"^x\.png: a result is saved as \.json, \.npz or \.parquet, not '\.png'"),
    Case("ape-save-into-a-missing-folder", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--save", "no/x.json"],
         error=r"^no/x\.json: cannot write it: the folder .*/no does not exist"),
    Case("ape-save-below-a-file", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--save", "est.tum/x.json", "--force"],
         error=r"^--save est\.tum/x\.json: cannot write it: .*est\.tum is a file, not a folder",
         keep=("est.tum",)),
    Case("ape-save-exists", {"ref.tum": REF, "est.tum": EST, "out.json": "keep\n"},
         ["ape", "ref.tum", "est.tum", "--save", "out.json"],
         error=r"^out\.json exists; pass --force to overwrite it", keep=("out.json",)),
    Case("ape-save-bad-input-with-force", {"ref.tum": REF, "est.tum": SAME, "out.json": "keep\n"},
         ["ape", "ref.tum", "est.tum", "--save", "out.json", "--force"],
         error=r"^est\.tum: 199 row\(s\) repeat an earlier stamp", keep=("out.json",)),
    Case("ape-save-through-a-link-to-a-file",
         {"ref.tum": REF, "est.tum": EST, "kept.json": "keep\n", "link.json": Link("kept.json")},
         ["ape", "ref.tum", "est.tum", "--save", "link.json"],
         error=r"^link\.json exists; pass --force to overwrite it", keep=("kept.json",)),
    Case("ape-save-to-a-link-to-a-folder",
         {"ref.tum": REF, "est.tum": EST, "dir": None, "link": Link("dir")},
         ["ape", "ref.tum", "est.tum", "--save", "link", "--force"],
         error=r"^--save link: is a directory: refusing to write it; give the path of a file"),
    Case("ape-save-and-plot-one-file-through-a-link",
         {"ref.tum": REF, "est.tum": EST, "link.png": Link("out.json")},
         ["ape", "ref.tum", "est.tum", "--save", "out.json", "--plot", "link.png"],
         error=r"^--save out\.json and --plot link\.png are the same file", code=2),
    Case("ape-save-and-plot-one-fifo", {"ref.tum": REF, "est.tum": EST, "pipe": Fifo()},
         ["ape", "ref.tum", "est.tum", "--save", "pipe", "--plot", "pipe"],
         error=r"^--save pipe and --plot pipe are the same file", code=2),
    Case("ape-save-to-stdout-with-json", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--save", "-", "--json"],
         error=r"^--json and --save - both write to standard output; give --save a file", code=2),
    Case("ape-plot-not-a-figure-format", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--plot", "figure.jpg"],
         error=r"^--plot figure\.jpg: expected a file name ending in \.png, \.pdf, \.svg or \.eps"),
    # -- ape: degenerate data
    Case("ape-no-overlap-in-time", {"ref.tum": REF, "late.tum": LATE},
         ["ape", "ref.tum", "late.tum"],
         error=r"^late\.tum: No pose pairs found .*The time spans do not overlap.*the offset \(--offset SECONDS\) is "
         r"-1000\.0+ s if both recordings started together"),
    Case("ape-identical-stamps", {"ref.tum": REF, "est.tum": SAME},
         ["ape", "ref.tum", "est.tum"],
         error=r"^est\.tum: 199 row\(s\) repeat an earlier stamp .*would leave 1 pose of 200 "
         r"rows \(fewer than 2\)"),
    Case("ape-one-pose", {"ref.tum": REF, "one.tum": ONE}, ["ape", "ref.tum", "one.tum"],
         warnings=(ONE_POSE,),
         code=0, stdout=r"estimate 1, matched 1, .*\ntranslation +m +1 +0 "),
    Case("ape-one-pose-aligned", {"ref.tum": REF, "one.tum": ONE},
         ["ape", "ref.tum", "one.tum", "--align", "se3"],
         warnings=(r"^one\.tum: 1 pose only",),
         error=r"^one\.tum: Cannot fit an alignment on 1 pose: .*several poses.*use --align origin"),
    # -- rpe
    Case("rpe-negative-delta", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--delta", "-1"],
         error=r"^--delta -1: expected float > 0, got float -1\.0$", code=2),
    Case("rpe-delta-tolerance-10000-percent", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--delta", "1", "--delta-unit", "s", "--delta-tol", "100"],
         error=r"^--delta-tol 100: expected float >= 0 and < 1", code=2),
    Case("rpe-delta-tolerance-without-effect", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--delta-tol", "0.5"],
         error=r"^--delta-tol 0\.5: expected no tolerance \(it is the tolerance of seconds deltas", code=2),
    Case("rpe-fraction-of-a-frame", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--delta", "1.5"],
         error=r"^--delta 1\.5: expected a whole number of frames", code=2),
    Case("rpe-angle-over-half-a-turn", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--delta", "200", "--delta-unit", "deg"],
         error=r"^--delta 200: expected a rotation of at most 180 deg", code=2),
    Case("rpe-max-gap-without-interpolation", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--max-gap", "1"],
         error=r"^--max-gap 1: expected --sync interpolate or --sync interpolate-estimate "
               r"\(only they bridge gaps; --sync nearest does not\), got float 1\.0$", code=2),
    Case("ape-max-distance-without-spatial", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--max-distance", "0.5"],
         error=r"^--max-distance 0\.5: expected --sync spatial \(the distance of a spatial "
               r"match; --sync nearest matches in time\), got float 0\.5$", code=2),
    Case("ape-offset-search-without-auto", {"ref.tum": REF, "est.tum": EST},
         ["ape", "ref.tum", "est.tum", "--offset-search", "1"],
         error=r"^--offset-search 1: expected --offset auto: the range of the offset search", code=2),
    Case("rpe-delta-longer-than-the-run", {"ref.tum": REF, "est.tum": EST},
         ["rpe", "ref.tum", "est.tum", "--delta", "1000", "--delta-unit", "s"],
         error=r"^--delta 1000: est\.tum: delta = 1000 s gave no pose pair among the 101 matched poses of "
         r"the estimate \(duration 10 s, path 12\.2511 m\): use a smaller delta$", code=2),
    Case("rpe-one-pose", {"ref.tum": REF, "one.tum": ONE}, ["rpe", "ref.tum", "one.tum"],
         warnings=(r"^one\.tum: 1 pose only",),
         error=r"^one\.tum: no pose pair: the estimate has 1 matched pose; a relative pose error "
               r"needs at least 2$"),
    Case("rpe-save-exists", {"ref.tum": REF, "est.tum": EST, "out.json": "keep\n"},
         ["rpe", "ref.tum", "est.tum", "--save", "out.json"],
         error=r"^out\.json exists; pass --force", keep=("out.json",)),
    # -- drift
    Case("drift-path-shorter-than-every-segment", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum"],
         error=r"^est\.tum: No KITTI segment fits: the matched reference path is 12\.2511 m, not longer "
         r"than any segment length .*\(--lengths\)$"),
    Case("drift-rpg-no-segment-fits", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--protocol", "rpg", "--lengths", "20"],
         error=r"^--lengths 20: est\.tum: No rpg segment fits: .*choose shorter lengths \(--lengths\)", code=2),
    Case("drift-step-zero", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--lengths", "2", "--step", "0"],
         error=r"^--step 0: expected int >= 1 and <= 1000000000, got int 0$", code=2),
    Case("drift-negative-length", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--lengths", "2,-5"],
         error=r"^--lengths 2,-5: expected float >= 0\.001, got float -5\.0$", code=2),
    Case("drift-length-twice", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--lengths", "1,2,1"],
         error=r"^--lengths 1,2,1: expected distinct segment lengths \(1 m twice\)", code=2),
    Case("drift-zero-fraction", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--protocol", "rpg", "--fractions", "0,0.1"],
         error=r"^--fractions 0,0\.1: expected float > 0, got float 0\.0$", code=2),
    Case("drift-fractions-with-kitti", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--fractions", "0.1"],
         error=r"^--fractions 0\.1: expected protocol 'rpg' \(kitti takes lengths in metres\)", code=2),
    Case("drift-step-with-rpg", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--protocol", "rpg", "--step", "5"],
         error=r"^--step 5: expected protocol 'kitti' \(rpg starts a segment at every frame\)", code=2),
    Case("drift-fractions-and-lengths", {"ref.tum": REF, "est.tum": EST},
         ["drift", "ref.tum", "est.tum", "--protocol", "rpg", "--fractions", "0.1",
          "--lengths", "2"],
         error=r"^--fractions 0\.1: expected lengths or fractions, not both", code=2),
    Case("drift-no-overlap-in-time", {"ref.tum": REF, "late.tum": LATE},
         ["drift", "ref.tum", "late.tum", "--lengths", "2"],
         error=r"The time spans do not overlap.*\(--offset SECONDS\)"),
    # -- report: manifests and run folders
    Case("report-unknown-settings-key", _manifest('[settings]\nstatistc = "max"\n'
                                                  '[[folders]]\nroot = "runs"\n'),
         ["report", "runs.toml"],
         error=r"^runs\.toml \[settings\]: unknown key `statistc`; expected one of .*statistic"),
    Case("report-per-run-alignment", _manifest(f'[[runs]]\npath = "{RUN1}"\nalign = "se3"\n'),
         ["report", "runs.toml"],
         error=r"^runs\.toml \[\[runs\]\] #1: a per-run `align` is refused"),
    # A missing run folder is its run's failure (the others are evaluated), as in bench;
    # the entry is named once.
    Case("report-missing-run-folder", _manifest('[[runs]]\npath = "runs/orb/MH_01/9"\n'),
         ["report", "runs.toml"],
         error=r"^run runs/orb/MH_01/9: runs\.toml \[\[runs\]\] #1: "
         r"`path` .*runs/orb/MH_01/9 is not a run folder \(no such directory\); --allow-partial "
         r"reports the others$"),
    Case("report-invalid-toml", _manifest("[[runs]\n"), ["report", "runs.toml"],
         error=r"^runs\.toml: invalid TOML: .*\(at line 1, column 7\)"),
    Case("report-no-such-input", {}, ["report", "nothing"],
         error=r"^nothing: no such manifest file, run folder or folder of runs"),
    Case("report-meta-unknown-key", {**_runs(), f"{RUN1}/meta.json": '{"sequense": "MH_01"}'},
         ["report", "runs"],
         error=rf"{RUN1}/meta\.json: unknown key `sequense`; expected one of algorithm"),
    Case("report-meta-with-a-byte-order-mark-and-an-unknown-key",
         {**_runs(), f"{RUN1}/meta.json": '\ufeff{"algoritm": "orb"}'}, ["report", "runs"],
         error=rf"{RUN1}/meta\.json: unknown key `algoritm`"),
    Case("report-meta-invalid-json", {**_runs(), f"{RUN1}/meta.json": '{"algorithm": "orb",}'},
         ["report", "runs"],
         error=rf"{RUN1}/meta\.json:1:21: expected JSON, got Expecting property name"),
    Case("report-timing-bad-line", {**_runs(), f"{RUN1}/timing.csv": TIMING + "1,0.1,x,0.12\n"},
         ["report", "runs"],
         error=rf"{RUN1}/timing\.csv:3: column `processing_start_s`: expected a number, got 'x'"),
    Case("report-identical-stamps", _runs(estimate=SAME, trials=1), ["report", "runs"],
         error=r"runs/orb/MH_01/1/estimate\.tum: 199 row\(s\) repeat an earlier stamp"),
    Case("report-n-align-without-align", _runs(),
         ["report", "runs", "--align", "none", "--n-align", "5"],
         error=r"^--n-align 5: expected an alignment method to fit on these poses", code=2),
    Case("report-negative-rpe-delta", _runs(), ["report", "runs", "--rpe-delta", "-1"],
         error=r"^--rpe-delta -1: expected float > 0, got float -1\.0", code=2),
    # -- report: outputs
    Case("report-csv-and-json-one-path", _runs(),
         ["report", "runs", "--csv", "r.csv", "--json", "r.csv"],
         error=r"^--json r\.csv and --csv r\.csv are the same file", code=2),
    Case("report-csv-and-json-one-fifo", {**_runs(), "pipe": Fifo()},
         ["report", "runs", "--csv", "pipe", "--json", "pipe"],
         error=r"^--json pipe and --csv pipe are the same file", code=2),
    Case("report-output-exists", {**_runs(), "r.csv": "keep\n"},
         ["report", "runs", "--csv", "r.csv"],
         error=r"^r\.csv exists; pass --force to overwrite it", keep=("r.csv",)),
    Case("report-output-into-a-missing-folder", _runs(),
         ["report", "runs", "--json", "no/r.json"],
         error=r"^no/r\.json: cannot write it: the folder .*/no does not exist"),
    Case("report-force-without-output", _runs(), ["report", "runs", "--force"],
         error=r"^--force only goes with an output \(--html, --json, --csv, --latex", code=2),
    # -- bench
    Case("bench-negative-delta-in-the-manifest",
         _manifest('[[settings.evaluate]]\nmetric = "rpe"\ndelta = -1.0\n'
                   '[[folders]]\nroot = "runs"\n'),
         ["bench", "runs.toml", "--out", "out", *SERIAL],
         error=r"^runs\.toml \[settings\] evaluate\[0\]: `delta`: expected float > 0"),
    Case("bench-missing-run-folder", _manifest('[[runs]]\npath = "runs/orb/MH_01/9"\n'),
         ["bench", "runs.toml", "--out", "out", *SERIAL],
         error=r"^1 of 1 run did not finish \(1 failed to evaluate, 0 not evaluated\): "
         r"runs/orb/MH_01/9: FormatError: runs\.toml \[\[runs\]\] #1: `path` .* is not a run "
         r"folder \(no such directory\); --allow-partial accepts a partial sweep$",
         made=SWEEP_OUTPUTS,
         stdout=r"^1 run: 0 evaluated \(0 succeeded\), 1 failed to evaluate, 0 not evaluated;"),
    Case("bench-out-is-a-file", {**_runs(), "out": "keep\n"},
         ["bench", "runs", "--out", "out", *SERIAL],
         error=r"^--out out: is a file, not a folder", keep=("out",)),
    Case("bench-out-below-a-file", {**_runs(), "out": "keep\n"},
         ["bench", "runs", "--out", "out/sweep", *SERIAL],
         error=r"^--out out/sweep: cannot create the folder: .*/out is a file", keep=("out",)),
    Case("bench-existing-results", {**_runs(), "out/summary.json": "{}\n"},
         ["bench", "runs", "--out", "out", *SERIAL],
         error=r"^out already holds a sweep's results \(summary\.json\): pass --resume",
         keep=("out/summary.json",)),
    Case("bench-zero-workers", _runs(), ["bench", "runs", "--out", "out", "--workers", "0"],
         error=r"^--workers 0: expected a count of workers from 1 to \d+, got 0$", code=2),
    Case("bench-negative-retries", _runs(), ["bench", "runs", "--out", "out", "--retries", "-1"],
         error=r"^--retries -1: expected a count of retries from 0 to 100, got -1$", code=2),
    Case("bench-workers-with-serial", _runs(),
         ["bench", "runs", "--out", "out", "--workers", "2", *SERIAL],
         error=r"^--workers 2: has no effect, as --serial evaluates in this process", code=2),
    Case("bench-dashboard-without-dask", _runs(),
         ["bench", "runs", "--out", "out", "--dashboard", *SERIAL],
         error=r"^--dashboard serves the dashboard of the LocalCluster --dask starts", code=2),
    Case("bench-scheduler-not-an-address", _runs(),
         ["bench", "runs", "--out", "out", "--scheduler", "notanaddress"],
         error=r"^Expected a Dask scheduler address .*\(--scheduler; .*got 'notanaddress': no port"),
    Case("bench-scheduler-unknown-scheme", _runs(),
         ["bench", "runs", "--out", "out", "--scheduler", "http://head:8786"],
         error=r"\(--scheduler; .*got 'http://head:8786': unknown scheme 'http'"),
    Case("bench-scheduler-port-out-of-range", _runs(),
         ["bench", "runs", "--out", "out", "--scheduler", "tcp://head:99999"],
         error=r"\(--scheduler; .*port '99999' is not a number from 1 to 65535"),
    Case("bench-scheduler-ipv6-without-brackets", _runs(),
         ["bench", "runs", "--out", "out", "--scheduler", "tcp://::1:8786"],
         error=r"\(--scheduler; .*an IPv6 host goes in brackets, as tcp://\[::1\]:8786"),
    Case("bench-scheduler-nothing-listening", _runs(),
         ["bench", "runs", "--out", "out", "--scheduler", "tcp://127.0.0.1:{closed_port}"],
         error=r"^cannot reach the Dask scheduler at tcp://127\.0\.0\.1:\d+: Connection refused",
         needs="distributed"),
    Case("bench-every-run-fails",
         {**_runs(estimate="0.0 1 2 3 0 0 0 1\n0.1 1 2 oops 0 0 0 1\n"),
          f"{RUN1}/timing.csv": TIMING},
         ["bench", "runs", "--out", "out", *SERIAL],
         error=r"^2 of 2 runs did not finish \(2 failed to evaluate, 0 not evaluated\): orb/MH_01/1: "
         r"FormatError: .*runs/orb/MH_01/1/estimate\.tum, line 2, column 4 \(z\): 'oops' is not a "
         r"number .*\(and 1 more: see above\); --allow-partial accepts a partial sweep$",
         made=SWEEP_OUTPUTS,
         stdout=r"^2 runs: 0 evaluated \(0 succeeded\), 2 failed to evaluate, 0 not evaluated;\s+0\s+reused"),
    # -- docs
    Case("docs-out-is-a-file", {"ref": "keep\n"}, ["docs", "--out", "ref"],
         error=r"^--out ref: is a file, not a folder", keep=("ref",)),
    Case("docs-out-below-a-file", {"ref": "keep\n"}, ["docs", "--out", "ref/html"],
         error=r"^--out ref/html: cannot create the folder: .*/ref is a file", keep=("ref",)),
    Case("docs-pages-exist", {"ref/index.html": "keep\n"}, ["docs", "--out", "ref"],
         error=r"^ref already holds reference pages \(ref/index\.html\); pass --force",
         keep=("ref/index.html",)),
]  # fmt: skip


def _make(root: Path, files: dict[str, Content]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir()
        elif isinstance(content, Link):
            path.symlink_to(content.target)
        elif isinstance(content, Fifo):
            os.mkfifo(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _walk(root: Path) -> Iterator[Path]:
    """Every entry under ``root``, hidden ones too; links are listed, not followed."""
    for entry in sorted(root.iterdir()):
        yield entry
        if entry.is_dir() and not entry.is_symlink():
            yield from _walk(entry)


def _state(root: Path) -> dict[str, str]:
    """What each entry is: a file's bytes, a link's target, a folder, a FIFO."""
    out = {}
    for entry in _walk(root):
        name = entry.relative_to(root).as_posix()
        mode = entry.lstat().st_mode
        if stat.S_ISLNK(mode):
            out[name] = f"link to {entry.readlink()}"
        elif stat.S_ISFIFO(mode):
            out[name] = "fifo"
        elif stat.S_ISDIR(mode):
            out[name] = "folder"
        else:
            out[name] = entry.read_bytes().hex()
    return out


def _closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_the_catalogues_hold_at_least_sixty_distinct_bad_inputs() -> None:
    names = [c.name for c in CASES] + [c.name for c in TRAJ_CASES]
    assert len(CASES) >= 25
    assert len(set(names)) == len(names) >= 60
    commands = {c.args[0] for c in CASES}
    assert commands == {"ape", "rpe", "drift", "report", "bench", "docs"}
    assert all(c.error or (c.warnings and c.code == 0) for c in CASES)


@pytest.mark.parametrize(
    ("est", "flags"),
    [
        ("gt_runs/est.tum", []),  # a folder of runs (a review)
        ("gt_runs/00.tum", []),  # a folder of runs, a file that says nothing
        ("gt/est.tum", []),  # the file's own name says estimate: the folder is not asked
        ("est_vs_gt.tum", []),  # a name of both says neither (the newcomer walk)
        ("groundtruth.tum", ["--not-swapped"]),  # the order meant, as the warning says
    ],
)
def test_an_estimate_named_as_its_own_file_says_is_not_warned_as_ground_truth(
    est: str,
    flags: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The file's own name decides, a folder only where the file's says nothing
    (``gt/data.tum``, the catalogue): /data/gt_runs/est.tum and gt/est.tum were warned
    as an EST named ground truth, est_vs_gt.tum too, and nothing silenced the warning
    (a newcomer's walk); ``--not-swapped`` does, named in the warning."""
    _make(tmp_path, {"ref.tum": REF, est: EST})
    monkeypatch.chdir(tmp_path)
    assert main(["rpe", "ref.tum", est, *flags]) == 0
    assert "WARNING" not in capsys.readouterr().err


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_bad_command_is_answered_naming_the_place_and_leaves_nothing_behind(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: Case,
) -> None:
    if case.needs:
        pytest.importorskip(case.needs)
    _make(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)
    before = _state(tmp_path)
    args = [a.replace("{closed_port}", str(_closed_port())) for a in case.args]
    assert main(args) == case.code
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    # bench's status lines ("bench: reading the runs of ...", printed at once) are not answers.
    lines = [line for line in captured.err.splitlines() if not line.startswith("bench: ")]
    expected = len(case.warnings) + bool(case.error)
    assert len(lines) == expected, captured.err
    for line, pattern in zip(lines, case.warnings, strict=False):
        assert line.startswith("WARNING: "), line
        assert re.search(pattern, line.removeprefix("WARNING: ")), line
    if case.error:
        assert lines[-1].startswith("ERROR: "), lines[-1]
        assert re.search(case.error, lines[-1].removeprefix("ERROR: ")), lines[-1]
    if case.stdout:
        assert re.search(case.stdout, captured.out, re.MULTILINE | re.DOTALL), captured.out
    # Nothing clobbered, no temporary file, nothing new but what the command writes.
    after = _state(tmp_path)
    assert not [name for name in after if name.endswith(".tmp")]
    assert {name: after.get(name) for name in before} == before
    new = sorted(set(after) - set(before))
    assert [n for n in new if not any(Path(n).match(p) for p in case.made)] == []
    if case.made:
        assert new, "the command wrote none of its outputs"
