"""The table served over SSH, with real asyncssh clients on loopback."""

from __future__ import annotations

from pathlib import Path

import asyncssh
import pytest

from rules.commands import AddNote, NextTurn
from rules.errors import Rejected
from tests.serve.serve_helpers import (
    SECRET,
    SECRET_NOTE,
    Client,
    Served,
    roll,
    roll_logged,
    roll_title,
    said_farewell,
    serve,
    until,
)
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.help import HelpScreen
from tracker.serve.seats import SeatSession


async def test_each_role_sees_its_own_view(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    await until(lambda: "Alice joined (player" in gm.text())  # the GM hears who comes
    bob = await Client.join(served, "bob", size=(80, 24))
    await until(lambda: SECRET in gm.text())
    assert "Orla" in alice.text() and "Goblin" in alice.text()
    for seat in (alice, bob):
        assert SECRET not in seat.text()
    # The footer offers each role its own keys.
    assert "Next turn" in gm.text()
    assert "r Roll" in alice.text() and "Add" not in alice.text()
    assert "n Next turn" in alice.text()  # her own turn's end (tests/serve/test_seat_turns.py)
    assert "r Roll" not in bob.text() and "? Help" in bob.text() and "Next turn" not in bob.text()
    for client in (gm, alice, bob):
        await client.close()


async def test_a_players_roll_appears_on_every_screen(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    bob = await Client.join(served, "bob")
    title = roll_title(served.session.state)
    for client in (gm, alice, bob):
        await until(lambda c=client: "No roll yet" in c.text())
    alice.type("r")
    await until(lambda: title in alice.text())
    alice.type("\r")
    for client in (gm, alice, bob):
        await until(lambda c=client: "No roll yet" not in c.text())  # the roll's pane
    assert served.session.history.records[-1].label == title
    logged = roll_logged(served.session)
    assert logged.startswith("Orla")
    for client in (gm, alice, bob):  # each seat draws the log's line in its own frame
        await until(lambda c=client: logged in c.text())
    # ... and the GM can undo it.
    gm.type("u")
    await until(lambda: "No roll yet" in bob.text() and logged not in bob.text())
    for client in (gm, alice, bob):
        await client.close()


async def test_keys_a_lone_escape_and_resize(served: Served) -> None:
    alice = await Client.join(served, "alice", size=(90, 28))
    seat = alice.seat
    assert seat is not None and seat.app is not None
    assert tuple(seat.app.size) == (90, 28)
    alice.type("?")
    await until(lambda: isinstance(seat.app.screen, HelpScreen))
    alice.type("\x1b")  # a lone Escape: delivered by the driver's parser tick
    await until(lambda: isinstance(seat.app.screen, EncounterScreen))
    alice.resize(120, 40)
    await until(lambda: tuple(seat.app.size) == (120, 40))
    await until(lambda: len(alice.text().splitlines()) == 40)
    alice.resize(60, 20)
    await until(lambda: tuple(seat.app.size) == (60, 20))
    alice.type("q")
    await until(lambda: seat.id not in served.table.seats)
    await alice.close()


async def test_a_player_acts_only_for_their_own_combatants(served: Served) -> None:
    alice = await Client.join(served, "alice")
    bob = await Client.join(served, "bob")
    seat = alice.seat
    assert seat is not None and seat.app is not None
    screen = seat.app.screen
    assert isinstance(screen, EncounterScreen)
    titles = [title for title, _, _ in screen.palette_commands()]
    assert "Roll" in titles
    for absent in ("Add", "Remove", "Undo", "Replay", "Open encounter"):
        assert absent not in titles
    # The key is there for nobody but the GM: pressing it does nothing (her n ends her own
    # turn: tests/serve/test_seat_turns.py).
    before = len(served.session.history.records)
    alice.type("u?")  # the help after it: once it shows, it was handled
    await until(lambda: "Keys" in alice.text())
    assert len(served.session.history.records) == before
    # Forced through the seat's session, the session itself refuses.
    session = seat.app.session
    assert isinstance(session, SeatSession)
    ids, state = served.ids, served.session.state
    for command, why in (
        (NextTurn(), "Only the GM"),
        (roll(state, ids["Brak"], ids["Goblin"]), "do not act for Brak"),
        (roll(state, ids["Orla"], ids[SECRET]), "No such combatant"),
        (AddNote("about Brak", ids["Brak"]), "do not act for Brak"),
    ):
        with pytest.raises(Rejected, match=why):
            session.execute(command)
    with pytest.raises(Rejected, match="Only the GM"):
        session.undo()
    # Her own combatant she may roll for.
    assert session.execute(roll(state, ids["Orla"], ids["Goblin"]))
    spectator = bob.seat.app.session  # type: ignore[union-attr]
    with pytest.raises(Rejected, match="Spectators"):
        spectator.execute(AddNote("hello"))
    assert len(served.session.history.records) == before + 1
    await alice.close()
    await bob.close()


async def test_no_gm_only_information_reaches_players_or_spectators(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    bob = await Client.join(served, "bob")
    ids = served.ids
    session = served.session
    # The secret combatant rolls against Orla, then the GM notes something about it.
    session.execute(roll(session.state, ids[SECRET], ids["Orla"]), "secret")
    session.execute(AddNote("it stirs", ids[SECRET]))
    session.execute(AddNote("visible note"))
    for client in (gm, alice, bob):
        await until(lambda c=client: "visible note" in c.text())
    await until(lambda: roll_logged(session) in gm.text())
    # The palette and the help of a player.
    alice.type("\x10")  # ctrl+p
    await until(lambda: "Search for commands" in alice.text() and "key: r" in alice.text())
    alice.type("\x1b")
    bob.type("?")
    await until(lambda: "Keys" in bob.text() and "Search for commands" not in alice.text())
    for client in (alice, bob):
        for secret in (SECRET, "it stirs", "the real villain", SECRET_NOTE):
            assert secret not in client.text()
            assert secret not in client.output  # nothing ever sent down the wire
        assert "No roll yet" in client.output  # the hidden roll left the pane empty
    # The state, the log and the exports a player's session gives.
    seat_session = alice.seat.app.session  # type: ignore[union-attr]
    assert SECRET not in str(seat_session.state)
    assert all(SECRET not in str(pair) for pair in seat_session.history.in_effect())
    from tracker.store import export

    report = export.to_markdown(session.history) + str(export.to_json(session.history))
    assert SECRET not in report and SECRET_NOTE not in report
    for client in (gm, alice, bob):
        await client.close()


async def test_typed_markup_and_escape_codes_stay_text(served: Served) -> None:
    alice = await Client.join(served, "alice")
    served.session.execute(AddNote("[red]red[/red] [link=https://evil.example]x[/link] \x1b[2J!"))
    await until(lambda: "[link=" in alice.text())
    assert "[red]red[/red]" in alice.text()
    assert "\x1b[2J" not in alice.output and "evil.example\x1b" not in alice.output
    assert "\x1b]8;" not in alice.output  # no hyperlink was made
    await alice.close()


async def test_a_wrong_key_is_refused(served: Served) -> None:
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            served.port,
            username="gm",
            client_keys=[stranger],
            known_hosts=None,
            password=None,
        )


async def test_no_terminal_exec_sftp_or_forwarding(served: Served) -> None:
    conn = await asyncssh.connect(
        "127.0.0.1", served.port, username="bob", client_keys=[served.keys["bob"]], known_hosts=None
    )
    result = await conn.run()  # a shell without a PTY
    assert result.exit_status == 1
    assert "needs a terminal" in str(result.stderr)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.run("cat /etc/passwd", check=True)
    with pytest.raises(asyncssh.Error):
        await conn.start_sftp_client()
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_connection("127.0.0.1", served.port)
    assert not served.table.seats
    conn.close()


async def test_a_dropped_connection_leaves_the_encounter_intact(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    seat = alice.seat
    assert seat is not None
    alice.type("r")  # in the middle of a dialog
    await until(lambda: roll_title(served.session.state) in alice.text())
    before = served.session.state
    alice.conn.abort()
    await until(lambda: seat.id not in served.table.seats)
    assert served.session.state == before
    gm.type("n")
    await until(lambda: len(served.session.history.records) > 5)
    await gm.close()


async def test_the_gm_assigns_combatants_and_kicks_a_seat(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    gm.type("w")
    await until(lambda: "Seats at the table" in gm.text())
    assert "Alice" in gm.text() and "player" in gm.text()
    gm.type("\x1b[B")  # down to Alice (GM, Alice)
    gm.type("a")
    await until(lambda: "Alice acts for" in gm.text())
    app = gm.seat.app  # type: ignore[union-attr]
    # GM-only combatants are not offered to a player (the GM's log behind may name them).
    assert not app.screen.query(f"#field-{served.ids[SECRET]}")
    assert app.screen.query(f"#field-{served.ids['Orla']}")
    await until(lambda: app.focused is not None and app.focused.id == "field-c1")  # Orla
    gm.type("\t ")  # Brak: yes
    gm.type("\r")
    ids = served.ids
    await until(lambda: served.table.assigned["Alice"] == {ids["Orla"], ids["Brak"]})
    seat = alice.seat
    assert seat is not None
    gm.type("k")
    await until(lambda: "Close Alice's seat" in gm.text())
    gm.type("y")
    await until(lambda: seat.id not in served.table.seats)
    await until(lambda: "The GM closed your seat.\r\n" in alice.output)
    # Said as every seat's farewell is: after the alternate screen, on a clean line (Alice
    # only watched: her view drew the headers the kick changed after her app had left it).
    assert said_farewell(alice.output, "The GM closed your seat."), alice.output[-600:]
    await gm.close()


async def test_the_table_is_capped(tmp_path: Path) -> None:
    served = await serve(tmp_path, max_seats=1)
    try:
        alice = await Client.join(served, "alice", wait=False)
        await until(lambda: served.table.seats)
        with pytest.raises((asyncssh.Error, ConnectionError)):
            await Client.join(served, "bob")
        await alice.close()
    finally:
        served.server.close()
        await served.server.wait_closed()


async def test_an_idle_seat_is_closed(tmp_path: Path) -> None:
    served = await serve(tmp_path, idle_timeout=1.0)
    try:
        alice = await Client.join(served, "alice", wait=False)
        await until(lambda: "Closed after being idle too long." in alice.output)
        await until(lambda: not served.table.seats)
        await alice.close()
    finally:
        served.server.close()
        await served.server.wait_closed()


async def test_a_table_password_seats_players_by_their_login(tmp_path: Path) -> None:
    served = await serve(tmp_path, password="open sesame")
    try:
        async with asyncssh.connect(
            "127.0.0.1",
            served.port,
            username="Carol",
            password="open sesame",
            client_keys=None,
            known_hosts=None,
        ) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await until(lambda: any(s.name == "Carol" for s in served.table.seats.values()))
            seat = next(s for s in served.table.seats.values() if s.name == "Carol")
            assert seat.role == "player"
            await until(lambda: seat.app is not None and seat.app.console.color_system)
            assert seat.app.console.color_system == "standard"  # the client's plain xterm
            process.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1",
                served.port,
                username="Carol",
                password="wrong",
                client_keys=None,
                known_hosts=None,
            )
    finally:
        served.server.close()
        await served.server.wait_closed()


async def test_a_new_encounter_cannot_replace_the_served_one(served: Served) -> None:
    # Found by the served walk: `N` from the GM's seat closed it with an AttributeError.
    # The served encounter stays the one served: a seat is not offered N (README).
    gm = await Client.join(served, "gm")
    saves = sorted(p.name for p in served.server.config.saves.iterdir())
    gm.type("N?")  # the help after it: once it shows, N was handled
    await until(lambda: "Keys" in gm.text())
    app = gm.seat.app  # type: ignore[union-attr]
    assert [type(s) for s in app.screen_stack[-2:]] == [EncounterScreen, HelpScreen]  # no dialog
    assert gm.seat is not None and not served.table.notices
    assert sorted(p.name for p in served.server.config.saves.iterdir()) == saves  # no new file
    assert served.session.state.name == "Cellar"
    await gm.close()
