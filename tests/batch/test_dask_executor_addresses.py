"""Dask: scheduler addresses checked before connecting, a LocalCluster on loopback only."""

from __future__ import annotations

import re
import sys
import time
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.batch.backends import make_executor
from robot_msgs.batch.dask_executor import DaskExecutor, check_scheduler_address
from robot_msgs.cli import main
from robot_msgs.errors import ExecutorError, ValidationError

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    ("address", "normal"),
    [
        ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("TLS://scheduler.example.org:8786", "tls://scheduler.example.org:8786"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
        ("ucx://node-1:13337", "ucx://node-1:13337"),
        ("ws://localhost:08786", "ws://localhost:8786"),
        ("inproc://10.0.0.5/1234/1", "inproc://10.0.0.5/1234/1"),
        ("  tcp://127.0.0.1:8786 ", "tcp://127.0.0.1:8786"),
    ],
)
def test_scheduler_addresses_are_normalised(address: str, normal: str) -> None:
    assert check_scheduler_address(address) == normal


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("notanaddress", "no port"),
        ("", "empty"),
        ("http://127.0.0.1:8786", "unknown scheme 'http'"),
        ("tcp://:8786", "no host"),
        ("tcp://127.0.0.1:", "port '' is not a number from 1 to 65535"),
        ("tcp://127.0.0.1:99999", "port '99999' is not a number from 1 to 65535"),
        ("tcp://127.0.0.1:8786/", r"port '8786/' is not a number"),
        ("tcp://bad_host!:8786", r"'bad_host!' is not a host name or IP address"),
        ("tcp://::1:8786", "an IPv6 host goes in brackets"),
        ("tcp://[::zz]:8786", r"'::zz' is not an IPv6 address"),
        ("inproc://", "nothing after inproc://"),
    ],
)
def test_malformed_scheduler_addresses_are_refused_naming_the_part_and_flag(
    address: str, why: str
) -> None:
    with pytest.raises(
        ValidationError,
        match=rf"Expected a Dask scheduler address SCHEME://HOST:PORT .*\(--scheduler; .*"
        rf"got {re.escape(repr(address))}: {why}",
    ):
        check_scheduler_address(address)


def test_a_malformed_address_is_refused_before_dask_is_even_imported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ValidationError, match=r"got 'notanaddress': no port"):
        make_executor(scheduler="notanaddress")


def _bench_tree(root: Path) -> Path:
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, 0 * t, 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    (root / "MH_01").mkdir(parents=True)
    np.savetxt(root / "MH_01" / "reference.tum", rows)
    run = root / "orb" / "MH_01" / "1"
    run.mkdir(parents=True)
    np.savetxt(run / "estimate.tum", rows)
    return root


def test_bench_with_a_malformed_scheduler_prints_one_error_line_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _bench_tree(tmp_path / "runs")
    out = tmp_path / "out"
    started = time.monotonic()
    assert main(["bench", str(root), "--out", str(out), "--scheduler", "notanaddress"]) == 1
    assert time.monotonic() - started < 10
    captured = capsys.readouterr()
    assert captured.err.startswith("ERROR: Expected a Dask scheduler address")
    assert captured.err.count("\n") == 1
    assert "--scheduler" in captured.err
    assert "Traceback" not in captured.err + captured.out
    assert not out.exists()


def test_an_address_nobody_listens_on_is_one_error_naming_it(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    started = time.monotonic()
    with (
        pytest.raises(
            ExecutorError,
            match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:1: Connection refused",
        ),
        DaskExecutor(scheduler="tcp://127.0.0.1:1", connect_timeout_s=5),
    ):
        pass
    assert time.monotonic() - started < 5


def test_an_unknown_host_is_one_error_naming_it() -> None:
    pytest.importorskip("distributed")
    with (
        pytest.raises(ExecutorError, match=r"unknown host 'no-such-host\.invalid'"),
        DaskExecutor(scheduler="tcp://no-such-host.invalid:8786"),
    ):
        pass


def _listening(pids: set[int]) -> set[tuple[str, int]]:
    """The (address, port) of every TCP socket in LISTEN state owned by ``pids``."""
    psutil = pytest.importorskip("psutil")
    found = set()
    for pid in pids:
        proc = psutil.Process(pid)
        for conn in proc.net_connections(kind="inet"):
            if conn.status == psutil.CONN_LISTEN:
                found.add((conn.laddr.ip, conn.laddr.port))
    return found


@pytest.mark.slow
def test_the_local_cluster_listens_on_loopback_only_and_serves_no_dashboard() -> None:
    pytest.importorskip("distributed")
    psutil = pytest.importorskip("psutil")
    with DaskExecutor(workers=2) as ex:
        me = psutil.Process()
        pids = {me.pid} | {child.pid for child in me.children(recursive=True)}
        sockets = _listening(pids)
        assert ex.dashboard_link is None
    assert len(sockets) >= 3  # the scheduler, its HTTP server and the workers
    assert {ip for ip, _ in sockets} == {"127.0.0.1"}


@pytest.mark.slow
def test_the_dashboard_when_asked_for_is_on_loopback_and_is_no_scheduler() -> None:
    pytest.importorskip("distributed")
    with DaskExecutor(workers=1, dashboard=True) as ex:
        link = ex.dashboard_link
        assert link is not None
        assert link.startswith("http://127.0.0.1:")
        port = int(link.split(":")[2].split("/")[0])
        # The dashboard's port given for the scheduler's: one clear error, no traceback.
        with (
            pytest.raises(
                ExecutorError,
                match=rf"at tcp://127\.0\.0\.1:{port}: something accepts connections there but "
                r"does not greet as a Dask scheduler",
            ),
            DaskExecutor(scheduler=f"tcp://127.0.0.1:{port}", connect_timeout_s=2),
        ):
            pass
