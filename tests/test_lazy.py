"""A lazy package face: names served on first use, kept over submodules of the same name."""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

_PACKAGE = "lazy_face_example"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package exporting the function ``ape`` of ``entry.py`` and holding ``ape.py``.

    As ``robot_msgs.evaluation`` does: the module ``ape`` computes, the function ``ape``
    (defined elsewhere, importing the module) is the face's name.
    """
    root = tmp_path / _PACKAGE
    root.mkdir()
    (root / "__init__.py").write_text(
        "from robot_msgs._lazy import exports\n"
        '__getattr__ = exports(__name__, {"entry": ("ape",)})\n',
        encoding="utf-8",
    )
    (root / "ape.py").write_text("KIND = 'module'\n", encoding="utf-8")
    (root / "entry.py").write_text(
        f"from {_PACKAGE}.ape import KIND\n\ndef ape() -> str:\n    return 'function over ' + KIND\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield _PACKAGE
    for name in [n for n in sys.modules if n == _PACKAGE or n.startswith(_PACKAGE + ".")]:
        del sys.modules[name]


def test_a_name_is_served_on_first_use_and_kept(package: str) -> None:
    face = importlib.import_module(package)
    assert "ape" not in vars(face)
    assert face.ape() == "function over module"
    assert vars(face)["ape"] is sys.modules[f"{package}.entry"].ape


def test_a_submodule_imported_first_does_not_replace_the_exported_name(package: str) -> None:
    module = importlib.import_module(f"{package}.ape")  # as the doctor or the CLI would
    face = sys.modules[package]
    assert module.KIND == "module"
    assert face.ape() == "function over module"
    assert sys.modules[f"{package}.ape"] is module


def test_a_submodule_imported_later_does_not_replace_the_exported_name(package: str) -> None:
    face = importlib.import_module(package)
    function = face.ape
    del sys.modules[f"{package}.ape"]  # imported again: the import system binds it again
    importlib.import_module(f"{package}.ape")
    assert face.ape is function


def test_an_unknown_name_raises_attribute_error_naming_it(package: str) -> None:
    face = importlib.import_module(package)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'rpe'"):
        _ = face.rpe


def test_a_kept_name_is_served_without_being_exported() -> None:
    import robot_msgs.msg
    from robot_msgs._lazy import _EXPORTED
    from robot_msgs.msg.base import _rebuild

    # What a 0.2.0 pickle names (robot_msgs.msg._rebuild) is served, not exported.
    assert robot_msgs.msg._rebuild is _rebuild
    assert "_rebuild" not in robot_msgs.msg.__all__
    assert "_rebuild" not in _EXPORTED["robot_msgs.msg"]


def test_dir_lists_the_exported_names_before_their_first_use(package: str) -> None:
    """`dir(robot_msgs.io)` showed none of its readers: a notebook completed nothing."""
    face = importlib.import_module(package)
    assert "ape" not in vars(face)
    assert "ape" in dir(face)
    import robot_msgs.io

    assert {"read_tum", "write_trajectory", "read_inputs"} <= set(dir(robot_msgs.io))
