"""Hostile seats: huge windows, floods of keys, random input, and seats that fail.

Each attack is made by a real asyncssh client on loopback; the table must hold: the other
seats keep being served, the GM is told, and nothing reaches the server's stderr.
"""

from __future__ import annotations

import random
import re

import asyncssh
import pytest

from rules.commands import AddNote
from tests.serve.serve_helpers import Client, Served, until
from tracker.serve import limits
from tracker.serve.limits import (
    FLOODED,
    MAX_SIZE,
    MIN_SIZE,
    PASTE_END,
    PASTE_START,
    Bucket,
    InputLimit,
    Pastes,
    clamp_size,
)


def test_sizes_are_clamped() -> None:
    assert clamp_size(0, 0) == (80, 24)
    assert clamp_size(20000, 10000) == MAX_SIZE
    assert clamp_size(65535, 1) == (MAX_SIZE[0], MIN_SIZE[1])
    assert clamp_size(100, 30) == (100, 30)


def test_input_is_let_through_at_a_persons_pace() -> None:
    now = [0.0]
    limit = InputLimit(clock=lambda: now[0])
    flood = "\x1b[B" * 100_000
    admitted = limit.admit_text(flood)
    assert len(admitted) == limits.BYTE_BURST  # the burst, and the rest dropped
    assert limit.dropped_bytes == len(flood) - len(admitted)
    assert limit.flooding
    # Events: the burst at once, then the rate.
    calm = InputLimit(clock=lambda: now[0])
    passed = sum(calm.admit_event() for _ in range(1000))
    assert passed == limits.EVENT_BURST
    now[0] += 1.0
    assert sum(calm.admit_event() for _ in range(1000)) == limits.EVENTS_PER_SECOND
    assert calm.dropped_events == 2000 - limits.EVENT_BURST - limits.EVENTS_PER_SECOND
    assert calm.flooding
    # Fast typing and key repeat (30 a second) for a minute lose nothing.
    typist = InputLimit(clock=lambda: now[0])
    for _ in range(60 * 30):
        now[0] += 1 / 30
        assert typist.admit_text("\x1b[B") == "\x1b[B" and typist.admit_event()
    assert not typist.flooding


def test_a_bucket_refills_only_to_its_burst() -> None:
    now = [0.0]
    bucket = Bucket(10, 20, lambda: now[0])
    assert bucket.take(25) == 20
    now[0] += 100
    assert bucket.take(25) == 20


async def test_a_huge_window_is_drawn_at_the_largest_size(served: Served) -> None:
    bob = await Client.join(served, "bob", size=(20000, 10000), wait=False)
    await until(lambda: bob.seat is not None and bob.seat.app is not None)
    app = bob.seat.app  # type: ignore[union-attr]
    await until(lambda: app.is_running and tuple(app.size) == MAX_SIZE)
    assert bob.channel.size == MAX_SIZE  # the shared view it watches is no larger
    bob.resize(65535, 65535)
    bob.type("\x1b[48;4000;4000;0;0t")  # an in-band resize: not obeyed
    alice = await Client.join(served, "alice")  # the table still serves
    await until(lambda: bob.channel.size == MAX_SIZE and tuple(app.size) == MAX_SIZE)
    assert all(view.key.size[0] <= MAX_SIZE[0] for view in served.server.views)
    # Sent a frame of at most the largest size, not one of 65535 columns.
    assert len(bob.output) < 4_000_000
    await bob.close()
    await alice.close()


async def test_an_in_band_resize_is_not_obeyed(served: Served) -> None:
    alice = await Client.join(served, "alice", size=(90, 28))
    app = alice.seat.app  # type: ignore[union-attr]
    alice.type("\x1b[48;4000;4000;0;0t")
    alice.type("?")  # a key after it: by then the resize was read
    await until(lambda: "Keys" in alice.text())
    assert tuple(app.size) == (90, 28)
    await alice.close()


@pytest.mark.slow
async def test_a_key_flood_closes_the_seat_and_the_table_plays_on(served: Served) -> None:
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")
    seat = alice.seat
    assert seat is not None
    alice.type("\x1b[B" * 100_000)  # 300 KB of ↓
    await until(lambda: FLOODED in alice.output)
    await until(lambda: seat.id not in served.table.seats)
    served.session.execute(AddNote("after the flood"))
    await until(lambda: "after the flood" in gm.text())
    assert any("flooded the table" in notice for notice in served.table.notices)
    await until(lambda: "flooded the table" in gm.text())  # told to the GM
    # Each new seat costs the table a whole app: the flooder may not come straight back.
    with pytest.raises((asyncssh.Error, OSError)):
        await Client.join(served, "alice")
    assert "key:alice" in served.server.cooldown
    await gm.close()
    await alice.close()


async def test_a_long_paste_is_cut_with_a_line_and_the_seat_plays_on(served: Served) -> None:
    """A paste beyond the burst (here beyond the flood's bound too, which closed the seat)
    keeps its first 64 KB, ended there; its rest is skipped, and the seat told in a line."""
    alice = await Client.join(served, "alice")
    alice.type(PASTE_START + "x" * 300_000 + PASTE_END)
    await until(lambda: "Your paste was too long" in alice.text() or alice.seat is None)
    assert alice.seat is not None
    alice.type("?")  # a key after it: read as a key, not as more of the paste
    await until(lambda: "Keys" in alice.text() or alice.seat is None)
    assert alice.seat is not None and FLOODED not in alice.output
    await alice.close()


def test_a_long_paste_is_skipped_to_its_end_and_one_that_never_ends_floods() -> None:
    now = [0.0]
    whole = Pastes(InputLimit(clock=lambda: now[0]))
    text, cut = whole.admit(PASTE_START + "x" * 300_000 + PASTE_END)  # read at once
    assert cut and text.endswith("x" + PASTE_END) and not whole.skipping
    assert not whole.limit.flooding
    limit = InputLimit(clock=lambda: now[0])
    pastes = Pastes(limit)
    text, cut = pastes.admit(PASTE_START + "x" * 100_000)
    assert cut and len(text) == limits.BYTE_BURST + len(PASTE_END)
    assert text.endswith(PASTE_END) and not limit.flooding  # one long paste: a person's
    while not limit.flooding:  # the rest, skipped: counted beyond a long paste's length
        now[0] += 0.01
        assert pastes.admit("x" * 32_768) == ("", False)
        assert pastes.skipped < 2 * limits.MAX_PASTE
    # Its end comes in two parts: what follows it is typed again.
    calm = Pastes(InputLimit(clock=lambda: now[0]))
    calm.admit(PASTE_START + "x" * 100_000)
    now[0] += 10
    assert calm.admit("xx\x1b[20") == ("", False)
    assert calm.admit("1~?") == ("?", False)


@pytest.mark.slow
async def test_random_keys_reach_no_stderr(served: Served, capfd: pytest.CaptureFixture) -> None:
    gm = await Client.join(served, "gm")
    bob = await Client.join(served, "bob")
    rng = random.Random(17)
    noise = "".join(chr(rng.randrange(128)) for _ in range(200_000))
    gm.type(noise)
    await until(lambda: gm.seat is None)  # closed for flooding, at the latest
    served.session.execute(AddNote("still here"))
    await until(lambda: "still here" in bob.text())
    out, err = capfd.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    await gm.close()
    await bob.close()


async def test_a_seat_that_fails_is_closed_with_one_line(
    served: Served, capfd: pytest.CaptureFixture
) -> None:
    bob = await Client.join(served, "bob")
    alice = await Client.join(served, "alice")
    peer = alice.seat.peer  # type: ignore[union-attr]
    screen = alice.seat.app.screen  # type: ignore[union-attr]
    screen.BINDINGS = 5  # the next `?` fails in the help dialog's code (ours)
    alice.type("?")
    await until(lambda: alice.seat is None)
    said = [n for n in served.table.notices if "Alice's seat" in n]
    assert len(said) == 1, said
    # The exception, its message and the innermost line of our code: not Textual's dump.
    assert re.fullmatch(
        rf"Alice's seat \({re.escape(peer)}\) was closed by an error: TypeError: 'int' object"
        r" is not iterable \(tracker/screens/help\.py:\d+ in show_help\)",
        said[0],
    ), said[0]
    served.session.execute(AddNote("unharmed"))
    await until(lambda: "unharmed" in bob.text())
    out, err = capfd.readouterr()
    assert "Traceback" not in err + out and "not iterable" not in err + out
    await alice.close()
    await bob.close()
