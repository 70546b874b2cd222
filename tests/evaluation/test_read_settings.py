"""``ReadSettings.as_written``: a file written in another layout, read as written."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from robot_msgs.cli._flag_text import flags_in_text
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import ReadSettings
from robot_msgs.io import read_trajectory
from robot_msgs.io.examples import resolve_path
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from pathlib import Path

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


def test_stamps_written_in_ms_divided_are_the_seconds_file_s_to_the_last_bit(
    tmp_path: Path,
) -> None:
    """fr1_xyz's rgbdslam written in ms and divided by 1000: its stamps, every bit.

    WHY: ``t / 1000`` rounds twice (the typed stamp, then the quotient): 188 of the 788
    stamps came out one float step (238 ns) from the seconds file's, and from the typed
    digits divided by hand (:class:`~decimal.Decimal`), so their nanoseconds were not the
    file's (``1305031102562224200`` for ``1305031102.562224``).
    """
    source = resolve_path("example:fr1_xyz/rgbdslam.tum")
    typed = [line.split() for line in source.read_text().splitlines() if line[:1] != "#"]
    ms = tmp_path / "ms.tum"
    ms.write_text("".join(" ".join([str(Decimal(f[0]).scaleb(3)), *f[1:]]) + "\n" for f in typed))
    assert ms.read_text().split()[0] == "1305031102160.407"
    read = ReadSettings(stamp_divisors=(1.0, 1e3)).as_written(read_trajectory(ms), "estimate")
    by_hand = [float(Decimal(f[0])) for f in typed]  # the decimal, rounded once
    assert read.stamps_s.tolist() == by_hand
    assert read.stamps_s.tolist() == read_trajectory(source).stamps_s.tolist()
    assert read.nanoseconds().tolist() == [int(Decimal(f[0]) * 10**9) for f in typed]


def test_repeated_stamps_all_where_refused_is_said_with_fields_not_flags() -> None:
    """A manifest's ``repeated_stamps = "all"`` (load_runs, build_report) and the doctor's
    were told "`--sync nearest` ... `--transform-right auto` or `--protocol tum`": flags a
    Python caller cannot pass. The library names the fields; the command line, the flags."""
    with pytest.raises(ValidationError, match=r"^`repeated_stamps=.all.` keeps") as err:
        ReadSettings(repeated_stamps="all").rule_for("evo")
    said = str(err.value)
    assert "--" not in said
    assert said == (
        "`repeated_stamps='all'` keeps repeated stamps, which only `ape`, `rpe` and rpg's "
        "relative error take, with `sync='nearest'` (evo's association) or `sync='one_to_one'` (rpg's), no "
        "`transform_right_auto=True` or `protocol='tum'`; use 'first' or 'last' here"
    )
    assert err.value.field == "repeated_stamps"
    assert flags_in_text(err.value.reason) == (
        "keeps repeated stamps, which only `ape`, `rpe` and rpg's relative error take, with "
        "--sync nearest (evo's association) or --sync one-to-one (rpg's), no --transform-right auto or --protocol "
        "tum; use 'first' or 'last' here"
    )
