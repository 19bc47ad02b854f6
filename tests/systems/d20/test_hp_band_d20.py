"""Hit points as a band on a served player's seat at 80x24 (`:hp foes band`): the player reads
"healthy", "bloodied", "down", never the goblin's number, in its row, its log and its export;
the GM's screen is unchanged; `:hp foes hidden` says "hidden"; one `u` takes it back."""

from __future__ import annotations

import json
from pathlib import Path

from rules.commands import ChangeTrack, EditCombatant, SetOption
from rules.dice import SeededDice
from tests.app.support import make_app, until
from tests.app.test_app_command_line import type_line
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, history_of
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.session import EncounterSession
from tracker.store.export import to_json, to_markdown


def row(app: object, name: str) -> str:
    """The combatants pane's row of ``name`` (the header may name it too: "Your turn")."""
    lines = screen_text(app).splitlines()  # type: ignore[arg-type]
    return next((line for line in lines if line.startswith("┃") and f" {name} " in line), "")


def served(tmp_path: Path) -> Table:
    """Orla (Alice's) against a goblin and a wolf: the goblin down, the fight goes on."""
    history = history_of(
        ("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET), ("Wolf", "foes", FOE_SHEET)
    )
    table = Table(EncounterSession(history, SeededDice(2), tmp_path / "road.fight"))
    table.assign("Alice", frozenset({"c1"}))
    return table


async def test_a_players_seat_reads_the_band_never_the_number(tmp_path: Path) -> None:
    table = served(tmp_path)
    session = table.session
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "12/12" in row(app, "Goblin")  # exact until the GM says
        session.execute(SetOption("hp-view", "band foes"))
        await until(pilot, lambda: "healthy" in row(app, "Goblin"), "healthy")
        assert "12/12" not in screen_text(app) and "20/20" in row(app, "Orla")
        session.execute(ChangeTrack("c2", 7))  # 5 of 12 left: under half
        await until(pilot, lambda: "bloodied" in row(app, "Goblin"), "bloodied")
        text = screen_text(app)
        assert "5/12" not in text and "12 → 5" not in text
        session.execute(ChangeTrack("c2", 5))
        await until(pilot, lambda: "down" in row(app, "Goblin"), "down")
        session.execute(SetOption("hp-view", "hidden foes"))
        await until(pilot, lambda: "hidden" in row(app, "Goblin"), "hidden")
    session.execute(EditCombatant(combatant_id="c2", sheet=card(hp="4/12")))  # by its form
    player_json = json.dumps(to_json(session.history, gm=False))
    assert '"hp": 4' not in player_json and '"hp": 4' in json.dumps(to_json(session.history, True))
    gm_report = to_markdown(session.history, gm=True)
    player_report = to_markdown(session.history, gm=False)
    assert "4/12" in gm_report and "12 → 5" in gm_report
    assert "4/12" not in player_report and "12 → 5" not in player_report


async def test_the_gm_sets_it_by_keys_and_keeps_the_numbers(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, SeededDice(2), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "hp foes band")
        await until(pilot, lambda: "Players see the hit points of" in screen_text(app), "logged")
        assert "12/12" in row(app, "Goblin")  # the GM's view unchanged
        await pilot.press("u")
        await until(pilot, lambda: app.session.state.options.hp_views == (), "undone")
