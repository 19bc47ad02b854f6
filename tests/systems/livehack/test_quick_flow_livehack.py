"""The quick flow (t, Enter, Enter, n) in LiveHack's demo, seen closely: the foe chosen, the
damage roll, Escape and a miss (moved from tests/app/test_app_quick_flow.py)."""

from __future__ import annotations

from pathlib import Path

from pytest import MonkeyPatch

from rules.systems.livehack import demo as livehack
from tests.app.support import until
from tests.app.test_app_quick_flow import BIG, make_app
from tests.screen import screen_text
from tracker.screens.apply_result import ApplyResultScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen


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


async def test_a_miss_has_nothing_to_apply(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    # The note stays up as long as a busy machine takes to read it (it expires by the clock).
    monkeypatch.setattr("tracker.app.SECONDS_TO_READ", (120.0, 120.0))
    app = make_app(tmp_path, livehack.build(), seed=1)  # seed 1: Orla misses
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("t", "enter")
        await until(pilot, lambda: "no consequence to apply" in screen_text(app), "the note")
        assert isinstance(app.screen, EncounterScreen)
