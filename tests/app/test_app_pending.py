"""No result silently dropped, by keys at 80x24: a result still waiting to be applied is
shown, and ending a turn or starting a roll over it asks first (d applies, x discards with a
line in the log, Esc changes nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import registry
from rules.dice import SeededDice
from rules.events import ConsequenceDiscarded
from rules.history import History
from tests.app.support import until
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.waiting import WaitingScreen
from tracker.session import EncounterSession

SMALL = (80, 24)

# Each demo with a result waiting: the dice seed and the keys that leave one unapplied.
WAITING: dict[str, tuple[int, tuple[str, ...]]] = {
    # Orla hits; Esc skips its damage roll (which hits in turn: its table row then waits).
    "livehack": (15, ("t", "enter", "escape")),
    "painpool": (7, ("t", "enter", "escape")),  # tokens off the Juggernaut wait
    "beerrun": (1, ()),  # the demo's round is rolled, its successes not landed
    "fatigue": (1, ()),  # the demo ends on Mara's Bad defense, unpaid
}


def make_app(tmp_path: Path, history: History, seed: int) -> TrackerApp:
    session = EncounterSession(history, SeededDice(seed), tmp_path / "waiting.fight")
    return TrackerApp(session, saves=tmp_path)


def demo_app(tmp_path: Path, system: str) -> tuple[TrackerApp, tuple[str, ...]]:
    seed, keys = WAITING[system]
    demo = registry.part(system, "demo")
    assert demo is not None
    return make_app(tmp_path, demo.build(), seed), keys


def discards(app: TrackerApp) -> list[ConsequenceDiscarded]:
    events = app.session.history.effective_events()
    return [e for e in events if isinstance(e, ConsequenceDiscarded)]


def where(app: TrackerApp) -> tuple[int, str | None]:
    state = app.session.state
    return state.round, state.current_id


async def menu(pilot, index: int) -> None:  # type: ignore[no-untyped-def]
    """The s menu, the action at ``index`` (0: the roll) chosen."""
    await pilot.press("s")
    await pilot.pause()
    await pilot.press(*["down"] * index, "enter")
    await pilot.pause()


async def answer_every_question(pilot, app: TrackerApp, key: str) -> int:  # type: ignore[no-untyped-def]
    """Press ``key`` while a question is open (one per waiting result); how many there were."""
    asked = 0
    while isinstance(app.screen, WaitingScreen):
        asked += 1
        assert asked < 10, "the question keeps coming back"
        await pilot.press(key)
        await pilot.pause()
    return asked


@pytest.mark.parametrize("system", sorted(WAITING))
async def test_n_over_a_waiting_result_asks_and_esc_changes_nothing(
    tmp_path: Path, system: str
) -> None:
    app, keys = demo_app(tmp_path, system)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        waiting = app.session.system.pending(app.session.state)
        assert waiting, "the setting-up keys leave nothing waiting"
        assert "waiting (d): " in screen_text(app)  # the Consequences pane (and the header)
        before, records = app.session.state, len(app.session.history.records)
        await pilot.press("n")
        # A screen just pushed is blank until its first frame.
        await until(pilot, lambda: "Not applied yet" in screen_text(app), "the question")
        assert isinstance(app.screen, WaitingScreen)
        text = screen_text(app)
        assert waiting in text
        doing = "end the turn" if app.session.system.uses_turn_order else "end the round"
        assert f"Apply it before you {doing}?" in text
        assert "d / Enter: apply it    x: discard it    Esc: back" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert app.session.state == before
        assert len(app.session.history.records) == records
        assert "waiting (d): " in screen_text(app)


@pytest.mark.parametrize("system", sorted(WAITING))
async def test_d_in_the_question_applies_then_the_turn_ends(tmp_path: Path, system: str) -> None:
    app, keys = demo_app(tmp_path, system)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        turn = where(app)
        await pilot.press("n")
        await pilot.pause()
        assert await answer_every_question(pilot, app, "d") >= 1
        state = app.session.state
        assert where(app) != turn, "the turn (or round) did not end after applying"
        assert not discards(app)
        assert state.last_roll_applied and not state.last_roll_discarded
        assert app.session.system.pending(state) == ""
        assert "waiting (d): " not in screen_text(app)


@pytest.mark.parametrize("system", sorted(WAITING))
async def test_x_in_the_question_discards_with_a_line_in_the_log(
    tmp_path: Path, system: str
) -> None:
    app, keys = demo_app(tmp_path, system)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        waiting = app.session.system.pending(app.session.state)
        turn = where(app)
        await pilot.press("n")
        await pilot.pause()
        asked = await answer_every_question(pilot, app, "x")
        assert where(app) != turn, "the turn (or round) did not end after discarding"
        assert [d.what for d in discards(app)][:1] == [waiting] and len(discards(app)) == asked
        text = screen_text(app)
        assert "⊘ Discarded, not applied: " in text  # the log
        assert "(discarded)" in text  # the Consequences pane, where "(applied)" would be
        assert "waiting (d): " not in text
        assert app.session.state.last_roll_discarded


async def test_livehack_t_enter_esc_n_asks_about_the_skipped_hit(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path, "livehack")
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


async def test_a_new_roll_asks_first_and_esc_goes_back(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path, "fatigue")
    async with app.run_test(size=SMALL) as pilot:
        before = app.session.state
        for key in ("r", "t"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, WaitingScreen), key
            assert "Apply it before you roll again?" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
        assert app.session.state == before
        await pilot.press("r", "x")  # discarded: then the roll dialog opens
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert [d.what for d in discards(app)] == ["Mara pays for Bad defense"]


async def test_the_command_line_asks_too(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path, "fatigue")
    async with app.run_test(size=SMALL) as pilot:
        turn = where(app)
        await pilot.press(":", *"next", "enter")
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert "Apply it before you end the turn?" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert where(app) == turn
        await pilot.press(":", *"attack mara brute", "enter")
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert "Apply it before you roll again?" in screen_text(app)
        await pilot.press("d")  # paid: then the attack rolls
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        state = app.session.state
        assert state.last_roll.attacker.combatant_id == "c1"  # type: ignore[union-attr]
        assert not discards(app)


async def test_pain_pool_a_solo_answer_waits_for_its_damage_before_the_next_roll(
    tmp_path: Path,
) -> None:
    """The regression: after the solo Juggernaut strikes back, rolling for the Professor used
    to replace the open roll, and Bullet's 3 damage was never taken."""
    app, _ = demo_app(tmp_path, "painpool")
    app.session.dice = SeededDice(16)  # Bullet wins, then loses the Juggernaut's answer
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("S", "down", "right", "enter")  # the tracker plays the challenge
        await pilot.pause()
        await pilot.press("r", "enter", "d")  # Bullet's attack, applied: the answer comes
        await pilot.pause()
        assert app.session.system.pending(app.session.state) == "Bullet takes 3 damage"
        assert "waiting (d): Bullet takes 3" in screen_text(app)
        await pilot.press("down", "r")  # the Professor's turn to roll
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert "Bullet takes 3 damage" in screen_text(app)
        await pilot.press("d")  # applying it is choosing the boons: Take damage opens
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "Take damage" in screen_text(app)
        await pilot.press("2", "tab", "1", "enter")
        await pilot.pause()
        state = app.session.state
        assert state.last_roll_applied and app.session.system.pending(state) == ""
        assert isinstance(app.screen, FormScreen)  # then the roll dialog, for the Professor
        assert "Roll the pools" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.last_roll.hero_id == "c2"  # type: ignore[union-attr]
        bullet = app.session.state.combatant("c1").sheet
        assert sum(b.usable for b in bullet.boons) == 4  # 7 levels, less the 3 taken


async def test_livehack_a_damage_roll_follows_a_hit_without_a_question(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path, "livehack")
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
    app, _ = demo_app(tmp_path, "livehack")
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
    app, keys = demo_app(tmp_path, "livehack")
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
    app, keys = demo_app(tmp_path, "livehack")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await menu(pilot, 6)  # Grim test: a new last roll
        assert isinstance(app.screen, WaitingScreen)
        await pilot.press("escape")
        await menu(pilot, 2)  # Aid: a bonus to the aided's next roll, which asks then
        assert isinstance(app.screen, FormScreen)
        assert "Aid" in screen_text(app)
