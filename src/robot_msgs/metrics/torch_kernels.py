"""The metrics' kernels in torch operations: per-item values, differentiable where the formula is.

Each function mirrors the NumPy kernel of the same name in :mod:`robot_msgs.metrics` line
for line (same formula, same definitions for degenerate input, same input checks and error
messages), computes in float64 whatever the input dtype (casting is differentiable), and
keeps gradients: ``vector_norm`` has a zero subgradient at 0, and every division by a
quantity that may be 0 goes through a guarded denominator so no NaN reaches the backward
pass. The input checks synchronise once with the device (one ``.item()``) per call.

Needs the ``torch`` extra.

Examples
--------
>>> import torch
>>> turn = torch.tensor([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]], requires_grad=True)
>>> value = path_smoothness(turn)
>>> round(value.item(), 12)  # √2 / 3
0.471404520791
>>> value.backward()
>>> turn.grad.shape
torch.Size([4, 2])
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import check_positive
from robot_msgs.metrics.sparc import check_settings as check_sparc_settings
from robot_msgs.optional import require

if TYPE_CHECKING:
    import torch
    from torch import Tensor
else:
    torch = require("torch", "torch", feature="robot_msgs.metrics.torch_kernels")

__all__ = [
    "average_displacement_error",
    "check_finite",
    "check_points",
    "check_samples",
    "curvature",
    "curvature_change",
    "dtw",
    "final_displacement_error",
    "log_dimensionless_jerk",
    "ndtw",
    "path_length",
    "path_smoothness",
    "sdtw",
    "sparc",
    "spl",
    "straightness",
    "success_rate",
]

F64 = torch.float64


# --------------------------------------------------------------------------- checks


def _as_tensor(name: str, value: object) -> Tensor:
    if not isinstance(value, torch.Tensor):
        msg = f"Expected `{name}` as a torch.Tensor, got {type(value).__name__}"
        raise ValidationError(msg)
    if value.is_complex():
        msg = f"Expected `{name}` as a real tensor, got dtype {value.dtype}"
        raise ValidationError(msg)
    return value.to(F64)


def check_finite(name: str, x: Tensor) -> None:
    """Raise :class:`ValidationError` naming the first non-finite element of ``x``."""
    # A finite sum proves every element finite (NaN and inf propagate), in one fast pass.
    if x.numel() == 0 or bool(torch.isfinite(x.detach().sum()).item()):
        return
    finite = torch.isfinite(x.detach())
    if bool(finite.all().item()):
        return  # finite values whose sum overflowed
    index = tuple(int(i) for i in torch.nonzero(~finite)[0].tolist())
    msg = f"Expected finite values in `{name}`, got {float(x[index].item())!r} at index {index}"
    raise ValidationError(msg)


def check_points(name: str, value: Tensor, *, min_points: int) -> Tensor:
    """Trajectories ``(..., L, D)`` as float64, checked as the NumPy ``check_points``."""
    x = _as_tensor(name, value)
    shape = tuple(x.shape)
    if x.ndim < 2:
        msg = f"Expected `{name}` of shape (..., L, D), got shape {shape}"
        raise ValidationError(msg)
    if shape[-2] < min_points:
        msg = (
            f"Expected `{name}` with at least {min_points} points along axis -2 "
            f"(shape (..., L, D), L >= {min_points}), got shape {shape}"
        )
        raise ValidationError(msg)
    if shape[-1] < 1:
        msg = f"Expected `{name}` of shape (..., L, D) with D >= 1, got shape {shape}"
        raise ValidationError(msg)
    check_finite(name, x)
    return x


def check_samples(name: str, value: Tensor, *, min_samples: int) -> Tensor:
    """Signals ``(..., L)`` as float64, checked as the NumPy twin."""
    x = _as_tensor(name, value)
    if x.ndim < 1 or x.shape[-1] < min_samples:
        msg = (
            f"Expected `{name}` with at least {min_samples} samples along axis -1 "
            f"(shape (..., L), L >= {min_samples}), got shape {tuple(x.shape)}"
        )
        raise ValidationError(msg)
    check_finite(name, x)
    return x


def _norms(v: Tensor) -> Tensor:
    out: Tensor = torch.linalg.vector_norm(v, dim=-1)
    return out


def _safe_ratio(num: Tensor, den: Tensor, fill: float) -> Tensor:
    positive = den > 0
    return torch.where(positive, num / torch.where(positive, den, torch.ones_like(den)), fill)


def _first_bad(mask: Tensor) -> tuple[int, ...]:
    return tuple(int(i) for i in torch.nonzero(mask)[0].tolist())


# --------------------------------------------------------------------------- path


def path_smoothness(trajectory: Tensor, *, normalization: str = "path_length") -> Tensor:
    """Per-trajectory path smoothness, shape ``(...)`` (see the NumPy ``path_smoothness``).

    Examples
    --------
    >>> path_smoothness(torch.zeros(2, 3, 2)).tolist()  # never moves: 0 by definition
    [0.0, 0.0]
    """
    x = check_points("trajectory", trajectory, min_points=3)
    steps = x[..., 1:, :] - x[..., :-1, :]
    turns = steps[..., 1:, :] - steps[..., :-1, :]
    total = _norms(turns).sum(dim=-1)
    if normalization == "points":
        return total / (x.shape[-2] - 2)
    if normalization != "path_length":
        msg = f"Expected `normalization` in ('path_length', 'points'), got {normalization!r}"
        raise ValidationError(msg)
    return _safe_ratio(total, _norms(steps).sum(dim=-1), 0.0)


def path_length(trajectory: Tensor) -> Tensor:
    """Per-trajectory path length in metres, shape ``(...)``.

    Examples
    --------
    >>> path_length(torch.tensor([[0.0, 0.0], [3.0, 4.0]])).item()
    5.0
    """
    x = check_points("trajectory", trajectory, min_points=2)
    return _norms(x[..., 1:, :] - x[..., :-1, :]).sum(dim=-1)


def straightness(trajectory: Tensor) -> Tensor:
    """Per-trajectory net displacement over path length (1 for a path that never moves).

    Examples
    --------
    >>> straightness(torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])).item()
    0.0
    """
    x = check_points("trajectory", trajectory, min_points=2)
    length = _norms(x[..., 1:, :] - x[..., :-1, :]).sum(dim=-1)
    return _safe_ratio(_norms(x[..., -1, :] - x[..., 0, :]), length, 1.0)


# --------------------------------------------------------------------------- curvature


def curvature(trajectory: Tensor) -> Tensor:
    """Per-trajectory total turning over path length, rad/m (0 for a path that never moves).

    Examples
    --------
    >>> round(curvature(torch.tensor([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])).item(), 6)
    0.785398
    """
    x = check_points("trajectory", trajectory, min_points=3)
    steps = x[..., 1:, :] - x[..., :-1, :]
    lengths = _norms(steps)
    moving = lengths > 0
    units = steps / torch.where(moving, lengths, torch.ones_like(lengths)).unsqueeze(-1)
    index = torch.arange(steps.shape[-2], device=x.device).expand(moving.shape)
    index = torch.where(moving, index, torch.full_like(index, -1))
    last_moving = torch.cummax(index, dim=-1).values[..., :-1]
    gather = last_moving.clamp(min=0).unsqueeze(-1).expand(*last_moving.shape, x.shape[-1])
    previous = torch.gather(units, -2, gather)
    current = units[..., 1:, :]
    angle = 2.0 * torch.atan2(_norms(current - previous), _norms(current + previous))
    counted = moving[..., 1:] & (last_moving >= 0)
    total = torch.where(counted, angle, 0.0).sum(dim=-1)
    return _safe_ratio(total, lengths.sum(dim=-1), 0.0)


def curvature_change(positions: Tensor, headings: Tensor) -> Tensor:
    """Per-trajectory mean |Δκ| with wrapped heading differences (see the NumPy twin).

    Examples
    --------
    >>> xy = torch.tensor([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    >>> curvature_change(xy, torch.tensor([0.0, 0.5, 0.5])).item()
    0.5
    """
    x = check_points("positions", positions, min_points=3)
    theta = check_samples("headings", headings, min_samples=3)
    if tuple(theta.shape) != tuple(x.shape[:-1]):
        msg = (
            f"Expected `headings` of shape {tuple(x.shape[:-1])} (the shape of `positions` "
            f"without D), got shape {tuple(theta.shape)}"
        )
        raise ValidationError(msg)
    lengths = _norms(x[..., 1:, :] - x[..., :-1, :])
    dtheta = torch.remainder(theta[..., 1:] - theta[..., :-1] + math.pi, 2 * math.pi) - math.pi
    still = lengths == 0
    turning_in_place = still & (dtheta != 0)
    if bool(turning_in_place.any().item()):
        index = _first_bad(turning_in_place)
        msg = (
            "Expected the position to move wherever the heading changes (turning in place "
            f"has unbounded curvature), got a zero-length step at `positions` index {index} "
            f"-> next point with heading change {float(dtheta[index].item())!r} rad"
        )
        raise ValidationError(msg)
    kappa = _safe_ratio(dtheta, lengths, 0.0)
    return (kappa[..., 1:] - kappa[..., :-1]).abs().mean(dim=-1)


# --------------------------------------------------------------------------- timed smoothness


def _check_moving(peak: Tensor) -> None:
    if bool((peak == 0).any().item()):
        index = _first_bad(peak == 0)
        msg = f"Expected a movement in `speed`, got a profile that is 0 throughout at {index}"
        raise ValidationError(msg)


def log_dimensionless_jerk(speed: Tensor, sample_rate_hz: float) -> Tensor:
    """Per-profile LDLJ, ``-ln|DJ|`` with the reference discretisation (see the NumPy twin).

    Examples
    --------
    >>> t = torch.arange(-1, 1, 0.01, dtype=torch.float64)
    >>> round(log_dimensionless_jerk(torch.exp(-5 * t**2), 100.0).item(), 5)
    -5.81636
    """
    fs = check_positive("sample_rate_hz", sample_rate_hz)
    v = check_samples("speed", speed, min_samples=3)
    peak = v.abs().amax(dim=-1)
    _check_moving(peak)
    dt = 1.0 / fs
    duration = v.shape[-1] * dt
    second = (v[..., 2:] - 2.0 * v[..., 1:-1] + v[..., :-2]) / (dt * dt)
    integral = (second * second).sum(dim=-1) * dt
    return -torch.log(duration**3 / (peak * peak) * integral)


def sparc(
    speed: Tensor,
    sample_rate_hz: float,
    *,
    max_cutoff_hz: float = 10.0,
    amplitude_threshold: float = 0.05,
    pad_level: int = 4,
) -> Tensor:
    """Per-profile spectral arc length (see the NumPy ``sparc``; settings checked there).

    Examples
    --------
    >>> t = torch.arange(-1, 1, 0.01, dtype=torch.float64)
    >>> round(sparc(torch.exp(-5 * t**2), 100.0).item(), 5)
    -1.41403
    """
    fs, fc, threshold, pad = check_sparc_settings(
        sample_rate_hz, max_cutoff_hz, amplitude_threshold, pad_level
    )
    v = check_samples("speed", speed, min_samples=2)
    n = v.shape[-1]
    nfft = 2 ** (math.ceil(math.log2(n)) + pad)
    spectrum = torch.fft.rfft(v, n=nfft, dim=-1).abs()
    peak = spectrum.amax(dim=-1, keepdim=True)
    _check_moving(peak[..., 0])
    n_bins = math.floor(fc * nfft / fs + 1e-9) + 1
    magnitude = (spectrum / peak)[..., :n_bins]
    above = (magnitude >= threshold).to(torch.int64)
    first = torch.argmax(above, dim=-1)
    last = n_bins - 1 - torch.argmax(above.flip(-1), dim=-1)
    segments = torch.arange(n_bins - 1, device=v.device)
    inside = (segments >= first.unsqueeze(-1)) & (segments < last.unsqueeze(-1))
    span = (last - first).clamp(min=1).unsqueeze(-1).to(F64)
    rise = magnitude[..., 1:] - magnitude[..., :-1]
    arc = torch.sqrt(1.0 / (span * span) + rise * rise)
    return -torch.where(inside, arc, 0.0).sum(dim=-1)


# --------------------------------------------------------------------------- displacement, DTW


def _check_same(pred: Tensor, true: Tensor) -> tuple[Tensor, Tensor]:
    p = check_points("prediction", pred, min_points=1)
    t = check_points("target", true, min_points=1)
    if p.shape != t.shape:
        msg = (
            f"Expected `target` of the shape of `prediction` {tuple(p.shape)}, got {tuple(t.shape)}"
        )
        raise ValidationError(msg)
    return p, t


def average_displacement_error(prediction: Tensor, target: Tensor) -> Tensor:
    """Per-trajectory mean point distance, metres.

    Examples
    --------
    >>> average_displacement_error(torch.ones(3, 2), torch.zeros(3, 2)).item() == 2**0.5
    True
    """
    p, t = _check_same(prediction, target)
    return _norms(p - t).mean(dim=-1)


def final_displacement_error(prediction: Tensor, target: Tensor) -> Tensor:
    """Per-trajectory distance between the last points, metres.

    Examples
    --------
    >>> final_displacement_error(torch.tensor([[0.0, 0.0], [3.0, 4.0]]), torch.zeros(2, 2)).item()
    5.0
    """
    p, t = _check_same(prediction, target)
    return _norms(p[..., -1, :] - t[..., -1, :])


def _point_distance(diff: Tensor, distance: str) -> Tensor:
    if distance == "cityblock":
        return diff.abs().sum(dim=-1)
    if distance == "euclidean":
        return _norms(diff)
    msg = f"Expected `distance` in ('euclidean', 'cityblock'), got {distance!r}"
    raise ValidationError(msg)


def _check_pair(prediction: Tensor, reference: Tensor) -> tuple[Tensor, Tensor]:
    p = check_points("prediction", prediction, min_points=1)
    r = check_points("reference", reference, min_points=1)
    if p.shape[:-2] != r.shape[:-2] or p.shape[-1] != r.shape[-1]:
        msg = (
            f"Expected `reference` of shape {(*p.shape[:-2], 'M', p.shape[-1])} to match "
            f"`prediction` {tuple(p.shape)} (same batch axes and D), got {tuple(r.shape)}"
        )
        raise ValidationError(msg)
    return p, r


def _dtw(p: Tensor, r: Tensor, distance: str) -> Tensor:
    batch, n, m, d = p.shape[:-2], p.shape[-2], r.shape[-2], p.shape[-1]
    q = p.reshape(-1, n, d)
    s = r.reshape(-1, m, d)
    rows = q.shape[0]
    inf = torch.full((rows, n + 1), math.inf, dtype=F64, device=p.device)
    before_last = inf.index_fill(1, torch.tensor([0], device=p.device), 0.0)
    last = inf
    for k in range(2, n + m + 1):
        i = torch.arange(max(1, k - m), min(n, k - 1) + 1, device=p.device)
        cost = _point_distance(q[:, i - 1, :] - s[:, k - i - 1, :], distance)
        best = torch.minimum(torch.minimum(last[:, i - 1], last[:, i]), before_last[:, i - 1])
        before_last, last = last, inf.index_copy(1, i, cost + best)
    return last[:, n].reshape(batch)


def dtw(prediction: Tensor, reference: Tensor, *, distance: str = "euclidean") -> Tensor:
    """Per-pair DTW distance (wavefront over anti-diagonals; see the NumPy ``dtw``).

    Examples
    --------
    >>> dtw(torch.tensor([[0.0], [1.0], [2.0]]), torch.tensor([[0.0], [2.0]])).item()
    1.0
    """
    p, r = _check_pair(prediction, reference)
    return _dtw(p, r, distance)


def ndtw(
    prediction: Tensor, reference: Tensor, *, threshold: float = 3.0, distance: str = "euclidean"
) -> Tensor:
    """Per-pair ``exp(-DTW / (|R| d_th))``.

    Examples
    --------
    >>> ndtw(torch.tensor([[0.0], [1.0]]), torch.tensor([[0.0], [1.0]])).item()
    1.0
    """
    threshold = check_positive("threshold", threshold)
    p, r = _check_pair(prediction, reference)
    return torch.exp(-_dtw(p, r, distance) / (r.shape[-2] * threshold))


def sdtw(
    prediction: Tensor, reference: Tensor, *, threshold: float = 3.0, distance: str = "euclidean"
) -> Tensor:
    """Per-pair nDTW where the prediction ends within ``threshold``, else 0.

    Examples
    --------
    >>> sdtw(torch.tensor([[0.0], [0.0]]), torch.tensor([[0.0], [5.0]]), threshold=1.0).item()
    0.0
    """
    threshold = check_positive("threshold", threshold)
    p, r = _check_pair(prediction, reference)
    success = _point_distance(p[..., -1, :] - r[..., -1, :], distance) <= threshold
    value = torch.exp(-_dtw(p, r, distance) / (r.shape[-2] * threshold))
    return torch.where(success, value, 0.0)


# --------------------------------------------------------------------------- navigation


def success_rate(success: Tensor) -> Tensor:
    """Each episode's success as 0.0 or 1.0.

    Examples
    --------
    >>> success_rate(torch.tensor([True, False])).tolist()
    [1.0, 0.0]
    """
    s = _as_tensor("success", success)
    bad = (s != 0) & (s != 1)
    if bool(bad.any().item()):
        index = _first_bad(bad)
        got = float(s[index].item())
        msg = f"Expected `success` as booleans or 0/1, got {got!r} at index {index}"
        raise ValidationError(msg)
    return s


def spl(success: Tensor, shortest_path_length: Tensor, path_length: Tensor) -> Tensor:
    """Per-episode ``S l / max(p, l)`` (Anderson et al. 2018).

    Examples
    --------
    >>> spl(torch.tensor([1, 1]), torch.tensor([10.0, 10.0]), torch.tensor([10.0, 20.0])).tolist()
    [1.0, 0.5]
    """
    s = success_rate(success)
    checked = []
    for name, value, positive in (
        ("shortest_path_length", shortest_path_length, True),
        ("path_length", path_length, False),
    ):
        x = _as_tensor(name, value)
        if x.shape != s.shape:
            shapes = f"{tuple(s.shape)}, got {tuple(x.shape)}"
            msg = f"Expected `{name}` of the shape of `success` {shapes}"
            raise ValidationError(msg)
        check_finite(name, x)
        bad = x <= 0 if positive else x < 0
        if bool(bad.any().item()):
            index = _first_bad(bad)
            want = "> 0" if positive else ">= 0"
            msg = f"Expected `{name}` {want} m, got {float(x[index].item())!r} at index {index}"
            raise ValidationError(msg)
        checked.append(x)
    shortest, taken = checked
    return s * shortest / torch.maximum(taken, shortest)
