"""What a role may do: one place that answers it, asked by the session for every command.

The GM may do anything. A player acts only for the combatants assigned to them: a command
is theirs when the combatant it acts for, as its system declares (``command_actors``), is
assigned to them, or, for a command declared to act for the last roll's (apply the result,
spend Hope, take damage on one's boons...), when the last roll involved one of theirs. A
command nothing declares is the GM's, as is the running of the table (the roster, the
turn order, the GM's tokens). Plain dice are anyone's to roll but a spectator's, under the
player's own name; hidden dice the GM's alone. A spectator does nothing.
"""

from __future__ import annotations

from rules.commands import (
    AddCondition,
    AddNote,
    PassTurn,
    RemoveCondition,
    RollDice,
    SetInitiative,
)
from rules.encounter import AnyEncounter
from rules.mentions import mentions
from rules.registry import get_system
from rules.system import LAST_ROLL, RuleSystem
from rules.visibility import Viewer

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
        "RollInitiative",  # everyone's initiative, and the order sorted by it
        "SortInitiative",
        "Commands",  # several of the GM's changes as one (a tuned fight)
    }
)

# Whom the core's commands a player may give act for (see ``RuleSystem.command_actors``).
CORE_ACTORS: dict[type, str] = {
    AddCondition: "combatant_id",
    RemoveCondition: "combatant_id",
    AddNote: "combatant_id",
    SetInitiative: "combatant_id",  # a player rolls (or gives) their own
    PassTurn: "combatant_id",  # a player ends their own turn (a table setting may not let them)
}


def actors(system: RuleSystem, command: object) -> set[str] | None:
    """Whom a command acts for, as declared; an empty set for the last roll's (or a declared
    field left empty); None when nothing declares it: the GM's alone."""
    kind = type(command)
    declared = CORE_ACTORS.get(kind) or system.command_actors.get(kind)
    if not declared:
        return None
    value = getattr(command, declared, None) if declared != LAST_ROLL else None
    if isinstance(value, str) and value:
        return {value}
    if isinstance(value, tuple):
        return set(value)
    return set()


def refusal(state: AnyEncounter, viewer: Viewer, command: object) -> str | None:
    """Why ``viewer`` may not give ``command`` now, or None when they may."""
    if viewer.is_gm:
        return None
    if viewer.role != "player":
        return "Spectators watch: they cannot change the encounter"
    if isinstance(command, RollDice):
        return _plain_dice(viewer, command)
    system = get_system(state.system)
    acting = actors(system, command)
    if type(command).__name__ in GM_COMMANDS or isinstance(command, system.gm_commands):
        return "Only the GM can do that"
    if acting is None:  # a command that says for whom it acts: the GM's
        return "Only the GM can do that"
    approvals = system.gm_approvals(command)
    if approvals:
        return f"Only the GM allows {' or '.join(approvals)}"
    hidden = {c.id for c in state.combatants if c.gm_only}
    named = mentions(command)
    if named & hidden or any(state.find(cid) is None for cid in named):
        return "No such combatant"
    if not acting:
        roll = state.last_roll
        if roll is None or not (mentions(roll) & viewer.assigned):
            return "Only the GM, or a player whose combatant made the last roll, can do that"
        return None
    if isinstance(command, PassTurn) and not acting <= viewer.assigned:
        names = ", ".join(sorted(state.name_of(cid) for cid in acting))
        return f"It is {names}'s turn, not yours: n ends your own turn when it comes"
    if not acting <= viewer.assigned:
        names = ", ".join(sorted(state.name_of(cid) for cid in acting - viewer.assigned))
        return f"You do not act for {names}"
    return None


def _plain_dice(viewer: Viewer, command: RollDice) -> str | None:
    """A player rolls plain dice for all to see, under their own name."""
    if command.hidden:
        return "Only the GM rolls hidden dice"
    if command.by != viewer.name:
        return f"You roll as {viewer.name}"
    return None


def may_undo(viewer: Viewer) -> bool:
    return viewer.is_gm
