"""Runs of algorithms on sequences: how they are declared, read, evaluated and ranked.

The one run model of the package, used by ``robot-msgs report`` and ``robot-msgs bench``
alike: a :class:`RunSpec` (declared by a manifest, a run folder or the folder convention,
:func:`load_runs`), its files read by :func:`load_run`, evaluated by :func:`evaluate_run`
with one :class:`RunSettings`, and ranked by :func:`rank_algorithms`.

A commit that changes how a run is judged, in any module here (losses, spans, latency,
the evaluation) or in the metrics it computes, bumps
:data:`robot_msgs.runs.evaluate.JUDGING_REVISION`: ``bench --resume`` reuses the stored
reports of the same version and revision without computing them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.runs.evaluate import RunEvaluation, evaluate_run
    from robot_msgs.runs.folders import discover_runs, run_from_folder
    from robot_msgs.runs.load import RunInputs, load_run
    from robot_msgs.runs.manifest import Manifest, load_runs, read_manifest
    from robot_msgs.runs.rank import RankingTally, rank_algorithms
    from robot_msgs.runs.repeats import repeatability
    from robot_msgs.runs.run_settings import MetricSpec, RunSettings, default_metrics
    from robot_msgs.runs.spec import RunMeta, RunSpec

__all__ = [
    "Manifest",
    "MetricSpec",
    "RankingTally",
    "RunEvaluation",
    "RunInputs",
    "RunMeta",
    "RunSettings",
    "RunSpec",
    "default_metrics",
    "discover_runs",
    "evaluate_run",
    "load_run",
    "load_runs",
    "rank_algorithms",
    "read_manifest",
    "repeatability",
    "run_from_folder",
]

__getattr__ = exports(
    __name__,
    {
        "evaluate": ("RunEvaluation", "evaluate_run"),
        "folders": ("discover_runs", "run_from_folder"),
        "load": ("RunInputs", "load_run"),
        "manifest": ("Manifest", "load_runs", "read_manifest"),
        "rank": ("RankingTally", "rank_algorithms"),
        "repeats": ("repeatability",),
        "run_settings": ("MetricSpec", "RunSettings", "default_metrics"),
        "spec": ("RunMeta", "RunSpec"),
    },
)
