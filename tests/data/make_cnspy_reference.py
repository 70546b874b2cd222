"""Run cnspy_trajectory_evaluation's ATE on the evo test data and store its numbers.

Produces ``tests/data/cnspy_reference.json``, which ``tests/evaluation/test_ape.py``
compares ``robot-msgs ape`` with. Each TUM file of the evo test data (and EuRoC's ground truth, see :func:`pose_rows`) is written as cnspy's
``PoseStamped`` CSV (header ``t,tx,ty,tz,qx,qy,qz,qw``, commas) by cnspy's own
``CSV2DataFrame.save_CSV``; the stored case names the written files, which the test writes
again from the TUM files with NumPy and reads with robot_msgs. cnspy's evaluation is then
what its ``TrajectoryEvaluation`` runs: ``AssociatedTrajectories`` (nearest stamp, rounded
to 6 decimals, pairs ``max_difference`` apart or more dropped, then repeated matches
dropped), ``AlignedTrajectories`` (its ``alignment_type`` fitted on the first
``num_frames`` pairs, -1 all) and ``AbsoluteTrajectoryError``, whose ``get_ARMSE()`` gives
``ARMSE_p``, the *mean* of the per-pose position error norms (m), and ``ARMSE_R``, the
mean rotation angle (degrees): not root mean squares. ``DifferentialTrajectoryError`` on
the same pairs gives the error of each pair of consecutive poses; stored: the means of its
position norms (m) and rotation angles (degrees) over the pairs.

Also ``tests/data/cnspy_nees_reference.json``, which ``tests/evaluation/test_consistency.py``
compares ``nees_values`` with: fr1_xyz's rgbdslam estimate written as cnspy's ``PoseWithCov``
CSV with the full-rank covariances of :func:`covariance_rows` (synthetic, deterministic),
matched as above (0.01 s), and cnspy's NEES of each matched pose: ``TrajectoryPoseNEES``
(6 dof, the full 6x6, its ``tau_se3`` representation) and ``TrajectoryPosOrientNEES``
(the position and orientation blocks), the estimate's error type ``type5`` (its position
error ``p_est - p_gt``, its orientation error ``Log(R_est^T R_gt)``, local).

Usage, from the repository root, in an environment with cnspy-trajectory-evaluation::

    python tests/data/make_cnspy_reference.py /path/to/evo-testdata

The stored file was made with cnspy-trajectory-evaluation 0.2.7 (cnspy-trajectory 0.2.14).
robot_msgs never imports cnspy (GPL-3.0); this script only runs it.
"""

from __future__ import annotations

import json
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "cnspy_reference.json"

#: (reference TUM file, estimate TUM file, max_difference in s)
PAIRS = (
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", 0.01),
    ("V102_groundtruth.csv", "V102.txt", 0.01),
)
#: (alignment_type, num_frames)
ALIGNMENTS = (
    ("none", -1),  # also TrajectoryEvaluation's command line default
    ("se3", -1),
    ("sim3", -1),
    ("posyaw", -1),
    ("pos", -1),
    ("se3", 100),
    ("sim3", 100),
    ("posyaw", 100),
    ("se3", 1),
    ("posyaw", 1),
)


def pose_rows(path: Path) -> np.ndarray:
    """``(N, 8)`` rows ``t tx ty tz qx qy qz qw`` (s, m) of a TUM file or EuRoC's ground truth.

    EuRoC's CSV (``V102_groundtruth.csv``: nanoseconds, ``qw`` first, 17 columns) becomes
    seconds (divided by 1e9) and ``qx qy qz qw``; ``tests/evaluation/test_ape.py``
    converts the same way.
    """
    if path.suffix == ".csv":
        raw = np.loadtxt(path, delimiter=",", comments="#")
        return np.column_stack((raw[:, 0] / 1e9, raw[:, 1:4], raw[:, 5:8], raw[:, 4]))
    return np.loadtxt(path)


def covariance_rows(n: int) -> np.ndarray:
    """``(n, 6, 6)`` full-rank covariances, ROS's order (m², rad²): ``B Bᵀ + D`` of row ``i``.

    ``B[j, k] = 0.01 cos(0.1 i + 1.3 j + 0.7 k)`` and ``D = 1e-5 diag(1 ... 6)``: symmetric
    positive definite (smallest eigenvalue at least 1e-5), correlated across all six rows.
    ``tests/evaluation/test_consistency.py`` writes the same.
    """
    i = np.arange(n, dtype=float)[:, None, None]
    j = np.arange(6, dtype=float)[None, :, None]
    k = np.arange(6, dtype=float)[None, None, :]
    b = 0.01 * np.cos(0.1 * i + 1.3 * j + 0.7 * k)
    out: np.ndarray = b @ b.transpose(0, 2, 1) + np.diag(1e-5 * np.arange(1.0, 7.0))
    return out


def _write_csv(source: Path, out: Path) -> None:
    import pandas as pd
    from cnspy_csv2dataframe.CSV2DataFrame import CSV2DataFrame
    from cnspy_spatial_csv_formats.CSVSpatialFormatType import CSVSpatialFormatType

    fmt = CSVSpatialFormatType.PoseStamped
    frame = pd.DataFrame(pose_rows(source), columns=CSVSpatialFormatType.get_format(fmt))
    CSV2DataFrame.save_CSV(frame, filename=str(out), fmt=fmt)


def main(folder: str) -> int:
    """Run cnspy and write the JSON file."""
    from cnspy_trajectory_evaluation.AbsoluteTrajectoryError import AbsoluteTrajectoryError
    from cnspy_trajectory_evaluation.AlignedTrajectories import AlignedTrajectories
    from cnspy_trajectory_evaluation.AssociatedTrajectories import AssociatedTrajectories
    from cnspy_trajectory_evaluation.DifferentialTrajectoryError import (
        DifferentialTrajectoryError,
    )
    from cnspy_trajectory_evaluation.TrajectoryAlignmentTypes import TrajectoryAlignmentTypes

    data = Path(folder)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for ref_name, est_name, max_diff in PAIRS:
            ref_csv, est_csv = Path(tmp) / "gt.csv", Path(tmp) / "est.csv"
            _write_csv(data / ref_name, ref_csv)
            _write_csv(data / est_name, est_csv)
            for kind, frames in ALIGNMENTS:
                assoc = AssociatedTrajectories(
                    fn_gt=str(ref_csv), fn_est=str(est_csv), max_difference=max_diff
                )
                aligned = AlignedTrajectories(
                    associated=assoc,
                    alignment_type=TrajectoryAlignmentTypes(kind),
                    num_frames=frames,
                )
                ate = AbsoluteTrajectoryError(
                    traj_est=aligned.traj_est_matched_aligned, traj_gt=aligned.traj_gt_matched
                )
                armse_p, armse_r = ate.traj_err.get_ARMSE()
                # The consecutive pairs' error (Q_i-1^-1 Q_i)^-1 (P_i-1^-1 P_i); its first
                # row is the identity, which get_ARMSE() averages in: left out here.
                diff = DifferentialTrajectoryError(
                    traj_est=aligned.traj_est_matched_aligned, traj_gt=aligned.traj_gt_matched
                )
                p_norm = diff.compute_RMSE_p_vec(diff.p_vec)[1:]
                q_deg = np.ravel(diff.compute_RMSE_q_vec(diff.q_vec)[1])[1:]
                cases.append(
                    {
                        "reference": ref_name,
                        "estimate": est_name,
                        "max_difference_s": max_diff,
                        "alignment_type": kind,
                        "num_frames": frames,
                        "n_matched": int(aligned.traj_gt_matched.num_elems()),
                        "ARMSE_p_m": float(armse_p),
                        "ARMSE_R_deg": float(armse_r),
                        "differential_mean_p_m": float(np.mean(p_norm)),
                        "differential_mean_R_deg": float(np.mean(q_deg)),
                    }
                )
    write_nees(data)
    out = {
        "tool": f"cnspy-trajectory-evaluation {version('cnspy-trajectory-evaluation')} "
        f"(cnspy-trajectory {version('cnspy-trajectory')})",
        "made_by": "python tests/data/make_cnspy_reference.py EVO_TESTDATA",
        "call": "AssociatedTrajectories(fn_gt, fn_est, max_difference) -> AlignedTrajectories("
        "alignment_type, num_frames) -> AbsoluteTrajectoryError(...).traj_err.get_ARMSE(); "
        "the TUM files written as PoseStamped CSV by CSV2DataFrame.save_CSV",
        "cases": cases,
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(cases)} cases)")
    return 0


def write_nees(data: Path) -> None:
    """Run cnspy's NEES on fr1_xyz with :func:`covariance_rows` and write its JSON file."""
    import pandas as pd
    from cnspy_csv2dataframe.CSV2DataFrame import CSV2DataFrame
    from cnspy_spatial_csv_formats.CSVSpatialFormat import CSVSpatialFormat
    from cnspy_spatial_csv_formats.CSVSpatialFormatType import CSVSpatialFormatType
    from cnspy_spatial_csv_formats.ErrorRepresentationType import ErrorRepresentationType
    from cnspy_spatial_csv_formats.EstimationErrorType import EstimationErrorType
    from cnspy_trajectory.Trajectory import Trajectory
    from cnspy_trajectory.TrajectoryEstimated import TrajectoryEstimated
    from cnspy_trajectory_evaluation.AssociatedTrajectories import AssociatedTrajectories
    from cnspy_trajectory_evaluation.EstimationTrajectoryError import EstimationTrajectoryError
    from cnspy_trajectory_evaluation.NEES import chi_square_confidence_bounds
    from cnspy_trajectory_evaluation.TrajectoryPoseNEES import TrajectoryPoseNEES
    from cnspy_trajectory_evaluation.TrajectoryPosOrientNEES import TrajectoryPosOrientNEES

    ref_name, est_name, max_diff = PAIRS[0]
    upper = np.triu_indices(6)
    with tempfile.TemporaryDirectory() as tmp:
        ref_csv, est_csv = Path(tmp) / "gt.csv", Path(tmp) / "est.csv"
        _write_csv(data / ref_name, ref_csv)
        fmt = CSVSpatialFormatType.PoseWithCov
        rows = pose_rows(data / est_name)
        cov = covariance_rows(len(rows))[:, upper[0], upper[1]]  # Txx, Txy ... Tcc
        frame = pd.DataFrame(np.hstack((rows, cov)), columns=CSVSpatialFormatType.get_format(fmt))
        CSV2DataFrame.save_CSV(frame, filename=str(est_csv), fmt=fmt)
        assoc = AssociatedTrajectories(
            fn_gt=str(ref_csv), fn_est=str(est_csv), max_difference=max_diff
        )
        est = TrajectoryEstimated(df=assoc.data_frame_est_matched)
        est.set_format(
            CSVSpatialFormat(
                fmt,
                est_err_type=EstimationErrorType.type5,
                err_rep_type=ErrorRepresentationType.tau_se3,
            )
        )
        gt = Trajectory(df=assoc.data_frame_gt_matched)
        err = EstimationTrajectoryError(traj_est=est, traj_gt=gt).traj_est_err
        pose = TrajectoryPoseNEES(traj_est=est, traj_err=err)
        blocks = TrajectoryPosOrientNEES(traj_est=est, traj_err=err)
    out = {
        "tool": f"cnspy-trajectory-evaluation {version('cnspy-trajectory-evaluation')} "
        f"(cnspy-trajectory {version('cnspy-trajectory')})",
        "made_by": "python tests/data/make_cnspy_reference.py EVO_TESTDATA",
        "call": "AssociatedTrajectories(fn_gt, fn_est, max_difference) -> TrajectoryEstimated("
        "df=data_frame_est_matched), format PoseWithCov, type5, tau_se3 -> "
        "EstimationTrajectoryError -> TrajectoryPoseNEES.NEES_T_vec, "
        "TrajectoryPosOrientNEES.NEES_p_vec and NEES_R_vec",
        "reference": ref_name,
        "estimate": est_name,
        "max_difference_s": max_diff,
        "covariances": "covariance_rows(N) of the estimate's N rows, written as PoseWithCov",
        "t_s": est.t_vec[:, 0].tolist(),
        "NEES_T": pose.NEES_T_vec[:, 0].tolist(),
        "NEES_p": blocks.NEES_p_vec[:, 0].tolist(),
        "NEES_R": blocks.NEES_R_vec[:, 0].tolist(),
        "avg_NEES_T": float(pose.get_avg_NEES()),
        "chi_square_confidence_bounds_0.95_6dof": list(chi_square_confidence_bounds(0.95, 6)),
    }
    nees_out = OUT.with_name("cnspy_nees_reference.json")
    nees_out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {nees_out} ({len(out['t_s'])} poses)")


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
