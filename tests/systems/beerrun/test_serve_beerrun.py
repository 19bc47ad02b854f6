"""A served Beer Run table: rolling the round is the GM's, so a player is offered no roll."""

from __future__ import annotations

from rules.visibility import Viewer
from tracker.screens.encounter_keys.roles import may_use

ALICE = Viewer(role="player", name="Alice")


def test_a_player_is_offered_no_roll() -> None:
    assert not may_use(ALICE, "beerrun", "roll")  # rolling the round is the GM's
    assert not may_use(ALICE, "beerrun", "quick_turn")
