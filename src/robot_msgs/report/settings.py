"""The evaluation settings of a report: one frozen value, recorded in every output."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from robot_msgs.compare.alignment import ALIGNMENT_METHODS as ALIGNMENTS
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import DELTA_UNITS, SYNC_METHODS

if TYPE_CHECKING:
    from robot_msgs.msg import Scalar

__all__ = ["ALIGNMENTS", "DELTA_UNITS", "ReportSettings"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportSettings:
    """How runs are evaluated; every field is a flag of ``robot-msgs report``.

    Attributes
    ----------
    align : str
        Alignment of the estimate before APE: one of :data:`ALIGNMENTS`. A manifest may
        override it per run; rankings then refuse the mix unless forced.
    n_align : int or None
        Fit the alignment on the first ``n_align`` matched poses only.
    sync : str
        Time association rule (``"nearest"``, ``"one_to_one"``, ``"interpolate"``;
        ``"one-to-one"``, the command line's spelling, is stored as ``"one_to_one"``).
    max_diff_s, offset_s : float, seconds
        Association tolerance and the offset added to estimate stamps.
    rpe_deltas : tuple of float
        RPE intervals, in ``rpe_unit``; empty: no RPE.
    rpe_unit : str
        One of :data:`DELTA_UNITS`.
    coverage_gap_s : float, seconds
        Consecutive estimate poses further apart leave the time between uncovered.
    end_tolerance_s : float, seconds
        A run succeeds when its last valid pose is at most this before the end of the
        sequence.

    Examples
    --------
    >>> ReportSettings(align="sim3").as_dict()["align"]
    'sim3'
    """

    align: str = "se3"
    n_align: int | None = None
    sync: str = "nearest"
    max_diff_s: float = 0.01
    offset_s: float = 0.0
    rpe_deltas: tuple[float, ...] = (1.0,)
    rpe_unit: str = "s"
    coverage_gap_s: float = 1.0
    end_tolerance_s: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "sync", self.sync.replace("-", "_"))
        if self.sync not in SYNC_METHODS:
            msg = f"Expected sync in {', '.join(SYNC_METHODS)}, got {self.sync!r}"
            raise ValidationError(msg)
        if self.align not in ALIGNMENTS:
            msg = f"Expected align in {', '.join(ALIGNMENTS)}, got {self.align!r}"
            raise ValidationError(msg)
        if self.rpe_unit not in DELTA_UNITS:
            msg = f"Expected an RPE delta unit in {', '.join(DELTA_UNITS)}, got {self.rpe_unit!r}"
            raise ValidationError(msg)
        for name in ("max_diff_s", "coverage_gap_s", "end_tolerance_s"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                msg = f"Expected {name} > 0 s, got {value!r}"
                raise ValidationError(msg)
        if any(not (math.isfinite(d) and d > 0) for d in self.rpe_deltas):
            msg = f"Expected RPE deltas > 0, got {list(self.rpe_deltas)}"
            raise ValidationError(msg)

    def as_dict(self) -> dict[str, Scalar]:
        """The settings as a flat mapping of scalars, for ``Report.settings``."""
        return {
            "align": self.align,
            "n_align": self.n_align,
            "sync": self.sync,
            "max_diff_s": self.max_diff_s,
            "offset_s": self.offset_s,
            "rpe_deltas": ",".join(f"{d:g}" for d in self.rpe_deltas),
            "rpe_unit": self.rpe_unit,
            "coverage_gap_s": self.coverage_gap_s,
            "end_tolerance_s": self.end_tolerance_s,
        }
