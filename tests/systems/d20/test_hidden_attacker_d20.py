"""A served Generic d20 table: a hidden creature's hit on a combatant players see shows as the
damage taken, without the attacker, its roll or its dice (as LiveHack's hidden wounds do);
before, the whole damage line was left out while Orla's hit points fell on the player's
screen. And the system's own state a player's seat holds loses only what names a hidden
creature (a hidden troll's regeneration once cost the players every badge and save owed)."""

from __future__ import annotations

from rules.commands import EditCombatant
from rules.dice import ScriptedDice
from rules.mentions import mentions
from rules.systems.d20.events import D20Apply, D20Attack, D20SaveEffect, system_state
from rules.systems.d20.sheet import sheet_from_values
from tests.serve.serve_helpers import SECRET, encounter
from tests.serve.test_hidden import lines
from tests.systems.livehack.test_serve_livehack import player_view


def test_a_hidden_attackers_damage_shows_on_orla_without_the_attacker_or_its_roll() -> None:
    session, ids = encounter(system="d20")
    session.dice = ScriptedDice([19, 3])  # the hidden foe's attack hits; its damage
    session.execute(D20Attack(ids[SECRET], ids["Orla"]))
    session.execute(D20Apply())
    gm = [line for e, b in session.history.in_effect() for line in lines(b, e)]
    [hurt] = [line for line in gm if line.startswith("Orla takes ")]
    seen, _, state = player_view(session)
    assert hurt in seen
    assert not any(SECRET in line for line in seen)
    assert not any(line.startswith(f"{SECRET}'s") or " vs AC " in line for line in seen)
    assert state.combatant(ids["Orla"]).sheet.hp < state.combatant(ids["Orla"]).sheet.hp_max


def test_a_hidden_creatures_own_records_leave_the_players_the_rest_of_the_state() -> None:
    session, ids = encounter(system="d20")
    secret = session.state.combatant(ids[SECRET]).sheet
    troll = sheet_from_values({"traits": "Regeneration 10 fire"}, secret)
    session.execute(EditCombatant(combatant_id=ids[SECRET], sheet=troll))
    session.dice = ScriptedDice([1])  # the Goblin fails: paralyzed, save ends
    hold = D20SaveEffect(ids["Orla"], (ids["Goblin"],), "Hold Person", "wis", 30,
                         condition="paralyzed", repeat=True)  # fmt: skip
    session.execute(hold)
    session.execute(D20Apply())
    gm = system_state(session.state)
    assert {s.combatant_id for s in gm.starts} == {ids[SECRET]} and len(gm.edges) == 1
    _, _, seen = player_view(session)
    shown = system_state(seen)
    assert shown.edges == gm.edges and not shown.starts  # the Goblin's save, not the troll
    assert not mentions(shown) & {ids[SECRET]}
    assert "paralyzed: Wis 30 ends" in session.system.badges(seen, seen.combatant(ids["Goblin"]))
