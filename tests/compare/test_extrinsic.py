"""Extrinsic: validated on construction, round-trips with NaN rows, gives transform_right."""

from __future__ import annotations

import math

import numpy as np
import pytest

import robot_msgs
from robot_msgs.compare import Extrinsic
from robot_msgs.errors import ValidationError

H = math.sqrt(0.5)
TURN = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # 90 deg about z


def extrinsic(**changes: object) -> Extrinsic:
    values: dict[str, object] = {
        "rotation": TURN,
        "translation_m": np.array([0.2, 0.0, -0.1]),
        "covariance_6x6": np.diag([1e-4, 1e-4, 4e-4, 1e-6, 1e-6, 1e-6]),
        "n_poses": 10,
        "n_pairs": 2,
        "strides": (1,),
        "pair_index": np.array([[0, 1], [1, 2]]),
        "residual_translation_m": np.zeros((2, 3)),
        "residual_rotation_rad": np.zeros((2, 3)),
        "rms_m": 0.0,
        "rms_deg": 0.0,
    }
    return Extrinsic(**{**values, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rotation": np.diag([1.0, 1.0, -1.0])}, "rotation"),
        ({"rotation": 2.0 * np.eye(3)}, "rotation"),
        ({"translation_m": [0.0, math.inf, 0.0]}, "translation_m"),
        ({"covariance_6x6": np.triu(np.ones((6, 6)))}, "covariance_6x6"),
        ({"covariance_6x6": np.full((6, 6), math.inf)}, "covariance_6x6"),
        ({"scale": 0.0}, "scale"),
        ({"scale": math.nan}, "scale"),
        ({"scale_std": -1.0}, "scale_std"),
        ({"scale_std": -math.inf}, "scale_std"),
        ({"n_pairs": -1}, "n_pairs"),
        ({"strides": (0, 1)}, "strides"),
    ],
)
def test_bad_values_are_refused_naming_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=rf"at `Extrinsic\.{field}`"):
        extrinsic(**changes)


def test_the_residual_arrays_agree_in_length() -> None:
    with pytest.raises(ValidationError, match=r"Extrinsic\.residual_rotation_rad"):
        extrinsic(residual_rotation_rad=np.zeros((3, 3)))


def test_unknown_rows_and_an_unknown_scale_uncertainty_round_trip() -> None:
    cov = np.diag([1e-4, 1e-4, 1e-4, 1e-6, 1e-6, 1e-6])
    cov[2, :] = cov[:, 2] = math.nan  # the translation along z: not determined
    x = extrinsic(
        covariance_6x6=cov,
        with_scale=True,
        scale=2.0,
        scale_std=math.nan,
        unobservable=("the translation along z of the estimate's body: σ = inf m",),
    )
    back = robot_msgs.from_dict(x.to_dict())
    assert back == x
    assert hash(back) == hash(x)
    assert robot_msgs.from_json(robot_msgs.to_json(x)) == x
    assert not x.observable
    assert np.isnan(x.std_m[2])
    assert x != extrinsic()


def test_matrix_and_transform_right_in_metres_and_in_the_estimates_units() -> None:
    x = extrinsic(scale=2.0, with_scale=True)
    assert np.array_equal(x.matrix()[:3, 3], [0.2, 0.0, -0.1])
    right = np.array(x.transform_right()).reshape(4, 4)
    assert np.array_equal(right[:3, 3], [0.1, 0.0, -0.05])  # t / s: the estimate's units
    assert np.array_equal(right[:3, :3], TURN)
    assert extrinsic().transform_right() == tuple(extrinsic().matrix().ravel())


def test_std_in_metres_and_degrees() -> None:
    x = extrinsic()
    np.testing.assert_allclose(x.std_m, [0.01, 0.01, 0.02])
    np.testing.assert_allclose(x.std_deg, np.degrees([1e-3] * 3))


def test_describe_names_the_undetermined_directions() -> None:
    text = extrinsic(unobservable=("the translation along z: σ = inf m",)).describe()
    assert text.startswith("extrinsic estimated: translation (0.2000, 0.0000, -0.1000) m")
    assert "rotation vector (0.000, 0.000, 90.000) deg" in text
    assert text.endswith("; not determined: the translation along z: σ = inf m")


def test_a_variance_rounded_below_zero_is_no_uncertainty_not_a_warning() -> None:
    """std_m, std_deg and describe() warned "invalid value encountered in sqrt" (an error
    where warnings are) and gave NaN for a variance of -1e-20; scale_std clips it to 0."""
    x = extrinsic(covariance_6x6=np.diag([-1e-20, 1e-4, math.nan, 1e-6, -1e-20, 1e-6]))
    np.testing.assert_array_equal(x.std_m, [0.0, 0.01, math.nan])
    np.testing.assert_allclose(x.std_deg, np.degrees([1e-3, 0.0, 1e-3]))
    assert "extrinsic estimated" in x.describe()


def test_a_negative_variance_beyond_rounding_is_refused() -> None:
    """std_m clips a rounded -1e-20 to 0; a -1 (a damaged file) would read as known exactly."""
    with pytest.raises(ValidationError, match=r"variances >= 0 on the diagonal .* at `Extrinsic"):
        extrinsic(covariance_6x6=np.diag([-1.0, 1e-4, math.nan, 1e-6, 1e-6, 1e-6]))


@pytest.mark.parametrize("name", ["rms_m", "rms_deg"])
@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])  # +inf: no RMS measured
def test_a_negative_residual_rms_is_refused(name: str, value: float) -> None:
    # A root mean square is >= 0: -1.0 was kept and describe() said "RMS -1 m".
    with pytest.raises(
        ValidationError,
        match=rf"Expected a finite RMS >= 0 \(NaN: unknown\), .* - at `Extrinsic\.{name}`$",
    ):
        extrinsic(**{name: value})
    assert getattr(extrinsic(**{name: 0.0}), name) == 0.0
    assert math.isnan(getattr(extrinsic(**{name: math.nan}), name))
