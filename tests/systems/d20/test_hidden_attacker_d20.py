"""A served Generic d20 table: a hidden creature's hit on a combatant players see shows as the
damage taken, without the attacker, its roll or its dice (as LiveHack's hidden wounds do);
before, the whole damage line was left out while Orla's hit points fell on the player's
screen."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.systems.d20.events import D20Apply, D20Attack
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
