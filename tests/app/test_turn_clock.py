"""The turn clock at 80x24, by keys: the time in this turn beside the header, the GM's limit
(`:clock 2m`) counting down and only warning past it, `:clock off`, one `u` undoing it, the
stamps saved and read again, each turn's time in the summary and the export, and a break
(the fight closed for a day) left out of both."""

from __future__ import annotations

from pathlib import Path

from rules import turn_times
from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.history import History
from tests.app.support import fight_of, make_app, until
from tests.app.test_initiative import line
from tests.app.test_layout import SMALL
from tests.picks import a_system, keeps_added_order
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.summary import SummaryScreen
from tracker.session import EncounterSession
from tracker.store import storage
from tracker.store.export import to_json, to_markdown
from tracker.widgets.turn_clock import TurnClock


class Clock:
    """A wall clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def two_of_them(tmp_path: Path) -> tuple[TrackerApp, Clock]:
    history = fight_of(
        a_system(keeps_added_order),
        AddCombatant(name="Orla", side="party"),
        AddCombatant(name="Goblin"),
    )
    app = make_app(tmp_path, ScriptedDice([1] * 50), history)
    clock = Clock()
    app.session.clock = clock  # type: ignore[method-assign]
    return app, clock


def top_line(app: TrackerApp) -> str:
    return screen_text(app).splitlines()[0]


def clock_of(app: TrackerApp) -> TurnClock:
    return app.screen.query_one(TurnClock)


async def test_the_clock_counts_the_turn_from_when_it_was_passed(tmp_path: Path) -> None:
    app, clock = two_of_them(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        assert "⏱" not in top_line(app)  # the first turn's start is unknown: no clock
        await line(pilot, "next")
        clock.now += 75
        await until(pilot, lambda: "⏱ 1:15" in top_line(app), "the clock at 1:15")


async def test_a_limit_counts_down_and_only_warns_once_past_it(tmp_path: Path) -> None:
    app, clock = two_of_them(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await line(pilot, "clock 2m")
        assert "A turn's limit is 2:00" in screen_text(app)
        await line(pilot, "next")
        clock.now += 30
        await until(pilot, lambda: "⏱ 1:30 left" in top_line(app), "1:30 left")
        clock.now += 100
        await until(pilot, lambda: "⏱ 0:10 over" in top_line(app), "0:10 over")
        assert clock_of(app).has_class("-over")
        await until(pilot, lambda: "past its limit of 2:00" in screen_text(app), "the warning")
        clock.now += 5
        await until(pilot, lambda: "⏱ 0:15 over" in top_line(app), "0:15 over")
        warnings = [n for n in app._notifications if "past its limit" in n.message]
        assert len(warnings) == 1  # once a turn, never again each second
        assert app.session.state.current_id == "c2"  # no turn forced
        await line(pilot, "clock off")
        await until(pilot, lambda: "⏱ 2:15" in top_line(app), "no limit")
        assert not clock_of(app).has_class("-over")


async def test_one_u_takes_the_limit_back(tmp_path: Path) -> None:
    app, _ = two_of_them(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "next")
        await line(pilot, "clock 90s")
        await until(pilot, lambda: "⏱ 1:30 left" in top_line(app), "1:30 left")
        await pilot.press("u")
        await until(pilot, lambda: "⏱ 0:00" in top_line(app), "the limit undone")
        assert app.session.state.options.turn_limit == 0


async def test_a_bad_limit_gets_one_line_and_changes_nothing(tmp_path: Path) -> None:
    app, _ = two_of_them(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        records = len(app.session.history.records)
        await pilot.press("colon", *"clock soon", "enter")
        await until(pilot, lambda: "a turn's limit is like 90s" in screen_text(app), "refusal")
        assert len(app.session.history.records) == records


async def test_each_turns_time_is_in_the_summary_and_the_export(tmp_path: Path) -> None:
    app, clock = two_of_them(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "next")  # the Goblin's turn: 40 s
        clock.now += 40
        await line(pilot, "next")  # Orla's: 150 s
        clock.now += 150
        await line(pilot, "next")
        assert isinstance(app.screen, EncounterScreen)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await until(pilot, lambda: "Longest" in screen_text(app), "the turn times")
        text = screen_text(app)
        assert "Orla 2:30 over 1 turn" in text
        assert text.index("Orla 2:30") < text.index("Goblin 0:40")
        history = app.session.history
        assert "Orla 2:30 over 1 turn (longest 2:30)" in to_markdown(history)
        times = to_json(history)["turn_times"]
        assert times[0] == {
            "id": "c1",
            "name": "Orla",
            "seconds": 150,
            "turns": 1,
            "longest": 150,
        }


async def test_the_stamps_are_saved_and_the_replay_needs_no_clock(tmp_path: Path) -> None:
    app, clock = two_of_them(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "next")
        clock.now += 60
        await line(pilot, "next")
    saved = storage.read(tmp_path / "cellar.fight")  # the snapshot and its journal
    assert [r.at for r in saved.applied_in_effect()[-2:]] == [1_000_000.0, 1_000_060.0]
    again = History.from_records(list(saved.records))  # folded with no clock
    assert again.state == app.session.history.state
    assert turn_times.history_turns(again)[-1].seconds == 60


async def test_a_fight_closed_mid_turn_and_opened_a_day_later_leaves_the_break_out(
    tmp_path: Path,
) -> None:
    app, clock = two_of_them(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "next")  # the Goblin's turn: 2 minutes, a note, then the fight closed
        clock.now += 120
        await line(pilot, "note the goblin ponders")
        await until(pilot, lambda: "⏱ 2:00" in top_line(app), "2:00 played")
        await pilot.press("q")
    opened = storage.open_save(tmp_path / "cellar.fight")
    session, _ = EncounterSession.resume(opened, ScriptedDice([1] * 50))
    later = Clock()
    later.now = clock.now + 24 * 3600  # a day later
    session.clock = later  # type: ignore[method-assign]
    again = TrackerApp(session, saves=tmp_path)
    async with again.run_test(size=SMALL) as pilot:
        # Not 24:02:00: the day closed is no turn being played.
        await until(pilot, lambda: "⏱ 2:00" in top_line(again), "2:00 as it was left")
        later.now += 30
        await until(pilot, lambda: "⏱ 2:30" in top_line(again), "2:30")
        await line(pilot, "note it attacks")  # saved: the clock goes on, it does not jump
        later.now += 5
        await until(pilot, lambda: "⏱ 2:35" in top_line(again), "2:35")
        await line(pilot, "next")
        await pilot.press("f")
        await until(pilot, lambda: isinstance(again.screen, SummaryScreen), "the summary")
        await until(pilot, lambda: "Longest" in screen_text(again), "the turn times")
        # The summary reads the records alone: the day's gap between the two notes is a
        # break, so it has the 2 minutes before it and the 5 s after the second note (the
        # 30 s between the opening and that note are the clock's: nothing marks an opening).
        assert "Goblin 2:05 over 1 turn" in screen_text(again)
