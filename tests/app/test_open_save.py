"""The saves browser (ctrl+o): listing, filtering by typing, opening, and bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.registry import get_system, part
from tests.app.support import until
from tests.picks import a_system, has_demo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.session import EncounterSession
from tracker.store import storage

# Each demo's file stem, by its system.
STEMS = {build().state.system: stem for stem, build in DEMOS.items()}


def saved(folder: Path, name: str, people: list[str]) -> Path:
    history = History(new_encounter(name, a_system()))
    for person in people:
        history.commit(decide(history.state, AddCombatant(name=person), ScriptedDice([])))
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
        assert "Bridge" in text and "Crypt" in text and get_system(a_system()).title in text
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
    mine = part(a_system(has_demo), "demo")
    assert mine is not None
    name, stem = mine.build().state.name, mine.STEM
    storage.write(tmp_path / f"{stem}.fight", mine.build())
    # Another system's demo beside it: the one whose system's title is longest, cut short at 80.
    others = [b for s, b in DEMOS.items() if s != stem]
    if not others:
        pytest.skip("a single system's demo: nothing to tell it apart from")
    build = max(others, key=lambda build: len(get_system(build().state.system).title))
    other = build().state
    title = get_system(other.system).title
    storage.write(tmp_path / f"{STEMS[other.system]}.fight", build())
    copy = storage.free_path(tmp_path, name).name
    opened = storage.play_copy_of_demo(tmp_path / f"{stem}.fight", tmp_path)
    assert opened.path.name == copy
    again = saved(tmp_path, name, ["Ann"]).name  # the same name, not a copy: no mark
    session = EncounterSession(opened.history, SeededDice(1), opened.path)
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("ctrl+o")
        await until(pilot, lambda: screen_text(app).count(".fight") >= 4, "the list")
        rows = {line.split("█")[1].strip() for line in screen_text(app).splitlines() if "█" in line}
        found = {row for row in rows if ".fight" in row}
        assert any(f"{name}  (demo)" in r and f"{stem}.fight" in r for r in found)
        assert any(f"{name}  (copy of demo)" in r and r.endswith(copy) for r in found)
        assert any(r.endswith(again) and "(" not in r for r in found)
        other_stem = STEMS[other.system]
        assert any(f"{other.name}  (demo)" in r and f"{other_stem}.fight" in r for r in found)
        assert any(title[:16] in r for r in found)  # the system, cut short if need be
        if size[0] >= 160:
            assert any(title in r and "Last change" not in r for r in found)
            assert "Last change" in screen_text(app) and "Size" in screen_text(app)
        await pilot.press(*"copy")  # the marks can be searched too
        await pilot.pause()
        text = screen_text(app)
        assert copy in text and f"{stem}.fight" not in text
