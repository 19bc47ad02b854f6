"""Pain Pool commands, events and per-encounter state (tokens), and how events change sheets.

Pure helpers for ``rules.systems.painpool.system``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar, cast

from msgspec import Struct, structs

from rules.errors import Rejected

from .roll import Harm, Initiator, Kind, PainPoolRolled, PoolRoll
from .sheet import Boon, ChallengeSheet, HeldBonus, HeroSheet, PoolName

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

K = TypeVar("K", HeroSheet, ChallengeSheet)  # a kind of sheet

# --- state -----------------------------------------------------------------------------------


class PainPoolState(Struct, frozen=True, kw_only=True, tag="painpool.state"):
    """The GM's Despair tokens and the players' communal pot of Hope."""

    despair: int = 0
    hope: int = 0


# --- commands -----------------------------------------------------------------------------------


class PainPoolRoll(Struct, frozen=True, kw_only=True):
    hero_id: str
    challenge_id: str
    intent: str = ""
    best: str = ""
    good: str = ""
    worst: str = ""
    kind: Kind = "attack"
    initiator: Initiator = "hero"
    harm: Harm = "damage"
    boons: tuple[tuple[PoolName, str], ...] = ()  # (pool, boon name): one boon per pool
    bonus: tuple[tuple[int, PoolName], ...] = ()  # (index of a held bonus die, pool)
    pain_extra: int = 0
    beneficiary_id: str = ""
    sticky: bool = False


class SpendDespair(Struct, frozen=True):
    """The GM re-rolls the last roll's Pain Pool and keeps the higher total."""


HopeMode = Literal["reroll", "raise"]


class SpendHope(Struct, frozen=True, kw_only=True):
    """Re-roll some of the last roll's hero pools (each keeps the higher), or raise it."""

    mode: HopeMode = "reroll"
    pools: tuple[PoolName, ...] = ()
    raise_by: int = 0


class ApplyOutcome(Struct, frozen=True):
    """The ``d`` key: tokens off the Pain Pool, or a maneuver's bonus die."""


class TakeDamage(Struct, frozen=True, kw_only=True):
    """The player's choice of where the last roll's damage goes: (boon or cascade, points)."""

    hits: tuple[tuple[str, int], ...]


class EndScene(Struct, frozen=True, kw_only=True):
    """Failure levels return; with ``heal`` the lingering damage goes too. The situations the
    maneuvers made end with the scene, and with them the bonus dice held."""

    heal: bool = False
    bonus_ends: bool = True


class PassBonus(Struct, frozen=True, kw_only=True):
    """A held bonus die given to another hero, or dropped (``to_id`` "") when the situation
    that made it has changed."""

    hero_id: str
    index: int
    to_id: str = ""


# --- events ------------------------------------------------------------------------------------


class PoolReroll(Struct, frozen=True):
    pool: PoolName
    dice: tuple[int, ...]


class DespairSpent(Struct, frozen=True, kw_only=True, tag="painpool.despair-spent"):
    dice: tuple[int, ...]


class HopeSpent(Struct, frozen=True, kw_only=True, tag="painpool.hope-spent"):
    hero_id: str
    rerolls: tuple[PoolReroll, ...] = ()
    raised: int = 0  # paid with as much favor


class TokensLost(Struct, frozen=True, kw_only=True, tag="painpool.tokens-lost"):
    challenge_id: str
    tokens: int


class BonusGranted(Struct, frozen=True, kw_only=True, tag="painpool.bonus-granted"):
    hero_id: str
    name: str
    sticky: bool = False


class BoonHit(Struct, frozen=True):
    boon: str
    levels: int


class BoonsDamaged(Struct, frozen=True, kw_only=True, tag="painpool.boons-damaged"):
    hero_id: str
    harm: Harm
    hits: tuple[BoonHit, ...]
    impacted: str = ""  # the boon that became Impacted with this damage, if one did


class SceneEnded(Struct, frozen=True, kw_only=True, tag="painpool.scene-ended"):
    heal: bool = False
    bonus_ends: bool = False  # older saves' scenes left the bonus dice held


class BonusPassed(Struct, frozen=True, kw_only=True, tag="painpool.bonus-passed"):
    hero_id: str
    index: int
    to_id: str = ""  # "": dropped


# --- how events change sheets and rolls ---------------------------------------------------------


def hit_boons(sheet: HeroSheet, hits: tuple[BoonHit, ...], harm: Harm) -> tuple[Boon, ...]:
    levels = {hit.boon: hit.levels for hit in hits}
    out = []
    for boon in sheet.boons:
        taken = levels.get(boon.name, 0)
        if taken:
            field = "damage" if harm == "damage" else "failure"
            boon = structs.replace(boon, **{field: getattr(boon, field) + taken})
        out.append(boon)
    return tuple(out)


def end_scene(sheet: HeroSheet, heal: bool, bonus_ends: bool = False) -> HeroSheet:
    boons = tuple(
        structs.replace(b, failure=0, damage=0 if heal else b.damage) for b in sheet.boons
    )
    return structs.replace(sheet, boons=boons, held=() if bonus_ends else sheet.held)


def spend_held(sheet: HeroSheet, indices: tuple[int, ...], favor: int) -> HeroSheet:
    """Spent bonus dice: a free one is gone, a sticky one stays for favor next time."""
    held: list[HeldBonus] = []
    for index, bonus in enumerate(sheet.held):
        if index not in indices:
            held.append(bonus)
        elif bonus.sticky:
            held.append(structs.replace(bonus, used=True))
    return structs.replace(sheet, held=tuple(held), favor=sheet.favor - favor)


def reroll_pools(roll: PainPoolRolled, rerolls: tuple[PoolReroll, ...]) -> tuple[PoolRoll, ...]:
    again = {r.pool: r.dice for r in rerolls}
    return tuple(
        structs.replace(p, rerolls=(*p.rerolls, again[p.pool])) if p.pool in again else p
        for p in roll.pools
    )


# --- lookups --------------------------------------------------------------------------------


def combatants_with(state: PainPoolEncounter, sheet_type: type[K]) -> list[Combatant[K]]:
    """The combatants whose sheet is a ``sheet_type``: the heroes, or the challenges."""
    found = [c for c in state.combatants if isinstance(c.sheet, sheet_type)]
    return cast("list[Combatant[K]]", found)  # each sheet is a K, as just checked


def hero(state: PainPoolEncounter, combatant_id: str) -> PainPoolHero:
    found = state.combatant(combatant_id)
    if not isinstance(found.sheet, HeroSheet):
        raise Rejected(f"{found.name} is a challenge, not a hero")
    return cast("PainPoolHero", found)


def challenge(state: PainPoolEncounter, combatant_id: str) -> PainPoolChallenge:
    found = state.combatant(combatant_id)
    if not isinstance(found.sheet, ChallengeSheet):
        raise Rejected(f"{found.name} is a hero, not a challenge")
    return cast("PainPoolChallenge", found)


def named_hero(state: PainPoolEncounter, combatant_id: str) -> PainPoolHero:
    """The hero an event or the open roll names (``hero`` checked it when it was decided)."""
    return cast("PainPoolHero", state.combatant(combatant_id))


def named_challenge(state: PainPoolEncounter, combatant_id: str) -> PainPoolChallenge:
    """The challenge an event or the open roll names (as ``named_hero``)."""
    return cast("PainPoolChallenge", state.combatant(combatant_id))


def open_roll(state: PainPoolEncounter) -> PainPoolRolled:
    """The last roll, while Despair, Hope and its damage can still change or apply."""
    roll = state.last_roll
    if not isinstance(roll, PainPoolRolled):
        raise Rejected("Nothing to apply: roll first")
    if state.last_roll_applied:
        raise Rejected("The last roll's outcome has already been applied")
    return roll


def tokens(state: PainPoolEncounter) -> PainPoolState:
    found = state.system_state
    return found if isinstance(found, PainPoolState) else PainPoolState()


def with_sheet(state: PainPoolEncounter, who: PainPoolCombatant, sheet: Any) -> PainPoolEncounter:
    return state.replace_combatant(structs.replace(who, sheet=sheet))


def damage_targets(sheet: HeroSheet) -> list[tuple[str, int]]:
    """Where damage can go: each boon still standing, and each cascade as one target."""
    out: list[tuple[str, int]] = []
    cascades: dict[str, int] = {}
    for boon in sheet.boons:
        if boon.cascade:
            cascades[boon.cascade] = cascades.get(boon.cascade, 0) + boon.capacity
        elif boon.capacity:
            out.append((boon.name, boon.capacity))
    out += [(name, room) for name, room in cascades.items() if room]
    return out


def cascade_hits(sheet: HeroSheet, cascade: str, points: int) -> list[BoonHit]:
    """Each point takes out the highest-level boon still standing in the cascade."""
    standing = [b for b in sheet.boons if b.cascade == cascade and b.capacity]
    standing.sort(key=lambda b: -b.level)  # stable: the sheet's order breaks ties
    return [BoonHit(b.name, 1) for b in standing[:points]]


def changed_roll(roll: PainPoolRolled, event: DespairSpent | HopeSpent) -> PainPoolRolled:
    """The last roll after a Despair or Hope re-roll (or a Hope raise)."""
    if isinstance(event, DespairSpent):
        pain = structs.replace(roll.pain, rerolls=(*roll.pain.rerolls, event.dice))
        return structs.replace(roll, pain=pain)
    return structs.replace(
        roll, pools=reroll_pools(roll, event.rerolls), raised=roll.raised + event.raised
    )


# The system's encounter and combatant, typed: every module of the system annotates with
# these (never a bare Encounter), so its sheets, last roll and state are read as what they are.
if TYPE_CHECKING:
    PainPoolSheet: TypeAlias = HeroSheet | ChallengeSheet
    PainPoolEncounter: TypeAlias = Encounter[PainPoolSheet, PainPoolRolled, PainPoolState]
    PainPoolCombatant: TypeAlias = Combatant[PainPoolSheet]
    PainPoolHero: TypeAlias = Combatant[HeroSheet]  # as ``hero`` finds one
    PainPoolChallenge: TypeAlias = Combatant[ChallengeSheet]  # as ``challenge`` finds one
