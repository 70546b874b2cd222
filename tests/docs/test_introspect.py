import dataclasses
import inspect
import pathlib
import subprocess

import pytest

import robot_msgs
from robot_msgs.compare import (
    Aggregate,
    Comparison,
    ErrorStats,
    GroupSummary,
    Repeatability,
    RunReport,
    Signal,
)
from robot_msgs.docs import introspect
from robot_msgs.docs.introspect import (
    describe,
    describe_all,
    documented_types,
    example_json,
    field_descriptions,
    held_by,
    import_line,
    package_facts,
    used_by,
)
from robot_msgs.docs.rst import entries, sections
from robot_msgs.errors import UnknownTypeError
from robot_msgs.evaluation import EvaluationSettings, Rpe
from robot_msgs.geometry import (
    Point,
    PoseStamped,
    PoseWithCovariance,
    PoseWithCovarianceStamped,
)
from robot_msgs.msg import Msg, message
from robot_msgs.nav import Odometry, Path
from robot_msgs.std import Header, Time
from robot_msgs.trajectory import PoseTrajectory
from tests.conftest import SeedExample

# The seed page's fields table (shared/seeds/robot_msgs-ErrorStats.txt), typed out by hand.
SEED_FIELDS = [
    ("n", "int", "required"),
    ("rms", "float", "required"),
    ("mean", "float", "required"),
    ("median", "float", "required"),
    ("std", "float", "required"),
    ("min", "float", "required"),
    ("max", "float", "required"),
    ("max_abs", "float", "required"),
    ("p95_abs", "float", "required"),
    ("final", "float", "required"),
    ("iae", "float", "nan"),
    ("ise", "float", "nan"),
    ("itae", "float", "nan"),
]


def test_error_stats_summary_import_and_ros_match_the_seed() -> None:
    doc = describe(ErrorStats)
    assert doc.summary == (
        "Summary of one error signal over its finite samples, in the signal's own SI unit."
    )
    assert doc.body.startswith("`mean`, `median`, `min`, `max` and `final` keep the error's")
    prose = sections(doc.body)[""]  # the seed's text; the Attributes section follows it
    assert prose.endswith("were observed. They are NaN without a time axis.")  # notes left out
    assert doc.import_line == "from robot_msgs.compare import ErrorStats"
    assert doc.ros2 is None
    assert doc.type_name == "compare/ErrorStats"


def test_error_stats_fields_table_matches_the_seed() -> None:
    rows = [(f.name, f.type_label, f.default) for f in describe(ErrorStats).fields]
    assert rows == SEED_FIELDS


def test_error_stats_example_repr_and_json_match_the_seed_exactly(
    seed_error_stats: SeedExample,
) -> None:
    doc = describe(ErrorStats)
    assert doc.example_repr == seed_error_stats.repr
    # Issue 21: the seed printed NaN, which is not JSON; the page writes strict JSON.
    assert doc.example_json == seed_error_stats.json.replace(": NaN", ": null")


def test_error_stats_functions_have_the_seed_signatures_and_owner() -> None:
    doc = describe(ErrorStats)
    constructors = {m.name: m for m in doc.constructors}
    methods = {m.name: m for m in doc.methods}
    assert list(constructors) == ["from_dict"]
    assert list(methods) == ["as_dict", "replace", "to_dict"]
    assert constructors["from_dict"].signature == "from_dict(data: Mapping[str, Any]) -> M"
    assert methods["as_dict"].signature == "as_dict() -> dict[str, Any]"
    assert methods["replace"].signature == "replace(**changes: Any) -> M"
    assert methods["to_dict"].signature == "to_dict() -> dict[str, Any]"
    assert methods["replace"].doc == ("A copy with some fields changed. Validation runs again.")
    assert methods["to_dict"].doc == (
        'JSON-safe dict with a "_type" key; arrays keep their dtype and shape.'
    )
    assert {m.owner for m in doc.members} == {"Msg"}
    assert doc.properties == ()


def test_error_stats_is_used_by_aggregate_and_comparison() -> None:
    # Since i19 the statistics sit in a Signal, which Aggregate, Comparison and
    # GroupSummary hold; Repeatability still refers to ErrorStats directly.
    assert used_by(ErrorStats) == (Repeatability, Signal)
    assert held_by(ErrorStats) == (
        (Repeatability, (GroupSummary, RunReport)),
        (Signal, (Aggregate, Comparison, GroupSummary)),
    )
    assert describe(ErrorStats).held_by == held_by(ErrorStats)


def test_used_by_follows_tuples_and_nested_messages() -> None:
    assert Path in used_by(PoseStamped)  # poses: tuple[PoseStamped, ...]
    assert [t.__name__ for t in used_by(Time)] == [
        "Clock", "GoalInfo", "Header", "Log", "MapMetaData", "ParameterEvent", "TimeReference"
    ]  # fmt: skip
    assert used_by(PoseWithCovariance) == (Odometry, PoseWithCovarianceStamped)


def test_message_types_are_found_inside_any_container_annotation() -> None:
    annotation = tuple[Point, ...] | None
    assert introspect._message_types_in(annotation) == [Point]
    assert introspect._message_types_in(dict[str, PoseStamped]) == [PoseStamped]
    assert introspect._message_types_in(float) == []


def test_type_specific_constructors_and_own_methods_are_listed_without_from_msg() -> None:
    doc = describe(Time)
    constructors = {m.name: m for m in doc.constructors}
    assert constructors["from_ns"].signature == "from_ns(ns: int) -> Time"
    assert constructors["from_ns"].owner == "Time"
    assert constructors["from_ns"].doc.startswith(
        "Return the time ``ns`` nanoseconds after the epoch.\n\nRaises\n"
    )
    methods = {m.name: m for m in doc.methods}
    assert methods["to_ns"].signature == "to_ns() -> int"
    assert methods["to_ns"].owner == "Time"
    assert doc.ros2 == "builtin_interfaces/msg/Time"


def test_properties_are_listed_with_their_return_type() -> None:
    props = {m.name: m for m in describe(Aggregate).properties}
    assert list(props) == ["n_failed", "n_succeeded", "stats", "success_rate"]
    assert props["success_rate"].signature == "success_rate -> float"
    assert props["stats"].signature == "stats -> Mapping[str, ErrorStats]"
    assert props["n_failed"].doc == "Runs that ended without a usable result."


def test_missing_docstring_is_shown_as_such() -> None:
    def bare() -> None:
        pass

    assert introspect._own_doc(bare) == "No docstring."


def test_default_factory_shows_its_value() -> None:
    comparison = {f.name: f.default for f in describe(Comparison).fields}
    assert comparison["parameters"] == "{}"
    assert comparison["settings"] == "None"
    assert comparison["notes"] == "()"
    assert comparison["estimate"] == "''"
    covariance = {f.name: f.default for f in describe(PoseWithCovariance).fields}
    assert covariance["covariance"] == "(6, 6) float64, all 0.0"
    odometry = {f.name: f.default for f in describe(Odometry).fields}
    assert odometry["header"] == repr(Header())


def test_field_rows_name_the_message_types_they_refer_to() -> None:
    signals = next(f for f in describe(Aggregate).fields if f.name == "signals")
    assert signals.type_label == "tuple[Signal, ...]"
    assert signals.refers_to == (Signal,)
    stats = next(f for f in describe(Signal).fields if f.name == "stats")
    assert stats.type_label == "ErrorStats"
    assert stats.refers_to == (ErrorStats,)


def test_every_import_line_imports_that_very_class() -> None:
    for name, cls in documented_types().items():
        line = import_line(cls)
        namespace: dict[str, object] = {}
        exec(line, namespace)  # noqa: S102 - the line under test
        assert namespace[cls.__name__] is cls, name
        assert line.startswith(f"from robot_msgs.{name.split('/')[0]} import "), line


def test_example_json_shows_every_value_of_a_long_array() -> None:
    data = describe(PoseTrajectory).example_json
    # The catalog's trajectory has stamps 0.0, 0.1, ... 1.9: all 20 shown.
    stamps = ", ".join(str(k / 10) for k in range(20))
    assert f'"data": [{stamps}]' in data
    assert "…" not in data


def test_example_json_is_the_strict_json_the_package_writes() -> None:
    import json

    from robot_msgs.msg import encode_json

    for name, msg in robot_msgs.msg.catalog.examples().items():
        ours = json.loads(example_json(msg))
        assert json.dumps(ours) == json.dumps(json.loads(encode_json(msg))), name


def test_every_documented_type_is_described() -> None:
    docs = describe_all()
    assert [d.type_name for d in docs] == sorted(robot_msgs.msg.catalog.examples())
    assert all(d.summary for d in docs)


def test_a_type_without_catalog_example_raises_a_clear_error() -> None:
    @message("test/Undocumented")
    class Undocumented(Msg):
        x: float = 0.0

    with pytest.raises(
        UnknownTypeError, match=r"example in robot_msgs.msg.catalog.*test/Undocumented"
    ):
        describe(Undocumented)
    assert "test/Undocumented" not in documented_types()


def test_package_facts_give_version_license_and_git_commit() -> None:
    facts = package_facts()
    assert facts.version == robot_msgs.__version__
    assert facts.license == "MIT license"
    assert facts.homepage is None or facts.homepage.startswith("https://")
    try:
        git = ["git", "-C", str(robot_msgs.__path__[0]), "rev-parse", "--short=7", "HEAD"]
        head = subprocess.run(  # noqa: S603
            git,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not running from a git checkout")
    assert facts.commit.removesuffix("-dirty") == head


def test_commit_is_unknown_outside_a_checkout(tmp_path: pathlib.Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    assert introspect._git_commit(tmp_path) == "unknown"


def test_commit_is_unknown_without_git(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert introspect._git_commit(tmp_path) == "unknown"


def test_type_doc_is_immutable() -> None:
    doc = describe(ErrorStats)
    with pytest.raises(
        dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'summary'$"
    ):
        doc.summary = "x"  # type: ignore[misc]


def test_an_array_field_without_a_shape_is_noted_as_a_ros_sequence() -> None:
    # An assert wanted a Shape on every array field: an AssertionError, or under
    # `python -O` an AttributeError, for a user's message with an unshaped array.
    from typing import Annotated, Any

    import msgspec
    import numpy as np

    from robot_msgs.docs.ros_notes import ros2_differences

    @message("test/UnshapedArray", ros2="test_msgs/msg/UnshapedArray")
    class UnshapedArray(Msg):
        values: Annotated[np.ndarray[Any, np.dtype[np.float64]], msgspec.Meta(description="any")]

    sequence = (
        "``values``: ROS has a sequence ``float64[]``; here a read-only NumPy array of "
        "``float64`` (a list or an array is accepted)."
    )
    assert ros2_differences(UnshapedArray) == (sequence,)


def test_a_type_that_describes_its_fields_describes_each_one() -> None:
    """An entry without `` : `` was no entry: ParameterValue's page said of ``type``
    "A ParameterType constant (...). bool_value, integer_value (int64), double_value,
    string_value", and MultiEchoLaserScan's eight fields before ``ranges`` had none."""
    for name, cls in documented_types().items():
        described = field_descriptions(cls)
        if "Attributes" in sections(inspect.cleandoc(cls.__doc__ or "")):
            fields = [f.name for f in dataclasses.fields(cls)]
            assert sorted(described) == sorted(fields), name
    from robot_msgs.rcl import ParameterValue
    from robot_msgs.sensor import MultiEchoLaserScan

    described = field_descriptions(ParameterValue)
    assert (
        described["type"] == "uint8: A :class:`ParameterType` constant (``PARAMETER_DOUBLE``...)."
    )
    assert described["integer_value"] == "int64: The value where ``type`` is ``PARAMETER_INTEGER``."
    assert field_descriptions(MultiEchoLaserScan)["range_min"] == "float32, metres"


def test_an_attributes_section_holds_field_entries_only() -> None:
    """A type's page shows its Attributes section as the fields table alone (f6c107e):
    text there at the margin that is no entry went into the last field's cell, and
    MultiDOFJointState's "Each non-empty list holds one entry per joint name" read as
    said of ``wrench`` only. Every line at the margin is an entry."""
    stray = []
    for name, cls in documented_types().items():
        section = sections(inspect.cleandoc(cls.__doc__ or "")).get("Attributes", "")
        at_margin = [line for line in section.split("\n") if line[:1].strip()]
        if len(at_margin) != len(entries(section)):
            stray.append(name)
    assert stray == []


def test_a_field_without_a_docstring_entry_shows_its_declared_description() -> None:
    """The settings declare each field's description on the field (``Meta``, also its
    ``--help``), and the pages showed "—" for all 20 fields of EvaluationSettings, the
    six of PairSettings and the five of Drift. A docstring entry still comes first."""
    settings = field_descriptions(EvaluationSettings)
    assert settings["max_diff_s"] == "largest stamp difference of a matched pair, seconds"
    assert settings["n_align"] == "fit the alignment on the first N matched poses (default: all)"
    assert sorted(settings) == sorted(f.name for f in dataclasses.fields(EvaluationSettings))
    assert field_descriptions(Rpe)["relation"].startswith("each pair (i, j)'s error E")
    assert field_descriptions(Rpe)["pairs"].startswith("tuple of PairSettings: One per delta")
    assert field_descriptions(ErrorStats)["iae"].startswith("float, the signal's unit × s: ")


def test_no_field_is_described_in_running_text_only() -> None:
    """The reference pages listed 307 fields without a description (a review), 95 of them
    described in their type's docstring as running text the pages do not read
    (``data``: float64, the topic's unit; "Attributes: ``temperature`` float, °C").
    Those texts are each field's Attributes entry; what remains undescribed (184, the
    ``compare/`` results' fields most) the package says nothing of field by field."""
    import re

    from robot_msgs.sensor import RegionOfInterest, Temperature
    from robot_msgs.std import Float64

    inline = []
    for name, cls in documented_types().items():
        doc = inspect.cleandoc(cls.__doc__ or "")
        described = field_descriptions(cls)
        for f in dataclasses.fields(cls):
            # "``name``:" (or "``a``, ``b`` and ``c``:") where a sentence or a line starts
            inline_entry = rf"(?:^|[.;] )``{f.name}``(, ``\w+``)*( and ``\w+``)?: "
            said = re.search(inline_entry, doc, re.MULTILINE)
            if f.name not in described and (said or "Attributes: " in doc):
                inline.append((name, f.name))
    assert inline == []
    assert field_descriptions(Float64)["data"] == "float64, the topic's unit"
    assert field_descriptions(Temperature)["temperature"] == "float, °C"
    assert (
        field_descriptions(RegionOfInterest)["width"]
        == "uint32, pixels: All four 0: the full image."
    )


def test_a_result_whose_docstring_says_what_each_field_is_describes_each_one() -> None:
    """Alignment, ErrorSeries, Signal, TimeOffset and TrackingLoss said what each field
    is ("``offset_s`` is added to the estimate's stamps ...") in running text, and their
    pages listed all 28 fields without a description (a review)."""
    from robot_msgs.compare import Alignment, ErrorSeries, Signal, TimeOffset, TrackingLoss

    for cls in (Alignment, ErrorSeries, Signal, TimeOffset, TrackingLoss):
        described = field_descriptions(cls)
        assert sorted(described) == sorted(f.name for f in dataclasses.fields(cls)), cls
    assert field_descriptions(TimeOffset)["std_s"].startswith("float, seconds: Its standard")


def test_every_field_is_described() -> None:
    """184 of 663 fields had no description on their pages (a review): 172 of the
    ``compare/`` results (RunReport, Latency, SpatialMatch, Ranking, ErrorStats...) and
    12 of ROS types whose docstrings said nothing per field (DiagnosticArray, Parameter,
    MarkerArray...); then 25 of Diagnosis, Finding and Extrinsic, described in running
    text the pages do not read."""
    undescribed = {
        (name, f.name)
        for name, cls in documented_types().items()
        for f in dataclasses.fields(cls)
        if f.name not in field_descriptions(cls)
    }
    assert undescribed == set()


def test_error_stats_field_descriptions_say_what_the_seed_page_says() -> None:
    """The seed page: mean, median, min, max and final keep the error's sign; rms,
    max_abs and p95_abs are of its magnitude; missing data is NaN with ``n == 0``; the
    integrals are in unit × s, unit² × s and unit × s², NaN without a time axis."""
    described = field_descriptions(ErrorStats)
    for name in ("mean", "median", "min", "max", "final"):
        assert "keeping the error's sign" in described[name], name
    for name in ("rms", "max_abs", "p95_abs"):
        assert "magnitude" in described[name], name
    assert "0: no data, and every other field is then NaN" in described["n"]
    units = {"iae": "unit × s", "ise": "unit² × s", "itae": "unit × s²"}
    for name, unit in units.items():
        assert described[name].startswith(f"float, the signal's {unit}: "), name
    # NaN also with a time axis where no interval has both ends observed (a review):
    # error_stats([2.0], t=[0.0]).iae is NaN.
    assert described["iae"].endswith(
        "NaN without a time axis or without such an interval (one sample, every other one missing)."
    )
    assert all(described[n].endswith("NaN as for ``iae``.") for n in ("ise", "itae"))


def test_the_std_sensor_and_ros_interface_fields_say_more_than_their_type() -> None:
    """c715b5d moved running text into Attributes entries and gave the rest entries of a
    type alone: ``data : bool``, ``header : Header``, ``goal_id : UUID``, which the
    pages showed as the field's description, saying nothing the type column did not
    (a review). Each field of these modules' types now has a text, or a unit with its
    type (``float32, metres``)."""
    modules = ("std", "action", "diagnostic", "rcl", "visualization", "sensor", "runs")
    bare = [
        (name, names)
        for name, cls in documented_types().items()
        if name.split("/")[0] in modules
        for names, kind, text in entries(
            sections(inspect.cleandoc(cls.__doc__ or "")).get("Attributes", "")
        )
        if not text and "," not in kind
    ]
    assert bare == []


def test_field_descriptions_say_what_the_code_fills() -> None:
    """Attributes entries checked against the code that fills each field (a review):
    Extrinsic's covariance was called a standard uncertainty, RPE was said to take every
    APE relation, GroupSummary's accuracy was said to be translation RMSEs in metres."""
    from robot_msgs.compare import Extrinsic, GroupSummary
    from robot_msgs.evaluation.relations import APE_RELATIONS, RPE_RELATIONS
    from robot_msgs.runs.run_settings import MetricSpec

    assert field_descriptions(Extrinsic)["covariance_6x6"].startswith(
        "ndarray, shape (6, 6), m², m·rad, rad²: The covariance of "
    )
    assert not set(APE_RELATIONS) <= set(RPE_RELATIONS)
    assert "RPE_RELATIONS" in field_descriptions(MetricSpec)["relation"]
    assert "in metres" not in field_descriptions(GroupSummary)["accuracy"]
