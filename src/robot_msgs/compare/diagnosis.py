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

from robot_msgs.compare.finding_kinds import FINDING_KINDS
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
    "mixed_frames",
    "alignment",
    "worst_intervals",
    "same_input",
]
Severity: TypeAlias = Literal["error", "warning", "info"]

#: Severities, most serious first.
SEVERITIES: tuple[str, ...] = typing.get_args(Severity)


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
