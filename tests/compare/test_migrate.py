"""Results saved by releases 9745f2d and 3ddaaa9 load, migrated (compare/migrate.py), equal to today's.

The files in ``tests/data/saved_9745f2d`` and ``tests/data/saved_3ddaaa9`` were written by
those releases (``tests/data/make_saved_9745f2d.py``, commands in each ``commands.txt``).
Each is loaded with today's code and compared with the same evaluation run today: the
migration is right when the two are equal, every name, series, setting and the estimate
as compared, and every number to the last bits a float64 computation may change in
(1e-12 relative: the rotation code was rearranged since, so TUM's RPE moves in its 16th
digit). Both releases saved the estimate as compared, which today's results derive from
the matched poses they keep instead (:func:`robot_msgs.compare.migrate.result_v1`).
``tests/data/saved_c2d08f8`` holds an rpg result of today's form that named rpg's yaw
``yaw_deg`` (``robot_msgs.compare.Signal._upgrade``), with the command that wrote it.
"""

from __future__ import annotations

import json
import math
import pickle
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from robot_msgs import from_json
from robot_msgs.batch.tasks import RunResult
from robot_msgs.compare import (
    Aggregate,
    Comparison,
    EvaluationResult,
    GroupSummary,
    Ranking,
    Report,
    error_stats,
)
from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.evaluation import (
    Ape,
    Drift,
    EvaluationSettings,
    PairSettings,
    Rpe,
    evaluate,
)
from robot_msgs.io import InputFile, read_inputs
from robot_msgs.io.result_files import load_result, save_result
from robot_msgs.msg import decode_json
from robot_msgs.msg.catalog import example
from robot_msgs.report.figures import signal_label
from robot_msgs.strict_json import dumps
from robot_msgs.trajectory import PoseTrajectory

DATA = Path(__file__).parents[1] / "data"
SAVED = DATA / "saved_9745f2d"
RELEASES = [DATA / "saved_9745f2d", DATA / "saved_3ddaaa9"]
GT, EST = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"


def _same(saved: object, today: object) -> bool:
    """Equal in every key, string and integer; floats within 1e-12 relative (or 1e-15)."""
    if isinstance(saved, EvaluationResult) and isinstance(today, EvaluationResult):
        return _same(_advice_cut(_as_compared(saved)), _advice_cut(_as_compared(today)))
    if isinstance(saved, EvaluationResult):  # against a dict made of today's
        return _same(_advice_cut(_as_compared(saved)), today)
    if isinstance(saved, Comparison) and isinstance(today, Comparison):
        cut = [_advice_cut(_no_segment_integrals(c.to_dict())) for c in (saved, today)]
        return _same(*cut)
    if isinstance(saved, dict) and isinstance(today, dict):
        return saved.keys() == today.keys() and all(_same(saved[k], today[k]) for k in saved)
    if isinstance(saved, list | tuple) and isinstance(today, list | tuple):
        return len(saved) == len(today) and all(map(_same, saved, today))
    if isinstance(saved, float) and isinstance(today, float):
        return bool(np.isclose(saved, today, rtol=1e-12, atol=1e-15, equal_nan=True))
    return saved == today


def _as_compared(result: EvaluationResult) -> dict[str, Any]:
    """The result's dict with the estimate as compared in place of the poses it keeps."""
    tree = result.to_dict()
    del tree["matched_estimate"], tree["compared_estimate"]
    return {
        **tree,
        "estimate": result.estimate.to_dict(),
        "comparison": _no_segment_integrals(tree["comparison"]),
    }


def _no_segment_integrals(comparison: dict[str, Any]) -> dict[str, Any]:
    """The comparison with the ``iae``/``ise``/``itae`` of overlapping pieces NaN, as today's.

    Those releases integrated a segment length's drift over the segments' starts (a
    segment's drift is no quantity over time; its unit said %·s over frame indices), and
    the TUM protocol's RPE over pairs longer than a frame, which overlap as all pairs do
    (their starts are no time axis: ``Signal.of``); every other number stays compared.
    """
    no_integrals = dict.fromkeys(("iae", "ise", "itae"), math.nan)
    pairs = comparison.get("parameters") or {}
    overlapping = pairs.get("all_pairs") is True or (
        pairs.get("protocol") == "tum" and (pairs.get("delta"), pairs.get("delta_unit")) != (1, "f")
    )
    signals = [
        signal
        if signal.get("length_m") is None and not overlapping
        else {**signal, "stats": {**signal["stats"], **no_integrals}}
        for signal in comparison["signals"]
    ]
    return {**comparison, "signals": signals}


def _advice_cut(tree: dict[str, Any]) -> dict[str, Any]:
    """The result's dict with each note's advice cut off: what a note found stays compared.

    The advice after "; check" names settings in the words of its release ("the time
    offset and max_diff" then, `offset_s=` and `max_diff_s=` since). A share is compared
    as one wording: "15 %" then, "15%" since ``report.text.percent``.
    """
    comparison = tree.get("comparison", tree)
    notes = [
        re.sub(r"(\d) %", r"\1%", note.split("; check ", 1)[0])
        for note in comparison.get("notes", [])
    ]
    cut = {**comparison, "notes": notes}
    return {**tree, "comparison": cut} if "comparison" in tree else cut


def _today(
    ref: str, est: str, settings: EvaluationSettings, spec: Ape | Rpe | Drift
) -> EvaluationResult:
    reference, estimate = read_inputs([InputFile(path=ref), InputFile(path=est)])
    (result,) = evaluate(
        reference, estimate, settings, metrics=[spec], reference_name=ref, estimate_name=est
    )
    return result


CASES = [
    ("ape_se3.json", GT, EST, EvaluationSettings(align="se3", t_end_s=1305031106), Ape()),
    (
        "ape_offset_auto.npz",
        GT,
        EST,
        EvaluationSettings(align="sim3", offset_auto=True, t_end_s=1305031110),
        Ape(relation="angle_deg"),
    ),
    (
        "rpe_two_deltas.parquet",
        GT,
        EST,
        EvaluationSettings(t_end_s=1305031106),
        Rpe(pairs=tuple(PairSettings(delta=d, delta_unit="s", all_pairs=True) for d in (0.5, 1))),
    ),
    (
        "rpe_tum.json",
        GT,
        EST,
        EvaluationSettings(t_end_s=1305031106),
        Rpe(pairs=(PairSettings(delta=1, delta_unit="s", protocol="tum"),)),
    ),
    (
        "drift_rpg.npz",
        GT,
        EST,
        EvaluationSettings(align="sim3", sync="one_to_one", max_diff_s=0.02, t_end_s=1305031110),
        Drift(protocol="rpg"),
    ),
]


@pytest.mark.parametrize("release", RELEASES, ids=lambda p: p.name)
@pytest.mark.parametrize(("name", "ref", "est", "settings", "spec"), CASES)
def test_a_saved_result_loads_equal_to_the_same_evaluation_today(
    release: Path,
    name: str,
    ref: str,
    est: str,
    settings: EvaluationSettings,
    spec: Ape | Rpe | Drift,
) -> None:
    saved = load_result(release / name)
    assert saved.matched_estimate is None  # not saved then: the compared poses, as saved
    assert saved.compared_estimate is not None
    if isinstance(spec, Drift) and spec.protocol == "rpg":
        assert _same(saved, _rpg_of_the_whole_path(saved, ref, est, settings))
        return
    assert _same(saved, _today(ref, est, settings, spec))


def _rpg_of_the_whole_path(
    saved: EvaluationResult, ref: str, est: str, settings: EvaluationSettings
) -> dict[str, Any]:
    """Today's rpg result with the lengths those releases took, as they recorded them.

    They took rpg's fractions of the whole reference's path, before the time range cut
    it (two of the five lengths then had no segment: the saved notes say so); rpg takes
    them of the path within the range, as today's code does. Given in metres, the same
    lengths give the same segments; the parameters record the fractions they came from.
    """
    recorded = saved.comparison.parameters["lengths_m"]
    assert isinstance(recorded, tuple)
    lengths = tuple(float(v) for v in recorded)
    today = _advice_cut(
        _as_compared(_today(ref, est, settings, Drift(protocol="rpg", lengths_m=lengths)))
    )
    parameters = {**today["comparison"]["parameters"], "fractions": (0.1, 0.2, 0.3, 0.4, 0.5)}
    return {**today, "comparison": {**today["comparison"], "parameters": parameters}}


def test_a_saved_projected_result_loads_equal_to_the_same_evaluation_today() -> None:
    settings = EvaluationSettings(align="sim3", project_to_plane="xy", t_end_s=1305031106)
    today = _today(GT, EST, settings, Ape(relation="full"))
    saved = load_result(DATA / "saved_3ddaaa9" / "ape_projected.json")
    assert _same(saved, today)
    # Today's result derives the projection from the matched poses it keeps.
    assert today.compared_estimate is None
    assert today.matched_estimate is not None
    assert not today.estimate.positions_xyz[:, 2].any()
    assert today.matched_estimate.positions_xyz[:, 2].any()


@pytest.mark.evo_data
def test_a_saved_kitti_drift_loads_equal_to_the_same_evaluation_today(evo_data: Path) -> None:
    gt, orb = (str(evo_data / f) for f in ("KITTI_00_gt.txt", "KITTI_00_ORB.txt"))
    # KITTI's rotation blocks, printed to 7 digits, are projected onto SO(3) as before;
    # since issue 21 the reader says so.
    with pytest.warns(DataWarning, match="rotation blocks off orthonormal by rounding"):
        today = _today(
            gt,
            orb,
            EvaluationSettings(t_end_s=700),
            Drift(lengths_m=(100.0, 200.0)),
        )
    saved = load_result(SAVED / "drift_kitti.npz")
    # Since then, t_end_s=700 on frame indices is said to be read as a frame index.
    (frame_range,) = [n for n in today.comparison.notes if "read as a frame index" in n]
    today = today.replace(
        comparison=today.comparison.replace(
            notes=tuple(n for n in today.comparison.notes if n != frame_range)
        )
    )
    # The reference and estimate names were the paths as written then; the trajectories
    # of then could not say that their stamps are frame indices, nor that their
    # orientations were read from rotation blocks.
    assert _same(saved.comparison.replace(reference=gt, estimate=orb), today.comparison)
    assert not saved.estimate.stamps_are_frames
    assert today.estimate.stamps_are_frames
    assert today.estimate.orientations_from_matrices
    frames = {"stamps_are_frames": True, "orientations_from_matrices": True}
    assert _same(
        saved.replace(
            comparison=today.comparison,
            reference=saved.reference.replace(**frames),
            compared_estimate=saved.estimate.replace(**frames),
        ),
        today,
    )


def test_the_migration_types_what_the_old_names_held() -> None:
    rpe = load_result(SAVED / "rpe_two_deltas.parquet").comparison
    assert [(s.name, s.quantity, s.delta, s.delta_unit) for s in rpe.signals] == [
        ("translation@0.5s", "translation", 0.5, "s"),
        ("translation@1s", "translation", 1.0, "s"),
    ]
    assert rpe.parameters["delta"] == (0.5, 1.0)
    assert rpe.settings is not None
    assert rpe.settings.t_end_s == 1305031106
    rpg = load_result(SAVED / "drift_rpg.npz").comparison
    assert {s.length_m for s in rpg.signals} == {0.91, 1.83, 2.74, 3.66, 4.57}
    assert {s.quantity for s in rpg.signals} == {
        "translation",
        "translation_pct",
        "rotation_deg",
        "yaw_world_deg",
        "gravity_deg",
        "rotation_deg_per_m",
    }


def test_rpg_yaw_saved_as_yaw_deg_loads_as_the_yaw_about_world_z() -> None:
    # Release c2d08f8 (tests/data/saved_c2d08f8, commands.txt) named rpg's rel_yaw, the
    # yaw about the world z of the estimate's frame, `yaw_deg`: APE's name for the yaw
    # about the reference body's z. It loads under today's name, equal to today's result.
    path = DATA / "saved_c2d08f8" / "drift_rpg.json"
    raw = json.loads(path.read_text(encoding="utf-8"))["comparison"]["signals"]
    assert {s["name"] for s in raw if s["quantity"] == "yaw_deg"} == {
        f"yaw_deg@{v}m" for v in ("0.24", "0.48", "0.73", "0.97", "1.21")
    }
    saved = load_result(path)
    yaw = [s for s in saved.comparison.signals if s.name.startswith("yaw")]
    assert signal_label(yaw[0]) == "yaw error (world z) per 0.24 m segment [deg]"
    assert [(s.name, s.quantity, s.unit) for s in yaw] == [
        (f"yaw_world_deg@{v}m", "yaw_world_deg", "deg")
        for v in ("0.24", "0.48", "0.73", "0.97", "1.21")
    ]
    settings = EvaluationSettings(
        align="sim3", sync="one_to_one", max_diff_s=0.02, t_end_s=1305031106
    )
    assert _same(saved, _today(GT, EST, settings, Drift(protocol="rpg")))


def test_a_ranking_of_rpg_yaw_saved_as_yaw_deg_loads_under_the_new_name() -> None:
    # A ranking keeps the signal it ranked by name: c2d08f8's rpg yaw was `yaw_deg@...`.
    ranking = example("compare/Ranking")
    assert isinstance(ranking, Ranking)
    old = {**ranking.to_dict(), "metric": "relative_error", "signal": "yaw_deg@7.58m"}
    assert Ranking.from_dict(old).signal == "yaw_world_deg@7.58m"
    assert decode_json(json.dumps(old), Ranking).signal == "yaw_world_deg@7.58m"
    ape = {**old, "metric": "ape"}  # an APE signal is never named by a length
    assert Ranking.from_dict(ape).signal == "yaw_deg@7.58m"


def test_an_ape_yaw_deg_keeps_its_name_about_the_reference_body_z() -> None:
    ape = _today(GT, EST, EvaluationSettings(t_end_s=1305031106), Ape(relation="yaw_deg"))
    again = EvaluationResult.from_dict(ape.to_dict()).comparison.signals
    assert [(s.name, s.quantity) for s in again] == [("yaw_deg", "yaw_deg")]


def test_an_rpe_yaw_deg_over_metres_keeps_its_name(tmp_path: Path) -> None:
    # RPE labels a delta in metres as rpg labelled a segment length: yaw_deg@0.5m. Only
    # the typed field (delta, not length_m) and the metric tell them apart; RPE's is the
    # yaw about the reference body's z and keeps its name on every road that reads it,
    # also those that pass every signal through Signal._upgrade: unpickling, and a file
    # of an older form (3ddaaa9's `estimate`), which is revived whole.
    pairs = tuple(PairSettings(delta=d, delta_unit="m") for d in (0.5, 1.0))
    rpe = _today(
        GT, EST, EvaluationSettings(t_end_s=1305031106), Rpe(relation="yaw_deg", pairs=pairs)
    )
    tree = rpe.to_dict()
    del tree["matched_estimate"], tree["compared_estimate"]
    of_3ddaaa9 = dumps({**tree, "estimate": rpe.estimate.to_dict()})
    expected = [(f"yaw_deg@{d:g}m", "yaw_deg", d, None) for d in (0.5, 1.0)]
    for again in (
        EvaluationResult.from_dict(rpe.to_dict()),
        decode_json(dumps(rpe.to_dict()), EvaluationResult),
        load_result(save_result(tmp_path / "rpe.npz", rpe)),
        pickle.loads(pickle.dumps(rpe)),
        decode_json(of_3ddaaa9, EvaluationResult),
    ):
        got = [(s.name, s.quantity, s.delta, s.length_m) for s in again.comparison.signals]
        assert got == expected
    ranking = example("compare/Ranking")
    assert isinstance(ranking, Ranking)
    by_rpe = {**ranking.to_dict(), "metric": "rpe", "signal": "yaw_deg@0.5m"}
    assert Ranking.from_dict(by_rpe).signal == "yaw_deg@0.5m"
    assert decode_json(json.dumps(by_rpe), Ranking).signal == "yaw_deg@0.5m"
    assert pickle.loads(pickle.dumps(Ranking.from_dict(by_rpe))).signal == "yaw_deg@0.5m"


def test_estimated_values_leave_the_settings() -> None:
    offset = load_result(SAVED / "ape_offset_auto.npz")
    old = json.loads(
        np.load(SAVED / "ape_offset_auto.npz")["robot_msgs.json"].tobytes().decode("utf-8")
    )
    assert offset.time_offset is not None
    assert offset.time_offset.offset_s == old["comparison"]["settings"]["offset_estimated_s"]
    assert "offset_estimated_s" not in offset.comparison.parameters
    nees = load_result(SAVED / "ape_nees.json").comparison
    raw = json.loads((SAVED / "ape_nees.json").read_text(encoding="utf-8"))["comparison"]
    assert nees.estimated is not None
    assert nees.estimated.nees_mean_bounds == tuple(raw["settings"]["nees_mean_bounds"])
    assert nees.estimated.nees_dof == 3
    assert dict(nees.parameters) == {"relation": "nees_position"}


def test_a_saved_nees_result_loads_equal_to_the_same_evaluation_today() -> None:
    t = np.arange(50, dtype=np.float64) * 0.1
    ref = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, np.sin(t), 0 * t], 1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (50, 1)),
    )
    noise = np.random.default_rng(7).normal(0.0, 0.01, (50, 3))
    cov = np.tile(np.diag([1e-4, 1e-4, 1e-4, 1e-6, 1e-6, 1e-6]), (50, 1, 1))
    est = ref.replace(positions_xyz=ref.positions_xyz + noise, covariance_6x6=cov)
    (today,) = evaluate(ref, est, metrics=[Ape(relation="nees_position")])
    for release in RELEASES:
        assert _same(load_result(release / "ape_nees.json"), today)


def test_an_old_offset_without_its_curve_keeps_its_value_and_says_what_is_missing() -> None:
    old = {
        "metric": "ape",
        "stats": {"translation": error_stats([0.1]).to_dict()},
        "units": {"translation": "m"},
        "settings": {"offset_auto": True, "offset_estimated_s": -0.1, "offset_std_s": 0.002},
        "counts": {"matched": 10},
    }
    c = Comparison.from_dict(old)
    assert c.settings == EvaluationSettings(offset_auto=True)
    assert c.estimated is not None
    offset = c.estimated.time_offset
    assert offset is not None
    assert (offset.offset_s, offset.std_s, offset.search_s, offset.n_poses) == (
        -0.1,
        0.002,
        (-1.0, 1.0),
        10,
    )
    assert offset.candidates_s.size == 0
    assert "only the offset and its std" in offset.notes[0]


def test_an_old_control_tracking_comparison_keeps_its_channels_and_rule() -> None:
    old = {
        "metric": "tracking",
        "stats": {"joint_1": error_stats([0.1, -0.1]).to_dict()},
        "units": {"joint_1": "rad"},
        "settings": {"resampling": "command linearly interpolated"},
    }
    c = Comparison.from_dict(old)
    assert c.settings is None
    assert (c.signals[0].name, c.signals[0].quantity, c.signals[0].unit) == (
        "joint_1",
        "joint_1",
        "rad",
    )
    assert dict(c.parameters) == {"resampling": "command linearly interpolated"}


def test_a_saved_report_and_a_stored_sweep_record_load() -> None:
    report = from_json((SAVED / "report.json").read_text(encoding="utf-8"))
    assert isinstance(report, Report)
    raw = json.loads((SAVED / "report.json").read_text(encoding="utf-8"))
    for group, old in zip(report.groups, raw["groups"], strict=True):
        assert [s.name for s in group.signals] == list(old["signals"])
        assert [s.unit for s in group.signals] == list(old["units"].values())
        if group.accuracy is not None:
            assert group.accuracy.stats["translation"] == from_json(
                json.dumps(old["accuracy"]["stats"]["translation"])
            )
    record = json.loads((SAVED / "bench_record.json").read_text(encoding="utf-8"))
    result = RunResult.from_dict(record["result"])
    assert result.report is not None
    ape = result.report.comparisons["ape:translation"]
    old_ape = record["result"]["report"]["comparisons"]["ape:translation"]
    assert ape.stats["translation"].rms == old_ape["stats"]["translation"]["rms"]
    assert ape.settings == EvaluationSettings.from_record(old_ape["settings"])


_STATS = error_stats([0.1]).to_dict()
#: Old forms whose parts are not what that form held, and the part each error names.
_HOSTILE_OLD_FORMS = [
    ({"metric": "ape", "stats": [1, 2]}, "Comparison.stats"),
    ({"metric": "ape", "stats": None}, "Comparison.stats"),
    ({"metric": "ape", "stats": {"t": _STATS}, "settings": [1, 2]}, "Comparison.settings"),
    ({"metric": "ape", "stats": {"t": _STATS}, "settings": "ab"}, "Comparison.settings"),
    ({"metric": "ape", "stats": {"t": _STATS}, "units": ["m"]}, "Comparison.units"),
    (
        {"metric": "ape", "stats": {"t": _STATS}, "settings": {"offset_estimated_s": "x"}},
        "Comparison.settings['offset_estimated_s']",
    ),
    (
        {"metric": "ape", "stats": {"t": _STATS}, "settings": {"offset_estimated_s": None}},
        "Comparison.settings['offset_estimated_s']",
    ),
    (
        {
            "metric": "ape",
            "stats": {"t": _STATS},
            "settings": {"offset_estimated_s": 0.1, "offset_search_s": "x"},
        },
        "Comparison.settings['offset_search_s']",
    ),
    (
        {
            "metric": "ape",
            "stats": {"t": _STATS},
            "settings": {"offset_estimated_s": 0.1},
            "counts": {"matched": "x"},
        },
        "Comparison.counts['matched']",
    ),
    (
        {
            "metric": "ape",
            "stats": {"t": _STATS},
            "settings": {"offset_estimated_s": 0.1},
            "counts": [3],
        },
        "Comparison.counts",
    ),
    (
        {"metric": "rpe", "stats": {"t": _STATS}, "settings": {"relation": "x", "delta": ["x"]}},
        "Comparison.settings['delta']",
    ),
    (
        {"metric": "rpe", "stats": {"t": _STATS}, "settings": {"relation": "x", "delta": 10**400}},
        "Comparison.settings['delta']",
    ),
    (
        {"metric": "drift", "stats": {"t": _STATS}, "settings": {"lengths_m": [{"a": 1}]}},
        "Comparison.settings['lengths_m']",
    ),
]


@pytest.mark.parametrize(("old", "part"), _HOSTILE_OLD_FORMS)
def test_an_old_form_with_a_wrong_part_is_refused_naming_it(old: dict[str, Any], part: str) -> None:
    """A dict, a list or a word where the old form held another: a ValueError, an
    AttributeError or a TypeError escaped the migration (and ``res`` called it a bug)."""
    with pytest.raises(ValidationError, match=re.escape(f"- at `{part}`")):
        Comparison.from_dict(old)
    with pytest.raises(ValidationError, match=re.escape(f"- at `{part}`")):
        from_json(dumps(old), Comparison)


def test_old_aggregates_summaries_and_results_with_a_wrong_part_are_refused() -> None:
    with pytest.raises(ValidationError, match=r"got list \[1\] - at `Aggregate.stats`"):
        Aggregate.from_dict({"metric": "ape", "n_runs": 1, "stats": [1]})
    with pytest.raises(ValidationError, match=r"got list \['m'\] - at `Aggregate.units`"):
        Aggregate.from_dict({"metric": "ape", "n_runs": 1, "stats": {}, "units": ["m"]})
    summary = {"algorithm": "a", "sequence": "s", "n_runs": 1, "signals": {}, "units": ["m"]}
    with pytest.raises(ValidationError, match=r"got list \['m'\] - at `GroupSummary.units`"):
        GroupSummary.from_dict(summary)
    saved = json.loads((SAVED / "ape_se3.json").read_text())
    with pytest.raises(ValidationError, match=r"got int 5 - at `EvaluationResult.series`"):
        EvaluationResult.from_dict({**saved, "series": 5})
