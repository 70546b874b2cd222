r"""evo's ``--save_results`` zips, read without pickle, as ``EvaluationResult`` messages.

evo 1.38.1 (``tools/file_interface.py``, ``save_res_file``) writes a zip holding
``info.json`` (``title``, ``ref_name``, ``est_name``, ``label``), ``stats.json``
(``rmse``, ``mean``, ``median``, ``std``, ``min``, ``max``, ``sse``), one ``NAME.npy``
per array (``error_array``, ``timestamps``, ``seconds_from_start``, ``distances``,
``distances_from_start``, ``alignment_transformation_sim3``...) and, when evo was told
to, the trajectories as ``.tum`` text. :func:`read_evo_result` reads the entries with
bounds (:class:`~robot_msgs.io.zip_archive.ZipArchive`), the JSON with its nesting
bounded and every array with :func:`~robot_msgs.io.npy.array_from_npy`: no pickle, so a
zip from anywhere cannot run code, and only float arrays of the shapes evo writes
(:data:`EVO_ARRAYS`). Entries are taken by their exact names; one that could pass for
another (``zz/error_array.npy`` beside ``error_array.npy``) is refused, not chosen.

The statistics are evo's own numbers (``rms`` is evo's ``rmse``, and so on); the fields
evo does not write (``max_abs``, ``p95_abs``, ``final``) come from ``error_array``.
evo records its settings only in the title text (``"APE w.r.t. translation part (m)\n
(with SE(3) Umeyama alignment)"``); :func:`evo_settings` maps the phrases evo 1.38.1
writes (``main_ape.py``, ``main_rpe.py``, ``core/metrics.py``) to our field names
(``relation``, ``align``, ``n_align``, ``delta``, ``delta_unit``, ``all_pairs``,
``project_to_plane``: ``n_align`` None, all poses, without evo's "(aligned poses: N)",
``project_to_plane`` None without its "(projected to ...)"), and the result's notes keep
the title itself. Settings evo does not write (its association tolerance, for one) are
absent, not guessed.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.alignment import Alignment
from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.result import EvaluationResult
from robot_msgs.compare.signal import ErrorSeries, Signal
from robot_msgs.compare.statistics import error_stats
from robot_msgs.documents import json_kind, parse_json
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.evaluation.settings import PLANES
from robot_msgs.io.npy import array_from_npy
from robot_msgs.io.result_files import _text
from robot_msgs.io.zip_archive import ZipArchive, _quoted
from robot_msgs.trajectory.pose import PoseTrajectory, _empty

if TYPE_CHECKING:
    import os

    from robot_msgs.msg import Value

__all__ = ["EVO_ARRAYS", "EVO_RELATIONS", "evo_settings", "read_evo_distances", "read_evo_result"]

#: The arrays evo 1.38.1 writes (``main_ape.py``, ``main_rpe.py``, ``core/metrics.py``),
#: each float64: ``N`` one value per error (shape ``(N,)``), ``4x4`` a matrix.
EVO_ARRAYS = {
    "error_array": "N",
    "timestamps": "N",
    "seconds_from_start": "N",
    "distances": "N",
    "distances_from_start": "N",
    "alignment_transformation_sim3": "4x4",
}

#: evo's pose relation phrase (``PoseRelation.value``) -> our relation name.
EVO_RELATIONS = {
    "translation part": "translation",
    "rotation angle in degrees": "angle_deg",
    "rotation angle in radians": "angle_rad",
    "full transformation": "full",
    "rotation part": "rot_part",
    "point distance error ratio": "point_distance_error_ratio",
    "point distance": "point_distance",
}
_ALIGNMENTS = {
    "(with SE(3) Umeyama alignment)": "se3",
    "(with Sim(3) Umeyama alignment)": "sim3",
    "(scale corrected)": "scale",
    "(with origin alignment)": "origin",
    "(not aligned)": "none",
}
_UNITS = {"m": "m", "deg": "deg", "rad": "rad", "%": "%", "unit-less": "", "deg/m": "deg/m"}
_DELTA_UNITS = {"f": "f", "m": "m", "deg": "deg", "rad": "rad", "frames": "f"}
_HEAD = re.compile(r"^(APE|RPE) w\.r\.t\. (.+?)(?: \(([^)]*)\))?$")
_DELTA = re.compile(r"^for delta = (\S+) \((\w+)\) using (all|consecutive) pairs")
_N_ALIGN = re.compile(r"\(aligned poses: (\d+)\)")
_PLANE = re.compile(r"^\(projected to (\S+) plane\)$")


def evo_settings(title: str) -> tuple[str, str, str, dict[str, Value]]:
    r"""Read evo's result title: metric, relation, unit and the settings it states.

    Raises
    ------
    FormatError
        Not a title evo writes: no ``APE w.r.t. ...``/``RPE w.r.t. ...`` head, a delta
        or an aligned-pose count that is no finite number, a delta unit evo has not
        (evo's are frames, degrees, radians and metres), a plane evo has not.

    Examples
    --------
    >>> evo_settings("APE w.r.t. translation part (m)\n(with SE(3) Umeyama alignment)")
    ... # doctest: +NORMALIZE_WHITESPACE
    ('ape', 'translation', 'm',
     {'relation': 'translation', 'align': 'se3', 'project_to_plane': None, 'n_align': None})
    >>> evo_settings("RPE w.r.t. rotation angle in degrees (deg)\nfor delta = 1.0 (m) using "
    ...              "consecutive pairs\n(not aligned)")[3]["delta_unit"]
    'm'
    """
    lines = [line.strip() for line in title.splitlines() if line.strip()]
    head = _HEAD.match(lines[0]) if lines else None
    if head is None:
        msg = f"expected an evo title 'APE w.r.t. ...' or 'RPE w.r.t. ...', got {title!r}"
        raise FormatError(msg)
    metric = head.group(1).lower()
    relation = EVO_RELATIONS.get(head.group(2), head.group(2).replace(" ", "_"))
    unit = _UNITS.get(head.group(3) or "", head.group(3) or "")
    settings: dict[str, Value] = {"relation": relation}
    for line in lines[1:]:
        delta = _DELTA.match(line)
        if delta is not None:
            settings["delta"] = _title_number(delta.group(1), line)
            settings["delta_unit"] = _delta_unit(delta.group(2), line)
            settings["all_pairs"] = delta.group(3) == "all"
        for phrase, method in _ALIGNMENTS.items():
            if line.startswith(phrase):
                # --align_origin -s: "(scale corrected)", then "(with origin alignment)"
                # on the next line (main_ape.py, main_rpe.py): our origin_scale, not origin
                scaled = method == "origin" and settings.get("align") == "scale"
                settings["align"] = "origin_scale" if scaled else method
        plane = _PLANE.match(line)
        if plane is not None:  # evo's --project_to_plane: our project_to_plane
            if plane.group(1) not in PLANES:
                msg = f"expected a plane of evo's ({', '.join(PLANES)}), got {plane.group(1)!r}"
                raise FormatError(msg)
            settings["project_to_plane"] = plane.group(1)
        n_align = _N_ALIGN.search(line)
        if n_align is not None:
            settings["n_align"] = int(_title_number(n_align.group(1), line))
    # evo writes "(projected to ...)" whenever it projects, and "(aligned poses: N)"
    # whenever --n_to_align acts (with -a or -s): none is no projection and all poses,
    # not a setting evo left unsaid (res named such a zip beside one that said it as
    # "not recorded", and offered --force-ranking "if they were made alike").
    settings.setdefault("project_to_plane", None)
    settings.setdefault("n_align", None)
    return metric, relation, unit, settings


def _delta_unit(word: str, line: str) -> str:
    """Return our delta unit for the word of evo's title; a unit evo has not is refused.

    evo's RPE takes frames, degrees, radians and metres (``--delta_unit f|d|r|m``) and
    writes them as ``frames`` (``f`` before), ``deg``, ``rad`` and ``m``. Any other word
    was taken as it stood, and ``res`` showed ``--delta-unit parsecs`` (a review).
    """
    unit = _DELTA_UNITS.get(word)
    if unit is None:
        words = ", ".join(_DELTA_UNITS)
        msg = f"expected a delta unit of evo's ({words}), got {word!r} in {line!r:.120}"
        raise FormatError(msg)
    return unit


def _title_number(text: str, line: str) -> float:
    """Return a number of evo's title; a word, NaN or inf is in no title evo writes.

    WHY: ``float('x')`` let a bare ValueError out of :func:`read_evo_result` (and an
    integer of 5000 digits, past Python's conversion limit).
    """
    try:
        value = float(text)
    except (ValueError, OverflowError):
        value = math.nan
    if not math.isfinite(value):
        msg = f"expected a finite number in evo's title, got {line!r:.120}"
        raise FormatError(msg)
    return value


def _read_arrays(archive: ZipArchive, source: str) -> dict[str, np.ndarray[Any, Any]]:
    """Read evo's arrays by their exact names, each checked against :data:`EVO_ARRAYS`."""
    arrays: dict[str, np.ndarray[Any, Any]] = {}
    for name, shape in EVO_ARRAYS.items():
        entry = f"{name}.npy"
        if entry not in archive.names:
            continue
        where = f"{source}: {entry}"
        array = array_from_npy(archive.read(entry), where=where, kinds="f")
        if shape == "N" and array.ndim != 1:
            msg = f"{where}: expected shape (N,), one value per error, got {array.shape}"
            raise FormatError(msg)
        if shape == "4x4" and array.shape != (4, 4):
            msg = f"{where}: expected a 4x4 matrix, got shape {array.shape}"
            raise FormatError(msg)
        arrays[name] = array.astype(np.float64)
    errors = arrays.get("error_array")
    for name, array in arrays.items():
        if EVO_ARRAYS[name] == "N" and errors is not None and array.size != errors.size:
            msg = (
                f"{source}: {name}.npy: expected one value per error ({errors.size}, the "
                f"length of error_array.npy), got {array.size}"
            )
            raise FormatError(msg)
    return arrays


def _check_names(names: tuple[str, ...], source: str) -> None:
    """Refuse an entry that could be taken for one evo writes (``zz/error_array.npy``)."""
    known = {"info.json", "stats.json", *(f"{n}.npy" for n in EVO_ARRAYS)}
    stems = {name.split(".", 1)[0]: name for name in known}
    for name in names:
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        stem = base.split(".", 1)[0].lower()
        if name not in known and stem in stems:
            msg = (
                f"{source}: the entry {_quoted(name)} shadows {stems[stem]}: evo writes each at "
                "the top of the zip, once; refusing a zip that holds both"
            )
            raise FormatError(msg)


def _document(archive: ZipArchive, name: str, source: str) -> dict[str, Any]:
    where = f"{source}: {name}"
    tree = parse_json(_text(archive.read(name, document=True), where), source=where)
    if not isinstance(tree, dict):
        msg = f"{where}: expected a JSON object, got a JSON {json_kind(tree)}"
        raise FormatError(msg)
    return tree


#: How far evo's statistics may be from those of its error array, relative: rounding.
_STATS_REL = 1e-9


def _stats(raw: dict[str, Any], errors: np.ndarray[Any, Any], source: str) -> Any:
    base = error_stats(errors)
    fields = {"rms": "rmse", "mean": "mean", "median": "median", "std": "std"}
    fields |= {"min": "min", "max": "max"}
    values: dict[str, float] = {}
    for ours, theirs in fields.items():
        value = raw.get(theirs)
        number = _float(value)
        if number is None:
            got = "a number beyond float64" if isinstance(value, int) else f"{value!r:.40}"
            msg = f"{source}: stats.json: expected a number at {theirs!r}, got {got}"
            raise FormatError(msg)
        values[ours] = number
    if base.n == 0:
        return base
    # evo computes them from the same array (NumPy, float64): they agree to rounding. A
    # stats.json that says otherwise was edited or belongs to another result.
    scale = max(abs(base.min), abs(base.max))
    for ours, theirs in fields.items():
        recomputed = float(getattr(base, ours))
        if not math.isclose(
            values[ours], recomputed, rel_tol=_STATS_REL, abs_tol=_STATS_REL * scale
        ):
            msg = (
                f"{source}: stats.json does not fit error_array: {theirs} {values[ours]!r} "
                f"where the errors give {recomputed!r}"
            )
            raise FormatError(msg)
    values["max_abs"] = max(abs(values["min"]), abs(values["max"]))
    values["p95_abs"] = min(base.p95_abs, values["max_abs"])
    values["final"] = min(max(base.final, values["min"]), values["max"])
    try:
        return base.replace(**values)
    except ValidationError as err:
        msg = f"{source}: stats.json does not fit error_array: {err}"
        raise FormatError(msg) from err


def _float(value: object) -> float | None:
    """``value`` as a float when it is a JSON number float64 holds, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:  # an integer of 309 digits or more
        return None


def read_evo_distances(path: str | os.PathLike[str]) -> np.ndarray[Any, Any] | None:
    """Return an evo zip's ``distances_from_start`` (metres, one per error), or None.

    What evo writes beside the errors as ``traj_ref.distances``: for an APE result the
    distance along the reference path to each error's pose; for an RPE result the
    straight lines between the pairs' end poses added up (evo keeps only those poses
    first), not the path. :func:`read_evo_result` keeps no trajectory to measure it on,
    so ``res --plot`` reads it here for its error-over-distance panel (APE only).

    Raises
    ------
    FormatError
        As :func:`read_evo_result`, for the archive and its arrays.
    """
    with ZipArchive(path, what="an evo result zip") as archive:
        _check_names(archive.names, str(path))
        return _read_arrays(archive, str(path)).get("distances_from_start")


@np.errstate(all="ignore")  # values near float64's limits are refused, not warned about
def read_evo_result(path: str | os.PathLike[str]) -> EvaluationResult:
    r"""Read an evo ``--save_results`` zip as an :class:`EvaluationResult`, without pickle.

    The result's one signal is the title's relation (``translation``, ``angle_deg``...)
    with evo's statistics; its series holds ``error_array`` at ``timestamps`` (the
    estimate's stamps, for RPE the second pose of each pair). The matched trajectories
    are empty (evo's zip holds them only on request, and then not the matched rows),
    and the alignment is evo's ``alignment_transformation_sim3`` when present. The
    comparison's ``counts`` has ``errors``; its ``notes`` say where the numbers came from.

    Raises
    ------
    FormatError
        Not a zip, no ``info.json``/``stats.json``/``error_array.npy``, an entry past the bounds of
        :mod:`robot_msgs.limits` (a zip bomb), an encrypted or damaged entry, an entry
        that shadows one evo writes (``zz/error_array.npy``), an array that is not
        float64 of the documented shape (:data:`EVO_ARRAYS`; ``timestamps`` and the other
        series one value per error), a title evo would not write, statistics that do
        not fit the errors.

    Examples
    --------
    >>> import io, tempfile, zipfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "ape.zip"
    >>> errors = io.BytesIO()
    >>> np.save(errors, np.array([0.5, 0.5]))
    >>> with zipfile.ZipFile(path, "w") as z:
    ...     z.writestr("error_array.npy", errors.getvalue())
    ...     z.writestr("info.json", '{"title": "APE w.r.t. translation part (m)\\n'
    ...                '(not aligned)", "ref_name": "gt.tum", "est_name": "est.tum"}')
    ...     z.writestr("stats.json", '{"rmse": 0.5, "mean": 0.5, "median": 0.5, '
    ...                '"std": 0.0, "min": 0.5, "max": 0.5, "sse": 0.5}')
    >>> result = read_evo_result(path)
    >>> result.stats["translation"].rms, result.settings["align"], result.comparison.estimate
    (0.5, 'none', 'est.tum')
    >>> result.series["translation"].errors.tolist()
    [0.5, 0.5]
    """
    source = str(path)
    with ZipArchive(path, what="an evo result zip") as archive:
        if not {"info.json", "stats.json"} <= set(archive.names):
            msg = f"{source}: not an evo result zip (expected info.json and stats.json)"
            raise FormatError(msg)
        if "error_array.npy" not in archive.names:  # WHY: read as no errors, evo's rmse "-"
            msg = f"{source}: no error_array.npy, the errors evo writes in every result zip"
            if "error_array.npz" in archive.names:  # older evo named its .npy arrays NAME.npz
                msg = (
                    f"{source}: expected error_array.npy (evo 1.38.1), got error_array.npz: "
                    "a zip of an older evo, whose titles and arrays are not read here"
                )
            raise FormatError(msg)
        _check_names(archive.names, source)
        info = _document(archive, "info.json", source)
        raw_stats = _document(archive, "stats.json", source)
        arrays = _read_arrays(archive, source)
    try:
        metric, relation, unit, settings = evo_settings(str(info.get("title", "")))
    except FormatError as err:
        msg = f"{source}: info.json title: {err}"
        raise FormatError(msg) from err
    errors = arrays["error_array"]
    stamps = arrays.get("timestamps")
    frames = stamps is None
    if stamps is None:  # evo writes none for a path without stamps (KITTI): the index
        stamps = np.arange(errors.size, dtype=np.float64)
    stats = _stats(raw_stats, errors, source)
    sim3 = arrays.get("alignment_transformation_sim3")
    method = str(settings.get("align", "none"))
    alignment = Alignment(method=method, rotation=np.eye(3), translation_m=np.zeros(3))
    if sim3 is not None:
        matrix = sim3
        finite = bool(np.isfinite(matrix).all())
        scale = float(np.cbrt(np.linalg.det(matrix[:3, :3]))) if finite else 0.0
        if not scale > 0:
            msg = f"{source}: alignment_transformation_sim3 is not a similarity (det <= 0 or NaN)"
            raise FormatError(msg)
        try:
            alignment = alignment.replace(
                rotation=matrix[:3, :3] / scale, translation_m=matrix[:3, 3], scale=scale
            )
        except ValidationError as err:
            msg = f"{source}: alignment_transformation_sim3 is not a similarity: {err}"
            raise FormatError(msg) from err
    note = (
        f"read from evo's result zip {Path(path).name}: statistics as evo computed them; "
        f"evo's title: {' '.join(str(info.get('title', '')).split())}"
    )
    try:
        series = ErrorSeries(stamps_s=np.asarray(stamps, dtype=np.float64).ravel(), errors=errors)
        comparison = Comparison(
            metric=metric,
            signals=(
                Signal(
                    name=relation,
                    quantity=relation,
                    unit=unit,
                    stats=stats,
                    series=series,
                    delta=settings.get("delta"),  # type: ignore[arg-type]  # a float when present
                    delta_unit=settings.get("delta_unit"),  # type: ignore[arg-type]
                ),
            ),
            parameters=settings,
            estimate=str(info.get("est_name", "")),
            reference=str(info.get("ref_name", "")),
            counts={"errors": int(errors.size)},
            notes=(note,),
        )
        empty = _empty(PoseTrajectory)
        return EvaluationResult(
            comparison=comparison,
            reference=empty,
            compared_estimate=empty.replace(stamps_are_frames=frames),  # says what the stamps are
            alignment=alignment,
        )
    except ValidationError as err:  # arrays that do not fit each other (no error_array...)
        msg = f"{source}: {err}"
        raise FormatError(msg) from err
