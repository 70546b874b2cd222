r"""Trajectories from TF: the pose of one frame in another, chained through the TF tree.

A TF id is spelled as evo spells it, ``/tf:parent.child`` or
``/tf:parent.child:/static_topic`` (default static topic ``/tf_static``). The chain from
``parent`` to ``child`` goes up to their lowest common ancestor and down again, through
dynamic (``/tf``) and static (``/tf_static``) transforms:

.. math::

    T_{pc}(t) = T_{ap}(t)^{-1} \, T_{ac}(t), \qquad
    T_{ax} = T_{a f_1} T_{f_1 f_2} \cdots T_{f_k x}

with ``a`` the common ancestor.

Rule for the stamps (evo instead looks the chain up through ``tf2`` at a fixed 10 Hz
from the first TF message): the output holds one pose per message of the chain's
busiest dynamic transform, within the time every dynamic transform of the chain
covers; each other dynamic transform is interpolated there as ``tf2`` does (linear
translation, SLERP rotation, never extrapolated). With a single dynamic transform
(the usual ``odom -> base_link``) the poses are that transform's messages, exactly.
The header stamps are kept exactly, in ``stamps_ns``.
A chain of static transforms only gives one pose, at the latest static stamp.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.documents import _short
from robot_msgs.errors import FormatError, TopicError, did_you_mean
from robot_msgs.io.clean import finish_trajectory, report
from robot_msgs.report.text import listed
from robot_msgs.rotations import (
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    quat_xyzw_rotate,
    quat_xyzw_slerp,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.typing import Float64Array

__all__ = [
    "DEFINITION_DIFFERS",
    "TF_TYPE",
    "float_rows",
    "is_tf_id",
    "parse_tf_id",
    "read_tf",
    "tf_transforms",
    "transforms_text",
]

#: The message type of TF topics.
TF_TYPE = "tf2_msgs/msg/TFMessage"

_TF_ID = re.compile(
    r"(?P<topic>/?[A-Za-z][\w/]*):(?P<parent>[^.:]+)\.(?P<child>[^:]+)(?::(?P<static>/?[A-Za-z][\w/]*))?"
)


def is_tf_id(topic: str) -> bool:
    """Whether ``topic`` names a TF chain (``/tf:parent.child``) rather than a topic.

    Examples
    --------
    >>> is_tf_id("/tf:map.base_link"), is_tf_id("/odom")
    (True, False)
    """
    return ":" in topic


def parse_tf_id(topic: str) -> tuple[str, str, str, str]:
    """Split a TF id into ``(tf_topic, parent, child, static_topic)``.

    Leading slashes of frame names are dropped, as ``tf2`` does.

    Examples
    --------
    >>> parse_tf_id("/tf:map.base_link")
    ('/tf', 'map', 'base_link', '/tf_static')
    >>> parse_tf_id("tf:/odom.base_footprint:/my_static")
    ('tf', 'odom', 'base_footprint', '/my_static')
    """
    match = _TF_ID.fullmatch(topic)
    if match is None:
        msg = (
            f"{topic!r} is not a TF id; expected /tf:parent.child or "
            "/tf:parent.child:/tf_static (frame names without dots before the child)"
        )
        raise FormatError(msg)
    parent = match["parent"].lstrip("/")
    child = match["child"].lstrip("/")
    return match["topic"], parent, child, match["static"] or "/tf_static"


@dataclass
class _Edge:
    """The transforms ``parent -> child`` seen on one topic (as lists while reading)."""

    parent: str
    child: str
    static: bool
    rows: list[tuple[float, ...]] = field(default_factory=list)
    stamps_ns: list[int] = field(default_factory=list)  # each row's stamp, exactly


def _collect(reader: Any, topics: list[str], source: str) -> dict[str, _Edge]:
    """Every transform on ``topics``, grouped by child frame; ``source`` names the bag."""
    edges: dict[str, _Edge] = {}
    conns = [c for c in reader.connections if c.topic in topics and c.msgtype == TF_TYPE]
    static_topic = topics[-1] if len(topics) > 1 else None
    for conn, _, raw in reader.messages(connections=conns):
        message = reader.deserialize(raw, conn.msgtype)
        for tf in message.transforms:
            parent = tf.header.frame_id.lstrip("/")
            child = tf.child_frame_id.lstrip("/")
            static = conn.topic == static_topic
            edge = edges.get(child)
            if edge is None or (edge.static and not static):
                edge = edges[child] = _Edge(parent, child, static)
            elif edge.parent != parent:
                msg = (
                    f"{source}: frame {child!r} has two parents, {edge.parent!r} and "
                    f"{parent!r} (on {conn.topic}); a TF tree gives each frame one parent"
                )
                raise FormatError(msg)
            elif static and not edge.static:
                continue
            t, p, q = tf.header.stamp, tf.transform.translation, tf.transform.rotation
            row = (t.sec + t.nanosec * 1e-9, p.x, p.y, p.z, q.x, q.y, q.z, q.w)
            ns = t.sec * 1_000_000_000 + t.nanosec
            if static:
                edge.rows[:], edge.stamps_ns[:] = [row], [ns]
            else:
                edge.rows.append(row)
                edge.stamps_ns.append(ns)
    return edges


#: The most transforms an error message lists.
_SHOWN = 12


def tf_transforms(reader: Any, topic: str, *, source: str) -> list[str]:
    """List the transforms on TF ``topic`` and ``/tf_static`` as ``parent->child``.

    What to choose from when a TF id is to be written (``/tf:parent.child``): the
    dynamic ones first, then the static ones, marked ``(static)``. ``reader`` is an
    open ``rosbags`` reader; ``source`` names the bag in errors.
    """
    topics = {c.topic for c in reader.connections if c.msgtype == TF_TYPE}
    both = [topic, "/tf_static"] if "/tf_static" in topics and topic != "/tf_static" else [topic]
    return _pairs(_collect(reader, both, source))


def _pairs(edges: dict[str, _Edge]) -> list[str]:
    ordered = sorted(edges.values(), key=lambda e: (e.static, e.parent, e.child))  # dynamic first
    return [f"{e.parent}->{e.child}" + " (static)" * e.static for e in ordered]


def transforms_text(pairs: list[str]) -> str:
    """Say ``pairs`` in a message: ``transforms: a->b, c->d``, at most twelve named.

    Examples
    --------
    >>> transforms_text(["odom->base_link", "base_link->cam (static)"])
    'transforms: odom->base_link, base_link->cam (static)'
    """
    return f"transforms: {listed(pairs, _SHOWN) or 'none'}"


def _ancestors(frame: str, edges: dict[str, _Edge], source: str) -> list[str]:
    chain = [frame]
    while chain[-1] in edges:
        chain.append(edges[chain[-1]].parent)
        if len(chain) > len(edges) + 1:
            msg = f"{source}: the TF tree has a loop through {frame!r}"
            raise FormatError(msg)
    return chain


def _compose(
    a: tuple[Float64Array, Float64Array], b: tuple[Float64Array, Float64Array]
) -> tuple[Float64Array, Float64Array]:
    """``T_a T_b`` for stacks of (positions ``(N, 3)``, quaternions ``(N, 4)``)."""
    return a[0] + quat_xyzw_rotate(a[1], b[0]), quat_xyzw_multiply(a[1], b[1])


def _sample(traj: PoseTrajectory, stamps: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Poses of ``traj`` at ``stamps`` inside its span: linear position, SLERP rotation."""
    s = traj.stamps_s
    if s.shape[0] == 1:
        return np.repeat(traj.positions_xyz, stamps.shape[0], 0), np.repeat(
            traj.orientations_quat_xyzw, stamps.shape[0], 0
        )
    i = np.clip(np.searchsorted(s, stamps, side="right") - 1, 0, s.shape[0] - 2)
    frac = np.clip((stamps - s[i]) / (s[i + 1] - s[i]), 0.0, 1.0)
    p, q = traj.positions_xyz, traj.orientations_quat_xyzw
    pos = p[i] + frac[:, None] * (p[i + 1] - p[i])
    return pos, quat_xyzw_slerp(q[i], q[i + 1], frac)


#: The fields of a transform's row (:func:`_collect`), as a TFMessage's transforms name them.
_TF_FIELDS = (
    "header.stamp",
    *(f"transform.translation.{c}" for c in "xyz"),
    *(f"transform.rotation.{c}" for c in "xyzw"),
)

#: Why a bag's messages do not hold the numbers of the ROS type they name.
DEFINITION_DIFFERS = "the bag's message definition differs from ROS's"


def float_rows(
    rows: list[Any],
    source: str,
    kind: str,
    *,
    what: str = "",
    fields: tuple[str, ...] = (),
    integers: tuple[str, ...] = (),
) -> Float64Array:
    """Stack the numbers read from a bag's messages as an ``(N, C)`` float64 array.

    ``kind`` names a row in messages (``message``, ``pose``, ``transform``), ``what``
    the field they were read from (``pose.covariance``), when not the whole row;
    ``fields`` names the columns of a row (``header.stamp``, ``pose.position.x``, ...),
    of which those in ``integers`` are integers in ROS's definition (NavSatFix's
    ``status.status``) and all others floats.

    WHY: a bag carries its own message definitions, and rosbags decodes a field by the
    bag's, not ROS's: a ``string x`` or a ``float64[] x`` in a ``Point``, or a covariance
    of 35 values or of a varying length, gave NumPy's ValueError (``could not convert
    string to float``, ``inhomogeneous shape``) out of the reader; a ``string w`` holding
    ``"1"`` or a ``bool x`` was read as the number 1, as NumPy converts them. A field
    that is not a float where ROS's definition has one is refused here, naming the
    first message and the field; so are rows of differing lengths.

    Raises
    ------
    FormatError
        A field holds text, a bool, an integer or an array where ROS's definition has a
        float, or rows differ in length.
    """
    if what:
        _check_arrays(rows, source, kind, what)
    elif fields:
        _check_columns(rows, source, kind, fields, integers)
    try:
        values: Float64Array = np.array(rows, dtype=np.float64)
    except (ValueError, TypeError) as err:
        first = next((k for k, row in enumerate(rows) if not _numbers(row)), None)
        if first is None:  # the rows differ in length: the first one that differs
            first = next((k for k, r in enumerate(rows) if np.shape(r) != np.shape(rows[0])), 0)
            got = f"{np.size(rows[first])} values where {kind} 1 has {np.size(rows[0])}"
        else:
            why = "a field holds an array" if "sequence" in str(err) else _short(str(err), 80)
            got = f"not numbers ({why})"
        field = f"'s {what}" if what else ""
        msg = f"{source}: {kind} {first + 1}{field} is {got}: {DEFINITION_DIFFERS}"
        raise FormatError(msg) from err
    return values


def _float_type(kind: type) -> bool:
    return issubclass(kind, (float, np.floating))


def _integer_type(kind: type) -> bool:
    return issubclass(kind, (int, np.integer)) and not issubclass(kind, (bool, np.bool_))


def _is_float(value: object) -> bool:
    return isinstance(value, (float, np.floating))


def _is_integer(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _not_a_float(value: object) -> str:
    """Say what a field holds that is not a float: ``text ('1')``, ``a bool (True)``."""
    if isinstance(value, (str, bytes)):
        return f"text ({_short(repr(value), 40)})"
    if isinstance(value, (bool, np.bool_)):
        return f"a bool ({value!r})"
    if isinstance(value, (int, np.integer)):
        return f"an integer ({value!r})"
    if isinstance(value, (list, tuple, np.ndarray)):
        return f"an array of {np.size(value)} values"
    return f"a {type(value).__name__}"


def _check_columns(
    rows: list[Any], source: str, kind: str, fields: tuple[str, ...], integers: tuple[str, ...]
) -> None:
    """Refuse the first value of a row that is not of its field's type in ROS's definition.

    The types a column holds are checked once each, and its rows walked only when one is
    wrong: a test of every value cost a tenth of reading a 2e5-message bag.
    """
    for col, name in enumerate(fields):
        of_type = _integer_type if name in integers else _float_type
        if all(of_type(kind) for kind in {type(row[col]) for row in rows if len(row) > col}):
            continue
        check = _is_integer if name in integers else _is_float
        for k, row in enumerate(rows):
            if len(row) > col and not check(row[col]):
                wanted = "an integer" if name in integers else "a float"
                msg = (
                    f"{source}: {kind} {k + 1}'s {name} is {_not_a_float(row[col])}, "
                    f"not {wanted}: {DEFINITION_DIFFERS}"
                )
                raise FormatError(msg)


def _check_arrays(rows: list[Any], source: str, kind: str, what: str) -> None:
    """Refuse the first array field (``pose.covariance``) whose values are not floats."""
    for k, row in enumerate(rows):
        if isinstance(row, np.ndarray):
            if row.dtype.kind == "f":
                continue
            held = f"{row.dtype.name} values"
        elif isinstance(row, (list, tuple)):
            bad = next((v for v in row if not _is_float(v)), None)
            if bad is None:
                continue
            held = _not_a_float(bad)
        elif _is_float(row):  # one number: said by the count of values
            continue
        else:
            held = _not_a_float(row)
        msg = f"{source}: {kind} {k + 1}'s {what} holds {held}, not floats: {DEFINITION_DIFFERS}"
        raise FormatError(msg)


def _numbers(row: Any) -> bool:
    """Whether one message's values read as float64 numbers."""
    try:
        np.array(row, dtype=np.float64)
    except (ValueError, TypeError):
        return False
    return True


def read_tf(
    reader: Any,
    tf_id: str,
    *,
    source: str,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
) -> PoseTrajectory:
    """Read the TF chain ``tf_id`` from an open ``rosbags`` ``AnyReader``.

    Parameters
    ----------
    reader : rosbags.highlevel.AnyReader
        An open bag.
    tf_id : str
        ``/tf:parent.child`` or ``/tf:parent.child:/static_topic``.
    source : str
        The bag, for messages.
    strict : bool
        Refuse data problems of any transform of the chain instead of fixing them.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).

    Returns
    -------
    PoseTrajectory
        Poses of ``child`` in ``parent`` (``frame_id``, ``child_frame_id``), stamped
        as the module docstring states.

    Raises
    ------
    FormatError
        The TF topic is missing, a frame is unknown, the frames are not connected, or
        the dynamic transforms of the chain never overlap in time.
    """
    topic, parent, child, static_topic = parse_tf_id(tf_id)
    topics = {c.topic for c in reader.connections if c.msgtype == TF_TYPE}
    if topic not in topics:
        hint = did_you_mean(topic, sorted(topics))
        msg = f"{source}: no TF topic {topic!r}{hint or ';'} TF topics: "
        raise TopicError(msg + (", ".join(sorted(topics)) or "none"), path=source)
    edges = _collect(reader, [topic, static_topic] if static_topic in topics else [topic], source)
    frames = sorted(set(edges) | {e.parent for e in edges.values()})
    for frame in (parent, child):
        if frame not in frames:
            hint = did_you_mean(frame, frames)
            msg = f"{source}: no frame {frame!r} on {topic}{hint or ';'} "
            msg += transforms_text(_pairs(edges))
            raise TopicError(msg, path=source)
    up_parent = _ancestors(parent, edges, source)
    up_child = _ancestors(child, edges, source)
    common = next((f for f in up_child if f in up_parent), None)
    if common is None or parent == child:
        msg = f"{source}: frames {parent!r} and {child!r} are not connected by {topic}"
        if parent == child:
            msg = f"{source}: parent and child are both {parent!r}"
        raise FormatError(msg)
    if common == child:  # the child is above the parent: an id written backwards?
        path = " -> ".join(reversed(up_parent[: up_parent.index(child) + 1]))
        report(
            f"{source}: {tf_id} is the pose of {child!r} in {parent!r}, which the TF tree "
            f"has below {child!r} ({path}): the world seen from {parent!r} where {child!r} "
            f"is the world, not the motion of {parent!r}; that is {topic}:{child}.{parent}",
            strict=False,
            kind="tf_inverted",
            fixed=False,
        )
    down_parent = [edges[f] for f in reversed(up_parent[: up_parent.index(common)])]
    down_child = [edges[f] for f in reversed(up_child[: up_child.index(common)])]
    chain = down_parent + down_child
    poses: dict[str, PoseTrajectory] = {}
    for edge in chain:
        where = f"{source} {static_topic if edge.static else topic} {edge.parent}->{edge.child}"
        values = float_rows(edge.rows, where, "transform", fields=_TF_FIELDS)
        poses[edge.child] = finish_trajectory(
            values[:, 0],
            values[:, 1:4],
            values[:, 4:8],
            source=where,
            where=lambda rows: [f"transform {int(r) + 1}" for r in rows],
            strict=strict,
            repeated_stamps=repeated_stamps,
            stamps_ns=np.array(edge.stamps_ns, dtype=np.int64),
        )
    dynamic = {e.child: poses[e.child] for e in chain if not e.static}
    busiest, lo, hi = "", -np.inf, np.inf
    if dynamic:
        busiest = max(dynamic, key=lambda k: len(dynamic[k]))
        lo = max(float(t.stamps_s[0]) for t in dynamic.values())
        hi = min(float(t.stamps_s[-1]) for t in dynamic.values())
        ref = dynamic[busiest].stamps_s
        stamps, stamps_ns = ref[(ref >= lo) & (ref <= hi)], dynamic[busiest].stamps_ns
        stamps_ns = None if stamps_ns is None else stamps_ns[(ref >= lo) & (ref <= hi)]
        if stamps.shape[0] == 0:
            msg = (
                f"{source}: the dynamic transforms from {parent!r} to {child!r} "
                "never overlap in time"
            )
            raise FormatError(msg)
    else:
        latest = max(chain, key=lambda e: e.rows[0][0])
        stamps, stamps_ns = np.array([latest.rows[0][0]]), np.array(latest.stamps_ns)
    n = stamps.shape[0]

    def pose(edge: _Edge) -> tuple[Float64Array, Float64Array]:
        traj = poses[edge.child]
        if edge.child == busiest:  # its own messages, unchanged
            keep = (traj.stamps_s >= lo) & (traj.stamps_s <= hi)
            return traj.positions_xyz[keep], traj.orientations_quat_xyzw[keep]
        return _sample(traj, stamps)  # static: repeated; dynamic: interpolated

    identity = (np.zeros((n, 3)), np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)))
    to_parent = identity
    for edge in down_parent:
        to_parent = _compose(to_parent, pose(edge))
    to_child = identity
    for edge in down_child:
        to_child = _compose(to_child, pose(edge))
    inv_q = quat_xyzw_conjugate(to_parent[1])
    inverse = (-quat_xyzw_rotate(inv_q, to_parent[0]), inv_q)
    xyz, quat = _compose(inverse, to_child)
    return PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=xyz,
        orientations_quat_xyzw=quat,
        frame_id=parent,
        child_frame_id=child,
        stamps_ns=stamps_ns,
    )
