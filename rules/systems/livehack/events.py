"""LiveHack's pure values: Boon/Bane rolls, sides and parts, commands, events, state and tables.

Source: ``shared/rules-texts/001``. Dice order in a roll: each rolling side in turn, its boon
chain then its bane chain (the actor or actors first, then the defender).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

from msgspec import Struct

from rules.conditions import Duration
from rules.dice import DiceSource, roll_exploding

from .sheet import LiveHackSheet, Trait, offset_effects
from .table import DAMAGE_TABLE as DAMAGE_TABLE
from .table import DIE as DIE
from .table import TAKE_TEN as TAKE_TEN
from .table import Consequence as Consequence
from .table import Take as Take

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

Defense = Literal["reflex", "fortitude", "will", "skill"]
RollKind = Literal["roll", "grim"]
JointKind = Literal["cooperation", "chaos"]
SaveKind = Literal["dying", "transforming", "check"]
SaveDefense = Literal["fortitude", "will"]

MOS_STEP = 5  # "For every full 5 points over the target"
# The rolls the damage table answers (*Damage*: the roll "to apply a negative trait"): the
# damage roll against Fortitude, a roll against Will (magic, a grim test). A roll to hit
# (Reflex) leads on to the damage roll instead, and a skill roll (Spot vs Hide) only succeeds.
TABLED: tuple[Defense, ...] = ("fortitude", "will")
STABILIZE_MOS = 10  # "a positive MOS of 10 or more, the character stabilizes"
POSITION_LENGTH = 40  # the most characters a position's description may have

# Conditions with the effects of Discombobulation ("Incapacitation ... has the same effect";
# Dying is "effectively the same as Incapacitation").
DAZED = ("Discombobulated", "Incapacitated", "Dying", "Comatose")
CANNOT_ACT = (*DAZED, "Dead", "Transforming")
# Every condition the rules lay or read by name, and the text's "Helpless" (a defender who
# cannot defend): a name typed close to one of these is a slip ("Prne"), asked "did you mean".
KNOWN_CONDITIONS = (
    *CANNOT_ACT,
    "Prone",
    "Stabilized",
    "Transformed",
    "Grimlock",
    "Helpless",
)


def is_dying(combatant: LiveHackCombatant) -> bool:
    """Dying or in a coma: a dying save is due each round."""
    return bool(combatant.condition("Dying") or combatant.condition("Comatose"))


def cannot_act(combatant: Combatant[LiveHackSheet]) -> str:
    """Why the combatant cannot act ("" if it can): a condition, or a -10 offset."""
    found = next((name for name in CANNOT_ACT if combatant.condition(name)), None)
    if found:
        return found
    stops = [e for e in offset_effects(combatant.sheet) if e.stops_acting]
    return f"{stops[0].attribute.capitalize()} -10" if stops else ""


# Out of the fight (rulings.md): the conditions that end a combatant's part in it, with the
# word shown, and the -10 offsets the text calls "complete incapacitation", in the text's words
# (not Wisdom's: one who "will do whatever anyone tells them" still acts when told).
OUT_OF_THE_FIGHT: tuple[tuple[str, str], ...] = (
    ("Dead", "dead"),
    ("Comatose", "comatose"),
    ("Dying", "dying"),
    ("Transformed", "transformed"),
    ("Transforming", "transforming"),
    ("Incapacitated", "incapacitated"),
)
OUT_AT_MINUS_TEN: dict[str, str] = {
    "str": "helpless",
    "int": "catatonic",
    "dex": "paralyzed",
}


def out_of_fight(combatant: Combatant[LiveHackSheet]) -> str:
    """Why the combatant is out of the fight, in a word ("" while it is in it)."""
    if combatant.conditions:  # most have none: asked of every foe at each attack
        found = next((word for name, word in OUT_OF_THE_FIGHT if combatant.condition(name)), "")
        if found:
            return found
    for effect in offset_effects(combatant.sheet):
        if effect.level == -10 and effect.attribute in OUT_AT_MINUS_TEN:
            return OUT_AT_MINUS_TEN[effect.attribute]
    return ""


# Skill pairs of *Defenses*: the skill on the left is defended by the one on the right.
SKILL_PAIRS: dict[str, str] = {"hide": "Spot", "move silently": "Listen"}


class BoonBane(Struct, frozen=True):
    """One Boon/Bane roll: each chain holds the first die and every exploded die after it."""

    boon: tuple[int, ...]
    bane: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.boon) - sum(self.bane)

    @property
    def noon(self) -> bool:
        return self.boon[0] == DIE

    @property
    def midnight(self) -> bool:
        return self.bane[0] == DIE

    @property
    def eclipse(self) -> bool:
        return self.noon and self.midnight


def roll_boon_bane(dice: DiceSource) -> BoonBane:
    return BoonBane(boon=roll_exploding(dice, DIE), bane=roll_exploding(dice, DIE))


class Part(Struct, frozen=True):
    """One named modifier of a roll (skill, defense, armour, bond, effort...)."""

    label: str
    value: int


class SideRoll(Struct, frozen=True, kw_only=True):
    """One side of an opposed roll: its modifiers and how it rolled (or took zero or ten).

    ``who`` names a side that is not a combatant (a grim experience, a DR).
    """

    combatant_id: str | None = None
    parts: tuple[Part, ...] = ()
    take: Take = "roll"
    dice: BoonBane | None = None
    who: str = ""

    @property
    def modifier(self) -> int:
        return sum(part.value for part in self.parts)

    @property
    def dice_total(self) -> int:
        if self.take == "ten":
            return TAKE_TEN
        return self.dice.total if self.dice is not None else 0

    @property
    def total(self) -> int:
        return self.modifier + self.dice_total


def roll_side(
    parts: tuple[Part, ...], take: Take, dice: DiceSource, combatant_id: str | None = None
) -> SideRoll:
    rolled = roll_boon_bane(dice) if take == "roll" else None
    return SideRoll(combatant_id=combatant_id, parts=parts, take=take, dice=rolled)


def static_side(who: str, parts: tuple[Part, ...]) -> SideRoll:
    """A difficulty: no dice, modifiers only (as when taking zero)."""
    return SideRoll(parts=parts, take="zero", who=who)


def margin_bonus(margin: int) -> int:
    """+1 per full 5 over the target, for a success; nothing for a failure."""
    return margin // MOS_STEP if margin >= 0 else 0


def aid_bonus(margin: int) -> int:
    """*Aiding*: +1 per 5 MOS or part thereof; -1 per full 5 of a negative MOS; 0 to -4 none."""
    if margin > 0:
        return -(-margin // MOS_STEP)
    if margin <= -MOS_STEP:
        return -(-margin // MOS_STEP)
    return 0


# --- events --------------------------------------------------------------------------------


class LiveHackRolled(Struct, frozen=True, kw_only=True, tag="livehack.rolled"):
    """An opposed roll: the attacker succeeds when it meets or beats the defender's total.

    ``effort`` and ``defender_effort`` are the sides' declared effort (one Fatigue per point
    each, paid by that side); ``cashed`` says the
    attacker spent its positional bonus over the defender; ``grim_advantage`` that a success
    calls for a grim test, ``grim_goal`` the grim experience it was for (a key of
    ``GRIM_EXPERIENCES``; "" in saves from before it was asked).
    """

    attacker: SideRoll
    defender: SideRoll
    defense: Defense = "reflex"
    trait: Trait = "wounds"
    kind: RollKind = "roll"
    note: str = ""
    effort: int = 0
    cashed: bool = False
    keeps: bool = False  # a skill success's bonus waits on through this roll (R3-05)
    defender_effort: int = 0
    grim_advantage: bool = False
    grim_goal: str = ""
    # F4-13: why the attacker could not act ("Dying") when the GM let it act anyway; "" for
    # one who could (and in older saves).
    acts_though: str = ""
    # The ratings the roller named (*Roll Components*), so a hit's damage roll carries them
    # ("all item ratings that pertain"); "" in saves from before they were kept.
    skill: str = ""
    attribute: str = ""
    specialty: str = ""
    bond: str = ""
    items: str = ""

    @property
    def margin(self) -> int:
        return self.attacker.total - self.defender.total

    @property
    def success(self) -> bool:
        """The actor meets or exceeds the defender's total. A grim test's actor is the
        experience, but the one who rolls is the character, and the text's "meet or exceed"
        is theirs (*Grimness*: "roll their will plus any current grimness to avoid
        accumulating Grimness"): a tie resists, as a tied dying save holds."""
        if self.kind == "grim":
            return self.margin > 0
        return self.margin >= 0

    @property
    def row(self) -> Consequence | None:
        """The damage-table row of a success's margin; None for a miss (or a resisted grim
        test)."""
        return consequence_for(self.margin) if self.success else None

    @property
    def margin_bonus(self) -> int:
        """+1 per full 5 over the target, carried to a related roll ("Rolling over")."""
        return margin_bonus(self.margin)

    @property
    def answers_table(self) -> bool:
        """Whether the damage table answers this roll (a damage roll, Will, a grim test)."""
        return self.kind == "grim" or self.defense in TABLED

    @property
    def hit(self) -> bool:
        """A successful roll to hit: its damage roll comes next (its margin bonus rolls over
        into it), unless the bonus is held or spent on a cancel instead."""
        return self.kind == "roll" and self.defense == "reflex" and self.success


def opposed_roll(
    attacker: SideRoll, defender: SideRoll, defense: Defense, trait: Trait
) -> LiveHackRolled:
    return LiveHackRolled(attacker=attacker, defender=defender, defense=defense, trait=trait)


class LiveHackJointRolled(Struct, frozen=True, kw_only=True, tag="livehack.joint-rolled"):
    """Cooperation or Chaos: every participant's roll against one defender roll, and the one
    used (the best margin, or for Chaos the lowest)."""

    kind: JointKind
    rolls: tuple[LiveHackRolled, ...]
    chosen: int


class LiveHackAidRolled(Struct, frozen=True, kw_only=True, tag="livehack.aid-rolled"):
    """*Aiding*: a helper's roll against a DR; the bonus waits for the aided one's next roll."""

    helper: SideRoll
    target: SideRoll
    aided_id: str
    bonus: int
    effort: int = 0  # the helper's (*Effort*), one Fatigue a point
    acts_though: str = ""  # F4-13: the helper could not act; the GM let it help anyway


class LiveHackSaveRolled(Struct, frozen=True, kw_only=True, tag="livehack.save-rolled"):
    """A roll against a fixed DR: a dying save, a transformation save or an attribute check
    (``note``: what a check was for, e.g. the Con roll that effort at Con -5 needs)."""

    kind: SaveKind
    roller: SideRoll
    target: SideRoll
    outcome: str
    note: str = ""
    effort: int = 0  # the roller's (*Effort*), one Fatigue a point

    @property
    def margin(self) -> int:
        return self.roller.total - self.target.total


class LiveHackTraitInflicted(Struct, frozen=True, kw_only=True, tag="livehack.trait-inflicted"):
    combatant_id: str
    trait: Trait
    levels: int
    margin: int | None  # None in a player's view of a hidden attacker's roll
    grimlock: bool = False  # a grim test's Transformation turns into a Grimlock
    # It makes its target Dying: its first dying save is at the end of this round, not now
    # (R3-09; False in older saves, whose solo foes saved at their turn).
    falls_dying: bool = False


class LiveHackPositionHeld(Struct, frozen=True, kw_only=True, tag="livehack.position-held"):
    holder_id: str
    target_id: str
    bonus: int
    description: str = ""  # what the position is ("" in saves from before it was asked)


class LiveHackPositionLost(Struct, frozen=True, kw_only=True, tag="livehack.position-lost"):
    """A held positional bonus ends: cancelled by the opponent, or dropped."""

    holder_id: str
    target_id: str
    bonus: int
    reason: str
    by_id: str | None = None  # the opponent who cancelled it


class LiveHackHealed(Struct, frozen=True, kw_only=True, tag="livehack.healed"):
    combatant_id: str
    levels: int


class LiveHackBecameGrimlock(Struct, frozen=True, kw_only=True, tag="livehack.became-grimlock"):
    """*Going Grimlock*: Str + Grim, Wis - Grim, blind sight; lost to the player."""

    combatant_id: str
    grim: int


# --- commands ------------------------------------------------------------------------------


class LiveHackRoll(Struct, frozen=True, kw_only=True):
    attacker_id: str
    defender_id: str
    defense: Defense = "reflex"
    attacker_extra: int = 0
    defender_extra: int = 0
    attacker_take: Take = "roll"
    defender_take: Take = "roll"
    trait: Trait = "wounds"
    skill: str = ""
    attribute: str = ""
    specialty: str = ""
    bond: str = ""
    items: str = ""
    effort: int = 0
    defender_effort: int = 0
    grim_goal: str = ""  # Grim Advantage, GM-approved, for this grim experience (a key)
    defender_skill: str = ""
    # The defending skill's attribute: "related" (the skill's own, F4-03), "" or one named.
    defender_attribute: str = "related"
    # The defender's roll components (*Defenses*: the defense is its "appropriate skill"; the
    # rest of *Roll Components* stands, F4-04): names on its sheet, items comma separated.
    defender_specialty: str = ""
    defender_bond: str = ""
    defender_items: str = ""
    gm_allows_ten: bool = False  # the defender may take ten (*Taking Ten*: the GM's leave)
    attacker_gm_allows_ten: bool = False  # and the attacker
    gm_overrides: bool = False  # F4-13: the attacker acts though it cannot (the GM's word)


class LiveHackJointRoll(Struct, frozen=True, kw_only=True):
    """Everyone rolls the same skill (blank: their attack bonus) and attribute, plus bonds."""

    kind: JointKind
    participant_ids: tuple[str, ...]
    defender_id: str
    defense: Defense = "reflex"
    defender_take: Take = "roll"
    trait: Trait = "wounds"
    skill: str = ""
    attribute: str = ""
    gm_allows_ten: bool = False  # a monster's defense may take ten (*Taking Ten*)
    # Each participant's dice, in order (*Taking Zero*: "Either side may choose ... on any
    # roll"); empty: all roll. One value: everyone's.
    takes: tuple[Take, ...] = ()
    participants_gm_allow_ten: bool = False  # the participants may take ten
    efforts: tuple[int, ...] = ()  # each participant's effort, or one for all (as ``takes``)
    # The defender's side, as in an opposed roll: its extra, effort (F4-08), specialty, bond
    # and items (F4-04).
    defender_extra: int = 0
    defender_effort: int = 0
    defender_specialty: str = ""
    defender_bond: str = ""
    defender_items: str = ""
    gm_overrides: bool = False  # F4-13: participants act though they cannot (the GM's word)


class LiveHackAid(Struct, frozen=True, kw_only=True):
    """*Aiding*: the helper makes "an appropriate resolution roll" with the skill (blank: its
    attack bonus) and attribute it chooses; the bonus goes to the aided one's next roll."""

    helper_id: str
    aided_id: str
    dr: int = 0
    take: Take = "roll"
    extra: int = 0
    skill: str = ""
    attribute: str = ""
    effort: int = 0
    gm_allows_ten: bool = False  # the helper may take ten (*Taking Ten*: the GM's leave)
    gm_overrides: bool = False  # F4-13: the helper acts though it cannot (the GM's word)


class LiveHackGrimTest(Struct, frozen=True, kw_only=True):
    combatant_id: str
    experience: str
    watching: bool = False
    companion: str = ""
    take: Take = "roll"
    effort: int = 0
    gm_allows_ten: bool = False  # the character may take ten (*Taking Ten*: the GM's leave)


class LiveHackSave(Struct, frozen=True, kw_only=True):
    """A dying save, a transformation save, or an attribute check vs a DR."""

    kind: SaveKind
    combatant_id: str
    take: Take = "roll"
    extra: int = 0
    dr: int | None = None  # None: the rule's own (Wounds for dying, 0 for a check)
    attribute: str = "dex"
    defense: SaveDefense = "fortitude"
    gm_allows_ten: bool = False  # the roller may take ten (*Taking Ten*: the GM's leave)
    effort: int = 0


class LiveHackApplyConsequence(Struct, frozen=True):
    """Apply the damage-table row of the last roll to its defender."""


class LiveHackHold(Struct, frozen=True, kw_only=True):
    """Hold the last roll's margin bonus as a positional bonus instead of rolling damage,
    described ("Such positional conditions must be described")."""

    description: str = ""


class LiveHackCancel(Struct, frozen=True):
    """Spend the last roll's margin bonus to cancel the one its defender holds over its attacker."""


class LiveHackDrop(Struct, frozen=True, kw_only=True):
    holder_id: str
    target_id: str


class LiveHackHeal(Struct, frozen=True, kw_only=True):
    combatant_id: str
    levels: int


# --- state ---------------------------------------------------------------------------------


class Rollover(Struct, frozen=True):
    """The last success's margin bonus, waiting for the attacker's next roll vs the defender."""

    holder_id: str
    target_id: str
    bonus: int


class Aid(Struct, frozen=True):
    aided_id: str
    helper_id: str
    bonus: int


class LiveHackState(Struct, frozen=True, kw_only=True, tag="livehack.state"):
    rollover: Rollover | None = None
    # A skill success's bonus kept while others roll, for its roller's next roll (R3-05).
    kept: Rollover | None = None
    aids: tuple[Aid, ...] = ()
    grimlocks: tuple[str, ...] = ()  # combatants whose Transformation makes a Grimlock
    # What each combatant of a solo side has rolled this round, as "round:id:what" ("reflex",
    # "fortitude", "dying:holds on", "check Wis:fails"...): where its turn stands.
    turn_marks: tuple[str, ...] = ()
    # The joint action the last roll was chosen from (None after any other roll): its odds
    # were those of every participant's roll, not of the chosen one alone.
    joint: LiveHackJointRolled | None = None


# --- conditions and grim experiences (the damage table is in table) ----------------


CONDITION_DURATIONS: dict[str, Duration] = {
    # "lasts through the character's next action ... When that character's turn is over"
    "Discombobulated": Duration("end-of-next-turn"),
    "Incapacitated": Duration("until-removed"),
    "Dying": Duration("until-removed"),
    "Transforming": Duration("until-removed"),
}


def consequence_for(margin: int) -> Consequence | None:
    """The damage-table row for a margin of success; None for a miss (a save)."""
    for row in DAMAGE_TABLE:
        if margin >= row.low and (row.high is None or margin <= row.high):
            return row
    return None


def condition_for(row: Consequence, defense: Defense) -> str | None:
    # Ruling: a Will roll threatens the mind, not the life, so 15+ transforms instead of
    # killing ("Attacks that do not seem like they would threaten the life ... transform").
    if row.condition == "Dying" and defense == "will":
        return "Transforming"
    return row.condition


class GrimExperience(Struct, frozen=True):
    key: str
    label: str
    dr: int
    bond: bool  # the starred rows: "add that bond rating to the DR"


GRIM_EXPERIENCES: tuple[GrimExperience, ...] = (
    GrimExperience("mercy", "Mercy killing a disabled or dying foe", -5, False),
    GrimExperience("helpless", "Killing a helpless foe", 0, False),
    GrimExperience("companion-dies", "Seeing a companion adventurer die", 2, True),
    GrimExperience("companion-eaten", "Knowing a companion has been eaten", 5, True),
    GrimExperience("tortured", "Being tortured", 8, False),
    GrimExperience("eating-humanoid", "Eating a humanoid", 10, False),
    GrimExperience("put-down", "Putting down a grimlock who was a companion", 12, True),
    GrimExperience("eating-companion", "Eating a companion adventurer", 15, True),
)
WATCHING = 5  # "a grim test at five less than the listed DR"


def grim_experience(key: str) -> GrimExperience:
    return next(e for e in GRIM_EXPERIENCES if e.key == key)


def is_dazed(combatant: LiveHackCombatant) -> bool:
    return any(combatant.condition(name) for name in DAZED)


# The system's encounter and combatant, typed: every module of the system annotates with
# these (never a bare Encounter), so its sheets, last roll and state are read as what they are.
if TYPE_CHECKING:
    LiveHackEncounter: TypeAlias = Encounter[LiveHackSheet, LiveHackRolled, LiveHackState]
    LiveHackCombatant: TypeAlias = Combatant[LiveHackSheet]
