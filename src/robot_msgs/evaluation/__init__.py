"""Trajectory evaluation: association in time, alignment, and the metrics built on them."""

from robot_msgs.evaluation.alignment import align, umeyama
from robot_msgs.evaluation.association import Association, associate

__all__ = ["Association", "align", "associate", "umeyama"]
