"""Generic d20's commands (never saved), events and per-encounter state (saved, tagged)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, TypeAlias

from msgspec import Meta, Struct

from rules.bounds import COMBATANTS
from rules.conditions import Condition
from rules.logline import Span

from .actions import MAX_ACTIONS, MAX_COST, MAX_COUNT, MAX_DAMAGE, MAX_DC, MAX_NAME
from .damage_parts import MAX_PARTS
from .sheet import D20Sheet, Stamp
from .traits import RELENTLESS
from .turn_edge_events import Edge, TurnStart

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

    from .turn_edge_events import D20EndOfTurnSaved

MAX_MADE = MAX_ACTIONS * MAX_COUNT  # the parts one Multiattack can make
ActionName = Annotated[str, Meta(max_length=MAX_NAME)]  # a stat block action's, as saved
ACTION, LEGENDARY, REACTION = "action", "legendary", "reaction"
# The action economy's other uses (economy.py): a bonus action, an action past the turn's one
# chosen on purpose (Action Surge, haste), and no action at all (a trap, regeneration).
BONUS, EXTRA, FREE = "bonus", "extra", "free"

# --- commands ----------------------------------------------------------------------------------


class D20Attack(Struct, frozen=True):
    """An attack roll with the attacker's attack; ``mode`` 1 advantage, -1 disadvantage (the
    conditions add theirs), ``usage`` an action, a legendary action or a reaction; ``apply``
    deals the damage at once (the tracker's own attacks)."""

    attacker_id: str
    target_id: str
    mode: int = 0
    usage: str = ACTION
    apply: bool = False
    cover: int = 0  # the target's cover: 2 half, 5 three-quarters (added to its AC)
    drain: bool = False  # the damage taken lowers the target's hit point maximum as much
    damage: str = ""  # "1d8+3 slashing + 2d6 fire" for this attack; "": the attacker's sheet's
    action: str = ""  # the stat block action it makes, by name (actions.py); "": its main attack
    of: str = ""  # what makes it: a Multiattack, a legendary action ("Tail Attack": its Tail)


class D20Apply(Struct, frozen=True):
    """The ``d`` key: deal the last roll's damage (and its conditions)."""


class D20SaveEffect(Struct, frozen=True):
    """An effect that asks for a saving throw: one damage roll for every target (an area)."""

    source_id: str
    target_ids: tuple[str, ...]
    effect: str
    ability: str
    dc: int
    damage: str = ""  # "8d6 fire", "" for none
    half: bool = True  # half damage on a success
    condition: str = ""  # on a failure
    rounds: int = 0  # the condition's rounds (0: until removed)
    concentration: bool = False  # the source concentrates on it
    cover: int = 0  # the targets' cover: 2 half, 5 three-quarters (Dex saves gain it)
    drain: bool = False  # the damage taken lowers each target's hit point maximum as much
    repeat: bool = False  # the condition's target saves again at the end of each of its turns
    usage: str = FREE  # what of the source's turn it spends (the dialog proposes its action)
    action: str = ""  # the source's stat block action it is, by name (actions.py); "": none
    of: str = ""  # what makes it: a Multiattack (its Frightful Presence), a legendary action
    magical: bool = False  # a spell or other magical effect: Magic Resistance saves better


class D20UseAction(Struct, frozen=True):
    """A stat block action with no roll (Detect): logged as used, and what it spends."""

    combatant_id: str
    action: str
    usage: str = ACTION


class D20DeathSave(Struct, frozen=True):
    combatant_id: str


class D20ConcentrationSave(Struct, frozen=True):
    combatant_id: str


class D20HitSave(Struct, frozen=True):
    """The save a hit asked of ``target_id`` (``HitSave``), rolled."""

    target_id: str


class D20Heal(Struct, frozen=True):
    """Healing (or temporary hit points, which do not add up: the higher stays)."""

    healer_id: str
    target_id: str
    amount: str  # a number or dice: "2d4+2"
    temporary: bool = False
    usage: str = FREE  # what of the healer's turn it spends (the dialog proposes its action)


class D20Reaction(Struct, frozen=True):
    """A reaction other than an attack (a shield, a parry): marked used for the round."""

    combatant_id: str
    what: str


class D20Stabilise(Struct, frozen=True):
    """An action to stabilise a dying creature: a Wisdom (Medicine) check with ``bonus``
    against DC 10, or the *spare the dying* cantrip (``spell``, no roll)."""

    medic_id: str
    target_id: str
    bonus: int = 0
    spell: bool = False
    usage: str = FREE  # what of the medic's turn it spends (the dialog proposes its action)


class D20SetExhaustion(Struct, frozen=True):
    """A combatant's exhaustion set to ``level`` (0 to 6)."""

    combatant_id: str
    level: int


class D20Rest(Struct, frozen=True):
    """A long rest for these combatants."""

    combatant_ids: tuple[str, ...]


class D20EndConcentration(Struct, frozen=True):
    combatant_id: str


class D20LegendaryAction(Struct, frozen=True):
    """A legendary action other than the attack (a move, a detect, a wing beat): spends
    ``cost`` of the creature's legendary actions at the end of another's turn."""

    combatant_id: str
    what: str
    cost: int = 1


# --- events ------------------------------------------------------------------------------------

# What the log and the Consequences pane look up by an event's value, bounded as a save is read:
# a crafted save holding another is refused in one line, never a traceback as it is drawn.
Faces = Annotated[tuple[int, ...], Meta(min_length=1, max_length=2)]  # one d20, or two
Mode = Annotated[int, Meta(ge=-1, le=1)]  # disadvantage, normal, advantage
Outcome = Annotated[str, Meta(pattern="^(miss|hit|critical)$")]
Cost = Annotated[int, Meta(ge=1, le=MAX_COST)]  # a legendary action's
DeathResult = Annotated[str, Meta(pattern="^(revived|success|failure|two failures)$")]


class RolledPart(Struct, frozen=True):
    """One type's part of a damage of several types, as rolled (``parts``)."""

    damage_type: str
    total: int


class DealtPart(Struct, frozen=True):
    """One type's part of a damage of several types, as dealt: ``rolled`` before and
    ``amount`` after the target's ``modifier`` for that type (and a save's half)."""

    damage_type: str
    rolled: int
    amount: int
    modifier: str


# A damage of several types keeps each part (none: one type, as every save before them).
RolledParts = Annotated[tuple[RolledPart, ...], Meta(max_length=MAX_PARTS)]
DealtParts = Annotated[tuple[DealtPart, ...], Meta(max_length=MAX_PARTS)]


def damage_words(total: int, damage_type: str, parts: tuple[RolledPart, ...]) -> str:
    """A damage rolled in words: ``13 slashing``, or each type's ``8 slashing + 5 fire``."""
    if parts:
        return " + ".join(f"{p.total} {p.damage_type}".rstrip() for p in parts)
    return f"{total} {damage_type}".rstrip()


class D20Attacked(Struct, frozen=True, tag="d20.attacked"):
    attacker_id: str
    target_id: str
    attack: str
    bonus: int
    ac: int
    faces: Faces  # one d20, or two with advantage or disadvantage
    mode: Mode
    natural: int
    total: int
    outcome: Outcome  # "miss", "hit", "critical"
    crit_range: int
    auto_crit: bool
    damage: str  # the notation rolled (doubled on a critical); "" on a miss
    damage_type: str
    damage_shown: tuple[Span, ...]
    damage_total: int
    usage: str
    reasons: tuple[str, ...]  # why advantage or disadvantage
    stamp: Stamp
    base_damage: str = ""  # the sheet's notation, for the odds
    # The target's hit points (temporary ones counted) as it was attacked, for the odds after
    # its damage is dealt: 0 when it was already at 0, -1 in saves made before it was kept.
    target_hp: int = -1
    cover: int = 0  # the target's cover, already in ``ac``
    drain: bool = False
    damage_parts: RolledParts = ()  # several types: each one's total (``damage_type`` "")
    action: str = ""  # the stat block action it was, by name (actions.py); "": none named
    of: ActionName = ""  # what made it: a Multiattack, a legendary action (stat_actions.py)
    cost: Cost = 1  # the legendary actions it spent (``usage`` legendary)
    magical: bool = False  # a magic weapon's: resistance "from nonmagical weapons" ignores it


class SaveRoll(Struct, frozen=True):
    target_id: str
    faces: Faces
    mode: Mode
    bonus: int
    total: int
    success: bool
    auto_fail: bool


class D20Saved(Struct, frozen=True, tag="d20.saved"):
    source_id: str
    effect: str
    ability: str
    dc: int
    rolls: Annotated[tuple[SaveRoll, ...], Meta(min_length=1)]
    damage: str
    damage_type: str
    damage_shown: tuple[Span, ...]
    damage_total: int
    half: bool
    condition: str
    rounds: int
    concentration: bool
    stamp: Stamp
    cover: int = 0  # the targets' cover, already in a Dexterity save's ``bonus``
    drain: bool = False
    repeat: bool = False  # save ends: again at the end of each of a failed target's turns
    damage_parts: RolledParts = ()  # several types: each one's total (``damage_type`` "")
    usage: str = FREE  # what of the source's turn it spent (saves from before: nothing)
    action: str = ""  # the source's stat block action it was, by name (actions.py); "": none
    of: ActionName = ""  # what made it: a Multiattack, a legendary action (stat_actions.py)
    cost: Cost = 1  # the legendary actions it spent (``usage`` legendary)
    hit: bool = False  # the save a hit asked for (``HitSave``), met by this roll
    magical: bool = False  # a spell or other magical effect (``D20SaveEffect.magical``)


class D20DeathSaved(Struct, frozen=True, tag="d20.death-saved"):
    combatant_id: str
    face: int
    successes: int  # after the roll
    failures: int
    result: DeathResult  # "revived", "success", "failure", "two failures"
    stamp: Stamp


class D20ConcentrationSaved(Struct, frozen=True, tag="d20.concentration-saved"):
    combatant_id: str
    effect: str
    dc: int
    faces: Faces
    bonus: int
    total: int
    success: bool
    stamp: Stamp


class AtZero(Struct, frozen=True):
    """What a trait did as a damage dropped its target to 0: Undead Fortitude's save (made:
    1 hit point; its DC), or Relentless spent (1 hit point)."""

    trait: Annotated[str, Meta(max_length=MAX_NAME)]
    save: SaveRoll | None = None
    dc: int = 0  # 5 + the damage taken


class D20Damaged(Struct, frozen=True, tag="d20.damaged"):
    """Damage dealt: ``rolled`` before and ``amount`` after the target's modifier (and a
    save's half); the fold spends temporary hit points first."""

    target_id: str
    dealer_id: str | None
    rolled: int
    amount: int
    damage_type: str
    modifier: str
    critical: bool = False
    half: bool = False
    drain: bool = False  # it lowers the hit point maximum as much (drain.py)
    parts: DealtParts = ()  # several types: each one's (``damage_type`` and ``modifier`` "")
    # A trait that acted as it dropped the target to 0: one short field, as most damage has
    # none (each field's name is in every record of a save)
    at_zero: AtZero | None = None

    @property
    def fortitude(self) -> SaveRoll | None:
        """Undead Fortitude's save, rolled as the damage dropped it to 0 (fortitude.py)."""
        return self.at_zero.save if self.at_zero is not None else None

    @property
    def fortitude_dc(self) -> int:
        return self.at_zero.dc if self.at_zero is not None else 0

    @property
    def relentless(self) -> bool:
        """Relentless spent: 1 hit point instead of 0 (relentless.py)."""
        return self.at_zero is not None and self.at_zero.trait == RELENTLESS


class D20Healed(Struct, frozen=True, tag="d20.healed"):
    healer_id: str
    target_id: str
    amount: int
    temporary: bool
    shown: tuple[Span, ...] = ()
    usage: str = FREE  # what of the healer's turn it spent (saves from before: nothing)


class D20Stabilised(Struct, frozen=True, tag="d20.stabilised"):
    """A stabilising check made (or the spell cast): on a success the target is stable."""

    medic_id: str
    target_id: str
    spell: bool
    faces: tuple[int, ...]  # none for the spell
    mode: int
    bonus: int
    total: int
    success: bool
    stamp: Stamp
    usage: str = FREE  # what of the medic's turn it spent (saves from before: nothing)


class D20Exhausted(Struct, frozen=True, tag="d20.exhausted"):
    combatant_id: str
    before: int
    level: int


class D20Rested(Struct, frozen=True, tag="d20.rested"):
    """A long rest finished by these combatants (``exhaustion.rested`` says what it gives)."""

    combatant_ids: tuple[str, ...]


class D20ReactionUsed(Struct, frozen=True, tag="d20.reaction-used"):
    combatant_id: str
    what: str


class D20ActionUsed(Struct, frozen=True, tag="d20.action-used"):
    """A stat block action with no roll used (Detect), and what of the turn it spent."""

    combatant_id: str
    action: ActionName
    usage: str
    stamp: Stamp


class D20LegendaryUsed(Struct, frozen=True, tag="d20.legendary-used"):
    combatant_id: str
    what: str
    cost: int
    stamp: Stamp


class D20ConcentrationStarted(Struct, frozen=True, tag="d20.concentration-started"):
    combatant_id: str
    effect: str


TARGETS_DEAD = "targets dead"  # why a concentration ended: every target it held is dead


class D20ConcentrationEnded(Struct, frozen=True, tag="d20.concentration-ended"):
    combatant_id: str
    effect: str
    # "failed", "replaced", "down", "ended"; of itself (lapse.py): TARGETS_DEAD, or what
    # stops the caster ("stunned", "incapacitated"..., "dying", "dead")
    why: str


class D20Settled(Struct, frozen=True, tag="d20.settled"):
    """The last roll's damage and conditions are dealt."""


class D20Immune(Struct, frozen=True, tag="d20.immune"):
    """A condition a failed save or a hit would lay, not laid: its target is immune to it."""

    target_id: str
    condition: ActionName


class HitSave(Struct, frozen=True):
    """The save a hit asks of its target once its damage is dealt (an attack with a save:
    a ghoul's claws), owed to ``source_id``'s ``action``: what a failure brings, as a save
    effect says it."""

    target_id: str
    source_id: str
    action: ActionName
    ability: Annotated[str, Meta(pattern="^(str|dex|con|int|wis|cha)$")]
    dc: Annotated[int, Meta(ge=1, le=MAX_DC)]
    damage: Annotated[str, Meta(max_length=MAX_DAMAGE)] = ""
    half: bool = True
    condition: ActionName = ""
    repeat: bool = False
    magical: bool = False  # the action is magical (a spell's attack): Magic Resistance


class D20HitSaveOwed(Struct, frozen=True, tag="d20.hit-save-owed"):
    owed: HitSave


# --- the per-encounter state -------------------------------------------------------------------


class Held(Struct, frozen=True):
    """A condition an effect put on a target while its source concentrates."""

    source_id: str
    target_id: str
    condition: str


class Dropped(Struct, frozen=True):
    """A condition a failed concentration save lifted, kept for Legendary Resistance to lay
    again as it turns that failure into a success (uses.py)."""

    held: Held
    condition: Condition


class Waiting(Struct, frozen=True):
    """A concentration save owed after damage."""

    combatant_id: str
    dc: int


class Turn(Struct, frozen=True):
    """What the combatant whose turn it is has spent of it (economy.py): its action, its
    bonus action. A turn later, ``stamp`` is no longer now and nothing is spent."""

    combatant_id: str
    stamp: Stamp
    spent: Annotated[tuple[str, ...], Meta(max_length=2)] = ()
    # The parts of its Multiattack made so far, by name (stat_actions.py): the action is
    # spent with the last of them.
    made: Annotated[tuple[ActionName, ...], Meta(max_length=MAX_MADE)] = ()


class D20State(Struct, frozen=True, tag="d20.state"):
    concentration_saves: tuple[Waiting, ...] = ()
    death_saved: tuple[tuple[str, int], ...] = ()  # (combatant, round) it rolled in
    held: tuple[Held, ...] = ()
    # What a turn's start or end brings (turn_edges.py): conditions that end with a turn or
    # by a save, what each combatant's turn starts with, whose start waits to be dealt and
    # whether its regeneration works then (fire or acid stops it for a turn).
    edges: tuple[Edge, ...] = ()
    starts: tuple[TurnStart, ...] = ()
    starting_id: str = ""
    regenerating: bool = True
    regeneration_off_ids: tuple[str, ...] = ()
    turn: Turn | None = None  # the turn under way's action economy (saves from before: none)
    # What the last failed concentration save lifted (uses.py: Legendary Resistance lays it
    # again).
    dropped: Annotated[tuple[Dropped, ...], Meta(max_length=COMBATANTS)] = ()
    # The saves hits asked for, owed in turn (hit_saves.py).
    hit_saves: Annotated[tuple[HitSave, ...], Meta(max_length=COMBATANTS)] = ()


def sheet_of(combatant: D20Combatant) -> D20Sheet:
    sheet: D20Sheet = combatant.sheet
    return sheet


def system_state(state: D20Encounter) -> D20State:
    found = state.system_state
    return found if isinstance(found, D20State) else D20State()


def stamp_of(state: D20Encounter) -> Stamp:
    """When now is: the round and the place of whoever acts."""
    return (state.round, state.index_of(state.current_id))


ROLLS = (D20Attacked, D20Saved, D20DeathSaved, D20ConcentrationSaved)

# The system's encounter and combatant, typed: every module of the system annotates with
# these (never a bare Encounter), so its sheets, last roll and state are read as what they are.
if TYPE_CHECKING:
    D20LastRoll: TypeAlias = (
        D20Attacked | D20Saved | D20DeathSaved | D20ConcentrationSaved | D20EndOfTurnSaved
    )
    D20Encounter: TypeAlias = Encounter[D20Sheet, D20LastRoll, D20State]
    D20Combatant: TypeAlias = Combatant[D20Sheet]
