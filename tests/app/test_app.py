"""The app, played by keys through Textual's Pilot; assertions read the screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import ScriptedDice
from rules.systems.livehack.demo import build as livehack_demo
from tests.app.support import BIG, add_combatant, burst_handled, from_palette, make_app, until
from tests.screen import screen_text
from tracker import storage


async def test_a_short_fight_by_keys(tmp_path: Path) -> None:
    # Orla: boon 10, bane 2 -> +8; Goblin: boon 3, bane 4 -> -1. Margin 9: the 5-9 tier.
    # The damage roll: Orla +1 rolled over, boon 6, bane 1; Goblin 0: margin 6.
    app = make_app(tmp_path, ScriptedDice([10, 2, 3, 4, 6, 1, 1, 1]))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Orla", "party")
        await add_combatant(pilot, "Goblin")
        text = screen_text(app)
        assert [(c.name, c.side) for c in app.session.state.combatants] == [
            ("Orla", "party"),
            ("Goblin", "foes"),
        ]
        assert "Orla" in text and "party" in text and "Goblin" in text
        assert "▶ Orla's turn" in text

        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla vs Goblin (vs Reflex) 8 vs -1 HIT, margin +9" in text
        assert "boon [10] - bane [2]" in text
        assert "◆ 5-9" in text

        await pilot.press("d", "d")  # the hit's damage roll, then its damage table
        await pilot.pause()
        text = screen_text(app)
        assert "Goblin takes 2 levels of Wounds" in text
        assert "Discombobulated" in text

        await pilot.press("n")
        await pilot.pause()
        assert "▶ Goblin's turn" in screen_text(app)

        await pilot.press("u")
        await pilot.pause()
        assert "▶ Orla's turn" in screen_text(app)
        state = app.session.state

    # Everything was saved as it happened: reopening shows the same encounter.
    reopened = storage.read(tmp_path / "cellar.fight")
    assert reopened.state == state
    app2 = make_app(tmp_path, history=reopened)
    async with app2.run_test(size=BIG) as pilot:
        text = screen_text(app2)
        assert "▶ Orla's turn" in text
        assert "Discombobulated" in text
        assert "Orla vs Goblin (vs Reflex) 8 vs -1 HIT, margin +9" in text
        await pilot.press("ctrl+r")  # redo the undone turn
        await pilot.pause()
        assert "▶ Goblin's turn" in screen_text(app2)


async def test_the_demo_fits_80_by_24(tmp_path: Path) -> None:
    app = make_app(tmp_path, history=livehack_demo())
    async with app.run_test(size=(80, 24)) as pilot:
        parts = ("Goblin Warren", "Round 2", "Combatants", "Roll log", "Consequences")
        names = ("Orla", "Brak", "Goblin Sneak", "Goblin Boss")

        def drawn() -> bool:  # the panes fill in over a few frames, the key bar last
            text = screen_text(app)
            return all(part in text for part in (*parts, *names)) and "r Roll" in text

        await until(pilot, drawn, "the demo drawn")
        assert "r Roll" in screen_text(app).splitlines()[-1]


async def test_names_are_text_not_markup(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "[red]Zed[/red]")
        await add_combatant(pilot, "[link=x]Y")
        text = screen_text(app)
        assert "[red]Zed[/red]" in text
        assert "[red]Zed[/red] joins the foes" in text
        assert "[link=x]Y" in text


async def test_a_refused_value_keeps_the_dialog_open(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("a", "enter")  # no name
        await pilot.pause()
        assert "a combatant needs a name" in screen_text(app)
        await pilot.press(*"Brak", "enter")
        await pilot.pause()
        assert "Brak joins the foes" in screen_text(app)


async def test_rolling_without_two_combatants_says_why(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Solo")
        await pilot.press("r")
        await pilot.pause()
        assert "needs two combatants" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert "Nothing to apply: roll first" in screen_text(app)


async def test_conditions_by_keys_expire_on_their_own(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await pilot.press("down")  # select Bob
        # Condition dialog: who, name, duration, rounds. Focus starts on the name.
        await pilot.press("c", *"Prone", "tab", "right", "enter")
        await pilot.pause()
        assert "Bob is Prone until the end of its next turn" in screen_text(app)
        await pilot.press("n")  # Bob's turn starts
        await pilot.pause()
        assert app.session.state.find("c2").conditions
        await pilot.press("n")  # Bob's turn ends
        await pilot.pause()
        assert "Bob is no longer Prone (expired)" in screen_text(app)
        assert not app.session.state.find("c2").conditions


async def test_remove_and_reorder_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        for name in ("Ann", "Bob", "Cy"):
            await add_combatant(pilot, name)
        await pilot.press("down", "down", "K")  # Cy moves above Bob
        await pilot.pause()
        assert [c.name for c in app.session.state.combatants] == ["Ann", "Cy", "Bob"]
        await pilot.press("x")
        await pilot.pause()
        assert "Remove Cy from the encounter?" in screen_text(app)
        await pilot.press("y")
        await pilot.pause()
        assert [c.name for c in app.session.state.combatants] == ["Ann", "Bob"]
        assert "Cy leaves the encounter" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_an_empty_encounter_says_how_to_add_a_combatant(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        lines = screen_text(app).splitlines()
        top = next(i for i, line in enumerate(lines) if "Combatants" in line)
        pane = "\n".join(lines[top : top + 4])  # the border, the column titles, the hint
        assert "press a to add a combatant" in pane
        await add_combatant(pilot, "Ann")
        assert "press a to add a combatant" not in screen_text(app)
        await pilot.press("u")
        await pilot.pause()
        assert "press a to add a combatant" in screen_text(app)


async def test_a_repeated_name_is_numbered_by_key_and_by_the_command_line(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await add_combatant(pilot, "Bandit")
        await add_combatant(pilot, "Bandit")
        names = [c.name for c in app.session.state.combatants]
        assert names == ["Bandit 1", "Bandit 2"]
        text = screen_text(app)
        assert "Bandit 1" in text and "Bandit 2" in text
        assert "Bandit is now Bandit 1" in text
        for _ in range(2):
            await pilot.press("colon", *"add Bandit", "enter")
            await pilot.pause()
        names = [c.name for c in app.session.state.combatants]
        assert names == ["Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]
        await pilot.press("u", "u", "u")
        await pilot.pause()
        assert [c.name for c in app.session.state.combatants] == ["Bandit"]
        assert "Bandit 1" not in screen_text(app)


async def test_notes_and_edits_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await pilot.press("o", *"Door creaks", "enter")
        await pilot.pause()
        assert "Door creaks" in screen_text(app)
        await pilot.press("e")
        await pilot.press(*"Anna", "enter")  # the field's text is selected: typing replaces it
        await pilot.pause()
        assert app.session.state.combatants[0].name == "Anna"
        assert "Ann is now Anna" in screen_text(app)  # a rename says from what


async def test_help_lists_every_key(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        for description in ("Roll", "Apply result", "Next turn", "Undo", "Redo", "Drop condition"):
            assert description in text
        await pilot.press("escape")
        await pilot.pause()
        assert "Apply result" in screen_text(app)  # the footer again


@pytest.mark.parametrize("query", ["next turn", "Next"])
async def test_every_action_is_in_the_palette(tmp_path: Path, query: str) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await from_palette(pilot, query)
        await until(pilot, lambda: "▶ Bob's turn" in screen_text(app), "Bob's turn")


async def test_keys_typed_in_a_burst_land_in_their_fields(tmp_path: Path) -> None:
    # Over SSH, "Vex<Tab>party<Enter>" can arrive in one packet: every key is queued
    # before the first is handled. Tab must still move focus before "party" is typed.
    from textual import events

    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("a")
        await pilot.pause()
        for key in [*"Vex", "tab", *"party", "enter"]:
            character = "\t" if key == "tab" else "\r" if key == "enter" else key
            app.post_message(events.Key(key, character))
        await burst_handled(pilot)
        assert [(c.name, c.side) for c in app.session.state.combatants] == [("Vex", "party")]


async def test_system_actions_menu_and_live_preview(tmp_path: Path) -> None:
    app = make_app(tmp_path, ScriptedDice([5, 5, 5, 5]))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await pilot.press("s")
        await pilot.pause()
        assert "LiveHack actions" in screen_text(app)
        await pilot.press("enter")  # the first action: the opposed roll
        await pilot.pause()
        text = screen_text(app)
        assert "Opposed roll" in text
        assert "Ann +0 vs Bob Reflex +0, before the dice" in text
        await pilot.press(*"3")  # the attacker's extra modifier: the preview follows
        await pilot.pause()
        assert "Ann +3 vs Bob Reflex +0, before the dice" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "Ann vs Bob (vs Reflex) 3 vs 0 HIT, margin +3" in screen_text(app)


async def test_an_eclipse_is_announced(tmp_path: Path) -> None:
    # Ann's boon 12 then 1, her bane 12 then 1: an Eclipse. Bob rolls 1 and 1.
    app = make_app(tmp_path, ScriptedDice([12, 1, 12, 1, 1, 1]))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "ECLIPSE" in text
        assert "Eclipse for Ann! Something completely bizarre happens" in text
