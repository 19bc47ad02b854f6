"""Twins: typed seats that show the same thing are drawn by one app, until one of them types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.commands import AddNote
from tests.serve.serve_helpers import Client, Served, serve, until
from tracker.serve import twins

PASSWORD = "pw"


@pytest.fixture
async def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(twins, "QUIET", 0.2)
    served = await serve(tmp_path, password=PASSWORD)
    yield served
    served.server.close()
    await served.server.wait_closed()


async def typed(served: Served, login: str, keys: str = "\x1b[B") -> Client:
    """A player by the table password who has pressed ``keys`` (↓) and drawn them."""
    client = await Client.join(served, login, size=(90, 26), password=PASSWORD)
    client.type(keys)
    await until(lambda: client.channel.typed and not client.seat.muted)  # type: ignore[union-attr]
    return client


def rows(client: Client) -> int:
    """The row the seat's combatants table has selected."""
    from tracker.widgets.combatants import CombatantsPane

    return int(client.channel.app.screen.query_one(CombatantsPane).cursor_row)


async def paired(one: Client, two: Client) -> tuple[Client, Client]:
    """Wait until one follows the other: (leader, follower)."""
    await until(lambda: one.channel.leader is two.channel or two.channel.leader is one.channel)
    return (two, one) if one.channel.leader is two.channel else (one, two)


async def test_typed_seats_showing_the_same_are_drawn_by_one(served: Served) -> None:
    carol, dave = await typed(served, "Carol"), await typed(served, "Dave")
    leader, follower = await paired(carol, dave)
    assert follower.seat.muted and not leader.seat.muted  # type: ignore[union-attr]
    assert leader.channel.followers == [follower.channel]
    served.session.execute(AddNote("to the twins"))
    for client in (carol, dave):
        await until(lambda c=client: "to the twins" in c.text())
    await until(lambda: carol.text() == dave.text())
    # The follower's first key: its own app draws it again, caught up, and the leader
    # is not shown what it opened.
    follower.type("?")
    await until(lambda: "Keys" in follower.text())
    assert follower.channel.leader is None and not leader.channel.followers
    assert "Keys" not in leader.text()
    follower.type("\x1b")
    await until(lambda: "to the twins" in follower.text() and "Keys" not in follower.text())
    # Back where the leader is: quiet, they pair again.
    leader, follower = await paired(carol, dave)
    served.session.execute(AddNote("paired again"))
    for client in (carol, dave):
        await until(lambda c=client: "paired again" in c.text())
    for client in (carol, dave):
        await client.close()


async def test_a_leader_that_types_hands_its_twins_on(served: Served) -> None:
    seats = [await typed(served, name) for name in ("Carol", "Dave", "Erin")]
    await until(lambda: sum(1 for c in seats if c.channel.leader is not None) == 2)
    leader = next(c for c in seats if c.channel.followers)
    others = [c for c in seats if c is not leader]
    leader.type("?")
    await until(lambda: "Keys" in leader.text())
    assert not leader.channel.followers and leader.channel.leader is None
    # One of the two draws itself and leads the other, which never saw the leader's help.
    heir = next(c for c in others if c.channel.leader is None)
    rest = next(c for c in others if c is not heir)
    assert rest.channel.leader is heir.channel and not heir.seat.muted  # type: ignore[union-attr]
    assert all("Keys" not in c.text() for c in others)
    leader.type("\x1b")
    served.session.execute(AddNote("after the hand-over"))
    for client in seats:
        await until(lambda c=client: "after the hand-over" in c.text())
    # The leader leaves: its twin draws itself and is told what comes next.
    await heir.close()
    await until(lambda: rest.channel.leader is None and not rest.seat.muted)  # type: ignore[union-attr]
    served.session.execute(AddNote("after the leader left"))
    await until(lambda: "after the leader left" in rest.text())
    for client in (leader, rest):
        await client.close()


async def test_seats_showing_other_things_are_not_twins(served: Served) -> None:
    carol = await typed(served, "Carol")
    dave = await typed(served, "Dave", "\x1b[B\x1b[B")  # another combatant chosen
    spectator = await typed(served, "watch")
    # Both of Dave's keys taken: after the first he showed what Carol shows, and on a busy
    # machine he could pair with her before the second came or was handled (either parts
    # them again: test_a_key_handled_after_the_pairing_parts_the_twins).
    await until(lambda: rows(dave) == 2 and dave.channel.leader is None)
    served.session.execute(AddNote("each their own"))
    for client in (carol, dave, spectator):
        await until(lambda c=client: "each their own" in c.text())
    # Said in full if it fails (it did once in a full suite): who follows whom, at which row.
    seats = {"Carol": carol, "Dave": dave, "watch": spectator}
    following = {
        name: (c.channel.leader.seat.name if c.channel.leader else None, rows(c))  # type: ignore[union-attr]
        for name, c in seats.items()
    }
    assert all(leader is None for leader, _row in following.values()), following
    # Dave goes back to Carol's row: twins, until the GM hands Carol a combatant.
    dave.type("\x1b[A")
    await paired(carol, dave)
    served.table.assign("Carol", frozenset({served.ids["Orla"]}))
    await until(lambda: carol.channel.leader is None and dave.channel.leader is None)
    await until(lambda: not carol.seat.muted and not dave.seat.muted)  # type: ignore[union-attr]
    served.session.execute(AddNote("apart again"))
    for client in (carol, dave):
        await until(lambda c=client: "apart again" in c.text())
    for client in (carol, dave, spectator):
        await client.close()


async def test_a_resized_twin_draws_itself(served: Served) -> None:
    carol, dave = await typed(served, "Carol"), await typed(served, "Dave")
    _, follower = await paired(carol, dave)
    follower.resize(80, 24)
    await until(lambda: follower.channel.leader is None and not follower.seat.muted)  # type: ignore[union-attr]
    served.session.execute(AddNote("at its own size"))
    for client in (carol, dave):
        await until(lambda c=client: "at its own size" in c.text())
    assert max(len(line) for line in follower.text().splitlines()) <= 80
    for client in (carol, dave):
        await client.close()


async def test_a_key_handled_after_the_pairing_parts_the_twins(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two keys in one burst: the seat can pair after its app handled the first and before
    # the second, which then moves its own cursor while it shows its leader's frames.
    from tracker.serve.channel import SeatChannel
    from tracker.widgets.combatants import CombatantsPane

    checked: list[Client] = []
    real = twins.still_twins

    def late_key(channel: SeatChannel) -> None:
        late = next(c for c in (carol, dave) if c.channel is channel)
        pane = late.channel.app.screen.query_one(CombatantsPane)
        pane.move_cursor(row=pane.cursor_row + 1)  # the burst's second key, handled now
        checked.append(late)
        real(channel)

    monkeypatch.setattr(twins, "still_twins", late_key)
    carol, dave = await typed(served, "Carol"), await typed(served, "Dave")
    leader, follower = await paired(carol, dave)
    await until(lambda: checked == [follower])
    await until(lambda: follower.channel.leader is None and not follower.seat.muted)  # type: ignore[union-attr]
    assert rows(follower) == 2 and rows(leader) == 1 and not leader.channel.followers
    for client in (carol, dave):
        await client.close()


async def test_a_seat_drawn_again_is_not_taken_for_what_it_showed_before_it_was_muted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat's screen print is kept for its last frame written. A twin's app handles a key
    while it follows another seat and writes nothing, so what it shows changes with no
    frame; unmuted, it once kept the old print until its catch-up frame was written, and a
    seat showing what it showed before could pair with it and be shown its new screen."""
    from types import SimpleNamespace

    from textual.app import App

    from tracker.serve.driver import ChannelDriver
    from tracker.serve.views import Fanout

    shown = {"screen": "row 1"}
    monkeypatch.setattr(twins.textual_internals, "whole_screen", lambda app: shown["screen"])
    driver = ChannelDriver(App(), channel=Fanout())
    seat: Any = SimpleNamespace(printed=None, app=SimpleNamespace(channel_driver=driver))
    before = twins.screen_print(seat)
    driver.muted = True  # following a twin: a key handled, nothing written
    shown["screen"] = "row 2"
    driver.write("dropped")
    assert twins.screen_print(seat) == before  # kept: no frame was written
    driver.unmute()
    assert twins.screen_print(seat) != before
