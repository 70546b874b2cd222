"""Trajectory evaluation: association in time, alignment, and the metrics built on them."""

from robot_msgs.evaluation.alignment import align, umeyama
from robot_msgs.evaluation.ape import ape, ape_from_prepared
from robot_msgs.evaluation.association import Association, associate
from robot_msgs.evaluation.drift import (
    KITTI_LENGTHS_M,
    RPG_FRACTIONS,
    kitti_drift,
    kitti_segments,
    relative_error,
    rpg_segments,
)
from robot_msgs.evaluation.pairs import DELTA_UNITS, path_distances, select_pairs
from robot_msgs.evaluation.pipeline import SYNC_METHODS, Prepared, prepare
from robot_msgs.evaluation.relations import (
    APE_RELATIONS,
    RELATION_UNITS,
    RPE_RELATIONS,
    ape_errors,
    rpe_errors,
)
from robot_msgs.evaluation.rpe import PAIRS_FROM, rpe, rpe_from_prepared

__all__ = [
    "APE_RELATIONS",
    "DELTA_UNITS",
    "KITTI_LENGTHS_M",
    "PAIRS_FROM",
    "RELATION_UNITS",
    "RPE_RELATIONS",
    "RPG_FRACTIONS",
    "SYNC_METHODS",
    "Association",
    "Prepared",
    "align",
    "ape",
    "ape_errors",
    "ape_from_prepared",
    "associate",
    "kitti_drift",
    "kitti_segments",
    "path_distances",
    "prepare",
    "relative_error",
    "rpe",
    "rpe_errors",
    "rpe_from_prepared",
    "rpg_segments",
    "select_pairs",
    "umeyama",
]
