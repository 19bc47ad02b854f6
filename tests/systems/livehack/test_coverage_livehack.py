"""LiveHack mechanics the coverage table (livehack/rulings.md, "Coverage") found with no test of
their own: every row of *Grim Experiences*, every row of *Cumulative Offset Penalties*, every
condition *Discombobulation* names the effects of, a grim Discombobulation, and *Stabilizing*'s
"no longer incapacitated"."""

import pytest
from msgspec import structs

from rules.commands import AddCondition, NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackApplyConsequence,
    LiveHackGrimTest,
    LiveHackHeal,
    LiveHackSheet,
    Rating,
)
from tests.helpers import condition_names, encounter, run, who
from tests.systems.livehack.test_livehack_mechanics import hit, play

ZERO = {"attacker_take": "zero", "defender_take": "zero"}


def damaged(**damage: int) -> LiveHackSheet:
    """A blank sheet with attribute damage (``dex_damage=5``: Dex at -5)."""
    return structs.replace(LiveHackSheet(), **damage)


# --- Grim Experiences: the table, row by row ---------------------------------------------------


@pytest.mark.parametrize(
    ("experience", "dr", "starred"),
    [
        ("mercy", -5, False),  # Mercy Killing a Disabled or Dying Foe
        ("helpless", 0, False),  # Killing a Helpless Foe
        ("companion-dies", 2, True),  # Seeing a Companion Adventurer Die *+2
        ("companion-eaten", 5, True),  # Knowing That a Companion ... Has Been Eaten*
        ("tortured", 8, False),  # Being Tortured
        ("eating-humanoid", 10, False),  # Eating a Humanoid
        ("put-down", 12, True),  # Having to Put Down a Grimlock Who Was a Companion*
        ("eating-companion", 15, True),  # Eating a Companion Adventurer*
    ],
)
def test_every_grim_experience_has_the_texts_dr_and_only_starred_rows_add_the_bond(
    experience: str, dr: int, starred: bool
) -> None:
    """*Grim Experiences*: the DRs, and "*If an Adventurer has a Bond with the Companion
    Adventurer, then add that bond rating to the DR" on the starred rows only."""
    history = encounter(LiveHackSheet(), LiveHackSheet(bonds=(Rating("A", 3),)))
    test = LiveHackGrimTest(combatant_id="c2", experience=experience, companion="A", take="zero")
    play(history, test)
    assert history.state.last_roll.attacker.total == dr + (3 if starred else 0)


# --- Cumulative Offset Penalties: the table, row by row ----------------------------------------


@pytest.mark.parametrize(
    ("damage", "asked"),
    [
        ({"int_damage": 5}, "Int -5, must roll Int vs DR 0 even for the simplest tasks"),
        ({"wis_damage": 5}, "Wis -5, may only act after a Wis roll vs DR 0"),
        ({"dex_damage": 5}, "Dex -5, must roll Dex vs DR 0 for even simple physical tasks"),
        ({"con_damage": 5}, "Con -5, must roll Con vs DR 0 to expend Fatigue"),
        ({"cha_damage": 5}, "Cha -5, must roll Cha vs DR 0 not to antagonize"),
    ],
)
def test_every_minus_five_check_is_asked_for_at_the_bearers_turn(
    damage: dict[str, int], asked: str
) -> None:
    history = encounter(LiveHackSheet(), damaged(**damage))
    [turn] = decide(history.state, NextTurn(), ScriptedDice([]))
    alerts = SYSTEM.alerts(history.state, turn)
    assert any(asked in a and "(s, Attribute check)" in a for a in alerts), alerts
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == ""


def test_strength_at_minus_five_asks_for_nothing() -> None:
    """Strength -5: "No special effects (carrying capacity suffers ...)"."""
    history = encounter(LiveHackSheet(), LiveHackSheet(str_damage=5))
    [turn] = decide(history.state, NextTurn(), ScriptedDice([]))
    assert SYSTEM.alerts(history.state, turn) == []
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == ""


@pytest.mark.parametrize(
    ("damage", "stopped"),
    [
        ({"str_damage": 10}, "Str -10"),  # "may not take any physical action"
        ({"int_damage": 10}, "Int -10"),  # "catatonic and completely unresponsive"
        ({"dex_damage": 10}, "Dex -10"),  # "unable to give commands to their body"
        ({"wis_damage": 10}, ""),  # "will do whatever anyone tells them to do"
        ({"con_damage": 10}, ""),  # "may take no actions that expend fatigue"
        ({"cha_damage": 10}, ""),  # "incapable of communicating successfully"
    ],
)
def test_the_minus_ten_offsets_that_stop_all_action(damage: dict[str, int], stopped: str) -> None:
    history = encounter(LiveHackSheet(), damaged(**damage))
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == stopped


@pytest.mark.parametrize("attribute", ["wis", "con", "cha"])
def test_a_minus_ten_that_does_not_stop_action_is_said_at_the_turn(attribute: str) -> None:
    history = encounter(LiveHackSheet(), damaged(**{f"{attribute}_damage": 10}))
    [turn] = decide(history.state, NextTurn(), ScriptedDice([]))
    alerts = SYSTEM.alerts(history.state, turn)
    assert any(f"B: {attribute.capitalize()} -10," in a for a in alerts), alerts


# --- Discombobulation, Incapacitation, Dying: the same effects ---------------------------------


@pytest.mark.parametrize("condition", ["Incapacitated", "Dying", "Comatose"])
def test_every_dazed_condition_saves_at_zero_with_dex_minus_ten(condition: str) -> None:
    """*Incapacitation*: "the same effect as discombobulation"; *Dying*: "Effectively the same
    as Incapacitation"; *Discombobulation*: "Consider these saves as 0, and Dex to be -10 for
    purposes of being hit" (reflex or will; Fortitude stays)."""
    history = encounter(LiveHackSheet(), LiveHackSheet(reflex=5, will=3, fortitude=4, con=1))
    run(history, AddCondition("c2", condition))
    play(history, hit(**ZERO))
    assert history.state.last_roll.defender.total == -10
    play(history, hit(defense="will", **ZERO))
    assert history.state.last_roll.defender.total == 0
    play(history, hit(defense="fortitude", **ZERO))
    assert history.state.last_roll.defender.total == 5
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == condition


# --- Going Grimlock: "If the result of a Grim test is discombobulation ... may not act" -------


def test_a_grim_discombobulation_means_the_character_may_not_act() -> None:
    history = encounter(LiveHackSheet(), LiveHackSheet())
    play(history, LiveHackGrimTest(combatant_id="c2", experience="tortured", take="zero"))
    assert history.state.last_roll.margin == 8  # DR 8 against Will 0: 5-9
    play(history, LiveHackApplyConsequence())
    sheet = who(history, "c2").sheet
    assert sheet.grimness == 2
    assert SYSTEM.cannot_act(history.state, who(history, "c2")) == "Discombobulated"


# --- Stabilizing: "are, in fact, no longer incapacitated" ---------------------------------------


def test_healing_a_dying_and_incapacitated_character_ends_the_incapacitation() -> None:
    history = encounter(LiveHackSheet(), LiveHackSheet(wounds=7))
    run(history, AddCondition("c2", "Incapacitated"))
    run(history, AddCondition("c2", "Dying"))
    play(history, LiveHackHeal(combatant_id="c2", levels=1))  # 6 Wounds, under Con 0 + 10
    assert condition_names(history, "c2") == ["Stabilized"]
    assert SYSTEM.out_of_fight(history.state, who(history, "c2")) == ""
