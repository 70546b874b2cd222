"""How the inputs of an evaluation are read: the reading rules a user may choose.

Every reader fixes data problems by stated rules (:mod:`robot_msgs.io.clean`); where a
rule is a choice that changes numbers, it is declared here once, on its field, with its
flag, as :mod:`robot_msgs.evaluation.settings` declares the evaluation's options.

Repeated stamps (rows with equal stamps): ``"first"`` keeps the first row in the file,
``"last"`` the last, ``"refuse"`` stops with an error naming the lines. Unset, the rule
follows the protocol (:meth:`ReadSettings.rule_for`): the last row under
``protocol="tum"``, as TUM's ``evaluate_rpe.py`` reads rows into a dict keyed by stamp
(the last one written wins), the first otherwise. On V1_02 (``V102.txt``, 4 repeated
stamps) the choice moves the TUM RPE by 0.19 %.

KITTI rotation blocks (printed to ~7 digits, off SO(3) by ~1e-7): ``"nearest"``
replaces each by its nearest rotation (what a quaternion can hold), ``"as_given"`` also
keeps the blocks so that the errors are computed with them, transposes as inverses, as
evo does. On the raw KITTI 00 files the two differ by up to 7e-7 relative on an RPE
translation's rms (``tests/data/kitti_rows_as_given.txt``). KITTI drift follows the same
rule; the devkit itself inverts the 4x4 matrices (``inverse(pose)``), so on raw files
neither rule is the devkit's to the last digits (~1e-7 relative on the mean).

Examples
--------
>>> ReadSettings().rule_for("tum"), ReadSettings().rule_for("evo")
('last', 'first')
>>> ReadSettings(repeated_stamps="refuse").rule_for("tum")
'refuse'
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from robot_msgs.flags import Flag
from robot_msgs.msg import Msg, message

__all__ = ["ReadSettings"]

_READING = "reading rules"


@message("evaluation/ReadSettings")
class ReadSettings(Msg):
    """The reading rules of an evaluation's inputs (module docstring)."""

    repeated_stamps: (
        Annotated[
            Literal["first", "last", "refuse"],
            Meta(
                description="rows with equal stamps: keep the first or the last in the "
                "file, or refuse them (default: the first; the last in TUM's RPE "
                "protocol, as evaluate_rpe.py)"
            ),
            Flag("--repeated-stamps", group=_READING),
        ]
        | None
    ) = None
    kitti_rotations: Annotated[
        Literal["nearest", "as_given"],
        Meta(
            description="KITTI rotation blocks (not quite orthonormal as printed): their "
            "nearest rotations, or as given, as evo uses them"
        ),
        Flag("--kitti-rotations", group=_READING),
    ] = "nearest"

    def rule_for(self, protocol: str) -> Literal["first", "last", "refuse"]:
        """Return the repeated-stamps rule for an evaluation under ``protocol``."""
        if self.repeated_stamps is not None:
            return self.repeated_stamps
        return "last" if protocol == "tum" else "first"
