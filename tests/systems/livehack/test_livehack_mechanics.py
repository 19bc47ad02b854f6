"""LiveHack, every mechanic of the rule text (001) beyond the basic opposed roll."""

import pytest
from msgspec import structs

from rules.commands import AddCondition, NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide, describe
from rules.errors import Rejected
from rules.events import TurnAdvanced
from rules.systems.livehack.events import aid_bonus, margin_bonus
from rules.systems.livehack.sheet import offset_effects, parse_ratings
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackAid,
    LiveHackApplyConsequence,
    LiveHackCancel,
    LiveHackDrop,
    LiveHackGrimTest,
    LiveHackHeal,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackSave,
    LiveHackSheet,
    Rating,
)
from tests.helpers import advance, condition_names, encounter, run, who


def text_of(history, events):
    before = history.state
    return "\n".join(describe(before, e).plain for e in events)


def play(history, command, faces=()):
    """Run a command with scripted faces, checking every face was used; return the log text."""
    dice = ScriptedDice(faces)
    before = history.state
    events = decide(before, command, dice)
    history.commit(events, type(command).__name__)
    assert dice.remaining == 0
    lines = []
    state = before
    from rules.engine import apply

    for event in events:
        lines.append(describe(state, event).plain)
        state = apply(state, event)
    return "\n".join(lines)


def hit(attacker="c1", defender="c2", **options):
    return LiveHackRoll(attacker_id=attacker, defender_id=defender, **options)


# --- the sheet -----------------------------------------------------------------------------


def test_ratings_typed_as_text_are_parsed_and_refused_clearly():
    assert parse_ratings("Spot 3, Move Silently -1", "Skills") == (
        Rating("Spot", 3),
        Rating("Move Silently", -1),
    )
    with pytest.raises(Rejected, match="Skills: write each as a name then a number"):
        parse_ratings("Spot", "Skills")


def test_the_sheet_form_round_trips_lists_and_the_stat_block():
    values = {f.key: f.default for f in SYSTEM.sheet_form(LiveHackSheet())}
    values.update(skills="Melee 4", bonds="Orla 2", items="Sword 2", stat_block="yes", reflex="15")
    sheet = SYSTEM.sheet_from_form(values, LiveHackSheet())
    assert sheet.skills == (Rating("Melee", 4),)
    assert sheet.stat_block and sheet.reflex == 15 and sheet.defense("reflex") == 5


def test_a_printed_ac_has_ten_taken_off_and_stays_visible():
    history = encounter(LiveHackSheet(), LiveHackSheet(reflex=16, stat_block=True))
    text = play(history, hit(attacker_take="zero", defender_take="zero"))
    assert "Reflex (printed 16 - 10) +6" in text
    assert history.state.last_roll.defender.total == 6


def test_attribute_damage_at_minus_five_and_minus_ten():
    sheet = LiveHackSheet(dexterity=1, dex_damage=6, strength=0, str_damage=10)
    effects = {(e.attribute, e.level) for e in offset_effects(sheet)}
    assert effects == {("dex", -5), ("str", -10)}


# --- the roll builder ---------------------------------------------------------------------


def test_every_roll_component_is_a_part_of_the_log_line():
    sheet = LiveHackSheet(
        dexterity=2,
        skills=(Rating("Melee", 4),),
        specialties=(Rating("Melee/axes", 1),),
        bonds=(Rating("B", 2),),
        items=(Rating("Axe", 3), Rating("Rope", 1)),
    )
    history = encounter(sheet, LiveHackSheet())
    command = hit(
        skill="melee", attribute="dex", specialty="Melee/axes", bond="B", items="Axe", effort=1
    )
    text = play(history, command, [5, 1, 1, 1])
    for part in (
        "Melee +4",
        "Dex +2",
        "specialty Melee/axes +1",
        "bond B +2",
        "Axe +3",
        "effort +1",
    ):
        assert part in text
    assert history.state.last_roll.attacker.total == 4 + 2 + 1 + 2 + 3 + 1 + 4


def test_an_unknown_skill_is_refused_naming_the_known_ones():
    history = encounter(LiveHackSheet(skills=(Rating("Spot", 1),)), LiveHackSheet())
    with pytest.raises(Rejected, match=r"no skill named 'Swim' \(known: Spot\)"):
        decide(history.state, hit(skill="Swim"), ScriptedDice([]))


def test_hide_is_defended_by_spot():
    history = encounter(
        LiveHackSheet(skills=(Rating("Hide", 3),)), LiveHackSheet(skills=(Rating("Spot", 2),))
    )
    text = play(
        history, hit(skill="Hide", defense="skill", attacker_take="zero", defender_take="zero")
    )
    assert "(vs Spot)" in text and "Spot +2" in text


def test_take_ten_for_either_side():
    history = encounter(LiveHackSheet(attack=1), LiveHackSheet())
    allowed = {"attacker_gm_allows_ten": True, "gm_allows_ten": True}  # F4-05: the GM's leave
    play(history, hit(attacker_take="ten", defender_take="ten", **allowed))
    assert history.state.last_roll.margin == 1


# --- effort --------------------------------------------------------------------------------


def test_effort_adds_fatigue_and_is_capped_per_roll_and_per_combat():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    with pytest.raises(Rejected, match=r"at most \+5 on one roll"):
        decide(history.state, hit(effort=6), ScriptedDice([]))
    play(history, hit(effort=3, attacker_take="zero", defender_take="zero"))
    assert who(history, "c1").sheet.fatigue == 3
    assert who(history, "c1").sheet.effort_spent == 3
    with pytest.raises(Rejected, match=r"pushed \+3 this combat: at most \+2 more"):
        decide(history.state, hit(effort=3), ScriptedDice([]))
    play(history, hit(effort=2, attacker_take="zero", defender_take="zero"))
    assert who(history, "c1").sheet.fatigue == 5


def test_the_defender_may_push_too():
    history = encounter(LiveHackSheet(attack=4), LiveHackSheet(reflex=1))
    with pytest.raises(Rejected, match=r"at most \+5 on one roll"):
        decide(history.state, hit(defender_effort=6), ScriptedDice([]))
    text = play(history, hit(defender_effort=3, attacker_take="zero", defender_take="zero"))
    roll = history.state.last_roll
    assert roll.defender.total == 1 + 3 and roll.margin == 0  # a tie still goes to the attacker
    assert who(history, "c2").sheet.fatigue == 3 and who(history, "c2").sheet.effort_spent == 3
    assert who(history, "c1").sheet.fatigue == 0
    assert "effort +3: B gains 3 Fatigue" in text
    with pytest.raises(Rejected, match=r"pushed \+3 this combat: at most \+2 more"):
        decide(history.state, hit(defender_effort=3), ScriptedDice([]))


def test_con_at_minus_ten_expends_no_fatigue():
    history = encounter(LiveHackSheet(con_damage=10), LiveHackSheet())
    with pytest.raises(Rejected, match="Con is at -10"):
        decide(history.state, hit(effort=1), ScriptedDice([]))


# --- margins and positions -----------------------------------------------------------------


@pytest.mark.parametrize(("margin", "bonus"), [(-1, 0), (0, 0), (4, 0), (5, 1), (9, 1), (10, 2)])
def test_margin_bonus_is_one_per_full_five(margin, bonus):
    assert margin_bonus(margin) == bonus


def test_a_margin_bonus_rolls_over_to_the_damage_roll():
    history = encounter(LiveHackSheet(attack=10), LiveHackSheet())
    play(history, hit(attacker_take="zero", defender_take="zero"))  # margin 10: +2
    text = play(history, hit(defense="fortitude", attacker_take="zero", defender_take="zero"))
    assert "rolled over +2" in text
    assert history.state.last_roll.margin == 12


def test_a_held_position_accumulates_and_is_cashed_in():
    history = encounter(LiveHackSheet(attack=9), LiveHackSheet())
    zero = {"attacker_take": "zero", "defender_take": "zero"}
    play(history, hit(**zero))  # margin 9: +1
    with pytest.raises(Rejected, match="Describe the position held"):
        decide(history.state, LiveHackHold(description="  "), ScriptedDice([]))
    with pytest.raises(Rejected, match="at most 40 characters"):
        decide(history.state, LiveHackHold(description="x" * 41), ScriptedDice([]))
    play(history, LiveHackHold(description="on the stairs"))
    assert SYSTEM.sheet_stats(who(history, "c1").sheet)[-1] == "+1 on the stairs"
    # The next attack gets the +1 by itself (R3-05): margin 10, a +2 won; holding it adds it
    # to the +1 held (F4-01): +3.
    assert "positional +1" in play(history, hit(**zero))
    text = play(history, LiveHackHold(description="  above,  on the  landing "))
    assert "holds +2 more, +3 positional bonus over B: above, on the landing (no damage" in text
    assert who(history, "c1").sheet.held_over("c2") == 3
    assert SYSTEM.sheet_stats(who(history, "c1").sheet)[-1] == "+3 above, on the landing"
    with pytest.raises(Rejected, match="already been applied"):
        decide(history.state, LiveHackApplyConsequence(), ScriptedDice([]))
    text = play(history, hit(**zero))  # cashing in: this time the hit goes to its damage roll
    assert "positional +3" in text
    assert who(history, "c1").sheet.held_over("c2") == 3  # held until the damage roll
    text = play(history, hit(defense="fortitude", **zero))
    assert "positional" not in text.splitlines()[1]  # in the hit already: not twice
    assert "rolled over +2" in text and "position +3 cashed in" in text
    assert who(history, "c1").sheet.held == ()


def test_an_opponent_cancels_a_held_position_with_its_margin_bonus():
    history = encounter(LiveHackSheet(attack=5), LiveHackSheet(attack=5))
    zero = {"attacker_take": "zero", "defender_take": "zero"}
    play(history, hit(**zero))
    play(history, LiveHackHold(description="flanking"))
    play(history, hit("c2", "c1", **zero))
    text = play(history, LiveHackCancel())
    assert "cancelled by B (no damage)" in text
    assert who(history, "c1").sheet.held == ()
    assert history.state.last_roll_applied


def test_cancelling_needs_a_held_position():
    history = encounter(LiveHackSheet(attack=5), LiveHackSheet())
    play(history, hit(attacker_take="zero", defender_take="zero"))
    with pytest.raises(Rejected, match="holds no positional bonus"):
        decide(history.state, LiveHackCancel(), ScriptedDice([]))


def test_a_position_is_dropped_when_circumstances_change():
    history = encounter(LiveHackSheet(attack=5), LiveHackSheet())
    play(history, hit(attacker_take="zero", defender_take="zero"))
    play(history, LiveHackHold(description="flanking"))
    text = play(history, LiveHackDrop(holder_id="c1", target_id="c2"))
    assert "A's +1 position over B (flanking) is lost: circumstances changed" in text
    assert who(history, "c1").sheet.held == ()


def test_a_discombobulated_holder_loses_its_positions():
    history = encounter(LiveHackSheet(attack=5), LiveHackSheet(attack=5))
    zero = {"attacker_take": "zero", "defender_take": "zero"}
    play(history, hit(**zero))
    play(history, LiveHackHold(description="flanking"))
    play(history, hit("c2", "c1", defense="fortitude", **zero))  # margin 5: Discombobulated
    text = play(history, LiveHackApplyConsequence())
    assert "lost: Discombobulated" in text
    assert who(history, "c1").sheet.held == ()


# --- joint actions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("margin", "bonus"),
    [(15, 3), (11, 3), (10, 2), (6, 2), (5, 1), (1, 1), (0, 0), (-4, 0), (-5, -1), (-10, -2)],
)
def test_aid_bonus_per_five_or_part_thereof(margin, bonus):
    assert aid_bonus(margin) == bonus


def test_aid_goes_to_the_aided_ones_next_roll_with_the_bond():
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet(bonds=(Rating("A", 1),)))
    text = play(history, LiveHackAid(helper_id="c3", aided_id="c1", dr=0), [6, 1])
    assert "bond A +1" in text and "+2 on the next roll" in text
    text = play(history, hit(attacker_take="zero", defender_take="zero"))
    assert "aid from C +2" in text
    assert history.state.system_state.aids == ()


def test_cooperation_uses_the_best_margin_and_adds_bonds():
    sheets = (LiveHackSheet(bonds=(Rating("C", 2),)), LiveHackSheet(), LiveHackSheet())
    history = encounter(*sheets)
    cmd = LiveHackJointRoll(kind="cooperation", participant_ids=("c1", "c3"), defender_id="c2")
    text = play(history, cmd, [3, 1, 9, 1, 1, 1])  # A +2 +2 bond = 4; C +8; B 0
    assert "bond C +2" in text
    assert "best margin counts (C, +8)" in text
    assert history.state.last_roll.margin == 8


def test_everyone_in_a_joint_action_rolls_the_named_skill_and_attribute():
    sheets = (
        LiveHackSheet(skills=(Rating("Athletics", 3),), strength=2),
        LiveHackSheet(),
        LiveHackSheet(strength=1),  # C has no Athletics: rolls it at 0, and says so
    )
    history = encounter(*sheets)
    cmd = LiveHackJointRoll(
        kind="cooperation",
        participant_ids=("c1", "c3"),
        defender_id="c2",
        skill="athletics",
        attribute="str",
    )
    text = play(history, cmd, [5, 5, 5, 5, 5, 5])  # every die cancels: totals are the parts
    assert "Athletics +3" in text and "athletics (untrained) +0" in text  # as typed
    rolls = history.state.last_roll
    assert rolls.margin == 3 + 2  # A: Athletics 3 + Str 2 beats C's 0 + 1


def test_chaos_uses_the_lowest_and_says_so_after_the_roll():
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet())
    cmd = LiveHackJointRoll(kind="chaos", participant_ids=("c1", "c3"), defender_id="c2")
    events = decide(history.state, cmd, ScriptedDice([3, 1, 9, 1, 1, 1]))
    assert "lowest roll counts" in " ".join(SYSTEM.alerts(history.state, events[0]))
    history.commit(events, "chaos")
    assert history.state.last_roll.margin == 2


# --- damage and conditions -----------------------------------------------------------------


def test_incapacitation_and_dying_knock_the_target_down():
    history = encounter(LiveHackSheet(attack=10), LiveHackSheet())
    play(history, hit(defense="fortitude", attacker_take="zero", defender_take="zero"))
    play(history, LiveHackApplyConsequence())
    assert condition_names(history, "c2") == ["Incapacitated", "Prone"]


def test_a_dazed_defender_saves_at_zero_and_has_dex_minus_ten():
    history = encounter(LiveHackSheet(), LiveHackSheet(reflex=5, will=3))
    run(history, AddCondition("c2", "Discombobulated"))
    play(history, hit(attacker_take="zero", defender_take="zero"))
    assert history.state.last_roll.defender.total == -10
    play(history, hit(defense="will", attacker_take="zero", defender_take="zero"))
    assert history.state.last_roll.defender.total == 0


def dying(wounds=6, con=0):
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=wounds, con=con))
    run(history, AddCondition("c2", "Dying"))
    return history


def save(kind="dying", **options):
    return LiveHackSave(kind=kind, combatant_id="c2", **options)


def test_the_end_of_a_round_asks_for_the_dying_save():
    history = dying()
    advance(history)
    [turn] = [
        e
        for e in decide(history.state, NextTurn(), ScriptedDice([]))
        if isinstance(e, TurnAdvanced)
    ]
    alerts = SYSTEM.alerts(history.state, turn)
    assert any("End of round 1: B is dying: Fortitude save vs Wounds 6" in a for a in alerts)


def test_first_failure_is_coma_then_death():
    history = dying(wounds=6)
    text = play(history, save(take="zero"))  # 0 vs 6
    assert "falls into a coma" in text
    assert condition_names(history, "c2") == ["Dying", "Comatose"]
    text = play(history, save(take="zero"))
    assert "B dies" in text
    assert condition_names(history, "c2") == ["Dead"]


def test_a_save_by_ten_stabilizes():
    history = dying(wounds=0)
    text = play(history, save(take="ten", gm_allows_ten=True))
    assert "stabilizes" in text
    assert condition_names(history, "c2") == ["Stabilized", "Incapacitated"]


def test_a_save_short_of_ten_holds_on():
    history = dying(wounds=5)
    text = play(history, save(take="ten", gm_allows_ten=True))
    assert "holds on" in text and condition_names(history, "c2") == ["Dying"]


def test_healing_below_the_con_threshold_stabilizes():
    history = dying(wounds=12, con=1)
    text = play(history, LiveHackHeal(combatant_id="c2", levels=1))  # 11: not below 11
    assert condition_names(history, "c2") == ["Dying"]
    text = play(history, LiveHackHeal(combatant_id="c2", levels=1))
    assert "Stabilized" in text and condition_names(history, "c2") == ["Stabilized"]


def test_a_dying_save_needs_someone_dying():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    with pytest.raises(Rejected, match="not dying"):
        decide(history.state, save(), ScriptedDice([]))


def test_transformation_holds_stabilizes_or_completes():
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=4))
    run(history, AddCondition("c2", "Transforming"))
    ten = {"take": "ten", "gm_allows_ten": True}
    assert "holds the transformation off" in play(history, save("transforming", **ten))
    assert "self-stabilizes" in play(history, save("transforming", extra=4, **ten))
    run(history, AddCondition("c2", "Transforming"))
    assert "completes" in play(history, save("transforming", take="zero"))
    assert condition_names(history, "c2") == ["Transformed"]


def test_combatants_who_cannot_act_are_flagged():
    history = encounter(LiveHackSheet(), LiveHackSheet(str_damage=10))
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == "Str -10"
    run(history, AddCondition("c1", "Incapacitated"))
    assert SYSTEM.cannot_act(history.state, who(history, "c1")) == "Incapacitated"


def test_a_minus_five_check_is_prompted_at_the_turn_and_rolled():
    history = encounter(LiveHackSheet(), LiveHackSheet(dex_damage=5))
    [turn] = decide(history.state, NextTurn(), ScriptedDice([]))
    assert any("Dex -5" in a and "Attribute check" in a for a in SYSTEM.alerts(history.state, turn))
    text = play(history, save("check", attribute="dex", take="zero"))
    assert "Check: B -5 vs 0" in text and "B fails" in text


# --- grimness ------------------------------------------------------------------------------


def test_a_grim_test_adds_the_bond_and_resists_with_will_and_grimness():
    history = encounter(LiveHackSheet(), LiveHackSheet(will=1, grimness=2, bonds=(Rating("A", 3),)))
    cmd = LiveHackGrimTest(combatant_id="c2", experience="companion-dies", companion="A")
    text = play(history, cmd, [1, 1])
    assert "DR +2 bond A +3" in text and "Will +1 Grimness +2" in text
    assert history.state.last_roll.margin == 5 - 3


def test_watching_is_five_less():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    play(
        history,
        LiveHackGrimTest(combatant_id="c2", experience="tortured", watching=True, take="zero"),
    )
    assert history.state.last_roll.attacker.total == 3


def test_a_grim_transformation_makes_a_grimlock():
    history = encounter(LiveHackSheet(), LiveHackSheet(strength=1))
    play(history, LiveHackGrimTest(combatant_id="c2", experience="eating-companion", take="zero"))
    text = play(history, LiveHackApplyConsequence())
    assert "Transforming" in text
    assert who(history, "c2").sheet.grimness == 4
    text = play(history, save("transforming", take="zero", dr=5))
    assert "becomes a Grimlock: Str +4, Wis -4" in text
    sheet = who(history, "c2").sheet
    assert (sheet.strength, sheet.wisdom) == (5, -4)
    assert who(history, "c2").side == "grimlocks"


def test_grim_advantage_adds_grimness_for_a_grim_goal_and_calls_for_its_grim_test():
    history = encounter(LiveHackSheet(grimness=3), LiveHackSheet())
    zero = {"attacker_take": "zero", "defender_take": "zero"}
    text = play(history, hit(grim_goal="helpless", **zero))
    event = history.state.last_roll
    assert isinstance(event, LiveHackRolled) and event.grim_goal == "helpless"
    assert event.attacker.total == 3
    assert "Grim Advantage (killing a helpless foe) +3" in text
    assert "A must take a grim test (killing a helpless foe)" in text
    assert any(
        "grim test due (killing a helpless foe)" in a for a in SYSTEM.alerts(history.state, event)
    )
    # The grim test's dialog opens on that one and that experience: the check comes after.
    fields = {f.key: f.default for f in SYSTEM.action_form(history.state, "grim", "c2")}
    assert (fields["who"], fields["experience"]) == ("c1", "helpless")


def test_grim_advantage_only_for_a_grim_goal_and_with_grimness():
    history = encounter(LiveHackSheet(grimness=3), LiveHackSheet())
    with pytest.raises(Rejected, match="only for a grim goal"):
        decide(history.state, hit(grim_goal="dancing"), ScriptedDice([]))
    with pytest.raises(Rejected, match="Grim Advantage \\(GM\\) must be one of: no, grim-mercy"):
        SYSTEM.roll_command(history.state, {"grim_goal": "yes"})
    command = SYSTEM.roll_command(history.state, {"grim_goal": "grim-tortured"})
    assert command.grim_goal == "tortured"
    plain = encounter(LiveHackSheet(), LiveHackSheet())
    with pytest.raises(Rejected, match="A has no Grimness"):
        decide(plain.state, hit(grim_goal="helpless"), ScriptedDice([]))


def test_grimness_is_added_to_a_grim_tests_will_only():
    """*Grimness*: "roll their will plus any current grimness" is the grim test's roll; a
    Will defense against magic is Will and Wis alone."""
    history = encounter(LiveHackSheet(), LiveHackSheet(will=2, wisdom=1, grimness=4))
    zero = {"attacker_take": "zero", "defender_take": "zero"}
    play(history, hit(defense="will", **zero))
    assert [p.label for p in history.state.last_roll.defender.parts] == ["Will", "Wis"]
    assert history.state.last_roll.defender.total == 3
    play(history, LiveHackGrimTest(combatant_id="c2", experience="helpless", take="zero"))
    assert [p.label for p in history.state.last_roll.defender.parts] == ["Will", "Wis", "Grimness"]
    assert history.state.last_roll.defender.total == 7


# --- eclipse -------------------------------------------------------------------------------


def test_an_eclipse_says_something_bizarre_happens_in_the_log():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    text = play(history, hit(), [12, 1, 12, 1, 1, 1])
    assert "something completely bizarre happens" in text


def test_a_transforming_combatant_is_asked_for_its_save_at_its_turn():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    run(history, AddCondition("c2", "Transforming"))
    [turn] = decide(history.state, NextTurn(), ScriptedDice([]))
    alerts = SYSTEM.alerts(history.state, turn)
    assert "B is Transforming: save now (s, Transformation save)." in alerts
    assert "B cannot act (Transforming): pass the turn with n." in alerts


def test_a_grim_incapacitation_lasts_until_cheered_up():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    cmd = LiveHackGrimTest(combatant_id="c2", experience="eating-humanoid", take="zero")
    assert "3 Grimness + Incapacitated (until cheered up)" in play(history, cmd)


def test_becoming_a_grimlock_again_grows_no_note_and_no_condition():
    """A fold never grows a note or a list past what a save may hold (it would no longer
    open): the Grimlock's note and condition are had once, however often it happens."""
    from rules.bounds import TEXT
    from rules.systems.livehack.apply import apply
    from rules.systems.livehack.events import LiveHackBecameGrimlock

    state = encounter(LiveHackSheet(), LiveHackSheet(strength=1)).state
    for _ in range(3):
        state = apply(state, LiveHackBecameGrimlock(combatant_id="c2", grim=1))
    grimlock = state.combatant("c2")
    assert grimlock.notes == "Grimlock: blind sight"
    assert [c.name for c in grimlock.conditions] == ["Grimlock"]
    full = state.replace_combatant(structs.replace(grimlock, notes="x" * TEXT))
    state = apply(full, LiveHackBecameGrimlock(combatant_id="c2", grim=1))
    assert len(state.combatant("c2").notes) == TEXT
