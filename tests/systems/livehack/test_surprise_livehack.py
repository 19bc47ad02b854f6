"""Surprise in LiveHack (rulings.md, "Surprise is a cause of Chaos"): logged with what the
text makes of it, and no turn changed."""

from __future__ import annotations

from rules.commands import AddCombatant, Surprise
from rules.events import SideSurprised
from tests.helpers import new_history, run


def test_surprise_is_logged_as_a_cause_of_chaos() -> None:
    history = new_history(system="livehack")
    for name, side in (("Brak", "party"), ("Goblin", "foes")):
        run(history, AddCombatant(name=name, side=side))
    before = history.state
    events = run(history, Surprise("party"))
    assert len(events) == 1 and isinstance(events[0], SideSurprised)
    assert "Chaos" in events[0].effect
    assert history.state.current_id == before.current_id
