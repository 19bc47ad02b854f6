"""Pain Pool's decisions: a roll of the three pools against the Pain Pool, Despair and Hope,
the outcome, boon damage and bonus dice passed on (dice only from ``DiceSource``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.dice import DiceSource
from rules.errors import Rejected

from .events import (
    BonusGranted,
    BonusPassed,
    BoonHit,
    BoonsDamaged,
    DespairSpent,
    HopeSpent,
    PainPoolRoll,
    PassBonus,
    PoolReroll,
    SpendHope,
    TakeDamage,
    TokensLost,
    cascade_hits,
    challenge,
    damage_targets,
    hero,
    open_roll,
    tokens,
)
from .roll import (
    PainPoolRolled,
    PainRoll,
    PoolRoll,
    damage_parts,
    dominant,
    pain_count,
    pain_parts,
    roll_dice,
)
from .sheet import (
    PAIN_DIE,
    POOL_TITLES,
    POOLS,
    Boon,
    ChallengeSheet,
    HeroSheet,
)

if TYPE_CHECKING:
    from .events import PainPoolEncounter, PainPoolHero


def roll(state: PainPoolEncounter, cmd: PainPoolRoll, dice: DiceSource) -> PainPoolRolled:
    who = hero(state, cmd.hero_id)
    foe = challenge(state, cmd.challenge_id)
    sheet: HeroSheet = who.sheet
    foe_sheet: ChallengeSheet = foe.sheet
    if foe_sheet.passed:
        raise Rejected(f"{foe.name} is already passed: its Pain Pool has no health left")
    if cmd.kind == "maneuver" and cmd.initiator != "hero":
        raise Rejected("A maneuver is a hero's action: the hero initiates it")
    beneficiary = cmd.beneficiary_id or who.id
    if cmd.kind == "maneuver":
        hero(state, beneficiary)
    chosen = chosen_boons(sheet, cmd)
    spent, favor = chosen_bonus(who, cmd)
    pools = []
    for pool in POOLS:
        size = sheet.die(pool)
        boon = chosen.get(pool)
        bonus = [i for i, p in cmd.bonus if p == pool]
        pools.append(
            PoolRoll(
                pool=pool,
                size=size,
                attribute=dice.roll(size),
                boon=boon.name if boon else "",
                boon_dice=roll_dice(dice, boon.usable if boon else 0, size),
                bonus=tuple(sheet.held[i].name for i in bonus),
                bonus_dice=roll_dice(dice, len(bonus), size),
            )
        )
    parts = pain_parts(foe_sheet, cmd.initiator, cmd.pain_extra)
    pain = PainRoll(parts=parts, dice=roll_dice(dice, pain_count(parts), PAIN_DIE))
    rolled = tuple(pools)
    return PainPoolRolled(
        hero_id=who.id,
        challenge_id=foe.id,
        intent=cmd.intent.strip(),
        best=cmd.best.strip(),
        good=cmd.good.strip(),
        worst=cmd.worst.strip(),
        kind=cmd.kind,
        initiator=cmd.initiator,
        harm=cmd.harm,
        pools=rolled,
        pain=pain,
        damage_parts=damage_parts(foe_sheet, cmd.initiator),
        beneficiary_id=beneficiary if cmd.kind == "maneuver" else "",
        sticky=cmd.sticky,
        spent=spent,
        favor_spent=favor,
        despair_given=dominant(rolled, pain) == "pain",  # no Hope's raise yet
    )


def chosen_boons(sheet: HeroSheet, cmd: PainPoolRoll) -> dict[str, Boon]:
    chosen: dict[str, Boon] = {}
    for pool, name in cmd.boons:
        if not name:
            continue
        boon = sheet.boon(name)
        if boon is None:
            raise Rejected(f"The hero has no boon {name!r}")
        if pool in chosen:
            raise Rejected(f"{POOL_TITLES[pool]} can take only one boon per roll")
        if pool not in boon.pools:
            raise Rejected(f"{boon.name} does not feed {POOL_TITLES[pool]}")
        if not boon.usable:
            raise Rejected(f"{boon.name} is crossed off until it recovers")
        if any(b.name == boon.name for b in chosen.values()):
            raise Rejected(f"{boon.name} can feed only one pool per roll")
        chosen[pool] = boon
    return chosen


def chosen_bonus(who: PainPoolHero, cmd: PainPoolRoll) -> tuple[tuple[int, ...], int]:
    sheet: HeroSheet = who.sheet
    indices = tuple(i for i, _ in cmd.bonus)
    if len(set(indices)) != len(indices):
        raise Rejected("Each bonus die can be spent once per roll")
    if any(not 0 <= i < len(sheet.held) for i in indices):
        raise Rejected(f"{who.name} does not hold that bonus die")
    favor = sum(sheet.held[i].favor_cost for i in indices)
    if favor > sheet.favor:
        raise Rejected(
            f"Using sticky maneuvers again costs {favor} favor; {who.name} has {sheet.favor}"
        )
    return indices, favor


def pass_bonus(state: PainPoolEncounter, cmd: PassBonus) -> BonusPassed:
    holder = hero(state, cmd.hero_id)
    if not 0 <= cmd.index < len(holder.sheet.held):
        raise Rejected(f"{holder.name} does not hold that bonus die")
    if cmd.to_id:
        to = hero(state, cmd.to_id)
        if to.id == holder.id:
            raise Rejected(f"{holder.name} already holds it: give it to another hero")
    return BonusPassed(hero_id=holder.id, index=cmd.index, to_id=cmd.to_id)


def despair(state: PainPoolEncounter, dice: DiceSource) -> DespairSpent:
    roll = open_roll(state)
    if tokens(state).despair < 1:
        raise Rejected("The GM has no Despair token to spend")
    count = pain_count(roll.pain.parts)
    return DespairSpent(dice=roll_dice(dice, count, PAIN_DIE))


def hope(state: PainPoolEncounter, cmd: SpendHope, dice: DiceSource) -> HopeSpent:
    roll = open_roll(state)
    if tokens(state).hope < 1:
        raise Rejected("The players' pot has no Hope token")
    who = hero(state, roll.hero_id)
    if cmd.mode == "raise":
        if cmd.raise_by < 1:
            raise Rejected("Raise the roll by at least 1")
        if cmd.raise_by > who.sheet.favor:
            raise Rejected(
                f"Raising by {cmd.raise_by} costs {cmd.raise_by} favor; "
                f"{who.name} has {who.sheet.favor}"
            )
        return HopeSpent(hero_id=who.id, raised=cmd.raise_by)
    if not cmd.pools:
        raise Rejected("Choose at least one pool to re-roll")
    rerolls = tuple(
        PoolReroll(p.pool, roll_dice(dice, p.count, p.size))
        for p in roll.pools
        if p.pool in cmd.pools
    )
    return HopeSpent(hero_id=who.id, rerolls=rerolls)


def outcome(state: PainPoolEncounter) -> TokensLost | BonusGranted:
    roll = open_roll(state)
    who = state.name_of(roll.hero_id)
    if roll.outcome == "tie":
        raise Rejected("A tie (Good outcome): partial success, and no damage either way")
    if roll.kind == "maneuver" and roll.outcome == "success":
        hero(state, roll.beneficiary_id)
        return BonusGranted(
            hero_id=roll.beneficiary_id, name=roll.intent or "maneuver", sticky=roll.sticky
        )
    if roll.outcome == "failure":
        if not roll.hero_damage:
            raise Rejected(f"{who} lost, but the damage comes to 0: nothing to apply")
        kind = "damage" if roll.harm_taken == "damage" else "failure levels"
        raise Rejected(
            f"{who} takes {roll.hero_damage} {kind}: choose the boons with s → Take damage"
        )
    foe = challenge(state, roll.challenge_id)
    return TokensLost(challenge_id=foe.id, tokens=min(roll.tokens_lost, foe.sheet.remaining))


def damage(state: PainPoolEncounter, cmd: TakeDamage) -> BoonsDamaged:
    roll = open_roll(state)
    who = hero(state, roll.hero_id)
    sheet: HeroSheet = who.sheet
    if not roll.hero_damage:
        raise Rejected(f"{who.name} has no damage to take from the last roll")
    room = dict(damage_targets(sheet))
    due = min(roll.hero_damage, sum(room.values()))
    targets = [target for target, _ in cmd.hits]
    if len(set(targets)) != len(targets):
        raise Rejected("Name each boon or cascade once")
    hits: list[BoonHit] = []
    for target, points in cmd.hits:
        if points < 0:
            raise Rejected("Damage points cannot be negative")
        if target not in room:
            raise Rejected(f"{who.name} has no boon or cascade {target!r} with levels left")
        if points > room[target]:
            raise Rejected(f"{target} can take at most {room[target]} more")
        if target in {b.cascade for b in sheet.boons if b.cascade}:
            hits += cascade_hits(sheet, target, points)
        elif points:
            hits.append(BoonHit(target, points))
    assigned = sum(h.levels for h in hits)
    if assigned != due:
        raise Rejected(f"Assign exactly {due} point{'s' * (due != 1)} (now {assigned})")
    # "the next Boon he assigns damage to becomes Impacted": damage only (failure levels
    # all return at the end of the scene), the first hit boon in the sheet's order.
    order = [boon.name for boon in sheet.boons]
    hit = sorted((h.boon for h in hits if h.levels), key=order.index)
    impacted = hit[0] if hit and not sheet.impacted and roll.harm_taken == "damage" else ""
    return BoonsDamaged(hero_id=who.id, harm=roll.harm_taken, hits=tuple(hits), impacted=impacted)
