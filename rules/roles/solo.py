"""The solo part of the contract: how the tracker plays a side (solo play), and what a
forecast needs beyond it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar, NamedTuple, Protocol

from msgspec import Struct

from rules.budget import Budget
from rules.encounter import AnyCombatant, AnyEncounter


class Policy(Struct, frozen=True):
    """One way the tracker can play a combatant in solo play (e.g. "take-zero", "aggressive")."""

    id: str
    title: str
    description: str = ""


def policy_among(policies: tuple[Policy, ...], combatant: AnyCombatant) -> str:
    """The policy ``combatant`` is played by: its own if ``policies`` has it, else the first."""
    if combatant.policy and any(p.id == combatant.policy for p in policies):
        return combatant.policy
    return policies[0].id if policies else ""


class Figure(NamedTuple):
    """One number of a combatant's state, under a name (a forecast averages them)."""

    name: str
    value: int


_BARS = " ▮▯"


@cache
def _figure() -> re.Pattern[str]:  # compiled when first asked for, not at every start
    return re.compile(r"(?:([A-Za-z]+) )?([+-]?[0-9]+)(?:/[0-9]+)?")


class Move(Struct, frozen=True):
    """A choice the tracker makes for ``actor_id`` in solo play: a command, and why."""

    actor_id: str
    command: Any
    reason: str


class _Stats(Protocol):  # what the default figures read of the sheets part
    stat_columns: ClassVar[tuple[str, ...]]

    def sheet_stats(self, sheet: Any) -> tuple[str, ...]: ...


class Solo:
    """Solo play (``solo_policies``) and forecasts; every hook has a default."""

    solo_policies: ClassVar[tuple[Policy, ...]] = ()  # solo play; the first is the default

    def solo_move(self, state: AnyEncounter) -> Move | None:
        """The next choice a combatant of a solo side must make now, or None."""
        return None

    def solo_fill(
        self, state: AnyEncounter, action: str, values: dict[str, str]
    ) -> tuple[dict[str, str], list[Move]]:
        """A user's dialog values with the solo combatants' fields chosen by their policies,
        and a Move (its command None) per choice, whose reason is logged."""
        return dict(values), []

    def forecast_move(self, state: AnyEncounter, acted: frozenset[str]) -> Move | None:
        """In a forecast every side is solo; when no solo move waits, what the table does
        next that no policy does (Beer Run: roll the round; Pain Pool: a hero's roll).
        ``acted``: the combatants whose move this was since the turn or round began. None:
        the turn or round ends (``NextTurn``). By default the table only ends turns."""
        return None

    def end_figures(
        self: _Stats, state: AnyEncounter, combatant: AnyCombatant
    ) -> tuple[Figure, ...]:
        """A combatant's figures worth averaging over many fights (a forecast's expected end
        state), in the system's terms: by default each stat that reads as a number or
        "now/max" (bars aside), its first number, named by the word before it ("Health 7/8")
        or else by its column."""
        stats = self.sheet_stats(combatant.sheet)
        out = []
        for column, text in zip(self.stat_columns, stats, strict=False):
            found = _figure().fullmatch(text.strip(_BARS))
            if found is not None:
                out.append(Figure(found.group(1) or column, int(found.group(2))))
        return tuple(out)

    def exact_wins(self, state: AnyEncounter, rounds: int) -> Mapping[str, float] | None:
        """Each side's chance to win the fight from ``state`` as a forecast plays it (every
        side by its policy, within ``rounds`` rounds), worked out rather than sampled, where
        the system can (a plain duel); None where it cannot, and a tune or the swings play it
        out instead. Default: None."""
        return None

    def xp_budget(self, state: AnyEncounter, party: str) -> Budget | None:
        """What the system's own encounter-building table (an XP budget) says of the fight,
        the side ``party`` being the party, to show beside the forecast's difficulty; None
        (the default) when the system has no such table or the sheets lack what it needs."""
        return None
