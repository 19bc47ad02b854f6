"""LiveHack in the app, played by keys; assertions read the screen as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant, AddCondition
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.livehack.demo import build as livehack_demo
from rules.systems.livehack.system import LiveHackSheet, Rating
from tests.app.support import burst_handled, until
from tests.app.test_form_keys import on_screen
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.form import FormScreen
from tracker.session import EncounterSession

BIG = (120, 40)


def make_app(tmp_path: Path, history: History, faces=()) -> TrackerApp:
    session = EncounterSession(history, ScriptedDice(faces), tmp_path / "fight.fight")
    return TrackerApp(session, saves=tmp_path)


def fight(*people: tuple[str, str, LiveHackSheet]) -> History:
    history = History(new_encounter("Pit", "livehack"))
    for name, side, sheet in people:
        history.commit(
            decide(
                history.state, AddCombatant(name=name, side=side, sheet=sheet), ScriptedDice([])
            ),
            f"add {name}",
        )
    return history


def rows(app: TrackerApp, name: str) -> str:
    return next(line for line in screen_text(app).splitlines() if f" {name} " in line)


async def test_who_cannot_act_is_flagged_in_the_turn_order(tmp_path: Path) -> None:
    history = fight(("Ann", "party", LiveHackSheet()), ("Bob", "foes", LiveHackSheet()))
    history.commit(decide(history.state, AddCondition("c2", "Dead"), ScriptedDice([])), "dead")
    app = make_app(tmp_path, history)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.pause()
        assert "✗" in rows(app, "Bob")
        assert "✗" not in rows(app, "Ann")


async def test_a_discombobulated_foe_loses_its_turn_but_is_not_marked_out(
    tmp_path: Path,
) -> None:
    """The damage table's 5-9 row: Discombobulated costs the next action ("When that
    character's turn is over, they return to normal"), so the row says it cannot act (⊘) but
    not that it is out of the fight (✗ and a word), as the Incapacitated boss beside it is;
    once its turn has passed, no mark."""
    # Seed 15: Orla hits the Goblin Sneak, and her damage roll lands at 5-9.
    session = EncounterSession(livehack_demo(), SeededDice(15), tmp_path / "fight.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("t", "enter", "enter", "enter", "d")
        sneak = app.session.state.combatant("c3")
        await until(pilot, lambda: "Discombobulated" in names(app, "c3"), "the 5-9 row applied")
        await until(pilot, lambda: rows(app, sneak.name).startswith("┃ ⊘"), "the row redrawn")
        assert "✗" not in rows(app, sneak.name)
        assert "Goblin Boss ✗ incapacitated" in rows(app, "Goblin Boss")  # out: the word
        assert rows(app, "Goblin Boss").startswith("┃ ✗")
        await pilot.press("n", "n")  # Brak's turn, then the goblin's
        await until(pilot, lambda: app.session.state.current_id == "c3", "the goblin's turn")
        assert rows(app, sneak.name).startswith("┃▶⊘")  # its turn passes: it cannot act
        await pilot.press("n")
        await until(pilot, lambda: "Discombobulated" not in names(app, "c3"), "its turn over")
        await until(pilot, lambda: "⊘" not in rows(app, sneak.name), "the mark gone")
        assert "✗" not in rows(app, sneak.name)


def names(app: TrackerApp, combatant_id: str) -> list[str]:
    return [c.name for c in app.session.state.combatant(combatant_id).conditions]


async def test_offset_penalties_show_on_the_combatant(tmp_path: Path) -> None:
    history = fight(
        ("Ann", "party", LiveHackSheet(dexterity=1, dex_damage=6)),  # Dex -5
        ("Bob", "foes", LiveHackSheet(str_damage=10)),  # Str -10: cannot act
        ("Cy", "foes", LiveHackSheet(dexterity=2, dex_damage=3)),  # Dex -1: nothing
    )
    app = make_app(tmp_path, history)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.pause()
        assert "Dex -5 roll DR 0" in rows(app, "Ann") and "✗" not in rows(app, "Ann")
        assert "Str -10" in rows(app, "Bob") and "✗" in rows(app, "Bob")
        assert "Dex" not in rows(app, "Cy")


def party() -> History:
    return fight(
        ("Orla", "party", LiveHackSheet(attack=5, bonds=(Rating("Brak", 2),))),
        ("Brak", "party", LiveHackSheet(attack=3, bonds=(Rating("Orla", 1),))),
        ("Goblin", "foes", LiveHackSheet(attack=2, reflex=1, fortitude=2)),
        # A second foe keeps the fight going while the Goblin lies dying.
        ("Rat", "foes", LiveHackSheet()),
    )


async def menu(pilot, index: int) -> None:
    """Open the s menu and pick its index-th action."""
    await pilot.press("s")
    await pilot.pause()
    await pilot.press(*(["down"] * index), "enter")
    await pilot.pause()


JOINT, HOLD, GRIM, DYING = 1, 3, 6, 7


@pytest.mark.slow
async def test_a_fight_through_dying_and_stabilization_by_keys(tmp_path: Path) -> None:
    faces = [
        *(8, 1, 4, 1, 2, 2),  # cooperation: Orla +7, Brak +3, the Goblin +0
        *(10, 1, 1, 1),  # Orla's attack with effort and her held position
        *(10, 1, 1, 1),  # its damage roll, +3 rolled over: margin 15
        *(6, 1),  # Orla's grim test
        *(1, 5),  # the Goblin's first dying save: fails, coma
        *(12, 3, 1),  # the second: Noon, MOS 12, stabilizes
    ]
    app = make_app(tmp_path, party(), faces)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await menu(pilot, JOINT)  # cooperation, Orla and Brak against the Goblin
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Cooperation: the best margin counts (Orla, +13)" in text
        assert "Orla: attack +5 bond Brak +2 boon [8] - bane [1]" in text
        assert "+2 rolled over" in text

        await menu(pilot, HOLD)
        await pilot.press(*"behind the door", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla holds +2 positional bonus over Goblin: behind the door (no damage" in text
        assert "+2 behind the door" in rows(app, "Orla")

        # r: effort 2 (third field); the held +2 comes by itself (R3-05).
        await pilot.press("r", "tab", "tab", "2")
        await pilot.pause()
        assert "Orla +9 vs Goblin Reflex +1, before the dice" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla: attack +5 effort +2 positional +2 boon [10] - bane [1]" in text
        assert "HIT, margin +17" in text
        assert "effort +2: Orla gains 2 Fatigue" in text

        assert "waiting (d): Orla's damage roll on Goblin (Fortitude, +3 rolled over)" in text
        await pilot.press("d")  # the damage roll
        await pilot.pause()
        text = screen_text(app)
        assert "Orla: attack +5 rolled over +3 boon [10] - bane [1]" in text
        assert "waiting (d): Goblin takes 4 Wounds, Dying" in text
        await pilot.press("d")  # its damage table
        await pilot.pause()
        text = screen_text(app)
        assert "Goblin takes 4 levels of Wounds" in text
        assert "Goblin is Dying" in text
        assert "✗" in rows(app, "Goblin")
        orla = app.session.state.combatant("c1").sheet
        assert (orla.fatigue, orla.effort_spent, orla.held) == (2, 2, ())

        await menu(pilot, GRIM)  # Orla: killing a helpless foe, DR 0
        await pilot.press("enter")
        await pilot.pause()
        assert "Grim test: Killing a helpless foe vs Orla (vs Will) 0 vs 5 RESISTED by 5" in (
            screen_text(app)
        )

        await pilot.press("n", "n", "n", "n")  # Brak, the Goblin, the Rat, the end of round 1
        await pilot.pause()
        text = screen_text(app)
        assert "Goblin cannot act (Dying)" in text
        assert "End of round 1: Goblin is dying: Fortitude save vs" in text

        await menu(pilot, DYING)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Dying save: Goblin -2 vs 4 (MOS -6)" in text
        assert "Goblin falls into a coma." in text
        assert "Goblin is Comatose" in text

        await pilot.press("n", "n", "n", "n")
        await pilot.pause()
        await menu(pilot, DYING)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Dying save: Goblin 16 vs 4 (MOS +12) Goblin stabilizes" in text
        conditions = [c.name for c in app.session.state.combatant("c3").conditions]
        assert conditions == ["Prone", "Stabilized", "Incapacitated"]


async def test_too_much_effort_is_refused_in_the_dialog(tmp_path: Path) -> None:
    history = fight(
        ("Orla", "party", LiveHackSheet(effort_spent=4)), ("Goblin", "foes", LiveHackSheet())
    )
    app = make_app(tmp_path, history)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("r", "tab", "tab", "2")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla has pushed +4 this combat: at most +1 more (+5 per combat)" in text
        await pilot.press("enter")
        await pilot.pause()
        assert "Opposed roll" in screen_text(app)  # the dialog stays open
        assert app.session.state.last_roll is None


async def test_a_sheet_with_skills_and_bonds_from_the_dialog(tmp_path: Path) -> None:
    app = make_app(tmp_path, History(new_encounter("Pit", "livehack")))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("a", *"Orla")
        app.screen.query_one("#field-sheet-skills").value = "Spot 3, Hide 2"
        app.screen.query_one("#field-sheet-bonds").value = "Brak 2"
        await pilot.press("enter")
        await pilot.pause()
        sheet = app.session.state.combatants[0].sheet
        assert [(r.name, r.value) for r in sheet.skills] == [("Spot", 3), ("Hide", 2)]
        assert [(r.name, r.value) for r in sheet.bonds] == [("Brak", 2)]
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#field-sheet-items").value = "Rope"
        await pilot.press("enter")
        await pilot.pause()
        assert "Items: write each as a name then a number, not 'Rope'" in screen_text(app)


SMALL = (80, 24)


def duel() -> History:
    """Orla (+10) against a Goblin (all 0), and a Rat to keep the fight going."""
    return fight(
        ("Orla", "party", LiveHackSheet(attack=10)),
        ("Goblin", "foes", LiveHackSheet()),
        ("Rat", "foes", LiveHackSheet()),
    )


async def test_an_attack_by_keys_deals_its_damage_once(tmp_path: Path) -> None:
    # The hit: Orla 10 + 2 against 0; the damage roll: 10 + 2 rolled over + 0 against 0.
    app = make_app(tmp_path, duel(), faces=[3, 1, 1, 1, 1, 1, 1, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "HIT," in text and "hit, margin +12" in text
        assert "waiting (d): Orla's damage roll on Goblin (Fortitude, +2 rolled over)" in text
        assert "margin bonus" not in text  # said once, in the waiting line
        assert app.session.state.combatant("c2").sheet.wounds == 0  # a hit does no damage
        await pilot.press("d")  # rolls the damage roll
        await pilot.pause()
        assert "waiting (d): Goblin takes 3 Wounds, Incapacitated" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert app.session.state.combatant("c2").sheet.wounds == 3
        await pilot.press("d")
        await pilot.pause()
        assert "already been applied" in screen_text(app)
        assert app.session.state.combatant("c2").sheet.wounds == 3
        assert "margin bonus" not in screen_text(app)  # the header let it go with the roll


async def test_holding_a_position_asks_for_its_description(tmp_path: Path) -> None:
    app = make_app(tmp_path, duel(), faces=[3, 1, 1, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r", "enter")
        await pilot.pause()
        await menu(pilot, HOLD)
        text = screen_text(app)
        assert "Position" in text and "on the high ground" in text  # the field and its hint
        await pilot.press("enter")  # blank: refused, the dialog stays
        await pilot.pause()
        assert "Describe the position held" in screen_text(app)
        await pilot.press(*"on the stairs", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla holds +2 positional bonus over" in text
        assert "Goblin: on the stairs (no damage roll)" in text
        assert "+2 on the stairs" in rows(app, "Orla")
        assert "waiting (d)" not in text  # no damage roll follows a held hit


async def test_a_stabilized_combatant_healed_on_the_line_can_act_again(tmp_path: Path) -> None:
    history = fight(("Ann", "party", LiveHackSheet()), ("Bob", "foes", LiveHackSheet(wounds=4)))
    for name in ("Prone", "Stabilized", "Incapacitated"):
        history.commit(decide(history.state, AddCondition("c2", name), ScriptedDice([])), name)
    app = make_app(tmp_path, history)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert "✗" in rows(app, "Bob")
        await pilot.press("colon", *"heal Bob", "enter")
        await pilot.pause()
        assert "Bob is no longer Incapacitated" in screen_text(app)
        assert "✗" not in rows(app, "Bob")


async def tab_to(pilot, key: str) -> None:
    """Tab through the open dialog until its field ``key`` has the focus (by keys, as a
    person would), the field in view at 80x24."""
    app = pilot.app
    for _ in range(30):
        focused = app.focused
        if focused is not None and focused.id == f"field-{key}":
            await until(pilot, lambda: on_screen(app), f"{key} scrolled into view")
            return
        await pilot.press("tab")
        await burst_handled(pilot)
    raise AssertionError(f"no field {key} in the dialog")


async def test_the_damage_roll_by_keys_carries_the_hits_sword(tmp_path: Path) -> None:
    # Issue 30, R3-01, by keys at 80x24: the hit with Melee +4, Str +2 and Sword +3 typed in
    # the roll dialog; `d` rolls its damage with all three, and the margin bonus rolled over.
    orla = LiveHackSheet(strength=2, skills=(Rating("Melee", 4),), items=(Rating("Sword", 3),))
    history = fight(("Orla", "party", orla), ("Goblin", "foes", LiveHackSheet()))
    app = make_app(tmp_path, history, faces=[3, 1, 1, 1, 1, 1, 1, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the roll dialog")
        await tab_to(pilot, "skill")
        await pilot.press(*"Melee")
        await tab_to(pilot, "attribute")
        await pilot.press("right")  # None → Str
        await tab_to(pilot, "items")
        await pilot.press(*"Sword", "enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the hit")
        assert "HIT," in screen_text(app)  # 4 + 2 + 3 and the dice's 2 against 0: +2
        await pilot.press("d")  # the damage roll, as the hit was made
        await until(pilot, lambda: app.session.state.last_roll.defense == "fortitude")
        damage = app.session.state.last_roll
        labels = [p.label for p in damage.attacker.parts]
        assert labels == ["Melee", "Str", "Sword", "rolled over"]
        text = screen_text(app)  # the log's line, wrapped at 80 columns
        assert "Orla: Melee +4 Str +2 Sword +3 rolled" in text and "over +2 boon" in text


async def test_the_joint_actions_participants_take_zero_by_keys(tmp_path: Path) -> None:
    # Issue 30, R3-08: the joint dialog's "Participants' dice" field, by keys at 80x24.
    app = make_app(tmp_path, party(), faces=[4, 1])  # the Goblin alone rolls: +1 + 3
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await menu(pilot, JOINT)
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the joint dialog")
        await tab_to(pilot, "take")
        await pilot.press("right")  # Roll → Take Zero
        await until(pilot, lambda: "Take Zero" in screen_text(app), "Take Zero chosen")
        assert "Participants' dice" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.system_state.joint is not None)
        rolls = app.session.state.system_state.joint.rolls
        assert [r.attacker.take for r in rolls] == ["zero", "zero"]
        assert [r.attacker.total for r in rolls] == [7, 4]  # attack + bond, no dice
        text = screen_text(app)
        assert "Cooperation: the best margin counts" in text and "7 vs 4: hit, margin +3" in text
        assert "Orla: attack +5 bond Brak +2 take zero" in text


async def test_a_monsters_take_ten_by_the_gms_leave_by_keys(tmp_path: Path) -> None:
    # Issue 30, R3-06: Take Ten refused for a monster's attack, then allowed by the GM.
    history = fight(
        ("Goblin", "foes", LiveHackSheet(attack=2, stat_block=True)),
        ("Orla", "party", LiveHackSheet()),
    )
    app = make_app(tmp_path, history, faces=[1, 1])  # Orla's defense rolls 0
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the roll dialog")
        await tab_to(pilot, "attacker_take")
        await pilot.press("right", "right")  # Roll → Take Zero → Take Ten
        await until(pilot, lambda: "Take Ten" in screen_text(app), "Take Ten chosen")
        await pilot.press("enter")
        await until(pilot, lambda: "Take Ten needs plenty of time" in screen_text(app))
        assert isinstance(app.screen, FormScreen)  # refused: the dialog stays open
        assert app.session.state.last_roll is None
        await pilot.press("right")  # → Take Ten (GM allows)
        await until(pilot, lambda: "Take Ten (GM allows)" in screen_text(app))
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the roll")
        roll = app.session.state.last_roll
        assert (roll.attacker.take, roll.attacker.total) == ("ten", 12)
        text = screen_text(app)
        assert "12 vs 0: hit, margin +12" in text and "Goblin: attack +2 take ten +10" in text
