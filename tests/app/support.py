"""What the app's tests share: a small app on a blank or given encounter, and adding by keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
