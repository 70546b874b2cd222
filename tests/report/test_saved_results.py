"""Saved results side by side: shared and differing settings, the CSV's raw numbers."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.compare import Signal
from robot_msgs.errors import DataWarning, FormatError
from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, kitti_drift, rpe
from robot_msgs.io import read_trajectory
from robot_msgs.io.result_files import save_result
from robot_msgs.report.saved_results import (
    compare_results,
    error_distances_m,
    load_saved_results,
    results_csv,
)
from robot_msgs.trajectory import PoseTrajectory

ZIPS = Path(__file__).parents[1] / "data" / "evo_results"


def test_ours_and_evos_load_side_by_side(tmp_path: Path) -> None:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    ours = save_result(
        tmp_path / "ours.npz", ape(ref, est, settings=EvaluationSettings(align="se3"))
    )
    named = load_saved_results([ours, ZIPS / "fr1_xyz_ape_se3.zip"])
    table = compare_results(named)
    assert table.shared["align"] == "se3"
    assert table.shared["relation"] == "translation"
    # evo's zip does not record its association settings: unknown there, not "differing".
    assert table.differing == []
    assert {"sync", "max_diff_s", "offset_s"} <= set(table.unrecorded)
    assert table.unrecorded["sync"] == [str(ZIPS / "fr1_xyz_ape_se3.zip")]
    assert "sync" not in table.shared
    assert table.ranking is None
    rows = list(csv.DictReader(io.StringIO(results_csv(table))))
    assert [r["tool"] for r in rows] == ["robot_msgs", "evo"]
    assert float(rows[0]["rms"]) == pytest.approx(float(rows[1]["rms"]), rel=1e-9)
    assert float(rows[1]["sse"]) == pytest.approx(
        0.14243298549148023, rel=1e-12
    )  # evo's stats.json sse
    assert rows[1]["setting:sync"] == ""
    data = table.to_dict()
    assert [r["name"] for r in data["results"]] == [str(ours), str(ZIPS / "fr1_xyz_ape_se3.zip")]


def test_the_csv_keeps_every_digit_of_a_setting(tmp_path: Path) -> None:
    # `res --csv` wrote --t-start 1305031102.5 as 1.30503e+09 and an --align-window of
    # [1305031102, 1305031110] as "1.30503e+09,1.30503e+09": 6 digits (a hunt).
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    settings = EvaluationSettings(
        align="se3", t_start_s=1305031102.5, align_window_s=(1305031102.0, 1305031110.0)
    )
    saved = save_result(tmp_path / "a.json", ape(ref, est, settings=settings))
    (row,) = csv.DictReader(io.StringIO(results_csv(compare_results(load_saved_results([saved])))))
    assert row["setting:t_start_s"] == "1305031102.5"
    assert row["setting:align_window_s"] == "1305031102.0,1305031110.0"
    assert row["setting:max_diff_s"] == "0.01"


def test_a_ranking_over_far_fewer_poses_says_so_and_shows_each_count() -> None:
    """`res` ranked fr1_xyz's 32 ORB keyframes first (rms 0.00975 m) above rgbdslam's 785
    poses (0.0134 m) with no count in the ranking: a keyframe rms is not the same measure."""
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    few = est.replace(
        stamps_s=est.stamps_s[::25],
        positions_xyz=est.positions_xyz[::25],
        orientations_quat_xyzw=est.orientations_quat_xyzw[::25],
    )
    se3 = EvaluationSettings(align="se3")
    named = [("all", ape(ref, est, settings=se3)), ("few", ape(ref, few, settings=se3))]
    ranking = compare_results(named).tables[-1]
    assert ranking.headers == ("#", "result", "n", "rms")
    assert sorted(row[2] for row in ranking.rows) == ["32", "785"]
    fewer = (
        "The rms are over 32 to 785 samples: one of far fewer poses (keyframes only?) is "
        "ranked on those alone."
    )
    assert ranking.notes == (fewer,)
    same = compare_results([named[0], ("again", named[0][1])]).tables[-1]
    assert same.notes == ()


def test_kitti_drift_results_are_ranked_by_their_mean_the_devkits_figure() -> None:
    """KITTI publishes (and ranks by) the mean translation % over all segments; `res`
    ranked drift results by their rms, which can turn the order round: here a 1 %
    scale error on every segment (mean 1.01 %, rms 1.01 %) against one 2.7 m jump that
    a third of the 100 m segments cross (mean 0.9 %, rms 1.56 %)."""
    t = np.arange(401.0)  # a straight 400 m line, 1 m a frame: 30 segments of 100 m

    def line(x: np.ndarray) -> PoseTrajectory:
        return PoseTrajectory(
            stamps_s=t,
            positions_xyz=np.stack([x, 0 * t, 0 * t], axis=1),
            orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (t.size, 1)),
            stamps_are_frames=True,
        )

    ref = line(t)
    scaled = kitti_drift(ref, line(1.01 * t), lengths_m=(100.0,))
    jump = kitti_drift(ref, line(t + 2.7 * (t >= 200)), lengths_m=(100.0,))
    assert jump.stats["translation_pct"].mean == pytest.approx(0.9)
    assert jump.stats["translation_pct"].rms == pytest.approx(2.7 / np.sqrt(3))
    assert scaled.stats["translation_pct"].mean == pytest.approx(1.01)
    ranking = compare_results([("scaled", scaled), ("jump", jump)]).tables[-1]
    assert ranking.headers == ("#", "result", "n", "mean")
    assert [row[1] for row in ranking.rows] == ["jump", "scaled"]
    # the JSON says it too: its "ranking" alone read as the rms of every other metric
    assert compare_results([("scaled", scaled), ("jump", jump)]).to_dict()["ranked_by"] == "mean"


def test_a_result_given_twice_is_warned_and_its_ties_share_their_place(tmp_path: Path) -> None:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    se3 = EvaluationSettings(align="se3")
    one = save_result(tmp_path / "a.json", ape(ref, est, settings=se3))
    worse = save_result(tmp_path / "b.json", ape(ref, est, settings=EvaluationSettings()))
    with pytest.warns(DataWarning, match=r"a\.json: the same file as .*a\.json.*given twice") as w:
        named = load_saved_results([one, one])
    assert [getattr(x.message, "kind", "") for x in w] == ["same_input"]
    ranking = compare_results(named).tables[-1]
    assert [row[0] for row in ranking.rows] == ["1.5", "1.5"]  # was 1 and 2: one figure
    named.append(load_saved_results([worse])[0])
    ranking = compare_results(named, force=True).tables[-1]
    assert [row[0] for row in ranking.rows] == ["1.5", "1.5", "3"]


def test_different_metrics_are_never_ranked(tmp_path: Path) -> None:
    named = load_saved_results([ZIPS / "fr1_xyz_ape_se3.zip", ZIPS / "fr1_xyz_rpe_se3_1m.zip"])
    table = compare_results(named, force=True)
    assert table.ranking is None
    assert table.notes[0] == (  # in words, not Python lists (ape ['translation'])
        "not ranked: the results hold different metrics or signals (ape: translation; "
        "rpe: translation)"
    )


def test_results_in_different_units_are_never_ranked() -> None:
    """evo's ``--change_unit cm`` zip (rms 1.34701 cm) was ranked last behind the same
    run in metres (0.0134701 m), as if the numbers were comparable."""
    ((name, metres),) = load_saved_results([ZIPS / "fr1_xyz_ape_se3.zip"])
    (signal,) = metres.comparison.signals
    assert signal.series is not None
    errors, stamps = 100 * signal.series.errors, signal.series.stamps_s
    cm = Signal.of("translation", "cm", errors, stamps_s=stamps)
    centimetres = metres.replace(comparison=metres.comparison.replace(signals=(cm,)))
    table = compare_results([(name, metres), ("cm.zip", centimetres)], force=True)
    assert table.ranking is None
    assert table.notes == ["not ranked: the results are in different units (cm; m)"]


def test_an_unreadable_result_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"nothing")
    with pytest.raises(FormatError, match=r"x\.npz: not a readable \.npz result"):
        load_saved_results([bad])


def test_the_distance_panel_takes_evos_ape_distances_and_leaves_its_rpe_ones() -> None:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    settings = EvaluationSettings(align="se3")
    ape_zip, rpe_zip = ZIPS / "fr1_xyz_ape_se3.zip", ZIPS / "fr1_xyz_rpe_se3_1m.zip"
    with zipfile.ZipFile(ape_zip) as z:
        evo_ape = np.load(io.BytesIO(z.read("distances_from_start.npy")))
    with zipfile.ZipFile(rpe_zip) as z:
        evo_rpe = np.load(io.BytesIO(z.read("distances_from_start.npy")))
    ours_ape = ape(ref, est, settings=settings)
    ((_, evo_ape_result), (_, evo_rpe_result)) = load_saved_results([ape_zip, rpe_zip])
    # APE: evo's distances are the reference path to each pose, as ours: drawn.
    series = evo_ape_result.comparison.signals[0].series
    assert series is not None
    drawn = error_distances_m(str(ape_zip), evo_ape_result, series)
    assert drawn is not None
    np.testing.assert_array_equal(drawn, evo_ape)
    ours_series = ours_ape.comparison.signals[0].series
    assert ours_series is not None
    ours = error_distances_m("ours.json", ours_ape, ours_series)
    assert ours is not None
    np.testing.assert_allclose(ours, evo_ape, rtol=0, atol=1e-12)
    # RPE 1 m: evo's 8 values are chords between the pairs' end poses (0.10-1.57 m) where
    # the reference travels 0.89-7.49 m to those poses: not drawn as distance travelled.
    assert evo_rpe.shape == (8,)
    assert (round(float(evo_rpe.min()), 2), round(float(evo_rpe.max()), 2)) == (0.10, 1.57)
    series = evo_rpe_result.comparison.signals[0].series
    assert series is not None
    assert error_distances_m(str(rpe_zip), evo_rpe_result, series) is None
    ours_rpe = rpe(ref, est, settings=settings, pairs=PairSettings(delta=1.0, delta_unit="m"))
    rpe_series = ours_rpe.comparison.signals[0].series
    assert rpe_series is not None
    assert rpe_series.pairs is not None
    travelled = error_distances_m("ours.json", ours_rpe, rpe_series)
    assert travelled is not None
    # The reference's path to each pair's end: its path length up to that pose, by hand.
    positions = ours_rpe.reference.positions_xyz
    path = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(positions, axis=0), axis=1))])
    ends = rpe_series.pairs[:, 1]
    np.testing.assert_allclose(travelled, path[ends], rtol=1e-12)
    assert (round(float(travelled.min()), 2), round(float(travelled.max()), 2)) == (0.89, 7.49)


def test_res_ranks_a_nees_by_its_means_distance_from_its_degrees_of_freedom() -> None:
    """res ranked every result by its rms closest to zero: of three estimates with the
    same errors, the one whose covariance is 25 times too large (mean NEES ~0.12) came
    first, the consistent one (~3, 3 degrees of freedom) second."""
    rng = np.random.default_rng(7)
    n = 400
    ref = PoseTrajectory(
        stamps_s=np.arange(float(n)),
        positions_xyz=rng.normal(0.0, 5.0, (n, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
    )
    moved = ref.positions_xyz + rng.normal(0.0, 0.1, (n, 3))

    def estimate(sigma_m: float) -> PoseTrajectory:
        cov = np.tile(np.diag([sigma_m**2] * 3 + [1e-4] * 3), (n, 1, 1))
        return ref.replace(positions_xyz=moved, covariance_6x6=cov)

    named = [
        (name, ape(ref, estimate(sigma), relation="nees_position"))
        for name, sigma in (("unsure", 0.5), ("consistent", 0.1), ("overconfident", 0.02))
    ]
    table = compare_results(named)
    assert table.ranking == ["consistent", "unsure", "overconfident"]
    ranking = table.tables[-1]
    assert ranking.title == "Ranking by |mean - 3|"
    assert ranking.headers == ("#", "result", "n", "mean")
    assert "mean NEES is its 3 degrees of freedom" in ranking.notes[0]


def test_results_without_signals_are_tabled_and_not_ranked(tmp_path: Path) -> None:
    """A Comparison may hold no signals: ranking two such results raised IndexError."""
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    result = ape(ref, est, settings=EvaluationSettings(align="se3"))
    bare = result.replace(comparison=result.comparison.replace(signals=()))
    table = compare_results([("a.json", bare), ("b.json", bare)])
    assert table.ranking is None
    assert table.notes == ["not ranked: a.json holds no signals"]
    assert table.tables[0].rows == ()  # one row per signal: none
    mixed = compare_results([("a.json", result), ("b.json", bare)], force=True)
    assert mixed.ranking is None
    assert mixed.notes == ["not ranked: b.json holds no signals"]
    assert compare_results([("a.json", bare)]).notes == []  # one result: no ranking to refuse


def test_a_result_without_finite_errors_is_said_so_not_ranked_on_far_fewer_poses() -> None:
    """A result whose every error is NaN (n = 0) was said to be "ranked on those alone" as
    one "of far fewer poses (keyframes only?)": it has no rms and is placed last."""
    from robot_msgs.compare import Signal

    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    result = ape(ref, est, settings=EvaluationSettings(align="se3"))
    (signal,) = result.comparison.signals
    assert signal.series is not None
    stamps = signal.series.stamps_s
    nothing = Signal.of("translation", "m", np.full(stamps.size, np.nan), stamps_s=stamps)
    empty = result.replace(comparison=result.comparison.replace(signals=(nothing,)))
    ranking = compare_results([("none.json", empty), ("all.json", result)]).tables[-1]
    assert [row[:3] for row in ranking.rows] == [("1", "all.json", "785"), ("2", "none.json", "0")]
    assert ranking.notes == ("none.json: no finite error (n = 0), so no rms: placed last.",)


def test_settings_equal_but_for_the_sign_of_zero_are_shared_not_differing() -> None:
    """offset_s 0.0 and -0.0 (equal settings: the results ranked) were a column
    "--offset (differs)" beside the ranking, told apart by their repr."""
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    result = ape(ref, est, settings=EvaluationSettings(align="se3"))
    settings = result.comparison.settings
    assert settings is not None
    signed = result.replace(
        comparison=result.comparison.replace(settings=settings.replace(offset_s=-0.0))
    )
    assert signed == result
    table = compare_results([("a.json", result), ("b.json", signed)])
    assert table.differing == []
    assert table.ranking is not None
    assert table.notes == []


def test_confidence_is_not_said_unrecorded_in_a_result_it_does_not_apply_to() -> None:
    """713681d left --confidence out of a translation APE's record, and `res NEES APE`
    then noted '1 setting (--confidence) is not recorded in' the APE result: it bounds
    NEES alone, so that result has not lost it."""
    rng = np.random.default_rng(3)
    n = 50
    ref = PoseTrajectory(
        stamps_s=np.arange(float(n)),
        positions_xyz=rng.normal(0.0, 5.0, (n, 3)),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
    )
    cov = np.tile(np.diag([0.01] * 3 + [1e-4] * 3), (n, 1, 1))
    est = ref.replace(positions_xyz=ref.positions_xyz + 0.1, covariance_6x6=cov)
    named = [
        ("nees", ape(ref, est, relation="nees_position")),
        ("translation", ape(ref, est)),
    ]
    table = compare_results(named)
    assert "confidence" not in table.unrecorded
    assert not any("not recorded" in note for t in table.tables for note in t.notes)


def test_a_loop_of_links_given_as_a_result_is_named_not_a_bug(tmp_path: Path) -> None:
    """Path.resolve() raised RuntimeError('Symlink loop ...') on Python < 3.13: res exited
    70, 'a bug in robot_msgs', where every reader says the loop."""
    loop = tmp_path / "a.json"
    (tmp_path / "b.json").symlink_to(loop)
    loop.symlink_to(tmp_path / "b.json")
    with pytest.raises(OSError, match="Too many levels of symbolic links") as caught:
        load_saved_results([loop])
    assert not isinstance(caught.value, RuntimeError)
