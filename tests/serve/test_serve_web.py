"""Browser seats: the table over HTTP and WebSocket from a join link, with an aiohttp client
that speaks as the page's textual.js does (tests/serve/web_helpers.py)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from rules.commands import AddNote
from tests.screen import screen_text
from tests.serve.serve_helpers import SECRET, Client, encounter, roll, roll_logged, roll_title
from tests.serve.web_helpers import Browser, WebServed, channel_of, seat_of, serve_web, until
from tracker.serve import players
from tracker.serve.limits import BYTE_BURST, FLOODED, MAX_SIZE, PASTE_END, PASTE_START
from tracker.serve.links import Links
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.serve.web import BACKLOG, Socket


@pytest.fixture
async def web(tmp_path: Path):
    served = await serve_web(tmp_path)
    yield served
    await served.close()


async def test_no_valid_token_no_table(web: WebServed) -> None:
    link = web.link()
    base = web.web.url
    for path in ("/join/" + "A" * 22, "/ws/" + "A" * 22, "/join/", "/ws/x", "/"):
        async with web.http.get(base + path) as response:
            assert response.status in (403, 404), path
            assert link.token not in await response.text()
    async with web.http.get(web.url(link)) as response:
        assert response.status == 200
        page = await response.text()
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    # Everything the page loads comes from this server: no CDN, no web font service.
    loaded = re.findall(r'(?:src|href)="([^"]*)"|url\("([^"]*)"\)|\.src = "([^"]*)"', page)
    assert len(loaded) == 4
    assert all("".join(found).startswith("/static/") for found in loaded), loaded
    assert "http://" not in page and "https://" not in page
    assert "/static/js/textual.js" in page and link.token not in page
    async with web.http.get(base + "/static/js/textual.js") as response:
        assert response.status == 200 and len(await response.read()) > 100_000
    async with web.http.get(base + "/static/") as response:
        assert response.status in (403, 404)  # no listing
    web.served.table.links.revoke(link)
    async with web.http.get(web.url(link)) as response:
        assert response.status == 403


async def test_a_player_joins_from_a_link_and_plays(web: WebServed) -> None:
    served = web.served
    alice = await Browser.join(web, web.link())
    seat = seat_of(web, "Alice")
    assert seat is not None and seat.role == "player" and seat.peer.endswith("(web)")
    assert "Orla" in alice.text() and SECRET not in alice.text()
    assert "r Roll" in alice.text()  # her combatant's keys, as her key would give
    # The GM's roll (played on the GM's screen: the same session) arrives.
    ids = served.ids
    served.session.execute(roll(served.session.state, ids["Goblin"], ids["Brak"]))
    await until(lambda: roll_logged(served.session) in alice.text())
    # She plays her combatant.
    title = roll_title(served.session.state)
    await alice.type("r")
    await until(lambda: title in alice.text())
    await alice.type("\r")
    await until(lambda: served.session.history.records[-1].label == title)
    await until(lambda: roll_logged(served.session) in alice.text())
    assert roll_logged(served.session).startswith("Orla")
    await alice.send("ping", "12345")
    await until(lambda: ["pong", "12345"] in alice.texts)
    await alice.close()


async def test_a_browser_and_an_ssh_seat_share_the_table(web: WebServed) -> None:
    served = web.served
    gm = await Client.join(served, "gm")
    alice = await Browser.join(web, web.link())
    await until(lambda: "Alice joined (player" in gm.text())
    gm.type("n")  # the GM moves the turn on: the browser sees it
    await until(lambda: "Brak's turn" in alice.text())
    gm.type("u")  # and undoes it
    await until(lambda: "Orla's turn" in alice.text())
    await alice.close()
    await gm.close()


async def test_size_is_clamped(web: WebServed) -> None:
    alice = await Browser.join(web, web.link(), size=(99999, 99999), wait=False)
    await until(lambda: seat_of(web, "Alice") is not None)
    seat = seat_of(web, "Alice")
    assert seat is not None
    await until(lambda: seat.app is not None and tuple(seat.app.size) == MAX_SIZE)
    await alice.resize(90, 28)
    await until(lambda: tuple(seat.app.size) == (90, 28))  # type: ignore[union-attr]
    await alice.resize(5000, -3)
    await until(lambda: tuple(seat.app.size) == (MAX_SIZE[0], 6))  # type: ignore[union-attr]
    await alice.close()


async def test_garbage_packets_are_ignored(web: WebServed) -> None:
    alice = await Browser.join(web, web.link())
    for junk in ("not json", "[" * 5000 + "]" * 5000, '["stdin", 5]', '{"a": 1}', '["eval", "x"]'):
        await alice.ws.send_str(junk)
    await alice.ws.send_bytes(b"\xff\xfe")
    await alice.send("focus")
    await alice.type("?")
    await until(lambda: "Keys" in alice.text())  # still at the table, still typing
    await alice.close()


async def test_a_flood_closes_the_seat_and_the_link_cools_down(web: WebServed) -> None:
    served = web.served
    link = web.link()
    alice = await Browser.join(web, link)
    for _ in range(1500):  # far more packets than anyone types
        await alice.type("x")
    await until(lambda: FLOODED in alice.output)
    await until(lambda: alice.closed)
    await until(lambda: seat_of(web, "Alice") is None)
    assert any("flooded the table" in notice for notice in served.table.notices)
    served.session.execute(AddNote("after the flood"))  # the table plays on
    again = await Browser.join(web, link, wait=False)
    await until(lambda: "Closed for flooding" in again.output)
    await until(lambda: again.closed)


async def test_a_paste_over_64_kb_is_cut_with_a_line_and_the_seat_plays_on(
    web: WebServed,
) -> None:
    """A paste is one message: one over 64 KB (here over the old 256 KB message bound too)
    closed the seat, as a flood or by the socket's limit. Now its first 64 KB are read,
    the paste still ended, and the seat is told in one line."""
    served = web.served
    alice = await Browser.join(web, web.link())
    channel = channel_of(web, "Alice")
    await until(lambda: channel.ready)  # what she types reaches her own app
    read: list[str] = []
    data_received = channel.data_received

    def spy(data: str, kind: object) -> None:  # what the seat reads of what she sent
        read.append(data)
        data_received(data, kind)

    channel.data_received = spy  # type: ignore[method-assign]
    await alice.type(PASTE_START + "x" * 300_000 + PASTE_END)
    await until(lambda: "Your paste was too long" in alice.text() or alice.closed)
    assert not alice.closed
    assert [len(text) for text in read] == [BYTE_BURST + len(PASTE_END)]
    assert read[0].startswith(PASTE_START + "xxx") and read[0].endswith("x" + PASTE_END)
    await alice.type("?")  # still at the table, typing keys (not more of the paste)
    await until(lambda: "Keys" in alice.text())
    assert not alice.closed and seat_of(web, "Alice") is not None
    assert not any("Alice" in notice for notice in served.table.notices if "closed" in notice)
    await alice.close()


async def test_a_paste_as_a_browser_sits_down_is_cut_and_ended_too(web: WebServed) -> None:
    # Sent at once, before her own app is up: kept for it (4 KB at most), the paste ended.
    alice = await Browser.join(web, web.link(), wait=False)
    await alice.type(PASTE_START + "x" * 100_000 + PASTE_END)
    await until(lambda: "Your paste was too long" in alice.text() or alice.closed)
    await alice.type("?")  # a key, not more of the paste
    await until(lambda: "Keys" in alice.text() or alice.closed)
    assert not alice.closed
    await alice.close()


async def test_a_flooding_browser_is_hung_up_before_its_app_ends(web: WebServed) -> None:
    alice = await Browser.join(web, web.link())
    channel = channel_of(web, "Alice")
    close_with = channel.close_with
    channel.close_with = lambda message: None  # type: ignore[method-assign]  # a slow app
    try:
        for _ in range(1500):  # far more packets than anyone types
            await alice.type("x")
        await until(lambda: alice.closed and FLOODED in alice.output)
        assert channel.task is not None and not channel.task.done()  # its app still runs
    finally:
        close_with("")
    await until(lambda: seat_of(web, "Alice") is None)


async def test_a_closed_tab_frees_its_seat(web: WebServed) -> None:
    served = web.served
    alice = await Browser.join(web, web.link())
    await alice.type("r")
    await until(lambda: roll_title(served.session.state) in alice.text())
    before = served.session.state
    seat = seat_of(web, "Alice")
    assert seat is not None
    await alice.close()
    await until(lambda: seat.id not in served.table.seats and not served.server.web_seats)
    assert served.session.state == before


async def test_the_same_link_again_takes_the_seat_back(web: WebServed) -> None:
    link = web.link()
    first = await Browser.join(web, link)
    second = await Browser.join(web, link)
    await until(lambda: "from another connection" in first.output)
    await until(lambda: len(web.served.table.seats) == 1)
    # A spectator link seats many, each numbered.
    watch = web.link("spectator", "Table")
    viewers = [await Browser.join(web, watch) for _ in range(2)]
    names = sorted(s.name for s in web.served.table.seats.values())
    assert names == ["Alice", "Table", "Table 2"]
    assert all(SECRET not in viewer.text() for viewer in viewers)
    for browser in (second, *viewers):
        await browser.close()


async def test_the_seat_cap_counts_browsers(tmp_path: Path) -> None:
    web = await serve_web(tmp_path, max_seats=1)
    try:
        watcher = await Browser.join(web, web.link("spectator", "Pub"))
        full = await Browser.join(web, web.link("spectator", "Inn"), wait=False)
        await until(lambda: "The table is full." in full.output and full.closed)
        # A player's own link (one seat, its holder's) is never kept out by the others.
        cara = await Browser.join(web, web.link("player", "Cara"))
        assert seat_of(web, "Cara") is not None
        for browser in (watcher, cara):
            await browser.close()
    finally:
        await web.close()


async def test_an_idle_browser_seat_is_closed(tmp_path: Path) -> None:
    web = await serve_web(tmp_path, idle_timeout=1.0)
    try:
        alice = await Browser.join(web, web.link(), wait=False)
        await until(lambda: "idle too long" in alice.output)
        await until(lambda: not web.served.table.seats and alice.closed)
    finally:
        await web.close()


async def test_revoking_a_link_closes_its_seats(web: WebServed) -> None:
    link = web.link()
    alice = await Browser.join(web, link)
    channel = channel_of(web, "Alice")
    assert channel.seat is not None and channel.seat.link is link
    web.served.table.links.revoke(link)
    channel.seat.close("The GM revoked your join link.")  # what the seats dialog does
    await until(lambda: "revoked" in alice.output and alice.closed)
    assert web.served.table.links.find(link.token) is None


async def test_tokens_are_never_logged(web: WebServed, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    link = web.link()
    alice = await Browser.join(web, link)
    for _ in range(1500):
        await alice.type("x")
    await until(lambda: alice.closed)
    async with web.http.get(web.url(link) + "x") as response:
        assert response.status == 403
    assert link.token not in caplog.text
    assert link.token not in repr(link) and link.token not in "\n".join(web.served.table.notices)


async def test_a_browser_that_does_not_read_is_closed() -> None:
    class Stuck:
        closed = False

    sock = Socket(Stuck())  # type: ignore[arg-type]
    told: list[str] = []
    sock.on_overflow = lambda: told.append("slow")
    frame = "x" * 65536
    for _ in range(BACKLOG // len(frame) + 2):
        sock.write(frame)
    assert told == ["slow"]
    sock.write(frame)
    assert told == ["slow"]  # once


def test_links_are_random_and_checked() -> None:
    links = Links()
    a = links.make("player", "Alice")
    b = links.make("player", "Alice")
    assert a.token != b.token and len(a.token) >= 22  # 128 bits, URL-safe base64
    assert links.find(a.token) is a and links.find(a.token[:-1]) is None
    for role, name in (("gm", "Boss"), ("player", "GM"), ("player", ""), ("player", "a\x1bb")):
        with pytest.raises(ValueError):
            links.make(role, name)  # type: ignore[arg-type]


def test_link_lines_in_the_players_file() -> None:
    found = players.parse("player:Cara link\nspectator link\n")
    assert [(p.role, p.name, p.link, p.key) for p in found] == [
        ("player", "Cara", True, None),
        ("spectator", "spectator", True, None),
    ]
    with pytest.raises(players.PlayersError, match="line 1: the GM has no join link"):
        players.parse("gm link")


async def test_the_gm_makes_copies_and_revokes_links_in_the_seats_dialog(tmp_path: Path) -> None:
    session, _ = encounter()
    table = Table(session)
    table.links.base = "http://192.0.2.7:8080"
    kept = table.links.make("player", "Alice")
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("w")
        await pilot.pause()
        shown = screen_text(app)
        assert table.links.url(kept) in shown and "l: make a join link" in shown
        await pilot.press("l")
        await pilot.pause()
        assert "A join link for a browser seat" in screen_text(app)
        await pilot.press(*"Cara", "enter")
        await pilot.pause()
        made = [link for link in table.links if link.name == "Cara"]
        assert len(made) == 1 and made[0].role == "player"
        url = table.links.url(made[0])
        assert app.clipboard == url  # copied, and shown to read out
        await until(lambda: "Cara's link (copied)" in screen_text(app))
        assert url in screen_text(app)  # in the links
        await pilot.press("tab", "down", "c")  # to the links; Cara's
        assert app.clipboard == url
        await pilot.press("x")
        await pilot.pause()
        assert "Revoke Cara's join link?" in screen_text(app)
        await pilot.press("y")
        await pilot.pause()
        assert [link.name for link in table.links] == ["Alice"]
        app.clear_notifications()  # "copied: URL" may still be up; the links must not show it
        await pilot.pause()
        assert url not in screen_text(app)


async def test_without_web_the_dialog_says_how_to_make_links(tmp_path: Path) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("w")
        await pilot.pause()
        assert "make a join link" not in screen_text(app)
        await pilot.press("l")
        await until(lambda: "Serve with --web" in screen_text(app))
        assert not len(table.links)
