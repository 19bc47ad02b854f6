"""A served Pain Pool table: Hope is a player's to spend, Despair the GM's."""

from __future__ import annotations

from rules.visibility import GM, Viewer
from tracker.screens.encounter_keys.roles import may_use

ALICE = Viewer(role="player", name="Alice")


def test_hope_is_offered_to_a_player_and_despair_only_to_the_gm() -> None:
    assert may_use(GM, "painpool", "system", "despair")
    assert may_use(ALICE, "painpool", "system", "hope")
    assert not may_use(ALICE, "painpool", "system", "despair")
