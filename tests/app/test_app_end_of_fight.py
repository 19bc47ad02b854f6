"""The end of a fight in the app, at 80x24, in each system: the last blow by keys (t, Enter,
Enter), then Fight over in the header, the summary opening by itself with its figures, ✗ and
the word in the combatants pane, n refused then confirmed, t refused, f and the palette."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from pathlib import Path

import pytest
from _pytest.mark import ParameterSet

from rules import registry
from rules.dice import ScriptedDice
from rules.history import History
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.summary import SummaryScreen
from tracker.session import EncounterSession

SMALL = (80, 24)


def last_blows() -> list[ParameterSet]:
    """Each registered system's last blow, from its tests folder: ``last_blow.py`` holds
    ``LAST_BLOW``, (a builder of the fight before the last blow, the blow's dice, the word for
    the fallen Goblin, the figures of the summary: Orla's dealt, the unit, and the rolls of the
    blow)."""
    found = []
    for name in registry.names():
        try:
            module = import_module(f"tests.systems.{name}.last_blow")
        except ModuleNotFoundError as exc:
            # A system with no tests folder of its own (the doc's example) has no last blow.
            if exc.name not in (f"tests.systems.{name}", f"tests.systems.{name}.last_blow"):
                raise
            continue
        found.append(pytest.param(*module.LAST_BLOW, id=name))
    return found


def make_app(tmp_path: Path, history: History, faces: tuple[int, ...]) -> TrackerApp:
    session = EncounterSession(history, ScriptedDice(list(faces)), tmp_path / "pit.fight")
    return TrackerApp(session, saves=tmp_path)


def row_of(app: TrackerApp, name: str, frame: str = "┃") -> str:
    """The row naming ``name`` in the pane (┃) or the summary dialog (█), spaces squeezed."""
    rows = (line for line in screen_text(app).splitlines() if line.startswith(frame))
    return " ".join(next(line for line in rows if f" {name} " in line).split())


def notices(app: TrackerApp) -> str:
    """The notifications shown now, whole (a toast wraps its lines at 80 columns)."""
    return "\n".join(notice.message for notice in app._notifications)  # private, tests only


@pytest.mark.parametrize(("build", "faces", "word", "dealt", "unit", "rolls"), last_blows())
async def test_the_last_blow_by_keys_ends_the_fight(
    tmp_path: Path,
    build: Callable[[], History],
    faces: tuple[int, ...],
    word: str,
    dealt: str,
    unit: str,
    rolls: int,
) -> None:
    app = make_app(tmp_path, build(), faces)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("t", "enter")  # the quick turn: Orla against the Goblin, rolled
        await pilot.pause()
        assert "Fight over" not in screen_text(app)  # not before the blow lands
        await pilot.press("enter", *(("d",) if rolls == 2 else ()))  # applied
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)  # by itself, once
        app.clear_notifications()  # the blow's alerts would cover the summary's last lines
        await pilot.pause()
        text = screen_text(app)
        assert "Fight over: party won" in text
        over = f"over {rolls} roll{'s' if rolls > 1 else ''}"
        assert f"1 round · {over[5:]} · damage in {unit}" in text
        # Out, dealt, taken, rolls, then the sheet's own stats.
        assert row_of(app, "Orla", "█").startswith(f"█ Orla party in {dealt} 0 {rolls} ")
        goblin = f"█ Goblin foes ✗ {word} 0 {dealt} {rolls} "
        assert row_of(app, "Goblin", "█").startswith(goblin)
        assert "party: " in text and f"(luckier than the odds), {over}" in text
        assert "foes: " in text and f"(unluckier than the odds), {over}" in text

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        text = screen_text(app)
        assert "Fight over: party won" in text.splitlines()[0]  # the header
        assert f"✗ {word}" in row_of(app, "Goblin") and "✗" in row_of(app, "Goblin")
        await pilot.press("f")  # the summary again, whenever asked
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
