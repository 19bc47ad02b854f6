"""Odds on screen: live in the roll dialog as values change, and beside the landed tier."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import SeededDice
from rules.errors import Rejected
from rules.outcome import summary_of
from tests.app.support import until
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.screens.form import FormScreen
from tracker.session import EncounterSession


def pane_text(screen: str, title: str) -> str:
    """One bordered pane's text, its wrapped lines joined: the columns under its title."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if f"╭─ {title}" in line)
    left = lines[top].index(f"╭─ {title}")
    right = lines[top].index("╮", left)
    inside = []
    for line in lines[top + 1 :]:
        cell = line[left : right + 1]
        if cell.startswith("╰"):
            break
        inside.append(cell.strip("│ "))
    return " ".join(part for part in inside if part)


def consequences(app: TrackerApp) -> str:
    """The Consequences pane's text, or nothing while the screen does not show it yet."""
    text = screen_text(app)
    return pane_text(text, "Consequences") if "╭─ Consequences" in text else ""


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_every_systems_odds_say_whose_they_are(tmp_path: Path, demo: str) -> None:
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "demo.fight")
    system = session.system
    if not system.has_odds:
        pytest.skip(f"{system.title} has no odds")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        last = system.last_odds(session.state)
        if last is not None:  # the last roll's chances, named
            assert last.whose
            await until(pilot, lambda: last.whose in consequences(app), "the last roll's chances")
        await pilot.press("r")
        if system.pending(session.state):  # the demo's last result waits: set it aside
            await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the roll dialog")
        dialog = app.screen
        assert isinstance(dialog, FormScreen)
        odds = system.odds(session.state, "roll", dialog.values())
        if odds is None:  # no odds for this roll (Beer Run's: the round's, every side's)
            return
        before = odds.whose
        await until(pilot, lambda: f"Odds before the dice: {before}" in screen_text(app), before)
        assert f"{before}, before the dice" in pane_text(screen_text(app), "Consequences")


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_odds_that_cannot_be_worked_out_leave_the_roll_shown_without_them(
    tmp_path: Path, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A system's last odds refused (too many possible totals: a sheet's dice from before they
    were checked) leave its roll drawn without chances, and the summary without luck: odds
    are shown beside a roll, never needed to open, replay or end a fight."""
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "demo.fight")
    system = session.system
    if system.landing(session.state) is None:
        pytest.skip(f"{demo}'s demo has no roll landed")

    def too_big(self: object, state: object) -> None:
        raise Rejected("too many possible totals to work out exactly")

    monkeypatch.setattr(type(system), "last_odds", too_big)
    landed = system.landing(session.state)
    assert landed is not None
    summary = summary_of(session.history)  # no luck, but every roll counted
    assert summary.rolls > 0
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: landed.summary[:20] in consequences(app), "the landed roll")
        await pilot.press("question_mark")  # the app still answers a key
        await until(pilot, lambda: "Esc or ? closes" in screen_text(app), "the help")
