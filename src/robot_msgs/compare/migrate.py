"""Read results saved before signals were one value (release 9745f2d and earlier).

The migration, stated: in that form a ``Comparison`` held three parallel maps and a flat
bag of settings, and an ``EvaluationResult`` a fourth map; now each signal is one
:class:`~robot_msgs.compare.Signal` and the settings, the metric's parameters and the
estimated values are apart. An old form is recognised by its keys and rewritten, as data,
before it is read (each type's ``_upgrade``, which the message base calls):

- ``Comparison``: ``stats[name]`` and ``units[name]`` (and, in a result, ``series[name]``)
  become the signal ``name``. Its ``quantity`` and typed parameters are found by making
  the names the metric makes (:func:`~robot_msgs.compare.signal_name`) from the recorded
  parameters (the relation and each ``delta``; each of ``lengths_m`` with the drift
  quantities) and matching them; a name that none gives is its own quantity (control
  channels). ``settings`` splits into the ``EvaluationSettings`` fields, the estimated
  values (``offset_estimated_s``, ``offset_std_s``, ``nees_*`` bounds) and the rest, the
  metric's ``parameters``. An offset saved without its cost curve becomes a
  ``TimeOffset`` with an empty curve and a note saying so.
- ``EvaluationResult``: ``series`` moves into the comparison's signals, ``time_offset``
  into its ``estimated``.
- ``Aggregate``: ``stats`` and ``units`` become signals without series.
- ``GroupSummary``: ``signals`` (a map of statistics) and ``units`` become signals.

Release 3ddaaa9 and earlier (``tests/data/saved_3ddaaa9``) saved an ``EvaluationResult``'s
estimate as compared, after the alignment, under ``estimate``; a result now keeps the
matched poses before it (``matched_estimate``) and derives the compared ones on use, so
10^7 poses are not held twice. An old ``estimate`` is read as ``compared_estimate``, the
estimate as compared, exactly as saved (:func:`result_v1`).

Releases before the rename (c2d08f8: ``tests/data/saved_c2d08f8``) named rpg's yaw
``yaw_deg``, the name of APE's yaw about the reference body's z; rpg's ``rel_yaw`` is
about the z axis of the world the estimate is expressed in, and is now ``yaw_world_deg``
(the world-axes name, labelled "world z"). A signal of that form (quantity ``yaw_deg``
with a segment length: only rpg's relative error made one) is read under the new name,
its label too (``Signal._upgrade``: a signal reads its own old form, as a migration
here, importing that module, would be a cycle); so is a ranking of it (:func:`ranking_v0`).
APE's and RPE's ``yaw_deg`` have no segment length and keep their name.

Nothing else changed form; files of the current form pass through unchanged. A file of
an old form whose parts are not what that form held (``stats`` a list, ``delta`` a word) is
refused with a :class:`~robot_msgs.errors.ValidationError` naming the part, as a file of
today's form is.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from robot_msgs.compare.signal import renamed_rpg_yaw, signal_name
from robot_msgs.evaluation.settings import DEFAULT_OFFSET_SEARCH_S, EvaluationSettings
from robot_msgs.msg import field_specs
from robot_msgs.msg.arrays import NON_FINITE, field_error

__all__ = [
    "aggregate_v0",
    "comparison_v0",
    "group_summary_v0",
    "ranking_v0",
    "renamed_signal",
    "result_v0",
    "result_v1",
]

#: The quantities the drift protocols computed per segment length, by 9745f2d's names.
_DRIFT_QUANTITIES = (
    "translation_pct",
    "rotation_deg_per_m",
    "translation",
    "rotation_deg",
    "yaw_deg",
    "gravity_deg",
)
_NEES = ("nees_dof", "nees_mean_bounds", "nees_pose_bounds")
_OFFSET = ("offset_estimated_s", "offset_std_s")


def _tuple(value: Any) -> tuple[Any, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def _mapping(data: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any]:
    """Return ``data[key]`` (``{}`` when absent), a mapping as the old form held there.

    Raises
    ------
    ValidationError
        It is something else (a list, a number, ``null``), named by ``path``.
    """
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise field_error(
            expected="a mapping by name (a saved form of 9745f2d)", value=value, path=path
        )
    return value


def _number(value: Any, path: str) -> float:
    """Return a number of the old form as a float: a JSON number, or a non-finite spelling.

    Raises
    ------
    ValidationError
        Anything else (a word, a list, ``null``, an integer beyond float64), named by ``path``.
    """
    if isinstance(value, int | float) or (isinstance(value, str) and value in NON_FINITE):
        try:
            return float(value)
        except OverflowError as err:
            raise field_error(expected="a float (|x| < 1.8e308)", value=value, path=path) from err
    raise field_error(expected="a number", value=value, path=path)


def _identities(parameters: Mapping[str, Any], path: str) -> dict[str, dict[str, Any]]:
    """Return the signal names the metric of ``parameters`` makes, with their typed fields.

    ``path`` names ``parameters`` in errors (``Comparison.settings``).
    """
    out: dict[str, dict[str, Any]] = {}
    relation = parameters.get("relation")
    unit = parameters.get("delta_unit")
    deltas = [_number(d, f"{path}['delta']") for d in _tuple(parameters.get("delta"))]
    if isinstance(relation, str):
        for d in deltas:
            typed = {"quantity": relation, "delta": d, "delta_unit": unit}
            out[signal_name(relation, delta=d, delta_unit=unit)] = typed
        single = {"delta": deltas[0], "delta_unit": unit} if len(deltas) == 1 else {}
        out[relation] = {"quantity": relation, **single}
    for given in _tuple(parameters.get("lengths_m")):
        length = _number(given, f"{path}['lengths_m']")
        for quantity in _DRIFT_QUANTITIES:
            typed = {"quantity": quantity, "length_m": length}
            out[signal_name(quantity, length_m=length)] = typed
    return out


def _time_offset(old: Mapping[str, Any], settings: Mapping[str, Any], matched: int) -> Any:
    """Return the ``TimeOffset`` dict of an offset saved with its value and std only."""
    path = "Comparison.settings"
    offset = _number(old["offset_estimated_s"], f"{path}['offset_estimated_s']")
    given_half = settings.get("offset_search_s")
    half = DEFAULT_OFFSET_SEARCH_S
    if given_half is not None:
        half = _number(given_half, f"{path}['offset_search_s']") or DEFAULT_OFFSET_SEARCH_S
    centre = _number(settings.get("offset_s") or 0.0, f"{path}['offset_s']")
    return {
        "_type": "compare/TimeOffset",
        "offset_s": offset,
        "std_s": old.get("offset_std_s", math.inf),
        "search_s": [centre - half, centre + half],
        "n_poses": matched,
        "rms_m": None,
        "contrast": None,
        "candidates_s": {"dtype": "float64", "shape": [0], "data": []},
        "cost_rms_m": {"dtype": "float64", "shape": [0], "data": []},
        "notes": ["saved before results kept the cost curve: only the offset and its std"],
    }


def comparison_v0(
    data: Mapping[str, Any],
    *,
    series: Mapping[str, Any] | None = None,
    time_offset: Any = None,
) -> dict[str, Any]:
    """Rewrite an old ``Comparison`` dict (``stats``/``units``/flat ``settings``) as today's.

    ``series`` and ``time_offset`` are an old result's, which held them beside it.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, error_stats
    >>> old = {"metric": "rpe", "stats": {"translation@1s": error_stats([0.1]).to_dict()},
    ...        "units": {"translation@1s": "m"},
    ...        "settings": {"relation": "translation", "delta": [1.0, 2.0], "delta_unit": "s",
    ...                     "align": "se3"}}
    >>> c = Comparison.from_dict(old)
    >>> s = c.signals[0]
    >>> s.quantity, s.delta, s.delta_unit, c.settings.align, c.parameters["delta"]
    ('translation', 1.0, 's', 'se3', (1.0, 2.0))
    """
    old = dict(_mapping(data, "settings", "Comparison.settings"))
    stats = _mapping(data, "stats", "Comparison.stats")
    units = _mapping(data, "units", "Comparison.units")
    fields = field_specs(EvaluationSettings)
    settings = {k: old.pop(k) for k in list(old) if k in fields}
    estimated: dict[str, Any] = {k: old.pop(k) for k in _NEES if k in old}
    offset = {k: old.pop(k) for k in _OFFSET if k in old}
    if time_offset is not None:
        estimated["time_offset"] = time_offset
    elif offset:
        matched = _mapping(data, "counts", "Comparison.counts").get("matched", 0)
        if not isinstance(matched, int):
            raise field_error(expected="int", value=matched, path="Comparison.counts['matched']")
        estimated["time_offset"] = _time_offset(offset, settings, matched)
    known = _identities(old, "Comparison.settings")
    signals = [
        {
            "name": name,
            "quantity": name,
            **known.get(name, {}),
            "unit": units.get(name, ""),
            "stats": stats,
            "series": (series or {}).get(name),
        }
        for name, stats in stats.items()
    ]
    rest = {k: v for k, v in data.items() if k not in ("stats", "units", "settings")}
    return {
        **rest,
        "signals": signals,
        "settings": settings or None,
        "parameters": old,
        "estimated": estimated or None,
    }


def result_v0(data: Mapping[str, Any]) -> dict[str, Any]:
    """Rewrite an old ``EvaluationResult`` dict: its series and offset into the comparison."""
    rest = {k: v for k, v in data.items() if k not in ("series", "time_offset")}
    comparison = data.get("comparison")
    if isinstance(comparison, Mapping) and "stats" in comparison:  # else refused as it is
        series = _mapping(data, "series", "EvaluationResult.series")
        rest["comparison"] = comparison_v0(
            comparison, series=series, time_offset=data.get("time_offset")
        )
    return rest


def result_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Rewrite an ``EvaluationResult`` dict of release 3ddaaa9: ``estimate`` as compared.

    Its poses after the alignment (and the plane projection) become
    ``compared_estimate``; the matched poses before it were not saved, so
    ``matched_estimate`` stays empty (``None``).
    """
    rest = {k: v for k, v in data.items() if k != "estimate"}
    return {**rest, "compared_estimate": data["estimate"]}


def _summary_signals(data: Mapping[str, Any], key: str, type_name: str) -> list[dict[str, Any]]:
    """Return the signals of the maps ``data[key]`` (statistics) and ``data["units"]``."""
    stats = _mapping(data, key, f"{type_name}.{key}")
    units = _mapping(data, "units", f"{type_name}.units")
    return [
        {"name": n, "quantity": n, "unit": units.get(n, ""), "stats": s} for n, s in stats.items()
    ]


def aggregate_v0(data: Mapping[str, Any]) -> dict[str, Any]:
    """Rewrite an old ``Aggregate`` dict: ``stats`` and ``units`` as signals."""
    rest = {k: v for k, v in data.items() if k not in ("stats", "units")}
    return {**rest, "signals": _summary_signals(data, "stats", "Aggregate")}


def group_summary_v0(data: Mapping[str, Any]) -> dict[str, Any]:
    """Rewrite an old ``GroupSummary`` dict: the map ``signals`` and ``units`` as signals."""
    rest = {k: v for k, v in data.items() if k != "units"}
    return {**rest, "signals": _summary_signals(data, "signals", "GroupSummary")}


def renamed_signal(metric: str, name: str) -> str | None:
    """Return today's name of a signal of ``metric`` named ``name`` before a rename, or ``None``.

    The one rename of a signal so far: rpg's yaw per segment, ``yaw_deg@…`` up to
    release c2d08f8 (only ``relative_error`` named a length so). What a saved ranking is
    read as (:func:`ranking_v0`), and what an error names for an old name typed.

    Examples
    --------
    >>> renamed_signal("relative_error", "yaw_deg@7.58m")
    'yaw_world_deg@7.58m'
    >>> renamed_signal("rpe", "yaw_deg@1m") is None  # RPE's delta in metres: body z
    True
    """
    if metric != "relative_error":
        return None
    label = renamed_rpg_yaw(name)
    return None if label == name else label


def ranking_v0(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """Rewrite a ``Ranking`` dict by rpg's yaw, ``signal`` ``yaw_deg@…`` (before the rename)."""
    metric, signal = data.get("metric"), data.get("signal")
    if not isinstance(metric, str) or not isinstance(signal, str):
        return data
    label = renamed_signal(metric, signal)
    return data if label is None else {**data, "signal": label}
