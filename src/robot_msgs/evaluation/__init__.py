"""Trajectory evaluation: association, alignment, APE, RPE and drift."""

from robot_msgs.evaluation.pairs import DELTA_UNITS, path_distances, select_pairs
from robot_msgs.evaluation.relations import (
    APE_RELATIONS,
    RELATION_UNITS,
    RPE_RELATIONS,
    ape_errors,
    rpe_errors,
)

__all__ = [
    "APE_RELATIONS",
    "DELTA_UNITS",
    "RELATION_UNITS",
    "RPE_RELATIONS",
    "ape_errors",
    "path_distances",
    "rpe_errors",
    "select_pairs",
]
