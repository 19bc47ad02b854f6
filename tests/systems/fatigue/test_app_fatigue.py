"""Fatigue & Thresholds in the app, by keys: pools drain, thresholds narrow, suckage and aid."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.fatigue.demo import build as fatigue_demo
from rules.systems.fatigue.sheet import FatigueSheet, Skill, Weapon
from rules.systems.fatigue.system import FatigueCheck, FatigueChecked
from tests.app.support import until
from tests.cli.support import tracker
from tests.screen import screen_text
from tests.systems.fatigue.duel import fight
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.session import EncounterSession

BIG = (120, 40)
SWORD = Weapon(name="Sword", kind="melee", n=3, fumble=8, hits=(10, 20, 40))


def make_app(tmp_path: Path, dice=None, history: History | None = None) -> TrackerApp:
    history = history or History(new_encounter("Bridge", "fatigue"))
    session = EncounterSession(history, dice or SeededDice(1), tmp_path / "bridge.fight")
    return TrackerApp(session, saves=tmp_path)


async def add_fighter(pilot, name: str, side: str, wind: str, skills: str, weapons: str) -> None:
    """The combatant dialog: name, side, hidden, notes, six pools, skills, weapons."""
    await pilot.press("a", *name, "tab", *side, "tab", "tab", "tab", *wind)
    await pilot.press(*["tab"] * 6, *skills, "tab", *weapons, "enter")
    await pilot.pause()


async def test_a_fighter_with_pools_skills_and_a_weapon_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_fighter(pilot, "Ann", "party", "30/40", "Sword 2", "Sword melee N3 F8 10/20/40")
        assert "▮▮▮▯ 30/40" in screen_text(app)
        ann = app.session.state.combatant("c1").sheet
        assert ann.skills == (Skill("Sword", 2),) and ann.weapons == (SWORD,)


def two_fighters() -> History:
    """Ann with a sword; Bob, already short of Wind (15/40), with Dodge and Tactics."""
    history = History(new_encounter("Bridge", "fatigue"))
    ann = FatigueSheet(skills=(Skill("Sword", 2),), weapons=(SWORD,))
    bob = FatigueSheet(wind=15, skills=(Skill("Dodge", 1), Skill("Tactics", 2)))
    for name, side, sheet in (("Ann", "party", ann), ("Bob", "foes", bob)):
        history.commit(decide(history.state, AddCombatant(name=name, side=side, sheet=sheet), None))
    return history


@pytest.mark.slow
async def test_a_fight_drains_wind_and_narrows_the_thresholds(tmp_path: Path) -> None:
    dice = ScriptedDice([15, 13, 3, 7, 18, 5, 15])
    app = make_app(tmp_path, dice, two_fighters())
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "▮▮▮▮ 40/40" in text and "▮▮▯▯ 15/40" in text and "2/0" in text

        # Check 1: Ann 15 + 2 = 17; Bob pays his 5 Wind first, then 13 + 1 - 3 (Wind 10/40)
        # = 11. Lost by 6 of 7: Ordinary.
        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Ann vs Bob 17 vs 11 Bob loses by 6: Ordinary defense" in text
        assert "Bob's thresholds 0/7/14/21/28" in text
        await pilot.press("d")  # 2N = 10 Wind: 15 - 5 - 10 = 0
        await pilot.pause()
        text = screen_text(app)
        assert "Bob pays 10 Wind for Ordinary defense" in text
        assert "Bob's Wind is empty" in text  # the notification
        assert "▯▯▯▯ 0/40" in text and "4/0" in text  # the bar and the penalties

        # Check 2: Ann rolls 3: 5 does not beat her fumble line 8, and the attack fails.
        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Ann FUMBLES: Flailing fumble, no effect" in text
        await pilot.press("d")  # 8N Wind + 2N Stamina with N = 3
        await pilot.pause()
        assert "Ann pays 24 Wind 6 Sta for Flailing fumble" in screen_text(app)

        # Check 3: Ann 18 + 2 - 3 = 17 against the empty-winded Bob 5 + 1 - 4 = 2.
        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Bob loses by 15: Bad defense" in text
        assert "0/6/12/18/24" in text  # narrowed: at 10 apart this would be Flailing
        app.clear_notifications()
        await pilot.pause()
        assert "◆ 12-17 Bad" in screen_text(app)  # the pane, under the notifications

        # Bob helps himself with Tactics: 15 + 2 = 17 of 30 is 56%: +3.
        await pilot.press("down", "s", "down", "down", "down", "enter")
        await pilot.pause()
        await pilot.press("shift+tab", "right", "tab", *"Tactics", "tab", "tab", *"2 Wit", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "17 of target 30 (max(30, 2)) = 56%: aid +3" in text
        roll = app.session.state.last_roll
        assert isinstance(roll, FatigueChecked) and roll.loss == 12

        # One suckage point lifts it over the 12 threshold, at a narrated cost.
        await pilot.press("s", "down", "enter")
        await pilot.pause()
        assert "lost by 12 -> 11: Flailing defense" in screen_text(app)  # the live preview
        await pilot.press("tab", *"kneels", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Bob takes 1 suckage point (kneels): lost by 12 -> 11" in text
        await pilot.press("d")
        await pilot.pause()
        text = screen_text(app)
        assert "Bob pays 50 Wind 10 Sta for Flailing defense" in text
        bob = app.session.state.combatant("c2").sheet
        # Wind stops at 0 (15 - 5 - 10 - 5 - 5 - 50 would be -60): the rest is not paid.
        assert (bob.wind, bob.stamina, bob.wit) == (0, 30, 28)


async def test_the_fatigue_demo_fits_80_columns(tmp_path: Path) -> None:
    app = make_app(tmp_path, history=fatigue_demo())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for part in ("Ironbridge Skirmish", "Round 2", "Mara", "Raider", "Consequences"):
            assert part in text
        assert "0/7/14/21/28" in text  # Mara's, at Wind 3/40 once her dodge is paid
        assert "▯▯▯▯ 0/40" in text


def test_the_bundled_demo_save_is_the_demo_mid_fight() -> None:
    from tracker.store import storage

    saved = storage.read(Path(__file__).parents[3] / "saves" / "demo-fatigue.fight")
    assert saved.state == fatigue_demo().state
    roll = saved.state.last_roll
    assert isinstance(roll, FatigueChecked) and not saved.state.last_roll_applied
    assert saved.state.round == 2 and roll.level is not None


async def test_calling_off_by_keys_outside_combat_only(tmp_path: Path) -> None:
    # The demo ends on Mara's Bad defense against the Brute's greatsword: combat, so the
    # effort is called off only if the GM allows it (issue 30, R3-12): "No" by default.
    app = make_app(tmp_path, history=fatigue_demo())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert "waiting (d): Mara pays for Bad" in screen_text(app)  # the header
        await pilot.press("s", "down", "down", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Levels lower" in text and "GM allows it" in text and "◀ No ▶" in text
        await pilot.press("enter")  # the GM does not allow it: refused, the dialog stays
        await pilot.pause()
        assert "is combat" in screen_text(app)
        assert app.session.state.last_roll.called_off == 0
        await pilot.press("tab", "right", "enter")  # GM allows it: Yes
        await pilot.pause()
        assert "Mara calls off the effort (1 level" in screen_text(app)
        assert app.session.state.last_roll.called_off == 1
    # Bob against nature (no weapon): 6 - 3 (Wind 10/40 once paid) = 3 against 20, lost by
    # 17 at spacing 7: a Bad result he calls off two levels.
    history = two_fighters()
    check = FatigueCheck(attacker_id=None, defender_id="c2", nature_total=20)
    history.commit(decide(history.state, check, ScriptedDice([6])), "check")
    app = make_app(tmp_path, history=history)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("s", "down", "down", "enter")
        await pilot.pause()
        assert "Levels lower" in screen_text(app)
        await pilot.press("2")  # the default 1 is selected: typing replaces it
        await pilot.pause()
        assert "Bad defense -> Ordinary defense" in screen_text(app)  # the live preview
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Bob calls off the effort (2 levels)" in text
        await pilot.press("d")
        await pilot.pause()
        assert "Bob pays 10 Wind for Ordinary defense" in screen_text(app)


async def test_a_check_against_two_defenders_by_keys(tmp_path: Path) -> None:
    history = two_fighters()
    cid = FatigueSheet(skills=(Skill("Dodge", 1),))
    history.commit(decide(history.state, AddCombatant(name="Cid", side="foes", sheet=cid), None))
    # Ann 15 + 2 = 17; Bob 4 + 1 - 3 = 2 (lost by 15 at spacing 7: Bad); Cid 9 + 1 = 10
    # (lost by 7 at spacing 10: Ordinary).
    app = make_app(tmp_path, ScriptedDice([15, 4, 9]), history)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("r", *["tab"] * 11, *"Cid")  # from the Weapon to More defenders
        await pilot.pause()
        assert "(+1 more: each in turn)" in screen_text(app)  # the preview line
        await pilot.press("enter")
        await pilot.pause()
        app.clear_notifications()
        await pilot.pause()
        assert "waiting (d): Bob pays for Bad defense, then Cid" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert "waiting (d): Cid pays for Ordinary defense" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert "Cid pays 10 Wind for Ordinary defense" in screen_text(app)
        assert app.session.state.last_roll_applied


async def test_the_roll_dialog_shows_a_certain_fumble_as_tracker_odds_does(tmp_path: Path) -> None:
    app = make_app(tmp_path, ScriptedDice([10, 10]), fatigue_demo())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "x")  # the demo's last result waits: set it aside first
        await pilot.press("shift+tab", "right")  # the defender: Brute, then Raider
        await pilot.press("tab", "tab", "backspace")  # no attacker skill: 1d20 -4 (fatigue)
        await pilot.press(*["tab"] * 9, *"14")  # the Sword's fumble 8 typed as 14: line 18
        await until(pilot, lambda: "fumbles: 100.0%" in screen_text(app), "the dialog's odds")
        text = screen_text(app)
        # The Raider pays his 5 Wind first: 8/40 is a penalty of 3, less than his Dodge 2.
        assert "Mara 1d20 -4, fumble line 18 vs Raider 1d20 -1" in text
        assert "Odds before the dice: Mara's chances vs Raider" in text
        assert "<=0   ████████████ 100.0%" in text  # the fumble lands as a defense...
        assert "Mara fumbles: 100.0% (18 or less; in <=0)" in text  # ...and says so
        # The very number `tracker odds fatigue` gives for that check.
        cli = tracker(
            *("odds", "fatigue", "--attacker-dice", "1d20", "--attacker", "-4"),
            *("--defender-dice", "1d20", "--defender", "-1", "--fatigue-penalty", "3"),
            *("--fumble", "18"),
        )
        assert "fumble: 100.00%" in cli.stdout
        await pilot.press("enter")  # rolled: the Consequences pane keeps the chance
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the dialog to close")
        pane = screen_text(app).split("Consequences")[1]
        assert "Mara's chances vs Raider" in pane.replace("│", "").replace("\n", " ")
        assert "Mara fumbles: 100.0%" in " ".join(
            line.split("│")[-2].strip() for line in pane.splitlines() if line.count("│") >= 2
        )


async def test_the_gm_trades_wind_for_a_fall_by_keys(tmp_path: Path) -> None:
    # Issue 30, R3-17: the demo's open melee consequence (Mara's Bad defense against the
    # greatsword); the GM knocks her prone instead of half its Wind.
    app = make_app(tmp_path, history=fatigue_demo())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("s", "down", "down", "down", "down", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Instead" in text and "knocked prone" in text and "Wind spared" in text
        await pilot.press("enter")
        await pilot.pause()
        assert "Mara is knocked prone instead of paying" in screen_text(app)
        mara = next(c for c in app.session.state.combatants if c.name == "Mara")
        assert [c.name for c in mara.conditions] == ["Prone"]
        assert app.session.state.last_roll.traded > 0


async def test_the_gms_choice_for_a_short_pool_is_in_the_dialog_and_the_odds_follow_it(
    tmp_path: Path,
) -> None:
    # Issue 30, R3-14: Bob's dodge costs 5 Wind and he has 3. "The rest is not paid" leaves
    # Stamina 11/40 (penalty 2, with empty Wind's 4: -4 with Dodge 2); "the rest from
    # Stamina" takes 2 more, Stamina 9/40 (penalty 3: -5), and the odds move with it.
    history = fight(defender=FatigueSheet(skills=(Skill("Dodge", 2),), wind=3, stamina=11))
    app = make_app(tmp_path, ScriptedDice([10, 10]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", *["tab"] * 13)  # from the Weapon to "Wind/Wit run out"
        await until(pilot, lambda: "vs Bob 1d20 -4," in screen_text(app), "the odds, not paid")
        assert "◀ the rest is not paid ▶" in screen_text(app)
        assert "12-15 ██·········· 13.5%" in screen_text(app)
        await pilot.press("right")
        await until(pilot, lambda: "vs Bob 1d20 -5," in screen_text(app), "the odds, spilled")
        text = screen_text(app)
        assert "◀ the rest from Stamina/Focus ▶" in text and "12+  ████········ 33.8%" in text
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the roll")
        bob = app.session.state.combatant("c2").sheet
        assert (bob.wind, bob.stamina) == (0, 9)


async def test_the_gms_rounding_of_a_relaxed_n_is_in_the_dialog_and_the_odds_follow_it(
    tmp_path: Path,
) -> None:
    # Issue 30, R3-18: Bob, relaxed, halves his dodge's N 5: 2 (rounded down) leaves Wind
    # 31/40, no penalty (-10 relaxed, Dodge 2: -8); 3 (up) leaves 30/40, a penalty of 1 (-9).
    history = fight(defender=FatigueSheet(skills=(Skill("Dodge", 2),), wind=33))
    app = make_app(tmp_path, ScriptedDice([10, 10]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", *["tab"] * 7, "right")  # the defender's attitude: Relaxed
        await pilot.press(*["tab"] * 7)  # to "Relaxed: half of N"
        await until(pilot, lambda: "vs Bob 1d20 -8," in screen_text(app), "N rounded down")
        assert "◀ rounded down (5 -> 2) ▶" in screen_text(app)
        await pilot.press("right")
        await until(pilot, lambda: "vs Bob 1d20 -9," in screen_text(app), "N rounded up")
        assert "◀ rounded up (5 -> 3) ▶" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the roll")
        assert app.session.state.combatant("c2").sheet.wind == 30
