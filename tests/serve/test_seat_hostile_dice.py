"""Hostile dice typed on a served seat: one inert line on that seat, and the table's fight
is untouched; dice too big to work out, typed on seats over SSH and in a browser, leave the
GM's screen answering; a seat's rolls are rate limited, and a spectator has no line to type
them on."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rules.commands import RollDice
from rules.errors import Rejected
from rules.notation import answer, exact
from rules.plain_dice import DiceRolled
from tests.app.support import until
from tests.app.test_app_command_line import type_line
from tests.hostile_text import CONTROL_DICE, HOSTILE_DICE, STALLING_DICE, unsafe
from tests.screen import screen_text
from tests.serve.serve_helpers import Client, encounter
from tests.serve.serve_helpers import until as until_served
from tests.serve.web_helpers import Browser, serve_web
from tracker.screens.command_prompt import CommandLineScreen
from tracker.serve import limits
from tracker.serve.limits import Bucket
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import SeatSession, Table


@pytest.mark.parametrize(("line", "told"), HOSTILE_DICE)
async def test_hostile_dice_on_the_gm_seat_get_one_inert_line(
    tmp_path: Path, line: str, told: str
) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    before = len(session.history.records)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"dice {line}")
        assert isinstance(app.screen, CommandLineScreen)
        text = screen_text(app)
        assert told in text and not unsafe(text, "\n")
        await type_line(pilot, "")  # the seat still answers
        await pilot.press("escape", "colon")
        await pilot.pause()
        assert app.return_code is None and app.is_running
    assert len(session.history.records) == before


@pytest.mark.parametrize("line", CONTROL_DICE)
async def test_control_characters_in_dice_on_the_gm_seat_show_nothing_unsafe(
    tmp_path: Path, line: str
) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"dice {line}")
        assert not unsafe(screen_text(app), "\n")
        assert app.return_code is None and app.is_running


async def test_a_chart_asked_for_on_the_gm_seat(tmp_path: Path) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "dice 2d6 chart")
        await until(pilot, lambda: "🎲 2d6: " in screen_text(app), "the roll in the seat's log")
        assert " 6-7 " + "█" * 20 + " 30.6%" in screen_text(app)


class Work:
    """Steps of exact-odds work (``rules.notation.exact.Budget``) paid, by thread: what a
    line costs the loop every seat shares, counted rather than timed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_thread: dict[int, int] = {}
        spend = exact.Budget.spend

        def counted(budget: exact.Budget, steps: int) -> None:
            spend(budget, steps)  # a step refused is never taken: only those paid count
            key = threading.get_ident()
            self.by_thread[key] = self.by_thread.get(key, 0) + steps

        monkeypatch.setattr(exact.Budget, "spend", counted)

    def on_loop(self) -> int:
        return self.by_thread.get(threading.get_ident(), 0)

    def elsewhere(self) -> int:
        return sum(self.by_thread.values()) - self.on_loop()


async def gm_note(gm: Client, number: int) -> None:
    """The GM types a note, and it reaches the GM's screen."""
    gm.type(f":note probe {number}\r")
    await until_served(lambda: f"probe {number}" in gm.text())


@pytest.mark.slow
async def test_seats_typing_dice_too_big_to_work_out_leave_the_gm_answering(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46: each of these once took the loop every seat shares for seconds (the last
    for more than 30): typed by a player over SSH, by a player and a spectator in a
    browser, the GM's note still answers while they are worked out. The loop pays at most a
    moment's work for each line (``answer.QUICK`` steps, some 15 ms); the rest is worked out
    in a thread. Counted in steps, not seconds: bench/dice.py times a step."""
    work = Work(monkeypatch)
    web = await serve_web(tmp_path)
    served = web.served
    try:
        gm = await Client.join(served, "gm")
        alice = await Client.join(served, "alice")
        cara = await Browser.join(web, web.link("player", "Cara"))
        dan = await Browser.join(web, web.link("spectator", "Dan"))
        fair = served.server.fair
        probes = 0
        for line in STALLING_DICE:
            before = work.on_loop()
            alice.type(f":roll {line}\r")
            await cara.type(f":roll {line}\r")
            await dan.type(f":roll {line}\r")
            # The GM's keys go first and hold the seats' (tracker.serve.limits.Fair): the
            # note is typed once every seat's keys are handed out, the Enters among them, so
            # it waits on whatever their lines cost the loop.
            await until_served(lambda: fair.waiting() == 0)
            await gm_note(gm, probes)
            await until_served(
                lambda: all("too many possible totals" in seat.text() for seat in (alice, cara))
            )
            await gm_note(gm, probes + 1)
            probes += 2
            # Two seats typed the line (the spectator has no line to type it on): at most a
            # moment's work each on the loop.
            assert work.on_loop() - before <= 2 * answer.QUICK, line
            alice.type("\x1b")
            await cara.type("\x1b")
            await until_served(
                lambda: not any("too many possible" in seat.text() for seat in (alice, cara))
            )
        # The rest of the lines' work was done, in threads.
        assert work.elsewhere() > len(STALLING_DICE) * answer.QUICK
        assert not [
            e for e in served.session.history.effective_events() if isinstance(e, DiceRolled)
        ]
        assert "too many" not in dan.text() and "probe" in dan.text()  # watched, typed nothing
    finally:
        await web.close()


def test_a_players_rolls_pass_a_few_at_once_then_one_a_second() -> None:
    session, _ = encounter()
    table = Table(session)
    now = [0.0]
    seat = table.join("player", "Alice")
    seat.commands = Bucket(limits.COMMANDS_PER_SECOND, limits.COMMAND_BURST, lambda: now[0])
    alice = SeatSession(table, seat)
    for _ in range(int(limits.COMMAND_BURST)):
        alice.execute(RollDice("1d6"))
    rolls = len(session.history.records)
    with pytest.raises(Rejected, match="Too many rolls and commands at once"):
        alice.execute(RollDice("1d6"))
    assert len(session.history.records) == rolls  # refused before any work
    now[0] += 1 / limits.COMMANDS_PER_SECOND
    alice.execute(RollDice("1d6"))
    gm = SeatSession(table, table.join("gm", "GM"))
    for _ in range(3 * int(limits.COMMAND_BURST)):  # the GM's are not counted
        gm.execute(RollDice("1d6"))


async def test_a_spectator_has_no_line_to_roll_or_change_anything_on(tmp_path: Path) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("spectator", "Dan"), saves=tmp_path)
    before = len(session.history.records)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"roll 1d1000*1d1000", "enter")
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, CommandLineScreen)  # no `:` line
        # Nor does the palette offer one, or anything that rolls (a key typed may have
        # opened the palette over the encounter screen: its offers are that screen's).
        encounter_screen = next(s for s in app.screen_stack if hasattr(s, "palette_commands"))
        offered = encounter_screen.palette_commands()
        assert {action for _, action, _ in offered} <= {"help", "quit", "zoom", "fight_summary"}
    assert len(session.history.records) == before
    watching = SeatSession(table, table.join("spectator", "Eve"))
    with pytest.raises(Rejected, match="Spectators watch"):
        watching.execute(RollDice("1d6"))
