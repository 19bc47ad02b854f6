"""What the app's tests share: a small app on a blank or given encounter, and adding by keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events

from rules.dice import DiceSource, SeededDice
from rules.engine import new_encounter
from rules.history import History
from tracker.app import TrackerApp
from tracker.session import EncounterSession

BIG = (120, 40)


def make_app(
    tmp_path: Path, dice: DiceSource | None = None, history: History | None = None
) -> TrackerApp:
    history = history or History(new_encounter("Cellar", "livehack"))
    session = EncounterSession(history, dice or SeededDice(1), tmp_path / "cellar.fight")
    return TrackerApp(session, saves=tmp_path)


async def add_combatant(pilot: Any, name: str, side: str | None = None) -> None:
    await pilot.press("a")
    await pilot.press(*name)
    if side is not None:
        await pilot.press("tab", *side)
    await pilot.press("enter")
    await pilot.pause()


# What a key's event carries as its character, for the named keys a burst below may hold.
CHARACTERS = {"colon": ":", "space": " ", "enter": "\r", "escape": "\x1b", "question_mark": "?"}


async def press_at_once(pilot: Any, *keys: str) -> None:
    """The keys as a burst reaches the app from a terminal (a fast typist, a paste, tmux
    send-keys): all of them in its queue before it handles the first. ``Pilot.press`` waits
    for the app to be idle after each key, which no person at a keyboard does."""
    for key in keys:
        character = CHARACTERS.get(key, key if len(key) == 1 else None)
        pilot.app.post_message(events.Key(key, character))
    for _ in range(3):  # each key waits for the one before: let the whole burst through
        await pilot.pause()


def keys_of(text: str) -> list[str]:
    """The key names that type ``text`` (a space is "space", a colon "colon")."""
    names = {character: name for name, character in CHARACTERS.items()}
    return [names.get(character, character) for character in text]
