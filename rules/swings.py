"""Where a saved fight turned (the replay's ``W``, ``tracker export --swings``): the party's
chance to win after each event, from a forecast at that point, and the rolls that moved it
most, each with its before and after.

Pure: the chance of a state is the caller's (``Chances``: a forecast over the worker pool on
one seed, so two points differ by the fight and not by the dice, or a system's exact odds).
Fewer runs where that is enough: a point whose fight is over is certain, a point the event
before left as it was (a note, a choice logged) is the same chance again, every other point
just before a roll is played ``QUICK`` times (one between two rolls a quarter as many: it
only draws the chart), and only ``FIRST`` times when those all end the same way; then the
points either side of the likeliest swings are played ``FIRM`` times, so the three named are
measured, not guessed. Each chance carries its 95% interval.

A roll's swing is the change from just before it to just before the next roll: what it led
to (a result applied, a turn passed, someone going down) counts as its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import apply, decide_own, describe
from rules.errors import Rejected
from rules.forecast import DEFAULT_ROUNDS, wilson
from rules.outcome import outcome
from rules.registry import get_system
from rules.replay import Timeline
from rules.tune import Chance

QUICK = 60  # runs a point just before a roll at first (a point between: a quarter)
MIN_RUNS = 10
FIRST = 20  # fights a point plays first: enough when they all end the same way
SETTLED = 0.1  # ... that is, when their 95% interval is no wider than 10 points either way
FIRM = 200  # runs for the points around the likeliest swings
NAMED = 3  # swings named
CANDIDATES = 4  # swings measured again before the three are chosen
SETTLING = 4  # steps of what a roll leaves waiting applied before a point is forecast

# A state, the runs to play and the batch they are (each batch its own seeds, the same at
# every point) → the chance.
Chances = Callable[[Encounter, int, int], Chance]
MORE, FIRMER = 1, 2  # the batches played after the first
Progress = Callable[[int, int], None]  # points done, points in all


class Point(NamedTuple):
    position: int  # after this event
    round: int
    chance: Chance


class Swing(NamedTuple):
    position: int  # the roll's event
    round: int
    line: str  # the roll's log line (its first line)
    before: Chance  # just before the roll
    after: Chance  # just before the next roll (or at the end)

    @property
    def change(self) -> float:
        return self.after.p - self.before.p


class Swings(NamedTuple):
    party: str
    points: tuple[Point, ...]  # from the first point with two sides, in order
    swings: tuple[Swing, ...]  # the biggest first
    rounds: tuple[int, ...]  # positions where a round begins


def certain(state: Encounter, party: str) -> Chance | None:
    """The chance where no forecast is needed: the fight is over, or worked out exactly."""
    result = outcome(state)
    if result.over:
        p = 1.0 if result.winner == party else 0.0
        return Chance(p, p, p, 0)
    exact = get_system(state.system).exact_wins(state, DEFAULT_ROUNDS)
    if exact is not None:
        p = float(exact.get(party, 0))
        return Chance(p, p, p, 0)
    return None


def playable(state: Encounter) -> Encounter:
    """The state a forecast can play: what the last roll left waiting (a hit whose damage is
    still to roll) applied as the ``d`` key applies it, step by step, on seeded dice; a
    forecast from the state as it stands would wait on it to the round limit."""
    system = get_system(state.system)
    dice = SeededDice(0)
    for _ in range(SETTLING):  # a hit, then its damage roll, then the wounds it deals
        if not system.pending(state):
            break
        try:
            events = decide_own(state, system.consequence_command(state), dice)
        except Rejected:
            break
        if not events:
            break
        for event in events:
            state = apply(state, event)
    return state


def _same_fight(state: Encounter, before: Encounter) -> bool:
    """Nothing a forecast reads changed (a note, a choice logged, a roll of plain dice)."""
    return (
        state.combatants is before.combatants
        and state.system_state is before.system_state
        and state.current_id == before.current_id
        and state.round == before.round
    )


def swings(
    timeline: Timeline,
    party: str,
    chances: Chances,
    progress: Progress | None = None,
    *,
    quick: int = QUICK,
    firm: int = FIRM,
) -> Swings:
    """The party's chance event by event and the ``NAMED`` rolls that swung it most (ties: the
    earlier first)."""
    system = get_system(timeline.final.system)
    rolled = [i for i, e in enumerate(timeline.events) if isinstance(e, system.roll_event_types)]
    # The fight as it began: just before its first roll (the roster built, the order set).
    begins = rolled[0] - 1 if rolled else 0
    states: dict[int, Encounter] = {}
    state = timeline.state_at(0)
    for position in range(len(timeline)):
        if position:
            state = apply(state, timeline.events[position])  # one fold, not one a point
        if position >= begins and (len({c.side for c in state.combatants}) >= 2 or states):
            states[position] = state
    rolls = [
        p
        for p in states
        if p - 1 in states and isinstance(timeline.events[p], system.roll_event_types)
    ]
    ends = {
        roll: (rolls[i + 1] - 1 if i + 1 < len(rolls) else timeline.last)
        for i, roll in enumerate(rolls)
    }
    # A swing is read between the points just before two rolls: those are played ``quick``
    # times, the points between them (a chart's detail) a quarter as many.
    bounds = {roll - 1 for roll in rolls} | set(ends.values())
    found: dict[int, Chance] = {}
    asked = 0
    previous: Encounter | None = None
    for position, state in states.items():
        runs = quick if position in bounds else max(MIN_RUNS, quick // 4)
        before = found.get(position - 1)
        if previous is not None and before is not None and _same_fight(state, previous):
            found[position] = before
            if 0 < before.runs < runs:  # the same fight, now needed more closely
                more = _more(chances, playable(state), before, runs, MORE)
                _spread(found, position, before, more)
        else:
            ready = playable(state)
            found[position] = certain(ready, party) or _measured(chances, ready, runs)
        previous = state
        asked += 1
        if progress is not None:
            progress(asked, len(states) + 2 * CANDIDATES)

    def change(roll: int) -> float:
        return abs(found[ends[roll]].p - found[roll - 1].p)

    likely = sorted(rolls, key=lambda r: (-change(r), r))[:CANDIDATES]
    firmed: set[int] = set()
    for roll in likely:
        for position in (roll - 1, ends[roll]):
            chance = found[position]
            if position not in firmed and chance.runs and chance.runs < firm:
                again = _more(chances, playable(states[position]), chance, firm, FIRMER)
                _spread(found, position, chance, again)
            firmed.add(position)
            asked += 1
            if progress is not None:
                progress(min(asked, len(states) + 2 * CANDIDATES), len(states) + 2 * CANDIDATES)
    named = sorted(rolls, key=lambda r: (-change(r), r))[:NAMED]
    shown = tuple(
        Swing(
            roll,
            states[roll].round,
            _first_line(timeline, roll),
            found[roll - 1],
            found[ends[roll]],
        )
        for roll in named
        if change(roll) > 0
    )
    points = tuple(Point(p, states[p].round, found[p]) for p in states)
    rounds = tuple(p for p in states if p - 1 in states and states[p].round != states[p - 1].round)
    return Swings(party, points, shown, rounds)


def _measured(chances: Chances, state: Encounter, runs: int) -> Chance:
    """``FIRST`` fights, and ``runs`` only when those leave it open: a point where every one
    of them went the same way (a fight all but decided) is known well enough."""
    first = chances(state, min(runs, FIRST), 0)
    if runs <= FIRST or first.high - first.low <= 2 * SETTLED:
        return first
    return _more(chances, state, first, runs, MORE)


def _more(chances: Chances, state: Encounter, have: Chance, runs: int, batch: int) -> Chance:
    """``have`` with fights enough more to make ``runs``: a batch on its own seeds (``batch``:
    never one ``have`` holds), the two tallies added."""
    if have.runs >= runs or have.exact:
        return have
    extra = chances(state, runs - have.runs, batch)
    wins = round(have.p * have.runs) + round(extra.p * extra.runs)
    total = have.runs + extra.runs
    return Chance(wins / total, *wilson(wins, total), total)


def _spread(found: dict[int, Chance], position: int, old: Chance, new: Chance) -> None:
    """A point measured again, and the points either side that shared its chance (the same
    fight) with it."""
    low = position
    while found.get(low - 1) is old:
        low -= 1
    while found.get(low) is old:
        found[low] = new
        low += 1


def _first_line(timeline: Timeline, position: int) -> str:
    entry = describe(timeline.before(position), timeline.events[position])
    return "".join(span.text for span in entry.lines[0]) if entry.lines else ""
