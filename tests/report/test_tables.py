"""Tables and their renderers: alignment, escaping, missing values."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robot_msgs.compare import Ranking, Repeatability, Report, RunReport, TrackingLoss
from robot_msgs.msg.catalog import example
from robot_msgs.report.report_table import _num
from robot_msgs.report.tables import (
    ReportTable,
    environment_table,
    groups_table,
    latex_escape,
    ranking_table,
    render_latex,
    render_markdown,
    render_text,
    repeatability_table_of,
    report_tables,
    runs_csv,
    runs_table,
)

if TYPE_CHECKING:
    from pathlib import Path


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
    # What the README promises and the CSV held alone (a review): latency max, the input
    # rate, GPU memory and use, by hand from the catalog example's values.
    assert row["latency max [ms]"] == "142"
    assert row["processed [Hz]"] == "10.0"
    assert row["dropped"] == "4"
    assert row["peak GPU mem [MB]"] == "1200"
    assert row["GPU mean [%]"] == "-"
    assert row["peak threads"] == "8"  # logged by the example, as the guide's resources ask
    # A report with none of them has none of their columns.
    bare = report.replace(
        runs=tuple(
            r.replace(
                input_rate_hz=float("nan"),
                resources=r.resources.replace(peak_gpu_mem_bytes=float("nan"))
                if r.resources
                else None,
            )
            for r in report.runs
        )
    )
    headers = runs_table(bare).headers
    assert "processed [Hz]" not in headers
    unlogged = bare.replace(
        runs=tuple(
            r.replace(resources=r.resources.replace(peak_threads=-1) if r.resources else None)
            for r in bare.runs
        )
    )
    assert "peak threads" not in runs_table(unlogged).headers
    assert "peak GPU mem [MB]" not in headers
    assert "latency max [ms]" in headers


def test_a_figure_that_rounds_to_zero_keeps_its_first_significant_digit() -> None:
    """A filter answering in 0.4 ms printed latency "0" ms (as an APE of 3e-05 m printed
    "0.0000" m): not what was measured (a hunt). Zero itself stays "0"."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    assert run.latency is not None
    fast = run.latency.replace(
        latency_p50_s=0.0004, latency_p95_s=0.0004, latency_max_s=0.0004, processing_p50_s=0.0
    )
    table = runs_table(report.replace(runs=(run.replace(latency=fast),)))
    row = dict(zip(table.headers, table.rows[0], strict=True))
    assert row["latency p50 [ms]"] == row["latency max [ms]"] == "0.4"
    assert row["processing p50 [ms]"] == "0"


def test_a_figure_that_rounds_up_to_its_first_significant_digit_prints_that_digit_alone() -> None:
    """A latency of 9.96e-06 s is 0.00996 ms, one significant digit 0.01 ms: it printed
    "0.010" (the decimals of its exponent before rounding, -3), a second digit that the
    rule keeping the first one does not give (a review)."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    assert run.latency is not None
    fast = run.latency.replace(latency_p50_s=9.96e-6, latency_p95_s=9.96e-6)
    table = runs_table(report.replace(runs=(run.replace(latency=fast),)))
    row = dict(zip(table.headers, table.rows[0], strict=True))
    assert (row["latency p50 [ms]"], row["latency p95 [ms]"]) == ("0.01", "0.01")


def test_a_figure_of_rounding_noise_prints_a_zero_without_a_sign() -> None:
    """A signed statistic of rounding noise (a mean error of -3e-13 m) and -0.0 printed
    "-0.0000": zero, as below 1e-9 it is, but with a sign noise does not have (a
    review). A value that keeps its first significant digit keeps its sign too."""
    assert [_num(v, 4) for v in (-3e-13, -0.0, 0.0)] == ["0.0000"] * 3
    assert (_num(-0.0, 0, 1e3), _num(-3e-5, 4), _num(-0.25, 1)) == ("0", "-0.00003", "-0.2")


def test_lost_seconds_of_stamp_rounding_print_as_none() -> None:
    """A loss logged as recovered at the sequence's start (Unix-epoch stamps), which an
    --offset put 1 ulp (2.4e-7 s) past it on the estimate's clock: 'lost [s]' printed
    "0.0000002" beside it (a review); stamp rounding, no time lost. A real loss of
    half a millisecond keeps its first digit."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    start = 1305031099.0055
    unix = run.replace(sequence_start_s=start, sequence_end_s=start + 20.0)
    for end, lost in ((math.nextafter(start, math.inf), "0.0"), (start + 5e-4, "0.0005")):
        loss = TrackingLoss(start_s=start - 3.0, end_s=end)
        table = runs_table(report.replace(runs=(unix.replace(losses=(loss,)),)))
        row = dict(zip(table.headers, table.rows[0], strict=True))
        assert (row["losses"], row["lost [s]"]) == ("1", lost)


def test_a_coverage_never_rounds_across_the_min_coverage_it_is_judged_by() -> None:
    """A coverage of 0.4995 printed "50%" beside "coverage too low" (the rule: under 50%):
    near the bound one decimal, and where that still rounds across (49.995% -> "50.0"),
    toward the side the judgment is on; never wider than "99.8%". By hand: 49.95% ->
    "49.9" (tenths toward failure), 50.04% judged a success prints "50%"; with
    --min-coverage 0.5155, 51.52% -> "52" reads above it, so "51.5%"; with 0.5004, a
    coverage of exactly that -> "50" and "50.0" read below it, so "50.1%"."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    low = run.replace(success=False, failure="coverage too low")
    cases = (
        (0.5, low.replace(coverage=0.4995), "49.9%"),
        (0.5, low.replace(coverage=0.49995), "49.9%"),
        (0.5, run.replace(coverage=0.5004), "50%"),
        (0.5, run.replace(coverage=0.5), "50%"),
        (0.5155, low.replace(coverage=0.5152), "51.5%"),
        (0.5004, run.replace(coverage=0.5004), "50.1%"),
        (0.5, run.replace(coverage=0.9999), "99.9%"),  # not "100.0%": not all of it
    )
    for bound, r, shown in cases:
        assert _coverage_cell(report, r, bound) == shown


def test_a_coverage_by_a_bound_near_all_or_none_takes_the_decimals_that_tell() -> None:
    """With --min-coverage 0.001, a coverage of 0.0009 printed "0.0%" (none) beside
    "coverage too low", and with 0.9991 one of 0.9992 printed "100.0%" (all): one decimal
    rounded toward the bound crossed the other rule. By hand: 0.09% is some and under
    0.1%; 99.92% is not all and over 99.91%; 99.96% over 99.95%."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    low = run.replace(success=False, failure="coverage too low")
    cases = (
        (0.001, low.replace(coverage=0.0009), "0.09%"),
        (0.9991, run.replace(coverage=0.9992), "99.92%"),
        (0.9995, run.replace(coverage=0.9996), "99.96%"),
        (0.9995, low.replace(coverage=0.9994), "99.9%"),
    )
    for bound, r, shown in cases:
        assert _coverage_cell(report, r, bound) == shown


def _coverage_cell(report: Report, run: RunReport, min_coverage: float) -> str:
    """The runs table's coverage cell of ``run`` alone, judged by ``min_coverage``."""
    made = report.replace(runs=(run,), settings={**report.settings, "min_coverage": min_coverage})
    table = runs_table(made)
    return str(dict(zip(table.headers, table.rows[0], strict=True))["coverage"])


def test_groups_and_ranking_tables() -> None:
    report = example("compare/Report")
    assert isinstance(report, Report)
    groups = groups_table(report)
    assert groups.rows[0][:5] == ("orb", "fr1_xyz", "4", "75%", "tracking lost x1")
    assert report.ranking is not None
    ranking = ranking_table(report.ranking)
    assert ranking.rows[0][:4] == ("1", "orb", "1.00", "3/4")
    assert ranking.rows[0][-1] == "0.0210 (1)"
    assert "Settings: report's defaults: --align se3." in ranking.notes
    forced = ranking_table(report.ranking.replace(forced=True, notes=("FORCED: x",)))
    assert forced.title == "Ranking (FORCED: settings mixed)"
    assert "FORCED: x" in forced.notes
    assert [t.title for t in report_tables(report)] == [
        "Ranking",
        "Per algorithm and sequence",
        "Runs",
        "Environment",
    ]


def test_an_unnamed_algorithm_is_not_stated_in_the_ranking_as_in_the_environment() -> None:
    """Runs without meta.json name no algorithm: the environment table said 'not stated'
    where the ranking's algorithm cell was empty (and ' 2.0' for one of two versions)."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    assert report.ranking is not None
    row = report.ranking.rows[0]
    alone = report.ranking.replace(rows=(row.replace(algorithm="", label=""),))
    assert ranking_table(alone).rows[0][:2] == ("1", "not stated")
    versions = (row.replace(algorithm="", version="2.0", label=" 2.0"),)
    assert ranking_table(report.ranking.replace(rows=versions)).rows[0][1] == "not stated 2.0"


def test_an_unnamed_algorithm_is_not_stated_in_the_group_tables_as_in_the_ranking() -> None:
    # The per algorithm and sequence table's cell was empty, and ' 2.0' for one of two
    # versions (hrun's finding beside the ranking's).
    report = example("compare/Report")
    assert isinstance(report, Report)
    group = report.groups[0]
    alone = groups_table(report.replace(groups=(group.replace(algorithm=""),))).rows
    assert alone[0][:2] == ("not stated", "fr1_xyz")
    versions = tuple(group.replace(algorithm="", version=v) for v in ("1.0", "2.0"))
    rows = groups_table(report.replace(groups=versions)).rows
    assert [row[:2] for row in rows] == [
        ("not stated 1.0", "fr1_xyz"),
        ("not stated 2.0", "fr1_xyz"),
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


def _csv_rows(text: str) -> list[dict[str, str]]:
    """Read the runs CSV as a reader does (a JSON cell holds quoted commas)."""
    return list(csv.DictReader(io.StringIO(text)))


def test_runs_csv_has_raw_numbers() -> None:
    report = example("compare/Report")
    assert isinstance(report, Report)
    (cells,) = _csv_rows(runs_csv(report))
    assert cells["lost_s"] == "1.5"
    assert cells["latency_p95_s"] == "0.087"
    assert cells["peak_threads"] == "8"
    assert cells["rpe_rmse_m"] == ""
    assert cells["alignment"] == "se3"
    # Threads not logged (-1 in the message) are an empty cell, as every unknown: the
    # CSV said -1 threads (a hunt).
    run = report.runs[0]
    assert run.resources is not None
    unlogged = report.replace(runs=(run.replace(resources=run.resources.replace(peak_threads=-1)),))
    assert _csv_rows(runs_csv(unlogged))[0]["peak_threads"] == ""


def test_ape_columns_hold_the_ape_when_an_rpe_is_the_first_metric() -> None:
    """A manifest that asked for RPE first, then APE: the runs table, the CSV and the
    groups showed the RPE's numbers under "APE RMSE" (the first comparison, which ranks).
    """
    from robot_msgs.compare import error_stats
    from robot_msgs.report.groups import summarise_groups

    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    ape = run.comparisons["ape:translation"]
    ape_rms = ape.stats["translation"].rms
    nine = error_stats([9.0, -9.0])
    rpe = ape.replace(metric="rpe", signals=tuple(s.replace(stats=nine) for s in ape.signals))
    first_rpe = run.replace(comparisons={"rpe:translation:1m:all": rpe, "ape:translation": ape})
    assert first_rpe.accuracy is rpe  # what ranks: the first metric
    assert first_rpe.ape is ape
    made = report.replace(runs=(first_rpe, *report.runs[1:]))
    row = dict(zip(runs_table(made).headers, runs_table(made).rows[0], strict=True))
    assert row["APE RMSE [m]"] == f"{ape_rms:.4f}"
    assert _csv_rows(runs_csv(made))[0]["ape_rmse_m"] == repr(ape_rms)
    (group, *_) = summarise_groups(made.runs)
    assert group.accuracy is not None
    assert 9.0 not in (
        group.accuracy.stats["translation"].min,
        group.accuracy.stats["translation"].max,
    )


def test_an_rpe_of_angles_makes_no_empty_metre_column_nor_a_second_one_of_its_delta() -> None:
    """A manifest asking for RPE translation and RPE angle_deg, both over 1 s: the runs
    table showed two "RPE 1 s RMSE [m]" columns, the second always "-", and the CSV two
    columns named ``rpe_rmse_m@1s`` (a DictReader kept the empty one). Those columns hold
    a translation RPE's RMSE in metres; an RPE of another relation has none (a hunt).
    Also two translation RPEs over 1 s (all pairs, consecutive pairs): each its column,
    named by its metric.
    """
    from robot_msgs.compare import error_stats

    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    ape = run.comparisons["ape:translation"]
    (signal,) = ape.signals

    def rpe(rms: float, relation: str, unit: str) -> object:
        stats = error_stats([rms, -rms])  # RMSE rms: the numbers in the cells below
        one = signal.replace(name=relation, quantity=relation, unit=unit, stats=stats)
        return ape.replace(metric="rpe", signals=(one.replace(delta=1.0, delta_unit="s"),))

    both = run.replace(
        comparisons={
            "ape:translation": ape,
            "rpe:translation:1s:all": rpe(0.25, "translation", "m"),
            "rpe:angle_deg:1s:all": rpe(3.0, "angle_deg", "deg"),
        }
    )
    made = report.replace(runs=(both,))
    table = runs_table(made)
    assert [h for h in table.headers if h.startswith("RPE")] == ["RPE 1 s RMSE [m]"]
    row = dict(zip(table.headers, table.rows[0], strict=True))
    assert row["RPE 1 s RMSE [m]"] == "0.2500"
    (cells,) = _csv_rows(runs_csv(made))
    assert [c for c in cells if c.startswith("rpe")] == ["rpe_rmse_m@1s"]
    assert cells["rpe_rmse_m@1s"] == "0.25"
    pairs = both.replace(
        comparisons={
            "rpe:translation:1s:all": rpe(0.25, "translation", "m"),
            "rpe:translation:1s": rpe(0.5, "translation", "m"),
        }
    )
    made = report.replace(runs=(pairs,))
    (cells,) = _csv_rows(runs_csv(made))
    assert (cells["rpe_rmse_m@rpe:translation:1s:all"], cells["rpe_rmse_m@rpe:translation:1s"]) == (
        "0.25",
        "0.5",
    )
    labels = [h for h in runs_table(made).headers if h.startswith("rpe")]
    assert labels == ["rpe:translation:1s:all RMSE [m]", "rpe:translation:1s RMSE [m]"]


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


@pytest.mark.parametrize(
    ("note", "line"),
    [
        # Each rendered line checked with markdown-it-py 4.3.0 (CommonMark): one <em>
        # holding the note as written. Before, " lead" rendered <li>lead*</li> and
        # "trail\n" <p>*trail *</p>, no emphasis.
        ("run with --rank_failures", "*run with --rank_failures*"),
        ("a_b.tum", "*a_b.tum*"),
        ("x*y", r"*x\*y*"),
        ("_x_ and __init__", r"*\_x\_ and \_\_init\_\_*"),
        (" lead", "*lead*"),
        ("trail\n", "*trail*"),
    ],
)
def test_markdown_notes_are_one_emphasis_as_written(note: str, line: str) -> None:
    md = render_markdown([ReportTable("T", ("a",), (("1",),), (False,), (note,))])
    assert md.splitlines()[5:] == ["", line]


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


#: Characters a terminal prints two columns wide (CJK ideographs, fullwidth forms) and
#: combining marks it prints on the character before (zero columns): widths by hand,
#: from the Unicode tables (East Asian Width W and F; canonical combining class 230/220).
_WIDE = "日本語東京漢字表ＡＢ１"
_MARKS = "\u0301\u0308\u0323"
_HEADER = st.text(alphabet="abcxyz0123456789._" + _WIDE + _MARKS, min_size=1, max_size=14)


def _display(text: str) -> int:
    """Terminal columns of ``text``: 2 for each of ``_WIDE``, 0 for ``_MARKS``, else 1."""
    return sum(2 if c in _WIDE else 0 if c in _MARKS else 1 for c in text)


def _width(headers: tuple[str, ...], cells: tuple[tuple[str, ...], ...]) -> int:
    """The width of a table printed whole: its columns and two spaces between."""
    columns = [max(_display(h), *(_display(r[i]) for r in cells)) for i, h in enumerate(headers)]
    return sum(columns) + 2 * (len(columns) - 1)


def _spans(line: str) -> list[tuple[int, int]]:
    """The terminal columns ``[start, end)`` of each word of ``line``."""
    return [
        (_display(line[: m.start()]), _display(line[: m.end()])) for m in re.finditer(r"\S+", line)
    ]


def _assert_aligned(lines: list[str], right: list[list[bool]], skip: list[int]) -> None:
    """Assert the words of ``lines`` stand in columns: word k of a line is in column
    ``skip[line] + k``; a column's left-aligned words start at one terminal column, its
    right-aligned words (``right[line][column]``) end at one, and two spaces at least
    part each column from the next."""
    columns: dict[int, list[tuple[tuple[int, int], bool]]] = {}
    for line, rights, first in zip(lines, right, skip, strict=True):
        for k, span in enumerate(_spans(line), start=first):
            columns.setdefault(k, []).append((span, rights[k]))
    ends = []
    for k in sorted(columns):
        starts = {start for (start, _), r in columns[k] if not r}
        stops = {end for (_, end), r in columns[k] if r}
        assert len(starts) <= 1, (k, lines)
        assert len(stops) <= 1, (k, lines)
        ends.append((min(s for (s, _), _ in columns[k]), max(e for (_, e), _ in columns[k])))
    assert all(a[1] + 2 <= b[0] for a, b in itertools.pairwise(ends)), lines


def _assert_records(
    block: list[str], headers: tuple[str, ...], row: tuple[str, ...], width: int
) -> None:
    """Assert ``block`` is the record of ``row``: a line ``header  cell`` a column, and a
    header wider than half the width on its own line, its cell on the next. The cells
    start at one terminal column, in the first half of the width, two columns at least
    past the end of every header beside them."""
    long = [_display(h) > width // 2 for h in headers]
    expected = [
        words for h, c, wide in zip(headers, row, long, strict=True)
        for words in ([[h], [c]] if wide else [[h, c]])
    ]  # fmt: skip
    assert [line.split() for line in block] == expected, block
    spans = [_spans(line) for line in block]
    cells = [s[-1] for s in spans if len(s) == 2 or s[0][0] > 0]
    [start] = {begin for begin, _ in cells}
    assert start <= width // 2 + 2, block
    assert all(s[0][1] + 2 <= start for s in spans if len(s) == 2), block


def _check_folded(
    data: st.DataObject, columns: int, rows: int, width: int, names: range, cell: int = 14
) -> None:
    """Law of :func:`render_text` on a drawn table whose row names' lengths are in ``names``.

    Folded: each line fits ``width`` unless its block holds one column besides the keys;
    the blocks' columns, keys set apart, are the table's in order, each once, with its
    cells. Transposed or records (names wider than half the width): every cell once, in
    its row's column or record.
    """
    headers = tuple(f"{data.draw(_HEADER)}#{i}" for i in range(columns))
    numeric = (
        False,
        *data.draw(st.lists(st.booleans(), min_size=columns - 1, max_size=columns - 1)),
    )
    name = st.text(
        alphabet="abc/._" + _WIDE + _MARKS, min_size=names.start, max_size=names.stop - 1
    )
    word = st.text(alphabet="abcxyz0123456789.-_" + _WIDE + _MARKS, min_size=1, max_size=cell)
    cells = tuple(
        (data.draw(name), *data.draw(st.lists(word, min_size=columns - 1, max_size=columns - 1)))
        for _ in range(rows)
    )
    text = render_text(ReportTable("T", headers, cells, numeric), width=width)
    blocks = [b.splitlines() for b in text.split("\n\n")]
    assert blocks[0][0] == "T"
    blocks[0] = blocks[0][1:]
    if blocks[0] and blocks[0][0].startswith("#1  "):
        # Transposed: a row's name is wider than half the width; names listed once.
        assert _width(headers, cells) > width  # folded, the rows' names would not fit
        assert [line.split() for line in blocks[0]] == [[f"#{n}", row[0]] for n, row in
                                                        enumerate(cells, start=1)]  # fmt: skip
        lines = blocks[1]
        assert lines[0].split() == [f"#{n}" for n in range(1, rows + 1)]
        assert [line.split() for line in lines[1:]] == [
            [h, *(row[i] for row in cells)] for i, h in enumerate(headers[1:], start=1)
        ]
        assert all(_display(line) <= width for line in lines)
        by_line = [[False, *[True] * rows], *([False, *[n] * rows] for n in numeric[1:])]
        _assert_aligned(lines, by_line, [1] + [0] * (len(lines) - 1))
        return
    if len(blocks[0]) > 1 and not blocks[0][1].startswith("-"):
        # Records: transposed would be wider than the width too.
        assert _width(headers, cells) > width  # folded, the rows' names would not fit
        assert len(blocks) == rows
        for row, block in zip(cells, blocks, strict=True):
            _assert_records(block, headers, row, width)
        return
    heads = [block[0].split() for block in blocks]
    keys = len(heads[0]) if len(blocks) == 1 else 0
    while len(blocks) > 1 and all(h[keys] == heads[0][keys] for h in heads):
        keys += 1  # the key columns start every block
    assert [*heads[0][:keys], *(h for block in heads for h in block[keys:])] == list(headers)
    # Every block names its rows: the blocks after the names held numbers alone when the
    # names were wider than half the width and two numbers or fewer followed.
    assert len(blocks) == 1 or keys > 0 or not cells, text
    for block, head in zip(blocks, heads, strict=True):
        assert len(block) == 2 + rows
        if len(head) - keys > 1:
            assert all(_display(line) <= width for line in block)
        for row, line in zip(cells, block[2:], strict=True):
            assert line.split() == [row[headers.index(h)] for h in head]
        # Each column's words start (right-aligned: end) where its rule of dashes does.
        right = [numeric[headers.index(h)] for h in head]
        _assert_aligned(block, [right] * len(block), [0] * len(block))
        rules = _spans(block[1])
        for line in (block[0], *block[2:]):
            for (start, end), (left, stop), r in zip(_spans(line), rules, right, strict=True):
                assert end == stop if r else start == left, block
                assert left <= start <= end <= stop, block


@given(
    data=st.data(),
    columns=st.integers(1, 12),
    rows=st.integers(0, 4),
    width=st.integers(20, 120),
)
def test_a_wide_table_folds_into_blocks_that_fit_and_keep_every_cell(
    data: st.DataObject, columns: int, rows: int, width: int
) -> None:
    _check_folded(data, columns, rows, width, names=range(1, 15))


@given(
    data=st.data(),
    columns=st.integers(2, 8),
    rows=st.integers(1, 5),
    width=st.integers(30, 80),
)
def test_rows_named_by_long_paths_are_transposed_or_printed_as_records(
    data: st.DataObject, columns: int, rows: int, width: int
) -> None:
    _check_folded(data, columns, rows, width, names=range(41, 71), cell=9)


def test_an_ape_table_of_six_digit_statistics_folds_to_80_columns_keeping_each_digit() -> None:
    """Issue 21: ape's table was 91 columns wide on fr1_xyz; folded 4 + 3 it fits 80."""
    row = ("translation", "m", "785", "0.0134701", "0.0120245", "0.0111832", "0.00607081",
           "0.000955046", "0.0347595")  # fmt: skip
    headers = ("signal", "unit", "n", "rms", "mean", "median", "std", "min", "max")
    text = render_text(ReportTable("", headers, (row,), (False, False, *[True] * 7)))
    assert text.splitlines() == [
        "",
        "signal       unit    n        rms       mean     median",
        "-----------  ----  ---  ---------  ---------  ---------",
        "translation  m     785  0.0134701  0.0120245  0.0111832",
        "",
        "signal       unit         std          min        max",
        "-----------  ----  ----------  -----------  ---------",
        "translation  m     0.00607081  0.000955046  0.0347595",
    ]


def test_a_folded_ranking_repeats_the_rank_and_the_algorithm_in_every_block() -> None:
    """Review: with many sequences only ``#`` started the later blocks, so their rows
    could not be told apart."""
    sequences = [f"MH_0{k} [m]" for k in range(1, 9)]
    rows = tuple(
        (str(r), name, f"{r}.00", *(f"0.0{r}53 ({r})" for _ in sequences))
        for r, name in ((1, "kfslam"), (2, "dvo"))
    )
    headers = ("#", "algorithm", "mean rank", *sequences)
    text = render_text(ReportTable("Ranking", headers, rows, (True, False, True, *[True] * 8)))
    blocks = text.split("\n\n")
    assert len(blocks) > 1
    for block in blocks:
        lines = block.splitlines()[-4:]
        assert lines[0].split()[:2] == ["#", "algorithm"]
        assert [line.split()[:2] for line in lines[2:]] == [["1", "kfslam"], ["2", "dvo"]]
        assert all(len(line) <= 80 for line in lines)


def test_rows_told_apart_only_by_a_second_name_are_transposed_when_both_are_long() -> None:
    """Review: one estimate with two deltas gave two rows that looked the same in every
    block after the first (only ``estimate`` was repeated)."""
    name = "orb_slam3_estimate_loopclosure.tum"
    stats = ("785", "0.0248437", "0.0204", "0.0199", "0.0141", "0.000713", "0.0871")
    rows = ((name, "translation@1f", "m", *stats), (name, "translation@10f", "m", *stats))
    headers = ("estimate", "signal", "unit", "n", "rms", "mean", "median", "std", "min", "max")
    text = render_text(ReportTable("", headers, rows, (False, False, False, *[True] * 7)))
    lines = text.splitlines()
    assert lines[1:3] == [f"#1  {name}", f"#2  {name}"]
    assert lines[5].split() == ["signal", "translation@1f", "translation@10f"]
    assert max(len(line) for line in lines) <= 80


def test_a_record_of_a_header_wider_than_half_the_width_keeps_its_cells_in_the_first_half() -> None:
    """A ranking of algorithms and a sequence named by 124-character folders was printed
    as records whose every value started at column 131, past the 80 columns (a review):
    the sequence's header stands on its own line, its value below in the values' column."""
    sequence = "seq_" + "x" * 124
    headers = ("#", "algorithm", "mean rank", "success", "coverage", f"{sequence} [m]")
    rows = (
        ("1", "alg_" + "x" * 124, "1.00", "1/1", "99.8%", "0.0060 (1)"),
        ("2", "b", "2.00", "1/1", "97%", "0.0168 (2)"),
    )
    table = ReportTable("Ranking", headers, rows, (True, False, True, True, True, True))
    lines = render_text(table).splitlines()
    assert lines[1:7] == [
        "#          1",
        f"algorithm  {rows[0][1]}",
        "mean rank  1.00",
        "success    1/1",
        "coverage   99.8%",
        f"{sequence} [m]",
    ]
    assert lines[7] == "           0.0060 (1)"
    assert lines[-2:] == [f"{sequence} [m]", "           0.0168 (2)"]


def test_a_text_column_wider_than_the_naming_columns_leave_wraps_in_its_cell() -> None:
    """A sweep of 192 runs: the per-group failures cell, 60 columns, set the group table
    88 columns wide on an 80-column terminal. The cell wraps under its column, its
    ``; ``-separated parts kept whole where they fit; the naming columns are blank on its
    continuation lines."""
    failures = "tracking lost, not recovered x2; segfault in loop closing x1"
    rows = (("vins_fusion", "V102", "12", failures), ("orb_slam3", "V102", "11", "-"))
    headers = ("algorithm", "sequence", "runs", "failures")
    table = ReportTable("", headers, rows, (False, False, True, False))
    assert render_text(table).splitlines() == [
        "",
        "algorithm    sequence  runs  failures",
        "-----------  --------  ----  --------------------------------",
        "vins_fusion  V102        12  tracking lost, not recovered x2;",
        "                             segfault in loop closing x1",
        "orb_slam3    V102        11  -",
    ]
    # A cell without parts that fit wraps at its spaces (never inside a word).
    text = render_text(ReportTable("", ("name", "why"), (("a", "w " * 45),), (False, False)))
    assert text.splitlines()[3:] == ["a     " + "w " * 36 + "w", "      " + "w " * 7 + "w"]


def test_a_one_column_table_wider_than_the_width_is_printed_whole() -> None:
    path = "a/" * 50 + "x.tum"
    text = render_text(ReportTable("S", ("path",), ((path,),), (False,)))
    assert text.splitlines() == ["S", "path".ljust(len(path)).rstrip(), "-" * len(path), path]


def test_names_in_cjk_or_with_combining_accents_line_up_in_terminal_columns() -> None:
    """東京 takes four columns on a terminal (two wide characters) and café, its é
    written as e + U+0301, four: both are padded as four, as bb is as two."""
    rows = (("東京", "1.5"), ("cafe\u0301", "2"), ("bb", "10.25"))
    text = render_text(ReportTable("T", ("名前", "x"), rows, (False, True)))
    assert text.splitlines() == [
        "T",
        "名前      x",
        "----  -----",
        "東京    1.5",
        "cafe\u0301      2",
        "bb    10.25",
    ]


def test_latex_notes_are_a_paragraph_each_not_run_together() -> None:
    """Two notes without full stops were one run of text ("not ranked: x --signal a")."""
    table = ReportTable("T", ("a",), (("1",),), (True,), ("not ranked: x", "[kept] a"))
    tex = render_latex([table])
    assert r"\par\footnotesize not ranked: x \par {[}kept{]} a" in tex


def test_latex_folds_a_wide_table_stacks_long_headers_and_never_opens_a_break_length() -> None:
    headers = ("run", *(f"metric number {k} [m]" for k in range(12)))
    rows = tuple((f"[{name}]/seq/1", *(f"{k}.{name}" for k in range(12))) for name in "ab")
    table = ReportTable("Wide", headers, rows, (False, *(True,) * 12), ("said once",))
    tex = render_latex([table])
    parts = re.findall(r"\\caption\{Wide \((\d+) of (\d+)\)\}", tex)
    k = len(parts)
    assert k > 1
    assert parts == [(str(n), str(k)) for n in range(1, k + 1)]
    # Each part repeats the run names; every other cell stands in exactly one part.
    assert tex.count("{[}a{]}/seq/1 & ") == k
    for n in range(12):
        assert tex.count(f"& {n}.a ") == 1
    assert tex.count("said once") == 1
    assert tex.rindex("said once") > tex.rindex(r"\caption")
    # A long header stands on lines as wide as its column's cells; "[m]" cannot follow
    # a line break as its optional length (pdflatex stopped, or looped, on "\\ [m]").
    assert r"\shortstack[r]{metric \\ number 0 \\ {[}m{]}}" in tex
    assert re.search(r"\\\\\s*\[", tex) is None


def test_latex_parts_of_a_table_named_by_long_names_each_name_their_rows() -> None:
    # Names wider than half the page: the terminal transposes the table; the LaTeX parts
    # each repeat the names (a part of bare numbers cannot be read).
    names = [f"algorithm-{'x' * 60}-{k}" for k in range(2)]
    headers = ("#", "algorithm", *(f"sequence {k} [m]" for k in range(6)))
    rows = tuple(
        (str(r + 1), name, *(f"{r}.{k}" for k in range(6))) for r, name in enumerate(names)
    )
    table = ReportTable("Ranking", headers, rows, (True, False, *(True,) * 6))
    tex = render_latex([table])
    parts = tex.split(r"\begin{tabular}")[1:]
    assert len(parts) > 1
    for part in parts:
        assert all(
            f"{n} & {latex_escape(name)} & " in part for n, name in ((1, names[0]), (2, names[1]))
        )
    for r in range(2):
        for k in range(6):
            assert tex.count(f" {r}.{k} ") == 1  # every other cell once


def test_latex_a_cell_or_header_line_starting_with_a_star_keeps_it() -> None:
    # After a line break, '\\ *' is LaTeX's starred break: the star was silently dropped.
    rows = (("*first", "1"), ("*second", "2"))
    table = ReportTable("Stars", ("run", "value of the metric *starred [m]"), rows, (False, True))
    tex = render_latex([table])
    assert re.search(r"\\\\\s*\*", tex) is None
    assert tex.count("{*}second") == 1


def test_latex_keeps_a_flags_two_hyphens() -> None:
    """'--align' in a note was set as an en dash '–align' (a review)."""
    table = ReportTable(
        "Flags", ("run", "value"), (("--align se3", "1"),), (False, True), ("---", "a--b")
    )
    tex = render_latex([table])
    body = tex.split("\\begin{tabular}", 1)[1]
    assert "--" not in body.replace("-{}-", "")
    assert body.count("-{}-align se3") == 1


def test_names_from_files_never_act_on_the_terminal() -> None:
    """A run named in a manifest (or a reports.json) printed its escape codes raw on
    standard output: colour, a window title, reversed text and a forged ERROR line."""
    name = "\x1b[31mred\nERROR: forged\u202eevil\x07"
    table = ReportTable("Runs", ("run", "rms"), ((name, "0.1"),), (False, True), (name,))
    shown = render_text(table)
    assert "\x1b" not in shown
    assert "\u202e" not in shown
    assert not any(line.startswith("ERROR") for line in shown.splitlines())
    assert "\\x1b[31mred\\x0aERROR: forged\\u202eevil\\x07" in shown


def test_many_rows_named_by_wide_columns_fold_when_records_would_take_more_lines() -> None:
    """``res`` of two KITTI drift results (18 signals each, told apart by result, unit and
    signal: 43 columns, past half of 80) printed 482 lines of records (a review); folded
    under those columns, every block fits: 3 blocks of 2 + 36 lines."""
    signals = [
        f"{q}@{m}00m" for m in range(1, 10) for q in ("translation_pct", "rotation_deg_per_m")
    ]
    rows = tuple(
        (result, "%", signal, "robot_msgs", "kitti_drift", "445", "1.24775", "1.00904",
         "0.901289", "0.733985", "0.123522", "10.499")
        for result in ("orbd.json", "sptamd.json") for signal in signals
    )  # fmt: skip
    headers = ("result", "unit", "signal", "tool", "metric", "n", "rms", "mean", "median",
               "std", "min", "max")  # fmt: skip
    numeric = (*[False] * 5, *[True] * 7)
    lines = render_text(ReportTable("Results", headers, rows, numeric)).splitlines()
    blocks = "\n".join(lines[1:]).split("\n\n")
    assert [block.splitlines()[0].split()[:3] for block in blocks] == [
        ["result", "unit", "signal"]
    ] * 3
    assert [len(block.splitlines()) for block in blocks] == [2 + 36] * 3
    assert max(len(line) for line in lines) <= 80
    assert [word for block in blocks for word in block.splitlines()[0].split()[3:]] == list(
        headers[3:]
    )


def test_an_unnamed_sequence_is_not_stated_in_the_tables_as_an_unnamed_algorithm() -> None:
    """Runs that name no sequence gave the ranking a ' [m]' column and the per algorithm
    and sequence and repeatability tables an empty sequence cell."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    assert report.ranking is not None
    row = report.ranking.rows[0]
    (sequence,) = report.ranking.sequences
    unnamed = report.ranking.replace(
        sequences=("",),
        rows=(row.replace(scores={"": row.scores[sequence]}, ranks={"": row.ranks[sequence]}),),
    )
    table = ranking_table(unnamed)
    assert table.headers[5:] == ("not stated [m]",)
    assert table.rows[0][5] == ranking_table(report.ranking).rows[0][5]
    group = report.groups[0].replace(sequence="")
    assert groups_table(report.replace(groups=(group,))).rows[0][:2] == ("orb", "not stated")
    rep = example("compare/Repeatability")
    assert isinstance(rep, Repeatability)
    repeats = repeatability_table_of([("orb", "", rep)])
    assert repeats is not None
    assert repeats.rows[0][:2] == ("orb", "not stated")


def test_a_run_stamped_by_frame_index_shows_its_lost_frames_not_seconds() -> None:
    """A KITTI run read without its times files lost tracking from frame 1000 to 1200:
    the runs table said 'lost [s] 200.0' (a hunt). Its 200 frames are in their own
    column, its seconds unknown; a run on a clock keeps its seconds, and the CSV says
    both, raw."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    kitti = run.replace(
        name="kitti",
        stamps_are_frames=True,
        sequence_start_s=0.0,
        sequence_end_s=4540.0,
        losses=(TrackingLoss(start_s=1000.0, end_s=1200.0),),
    )
    both = report.replace(runs=(run, kitti))
    table = runs_table(both)
    rows = [dict(zip(table.headers, row, strict=True)) for row in table.rows]
    assert [(r["lost [s]"], r["lost [frames]"]) for r in rows] == [("1.5", "-"), ("-", "200")]
    assert "lost [frames]" not in runs_table(report).headers
    cells = list(csv.DictReader(io.StringIO(runs_csv(both))))
    assert [(c["lost_s"], c["lost_frames"]) for c in cells] == [("1.5", ""), ("", "200.0")]


def test_the_environment_states_the_percentile_rule_of_the_latencies_it_shows() -> None:
    """The guide asks for latency p50/p95, and with few frames the rules differ (frames of
    10, 20 .. 100 ms: p95 95.5 ms by NumPy's linear rule, 100 ms by nearest rank): the
    report gave p95 without its rule (a hunt). It says it where it says the latency
    clocks; a report without latency has no rule to say."""
    report = example("compare/Report")
    assert isinstance(report, Report)
    rule = "latency p50/p95: linear between order statistics (NumPy's default, type 7)"
    assert rule in environment_table(report).notes[-1]
    untimed = report.replace(runs=tuple(r.replace(latency=None) for r in report.runs))
    assert "p50/p95" not in environment_table(untimed).notes[-1]


def test_runs_csv_holds_gpu_use_hardware_and_software_versions(tmp_path: Path) -> None:
    """The runs table showed 'GPU mean [%]' and the environment table the versions; the
    CSV, the table a paper's plots are made from, had neither (a user walk)."""
    from robot_msgs.report import build_report
    from robot_msgs.runs import load_runs
    from tests.runs.tree import make_tree

    make_tree(tmp_path)
    run = tmp_path / "orb" / "MH_01" / "1"
    # gpu_percent 40, 50, 90: mean 60, peak 90 (by hand)
    (run / "resources.csv").write_text(
        "time_s,cpu_percent,rss_bytes,gpu_mem_bytes,gpu_percent\n"
        "0,100,1e8,5e8,40\n1,100,1e8,5e8,50\n2,100,1e8,5e8,90\n"
    )
    meta = {"hardware": "RTX 4090", "software": {"torch": "2.3.1", "numpy": "2.4.6"}}
    (run / "meta.json").write_text(json.dumps(meta))
    report = build_report(load_runs([tmp_path])).report
    cells = next(csv.DictReader(io.StringIO(runs_csv(report))))
    assert float(cells["mean_gpu_percent"]) == pytest.approx(60.0)
    assert float(cells["peak_gpu_percent"]) == 90.0
    assert cells["hardware"] == "RTX 4090"
    assert json.loads(cells["software"]) == {"numpy": "2.4.6", "torch": "2.3.1"}


def test_the_groups_table_gives_the_median_path_smoothness_of_the_runs() -> None:
    from robot_msgs.report.groups import summarise_groups

    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    # Three trials of PS 0.2, 0.5 and 0.3: median 0.3 (by hand); one without (NaN) is
    # not among them.
    runs = tuple(
        run.replace(name=f"t{k}", trial=str(k), path_smoothness=ps)
        for k, ps in enumerate([0.2, 0.5, 0.3, math.nan])
    )
    made = report.replace(runs=runs, groups=summarise_groups(runs))
    table = groups_table(made)
    row = dict(zip(table.headers, table.rows[0], strict=True))
    assert row["path smoothness median"] == "0.300"


def test_the_groups_table_says_which_figures_count_failed_runs() -> None:
    """Its note said only 'APE over successful runs only': the coverage, latency and path
    smoothness beside it take failed runs too (a failed run's latency is still its
    latency), unsaid."""
    from robot_msgs.report.groups import summarise_groups

    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    failed = run.replace(
        name="t1", trial="1", success=False, failure="coverage too low", coverage=0.2,
        path_smoothness=0.6,
    )  # fmt: skip
    runs = (run.replace(coverage=1.0, path_smoothness=0.2), failed)
    table = groups_table(report.replace(runs=runs, groups=summarise_groups(runs)))
    row = dict(zip(table.headers, table.rows[0], strict=True))
    # By hand: coverage (1.0 + 0.2) / 2 = 60 %, path smoothness median (0.2 + 0.6) / 2.
    assert (row["coverage mean"], row["path smoothness median"]) == ("60%", "0.400")
    assert table.notes[0] == (
        "APE over successful runs only; coverage, latency and path smoothness over every "
        "run that has them, failed ones too."
    )


def test_a_record_wraps_a_value_wider_than_the_terminal() -> None:
    """A group's failure 'killed by SIGKILL (exit code 137: 128 + 9, as a shell reports
    it) x1' ran to column 93 of 80 in the records of 'Per algorithm and sequence' (rvlearn's
    review): a record's value wraps in its column, as a folded table's cell does."""
    failure = "killed by SIGKILL (exit code 137: 128 + 9, as a shell reports it) x1"
    row = ("pol_mlp_with_a_long_name (seed=3)", "s2", "1", "0%", failure, "-")
    headers = ("algorithm", "sequence", "runs", "success", "failures", "path smoothness median")
    table = ReportTable("G", headers, (row, row), (False, False, True, True, False, True))
    lines = render_text(table, width=80).splitlines()
    assert max(len(line) for line in lines) <= 80
    # By hand: the values start at column 24 (22 for the widest header, 2 spaces).
    at = lines.index(
        "failures                killed by SIGKILL (exit code 137: 128 + 9, as a shell"
    )
    assert lines[at + 1] == " " * 24 + "reports it) x1"
    assert lines[at + 2] == "path smoothness median  -"


def test_the_groups_table_says_path_smoothness_is_not_comparable_across_output_rates() -> None:
    """PS sums a change per step over the path length, so it depends on the rate the path
    is sampled at: fr2_desk_ORB.txt (29 Hz) gives 0.620, every third pose 0.355, every
    tenth 0.422 (rvlearn's review, numpy). Medians of runs at 10 and 30 Hz were printed side
    by side without a word."""
    from robot_msgs.report.groups import summarise_groups

    report = example("compare/Report")
    assert isinstance(report, Report)
    run = report.runs[0]
    runs = tuple(
        run.replace(name=f"t{k}", trial=str(k), path_smoothness=0.3, output_rate_hz=hz)
        for k, hz in enumerate([10.0, 30.0, math.nan])
    )
    made = report.replace(runs=runs, groups=summarise_groups(runs))
    said = [n for n in groups_table(made).notes if n.startswith("path smoothness")]
    expected = (
        "path smoothness depends on the rate the estimate is sampled at, and these runs' "
        "output rates differ (10.0 .. 30.0 Hz): compare it between runs of one rate."
    )
    assert said == [expected]
    # One rate (a NaN rate aside), or no path smoothness: nothing to say.
    for same in (
        tuple(r.replace(output_rate_hz=10.0 if k < 2 else math.nan) for k, r in enumerate(runs)),
        tuple(r.replace(path_smoothness=math.nan) for r in runs),
    ):
        made = report.replace(runs=same, groups=summarise_groups(same))
        assert not [n for n in groups_table(made).notes if n.startswith("path smoothness")]
