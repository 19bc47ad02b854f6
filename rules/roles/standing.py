"""The standing part of the contract: where each combatant stands in the fight (out of it,
its badges, the damage it took) and the header's status."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from rules.encounter import AnyCombatant, AnyEncounter


class Damage(NamedTuple):
    """What one event took off one combatant, and who dealt it (None: nobody, e.g. a fumble,
    a difficulty pool or a grim experience), in the system's ``damage_unit``."""

    dealer_id: str | None
    target_id: str
    amount: int


class Standing:
    """Who is still in the fight and what it took; every hook has a default."""

    damage_unit: ClassVar[str] = "damage"  # what ``damage`` counts, for the fight's summary

    def out_of_fight(self, state: AnyEncounter, combatant: AnyCombatant) -> str:
        """Why a combatant is out of the fight, in a word or two ("dead", "fled"...), or ""
        while it still fights. A side with nobody left in the fight has lost it; nobody
        picks one who is out as an actor or a target (solo play, the quick turn). Read from
        the combatant and the system's state alone: a forecast asks again only of a combatant
        a move changed, and of everyone when the system's state changed (``rules.outcome.
        followed``), unless ``out_of_fight_reads_state`` says it reads the combatant alone."""
        return ""

    # False: ``out_of_fight`` reads the combatant alone, never the system's state, so a
    # forecast need not ask everyone again each time that state changes (Pain Pool's tokens
    # change at most rolls).
    out_of_fight_reads_state: ClassVar[bool] = True

    def damage(self, state: AnyEncounter, event: Any) -> tuple[Damage, ...]:
        """What an event (applied to ``state``) takes off combatants, and who dealt it."""
        return ()

    def badges(self, state: AnyEncounter, combatant: AnyCombatant) -> tuple[str, ...]:
        """Short labels for what the sheet does to a combatant now, after its conditions."""
        return ()

    def status(self, state: AnyEncounter) -> str:
        """Extra text for the header, e.g. token counts ("" for none)."""
        return ""
