"""Which registered system a generic test drives: the first, as the tracker lists them, that
has what the test needs. A test outside ``tests/systems/<name>/`` never names a system, so
deleting any system's folder leaves it running on another (``make without``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.engine import initial_state, new_encounter
from rules.registry import get_system, part
from rules.system import RuleSystem
from tracker.store.defaults import systems

Need = Callable[[str], bool]


def anything(name: str) -> bool:
    return True


def has_demo(name: str) -> bool:
    return part(name, "demo") is not None


def has_turn_order(name: str) -> bool:
    return get_system(name).uses_turn_order


def plays_solo(name: str) -> bool:
    """A system whose solo policies can play a side."""
    system = get_system(name)
    return bool(system.solo_policies) and type(system).solo_move is not RuleSystem.solo_move


def scales_nothing(name: str) -> bool:
    """A system with no hit points a tune could scale (``RuleSystem.scaled``)."""
    return type(get_system(name)).scaled is RuleSystem.scaled


def a_system(*needs: Need) -> str:
    """The first listed system meeting every need; the test is skipped, saying so, if none
    does (a checkout may hold a single system)."""
    for name in systems():
        if all(need(name) for need in needs):
            return name
    needed = ", ".join(need.__name__ for need in needs)
    pytest.skip(f"no registered system has what this test needs: {needed}", allow_module_level=True)


def every_system(*needs: Need) -> list[str]:
    """Every listed system meeting every need (for ``pytest.mark.parametrize``)."""
    return [name for name in systems() if all(need(name) for need in needs)]


def joins_without_dice(name: str) -> bool:
    """A system that rolls no initiative as a combatant joins (a test scripting no dice, or
    the turn order by hand, needs one)."""
    from tests.helpers import rolls_initiative_on_add  # helpers picks its systems here

    return not rolls_initiative_on_add(get_system(name))


def player_rolls(name: str) -> bool:
    """A system where a player rolls for their own combatant on its turn, the first added
    acting first: the roll is not the GM's, nobody rolls initiative on joining, and the roll
    dialog's defaults act for whoever acts."""
    from rules.commands import AddCombatant
    from rules.dice import SeededDice
    from rules.engine import decide, fold_onto
    from rules.errors import Rejected
    from rules.permissions import actors

    system = get_system(name)
    if "roll" in system.gm_actions or not system.uses_turn_order:
        return False
    state = initial_state(new_encounter("Probe", name))
    for who in ("Ann", "Bob"):
        state = fold_onto(state, decide(state, AddCombatant(name=who), SeededDice(1)))
    first = state.combatants[0]
    if first.name != "Ann" or state.current_id != first.id or first.initiative is not None:
        return False
    try:
        fields = system.action_form(state, "roll", first.id)
        command = system.action_command(state, "roll", {f.key: f.default for f in fields})
    except Rejected:
        return False
    return actors(system, command) == {first.id}


def has_main_track(name: str) -> bool:
    """A system whose combatants have a main track, which ``:wound`` and ``:heal`` move."""
    from rules.encounter import Combatant

    system = get_system(name)
    return system.main_track(Combatant(id="c1", name="Probe", sheet=system.new_sheet())) is not None


def falls_at_worst_track(name: str) -> bool:
    """A system where a combatant whose main track is at its worst end is out of the fight
    (Health or HP at the bottom), so a test can fell one by editing its sheet."""
    from rules.encounter import Combatant

    system = get_system(name)
    probe = Combatant(id="c1", name="Probe", sheet=system.new_sheet())
    track = system.main_track(probe)
    if track is None:
        return False
    state = initial_state(new_encounter("Probe", name))
    worst = system.with_track(probe.sheet, track.high if track.rising else track.low)
    return bool(system.out_of_fight(state, Combatant(id="c1", name="Probe", sheet=worst)))


def keeps_added_order(name: str) -> bool:
    """A system with a turn order that leaves combatants where they were added (none rolls
    initiative as it joins), so the first added acts first."""
    return has_turn_order(name) and joins_without_dice(name)


def knows_conditions(name: str) -> bool:
    """A system whose rules know conditions by name (a slip of one is asked about)."""
    return bool(get_system(name).condition_names())


def a_demo(*needs: Need) -> str:
    """The file stem of the demo of ``a_system(has_demo, *needs)`` (a key of
    ``tracker.demos.DEMOS``; its save is ``saves/<stem>.fight``)."""
    demo = part(a_system(has_demo, *needs), "demo")
    assert demo is not None
    return str(demo.STEM)


def every_demo(*needs: Need) -> list[str]:
    """The file stems of the demos of ``every_system(has_demo, *needs)`` (for
    ``pytest.mark.parametrize``)."""
    return [str(part(name, "demo").STEM) for name in every_system(has_demo, *needs)]


def has_bundled_foes(name: str) -> bool:
    """A system whose folder bundles stat blocks of foes (``stat_blocks/`` is optional)."""
    from rules.difficulty import FOE_SIDES
    from tracker.store import library

    return any(entry.side.casefold() in FOE_SIDES for entry in library.load(None).of(name))


def has_stat_columns(name: str) -> bool:
    """A system whose sheets show stat columns (a table's first to give way when narrow)."""
    return bool(get_system(name).stat_columns)


def demo_waits(name: str) -> bool:
    """A system whose demo opens with a consequence waiting to be applied."""
    demo = part(name, "demo")
    if demo is None:
        return False
    state = demo.build().state
    return bool(get_system(name).pending(state))


def demo_rests(name: str) -> bool:
    """A system whose demo opens with nothing waiting (its roll dialog opens at once)."""
    return part(name, "demo") is not None and not demo_waits(name)
