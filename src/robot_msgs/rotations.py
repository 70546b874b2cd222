"""Vectorised rotation and rigid-motion maths over rows of samples: the one home of each.

Every function takes and returns stacks: quaternions ``(N, 4)`` ordered ``x, y, z, w``,
rotation matrices ``(N, 3, 3)``, homogeneous transforms ``(N, 4, 4)``, positions
``(N, 3)`` metres, angles in radians. No Python loop runs per pose. Every conversion
between these forms, every rotation of vectors and every check that a matrix is a
rotation lives here, once; the readers, metrics and figures call these functions.

Euler angles are static-frame ``xyz`` (``sxyz``): ``R = R_z(γ) R_y(β) R_x(α)``, roll ``α``,
pitch ``β`` in ``[-π/2, π/2]``, yaw ``γ`` (evo's and ROS's roll/pitch/yaw). At gimbal lock
(``cos β = 0``: only ``α ∓ γ`` is defined) the yaw is 0 and the roll carries the whole
turn about the locked axis: Gohlke's ``transformations.py`` (which evo uses) and SciPy's
``Rotation.as_euler("xyz")`` decide the same way (see :func:`euler_sxyz_from_matrix`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.typing import Float64Array

#: Rows done at once by the kernels that run in blocks (:func:`row_blocks`). OpenBLAS
#: runs a product of ``m * n * k`` below 65536 x 4 on one thread, so
#: :func:`matrix_times_rows`' (8192, 4) x (4, 4) stays on one; a rotation kernel's dozen
#: temporaries of a block are 0.6 MB each, where the whole stack's were (2e6 KITTI poses)
#: 1.2 GB at once.
_ROWS = 8192

#: At most this ``cos β`` (``transformations.py``'s ``_EPS``), Euler angles are at gimbal lock.
_EULER_EPS = 4.0 * float(np.finfo(np.float64).eps)

__all__ = [
    "angle_from_matrix",
    "angle_from_quat_xyzw",
    "euler_sxyz_from_matrix",
    "euler_sxyz_from_quat_xyzw",
    "matrix_from_quat_xyzw",
    "matrix_from_rotation_vector",
    "matrix_times_rows",
    "nearest_rotation_matrix",
    "normalize_quat_xyzw",
    "quat_xyzw_conjugate",
    "quat_xyzw_from_matrix",
    "quat_xyzw_multiply",
    "quat_xyzw_rotate",
    "quat_xyzw_slerp",
    "rotation_from_covariance",
    "rotation_matrix_deviation",
    "rotation_vector_from_matrix",
    "rotation_vector_from_quat_xyzw",
    "row_blocks",
    "skew",
    "transform_problem",
]


def row_blocks(n: int) -> list[slice]:
    """Return the slices of at most ``_ROWS`` rows, in order, that cover ``n`` rows.

    The one loop of the row-wise kernels that run in blocks, so that their temporaries
    are a block's, not the whole stack's (:data:`_ROWS`).

    Examples
    --------
    >>> row_blocks(10_000)
    [slice(0, 8192, None), slice(8192, 16384, None)]
    >>> row_blocks(0)
    []
    """
    return [slice(start, start + _ROWS) for start in range(0, n, _ROWS)]


def _by_blocks(
    kernel: Callable[[Float64Array], Float64Array], matrices: Float64Array
) -> Float64Array:
    """Apply a row-wise ``kernel`` to a stack ``(N, ...)`` in :func:`row_blocks`.

    Each row's numbers are computed by the same operations in either case, so the result
    is bit for bit the kernel's over the whole stack.
    """
    if matrices.ndim != 3 or matrices.shape[0] <= _ROWS:  # a lone (3, 3), or one block
        return kernel(matrices)
    first, *rest = row_blocks(matrices.shape[0])
    done = kernel(matrices[first])  # its shape and dtype are the result's per row
    out = np.empty((matrices.shape[0], *done.shape[1:]), dtype=done.dtype)
    out[first] = done
    for rows in rest:
        out[rows] = kernel(matrices[rows])
    return out


def normalize_quat_xyzw(quats_xyzw: Float64Array) -> Float64Array:
    """Return unit quaternions with a non-negative ``w``.

    Parameters
    ----------
    quats_xyzw : ndarray, shape (N, 4), float64
        Quaternions ``x, y, z, w`` of any non-zero norm.

    Returns
    -------
    ndarray, shape (N, 4), float64
        The same rotations as unit quaternions, ``w >= 0`` (``q`` and ``-q`` are one rotation).

    Examples
    --------
    >>> normalize_quat_xyzw(np.array([[0.0, 0.0, 0.0, -2.0], [3.0, 0.0, 0.0, 4.0]]))
    array([[-0. , -0. , -0. ,  1. ],
           [ 0.6,  0. ,  0. ,  0.8]])
    """
    q = np.asarray(quats_xyzw, dtype=np.float64)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    out: Float64Array = np.where(q[..., 3:4] < 0, -q, q)
    return out


def quat_xyzw_conjugate(quats_xyzw: Float64Array) -> Float64Array:
    """Conjugates ``(-x, -y, -z, w)``: the inverse rotations of unit quaternions ``(N, 4)``.

    Examples
    --------
    >>> quat_xyzw_conjugate(np.array([[0.6, 0.0, 0.0, 0.8]]))
    array([[-0.6, -0. , -0. ,  0.8]])
    """
    q = np.asarray(quats_xyzw, dtype=np.float64)
    return np.concatenate([-q[..., :3], q[..., 3:]], axis=-1)


def quat_xyzw_multiply(a: Float64Array, b: Float64Array) -> Float64Array:
    """Hamilton products ``a ⊗ b`` (apply ``b`` first, then ``a``) of ``(N, 4)`` stacks.

    Examples
    --------
    Two quarter turns about ``z`` make a half turn:

    >>> h = np.sqrt(0.5)
    >>> quat_xyzw_multiply(np.array([[0, 0, h, h]]), np.array([[0, 0, h, h]])).round(12) + 0.0
    array([[0., 0., 1., 0.]])
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=-1,
    )


def matrix_from_quat_xyzw(quats_xyzw: Float64Array) -> Float64Array:
    """Rotation matrices ``(N, 3, 3)`` from unit quaternions ``(N, 4)`` ``x, y, z, w``.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> matrix_from_quat_xyzw(np.array([[0.0, 0.0, h, h]])).round(12) + 0.0  # 90° about z
    array([[[ 0., -1.,  0.],
            [ 1.,  0.,  0.],
            [ 0.,  0.,  1.]]])
    """
    q = np.asarray(quats_xyzw, dtype=np.float64)
    x, y, z, w = np.moveaxis(q, -1, 0)
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz = x * y, x * z, y * z
    wx, wy, wz = w * x, w * y, w * z
    rows = [
        [1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)],
        [2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)],
        [2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)],
    ]
    return np.stack([np.stack(r, axis=-1) for r in rows], axis=-2)


def quat_xyzw_from_matrix(matrices: Float64Array) -> Float64Array:
    """Return unit quaternions ``(N, 4)``, ``w >= 0``, from rotation matrices ``(N, 3, 3)``.

    Uses the numerically stable branch per row (Shepperd's method): the largest of
    ``w², x², y², z²`` is taken from the trace and diagonal, the rest from the
    off-diagonal sums, so no branch divides by a small number.

    Examples
    --------
    >>> half_turn_x = np.diag([1.0, -1.0, -1.0])[None]
    >>> quat_xyzw_from_matrix(half_turn_x)
    array([[1., 0., 0., 0.]])
    """
    return _by_blocks(_quat_xyzw_from_matrix, np.asarray(matrices, dtype=np.float64))


def _quat_xyzw_from_matrix(m: Float64Array) -> Float64Array:
    """:func:`quat_xyzw_from_matrix` of a float64 stack, all rows at once."""
    m00, m11, m22 = m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]
    trace = m00 + m11 + m22
    cand = np.stack([m00, m11, m22, trace], axis=-1)
    pick = np.argmax(cand, axis=-1)
    # Case w largest.
    s = np.sqrt(np.maximum(1.0 + trace, 1e-300)) * 2.0
    qw = np.stack(
        [
            (m[..., 2, 1] - m[..., 1, 2]) / s,
            (m[..., 0, 2] - m[..., 2, 0]) / s,
            (m[..., 1, 0] - m[..., 0, 1]) / s,
            0.25 * s,
        ],
        axis=-1,
    )
    # Case q_i largest, for i = x, y, z and (i, j, k) cyclic.
    diagonal = (m00, m11, m22)
    cases = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        low, high = sorted((j, k))  # 1 + m_ii - m_jj - m_kk, subtracted in index order
        si = np.sqrt(np.maximum(1.0 + diagonal[i] - diagonal[low] - diagonal[high], 1e-300)) * 2.0
        qi = [0.25 * si] * 4
        qi[j] = (m[..., i, j] + m[..., j, i]) / si
        qi[k] = (m[..., i, k] + m[..., k, i]) / si
        qi[3] = (m[..., k, j] - m[..., j, k]) / si
        cases.append(np.stack(qi, axis=-1))
    qx, qy, qz = cases
    out = np.select(
        [pick[..., None] == 3, pick[..., None] == 0, pick[..., None] == 1], [qw, qx, qy], qz
    )
    return normalize_quat_xyzw(out)


def angle_from_matrix(matrices: Float64Array) -> Float64Array:
    """Rotation angles in ``[0, π]`` rad of rotation matrices ``(N, 3, 3)``.

    Computed as ``atan2(|vee(R - Rᵀ)| / 2, (tr R - 1) / 2)``, accurate near 0 and near π
    where ``arccos((tr R - 1) / 2)`` loses digits. Equals the norm of the rotation vector
    (evo's ``angle_rad``).

    Examples
    --------
    >>> angle_from_matrix(np.stack([np.eye(3), np.diag([1.0, -1.0, -1.0])])) / np.pi
    array([0., 1.])
    """
    m = np.asarray(matrices, dtype=np.float64)
    sin_vec = np.stack(
        [m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0], m[..., 1, 0] - m[..., 0, 1]],
        axis=-1,
    )
    sin = 0.5 * np.linalg.norm(sin_vec, axis=-1)
    cos = 0.5 * (m[..., 0, 0] + m[..., 1, 1] + m[..., 2, 2] - 1.0)
    out: Float64Array = np.arctan2(sin, cos)
    return out


def angle_from_quat_xyzw(quats_xyzw: Float64Array) -> Float64Array:
    """Rotation angles in ``[0, π]`` rad of unit quaternions ``(N, 4)``: ``2 atan2(|v|, |w|)``.

    Examples
    --------
    >>> np.degrees(angle_from_quat_xyzw(np.array([[0.0, 0.0, 0.0, -1.0], [0.6, 0.0, 0.0, 0.8]])))
    array([ 0.        , 73.73979529])
    """
    q = np.asarray(quats_xyzw, dtype=np.float64)
    out: Float64Array = 2.0 * np.arctan2(np.linalg.norm(q[..., :3], axis=-1), np.abs(q[..., 3]))
    return out


def euler_sxyz_from_matrix(matrices: Float64Array) -> Float64Array:
    r"""Static-frame ``xyz`` Euler angles ``(α, β, γ)`` of rotation matrices, ``(N, 3)`` rad.

    ``R = R_z(γ) R_y(β) R_x(α)``: roll ``α`` about x, pitch ``β`` about y (in
    ``[-π/2, π/2]``), yaw ``γ`` about z, the angles of Gohlke's ``euler_from_matrix(R,
    "sxyz")`` (evo 1.38.1's projection, rpy plots and drift use it):

    .. math::

        \gamma = \operatorname{atan2}(R_{10}, R_{00}), \quad
        \beta = \operatorname{atan2}(-R_{20}, \sqrt{R_{00}^2 + R_{10}^2}), \quad
        \alpha = \operatorname{atan2}(\sin\gamma\, R_{02} - \cos\gamma\, R_{12},\;
            \cos\gamma\, R_{11} - \sin\gamma\, R_{01}).

    Gimbal lock, where :math:`\sqrt{R_{00}^2 + R_{10}^2} \le 4\varepsilon`
    (``transformations.py``'s threshold): only ``α - γ`` (``β = π/2``) or ``α + γ``
    (``β = -π/2``) is defined; then ``γ = 0`` and the roll carries the whole turn,
    :math:`\alpha = \operatorname{atan2}(-R_{12}, R_{11})`: the choice of
    ``transformations.py`` and of SciPy's ``as_euler("xyz")``.

    WHY the roll from ``γ`` (Day, "Extracting Euler angles from a rotation matrix",
    Insomniac Games, 2014) rather than ``atan2(R_{21}, R_{22})`` as ``transformations.py``
    writes it: away from the lock the two agree to rounding, but near it (``cos β`` of
    1e-12) ``R_{21}``, ``R_{22}``, ``R_{10}`` and ``R_{00}`` are tiny, and roll and yaw
    taken from them separately rebuild a matrix off by ``ε / cos β`` (1e-4); taken so, the
    roll makes up for whatever the yaw's rounding is, and the angles rebuild ``R`` to
    rounding at every pitch.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> m = matrix_from_quat_xyzw(np.array([[0.0, 0.0, h, h], [0.0, h, 0.0, h]]))
    >>> np.degrees(euler_sxyz_from_matrix(m)).round(9) + 0.0  # 90° yaw; 90° pitch (lock)
    array([[ 0.,  0., 90.],
           [ 0., 90.,  0.]])
    """
    m = np.asarray(matrices, dtype=np.float64)
    cy = np.hypot(m[..., 0, 0], m[..., 1, 0])
    out = np.empty((*m.shape[:-2], 3))
    yaw = np.where(cy <= _EULER_EPS, 0.0, np.arctan2(m[..., 1, 0], m[..., 0, 0]))
    sin, cos = np.sin(yaw), np.cos(yaw)
    out[..., 0] = np.arctan2(
        sin * m[..., 0, 2] - cos * m[..., 1, 2], cos * m[..., 1, 1] - sin * m[..., 0, 1]
    )
    out[..., 1] = np.arctan2(-m[..., 2, 0], cy)
    out[..., 2] = yaw
    return out


def euler_sxyz_from_quat_xyzw(quats_xyzw: Float64Array) -> Float64Array:
    """Static-frame ``xyz`` Euler angles ``(α, β, γ)`` of unit quaternions, ``(N, 3)`` rad.

    :func:`euler_sxyz_from_matrix` of their rotation matrices (same gimbal-lock rule).

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> np.degrees(euler_sxyz_from_quat_xyzw(np.array([[0.0, 0.0, h, h]]))).round(9) + 0.0
    array([[ 0.,  0., 90.]])
    """
    return euler_sxyz_from_matrix(matrix_from_quat_xyzw(quats_xyzw))


def rotation_vector_from_matrix(matrices: Float64Array) -> Float64Array:
    r"""Rotation vectors ``(N, 3)`` rad (the SO(3) logarithm) of rotation matrices ``(N, 3, 3)``.

    :func:`rotation_vector_from_quat_xyzw` of :func:`quat_xyzw_from_matrix`: the axis times
    the angle in ``[0, π]``, with full relative precision near 0, defined up to the sign
    of the axis at π.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> rotation_vector_from_matrix(matrix_from_quat_xyzw(np.array([[0.0, 0.0, h, h]]))) / np.pi
    array([[0. , 0. , 0.5]])
    """
    return rotation_vector_from_quat_xyzw(quat_xyzw_from_matrix(matrices))


def matrix_from_rotation_vector(rotvecs: Float64Array) -> Float64Array:
    r"""Rotation matrices ``(N, 3, 3)`` of rotation vectors ``(N, 3)`` rad (the SO(3) exponential).

    Rodrigues' formula, :math:`\exp [\phi]_\times = I + \frac{\sin\theta}{\theta}
    [\phi]_\times + \frac{1 - \cos\theta}{\theta^2} [\phi]_\times^2` with
    :math:`\theta = |\phi|`, with the limits 1 and 1/2 of the factors below ``θ = 1e-8``.

    Examples
    --------
    >>> matrix_from_rotation_vector(np.array([[0.0, 0.0, np.pi / 2]])).round(12) + 0.0
    array([[[ 0., -1.,  0.],
            [ 1.,  0.,  0.],
            [ 0.,  0.,  1.]]])
    """
    phi = np.asarray(rotvecs, dtype=np.float64)
    theta = np.linalg.norm(phi, axis=-1)[..., None, None]
    small = theta < 1e-8
    safe = np.where(small, 1.0, theta)
    a = np.where(small, 1.0, np.sin(safe) / safe)
    b = np.where(small, 0.5, (1.0 - np.cos(safe)) / (safe * safe))
    k = skew(phi)
    out: Float64Array = np.eye(3) + a * k + b * (k @ k)
    return out


def skew(vectors: Float64Array) -> Float64Array:
    """Cross-product matrices ``[v]_×`` ``(N, 3, 3)`` of vectors ``(N, 3)``: ``[v]_× u = v × u``.

    Examples
    --------
    >>> skew(np.array([1.0, 2.0, 3.0]))
    array([[ 0., -3.,  2.],
           [ 3.,  0., -1.],
           [-2.,  1.,  0.]])
    """
    v = np.asarray(vectors, dtype=np.float64)
    out = np.zeros((*v.shape[:-1], 3, 3))
    out[..., 0, 1], out[..., 0, 2] = -v[..., 2], v[..., 1]
    out[..., 1, 0], out[..., 1, 2] = v[..., 2], -v[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -v[..., 1], v[..., 0]
    return out


def quat_xyzw_rotate(
    quats_xyzw: Float64Array, vectors: Float64Array, *, inverse: bool = False
) -> Float64Array:
    """Rotate ``vectors`` ``(N, 3)`` by unit quaternions ``(N, 4)``: ``R(q) v``, or ``R(q)ᵀ v``.

    ``v' = v + w t + u × t`` with ``t = 2 u × v`` (``u``, ``w``: vector and scalar parts
    of ``q``; ``u → -u`` for the inverse), written out per component: no ``(N, 3, 3)``
    matrix is built.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> quarter_z = np.array([[0.0, 0.0, h, h]])
    >>> quat_xyzw_rotate(quarter_z, np.array([[1.0, 0.0, 0.0]])).round(12) + 0.0
    array([[0., 1., 0.]])
    >>> quat_xyzw_rotate(quarter_z, np.array([[1.0, 0.0, 0.0]]), inverse=True).round(12) + 0.0
    array([[ 0., -1.,  0.]])
    """
    q = np.asarray(quats_xyzw, dtype=np.float64)
    v = np.asarray(vectors, dtype=np.float64)
    x, y, z, w = (q[..., k] for k in range(4))
    if not inverse:  # the inverse of the conjugate: negation is exact
        x, y, z = -x, -y, -z
    vx, vy, vz = (v[..., k] for k in range(3))
    tx = 2.0 * (z * vy - y * vz)
    ty = 2.0 * (x * vz - z * vx)
    tz = 2.0 * (y * vx - x * vy)
    out = np.empty((*np.broadcast_shapes(q.shape[:-1], v.shape[:-1]), 3))
    out[..., 0] = vx + w * tx - (y * tz - z * ty)
    out[..., 1] = vy + w * ty - (z * tx - x * tz)
    out[..., 2] = vz + w * tz - (x * ty - y * tx)
    return out


def rotation_vector_from_quat_xyzw(quats_xyzw: Float64Array) -> Float64Array:
    """Rotation vectors ``θ n`` of unit quaternions ``(N, 4)`` ``x, y, z, w``: ``(N, 3)`` rad.

    ``θ = 2 atan2(|v|, |w|)`` in ``[0, π]`` with the sign of ``w`` folded into ``v``; for
    small ``|v|`` the factor ``θ / |v|`` tends to ``2 / |w|`` and is taken so, without
    division by zero.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> q = np.array([[0.0, 0.0, h, h], [0.0, 0.0, 0.0, -1.0]])
    >>> rotation_vector_from_quat_xyzw(q) / np.pi + 0.0
    array([[0. , 0. , 0.5],
           [0. , 0. , 0. ]])
    """
    q = np.asarray(quats_xyzw, dtype=np.float64)
    sign = np.where(q[:, 3] < 0, -1.0, 1.0)[:, None]
    v = q[:, :3] * sign
    w = np.abs(q[:, 3])
    s = np.sqrt(np.einsum("ij,ij->i", v, v))
    small = s < 1e-12
    safe = np.where(small, 1.0, s)
    factor = np.where(small, 2.0 / np.maximum(w, 1e-300), 2.0 * np.arctan2(s, w) / safe)
    out: Float64Array = v * factor[:, None]
    return out


def rotation_matrix_deviation(matrices: Float64Array, *, proper: bool = True) -> Float64Array:
    """``max |M Mᵀ - I|`` per matrix ``(N, 3, 3)``; ``inf`` where ``det M <= 0`` (no rotation).

    0 for a rotation matrix; about the size of the error for a rotation written with
    rounded digits. ``proper=False``: the orthonormality alone, the figure to print (a
    reflection, ``det M = -1``, is orthonormal).

    Examples
    --------
    >>> rotation_matrix_deviation(np.stack([np.eye(3), np.diag([1.0, 1.0, -1.0])]))
    array([ 0., inf])
    >>> rotation_matrix_deviation(np.diag([1.0, 1.0, -1.0])[None], proper=False)
    array([0.])
    """
    m = np.asarray(matrices, dtype=np.float64)
    return _by_blocks(lambda block: _deviation(block, proper=proper), m)


def _deviation(m: Float64Array, *, proper: bool) -> Float64Array:
    """:func:`rotation_matrix_deviation` of a float64 stack, all rows at once."""
    # Entries past 1e154 square past float64: inf or NaN, which no tolerance passes.
    with np.errstate(over="ignore", invalid="ignore"):
        gram = m @ np.swapaxes(m, -1, -2)
        deviation: Float64Array = np.abs(gram - np.eye(3)).max(axis=(-2, -1))
        if not proper:
            return deviation
        # det M = r0 . (r1 x r2): a few vector operations, where np.linalg.det runs an LU
        # factorisation per matrix (5x slower at 10^5 matrices).
        det = np.einsum("...i,...i->...", m[..., 0, :], np.cross(m[..., 1, :], m[..., 2, :]))
    return np.where(det > 0, deviation, np.inf)


def nearest_rotation_matrix(
    matrices: Float64Array, *, out: Float64Array | None = None
) -> Float64Array:
    r"""Find the rotation matrices closest (Frobenius norm) to nearly orthonormal ``(N, 3, 3)``.

    That is the orthogonal polar factor :math:`U V^\top` of :math:`M = U \Sigma V^\top`
    (Higham, "Computing the polar decomposition", SIAM J. Sci. Stat. Comput. 7(4),
    1986), the matrix that Bar-Itzhack's optimal quaternion (J. Guid. Control Dyn.
    23(6), 2000) represents. It is reached by the Newton-Schulz iteration (Higham,
    *Functions of Matrices*, 2008, eq. 8.20), matrix products only, which converges
    quadratically while :math:`\|I - M^\top M\| < 1`:

    .. math:: X_0 = M, \qquad X_{k+1} = \tfrac12 X_k (3 I - X_k^\top X_k)

    Inputs within ``1e-2`` of orthonormal reach float64 precision in at most 5 steps;
    this is 10x faster than a batched SVD. Every matrix takes the same number of steps
    (until all have converged), in blocks of rows, so the memory beyond the result is one
    array of its size (2e6 KITTI poses: 0.14 GB, where whole-stack steps held 0.6 GB).

    Parameters
    ----------
    matrices : ndarray, shape (N, 3, 3) or (3, 3), float64
        Nearly orthonormal matrices.
    out : ndarray, shape (N, 3, 3), float64, optional
        Where the result goes; may be ``matrices`` itself (no copy is made), C-contiguous.

    Raises
    ------
    ValidationError
        ``out`` is not a C-contiguous float64 array of the shape of ``matrices``.

    Examples
    --------
    >>> nearest_rotation_matrix(np.array([[[1.0001, 0, 0], [0, 1, 0], [0, 0, 0.9999]]])).round(9)
    array([[[1., 0., 0.],
            [0., 1., 0.],
            [0., 0., 1.]]])
    """
    if out is None:
        out = np.array(matrices, dtype=np.float64)
    elif not out.flags.c_contiguous or out.dtype != np.float64:
        layout = "C-contiguous" if out.flags.c_contiguous else "not C-contiguous"
        msg = f"Expected out C-contiguous float64, got {out.dtype} {layout}"
        raise ValidationError(msg, field="out")
    elif out is not matrices:
        if out.shape != np.shape(matrices):  # copyto would broadcast a (3, 3) into every row
            msg = f"Expected out of the matrices' shape {np.shape(matrices)}, got {out.shape}"
            raise ValidationError(msg, field="out")
        np.copyto(out, matrices)
    x = out.reshape(-1, 3, 3)  # a view: the steps write into ``out``
    xtx = np.empty_like(x)
    eye3 = np.eye(3)
    blocks = row_blocks(x.shape[0])
    for _ in range(8):
        converged = True  # as max(initial=0.0) < 2e-15 over all: a NaN converges never
        for rows in blocks:
            np.matmul(np.swapaxes(x[rows], -1, -2), x[rows], out=xtx[rows])
            converged &= bool(np.abs(xtx[rows] - eye3).max(initial=0.0) < 2e-15)
        if converged:
            break
        for rows in blocks:
            x[rows] = 0.5 * x[rows] @ (3.0 * eye3 - xtx[rows])
    return out


def rotation_from_covariance(
    covariance: Float64Array,
) -> tuple[Float64Array, Float64Array, Float64Array]:
    r"""Find the rotation ``R`` maximising :math:`\operatorname{tr}(R^\top C)`, ``C (..., 3, 3)``.

    The least-squares rotation of Kabsch and Umeyama (IEEE TPAMI 13(4), 1991, eq. 39-43):
    with :math:`C = U D V^\top`, :math:`R = U S V^\top` where ``S`` is the identity, or
    ``diag(1, 1, -1)`` when :math:`\det U \det V < 0` (the fit would be a reflection).
    For points with ``y_k ≈ R x_k``, ``C`` is :math:`\sum_k y_k x_k^\top` (any positive
    multiple). The alignment, the clock-offset search and the hand-eye solver share it;
    a stack of ``C`` (the clock-offset windows') gives a stack of each.

    Returns
    -------
    rotation : ndarray, shape (..., 3, 3)
        ``R``, proper (determinant +1).
    singular_values : ndarray, shape (..., 3)
        ``D``'s diagonal, descending.
    signs : ndarray, shape (..., 3)
        ``S``'s diagonal: ``tr(D S)`` is the largest :math:`\operatorname{tr}(R^\top C)`.

    Examples
    --------
    >>> turn = matrix_from_rotation_vector(np.array([0.0, 0.0, 0.5]))
    >>> bool(np.allclose(rotation_from_covariance(turn @ np.diag([3.0, 2.0, 1.0]))[0], turn))
    True
    """
    u, d, vt = np.linalg.svd(covariance)
    signs = np.ones(d.shape)
    signs[..., 2] = np.where(np.linalg.det(u) * np.linalg.det(vt) < 0.0, -1.0, 1.0)
    rotation: Float64Array = (u * signs[..., None, :]) @ vt
    return rotation, d, signs


def quat_xyzw_slerp(q0: Float64Array, q1: Float64Array, fraction: Float64Array) -> Float64Array:
    """Spherical linear interpolation between unit quaternions, row by row.

    Parameters
    ----------
    q0, q1 : ndarray, shape (N, 4), float64
        Start and end rotations ``x, y, z, w``.
    fraction : ndarray, shape (N,), float64
        Where to interpolate, 0 at ``q0`` and 1 at ``q1``.

    Returns
    -------
    ndarray, shape (N, 4), float64
        Unit quaternions along the shorter arc.

    Examples
    --------
    Halfway from no rotation to a half turn about ``z`` is a quarter turn:

    >>> quat_xyzw_slerp(np.array([[0.0, 0, 0, 1]]), np.array([[0.0, 0, 1, 0]]), np.array([0.5]))
    array([[0.        , 0.        , 0.70710678, 0.70710678]])
    """
    q0 = np.asarray(q0, dtype=np.float64)
    q1 = np.asarray(q1, dtype=np.float64)
    s = np.asarray(fraction, dtype=np.float64)[..., None]
    dot = np.sum(q0 * q1, axis=-1, keepdims=True)
    q1 = np.where(dot < 0, -q1, q1)
    dot = np.abs(dot)
    theta = np.arccos(np.clip(dot, -1.0, 1.0))
    sin = np.sin(theta)
    small = sin < 1e-9
    safe = np.where(small, 1.0, sin)
    w0 = np.where(small, 1.0 - s, np.sin((1.0 - s) * theta) / safe)
    w1 = np.where(small, s, np.sin(s * theta) / safe)
    return normalize_quat_xyzw(w0 * q0 + w1 * q1)


def matrix_times_rows(matrix: Float64Array, rows: Float64Array) -> Float64Array:
    """Return ``matrix @ row`` for every row: ``rows @ matrix.T`` as a new array.

    Parameters
    ----------
    matrix : ndarray, shape (M, K), float64
        A small matrix: a rotation ``(3, 3)``, a quaternion product ``(4, 4)``.
    rows : ndarray, shape (N, K), float64
        The vectors, one a row.

    Returns
    -------
    ndarray, shape (N, M), float64

    Notes
    -----
    WHY in blocks of 8192 rows through BLAS: ``np.einsum("ij,nj->ni", ...)`` is a
    generic loop, 19-26 ms for 10^6 rows of 3 or 4 values here; one ``rows @ matrix.T``
    is BLAS (3-4 ms) but threaded by OpenBLAS, which on a loaded 2-core machine is
    slower and erratic; in blocks small enough for one thread, 5.5-6 ms at one core's
    CPU (and 8-15 ms against einsum's 32-57 ms in fresh processes, first touch included).
    The sums are those of one product; they differ from einsum's by rounding only.

    Examples
    --------
    >>> turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # 90° about z
    >>> matrix_times_rows(turn, np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 3.0]])).tolist()
    [[0.0, 1.0, 0.0], [-2.0, 0.0, 3.0]]
    """
    if rows.ndim != 2 or matrix.ndim != 2 or rows.shape[1] != matrix.shape[1]:
        msg = f"expected rows (N, {matrix.shape[-1]}) for a matrix {matrix.shape}, got {rows.shape}"
        raise ValueError(msg)
    n = rows.shape[0]
    out = np.empty((n, matrix.shape[0]), dtype=np.result_type(matrix, rows, np.float64))
    turned = matrix.T
    # As einsum: an overflow or an infinity gives inf or NaN, which the caller checks.
    with np.errstate(over="ignore", invalid="ignore"):
        for block in row_blocks(n):
            np.matmul(rows[block], turned, out=out[block])
    return out


#: Largest deviation of a transform's rotation block from orthonormal (``RᵀR = s² I``).
_TRANSFORM_TOL = 1e-6


def transform_problem(matrix: tuple[float, ...], *, rigid: bool) -> str:
    """Say what is wrong with ``matrix`` as a 4x4 Sim(3) (or SE(3)) transform, or ``""``.

    The one check of a transform given by a user: the settings' ``transform_left`` /
    ``transform_right``, a transform file's matrix, an alignment's result. In Python
    floats: NumPy's ``block.T @ block`` warned of an overflow past 1e154 before refusing.
    """
    kind = "an SE(3)" if rigid else "a Sim(3) or SE(3)"
    expected = f"{kind} transform as 16 numbers, row-major 4x4"
    if len(matrix) != 16 or not all(math.isfinite(v) for v in matrix):
        return expected
    rows = [matrix[4 * i : 4 * i + 4] for i in range(4)]
    if [float(v) for v in rows[3]] != [0.0, 0.0, 0.0, 1.0]:
        return f"{expected} whose last row is 0 0 0 1"
    block = [row[:3] for row in rows[:3]]
    gram = [[sum(block[k][i] * block[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    scale2 = (gram[0][0] + gram[1][1] + gram[2][2]) / 3.0
    a, b, c = block
    det = (
        a[0] * (b[1] * c[2] - b[2] * c[1])
        - a[1] * (b[0] * c[2] - b[2] * c[0])
        + a[2] * (b[0] * c[1] - b[1] * c[0])
    )
    off = max(abs(gram[i][j] - (scale2 if i == j else 0.0)) for i in range(3) for j in range(3))
    if not (scale2 > 0 and det > 0 and off <= _TRANSFORM_TOL * scale2):
        said = f"{expected} whose 3x3 block is s R (R a rotation, s > 0)"
        if scale2 > 0 and det > 0 and off <= 1e-2 * scale2:  # nearly one: by how much
            # EuRoC's vicon0 T_BS, printed to 5 decimals, looks a rotation and is 7.4e-6 off.
            said += f": R^T R is {off / scale2:.2g} s^2 from s^2 I, at most {_TRANSFORM_TOL:g} s^2"
        return said
    if rigid and abs(math.sqrt(scale2) - 1.0) > _TRANSFORM_TOL:
        return f"{expected} without scale (a body-frame change is rigid)"
    return ""
