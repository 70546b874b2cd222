"""How an evaluation is set up: ONE validated value for every option that changes a number.

:class:`EvaluationSettings` holds how an estimate is cut to a time range, matched in time
with its reference and aligned to it, the steps every trajectory metric shares;
:class:`PairSettings` how RPE chooses its pose pairs; :class:`Ape`, :class:`Rpe` and
:class:`Drift` the metrics :func:`~robot_msgs.evaluation.evaluate` computes. Every front
end builds these values and nothing else: the ``robot-msgs`` flags, a manifest's
``[settings]`` table (:meth:`EvaluationSettings.from_options`), ``report`` and ``bench``.

Each option is declared once, on its field: its type and choices (``Literal``), its
bounds and its description (``msgspec.Meta``), and its command-line flag
(:class:`~robot_msgs.flags.Flag`). msgspec checks the first two on construction and on
reading, the JSON Schema (``robot-msgs schema evaluation/EvaluationSettings``) carries
them, and the command line builds its flags, help and error wording from the same
declaration (read from a table generated from it, so that ``--help`` imports none of
this: after changing a flag's field, ``python -m robot_msgs.cli._settings_flags``
rewrites the table, and ``tests/cli/test_settings_flags.py`` fails until it is);
``_validate`` holds only the rules between fields. WHY: the same options
used to be declared four times (the field, a flag table, an ``add_argument`` with its
own help, special cases in the parser) and had drifted apart.

Examples
--------
>>> settings = EvaluationSettings(align="se3", sync="one-to-one", max_diff_s=0.02)
>>> settings.sync, settings.record()["align"]
('one_to_one', 'se3')
>>> EvaluationSettings(align="none", n_align=10)
Traceback (most recent call last):
...
robot_msgs.errors.ValidationError: Expected an alignment method to fit on these poses \
(`align='se3'`, `align='sim3'`...), not `align='none'`, got int 10 - at \
`EvaluationSettings.n_align`
"""

from __future__ import annotations

import math
import re
import typing
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, TypeVar

from msgspec import Meta

from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.relations import APE_RELATIONS, RELATION_ALIASES, RPE_RELATIONS
from robot_msgs.flags import Flag
from robot_msgs.limits import MAX_STEP_FRAMES
from robot_msgs.msg import Msg, field_specs, message
from robot_msgs.msg.fields import FINITE, finite_fields
from robot_msgs.rotations import transform_problem
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.msg import Value

__all__ = [
    "ALIGNMENT_METHODS",
    "DEFAULT_OFFSET_SEARCH_S",
    "DELTA_UNITS",
    "DRIFT_METRICS",
    "KITTI_LENGTHS_M",
    "PAIRS_FROM",
    "PLANES",
    "RPG_FRACTIONS",
    "RPG_SETTINGS",
    "SCALED_METHODS",
    "SPATIAL_PAIRS",
    "SYNC_METHODS",
    "Ape",
    "Drift",
    "EvaluationSettings",
    "PairSettings",
    "Rpe",
    "check_inputs",
    "decode_options",
    "drift_protocol",
    "key_error",
]

M = TypeVar("M", bound=Msg)

AlignMethod: TypeAlias = Literal[
    "none", "se3", "sim3", "scale", "posyaw", "translation", "origin", "origin_scale"
]
SyncMethod: TypeAlias = Literal[
    "nearest",
    "one_to_one",
    "interpolate",
    "interpolate_longer",
    "interpolate_estimate",
    "spatial",
    "one-to-one",
]
SpatialPairs: TypeAlias = Literal["path", "first"]
DeltaUnit: TypeAlias = Literal["f", "s", "m", "rad", "deg"]
PairsFrom: TypeAlias = Literal["estimate", "reference"]
RpeProtocol: TypeAlias = Literal["evo", "tum"]
Plane: TypeAlias = Literal["xy", "xz", "yz"]
DriftProtocol: TypeAlias = Literal["kitti", "rpg"]
if TYPE_CHECKING:
    ApeRelation: TypeAlias = str
    RpeRelation: TypeAlias = str
else:  # the relations are the kernels' (relations.py); an alias is read as its relation
    ApeRelation = Literal[APE_RELATIONS + tuple(RELATION_ALIASES)]
    RpeRelation = Literal[RPE_RELATIONS + tuple(RELATION_ALIASES)]

#: What :func:`~robot_msgs.evaluation.align` can fit.
ALIGNMENT_METHODS: tuple[str, ...] = typing.get_args(AlignMethod)
#: The alignment methods that fit a scale (the time-offset search fits one too).
SCALED_METHODS: tuple[str, ...] = ("sim3", "scale", "origin_scale")
#: Association rules (:func:`~robot_msgs.evaluation.associate`).
SYNC_METHODS: tuple[str, ...] = typing.get_args(SyncMethod)[:6]
#: The rules that refuse gaps longer than ``max_gap_s``.
_GAP_RULES = ("interpolate", "interpolate_estimate")
#: Which pairs ``sync="spatial"`` keeps (:func:`~robot_msgs.evaluation.associate_spatially`).
SPATIAL_PAIRS: tuple[str, ...] = typing.get_args(SpatialPairs)
#: Units of an RPE ``delta``: frames, seconds, metres of path, rotation angle.
DELTA_UNITS: tuple[str, ...] = typing.get_args(DeltaUnit)
#: Which trajectory's motion selects the RPE pairs.
PAIRS_FROM: tuple[str, ...] = typing.get_args(PairsFrom)
#: Planes ``project_to_plane`` accepts (evo's ``--project_to_plane``).
PLANES: tuple[str, ...] = typing.get_args(Plane)

#: Half-width of the ``offset_auto`` search, seconds, unless ``offset_search_s`` says.
DEFAULT_OFFSET_SEARCH_S = 1.0

_SPAN = "time range (seconds on the reference's clock)"
_SYNC = "association in time"
_FIT = "alignment"
_MOVE = "extrinsic transforms of the estimate (P -> T_left P T_right, done first)"
_PAIRS = "pose pairs"
_SEGMENTS = "segments"
_NEES = "consistency (relations nees, nees_position, nees_orientation, nees_planar)"


#: The largest rotation delta by unit (half a turn).
_HALF_TURN = {"deg": 180.0, "rad": math.pi}


def _doc(text: str) -> Meta:
    """Return a field's description (what ``--help`` and the JSON Schema say)."""
    return Meta(description=text)


def _check_finite(msg: Msg) -> None:
    """Refuse a non-finite number (or a pair holding one) in the fields declared ``FINITE``.

    WHY a plain loop: every decoding of a comparison checks its settings; the seven
    fields of ``EvaluationSettings`` took 2.9 µs through a generator per field, 0.4 µs
    this way (min of 7 x 50000).
    """
    for name in finite_fields(type(msg)):
        value = getattr(msg, name)
        if value is None:
            continue
        if type(value) is tuple:
            if all(v is None or math.isfinite(v) for v in value):
                continue
        elif math.isfinite(value):
            continue
        raise msg._fail(field=name, expected="finite numbers", got=value)  # noqa: SLF001


@message("evaluation/EvaluationSettings")
class EvaluationSettings(Msg):
    """Time range, association in time and alignment: what every trajectory metric does first.

    Each field says what it does (its description, also the ``--help`` of its flag);
    field names are the ones results record and manifests use. Defaults are evo 1.38.1's.
    The rules between fields: ``n_align`` and ``align_window_s`` go with an alignment
    and not together; ``max_gap_s`` with ``sync="interpolate"`` or
    ``"interpolate_estimate"``; ``max_distance_m`` and ``spatial_pairs`` with
    ``sync="spatial"``, ``spatial_pairs="first"`` not with ``transform_right_auto``;
    ``offset_search_s`` with ``offset_auto``; an inversion with its transform;
    ``t_end_s`` not before ``t_start_s``; times finite;
    ``"one-to-one"`` is stored as ``"one_to_one"``.
    """

    align: Annotated[
        AlignMethod,
        _doc(
            "se3: rotation + translation (evo -a); sim3: plus scale (-as); scale: scale only "
            "(-s); posyaw: translation + yaw (VIO); translation: translation only, the "
            "positions' means coincide (cnspy pos); origin: first poses coincide (evo "
            "--align_origin); origin_scale: scale, then first poses coincide (evo "
            "--align_origin -s); none: as given"
        ),
        Flag("--align", "METHOD", group=_FIT),
    ] = "none"
    n_align: (
        Annotated[
            int,
            Meta(
                ge=1,
                description="fit the alignment on the first N matched poses (default: all)",
            ),
            Flag("--n-align", "N", group=_FIT),
        ]
        | None
    ) = None
    align_window_s: (
        Annotated[
            tuple[float, ...],
            Meta(
                min_length=2,
                max_length=2,
                description="fit the alignment on the matched poses stamped within [START, END] s",
            ),
            Flag("--align-window", ("START", "END"), group=_FIT),
            FINITE,
        ]
        | None
    ) = None
    sync: Annotated[
        SyncMethod,
        _doc(
            "nearest: evo's rule; one-to-one: TUM associate.py's greedy rule; interpolate: "
            "reference resampled at the estimate's stamps; interpolate-longer: evo's "
            "interpolation, nearest's matches with the longer trajectory resampled at the "
            "shorter one's stamps; interpolate-estimate: trajectopy's interpolation, the "
            "estimate resampled at the reference's stamps; spatial: each estimate pose with "
            "the nearest reference position in path order, stamps unused (trajectopy's "
            "spatial matching, for clocks that cannot be matched; both in one world frame)"
        ),
        Flag("--sync", group=_SYNC, dashes=True, metavar="RULE"),
    ] = "nearest"
    max_diff_s: Annotated[
        float,
        Meta(ge=0, description="largest stamp difference of a matched pair, seconds"),
        Flag("--max-diff", "SECONDS", group=_SYNC),
        FINITE,
    ] = 0.01
    max_distance_m: (
        Annotated[
            float,
            Meta(
                gt=0,
                description="spatial: largest distance of a matched pair, metres (default any)",
            ),
            Flag("--max-distance", "METRES", group=_SYNC),
            FINITE,
        ]
        | None
    ) = None
    spatial_pairs: Annotated[
        SpatialPairs,
        _doc(
            "spatial: which pairs are kept. path: of estimate poses sharing a nearest "
            "reference pose the closest, then the longest chain running forward on both "
            "sides; first: trajectopy 5.x's rule, the first of them, backward pairs kept, "
            "pairs in reference order (for APE: RPE, drift, the doctor and "
            "transform_right_auto need forward pairs)"
        ),
        Flag("--spatial-pairs", group=_SYNC),
    ] = "path"
    offset_s: Annotated[
        float,
        _doc("added to the estimate's stamps for matching, seconds"),
        Flag("--offset", "SECONDS|auto", group=_SYNC),
        FINITE,
    ] = 0.0
    max_gap_s: (
        Annotated[
            float,
            Meta(
                gt=0,
                description="interpolate: longest reference gap bridged, seconds "
                "(default 10 median reference intervals); interpolate-estimate: longest "
                "estimate gap (default 10 median estimate intervals; trajectopy: 10 s)",
            ),
            Flag("--max-gap", "SECONDS", group=_SYNC),
        ]
        | None
    ) = None
    t_start_s: (
        Annotated[
            float,
            _doc(
                "only reference poses stamped at or after this time (evo --t_start); a run "
                "report's losses, coverage and latency too"
            ),
            Flag("--t-start", "SECONDS", group=_SPAN),
            FINITE,
        ]
        | None
    ) = None
    t_end_s: (
        Annotated[
            float,
            _doc(
                "only reference poses stamped at or before this time (evo --t_end); a run "
                "report's losses, coverage and latency too"
            ),
            Flag("--t-end", "SECONDS", group=_SPAN),
            FINITE,
        ]
        | None
    ) = None
    offset_auto: Annotated[
        bool,
        _doc(
            "estimate the clock offset from the motion (with its uncertainty and quality "
            "notes) and use it instead of offset_s"
        ),
        Flag("--offset", group=_SYNC, word="auto"),
    ] = False
    offset_search_s: (
        Annotated[
            float,
            Meta(
                gt=0,
                description=f"offset_auto: search offsets within ± this, seconds (default "
                f"{DEFAULT_OFFSET_SEARCH_S:g})",
            ),
            Flag("--offset-search", "SECONDS", group=_SYNC),
            FINITE,
        ]
        | None
    ) = None
    confidence: Annotated[
        float,
        Meta(gt=0, lt=1, description="two-sided probability of the chi-square bounds of NEES"),
        Flag("--confidence", "P", group=_NEES),
    ] = 0.95
    transform_left: (
        Annotated[
            tuple[float, ...],
            Meta(
                min_length=16,
                max_length=16,
                description="left-multiply every estimate pose (world frame, may scale; evo_traj "
                "--transform_left): 16 numbers, row-major 4x4; the flag reads them "
                "from a 4x4 text or .npy matrix, a JSON/YAML pose, EuRoC's sensor.yaml "
                "(its T_BS: body from sensor), OpenCV YAML (VINS-Fusion's body_T_cam0: body "
                "from camera) or Kalibr's camchain (T_cam_imu: camera from IMU); FILE:KEY "
                "names one of several (camchain.yaml:cam1/T_cam_imu)",
            ),
            Flag("--transform-left", "FILE", group=_MOVE, file=True),
            FINITE,
        ]
        | None
    ) = None
    invert_transform_left: Annotated[
        bool,
        _doc("use the inverse of transform_left"),
        Flag("--invert-transform-left", group=_MOVE),
    ] = False
    transform_right: (
        Annotated[
            tuple[float, ...],
            Meta(
                min_length=16,
                max_length=16,
                description="right-multiply every estimate pose (body frame, rigid; evo_traj "
                "--transform_right): 16 numbers, row-major 4x4, read as "
                "transform_left",
            ),
            Flag("--transform-right", "FILE|auto", group=_MOVE, file=True),
            FINITE,
        ]
        | None
    ) = None
    transform_right_auto: Annotated[
        bool,
        _doc(
            "estimate transform_right from the motion (hand-eye calibration, reference = S "
            "estimate X, after the association) and use it; refused when the motion leaves "
            "a direction undetermined"
        ),
        Flag("--transform-right", group=_MOVE, word="auto"),
    ] = False
    invert_transform_right: Annotated[
        bool,
        _doc(
            "use the inverse of transform_right: with EuRoC's sensor.yaml (T_BS, body from "
            "sensor), what brings an estimate in the sensor's frame (cam0) to the IMU body"
        ),
        Flag("--invert-transform-right", group=_MOVE),
    ] = False
    project_to_plane: (
        Annotated[
            Plane,
            _doc(
                "after alignment, project both trajectories to this plane (evo --project_to_plane)"
            ),
            Flag("--project-to-plane", group=_FIT),
        ]
        | None
    ) = None

    def _validate(self) -> None:
        if self.sync == "one-to-one":
            self._normalise("sync", "one_to_one")
        # The transforms first: their own check says more of a NaN than "finite numbers".
        for side in ("left", "right"):
            matrix = getattr(self, f"transform_{side}")
            if matrix is not None:
                problem = transform_problem(matrix, rigid=side == "right")
                if problem:
                    raise self._fail(field=f"transform_{side}", expected=problem, got=matrix)
            elif getattr(self, f"invert_transform_{side}"):
                expected = f"a transform_{side} to invert"
                raise self._fail(field=f"invert_transform_{side}", expected=expected, got=True)
        _check_finite(self)
        if self.max_diff_s == 0 and self.sync == "one_to_one":
            expected = (
                "more than 0 with `sync='one_to_one'`: it keeps pairs strictly closer than "
                "`max_diff_s=`, as TUM's associate.py does, so 0 keeps none "
                "(`sync='nearest'` matches equal stamps at 0, as evo does)"
            )
            raise self._fail(field="max_diff_s", expected=expected, got=self.max_diff_s)
        window = self.align_window_s
        if window is not None and window[0] > window[1]:
            expected = "(start, end) seconds with start <= end"
            raise self._fail(field="align_window_s", expected=expected, got=window)
        if self.n_align is not None and window is not None:
            expected = "a window or the first N poses, not both"
            raise self._fail(field="align_window_s", expected=expected, got=window)
        if self.align == "none":
            for name in ("n_align", "align_window_s"):
                value = getattr(self, name)
                if value is not None:
                    expected = (
                        "an alignment method to fit on these poses (`align='se3'`, "
                        "`align='sim3'`...), not `align='none'`"
                    )
                    raise self._fail(field=name, expected=expected, got=value)
        if self.max_distance_m is not None and self.sync != "spatial":
            expected = (
                "`sync='spatial'` (the distance of a spatial match; "
                f"`sync={self.sync!r}` matches in time)"
            )
            raise self._fail(field="max_distance_m", expected=expected, got=self.max_distance_m)
        if self.spatial_pairs != "path" and self.sync != "spatial":
            expected = (
                "`sync='spatial'` (it chooses the pairs of a spatial match; "
                f"`sync={self.sync!r}` matches in time)"
            )
            raise self._fail(field="spatial_pairs", expected=expected, got=self.spatial_pairs)
        if self.spatial_pairs == "first" and self.transform_right_auto:
            expected = (
                "`spatial_pairs='path'` to estimate the right transform "
                "(`transform_right_auto=True`): the motions between pairs need pairs that run "
                "forward; `spatial_pairs='first'` keeps pairs that run backwards"
            )
            raise self._fail(field="spatial_pairs", expected=expected, got=self.spatial_pairs)
        if self.transform_right_auto and self.transform_right is not None:
            expected = (
                "a `transform_right=` or its estimate (`transform_right_auto=True`), not both"
            )
            raise self._fail(field="transform_right_auto", expected=expected, got=True)
        if self.max_gap_s is not None and self.sync not in _GAP_RULES:
            expected = (
                "`sync='interpolate'` or `sync='interpolate_estimate'` (only they bridge gaps; "
                f"`sync={self.sync!r}` does not)"
            )
            if self.sync == "interpolate_longer":
                expected = (
                    "`sync='interpolate'` or `sync='interpolate_estimate'` (only they limit "
                    "the gaps bridged; `sync='interpolate_longer'` bridges any, as evo does)"
                )
            raise self._fail(field="max_gap_s", expected=expected, got=self.max_gap_s)
        start, end = self.t_start_s, self.t_end_s
        if start is not None and end is not None and start > end:
            expected = f"an end at or after the start ({start!r} s)"
            raise self._fail(field="t_end_s", expected=expected, got=end)
        if self.offset_search_s is not None and not self.offset_auto:
            expected = "`offset_auto=True`: the range of the offset search"
            raise self._fail(field="offset_search_s", expected=expected, got=self.offset_search_s)

    @property
    def searches_offset(self) -> bool:
        """Whether the evaluation searches the clock offset: ``offset_auto``, matched in time.

        WHY: matched in space (``sync='spatial'``) poses are paired by position and no
        clock offset pairs one; the search is skipped (and noted unused) by
        :func:`~robot_msgs.evaluation.prepare`, and ``ape`` said it was "searching the
        clock offset" while it searched none (a review). The one rule of both.

        Examples
        --------
        >>> EvaluationSettings(offset_auto=True).searches_offset
        True
        >>> EvaluationSettings(offset_auto=True, sync="spatial").searches_offset
        False
        """
        return self.offset_auto and self.sync != "spatial"

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
        return self.as_dict()

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

    Each field says what it does. The rules between fields: a whole number of frames
    for ``f``, at most half a turn for angles; ``delta_tol`` only where it applies
    (seconds, and all pairs by ``m``, ``rad`` or ``deg``); the TUM protocol
    (``evaluate_rpe.py --fixed_delta --max_pairs 0``: every estimate pose paired with
    the one nearest ``delta`` later, :mod:`robot_msgs.evaluation.tum_rpe`) takes none of
    ``all_pairs``, ``pairs_from`` and ``delta_tol``.

    Examples
    --------
    >>> PairSettings(delta=1.0, delta_unit="s", all_pairs=True).record()["delta_unit"]
    's'
    """

    delta: Annotated[
        float,
        Meta(
            gt=0,
            description="interval of a pair, in delta_unit; several on the command "
            "line give one result row per delta",
        ),
        Flag("--delta", "D", group=_PAIRS, several=True),
        FINITE,
    ] = 1.0
    delta_unit: Annotated[
        DeltaUnit,
        _doc("f frames, s seconds, m metres of path, rad/deg rotation angle"),
        Flag("--delta-unit", group=_PAIRS),
    ] = "f"
    all_pairs: Annotated[
        bool,
        _doc("a pair from every pose, not consecutive ones"),
        Flag("--all-pairs", group=_PAIRS),
    ] = False
    pairs_from: Annotated[
        PairsFrom,
        _doc("select the pairs by the reference's motion (evo and the default: the estimate's)"),
        Flag("--pairs-from-reference", group=_PAIRS, when_set="reference"),
    ] = "estimate"
    delta_tol: Annotated[
        float,
        Meta(ge=0, lt=1, description="relative tolerance of all-pairs and seconds deltas (as evo)"),
        Flag("--delta-tol", "RATIO", group=_PAIRS),
    ] = 0.1
    protocol: Annotated[
        RpeProtocol,
        _doc(
            "evo: evo's pairs and association; tum: TUM RGB-D evaluate_rpe.py --fixed_delta "
            "--max_pairs 0 (its pairing, its nearest-stamp matching)"
        ),
        Flag("--protocol", group=_PAIRS),
    ] = "evo"

    def _validate(self) -> None:
        _check_finite(self)
        if self.delta_unit == "f" and not self.delta.is_integer():
            # evo's default unit too; a user who meant seconds is told the flag.
            expected = (
                "a whole number of frames (`delta_unit='s'` for seconds, `delta_unit='m'` "
                "for metres)"
            )
            raise self._fail(field="delta", expected=expected, got=self.delta)
        bound = _HALF_TURN.get(self.delta_unit)
        if bound is not None and self.delta > bound:
            expected = f"a rotation of at most {bound:g} {self.delta_unit}"
            raise self._fail(field="delta", expected=expected, got=self.delta)
        tolerant = self.delta_unit == "s" or (self.all_pairs and self.delta_unit != "f")
        if self.delta_tol != 0.1 and not tolerant and self.protocol == "evo":
            expected = (
                "no tolerance (it is the tolerance of seconds deltas and of all pairs by m, "
                f"rad or deg; this is delta_unit {self.delta_unit}"
                + ("" if self.delta_unit == "f" else " without all_pairs")
                + ")"
            )
            raise self._fail(field="delta_tol", expected=expected, got=self.delta_tol)
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
        return self.as_dict()

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

    relation: Annotated[
        ApeRelation,
        _doc(
            "translation (m, evo trans_part), angle_deg, angle_rad, full, rot_part, "
            "point_distance, or a signed axis x/y/z (m, estimate minus reference); "
            "along_track/cross_track/vertical (m; frame: the reference's horizontal "
            "direction of motion, world z up), roll/pitch/yaw_rad|_deg (rotation vector of "
            "R_ref^T R_est; frame: the reference body's axes); trajectopy's definitions: "
            "along_track_body/cross_track_body/vertical_body (m; frame: the reference body's "
            "x, y, z axes), roll/pitch/yaw_world_rad|_deg (xyz Euler angles of "
            "R_ref R_est^T; frame: the world's axes); nees, nees_position, nees_orientation, "
            "nees_planar (x, y, yaw) (the estimate's pose covariances, chi-square bounds); "
            "several on the command line give one result row each"
        ),
        Flag("--relation", "RELATION", several=True),
    ] = "translation"

    def _validate(self) -> None:
        self._normalise("relation", RELATION_ALIASES.get(self.relation, self.relation))

    def record(self) -> dict[str, Value]:
        """Return the metric's parameters, for a result's ``parameters``."""
        return {"relation": self.relation}


@message("evaluation/Rpe")
class Rpe(Msg):
    """The relative pose error as a metric of :func:`~robot_msgs.evaluation.evaluate`.

    ``relation`` (``--relation``): one of :data:`~robot_msgs.evaluation.RPE_RELATIONS`.
    The TUM protocol (``PairSettings.protocol="tum"``) takes ``translation``,
    ``angle_rad`` or ``angle_deg`` only.

    Attributes
    ----------
    pairs : tuple of PairSettings
        One per delta; several must differ only in ``delta`` (one result keeps one set
        of rules) and give one signal each.

    Examples
    --------
    >>> from robot_msgs.evaluation import PairSettings
    >>> spec = Rpe(pairs=(PairSettings(delta=1), PairSettings(delta=2)))
    >>> spec.record()["delta"]
    (1.0, 2.0)
    >>> Rpe(pairs=(PairSettings(delta=1), PairSettings(delta=2, delta_unit="s")))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected pair settings that differ only in delta \
(evaluate others separately), got list ['delta_unit'] - at `Rpe.pairs`
    """

    relation: Annotated[
        RpeRelation,
        _doc(
            "each pair (i, j)'s error E = (ref_i^-1 ref_j)^-1 (est_i^-1 est_j) as translation "
            "(m, evo trans_part), angle_deg, angle_rad, full, rot_part; a signed axis x/y/z "
            "(m, the estimate's motion minus the reference's; frame: the reference body's "
            "axes at j); along_track/cross_track/vertical (m; frame: the reference's "
            "horizontal direction of motion at j, world z up), roll/pitch/yaw_rad|_deg "
            "(rotation vector of E; frame: the reference body's axes at j); point_distance "
            "(m: how much the distances from pose i to j differ, unsigned), "
            "point_distance_error_ratio (%: that of the reference's distance)"
        ),
        Flag("--relation", "RELATION"),
    ] = "translation"
    pairs: tuple[PairSettings, ...] = (PairSettings(),)

    def _validate(self) -> None:
        self._normalise("relation", RELATION_ALIASES.get(self.relation, self.relation))
        if not self.pairs:
            raise self._fail(field="pairs", expected="at least one PairSettings", got=())
        first = self.pairs[0]
        for other in self.pairs[1:]:
            differ = [
                k
                for k in sorted(PairSettings.__struct_fields__)
                if k != "delta" and getattr(other, k) != getattr(first, k)
            ]
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

#: The shortest segment length, metres: a millimetre. Shorter, a segment measures the
#: ground truth's own noise (motion capture's is ~0.1-1 mm), not drift, and rpg cannot
#: even say it (it truncates lengths to centimetres); 1e-320 m (subnormal, its reciprocal
#: infinite) gave NumPy's overflow warning and n = 0 in every signal.
MIN_SEGMENT_LENGTH_M = 1e-3

#: rpg_trajectory_evaluation's default segment lengths as fractions of the path length.
RPG_FRACTIONS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5)

#: The metric a drift protocol's result is named by (``EvaluationResult.metric``): the
#: one place the two are paired (:func:`drift_protocol` reads it back).
DRIFT_METRICS: Mapping[DriftProtocol, str] = MappingProxyType(
    {"kitti": "kitti_drift", "rpg": "relative_error"}
)


def drift_protocol(metric: str) -> DriftProtocol | None:
    """Return the drift protocol whose results are named ``metric``; ``None``: no drift.

    Examples
    --------
    >>> drift_protocol("relative_error"), drift_protocol("ape")
    ('rpg', None)
    """
    return next((p for p, m in DRIFT_METRICS.items() if m == metric), None)


#: Drift's fields that one protocol takes: the protocol, and why the other does not.
_PROTOCOL_FIELDS = {
    "fractions": ("rpg", "kitti takes lengths in metres"),
    "max_diff_ratio": ("rpg", "kitti ends a segment past its length"),
    "step_frames": ("kitti", "rpg starts a segment at every frame"),
    "lengths_s": ("kitti", "rpg measures segments in metres"),
}


@message("evaluation/Drift")
class Drift(Msg):
    """Drift per distance travelled as a metric: KITTI devkit or rpg segments and their rules.

    ``protocol`` (``--protocol``): ``"kitti"`` (segments start every ``step_frames``
    frames, default 10, ``--step``) or ``"rpg"`` (segments start at every frame; lengths
    as ``fractions`` of the reference's path within the time range, default
    :data:`RPG_FRACTIONS`, ``--fractions``; a segment is kept within ``max_diff_ratio``
    of its length, default 0.2). ``lengths_m`` (``--lengths``): segment lengths in metres,
    distinct, at least :data:`MIN_SEGMENT_LENGTH_M` (default for KITTI
    :data:`KITTI_LENGTHS_M`; for rpg instead of the fractions). ``per_actual_length``
    (``--per-actual-length``, kitti only): divide by each segment's actual path distance
    instead of its nominal length, as trajectopy's ``rpe()`` does. ``lengths_s``
    (``--seconds``, kitti only, instead of ``lengths_m``): segment lengths in seconds; a
    segment ends at the first pose stamped *at or after* start + length (trajectopy's
    rule in time; the devkit's in metres ends *beyond*), each error divided by the
    segment's actual interval: ``translation_m_per_s`` and ``rotation_deg_per_s``.
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

    protocol: Annotated[
        DriftProtocol,
        _doc(
            "kitti: the KITTI devkit's segments (100..800 m, one every 10 frames), "
            "translation in % and rotation in deg/m; rpg: rpg_trajectory_evaluation's relative "
            "error over 10..50 % of the path length"
        ),
        Flag("--protocol"),
    ] = "kitti"
    lengths_m: (
        Annotated[
            tuple[Annotated[float, Meta(ge=MIN_SEGMENT_LENGTH_M)], ...],
            Meta(
                min_length=1,
                description="segment lengths in metres, at least 0.001, separated by spaces "
                "or commas (default 100 ... 800 for kitti; fractions of the path for rpg)",
            ),
            Flag("--lengths", "M", group=_SEGMENTS, commas=True),
            FINITE,
        ]
        | None
    ) = None
    step_frames: (
        Annotated[
            int,
            Meta(
                ge=1,
                le=MAX_STEP_FRAMES,  # a bound on untrusted input
                description="kitti: frames between segment starts (default 10)",
            ),
            Flag("--step", "FRAMES", group=_SEGMENTS),
        ]
        | None
    ) = None
    per_actual_length: Annotated[
        bool,
        _doc(
            "kitti: divide each segment's error by its actual reference path distance, not "
            "its nominal length (trajectopy's rpe(); with --step 1, its pairs)"
        ),
        Flag("--per-actual-length", group=_SEGMENTS),
    ] = False
    lengths_s: (
        Annotated[
            tuple[Annotated[float, Meta(gt=0)], ...],
            Meta(
                min_length=1,
                description="kitti: segment lengths in seconds instead of metres, separated "
                "by spaces or commas: a segment ends at the first pose at or after its start "
                "+ length, its errors divided by its actual interval, in m/s and deg/s "
                "(trajectopy's rpe() per second; with --step 1, its pairs)",
            ),
            Flag("--seconds", "S", group=_SEGMENTS, commas=True),
            FINITE,
        ]
        | None
    ) = None
    fractions: (
        Annotated[
            tuple[Annotated[float, Meta(gt=0)], ...],
            Meta(
                min_length=1,
                description="rpg: lengths as fractions of the path length, separated by "
                "spaces or commas (default 0.1 ... 0.5)",
            ),
            Flag("--fractions", "F", group=_SEGMENTS, commas=True),
            FINITE,
        ]
        | None
    ) = None
    max_diff_ratio: (
        Annotated[
            float,
            Meta(
                gt=0,
                description="rpg: a segment is kept within this share of its length (default 0.2)",
            ),
            FINITE,
        ]
        | None
    ) = None

    def _validate(self) -> None:
        kitti = self.protocol == "kitti"
        given = (
            (self.step_frames is not None or self.lengths_s is not None)
            if not kitti
            else not (self.fractions is None and self.max_diff_ratio is None)
        )
        if given:  # a field of the other protocol: which, and why (0.4 µs a check before)
            for name, (protocol, why) in _PROTOCOL_FIELDS.items():
                if getattr(self, name) is not None and (protocol == "kitti") != kitti:
                    expected = f"protocol {protocol!r} ({why})"
                    raise self._fail(field=name, expected=expected, got=getattr(self, name))
        if self.per_actual_length and not kitti:
            expected = "protocol 'kitti' (rpg divides by the nominal length)"
            raise self._fail(field="per_actual_length", expected=expected, got=True)
        if self.lengths_s is not None and self.lengths_m is not None:
            expected = "segment lengths in metres or in seconds, not both"
            raise self._fail(field="lengths_m", expected=expected, got=self.lengths_m)
        if self.lengths_s is not None and self.per_actual_length:
            # WHY refused, not ignored: segments in seconds divide by their actual interval.
            expected = "segments in metres (those in seconds divide by their actual interval)"
            raise self._fail(field="per_actual_length", expected=expected, got=True)
        if self.fractions is not None and self.lengths_m is not None:
            expected = "lengths or fractions, not both"
            raise self._fail(field="fractions", expected=expected, got=self.fractions)
        _check_finite(self)
        for field, unit in (("lengths_m", "m"), ("lengths_s", "s")):
            lengths: tuple[float, ...] = getattr(self, field) or ()
            if len(set(lengths)) < len(lengths):  # finite: a set finds a repeat
                twice = next(v for v in lengths if lengths.count(v) > 1)
                expected = f"distinct segment lengths ({twice:g} {unit} twice)"
                raise self._fail(field=field, expected=expected, got=lengths)

    def resolved_lengths_m(self, path_length_m: float) -> tuple[float, ...]:
        """Return the segment lengths, metres, for a reference path of ``path_length_m``.

        rpg's fractions are of the path length, truncated to centimetres as rpg does.
        """
        if self.lengths_s is not None:  # lengths in seconds: none in metres
            return ()
        if self.lengths_m is not None:
            return self.lengths_m
        if self.protocol == "kitti":
            return KITTI_LENGTHS_M
        fractions = RPG_FRACTIONS if self.fractions is None else self.fractions
        # A length past float64 (a fraction of 1.7e308) stays infinite, for the segment
        # rules to refuse by name: truncating it raised OverflowError.
        hundredths = (f * path_length_m * 100.0 for f in fractions)
        return tuple(math.trunc(h) / 100.0 if math.isfinite(h) else h for h in hundredths)

    def record(self, path_length_m: float) -> dict[str, Value]:
        """Return the parameters a result records (lengths resolved, defaults filled)."""
        lengths = self.resolved_lengths_m(path_length_m)
        if self.protocol == "kitti":
            step = 10 if self.step_frames is None else self.step_frames
            actual = {"per_actual_length": True} if self.per_actual_length else {}
            # Lengths in seconds or in metres, the other not recorded (res: no empty --lengths).
            given = (
                {"lengths_m": lengths} if self.lengths_s is None else {"lengths_s": self.lengths_s}
            )
            return {**given, "step_frames": step, **actual}
        fractions = None
        if self.lengths_m is None:
            fractions = RPG_FRACTIONS if self.fractions is None else self.fractions
        ratio = 0.2 if self.max_diff_ratio is None else self.max_diff_ratio
        return {"lengths_m": lengths, "fractions": fractions, "max_diff_ratio": ratio}


def check_inputs(reference: object, estimate: object, settings: object) -> None:
    """Check an entry point's trajectories and settings by type, in that order.

    Each by :func:`~robot_msgs.evaluation.arguments.check_argument`, whose error names it.

    ``reference`` and ``estimate`` must be :class:`~robot_msgs.trajectory.PoseTrajectory`
    values and ``settings`` an :class:`~robot_msgs.evaluation.EvaluationSettings` (a
    caller that takes ``None`` puts its default in first).
    """
    check_argument("reference", reference, PoseTrajectory)
    check_argument("estimate", estimate, PoseTrajectory)
    check_argument("settings", settings, EvaluationSettings)


#: rpg_trajectory_evaluation's association and alignment: TUM's one-to-one rule within
#: 0.02 s, then Sim(3).
RPG_SETTINGS = EvaluationSettings(align="sim3", sync="one_to_one", max_diff_s=0.02)


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
max_diff_s=1.0, max_distance_m=None, spatial_pairs='path', offset_s=0.0, max_gap_s=None, \
t_start_s=None, t_end_s=None, offset_auto=False, offset_search_s=None, confidence=0.95, \
transform_left=None, invert_transform_left=False, transform_right=None, \
transform_right_auto=False, invert_transform_right=False, project_to_plane=None)
    >>> decode_options(EvaluationSettings, {"alignn": "se3"}, where="m.toml [settings]")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: m.toml [settings]: unknown key `alignn`; expected one of \
align, align_window_s, confidence, invert_transform_left, invert_transform_right, max_diff_s, \
max_distance_m, max_gap_s, n_align, offset_auto, offset_s, offset_search_s, project_to_plane, \
spatial_pairs, sync, t_end_s, t_start_s, transform_left, transform_right, transform_right_auto
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
        raise key_error(err, where) from err


def key_error(err: ValidationError, where: str) -> FormatError:
    """Say a settings error as one about a manifest's key, in the manifest's spelling.

    The error names the field's key (`` `spatial_pairs` ``) and says the settings it
    names as TOML keys (`` `spatial_pairs = 'path'` ``), not as a call's arguments
    (`` `spatial_pairs='path'` ``, which the command line says as its flag).

    Examples
    --------
    >>> err = ValidationError("x", field="EvaluationSettings.max_gap_s",
    ...                       reason="expected `sync='interpolate'` (`offset_auto=True`: no)")
    >>> str(key_error(err, "m.toml [settings]"))
    "m.toml [settings]: `max_gap_s`: expected `sync = 'interpolate'` (`offset_auto = true`: no)"
    """
    key = err.field.rsplit(".", 1)[-1] if err.field else ""
    detail = f"`{key}`: {_NAMED.sub(_as_key, err.reason)}" if key else str(err)
    return FormatError(f"{where}: {detail}")


#: A field a library message names as a call would give it: `align='origin'`, `t_end_s=`.
_NAMED = re.compile(r"`(\w+)=([^`]*)`")


def _as_key(match: re.Match[str]) -> str:
    """Write `` `key='v'` `` as TOML, `` `key = 'v'` ``; `` `key=` `` (any value): `` `key` ``."""
    key, value = match.group(1), match.group(2)
    if not value:
        return f"`{key}`"
    toml = {"True": "true", "False": "false"}.get(value, value)
    if value == "None":
        return f"no `{key}`"
    return f"`{key} = {toml}`"
