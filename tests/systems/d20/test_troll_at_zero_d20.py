"""A troll's Regeneration at 0 hit points (rulings.md D5-16): "The troll dies only if it starts
its turn with 0 hit points and doesn't regenerate." Written ``Regeneration 10 acid fire at
0``, a monster dropped to 0 is down, not dead (unconscious, out of the fight as a dying hero
is); its turn's start stands it up with its regeneration, or, its regeneration off (acid or
fire since its last turn), kills it. A vampire's Regeneration (no ``at 0``) leaves it dead at
0 as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from msgspec import structs

from rules.commands import AddCombatant, DiscardConsequence, EditCombatant, NextTurn
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, describe, fold_onto
from rules.errors import Rejected
from rules.forms import Field
from rules.offered import living_first
from rules.registry import get_system
from rules.systems.d20.events import D20Apply, D20Attack, D20Healed, system_state
from rules.systems.d20.sheet import life_word, sheet_from_values
from rules.systems.d20.standing import conditions_of, out_word
from rules.systems.d20.traits import regeneration_of
from rules.systems.d20.turn_edge_events import D20Perished, D20RegenerationStopped
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, fight, history_of, run, sheet
from tests.systems.d20.test_economy_d20 import started

SYSTEM = get_system("d20")
TROLL = card(hp="84/84", ac="15", saves="Con +5", traits="Regeneration 10 acid or fire at 0")
SPAWN = card(hp="82/82", ac="15", saves="Con +5", traits="Regeneration 10 radiant")


def dropped(damage: str, target: Any = TROLL, hp: int = 8) -> Any:
    """Orla (c1) hits the creature (c2, ``hp`` left) for 10 of ``damage``'s type, dealt; the
    turn passed to it after."""
    orla = sheet_from_values({"damage": damage}, HERO_SHEET)
    state = fight(("Orla", "party", orla), ("Troll", "foes", structs.replace(target, hp=hp)))
    state, _ = run(started(state), D20Attack("c1", "c2"), 15, 7)
    return run(state, D20Apply())[0]


def test_the_trait_is_written_with_at_0_last() -> None:
    assert TROLL.traits == ("Regeneration 10 acid fire at 0",)
    moved = sheet_from_values({"traits": "regeneration 10 AT 0 fire"}, TROLL)
    assert moved.traits == ("Regeneration 10 fire at 0",)
    assert regeneration_of(moved.traits) == (10, ("fire",), True)
    assert regeneration_of(SPAWN.traits) == (10, ("radiant",), False)
    with pytest.raises(Rejected, match="Relentless takes a number alone"):
        sheet_from_values({"traits": "Relentless 7 at 0"}, TROLL)


def test_a_troll_dropped_is_down_not_dead_and_stands_up_as_its_turn_starts() -> None:
    state = dropped("1d8+3 slashing")
    troll = state.combatant("c2")
    assert sheet(state, "c2").hp == 0 and not sheet(state, "c2").dead
    assert life_word(troll.sheet) == "down" and out_word(troll) == "down"
    assert "unconscious" in conditions_of(troll)  # attacks at it have advantage
    assert SYSTEM.sheet_stats(troll.sheet)[3] == "down"
    state, events = run(state, NextTurn())
    assert not any(isinstance(e, D20Perished) for e in events)
    assert SYSTEM.pending(state) == "Troll's turn starts: regains 10 HP (set aside, it dies)"
    before = state
    state, events = run(state, SYSTEM.consequence_command(state))
    assert sheet(state, "c2").hp == 10 and out_word(state.combatant("c2")) == ""
    healed = next(e for e in events if isinstance(e, D20Healed))
    assert describe(before, healed).plain == "Troll regains 10 hit points"  # "gives Troll"


def test_the_drop_says_what_stops_it_and_its_regeneration_set_aside_kills_it() -> None:
    orla = sheet_from_values({"damage": "1d8+3 slashing"}, HERO_SHEET)
    state = fight(("Orla", "party", orla), ("Troll", "foes", structs.replace(TROLL, hp=8)))
    state, _ = run(started(state), D20Attack("c1", "c2"), 15, 7)
    [damage] = [e for e in decide(state, D20Apply(), ScriptedDice([]))][:1]
    said = "Troll drops to 0 hit points: down; it regenerates as its turn starts unless it takes"
    assert SYSTEM.alerts(state, damage) == [f"{said} acid or fire first"]
    state, _ = run(state, D20Apply())
    state, _ = run(state, NextTurn())
    state, _ = run(state, DiscardConsequence())  # x: "doesn't regenerate", so it dies
    assert sheet(state, "c2").dead and life_word(sheet(state, "c2")) == "dead"
    assert not any("regenerates" in b for b in SYSTEM.badges(state, state.combatant("c2")))


def test_a_troll_burnt_at_0_dies_as_its_turn_starts() -> None:
    state = dropped("1d8+3 slashing")
    orla = sheet_from_values({"damage": "1d8+3 fire"}, HERO_SHEET)
    state, _ = run(state, EditCombatant(combatant_id="c1", sheet=orla))
    # at one unconscious: advantage (15, 15), and within 5 feet a critical, 2d8 (7, 7) + 3
    state, _ = run(state, D20Attack("c1", "c2", usage="extra"), 15, 15, 7, 7)
    state, events = run(state, D20Apply())
    assert D20RegenerationStopped("c2") in events and not sheet(state, "c2").dead
    state, events = run(state, NextTurn())
    assert D20Perished("c2") in events
    assert sheet(state, "c2").dead and life_word(sheet(state, "c2")) == "dead"
    assert SYSTEM.pending(state) == ""
    said = SYSTEM.alerts(state, D20Perished("c2"))
    assert said == ["Troll is dead: it started its turn at 0 hit points without regenerating"]


def test_fire_that_drops_it_kills_it_at_its_turn_and_the_alert_says_so() -> None:
    """The alert said "it regenerates ... unless it takes acid or fire first" of a fire blow."""
    orla = sheet_from_values({"damage": "1d8+3 fire"}, HERO_SHEET)
    state = fight(("Orla", "party", orla), ("Troll", "foes", structs.replace(TROLL, hp=8)))
    state, _ = run(started(state), D20Attack("c1", "c2"), 15, 7)
    [roll] = [e for e in decide(state, D20Apply(), ScriptedDice([]))][:1]
    said = SYSTEM.alerts(state, roll)
    assert said == [
        "Troll drops to 0 hit points: down, its regeneration off: it dies as its turn starts"
    ]
    state, _ = run(state, D20Apply())
    state, events = run(state, NextTurn())
    assert D20Perished("c2") in events and sheet(state, "c2").dead


def test_a_vampires_regeneration_leaves_it_dead_at_0() -> None:
    state = dropped("1d8+3 slashing", SPAWN)
    assert sheet(state, "c2").dead
    state, events = run(state, NextTurn())
    assert not any(isinstance(e, D20Perished) for e in events)


def test_no_regeneration_set_at_all_kills_it_too_and_an_edit_away_leaves_it_dead() -> None:
    state = dropped("1d8+3 slashing")
    state, _ = run(state, EditCombatant(combatant_id="c2", sheet=structs.replace(TROLL, hp=0)))
    assert out_word(state.combatant("c2")) == "down"
    none = structs.replace(system_state(state), starts=())  # the GM's Start of turn: none
    bare = state.update(system_state=none)
    assert D20Perished("c2") in decide(bare, NextTurn(), ScriptedDice([]))
    plain = structs.replace(TROLL, hp=0, traits=("Regeneration 10 acid fire",))
    state, _ = run(state, EditCombatant(combatant_id="c2", sheet=plain))
    assert life_word(sheet(state, "c2")) == "dead"


def test_hit_points_set_to_0_by_hand_leave_a_troll_down() -> None:
    assert not SYSTEM.with_track(TROLL, 0).dead
    assert SYSTEM.with_track(SPAWN, 0).dead


async def test_by_keys_a_troll_burnt_at_0_dies_as_its_turn_starts(tmp_path: Path) -> None:
    orla = sheet_from_values({"damage": "1d8+3 fire"}, HERO_SHEET)
    troll = structs.replace(TROLL, hp=8)
    history = history_of(
        ("Orla", "party", orla), ("Troll", "foes", troll), ("Goblin", "foes", FOE_SHEET)
    )  # the goblin keeps the fight going: a troll down is out of it, as a dying hero is
    while history.state.current_id != "c1":
        history.commit(decide(history.state, NextTurn(), None))
    app = make_app(tmp_path, ScriptedDice([15, 7]), history)  # the hit, 1d8: 7 (10 fire)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "Attack" in screen_text(app), "the dialog")
        await pilot.press("enter")
        await until(pilot, lambda: "Troll takes 10 fire" in screen_text(app), "waits")
        await pilot.press("d")
        await until(pilot, lambda: sheet(app.session.state, "c2").hp == 0, "dropped")
        await until(pilot, lambda: "down" in screen_text(app), "the row says down")
        assert not sheet(app.session.state, "c2").dead
        await pilot.press("n")
        await until(pilot, lambda: sheet(app.session.state, "c2").dead, "dies")
        await until(pilot, lambda: "without regenerating" in screen_text(app), "the log")


def test_a_choice_of_combatants_offers_a_troll_down_before_the_dead() -> None:
    """Both are out of the fight; the down one may yet stand: the dead come last."""
    state = dropped("1d8+3 slashing")  # the Troll (c2), down
    spawn = structs.replace(SPAWN, hp=0, dead=True)
    state = fold_onto(state, decide(state, AddCombatant(name="Spawn", sheet=spawn), SeededDice(1)))
    people = tuple((c.id, c.name) for c in state.combatants)
    field = Field(
        key="who", label="Who", kind="choice", default="c1", choices=(people[2], *people[:2])
    )
    [offered] = living_first(SYSTEM, state, [field])
    assert [name for _, name in offered.choices] == ["Orla", "Troll", "Spawn"]


def test_with_every_foe_out_an_attack_proposes_the_troll_down_not_a_dead_ally() -> None:
    """It proposed the first other combatant: Bram, a dead ally of Orla's."""
    fallen = structs.replace(HERO_SHEET, hp=0, dead=True)
    troll = structs.replace(TROLL, hp=8)
    state = fight(
        ("Orla", "party", HERO_SHEET), ("Bram", "party", fallen), ("Troll", "foes", troll)
    )
    state, _ = run(started(state), D20Attack("c1", "c3"), 15, 7)
    state, _ = run(state, D20Apply())  # the Troll down
    proposed = {f.key: f.default for f in SYSTEM.action_form(state, "roll", None)}
    assert state.name_of(proposed["target"]) == "Troll"
