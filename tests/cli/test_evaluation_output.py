"""How ``ape``, ``rpe`` and ``drift`` report: an estimate's pair-level error names it."""

from __future__ import annotations

import pytest

from robot_msgs.cli import main
from robot_msgs.cli._evaluation_output import format_results_table, format_table, naming
from robot_msgs.compare import Comparison, Signal
from robot_msgs.errors import AssociationError, UsageError
from tests.terminal import Terminal

CAUSE = "it barely moves; give `offset_s=`"


def _named(error: Exception) -> None:
    with naming("est.tum"):
        raise error


def test_naming_keeps_every_field_of_the_error_it_rewords() -> None:
    """The flat-cost offset refusal lost its ``cause`` when named: rebuilt from its text."""
    refused = AssociationError(f"Cannot estimate a time offset: {CAUSE}", cause=CAUSE)
    with pytest.raises(
        AssociationError, match=r"^est\.tum: Cannot estimate a time offset: it"
    ) as named:
        _named(refused)
    assert named.value.cause == CAUSE
    assert named.value.__cause__ is refused
    with pytest.raises(UsageError, match=r"^est\.tum: expected 2 poses$") as usage:
        _named(UsageError("expected 2 poses", field="EvaluationSettings.n_align"))
    assert (usage.value.field, usage.value.reason) == (
        "EvaluationSettings.n_align",
        "est.tum: expected 2 poses",
    )


def test_format_table_keeps_each_pose_count_beside_its_number() -> None:
    """V102's ``poses:`` line folded ``unmatched reference`` from its 15908 at 80 columns."""
    counts = {
        "reference": 16702,
        "estimate": 803,
        "matched": 794,
        "unmatched_reference": 15908,
        "unmatched_estimate": 9,
    }
    signal = Signal.of("translation", "m", [0.1, 0.1], stamps_s=[0.0, 1.0])
    text = format_table(Comparison(metric="ape", signals=(signal,), counts=counts), {})
    poses = text[text.index("poses:") : text.index("\n\n")].splitlines()
    assert poses == [
        "poses:     reference 16702, estimate 803, matched 794,",
        "           unmatched reference 15908, unmatched estimate 9",
    ]


def test_a_note_beside_json_is_folded_on_a_terminal_and_one_line_in_a_pipe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ape --json`` says its notes on standard error as ``NOTE:`` lines, printed past the
    folding that ``ERROR:`` and ``WARNING:`` lines get: on an 80-column terminal the se3
    fit's note ran 115 columns on the evo data (V1_02), cut mid-word by the terminal."""
    argv = [
        "ape",
        "example:fr1_xyz/groundtruth.tum",
        "example:fr1_xyz/rgbdslam.tum",
        "--align",
        "se3",
        "--json",
    ]
    assert main(argv) == 0
    (line,) = [x for x in capsys.readouterr().err.splitlines() if x.startswith("NOTE:")]
    assert line.startswith("NOTE: se3 alignment fitted on ")  # in a pipe: one line, for grep
    assert len(line) > 80
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    shown = terminal.getvalue().splitlines()
    assert shown[0].startswith("NOTE: se3 alignment fitted on ")
    assert all(len(x) <= 80 for x in shown)
    assert all(x.startswith(" " * 6) for x in shown[1:])  # under the text, past "NOTE: "
    assert " ".join(x.strip() for x in shown) == line


def test_results_table_says_a_count_a_comparison_lacks_as_a_dash() -> None:
    """Only a side's rows matched stand for its pairs where no row is shared; the fallback
    to ``matched`` of 5f0ac84 took every count: a comparison that does not count its
    unmatched poses read "unmatched est 3, unmatched ref 3", as many as its pairs."""
    signal = Signal.of("translation", "m", [0.1, 0.1], stamps_s=[0.0, 1.0])
    shared = {"estimate": 4, "matched": 4, "matched_estimate_rows": 3, "unmatched_estimate": 1}
    comparisons = [
        Comparison(metric="ape", signals=(signal,), estimate=name, counts=counts)
        for name, counts in (("a", shared), ("b", {"estimate": 5, "matched": 3}))
    ]
    text = format_results_table(comparisons, {})
    cells: dict[str, list[str]] = {"a": [], "b": []}
    for line in text.splitlines():  # the table folds: each block's cells past the unit
        if line[:2] in {"a ", "b "}:
            cells[line[0]] += line.split()[3:]
    # poses, matched, est rows matched, unmatched est, unmatched ref (then n and stats)
    assert cells["a"][:5] == ["4", "4", "3", "1", "-"]
    assert cells["b"][:5] == ["5", "3", "3", "-", "-"]
