"""Forecasts: a fight played out many times from where it stands, every side by its solo
policy, and what came of it (``tracker forecast``, the app's ``F``).

Pure, like the rest of ``rules``: one run is a function of the state and its seed, and a batch
of runs (``simulate``) a function of the state's bytes and a range of run indices, so a batch
can run in any process (``tracker/headless/forecast_pool.py`` spreads them over a process pool, and
the same function could run on a cluster: ``docs/contributing/forecast.md``). Tallies hold only
integers and merge by addition, so any split of the runs gives the same figures, bit for bit.

In a run every side is played by the tracker: each combatant by its own policy (the system's
default when it has none), the table's part (rolling the round, a hero's roll, ending the
turn) by the system's ``forecast_move``. Nothing is logged and nothing is saved: the events
are folded into a scratch state and dropped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

import msgspec
from msgspec import Struct

from rules.commands import NextTurn
from rules.dice import SeededDice
from rules.encounter import AnyEncounter
from rules.engine import apply, decide_own
from rules.errors import Rejected
from rules.outcome import followed, watch
from rules.registry import get_system
from rules.snapshot import codec
from rules.system import Figure, RuleSystem

DEFAULT_RUNS = 1000
DEFAULT_ROUNDS = 50
MAX_RUNS = 1_000_000
RUN_BITS = 20  # 2**20 > MAX_RUNS
MAX_ROUNDS = 1000
MAX_SEED = 2**63 - 1
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
# A guard: a policy that never settles must not hang a run (it ends it unfinished).
MOVES_PER_ROUND = 500


# --- what a worker is given -----------------------------------------------------------------


class Job(Struct, frozen=True, array_like=True):
    """A forecast's input as bytes: the state (for its system's decoder), seed and limit."""

    system: str
    state: msgspec.Raw
    seed: int
    rounds: int


_encoder = msgspec.msgpack.Encoder()
_job_decoder = msgspec.msgpack.Decoder(Job)


def unplayable(state: AnyEncounter) -> str:
    """Why no forecast can play ``state``'s system ("" when one can): it has no solo play
    (nothing could play its sides, and every run would end unfinished)."""
    system = get_system(state.system)
    if not system.solo_policies:
        return f"{system.title} has no solo play: the tracker cannot fight it out"
    return ""


def unready(state: AnyEncounter) -> str:
    """Why a forecast of ``state`` is refused before it starts ("" when it may run): its
    system cannot be played, or fewer than two sides are in it (no side could win: every run
    would only reach the round limit). The one check of the app's ``F`` (and its what-ifs)
    and ``tracker forecast``; a point of a fight's swings or a tune's step is not refused for
    it (a side removed mid-fight leaves the other's chance, not an error)."""
    why = unplayable(state)
    if why:
        return why
    sides = tuple(dict.fromkeys(c.side for c in state.combatants))
    if not sides:
        return "nobody in the fight yet"
    if len(sides) < 2:
        return f"one side only ({sides[0]}): a forecast needs two sides"
    return ""


def job_bytes(state: AnyEncounter, seed: int, rounds: int = DEFAULT_ROUNDS) -> bytes:
    """The job of a forecast from ``state``; ``Rejected`` when its system cannot be played
    (``unplayable``)."""
    why = unplayable(state)
    if why:
        raise Rejected(why)
    return _encoder.encode(Job(state.system, msgspec.Raw(_encoder.encode(state)), seed, rounds))


def read_job(data: bytes) -> tuple[AnyEncounter, int, int]:
    job = _job_decoder.decode(data)
    state: AnyEncounter = codec(job.system).state.decode(job.state)
    return state, job.seed, job.rounds


def run_seed(seed: int, index: int) -> int:
    """The dice seed of run ``index``: its own, whichever process plays it, and never another
    run's (``MAX_RUNS`` fits below ``RUN_BITS``)."""
    return (seed << RUN_BITS) | index


# --- one run ----------------------------------------------------------------------------------


class Ending(NamedTuple):
    """How one run ended."""

    winner: str | None
    over: bool
    rounds: int  # rounds played (0: it was over before it began; the limit if unfinished)
    out: tuple[str, ...]  # who is out of the fight at the end
    first_out: str | None  # the first to go out during the run
    figures: dict[str, tuple[Figure, ...]]  # each combatant's end figures
    refused: bool  # a policy asked for something the rules refused (the run went on)
    # Who went out at some point of the run (back up by the end or not), and their sides: a
    # hero dropped and stood up again still dropped (the difficulty reads it: rules/difficulty).
    fell: tuple[str, ...] = ()
    sides_fell: tuple[str, ...] = ()


def all_solo(state: AnyEncounter) -> AnyEncounter:
    """The state with every side played by the tracker."""
    return state.update(solo_sides=tuple(dict.fromkeys(c.side for c in state.combatants)))


def play_out(state: AnyEncounter, seed: int, rounds: int = DEFAULT_ROUNDS) -> Ending:
    """One fight from ``state`` to its end, or to ``rounds`` rounds, on dice seeded ``seed``."""
    system = get_system(state.system)
    dice = SeededDice(seed)
    state = all_solo(state)
    start = state.round
    seen = watch(state)
    result = seen.result
    out_before = set(result.out)
    first: str | None = None
    fell: dict[str, None] = {}
    acted: set[str] = set()
    refused = False
    moves = 0
    limit = rounds * MOVES_PER_ROUND
    reads_state = system.out_of_fight_reads_state
    settling = SETTLING  # what the table's last roll left waiting is applied first
    while not result.over and state.round - start < rounds and moves < limit:
        moves += 1
        move = system.solo_move(state)
        waiting = settling > 0 and move is None and _applies_alone(system, state)
        settling = settling - 1 if waiting else 0
        if move is None and not waiting:
            move = system.forecast_move(state, frozenset(acted))
            if move is not None:
                acted.add(move.actor_id)
        command: Any = move.command if move is not None else NextTurn()
        if waiting:
            command = system.consequence_command(state)
        passes = isinstance(command, NextTurn)
        try:
            events = decide_own(state, command, dice)
        except Rejected:
            events = []
            refused = True
        if not events and not passes:
            refused = refused or (move is not None and move.command is not None)
            command, passes = NextTurn(), True
            try:
                events = decide_own(state, command, dice)
            except Rejected:
                break  # nobody left to take a turn: the run ends where it stands
        if passes:
            acted.clear()
        for event in events:
            state = apply(state, event)
        # Who is out depends on the combatants (and the system's state, where it reads it): a
        # move that changed neither (a turn passed, a roll not yet applied) leaves the outcome
        # as it was; one that did asks only the combatants it changed (in a fight of 40 a hit
        # asks one, not 40), and the result is new only when someone went out or came back.
        if state.combatants is seen.state.combatants and (
            not reads_state or state.system_state is seen.state.system_state
        ):
            continue
        seen = followed(seen, state)
        if seen.result is not result:
            result = seen.result
            went = [cid for cid in result.out if cid not in out_before]
            if first is None and went:
                first = went[0]
            fell.update(dict.fromkeys(went))
    played = 0 if moves == 0 else min(state.round - start + 1, rounds)
    if not result.over:
        played = rounds
    figures = {c.id: tuple(system.end_figures(state, c)) for c in state.combatants}
    side = {c.id: c.side for c in state.combatants}
    sides_fell = tuple(dict.fromkeys(side[cid] for cid in fell if cid in side))
    return Ending(
        result.winner,
        result.over,
        played,
        tuple(result.out),
        first,
        figures,
        refused,
        tuple(fell),
        sides_fell,
    )


# Steps of a result left waiting applied before a run plays on (LiveHack: a hit's damage
# roll, then its table row), as the table's ``d`` would apply them.
SETTLING = 4


def _applies_alone(system: RuleSystem, state: AnyEncounter) -> bool:
    """Whether the last roll left a result waiting that ``d`` applies with no choice to make:
    a run from the table goes on from it applied. Left waiting, a hit the GM rolled stopped
    every LiveHack run where it stood (no tracker-played move applies another's hit)."""
    return bool(system.pending(state)) and not system.pending_action(state)


# --- many runs --------------------------------------------------------------------------------


class Tally(Struct, kw_only=True):
    """What many runs came to: counts and sums only, so tallies add up in any order."""

    runs: int = 0
    wins: dict[str, int] = {}
    nobody: int = 0  # over with no side standing
    unfinished: int = 0  # still going at the round limit
    lengths: dict[int, int] = {}
    out: dict[str, int] = {}
    first_out: dict[str, int] = {}
    figures: dict[str, dict[str, int]] = {}  # sums over the runs
    refused: int = 0
    fell: dict[str, int] = {}  # runs in which each went out at some point
    side_fell: dict[str, int] = {}  # runs in which anyone of each side went out at some point

    def add(self, ending: Ending) -> None:
        self.runs += 1
        if ending.winner is not None:
            _count(self.wins, ending.winner)
        elif ending.over:
            self.nobody += 1
        else:
            self.unfinished += 1
        _count(self.lengths, ending.rounds)
        for cid in ending.out:
            _count(self.out, cid)
        if ending.first_out is not None:
            _count(self.first_out, ending.first_out)
        for cid, figures in ending.figures.items():
            sums = self.figures.setdefault(cid, {})
            for name, value in figures:
                _count(sums, name, value)
        self.refused += ending.refused
        for cid in ending.fell:
            _count(self.fell, cid)
        for side in ending.sides_fell:
            _count(self.side_fell, side)

    def merge(self, other: Tally) -> None:
        self.runs += other.runs
        self.nobody += other.nobody
        self.unfinished += other.unfinished
        self.refused += other.refused
        for mine, theirs in (
            (self.wins, other.wins),
            (self.lengths, other.lengths),
            (self.out, other.out),
            (self.first_out, other.first_out),
            (self.fell, other.fell),
            (self.side_fell, other.side_fell),
        ):
            for key, count in theirs.items():
                _count(mine, key, count)
        for cid, sums in other.figures.items():
            mine_sums = self.figures.setdefault(cid, {})
            for name, value in sums.items():
                _count(mine_sums, name, value)


def _count(counts: dict[Any, int], key: Any, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


def simulate(job: bytes, start: int, stop: int) -> Tally:
    """Runs ``start`` to ``stop`` (indices, each with its own seed) of a forecast's job."""
    state, seed, rounds = read_job(job)
    tally = Tally()
    for index in range(start, stop):
        tally.add(play_out(state, run_seed(seed, index), rounds))
    return tally


def merged(tallies: Iterable[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.merge(tally)
    return total


# --- the figures ------------------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): sound near 0% and 100%,
    where the textbook one is not."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


class SideChance(NamedTuple):
    side: str
    wins: int
    p: float
    low: float
    high: float


class EndFigure(NamedTuple):
    name: str
    start: int
    mean: float


class Risk(NamedTuple):
    """One combatant's lot over the runs."""

    id: str
    name: str
    side: str
    out: float  # the chance to be out of the fight at the end
    first_out: float  # the chance to be the first to go out
    end: tuple[EndFigure, ...]  # its expected figures at the end
    fell: float = 0.0  # the chance to go out at some point (standing again by the end or not)


class Report(NamedTuple):
    runs: int
    seed: int
    rounds_limit: int
    start_round: int
    sides: tuple[SideChance, ...]
    none: float  # no side won: nobody standing, or still going at the limit
    unfinished: float  # still going at the limit
    mean_rounds: float
    histogram: dict[int, int]  # rounds played → runs
    combatants: tuple[Risk, ...]
    refused: int  # runs where a policy asked for what the rules refused
    # Runs in which anyone of each side went out at some point (rules/difficulty reads it).
    side_fell: dict[str, int] = {}

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "seed": self.seed,
            "sides": {
                s.side: {"win": _r(s.p), "low": _r(s.low), "high": _r(s.high)} for s in self.sides
            },
            "none": _r(self.none),
            "rounds": {
                "mean": round(self.mean_rounds, 3),
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
            },
            "combatants": {
                c.id: {
                    "name": c.name,
                    "side": c.side,
                    "out": _r(c.out),
                    "first_out": _r(c.first_out),
                    "end": {f.name: round(f.mean, 3) for f in c.end},
                }
                for c in self.combatants
            },
        }


def _r(p: float) -> float:
    return round(p, 4)


def report(state: AnyEncounter, tally: Tally, seed: int, rounds: int) -> Report:
    """The figures a tally of runs from ``state`` comes to."""
    system = get_system(state.system)
    n = tally.runs
    sides = tuple(
        SideChance(
            side,
            tally.wins.get(side, 0),
            _share(tally.wins.get(side, 0), n),
            *wilson(tally.wins.get(side, 0), n),
        )
        for side in dict.fromkeys(c.side for c in state.combatants)
    )
    total_rounds = sum(length * count for length, count in tally.lengths.items())
    risks = []
    for c in state.combatants:
        sums = tally.figures.get(c.id, {})
        end = tuple(
            EndFigure(f.name, f.value, sums.get(f.name, 0) / n if n else float(f.value))
            for f in system.end_figures(state, c)
        )
        risks.append(
            Risk(
                c.id,
                c.name,
                c.side,
                _share(tally.out.get(c.id, 0), n),
                _share(tally.first_out.get(c.id, 0), n),
                end,
                _share(tally.fell.get(c.id, 0), n),
            )
        )
    return Report(
        runs=n,
        seed=seed,
        rounds_limit=rounds,
        start_round=state.round,
        sides=sides,
        none=_share(tally.nobody + tally.unfinished, n),
        unfinished=_share(tally.unfinished, n),
        mean_rounds=total_rounds / n if n else 0.0,
        histogram=dict(sorted(tally.lengths.items())),
        combatants=tuple(risks),
        refused=tally.refused,
        side_fell=dict(tally.side_fell),
    )


def _share(count: int, n: int) -> float:
    return count / n if n else 0.0


def forecast(
    state: AnyEncounter, runs: int = DEFAULT_RUNS, seed: int = 0, rounds: int = DEFAULT_ROUNDS
) -> Report:
    """A whole forecast in this process (``tracker/headless/forecast_pool.py`` spreads one over
    several)."""
    return report(state, simulate(job_bytes(state, seed, rounds), 0, runs), seed, rounds)
