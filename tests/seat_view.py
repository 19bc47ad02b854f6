"""A log line as a player's seat reads it: the event described on the seat's view of the
state (rules.visibility.sight), where a banded side's numbers are veiled (rules.hp_view)."""

from __future__ import annotations

from rules.commands import SetOption
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.history import History
from rules.registry import get_system
from rules.visibility import GM, Viewer, sight

PLAYER = Viewer(role="player", name="Alice")


def banded(history: History, side: str = "foes") -> History:
    """The history with ``side``'s hit points shown to the seats as a band (`:hp SIDE band`)."""
    history.commit(decide(history.state, SetOption("hp-view", f"band {side}"), ScriptedDice([])))
    return history


def seat_line(history: History, event: object, gm: bool = False) -> str:
    """``event``'s log text as a player's seat (or the GM) reads it, on the state now."""
    state = sight(history.state, GM if gm else PLAYER).state
    return get_system(state.system).describe(state, event).plain
