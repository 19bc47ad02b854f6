"""Held turns and rerolled rounds at 80x24, by keys: `:delay` shows the row as delaying and
passes the turn, `:act` brings it back to act now, `:ready` shows its trigger on the row,
`:init each-round on` rolls everyone again as a round begins, each undone by one `u`; the
`:` line's completion offers the new words."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant, SetInitiative
from rules.dice import SeededDice
from tests.app.line_support import context, options
from tests.app.support import fight_of, make_app, until
from tests.app.test_initiative import WITH_ORDER, line, order, row_of
from tests.app.test_layout import SMALL
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.line_commands.resolve import hint, usage
from tracker.widgets.combatants import CombatantsPane


def three(tmp_path: Path) -> TrackerApp:
    """Orla 15, Bram 10, Goblin 5, Orla acting."""
    history = fight_of(
        WITH_ORDER.name,
        AddCombatant(name="Orla", side="party"),
        AddCombatant(name="Bram", side="party"),
        AddCombatant(name="Goblin"),
        SetInitiative("c1", "15"),
        SetInitiative("c2", "10"),
        SetInitiative("c3", "5"),
    )
    return make_app(tmp_path, SeededDice(3), history)


def acting(app: TrackerApp) -> str:
    return app.session.state.name_of(app.session.state.current_id)


async def test_delay_shows_the_row_and_act_brings_it_back_to_act_now(tmp_path: Path) -> None:
    app = three(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "delay")  # the one acting: Orla
        assert "delaying" in row_of(app, "Orla")
        assert acting(app) == "Bram" and "▶ Bram's turn" in screen_text(app)
        assert "Orla delays: out of the order until it" in screen_text(app)
        await line(pilot, "next")  # the Goblin's turn
        await line(pilot, "act orla")
        assert acting(app) == "Orla" and "delaying" not in row_of(app, "Orla")
        assert order(app) == ["Bram", "Orla", "Goblin"]
        assert "Orla stops delaying and acts now" in screen_text(app)
        await pilot.press("u")
        await until(pilot, lambda: "delaying" in row_of(app, "Orla"), "act undone")
        assert acting(app) == "Goblin"


async def test_ready_shows_its_trigger_and_act_spends_it(tmp_path: Path) -> None:
    app = three(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "ready bram when the door opens")
        assert "ready: when the door opens" in row_of(app, "Bram")
        await line(pilot, "act bram")
        assert "ready:" not in row_of(app, "Bram")
        assert "Bram takes its readied reaction" in screen_text(app)


async def test_a_spends_the_selected_ones_readied_reaction(tmp_path: Path) -> None:
    app = three(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await line(pilot, "ready bram when the door opens")
        pane = app.screen.query_one(CombatantsPane)
        while pane.selected_id != "c2":
            await pilot.press("down")
        await pilot.press("A")
        await until(pilot, lambda: "ready:" not in row_of(app, "Bram"), "the reaction taken")
        assert "Bram takes its readied reaction" in screen_text(app)
        await pilot.press("A")  # nothing held now: one line, nothing changed
        await until(pilot, lambda: "neither delaying nor" in screen_text(app), "refused")


async def test_each_round_rolls_everyone_again_as_a_round_begins(tmp_path: Path) -> None:
    app = three(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "init each-round on")
        assert "Initiative is rolled again each round" in screen_text(app)
        await line(pilot, "next")
        await line(pilot, "next")
        before = dict((c.name, c.initiative) for c in app.session.state.combatants)
        await line(pilot, "next")  # round 2: everyone rolls again
        state = app.session.state
        assert state.round == 2
        ranks = [c.initiative or 0 for c in state.combatants]
        assert ranks == sorted(ranks, reverse=True)
        assert acting(app) == state.combatants[0].name
        assert "Round 2" in screen_text(app)
        await pilot.press("u")
        await until(pilot, lambda: app.session.state.round == 1, "the new round undone")
        assert {c.name: c.initiative for c in app.session.state.combatants} == before


def test_the_line_completes_the_new_words(tmp_path: Path) -> None:
    history = three(tmp_path).session.history
    assert "each-round" in options("init e", history)
    assert options("init each-round o", history) == ["on", "off"]
    assert "2m" in options("clock ", history)
    assert any(o.casefold().startswith("orla") for o in options("delay o", history))


def test_help_and_the_hint_list_the_new_commands(tmp_path: Path) -> None:
    history = three(tmp_path).session.history
    for name in ("delay", "ready", "act", "clock", "surprise", "hp"):
        assert usage(context(history), name).startswith(f"{name} ")
        assert name in hint(":", context(history)).split()
    assert "each-round on|off" in usage(context(history), "init")
