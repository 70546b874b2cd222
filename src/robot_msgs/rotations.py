"""Vectorised rotation and rigid-motion maths over rows of samples.

Every function takes and returns stacks: quaternions ``(N, 4)`` ordered ``x, y, z, w``,
rotation matrices ``(N, 3, 3)``, homogeneous transforms ``(N, 4, 4)``, positions
``(N, 3)`` metres, angles in radians. No Python loop runs per pose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array

__all__ = [
    "angle_from_matrix",
    "angle_from_quat_xyzw",
    "matrix_from_quat_xyzw",
    "matrix_from_rotvec",
    "normalize_quat_xyzw",
    "quat_xyzw_conjugate",
    "quat_xyzw_from_matrix",
    "quat_xyzw_multiply",
    "quat_xyzw_slerp",
    "rotvec_from_matrix",
    "skew",
    "transform_from_pose",
    "transform_inverse",
    "yaw_from_matrix",
]


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
    m = np.asarray(matrices, dtype=np.float64)
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
    sx = np.sqrt(np.maximum(1.0 + m00 - m11 - m22, 1e-300)) * 2.0
    qx = np.stack(
        [
            0.25 * sx,
            (m[..., 0, 1] + m[..., 1, 0]) / sx,
            (m[..., 0, 2] + m[..., 2, 0]) / sx,
            (m[..., 2, 1] - m[..., 1, 2]) / sx,
        ],
        axis=-1,
    )
    sy = np.sqrt(np.maximum(1.0 + m11 - m00 - m22, 1e-300)) * 2.0
    qy = np.stack(
        [
            (m[..., 0, 1] + m[..., 1, 0]) / sy,
            0.25 * sy,
            (m[..., 1, 2] + m[..., 2, 1]) / sy,
            (m[..., 0, 2] - m[..., 2, 0]) / sy,
        ],
        axis=-1,
    )
    sz = np.sqrt(np.maximum(1.0 + m22 - m00 - m11, 1e-300)) * 2.0
    qz = np.stack(
        [
            (m[..., 0, 2] + m[..., 2, 0]) / sz,
            (m[..., 1, 2] + m[..., 2, 1]) / sz,
            0.25 * sz,
            (m[..., 1, 0] - m[..., 0, 1]) / sz,
        ],
        axis=-1,
    )
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


def rotvec_from_matrix(matrices: Float64Array) -> Float64Array:
    r"""Rotation vectors ``(N, 3)`` rad (the SO(3) logarithm) of rotation matrices ``(N, 3, 3)``.

    The axis times the angle in ``[0, π]``: from the quaternion ``(v, w)``, ``w >= 0``, of
    :func:`quat_xyzw_from_matrix`, :math:`\log R = 2 \operatorname{atan2}(|v|, w)\, v / |v|`,
    which keeps full relative precision near 0 (``v / |v|`` is not formed there: the factor
    tends to ``2 / w``) and is defined up to the sign of the axis at π.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> rotvec_from_matrix(matrix_from_quat_xyzw(np.array([[0.0, 0.0, h, h]]))) / np.pi
    array([[0. , 0. , 0.5]])
    """
    q = quat_xyzw_from_matrix(matrices)
    v, w = q[..., :3], q[..., 3]
    norm = np.linalg.norm(v, axis=-1)
    tiny = norm < 1e-12
    angle = 2.0 * np.arctan2(norm, w)
    factor = np.where(tiny, 2.0 / np.maximum(w, 1e-300), angle / np.where(tiny, 1.0, norm))
    out: Float64Array = v * factor[..., None]
    return out


def matrix_from_rotvec(rotvecs: Float64Array) -> Float64Array:
    r"""Rotation matrices ``(N, 3, 3)`` of rotation vectors ``(N, 3)`` rad (the SO(3) exponential).

    Rodrigues' formula, :math:`\exp [\phi]_\times = I + \frac{\sin\theta}{\theta}
    [\phi]_\times + \frac{1 - \cos\theta}{\theta^2} [\phi]_\times^2` with
    :math:`\theta = |\phi|`, with the limits 1 and 1/2 of the factors below ``θ = 1e-8``.

    Examples
    --------
    >>> matrix_from_rotvec(np.array([[0.0, 0.0, np.pi / 2]])).round(12) + 0.0
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


def yaw_from_matrix(matrices: Float64Array) -> Float64Array:
    """Heading about ``z`` in ``(-π, π]`` rad of rotation matrices ``(N, 3, 3)`` (ZYX yaw).

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> np.degrees(yaw_from_matrix(matrix_from_quat_xyzw(np.array([[0.0, 0.0, h, -h]]))))
    array([-90.])
    """
    m = np.asarray(matrices, dtype=np.float64)
    out: Float64Array = np.arctan2(m[..., 1, 0], m[..., 0, 0])
    return out


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


def transform_from_pose(positions_xyz: Float64Array, quats_xyzw: Float64Array) -> Float64Array:
    """Build transforms ``(N, 4, 4)`` from positions ``(N, 3)`` m and quaternions ``(N, 4)`` xyzw.

    Examples
    --------
    >>> transform_from_pose(np.array([[1.0, 2.0, 3.0]]), np.array([[0.0, 0, 0, 1]]))[0]
    array([[1., 0., 0., 1.],
           [0., 1., 0., 2.],
           [0., 0., 1., 3.],
           [0., 0., 0., 1.]])
    """
    p = np.asarray(positions_xyz, dtype=np.float64)
    out = np.zeros((*p.shape[:-1], 4, 4))
    out[..., :3, :3] = matrix_from_quat_xyzw(quats_xyzw)
    out[..., :3, 3] = p
    out[..., 3, 3] = 1.0
    return out


def transform_inverse(transforms: Float64Array) -> Float64Array:
    """Inverses of rigid transforms ``(N, 4, 4)``: ``[Rᵀ, -Rᵀ t; 0, 1]``.

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> pose = transform_from_pose(np.array([[1.0, 2.0, 3.0]]), np.array([[0.0, 0, h, h]]))
    >>> bool(np.allclose(transform_inverse(pose) @ pose, np.eye(4)))
    True
    """
    t = np.asarray(transforms, dtype=np.float64)
    out = np.zeros_like(t)
    rt = np.swapaxes(t[..., :3, :3], -1, -2)
    out[..., :3, :3] = rt
    out[..., :3, 3] = -np.einsum("...ij,...j->...i", rt, t[..., :3, 3])
    out[..., 3, 3] = 1.0
    return out
