"""Beer Run solo play: how the tracker plays the combatants of a side it runs (``rules.solo``).

Every side acts each round, so the tracker answers for each of its combatants in the turn
order, one command at a time: a goal when it has none (or has gained it), its pool paid in
Intensity against a foe, its successes landed where its policy aims them once the round is
rolled, and, after the effects, ceding when its policy gives up. The user rolls the round
(``r``) and ends it (``n``), as the table would. A combatant that cedes is marked Ceded and
the tracker plays it no more (drop the condition to bring it back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.roles.solo import Solo
from rules.system import Move, Policy, policy_among

from .decide import (
    CEDED,
    br_state,
    default_split,
    is_dead,
    last_opponent,
    out_of_fight,
    pending_now,
    plan_pool,
    round_pools,
    sheet_of,
)
from .events import BuildPool, Cede, LandDamage, Pending, SetGoal
from .sheet import HEALTH, Ability, BeerRunSheet, Goal

if TYPE_CHECKING:
    from .events import BeerRunCombatant, BeerRunEncounter

POLICIES = (
    Policy(
        "base",
        "Base pool",
        "a conflict goal, 1 Intensity for the base pool each round, pips on Health",
    ),
    Policy(
        "aggressive",
        "Aggressive",
        "goes for the weakest foe's Health, buys an extra die while Intensity lasts",
    ),
    Policy(
        "cautious",
        "Cautious",
        "base pool only, takes the edge off the foe's best die, cedes at half Health",
    ),
)
EXTRA_RESERVE = 4  # an aggressive side buys an extra die (2 in all) only with this much left


def in_the_fight(combatant: BeerRunCombatant) -> bool:
    # Most have no condition: asked of every foe at each move of a fight of 40.
    return not combatant.conditions or not out_of_fight(combatant)


def foes(state: BeerRunEncounter, actor: BeerRunCombatant) -> list[BeerRunCombatant]:
    return [c for c in state.combatants if c.side != actor.side and in_the_fight(c)]


def health(sheet: BeerRunSheet) -> Ability | None:
    return sheet.ability(HEALTH)


def _size(ability: Ability | None) -> int:
    return ability.size if ability is not None else 0


def target_for(
    state: BeerRunEncounter, actor: BeerRunCombatant, policy: str
) -> tuple[BeerRunCombatant, str] | None:
    """The foe it sets its pool against, and why; None when no foe is left in the fight."""
    standing = foes(state, actor)
    if not standing:
        return None
    if policy == "aggressive":
        chosen = min(standing, key=lambda c: _size(health(sheet_of(c))) or 99)
        found = health(sheet_of(chosen))
        why = f" (Health d{found.size})" if found is not None else ""
        return chosen, f"goes for {chosen.name}, the weakest{why}"
    last = state.find(last_opponent(state, actor.id))
    if last is not None and last in standing:
        return last, f"keeps at {last.name}"
    return standing[0], f"takes on {standing[0].name}"


class _Round:
    """What every combatant's move reads of the round, worked out once a ``next_move``: each
    combatant is asked in turn until one has a move, and each read the whole round again (a
    fight of 40 asked 40 of them at each of its 40 moves a round; issue 45)."""

    def __init__(self, state: BeerRunEncounter) -> None:
        self.state = state
        self.rolled = br_state(state).rolled_round == state.round
        self._pending: tuple[Pending, ...] | None = None
        self._pooled: set[str] | None = None
        self._named: dict[tuple[str, str], BeerRunCombatant | None] = {}

    def pending(self) -> tuple[Pending, ...]:
        if self._pending is None:
            self._pending = pending_now(self.state)
        return self._pending

    def pooled(self, actor: BeerRunCombatant) -> bool:
        """Whether it has built its pool this round."""
        if self._pooled is None:
            self._pooled = {p.combatant_id for p in round_pools(self.state)}
        return actor.id in self._pooled

    def named(self, actor: BeerRunCombatant, sheet: BeerRunSheet) -> BeerRunCombatant | None:
        """``named_in_goal``, once for each side and goal (a side's goals name few foes)."""
        key = (actor.side, sheet.goal.text if sheet.goal is not None else "")
        if key not in self._named:
            self._named[key] = named_in_goal(self.state, actor, sheet)
        return self._named[key]


def next_move(state: BeerRunEncounter) -> Move | None:
    seen = _Round(state)
    for actor in state.combatants:
        if not state.is_solo(actor) or (actor.conditions and is_dead(actor)):
            continue
        move = _move_for(seen, actor)
        if move is not None:
            return move
    return _landing(state)


def _move_for(seen: _Round, actor: BeerRunCombatant) -> Move | None:
    state = seen.state
    sheet = sheet_of(actor)
    if actor.conditions and actor.condition(CEDED) is not None:
        return _cede(seen, actor, sheet)
    policy = policy_among(POLICIES, actor)
    if not seen.rolled:
        return _goal(seen, actor, sheet, policy) or _pool(seen, actor, sheet, policy)
    if not seen.pending():
        return _gives_up(state, actor, sheet, policy)
    return None


def named_in_goal(
    state: BeerRunEncounter, actor: BeerRunCombatant, sheet: BeerRunSheet
) -> BeerRunCombatant | None:
    """The combatant of another side its goal names ("Defeat Orla"), if any."""
    text = sheet.goal.text if sheet.goal is not None else ""
    others = [c for c in state.combatants if c.side != actor.side]
    return next((c for c in others if c.name in text), None)


def _goal(seen: _Round, actor: BeerRunCombatant, sheet: BeerRunSheet, policy: str) -> Move | None:
    """A new goal when it has none or has gained it, or when the foe it names is gone."""
    state = seen.state
    why = ""
    if sheet.goal is not None and not sheet.goal.gained:
        named = seen.named(actor, sheet)
        if named is None or in_the_fight(named):
            return None
        why = f"{named.name} is out of the fight; "
    found = target_for(state, actor, policy)
    if found is None:
        return None
    target, _ = found
    aim = f"defeat {target.name}" if policy != "cautious" else f"drive {target.name} off"
    cmd = SetGoal(combatant_id=actor.id, goal=Goal(kind="conflict", text=aim[0].upper() + aim[1:]))
    return Move(actor.id, cmd, f"{why}picks a conflict goal: {aim}")


def _pool(seen: _Round, actor: BeerRunCombatant, sheet: BeerRunSheet, policy: str) -> Move | None:
    state = seen.state
    if seen.pooled(actor):
        return None
    if sheet.intensity < 1 or not sheet.live_abilities():
        return None  # it cannot pay: it rolls nothing, and cedes after the effects
    named = seen.named(actor, sheet)
    found = target_for(state, actor, policy)
    if named is not None and in_the_fight(named) and (found is None or found[0] != named):
        found = named, f"sticks to its goal, {named.name}"
    if found is None:
        return None
    target, why = found
    plan = plan_pool(state, actor, None, ())
    extra: tuple[str, ...] = ()
    if policy == "aggressive" and sheet.intensity >= EXTRA_RESERVE:
        spare = [a for a in sheet.live_abilities() if a not in plan.base]
        if spare:
            extra = (max(spare, key=lambda a: a.size).name,)
    if extra:
        plan = plan_pool(state, actor, None, extra)
    dice = " ".join(f"{a.name} d{a.size}" for a in (*plan.base, *plan.extra))
    cost = f"{plan.cost} Intensity"
    cmd = BuildPool(combatant_id=actor.id, extra=extra, against=target.id)
    return Move(actor.id, cmd, f"{why}: pays {cost} for {dice}")


def _landing(state: BeerRunEncounter) -> Move | None:
    """Successes its combatant dealt (or a difficulty dealt it) land where its policy aims."""
    waiting = pending_now(state)
    if not waiting:
        return None
    item = waiting[0]
    dealer = state.find(item.dealer_id)
    target = state.combatant(item.target_id)
    if dealer is None:
        if not state.is_solo(target):
            return None
        where = ", ".join(f"{name} {pips}" for name, pips in default_split(target, item.pips))
        return Move(target.id, LandDamage(), f"the difficulty's pips land as they fall: {where}")
    if not state.is_solo(dealer):
        return None
    live = sheet_of(target).live_abilities()
    if not live:
        return Move(dealer.id, LandDamage(), f"{target.name} has no die left to wear down")
    policy = policy_among(POLICIES, dealer)
    aim = health(sheet_of(target))
    if policy == "cautious" or aim is None or aim.size <= 0:
        others = [a for a in live if a.name.casefold() != HEALTH] or live
        best = max(others, key=lambda a: a.size)
        split = ((best.name, item.pips),)
        why = f"lands {item.pips} on {target.name}'s {best.name} d{best.size}, its best die"
        return Move(dealer.id, LandDamage(split=split), why)
    after = max(0, aim.size - item.pips)
    why = f"lands {item.pips} on {target.name}'s Health: d{aim.size} → d{after}"
    return Move(dealer.id, LandDamage(split=((aim.name, item.pips),)), why)


def _gives_up(
    state: BeerRunEncounter, actor: BeerRunCombatant, sheet: BeerRunSheet, policy: str
) -> Move | None:
    """After the round's effects: cede when it cannot pay another pool, or (cautious) when
    its Health is at half or less."""
    if sheet.goal is None or sheet.goal.gained:
        return None
    why = ""
    if sheet.intensity < 1:
        why = "no Intensity left for another pool: it gives up"
    found = health(sheet)
    if not why and policy == "cautious" and found is not None and found.size * 2 <= found.rating:
        why = f"Health d{found.size} of d{found.rating}: it gives up the fight"
    if not why:
        return None
    winner = _opponent(state, actor)  # after why: every combatant is asked, few give up
    if winner is None:
        return None
    # One command: Cede marks it Ceded (out of the fight) and gives the other side its goal.
    cede = Cede(combatant_id=actor.id, to_id=winner.id)
    return Move(actor.id, cede, f"{why}, and cedes to {winner.name}")


def _opponent(state: BeerRunEncounter, actor: BeerRunCombatant) -> BeerRunCombatant | None:
    found = state.find(last_opponent(state, actor.id))
    if found is not None and in_the_fight(found):
        return found
    standing = foes(state, actor)
    return standing[0] if standing else None


def _cede(seen: _Round, actor: BeerRunCombatant, sheet: BeerRunSheet) -> Move | None:
    """A combatant the GM marked Ceded by hand cedes once (its goal is then cleared)."""
    if sheet.goal is None or seen.pending():
        return None
    winner = _opponent(seen.state, actor)
    if winner is None:
        return None
    return Move(actor.id, Cede(combatant_id=actor.id, to_id=winner.id), f"cedes to {winner.name}")


class BeerRunSolo(Solo):
    """Beer Run's solo play (``rules.roles.solo``)."""

    solo_policies = POLICIES
    solo_move = staticmethod(next_move)
