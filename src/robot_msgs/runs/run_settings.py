"""How a set of runs is evaluated: ONE value, shared by ``robot-msgs report`` and ``bench``.

:class:`RunSettings` holds the :class:`~robot_msgs.evaluation.EvaluationSettings` every
run is cut, matched and aligned with, the metrics computed for each run
(:class:`MetricSpec`: APE or RPE, the relation, the pairs), the statistic that rankings
and aggregates compare, and the two rules that judge a run's success. A manifest's
``[settings]`` table decodes into it (:meth:`RunSettings.from_options`), the command-line
flags build it (``cli/_settings_args.py``), and it is recorded with every result.

WHY one block per set of runs: a ranking may only compare numbers computed the same way
(the SLAM guide: "do not silently mix these evaluation settings within one ranking"), so
per-run settings do not exist; a metric may set its own evaluation settings (an RPE
without alignment beside an aligned APE), and then every run gets the same pair.

``[settings]`` keys: every field of ``EvaluationSettings`` (``align``, ``sync``,
``max_diff_s``, ``spatial_pairs``...; ``robot-msgs schema evaluation/EvaluationSettings``
lists them), the reading rules of :class:`~robot_msgs.evaluation.ReadSettings`
(``repeated_stamps``, ``kitti_rotations``), ``statistic``, ``coverage_gap_s``,
``end_tolerance_s``, ``min_coverage``, ``rank_failures``, and
``[[settings.evaluate]]`` entries: ``metric`` (``ape``/``rpe``), ``relation``, ``name``,
for RPE the fields of ``PairSettings`` (``delta``, ``delta_unit``, ``all_pairs``,
``pairs_from``, ``delta_tol``), and any ``EvaluationSettings`` field, which overrides the
shared one for that metric.

Examples
--------
>>> s = RunSettings.from_options(
...     {"align": "sim3", "evaluate": [{"metric": "rpe", "delta": 1, "delta_unit": "s"}]},
...     where="runs.toml [settings]",
... )
>>> s.evaluation.align, [m.name for m in s.metrics], s.metrics[0].pairs.delta_unit
('sim3', ['rpe:translation:1s'], 's')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from msgspec import Meta

from robot_msgs.compare.statistics import ErrorStats
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation.entry import check_metric_settings
from robot_msgs.evaluation.read_settings import ReadSettings
from robot_msgs.evaluation.relations import APE_RELATIONS, RPE_RELATIONS, check_relation
from robot_msgs.evaluation.settings import (
    Ape,
    EvaluationSettings,
    PairSettings,
    Rpe,
    decode_options,
    key_error,
)
from robot_msgs.flags import Flag
from robot_msgs.msg import Msg, field_specs, message

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.evaluation.settings import DeltaUnit
    from robot_msgs.msg import Value

__all__ = [
    "DEFAULT_METRICS",
    "METRICS",
    "RUN_DEFAULTS",
    "MetricSpec",
    "RunSettings",
    "default_metrics",
]

if TYPE_CHECKING:
    Statistic: TypeAlias = str
else:  # an ErrorStats field of errors: not `n`, a count, which rankings refuse
    Statistic = Literal[tuple(k for k in field_specs(ErrorStats) if k != "n")]

_JUDGE = "metrics and run judgement (default: the manifest's)"

#: The metrics a run can be evaluated with.
METRICS: tuple[str, ...] = ("ape", "rpe")

#: The evaluation settings of runs unless told otherwise: SE(3) alignment (SLAM estimates
#: live in their own world frame), nearest association within 0.01 s.
RUN_DEFAULTS = EvaluationSettings(align="se3")

_RELATIONS = {"ape": APE_RELATIONS, "rpe": RPE_RELATIONS}
#: The keys of a ``[settings]`` table besides the EvaluationSettings fields.
_JUDGE_KEYS = ("statistic", "coverage_gap_s", "end_tolerance_s", "min_coverage", "rank_failures")
_OWN_KEYS = frozenset({"evaluate", *_JUDGE_KEYS})


@message("runs/MetricSpec")
class MetricSpec(Msg):
    """One metric computed for every run: APE or RPE, its relation and, for RPE, its pairs.

    Attributes
    ----------
    name : str
        Labels the metric's rows and columns (default ``metric:relation`` plus the
        pairs' label for RPE: ``rpe:translation:1s:all``).
    metric : str
        APE or RPE.
    relation : str
        The error measured: ``translation``, ``angle_deg``... (APE: one of
        :data:`~robot_msgs.evaluation.relations.APE_RELATIONS`; RPE: one of
        :data:`~robot_msgs.evaluation.relations.RPE_RELATIONS`, which has
        ``point_distance_error_ratio`` and lacks the NEES and the body and world axes).
    pairs : PairSettings or None
        For RPE, its pairs.
    settings : EvaluationSettings or None
        This metric's own evaluation settings, or ``None`` for the run settings' shared
        ones.
    """

    name: str
    metric: str
    relation: str = "translation"
    pairs: PairSettings | None = None
    settings: EvaluationSettings | None = None

    def _validate(self) -> None:
        if self.metric not in METRICS:
            raise self._fail(
                field="metric", expected=f"one of {', '.join(METRICS)}", got=self.metric
            )
        if self.relation not in _RELATIONS[self.metric]:
            choices = ", ".join(_RELATIONS[self.metric])
            raise self._fail(field="relation", expected=f"one of {choices}", got=self.relation)
        if (self.metric == "rpe") != (self.pairs is not None):
            expected = "pair settings" if self.metric == "rpe" else "no pair settings for APE"
            raise self._fail(field="pairs", expected=expected, got=self.pairs)
        if not self.name:
            raise self._fail(field="name", expected="a non-empty name", got=self.name)

    def computed(self) -> Ape | Rpe:
        """Return the metric :func:`~robot_msgs.evaluation.evaluate` computes for this one."""
        if self.pairs is None:
            return Ape(relation=self.relation)
        return Rpe(relation=self.relation, pairs=(self.pairs,))

    @classmethod
    def build(
        cls,
        metric: str,
        *,
        relation: str = "translation",
        pairs: PairSettings | None = None,
        settings: EvaluationSettings | None = None,
        name: str = "",
    ) -> MetricSpec:
        """Make a metric with its default name.

        Examples
        --------
        >>> from robot_msgs.evaluation import PairSettings
        >>> pairs = PairSettings(delta=1, delta_unit="s", all_pairs=True)
        >>> MetricSpec.build("rpe", pairs=pairs).name
        'rpe:translation:1s:all'
        """
        if metric in _RELATIONS and relation in (*_RELATIONS[metric], "trans_part"):
            relation = check_relation(relation, allowed=_RELATIONS[metric])
        if not name:
            name = f"{metric}:{relation}" + (f":{pairs.label()}" if pairs is not None else "")
        return cls(name=name, metric=metric, relation=relation, pairs=pairs, settings=settings)


def default_metrics(
    deltas: Sequence[float] = (1.0,), unit: DeltaUnit = "s"
) -> tuple[MetricSpec, ...]:
    """APE translation, and translation RPE over all pairs for each of ``deltas``.

    Examples
    --------
    >>> [m.name for m in default_metrics((1.0, 5.0), "m")]
    ['ape:translation', 'rpe:translation:1m:all', 'rpe:translation:5m:all']
    """
    rpes = (
        MetricSpec.build("rpe", pairs=PairSettings(delta=d, delta_unit=unit, all_pairs=True))
        for d in deltas
    )
    return (MetricSpec.build("ape"), *rpes)


#: What each run gets unless told otherwise: the report's APE and one-second RPE.
DEFAULT_METRICS = default_metrics()


@message("runs/RunSettings")
class RunSettings(Msg):
    """How every run of a report or a sweep is evaluated and judged.

    ``statistic``: the ``ErrorStats`` field aggregates and rankings compare (``"rms"``).
    ``coverage_gap_s``: consecutive estimate poses further apart leave the time between
    uncovered, seconds. ``end_tolerance_s``: a run succeeds when its last valid pose is
    at most this before the end of the sequence, seconds. A run stamped by frame index
    (KITTI read without its times) counts both in frames at its stated nominal rate
    (``input_rate_hz``: 1 s at 10 Hz is 10 frames); without one, one frame a second,
    stricter than a camera's rate (a limit left unchecked passed any estimate cut short).
    ``min_coverage``: and when its valid poses cover at least this share of the sequence
    (default 0.5: a keyframe-only output, poses seconds apart, covering 19 % is no
    success). ``rank_failures``: how a ranking counts failed runs: ``"apart"`` (each
    sequence's score is the median over the successful runs alone; the success column
    says the failures, as the SLAM guide asks: "report the overall success rate
    separately from the error on evaluable intervals") or ``"worst"`` (each failed run
    is an error of infinity in that median: 3 failures of 10 runs move it up, 5 or more
    make it infinite).

    Attributes
    ----------
    evaluation : EvaluationSettings
        The time range, association and alignment (default SE(3)).
    reading : ReadSettings
        How every run's files are read (repeated stamps, KITTI rotation blocks), once for
        all its metrics: unset, repeated stamps keep the first row, also for an RPE with
        ``protocol="tum"`` (``rpe --protocol tum`` alone keeps the last).
    metrics : tuple of MetricSpec
        Computed for every run with a reference, in order; the first is the one
        rankings and the per-group summaries use.
    """

    evaluation: EvaluationSettings = RUN_DEFAULTS
    reading: ReadSettings = ReadSettings()
    metrics: tuple[MetricSpec, ...] = DEFAULT_METRICS
    statistic: Annotated[
        Statistic,
        Meta(description="the ErrorStats field rankings and aggregates compare"),
        Flag("--statistic", "FIELD", group=_JUDGE),
    ] = "rms"
    coverage_gap_s: Annotated[
        float,
        Meta(
            gt=0,
            description="longer gaps between estimate poses are not covered, seconds "
            "(frames stamped by index: times the run's input_rate_hz, else 1 frame a second)",
        ),
        Flag("--coverage-gap", "SECONDS", group=_JUDGE),
    ] = 1.0
    end_tolerance_s: Annotated[
        float,
        Meta(
            gt=0,
            description="a run succeeds if its last valid pose is at most this before "
            "the end, seconds (frames stamped by index: times the run's input_rate_hz, "
            "else 1 frame a second)",
        ),
        Flag("--end-tolerance", "SECONDS", group=_JUDGE),
    ] = 1.0
    min_coverage: Annotated[
        float,
        Meta(
            ge=0,
            le=1,
            description="a run succeeds only if its valid poses cover at least this share "
            "of the sequence (see --coverage-gap), 0..1",
        ),
        Flag("--min-coverage", "SHARE", group=_JUDGE),
    ] = 0.5
    rank_failures: Annotated[
        Literal["apart", "worst"],
        Meta(
            description="rankings score each sequence by the median over its successful "
            "runs, the failures said apart in the success column (apart), or count each "
            "failed run in that median as the worst error, infinity (worst)",
        ),
        Flag("--rank-failures", group=_JUDGE),
    ] = "apart"

    def _validate(self) -> None:
        for name in ("coverage_gap_s", "end_tolerance_s"):
            value = getattr(self, name)
            if not math.isfinite(value):
                raise self._fail(field=name, expected="a finite number of seconds", got=value)
        for metric in self.metrics:  # refused now, not per run after a sweep's work
            check_metric_settings(self.settings_of(metric), metric.computed(), metric.name)
        # A run's files are read once for all its metrics (coverage and gaps need increasing
        # stamps): 'all' is refused here, where bench failed each of its 18 runs with it.
        self.reading.rule_for("evo")
        names = [m.name for m in self.metrics]
        duplicate = next((n for n in names if names.count(n) > 1), None)
        if duplicate is not None:
            raise self._fail(
                field="metrics", expected=f"distinct names (two are {duplicate!r})", got=names
            )

    def settings_of(self, metric: MetricSpec) -> EvaluationSettings:
        """Return the evaluation settings ``metric`` is computed with."""
        return self.evaluation if metric.settings is None else metric.settings

    def evaluated(self) -> RunSettings:
        """Return these settings with their ranking rules at the defaults: a run's evaluation.

        The ranking rules (``statistic``, ``rank_failures``) change the rankings and
        aggregates, never a run's report: these settings key each run's record.

        WHY: the rules were part of every run's key, and ``bench --resume --rank-failures
        worst`` after a plain bench computed its 120 runs again (7.1 s beside 1.4 s) for
        the rankings alone. At the defaults, not left out: the records of a sweep with
        the default rules keep their keys.

        Examples
        --------
        >>> RunSettings(statistic="max", rank_failures="worst").evaluated() == RunSettings()
        True
        """
        defaults = RunSettings()
        return self.replace(statistic=defaults.statistic, rank_failures=defaults.rank_failures)

    def record(self) -> dict[str, Value]:
        """Return the settings as a flat, structured mapping, for a report's ``settings``.

        Examples
        --------
        >>> RunSettings().record()["metrics"]
        ('ape:translation', 'rpe:translation:1s:all')
        """
        return {
            **self.evaluation.record(),
            **_chosen(self.reading),  # the rules a user chose: they change the numbers
            "metrics": tuple(m.name for m in self.metrics),
            "statistic": self.statistic,
            "coverage_gap_s": self.coverage_gap_s,
            "end_tolerance_s": self.end_tolerance_s,
            "min_coverage": self.min_coverage,  # it decides success: recorded with the rest
            # Only where chosen, as the reading rules: the reports made before it are alike.
            **({"rank_failures": "worst"} if self.rank_failures == "worst" else {}),
        }

    @classmethod
    def from_options(
        cls,
        options: Mapping[str, Any],
        *,
        where: str,
        evaluation: Mapping[str, Any] | None = None,
        metrics: Sequence[MetricSpec] | None = None,
        judge: Mapping[str, Any] | None = None,
        reading: Mapping[str, Any] | None = None,
    ) -> RunSettings:
        """Decode a manifest's ``[settings]`` table (see the module docstring).

        ``evaluation``, ``metrics``, ``judge`` (``statistic``, ``coverage_gap_s``,
        ``end_tolerance_s``, ``min_coverage``, ``rank_failures``) and ``reading``
        (``repeated_stamps``, ``kitti_rotations``) are what command-line flags set: they
        win over the table.

        Raises
        ------
        FormatError
            An unknown key or a bad value in the table, or metrics given both in the
            table and by the flags; the message names ``where`` and the key.
        ValidationError
            A value given by the flags (``evaluation``, ``judge``) that does not fit;
            ``field`` names the setting, so the command line can name its flag.
        """
        table = dict(options)
        read_keys = set(field_specs(ReadSettings))
        known = _OWN_KEYS | read_keys | set(field_specs(EvaluationSettings))
        unknown = sorted(set(table) - known)
        if unknown:
            keys = ", ".join(sorted(known))
            msg = f"{where}: unknown key `{unknown[0]}`; expected one of {keys}"
            raise FormatError(msg)
        rules = decode_options(
            ReadSettings, {k: table.pop(k) for k in read_keys & set(table)}, where=where
        )
        rules = rules.replace(**reading) if reading else rules  # a flag's error names it
        entries = table.pop("evaluate", None)
        own = {k: table.pop(k) for k in _JUDGE_KEYS if k in table}
        shared = decode_options(EvaluationSettings, table, where=where, base=RUN_DEFAULTS)
        try:
            shared = shared.replace(**evaluation) if evaluation else shared
        except ValidationError as err:  # a flag's value, or the table's that it contradicts
            if err.field.rsplit(".", 1)[-1] in (evaluation or {}):
                raise
            raise key_error(err, where) from err
        if entries is not None and metrics is not None:
            msg = (
                f"{where}: the metrics are given twice, by [[settings.evaluate]] and by the "
                "command line (`metrics=`); use one"
            )
            raise FormatError(msg)
        if entries is None:
            chosen = tuple(metrics) if metrics is not None else DEFAULT_METRICS
        else:
            chosen = _metrics(entries, shared, where)
        try:
            settings = cls(evaluation=shared, reading=rules, metrics=chosen, **own)
        except ValidationError as err:
            if err.field.rsplit(".", 1)[-1] in {**(evaluation or {}), **(reading or {})}:
                raise  # a flag's value: the command line names the flag
            raise key_error(err, where) from err
        return settings.replace(**judge) if judge else settings


def _chosen(rules: ReadSettings) -> dict[str, Value]:
    """Return the reading rules that differ from the defaults, for :meth:`RunSettings.record`.

    Examples
    --------
    >>> _chosen(ReadSettings()), _chosen(ReadSettings(kitti_rotations="as_given"))
    ({}, {'kitti_rotations': 'as_given'})
    """
    defaults = ReadSettings()
    return {
        name: getattr(rules, name)
        for name in field_specs(ReadSettings)
        if getattr(rules, name) != getattr(defaults, name)
    }


def _override(
    base: EvaluationSettings, values: Mapping[str, Any], where: str
) -> EvaluationSettings:
    try:
        return base.replace(**values)
    except ValidationError as err:
        raise key_error(err, where) from err


def _metrics(entries: object, shared: EvaluationSettings, where: str) -> tuple[MetricSpec, ...]:
    """Decode the ``[[settings.evaluate]]`` entries."""
    if not isinstance(entries, list) or not entries:
        msg = f"{where}: expected `evaluate` as a non-empty array of tables, got {entries!r}"
        raise FormatError(msg)
    settings_keys = set(field_specs(EvaluationSettings))
    pair_keys = set(field_specs(PairSettings))
    out = []
    for i, entry in enumerate(entries):
        at = f"{where} evaluate[{i}]"
        if not isinstance(entry, dict):
            msg = f"{at}: expected a table, got {entry!r}"
            raise FormatError(msg)
        metric = entry.get("metric", "ape")
        if metric not in METRICS:
            msg = f"{at}: `metric`: expected one of {', '.join(METRICS)}, got {metric!r}"
            raise FormatError(msg)
        allowed = {"metric", "relation", "name"} | settings_keys
        allowed |= pair_keys if metric == "rpe" else set()
        unknown = sorted(set(entry) - allowed)
        if unknown:
            msg = f"{at}: unknown key `{unknown[0]}`; expected one of {', '.join(sorted(allowed))}"
            raise FormatError(msg)
        own = {k: v for k, v in entry.items() if k in settings_keys}
        settings = _override(shared, own, at) if own else None
        pairs = None
        if metric == "rpe":
            pairs = decode_options(
                PairSettings, {k: v for k, v in entry.items() if k in pair_keys}, where=at
            )
        name = entry.get("name", "")
        if not isinstance(name, str):
            msg = f"{at}: `name`: expected a string, got {name!r}"
            raise FormatError(msg)
        try:
            out.append(
                MetricSpec.build(
                    metric,
                    relation=str(entry.get("relation", "translation")),
                    pairs=pairs,
                    settings=settings,
                    name=name,
                )
            )
        except ValidationError as err:
            raise key_error(err, at) from err
    return tuple(out)
