"""A side's possessive, built in one place (``rules.logline.side_possessive``): ``heroes'``,
not ``heroes's``; and every line that names a side's chance builds it there (the replay's
``W`` once said "the heroes's chance")."""

from __future__ import annotations

import pytest

from rules.logline import side_possessive, side_wins
from tests.rules.test_swings import found_by_standing, saved_fight
from tracker.headless.swings_runs import as_lines, as_markdown


@pytest.mark.parametrize(
    ("side", "owner"),
    [
        ("party", "party's"),
        ("heroes", "heroes'"),
        ("foes", "foes'"),
        ("GOBLINS", "GOBLINS'"),
        ("crew", "crew's"),
        ("Red Team", "Red Team's"),
    ],
)
def test_a_side_ending_in_s_takes_the_apostrophe_alone(side: str, owner: str) -> None:
    assert side_possessive(side) == owner


def test_the_swings_report_names_a_plural_side_s_chance_with_its_apostrophe() -> None:
    found, _ = found_by_standing(saved_fight())
    heroes = found._replace(party="heroes")
    assert as_lines(heroes)[0] == "The heroes' chance to win, event by event"
    markdown = as_markdown(heroes, "Pit", 1, lambda text: text)
    assert "The heroes' chance to win, event by event:" in markdown
    assert "heroes's" not in "\n".join(as_lines(heroes)) + markdown
    party = found._replace(party="party")
    assert as_lines(party)[0] == "The party's chance to win, event by event"


def test_a_side_wins_as_a_plural_when_its_name_ends_in_s() -> None:
    assert side_wins("party") == "party wins"
    assert side_wins("heroes") == "heroes win"  # the tuner said "the heroes wins"
