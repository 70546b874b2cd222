"""Choosing an executor by name: the right one, or a clear error naming what is wrong."""

from __future__ import annotations

import pytest

from robot_msgs.batch.backends import make_executor
from robot_msgs.batch.executors import SerialExecutor
from robot_msgs.batch.processes import LocalExecutor
from robot_msgs.errors import ValidationError


def test_make_executor_builds_each_kind_and_checks_its_arguments() -> None:
    local = make_executor("local", workers=3)
    assert isinstance(local, LocalExecutor)
    assert (local.workers, local.describe()) == (3, "3 local worker processes")
    assert isinstance(make_executor("serial"), SerialExecutor)
    with pytest.raises(
        ValidationError, match="Expected an executor serial, local or dask, got 'ray'"
    ):
        make_executor("ray")
    with pytest.raises(ValidationError, match=r"Expected `workers` >= 1, got 0"):
        make_executor("local", workers=0)


def test_a_scheduler_address_means_dask() -> None:
    pytest.importorskip("distributed")
    executor = make_executor("local", scheduler="10.0.0.5:8786")
    assert executor.describe() == "dask (tcp://10.0.0.5:8786)"  # checked, not connected


def test_the_serial_executor_is_described_as_the_flag_that_chose_it() -> None:
    """Issue 21: bench printed "computing 5 runs on serial"."""
    with make_executor("serial") as serial:
        assert f"computing 5 runs on {serial.describe()}" == (
            "computing 5 runs on one process (--serial)"
        )
