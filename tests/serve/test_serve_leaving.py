"""A seat, or a shared view, that ends as it starts ends cleanly: not closed by an error.

Under load, about one join in nineteen closed a seat with ``NoMatches``: its app was ended
(its connection closed, its view's last watcher gone) while its screen was being mounted,
and Textual took the screen's widgets out of the tree before the screen's on_mount looked
them up. Each test ends an app at every step of its start, a few loop turns apart, rather
than hoping a loaded machine hits the moment.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.serve.serve_helpers import Client, Served, until
from tracker.serve.views import view_key

# Loop turns from an app's start to its end, each tried: its screen mounts within the
# first few (on the code before, the views failed ended 1 to 3 turns in, a seat at 0).
STEPS = 8


class Terminal:
    """A watcher's channel that shows nothing (the view's frames go nowhere)."""

    def write(self, data: str) -> None:
        pass

    def is_closing(self) -> bool:
        return False


def failures(served: Served) -> list[str]:
    return [n for n in served.table.notices if "error" in n or "failed" in n]


@pytest.mark.slow  # every app started whole: half a minute on a busy machine
async def test_a_view_ended_as_it_starts_ends_without_an_error(served: Served) -> None:
    gm = await Client.join(served, "gm")
    views = served.server.views
    assert gm.seat is not None
    for steps in range(STEPS):
        # A size no seat has: a view of its own, started for this watcher alone.
        key = view_key(served.table, gm.seat, gm.channel.app, (60 + steps, 20))
        watcher = Terminal()
        view = views.watch(key, watcher)
        for _ in range(steps):
            await asyncio.sleep(0)  # one loop turn: the view's app gets that far
        views.leave(view, watcher)  # its last watcher gone: it ends
        assert view.task is not None
        await view.task
        assert not failures(served), f"ended {steps} turns in: {failures(served)}"
    await gm.close()


@pytest.mark.slow
async def test_a_seat_that_leaves_as_it_sits_down_is_not_closed_by_an_error(
    served: Served,
) -> None:
    steps_left: list[int] = []
    kicks: list[asyncio.Task[None]] = []

    def start_then_kick(news: str) -> None:
        if news.startswith("Alice joined"):  # told as she sits down
            asyncio.get_running_loop().call_soon(start_own)

    def start_own() -> None:
        channel = next(c for c in served.server.channels if c.player.name == "Alice")
        channel.draw_own()  # her own app starts now, as at a first key
        kicks.append(asyncio.create_task(kick(channel.seat.id, steps_left.pop())))  # type: ignore[union-attr]

    async def kick(seat_id: int, steps: int) -> None:
        for _ in range(steps):
            await asyncio.sleep(0)
        served.table.kick(seat_id)

    unwatch = served.table.watch(start_then_kick)
    for steps in range(STEPS):
        steps_left.append(steps)
        alice = await Client.join(served, "alice", wait=False)
        await until(lambda a=alice: "The GM closed your seat." in a.output)  # type: ignore[misc]
        await until(lambda: not served.table.seats and not served.server.channels)
        await alice.close()
        assert not failures(served), f"kicked {steps} turns in: {failures(served)}"
    unwatch()
