"""At a served table, a player's hero whose critical damage is too big to work out exactly (a
sheet from an older save) attacks: the server and every seat stay up, each showing the roll."""

from __future__ import annotations

from pathlib import Path

from rules.commands import NextTurn
from rules.dice import ScriptedDice
from rules.systems.d20.events import D20Attacked, sheet_of
from tests.serve.serve_helpers import Client, roll_title, serve, until
from tests.systems.d20.test_critical_damage_d20 import BIG, CRITICAL, TOUGH, older_fight
from tracker.session import EncounterSession


def attacks(session: EncounterSession) -> int:
    return sum(isinstance(event, D20Attacked) for event, _ in session.history.in_effect())


async def test_a_players_critical_too_big_to_work_out_leaves_the_table_up(tmp_path: Path) -> None:
    fight = older_fight(("Orla", "party", BIG), ("Ogre", "foes", TOUGH))
    session = EncounterSession(fight, ScriptedDice(CRITICAL * 3), tmp_path / "cellar.fight")
    served = await serve(tmp_path, (session, {"Orla": "c1", "Ogre": "c2"}))
    served.table.assign("Alice", frozenset({"c1"}))
    try:
        gm = await Client.join(served, "gm")
        alice = await Client.join(served, "alice")
        bob = await Client.join(served, "bob")
        title = roll_title(session.state)
        for number in (1, 2):
            alice.type("r")
            await until(lambda: title in alice.text())
            alice.type("\r")
            await until(lambda n=number: attacks(session) == n)
            for client in (gm, alice, bob):
                await until(lambda c=client, n=number: c.text().count("CRITICAL HIT") == n)
            gm.type("d")  # the GM deals it: 40 fire
            hp = 5000 - 40 * number
            await until(lambda hp=hp: sheet_of(session.state.combatant("c2")).hp == hp)
            await until(lambda hp=hp: f"{hp}/5000" in gm.text())
            for _ in range(2):  # the Ogre's turn, then hers again: one action a turn
                session.execute(NextTurn())
        assert len(served.server.channels) == 3 and len(served.table.seats) == 3
        for client in (gm, alice, bob):  # each seat still answers a key
            client.type("?")
            await until(lambda c=client: "Esc or ? closes" in c.text())
            assert "Traceback" not in client.output
        for client in (gm, alice, bob):
            await client.close()
    finally:
        served.server.close()
        await served.server.wait_closed()
