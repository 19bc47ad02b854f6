"""LiveHack, read a fourth time (issue 39): F4-01, F4-05, F4-06, F4-07, F4-12 and F4-13, each
a test that fails on the behaviour before it (rulings.md, "Fourth fidelity pass")."""

from __future__ import annotations

import msgspec
import pytest
from msgspec import structs

from rules.commands import AddCondition, RollInitiative
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.errors import Rejected
from rules.history import History
from rules.systems.livehack.odds import opposed_odds
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackAid,
    LiveHackApplyConsequence,
    LiveHackGrimTest,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackRolled,
    LiveHackSave,
    LiveHackSheet,
)
from tests.helpers import encounter, run, who
from tests.systems.livehack.test_livehack_mechanics import hit, play

ZERO = {"attacker_take": "zero", "defender_take": "zero"}


# --- F4-01: a held position accumulates; a miss keeps it --------------------------------------


def holding_two() -> History:
    """A (attack 10) holds +2 over B (a hit by 10, held on the stairs); C stands by."""
    history = encounter(LiveHackSheet(attack=10), LiveHackSheet(), LiveHackSheet())
    play(history, hit(**ZERO))  # margin 10: +2
    play(history, LiveHackHold(description="on the stairs"))
    assert who(history, "c1").sheet.held_over("c2") == 2
    return history


def test_holding_again_adds_the_new_margin_bonus_to_what_is_held():
    history = holding_two()
    # 10 + positional 2 = 12 against 7: margin 5 (the +2 included), +1 won.
    text = play(history, hit(defender_extra=7, **ZERO))
    assert "positional +2" in text and history.state.last_roll.margin == 5
    assert "position +2 still held: a hold adds the +1 won to it" in text
    text = play(history, LiveHackHold(description="on the stairs"))
    assert "A holds +1 more, +3 positional bonus over B: on the stairs" in text
    assert who(history, "c1").sheet.held_over("c2") == 3  # was +1: the old +2 spent
    assert SYSTEM.sheet_stats(who(history, "c1").sheet)[-1] == "+3 on the stairs"


def test_a_miss_keeps_the_held_position():
    history = holding_two()
    text = play(history, hit(defender_extra=20, **ZERO))  # 12 against 20: a miss
    assert "positional +2" in text and "MISS by 8" in text
    assert "position +2 still held: a miss loses no position" in text
    assert who(history, "c1").sheet.held_over("c2") == 2  # was gone
    assert "positional +2" in play(history, hit(**ZERO))  # the next attack gets it again


def test_the_damage_roll_cashes_the_position_in_and_adds_it_once():
    history = holding_two()
    play(history, hit(**ZERO))  # 12 against 0: +2 won
    assert who(history, "c1").sheet.held_over("c2") == 2  # held until cashed in
    text = play(history, hit(defense="fortitude", **ZERO))
    damage = history.state.last_roll
    assert [p.label for p in damage.attacker.parts] == ["attack", "rolled over"]
    assert damage.cashed and "position +2 cashed in" in text
    assert who(history, "c1").sheet.held == ()


def test_an_attack_the_table_answers_cashes_the_position_in_when_it_succeeds():
    history = holding_two()
    play(history, hit(defense="will", defender_extra=30, **ZERO))  # a miss: still held
    assert who(history, "c1").sheet.held_over("c2") == 2
    text = play(history, hit(defense="will", **ZERO))
    assert "positional +2" in text and "position +2 cashed in" in text
    assert who(history, "c1").sheet.held == ()


def test_the_odds_of_the_next_attack_count_a_position_kept_through_a_miss():
    history = holding_two()
    play(history, hit(defender_extra=20, **ZERO))
    values = {f.key: f.default for f in SYSTEM.roll_form(history.state)}
    assert (values["attacker"], values["defender"]) == ("c1", "c2")
    odds = SYSTEM.odds(history.state, "roll", values)
    assert odds is not None and odds.tiers == opposed_odds(12, 0).tiers  # 10 + the +2 held


def test_an_old_journals_hit_that_spent_the_position_folds_as_it_did():
    """Before F4-01 a hit spent the position at once (``cashed`` True on the hit): an older
    journal keeps that, and folds to the same state."""
    history = holding_two()
    [event] = decide(history.state, hit(**ZERO), ScriptedDice([]))
    assert isinstance(event, LiveHackRolled) and not event.cashed
    history.commit([structs.replace(event, cashed=True)], "old")
    assert who(history, "c1").sheet.held == ()
    replayed = History.from_records(list(history.records))
    assert replayed.state == history.state
    raw = msgspec.to_builtins(event)
    del raw["acts_though"]  # as an older tracker wrote it
    assert msgspec.convert(raw, LiveHackRolled) == event


# --- F4-05: Take Ten by the GM's leave, on every roll ---------------------------------------


def everyone() -> History:
    """A and C, adventurers; B a monster."""
    return encounter(LiveHackSheet(), LiveHackSheet(stat_block=True), LiveHackSheet())


def downed(condition: str) -> History:
    """A, at Wis -5, with ``condition``; B and C."""
    history = encounter(LiveHackSheet(wisdom=1, wis_damage=6), LiveHackSheet(), LiveHackSheet())
    run(history, AddCondition("c1", condition))
    return history


TEN = {"take": "ten"}
ROLLS = {
    "the attacker": (everyone, hit("c1", "c3", attacker_take="ten"), "attacker_gm_allows_ten"),
    "the defender": (everyone, hit("c3", "c1", defender_take="ten"), "gm_allows_ten"),
    "joint participants": (
        everyone,
        LiveHackJointRoll(
            kind="cooperation", participant_ids=("c1", "c3"), defender_id="c2", takes=("ten",)
        ),
        "participants_gm_allow_ten",
    ),
    "an aid": (everyone, LiveHackAid(helper_id="c3", aided_id="c1", **TEN), "gm_allows_ten"),
    "a grim test": (
        everyone,
        LiveHackGrimTest(combatant_id="c1", experience="eating-companion", **TEN),
        "gm_allows_ten",
    ),
    "a -5 check": (
        lambda: downed("Prone"),
        LiveHackSave(kind="check", combatant_id="c1", attribute="wis", **TEN),
        "gm_allows_ten",
    ),
    "a transformation save": (
        lambda: downed("Transforming"),
        LiveHackSave(kind="transforming", combatant_id="c1", **TEN),
        "gm_allows_ten",
    ),
    "a dying save": (
        lambda: downed("Dying"),
        LiveHackSave(kind="dying", combatant_id="c1", **TEN),
        "gm_allows_ten",
    ),
}


@pytest.mark.parametrize("which", list(ROLLS))
def test_take_ten_needs_the_gms_leave_on_every_roll(which):
    make, command, leave = ROLLS[which]
    history = make()
    with pytest.raises(Rejected, match=r"Take Ten needs plenty of time: [AC] .*\(GM allows\)"):
        decide(history.state, command, ScriptedDice([]))
    allowed = structs.replace(command, **{leave: True})
    assert decide(history.state, allowed, ScriptedDice([1, 1] * 4))  # rolled, none refused
    assert SYSTEM.gm_approvals(allowed) == ("Take Ten (GM allows)",)


def test_a_minus_five_wisdom_check_no_longer_passes_by_taking_ten():
    # Wis 1 - 6 = -5: "may only act if they make a wisdom roll vs a DR of 0"; ten made it sure.
    history = downed("Prone")
    check = LiveHackSave(kind="check", combatant_id="c1", attribute="wis", take="ten")
    with pytest.raises(Rejected, match="A checks by rolling or taking zero"):
        decide(history.state, check, ScriptedDice([]))
    assert "fails" in play(history, structs.replace(check, take="roll"), [1, 1])


@pytest.mark.parametrize("action", ["roll", "joint", "aid", "grim", "check", "dying"])
def test_every_dice_field_offers_the_gms_leave_for_ten(action):
    history = downed("Dying")
    fields = SYSTEM.action_form(history.state, action, "c1")
    dice = [f for f in fields if f.key.endswith("take")]
    assert dice
    for field in dice:
        assert ("ten-gm", "Take Ten (GM allows)") in field.choices, field.key
        assert SYSTEM.gm_choice(field.key, "ten-gm") and not SYSTEM.gm_choice(field.key, "ten")


# --- F4-06: a dazed character saves at Will 0 -------------------------------------------------


def test_a_dazed_transforming_characters_will_save_counts_zero():
    history = encounter(LiveHackSheet(will=6, wisdom=2, wounds=1), LiveHackSheet())
    for name in ("Transforming", "Discombobulated"):
        run(history, AddCondition("c1", name))
    save = LiveHackSave(kind="transforming", combatant_id="c1", defense="will", take="zero")
    text = play(history, save)
    assert "Will 0 (dazed) +0" in text and "Wis" not in text  # was Will +6 Wis +2: 8
    assert "completes the transformation" in text  # 0 against Wounds 1


def test_a_dazed_characters_fortitude_save_is_whole():
    # "using reflex or will to make saves": Fortitude is not named.
    history = encounter(LiveHackSheet(fortitude=3, con=1, wounds=4), LiveHackSheet())
    run(history, AddCondition("c1", "Dying"))
    text = play(history, LiveHackSave(kind="dying", combatant_id="c1", take="zero"))
    assert "Fortitude +3" in text and "holds on" in text


# --- F4-07: initiative is a Boon/Bane roll --------------------------------------------------


def test_initiative_is_a_boon_bane_roll_plus_dex():
    history = encounter(LiveHackSheet(dexterity=3), LiveHackSheet(), LiveHackSheet(dexterity=-1))
    state = history.state
    assert SYSTEM.initiative_dice(state, state.combatant("c1")) == "1d12!-1d12!+3"  # was 1d20
    assert SYSTEM.initiative_dice(state, state.combatant("c2")) == "1d12!-1d12!"
    # A: Noon 12→5 less 3, +3 = 17; B: 2 less Midnight 12→12→1 = -23; C: 4 - 4 - 1 = -1.
    run(history, RollInitiative(each=True), ScriptedDice([12, 5, 3, 2, 12, 12, 1, 4, 4]))
    assert [c.initiative for c in history.state.combatants] == [17, -1, -23]


def test_initiative_ties_go_to_the_higher_dex():
    low, high = LiveHackSheet(dexterity=1), LiveHackSheet(dexterity=2)
    history = encounter(low, high)
    run(history, RollInitiative(each=True), ScriptedDice([5, 1, 4, 1]))  # 4 + 1, 3 + 2: 5 each
    assert [c.id for c in history.state.combatants] == ["c2", "c1"]


# --- F4-12: a grim test's band is written 1-4 everywhere ---------------------------------------


def test_the_grim_tests_log_writes_its_band_as_the_pane_and_odds_do():
    history = encounter(LiveHackSheet(wisdom=-1), LiveHackSheet())
    test = LiveHackGrimTest(combatant_id="c1", experience="helpless", take="zero")
    odds = SYSTEM.odds(history.state, "grim", {"who": "c1", "experience": "helpless"})
    text = play(history, test)  # DR 0 against Wis -1: margin 1
    assert "tier 1-4: 1 Grimness" in text and "tier 0-4" not in text
    pane = SYSTEM.tiers(history.state)
    assert pane[SYSTEM.landing(history.state).tier].label == "1-4"
    assert odds is not None and odds.tiers[1].label == "1-4"


def test_a_damage_rolls_log_keeps_its_band_from_zero():
    history = encounter(LiveHackSheet(), LiveHackSheet())
    assert "tier 0-4: 1 Wounds" in play(history, hit(defense="fortitude", **ZERO))


# --- F4-13: one who cannot act makes no attack unless the GM overrides -------------------------


@pytest.mark.parametrize("condition", ["Dying", "Incapacitated", "Discombobulated"])
def test_an_attack_by_one_who_cannot_act_is_refused_unless_the_gm_overrides(condition):
    history = encounter(LiveHackSheet(attack=5), LiveHackSheet())
    run(history, AddCondition("c1", condition))
    with pytest.raises(Rejected, match=f"A cannot act \\({condition}\\): no attack"):
        decide(history.state, hit(**ZERO), ScriptedDice([]))
    overridden = hit(gm_overrides=True, **ZERO)
    assert SYSTEM.gm_approvals(overridden) == ("Acts anyway (GM)",)
    text = play(history, overridden)
    assert f"GM override: A acts though {condition}" in text
    assert history.state.last_roll.acts_though == condition


def test_a_joint_action_or_an_aid_by_one_who_cannot_act_is_refused_too():
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet())
    run(history, AddCondition("c3", "Incapacitated"))
    joint = LiveHackJointRoll(
        kind="cooperation", participant_ids=("c1", "c3"), defender_id="c2", takes=("zero",)
    )
    with pytest.raises(Rejected, match="C cannot act \\(Incapacitated\\): no joint action"):
        decide(history.state, joint, ScriptedDice([]))
    aid = LiveHackAid(helper_id="c3", aided_id="c1", take="zero")
    with pytest.raises(Rejected, match="C cannot act \\(Incapacitated\\): no aid"):
        decide(history.state, aid, ScriptedDice([]))
    assert "GM override: C acts though Incapacitated" in play(
        history, structs.replace(aid, gm_overrides=True)
    )
    play(history, structs.replace(joint, gm_overrides=True, defender_take="zero"))


def test_the_override_is_offered_while_someone_cannot_act_and_is_the_gms():
    history = encounter(LiveHackSheet(), LiveHackSheet(), LiveHackSheet())
    keys = {f.key for f in SYSTEM.action_form(history.state, "roll", None)}
    assert "gm_override" not in keys  # nobody is down: nothing to override
    run(history, AddCondition("c1", "Dying"))
    for action in ("roll", "joint", "aid"):
        keys = {f.key for f in SYSTEM.action_form(history.state, action, "c1")}
        assert "gm_override" in keys, action
    assert SYSTEM.gm_choice("gm_override", "yes") and not SYSTEM.gm_choice("gm_override", "no")
    values = {"attacker": "c1", "defender": "c2", "gm_override": "yes"}
    assert SYSTEM.roll_command(history.state, values).gm_overrides


def test_the_dying_save_and_the_damage_table_still_go_for_one_who_cannot_act():
    history = encounter(LiveHackSheet(attack=20), LiveHackSheet(wounds=1))
    play(history, hit(defense="fortitude", **ZERO))  # margin 20: Dying
    run(history, LiveHackApplyConsequence())
    text = play(history, LiveHackSave(kind="dying", combatant_id="c2", take="zero"))
    assert "Dying save: B 0 vs 5" in text  # not refused: a save is no action
