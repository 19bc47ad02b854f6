"""Beer Run: who has left the conflict (dead, ceded), a fight to its end, and its summary."""

from __future__ import annotations

from fractions import Fraction

from rules.commands import AddCombatant, RemoveCondition
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.events import ConditionAdded
from rules.history import History
from rules.outcome import outcome, summary_of
from rules.systems.beerrun.events import BuildPool, Cede, LandDamage, RollRound, SetCategories
from rules.systems.beerrun.sheet import BeerRunSheet, parse_abilities
from rules.systems.beerrun.solo import target_for
from rules.systems.beerrun.system import SYSTEM
from tracker import quick_flow

ORLA = "Body: Fencing d8, Health d6; Mind: Wits d6"
ANN = "Body: Health d6; Mind: Charm d8"
FRAIL = "Body: Stab d10, Health d2"


def sheet(abilities: str) -> BeerRunSheet:
    return BeerRunSheet(abilities=parse_abilities(abilities), intensity=10)


def brawl(*people: tuple[str, str]) -> History:
    """The Goblin is a foe, everyone else the party; categories Body and Mind."""
    history = History(new_encounter("Tavern", "beerrun"))
    run(history, SetCategories(("Body", "Mind")))
    for name, abilities in people:
        side = "foes" if name == "Goblin" else "party"
        run(history, AddCombatant(name=name, side=side, sheet=sheet(abilities)))
    return history


def run(history: History, command: object, faces: tuple[int, ...] = ()) -> list[object]:
    events = decide(history.state, command, ScriptedDice(faces))
    history.commit(events, type(command).__name__)
    return events


def test_a_fight_to_its_end_by_commands() -> None:
    history = brawl(("Orla", ORLA), ("Ann", ANN), ("Goblin", FRAIL))
    run(history, BuildPool(combatant_id="c1", extra=("Health",), against="c3"))
    run(history, RollRound(), (8, 6, 6))  # against no dice: d1s showing 1, three successes
    assert not outcome(history.state).over
    run(history, LandDamage())  # Health d2 takes 2 of the 3 pips: zero, and death
    result = outcome(history.state)
    assert result.headline == "Fight over: party won" and result.out == {"c3": "dead"}
    figures = summary_of(history)
    assert (figures.rounds, figures.rolls, figures.unit) == (1, 1, "pips")
    orla, ann, goblin = figures.fighters
    assert (orla.dealt, orla.rolls, ann.rolls, goblin.taken, goblin.out) == (2, 1, 0, 2, "dead")
    assert "Health d0/2" in goblin.stats[1]
    # By hand: each of Orla's d8, d6, d6 beats a 1 unless it shows 1 itself, so she keeps all
    # three with 7/8 x 5/6 x 5/6 = 175/288, the best result there is: her percentile is
    # 1 - 175/288 + 175/576 = 401/576, the Goblin's 175/576.
    party, foes = figures.luck
    assert (party.luck, foes.luck) == (Fraction(401, 576), Fraction(175, 576))


def a_quiet_round(history: History) -> None:
    """Orla's Fencing and Wits against the Goblin, who pays for nothing: two 1s, all ties.
    A side cedes after a round's effects."""
    run(history, BuildPool(combatant_id="c1", against="c2"))
    run(history, RollRound(), (1, 1))


def test_a_cede_leaves_the_conflict_and_ends_the_fight() -> None:
    history = brawl(("Orla", ORLA), ("Goblin", FRAIL))
    a_quiet_round(history)
    events = run(history, Cede(combatant_id="c2", to_id="c1"))
    goblin = history.state.combatant("c2")
    assert goblin.condition("Ceded") is not None  # marked, as the solo side marks itself
    assert any(isinstance(e, ConditionAdded) and e.condition.name == "Ceded" for e in events)
    assert SYSTEM.out_of_fight(history.state, goblin) == "ceded"
    assert outcome(history.state).headline == "Fight over: party won"
    run(history, RemoveCondition("c2", "Ceded"))  # the GM brings it back
    assert not outcome(history.state).over


def test_out_of_the_fight_is_never_chosen_by_solo_play_or_the_quick_turn() -> None:
    history = brawl(("Orla", ORLA), ("Goblin", FRAIL))
    run(history, AddCombatant(name="Rat", side="foes", sheet=sheet("Body: Bite d4, Health d4")))
    a_quiet_round(history)
    run(history, Cede(combatant_id="c2", to_id="c1"))
    state = history.state
    orla = state.combatant("c1")
    for policy in ("base", "aggressive", "cautious"):
        chosen = target_for(state, orla, policy)
        assert chosen is not None and chosen[0].name == "Rat"
    assert quick_flow.last_target(history, SYSTEM, orla, state).name == "Rat"
