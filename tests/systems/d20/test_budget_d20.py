"""Generic d20's XP budget beside the forecast (issue 43): the SRD's numbers (challenge XP, the
2014 thresholds and group multiplier, the 2024 budget) and the line saying where the table
and the simulation disagree."""

from __future__ import annotations

import pytest

from rules.budget import Band
from rules.difficulty import lines
from rules.encounter import Encounter
from rules.forecast import forecast
from rules.registry import get_system
from rules.systems.d20.budget import (
    budget_2024,
    challenge_xp,
    level,
    multiplier,
    thresholds_2014,
    xp_budget,
)
from rules.systems.d20.demo import build
from tests.systems.d20.support import FOE_SHEET, HERO, HERO_SHEET, card, fight


def test_a_level_3_party_of_four_has_the_srd_thresholds() -> None:
    assert thresholds_2014([3, 3, 3, 3]) == (300, 600, 900, 1600)
    assert budget_2024([3, 3, 3, 3]) == (600, 900, 1600)
    assert thresholds_2014([1, 20]) == (25 + 2800, 50 + 5700, 75 + 8500, 100 + 12700)
    assert budget_2024([5]) == (500, 750, 1100)


@pytest.mark.parametrize(
    ("text", "xp"),
    [("1/8", 25), ("1/4", 50), ("1/2", 100), ("CR 1", 200), ("5", 1800), ("10", 5900),
     ("16", 15000), ("30", 155000), ("31", None), ("", None), ("3/4", None)],
)  # fmt: skip
def test_a_challenge_rating_is_worth_the_srds_xp(text: str, xp: int | None) -> None:
    assert challenge_xp(text) == xp


def test_a_heros_level_is_the_number_in_its_challenge_field() -> None:
    assert [level(t) for t in ("fighter 3", "7", "fighter 3 / wizard 2", "", "level 21")] == [
        3, 7, 5, None, None
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("foes", "party", "factor"),
    [(1, 4, 1), (2, 4, 1.5), (3, 4, 2), (6, 4, 2), (7, 4, 2.5), (10, 4, 2.5), (11, 4, 3),
     (14, 4, 3), (15, 4, 4), (1, 2, 1.5), (15, 1, 5), (1, 6, 0.5), (2, 6, 1), (15, 7, 3)],
)  # fmt: skip
def test_the_group_multiplier_by_foes_and_party_size(foes: int, party: int, factor: float) -> None:
    assert multiplier(foes, party) == factor


def party_against(*challenges: str, heroes: int = 4, hero_level: str = "fighter 3") -> Encounter:
    hero = card(HERO, hp="20/20", ac="15", attack_bonus="5", damage="1d8+3 slashing",
                challenge=hero_level)  # fmt: skip
    people = [(f"Hero {i}", "party", hero) for i in range(1, heroes + 1)]
    foe = [
        (
            f"Foe {i}",
            "foes",
            card(hp="12/12", ac="13", attack_bonus="4", damage="1d6+2 piercing", challenge=cr),
        )
        for i, cr in enumerate(challenges, 1)
    ]
    return fight(*people, *foe)


def test_the_budget_reads_the_sheets_and_says_what_each_table_says() -> None:
    # Four level-3 heroes against four CR 1/2 foes: 400 XP, x2 for four foes: 800, medium.
    found = xp_budget(party_against("1/2", "1/2", "1/2", "1/2"), "party")
    assert found is not None
    assert (found.says, found.band) == ("medium", Band.EASY)
    assert found.lines == (
        "XP 2014: 800 (400 x2): medium · easy 300, medium 600, hard 900, deadly 1,600",
        "XP 2024: 400: under low · low 600, moderate 900, high 1,600",
    )
    deadly = xp_budget(party_against("5", "2"), "party")  # 2,250 x1.5 = 3,375
    assert deadly is not None and deadly.says == "deadly" and "over high" in deadly.lines[1]


def test_no_level_or_no_challenge_means_no_budget_and_one_missing_is_said() -> None:
    assert xp_budget(party_against("1/2", hero_level=""), "party") is None
    assert xp_budget(party_against(""), "party") is None
    found = xp_budget(party_against("1/2", ""), "party")
    assert found is not None and found.lines[-1].startswith("(1 left out")


def test_a_system_without_a_table_has_no_budget_by_default() -> None:
    from rules.system import RuleSystem

    assert RuleSystem.xp_budget(get_system("d20"), fight(), "party") is None


def test_the_lines_set_the_budget_beside_the_forecast_and_say_where_they_differ() -> None:
    # One CR 1/2 foe against four level-3 heroes: "under easy" by the table, and the
    # simulation agrees it is trivial (nobody drops): no line of disagreement.
    easy = party_against("1/2")
    said = lines(easy, forecast(easy, runs=200, seed=4))
    assert said[0].startswith("Trivial: party wins 100%")
    assert said[1].startswith("XP 2014: 100 (100 x1): under easy")
    assert len(said) == 3
    # A lone level-1 hero against a CR 1/4 foe with a mean hit: the table says hard (50 XP,
    # x1.5 for a party under three), the simulation deadly, and says why.
    hero = card(HERO, hp="6/6", ac="10", attack_bonus="2", damage="1d4 piercing",
                challenge="wizard 1")  # fmt: skip
    brute = card(hp="30/30", ac="15", attack_bonus="6", damage="2d6+4 slashing", challenge="1/4")
    lone = fight(("Wren", "party", hero), ("Brute", "foes", brute))
    said = lines(lone, forecast(lone, runs=200, seed=4))
    assert said[0].startswith("Deadly: party wins")
    assert (
        said[-1] == "XP says hard; the simulation: deadly, the party wins 0%, a hero drops in 100%"
    )


def test_the_demos_party_and_foes_have_a_budget_and_bare_sheets_none() -> None:
    state = build().state
    found = xp_budget(state, "party")
    assert found is not None and found.lines[0].startswith("XP 2014: ")
    bare = fight(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    assert xp_budget(bare, "party") is None  # no challenge or level written
