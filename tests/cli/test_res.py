"""``robot-msgs res``: ours and evo's saved results in one table, ranked only when comparable."""

from __future__ import annotations

import csv
import json
import math
import re
import zipfile
from pathlib import Path

import pytest

from robot_msgs.cli import main
from tests.cli.evaluation_files import numbered_table, stats_of

ZIPS = Path(__file__).parents[1] / "data" / "evo_results"
GT, EST = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"


def _evo_rmse(name: str) -> float:
    with zipfile.ZipFile(ZIPS / name) as z:
        rmse: float = json.loads(z.read("stats.json"))["rmse"]
    return rmse


def _save(tmp_path: Path, name: str, *flags: str) -> Path:
    path = tmp_path / name
    assert main(["ape", GT, EST, *flags, "--save", str(path)]) == 0
    return path


def test_res_shows_ours_and_evos_rmse_of_the_same_evaluation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    ours_json = _save(tmp_path, "ours.json", "--align", "se3")
    ours_npz = _save(tmp_path, "ours.npz", "--align", "se3")
    ours_pq = _save(tmp_path, "ours.parquet", "--align", "se3")
    evo = ZIPS / "fr1_xyz_ape_se3.zip"
    capsys.readouterr()
    out_json = tmp_path / "res.json"
    args = ["res", str(ours_json), str(ours_npz), str(ours_pq), str(evo), "--json", str(out_json)]
    assert main(args) == 0
    text = capsys.readouterr().out
    said = " ".join(text.split())  # the notes wrap at 80 columns
    data = json.loads(out_json.read_text())
    # Every output says the flags, not the library's spelling (an HTML page told a
    # command-line user to pass `force=True`; a review).
    assert any("--force-ranking" in note for note in data["notes"])
    assert not any("force=True" in note or "`sync=`" in note for note in data["notes"])
    rms = {r["name"]: stats_of(r["comparison"])["translation"]["rms"] for r in data["results"]}
    evo_rmse = _evo_rmse("fr1_xyz_ape_se3.zip")
    assert rms[str(evo)] == evo_rmse  # evo's own number, not recomputed
    for ours in (ours_json, ours_npz, ours_pq):
        assert math.isclose(rms[str(ours)], evo_rmse, rel_tol=1e-9)
    # Temporary paths are wider than half of 80 columns: the table is transposed.
    row = numbered_table(text)[str(evo)]
    assert row["rms"] == f"{evo_rmse:.6g}"
    assert row["tool"] == "evo"
    table = text.split("Results\n", 1)[1].split("\n\n")[1]
    assert max(len(line) for line in table.splitlines() if str(evo) not in line) <= 80
    # evo's zip does not record the association settings: unknown there, so no column
    # says they differ; one note says so, and the results are not ranked (the same
    # refusal as robot-msgs report), naming this command's flag and no Python None.
    assert "(differs)" not in text
    assert f"are not recorded in {evo}: not compared." in " ".join(text.split())
    # Named by their flags, as the columns and the refusal name them (it said "19 settings
    # (n_align, align_window_s, sync, ...)", the fields; a review).
    listed = re.search(r"\d+ settings \(([^)]*)\) are not recorded in", said)
    assert listed is not None
    assert all(name.startswith("--") for name in listed.group(1).split(", ")[:3]), listed[0]
    # In flag spelling: the flag, and its values as the flag takes them.
    # Unknown is not "different" (evo's defaults are ours): the refusal says it cannot
    # tell, and names the flag to rank anyway, not a new evaluation evo's zip cannot have.
    opening = "NOTE: not ranked: refusing to mix results whose settings cannot all be compared:"
    note = said.split(opening)[1]
    assert "if they were made alike, rank them anyway with --force-ranking" in note
    assert "evaluate them with the same settings" not in note
    # Every setting the zip lacks and ours records is named, as its flag, in one group.
    for flag in ("--sync nearest", "--max-diff 0.01", "no --offset auto"):
        assert flag in note.split(f"not recorded in {evo}")[0], flag
    assert "--force-ranking" in text
    assert "None" not in text
    shared = text.split("Shared settings", 1)[1].split("NOTE:", 1)[0].split()
    assert shared[shared.index("--align") + 1] == "se3"
    assert "--n-align" not in shared  # unset everywhere: not a row of "-"
    assert "--confidence" not in shared  # at its default: said once, not listed
    assert "Settings at their defaults are not listed." in " ".join(shared)


def test_two_settings_of_one_flag_are_columns_told_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--offset auto` and `--offset 0.01` were columns headed alike, "--offset (differs)"
    twice (a review): each is named as the flag sets it, the number and the word."""
    _save(tmp_path, "auto.json", "--offset", "auto")
    _save(tmp_path, "late.json", "--offset", "0.01")
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["res", "auto.json", "late.json"]) == 0
    text = capsys.readouterr().out
    said = " ".join(text.split())
    assert "--offset (differs)" not in text
    headers = [line.split() for line in text.splitlines() if line.startswith("result ")]
    headers = [h for h in headers if "(differs)" in h]
    assert [h[h.index("(differs)") - 2 : h.index("(differs)")] for h in headers] == [
        ["--offset", "SECONDS"],
        ["--offset", "auto"],
    ]
    rows = [line.split() for line in text.splitlines() if line.startswith(("auto", "late"))]
    # Two blocks of columns: --offset SECONDS (with --offset auto: unused), --offset auto.
    assert [row[-1] for row in rows[:2]] == ["0", "0.01"]
    assert [row[4] for row in rows[2:4]] == ["auto", "off"]
    # The refusal names them as the columns do.
    assert "different settings of --offset SECONDS and --offset auto (--offset 0," in said


def test_differing_settings_are_columns_and_block_the_ranking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    se3 = _save(tmp_path, "se3.json", "--align", "se3")
    sim3 = _save(tmp_path, "sim3.json", "--align", "sim3")
    none = _save(tmp_path, "none.json")
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["res", "se3.json", "sim3.json"]) == 0
    out = capsys.readouterr().out
    assert "--align (differs)" in out
    assert (
        "not ranked: refusing to mix results made with different settings of --align "
        "(--align se3 in se3.json; --align sim3 in sim3.json)"
    ) in " ".join(out.split())
    assert max(len(line) for line in out.splitlines()) <= 80  # the note too, wrapped
    assert "Ranking" not in out
    assert main(["res", str(se3), str(sim3), str(none), "--force-ranking"]) == 0
    out = capsys.readouterr().out
    ranking = out.split("Ranking by rms (FORCED: settings mixed)", 1)[1].splitlines()
    # Rows, or (paths too wide for rows) a record a result: folded, the numbers lost them.
    records = [line.split()[1] for line in ranking if line.startswith("result ")]
    order = records or [line.split()[1] for line in ranking[3:6]]
    assert "NOTE: ranking FORCED across differing settings: --align" in out
    # A Sim(3) fit has one more degree of freedom than SE(3), and no alignment is worst.
    assert order == [str(sim3), str(se3), str(none)]


def test_a_ranking_forced_past_unrecorded_settings_says_it_was_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ours and an evo zip agree on every setting the zip records, but it records no
    # association settings: refused without --force-ranking, and with it the ranking said
    # nothing of being forced (a plain "Ranking by rms", "forced": false; a review).
    ours = _save(tmp_path, "ours.json", "--align", "se3")
    evo = ZIPS / "fr1_xyz_ape_se3.zip"
    out_json = tmp_path / "res.json"
    capsys.readouterr()
    assert main(["res", str(ours), str(evo), "--force-ranking", "--json", str(out_json)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Ranking by rms (FORCED: settings not all recorded)" in out
    assert f"NOTE: ranking FORCED across settings not recorded in {evo}: --sync, --max-diff" in out
    data = json.loads(out_json.read_text())
    assert data["forced"] is True
    assert data["ranking"] is not None
    assert any(
        note.startswith("ranking FORCED across settings not recorded") for note in data["notes"]
    )


@pytest.mark.parametrize("name", ["m.json", "result_with_a_name_of_37_columns.json"])
def test_every_folded_block_of_statistics_says_its_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # Results in metres and in degrees: only the first folded block had the unit column,
    # so rms 0.0134701 (m) stood beside 2.0577 (deg) with nothing to tell them (a review).
    _save(tmp_path, name, "--align", "se3")
    _save(tmp_path, "deg.json", "--align", "se3", "--relation", "angle_deg")
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["res", name, "deg.json"]) == 0
    table = capsys.readouterr().out.split("Results\n", 1)[1].split("\n  ", 1)[0]
    blocks = table.split("\n\n")
    assert len(blocks) > 1  # folded
    for block in blocks:
        heads, _, *rows = block.splitlines()
        assert heads.split()[:2] == ["result", "unit"], block
        assert [row.split()[1] for row in rows] == ["m", "deg"], block


def test_results_of_several_deltas_are_a_folded_table_not_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two RPE results of three deltas each were printed as six records of twelve lines (92
    # lines at 80 columns): the columns that tell their rows apart, result to signal, ran
    # through unit, tool and metric past half the width. The signal now follows the unit.
    monkeypatch.chdir(tmp_path)
    for name in ("a_deltas.json", "b_deltas.json"):
        argv = ["rpe", GT, EST, "--delta", "0.5", "1", "2", "--delta-unit", "s", "--save", name]
        assert main(argv) == 0
    capsys.readouterr()
    assert main(["res", "a_deltas.json", "b_deltas.json"]) == 0
    table = capsys.readouterr().out.split("Results\n", 1)[1].split("\n  ", 1)[0]
    blocks = table.split("\n\n")
    assert len(blocks) > 1  # folded, not one record a row
    for block in blocks:
        heads, _, *rows = block.splitlines()
        assert heads.split()[:3] == ["result", "unit", "signal"], block
        assert [row.split()[:3] for row in rows] == [
            [name, "m", f"translation@{delta}s"]
            for name in ("a_deltas.json", "b_deltas.json")
            for delta in ("0.5", "1", "2")
        ], block
        assert all(len(line) <= 80 for line in block.splitlines())


def test_a_ranking_of_results_of_several_signals_names_the_one_it_ranks_by(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # RPE results of deltas 2 and 0.5 s were ranked by their first signal's rms (2 s) under
    # "Ranking by rms", n the 2 s pairs', with no word of which delta.
    monkeypatch.chdir(tmp_path)
    for name in ("a.json", "b.json"):
        argv = ["rpe", GT, EST, "--delta", "2", "0.5", "--delta-unit", "s", "--save", name]
        assert main(argv) == 0
    a = json.loads((tmp_path / "a.json").read_text())
    capsys.readouterr()
    assert main(["res", "a.json", "b.json"]) == 0
    ranking = capsys.readouterr().out.split("Ranking by ", 1)[1].splitlines()
    assert ranking[0] == "rms of translation@2s"
    first = a["comparison"]["signals"][0]
    assert first["name"] == "translation@2s"
    assert ranking[3].split()[1:3] == ["a.json", str(first["stats"]["n"])]  # 1.5: a tie


def test_a_refusal_to_rank_names_every_differing_setting_as_its_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _save(tmp_path, "a.json", "--align", "se3")
    _save(tmp_path, "b.json", "--align", "sim3", "--sync", "one-to-one", "--max-diff", "0.02")
    _save(tmp_path, "c.json", "--align", "se3", "--t-end", "1305031110")
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["res", "a.json", "b.json", "c.json"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "NOTE: not ranked: refusing to mix results made with different settings of --align, "
        "--sync and --max-diff (--align se3, --sync nearest, --max-diff 0.01 in a.json; "
        "--align sim3, --sync one-to-one, --max-diff 0.02 in b.json) and of --t-end "
        "(no --t-end in a.json; --t-end 1305031110.0 in c.json); evaluate them with the same "
        "settings, or rank them anyway with --force-ranking"
    ) in out


def test_same_settings_are_ranked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = _save(tmp_path, "full.json", "--align", "se3")
    short = _save(tmp_path, "short.json", "--align", "se3", "--t-end", "1305031110")
    capsys.readouterr()
    assert main(["res", str(full), str(short)]) == 0
    out = capsys.readouterr().out
    assert "--t-end (differs)" in out
    assert "NOTE: not ranked: refusing to mix results made with different settings of --t-end" in (
        " ".join(out.split())
    )
    same = _save(tmp_path, "again.npz", "--align", "se3")
    capsys.readouterr()
    assert main(["res", str(full), str(same)]) == 0
    out = capsys.readouterr().out
    assert "Ranking by rms\n" in out


def test_tables_and_plot_are_written_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    ours = _save(tmp_path, "ours.json", "--align", "se3")
    evo = ZIPS / "fr1_xyz_ape_se3.zip"
    outs = {ext: tmp_path / f"res.{ext}" for ext in ("csv", "tex", "md", "pdf")}
    capsys.readouterr()
    args = ["res", str(ours), str(evo), "--csv", str(outs["csv"]), "--latex", str(outs["tex"])]
    args += ["--markdown", str(outs["md"]), "--plot", str(outs["pdf"])]
    assert main(args) == 0
    out = capsys.readouterr().out
    for path in outs.values():
        assert f"wrote {path}" in out
    assert outs["pdf"].read_bytes().startswith(b"%PDF-")
    rows = outs["csv"].read_text().splitlines()
    assert rows[0].startswith("result,tool,metric,signal,unit,n,rms,")
    assert len(rows) == 3
    assert "\\begin{tabular}" in outs["tex"].read_text()
    assert "| result | unit | signal | tool |" in outs["md"].read_text()
    assert main([*args[:2], str(evo), "--csv", str(outs["csv"])]) == 1
    assert "exists" in capsys.readouterr().err


def test_a_file_that_is_no_result_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    assert main(["res", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {bad}: not a saved result (the JSON that ape, rpe or drift")
    assert err.endswith(": not JSON at line 1, column 1 (Expecting value)\n")
    assert "Traceback" not in err
    assert main(["res", str(ZIPS / "fr1_xyz_ape_se3.zip"), "--plot", str(tmp_path / "x.jpg")]) == 1
    assert "--plot" in capsys.readouterr().err


def test_html_is_one_interactive_page_with_the_differing_settings_marked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("plotly")
    se3 = _save(tmp_path, "se3.json", "--align", "se3")
    sim3 = _save(tmp_path, "sim3.npz", "--align", "sim3")
    page = tmp_path / "res.html"
    capsys.readouterr()
    assert (
        main(["res", str(se3), str(sim3), str(ZIPS / "fr1_xyz_ape_se3.zip"), "--html", str(page)])
        == 0
    )
    assert f"wrote {page}" in capsys.readouterr().out
    text = page.read_text(encoding="utf-8")
    assert text.count('<div class="plot"') == 5  # time, distance, box, violin, histogram
    assert '<th class="differs">--align (differs)</th>' in text
    assert "not ranked: refusing to mix results made with different" in text
    assert "Plotly.newPlot" in text


def test_html_says_each_plots_title_once(tmp_path: Path) -> None:
    """Each plot's title was drawn above it and again as its caption below (a review)."""
    pytest.importorskip("plotly")
    page = tmp_path / "res.html"
    assert main(["res", str(_save(tmp_path, "a.json")), "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "<figcaption>" not in text
    titles = ["Error over time", "Error over distance", "Box plot (whiskers 1.5 IQR)"]
    titles += ["Violin plot (min to max)", "Histogram (40 bins)"]
    for title in titles:  # the figure's title, and its name for a screen reader
        assert text.count(f'"text":"{title}"') == 1
        assert text.count(f'aria-label="{title}"') == 1


def test_force_without_an_output_and_a_missing_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evo = str(ZIPS / "fr1_xyz_ape_se3.zip")
    assert main(["res", evo, "--force"]) == 2
    assert capsys.readouterr().err.startswith("ERROR: --force only goes with an output")
    missing = tmp_path / "no" / "res.csv"
    assert main(["res", evo, "--csv", str(missing)]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert not missing.parent.exists()


def test_dpi_without_plot_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # It was ignored in silence (a review), where --label alone is refused.
    assert main(["res", str(ZIPS / "fr1_xyz_ape_se3.zip"), "--dpi", "300"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --dpi sets the PNG resolution of --plot's figure; give --plot FILE too\n"
    )


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_res_takes_an_evo_zip_and_ours_in_either_order(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: `res EVO.zip OURS.json` crashed (KeyError 'n_align'); the other order worked."""
    ours = tmp_path / f"ours{suffix}"
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    assert main(["ape", ref, est, "--align", "se3", "--save", str(ours)]) == 0
    capsys.readouterr()
    evo = str(ZIPS / "fr1_xyz_ape_se3.zip")
    assert main(["res", evo, str(ours)]) == 0
    first = capsys.readouterr().out
    assert main(["res", str(ours), evo]) == 0
    second = capsys.readouterr().out
    results = numbered_table(first)
    assert sorted(results) == sorted([evo, str(ours)])
    assert results == numbered_table(second)


def test_settings_that_do_not_apply_or_are_unset_are_not_noted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: `res APE RPE` noted "6 settings (delta, ...) are not recorded in" the APE
    result (no APE setting) and listed --relation translation, a default, as shared; ours
    beside evo's zip counted 19 settings not compared, 10 of them unset in ours, which the
    refusal compares as unset."""
    ape = _save(tmp_path, "ape.json", "--align", "se3")
    rpe = tmp_path / "rpe.json"
    assert main(["rpe", GT, EST, "--save", str(rpe)]) == 0
    capsys.readouterr()
    assert main(["res", str(ape), str(rpe)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "not recorded" not in said
    assert "Shared settings" not in said
    assert "Every setting they share is at its default." in said
    evo = ZIPS / "fr1_xyz_ape_se3.zip"
    assert main(["res", str(ape), str(evo)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    # 8: --confidence, which bounds NEES only, is no setting of an APE of translation
    noted = f"8 settings (--sync, --max-diff, --spatial-pairs, ...) are not recorded in {evo}"
    assert noted in said
    refused = said.split("cannot all be compared: ", 1)[1].split(" (", 1)[0]
    assert len(refused.replace(" and ", ", ").split(", ")) == 8  # the same settings


def test_confidence_is_no_setting_of_an_rpe_result_beside_an_evo_zip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: `res r.json evo_rpe.zip` listed --confidence 0.95 among the settings that
    block the ranking, though it bounds APE's NEES only (rpe offers no --confidence)."""
    rpe = tmp_path / "r.json"
    assert main(["rpe", GT, EST, "--save", str(rpe)]) == 0
    capsys.readouterr()
    assert main(["res", str(rpe), str(ZIPS / "fr1_xyz_rpe_se3_1m.zip")]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "refusing to mix" in said  # --align and --delta-unit still differ
    assert "11 settings (--pairs-from-reference, --delta-tol, --protocol, ...)" in said
    assert "--confidence" not in said


def test_a_switch_left_off_is_said_as_no_flag_and_defaults_are_not_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: the refusal said "--all-pairs in a; --all-pairs in b" for off and on, and
    "Shared settings" listed rpe's defaults (--delta 1, --delta-unit f, --protocol evo...)
    under a note saying defaults are not listed."""
    monkeypatch.chdir(tmp_path)
    for name, flags in (("one.json", []), ("all.json", ["--all-pairs"])):
        assert main(["rpe", GT, EST, *flags, "--save", name]) == 0
    capsys.readouterr()
    assert main(["res", "one.json", "all.json"]) == 0
    out = capsys.readouterr().out
    said = " ".join(out.split())
    assert "settings of --all-pairs (no --all-pairs in one.json; --all-pairs in all.json)" in said
    assert "Shared settings" not in out
    assert "Every setting they share is at its default." in said
    assert "--delta" not in out


def test_results_in_different_units_get_their_tables_and_no_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("plotly")
    pytest.importorskip("matplotlib")
    metres = _save(tmp_path, "m.json", "--align", "se3")
    degrees = _save(tmp_path, "deg.json", "--align", "se3", "--relation", "angle_deg")
    page, plot = tmp_path / "res.html", tmp_path / "res.png"
    capsys.readouterr()
    assert main(["res", str(metres), str(degrees), "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "<strong>No plots</strong>: the results are in different units (deg, m)" in text
    assert '<div class="plot"' not in text
    assert "<td>angle_deg</td>" in text  # the table is there
    capsys.readouterr()
    # The table was not printed nor the other outputs written: the plot's refusal ended all.
    table = tmp_path / "res.csv"
    assert main(["res", str(metres), str(degrees), "--plot", str(plot), "--csv", str(table)]) == 1
    captured = capsys.readouterr()
    assert "angle_deg" in captured.out
    assert f"wrote {table}" in captured.out
    assert captured.err == (
        f"ERROR: --plot {plot}: nothing drawn: the results are in different units (deg, m); "
        "plot results of one unit\n"
    )
    assert table.exists()
    assert not plot.exists()


def test_an_rpe_result_shows_its_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`res` showed an RPE row as "rpe" whatever its delta: 1 m and 1 frame looked alike."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    metre, frame = tmp_path / "m.json", tmp_path / "f.json"
    assert main(["rpe", ref, est, "--delta-unit", "m", "--save", str(metre)]) == 0
    assert main(["rpe", ref, est, "--all-pairs", "--save", str(frame)]) == 0
    capsys.readouterr()
    assert main(["res", str(metre), str(frame)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^metric +rpe 1 m +rpe 1 frame, all pairs *$", out, re.MULTILINE), out


def test_the_csv_says_not_set_one_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An APE row had `'-` for an unset setting and an empty cell for an RPE-only one."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    ape, rpe, out = tmp_path / "a.json", tmp_path / "r.json", tmp_path / "o.csv"
    assert main(["ape", ref, est, "--save", str(ape)]) == 0
    assert main(["rpe", ref, est, "--save", str(rpe)]) == 0
    assert main(["res", str(ape), str(rpe), "--csv", str(out)]) == 0
    capsys.readouterr()
    header, *rows = out.read_text(encoding="utf-8").splitlines()
    assert all("'-" not in row.split(",") for row in rows)
    column = header.split(",").index("setting:n_align")
    assert [row.split(",")[column] for row in rows] == ["", ""]


def test_json_without_a_file_is_standard_outputs_only_content(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`res A B --json` needed a FILE ("expected one argument"), as ape's --json does not;
    `--json -` mixed the tables into the JSON on standard output."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    saved = tmp_path / "a.json"
    assert main(["ape", ref, est, "--save", str(saved)]) == 0
    capsys.readouterr()
    for flags in (["--json"], ["--json", "-"]):
        assert main(["res", str(saved), *flags]) == 0
        captured = capsys.readouterr()
        assert json.loads(captured.out)["results"][0]["name"] == str(saved)
        assert "Results" in captured.err


def test_results_of_two_recordings_are_not_ranked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fr2_desk's ORB (0.0081 m) was ranked above fr1_xyz's RGBD-SLAM (0.0135 m)."""
    from robot_msgs.io import read_trajectory, write_trajectory

    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    later: list[str] = []
    for path in (ref, est):
        traj = read_trajectory(path)
        moved = tmp_path / f"later_{len(later)}.tum"
        write_trajectory(moved, traj.replace(stamps_s=traj.stamps_s + 1e5))
        later.append(str(moved))
    one, two, same = tmp_path / "one.json", tmp_path / "two.json", tmp_path / "same.json"
    assert main(["ape", ref, est, "--save", str(one)]) == 0
    assert main(["ape", *later, "--save", str(two)]) == 0
    assert main(["ape", ref, est, "--align", "none", "--save", str(same)]) == 0
    capsys.readouterr()
    assert main(["res", str(one), str(two)]) == 0
    out = capsys.readouterr().out
    assert "Ranking" not in out
    said = " ".join(out.split())  # the note is folded to 80 columns
    assert f"not ranked: {one} and {two} were evaluated against references whose" in said
    assert "times never overlap" in said
    assert main(["res", str(one), str(same)]) == 0  # one recording: ranked
    assert "Ranking by rms" in capsys.readouterr().out


def test_a_saved_result_of_an_old_form_with_a_wrong_part_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 9745f2d result whose offset is a word was "a bug in robot_msgs" (a ValueError)."""
    saved = Path(__file__).parents[1] / "data" / "saved_9745f2d" / "ape_se3.json"
    tree = json.loads(saved.read_text())
    tree["comparison"]["settings"]["offset_estimated_s"] = "x"
    bad = tmp_path / "old.json"
    bad.write_text(json.dumps(tree))
    assert main(["res", str(bad)]) == 1
    err = capsys.readouterr().err
    expected = f"ERROR: {bad}: Expected a number, got str 'x' - at "
    assert err == expected + "`Comparison.settings['offset_estimated_s']`\n"


def test_the_command_line_is_refused_before_any_output_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``res R --label a --csv existing.csv`` was told that the CSV exists (exit 1), then
    after --force, that --label needs --plot (exit 2): res checked its outputs first,
    where ape, rpe, drift and traj refuse the command line first, then the outputs, then
    read the inputs."""
    evo = str(ZIPS / "fr1_xyz_ape_se3.zip")
    existing = tmp_path / "existing.csv"
    existing.write_text("kept\n")
    assert main(["res", evo, "--label", "a", "--csv", str(existing)]) == 2
    assert capsys.readouterr().err.startswith("ERROR: --label names the results in --plot's")
    # a --label count that does not fit, a --plot that names no figure: before the CSV
    three = ["--label", "a", "--label", "b", "--label", "c", "--plot", str(tmp_path / "x.pdf")]
    assert main(["res", evo, evo, *three, "--csv", str(existing)]) == 2
    assert "--label a b c: 3 given for 2 inputs" in capsys.readouterr().err
    assert main(["res", evo, "--plot", str(tmp_path / "x.txt"), "--csv", str(existing)]) == 1
    assert capsys.readouterr().err.startswith("ERROR: --plot ")
    assert (
        main(["res", evo, "--plot", str(tmp_path / "x.pdf"), "--dpi", "0", "--csv", str(existing)])
        == 2
    )
    assert "--dpi" in capsys.readouterr().err
    # the outputs before the inputs, as ape's
    missing = str(tmp_path / "missing.json")
    assert main(["res", missing, "--csv", str(existing)]) == 1
    assert "exists" in capsys.readouterr().err
    assert existing.read_text() == "kept\n"


def test_plot_to_standard_output_is_the_png_alone(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    """``res R --plot -`` (reachable since 9d9f958 took ``-`` for a value) said "wrote -"
    after the tables, as traj did: no file is named so."""
    pytest.importorskip("matplotlib")
    assert main(["res", str(ZIPS / "fr1_xyz_ape_se3.zip"), "--plot", "-"]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out.startswith(b"\x89PNG\r\n\x1a\n")
    assert b"translation" in captured.err  # the table, on standard error
    assert b"wrote" not in captured.err


def test_res_plot_help_says_drift_results_box_their_rotation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # cff22cd gave drift results a sixth panel, their rotation boxed per segment length;
    # --plot's help listed the five panels as the whole figure.
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["res", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "histogram (drift results: their rotation boxed too)" in said


@pytest.mark.parametrize(
    "names", [["fr1_xyz_ape_se3.zip"], ["fr1_xyz_ape_se3.zip", "fr1_xyz_ape_sim3_angle_deg.zip"]]
)
def test_evos_zips_alone_say_the_settings_their_titles_do_not_are_unknown(
    names: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`res A.zip B.zip` of evo's zips alone said "Every setting they share is at its
    default." (or listed --align under "Settings at their defaults are not listed."), of
    zips whose info.json holds only a title: one made with `evo_ape --t_max_diff 0.02
    --t_offset 0.05` was said to be at --max-diff 0.01 and no offset. Beside ours, the
    settings evo's zip lacks are named as not compared; alone, none was."""
    assert main(["res", *(str(ZIPS / name) for name in names)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    default = "Every setting they share is at its default." if len(names) > 1 else "--align se3"
    assert default in said
    unknown = "evo's zips record only what their titles say: their other settings (--sync, "
    assert f"{unknown}--max-diff, --offset, ...) are not known." in said.split(default, 1)[1]
    # Ours beside evo's names the settings the zip lacks, as before, and not this note.
    ours = _save(tmp_path, "ours.json", "--align", "se3")
    capsys.readouterr()
    assert main(["res", str(ours), str(ZIPS / names[0])]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "not known" not in said
    assert "are not recorded in" in said


def test_results_of_ours_without_settings_are_not_said_to_be_evos_zips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A result built without settings (a library Comparison) and saved as ours was told
    "evo's zips record only what their titles say" where no zip was given."""
    from robot_msgs.compare import Comparison, Signal
    from robot_msgs.io.evo_results import read_evo_result
    from robot_msgs.io.result_files import save_result

    signal = Signal.of("translation", "m", [0.1, 0.2], stamps_s=[0.0, 1.0])
    bare = Comparison(metric="ape", signals=(signal,))
    assert bare.settings is None
    result = read_evo_result(ZIPS / "fr1_xyz_ape_se3.zip").replace(comparison=bare)
    paths = [save_result(tmp_path / name, result) for name in ("a.json", "b.json")]
    assert main(["res", *map(str, paths)]) == 0
    assert "evo's zips" not in " ".join(capsys.readouterr().out.split())


def test_res_signal_keeps_one_quantity_of_rpg_drift_results_for_tables_and_boxes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rpg's plots box one quantity per length: rel_yaw (deg, analyze_trajectory_single),
    rel_trans_perc beside rel_rot_deg_per_m (analyze_trajectories).

    ``res`` of four rpg drift results printed all 30 signals of each (1834 lines, 11
    LaTeX tables) and boxed the first, translation in metres: no yaw box, no % box.
    """
    saved = []
    for name, align in (("sim3.json", "sim3"), ("se3.json", "se3")):
        saved.append(str(tmp_path / name))
        argv = ["drift", GT, EST, "--protocol", "rpg", "--align", align, "--save", saved[-1]]
        assert main([*argv, "--quiet"]) == 0
    out = tmp_path / "yaw.csv"
    plot = tmp_path / "yaw.png"
    args = ["res", *saved, "--signal", "yaw_world_deg", "--csv", str(out), "--plot", str(plot)]
    assert main(args) == 0
    signals = [row["signal"] for row in csv.DictReader(out.read_text().splitlines())]
    lengths = ["0.91", "1.83", "2.74", "3.66", "4.57"]  # 10..50 % of fr1_xyz's 9.15 m
    assert signals == [f"yaw_world_deg@{m}m" for m in lengths] * 2
    assert plot.stat().st_size > 0
    capsys.readouterr()
    # The filter is recorded: the tables and the JSON of a filtered comparison said
    # nothing of the 25 signals of each result left out.
    kept = "--signal yaw_world_deg: only these signals of each result are compared"
    assert main(["res", *saved, "--signal", "yaw_world_deg"]) == 0
    assert kept in " ".join(capsys.readouterr().out.split())
    assert main(["res", *saved, "--signal", "yaw_world_deg", "--json", "-"]) == 0
    assert kept in json.loads(capsys.readouterr().out)["notes"]
    assert main(["res", *saved, "--signal", "rotation"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"ERROR: --signal: expected a quantity of {saved[0]} (translation, translation_pct, "
        "rotation_deg, yaw_world_deg, gravity_deg, rotation_deg_per_m) or a signal's name "
        "(translation@0.91m, translation_pct@0.91m, rotation_deg@0.91m and 27 more), got "
        "'rotation'"
    )


def test_res_signal_filter_is_recorded_in_csv_markdown_and_latex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``res --signal`` said the filter in its text and its JSON only: the CSV, Markdown
    and LaTeX of two rpg drift results held 5 lengths of yaw each (10..50 % of fr1_xyz's
    9.15 m) with no word of the 25 signals of each left out. CSV has no comments (a ``#``
    line above the header was the header to ``csv.DictReader``): a last column."""
    saved = []
    for name, align in (("sim3.json", "sim3"), ("se3.json", "se3")):
        saved.append(str(tmp_path / name))
        argv = ["drift", GT, EST, "--protocol", "rpg", "--align", align, "--save", saved[-1]]
        assert main([*argv, "--quiet"]) == 0
    outputs = {fmt: tmp_path / f"kept.{fmt}" for fmt in ("csv", "markdown", "latex")}
    args = ["res", *saved, "--signal", "yaw_world_deg", "--signal", "gravity_deg"]
    assert main([*args, *(a for f, p in outputs.items() for a in (f"--{f}", str(p)))]) == 0
    capsys.readouterr()
    rows = list(csv.DictReader(outputs["csv"].read_text().splitlines()))
    lengths = ["0.91", "1.83", "2.74", "3.66", "4.57"]
    kept = [f"{q}@{m}m" for q in ("yaw_world_deg", "gravity_deg") for m in lengths]
    assert [row["signal"] for row in rows] == kept * 2
    assert {row["kept_signals"] for row in rows} == {"yaw_world_deg gravity_deg"}
    note = "--signal yaw_world_deg --signal gravity_deg: only these signals of each result are compared"
    assert f"*{note}*" in outputs["markdown"].read_text().splitlines()
    latex = outputs["latex"].read_text()
    assert note.replace("--", "-{}-").replace("_", "\\_") in latex
    # Unfiltered, the CSV keeps its columns (no empty kept_signals).
    assert main(["res", *saved, "--csv", "-"]) == 0
    assert "kept_signals" not in capsys.readouterr().out


def test_res_notes_reach_markdown_and_latex_as_the_text_says_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``res`` said why it did not rank ("not ranked: ...") in its text and its JSON
    only: the Markdown and the LaTeX of two APEs aligned se3 and sim3 showed the table
    and no ranking, with no word of why. Every note the text prints is under the
    Results table there (the ``--signal`` note took that road alone)."""
    for name in ("se3", "sim3"):
        _save(tmp_path, f"{name}.json", "--align", name)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    args = ["res", "se3.json", "sim3.json", "--markdown", "r.md", "--latex", "r.tex"]
    assert main([*args, "--json", "r.json", "--signal", "translation"]) == 0
    said = " ".join(capsys.readouterr().out.split())  # the text's notes wrap at 80 columns
    refusal = (
        "not ranked: refusing to mix results made with different settings of --align "
        "(--align se3 in se3.json; --align sim3 in sim3.json); evaluate them with the same "
        "settings, or rank them anyway with --force-ranking (the ranking then says so)"
    )
    kept = "--signal translation: only these signals of each result are compared"
    for note in (refusal, kept):
        assert f"NOTE: {note}" in said
    assert json.loads(Path("r.json").read_text())["notes"] == [refusal, kept]
    markdown = Path("r.md").read_text().splitlines()
    assert [f"*{n}*" for n in (refusal, kept)] == markdown[-2:]
    latex = " ".join(Path("r.tex").read_text().split())
    for note in (refusal, kept):
        assert note.replace("--", "-{}-") in latex
    assert "Ranking" not in "\n".join(markdown)


def test_res_signal_refused_says_the_names_it_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An RPE result's signals are named by delta (``translation@1f``): the refusal said
    its quantity alone, ``translation``, and nothing of the names that pick one delta."""
    saved = str(tmp_path / "rpe.json")
    assert main(["rpe", GT, EST, "--delta", "1", "2", "--save", saved, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["res", saved, "--signal", "translation@1s"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"ERROR: --signal: expected a quantity of {saved} (translation) or a signal's name "
        "(translation@1f, translation@2f), got 'translation@1s'"
    )
    assert main(["res", saved, "--signal", "translation@2f", "--csv", "-"]) == 0
    assert "translation@1f" not in capsys.readouterr().out


@pytest.mark.parametrize(("protocol", "default"), [("rpg", "--fractions"), ("kitti", "--step")])
def test_drift_defaults_are_not_listed_as_shared_settings(
    protocol: str, default: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``res`` of two rpg drift results listed ``--fractions 0.1,...,0.5`` and
    ``max_diff_ratio 0.2`` (KITTI's: ``--step 10``), rpg's and the devkit's defaults,
    under "Settings at their defaults are not listed": only APE's and RPE's were known."""
    saved = []
    lengths = ["--lengths", "1", "2"] if protocol == "kitti" else []  # fr1_xyz: 9.15 m
    for align in ("sim3", "se3"):
        saved.append(str(tmp_path / f"{align}.json"))
        argv = ["drift", GT, EST, "--protocol", protocol, "--align", align, *lengths]
        assert main([*argv, "--save", saved[-1], "--quiet"]) == 0
    capsys.readouterr()
    assert main(["res", *saved]) == 0
    shared = capsys.readouterr().out.split("Shared settings", 1)[1].split("NOTE:", 1)[0]
    assert default not in shared
    assert "max_diff_ratio" not in shared
    assert "--sync" in shared or protocol == "kitti"  # rpg's one-to-one is no default


@pytest.mark.parametrize(
    ("given", "listed"),
    [
        ([], ()),
        (["--fractions", "0.1", "0.2"], ("--fractions",)),
        (["--lengths", "1"], ("--lengths",)),
    ],
)
def test_rpg_lengths_of_fractions_are_not_listed_as_a_flag_given(
    given: list[str], listed: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rpg's lengths are its fractions of each path: ``drift`` says neither (its settings
    line: ``--fractions 0.1,0.2``), and ``drift`` refuses ``--lengths`` beside
    ``--fractions``. ``res`` listed ``--lengths 0.91,1.83`` beside ``--fractions 0.1,0.2``
    as shared settings, and ``--lengths 0.91,...,4.57`` for rpg's default fractions."""
    saved = []
    for align in ("sim3", "se3"):
        saved.append(str(tmp_path / f"{align}.json"))
        argv = ["drift", GT, EST, "--protocol", "rpg", "--align", align, *given]
        assert main([*argv, "--save", saved[-1], "--quiet"]) == 0
    capsys.readouterr()
    assert main(["res", *saved]) == 0
    shared = capsys.readouterr().out.split("Shared settings", 1)[1].split("NOTE:", 1)[0]
    flags = tuple(f for f in ("--lengths", "--fractions") if f in shared)
    assert flags == listed, shared


def test_drift_results_per_actual_and_nominal_length_are_told_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A drift result by nominal length records no ``per_actual_length`` (drift omits it
    off): ``res`` of it beside one ``--per-actual-length`` said the setting was "not
    recorded" in it, "not compared", and its column of differences lacked it; only the
    ranking's refusal named both. The step is shown too (1 against the devkit's 10)."""
    monkeypatch.chdir(tmp_path)  # short names: a row per signal
    for name, extra in (("actual", ["--per-actual-length", "--step", "1"]), ("nominal", [])):
        argv = ["drift", GT, EST, "--lengths", "1", *extra, "--save", f"{name}.json"]
        assert main([*argv, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["res", "actual.json", "nominal.json"]) == 0
    out = capsys.readouterr().out
    assert "not recorded" not in out
    lines = out.splitlines()
    cells: dict[str, dict[str, str]] = {}
    for column in ("--per-actual-length (differs)", "--step (differs)"):
        start = next(k for k, line in enumerate(lines) if column in line)  # a folded block's
        at = [c.strip() for c in lines[start].split("  ") if c.strip()].index(column)
        for line in lines[start + 2 :]:
            if not line.strip():
                break
            cells.setdefault(line.split()[0], {})[column] = line.split()[at]
    assert cells == {
        "actual.json": {"--per-actual-length (differs)": "on", "--step (differs)": "1"},
        "nominal.json": {"--per-actual-length (differs)": "off", "--step (differs)": "10"},
    }
