"""The turns part of the contract: the turn order, initiative, surprise, and what the
system ties to a turn's edges."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.dice import DiceSource
from rules.encounter import AnyCombatant, AnyEncounter


class Turns:
    """Who acts, in which order; every hook has a default."""

    title: ClassVar[str]  # the system's (``RuleSystem``), which the defaults name
    uses_turn_order: ClassVar[bool]  # False: every side acts each round; "next" ends it

    def turn_order(self, state: AnyEncounter) -> tuple[AnyCombatant, ...]:
        """Who takes a turn, in the order they take it (``uses_turn_order``; ``n`` passes the
        turn to the next): by default every combatant, as the order lists them (the GM moves
        them). A system may sort them (by initiative) or leave out who takes no turn (who is
        out of the fight); a current combatant left out passes the turn to the first."""
        return state.combatants

    def cannot_act(self, state: AnyEncounter, combatant: AnyCombatant) -> str:
        """Why a combatant cannot act now ("" if it can): the turn order marks it with ⊘
        (with ✗ and a word, as any other, when ``out_of_fight`` says it is out)."""
        return ""

    def initiative_dice(self, state: AnyEncounter, combatant: AnyCombatant) -> str:
        """The dice notation ``combatant`` rolls for initiative (``rules.notation``: a
        constant such as ``"20"`` is a fixed initiative). Default ``"1d20"``; a system adds
        a sheet's bonus (``"1d20+2"``)."""
        return "1d20"

    def initiative_tiebreak(self, combatant: AnyCombatant) -> tuple[int, ...]:
        """What breaks a tie of initiative, compared highest first (a higher tuple acts
        first; e.g. ``(dexterity,)``). Give every combatant a tuple of the same length (a
        shorter one loses to a longer it begins: ``(-1,)`` for a lair that loses every tie,
        ``(0,)`` for the rest). Default ``()``: tied combatants keep the order they had."""
        return ()

    def initiative_on_add(self, state: AnyEncounter, combatant: AnyCombatant) -> bool:
        """Whether ``combatant`` rolls its initiative (``initiative_dice``) as it is added,
        and takes its place in the order by it (unless told where). A group added together
        shares one roll. Default False: initiative waits for ``:init``."""
        return False

    def why_no_initiative(self) -> str:
        """Why there is no initiative to roll, in one line ("" when there is one: a system
        with ``uses_turn_order``)."""
        if self.uses_turn_order:
            return ""
        every = "every side acts each round, so nobody rolls initiative"
        return f"{self.title} has no turn order: {every}"

    # The ways a table may play surprise (the ``surprise-way`` option), each an id and what it
    # does in a few words; the first is the default. None by default: one way, the system's.
    surprise_ways: ClassVar[tuple[tuple[str, str], ...]] = ()

    def turn_passing(
        self, state: AnyEncounter, ending: AnyCombatant | None, following: AnyCombatant
    ) -> list[Any]:
        """Events as ``ending``'s turn ends and before ``following``'s begins (``state`` is
        still ``ending``'s turn): what the system ties to the end or start of a turn, e.g. a
        condition that lasts until then lifted, or a save it owes marked. None by default."""
        return []

    def surprise(
        self, state: AnyEncounter, side: str, way: str, dice: DiceSource
    ) -> tuple[str, list[Any]]:
        """What surprise does to ``side`` as the fight begins (``:surprise SIDE``), played
        ``way`` (one of ``surprise_ways``, "" where there are none): a few words for the log,
        and the events. By default the rules say nothing of surprise: no rules effect."""
        return f"no rules effect ({self.title}'s rules say nothing of surprise)", []

    def reaction_spent(self, state: AnyEncounter, combatant: AnyCombatant) -> list[Any]:
        """Events as ``combatant`` takes the reaction it readied (``:act``): what the system
        counts of it, e.g. the reaction of an action economy (``Rejected`` when it has none
        left). By default nothing: the rules count no reactions."""
        return []
