r"""Projection of a trajectory onto a coordinate plane, as evo's ``--project_to_plane`` does it.

For robots that move in a plane, the errors out of it are noise (or a tilt of the world
frame); projecting after alignment keeps only the in-plane part. ``fr2_desk_ORB.txt``
after SE(3) alignment: APE 0.008119 m in 3-D, 0.007249 m projected to ``xy`` (evo 1.38.1
gives the same). Projecting *before* alignment, a common mistake, gives 0.62 m: the
alignment then fits two flattened point sets whose normal no longer agrees.

Each pose is projected on its own (evo 1.38.1, ``PosePath3D.project``): the coordinate
along the plane's normal ``k`` is set to 0, and the rotation is replaced by the rotation
about ``k`` by the static-frame ``xyz`` Euler angle of the pose about ``k``
(:func:`robot_msgs.rotations.euler_sxyz_from_quat_xyzw`, Gohlke's ``euler_from_matrix(R,
"sxyz")``, ``R = R_z(γ) R_y(β) R_x(α)``, gimbal lock included): ``xy`` keeps the yaw ``γ``,
``xz`` the pitch ``β`` (within ±90°), ``yz`` the roll ``α``.
"""

from __future__ import annotations

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.settings import PLANES
from robot_msgs.rotations import euler_sxyz_from_quat_xyzw
from robot_msgs.trajectory import PoseTrajectory

__all__ = ["euler_sxyz_from_quat_xyzw", "project_to_plane"]

_NORMAL = {"xy": 2, "xz": 1, "yz": 0}


def project_to_plane(trajectory: PoseTrajectory, plane: str) -> PoseTrajectory:
    """Project every pose onto the ``plane`` through the origin (evo's ``--project_to_plane``).

    Parameters
    ----------
    trajectory : PoseTrajectory
        Not modified.
    plane : {"xy", "xz", "yz"}
        The plane kept; the coordinate along its normal becomes 0, and each rotation
        becomes the rotation about the normal by its Euler angle about it (module
        docstring).

    Returns
    -------
    PoseTrajectory
        The projected poses, same stamps and frames.

    Raises
    ------
    ValidationError
        An unknown plane.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> traj = PoseTrajectory(stamps_s=[0.0], positions_xyz=[[1.0, 2.0, 3.0]],
    ...                       orientations_quat_xyzw=[[h, 0.0, 0.0, h]])  # 90 deg roll
    >>> flat = project_to_plane(traj, "xy")
    >>> flat.positions_xyz, flat.orientations_quat_xyzw
    (array([[1., 2., 0.]]), array([[0., 0., 0., 1.]]))
    """
    check_argument("trajectory", trajectory, PoseTrajectory)
    if not isinstance(plane, str) or plane not in PLANES:  # an array: ambiguous truth value
        msg = f"Expected a plane in {', '.join(PLANES)}, got {plane!r}"
        raise ValidationError(msg)
    normal = _NORMAL[plane]
    positions = trajectory.positions_xyz.copy()
    positions[:, normal] = 0.0
    angle = euler_sxyz_from_quat_xyzw(trajectory.orientations_quat_xyzw)[:, normal]
    quats = np.zeros((len(trajectory), 4))
    quats[:, normal] = np.sin(0.5 * angle)
    quats[:, 3] = np.cos(0.5 * angle)
    return PoseTrajectory._unchecked(  # noqa: SLF001 - new arrays, valid by construction
        trajectory.stamps_s,
        positions,
        quats,
        trajectory.frame_id,
        trajectory.child_frame_id,
        stamps_ns=trajectory.stamps_ns,  # a bag's exact stamps, written back as read
        stamps_are_frames=trajectory.stamps_are_frames,
        orientations_from_matrices=trajectory.orientations_from_matrices,
        stamps_repeat=trajectory.stamps_repeat,
    )
