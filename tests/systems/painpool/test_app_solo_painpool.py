"""A solo Pain Pool fight in the app: the player plays Bo by keys, the tracker plays the
Ogre (Despair, striking back), until the fight is over: here Bo has no boon left."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant, SetSolo
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.painpool.events import damage_targets
from rules.systems.painpool.roll import PainPoolRolled
from rules.systems.painpool.sheet import ChallengeSheet, HeroSheet, parse_boons
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.summary import SummaryScreen
from tracker.session import EncounterSession

BIG = (120, 40)
TAKE_DAMAGE = 2  # its place in the s menu


def bridge() -> History:
    history = History(new_encounter("Bridge", "painpool"))
    bo = HeroSheet(boons=parse_boons("Arm +1d pow; Aim +2d pre; Wit +1d pos; Sing +2d pos"))
    ogre = ChallengeSheet(pool=4, tokens=6)
    for name, side, sheet in (("Bo", "heroes", bo), ("Ogre", "challenge", ogre)):
        command = AddCombatant(name=name, side=side, sheet=sheet)
        history.commit(decide(history.state, command, None))
    return history


def settling_keys(app: TrackerApp) -> list[str]:
    """What the player presses for the open roll: d for a win, or the damage down the boons."""
    state = app.session.state
    roll = state.last_roll
    if not isinstance(roll, PainPoolRolled) or state.last_roll_applied:
        return []
    if roll.tokens_lost:
        return ["d"]
    targets = damage_targets(state.combatant("c1").sheet)
    if not roll.hero_damage or not targets:
        return []
    keys, due = ["s", *["down"] * TAKE_DAMAGE, "enter"], roll.hero_damage
    for _, room in targets:  # one field per boon or cascade, in the sheet's order
        keys += [*str(min(room, due)), "tab"]
        due -= min(room, due)
    return [*keys, "enter"]


async def test_a_solo_challenge_played_by_keys_to_the_end_of_the_fight(tmp_path: Path) -> None:
    session = EncounterSession(bridge(), SeededDice(7), tmp_path / "bridge.fight")
    session.execute(SetSolo("challenge"))
    app = TrackerApp(session, saves=tmp_path)
    seen: list[str] = []
    async with app.run_test(size=BIG) as pilot:
        for _ in range(40):
            if app.session.outcome().over:
                break
            await pilot.press("r", "enter")
            await pilot.pause()
            for _ in range(2):  # Bo's own roll, then the Ogre's answer
                keys = settling_keys(app)
                if keys:
                    await pilot.press(*keys)
                    await pilot.pause()
                seen.append(screen_text(app))
        # Every boon of Bo's crossed off: nothing left to take damage on, out of the fight.
        assert app.session.outcome().headline == "Fight over: challenge won"
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert "Fight over: challenge won" in text and "✗ spent" in text
        log = "\n".join(seen)
        assert "⚙ Ogre (steady): strikes back at Bo (who just acted against it)" in log
        assert "⚙ Ogre (steady): spends Despair: Bo would take" in log
        assert "Bo takes damage: " in log  # the player's own Take damage dialog
