"""``compare.configuration``: which runs are one configuration, and names that tell them apart."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.compare.configuration import Configuration, configuration_labels

if TYPE_CHECKING:
    from robot_msgs.msg import Scalar


def test_parameter_values_are_told_apart_by_type() -> None:
    """``1 == 1.0 == True`` in Python pooled a sweep's runs of ``k = 1``, ``1.0`` and
    ``True`` into one row named by the first met (a review); ``"1"`` was apart already."""
    values: list[Scalar] = [1, 1.0, True, "1"]
    configurations = [Configuration.of("orb", "", {"k": v}) for v in values]
    assert len(set(configurations)) == 4
    labels = configuration_labels(configurations)
    assert list(labels.values()) == ["orb (k=1)", "orb (k=1.0)", "orb (k=True)", "orb (k='1')"]
    zeros = [Configuration.of("orb", "", {"k": v}) for v in (0, 0.0, False, -0.0)]
    assert len(set(zeros)) == 3  # -0.0 is 0.0: one setting


def test_nan_parameters_are_one_configuration() -> None:
    """Two runs of ``x = nan`` were two rows named alike (NaN != NaN) and a tie (a review)."""
    a = Configuration.of("orb", "", {"x": math.nan})
    b = Configuration.of("orb", "", {"x": float("nan")})
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, Configuration.of("orb", "", {"x": 1.0})}) == 2


def test_no_two_configurations_share_a_name() -> None:
    """An algorithm called ``orb 1.0`` beside ``orb`` version 1.0, or versions ``1.0`` and
    ``1.0 ``, gave two rows named ``orb 1.0``, and the HTML figures drew them as one (a
    review)."""
    clash = [Configuration("orb", "1.0"), Configuration("orb", "2.0"), Configuration("orb 1.0")]
    assert list(configuration_labels(clash).values()) == ["orb 1.0 #1", "orb 2.0", "orb 1.0 #2"]
    spaced = [Configuration("orb", "1.0"), Configuration("orb", "1.0 "), Configuration("orb", "2")]
    assert list(configuration_labels(spaced).values()) == ["orb '1.0'", "orb '1.0 '", "orb '2'"]
