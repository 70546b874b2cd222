"""What each kind of a doctor's finding means: :data:`FINDING_KINDS`.

Apart from :mod:`robot_msgs.compare.diagnosis` (which re-exports it) because
``robot-msgs doctor --help`` lists the kinds: that module defines messages, and
importing it took NumPy and msgspec with it (0.1 s of CPU of the help's start-up).
"""

from __future__ import annotations

__all__ = ["FINDING_KINDS"]

#: Every kind of finding, with what it means (the ``doctor --help`` list).
FINDING_KINDS: dict[str, str] = {
    "stamp_units": "stamps in ns/us/ms where seconds are expected (or the reverse), "
    "from rates and spans; frame indices of two lengths, matched by index",
    "clock_domain": "little or no overlap in time: a different recording start (relative "
    "against absolute time, a far constant offset that aligns the motion) or a clock error",
    "time_offset": "a clock offset estimated from the motion, significant against its "
    "uncertainty and the matching tolerance",
    "quaternion_order": "the other quaternion order (w first / w last) makes the rotations agree",
    "frame_extrinsic": "the estimate is a sensor frame rigidly attached to the reference's "
    "body: the transform X with reference = S estimate X, estimated",
    "scale": "a Sim(3) scale far from 1 (a monocular estimate, or one side's lengths in "
    "cm or mm); what align sim3 then hides; or the estimate's x, y latitude and longitude "
    "in degrees (an lla file's columns written as TUM's)",
    "motion_mismatch": "distances travelled and angles turned between matched poses that "
    "do not correlate, or one side standing still (within its noise) where the other "
    "moves: another sequence, or a wrong pairing of files; or both standing still, with "
    "nothing to align or scale",
    "inverted": "the poses inverted fit far better: the world's pose in the sensor's frame "
    "(T_cw) written for the sensor's in the world (T_wc)",
    "mirrored": "the positions fit far better mirrored than rotated: one axis of the "
    "estimate is flipped (a left-handed frame), which no alignment undoes; or, where its "
    "poses turn too little to tell, its poses are inverted (both said)",
    "planar": "the estimate is flat along one of its axes where the reference moves along "
    "all three: a 2-D estimate, compared in the axis plane where its APE is least; or "
    "flat along an axis a planar reference moves along (a line where the reference "
    "spans a plane), which nothing brings back",
    "coverage": "tracking losses and gaps: the share of the reference covered, apart from "
    "the error on the covered intervals; the reference's own gaps, and the estimate's span "
    "outside the reference's (matched in space: its poses far from the reference's path), "
    "whose estimate poses match none",
    "repeated_stamps": "rows that repeat an earlier stamp (one row a stamp kept: the first, "
    "or the last as the reading rule says)",
    "non_monotonic": "stamps out of order in the file (sorted)",
    "rate_mismatch": "pose rates so different that nearest matching drops most poses",
    "non_unit_quaternions": "quaternions off unit norm by more than rounding (normalised)",
    "non_orthonormal_rotations": "KITTI rotation blocks off SO(3) beyond the rounding of "
    "printed digits (projected onto it, or used as given)",
    "rounded_rotations": "KITTI rotation blocks off SO(3) by the rounding of their printed "
    "digits, as in every KITTI file: results differ by about as much from tools that use "
    "the blocks as given (evo)",
    "non_finite": "rows with NaN or infinite values (dropped)",
    "no_orientation": "positions with no orientation (latitude/longitude/altitude, NavSatFix, "
    "PointStamped): identity rotations, so rotation errors mean nothing",
    "unknown_covariances": "pose covariances all zero on every message of a bag topic or row "
    "of a cnspy CSV file (ROS's 'unknown'): read as none, so NEES cannot use them",
    "mixed_frames": "a bag topic whose messages are in more than one frame_id or "
    "child_frame_id (a frame changed mid-bag): its poses are read as if all were in the first",
    "alignment": "a degenerate or poorly constrained fit, or one that changes with the "
    "fitting window (first poses against all)",
    "worst_intervals": "the few time intervals that dominate the APE and RPE",
    "same_input": "the reference's file given as the estimate (a link, another spelling), "
    "or its very stamps and poses (a copy): unless a transform or an offset moves it, "
    "every error is zero to float64 rounding",
}
