"""evo's --save_results zips: evo's numbers, its settings from the title, no pickle."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.errors import FormatError
from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.io import read_trajectory
from robot_msgs.io.evo_results import EVO_ARRAYS, evo_settings, read_evo_result

ZIPS = Path(__file__).parents[1] / "data" / "evo_results"


def _evo_stats(name: str) -> dict[str, float]:
    with zipfile.ZipFile(ZIPS / name) as z:
        stats: dict[str, float] = json.loads(z.read("stats.json"))
    return stats


def test_the_statistics_are_evos_own() -> None:
    result = read_evo_result(ZIPS / "fr1_xyz_ape_se3.zip")
    evo = _evo_stats("fr1_xyz_ape_se3.zip")
    stats = result.stats["translation"]
    assert (stats.rms, stats.mean, stats.median, stats.std, stats.min, stats.max) == (
        evo["rmse"], evo["mean"], evo["median"], evo["std"], evo["min"], evo["max"],
    )  # fmt: skip
    assert (
        stats.n == 785
    )  # the matched poses evo and robot_msgs agree on (tests/data/evo_reference.json)
    assert result.units == {"translation": "m"}
    assert result.comparison.reference == "groundtruth.tum"
    assert result.comparison.estimate == "rgbdslam.tum"


def test_the_settings_come_from_evos_title() -> None:
    sim3 = read_evo_result(ZIPS / "fr1_xyz_ape_sim3_angle_deg.zip")
    assert sim3.metric == "ape"
    # evo's title states the relation, the alignment and any projection, not the rest.
    assert sim3.comparison.settings is None
    assert dict(sim3.comparison.parameters) == {
        "relation": "angle_deg", "align": "sim3", "project_to_plane": None, "n_align": None,
    }  # fmt: skip
    assert sim3.units == {"angle_deg": "deg"}
    assert 0.9 < sim3.alignment.scale < 1.1
    relative = read_evo_result(ZIPS / "fr1_xyz_rpe_se3_1m.zip")
    assert dict(relative.comparison.parameters) == {
        "relation": "translation", "delta": 1.0, "delta_unit": "m", "all_pairs": False, "align": "se3",
        "project_to_plane": None, "n_align": None,
    }  # fmt: skip
    (signal,) = relative.comparison.signals
    assert (signal.quantity, signal.delta, signal.delta_unit) == ("translation", 1.0, "m")
    assert any("evo's title: RPE w.r.t. translation part (m)" in n for n in relative.notes)


def test_our_evaluation_of_the_same_data_gives_evos_numbers() -> None:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    ours = ape(ref, est, settings=EvaluationSettings(align="se3")).stats["translation"]
    evo = read_evo_result(ZIPS / "fr1_xyz_ape_se3.zip")
    assert ours.rms == pytest.approx(evo.stats["translation"].rms, rel=1e-9)
    pairs = PairSettings(delta=1.0, delta_unit="m")
    ours_rpe = rpe(ref, est, settings=EvaluationSettings(align="se3"), pairs=pairs)
    evo_rpe = read_evo_result(ZIPS / "fr1_xyz_rpe_se3_1m.zip")
    assert ours_rpe.stats["translation"].rms == pytest.approx(
        evo_rpe.stats["translation"].rms, rel=1e-9
    )
    assert np.allclose(
        ours_rpe.series["translation"].errors, evo_rpe.series["translation"].errors, rtol=1e-9
    )


def test_an_array_that_needs_pickle_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil.zip"
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with zipfile.ZipFile(ZIPS / "fr1_xyz_ape_se3.zip") as src, zipfile.ZipFile(path, "w") as dst:
        for name in ("info.json", "stats.json"):
            dst.writestr(name, src.read(name))
        dst.writestr("error_array.npy", buffer.getvalue())
    with pytest.raises(
        FormatError,
        match=r"evil\.zip: error_array\.npy: expected an array of floats, got Python objects",
    ):
        read_evo_result(path)


def _copy_with(path: Path, replaced: dict[str, bytes], dropped: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(ZIPS / "fr1_xyz_ape_se3.zip") as src, zipfile.ZipFile(path, "w") as dst:
        for name in src.namelist():
            if name not in dropped:
                dst.writestr(name, replaced.get(name, src.read(name)))
    return path


def test_statistics_that_its_errors_do_not_give_are_refused(tmp_path: Path) -> None:
    """A stats.json saying rmse 0.5 beside errors of rms 0.0135 was shown as 0.5: only the
    statistics' order among themselves was checked."""
    stats = _evo_stats("fr1_xyz_ape_se3.zip")
    lying = _copy_with(
        tmp_path / "lie.zip",
        {"stats.json": json.dumps(stats | {"rmse": 0.03, "max": 1.0}).encode()},
    )
    with pytest.raises(
        FormatError,
        match=r"lie\.zip: stats\.json does not fit error_array: rmse 0\.03 where the errors "
        r"give 0\.01347",
    ):
        read_evo_result(lying)
    # evo's own zips are within rounding of what their arrays give (the bound is 1e-9).
    for name in sorted(p.name for p in ZIPS.glob("*.zip")):
        read_evo_result(ZIPS / name)


def test_a_zip_without_its_error_array_names_the_file(tmp_path: Path) -> None:
    """evo writes error_array.npy in every result zip (evo_res fails without: KeyError
    'np_arrays'). Without it, one beside timestamps.npy said "Expected shape (N,) with
    N=785 (from `ErrorSeries.stamps_s`), got array of shape (0,)", and one of info.json
    and stats.json alone was read as a result of no errors: evo's rmse shown as "-"."""
    said = r"^.*{}\.zip: no error_array\.npy, the errors evo writes in every result zip$"
    bare = _copy_with(tmp_path / "bare.zip", {}, dropped=("error_array.npy",))
    with pytest.raises(FormatError, match=said.format("bare")):
        read_evo_result(bare)
    arrays = tuple(f"{name}.npy" for name in EVO_ARRAYS)
    stats_only = _copy_with(tmp_path / "stats_only.zip", {}, dropped=arrays)
    with pytest.raises(FormatError, match=said.format("stats_only")):
        read_evo_result(stats_only)


def test_an_older_evo_s_npz_zip_is_said_as_one(tmp_path: Path) -> None:
    """evo before its ``.npy`` names wrote ``error_array.npz`` (the same npy bytes;
    ``load_res_file`` still reads both). Such a zip was said to hold no error_array.npy,
    "the errors evo writes in every result zip", though its errors were there."""
    with zipfile.ZipFile(ZIPS / "fr1_xyz_ape_se3.zip") as src:
        entries = {name.replace(".npy", ".npz"): src.read(name) for name in src.namelist()}
    older = tmp_path / "older.zip"
    with zipfile.ZipFile(older, "w") as dst:
        for name, data in entries.items():
            dst.writestr(name, data)
    with pytest.raises(
        FormatError,
        match=r"^.*older\.zip: expected error_array\.npy \(evo 1\.38\.1\), got "
        r"error_array\.npz: a zip of an older evo",
    ):
        read_evo_result(older)


def test_a_projection_in_the_title_is_a_setting() -> None:
    """evo 1.38.1 ``--project_to_plane xy`` adds "(projected to xy plane)" to the title
    (main_ape.py, main_rpe.py). It was dropped, and ``res`` ranked fr1_xyz projected
    (rms 0.0125679) against the same run unprojected (0.0134701) as made alike."""
    title = "APE w.r.t. translation part (m)\n(with SE(3) Umeyama alignment)\n"
    assert evo_settings(title + "(projected to xy plane)")[3] == {
        "relation": "translation", "align": "se3", "project_to_plane": "xy", "n_align": None,
    }  # fmt: skip
    with pytest.raises(FormatError, match=r"expected a plane of evo's \(xy, xz, yz\), got 'ab'"):
        evo_settings(title + "(projected to ab plane)")
    # evo writes the line whenever it projects: a title without is no projection, not
    # unknown (res said it "not recorded" and offered --force-ranking "if made alike").
    assert evo_settings(title)[3]["project_to_plane"] is None


def test_a_title_without_aligned_poses_aligned_on_all_poses() -> None:
    """evo 1.38.1 adds "(aligned poses: N)" whenever --n_to_align is set with -a or -s
    (main_ape.py, main_rpe.py; and n_to_align acts on nothing else). V102 with and
    without ``--n_to_align 100`` (rms 0.189319 and 0.0917271) was refused as
    "--n-align (not recorded in v102.zip ...)", offering --force-ranking "if made alike"."""
    title = "APE w.r.t. translation part (m)\n(with SE(3) Umeyama alignment)"
    assert evo_settings(title + " (aligned poses: 100)")[3]["n_align"] == 100
    assert evo_settings(title)[3]["n_align"] is None  # all poses: our default
    assert evo_settings("APE w.r.t. translation part (m)\n(not aligned)")[3]["n_align"] is None


def test_origin_alignment_after_a_scale_correction_is_origin_scale() -> None:
    """evo_ape --align_origin -s writes "(scale corrected)" then "(with origin alignment)";
    the later line won: res named the V102 zip (rms 0.140082) --align origin beside ours
    made with --align origin_scale (0.139983), "(differs)", and refused to rank them."""
    head = "APE w.r.t. translation part (m)\n"
    both = evo_settings(head + "(scale corrected) (aligned poses: 100)\n(with origin alignment)")
    assert (both[3]["align"], both[3]["n_align"]) == ("origin_scale", 100)
    assert evo_settings(head + "(scale corrected)")[3]["align"] == "scale"
    assert evo_settings(head + "(with origin alignment)")[3]["align"] == "origin"


def test_other_zips_and_titles_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("x.txt", "x")
    with pytest.raises(
        FormatError, match=r"empty\.zip: not an evo result zip \(expected info\.json"
    ):
        read_evo_result(empty)
    not_zip = tmp_path / "plain.zip"
    not_zip.write_text("hello")
    with pytest.raises(FormatError, match=r"plain\.zip: not an evo result zip"):
        read_evo_result(not_zip)
    with pytest.raises(FormatError, match="expected an evo title"):
        evo_settings("something else")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("for delta = x (m) using all pairs", r"for delta = x \(m\)"),
        ("for delta = nan (m) using all pairs", r"for delta = nan \(m\)"),
        ("(with SE(3) Umeyama alignment) (aligned poses: " + "9" * 5000 + ")", "aligned poses"),
        # Any word was taken as the delta's unit (res: --delta-unit parsecs; a review):
        # evo's are frames, degrees, radians and metres, not seconds either.
        (
            "for delta = 1 (parsecs) using all pairs",
            r"delta unit of evo's \(f, m, deg, rad, frames\), got 'parsecs' in 'for delta",
        ),
        ("for delta = 1 (s) using all pairs", r"got 's' in 'for delta = 1 \(s\)"),
    ],
)
def test_a_title_evo_would_not_write_is_refused_naming_the_zip(
    tmp_path: Path, line: str, said: str
) -> None:
    """A title whose delta is no number (or whose aligned-pose count has 5000 digits) let
    a bare ValueError out of read_evo_result ("could not convert string to float: 'x'";
    robot-msgs res: "a bug in robot_msgs")."""
    title = f"RPE w.r.t. translation part (m)\n{line}"
    info = json.dumps({"title": title, "ref_name": "gt", "est_name": "est"}).encode()
    bad = _copy_with(tmp_path / "bad.zip", {"info.json": info})
    with pytest.raises(FormatError, match=rf"bad\.zip: info\.json title: .*{said}"):
        read_evo_result(bad)


def test_every_alignment_phrase_evo_writes_is_read() -> None:
    phrases = {
        "(with SE(3) Umeyama alignment)": "se3",
        "(with Sim(3) Umeyama alignment)": "sim3",
        "(scale corrected)": "scale",
        "(with origin alignment)": "origin",
        "(not aligned)": "none",
    }
    for phrase, method in phrases.items():
        assert (
            evo_settings(f"APE w.r.t. full transformation (unit-less)\n{phrase}")[3]["align"]
            == method
        )
    title = "RPE w.r.t. point distance (m)\nfor delta = 5 (f) using all pairs\n(with SE(3) Umeyama alignment) (aligned poses: 20)"
    metric, relation, unit, settings = evo_settings(title)
    assert (metric, relation, unit) == ("rpe", "point_distance", "m")
    assert settings == {
        "relation": "point_distance",
        "delta": 5.0,
        "delta_unit": "f",
        "all_pairs": True,
        "align": "se3",
        "n_align": 20,
        "project_to_plane": None,
    }


def test_the_delta_units_evo_writes_are_read_as_ours() -> None:
    """evo 1.38.1 writes its Unit's value (frames, deg, rad, m); older titles wrote f."""
    head = "RPE w.r.t. translation part (m)\nfor delta = 2 ({}) using consecutive pairs"
    words = {"frames": "f", "f": "f", "deg": "deg", "rad": "rad", "m": "m"}
    assert {w: evo_settings(head.format(w))[3]["delta_unit"] for w in words} == words


def test_a_document_that_is_no_object_is_named_in_jsons_words(tmp_path: Path) -> None:
    """stats.json holding null said 'got NoneType' (Python's name; a review)."""
    odd = _copy_with(tmp_path / "odd.zip", {"stats.json": b"null"})
    with pytest.raises(
        FormatError, match=r"odd\.zip: stats\.json: expected a JSON object, got a JSON null$"
    ):
        read_evo_result(odd)
