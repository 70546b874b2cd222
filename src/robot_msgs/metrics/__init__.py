"""Streaming trajectory-quality metrics in NumPy: ``update(batch)``, ``compute()``, ``merge()``.

Every metric accumulates float64 sufficient statistics, so streaming, sharded and one-shot
evaluation agree; each has a functional twin returning per-item values from the same
kernel (see :mod:`robot_msgs.metrics.base`). The kernels are written once against the
array API standard: the functional twins take NumPy arrays or torch tensors. torchmetrics
classes over the same kernels live in :mod:`robot_msgs.metrics.torch` (the ``torch`` extra).
"""

from robot_msgs.metrics.base import StreamingMean, StreamingMetric
from robot_msgs.metrics.curvature import (
    Curvature,
    CurvatureChange,
    curvature,
    curvature_change,
    turning_angles,
    wrap_angle,
)
from robot_msgs.metrics.displacement import (
    AverageDisplacementError,
    FinalDisplacementError,
    average_displacement_error,
    final_displacement_error,
)
from robot_msgs.metrics.dtw import DTW, NDTW, SDTW, dtw, ndtw, sdtw
from robot_msgs.metrics.jerk import (
    LogDimensionlessJerk,
    dimensionless_jerk,
    log_dimensionless_jerk,
    speed_from_positions,
)
from robot_msgs.metrics.navigation import SPL, SuccessRate, spl, success_rate
from robot_msgs.metrics.path import (
    PathLength,
    PathSmoothness,
    Straightness,
    path_length,
    path_smoothness,
    straightness,
)
from robot_msgs.metrics.sparc import SPARC, sparc

__all__ = [
    "DTW",
    "NDTW",
    "SDTW",
    "SPARC",
    "SPL",
    "AverageDisplacementError",
    "Curvature",
    "CurvatureChange",
    "FinalDisplacementError",
    "LogDimensionlessJerk",
    "PathLength",
    "PathSmoothness",
    "Straightness",
    "StreamingMean",
    "StreamingMetric",
    "SuccessRate",
    "average_displacement_error",
    "curvature",
    "curvature_change",
    "dimensionless_jerk",
    "dtw",
    "final_displacement_error",
    "log_dimensionless_jerk",
    "ndtw",
    "path_length",
    "path_smoothness",
    "sdtw",
    "sparc",
    "speed_from_positions",
    "spl",
    "straightness",
    "success_rate",
    "turning_angles",
    "wrap_angle",
]
