"""``Comparison``: one estimate against one reference, per signal, with the settings used."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from robot_msgs.compare.statistics import ErrorStats
from robot_msgs.msg import Msg, Value, message

__all__ = ["ESTIMATED_SETTINGS", "Comparison"]

#: ``settings`` keys that record a value estimated or derived for each evaluation, not
#: chosen (the clock offset of ``offset_auto`` and its uncertainty, the NEES bounds for
#: the run's pose count); results that share every other setting were made the same way
#: and may be ranked together.
ESTIMATED_SETTINGS = frozenset({"offset_estimated_s", "offset_std_s", "nees_mean_bounds"})


@message("compare/Comparison")
class Comparison(Msg):
    """One estimate against one reference: an ``ErrorStats`` per named signal, and how.

    ``metric`` names what was computed (``"ape"``, ``"rpe"``, ``"kitti_drift"``,
    ``"tracking"``...). ``stats`` maps each signal (``"translation"``, ``"angle_deg"``,
    ``"joint_1"``...) to its statistics and ``units`` gives each signal's unit (``"m"``,
    ``"deg"``, ``"rad"``, ``"%"``).

    WHY ``settings`` travels with the numbers: an APE after Sim(3) alignment and one
    after SE(3) alignment are different quantities; rankings and aggregates compare
    ``settings`` and refuse to mix (the SLAM guide: "do not silently mix these
    evaluation settings"). ``counts`` records sample bookkeeping such as
    ``{"estimate": 788, "reference": 3000, "matched": 788}`` and ``notes`` the warnings
    a reader must see (few matches, poses dropped). New keys extend these mappings
    without changing the ``to_dict`` form. The keys of :data:`ESTIMATED_SETTINGS` record
    what the evaluation estimated rather than what was chosen (a clock offset).
    """

    metric: str
    stats: Mapping[str, ErrorStats]
    units: Mapping[str, str]
    settings: Mapping[str, Value] = field(default_factory=dict)
    estimate: str = ""
    reference: str = ""
    counts: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def _validate(self) -> None:
        if list(self.units) != list(self.stats):
            expected = f"one unit per signal, in order {list(self.stats)}"
            raise self._fail(field="units", expected=expected, got=dict(self.units))
