"""Solo play in the app, by keys only: the S dialog, the ⚙ marks, and whole solo fights."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, new_encounter
from rules.events import SoloChose
from rules.history import History
from rules.systems.livehack.solo import is_out
from rules.systems.livehack.system import LiveHackRolled, LiveHackSheet
from tests.app.support import until
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.session import EncounterSession

BIG = (120, 40)


def history_of(system: str, people: list[tuple[str, str, object]]) -> History:
    history = History(new_encounter("Solo", system))
    for name, side, sheet in people:
        command = AddCombatant(name=name, side=side, sheet=sheet)
        history.commit(decide(history.state, command, ScriptedDice([])), f"add {name}")
    return history


def make_app(tmp_path: Path, history: History, dice) -> TrackerApp:
    session = EncounterSession(history, dice, tmp_path / "solo.fight")
    return TrackerApp(session, saves=tmp_path)


def cellar() -> History:
    return history_of(
        "livehack",
        [
            ("Orla", "heroes", LiveHackSheet(attack=4, reflex=3, fortitude=2, con=1, dexterity=1)),
            ("Brak", "heroes", LiveHackSheet(attack=3, reflex=1, fortitude=3, con=2)),
            ("Ogre", "foes", LiveHackSheet(attack=4, reflex=2, fortitude=3, con=2)),
        ],
    )


async def solo_on(pilot, side_row: int, policy_steps: int = 0) -> None:
    """S, move to the side, turn it over to the tracker, pick a policy, Enter."""
    await pilot.press("S")
    await pilot.pause()
    await pilot.press(*(["down"] * side_row), "right")
    await pilot.pause()
    if policy_steps:
        await pilot.press("down", *(["right"] * policy_steps))
    await pilot.press("enter")
    await pilot.pause()


async def test_the_solo_dialog_turns_a_side_over_and_the_screen_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path, cellar(), SeededDice(5))
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("S")
        await pilot.pause()
        text = screen_text(app)
        assert "Solo play: the tracker plays a side" in text
        assert "Side heroes" in text and "Side foes" in text and "played by you" in text
        await pilot.press("down", "right")  # foes: played by the tracker; the Ogre's row shows
        await pilot.pause()
        assert "⚙ Ogre" in screen_text(app)
        await pilot.press("down", "right", "right")  # the Ogre: Always roll → Aggressive
        await pilot.pause()
        assert "Aggressive: goes for the most hurt or dazed foe" in screen_text(app)
        await pilot.press("enter")
        # The pane's widened Solo column is laid out on a later frame.
        await until(pilot, lambda: "⚙ aggressive" in screen_text(app), "the Solo column")
        text = screen_text(app)
        assert "⚙ solo: foes" in text  # the header
        ogre = next(line for line in text.splitlines() if " Ogre " in line)
        assert "⚙ aggressive" in ogre  # the combatants pane's Solo column
        assert "The tracker now plays the side foes" in text


async def test_the_solo_dialog_opens_and_closes_on_an_empty_encounter(tmp_path: Path) -> None:
    app = make_app(tmp_path, history_of("livehack", []), SeededDice(5))
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("S")
        await pilot.pause()
        assert "Solo play: the tracker plays a side" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "Solo play" not in screen_text(app)


async def test_the_roll_dialog_shows_what_the_npc_will_do(tmp_path: Path) -> None:
    app = make_app(tmp_path, cellar(), SeededDice(5))
    async with app.run_test(size=BIG) as pilot:
        await solo_on(pilot, 1, policy_steps=1)  # the Ogre takes zero
        await pilot.press("r")
        await pilot.pause()
        text = screen_text(app)  # the preview line, before the dice
        assert "⚙ Ogre (take-zero): defends (Reflex): takes zero:" in text
        assert "Orla +4 vs Ogre Reflex +2, before the dice" in text
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "⚙ Ogre (take-zero): defends (Reflex): takes zero" in text  # the log
        last = app.session.state.last_roll  # type: ignore[attr-defined]
        assert isinstance(last, LiveHackRolled) and last.defender.take == "zero"
        await pilot.press("u")  # one undo takes the roll and the choice back
        await pilot.pause()
        assert app.session.state.last_roll is None  # type: ignore[attr-defined]


async def test_a_livehack_solo_fight_by_keys_runs_to_its_end(tmp_path: Path) -> None:
    app = make_app(tmp_path, cellar(), SeededDice(21))
    async with app.run_test(size=BIG) as pilot:
        session: EncounterSession = app.session  # type: ignore[attr-defined]
        await solo_on(pilot, 1)

        def down(side: str) -> bool:
            return all(is_out(c) for c in session.state.combatants if c.side == side)

        for _ in range(120):
            if down("foes") or down("heroes"):
                break
            me = session.state.current
            assert me is not None and me.side == "heroes"  # the tracker played the Ogre
            if not session.system.cannot_act(session.state, me):  # type: ignore[attr-defined]
                await pilot.press("r", "enter")  # attack the Ogre (the default target)
                await pilot.pause()
                if session.state.last_roll.success:  # type: ignore[union-attr]
                    # The damage roll: the dialog opens on it (Against: Fortitude).
                    await pilot.press("r", "enter")
                    await pilot.pause()
                    if session.state.last_roll.success:  # type: ignore[union-attr]
                        await pilot.press("d")
            await pilot.press("n")
            await pilot.pause()
        assert down("foes") or down("heroes")
        reasons = [e.reason for e in session.history.effective_events() if isinstance(e, SoloChose)]
        assert any(r.startswith("attacks Orla") or r.startswith("attacks Brak") for r in reasons)
        assert any(r.startswith("defends (Reflex)") for r in reasons)
