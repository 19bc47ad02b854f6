"""Odds on screen in LiveHack: live in the roll dialog as values change, and beside the landed
tier (moved from tests/app/test_app_odds.py, which shows every system's odds)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from rules.dice import ScriptedDice
from rules.odds import Odds, TierOdds
from rules.systems.livehack.system import SYSTEM
from tests.app.support import BIG, add_combatant, make_app, until
from tests.app.test_app_odds import pane_text
from tests.screen import screen_text

LABELS = (("miss", None, -1), ("0-4", 0, 4), ("5-9", 5, 9), ("10-14", 10, 14), ("15+", 15, None))


def fake_odds(extra: int) -> Odds:
    # A stand-in with the system's tiers; a bigger modifier moves weight off "miss".
    shares = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16), Fraction(1, 16)]
    if extra:
        shares = [Fraction(1, 8), Fraction(1, 4), Fraction(1, 4), Fraction(1, 4), Fraction(1, 8)]
    return Odds(
        "livehack",
        tuple(TierOdds(n, lo, hi, p) for (n, lo, hi), p in zip(LABELS, shares, strict=True)),
    )


@pytest.fixture
def odds_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    def odds(state, action, values):
        return fake_odds(int(values.get("attacker_extra") or 0)) if action == "roll" else None

    def last_odds(state):
        return fake_odds(0) if state.last_roll is not None else None

    monkeypatch.setattr(SYSTEM, "odds", odds, raising=False)
    monkeypatch.setattr(SYSTEM, "last_odds", last_odds, raising=False)


async def test_odds_follow_the_dialog_and_stay_beside_the_result(
    tmp_path: Path, odds_hooks: None
) -> None:
    # Ann +8 (boon 10, bane 2) against Bob +1 (3, 2): margin 7, the 5-9 tier.
    app = make_app(tmp_path, ScriptedDice([10, 2, 3, 2]))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await pilot.press("r")
        await until(pilot, lambda: "Odds before the dice" in screen_text(app), "the odds")
        text = screen_text(app)
        assert "50.0%" in text and "12.5%" in text
        await pilot.press("3")  # the attacker's extra modifier: the odds follow
        await until(pilot, lambda: "25.0%" in screen_text(app), "the odds to follow")
        assert "50.0%" not in screen_text(app)
        await pilot.press("backspace", "0", "enter")
        await until(pilot, lambda: "HIT, margin" in screen_text(app), "the roll's line")
        text = screen_text(app)
        assert "Ann vs Bob (vs Reflex) 8 vs 1 HIT, margin +7" in text
        assert "landed in 5-9, which had a 12.5% chance" in pane_text(text, "Consequences")
