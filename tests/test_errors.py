"""``errors``: a data warning points at the user's own line, however deep the package warns."""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import (
    DataWarning,
    MissingDependencyError,
    OutputPathError,
    RobotMsgsError,
    close_names,
)
from robot_msgs.evaluation import EvaluationSettings, ape
from robot_msgs.io import read_trajectory

if TYPE_CHECKING:
    from pathlib import Path


def test_a_data_warning_names_the_callers_line(tmp_path: Path) -> None:
    """Warnings named ``pipeline.py:412`` and ``clean.py:130``, inside the package, where a
    notebook user looks for the cell that led to them (a review)."""
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    xyzw = ref.orientations_quat_xyzw
    # w first written as w last: the evaluation warns from four calls deep.
    mixed = ref.replace(orientations_quat_xyzw=np.roll(xyzw, 1, axis=1))
    with pytest.warns(DataWarning, match="quaternion") as caught:
        ape(ref, mixed, settings=EvaluationSettings(align="se3"))
    assert {w.filename for w in caught} == {__file__}
    # A reader's warning: a stamp repeated in the file.
    text = "0.0 0 0 0 0 0 0 1\n1.0 1 0 0 0 0 0 1\n1.0 1 0 0 0 0 0 1\n2.0 2 0 0 0 0 0 1\n"
    (tmp_path / "a.tum").write_text(text, encoding="utf-8")
    with pytest.warns(DataWarning, match="repeat") as caught:
        read_trajectory(tmp_path / "a.tum")
    assert {w.filename for w in caught} == {__file__}


def _subclasses(cls: type[RobotMsgsError]) -> list[type[RobotMsgsError]]:
    return [cls, *(kin for sub in cls.__subclasses__() for kin in _subclasses(sub))]


@pytest.mark.parametrize("kind", _subclasses(RobotMsgsError), ids=lambda kind: kind.__name__)
def test_an_error_said_within_other_words_keeps_its_class_and_fields(
    kind: type[RobotMsgsError],
) -> None:
    """``within`` is how a caller names the file or run of an error: the class, the text
    and every field must survive it (an ImportError's text is its ``msg``, not ``args``)."""
    err = kind("why")
    err.__dict__["extra"] = 7  # a field a subclass may add
    said = err.within("a.tum: ", ".")
    assert type(said) is kind
    assert str(said) == "a.tum: why."
    assert said.__dict__.get("extra") == 7


def test_an_error_said_within_other_words_keeps_the_fields_of_the_builtin_it_refines() -> None:
    """An ImportError's ``name`` and ``path`` and an OSError's ``errno`` are no ``__dict__``
    entries: ``within`` dropped them, where it says it keeps every field."""
    missing = MissingDependencyError("pip install scipy", name="scipy", path="/x/scipy")
    said = missing.within("a.tum: ")
    assert (str(said), said.name, said.path) == ("a.tum: pip install scipy", "scipy", "/x/scipy")
    full = OutputPathError(errno.ENOSPC, "no space left on the device")
    written = full.within("out.json: ")
    assert (str(written), written.errno) == (
        "out.json: [Errno 28] no space left on the device",
        errno.ENOSPC,
    )


@pytest.mark.parametrize(
    ("given", "choices", "said"),
    [
        ("Ape", ["ape", "rpe", "traj"], ["ape"]),
        ("/Odom", ["/odom", "/odom_raw", "/amcl_pose"], ["/odom"]),
        ("odm", ["/odom", "/odom_raw"], ["/odom"]),  # no name in other case: as before
    ],
)
def test_a_name_typed_in_other_case_is_answered_with_that_name_alone(
    given: str, choices: list[str], said: list[str]
) -> None:
    """``robot-msgs Ape`` was asked "did you mean rpe, ape?": difflib's ratio is case
    sensitive, so ``rpe`` (two letters of ``Ape``) came first and the name meant second."""
    assert close_names(given, choices) == said
