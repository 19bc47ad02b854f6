"""The saves browser (ctrl+o): listing, filtering by typing, opening, and bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from rules.registry import get_system
from rules.systems.livehack.demo import build as livehack_demo
from tests.app.support import until
from tests.helpers import run
from tests.screen import screen_text
from tracker import storage
from tracker.app import TrackerApp
from tracker.demos import DEMOS
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
        await until(pilot, lambda: "not a combat tracker save" in screen_text(app), "the list")
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
        await until(pilot, lambda: "not a combat tracker save" in screen_text(app), "the list")
        await pilot.press(*"broken", "enter")
        await pilot.pause()
        assert "Cannot open" in screen_text(app)
        assert "⚔ Crypt" in screen_text(app)
    assert bad.read_bytes() == b"not a save"


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_a_demo_and_its_copy_are_told_apart_and_the_file_fits(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    demo = tmp_path / "demo-livehack.fight"
    storage.write(demo, livehack_demo())
    # Another system's demo beside it: the one whose system's title is longest, cut short at 80.
    stem, build = max(
        ((s, b) for s, b in DEMOS.items() if b().state.system != livehack_demo().state.system),
        key=lambda demo: len(get_system(demo[1]().state.system).title),
    )
    other = build().state
    title = get_system(other.system).title
    storage.write(tmp_path / f"{stem}.fight", build())
    opened = storage.play_copy_of_demo(demo, tmp_path)
    assert opened.path.name == "goblin-warren.fight"
    saved(tmp_path, "Goblin Warren", ["Ann"])  # the same name, not a copy: no mark
    session = EncounterSession(opened.history, SeededDice(1), opened.path)
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("ctrl+o")
        await until(pilot, lambda: screen_text(app).count(".fight") >= 4, "the list")
        rows = {line.split("█")[1].strip() for line in screen_text(app).splitlines() if "█" in line}
        found = {row for row in rows if ".fight" in row}
        assert any("Goblin Warren  (demo)" in r and "demo-livehack.fight" in r for r in found)
        assert any(
            "Goblin Warren  (copy of demo)" in r and r.endswith("goblin-warren.fight")
            for r in found
        )
        assert any(r.endswith("goblin-warren-2.fight") and "(" not in r for r in found)
        assert any(f"{other.name}  (demo)" in r and f"{stem}.fight" in r for r in found)
        assert any(title[:16] in r for r in found)  # the system, cut short if need be
        if size[0] >= 160:
            assert any(title in r and "Last change" not in r for r in found)
            assert "Last change" in screen_text(app) and "Size" in screen_text(app)
        await pilot.press(*"copy")  # the marks can be searched too
        await pilot.pause()
        text = screen_text(app)
        assert "goblin-warren.fight" in text and "demo-livehack.fight" not in text
