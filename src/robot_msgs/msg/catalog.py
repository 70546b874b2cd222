"""One example instance per message type: the package's own test catalog.

The reference pages show these examples with their real ``repr()`` and ``to_dict()``,
and the tests round-trip every one of them, so each example is checked wherever it is
shown. Importing this module imports every message family, registering all types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs import (
    compare,
    control,
    evaluation,
    geometry,
    nav,
    rotations,
    runs,
    sensor,
    std,
    trajectory,
)
from robot_msgs.msg.interface_examples import INTERFACE_EXAMPLES

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg.base import Msg

__all__ = ["catalogued", "example", "examples"]


def _pose() -> geometry.Pose:
    half = np.sqrt(0.5)
    return geometry.Pose(
        position=geometry.Point(x=1.0, y=2.0, z=0.5),
        orientation=geometry.Quaternion(x=0.0, y=0.0, z=half, w=half),
    )


def _header() -> std.Header:
    return std.Header(stamp=std.Time(sec=1700000000, nanosec=250000000), frame_id="map")


def _covariance() -> np.ndarray:
    return np.diag([0.01, 0.01, 0.04, 0.001, 0.001, 0.002])


def _pose_trajectory() -> trajectory.PoseTrajectory:
    t = np.arange(20, dtype=np.float64) / 10.0
    yaw = t / 20.0
    return trajectory.PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, 0.5 * t * t, np.zeros_like(t)], axis=1),
        orientations_quat_xyzw=np.stack(
            [np.zeros_like(t), np.zeros_like(t), np.sin(yaw / 2), np.cos(yaw / 2)], axis=1
        ),
        frame_id="map",
        child_frame_id="base_link",
    )


def _time_offset() -> compare.TimeOffset:
    t = np.arange(0.0, 20.0, 0.05)
    reference = trajectory.PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([np.cos(t), np.sin(2.0 * t), 0.1 * t], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)),
    )
    late = reference.replace(stamps_s=t + 0.25)  # an estimate stamped 0.25 s late
    settings = evaluation.EvaluationSettings(offset_auto=True, offset_search_s=0.5)
    return evaluation.estimate_offset(reference, late, settings)


def _signal(errors: list[float]) -> compare.Signal:
    return compare.Signal(
        name="translation",
        quantity="translation",
        unit="m",
        stats=compare.error_stats(errors),
    )


def _extrinsic() -> compare.Extrinsic:
    t = np.linspace(0.0, 12.0, 24)
    turn = np.stack([0.3 * np.sin(t), 0.3 * np.cos(0.7 * t), 0.5 * t], axis=1)
    body = trajectory.PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([np.cos(t), np.sin(t), np.zeros_like(t)], axis=1),
        orientations_quat_xyzw=rotations.quat_xyzw_from_matrix(
            rotations.matrix_from_rotation_vector(turn)
        ),
    )
    mount = (0.0, -1.0, 0.0, 0.2, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    camera = evaluation.apply_transforms(body, evaluation.EvaluationSettings(transform_right=mount))
    return evaluation.estimate_extrinsic(body, camera)  # the body seen from a camera


def _spatial_match() -> compare.SpatialMatch:
    t = np.arange(0.0, 2.0, 0.1)
    q = np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1))
    reference = trajectory.PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, np.sin(t), 0.0 * t], axis=1),
        orientations_quat_xyzw=q,
    )
    estimate = reference.replace(  # half the rate, 1 cm above, on a clock 1000 s ahead
        stamps_s=t[::2] + 1000.0,
        positions_xyz=reference.positions_xyz[::2] + np.array([0.0, 0.0, 0.01]),
        orientations_quat_xyzw=q[::2],
    )
    return evaluation.associate_spatially(reference, estimate, max_distance_m=0.05)[1]


def _comparison() -> compare.Comparison:
    return compare.Comparison(
        metric="ape",
        signals=(_signal([0.012, 0.020, 0.015, 0.031]),),
        settings=evaluation.EvaluationSettings(align="se3"),
        parameters={"relation": "translation"},
        estimate="orb.tum",
        reference="groundtruth.tum",
        counts={"estimate": 4, "reference": 4, "matched": 4},
    )


def _evaluation_result() -> compare.EvaluationResult:
    reference = _pose_trajectory()
    # The estimate runs 2 % long and 5 ms late: an SE(3) fit cannot remove a scale error.
    estimate = reference.replace(
        stamps_s=reference.stamps_s + 0.005, positions_xyz=reference.positions_xyz * 1.02
    )
    return evaluation.ape(
        reference,
        estimate,
        settings=evaluation.EvaluationSettings(align="se3"),
        reference_name="groundtruth.tum",
        estimate_name="odometry.tum",
    )


def _aggregate() -> compare.Aggregate:
    runs = [
        _comparison().replace(signals=(_signal(e),), estimate=f"trial_{i}")
        for i, e in enumerate(([0.01, 0.02], [0.015, 0.025], [0.05, 0.04]))
    ]
    return compare.aggregate(
        runs, failures=["tracking lost"], group={"algorithm": "orb", "sequence": "fr1_xyz"}
    )


def _latency() -> compare.Latency:
    return compare.Latency(
        source="timing_log",
        n_frames=300,
        n_dropped=4,
        latency_p50_s=0.041,
        latency_p95_s=0.087,
        latency_max_s=0.142,
        latency_mean_s=0.048,
        processing_p50_s=0.029,
        processing_p95_s=0.051,
        processing_max_s=0.090,
        processing_mean_s=0.031,
        clock="acquisition and processing stamps from one host clock (PTP-synchronised camera)",
    )


def _resources() -> compare.Resources:
    return compare.Resources(
        n_samples=20,
        duration_s=19.0,
        peak_rss_bytes=512e6,
        mean_cpu_percent=143.0,
        peak_cpu_percent=310.5,
        peak_threads=8,
        peak_gpu_mem_bytes=1.2e9,
    )


def _repeatability() -> compare.Repeatability:
    return compare.Repeatability(
        runs=("trial_1", "trial_2", "trial_3"),
        pairwise_ape_rms_m=np.array(
            [[0.0, 0.012, 0.020], [0.012, 0.0, 0.016], [0.020, 0.016, 0.0]]
        ),
        pairwise=compare.error_stats([0.012, 0.020, 0.016]),
        endpoint_spread_m=0.011,
        endpoint_max_m=0.025,
        settings={"align": "se3", "sync": "nearest", "max_diff_s": 0.01},
    )


def _run_report() -> compare.RunReport:
    return compare.RunReport(
        name="orb/fr1_xyz/trial_1",
        success=True,
        algorithm="orb",
        version="3.0",
        dataset="tum_rgbd",
        sequence="fr1_xyz",
        trial="1",
        hardware="8-core x86-64, 32 GB",
        parameters={"features": 1000},
        software={"robot_msgs": "0.2.0"},
        n_estimate=4,
        n_valid=4,
        estimate_start_s=0.0,
        estimate_end_s=19.9,
        sequence_start_s=0.0,
        sequence_end_s=20.0,
        span_source="reference",
        losses=(compare.TrackingLoss(start_s=4.0, end_s=5.5),),
        coverage=0.92,
        comparisons={"ape:translation": _comparison()},
        latency=_latency(),
        input_rate_hz=10.0,
        nominal_input_rate_hz=10.0,
        output_rate_hz=9.9,
        resources=_resources(),
    )


def _group_summary() -> compare.GroupSummary:
    return compare.GroupSummary(
        algorithm="orb",
        sequence="fr1_xyz",
        n_runs=4,
        failures={"tracking lost": 1},
        accuracy=_aggregate(),
        signals=(
            compare.Signal(
                name="coverage",
                quantity="coverage",
                unit="1",
                stats=compare.error_stats([0.92, 0.97, 1.0]),
            ),
        ),
    )


def _ranking() -> compare.Ranking:
    return compare.Ranking(
        metric="ape",
        signal="translation",
        statistic="rms",
        unit="m",
        sequences=("fr1_xyz",),
        rows=(
            compare.RankingRow(
                algorithm="orb", position=1, mean_rank=1.0, n_runs=4, n_succeeded=3,
                mean_coverage=0.95, scores={"fr1_xyz": 0.021}, ranks={"fr1_xyz": 1.0},
            ),
            compare.RankingRow(
                algorithm="dvo", position=2, mean_rank=2.0, n_runs=3, n_succeeded=3,
                mean_coverage=1.0, scores={"fr1_xyz": 0.047}, ranks={"fr1_xyz": 2.0},
            ),
        ),
        settings={"align": "se3", "relation": "translation", "max_diff_s": 0.01},
    )  # fmt: skip


_EXAMPLES: dict[str, Callable[[], Msg]] = {
    "std/Time": lambda: std.Time(sec=1700000000, nanosec=250000000),
    "std/Duration": lambda: std.Duration(sec=1, nanosec=500000000),
    "std/Header": _header,
    "geometry/Vector3": lambda: geometry.Vector3(x=0.1, y=-0.2, z=9.81),
    "geometry/Point": lambda: geometry.Point(x=1.0, y=2.0, z=0.5),
    "geometry/Quaternion": lambda: _pose().orientation,
    "geometry/Pose": _pose,
    "geometry/Transform": lambda: geometry.Transform(
        translation=geometry.Vector3(x=0.2, y=0.0, z=0.1), rotation=_pose().orientation
    ),
    "geometry/Twist": lambda: geometry.Twist(
        linear=geometry.Vector3(x=0.5), angular=geometry.Vector3(z=0.1)
    ),
    "geometry/Accel": lambda: geometry.Accel(linear=geometry.Vector3(x=0.2, z=-9.81)),
    "geometry/Wrench": lambda: geometry.Wrench(
        force=geometry.Vector3(z=-12.5), torque=geometry.Vector3(x=0.3)
    ),
    "geometry/PoseWithCovariance": lambda: geometry.PoseWithCovariance(
        pose=_pose(), covariance=_covariance()
    ),
    "geometry/TwistWithCovariance": lambda: geometry.TwistWithCovariance(
        twist=geometry.Twist(linear=geometry.Vector3(x=0.5)), covariance=_covariance()
    ),
    "geometry/PointStamped": lambda: geometry.PointStamped(
        header=_header(), point=_pose().position
    ),
    "geometry/Vector3Stamped": lambda: geometry.Vector3Stamped(
        header=_header(), vector=geometry.Vector3(z=1.0)
    ),
    "geometry/QuaternionStamped": lambda: geometry.QuaternionStamped(
        header=_header(), quaternion=_pose().orientation
    ),
    "geometry/PoseStamped": lambda: geometry.PoseStamped(header=_header(), pose=_pose()),
    "geometry/PoseWithCovarianceStamped": lambda: geometry.PoseWithCovarianceStamped(
        header=_header(), pose=geometry.PoseWithCovariance(pose=_pose(), covariance=_covariance())
    ),
    "geometry/TransformStamped": lambda: geometry.TransformStamped(
        header=_header(),
        child_frame_id="base_link",
        transform=geometry.Transform(translation=geometry.Vector3(x=1.0, y=2.0, z=0.5)),
    ),
    "geometry/TwistStamped": lambda: geometry.TwistStamped(
        header=_header(), twist=geometry.Twist(linear=geometry.Vector3(x=0.5))
    ),
    "geometry/TwistWithCovarianceStamped": lambda: geometry.TwistWithCovarianceStamped(
        header=_header(),
        twist=geometry.TwistWithCovariance(
            twist=geometry.Twist(linear=geometry.Vector3(x=0.5)), covariance=_covariance()
        ),
    ),
    "geometry/AccelStamped": lambda: geometry.AccelStamped(
        header=_header(), accel=geometry.Accel(linear=geometry.Vector3(x=0.2))
    ),
    "geometry/WrenchStamped": lambda: geometry.WrenchStamped(
        header=_header(), wrench=geometry.Wrench(force=geometry.Vector3(z=-12.5))
    ),
    "nav/Odometry": lambda: nav.Odometry(
        header=std.Header(stamp=std.Time(sec=12, nanosec=0), frame_id="odom"),
        child_frame_id="base_link",
        pose=geometry.PoseWithCovariance(pose=_pose(), covariance=_covariance()),
        twist=geometry.TwistWithCovariance(twist=geometry.Twist(linear=geometry.Vector3(x=0.5))),
    ),
    "nav/Path": lambda: nav.Path(
        header=_header(),
        poses=(
            geometry.PoseStamped(header=_header(), pose=geometry.Pose()),
            geometry.PoseStamped(header=_header(), pose=_pose()),
        ),
    ),
    "sensor/JointState": lambda: sensor.JointState(
        header=_header(),
        name=("shoulder", "elbow"),
        position=(0.1, -1.2),
        velocity=(0.0, 0.05),
    ),
    "trajectory/JointTrajectoryPoint": lambda: trajectory.JointTrajectoryPoint(
        positions=(0.0, 1.0), time_from_start=std.Duration(sec=1)
    ),
    "trajectory/JointTrajectory": lambda: trajectory.JointTrajectory(
        header=_header(),
        joint_names=("shoulder", "elbow"),
        points=(
            trajectory.JointTrajectoryPoint(
                positions=(0.0, 0.0), time_from_start=std.Duration(nanosec=500000000)
            ),
            trajectory.JointTrajectoryPoint(
                positions=(0.5, -1.0), time_from_start=std.Duration(sec=2)
            ),
        ),
    ),
    "trajectory/PoseTrajectory": _pose_trajectory,
    "compare/ErrorStats": lambda: compare.error_stats([-0.001, 0.002, 0.003]),
    "compare/Comparison": _comparison,
    "compare/Aggregate": _aggregate,
    "compare/ErrorSeries": lambda: compare.ErrorSeries(
        stamps_s=np.array([0.0, 0.1, 0.2, 0.3]), errors=np.array([0.012, 0.020, 0.015, 0.031])
    ),
    "compare/EvaluationResult": _evaluation_result,
    "compare/Signal": lambda: compare.Signal.of(
        "translation", "m", [0.012, 0.020, 0.015, 0.031], stamps_s=[0.0, 0.1, 0.2, 0.3]
    ),
    "compare/Estimates": lambda: compare.Estimates(time_offset=_time_offset()),
    "evaluation/EvaluationSettings": lambda: evaluation.EvaluationSettings(
        align="sim3", n_align=300, sync="one_to_one", max_diff_s=0.02, t_start_s=1305031102.5
    ),
    "evaluation/PairSettings": lambda: evaluation.PairSettings(
        delta=1.0, delta_unit="s", all_pairs=True
    ),
    "evaluation/ReadSettings": lambda: evaluation.ReadSettings(repeated_stamps="last"),
    "evaluation/Ape": lambda: evaluation.Ape(relation="angle_deg"),
    "evaluation/Rpe": lambda: evaluation.Rpe(
        pairs=tuple(evaluation.PairSettings(delta=d, delta_unit="s") for d in (1.0, 5.0))
    ),
    "evaluation/Drift": lambda: evaluation.Drift(protocol="kitti", lengths_m=(100.0, 200.0)),
    "runs/MetricSpec": lambda: runs.MetricSpec.build(
        "rpe",
        relation="angle_deg",
        pairs=evaluation.PairSettings(delta=10.0, delta_unit="m", all_pairs=True),
    ),
    "runs/RunSettings": lambda: runs.RunSettings(
        evaluation=evaluation.EvaluationSettings(align="sim3", max_diff_s=0.02),
        metrics=runs.default_metrics((1.0, 5.0), "s"),
        statistic="median",
    ),
    "compare/Alignment": lambda: compare.Alignment(
        method="sim3",
        rotation=np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
        translation_m=np.array([1.5, -0.25, 0.0]),
        scale=0.43,
        n_fit=788,
    ),
    "control/TrackingSettings": lambda: control.TrackingSettings(
        interpolation="previous", delay_s=0.02, step_info=True, settling_threshold=0.05
    ),
    "compare/StepResponse": lambda: control.step_response(
        [0.0, 0.5, 1.0, 1.5, 2.0, 2.5], [0.0, 0.55, 0.95, 1.06, 1.01, 1.0], final=1.0
    ),
    "compare/TimeOffset": _time_offset,
    "compare/Extrinsic": _extrinsic,
    "compare/SpatialMatch": _spatial_match,
    "compare/Finding": lambda: compare.Finding(
        kind="time_offset",
        severity="warning",
        summary="the estimate's stamps are 0.3000 s ± 0.0004 s early against the reference's",
        evidence={"offset_s": 0.3, "std_s": 0.0004},
        fix={"offset_s": 0.3},
    ),
    "compare/Diagnosis": lambda: compare.Diagnosis(
        reference="example:fr1_xyz/groundtruth.tum",
        estimate="early.tum",
        findings=(
            compare.Finding(
                kind="time_offset",
                severity="warning",
                summary="the estimate's stamps are 0.3000 s ± 0.0004 s early against the "
                "reference's",
                evidence={"offset_s": 0.3, "std_s": 0.0004},
                fix={"offset_s": 0.3},
            ),
        ),
        checks=("stamp_units", "clock_domain", "time_offset"),
    ),
    "compare/TrackingLoss": lambda: compare.TrackingLoss(start_s=4.0, end_s=5.5),
    "compare/Latency": _latency,
    "compare/Resources": _resources,
    "compare/Repeatability": _repeatability,
    "compare/RunReport": _run_report,
    "compare/GroupSummary": _group_summary,
    "compare/RankingRow": lambda: _ranking().rows[0],
    "compare/Ranking": _ranking,
    "compare/Report": lambda: compare.Report(
        runs=(_run_report(),),
        groups=(_group_summary(),),
        ranking=_ranking(),
        settings={"align": "se3"},
        tool_version="0.2.0",
    ),
    **INTERFACE_EXAMPLES,
}


def catalogued() -> tuple[str, ...]:
    """Name every catalogued type (``"_type"``) without building its example.

    Building all examples takes a second (a clock-offset estimate among them); a caller
    that only asks which types have one reads this instead.

    Examples
    --------
    >>> "compare/TimeOffset" in catalogued()
    True
    """
    return tuple(_EXAMPLES)


def examples() -> dict[str, Msg]:
    """Build a fresh example of every catalogued type, by ``"_type"``."""
    return {name: make() for name, make in _EXAMPLES.items()}


def example(type_name: str) -> Msg:
    """Build the catalogue's example of ``type_name`` (``"compare/ErrorStats"``)."""
    return _EXAMPLES[type_name]()
