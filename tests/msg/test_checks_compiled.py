"""The compiled fast tests of message checks (``robot_msgs/msg/_checks.c``) answer as the
NumPy and Python-float roads do: each property builds or tests the same values with the
compiled module and with it hidden, and compares what comes out (a message, or the
error's words)."""

from __future__ import annotations

import operator
from typing import Annotated, Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import force_setattr

import robot_msgs.compare.alignment as alignment_module
import robot_msgs.compare.extrinsic as extrinsic_module
import robot_msgs.compare.spatial_match as spatial_module
import robot_msgs.msg.check as check_module
import robot_msgs.trajectory.pose as pose_module
from robot_msgs.errors import ValidationError
from robot_msgs.msg import Msg, Shape, field_schema, message
from robot_msgs.msg.arrays import immutable
from robot_msgs.msg.fields import FrozenMap
from robot_msgs.trajectory import PoseTrajectory
from robot_msgs.typing import Float64Array

COMPILED = check_module.COMPILED
pytestmark = pytest.mark.skipif(
    COMPILED is None, reason="built without a C compiler: NumPy and Python floats decide"
)

#: Values a check must tell apart: non-finite, signed zero, subnormal, the position
#: limit and just past it, float64's largest.
_EDGES = [np.nan, np.inf, -np.inf, -0.0, 5e-324, 1e150, -1e150, 1.0000000000000002e150, 1e308]


def _outcome(module: Any, make: Any) -> Any:
    """What ``make()`` gives with the compiled module, then with it hidden from ``module``."""
    found = []
    for compiled in (COMPILED, None):
        saved = module.COMPILED
        module.COMPILED = compiled
        try:
            found.append(make())
        except ValidationError as error:
            found.append(("refused", str(error)))
        finally:
            module.COMPILED = saved
    return found


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(0, 9),
    seed=st.integers(0, 2**32 - 1),
    edges=st.lists(st.tuples(st.sampled_from(_EDGES), st.integers(0, 7 * 9)), max_size=2),
    norm_offset=st.sampled_from([0.0, 1e-7, 9.99999e-7, 1e-6, 1.000001e-6, 2e-6, -1e-6, -2e-6]),
    shuffle=st.booleans(),
    repeat=st.booleans(),
)
def test_a_trajectory_is_refused_or_kept_alike_with_and_without_the_compiled_filter(
    n: int,
    seed: int,
    edges: list[tuple[float, int]],
    norm_offset: float,
    shuffle: bool,
    repeat: bool,
) -> None:
    """``pose_rows_ok`` lets through only rows NumPy keeps; NumPy's words on the rest.

    Edge values land on any stamp, coordinate or quaternion component; one quaternion's
    norm is put at, inside and past the tolerance (1e-6); a stamp repeats, or stamps go
    back when shuffled.
    """
    rng = np.random.default_rng(seed)
    stamps = np.cumsum(rng.uniform(0.0, 2.0, n))  # a zero step repeats a stamp
    if shuffle:
        rng.shuffle(stamps)
    if repeat and n > 1:
        stamps[n // 2] = stamps[n // 2 - 1]
    xyz = rng.normal(0.0, 10.0, (n, 3))
    quats = rng.normal(size=(n, 4))
    quats /= np.linalg.norm(quats, axis=1)[:, None]
    if n:
        quats[rng.integers(n)] *= 1.0 + norm_offset
    cells = np.concatenate([stamps, xyz.ravel(), quats.ravel()])
    for value, at in edges:
        if at < cells.size:
            cells[at] = value
    stamps, xyz, quats = cells[:n], cells[n : 4 * n], cells[4 * n :]

    def make() -> PoseTrajectory:
        return PoseTrajectory(
            stamps_s=stamps,
            positions_xyz=xyz.reshape(n, 3),
            orientations_quat_xyzw=quats.reshape(n, 4),
        )

    fast, slow = _outcome(pose_module, make)
    assert fast == slow


def test_the_filter_lets_valid_rows_through_and_reads_only_what_it_can() -> None:
    """Valid rows pass in C; arrays it cannot read (a view, float32, wrong sizes) are None."""
    assert COMPILED is not None
    t, p, q = np.arange(3.0), np.zeros((3, 3)), np.tile([0.0, 0.0, 0.0, 1.0], (3, 1))
    limit, tol = pose_module.POSITION_LIMIT_M, pose_module.UNIT_QUATERNION_TOL
    assert COMPILED.pose_rows_ok(t, p, q, limit, tol) is True
    assert COMPILED.pose_rows_ok(t[:0], p[:0], q[:0], limit, tol) is True
    assert COMPILED.pose_rows_ok(t[::-1], p, q, limit, tol) is None  # not contiguous
    assert COMPILED.pose_rows_ok(t, p.astype(np.float32), q, limit, tol) is None
    assert COMPILED.pose_rows_ok(t, p[:2], q, limit, tol) is None
    assert COMPILED.pose_rows_ok(t, p, np.zeros((3, 3)), limit, tol) is None
    assert COMPILED.pose_rows_ok(t.astype(np.int64), p, q, limit, tol) is None  # 8 bytes, 'q'
    assert COMPILED.pose_rows_ok([0.0], [[0.0] * 3], [[0.0] * 4], limit, tol) is None


_NEAR = st.sampled_from([0.0, 1e-9, 1e-7, 5e-7, 9.9e-7, 1e-6, 3e-6, 1e-3])


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    scale=_NEAR,
    edge=st.none() | st.tuples(st.sampled_from([*_EDGES, 1e200, -1e200]), st.integers(0, 8)),
    flip=st.booleans(),
)
def test_the_compiled_rotation_test_answers_as_python_floats(
    seed: int, scale: float, edge: tuple[float, int] | None, flip: bool
) -> None:
    """``rotation_ok`` is ``is_rotation_matrix``'s Python-float test, near its tolerance too."""
    rng = np.random.default_rng(seed)
    r, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    r *= np.sign(np.linalg.det(r)) * (-1.0 if flip else 1.0)
    r = r + rng.normal(0.0, scale, (3, 3))
    if edge is not None:
        r.ravel()[edge[1]] = edge[0]
    fast, slow = _outcome(alignment_module, lambda: alignment_module.is_rotation_matrix(r))
    assert fast == slow
    assert COMPILED is not None
    assert COMPILED.rotation_ok(r, alignment_module.ROTATION_TOL) == slow


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    # ±r on either side: |x - y| = 2r|c| against 1e-5 |y| = 1e-5 (1 -+ r)|c| near r = 5e-6
    relative=st.sampled_from([0.0, 1e-9, 4.8e-6, 4.99999e-6, 5e-6, 5.00001e-6, 5.2e-6, 1e-5, 1e-3]),
    edges=st.lists(st.tuples(st.sampled_from([*_EDGES, -1e308]), st.integers(0, 35)), max_size=3),
    size=st.sampled_from([1e-12, 1.0, 1e300]),
)
def test_the_compiled_covariance_test_answers_as_numpy(
    seed: int, relative: float, edges: list[tuple[float, int]], size: float
) -> None:
    """Extrinsic's covariance test (finite or NaN, symmetric within allclose's tolerances)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0.0, size, (6, 6))
    cov = a @ a.T if size < 1e100 else (a + a.T)
    cov = cov * (1.0 + relative * rng.choice([-1.0, 1.0], (6, 6)))
    for value, at in edges:
        cov.ravel()[at] = value
    fast, slow = _outcome(extrinsic_module, lambda: extrinsic_module._nan_symmetric(cov))
    assert fast == slow


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(
        st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True), max_size=12
    ),
    view=st.booleans(),
)
def test_all_finite_is_numpys_answer(values: list[float], view: bool) -> None:
    """In C for a contiguous float64 array, by NumPy for a strided view: the same answer."""
    array = np.array(values, dtype=np.float64)
    if view:
        array = array[::2]
    assert check_module.all_finite(array) is bool(np.isfinite(array).all())
    assert COMPILED is not None
    assert COMPILED.all_finite(array) is (
        None if view and array.size > 1 else bool(np.isfinite(array).all())
    )


def test_a_zero_dimensional_array_field_is_built_by_both_checks() -> None:
    """``Shape()`` made the generated check ``v.shape == (,)``: a SyntaxError at the first
    construction of such a type (a review)."""

    @message("test/ZeroDimensional")
    class ZeroDimensional(Msg):
        value: Annotated[Float64Array, Shape()]

    for compiled in (COMPILED, None):
        saved, check_module.COMPILED = check_module.COMPILED, compiled
        try:
            check = check_module.compile_check(
                ZeroDimensional, field_schema(ZeroDimensional), validate=False
            )
        finally:
            check_module.COMPILED = saved
        built = ZeroDimensional(value=np.array(1.5))
        check(built)
        assert built.value.shape == ()
        assert float(built.value) == 1.5
        assert not built.value.flags.writeable


def test_the_rotation_test_reads_a_3x3_array_only() -> None:
    """Nine values of another shape were a rotation in C and an error in Python (a review):
    the compiled test reads a (3, 3) array alone; other shapes take the Python road."""
    assert COMPILED is not None
    for shape in [(9,), (1, 9), (3, 3, 1)]:
        assert COMPILED.rotation_ok(np.eye(3).reshape(shape), 1e-6) is None
    assert COMPILED.symmetric_ok(np.eye(6)[:, :, None], 6) is None
    assert COMPILED.rotation_ok(np.eye(3), 1e-6) is True


class _Sub(np.ndarray):
    """An ndarray subclass: never an exact ndarray."""


def _arrays() -> list[np.ndarray[Any, Any]]:
    """Arrays of every ownership: writable, read-only owners and views, over bytes."""
    owner = np.arange(6.0).reshape(2, 3)
    read_only = owner.copy()
    read_only.setflags(write=False)
    view_of_writable = owner[:, :2]
    view_of_writable.setflags(write=False)
    over_bytes = np.frombuffer(b"\x00" * 48, dtype=np.float64).reshape(2, 3)
    over_view = np.frombuffer(memoryview(b"\x00" * 48), dtype=np.float64)
    over_bytearray = np.frombuffer(bytearray(48), dtype=np.float64)
    over_bytearray.setflags(write=False)
    return [
        owner,
        read_only,
        read_only[::-1],
        view_of_writable,
        over_bytes,
        over_view,
        over_bytearray,
        np.asfortranarray(owner),
        np.array(1.5),
        np.zeros((0, 3)),
    ]


def test_frozen_keeps_what_no_one_can_write_and_copies_the_rest_read_only() -> None:
    """``frozen`` is ``immutable`` then ``_frozen``, the generated check's Python road."""
    assert COMPILED is not None
    for array in _arrays():
        out = COMPILED.frozen(array)
        assert (out is array) is immutable(array)
        if out is not array:
            expected = check_module._frozen(array)
            assert out.dtype == expected.dtype
            assert out.shape == expected.shape
            assert out.flags.c_contiguous
            assert not out.flags.writeable
            np.testing.assert_array_equal(out, expected)


def test_frozen_as_takes_an_exact_ndarray_of_its_dtype_and_shape_only() -> None:
    assert COMPILED is not None
    f64, i64 = np.dtype(np.float64), np.dtype(np.int64)
    a = np.zeros((2, 3))
    assert COMPILED.frozen_as(a, f64, (2, 3)) is not None
    assert COMPILED.frozen_as(a, f64, (-1, 3)) is not None
    assert COMPILED.frozen_as(a, f64, (-1, -1)) is not None
    for wrong in [(3, 3), (-1, 2), (6,), (2, 3, 1), ()]:
        assert COMPILED.frozen_as(a, f64, wrong) is None, wrong
    assert COMPILED.frozen_as(a, i64, (2, 3)) is None
    assert COMPILED.frozen_as(a.view(_Sub), f64, (2, 3)) is None
    assert COMPILED.frozen_as([[0.0] * 3] * 2, f64, (2, 3)) is None
    with pytest.raises(TypeError, match="frozen_as"):
        COMPILED.frozen_as(a, f64, [2, 3])  # type: ignore[arg-type]  # refused at run time


_FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)


@settings(max_examples=300, deadline=None)
@given(
    floats=st.lists(_FLOATS | st.sampled_from([0.0, -0.0, 1.0]), max_size=8),
    ints=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=8),
    sort=st.booleans(),
)
def test_increasing_and_at_least_answer_as_python(
    floats: list[float], ints: list[int], sort: bool
) -> None:
    """SpatialMatch's tests of its rows and distances, in C and on Python lists."""
    assert COMPILED is not None
    if sort:
        ints = sorted(ints)
        floats = sorted(floats, key=lambda x: (x != x, x))  # noqa: PLR0124 - NaN last
    for values in (np.array(floats, dtype=np.float64), np.array(ints, dtype=np.int64)):
        items = values.tolist()
        assert COMPILED.increasing(values) is all(map(operator.lt, items, items[1:]))
    values = np.array(floats, dtype=np.float64)
    assert COMPILED.at_least(values, 0.0) is all(x >= 0.0 for x in floats)
    assert spatial_module._at_least_zero(values) is all(x >= 0.0 for x in floats)
    assert COMPILED.increasing(np.arange(3, dtype=np.int32)) is None  # 4-byte items
    assert COMPILED.at_least(np.array(ints, dtype=np.int64), 0.0) is None


_SCALARS = st.one_of(
    _FLOATS,
    st.integers(),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.tuples(_FLOATS),
    st.sampled_from(["nan", "inf", "-Infinity"]),
)


@settings(max_examples=300, deadline=None)
@given(mapping=st.dictionaries(st.text(max_size=3), _SCALARS, max_size=4))
def test_plain_scalars_says_true_only_of_what_the_item_test_keeps(
    mapping: dict[str, Any],
) -> None:
    """True: keys ASCII text, values float, int (of 64 bits), bool or None; the generated
    test keeps those too (and decides all else: a longer int, up to 4300 digits)."""
    assert COMPILED is not None
    plain = COMPILED.plain_scalars(mapping)
    numbers = all(
        type(v) in {float, bool, type(None)} or (type(v) is int and -(2**63) <= v < 2**63)
        for v in mapping.values()
    )
    assert plain is (numbers and all(k.isascii() for k in mapping))
    if plain:
        assert all(check_module._value_ok(v) for v in mapping.values())
    assert COMPILED.plain_scalars(FrozenMap(mapping)) is False  # a dict only


def test_a_size_named_twice_in_one_shape_is_held_equal_by_both_checks() -> None:
    """``Shape("K", "K")`` (RunReport's pairwise matrix): the compiled test was given
    ``(-1, -1)`` and took a (2, 3) array that the Python check refuses (a review)."""

    @message("test/Square")
    class Square(Msg):
        values: Annotated[Float64Array, Shape("K", "K")]

    assert Square(values=np.zeros((2, 2))).values.shape == (2, 2)
    with pytest.raises(ValidationError, match=r"K=2"):
        Square(values=np.zeros((2, 3)))


@pytest.mark.parametrize("compiled", [True, False])
def test_an_optional_array_that_names_a_size_first_may_be_left_out(compiled: bool) -> None:
    """The generated check bound ``N`` to the optional array's ``shape[0]`` and a later
    field read it from ``None``: an AttributeError escaped the construction (a review)."""

    @message(f"test/OptionalFirst{int(compiled)}")
    class OptionalFirst(Msg):
        weights: Annotated[Float64Array, Shape("N")] | None = None
        values: Annotated[Float64Array, Shape("N")] = np.zeros(0)

    saved, check_module.COMPILED = check_module.COMPILED, COMPILED if compiled else None
    try:
        check = check_module.compile_check(
            OptionalFirst, field_schema(OptionalFirst), validate=False
        )
    finally:
        check_module.COMPILED = saved
    for fields in ({}, {"values": np.ones(3)}, {"weights": np.ones(3), "values": np.ones(3)}):
        built = OptionalFirst(**fields)
        check(built)
        assert built.values.shape == fields.get("values", np.zeros(0)).shape
    # Two read-only arrays whose sizes differ, set past the type's own check: this check
    # must still hold N (a fast road that dropped the optional's N would take them).
    two = np.ones(2)
    two.setflags(write=False)
    force_setattr(cast("Any", built), "weights", two)
    with pytest.raises(ValidationError, match=r"N=2 \(from `OptionalFirst.weights`\)"):
        check(built)
