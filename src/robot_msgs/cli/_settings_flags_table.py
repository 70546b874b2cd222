"""The flag of every settings field, as data: the command line builds its flags from it.

DO NOT EDIT: written by ``python -m robot_msgs.cli._settings_flags`` from the settings'
declarations (each field's Flag, type, description and default); the test
``tests/cli/test_settings_flags.py`` fails when this file differs from them. Each row
holds the keywords of a ``robot_msgs.cli._settings_flags.FlagRow``.
"""

from typing import Any

TABLE: dict[str, tuple[dict[str, Any], ...]] = {
    "EvaluationSettings": (
        {
            "field": "align",
            "name": "--align",
            "metavar": "METHOD",
            "group": "alignment",
            "kind": "choice",
            "choices": (
                "none",
                "se3",
                "sim3",
                "scale",
                "posyaw",
                "translation",
                "origin",
                "origin_scale",
            ),
            "description": (
                "se3: rotation + translation (evo -a); sim3: plus scale (-as); scale: scale only "
                "(-s); posyaw: translation + yaw (VIO); translation: translation only, the "
                "positions' means coincide (cnspy pos); origin: first poses coincide (evo "
                "--align_origin); origin_scale: scale, then first poses coincide (evo "
                "--align_origin -s); none: as given"
            ),
            "default": "none",
        },
        {
            "field": "n_align",
            "name": "--n-align",
            "metavar": "N",
            "group": "alignment",
            "kind": "int",
            "description": "fit the alignment on the first N matched poses (default: all)",
        },
        {
            "field": "align_window_s",
            "name": "--align-window",
            "metavar": ("START", "END"),
            "group": "alignment",
            "kind": "floats",
            "length": 2,
            "description": "fit the alignment on the matched poses stamped within [START, END] s",
        },
        {
            "field": "sync",
            "name": "--sync",
            "metavar": "RULE",
            "group": "association in time",
            "dashes": True,
            "kind": "choice",
            "choices": (
                "nearest",
                "one_to_one",
                "interpolate",
                "interpolate_longer",
                "interpolate_estimate",
                "spatial",
                "one-to-one",
            ),
            "description": (
                "nearest: evo's rule; one-to-one: TUM associate.py's greedy rule; interpolate: "
                "reference resampled at the estimate's stamps; interpolate-longer: evo's "
                "interpolation, nearest's matches with the longer trajectory resampled at the "
                "shorter one's stamps; interpolate-estimate: trajectopy's interpolation, the "
                "estimate resampled at the reference's stamps; spatial: each estimate pose with "
                "the nearest reference position in path order, stamps unused (trajectopy's spatial "
                "matching, for clocks that cannot be matched; both in one world frame)"
            ),
            "default": "nearest",
        },
        {
            "field": "max_diff_s",
            "name": "--max-diff",
            "metavar": "SECONDS",
            "group": "association in time",
            "kind": "float",
            "description": "largest stamp difference of a matched pair, seconds",
            "default": 0.01,
        },
        {
            "field": "max_distance_m",
            "name": "--max-distance",
            "metavar": "METRES",
            "group": "association in time",
            "kind": "float",
            "description": "spatial: largest distance of a matched pair, metres (default any)",
        },
        {
            "field": "spatial_pairs",
            "name": "--spatial-pairs",
            "group": "association in time",
            "kind": "choice",
            "choices": ("path", "first"),
            "description": (
                "spatial: which pairs are kept. path: of estimate poses sharing a nearest "
                "reference pose the closest, then the longest chain running forward on both sides; "
                "first: trajectopy 5.x's rule, the first of them, backward pairs kept, pairs in "
                "reference order (for APE: RPE, drift, the doctor and transform_right_auto need "
                "forward pairs)"
            ),
            "default": "path",
        },
        {
            "field": "offset_s",
            "name": "--offset",
            "metavar": "SECONDS|auto",
            "group": "association in time",
            "kind": "float",
            "description": "added to the estimate's stamps for matching, seconds",
            "default": 0.0,
        },
        {
            "field": "max_gap_s",
            "name": "--max-gap",
            "metavar": "SECONDS",
            "group": "association in time",
            "kind": "float",
            "description": (
                "interpolate: longest reference gap bridged, seconds (default 10 median reference "
                "intervals); interpolate-estimate: longest estimate gap (default 10 median "
                "estimate intervals; trajectopy: 10 s)"
            ),
        },
        {
            "field": "t_start_s",
            "name": "--t-start",
            "metavar": "SECONDS",
            "group": "time range (seconds on the reference's clock)",
            "kind": "float",
            "description": (
                "only reference poses stamped at or after this time (evo --t_start); a run "
                "report's losses, coverage and latency too"
            ),
        },
        {
            "field": "t_end_s",
            "name": "--t-end",
            "metavar": "SECONDS",
            "group": "time range (seconds on the reference's clock)",
            "kind": "float",
            "description": (
                "only reference poses stamped at or before this time (evo --t_end); a run report's "
                "losses, coverage and latency too"
            ),
        },
        {
            "field": "offset_auto",
            "name": "--offset",
            "group": "association in time",
            "word": "auto",
            "kind": "switch",
            "description": (
                "estimate the clock offset from the motion (with its uncertainty and quality "
                "notes) and use it instead of offset_s"
            ),
            "default": False,
        },
        {
            "field": "offset_search_s",
            "name": "--offset-search",
            "metavar": "SECONDS",
            "group": "association in time",
            "kind": "float",
            "description": "offset_auto: search offsets within ± this, seconds (default 1)",
        },
        {
            "field": "confidence",
            "name": "--confidence",
            "metavar": "P",
            "group": "consistency (relations nees, nees_position, nees_orientation, nees_planar)",
            "kind": "float",
            "description": "two-sided probability of the chi-square bounds of NEES",
            "default": 0.95,
        },
        {
            "field": "transform_left",
            "name": "--transform-left",
            "metavar": "FILE",
            "group": "extrinsic transforms of the estimate (P -> T_left P T_right, done first)",
            "file": True,
            "kind": "file",
            "description": (
                "left-multiply every estimate pose (world frame, may scale; evo_traj "
                "--transform_left): 16 numbers, row-major 4x4; the flag reads them from a 4x4 text "
                "or .npy matrix, a JSON/YAML pose, EuRoC's sensor.yaml (its T_BS: body from "
                "sensor), OpenCV YAML (VINS-Fusion's body_T_cam0: body from camera) or Kalibr's "
                "camchain (T_cam_imu: camera from IMU); FILE:KEY names one of several "
                "(camchain.yaml:cam1/T_cam_imu)"
            ),
        },
        {
            "field": "invert_transform_left",
            "name": "--invert-transform-left",
            "group": "extrinsic transforms of the estimate (P -> T_left P T_right, done first)",
            "kind": "switch",
            "description": "use the inverse of transform_left",
            "default": False,
        },
        {
            "field": "transform_right",
            "name": "--transform-right",
            "metavar": "FILE|auto",
            "group": "extrinsic transforms of the estimate (P -> T_left P T_right, done first)",
            "file": True,
            "kind": "file",
            "description": (
                "right-multiply every estimate pose (body frame, rigid; evo_traj "
                "--transform_right): 16 numbers, row-major 4x4, read as transform_left"
            ),
        },
        {
            "field": "transform_right_auto",
            "name": "--transform-right",
            "group": "extrinsic transforms of the estimate (P -> T_left P T_right, done first)",
            "word": "auto",
            "kind": "switch",
            "description": (
                "estimate transform_right from the motion (hand-eye calibration, reference = S "
                "estimate X, after the association) and use it; refused when the motion leaves a "
                "direction undetermined"
            ),
            "default": False,
        },
        {
            "field": "invert_transform_right",
            "name": "--invert-transform-right",
            "group": "extrinsic transforms of the estimate (P -> T_left P T_right, done first)",
            "kind": "switch",
            "description": (
                "use the inverse of transform_right: with EuRoC's sensor.yaml (T_BS, body from "
                "sensor), what brings an estimate in the sensor's frame (cam0) to the IMU body"
            ),
            "default": False,
        },
        {
            "field": "project_to_plane",
            "name": "--project-to-plane",
            "group": "alignment",
            "kind": "choice",
            "choices": ("xy", "xz", "yz"),
            "description": (
                "after alignment, project both trajectories to this plane (evo --project_to_plane)"
            ),
        },
    ),
    "PairSettings": (
        {
            "field": "delta",
            "name": "--delta",
            "metavar": "D",
            "group": "pose pairs",
            "several": True,
            "kind": "float",
            "description": (
                "interval of a pair, in delta_unit; several on the command line give one result "
                "row per delta"
            ),
            "default": 1.0,
        },
        {
            "field": "delta_unit",
            "name": "--delta-unit",
            "group": "pose pairs",
            "kind": "choice",
            "choices": ("f", "s", "m", "rad", "deg"),
            "description": "f frames, s seconds, m metres of path, rad/deg rotation angle",
            "default": "f",
        },
        {
            "field": "all_pairs",
            "name": "--all-pairs",
            "group": "pose pairs",
            "kind": "switch",
            "description": "a pair from every pose, not consecutive ones",
            "default": False,
        },
        {
            "field": "pairs_from",
            "name": "--pairs-from-reference",
            "group": "pose pairs",
            "when_set": "reference",
            "kind": "switch",
            "description": (
                "select the pairs by the reference's motion (evo and the default: the estimate's)"
            ),
            "default": "estimate",
        },
        {
            "field": "delta_tol",
            "name": "--delta-tol",
            "metavar": "RATIO",
            "group": "pose pairs",
            "kind": "float",
            "description": "relative tolerance of all-pairs and seconds deltas (as evo)",
            "default": 0.1,
        },
        {
            "field": "protocol",
            "name": "--protocol",
            "group": "pose pairs",
            "kind": "choice",
            "choices": ("evo", "tum"),
            "description": (
                "evo: evo's pairs and association; tum: TUM RGB-D evaluate_rpe.py --fixed_delta "
                "--max_pairs 0 (its pairing, its nearest-stamp matching)"
            ),
            "default": "evo",
        },
    ),
    "Ape": (
        {
            "field": "relation",
            "name": "--relation",
            "metavar": "RELATION",
            "several": True,
            "kind": "choice",
            "choices": (
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
                "along_track_body",
                "cross_track_body",
                "vertical_body",
                "roll_world_rad",
                "pitch_world_rad",
                "yaw_world_rad",
                "roll_world_deg",
                "pitch_world_deg",
                "yaw_world_deg",
                "nees",
                "nees_position",
                "nees_orientation",
                "nees_planar",
                "trans_part",
            ),
            "description": (
                "translation (m, evo trans_part), angle_deg, angle_rad, full, rot_part, "
                "point_distance, or a signed axis x/y/z (m, estimate minus reference); "
                "along_track/cross_track/vertical (m; frame: the reference's horizontal direction "
                "of motion, world z up), roll/pitch/yaw_rad|_deg (rotation vector of R_ref^T "
                "R_est; frame: the reference body's axes); trajectopy's definitions: "
                "along_track_body/cross_track_body/vertical_body (m; frame: the reference body's "
                "x, y, z axes), roll/pitch/yaw_world_rad|_deg (xyz Euler angles of R_ref R_est^T; "
                "frame: the world's axes); nees, nees_position, nees_orientation, nees_planar (x, "
                "y, yaw) (the estimate's pose covariances, chi-square bounds); several on the "
                "command line give one result row each"
            ),
            "default": "translation",
        },
    ),
    "Rpe": (
        {
            "field": "relation",
            "name": "--relation",
            "metavar": "RELATION",
            "kind": "choice",
            "choices": (
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
                "point_distance_error_ratio",
                "trans_part",
            ),
            "description": (
                "each pair (i, j)'s error E = (ref_i^-1 ref_j)^-1 (est_i^-1 est_j) as translation "
                "(m, evo trans_part), angle_deg, angle_rad, full, rot_part; a signed axis x/y/z "
                "(m, the estimate's motion minus the reference's; frame: the reference body's axes "
                "at j); along_track/cross_track/vertical (m; frame: the reference's horizontal "
                "direction of motion at j, world z up), roll/pitch/yaw_rad|_deg (rotation vector "
                "of E; frame: the reference body's axes at j); point_distance (m: how much the "
                "distances from pose i to j differ, unsigned), point_distance_error_ratio (%: that "
                "of the reference's distance)"
            ),
            "default": "translation",
        },
    ),
    "Drift": (
        {
            "field": "protocol",
            "name": "--protocol",
            "kind": "choice",
            "choices": ("kitti", "rpg"),
            "description": (
                "kitti: the KITTI devkit's segments (100..800 m, one every 10 frames), translation "
                "in % and rotation in deg/m; rpg: rpg_trajectory_evaluation's relative error over "
                "10..50 % of the path length"
            ),
            "default": "kitti",
        },
        {
            "field": "lengths_m",
            "name": "--lengths",
            "metavar": "M",
            "group": "segments",
            "commas": True,
            "kind": "numbers",
            "description": (
                "segment lengths in metres, at least 0.001, separated by spaces or commas (default "
                "100 ... 800 for kitti; fractions of the path for rpg)"
            ),
        },
        {
            "field": "step_frames",
            "name": "--step",
            "metavar": "FRAMES",
            "group": "segments",
            "kind": "int",
            "description": "kitti: frames between segment starts (default 10)",
        },
        {
            "field": "per_actual_length",
            "name": "--per-actual-length",
            "group": "segments",
            "kind": "switch",
            "description": (
                "kitti: divide each segment's error by its actual reference path distance, not its "
                "nominal length (trajectopy's rpe(); with --step 1, its pairs)"
            ),
            "default": False,
        },
        {
            "field": "lengths_s",
            "name": "--seconds",
            "metavar": "S",
            "group": "segments",
            "commas": True,
            "kind": "numbers",
            "description": (
                "kitti: segment lengths in seconds instead of metres, separated by spaces or "
                "commas: a segment ends at the first pose at or after its start + length, its "
                "errors divided by its actual interval, in m/s and deg/s (trajectopy's rpe() per "
                "second; with --step 1, its pairs)"
            ),
        },
        {
            "field": "fractions",
            "name": "--fractions",
            "metavar": "F",
            "group": "segments",
            "commas": True,
            "kind": "numbers",
            "description": (
                "rpg: lengths as fractions of the path length, separated by spaces or commas "
                "(default 0.1 ... 0.5)"
            ),
        },
    ),
    "RunSettings": (
        {
            "field": "statistic",
            "name": "--statistic",
            "metavar": "FIELD",
            "group": "metrics and run judgement (default: the manifest's)",
            "kind": "choice",
            "choices": (
                "rms",
                "mean",
                "median",
                "std",
                "min",
                "max",
                "max_abs",
                "p95_abs",
                "final",
                "iae",
                "ise",
                "itae",
            ),
            "description": "the ErrorStats field rankings and aggregates compare",
            "default": "rms",
        },
        {
            "field": "coverage_gap_s",
            "name": "--coverage-gap",
            "metavar": "SECONDS",
            "group": "metrics and run judgement (default: the manifest's)",
            "kind": "float",
            "description": (
                "longer gaps between estimate poses are not covered, seconds (frames stamped by "
                "index: times the run's input_rate_hz, else 1 frame a second)"
            ),
            "default": 1.0,
        },
        {
            "field": "end_tolerance_s",
            "name": "--end-tolerance",
            "metavar": "SECONDS",
            "group": "metrics and run judgement (default: the manifest's)",
            "kind": "float",
            "description": (
                "a run succeeds if its last valid pose is at most this before the end, seconds "
                "(frames stamped by index: times the run's input_rate_hz, else 1 frame a second)"
            ),
            "default": 1.0,
        },
        {
            "field": "min_coverage",
            "name": "--min-coverage",
            "metavar": "SHARE",
            "group": "metrics and run judgement (default: the manifest's)",
            "kind": "float",
            "description": (
                "a run succeeds only if its valid poses cover at least this share of the sequence "
                "(see --coverage-gap), 0..1"
            ),
            "default": 0.5,
        },
        {
            "field": "rank_failures",
            "name": "--rank-failures",
            "group": "metrics and run judgement (default: the manifest's)",
            "kind": "choice",
            "choices": ("apart", "worst"),
            "description": (
                "rankings score each sequence by the median over its successful runs, the failures "
                "said apart in the success column (apart), or count each failed run in that median "
                "as the worst error, infinity (worst)"
            ),
            "default": "apart",
        },
    ),
    "ReadSettings": (
        {
            "field": "repeated_stamps",
            "name": "--repeated-stamps",
            "group": "reading rules",
            "kind": "choice",
            "choices": ("first", "last", "refuse", "all"),
            "description": (
                "rows with equal stamps: keep the first or the last in the file, refuse them, or "
                "keep all, as evo and rpg (ape and rpe with --sync nearest or one-to-one only) "
                "(default: the first; the last in TUM's RPE protocol, as evaluate_rpe.py)"
            ),
        },
        {
            "field": "kitti_rotations",
            "name": "--kitti-rotations",
            "group": "reading rules",
            "kind": "choice",
            "choices": ("nearest", "as_given"),
            "description": (
                "KITTI rotation blocks (not quite orthonormal as printed): their nearest "
                "rotations, or as given, as evo uses them"
            ),
            "default": "nearest",
        },
        {
            "field": "w_first",
            "name": "--w-first",
            "metavar": "SIDE",
            "group": "reading rules",
            "kind": "choice",
            "choices": ("reference", "estimate", "both"),
            "description": (
                "the side whose file writes its quaternions qw qx qy qz where its format has qx qy "
                "qz qw (a TUM file written w first): read as written"
            ),
        },
        {
            "field": "stamp_divisors",
            "name": "--stamp-divisors",
            "metavar": ("REF", "EST"),
            "group": "reading rules",
            "kind": "floats",
            "length": 2,
            "description": (
                "divide the reference's and the estimate's stamps by these (1000: stamps written "
                "in milliseconds)"
            ),
            "default": (1.0, 1.0),
        },
    ),
    "TrackingSettings": (
        {
            "field": "interpolation",
            "name": "--hold",
            "when_set": "previous",
            "kind": "switch",
            "description": (
                "hold each command value until the next (zero-order hold: a setpoint log written "
                "when it changes), instead of reading the command linearly between its points"
            ),
            "default": "linear",
        },
        {
            "field": "delay_s",
            "name": "--delay",
            "metavar": "SECONDS",
            "kind": "float",
            "description": (
                "the loop's transport (dead) time, seconds: each measurement at t is scored "
                "against the command at t - SECONDS"
            ),
            "default": 0.0,
        },
        {
            "field": "field",
            "name": "--field",
            "metavar": "QUANTITY",
            "kind": "choice",
            "choices": ("position", "velocity", "effort"),
            "description": (
                "the JointState field compared (position, velocity or effort) of a log of one row "
                "per joint per time or a bag's JointState topic; not given, a log without a "
                "position column is read of its first of velocity, effort"
            ),
            "default": "position",
        },
        {
            "field": "step_info",
            "name": "--step-info",
            "group": "step response (with --step-info)",
            "kind": "switch",
            "description": (
                "also the step-response figures of each channel (rise and settling time, "
                "overshoot, undershoot, peak), timed from the command's one step and relative to "
                "its values before and after it (MATLAB stepinfo's yinit, yfinal)"
            ),
            "default": False,
        },
        {
            "field": "rise_limits",
            "name": "--rise-time-limits",
            "metavar": ("LOW", "HIGH"),
            "group": "step response (with --step-info)",
            "kind": "floats",
            "length": 2,
            "description": (
                "the shares of the step the rise time runs between (stepinfo's RiseTimeLimits)"
            ),
            "default": (0.1, 0.9),
        },
        {
            "field": "settling_threshold",
            "name": "--settling-time-threshold",
            "metavar": "SHARE",
            "group": "step response (with --step-info)",
            "kind": "float",
            "description": (
                "half-width of the settling band, a share of the step (stepinfo's "
                "SettlingTimeThreshold)"
            ),
            "default": 0.02,
        },
    ),
}
