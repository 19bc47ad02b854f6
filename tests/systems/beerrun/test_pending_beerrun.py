"""Beer Run: what waits is the round's successes not landed yet, one set at a time."""

from __future__ import annotations

from rules.commands import AddCombatant, DiscardConsequence, NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide, describe, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.systems.beerrun.decide import pending_now
from rules.systems.beerrun.events import BuildPool, LandDamage, RollRound, SetCategories
from rules.systems.beerrun.sheet import BeerRunSheet, parse_abilities
from rules.systems.beerrun.system import SYSTEM


def run(history: History, command: object, faces: tuple[int, ...] = ()) -> list[object]:
    events = decide(history.state, command, ScriptedDice(faces))
    history.commit(events, type(command).__name__)
    return events


def brawl() -> History:
    """Orla (c1) and the Goblin (c2); categories Body and Mind."""
    history = History(new_encounter("Tavern", "beerrun"))
    run(history, SetCategories(("Body", "Mind")))
    for name, side, abilities in (
        ("Orla", "party", "Body: Fencing d8, Health d6; Mind: Wits d6"),
        ("Goblin", "foes", "Body: Stab d10, Health d4"),
    ):
        sheet = BeerRunSheet(abilities=parse_abilities(abilities), intensity=10)
        run(history, AddCombatant(name=name, side=side, sheet=sheet))
    return history


def rolled_both_ways() -> History:
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c2"))
    run(history, BuildPool(combatant_id="c2", against="c1", extra=("Health",)))
    run(history, RollRound(), (7, 5, 9, 4))  # the Goblin lands 1 first, then Orla 1
    return history


def test_the_next_set_to_land_is_said_with_how_many_follow():
    history = brawl()
    assert SYSTEM.pending(history.state) == ""
    history = rolled_both_ways()
    assert SYSTEM.pending(history.state) == "Goblin lands 1 on Orla's Health (+1 more)"
    run(history, LandDamage())
    assert SYSTEM.pending(history.state) == "Orla lands 1 on Goblin's Health"
    run(history, LandDamage())
    assert SYSTEM.pending(history.state) == ""
    assert history.state.last_roll_applied


def test_a_discard_drops_the_next_set_only_and_is_logged():
    history = rolled_both_ways()
    before = history.state
    [discarded] = run(history, DiscardConsequence())
    assert describe(before, discarded).plain == (
        "⊘ Discarded, not applied: Goblin lands 1 on Orla's Health (+1 more)"
    )
    assert [p.dealer_id for p in pending_now(history.state)] == ["c1"]  # Orla's still waits
    assert not history.state.last_roll_applied
    assert history.state.combatant("c1").sheet == before.combatant("c1").sheet
    run(history, DiscardConsequence())
    assert history.state.last_roll_applied and history.state.last_roll_discarded
    try:
        run(history, DiscardConsequence())
    except Rejected as exc:
        assert exc.message == "Nothing is waiting to be applied"
    else:
        raise AssertionError("a discard with nothing waiting")


def test_the_round_s_end_would_lose_what_waits():
    history = rolled_both_ways()
    run(history, NextTurn())
    assert SYSTEM.pending(history.state) == ""  # hence the question before n, in the app
