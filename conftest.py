"""Collection rules for the whole suite: modules of an optional extra that is absent are skipped."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("torch") is None or importlib.util.find_spec("torchmetrics") is None:
    collect_ignore += [
        "src/robot_msgs/metrics/torch.py",
        "src/robot_msgs/metrics/torch_kernels.py",
        "tests/metrics/_torch_dist_worker.py",
    ]
