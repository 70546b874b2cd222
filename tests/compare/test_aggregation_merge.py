"""Tallies merge (`compare/aggregation.py`): merged slices tally as the whole sequence does.

The law the sweep's outputs rest on (each block of runs is tallied by a worker, the client
merges the blocks): for any sequence of comparisons or reports and any cut, merging the
tally of the first part with that of the second computes exactly (``==``, to the bit)
what one tally of the whole sequence computes, errors included.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.compare import (
    AggregateTally,
    Comparison,
    RunReport,
    SettingsTally,
    Signal,
    error_stats,
)
from robot_msgs.errors import SettingsMismatchError, ValidationError
from robot_msgs.evaluation import EvaluationSettings
from robot_msgs.runs.rank import RankingTally

_VALUES = st.floats(min_value=0.0, max_value=10.0, allow_nan=False) | st.sampled_from(
    [0.0, 1e-300, 1.0, math.nan]
)


@st.composite
def _comparisons(draw: Any) -> Comparison:
    """An APE-like comparison: some signals, a few settings that may differ, a label."""
    signals = draw(st.sampled_from([("t",), ("t", "r"), ("r",), ("r", "t")]))
    values = {s: draw(st.lists(_VALUES, min_size=1, max_size=3)) for s in signals}
    chosen = draw(
        st.none()
        | st.builds(
            EvaluationSettings,
            align=st.sampled_from(["none", "se3", "sim3"]),
            max_diff_s=st.sampled_from([0.01, 0.02]),
        )
    )
    return Comparison(
        metric=draw(st.sampled_from(["ape", "ape", "ape", "rpe"])),
        signals=tuple(
            Signal(name=s, quantity=s, unit="m", stats=error_stats(v)) for s, v in values.items()
        ),
        settings=chosen,
        parameters=draw(st.sampled_from([{}, {"relation": "translation"}])),
        estimate=draw(st.sampled_from(["", "a", "b", "c"])),
    )


def _outcome(compute: Any) -> Any:
    """What computing gives: the result's dict, or the error's type and message."""
    try:
        result = compute()
    except (SettingsMismatchError, ValidationError) as err:
        return (type(err).__name__, str(err))
    return None if result is None else result.to_dict()


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to NaN (a statistic of NaN samples)."""
    return repr(a) == repr(b)


@settings(max_examples=150, deadline=None)
@given(
    items=st.lists(st.tuples(_comparisons(), st.sampled_from(["ok", "ok", "lost"])), max_size=8),
    cut=st.integers(min_value=0, max_value=8),
    force=st.booleans(),
)
def test_aggregate_tallies_of_two_slices_merge_to_the_tally_of_all(
    items: list[tuple[Comparison, str]], cut: int, force: bool
) -> None:
    def tally(part: list[tuple[Comparison, str]]) -> AggregateTally:
        out = AggregateTally(statistic="rms", group={"algorithm": "orb"})
        for comparison, how in part:
            if how == "ok":
                out.update(comparison)
            else:
                out.fail(how)
        return out

    whole = tally(items)
    merged = tally(items[:cut])
    merged.merge(tally(items[cut:]))
    assert _same(
        _outcome(lambda: merged.compute(force=force)), _outcome(lambda: whole.compute(force=force))
    )


@settings(max_examples=300, deadline=None)
@given(
    items=st.lists(_comparisons(), max_size=8),
    cuts=st.lists(st.integers(0, 8), min_size=1, max_size=3),
)
def test_settings_tallies_of_any_slices_merge_to_the_tally_of_all(
    items: list[Comparison], cuts: list[int]
) -> None:
    bounds = [0, *sorted(min(c, len(items)) for c in cuts), len(items)]
    merged = SettingsTally()
    for start, end in itertools.pairwise(bounds):
        part = SettingsTally()
        for comparison in items[start:end]:
            part.update(comparison)
        merged.merge(part)
    whole = SettingsTally()
    for comparison in items:
        whole.update(comparison)
    for force in (False, True):
        assert _same(
            _outcome(functools.partial(_settings_of, merged, force=force)),
            _outcome(functools.partial(_settings_of, whole, force=force)),
        )


def _settings_of(tally: SettingsTally, *, force: bool) -> _Result:
    return _Result(tally.result(force=force))


class _Result:
    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value

    def to_dict(self) -> dict[str, Any]:
        return self.value


@st.composite
def _reports(draw: Any) -> RunReport:
    algorithm = draw(st.sampled_from(["orb", "vins", "dso"]))
    sequence = draw(st.sampled_from(["MH_01", "MH_02"]))
    success = draw(st.booleans())
    comparison = draw(st.none() | _comparisons())
    if comparison is not None:
        comparison = comparison.replace(metric="ape")
        if "t" not in comparison.stats:  # ranked by "t": every comparison has it
            t = Signal(name="t", quantity="t", unit="m", stats=error_stats([0.5]))
            comparison = comparison.replace(signals=(t, *comparison.signals))
    return RunReport(
        name=f"{algorithm}/{sequence}/{draw(st.integers(1, 9))}",
        algorithm=algorithm,
        # Configurations: another version or parameter set of an algorithm is ranked apart.
        version=draw(st.sampled_from(["", "1.0", "2.0"])),
        parameters=draw(st.sampled_from([{}, {"n": 1000}, {"n": 2000, "scale": 1.2}])),
        sequence=sequence,
        success=success,
        failure="" if success else "tracking lost",
        comparisons={} if comparison is None else {"ape:translation": comparison},
        coverage=draw(st.floats(0.0, 1.0) | st.just(math.nan)),
    )


@settings(max_examples=150, deadline=None)
@given(
    items=st.lists(_reports() | st.sampled_from(["SchedulerLost", "NotRun"]), max_size=10),
    cut=st.integers(min_value=0, max_value=10),
)
def test_ranking_tallies_of_two_slices_merge_to_the_tally_of_all(
    items: list[RunReport | str], cut: int
) -> None:
    def tally(part: list[RunReport | str]) -> RankingTally:
        out = RankingTally(metric="ape:translation", signal="t")
        for item in part:
            if isinstance(item, str):
                out.leave_out(item)
            else:
                out.update(item)
        return out

    merged = tally(items[:cut])
    merged.merge(tally(items[cut:]))
    whole = tally(items)
    for force in (False, True):
        assert _same(
            _outcome(functools.partial(merged.compute, force=force)),
            _outcome(functools.partial(whole.compute, force=force)),
        )


def test_a_configuration_seen_in_one_half_names_the_lines_of_the_merged_tally() -> None:
    """orb 1.0 in one block of a sweep and orb 2.0 in the next are two lines, named alike
    by the merged tally and by one tally of both: the names are chosen when computing."""
    signal = Signal(name="t", quantity="t", unit="m", stats=error_stats([0.1]))

    def run(version: str, sequence: str, rms: float) -> RunReport:
        t = signal.replace(stats=error_stats([rms]))
        return RunReport(
            name=f"orb {version}/{sequence}",
            success=True,
            algorithm="orb",
            version=version,
            sequence=sequence,
            comparisons={"ape": Comparison(metric="ape", signals=(t,))},
        )

    first = [run("1.0", "s1", 0.1), run("1.0", "s2", 0.4)]
    second = [run("2.0", "s1", 0.2), run("2.0", "s2", 0.3)]
    halves = []
    for part in (first, second):
        tally = RankingTally()
        for report in part:
            tally.update(report)
        halves.append(tally)
    alone = halves[0].compute()
    assert alone is not None
    assert [r.name for r in alone.rows] == ["orb"]  # one configuration seen: its name
    whole = RankingTally()
    for report in first + second:
        whole.update(report)
    halves[0].merge(halves[1])
    merged = halves[0].compute()
    assert merged == whole.compute()
    assert merged is not None
    assert [(r.name, r.mean_rank, dict(r.scores)) for r in merged.rows] == [
        ("orb 1.0", 1.5, {"s1": 0.1, "s2": 0.4}),
        ("orb 2.0", 1.5, {"s1": 0.2, "s2": 0.3}),
    ]


def test_tallies_of_another_statistic_or_signal_do_not_merge() -> None:
    with pytest.raises(ValidationError, match=r"tally of the rms, got one of the max"):
        AggregateTally(statistic="rms").merge(AggregateTally(statistic="max"))
    a, b = RankingTally(), RankingTally()
    a.update(RunReport(name="a", success=True, comparisons={"ape": _ape_of(("t",))}))
    b.update(RunReport(name="b", success=True, comparisons={"ape": _ape_of(("r", "t"))}))
    with pytest.raises(
        ValidationError,
        match=r"ranking by metric None, statistic 'rms', failures 'apart', signal 't', got one "
        r"ranking by metric None, statistic 'rms', failures 'apart', signal 'r'$",
    ):
        a.merge(b)


def _ape_of(signals: tuple[str, ...]) -> Comparison:
    return Comparison(
        metric="ape",
        signals=tuple(
            Signal(name=s, quantity=s, unit="m", stats=error_stats([0.1])) for s in signals
        ),
    )
