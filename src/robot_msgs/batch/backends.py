"""Choose an executor by name (``serial``, ``local``, ``dask``) and check its arguments.

WHY a module of its own: the executors import the outcome types of
:mod:`robot_msgs.batch.executors`; choosing among them here keeps that module free of
imports of the Dask one, so nothing imports Dask until a Dask sweep starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.batch.executors import SerialExecutor
from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from robot_msgs.batch.dask_executor import DaskExecutor
    from robot_msgs.batch.processes import LocalExecutor

__all__ = ["make_executor"]


def make_executor(
    kind: str = "local",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    dashboard: bool = False,
) -> SerialExecutor | LocalExecutor | DaskExecutor:
    """Build the executor named ``kind``: ``"serial"``, ``"local"`` or ``"dask"``.

    A ``scheduler`` address implies ``"dask"``; ``dashboard`` serves a LocalCluster's
    dashboard on 127.0.0.1 (:attr:`DaskExecutor.dashboard_link`).

    Raises
    ------
    ValidationError
        An unknown ``kind``, ``workers < 1`` or a malformed ``scheduler`` address
        (checked before anything connects).
    MissingDependencyError
        ``"dask"`` without the ``dask`` extra installed.

    Examples
    --------
    >>> make_executor("serial").name
    'serial'
    """
    if scheduler is not None or kind == "dask":
        from robot_msgs.batch.dask_executor import DaskExecutor  # noqa: PLC0415 - optional

        return DaskExecutor(scheduler=scheduler, workers=workers, dashboard=dashboard)
    if kind == "local":
        from robot_msgs.batch.processes import LocalExecutor  # noqa: PLC0415

        return LocalExecutor(workers=workers)
    if kind == "serial":
        return SerialExecutor()
    msg = f"Expected an executor serial, local or dask, got {kind!r}"
    raise ValidationError(msg)
