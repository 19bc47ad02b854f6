"""LiveHack, read a third time (issue 30): readings a player would dispute, each with its id."""

from fractions import Fraction

import pytest

from rules.errors import Rejected
from rules.systems.livehack import decide as decide_
from rules.systems.livehack.odds import dice_at_least, joint_odds
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackAid,
    LiveHackApplyConsequence,
    LiveHackGrimTest,
    LiveHackJointRoll,
    LiveHackRoll,
    LiveHackSheet,
    Rating,
)
from tests.helpers import encounter, run
from tests.systems.livehack.test_livehack_mechanics import hit, play

ZERO = {"attacker_take": "zero", "defender_take": "zero"}


def fighter() -> LiveHackSheet:
    return LiveHackSheet(
        attack=5,
        strength=2,
        skills=(Rating("Melee", 4), Rating("Spot", 1)),
        items=(Rating("Sword", 3),),
        specialties=(Rating("Melee/longsword", 1),),
    )


# --- R3-01: the damage roll carries the ratings the hit was made with -------------------------


def sword_hit():
    history = encounter(fighter(), LiveHackSheet())
    swing = hit(skill="Melee", attribute="str", items="Sword", **ZERO)
    play(history, swing)  # 4 + 2 + 3 = 9 against 0: a hit, +1 rolled over
    return history


def test_the_damage_roll_after_a_hit_carries_its_skill_attribute_and_items():
    history = sword_hit()
    waiting = decide_.hit_waiting(history.state)
    assert waiting is not None
    damage = decide_.damage_roll(waiting)
    assert (damage.skill, damage.attribute, damage.items) == ("Melee", "str", "Sword")
    assert damage.defense == "fortitude" and damage.effort == 0  # effort is declared anew
    text = play(history, LiveHackRoll(**{**_fields(damage), **ZERO}))
    assert "Melee +4 Str +2 Sword +3 rolled over +1" in text


def test_the_roll_dialog_after_a_hit_is_filled_with_its_ratings():
    history = sword_hit()
    form = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    assert (form["skill"], form["attribute"], form["items"]) == ("Melee", "str", "Sword")
    assert form["defense"] == "fortitude"
    fresh = encounter(fighter(), LiveHackSheet())
    form = {f.key: f.default for f in SYSTEM.action_form(fresh.state, "roll", None)}
    assert (form["skill"], form["attribute"], form["items"]) == ("", "", "")


def _fields(command: LiveHackRoll) -> dict[str, object]:
    return {name: getattr(command, name) for name in command.__struct_fields__}


# --- R3-02: a grim test that ties is resisted ("meet or exceed" is the character's) ----------


def test_a_grim_test_that_ties_is_resisted():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    text = play(history, LiveHackGrimTest(combatant_id="c1", experience="helpless", take="zero"))
    assert "RESISTED meets the DR" in text  # DR 0 against Will 0 + Grimness 0
    assert not history.state.last_roll.success
    with pytest.raises(Rejected, match="resisted"):
        run(history, LiveHackApplyConsequence())
    assert history.state.combatant("c1").sheet.grimness == 0


def test_a_grim_test_one_short_gains_one_grimness():
    history = encounter(LiveHackSheet(wisdom=-1), LiveHackSheet())
    play(history, LiveHackGrimTest(combatant_id="c1", experience="helpless", take="zero"))
    assert history.state.last_roll.margin == 1
    run(history, LiveHackApplyConsequence())
    assert history.state.combatant("c1").sheet.grimness == 1


def test_the_grim_tests_bands_put_the_tie_with_the_resisted():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    play(history, LiveHackGrimTest(combatant_id="c1", experience="helpless", take="zero"))
    tiers = SYSTEM.tiers(history.state)
    assert [(t.label, t.low, t.high) for t in tiers[:2]] == [("resisted", None, 0), ("1-4", 1, 4)]
    assert SYSTEM.landing(history.state).tier == 0


# --- R3-03: an aid goes to the aided one's own action, not to a defense -----------------------


@pytest.mark.parametrize("bonus_dr", [(1, 0), (-1, 9)])  # MOS 4: +1; MOS -5: -1
def test_an_aid_waits_through_a_defense_for_the_aided_ones_action(bonus_dr):
    bonus, dr = bonus_dr
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet(attack=4))
    play(history, LiveHackAid(helper_id="c3", aided_id="c1", dr=dr, take="zero"))
    defended = play(history, hit("c2", "c1", **ZERO))  # B attacks A: A's defense
    assert "aid from C" not in defended
    assert [a.bonus for a in history.state.system_state.aids] == [bonus]  # still waiting
    acted = play(history, hit("c1", "c2", **ZERO))  # A's own action takes it
    assert f"aid from C {bonus:+d}" in acted
    assert history.state.system_state.aids == ()


# --- R3-06: a monster's attack takes no ten either, unless the GM allows it -------------------


def test_a_monsters_attack_takes_no_ten_unless_the_gm_allows_it():
    history = encounter(LiveHackSheet(attack=3, stat_block=True), LiveHackSheet())
    with pytest.raises(Rejected, match="a monster, attacks by rolling or taking zero"):
        run(history, hit(attacker_take="ten", defender_take="zero"))
    allowed = hit(attacker_take="ten", defender_take="zero", attacker_gm_allows_ten=True)
    assert history.state.last_roll is None
    run(history, allowed)
    assert history.state.last_roll.attacker.total == 13
    adventurer = encounter(LiveHackSheet(attack=3), LiveHackSheet())
    # F4-05: an adventurer's attack too, unless the GM allows it.
    with pytest.raises(Rejected, match="Take Ten needs plenty of time: A attacks by rolling"):
        run(adventurer, hit(attacker_take="ten", defender_take="zero"))
    run(adventurer, hit(attacker_take="ten", defender_take="zero", attacker_gm_allows_ten=True))


def test_the_roll_dialog_offers_the_gms_leave_for_the_attackers_ten():
    history = encounter(LiveHackSheet(stat_block=True), LiveHackSheet())
    form = {f.key: f for f in SYSTEM.action_form(history.state, "roll", None)}
    assert ("ten-gm", "Take Ten (GM allows)") in form["attacker_take"].choices
    values = {"attacker": "c1", "defender": "c2", "attacker_take": "ten-gm"}
    command = SYSTEM.action_command(history.state, "roll", values)
    assert (command.attacker_take, command.attacker_gm_allows_ten) == ("ten", True)
    assert not command.gm_allows_ten  # the defender's leave is its own


# --- R3-07: one applicable specialty *of the skill* -------------------------------------------


def test_a_specialty_of_another_skill_is_refused():
    history = encounter(fighter(), LiveHackSheet())
    with pytest.raises(Rejected, match="Melee/longsword is a specialty of Melee, not of the Spot"):
        run(history, hit(skill="Spot", specialty="Melee/longsword", **ZERO))
    with pytest.raises(Rejected, match="not of the attack bonus"):
        run(history, hit(specialty="melee/longsword", **ZERO))
    text = play(history, hit(skill="melee", specialty="Melee/longsword", **ZERO))
    assert "specialty Melee/longsword +1" in text


def test_a_specialty_written_without_its_skill_goes_with_any():
    history = encounter(LiveHackSheet(specialties=(Rating("traps", 2),)), LiveHackSheet())
    assert "specialty traps +2" in play(history, hit(specialty="traps", **ZERO))


# --- R3-08: joint-action participants may take zero or ten -----------------------------------


def test_joint_participants_take_zero_or_ten_and_the_odds_follow():
    history = encounter(LiveHackSheet(attack=2), LiveHackSheet(), LiveHackSheet(attack=1))
    joint = LiveHackJointRoll(
        kind="cooperation",
        participant_ids=("c1", "c3"),
        defender_id="c2",
        defender_take="zero",
        takes=("ten", "zero"),
        participants_gm_allow_ten=True,
    )
    play(history, joint)  # no dice at all
    rolls = history.state.system_state.joint.rolls
    assert [r.attacker.total for r in rolls] == [12, 1]
    odds = SYSTEM.last_odds(history.state)
    assert odds.tiers[odds.tier_of(12)].p == 1  # certain: Take Ten's 12 is the best margin


def test_a_joint_odds_with_one_taking_ten_match_counting_the_other():
    # A takes ten (12 + 0), C rolls (+1) against a defender taking zero: the best margin.
    found = joint_odds("cooperation", (2, 1), 0, "zero", ("ten", "roll"))

    def at_least(value: int | None) -> Fraction:  # P(max(12, 1 + A) >= value), A the dice
        if value is None or value <= 12:
            return Fraction(1)
        return dice_at_least(value - 1)

    for tier in found.tiers:
        above = Fraction(0) if tier.high is None else at_least(tier.high + 1)
        assert tier.p == at_least(tier.low) - above, tier


def test_the_joint_dialog_offers_the_participants_dice():
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet(stat_block=True))
    values = {"who0": "c1", "who1": "c3", "defender": "c2", "take": "ten", "defender_take": "zero"}
    command = SYSTEM.action_command(history.state, "joint", values)
    assert command.takes == ("ten",)
    with pytest.raises(Rejected, match="A works with the others by rolling"):
        run(history, command)
    run(history, SYSTEM.action_command(history.state, "joint", {**values, "take": "ten-gm"}))


def test_each_participants_dice_or_one_for_all():
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet())
    joint = LiveHackJointRoll(
        kind="chaos", participant_ids=("c1", "c3"), defender_id="c2", takes=("zero",) * 3
    )
    with pytest.raises(Rejected, match="each of the 2 participants, or one for all"):
        run(history, joint)
