"""A dying combatant whose Wounds a player's seat sees as a band (`:hp SIDE band`): the end of
round alert asks for the save against its Wounds without saying them (the GM's says 6)."""

from __future__ import annotations

from rules.commands import AddCondition, NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.events import TurnAdvanced
from rules.registry import get_system
from rules.systems.livehack.sheet import LiveHackSheet
from rules.visibility import GM, sight
from tests.helpers import advance, encounter, run
from tests.seat_view import PLAYER, banded


def test_a_banded_dying_save_alert_says_no_wounds_on_the_seat() -> None:
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=6))
    run(history, AddCondition("c2", "Dying"))
    banded(history, history.state.combatant("c2").side)
    advance(history)
    events = decide(history.state, NextTurn(), ScriptedDice([]))
    turn = next(e for e in events if isinstance(e, TurnAdvanced))
    system = get_system("livehack")
    gm = system.alerts(sight(history.state, GM).state, turn)
    seen = system.alerts(sight(history.state, PLAYER).state, turn)
    assert any("is dying: Fortitude save vs Wounds 6" in a for a in gm)
    assert any("is dying: Fortitude save vs its Wounds (s, Dying save)" in a for a in seen)
    assert not any("Wounds 0" in a or "Wounds 6" in a for a in seen)
