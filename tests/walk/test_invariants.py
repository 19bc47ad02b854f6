"""The walk's checks catch what they are for: a check that cannot fail finds nothing."""

from __future__ import annotations

from pathlib import Path

from msgspec import structs

from rules import registry
from rules.commands import EditCombatant
from rules.encounter import CombatantAdded
from tests.walk import invariants
from tests.walk.world import HIDDEN_ID, Case, build

SYSTEM = registry.names()[0]


async def test_a_gm_only_combatant_shown_to_a_player_is_caught(tmp_path: Path) -> None:
    world = build(Case(SYSTEM, "player", (80, 24)), tmp_path, 1)
    try:
        async with world.app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert invariants.cheap(world) is None
            assert invariants.exported(world) is None
            world.session.execute(EditCombatant(combatant_id=HIDDEN_ID, gm_only=False))
            await pilot.pause()
            assert "Zorbex" in str(invariants.leaked(world))
            assert "Zorbex" in str(invariants.exported(world))
    finally:
        world.close()


async def test_a_change_not_in_the_save_is_caught(tmp_path: Path) -> None:
    world = build(Case(SYSTEM, "gm", (160, 48)), tmp_path, 1)
    try:
        assert invariants.costly(world) is None
        first = world.session.state.combatants[0]
        extra = structs.replace(first, id="c9999", name="Never journalled")
        world.session.history.commit([CombatantAdded(extra)], "add")  # not through the session
        assert "the save reopened from disk differs" in str(invariants.saved(world))
    finally:
        world.close()
