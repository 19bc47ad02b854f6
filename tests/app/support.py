"""What the app's tests share: a small app on a blank or given encounter, and adding by keys."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.command import CommandList, CommandPalette

from rules.dice import DiceSource, ScriptedDice, SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from tests.picks import a_system, keeps_added_order
from tracker.app import TrackerApp
from tracker.session import EncounterSession

BIG = (120, 40)
# Seconds a test waits for the app to reach a state before it fails: generous, as a loaded
# machine (bench/load.py) may take many times longer than a quiet one; a passing test never
# waits it out.
PATIENCE = 60.0


def make_app(
    tmp_path: Path, dice: DiceSource | None = None, history: History | None = None
) -> TrackerApp:
    # By default a system whose turns follow the order combatants are added in: the app's own
    # keys (n, u, K...) are what most callers test.
    history = history or History(new_encounter("Cellar", a_system(keeps_added_order)))
    session = EncounterSession(history, dice or SeededDice(1), tmp_path / "cellar.fight")
    return TrackerApp(session, saves=tmp_path)


def fight_of(system: str, *commands: object) -> History:
    """A new encounter named Pit in ``system``, with ``commands`` given (they roll no dice)."""
    history = History(new_encounter("Pit", system))
    for command in commands:
        history.commit(decide(history.state, command, ScriptedDice([])))
    return history


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
    post_keys(pilot, *keys)
    await burst_handled(pilot)


def post_keys(pilot: Any, *keys: str) -> None:
    """The burst put in the app's queue, without waiting for any of it to be handled."""
    for key in keys:
        character = CHARACTERS.get(key, key if len(key) == 1 else None)
        pilot.app.post_message(events.Key(key, character))


async def until(pilot: Any, condition: Callable[[], object], what: str = "") -> None:
    """Let the app run until ``condition()`` holds; fails after PATIENCE seconds. A test waits
    on what the app does this way, never on a number of pauses or a sleep."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {PATIENCE:g} s in vain{': ' + what if what else ''}")
        await pilot.pause()
    await pilot.pause()  # and let the screen show it


async def burst_handled(pilot: Any) -> None:
    """Wait until every key put in the app's queue has been seen through
    (tracker.terminal.typed_keys): what they set off has run, and the screen they opened is up."""
    keys = pilot.app.typed_keys
    await pilot.pause()  # the keys are posted: let the app read them
    await until(pilot, lambda: not (keys.held or keys.busy), "typed keys still on their way")


async def from_palette(pilot: Any, query: str) -> None:
    """``ctrl+p``, ``query`` typed, then Enter on its first hit once the palette (which searches
    in the background) shows one."""
    app = pilot.app
    await pilot.press("ctrl+p", *query)

    def hits() -> bool:
        screen = app.screen
        return isinstance(screen, CommandPalette) and screen.query_one(CommandList).option_count > 0

    await until(pilot, hits, f"the palette's hits for {query!r}")
    await pilot.press("enter")


def keys_of(text: str) -> list[str]:
    """The key names that type ``text`` (a space is "space", a colon "colon")."""
    names = {character: name for name, character in CHARACTERS.items()}
    return [names.get(character, character) for character in text]
