r"""evo's ``--save_results`` zips, read without pickle, as ``EvaluationResult`` messages.

evo 1.38.1 (``tools/file_interface.py``, ``save_res_file``) writes a zip holding
``info.json`` (``title``, ``ref_name``, ``est_name``, ``label``), ``stats.json``
(``rmse``, ``mean``, ``median``, ``std``, ``min``, ``max``, ``sse``), one ``NAME.npy``
per array (``error_array``, ``timestamps``, ``seconds_from_start``, ``distances``,
``distances_from_start``, ``alignment_transformation_sim3``...) and, when evo was told
to, the trajectories as ``.tum`` text. :func:`read_evo_result` reads the JSON with
:mod:`json` and every array with ``numpy.load(..., allow_pickle=False)``, so a zip from
anywhere cannot run code; object arrays are refused.

The statistics are evo's own numbers (``rms`` is evo's ``rmse``, and so on); the fields
evo does not write (``max_abs``, ``p95_abs``, ``final``) come from ``error_array``.
evo records its settings only in the title text (``"APE w.r.t. translation part (m)\n
(with SE(3) Umeyama alignment)"``); :func:`evo_settings` maps the phrases evo 1.38.1
writes (``main_ape.py``, ``main_rpe.py``, ``core/metrics.py``) to our field names
(``relation``, ``align``, ``n_align``, ``delta``, ``delta_unit``, ``all_pairs``), and the
result's notes keep the title itself. Settings evo does not write (its association
tolerance, for one) are absent, not guessed.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.alignment import Alignment
from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.result import EvaluationResult
from robot_msgs.compare.signal import ErrorSeries, Signal
from robot_msgs.compare.statistics import error_stats
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    import os

    from robot_msgs.msg import Value

__all__ = ["EVO_RELATIONS", "evo_settings", "read_evo_result"]

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


def evo_settings(title: str) -> tuple[str, str, str, dict[str, Value]]:
    r"""Read evo's result title: metric, relation, unit and the settings it states.

    Examples
    --------
    >>> evo_settings("APE w.r.t. translation part (m)\n(with SE(3) Umeyama alignment)")
    ('ape', 'translation', 'm', {'relation': 'translation', 'align': 'se3'})
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
            settings["delta"] = float(delta.group(1))
            settings["delta_unit"] = _DELTA_UNITS.get(delta.group(2), delta.group(2))
            settings["all_pairs"] = delta.group(3) == "all"
        for phrase, method in _ALIGNMENTS.items():
            if line.startswith(phrase):
                settings["align"] = method
        n_align = _N_ALIGN.search(line)
        if n_align is not None:
            settings["n_align"] = int(n_align.group(1))
    return metric, relation, unit, settings


def _array(archive: zipfile.ZipFile, name: str, source: str) -> np.ndarray[Any, Any]:
    try:
        with io.BytesIO(archive.read(name)) as buffer:
            array: np.ndarray[Any, Any] = np.load(buffer, allow_pickle=False)
    except ValueError as err:  # object arrays need pickle: refused
        msg = f"{source}: {name}: expected a plain NumPy array (no pickle), got {err}"
        raise FormatError(msg) from err
    return array


def _stats(raw: dict[str, Any], errors: np.ndarray[Any, Any], source: str) -> Any:
    base = error_stats(errors)
    fields = {"rms": "rmse", "mean": "mean", "median": "median", "std": "std"}
    fields |= {"min": "min", "max": "max"}
    values: dict[str, float] = {}
    for ours, theirs in fields.items():
        value = raw.get(theirs)
        if not isinstance(value, int | float) or isinstance(value, bool):
            msg = f"{source}: stats.json: expected a number at {theirs!r}, got {value!r}"
            raise FormatError(msg)
        values[ours] = float(value)
    if base.n == 0:
        return base
    values["max_abs"] = max(abs(values["min"]), abs(values["max"]))
    values["p95_abs"] = min(base.p95_abs, values["max_abs"])
    values["final"] = min(max(base.final, values["min"]), values["max"])
    try:
        return base.replace(**values)
    except ValidationError as err:
        msg = f"{source}: stats.json does not fit error_array: {err}"
        raise FormatError(msg) from err


def _empty_trajectory() -> PoseTrajectory:
    return PoseTrajectory(
        stamps_s=np.zeros(0),
        positions_xyz=np.zeros((0, 3)),
        orientations_quat_xyzw=np.zeros((0, 4)),
    )


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
        Not a zip, no ``info.json``/``stats.json``, an array that needs pickle, a title
        evo would not write, statistics that do not fit the errors.

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
    try:
        archive = zipfile.ZipFile(Path(path))
    except (zipfile.BadZipFile, OSError) as err:
        msg = f"{source}: not an evo result zip ({err})"
        raise FormatError(msg) from err
    with archive:
        names = set(archive.namelist())
        if not {"info.json", "stats.json"} <= names:
            msg = f"{source}: not an evo result zip (expected info.json and stats.json)"
            raise FormatError(msg)
        try:
            info = json.loads(archive.read("info.json").decode("utf-8"))
            raw_stats = json.loads(archive.read("stats.json").decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            msg = f"{source}: info.json or stats.json is not JSON ({err})"
            raise FormatError(msg) from err
        arrays = {
            Path(n).stem: _array(archive, n, source)
            for n in sorted(names)
            if n.endswith((".npy", ".npz"))
        }
    if not isinstance(info, dict) or not isinstance(raw_stats, dict):
        msg = f"{source}: info.json and stats.json must hold JSON objects"
        raise FormatError(msg)
    try:
        metric, relation, unit, settings = evo_settings(str(info.get("title", "")))
    except FormatError as err:
        msg = f"{source}: info.json title: {err}"
        raise FormatError(msg) from err
    errors = np.asarray(arrays.get("error_array", np.zeros(0)), dtype=np.float64).ravel()
    stamps = arrays.get("timestamps")
    if stamps is None or np.asarray(stamps).size != errors.size:
        stamps = np.arange(errors.size, dtype=np.float64)
    stats = _stats(raw_stats, errors, source) if errors.size or raw_stats else error_stats([])
    sim3 = arrays.get("alignment_transformation_sim3")
    method = str(settings.get("align", "none"))
    alignment = Alignment(method=method, rotation=np.eye(3), translation_m=np.zeros(3))
    if sim3 is not None and np.shape(sim3) == (4, 4):
        matrix = np.asarray(sim3, dtype=np.float64)
        scale = float(np.cbrt(np.linalg.det(matrix[:3, :3])))
        try:
            alignment = alignment.replace(
                rotation=matrix[:3, :3] / scale, translation_m=matrix[:3, 3], scale=scale
            )
        except ValidationError as err:
            msg = f"{source}: alignment_transformation_sim3 is not a similarity: {err}"
            raise FormatError(msg) from err
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
        notes=(
            (
                f"read from evo's result zip {Path(path).name}: statistics as evo computed them; "
                f"evo's title: {' '.join(str(info.get('title', '')).split())}"
            ),
        ),
    )
    empty = _empty_trajectory()
    return EvaluationResult(
        comparison=comparison,
        reference=empty,
        estimate=empty,
        alignment=alignment,
    )
