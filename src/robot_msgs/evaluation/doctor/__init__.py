"""Before the number: what is wrong with an evaluation's setup, found and named.

:func:`diagnose` runs the checks a careful evaluator makes on a reference and an estimate
and returns a :class:`~robot_msgs.compare.Diagnosis`: one
:class:`~robot_msgs.compare.Finding` per problem, with a stable ``kind``
(:data:`~robot_msgs.compare.diagnosis.FINDING_KINDS`), a severity, its evidence and the
settings that fix or accept it. :func:`diagnose_files` reads the files first and turns
what the readers fixed (repeated or unordered stamps, non-unit quaternions, implausible
rates) into findings too. Nothing is written: the doctor never changes files.

Each check is the package's own, run once here (one road per idea):

- reading: the readers' rules (:mod:`robot_msgs.io.clean`), each warning tagged with its
  kind;
- ``same_input``: the reference's file given again, as read
  (:func:`~robot_msgs.io.read_inputs`), else its very stamps and poses
  (:func:`~robot_msgs.evaluation.pipeline.same_poses`);
- ``stamp_units``: the spans of the two trajectories a power of 1000 apart, or both
  sides' poses minutes apart and crawling where milliseconds or microseconds would be a
  robot's rate and speed; frame indices on one side, or on both with different pose
  counts (matched by index: :func:`~robot_msgs.evaluation.pipeline.frames_by_index`);
  matched in space, a warning unless a setting reads that side's stamps (the time range,
  the alignment window: ``_in_space``; not ``offset_auto``, unused in space);
- ``clock_domain`` and ``time_offset``: :func:`~robot_msgs.evaluation.estimate_offset`,
  over the span that puts the estimate inside the reference when they hardly overlap
  (a different recording start; kept when the estimator notes nothing of its optimum,
  its uncertainty is at most 4 % of the estimate's span (``_clock._LOOSE_SHARE``), the
  estimate's two halves, timed alone, agree (each of at least 10 poses) and, where the
  evaluation fits no scale, the same search with a scale fitted finds its best fit there
  too; else only whether the
  motions belong together is checked at its best fit, the checks left unrun named), else over
  the evaluation's range (``offset_search_s`` with ``offset_auto``, else ±1 s: a clock
  error) and, when its optimum lies at the edge, its curve is flat or it finds none,
  once more over every offset that keeps half the estimate inside the reference (a
  clock error of seconds); an offset is kept only when the poses it shares with the
  evaluation's offset fit better too
  (:func:`~robot_msgs.evaluation.offset.shared_costs`: not a fit over fewer poses); when
  none is told and the evaluation fits no scale, all of it once more with a scale fitted
  in the cost (a monocular or millimetre estimate), kept when the poses matched at the
  offset it finds fit with a scale off as ``scale`` says; when none is found and the
  wider search is refused because its offsets lie too far apart for the motion
  (:func:`~robot_msgs.evaluation.offset.coarse_offsets`), a warning that the clock cannot
  be timed, with the estimator's reason, and no check of poses matched at an unknown
  offset; when none is told either way, once more with the estimate's poses inverted and
  with its positions mirrored, kept when the poses matched at the offset found are then
  found ``inverted`` or ``mirrored``; every search whose offset is said (not the
  halves' of the far one, which only check it) refuses an offset at which fewer than 10
  reference poses (what the checks of matched poses need) lie within the estimate's span
  (the wider search so refused, or the first where none wider is made: the same warning,
  with that reason); an offset found as written, with no note but "poorly determined",
  is timed once more with one fit per window of 10 s (100 frames of frame indices;
  :func:`~robot_msgs.evaluation.offset.windowed_offset`: a long run's drift left out),
  which then decides, significant or not, except where the whole run is significant
  and spans fewer than 8 whole windows; an offset within 10 % of the estimate's median
  step is said to be about one frame (the rows may be paired one frame apart), and
  frame indices, paired whole, say where the motion lines up;
- ``rate_mismatch``: the association's counts (:func:`~robot_msgs.evaluation.associate`);
- ``coverage``: :func:`robot_msgs.runs.losses.coverage` on the estimate's stamps, gaps
  longer than 10 median intervals counted as lost; an estimate whose last pose is such a
  gap and 5 % of the reference's span before the reference's end stops early (a tracking
  loss never recovered), said with its stop, and an offset its poses give is said there,
  not told as a fix (``_coverage_rates._stops_early``), unless at that offset it ends
  where the reference does (a clock offset, told);
- ``scale``, ``alignment``: :func:`~robot_msgs.evaluation.umeyama` and
  :func:`~robot_msgs.evaluation.align`; an estimate whose x, y are latitude and
  longitude (within their ranges, far from 0 against their spread, 1e-6 to 1e-3 of the
  reference's spread a metre, within 1 deg of (0, 0) only with z moving as metres:
  ``_fit._lat_lon``) is an error, told as an ``lla`` file;
- ``quaternion_order``: :func:`~robot_msgs.evaluation.quaternion_order.quaternion_order_mix_up`,
  given the rotation of an se3 or sim3 fit of the positions (the whole orientations
  compared too: a constant offset as read is a frame, not an order);
- ``frame_extrinsic``: :func:`~robot_msgs.evaluation.estimate_extrinsic`; told with a
  clock offset, the whole diagnosis is made once more with it applied, and an offset
  that then vanishes is said as its lever arm's (``_lever_arm``), not the clock's;
- ``worst_intervals``: :func:`~robot_msgs.evaluation.ape_errors` and
  :func:`~robot_msgs.evaluation.rpe_errors` over ten equal time windows, when they are
  more than float64 rounding (an RMS above 1e-12 of the positions' magnitude).

The checks live in modules named after what they look at: ``_stamps`` (units, frame
indices, the time range), ``_clock`` (the recording start), ``_offset_search`` (the
offset), ``_coverage_rates`` (coverage, rates), ``_motion_mismatch`` (another sequence,
a side standing still or held between jumps), ``_noise`` (a side's noise a pose, their
yardstick), ``_frames`` (inverted, mirrored, planar, the extrinsic), ``_fit`` (scale,
the fit, the worst intervals); ``_matched`` runs the checks of matched poses in their
order; ``_rules`` holds the thresholds below, the lists of kinds and the wording of
those a stop leaves unrun.

Thresholds (chosen so that the clean pairs of the evo test data give no warning, measured
in ``tests/evaluation/test_doctor.py``): an offset is a warning when it exceeds both 3
standard uncertainties and the matching tolerance ``max_diff_s`` (one found only by the
wider search is kept when the estimator notes nothing about it; one at the edge of the
widest search is a warning without a fix: the offset is unknown); a scale when it is
more than 10 % from 1; an extrinsic when it is significant at 3 standard uncertainties
and turns by more than :data:`EXTRINSIC_DEG` or moves by more than
:data:`EXTRINSIC_M` (``freiburg1_xyz`` rgbdslam has its own 1 deg, 5 cm, against its
ground truth) and, applied, lowers the APE of what makes it one (rotations, positions;
Sim(3) fit) to 80 % (``_frames._LOWERED``: fr1's rgbdslam cut to its first 30 %, said
1.97 deg, 0.133 m, raised it from 0.0137 to 0.0149 m); coverage when gaps take 5 % of
the estimate's span or it covers less than half the reference.

Cost: the offset and the extrinsic are estimated on at most :data:`MAX_ESTIMATE_POSES`
evenly spread poses (the doctor asks whether they are significant; their uncertainty
grows as ``sqrt(N / 5 000)`` beyond). Measured by ``benchmarks/bench_doctor.py``:
with all poses, ``diagnose`` took 4.4 s at 10^5 poses (offset 3.5 s, extrinsic 2.1 s
under the profiler); with the cap, see the benchmark's table. The wider offset search
is one more estimate (at most 401 offsets on 4 000 poses, or up to 4 001 on fewer for a
motion faster than 401 resolve): 0.3-0.5 s of a 1-2 s doctor on the evo test data
stamped 3-5 s late, and none on their clean pairs; 1.1 s for a 365 s estimate of a
motion that decorrelates within 0.5 s (4 000 offsets). The inverted and mirrored searches
run where no offset is told and the first is not known within
:data:`._offset_search._TIMED_S`: 0.3-0.4 s on the evo test data's ROS bag and nav2
pairs, none on the TUM, EuRoC and KITTI ORB pairs.
The windowed timing runs where an offset found as written is not significant: 0.01-0.3 s
on the evo test data's clean TUM, EuRoC and KITTI ORB pairs (0.3 s of a 3.9 s doctor
on KITTI 00).
A far offset an SE(3) fit tells is searched once more with a scale fitted: 0.05-0.13 s
of a 0.3-0.7 s doctor on fr1 rgbdslam, fr2_desk ORB and V102 10 000 s late, 0.2 s of
1.4 s on ROS_example's ORB-SLAM (8 362 poses).
"""

from __future__ import annotations

import warnings
from collections import abc
from typing import TYPE_CHECKING

from robot_msgs.compare.diagnosis import SEVERITIES, Diagnosis, Finding
from robot_msgs.errors import AssociationError, DataWarning, ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.association import associate
from robot_msgs.evaluation.doctor._clock import _apart, _clock_domain, _spatial_fix
from robot_msgs.evaluation.doctor._coverage_rates import _coverage, _rate_mismatch, _stops_early
from robot_msgs.evaluation.doctor._matched import _matched_checks, _untold_checks
from robot_msgs.evaluation.doctor._offset_search import _time_offset
from robot_msgs.evaluation.doctor._rules import (
    _READING_SEVERITY,
    EXTRINSIC_DEG,
    EXTRINSIC_M,
    MAX_ESTIMATE_POSES,
    TIMED_KINDS,
    _unrun_said,
    not_checked,
)
from robot_msgs.evaluation.doctor._stamps import _in_range, _in_space, _range_missed, _stamp_units
from robot_msgs.evaluation.pipeline import (
    match_poses,
    same_poses,
    time_range,
)
from robot_msgs.evaluation.settings import EvaluationSettings, check_inputs
from robot_msgs.evaluation.spatial import check_forward_pairs
from robot_msgs.evaluation.transforms import apply_transforms
from robot_msgs.trajectory import PoseTrajectory  # noqa: TC001 - the doctests use it

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.evaluation.read_settings import ReadSettings
    from robot_msgs.io.evaluation_inputs import InputFile


__all__ = [
    "EXTRINSIC_DEG",
    "EXTRINSIC_M",
    "MAX_ESTIMATE_POSES",
    "TIMED_KINDS",
    "diagnose",
    "diagnose_files",
    "not_checked",
]

#: The formats whose quaternions are columns, the layout whose order can be mixed up.
_COLUMNS = ("tum", "euroc")


def _reading_findings(reading: Sequence[Warning]) -> list[Finding]:
    """Turn the readers' tagged warnings into findings (untagged ones are left out).

    A warning said again is one finding: the same file given as both sides is read, and
    warned of, twice (``doctor one.txt one.txt`` listed its one pose twice).
    """
    out: list[Finding] = []
    try:
        given = list(reading)
    except TypeError as err:  # None or a number raised TypeError (not iterable)
        msg = f"Expected `reading` as a sequence of warnings, got {type(reading).__name__}"
        raise ValidationError(msg, field="reading", reason=msg) from err
    for warning in given:
        kind = getattr(warning, "kind", "")
        text = str(warning)
        if any(f.kind == kind and f.summary == text for f in out):
            continue
        if isinstance(warning, DataWarning) and kind in _READING_SEVERITY:
            severity = _READING_SEVERITY[kind]
            if kind == "stamp_units" and warning.fixed:
                severity = "warning"  # the reader converted them: the file is wrong, not the run
            out.append(
                Finding(
                    kind=kind,  # type: ignore[arg-type]  # checked against the table
                    severity=severity,  # type: ignore[arg-type]
                    summary=text,
                    evidence={"reader": text},
                )
            )
    return out


def diagnose(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
    *,
    reading: Sequence[Warning] = (),
    reference_name: str = "",
    estimate_name: str = "",
    quaternion_columns: tuple[bool, bool] = (True, True),
) -> Diagnosis:
    """Run every check on ``estimate`` against ``reference`` and report what is wrong.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test, as read; neither is modified.
    settings : EvaluationSettings, optional
        The settings the evaluation would use (its time range cuts the reference, as
        the evaluation's does, and the estimate's poses stamped outside it at the offset
        are left out of the overlap and coverage; its transforms are applied first, its
        offset, sync, tolerance and alignment are the starting point of the checks).
    reading : sequence of Warning
        The warnings reading the two files gave (:func:`diagnose_files` passes them):
        the tagged :class:`~robot_msgs.errors.DataWarning` s become findings.
    reference_name, estimate_name : str
        Labels of the inputs, kept in the diagnosis.
    quaternion_columns : tuple of bool
        Whether each side's quaternions were read from columns (TUM, EuRoC), which the
        quaternion-order check may reorder
        (:func:`~robot_msgs.evaluation.quaternion_order.quaternion_order_check`'s
        ``columns``; :func:`diagnose_files` says it from the formats).

    Returns
    -------
    Diagnosis
        The findings, most serious first, and the kinds checked.

    Raises
    ------
    AssociationError
        No reference pose in the time range (``t_start_s``/``t_end_s``), as the evaluation
        refuses it (:func:`~robot_msgs.evaluation.prepare`).
    ValidationError
        A trajectory with no poses: there is nothing to diagnose.
        ``spatial_pairs="first"``: the extrinsic, quaternion-order and worst-interval
        checks compare the motion between matched poses, which needs pairs that run
        forward on both sides (:func:`~robot_msgs.evaluation.spatial.check_forward_pairs`).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.arange(0.0, 30.0, 0.05)
    >>> turn = np.stack([0.4 * np.sin(t), 0.3 * np.cos(0.7 * t), 0.5 * np.sin(0.3 * t)], 1)
    >>> from robot_msgs.rotations import matrix_from_rotation_vector, quat_xyzw_from_matrix
    >>> ref = PoseTrajectory(
    ...     stamps_s=t + 1e9, positions_xyz=np.stack([np.cos(t), np.sin(2 * t), 0.1 * t], 1),
    ...     orientations_quat_xyzw=quat_xyzw_from_matrix(matrix_from_rotation_vector(turn)))
    >>> diagnose(ref, ref.replace(stamps_s=t + 1e9 + 0.3)).kinds()
    ('time_offset',)
    """
    settings = EvaluationSettings() if settings is None else settings
    check_inputs(reference, estimate, settings)
    check_forward_pairs(settings, "the doctor")
    for side, trajectory in (("reference", reference), ("estimate", estimate)):
        if len(trajectory) == 0:
            msg = f"Cannot diagnose: the {side} trajectory has no poses"
            raise ValidationError(msg, field=side, reason="has no poses")
    # The evaluation's time range, cut where the evaluation cuts it (prepare): refused as
    # ape refuses it when no reference pose is left.
    cut = time_range(reference, settings.t_start_s, settings.t_end_s)[0]
    findings = _reading_findings(reading)
    # as the file was read: the same file, said without its errors (the reader knows no
    # transform), which are said here
    said = next((k for k, f in enumerate(findings) if f.kind == "same_input"), None)
    if same_poses(reference, estimate):  # every error is zero; checked on
        # Moved by its transforms or --offset, its errors are theirs, not zero (5 m said
        # zero under `--transform-left` of 5 m).
        moved = settings.offset_s != 0.0 or not same_poses(
            reference, apply_transforms(estimate, settings)
        )
        zero = "" if moved else ": every error is zero to float64 rounding"
        if said is not None:
            findings[said] = findings[said].replace(summary=findings[said].summary + zero)
        else:
            findings.append(
                Finding(
                    kind="same_input",
                    severity="warning",
                    summary=f"the estimate's stamps and poses are the reference's (its file "
                    f"copied?){zero}",
                    evidence={"poses": len(reference)},
                )
            )
    given = estimate  # as read: timed once more with an extrinsic found (_lever_arm)
    checks: list[str] = ["same_input", "stamp_units"]  # the clock's added as it is compared
    found = [_in_space(f, settings) for f in (_stamp_units(reference, estimate, settings),) if f]
    if any(f.kind == "stamp_units" for f in findings):
        findings = [_in_space(f, settings) for f in findings]
        found = [f for f in findings if f.kind == "stamp_units" and f.severity == "error"]
    else:
        findings += found
    estimate = apply_transforms(estimate, settings)
    # A warning (frame indices matched by index) leaves the stamps usable: checked on.
    # The files' stamps are checked whole, the evaluation's slice of them from here on.
    stop = next((f for f in found if f.severity == "error"), None)
    if stop is None:
        if len(cut) >= 2 and len(estimate) >= 2:
            findings += _time_checks(reference, estimate, settings, checks, cut, quaternion_columns)
        else:  # one pose: no motion, but its stamp may miss
            if settings.sync != "spatial":
                checks.append("clock_domain")
                stop = _apart(cut, estimate, settings.offset_s)
            if stop is None:  # a file of one pose: the reader's finding
                stop = next((f for f in findings if f.kind == "coverage"), None)
            if stop is None:
                stop = _one_pose(cut, len(reference))
            if stop not in findings:
                findings.append(stop)
    if stop is not None:
        # WHY named: "stamps in ms read as seconds?", the reader's "1 pose only" and one
        # pose outside the other side's span were the only lines, nothing else run.
        spatial = settings.sync == "spatial"
        named = _unrun_said(stop, checks, "", spatial=spatial, found=findings)
        findings[findings.index(stop)] = named
    mounted = _lever_arm(findings, settings)
    if mounted is not None:  # timed once more with the extrinsic applied
        again = diagnose(
            reference,
            given,
            mounted,
            reading=reading,
            reference_name=reference_name,
            estimate_name=estimate_name,
            quaternion_columns=quaternion_columns,
        )
        if "time_offset" not in again.kinds():
            return _lever_arm_said(again, findings)
    order = {s: i for i, s in enumerate(SEVERITIES)}
    findings.sort(key=lambda f: order[f.severity])
    # WHY kept: the text said "--offset auto unused" in space, --json nothing (a review).
    unused = ("offset_auto",) if settings.offset_auto and not settings.searches_offset else ()
    return Diagnosis(
        reference=reference_name,
        estimate=estimate_name,
        findings=tuple(findings),
        checks=tuple(checks),
        unused_settings=unused,
    )


def _lever_arm(
    findings: Sequence[Finding], settings: EvaluationSettings
) -> EvaluationSettings | None:
    """Return ``settings`` with the extrinsic found applied, where a clock offset was told too.

    WHY: the offset is timed on positions, and a sensor's positions are the body's moved
    by its lever arm as the body turns: fr2_desk's ORB carried on a mount of 77 deg,
    0.23 m was said "stamps 0.0529 s ± 0.002 s late" (fix ``--offset -0.052891``) beside
    the extrinsic; with the extrinsic applied the motion times at 0. ``None``: no
    transform given, an offset and an extrinsic both told (warnings with their fixes).
    """
    if settings.transform_right is not None or settings.transform_right_auto:
        return None
    told = {f.kind: f.fix for f in findings if f.severity == "warning"}
    offset = told.get("time_offset", {})
    x = told.get("frame_extrinsic", {}).get("transform_right")
    if "offset_s" not in offset or not isinstance(x, tuple):
        return None
    return settings.replace(transform_right=x)


def _lever_arm_said(again: Diagnosis, findings: Sequence[Finding]) -> Diagnosis:
    """Say the diagnosis ``again`` (the extrinsic applied), with the extrinsic first found.

    Its summary says the offset the positions gave without it (``findings``' time_offset),
    which ``again`` does not find: the lever arm's, not the clock's.
    """
    offset = next(f for f in findings if f.kind == "time_offset")
    extrinsic = next(f for f in findings if f.kind == "frame_extrinsic")
    late = offset.evidence.get("offset_s", 0.0)
    said = extrinsic.replace(
        summary=f"{extrinsic.summary}; the clock offset its positions give without X "
        f"(`offset_s` {late:.3g} s) is its lever arm's: with X applied, none is found",
        evidence={**extrinsic.evidence, "offset_without_s": late},
    )
    kept = [f for f in again.findings if f.kind != "frame_extrinsic"]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return again.replace(findings=tuple(sorted([said, *kept], key=lambda f: order[f.severity])))


def _one_pose(cut: PoseTrajectory, whole: int) -> Finding:
    """Say that a side of one pose leaves every check of clocks and matched poses unrun.

    WHY: a time range that keeps one reference pose within the estimate's span (or, from
    :func:`diagnose`, a trajectory of one pose) was "nothing found", exit 0 under
    ``--check``, where ``ape`` refuses it: the doctor said all was well having checked
    nothing. A file of one pose is the reader's finding (``coverage``), said once.
    """
    whose = "the estimate" if len(cut) >= 2 else "the reference"
    where = " in the time range" if whose == "the reference" and len(cut) < whole else ""
    return Finding(
        kind="coverage",
        severity="warning",
        summary=f"{whose} has 1 pose only{where}: nothing to evaluate",
        evidence={"poses": 1},
    )


def _time_checks(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    checks: list[str],
    cut: PoseTrajectory,
    columns: tuple[bool, bool],
) -> list[Finding]:
    """Check clocks and matching, then what the matched poses show.

    The clocks are the files' (``reference`` whole); the rest is the evaluation's slice,
    the reference ``cut`` to the time range.
    """
    out: list[Finding] = []
    # WHY clock_domain listed only here: matched in space, it was listed as checked where
    # no clock was compared.
    if settings.sync == "spatial":  # stamps unused: nothing to say about clocks and rates
        try:
            association = match_poses(cut, estimate, settings)
        except AssociationError as err:  # WHY coverage: no clock was compared (a review)
            unmatched = Finding(kind="coverage", severity="error", summary=str(err))
            return [_unrun_said(unmatched, checks, "", spatial=True)]
        return _matched_checks(association, settings, checks, (cut, estimate), columns=columns)
    checks.append("clock_domain")
    domain, offset, told = _clock_domain(reference, estimate, settings)
    if domain is not None and offset is None:  # no offset found far: nothing is matched
        return [*out, _unrun_said(domain, checks)]
    if domain is not None:
        out.append(domain)
    if offset is None:
        return out
    reference = cut
    if domain is not None and not told:
        return _untold_checks(domain, reference, estimate, settings, checks, offset)
    missed = _range_missed(reference, estimate, settings, offset)
    if missed is not None:  # itself the coverage finding
        return [*out, _unrun_said(missed, checks, "", found=[missed])]
    unsaid = None
    if domain is None:
        checks.append("time_offset")
        shifted, offset = _time_offset(reference, estimate, settings)
        if shifted is not None and offset is None:  # the clock cannot be timed
            # WHY the checks named: "cannot be timed" alone read as the one thing amiss,
            # where nothing matched at an unknown offset was checked (as _untold_checks).
            return [*out, _unrun_said(shifted, checks)]
        told = shifted is not None and "offset_s" in shifted.fix
        # WHY at the offset found too: fr1's rgbdslam stamped 2 s early ends 2 s before
        # the reference, and was said to stop (the offset its poses gave, 2.005 s, held
        # back), then matched at 0 s and called another sequence (motion_mismatch). At
        # that offset it ends where the reference does: a clock offset, not a stop.
        # WHY held back only within a gap: fr1's rgbdslam stamped 0.5 s (2 s) early and cut
        # to its first half stops early at both offsets; the 0.5004 s its poses gave was
        # held back and the poses matched at 0 s, called another sequence (motion_mismatch,
        # distances correlating -0.24). An offset of more than a frame (the estimate's
        # median step) is a clock's, told beside the stop; a cut's few poses give a few
        # hundredths (0.022-0.024 s at 10-30 % of rgbdslam on time, under its 0.033 s
        # frame). WHY not a gap (10 steps, 0.33 s): 0.1 s and 0.25 s early, cut to half or
        # less, were held back too, called a scale, a sensor frame or another sequence.
        if (
            told
            and offset is not None
            and abs(offset - settings.offset_s) <= estimate.median_step_s
            and _stops_early(reference, estimate, settings)
            and _stops_early(reference, estimate, settings.replace(offset_s=offset))
        ):  # said with the stop
            unsaid, shifted, offset = shifted, None, settings.offset_s
        if shifted is not None:
            out.append(shifted)
        if offset is None:
            return out
    settings = settings.replace(offset_s=offset, offset_auto=False, offset_search_s=None)
    checks.append("coverage")
    sliced = _in_range(estimate, settings, settings.offset_s)
    gaps = _coverage(reference, estimate if sliced is None else sliced, settings, unsaid)
    if gaps is not None:
        out.append(gaps)
    try:
        association = associate(reference, estimate, settings)
    except AssociationError as err:
        # WHY the checks named, and rate_mismatch not among those run: it was listed
        # as checked, and "no pose matched" read as the one thing amiss.
        unmatched = Finding(
            kind="clock_domain",
            severity="error",
            summary=f"no pose matched: {err}",
            fix=_spatial_fix(settings),  # without --max-gap, which --sync spatial refuses
        )
        return [*out, _unrun_said(unmatched, checks, "")]
    checks.append("rate_mismatch")
    rate = _rate_mismatch(reference, estimate, association)
    if rate is not None:
        out.append(rate)
    out += _matched_checks(association, settings, checks, (reference, estimate), columns=columns)
    return out


def diagnose_files(
    inputs: Sequence[InputFile],
    settings: EvaluationSettings | None = None,
    *,
    strict: bool = False,
    geo_origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
    reading: ReadSettings | None = None,
) -> Diagnosis:
    """Read a reference and an estimate (:func:`~robot_msgs.io.read_inputs`) and diagnose them.

    What the readers fix (and would warn about) becomes findings instead of warnings,
    and so do their notes (:func:`~robot_msgs.io.clean.reading_notes`);
    ``strict``, ``geo_origin`` and ``crs`` are :func:`~robot_msgs.io.read_inputs`'s,
    ``reading`` the reading rules (repeated stamps, KITTI rotation blocks; default
    :class:`~robot_msgs.evaluation.ReadSettings`'s).

    Raises
    ------
    ValidationError
        Not exactly two inputs.
    FormatError, FileNotFoundError
        As :func:`~robot_msgs.io.read_inputs`.
    """
    from robot_msgs.evaluation.read_settings import ReadSettings  # noqa: PLC0415
    from robot_msgs.io.clean import reading_notes  # noqa: PLC0415
    from robot_msgs.io.detect import detect_format  # noqa: PLC0415
    from robot_msgs.io.evaluation_inputs import InputFile, read_inputs  # noqa: PLC0415

    # None raised TypeError (no len()), [None, None] AttributeError (no .path).
    given: object = inputs  # from callers without a type checker, anything
    listed = isinstance(given, abc.Sequence) and not isinstance(given, str | bytes)
    count = len(given) if isinstance(given, abc.Sequence) and listed else None
    if count != 2:
        got = type(given).__name__ if count is None else f"{count} inputs"
        msg = f"Expected a reference and an estimate, got {got}"
        raise ValidationError(msg, field="inputs", reason=msg)
    for name, item in zip(("inputs[0]", "inputs[1]"), inputs, strict=True):
        check_argument(name, item, InputFile)
    with reading_notes() as notes, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DataWarning)
        rules = ReadSettings() if reading is None else reading
        reference, estimate = read_inputs(
            inputs,
            strict=strict,
            geo_origin=geo_origin,
            crs=crs,
            repeated_stamps=rules.rule_for(""),
            reading=rules,
        )
    said = [
        w.message
        for w in caught
        if isinstance(w.message, DataWarning) and w.message.kind in _READING_SEVERITY
    ]
    # A TF id written backwards (robot_msgs.io.tf) waits for the diagnosis: an "inverted"
    # finding says it with the fit's evidence, and the warning would say it twice.
    turned = [w for w in caught if getattr(w.message, "kind", "") == "tf_inverted"]
    for w in caught:  # anything else is passed on as it came
        if w.message not in said and w not in turned:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    # WHY: only columns can be in another order; KITTI's blocks were said to be w-first.
    formats = [item.fmt or detect_format(item.path) for item in inputs]
    diagnosis = diagnose(
        reference,
        estimate,
        settings,
        reading=[*said, *notes],
        reference_name=inputs[0].label,
        estimate_name=inputs[1].label,
        quaternion_columns=(formats[0] in _COLUMNS, formats[1] in _COLUMNS),
    )
    for w in turned if "inverted" not in diagnosis.kinds() else ():
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return _tf_chains_turned(diagnosis, inputs)


def _tf_chains_turned(diagnosis: Diagnosis, inputs: Sequence[InputFile]) -> Diagnosis:
    """Say an inverted estimate read from a TF chain as the chain named child first.

    WHY: ``/tf:base_link.odom`` is the world's pose in the robot's frame; the doctor
    found it inverted and advised writing each pose inverted, where the fix is the id
    named parent first, ``/tf:odom.base_link`` (a review).
    """
    from robot_msgs.io.tf import is_tf_id, parse_tf_id  # noqa: PLC0415

    topic = inputs[1].topic
    if topic is None or not is_tf_id(topic) or "inverted" not in diagnosis.kinds():
        return diagnosis
    tf_topic, parent, child, static = parse_tf_id(topic)
    turned = f"{tf_topic}:{child}.{parent}" + ("" if static == "/tf_static" else f":{static}")
    findings = tuple(
        f.replace(
            summary=f.summary.replace(
                "write each pose inverted",
                f"the TF chain is {child} in {parent}'s frame: name the world first, {turned}",
            )
        )
        if f.kind == "inverted"
        else f
        for f in diagnosis.findings
    )
    return diagnosis.replace(findings=findings)
