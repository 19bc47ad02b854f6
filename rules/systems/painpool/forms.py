"""Pain Pool's dialogs: the fields of each action, the command a filled form gives, and the
line under the dialog as the user types."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Literal

from rules.commands import AddCombatant
from rules.errors import Rejected
from rules.forms import YES_NO, Field, choice_value, int_value
from rules.notation import field as dice_field
from rules.roles.dialogs import Dialogs
from rules.system import Action

from .events import (
    EndScene,
    HopeMode,
    PainPoolRoll,
    PassBonus,
    SpendDespair,
    SpendHope,
    TakeDamage,
    combatants_with,
    damage_targets,
    hero,
    named_challenge,
    open_roll,
    tokens,
)
from .roll import (
    Harm,
    Initiator,
    Kind,
    PainPoolRolled,
    pain_count,
    pain_parts,
)
from .sheet import (
    PAIN_DIE,
    POOL_TITLES,
    POOLS,
    Boon,
    ChallengeSheet,
    HeroSheet,
    PoolName,
    challenge_form,
    challenge_from_form,
)

if TYPE_CHECKING:
    from .events import PainPoolEncounter

DROP = "drop"  # a bonus die given to nobody: the situation that made it has ended

ACTIONS = [
    Action("roll", "Roll the pools", "Power, Precision and Possibility against the Pain Pool"),
    Action("challenge", "Add challenge", "A Pain Pool with health tokens, spiral and templates"),
    Action("damage", "Take damage", "Cross off boon levels for the last roll's damage"),
    Action("despair", "Spend Despair", "GM: re-roll the Pain Pool, keep the higher; +1 Hope"),
    Action("hope", "Spend Hope", "Re-roll hero pools keeping the higher, or raise for favor"),
    Action("scene", "End scene", "Failure levels return, bonus dice end; damage lingers"),
    Action("bonus", "Give or drop a bonus die", "Hand a held bonus die on, or end it"),
]

KINDS: tuple[tuple[Kind, str], ...] = (
    ("attack", "Attack (risks and deals damage)"),
    ("maneuver", "Maneuver (a bonus die)"),
)
INITIATORS: tuple[tuple[Initiator, str], ...] = (
    ("hero", "The hero acts"),
    ("challenge", "The challenge acts"),
)
HARMS: tuple[tuple[Harm, str], ...] = (
    ("damage", "Damage (lingers)"),
    ("failure", "Failure levels (back at scene end)"),
)
BONUS_USES: tuple[tuple[PoolName | Literal[""], str], ...] = (
    ("", "Keep it"),
    *((p, POOL_TITLES[p]) for p in POOLS),
)
HOPE_MODES: tuple[tuple[HopeMode, str], ...] = (
    ("reroll", "Re-roll pools, keep the higher"),
    ("raise", "Raise the roll (favor)"),
)
# The outcome tiers (TIER_LABELS, TIER_BOUNDS) are in table.


def _choice(key: str, label: str, choices: tuple[tuple[str, str], ...], default: str) -> Field:
    return Field(key=key, label=label, kind="choice", default=default, choices=choices)


# --- forms -----------------------------------------------------------------------------------


def action_form(state: PainPoolEncounter, action: str, selected: str | None) -> list[Field]:
    match action:
        case "roll":
            return roll_form(state, selected)
        case "challenge":
            name = Field(key="name", label="Name", kind="text", help="e.g. The Ogre")
            return [name, *(f for f in challenge_form(ChallengeSheet()) if f.key != "lost")]
        case "damage":
            return damage_form(state)
        case "despair":
            open_roll(state)
            if tokens(state).despair < 1:
                raise Rejected("The GM has no Despair token to spend")
            return []
        case "hope":
            open_roll(state)
            if tokens(state).hope < 1:
                raise Rejected("The players' pot has no Hope token")
            rerolls = [
                _choice(f"reroll_{p}", f"Re-roll {POOL_TITLES[p]}", YES_NO, "yes") for p in POOLS
            ]
            return [
                _choice("mode", "Hope", HOPE_MODES, "reroll"),
                *rerolls,
                Field(key="raise_by", label="Raise by (1 favor each)", default="1"),
            ]
        case "scene":
            return [_choice("heal", "Damage heals too", YES_NO, "no")]
        case "bonus":
            return bonus_form(state, selected)
    raise Rejected(f"Pain Pool has no action {action!r}")


def bonus_form(state: PainPoolEncounter, selected: str | None) -> list[Field]:
    holders = [c for c in combatants_with(state, HeroSheet) if c.sheet.held]
    if not holders:
        raise Rejected("No hero holds a bonus die: a successful maneuver gives one")
    holder = next((h for h in holders if h.id == selected), holders[0])
    dice = tuple(
        (f"{h.id}:{i}", f"{h.name}: {die.name}{' (sticky)' * die.sticky}")
        for h in holders
        for i, die in enumerate(h.sheet.held)
    )
    others = tuple((c.id, c.name) for c in combatants_with(state, HeroSheet))
    return [
        _choice("die", "Bonus die", dice, f"{holder.id}:0"),
        _choice("to", "Give to", ((DROP, "nobody: the situation ended it"), *others), DROP),
    ]


def roll_form(state: PainPoolEncounter, selected: str | None) -> list[Field]:
    heroes = combatants_with(state, HeroSheet)
    foes = [c for c in combatants_with(state, ChallengeSheet) if not c.sheet.passed]
    if not heroes:
        raise Rejected("A Pain Pool roll needs a hero: add one with a")
    if not foes:
        raise Rejected("A Pain Pool roll needs a challenge with health: s → Add challenge")
    roller = next((h for h in heroes if h.id == selected), heroes[0])
    last = state.last_roll
    foe = next(
        (f for f in foes if isinstance(last, PainPoolRolled) and f.id == last.challenge_id), foes[0]
    )
    sheet: HeroSheet = roller.sheet
    fields = [
        _choice("hero", "Hero", ((roller.id, roller.name),), roller.id),
        _choice("challenge", "Against", tuple((f.id, f.name) for f in foes), foe.id),
        Field(key="intent", label="Intent", kind="text", help="what the hero wants"),
        _choice("kind", "Action", KINDS, "attack"),
        _choice("initiator", "Initiated by", INITIATORS, "hero"),
        _choice("harm", "A loss costs", HARMS, "damage"),
        *_boon_fields(sheet.boons),
    ]
    for index, bonus in enumerate(sheet.held):
        cost = " (sticky: 1 favor)" if bonus.used else " (sticky)" if bonus.sticky else ""
        fields.append(_choice(f"bonus{index}", f"Bonus die: {bonus.name}{cost}", BONUS_USES, ""))
    people = tuple((h.id, h.name) for h in heroes)
    return [
        *fields,
        Field(
            key="pain_extra",
            label="Extra pain dice (GM)",
            default="0",
            help="2 or 2d6",
            kind="text",
        ),
        _choice("beneficiary", "Maneuver's bonus die to", people, roller.id),
        _choice("sticky", "Sticky maneuver", YES_NO, "no"),
        Field(key="best", label="Best outcome", kind="text"),
        Field(key="good", label="Good outcome", kind="text"),
        Field(key="worst", label="Worst outcome", kind="text"),
    ]


# A solo or forecast move builds the roll form several times a turn, over the same few heroes'
# boons: the best of every combination of them, worked out once (a forecast's runs were a
# third slower without it).
@lru_cache(maxsize=256)
def _boon_fields(boons: tuple[Boon, ...]) -> tuple[Field, ...]:
    """One boon choice per pool, defaulting to the boons that add the most dice together."""
    usable = {
        pool: sorted((b for b in boons if pool in b.pools and b.usable), key=lambda b: -b.usable)
        for pool in POOLS
    }
    defaults = best_boons(usable)
    fields = []
    for pool in POOLS:
        choices = (("", "no boon"), *((b.name, f"{b.name} +{b.usable}d") for b in usable[pool]))
        label = f"{POOL_TITLES[pool]} boon"
        fields.append(_choice(f"boon_{pool}", label, choices, defaults[pool]))
    return tuple(fields)


def best_boons(usable: dict[PoolName, list[Boon]]) -> dict[PoolName, str]:
    """The boon names, one per pool and each boon once, that add the most dice in all."""
    options = [[None, *usable[pool]] for pool in POOLS]
    best: tuple[Boon | None, ...] = (None, None, None)
    best_dice = 0
    for combo in product(*options):
        names = [b.name for b in combo if b is not None]
        dice = sum(b.usable for b in combo if b is not None)
        if len(set(names)) == len(names) and dice > best_dice:
            best, best_dice = combo, dice
    return {pool: b.name if b else "" for pool, b in zip(POOLS, best, strict=True)}


def damage_form(state: PainPoolEncounter) -> list[Field]:
    roll = open_roll(state)
    who = hero(state, roll.hero_id)
    if not roll.hero_damage:
        raise Rejected(f"{who.name} has no damage to take from the last roll")
    fields = []
    cascades = {b.cascade for b in who.sheet.boons if b.cascade}
    for index, (target, room) in enumerate(damage_targets(who.sheet)):
        if target in cascades:
            label = f"Cascade {target} ({room} boon{'s' * (room != 1)}, highest first)"
        else:
            label = f"{target} ({room} level{'s' * (room != 1)} left)"
        fields.append(Field(key=f"hit{index}", label=label, default="0"))
    if not fields:
        raise Rejected(f"{who.name} has no boon levels left to cross off")
    return fields


# --- commands ----------------------------------------------------------------------------------


def action_command(state: PainPoolEncounter, action: str, values: Mapping[str, str]) -> object:
    match action:
        case "roll":
            return roll_command(state, values)
        case "challenge":
            sheet = challenge_from_form(values, ChallengeSheet())
            return AddCombatant(name=values.get("name", ""), side="challenge", sheet=sheet)
        case "damage":
            return damage_command(state, values)
        case "despair":
            return SpendDespair()
        case "hope":
            fields = {f.key: f for f in action_form(state, "hope", None)}
            pools = tuple(p for p in POOLS if choice_value(values, fields[f"reroll_{p}"]) == "yes")
            mode = choice_value(values, fields["mode"], HOPE_MODES)
            raise_by = int_value(values, "raise_by", "Raise by", 1) if mode == "raise" else 0
            return SpendHope(mode=mode, pools=pools, raise_by=raise_by)
        case "scene":
            return EndScene(heal=values.get("heal") == "yes")
        case "bonus":
            fields = {f.key: f for f in bonus_form(state, None)}
            holder, _, index = choice_value(values, fields["die"]).rpartition(":")
            to = choice_value(values, fields["to"])
            return PassBonus(hero_id=holder, index=int(index), to_id="" if to == DROP else to)
    raise Rejected(f"Pain Pool has no action {action!r}")


def roll_command(
    state: PainPoolEncounter, values: Mapping[str, str], form: list[Field] | None = None
) -> PainPoolRoll:
    """``form``: the roll form of ``values``' hero in ``state``, when the caller has just built
    it (a solo or forecast move: not built again)."""
    fields = {f.key: f for f in (form or roll_form(state, values.get("hero")))}
    boons = tuple((p, choice_value(values, fields[f"boon_{p}"])) for p in POOLS)
    bonus: list[tuple[int, PoolName]] = []
    for key, field in fields.items():
        if key.startswith("bonus") and (pool := choice_value(values, field, BONUS_USES)):
            bonus.append((int(key.removeprefix("bonus")), pool))
    return PainPoolRoll(
        hero_id=choice_value(values, fields["hero"]),
        challenge_id=choice_value(values, fields["challenge"]),
        intent=values.get("intent", ""),
        best=values.get("best", ""),
        good=values.get("good", ""),
        worst=values.get("worst", ""),
        kind=choice_value(values, fields["kind"], KINDS),
        initiator=choice_value(values, fields["initiator"], INITIATORS),
        harm=choice_value(values, fields["harm"], HARMS),
        boons=boons,
        bonus=tuple(bonus),
        pain_extra=dice_field.count(values.get("pain_extra", ""), "Extra pain dice", PAIN_DIE),
        beneficiary_id=choice_value(values, fields["beneficiary"]),
        sticky=choice_value(values, fields["sticky"]) == "yes",
    )


def damage_command(state: PainPoolEncounter, values: Mapping[str, str]) -> TakeDamage:
    who = hero(state, open_roll(state).hero_id)
    hits = tuple(
        (target, int_value(values, f"hit{i}", target))
        for i, (target, _) in enumerate(damage_targets(who.sheet))
    )
    return TakeDamage(hits=tuple(h for h in hits if h[1]))


# --- previews ------------------------------------------------------------------------------------


def preview(state: PainPoolEncounter, action: str, values: Mapping[str, str]) -> str:
    match action:
        case "roll":
            return roll_preview(state, roll_command(state, values))
        case "damage":
            roll = open_roll(state)
            who = hero(state, roll.hero_id)
            room = sum(r for _, r in damage_targets(who.sheet))
            due = min(roll.hero_damage, room)
            assigned = sum(points for _, points in damage_command(state, values).hits)
            kind = "damage" if roll.harm_taken == "damage" else "failure levels"
            return f"{who.name} takes {due} {kind}: {assigned} of {due} assigned"
        case "despair":
            count = pain_count(open_roll(state).pain.parts)
            return f"Re-roll the Pain Pool ({count}d6), keep the higher total; players gain Hope"
        case "hope":
            return hope_preview(state, values)
        case "scene":
            heal = values.get("heal") == "yes"
            back = "Failure levels return" + (" and damage heals" if heal else "; damage lingers")
            return back + "; held bonus dice end with the scene"
    return ""


def roll_preview(state: PainPoolEncounter, cmd: PainPoolRoll) -> str:
    who = hero(state, cmd.hero_id)
    foe = named_challenge(state, cmd.challenge_id)
    sheet: HeroSheet = who.sheet
    parts = [
        f"{POOL_TITLES[pool][:3]} {count}d{size}" for pool, count, size in pool_dice(sheet, cmd)
    ]
    pain = pain_parts(foe.sheet, cmd.initiator, cmd.pain_extra)
    pain_text = f"Pain {pain_count(pain)}d6"
    if len(pain) > 1:
        pain_text += " (" + ", ".join(f"{p.label} {p.value:+d}" for p in pain[1:]) + ")"
    favor = sum(sheet.held[i].favor_cost for i, _ in cmd.bonus if 0 <= i < len(sheet.held))
    cost = f"; {favor} favor for sticky dice" if favor else ""
    return f"{who.name}: {', '.join(parts)} vs {foe.name}: {pain_text}{cost}"


def pool_dice(sheet: HeroSheet, cmd: PainPoolRoll) -> list[tuple[PoolName, int, int]]:
    """Each pool's dice for a roll command: (pool, attribute + boon + bonus dice, size)."""
    chosen = dict(cmd.boons)
    out = []
    for pool in POOLS:
        boon = sheet.boon(chosen.get(pool, ""))
        bonus = sum(1 for _, p in cmd.bonus if p == pool)
        out.append((pool, 1 + (boon.usable if boon else 0) + bonus, sheet.die(pool)))
    return out


def hope_preview(state: PainPoolEncounter, values: Mapping[str, str]) -> str:
    roll = open_roll(state)
    cmd = action_command(state, "hope", values)
    assert isinstance(cmd, SpendHope)
    who = hero(state, roll.hero_id)
    if cmd.mode == "raise":
        return (
            f"+{cmd.raise_by} to {roll.hero_total}: costs {cmd.raise_by} favor "
            f"({who.name} has {who.sheet.favor}); Pain will dominate"
        )
    names = ", ".join(POOL_TITLES[p] for p in cmd.pools) or "no pool"
    return f"Re-roll {names}; each keeps the higher die"


class PainPoolDialogs(Dialogs):
    """Pain Pool's dialogs part (``rules.roles.dialogs``); the system adds what the encounter
    suggests (a hero's damage) to its forms."""

    action_command = staticmethod(action_command)
