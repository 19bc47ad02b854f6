"""LiveHack, the open readings of the third pass (issue 30): effort on every roll (R3-04), a
held position and a skill's rolled-over bonus (R3-05), a solo foe's dying save (R3-09)."""

from fractions import Fraction

import pytest
from msgspec import structs

from rules.commands import AddCombatant, AddCondition, NextTurn, SetPolicy
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.errors import Rejected
from rules.systems.livehack import odds
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackAid,
    LiveHackApplyConsequence,
    LiveHackGrimTest,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackSave,
    LiveHackSheet,
    Rating,
)
from tests.helpers import encounter, run, who
from tests.systems.livehack.test_livehack_mechanics import hit, play
from tests.systems.livehack.test_solo_livehack import chosen, fight

ZERO = {"attacker_take": "zero", "defender_take": "zero"}


def spent(history, cid):
    sheet = who(history, cid).sheet
    return sheet.fatigue, sheet.effort_spent


# --- R3-04: effort before any roll ----------------------------------------------------------


def test_a_grim_test_takes_effort_on_the_characters_will_and_costs_fatigue():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    text = play(
        history,
        LiveHackGrimTest(combatant_id="c1", experience="eating-humanoid", take="zero", effort=3),
    )
    assert "effort +3" in text and "A gains 3 Fatigue" in text
    roll = history.state.last_roll
    assert (roll.defender.total, roll.margin) == (3, 7)  # DR 10 against Will 0 + effort 3
    assert spent(history, "c1") == (3, 3)


@pytest.mark.parametrize(
    "command",
    [
        LiveHackSave(kind="check", combatant_id="c1", take="zero", attribute="dex", effort=2),
        LiveHackAid(helper_id="c1", aided_id="c2", take="zero", effort=2),
    ],
    ids=["check", "aid"],
)
def test_a_check_or_an_aid_takes_effort(command):
    history = encounter(LiveHackSheet(), LiveHackSheet())
    text = play(history, command)
    assert "effort +2" in text and "A gains 2 Fatigue" in text
    assert spent(history, "c1") == (2, 2)
    if isinstance(command, LiveHackAid):  # MOS 2 against DR 0: +1 for the aided one
        assert [a.bonus for a in history.state.system_state.aids] == [1]


def test_a_dying_save_takes_effort_and_it_can_stabilize():
    history = encounter(LiveHackSheet(), LiveHackSheet(fortitude=5))
    run(history, AddCondition("c2", "Dying"))
    save = LiveHackSave(kind="dying", combatant_id="c2", take="zero", effort=5)
    play(history, save)  # Fortitude 5 + effort 5 against Wounds 0: MOS 10
    assert who(history, "c2").condition("Stabilized")
    assert spent(history, "c2") == (5, 5)


def test_joint_participants_each_push_and_each_pays():
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet())
    joint = LiveHackJointRoll(
        kind="chaos", participant_ids=("c1", "c3"), defender_id="c2", defender_take="zero"
    )
    text = play(
        history, LiveHackJointRoll(**{**_fields(joint), "takes": ("zero",), "efforts": (1, 4)})
    )
    rolls = history.state.system_state.joint.rolls
    assert [r.attacker.total for r in rolls] == [1, 4]
    assert history.state.last_roll.margin == 1  # Chaos: the lowest
    assert "A gains 1 Fatigue" in text and "C gains 4 Fatigue" in text
    assert (spent(history, "c1"), spent(history, "c3")) == ((1, 1), (4, 4))


def _fields(command):
    return {name: getattr(command, name) for name in command.__struct_fields__}


def test_effort_anywhere_counts_against_the_five_a_combat():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    run(history, LiveHackSave(kind="check", combatant_id="c1", take="zero", effort=4))
    with pytest.raises(Rejected, match=r"A has pushed \+4 this combat: at most \+1 more"):
        run(history, LiveHackGrimTest(combatant_id="c1", experience="helpless", effort=2))
    with pytest.raises(Rejected, match="Effort is at most"):
        run(history, LiveHackAid(helper_id="c2", aided_id="c1", effort=6))
    assert spent(history, "c1") == (4, 4)


def test_effort_at_con_minus_five_rolls_con_first_on_a_save():
    history = encounter(LiveHackSheet(con_damage=5), LiveHackSheet())
    check = LiveHackSave(kind="check", combatant_id="c1", take="zero", effort=2)
    # Con -5 + 1 - 2 = -6: the Con roll fails, the effort is not spent.
    text = play(history, check, faces=[1, 2])
    assert "Check (Con -5, to push +2 effort)" in text and "effort +2" not in text
    assert spent(history, "c1") == (0, 0)
    text = play(history, check, faces=[10, 1])  # Con -5 + 10 - 1 = +4: it passes
    assert "A gains 2 Fatigue" in text
    assert spent(history, "c1") == (2, 2)


@pytest.mark.parametrize(
    "name, values, field",
    [
        ("grim", {"who": "c1"}, "Effort (+1 Fatigue each)"),
        ("check", {"who": "c1"}, "Effort (+1 Fatigue each)"),
        ("aid", {"helper": "c1", "aided": "c2"}, "Helper effort (+1 Fatigue each)"),
        ("joint", {"who0": "c1", "who1": "c3", "defender": "c2"}, "Participants' effort (each)"),
    ],
)
def test_every_rolls_dialog_asks_for_effort(name, values, field):
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet())
    form = {f.key: f.label for f in SYSTEM.action_form(history.state, name, "c1")}
    assert form["effort"] == field
    command = SYSTEM.action_command(history.state, name, {**values, "effort": "3"})
    assert getattr(command, "efforts", None) == (3,) or getattr(command, "effort", None) == 3
    with pytest.raises(Rejected, match="Effort"):
        SYSTEM.action_command(history.state, name, {**values, "effort": "9"})


def test_a_grim_tests_odds_count_its_effort():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    values = {"who": "c1", "experience": "eating-humanoid", "take": "roll", "effort": "4"}
    found = SYSTEM.odds(history.state, "grim", values)
    # DR 10 against Will 0 + effort 4, counted by the grim test's own bands.
    assert found.tiers == odds.grim_odds(10, 4, "zero", "roll").tiers
    assert found.tiers != odds.grim_odds(10, 0, "zero", "roll").tiers


def test_a_joint_actions_odds_count_each_effort():
    history = encounter(LiveHackSheet(attack=1), LiveHackSheet(), LiveHackSheet())
    values = {"who0": "c1", "who1": "c3", "defender": "c2", "effort": "2", "defender_take": "zero"}
    found = SYSTEM.odds(history.state, "joint", values)
    expected = odds.joint_odds("cooperation", (3, 2), 0, "zero", ("roll", "roll"))
    assert found.tiers == expected.tiers


def test_a_grim_tests_odds_weigh_the_con_roll_exactly():
    history = encounter(LiveHackSheet(con_damage=5), LiveHackSheet())
    values = {"who": "c1", "experience": "helpless", "take": "zero", "effort": "3"}
    found = SYSTEM.odds(history.state, "grim", values)
    passes = odds.dice_at_least(5)  # Con -5 + dice >= 0
    # DR 0 against 3 (resisted) when the Con roll passes, against 0 (resisted, a tie) else:
    # both resisted, so the whole chance sits in the first band either way.
    assert found.tiers[0].p == 1
    values["experience"] = "eating-humanoid"  # DR 10: margin 7 (5-9) or 10 (10-14)
    found = SYSTEM.odds(history.state, "grim", values)
    by_label = {t.label: t.p for t in found.tiers}
    assert (by_label["5-9"], by_label["10-14"]) == (passes, 1 - passes)
    assert sum(t.p for t in found.tiers) == Fraction(1)
    assert "A's Con roll for +3 effort" in str(found.extra["note"])


def test_an_old_save_and_check_fold_as_before():
    """Events written before R3-04 have no effort: they decode to 0 and cost nothing."""
    import msgspec

    from rules.systems.livehack.events import LiveHackAidRolled, LiveHackSaveRolled

    history = encounter(LiveHackSheet(), LiveHackSheet())
    play(history, LiveHackSave(kind="check", combatant_id="c1", take="zero"))
    play(history, LiveHackAid(helper_id="c1", aided_id="c2", take="zero"))
    for event in [e for r in history.records for e in getattr(r, "events", ())]:
        if isinstance(event, LiveHackSaveRolled | LiveHackAidRolled):
            raw = msgspec.to_builtins(event)
            del raw["effort"]  # as an older tracker wrote it
            assert msgspec.convert(raw, type(event)) == event
    assert spent(history, "c1") == (0, 0)


# --- R3-05: a held position comes by itself; a skill's bonus waits for its own roller -------


def holding(attack=5):
    """A holds +1 over B (on the stairs); C stands by."""
    sheet = LiveHackSheet(attack=attack, skills=(Rating("Hide", 0),))
    history = encounter(sheet, LiveHackSheet(), LiveHackSheet())
    play(history, hit(**ZERO))
    play(history, LiveHackHold(description="on the stairs"))
    return history


def test_a_held_position_comes_by_itself_on_the_next_attack_and_is_spent():
    history = holding()
    form = {f.key for f in SYSTEM.action_form(history.state, "roll", None)}
    assert "cash_in" not in form  # nothing to remember: the text gives it to the next attack
    text = play(history, hit(**ZERO))
    assert "positional +1" in text and history.state.last_roll.attacker.total == 6
    # F4-01: the hit keeps it, for a hold to grow or its damage roll to spend (cash in).
    assert who(history, "c1").sheet.held_over("c2") == 1
    play(history, hit(defense="fortitude", **ZERO))
    assert who(history, "c1").sheet.held == ()


def test_a_held_position_waits_through_other_rolls_and_skill_contests():
    history = holding()
    play(history, hit("c1", "c3", **ZERO))  # another target: not its attack
    assert "positional" not in play(history, hit(skill="Hide", defense="skill", **ZERO))
    assert who(history, "c1").sheet.held_over("c2") == 1  # a skill contest is no attack
    assert "positional +1" in play(history, hit(**ZERO))


def test_the_preview_counts_the_held_position():
    history = holding()
    preview = SYSTEM.preview(history.state, "roll", {"attacker": "c1", "defender": "c2"})
    assert preview.startswith("A +6 vs B Reflex +0")


def spotter():
    """A (Hide +5: B's Spot defends), B and C."""
    return encounter(LiveHackSheet(skills=(Rating("Hide", 5),)), LiveHackSheet(), LiveHackSheet())


def test_a_skills_bonus_waits_through_anothers_roll_for_its_own_roller():
    history = encounter(
        LiveHackSheet(skills=(Rating("Hide", 5),)), LiveHackSheet(), LiveHackSheet()
    )
    play(history, hit(skill="Hide", defense="skill", **ZERO))  # margin 5: +1
    play(history, hit("c3", "c2", **ZERO))  # C's roll comes between
    assert history.state.system_state.kept is not None
    assert SYSTEM.status(history.state) == "A: margin bonus +1"
    assert "rolled over +1" in play(history, hit(**ZERO))  # A's next roll against B
    assert history.state.system_state.kept is None


def test_a_skills_bonus_is_lost_at_its_rollers_own_unrelated_roll():
    history = encounter(
        LiveHackSheet(skills=(Rating("Hide", 5),)), LiveHackSheet(), LiveHackSheet()
    )
    play(history, hit(skill="Hide", defense="skill", **ZERO))
    play(history, hit("c1", "c3", **ZERO))  # A's own roll, at C: not related
    assert history.state.system_state.kept is None
    assert "rolled over" not in play(history, hit(**ZERO))


def test_a_hits_bonus_is_still_lost_at_anothers_roll():
    history = encounter(LiveHackSheet(attack=5), LiveHackSheet(), LiveHackSheet())
    play(history, hit(**ZERO))  # a hit: +1 for its damage roll, which follows at once
    play(history, hit("c3", "c2", **ZERO))
    assert history.state.system_state.kept is None
    assert "rolled over" not in play(history, hit(defense="fortitude", **ZERO))


def test_an_old_journal_folds_as_it_did():
    """Rolls from before R3-05: a held position spent only when cashed in, a skill's bonus
    gone at the next roll. Their events say so (``cashed`` False, ``keeps`` False)."""
    from rules.history import History

    history = holding()
    skilled = encounter(
        LiveHackSheet(skills=(Rating("Hide", 5),)), LiveHackSheet(), LiveHackSheet()
    )
    play(skilled, hit(skill="Hide", defense="skill", **ZERO))
    for old, attacker in ((history, "c1"), (skilled, "c3")):
        [event] = decide(old.state, hit(attacker, "c2", **ZERO), ScriptedDice([]))
        old.commit([structs.replace(event, cashed=False, keeps=False)], "old")
        replayed = History.from_records(list(old.records))
        assert replayed.state == old.state
    assert who(history, "c1").sheet.held_over("c2") == 1  # not cashed in: still held
    assert skilled.state.system_state.kept is None


# --- R3-09: a solo foe's dying save at the end of each round ----------------------------------


def test_a_solo_foe_struck_down_saves_when_the_round_ends_not_at_its_turn():
    # Orla, the Goblin (the tracker's), Brak; Grik's attack and the save each read [6, 1].
    session = fight(ScriptedDice([6, 1, 6, 1]), "roll")
    session.execute(AddCombatant(name="Grik", side="foes", sheet=LiveHackSheet()))
    session.execute(SetPolicy("c4", "take-zero"))  # Grik rolls no dice
    blow = hit("c1", "c2", defense="fortitude", attacker_take="ten", attacker_extra=10)
    blow = structs.replace(blow, attacker_gm_allows_ten=True)
    session.execute(structs.replace(blow, defender_take="zero"))  # 24 vs 3: margin 21
    session.execute(LiveHackApplyConsequence())
    assert who(session, "c2").condition("Dying")
    assert chosen(session) == []  # fallen this round: its save is at the round's end
    session.execute(NextTurn())  # the Goblin's turn: nothing to roll, it cannot act
    assert chosen(session) == ["⚙ Goblin (roll): cannot act (Dying): passes the turn"]
    assert session.state.current_id == "c3"
    session.execute(NextTurn())  # Brak's ends; Grik plays its turn and the round ends
    assert (session.state.round, session.state.current_id) == (2, "c1")
    lines = chosen(session)
    save = "⚙ Goblin (roll): dying save, Fortitude vs Wounds 4: rolls"
    assert lines[-1] == save  # after Grik's turn, before Orla acts
    assert lines.count(save) == 1
    session.execute(NextTurn())  # Orla's turn ends; at its own turn the Goblin only passes
    assert chosen(session) == ["⚙ Goblin (roll): cannot act (Dying): passes the turn"]
