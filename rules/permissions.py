"""What a role may do: one place that answers it, asked by the session for every command.

The GM may do anything. A player acts only for the combatants assigned to them: a command
is theirs when the combatant it acts for (its attacker, hero, helper, holder, participants
or combatant) is assigned to them, or, for a command that names nobody (apply the result,
spend Hope, take damage on one's boons...), when the last roll involved one of theirs. The
running of the table (the roster, the turn order, the GM's tokens) is the GM's. A spectator
does nothing.
"""

from __future__ import annotations

import msgspec

from rules.encounter import Encounter
from rules.registry import get_system
from rules.visibility import Viewer, mentions

# The core's commands only the GM gives, by class name (a system names its own: the
# ``gm_commands`` and ``gm_actions`` of ``RuleSystem``).
GM_COMMANDS = frozenset(
    {
        "AddCombatant",
        "AddCombatants",
        "EditCombatant",
        "RemoveCombatant",
        "MoveCombatant",
        "NextTurn",
        "SetSolo",
        "SetPolicy",
        "DiscardConsequence",  # setting a result aside unapplied is the GM's call
        "ChangeTrack",  # a wound or healing by hand, outside the rules' rolls
    }
)

# The fields naming whom a command acts for, most specific first.
ACTOR_FIELDS = (
    "attacker_id",
    "hero_id",
    "helper_id",
    "holder_id",
    "participant_ids",
    "combatant_id",
)


def actors(command: object) -> set[str] | None:
    """Whom a command acts for; None when it names nobody."""
    fields = msgspec.structs.asdict(command) if isinstance(command, msgspec.Struct) else {}
    for name in ACTOR_FIELDS:
        value = fields.get(name)
        if isinstance(value, str) and value:
            return {value}
        if isinstance(value, tuple) and value:
            return set(value)
    return None


def refusal(state: Encounter, viewer: Viewer, command: object) -> str | None:
    """Why ``viewer`` may not give ``command`` now, or None when they may."""
    if viewer.is_gm:
        return None
    if viewer.role != "player":
        return "Spectators watch: they cannot change the encounter"
    mine = get_system(state.system).gm_commands
    if type(command).__name__ in GM_COMMANDS or isinstance(command, mine):
        return "Only the GM can do that"
    hidden = {c.id for c in state.combatants if c.gm_only}
    named = mentions(command)
    if named & hidden or any(state.find(cid) is None for cid in named):
        return "No such combatant"
    acting = actors(command)
    if acting is None:
        roll = state.last_roll
        if roll is None or not (mentions(roll) & viewer.assigned):
            return "Only the GM, or a player whose combatant made the last roll, can do that"
        return None
    if not acting <= viewer.assigned:
        names = ", ".join(sorted(state.name_of(cid) for cid in acting - viewer.assigned))
        return f"You do not act for {names}"
    return None


def may_undo(viewer: Viewer) -> bool:
    return viewer.is_gm
