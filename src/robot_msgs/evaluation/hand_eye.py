r"""The extrinsic between an estimate's body and the reference's, by hand-eye calibration.

A camera's SLAM estimate compared with a motion-capture body, a lidar odometry with a
GNSS antenna: the two bodies are rigidly attached, and every matched pose obeys

.. math::

    G_i = S \, E_i \, X

with ``G_i`` the reference pose, ``E_i`` the estimate pose, ``S`` the unknown change of
world frame (what the alignment fits) and ``X`` the constant extrinsic, the reference
body's pose in the estimate's body frame (``EvaluationSettings.transform_right``). ``S``
cancels in relative motions: with ``A_k = E_i^{-1} E_j`` (the estimate's motion) and
``B_k = G_i^{-1} G_j`` (the reference's), ``B_k = X^{-1} A_k X``, the hand-eye equation

.. math::

    A_k X = X B_k : \qquad R_A R_X = R_X R_B, \qquad
    R_A t_X + s\, t_A = R_X t_B + t_X

(Tsai & Lenz 1989's ``AX = XB``, with ``A`` the estimate's motion because the poses map
body to world). ``s`` converts the estimate's units to metres: 1 for a metric estimate, fitted
with ``with_scale`` (a monocular one, ``S`` then a similarity; Andreff, Horaud & Espiau
2001 solve the same scaled equation).

Method
------
Motions ``(i, i + k)`` for the strides ``k = 1, 2, 4, ...`` up to a sixteenth of the
poses (at most 1024), from at most 4000 evenly spread start poses. WHY a sixteenth: with
an eighth, the uncertainty below came out 1.3 to 1.65 times too small at 300 to 1500
poses (its long-run covariance then rests on too few independent stretches); with a
sixteenth the errors are 0.7 to 1.1 of it (``benchmarks/bench_hand_eye.py``).

1. Closed-form start. The rotation maximises the agreement of the rotation vectors
   ``α_k = log R_A``, ``β_k = log R_B``, ``α_k = R_X β_k`` (Park & Martin 1994: their
   least-squares solution ``R_X = (MᵀM)^{-1/2} Mᵀ``, ``M = Σ β_k α_kᵀ``, computed by SVD as
   Kabsch's); a second candidate adds the translation directions ``t_A ≈ R_X t_B`` (each
   set normalised), which fix the rotation about the axis of a motion that turns about
   one axis only; the candidate whose start leaves the smaller residuals is kept. The
   translation (and ``s``) then solve the linear equations
   ``(R̂_A - I) t_X + s t_A = R_X t_B`` in the least-squares sense (minimum norm: what the
   motion does not determine stays 0).
2. Refinement by weighted Gauss-Newton over every motion, of the residuals

   .. math::

       r_R = \log(R_A \hat R_A^\top), \qquad
       r_t = \hat R_A t_X + s\, t_A - R_X t_B - t_X, \qquad
       \hat R_A = R_X R_B R_X^\top,

   the estimate's motion against the motion ``X B X^{-1}`` the reference predicts, with
   exact Jacobians. WHY ``\hat R_A`` and not ``R_A`` multiplies ``t_X``: the measured
   ``R_A - I`` carries the estimate's rotation noise into the coefficient of ``t_X``
   (errors in variables), which pulled ``t_X`` toward 0 by 3 mm of 0.23 m at 0.3 deg of
   rotation noise a pose in the synthetic benchmark; the reference's motion is the
   accurate one. Each stride's rotation and translation residuals are weighted by their
   own RMS (re-estimated every iteration: noise is alike for all strides, drift grows with
   them; a floor of ``1e-9`` rad, or of the motions' RMS length, keeps noise-free data
   well posed). Steps are taken only in the directions the motion determines, found
   from the unweighted Jacobian in natural units (metres of motion, radians), so a
   direction the motion does not determine keeps its start value.
3. Uncertainty: the sandwich ``H^{-1} Ω H^{-1}`` with ``H = Σ J_kᵀ J_k`` (whitened) and
   ``Ω`` the Newey-West (Bartlett) long-run covariance of the scores ``J_kᵀ r_k`` summed
   per start pose, over lags up to twice the longest stride: motions that share a pose,
   and estimate errors that persist from pose to pose, are not independent. In the
   benchmark (white pose noise, 1000 poses) the errors are 0.72 to 0.93 of this
   uncertainty, RMS: it errs on the safe side.

Refusal: a direction is *unobservable* when its standard uncertainty exceeds
``max_std_m`` (translation), ``max_std_deg`` (rotation) or ``max_scale_std`` (relative
scale), or is infinite: the motion carries no information on it. A ground robot turning
only about its vertical axis determines the translation along that axis not at all
(``R̂_A - I`` annihilates it); an estimate that never turns determines no translation;
a reference that turns about one line (a steady circle) determines neither the rotation
about it nor the translation, nor, unless it moves along the line, the scale
(:func:`_screw_unobservable`).
:func:`estimate_extrinsic` names each such direction, in the estimate's body frame and
the reference's, and refuses (or reports, with ``refuse=False``).

WHY a hand-written Gauss-Newton and not :func:`scipy.optimize.least_squares`: the normal
equations have 6 or 7 unknowns, the per-motion Jacobians are needed anyway for the
sandwich covariance, and the estimate then needs no optional package (the doctor runs
on a core install).

References
----------
R. Y. Tsai and R. K. Lenz, "A new technique for fully autonomous and efficient 3D robotics
hand/eye calibration", IEEE Trans. Robotics and Automation 5(3), 1989.
F. C. Park and B. J. Martin, "Robot sensor calibration: solving AX = XB on the Euclidean
group", IEEE Trans. Robotics and Automation 10(5), 1994.
N. Andreff, R. Horaud and B. Espiau, "Robot hand-eye calibration using
structure-from-motion", Int. J. Robotics Research 20(3), 2001.
W. K. Newey and K. D. West, "A simple, positive semi-definite, heteroskedasticity and
autocorrelation consistent covariance matrix", Econometrica 55(3), 1987.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np

from robot_msgs.compare.extrinsic import Extrinsic
from robot_msgs.compare.statistics import _rms
from robot_msgs.errors import AlignmentError, ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    matrix_from_rotation_vector,
    rotation_from_covariance,
    rotation_vector_from_matrix,
    skew,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = ["estimate_extrinsic"]

_MAX_STARTS = 4_000
_MAX_STRIDE = 1_024
_STRIDE_SHARE = 16  # the longest stride is at most 1/16 of the poses
_MAX_ANGLE = 2.5  # rad: rotation vectors of longer turns are ill-defined for the start
_MAX_ITER = 50
_RMS_FLOOR = 1e-9
_STEP_TOL = 1e-10  # rad and m (and scale): far below any uncertainty
_NULL_TOL = 1e-10  # scaled information below this share of the largest: none
_NO_INFORMATION = 1e6  # an uncertainty this many times the limit: none either
_IN_PART = 1e-6  # a null direction this close to one part lies in it (_by_part)
_AXIS_COS = math.cos(math.radians(10.0))
_FEW_PAIRS = 30
_T, _R, _S = slice(0, 3), slice(3, 6), 6  # parameter layout: translation, rotation, scale
#: :func:`estimate_extrinsic`'s limits, also the doctor's: translation m, rotation deg, scale.
_LIMITS = (0.05, 1.0, 0.05)
#: Why a scale is not determined where the estimate does not move: 1 is given then.
_ESTIMATE_STILL = "no information: the estimate does not move"


class _Undetermined(NamedTuple):
    """A direction the motion does not determine: its ``part``, what is said of it, ``why``.

    WHY a value: the scale left at 1, the screw's replacements and the doctor's choice
    of items went by the words of ``Extrinsic.unobservable`` (``u.startswith("the
    translation")``, ``u.endswith("the estimate does not move)")``), which a rewording
    would have broken without a test failing.
    """

    part: Literal["translation", "rotation", "scale"]
    said: str
    why: str = ""
    #: The direction in the estimate's body, a unit vector (``None``: any, or the scale).
    axis: tuple[float, float, float] | None = None

    @property
    def text(self) -> str:
        """Return the item of ``Extrinsic.unobservable``: ``said``, then ``(why)``."""
        return f"{self.said} ({self.why})" if self.why else self.said


class _Estimated(NamedTuple):
    """The extrinsic, the reference's screw axis and the directions left undetermined.

    ``screw``: :func:`_one_screw_axis`'s (``None``: the reference does not turn about one
    line); ``undetermined``: ``extrinsic.unobservable`` item by item, with their parts.
    """

    extrinsic: Extrinsic
    screw: Float64Array | None
    undetermined: tuple[_Undetermined, ...]


def estimate_extrinsic(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    with_scale: bool = False,
    max_std_m: float = _LIMITS[0],
    max_std_deg: float = _LIMITS[1],
    max_scale_std: float = _LIMITS[2],
    refuse: bool = True,
) -> Extrinsic:
    """Estimate ``X`` with ``reference_i ≈ S · estimate_i · X`` from relative motions.

    The model, the method, the uncertainty and the refusal are in the module docstring.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Already associated (equal lengths, row ``i`` of one matches row ``i`` of the
        other; see :func:`robot_msgs.evaluation.associate`), in any world frames.
        Neither is modified.
    with_scale : bool
        Fit the scale of the estimate's translations (a monocular estimate).
    max_std_m : float
        Largest standard uncertainty accepted for the translation along any direction,
        metres.
    max_std_deg : float
        Largest standard uncertainty accepted for the rotation about any axis, degrees.
    max_scale_std : float
        Largest relative standard uncertainty accepted for the scale.
    refuse : bool
        Raise when a direction is unobservable (default); with ``False`` return the
        estimate with the directions named in ``Extrinsic.unobservable``.

    Returns
    -------
    Extrinsic
        ``X``, its covariance, the motions used and their residuals.

    Raises
    ------
    ValidationError
        Unequal lengths, or limits that are not positive.
    AlignmentError
        Fewer than 3 poses; a direction the motion does not determine (with ``refuse``),
        the message naming each; a scale that comes out not positive; positions whose
        arithmetic leaves float64 (1e148 m against 1e-150 m), the message naming the
        largest coordinate of each input.

    Examples
    --------
    A camera 0.2 m ahead of the body and turned 90 deg about z, on a body that turns
    about two axes:

    >>> from robot_msgs.evaluation import EvaluationSettings, apply_transforms
    >>> from robot_msgs.rotations import quat_xyzw_from_matrix
    >>> t = np.linspace(0.0, 20.0, 400)
    >>> turn = np.stack([0.3 * np.sin(t), 0.3 * np.cos(0.7 * t), 0.5 * t], 1)
    >>> body = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([np.cos(t), np.sin(t), 0 * t], 1),
    ...     orientations_quat_xyzw=quat_xyzw_from_matrix(matrix_from_rotation_vector(turn)))
    >>> mount = np.array([[0.0, -1, 0, 0.2], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    >>> camera = apply_transforms(body, EvaluationSettings(transform_right=tuple(mount.ravel())))
    >>> x = estimate_extrinsic(body, camera)
    >>> bool(np.allclose(x.matrix(), np.linalg.inv(mount), atol=1e-9))
    True
    >>> planar = body.replace(orientations_quat_xyzw=quat_xyzw_from_matrix(
    ...     matrix_from_rotation_vector(turn * [0, 0, 1])))
    >>> estimate_extrinsic(planar, planar)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.AlignmentError: Cannot estimate the extrinsic: the motion does not \
determine translation along z of the estimate's body (z of the reference's): \
σ = inf m (no information) (...
    """
    limits = (max_std_m, max_std_deg, max_scale_std)
    return _estimated(
        reference, estimate, with_scale=with_scale, limits=limits, refuse=refuse
    ).extrinsic


def _estimated(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    with_scale: bool,
    refuse: bool,
    limits: tuple[float, float, float] = _LIMITS,
) -> _Estimated:
    """Estimate as :func:`estimate_extrinsic`; also return what the estimate found on the way.

    ``limits``: ``max_std_m``, ``max_std_deg``, ``max_scale_std``. WHY: the doctor asked
    :func:`_one_screw_axis` again, and read the undetermined parts back from their words.
    """
    check_argument("reference", reference, PoseTrajectory)
    check_argument("estimate", estimate, PoseTrajectory)
    for name, switch in (("with_scale", with_scale), ("refuse", refuse)):
        flag: object = switch  # an array raised "truth value of an array is ambiguous"
        if isinstance(flag, np.ndarray):
            msg = f"Expected `{name}` as True or False, got {flag!r:.60}"
            raise ValidationError(msg, field=name, reason=msg)
    max_std_m, max_std_deg, max_scale_std = limits
    for name, value in (
        ("max_std_m", max_std_m),
        ("max_std_deg", max_std_deg),
        ("max_scale_std", max_scale_std),
    ):
        if not (isinstance(value, int | float) and value > 0):
            msg = f"Expected `{name}` > 0, got {value!r}"
            raise ValidationError(msg, field=name, reason=f"expected > 0, got {value!r}")
    n = len(estimate)
    if len(reference) != n:
        msg = (
            f"Expected associated trajectories of equal length, got {n} estimate and "
            f"{len(reference)} reference poses: associate them first"
        )
        raise ValidationError(msg)
    if n < 3:
        msg = f"Cannot estimate the extrinsic from {n} matched poses: at least 3 are needed"
        raise AlignmentError(msg)
    # WHY raise: positions of 1e148 m against 1e-150 m took the normal equations past
    # float64 (overflow, then NaN), and NumPy's LinAlgError ("Eigenvalues did not
    # converge") or its RuntimeWarning escaped (a review).
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            screw = _one_screw_axis(reference)
            motions = _Motions(reference, estimate)
            start = _start(motions, with_scale=with_scale)
            fit = _refine(motions, start, with_scale=with_scale)
            extrinsic, undetermined = _result(
                motions,
                fit,
                with_scale=with_scale,
                limits=(max_std_m, math.radians(max_std_deg), max_scale_std),
                refuse=refuse,
                screw=screw,
            )
            return _Estimated(extrinsic, screw, undetermined)
    except (FloatingPointError, np.linalg.LinAlgError) as err:
        sizes = ", ".join(
            f"{float(np.max(np.abs(t.positions_xyz))):.3g} m in `{name}`"
            for name, t in (("reference", reference), ("estimate", estimate))
        )
        msg = (
            "Cannot estimate the extrinsic: its arithmetic leaves float64 for these "
            f"positions (largest |coordinate| {sizes}): are both in metres?"
        )
        raise AlignmentError(msg) from err


class _Motions:
    """The relative motions ``A_k`` (estimate) and ``B_k`` (reference) and their layout."""

    def __init__(self, reference: PoseTrajectory, estimate: PoseTrajectory) -> None:
        n = len(estimate)
        longest = max(1, min(n // _STRIDE_SHARE, _MAX_STRIDE))
        self.strides = tuple(2**e for e in range(longest.bit_length()) if 2**e <= longest)
        self.step = max(1, -(-n // _MAX_STARTS))
        starts = np.arange(0, n - 1, self.step)
        first, second, group = [], [], []
        for g, k in enumerate(self.strides):
            s = starts[starts + k < n]
            first.append(s)
            second.append(s + k)
            group.append(np.full(s.size, g))
        self.i: IntpArray = np.concatenate(first)
        self.j: IntpArray = np.concatenate(second)
        self.group: IntpArray = np.concatenate(group)
        self.n_poses = n
        self.r_a, self.t_a = _relative(estimate, self.i, self.j)
        self.r_b, self.t_b = _relative(reference, self.i, self.j)
        length = math.sqrt(float(np.mean(np.sum(self.t_b**2, axis=1))))
        self.length_m = length if length > 0 else 1.0
        self.estimate_length = math.sqrt(float(np.mean(np.sum(self.t_a**2, axis=1))))

    @property
    def size(self) -> int:
        return int(self.i.size)


def _relative(
    trajectory: PoseTrajectory, i: IntpArray, j: IntpArray
) -> tuple[Float64Array, Float64Array]:
    """Relative motions ``P_i^{-1} P_j``: rotations ``(M, 3, 3)``, translations ``(M, 3)``."""
    rotations = matrix_from_quat_xyzw(trajectory.orientations_quat_xyzw)
    p = trajectory.positions_xyz
    r_i_t = np.swapaxes(rotations[i], 1, 2)
    r_rel = r_i_t @ rotations[j]
    t_rel = (r_i_t @ (p[j] - p[i])[:, :, None])[:, :, 0]
    return r_rel, t_rel


class _Fit:
    """A parameter point: ``R_X``, ``t_X``, ``s``, and (after refinement) its statistics."""

    def __init__(self, rotation: Float64Array, translation: Float64Array, scale: float) -> None:
        self.rotation = rotation
        self.translation = translation
        self.scale = scale
        self.weights = np.ones((1, 2))
        self.jacobian = np.zeros((0, 6, 7))
        self.residuals = np.zeros((0, 6))


def _kabsch(a: Float64Array, b: Float64Array) -> Float64Array:
    """Return the rotation ``R`` that best gives ``a_k ≈ R b_k`` (least squares, by SVD)."""
    return rotation_from_covariance(np.einsum("mi,mj->ij", a, b))[0]


def _normalised(a: Float64Array, b: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Divide ``a`` and ``b`` by ``(Σ|a|² Σ|b|²)^{1/4}``: one weight for a set in the start."""
    size = math.sqrt(_root_sum_squares(a)) * math.sqrt(_root_sum_squares(b))
    return (a / size, b / size) if size > 0 else (a, b)


def _root_sum_squares(a: Float64Array) -> float:
    """Return ``(Σ|a|²)^{1/2}`` without squaring past float64 (motions of 1e150 m).

    WHY: the product of the two sums of squares overflowed from 1e77 m (the doctor's
    extrinsic of a circle of 1e100 m raised numpy's "overflow encountered in scalar
    multiply" where warnings are errors; a review).
    """
    largest = float(np.max(np.abs(a))) if a.size else 0.0
    if not largest > 0.0:
        return 0.0
    scaled = a / largest
    return largest * math.sqrt(float(np.einsum("mi,mi->", scaled, scaled)))


def _start(motions: _Motions, *, with_scale: bool) -> _Fit:
    """Solve the closed-form start (module docstring, step 1).

    Two rotations are tried, from the rotation vectors alone (Park & Martin) and with the
    translation directions added; the one whose start leaves the smaller residuals (both
    weighted alike) is kept. WHY both: the first is undetermined about the axis of a
    motion that turns about one axis only, the second is pulled by the lever arm when the
    motion turns more than it moves (and would take an estimate moving backwards for a
    half turn rather than a negative scale).
    """
    alpha = rotation_vector_from_matrix(motions.r_a)
    beta = rotation_vector_from_matrix(motions.r_b)
    short = np.linalg.norm(alpha, axis=1) < _MAX_ANGLE
    short &= np.linalg.norm(beta, axis=1) < _MAX_ANGLE
    turns = _normalised(alpha[short], beta[short])
    moves = _normalised(motions.t_a, motions.t_b)
    candidates = [
        _with_translation(motions, _kabsch(*turns), with_scale=with_scale),
        _with_translation(
            motions,
            _kabsch(np.vstack([turns[0], moves[0]]), np.vstack([turns[1], moves[1]])),
            with_scale=with_scale,
        ),
    ]
    residuals = [_residuals(motions, c)[0] for c in candidates]
    weights = _stride_weights(motions, residuals[0])
    costs = [float(np.sum(_weighted(motions, weights, r) ** 2)) for r in residuals]
    return candidates[int(np.argmin(costs))]


def _with_translation(motions: _Motions, rotation: Float64Array, *, with_scale: bool) -> _Fit:
    """Solve ``(R̂_A - I) t_X + s t_A = R_X t_B`` for ``t_X`` (and ``s``), minimum norm."""
    lhs = rotation @ motions.r_b @ rotation.T - np.eye(3)
    rhs = motions.t_b @ rotation.T
    if with_scale:
        lhs = np.concatenate([lhs, motions.t_a[:, :, None]], axis=2)
    else:
        rhs = rhs - motions.t_a
    solution = np.linalg.lstsq(lhs.reshape(-1, lhs.shape[2]), rhs.reshape(-1), rcond=None)[0]
    return _Fit(rotation, solution[:3], float(solution[3]) if with_scale else 1.0)


_Parts = tuple["Float64Array", "Float64Array", "Float64Array", "Float64Array"]


def _residuals(motions: _Motions, fit: _Fit) -> tuple[Float64Array, _Parts]:
    """Return the residuals ``(M, 6)`` (``r_t`` m, ``r_R`` rad) and what the Jacobian reuses."""
    r_x, t_x, s = fit.rotation, fit.translation, fit.scale
    # matmul, not einsum: a three-operand einsum over (M, 3, 3) is 10x slower here.
    predicted = r_x @ motions.r_b @ r_x.T
    r_rot = rotation_vector_from_matrix(motions.r_a @ np.swapaxes(predicted, 1, 2))
    moved_t_b = motions.t_b @ r_x.T
    turned_t_x = predicted @ t_x
    r_trans = turned_t_x + s * motions.t_a - moved_t_b - t_x
    return np.concatenate([r_trans, r_rot], axis=1), (predicted, r_rot, moved_t_b, turned_t_x)


def _jacobian(motions: _Motions, fit: _Fit, parts: _Parts) -> Float64Array:
    r"""Return the Jacobians ``(M, 6, 7)`` of the residuals in ``(t_X, δ, s)``.

    With ``R_X = exp([δ]_×) R̂_X``, the Jacobian of ``r_R`` is
    ``J_r^{-1}(r_R) (\hat R_A - I)`` (``J_r^{-1}`` the inverse right Jacobian of SO(3)),
    that of ``r_t`` is ``[R_X t_B]_× - [\hat R_A t_X]_× + \hat R_A [t_X]_×`` in ``δ``,
    ``\hat R_A - I`` in ``t_X`` and ``t_A`` in ``s``.
    """
    predicted, r_rot, moved_t_b, turned_t_x = parts
    jac = np.zeros((motions.size, 6, 7))
    minus_one = predicted - np.eye(3)
    jac[:, :3, _T] = minus_one
    jac[:, :3, _R] = skew(moved_t_b) - skew(turned_t_x) + predicted @ skew(fit.translation)
    jac[:, :3, _S] = motions.t_a
    jac[:, 3:, _R] = _right_jacobian_inverse(r_rot) @ minus_one
    return jac


def _right_jacobian_inverse(phi: Float64Array) -> Float64Array:
    r"""``J_r^{-1}(φ) = I + ½[φ]_× + (1/θ² - (1 + cos θ) / (2 θ sin θ)) [φ]_×²``, ``(M, 3, 3)``."""
    theta = np.linalg.norm(phi, axis=1)[:, None, None]
    small = theta < 1e-6
    safe = np.where(small, 1.0, theta)
    c = np.where(
        small, 1.0 / 12.0, 1.0 / safe**2 - (1.0 + np.cos(safe)) / (2.0 * safe * np.sin(safe))
    )
    k = skew(phi)
    out: Float64Array = np.eye(3) + 0.5 * k + c * (k @ k)
    return out


def _stride_weights(motions: _Motions, residuals: Float64Array) -> Float64Array:
    """Per stride, ``1 / RMS`` of the translation and of the rotation residual components.

    WHY a floor: noise-free data leaves residuals of rounding (1e-16 rad, 1e-14 m), whose
    ratio is no noise model and made the weighted problem singular in directions it
    determines; an RMS below ``1e-9`` rad, or ``1e-9`` of the motions' RMS length, is taken
    as that.
    """
    out = np.ones((len(motions.strides), 2))
    floors = (_RMS_FLOOR * motions.length_m, _RMS_FLOOR)
    for g in range(len(motions.strides)):
        rows = residuals[motions.group == g]
        for part, cols in enumerate((slice(0, 3), slice(3, 6))):
            rms = math.sqrt(float(np.mean(rows[:, cols] ** 2))) if rows.size else 0.0
            out[g, part] = 1.0 / max(rms, floors[part])
    return out


def _weighted(motions: _Motions, weights: Float64Array, residuals: Float64Array) -> Float64Array:
    """Multiply residuals ``(M, 6)`` by their stride's weights."""
    out: Float64Array = residuals * np.repeat(weights[motions.group], 3, axis=1)
    return out


def _whiten(
    motions: _Motions, weights: Float64Array, residuals: Float64Array, jac: Float64Array
) -> tuple[Float64Array, Float64Array]:
    """Multiply residuals and Jacobians by their stride's weights."""
    w = np.repeat(weights[motions.group], 3, axis=1)  # (M, 6): t, t, t, R, R, R
    return residuals * w, jac * w[:, :, None]


def _units(motions: _Motions) -> Float64Array:
    """Return the natural units of the 7 parameters ``(t_X, δ, s)``.

    The motions' RMS length for ``t_X`` (m), 1 rad for ``δ``, and for ``s`` what makes
    ``s t_A`` that length.
    """
    scale_unit = motions.length_m / motions.estimate_length if motions.estimate_length > 0 else 1.0
    return np.array([motions.length_m] * 3 + [1.0] * 3 + [scale_unit])


def _observed(
    motions: _Motions, jac: Float64Array, free: IntpArray, units: Float64Array
) -> tuple[Float64Array, list[Float64Array]]:
    """Return a basis of the directions the motion determines, and the null directions.

    From the *unweighted* Jacobian in natural units (residuals in rad and in motion
    lengths, parameters in :func:`_units`): whether the motion determines a direction is
    geometry, not noise. WHY not from the weighted information: weights follow the
    residuals, which before convergence on noise-free data differ by 10^14 between
    rotation and translation, and a relative threshold then took determined directions
    for null ones; and Jacobi's scaling by the diagonal blew a column only rounding fills
    up to the size of the rest, so a step ran off along a null direction.

    Returns the basis ``(F, K)`` in natural units and the null directions as unit vectors
    over the ``F`` free parameters.
    """
    natural = jac[:, :, free] * units
    natural[:, :3, :] /= motions.length_m
    values, vectors = np.linalg.eigh(np.einsum("mki,mkj->ij", natural, natural))
    null = values <= _NULL_TOL * max(float(values[-1]), 0.0)
    nulls = [(v * units) / np.linalg.norm(v * units) for v in _by_part(vectors[:, null], free).T]
    return vectors[:, ~null], nulls


def _by_part(null: Float64Array, free: IntpArray) -> Float64Array:
    """Turn an orthonormal basis ``(F, K)`` of null directions into one part each, if it can.

    Any orthonormal basis of the null space is one to the eigensolver, and it mixed the
    parts where the translation and a rotation are both undetermined: a straight motion
    without turning, 1000 m long, its estimate along x and the reference along (0.6,
    0.8, 0), with a scale, named the translation along two directions and "the rotation
    about x" twice (a review). The directions of each part (translation, rotation,
    scale) that lie in the null space (a singular value of the basis' rows of that part
    within :data:`_IN_PART` of 1) come first; what is left mixes parts, and stays so.
    """
    out = []
    rest = null
    for part in (_T, _R, _S):
        rows = np.flatnonzero(np.isin(free, np.arange(7)[part]))
        if rest.shape[1] == 0 or rows.size == 0:
            continue
        values, vt = np.linalg.svd(rest[rows], full_matrices=True)[1:]
        inside = int(np.count_nonzero(values > 1.0 - _IN_PART))
        out.append(rest @ vt[:inside].T)
        rest = rest @ vt[inside:].T
    by_part: Float64Array = np.concatenate([*out, rest], axis=1)
    return by_part


def _restricted_inverse(
    information: Float64Array, basis: Float64Array, units: Float64Array
) -> Float64Array:
    """Return the inverse of the information on the determined directions (0 on the rest)."""
    h = basis.T @ (information * np.outer(units, units)) @ basis
    out: Float64Array = basis @ np.linalg.pinv(h, hermitian=True) @ basis.T * np.outer(units, units)
    return out


def _solve(
    motions: _Motions,
    information: Float64Array,
    gradient: Float64Array,
    jac: Float64Array,
    free: IntpArray,
) -> Float64Array:
    """Solve the normal equations on the directions the motion determines."""
    units = _units(motions)[free]
    basis = _observed(motions, jac, free, units)[0]
    step = np.zeros(7)
    step[free] = _restricted_inverse(information[np.ix_(free, free)], basis, units) @ gradient[free]
    return step


def _moved(fit: _Fit, step: Float64Array) -> _Fit:
    return _Fit(
        matrix_from_rotation_vector(step[_R][None])[0] @ fit.rotation,
        fit.translation + step[_T],
        fit.scale + float(step[_S]),
    )


def _refine(motions: _Motions, start: _Fit, *, with_scale: bool) -> _Fit:
    """Weighted Gauss-Newton from ``start`` (module docstring, step 2)."""
    free = np.arange(7 if with_scale else 6)
    fit = start
    residuals, parts = _residuals(motions, fit)
    jac = _jacobian(motions, fit, parts)
    for _ in range(_MAX_ITER):
        weights = _stride_weights(motions, residuals)
        rw, jw = _whiten(motions, weights, residuals, jac)
        cost = float(np.einsum("mi,mi->", rw, rw))
        information = np.einsum("mki,mkj->ij", jw, jw)
        gradient = np.einsum("mki,mk->i", jw, rw)
        step = -_solve(motions, information, gradient, jac, free)
        for _halving in range(20):
            trial = _moved(fit, step)
            trial_res, parts = _residuals(motions, trial)
            tw = _weighted(motions, weights, trial_res)
            if float(np.einsum("mi,mi->", tw, tw)) <= cost:
                break
            step = 0.5 * step
        else:
            break  # no step lowers the cost: at the minimum up to rounding
        fit, residuals, jac = trial, trial_res, _jacobian(motions, trial, parts)
        if float(np.max(np.abs(step))) < _STEP_TOL:
            break
    fit.weights = _stride_weights(motions, residuals)
    fit.residuals = residuals
    fit.jacobian = jac
    return fit


def _covariance(
    motions: _Motions, fit: _Fit, free: IntpArray
) -> tuple[Float64Array, list[Float64Array]]:
    """Return the sandwich covariance ``(7, 7)`` (module docstring, step 3), null directions.

    The null directions (unit vectors over the 7 parameters) are those of the scaled
    information matrix with no information; the covariance is 0 along them (a
    pseudo-inverse), and the caller marks them.
    """
    rw, jw = _whiten(motions, fit.weights, fit.residuals, fit.jacobian)
    jw = jw[:, :, free]
    units = _units(motions)[free]
    basis, free_nulls = _observed(motions, fit.jacobian, free, units)
    inverse = _restricted_inverse(np.einsum("mki,mkj->ij", jw, jw), basis, units)
    scores = np.zeros((-(-motions.n_poses // motions.step), free.size))
    np.add.at(scores, motions.i // motions.step, np.einsum("mki,mk->mi", jw, rw))
    lags = min(2 * motions.strides[-1] // motions.step + 1, scores.shape[0] - 1)
    omega = scores.T @ scores
    for lag in range(1, lags + 1):
        gamma = scores[:-lag].T @ scores[lag:]
        omega += (1.0 - lag / (lags + 1)) * (gamma + gamma.T)
    cov = np.zeros((7, 7))
    cov[np.ix_(free, free)] = inverse @ omega @ inverse
    into_all = np.eye(7)[:, free]  # a vector over the free parameters, over all 7
    return cov, [into_all @ v for v in free_nulls]


#: Fewest motions (a sixteenth of the poses apart) for one screw axis.
_SCREW_MOTIONS = 20
#: Least turn of every motion (a sixteenth of the poses apart) for one screw axis, deg.
_SCREW_MIN_DEG = 5.0
#: Largest RMS angle of the motions' axes from their mean for one screw axis, deg.
_SCREW_DEG = 2.0
#: Largest RMS spread of the axes' points for one screw axis, share of their distance.
_SCREW_SHARE = 0.05
#: ... or metres.
_SCREW_M = 0.01


def _one_screw_axis(traj: PoseTrajectory) -> Float64Array | None:
    """Return the axis direction (in the body's axes) of a body turning about one line.

    A steady circle: every motion ``P_i^{-1} P_{i+k}`` (``k`` a sixteenth of the poses)
    turns about the same line fixed in the body, so an extrinsic ``X`` and ``X`` turned
    about that line (the sensor carried round the circle's centre) explain the motions
    alike, and with a scale, the sensor moved across the circle too. One line: the
    motions turn by at least :data:`_SCREW_MIN_DEG`, their axes' directions lie within
    :data:`_SCREW_DEG` (RMS) of their mean, and the points where the axes cross the plane
    through the body across their mean direction lie within :data:`_SCREW_SHARE` of their
    distance from the body (RMS), or within :data:`_SCREW_M`.
    """
    n = len(traj)
    k = max(1, n // 16)
    if n - k < _SCREW_MOTIONS:
        return None
    relative, moved = _relative(traj, np.arange(n - k), np.arange(k, n))
    rotvec = rotation_vector_from_matrix(relative)
    angle = np.linalg.norm(rotvec, axis=1)
    if not float(np.min(angle)) > math.radians(_SCREW_MIN_DEG):
        return None
    axes = rotvec / angle[:, None]
    size = float(np.linalg.norm(axes.mean(axis=0)))
    if not size > 0.5:  # turning one way and the other
        return None
    mean: Float64Array = axes.mean(axis=0) / size
    off = np.degrees(np.arccos(np.clip(axes @ mean, -1.0, 1.0)))
    if not math.sqrt(float(np.mean(off**2))) < _SCREW_DEG:
        return None
    # the point c on each axis, across it: (I - R) c = the motion across the axis, c ⊥ axis
    across = moved - (moved @ mean)[:, None] * mean
    system = np.eye(3) - relative
    normal = np.swapaxes(system, 1, 2) @ system + np.outer(mean, mean)
    right = (np.swapaxes(system, 1, 2) @ across[:, :, None])[:, :, 0]
    centres = np.linalg.solve(normal, right[:, :, None])[:, :, 0]
    centre = centres.mean(axis=0)
    spread = math.sqrt(float(np.mean(np.sum((centres - centre) ** 2, axis=1))))
    if not spread < max(_SCREW_SHARE * float(np.linalg.norm(centre)), _SCREW_M):
        return None
    return mean


def _axis_name(u: Float64Array) -> str:
    k = int(np.argmax(np.abs(u)))
    if abs(float(u[k])) >= _AXIS_COS:
        return "xyz"[k]
    return f"({u[0]:+.2f}, {u[1]:+.2f}, {u[2]:+.2f})"


def _direction(u: Float64Array, rotation: Float64Array) -> str:
    u = u / np.linalg.norm(u)
    k = int(np.argmax(np.abs(u)))
    u = u if u[k] >= 0 else -u
    return (
        f"{_axis_name(u)} of the estimate's body ({_axis_name(rotation.T @ u)} of the reference's)"
    )


def _unit_tuple(u: Float64Array) -> tuple[float, float, float]:
    """Return ``u`` scaled to length 1, as :class:`_Undetermined`'s ``axis``."""
    x, y, z = (float(c) for c in u / np.linalg.norm(u))
    return x, y, z


def _block(v: Float64Array) -> str:
    """Say which part a null direction lies in: ``"t"``, ``"r"`` or ``"s"``."""
    sizes = (float(np.linalg.norm(v[_T])), float(np.linalg.norm(v[_R])), abs(float(v[_S])))
    return "trs"[int(np.argmax(sizes))]


def _unobservable(
    fit: _Fit,
    cov: Float64Array,
    nulls: list[Float64Array],
    *,
    with_scale: bool,
    limits: tuple[float, float, float],
) -> list[_Undetermined]:
    """Name each direction with no information, or with an uncertainty above its limit.

    Along a null direction the covariance is 0 (a pseudo-inverse), so the limits speak of
    the other directions; an uncertainty a million times the limit is no information too
    (what rounding leaves of a null direction).
    """
    out: list[_Undetermined] = []
    noun: Literal["translation", "rotation"]
    for key, noun, prep, block, limit, unit, factor in (
        ("t", "translation", "along", _T, limits[0], "m", 1.0),
        ("r", "rotation", "about", _R, limits[1], "deg", math.degrees(1.0)),
    ):
        bad = [(math.inf, v[block]) for v in nulls if _block(v) == key]
        values, axes = np.linalg.eigh(cov[block, block])
        for value, u in zip(values[::-1], axes.T[::-1], strict=True):
            std = math.sqrt(max(float(value), 0.0))
            if std > limit:
                bad.append((math.inf if std > _NO_INFORMATION * limit else std, u))

        def item(
            where: str,
            std: float,
            u: Float64Array | None = None,
            noun: Literal["translation", "rotation"] = noun,
            limit: float = limit,
            unit: str = unit,
            factor: float = factor,
        ) -> _Undetermined:
            axis = None if u is None else _unit_tuple(u)
            if math.isinf(std):
                said = f"the {noun} {where}: σ = inf {unit}"
                return _Undetermined(noun, said, "no information", axis)
            said = (
                f"the {noun} {where}: σ = {std * factor:.3g} {unit} > {limit * factor:.3g} {unit}"
            )
            return _Undetermined(noun, said, axis=axis)

        if len(bad) >= 3:
            out.append(item("in any direction", min(std for std, _ in bad)))
            continue
        out.extend(item(f"{prep} {_direction(u, fit.rotation)}", std, u) for std, u in bad)
    if with_scale:
        std = math.sqrt(max(float(cov[_S, _S]), 0.0))
        if any(_block(v) == "s" for v in nulls) or std > _NO_INFORMATION * limits[2] * abs(
            fit.scale
        ):
            out.append(_Undetermined("scale", "the scale: σ = inf", _ESTIMATE_STILL))
        elif std > limits[2] * abs(fit.scale):
            said = f"the scale: σ = {std / abs(fit.scale):.3g} of it > {limits[2]:.3g}"
            out.append(_Undetermined("scale", said))
    return out


def _screw_unobservable(
    motions: _Motions,
    fit: _Fit,
    cov: Float64Array,
    screw: Float64Array,
    unobservable: list[_Undetermined],
    *,
    with_scale: bool,
) -> list[_Undetermined]:
    """Name what a reference turning about one line leaves undetermined; mark ``cov``.

    Every motion turns about the same line (:func:`_one_screw_axis`, ``screw`` its
    direction in the reference's body): ``X`` turned about that line, the sensor carried
    round it, explains the motions alike, and so does ``X`` with the sensor moved toward
    the line and the scale changed, unless the body also moves along the line. The fit
    lands where the noise takes it, and its Gauss-Newton uncertainty counts that noise as
    motion. WHY: a steady circle of 3 m, the same poses on both sides with 0.2 deg and
    1 mm of noise, gave a lever arm of 0.145 m ± 0.010 (0.121 m with another seed), a
    rotation of 2.7 deg ± 0.19 about the axis, and with a scale 0.96 ± 0.004, where all
    are 0 and 1 (a review). The translation's and the scale's covariance become NaN; the
    rotation's is kept across the axis (what the motion determines) and is 0 about it.
    A scale already undetermined because the estimate does not move keeps that item (1 is
    given): a spin in place, replaced, had its fitted scale of 0 refused as motions that
    "do not agree" (a review). The rotation about the axis is this item's too: WHY: the
    null direction of a circle (that rotation with the sensor carried round) was also
    named "the rotation about z ...: σ = inf deg (no information)" after this item, where
    the solver's basis made it more rotation than translation (a spin in place always;
    circles and helices with noise or a mount once :func:`_by_part` split the basis).
    """
    image = fit.rotation @ screw
    why = "the reference turns about one line, and a sensor carried round it moves alike"
    out = [
        u
        for u in unobservable
        if u.part != "translation"
        and not (u.part == "rotation" and u.axis is not None and _along(u.axis, image))
    ]
    out[:0] = [
        _Undetermined(
            "rotation", f"the rotation about {_direction(image, fit.rotation)}: σ = inf deg", why
        ),
        _Undetermined("translation", "the translation in any direction: σ = inf m", why),
    ]
    across = np.eye(7)
    across[_R, _R] -= np.outer(image, image)
    cov[:] = across @ cov @ across.T
    cov[_T, :] = np.nan
    cov[:, _T] = np.nan
    along = np.abs(motions.t_b @ screw)
    still = any(u.why == _ESTIMATE_STILL for u in out)  # kept: 1 is given
    if with_scale and not still and not float(np.max(along)) > _SCREW_SHARE * motions.length_m:
        out = [u for u in out if u.part != "scale"]
        out.append(
            _Undetermined(
                "scale",
                "the scale: σ = inf",
                "no information: the reference turns about one line and does not move along it",
            )
        )
        cov[_S, :] = np.nan
        cov[:, _S] = np.nan
    return out


def _rms_of_rows(rows: Float64Array) -> float:
    """Return ``sqrt(mean_i |rows_i|²)``: ``sqrt(3)`` times the RMS of the components.

    ErrorStats' scaled RMS (:func:`robot_msgs.compare.statistics._rms`), finite and exact
    at any magnitude: ``sqrt(mean(sum(res²)))`` was 0 for residuals below ~1e-162 and inf
    above ~1e154 (a review).
    """
    flat = rows.reshape(-1)
    return math.sqrt(rows.shape[1]) * _rms(flat, float(np.max(np.abs(flat))))


def _along(axis: tuple[float, float, float], image: Float64Array) -> bool:
    """Say whether ``axis`` (a unit vector) lies along ``image`` within 10 deg, either way."""
    return abs(float(np.dot(axis, image))) / float(np.linalg.norm(image)) > _AXIS_COS


def _result(
    motions: _Motions,
    fit: _Fit,
    *,
    with_scale: bool,
    limits: tuple[float, float, float],
    refuse: bool,
    screw: Float64Array | None = None,
) -> tuple[Extrinsic, tuple[_Undetermined, ...]]:
    free = np.arange(7 if with_scale else 6)
    cov, nulls = _covariance(motions, fit, free)
    unobservable = _unobservable(fit, cov, nulls, with_scale=with_scale, limits=limits)
    if screw is not None:
        unobservable = _screw_unobservable(
            motions, fit, cov, screw, unobservable, with_scale=with_scale
        )
    if refuse and unobservable:
        said = [  # a reason two items share, said after the second
            u.said if u.why and u.why == after.why else u.text
            for u, after in pairwise(unobservable)
        ] + [unobservable[-1].text]
        msg = (
            "Cannot estimate the extrinsic: the motion does not determine "
            + "; ".join(u.removeprefix("the ") if i == 0 else u for i, u in enumerate(said))
            + f" ({motions.size} motions of {motions.n_poses} poses); relative motions "
            "determine the extrinsic when they turn about two different axes; give it as "
            "`transform_right=` instead"
        )
        raise AlignmentError(msg)
    notes: list[str] = []
    scale = fit.scale if with_scale else 1.0
    no_scale = any(u.why == _ESTIMATE_STILL for u in unobservable)
    if no_scale:
        scale = 1.0
        notes.append("the scale is not determined (the estimate does not move): 1 is given")
    elif not scale > 0:
        msg = (
            f"Cannot estimate the extrinsic: the fitted scale is {fit.scale:.3g}: the "
            "estimate's and the reference's motions do not agree; check the association"
        )
        raise AlignmentError(msg)
    for v in nulls:
        touched = np.abs(v) > 1e-6
        cov[touched, :] = np.nan
        cov[:, touched] = np.nan
    scale_std = 0.0
    if with_scale:
        scale_std = math.sqrt(max(float(cov[_S, _S]), 0.0))
        if no_scale:
            scale_std = math.nan
    res = fit.residuals
    if motions.size < _FEW_PAIRS:
        notes.append(f"only {motions.size} motions: the uncertainty is itself uncertain")
    extrinsic = Extrinsic(
        rotation=fit.rotation,
        translation_m=fit.translation,
        scale=scale,
        with_scale=with_scale,
        covariance_6x6=cov[:6, :6],
        scale_std=scale_std,
        n_poses=motions.n_poses,
        n_pairs=motions.size,
        strides=motions.strides,
        pair_index=np.stack([motions.i, motions.j], axis=1).astype(np.int64),
        residual_translation_m=res[:, :3],
        residual_rotation_rad=res[:, 3:],
        rms_m=_rms_of_rows(res[:, :3]),
        rms_deg=math.degrees(_rms_of_rows(res[:, 3:])),
        unobservable=tuple(u.text for u in unobservable),
        notes=tuple(notes),
    )
    return extrinsic, tuple(unobservable)
