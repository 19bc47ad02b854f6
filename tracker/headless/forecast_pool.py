"""``tracker forecast`` and the app's ``F``: a forecast's runs spread over processes, and its
figures as text with small bar charts.

The runs are cut into spans of run indices; each span goes to ``rules.forecast.simulate``
(pure: the state's bytes and the span in, a tally out) in one of the standard library's pool
of worker processes (``Workers``), or is played by this process, which counts as one of the
jobs (it works while the others start). Every run's seed comes from its index and tallies add
up in any order, so the forecast is the same bit for bit whatever the number of jobs.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import TypeVar

from rules.encounter import AnyEncounter
from rules.forecast import Report, Tally, job_bytes, merged, report, simulate
from rules.odds import percent  # "<0.1%" for a chance seen but tiny, never "0.0%"

MAX_JOBS = 64
# A span is never longer than this many runs (a fifth of a second for the slowest demo): the
# progress bar moves, and a stopped forecast's workers end their span and go, so Ctrl+C or Esc
# is quick at any --runs.
MAX_SPAN = 64
IN_FLIGHT = 2  # spans sent ahead to each worker: it starts the next as it sends one back
SWITCH_INTERVAL = 0.0005  # seconds: see ``QuickHandoffs``
BAR = 20


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


class QuickHandoffs:
    """While a pool works, the threads that feed it spans and read back its tallies wait for
    the GIL at most ``SWITCH_INTERVAL`` (Python's default, 5 ms, kept workers waiting for
    their first and next spans while this process played). The interval is the whole
    process's: it is set back when the last forecast running in it ends (seats of a served
    table may forecast at once)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.saved = sys.getswitchinterval()

    def __enter__(self) -> None:
        with self.lock:
            if self.users == 0:
                self.saved = sys.getswitchinterval()
                sys.setswitchinterval(min(self.saved, SWITCH_INTERVAL))
            self.users += 1

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.users -= 1
            if self.users == 0:
                sys.setswitchinterval(self.saved)


QUICK_HANDOFFS = QuickHandoffs()


class Runs:
    """The runs still to play, handed out as spans of indices ``[start, stop)``: the workers
    take theirs from the front, this process from the back. A span is a share of what is left
    (guided scheduling), so spans shrink as the two ends meet and nobody waits long for the
    last one, however soon or late the workers began."""

    def __init__(self, runs: int, jobs: int, first: int = 0) -> None:
        self.front, self.back, self.jobs = first, runs, jobs

    def _size(self) -> int:
        return max(1, min(MAX_SPAN, (self.back - self.front) // (2 * self.jobs)))

    def from_front(self) -> tuple[int, int] | None:
        if self.front >= self.back:
            return None
        start, self.front = self.front, min(self.back, self.front + self._size())
        return start, self.front

    def from_back(self) -> tuple[int, int] | None:
        if self.front >= self.back:
            return None
        stop, self.back = self.back, max(self.front, self.back - self._size())
        return self.back, stop


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (spawned workers need it) with the real stderr:
    it hands its process stderr's descriptor, and under Textual stderr is captured (no
    descriptor: the pool would fail to start)."""
    from multiprocessing import resource_tracker

    captured = sys.stderr
    if sys.__stderr__ is not None:
        sys.stderr = sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = captured


class Cancelled(Exception):
    """The forecast was stopped before its end."""


# Loaded by a process that must not be forked into a worker (a worker imports no Textual and
# no storage); a process holding any of them spawns its workers instead.
NOT_IN_A_WORKER = ("textual", "rich", "tracker.store.storage", "tracker.app")


def _fork_is_sound() -> bool:
    """Fork (a worker ready in milliseconds, the rules already loaded) only on Linux (macOS's
    own libraries are not fork-safe), from a process running no other thread (a forked lock
    may be held forever) that holds the rules alone: the command line before it reads the
    save. Anything else, the app among them, spawns fresh interpreters."""
    return (
        sys.platform.startswith("linux")
        and threading.active_count() == 1
        and not any(name in sys.modules for name in NOT_IN_A_WORKER)
    )


def _worker_started() -> None:
    # Ctrl+C reaches every process of the terminal's group: the caller stops the forecast
    # and says so once; a worker must not print a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ready() -> None:
    """Submitted first, so that the workers start at once rather than at the first span."""


class Workers:
    """The processes a forecast's other jobs run in (``jobs - 1``: this process is a job too),
    started when made and kept until closed, so a what-if after a forecast finds them warm.
    Make them on the thread that owns the screen, if there is one (stderr is swapped)."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = max(1, min(jobs or default_jobs(), MAX_JOBS))
        self.pool: ProcessPoolExecutor | None = None
        self.method = "fork" if _fork_is_sound() else "spawn"
        if self.jobs > 1:
            if self.method == "spawn":
                _start_resource_tracker()
            self.pool = ProcessPoolExecutor(
                max_workers=self.jobs - 1,
                mp_context=multiprocessing.get_context(self.method),
                initializer=_worker_started,
            )
            self.pool.submit(_ready)

    def close(self, wait: bool = False) -> None:
        """Spans not begun are dropped; those running end on their own (``wait``: this
        returns once they have)."""
        if self.pool is not None:
            self.pool.shutdown(wait=wait, cancel_futures=True)
            self.pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        # Wait for the pool's threads (a pool just started, left by an error; or one whose
        # work is done, its workers idle), or the process can end while they still write to
        # its pipes: an "Exception ignored" traceback on stderr after the answer, seen under
        # load at the end of a whole swings export. Ctrl+c stops the workers too: no wait.
        stopped = kind is not None and issubclass(kind, KeyboardInterrupt)
        self.close(wait=not stopped)


def run_forecast(
    state: AnyEncounter,
    runs: int,
    seed: int,
    rounds: int,
    workers: Workers | None = None,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | None = None,
) -> Report:
    """Play ``runs`` fights from ``state`` on this process and ``workers`` (none: this one
    alone), and report. ``progress`` is told the runs done so far; ``cancel`` set stops it
    (``Cancelled``)."""
    job = job_bytes(state, seed, rounds)
    return report(state, run_span(job, 0, runs, workers, progress, cancel), seed, rounds)


def run_span(
    job: bytes,
    start: int,
    stop: int,
    workers: Workers | None = None,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | None = None,
) -> Tally:
    """The tally of runs ``start`` to ``stop`` of ``job`` (``rules.forecast.job_bytes``), as
    ``run_forecast`` plays them; ``progress`` is told the runs of the span done so far."""
    pool = workers.pool if workers is not None else None
    left = Runs(stop, workers.jobs if pool is not None and workers is not None else 1, start)
    tallies: list[Tally] = []
    done = 0

    def count(tally: Tally) -> None:
        nonlocal done
        tallies.append(tally)
        done += tally.runs
        if progress is not None:
            progress(done)

    def play(span: tuple[int, int]) -> None:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        count(simulate(job, *span))

    if pool is None or workers is None:
        while (span := left.from_back()) is not None:
            play(span)
        return merged(tallies)
    sent: dict[Future[Tally], tuple[int, int]] = {}
    most = IN_FLIGHT * (workers.jobs - 1)
    try:
        with QUICK_HANDOFFS:
            _send(pool, job, left, sent, most)
            while (span := left.from_back()) is not None:
                play(span)
                take_back(sent, lambda _, tally: count(tally), play, block=False)
                _send(pool, job, left, sent, most)
            while sent:
                if cancel is not None and cancel.is_set():
                    raise Cancelled
                take_back(sent, lambda _, tally: count(tally), play, block=True)
    finally:
        for future in sent:  # a forecast stopped early leaves no span queued behind it
            future.cancel()
    return merged(tallies)


def _send(
    pool: ProcessPoolExecutor,
    job: bytes,
    left: Runs,
    sent: dict[Future[Tally], tuple[int, int]],
    most: int,
) -> None:
    """Spans from the front to the workers, until ``most`` are on their way."""
    while len(sent) < most and (span := left.from_front()) is not None:
        try:
            sent[pool.submit(simulate, job, *span)] = span
        except BrokenProcessPool:  # a worker was killed: this process plays the rest
            left.front = span[0]
            return
        except RuntimeError as exc:  # the workers were closed (the screen went away)
            raise Cancelled from exc


Piece = TypeVar("Piece")


def take_back(
    sent: dict[Future[Tally], Piece],
    count: Callable[[Piece, Tally], None],
    play: Callable[[Piece], None],
    block: bool,
) -> None:
    """The tallies of the spans the workers have finished (waiting a moment for one if
    ``block``), each counted with what was sent for it; a killed worker's span is played
    here. A span is whatever the caller sends: a forecast's runs, or a batch's piece."""
    done = [f for f in sent if f.done()]
    if not done and block:
        done = list(wait(sent, timeout=0.1, return_when=FIRST_COMPLETED).done)
    for future in done:
        piece = sent.pop(future)
        if future.cancelled():  # the workers were closed under these forecasts
            raise Cancelled
        try:
            tally = future.result()
        except BrokenProcessPool:
            play(piece)
        else:
            count(piece, tally)


# --- text ---------------------------------------------------------------------------------------


def bar(p: float, width: int = BAR) -> str:
    """A bar of block characters, eighths included, for a share from 0 to 1."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    partial = " ▏▎▍▌▋▊▉"[part] if part else ""
    return ("█" * full + partial).ljust(width, "·")


def heading(result: Report) -> str:
    return (
        f"{result.runs:,} fights from round {result.start_round}, seed {result.seed} "
        f"(at most {result.rounds_limit} rounds each)"
    )


def win_lines(result: Report, width: int = BAR) -> list[str]:
    """Each side's chance to win, with its interval, then no winner."""
    names = [s.side for s in result.sides] + ["no winner"]
    pad = min(max(len(n) for n in names), 14)
    lines = [
        f"{s.side[:pad]:<{pad}} {bar(s.p, width)} {percent(s.p):>6} "
        f"({percent(s.low)}-{percent(s.high)})"
        for s in result.sides
    ]
    lines.append(f"{'no winner':<{pad}} {bar(result.none, width)} {percent(result.none):>6}")
    if result.unfinished:
        lines.append(
            f"  still fighting after {result.rounds_limit} rounds: {percent(result.unfinished)}"
        )
    return lines


def length_lines(result: Report, width: int = BAR, rows: int = 12) -> list[str]:
    """The mean length, and a bar per number of rounds (the longest few together)."""
    lines = [f"Length: {result.mean_rounds:.1f} rounds on average"]
    counts = sorted(result.histogram.items())
    if len(counts) > rows:
        head, tail = counts[: rows - 1], counts[rows - 1 :]
        shown = [(str(k), v) for k, v in head] + [(f"{tail[0][0]}+", sum(v for _, v in tail))]
    else:
        shown = [(str(k), v) for k, v in counts]
    top = max((v for _, v in shown), default=1)
    pad = max((len(k) for k, _ in shown), default=1)
    for key, count in shown:
        share = count / result.runs if result.runs else 0.0
        lines.append(f"{key:>{pad}} {bar(count / top, width)} {percent(share):>6}")
    return lines


def risk_lines(result: Report, width: int = 80) -> list[str]:
    """Each combatant: its chance to be out at the end, to fall first, and what changes."""
    pad = min(max((len(c.name) for c in result.combatants), default=4), 18)
    lines = [f"{'':<{pad}}    out  first  expected at the end"]
    for c in result.combatants:
        changed = [
            f"{f.name} {f.start}→{f.mean:.1f}" for f in c.end if abs(f.mean - f.start) >= 0.05
        ]
        line = (
            f"{c.name[:pad]:<{pad}} {percent(c.out):>6} {percent(c.first_out):>6}  "
            f"{', '.join(changed) or 'as now'}"
        )
        lines.append(line if len(line) <= width else line[: width - 1] + "…")
    return lines


def as_text(result: Report, width: int = 80) -> str:
    lines = [heading(result), "", "Who wins", *win_lines(result), ""]
    lines += length_lines(result)
    lines += ["", *risk_lines(result, width)]
    if result.refused:
        lines += ["", f"In {result.refused} runs a policy asked for what the rules refused."]
    return "\n".join(lines)


# --- a narrow panel (the app shows two side by side) ------------------------------------------

SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(histogram: dict[int, int], cells: int = 16) -> tuple[str, str]:
    """The lengths as one line of block characters, and its span in rounds ("1-9")."""
    if not histogram:
        return "", ""
    low, high = min(histogram), max(histogram)
    span = high - low + 1
    per = math.ceil(span / cells)
    sums = [
        sum(histogram.get(r, 0) for r in range(start, min(start + per, high + 1)))
        for start in range(low, high + 1, per)
    ]
    top = max(sums) or 1
    line = "".join(SPARKS[min(7, round(s / top * 7))] if s else " " for s in sums)
    return line, f"{low}" if low == high else f"{low}-{high}"


def panel_lines(result: Report, width: int) -> list[str]:
    """A forecast in ``width`` columns: the win chances, the length, each one's risk."""
    names = [s.side for s in result.sides] + ["no winner"]
    pad = min(max(len(n) for n in names), 10)
    cells = max(4, width - pad - 17)
    lines = []
    for name, p, low, high in [(s.side, s.p, s.low, s.high) for s in result.sides] + [
        ("no winner", result.none, None, None)
    ]:
        interval = (
            f" {low * 100:.0f}-{high * 100:.0f}" if low is not None and high is not None else ""
        )
        lines.append(f"{name[:pad]:<{pad}} {bar(p, cells)} {p * 100:5.1f}%{interval}")
    spark, span = sparkline(result.histogram, max(4, width - 24))
    lines += ["", f"Length {result.mean_rounds:.1f} rounds  {spark} {span}"]
    npad = min(max((len(c.name) for c in result.combatants), default=4), max(6, width - 22))
    lines += ["", f"{'':<{npad}}   out  first"]
    for c in result.combatants:
        changed = [f"{f.name}→{f.mean:.1f}" for f in c.end if abs(f.mean - f.start) >= 0.05]
        chances = f"{c.out * 100:4.0f}% {c.first_out * 100:4.0f}%"
        line = f"{c.name[:npad]:<{npad}} {chances} {' '.join(changed)}"
        lines.append(line.rstrip() if len(line) <= width else line[: width - 1] + "…")
    return lines
