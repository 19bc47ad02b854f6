"""The two-key flow, by keys, in each system's demo: t, Enter rolls, Enter applies, n."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import registry
from rules.dice import SeededDice
from rules.history import History
from rules.registry import get_system
from rules.systems.fatigue import demo as fatigue
from rules.systems.livehack import demo as livehack
from rules.systems.painpool import demo as painpool
from rules.testing import kit
from tests.screen import screen_text
from tracker import quick_flow
from tracker.app import TrackerApp
from tracker.screens.apply_result import ApplyResultScreen
from tracker.screens.encounter import EncounterScreen
from tracker.screens.form import FormScreen
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


async def test_livehack_four_keys_from_the_demo(tmp_path: Path) -> None:
    app = make_app(tmp_path, livehack.build(), seed=15)  # a hit, and a damage roll that lands
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("t")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        values = form.values()
        # The Goblin Boss, Orla's last target, cannot act: the next foe who can is chosen.
        assert (values["attacker"], values["defender"]) == ("c1", "c3")
        records = len(app.session.history.records)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ApplyResultScreen)
        assert len(app.session.history.records) == records + 1  # rolled
        text = screen_text(app)
        # The hit's result is its damage roll, rolled when applied (*Damage*: "another roll").
        assert "Apply the result?" in text and "rolls dice of its own" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert app.session.state.last_roll.defense == "fortitude"  # type: ignore[union-attr]
        assert "waiting (d): Goblin Sneak takes 2 Wounds" in screen_text(app)
        await pilot.press("d", "n")
        await pilot.pause()
        assert app.session.state.last_roll_applied
        assert app.session.state.current_id == "c2"
        # t, Enter, Enter, d, n: the hit, its damage roll, the table and the turn.
        assert len(app.session.history.records) == records + 4


@pytest.mark.parametrize("system", registry.names())
async def test_four_keys_in_every_demo(tmp_path: Path, system: str) -> None:
    # The dice seed for a roll with a consequence, and keys that settle what the demo leaves
    # waiting: the system's test kit (rules.testing). LiveHack has the test above too.
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


async def test_escape_skips_the_result(tmp_path: Path) -> None:
    app = make_app(tmp_path, livehack.build(), seed=15)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("t", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ApplyResultScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert not app.session.state.last_roll_applied
        await pilot.press("d", "d")  # applying stays possible later: the damage roll, its table
        await pilot.pause()
        assert app.session.state.last_roll_applied


async def test_a_miss_has_nothing_to_apply(tmp_path: Path) -> None:
    app = make_app(tmp_path, livehack.build(), seed=1)  # seed 1: Orla misses
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("t", "enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert "no consequence to apply" in screen_text(app)


def test_the_last_target_comes_from_the_log() -> None:
    history = fatigue.build()
    system = get_system("fatigue")
    state = history.state
    # The demo: the Brute (c3) attacked Mara (c1), then Mara attacked the Raider (c4).
    mara, brute = state.combatant("c1"), state.combatant("c3")
    assert quick_flow.last_target(history, system, mara, state).id == "c4"  # type: ignore[union-attr]
    assert quick_flow.last_target(history, system, brute, state).id == "c1"  # type: ignore[union-attr]
    kell = state.combatant("c2")  # never rolled: the first of another side
    assert quick_flow.last_target(history, system, kell, state).id == "c3"  # type: ignore[union-attr]
    assert quick_flow.roll_parties(state.last_roll) == ["c3", "c1"]  # attacker, defender


def test_without_a_turn_order_the_selected_combatant_acts() -> None:
    history = painpool.build()
    system = get_system("painpool")
    assert quick_flow.roll_preset(history, system, "c1") == {"hero": "c1", "challenge": "c3"}
    # The Juggernaut selected: its field is set; its last foe, the Professor, has acted this
    # exchange (the dialog does not offer him as the hero), so the hero stays the default.
    assert quick_flow.roll_preset(history, system, "c3") == {"challenge": "c3"}
    assert quick_flow.roll_preset(history, system, None) == {}
