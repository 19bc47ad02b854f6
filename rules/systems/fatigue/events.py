"""Fatigue & Thresholds: the events and commands, and the numbers a check derives."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

from msgspec import Struct

from rules.errors import Rejected

from .arithmetic import (
    ATTITUDE_MODIFIERS,
    DEFENSE_NAMES,
    LEVEL_NAMES,
    SPACING,
    Attitude,
    Cost,
    DiceKind,
    cutoffs,
    defense_level,
    fumble_level,
    stress_total,
    suckage_to_lift,
)
from .sheet import FatigueSheet, Skill, Weapon

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter, NoState

SideName = Literal["attacker", "defender"]
SIDES: tuple[tuple[SideName, str], ...] = (
    ("attacker", "the attacker"),
    ("defender", "the defender"),
)


# --- events --------------------------------------------------------------------------------


class Side(Struct, frozen=True, kw_only=True):
    """One side of a check, with every number that went into its total."""

    combatant_id: str
    dice: DiceKind
    faces: tuple[int, ...]
    skills: tuple[Skill, ...] = ()
    penalty: int = 0  # the fatigue penalty taken off the check
    attitude: Attitude = "ordinary"
    effort: tuple[Cost, ...] = ()  # N, after a relaxed attitude halves it
    upfront: tuple[Cost, ...] = ()  # paid at the check: N, plus 3N when intense
    spacing: int = SPACING  # this side's thresholds
    floor: int = 3
    fumble_penalty: int = 0

    @property
    def dice_total(self) -> int:
        return stress_total(self.dice, self.faces)

    @property
    def attitude_modifier(self) -> int:
        return ATTITUDE_MODIFIERS[self.attitude]

    @property
    def total(self) -> int:
        skills = sum(skill.level for skill in self.skills)
        return self.dice_total + skills - self.penalty + self.attitude_modifier


class Aid(Struct, frozen=True, kw_only=True):
    """An aid check: its roll, the target it was measured against, and the bonus it gave."""

    helper: Side
    side: SideName
    main: int
    target: int
    bonus: int


class Suckage(Struct, frozen=True):
    points: int
    cost: str


class FatigueChecked(Struct, frozen=True, kw_only=True, tag="fatigue.checked"):
    """A difficulty check. The attacker is None against nature (the GM's total to beat)."""

    attacker: Side | None
    defender: Side
    nature_total: int = 0
    weapon: Weapon | None = None
    fumble_threshold: int = 0
    suckage: tuple[Suckage, ...] = ()
    called_off: int = 0
    aids: tuple[Aid, ...] = ()
    # Several defenders: those compared with the attacker next, each once the one before is
    # settled; or, when the lowest scorer defends, those who scored higher and do not.
    waiting: tuple[Side, ...] = ()
    spared: tuple[Side, ...] = ()
    traded: int = 0  # Wind the GM let the payer off for being knocked prone, disarmed...
    spill: bool = False  # the GM's choice: what Wind or Wit cannot pay comes from Stamina/Focus

    def aid_for(self, side: SideName) -> int:
        return sum(aid.bonus for aid in self.aids if aid.side == side)

    @property
    def attacker_total(self) -> int:
        if self.attacker is None:
            return self.nature_total
        return self.attacker.total + self.aid_for("attacker")

    @property
    def defender_total(self) -> int:
        return self.defender.total + self.aid_for("defender")

    @property
    def suckage_points(self) -> int:
        return sum(s.points for s in self.suckage)

    @property
    def raw_loss(self) -> int:
        return self.attacker_total - self.defender_total

    @property
    def loss(self) -> int:
        """How far the defender lost by, after suckage points (<= 0: the defender won)."""
        return self.raw_loss - self.suckage_points

    @property
    def fumble_line(self) -> int | None:
        if self.attacker is None:
            return None
        return self.fumble_threshold + self.attacker.fumble_penalty

    @property
    def fumble_rolled(self) -> int | None:
        """The attacker's fumble level (1-4) before calling off; None when it beat the line.
        Judged on the attacker's own roll: an aid, rolled after it, helps the check but does
        not undo a fumble already made (issue 30, R3-15)."""
        line = self.fumble_line
        if line is None or self.attacker is None:
            return None
        # Suckage is the fumbling attacker's own here: a defender takes none once it fumbled.
        return fumble_level(self.attacker.total + self.suckage_points, line, self.attacker.spacing)

    @property
    def fumble_missed(self) -> int:
        """How far the fumbling attacker is at or under its line, after suckage (0: none)."""
        line = self.fumble_line
        if not self.fumbled or line is None or self.attacker is None:
            return 0
        return line - self.attacker.total - self.suckage_points

    @property
    def fumbled(self) -> bool:
        return self.fumble_rolled is not None

    @property
    def defense_rolled(self) -> int | None:
        """The defender's level (0-4) before calling off; None on a win or a fumble."""
        if self.fumbled:
            return None
        return defense_level(self.loss, self.defender.spacing)

    @property
    def sufferer(self) -> Side | None:
        return self.attacker if self.fumbled else self.defender

    @property
    def level(self) -> int | None:
        """The consequence level that applies, after calling off (None: nothing more)."""
        rolled = self.fumble_rolled if self.fumbled else self.defense_rolled
        if rolled is None:
            return None
        lowered = rolled - self.called_off
        lowest = 1 if self.fumbled else 0
        return lowered if lowered >= lowest else None

    @property
    def in_combat(self) -> bool:
        """An attack with a weapon: its consequences come from the Melee or Guns table."""
        return self.weapon is not None

    @property
    def suckage_offer(self) -> int:
        """Points that would lift a failed roll across the next threshold (0: none): a failed
        defense, or a fumble worse than the first (issue 30, R3-16: "boost a failed roll
        upward"); suckage never takes an attacker out of its fumble."""
        if self.fumbled:
            level = self.fumble_rolled
            if level is None or level <= 1 or self.attacker is None:
                return 0
            return self.fumble_missed - ((level - 1) * self.attacker.spacing - 1)
        if self.defense_rolled is None:
            return 0
        return suckage_to_lift(self.loss, self.defender.spacing)

    @property
    def suckage_room(self) -> int:
        """The most suckage points this check takes: a defender up to a win, a fumbling
        attacker up to its line (still a fumble)."""
        return self.fumble_missed if self.fumbled else self.loss


class FatigueSuckageTaken(Struct, frozen=True, tag="fatigue.suckage-taken"):
    suckage: Suckage


class FatigueCalledOff(Struct, frozen=True, tag="fatigue.called-off"):
    levels: int


class FatigueTraded(Struct, frozen=True, kw_only=True, tag="fatigue.traded"):
    """*Melee*: "At GM's option can substitute getting knocked prone, disarmed, etc for some
    of fatigue": the payer is ``instead`` (a condition) and pays ``wind`` less."""

    combatant_id: str
    instead: str
    wind: int


class FatigueAided(Struct, frozen=True, tag="fatigue.aided"):
    aid: Aid


class FatiguePoolsSpent(Struct, frozen=True, kw_only=True, tag="fatigue.pools-spent"):
    """A consequence paid: pool losses (Health damage included) and how they were reckoned."""

    combatant_id: str
    costs: tuple[Cost, ...]
    what: str
    reckoning: str
    narrate: str = ""
    ruined: bool = False  # the second penalty or worse: the payer's equipment marked ruined


# *Consequences for Defenders*: from the second penalty on, equipment involved "you should not
# count on being able to use ... ever again": the payer gets this mark, until the GM removes it.
RUINED = "Ill-equipped"
RUINOUS = 2


# --- commands ------------------------------------------------------------------------------


class DefenderWay(Struct, frozen=True, kw_only=True):
    """A further defender's own dice, attitude and N (None: the Defender field's), issue 39,
    F4-14: "one or more defenders", each rising to the challenge its own way."""

    combatant_id: str
    dice: DiceKind | None = None
    attitude: Attitude | None = None
    effort: tuple[Cost, ...] | None = None


class FatigueCheck(Struct, frozen=True, kw_only=True):
    attacker_id: str | None  # None: against nature
    defender_id: str
    weapon: str = ""  # "" for none
    attacker_skills: tuple[str, ...] = ()
    defender_skills: tuple[str, ...] = ()
    attacker_dice: DiceKind = "1d20"
    defender_dice: DiceKind = "1d20"
    attacker_attitude: Attitude = "ordinary"
    defender_attitude: Attitude = "ordinary"
    attacker_effort: tuple[Cost, ...] | None = None  # None: the weapon's N in Wind
    defender_effort: tuple[Cost, ...] = (Cost("wind", 5),)
    nature_total: int = 0
    fumble_threshold: int | None = None  # None: the weapon's
    # More defenders, each rolling the defender's dice, attitude and N (unless ``ways`` gives
    # it its own) with the named skills it has; ``lowest``: only whoever scores the lowest of
    # them all defends.
    more_defenders: tuple[str, ...] = ()
    ways: tuple[DefenderWay, ...] = ()
    lowest: bool = False
    relaxed_up: bool = False  # the GM's rounding of a relaxed N: half of 5 is 3, not 2
    spill: bool = False  # what Wind or Wit cannot pay comes from Stamina or Focus


class FatigueApply(Struct, frozen=True):
    """Pay the last check's consequence (the ``d`` key)."""


class FatigueTakeSuckage(Struct, frozen=True):
    points: int
    cost: str


class FatigueCallOff(Struct, frozen=True):
    levels: int = 1
    # *Other Things* and *Attitudes* ("may not be able to back out"): the GM may let a
    # combat or intense effort be called off all the same.
    gm_allows: bool = False


class FatigueTrade(Struct, frozen=True, kw_only=True):
    instead: str = "Prone"
    wind: int = 1


# What the GM may substitute for some of a melee consequence's Wind (a condition's name).
TRADES: tuple[tuple[str, str], ...] = (("Prone", "knocked prone"), ("Disarmed", "disarmed"))


class FatigueAid(Struct, frozen=True, kw_only=True):
    helper_id: str
    side: SideName = "attacker"
    dice: DiceKind = "1d20"
    skills: tuple[str, ...] = ()
    effort: tuple[Cost, ...] = ()


# --- reading a check -------------------------------------------------------------------------


def sheet_of(combatant: Combatant[FatigueSheet]) -> FatigueSheet:
    return combatant.sheet


FLED = "Fled"


def out_word(combatant: Combatant[FatigueSheet]) -> str:
    """Why a combatant is out of the fight, in a word ("" while it fights): the system's
    ``out_of_fight``, read off its sheet and the condition Fled."""
    return sheet_of(combatant).out_of_fight(combatant.condition(FLED) is not None)


def pending(state: FatigueEncounter) -> FatigueChecked:
    """The last check, when its consequence is still to be paid."""
    roll = state.last_roll
    if not isinstance(roll, FatigueChecked):
        raise Rejected("Nothing to apply: roll first")
    if state.last_roll_applied:
        raise Rejected("The last check's consequence has already been paid")
    return roll


def level_name(roll: FatigueChecked, level: int | None) -> str:
    """The name of a consequence level of this check (None: nothing more to pay)."""
    if level is not None:
        return f"{LEVEL_NAMES[level]} fumble" if roll.fumbled else DEFENSE_NAMES[level]
    if roll.called_off and roll.level is None:
        return "called off, nothing more"
    return "no consequence" if roll.fumbled else "Successful defense"


def call_off_refusal(
    state: FatigueEncounter, roll: FatigueChecked, gm_allows: bool = False, levels: int = 1
) -> str:
    """Why the open check's effort cannot be called off ``levels`` ("" when it can): calling
    off is for tasks outside combat (*Other Things*), and not for an intense effort, unless
    the GM allows it ("may not be able to" is not "never"). The one check of the decision
    and the dialog's preview (which named a consequence for levels OK refuses)."""
    if levels not in (1, 2):
        return "Calling off lowers the consequence one or two levels"
    if roll.called_off:
        return "That effort has already been called off"
    sufferer = roll.sufferer
    if roll.level is None or sufferer is None:
        return "There is no consequence to call off"
    if gm_allows:
        return ""
    if roll.in_combat:
        weapon = roll.weapon.name if roll.weapon is not None else "a weapon"
        return (
            f"An attack with {weapon} is combat: calling off is for tasks outside combat "
            "(building, repairing...), whose failure you see coming"
        )
    if sufferer.attitude == "intense":
        name = state.name_of(sufferer.combatant_id)
        return f"{name} set out with an intense effort and cannot call it off"
    return ""


def suckage_refusal(roll: FatigueChecked, points: int) -> str:
    """Why ``points`` suckage points cannot lift the open check ("" when they can): the one
    check of the decision and the dialog's preview, so the preview never names a consequence
    for points the dialog's OK refuses."""
    if roll.fumbled and not roll.fumble_missed:
        return "The fumble is on its line: suckage cannot take it out of the fumble"
    if not roll.fumbled and roll.defense_rolled is None:
        return "Suckage points only lift a failed roll: the last check has none"
    room = roll.suckage_room
    if not 1 <= points <= room:
        what = "the fumble stays a fumble" if roll.fumbled else f"the defense lost by {room}"
        return f"Take 1 to {room} suckage points ({what})"
    return ""


def thresholds_text(side: Side) -> str:
    return "/".join(str(cut) for cut in cutoffs(side.spacing))


# The system's encounter and combatant, typed: every module of the system annotates with
# these (never a bare Encounter), so its sheets, last roll and state are read as what they are.
if TYPE_CHECKING:
    FatigueEncounter: TypeAlias = Encounter[FatigueSheet, FatigueChecked, NoState]
    FatigueCombatant: TypeAlias = Combatant[FatigueSheet]
