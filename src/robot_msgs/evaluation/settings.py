"""How an evaluation is set up: ONE validated value for every option that changes a number.

:class:`EvaluationSettings` holds how an estimate is cut to a time range, matched in time
with its reference and aligned to it, the steps every trajectory metric shares;
:class:`PairSettings` how RPE chooses its pose pairs. Every front end builds these values
and nothing else: the ``robot-msgs`` flags (``--align``, ``--max-diff``...), a manifest's
``[settings]`` table (:meth:`EvaluationSettings.from_options`), ``report`` and ``bench``.
Each is validated once, on construction (choices, signs, window order, and options that
would have no effect), and recorded in every result's ``settings`` with these field
names (:meth:`EvaluationSettings.record`), values structured, never stringified.

WHY one value and not keyword arguments per function: the same seven options used to be
declared in five signatures and checked in five places, and had drifted apart (a flag one
command had and another lacked). One message keeps one spelling and one set of rules.

Examples
--------
>>> settings = EvaluationSettings(align="se3", sync="one-to-one", max_diff_s=0.02)
>>> settings.sync, settings.record()["align"]
('one_to_one', 'se3')
>>> EvaluationSettings(align="none", n_align=10)
Traceback (most recent call last):
...
robot_msgs.errors.ValidationError: Expected an alignment method other than 'none' to fit on \
these poses, got int 10 - at `EvaluationSettings.n_align`
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, TypeVar

from robot_msgs.compare.alignment import ALIGNMENT_METHODS
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation.relations import APE_RELATIONS, RELATION_ALIASES, RPE_RELATIONS
from robot_msgs.msg import Msg, field_specs, message

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.msg import Value

__all__ = [
    "ALIGNMENT_METHODS",
    "DEFAULT_OFFSET_SEARCH_S",
    "DELTA_UNITS",
    "DRIFT_PROTOCOLS",
    "KITTI_LENGTHS_M",
    "PAIRS_FROM",
    "PLANES",
    "RPE_PROTOCOLS",
    "RPG_FRACTIONS",
    "RPG_SETTINGS",
    "SYNC_METHODS",
    "Ape",
    "Drift",
    "EvaluationSettings",
    "PairSettings",
    "Rpe",
    "decode_options",
]

M = TypeVar("M", bound=Msg)

#: Association rules (:func:`~robot_msgs.evaluation.associate`).
SYNC_METHODS: tuple[str, ...] = ("nearest", "one_to_one", "interpolate")

#: Units of an RPE ``delta``: frames, seconds, metres of path, rotation angle.
DELTA_UNITS: tuple[str, ...] = ("f", "s", "m", "rad", "deg")

#: Which trajectory's motion selects the RPE pairs.
PAIRS_FROM: tuple[str, ...] = ("estimate", "reference")

#: How RPE pairs and matches poses: evo's rules, or TUM ``evaluate_rpe.py --fixed_delta``.
RPE_PROTOCOLS: tuple[str, ...] = ("evo", "tum")

#: Planes ``project_to_plane`` accepts (evo's ``--project_to_plane``).
PLANES: tuple[str, ...] = ("xy", "xz", "yz")

#: Half-width of the ``offset_auto`` search, seconds, unless ``offset_search_s`` says.
DEFAULT_OFFSET_SEARCH_S = 1.0

#: Largest deviation of a transform's rotation block from orthonormal (``RᵀR = s² I``).
_TRANSFORM_TOL = 1e-6


def _finite(value: float | None) -> bool:
    return value is None or math.isfinite(value)


@message("evaluation/EvaluationSettings")
class EvaluationSettings(Msg):
    """Time range, association in time and alignment: what every trajectory metric does first.

    Field names are the ones results record and manifests use; the ``robot-msgs`` flag
    of each is given in brackets. Defaults are evo 1.38.1's.

    ``align`` (``--align``): ``"none"``, ``"se3"``, ``"sim3"``, ``"scale"``, ``"posyaw"``
    or ``"origin"`` (:func:`~robot_msgs.evaluation.align`). ``n_align`` (``--n-align``):
    fit on the first N matched poses; ``align_window_s`` (``--align-window``): fit on the
    matched poses whose estimate stamps lie in ``(start, end)``, seconds, inclusive; at
    most one of the two, and neither with ``align="none"``.

    ``sync`` (``--sync``): ``"nearest"`` (evo), ``"one_to_one"`` (TUM ``associate.py``)
    or ``"interpolate"``; ``"one-to-one"`` is accepted and stored as ``"one_to_one"``.
    ``max_diff_s`` (``--max-diff``): largest stamp difference of a pair, seconds, > 0;
    ``offset_s`` (``--offset``): added to the estimate's stamps for matching, seconds;
    ``max_gap_s`` (``--max-gap``): ``interpolate`` only, the longest reference gap
    bridged, seconds (default 10 median reference intervals).

    ``t_start_s`` / ``t_end_s`` (``--t-start`` / ``--t-end``): only reference poses
    stamped within ``[t_start_s, t_end_s]`` (seconds on the reference's clock, either
    end open when ``None``) are evaluated, applied before association and alignment, as
    evo's ``--t_start``/``--t_end`` do.

    ``offset_auto`` (``--offset auto``): estimate the clock offset instead of taking
    ``offset_s`` (:func:`~robot_msgs.evaluation.estimate_offset`), searching
    ``offset_s ± offset_search_s`` (``--offset-search``, seconds > 0, default
    :data:`DEFAULT_OFFSET_SEARCH_S`); the estimate, its uncertainty and its quality are
    recorded in the result (``offset_estimated_s``, ``offset_std_s``, notes).

    ``transform_left`` / ``transform_right`` (``--transform-left`` / ``--transform-right``
    FILE): a 4x4 transform, 16 numbers row-major, that moves every estimate pose ``P`` to
    ``T P`` (left: a change of the world frame, may carry a scale) or ``P T`` (right: a
    change of the body frame, rigid), before anything else, as evo_traj's
    ``--transform_left/right`` mean; ``invert_transform_left`` /
    ``invert_transform_right`` (``--invert-transform-left/right``) use ``T⁻¹``.

    ``confidence`` (``--confidence``): the two-sided probability of the chi-square bounds
    of NEES (``relation="nees"``...), in ``(0, 1)``.

    ``project_to_plane`` (``--project-to-plane``): ``"xy"``, ``"xz"`` or ``"yz"``: after
    alignment, both trajectories are projected to the plane as evo's
    ``--project_to_plane`` does (:func:`~robot_msgs.evaluation.project_to_plane`).
    """

    align: str = "none"
    n_align: int | None = None
    align_window_s: tuple[float, ...] | None = None
    sync: str = "nearest"
    max_diff_s: float = 0.01
    offset_s: float = 0.0
    max_gap_s: float | None = None
    t_start_s: float | None = None
    t_end_s: float | None = None
    offset_auto: bool = False
    offset_search_s: float | None = None
    confidence: float = 0.95
    transform_left: tuple[float, ...] | None = None
    invert_transform_left: bool = False
    transform_right: tuple[float, ...] | None = None
    invert_transform_right: bool = False
    project_to_plane: str | None = None

    def _validate(self) -> None:
        if self.sync == "one-to-one":
            self._normalise("sync", "one_to_one")
        if self.align not in ALIGNMENT_METHODS:
            raise self._fail(
                field="align", expected=f"one of {', '.join(ALIGNMENT_METHODS)}", got=self.align
            )
        if self.sync not in SYNC_METHODS:
            raise self._fail(
                field="sync", expected=f"one of {', '.join(SYNC_METHODS)}", got=self.sync
            )
        if self.n_align is not None and self.n_align < 1:
            raise self._fail(field="n_align", expected="a pose count >= 1", got=self.n_align)
        window = self.align_window_s
        if window is not None and not (
            len(window) == 2 and all(math.isfinite(v) for v in window) and window[0] <= window[1]
        ):
            raise self._fail(
                field="align_window_s",
                expected="(start, end) seconds with start <= end",
                got=window,
            )
        if self.n_align is not None and window is not None:
            raise self._fail(
                field="align_window_s",
                expected="a window or the first N poses, not both",
                got=window,
            )
        if self.align == "none":
            for name in ("n_align", "align_window_s"):
                value = getattr(self, name)
                if value is not None:
                    expected = "an alignment method other than 'none' to fit on these poses"
                    raise self._fail(field=name, expected=expected, got=value)
        if not (math.isfinite(self.max_diff_s) and self.max_diff_s > 0):
            raise self._fail(
                field="max_diff_s", expected="a finite number of seconds > 0", got=self.max_diff_s
            )
        if not math.isfinite(self.offset_s):
            raise self._fail(
                field="offset_s", expected="a finite number of seconds", got=self.offset_s
            )
        if self.max_gap_s is not None:
            if not self.max_gap_s > 0:  # NaN fails too; infinity means no limit
                raise self._fail(
                    field="max_gap_s", expected="a number of seconds > 0", got=self.max_gap_s
                )
            if self.sync != "interpolate":
                expected = f"sync 'interpolate' (only it bridges gaps; sync is {self.sync!r})"
                raise self._fail(field="max_gap_s", expected=expected, got=self.max_gap_s)
        for name in ("t_start_s", "t_end_s"):
            if not _finite(getattr(self, name)):
                raise self._fail(
                    field=name, expected="a finite number of seconds", got=getattr(self, name)
                )
        if (
            self.t_start_s is not None
            and self.t_end_s is not None
            and self.t_start_s > self.t_end_s
        ):
            expected = f"an end at or after the start ({self.t_start_s!r} s)"
            raise self._fail(field="t_end_s", expected=expected, got=self.t_end_s)
        self._validate_extensions()

    def _validate_extensions(self) -> None:
        """Check the time-offset search, the transforms and the plane projection."""
        search = self.offset_search_s
        if search is not None:
            if not (math.isfinite(search) and search > 0):
                raise self._fail(
                    field="offset_search_s", expected="a finite number of seconds > 0", got=search
                )
            if not self.offset_auto:
                expected = "offset_auto (--offset auto): the range of the offset search"
                raise self._fail(field="offset_search_s", expected=expected, got=search)
        for side in ("left", "right"):
            matrix = getattr(self, f"transform_{side}")
            if matrix is not None:
                problem = _transform_problem(matrix, rigid=side == "right")
                if problem:
                    raise self._fail(field=f"transform_{side}", expected=problem, got=matrix)
            elif getattr(self, f"invert_transform_{side}"):
                expected = f"a transform_{side} to invert"
                raise self._fail(field=f"invert_transform_{side}", expected=expected, got=True)
        if not 0.0 < self.confidence < 1.0:
            raise self._fail(
                field="confidence", expected="a probability in (0, 1)", got=self.confidence
            )
        if self.project_to_plane is not None and self.project_to_plane not in PLANES:
            raise self._fail(
                field="project_to_plane",
                expected=f"one of {', '.join(PLANES)}",
                got=self.project_to_plane,
            )

    @property
    def search_range_s(self) -> tuple[float, float]:
        """The offsets ``offset_auto`` searches, ``(low, high)`` seconds.

        Examples
        --------
        >>> EvaluationSettings(offset_auto=True, offset_search_s=0.5).search_range_s
        (-0.5, 0.5)
        """
        half = DEFAULT_OFFSET_SEARCH_S if self.offset_search_s is None else self.offset_search_s
        return self.offset_s - half, self.offset_s + half

    def record(self) -> dict[str, Value]:
        """Return the settings as a flat, structured mapping, for a result's ``settings``.

        Examples
        --------
        >>> EvaluationSettings(align="se3", n_align=5).record()["n_align"]
        5
        """
        return {name: getattr(self, name) for name in self.as_dict()}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> EvaluationSettings:
        """Rebuild the settings a result recorded (other keys of ``record`` are ignored).

        Examples
        --------
        >>> s = EvaluationSettings(align="sim3", t_end_s=10.0)
        >>> EvaluationSettings.from_record({**s.record(), "relation": "translation"}) == s
        True
        """
        fields = field_specs(cls)
        return cls.from_dict({k: v for k, v in record.items() if k in fields})

    @classmethod
    def from_options(cls, options: Mapping[str, Any], *, where: str) -> EvaluationSettings:
        """Decode a manifest's ``[settings]`` keys (TOML or JSON) into the settings.

        Raises
        ------
        FormatError
            An unknown key or a bad value; the message names ``where`` (the file and
            table) and the key.
        """
        return decode_options(cls, options, where=where)


@message("evaluation/PairSettings")
class PairSettings(Msg):
    """How RPE chooses its pose pairs ``(i, j)`` (:func:`~robot_msgs.evaluation.select_pairs`).

    ``delta`` (``--delta``) in ``delta_unit`` (``--delta-unit``: ``f`` frames, ``s``
    seconds, ``m`` metres of path, ``rad``/``deg`` rotation angle), > 0, a whole number
    of frames for ``f`` and at most half a turn for angles. ``all_pairs``
    (``--all-pairs``): a pair from every pose instead of consecutive ones.
    ``pairs_from`` (``--pairs-from-reference``): ``"estimate"`` (evo's default) or
    ``"reference"``, whose motion selects the pairs. ``delta_tol`` (``--delta-tol``): the
    relative tolerance of the all-pairs rules and of seconds, in ``[0, 1)`` (evo's 0.1).
    ``protocol`` (``--protocol``): ``"evo"`` (the rules above) or ``"tum"``: TUM RGB-D's
    ``evaluate_rpe.py --fixed_delta --max_pairs 0``, which pairs every estimate pose with
    the one nearest ``delta`` later and matches each with its nearest reference stamp
    (:func:`~robot_msgs.evaluation.tum_rpe`); ``all_pairs``, ``pairs_from`` and
    ``delta_tol`` do not apply to it and are refused.

    Examples
    --------
    >>> PairSettings(delta=1.0, delta_unit="s", all_pairs=True).record()["delta_unit"]
    's'
    """

    delta: float = 1.0
    delta_unit: str = "f"
    all_pairs: bool = False
    pairs_from: str = "estimate"
    delta_tol: float = 0.1
    protocol: str = "evo"

    def _validate(self) -> None:
        if self.delta_unit not in DELTA_UNITS:
            raise self._fail(
                field="delta_unit", expected=f"one of {', '.join(DELTA_UNITS)}", got=self.delta_unit
            )
        if not (math.isfinite(self.delta) and self.delta > 0):
            raise self._fail(field="delta", expected="a finite interval > 0", got=self.delta)
        if self.delta_unit == "f" and not self.delta.is_integer():
            raise self._fail(field="delta", expected="a whole number of frames", got=self.delta)
        bound = {"deg": 180.0, "rad": math.pi}.get(self.delta_unit)
        if bound is not None and self.delta > bound:
            raise self._fail(
                field="delta",
                expected=f"a rotation of at most {bound:g} {self.delta_unit}",
                got=self.delta,
            )
        if self.pairs_from not in PAIRS_FROM:
            raise self._fail(
                field="pairs_from", expected=f"one of {', '.join(PAIRS_FROM)}", got=self.pairs_from
            )
        if not (math.isfinite(self.delta_tol) and 0.0 <= self.delta_tol < 1.0):
            raise self._fail(
                field="delta_tol", expected="a relative tolerance in [0, 1)", got=self.delta_tol
            )
        if self.protocol not in RPE_PROTOCOLS:
            raise self._fail(
                field="protocol", expected=f"one of {', '.join(RPE_PROTOCOLS)}", got=self.protocol
            )
        if self.protocol == "tum":
            evo_only = {"all_pairs": False, "pairs_from": "estimate", "delta_tol": 0.1}
            for name, default in evo_only.items():
                if getattr(self, name) != default:
                    expected = (
                        f"the default {default!r} with protocol 'tum' (evaluate_rpe.py pairs "
                        "every estimate pose with the one nearest delta later)"
                    )
                    raise self._fail(field=name, expected=expected, got=getattr(self, name))

    def record(self) -> dict[str, Value]:
        """Return the pair settings as a flat mapping, for a result's ``settings``."""
        return {name: getattr(self, name) for name in self.as_dict()}

    def label(self) -> str:
        """Return a short name such as ``1s`` or ``10f:all``, for tables and file names.

        Examples
        --------
        >>> PairSettings(delta=1.0, delta_unit="s", all_pairs=True).label()
        '1s:all'
        """
        label = f"{self.delta:g}{self.delta_unit}" + (":all" if self.all_pairs else "")
        return label + (":tum" if self.protocol == "tum" else "")


@message("evaluation/Ape")
class Ape(Msg):
    """The absolute pose error as a metric of :func:`~robot_msgs.evaluation.evaluate`.

    ``relation`` (``--relation``): one of :data:`~robot_msgs.evaluation.APE_RELATIONS`
    (``trans_part`` is read as ``translation``).

    Examples
    --------
    >>> Ape(relation="trans_part").relation
    'translation'
    """

    relation: str = "translation"

    def _validate(self) -> None:
        name = _relation(self.relation, APE_RELATIONS)
        if name is None:
            expected = f"one of {', '.join(APE_RELATIONS)}"
            raise self._fail(field="relation", expected=expected, got=self.relation)
        self._normalise("relation", name)

    def record(self) -> dict[str, Value]:
        """Return the metric's parameters, for a result's ``parameters``."""
        return {"relation": self.relation}


@message("evaluation/Rpe")
class Rpe(Msg):
    """The relative pose error as a metric of :func:`~robot_msgs.evaluation.evaluate`.

    ``relation`` (``--relation``): one of :data:`~robot_msgs.evaluation.RPE_RELATIONS`.
    ``pairs``: one :class:`PairSettings` per delta; several must differ only in
    ``delta`` (one result keeps one set of rules) and give one signal each. The TUM
    protocol (``PairSettings.protocol="tum"``) takes ``translation``, ``angle_rad`` or
    ``angle_deg`` only.

    Examples
    --------
    >>> spec = Rpe(pairs=(PairSettings(delta=1), PairSettings(delta=2)))
    >>> spec.record()["delta"]
    (1.0, 2.0)
    >>> Rpe(pairs=(PairSettings(delta=1), PairSettings(delta=2, delta_unit="s")))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected pair settings that differ only in delta \
(evaluate others separately), got list ['delta_unit'] - at `Rpe.pairs`
    """

    relation: str = "translation"
    pairs: tuple[PairSettings, ...] = (PairSettings(),)

    def _validate(self) -> None:
        name = _relation(self.relation, RPE_RELATIONS)
        if name is None:
            expected = f"one of {', '.join(RPE_RELATIONS)}"
            raise self._fail(field="relation", expected=expected, got=self.relation)
        self._normalise("relation", name)
        if not self.pairs:
            raise self._fail(field="pairs", expected="at least one PairSettings", got=())
        first = self.pairs[0].record()
        for other in self.pairs[1:]:
            differ = sorted(k for k, v in other.record().items() if k != "delta" and v != first[k])
            if differ:
                expected = "pair settings that differ only in delta (evaluate others separately)"
                raise self._fail(field="pairs", expected=expected, got=differ)
        tum = ("translation", "angle_rad", "angle_deg")
        if self.pairs[0].protocol == "tum" and self.relation not in tum:
            expected = f"one of {', '.join(tum)} with protocol 'tum' (evaluate_rpe.py's)"
            raise self._fail(field="relation", expected=expected, got=self.relation)

    def record(self) -> dict[str, Value]:
        """Return the relation and the pair settings (several: ``delta`` a tuple), flat."""
        record: dict[str, Value] = {"relation": self.relation, **self.pairs[0].record()}
        if len(self.pairs) > 1:
            record["delta"] = tuple(p.delta for p in self.pairs)
        return record


#: The KITTI devkit's segment lengths, metres.
KITTI_LENGTHS_M: tuple[float, ...] = (100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0)

#: rpg_trajectory_evaluation's default segment lengths as fractions of the path length.
RPG_FRACTIONS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5)

#: Drift protocols: the KITTI odometry devkit, rpg_trajectory_evaluation's relative error.
DRIFT_PROTOCOLS: tuple[str, ...] = ("kitti", "rpg")


@message("evaluation/Drift")
class Drift(Msg):
    """Drift per distance travelled as a metric: KITTI devkit or rpg segments and their rules.

    ``protocol`` (``--protocol``): ``"kitti"`` (segments start every ``step_frames``
    frames, default 10, ``--step``) or ``"rpg"`` (segments start at every frame; lengths
    as ``fractions`` of the reference's path, default :data:`RPG_FRACTIONS`,
    ``--fractions``; a segment is kept within ``max_diff_ratio`` of its length, default
    0.2). ``lengths_m`` (``--lengths``): segment lengths in metres, distinct, > 0
    (default for KITTI :data:`KITTI_LENGTHS_M`; for rpg instead of the fractions).
    ``None`` is the protocol's default; an option the protocol does not use is refused.

    Examples
    --------
    >>> Drift().resolved_lengths_m(1000.0)[:2], Drift(protocol="rpg").resolved_lengths_m(10.0)
    ((100.0, 200.0), (1.0, 2.0, 3.0, 4.0, 5.0))
    >>> Drift(protocol="kitti", fractions=(0.1,))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected protocol 'rpg' (kitti takes lengths in metres), \
got tuple (0.1,) - at `Drift.fractions`
    """

    protocol: str = "kitti"
    lengths_m: tuple[float, ...] | None = None
    step_frames: int | None = None
    fractions: tuple[float, ...] | None = None
    max_diff_ratio: float | None = None

    def _validate(self) -> None:
        if self.protocol not in DRIFT_PROTOCOLS:
            expected = f"one of {', '.join(DRIFT_PROTOCOLS)}"
            raise self._fail(field="protocol", expected=expected, got=self.protocol)
        kitti = self.protocol == "kitti"
        only = {
            "fractions": ("rpg", "kitti takes lengths in metres"),
            "max_diff_ratio": ("rpg", "kitti ends a segment past its length"),
            "step_frames": ("kitti", "rpg starts a segment at every frame"),
        }
        for name, (protocol, why) in only.items():
            if getattr(self, name) is not None and (protocol == "kitti") != kitti:
                expected = f"protocol {protocol!r} ({why})"
                raise self._fail(field=name, expected=expected, got=getattr(self, name))
        if self.fractions is not None and self.lengths_m is not None:
            expected = "lengths or fractions, not both"
            raise self._fail(field="fractions", expected=expected, got=self.fractions)
        what = {"lengths_m": "segment lengths > 0 metres", "fractions": "fractions > 0 of the path"}
        for name, expected in what.items():
            values = getattr(self, name)
            if values is not None and not (
                values and all(math.isfinite(v) and v > 0 for v in values)
            ):
                raise self._fail(field=name, expected=expected, got=values)
        lengths = self.lengths_m or ()
        twice = next((v for v in lengths if lengths.count(v) > 1), None)
        if twice is not None:
            expected = f"distinct segment lengths ({twice:g} m twice)"
            raise self._fail(field="lengths_m", expected=expected, got=self.lengths_m)
        if self.step_frames is not None and self.step_frames < 1:
            expected = "a whole number of frames >= 1"
            raise self._fail(field="step_frames", expected=expected, got=self.step_frames)
        ratio = self.max_diff_ratio
        if ratio is not None and not (math.isfinite(ratio) and ratio > 0):
            raise self._fail(field="max_diff_ratio", expected="a ratio > 0", got=ratio)

    def resolved_lengths_m(self, path_length_m: float) -> tuple[float, ...]:
        """Return the segment lengths, metres, for a reference path of ``path_length_m``.

        rpg's fractions are of the path length, truncated to centimetres as rpg does.
        """
        if self.lengths_m is not None:
            return self.lengths_m
        if self.protocol == "kitti":
            return KITTI_LENGTHS_M
        fractions = RPG_FRACTIONS if self.fractions is None else self.fractions
        return tuple(math.trunc(f * path_length_m * 100.0) / 100.0 for f in fractions)

    def record(self, path_length_m: float) -> dict[str, Value]:
        """Return the parameters a result records (lengths resolved, defaults filled)."""
        lengths = self.resolved_lengths_m(path_length_m)
        if self.protocol == "kitti":
            step = 10 if self.step_frames is None else self.step_frames
            return {"lengths_m": lengths, "step_frames": step}
        fractions = None
        if self.lengths_m is None:
            fractions = RPG_FRACTIONS if self.fractions is None else self.fractions
        ratio = 0.2 if self.max_diff_ratio is None else self.max_diff_ratio
        return {"lengths_m": lengths, "fractions": fractions, "max_diff_ratio": ratio}


#: rpg_trajectory_evaluation's association and alignment: TUM's one-to-one rule within
#: 0.02 s, then Sim(3).
RPG_SETTINGS = EvaluationSettings(align="sim3", sync="one_to_one", max_diff_s=0.02)


def _relation(relation: str, allowed: tuple[str, ...]) -> str | None:
    """Return the canonical name of ``relation`` (aliases resolved), or ``None`` if refused."""
    name = RELATION_ALIASES.get(relation, relation)
    return name if name in allowed else None


def _transform_problem(matrix: tuple[float, ...], *, rigid: bool) -> str:
    """Say what is wrong with ``matrix`` as a 4x4 Sim(3) (or SE(3)) transform, or ``""``."""
    kind = "an SE(3)" if rigid else "a Sim(3) or SE(3)"
    expected = f"{kind} transform as 16 numbers, row-major 4x4"
    if len(matrix) != 16 or not all(math.isfinite(v) for v in matrix):
        return expected
    rows = [matrix[4 * i : 4 * i + 4] for i in range(4)]
    if [float(v) for v in rows[3]] != [0.0, 0.0, 0.0, 1.0]:
        return f"{expected} whose last row is 0 0 0 1"
    block = [row[:3] for row in rows[:3]]
    gram = [[sum(block[k][i] * block[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    scale2 = (gram[0][0] + gram[1][1] + gram[2][2]) / 3.0
    a, b, c = block
    det = (
        a[0] * (b[1] * c[2] - b[2] * c[1])
        - a[1] * (b[0] * c[2] - b[2] * c[0])
        + a[2] * (b[0] * c[1] - b[1] * c[0])
    )
    off = max(abs(gram[i][j] - (scale2 if i == j else 0.0)) for i in range(3) for j in range(3))
    if not (scale2 > 0 and det > 0 and off <= _TRANSFORM_TOL * scale2):
        return f"{expected} whose 3x3 block is s R (R a rotation, s > 0)"
    if rigid and abs(math.sqrt(scale2) - 1.0) > _TRANSFORM_TOL:
        return f"{expected} without scale (a body-frame change is rigid)"
    return ""


def decode_options(
    cls: type[M], options: Mapping[str, Any], *, where: str, base: M | None = None
) -> M:
    """Build ``cls`` (a settings message) from option keys, naming ``where`` on errors.

    With ``base``, the options change that value's fields (the others keep its values);
    without, the class defaults.

    TOML and JSON give lists where the message holds tuples and integers where it holds
    floats; both are accepted. Unknown keys are refused, so a typo cannot pass unseen.

    Raises
    ------
    FormatError
        An unknown key, or a value the message refuses; the text names ``where`` and
        the key, and what was expected.

    Examples
    --------
    >>> decode_options(EvaluationSettings, {"align": "se3", "max_diff_s": 1}, where="m.toml")
    EvaluationSettings(align='se3', n_align=None, align_window_s=None, sync='nearest', \
max_diff_s=1.0, offset_s=0.0, max_gap_s=None, t_start_s=None, t_end_s=None, offset_auto=False, \
offset_search_s=None, confidence=0.95, transform_left=None, invert_transform_left=False, \
transform_right=None, invert_transform_right=False, project_to_plane=None)
    >>> decode_options(EvaluationSettings, {"alignn": "se3"}, where="m.toml [settings]")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: m.toml [settings]: unknown key `alignn`; expected one of \
align, align_window_s, confidence, invert_transform_left, invert_transform_right, max_diff_s, \
max_gap_s, n_align, offset_auto, offset_s, offset_search_s, project_to_plane, sync, t_end_s, \
t_start_s, transform_left, transform_right
    """
    fields = field_specs(cls)
    unknown = sorted(set(options) - set(fields))
    if unknown:
        msg = f"{where}: unknown key `{unknown[0]}`; expected one of {', '.join(sorted(fields))}"
        raise FormatError(msg)
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
    try:
        return cls(**values) if base is None else base.replace(**values)
    except ValidationError as err:
        key = err.field.rsplit(".", 1)[-1] if err.field else ""
        detail = f"`{key}`: {err.reason}" if key else str(err)
        msg = f"{where}: {detail}"
        raise FormatError(msg) from err
