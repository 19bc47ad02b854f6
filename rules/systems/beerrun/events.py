"""Beer Run's per-encounter state (paid pools, successes waiting to land), commands and
events.

Source: ``shared/rules-texts/002`` (Beer Run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

from msgspec import Struct, structs

from .dice import Die, compare
from .sheet import Goal, GoalKind, OutcomeDie

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

    from .sheet import BeerRunSheet

TempKind = Literal["situation", "penalty"]
Stage = Literal["helping", "main"]

# --- per-encounter state ---------------------------------------------------------------------


class PoolDie(Struct, frozen=True):
    label: str
    size: int


class Pool(Struct, frozen=True, kw_only=True):
    """What one side paid for in one round, and what it rolls against."""

    combatant_id: str
    round: int
    dice: tuple[PoolDie, ...]
    extra: int
    cost: int
    kind: GoalKind = "conflict"
    against: str | None = None  # a combatant, or None for a difficulty pool
    difficulty: tuple[int, ...] = ()
    ally_id: str | None = None
    target_die: int = 0
    penalty_to_ally: bool = False  # a failed help's penalty dice: the GM's choice of who
    # Helping or situational: the difficulty as typed and how many dice the GM asked to
    # replace, so the log can say what was (not) replaced (none in older saves).
    typed: tuple[int, ...] = ()
    asked: int = 0


class Pending(Struct, frozen=True, kw_only=True):
    """Successes still to land as pips; ``dealer_id`` None is a difficulty pool."""

    round: int
    dealer_id: str | None
    target_id: str
    pips: int
    upper: bool


class Worn(Struct, frozen=True):
    """A static difficulty worn down by one actor's successes: the dice it has left."""

    combatant_id: str
    dice: tuple[int, ...]


class StruckDie(Struct, frozen=True):
    """The die ``d`` would land a side's pips on as the round was rolled (``ability`` ""
    and ``size`` 0: no die left), so the Consequences pane describes the roll as rolled."""

    combatant_id: str
    ability: str
    size: int


class BeerRunState(Struct, frozen=True, kw_only=True, tag="beerrun.state"):
    categories: tuple[str, ...] = ()
    pools: tuple[Pool, ...] = ()
    pending: tuple[Pending, ...] = ()
    rolled_round: int = 0
    worn: tuple[Worn, ...] = ()  # difficulties worn down, by actor (none in older saves)
    # The last roll's first comparison: each side's die as rolled (none in older saves).
    struck_dice: tuple[StruckDie, ...] = ()


# --- commands ----------------------------------------------------------------------------------


class SetCategories(Struct, frozen=True):
    categories: tuple[str, ...]


class SetGoal(Struct, frozen=True, kw_only=True):
    combatant_id: str
    goal: Goal


class BuildPool(Struct, frozen=True, kw_only=True):
    """``base`` None: the largest die of each category; ``extra``: more abilities by name."""

    combatant_id: str
    base: tuple[str, ...] | None = None
    extra: tuple[str, ...] = ()
    against: str | None = None
    difficulty: tuple[int, ...] = ()
    replace: int = 3  # helping or situational: how many difficulty dice become the target die
    # *Helping Goal*: "the character in question must suffer" a failure's penalty die: the
    # helper (False, the default) or, by the GM's choice, the one helped.
    penalty_to_ally: bool = False


class RollRound(Struct, frozen=True):
    """Roll every pool of the round: helping pools first, then the others."""


class LandDamage(Struct, frozen=True, kw_only=True):
    """Land the next pending successes; ``split`` None puts them all on the default ability."""

    split: tuple[tuple[str, int], ...] | None = None


class Cede(Struct, frozen=True, kw_only=True):
    combatant_id: str
    to_id: str
    ability: str | None = None  # the ceder's ability the winner's goal takes to zero


class AddOutcomeDie(Struct, frozen=True, kw_only=True):
    combatant_id: str
    die: OutcomeDie
    category: str = ""


# --- events ------------------------------------------------------------------------------------


class CategoriesSet(Struct, frozen=True, tag="beerrun.categories-set"):
    categories: tuple[str, ...]


class GoalSet(Struct, frozen=True, tag="beerrun.goal-set"):
    combatant_id: str
    goal: Goal


class PoolBuilt(Struct, frozen=True, tag="beerrun.pool-built"):
    pool: Pool


class Contest(Struct, frozen=True, kw_only=True):
    """One comparison: ``top`` is the actor's roll, ``bottom`` its opposition's."""

    kind: GoalKind
    top_id: str
    top: tuple[Die, ...]
    bottom_id: str | None  # None: a difficulty pool
    bottom: tuple[Die, ...]
    target_die: int = 0
    ally_id: str | None = None
    penalty_to_ally: bool = False  # helping: a failure's penalty die goes to the one helped


class Spent(Struct, frozen=True):
    combatant_id: str
    kind: TempKind
    size: int


class RoundRolled(Struct, frozen=True, kw_only=True, tag="beerrun.round-rolled"):
    round: int
    stage: Stage
    contests: tuple[Contest, ...]
    spent: tuple[Spent, ...] = ()


class DiceGained(Struct, frozen=True, kw_only=True, tag="beerrun.dice-gained"):
    combatant_id: str
    kind: TempKind
    size: int
    uses: int
    source_id: str


class DifficultyWorn(Struct, frozen=True, kw_only=True, tag="beerrun.difficulty-worn"):
    """An actor's kept successes landed as pips on its static difficulty's smallest die
    (``before`` the dice rolled, ``left`` what stands for the next round; empty: beaten)."""

    combatant_id: str
    pips: int
    before: tuple[int, ...]
    left: tuple[int, ...]


class GoalGained(Struct, frozen=True, kw_only=True, omit_defaults=True, tag="beerrun.goal-gained"):
    combatant_id: str
    reason: str  # written with the names of the time: "Brute's Health is at zero"
    # Whom the reason is about (the one whose ability fell, the side that ceded), so a
    # player who may not see them does not see it either; None in older saves. Left out
    # when None (``omit_defaults``): an older save's record encodes back to its own bytes,
    # which lets its log be checked in one call (``rules.snapshot._decoded``).
    about_id: str | None = None


class Hit(Struct, frozen=True):
    ability: str
    pips: int
    before: int


class DamageLanded(Struct, frozen=True, kw_only=True, tag="beerrun.damage-landed"):
    """Pips off abilities; ``from_pending`` False for a cede's damage, which no roll left."""

    dealer_id: str | None
    target_id: str
    hits: tuple[Hit, ...]
    from_pending: bool = True


class SuccessesLost(Struct, frozen=True, kw_only=True, tag="beerrun.successes-lost"):
    """A side killed before its own kept successes landed: they never land (issue 39,
    F4-11). ``targets`` are those they were to land on, ``pips`` their sum."""

    combatant_id: str
    targets: tuple[str, ...]
    pips: int


class Ceded(Struct, frozen=True, kw_only=True, tag="beerrun.ceded"):
    combatant_id: str
    to_id: str


class OutcomeDieAdded(Struct, frozen=True, kw_only=True, tag="beerrun.outcome-die"):
    combatant_id: str
    die: OutcomeDie
    category: str = ""


def pending_from(round_: int, contest: Contest) -> list[Pending]:
    """The damage a conflict leaves to land, the upper hand's first."""
    if contest.kind != "conflict":
        return []
    outcome = compare(contest.top, contest.bottom)
    top = Pending(
        round=round_,
        dealer_id=contest.top_id,
        target_id=contest.bottom_id or "",
        pips=outcome.top_kept,
        upper=outcome.upper == "top",
    )
    bottom = Pending(
        round=round_,
        dealer_id=contest.bottom_id,
        target_id=contest.top_id,
        pips=outcome.bottom_kept,
        upper=outcome.upper == "bottom",
    )
    if contest.bottom_id is None:
        top = structs.replace(top, pips=0)  # nothing to damage on a difficulty pool
    ordered = [bottom, top] if outcome.upper == "bottom" else [top, bottom]
    return [p for p in ordered if p.pips > 0]


# The system's encounter and combatant, typed: every module of the system annotates with
# these (never a bare Encounter), so its sheets, last roll and state are read as what they are.
if TYPE_CHECKING:
    BeerRunEncounter: TypeAlias = Encounter[BeerRunSheet, RoundRolled, BeerRunState]
    BeerRunCombatant: TypeAlias = Combatant[BeerRunSheet]
