"""``Signal``: one computed quantity, its statistics, its unit and the series they summarise.

A metric computes one signal per quantity (APE's translation error), per RPE delta
(translation over 1 s, over 2 s) and per drift segment length (translation % over 100 m).
What a signal is *of* is held in typed fields (``quantity``, ``delta`` with
``delta_unit``, ``length_m``), never in its name: the name is a label made from those
fields by :func:`signal_name` for tables and file columns, and nothing parses it back.
A summary-only signal (a comparison kept in a run report, an aggregate across runs) is
the same message with ``series=None``.
"""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np

from robot_msgs.compare.statistics import _SQUARES_SAFE, ErrorStats, _rms, error_stats
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.check import all_finite
from robot_msgs.series import real_array
from robot_msgs.typing import Float64Array, Int64Array

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "ErrorSeries",
    "Signal",
    "delta_words",
    "find_signal",
    "renamed_rpg_yaw",
    "select_signals",
    "signal_name",
    "signal_summary",
]


@message("compare/ErrorSeries")
class ErrorSeries(Msg):
    """The per-sample errors one ``ErrorStats`` summarised, with their time axis.

    Attributes
    ----------
    stamps_s : ndarray, shape (N,), float64, seconds on the estimate's clock
        The matched pose's stamp for APE, the end pose's for a pair.
    errors : ndarray, shape (N,), float64, the signal's unit
        NaN where a sample has no value, such as an RPE distance ratio over a zero
        reference distance.
    pairs : ndarray, shape (N, 2), int64, or None
        The rows ``(i, j)`` of each pair in the result's matched trajectories, for
        relative errors (RPE, drift segments); ``None`` for absolute errors, where row
        ``k`` is matched pose ``k``.

    Examples
    --------
    >>> s = ErrorSeries(stamps_s=[0.0, 1.0], errors=[0.3, 0.4])
    >>> len(s), s.pairs is None
    (2, True)
    """

    stamps_s: Annotated[Float64Array, Shape("N")]
    errors: Annotated[Float64Array, Shape("N")]
    pairs: Annotated[Int64Array, Shape("N", 2)] | None = None

    def __len__(self) -> int:
        return int(self.errors.shape[0])

    def _validate(self) -> None:
        # WHY: every stamp is a matched pose's, and readers drop rows with NaN or inf; a
        # saved result (an .npz entry of float16 stamps that overflowed) gave inf stamps,
        # and plotting them printed NumPy's RuntimeWarning (res --plot/--html).
        if not all_finite(self.stamps_s):
            raise self._fail(field="stamps_s", expected="finite values", got=self.stamps_s)

    @property
    def n_finite(self) -> int:
        """How many samples have a value (finite errors): what statistics of it count."""
        return int(np.count_nonzero(np.isfinite(self.errors)))

    def rows(self) -> Int64Array:
        """Return the matched pose each error belongs to: row k for APE, the pair's end else."""
        return self.pairs[:, 1] if self.pairs is not None else np.arange(len(self))


def signal_name(
    quantity: str,
    *,
    delta: float | None = None,
    delta_unit: str | None = None,
    length_m: float | None = None,
) -> str:
    """Label a signal by its quantity and parameters: ``translation@1s``, ``translation_pct@100m``.

    The one place such a label is made; nothing reads one back (the parameters are the
    signal's fields).

    Examples
    --------
    >>> signal_name("translation"), signal_name("angle_deg", delta=0.5, delta_unit="s")
    ('translation', 'angle_deg@0.5s')
    >>> signal_name("translation_pct", length_m=100.0)
    'translation_pct@100m'
    """
    if delta is not None:
        quantity += f"@{delta:g}{delta_unit or ''}"
    if length_m is not None:
        quantity += f"@{length_m:g}m"
    return quantity


def delta_words(delta: float, unit: str, *, digits: int = 6) -> str:
    """Say an RPE delta as a reader says it: ``1 frame``, ``10 frames``, ``0.5 s``.

    The one wording of a delta's amount wherever words are read (a figure's axis, legend
    and title, an error); :func:`signal_name`'s ``@1f`` is a label, not words. A figure
    titled ``delta 1 f`` over an axis saying ``over 1 frame`` spelt one unit two ways
    (a review).

    Examples
    --------
    >>> delta_words(1.0, "f"), delta_words(5.0, "f"), delta_words(0.5, "s")
    ('1 frame', '5 frames', '0.5 s')
    >>> delta_words(0.0123456, "m", digits=3), delta_words(2.0, "")
    ('0.0123 m', '2')
    """
    if unit == "f":
        unit = "frame" if delta == 1 else "frames"
    return f"{delta:.{digits}g} {unit}".rstrip()


#: How far a signal's rms may be from its series', relative: summation order only.
_RMS_REL = 1e-9
#: Series up to this many samples are checked with Python floats (:func:`_disagreement`).
_FEW = 32


def _disagreement(stats: ErrorStats, errors: Float64Array) -> tuple[str, str] | None:
    """Say what of ``stats`` its series' finite ``errors`` do not give: (theirs, ours).

    WHY: the statistics summarise the series; a saved result edited in one and not the
    other (its rms, its errors nulled) was shown as it said. The count, the extremes
    (order statistics: exact) and the rms (one dot product, to rounding) are checked:
    about 1 ms at 10^6 samples, no full-size temporary unless some are not finite.
    WHY Python floats for a few samples: the six NumPy calls and the error state cost
    17 us for 4 samples, the same sums over a list 2 us (a signal's JSON round trip
    was 1.2-1.3x ``json``'s, issue 20); the numbers are the same up to the summation
    order of the rms, which is compared to 1e-9.
    """
    if errors.size <= _FEW:
        values = errors.tolist()
        finite_values = [v for v in values if v - v == 0.0]  # inf - inf and NaN are NaN
        n = len(finite_values)
        if n != stats.n:
            return f"{n} of them", f"n={stats.n}"
        if n == 0:
            return None
        low, high = min(finite_values), max(finite_values)
        # a plain sum: within 32 eps of fsum's, and inf past float64 as NumPy's dot
        rms = math.sqrt(sum(map(operator.mul, finite_values, finite_values)) / n)
        return _stats_said(stats, low, high, rms, finite_values)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        finite = errors if np.isfinite(errors.sum()) else errors[np.isfinite(errors)]
        n = int(finite.size)
        if n != stats.n:
            return f"{n} of them", f"n={stats.n}"
        if n == 0:
            return None
        low, high = float(finite.min()), float(finite.max())
        rms = math.sqrt(float(np.dot(finite, finite)) / n)
    return _stats_said(stats, low, high, rms, finite)


def _stats_said(
    stats: ErrorStats, low: float, high: float, rms: float, finite: Float64Array | list[float]
) -> tuple[str, str] | None:
    """Compare the extremes (exactly) and the rms (to ``_RMS_REL``) with the series'.

    Where the squares of the ``finite`` samples overflow or underflow, the rms is the
    scaled one :func:`~robot_msgs.compare.statistics.error_stats` gives, or the plain one
    (inf, or of squares flushed to 0) it gave before: results saved then still load.
    """
    if (low, high) != (stats.min, stats.max):
        return f"min {low!r}, max {high!r}", f"min={stats.min!r}, max={stats.max!r}"
    if math.isclose(rms, stats.rms, rel_tol=_RMS_REL):
        return None
    max_abs = max(-low, high)
    if not math.isfinite(rms) or 0.0 < max_abs < _SQUARES_SAFE[0]:
        scaled = _rms(np.asarray(finite, dtype=np.float64), max_abs)
        if math.isclose(scaled, stats.rms, rel_tol=_RMS_REL):
            return None
        rms = scaled
    return f"rms {rms!r}", f"rms={stats.rms!r}"


#: rpg's relative yaw: named ``yaw_deg`` before c2d08f8 (APE's name for yaw about the
#: reference body z), ``yaw_world_deg`` since (rpg's ``rel_yaw`` is about world z).
_RPG_YAW_V0, _RPG_YAW = "yaw_deg", "yaw_world_deg"


def renamed_rpg_yaw(label: str) -> str:
    """Return a signal label ``yaw_deg@…`` as ``yaw_world_deg@…`` (any other as it is).

    >>> renamed_rpg_yaw("yaw_deg@10m"), renamed_rpg_yaw("yaw_deg")
    ('yaw_world_deg@10m', 'yaw_deg')
    """
    head = _RPG_YAW_V0 + "@"
    return _RPG_YAW + label[len(_RPG_YAW_V0) :] if label.startswith(head) else label


@message("compare/Signal")
class Signal(Msg):
    """One computed quantity: its name, what it is, its unit, its statistics and its series.

    The parameters that tell signals of one quantity apart are fields (``delta``,
    ``delta_unit``, ``length_m``).

    Attributes
    ----------
    name : str
        The parameters' label (:func:`signal_name`), unique within a comparison.
    quantity : str
        What was computed (``"translation"``, ``"angle_deg"``, ``"translation_pct"``, a
        control channel, ``"coverage"``).
    unit : str
        Its unit (``"m"``, ``"deg"``, ``"%"``, ``""`` for a ratio).
    stats : ErrorStats
        Summarises ``series``.
    series : ErrorSeries or None
        ``None`` in a summary.
    delta : float or None
        An RPE interval, in ``delta_unit``.
    delta_unit : str or None
        ``f``/``s``/``m``/``rad``/``deg``.
    length_m : float or None, metres
        A drift segment length.

    Examples
    --------
    >>> s = Signal.of("translation", "m", [0.3, 0.4], stamps_s=[0.0, 1.0], delta=1.0,
    ...               delta_unit="s")
    >>> s.name, round(s.stats.rms, 6), s.summary().series is None
    ('translation@1s', 0.353553, True)
    """

    name: str
    quantity: str
    unit: str
    stats: ErrorStats
    series: ErrorSeries | None = None
    delta: float | None = None
    delta_unit: str | None = None
    length_m: float | None = None

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Read rpg's yaw saved as ``yaw_deg`` (before the rename: c2d08f8) as ``yaw_world_deg``.

        Its quantity and its name's ``yaw_deg@`` become ``yaw_world_deg``; any other signal
        is returned as it is (``data`` itself). Here, not in :mod:`~robot_msgs.compare.migrate`,
        which names signals by this module (an import cycle otherwise).

        Examples
        --------
        >>> old = {"name": "yaw_deg@7.58m", "quantity": "yaw_deg", "length_m": 7.58}
        >>> dict(Signal._upgrade(old))
        {'name': 'yaw_world_deg@7.58m', 'quantity': 'yaw_world_deg', 'length_m': 7.58}
        >>> ape = {"name": "yaw_deg", "quantity": "yaw_deg"}
        >>> Signal._upgrade(ape) is ape
        True
        """
        if data.get("quantity") != _RPG_YAW_V0 or data.get("length_m") is None:
            return data
        name = data.get("name")
        named = {"name": renamed_rpg_yaw(name)} if isinstance(name, str) else {}
        return {**data, "quantity": _RPG_YAW, **named}

    def _validate(self) -> None:
        if (self.delta is None) != (self.delta_unit is None):
            expected = "a delta with its unit, or neither"
            raise self._fail(field="delta_unit", expected=expected, got=self.delta_unit)
        if self.length_m is not None:
            if not self.length_m > 0:
                expected = "a length > 0 metres"
                raise self._fail(field="length_m", expected=expected, got=self.length_m)
            # WHY refused: a file saved before the rename then takes the reading road that
            # migrates it (``_upgrade``); yaw_deg is APE's yaw about the reference body z.
            if self.quantity == "yaw_deg":
                expected = "rpg's yaw per segment as yaw_world_deg (about world z)"
                raise self._fail(field="quantity", expected=expected, got=self.quantity)
        if self.series is not None:
            said = _disagreement(self.stats, self.series.errors)
            if said is not None:
                expected = f"statistics of the finite samples of the series ({said[0]})"
                raise self._fail(field="stats", expected=expected, got=said[1])

    @classmethod
    def of(
        cls,
        quantity: str,
        unit: str,
        errors: Float64Array | Iterable[float],
        *,
        stamps_s: Float64Array | Iterable[float],
        pairs: Int64Array | None = None,
        name: str | None = None,
        integrate: bool = True,
        delta: float | None = None,
        delta_unit: str | None = None,
        length_m: float | None = None,
        itae_from_s: float | None = None,
    ) -> Signal:
        """Build a signal from its errors: the statistics, the series and the name.

        ``name`` defaults to :func:`signal_name` of the quantity and every parameter; a
        metric whose signals are told apart without a parameter (one RPE delta) names
        them by less. ``integrate``: the stamps are a time axis for ``iae``/``ise``/``itae`` when
        they increase strictly (consecutive pairs, matched poses); overlapping pairs and
        segments have none. ``itae_from_s``: as for :func:`~robot_msgs.compare.error_stats`.
        """
        # WHY real_array, as error_stats reads its input: np.asarray(..., float64) read
        # ["1.5"] as 1.5, a timedelta64 index as counts of its unit, and let NumPy's
        # ValueError and TypeError out for ["a"] and complex numbers (a review).
        series = ErrorSeries(
            stamps_s=real_array("stamps_s", stamps_s),
            errors=real_array("errors", errors),
            pairs=pairs,
        )
        t = series.stamps_s
        increasing = t.size < 2 or bool((t[1:] > t[:-1]).all())
        stats = error_stats(
            series.errors, t=t if integrate and increasing else None, itae_from_s=itae_from_s
        )
        if name is None:
            name = signal_name(quantity, delta=delta, delta_unit=delta_unit, length_m=length_m)
        return cls(
            name=name,
            quantity=quantity,
            unit=unit,
            stats=stats,
            series=series,
            delta=delta,
            delta_unit=delta_unit,
            length_m=length_m,
        )

    def summary(self) -> Signal:
        """Return this signal without its series (what a report keeps)."""
        return self if self.series is None else self.replace(series=None)


def find_signal(signals: Iterable[Signal], name: str) -> Signal | None:
    """Return the signal called ``name``, or ``None``.

    Examples
    --------
    >>> find_signal([Signal.of("x", "m", [1.0], stamps_s=[0.0])], "x").unit
    'm'
    """
    return next((s for s in signals if s.name == name), None)


def select_signals(
    signals: Iterable[Signal], wanted: Iterable[str]
) -> tuple[list[Signal], list[str]]:
    """Return the signals ``wanted`` picks (in its order, each once) and the words picking none.

    A word picks the signal of that name; a word naming no signal picks every signal of
    that quantity (a drift's quantity at each length: ``yaw_world_deg`` picks
    ``yaw_world_deg@7.58m`` ...). A KITTI drift's pooled ``translation_pct`` is a name, so
    it is that signal alone, not the lengths beside it. The one selection of ``res
    --signal`` and :meth:`EvaluationResult.plot`'s ``signals``.

    Examples
    --------
    >>> at = [Signal.of("yaw", "deg", [1.0], stamps_s=[0.0], length_m=v) for v in (1.0, 2.0)]
    >>> kept, unknown = select_signals(at, ["yaw", "roll"])
    >>> [s.name for s in kept], unknown
    (['yaw@1m', 'yaw@2m'], ['roll'])
    >>> pooled = Signal.of("yaw", "deg", [1.0], stamps_s=[0.0])
    >>> [s.name for s in select_signals([pooled, *at], ["yaw"])[0]]
    ['yaw']
    """
    held = list(signals)
    kept: list[Signal] = []
    unknown: list[str] = []
    for word in wanted:
        chosen = [s for s in held if s.name == word] or [s for s in held if s.quantity == word]
        if not chosen:
            unknown.append(word)
        kept += [s for s in chosen if not any(s is k for k in kept)]
    return kept, unknown


def signal_summary(signal: Signal) -> str:
    """Return a signal in one phrase: its name, sample count, rms and mean with the unit.

    What a large comparison's ``repr`` shows of each signal (:mod:`robot_msgs.msg.repr`).

    Examples
    --------
    >>> signal_summary(Signal.of("translation", "m", [0.3, 0.4], stamps_s=[0.0, 1.0]))
    '<Signal translation: n=2, rms 0.353553 m, mean 0.35 m>'
    """
    stats, unit = signal.stats, f" {signal.unit}" if signal.unit else ""
    return (
        f"<Signal {signal.name}: n={stats.n}, rms {stats.rms:.6g}{unit}, "
        f"mean {stats.mean:.6g}{unit}>"
    )
