"""The end of a fight: who is out of it, whether it is over and who won, and its summary.

Each system says who is out of the fight and why (``RuleSystem.out_of_fight``); a fight is
over when no more than one of its sides has anyone left in it. The summary adds up what the
events say: the damage each combatant dealt and took (``RuleSystem.damage``), the rolls made
(the system's ``roll_event_types``) and how lucky each side was (``RuleSystem.roll_luck``).

Luck: every roll landed in a tier whose exact chance the system knows (``last_odds``). Its
percentile is the chance of a tier worse for the roller plus half the chance of the tier it
landed in, so over many rolls it averages exactly 50% whatever the odds were; a side's luck
is the mean percentile of the rolls that favoured or hurt its combatants (for the one hurt,
one minus the percentile). Above 50%, the dice were kinder to that side than its odds.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, NamedTuple

from rules.encounter import AnyEncounter, Combatant, Event
from rules.engine import apply
from rules.errors import Rejected
from rules.history import History
from rules.hp_view import shown_stats
from rules.registry import get_system


class Outcome(NamedTuple):
    """Whether the fight is over, and who is still in it."""

    over: bool
    winner: str | None  # the one side left standing; None while going on or if none is
    standing: tuple[str, ...]  # the sides with someone still in the fight, in turn order
    out: dict[str, str]  # why each combatant out of the fight is out, by id

    @property
    def headline(self) -> str:
        """ "Fight over: party won", "Fight over: nobody standing", or "" while it goes on."""
        if not self.over:
            return ""
        return f"Fight over: {self.winner} won" if self.winner else "Fight over: nobody standing"


def out_of_fight(state: AnyEncounter, combatant: Combatant[Any]) -> str:
    """Why the combatant is out of the fight ("" while it is in it)."""
    return get_system(state.system).out_of_fight(state, combatant)


def in_fight(state: AnyEncounter, combatant: Combatant[Any]) -> bool:
    return not out_of_fight(state, combatant)


def outcome(state: AnyEncounter) -> Outcome:
    """Over when the encounter has two sides or more and no more than one still fights."""
    return watch(state).result


class Watch(NamedTuple):
    """A fight's outcome with what it was read from, to follow the fight move by move (a
    forecast's runs): after a move only the combatants it changed are asked who is out."""

    state: AnyEncounter
    words: tuple[str, ...]  # why each combatant is out of the fight ("": in it), in turn order
    result: Outcome


def watch(state: AnyEncounter) -> Watch:
    system = get_system(state.system)
    words = tuple([system.out_of_fight(state, c) for c in state.combatants])
    return Watch(state, words, _read(state, words))


def followed(seen: Watch, state: AnyEncounter) -> Watch:
    """``seen`` after the moves that led to ``state``: a combatant they left as it was (the
    same value) is still in or out as it was, so is not asked again (``RuleSystem.
    out_of_fight`` reads the combatant and the system's state); everyone is when the system's
    state changed (unless the system's word reads the combatant alone: ``RuleSystem.
    out_of_fight_reads_state``), or anyone joined, left, moved in the turn order or changed
    sides. The result is ``seen``'s own while nobody went out or came back."""
    before = seen.state
    system = get_system(state.system)
    if state.system_state is not before.system_state and system.out_of_fight_reads_state:
        return watch(state)
    now, then = state.combatants, before.combatants
    if now is then:
        return Watch(state, seen.words, seen.result)
    if len(now) != len(then):
        return watch(state)
    words: list[str] | None = None
    for index, combatant in enumerate(now):
        was = then[index]
        if combatant is was:
            continue
        if combatant.id != was.id or combatant.side != was.side:
            return watch(state)
        why = system.out_of_fight(state, combatant)
        if why != seen.words[index]:
            words = words or list(seen.words)
            words[index] = why
    if words is None:
        return Watch(state, seen.words, seen.result)
    return Watch(state, tuple(words), _read(state, tuple(words)))


def _read(state: AnyEncounter, words: tuple[str, ...]) -> Outcome:
    """The outcome from each combatant's word (comprehensions: a fight of 40 reads it after
    each fall)."""
    combatants = state.combatants
    out = {c.id: why for c, why in zip(combatants, words, strict=True) if why}
    sides = dict.fromkeys([c.side for c in combatants])  # in turn order
    fighting = {c.side for c, why in zip(combatants, words, strict=True) if not why}
    standing = tuple([side for side in sides if side in fighting])
    over = len(sides) >= 2 and len(standing) <= 1
    return Outcome(over, standing[0] if over and standing else None, standing, out)


# --- the summary ---------------------------------------------------------------------------------


class Fighter(NamedTuple):
    """One combatant at the end: its stats, whether it is out, and its part in the fight."""

    id: str
    name: str
    side: str
    stats: tuple[str, ...]  # the system's ``sheet_stats``, under its ``stat_columns``
    out: str
    dealt: int
    taken: int
    rolls: int
    initiative: int | None = None  # None: none set (or a system without a turn order)


class SideLuck(NamedTuple):
    side: str
    rolls: int  # rolls that favoured or hurt one of its combatants
    luck: Fraction | None  # their mean percentile (None: no roll with odds)


class Summary(NamedTuple):
    outcome: Outcome
    rounds: int
    rolls: int
    unit: str  # what dealt and taken count (the system's ``damage_unit``)
    columns: tuple[str, ...]
    fighters: tuple[Fighter, ...]
    luck: tuple[SideLuck, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures (luck as a percentage, 1 decimal)."""
        return {
            "over": self.outcome.over,
            "winner": self.outcome.winner,
            "standing": list(self.outcome.standing),
            "rounds": self.rounds,
            "rolls": self.rolls,
            "damage_unit": self.unit,
            "columns": list(self.columns),
            "combatants": [
                {
                    "id": f.id,
                    "name": f.name,
                    "side": f.side,
                    "stats": list(f.stats),
                    "out": f.out,
                    "dealt": f.dealt,
                    "taken": f.taken,
                    "rolls": f.rolls,
                    "initiative": f.initiative,
                }
                for f in self.fighters
            ],
            "luck": [
                {"side": s.side, "rolls": s.rolls, "luck": percent(s.luck)} for s in self.luck
            ],
        }


def percent(value: Fraction | None) -> float | None:
    return None if value is None else round(float(value * 100), 1)


def luck_text(value: Fraction | None) -> str:
    """ "62%" with a word for it, or "no odds"."""
    if value is None:
        return "no odds"
    shown = percent(value)
    word = "luckier than the odds" if value > Fraction(11, 20) else "about as the odds"
    if value < Fraction(9, 20):
        word = "unluckier than the odds"
    return f"{shown:.0f}% ({word})"


def summary(
    pairs: Iterable[tuple[Event, AnyEncounter]], state: AnyEncounter, result: Outcome | None = None
) -> Summary:
    """The figures of a fight from its events in effect, each with the state it was applied
    to (``History.in_effect()``, or what a role may see of it), and the state they end in.
    ``result``: the outcome of the whole encounter, when ``state`` is only what a role sees."""
    system = get_system(state.system)
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    rolled: dict[str, int] = {}
    lucks: dict[str, list[Fraction]] = {}
    involved: dict[str, int] = {}
    rolls = 0

    def read_roll(event: Event, after: AnyEncounter) -> None:
        names = {cid for cid in system.roll_sides(after, event) if cid is not None}
        by_side: dict[str, list[Fraction]] = {}
        try:
            found_luck = system.roll_luck(after, event)
        except Rejected:  # odds too big to work out: a roll without luck, never a lost summary
            found_luck = ()
        for luck in found_luck:
            names.add(luck.combatant_id)
            who = after.find(luck.combatant_id)
            if who is not None:
                by_side.setdefault(who.side, []).append(luck.percentile)
        for cid in names:
            rolled[cid] = rolled.get(cid, 0) + 1
        for side, found in by_side.items():
            lucks.setdefault(side, []).extend(found)
            involved[side] = involved.get(side, 0) + 1

    for event, before in pairs:
        for hit in system.damage(before, event):
            taken[hit.target_id] = taken.get(hit.target_id, 0) + hit.amount
            if hit.dealer_id is not None:
                dealt[hit.dealer_id] = dealt.get(hit.dealer_id, 0) + hit.amount
        if isinstance(event, system.roll_event_types):
            rolls += 1
            # Applied here, not read off the next pair: in a player's view the next one shown
            # may come after a hidden roll.
            read_roll(event, apply(before, event))
    result = result or outcome(state)
    fighters = tuple(
        Fighter(
            id=c.id,
            name=c.name,
            side=c.side,
            stats=shown_stats(system, c),  # a band where the reader may not see the number
            out=result.out.get(c.id, ""),
            dealt=dealt.get(c.id, 0),
            taken=taken.get(c.id, 0),
            rolls=rolled.get(c.id, 0),
            initiative=c.initiative,
        )
        for c in state.combatants
    )
    sides = list(dict.fromkeys(c.side for c in state.combatants))
    luck = tuple(
        SideLuck(side, involved.get(side, 0), _mean(lucks.get(side, []))) for side in sides
    )
    return Summary(
        result, state.round, rolls, system.damage_unit, system.stat_columns, fighters, luck
    )


def summary_of(history: History) -> Summary:
    """The figures of a whole history (the GM's view)."""
    return summary(history.in_effect(), history.state)


def _mean(values: list[Fraction]) -> Fraction | None:
    return sum(values, Fraction(0)) / len(values) if values else None
