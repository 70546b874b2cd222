"""The settings' JSON Schema (``robot-msgs schema``) refuses what the decoder refuses.

Each setting is declared once, on its field (``Literal`` choices, msgspec ``Meta``
bounds and description); the schema and the decoder both come from that declaration.
For every document below that breaks one field's own rule, the reference validator
(``jsonschema``) and :meth:`Msg.from_dict` both refuse it, and both take the good ones.
The rules *between* fields (``n_align`` with an alignment, ``max_diff_s`` with
``sync="interpolate"``...) live in each class's ``_validate``: JSON Schema states them
only awkwardly, so the schema does not carry them; the last test shows that line.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.cli import main
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import Ape, Drift, EvaluationSettings, PairSettings, Rpe

if TYPE_CHECKING:
    from robot_msgs.msg import Msg

jsonschema = pytest.importorskip("jsonschema", reason="the reference validator (test extra)")

BAD: list[tuple[type[Msg], dict[str, Any]]] = [
    (EvaluationSettings, {"align": "se4"}),
    (EvaluationSettings, {"align": 3}),
    (EvaluationSettings, {"n_align": 0}),
    (EvaluationSettings, {"n_align": 2.5}),
    (EvaluationSettings, {"align_window_s": [1.0]}),
    (EvaluationSettings, {"align_window_s": [0.0, 1.0, 2.0]}),
    (EvaluationSettings, {"sync": "closest"}),
    (EvaluationSettings, {"spatial_pairs": "closest"}),
    (EvaluationSettings, {"max_diff_s": -0.0001}),
    (EvaluationSettings, {"max_diff_s": -0.01}),
    (EvaluationSettings, {"max_diff_s": "0.01"}),
    (EvaluationSettings, {"offset_auto": "yes"}),
    (EvaluationSettings, {"confidence": 1.0}),
    (EvaluationSettings, {"confidence": 0.0}),
    (EvaluationSettings, {"alignn": "se3"}),
    (PairSettings, {"delta": 0.0}),
    (PairSettings, {"delta_unit": "km"}),
    (PairSettings, {"delta_tol": 1.0}),
    (PairSettings, {"pairs_from": "both"}),
    (PairSettings, {"protocol": "kitti"}),
    (Ape, {"relation": "yaw"}),
    (Rpe, {"relation": "speed"}),
    (Drift, {"protocol": "euroc"}),
    (Drift, {"lengths_m": []}),
    (Drift, {"lengths_m": [100.0, -200.0]}),
    (Drift, {"step_frames": 0}),
    (Drift, {"fractions": [0.0]}),
    (Drift, {"max_diff_ratio": 0.0}),
    # Fields declared FINITE: no spelling of a non-finite float (JSON's "NaN", "Infinity").
    (EvaluationSettings, {"max_diff_s": "Infinity"}),
    (EvaluationSettings, {"offset_s": "NaN"}),
    (EvaluationSettings, {"t_start_s": "-Infinity"}),
    (EvaluationSettings, {"align_window_s": [0.0, "Infinity"]}),
    (EvaluationSettings, {"transform_left": [1.0, 0.0, 0.0, 0.0] * 3 + ["NaN", 0.0, 0.0, 1.0]}),
    (PairSettings, {"delta": "Infinity"}),
    (Drift, {"lengths_m": [100.0, "Infinity"]}),
    (Drift, {"max_diff_ratio": "Infinity"}),
]

GOOD: list[tuple[type[Msg], dict[str, Any]]] = [
    (EvaluationSettings, {}),
    (EvaluationSettings, {"align": "origin_scale", "sync": "one_to_one", "max_diff_s": 0.02}),
    (EvaluationSettings, {"align": "se3", "n_align": 10, "confidence": 0.99}),
    (EvaluationSettings, {"sync": "spatial", "spatial_pairs": "first", "max_distance_m": 0.02}),
    (PairSettings, {"delta": 2.5, "delta_unit": "m", "all_pairs": True}),
    (PairSettings, {"delta": 1.0, "delta_unit": "s", "protocol": "tum"}),
    (Ape, {"relation": "angle_deg"}),
    (Drift, {"protocol": "kitti", "lengths_m": [50.0, 100.0], "step_frames": 5}),
    (Drift, {"protocol": "rpg", "fractions": [0.2], "max_diff_ratio": 0.1}),
    (EvaluationSettings, {"sync": "interpolate", "max_gap_s": "Infinity"}),  # not FINITE
]


def _schema(cls: type[Msg], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """What ``robot-msgs schema TYPE`` prints for ``cls``."""
    assert main(["schema", cls.TYPE]) == 0
    schema: dict[str, Any] = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


@pytest.mark.parametrize(
    ("cls", "doc"), BAD, ids=lambda v: json.dumps(v) if isinstance(v, dict) else v.TYPE
)
def test_schema_refuses_what_the_decoder_refuses(
    cls: type[Msg], doc: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """Both roads say no to a document that breaks one field's declared rule."""
    name = next(iter(doc))
    with pytest.raises(ValidationError, match=rf"{name}|{cls.__name__}"):
        cls.from_dict(doc)
    with pytest.raises(jsonschema.ValidationError, match=r"."):
        jsonschema.validate(doc, _schema(cls, capsys))


@pytest.mark.parametrize(
    ("cls", "doc"), GOOD, ids=lambda v: json.dumps(v) if isinstance(v, dict) else v.TYPE
)
def test_schema_takes_what_the_decoder_takes(
    cls: type[Msg], doc: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """A good document, and the decoder's own JSON of it, pass the schema."""
    decoded = cls.from_dict(doc)
    schema = _schema(cls, capsys)
    jsonschema.validate(doc, schema)
    jsonschema.validate(json.loads(json.dumps(decoded.to_dict())), schema)


def test_schema_carries_choices_bounds_and_descriptions(capsys: pytest.CaptureFixture[str]) -> None:
    """``align`` is its eight methods (not any string), ``max_diff_s`` >= 0, each described."""
    props = _schema(EvaluationSettings, capsys)["$defs"]["EvaluationSettings"]["properties"]
    assert set(props["align"]["enum"]) == {
        "none", "se3", "sim3", "scale", "posyaw", "translation", "origin", "origin_scale"
    }  # fmt: skip
    assert "evo --align_origin -s" in props["align"]["description"]
    assert props["max_diff_s"]["minimum"] == 0
    assert props["confidence"]["exclusiveMaximum"] == 1
    assert all("description" in str(p) for p in props.values() if p != props["_type"])


def test_rules_between_fields_are_the_decoders_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """``n_align`` without an alignment: each field is fine, the pair is not."""
    doc = {"align": "none", "n_align": 10}
    jsonschema.validate(doc, _schema(EvaluationSettings, capsys))
    with pytest.raises(ValidationError, match=r"n_align"):
        EvaluationSettings.from_dict(doc)
