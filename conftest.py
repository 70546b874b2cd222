"""Collection rules for the whole suite: modules of an optional extra that is absent are skipped."""

from __future__ import annotations

collect_ignore: list[str] = []
try:
    import array_api_compat  # noqa: F401
    import torch  # noqa: F401
    import torchmetrics  # noqa: F401
except ImportError:
    collect_ignore += [
        "src/robot_msgs/metrics/torch.py",
        "tests/metrics/_torch_dist_worker.py",
    ]
