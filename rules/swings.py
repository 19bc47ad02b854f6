"""Where a saved fight turned (the replay's ``W``, ``tracker export --swings``): the party's
chance to win after each event, from a forecast at that point, and the rolls that moved it
most, each with its before and after.

Pure: the chance of a state is the caller's (``Chances``: a forecast over the worker pool on
one seed, so two points differ by the fight and not by the dice, or a system's exact odds).
Fewer runs where that is enough: a point whose fight is over is certain, a point the event
before left as it was (a note, a choice logged) is the same chance again, every other point
just before a roll is played ``QUICK`` times (one between two rolls a quarter as many: it
only draws the chart), stopped after ``FIRST``, or after twice as many, as soon as its 95%
interval is within ``SETTLED`` either way (as the difficulty's batches stop); then the
points either side of the likeliest swings are played ``FIRM`` times (unless already known
within ``FIRM_SETTLED``), so the three named are measured, not guessed. Each chance carries its
95% interval. Each stage's questions are asked together (``Many``: the pool plays them side by
side), and what is asked depends on the fight and the answers alone, never on the timing.

A roll's swing is the change from just before it to just before the next roll: what it led
to (a result applied, a turn passed, someone going down) counts as its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rules.dice import SeededDice
from rules.encounter import AnyEncounter
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
FIRM_SETTLED = 0.05  # ... unless already known within 5 points either way
NAMED = 3  # swings named
MIN_SWING = 0.01  # a roll that moved the chance less than a point is named no swing
CANDIDATES = 4  # swings measured again before the three are chosen
SETTLING = 4  # steps of what a roll leaves waiting applied before a point is forecast

# A state, the runs to play and the batch they are (each batch its own seeds, the same at
# every point) → the chance.
Chances = Callable[[AnyEncounter, int, int], Chance]
MORE, FIRMER, REST = 1, 2, 3  # the batches played after the first (each on seeds of its own)
Progress = Callable[[int, int], None]  # runs done, runs planned (fewer as points settle)
Ask = tuple[AnyEncounter, int, int]  # a state, the runs to play, their batch
# Many questions at once (a pool plays them side by side) → their chances, in order; told the
# runs done so far.
Many = Callable[[Sequence[Ask], Callable[[int], None]], list[Chance]]


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


def certain(state: AnyEncounter, party: str) -> Chance | None:
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


def playable(state: AnyEncounter) -> AnyEncounter:
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


def _same_fight(state: AnyEncounter, before: AnyEncounter) -> bool:
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
    many: Many | None = None,
) -> Swings:
    """The party's chance event by event and the ``NAMED`` rolls that swung it most (ties: the
    earlier first)."""
    system = get_system(timeline.final.system)
    rolled = [i for i, e in enumerate(timeline.events) if isinstance(e, system.roll_event_types)]
    # The fight as it began: just before its first roll (the roster built, the order set).
    begins = rolled[0] - 1 if rolled else 0
    states: dict[int, AnyEncounter] = {}
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
    ask = many if many is not None else one_by_one(chances)
    # A run of points the events between left as it was is one fight: measured once, with
    # the runs the most wanted of them needs.
    groups: list[list[int]] = []
    previous: AnyEncounter | None = None
    for position, state in states.items():
        if previous is None or not _same_fight(state, previous):
            groups.append([])
        groups[-1].append(position)
        previous = state
    wanted = [
        max(quick if p in bounds else max(MIN_RUNS, quick // 4) for p in group) for group in groups
    ]
    ready = [playable(states[group[0]]) for group in groups]
    known = [certain(state, party) for state in ready]
    open_ = [i for i, chance in enumerate(known) if chance is None]
    planned = sum(wanted[i] for i in open_) + 2 * CANDIDATES * firm
    done = 0

    def told(here: int) -> None:
        if progress is not None:
            progress(min(planned, done + here), planned)

    def asked(asks: list[Ask]) -> list[Chance]:
        nonlocal done
        answers = ask(asks, told) if asks else []
        done += sum(runs for _, runs, _ in asks)
        return answers

    # Every point at once (the pool is never idle waiting for one), then, at once, as many
    # again for those whose first fights left the question open, then the rest for those
    # still open.
    first = asked([(ready[i], min(wanted[i], FIRST), 0) for i in open_])
    for i, chance in zip(open_, first, strict=True):
        known[i] = chance
    for batch, upto in ((MORE, 2 * FIRST), (REST, None)):
        more = [i for i in open_ if _open(_known(known[i]), wanted[i], SETTLED)]
        planned = done + sum(wanted[i] - _runs(known[i]) for i in more) + 2 * CANDIDATES * firm
        stops = [wanted[i] if upto is None else min(wanted[i], upto) for i in more]
        extra = asked(
            [(ready[i], stop - _runs(known[i]), batch) for i, stop in zip(more, stops, strict=True)]
        )
        for i, chance in zip(more, extra, strict=True):
            known[i] = _together(_known(known[i]), chance)
    found: dict[int, Chance] = {}
    group_of: dict[int, int] = {}
    for i, group in enumerate(groups):
        for position in group:
            found[position] = _known(known[i])
            group_of[position] = i

    def change(roll: int) -> float:
        return abs(found[ends[roll]].p - found[roll - 1].p)

    # The points either side of the likeliest swings, firmer: those not yet known within
    # ``FIRM_SETTLED`` either way.
    likely = sorted(rolls, key=lambda r: (-change(r), r))[:CANDIDATES]
    firmer = list(dict.fromkeys(group_of[p] for roll in likely for p in (roll - 1, ends[roll])))
    firmer = [i for i in firmer if _open(_known(known[i]), firm, FIRM_SETTLED)]
    planned = done + sum(firm - _runs(known[i]) for i in firmer)
    again = asked([(ready[i], firm - _runs(known[i]), FIRMER) for i in firmer])
    for i, chance in zip(firmer, again, strict=True):
        known[i] = _together(_known(known[i]), chance)
        for position in groups[i]:
            found[position] = _known(known[i])
    if progress is not None:
        progress(planned, planned)
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
        if change(roll) >= MIN_SWING  # "from 1% to 1%" was named a swing
    )
    points = tuple(Point(p, states[p].round, found[p]) for p in states)
    rounds = tuple(p for p in states if p - 1 in states and states[p].round != states[p - 1].round)
    return Swings(party, points, shown, rounds)


def one_by_one(chances: Chances) -> Many:
    """Many questions asked of a one-at-a-time ``chances``, in order."""

    def many(asks: Sequence[Ask], told: Callable[[int], None]) -> list[Chance]:
        answers, done = [], 0
        for state, runs, batch in asks:
            answers.append(chances(state, runs, batch))
            done += runs
            told(done)
        return answers

    return many


def _known(chance: Chance | None) -> Chance:
    assert chance is not None  # every open point was asked
    return chance


def _runs(chance: Chance | None) -> int:
    return _known(chance).runs


def _open(have: Chance, runs: int, settled: float) -> bool:
    """Whether ``have`` wants fights enough more to make ``runs``: fewer played, and its 95%
    interval wider than ``settled`` either way (a point all but decided is known well
    enough)."""
    return not have.exact and have.runs < runs and have.high - have.low > 2 * settled


def _together(have: Chance, extra: Chance) -> Chance:
    """Two batches (each on its own seeds) as one: the tallies added."""
    wins = round(have.p * have.runs) + round(extra.p * extra.runs)
    total = have.runs + extra.runs
    return Chance(wins / total, *wilson(wins, total), total)


def _first_line(timeline: Timeline, position: int) -> str:
    entry = describe(timeline.before(position), timeline.events[position])
    return "".join(span.text for span in entry.lines[0]) if entry.lines else ""
