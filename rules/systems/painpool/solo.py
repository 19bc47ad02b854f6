"""Pain Pool played by the tracker: the GM's challenges, and heroes of a solo side.

Every choice is a pure function of the state (``rules.solo``). After any roll against a solo
challenge, the GM may spend Despair; the roll's outcome belongs to its hero's side (Hope, then
``d`` or Take damage), made by policy for a solo hero and by the player otherwise. Once a
hero's action against a solo challenge is settled, the challenge strikes back with one roll
it initiates. A solo hero never invents an intent: it acts when its player rolls for it.
The readings are in rulings.md (Pain Pool, "Solo play").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rules.errors import Rejected
from rules.roles.solo import Solo
from rules.system import Move, Policy, policy_among

from .events import (
    ApplyOutcome,
    SpendDespair,
    SpendHope,
    TakeDamage,
    combatants_with,
    damage_targets,
    tokens,
)
from .forms import roll_command, roll_form
from .roll import PainPoolRolled
from .sheet import POOL_TITLES, POOLS, HeroSheet, PoolName, out_of_fight

if TYPE_CHECKING:
    from rules.forms import Field

    from .events import PainPoolChallenge, PainPoolCombatant, PainPoolEncounter, PainPoolHero

STEADY, AGGRESSIVE, CAUTIOUS = "steady", "aggressive", "cautious"
POLICIES = (
    Policy(
        STEADY,
        "Steady",
        "A challenge answers each hero attack on it and spends Despair when a hero would take "
        "tokens off it; a hero re-rolls with Hope when it fails or ties",
    ),
    Policy(
        AGGRESSIVE,
        "Aggressive",
        "A challenge answers every hero action, at the most worn hero, and spends Despair "
        "unless the hero is losing; a hero spends Hope and bonus dice freely",
    ),
    Policy(
        CAUTIOUS,
        "Cautious",
        "A challenge only defends and saves Despair for its last tokens; a hero keeps Hope "
        "for a failure and its bonus dice for later",
    ),
)


# --- the next move ------------------------------------------------------------------------------


def next_move(state: PainPoolEncounter) -> Move | None:
    """The next choice of a solo side now, or None when nothing waits on one."""
    roll = state.last_roll
    if not isinstance(roll, PainPoolRolled):
        return None
    if not state.last_roll_applied:
        move = despair_move(state, roll)
        if move is None:
            move = hero_move(state, roll)
        if move is not None or not settled(state, roll):
            return move
    return answer_move(state, roll)


def solo(state: PainPoolEncounter, combatant_id: str) -> PainPoolCombatant | None:
    """The combatant, when it is still there and a solo side plays it."""
    found = state.find(combatant_id)
    return found if found is not None and state.is_solo(found) else None


def settled(state: PainPoolEncounter, roll: PainPoolRolled) -> bool:
    """Whether the open roll leaves nothing to apply (a tie, no damage, or a hero with no
    boon levels left to cross off)."""
    if roll.tokens_lost or (roll.kind == "maneuver" and roll.outcome == "success"):
        return False
    if not roll.hero_damage:
        return True
    hero = cast("PainPoolHero | None", state.find(roll.hero_id))
    return hero is None or not damage_targets(hero.sheet)


# --- the GM: Despair and striking back ----------------------------------------------------------


def tokens_text(count: int) -> str:
    return f"{count} health token{'s' * (count != 1)}"


def despair_move(state: PainPoolEncounter, roll: PainPoolRolled) -> Move | None:
    """Once per roll, a solo challenge may re-roll its Pain Pool with a Despair token."""
    foe = cast("PainPoolChallenge | None", solo(state, roll.challenge_id))
    if foe is None or tokens(state).despair < 1 or roll.pain.rerolls:
        return None
    policy = policy_among(POLICIES, foe)
    hero = state.name_of(roll.hero_id)
    if policy == AGGRESSIVE and roll.outcome != "failure":
        why = f"spends Despair: {hero} is not losing ({roll.outcome})"
    elif policy == STEADY and roll.tokens_lost:
        why = f"spends Despair: {hero} would take {tokens_text(roll.tokens_lost)} off it"
    elif policy == CAUTIOUS and roll.tokens_lost >= foe.sheet.remaining > 0:
        why = f"spends Despair: {hero} would take its last {tokens_text(foe.sheet.remaining)}"
    else:
        return None
    return Move(foe.id, SpendDespair(), why)


def answer_move(state: PainPoolEncounter, roll: PainPoolRolled) -> Move | None:
    """A solo challenge strikes back once a hero's action against it is settled."""
    foe = cast("PainPoolChallenge | None", solo(state, roll.challenge_id))
    if foe is None or roll.initiator != "hero" or foe.sheet.passed:
        return None
    policy = policy_among(POLICIES, foe)
    if policy == CAUTIOUS or (policy == STEADY and roll.kind != "attack"):
        return None
    target, why = answer_target(state, roll, policy)
    if target is None:
        return None
    form = roll_form(state, target.id)
    values = {f.key: f.default for f in form}
    values.update(
        challenge=foe.id,
        intent=f"{foe.name} strikes back",
        kind="attack",
        initiator="challenge",
        harm=roll.harm,
    )
    command = roll_command(state, values, form)
    return Move(foe.id, command, f"strikes back at {target.name} ({why})")


def answer_target(
    state: PainPoolEncounter, roll: PainPoolRolled, policy: str
) -> tuple[PainPoolHero | None, str]:
    acted = cast("PainPoolHero | None", state.find(roll.hero_id))
    if policy != AGGRESSIVE:
        if acted is None or out_of_fight(acted.sheet):
            return None, ""
        return acted, "who just acted against it"
    heroes = [c for c in combatants_with(state, HeroSheet) if not out_of_fight(c.sheet)]
    if not heroes:
        return None, ""
    worn = min(heroes, key=lambda c: sum(b.usable for b in c.sheet.boons))
    return worn, "the most worn hero"


# --- a solo hero's side of its roll ---------------------------------------------------------------


def hero_move(state: PainPoolEncounter, roll: PainPoolRolled) -> Move | None:
    """Hope, then the outcome (``d``) or where the damage lands, for a solo hero."""
    hero = cast("PainPoolHero | None", solo(state, roll.hero_id))
    if hero is None:
        return None
    policy = policy_among(POLICIES, hero)
    hope = hope_move(state, roll, hero, policy)
    if hope is not None:
        return hope
    if roll.tokens_lost or (roll.kind == "maneuver" and roll.outcome == "success"):
        foe = state.name_of(roll.challenge_id)
        what = f"{tokens_text(roll.tokens_lost)} off {foe}" if roll.tokens_lost else "a bonus die"
        return Move(hero.id, ApplyOutcome(), f"applies its success: {what}")
    if roll.hero_damage and damage_targets(hero.sheet):
        hits, why = damage_plan(hero.sheet, roll, policy)
        return Move(hero.id, TakeDamage(hits=hits), why)
    return None


def hope_move(
    state: PainPoolEncounter, roll: PainPoolRolled, hero: PainPoolCombatant, policy: str
) -> Move | None:
    """Once per roll, re-roll every pool not already at its top face (the higher is kept)."""
    if tokens(state).hope < 1 or any(p.rerolls for p in roll.pools):
        return None
    pools = tuple(p.pool for p in roll.pools if p.kept < p.size)
    attack = roll.kind == "attack"
    wanted = {
        STEADY: roll.outcome != "success",
        AGGRESSIVE: attack or roll.outcome != "success",
        CAUTIOUS: attack and roll.outcome == "failure",
    }[policy]
    if not wanted or not pools:
        return None
    names = ", ".join(POOL_TITLES[p] for p in pools)
    return Move(
        hero.id, SpendHope(pools=pools), f"spends Hope on a {roll.outcome}: re-rolls {names}"
    )


def damage_plan(
    sheet: HeroSheet, roll: PainPoolRolled, policy: str
) -> tuple[tuple[tuple[str, int], ...], str]:
    """Where the damage lands: first on the boons this roll did not use ("which the player
    hopes won't come into play"); aggressive piles it on as few boons as it can, cautious
    spreads it one level at a time, steady goes down the sheet."""
    used = {p.boon for p in roll.pools if p.boon}
    targets = damage_targets(sheet)

    def in_use(target: str) -> bool:
        """A boon, or a cascade one of whose boons, that fed this roll."""
        return any(b.name in used for b in sheet.boons if target in (b.name, b.cascade))

    order = sorted(targets, key=lambda t: in_use(t[0]))  # stable: the sheet's order stays
    if policy == AGGRESSIVE:
        order = sorted(order, key=lambda t: (in_use(t[0]), -t[1]))
    due = min(roll.hero_damage, sum(room for _, room in targets))
    hits: dict[str, int] = {}
    rooms = dict(order)
    while due:
        for name, _ in order:
            take = min(rooms[name] - hits.get(name, 0), 1 if policy == CAUTIOUS else due)
            if take > 0:
                hits[name] = hits.get(name, 0) + take
                due -= take
            if not due:
                break
    plan = tuple((name, hits[name]) for name, _ in order if hits.get(name))
    text = ", ".join(f"{name} -{points}" for name, points in plan)
    how = {STEADY: "", AGGRESSIVE: ", on as few as it can", CAUTIOUS: ", a level at a time"}
    return plan, f"takes it on {text} (boons it did not roll first{how[policy]})"


# --- a user's dialog ---------------------------------------------------------------------------


def fill(
    state: PainPoolEncounter, action: str, values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    """A roll for a solo hero: its best boons (the dialog's own) and, unless cautious, its
    free bonus dice on its largest die."""
    if action != "roll":
        return values, []
    hero = solo(state, values.get("hero", ""))
    if hero is None or not isinstance(hero.sheet, HeroSheet):
        return values, []
    try:
        fields = roll_form(state, hero.id)
    except Rejected:
        return values, []  # the dialog's own check says what is wrong
    return filled(cast("PainPoolHero", hero), fields, values)


def filled(
    hero: PainPoolHero, fields: list[Field], values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    """``fill`` for a solo hero whose roll form (``fields``) is already built."""
    sheet: HeroSheet = hero.sheet
    chosen = {f.key: f.default for f in fields if f.key.startswith("boon_")}
    boons = [chosen[f"boon_{p}"] for p in POOLS if chosen[f"boon_{p}"]]
    why = "rolls with " + (", ".join(boons) if boons else "no boon")
    if policy_among(POLICIES, hero) != CAUTIOUS:
        biggest: PoolName = max(POOLS, key=sheet.die)
        free = [i for i, bonus in enumerate(sheet.held) if not bonus.favor_cost]
        chosen.update({f"bonus{i}": biggest for i in free})
        if free:
            why += f"; {len(free)} bonus die on {POOL_TITLES[biggest]}"
    return {**values, **chosen}, [Move(hero.id, None, why)]


class PainPoolSolo(Solo):
    """Pain Pool's solo play (``rules.roles.solo``)."""

    solo_policies = POLICIES
    solo_move = staticmethod(next_move)
    solo_fill = staticmethod(fill)
