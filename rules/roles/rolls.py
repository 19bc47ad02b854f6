"""The rolls part of the contract: a roll's tiers, where the last roll landed, its exact odds
and whom it favoured."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple

from msgspec import Struct

from rules.encounter import AnyEncounter
from rules.odds import Odds, mid_percentile


class Tier(Struct, frozen=True):
    """A band of results; ``low``/``high`` are inclusive bounds, None for an open end."""

    label: str
    low: int | None
    high: int | None
    effect: str

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


class Landing(Struct, frozen=True):
    """Where the last roll fell among the tiers."""

    tier: int
    value: int
    summary: str


class Luck(NamedTuple):
    """How one roll landed for one combatant: the chance of a result worse for it plus half
    the chance of one that lands as it did (1/2 on average, whatever the odds)."""

    combatant_id: str
    percentile: Fraction


def luck_against(
    odds: Odds | None, landing: Landing | None, sides: tuple[str | None, str | None]
) -> tuple[Luck, ...]:
    """How a roll that landed in ``landing``'s tier did among the tiers' chances, for the
    combatant a higher tier favours and the one a lower tier favours (``sides``)."""
    if odds is None or landing is None or not 0 <= landing.tier < len(odds.tiers):
        return ()
    high, low = sides
    percentile = mid_percentile([tier.p for tier in odds.tiers], landing.tier)
    out = []
    if high is not None:
        out.append(Luck(high, percentile))
    if low is not None:
        out.append(Luck(low, 1 - percentile))
    return tuple(out)


class Rolls(ABC):
    """The tiers and the landing of a roll (``tiers`` and ``landing`` every system writes),
    its exact odds (``has_odds``) and its luck."""

    has_odds: ClassVar[bool] = False  # True: ``odds`` answers the roll dialog exactly

    @abstractmethod
    def tiers(self, state: AnyEncounter) -> list[Tier]: ...

    @abstractmethod
    def landing(self, state: AnyEncounter) -> Landing | None: ...

    def lands_in(self, state: AnyEncounter, landing: Landing) -> bool:
        """Whether the last roll's value may land in the tier ``landing`` names: by default
        when the value lies in the tier's band. A system whose tiers are more than bands of
        one number says so itself (a d20's natural 20 hits, whatever the total)."""
        tiers = self.tiers(state)
        return 0 <= landing.tier < len(tiers) and tiers[landing.tier].contains(landing.value)

    def odds(self, state: AnyEncounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The exact chance of each tier for the roll a dialog describes now, or None."""
        return None

    def last_odds(self, state: AnyEncounter) -> Odds | None:
        """The chances the last roll had, or None."""
        return None

    def roll_sides(self, state: AnyEncounter, event: Any) -> tuple[str | None, str | None]:
        """For a roll event (``state`` is the state after it): the combatant a higher tier
        favours, and the one a lower tier favours (None: nobody, e.g. nature or a DR)."""
        return None, None

    def roll_luck(self, state: AnyEncounter, event: Any) -> tuple[Luck, ...]:
        """How a roll event (``state`` is the state after it) landed for each combatant it
        favours or hurts, against the exact odds it had: by default the tier it landed in
        (``landing``) among the chances of ``last_odds``, for the sides of ``roll_sides``.
        Nothing without odds."""
        return luck_against(
            self.last_odds(state), self.landing(state), self.roll_sides(state, event)
        )
