"""Trajectory evaluation: time range, association, alignment, and the metrics built on them.

Every metric takes the trajectories, an :class:`EvaluationSettings` (and for RPE a
:class:`PairSettings`) and returns an :class:`~robot_msgs.compare.EvaluationResult`: the
``Comparison`` and the per-pose series it summarises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.evaluation.absolute import ape, ape_from_prepared
    from robot_msgs.evaluation.association import Association, associate
    from robot_msgs.evaluation.drift import (
        KITTI_LENGTHS_M,
        RPG_FRACTIONS,
        RPG_SETTINGS,
        kitti_drift,
        kitti_segments,
        relative_error,
        rpg_segments,
    )
    from robot_msgs.evaluation.fitting import align, umeyama
    from robot_msgs.evaluation.hand_eye import estimate_extrinsic
    from robot_msgs.evaluation.offset import estimate_offset
    from robot_msgs.evaluation.pairs import path_distances, select_pairs
    from robot_msgs.evaluation.pipeline import Prepared, prepare
    from robot_msgs.evaluation.projection import euler_sxyz_from_quat_xyzw, project_to_plane
    from robot_msgs.evaluation.relations import (
        APE_RELATIONS,
        RELATION_UNITS,
        RPE_RELATIONS,
        ape_errors,
        rpe_errors,
    )
    from robot_msgs.evaluation.relative import rpe, rpe_from_prepared
    from robot_msgs.evaluation.settings import (
        ALIGNMENT_METHODS,
        DELTA_UNITS,
        PAIRS_FROM,
        SYNC_METHODS,
        EvaluationSettings,
        PairSettings,
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
    "Association",
    "EvaluationSettings",
    "PairSettings",
    "Prepared",
    "align",
    "ape",
    "ape_errors",
    "ape_from_prepared",
    "apply_transforms",
    "associate",
    "associate_spatially",
    "estimate_extrinsic",
    "estimate_offset",
    "euler_sxyz_from_quat_xyzw",
    "kitti_drift",
    "kitti_segments",
    "path_distances",
    "prepare",
    "project_to_plane",
    "relative_error",
    "rpe",
    "rpe_errors",
    "rpe_from_prepared",
    "rpg_segments",
    "select_pairs",
    "sim3_inverse",
    "umeyama",
]

__getattr__ = exports(
    __name__,
    {
        "absolute": ("ape", "ape_from_prepared"),
        "association": ("Association", "associate"),
        "drift": (
            "KITTI_LENGTHS_M",
            "RPG_FRACTIONS",
            "RPG_SETTINGS",
            "kitti_drift",
            "kitti_segments",
            "relative_error",
            "rpg_segments",
        ),
        "fitting": ("align", "umeyama"),
        "hand_eye": ("estimate_extrinsic",),
        "offset": ("estimate_offset",),
        "pairs": ("path_distances", "select_pairs"),
        "pipeline": ("Prepared", "prepare"),
        "projection": ("euler_sxyz_from_quat_xyzw", "project_to_plane"),
        "relations": (
            "APE_RELATIONS",
            "RELATION_UNITS",
            "RPE_RELATIONS",
            "ape_errors",
            "rpe_errors",
        ),
        "relative": ("rpe", "rpe_from_prepared"),
        "settings": (
            "ALIGNMENT_METHODS",
            "DELTA_UNITS",
            "PAIRS_FROM",
            "SYNC_METHODS",
            "EvaluationSettings",
            "PairSettings",
        ),
        "spatial": ("associate_spatially",),
        "transforms": ("apply_transforms", "sim3_inverse"),
    },
)
