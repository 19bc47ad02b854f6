"""A solo Fatigue & Thresholds fight in the app: the player plays Ann by keys, the tracker
plays the foes, until one side is out of the fight."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant, SetSolo
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.fatigue.sheet import FatigueSheet, Skill, Weapon
from rules.systems.fatigue.solo import out_of_fight
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.summary import SummaryScreen
from tracker.session import EncounterSession

BIG = (120, 40)
SWORD = Weapon(name="Sword", kind="melee", n=3, fumble=8, hits=(10, 20, 40))
AXE = Weapon(name="Axe", kind="melee", n=4, fumble=8, hits=(12, 24, 48))


def bridge() -> History:
    history = History(new_encounter("Bridge", "fatigue"))
    ann = FatigueSheet(skills=(Skill("Sword", 6), Skill("Dodge", 4)), weapons=(SWORD,))
    brute = FatigueSheet(skills=(Skill("Dodge", 1), Skill("Axe", 2)), weapons=(AXE,))
    for name, side, sheet in (("Ann", "party", ann), ("Brute", "foes", brute)):
        command = AddCombatant(name=name, side=side, sheet=sheet)
        history.commit(decide(history.state, command, None))
    return history


async def test_a_solo_fight_played_by_keys_to_its_end(tmp_path: Path) -> None:
    session = EncounterSession(bridge(), SeededDice(1), tmp_path / "bridge.fight")
    session.execute(SetSolo("foes"))
    app = TrackerApp(session, saves=tmp_path)
    seen: list[str] = []
    async with app.run_test(size=BIG) as pilot:
        for _ in range(30):
            state = app.session.state
            if app.session.outcome().over:
                break
            assert state.current_id == "c1"  # the Brute's turns play themselves
            for keys in (("r", "enter"), ("n",)):
                if "to pay (d): Ann" in screen_text(app):
                    await pilot.press("d")  # what Ann owes: the Brute's hit, or her fumble
                    await pilot.pause()
                await pilot.press(*keys)
                await pilot.pause()
                seen.append(screen_text(app))
        brute = app.session.state.combatant("c2")
        ann = app.session.state.combatant("c1")
        assert out_of_fight(brute) or out_of_fight(ann), "the fight did not end"
        # The Brute is down (seed 1; with issue 39's F4-02 a fumble can take Health, so the
        # old seed's Brute fumbled itself down before Ann paid anything): the header says who
        # won, and the summary opened by itself.
        assert app.session.outcome().headline == "Fight over: party won"
        assert isinstance(app.screen, SummaryScreen)
        assert "✗ down" in screen_text(app)
        log = "\n".join(seen)
        assert "⚙ Brute (steady): attacks Ann (the next foe in the order) with Axe" in log
        assert "⚙ Brute (steady): its attack is made: ends its turn" in log
        assert "⚙ Brute (steady): pays for" in log
        assert "Ann pays " in log  # the player's own d
