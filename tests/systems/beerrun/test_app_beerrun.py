"""Beer Run in the app, by keys: goals, pools, a helping goal, damage and a cede."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.beerrun.demo import build as beerrun_demo
from rules.systems.beerrun.sheet import BeerRunSheet, parse_abilities
from tests.app.support import until
from tests.app.test_app_odds import consequences
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.form import FormScreen
from tracker.session import EncounterSession
from tracker.widgets.combatants import CombatantsPane

BIG = (120, 40)
GOAL, POOL, DAMAGE, CEDE = 1, 2, 3, 4  # places in the s menu


def tavern() -> History:
    history = History(new_encounter("Tavern", "beerrun"))
    for name, side, abilities in (
        ("Orla", "party", "Body: Fencing d8, Health d6; Mind: Wits d6"),
        ("Ann", "party", "Body: Health d6; Mind: Charm d8"),
        ("Goblin", "foes", "Body: Stab d10, Health d6; Mind: Cunning d4"),
    ):
        sheet = BeerRunSheet(abilities=parse_abilities(abilities), intensity=10)
        command = AddCombatant(name=name, side=side, sheet=sheet)
        history.commit(decide(history.state, command, ScriptedDice([])), f"add {name}")
    return history


def make_app(tmp_path: Path, history: History, faces: list[int]) -> TrackerApp:
    session = EncounterSession(history, ScriptedDice(faces), tmp_path / "tavern.fight")
    return TrackerApp(session, saves=tmp_path)


async def select(pilot, row: int) -> None:
    now = pilot.app.screen.query_one(CombatantsPane).cursor_row
    await pilot.press(*(["down"] * (row - now) if row > now else ["up"] * (now - row)))


async def menu(pilot, place: int) -> None:
    await pilot.press("s", *(["down"] * place), "enter")
    await pilot.pause()


async def pool(pilot, row: int, dice: str = "") -> None:
    """Pay for the selected combatant's pool, against its default opponent."""
    await select(pilot, row)
    await menu(pilot, POOL)
    await pilot.press(*dice, "enter")
    await pilot.pause()


@pytest.mark.slow
async def test_a_three_round_conflict_with_help_and_a_cede(tmp_path: Path) -> None:
    faces = [
        *(6, 8, 7, 2, 5),  # round 1, helping first: Ann 6 8 vs three d8s 7 2 5
        *(4, 3, 8, 5, 1),  # Orla 4 3 and the help d8 8; Goblin 5 1
        *(2, 6, 3, 9, 4, 1),  # round 2: Orla 2 6 and the help d8 3; Goblin 9 4 1
        *(7, 5, 3, 6, 2),  # round 3: Orla 7 5 3; Goblin 6 2
    ]
    app = make_app(tmp_path, tavern(), faces)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        text = screen_text(app)
        assert "Round 1  ·  all sides act at once · paid: nobody yet" in text
        assert "▶" not in text and "'s turn" not in text  # no turn order
        assert "Stab d10, Health d6, Cunning d4" in text

        # Round 1. Goals: Orla wants the goblin out, Ann helps Orla to a d8.
        await select(pilot, 0)
        await menu(pilot, GOAL)
        await pilot.press(*"Win", "enter")
        await select(pilot, 1)
        await menu(pilot, GOAL)  # focus starts on Aim; the kind is one field up
        await pilot.press("shift+tab", "right", "tab", "tab", "right", "tab")
        await pilot.press("d", "8", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Win" in text and "help (d8)" in text
        assert "Ann aims to help Orla to a d8" in text

        # Pools: the builder shows the cost as it goes. Orla takes the base pool.
        await select(pilot, 0)
        await menu(pilot, POOL)
        assert "Fencing d8 Wits d6: 1 Intensity; Orla has 10, leaves 9" in screen_text(app)
        await pilot.press("enter")
        await pool(pilot, 1)  # Ann: her helping pool
        await pool(pilot, 2)  # the goblin against Orla
        assert "all sides act at once · paid: Orla, Ann, Goblin" in screen_text(app)

        await pilot.press("r", "enter")  # roll the round: the dialog lists the pools
        await pilot.pause()
        text = screen_text(app)
        assert "Orla vs Goblin: Orla has the upper hand" in text
        assert "Orla    8  4  3   d8 d8 d6" in text
        assert "Goblin  5  1  1   d10 d4 -" in text
        assert "Orla 3 successes, keeps 3 · Goblin 0 successes, keeps 0" in text
        assert "spent: Orla situation d8" in text
        assert "waiting (d): Orla lands 3 on Goblin's Health" in text
        assert "+d8x1" in text  # one roll of the help die left
        assert "-d8x1" in text  # Ann's penalty die for her failure
        await pilot.press("d")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla lands 3 pips on Goblin: Health d6 → d3" in text
        assert "Health d3/6" in text

        # Round 2: everyone pays again; Ann sits it out. The goblin adds a die.
        await pilot.press("n")
        await pilot.pause()
        text = screen_text(app)
        assert "Round 2: every side states its goal and pays Intensity" in text
        await pool(pilot, 0)
        await select(pilot, 2)
        await menu(pilot, POOL)
        await pilot.press(*"+Health")
        await pilot.pause()
        text = screen_text(app)
        assert "Stab d10 Cunning d4 + Health d3: 2 Intensity (1 + 1 for 1 extra);" in text
        await pilot.press("enter")
        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla vs Goblin: Goblin has the upper hand" in text
        assert "Orla 1 success, keeps 1 · Goblin 2 successes, keeps 2" in text
        # the upper hand first
        assert "waiting (d): Goblin lands 2 on Orla's Health (+1 more)" in text
        await pilot.press("d", "d")
        await pilot.pause()
        text = screen_text(app)
        assert "Goblin lands 2 pips on Orla: Health d6 → d4" in text
        assert "Orla lands 1 pip on Goblin: Health d3 → d2" in text

        # Round 3: Orla spends 2 Intensity, splits her pips, and the goblin cedes.
        await pilot.press("n")
        await pool(pilot, 0, "+Health")
        await pool(pilot, 2)
        await pilot.press("r", "enter")
        await pilot.pause()
        assert "Orla 3 successes, keeps 3" in screen_text(app)
        await menu(pilot, DAMAGE)
        await pilot.press("ctrl+u", *"Stab 2,Cunning 1", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla lands 3 pips on Goblin: Stab d10 → d8" in text
        assert "Stab d8/10, Health d2/6, Cunning d3/4" in text
        await select(pilot, 2)
        await menu(pilot, CEDE)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Goblin cedes to Orla" in text
        assert "Orla gains its goal (Goblin ceded)" in text
        assert "✓ Win" in text
        assert "Round 3" in text

    state = app.session.state
    intensity = [c.sheet.intensity for c in state.combatants]
    assert intensity == [6, 9, 6]  # Orla 1 + 1 + 2, Ann 1, the goblin 1 + 2 + 1


async def test_the_demo_reads_mid_conflict(tmp_path: Path) -> None:
    app = make_app(tmp_path, beerrun_demo(), [])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for part in ("Tavern Brawl", "Round 2", "Mags", "Tib", "Bouncer", "waiting (d)"):
            assert part in text


async def test_the_rolled_rounds_chances_are_split_by_who_takes_the_upper_hand(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, beerrun_demo(), [])
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: "upper hand: Mags" in consequences(app), "the odds")
        pane = consequences(app)
        assert "Mags vs Bouncer: who takes the upper hand, keeping how many" in pane
        # Each row names the side whose upper hand it is (the Bouncer's strike Mags).
        rows = ("Bouncer 1 Health d5→d4 29.0%", "Mags 1 Health d6→d5 2.4%")
        for row in rows:
            assert row in " ".join(pane.split()), row
        await pilot.press("d")  # applied: the same rows, as the roll was rolled
        await until(pilot, lambda: "(applied)" in consequences(app), "the result applied")
        pane = " ".join(consequences(app).split())
        assert all(row in pane for row in rows) and "◆ Mags 4 Health d6→d2 27.6%" in pane
        assert "d0" not in pane


async def test_after_d_the_pane_describes_the_roll_as_it_was_rolled(tmp_path: Path) -> None:
    """Applied, the rows said the Bouncer's Health d2 would go to d0 (reading as his death):
    they described the state after the damage, not the roll."""
    app = make_app(tmp_path, beerrun_demo(), [])
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "landed in" in consequences(app), "the last roll")
        await pilot.press("d")
        await until(pilot, lambda: "(applied)" in consequences(app), "the result applied")
        assert "Mags lands 4 pips on Bouncer: Health d6" in screen_text(app)
        text = " ".join(consequences(app).split())
        assert "Mags keeps 4 (applied)" in text and "keeps 0" not in text
        assert "landed in Mags 4, which had a 27.6% chance" in text
        assert "Bouncer 1 Health d5→d4 29.0%" in text  # the rows the pane has room for
        assert "d0" not in text and "Health d2" not in text


async def test_a_pool_it_cannot_pay_for_is_refused_in_the_dialog(tmp_path: Path) -> None:
    app = make_app(tmp_path, tavern(), [])
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("e", "tab", "tab", "tab", "tab", *"Roar d8")
        await pilot.press("enter")  # no category, and none known for Roar: refused
        await pilot.pause()
        assert "Which category is Roar in? Write the abilities under their" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("e", *(["tab"] * 5), "1", "enter")  # Orla's Intensity down to 1
        await pilot.pause()
        await menu(pilot, POOL)
        await pilot.press(*"+Health")
        await pilot.pause()
        text = screen_text(app)
        assert "+ Health d6: 2 Intensity (1 + 1 for 1 extra);" in text
        assert "Orla has only 1: too dear" in text
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "That pool costs 2 Intensity and Orla has 1: drop some extra dice" in text
        await pilot.press("ctrl+u", "enter")  # the base pool alone costs 1
        await pilot.pause()
        assert app.session.state.combatants[0].sheet.intensity == 0
        assert "Orla pays 1 Intensity: Fencing d8, Wits d6 vs Goblin" in screen_text(app)


async def test_the_add_form_takes_the_abilities_as_the_table_shows_them(tmp_path: Path) -> None:
    app = make_app(tmp_path, beerrun_demo(), [])
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("a", *"Bandit", "tab", "tab", "tab", "tab")
        await pilot.press(*"Fists d6, Health d6, Slur d4", "enter")
        await pilot.pause()
        bandit = app.session.state.combatants[-1]
        assert bandit.name == "Bandit"
        assert [(a.name, a.category) for a in bandit.sheet.abilities] == [
            ("Fists", "Body"),
            ("Health", "Body"),
            ("Slur", "Body"),
        ]
        assert "Fists d6, Health d6, Slur d4" in screen_text(app)
        # The Bouncer's row, damaged die and all, typed back into its edit form: no change.
        await select(pilot, 2)
        before = app.session.state.combatants[2]
        assert "Health d6/8" in app.session.system.sheet_stats(before.sheet)[1]
        await pilot.press("e", "tab", "tab", "tab", "tab")  # the text is selected: replaced
        await pilot.press(*app.session.system.sheet_stats(before.sheet)[1], "enter")
        await pilot.pause()
        assert app.session.state.combatants[2] == before
        assert not isinstance(app.screen, FormScreen)


async def test_the_add_form_in_a_new_encounter_takes_abilities_with_no_category(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, History(new_encounter("Alley", "beerrun")), [])
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("a", *"Thug", "tab", "tab", "tab", "tab")
        await pilot.press(*"Fists d6, Health d6", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert "Which category" not in screen_text(app)
        assert "Fists d6, Health d6" in rows_of(app, "Thug")
        await pilot.press("e")  # the edit form shows where they were filed
        await pilot.pause()
        assert "General: Fists d6, Health d6" in screen_text(app)


def rows_of(app: TrackerApp, name: str) -> str:
    return next(line for line in screen_text(app).splitlines() if f" {name} " in line)


async def test_the_gm_chooses_how_many_helping_dice_are_replaced_by_keys(tmp_path: Path) -> None:
    from rules.systems.beerrun.events import SetGoal
    from rules.systems.beerrun.sheet import Goal

    history = tavern()
    goal = SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8))
    history.commit(decide(history.state, goal, ScriptedDice([])), "goal")
    app = make_app(tmp_path, history, [])
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, 1)
        await menu(pilot, POOL)  # focus on Dice; then Against, Difficulty, Dice replaced
        await pilot.press("tab", "tab", *"d10,d2,d2")
        await pilot.pause()
        assert "against d10,d8,d8" in screen_text(app)  # up to 3 replaced, by default
        await pilot.press("tab", "backspace", "1")
        await pilot.pause()
        assert "against d10,d8,d2" in screen_text(app)  # the GM replaces only one
        await pilot.press("enter")
        await pilot.pause()
        [paid] = app.session.state.system_state.pools
        assert paid.difficulty == (10, 8, 2)


async def test_the_gm_gives_a_failed_helps_penalty_to_the_one_helped_by_keys(
    tmp_path: Path,
) -> None:
    # Issue 30, R3-11: the pool dialog's last field says who rolls a failed help's penalty.
    from rules.systems.beerrun.events import SetGoal
    from rules.systems.beerrun.sheet import Goal

    history = tavern()
    goal = SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8))
    history.commit(decide(history.state, goal, ScriptedDice([])), "goal")
    app = make_app(tmp_path, history, [])
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, 1)
        await menu(pilot, POOL)  # Dice; Against, Difficulty, Dice replaced, Failed help's...
        await pilot.press("tab", "tab", "tab", "tab")
        await pilot.pause()
        assert "◀ the helper ▶" in screen_text(app)
        await pilot.press("right", "enter")
        await pilot.pause()
        [paid] = app.session.state.system_state.pools
        assert paid.penalty_to_ally


async def test_the_pool_dialogs_odds_say_the_opponent_has_not_paid(tmp_path: Path) -> None:
    """At 80x24: odds against a pool not paid yet count it as paying nothing, and say so."""
    app = make_app(tmp_path, tavern(), [])
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, 0)
        await menu(pilot, POOL)
        assert isinstance(app.screen, FormScreen)
        await until(pilot, lambda: "if Goblin pays nothing" in screen_text(app), "the note")
