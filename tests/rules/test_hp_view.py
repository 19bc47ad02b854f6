"""Hit points as a seat sees them (`:hp SIDE band|hidden`), in every system with a main
track: a banded side reaches a player's view with no number that tells where it stands (the
view is the same for every value in one band: a property), the GM's view is exact, the
setting is undone and refused in one line for a side that is none."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import structs

from rules.commands import AddCombatant, SetOption
from rules.dice import SeededDice
from rules.encounter import Combatant
from rules.errors import Rejected
from rules.history import History
from rules.hp_view import shown_stats, track_columns
from rules.registry import get_system
from rules.system import RuleSystem
from rules.visibility import GM, Viewer, sight
from tests.helpers import new_history, run
from tests.picks import every_system

PLAYER = Viewer(role="player", name="Alice")


def with_track_systems() -> list[RuleSystem]:
    out = []
    for name in every_system():
        system = get_system(name)
        history = fight(system)
        goblin = history.state.combatant("c2")
        if system.main_track(goblin) is not None and track_columns(system, goblin):
            out.append(system)
    return out


def fight(system: RuleSystem) -> History:
    history = new_history(system=system.name)
    run(history, AddCombatant(name="Orla", side="party"), SeededDice(1))
    run(history, AddCombatant(name="Goblin", side="foes"), SeededDice(2))
    return history


SYSTEMS = with_track_systems()


def at(history: History, fraction: float) -> tuple[Combatant, Combatant]:
    """The GM's and the player's Goblin with its track ``fraction`` of the way to its worst."""
    state = history.state
    system = get_system(state.system)
    goblin = state.combatant("c2")
    track = system.main_track(goblin)
    assert track is not None
    worst, best = (track.high, track.low) if track.rising else (track.low, track.high)
    value = round(best + (worst - best) * fraction)
    sheet = system.with_track(goblin.sheet, value)
    state = state.replace_combatant(structs.replace(goblin, sheet=sheet))
    gm = sight(state, GM).state.combatant("c2")
    seen = sight(state, PLAYER).state.combatant("c2")
    return gm, seen


def test_there_is_a_system_to_band() -> None:
    assert SYSTEMS


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.name)
@settings(max_examples=30, deadline=None)
@given(first=st.floats(0, 1), second=st.floats(0, 1))
def test_a_banded_side_reaches_a_seat_as_its_band_alone(
    system: RuleSystem, first: float, second: float
) -> None:
    history = fight(system)
    run(history, SetOption("hp-view", "band foes"))
    gm_a, seen_a = at(history, first)
    _, seen_b = at(history, second)
    assert seen_a.hp_shown in ("healthy", "bloodied", "down")
    if seen_a.hp_shown == seen_b.hp_shown:
        assert seen_a == seen_b  # nothing in the view tells two values of a band apart
    stats = shown_stats(system, seen_a)
    for column in track_columns(system, gm_a):
        assert stats[column] == seen_a.hp_shown
    assert gm_a.hp_shown == ""  # the GM's view is exact


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.name)
def test_hidden_hit_points_say_hidden_and_exact_shows_them_again(system: RuleSystem) -> None:
    history = fight(system)
    run(history, SetOption("hp-view", "hidden foes"))
    _, seen = at(history, 0.7)
    assert seen.hp_shown == "hidden"
    run(history, SetOption("hp-view", "exact foes"))
    gm, seen = at(history, 0.7)
    assert seen == gm and history.state.options.hp_views == ()
    history.undo()
    assert history.state.options.hp_views == (("foes", "hidden"),)


@pytest.mark.parametrize("system", SYSTEMS[:1], ids=lambda s: s.name)
def test_a_side_that_is_none_or_a_mode_that_is_none_is_refused(system: RuleSystem) -> None:
    history = fight(system)
    with pytest.raises(Rejected, match="there is no side 'elves'"):
        run(history, SetOption("hp-view", "band elves"))
    with pytest.raises(Rejected, match="exact, band, hidden"):
        run(history, SetOption("hp-view", "blurry foes"))
