"""What a role may do: one place that answers it, asked by the session for every command.

The GM may do anything. A player acts only for the combatants assigned to them: a command
is theirs when the combatant it acts for, as its system declares (``command_actors``), is
assigned to them, or, for a command declared to act for the last roll's (apply the result,
spend Hope, take damage on one's boons...), when the last roll involved one of theirs. A
command nothing declares is the GM's, as is the running of the table (the roster, the
turn order, the GM's tokens). Plain dice are anyone's to roll but a spectator's, under the
player's own name; hidden dice the GM's alone. A spectator does nothing.

What the last roll left waiting is settled before a player's new roll or the end of their
turn: a player may not leave it behind (discarding it is the GM's), and is told so without
a word of it when it is a roll their seat may not see (``leaves_waiting``, ``_waiting``).
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
from rules.encounter import AnyEncounter, Event
from rules.errors import Rejected
from rules.mentions import mentions
from rules.registry import get_system
from rules.system import LAST_ROLL, LAST_ROLLER, RuleSystem
from rules.visibility import Viewer, sight

# What a player is told of a result waiting that their seat may not see (a GM-only
# combatant's roll): that one waits, and that the GM settles it; nothing of what it does.
GM_WAITING = "The GM has a result waiting: wait for the GM to settle it"
GM_SETTLES = "Only the GM settles a roll your seat does not see"

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


def declared_actor(system: RuleSystem, command: object) -> str:
    """What a command is declared to act for: a field's name, ``LAST_ROLL`` or
    ``LAST_ROLLER`` ("" when nothing declares it: the GM's alone)."""
    kind = type(command)
    return CORE_ACTORS.get(kind) or system.command_actors.get(kind) or ""


def actors(system: RuleSystem, command: object) -> set[str] | None:
    """Whom a command acts for, as declared; an empty set for the last roll's (or a declared
    field left empty); None when nothing declares it: the GM's alone."""
    declared = declared_actor(system, command)
    if not declared:
        return None
    by_roll = declared in (LAST_ROLL, LAST_ROLLER)
    value = None if by_roll else getattr(command, declared, None)
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
        unseen = state.last_roll is not None and mentions(state.last_roll) & hidden
        return GM_WAITING if unseen and system.pending(state) else "No such combatant"
    makes = declared_actor(system, command) == LAST_ROLLER
    if makes and not (system.roll_makers(state) & viewer.assigned):
        return "Only the GM, or the player whose combatant made the last roll, can do that"
    if not acting:
        roll = state.last_roll
        if roll is None or not (mentions(roll) & viewer.assigned):
            return "Only the GM, or a player whose combatant made the last roll, can do that"
        if mentions(roll) & hidden:  # a GM-only combatant's roll at theirs: unseen, the GM's
            return GM_WAITING if system.pending(state) else GM_SETTLES
        return None
    if isinstance(command, PassTurn) and not acting <= viewer.assigned:
        names = ", ".join(sorted(state.name_of(cid) for cid in acting))
        return f"It is {names}'s turn, not yours: n ends your own turn when it comes"
    if not acting <= viewer.assigned:
        names = ", ".join(sorted(state.name_of(cid) for cid in acting - viewer.assigned))
        return f"You do not act for {names}"
    if isinstance(command, PassTurn) and _passes_now(system, state, command):
        return _waiting(system, state, viewer, "end the turn")
    return None


def _passes_now(system: RuleSystem, state: AnyEncounter, command: PassTurn) -> bool:
    """Whether ``command`` would end the turn but for what the last roll left waiting (the
    rest ``rules.passing`` says itself: a system played in rounds, another's turn)."""
    return (
        system.uses_turn_order
        and state.current_id == command.combatant_id
        and bool(system.pending(state))
    )


def leaves_waiting(
    state: AnyEncounter, viewer: Viewer, command: object, events: list[Event]
) -> str | None:
    """Why ``viewer`` may not give ``command``, whose ``events`` make a new roll, while what
    the last roll left waiting still waits (a player's roll would leave it behind, unlogged:
    only the GM discards), or None when they may. Asked of the real state, after ``refusal``:
    a player's seat may not see what waits (a GM-only combatant's roll), so its own view
    cannot ask it. What applies the last roll, or carries it on (``RuleSystem.follow_up``, as
    LiveHack's damage roll after a hit), leaves nothing behind."""
    if viewer.is_gm:
        return None
    system = get_system(state.system)
    if not any(isinstance(event, system.roll_event_types) for event in events):
        return None
    if not system.pending(state) or _settles(system, state, command):
        return None
    if any(system.follow_up(state, action, command) for action in system.roll_actions):
        return None
    return _waiting(system, state, viewer, "roll")


def _settles(system: RuleSystem, state: AnyEncounter, command: object) -> bool:
    """Whether ``command`` acts on what the last roll left (applies it, pays it...)."""
    if declared_actor(system, command) in (LAST_ROLL, LAST_ROLLER):
        return True  # it acts for the last roll's: applies it, spends a token on it...
    try:
        return bool(command == system.consequence_command(state))  # what d gives: a save owed
    except Rejected:
        return False


def _waiting(system: RuleSystem, state: AnyEncounter, viewer: Viewer, then: str) -> str:
    """A player told that a result waits before they may ``then``: what it does as their seat
    sees it, and who settles it; of a result their seat may not see, nothing but that the GM
    has one."""
    shown = system.pending(sight(state, viewer).state)
    if not shown:
        return f"{GM_WAITING}, then {then}"
    if _may_apply(system, state, viewer):
        return f"Not applied yet: {shown}: apply it (d) before you {then}"
    return f"Not applied yet: {shown}: wait for the GM (or whoever rolled it) to apply it"


def _may_apply(system: RuleSystem, state: AnyEncounter, viewer: Viewer) -> bool:
    """Whether ``viewer`` may apply what waits (``d``)."""
    if system.pending_action(state):  # its dialog's command acts for the last roll's
        return bool(state.last_roll is not None and mentions(state.last_roll) & viewer.assigned)
    try:
        command = system.consequence_command(state)
    except Rejected:
        return False
    return refusal(state, viewer, command) is None


def _plain_dice(viewer: Viewer, command: RollDice) -> str | None:
    """A player rolls plain dice for all to see, under their own name."""
    if command.hidden:
        return "Only the GM rolls hidden dice"
    if command.by != viewer.name:
        return f"You roll as {viewer.name}"
    return None


def may_undo(viewer: Viewer) -> bool:
    return viewer.is_gm
