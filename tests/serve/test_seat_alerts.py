"""Turn alerts: a player's seat is told "Up next" and "Your turn" once each, in its header,
with the bell and a desktop notification (OSC 9 and 777) over SSH, and as a packet for the
page in a browser; the player's own b and the GM's b in the seats dialog turn them off. The
GM's header says the table is served and how many seats are in."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import NextTurn
from tests.app.support import until as until_shown
from tests.hostile_text import EVERY, SEQUENCES, unsafe
from tests.screen import screen_text
from tests.serve.serve_helpers import Client, Served, until
from tests.serve.serve_helpers import table as table_at
from tests.serve.web_helpers import Browser, serve_web
from tracker.serve.alerts import BEL, terminal_alert, words
from tracker.serve.seat_app import TableApp, TableCommands

YOUR_TURN = f"{BEL}\x1b]9;Your turn: Orla\x1b\\"
UP_NEXT = f"{BEL}\x1b]9;Up next: Orla\x1b\\"


def to_orla(served: Served) -> None:
    """The turns passed round to Orla again (Brak, Goblin, the GM's hidden foe, Orla)."""
    for _ in range(4):
        served.session.execute(NextTurn())


async def test_a_player_hears_up_next_and_their_turn_once_each(served: Served) -> None:
    alice = await Client.join(served, "alice", size=(80, 24))
    served.session.execute(NextTurn())  # Brak's turn: nothing for Alice yet
    served.session.execute(NextTurn())  # Goblin's: Orla is next (the hidden foe is not seen)
    await until(lambda: UP_NEXT in alice.output)
    await until(lambda: "Up next: Orla" in alice.text())
    served.session.execute(NextTurn())  # the hidden foe's turn: nothing new for Alice
    served.session.execute(NextTurn())  # Orla's
    await until(lambda: YOUR_TURN in alice.output)
    await until(lambda: "Your turn: Orla" in alice.text())
    assert alice.output.count(UP_NEXT) == 1 and alice.output.count(YOUR_TURN) == 1
    # The OSC 777 notification too, and nothing of either inside a frame's text.
    assert "\x1b]777;notify;Combat tracker;Your turn: Orla\x1b\\" in alice.output
    # Her own b turns them off: the next round rings nothing.
    alice.type("b")
    await until(lambda: "Turn alerts off for this seat" in alice.text())
    assert alice.seat is not None and not alice.seat.alerts
    to_orla(served)
    await until(lambda: "Your turn: Orla" in alice.text())
    assert alice.output.count(YOUR_TURN) == 1
    await alice.close()


async def test_the_gm_turns_the_alerts_off_for_the_table(served: Served) -> None:
    alice = await Client.join(served, "alice", size=(80, 24))
    gm = await Client.join(served, "gm", size=(80, 24))
    gm.type("w")
    await until(lambda: "turn alerts to seats: on" in gm.text())
    gm.type("b")
    await until(lambda: "turn alerts to seats: off" in gm.text())
    to_orla(served)
    await until(lambda: "Your turn: Orla" in alice.text())  # the header still says it
    assert "\x1b]9;" not in alice.output and "\x1b]777;" not in alice.output
    await alice.close()
    await gm.close()


async def test_a_browser_seat_gets_its_alert_as_a_packet(tmp_path: Path) -> None:
    web = await serve_web(tmp_path)
    try:
        alice = await Browser.join(web, web.link())
        to_orla(web.served)
        await until(lambda: ["alert", "Your turn: Orla"] in alice.texts)
        assert alice.texts.count(["alert", "Your turn: Orla"]) == 1
        async with web.http.get(web.url(web.link())) as response:
            page = await response.text()
        assert "Notification.requestPermission" in page and '["alert"' in page
        await alice.close()
    finally:
        await web.close()


@pytest.mark.parametrize("hostile", [EVERY, *SEQUENCES])
def test_an_alert_carries_no_control_character_of_a_name(hostile: str) -> None:
    said = words("your turn", f"Orla{hostile}Vance")
    assert not unsafe(said) and ";" not in said and said.startswith("Your turn: Orla")
    framing = terminal_alert(said).replace(said, "")
    assert framing == f"{BEL}\x1b]9;\x1b\\\x1b]777;notify;Combat tracker;\x1b\\"


async def test_the_gms_header_says_the_table_is_served_and_the_seats_in(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=(80, 24)) as pilot:
        await until_shown(pilot, lambda: "served, 0 seats in" in screen_text(gm))
        table.join("player", "Alice", "127.0.0.1:5000", close=lambda why: None)
        await until_shown(pilot, lambda: "served, 1 seat in" in screen_text(gm))


def help_rows(app: TableApp) -> dict[str, str]:
    """The help dialog's rows (inside its frame of █), key to what it does."""
    inside = [line.split("█")[1] for line in screen_text(app).splitlines() if line.count("█") > 1]
    rows = [line.split(None, 1) for line in inside]
    return {row[0]: row[1].strip() for row in rows if len(row) == 2}


async def test_a_players_help_and_palette_list_b_and_the_gms_list_w(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    player = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with player.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until_shown(pilot, lambda: "Turn alerts on/off" in screen_text(player), "b")
        assert help_rows(player)["b"].startswith("Turn alerts on/off")
        assert "w" not in help_rows(player) and "Seats and join links" not in screen_text(player)
        await pilot.press("escape", "b")  # and b does what it says
        told = player._notifications  # private, tests only
        await until_shown(pilot, lambda: any("Turn alerts off" in n.message for n in told), "b")
        palette = [title for title, *_ in TableCommands(player.screen)._allowed()]
        assert palette == ["Turn alerts on/off for this seat"]
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=(80, 40)) as pilot:
        await pilot.press("question_mark")
        await until_shown(pilot, lambda: "Seats and join links" in screen_text(gm), "w")
        assert "b" not in help_rows(gm) and "Turn alerts on/off" not in screen_text(gm)
