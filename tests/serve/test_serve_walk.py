"""Every seat of a served table acting at once: a GM and two players over SSH and a player in
a browser press random keys from what their role is offered (and type lines and hostile
text), on one session, in every registered system's demo. Whatever the interleaving: no
seat is closed by an error, every seat still answers, no player sees the GM-only foe, and
the table's state is its save reopened from disk and the fold of its log.

A failure names its seed: ``SERVE_WALK_SEED=N`` replays it (the interleaving of the seats
may differ; each seat's keys are the same).
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest

from rules import registry
from tests.serve.serve_helpers import SECRET, Client
from tests.serve.walk_helpers import (
    SECRET_DICE,
    Walker,
    answers,
    demo_fight,
    failures,
    same_everywhere,
    walk,
    words_of,
)
from tests.serve.web_helpers import Browser, channel_of, seat_of, serve_web
from tracker.serve.channel import SeatChannel

# A fresh seed each run (a run walks one system, chosen by the seed: all four do not fit
# the suite's budget on a loaded machine); SERVE_WALK_SEED=N replays one.
SEED = int(os.environ.get("SERVE_WALK_SEED") or random.SystemRandom().randrange(10**6))
SYSTEM = registry.names()[SEED % len(registry.names())]
STEPS = int(os.environ.get("SERVE_WALK_STEPS", "15"))  # per seat; more to explore
SIZES = ((80, 24), (100, 30), (160, 48))


def ssh_walker(name: str, role: str, client: Client) -> Walker:
    async def send(keys: str) -> None:
        client.type(keys)

    def channel() -> SeatChannel | None:
        seat = client.seat
        return next((c for c in client.served.server.channels if c.seat is seat and seat), None)

    def output() -> str:
        return client.output

    return Walker(name, role, send, client.text, output, lambda: client.seat, channel)


@pytest.mark.slow
async def test_every_seat_walks_at_once(tmp_path: Path, capfd: pytest.CaptureFixture) -> None:
    system = SYSTEM
    rng = random.Random(f"{system}:{SEED}")
    fight = demo_fight(system, tmp_path)
    session = fight[0]
    web = await serve_web(tmp_path, fight=fight, more=("Dana",))
    served = web.served
    party = [c.id for c in session.state.combatants if c.side == "party" and not c.gm_only]
    party = party or [c.id for c in session.state.combatants if not c.gm_only]
    for index, name in enumerate(("Alice", "Dana", "Cara")):
        served.table.assign(name, frozenset({party[index % len(party)]}))
    sizes = [rng.choice(SIZES) for _ in range(4)]
    clients = [
        await Client.join(served, key, size=size)
        for key, size in zip(("gm", "alice", "dana"), sizes, strict=False)
    ]
    browser = await Browser.join(web, web.link("player", "Cara"), size=sizes[3])
    walkers = [
        ssh_walker("GM", "gm", clients[0]),
        ssh_walker("Alice", "player", clients[1]),
        ssh_walker("Dana", "player", clients[2]),
        Walker(
            "Cara",
            "player",
            browser.type,
            browser.text,
            lambda: browser.output,
            lambda: seat_of(web, "Cara"),
            lambda: channel_of(web, "Cara") if seat_of(web, "Cara") else None,
        ),
    ]
    words, hidden = words_of(session)

    def check(walker: Walker) -> None:
        assert not failures(served), failures(served)
        if not walker.sees_secret:
            assert SECRET not in walker.text(), f"{walker.name} sees the GM-only foe"
            assert SECRET_DICE not in walker.text(), f"{walker.name} sees the GM's hidden dice"

    try:
        seeded = [random.Random(rng.random()) for _ in walkers]
        await asyncio.gather(
            *(walk(w, r, STEPS, words, hidden, check) for w, r in zip(walkers, seeded, strict=True))
        )
        for walker in walkers:
            await answers(walker)
            check(walker)
            if not walker.sees_secret:
                assert SECRET not in walker.output(), f"{walker.name} was sent the GM-only foe"
                assert SECRET_DICE not in walker.output(), f"{walker.name} was sent hidden dice"
        assert not failures(served), failures(served)
        same_everywhere(session)
        out, err = capfd.readouterr()
        assert "Traceback" not in out + err, err
    except AssertionError as error:
        steps = "\n".join(f"  {w.name}: {w.steps!r}" for w in walkers)
        raise AssertionError(
            f"served walk of {system}, seed {SEED} (SERVE_WALK_SEED={SEED} replays it):"
            f" {error}\n{steps}"
        ) from error
    finally:
        for client in clients:
            await client.close()
        await browser.close()
        await web.close()
