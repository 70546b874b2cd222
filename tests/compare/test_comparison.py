"""Comparison: the rules its sample counts keep."""

from __future__ import annotations

import pytest

from robot_msgs.compare import Comparison
from robot_msgs.errors import ValidationError
from robot_msgs.msg.catalog import example


def test_comparison_with_a_negative_count_names_it() -> None:
    # counts={"k": -1} was kept: -1 samples matched (Ranking.left_out's rule, check_counts).
    comparison = example("compare/Comparison")
    assert isinstance(comparison, Comparison)
    with pytest.raises(
        ValidationError,
        match=r"Expected a count >= 0, got int -1 - at `Comparison\.counts\['k'\]`$",
    ) as caught:
        comparison.replace(counts={"k": -1})
    assert caught.value.field == "Comparison.counts['k']"
    assert comparison.replace(counts={"k": 0}).counts == {"k": 0}


@pytest.mark.parametrize(
    ("metric", "relation", "kept"),
    [
        ("ape", "nees", True),
        ("ape", "nees_planar", True),
        ("ape", "translation", False),
        ("rpe", "translation", False),
    ],
)
def test_record_holds_confidence_only_for_a_nees_relation(
    metric: str, relation: str, *, kept: bool
) -> None:
    """--confidence bounds APE's NEES alone: an RPE result recorded it, and res refused to
    rank it beside an evo zip that does not (a review)."""
    from robot_msgs.evaluation import EvaluationSettings

    c = Comparison(
        metric=metric,
        signals=(),
        parameters={"relation": relation},
        settings=EvaluationSettings(confidence=0.9),
    )
    assert ("confidence" in c.record()) is kept
    assert c.record().get("confidence", 0.9) == 0.9
