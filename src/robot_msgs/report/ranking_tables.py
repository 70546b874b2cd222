"""The ranking table, and the words it is headed and noted with.

:func:`ranking_table` tabulates a :class:`~robot_msgs.compare.Ranking` with notes on how
it ranked and with which settings (:func:`settings_text`, spelt as the flags that set
them); :func:`metric_title` names the metric ranked in words.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.report.report_table import MISSING, ReportTable, _num, _pct
from robot_msgs.report.run_tables import NOT_STATED, sequence_name
from robot_msgs.report.text import counted

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.compare.ranking import Ranking, RankingRow
    from robot_msgs.msg import Value
    from robot_msgs.runs.run_settings import MetricSpec

__all__ = ["metric_title", "ranking_table", "settings_text"]


def settings_text(settings: Mapping[str, Value]) -> str:
    """Spell a report's settings as the flags that set them, only where not the defaults.

    The defaults are ``robot-msgs report``'s and ``bench``'s (:class:`RunSettings`, and
    its RPE over all pairs 1 s apart), which are not ``ape``'s: with none changed, they
    are named (``--align se3``) rather than called "the defaults". One vocabulary in
    every output: report's and bench's own flags (``--rpe-delta``, ``--rpe-unit``), the
    flag's spelling of a value (``--sync one-to-one``), never a field name or a Python
    ``None``.

    Examples
    --------
    >>> settings_text({"align": "se3", "sync": "one_to_one", "n_align": None, "delta": 1.0})
    '--sync one-to-one'
    >>> settings_text({"align": "sim3", "confidence": 0.95, "delta_unit": "m"})
    '--align sim3 --rpe-unit m'
    >>> settings_text({"align": "se3", "delta": 1.0, "delta_unit": "s", "all_pairs": True})
    "report's defaults: --align se3, RPE over all pairs 1 s apart"
    >>> settings_text({"align": "se3", "relation": "translation"})
    "report's defaults: --align se3"
    """
    from robot_msgs.cli._flag_text import changed_from, flags_text  # noqa: PLC0415
    from robot_msgs.evaluation.settings import Ape  # noqa: PLC0415
    from robot_msgs.runs.run_settings import DEFAULT_METRICS, RunSettings  # noqa: PLC0415

    run = RunSettings().record()
    pairs = next(m.pairs for m in DEFAULT_METRICS if m.pairs is not None)
    defaults = {**Ape().record(), **pairs.record(), **run}
    own = {"delta": "--rpe-delta", "delta_unit": "--rpe-unit"}  # report's flags, not rpe's
    changed = changed_from(settings, defaults)
    words = [flags_text({k: v for k, v in changed.items() if k not in own}, defaults=defaults)]
    words += [
        f"{flag} {flags_text({k: changed[k]}, bare=True)}"
        for k, flag in own.items()
        if k in changed
    ]
    text = " ".join(w for w in words if w != "the defaults")
    if text:
        return text
    text = f"report's defaults: --align {run['align']}"
    if "delta" in settings:  # an RPE's settings
        text += f", RPE over all pairs {pairs.delta:g} {pairs.delta_unit} apart"
    return text


def metric_title(metric: MetricSpec) -> str:
    """Name a metric of a sweep in words; a name the manifest gave it (``name =``) as given.

    Its default name is a key (``rpe:angle_deg:10f:all``), not words for a heading.

    Examples
    --------
    >>> from robot_msgs.evaluation import PairSettings
    >>> from robot_msgs.runs.run_settings import MetricSpec
    >>> metric_title(MetricSpec.build("ape"))
    'APE translation error'
    >>> pairs = PairSettings(delta=10, delta_unit="f", all_pairs=True)
    >>> metric_title(MetricSpec.build("rpe", relation="angle_deg", pairs=pairs))
    'RPE rotation error over 10 frames, all pairs'
    >>> metric_title(MetricSpec.build("ape", name="ATE"))
    'ATE'
    """
    from robot_msgs.report.figures import signal_words  # noqa: PLC0415 - NumPy
    from robot_msgs.runs.run_settings import MetricSpec  # noqa: PLC0415

    pairs = metric.pairs
    if metric.name != MetricSpec.build(metric.metric, relation=metric.relation, pairs=pairs).name:
        return metric.name
    if pairs is None:
        return f"{metric.metric.upper()} {signal_words(metric.relation)}"
    words = signal_words(metric.relation, delta=pairs.delta, delta_unit=pairs.delta_unit)
    return f"{metric.metric.upper()} {words}" + (", all pairs" if pairs.all_pairs else "")


def _row_name(row: RankingRow) -> str:
    """Name a ranking's line; an algorithm the runs do not name ``not stated``.

    As the environment table says it (the cell was empty, and `` 2.0`` for one of two
    versions of it; a review): the label is the algorithm's name and what tells its
    configurations apart, so the words take the empty name's place.

    Examples
    --------
    >>> from robot_msgs.compare.ranking import RankingRow
    >>> row = RankingRow(algorithm="", position=1, mean_rank=1.0, n_runs=1, n_succeeded=1)
    >>> _row_name(row), _row_name(row.replace(version="2.0", label=" 2.0"))
    ('not stated', 'not stated 2.0')
    """
    return row.name if row.algorithm else f"{NOT_STATED}{row.name}"


def _score(scores: Mapping[str, float], sequence: str) -> str:
    """Say a ranking cell's score: ``n/a`` where none, ``inf`` (failures worst), ``-`` NaN.

    Examples
    --------
    >>> [_score({"a": 0.12345, "b": float("inf")}, s) for s in "abc"]
    ['0.1235', 'inf', 'n/a']
    """
    if sequence not in scores:
        return "n/a"
    value = scores[sequence]
    return "inf" if value == math.inf else _num(value, 4)


def ranking_table(ranking: Ranking, judged: Mapping[str, Value] | None = None) -> ReportTable:
    """Tabulate the ranking: position, algorithm, mean rank, success, score (rank) per sequence."""
    headers = (
        "#", "algorithm", "mean rank", "success", "coverage",
        *(
            f"{sequence_name(s)} [{ranking.unit}]" if ranking.unit else sequence_name(s)  # NEES
            for s in ranking.sequences
        ),
    )  # fmt: skip
    rows = []
    unscored = False  # a cell of successful runs with no score ("n/a (k)")
    for row in ranking.rows:
        cells = [
            MISSING if s not in row.ranks else f"{_score(row.scores, s)} ({row.ranks[s]:g})"
            for s in ranking.sequences
        ]
        unscored |= any(s not in row.scores for s in row.ranks)
        rows.append(
            (
                str(row.position),
                _row_name(row),
                f"{row.mean_rank:.2f}",
                f"{row.n_succeeded}/{row.n_runs}",
                _pct(row.mean_coverage),
                *cells,
            )
        )
    # How success was judged (coverage, end tolerance) decides the success column and
    # the ranking, and the reading rules chosen move the numbers: the report's run
    # settings join the ranked metric's.
    judges = (
        "min_coverage", "end_tolerance_s", "coverage_gap_s", "kitti_rotations", "repeated_stamps",
        "rank_failures",
    )  # fmt: skip
    extra = {k: v for k, v in (judged or {}).items() if k in judges}
    settings = settings_text({**ranking.settings, **extra})
    # A signed error's median is ranked by its magnitude (rank_value): said, with the sign
    # the scores no longer have.
    figure = f"|{ranking.statistic}|" if ranking.magnitude else ranking.statistic
    signed = (
        f"; the errors are signed: each run's {ranking.statistic} is ranked by its "
        "magnitude, closest to zero best"
        if ranking.magnitude
        else ""
    )
    if ranking.target:  # a NEES: rank_target says why
        figure = f"|{ranking.statistic} - {ranking.target:g}|"
        signed = (
            f"; a consistent estimate's mean NEES is its {ranking.target:g} degrees of "
            "freedom: each run's is ranked by its distance from them, closest best"
        )
    na = f"; n/a (k) = succeeded, no {ranking.statistic} to score: ranked last" if unscored else ""
    over, none = "successful runs", "- (k) = run there, none succeeded: ranked last"
    if ranking.settings.get("rank_failures") == "worst":  # --rank-failures worst
        over = "all runs, a failed one counted as the worst error (inf),"
        none = "inf (k) = half or more failed"
    notes = [
        (
            f"Ranked by the median over {over} of {ranking.metric} {ranking.signal} "
            f"{figure}, per sequence (rank in brackets; - = not run there; {none}{na}){signed}."
        ),
        f"Settings: {settings}.",
        *ranking.notes,  # a tie among them, said where the ranking is made
    ]
    if ranking.left_out:
        reasons = ", ".join(f"{why} {n}" for why, n in ranking.left_out.items())
        lacks = counted(
            ranking.n_left_out,
            "run that failed to evaluate or was not evaluated",
            "runs that failed to evaluate or were not evaluated",
        )
        they = "it counts" if ranking.n_left_out == 1 else "they count"
        notes.append(f"Lacks {lacks} ({reasons}): {they} for no algorithm.")
    title = "Ranking (FORCED: settings mixed)" if ranking.forced else "Ranking"
    return ReportTable(
        title,
        headers,
        tuple(rows),
        (True, False, True, True, True, *([True] * len(ranking.sequences))),
        tuple(notes),
    )
