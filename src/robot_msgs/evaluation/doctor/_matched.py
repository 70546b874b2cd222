"""The checks of matched poses, in their order, and the stop at an offset not known.

:func:`_matched_checks` runs what the poses matched (in time or in space) are checked
for (:data:`._rules._MATCHED_KINDS`): a side standing still, another sequence, an
inverted or mirrored estimate, then planar, quaternion order, extrinsic, scale, the fit
and the worst intervals, each with its module's check (:mod:`._motion_mismatch`,
:mod:`._frames`, :mod:`._fit`); a stop names the checks it leaves unrun.
:func:`_untold_checks` compares only the motions at an offset the clock checks
(:mod:`._clock`) do not believe. Each threshold is stated in
:mod:`robot_msgs.evaluation.doctor`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AlignmentError, AssociationError
from robot_msgs.evaluation.alignment import align
from robot_msgs.evaluation.association import associate
from robot_msgs.evaluation.doctor._fit import _alignment, _lat_lon, _scale, _worst_intervals
from robot_msgs.evaluation.doctor._frames import _extrinsic, _planar, _turned
from robot_msgs.evaluation.doctor._motion_mismatch import _still, _unrelated
from robot_msgs.evaluation.doctor._noise import _noise_resolved
from robot_msgs.evaluation.doctor._rules import _MATCHED_KINDS, _MIN_FIRST, _unrun_said
from robot_msgs.evaluation.quaternion_order import quaternion_order_mix_up

if TYPE_CHECKING:
    from robot_msgs.evaluation.association import Association
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array


def _untold_checks(
    domain: Finding,
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    checks: list[str],
    offset_s: float,
) -> list[Finding]:
    """Compare the motions at the best offset the motion does not tell, and nothing more.

    ``domain`` says that offset is not known; it gains the checks left unrun. WHY: the
    checks went on with it as if known: two random walks at 20 Hz, 3 900 s apart, were
    said "no pose matched ... raise --max-diff" (its best fit -3957.3746 s falls between
    stamps), two smooth paths gained an extrinsic and a fit's drift. Poses matched at the
    best fit can still show another sequence (motion_mismatch): no offset lines it up
    better; what a fit or the coverage says there is said at an offset not believed.
    """
    settings = settings.replace(offset_s=offset_s, offset_auto=False, offset_search_s=None)
    found: list[Finding] = []
    try:
        association = associate(reference, estimate, settings)
    except AssociationError:
        association = None
    if association is not None and association.n_matched >= _MIN_FIRST:
        found = _matched_checks(association, settings, checks, (reference, estimate), told=False)
    return [_unrun_said(domain, checks), *found]


def _matched_checks(
    association: Association,
    settings: EvaluationSettings,
    checks: list[str],
    inputs: tuple[PoseTrajectory, PoseTrajectory],
    *,
    told: bool = True,
    columns: tuple[bool, bool] = (True, True),
) -> list[Finding]:
    """Check the matched poses: scale, quaternion order, extrinsic, alignment, intervals.

    ``inputs``: the reference and the estimate the association matched (its indices' rows).
    ``told=False``: matched at an offset not known, whether the motions belong together
    only (:func:`_untold_checks`). ``columns``: the sides whose quaternions were read from
    columns (:func:`~robot_msgs.evaluation.quaternion_order.quaternion_order_check`).
    """
    mismatch, inverted, mirrored, planar_kind, *fit_kinds = _MATCHED_KINDS

    def stop(finding: Finding) -> list[Finding]:
        # WHY named: "another sequence", a turned estimate and a failed fit were the only
        # lines, the checks after them unrun and unsaid (at an offset not known,
        # _untold_checks names them).
        spatial = settings.sync == "spatial"
        return [_unrun_said(finding, checks, "", spatial=spatial) if told else finding]

    if association.n_matched < _MIN_FIRST:
        # WHY said: nine poses matched left the checks below unrun, which only
        # Diagnosis.checks recorded; the doctor printed the coverage alone. WHY here:
        # matched in space (sync='spatial'), 4 poses were checked, and nothing found.
        # WHY by stop: its own "not run: " list was the one stop worded apart.
        return stop(
            Finding(
                kind="alignment",
                severity="info",
                summary=f"only {association.n_matched} pose(s) matched, fewer than the "
                f"{_MIN_FIRST} the checks of matched poses need",
                evidence={"matched": association.n_matched},
            )
        )
    out: list[Finding] = []
    ref, est = association.reference, association.estimate
    method = settings.align if settings.align != "none" else "se3"
    # A side standing still first: its distances do not correlate either, and "another
    # sequence" would not say which side holds no motion; one at a single point fails the
    # alignment, which advised align='origin' for a pair no alignment makes meaningful.
    resolved = _noise_resolved(inputs[0], association.reference_index, ref) and (
        _noise_resolved(inputs[1], association.estimate_index, est)
    )
    wrong = _still(ref, est, settings, resolved=resolved)
    if wrong is not None:
        checks.append(mismatch)
        return stop(wrong)
    degrees = _lat_lon(ref, est)
    if degrees is not None:  # no fit, extrinsic or motion in degrees means anything
        checks.append("scale")
        return stop(degrees)
    try:
        aligned, fitted = align(ref, est, settings=settings.replace(align=method))
    except AlignmentError as err:
        if not told:  # said unrun by _untold_checks: a fit at an offset not known
            return []
        checks.append("alignment")
        return stop(
            Finding(kind="alignment", severity="warning", summary=f"the alignment fails: {err}")
        )
    checks.append(mismatch)
    raws = ((inputs[0], association.reference_index), (inputs[1], association.estimate_index))
    wrong = _unrelated(ref, est, resolved=resolved, raws=raws)
    if wrong is None:
        checks += [inverted, mirrored]
        wrong = _turned(ref, est)
    if wrong is not None:  # no scale, extrinsic or fit means anything then
        return stop(wrong)
    if not told:
        return []
    # WHY listed here, once run: listed on entry, a side standing still, another
    # sequence or a turned estimate left scale, extrinsic, fit and intervals "checked,
    # nothing found" (Diagnosis.checks), where none of them ran.
    # WHY frame_extrinsic left out on a mix-up: it was listed as checked, never estimated.
    # WHY the fit's rotation only from a fit of rotation and translation: the others
    # (scale, origin, yaw) do not say the estimate's world frame from its positions.
    world = fitted.rotation if method in ("se3", "sim3") else None
    mix_up = _quaternion_order(ref, est, columns, world)
    skipped = ["frame_extrinsic"] if mix_up is not None else []
    checks.append(planar_kind)
    planar = _planar(ref, est, settings, aligned.positions_xyz)
    if planar is not None and planar.severity == "error":
        # WHY a stop: an axis of the motion written as 0 (KITTI 00's ORB with its z as 0,
        # APE 128 m against the file's 1.30 m), no scale or fit means anything then.
        return stop(planar)
    checks += [k for k in fit_kinds if k not in skipped]
    if planar is not None:
        out.append(planar)
    x = None
    if mix_up is not None:
        out.append(mix_up.replace(summary=f"{mix_up.summary}; not checked: frame_extrinsic"))
    else:
        extrinsic, x = _extrinsic(ref, est)
        if extrinsic is not None and settings.transform_right_auto:
            extrinsic = extrinsic.replace(severity="info", fix={})  # asked for: estimated
        if extrinsic is not None:
            out.append(extrinsic)
    scale = _scale(ref, est, settings, x)
    if scale is not None:
        out.append(scale)
        if settings.align == "none":
            method = "sim3"
            aligned = align(ref, est, settings=settings.replace(align=method))[0]
    fit = _alignment(ref, est, method, settings)
    if fit is not None:
        out.append(fit)
    worst = _worst_intervals(ref, aligned)
    if worst is not None:
        out.append(worst)
    return out


def _quaternion_order(
    ref: PoseTrajectory, est: PoseTrajectory, columns: tuple[bool, bool], world: Float64Array | None
) -> Finding | None:
    text, side = quaternion_order_mix_up(ref, est, columns=columns, world=world)
    if not text:
        return None
    fix = {"w_first": side} if side else {}
    return Finding(kind="quaternion_order", severity="warning", summary=text, fix=fix)
