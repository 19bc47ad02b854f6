"""Solo play in the app, by keys only: the S dialog and the ⚙ marks (whole solo fights: each
system's folder)."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.registry import get_system
from tests.app.support import until
from tests.picks import a_system, plays_solo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.session import EncounterSession

BIG = (120, 40)


def history_of(system: str, people: list[tuple[str, str, object]]) -> History:
    history = History(new_encounter("Solo", system))
    for name, side, sheet in people:
        command = AddCombatant(name=name, side=side, sheet=sheet)
        history.commit(decide(history.state, command, ScriptedDice([])), f"add {name}")
    return history


def make_app(tmp_path: Path, history: History, dice) -> TrackerApp:
    session = EncounterSession(history, dice, tmp_path / "solo.fight")
    return TrackerApp(session, saves=tmp_path)


def cellar() -> History:
    """Two heroes and an Ogre, on blank sheets, in a system the tracker can play with more
    than one policy."""
    people = [("Orla", "heroes"), ("Brak", "heroes"), ("Ogre", "foes")]
    return history_of(a_system(plays_solo, many_policies), [(*p, None) for p in people])


async def solo_on(pilot, side_row: int, policy_steps: int = 0) -> None:
    """S, move to the side, turn it over to the tracker, pick a policy, Enter."""
    await pilot.press("S")
    await pilot.pause()
    await pilot.press(*(["down"] * side_row), "right")
    await pilot.pause()
    if policy_steps:
        await pilot.press("down", *(["right"] * policy_steps))
    await pilot.press("enter")
    await pilot.pause()


def many_policies(name: str) -> bool:
    return len(get_system(name).solo_policies) > 1


async def test_the_solo_dialog_turns_a_side_over_and_the_screen_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path, cellar(), SeededDice(5))
    second = app.session.system.solo_policies[1]
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("S")
        await pilot.pause()
        text = screen_text(app)
        assert "Solo play: the tracker plays a side" in text
        assert "Side heroes" in text and "Side foes" in text and "played by you" in text
        await pilot.press("down", "right")  # foes: played by the tracker; the Ogre's row shows
        await pilot.pause()
        assert "⚙ Ogre" in screen_text(app)
        await pilot.press("down", "right")  # the Ogre: its first policy → its second
        await pilot.pause()
        assert f"{second.title}: {second.description}"[:40] in screen_text(app)
        await pilot.press("enter")
        # The pane's widened Solo column is laid out on a later frame.
        await until(pilot, lambda: f"⚙ {second.id}" in screen_text(app), "the Solo column")
        text = screen_text(app)
        assert "⚙ solo: foes" in text  # the header
        ogre = next(line for line in text.splitlines() if " Ogre " in line)
        assert f"⚙ {second.id}" in ogre  # the combatants pane's Solo column
        assert "The tracker now plays the side foes" in text


async def test_the_solo_dialog_opens_and_closes_on_an_empty_encounter(tmp_path: Path) -> None:
    app = make_app(tmp_path, history_of(a_system(plays_solo), []), SeededDice(5))
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("S")
        await pilot.pause()
        assert "Solo play: the tracker plays a side" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "Solo play" not in screen_text(app)
