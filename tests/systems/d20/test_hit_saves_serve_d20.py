"""At a served table, the save a ghoul's hit asks of a player's hero is theirs to roll: their
seat says so and rings ("Your roll: Orla"), and their d rolls it (rulings.md D5-07)."""

from __future__ import annotations

from pathlib import Path

from rules.dice import ScriptedDice
from rules.systems.d20.events import D20Apply, D20Attack, D20Saved
from tests.serve.serve_helpers import Client, serve, until
from tests.systems.d20.test_hit_saves_d20 import ghoul_history
from tracker.serve.alerts import BEL
from tracker.session import EncounterSession

YOUR_ROLL = f"{BEL}\x1b]9;Your roll: Orla\x1b\\"


async def test_the_save_a_hit_asks_of_a_players_hero_rings_their_seat_and_d_rolls_it(
    tmp_path: Path,
) -> None:
    history = ghoul_history()
    # the Claws hit (15 + 4) for 2 + 3 + 2; Orla's Con save: 3 + 2 fails DC 10
    session = EncounterSession(history, ScriptedDice([15, 2, 3, 3]), tmp_path / "crypt.fight")
    served = await serve(tmp_path, (session, {"Ghoul": "c1", "Orla": "c2"}))
    served.table.assign("Alice", frozenset({"c2"}))
    try:
        alice = await Client.join(served, "alice", size=(80, 24))
        session.execute(D20Attack("c1", "c2", action="Claws"))
        session.execute(D20Apply())
        await until(lambda: YOUR_ROLL in alice.output)
        await until(lambda: "Your roll: Orla (d)" in alice.text())
        alice.type("d")
        await until(lambda: isinstance(session.state.last_roll, D20Saved))
        await until(lambda: "Your roll: Orla" not in alice.text())
        assert alice.output.count(YOUR_ROLL) == 1 and "Traceback" not in alice.output
        await alice.close()
    finally:
        served.server.close()
        await served.server.wait_closed()
