"""Surprise in Generic d20 (rulings.md, D4-18), the two ways a table may play it: the 2014
way (the surprised side takes no turn in the first round, and has no reaction until it ends)
and the 2024 way (its initiative rolled again with disadvantage, every die kept)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import NextTurn, SetInitiative, SetOption, Surprise
from rules.dice import SeededDice
from rules.engine import describe
from rules.errors import Rejected
from rules.events import InitiativeSet, SideSurprised
from rules.systems.d20.events import D20Reaction
from tests.app.support import make_app, until
from tests.app.test_app_command_line import type_line
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, fight, history_of, run


def ambush():  # type: ignore[no-untyped-def]
    """Orla and Bram (party) against two goblins; the goblins first, then the party."""
    state = fight(
        ("Orla", "party", HERO_SHEET),
        ("Bram", "party", HERO_SHEET),
        ("Goblin 1", "foes", FOE_SHEET),
        ("Goblin 2", "foes", FOE_SHEET),
    )
    for cid, value in (("c1", "12"), ("c2", "10"), ("c3", "18"), ("c4", "15")):
        state, _ = run(state, SetInitiative(cid, value))
    return state


def test_the_2014_way_the_surprised_side_takes_no_turn_in_the_first_round() -> None:
    state, events = run(ambush(), Surprise("party"))
    assert "no turn in the first round" in describe(state, events[0]).plain
    assert state.current_id == "c3"
    turns = []
    for _ in range(4):
        state, _ = run(state, NextTurn())
        turns.append((state.round, state.name_of(state.current_id)))
    # Round 1: the goblins alone; round 2: everyone, the surprise over.
    assert turns == [(1, "Goblin 2"), (2, "Goblin 1"), (2, "Goblin 2"), (2, "Orla")]
    assert state.combatant("c1").condition("Surprised") is None


def test_the_2014_way_no_reaction_until_the_first_round_ends() -> None:
    state, _ = run(ambush(), Surprise("party"))
    with pytest.raises(Rejected, match="surprised: no reaction"):
        run(state, D20Reaction("c1", "a parry"))
    for _ in range(2):
        state, _ = run(state, NextTurn())
    run(state, D20Reaction("c1", "a parry"))  # round 2: it has its reaction


def test_the_2024_way_rolls_the_sides_initiative_with_disadvantage() -> None:
    state, _ = run(ambush(), SetOption("surprise-way", "2024"))
    # Two d20s each, the lower kept: Orla 19 and 3 (3), Bram 20 and 2 (2).
    state, events = run(state, Surprise("party"), 19, 3, 20, 2)
    rolled = [e for e in events if isinstance(e, InitiativeSet)]
    assert [(e.combatant_ids, e.initiative) for e in rolled] == [(("c1",), 3), (("c2",), 2)]
    assert all(e.roll is not None and e.roll.notation.startswith("2d20kl1") for e in rolled)
    assert isinstance(events[0], SideSurprised) and "disadvantage" in events[0].effect
    assert [c.name for c in state.combatants][-2:] == ["Orla", "Bram"]


def test_a_way_the_system_does_not_know_is_refused_in_one_line() -> None:
    with pytest.raises(Rejected, match="no way of surprise '1999': 2014"):
        run(ambush(), SetOption("surprise-way", "1999"))


async def test_surprise_by_keys_shows_on_the_rows_and_one_u_takes_it_back(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, SeededDice(2), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "surprise party")
        await until(pilot, lambda: "side is surprised" in screen_text(app), "the log line")
        lines = screen_text(app).splitlines()
        orla = next(line for line in lines if line.startswith("┃") and " Orla " in line)
        assert "Surprised" in orla
        assert app.session.state.current_id == "c2"  # Orla's first turn is lost
        await pilot.press("u")
        await until(pilot, lambda: "side is surprised" not in screen_text(app), "undone")
        assert app.session.state.current_id == "c1"
