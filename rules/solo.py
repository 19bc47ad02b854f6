"""Solo play: the tracker makes the choices of the sides it plays, by a policy per combatant.

A system that supports solo play offers ``solo_policies`` (the first is the default) and a
``solo_move(state)`` hook: the next choice some combatant of a solo side must make now (its
attack on its turn, a defence, a goal, a token to spend, ending its turn...), or None when
nothing is waiting on the tracker; once the fight is over (``rules.outcome``) it is not asked.
Policies are deterministic functions of the state, so a replay needs no randomness beyond the
dice the moves' commands roll (which the events record).

After every command the user runs, ``respond`` plays every waiting move, each logged as a
``SoloChose`` line with the policy and the reason, followed by the move's own events. The
user's command and the tracker's answer form one record, so one undo takes back both.
"""

from __future__ import annotations

from typing import Any

from rules.dice import DiceSource
from rules.encounter import AnyEncounter, Combatant, Event
from rules.engine import apply, decide
from rules.errors import Rejected
from rules.events import NoteAdded, SoloChose
from rules.outcome import outcome
from rules.registry import get_system
from rules.system import Move, Policy, policy_among

__all__ = [
    "Move",
    "Policy",
    "choices_events",
    "fill",
    "next_move",
    "policy_of",
    "respond",
]

MOVES_PER_COMMAND = 60  # a guard: a policy that never settles must not hang the app


def policy_of(state: AnyEncounter, combatant: Combatant[Any]) -> str:
    """The policy a combatant is played by: its own, else the system's default."""
    return policy_among(get_system(state.system).solo_policies, combatant)


def next_move(state: AnyEncounter) -> Move | None:
    """The next move of a solo side; none once the fight is over (``rules.outcome``): the
    tracker neither plays on past the end nor passes the turns of those left."""
    if not state.solo_sides or outcome(state).over:
        return None
    return get_system(state.system).solo_move(state)


def respond(state: AnyEncounter, dice: DiceSource) -> list[Event]:
    """Every move the solo sides make now, as events (empty when nothing waits on them)."""
    events: list[Event] = []
    for _ in range(MOVES_PER_COMMAND):
        move = next_move(state)
        if move is None:
            return events
        actor = state.combatant(move.actor_id)
        chose = SoloChose(actor.id, policy_of(state, actor), move.reason)
        try:
            decided = decide(state, move.command, dice)
        except Rejected as exc:
            # A policy that asks for something the rules refuse is a bug in the policy; stop
            # and say so in the log rather than loop or lose the user's own command.
            note = NoteAdded(f"The tracker could not play {actor.name}: {exc}", actor.id)
            return [*events, note]
        for event in (chose, *decided):
            events.append(event)
            state = apply(state, event)
    stuck = "The tracker stopped after many moves in a row; play on by hand or undo"
    return [*events, NoteAdded(stuck)]


def fill(
    state: AnyEncounter, action: str, values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    """A user's dialog values with the solo combatants' fields chosen by their policies.

    Returns the values to use and one Move (its command None) per choice, to be logged.
    """
    if not state.solo_sides:
        return dict(values), []
    filled, moves = get_system(state.system).solo_fill(state, action, dict(values))
    return dict(filled), list(moves)


def preview_line(state: AnyEncounter, moves: list[Move], line: str) -> str:
    """A dialog's preview with what the solo combatants chose first, one per line."""
    chose = [
        f"⚙ {state.name_of(m.actor_id)} ({policy_of(state, state.combatant(m.actor_id))}): "
        f"{m.reason}"
        for m in moves
    ]
    return "\n".join([*chose, line] if line else chose)


def choices_events(state: AnyEncounter, moves: list[Move]) -> list[SoloChose]:
    """The log lines for choices made inside a user's command (see ``fill``)."""
    return [
        SoloChose(move.actor_id, policy_of(state, state.combatant(move.actor_id)), move.reason)
        for move in moves
    ]
