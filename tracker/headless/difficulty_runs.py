"""A fight's difficulty at prep (``tracker forecast --brief``, ``tracker new``, the app's ``D``
and the library dialog): a forecast played in batches on the forecast's own workers, stopped
as soon as the band is settled (``rules.difficulty.settled``).

The batches are fixed spans of run indices (the first 100, then to 200, 400 and the limit), so
where it stops, and what it says, depends on the fight and the seed alone, never on the jobs or
the timing: the same fight and seed read the same on any machine.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rules.difficulty import counts, party_of, settled
from rules.encounter import AnyEncounter
from rules.forecast import DEFAULT_ROUNDS, Report, Tally, job_bytes, report
from tracker.headless.forecast_pool import Workers, run_span

RUNS = 1000  # at most, the forecast's own number
STAGES = (100, 200, 400)  # where the band is looked at before the last
SEED = 0  # a fight prepared reads the same each time it is asked (the app's D may reroll)


def stages(runs: int) -> list[int]:
    """The run counts after which the band is looked at: each of ``STAGES`` under ``runs``,
    then ``runs``."""
    return [s for s in STAGES if s < runs] + [runs]


def run_difficulty(
    state: AnyEncounter,
    seed: int = SEED,
    runs: int = RUNS,
    workers: Workers | None = None,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | None = None,
    rounds: int = DEFAULT_ROUNDS,
) -> Report:
    """The forecast of ``state`` in batches, stopped at the first whose band is settled (at
    most ``runs`` fights). ``progress`` is told the runs done so far (of ``runs``: a stop
    leaves the rest undone); ``cancel`` stops it (``Cancelled``)."""
    job = job_bytes(state, seed, rounds)
    party = party_of(c.side for c in state.combatants)
    total = Tally()
    done = 0
    result = report(state, total, seed, rounds)

    def told(here: int) -> None:
        if progress is not None:
            progress(done + here)

    for stop in stages(runs):
        total.merge(run_span(job, done, stop, workers, told, cancel))
        done = stop
        result = report(state, total, seed, rounds)
        if party is None or settled(counts(result, party)) is not None:
            break
    return result
