"""Initiative and the turn order at 80x24, by keys: set, rolled (a group sharing one roll),
sorted (one u undoes it), moved (:order), newcomers placed (by initiative, or where told),
the Init column, and the refusal in a system without a turn order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.dice import ScriptedDice
from rules.engine import new_encounter
from rules.history import History
from rules.registry import all_systems
from tests.app.support import from_palette, make_app, until
from tests.app.test_app_command_line import type_line
from tests.app.test_layout import SMALL
from tests.helpers import rolls_initiative_on_add
from tests.picks import a_system, has_bundled_foes, has_turn_order, joins_without_dice
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.widgets.combatants import CombatantsPane

WITH_ORDER = next(s for s in all_systems() if s.uses_turn_order and not rolls_initiative_on_add(s))
WITHOUT_ORDER = next(s for s in all_systems() if not s.uses_turn_order)
PARTY = ("Orla", "Bram")


def fight(tmp_path: Path, *faces: int, system: str = WITH_ORDER.name) -> TrackerApp:
    """An empty fight in ``system``, its dice the ``faces`` given (then 1s: no test here
    reads a die it did not script)."""
    history = History(new_encounter("Ambush", system))
    return make_app(tmp_path, ScriptedDice([*faces, *[1] * 200]), history)


async def line(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """A line typed on the `:` prompt, and the app back on the encounter (a refusal keeps
    the prompt: the test says so itself)."""
    app = pilot.app
    records = len(app.session.history.records)
    await type_line(pilot, text)
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, EncounterScreen) and len(app.session.history.records) > records
        ),
        f"the line {text!r} done",
    )


async def party_and_goblins(pilot) -> None:  # type: ignore[no-untyped-def]
    for name in PARTY:
        await line(pilot, f"add {name} party")
    await line(pilot, "add Goblin x3")


def order(app: TrackerApp) -> list[str]:
    return [c.name for c in app.session.state.combatants]


def initiative(app: TrackerApp) -> dict[str, int | None]:
    return {c.name: c.initiative for c in app.session.state.combatants}


def pane(app: TrackerApp) -> list[str]:
    """The combatants pane's lines: its column titles, then a row each."""
    return screen_text(app).split("┏━ Combatants")[1].split("┗")[0].splitlines()[1:]


def row_of(app: TrackerApp, name: str) -> str:
    return next(r for r in pane(app) if f" {name} " in r or r[1:].lstrip("▶✗ ").startswith(name))


async def test_init_sets_a_number_or_rolls_dice_and_the_pane_shows_it(tmp_path: Path) -> None:
    app = fight(tmp_path, 9)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        assert "Init" not in pane(app)[0]  # nobody has one yet: no column
        await line(pilot, "init orla 15")
        assert initiative(app)["Orla"] == 15
        await until(pilot, lambda: "Init" in pane(app)[0], "the Init column")
        assert "15" in row_of(app, "Orla")
        await line(pilot, "init bram 1d20+2")  # the die shows 9
        assert initiative(app)["Bram"] == 11
        text = screen_text(app)
        assert "Bram: initiative 11" in text and "1d20+2" in text  # every die in the log
        assert "11" in row_of(app, "Bram")


async def test_an_unknown_name_gets_did_you_mean(tmp_path: Path) -> None:
    app = fight(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        records = len(app.session.history.records)
        await type_line(pilot, "init orlaa 12")
        wanted = "no combatant 'orlaa': did you mean 'Orla'?"
        await until(pilot, lambda: wanted in screen_text(app), "the suggestion")
        assert isinstance(app.screen, CommandLineScreen)
        assert len(app.session.history.records) == records


async def test_a_group_shares_one_roll_the_order_is_sorted_and_u_undoes_both(
    tmp_path: Path,
) -> None:
    app = fight(tmp_path, 5, 12, 17)  # Orla, Bram, then the goblins' one roll
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        before = order(app)
        await line(pilot, "init roll")
        assert initiative(app) == {
            "Goblin 1": 17,
            "Goblin 2": 17,
            "Goblin 3": 17,
            "Bram": 12,
            "Orla": 5,
        }
        assert order(app) == ["Goblin 1", "Goblin 2", "Goblin 3", "Bram", "Orla"]
        assert app.session.state.current_id == app.session.state.combatants[0].id  # the top
        await until(
            pilot, lambda: "sorted by initiative" in screen_text(app), "the sort in the log"
        )
        rows = pane(app)
        assert [n for n in order(app) if any(n in r for r in rows)] == order(app)
        assert "▶" in row_of(app, "Goblin 1")
        await pilot.press("u")
        await until(pilot, lambda: order(app) == before, "the order as it was")
        assert set(initiative(app).values()) == {None}  # the rolls undone too: one step


async def test_init_roll_each_gives_a_group_one_roll_each(tmp_path: Path) -> None:
    app = fight(tmp_path, 5, 12, 3, 19, 8)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        await line(pilot, "init roll each")
        assert initiative(app) == {
            "Goblin 2": 19,
            "Bram": 12,
            "Goblin 3": 8,
            "Orla": 5,
            "Goblin 1": 3,
        }
        assert order(app) == ["Goblin 2", "Bram", "Goblin 3", "Orla", "Goblin 1"]


async def test_a_sort_is_one_u_and_k_j_and_order_still_move_anyone(tmp_path: Path) -> None:
    app = fight(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        for name, value in (("orla", 3), ("bram", 20), ("goblin-1", 11)):
            await line(pilot, f"init {name} {value}")
        await line(pilot, "order goblin-3 before orla")
        assert order(app).index("Goblin 3") + 1 == order(app).index("Orla")
        unsorted = order(app)
        await line(pilot, "init sort")  # ties (and those without) keep their order
        assert order(app) == ["Bram", "Goblin 1", "Orla", "Goblin 3", "Goblin 2"]
        await pilot.press("u")
        await until(pilot, lambda: order(app) == unsorted, "the sort undone")
        await line(pilot, "init sort")
        await line(pilot, "order orla after goblin-2")
        assert order(app)[-1] == "Orla"
        selected = app.session.state.combatants[-1].id
        await until(pilot, lambda: app.screen.query_one("CombatantsPane").selected_id == selected)
        await pilot.press("K")  # one up, by key
        await until(pilot, lambda: order(app)[-2] == "Orla", "Orla moved up")


async def test_newcomers_take_their_place_by_initiative_or_where_told(tmp_path: Path) -> None:
    app = fight(tmp_path, 5, 12, 17)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        await line(pilot, "init roll")
        await line(pilot, "add Ogre")
        assert order(app)[-1] == "Ogre"  # no initiative: at the end
        await line(pilot, "init ogre 14")
        assert order(app) == ["Goblin 1", "Goblin 2", "Goblin 3", "Ogre", "Bram", "Orla"]
        await line(pilot, "add Wolf x2 after bram")
        assert order(app)[5:7] == ["Wolf 1", "Wolf 2"] and order(app)[-1] == "Orla"
        await line(pilot, "init roll")  # the wolves only, one roll (a die of 1)
        assert initiative(app)["Wolf 1"] == initiative(app)["Wolf 2"] == 1
        assert order(app)[-2:] == ["Wolf 1", "Wolf 2"]


async def test_the_dialog_and_the_palette_roll_initiative(tmp_path: Path) -> None:
    app = fight(tmp_path, 5, 12, 17)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        await type_line(pilot, "init")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the Initiative dialog")
        assert "Everyone without one" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: initiative(app)["Orla"] == 5, "everyone rolled")
        assert order(app)[0] == "Goblin 1"
        await line(pilot, "add Ogre")
        await from_palette(pilot, "roll initiative")
        await until(pilot, lambda: initiative(app)["Ogre"] == 1, "the ogre rolled")


async def test_a_system_without_a_turn_order_says_why_not(tmp_path: Path) -> None:
    app = fight(tmp_path, system=WITHOUT_ORDER.name)
    why = WITHOUT_ORDER.why_no_initiative()
    assert why and WITHOUT_ORDER.title in why
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await line(pilot, "add Goblin x2")
        records = len(app.session.history.records)
        await type_line(pilot, "init roll")
        await until(pilot, lambda: why[:60] in screen_text(app), "the line saying why")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen))
        await from_palette(pilot, "initiative")
        await until(pilot, lambda: "no turn order" in screen_text(app), "the palette's line")
        assert len(app.session.history.records) == records


async def test_the_round_ends_after_the_last_in_the_order(tmp_path: Path) -> None:
    app = fight(tmp_path, 5, 12, 17)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        await line(pilot, "init roll")
        state = app.session.state
        for turn in state.combatants[1:]:
            await pilot.press("n")
            await until(pilot, lambda t=turn: app.session.state.current_id == t.id, turn.name)
        assert app.session.state.round == 1  # Orla, the last, acts in round 1
        await pilot.press("n")
        await until(pilot, lambda: app.session.state.round == 2, "round 2")
        assert app.session.state.current_id == state.combatants[0].id  # the top again


def demos_in_order() -> list[str]:
    from tracker.demos import DEMOS

    return [d for d, build in sorted(DEMOS.items()) if build().state.system == WITH_ORDER.name]


@pytest.mark.parametrize("demo", demos_in_order())
async def test_ten_combatants_with_the_init_column_fit_at_80x24(tmp_path: Path, demo: str) -> None:
    from tests.app.test_at_80x24 import ten_combatants
    from tests.app.test_layout import demo_app

    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await ten_combatants(pilot)
        await line(pilot, "init roll")
        await until(pilot, lambda: "Init" in pane(app)[0], "the Init column")
        widget = app.screen.query_one(CombatantsPane)
        assert widget.virtual_size.width <= widget.size.width  # nothing beyond its edge
        assert not widget.show_vertical_scrollbar  # all ten on screen
        rows = "\n".join(pane(app))
        for combatant in app.session.state.combatants:
            assert combatant.name[:8] in rows, f"{combatant.name} is off the screen"
            assert str(combatant.initiative) in row_of(app, combatant.name[:8])


def test_tracker_new_add_gives_a_group_one_roll(tmp_path: Path) -> None:
    from tracker.store import library, prepare

    system = a_system(has_turn_order, joins_without_dice, has_bundled_foes)
    found = library.load(None)
    foe = next(e for e in found.of(system) if e.side == "foes")
    history = prepare.new_history(
        "Ambush", system, ScriptedDice([]), library=found, foes=[f"{foe.name} x3"]
    )
    group = {c.group for c in history.state.combatants}
    assert len(history.state.combatants) == 3 and len(group) == 1 and "" not in group


async def test_i_opens_the_initiative_dialog_and_the_help_lists_it(tmp_path: Path) -> None:
    app = fight(tmp_path, 5, 12, 17)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        await pilot.press("question_mark")  # the help: i after n, the turn's keys
        await until(pilot, lambda: re.search(r" i +Initiative", screen_text(app)), "i in help")
        await pilot.press("escape", "i")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the Initiative dialog")
        assert "Everyone without one" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: initiative(app)["Orla"] == 5, "everyone rolled")
        assert order(app) == ["Goblin 1", "Goblin 2", "Goblin 3", "Bram", "Orla"]


ON_ADD = next((s for s in all_systems() if s.uses_turn_order and rolls_initiative_on_add(s)), None)


@pytest.mark.skipif(ON_ADD is None, reason="no system rolls initiative as a combatant joins")
async def test_a_newcomer_placed_by_its_roll_is_not_logged_as_a_sort(tmp_path: Path) -> None:
    assert ON_ADD is not None
    app = fight(tmp_path, 5, 15, 10, system=ON_ADD.name)  # a blank sheet rolls a plain die
    async with app.run_test(size=SMALL) as pilot:
        for name in ("Ann", "Bo", "Cy"):
            await line(pilot, f"add {name}")
        assert order(app)[:3] == ["Bo", "Cy", "Ann"]
        assert app.session.state.current_id == app.session.state.combatants[0].id
        await until(pilot, lambda: "Bo acts first" in screen_text(app), "the first turn's line")
        assert "sorted by initiative" not in screen_text(app)  # nothing else moved
        await line(pilot, "order ann before bo")
        await line(pilot, "init sort")  # a real sort still says so
        await until(pilot, lambda: "sorted by initiative" in screen_text(app), "the sort")


async def test_the_summary_and_the_reports_show_each_ones_initiative(tmp_path: Path) -> None:
    import json

    from tracker.screens.summary import SummaryScreen

    app = fight(tmp_path, 5, 12, 17)
    async with app.run_test(size=SMALL) as pilot:
        await party_and_goblins(pilot)
        await line(pilot, "add Ogre")  # no initiative: an empty cell, last
        await line(pilot, "init roll each")
        await line(pilot, "init ogre")  # ... now one (a die of 1)
        ranks = initiative(app)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await until(pilot, lambda: "Init" in screen_text(app), "its Init column")
        rows = screen_text(app).splitlines()
        for name, value in ranks.items():
            assert any(name in r and f" {value} " in r for r in rows), (name, screen_text(app))
        await pilot.press("escape")
        await type_line(pilot, "export md order")
        await type_line(pilot, "export json order")
    report = (tmp_path / "order.md").read_text()
    final = report.split("## Final state")[1].split("## Outcome")[0]
    header, _, *table = [r for r in final.splitlines() if r.startswith("|")]
    assert header.startswith("| Combatant | Init | Side |")
    assert [r.split(" | ")[:2] for r in table] == [[f"| {n}", str(v)] for n, v in ranks.items()]
    assert "| Combatant | Init | Side | Out |" in report.split("## Outcome")[1]
    data = json.loads((tmp_path / "order.json").read_text())
    assert [c["initiative"] for c in data["combatants"]] == list(ranks.values())
    assert [c["initiative"] for c in data["outcome"]["combatants"]] == list(ranks.values())
