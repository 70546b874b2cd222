from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

import robot_msgs
from robot_msgs.cli import docs as docs_cli
from robot_msgs.cli import main
from robot_msgs.errors import OutputExistsError, OutputPathError
from robot_msgs.files import write_atomic

if TYPE_CHECKING:
    import os
    from pathlib import Path


def n_pages() -> int:
    return 1 + sum(1 for name in robot_msgs.registered_types() if not name.startswith("test/"))


def test_docs_writes_one_page_per_type_plus_index_and_lists_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ref"
    assert main(["docs", "--out", str(out)]) == 0
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert len(written) == n_pages()
    assert "index.html" in written
    assert "compare/ErrorStats.html" in written
    printed = capsys.readouterr().out.splitlines()
    assert str(out / "compare" / "ErrorStats.html") in printed
    assert printed[-1] == f"{n_pages()} files written to {out}"
    page = (out / "compare" / "ErrorStats.html").read_text(encoding="utf-8")
    assert "from robot_msgs.compare import ErrorStats" in page
    assert not list(out.rglob("*.tmp")), "no temporary files left behind"


def test_docs_refuses_to_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ref"
    assert main(["docs", "--out", str(out)]) == 0
    page = out / "compare" / "ErrorStats.html"
    page.write_text("kept", encoding="utf-8")
    capsys.readouterr()
    assert main(["docs", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: ")
    assert "pass --force to overwrite" in err
    assert page.read_text(encoding="utf-8") == "kept"


def test_refusal_writes_nothing_even_where_only_one_page_exists(tmp_path: Path) -> None:
    out = tmp_path / "ref"
    (out / "std").mkdir(parents=True)
    (out / "std" / "Time.html").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputExistsError, match=r"std/Time\.html.*--force"):
        docs_cli.write_reference(out)
    assert sorted(p.name for p in out.rglob("*")) == ["Time.html", "std"]


def test_a_file_where_a_subfolder_goes_is_refused_before_any_page_is_written(
    tmp_path: Path,
) -> None:
    out = tmp_path / "ref"
    out.mkdir()
    (out / "compare").write_text("a file", encoding="utf-8")
    with pytest.raises(OutputPathError, match=r"ref/compare: is a file, not a folder"):
        docs_cli.write_reference(out)
    assert sorted(p.name for p in out.rglob("*")) == ["compare"]


def test_force_overwrites_existing_pages(tmp_path: Path) -> None:
    out = tmp_path / "ref"
    docs_cli.write_reference(out)
    page = out / "compare" / "ErrorStats.html"
    page.write_text("stale", encoding="utf-8")
    assert main(["docs", "--out", str(out), "--force"]) == 0
    assert "Summary of one error signal" in page.read_text(encoding="utf-8")


def test_other_files_in_the_folder_are_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "ref"
    out.mkdir()
    (out / "notes.txt").write_text("hello", encoding="utf-8")
    assert main(["docs", "--out", str(out)]) == 0
    assert (out / "notes.txt").read_text(encoding="utf-8") == "hello"


def test_every_page_goes_through_write_atomic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str | os.PathLike[str]] = []

    def spy(path: str | os.PathLike[str], data: str | bytes, *, force: bool = False) -> Path:
        calls.append(path)
        return write_atomic(path, data, force=force)

    monkeypatch.setattr(docs_cli, "write_atomic", spy)
    docs_cli.write_reference(tmp_path)
    assert len(calls) == n_pages()


def test_out_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["docs"])
    assert "--out" in capsys.readouterr().err


def test_an_out_that_is_a_file_is_refused_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "reference"
    out.write_text("keep")
    assert main(["docs", "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: --out {out}: is a file, not a folder; give a folder (it is created if missing)\n"
    )
    assert main(["docs", "--out", str(out / "html")]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: --out {out / 'html'}: cannot create the folder: {out} is a file, not a folder\n"
    )
    assert out.read_text() == "keep"
