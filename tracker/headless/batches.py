"""Many forecasts at once on the forecast's worker pool (the swings: every point of a fight
asked together). Each forecast's runs are cut into spans of at most ``SPAN`` runs; the workers
take spans from the front of the queue, this process from the back, so no process waits for
one forecast to end before it starts on the next (one at a time, each point's last span kept
the others idle).

Every run's seed comes from its forecast's job and its index and tallies add up in any order,
so the tallies are the same bit for bit whatever the number of jobs.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from rules.forecast import Tally, simulate
from tracker.headless.forecast_pool import IN_FLIGHT, QUICK_HANDOFFS, Cancelled, Workers, take_back

SPAN = 16  # runs a span at most: a point of 60 runs is four spans, spread over the processes

Piece = tuple[int, int, int]  # the forecast's index, the first run, the run after the last


def pieces(runs: Sequence[int]) -> deque[Piece]:
    return deque(
        (index, start, min(count, start + SPAN))
        for index, count in enumerate(runs)
        for start in range(0, count, SPAN)
    )


def run_jobs(
    jobs: Sequence[tuple[bytes, int]],
    workers: Workers | None = None,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | None = None,
) -> list[Tally]:
    """The tally of each ``(job, runs)``: its runs ``0`` to ``runs``. ``progress`` is told the
    runs done so far, of all of them; ``cancel`` set stops it (``Cancelled``)."""
    left = pieces([runs for _, runs in jobs])
    tallies = [Tally() for _ in jobs]
    done = 0

    def count(piece: Piece, tally: Tally) -> None:
        nonlocal done
        tallies[piece[0]].merge(tally)
        done += tally.runs
        if progress is not None:
            progress(done)

    def play(piece: Piece) -> None:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        count(piece, simulate(jobs[piece[0]][0], piece[1], piece[2]))

    pool = workers.pool if workers is not None else None
    if pool is None or workers is None:
        while left:
            play(left.popleft())
        return tallies
    sent: dict[Future[Tally], Piece] = {}
    most = IN_FLIGHT * (workers.jobs - 1)
    try:
        with QUICK_HANDOFFS:
            broken = _send(pool, jobs, left, sent, most)
            while left:
                play(left.pop())
                take_back(sent, count, play, block=False)
                broken = broken or _send(pool, jobs, left, sent, most)
            while sent:
                if cancel is not None and cancel.is_set():
                    raise Cancelled
                take_back(sent, count, play, block=True)
    finally:
        for future in sent:  # stopped early: no span left queued behind it
            future.cancel()
    return tallies


def _send(
    pool: ProcessPoolExecutor,
    jobs: Sequence[tuple[bytes, int]],
    left: deque[Piece],
    sent: dict[Future[Tally], Piece],
    most: int,
) -> bool:
    """Spans from the front to the workers until ``most`` are on their way; True when the
    pool is broken (a worker was killed: this process plays the rest)."""
    while len(sent) < most and left:
        piece = left.popleft()
        try:
            sent[pool.submit(simulate, jobs[piece[0]][0], piece[1], piece[2])] = piece
        except BrokenProcessPool:
            left.appendleft(piece)
            return True
        except RuntimeError as exc:  # the workers were closed (the screen went away)
            raise Cancelled from exc
    return False
