"""Collection rules for the whole suite: modules of an optional extra that is absent are skipped."""

from __future__ import annotations

collect_ignore: list[str] = []
try:
    import torch  # noqa: F401
    import torchmetrics  # noqa: F401
except ImportError:
    collect_ignore += [
        "src/robot_msgs/metrics/torch.py",
        "src/robot_msgs/metrics/torch_kernels.py",
        "tests/metrics/_torch_dist_worker.py",
    ]
