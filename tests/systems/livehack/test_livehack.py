"""LiveHack: Boon/Bane rolls, opposed rolls, the damage table and the roll log."""

import pytest

from rules.commands import AddCombatant, RemoveCombatant
from rules.conditions import Duration
from rules.dice import ScriptedDice
from rules.engine import decide, describe
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackApplyConsequence,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackSheet,
    LiveHackTraitInflicted,
    Part,
    SideRoll,
    attacker_parts,
    condition_for,
    consequence_for,
    defender_parts,
    roll_boon_bane,
)
from tests.helpers import advance, condition_names, encounter, new_history, no_dice, run, who


def duel(attacker=None, defender=None):
    """c1 (to act) against c2, on the given sheets."""
    return encounter(attacker or LiveHackSheet(), defender or LiveHackSheet())


def roll(history, faces=(), *, leftover=0, **options):
    """Roll c1 against c2 with scripted faces, commit it, and check the dice used."""
    dice = ScriptedDice(faces)
    command = LiveHackRoll(attacker_id="c1", defender_id="c2", **options)
    [event] = run(history, command, dice)
    assert isinstance(event, LiveHackRolled)
    assert dice.remaining == leftover
    return event


def rolled_with_margin(margin, defense="reflex"):
    """A roll event whose margin is exactly ``margin`` (no dice: take zero both sides)."""
    return LiveHackRolled(
        attacker=SideRoll(combatant_id="c1", parts=(Part("attack", margin),), take="zero"),
        defender=SideRoll(combatant_id="c2", parts=(Part("Reflex", 0),), take="zero"),
        defense=defense,
    )


def consequence(history):
    return run(history, LiveHackApplyConsequence())


# --- Boon/Bane ----------------------------------------------------------------------------


def test_plain_boon_bane_is_boon_minus_bane():
    result = roll_boon_bane(ScriptedDice([9, 4]))
    assert (result.boon, result.bane, result.total) == ((9,), (4,), 5)
    assert not (result.noon or result.midnight or result.eclipse)


def test_noon_adds_the_whole_boon_chain():
    dice = ScriptedDice([12, 12, 5, 3])
    result = roll_boon_bane(dice)
    assert result.boon == (12, 12, 5)
    assert result.bane == (3,)
    assert result.total == 12 + 12 + 5 - 3
    assert result.noon and not result.midnight and not result.eclipse
    assert dice.remaining == 0


def test_midnight_subtracts_the_whole_bane_chain():
    result = roll_boon_bane(ScriptedDice([4, 12, 12, 2]))
    assert result.bane == (12, 12, 2)
    assert result.total == 4 - 26
    assert result.midnight and not result.noon and not result.eclipse


def test_eclipse_when_both_first_dice_are_twelve_and_both_chains_explode():
    dice = ScriptedDice([12, 6, 12, 12, 3])
    result = roll_boon_bane(dice)
    assert result.boon == (12, 6)
    assert result.bane == (12, 12, 3)
    assert result.eclipse and result.noon and result.midnight
    assert result.total == 18 - 27
    assert dice.remaining == 0


# --- taking zero and ten ------------------------------------------------------------------


def test_attacker_take_zero_rolls_no_dice():
    history = duel(LiveHackSheet(attack=3), LiveHackSheet(reflex=1))
    event = roll(history, [7, 2, 11], leftover=1, attacker_take="zero")
    assert event.attacker.dice is None
    assert event.attacker.total == 3
    assert (event.defender.dice.boon, event.defender.dice.bane) == ((7,), (2,))
    assert event.defender.total == 1 + 5


def test_defender_take_zero_rolls_no_dice():
    history = duel(LiveHackSheet(attack=3), LiveHackSheet(reflex=1))
    event = roll(history, [7, 2, 11], leftover=1, defender_take="zero")
    assert event.attacker.dice.total == 5
    assert event.defender.dice is None
    assert event.defender.total == 1


def test_attacker_take_ten_adds_ten_without_dice():
    history = duel(LiveHackSheet(attack=2), LiveHackSheet())
    event = roll(history, [1, 1, 9], leftover=1, attacker_take="ten", attacker_gm_allows_ten=True)
    assert event.attacker.dice is None
    assert event.attacker.total == 12
    assert event.defender.total == 0


def test_defender_take_ten_adds_ten_without_dice():
    history = duel(LiveHackSheet(), LiveHackSheet(reflex=4))
    event = roll(history, [8, 3, 5], leftover=1, defender_take="ten", gm_allows_ten=True)
    assert event.defender.total == 14
    assert event.attacker.total == 5


def test_both_sides_taking_rolls_nothing_at_all():
    history = duel(LiveHackSheet(attack=1), LiveHackSheet(reflex=2))
    event = roll(
        history, [], attacker_take="ten", defender_take="zero", attacker_gm_allows_ten=True
    )
    assert (event.attacker.total, event.defender.total) == (11, 2)


def test_the_attacker_dice_come_before_the_defender_dice():
    history = duel()
    event = roll(history, [12, 2, 1, 5, 1, 12, 3], leftover=2)
    assert (event.attacker.dice.boon, event.attacker.dice.bane) == ((12, 2), (1,))
    assert (event.defender.dice.boon, event.defender.dice.bane) == ((5,), (1,))
    # the defender's chain ended at its bane 1: the rest is left over
    assert event.defender.total == 4


# --- success and margin -------------------------------------------------------------------


def test_a_tie_succeeds_with_margin_zero():
    history = duel(LiveHackSheet(attack=3), LiveHackSheet(reflex=3))
    event = roll(history, attacker_take="zero", defender_take="zero")
    assert event.margin == 0
    assert event.success


def test_one_short_fails():
    history = duel(LiveHackSheet(attack=2), LiveHackSheet(reflex=3))
    event = roll(history, attacker_take="zero", defender_take="zero")
    assert event.margin == -1
    assert not event.success


def test_margin_is_attacker_total_minus_defender_total():
    history = duel(LiveHackSheet(attack=2), LiveHackSheet(reflex=1))
    event = roll(history, [9, 4, 3, 2], attacker_extra=1, defender_extra=-3)
    assert event.attacker.total == 2 + 1 + (9 - 4)
    assert event.defender.total == 1 - 3 + (3 - 2)
    assert event.margin == 8 - (-1)


@pytest.mark.parametrize(
    ("margin", "bonus"),
    [(-12, 0), (-5, 0), (-1, 0), (0, 0), (4, 0), (5, 1), (9, 1), (10, 2), (14, 2), (15, 3)],
)
def test_margin_bonus_is_one_per_full_five(margin, bonus):
    assert rolled_with_margin(margin).margin_bonus == bonus


# --- the damage table ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("margin", "levels", "condition"),
    [
        (0, 1, None),
        (4, 1, None),
        (5, 2, "Discombobulated"),
        (9, 2, "Discombobulated"),
        (10, 3, "Incapacitated"),
        (14, 3, "Incapacitated"),
        (15, 4, "Dying"),
        (40, 4, "Dying"),
    ],
)
def test_damage_table_rows(margin, levels, condition):
    row = consequence_for(margin)
    assert row is not None
    assert (row.levels, row.condition) == (levels, condition)


@pytest.mark.parametrize("margin", [-1, -5, -100])
def test_a_miss_has_no_consequence(margin):
    assert consequence_for(margin) is None


def test_will_turns_dying_into_transforming():
    row = consequence_for(15)
    assert condition_for(row, "will") == "Transforming"
    assert condition_for(row, "fortitude") == "Dying"
    assert condition_for(row, "reflex") == "Dying"
    assert condition_for(consequence_for(7), "will") == "Discombobulated"


def test_consequence_inflicts_levels_on_the_chosen_trait_and_adds_the_condition():
    history = duel(LiveHackSheet(attack=7), LiveHackSheet(fatigue=1, wounds=2))
    roll(history, defense="fortitude", trait="fatigue", attacker_take="zero", defender_take="zero")
    events = consequence(history)
    assert events[0] == LiveHackTraitInflicted(
        combatant_id="c2", trait="fatigue", levels=2, margin=7
    )
    target = who(history, "c2")
    assert target.sheet.fatigue == 3
    assert target.sheet.wounds == 2  # the other traits are untouched
    condition = target.condition("Discombobulated")
    assert condition is not None
    assert condition.duration == Duration("end-of-next-turn")
    assert who(history, "c1").sheet == LiveHackSheet(attack=7)
    assert who(history, "c1").conditions == ()


def test_a_small_margin_inflicts_one_level_and_no_condition():
    history = duel(LiveHackSheet(attack=4), LiveHackSheet())
    roll(history, defense="fortitude", attacker_take="zero", defender_take="zero")
    events = consequence(history)
    assert len(events) == 1
    assert who(history, "c2").sheet.wounds == 1
    assert who(history, "c2").conditions == ()


def test_a_will_roll_of_fifteen_or_more_transforms():
    history = duel(LiveHackSheet(attack=20), LiveHackSheet(will=2, grimness=3))
    roll(history, defense="will", trait="grimness", attacker_take="zero", defender_take="zero")
    events = consequence(history)
    assert isinstance(events[1], ConditionAdded)
    assert condition_names(history, "c2") == ["Transforming"]
    assert who(history, "c2").sheet.grimness == 3 + 4


def test_discombobulated_ends_with_the_bearers_next_turn():
    history = duel(LiveHackSheet(attack=5), LiveHackSheet())
    roll(history, defense="fortitude", attacker_take="zero", defender_take="zero")
    consequence(history)
    advance(history)  # c2's turn starts
    assert condition_names(history, "c2") == ["Discombobulated"]
    advance(history)  # c2's turn is over
    assert condition_names(history, "c2") == []


def test_applying_twice_is_rejected():
    history = duel(LiveHackSheet(attack=3), LiveHackSheet())
    roll(history, defense="fortitude", attacker_take="zero", defender_take="zero")
    consequence(history)
    with pytest.raises(Rejected, match="already"):
        decide(history.state, LiveHackApplyConsequence(), no_dice())
    assert who(history, "c2").sheet.wounds == 1


def test_a_new_roll_can_be_applied_again():
    history = duel(LiveHackSheet(attack=3), LiveHackSheet())
    for _ in range(2):
        roll(history, defense="fortitude", attacker_take="zero", defender_take="zero")
        consequence(history)
    assert who(history, "c2").sheet.wounds == 2


def test_applying_after_a_miss_is_rejected():
    history = duel(LiveHackSheet(), LiveHackSheet(fortitude=1))
    roll(history, defense="fortitude", attacker_take="zero", defender_take="zero")
    with pytest.raises(Rejected, match="missed by 1"):
        decide(history.state, LiveHackApplyConsequence(), no_dice())


def test_applying_before_any_roll_is_rejected():
    with pytest.raises(Rejected, match="roll first"):
        decide(duel().state, LiveHackApplyConsequence(), no_dice())


def test_applying_when_the_defender_has_left_is_rejected():
    history = duel(LiveHackSheet(attack=3), LiveHackSheet())
    roll(history, defense="fortitude", attacker_take="zero", defender_take="zero")
    run(history, RemoveCombatant("c2"))
    with pytest.raises(Rejected, match="no longer"):
        decide(history.state, LiveHackApplyConsequence(), no_dice())


def test_rolling_against_oneself_is_rejected():
    history = duel()
    command = LiveHackRoll(attacker_id="c1", defender_id="c1")
    with pytest.raises(Rejected, match="themselves"):
        decide(history.state, command, ScriptedDice([1, 1, 1, 1]))


def test_rolling_against_an_unknown_id_is_rejected():
    with pytest.raises(Rejected, match="c9"):
        decide(duel().state, LiveHackRoll(attacker_id="c1", defender_id="c9"), no_dice())


def test_the_roll_is_kept_as_the_last_roll():
    history = duel()
    event = roll(history, [3, 4, 5, 6])
    assert history.state.last_roll == event
    assert not history.state.last_roll_applied


# --- parts of a roll ------------------------------------------------------------------------


SHEET = LiveHackSheet(attack=5, reflex=1, fortitude=2, will=3, con=4, armour=6, grimness=7)


def test_attacker_parts_are_attack_plus_extra():
    person = who(encounter(SHEET), "c1")
    assert attacker_parts(person, 0) == (Part("attack", 5),)
    assert attacker_parts(person, -2) == (Part("attack", 5), Part("extra", -2))


@pytest.mark.parametrize(
    ("defense", "total"),
    [("reflex", 1), ("fortitude", 2 + 4 + 6), ("will", 3)],  # Grimness: grim tests only
)
def test_defense_totals(defense, total):
    person = who(encounter(SHEET), "c1")
    parts = defender_parts(person, defense, 0)
    assert sum(p.value for p in parts) == total


def test_fortitude_adds_con_and_armour():
    person = who(encounter(SHEET), "c1")
    assert defender_parts(person, "fortitude", 2) == (
        Part("Fortitude", 2),
        Part("Con", 4),
        Part("armour", 6),
        Part("extra", 2),
    )


def test_the_defense_reaches_the_defender_total():
    history = duel(LiveHackSheet(), SHEET)
    event = roll(
        history, defense="fortitude", defender_extra=1, attacker_take="zero", defender_take="zero"
    )
    assert event.defender.total == 2 + 4 + 6 + 1
    assert event.attacker.total == 0


# --- the roll form --------------------------------------------------------------------------


def test_roll_command_parses_the_form():
    history = duel()
    values = {
        "attacker": "c2",
        "defender": "c1",
        "defense": "fortitude",
        "attacker_extra": " 3 ",
        "defender_extra": "-2",
        "attacker_take": "ten",
        "defender_take": "zero",
        "trait": "fatigue",
    }
    assert SYSTEM.roll_command(history.state, values) == LiveHackRoll(
        attacker_id="c2",
        defender_id="c1",
        defense="fortitude",
        attacker_extra=3,
        defender_extra=-2,
        attacker_take="ten",
        defender_take="zero",
        trait="fatigue",
    )


def test_roll_command_uses_the_form_defaults():
    history = duel()
    command = SYSTEM.roll_command(history.state, {})
    assert command == LiveHackRoll(attacker_id="c1", defender_id="c2")


@pytest.mark.parametrize(
    ("key", "label"),
    [("attacker_extra", "Attacker extra modifier"), ("defender_extra", "Defender extra modifier")],
)
def test_roll_command_rejects_a_non_number_naming_the_field(key, label):
    with pytest.raises(Rejected) as caught:
        SYSTEM.roll_command(duel().state, {key: "lots"})
    assert label in caught.value.message
    assert "lots" in caught.value.message


@pytest.mark.parametrize("typed", ["1" + "0" * 20, "-99999999999"])
def test_the_forms_refuse_a_number_too_large_to_save(typed):
    with pytest.raises(Rejected, match="Attack bonus"):
        SYSTEM.sheet_from_form({"attack": typed}, LiveHackSheet())
    with pytest.raises(Rejected, match="Defender extra modifier"):
        SYSTEM.roll_command(duel().state, {"defender_extra": typed})


def test_the_sheet_form_parses_every_field_and_keeps_blanks():
    sheet = LiveHackSheet(attack=1, wounds=4)
    parsed = SYSTEM.sheet_from_form({"attack": " -2 ", "armour": "3", "wounds": ""}, sheet)
    assert parsed == LiveHackSheet(attack=-2, armour=3, wounds=4)


def test_roll_command_rejects_an_unknown_choice():
    with pytest.raises(Rejected, match="Against"):
        SYSTEM.roll_command(duel().state, {"defense": "luck"})


def test_roll_form_needs_two_combatants():
    history = new_history()
    run(history, AddCombatant(name="Alone"))
    with pytest.raises(Rejected, match="two combatants"):
        SYSTEM.roll_command(history.state, {})


# --- the log --------------------------------------------------------------------------------


def roll_text(history, faces, **options):
    before = history.state
    event = roll(history, faces, **options)
    return describe(before, event).plain


def test_the_roll_log_shows_every_die_noon_and_midnight():
    history = duel()
    text = roll_text(history, [12, 12, 3, 4, 2, 12, 5])
    assert "12→12→3" in text
    assert "[4]" in text
    assert "[2]" in text
    assert "12→5" in text
    assert "NOON" in text
    assert "MIDNIGHT" in text
    assert "ECLIPSE" not in text


def test_the_roll_log_flags_an_eclipse():
    history = duel()
    text = roll_text(history, [12, 7, 12, 9, 1, 1])
    assert "ECLIPSE" in text
    assert "12→7" in text
    assert "12→9" in text


def test_a_plain_roll_log_has_no_celestial_flags():
    text = roll_text(duel(), [5, 6, 7, 8])
    for flag in ("NOON", "MIDNIGHT", "ECLIPSE"):
        assert flag not in text
    for face in "5678":
        assert f"[{face}]" in text


def test_the_roll_log_names_both_sides_and_the_outcome():
    history = duel(LiveHackSheet(attack=10), LiveHackSheet())
    text = roll_text(history, [], attacker_take="zero", defender_take="ten", gm_allows_ten=True)
    assert "A vs B" in text
    assert "HIT, margin +0" in text
    assert "take zero" in text
    assert "take ten" in text


def test_the_roll_log_reports_a_miss():
    history = duel(LiveHackSheet(), LiveHackSheet(reflex=3))
    text = roll_text(history, [], attacker_take="zero", defender_take="zero")
    assert "MISS by 3" in text


@pytest.mark.parametrize("typed", ["1_000", "٣", "1.5", "+", "--2"])
def test_only_plain_whole_numbers_are_accepted(typed: str) -> None:
    from rules.forms import int_value

    with pytest.raises(Rejected, match="must be a whole number"):
        int_value({"x": typed}, "x", "Bonus")
    assert int_value({"x": " -7 "}, "x", "Bonus") == -7
    assert int_value({"x": "+3"}, "x", "Bonus") == 3
