"""A seat's app is worked on only in its own context: a watching seat taking over its screen
(its first key), a window change, a view ending, come from the SSH connection's or the
loop's context, where Textual finds no app (issue 27: seats closed with
``LookupError: <ContextVar name='active_app'...>``)."""

from __future__ import annotations

import asyncio

import pytest

from rules.commands import AddNote
from tests.serve.serve_helpers import Client, Served, until


async def test_a_watching_player_takes_over_after_the_gms_changes(
    served: Served, capfd: pytest.CaptureFixture
) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")  # only watches: a shared view draws her
    gm.type(":")
    await until(lambda: "Tab completes" in gm.text() or "commands:" in gm.text())
    gm.type("note x\r")
    await until(lambda: "✎ x" in gm.text())
    gm.type("n")
    await until(lambda: "✎ x" in alice.text())
    channel = alice.channel
    screen = channel.app.screen
    caught_up_in: list[object] = []
    reload = screen.reload

    def recorded() -> None:
        caught_up_in.append(asyncio.current_task())
        reload()

    screen.reload = recorded
    alice.type("f")  # her first key: her own app takes over, caught up
    await until(lambda: "close" in alice.text() and "Luck" in alice.text())
    # Caught up in her app's own task (its context), not in the SSH connection's.
    assert caught_up_in == [channel.task]
    alice.type("\x1b")
    await until(lambda: "Luck" not in alice.text())
    await alice.close()
    await until(lambda: alice.seat is None)
    served.session.execute(AddNote("after"))
    await until(lambda: "after" in gm.text())
    assert not served.table.notices, list(served.table.notices)
    out, err = capfd.readouterr()
    assert "Error" not in out + err and "Traceback" not in out + err, err
    await gm.close()
