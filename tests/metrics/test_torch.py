"""The kernels on torch tensors and the torchmetrics adapter: NumPy's values, gradients, sums."""

from __future__ import annotations

import inspect
import json
import math
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

if TYPE_CHECKING:
    from collections.abc import Callable

    from torch import Tensor

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
pytest.importorskip("array_api_compat")

import robot_msgs  # noqa: E402
from robot_msgs import metrics as npm  # noqa: E402
from robot_msgs.errors import ValidationError  # noqa: E402
from robot_msgs.metrics import torch as tm  # noqa: E402
from tests.metrics import _torch_dist_worker as worker  # noqa: E402
from tests.metrics import test_base as base_cases  # noqa: E402

NUMPY_SETTINGS = {
    "LogDimensionlessJerk": {"sample_rate_hz": 32.0},
    "SPARC": {"sample_rate_hz": 32.0},
    "SDTW": {"threshold": 4.0},
}


def _numpy_results(lo: int = 0, hi: int = worker.N_ITEMS) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, args in worker.data().items():
        metric = getattr(npm, name)(**NUMPY_SETTINGS.get(name, {}))
        metric.update(*(np.asarray(a)[lo:hi] for a in args))
        out[name] = metric.compute()
    return out


def test_every_torch_metric_matches_its_numpy_twin() -> None:
    expected = _numpy_results()
    got = worker.run(rank=0, world=1, lo=0, hi=worker.N_ITEMS)
    assert set(got) == set(expected) == set(tm.__all__)
    for name in expected:
        assert got[name] == pytest.approx(expected[name], rel=1e-12, abs=1e-12), name


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("path_smoothness", ("traj",), {}),
        ("path_smoothness", ("traj",), {"normalization": "points"}),
        ("path_length", ("traj",), {}),
        ("straightness", ("traj",), {}),
        ("curvature", ("traj",), {}),
        ("curvature_change", ("traj", "headings"), {}),
        ("log_dimensionless_jerk", ("speed", 100.0), {}),
        ("sparc", ("speed", 100.0), {}),
        ("average_displacement_error", ("traj", "other"), {}),
        ("final_displacement_error", ("traj", "other"), {}),
        ("dtw", ("traj", "short"), {"distance": "cityblock"}),
        ("ndtw", ("traj", "short"), {"threshold": 2.0}),
        ("sdtw", ("traj", "short"), {"threshold": 6.0}),
        ("turning_angles", ("traj",), {}),
        ("wrap_angle", ("headings",), {}),
        ("dimensionless_jerk", ("speed", 100.0), {}),
        ("speed_from_positions", ("traj", 100.0), {}),
        ("success_rate", ("flags",), {}),
        ("spl", ("flags", "shortest", "taken"), {}),
    ],
)
def test_functional_kernels_match_per_item(
    name: str, args: tuple[str | float, ...], kwargs: dict[str, object]
) -> None:
    rng = np.random.default_rng(11)
    t = np.arange(-1, 1, 0.01)
    pool = {
        "traj": np.cumsum(rng.normal(size=(3, 2, 7, 3)), axis=2),
        "other": np.cumsum(rng.normal(size=(3, 2, 7, 3)), axis=2),
        "short": np.cumsum(rng.normal(size=(3, 2, 4, 3)), axis=2),
        "headings": rng.uniform(-4, 4, size=(3, 2, 7)),
        "speed": np.exp(-5 * t**2) * (1 + rng.random((3, 1))),
        "flags": rng.random((3, 2)) < 0.6,
        "shortest": rng.uniform(1, 5, (3, 2)),
        "taken": rng.uniform(0, 10, (3, 2)),
    }
    np_args = [pool[a] if isinstance(a, str) else a for a in args]
    torch_args = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in np_args]
    expected = getattr(npm, name)(*np_args, **kwargs)
    got = getattr(npm, name)(*torch_args, **kwargs)
    assert isinstance(expected, np.ndarray)  # NumPy in, NumPy out; a tensor in, a tensor out
    assert isinstance(got, torch.Tensor)
    assert tuple(got.shape) == expected.shape
    assert got.dtype == torch.float64
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_published_values_through_the_kernels_on_tensors() -> None:
    # The reference doctest signal of siva82kb/smoothness (see test_jerk.py and test_sparc.py).
    t = torch.arange(-1, 1, 0.01, dtype=torch.float64)
    move = torch.exp(-5 * t**2)
    assert npm.sparc(move, 100.0).item() == pytest.approx(-1.41403126171, rel=1e-10)
    assert npm.log_dimensionless_jerk(move, 100.0).item() == pytest.approx(
        -5.81635741476, rel=1e-10
    )
    # r4r/dtw.py's doctest
    q = torch.tensor([[0, 0], [1, 0], [2, 0], [3, 0]])
    r = torch.tensor([[0, 0], [1, 0], [2, 1], [3, 2]])
    assert npm.ndtw(q, r, distance="cityblock", threshold=3.0).item() == pytest.approx(
        0.77880078307140488
    )


def test_float32_input_is_computed_in_float64() -> None:
    # The 1e8 m turn of test_path_smoothness.py, given as float64: not collapsed to 0.
    p = (
        torch.tensor([[0.0, 0.0], [0.01, 0.0], [0.02, 0.0], [0.02, 0.01]], dtype=torch.float64)
        + 1e8
    )
    expected = (1 + math.sqrt(671088**2 + 671089**2)) / (3 * 671089 - 1)
    assert npm.path_smoothness(p).item() == pytest.approx(expected, rel=1e-14)
    metric = tm.PathSmoothness()
    metric.update(
        torch.tensor([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]], dtype=torch.float32)
    )
    assert metric.total.dtype == torch.float64
    assert metric.compute().item() == pytest.approx(math.sqrt(2) / 3, rel=1e-15)


@pytest.mark.parametrize(
    ("fn", "make_input"),
    [
        (npm.path_smoothness, lambda: torch.randn(4, 8, 3, dtype=torch.float64).cumsum(1)),
        (npm.path_length, lambda: torch.randn(4, 8, 3, dtype=torch.float64).cumsum(1)),
        (npm.straightness, lambda: torch.randn(4, 8, 3, dtype=torch.float64).cumsum(1)),
        (npm.curvature, lambda: torch.randn(4, 8, 2, dtype=torch.float64).cumsum(1)),
        (
            lambda s: npm.log_dimensionless_jerk(s, 50.0),
            lambda: 1 + torch.rand(3, 40, dtype=torch.float64),
        ),
        (
            lambda s: npm.sparc(s, 50.0),
            lambda: (
                torch.exp(-5 * torch.linspace(-1, 1, 40, dtype=torch.float64) ** 2).repeat(2, 1)
                + 0.1 * torch.rand(2, 40, dtype=torch.float64)
            ),
        ),
        (
            lambda x: npm.dtw(x, x.flip(-2)[..., :5, :]),
            lambda: torch.randn(2, 6, 2, dtype=torch.float64),
        ),
        (
            lambda x: npm.curvature_change(x, torch.linspace(0.0, 2.0, 8, dtype=torch.float64)),
            lambda: torch.randn(8, 2, dtype=torch.float64).cumsum(0),
        ),
        (
            lambda x: npm.average_displacement_error(x, torch.zeros_like(x)),
            lambda: 1 + torch.rand(3, 5, 2, dtype=torch.float64),
        ),
        (
            lambda x: npm.final_displacement_error(x, torch.zeros_like(x)),
            lambda: 1 + torch.rand(3, 5, 2, dtype=torch.float64),
        ),
        (
            lambda x: npm.ndtw(x, x.flip(-2)[..., :5, :], threshold=2.0),
            lambda: torch.randn(2, 6, 2, dtype=torch.float64),
        ),
        (
            lambda p: npm.spl(torch.tensor([1, 1, 0]), torch.tensor([4.0, 5.0, 6.0]), p),
            lambda: torch.tensor([3.0, 7.0, 9.0], dtype=torch.float64),
        ),
    ],
)
def test_gradients_agree_with_finite_differences(
    fn: Callable[[Tensor], Tensor], make_input: Callable[[], Tensor]
) -> None:
    torch.manual_seed(0)
    x = make_input().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda v: fn(v).sum(), (x,), eps=1e-6, atol=1e-5)


def test_forward_returns_a_differentiable_batch_value_and_straight_lines_have_finite_grads() -> (
    None
):
    x = torch.tensor(
        [
            [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]],
            [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]],
        ],
        dtype=torch.float64,
        requires_grad=True,
    )
    metric = tm.PathSmoothness()
    batch_value = metric(x)
    batch_value.backward()
    assert batch_value.item() == pytest.approx(math.sqrt(2) / 6)
    assert torch.isfinite(x.grad).all()
    assert x.grad.abs().sum() > 0
    assert metric.compute().item() == pytest.approx(math.sqrt(2) / 6)


def test_a_path_that_stops_or_never_moves_has_finite_gradients() -> None:
    # Zero-length steps: every denominator that may be 0 is guarded (ratio_or), norms have
    # a zero subgradient at 0, so no NaN reaches the backward pass.
    still = torch.zeros(2, 5, 3, dtype=torch.float64, requires_grad=True)
    stop = torch.tensor(
        [[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 1.0]], dtype=torch.float64, requires_grad=True
    )
    for fn in (npm.path_smoothness, npm.path_length, npm.straightness, npm.curvature):
        for x in (still, stop):
            x.grad = None
            fn(x).sum().backward()
            assert x.grad is not None
            assert bool(torch.isfinite(x.grad).all()), fn.__name__


def _bad_inputs() -> list[tuple[str, tuple[object, ...]]]:
    nan = np.zeros((2, 4, 2))
    nan[1, 3, 0] = np.nan
    # Past 1e150 m: NumPy warned 'overflow', torch gave NaN (smoothness) or 0 (a turn's
    # curvature) in silence (a review); both refuse it alike now.
    far = np.array([[0.0, 0.0], [1e200, 0.0], [1e200, 1e200]])
    return [
        ("path_smoothness", (nan,)),
        ("path_smoothness", (far,)),
        ("curvature", (far,)),
        ("dtw", (far[:2], far)),
        ("average_displacement_error", (far, far)),
        ("path_smoothness", (np.zeros((2, 2)),)),
        ("curvature_change", (np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]]), np.arange(3.0))),
        ("curvature_change", (np.zeros((3, 2)), np.zeros(4))),
        ("log_dimensionless_jerk", (np.zeros((2, 5)), 10.0)),
        ("sparc", (np.zeros((2, 8)), 10.0)),
        # 30 Hz at 100 Hz: nothing reaches the threshold at or below 10 Hz (a review)
        ("sparc", (np.sin(2 * np.pi * 30 * np.arange(0, 2, 0.01))[None], 100.0)),
        ("average_displacement_error", (np.zeros((3, 2)), np.zeros((4, 2)))),
        ("dtw", (np.zeros((3, 2)), np.zeros((4, 3)))),
        ("success_rate", (np.array([1.0, 0.5]),)),
        ("spl", (np.array([1.0, 1.0]), np.array([1.0, -1.0]), np.array([1.0, 1.0]))),
    ]


@pytest.mark.parametrize(("name", "args"), _bad_inputs())
def test_numpy_and_torch_refuse_bad_input_with_the_same_message(
    name: str, args: tuple[object, ...]
) -> None:
    fn = getattr(npm, name)
    with pytest.raises(ValidationError, match=r"Expected") as from_numpy:
        fn(*args)
    tensors = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(ValidationError, match=r"Expected") as from_torch:
        fn(*tensors)
    assert str(from_torch.value) == str(from_numpy.value)


@pytest.mark.parametrize(
    ("name", "args", "syncs"),
    [
        ("path_smoothness", ("traj",), 1),
        ("curvature", ("traj",), 1),
        ("curvature_change", ("traj", "headings"), 3),  # two inputs, turning in place
        ("log_dimensionless_jerk", ("speed", 50.0), 2),  # the input, a profile that is 0
        ("sparc", ("speed", 50.0), 3),  # the input, a still profile, a spectrum past fc
        ("average_displacement_error", ("traj", "traj"), 2),
        ("dtw", ("traj", "traj"), 2),
        ("spl", ("flags", "lengths", "lengths"), 5),  # 0/1 flags; finite and sign, twice
    ],
)
def test_input_checks_synchronise_once_per_check(
    name: str, args: tuple[str | float, ...], syncs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = {
        "traj": torch.randn(4, 6, 2, dtype=torch.float64).cumsum(1),
        "headings": torch.linspace(0.0, 1.0, 6, dtype=torch.float64).repeat(4, 1),
        "speed": 1 + torch.rand(3, 40, dtype=torch.float64),
        "flags": torch.tensor([1, 0, 1]),
        "lengths": torch.tensor([1.0, 2.0, 3.0]),
    }
    values = [pool[a] if isinstance(a, str) else a for a in args]
    count = 0
    for method in ("__bool__", "__float__", "__int__", "item", "tolist"):
        original = getattr(torch.Tensor, method)

        def counted(*a: object, original: Callable[..., object] = original) -> object:
            nonlocal count
            count += 1
            return original(*a)

        monkeypatch.setattr(torch.Tensor, method, counted)
    getattr(npm, name)(*values)
    assert count == syncs


def test_nan_raises_naming_the_index() -> None:
    x = torch.zeros(2, 4, 2)
    x[1, 3, 0] = math.nan
    with pytest.raises(
        ValidationError, match=r"finite values in `trajectory`, got nan at index \(1, 3, 0\)"
    ):
        tm.PathSmoothness().update(x)


def test_too_few_points_and_bad_options_raise() -> None:
    with pytest.raises(ValidationError, match=r"at least 3 points along axis -2"):
        tm.PathSmoothness().update(torch.zeros(2, 2))
    with pytest.raises(ValidationError, match=r"`normalization` in"):
        tm.PathSmoothness(normalization="steps")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"`trajectory` as a torch.Tensor, got list"):
        tm.PathLength().update([[0.0, 0.0], [1.0, 1.0]])  # type: ignore[arg-type]


def test_speed_from_positions_of_a_tensor_is_a_tensor_with_gradients() -> None:
    """np.gradient gave a NumPy array back for a tensor, and torch's RuntimeError "Can't
    call numpy() on Tensor that requires grad" for one that requires gradients (a review).
    Hand: 0.5 m steps (0.3, 0.4) at 10 Hz are 5 m/s everywhere; d(sum of speeds)/d p0 is
    -(10 + 5) times the unit step (0.6, 0.8): the one-sided end and the central middle."""
    x = torch.tensor([[0.0, 0.0], [0.3, 0.4], [0.6, 0.8]], dtype=torch.float64, requires_grad=True)
    speed = npm.speed_from_positions(x, 10.0)
    assert isinstance(speed, torch.Tensor)
    np.testing.assert_allclose(speed.detach().numpy(), [5.0, 5.0, 5.0], rtol=1e-15)
    speed.sum().backward()
    assert x.grad is not None
    np.testing.assert_allclose(x.grad[0].numpy(), [-9.0, -12.0], rtol=1e-14)


def test_a_float32_tensor_is_held_to_float32_rounding_as_a_float32_array() -> None:
    """A 0.5 m/s line a kilometre away stored as float32, as a tensor: its speeds varied by
    float32's rounding (6.7e-3 m/s), read as jerk, where the float32 array's are one
    constant now; both refuse its LDLJ and give its path smoothness 0."""
    t = np.arange(100) / 100.0
    line = np.stack([1000.0 + 0.3 * t, 1000.0 + 0.4 * t, np.full(100, 1000.0)], axis=1)
    array = line.astype(np.float32)
    speed = npm.speed_from_positions(torch.from_numpy(array), 100.0)
    expected = npm.speed_from_positions(array, 100.0)
    np.testing.assert_allclose(speed.numpy(), expected, rtol=1e-15)
    assert float(speed.max() - speed.min()) == 0.0
    with pytest.raises(ValidationError, match=r"profile without jerk"):
        npm.log_dimensionless_jerk(speed, 100.0)
    assert npm.path_smoothness(torch.from_numpy(array)).item() == 0.0


def test_a_wrong_sparc_argument_is_said_of_sparc_itself() -> None:
    """The torch SPARC named SparcOptions.__init__ too (a review); its options still work."""
    with pytest.raises(TypeError, match=r"^SPARC\.__init__\(\) got an unexpected keyword"):
        tm.SPARC(sample_rate=100.0)  # type: ignore[call-arg]
    metric = tm.SPARC(sample_rate_hz=100.0, pad_level=3)
    assert (metric.sample_rate_hz, metric.max_cutoff_hz, metric.pad_level) == (100.0, 10.0, 3)


@pytest.mark.parametrize("name", tm.__all__)
def test_each_torch_class_takes_the_options_of_its_numpy_twin(name: str) -> None:
    """Two ``__init__`` for one idea (SPARC's, LogDimensionlessJerk's...), on two bases: the
    options (names, kinds, defaults) must stay one; only their bodies are twice."""

    def options(cls: type) -> list[tuple[str, object, object]]:
        parameters = inspect.signature(cls).parameters.values()
        return [(p.name, p.kind, p.default) for p in parameters]

    assert options(getattr(tm, name)) == options(getattr(npm, name))


@pytest.mark.filterwarnings("ignore:The ``compute`` method of metric:UserWarning")
def test_compute_before_update_raises_runtime_error() -> None:
    with pytest.raises(RuntimeError, match=r"PathSmoothness\.compute\(\) called before any item"):
        tm.PathSmoothness().compute()


def test_robometric_frame_cross_check_with_its_own_normalisation() -> None:
    rmf = pytest.importorskip("robometric_frame.trajectory_quality")
    # Well-scaled data: robometric-frame 0.3.0 (float32, 1/(L-2)) agrees with "points" to float32.
    x = torch.randn(5, 20, 3, dtype=torch.float64).cumsum(1)
    theirs = rmf.PathSmoothness()
    theirs.update(x)
    ours = tm.PathSmoothness(normalization="points")
    ours.update(x)
    assert theirs.compute().item() == pytest.approx(ours.compute().item(), rel=1e-5)
    # At 1e8 m it casts to float32 and loses the turn entirely.
    big = (
        torch.tensor([[0.0, 0.0], [0.01, 0.0], [0.02, 0.0], [0.02, 0.01]], dtype=torch.float64)
        + 1e8
    )
    lost = rmf.PathSmoothness()
    lost.update(big)
    assert lost.compute().item() == 0.0
    assert npm.path_smoothness(big, normalization="points").item() > 0.007


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_two_process_gloo_run_equals_one_process(tmp_path: Path) -> None:
    src = Path(robot_msgs.__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]),
    }
    env["OMP_NUM_THREADS"] = "1"
    if sys.platform == "linux":
        env.setdefault("GLOO_SOCKET_IFNAME", "lo")
    port = _free_port()
    script = str(Path(worker.__file__).resolve())
    procs = [
        subprocess.Popen(  # noqa: S603  (our own worker script, fixed arguments)
            [sys.executable, script, str(rank), "2", str(port), str(tmp_path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rank in (0, 1)
    ]
    deadline = time.monotonic() + 120
    outputs = []
    try:
        for proc in procs:
            _, err = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
            outputs.append((proc.returncode, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for code, err in outputs:
        assert code == 0, err[-3000:]
    one_process = worker.run(rank=0, world=1, lo=0, hi=worker.N_ITEMS)
    numpy_values = _numpy_results()
    # A mean of the two ranks' local means would differ: the split is 5 / 7 items.
    local0 = _numpy_results(0, worker.SPLIT)
    local1 = _numpy_results(worker.SPLIT, worker.N_ITEMS)
    for rank in (0, 1):
        synced = json.loads((tmp_path / f"rank_{rank}.json").read_text())
        for name, value in synced.items():
            assert value == pytest.approx(one_process[name], rel=1e-12, abs=1e-12), (rank, name)
            assert value == pytest.approx(numpy_values[name], rel=1e-12, abs=1e-12), (rank, name)
    naive = (local0["PathSmoothness"] + local1["PathSmoothness"]) / 2
    assert naive != pytest.approx(numpy_values["PathSmoothness"], rel=1e-6)


@pytest.mark.parametrize("name", sorted(base_cases.CASES))
def test_numpy_metric_classes_take_tensors_as_their_kernels_do(name: str) -> None:
    """np.sum(tensor, dtype=np.float64) let torch's TypeError ("argument 'dtype' must be
    torch.dtype") out of every NumPy class's update() given tensors, which its kernel
    takes (a review); a tensor that requires gradients is summed off the graph."""
    factory, make = base_cases.CASES[name]
    args = make(np.random.default_rng(5), 3)
    from_numpy, from_torch = factory(), factory()
    from_numpy.update(*args)
    tensors = [torch.from_numpy(a) for a in args]
    from_torch.update(
        *(t.double().requires_grad_() if t.is_floating_point() else t for t in tensors)
    )
    assert from_torch.count == from_numpy.count == 3
    assert from_torch.compute() == pytest.approx(from_numpy.compute(), rel=1e-12, abs=1e-12)


def test_a_batch_refused_by_forward_keeps_what_was_recorded_before() -> None:
    """torchmetrics' forward resets the state to evaluate a batch alone and adds the saved
    state back after compute(): a NaN batch (refused) or an empty one (no item to compute)
    wiped every batch before it, so a training loop that skipped the bad batch reported
    the later batches only (a review). Hand: paths of 5 m (3-4-5) and 1 m: mean 3 m."""
    metric = tm.PathLength()
    metric.update(torch.tensor([[0.0, 0.0], [3.0, 4.0]]))
    with pytest.raises(ValidationError, match=r"got nan at index \(1, 0\)"):
        metric(torch.tensor([[0.0, 0.0], [math.nan, 4.0]]))
    with pytest.raises(RuntimeError, match=r"before any item was recorded"):
        metric(torch.zeros(0, 5, 2))
    assert (metric.total.item(), metric.count.item()) == (5.0, 1)
    assert metric(torch.tensor([[0.0, 0.0], [1.0, 0.0]])).item() == 1.0  # the batch's value
    assert metric.compute().item() == 3.0


@pytest.mark.parametrize(
    ("name", "shape", "rest"),
    [
        ("sparc", (0, 50), (100.0,)),
        ("sparc", (2, 0, 50), (100.0,)),
        ("dimensionless_jerk", (0, 50), (100.0,)),
        ("log_dimensionless_jerk", (0, 50), (100.0,)),
        ("path_length", (0, 5, 2), ()),
        ("curvature", (0, 5, 2), ()),
    ],
)
def test_a_batch_of_no_item_gives_no_value_on_a_tensor_as_on_numpy(
    name: str, shape: tuple[int, ...], rest: tuple[float, ...]
) -> None:
    """SPARC of a tensor batch of no speed profile, shape (0, 50), let torch's FFT error
    out ('MKL FFT error: ... Inconsistent configuration parameters', a RuntimeError),
    where NumPy's returned an empty array, as every other kernel does on either."""
    expected = getattr(npm, name)(np.zeros(shape), *rest)
    got = getattr(npm, name)(torch.zeros(shape, dtype=torch.float64), *rest)
    items = (
        shape[:-1]
        if name in ("sparc", "dimensionless_jerk", "log_dimensionless_jerk")
        else shape[:-2]
    )
    assert tuple(got.shape) == expected.shape == items
    assert got.dtype == torch.float64


def test_the_torch_sparc_metric_records_nothing_of_an_empty_batch() -> None:
    metric = tm.SPARC(sample_rate_hz=100.0)
    metric.update(torch.zeros(0, 50, dtype=torch.float64))
    assert metric.count.item() == 0


def test_merge_state_refuses_another_type_or_other_settings_as_numpy_merge_does() -> None:
    """torchmetrics' merge_state checked isinstance only: a DTW took an NDTW's values, a
    PathSmoothness by path length one by L - 2, in silence (NumPy's merge refuses both)."""
    from robot_msgs.errors import SettingsMismatchError

    with pytest.raises(TypeError, match=r"Expected another DTW to merge, got NDTW"):
        tm.DTW().merge_state(tm.NDTW())
    with pytest.raises(SettingsMismatchError, match=r"Refusing to merge PathSmoothness"):
        tm.PathSmoothness().merge_state(tm.PathSmoothness(normalization="points"))
    with pytest.raises(SettingsMismatchError, match=r"'distance': 'euclidean'"):
        tm.DTW().merge_state(tm.DTW(distance="cityblock"))


def test_compute_after_merge_state_counts_the_merged_items() -> None:
    """A compute() before merge_state was kept: paths of 5 m and 1 m said 5.0, not 3.0."""
    five, one = tm.PathLength(), tm.PathLength()
    five.update(torch.tensor([[0.0, 0.0], [3.0, 4.0]], dtype=torch.float64))
    one.update(torch.tensor([[0.0, 0.0], [1.0, 0.0]], dtype=torch.float64))
    assert five.compute().item() == 5.0
    five.merge_state(one)
    assert five.compute().item() == 3.0  # (5 + 1) / 2
    five.merge_state({"total": torch.tensor(0.0, dtype=torch.float64), "count": torch.tensor(1)})
    assert five.compute().item() == 2.0  # (5 + 1 + 0) / 3


def test_a_fresh_metric_that_merged_items_computes_them_without_a_warning() -> None:
    """One metric gathering the others' states: compute() warned "called before the
    update method ... metric states have not yet been updated" (an error here, under
    filterwarnings=error), where the merge had given it a path of 5 m."""
    five, gathered = tm.PathLength(), tm.PathLength()
    five.update(torch.tensor([[0.0, 0.0], [3.0, 4.0]], dtype=torch.float64))
    gathered.merge_state(five)
    assert gathered.compute().item() == 5.0
    state = tm.PathLength()
    state.merge_state({"total": torch.tensor(1.0, dtype=torch.float64), "count": torch.tensor(1)})
    assert state.compute().item() == 1.0
