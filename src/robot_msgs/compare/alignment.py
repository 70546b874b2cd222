"""``Alignment``: the similarity transform that was applied to an estimate before comparing it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np

from robot_msgs.evaluation.settings import ALIGNMENT_METHODS
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.check import COMPILED, all_finite
from robot_msgs.msg.primitives import Count
from robot_msgs.rotations import (
    angle_from_matrix,
    matrix_times_rows,
    nearest_rotation_matrix,
    quat_xyzw_from_matrix,
)
from robot_msgs.trajectory import PoseTrajectory
from robot_msgs.trajectory.pose import rows_past_limit
from robot_msgs.typing import Float64Array

if TYPE_CHECKING:
    from robot_msgs.compare.extrinsic import Extrinsic

__all__ = ["ALIGNMENT_METHODS", "Alignment", "check_rigid", "is_rotation_matrix", "with_positions"]

#: Largest deviation of ``RᵀR`` from the identity (and of ``det R`` from 1) accepted.
ROTATION_TOL = 1e-6


def is_rotation_matrix(r: np.ndarray[Any, Any]) -> bool:
    """Whether ``r`` (3, 3) is finite, orthonormal and proper (det +1), within ROTATION_TOL.

    Each entry of ``RᵀR - I`` and ``det R - 1`` is computed from the nine values as
    Python floats. WHY: with NumPy (``r.T @ r``, ``np.linalg.det``, under ``np.errstate``)
    the test took 7.8 µs, most of what reading an ``Alignment`` from JSON cost; on
    floats 0.8 µs (min of 7 x 20000, one run). The sums are rounded in another order
    than NumPy's, which can matter only within about 1e-16 of the tolerance: on 20000
    random rotations perturbed by 1e-9 to 1e-3 (some given a NaN, an infinity or
    1e200) both answered alike. Where ``robot_msgs.msg._checks`` is built, a
    C-contiguous float64 array is tested there, the same operations in C (0.8 µs -> 0.1).

    Examples
    --------
    >>> is_rotation_matrix(np.eye(3)), is_rotation_matrix(np.diag([1.0, 1.0, -1.0]))
    (True, False)
    """
    if COMPILED is not None:  # this test in C, bit for bit (None: not nine float64s)
        compiled = COMPILED.rotation_ok(r, ROTATION_TOL)
        if compiled is not None:
            return compiled
    rows: list[list[float]] = np.asarray(r, dtype=np.float64).tolist()
    (a, b, c), (d, e, f), (g, h, i) = rows
    if not math.isfinite(a + b + c + d + e + f + g + h + i):
        return False  # a NaN or an infinity, or values too large to be a rotation's
    tol = ROTATION_TOL
    orthonormal = (
        abs(a * a + d * d + g * g - 1.0) <= tol
        and abs(b * b + e * e + h * h - 1.0) <= tol
        and abs(c * c + f * f + i * i - 1.0) <= tol
        and abs(a * b + d * e + g * h) <= tol
        and abs(a * c + d * f + g * i) <= tol
        and abs(b * c + e * f + h * i) <= tol
    )
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return orthonormal and abs(det - 1.0) <= tol


def with_positions(trajectory: PoseTrajectory, positions_xyz: Float64Array) -> PoseTrajectory:
    """Return ``trajectory`` with new positions (``(N, 3)``, m), the rest as is.

    Stamps, orientations and covariances are kept as given (rpg's estimate scaled by the
    Sim(3) scale alone, and back). The positions are copied and checked as the
    constructor checks them (finite, within :data:`~robot_msgs.limits.POSITION_LIMIT_M`),
    and the rest of a valid trajectory keeps its invariants, so the result is built
    without the stamps' check: matched rows whose stamps repeat (read with
    ``repeated_stamps="all"``, as evo and rpg read them) were refused by ``replace``
    ("Expected strictly increasing stamps"). Positions that fail the checks, or of another
    shape or dtype, are refused as ``replace`` refuses them.

    WHY a copy: kept as given and only flagged read-only, a view of them the caller held
    still wrote into the result; and a scaled estimate past the limit (Sim(3) scale 100
    on positions near 1e149 m) was built unchecked, a result ``from_dict`` refused.

    Examples
    --------
    >>> traj = PoseTrajectory(
    ...     stamps_s=[0.0, 1.0], positions_xyz=[[0.0, 0, 0], [1, 0, 0]],
    ...     orientations_quat_xyzw=[[0.0, 0, 0, 1]] * 2,
    ... )
    >>> with_positions(traj, 2.0 * traj.positions_xyz).positions_xyz[1].tolist()
    [2.0, 0.0, 0.0]
    """
    fits = isinstance(positions_xyz, np.ndarray) and positions_xyz.dtype == np.float64
    if not (fits and positions_xyz.shape == trajectory.positions_xyz.shape):
        return trajectory.replace(positions_xyz=positions_xyz)
    if not all_finite(positions_xyz) or rows_past_limit(positions_xyz).size:
        return trajectory.replace(positions_xyz=positions_xyz)
    own = np.array(positions_xyz, dtype=np.float64, order="C", copy=True)
    own.setflags(write=False)
    return trajectory._derived(positions_xyz=own)  # noqa: SLF001


def check_rigid(msg: Alignment | Extrinsic) -> None:
    """Refuse ``msg`` whose ``rotation`` is no rotation matrix or ``translation_m`` not finite."""
    if not is_rotation_matrix(msg.rotation):
        expected = "a rotation matrix (orthonormal, det +1)"
        raise msg._fail(field="rotation", expected=expected, got=msg.rotation)  # noqa: SLF001
    if not all_finite(msg.translation_m):
        got = msg.translation_m
        raise msg._fail(field="translation_m", expected="finite values", got=got)  # noqa: SLF001


@message("compare/Alignment")
class Alignment(Msg):
    """The Sim(3) transform ``x' = s R x + t`` an estimate was aligned with, and how it was fitted.

    WHY it travels with results: errors after alignment depend on it. A SLAM estimate
    that needed scale 0.43 is a monocular run whose scale was unobservable; a fitted yaw of
    90° says the estimate's world frame was turned; reporting the transform lets a reader see
    that, and lets the same transform be applied to other runs or plots.

    There is no ROS equivalent.

    Attributes
    ----------
    method : str
        Which degrees of freedom were fitted (one of ``EvaluationSettings.align``'s
        choices, :data:`~robot_msgs.evaluation.ALIGNMENT_METHODS`).
    rotation : ndarray, shape (3, 3), float64
        A proper rotation matrix, ``R``.
    translation_m : ndarray, shape (3,), float64, metres
        ``t``.
    scale : float > 0
        ``s``.
    n_fit : int
        How many poses the fit used (0 for ``"none"``).

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> turn = Alignment(
    ...     method="sim3",
    ...     rotation=[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
    ...     translation_m=[1.0, 0.0, 0.0],
    ...     scale=2.0,
    ...     n_fit=2,
    ... )
    >>> traj = PoseTrajectory(
    ...     stamps_s=[0.0, 1.0],
    ...     positions_xyz=[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
    ...     orientations_quat_xyzw=[[0.0, 0.0, 0.0, 1.0]] * 2,
    ... )
    >>> turn.apply(traj).positions_xyz
    array([[1., 0., 0.],
           [1., 2., 0.]])
    >>> turn.matrix()[:2]
    array([[ 0., -2.,  0.,  1.],
           [ 2.,  0.,  0.,  0.]])
    """

    method: str
    rotation: Annotated[Float64Array, Shape(3, 3)]
    translation_m: Annotated[Float64Array, Shape(3)]
    scale: float = 1.0
    n_fit: Count = 0

    def _validate(self) -> None:
        if self.method not in ALIGNMENT_METHODS:
            raise self._fail(
                field="method", expected=f"one of {ALIGNMENT_METHODS}", got=self.method
            )
        check_rigid(self)
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise self._fail(field="scale", expected="a finite scale > 0", got=self.scale)

    def describe(self) -> str:
        """Return a one-line account of the fit, for a result's notes.

        Examples
        --------
        >>> import numpy as np
        >>> Alignment(method="se3", rotation=np.eye(3), translation_m=[1.0, 0, 0],
        ...           n_fit=3).describe()
        'se3 alignment fitted on 3 poses: rotation 0 deg, translation [1, 0, 0] m, scale 1'
        >>> Alignment(method="origin", rotation=np.eye(3), translation_m=[458075.1234,
        ...           5429382.5, -0.25]).describe().split("translation ")[1]
        '[458075.123, 5429382.500, -0.25] m, scale 1'
        """
        angle = math.degrees(float(angle_from_matrix(self.rotation[None])[0]))
        # Millimetres at least: 6 digits of a UTM northing (5.42938e+06) are 10 m.
        t = ", ".join(f"{v:.3f}" if abs(v) >= 1e3 else f"{v:.6g}" for v in self.translation_m)
        return (
            f"{self.method} alignment fitted on {self.n_fit} pose{'s' * (self.n_fit != 1)}: "
            f"rotation {angle:.6g} deg, "
            f"translation [{t}] m, scale {self.scale:.9g}"
        )

    def matrix(self) -> Float64Array:
        """Return the transform as a ``(4, 4)`` float64 matrix, ``s R`` in the top-left block."""
        out = np.eye(4)
        out[:3, :3] = self.scale * self.rotation
        out[:3, 3] = self.translation_m
        return out

    def is_identity(self) -> bool:
        """Whether this transform moves nothing (``method="none"``, or an exact identity)."""
        return (
            self.scale == 1.0
            and not self.translation_m.any()
            and np.array_equal(self.rotation, np.eye(3))
        )

    def apply_positions(self, positions: Float64Array) -> Float64Array:
        """Return ``s R x + t`` of every row of ``positions`` (``(N, 3)``, m), a new array.

        As evo does, the positions are scaled first, then rotated and translated. Each row
        depends on its own only, so a chunk of rows gives the rows of the whole.
        """
        # Scaled by 1 is the same numbers: no (N, 3) temporary for the common SE(3) case.
        scaled = positions
        if self.scale != 1.0:
            scaled = self.scale * scaled
        moved = matrix_times_rows(self.rotation, scaled)
        del scaled
        moved += self.translation_m
        return moved

    def quaternion_matrix(self) -> Float64Array | None:
        """Return ``L``, ``(4, 4)``, with ``q_R ⊗ q = L q`` (xyzw); ``None`` when ``R = I``.

        ``q_R ⊗ q`` is linear in ``q``: one matrix for every row. The product of unit
        quaternions is unit up to rounding, so no renormalisation is needed.
        """
        if np.array_equal(self.rotation, np.eye(3)):
            return None
        # The nearest rotation: ``origin`` of KITTI rows as given may hold a product
        # of blocks off SO(3) by ~1e-7 (evo's); a fitted rotation is its own.
        x, y, z, w = quat_xyzw_from_matrix(nearest_rotation_matrix(self.rotation))
        return np.array([[w, -z, y, x], [z, w, -x, y], [-y, x, w, z], [-x, -y, -z, w]])

    def apply_orientations(self, quats_xyzw: Float64Array) -> Float64Array:
        """Return every row of ``quats_xyzw`` (``(N, 4)``) rotated by ``R``: ``q_R ⊗ q``.

        The input itself when ``R`` is the identity; otherwise a new array
        (:meth:`quaternion_matrix` times each row).
        """
        left = self.quaternion_matrix()
        return quats_xyzw if left is None else matrix_times_rows(left, quats_xyzw)

    def apply(self, trajectory: PoseTrajectory) -> PoseTrajectory:
        """Return ``trajectory`` moved by this transform; the input is not changed.

        Positions become ``s R x + t`` (metres, :meth:`apply_positions`), orientations
        are rotated by ``R`` (``q' = q_R ⊗ q``, :meth:`apply_orientations`), stamps and
        frames are kept. A pose covariance (world-frame parameters) becomes ``J Σ Jᵀ``
        with ``J = diag(s R, R)``. An identity transform returns ``trajectory`` itself
        (a message is immutable, so nothing is copied for ``method="none"``).
        """
        if self.is_identity():
            return trajectory
        positions = self.apply_positions(trajectory.positions_xyz)
        quats = self.apply_orientations(trajectory.orientations_quat_xyzw)
        cov = trajectory.covariance_6x6
        if cov is not None:
            jac = np.zeros((6, 6))
            jac[:3, :3] = self.scale * self.rotation
            jac[3:, 3:] = self.rotation
            cov = np.einsum("ij,njk,lk->nil", jac, cov, jac)
        matrices = trajectory.rotation_matrices  # as given: R M, as evo left-multiplies
        if matrices is not None:
            matrices = np.matmul(self.rotation, matrices)
        if not np.isfinite(positions).all():  # only a huge scale or translation overflows
            return trajectory.replace(
                positions_xyz=positions,
                orientations_quat_xyzw=quats,
                covariance_6x6=cov,
                rotation_matrices=matrices,
            )
        # A similarity of a valid trajectory is valid (finite, same stamps, unit
        # quaternions): the new arrays skip the constructor's checks and copies.
        return PoseTrajectory._unchecked(  # noqa: SLF001
            trajectory.stamps_s,
            positions,
            quats,
            trajectory.frame_id,
            trajectory.child_frame_id,
            cov,
            trajectory.stamps_ns,  # a bag's exact stamps, written back as read
            stamps_are_frames=trajectory.stamps_are_frames,
            rotation_matrices=matrices,
            orientations_from_matrices=trajectory.orientations_from_matrices,
            stamps_repeat=trajectory.stamps_repeat,
        )
