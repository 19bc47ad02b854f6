"""Shared views: seats that only watch are drawn one frame for all, until their first key."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from rules.commands import AddNote, NextTurn
from tests.serve.serve_helpers import LIMIT, Client, Served, said_farewell, serve, until
from tracker.serve import twins
from tracker.terminal import textual_internals
from tracker.terminal.shared_lines import KEPT_BARS
from tracker.widgets.roll_log import RollLog

PASSWORD = "pw"
SMALL = (80, 24)


@pytest.fixture
async def served(tmp_path: Path):
    served = await serve(tmp_path, password=PASSWORD)
    yield served
    served.server.close()
    await served.server.wait_closed()


async def watcher(served: Served, login: str, size: tuple[int, int] = (90, 26)) -> Client:
    return await Client.join(served, login, size=size, password=PASSWORD)


def views(served: Served) -> int:
    return len(served.server.views.views)


async def test_watching_seats_share_one_view_until_their_first_key(served: Served) -> None:
    one, two = await watcher(served, "watch"), await watcher(served, "watcher")
    assert views(served) == 1 and one.channel.view is two.channel.view
    assert one.seat.muted and two.seat.muted  # type: ignore[union-attr]
    served.session.execute(AddNote("while they watch"))
    for client in (one, two):
        await until(lambda c=client: "while they watch" in c.text())
    await until(lambda: one.text() == two.text())
    # The first key: that seat is drawn by its own app, caught up with the note it was
    # not told of, and the other seat still watches the shared view.
    one.type("?")
    await until(lambda: "Keys" in one.text())
    assert not one.seat.muted and one.channel.view is None  # type: ignore[union-attr]
    assert two.channel.view is not None and "Keys" not in two.text()
    one.type("\x1b")
    await until(lambda: "while they watch" in one.text() and "Keys" not in one.text())
    served.session.execute(AddNote("after the key"))
    for client in (one, two):
        await until(lambda c=client: "after the key" in c.text())
    # A view ends with its last watcher.
    await two.close()
    await until(lambda: views(served) == 0)
    await one.close()


async def test_each_role_and_size_has_its_own_view(served: Served) -> None:
    spectator = await watcher(served, "watch")
    player = await watcher(served, "Carol")
    narrow = await watcher(served, "watcher", size=(70, 22))
    assert views(served) == 3
    assert spectator.channel.view is not player.channel.view
    assert narrow.channel.view is not spectator.channel.view
    assert "r Roll" in player.text() and "r Roll" not in spectator.text()
    assert max(len(line) for line in narrow.text().splitlines()) <= 70
    for client in (spectator, player, narrow):
        await client.close()


async def test_a_player_given_combatants_is_told_then_moves_to_that_view(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tracker.serve.channel.TOLD_SETTLE", 3.0)
    alice = await Client.join(served, "alice", size=(90, 26))  # acts for Orla
    carol = await watcher(served, "Carol")
    assert alice.channel.view is not carol.channel.view
    served.table.assign("Carol", frozenset({served.ids["Orla"]}))
    # Her own app draws her seat to tell her (a view, shared, tells nobody), then she
    # watches the view of those who play Orla.
    await until(lambda: "You play Orla" in carol.text())
    assert "Orla (you)" in carol.text()
    await until(lambda: carol.channel.view is alice.channel.view)
    assert views(served) == 1
    for client in (alice, carol):
        await client.close()


async def test_a_first_key_while_told_whom_one_plays_keeps_the_seat_its_own(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The GM gives two watching seats combatants, one after the other; each draws itself a
    # while to tell its player, and its player's first key comes in that while. That key
    # hands the seat to its own app for good: when the while is over the seat does not go
    # back to its view (it did, and the view hid the dialog the key opened until the next
    # key: `o` showed nothing, then `x` showed the note dialog with `x` typed).
    monkeypatch.setattr("tracker.serve.channel.TOLD_SETTLE", 10 * LIMIT)  # ended below
    jon, kim = await watcher(served, "Jon", SMALL), await watcher(served, "Kim", SMALL)
    for client, player, combatant in ((jon, "Jon", "Orla"), (kim, "Kim", "Brak")):
        served.table.assign(player, frozenset({served.ids[combatant]}))
        await until(lambda c=client, n=combatant: f"You play {n}" in c.text())
    for client in (jon, kim):
        client.type("o")
        await until(lambda c=client: "Add a note" in c.text())
    for client in (jon, kim):  # the while is over
        settle = client.channel._settle
        if settle is not None:  # (a timer still due: run now)
            settle.cancel()
            client.channel._settled()
    # What reaches their screens now is their own app's: the dialog stays.
    header = {client: client.text().splitlines()[0] for client in (jon, kim)}
    served.session.execute(NextTurn())
    for client in (jon, kim):
        await until(lambda c=client: c.text().splitlines()[0] != header[c])
        assert "Add a note" in client.text(), client.text()
        assert client.channel.view is None and not client.seat.muted  # type: ignore[union-attr]
    for client in (jon, kim):
        await client.close()


async def test_a_resized_watcher_draws_itself_then_watches_its_size(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tracker.serve.channel.RESIZE_SETTLE", 0.3)
    one, two = await watcher(served, "watch"), await watcher(served, "watcher")
    channel = one.channel
    drawn_by: list[object] = []  # who drew the seat after each change of hands
    for name in ("draw_own", "_watch"):
        method = getattr(channel, name)
        monkeypatch.setattr(
            channel, name, lambda m=method, n=name: (m(), drawn_by.append((n, channel.view)))
        )
    one.resize(72, 22)
    # At once its own app draws the new size, while the window may still be moving; once
    # the size settles, the seat watches a view of its own size.
    await until(lambda: len(drawn_by) == 2)
    assert drawn_by[0] == ("draw_own", None)
    name, view = drawn_by[1]
    assert name == "_watch" and view is channel.view and view is not None
    assert view.key.size == (72, 22) and views(served) == 2
    await until(lambda: "Roll log" in one.text() and "palette" in one.text())
    served.session.execute(AddNote("after the resize"))
    for client in (one, two):
        await until(lambda c=client: "after the resize" in c.text())
    assert max(len(line) for line in one.text().splitlines()) <= 72
    for client in (one, two):
        await client.close()


async def test_watchers_of_a_view_that_stops_draw_on_their_own(served: Served) -> None:
    one = await watcher(served, "watch")
    view = one.channel.view
    assert view is not None
    view.app.exit()
    await until(lambda: one.channel.view is None and not one.seat.muted)  # type: ignore[union-attr]
    served.session.execute(AddNote("still shown"))
    await until(lambda: "still shown" in one.text())
    await one.close()


async def test_a_seats_own_app_takes_over_with_what_its_view_showed(served: Served) -> None:
    # The premise of sharing: a seat's screen depends on its view's key only (not, say,
    # the player's name), so taking the seat over changes nothing on it.
    served.table.assign("Carol", frozenset({served.ids["Orla"]}))
    alice = await Client.join(served, "alice", size=(90, 26))  # acts for Orla too
    carol = await watcher(served, "Carol")
    assert carol.channel.view is alice.channel.view
    served.session.execute(AddNote("before the key"))
    await until(lambda: "before the key" in carol.text())
    sent = len(carol.output)
    carol.type("y")  # no such key: it only hands the seat to its own app
    await until(lambda: not carol.seat.muted)  # type: ignore[union-attr]
    # Its own app drew the whole screen again, and it looks the same as the view's.
    await until(lambda: "Combatants" in carol.output[sent:] and "Roll log" in carol.output[sent:])
    await until(lambda: carol.text() == alice.text())
    for client in (alice, carol):
        await client.close()


async def test_a_newcomers_own_app_starts_after_the_view_and_gets_what_was_typed(
    served: Served,
) -> None:
    # The first frame is the view's alone; the seat's own app starts once it is drawn, or
    # at the seat's first key: a key typed before its app is up is kept for it.
    alice = await Client.join(served, "alice", wait=False)
    alice.type("?")  # at once: before any frame, before her own app is up
    await until(lambda: "Keys" in alice.text())
    assert alice.channel.ready and not alice.seat.muted  # type: ignore[union-attr]
    bob = await Client.join(served, "bob", wait=False)
    await until(lambda: "Roll log" in bob.text() and "palette" in bob.text())
    await until(lambda: bob.channel.ready)  # started after the view's frame, without a key
    assert bob.seat.muted  # type: ignore[union-attr]  # still watching the view
    for client in (alice, bob):
        await client.close()


async def test_a_kicked_watching_seat_is_told_after_its_screen_is_left(served: Served) -> None:
    # Alice only watches; the GM kicks her by keys (w, her row, k, y). Her farewell was
    # written at the top of her terminal's own screen, over a header her view drew there
    # after her app had left the alternate screen: `The GM closed your seat.eneric d20...`
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice", size=SMALL)
    assert alice.channel.view is not None
    gm.type("w")
    await until(lambda: "Seats at the table" in gm.text())
    gm.type("\x1b[B")  # down to Alice (GM, Alice)
    gm.type("k")
    await until(lambda: "Close Alice's seat" in gm.text())
    gm.type("y")
    await until(lambda: "The GM closed your seat.\r\n" in alice.output)
    assert said_farewell(alice.output, "The GM closed your seat."), alice.output[-600:]
    await alice.close()
    await gm.close()


async def test_a_seat_closed_before_its_own_app_starts_leaves_nothing(served: Served) -> None:
    before = set(served.server.views.views)
    started: list[bool] = []

    def kick_at_once(news: str) -> None:
        if news.startswith("Alice joined"):  # told as she sits down: kicked right after
            asyncio.get_running_loop().call_soon(kick)

    def kick() -> None:
        channel = next(c for c in served.server.channels if c.player.name == "Alice")
        assert channel.seat is not None
        started.append(channel.task is not None)
        served.table.kick(channel.seat.id)

    unwatch = served.table.watch(kick_at_once)
    alice = await Client.join(served, "alice", wait=False)
    await until(lambda: "The GM closed your seat.\r\n" in alice.output)
    unwatch()
    assert said_farewell(alice.output, "The GM closed your seat.")  # the screen left too
    assert started == [False]  # her own app had not started
    await until(lambda: not served.table.seats and not served.server.channels)
    assert set(served.server.views.views) == before  # her view ended with her
    await alice.close()


async def test_typed_seats_share_scrollbars_drawn_as_each_would_draw_its_own(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seats that draw themselves share a scrollbar drawn once (tracker/terminal/shared_lines.py):
    # each one handed on is compared with the bar drawn by Textual for that seat, segment by
    # segment (text and colours), as the log scrolls and its thumb catches up, on seats of
    # other roles, sizes and colours.
    compared: list[bool] = []
    shared = ScrollBar.render_lines
    # Alice and Carol show the same: as twins one app would draw both (test_serve_twins.py).
    monkeypatch.setattr(twins, "pair", lambda channel, others: None)

    def checked(bar: ScrollBar, crop: Region) -> list[Strip]:
        ours = shared(bar, crop)
        own = textual_internals.textuals_scrollbar_lines(bar, crop)
        compared.append([list(line) for line in ours] == [list(line) for line in own])
        return ours

    served.table.assign("Carol", frozenset({served.ids["Orla"]}))  # as Alice
    gm = await Client.join(served, "gm", size=(90, 26))
    alice = await Client.join(served, "alice", size=(90, 26))
    carol = await watcher(served, "Carol")
    plain = await Client.join(served, "watch", size=(90, 26), term="xterm", password=PASSWORD)
    narrow = await watcher(served, "watcher", size=(84, 26))
    seats = (gm, alice, carol, plain, narrow)
    for client in seats:
        client.type("\x1b[B")  # ↓: each seat draws itself from now on
    await until(lambda: all(not c.seat.muted for c in seats))  # type: ignore[union-attr]
    monkeypatch.setattr(ScrollBar, "render_lines", checked)
    hits = KEPT_BARS.hits
    for number in range(16):
        served.session.execute(AddNote(f"shared {number}"))

    def caught_up(client: Client) -> bool:
        app = client.seat.app  # type: ignore[union-attr]
        log = app.screen.query_one(RollLog)
        bar = log.vertical_scrollbar
        return (
            "shared 15" in client.text()
            and log.show_vertical_scrollbar
            and bar.window_virtual_size == log.virtual_size.height
            and bar.position == log.scroll_y
        )

    for client in seats:
        await until(lambda c=client: caught_up(c))
    served.session.execute(AddNote("one more"))
    for client in seats:
        await until(lambda c=client: "one more" in c.text() and caught_up(c))
    assert compared and all(compared)
    assert KEPT_BARS.hits > hits  # shared indeed
    await until(lambda: carol.text() == alice.text())  # the same look, the same screen
    for client in seats:
        await client.close()
