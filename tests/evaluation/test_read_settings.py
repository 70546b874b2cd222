"""``ReadSettings.as_written``: a file written in another layout, read as written."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from robot_msgs.evaluation import ReadSettings
from robot_msgs.trajectory import PoseTrajectory

_COMPONENTS = arrays(
    np.float64, st.tuples(st.integers(1, 20), st.just(4)), elements=st.floats(-1.0, 1.0)
)


@given(q=_COMPONENTS, side=st.sampled_from(["reference", "estimate"]))
def test_quaternions_written_w_first_read_with_w_first_are_the_poses(
    q: np.ndarray, side: str
) -> None:
    """Written ``qw qx qy qz`` and read as TUM's ``qx qy qz qw``, then read as written: equal."""
    norms = np.linalg.norm(q, axis=1)
    q = q[norms > 0.1] / norms[norms > 0.1, None]
    if len(q) == 0:
        return
    n = len(q)
    poses = PoseTrajectory(
        stamps_s=np.arange(n, dtype=np.float64),
        positions_xyz=np.zeros((n, 3)),
        orientations_quat_xyzw=q,
    )
    read = poses.replace(orientations_quat_xyzw=q[:, [3, 0, 1, 2]])  # qw qx qy qz as x y z w
    for w_first in (side, "both"):
        rules = ReadSettings(w_first=w_first)  # type: ignore[arg-type]
        assert rules.as_written(read, side) == poses  # type: ignore[arg-type]
    other = "estimate" if side == "reference" else "reference"
    assert ReadSettings(w_first=other).as_written(read, side) is read  # type: ignore[arg-type]
    assert ReadSettings().as_written(read, side) is read  # type: ignore[arg-type]
