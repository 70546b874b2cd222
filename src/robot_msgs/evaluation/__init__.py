"""Trajectory evaluation: time range, association, alignment, and the metrics built on them.

:func:`evaluate` computes any of the metrics :class:`Ape`, :class:`Rpe` and
:class:`Drift` with one :class:`EvaluationSettings`, each as an
:class:`~robot_msgs.compare.EvaluationResult`: the ``Comparison`` and the per-pose series
it summarises; :func:`ape`, :func:`rpe`, :func:`kitti_drift` and :func:`relative_error`
compute one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.evaluation.alignment import align, umeyama
    from robot_msgs.evaluation.association import Association, associate
    from robot_msgs.evaluation.doctor import diagnose, diagnose_files
    from robot_msgs.evaluation.drift import kitti_segments, rpg_segments
    from robot_msgs.evaluation.entry import (
        Metric,
        ape,
        evaluate,
        kitti_drift,
        relative_error,
        rpe,
    )
    from robot_msgs.evaluation.hand_eye import estimate_extrinsic
    from robot_msgs.evaluation.offset import estimate_offset
    from robot_msgs.evaluation.pairs import path_distances, select_pairs
    from robot_msgs.evaluation.projection import euler_sxyz_from_quat_xyzw, project_to_plane
    from robot_msgs.evaluation.read_settings import ReadSettings
    from robot_msgs.evaluation.relations import (
        APE_RELATIONS,
        RELATION_UNITS,
        RPE_RELATIONS,
        TRAJECTOPY_RELATIONS,
        ape_errors,
        rpe_errors,
    )
    from robot_msgs.evaluation.settings import (
        ALIGNMENT_METHODS,
        DELTA_UNITS,
        KITTI_LENGTHS_M,
        PAIRS_FROM,
        RPG_FRACTIONS,
        RPG_SETTINGS,
        SYNC_METHODS,
        Ape,
        Drift,
        EvaluationSettings,
        PairSettings,
        Rpe,
    )
    from robot_msgs.evaluation.spatial import associate_spatially
    from robot_msgs.evaluation.transforms import apply_transforms, sim3_inverse

__all__ = [
    "ALIGNMENT_METHODS",
    "APE_RELATIONS",
    "DELTA_UNITS",
    "KITTI_LENGTHS_M",
    "PAIRS_FROM",
    "RELATION_UNITS",
    "RPE_RELATIONS",
    "RPG_FRACTIONS",
    "RPG_SETTINGS",
    "SYNC_METHODS",
    "TRAJECTOPY_RELATIONS",
    "Ape",
    "Association",
    "Drift",
    "EvaluationSettings",
    "Metric",
    "PairSettings",
    "ReadSettings",
    "Rpe",
    "align",
    "ape",
    "ape_errors",
    "apply_transforms",
    "associate",
    "associate_spatially",
    "diagnose",
    "diagnose_files",
    "estimate_extrinsic",
    "estimate_offset",
    "euler_sxyz_from_quat_xyzw",
    "evaluate",
    "kitti_drift",
    "kitti_segments",
    "path_distances",
    "project_to_plane",
    "relative_error",
    "rpe",
    "rpe_errors",
    "rpg_segments",
    "select_pairs",
    "sim3_inverse",
    "umeyama",
]

__getattr__ = exports(
    __name__,
    {
        "alignment": ("align", "umeyama"),
        "association": ("Association", "associate"),
        "doctor": ("diagnose", "diagnose_files"),
        "drift": ("kitti_segments", "rpg_segments"),
        "entry": ("Metric", "ape", "evaluate", "kitti_drift", "relative_error", "rpe"),
        "hand_eye": ("estimate_extrinsic",),
        "offset": ("estimate_offset",),
        "pairs": ("path_distances", "select_pairs"),
        "projection": ("euler_sxyz_from_quat_xyzw", "project_to_plane"),
        "read_settings": ("ReadSettings",),
        "relations": (
            "APE_RELATIONS",
            "RELATION_UNITS",
            "RPE_RELATIONS",
            "TRAJECTOPY_RELATIONS",
            "ape_errors",
            "rpe_errors",
        ),
        "settings": (
            "ALIGNMENT_METHODS",
            "DELTA_UNITS",
            "KITTI_LENGTHS_M",
            "PAIRS_FROM",
            "RPG_FRACTIONS",
            "RPG_SETTINGS",
            "SYNC_METHODS",
            "Ape",
            "Drift",
            "EvaluationSettings",
            "PairSettings",
            "Rpe",
        ),
        "spatial": ("associate_spatially",),
        "transforms": ("apply_transforms", "sim3_inverse"),
    },
)
