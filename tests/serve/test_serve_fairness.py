"""Table-wide fairness: window changes count as input, the seats' input shares one budget
with the GM's keys first, a join link seats a bounded number, and a seat's socket opens
from the table's own pages only."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import asyncssh
import pytest
from textual import events

from rules.commands import AddNote
from tests.screen import screen_text
from tests.serve.serve_helpers import Client, Served, encounter, until
from tests.serve.web_helpers import Browser, seat_of, serve_web
from tracker.serve import limits
from tracker.serve.limits import FLOODED, Fair
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.serve.web import WebServer, origin_of


async def test_a_window_change_flood_closes_the_seat(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    seat = alice.seat
    assert seat is not None
    for n in range(20_000):  # far more than anyone drags a window
        alice.process.change_terminal_size(80 + n % 2, 24)
    await until(lambda: FLOODED in alice.output)
    await until(lambda: seat.id not in served.table.seats)
    assert "key:alice" in served.server.cooldown
    served.session.execute(AddNote("after the resizes"))
    await until(lambda: "after the resizes" in gm.text())
    await gm.close()
    await alice.close()


async def test_the_gm_keys_never_wait_behind_the_seats(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    fair = served.server.fair
    driver = gm.channel.app.channel_driver
    assert driver.fair is fair and driver.first  # the GM's keys are never queued
    alice.type("?")
    await until(lambda: "Keys" in alice.text())  # a quiet table's key passes at once
    release = fair.hold(at_most=3600)  # as a GM's key or a newcomer holds the seats' input
    alice.type("\x1b")
    await until(lambda: fair.waiting() == 1)
    gm.type("?")
    await until(lambda: "Keys" in gm.text())
    assert fair.waiting() == 1 and "Keys" in alice.text()  # hers still waits
    release()
    await until(lambda: "Keys" not in alice.text())
    await gm.close()
    await alice.close()


async def test_a_gm_key_and_a_newcomer_hold_the_seats_until_drawn(served: Served) -> None:
    gm = await Client.join(served, "gm")
    fair = served.server.fair
    await until(lambda: fair.held == 0)
    holds = fair.holds
    gm.type("?")  # holds the seats' input until the GM's screen has it
    await until(lambda: "Keys" in gm.text() and fair.held == 0)
    assert fair.holds == holds + 1
    bob = await Client.join(served, "bob", wait=False)
    # The newcomer's login, its view, then its own app (started once the view has drawn
    # the table: a moment after "Roll log" shows, its hold may not have come yet).
    await until(lambda: "Roll log" in bob.text() and fair.held == 0 and fair.holds >= holds + 4)
    assert fair.holds == holds + 4
    await gm.close()
    await bob.close()


async def logged_in(served: Served, key: str) -> asyncssh.SSHClientConnection:
    """A connection logged in by ``key`` that has opened no session yet."""
    return await asyncssh.connect(
        "127.0.0.1", served.port, username=key, client_keys=[served.keys[key]], known_hosts=None
    )


async def test_a_login_goes_ahead_of_the_seats_until_its_table_is_drawn(served: Served) -> None:
    alice = await Client.join(served, "alice")
    fair = served.server.fair
    fair.hold_at_most = 3600  # released by what it waits for, never by a clock, here
    alice.type("?")
    await until(lambda: "Keys" in alice.text() and fair.held == 0)
    # Bob has proved who he is: the seats' input waits for him from now on.
    conn = await logged_in(served, "bob")
    await until(lambda: fair.held == 1)
    alice.type("\x1b")
    await until(lambda: fair.waiting() == 1)
    process = await conn.create_process(term_type="xterm", term_size=(100, 30))
    bob = Client(served, conn, process)
    await until(lambda: "Roll log" in bob.text())
    # His table drawn, its holds released: Alice's key has its turn.
    await until(lambda: "Keys" not in alice.text() and fair.held == 0)
    await bob.close()
    # A login that leaves before its session releases its hold too.
    conn = await logged_in(served, "bob")
    await until(lambda: fair.held == 1)
    conn.close()
    await until(lambda: fair.held == 0)
    await alice.close()


async def test_seats_speak_aes_gcm_whatever_the_client_prefers(served: Served) -> None:
    conn = await logged_in(served, "bob")  # asyncssh's client, like OpenSSH's, asks ChaCha20 first
    ciphers = {conn.get_extra_info("send_cipher"), conn.get_extra_info("recv_cipher")}
    assert all(cipher.endswith("-gcm@openssh.com") for cipher in ciphers), ciphers
    conn.close()


async def test_the_seats_take_turns_and_mouse_moves_are_merged() -> None:
    fair = Fair()
    got: list[str] = []
    for n in range(3):
        fair.submit("busy", n, lambda n=n: got.append(f"busy {n}"))
    fair.submit("quiet", 0, lambda: got.append("quiet"))
    move = events.MouseMove(None, 1, 1, 0, 0, 0, False, False, False)
    for _ in range(10):
        fair.submit("mouse", move, lambda: got.append("moved"))
    assert fair.waiting() == 5
    while (deliver := fair.take()) is not None:
        deliver()
    assert got == ["busy 0", "quiet", "moved", "busy 1", "busy 2"]
    for n in range(limits.QUEUE + 5):
        fair.submit("flood", n, lambda: None)
    assert fair.waiting() == limits.QUEUE and fair.dropped == 5
    fair.forget("flood")
    assert fair.waiting() == 0
    fair.close()


async def test_a_seats_event_that_fails_stops_no_other_seats_input() -> None:
    fair = Fair()
    got: list[str] = []
    told: list[object] = []
    loop = asyncio.get_running_loop()
    handler = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: told.append(context.get("exception")))

    def broken() -> None:
        raise RuntimeError("a seat's app failed as its key was handed on")

    try:
        fair.submit("broken", 0, broken)
        fair.submit("fine", 0, lambda: got.append("fine"))
        await until(lambda: got == ["fine"])  # the pump went on to the next seat
        assert [type(error) for error in told] == [RuntimeError]  # told, not lost
    finally:
        loop.set_exception_handler(handler)
        fair.close()


async def test_the_local_gm_keys_hold_the_seats_too(tmp_path: Path) -> None:
    session, _ = encounter()
    table = Table(session)
    fair = Fair()
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    app.goes_first = fair  # as `tracker serve` sets it for the GM's own terminal
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("question_mark")
        await until(lambda: "Keys" in screen_text(app))
        assert fair.holds >= 1  # (a key held back for its screen is seen again)
        await until(lambda: fair.held == 0)  # released once drawn
    fair.close()


def test_the_seats_input_takes_at_most_its_share_of_the_loop() -> None:
    fair = Fair()
    for took in (0.0, 0.01, 0.3, 5.0):  # the last event's work, from its key to its frame
        pause = fair.pace(took)
        assert limits.MIN_PAUSE <= pause <= limits.MAX_PAUSE
        share = took / (took + pause)
        assert share <= limits.SHARE or pause == limits.MAX_PAUSE
    assert fair.pace(0.3) == pytest.approx(0.3 * (1 - limits.SHARE) / limits.SHARE)


def test_origins_are_compared_as_browsers_send_them() -> None:
    assert origin_of("https://Table.example:443/join/x") == "https://table.example"
    assert origin_of("http://[::1]:8080") == "http://[::1]:8080"
    assert origin_of("http://h:99999") == origin_of("null") == origin_of("") == ""


async def test_the_loopback_is_the_served_host_under_any_of_its_names(tmp_path: Path) -> None:
    web = await serve_web(tmp_path)  # on 127.0.0.1
    try:
        socket = web.url(web.link("spectator", "Pub")).replace("/join/", "/ws/")
        port = web.web.port
        for host in ("127.0.0.1", "localhost", "[::1]"):
            ws = await web.http.ws_connect(socket, origin=f"http://{host}:{port}")
            await ws.close()
        for origin in (f"http://localhost:{port + 1}", f"https://localhost:{port}"):
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await web.http.ws_connect(socket, origin=origin)
        # Links on another loopback address (--web-url): its page, under any name, too.
        other = WebServer(web.served.server, "127.0.0.1", 0, url="http://localhost:9999")
        await other.start()
        assert origin_of("http://[::1]:9999") in other.origins()
        assert origin_of("http://table.example:9999") not in other.origins()
        await other.close()
    finally:
        await web.close()


async def test_a_link_seats_a_bounded_number_and_only_from_its_own_pages(
    tmp_path: Path,
) -> None:
    web = await serve_web(tmp_path, link_seats=2)
    try:
        pub = web.link("spectator", "Pub")
        seated = [await Browser.join(web, pub) for _ in range(2)]
        third = await Browser.join(web, pub, wait=False)
        await until(lambda: "seats 2 at most" in third.output and third.closed)
        alice = await Browser.join(web, web.link())  # a player's link still sits down
        assert seat_of(web, "Alice") is not None
        # The socket opens from the table's own page; a page from elsewhere gets a 403.
        socket = web.url(pub).replace("/join/", "/ws/")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await web.http.ws_connect(socket, origin="http://evil.example")
        assert refused.value.status == 403
        await until(lambda: any("another site" in n for n in web.served.table.notices))
        await seated[0].close()
        ws = await web.http.ws_connect(socket, origin=web.web.url)
        await ws.close()
        # Every response, whatever it is, may not be framed.
        for path in ("/static/js/textual.js", "/favicon.ico", "/join/nope", "/ws/nope", "/x"):
            async with web.http.get(web.web.url + path) as response:
                assert response.headers["X-Frame-Options"] == "DENY", path
                csp = response.headers["Content-Security-Policy"]
                assert "frame-ancestors 'none'" in csp, path
        for browser in (*seated, third, alice):
            await browser.close()
    finally:
        await web.close()
