"""A Beer Run fight on solo, by keys, to its end (moved from tests/app/test_app_solo.py)."""

from __future__ import annotations

from pathlib import Path

from rules.dice import SeededDice
from rules.history import History
from rules.systems.beerrun.decide import pending_now
from rules.systems.beerrun.sheet import BeerRunSheet, parse_abilities
from rules.systems.beerrun.solo import in_the_fight
from tests.app.test_app_solo import BIG, history_of, make_app, solo_on
from tests.screen import screen_text
from tracker.session import EncounterSession


def alley() -> History:
    return history_of(
        "beerrun",
        [
            (
                "Orla",
                "heroes",
                BeerRunSheet(
                    abilities=parse_abilities("Body: Fencing d8, Health d6; Mind: Wits d6"),
                    intensity=8,
                ),
            ),
            (
                "Thug",
                "foes",
                BeerRunSheet(
                    abilities=parse_abilities("Body: Brawl d8, Health d6; Mind: Cunning d4"),
                    intensity=6,
                ),
            ),
        ],
    )


async def test_a_beer_run_solo_fight_by_keys_runs_to_its_end(tmp_path: Path) -> None:
    app = make_app(tmp_path, alley(), SeededDice(11))
    async with app.run_test(size=BIG) as pilot:
        session: EncounterSession = app.session  # type: ignore[attr-defined]
        await solo_on(pilot, 1, policy_steps=2)  # the Thug plays cautious
        text = screen_text(app)
        assert "⚙ Thug (cautious): picks a conflict goal: drive Orla off" in text
        assert "paid: Thug" in text

        def over() -> bool:
            return not all(in_the_fight(c) for c in session.state.combatants)

        for _ in range(12):
            await pilot.press("s", "down", "down", "enter")  # Build pool, for Orla (selected)
            await pilot.pause()
            await pilot.press("enter")
            await pilot.press("r", "enter")
            await pilot.pause()
            while pending_now(session.state):
                await pilot.press("d")  # Orla's pips; the tracker lands the Thug's
                await pilot.pause()
            if over():
                break
            await pilot.press("n")
            await pilot.pause()
        assert over()
        text = screen_text(app)
        assert "⚙ Thug (cautious)" in text
