"""Spectral arc length, ``SPARC``: smoothness of a speed profile from its Fourier spectrum.

Balasubramanian, Melendez-Calderon, Roby-Brami & Burdet, "On the analysis of movement
smoothness", *J. NeuroEng. Rehabil.* 12:112, 2015 (SPARC, eq. 8 and its defaults).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import (
    StreamingMean,
    array_namespace,
    as_result,
    at_index,
    check_positive,
    check_samples,
    first_index,
)
from robot_msgs.metrics.jerk import check_moving

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from torch import Tensor

    from robot_msgs.typing import Float64Array

__all__ = ["SPARC", "sparc"]


def check_settings(
    sample_rate_hz: float, max_cutoff_hz: float, amplitude_threshold: float, pad_level: int
) -> tuple[float, float, float, int]:
    """SPARC's settings checked and normalised, or :class:`ValidationError` naming the one."""
    fs = check_positive("sample_rate_hz", sample_rate_hz)
    fc = check_positive("max_cutoff_hz", max_cutoff_hz)
    threshold = check_positive("amplitude_threshold", amplitude_threshold)
    if threshold > 1:  # 2.0 gave the arc of the whole band [0, fc], where nothing reaches it
        msg = (
            f"Expected `amplitude_threshold` <= 1 (a fraction of the spectrum's peak), got "
            f"{threshold!r}"
        )
        raise ValidationError(msg)
    if fc > fs / 2:
        msg = f"Expected `max_cutoff_hz` <= the Nyquist frequency {fs / 2!r} Hz, got {fc!r}"
        raise ValidationError(msg)
    if isinstance(pad_level, bool) or not isinstance(pad_level, int | np.integer) or pad_level < 0:
        msg = f"Expected `pad_level` as an int >= 0, got {pad_level!r}"
        raise ValidationError(msg)
    return fs, fc, threshold, int(pad_level)


#: The longest zero-padded spectrum: 2**26 points, 1 GiB of complex128 a profile.
_MAX_FFT = 1 << 26


def _sparc_kernel(speed: Any, fs: float, fc: float, threshold: float, pad_level: int) -> Any:
    xp = array_namespace(speed)
    n = speed.shape[-1]
    nfft = 2 ** (math.ceil(math.log2(n)) + pad_level)
    if nfft > _MAX_FFT:  # pad_level=40 asked NumPy for 128 TiB: a MemoryError (a review)
        msg = (
            f"Expected `pad_level` small enough for an FFT of at most 2**26 points, got "
            f"{pad_level} (2**{int(math.log2(nfft))} points for {n} samples; the reference "
            "code's default is 4)"
        )
        raise ValidationError(msg)
    if math.prod(speed.shape[:-1]) == 0:
        # No profile: no value. torch's FFT of a batch of none raised its RuntimeError
        # ('MKL FFT error: ... Inconsistent configuration parameters'), NumPy's did not.
        return as_result(xp.sum(speed, axis=-1))
    # The spectrum is normalised to its peak, so the speed may be first: 1.7e308 m/s
    # overflowed the FFT ('overflow encountered in rfft_n_even' where warnings are errors).
    scale = xp.max(xp.abs(speed), axis=-1, keepdims=True)
    check_moving(scale[..., 0])  # still: the spectrum's peak is 0 too
    spectrum = xp.abs(xp.fft.rfft(speed / scale, n=nfft, axis=-1))  # 0 .. fs/2: real input
    peak = xp.max(spectrum, axis=-1, keepdims=True)
    n_bins = math.floor(fc * nfft / fs + 1e-9) + 1  # bins with f <= fc
    magnitude = (spectrum / peak)[..., :n_bins]
    above = xp.where(magnitude >= threshold, 1, 0)
    reached = xp.any(magnitude >= threshold, axis=-1)
    if not bool(xp.all(reached)):
        # The reference code fails here (IndexError); the arc of the whole band [0, fc]
        # came out instead, a number for a spectrum the definition leaves out (a review).
        msg = (
            f"Expected the speed spectrum to reach `amplitude_threshold` {threshold!r} of its "
            f"peak at or below `max_cutoff_hz` {fc!r} Hz, got a profile"
            f"{at_index(first_index(~reached))} whose spectrum stays below it there (its "
            "movement lies above the cut-off)"
        )
        raise ValidationError(msg)
    first = xp.argmax(above, axis=-1)
    last = n_bins - 1 - xp.argmax(xp.flip(above, axis=-1), axis=-1)
    segments = xp.arange(n_bins - 1, device=speed.device)
    inside = (segments >= first[..., None]) & (segments < last[..., None])
    span = xp.asarray(xp.maximum(last - first, xp.ones_like(first)), dtype=xp.float64)[..., None]
    rise = magnitude[..., 1:] - magnitude[..., :-1]  # (f_last - f_first) / df is span
    arc = xp.sqrt(1.0 / (span * span) + rise * rise)
    return as_result(-xp.sum(xp.where(inside, arc, 0.0), axis=-1))


@overload
def sparc(
    speed: Tensor,
    sample_rate_hz: float,
    *,
    max_cutoff_hz: float = 10.0,
    amplitude_threshold: float = 0.05,
    pad_level: int = 4,
) -> Tensor: ...
@overload
def sparc(
    speed: ArrayLike,
    sample_rate_hz: float,
    *,
    max_cutoff_hz: float = 10.0,
    amplitude_threshold: float = 0.05,
    pad_level: int = 4,
) -> Float64Array: ...
def sparc(
    speed: Any,
    sample_rate_hz: float,
    *,
    max_cutoff_hz: float = 10.0,
    amplitude_threshold: float = 0.05,
    pad_level: int = 4,
) -> Any:
    r"""Spectral arc length of each speed profile (negative; closer to 0 is smoother).

    .. math::

        \mathrm{SPARC} = -\int_{\omega_1}^{\omega_c} \sqrt{\left(\frac{1}{\omega_c - \omega_1}
            \right)^2 + \left(\frac{d\hat V(\omega)}{d\omega}\right)^2}\, d\omega,
        \qquad \hat V = \frac{|V(\omega)|}{\max_\omega |V(\omega)|}

    where :math:`V` is the Fourier magnitude of the speed zero-padded to
    :math:`2^{\lceil \log_2 L \rceil + \text{pad\_level}}` points, and
    :math:`[\omega_1, \omega_c]` runs from the first to the last frequency at or below
    ``max_cutoff_hz`` whose :math:`\hat V \ge` ``amplitude_threshold``, as the reference
    implementation (Balasubramanian, ``smoothness.py``) selects it; the arc is summed over
    the discrete spectrum. Balasubramanian et al., *J. NeuroEng. Rehabil.* 12:112, 2015.

    Parameters
    ----------
    speed : array_like, shape (..., L), float64, m/s
        Uniformly sampled, ``L >= 2``, not 0 throughout, with some of its spectrum at or
        below ``max_cutoff_hz`` reaching ``amplitude_threshold`` (else there is no arc to
        measure: :class:`ValidationError`, where the reference code fails).
    sample_rate_hz : float
    max_cutoff_hz : float
        Upper limit of the spectrum considered, at most the Nyquist frequency (10 Hz).
    amplitude_threshold : float
        Normalised magnitude below which the spectrum is ignored, in ``(0, 1]`` (0.05).
    pad_level : int
        Extra powers of two of zero-padding (4).

    Returns
    -------
    ndarray, shape (...), float64

    Examples
    --------
    >>> t = np.arange(-1, 1, 0.01)
    >>> round(float(sparc(np.exp(-5 * t**2), 100.0)), 5)
    -1.41403
    """
    fs, fc, threshold, pad = check_settings(
        sample_rate_hz, max_cutoff_hz, amplitude_threshold, pad_level
    )
    return _sparc_kernel(check_samples("speed", speed, min_samples=2), fs, fc, threshold, pad)


class SparcOptions:
    """SPARC's four options, checked by :func:`check_settings`: the NumPy and torch ``SPARC``'s.

    Each ``SPARC`` declares its own ``__init__`` with the four keywords and calls
    :meth:`_set_options`. WHY not one shared ``__init__`` here: Python names the function
    that refused an argument, so ``SPARC(sample_rate=100.0)`` said
    ``SparcOptions.__init__() got an unexpected keyword argument`` (a class the user never
    met; a review).
    """

    sample_rate_hz: float
    max_cutoff_hz: float
    amplitude_threshold: float
    pad_level: int

    def _set_options(
        self,
        sample_rate_hz: float,
        max_cutoff_hz: float,
        amplitude_threshold: float,
        pad_level: int,
    ) -> None:
        fs, fc, threshold, pad = check_settings(
            sample_rate_hz, max_cutoff_hz, amplitude_threshold, pad_level
        )
        self.sample_rate_hz, self.max_cutoff_hz = fs, fc
        self.amplitude_threshold, self.pad_level = threshold, pad


class SPARC(SparcOptions, StreamingMean):
    """Mean spectral arc length over every speed profile seen (see :func:`sparc`).

    Examples
    --------
    >>> t = np.arange(-1, 1, 0.01)
    >>> metric = SPARC(sample_rate_hz=100.0)
    >>> metric.update(np.stack([np.exp(-5 * t**2), np.exp(-5 * t**2)]))
    >>> round(metric.compute(), 5), metric.count
    (-1.41403, 2)
    """

    def __init__(
        self,
        *,
        sample_rate_hz: float,
        max_cutoff_hz: float = 10.0,
        amplitude_threshold: float = 0.05,
        pad_level: int = 4,
    ) -> None:
        super().__init__()
        self._set_options(sample_rate_hz, max_cutoff_hz, amplitude_threshold, pad_level)

    def update(self, speed: Any) -> None:
        """Record speed profiles of shape ``(..., L)``, ``L >= 2``, m/s."""
        samples = check_samples("speed", speed, min_samples=2)
        self._accumulate(
            _sparc_kernel(
                samples,
                self.sample_rate_hz,
                self.max_cutoff_hz,
                self.amplitude_threshold,
                self.pad_level,
            )
        )
