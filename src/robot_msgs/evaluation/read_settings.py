"""How the inputs of an evaluation are read: the reading rules a user may choose.

Every reader fixes data problems by stated rules (:mod:`robot_msgs.io.clean`); where a
rule is a choice that changes numbers, it is declared here once, on its field, with its
flag, as :mod:`robot_msgs.evaluation.settings` declares the evaluation's options.

Repeated stamps (rows with equal stamps): ``"first"`` keeps the first row in the file,
``"last"`` the last, ``"refuse"`` stops with an error naming the lines, ``"all"`` keeps
every row, as evo does (V1_02: 798 pairs, evo_ape's rmse; 794 with one row a stamp,
0.0917473 m against evo's 0.0917271 m after SE(3) alignment; ``rpe`` at evo_rpe's
default delta, 1 frame: 797 pairs, rmse 0.0150767 m, evo_rpe's). Only ``ape`` and ``rpe``
with evo's ``nearest`` association take ``"all"`` (``rpe`` with a delta not in seconds,
and not under TUM's protocol, which keys rows by stamp): everything else needs increasing
stamps and refuses it (:meth:`ReadSettings.rule_for`). Unset, the rule
follows the protocol (:meth:`ReadSettings.rule_for`): the last row under
``protocol="tum"``, as TUM's ``evaluate_rpe.py`` reads rows into a dict keyed by stamp
(the last one written wins), the first otherwise. On V1_02 (``V102.txt``, 4 repeated
stamps) the choice moves the TUM RPE by 0.19 %.

KITTI rotation blocks (printed to ~7 digits, off SO(3) by ~1e-7): ``"nearest"``
replaces each by its nearest rotation (what a quaternion can hold), ``"as_given"`` also
keeps the blocks so that the errors are computed with them, transposes as inverses, as
evo does. On the raw KITTI 00 files the two differ by up to 7e-7 relative on an RPE
translation's rms (``tests/data/kitti_rows_as_given.txt``). KITTI drift with
``"as_given"`` is the devkit's arithmetic on the blocks (it inverts the 4x4 matrices,
``inverse(pose)``, and takes the angle from the trace), the published figures' rule: on KITTI 00
ORB-SLAM with blocks perturbed ~1e-3 off SO(3) its rotation figure was 1.45x the nearest
rotations' (``tests/evaluation/test_drift.py``; one file's measurement, not a rule).

Files written in another layout than their format's are read as written: a side whose
quaternions are written ``qw qx qy qz`` where the format has ``qx qy qz qw`` (a TUM file
written w first, which reads without complaint: every quaternion is a unit quaternion
either way) is reordered, and a side's stamps are divided by its stamp divisor (``1000``:
stamps written in milliseconds), after the readers' rules (:meth:`ReadSettings.as_written`).
The doctor names both faults with these settings as their fix (its ``quaternion_order``
and ``stamp_units`` findings). On ``freiburg1_xyz`` rgbdslam written w first, or with its
stamps in milliseconds, against its ground truth, the fixed reading gives the file's own
angle APE (``tests/cli/test_doctor.py``).

Examples
--------
>>> ReadSettings().rule_for("tum"), ReadSettings().rule_for("evo")
('last', 'first')
>>> ReadSettings(repeated_stamps="refuse").rule_for("tum")
'refuse'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import numpy as np
from msgspec import Meta

from robot_msgs.errors import ValidationError
from robot_msgs.flags import Flag
from robot_msgs.msg import Msg, message

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["ReadSettings"]

_READING = "reading rules"

#: What a format's orientations are read from, where it has no ``qx qy qz qw`` columns.
_FROM = {
    "euroc": "a EuRoC file (qw qx qy qz, its format's order)",
    "kitti": "rotation blocks (KITTI)",
    "lla": "an lla file (no orientation)",
    "bag": "a bag's named fields",
    "bag2": "a bag's named fields",
    "mcap": "a bag's named fields",
}

#: The largest stamp divisor: nanoseconds.
MAX_STAMP_DIVISOR = 1e9


@message("evaluation/ReadSettings")
class ReadSettings(Msg):
    """The reading rules of an evaluation's inputs (module docstring)."""

    repeated_stamps: (
        Annotated[
            Literal["first", "last", "refuse", "all"],
            Meta(
                description="rows with equal stamps: keep the first or the last in the "
                "file, refuse them, or keep all, as evo and rpg (ape and rpe with --sync "
                "nearest or one-to-one only) "
                "(default: the first; the last in TUM's RPE protocol, as evaluate_rpe.py)"
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
    w_first: (
        Annotated[
            Literal["reference", "estimate", "both"],
            Meta(
                description="the side whose file writes its quaternions qw qx qy qz where "
                "its format has qx qy qz qw (a TUM file written w first): read as written"
            ),
            Flag("--w-first", "SIDE", group=_READING),
        ]
        | None
    ) = None
    stamp_divisors: Annotated[
        tuple[Annotated[float, Meta(gt=0.0, le=MAX_STAMP_DIVISOR)], ...],
        Meta(
            min_length=2,
            max_length=2,
            description="divide the reference's and the estimate's stamps by these "
            "(1000: stamps written in milliseconds)",
        ),
        Flag("--stamp-divisors", ("REF", "EST"), group=_READING),
    ] = (1.0, 1.0)

    def as_written(
        self,
        trajectory: PoseTrajectory,
        side: Literal["reference", "estimate"],
        fmt: str | None = None,
    ) -> PoseTrajectory:
        """Return ``trajectory``, read as ``side``'s file, as its file was written.

        Its quaternions reordered from ``w x y z`` read as ``x y z w`` where ``w_first``
        names the side, its stamps divided by the side's ``stamp_divisors``; the same
        trajectory where neither applies.

        Parameters
        ----------
        trajectory : PoseTrajectory
            The side as its reader read it.
        side : {"reference", "estimate"}
            Whose file it is.
        fmt : str, optional
            The format it was read in (:data:`~robot_msgs.io.FORMATS`); where ``w_first``
            names the side, anything but ``"tum"`` is refused. ``None``: not checked (a
            trajectory made in code).

        Raises
        ------
        ValidationError
            ``w_first`` names a side whose orientations were read from rotation blocks
            (KITTI), or from a format other than TUM (EuRoC's columns are ``qw qx qy
            qz`` already, a bag's fields are named): there is no ``qx qy qz qw`` column
            to reorder.

        Examples
        --------
        >>> import numpy as np
        >>> from robot_msgs.trajectory import PoseTrajectory
        >>> read = PoseTrajectory(stamps_s=[1500.0], positions_xyz=[[0.0, 0.0, 0.0]],
        ...                       orientations_quat_xyzw=[[0.6, 0.0, 0.8, 0.0]])  # w x y z
        >>> fixed = ReadSettings(w_first="estimate", stamp_divisors=(1.0, 1e3)).as_written(
        ...     read, "estimate")
        >>> fixed.stamps_s.tolist(), fixed.orientations_quat_xyzw.tolist()
        ([1.5], [[0.0, 0.8, 0.0, 0.6]])
        """
        divisor = self.stamp_divisors[side == "estimate"]
        turned = self.w_first in (side, "both")
        changes = {}
        if turned:
            # WHY the format: a EuRoC file (qw qx qy qz, its format's order), a bag or an
            # lla file named by --w-first was silently reordered, and its angle APE went
            # from 12.5 to 169 deg (the bag example's ORB-SLAM against its ground truth).
            written = "rotation blocks" if trajectory.orientations_from_matrices else fmt
            if written is not None and written != "tum":
                reason = (
                    f"Expected a TUM file (quaternion columns qx qy qz qw) as the {side}, "
                    f"got its orientations read from {_FROM.get(written, written)}: "
                    "nothing to reorder"
                )
                msg = f"`w_first={self.w_first!r}`: {reason}"
                raise ValidationError(msg, field="w_first", reason=reason)
            changes["orientations_quat_xyzw"] = trajectory.orientations_quat_xyzw[:, [1, 2, 3, 0]]
        if divisor != 1.0:
            changes["stamps_s"] = _divided(trajectory.stamps_s, divisor)
        return trajectory.replace(**changes) if changes else trajectory

    def rule_for(
        self, protocol: str, *, every_row: bool = False
    ) -> Literal["first", "last", "refuse", "all"]:
        """Return the repeated-stamps rule for an evaluation under ``protocol``.

        ``every_row``: the caller takes trajectories whose stamps repeat (``ape``, ``rpe``
        and rpg's relative error with evo's ``nearest`` or TUM's ``one_to_one``
        association); elsewhere ``"all"`` is refused.

        Raises
        ------
        ValidationError
            ``repeated_stamps="all"`` where ``every_row`` is false.
        """
        if self.repeated_stamps == "all" and not every_row:
            # WHY fields, not flags: a manifest's setting (load_runs) and the doctor's are
            # refused here too, and a Python caller was told `--sync nearest`; the command
            # line says the flags (flags_in_text).
            reason = (
                "keeps repeated stamps, which only `ape`, `rpe` and rpg's relative error take, "
                "with `sync='nearest'` "
                "(evo's association) or `sync='one_to_one'` (rpg's), no "
                "`transform_right_auto=True` or `protocol='tum'`; use 'first' or 'last' here"
            )
            msg = f"`repeated_stamps='all'` {reason}"
            raise ValidationError(msg, field="repeated_stamps", reason=reason)
        if self.repeated_stamps is not None:
            return self.repeated_stamps
        return "last" if protocol == "tum" else "first"


#: The most decimals a stamp is taken to be typed with (nanoseconds of seconds).
_MAX_DECIMALS = 9


def _divided(stamps: Float64Array, divisor: float) -> Float64Array:
    """Return ``stamps / divisor`` as the stamps' typed digits divided: one rounding.

    Each stamp is taken as the decimal of fewest digits that reads back as it, ``m /
    10^k`` (``m`` an integer below 2^53, ``k <= 9``), and divided as ``m / (10^k *
    divisor)``, both exact floats for an integer divisor: the nearest float to the typed
    stamp's quotient. WHY: ``t / divisor`` rounds twice (the typed stamp to ``t``, then the
    quotient): fr1_xyz's rgbdslam written in ms, ``1305031102562.224``, became
    ``1305031102.5622242`` (1 float step, 238 ns, from ``1305031102.562224``) on 188 of
    its 788 stamps, so its nanoseconds and its matches were not the file's. A stamp with
    no such decimal is divided as given.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([1305031102562.224, 1305031104800.0, -1.5, 0.0])
    >>> bool((t / 1e3)[0] == 1305031102.562224), _divided(t, 1e3).tolist()
    (False, [1305031102.562224, 1305031104.8, -0.0015, 0.0])
    """
    out: Float64Array = stamps / divisor
    left = np.flatnonzero(np.isfinite(stamps))
    for k in range(_MAX_DECIMALS + 1):
        scale = 10.0**k
        typed = np.rint(stamps[left] * scale)
        good = (np.abs(typed) < _EXACT) & (typed / scale == stamps[left])
        out[left[good]] = typed[good] / (scale * divisor)
        left = left[~good]
        if not left.size:
            break
    return out


#: Integers a float64 holds exactly are below this.
_EXACT = 2.0**53
