"""The end of a fight in LiveHack at 80x24, after its last blow by keys: n refused then
confirmed, t refused, the summary in the palette, a solo side stopped (moved from
tests/app/test_app_end_of_fight.py, which plays every system's last blow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant, AddCondition, SetSolo
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.events import SoloChose
from tests.app.support import from_palette, until
from tests.app.test_app_end_of_fight import SMALL, make_app, notices
from tests.screen import screen_text
from tests.systems.livehack.last_blow import BLOW_KEYS, FACES
from tests.systems.livehack.last_blow import build as livehack
from tracker.screens.confirm import ConfirmScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.summary import SummaryScreen


@pytest.mark.slow
async def test_n_stops_at_the_end_and_asks_before_playing_on(tmp_path: Path) -> None:
    app = make_app(tmp_path, livehack(), FACES)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press(*BLOW_KEYS)
        await pilot.pause()
        await pilot.press("escape")  # the summary
        await pilot.pause()
        records = len(app.session.history.records)
        await pilot.press("n")
        await pilot.pause()
        assert len(app.session.history.records) == records  # the turn did not end
        assert "Fight over: party won: n no longer ends the turn" in notices(app)
        assert isinstance(app.screen, EncounterScreen)
        await pilot.press("t")  # nothing left to roll either
        await pilot.pause()
        assert "Fight over: party won: nothing left to roll" in notices(app)
        assert isinstance(app.screen, EncounterScreen)

        await pilot.press("n")  # again: a small dialog asks
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Play on with the next turn anyway?" in screen_text(app)
        await pilot.press("n")  # no
        await pilot.pause()
        assert len(app.session.history.records) == records
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("y")  # yes: the GM plays on, deliberately
        await pilot.pause()
        assert app.session.state.current_id == "c2"
        assert isinstance(app.screen, EncounterScreen)
        await pilot.press("n")  # and goes on without being asked again
        await pilot.pause()
        assert app.session.state.round == 2

        await pilot.press("u", "u", "u")  # undo the turns and the blow: the fight is on again
        await pilot.pause()
        assert "Fight over" not in screen_text(app).splitlines()[0]
        assert "▶ Orla's turn" in screen_text(app)


async def test_the_summary_is_in_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path, livehack(), ())
    async with app.run_test(size=SMALL) as pilot:
        await from_palette(pilot, "Fight summary")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        assert "The fight so far (not over)" in screen_text(app)  # any time, not only at the end


async def test_the_quick_turn_refuses_an_actor_out_of_the_fight(tmp_path: Path) -> None:
    history = livehack()
    history.commit(decide(history.state, AddCondition("c1", "Dying"), ScriptedDice([])))
    history.commit(decide(history.state, AddCombatant(name="Brak", side="party"), None))
    app = make_app(tmp_path, history, ())
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert "Orla is out of the fight (dying): n passes its turn" in notices(app)


async def test_an_encounter_opened_over_shows_it_without_the_summary(tmp_path: Path) -> None:
    history = livehack()
    history.commit(decide(history.state, AddCondition("c2", "Dead"), ScriptedDice([])))
    app = make_app(tmp_path, history, ())
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert "Fight over: party won" in screen_text(app).splitlines()[0]


async def test_a_solo_side_plays_no_more_once_the_fight_is_over(tmp_path: Path) -> None:
    history = livehack()
    history.commit(decide(history.state, SetSolo("foes"), ScriptedDice([])))
    app = make_app(tmp_path, history, FACES)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*BLOW_KEYS)
        await pilot.pause()
        await pilot.press("escape", "n", "n", "y")  # the GM plays on to the Goblin's turn
        await pilot.pause()
        state = app.session.state
        assert state.current_id == "c2"  # the dying Goblin's turn: the tracker passes nothing
        last = app.session.history.applied_in_effect()[-1]
        assert not any(isinstance(event, SoloChose) for event in last.events)


async def test_applying_from_the_question_that_ends_the_fight_ends_no_turn(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, livehack(), (11, 1, 1, 1) * 2)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("t", "enter", "escape")  # a hit
        await pilot.pause()
        await pilot.press("d")  # its damage roll; the blow not applied yet
        await pilot.pause()
        assert "waiting (d)" in screen_text(app)
        await pilot.press("n")  # asks first
        await pilot.pause()
        assert "Not applied yet" in screen_text(app)
        await pilot.press("d")  # applied from the question: the Goblin falls
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.session.outcome().over
        assert app.session.state.current_id == "c1"  # still Orla's turn: the fight is over
        assert app.session.state.round == 1
        assert isinstance(app.screen, SummaryScreen)  # the summary instead
        assert "Fight over: party won" in screen_text(app)
