"""The seats part of the contract: what a served table lets a player's seat do, and what it
shows them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from msgspec import Struct

from rules.encounter import AnyEncounter
from rules.mentions import mentions

# A command's declared actor (``RuleSystem.command_actors``): it acts for whoever the last roll
# involved (applying its result, spending a token on it...), and names nobody itself.
LAST_ROLL = "<last roll>"
# One acting for whoever made the last roll alone (``Seats.roll_makers``): the attacker's
# choice on its hit (LiveHack's hold of its margin), not its target's player's.
LAST_ROLLER = "<last roller>"


class _Fresh(Protocol):  # what the default concealment reads of the rules part
    def new_state(self) -> Struct: ...


class Seats:
    """The GM's and the players' share of a served table; every hook has a default."""

    # Whom each command acts for, which a served table checks against a player's seat: the
    # name of the command's field holding the combatant's id (or a tuple of ids), or
    # LAST_ROLL. A command not listed here is the GM's alone.
    command_actors: ClassVar[Mapping[type, str]] = {}
    # What only the GM does when seats are served (the GM's tokens, every side at once...):
    # commands refused to players, and action ids not offered to them.
    gm_commands: ClassVar[tuple[type[Struct], ...]] = ()
    gm_actions: ClassVar[frozenset[str]] = frozenset()

    def roll_makers(self, state: AnyEncounter) -> frozenset[str]:
        """Who made the last roll, for a command declared ``LAST_ROLLER``. Default: everyone
        it names (as ``LAST_ROLL`` reads it); a system whose roll names its target too says
        which side made it."""
        roll = state.last_roll
        return frozenset(mentions(roll)) if roll is not None else frozenset()

    def gm_choice(self, key: str, value: str) -> bool:
        """Whether picking ``value`` in a dialog's field ``key`` is the GM's approval (LiveHack's
        Grim Advantage, a monster's Take Ten): a player's dialog does not offer it. Default:
        no choice is."""
        return False

    def gm_approvals(self, command: Any) -> tuple[str, ...]:
        """What in ``command`` only the GM may approve, named for the refusal a player gets
        (``rules.permissions``); empty when nothing. Default: nothing."""
        return ()

    def conceal(self, state: AnyEncounter, event: Any, hidden: frozenset[str]) -> Any | None:
        """An event (applied to ``state``) or the last roll as one who may not see the
        ``hidden`` combatants sees it. Asked only of an event that names one of them or comes
        of a roll that does: return a copy without what only their roll could tell (its
        margin, dice, who made it), e.g. the wounds it left on a combatant the reader sees;
        or None to leave it out, the default. A copy that still names a hidden combatant is
        left out too."""
        return None

    def conceal_state(self: _Fresh, state: AnyEncounter, hidden: frozenset[str]) -> AnyEncounter:
        """The encounter (its hidden combatants already gone) without what in the system's
        own state or the sheets names a hidden combatant. By default the system's state
        starts afresh (``new_state``) when anything in it does; a system keeps what it can."""
        if mentions(state.system_state) & hidden:
            return state.update(system_state=self.new_state())
        return state
