"""The plan: chunk sizes from measured cost, suspects run alone, retries counted once for all."""

from __future__ import annotations

import math

import pytest

from robot_msgs.batch.executors import ChunkDone, ChunkLost, Stopped, Waiting
from robot_msgs.batch.plan import (
    MAX_CHUNK,
    SCHEDULER_SHARE,
    TASK_COST_S,
    ChunkPlan,
    SweepState,
    default_chunk_s,
)
from robot_msgs.batch.worker import NOT_RUN, NOT_STORED, Chunk, ChunkResult, RunSummary
from robot_msgs.runs import RunSpec


def _runs(n: int) -> list[RunSpec]:
    return [RunSpec(name=f"r{i}", algorithm="a", sequence="s", trial=str(i)) for i in range(n)]


def _ok(i: int, *, success: bool = True, failure: str = "") -> RunSummary:
    return RunSummary(
        position=i, status="ok", success=success, has_reference=True, failure=failure,
        error_type="", error="", reused=False, elapsed_s=0.1, cpu_s=0.05,
    )  # fmt: skip


def _done(chunk: Chunk, seconds: float) -> ChunkResult:
    summaries = tuple(_ok(i) for i in chunk.indices)
    return ChunkResult(
        number=chunk.number, summaries=summaries, elapsed_s=seconds, cpu_s=0, worker="w"
    )


def _plan(n: int, **kwargs: object) -> ChunkPlan:
    kwargs.setdefault("retries", 1)
    return ChunkPlan(_runs(n), range(n), SweepState(n), **kwargs)  # type: ignore[arg-type]


def _take(plan: ChunkPlan) -> Chunk:
    chunk = plan.next_chunk()
    assert chunk is not None
    return chunk


def test_chunks_hold_the_target_seconds_of_measured_work() -> None:
    plan = _plan(1000, slots=2, target_s=1.0)
    first, second = _take(plan), _take(plan)
    assert (len(first), len(second)) == (1, 1)  # nothing measured: one run per slot ...
    assert plan.next_chunk() is None  # ... and no more until one has come back
    assert plan.seconds_per_run != plan.seconds_per_run  # NaN
    plan.done(_done(first, 0.05))  # 50 ms a run: 1 s is 20 runs
    assert plan.seconds_per_run == pytest.approx(0.05)
    assert plan.chunk_size() == 20
    plan.done(_done(second, 0.15))  # now 2 runs in 0.2 s: 100 ms a run, 10 runs a chunk
    assert len(_take(plan)) == 10


def test_the_last_chunks_shrink_so_every_slot_works_to_the_end() -> None:
    plan = _plan(40, slots=2, target_s=100.0)
    plan.done(_done(_take(plan), 0.01))  # a target of 10^4 runs: capped by what is left
    assert plan.chunk_size() == 10  # 39 left over 2 slots, two chunks each: ceil(39 / 4)
    sizes = []
    while (chunk := plan.next_chunk()) is not None:
        sizes.append(len(chunk))
    assert sizes == [10, 8, 6, 4, 3, 2, 2, 1, 1, 1, 1]
    assert sum(sizes) == 39


def test_cheap_runs_are_capped_at_max_chunk() -> None:
    plan = _plan(10 * MAX_CHUNK, slots=1, target_s=1.0)
    plan.done(_done(_take(plan), 1e-6))
    assert plan.chunk_size() == MAX_CHUNK


def test_a_dead_workers_chunk_goes_back_as_suspects_and_only_a_run_alone_is_charged() -> None:
    plan = _plan(30, slots=1, retries=1)
    plan.done(_done(_take(plan), 0.01))
    chunk = _take(plan)
    assert len(chunk) > 1
    assert plan.lost(chunk.number, "crashed", "WorkerCrash", "died") == []  # nobody charged
    assert [i for i, _ in plan.alone] == list(chunk.indices)
    suspect = _take(plan)
    assert (suspect.indices, suspect.attempts) == (chunk.indices[:1], (2,))
    assert plan.lost(suspect.number, "crashed", "WorkerCrash", "died") == []  # charged once
    for _ in chunk.indices[1:]:  # the other suspects go first, each alone
        plan.done(_done(_take(plan), 0.01))
    again = _take(plan)
    assert (again.indices, again.attempts) == (chunk.indices[:1], (3,))
    [ended] = plan.lost(again.number, "crashed", "WorkerCrash", "died")
    assert (ended.position, ended.status) == (chunk.indices[0], "crashed")
    assert ended.error == "died (2 times, the run alone on its worker)"
    assert plan.state.errors[chunk.indices[0]] == ("crashed", "WorkerCrash", ended.error)


def test_without_isolated_workers_one_suspect_is_in_flight_at_a_time() -> None:
    plan = _plan(4, slots=4, isolated=False, retries=0)
    probes = [_take(plan) for _ in range(4)]  # one run each, but on shared workers
    for chunk in probes:
        assert plan.lost(chunk.number, "crashed", "KilledWorker", "k") == []  # not alone
    first = _take(plan)
    assert plan.next_chunk() is None  # the other suspects wait for it
    plan.done(_done(first, 0.01))
    second = _take(plan)
    [ended] = plan.lost(second.number, "crashed", "KilledWorker", "k")  # alone: charged
    assert (ended.position, ended.status) == (second.indices[0], "crashed")


def test_with_isolated_workers_suspects_run_in_parallel_and_a_lone_chunk_is_charged() -> None:
    plan = _plan(4, slots=4, isolated=True, retries=0)
    chunk = _take(plan)  # one run on its own worker process: a death is its own
    [ended] = plan.lost(chunk.number, "crashed", "WorkerCrash", "w")
    assert ended.position == chunk.indices[0]


def test_runs_lost_with_the_scheduler_go_back_together_charged_then_end_lost() -> None:
    plan = _plan(6, slots=1, retries=1)
    plan.done(_done(_take(plan), 0.001))
    chunk = _take(plan)
    assert plan.lost(chunk.number, "lost", "SchedulerLost", "gone") == []
    again = _take(plan)
    assert (again.indices, set(again.attempts)) == (chunk.indices, {2})
    ended = plan.lost(again.number, "lost", "SchedulerLost", "gone")
    assert [s.position for s in ended] == list(chunk.indices)
    assert {s.status for s in ended} == {"lost"}


def test_take_dispatches_outcomes_and_stopped_abandons_everything_left() -> None:
    plan = _plan(10, slots=2, retries=2)
    a, b = _take(plan), _take(plan)
    assert [s.position for s in plan.take(ChunkDone(_done(a, 0.01)))] == list(a.indices)
    assert plan.take(ChunkLost(b.number, "lost", "SchedulerLost", "gone")) == []
    ended = plan.take(Stopped("SchedulerLost", "not regained"))
    assert sorted(s.position for s in ended) == list(range(1, 10))
    assert plan.finished
    counts = plan.state.counts()
    assert (counts["ok"], counts["lost"], counts["pending"]) == (1, 9, 0)
    assert plan.state.n_infrastructure == 9


def test_the_state_keeps_a_few_bytes_a_run_and_counts_run_failures() -> None:
    state = SweepState(3)
    state.finish(_ok(0))
    state.finish(_ok(1, success=False, failure="tracking lost"))
    assert (state.status_of(0), state.status_of(2)) == ("ok", None)
    assert state.run_failures == {"tracking lost": 1}
    assert list(state.success) == [1, 0, -1]
    assert state.n_evaluated == 2
    assert state.eval_cpu_s == pytest.approx(0.1)
    arrays = (state.status, state.success, state.has_reference, state.reused)
    assert sum(a.nbytes for a in arrays) == 4 * 3  # four bytes a run


def test_a_record_not_stored_stops_the_plan_nothing_more_is_handed_out() -> None:
    plan = _plan(10, slots=2)
    first, second = _take(plan), _take(plan)
    full = "OUT/runs/ab/ab.json: cannot write it: no space left on the device"
    lost = RunSummary.unfinished(first.indices[0], "lost", NOT_STORED, full)
    plan.take(
        ChunkDone(
            ChunkResult(number=first.number, summaries=(lost,), elapsed_s=0.1, cpu_s=0, worker="w")
        )
    )
    assert plan.stopped == f"a run's record could not be stored: {full}"
    assert plan.next_chunk() is None  # 8 runs wait, none goes out
    assert (plan.waiting, plan.finished) == (8, False)
    plan.take(ChunkDone(_done(second, 0.1)))  # the chunk in flight comes back
    ended = plan.abandon(NOT_RUN, "not evaluated: the sweep stopped")
    assert len(ended) == 8
    assert plan.state.counts()["lost"] == 9
    assert plan.state.errors[first.indices[0]] == ("lost", NOT_STORED, full)


def test_the_default_chunk_grows_with_the_cluster_so_the_scheduler_is_half_idle() -> None:
    # 3 ms of scheduler CPU a task: 1600 threads with 1 s chunks would ask 4.8 s a second.
    assert [default_chunk_s(n) for n in (1, 16, 166, 1600)] == [1.0, 1.0, 1.0, 9.6]
    assert 1600 / default_chunk_s(1600) * TASK_COST_S == pytest.approx(SCHEDULER_SHARE)
    plan = _plan(10**5, slots=16)
    plan.take(ChunkDone(_done(_take(plan), 0.01)))  # 10 ms a run measured
    assert (plan.target_s, plan.chunk_size()) == (1.0, 100)
    plan.slots = 1600  # workers joined: 960 runs of 10 ms, less the share of what is left
    assert (plan.target_s, plan.chunk_size()) == (9.6, math.ceil(plan.waiting / 3200))
    plan.slots = 100
    assert (plan.target_s, plan.chunk_size()) == (1.0, 100)
    chosen = _plan(10, slots=1600, target_s=2.0)
    assert chosen.target_s == 2.0


def test_waiting_ends_no_run() -> None:
    plan = _plan(3)
    assert plan.take(Waiting(0)) == ()
    assert plan.waiting == 3


def test_a_stopped_plan_has_nothing_pending_although_runs_are_still_being_read() -> None:
    """A serial sweep waits while runs are pending: stopped, it must not wait for ever."""
    plan = _plan(1, source=lambda: ((), True))  # runs still being read, none ready yet
    assert plan.pending
    plan.stopped = "a run's record could not be stored: no space left on the device"
    assert plan.next_chunk() is None
    assert not plan.pending
