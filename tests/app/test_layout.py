"""The layout at any size: the roll log after a resize, and 80x24 with nothing cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button

from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tests.app.support import PATIENCE, make_app, until
from tests.picks import a_demo, a_system, demo_rests, demo_waits
from tests.screen import screen_strips, screen_text
from tracker.app import TrackerApp, reading_time
from tracker.demos import DEMOS
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.waiting import WaitingScreen
from tracker.session import EncounterSession
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.encounter_header import waiting_text
from tracker.widgets.key_bar import KeyBar
from tracker.widgets.roll_log import RollLog

SMALL, LARGE = (80, 24), (160, 48)


def demo_app(demo: str, tmp_path: Path) -> TrackerApp:
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "fight.fight")
    return TrackerApp(session, saves=tmp_path)


def thumb_rows(app: TrackerApp, log: RollLog) -> list[int]:
    """The rows of the log's scrollbar where its thumb shows: Textual draws the thumb as
    reversed blanks, with block characters for its part-filled ends, and the track as
    plain blanks."""
    bar = log.vertical_scrollbar.region
    strips = screen_strips(app)
    cells = [strips[y].crop(bar.x, bar.right) for y in range(bar.y, bar.bottom)]
    return [
        row
        for row, cell in enumerate(cells)
        if cell.text.strip() or any(segment.style and segment.style.reverse for segment in cell)
    ]


def runs(rows: list[int]) -> int:
    """How many unbroken runs ``rows`` (ascending) make."""
    return sum(1 for i, row in enumerate(rows) if i == 0 or rows[i - 1] != row - 1)


async def resize(pilot, size: tuple[int, int]) -> None:
    """The terminal resized, and the screen laid out at the new size, its log at rest."""
    app = pilot.app
    await pilot.resize_terminal(*size)

    def laid_out() -> bool:
        screen = app.screen
        at_rest = not isinstance(screen, EncounterScreen) or log_at_rest(app) is not None
        return tuple(screen.size) == size and at_rest

    await until(pilot, laid_out, f"the screen laid out at {size}")


def log_at_rest(app: TrackerApp) -> RollLog | None:
    """The encounter's log once what it was given is laid out: its scrollbar's thumb, which
    may lag a layout (RollLog), caught up; None until then."""
    screen = app.screen
    if not isinstance(screen, EncounterScreen):
        return None
    log = screen.query_one(RollLog)
    bar = log.vertical_scrollbar
    if log.show_vertical_scrollbar and bar.window_virtual_size != log.virtual_size.height:
        return None
    return log


async def add_note(pilot, text: str) -> None:
    await pilot.press("o", *text, "enter")

    def logged() -> bool:
        log = log_at_rest(pilot.app)
        return log is not None and any(text in entry for entry in log.entries)

    await until(pilot, logged, f"the note {text!r} in the log")


async def test_the_log_follows_new_entries_after_a_resize(tmp_path: Path) -> None:
    app = demo_app(a_demo(), tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        await resize(pilot, SMALL)
        assert log.is_vertical_scroll_end  # the newest entry is still in view
        await add_note(pilot, "after the resize")
        assert "✎ after the resize" in screen_text(app)
        assert log.is_vertical_scroll_end
        rows = thumb_rows(app, log)
        assert runs(rows) == 1  # one thumb...
        assert rows[-1] == log.vertical_scrollbar.region.height - 1  # ...at the end

        await resize(pilot, LARGE)  # and back
        await add_note(pilot, "larger again")
        assert "✎ larger again" in screen_text(app)
        assert "✎ after the resize" in screen_text(app)
        if log.show_vertical_scrollbar:
            assert runs(thumb_rows(app, log)) == 1


async def test_a_log_that_fitted_follows_once_it_no_longer_fits(tmp_path: Path) -> None:
    history = History(new_encounter("Cellar", a_system()))
    app = make_app(tmp_path, history=history)  # a new encounter: its log all fits
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        for number in range(14):
            await add_note(pilot, f"note {number}")
        assert log.max_scroll_y == 0  # it all fits
        await resize(pilot, SMALL)
        await add_note(pilot, "one more")
        assert "✎ one more" in screen_text(app)
        rows = thumb_rows(app, log)
        assert runs(rows) == 1 and rows[-1] == log.vertical_scrollbar.region.height - 1


async def test_a_log_scrolled_up_stays_where_it_is_through_a_resize(tmp_path: Path) -> None:
    app = demo_app(a_demo(), tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        while not log.max_scroll_y:  # a log longer than its pane, even at 160x48
            await add_note(pilot, "filler")
        await pilot.press("tab", "home")  # the log, scrolled to its first entry
        await pilot.pause()
        await resize(pilot, SMALL)
        assert log.scroll_y == 0
        await pilot.press("shift+tab")
        await add_note(pilot, "while scrolled up")
        assert log.scroll_y == 0 and "✎ while scrolled up" not in screen_text(app)
        assert runs(thumb_rows(app, log)) == 1


# --- 80x24, nothing cut ------------------------------------------------------------------------


async def crowd(pilot, demo: str) -> None:
    from tests.app.test_snapshots import crowded  # the snapshots' crowded screen

    await crowded(demo)(pilot)


async def test_the_header_shows_what_waits_in_full(tmp_path: Path) -> None:
    demo = a_demo()
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await crowd(pilot, demo)  # a consequence waits: the demo's, or a roll's
        session = app.session
        waiting = waiting_text(session.system.pending(session.state))
        assert waiting != waiting_text("")
        header = screen_text(app).splitlines()[:2]  # on a second line if need be
        assert any(waiting in line for line in header)  # whole (the solo side may give way)
        await resize(pilot, LARGE)
        first, second = screen_text(app).splitlines()[:2]
        assert waiting in first and "⚙ solo: foes" in first  # one line, wide enough
        assert second.startswith("┏━ Combatants")


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_the_columns_fit_the_pane_at_80x24(tmp_path: Path, demo: str) -> None:
    from tests.app.test_snapshots import NET  # the long condition `crowd` puts on a foe

    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await crowd(pilot, demo)
        pane = app.screen.query_one(CombatantsPane)
        assert pane.virtual_size.width <= pane.size.width  # nothing beyond its right edge
        assert not pane.show_horizontal_scrollbar
        state = app.session.state
        text = screen_text(app)
        rows = text.split("┏━ Combatants")[1].split("┗")[0].splitlines()
        for combatant in state.combatants:
            row = next(line for line in rows if line[1:].lstrip("▶✗ ").startswith(combatant.name))
            assert ("⚙" in row) == state.is_solo(combatant)  # the Solo column
        # The long condition: whole in its row where the columns leave room (few stats), else
        # shortened there and whole on the pane's lower border.
        # The row it went on is the selected one (the last row where the rows are few; the turn
        # order need not end on the last one added).
        foe = next(c for c in state.combatants if any(x.name == NET for x in c.conditions))
        assert pane.selected_id == foe.id
        border = next(line for line in text.splitlines() if line.startswith("┗"))
        if NET in "\n".join(rows):
            assert set(border[1:-1]) == {"━"}
        else:
            # The condition that puts it out of the fight is the word after its name instead.
            out = app.session.system.out_of_fight(state, foe)
            shown = (c.name for c in foe.conditions if c.name.casefold() != out.casefold())
            assert foe.name in border and f": {', '.join(shown)}" in border
        await pilot.press("up")  # a row whose conditions are whole: nothing on the border
        await pilot.pause()
        border = next(line for line in screen_text(app).splitlines() if line.startswith("┗"))
        assert set(border[1:-1]) == {"━"}


def footer_entries(app: TrackerApp) -> tuple[list[str], str]:
    """The footer's entries on screen (key and description), and its row as drawn."""
    footer = app.screen.query_one(KeyBar)
    keys = [key for key in footer.query("FooterKey") if key.display]
    row = screen_text(app).splitlines()[footer.region.y]
    return [f"{key.key_display} {key.description}".strip() for key in keys], row


def footer_drawn(app: TrackerApp) -> bool:
    """The footer has entries and its row, as drawn, shows them (a frame after a resize)."""
    if not app.screen.query(KeyBar):
        return False
    entries, row = footer_entries(app)
    return bool(entries) and all(entry in row for entry in entries)


async def test_the_footer_shows_whole_keys_the_help_first(tmp_path: Path) -> None:
    app = demo_app(a_demo(), tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: footer_drawn(app), "keys")
        entries, row = footer_entries(app)
        assert "? Help" in entries and "r Roll" in entries and "^p palette" in entries
        assert "q Quit" not in entries  # it would not fit
        assert all(entry in row for entry in entries)  # whole
        for key in app.screen.query_one(KeyBar).query("FooterKey"):
            assert not key.display or key.region.right <= SMALL[0]
        await resize(pilot, LARGE)
        await until(pilot, lambda: footer_drawn(app) and "q Quit" in footer_entries(app)[1])
        entries, row = footer_entries(app)
        assert "q Quit" in entries and "c Condition" in entries
        assert all(entry in row for entry in entries)


async def test_the_replays_key_bar_shows_whole_keys(tmp_path: Path) -> None:
    app = TrackerApp(None, replay=DEMOS[a_demo()](), dice=SeededDice(7))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: app.screen.query(KeyBar) and footer_entries(app)[0], "keys")
        entries, row = footer_entries(app)
        assert {"← Previous event", "→ Next event", "esc Close replay"} <= set(entries)
        assert all(entry in row for entry in entries)
        assert "} Next round" not in row  # it would not fit, whole


async def test_notifications_keep_clear_of_the_prompts_hint(tmp_path: Path) -> None:
    app = demo_app(a_demo(demo_waits), tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        notice = "Something long enough to be seen for a while, over two lines here"
        app.notify(notice, timeout=PATIENCE)  # still up however slowly the test runs
        await until(pilot, lambda: "Something long enough" in screen_text(app), "the notice")
        await pilot.press("colon", *"nxet", "enter")
        hint = "no command 'nxet': did you mean 'next'?"
        await until(pilot, lambda: hint in screen_text(app), "the prompt's hint")
        text = screen_text(app)
        assert "waiting (d)" in text.splitlines()[1]  # the header's line, uncovered
        assert "Something long enough" not in text  # beneath the prompt, for now
        await pilot.press("escape")
        # Back once the prompt is gone.
        await until(pilot, lambda: "Something long enough" in screen_text(app), "the notice back")


def toast_rows(app: TrackerApp) -> set[int]:
    """The screen rows notifications show on (those scrolled out of the rack are not)."""
    return {
        y
        for severity in (".-information", ".-warning", ".-error")
        for toast in app.screen.query(severity)
        for y in range(toast.region.y, toast.region.bottom)
        if y < app.size.height
    }


async def test_notifications_keep_clear_of_the_roll_dialog_and_the_header(
    tmp_path: Path,
) -> None:
    await notices_clear_of_a_dialog(demo_app(a_demo(demo_rests), tmp_path), ("r",))


async def notices_clear_of_a_dialog(app: TrackerApp, keys: tuple[str, ...]) -> None:
    """Notices sent while the dialog ``keys`` open is up leave it and the header uncovered."""
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.pause()
        header = screen_text(app).splitlines()[:2]
        await pilot.press(*keys)
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the dialog")
        app.notify(
            "A notice long enough to wrap onto three lines or more, at the top of a tall "
            "dialog, over its title and first fields, as it did before",
            severity="warning",
            timeout=PATIENCE,  # still up however slowly the test runs
        )
        last = "A notice that would have sat on the buttons"
        app.notify(f"{last} for five seconds", timeout=PATIENCE)
        await until(pilot, lambda: last in screen_text(app).splitlines()[-1], "the notices")
        dialog = app.screen.query_one("#dialog")
        text = screen_text(app)
        lines = text.splitlines()
        assert toast_rows(app) == {SMALL[1] - 1}  # the last row alone: the newest, one line
        assert "A notice that would have sat on the buttons" in lines[-1]
        assert dialog.region.bottom <= SMALL[1] - 1
        if dialog.region.y >= 2:  # a short dialog: the header stays whole (what waits)
            assert lines[:2] == header
        for button in app.screen.query(Button):
            row = lines[button.region.y + 1]  # its label's row
            assert str(button.label) in row
        await pilot.press("escape")  # the dialog closes: the notices are the screen's again
        await until(pilot, lambda: "A notice long enough" in screen_text(app), "the notices")


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
async def test_notifications_on_the_encounter_never_sit_over_the_roll_log(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = demo_app(a_demo(demo_waits), tmp_path)
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        for number in range(3):  # a stack of them, each over two lines
            app.notify(f"Notice {number}, long enough to wrap onto two lines", timeout=PATIENCE)
        await until(pilot, lambda: "Notice 2, long enough" in screen_text(app), "the notices")
        log = app.screen.query_one(RollLog).region
        covered = {
            (x, y)
            for severity in (".-information", ".-warning", ".-error")
            for toast in app.screen.query(severity)
            for y in range(toast.region.y, toast.region.bottom)
            for x in range(toast.region.x, toast.region.right)
        }
        assert covered and not any(log.contains(x, y) for x, y in covered)


def test_short_notifications_go_sooner() -> None:
    assert reading_time("Saved") == 3.0
    assert reading_time("Select a combatant first (add one with a)") < 5
    assert reading_time("x" * 500) == 10.0


async def open_roll_dialog(pilot) -> FormScreen:
    """``r``, applying first what waits."""
    await pilot.press("r")
    if isinstance(pilot.app.screen, WaitingScreen):  # apply what waits, then it opens
        await pilot.press("d")
    await until(pilot, lambda: isinstance(pilot.app.screen, FormScreen), "the roll dialog")
    dialog = pilot.app.screen
    assert isinstance(dialog, FormScreen)
    app = pilot.app

    def odds_shown() -> bool:
        """The odds, worked out in a thread once the dialog shows, are in (or there are none)."""
        reckoning = any(w.group == "odds" and not w.is_finished for w in app.workers)
        return not dialog._fresh and not reckoning

    await until(pilot, odds_shown, "the dialog's odds")
    return dialog


def assert_buttons_on_screen(app: TrackerApp, rows: int) -> None:
    lines = screen_text(app).splitlines()
    for button in app.screen.query(Button):
        placed = app.screen.find_widget(button)
        assert placed.region.intersection(placed.clip) == placed.region, str(button.label)
        assert placed.region.bottom <= rows
        assert str(button.label) in lines[button.region.y + 1]  # its label's row


@pytest.mark.parametrize("notified", [False, True], ids=["alone", "under a notification"])
@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_the_roll_dialogs_buttons_are_on_screen_at_80x24(
    tmp_path: Path, demo: str, notified: bool
) -> None:
    """Found by the walk (tests/walk): at 80x24 Fatigue's roll dialog, with its odds, was a
    row taller than the screen, and its buttons were cut off."""
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await open_roll_dialog(pilot)
        if notified:
            app.notify("A notice in the last row")
            await pilot.pause()
        assert_buttons_on_screen(app, SMALL[1] - notified)


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_a_refused_value_is_said_above_the_buttons_at_80x24(
    tmp_path: Path, demo: str
) -> None:
    """The line saying why a number was refused stands above the buttons, all on screen.
    (The walk's case, a player's refusal under the odds, is tests/serve/test_seat_forms.py.)"""
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        dialog = await open_roll_dialog(pilot)
        kinds = [field.kind for field in dialog.fields]
        if "int" not in kinds:
            pytest.skip("its roll dialog has no number to refuse")
        first = next(i for i, kind in enumerate(kinds) if kind != "choice")  # focused
        tabs = kinds.index("int") - first
        await pilot.press(*["tab" if tabs > 0 else "shift+tab"] * abs(tabs))
        await pilot.press("home", "ctrl+k", *"99999999999999999999", "enter")
        await pilot.pause()
        assert app.screen is dialog  # refused: the dialog stays open, saying why
        assert "must be between" in screen_text(app)
        assert_buttons_on_screen(app, SMALL[1])
