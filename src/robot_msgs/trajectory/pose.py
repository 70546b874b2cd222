"""The array-backed pose trajectory that evaluation works on (``trajectory/PoseTrajectory``).

Apart from the ROS joint trajectories (:mod:`robot_msgs.trajectory.joint`) so that a
command reading a trajectory file imports no ROS message family: ``robot-msgs ape`` on
fr1_xyz spent about 15 ms of CPU importing ``geometry``, ``std`` and ``nav`` for the
conversions to and from ``PoseStamped`` and ``Path``, which import them when called.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Annotated, Any, Literal

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.limits import POSITION_LIMIT_M
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.arrays import field_error
from robot_msgs.msg.check import COMPILED
from robot_msgs.typing import Float64Array, Int64Array, IntpArray

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.geometry import PoseStamped
    from robot_msgs.nav import Path
    from robot_msgs.std import Time

__all__ = [
    "POSITION_LIMIT_M",
    "ROTATION_MATRIX_TOL",
    "UNIT_QUATERNION_TOL",
    "PoseTrajectory",
    "ReadAs",
    "rows_past_limit",
    "stamps_s_from_ns",
]

_NS = 1_000_000_000

#: How a reader makes seconds of integer nanoseconds (:meth:`PoseTrajectory.nanoseconds`).
ReadAs = Literal["sec_nsec", "ns"]

#: Largest deviation of a quaternion's norm from 1 that :class:`PoseTrajectory` accepts.
UNIT_QUATERNION_TOL = 1e-6

#: Largest ``|M - R(q)|`` of a kept rotation block against its pose's orientation: a
#: block further off SO(3) is refused by the readers (:mod:`robot_msgs.io.kitti`).
ROTATION_MATRIX_TOL = 1e-2


@message("trajectory/PoseTrajectory", derives=True)
class PoseTrajectory(Msg):
    """A timed sequence of 3-D poses held as arrays: what trajectory evaluation works on.

    One row is one pose. Stamps are float64 seconds (``(N,)``), strictly increasing (equal
    ones too with ``stamps_repeat``) and finite, so association can binary search;
    positions ``(N, 3)`` metres, within :data:`POSITION_LIMIT_M`; orientations ``(N, 4)``
    unit quaternions ``x, y, z, w`` (within ``1e-6``): readers normalise and report, never
    silently.
    ``frame_id`` is the frame the poses are expressed in, ``child_frame_id`` the body.
    The nearest ROS 2 type is ``nav_msgs/msg/Path``, which is a list of messages:
    :meth:`from_path` / :meth:`to_path` and :meth:`from_poses` / :meth:`to_poses` convert.

    WHY arrays and not a tuple of ``PoseStamped``: evaluation runs over 10^6 poses, so
    every operation is vectorised over rows.

    ``stamps_ns`` (``(N,)`` int64 nanoseconds, or ``None``) keeps stamps that came from ROS
    headers exactly. When given, ``stamps_s`` must be ``sec + nanosec * 1e-9`` of it (evo's
    arithmetic, so the float stamps are those every reader computes); :meth:`replace` of
    ``stamps_s`` alone drops it, as the exact stamps no longer describe the rows.

    WHY exact stamps: a float64 of seconds since 1970 keeps only ~0.2 µs, and a trajectory
    written back to a bag must carry the stamps it was read with.

    ``covariance_6x6`` (``(N, 6, 6)``, optional) is each pose's covariance in ROS's
    ``PoseWithCovariance`` convention: the parameters ``x, y, z`` (m) and rotations about
    the fixed ``x, y, z`` axes of ``frame_id`` (rad), i.e. a pose ``(p + δp, Exp(δθ) R)``
    with ``(δp, δθ)`` of that covariance; symmetric with a non-negative diagonal. Readers
    fill it from ``PoseWithCovarianceStamped`` and ``Odometry`` messages; it follows the
    poses through association and alignment (rotated with them), and operations whose
    effect on it is not defined (a plane projection, interpolation) drop it.

    ``rotation_matrices`` (``(N, 3, 3)``, optional) keeps the rotation blocks a file
    printed, when a reader is asked to use them as given (KITTI's rows, which 7 printed
    digits leave off SO(3) by ~1e-7; :func:`robot_msgs.io.read_kitti` with
    ``rotations="as_given"``). ``orientations_quat_xyzw`` then holds their nearest
    rotations, and the error kernels multiply these matrices instead, transposes as
    inverses, as evo does (:mod:`robot_msgs.evaluation.relations`). They follow the rows
    like the covariances (left-multiplied by an alignment or transform) and are dropped
    where rows are made anew (interpolation, a plane projection).

    Attributes
    ----------
    stamps_s : ndarray, shape (N,), float64, seconds
    positions_xyz : ndarray, shape (N, 3), float64, metres
    orientations_quat_xyzw : ndarray, shape (N, 4), float64
        Unit quaternions, ``x, y, z, w``.
    frame_id : str
        The frame of the poses.
    child_frame_id : str
        The body.
    covariance_6x6 : ndarray, shape (N, 6, 6), float64, m², m·rad, rad², or None
        Each pose's covariance, ROS's ``PoseWithCovariance`` convention.
    stamps_ns : ndarray, shape (N,), int64, nanoseconds, or None
        The exact stamps of ROS headers.
    stamps_are_frames : bool
        The stamps are frame indices 0, 1, 2... (a KITTI file read without its times
        file), not seconds: what plots and reports call ``frame``.
    rotation_matrices : ndarray, shape (N, 3, 3), float64, or None
        The rotation blocks as read (each within ``1e-2`` of its orientation's matrix,
        determinant positive), used as given by the error kernels.
    orientations_from_matrices : bool
        The orientations were read from rotation blocks (a KITTI file), not from
        quaternion columns: there is no column order to have mixed up, and the
        quaternion-order check does not reorder them
        (:func:`~robot_msgs.evaluation.quaternion_order.quaternion_order_check`).
    stamps_repeat : bool
        Rows may share a stamp (stamps non-decreasing): a file read with
        ``repeated_stamps="all"`` (every row, as evo and rpg keep them), or the matched
        rows of pairs that share a row. Declared, such a trajectory is validated and
        round-trips: a saved result holding it loads back (undeclared, equal stamps are
        refused: "Expected strictly increasing stamps").

    Examples
    --------
    >>> import numpy as np
    >>> traj = PoseTrajectory(
    ...     stamps_s=[0.0, 1.0],
    ...     positions_xyz=[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
    ...     orientations_quat_xyzw=[[0.0, 0.0, 0.0, 1.0]] * 2,
    ... )
    >>> len(traj), traj.path_length_m
    (2, 1.0)
    """

    stamps_s: Annotated[Float64Array, Shape("N")]
    positions_xyz: Annotated[Float64Array, Shape("N", 3)]
    orientations_quat_xyzw: Annotated[Float64Array, Shape("N", 4)]
    frame_id: str = ""
    child_frame_id: str = ""
    covariance_6x6: Annotated[Float64Array, Shape("N", 6, 6)] | None = None
    stamps_ns: Annotated[Int64Array, Shape("N")] | None = None
    stamps_are_frames: bool = False
    rotation_matrices: Annotated[Float64Array, Shape("N", 3, 3)] | None = None
    orientations_from_matrices: bool = False
    stamps_repeat: bool = False

    def _validate(self) -> None:
        # The compiled filter's True proves the rows valid (_checks.c); else NumPy decides.
        rows_ok = (
            COMPILED is not None
            and COMPILED.pose_rows_ok(
                self.stamps_s,
                self.positions_xyz,
                self.orientations_quat_xyzw,
                POSITION_LIMIT_M,
                UNIT_QUATERNION_TOL,
            )
            is True
        )
        if not rows_ok:
            self._validate_rows()
        if self.covariance_6x6 is not None:
            self._validate_covariance(self.covariance_6x6)
        if not rows_ok:
            self._validate_quaternions()
        if self.stamps_ns is not None:
            wrong = stamps_s_from_ns(self.stamps_ns) != self.stamps_s
            if wrong.any():
                i = int(np.flatnonzero(wrong)[0])
                raise self._fail(
                    field=f"stamps_ns[{i}]",
                    expected=f"the nanoseconds of stamps_s[{i}] = {float(self.stamps_s[i])!r}",
                    got=int(self.stamps_ns[i]),
                )
        if self.rotation_matrices is not None:
            self._validate_matrices(self.rotation_matrices)

    def _validate_rows(self) -> None:
        """Refuse a non-finite value, a position past the limit or a stamp out of order."""
        for name in ("stamps_s", "positions_xyz", "orientations_quat_xyzw"):
            values = getattr(self, name)
            # A finite sum proves every value finite without a full boolean mask.
            # a sum past float64 is inf, inf + -inf NaN: all() decides, unwarned
            with np.errstate(over="ignore", invalid="ignore"):
                total = values.sum()
            if not np.isfinite(total) and not np.isfinite(values).all():
                row = int(np.flatnonzero(~np.isfinite(values).reshape(len(values), -1).all(1))[0])
                raise self._fail(field=f"{name}[{row}]", expected="finite values", got=values[row])
        far = rows_past_limit(self.positions_xyz)
        if far.size:
            row = int(far[0])
            xyz = self.positions_xyz[row]
            expected = f"coordinates within +-{POSITION_LIMIT_M:g} m"
            got = float(xyz[np.argmax(np.abs(xyz))])
            raise self._fail(field=f"positions_xyz[{row}]", expected=expected, got=got)
        steps = np.diff(self.stamps_s)
        back = steps < 0 if self.stamps_repeat else steps <= 0
        if back.any():
            i = int(np.flatnonzero(back)[0]) + 1
            order = "non-decreasing" if self.stamps_repeat else "strictly increasing"
            expected = f"{order} stamps (previous {float(self.stamps_s[i - 1])!r})"
            raise self._fail(field=f"stamps_s[{i}]", expected=expected, got=float(self.stamps_s[i]))

    def _validate_quaternions(self) -> None:
        """Refuse a quaternion whose norm is not 1 within :data:`UNIT_QUATERNION_TOL`."""
        q = self.orientations_quat_xyzw
        norms = np.sqrt(np.einsum("ij,ij->i", q, q))
        bad = np.abs(norms - 1.0) > UNIT_QUATERNION_TOL
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            norm = math.hypot(*q[i].tolist())  # scaled: 1e200 components are not norm inf
            expected = f"a unit quaternion (norm {norm!r})"
            raise self._fail(
                field=f"orientations_quat_xyzw[{i}]",
                expected=expected,
                got=self.orientations_quat_xyzw[i],
            )

    def replace(self, **changes: Any) -> PoseTrajectory:
        """A copy with some fields changed. Validation runs again.

        Changing ``stamps_s`` without ``stamps_ns`` drops ``stamps_ns``, and changing
        ``orientations_quat_xyzw`` without ``rotation_matrices`` drops
        ``rotation_matrices``: they no longer describe the rows.
        """  # noqa: D401 - the base class's summary
        if "stamps_s" in changes and "stamps_ns" not in changes:
            changes["stamps_ns"] = None
        if "orientations_quat_xyzw" in changes and "rotation_matrices" not in changes:
            changes["rotation_matrices"] = None
        return Msg.replace(self, **changes)  # slots=True makes a new class: no bare super()

    @classmethod
    def from_poses(
        cls, poses: Sequence[PoseStamped], *, child_frame_id: str = ""
    ) -> PoseTrajectory:
        """Build from stamped poses, keeping each header's stamp in ``stamps_ns``.

        ``frame_id`` is the poses' one frame; poses must share it and be in increasing
        stamp order with unit quaternions (the constructor's rules; a bag reader that
        fixes data is :func:`robot_msgs.io.read_bag`).

        Raises
        ------
        ValidationError
            A pose in another frame than pose 0's (it is not relabelled, which would
            change the pose without a word), a stamp out of order, a quaternion off
            unit length.

        Examples
        --------
        >>> from robot_msgs.geometry import PoseStamped
        >>> from robot_msgs.std import Header, Time
        >>> poses = [
        ...     PoseStamped(header=Header(stamp=Time(sec=1700000000, nanosec=n), frame_id="map"))
        ...     for n in (1, 250_000_001)
        ... ]
        >>> traj = PoseTrajectory.from_poses(poses)
        >>> traj.stamps_ns.tolist(), traj.frame_id
        ([1700000000000000001, 1700000000250000001], 'map')
        """
        frame_id = poses[0].header.frame_id if poses else ""
        other = next((i for i, p in enumerate(poses) if p.header.frame_id != frame_id), None)
        if other is not None:
            raise field_error(
                expected=f"every pose in pose 0's frame {frame_id!r} (transform them into one)",
                value=poses[other].header.frame_id,
                path=f"poses[{other}].header.frame_id",
            )
        return cls._from_stamped(poses, frame_id, child_frame_id)

    @classmethod
    def _from_stamped(
        cls, poses: Sequence[PoseStamped], frame_id: str, child_frame_id: str
    ) -> PoseTrajectory:
        """Build from ``poses`` in ``frame_id``, each header's stamp kept in ``stamps_ns``."""
        n = len(poses)
        values = np.empty((n, 7))
        ns = np.empty(n, dtype=np.int64)
        for i, p in enumerate(poses):
            a, b = p.pose.position, p.pose.orientation
            values[i] = (a.x, a.y, a.z, b.x, b.y, b.z, b.w)
            ns[i] = p.header.stamp.sec * _NS + p.header.stamp.nanosec
        return cls(
            stamps_s=stamps_s_from_ns(ns),
            positions_xyz=values[:, :3],
            orientations_quat_xyzw=values[:, 3:],
            frame_id=frame_id,
            child_frame_id=child_frame_id,
            stamps_ns=ns,
        )

    @classmethod
    def from_path(cls, path: Path, *, child_frame_id: str = "") -> PoseTrajectory:
        """Build from a ``nav.Path``: its poses, stamps exact; ``frame_id`` the path's.

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> traj = PoseTrajectory.from_path(example("nav/Path").replace(poses=()))
        >>> len(traj), traj.frame_id
        (0, 'map')
        """
        return cls._from_stamped(path.poses, path.header.frame_id, child_frame_id)

    def nanoseconds(self, read_as: ReadAs = "sec_nsec", *, distinct: bool = False) -> Int64Array:
        """Integer nanoseconds of each stamp: ``stamps_ns`` if kept, else from ``stamps_s``.

        A trajectory read from a bag keeps its header stamps exactly; else (EuRoC's
        nanoseconds too, parsed as float64 as evo parses them) each stamp in seconds
        becomes the roundest integer nanoseconds that a reader turns back into it
        (:func:`_nanoseconds`: ``1305031098.6659`` as ``1305031098665900000``, not the
        ``...032`` of ``round(t * 1e9)``); a EuRoC file's ``1403715524907143168`` comes
        back as ``1403715524907143200``.

        Parameters
        ----------
        read_as : {"sec_nsec", "ns"}
            How the reader makes seconds of them: ``sec + nanosec * 1e-9`` (ROS
            headers, :func:`stamps_s_from_ns`) or ``float(ns) / 1e9`` (EuRoC, evo).
        distinct : bool
            Refuse two stamps on the same nanosecond (less than 1 ns apart): a file of
            nanoseconds (EuRoC, a bag) cannot tell them apart, and its reader drops the
            second as a repeated stamp. Every writer of nanoseconds asks for it.

        Returns
        -------
        ndarray, shape (N,), int64, nanoseconds

        Raises
        ------
        ValidationError
            A stamp beyond int64 nanoseconds (+-9.2e9 s, the year 2262); with
            ``distinct``, two stamps on one nanosecond (named with their poses).

        Examples
        --------
        >>> PoseTrajectory(
        ...     stamps_s=[1305031102.19433], positions_xyz=[[0.0, 0, 0]],
        ...     orientations_quat_xyzw=[[0.0, 0, 0, 1]],
        ... ).nanoseconds("ns").tolist()
        [1305031102194330000]
        """
        stamps_ns = (
            self.stamps_ns if self.stamps_ns is not None else _nanoseconds(self.stamps_s, read_as)
        )
        # Stamps increase, and so do their nanoseconds: comparing neighbours suffices.
        same = np.flatnonzero(stamps_ns[1:] == stamps_ns[:-1]) if distinct else None
        if same is not None and same.size:
            k = int(same[0])
            first, second = self.stamps_s[k : k + 2].tolist()
            reason = (
                f"stamps {first!r} and {second!r} s (poses {k} and {k + 1}) are the same "
                f"integer nanosecond {int(stamps_ns[k])}"
            )
            msg = f"{reason}: stamps in nanoseconds cannot tell them apart (TUM's can)"
            raise ValidationError(msg, field="stamps_s", reason=reason)
        return stamps_ns

    def to_poses(self) -> tuple[PoseStamped, ...]:
        """Return one ``PoseStamped`` per row, stamped by :meth:`nanoseconds`.

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> example("trajectory/PoseTrajectory").to_poses()[1].header.stamp
        Time(sec=0, nanosec=100000000)
        """
        from robot_msgs.geometry import Point, Pose, PoseStamped, Quaternion  # noqa: PLC0415
        from robot_msgs.std import Header, Time  # noqa: PLC0415 - see the module's docstring

        sec, nanosec = np.divmod(self.nanoseconds(), _NS)
        rows = np.concatenate([self.positions_xyz, self.orientations_quat_xyzw], axis=1).tolist()
        return tuple(
            PoseStamped(
                header=Header(stamp=Time(sec=s, nanosec=n), frame_id=self.frame_id),
                pose=Pose(
                    position=Point(x=r[0], y=r[1], z=r[2]),
                    orientation=Quaternion(x=r[3], y=r[4], z=r[5], w=r[6]),
                ),
            )
            for s, n, r in zip(sec.tolist(), nanosec.tolist(), rows, strict=True)
        )

    def to_path(self, *, stamp: Time | None = None) -> Path:
        """Return the trajectory as a ``nav.Path`` (header stamp: ``stamp``, else the last pose's).

        A ``Path`` holds each pose's stamp in nanoseconds (``stamps_ns`` exactly, else
        :meth:`nanoseconds`: seconds that read back as ``stamps_s``, or to the nanosecond
        or one float64 step, whichever is larger, where no integer does), its position
        and orientation, and ``frame_id``:
        :meth:`from_path` of it, given ``child_frame_id``, returns those. It holds none of
        ``child_frame_id``, ``covariance_6x6``, ``rotation_matrices``,
        ``stamps_are_frames`` (frame k becomes k s), ``orientations_from_matrices`` and
        ``stamps_repeat`` (poses at one stamp: :meth:`from_path` refuses them): they are
        lost here, and the bag writers say so of those whose loss changes the
        rows (:func:`robot_msgs.io.write_trajectory`).

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> path = example("trajectory/PoseTrajectory").to_path()
        >>> len(path.poses), path.header.frame_id, path.header.stamp
        (20, 'map', Time(sec=1, nanosec=900000000))
        """
        from robot_msgs.nav import Path  # noqa: PLC0415 - see the module's docstring
        from robot_msgs.std import Header, Time  # noqa: PLC0415

        poses = self.to_poses()
        if stamp is None:
            stamp = poses[-1].header.stamp if poses else Time()
        return Path(header=Header(stamp=stamp, frame_id=self.frame_id), poses=poses)

    def _validate_covariance(self, cov: Float64Array) -> None:
        bad = ~np.isfinite(cov).all(axis=(1, 2))
        scale = np.abs(cov).max(axis=(1, 2))
        with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: refused as not finite
            bad |= np.abs(cov - np.swapaxes(cov, 1, 2)).max(axis=(1, 2)) > 1e-9 * scale
        bad |= (np.diagonal(cov, axis1=1, axis2=2) < 0).any(axis=1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            expected = "a finite symmetric covariance with a non-negative diagonal"
            raise self._fail(field=f"covariance_6x6[{i}]", expected=expected, got=cov[i])

    def _validate_matrices(self, matrices: Float64Array) -> None:
        # Imported here: rotation_matrices are rarely set
        from robot_msgs.rotations import matrix_from_quat_xyzw, row_blocks  # noqa: PLC0415

        quats = self.orientations_quat_xyzw
        bad = np.empty(matrices.shape[0], dtype=bool)
        # In blocks of rows: over the whole stack the temporaries were six arrays of its
        # size (2e6 KITTI poses read as given: 0.9 GB more than the trajectory).
        with np.errstate(all="ignore"):  # inf, NaN; det's subnormal pivot: divide by zero
            for rows in row_blocks(matrices.shape[0]):
                off = np.abs(matrices[rows] - matrix_from_quat_xyzw(quats[rows]))
                bad[rows] = ~(off.max(axis=(1, 2), initial=0.0) <= ROTATION_MATRIX_TOL)
                bad[rows] |= ~(np.linalg.det(matrices[rows]) > 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            expected = (
                f"a rotation block within {ROTATION_MATRIX_TOL:g} of orientations_quat_xyzw[{i}]"
                " (finite, determinant > 0)"
            )
            raise self._fail(field=f"rotation_matrices[{i}]", expected=expected, got=matrices[i])

    @classmethod
    def _unchecked(
        cls,
        stamps_s: Float64Array,
        positions_xyz: Float64Array,
        orientations_quat_xyzw: Float64Array,
        frame_id: str = "",
        child_frame_id: str = "",
        covariance_6x6: Float64Array | None = None,
        stamps_ns: Int64Array | None = None,
        *,
        stamps_are_frames: bool = False,
        rotation_matrices: Float64Array | None = None,
        orientations_from_matrices: bool = False,
        stamps_repeat: bool = False,
    ) -> PoseTrajectory:
        """Build from float64 arrays the caller owns and has proven valid: no check, no copy.

        For the library's own derivations that keep the invariants by construction (rows
        of a valid trajectory taken in increasing order, cleaned reader output), where
        validating and copying again cost as much as the derivation. The arrays must be
        new (nothing else may write to them); they are made read-only here. Every public
        construction validates and copies.
        """
        arrays = (stamps_s, positions_xyz, orientations_quat_xyzw, covariance_6x6, stamps_ns)
        for array in (*arrays, rotation_matrices):
            if array is not None:
                array.setflags(write=False)
        return _empty(cls)._derived(  # noqa: SLF001 - the base's one unchecked constructor
            stamps_s=stamps_s,
            positions_xyz=positions_xyz,
            orientations_quat_xyzw=orientations_quat_xyzw,
            frame_id=frame_id,
            child_frame_id=child_frame_id,
            covariance_6x6=covariance_6x6,
            stamps_ns=stamps_ns,
            stamps_are_frames=stamps_are_frames,
            rotation_matrices=rotation_matrices,
            orientations_from_matrices=orientations_from_matrices,
            stamps_repeat=stamps_repeat,
        )

    def __len__(self) -> int:
        return int(self.stamps_s.shape[0])

    @property
    def duration_s(self) -> float:
        """Time from the first to the last stamp, in seconds (0 for fewer than 2 poses).

        ``inf`` for stamps further apart than float64 holds (-1e308 .. 1e308).
        """
        if len(self) < 2:
            return 0.0
        return float(self.stamps_s[-1]) - float(self.stamps_s[0])  # Python's: no warning

    @functools.cached_property
    def median_step_s(self) -> float:
        """The median interval between consecutive stamps, s; ``inf`` for fewer than 2 poses.

        Computed on first use and kept (the stamps are read-only): the doctor asks for it
        38 times on one pair of 10^5 poses (the gap a stop or a coverage loss counts, the
        interpolation's longest gap, the offset search's resolution), 22 ms each, as
        ``numpy.partition`` is slow on the near-equal steps of a steady rate.
        """
        if len(self) < 2:
            return math.inf
        from robot_msgs.compare.statistics import median  # noqa: PLC0415 - a layer above

        return median(np.diff(self.stamps_s))

    @property
    def path_length_m(self) -> float:
        """Sum of the distances between consecutive positions, in metres."""
        return float(np.linalg.norm(np.diff(self.positions_xyz, axis=0), axis=1).sum())


def rows_past_limit(positions_xyz: Float64Array) -> IntpArray:
    """Return the rows of ``positions_xyz`` ``(N, 3)`` with a coordinate past the limit.

    :data:`POSITION_LIMIT_M`; empty when none. One dot product (a sum of squares within
    the limit's square proves every row within) decides for almost every input; the
    ``(N,)`` row mask is built only otherwise.

    Examples
    --------
    >>> rows_past_limit(np.array([[0.0, 1.0, 2.0], [3e150, 0.0, 0.0]])).tolist()
    [1]
    >>> rows_past_limit(np.array([[0.0, 1.0, 2.0, 9e300], [3e150, 0.0, 0.0, 0.0]])[:, :3])
    array([1])
    """
    with np.errstate(over="ignore"):  # vdot copies a strided view first (24 B a pose)
        if positions_xyz.flags.c_contiguous:
            squares = float(np.vdot(positions_xyz, positions_xyz))
        else:
            squares = float(np.einsum("ij,ij->", positions_xyz, positions_xyz))
    if squares <= POSITION_LIMIT_M**2:
        return np.empty(0, dtype=np.intp)
    out: IntpArray = np.flatnonzero(np.abs(positions_xyz).max(axis=1) > POSITION_LIMIT_M)
    return out


def stamps_s_from_ns(stamps_ns: Int64Array) -> Float64Array:
    """Return ``sec + nanosec * 1e-9`` per stamp: the float seconds of ROS header stamps.

    Parameters
    ----------
    stamps_ns : ndarray, shape (N,), int64, nanoseconds

    Returns
    -------
    ndarray, shape (N,), float64, seconds
        Bit for bit what ``stamp.sec + stamp.nanosec * 1e-9`` gives (evo's arithmetic).

    Examples
    --------
    >>> stamps_s_from_ns(np.array([1_500_000_000, 1_700_000_000_000_000_001])).tolist()
    [1.5, 1700000000.0]
    """
    sec, nanosec = np.divmod(np.asarray(stamps_ns, dtype=np.int64), _NS)
    out: Float64Array = sec.astype(np.float64) + nanosec.astype(np.float64) * 1e-9
    return out


def _empty(cls: type[PoseTrajectory]) -> PoseTrajectory:
    """Return a valid trajectory of no poses, what :meth:`PoseTrajectory._unchecked` copies."""
    return cls(stamps_s=_NO_FLOATS, positions_xyz=_NO_ROWS_3, orientations_quat_xyzw=_NO_ROWS_4)


_NO_FLOATS = np.zeros(0)
_NO_ROWS_3 = np.zeros((0, 3))
_NO_ROWS_4 = np.zeros((0, 4))
for _array in (_NO_FLOATS, _NO_ROWS_3, _NO_ROWS_4):
    _array.setflags(write=False)


def _nanoseconds(stamps_s: Float64Array, read_as: ReadAs = "sec_nsec") -> Int64Array:
    """Integer nanoseconds of each stamp: the roundest that reads back as it, else as typed.

    Of the multiples of ``10^9, 10^8, ..., 1`` nearest ``t * 1e9``, the first that a
    reader turns back into ``t`` is kept, read as ``read_as`` says: ``"ns"``, ``float(ns)
    / 1e9`` (EuRoC's and evo's reader), or ``"sec_nsec"``, ``sec + nanosec * 1e-9`` (ROS
    headers, :func:`stamps_s_from_ns`). So a stamp typed ``1305031098.6659`` is written
    ``1305031098665900000`` (a float64 holds it to 238 ns: ``round(t * 1e9)`` gave
    ``...032``). Where no integer reads back (that arithmetic rounds twice:
    ``1305031102.19433`` of fr1_xyz's rgbdslam, read as ``"ns"``), the roundest within
    half a float64 step of ``t`` is written, the stamp as typed (``1305031102194330000``,
    not ``round(t * 1e9)``'s ``...329856``; exactly: :func:`_off_by_ns`); it reads back
    one step off, as any integer would. Vectorised: each pass takes the rows still open.

    Examples
    --------
    >>> t = np.array([1305031098.6659, 1.5, 0.1 + 0.2, 1305031102.19433])
    >>> _nanoseconds(t, "ns").tolist()
    [1305031098665900000, 1500000000, 300000000, 1305031102194330000]
    """
    far = np.abs(stamps_s) >= 9.2e9  # past int64 nanoseconds (year 2262): cast to INT64_MIN
    if far.any():
        msg = (
            f"stamp {float(stamps_s[np.argmax(far)])!r} s does not fit int64 nanoseconds "
            "(beyond +-9.2e9 s)"
        )
        raise ValidationError(msg, field="stamps_s", reason=msg)
    # The integers tried are the multiples nearest what the reader turns back into t.
    # sec_nsec: t * 1e9 rounded exactly (as a float it is rounded to 256 ns near 1.5e9 s,
    # and of the integers then tried none read back for 2% of stamps). "ns" divides
    # float(ns), a float like t * 1e9 itself: the exact integer is rounded to another
    # float for 3% of stamps of 1e7..1e8 s, which no longer read back (a review).
    base: Int64Array = np.rint(stamps_s * 1e9).astype(np.int64)
    if read_as == "sec_nsec":
        base -= np.rint(_off_by_ns(base, stamps_s)).astype(np.int64)
    out: Int64Array = base.copy()
    left = np.arange(base.size)
    for k in range(9, -1, -1):
        step = np.int64(10**k)
        candidate = (base[left] + step // 2) // step * step
        back = candidate / 1e9 if read_as == "ns" else stamps_s_from_ns(candidate)
        good = back == stamps_s[left]
        out[left[good]] = candidate[good]
        left = left[~good]
        if not left.size:
            return out
    t = stamps_s[left]
    half = np.spacing(np.abs(t)) * 1e9 / 2.0
    for k in range(9, 0, -1):  # none reads back: the stamp as typed, roundest first
        step = np.int64(10**k)
        candidate = (base[left] + step // 2) // step * step
        good = np.abs(_off_by_ns(candidate, t)) < half
        out[left[good]] = candidate[good]
        left, t, half = left[~good], t[~good], half[~good]
        if not left.size:
            break
    return out


def _off_by_ns(ns: Int64Array, stamps_s: Float64Array) -> Float64Array:
    """``ns - t * 1e9`` computed exactly (to rounding of the small result), ``(N,)``.

    WHY: ``t * 1e9`` near 1.3e18 is rounded to 256 ns; its rounding error is recovered
    with Dekker's exact product (no FMA in NumPy): Veltkamp's split of ``t`` into two
    halves of at most 27 bits, each of whose products with ``1e9`` (21 significant bits)
    is exact in a float64.
    """
    product = stamps_s * 1e9
    split = 134217729.0 * stamps_s  # 2**27 + 1
    t_hi = split - (split - stamps_s)
    t_lo = stamps_s - t_hi
    error = (t_hi * 1e9 - product) + t_lo * 1e9  # t * 1e9 - product, exactly
    whole = np.rint(product)
    return (ns - whole.astype(np.int64)).astype(np.float64) - (product - whole) - error
