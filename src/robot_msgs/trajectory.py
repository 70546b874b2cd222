"""Joint trajectories and the array-backed pose trajectory (family ``trajectory``)."""

from __future__ import annotations

import dataclasses
from typing import Annotated

import numpy as np

from robot_msgs.msg import Msg, Shape, message
from robot_msgs.std import Duration, Header
from robot_msgs.typing import Float64Array

__all__ = ["JointTrajectory", "JointTrajectoryPoint", "PoseTrajectory"]

#: Largest deviation of a quaternion's norm from 1 that :class:`PoseTrajectory` accepts.
UNIT_QUATERNION_TOL = 1e-6


@message("trajectory/JointTrajectoryPoint", ros2="trajectory_msgs/msg/JointTrajectoryPoint")
class JointTrajectoryPoint(Msg):
    """One waypoint of a joint trajectory: targets per joint and when to reach them.

    WHY ``time_from_start`` and not a stamp: a commanded trajectory is relative to
    when it starts executing (``JointTrajectory.header.stamp``), as in ROS.
    """

    positions: tuple[float, ...] = ()
    velocities: tuple[float, ...] = ()
    accelerations: tuple[float, ...] = ()
    effort: tuple[float, ...] = ()
    time_from_start: Duration = Duration()


@message("trajectory/JointTrajectory", ros2="trajectory_msgs/msg/JointTrajectory")
class JointTrajectory(Msg):
    """A commanded motion of named joints: the signal a controller is asked to track.

    Every point's non-empty lists hold one value per joint name, and points are in
    strictly increasing ``time_from_start``, as ROS controllers require.
    """

    header: Header = Header()
    joint_names: tuple[str, ...] = ()
    points: tuple[JointTrajectoryPoint, ...] = ()

    def _validate(self) -> None:
        n = len(self.joint_names)
        last = -np.inf
        for i, point in enumerate(self.points):
            for name in ("positions", "velocities", "accelerations", "effort"):
                values = getattr(point, name)
                if values and len(values) != n:
                    expected = f"0 or {n} values (one per joint name)"
                    raise self._fail(field=f"points[{i}].{name}", expected=expected, got=values)
            t = point.time_from_start.to_s()
            if t <= last:
                raise self._fail(
                    field=f"points[{i}].time_from_start",
                    expected=f"a time after {last} s",
                    got=point.time_from_start,
                )
            last = t


@message("trajectory/PoseTrajectory")
class PoseTrajectory(Msg):
    """A timed sequence of 3-D poses held as arrays: what trajectory evaluation works on.

    WHY arrays and not a tuple of ``PoseStamped``: evaluation runs over 10^6 poses, so
    every operation is vectorised over rows; one row is one pose. Stamps are float64
    seconds (``(N,)``), strictly increasing and finite, so association can binary
    search; positions ``(N, 3)`` metres; orientations ``(N, 4)`` unit quaternions
    ``x, y, z, w`` (within ``1e-6``): readers normalise and report, never silently.
    ``frame_id`` is the frame the poses are expressed in, ``child_frame_id`` the body.
    The nearest ROS 2 type is ``nav_msgs/msg/Path``, which is a list of messages.

    ``covariance_6x6`` (``(N, 6, 6)``, optional) is each pose's covariance in ROS's
    ``PoseWithCovariance`` convention: the parameters ``x, y, z`` (m) and rotations about
    the fixed ``x, y, z`` axes of ``frame_id`` (rad), i.e. a pose ``(p + δp, Exp(δθ) R)``
    with ``(δp, δθ)`` of that covariance; symmetric with a non-negative diagonal. Readers
    fill it from ``PoseWithCovarianceStamped`` and ``Odometry`` messages; it follows the
    poses through association and alignment (rotated with them), and operations whose
    effect on it is not defined (a plane projection, interpolation) drop it.

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

    def _validate(self) -> None:
        for name in ("stamps_s", "positions_xyz", "orientations_quat_xyzw"):
            values = getattr(self, name)
            # A finite sum proves every value finite without a full boolean mask.
            if not np.isfinite(values.sum()) and not np.isfinite(values).all():
                row = int(np.flatnonzero(~np.isfinite(values).reshape(len(values), -1).all(1))[0])
                raise self._fail(field=f"{name}[{row}]", expected="finite values", got=values[row])
        steps = np.diff(self.stamps_s)
        if (steps <= 0).any():
            i = int(np.flatnonzero(steps <= 0)[0]) + 1
            expected = f"strictly increasing stamps (previous {self.stamps_s[i - 1]!r})"
            raise self._fail(field=f"stamps_s[{i}]", expected=expected, got=float(self.stamps_s[i]))
        if self.covariance_6x6 is not None:
            self._validate_covariance(self.covariance_6x6)
        q = self.orientations_quat_xyzw
        norms = np.sqrt(np.einsum("ij,ij->i", q, q))
        bad = np.abs(norms - 1.0) > UNIT_QUATERNION_TOL
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            expected = f"a unit quaternion (norm {norms[i]!r})"
            raise self._fail(
                field=f"orientations_quat_xyzw[{i}]",
                expected=expected,
                got=self.orientations_quat_xyzw[i],
            )

    def _validate_covariance(self, cov: Float64Array) -> None:
        bad = ~np.isfinite(cov).all(axis=(1, 2))
        scale = np.abs(cov).max(axis=(1, 2))
        bad |= np.abs(cov - np.swapaxes(cov, 1, 2)).max(axis=(1, 2)) > 1e-9 * scale
        bad |= (np.diagonal(cov, axis1=1, axis2=2) < 0).any(axis=1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            expected = "a finite symmetric covariance with a non-negative diagonal"
            raise self._fail(field=f"covariance_6x6[{i}]", expected=expected, got=cov[i])

    @classmethod
    def _unchecked(
        cls,
        stamps_s: Float64Array,
        positions_xyz: Float64Array,
        orientations_quat_xyzw: Float64Array,
        frame_id: str = "",
        child_frame_id: str = "",
        covariance_6x6: Float64Array | None = None,
    ) -> PoseTrajectory:
        """Build from float64 arrays the caller owns and has proven valid: no check, no copy.

        For the library's own derivations that keep the invariants by construction (rows
        of a valid trajectory taken in increasing order, cleaned reader output), where
        validating and copying again cost as much as the derivation. The arrays must be
        new (nothing else may write to them); they are made read-only here. Every public
        construction validates and copies.
        """
        values = {
            "stamps_s": stamps_s,
            "positions_xyz": positions_xyz,
            "orientations_quat_xyzw": orientations_quat_xyzw,
            "frame_id": frame_id,
            "child_frame_id": child_frame_id,
            "covariance_6x6": covariance_6x6,
        }
        out = object.__new__(cls)
        for field in dataclasses.fields(cls):
            value = values[field.name]
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
            object.__setattr__(out, field.name, value)
        return out

    def __len__(self) -> int:
        return int(self.stamps_s.shape[0])

    @property
    def duration_s(self) -> float:
        """Time from the first to the last stamp, in seconds (0 for fewer than 2 poses)."""
        return float(self.stamps_s[-1] - self.stamps_s[0]) if len(self) > 1 else 0.0

    @property
    def path_length_m(self) -> float:
        """Sum of the distances between consecutive positions, in metres."""
        return float(np.linalg.norm(np.diff(self.positions_xyz, axis=0), axis=1).sum())
