"""Plain dice at a served table, by keys at 80x24: a player rolls from their seat, under their
name; the GM rolls hidden, and no player's screen, nor the bytes sent to it, ever carries it."""

from __future__ import annotations

from pathlib import Path

from rules.plain_dice import DiceRolled
from tests.app.support import keys_of, until
from tests.screen import screen_text
from tests.serve.serve_helpers import Client, serve
from tests.serve.serve_helpers import table as table_at
from tests.serve.serve_helpers import until as until_served
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.store import storage

SMALL = (80, 24)


def rolled(table: Table) -> list[DiceRolled]:
    return [e for e in table.session.history.effective_events() if isinstance(e, DiceRolled)]


async def test_a_player_rolls_plain_dice_under_their_name(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys_of(":roll 2d6+1"), "enter")
        await until(pilot, lambda: "Alice: 2d6+1" in screen_text(app), "Alice's roll in the log")
        assert [(e.by, e.hidden) for e in rolled(table)] == [("Alice", False)]
        # Hidden dice are the GM's: refused, with one line, and nothing rolled.
        await pilot.press(*keys_of(":roll 1d20 hidden"), "enter")
        await until(pilot, lambda: "Only the GM rolls hidden dice" in screen_text(app))
        assert len(rolled(table)) == 1


async def test_the_gm_rolls_hidden_dice_kept_in_the_journal_and_the_replay(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cellar.fight"
    table = table_at(path)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys_of(":roll 1d20+7 hidden"), "enter")
        await until(pilot, lambda: "(hidden) 1d20+7" in screen_text(app), "the GM's hidden roll")
        assert [(e.by, e.hidden) for e in rolled(table)] == [("", True)]
        await pilot.press("R")  # the replay, on the GM's seat, shows it too
        await until(pilot, lambda: "(hidden) 1d20+7" in screen_text(app), "it in the replay")
    table.session.close()
    kept = [e for e in storage.load(path).history.effective_events() if isinstance(e, DiceRolled)]
    assert [(e.notation, e.hidden) for e in kept] == [("1d20+7", True)]


async def test_a_hidden_roll_never_reaches_a_players_seat(tmp_path: Path) -> None:
    """Over SSH: the GM's hidden roll is on the GM's screen; Alice's screen, and every byte
    her seat was sent up to a later public roll, hold no trace of it."""
    served = await serve(tmp_path)
    gm = await Client.join(served, "gm", size=SMALL)
    alice = await Client.join(served, "alice", size=SMALL)
    try:
        gm.type(":roll 1d20+7 hidden\r")
        await until_served(lambda: "(hidden) 1d20+7" in gm.text())
        gm.type(":roll 3d4+2\r")
        await until_served(lambda: "3d4+2" in alice.text())
        await until_served(lambda: "3d4+2" in gm.text())
        assert "1d20+7" not in alice.text()
        assert "1d20+7" not in alice.output and "hidden" not in alice.output
        alice.type(":roll 2d6+1\r")
        await until_served(lambda: "Alice: 2d6+1" in gm.text())
    finally:
        await gm.close()
        await alice.close()
        served.server.close()
        await served.server.wait_closed()
        served.session.close()
