"""The ONE settings block of a sweep: which metrics each run gets, and with which options.

``[settings]`` holds options shared by every evaluation (each evaluation takes those its
metric accepts) and ``[[settings.evaluate]]`` one entry per Comparison computed for each
run; an entry's own keys override the shared ones. The options are exactly the keyword
arguments of :func:`robot_msgs.evaluation.ape` and :func:`robot_msgs.evaluation.rpe`.

WHY one block: a ranking may only compare numbers computed the same way (the SLAM guide:
"do not silently mix these evaluation settings within one ranking"), so a sweep has one
set of settings and per-run overrides do not exist.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from robot_msgs.compare import ErrorStats
from robot_msgs.compare.alignment import ALIGNMENT_METHODS
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation import (
    APE_RELATIONS,
    DELTA_UNITS,
    PAIRS_FROM,
    RPE_RELATIONS,
    SYNC_METHODS,
)
from robot_msgs.evaluation.relations import check_relation

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "APE_OPTIONS",
    "DEFAULT_EVALUATION",
    "RPE_OPTIONS",
    "Evaluation",
    "OptionValue",
    "Settings",
]

OptionValue: TypeAlias = "str | float | int | bool | tuple[float, float]"
"""An evaluation option's value (``align_window_s`` is the one pair)."""

_WINDOW = "window"  # marker type: a [start, end] pair of seconds

#: Options an APE evaluation accepts, with the TOML types each may have.
APE_OPTIONS: dict[str, tuple[type | str, ...]] = {
    "relation": (str,),
    "align": (str,),
    "n_align": (int,),
    "align_window_s": (_WINDOW,),
    "sync": (str,),
    "max_diff_s": (float, int),
    "offset_s": (float, int),
    "max_gap_s": (float, int),
}
#: Options an RPE evaluation accepts: APE's plus the pair selection.
RPE_OPTIONS: dict[str, tuple[type | str, ...]] = {
    **APE_OPTIONS,
    "delta": (float, int),
    "delta_unit": (str,),
    "all_pairs": (bool,),
    "pairs_from": (str,),
    "rel_delta_tol": (float, int),
}
_OPTIONS = {"ape": APE_OPTIONS, "rpe": RPE_OPTIONS}
#: Options whose value is one of a fixed set (checked before any run is evaluated).
_CHOICES: dict[str, tuple[str, ...]] = {
    "align": ALIGNMENT_METHODS,
    "sync": SYNC_METHODS,
    "delta_unit": DELTA_UNITS,
    "pairs_from": PAIRS_FROM,
}
_RELATIONS = {"ape": APE_RELATIONS, "rpe": RPE_RELATIONS}

#: The evaluation a sweep runs when its settings name none.
DEFAULT_EVALUATION: dict[str, Any] = {"metric": "ape", "relation": "translation"}


def _option(key: str, value: object, types: tuple[type | str, ...], where: str) -> OptionValue:
    """Check one option's type; numbers become floats where floats are allowed."""
    if _WINDOW in types:
        ok = (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            and all(math.isfinite(v) for v in value)
            and value[0] < value[1]
        )
        if not ok:
            msg = (
                f"{where}: expected `{key}` as [start, end] seconds with start < end, got {value!r}"
            )
            raise FormatError(msg)
        assert isinstance(value, list)
        return (float(value[0]), float(value[1]))
    kinds = tuple(t for t in types if isinstance(t, type))
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(t.__name__ for t in kinds)
        msg = f"{where}: expected `{key}` as {names}, got {value!r}"
        raise FormatError(msg)
    if float in kinds and not isinstance(value, bool):
        assert isinstance(value, (int, float))
        return float(value)
    assert isinstance(value, (str, int, bool))
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Evaluation:
    """One metric call per run: ``metric`` (``"ape"`` or ``"rpe"``) and its keyword options.

    ``name`` labels its rows in the results table; by default ``metric:relation`` plus,
    for RPE, the delta (``rpe:translation:1.0s:all``).

    Examples
    --------
    >>> entry = {"metric": "rpe", "relation": "translation", "delta": 1, "delta_unit": "m"}
    >>> ev = Evaluation.build(entry)
    >>> ev.name, ev.kwargs()
    ('rpe:translation:1.0m', {'delta': 1.0, 'delta_unit': 'm', 'relation': 'translation'})
    """

    metric: str
    options: tuple[tuple[str, OptionValue], ...]
    name: str

    @classmethod
    def build(cls, entry: Mapping[str, Any], *, where: str = "settings") -> Evaluation:
        """Check one ``[[settings.evaluate]]`` entry (shared settings merged in) and build it.

        Raises
        ------
        FormatError
            An unknown metric, an option the metric does not take, a value of the wrong
            type or not among the choices (alignment, sync, delta unit, relation...); the
            message names where.
        """
        metric = entry.get("metric", "ape")
        if metric not in _OPTIONS:
            msg = f"{where}: expected `metric` one of {sorted(_OPTIONS)}, got {metric!r}"
            raise FormatError(msg)
        allowed = _OPTIONS[metric]
        options: dict[str, OptionValue] = {}
        for key, value in entry.items():
            if key in {"metric", "name"}:
                continue
            if key not in allowed:
                expected = f"expected one of {sorted(allowed)}"
                msg = f"{where}: `{key}` is not an option of {metric}; {expected}"
                raise FormatError(msg)
            options[key] = _option(key, value, allowed[key], where)
            if key in _CHOICES and options[key] not in _CHOICES[key]:
                msg = f"{where}: expected `{key}` one of {list(_CHOICES[key])}, got {value!r}"
                raise FormatError(msg)
            if key == "relation":
                try:
                    check_relation(str(value), allowed=_RELATIONS[metric])
                except ValidationError as err:
                    msg = f"{where}: {metric} `relation`: {err}"
                    raise FormatError(msg) from err
        name = entry.get("name")
        if name is None:
            name = f"{metric}:{options.get('relation', 'translation')}"
            if metric == "rpe":
                name += f":{options.get('delta', 1.0)}{options.get('delta_unit', 'f')}"
                name += ":all" if options.get("all_pairs") else ""
        if not isinstance(name, str) or not name:
            msg = f"{where}: expected `name` as a non-empty string, got {name!r}"
            raise FormatError(msg)
        return cls(metric=metric, options=tuple(sorted(options.items())), name=name)

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``robot_msgs.evaluation.ape``/``rpe`` for this evaluation."""
        return dict(self.options)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"name", "metric", **options}``."""
        return {"name": self.name, "metric": self.metric, **dict(self.options)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The ONE settings block of a sweep: its evaluations and the statistic aggregated.

    ``statistic`` is the ``ErrorStats`` field of each run that Aggregates distribute
    across runs and rankings compare (``"rms"`` by default).
    """

    evaluations: tuple[Evaluation, ...] = field(
        default_factory=lambda: (Evaluation.build(DEFAULT_EVALUATION),)
    )
    statistic: str = "rms"

    @classmethod
    def build(cls, block: Mapping[str, Any], *, where: str = "[settings]") -> Settings:
        """Check a ``[settings]`` table (shared keys plus ``[[settings.evaluate]]``).

        Raises
        ------
        FormatError
            An unknown key, a bad value, no evaluation, or two evaluations with one name.

        Examples
        --------
        >>> s = Settings.build({"align": "se3", "evaluate": [{"metric": "ape"}]})
        >>> [ev.to_dict() for ev in s.evaluations]
        [{'name': 'ape:translation', 'metric': 'ape', 'align': 'se3'}]
        """
        shared = {k: v for k, v in block.items() if k != "evaluate"}
        statistic = shared.pop("statistic", "rms")
        if statistic not in ErrorStats.__dataclass_fields__:
            msg = f"{where}: expected `statistic` an ErrorStats field, got {statistic!r}"
            raise FormatError(msg)
        unknown = sorted(set(shared) - set(RPE_OPTIONS))
        if unknown:
            expected = f"expected one of {sorted([*RPE_OPTIONS, 'statistic', 'evaluate'])}"
            msg = f"{where}: unknown setting `{unknown[0]}`; {expected}"
            raise FormatError(msg)
        entries = block.get("evaluate", [DEFAULT_EVALUATION])
        if not isinstance(entries, list) or not entries:
            msg = f"{where}: expected `evaluate` as a non-empty array of tables, got {entries!r}"
            raise FormatError(msg)
        evaluations: list[Evaluation] = []
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                msg = f"{where}: expected evaluate[{i}] as a table, got {entry!r}"
                raise FormatError(msg)
            accepted = _OPTIONS.get(entry.get("metric", "ape"), {})
            merged = {k: v for k, v in shared.items() if k in accepted} | entry
            evaluations.append(Evaluation.build(merged, where=f"{where} evaluate[{i}]"))
        names = [ev.name for ev in evaluations]
        duplicate = next((n for n in names if names.count(n) > 1), None)
        if duplicate is not None:
            msg = f"{where}: two evaluations are named {duplicate!r}; give each a distinct `name`"
            raise FormatError(msg)
        return cls(evaluations=tuple(evaluations), statistic=statistic)

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON form (part of every task's content hash)."""
        return {
            "statistic": self.statistic,
            "evaluate": [ev.to_dict() for ev in self.evaluations],
        }
