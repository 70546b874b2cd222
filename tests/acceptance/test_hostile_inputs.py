"""A catalogue of hostile inputs, one case (at least) per root cause of issue 23's bad answers.

Each case builds its files in a fresh folder (zip bombs streamed from zeros, patched zip
headers, documents nested 100,000 deep, a FIFO fed by a writer, a bag of garbage CDR
written with rosbags, names holding ``$``, NUL, newlines or markup) and runs one command
in this process through :func:`robot_msgs.cli.main`, as a user would. It must exit as
stated, print no traceback, print at most one ``ERROR:`` line matching the case (the
file and the reason named), never quote more than the offending token of a file, and
leave nothing behind but what it was asked to write. Only the public entry points are
used, so each case also runs against an older robot_msgs.

The root causes (the issue's numbering): 1. the command line caught only the package's
errors; 2. saved-result readers trusted what they read; 3. special files were read
without bounds; 4. numeric flags were unbounded; 5. weak answers (markup, formulas,
forged lines, quoted secrets, broken pipes, folder names, exponents, detection).
"""

from __future__ import annotations

import json
import math
import re
import stat
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.io.result_files import save_result
from robot_msgs.msg.catalog import example
from tests.hostile import (
    add_zero_bomb,
    deadline,
    deep_json,
    deep_toml,
    deep_yaml,
    evo_zip,
    fifo_with_writer,
    garbage_cdr_bag,
    npy_bytes,
    npy_header_only,
    patch_entry,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def _tum(stamps: list[float], z: float = 0.0) -> str:
    rows = "".join(f"{t!r} {t!r} {math.sin(t)!r} {z!r} 0 0 0 1\n" for t in stamps)
    return "# timestamp tx ty tz qx qy qz qw\n" + rows


T = [0.1 * k for k in range(101)]
REF = _tum(T)
EST = _tum(T, z=0.01)
SECRET = "root:$6$SECRETHASHSECRETHASH:19000:0:99999:7:::\n"  # noqa: S105 - a fake


def _text(files: dict[str, str]) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")

    return build


def _runs(root: Path) -> None:
    _text(
        {"runs/MH_01/reference.tum": _tum(T[:30]), "runs/orb/MH_01/1/estimate.tum": _tum(T[:30])}
    )(root)


def _manifest(text: str) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        _runs(root)
        (root / "runs.toml").write_text(text, encoding="utf-8")

    return build


def _evo(**kwargs: object) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        evo_zip(root / "evo.zip", **kwargs)  # type: ignore[arg-type]

    return build


def _patched(**fields: int) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        patch_entry(evo_zip(root / "evo.zip"), "error_array.npy", **fields)

    return build


def _result(name: str, change: Callable[[str], str] | None = None) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        path = save_result(root / name, example("compare/EvaluationResult"))  # type: ignore[arg-type]
        if change is not None:
            path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")

    return build


def _parquet(column: str, value: object) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        pq = pytest.importorskip("pyarrow.parquet")
        pa = pytest.importorskip("pyarrow")
        path = save_result(root / "r.parquet", example("compare/EvaluationResult"))  # type: ignore[arg-type]
        table = pq.read_table(path)
        cells = table.column(column).to_pylist()
        cells[0] = value
        kind = table.schema.field(column).type
        table = table.set_column(
            table.schema.get_field_index(column), column, pa.array(cells, kind)
        )
        pq.write_table(table, path)

    return build


def _npz_extra(root: Path) -> None:
    path = save_result(root / "r.npz", example("compare/EvaluationResult"))  # type: ignore[arg-type]
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("zz/a0.npy", npy_bytes(np.array([1.0])))


def _bomb(root: Path) -> None:
    add_zero_bomb(evo_zip(root / "evo.zip", without=("error_array",)), "error_array.npy", 2 << 30)


def _npz_bomb(root: Path) -> None:
    path = save_result(root / "r.npz", example("compare/EvaluationResult"))  # type: ignore[arg-type]
    with zipfile.ZipFile(path) as old:
        entries = {name: old.read(name) for name in old.namelist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for name, data in entries.items():
            if name != "a0.npy":
                new.writestr(name, data)
    add_zero_bomb(path, "a0.npy", 2 << 30)


def _bag(root: Path) -> None:
    pytest.importorskip("rosbags")
    garbage_cdr_bag(root / "bag")


def _link(
    name: str, target: str, then: Callable[[Path], None] | None = None
) -> Callable[[Path], None]:
    def build(root: Path) -> None:
        if then is not None:
            then(root)
        (root / name).symlink_to(target)

    return build


def _deep_meta(root: Path) -> None:
    _runs(root)
    (root / "runs/orb/MH_01/1/meta.json").write_text(deep_json(100_000), encoding="utf-8")


def _secrets(root: Path) -> None:
    _manifest(
        '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "shadow"\n'
        'estimate_format = "tum"\n'
    )(root)
    (root / "shadow").write_text("0 0 0 0 0 0 0 1\n" + SECRET, encoding="utf-8")


def _meta_fifo(root: Path) -> None:
    _runs(root)
    import os

    os.mkfifo(root / "runs/orb/MH_01/1/meta.json")


def _timing_device(root: Path) -> None:
    _runs(root)
    (root / "runs/orb/MH_01/1/timing.csv").symlink_to("/dev/zero")


@dataclass(frozen=True)
class Case:
    """Files built in a folder, a command run there, and what it must answer."""

    name: str
    build: Callable[[Path], None]
    args: list[str]
    error: str = ""  # the one ERROR line must match this (after "ERROR: ")
    warnings: tuple[str, ...] = ()
    code: int = 1
    made: tuple[str, ...] = ()  # files the command writes
    fifo: tuple[str, bytes] | None = None  # a FIFO fed by a writer while the command runs
    stdout: str = ""
    secret: bool = field(default=False)  # the error must not quote SECRET


CASES = [
    # 1. The command line caught only the package's errors and OSError.
    Case("1-deep-json-result", _text({"r.json": deep_json(100_000)}), ["res", "r.json"],
         error=r"^r\.json: nested deeper than 64 levels"),
    Case("1-deep-toml-manifest", _manifest(deep_toml(100_000)), ["report", "runs.toml"],
         error=r"^runs\.toml: nested deeper than 64 levels"),
    Case("1-deep-json-manifest", _text({"runs.json": deep_json(200_000)}), ["report", "runs.json"],
         error=r"^runs\.json: nested deeper than 64 levels"),
    Case("1-deep-yaml-transform", _text({"ref.tum": REF, "est.tum": EST, "t.yaml": deep_yaml(50_000)}),
         ["ape", "ref.tum", "est.tum", "--transform-left", "t.yaml"],
         error=r"^--transform-left t\.yaml: nested deeper than 64 levels"),
    Case("1-deep-json-meta", _deep_meta, ["report", "runs"],
         error=r"meta\.json: nested deeper than 64 levels"),
    Case("1-5000-digit-integer-in-a-result", _result("r.json", lambda t: t.replace('"n":', '"n":' + "9" * 5000 + ',"m":', 1)),
         ["res", "r.json"], error=r"^r\.json: Expected an integer of at most 4300 characters, got one of 5000 .* at `EvaluationResult\.comparison\.signals\[0\]\.stats\.n`$"),
    Case("1-5000-digit-integer-in-evo-stats", _evo(stats={**json.loads('{"rmse": 1}'), "rmse": 10**4000}),
         ["res", "evo.zip"], error=r"^evo\.zip: stats\.json:?.*(4300 digits|beyond float64)"),
    Case("1-bad-crc", _patched(crc=1), ["res", "evo.zip"],
         error=r"^evo\.zip: 'error_array\.npy': damaged entry \(Bad CRC-32"),
    Case("1-encrypted-entry", _patched(flag_bits=1), ["res", "evo.zip"],
         error=r"^evo\.zip: 'error_array\.npy': is encrypted"),
    Case("1-compression-method-99", _patched(method=99), ["res", "evo.zip"],
         error=r"^evo\.zip: 'error_array\.npy': compression method 99 is not read"),
    Case("1-garbage-cdr-bag", _bag, ["traj", "bag", "--topic", "/pose"],
         error=r"^bag: cannot read the bag \(AnyReaderError: Invalid string length"),
    Case("1-dollar-name-plot", _text({"x$^$.txt": REF}), ["traj", "x$^$.txt", "--plot", "p.png"],
         code=0, made=("p.png",)),
    Case("1-negative-dpi", _text({"ref.tum": REF}), ["traj", "ref.tum", "--plot", "p.png", "--dpi", "-5"],
         error=r"^--dpi -5: expected a resolution in dots per inch from 1 to 600, got -5$", code=2),
    Case("1-huge-step", _text({"ref.tum": REF, "est.tum": EST}),
         ["drift", "ref.tum", "est.tum", "--lengths", "2", "--step", "99999999999999999999"],
         error=r"^--step 99999999999999999999: expected int >= 1 and <= 1000000000, got int", code=2),
    Case("1-nul-in-a-manifest-path", _manifest('[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\n'
                                               'estimate = "runs/orb\\u0000/x.tum"\n'),
         ["report", "runs.toml"], error=r"runs\.toml \[\[runs\]\] #1 `estimate`: expected a path, got .*NUL byte"),
    Case("1-symlink-loop-estimate",
         _link("loop", "loop", _manifest('[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\n'
                                         'estimate = "loop/x.tum"\n')),
         ["report", "runs.toml"], error=r"runs\.toml \[\[runs\]\] #1 `estimate`: cannot follow the path 'loop/x\.tum'"),
    # 2. Saved-result readers trusted what they read.
    Case("2-zip-bomb-2GiB", _bomb, ["res", "evo.zip"],
         error=r"^evo\.zip: 'error_array\.npy': declares 2147483648 bytes, past the bound"),
    Case("2-npz-bomb-2GiB", _npz_bomb, ["res", "r.npz"],
         error=r"^r\.npz: 'a0\.npy': declares 2147483648 bytes, past the bound"),
    Case("2-npy-header-of-a-trillion-values", _evo(arrays={"error_array": npy_header_only((10**12,))}),
         ["res", "evo.zip"], error=r"^evo\.zip: error_array\.npy: the header says shape \(1000000000000,\)"),
    Case("2-shadowing-entry", _evo(extra={"zz/error_array.npy": npy_bytes(np.array([9.0, 9.0]))}),
         ["res", "evo.zip"], error=r"^evo\.zip: the entry 'zz/error_array\.npy' shadows error_array\.npy"),
    Case("2-duplicate-entry", _evo(extra={"error_array.npy": npy_bytes(np.array([9.0, 9.0]))}),
         ["res", "evo.zip"], error=r"^evo\.zip: two entries named 'error_array\.npy'"),
    Case("2-string-array", _evo(arrays={"error_array": npy_bytes(np.array(["a", "b"]))}),
         ["res", "evo.zip"], error=r"^evo\.zip: error_array\.npy: expected an array of floats, got text"),
    Case("2-structured-array", _evo(arrays={"error_array": npy_bytes(np.zeros(2, dtype=[("a", "<f8")]))}),
         ["res", "evo.zip"], error=r"^evo\.zip: error_array\.npy: expected an array of floats, got records"),
    Case("2-complex-array", _evo(arrays={"error_array": npy_bytes(np.array([1j, 2j]))}),
         ["res", "evo.zip"], error=r"^evo\.zip: error_array\.npy: expected an array of floats, got complex"),
    Case("2-two-dimensional-errors", _evo(arrays={"error_array": npy_bytes(np.ones((2, 3)))}),
         ["res", "evo.zip"], error=r"^evo\.zip: error_array\.npy: expected shape \(N,\), one value per error, got \(2, 3\)"),
    Case("2-timestamps-of-another-length", _evo(arrays={"timestamps": npy_bytes(np.array([1.0, 2.0, 3.0]))}),
         ["res", "evo.zip"], error=r"^evo\.zip: timestamps\.npy: expected one value per error \(2, .*got 3$"),
    Case("2-parquet-dtype-banana", _parquet("dtype", "banana"), ["res", "r.parquet"],
         error=r"^r\.parquet: array 0: `dtype`: expected a NumPy dtype of floats, integers or booleans"),
    Case("2-parquet-dtype-object", _parquet("dtype", "|O"), ["res", "r.parquet"],
         error=r"^r\.parquet: array 0: `dtype`: expected a NumPy dtype .*got '\|O'"),
    Case("2-parquet-wrong-shape", _parquet("shape", [7, 7]), ["res", "r.parquet"],
         error=r"^r\.parquet: array 0: `shape` \(7, 7\) holds 49 values, but `\w+` has \d+$"),
    Case("2-npz-extra-entry", _npz_extra, ["res", "r.npz"],
         error=r"^r\.npz: unexpected entry 'zz/a0\.npy'"),
    # 3. Special files were read without bounds.
    Case("3-dev-zero-explicit-format", _text({}), ["traj", "--format", "tum", "/dev/zero"],
         error=r"^/dev/zero: is a character device, not a file: refusing to read it"),
    Case("3-dev-urandom", _text({}), ["traj", "/dev/urandom"],
         error=r"^/dev/urandom: is a character device, not a file: refusing to read it"),
    Case("3-dev-zero-ref-times", _text({"ref.txt": "1 0 0 0 0 1 0 0 0 0 1 0\n" * 3, "est.tum": EST}),
         ["ape", "ref.txt", "est.tum", "--ref-times", "/dev/zero"],
         error=r"/dev/zero: is a character device, not a file"),
    Case("3-manifest-estimate-dev-zero",
         _manifest('[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "/dev/zero"\n'),
         ["report", "runs.toml"], error=r"/dev/zero: is a character device, not a file"),
    Case("3-result-link-to-dev-zero", _link("x.zip", "/dev/zero"), ["res", "x.zip"],
         error=r"^x\.zip: (is a character device|not an evo result zip)"),
    Case("3-fifo-with-a-writer", _text({}), ["traj", "pipe.tum"], code=0,
         fifo=("pipe.tum", REF.encode()), stdout=r"poses +101\b"),
    Case("3-meta-json-fifo", _meta_fifo, ["report", "runs"], code=0,
         warnings=(r"meta\.json: is a pipe \(FIFO\), not a regular file: not read as the run's meta\.json",),
         stdout=r"orb/MH_01/1"),
    # A link to nothing, or a loop of links, was passed over unsaid, as no meta.json at all.
    Case("3-meta-json-dangling-link", _link("runs/orb/MH_01/1/meta.json", "gone.json", _runs),
         ["report", "runs"], code=0, stdout=r"orb/MH_01/1",
         warnings=(r"meta\.json: is a symbolic link to no file \(.*\), not a regular file: not read as the run's meta\.json$",)),
    Case("3-meta-json-link-loop", _link("runs/orb/MH_01/1/meta.json", "meta.json", _runs),
         ["report", "runs"], code=0, stdout=r"orb/MH_01/1",
         warnings=(r"meta\.json: is a symbolic link to no file \(missing, or a loop of links\)",)),
    # Refused as bench refuses it: warned and passed over, its run lost its latency unsaid.
    Case("3-timing-csv-device", _timing_device, ["report", "runs"],
         error=r"timing\.csv: is a character device, not a regular file: a run's timing log is read from a file"),
    # 4. Unbounded resources.
    Case("4-workers-100000", _runs, ["bench", "runs", "--out", "out", "--workers", "100000"],
         error=r"^--workers 100000: expected a count of workers from 1 to \d+, got 100000$", code=2),
    Case("4-dpi-1000000", _text({"ref.tum": REF}), ["traj", "ref.tum", "--plot", "p.png", "--dpi", "1000000"],
         error=r"^--dpi 1000000: expected a resolution in dots per inch from 1 to 600", code=2),
    # 5. Weak answers.
    Case("5-newline-in-a-name", _text({}), ["traj", "a\nERROR: forged"],
         error=r"^a\\x0aERROR: forged: no such file$"),
    Case("5-escape-sequence-in-a-name", _text({}), ["traj", "a\x1b[31mred"],
         error=r"^a\\x1b\[31mred: no such file$"),
    Case("5-manifest-pointing-at-a-secret", _secrets, ["report", "runs.toml"],
         error=r"shadow", secret=True),
    Case("5-secret-as-trajectory", _text({"shadow": "0 0 0 0 0 0 0 1\n" + SECRET}), ["traj", "--format", "tum", "shadow"],
         error=r"^shadow, line 2: expected 8 columns \(t x y z qx qy qz qw\), got 1$", secret=True),
    Case("5-save-to-a-folder-name", _text({"ref.tum": REF}), ["traj", "ref.tum", "--save", "X/", "--to", "tum"],
         error=r"^--save X/: ends in '/', so it names a folder; give the path of a file$"),
    Case("5-negative-exponent-is-a-number", _text({"ref.tum": REF}), ["traj", "ref.tum", "--t-start", "-1e-3"],
         code=0, stdout=r"poses +101"),
    Case("5-eleven-columns", _text({"a.txt": "1 2 3 4 5 6 7 8 9 10 11\n" * 2}), ["traj", "a.txt"],
         error=r"^a\.txt: cannot tell the format: line 1 has 11 numbers"),
    Case("5-kitti-not-a-rotation", _text({"k.txt": "2 0 0 0 0 2 0 0 0 0 2 0\n" * 2}), ["traj", "k.txt"],
         error=r"^k\.txt, line 1: the 3x3 block is not a rotation \(.*det = 8\)$"),
]  # fmt: skip


def _listing(root: Path) -> set[str]:
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if not stat.S_ISDIR(p.lstat().st_mode)
    }


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_hostile_input_is_answered_in_one_line_and_leaves_nothing_behind(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: Case,
) -> None:
    case.build(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = _listing(tmp_path)
    with deadline(60):
        if case.fifo is not None:
            name, data = case.fifo
            with fifo_with_writer(tmp_path / name, data):
                before.add(name)
                code = main(case.args)
        else:
            code = main(case.args)
    captured = capsys.readouterr()
    assert code == case.code, captured.err
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.splitlines()
    assert len(lines) == len(case.warnings) + bool(case.error), captured.err
    for line, pattern in zip(lines, case.warnings, strict=False):
        assert line.startswith("WARNING: "), line
        assert re.search(pattern, line), line
    if case.error:
        assert lines[-1].startswith("ERROR: "), lines[-1]
        assert re.search(case.error, lines[-1].removeprefix("ERROR: ")), lines[-1]
    if case.secret:
        assert "SECRET" not in captured.err + captured.out
    if case.stdout:
        assert re.search(case.stdout, captured.out, re.MULTILINE), captured.out
    after = _listing(tmp_path)
    assert after - before == set(case.made), after - before


def test_every_root_cause_has_a_case() -> None:
    assert {c.name.split("-", 1)[0] for c in CASES} == {"1", "2", "3", "4", "5"}
    assert len({c.name for c in CASES}) == len(CASES)
