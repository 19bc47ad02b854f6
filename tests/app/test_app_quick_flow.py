"""The two-key flow, by keys, in each system's demo: t, Enter rolls, Enter applies, n."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import registry
from rules.dice import SeededDice
from rules.history import History
from rules.registry import get_system
from rules.testing import kit
from tracker.app import TrackerApp
from tracker.session import EncounterSession

BIG = (120, 40)


def make_app(tmp_path: Path, history: History, seed: int) -> TrackerApp:
    session = EncounterSession(history, SeededDice(seed), tmp_path / "quick.fight")
    return TrackerApp(session, saves=tmp_path)


async def flow(pilot, app: TrackerApp) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """The four keys, with the screen after each and the records each one added."""
    seen = []
    for key in ("t", "enter", "enter", "n"):
        before = len(app.session.history.records)
        await pilot.press(key)
        await pilot.pause()
        seen.append((type(app.screen).__name__, len(app.session.history.records) - before))
    return seen


FOUR_KEYS = [
    ("FormScreen", 0),  # t: the roll dialog, preset
    ("ApplyResultScreen", 1),  # Enter: rolled; what applying would do, to confirm
    ("EncounterScreen", 1),  # Enter: applied
    ("EncounterScreen", 1),  # n: the turn (or round) ends
]


@pytest.mark.parametrize("system", registry.names())
async def test_four_keys_in_every_demo(tmp_path: Path, system: str) -> None:
    # The dice seed for a roll with a consequence, and keys that settle what the demo leaves
    # waiting: the system's test kit (rules.testing). LiveHack has a closer test in its folder.
    seed, before = kit(system).quick_seed, kit(system).quick_keys
    demo = registry.part(system, "demo")
    assert demo is not None, f"{system} has no demo"
    if not before and get_system(system).pending(demo.build().state):
        before = ("d",)  # the demo's result waits: apply it first
    app = make_app(tmp_path, demo.build(), seed)
    async with app.run_test(size=BIG) as pilot:
        for key in before:
            await pilot.press(key)
        await pilot.pause()
        round_before = app.session.state.round
        assert await flow(pilot, app) == FOUR_KEYS
        state = app.session.state
        assert state.last_roll is not None
        if not get_system(state.system).uses_turn_order:
            assert state.round == round_before + 1  # n ends the round there
