"""`:surprise SIDE` in every system: logged with what the system's rules make of it (by
default "no rules effect", said in one line), undone and replayed without dice; an unknown
side, or a way of surprise a system does not have, refused in one line."""

from __future__ import annotations

import pytest

from rules.commands import AddCombatant, SetOption, Surprise
from rules.dice import SeededDice
from rules.engine import describe
from rules.errors import Rejected
from rules.events import SideSurprised
from rules.history import History
from rules.registry import all_systems
from rules.system import RuleSystem
from tests.helpers import new_history, run

SYSTEMS = all_systems()


def two_sides(system: RuleSystem) -> History:
    history = new_history(system=system.name)
    for name, side in (("Orla", "party"), ("Bram", "party"), ("Goblin", "foes")):
        run(history, AddCombatant(name=name, side=side), SeededDice(3))
    return history


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.name)
def test_a_surprise_is_logged_with_what_the_rules_make_of_it(system: RuleSystem) -> None:
    history = two_sides(system)
    before = history.state
    events = run(history, Surprise("party"), SeededDice(5))
    first = events[0]
    assert isinstance(first, SideSurprised) and first.side == "party" and first.effect
    line = describe(before, first).plain
    assert line.startswith("⚑ The party side is surprised: ") and "\n" not in line
    assert History.from_records(history.records).state == history.state  # no dice to replay
    history.undo()
    assert history.state == before


@pytest.mark.parametrize(
    "system", [s for s in SYSTEMS if type(s).surprise is RuleSystem.surprise], ids=lambda s: s.name
)
def test_a_system_whose_rules_say_nothing_gives_no_rules_effect(system: RuleSystem) -> None:
    history = two_sides(system)
    events = run(history, Surprise("party"))
    assert len(events) == 1 and events[0].effect.startswith("no rules effect")


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.name)
def test_an_unknown_side_is_refused_in_one_line(system: RuleSystem) -> None:
    with pytest.raises(Rejected, match="there is no side 'elves' \\(sides: party, foes\\)"):
        run(two_sides(system), Surprise("elves"))


@pytest.mark.parametrize(
    "system", [s for s in SYSTEMS if not s.surprise_ways], ids=lambda s: s.name
)
def test_a_system_with_one_way_of_surprise_refuses_a_choice(system: RuleSystem) -> None:
    with pytest.raises(Rejected, match="plays surprise one way"):
        run(two_sides(system), SetOption("surprise-way", "2024"))
