"""The saves browser (ctrl+o): listing, filtering by typing, opening, and bad files."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant
from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tests.helpers import run
from tests.screen import screen_text
from tracker import storage
from tracker.app import TrackerApp
from tracker.session import EncounterSession


def saved(folder: Path, name: str, people: list[str]) -> Path:
    history = History(new_encounter(name, "livehack"))
    for person in people:
        run(history, AddCombatant(name=person))
    path = storage.free_path(folder, name)
    storage.write(path, history)
    return path


async def test_browse_filter_and_open(tmp_path: Path) -> None:
    current = saved(tmp_path, "Bridge", ["Ann"])
    saved(tmp_path, "Crypt", ["Ghoul", "Wight"])
    bad = tmp_path / "broken.fight"
    bad.write_bytes(b"not a save")
    session = EncounterSession(storage.read(current), SeededDice(1), current)
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause(0.3)
        text = screen_text(app)
        assert "Bridge" in text and "Crypt" in text and "LiveHack" in text
        assert "not a combat tracker save" in text  # the bad file says what is wrong
        await pilot.press(*"cry")
        await pilot.pause()
        text = screen_text(app)
        assert "Crypt" in text and "Bridge" not in text
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "⚔ Crypt" in text and "Wight" in text
        assert app.session.path == tmp_path / "crypt.fight"

        await pilot.press("ctrl+o")
        await pilot.pause(0.3)
        await pilot.press(*"broken", "enter")
        await pilot.pause()
        assert "Cannot open" in screen_text(app)
        assert "⚔ Crypt" in screen_text(app)
    assert bad.read_bytes() == b"not a save"
