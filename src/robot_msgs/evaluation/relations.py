r"""Per-pose error kernels: which number an error pose turns into (evo's "pose relations").

Both absolute and relative errors reduce to an error transform ``E`` per pose or pair:
APE uses ``E_i = P_i⁻¹ Q_i`` (estimate ``P``, reference ``Q``, evo's ``ape_base``) and RPE
``E_ij = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)`` (Sturm et al. 2012, eq. 3). A *relation* says which
scalar of ``E`` is reported. The kernels work on quaternions and positions directly,
never on ``(N, 4, 4)`` matrices, which is what makes them fast and accurate:

.. math::

    \|R - I_3\|_F = 2\sqrt{2}\,|\sin(\theta / 2)| = 2\sqrt{2}\,\|v\|, \qquad
    \|E - I_4\|_F = \sqrt{\|R - I_3\|_F^2 + \|t\|^2},

where ``θ`` is the rotation angle of ``R = R(E)`` and ``v`` the vector part of its unit
quaternion; ``‖t(E)‖`` equals the distance between the compared positions because a
rotation keeps lengths. Both closed forms avoid the cancellation of ``R - I`` for small
angles.

A trajectory that keeps its rotation blocks as a file printed them
(``rotation_matrices``: KITTI's rows, off SO(3) by ~1e-7) is computed as evo computes
it: the relations whose formula multiplies rotations (RPE's ``translation``, ``x``,
``y``, ``z``, and ``rot_part``/``full`` of both) take ``E`` from those matrices,
transposes as inverses; angles stay those of the nearest rotations (evo's SciPy
``Rotation.from_matrix`` gives them to ~1e-12), positions are positions.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.components import track_axes
from robot_msgs.evaluation.consistency import NEES_DOF, nees_values
from robot_msgs.rotations import (
    angle_from_quat_xyzw,
    euler_sxyz_from_quat_xyzw,
    matrix_from_quat_xyzw,
    matrix_times_rows,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    quat_xyzw_rotate,
    rotation_vector_from_quat_xyzw,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.compare.alignment import Alignment
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = [
    "APE_RELATIONS",
    "RELATION_ALIASES",
    "RELATION_UNITS",
    "RPE_RELATIONS",
    "TRAJECTOPY_RELATIONS",
    "ape_errors",
    "check_relation",
    "keeps_matrices",
    "rotation_blocks",
    "rpe_errors",
]

#: Relations :func:`ape_errors` knows, evo's names where evo has one (``trans_part`` is
#: ``translation`` here; the alias is accepted).
APE_RELATIONS: tuple[str, ...] = (
    "translation",
    "angle_rad",
    "angle_deg",
    "full",
    "rot_part",
    "point_distance",
    "x",
    "y",
    "z",
    "along_track",
    "cross_track",
    "vertical",
    "roll_rad",
    "pitch_rad",
    "yaw_rad",
    "roll_deg",
    "pitch_deg",
    "yaw_deg",
)

#: Relations :func:`rpe_errors` knows: the APE ones plus evo's point-distance error ratio.
RPE_RELATIONS: tuple[str, ...] = (*APE_RELATIONS, "point_distance_error_ratio")

#: APE only: trajectopy's components (5.1.2, ``ate()`` with orientations), under their own
#: names: ``p_est - p_ref`` in the reference body's axes, and the extrinsic (world-axes)
#: ``xyz`` Euler angles of ``R_ref R_estᵀ`` (:mod:`~robot_msgs.evaluation.components`).
TRAJECTOPY_RELATIONS: tuple[str, ...] = (
    "along_track_body",
    "cross_track_body",
    "vertical_body",
    "roll_world_rad",
    "pitch_world_rad",
    "yaw_world_rad",
    "roll_world_deg",
    "pitch_world_deg",
    "yaw_world_deg",
)

#: APE only: the consistency of a filter's covariances (:mod:`~robot_msgs.evaluation.consistency`).
APE_RELATIONS = (*APE_RELATIONS, *TRAJECTOPY_RELATIONS, *NEES_DOF)

#: Other spellings accepted for a relation (evo's CLI names).
RELATION_ALIASES: dict[str, str] = {"trans_part": "translation"}

#: The unit of each relation's errors; ``""`` for evo's dimensionless ``full``/``rot_part``.
RELATION_UNITS: dict[str, str] = {
    "translation": "m",
    "angle_rad": "rad",
    "angle_deg": "deg",
    "full": "",
    "rot_part": "",
    "point_distance": "m",
    "x": "m",
    "y": "m",
    "z": "m",
    "along_track": "m",
    "cross_track": "m",
    "vertical": "m",
    "roll_rad": "rad",
    "pitch_rad": "rad",
    "yaw_rad": "rad",
    "roll_deg": "deg",
    "pitch_deg": "deg",
    "yaw_deg": "deg",
    "along_track_body": "m",
    "cross_track_body": "m",
    "vertical_body": "m",
    "roll_world_rad": "rad",
    "pitch_world_rad": "rad",
    "yaw_world_rad": "rad",
    "roll_world_deg": "deg",
    "pitch_world_deg": "deg",
    "yaw_world_deg": "deg",
    "point_distance_error_ratio": "%",
    "nees": "",
    "nees_position": "",
    "nees_orientation": "",
    "nees_planar": "",
}

_AXES = {"x": 0, "y": 1, "z": 2}
_TRACK = ("along_track", "cross_track", "vertical")
_ATTITUDE = {"roll": 0, "pitch": 1, "yaw": 2}
_BODY = {"along_track_body": 0, "cross_track_body": 1, "vertical_body": 2}


def _attitude(relation: str, joint: str = "_") -> tuple[int, bool] | None:
    """``(axis, degrees)`` of a ``roll/pitch/yaw{joint}rad|deg`` relation, else ``None``."""
    name, _, unit = relation.partition(joint)
    if name not in _ATTITUDE or unit not in ("rad", "deg"):
        return None
    return _ATTITUDE[name], unit == "deg"


def _track_values(
    errors_world: Float64Array, relation: str, axes: tuple[Float64Array, ...]
) -> Float64Array:
    """Return the ``relation`` component of world-frame errors ``(N, 3)`` in the track frame."""
    if relation == "vertical":
        out: Float64Array = errors_world[:, 2].copy()
        return out
    axis = axes[0] if relation == "along_track" else axes[1]
    along: Float64Array = np.einsum("ij,ij->i", errors_world, axis)
    return along


def _attitude_values(error_quats_xyzw: Float64Array, attitude: tuple[int, bool]) -> Float64Array:
    """Return the roll, pitch or yaw component (rad or deg) of body-frame rotation errors.

    ``attitude`` is the relation's ``(axis, degrees)`` from :func:`_attitude`.
    """
    axis, degrees = attitude
    values: Float64Array = rotation_vector_from_quat_xyzw(error_quats_xyzw)[:, axis]
    return np.degrees(values) if degrees else values


_CHUNK = 1 << 14  # rows per kernel call


class _Compiled(Protocol):
    """``robot_msgs.evaluation._relations`` (``_relations.c``), typed here once."""

    def rpe_translation(
        self,
        p_ref: object,
        q_ref: object,
        p_est: object,
        q_est: object,
        pairs: object,
        out: object,
        /,
    ) -> None:
        """Fill ``out`` with RPE's translation errors of ``pairs``, as the NumPy kernel does."""


_compiled: _Compiled | None
try:  # optional, as robot_msgs.io._fasttable: without a C compiler NumPy computes
    import robot_msgs.evaluation._relations as _module  # type: ignore[import-not-found]

    _compiled = _module
except ImportError:  # pragma: no cover - built without a C compiler
    _compiled = None
_ROT_PART_PER_SIN = 2.0 * math.sqrt(2.0)


def check_relation(relation: str, *, allowed: tuple[str, ...] = RPE_RELATIONS) -> str:
    """Return the canonical name of ``relation``, or raise naming the choices.

    Examples
    --------
    >>> check_relation("trans_part")
    'translation'
    """
    given: object = relation  # from callers without a type checker, anything
    if not isinstance(given, str):  # a list raised TypeError (unhashable)
        got = f"{type(given).__name__} {given!r:.60}"
        msg = f"Expected a relation in {', '.join(allowed)}, got {got}"
        raise ValidationError(msg)
    name = RELATION_ALIASES.get(relation, relation)
    if name not in allowed:
        msg = f"Expected a relation in {', '.join(allowed)}, got {relation!r}"
        raise ValidationError(msg)
    return name


def _check_same_length(reference: PoseTrajectory, estimate: PoseTrajectory) -> None:
    from robot_msgs.trajectory import PoseTrajectory  # noqa: PLC0415 - the type, at run time

    # None or a number raised TypeError (no len()).
    check_argument("reference", reference, PoseTrajectory)
    check_argument("estimate", estimate, PoseTrajectory)
    if len(reference) != len(estimate):
        msg = (
            f"Expected associated trajectories of equal length, got reference {len(reference)} "
            f"and estimate {len(estimate)} poses: associate them first"
        )
        raise ValidationError(msg)


def _norms(vectors: Float64Array) -> Float64Array:
    out: Float64Array = np.sqrt(np.einsum("ij,ij->i", vectors, vectors))
    return out


def _rotation_errors(quats_xyzw: Float64Array, relation: str) -> Float64Array:
    """Angle (rad or deg) or ``‖R - I‖_F`` of the rotations ``(N, 4)``."""
    if relation == "rot_part":
        out: Float64Array = _ROT_PART_PER_SIN * _norms(quats_xyzw[:, :3])
        return out
    angles = angle_from_quat_xyzw(quats_xyzw)
    if relation == "angle_deg":
        degrees: Float64Array = np.degrees(angles)
        return degrees
    return angles


def _error_values(
    error_quats_xyzw: Float64Array | None,
    error_translations: Float64Array,
    relation: str,
) -> Float64Array:
    """Compute the ``relation`` scalar of error poses given as quaternions and translations."""
    if error_quats_xyzw is not None and relation in {"angle_rad", "angle_deg", "rot_part"}:
        return _rotation_errors(error_quats_xyzw, relation)
    distance = _norms(error_translations)
    if relation == "full" and error_quats_xyzw is not None:
        rot = _rotation_errors(error_quats_xyzw, "rot_part")
        out: Float64Array = np.sqrt(rot * rot + distance * distance)
        return out
    return distance


#: The relations whose evo formula multiplies the rotation blocks (rather than taking
#: positions only, or an angle through SciPy's ``Rotation.from_matrix``, which is the
#: nearest rotation's to ~1e-12): computed with ``rotation_matrices`` when a trajectory
#: keeps them (KITTI's rows as given).
_MATRIX_RELATIONS = frozenset({"translation", "x", "y", "z", "rot_part", "full"})
_ALL = slice(None)


def rotation_blocks(trajectory: PoseTrajectory, rows: slice = _ALL) -> Float64Array:
    """Return the rotation matrices of ``rows`` the kernels use: as given, else the quaternions'.

    Parameters
    ----------
    trajectory : PoseTrajectory
        Its ``rotation_matrices`` (KITTI blocks kept as given) are used when it has them.
    rows : slice
        The poses wanted; default all.

    Returns
    -------
    ndarray, shape (M, 3, 3), float64
        The kept blocks (possibly off SO(3)), else the rotations of the quaternions.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> traj = PoseTrajectory(stamps_s=np.array([0.0]), positions_xyz=np.zeros((1, 3)),
    ...     orientations_quat_xyzw=np.array([[0.0, 0.0, 0.0, 1.0]]))
    >>> rotation_blocks(traj).tolist()
    [[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]]
    """
    kept = trajectory.rotation_matrices
    if kept is not None:
        return kept[rows]
    return matrix_from_quat_xyzw(trajectory.orientations_quat_xyzw[rows])


def _matrix_values(
    rotation: Float64Array, translation: Float64Array, relation: str
) -> Float64Array:
    """Return the ``relation`` scalar of error poses as matrices ``(N, 3, 3)`` and ``(N, 3)``.

    evo's arithmetic on ``E`` as it is: ``‖t‖``, ``‖R - I₃‖_F``, ``‖E - I₄‖_F``, and the
    components of ``t``.
    """
    if relation in _AXES:
        out: Float64Array = translation[:, _AXES[relation]].copy()
        return out
    distance = _norms(translation)
    if relation == "translation":
        return distance
    off = rotation - np.eye(3)
    rot: Float64Array = np.sqrt(np.einsum("nij,nij->n", off, off))
    if relation == "rot_part":
        return rot
    full: Float64Array = np.sqrt(rot * rot + distance * distance)
    return full


def _by_chunks(n: int, kernel: Callable[[slice], Float64Array]) -> Float64Array:
    """``kernel`` over consecutive row ranges of ``_CHUNK``, concatenated ``(n,)``.

    WHY: the kernels build a dozen temporaries per row; in chunks they stay in cache and
    are reused by the allocator, instead of page-faulting fresh 8 MB arrays at 10^6 rows
    (3-5x faster on a 2-core machine, the same numbers).
    """
    out = np.empty(n)
    for start in range(0, n, _CHUNK):
        rows = slice(start, min(start + _CHUNK, n))
        out[rows] = kernel(rows)
    return out


def ape_errors(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    relation: str = "translation",
    *,
    alignment: Alignment | None = None,
) -> Float64Array:
    """Absolute pose errors of associated (and, if wanted, aligned) trajectories, one per pose.

    With ``E_i = P_i⁻¹ Q_i`` (evo's APE; ``P`` estimate, ``Q`` reference):

    - ``translation`` and ``point_distance``: ``‖p_i - q_i‖`` in metres (evo ``trans_part``);
    - ``angle_rad`` / ``angle_deg``: the rotation angle of ``R(E_i)``;
    - ``rot_part``: ``‖R(E_i) - I₃‖_F``; ``full``: ``‖E_i - I₄‖_F`` (dimensionless);
    - ``x``, ``y``, ``z``: signed components of ``p_i - q_i`` (estimate minus reference)
      in the frame both trajectories are expressed in (the reference's ``frame_id``,
      after alignment). evo has no per-axis APE.
    - ``along_track``, ``cross_track``, ``vertical`` (m): ``p_i - q_i`` in the track
      frame of the reference's motion; ``roll_*``, ``pitch_*``, ``yaw_*`` (rad, deg): the
      rotation vector of ``R(Q_i)ᵀ R(P_i)`` about the reference body's axes
      (:mod:`robot_msgs.evaluation.components`: the frames, and why the squares sum to
      ``translation²`` and ``angle_rad²``).
    - trajectopy's components (:data:`TRAJECTOPY_RELATIONS`): ``along_track_body``,
      ``cross_track_body``, ``vertical_body`` (m), ``p_i - q_i`` in the reference body's
      axes ``x, y, z`` (``R(Q_i)ᵀ (p_i - q_i)``); ``roll_world_*``, ``pitch_world_*``,
      ``yaw_world_*`` (rad, deg): the extrinsic ``xyz`` Euler angles (about the world's
      axes) of ``R(Q_i) R(P_i)ᵀ``, the reference relative to the estimate.
    - ``nees``, ``nees_position``, ``nees_orientation``, ``nees_planar``: the normalised
      estimation error squared with the estimate's ``covariance_6x6`` (6, 3, 3 and 3
      dof; planar: ``x, y, yaw``; :mod:`robot_msgs.evaluation.consistency`).

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Associated trajectories of equal length ``N``; row ``i`` of one matches row ``i``
        of the other. Their quaternions are taken as unit, as :func:`rpe_errors` says.
    relation : str
        One of :data:`APE_RELATIONS`.
    alignment : Alignment, optional
        A transform to apply to ``estimate`` first: the errors are those of
        ``ape_errors(reference, alignment.apply(estimate), relation)``, with the poses
        moved a chunk of rows at a time instead of as a whole aligned copy (at 10^7
        poses that copy is 560 MB; the NEES relations and rotation blocks kept as given
        still move the whole estimate).

    Returns
    -------
    ndarray, shape (N,), float64
        Errors in the relation's unit (:data:`RELATION_UNITS`).

    Raises
    ------
    ValidationError
        Unknown relation or trajectories of different lengths.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> ref = PoseTrajectory(
    ...     stamps_s=[0.0, 1.0], positions_xyz=[[0, 0, 0], [1, 0, 0]],
    ...     orientations_quat_xyzw=[[0, 0, 0, 1]] * 2,
    ... )
    >>> est = ref.replace(positions_xyz=[[0, 0.1, 0], [1, -0.1, 0]])
    >>> ape_errors(ref, est, "y")
    array([ 0.1, -0.1])
    """
    name = check_relation(relation, allowed=APE_RELATIONS)
    _check_same_length(reference, estimate)
    # Anything else raised AttributeError (no is_identity). By its methods: importing
    # compare.alignment here would close an import cycle through evaluation.settings.
    if alignment is not None and not all(
        callable(getattr(alignment, m, None))
        for m in ("is_identity", "apply", "apply_positions", "quaternion_matrix")
    ):
        got = f"{type(alignment).__name__} {alignment!r:.60}"
        msg = f"Expected `alignment` as an Alignment, got {got}"
        raise ValidationError(msg, field="alignment", reason=msg)
    as_given = name in {"rot_part", "full"} and keeps_matrices(reference, estimate)
    if alignment is not None and (name in NEES_DOF or as_given or alignment.is_identity()):
        estimate, alignment = alignment.apply(estimate), None  # covariances, blocks: whole
    if name in NEES_DOF:
        return nees_values(reference, estimate, name)
    p_ref, p_est = reference.positions_xyz, estimate.positions_xyz
    q_ref, q_est = reference.orientations_quat_xyzw, estimate.orientations_quat_xyzw
    axes = track_axes(p_ref) if name in _TRACK[:2] else ()
    move = alignment
    left = None if move is None else move.quaternion_matrix()  # q_R ⊗ q as L q

    def est_quats(rows: slice) -> Float64Array:
        return q_est[rows] if left is None else matrix_times_rows(left, q_est[rows])

    def kernel(rows: slice) -> Float64Array:
        moved = p_est[rows] if move is None else move.apply_positions(p_est[rows])
        diff = moved - p_ref[rows]
        if as_given:  # E = P⁻¹ Q with the blocks as given: R(P)ᵀ R(Q), R(P)ᵀ (q - p)
            est_t = np.swapaxes(rotation_blocks(estimate, rows), 1, 2)
            rotation = np.matmul(est_t, rotation_blocks(reference, rows))
            return _matrix_values(rotation, -np.einsum("nij,nj->ni", est_t, diff), name)
        if name in _AXES:
            return diff[:, _AXES[name]]
        if name in _TRACK:
            return _track_values(diff, name, tuple(a[rows] for a in axes))
        attitude = _attitude(name)
        if attitude is not None:  # R(Q)ᵀ R(P): the estimate relative to the reference
            body = quat_xyzw_multiply(quat_xyzw_conjugate(q_ref[rows]), est_quats(rows))
            return _attitude_values(body, attitude)
        if name in _BODY:  # R(Q)ᵀ (p - q): the deviation in the reference body's axes
            return quat_xyzw_rotate(q_ref[rows], diff, inverse=True)[:, _BODY[name]]
        world = _attitude(name, "_world_")
        if world is not None:  # R(Q) R(P)ᵀ, its Euler angles about the world's x, y, z
            turn = quat_xyzw_multiply(q_ref[rows], quat_xyzw_conjugate(est_quats(rows)))
            angles = euler_sxyz_from_quat_xyzw(turn)[:, world[0]]
            return np.degrees(angles) if world[1] else angles
        if name in {"translation", "point_distance"}:
            return _norms(diff)
        # R(E_i) = R(P_i)ᵀ R(Q_i); ‖t(E_i)‖ = ‖p_i - q_i‖.
        quats = quat_xyzw_multiply(quat_xyzw_conjugate(est_quats(rows)), q_ref[rows])
        return _error_values(quats, diff, name)

    return _by_chunks(len(reference), kernel)


def keeps_matrices(reference: PoseTrajectory, estimate: PoseTrajectory) -> bool:
    """Return whether either trajectory keeps its rotation blocks as given (KITTI, evo's rule).

    When one does, the kernels (RPE here, KITTI drift in :mod:`.drift`) compute on
    :func:`rotation_blocks` rather than on the quaternions.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        The associated trajectories.

    Returns
    -------
    bool
        True when either has ``rotation_matrices``.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> traj = PoseTrajectory(stamps_s=np.array([0.0]), positions_xyz=np.zeros((1, 3)),
    ...     orientations_quat_xyzw=np.array([[0.0, 0.0, 0.0, 1.0]]))
    >>> keeps_matrices(traj, traj)
    False
    """
    return reference.rotation_matrices is not None or estimate.rotation_matrices is not None


def _check_pairs(pairs: IntpArray, n: int) -> IntpArray:
    arr = np.asarray(pairs)
    if arr.ndim != 2 or arr.shape[1] != 2 or not np.issubdtype(arr.dtype, np.integer):
        msg = f"Expected pairs as integer indices of shape (K, 2), got {arr.dtype} {arr.shape}"
        raise ValidationError(msg)
    if arr.size and (arr.min() < 0 or arr.max() >= n):
        msg = f"Expected pair indices in [0, {n}), got values {arr.min()}..{arr.max()}"
        raise ValidationError(msg)
    return arr.astype(np.intp, copy=False)


def rpe_errors(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    pairs: IntpArray,
    relation: str = "translation",
) -> Float64Array:
    """Relative pose errors over index pairs ``(i, j)`` of associated trajectories.

    With ``E_ij = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)`` (evo's RPE, Sturm et al. 2012 eq. 3):

    - ``translation``: ``‖t(E_ij)‖`` (metres), ``angle_rad`` / ``angle_deg`` its rotation
      angle, ``rot_part`` ``‖R(E_ij) - I₃‖_F``, ``full`` ``‖E_ij - I₄‖_F``;
    - ``x``, ``y``, ``z``: signed components of ``t(E_ij) = R(Q_i⁻¹ Q_j)ᵀ (t(P_i⁻¹ P_j) -
      t(Q_i⁻¹ Q_j))``: the estimate's motion minus the reference's, in the reference's
      body frame at ``j``;
    - ``along_track``, ``cross_track``, ``vertical`` (m): ``R(Q_j) t(E_ij)`` (the
      translation error in the world frame) in the track frame of the reference at
      ``j``; ``roll_*``, ``pitch_*``, ``yaw_*`` (rad, deg): the rotation vector of
      ``R(E_ij)`` about the reference body's axes at ``j``
      (:mod:`robot_msgs.evaluation.components`);
    - ``point_distance``: ``| ‖q_i - q_j‖ - ‖p_i - p_j‖ |`` (metres);
    - ``point_distance_error_ratio``: that ``× 100 / ‖q_i - q_j‖`` (%); pairs whose
      reference positions coincide give NaN, which every statistic leaves out (evo drops
      them).

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Associated trajectories of equal length ``N``, their quaternions taken as unit:
        :func:`~robot_msgs.evaluation.prepare` (every metric) divides them by their
        norms, which a trajectory accepts within ``1e-6`` of 1; a direct caller gives
        unit quaternions (one off by 9e-7 moves RPE translation by ~2e-6 of a 17 m step).
    pairs : ndarray, shape (K, 2), integer
        Index pairs, e.g. from :func:`robot_msgs.evaluation.select_pairs`.
    relation : str
        One of :data:`RPE_RELATIONS`.

    Returns
    -------
    ndarray, shape (K,), float64
        One error per pair, in the relation's unit.

    Raises
    ------
    ValidationError
        Unknown relation, trajectories of different lengths, or malformed pairs.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> ref = PoseTrajectory(
    ...     stamps_s=[0.0, 1.0, 2.0], positions_xyz=[[0, 0, 0], [1, 0, 0], [2, 0, 0]],
    ...     orientations_quat_xyzw=[[0, 0, 0, 1]] * 3,
    ... )
    >>> est = ref.replace(positions_xyz=[[0, 0, 0], [1.1, 0, 0], [2.2, 0, 0]])
    >>> rpe_errors(ref, est, np.array([[0, 1], [1, 2]]), "x")
    array([0.1, 0.1])
    """
    name = check_relation(relation, allowed=RPE_RELATIONS)
    _check_same_length(reference, estimate)
    ij = _check_pairs(pairs, len(reference))
    p_ref, p_est = reference.positions_xyz, estimate.positions_xyz
    q_ref, q_est = reference.orientations_quat_xyzw, estimate.orientations_quat_xyzw
    axes = track_axes(p_ref) if name in _TRACK[:2] else ()
    blocks = None
    if name in _MATRIX_RELATIONS and keeps_matrices(reference, estimate):
        blocks = (rotation_blocks(reference), rotation_blocks(estimate))
    if name == "translation" and blocks is None and _compiled is not None:
        # The kernel below in one compiled loop, bit for bit (_relations.c says why).
        out = np.empty(ij.shape[0])
        c = np.ascontiguousarray
        _compiled.rpe_translation(c(p_ref), c(q_ref), c(p_est), c(q_est), c(ij), out)
        return out

    def kernel(rows: slice) -> Float64Array:
        # A chunk's columns made contiguous here, in cache: two whole (K,) copies made
        # up front cost 10-20 ms at 10^6 pairs, first touch included.
        i, j = np.ascontiguousarray(ij[rows, 0]), np.ascontiguousarray(ij[rows, 1])
        ref_step = np.take(p_ref, j, axis=0) - np.take(p_ref, i, axis=0)
        est_step = np.take(p_est, j, axis=0) - np.take(p_est, i, axis=0)
        if blocks is not None:  # E = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j), the blocks as given
            ref_i = np.swapaxes(np.take(blocks[0], i, axis=0), 1, 2)
            est_i = np.swapaxes(np.take(blocks[1], i, axis=0), 1, 2)
            ref_rel = np.matmul(ref_i, np.take(blocks[0], j, axis=0))
            est_rel = np.matmul(est_i, np.take(blocks[1], j, axis=0))
            step = np.einsum("nij,nj->ni", est_i, est_step) - np.einsum(
                "nij,nj->ni", ref_i, ref_step
            )
            ref_rel_t = np.swapaxes(ref_rel, 1, 2)
            translation = np.einsum("nij,nj->ni", ref_rel_t, step)
            return _matrix_values(np.matmul(ref_rel_t, est_rel), translation, name)
        if name in {"point_distance", "point_distance_error_ratio"}:
            ref_dist = _norms(ref_step)
            err: Float64Array = np.abs(ref_dist - _norms(est_step))
            if name == "point_distance":
                return err
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio: Float64Array = np.where(ref_dist > 0, err / ref_dist * 100.0, np.nan)
            return ratio
        ref_i, est_i = np.take(q_ref, i, axis=0), np.take(q_est, i, axis=0)
        if name in _TRACK:  # R(Q_j) t(E) = R(Q_i) R(P_i)ᵀ (p_j - p_i) - (q_j - q_i)
            world = (
                quat_xyzw_rotate(ref_i, quat_xyzw_rotate(est_i, est_step, inverse=True)) - ref_step
            )
            return _track_values(world, name, tuple(np.take(a, j, axis=0) for a in axes))
        q_err = None
        if name not in {"translation", "x", "y", "z"}:
            # R(E) = R(Q_i⁻¹ Q_j)ᵀ R(P_i⁻¹ P_j)
            q_rel_ref = quat_xyzw_multiply(quat_xyzw_conjugate(ref_i), np.take(q_ref, j, axis=0))
            q_rel_est = quat_xyzw_multiply(quat_xyzw_conjugate(est_i), np.take(q_est, j, axis=0))
            q_err = quat_xyzw_multiply(quat_xyzw_conjugate(q_rel_ref), q_rel_est)
            if name in {"angle_rad", "angle_deg", "rot_part"}:
                return _rotation_errors(q_err, name)
            attitude = _attitude(name)
            if attitude is not None:
                return _attitude_values(q_err, attitude)
        # t(E) = R(Q_i⁻¹ Q_j)ᵀ (t(P_i⁻¹ P_j) - t(Q_i⁻¹ Q_j)), t(Q_i⁻¹ Q_j) = R(Q_i)ᵀ (q_j - q_i).
        delta = quat_xyzw_rotate(est_i, est_step, inverse=True) - quat_xyzw_rotate(
            ref_i, ref_step, inverse=True
        )
        if name in _AXES:
            q_rel_ref = quat_xyzw_multiply(quat_xyzw_conjugate(ref_i), np.take(q_ref, j, axis=0))
            return quat_xyzw_rotate(q_rel_ref, delta, inverse=True)[:, _AXES[name]]
        return _error_values(q_err, delta, name)

    return _by_chunks(ij.shape[0], kernel)
