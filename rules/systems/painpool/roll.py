"""Pain Pool rolls: three hero pools against the Pain Pool, the outcome and dominance.

Pure helpers for ``rules.systems.painpool.system``. Dice order in a roll: Power, Precision,
Possibility (each: attribute die, boon dice, bonus dice), then the Pain Pool.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from msgspec import Struct

from rules.dice import DiceSource

from .sheet import (
    MIN_PAIN_DICE,
    PAIN_DIE,
    POOL_TITLES,
    ChallengeSheet,
    PoolName,
    pain_base,
)
from .table import KEPT_PAIN as KEPT_PAIN
from .table import TIE_ORDER as TIE_ORDER

Kind = Literal["attack", "maneuver"]
Initiator = Literal["hero", "challenge"]
Harm = Literal["damage", "failure"]
Outcome = Literal["success", "tie", "failure"]


NARRATION: dict[str, str] = {
    "power": "brute force, naked determination and unrelenting action",
    "precision": "skill and finesse",
    "possibility": "seized opportunities and realized potential",
    "pain": "gains won at a heavy cost: the situation got worse and more desperate",
}
OUTCOME_WORDS: dict[Outcome, str] = {"success": "Best", "tie": "Good", "failure": "Worst"}


class Part(Struct, frozen=True):
    """A labelled adjustment: dice added to the Pain Pool, or points of damage."""

    label: str
    value: int


def roll_dice(dice: DiceSource, count: int, size: int) -> tuple[int, ...]:
    roll = dice.roll
    return tuple([roll(size) for _ in range(count)])


class PoolRoll(Struct, frozen=True, kw_only=True):
    """One attribute pool: every die is the attribute's size; the highest one is kept."""

    pool: PoolName
    size: int
    attribute: int
    boon: str = ""
    boon_dice: tuple[int, ...] = ()
    bonus: tuple[str, ...] = ()  # names of the bonus dice spent on this pool
    bonus_dice: tuple[int, ...] = ()
    rerolls: tuple[tuple[int, ...], ...] = ()  # Hope re-rolls, the higher value kept

    @property
    def faces(self) -> tuple[int, ...]:
        return (self.attribute, *self.boon_dice, *self.bonus_dice)

    @property
    def kept(self) -> int:
        if not self.rerolls:  # most rolls: asked of each pool at every move of a forecast
            return max(self.faces)
        return max(max(faces) for faces in (self.faces, *self.rerolls))

    @property
    def count(self) -> int:
        return len(self.faces)


class PainRoll(Struct, frozen=True, kw_only=True):
    """The Pain Pool: d6s, the 3 highest kept; a Despair re-roll keeps the higher total."""

    parts: tuple[Part, ...]
    dice: tuple[int, ...]
    rerolls: tuple[tuple[int, ...], ...] = ()

    @property
    def best(self) -> tuple[int, ...]:
        """The roll (first or re-rolled) whose kept dice total most."""
        return max((self.dice, *self.rerolls), key=lambda faces: sum(kept_pain(faces)))

    @property
    def kept(self) -> tuple[int, ...]:
        return kept_pain(self.best)

    @property
    def total(self) -> int:
        return sum(self.kept)

    @property
    def top(self) -> int:
        return self.kept[0]


def kept_pain(faces: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(faces, reverse=True)[:KEPT_PAIN])


def pain_parts(sheet: ChallengeSheet, initiator: Initiator, extra: int) -> tuple[Part, ...]:
    """The Pain Pool's dice: base (after the death spiral), templates, the GM's extra."""
    parts = [Part("pool", pain_base(sheet))]
    if sheet.spiral_loss and pain_base(sheet) < sheet.pool:
        parts[0] = Part(f"pool {sheet.pool}d6, death spiral", pain_base(sheet))
    if "glass-cannon" in sheet.templates and initiator == "challenge":
        parts.append(Part("Glass Cannon, attacking", 2))
    if "fast-but-weak" in sheet.templates:
        parts.append(Part("Fast but Weak", 2))
    if "slow-but-strong" in sheet.templates:
        parts.append(Part("Slow but Strong", -1))
    if "tank" in sheet.templates and initiator == "hero":
        parts.append(Part("Tank, defending", 2))
    if extra:
        parts.append(Part("GM", extra))
    return tuple(parts)


def pain_count(parts: tuple[Part, ...]) -> int:
    return max(MIN_PAIN_DICE, sum(p.value for p in parts))


def damage_parts(sheet: ChallengeSheet, initiator: Initiator) -> tuple[Part, ...]:
    """Template changes to the damage a challenge deals when it connects."""
    parts = []
    if "fast-but-weak" in sheet.templates:
        parts.append(Part("Fast but Weak", -1))
    if "slow-but-strong" in sheet.templates:
        parts.append(Part("Slow but Strong", 2))
    if "tank" in sheet.templates and initiator == "hero":
        parts.append(Part("Tank backlash", -1))
    return tuple(parts)


# ``dict=True``: room for ``difference``, worked out once a roll (its outcome, damage and tokens
# lost are asked of it many times a move in a forecast; a re-roll is a new value).
class PainPoolRolled(Struct, frozen=True, kw_only=True, tag="painpool.rolled", dict=True):
    """A hero's three pools against a challenge's Pain Pool, with its intent and options."""

    hero_id: str
    challenge_id: str
    intent: str = ""
    best: str = ""
    good: str = ""
    worst: str = ""
    kind: Kind = "attack"
    initiator: Initiator = "hero"
    harm: Harm = "damage"
    pools: tuple[PoolRoll, ...]
    pain: PainRoll
    damage_parts: tuple[Part, ...] = ()
    beneficiary_id: str = ""  # who gets a successful maneuver's bonus die
    sticky: bool = False
    spent: tuple[int, ...] = ()  # indices of the hero's held bonus dice spent
    favor_spent: int = 0  # on sticky bonus dice
    raised: int = 0  # Hope: +N to the hero's total, paid in favor
    despair_given: bool = False

    @property
    def hero_total(self) -> int:
        return sum(p.kept for p in self.pools) + self.raised

    @cached_property
    def difference(self) -> int:
        return self.hero_total - self.pain.total

    @property
    def outcome(self) -> Outcome:
        difference = self.difference
        if difference > 0:
            return "success"
        return "tie" if difference == 0 else "failure"

    @property
    def dominant(self) -> str:
        if self.raised:
            return "pain"  # "If the player chooses to do this, pain automatically dominates"
        return dominant(self.pools, self.pain)

    @property
    def hero_damage(self) -> int:
        """Damage or failure levels the hero takes (none from a win or a tie). A maneuver's
        loss is failure levels, the difference alone: "a character performing a maneuver
        does not risk being damaged", so no template's damage change reaches it."""
        difference = self.difference
        if difference >= 0:  # a win or a tie
            return 0
        if self.kind == "maneuver":
            return -difference
        return max(0, -difference + sum(p.value for p in self.damage_parts))

    @property
    def harm_taken(self) -> Harm:
        """What a loss costs: a maneuver does not risk damage, only failure levels."""
        return "failure" if self.kind == "maneuver" else self.harm

    @property
    def tokens_lost(self) -> int:
        if self.kind != "attack":
            return 0
        return max(0, self.difference)  # a success's margin


def dominant(pools: tuple[PoolRoll, ...], pain: PainRoll) -> str:
    """The pool whose kept die is highest; ties: larger die, then a hero pool over Pain."""
    contenders: list[tuple[int, int, int, str]] = [
        (p.kept, p.size, TIE_ORDER[p.pool], p.pool) for p in pools
    ]
    contenders.append((pain.top, PAIN_DIE, TIE_ORDER["pain"], "pain"))
    return max(contenders)[3]


def describe_dominance(name: str) -> str:
    return f"{POOL_TITLES[name]} dominates: {NARRATION[name]}"
