"""Initiative from a served player's seat, by keys at 80x24: Alice sets or rolls her own
combatant's (`:init Orla 15`, `:init Orla 1d20+2`, `i`), never another's nor everyone's, and
her seat shows the Init column as the GM's does."""

from __future__ import annotations

from pathlib import Path

from rules.events import InitiativeSet
from tests.app.support import keys_of, until
from tests.app.test_app_command_line import type_line
from tests.screen import screen_text
from tests.serve.serve_helpers import SECRET
from tests.serve.serve_helpers import table as table_at
from tracker.screens.form import FormScreen
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table

SMALL = (80, 24)


def initiative(table: Table, name: str) -> int | None:
    return next(c.initiative for c in table.session.state.combatants if c.name == name)


def rolls(table: Table) -> int:
    events = table.session.history.effective_events()
    return sum(isinstance(e, InitiativeSet) for e in events)


def pane(app: TableApp) -> str:
    return screen_text(app).split("┏━ Combatants")[1].split("┗")[0]


async def test_a_player_sets_and_rolls_their_own_initiative_by_the_line(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")  # Alice plays Orla
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        assert "Init" not in pane(app)  # nobody has one yet
        await type_line(pilot, "init Orla 15")
        await until(pilot, lambda: initiative(table, "Orla") == 15, "Orla's 15")
        await until(pilot, lambda: "Init" in pane(app), "the Init column on her seat")
        assert "15" in next(r for r in pane(app).splitlines() if "Orla" in r)
        await type_line(pilot, "init Orla 1d20+2")
        await until(pilot, lambda: rolls(table) == 2, "Orla's roll")
        value = initiative(table, "Orla")
        await until(pilot, lambda: f"Orla: initiative {value}" in screen_text(app), "the roll")
        assert "1d20+2" in screen_text(app)  # every die, on her seat's log

        # Another's, everyone's and the sort are not hers: one line each, nothing changed.
        for text, why in (
            ("init Brak 12", "You do not act for Brak"),
            ("init roll", "Only the GM can do that"),
            ("init sort", "Only the GM can do that"),
        ):
            await pilot.press("escape")
            await type_line(pilot, text)
            await until(pilot, lambda w=why: w in screen_text(app), why)
        assert initiative(table, "Brak") is None and rolls(table) == 2
        # A GM-only combatant is no name she can reach: to her seat there is no such one.
        await pilot.press("escape")
        await type_line(pilot, f"init {SECRET} 3")
        await until(pilot, lambda: "no combatant" in screen_text(app), "no such combatant")
        assert f"mean '{SECRET}'" not in screen_text(app)  # nor suggested
        assert initiative(table, SECRET) is None and rolls(table) == 2


async def test_i_on_a_players_seat_offers_only_one_combatant(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the Initiative dialog")
        text = screen_text(app)
        assert "Everyone without one" not in text and "A group" not in text
        assert SECRET not in text
        assert "Orla" in text  # her combatant, selected (the current) first
        await pilot.press(*keys_of("17"), "enter")
        await until(pilot, lambda: initiative(table, "Orla") == 17, "Orla's 17 from the dialog")
    # The GM's seat at the same table sees it in its pane.
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: "Init" in pane(gm), "the GM's Init column")
        assert "17" in next(r for r in pane(gm).splitlines() if "Orla" in r)


async def test_i_on_a_spectators_seat_does_nothing(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("spectator", "Bob"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        records = len(table.session.history.records)
        await pilot.press("i", "question_mark")
        await until(pilot, lambda: "Keys" in screen_text(app), "the help")
        assert not isinstance(app.screen, FormScreen)
        assert "Initiative" not in screen_text(app)  # not offered, so not listed
        assert len(table.session.history.records) == records
