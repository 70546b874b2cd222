"""A message's ``repr``: msgspec's full one where it is small, a short summary where it is large."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np
import pytest

from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.io import read_trajectory
from robot_msgs.msg.catalog import examples
from robot_msgs.msg.registry import registered_types
from robot_msgs.msg.repr import REPR_ARRAY_ELEMENTS, REPR_ARRAY_SHOWN, has_large_array
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.msg import Msg

EXAMPLES = examples()


def _namespace() -> dict[str, Any]:
    names: dict[str, Any] = {cls.__name__: cls for cls in registered_types().values()}
    return {**names, "array": np.array, "nan": np.nan, "inf": np.inf, **vars(np)}


def _full(message: Msg) -> str:
    text: str = msgspec.Struct.__repr__(message)  # msgspec's own, the repr before
    return text


def _evaluates_back(text: str, message: Msg) -> bool:
    try:
        return bool(eval(text, _namespace()) == message)  # noqa: S307 - the law under test
    except Exception:  # noqa: BLE001 - a repr that is not an expression does not
        return False


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_eval_of_repr_gives_the_message_back_wherever_it_did(name: str) -> None:
    message = EXAMPLES[name]
    if not has_large_array(message):
        assert repr(message) == _full(message)
    if _evaluates_back(_full(message), message):
        assert _evaluates_back(repr(message), message)


def test_the_law_above_is_not_empty() -> None:
    kept = [n for n, m in EXAMPLES.items() if _evaluates_back(_full(m), m)]
    assert len(kept) > len(EXAMPLES) // 2


def test_a_large_array_is_shown_by_dtype_shape_and_ends() -> None:
    n = max(REPR_ARRAY_ELEMENTS // 8, REPR_ARRAY_SHOWN) + 1  # 8 numbers a pose
    t = (np.arange(n) * 0.5).astype(np.float64)
    traj = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.zeros((n, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
        frame_id="map",
    )
    assert repr(traj) == (
        f"PoseTrajectory(stamps_s=<float64 array ({n},) [0, ..., {t[-1]:g}]>, "
        f"positions_xyz=<float64 array ({n}, 3)>, "
        f"orientations_quat_xyzw=<float64 array ({n}, 4)>, frame_id='map')"
    )


def test_the_repr_of_an_fr1_xyz_result_is_short_and_says_its_summary() -> None:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    result = ape(ref, est, settings=EvaluationSettings(align="se3"))
    text = repr(result)
    assert len(text) < 2000, len(text)  # 65,173 characters before
    errors = result.series["translation"].errors  # rms and mean here with NumPy
    rms, mean = np.sqrt(np.mean(errors**2)), np.mean(errors)
    n = errors.size
    assert f"<Signal translation: n={n}, rms {rms:.6g} m, mean {mean:.6g} m>" in text
    assert f"positions_xyz=<float64 array ({n}, 3)>" in text
    assert "settings=EvaluationSettings(align='se3')" in text  # the defaults left out
    assert repr(result.comparison) in text
    # Every value is still there in the full form.
    assert result.to_dict()["matched_estimate"]["positions_xyz"]["shape"] == [n, 3]


def test_every_signal_of_a_large_comparison_is_summarised() -> None:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    pairs = (PairSettings(delta=1.0, delta_unit="s"), PairSettings(delta=2.0, delta_unit="s"))
    comparison = rpe(ref, est, pairs=pairs).comparison
    text = repr(comparison)
    summaries = [f"<Signal {s.name}: n={s.stats.n}," for s in comparison.signals]
    assert all(s in text for s in summaries)
    assert "ErrorSeries" not in text
    assert len(comparison.signals) == 2
    assert len(text) < 1500, len(text)


def test_a_long_series_shows_its_ends_as_numpy_elides_and_integers_whole() -> None:
    """`0.0123 .. 0.0103` read as a min..max range; int64 nanoseconds showed as 1.305e+18."""
    from robot_msgs.msg.repr import array_text

    errors = np.array([0.0123, 0.5, 0.0009, 0.0103] * 5)
    assert array_text(errors) == "<float64 array (20,) [0.0123, ..., 0.0103]>"
    ns = np.arange(20, dtype=np.int64) + 1_305_031_102_155_800_064
    assert array_text(ns) == "<int64 array (20,) [1305031102155800064, ..., 1305031102155800083]>"
