"""Tables and their renderers: alignment, escaping, missing values."""

from __future__ import annotations

from robot_msgs.catalog import example
from robot_msgs.compare import Ranking, Report
from robot_msgs.report.tables import (
    ReportTable,
    groups_table,
    latex_escape,
    ranking_table,
    render_latex,
    render_markdown,
    render_text,
    report_tables,
    runs_csv,
    runs_table,
)


def test_runs_table_formats_units_and_missing_values() -> None:
    report = example("compare/Report")
    assert isinstance(report, Report)
    table = runs_table(report)
    row = dict(zip(table.headers, table.rows[0], strict=True))
    assert row["success"] == "yes"
    assert row["failure"] == "-"
    assert row["losses"] == "1"
    assert row["lost [s]"] == "1.5"
    assert row["coverage"] == "92%"
    assert row["latency p95 [ms]"] == "87"
    assert row["processing p50 [ms]"] == "29"
    assert row["peak RSS [MB]"] == "512"
    assert row["RPE RMSE [m]"] == "-"  # no RPE in the example


def test_groups_and_ranking_tables() -> None:
    report = example("compare/Report")
    assert isinstance(report, Report)
    groups = groups_table(report)
    assert groups.rows[0][:5] == ("orb", "fr1_xyz", "4", "75%", "tracking lost x1")
    assert report.ranking is not None
    ranking = ranking_table(report.ranking)
    assert ranking.rows[0][:4] == ("1", "orb", "1.00", "3/4")
    assert ranking.rows[0][-1] == "0.0210 (1)"
    assert "Settings: the defaults." in ranking.notes  # align se3 is report's default
    forced = ranking_table(report.ranking.replace(forced=True, notes=("FORCED: x",)))
    assert forced.title == "Ranking (FORCED: settings mixed)"
    assert "FORCED: x" in forced.notes
    assert [t.title for t in report_tables(report)] == [
        "Ranking",
        "Per algorithm and sequence",
        "Runs",
    ]


def test_renderers() -> None:
    table = ReportTable("A_b", ("name", "x|y"), (("50%", "1.5"),), (False, True), ("note & more",))
    assert render_text(table).splitlines()[1] == "name  x|y"
    md = render_markdown([table])
    assert "| name | x\\|y |" in md
    assert "|:--|--:|" in md
    tex = render_latex([table])
    assert r"\caption{A\_b}" in tex
    assert r"50\% & 1.5 \\" in tex
    assert r"note \& more" in tex
    assert latex_escape("a~b^c\\") == r"a\textasciitilde{}b\textasciicircum{}c\textbackslash{}"


def test_runs_csv_has_raw_numbers() -> None:
    report = example("compare/Report")
    assert isinstance(report, Report)
    text = runs_csv(report)
    header, row = text.splitlines()
    cells = dict(zip(header.split(","), row.split(","), strict=True))
    assert cells["lost_s"] == "1.5"
    assert cells["latency_p95_s"] == "0.087"
    assert cells["peak_threads"] == "8"
    assert cells["rpe_rmse_m"] == ""
    assert cells["alignment"] == "se3"


def test_markdown_cells_show_names_as_written() -> None:
    from robot_msgs.report.tables import markdown_text

    table = ReportTable(
        "T",
        ("run", "rms"),
        (("**bold** [x](javascript:alert(1)) <img src=x onerror=1> `c` _i_ ~~s~~ $x$ &amp;", "1"),
         ("fr1_xyz [m]\nsecond line", "2")),
        (False, True),
    )  # fmt: skip
    md = render_markdown([table])
    rows = md.splitlines()[4:6]
    assert rows[0] == (
        r"| \*\*bold\*\* [x\](javascript:alert(1)) \<img src=x onerror=1\> \`c\` \_i\_ "
        r"\~\~s\~\~ \$x\$ \&amp; | 1 |"
    )
    assert rows[1] == "| fr1_xyz [m] second line | 2 |"  # one line per row
    assert markdown_text("a|b") == r"a\|b"


def test_csv_cells_that_look_like_formulas_are_quoted_and_numbers_stay_numbers() -> None:
    import csv
    import io

    from robot_msgs.compare.report import Report
    from robot_msgs.report.tables import csv_cell

    assert [csv_cell(v) for v in ("=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "-1.5", "1e-3")] == [
        "'=1+1", "'+cmd", "'-2+3", "'@SUM(A1)", "'\tx", "-1.5", "1e-3",
    ]  # fmt: skip
    assert csv_cell(-2.0) == -2.0
    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    hostile = report.replace(
        runs=(run.replace(name='=HYPERLINK("http://x","y")'), *report.runs[1:])
    )
    rows = list(csv.reader(io.StringIO(runs_csv(hostile))))
    assert rows[1][0] == '\'=HYPERLINK("http://x","y")'


def test_ranking_settings_are_spelt_as_flags_and_only_where_not_the_defaults() -> None:
    """One vocabulary: ``--sync one-to-one`` (the flag), not ``sync=one_to_one``.

    The defaults are report's and bench's (align se3, max diff 0.01 s, confidence 0.95);
    an unset setting (``n_align`` None) is not a value and is never shown.
    """
    ranking = example("compare/Ranking")
    assert isinstance(ranking, Ranking)
    settings = {
        "relation": "translation",
        "align": "se3",
        "n_align": None,
        "sync": "one_to_one",
        "max_diff_s": 0.02,
        "offset_auto": False,
        "confidence": 0.95,
        "invert_transform_left": False,
    }
    table = ranking_table(ranking.replace(settings=settings))
    line = next(note for note in table.notes if note.startswith("Settings:"))
    assert line == "Settings: --sync one-to-one --max-diff 0.02."


def test_table_notes_wrap_at_80_columns() -> None:
    note = "Ranked by the median over successful runs of ape translation rms, per sequence " * 2
    text = render_text(ReportTable("T", ("a",), (("1",),), (True,), (note.strip(),)))
    lines = text.splitlines()[4:]
    assert len(lines) == 3
    assert all(len(line) <= 80 for line in lines)
    assert " ".join(" ".join(lines).split()) == " ".join(note.split())
