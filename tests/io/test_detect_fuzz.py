"""Fuzz: the detected format of a correctly formed file survives mutations a human calls the same.

A TUM, KITTI or EuRoC file is built from random poses, then rewritten with the freedoms
its format allows a human: header lines (with or without ``#``), comments, blank lines,
separators, number spellings, line endings, a byte-order mark, and stamp units (seconds
or integer nanoseconds). Detection must give the base format every time, and reading
must give the base poses (stamps to the float64 step of integer nanoseconds).

Not drawn, because no human could tell either: an 8-column comma file of nanosecond
stamps without a header naming the columns (EuRoC or TUM: refused as ambiguous), and an
EuRoC file reduced to 8 columns without its header.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning
from robot_msgs.io import detect_format, read_trajectory
from robot_msgs.rotations import matrix_from_quat_xyzw

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

_SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _poses(seed: int, n: int) -> tuple[list[int], Float64Array, Float64Array]:
    """Stamps in integer ns (about 30 Hz from 2011), positions, unit quaternions x, y, z, w."""
    rng = np.random.default_rng(seed)
    stamps = (
        1_305_031_102_000_000_000 + np.cumsum(rng.integers(20_000_000, 40_000_000, n))
    ).tolist()
    xyz = rng.normal(size=(n, 3)).round(6)
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return stamps, xyz, q


def _number(value: float, form: str) -> str:
    return {"repr": repr(float(value)), "fixed": f"{value:.9f}", "exp": f"{value:.16e}"}[form]


@dataclass(frozen=True)
class Layout:
    """The freedoms shared by all formats: comments, blanks, endings, mark, number spelling."""

    comments: list[str]
    blank_every: int
    inline: bool
    ending: str
    bom: bool
    final_newline: bool
    form: str
    lead: str


_layouts = st.builds(
    Layout,
    comments=st.lists(st.sampled_from(["# a note", "#", "# 1 2 3"]), max_size=2),
    blank_every=st.sampled_from([0, 2, 3]),
    inline=st.booleans(),
    ending=st.sampled_from(["\n", "\r\n"]),
    bom=st.booleans(),
    final_newline=st.booleans(),
    form=st.sampled_from(["repr", "fixed", "exp"]),
    lead=st.sampled_from(["", " ", "\t"]),
)


def _text(header: str | None, rows: list[list[str]], sep: str, layout: Layout) -> str:
    lines = list(layout.comments)
    if header is not None:
        lines.append(header)
    for i, row in enumerate(rows):
        line = layout.lead + sep.join(row)
        if layout.inline and i % 2:
            line += " # inline"
        lines.append(line)
        if layout.blank_every and i % layout.blank_every == 0:
            lines.append("")
    text = layout.ending.join(lines) + (layout.ending if layout.final_newline else "")
    return ("\ufeff" if layout.bom else "") + text


def _read(path: Path) -> PoseTrajectory:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # stamp-unit notes are other tests' subject
        return read_trajectory(path)


def _write(tmp_path_factory: pytest.TempPathFactory, text: str, name: str) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(text.encode("utf-8"))
    return path


def _same_poses(
    traj: PoseTrajectory, stamps_ns: list[int], xyz: Float64Array, q: Float64Array
) -> None:
    np.testing.assert_allclose(
        traj.stamps_s, np.array(stamps_ns, dtype=float) / 1e9, rtol=0, atol=1e-6
    )
    np.testing.assert_allclose(traj.positions_xyz, xyz, rtol=0, atol=1e-9)
    sign = np.sign(np.sum(traj.orientations_quat_xyzw * q, axis=1))[:, None]
    np.testing.assert_allclose(traj.orientations_quat_xyzw, sign * q, rtol=0, atol=1e-8)


@_SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 25),
    header=st.sampled_from([None, "# timestamp tx ty tz qx qy qz qw", "timestamp tx ty tz qx qy qz qw",
                            "# t x y z qx qy qz qw", "#time,x,y,z,q_x,q_y,q_z,q_w"]),
    sep=st.sampled_from([" ", "  ", "\t", " \t", ",", ", "]),
    ns=st.booleans(),
    layout=_layouts,
)  # fmt: skip
def test_tum_stays_tum(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    n: int,
    header: str | None,
    sep: str,
    ns: bool,
    layout: Layout,
) -> None:
    if "," in sep and ns and header is None:
        sep = " "  # EuRoC or TUM: no human could tell (see the module docstring)
    stamps, xyz, q = _poses(seed, n)
    form = layout.form
    rows = [
        [str(t) if ns else repr(t / 1e9), *(_number(v, form) for v in (*xyz[i], *q[i]))]
        for i, t in enumerate(stamps)
    ]
    path = _write(tmp_path_factory, _text(header, rows, sep, layout), "traj.txt")
    assert detect_format(path) == "tum"
    _same_poses(_read(path), stamps, xyz, q)


@_SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 25),
    sep=st.sampled_from([" ", "  ", "\t", ",", ", "]),
    layout=_layouts,
)
def test_kitti_stays_kitti(
    tmp_path_factory: pytest.TempPathFactory, seed: int, n: int, sep: str, layout: Layout
) -> None:
    _, xyz, q = _poses(seed, n)
    poses = np.zeros((n, 3, 4))
    poses[:, :, :3] = matrix_from_quat_xyzw(q)
    poses[:, :, 3] = xyz
    form = layout.form
    rows = [[_number(v, form) for v in pose.ravel()] for pose in poses]
    path = _write(tmp_path_factory, _text(None, rows, sep, layout), "00.txt")
    assert detect_format(path) == "kitti"
    traj = _read(path)
    np.testing.assert_allclose(traj.positions_xyz, xyz, rtol=0, atol=1e-9)
    assert traj.stamps_s.tolist() == [float(i) for i in range(n)]


_EUROC_HEADERS = [
    "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z []",
    "#timestamp, p_RS_R_x [m], p_RS_R_y [m], p_RS_R_z [m], q_RS_w [], q_RS_x [], q_RS_y [], q_RS_z []",
    "timestamp,px,py,pz,qw,qx,qy,qz",
    "# t_ns px py pz qw qx qy qz",
]


@_SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 25),
    header=st.sampled_from([None, *_EUROC_HEADERS]),
    extra=st.sampled_from([0, 9]),
    sep=st.sampled_from([",", ", ", " "]),
    seconds=st.booleans(),
    layout=_layouts,
)
def test_euroc_stays_euroc(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    n: int,
    header: str | None,
    extra: int,
    sep: str,
    seconds: bool,
    layout: Layout,
) -> None:
    if header is None and extra == 0:
        extra = 9  # EuRoC's header or its extra columns is what makes it EuRoC
    stamps, xyz, q = _poses(seed, n)
    form = layout.form
    names = None
    if header is not None:  # the header names as many columns as the rows hold
        more = [f"v{i}" for i in range(extra)]
        names = header + "".join(("," if "," in header else " ") + m for m in more)
    rows = [
        [repr(t / 1e9) if seconds else str(t), *(_number(v, form) for v in xyz[i]),
         *(_number(v, form) for v in (q[i, 3], *q[i, :3])), *["0.5"] * extra]
        for i, t in enumerate(stamps)
    ]  # fmt: skip
    path = _write(tmp_path_factory, _text(names, rows, sep, layout), "data.csv")
    assert detect_format(path) == "euroc"
    _same_poses(_read(path), stamps, xyz, q)
