"""LiveHack in the app, played by keys; assertions read the screen as text."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant, AddCondition
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.livehack import LiveHackSheet
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.session import EncounterSession

BIG = (120, 40)


def make_app(tmp_path: Path, history: History, faces=()) -> TrackerApp:
    session = EncounterSession(history, ScriptedDice(faces), tmp_path / "fight.fight")
    return TrackerApp(session, saves=tmp_path)


def fight(*people: tuple[str, str, LiveHackSheet]) -> History:
    history = History(new_encounter("Pit", "livehack"))
    for name, side, sheet in people:
        history.commit(
            decide(
                history.state, AddCombatant(name=name, side=side, sheet=sheet), ScriptedDice([])
            ),
            f"add {name}",
        )
    return history


def rows(app: TrackerApp, name: str) -> str:
    return next(line for line in screen_text(app).splitlines() if f" {name} " in line)


async def test_who_cannot_act_is_flagged_in_the_turn_order(tmp_path: Path) -> None:
    history = fight(("Ann", "party", LiveHackSheet()), ("Bob", "foes", LiveHackSheet()))
    history.commit(decide(history.state, AddCondition("c2", "Dead"), ScriptedDice([])), "dead")
    app = make_app(tmp_path, history)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.pause()
        assert "✗" in rows(app, "Bob")
        assert "✗" not in rows(app, "Ann")
