"""The contract's checks of solo play: the moves a system's policies make, and the roll
dialog they fill."""

from __future__ import annotations

from rules import solo
from rules.commands import SetSolo
from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import decide
from rules.errors import Rejected
from rules.events import NoteAdded, SoloChose
from rules.history import History
from rules.system import Move, RuleSystem

from .support import SEED, SOLO_TROUBLE, actor, check_save_round_trip, play, sides_of, values_of


def check_solo(system: RuleSystem, state: Encounter) -> list[object]:
    """``rules.solo.respond`` on a state with a solo side: every move a SoloChose line with a
    policy the system lists, then its events; nothing refused, no endless loop."""
    policies = {p.id for p in system.solo_policies}
    events = solo.respond(state, SeededDice(SEED + 2))
    assert isinstance(events, list)
    if not policies:
        assert events == [], f"{system.name} has no solo policies but made moves"
        assert system.solo_move(state) is None
        return events
    assert not events or isinstance(events[0], SoloChose), "a move starts with a SoloChose"
    for event in events:
        assert not (isinstance(event, NoteAdded) and event.text.startswith(SOLO_TROUBLE)), (
            event.text
        )
        if isinstance(event, SoloChose):
            assert event.policy in policies, f"a move by {event.policy!r}, not one of {policies}"
            assert event.reason.strip(), "a move with no reason"
            who = state.find(event.combatant_id)
            assert who is not None and state.is_solo(who), "a move for a combatant not solo"
        state = play(system, state, [event])
    return events


def check_solo_fill(system: RuleSystem, state: Encounter) -> None:
    """The roll dialog filled by the solo side's policies: values, and one Move per choice."""
    try:
        values = values_of(system.action_form(state, "roll", actor(state)))
    except Rejected:
        return
    filled, moves = solo.fill(state, "roll", values)
    assert isinstance(filled, dict) and all(isinstance(v, str) for v in filled.values())
    for move in moves:
        assert isinstance(move, Move) and move.command is None and move.reason.strip()
        who = state.find(move.actor_id)
        assert who is not None and state.is_solo(who), "a dialog choice for a combatant not solo"


def check_solo_sides(system: RuleSystem, history: History) -> list[str]:
    """Each side of the fight on solo in turn, from the history's state: the moves made are
    checked, saved and reopened, then undone with the side's solo. Returns the sides that
    moved."""
    moved = []
    state = history.state
    for side in sides_of(state):
        history.commit(decide(state, SetSolo(side), SeededDice(SEED)), f"solo {side}")
        events = check_solo(system, history.state)
        check_solo_fill(system, history.state)
        if events:
            moved.append(side)
            history.commit(events, "solo moves")
            check_save_round_trip(history)
            history.undo()
        history.undo()
        assert history.state == state
    return moved
