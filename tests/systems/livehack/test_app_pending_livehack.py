"""LiveHack's waiting hit in the app, by keys at 80x24: its damage roll, and its table row, are
asked about before the turn ends; a damage roll may follow the hit; the replay shows a discard
(moved from tests/app/test_app_pending.py); a hit waiting on two lines of the header."""

from __future__ import annotations

from pathlib import Path

from rules.systems.livehack.demo import build as livehack_demo
from tests.app.support import until
from tests.app.test_app_pending import SMALL, discards, make_app
from tests.app.test_layout import resize
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.waiting import WaitingScreen


def demo_app(tmp_path: Path) -> tuple[TrackerApp, tuple[str, ...]]:
    """The demo, the dice seed and the keys that leave a result waiting."""
    # Orla hits; Esc skips its damage roll, which hits in turn.
    return make_app(tmp_path, livehack_demo(), 15), ("t", "enter", "escape")


async def menu(pilot, index: int) -> None:  # type: ignore[no-untyped-def]
    """The s menu, the action at ``index`` (0: the roll) chosen."""
    await pilot.press("s")
    await pilot.pause()
    await pilot.press(*["down"] * index, "enter")
    await pilot.pause()


async def test_livehack_t_enter_esc_n_asks_about_the_skipped_hit(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("t", "enter", "escape", "n")
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert app.session.state.current_id == "c1"  # Orla's turn has not ended
        text = screen_text(app)
        assert "Orla's damage roll on Goblin Sneak" in text
        assert "Apply it before you end the turn?" in text
        await pilot.press("enter")  # Enter rolls the damage roll, as in the quick turn
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)  # then asks about its table row
        assert "Goblin Sneak takes 2 Wounds, Discombobulated" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.current_id == "c2"
        assert app.session.state.last_roll_applied


async def test_livehack_a_damage_roll_follows_a_hit_without_a_question(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("t", "enter", "escape")  # Orla's hit on the Goblin Sneak waits
        await pilot.pause()
        hit = app.session.state.last_roll
        await pilot.press("r")  # the damage roll may follow: the dialog opens at once, on it
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "◀ Fortitude (damage) ▶" in screen_text(app)
        await pilot.press("shift+tab", "left", "enter")  # against Reflex: not the damage roll
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        await pilot.press("escape")  # back to the dialog, which says why it did not roll
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "Not applied yet: Orla's damage roll on Goblin" in screen_text(app)
        assert app.session.state.last_roll is hit
        await pilot.press("right", "enter")  # Against: Fortitude again
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        roll = app.session.state.last_roll
        assert roll is not hit and roll.defense == "fortitude"  # type: ignore[union-attr]
        assert not discards(app)


async def test_livehack_another_roll_over_a_hit_says_before_enter_that_it_asks(
    tmp_path: Path,
) -> None:
    app, _ = demo_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("t", "enter", "escape")  # Orla's hit on the Goblin Sneak waits
        await pilot.pause()
        hit = app.session.state.last_roll
        await pilot.press("r", "shift+tab", "left")  # Against: Reflex again, not the damage
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert app.screen.values()["defense"] == "reflex"
        assert "Not applied yet: Orla's damage roll" in screen_text(app)  # said at once
        assert "(Enter asks first)" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        await pilot.press("escape")  # back to the dialog
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert app.session.state.last_roll is hit


async def test_the_replay_shows_a_discard_like_any_event(tmp_path: Path) -> None:
    app, keys = demo_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys, "n", "x")  # Orla's hit set aside, then her turn ends
        await pilot.pause()
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("left")  # one event back from the end: the discard
        await pilot.pause()
        text = screen_text(app)
        assert "⊘ Discarded, not applied: Orla's" in text
        assert "(discarded)" in text
        await pilot.press("left")  # before it, the hit still waits
        await pilot.pause()
        text = screen_text(app)
        assert "not applied yet: Orla's damage roll" in text.splitlines()[1]  # the header
        assert "(d)" not in text  # read-only: no key applies it here


async def test_a_system_action_that_rolls_anew_asks_and_one_that_does_not_opens(
    tmp_path: Path,
) -> None:
    app, keys = demo_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await menu(pilot, 6)  # Grim test: a new last roll
        assert isinstance(app.screen, WaitingScreen)
        await pilot.press("escape")
        await menu(pilot, 2)  # Aid: a bonus to the aided's next roll, which asks then
        assert isinstance(app.screen, FormScreen)
        assert "Aid" in screen_text(app)


async def test_a_hit_waiting_on_two_lines_keeps_the_header_whole_at_80x24(
    tmp_path: Path,
) -> None:
    """A margin rolled over makes what waits too long for a line beside the turn clock: it
    wraps onto a third line of the header, and the encounter's name and the system's title
    stay on the first (before, both gave way to it, and it took three lines all the same)."""
    app = make_app(tmp_path, livehack_demo(), 2)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("n", "n", "n", "n")  # round 3, Orla's turn: the clock shows
        await pilot.press("t", "enter", "escape")  # her hit waits, margin rolled over
        waiting = "waiting (d): Orla's damage roll on Goblin Sneak (Fortitude, +1 rolled over)"
        await until(pilot, lambda: waiting in header(app), "the hit waiting")
        first = screen_text(app).splitlines()[0]
        assert "⚔ Goblin Warren  ·  LiveHack  ·  Round 3  ·  ▶ Orla's turn" in first
        assert "⏱" in first
        await resize(pilot, (120, 40))  # wide enough: one line for what waits
        await until(pilot, lambda: waiting in screen_text(app).splitlines()[1], "one line")
        assert "⚔ Goblin Warren  ·  LiveHack" in screen_text(app).splitlines()[0]


def header(app: TrackerApp) -> str:
    """The header's lines read as one (what waits, wrapped, in one piece)."""
    rows = screen_text(app).split("┏━ Combatants")[0].splitlines()
    return " ".join(row.strip() for row in rows)
