"""is_rotation_matrix: the test an Alignment's rotation passes, on values stated by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robot_msgs.compare.alignment import is_rotation_matrix

C, S = math.cos(math.radians(30)), math.sin(math.radians(30))


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], True),
        ([[C, -S, 0], [S, C, 0], [0, 0, 1]], True),  # 30 degrees about z
        ([[0, 0, 1], [1, 0, 0], [0, 1, 0]], True),  # a cyclic permutation: det +1
        ([[0, 1, 0], [1, 0, 0], [0, 0, 1]], False),  # a swap: det -1
        ([[1, 0, 0], [0, 1, 0], [0, 0, -1]], False),  # a reflection
        ([[-1, 0, 0], [0, -1, 0], [0, 0, -1]], False),  # -I: orthonormal, det -1
        ([[1, 0.5, 0], [0, 1, 0], [0, 0, 1]], False),  # a shear: det 1, not orthonormal
        ([[1 + 4e-7, 0, 0], [0, 1, 0], [0, 0, 1]], True),  # RᵀR off by 8e-7, det by 4e-7
        ([[1 + 6e-7, 0, 0], [0, 1, 0], [0, 0, 1]], False),  # RᵀR off by 1.2e-6
        ([[math.nan, 0, 0], [0, 1, 0], [0, 0, 1]], False),
        ([[math.inf, 0, 0], [0, 1, 0], [0, 0, 1]], False),
        ([[1e200, 0, 0], [0, 1e200, 0], [0, 0, 1e200]], False),  # products overflow
        ([[1e308, 1e308, 0], [0, 1, 0], [0, 0, 1]], False),  # the sum of entries overflows
    ],
)
def test_a_rotation_is_finite_orthonormal_and_proper(
    rows: list[list[float]], expected: bool
) -> None:
    assert is_rotation_matrix(np.array(rows, dtype=np.float64)) is expected
