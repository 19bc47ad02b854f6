"""LiveHack, read closely (issue 18): aid with any skill, for any roll; effort at Con -5; the
-10 offsets of Wisdom and Strength; Take Ten only with plenty of time; healing a dying one."""

from fractions import Fraction

import pytest

from rules.commands import AddCondition, NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.errors import Rejected
from rules.systems.livehack import odds
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackAid,
    LiveHackApplyConsequence,
    LiveHackHeal,
    LiveHackJointRoll,
    LiveHackSave,
    LiveHackSheet,
    Rating,
)
from tests.helpers import condition_names, encounter, run, who
from tests.systems.livehack.test_livehack_mechanics import hit, play

ZERO = {"attacker_take": "zero", "defender_take": "zero"}


# --- 3. Aiding: "an appropriate resolution roll", on the aided one's next roll -------------------


def test_the_helper_rolls_the_skill_and_attribute_it_chooses():
    helper = LiveHackSheet(attack=9, wisdom=2, skills=(Rating("Heal", 4),))
    history = encounter(LiveHackSheet(), LiveHackSheet(), helper)
    aid = LiveHackAid(helper_id="c3", aided_id="c1", skill="heal", attribute="wis", take="zero")
    text = play(history, aid)
    assert "Heal +4 Wis +2" in text and "attack" not in text
    assert "+2 on the next roll" in text  # MOS 6: +2
    blank = LiveHackAid(helper_id="c3", aided_id="c2", take="zero")
    assert "attack +9" in play(history, blank)  # no skill named: the attack bonus, as before


def test_the_aid_dialog_offers_the_skill_and_attribute():
    history = encounter(LiveHackSheet(), LiveHackSheet(skills=(Rating("Heal", 4),)))
    values = {"helper": "c2", "aided": "c1", "skill": " Heal ", "attribute": "wis"}
    command = SYSTEM.action_command(history.state, "aid", values)
    assert (command.skill, command.attribute) == ("Heal", "wis")
    with pytest.raises(Rejected, match="no skill named 'Sing'"):
        decide(history.state, LiveHackAid(helper_id="c2", aided_id="c1", skill="Sing"), None)


@pytest.mark.parametrize(
    "roll",
    [
        hit("c1", "c2", **ZERO),  # the aided one acts (a defense is not its roll: issue 30)
        LiveHackSave(kind="check", combatant_id="c1", attribute="dex", take="zero"),
        LiveHackJointRoll(
            kind="cooperation", participant_ids=("c1", "c3"), defender_id="c2", defender_take="zero"
        ),
    ],
)
def test_an_aid_helps_the_aided_ones_next_roll_whatever_it_is(roll):
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet(attack=4))
    play(history, LiveHackAid(helper_id="c3", aided_id="c1", take="zero"))  # MOS 4: +1
    faces = [1, 1, 1, 1] if isinstance(roll, LiveHackJointRoll) else []
    text = play(history, roll, faces)
    assert "aid from C +1" in text
    assert history.state.system_state.aids == ()  # spent by that roll


def test_a_grim_test_takes_the_aid_too():
    from rules.systems.livehack.system import LiveHackGrimTest

    history = encounter(LiveHackSheet(), LiveHackSheet(attack=4))
    play(history, LiveHackAid(helper_id="c2", aided_id="c1", take="zero"))
    text = play(history, LiveHackGrimTest(combatant_id="c1", experience="helpless", take="zero"))
    assert "aid from B +1" in text


# --- 4. Con -5: "must make a Con roll vs DR 0 to expend Fatigue" -------------------------------


def weak():
    """A (Con -5 from damage) against B."""
    return encounter(LiveHackSheet(attack=2, con_damage=5), LiveHackSheet())


def test_effort_at_con_minus_five_is_spent_on_a_passed_con_roll():
    history = weak()
    # The Con roll's dice come first (boon 9, bane 2: -5 + 7 = 2, passes), then the roll's.
    text = play(history, hit(effort=2, **ZERO), [9, 2])
    assert "Check (Con -5, to push +2 effort): A 2 vs 0 (MOS +2) A passes" in text
    assert "boon [9] - bane [2]" in text  # the die is in the log
    roll = history.state.last_roll
    assert roll.effort == 2 and roll.attacker.total == 2 + 2
    assert who(history, "c1").sheet.fatigue == 2


def test_effort_at_con_minus_five_is_not_spent_on_a_failed_con_roll():
    history = weak()
    text = play(history, hit(effort=2, **ZERO), [3, 2])  # -5 + 1: fails
    assert "A fails: the effort is not spent" in text
    roll = history.state.last_roll
    assert roll.effort == 0 and [p.label for p in roll.attacker.parts] == ["attack"]
    sheet = who(history, "c1").sheet
    assert (sheet.fatigue, sheet.effort_spent) == (0, 0)


def test_a_defender_at_con_minus_five_rolls_for_its_effort_too():
    history = encounter(LiveHackSheet(), LiveHackSheet(con_damage=5))
    text = play(history, hit(defender_effort=1, **ZERO), [1, 1])
    assert "Check (Con -5, to push +1 effort): B" in text and "B fails" in text
    assert history.state.last_roll.defender_effort == 0


def test_no_effort_no_con_roll_and_a_preview_says_it_comes_first():
    history = weak()
    play(history, hit(**ZERO))  # no dice asked for: nothing to check
    values = {"attacker": "c1", "defender": "c2", "effort": "2"}
    preview = SYSTEM.preview(history.state, "roll", values)
    assert "Con -5: A rolls Con vs DR 0 first, or the effort is not spent" in preview


def test_the_odds_weigh_the_con_roll_exactly():
    history = weak()
    values = {"attacker": "c1", "defender": "c2", "effort": "3", "attacker_take": "zero"}
    values["defender_take"] = "zero"
    found = SYSTEM.odds(history.state, "roll", values)
    assert found is not None
    passes = odds.dice_at_least(5)  # Con -5 + dice >= 0
    # Margin 2 + 3 = 5 (+1 tier) when it passes, 2 (0-4) when it fails.
    assert [t.p for t in found.tiers] == [0, 1 - passes, passes, 0, 0]
    assert sum(t.p for t in found.tiers) == Fraction(1)
    assert "A's Con roll for +3 effort" in str(found.extra["note"])


# --- 5. Wisdom and Strength at -10 ---------------------------------------------------------------


def test_wisdom_at_minus_ten_still_acts_on_anyones_word():
    history = encounter(LiveHackSheet(), LiveHackSheet(wis_damage=10))
    person = who(history, "c2")
    assert SYSTEM.cannot_act(history.state, person) == ""
    assert SYSTEM.out_of_fight(history.state, person) == ""
    [turn] = decide(history.state, NextTurn(), ScriptedDice([]))
    alerts = SYSTEM.alerts(history.state, turn)
    assert "B: Wis -10, makes no decisions, does whatever anyone says." in alerts
    assert not any("cannot act" in a for a in alerts)


@pytest.mark.parametrize("trait", ["str", "dex"])
def test_strength_or_dexterity_damaged_to_minus_ten_falls_prone(trait):
    history = encounter(LiveHackSheet(attack=10), LiveHackSheet(**{f"{trait}_damage": 7}))
    play(history, hit(defense="fortitude", trait=trait, attacker_take="zero", defender_take="zero"))
    play(history, LiveHackApplyConsequence())  # 3 levels: -10, and Incapacitated
    assert condition_names(history, "c2") == ["Incapacitated", "Prone"]
    again = encounter(LiveHackSheet(attack=1), LiveHackSheet(**{f"{trait}_damage": 9}))
    play(again, hit(defense="fortitude", trait=trait, **ZERO))
    play(again, LiveHackApplyConsequence())  # 1 level: -10, no table condition
    assert condition_names(again, "c2") == ["Prone"]
    assert SYSTEM.cannot_act(again.state, who(again, "c2")) == f"{trait.capitalize()} -10"


def test_other_attributes_at_minus_ten_knock_nobody_down():
    history = encounter(LiveHackSheet(attack=1), LiveHackSheet(int_damage=9))
    play(history, hit(defense="fortitude", trait="int", **ZERO))
    play(history, LiveHackApplyConsequence())
    assert condition_names(history, "c2") == []


# --- 7. Take Ten: "If the Adventurers take plenty of time" ---------------------------------------


def monster():
    """An adventurer (c1) and a monster from a stat block (c2)."""
    return encounter(LiveHackSheet(attack=3), LiveHackSheet(reflex=12, stat_block=True))


def test_a_monsters_defense_takes_no_ten_unless_the_gm_allows_it():
    history = monster()
    with pytest.raises(Rejected, match="Take Ten needs plenty of time: B, a monster"):
        decide(history.state, hit(attacker_take="zero", defender_take="ten"), ScriptedDice([]))
    play(history, hit(attacker_take="zero", defender_take="ten", gm_allows_ten=True))
    assert history.state.last_roll.defender.total == 2 + 10
    # F4-05: an adventurer's defense too: plenty of time is the GM's to judge, for anyone.
    with pytest.raises(Rejected, match="Take Ten needs plenty of time: A defends by rolling"):
        decide(
            history.state,
            hit("c2", "c1", attacker_take="zero", defender_take="ten"),
            ScriptedDice([]),
        )


def test_the_dialogs_offer_take_ten_by_the_gms_leave():
    history = monster()
    values = {"attacker": "c1", "defender": "c2", "defender_take": "ten-gm"}
    command = SYSTEM.roll_command(history.state, values)
    assert (command.defender_take, command.gm_allows_ten) == ("ten", True)
    plain = SYSTEM.roll_command(history.state, {**values, "defender_take": "ten"})
    assert (plain.defender_take, plain.gm_allows_ten) == ("ten", False)
    assert "a monster" in SYSTEM.preview(history.state, "roll", {**values, "defender_take": "ten"})
    joint = LiveHackJointRoll(
        kind="chaos", participant_ids=("c1", "c3"), defender_id="c2", defender_take="ten"
    )
    three = encounter(LiveHackSheet(), LiveHackSheet(stat_block=True), LiveHackSheet())
    with pytest.raises(Rejected, match="a monster"):
        decide(three.state, joint, ScriptedDice([]))


def test_a_dying_save_takes_no_ten_unless_the_gm_allows_it():
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=4))
    run(history, AddCondition("c2", "Dying"))
    save = LiveHackSave(kind="dying", combatant_id="c2", take="ten")
    with pytest.raises(Rejected, match="Take Ten needs plenty of time: B saves by rolling"):
        decide(history.state, save, ScriptedDice([]))
    fields = {f.key: f for f in SYSTEM.action_form(history.state, "dying", "c2")}
    assert "ten-gm" in dict(fields["take"].choices)
    command = SYSTEM.action_command(history.state, "dying", {"who": "c2", "take": "ten-gm"})
    assert "holds on" in play(history, command)  # 10 vs Wounds 4: MOS 6
    checks = {f.key: f for f in SYSTEM.action_form(history.state, "check", "c2")}
    assert "ten-gm" in dict(checks["take"].choices)  # F4-05: a check as well


# --- 6. Stabilizing by healing ---------------------------------------------------------------


def test_any_healing_below_the_con_threshold_stabilizes_one_fresh_from_the_table():
    """Dying from the table comes with at least 4 Wounds; under Con + 10 one level of
    healing is enough (livehack/rulings.md, "Stabilizing by healing")."""
    history = encounter(LiveHackSheet(attack=15), LiveHackSheet())
    play(history, hit(defense="fortitude", **ZERO))
    play(history, LiveHackApplyConsequence())
    assert who(history, "c2").sheet.wounds == 4 and who(history, "c2").condition("Dying")
    play(history, LiveHackHeal(combatant_id="c2", levels=1))
    assert condition_names(history, "c2") == ["Prone", "Stabilized"]


def test_healing_that_leaves_wounds_at_the_threshold_does_not_stabilize():
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=14, con=2))
    run(history, AddCondition("c2", "Dying"))
    play(history, LiveHackHeal(combatant_id="c2", levels=2))  # 12 = Con + 10: not fewer
    assert who(history, "c2").condition("Dying")
    play(history, LiveHackHeal(combatant_id="c2", levels=1))  # 11
    assert not who(history, "c2").condition("Dying")


def test_down_dying_stabilized_then_healed_acts_again():
    """The whole path: struck down, dying saves, stabilized (still down), healed: up again
    (livehack/rulings.md, "Healing the stabilized")."""
    history = encounter(LiveHackSheet(attack=15), LiveHackSheet())
    play(history, hit(defense="fortitude", **ZERO))
    play(history, LiveHackApplyConsequence())
    goblin = who(history, "c2")
    assert goblin.sheet.wounds == 4 and SYSTEM.cannot_act(history.state, goblin) == "Dying"
    dying_save = LiveHackSave(kind="dying", combatant_id="c2")
    assert "holds on" in play(history, dying_save, [9, 3])  # +6 vs Wounds 4: MOS 2
    text = play(history, LiveHackSave(kind="dying", combatant_id="c2", extra=4), [11, 1])
    assert "stabilizes" in text  # +14 vs 4: MOS 10
    assert condition_names(history, "c2") == ["Prone", "Stabilized", "Incapacitated"]
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == "Incapacitated"
    text = play(history, LiveHackHeal(combatant_id="c2", levels=1))
    assert "Incapacitated" in text  # the log says it ended
    assert condition_names(history, "c2") == ["Prone", "Stabilized"]
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == ""
    assert SYSTEM.out_of_fight(history.state, who(history, "c2")) == ""


def test_healing_the_stabilized_still_needs_them_under_the_con_threshold():
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=12, con=1))
    run(history, AddCondition("c2", "Incapacitated"))
    run(history, AddCondition("c2", "Stabilized"))
    play(history, LiveHackHeal(combatant_id="c2", levels=1))  # 11 = Con + 10: not fewer
    assert who(history, "c2").condition("Incapacitated")
    play(history, LiveHackHeal(combatant_id="c2", levels=1))  # 10
    assert condition_names(history, "c2") == ["Stabilized"]


def test_healing_ends_no_incapacitation_but_a_stabilized_or_dying_ones():
    """A plain Incapacitated (table MOS 10-14) lasts "until the condition that caused [it] goes
    away": the GM's call, not a level of healing's."""
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=3))
    run(history, AddCondition("c2", "Incapacitated"))
    play(history, LiveHackHeal(combatant_id="c2", levels=1))
    assert condition_names(history, "c2") == ["Incapacitated"]
