"""What a sweep did, in one value: counts by outcome, every run that did not finish, timing.

Three outcomes are kept apart. A run *evaluated* is a result, even when it failed as a
run (it lost tracking for good, it reported an exit code): those are counted by reason
in ``run_failures`` and ranked against their algorithm. A run that *failed to evaluate*
(its input cannot be read, its settings are refused) is the run's own failure, stored
and named in ``errors``. A run *not evaluated* for a reason outside it (its worker died
every time, the scheduler was lost, the sweep was stopped) is named in
``infrastructure``, never stored, and computed by ``--resume``. Neither has a report:
the rankings and aggregates leave both out, as ``report --allow-partial`` does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from robot_msgs.report.text import controls_escaped, counted, wrap

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["SHOWN_PER_KIND", "SweepSummary"]

#: Runs named per kind of failure in the printed summary (``summary.json`` has them all).
SHOWN_PER_KIND = 20


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepSummary:
    """Counts, failures by run, where the table is, how long it took.

    ``n_ok`` runs were evaluated (``n_succeeded`` of them succeeded as runs; the others'
    reasons are in ``run_failures``); ``n_failed`` failed to evaluate (``errors``:
    ``algorithm/sequence/trial`` -> error); ``n_crashed`` and ``n_lost`` were not
    evaluated (``infrastructure``: the same). ``n_reused`` results were kept from an
    earlier sweep (their inputs unchanged by their stamps, or re-hashed by a worker),
    ``n_computed`` runs were evaluated, or tried, in this one. ``compute_s`` is the
    wall time from the first chunk sent to the last result, ``startup_s`` the part
    before the first result, ``throughput`` the runs finished per second after it
    (:class:`robot_msgs.progress.Progress`, the rate the progress line showed).
    ``stopped`` says why the sweep stopped before every run was tried (a record that
    could not be stored, no worker for ``--stall-timeout``), empty when it did not;
    ``storage_error``: it stopped because something could not be written (a full disk).
    """

    out: str
    executor: str
    n_runs: int
    n_ok: int
    n_succeeded: int
    n_failed: int
    n_crashed: int
    n_lost: int
    n_reused: int
    n_computed: int
    elapsed_s: float
    table: str
    compute_s: float = 0.0
    startup_s: float = math.nan
    throughput: float = math.nan
    run_failures: Mapping[str, int] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    infrastructure: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    stopped: str = ""
    storage_error: bool = False

    @property
    def n_not_evaluated(self) -> int:
        """Runs lost to the infrastructure (crashed or lost)."""
        return self.n_crashed + self.n_lost

    @property
    def complete(self) -> bool:
        """Whether every run was evaluated (none failed to evaluate, none not evaluated)."""
        return self.n_failed == 0 and self.n_not_evaluated == 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data | {"complete": self.complete}

    def text(self) -> str:
        """Return the final summary printed by ``robot-msgs bench``.

        Examples
        --------
        >>> s = SweepSummary(out="o", executor="2 local worker processes", n_runs=4, n_ok=2,
        ...                  n_succeeded=1, n_failed=1, n_crashed=0, n_lost=1, n_reused=1,
        ...                  n_computed=3, elapsed_s=4.5, compute_s=4.0, startup_s=1.0,
        ...                  throughput=0.5, table="o/results.parquet",
        ...                  run_failures={"killed by SIGSEGV (exit code -11)": 1},
        ...                  errors={"orb/MH_01/3": "FormatError: est.tum:3: bad"},
        ...                  infrastructure={"orb/MH_01/4": "SchedulerLost: gone"})
        >>> print(s.text())
        4 runs: 2 evaluated (1 succeeded), 1 failed to evaluate, 1 not evaluated (0
        crashed their worker, 1 lost by the cluster); 1 reused, 3 computed in 4.0 s on 2
        local worker processes: 0.50 runs/s after the first result at 1.0 s
        run failures: 1 killed by SIGSEGV (exit code -11)
        failed to evaluate: orb/MH_01/3: FormatError: est.tum:3: bad
        not evaluated: orb/MH_01/4: SchedulerLost: gone
        --resume computes the 1 run not evaluated
        table: o/results.parquet

        Results that came too close together for a rate after the first give the rate
        over the whole computation, start-up included, and say so:

        >>> import dataclasses
        >>> print(dataclasses.replace(s, throughput=float("nan")).text().splitlines()[2])
        local worker processes: 0.75 runs/s, start-up included
        """
        if math.isfinite(self.throughput):
            start = f"{self.startup_s:.1f} s" if math.isfinite(self.startup_s) else "--"
            rate = f"{self.throughput:.2f} runs/s after the first result at {start}"
        elif self.n_computed and self.compute_s > 0:
            rate = f"{self.n_computed / self.compute_s:.2f} runs/s, start-up included"
        else:
            rate = "no rate (nothing computed)"
        # The parts of "not evaluated" are the infrastructure's, and said so: "(0
        # crashed, 0 lost)" beside "run failures: 8 segfault" read as no run crashed.
        parts = (
            f" ({self.n_crashed} crashed their worker, {self.n_lost} lost by the cluster)"
            if self.n_not_evaluated
            else ""
        )
        head = (
            f"{counted(self.n_runs, 'run')}: {self.n_ok} evaluated ({self.n_succeeded} succeeded), "
            f"{self.n_failed} failed to evaluate, {self.n_not_evaluated} not evaluated"
            f"{parts}; {self.n_reused} reused, "
            f"{self.n_computed} computed in {self.compute_s:.1f} s on {self.executor}: {rate}"
        )
        lines = _said(head, "")  # words whole: start-up is not start-/up
        if self.run_failures:  # the count first: a reason may end in a number (exit code 3)
            reasons = "; ".join(f"{v} {k}" for k, v in sorted(self.run_failures.items()))
            lines += _said(f"run failures: {reasons}")
        for kind, named in (
            ("failed to evaluate", self.errors),
            ("not evaluated", self.infrastructure),
        ):
            shown = list(named.items())[:SHOWN_PER_KIND]
            # Wrapped as the lines above: an error naming its file ran to 268 columns.
            for label, error in shown:
                lines += _said(f"{kind}: {label}: {error}")
            if len(named) > len(shown):
                lines.append(f"{kind}: ... and {len(named) - len(shown)} more (summary.json)")
        if self.stopped:
            lines += _said(f"stopped: {self.stopped}")
        if self.n_not_evaluated:
            n = counted(self.n_not_evaluated, "run")
            lines.append(f"--resume computes the {n} not evaluated")
        for note in self.notes:
            lines += _said(f"note: {note}")
        lines.append(controls_escaped(f"table: {self.table or 'not written'}"))  # one line
        return "\n".join(lines)


def _said(text: str, indent: str = "  ") -> list[str]:
    r"""Lines of at most 80 columns saying ``text``, each control character escaped.

    WHY escaped: a run's name, a meta.json ``failure`` and an error quoting a path come
    from files; a run folder named with ESC [31m turned the terminal red and one with a
    newline printed as a space (the ``ERROR:`` line showed both as ``\\x1b``, ``\\x0a``).
    """
    return wrap(controls_escaped(text), subsequent_indent=indent)
