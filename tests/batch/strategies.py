"""Hypothesis strategies for the batch's stored values: a RunResult and a RunRecord.

Texts hold lone surrogates (JSON may escape them, ``json.loads`` reads them) where a
field is plain text; a report is a message drawn with edge values in its fields
(:func:`tests.msg.strategies.messages`: NaN, ±inf, -0.0, unicode); times are what
:func:`~robot_msgs.batch.tasks.run_task` measures; every status with what goes with it.
"""

from __future__ import annotations

from hypothesis import strategies as st

from robot_msgs.batch.inputs import MISSING
from robot_msgs.batch.store import RunRecord
from robot_msgs.batch.tasks import STATUSES, RunResult
from robot_msgs.compare import RunReport
from tests.msg.strategies import messages

__all__ = ["JSON_VALUES", "RUN_KEYS", "SECONDS", "TEXT", "records", "results"]

TEXT = st.text(st.characters(exclude_categories=()), max_size=6)
#: What run_task measures: a finite number of seconds >= 0 (0.0: not measured), -0.0 too.
SECONDS = st.sampled_from([0.0, -0.0]) | st.floats(min_value=0, allow_infinity=False)
#: A run key as the store names its file: 64 hex digits.
RUN_KEYS = st.text("0123456789abcdef", min_size=64, max_size=64)
#: Any JSON value, as a hand edit may leave in a stored form (NaN and the infinities too).
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
_INTS = st.integers(0, 2**63 - 1)
#: An input's stamp in its JSON form: a file's [size, mtime_ns], a folder's files, or none.
_STAMPS = (
    st.just(MISSING)
    | st.lists(_INTS, min_size=2, max_size=2)
    | st.lists(st.tuples(TEXT, _INTS, _INTS).map(list), max_size=3)
)


@st.composite
def results(draw: st.DrawFn) -> RunResult:
    """A RunResult of any status, its report (with ``ok``) a message with edge values."""
    status = draw(st.sampled_from(STATUSES))
    ok = status == "ok"
    report = draw(messages(RunReport)) if ok else None
    assert report is None or isinstance(report, RunReport)  # messages() draws the type given
    return RunResult(
        digest=draw(TEXT), name=draw(TEXT), algorithm=draw(TEXT), sequence=draw(TEXT),
        trial=draw(TEXT), status=status, report=report,
        error_type="" if ok else draw(TEXT), error="" if ok else draw(TEXT),
        notes=tuple(draw(st.lists(TEXT, max_size=3))), attempts=draw(_INTS),
        elapsed_s=draw(SECONDS), cpu_s=draw(SECONDS), worker=draw(TEXT),
    )  # fmt: skip


@st.composite
def records(draw: st.DrawFn) -> RunRecord:
    """A RunRecord as a worker stores it: a run's own result (never the infrastructure's)."""
    result = draw(results().filter(lambda r: not r.is_infrastructure))
    inputs = draw(st.dictionaries(TEXT, st.tuples(_STAMPS, st.just(MISSING) | TEXT), max_size=3))
    return RunRecord(
        key=draw(RUN_KEYS), session=draw(TEXT), hashed_at_ns=draw(_INTS), inputs=inputs,
        result=result,
    )  # fmt: skip
