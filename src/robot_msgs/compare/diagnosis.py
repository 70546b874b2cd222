"""``Finding`` and ``Diagnosis``: what is wrong with an evaluation's setup, before any number.

:func:`robot_msgs.evaluation.diagnose` returns a :class:`Diagnosis`; each
:class:`Finding` has a stable ``kind`` (:data:`FINDING_KINDS` says what each means), a
severity, its evidence (figures, and the lines or times they come from) and the settings
that fix or accept it.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import field
from typing import Literal, TypeAlias

from robot_msgs.msg import Msg, Value, message

__all__ = ["FINDING_KINDS", "SEVERITIES", "Diagnosis", "Finding"]

FindingKind: TypeAlias = Literal[
    "stamp_units",
    "clock_domain",
    "time_offset",
    "quaternion_order",
    "frame_extrinsic",
    "scale",
    "motion_mismatch",
    "inverted",
    "mirrored",
    "planar",
    "coverage",
    "repeated_stamps",
    "non_monotonic",
    "rate_mismatch",
    "non_unit_quaternions",
    "non_orthonormal_rotations",
    "rounded_rotations",
    "non_finite",
    "no_orientation",
    "unknown_covariances",
    "alignment",
    "worst_intervals",
    "same_input",
]
Severity: TypeAlias = Literal["error", "warning", "info"]

#: Severities, most serious first.
SEVERITIES: tuple[str, ...] = typing.get_args(Severity)

#: Every kind of finding, with what it means (the ``doctor --help`` list).
FINDING_KINDS: dict[str, str] = {
    "stamp_units": "stamps in ns/us/ms where seconds are expected (or the reverse), "
    "from rates and spans; frame indices of two lengths, matched by index",
    "clock_domain": "little or no overlap in time: a different recording start (relative "
    "against absolute time, a far constant offset that aligns the motion) or a clock error",
    "time_offset": "a clock offset estimated from the motion, significant against its "
    "uncertainty and the matching tolerance",
    "quaternion_order": "the other quaternion order (w first / w last) makes the rotations agree",
    "frame_extrinsic": "the estimate is a sensor frame rigidly attached to the reference's "
    "body: the transform X with reference = S estimate X, estimated",
    "scale": "a Sim(3) scale far from 1 (a monocular estimate, or one side's lengths in "
    "cm or mm); what align sim3 then hides",
    "motion_mismatch": "distances travelled and angles turned between matched poses that "
    "do not correlate, or one side standing still (within its noise) where the other "
    "moves: another sequence, or a wrong pairing of files; or both standing still, with "
    "nothing to align or scale",
    "inverted": "the poses inverted fit far better: the world's pose in the sensor's frame "
    "(T_cw) written for the sensor's in the world (T_wc)",
    "mirrored": "the positions fit far better mirrored than rotated: one axis of the "
    "estimate is flipped (a left-handed frame), which no alignment undoes; or, where its "
    "poses turn too little to tell, its poses are inverted (both said)",
    "planar": "the estimate is flat along one of its axes where the reference moves along "
    "all three: a 2-D estimate, compared in the plane with a projection",
    "coverage": "tracking losses and gaps: the share of the reference covered, apart from "
    "the error on the covered intervals; the reference's own gaps, and the estimate's span "
    "outside the reference's (matched in space: its poses far from the reference's path), "
    "whose estimate poses match none",
    "repeated_stamps": "rows that repeat an earlier stamp (one row a stamp kept: the first, "
    "or the last as the reading rule says)",
    "non_monotonic": "stamps out of order in the file (sorted)",
    "rate_mismatch": "pose rates so different that nearest matching drops most poses",
    "non_unit_quaternions": "quaternions off unit norm by more than rounding (normalised)",
    "non_orthonormal_rotations": "KITTI rotation blocks off SO(3) beyond the rounding of "
    "printed digits (projected onto it, or used as given)",
    "rounded_rotations": "KITTI rotation blocks off SO(3) by the rounding of their printed "
    "digits, as in every KITTI file: results differ by about as much from tools that use "
    "the blocks as given (evo)",
    "non_finite": "rows with NaN or infinite values (dropped)",
    "no_orientation": "positions with no orientation (latitude/longitude/altitude, NavSatFix, "
    "PointStamped): identity rotations, so rotation errors mean nothing",
    "unknown_covariances": "pose covariances all zero on every message of a bag topic (ROS's "
    "'unknown'): read as none, so NEES cannot use them",
    "alignment": "a degenerate or poorly constrained fit, or one that changes with the "
    "fitting window (first poses against all)",
    "worst_intervals": "the few time intervals that dominate the APE and RPE",
    "same_input": "the reference's file given as the estimate (a link, another spelling), "
    "or its very stamps and poses (a copy): unless a transform or an offset moves it, "
    "every error is zero to float64 rounding",
}


@message("compare/Finding")
class Finding(Msg):
    """One thing a careful evaluator would check, found: what, how bad, why, and the fix.

    There is no ROS equivalent.

    Attributes
    ----------
    kind : str
        What was checked, one of :data:`FINDING_KINDS`; stable for tools.
    severity : {"error", "warning", "info"}
        ``error``: the numbers would be wrong or cannot be computed; ``warning``: they
        are likely misleading; ``info``: worth knowing.
    summary : str
        One line for people.
    evidence : mapping of str to value
        The figures the finding rests on, units in the key names (``_s``, ``_m``,
        ``_deg``), and where they come from (``lines``, ``times_s``).
    fix : mapping of str to value
        The settings that fix or accept it, as a call would pass them: fields of
        :class:`~robot_msgs.evaluation.EvaluationSettings`, or reading arguments such
        as ``format``; the command line shows them as flags. Empty: no setting fixes it.

    Examples
    --------
    >>> f = Finding(kind="time_offset", severity="warning", summary="late by 0.3 s",
    ...             evidence={"offset_s": 0.3, "std_s": 0.001}, fix={"offset_s": 0.3})
    >>> f.fix_text()
    '`offset_s=0.3`'
    """

    kind: FindingKind
    severity: Severity
    summary: str
    evidence: Mapping[str, Value] = field(default_factory=dict)
    fix: Mapping[str, Value] = field(default_factory=dict)

    def fix_text(self) -> str:
        """Return the fix as a call's arguments (`` `offset_s=0.3` ``), ``""`` if none."""
        return ", ".join(f"`{name}={value!r}`" for name, value in self.fix.items())

    def describe(self) -> str:
        """Return the one line a report shows: severity, kind, summary and fix.

        Examples
        --------
        >>> Finding(kind="scale", severity="info", summary="scale 0.98").describe()
        'info     scale: scale 0.98'
        """
        fix = self.fix_text()
        return f"{self.severity:<8} {self.kind}: {self.summary}" + (f" (fix: {fix})" if fix else "")


@message("compare/Diagnosis")
class Diagnosis(Msg):
    """What :func:`~robot_msgs.evaluation.diagnose` found about a reference and an estimate.

    There is no ROS equivalent.

    Attributes
    ----------
    reference : str
        The reference's name (its file or topic), ``""`` when not given.
    estimate : str
        The estimate's name, ``""`` when not given.
    findings : tuple of Finding
        What was found, most serious first; empty when nothing was.
    checks : tuple of str
        The kinds checked: a kind here but absent from ``findings`` was checked and
        found nothing; one absent from both was not checked.
    unused_settings : tuple of str
        Settings given that the evaluation leaves unused, by field name: ``offset_auto``
        matched in space, where no offset is searched
        (:attr:`~robot_msgs.evaluation.EvaluationSettings.searches_offset`).

    Examples
    --------
    >>> from robot_msgs.compare import Finding
    >>> d = Diagnosis(reference="gt.tum", estimate="est.tum", checks=("scale",), findings=(
    ...     Finding(kind="scale", severity="info", summary="scale 0.98"),))
    >>> d.worst, d.kinds()
    ('info', ('scale',))
    """

    reference: str = ""
    estimate: str = ""
    findings: tuple[Finding, ...] = ()
    checks: tuple[str, ...] = ()
    unused_settings: tuple[str, ...] = ()

    @property
    def worst(self) -> str:
        """The most serious severity found, ``""`` when nothing was found."""
        found = {f.severity for f in self.findings}
        return next((s for s in SEVERITIES if s in found), "")

    def kinds(self, *severities: str) -> tuple[str, ...]:
        """Return the kinds found (with one of ``severities``, when given), in order."""
        return tuple(f.kind for f in self.findings if not severities or f.severity in severities)

    def finding(self, kind: str) -> Finding | None:
        """Return the first finding of ``kind``, or ``None``."""
        return next((f for f in self.findings if f.kind == kind), None)
