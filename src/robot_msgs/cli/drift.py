"""``robot-msgs drift REF EST``: drift per distance, KITTI devkit or rpg_trajectory_evaluation.

``drift POSES_DIR RESULTS_DIR`` evaluates a KITTI devkit results folder: every
``NN.txt`` of the ground-truth folder against the file of the same name in the results
folder (``results/<name>/data/`` or ``results/<name>/``), one row a sequence (its
figures in % and deg/m, the KITTI leaderboard's units, and deg/100 m, papers'), then
the devkit's figure, the mean over every segment of every sequence, and the mean of
the sequences' figures.
WHY: a KITTI user evaluates a results folder of 11 sequences, and the command took one
file pair only ("is a directory"); the devkit's and evo's users had to script the loop
and the average.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from robot_msgs.cli._input_args import add_input_args, read_inputs_from_args, reading_changed
from robot_msgs.cli._output_args import add_output_args
from robot_msgs.cli._settings_args import add_settings_flags, settings_from_args
from robot_msgs.cli.commands import COMMANDS
from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.report.text import counted, listed

if TYPE_CHECKING:
    import argparse

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.evaluation.settings import Drift, EvaluationSettings

__all__ = ["add_parser", "run"]

#: The fields whose default ``--protocol rpg`` changes: those where
#: :data:`~robot_msgs.evaluation.settings.RPG_SETTINGS` differs from ``EvaluationSettings()``
#: (tests/cli/test_drift.py holds them equal). Named here so that ``drift --help`` imports
#: no settings class (msgspec and NumPy: 0.15 s of its start-up).
RPG_CHANGED = ("align", "max_diff_s", "sync")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``drift`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "drift",
        help=COMMANDS["drift"],
        description=(
            "KITTI protocol: segments of 100..800 m of ground-truth path, one starting every "
            "10 frames; translation error in % and rotation error in deg/m, averaged over "
            "all segments (the published KITTI figures). --protocol rpg: "
            "rpg_trajectory_evaluation's relative error over 10..50 % of the path length. "
            "REF and EST may be folders, as the KITTI devkit's poses/ and "
            "results/<name>/data/ (or results/<name>/): each NN.txt against its namesake, "
            "one row a sequence (%, deg/m as KITTI's leaderboard, deg/100m as papers), "
            "then the mean over every segment of every sequence (the devkit's figure) and "
            "over the sequences. Example: robot-msgs drift example:fr1_xyz/groundtruth.tum "
            "example:fr1_xyz/rgbdslam.tum --protocol rpg"
        ),
    )
    add_input_args(parser)
    add_settings_flags(
        parser,
        ["Drift", "EvaluationSettings"],  # their defaults; none imported
        omit=("confidence",),  # the bounds of APE's NEES, which drift has not
        note="rpg: one-to-one within 0.02 s, sim3 alignment",
        noted=RPG_CHANGED,
    )
    add_output_args(
        parser,
        plot="the trajectories, and each segment length's translation error per segment "
        "over the segment's start (one length: the trajectory coloured by it, with its rms, "
        "mean and median): PDF, SVG, EPS or PNG by the name, 11 x 4.5 in; needs "
        "robot_msgs[plot]",
        several=False,
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the drift and report it; return 0.

    Flags the protocol would ignore are refused; an error about the segments names its
    flag (``--lengths``, ``--step``, ``--fractions``).
    """
    # Imported here, not for --help: the settings messages, the evaluation, the outputs.
    from robot_msgs.cli._evaluation_output import (  # noqa: PLC0415
        emit,
        evaluate_each,
        prepare_outputs,
        write_plot,
    )
    from robot_msgs.evaluation.settings import (  # noqa: PLC0415
        RPG_SETTINGS,
        Drift,
        EvaluationSettings,
    )

    spec = settings_from_args(args, Drift())
    # rpg_trajectory_evaluation's defaults: one-to-one within 0.02 s, Sim(3).
    base = EvaluationSettings() if spec.protocol == "kitti" else RPG_SETTINGS
    settings = settings_from_args(args, base)
    if Path(args.reference).is_dir() and Path(args.estimate).is_dir():
        if spec.protocol != "kitti":
            from robot_msgs.errors import UsageError  # noqa: PLC0415

            msg = (
                f"--protocol {spec.protocol}: one file pair only; folders of sequences "
                "(poses/, results/<name>/data/) are the KITTI devkit's"
            )
            raise UsageError(msg)
        return _run_sequences(args, settings, spec)
    plans = prepare_outputs(args)
    (reference, estimate), (ref_name, est_name), fixed = read_inputs_from_args(args)
    (result,), warned = evaluate_each(
        args, "drift", reference, [estimate], (ref_name, [est_name]), settings, [spec], fixed
    )
    from robot_msgs.evaluation.drift import rpg_path_length_m  # noqa: PLC0415 - NumPy

    # The lengths rpg's fractions give of the path it takes: said only when given
    # (those of given --fractions were said as --lengths beside them, which refuse both).
    path_m = rpg_path_length_m(reference, settings)
    defaults = Drift(protocol=spec.protocol).record(path_m)
    if spec.lengths_m is None and spec.lengths_s is None:
        defaults["lengths_m"] = spec.record(path_m)["lengths_m"]
    emit(args, [result], plans, [estimate], {**defaults, **base.record()}, [*fixed, warned])
    if args.plot is not None:
        from robot_msgs.compare.result import drift_title  # noqa: PLC0415 - plots only

        drawn = result.segment_signals()
        write_plot(args, [result], drawn, title=drift_title(spec.protocol, drawn))
    return 0


def sequence_pairs(poses: Path, results: Path) -> list[tuple[str, Path, Path]]:
    """Pair the ground-truth folder's ``*.txt`` with the results folder's, by name.

    ``results`` may be the devkit's ``results/<name>/`` holding ``data/`` (read then,
    beside the ``stats.txt`` the devkit writes there). A ground-truth sequence without
    its estimate is refused, as the devkit refuses a results folder short of a sequence
    (``Couldn't read (all) poses``): its average would be over other sequences. So is
    an estimate of another pose count than its ground truth (in :func:`_run_sequences`).
    Estimates without ground truth (a submission's test sequences 11 .. 21) are left
    out with a warning, as the devkit evaluates the sequences it has poses of.

    Raises
    ------
    FormatError
        No ``*.txt`` in ``poses``, or a sequence without its estimate (named with its file).
    """
    from robot_msgs.errors import FormatError  # noqa: PLC0415

    if (results / "data").is_dir():  # beside the devkit's own stats.txt, errors/, plot_*/
        results = results / "data"
    # Every entry, not the regular files only: a FIFO, a folder or a looping link named
    # 02.txt in poses/ dropped sequence 02 from the table without a word, and in results/
    # was said "is missing" (a review).
    refs = dict(sorted((p.stem, p) for p in poses.glob("*.txt")))
    ests = {p.stem: p for p in results.glob("*.txt")}
    if not refs:
        msg = f"{poses}: no ground-truth poses (*.txt) in the folder"
        raise FormatError(msg)
    for path in (p for k, ref in refs.items() for p in (ref, ests.get(k)) if p is not None):
        kind = _not_regular(path)
        if kind is not None:
            msg = (
                f"{path}: expected a sequence's poses in a regular file, got {kind}: "
                "not read (a pipe would wait for a writer)"
            )
            raise FormatError(msg)
    missing = sorted(set(refs) - set(ests))
    if missing:
        said = [f"{results / (k + '.txt')} is missing (ground truth {refs[k]})" for k in missing]
        msg = (  # WHY 2: an empty results folder of 11 sequences named all 11
            f"{listed(said, 2)}: the devkit refuses a results folder "
            "without every sequence of the ground truth; give folders of the same sequences"
        )
        raise FormatError(msg)
    extra = sorted(set(ests) - set(refs))
    if extra:
        some = ests[extra[0]].name if len(extra) == 1 else f"{extra[0]} .. {extra[-1]}"
        text = (
            f"{results}: {counted(len(extra), 'estimate')} without ground truth in {poses} "
            f"({some}) left out, as the devkit evaluates the sequences it has poses of"
        )
        warnings.warn(DataWarning(text, fixed=False), stacklevel=2)
    return [(k, ref, ests[k]) for k, ref in refs.items()]


def _not_regular(path: Path) -> str | None:
    """Say what ``path`` is when not a regular file (through links), else None."""
    import stat  # noqa: PLC0415

    from robot_msgs.io.bounded import mode_kind  # noqa: PLC0415

    try:
        mode = path.stat().st_mode
    except OSError as err:  # a broken or looping link, a folder not searchable
        return f"a path that cannot be looked at ({err.strerror})"
    return None if stat.S_ISREG(mode) else mode_kind(mode)


def _run_sequences(args: argparse.Namespace, settings: EvaluationSettings, spec: Drift) -> int:
    """Evaluate a devkit results folder: one row a sequence, the devkit's pooled figure."""
    refused = [flag for flag, dest in _FILE_ONLY if getattr(args, dest, None)]
    if refused:
        from robot_msgs.errors import UsageError  # noqa: PLC0415

        msg = f"{', '.join(refused)}: one file pair only, not folders of sequences"
        raise UsageError(msg)
    pairs = sequence_pairs(Path(args.reference), Path(args.estimate))
    rows: list[tuple[str, int, EvaluationResult | None]] = []
    short: list[tuple[str, ValidationError]] = []
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for name, ref_path, est_path in pairs:
                frames, done = _evaluate_sequence(args, settings, spec, ref_path, est_path)
                if isinstance(done, ValidationError):
                    short.append((_no_segment(est_path, ref_path), done))
                rows.append((name, frames, None if isinstance(done, ValidationError) else done))
            if len(short) == len(rows):  # nothing to average: the one pair's error
                raise short[0][1]
            for text, _ in short:
                warnings.warn(DataWarning(text, fixed=False), stacklevel=2)
    finally:
        _show_grouped(caught)
    from robot_msgs.cli._evaluation_output import settings_lines  # noqa: PLC0415
    from robot_msgs.cli._flag_text import changed_from  # noqa: PLC0415
    from robot_msgs.evaluation.settings import Drift, EvaluationSettings  # noqa: PLC0415

    # What the one-pair table says (--align sim3, --lengths): figures aligned per
    # sequence read as the devkit's, which aligns nothing, without it.
    defaults = {**Drift(protocol="kitti").record(0.0), **EvaluationSettings().record()}
    evaluated = next(result for _, _, result in rows if result is not None)
    changed = {**changed_from(evaluated.comparison.record(), defaults), **reading_changed(args)}
    table, lengths = sequences_table(rows), lengths_table(rows)
    if args.json:
        from robot_msgs.strict_json import dumps  # noqa: PLC0415

        print(dumps(sequences_json(table, lengths, evaluated)), end="")
    else:
        said = settings_lines("kitti_drift", changed)
        print(format_sequences(table, lengths, args.reference, args.estimate, said))
    return 0


def _evaluate_sequence(
    args: argparse.Namespace,
    settings: EvaluationSettings,
    spec: Drift,
    ref_path: Path,
    est_path: Path,
) -> tuple[int, EvaluationResult | ValidationError]:
    """Evaluate one sequence of a results folder, refused unless of one pose a frame.

    Return its frames and its result, or the error where no segment fits its ground
    truth (a path not longer than any length): the devkit counts no segment of it (its
    ``calcSequenceErrors`` finds none) and averages the others'.
    """
    import argparse  # noqa: PLC0415

    from robot_msgs.cli._evaluation_output import evaluate_each  # noqa: PLC0415

    one = argparse.Namespace(**{**vars(args), "reference": str(ref_path)})
    one.estimate = str(est_path)
    (reference, estimate), (ref_name, est_name), fixed = read_inputs_from_args(one)
    if estimate.stamps_s.size != reference.stamps_s.size:
        from robot_msgs.errors import FormatError  # noqa: PLC0415

        msg = (
            f"{est_path}: {estimate.stamps_s.size} poses, its ground truth {ref_path} "
            f"{reference.stamps_s.size}: the devkit refuses a sequence not of one pose "
            "a frame (a method that lost track scored on the frames it kept); "
            "evaluate that file pair alone to see it"
        )
        raise FormatError(msg)
    try:
        (result,), _ = evaluate_each(
            one, "drift", reference, [estimate], (ref_name, [est_name]), settings, [spec], fixed
        )
    except ValidationError as err:
        if err.field != _NO_SEGMENT:
            raise
        return reference.stamps_s.size, err
    return int(result.comparison.counts.get("matched", 0)), result


#: The field of :func:`~robot_msgs.evaluation.drift.kitti_result`'s "No KITTI segment
#: fits": a ground-truth path not longer than any segment length.
_NO_SEGMENT = "Drift.lengths_m"


def _no_segment(est_path: Path, ref_path: Path) -> str:
    """Say that no segment fits a sequence, which is counted as having none.

    WHY: one sequence shorter than 100 m stopped the whole folder ("No KITTI segment
    fits"), where the devkit counts no segment of it and averages the others' (a review).
    """
    return (
        f"{est_path}: no KITTI segment fits its ground truth {ref_path}, a path not longer "
        "than any segment length: counted as no segments, as the devkit counts it, and "
        "in neither mean"
    )


def _show_grouped(caught: list[warnings.WarningMessage]) -> None:
    """Show the warnings caught, those alike about many files once, as ``report`` does.

    KITTI's rounded rotation blocks are said in full for the first file; for the others,
    whose texts differ in their counts, by one text alike, so that
    :func:`~robot_msgs.report.text.grouped` says them once from
    :data:`~robot_msgs.report.text.ALIKE` files on, naming a few. Other warnings are
    shown first, as they came.

    WHY: every KITTI file's blocks are off SO(3) by the rounding of its printed digits;
    a results folder of 11 sequences said so in 22 warnings of ~250 characters each
    (88 lines of an 80-column terminal) above its table. WHY ``grouped``: a second rule
    for warnings alike about many files (here from 2 files on, its own wording) beside
    the one ``report`` follows (a review).
    """
    from robot_msgs.io.clean import ROUNDED_ROTATIONS  # noqa: PLC0415
    from robot_msgs.report.text import file_and_what, grouped  # noqa: PLC0415

    texts: list[str] = []
    rounded = 0
    for w in caught:
        if not issubclass(w.category, DataWarning):
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        elif isinstance(w.message, DataWarning) and w.message.kind == ROUNDED_ROTATIONS:
            file, _ = file_and_what(str(w.message))
            texts.append(f"{file}: {_ROUNDED_LIKEWISE}" if rounded else str(w.message))
            rounded += 1
        else:
            texts.append(str(w.message))
    for text in grouped(texts):
        warnings.showwarning(text, DataWarning, __file__, 0)


#: What the files after the first with rounded rotation blocks are said to have.
_ROUNDED_LIKEWISE = "rotation blocks likewise off orthonormal by rounding: made orthonormal"


#: Flags of one file pair, refused with folders.
_FILE_ONLY = (
    ("--plot", "plot"),
    ("--save", "save"),
    ("--save-aligned", "save_aligned"),
    ("--ref-times", "ref_times"),
    ("--est-times", "est_times"),
    ("--seconds", "seconds"),  # the sequences' table is in % and deg/m
)


class _Figures(NamedTuple):
    """One row of the tables: translation in %, rotation in deg/m; a count None if unsaid."""

    name: str
    frames: int | None
    segments: int | None
    translation_pct: float
    rotation_deg_per_m: float

    def record(self) -> dict[str, int | float]:
        """Return the row's counts and figures as JSON, named as the one pair's signals."""
        counts = {"frames": self.frames, "segments": self.segments}
        return {
            **{k: v for k, v in counts.items() if v is not None},
            "translation_pct": self.translation_pct,
            "rotation_deg_per_m": self.rotation_deg_per_m,
        }

    def cells(self) -> tuple[str, ...]:
        """Return the row as text: % to 3 decimals, deg/m to 5, deg/100 m to 3."""
        r = self.rotation_deg_per_m
        counts = ("" if v is None else str(v) for v in (self.frames, self.segments))
        return (self.name, *counts, f"{self.translation_pct:.3f}", f"{r:.5f}", f"{r * 100:.3f}")


def sequences_table(rows: list[tuple[str, int, EvaluationResult | None]]) -> list[_Figures]:
    """Tabulate the KITTI figures a sequence each, the devkit's pooled mean, the mean of all.

    The row ``all (devkit)`` is the mean over every segment of every sequence (the
    devkit's ``stats.txt``: each sequence's mean weighed by its segments); ``mean of
    sequences`` weighs each sequence alike. A sequence without segments (``result``
    None) has NaN figures and is in neither mean.
    """
    table = []
    for name, frames, result in rows:
        if result is None:
            table.append(_Figures(name, frames, 0, math.nan, math.nan))
            continue
        t = result.comparison.signal("translation_pct")
        r = result.comparison.signal("rotation_deg_per_m")
        if t is None or r is None:  # kitti_result makes both
            raise AssertionError(name)
        table.append(_Figures(name, frames, t.stats.n, t.stats.mean, r.stats.mean))
    kept = [row for row in table if row.segments]
    n = sum(row.segments or 0 for row in kept)
    t_all = sum(row.translation_pct * (row.segments or 0) for row in kept) / n
    r_all = sum(row.rotation_deg_per_m * (row.segments or 0) for row in kept) / n
    t_mean = sum(row.translation_pct for row in kept) / len(kept)
    r_mean = sum(row.rotation_deg_per_m for row in kept) / len(kept)
    return [
        *table,
        _Figures("all (devkit)", None, n, t_all, r_all),
        _Figures("mean of sequences", None, None, t_mean, r_mean),
    ]


def lengths_table(
    rows: list[tuple[str, int, EvaluationResult | None]],
) -> list[tuple[float, _Figures]]:
    """Tabulate the KITTI figures a segment length each, over every sequence's segments.

    What the devkit's ``avg_tl``/``avg_rl`` plots draw (error over path length): each
    length's segments of all sequences pooled. A length no sequence has is left out.
    Each row with its length in metres.
    """
    sums: dict[float, list[float]] = {}
    for _, _, result in rows:
        for signal in result.comparison.signals if result is not None else ():
            if signal.length_m is None or not signal.stats.n:
                continue
            n, total = signal.stats.n, signal.stats.mean * signal.stats.n
            kept = sums.setdefault(signal.length_m, [0.0, 0.0, 0.0])
            if signal.quantity == "translation_pct":
                kept[0] += n
                kept[1] += total
            elif signal.quantity == "rotation_deg_per_m":
                kept[2] += total
    return [
        (length, _Figures(f"{length:g} m", None, int(n), t / n, r / n))
        for length, (n, t, r) in sorted(sums.items())
    ]


def sequences_json(
    table: list[_Figures], lengths: list[tuple[float, _Figures]], evaluated: EvaluationResult
) -> dict[str, object]:
    """Return the tables as JSON, with the settings and parameters as the one pair's.

    Keys ``metric``, ``settings`` and ``parameters`` (those of ``evaluated``, one of the
    sequences' results: all share them), ``sequences``, ``all``, ``mean_of_sequences``,
    ``lengths``; figures named as the one pair's signals (``translation_pct``,
    ``rotation_deg_per_m``). WHY: the folder's JSON said ``rotation_deg_per_100m`` beside
    the one pair's ``rotation_deg_per_m``, a ``settings`` of the changed fields only
    where the one pair's is the whole message, and parsed each length back from its
    text ``"100 m"`` (a review).
    """
    *rows, pooled, mean = table
    return {
        "metric": "kitti_drift_sequences",
        "settings": evaluated.comparison.settings,
        "parameters": evaluated.comparison.parameters,
        "sequences": [{"sequence": row.name, **row.record()} for row in rows],
        "all": pooled.record(),
        "mean_of_sequences": mean.record(),
        "lengths": [{"length_m": length, **row.record()} for length, row in lengths],
    }


def format_sequences(
    table: list[_Figures],
    lengths: list[tuple[float, _Figures]],
    poses: str,
    results: str,
    settings: list[str],
) -> str:
    """Render the tables as text: a row a sequence, the two means, a row a length."""
    from robot_msgs.report.report_table import ReportTable  # noqa: PLC0415
    from robot_msgs.report.table_renderers import render_text  # noqa: PLC0415
    from robot_msgs.report.text import controls_escaped  # noqa: PLC0415

    figures = ("t_err %", "r_err deg/m", "deg/100m")
    headers = ("sequence", "frames", "segments", *figures)
    numeric = (False, True, True, True, True, True)
    rows = tuple(row.cells() for row in table)  # names escaped by render_text
    # A folder name's escape sequence acted on the terminal, as in the one-pair table.
    poses, results = controls_escaped(poses), controls_escaped(results)
    by_length = tuple((c[0], *c[2:]) for c in (row.cells() for _, row in lengths))
    return "\n".join(
        [
            "KITTI drift (devkit segments), per sequence",
            f"reference: {poses}",
            f"estimate:  {results}",
            *settings,
            render_text(ReportTable("", headers, rows, numeric)),
            "",
            "all (devkit): the mean over every segment of every sequence (the devkit's",
            "stats.txt); mean of sequences: each sequence's mean weighed alike",
            "",
            "per segment length, every sequence's segments (the devkit's avg plots)",
            render_text(ReportTable("", ("length", "segments", *figures), by_length, numeric[1:])),
        ]
    )
