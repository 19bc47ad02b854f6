"""A d20 creature's stat block actions played by keys at 80x24 (#41 item 1): the attack
dialog's Action choice, a Multiattack's parts one by one for one action, a legendary Wing
Attack costing 2, the `:` line naming an action; what the log and the dialog say."""

from __future__ import annotations

from pathlib import Path

from rules.commands import NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.registry import get_system
from rules.systems.d20.events import D20Attacked, D20LegendaryUsed, D20Saved
from rules.systems.d20.standing import legendary_left
from tests.app.support import make_app, until
from tests.app.test_app_command_line import type_line
from tests.screen import screen_text
from tests.systems.d20.support import DRAGON_SHEET, HERO_SHEET, card, history_of, sheet
from tests.systems.d20.test_economy_d20 import refusals

SYSTEM = get_system("d20")
SIZE = (80, 24)


def lair_history():  # type: ignore[no-untyped-def]
    """The Adult Red Dragon (c1) against Orla (c2) and Bram (c3), the fight begun."""
    history = history_of(("Adult Red Dragon", "foes", DRAGON_SHEET),
                         ("Orla", "party", HERO_SHEET), ("Bram", "party", HERO_SHEET))  # fmt: skip
    history.commit(decide(history.state, NextTurn(), None))
    return history


def rolls(app, kind):  # type: ignore[no-untyped-def]
    return [e for e, _ in app.session.history.in_effect() if isinstance(e, kind)]


async def to_turn(pilot, app, cid: str) -> None:  # type: ignore[no-untyped-def]
    while app.session.state.current_id != cid:
        await pilot.press("n")
        await pilot.pause()


async def test_by_keys_the_dragons_multiattack_is_made_part_by_part_for_one_action(
    tmp_path: Path,
) -> None:
    # Frightful Presence: both save (20, 20); then the Bite and two Claws miss (1s)
    app = make_app(tmp_path, ScriptedDice([20, 20, 1, 1, 1]), lair_history())
    async with app.run_test(size=SIZE) as pilot:
        await to_turn(pilot, app, "c1")
        await pilot.press("r")
        await until(pilot, lambda: "Multiattack: Frightful Presence, Bite" in screen_text(app),
                    "the Action choice, the Multiattack first")  # fmt: skip
        await until(pilot, lambda: "part 1 of 4" in screen_text(app), "its first part proposed")
        await pilot.press("tab", "tab", "right", "right", "right")  # Everyone of party
        await until(pilot, lambda: "on Orla, Bram" in screen_text(app), "both targets")
        await pilot.press("enter")
        await until(pilot, lambda: "(Multiattack): Wisdom save DC 19" in screen_text(app), "log")
        await pilot.press("d")
        await until(pilot, lambda: app.session.state.last_roll_applied, "the save dealt")
        for part in ("2 of 4", "3 of 4", "4 of 4"):
            await pilot.press("r")
            await until(pilot, lambda p=part: f"part {p}" in screen_text(app), f"part {part}")
            await pilot.press("enter")
            await until(pilot, lambda p=part: len(rolls(app, D20Attacked)) == int(p[0]) - 1,
                        "the part rolled")  # fmt: skip
        await until(pilot, lambda: "Adult Red Dragon has used the action" in screen_text(app),
                    "one action spent, with the last part")  # fmt: skip
        assert [r.attack for r in rolls(app, D20Attacked)] == ["Bite", "Claw", "Claw"]
        assert [r.of for r in rolls(app, D20Attacked)] == ["Multiattack"] * 3
        assert "Adult Red Dragon's Bite (Multiattack) at" in screen_text(app)
        await pilot.press("r")
        await until(pilot, lambda: "Multiattack" in screen_text(app), "the dialog again")
        await pilot.press("enter")
        said = "Adult Red Dragon has used the action this turn"
        await until(pilot, lambda: said in refusals(app), "a second action refused")
        assert len(rolls(app, D20Saved)) == 1


async def test_by_keys_a_legendary_wing_attack_costs_two_and_the_next_is_refused(
    tmp_path: Path,
) -> None:
    # the Wing Attack: both fail (2, 3), 2d6 (4, 5) + 8 bludgeoning
    app = make_app(tmp_path, ScriptedDice([2, 3, 4, 5]), lair_history())
    async with app.run_test(size=SIZE) as pilot:
        await to_turn(pilot, app, "c2")
        place = [a.id for a in SYSTEM.actions(app.session.state)].index("legendary")
        await pilot.press("s", *(["down"] * place), "enter")
        await until(pilot, lambda: "Legendary action" in screen_text(app), "the dialog")
        await pilot.press("tab", "w")  # the letters jump to the Wing Attack
        await until(pilot, lambda: "Wing Attack (costs 2)" in screen_text(app), "by its cost")
        await pilot.press("tab", "tab", "tab", "right", "right", "right")  # Everyone of party
        await until(pilot, lambda: "on Orla, Bram" in screen_text(app), "both targets")
        await pilot.press("enter")
        await until(pilot, lambda: "(legendary, costs 2): Dexterity" in screen_text(app), "log")
        dragon = app.session.state.combatant("c1")
        assert legendary_left(app.session.state, dragon) == 1
        await pilot.press("d")
        await until(pilot, lambda: app.session.state.last_roll_applied, "dealt")
        await pilot.press("s", *(["down"] * place), "enter")
        await until(pilot, lambda: "Legendary action" in screen_text(app), "the dialog again")
        await pilot.press("tab", "w", "enter")
        said = "Wing Attack costs 2; Adult Red Dragon has 1 legendary action left"
        await until(pilot, lambda: said in refusals(app), "refused in one line")


async def test_the_line_attacks_with_a_named_action_and_offers_the_nearest_name(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, ScriptedDice([1]), lair_history())
    async with app.run_test(size=SIZE) as pilot:
        await to_turn(pilot, app, "c1")
        await type_line(pilot, "attack adult claw orla")
        await until(pilot, lambda: "Adult Red Dragon's Claw at Orla" in screen_text(app), "log")
        assert rolls(app, D20Attacked)[0].action == "Claw"
        await pilot.press("escape")
        await type_line(pilot, "attack adult bight orla")
        await until(pilot, lambda: "did you mean 'Bite'" in refusals(app), "the nearest name")
        await pilot.press("escape")
        await type_line(pilot, "use adult bight orla")  # a dialog with no text field to fill
        await until(pilot, lambda: "did you mean 'bite'" in refusals(app), "the nearest choice")


async def test_the_line_names_another_attacker_and_takes_that_ones_attack(
    tmp_path: Path,
) -> None:
    """On the dragon's turn, `:attack orla adult` took the dragon's Action for Orla: "Orla
    has no action 'Multiattack'". It takes Orla's own attack, as her dialog proposes."""
    app = make_app(tmp_path, ScriptedDice([1, 1]), lair_history())
    async with app.run_test(size=SIZE) as pilot:
        await to_turn(pilot, app, "c1")
        await type_line(pilot, "attack orla adult")
        await until(pilot, lambda: rolls(app, D20Attacked), "Orla's attack")
        [attack] = rolls(app, D20Attacked)
        assert attack.attacker_id == "c2" and attack.target_id == "c1"
        assert "has no action" not in refusals(app)


async def test_the_use_line_plays_a_legendary_action_on_a_side_and_logs_one_with_no_roll(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, ScriptedDice([2, 3, 4, 5]), lair_history())
    async with app.run_test(size=SIZE) as pilot:
        await to_turn(pilot, app, "c2")  # Orla's: the dragon's actions are legendary
        await type_line(pilot, "use adult wing-attack side:party")
        await until(pilot, lambda: "(legendary, costs 2): Dexterity" in screen_text(app), "log")
        assert [r.target_id for r in rolls(app, D20Saved)[0].rolls] == ["c2", "c3"]
        await pilot.press("d")
        await until(pilot, lambda: app.session.state.last_roll_applied, "dealt")
        await type_line(pilot, "use adult detect")
        await until(pilot, lambda: rolls(app, D20LegendaryUsed), "the legendary Detect")
        assert rolls(app, D20LegendaryUsed)[0].what == "Detect"
        await to_turn(pilot, app, "c1")
        await type_line(pilot, "use adult detect")
        await until(pilot, lambda: "Adult Red Dragon uses Detect" in screen_text(app), "used")
        await until(pilot, lambda: "Adult Red Dragon has used the action" in screen_text(app),
                    "the action spent")  # fmt: skip


async def test_by_keys_the_reaction_dialog_lists_its_reactions_and_plays_one(
    tmp_path: Path,
) -> None:
    knight = card(hp="52/52", ac="18", actions="Longsword: +5, 1d8+3 slashing",
                  reactions="Riposte: +5, 1d8+3 slashing; Parry")  # fmt: skip
    history = history_of(("Orla", "foes", HERO_SHEET), ("Knight", "party", knight))
    history.commit(decide(history.state, NextTurn(), None))
    app = make_app(tmp_path, ScriptedDice([1]), history)
    async with app.run_test(size=SIZE) as pilot:
        await to_turn(pilot, app, "c1")  # Orla's turn: the Knight reacts
        place = [a.id for a in SYSTEM.actions(app.session.state)].index("reaction")
        await pilot.press("s", *(["down"] * place), "enter")
        await until(
            pilot, lambda: "Knight's Riposte: +5 vs AC 15" in screen_text(app), "its reaction"
        )
        await pilot.press("enter")
        await until(pilot, lambda: "Knight's Riposte (reaction) at Orla" in screen_text(app), "log")
        assert sheet(app.session.state, "c2").reaction_round == app.session.state.round
