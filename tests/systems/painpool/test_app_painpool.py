"""Pain Pool in the app, played by keys; assertions read the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from rules.dice import ScriptedDice, SeededDice
from rules.engine import new_encounter
from rules.history import History
from rules.systems.painpool.demo import build as painpool_demo
from tests.app.support import until
from tests.app.test_layout import open_roll_dialog
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.summary import SummaryScreen
from tracker.session import EncounterSession
from tracker.store import storage

BIG = (120, 40)

# Dice, in the order the rules roll them (Power, Precision, Possibility, then Pain):
MANEUVER = [7, 1, 2, 5, 3, 1, 3, 2, 2, 1]  # 7 + 5 + 3 = 15 vs 2 + 2 + 1 = 5: success
ATTACK = [3, 1, 4, 2, 1, 3, 1, 2, 6, 5, 3]  # 4 + 3 + 2 = 9 vs 14: failure, Pain dominates
DESPAIR = [1, 1, 2]  # the Pain Pool again: 4, so the 14 is kept
HOPE = [4, 1]  # Possibility again: 4, so 4 + 3 + 4 = 11 vs 14: failure by 3
FINISH = [8, 2, 6, 4, 1, 1, 1]  # 8 + 6 + 4 = 18 vs 3: success by 15


def make_app(tmp_path: Path, dice=None, history: History | None = None) -> TrackerApp:
    history = history or History(new_encounter("Bridge", "painpool"))
    session = EncounterSession(history, dice or SeededDice(1), tmp_path / "bridge.fight")
    return TrackerApp(session, saves=tmp_path)


async def menu(pilot, index: int) -> None:
    """Open the s menu and choose the action at ``index`` (0: the roll)."""
    await pilot.press("s", *(["down"] * index), "enter")
    await pilot.pause()


@pytest.mark.slow
async def test_a_challenge_from_intent_to_passed_by_keys(tmp_path: Path) -> None:
    dice = ScriptedDice(MANEUVER + ATTACK + DESPAIR + HOPE + FINISH)
    app = make_app(tmp_path, dice)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        # A hero (the default sheet of a): name, side, then six Tabs to the boons.
        await pilot.press("a", *"Bo", "tab", *"pc", *["tab"] * 6)
        await pilot.press(*"Aim +2d pre;Wit +1d pos;Arm +1d pow", "enter")
        await pilot.pause()
        assert "Boons 4/4" in screen_text(app)

        # A challenge, from the system menu: name, Pain Pool dice, health tokens.
        await menu(pilot, 1)
        await pilot.press(*"Ogre", "tab", "3", "tab", "4", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Pain 3d6" in text and "Health 4/4" in text
        assert "Despair 0 · Hope 0" in text

        # A maneuver: intent, then the Action choice.
        await pilot.press("r", *"weak spot", "tab", "right")
        await pilot.pause()
        assert "Bo: Pow 2d8, Pre 3d6, Pos 2d4 vs Ogre: Pain 3d6" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Bo vs Ogre (maneuver) intent: weak spot" in text
        assert "15 vs 5 SUCCESS (Best outcome) difference +10" in text
        assert "Power dominates: brute force" in text
        await pilot.press("d")
        await pilot.pause()
        assert "Bo holds a bonus die from weak spot" in screen_text(app)

        # An attack: failure levels (harm), the bonus die on Power.
        await pilot.press("r", *"smash", "tab", "tab", "tab", "right")
        await pilot.press("tab", "tab", "tab", "tab", "right")
        await pilot.pause()
        assert "Pow 3d8" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Power 3d8: 3 1 [4]" in text
        assert "Ogre Pain 3d6 (pool 3): [6] [5] [3] → 6 + 5 + 3 = 14" in text
        assert "9 vs 14 FAILURE (Worst outcome) difference -5" in text
        assert "The GM gains a Despair token" in text
        assert "Despair 1 · Hope 0" in text

        # The GM spends Despair: the Pain Pool is rolled again, the higher total stays.
        await menu(pilot, 3)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "GM spends Despair: the players gain a Hope token" in text
        assert "Despair re-roll: 1 1 2" in text
        assert "Despair 0 · Hope 1" in text

        # Hope: re-roll Possibility only (the other two set to No), keeping the higher.
        await menu(pilot, 4)
        await pilot.press("shift+tab", "shift+tab", "right", "shift+tab", "right")
        await pilot.pause()
        assert "Re-roll Possibility; each keeps the higher die" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Bo spends Hope: re-roll, each pool keeps the higher" in text
        assert "11 vs 14 FAILURE (Worst outcome) difference -3" in text
        assert "Despair 0 · Hope 0" in text

        # d opens Take damage, where the player crosses off Aim 2, Wit 1.
        assert "waiting (d): Bo takes 3 failure levels" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert "Take damage" in screen_text(app)
        await pilot.press("2", "tab", "1")
        await pilot.pause()
        assert "Bo takes 3 failure levels: 3 of 3 assigned" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Bo takes failure levels: Aim -2, Wit -1" in text
        assert "Impacted Boon" not in text  # failure levels impact no boon; damage does
        assert "Boons 1/4" in text

        # The crossed-off boons drop out of the next roll, which passes the challenge.
        app.clear_notifications()  # the toasts would cover the dialog's preview line
        await pilot.press("r")
        await pilot.pause()
        assert "Bo: Pow 2d8, Pre 1d6, Pos 1d4 vs Ogre: Pain 3d6" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        text = screen_text(app)
        assert "Ogre loses 4 health tokens: 0 left" in text
        assert "the challenge is passed!" in text
        assert "passed" in text
        # The fight is over: its summary opens by itself, once.
        assert isinstance(app.screen, SummaryScreen)
        assert "Fight over: pc won" in text and "✗ passed" in text
        await pilot.press("escape")
        await pilot.pause()

        # The end of the scene gives the failure levels back.
        await menu(pilot, 5)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Bo recovers Aim +2, Wit +1" in text
        assert "Boons 4/4" in text
        assert dice.remaining == 0
        state = app.session.state
    assert storage.read(tmp_path / "bridge.fight").state == state


async def test_the_demo_opens_mid_challenge(tmp_path: Path) -> None:
    app = make_app(tmp_path, history=painpool_demo())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for part in ("The Juggernaut's Bridge", "Pain Pool", "Bullet", "Juggernaut"):
            assert part in text
        assert "Health 7/8" in text
        assert "Round 2  ·  Despair 0 · Hope 1" in text


async def test_rolling_without_a_challenge_says_why(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert "needs a hero: add one with a" in screen_text(app)
        await pilot.press("a", *"Vex", "enter")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert "needs a challenge with health" in screen_text(app)


async def test_the_hope_and_despair_dialogs_show_the_odds_on_the_rolled_dice(
    tmp_path: Path,
) -> None:
    from rules.systems.painpool.events import SpendDespair
    from rules.systems.painpool.system import SYSTEM
    from tests.helpers import run
    from tests.systems.painpool.challenge import fight, roll
    from tracker.widgets.odds_table import percent

    history = fight()
    roll(history, [3, 2, 1, 6, 5, 3])  # 3 + 2 + 1 = 6 vs 14: Pain dominates, Despair 1
    run(history, SpendDespair(), ScriptedDice([1, 1, 2]))  # 14 stays; Hope 1
    state = history.state
    every_pool = {
        "mode": "reroll", "reroll_power": "yes", "reroll_precision": "yes",
        "reroll_possibility": "yes", "raise_by": "1",
    }  # fmt: skip
    hope = SYSTEM.odds(state, "hope", every_pool)
    no_precision = SYSTEM.odds(state, "hope", every_pool | {"reroll_precision": "no"})
    assert hope is not None and no_precision is not None
    best, worst = percent(float(hope.tiers[0].p)), percent(float(hope.tiers[2].p))
    assert best != percent(float(no_precision.tiers[0].p))
    app = make_app(tmp_path, history=history)
    async with app.run_test(size=BIG) as pilot:
        await menu(pilot, 4)  # Spend Hope: every pool re-rolled by default
        await until(pilot, lambda: best in screen_text(app), "the dialog's odds")
        text = screen_text(app)
        assert "Odds before the dice" in text
        assert best in text and worst in text
        assert hope.extra["note"] in text  # the damage line: 3 chance, mean, most
        await pilot.press("shift+tab", "shift+tab", "right")  # Precision: No
        changed = percent(float(no_precision.tiers[0].p))
        await until(pilot, lambda: changed in screen_text(app), "the odds to follow")


async def test_a_bonus_die_given_to_another_hero_by_keys(tmp_path: Path) -> None:
    from rules.commands import AddCombatant
    from rules.engine import decide
    from rules.systems.painpool.sheet import HeldBonus, HeroSheet

    history = History(new_encounter("Bridge", "painpool"))
    for name, sheet in (
        ("Prof", HeroSheet(held=(HeldBonus(name="armour weak"),))),
        ("Bullet", HeroSheet()),
    ):
        history.commit(decide(history.state, AddCombatant(name=name, sheet=sheet), None))
    app = make_app(tmp_path, history=history)
    async with app.run_test(size=(80, 24)) as pilot:
        await menu(pilot, 6)  # Give or drop a bonus die
        text = screen_text(app)
        assert "Prof: armour weak" in text and "nobody: the situation ended it" in text
        await pilot.press("tab", "right", "right", "enter")  # Give to: Bullet
        await pilot.pause()
        assert "Prof holds armour weak: gives it to Bullet" in screen_text(app)
        held = [c.sheet.held for c in app.session.state.combatants]
        assert held == [(), (HeldBonus(name="armour weak"),)]


async def test_extra_pain_dice_are_typed_in_dice_notation_by_keys(tmp_path: Path) -> None:
    """The roll dialog's "Extra pain dice" takes ``2d6`` as typed (a number-only field kept
    the digits alone, ``26``), and a value it cannot read is refused, saying so."""
    session = EncounterSession(painpool_demo(), SeededDice(3), tmp_path / "bridge.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_roll_dialog(pilot)
        field = dialog.query_one("#field-pain_extra", Input)
        field.focus()
        await pilot.press("home", "ctrl+k", *"2d6")
        await until(pilot, lambda: field.value == "2d6", "2d6 typed as it is")
        await pilot.press("home", "ctrl+k", *"2d8", "enter")
        await until(pilot, lambda: "Extra pain dice: " in screen_text(app), "the refusal")
        assert app.screen is dialog
