"""LiveHack's solo play in the app, by keys: the roll dialog's preview of what the tracker
will do, and a whole solo fight (moved from tests/app/test_app_solo.py)."""

from __future__ import annotations

from pathlib import Path

from rules.dice import SeededDice
from rules.events import SoloChose
from rules.history import History
from rules.systems.livehack.solo import is_out
from rules.systems.livehack.system import LiveHackRolled, LiveHackSheet
from tests.app.test_app_solo import BIG, history_of, make_app, solo_on
from tests.screen import screen_text
from tracker.session import EncounterSession


def cellar() -> History:
    return history_of(
        "livehack",
        [
            ("Orla", "heroes", LiveHackSheet(attack=4, reflex=3, fortitude=2, con=1, dexterity=1)),
            ("Brak", "heroes", LiveHackSheet(attack=3, reflex=1, fortitude=3, con=2)),
            ("Ogre", "foes", LiveHackSheet(attack=4, reflex=2, fortitude=3, con=2)),
        ],
    )


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
