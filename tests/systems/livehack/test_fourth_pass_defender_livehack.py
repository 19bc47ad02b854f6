"""LiveHack, read a fourth time (issue 39): the defender's side of a roll, each by its id.

F4-03: a defending skill adds its related attribute; F4-04: a defender's specialty, bond and
items count; F4-08: a joint action's defender pushes, and has its extra modifier.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from textual import events

from rules.commands import EditCombatant, SetPolicy, SetSolo
from rules.errors import Rejected
from rules.systems.livehack.odds import dice_at_least, opposed_odds
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackJointRoll,
    LiveHackRoll,
    LiveHackSheet,
    Rating,
)
from tests.app.support import until
from tests.app.test_form_keys import on_screen
from tests.helpers import encounter, run, unnamed
from tests.hostile_text import SEQUENCES, SPOOFING, unsafe
from tests.screen import screen_text
from tests.systems.livehack.test_app_livehack import (
    JOINT,
    SMALL,
    fight,
    make_app,
    menu,
    party,
    tab_to,
)
from tests.systems.livehack.test_livehack_mechanics import hit, play
from tests.systems.livehack.test_odds_livehack import enumerated_tiers
from tracker.screens.form import FormScreen

ZERO = {"attacker_take": "zero", "defender_take": "zero"}
HOSTILE = SPOOFING + "".join(SEQUENCES)  # one line: an input takes a paste's first
DEPTH = 1  # chains of at most one 12 counted: the rest is under 1/144 of the whole


def spent(history, cid):
    sheet = history.state.combatant(cid).sheet
    return sheet.fatigue, sheet.effort_spent


def bracketed(found, offset, rollers=1):
    """The exact tiers lie between the count of every outcome with chains of at most
    ``DEPTH`` 12s and that count plus the mass it leaves out (counted independently of the
    closed form in ``odds``)."""
    low = enumerated_tiers(offset, rollers, DEPTH)
    missing = 1 - sum(low)
    return all(lo <= t.p <= lo + missing for lo, t in zip(low, found.tiers, strict=True))


# --- F4-03: the defending skill adds the attribute related to it ---------------------------


def sneak_and_sentry():
    return encounter(
        LiveHackSheet(dexterity=3, skills=(Rating("Hide", 4),)),
        LiveHackSheet(wisdom=3, intelligence=2, skills=(Rating("Spot", 4),)),
    )


def test_a_defending_skill_adds_its_related_attribute():
    history = sneak_and_sentry()
    text = play(history, hit(skill="Hide", attribute="dex", defense="skill", **ZERO))
    assert "(vs Spot)" in text and "B: Spot +4 Wis +3 take zero" in text
    roll = history.state.last_roll
    assert (roll.attacker.total, roll.defender.total) == (7, 7)  # Hide 4 + Dex 3, Spot 4 + Wis 3


def test_listen_adds_wis_and_the_gm_may_name_another_attribute_or_none():
    history = encounter(
        LiveHackSheet(skills=(Rating("Move Silently", 2),)),
        LiveHackSheet(wisdom=2, intelligence=1, skills=(Rating("Listen", 1),)),
    )
    sneak = hit(skill="Move Silently", defense="skill", **ZERO)
    assert "B: Listen +1 Wis +2 take zero" in play(history, sneak)
    named = play(history, LiveHackRoll(**{**_fields(sneak), "defender_attribute": "int"}))
    assert "B: Listen +1 Int +1 take zero" in named
    bare = play(history, LiveHackRoll(**{**_fields(sneak), "defender_attribute": ""}))
    assert "B: Listen +1 take zero" in bare


def test_a_skill_the_tracker_does_not_know_asks_for_its_attribute():
    history = encounter(LiveHackSheet(), LiveHackSheet(skills=(Rating("Smell", 2),)))
    odd = hit(defense="skill", defender_skill="Smell", **ZERO)
    with pytest.raises(Rejected, match="Which attribute goes with Smell"):
        run(history, odd)
    text = play(history, LiveHackRoll(**{**_fields(odd), "defender_attribute": "wis"}))
    assert "B: Smell +2 take zero" in text  # Wis 0 is left out, as for Reflex's Dex


def test_the_roll_dialogs_odds_count_the_defending_skills_attribute():
    history = sneak_and_sentry()
    values = _dialog(history, skill="Hide", attribute="dex", defense="skill", attacker_take="zero")
    found = SYSTEM.odds(history.state, "roll", values)
    assert found is not None
    assert bracketed(found, 7 - 7)  # Hide 4 + Dex 3 against Spot 4 + Wis 3 and the dice
    assert not bracketed(found, 7 - 4)  # Spot alone, as before


async def test_a_spot_roll_adds_wis_by_keys(tmp_path: Path) -> None:
    history = fight(
        ("Ann", "party", LiveHackSheet(dexterity=3, skills=(Rating("Hide", 4),))),
        ("Bob", "foes", LiveHackSheet(wisdom=3, skills=(Rating("Spot", 4),))),
    )
    app = make_app(tmp_path, history)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the roll dialog")
        await tab_to(pilot, "defense")
        await pilot.press("right", "right", "right")  # Reflex → ... → A skill
        await tab_to(pilot, "attacker_take")
        await pilot.press("right")  # Take Zero
        await tab_to(pilot, "skill")
        await pilot.press(*"Hide")
        await tab_to(pilot, "attribute")
        await pilot.press(*["right"] * 4)  # None → Str → Int → Wis → Dex
        await tab_to(pilot, "defender_take")
        await pilot.press("right")  # Take Zero
        await tab_to(pilot, "defender_attribute")
        assert "The skill's own" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the roll")
        text = screen_text(app)
        assert "Bob: Spot +4 Wis +3 take zero" in text and "7 vs 7" in text


# --- F4-04: a defender's specialty, bond and items --------------------------------------------


def shield_bearer() -> LiveHackSheet:
    return LiveHackSheet(
        reflex=1,
        items=(Rating("Shield", 2), Rating("Torch", 1)),
        specialties=(Rating("Reflex/dodging", 1), Rating("Spot/traps", 3)),
        bonds=(Rating("Ann", 2),),
    )


def test_a_defenders_specialty_bond_and_items_count():
    history = encounter(LiveHackSheet(attack=6), shield_bearer())
    text = play(
        history,
        hit(
            defender_specialty="Reflex/dodging",
            defender_bond="Ann",
            defender_items="Shield",
            defender_extra=1,
            **ZERO,
        ),
    )
    assert "B: Reflex +1 specialty Reflex/dodging +1 bond Ann +2 Shield +2 extra +1" in text
    assert history.state.last_roll.defender.total == 7


def test_a_defenders_specialty_goes_with_its_defense():
    history = encounter(LiveHackSheet(attack=6), shield_bearer())
    with pytest.raises(Rejected, match="Spot/traps is a specialty of Spot, not of the Reflex"):
        run(history, hit(defender_specialty="Spot/traps", **ZERO))
    with pytest.raises(Rejected, match="no item named 'Sword'"):
        run(history, hit(defender_items="Sword", **ZERO))


def test_the_roll_dialog_offers_the_defenders_ratings_from_its_sheet():
    history = encounter(LiveHackSheet(attack=6), shield_bearer())
    fields = {f.key: f for f in SYSTEM.action_form(history.state, "roll", None)}
    assert fields["defender_items"].help == "B: Shield +2, Torch +1"
    assert fields["defender_specialty"].help == "B: Reflex/dodging +1, Spot/traps +3"
    assert fields["defender_bond"].help == "B: Ann +2"
    bare = encounter(LiveHackSheet(), LiveHackSheet())
    fields = {f.key: f for f in SYSTEM.action_form(bare.state, "roll", None)}
    assert fields["defender_items"].help == "none on B's sheet"


def test_the_roll_dialogs_preview_and_odds_count_the_defenders_shield():
    history = encounter(LiveHackSheet(attack=6), shield_bearer())
    values = _dialog(history, defender_items="Shield", defender_take="zero")
    assert SYSTEM.preview(history.state, "roll", values).startswith("A +6 vs B Reflex +3")
    found = SYSTEM.odds(history.state, "roll", values)
    assert found is not None
    assert bracketed(found, 6 - 3)  # the attacker rolls against Reflex 1 + Shield 2
    assert not bracketed(found, 6 - 1)  # the shield lost, as before
    assert unnamed(found) == opposed_odds(6, 3, "roll", "zero")


def test_a_tracker_played_defender_weighs_its_shield():
    """A cautious solo defender takes zero when its side is ahead: the shield puts it there."""
    history = encounter(LiveHackSheet(attack=2), shield_bearer())
    run(history, SetPolicy("c2", "cautious"))
    run(history, SetSolo(history.state.combatant("c2").side))
    values = _dialog(history, attacker_take="zero")
    without, _ = SYSTEM.solo_fill(history.state, "roll", values)
    # Reflex 1 and its Reflex/dodging 1 against 2: not ahead (a tie is the attacker's), it rolls.
    assert without["defender_take"] == "roll"
    values["defender_items"] = "Shield"
    filled, moves = SYSTEM.solo_fill(history.state, "roll", values)
    assert filled["defender_take"] == "zero" and filled["defender_items"] == "Shield"
    assert "+4 already beats +2" in moves[0].reason


def marked_bearer() -> LiveHackSheet:
    return LiveHackSheet(
        reflex=1,
        items=(Rating("Reflex/shield", 2), Rating("Torch", 1)),
        specialties=(Rating("Reflex/dodging", 1), Rating("Reflex/tumbling", 2)),
    )


def test_a_tracker_played_defender_takes_up_what_its_sheet_writes_for_its_defense():
    history = encounter(LiveHackSheet(attack=2), marked_bearer())
    run(history, SetSolo(history.state.combatant("c2").side))
    filled, moves = SYSTEM.solo_fill(history.state, "roll", _dialog(history))
    assert (filled["defender_specialty"], filled["defender_items"]) == (
        "Reflex/tumbling",  # the best one written for Reflex
        "Reflex/shield",
    )
    assert "defends (Reflex, with Reflex/tumbling and Reflex/shield)" in moves[0].reason
    typed, _ = SYSTEM.solo_fill(history.state, "roll", _dialog(history, defender_items="Torch"))
    assert typed["defender_items"] == "Torch"  # what the dialog names stands
    will, _ = SYSTEM.solo_fill(history.state, "roll", _dialog(history, defense="will"))
    assert (will["defender_specialty"], will["defender_items"]) == ("", "")


def test_a_tracker_played_attacker_meets_its_targets_shield():
    """The tracker's attack on anyone's character: the target's Reflex ratings count."""
    history = encounter(LiveHackSheet(attack=2), marked_bearer())
    run(history, EditCombatant(combatant_id="c2", side="party"))
    run(history, SetSolo(history.state.combatant("c1").side))
    move = SYSTEM.solo_move(history.state)
    assert isinstance(move.command, LiveHackRoll)
    assert (move.command.defender_specialty, move.command.defender_items) == (
        "Reflex/tumbling",
        "Reflex/shield",
    )
    text = play(history, LiveHackRoll(**{**_fields(move.command), **ZERO}))
    assert "B: Reflex +1 specialty Reflex/tumbling +2 Reflex/shield +2 take zero" in text


# --- F4-08: a joint action's defender pushes, and has its extra ------------------------------


def trio():
    return encounter(LiveHackSheet(attack=3), LiveHackSheet(), LiveHackSheet(attack=1))


def joint(**options):
    return LiveHackJointRoll(
        kind="cooperation", participant_ids=("c1", "c3"), defender_id="c2", **options
    )


def test_a_joint_actions_defender_pushes_and_pays_once():
    history = trio()
    text = play(
        history, joint(takes=("zero",), defender_take="zero", defender_effort=2, defender_extra=1)
    )
    rolls = history.state.system_state.joint.rolls
    assert [r.defender.total for r in rolls] == [3, 3]  # extra +1, effort +2
    assert "B: Reflex +0 extra +1 effort +2 take zero  total 3" in text
    assert text.count("B gains 2 Fatigue") == 1
    assert spent(history, "c2") == (2, 2)


def test_a_joint_defenders_effort_counts_against_its_five_and_its_con():
    history = encounter(
        LiveHackSheet(), LiveHackSheet(effort_spent=4, con_damage=5), LiveHackSheet()
    )
    with pytest.raises(Rejected, match=r"B has pushed \+4 this combat: at most \+1 more"):
        run(history, joint(takes=("zero",), defender_take="zero", defender_effort=2))
    # Con -5: the defender's Con roll comes first (Con -5 + 1 - 2 fails: not spent).
    text = play(
        history, joint(takes=("zero",), defender_take="zero", defender_effort=1), faces=[1, 2]
    )
    assert "Check (Con -5, to push +1 effort)" in text and "B gains" not in text
    assert spent(history, "c2") == (0, 4)


def test_the_joint_dialog_asks_for_the_defenders_effort_extra_and_ratings():
    history = trio()
    keys = [f.key for f in SYSTEM.action_form(history.state, "joint", "c1")]
    for key in ("defender_effort", "defender_extra", "defender_specialty", "defender_items"):
        assert key in keys
    values = {"who0": "c1", "who1": "c3", "defender": "c2", "take": "zero"}
    values |= {"defender_effort": "2", "defender_extra": "-1"}
    command = SYSTEM.action_command(history.state, "joint", values)
    assert (command.defender_effort, command.defender_extra) == (2, -1)


def test_a_joint_actions_odds_count_the_defenders_effort():
    history = trio()
    values = {"who0": "c1", "who1": "c3", "defender": "c2", "take": "zero"}
    found = SYSTEM.odds(history.state, "joint", {**values, "defender_effort": "2"})
    assert found is not None
    assert bracketed(found, 3 - 2)  # the best participant, +3, against the defender's +2
    assert not bracketed(found, 3)  # its effort left out, as before


def test_a_joint_actions_odds_weigh_the_defenders_con_roll():
    history = encounter(LiveHackSheet(attack=3), LiveHackSheet(con_damage=5), LiveHackSheet())
    values = {"who0": "c1", "who1": "c3", "defender": "c2", "take": "zero"}
    values |= {"defender_effort": "4", "defender_take": "zero"}
    found = SYSTEM.odds(history.state, "joint", values)
    passes = dice_at_least(5)  # Con -5 + dice >= 0
    by_label = {t.label: t.p for t in found.tiers}
    assert (by_label["miss"], by_label["0-4"]) == (passes, 1 - passes)  # 3 vs 4, or vs 0
    assert sum(t.p for t in found.tiers) == Fraction(1)


async def test_the_joint_actions_defender_pushes_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, party(), faces=[])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await menu(pilot, JOINT)
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the joint dialog")
        await tab_to(pilot, "take")
        await pilot.press("right")  # Take Zero
        await tab_to(pilot, "defender_take")
        await pilot.press("right")  # Take Zero
        await tab_to(pilot, "defender_effort")
        await pilot.press("backspace", "2")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.system_state.joint is not None)
        goblin = next(c for c in app.session.state.combatants if c.name == "Goblin")
        assert (goblin.sheet.fatigue, goblin.sheet.effort_spent) == (2, 2)
        text = screen_text(app)
        assert "Goblin: Reflex +1 effort +2 take zero" in text


async def test_a_shield_on_reflex_by_keys(tmp_path: Path) -> None:
    history = fight(
        ("Orla", "party", LiveHackSheet(attack=5)),
        ("Goblin", "foes", LiveHackSheet(reflex=1, items=(Rating("Shield", 2),))),
    )
    app = make_app(tmp_path, history)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the roll dialog")
        await tab_to(pilot, "attacker_take")
        await pilot.press("right")  # Take Zero
        await tab_to(pilot, "defender_take")
        await pilot.press("right")  # Take Zero
        await tab_to(pilot, "defender_items")
        assert "Goblin: Shield +2" in screen_text(app)  # offered from its sheet
        await pilot.press(*"Shield", "enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the roll")
        text = screen_text(app)
        assert "Goblin: Reflex +1 Shield +2 take zero" in text and "5 vs 3" in text


# --- helpers -------------------------------------------------------------------------------


def _fields(command):
    return {name: getattr(command, name) for name in command.__struct_fields__}


def _dialog(history, **changes):
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    return {**values, **changes}


# --- the new fields as the walk types into them ----------------------------------------------


@pytest.mark.parametrize(
    ("action", "key", "typed", "said"),
    [
        ("roll", "defender_specialty", HOSTILE, "no specialty named"),
        ("roll", "defender_bond", "x" * 300, "no bond named"),
        ("roll", "defender_items", "Shield, " + SEQUENCES[0], "no item named"),
        ("joint", "defender_effort", "999999999999999999999", "Defender effort must be between"),
        ("joint", "defender_extra", "-" + "9" * 30, "Defender extra modifier must be between"),
        ("joint", "defender_items", HOSTILE, "no item named"),
    ],
)
async def test_a_bad_value_in_a_new_defender_field_is_one_clear_line(
    tmp_path: Path, action: str, key: str, typed: str, said: str
) -> None:
    """As the walk does (tests/walk): a paste of hostile or long text, or a bad number, in
    each new field at 80x24; the dialog stays, says one line, nothing is rolled, and the
    field stays in view."""
    history = fight(
        ("Orla", "party", LiveHackSheet(attack=5)),
        ("Brak", "party", LiveHackSheet(attack=3)),
        ("Goblin", "foes", LiveHackSheet(reflex=1, items=(Rating("Shield", 2),))),
    )
    app = make_app(tmp_path, history)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        if action == "roll":
            await pilot.press("r")
        else:
            await menu(pilot, JOINT)
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the dialog")
        await tab_to(pilot, key)
        await pilot.press("home", "ctrl+k")
        app.post_message(events.Paste(typed))
        await until(pilot, lambda: app.focused.value, "the paste")
        await pilot.press("enter")
        await until(pilot, lambda: said in screen_text(app), "the refusal")
        assert isinstance(app.screen, FormScreen) and app.focused.id == f"field-{key}"
        assert on_screen(app)
        assert app.session.state.last_roll is None
        assert not unsafe(screen_text(app), allowed="\n")
