"""The ``robot-msgs`` commands and their one-line help, in the order ``--help`` lists them.

Kept apart from the command modules so that ``robot-msgs --help`` lists every command
without importing any of them (each pulls in what its own work needs).
"""

from __future__ import annotations

__all__ = ["COMMANDS"]

COMMANDS: dict[str, str] = {
    "docs": "write the HTML reference of every message type",
    "schema": "print the JSON Schema of a message type",
    "traj": "inspect, check or convert trajectory files and bags",
    "doctor": "find what is wrong with an evaluation's setup before computing a number",
    "ape": "absolute pose error of an estimate against ground truth (evo_ape)",
    "rpe": "relative pose error over pose pairs a delta apart (evo_rpe)",
    "drift": "drift per distance or per second: KITTI devkit (default) or rpg relative error",
    "track": "control-loop tracking error of a logged command: IAE/ISE/ITAE, step figures",
    "res": "compare saved results (ours and evo's --save_results zips): tables, plots",
    "report": "report runs: success, losses, accuracy, latency, resources, ranking",
    "bench": "evaluate many runs (a manifest or a folder) locally or on a Dask cluster",
}
