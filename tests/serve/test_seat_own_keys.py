"""A player's keys that act on one combatant (`c`, `C`, `i`), by keys at 80x24 with a foe
selected: they act on the player's own combatant, as a player may only (rules.permissions).
They opened on the selected foe, and Enter was refused with "You do not act for Goblin"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rules.commands import AddCondition
from rules.conditions import Duration
from rules.dice import SeededDice
from tests.app.support import keys_of, until
from tests.picks import every_system, player_rolls
from tests.screen import screen_text
from tests.serve.serve_helpers import encounter, roll
from tests.serve.serve_helpers import table as table_at
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.widgets.combatants import CombatantsPane

SMALL = (80, 24)


def conditions(table: Table, name: str) -> list[str]:
    found = next(c for c in table.session.state.combatants if c.name == name)
    return [condition.name for condition in found.conditions]


def initiative(table: Table, name: str) -> int | None:
    return next(c.initiative for c in table.session.state.combatants if c.name == name)


async def select_goblin(pilot: object, app: TableApp) -> None:
    """The cursor down to the Goblin (Orla, Brak, Goblin in the player's view)."""
    pane = app.screen.query_one(CombatantsPane)
    state = app.screen.session.state  # type: ignore[attr-defined]
    while state.name_of(pane.selected_id or "") != "Goblin":
        await pilot.press("down")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("key", "typed", "done"),
    [
        ("c", "Hidden", lambda t: conditions(t, "Orla") == ["Hidden"]),
        ("i", "12", lambda t: initiative(t, "Orla") == 12),
    ],
)
async def test_c_and_i_at_a_players_seat_are_their_own_with_a_foe_selected(
    tmp_path: Path, key: str, typed: str, done: Callable[[Table], bool]
) -> None:
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the encounter")
        await select_goblin(pilot, app)
        await pilot.press(key)
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the dialog")
        await pilot.press(*keys_of(typed), "enter")
        await until(pilot, lambda: done(table), "Orla's")
        assert conditions(table, "Goblin") == [] and initiative(table, "Goblin") is None
        assert "You do not act for" not in screen_text(app)


async def test_shift_c_at_a_players_seat_drops_their_own_with_a_foe_selected(
    tmp_path: Path,
) -> None:
    table = table_at(tmp_path / "cellar.fight")
    ids = {c.name: c.id for c in table.session.state.combatants}
    for who in ("Orla", "Goblin"):
        table.session.execute(AddCondition(ids[who], "Prone", Duration("until-removed")))
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the encounter")
        await select_goblin(pilot, app)
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the remove dialog")
        assert "Remove a condition from Orla" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: conditions(table, "Orla") == [], "Orla's Prone dropped")
        assert conditions(table, "Goblin") == ["Prone"]


@pytest.mark.parametrize("key", ["c", "o"])
async def test_a_player_with_nobody_yet_is_told_so(tmp_path: Path, key: str) -> None:
    """`c` opened a dialog on the selected combatant, `o` one about the encounter: neither
    could be given by a player with nobody assigned."""
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Bob"), saves=tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the encounter")
        await pilot.press(key)
        await until(pilot, lambda: "Nobody is yours yet" in screen_text(app), "one line")
        assert not isinstance(app.screen, FormScreen)


def pane(app: TableApp) -> str:
    return screen_text(app).split("┏━ Combatants")[1].split("┗")[0]


async def test_a_players_own_are_marked_and_a_new_assignment_is_told(tmp_path: Path) -> None:
    """Nothing on a player's screen said which combatants were theirs, and the GM's `w`
    giving them one changed nothing they could see until that one's turn came."""
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: "Orla (you)" in pane(app), "Orla marked as Alice's")
        assert pane(app).count("(you)") == 1
        brak = next(c.id for c in table.session.state.combatants if c.name == "Brak")
        table.assign("Alice", frozenset({brak}))
        await until(pilot, lambda: "You play Brak" in screen_text(app), "told of Brak")
        await until(pilot, lambda: "Brak (you)" in pane(app), "Brak marked")
        assert "Orla (you)" not in pane(app)
        table.assign("Alice", frozenset())
        await until(pilot, lambda: "You play nobody now" in screen_text(app), "told")
        await until(pilot, lambda: "(you)" not in pane(app), "no mark")


async def test_the_gm_and_a_player_with_nobody_see_no_mark(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    for role, name in (("gm", "GM"), ("player", "Bob")):
        app = TableApp(table, table.join(role, name), saves=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda app=app: "Orla" in pane(app), "the pane")
            assert "(you)" not in pane(app)


def another_result_waiting(tmp_path: Path) -> Table | None:
    """A table where the Goblin's roll at Brak left a result that applies without a dialog,
    and that `r` asks to settle before its dialog opens (Alice given Orla), in a system
    where a player rolls; None if no dice leave one."""
    for system in every_system(player_rolls):
        for seed in range(20):
            session, ids = encounter(tmp_path / f"{system}-{seed}.fight", system)
            session.dice = SeededDice(seed)
            session.execute(roll(session.state, ids["Goblin"], ids["Brak"]))
            state, rules = session.state, session.system
            if (
                rules.pending(state)
                and not rules.follow_up(state, "roll", None)  # r asks before its dialog
                and not rules.pending_action(state)
            ):
                table = Table(session)
                table.assign("Alice", frozenset({ids["Orla"]}))
                return table
    return None


async def test_a_players_r_over_anothers_waiting_result_says_the_gm_applies_it(
    tmp_path: Path,
) -> None:
    """`r` asked "Apply it before you roll again?" over the Goblin's result, and the answer
    `d` was refused: a player may not apply another's roll."""
    table = another_result_waiting(tmp_path)
    if table is None:
        pytest.skip("no system's roll leaves a result a player may not apply")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the encounter")
        await pilot.press("r")
        said = "First the GM (or whoever rolled it) applies what waits"
        await until(pilot, lambda: said in screen_text(app), "one line")
        assert isinstance(app.screen, EncounterScreen)  # no question they could not answer
