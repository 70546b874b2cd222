"""meta.json and manifest entries: one rule for both, errors naming the file and the key."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from robot_msgs.errors import FormatError
from robot_msgs.runs.meta import ENTRY_KEYS, META_KEYS, check_keys, meta_from, read_meta

if TYPE_CHECKING:
    from pathlib import Path


def _meta(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "meta.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"algoritm": "orb"}, r"meta\.json: unknown key `algoritm`; expected one of algorithm, "),
        ({"trial": True}, r"meta\.json: `trial`: expected a non-empty string or an integer"),
        ({"trial": ""}, r"`trial`: expected a non-empty string or an integer, got str ''"),
        ({"exit_code": "1"}, r"meta\.json: `exit_code`: expected an integer, got str '1'"),
        (
            {"input_rate_hz": "10"},
            r"`input_rate_hz`: expected a finite number of hertz > 0, got str",
        ),
        # A rate of -5 or 1e400 Hz was taken as the sensor's (nominal_input_rate_hz).
        (
            {"input_rate_hz": -5},
            r"`input_rate_hz`: expected a finite number of hertz > 0, got int -5",
        ),
        ({"input_rate_hz": 0.0}, r"`input_rate_hz`: expected a finite number of hertz > 0"),
        ({"input_rate_hz": 10**400}, r"`input_rate_hz`: expected a finite number of hertz > 0"),
        ({"parameters": [1]}, r"`parameters`: expected a table of names to values"),
        ({"software": {"opencv": 4.8}}, r"`software\.opencv`: expected a version string"),
        ({"parameters": {"mask": [1, 2]}}, r"`parameters\.mask`: expected a scalar, got list"),
        ({"align": "se3"}, r"meta\.json: unknown key `align`"),
    ],
)
def test_meta_refuses_unknown_keys_and_wrong_types_naming_file_and_key(
    tmp_path: Path, data: object, match: str
) -> None:
    path = _meta(tmp_path, data)
    with pytest.raises(FormatError, match=match) as caught:
        read_meta(path)
    assert str(path) in str(caught.value)


def test_meta_refuses_bad_json_naming_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "meta.json").write_text('{"trial": 1\n}}', encoding="utf-8")
    with pytest.raises(FormatError, match=r"meta\.json:2:2: expected JSON"):
        read_meta(tmp_path / "meta.json")
    (tmp_path / "meta.json").write_text("[]", encoding="utf-8")
    with pytest.raises(FormatError, match=r"meta\.json: expected a JSON object, got a JSON array"):
        read_meta(tmp_path / "meta.json")
    (tmp_path / "meta.json").write_bytes(b'{"algorithm": "caf\xe9"}')
    with pytest.raises(FormatError, match=r"meta\.json: expected a UTF-8 JSON file"):
        read_meta(tmp_path / "meta.json")


def test_meta_with_a_utf8_bom_is_read(tmp_path: Path) -> None:
    (tmp_path / "meta.json").write_bytes(b"\xef\xbb\xbf" + b'{"algorithm": "orb", "trial": 2}')
    assert read_meta(tmp_path / "meta.json") == {"algorithm": "orb", "trial": 2}


def test_a_trial_written_as_a_float_integer_is_a_key() -> None:
    check_keys({"trial": 3.0}, "meta.json", META_KEYS)


def test_manifest_entries_take_the_meta_keys_plus_path_and_name() -> None:
    assert set(ENTRY_KEYS) == {*META_KEYS, "path", "name"}
    check_keys({"path": "a", "name": "run-a", "algorithm": "orb"}, "runs.toml", ENTRY_KEYS)
    with pytest.raises(FormatError, match=r"runs\.toml: unknown key `path`"):
        check_keys({"path": "a"}, "runs.toml", META_KEYS)


def test_meta_from_keys_keeps_the_descriptive_fields_and_the_reported_failure() -> None:
    meta = meta_from(
        {"algorithm": "orb", "version": "3.0", "exit_code": -11, "input_rate_hz": 10, "bag": "b"}
    )
    assert (meta.version, meta.exit_code, meta.input_rate_hz, meta.bag) == ("3.0", -11, 10.0, "b")
    assert (
        meta.reported_failure == "killed by SIGSEGV (exit code -11)"
    )  # Python's returncode: signal 11
    assert meta_from({"failure": "crashed at 12 s", "exit_code": 1}).reported_failure == (
        "crashed at 12 s"
    )
    assert meta_from({"exit_code": 0}).reported_failure == ""


@pytest.mark.parametrize(
    ("data", "key"),
    [({"algorithm": "orb\ud800"}, "algorithm"), ({"parameters": {"n": "\udcff"}}, "parameters.n")],
)
def test_a_lone_surrogate_is_refused_naming_the_key(data: dict[str, object], key: str) -> None:
    """JSON's `\\ud800` passed the checks and failed mid-sweep, naming no file nor key."""
    with pytest.raises(FormatError, match=rf"m\.json: `{key}`: expected text UTF-8 can encode"):
        check_keys(data, "m.json", ENTRY_KEYS)


@pytest.mark.parametrize("key", ["algorithm", "sequence"])
def test_an_algorithm_or_sequence_of_only_spaces_is_refused(key: str) -> None:
    """`" "` was a blank ranking line (`" #2"`) or column (`" [m]"`) beside `""`'s "not stated"."""
    check_keys({key: ""}, "m.json", META_KEYS)  # not stated
    with pytest.raises(FormatError, match=rf"m\.json: `{key}`: expected a string with more than"):
        check_keys({key: " \t"}, "m.json", META_KEYS)
