"""``Extrinsic``: the constant transform between an estimate's body and the reference's.

What :func:`robot_msgs.evaluation.estimate_extrinsic` finds (hand-eye calibration): with
``reference_i ≈ S · estimate_i · X`` for every matched pose ``i`` (``S`` the unknown change
of world frame), ``X`` is the pose of the reference's body in the estimate's body frame,
``transform_right`` of the evaluation settings.
"""

from __future__ import annotations

import math
from typing import Annotated

import numpy as np

from robot_msgs.compare.alignment import check_rigid
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.check import COMPILED
from robot_msgs.msg.primitives import Count
from robot_msgs.rotations import rotation_vector_from_matrix
from robot_msgs.typing import Float64Array, Int64Array

__all__ = ["Extrinsic"]


@message("compare/Extrinsic")
class Extrinsic(Msg):
    """The transform ``X`` with ``reference_i ≈ S · estimate_i · X``, its uncertainty and evidence.

    There is no ROS equivalent.

    Attributes
    ----------
    rotation : ndarray, shape (3, 3)
        ``X``'s rotation: the reference body's orientation in the estimate's body frame
        (a camera's estimate against a motion-capture body: the body seen from the camera).
    translation_m : ndarray, shape (3,), metres
        ``X``'s translation: the reference body's origin in the estimate's body frame, in
        the reference's units.
    covariance_6x6 : ndarray, shape (6, 6), m², m·rad, rad²
        The covariance of ``(t_x, t_y, t_z, δ_x, δ_y, δ_z)`` (the ROS order:
        translation m, then rotation rad, the rotation as ``R = exp([δ]_×) R̂`` in the
        estimate's body frame): the square roots of its diagonal are their standard
        uncertainties. NaN in the rows and columns of parameters the motion does not
        determine at all.
    n_poses : int
        The matched poses the motions were taken from.
    n_pairs : int
        The relative motions fitted, ``M``.
    strides : tuple of int
        How many rows apart the two poses of a motion are.
    pair_index : ndarray, shape (M, 2), int64
        Each motion's rows ``(i, j)`` in the matched trajectories.
    residual_translation_m : ndarray, shape (M, 3), metres
        What ``X`` leaves of each motion's translation, in the estimate's body frame at
        ``i``.
    residual_rotation_rad : ndarray, shape (M, 3), radians
        What ``X`` leaves of each motion's rotation (a rotation vector), in the same frame.
    rms_m : float, metres
        The root mean square norm of ``residual_translation_m``; NaN: unknown.
    rms_deg : float, degrees
        The root mean square angle of ``residual_rotation_rad``; NaN: unknown.
    scale : float
        ``S``, converting the estimate's units to metres: fitted when ``with_scale`` (a
        monocular estimate), else 1.
    with_scale : bool
        Whether ``scale`` was fitted.
    scale_std : float
        The standard uncertainty of ``scale``: 0 when not fitted, NaN when the motion
        does not determine it.
    unobservable : tuple of str
        Each direction the data does not determine well enough (the estimate refuses
        then, unless asked to report); empty when ``X`` is determined.
    notes : tuple of str
        What a reader of the estimate must know.

    Examples
    --------
    >>> import numpy as np
    >>> x = Extrinsic(rotation=np.eye(3), translation_m=[0.1, 0.0, 0.0],
    ...               covariance_6x6=np.diag([1e-6] * 3 + [1e-8] * 3), n_poses=100,
    ...               n_pairs=0, strides=(1,), pair_index=np.zeros((0, 2), dtype=np.int64),
    ...               residual_translation_m=np.zeros((0, 3)),
    ...               residual_rotation_rad=np.zeros((0, 3)), rms_m=0.0, rms_deg=0.0)
    >>> x.matrix()[0], x.observable
    (array([1. , 0. , 0. , 0.1]), True)
    """

    rotation: Annotated[Float64Array, Shape(3, 3)]
    translation_m: Annotated[Float64Array, Shape(3)]
    covariance_6x6: Annotated[Float64Array, Shape(6, 6)]
    n_poses: Count
    n_pairs: Count
    strides: tuple[int, ...]
    pair_index: Annotated[Int64Array, Shape("M", 2)]
    residual_translation_m: Annotated[Float64Array, Shape("M", 3)]
    residual_rotation_rad: Annotated[Float64Array, Shape("M", 3)]
    rms_m: float
    rms_deg: float
    scale: float = 1.0
    with_scale: bool = False
    scale_std: float = 0.0
    unobservable: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def _validate(self) -> None:
        check_rigid(self)
        cov = self.covariance_6x6
        if not _nan_symmetric(cov):
            raise self._fail(
                field="covariance_6x6", expected="a symmetric matrix (NaN where unknown)", got=cov
            )
        diagonal = np.diagonal(cov)
        known = diagonal[~np.isnan(diagonal)]
        # A fit's rounding leaves a variance of 0 at about -1e-20; a damaged file's -1
        # would read as "known exactly" once std_m clips it (a review).
        if known.size and known.min() < -(_VARIANCE_ROUNDING + 1e-9 * np.abs(known).max()):
            expected = "variances >= 0 on the diagonal (NaN where unknown)"
            raise self._fail(field="covariance_6x6", expected=expected, got=cov)
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise self._fail(field="scale", expected="a finite scale > 0", got=self.scale)
        if not (self.scale_std >= 0 or math.isnan(self.scale_std)):
            raise self._fail(
                field="scale_std", expected="an uncertainty >= 0 (NaN: unknown)", got=self.scale_std
            )
        # root mean squares of finite residuals
        self._check_measures(("rms_m", "rms_deg"), "a finite RMS >= 0 (NaN: unknown)")
        if self.strides and min(self.strides) < 1:
            raise self._fail(field="strides", expected="strides >= 1", got=self.strides)

    @property
    def observable(self) -> bool:
        """Whether the data determines ``X`` (no direction named in ``unobservable``)."""
        return not self.unobservable

    @property
    def std_m(self) -> Float64Array:
        """Standard uncertainties of ``translation_m`` ``(3,)``, metres (NaN where unknown).

        A variance rounded below 0 is 0, as ``scale_std``'s is (its square root was NaN,
        with NumPy's "invalid value" warning).
        """
        out: Float64Array = np.sqrt(np.clip(np.diag(self.covariance_6x6)[:3], 0.0, None))
        return out

    @property
    def std_deg(self) -> Float64Array:
        """Standard uncertainties of the rotation about the estimate's axes ``(3,)``, degrees.

        NaN where unknown; a variance rounded below 0 is 0 (as :attr:`std_m`'s).
        """
        out: Float64Array = np.degrees(
            np.sqrt(np.clip(np.diag(self.covariance_6x6)[3:], 0.0, None))
        )
        return out

    def matrix(self) -> Float64Array:
        """Return ``X`` as a ``(4, 4)`` float64 rigid transform, translation in metres."""
        out = np.eye(4)
        out[:3, :3] = self.rotation
        out[:3, 3] = self.translation_m
        return out

    def transform_right(self) -> tuple[float, ...]:
        """Return the 16 numbers (row-major) of ``EvaluationSettings.transform_right``.

        The evaluation applies ``transform_right`` to the estimate before it fits the
        alignment, so its translation is in the estimate's units: ``t / scale``. With
        ``scale`` 1 this is :meth:`matrix`.
        """
        out = self.matrix()
        out[:3, 3] /= self.scale
        return tuple(float(v) for v in out.ravel())

    def describe(self) -> str:
        """Return a one-line account for a result's notes.

        Examples
        --------
        >>> import numpy as np
        >>> Extrinsic(rotation=np.eye(3), translation_m=[0.1, 0.0, 0.02],
        ...           covariance_6x6=np.diag([1e-6] * 3 + [1e-6] * 3), n_poses=100,
        ...           n_pairs=400, strides=(1, 2), pair_index=np.zeros((0, 2), dtype=np.int64),
        ...           residual_translation_m=np.zeros((0, 3)),
        ...           residual_rotation_rad=np.zeros((0, 3)), rms_m=0.004,
        ...           rms_deg=0.2).describe()
        'extrinsic estimated: translation (0.1000, 0.0000, 0.0200) m ± (0.001, 0.001, \
0.001) m, rotation vector (0.000, 0.000, 0.000) deg ± (0.057, 0.057, 0.057) deg (400 \
motions of 100 poses, RMS residual 0.004 m, 0.2 deg)'
        """
        t, st = self.translation_m, self.std_m
        r, sr = np.degrees(rotation_vector_from_matrix(self.rotation[None])[0]), self.std_deg
        text = (
            f"extrinsic estimated: translation ({t[0]:.4f}, {t[1]:.4f}, {t[2]:.4f}) m ± "
            f"({st[0]:.2g}, {st[1]:.2g}, {st[2]:.2g}) m, rotation vector ({r[0]:.3f}, "
            f"{r[1]:.3f}, {r[2]:.3f}) deg ± ({sr[0]:.2g}, {sr[1]:.2g}, {sr[2]:.2g}) deg"
        )
        if self.with_scale:
            text += f", scale {self.scale:.4g} ± {self.scale_std:.2g}"
        text += (
            f" ({self.n_pairs} motions of {self.n_poses} poses, RMS residual "
            f"{self.rms_m:.3g} m, {self.rms_deg:.3g} deg)"
        )
        if self.unobservable:
            text += "; not determined: " + "; ".join(self.unobservable)
        return text


#: m² or rad²: a variance this far below 0 is a rounded 0 (a nanometre, a nanoradian, squared).
_VARIANCE_ROUNDING = 1e-18


def _nan_symmetric(cov: Float64Array) -> bool:
    """Whether ``cov`` holds finite values or NaN and is symmetric, NaN read as 0.

    ``numpy.allclose``'s tolerances; in C where built (``_checks.c``, the same
    operations: 26 µs of NumPy calls for a 6x6 matrix, most of an Extrinsic's check).
    """
    if COMPILED is not None:
        compiled = COMPILED.symmetric_ok(cov, len(cov))
        if compiled is not None:
            return compiled
    known = np.isfinite(cov)
    with np.errstate(over="ignore", invalid="ignore"):  # huge values refused, not warned
        symmetric = np.allclose(np.where(known, cov, 0.0), np.where(known, cov, 0.0).T)
    return bool((np.isnan(cov) | known).all() and symmetric)
