"""Generic d20's action economy (issue 40, D4-01 in rulings.md): an action, a bonus action and
a reaction, spent by the rolls that use them and fresh on the next turn; a second action
refused in one line, the GM's extra action taken on purpose; a Multiattack counted, then its
action spent; solo play and the forecast never acting twice."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules.commands import NextTurn
from rules.dice import ScriptedDice, SeededDice
from rules.encounter import Encounter
from rules.engine import apply, decide
from rules.errors import Rejected
from rules.forecast import all_solo
from rules.registry import get_system
from rules.systems.d20.events import (
    D20Apply,
    D20Attack,
    D20Attacked,
    D20Heal,
    D20Saved,
    D20SaveEffect,
)
from tests.app.support import make_app, until
from tests.app.test_app_command_line import type_line
from tests.app.test_app_end_of_fight import notices
from tests.screen import screen_text
from tests.systems.d20.support import (
    FOE_SHEET,
    HERO_SHEET,
    card,
    duel,
    fight,
    history_of,
    run,
    sheet,
)
from tests.systems.d20.test_forecast_d20 import a_busy_fight, the_demo

SYSTEM = get_system("d20")
HIT = (15, 4)  # a d20 that hits, and its damage die


def started(state: Encounter, cid: str = "c1") -> Encounter:
    """The fight begun and on ``cid``'s turn."""
    state = run(state, NextTurn())[0]
    while state.current_id != cid:
        state = run(state, NextTurn())[0]
    return state


def badges(state: Encounter, cid: str) -> tuple[str, ...]:
    return tuple(SYSTEM.badges(state, state.combatant(cid)))


# --- the rules ---------------------------------------------------------------------------------


def test_a_second_action_on_the_same_turn_is_refused_in_one_line() -> None:
    state, _ = run(started(duel()), D20Attack("c1", "c2"), *HIT)
    assert badges(state, "c1") == ("spent A",)
    with pytest.raises(Rejected) as refused:
        decide(state, D20Attack("c1", "c2"), ScriptedDice([]))
    said = refused.value.message
    assert said == "Orla has used the action this turn (As: Extra action)"
    assert "\n" not in said


def test_the_extra_action_is_taken_on_purpose_and_said() -> None:
    state, _ = run(started(duel()), D20Attack("c1", "c2"), *HIT)
    state, events = run(state, D20Attack("c1", "c2", usage="extra"), *HIT)
    assert isinstance(events[0], D20Attacked) and events[0].usage == "extra"
    head = SYSTEM.describe(state, events[0]).lines[0]
    assert "(extra action)" in "".join(span.text for span in head)


def test_the_extra_action_is_the_gms_to_give() -> None:
    assert SYSTEM.gm_choice("usage", "extra") and not SYSTEM.gm_choice("usage", "bonus")
    assert SYSTEM.gm_approvals(D20Attack("c1", "c2", usage="extra")) == ("an extra action",)
    assert SYSTEM.gm_approvals(D20Heal("c1", "c1", "2", usage="extra")) == ("an extra action",)
    assert SYSTEM.gm_approvals(D20Attack("c1", "c2")) == ()


def test_the_action_is_fresh_on_the_next_turn_and_after_an_undo() -> None:
    state, _ = run(started(duel()), D20Attack("c1", "c2"), *HIT)
    state, _ = run(state, NextTurn())  # the goblin's turn
    assert badges(state, "c1") == ()
    state, _ = run(state, D20Attack("c2", "c1"), *HIT)
    state, _ = run(state, NextTurn())  # Orla's again, round 2
    run(state, D20Attack("c1", "c2"), *HIT)  # not refused


def test_the_log_says_when_the_action_is_spent() -> None:
    state = started(duel())
    events = decide(state, D20Attack("c1", "c2"), ScriptedDice(HIT))
    lines = SYSTEM.describe(state, events[0]).lines
    assert "".join(span.text for span in lines[-1]).strip() == "Orla has used the action"


def test_a_multiattack_counts_its_attacks_then_spends_the_action() -> None:
    ogre = card(hp="30/30", ac="12", attack_bonus="5", damage="1d8+3 slashing", multiattack="2")
    start = started(fight(("Ogre", "foes", ogre), ("Orla", "party", HERO_SHEET)))
    state, first = run(start, D20Attack("c1", "c2"), *HIT)
    assert badges(state, "c1") == ()
    assert "Multiattack: attack 2 of 2" in SYSTEM.preview(
        state, "roll", {"attacker": "c1", "target": "c2"}
    )
    said = [s.text for line in SYSTEM.describe(start, first[0]).lines for s in line]
    assert "has used the action" not in "".join(said)
    before = state
    state, second = run(state, D20Attack("c1", "c2"), *HIT)
    lines = SYSTEM.describe(before, second[0]).lines
    assert "".join(s.text for s in lines[-1]).strip() == "Ogre has used the action"
    assert badges(state, "c1") == ("spent A",)
    with pytest.raises(Rejected, match="has used the action"):
        decide(state, D20Attack("c1", "c2"), ScriptedDice([]))


def test_a_bonus_action_attack_and_a_bonus_action_heal_each_once_a_turn() -> None:
    state, _ = run(started(duel()), D20Attack("c1", "c2"), *HIT)
    state, _ = run(state, D20Attack("c1", "c2", usage="bonus"), *HIT)
    assert badges(state, "c1") == ("spent A B",)
    with pytest.raises(Rejected, match="has used the bonus action"):
        decide(state, D20Heal("c1", "c1", "2", usage="bonus"), ScriptedDice([]))
    fresh = started(duel())
    fresh, events = run(fresh, D20Heal("c1", "c1", "1d4", usage="bonus"), 2)
    assert events[0].usage == "bonus" and badges(fresh, "c1") == ("spent B",)
    run(fresh, D20Attack("c1", "c2"), *HIT)  # the action is still there


def test_a_save_effect_spends_the_action_it_is_cast_with() -> None:
    burn = D20SaveEffect("c1", ("c2",), "Burn", "dex", 13, "1d6 fire", usage="action")
    state, _ = run(started(duel()), burn, 5, 3)
    with pytest.raises(Rejected, match="has used the action"):
        decide(state, D20Attack("c1", "c2"), ScriptedDice([]))


def test_a_bonus_action_is_taken_on_its_own_turn() -> None:
    state = started(duel(), "c2")  # the goblin's turn
    with pytest.raises(Rejected, match="on its own turn"):
        decide(state, D20Attack("c1", "c2", usage="bonus"), ScriptedDice([]))


def test_a_reaction_shows_in_the_row_as_r() -> None:
    state = run(started(duel()), D20Attack("c2", "c1", usage="reaction"), *HIT)[0]
    assert badges(state, "c2") == ("spent R",)


def test_the_odds_are_the_same_whatever_the_roll_uses() -> None:
    state = started(duel())
    odds = {
        usage: SYSTEM.odds(state, "roll", {"attacker": "c1", "target": "c2", "usage": usage})
        for usage in ("action", "bonus", "extra", "reaction")
    }
    first = odds["action"]
    assert first is not None
    assert all(o is not None and o.tiers == first.tiers for o in odds.values())


def test_a_save_from_before_opens_with_nothing_spent() -> None:
    from msgspec import json

    from rules.systems.d20.events import D20State

    old = b'{"type":"d20.state","concentration_saves":[],"death_saved":[],"held":[]}'
    assert json.decode(old, type=D20State).turn is None


# --- solo play and the forecast ----------------------------------------------------------------


def action_rolls(state: Encounter, seed: int, moves: int = 400) -> Counter[tuple[str, Any]]:
    """Every side played by the tracker from ``state``: how many rolls each combatant made as
    its action on each of its turns (an attack of its action, or a save effect it cast)."""
    system = get_system(state.system)
    state, dice = all_solo(state), SeededDice(seed)
    made: Counter[tuple[str, Any]] = Counter()
    for _ in range(moves):
        move = system.solo_move(state)
        command: Any = move.command if move is not None else NextTurn()
        try:
            events = decide(state, command, dice)
        except Rejected:
            events = decide(state, NextTurn(), dice)
        for event in events:
            ours = event.stamp if isinstance(event, D20Attacked | D20Saved) else None
            if isinstance(event, D20Attacked) and event.usage == "action":
                if event.attacker_id == state.current_id:
                    made[event.attacker_id, ours] += 1
            elif isinstance(event, D20Saved) and event.source_id == state.current_id:
                made[event.source_id, ours] += 1
            state = apply(state, event)
    return made


@pytest.mark.parametrize("build", [a_busy_fight, the_demo], ids=["busy", "demo"])
def test_solo_play_never_acts_twice_on_a_turn(build: Any) -> None:
    state = build()
    most = {c.id: max(sheet(state, c.id).multiattack, 1) for c in state.combatants}
    for seed in range(6):
        made = action_rolls(state, seed)
        assert made, "nobody acted"
        twice = {key: n for key, n in made.items() if n > most[key[0]]}
        assert not twice, f"seed {seed}: acted more than its action allows: {twice}"


def test_solo_play_makes_its_bonus_action_attack_once_its_action_is_spent() -> None:
    ogre = card(hp="30/30", ac="12", attack_bonus="5", damage="1d8+3 slashing",
                bonus_attack="yes")  # fmt: skip
    state = started(fight(("Ogre", "foes", ogre), ("Orla", "party", FOE_SHEET)))
    state = state.update(solo_sides=("foes",))
    seen = []
    for _ in range(4):
        move = SYSTEM.solo_move(state)
        assert move is not None
        seen.append(move.command)
        state, _ = (
            run(state, move.command, *HIT)
            if not isinstance(move.command, NextTurn)
            else run(state, move.command)
        )
        if isinstance(move.command, NextTurn):
            break
    usages = [c.usage for c in seen if isinstance(c, D20Attack)]
    assert usages == ["action", "bonus"] and isinstance(seen[-1], NextTurn)


def test_one_who_dies_on_its_own_turn_last_in_the_order_ends_the_round() -> None:
    state = started(duel(), "c2")  # the goblin's turn, the last in the order
    burn = D20SaveEffect("c1", ("c2",), "Trap", "dex", 30, "20 fire", usage="free")
    state, _ = run(state, burn, 1)
    state, _ = run(state, D20Apply())
    assert sheet(state, "c2").dead
    state, _ = run(state, NextTurn())
    assert (state.round, state.current_id) == (2, "c1")  # not round 1 again: no second turn


# --- by keys at 80x24 --------------------------------------------------------------------------


def refusals(app: Any) -> str:
    return notices(app) + "\n" + screen_text(app)


async def test_by_keys_a_second_attack_is_refused_and_the_extra_action_takes_it(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([*HIT, *HIT]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session.state.current_id == "c1", "Orla's turn")
        await pilot.press("r")
        await until(pilot, lambda: "uses the action" in screen_text(app), "the dialog says it")
        await pilot.press("enter")
        await until(pilot, lambda: "Orla has used the action" in screen_text(app), "the line")
        await pilot.press("d")
        await until(pilot, lambda: "spent A" in screen_text(app), "the row shows it")
        await pilot.press("r")
        await until(pilot, lambda: "the action is used" in screen_text(app), "said")
        await pilot.press("enter")
        said = "Orla has used the action this turn (As: Extra action)"
        await until(pilot, lambda: said in refusals(app), "the second attack refused")
        assert sum(isinstance(e, D20Attacked) for e, _ in app.session.history.in_effect()) == 1
        await pilot.press(*["tab"] * 3, "right", "right", "right", "right")  # As: Extra action
        await until(pilot, lambda: "an extra action" in screen_text(app), "the extra action")
        await pilot.press("enter")
        await until(pilot, lambda: "(extra action)" in screen_text(app), "the extra logged")
        rolls = [e for e, _ in app.session.history.in_effect() if isinstance(e, D20Attacked)]
        assert [r.usage for r in rolls] == ["action", "extra"]


async def test_by_keys_the_quick_turn_twice_attacks_once(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([*HIT, *HIT]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session.state.current_id == "c1", "Orla's turn")
        for _ in range(3):
            await pilot.press("t", "enter", "enter")
        await until(pilot, lambda: "has used the action this turn" in refusals(app), "refused")
        rolls = [e for e, _ in app.session.history.in_effect() if isinstance(e, D20Attacked)]
        assert len(rolls) == 1


async def test_by_keys_a_multiattack_counts_then_spends_the_action(tmp_path: Path) -> None:
    ogre = card(hp="30/30", ac="12", attack_bonus="5", damage="1d8+3 slashing", multiattack="2")
    history = history_of(("Ogre", "foes", ogre), ("Orla", "party", HERO_SHEET))
    app = make_app(tmp_path, ScriptedDice([*HIT, *HIT]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session.state.current_id == "c1", "the Ogre's turn")
        await pilot.press("r")
        await until(pilot, lambda: "Multiattack: attack 1" in screen_text(app), "the first of two")
        await pilot.press("enter", "d")
        await until(pilot, lambda: app.session.state.last_roll_applied, "the first dealt")
        assert "spent A" not in screen_text(app)
        await pilot.press("r")
        await until(pilot, lambda: "Multiattack: attack 2" in screen_text(app), "the second of two")
        await pilot.press("enter", "d")
        await until(pilot, lambda: "Ogre has used the action" in screen_text(app), "the line")
        await until(pilot, lambda: "spent A" in screen_text(app), "the row shows it")
        await pilot.press("r")
        await until(pilot, lambda: "attacks are made" in screen_text(app), "said")


async def test_by_keys_the_line_refuses_a_second_attack_and_takes_it_with_extra(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([*HIT, *HIT]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session.state.current_id == "c1", "Orla's turn")
        await type_line(pilot, "attack Orla Goblin")
        await until(pilot, lambda: "Orla has used the action" in screen_text(app), "the line")
        await pilot.press("d")
        await until(pilot, lambda: app.session.state.last_roll_applied, "its damage dealt")
        await type_line(pilot, "attack Orla Goblin")
        said = "Orla has used the action this turn (As: Extra action)"
        await until(pilot, lambda: said in refusals(app), "the second attack refused")
        await pilot.press("escape")  # the refused line is kept to edit: closed, typed anew
        await type_line(pilot, "attack Orla Goblin extra")
        await until(pilot, lambda: "(extra action)" in screen_text(app), "the extra logged")
        rolls = [e for e, _ in app.session.history.in_effect() if isinstance(e, D20Attacked)]
        assert [r.usage for r in rolls] == ["action", "extra"]


def test_stabilising_spends_the_action_and_the_attack_after_it_is_refused() -> None:
    weak = card("hero", hp="0/20")
    state = started(fight(("Sefi", "party", HERO_SHEET), ("Orla", "party", weak),
                          ("Goblin", "foes", FOE_SHEET)))  # fmt: skip
    form = {f.key: f.default for f in SYSTEM.action_form(state, "stabilise", "c1")}
    assert form["usage"] == "action"
    command = SYSTEM.action_command(state, "stabilise", form)
    state, events = run(state, command, 12)
    assert events[0].usage == "action" and events[0].success
    assert badges(state, "c1") == ("spent A",)
    with pytest.raises(Rejected, match="has used the action"):
        decide(state, D20Attack("c1", "c3"), ScriptedDice([]))
