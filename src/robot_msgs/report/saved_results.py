"""Compare saved results: ours (JSON, ``.npz``, Parquet) and evo's ``--save_results`` zips.

What ``robot-msgs res`` shows, as evo's ``evo_res`` does, with the settings kept in
view: one table of the statistics, one row per result and signal, in which every
setting that differs between the results is a column of its own (``align (differs)``)
and the shared ones are listed once. Results are ranked (by rms, smallest first; KITTI
drift by its mean, the devkit's figure) only when they have the same metric, signal and
settings: otherwise the ranking is refused with
:func:`robot_msgs.compare.aggregation.check_same_settings`'s message, as ``robot-msgs
report`` refuses, unless forced (and then marked so). The tables render through
:mod:`robot_msgs.report.tables` (text, Markdown, LaTeX) like the report's.
"""

from __future__ import annotations

import csv
import io
import math
import os
import shlex
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.compare.aggregation import check_same_settings, setting_key
from robot_msgs.compare.signal import delta_words
from robot_msgs.compare.statistics import PUBLISHED_STATISTICS, rank_value
from robot_msgs.errors import DataWarning, SettingsMismatchError, caller_stacklevel
from robot_msgs.evaluation.consistency import NEES_DOF, rank_target
from robot_msgs.report.report_table import MISSING, ReportTable
from robot_msgs.report.table_renderers import csv_cell
from robot_msgs.runs.rank import MIXED, average_ranks

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import ErrorSeries, Signal
    from robot_msgs.msg import Value
    from robot_msgs.typing import Float64Array

__all__ = [
    "NamedResult",
    "ResultsComparison",
    "compare_results",
    "error_distances_m",
    "load_saved_results",
    "results_csv",
]

NamedResult = tuple[str, "EvaluationResult"]
_STATS = ("n", "rms", "mean", "median", "std", "min", "max")

#: Ranked results whose sample counts differ by more than this factor are said so.
_FEWER = 2


def load_saved_results(paths: Sequence[str | os.PathLike[str]]) -> list[NamedResult]:
    """Read each saved result, ours or evo's (``.zip``), named by its path as given.

    A file given again (resolved: a link, another spelling of its path) is read again,
    with a :class:`~robot_msgs.errors.DataWarning` (``kind="same_input"``) saying so, as
    :func:`~robot_msgs.io.read_inputs` warns of an estimate that is the reference's file.

    Raises
    ------
    FormatError
        A file is neither (the file named, and the field at fault).
    """
    from robot_msgs.io.evo_results import read_evo_result  # noqa: PLC0415
    from robot_msgs.io.result_files import load_result  # noqa: PLC0415

    out: list[NamedResult] = []
    given: dict[Path, str] = {}
    for path in paths:
        # realpath, not Path.resolve(): that raised RuntimeError on a loop of links (a bug
        # exit) before Python 3.13; the reader below names the loop
        resolved = Path(os.path.realpath(path))
        if resolved in given:
            again = (
                f"{path}: the same file as {given[resolved]} ({resolved}), given twice: "
                "the result is compared and ranked with itself"
            )
            warnings.warn(
                DataWarning(again, kind="same_input", fixed=False), stacklevel=caller_stacklevel()
            )
        given.setdefault(resolved, str(path))
        is_zip = Path(path).suffix.lower() == ".zip"
        out.append((str(path), read_evo_result(path) if is_zip else load_result(path)))
    return out


def _tool(name: str) -> str:
    return "evo" if Path(name).suffix.lower() == ".zip" else "robot_msgs"


def _cell(value: Value | None) -> str:
    """Write a setting for the CSV with every digit, as its statistics are written.

    ``:g`` wrote ``--t-start 1305031102.5`` as ``1.30503e+09``.
    """
    if value is None:
        return MISSING
    if isinstance(value, float):
        return MISSING if math.isnan(value) else repr(value)
    if isinstance(value, tuple):
        return ",".join(_cell(v) for v in value)
    return str(value)


def _flag(name: str) -> str:
    """Name a setting by its flag, told from one sharing it (``--offset SECONDS``), or as is."""
    from robot_msgs.cli._flag_text import setting_flag  # noqa: PLC0415 - the one road

    return setting_flag(name) or name


def _flag_cell(name: str, value: Value | None) -> str:
    """Write a setting's value as its flag takes it (``one-to-one``); ``-`` when unset."""
    from robot_msgs.cli._flag_text import flag_value  # noqa: PLC0415

    return MISSING if value is None else flag_value(name, value)


def _num(value: float) -> str:
    return MISSING if math.isnan(value) else f"{value:.6g}"


class ResultsComparison:
    """The tables of :func:`compare_results` and what they were made from.

    ``tables`` (statistics, shared settings, and the ranking when there is one),
    ``differing`` (the settings whose values differ), ``shared`` (the others, with
    their value), ``ranking`` (result names, best first, or ``None``), ``ranked_by``
    (its figure: ``rms``, ``mean`` for KITTI drift, ``|mean - 3|`` for a NEES; ``None``
    without a ranking), ``forced`` and ``notes`` (why there is no ranking, or that it
    was forced).
    """

    __slots__ = (
        "differing",
        "forced",
        "named",
        "notes",
        "ranked_by",
        "ranking",
        "records",
        "shared",
        "tables",
        "unrecorded",
    )

    def __init__(self, named: Sequence[NamedResult], *, force: bool) -> None:
        self.named = list(named)
        comparisons = [r.comparison for _, r in named]
        self.records = [c.record() for c in comparisons]
        keys = list(dict.fromkeys(k for record in self.records for k in record))
        # A setting a record lacks is not recorded there (evo's zips state only what their
        # title says): unknown, so compared only among the results that record it.
        seen = {k: {setting_key(record[k]) for record in self.records if k in record} for k in keys}
        self.differing = [k for k in keys if len(seen[k]) > 1]
        missing = {
            k: [name for (name, _), record in zip(named, self.records, strict=True)
                if k not in record]
            for k in keys
        }  # fmt: skip
        # A setting a result lacks matters where a result of its metric sets it: RPE's
        # --delta is no setting of an APE result, nor an unset --n-align one of evo's zip
        # (the refusal compares it as unset); both were listed as not compared (a review).
        # And where it applies to that result: --confidence to a NEES relation only.
        set_for = {
            k: {c.metric for c, r in zip(comparisons, self.records, strict=True)
                if r.get(k) is not None}
            for k in keys
        }  # fmt: skip
        #: Settings some results do not record, where it matters, with those results' names.
        self.unrecorded: dict[str, list[str]] = {
            k: [name for (name, r) in named if name in missing[k]
                and r.comparison.metric in set_for[k] and r.comparison.applies(k)]
            for k in keys
        }  # fmt: skip
        self.unrecorded = {k: v for k, v in self.unrecorded.items() if v}
        first = {k: v for record in reversed(self.records) for k, v in record.items()}
        self.shared: dict[str, Value] = {
            k: first[k] for k in keys if len(seen[k]) == 1 and not missing[k]
        }
        self.notes: list[str] = []
        self.ranking: list[str] | None = None
        self.ranked_by: str | None = None
        self.forced = False
        signals = {(c.metric, tuple(s.name for s in c.signals)) for c in comparisons}
        # evo's --change_unit cm: 1.34701 cm was ranked behind the same run's 0.0134701 m.
        units = {"/".join(s.unit or "unit-less" for s in c.signals) for c in comparisons}
        apart = _apart_in_time(named)
        empty = [name for name, r in named if not r.comparison.signals]
        if empty and len(named) > 1:  # a Comparison may hold none: nothing to rank it by
            self.notes.append(f"not ranked: {empty[0]} holds no signals")
        elif len(signals) > 1:
            held = sorted(f"{metric}: {', '.join(names)}" for metric, names in signals)
            self.notes.append(  # in words: it printed Python lists, ape ['angle_deg']
                f"not ranked: the results hold different metrics or signals ({'; '.join(held)})"
            )
        elif len(units) > 1:
            self.notes.append(
                f"not ranked: the results are in different units ({'; '.join(sorted(units))})"
            )
        elif apart is not None:  # errors against two ground truths are not comparable
            self.notes.append(f"not ranked: {apart}")
        elif len(named) > 1:
            by_name = [
                c.replace(estimate=name) for (name, _), c in zip(named, comparisons, strict=True)
            ]
            try:
                check_same_settings(by_name)
            except SettingsMismatchError as err:
                if force:  # said with what the refusal named: differing and unrecorded settings
                    mixed = check_same_settings(by_name, force=True)
                    self.forced = True
                    self.notes.append(
                        self._forced_note([k for k, v in mixed.items() if v == MIXED])
                    )
                else:
                    said = str(err)  # one sentence: "not ranked: refusing to mix ..."
                    self.notes.append(f"not ranked: {said[:1].lower()}{said[1:]}")
            if force or not self.notes:
                # The rule of every ranking (rank_value): rms, a magnitude, smallest best.
                statistic, target = _ranked_by(comparisons[0])
                order = sorted(
                    range(len(named)),
                    key=lambda i: (
                        math.isnan(
                            r := rank_value(
                                comparisons[i].signals[0].stats, statistic, target=target
                            )
                        ),
                        r,
                    ),
                )
                self.ranking = [named[i][0] for i in order]
                self.ranked_by = f"|{statistic} - {target:g}|" if target else statistic
        self.tables = self._tables()

    def _forced_note(self, mixed: list[str]) -> str:
        """Say why a ranking needed forcing: the settings that differ or are not recorded."""
        reasons = []
        differing = [k for k in mixed if k in self.differing]
        if differing:
            reasons.append(f"differing settings: {', '.join(f'`{k}=`' for k in differing)}")
        by_results: dict[tuple[str, ...], list[str]] = {}
        for key in mixed:
            if key not in self.differing and key in self.unrecorded:
                by_results.setdefault(tuple(self.unrecorded[key]), []).append(key)
        reasons += [
            f"settings not recorded in {', '.join(names)}: {', '.join(f'`{k}=`' for k in keys)}"
            for names, keys in by_results.items()
        ]
        return f"ranking FORCED across {'; '.join(reasons)}"

    def _tables(self) -> list[ReportTable]:
        rows = []
        for (name, result), record in zip(self.named, self.records, strict=True):
            c = result.comparison
            varied = [_flag_cell(k, record.get(k)) for k in self.differing]
            for signal in c.signals:
                stats = signal.stats
                values = [str(stats.n), *(_num(getattr(stats, k)) for k in _STATS[1:])]
                unit = signal.unit or MISSING
                metric = _metric_cell(c.metric, signal, c.parameters)
                rows.append((name, unit, signal.name, _tool(name), metric, *varied, *values))
        # The unit beside the name: a folded table repeats the leading columns that fit in
        # every block, so each block of numbers says its unit, as ape's "signal unit" does
        # (rms 0.0134701 of metres stood beside 2.0577 of degrees unlabelled; a review).
        # The signal next: with the name it tells a result's rows apart. After the tool and
        # the metric, the columns naming a row ran past half the width for any result of
        # several signals (RPE's deltas), and the table was printed as records, 92 lines
        # for two results of three deltas.
        headers = (
            "result", "unit", "signal", "tool", "metric",
            *(f"{_flag(k)} (differs)" for k in self.differing), *_STATS,
        )  # fmt: skip
        numeric = (False,) * (5 + len(self.differing)) + (True,) * len(_STATS)
        notes = ["Statistics as each tool computed them (evo's for its zips)."]
        if self.differing:
            notes.append("Settings marked (differs) have values that differ.")
        by_results: dict[tuple[str, ...], list[str]] = {}
        for key, names in self.unrecorded.items():
            by_results.setdefault(tuple(names), []).append(key)
        for results, lacked in by_results.items():  # as flags: the columns say them so
            listed = ", ".join(map(_flag, lacked[:3])) + (", ..." if len(lacked) > 3 else "")
            are = "settings ({}) are" if len(lacked) > 1 else "setting ({}) is"
            said = f"{len(lacked)} {are.format(listed)} not recorded in {', '.join(results)}"
            notes.append(f"{said}: not compared.")
        tables = [ReportTable("Results", headers, tuple(rows), numeric, tuple(notes))]
        from robot_msgs.evaluation.settings import (  # noqa: PLC0415
            Ape,
            Drift,
            EvaluationSettings,
            Rpe,
            drift_protocol,
        )

        defaults = EvaluationSettings().record()
        metrics = {r.comparison.metric for _, r in self.named}
        for metric in sorted(metrics):  # each metric's own defaults (relation: translation)
            spec = {"ape": Ape, "rpe": Rpe}.get(metric)
            defaults |= spec().record() if spec is not None else {}
            # A drift's too (--fractions 0.1,...,0.5, --step 10 were listed as set): its
            # lengths are the devkit's fixed ones, or rpg's fractions of each path.
            protocol = drift_protocol(metric)
            if protocol is not None:
                drift = Drift(protocol=protocol).record(1.0)
                if protocol == "rpg":  # the lengths of recorded fractions: no flag given
                    # (--lengths beside --fractions were listed, a pair drift refuses; drift
                    # says neither the lengths of its default fractions nor of given ones)
                    fractions = self.shared.get("fractions") is not None
                    drift["lengths_m"] = self.shared.get("lengths_m") if fractions else None
                defaults |= drift
        shared = tuple(  # a switch left off, a setting unset or at its default: no flag given
            (_flag(k), _flag_cell(k, v))
            for k, v in self.shared.items()
            if v is not None and v is not False and not (k in defaults and v == defaults[k])
        )
        # Of evo's zips alone, the settings no title says are recorded nowhere, so none is
        # noted above: "Every setting they share is at its default" then spoke of their
        # association too, which a zip of `evo_ape --t_max_diff 0.02 --t_offset 0.05` has not.
        unknown: tuple[str, ...] = ()
        # Zips by name: a result built without settings (a tracking Comparison) and saved
        # as ours has none either, and is no zip of evo's.
        if all(_tool(n) == "evo" and r.comparison.settings is None for n, r in self.named):
            titled = "evo's zips record only what their titles say: their other settings"
            unknown = (f"{titled} (--sync, --max-diff, --offset, ...) are not known.",)
        if shared:
            default = ("Settings at their defaults are not listed.", *unknown)
            tables.append(
                ReportTable("Shared settings", ("flag", "value"), shared, (False, False), default)
            )
        else:  # no table of nothing
            first = tables[0]
            said = "Every setting they share is at its default."
            tables[0] = ReportTable(first.title, first.headers, first.rows, first.numeric,
                                    (*first.notes, said, *unknown))  # fmt: skip
        if self.ranking is not None:
            by_name = dict(self.named)
            ranked = []
            counts = []
            statistic, target = _ranked_by(by_name[self.ranking[0]].comparison)
            scores = [
                rank_value(by_name[name].comparison.signals[0].stats, statistic, target=target)
                for name in self.ranking
            ]
            # Equal scores share their mean place, as a sweep's ranks do (1.5 and 1.5, not 1, 2).
            for place, name in zip(average_ranks(scores), self.ranking, strict=True):
                stats = by_name[name].comparison.signals[0].stats
                value = _num(getattr(stats, statistic))
                ranked.append((f"{place:g}", name, str(stats.n), value))
                counts.append(stats.n)
            figure = self.ranked_by
            # Results of several signals (RPE's deltas, drift's lengths) are ranked by
            # their first: said, where "Ranking by rms" left which one to be guessed.
            signals = by_name[self.ranking[0]].comparison.signals
            title = f"Ranking by {figure}" + (f" of {signals[0].name}" if len(signals) > 1 else "")
            if self.forced:  # why, in the title: a setting differs, or some are not recorded
                why = "settings mixed" if self.differing else "settings not all recorded"
                title += f" (FORCED: {why})"
            ranking_notes: tuple[str, ...] = ()
            if target:  # a NEES (rank_target)
                nees = (
                    f"A consistent estimate's mean NEES is its {target:g} degrees of freedom: "
                    "each result is ranked by its distance from them, closest best."
                )
                ranking_notes = (nees,)
            counted = [n for n in counts if n > 0]  # none: no figure, placed last
            if counted and min(counted) * _FEWER < max(counted):  # keyframes against every frame
                fewer = (
                    f"The {'rms' if statistic == 'rms' else 'means'} are over {min(counted)} to "
                    f"{max(counted)} samples: one of far fewer poses (keyframes only?) is ranked "
                    "on those alone."
                )
                ranking_notes = (*ranking_notes, fewer)
            empty = [name for name, n in zip(self.ranking, counts, strict=True) if n == 0]
            if empty:
                none = (
                    f"{', '.join(empty)}: no finite error (n = 0), so no {statistic}: placed last."
                )
                ranking_notes = (*ranking_notes, none)
            headers = ("#", "result", "n", statistic)
            numeric = (True, False, True, True)
            tables.append(ReportTable(title, headers, tuple(ranked), numeric, ranking_notes))
        return tables

    def to_dict(self) -> dict[str, Any]:
        """JSON form: each result's comparison by name, the settings, the ranking, the notes."""
        return {
            "results": [
                {"name": n, "comparison": r.comparison.summary().to_dict()} for n, r in self.named
            ],
            "differing_settings": self.differing,
            "shared_settings": {
                k: list(v) if isinstance(v, tuple) else v for k, v in self.shared.items()
            },
            "ranking": self.ranking,
            # What it ranks by, said: KITTI drift's mean and a NEES's distance from its
            # degrees of freedom are no rms, the rule of the others (a review).
            "ranked_by": self.ranked_by,
            "forced": self.forced,
            "notes": self.notes,
        }


def compare_results(named: Sequence[NamedResult], *, force: bool = False) -> ResultsComparison:
    """Tabulate saved results side by side; rank them only when their settings agree.

    Parameters
    ----------
    named : sequence of (name, EvaluationResult)
        The results (:func:`load_saved_results`); a name ending in ``.zip`` is evo's.
    force : bool
        Rank results made with different settings anyway; the ranking says so.

    Examples
    --------
    >>> from robot_msgs.msg.catalog import example
    >>> result = example("compare/EvaluationResult")
    >>> settings = result.comparison.settings.replace(align="sim3")
    >>> other = result.replace(comparison=result.comparison.replace(settings=settings))
    >>> table = compare_results([("a", result), ("b", other)])
    >>> table.differing, table.ranking, table.notes[0][:40]
    (['align'], None, 'not ranked: refusing to mix results made')
    >>> compare_results([("a", result), ("b", other)], force=True).ranking
    ['a', 'b']
    """
    return ResultsComparison(named, force=force)


def _apart_in_time(named: Sequence[tuple[str, EvaluationResult]]) -> str | None:
    """Say why results are of different recordings, or None: their references never overlap.

    Two results whose matched reference poses span disjoint times were computed against
    different ground truths (``fr1_xyz`` and ``fr2_desk``, 79 days apart), so their errors
    do not rank. Results without reference stamps (evo's zips) are not judged.

    Examples
    --------
    >>> _apart_in_time([]) is None
    True
    """
    spans = [
        (name, float(r.reference.stamps_s[0]), float(r.reference.stamps_s[-1]))
        for name, r in named
        if len(r.reference) > 0 and not r.reference.stamps_are_frames
    ]
    for k, (name, start, end) in enumerate(spans):
        for other, other_start, other_end in spans[k + 1 :]:
            if end < other_start or other_end < start:
                return (
                    f"{name} and {other} were evaluated against references whose times "
                    f"never overlap ({start:.6f} .. {end:.6f} s and {other_start:.6f} .. "
                    f"{other_end:.6f} s): different recordings"
                )
    return None


def _metric_cell(metric: str, signal: Signal, parameters: Mapping[str, Any]) -> str:
    """Name the metric with what defines it: an RPE's interval in words (``delta_words``).

    Examples
    --------
    >>> from robot_msgs.compare import Signal
    >>> one = Signal.of("translation", "m", [0.1], stamps_s=[0.0], delta=1.0, delta_unit="f")
    >>> _metric_cell("rpe", one, {"all_pairs": True}), _metric_cell("ape", one, {})
    ('rpe 1 frame, all pairs', 'ape')
    """
    delta = signal.delta if signal.delta is not None else parameters.get("delta")
    unit = signal.delta_unit if signal.delta_unit is not None else parameters.get("delta_unit")
    if metric != "rpe" or not isinstance(delta, int | float) or not isinstance(unit, str):
        return metric
    # 'rpe 1 f all' was letters, where figures and errors say '1 frame' (a review)
    every = ", all pairs" if parameters.get("all_pairs") is True else ""
    return f"rpe {delta_words(delta, unit)}{every}"


def results_csv(comparison: ResultsComparison, kept: Sequence[str] = ()) -> str:
    """One CSV row per result and signal: the statistics and every setting, raw numbers.

    NaN is an empty cell; settings are columns ``setting:NAME``. ``kept``: the signals
    each result was cut to (``res --signal``), said in a last column ``kept_signals``,
    the names space-separated (shell-quoted), on every row. WHY a column, not a ``#``
    line: CSV has no comments, and a line above the header was the header to
    ``csv.DictReader`` (and pandas without ``comment="#"``).
    """
    keys = list(dict.fromkeys(k for record in comparison.records for k in record))
    header = ["result", "tool", "metric", "signal", "unit", *_STATS, "sse"]
    header += [f"setting:{k}" for k in keys]
    header += ["kept_signals"] if kept else []
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for (name, result), record in zip(comparison.named, comparison.records, strict=True):
        c = result.comparison
        for signal in c.signals:
            stats = signal.stats
            values: list[object] = [name, _tool(name), c.metric, signal.name, signal.unit]
            values += [getattr(stats, k) for k in _STATS]
            values.append(stats.rms**2 * stats.n)
            # Not set and not recorded are both an empty cell, as NaN is (no "'-" beside "").
            cells = (_cell(record.get(k)) for k in keys)
            values += ["" if cell == MISSING else cell for cell in cells]
            values += [shlex.join(kept)] if kept else []
            writer.writerow(
                ["" if isinstance(v, float) and math.isnan(v) else csv_cell(v) for v in values]
            )
    return buffer.getvalue()


def error_distances_m(
    path: str, result: EvaluationResult, series: ErrorSeries
) -> Float64Array | None:
    """Distance along the reference at each of a saved result's errors, metres, or None.

    Ours: the matched reference's path travelled to the error's pose
    (:func:`~robot_msgs.report.figures.reference_distances_m`). evo's APE zips keep no
    trajectory but carry that distance itself (``distances_from_start.npy``, equal to
    ours on the shipped example), read here. An evo RPE zip's ``distances_from_start``
    is something else: evo first keeps only the pairs' end poses, then measures straight
    lines between them (0.10-1.57 m for fr1_xyz's 8 pairs 1 m of path apart, where the
    reference travels 0.89-7.49 m): None, so the panel names it "(no distances)" instead
    of drawing it on an axis that says "distance travelled along the reference".
    What both ``res --plot`` and ``res --html`` draw the error-over-distance panel from.
    """
    import numpy as np  # noqa: PLC0415

    from robot_msgs.report.figures import reference_distances_m  # noqa: PLC0415

    distance = reference_distances_m(result, series)
    evo_zip = Path(path).suffix.lower() == ".zip"
    if distance is None and evo_zip and result.comparison.metric != "rpe":
        from robot_msgs.io.evo_results import read_evo_distances  # noqa: PLC0415

        found = read_evo_distances(path)
        if found is not None and found.size == len(series):
            distance = np.asarray(found, dtype=np.float64)
    return distance


def _ranked_by(comparison: Comparison) -> tuple[str, float]:
    """Return the statistic ``res`` ranks ``comparison``'s kind by, and its target.

    The rms, smallest best; a metric's published figure where it is another
    (:data:`~robot_msgs.compare.statistics.PUBLISHED_STATISTICS`: KITTI drift's mean; by
    rms, a spike a third of the segments cross came before a 1 % error on all of them); a
    NEES's mean, closest to its degrees of freedom
    (:func:`robot_msgs.evaluation.consistency.rank_target`).
    """
    quantity = comparison.signals[0].quantity
    published = PUBLISHED_STATISTICS.get(comparison.metric, "rms")
    statistic = "mean" if quantity in NEES_DOF else published
    return statistic, rank_target(quantity, statistic)
