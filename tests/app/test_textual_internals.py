"""tracker.terminal.textual_internals: Textual's private code is used only as the code it was
written for; a speed patch on another Textual is left out (said once), serving fails clearly."""

from __future__ import annotations

import inspect
import itertools
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import textual
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.css.stylesheet import Stylesheet
from textual.geometry import Size
from textual.render import measure as textual_measure
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable, Input

from bench.big import big_fight
from rules.commands import AddNote
from rules.dice import SeededDice
from tests.app.support import add_combatant, burst_handled, make_app, until
from tests.picks import a_demo, a_system, has_turn_order
from tests.screen import screen_strips, screen_text
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.waiting import WaitingScreen
from tracker.session import EncounterSession
from tracker.terminal import partial_renders, shared_lines, textual_internals
from tracker.terminal.textual_internals import (
    BUILT_UNSEEN,
    DIMMED_STYLES,
    KEPT_FOCUS_RENDERS,
    KEPT_ROWS,
    KEPT_STYLES,
    LEAN_STRIPS,
    PARTIAL_RENDERS,
    SCROLLED_LINES,
    SETTLED_FOOTER_KEYS,
    SHARED_CSS,
    SHARED_SCROLLBARS,
    TEXT_MEASURE,
    TEXTUALS_DIMMING,
    WRITTEN_FOR,
    BackgroundScreen,
    Compositor,
    DOMNode,
    FooterKey,
    Patch,
    StylesCache,
    TextualMismatch,
    fingerprint,
    framing_cache,
    source_of,
    usable,
)
from tracker.widgets import scrolled_lines
from tracker.widgets.choice import Choice
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.key_bar import KeyBar
from tracker.widgets.roll_log import RollLog

PATCHES = [
    PARTIAL_RENDERS,
    SCROLLED_LINES,
    SETTLED_FOOTER_KEYS,
    KEPT_STYLES,
    DIMMED_STYLES,
    SHARED_SCROLLBARS,
    KEPT_ROWS,
    LEAN_STRIPS,
    SHARED_CSS,
    TEXT_MEASURE,
    KEPT_FOCUS_RENDERS,
    BUILT_UNSEEN,
]


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_the_installed_textual_is_the_one_each_patch_was_written_for(patch: Patch) -> None:
    assert textual.__version__ == WRITTEN_FOR
    functions = patch.relies_on()
    assert fingerprint(functions) == patch.fingerprint, (
        f"Textual changed under the {patch.name} patch: read its new code against the patch, "
        f"then record {fingerprint(functions)} in tracker/terminal/textual_internals.py"
    )
    # The cheap reading of the source is inspect's.
    assert [source_of(function) for function in functions] == [
        inspect.getsource(function) for function in functions
    ]


def test_a_patch_on_code_that_is_gone_is_not_usable(monkeypatch, capfd) -> None:
    monkeypatch.setattr(textual_internals, "_verdicts", {})
    gone = Patch("gone", PARTIAL_RENDERS.fingerprint, lambda: (Compositor.no_such_method,))
    assert not usable(gone)
    assert "the gone patch" in capfd.readouterr().err


def changed(monkeypatch, patch: Patch, version: str | None = None) -> None:
    """Textual is not the code ``patch`` was written for (nothing is decided yet)."""
    monkeypatch.setattr(textual_internals, "_verdicts", {})
    name = {
        PARTIAL_RENDERS.name: "PARTIAL_RENDERS",
        SCROLLED_LINES.name: "SCROLLED_LINES",
        SETTLED_FOOTER_KEYS.name: "SETTLED_FOOTER_KEYS",
        SHARED_SCROLLBARS.name: "SHARED_SCROLLBARS",
        KEPT_ROWS.name: "KEPT_ROWS",
        LEAN_STRIPS.name: "LEAN_STRIPS",
        SHARED_CSS.name: "SHARED_CSS",
        TEXT_MEASURE.name: "TEXT_MEASURE",
        KEPT_FOCUS_RENDERS.name: "KEPT_FOCUS_RENDERS",
        BUILT_UNSEEN.name: "BUILT_UNSEEN",
    }
    monkeypatch.setattr(textual_internals, name[patch.name], patch._replace(fingerprint="00000000"))
    if version is not None:
        monkeypatch.setattr(textual, "__version__", version, raising=False)


async def test_on_another_textual_partial_updates_are_textuals_own(
    tmp_path: Path, monkeypatch, capfd
) -> None:
    # As before tracker.app installed the patch.
    monkeypatch.setattr(Compositor, "_render_chops", textual_internals.TEXTUALS_RENDER_CHOPS)
    changed(monkeypatch, PARTIAL_RENDERS, version="8.3.0")
    assert not partial_renders.install()
    assert not partial_renders.install()  # asked again: said once
    assert textual_internals.installed_chops() is textual_internals.TEXTUALS_RENDER_CHOPS
    assert capfd.readouterr().err == (
        "tracker: Textual 8.3.0 is not the version the partial-render patch was written for "
        "(8.2.8); running without it (slower, still correct)\n"
    )
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await add_combatant(pilot, "Orla", "party")
        for number in range(14):  # enough to scroll the log
            app.session.execute(AddNote(f"note {number}"))
            await pilot.pause()
        text = screen_text(app)
        assert "▶ Orla's turn" in text and "note 13" in text
    assert capfd.readouterr().err == ""


async def test_on_another_textual_a_log_keeps_textuals_own_line_cache(
    tmp_path: Path, monkeypatch, capfd
) -> None:
    changed(monkeypatch, SCROLLED_LINES)  # the same version number, other code
    assert not scrolled_lines.check()
    assert capfd.readouterr().err == (
        f"tracker: Textual {WRITTEN_FOR} is not the code the scrolled-lines patch was written "
        f"for ({WRITTEN_FOR}); running without it (slower, still correct)\n"
    )
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await add_combatant(pilot, "Orla", "party")
        log = app.screen.query_one(RollLog)
        assert type(framing_cache(log)) is StylesCache
        for number in range(30):
            app.session.execute(AddNote(f"note {number}"))
            await pilot.pause()
        text = screen_text(app)
        assert "note 29" in text and "note 28" in text and "▶ Orla's turn" in text
    assert capfd.readouterr().err == ""  # said once, not once a log


async def test_on_another_textual_a_tables_cells_are_updated_by_textuals_own_code(
    tmp_path: Path, monkeypatch, capfd
) -> None:
    monkeypatch.setattr(textual_internals, "_kept_rows", [False])  # as before tracker.app
    changed(monkeypatch, KEPT_ROWS)
    assert not textual_internals.install_kept_rows()
    assert "the kept-rows patch" in capfd.readouterr().err
    updated = []
    update_cell = DataTable.update_cell

    def counting(self, row_key, column_key, value, **kwargs):
        updated.append(row_key)
        return update_cell(self, row_key, column_key, value, **kwargs)

    monkeypatch.setattr(DataTable, "update_cell", counting)
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await add_combatant(pilot, "Orla", "party")
        await add_combatant(pilot, "Goblin")
        await pilot.press("n")  # the ▶ moves to the Goblin's row
        await until(pilot, lambda: "▶ Goblin's turn" in screen_text(app), "the next turn")
        assert updated  # the rows that changed, through Textual's own update_cell
    assert capfd.readouterr().err == ""


def footer_keys(app) -> list[tuple[str, bool, bool]]:
    """Each key of the screen's footer: its action, ``compact`` and ``-compact`` class."""
    keys = app.screen.query_one(KeyBar).query(FooterKey)
    return [(key.action, key.compact, key.has_class("-compact")) for key in keys]


async def styled_footer(tmp_path: Path, monkeypatch) -> tuple[tuple, list]:
    """The screen, its footer's keys and how often a footer key was styled (on average) in
    a started app; then its footer's keys once the footer is made compact."""
    styled = []
    apply = Stylesheet.apply

    def counting(stylesheet, node, *args, **kwargs) -> None:
        styled.extend([node] if isinstance(node, FooterKey) else [])
        apply(stylesheet, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", counting)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query(FooterKey), "the footer's keys")
        started = screen_text(app), footer_keys(app), len(styled) / len(set(styled))
        app.screen.query_one(KeyBar).compact = True
        await pilot.pause()
        return started, footer_keys(app)


async def test_a_footer_key_is_styled_once_and_ends_as_textuals_own(tmp_path, monkeypatch):
    assert FooterKey.data_bind is textual_internals.settled_data_bind  # tracker.app installed it
    (screen, keys, times), compacted = await styled_footer(tmp_path / "ours", monkeypatch)
    assert times < 1.1  # each key once, but the palette's (Textual's: three times each)
    monkeypatch.setattr(FooterKey, "data_bind", DOMNode.data_bind)  # Textual's own
    (screen_own, keys_own, times_own), compacted_own = await styled_footer(
        tmp_path / "textuals", monkeypatch
    )
    assert times_own > 2
    assert (screen, keys, compacted) == (screen_own, keys_own, compacted_own)
    assert ("help", False, False) in keys and ("help", True, True) in compacted


def test_on_another_textual_footer_keys_are_textuals_own(monkeypatch, capfd) -> None:
    monkeypatch.setattr(FooterKey, "data_bind", DOMNode.data_bind)  # as before tracker.app
    changed(monkeypatch, SETTLED_FOOTER_KEYS, version="8.3.0")
    assert not textual_internals.install_settled_footer_keys()
    assert FooterKey.data_bind is DOMNode.data_bind
    assert "the footer-keys patch was written for" in capfd.readouterr().err


def test_on_another_textual_scrollbars_draw_as_textuals_own(monkeypatch, capfd) -> None:
    assert ScrollBar.render_lines is shared_lines.render_lines  # tracker.app installed it
    monkeypatch.delattr(ScrollBar, "render_lines")  # as before tracker.app
    changed(monkeypatch, SHARED_SCROLLBARS, version="8.3.0")
    assert not shared_lines.install()
    assert ScrollBar.render_lines is Widget.render_lines
    assert "the shared-scrollbars patch was written for" in capfd.readouterr().err


def test_serving_finds_what_it_needs() -> None:
    textual_internals.check_serving()
    parser = textual_internals.xterm_parser()
    assert [type(message).__name__ for message in parser.feed("a")] == ["Key"]
    console = Console(color_system="truecolor")
    textual_internals.use_colours(console, "256")
    assert console.color_system == "256"


def test_serving_on_a_textual_without_its_parser_fails_clearly(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "textual._xterm_parser", None)  # import fails
    with pytest.raises(TextualMismatch, match=r"tracker serve needs .*XTermParser.*8\.2\.8"):
        textual_internals.check_serving()


def looks(screen) -> list[tuple[str, str]]:
    """Each widget of ``screen``, by its place, and the style it is drawn in."""
    return [(repr(widget), str(widget.rich_style)) for widget in screen.walk_children()]


def counted_styles(monkeypatch) -> list[object]:
    """Each node Textual styles from now on, once for each time."""
    styled: list[object] = []
    apply = Stylesheet.apply

    def counting(stylesheet, node, *args, **kwargs) -> None:
        styled.append(node)
        apply(stylesheet, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", counting)
    return styled


def roll_demo(tmp_path: Path) -> TrackerApp:
    session = EncounterSession(DEMOS[a_demo()](), SeededDice(7), tmp_path / "fight.fight")
    return TrackerApp(session, saves=tmp_path)


async def roll_dialog(pilot, app: TrackerApp) -> Screen:
    """`r`: the roll dialog, once what the demo left waiting is applied."""
    await pilot.press("r")
    await burst_handled(pilot)
    if isinstance(app.screen, WaitingScreen):
        await pilot.press("d")
        await burst_handled(pilot)
    await until(pilot, lambda: isinstance(app.screen, FormScreen), "the dialog")
    return app.screen


async def reopened_dialog(tmp_path: Path, monkeypatch, theme: str | None = None) -> tuple:
    """The roll dialog opened, closed (the app's theme then set to ``theme``) and opened
    again: the widgets restyled as it showed again, how many it holds, how it looked, and
    how it looks restyled whole."""
    app = roll_demo(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await roll_dialog(pilot, app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is not dialog, "the dialog closed")
        if theme is not None:
            app.theme = theme
            await until(pilot, lambda: app.current_theme.name == theme, "the theme")
        with monkeypatch.context() as counting:
            styled = counted_styles(counting)
            await pilot.press("r")
            await until(pilot, lambda: app.screen is dialog, "the dialog again")
        widgets = len(list(dialog.walk_children()))
        shown = looks(dialog)
        app.update_styles(dialog)  # restyled whole, as Textual's own resume does
        return sum(node.screen is dialog for node in styled), widgets, shown, looks(dialog)


async def test_a_dialog_is_not_restyled_whole_as_it_first_shows(tmp_path, monkeypatch) -> None:
    # Its widgets were styled as they were mounted, a moment before; Textual's own first
    # show styles every one of them again (a third of the first `r`).
    app = roll_demo(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "r Roll" in screen_text(app).splitlines()[-1], "the key bar")
        styled = counted_styles(monkeypatch)
        dialog = await roll_dialog(pilot, app)
        title = dialog.query_one("#form-title")
        # Each styled once, as it was mounted: Textual's own styles them twice more, as the
        # dialog's first resize gives it its class for its height and as it shows.
        assert styled.count(dialog) == styled.count(title) == 1
        shown, text = looks(dialog), screen_text(app)
        app.update_styles(dialog)  # restyled whole, as Textual's own first show does
        await pilot.pause()
        assert looks(dialog) == shown and screen_text(app) == text


async def test_a_kept_dialog_shown_again_is_not_restyled_whole(tmp_path, monkeypatch) -> None:
    assert textual_internals.usable(KEPT_STYLES)
    restyled, widgets, shown, whole = await reopened_dialog(tmp_path, monkeypatch)
    assert widgets > 20 and restyled < widgets // 4  # Textual's own: every one of them
    assert shown == whole  # and it looks as if it had been


async def test_a_kept_dialog_shown_again_after_a_new_theme_is_restyled(
    tmp_path, monkeypatch
) -> None:
    app = make_app(tmp_path)
    other = next(name for name in sorted(app.available_themes) if name != app.theme)
    restyled, widgets, shown, whole = await reopened_dialog(tmp_path, monkeypatch, other)
    assert restyled >= widgets  # the CSS changed while it was hidden
    assert shown == whole


def encounter_of(app: TrackerApp) -> EncounterScreen:
    return next(s for s in app.screen_stack if isinstance(s, EncounterScreen))


class FirstRoll(NamedTuple):
    """The demo's first `r` (its dialog built ahead or not), and what it did."""

    text: str  # the screen, as text...
    strips: list[Strip]  # ...and as drawn
    built: list[tuple[Screen, bool]]  # each dialog given to build_unseen, and if it was built
    dialog: Screen  # the dialog the key showed
    composed: int  # dialogs composed by the key
    resized: int  # times the key laid the dialog out at a new size
    measured: int  # choices the key measured: the fields laid out afresh
    scrolls: bool  # whether the fields had a scrollbar


async def first_roll(
    folder: Path, monkeypatch, *, ahead: bool, size_at_key: tuple[int, int] = (80, 24)
) -> FirstRoll:
    """The roll dialog at the demo's first `r` (the app started at 80x24, then at
    ``size_at_key``), the app building it ahead or not; then rolled (Enter), to show that
    what it does was put back."""
    folder.mkdir()
    app = roll_demo(folder)
    app.builds_ahead = ahead
    built: list[tuple[Screen, bool]] = []
    composed: list[Screen] = []
    resized: list[Screen] = []
    measured: list[Choice] = []
    build, compose, on_resize, measure = (
        textual_internals.build_unseen,
        FormScreen.compose,
        FormScreen.on_resize,
        Choice.get_content_height,
    )

    async def building(app: TrackerApp, screen: Screen) -> bool:
        done = await build(app, screen)
        built.append((screen, done))
        return done

    def composing(dialog: FormScreen):
        composed.append(dialog)
        return compose(dialog)

    def resizing(dialog: FormScreen) -> None:
        resized.append(dialog)
        on_resize(dialog)

    def measuring(choice: Choice, container: Size, viewport: Size, width: int) -> int:
        measured.append(choice)
        return measure(choice, container, viewport, width)

    ticked: list[FormScreen] = []  # unseen: a tick of a screen not shown does nothing
    tick = FormScreen._on_timer_update

    def ticking(dialog: FormScreen) -> None:
        if not dialog.is_current:
            ticked.append(dialog)
        tick(dialog)

    with monkeypatch.context() as patched:
        patched.setattr(textual_internals, "build_unseen", building)
        patched.setattr(FormScreen, "_on_timer_update", ticking)
        async with app.run_test(size=(80, 24)) as pilot:
            if ahead:
                await until(pilot, lambda: built, "the dialog built ahead")
                if built[0][1]:
                    # Its update timer set going: a timer's first start waits a period
                    # (1/60 s) for its first tick, which the key's frame would wait for.
                    await until(pilot, lambda: ticked, "the dialog's timer going")
            if size_at_key != app.size:
                await pilot.resize_terminal(*size_at_key)
                await until(pilot, lambda: app.size == size_at_key, "resized")
            await until(pilot, lambda: "r Roll" in screen_text(app).splitlines()[-1], "the keys")
            patched.setattr(FormScreen, "compose", composing)
            patched.setattr(FormScreen, "on_resize", resizing)
            patched.setattr(Choice, "get_content_height", measuring)
            dialog = await roll_dialog(pilot, app)
            for field in dialog.query(Input):
                field.cursor_blink = False  # a blinking cursor is on or off by the clock
            await app.workers.wait_for_complete()  # the odds, shown in both
            await pilot.pause()
            roll = FirstRoll(
                screen_text(app),
                screen_strips(app),
                built,
                dialog,
                len(composed),
                len(resized),
                len(measured),
                dialog.query_one("#fields").show_vertical_scrollbar,
            )
            entries = len(encounter_of(app).query_one(RollLog).entries)
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is not dialog, "rolled")
            await until(
                pilot,
                lambda: len(encounter_of(app).query_one(RollLog).entries) > entries,
                "the roll in the log",
            )
    return roll


async def test_a_dialog_built_ahead_shows_at_its_first_key_as_one_the_key_builds(
    tmp_path, monkeypatch
) -> None:
    # Composed, styled, laid out and drawn while the first frame is read: the key only
    # shows it. Its fields too are laid out as shown, their scrollbar taking its column.
    assert textual_internals.can_build_unseen()
    ahead = await first_roll(tmp_path / "ahead", monkeypatch, ahead=True)
    by_key = await first_roll(tmp_path / "key", monkeypatch, ahead=False)
    assert ahead.built == [(ahead.dialog, True)]
    assert ahead.composed == ahead.resized == ahead.measured == 0
    assert by_key.built == [] and by_key.composed == 1 and by_key.resized >= 1
    assert by_key.measured > 0 and ahead.scrolls and by_key.scrolls  # at 80x24
    assert ahead.text == by_key.text and ahead.strips == by_key.strips


async def test_a_dialog_built_ahead_at_another_size_shows_at_the_new_one(
    tmp_path, monkeypatch
) -> None:
    # The terminal grew after the dialog was built: it is laid out again, in its tall form.
    size = (100, 40)
    ahead = await first_roll(tmp_path / "ahead", monkeypatch, ahead=True, size_at_key=size)
    by_key = await first_roll(tmp_path / "key", monkeypatch, ahead=False, size_at_key=size)
    assert ahead.built == [(ahead.dialog, True)] and ahead.composed == 0
    assert ahead.dialog.has_class("-tall") and by_key.dialog.has_class("-tall")
    assert ahead.text == by_key.text and ahead.strips == by_key.strips


async def test_a_key_quicker_than_the_dialog_built_ahead_opens_its_own(
    tmp_path, monkeypatch
) -> None:
    # `r` pressed while the dialog was being built: it builds and shows its own; the one
    # built ahead is dropped, and the app closes cleanly.
    build = textual_internals.build_unseen
    unseen: list[Screen] = []

    async def overtaken(app: TrackerApp, screen: Screen) -> bool:
        done = await build(app, screen)
        unseen.append(screen)
        encounter_of(app).action_system("roll")  # the key, as the build ends
        return done

    monkeypatch.setattr(textual_internals, "build_unseen", overtaken)
    app = roll_demo(tmp_path)
    app.builds_ahead = True
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: unseen, "the dialog built ahead")
        await until(pilot, lambda: not unseen[0].is_attached, "the one built ahead dropped")
        encounter = encounter_of(app)
        assert encounter._forms["roll"] is not unseen[0]
        await until(pilot, lambda: isinstance(app.screen, (FormScreen, WaitingScreen)), "shown")


async def test_on_another_textual_no_dialog_is_built_ahead(tmp_path, monkeypatch, capfd):
    changed(monkeypatch, BUILT_UNSEEN, "0.0.1")
    assert not textual_internals.can_build_unseen()
    assert "the built-unseen patch" in capfd.readouterr().err
    roll = await first_roll(tmp_path / "changed", monkeypatch, ahead=True)
    assert [built for _, built in roll.built] == [False]
    assert roll.dialog is not roll.built[0][0] and roll.composed == 1


async def test_the_screen_behind_a_dialog_is_dimmed_style_by_style_as_textual_dims_it(
    tmp_path, monkeypatch
) -> None:
    """Each style behind a dialog is blended once, by Textual's own code, and kept: a
    dialog shown again blends no style, and the screen reads as Textual's dimming draws it."""
    assert textual_internals.usable(DIMMED_STYLES)
    blended = []

    def counting(cls, segments, color):
        for segment in TEXTUALS_DIMMING(cls, segments, color):
            blended.append(segment.style)
            yield segment

    monkeypatch.setattr(textual_internals, "TEXTUALS_DIMMING", counting)
    monkeypatch.setattr(textual_internals, "_dimmed", {})
    await reopened_dialog(tmp_path, monkeypatch)
    first = len(blended)
    assert first  # the first opening blended the styles behind it...
    session = EncounterSession(DEMOS[a_demo()](), SeededDice(7), tmp_path / "again.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await burst_handled(pilot)
        if isinstance(app.screen, WaitingScreen):
            await pilot.press("d")
            await burst_handled(pilot)
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the dialog")
        for field in app.screen.query(Input):
            field.cursor_blink = False  # a blinking cursor is on or off by the clock
        # The pane behind restyles itself as it takes the focus it was given as the app
        # started (its own Focus event): on a busy machine, after the dialog is up.
        await pilot.pause()
        ours = screen_strips(app)
        assert len(blended) == first  # ...the same styles again: none blended anew
        with monkeypatch.context() as textuals:
            textuals.setattr(BackgroundScreen, "process_segments", classmethod(TEXTUALS_DIMMING))
            app.screen.refresh()
            app.refresh(repaint=True)
            await pilot.pause()
            await pilot.pause()
            assert screen_strips(app) == ours


def test_a_strip_makes_its_caches_as_it_first_uses_them() -> None:
    assert Strip.__init__ is not textual_internals.TEXTUALS_STRIP_INIT  # tracker.app's
    strip = Strip([Segment("hello world")])
    slots = [vars(Strip)[name].slot for name in textual_internals.STRIP_CACHES]
    assert not any(hasattr_slot(slot, strip) for slot in slots)
    assert strip.crop(0, 5) is strip.crop(0, 5)  # cached, as Textual caches it
    assert strip.divide([3, 11]) is strip.divide([3, 11])
    assert hasattr_slot(vars(Strip)["_crop_cache"].slot, strip)
    assert not hasattr_slot(vars(Strip)["_style_cache"].slot, strip)
    # Each made as Textual's __init__ makes it.
    made = Strip([])
    textual_internals.TEXTUALS_STRIP_INIT(made, [])
    for name, size in textual_internals.STRIP_CACHES.items():
        assert getattr(strip, name)._maxsize == size == getattr(made, name)._maxsize


def hasattr_slot(slot, strip: Strip) -> bool:
    try:
        slot.__get__(strip, Strip)
    except AttributeError:
        return False
    return True


async def test_lean_strips_draw_what_textuals_draw(tmp_path: Path, monkeypatch) -> None:
    async def drawn() -> list[str]:
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.fight"
        app = TrackerApp(EncounterSession(DEMOS[a_demo()](), SeededDice(7), path), saves=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("down", "question_mark")  # a dialog, over the dimmed screen
            await until(pilot, lambda: app.screen is not app.screen_stack[0], "the help")
            await pilot.pause()
            return [strip.render(app.console) for strip in screen_strips(app)]

    ours = await drawn()
    monkeypatch.setattr(Strip, "__init__", textual_internals.TEXTUALS_STRIP_INIT)
    assert await drawn() == ours


def test_on_another_textual_strips_are_textuals_own(monkeypatch, capfd) -> None:
    monkeypatch.setattr(Strip, "__init__", textual_internals.TEXTUALS_STRIP_INIT)
    changed(monkeypatch, LEAN_STRIPS, version="8.3.0")
    assert not textual_internals.install_lean_strips()
    assert Strip.__init__ is textual_internals.TEXTUALS_STRIP_INIT
    assert "the lean-strips patch was written for" in capfd.readouterr().err


async def test_apps_share_their_parsed_css(tmp_path: Path) -> None:
    rules = []
    for name in ("one", "two"):
        session = EncounterSession(DEMOS[a_demo()](), SeededDice(7), tmp_path / f"{name}.fight")
        app = TrackerApp(session, saves=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            rules.append(app.stylesheet.rules)
            if name == "two":  # another theme, other colours: parsed again
                app.theme = "textual-light" if app.theme != "textual-light" else "nord"
                await pilot.pause()
                rules.append(app.stylesheet.rules)
    one, two, other_theme = rules
    assert len(one) == len(two) and all(a is b for a, b in zip(one, two, strict=True))
    assert not any(a is b for a, b in zip(one, other_theme, strict=False))


def test_on_another_textual_each_style_sheet_parses_its_own(monkeypatch, capfd) -> None:
    monkeypatch.setattr(Stylesheet, "_parse_rules", textual_internals.TEXTUALS_PARSE_RULES)
    changed(monkeypatch, SHARED_CSS, version="8.3.0")
    assert not textual_internals.install_shared_css()
    assert Stylesheet._parse_rules is textual_internals.TEXTUALS_PARSE_RULES
    assert "the shared-css patch was written for" in capfd.readouterr().err


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(st.sampled_from(list("ab c\n\t界😀é\u0301\x00\x1b")), max_size=30),
    width=st.none() | st.integers(1, 200),
)
def test_a_text_cell_measures_as_textual_measures_it(text: str, width: int | None) -> None:
    console = Console(width=80)
    cell = Text(text, style="bold")
    ours = textual_internals._text_measured(console, cell, 1, container_width=width)
    assert ours == textual_measure(console, cell, 1, container_width=width)


def test_on_another_textual_a_table_measures_with_textuals_own(monkeypatch, capfd) -> None:
    from textual.widgets import _data_table

    changed(monkeypatch, TEXT_MEASURE, "0.0.1")
    monkeypatch.setattr(_data_table, "measure", textual_measure)
    assert not textual_internals.install_text_measure()
    assert _data_table.measure is textual_measure
    assert "the text-measure patch" in capfd.readouterr().err


# --- a table's drawn cells kept across a focus change ----------------------------------------


async def focus_round_trips(tmp_path: Path, monkeypatch) -> tuple[list[list[Strip]], list[int]]:
    """A fight of 20 whose combatants pane loses the focus and takes it back twice, then
    once more around a new theme: the screen after each step, and how many cells the table
    had drawn through Rich by then."""
    from textual.widgets import _data_table

    drawn = [0]

    class Counted(_data_table.Styled):  # type: ignore[misc,name-defined]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            drawn[0] += 1  # made only where a cell is drawn, not found in a cache
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(_data_table, "Styled", Counted)
    history = big_fight(a_system(has_turn_order), 20, 40)
    app = make_app(tmp_path, SeededDice(1), history)
    screens: list[list[Strip]] = []
    counts: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen.query_one(CombatantsPane)
        await until(pilot, lambda: "r Roll" in screen_text(app).splitlines()[-1], "the key bar")
        await until(pilot, lambda: app.focused is table, "the table focused")

        async def step(focused: bool) -> None:
            await until(pilot, lambda: (app.focused is table) == focused, "the focus moved")
            await until(pilot, lambda: not table._repaint_required, "the table drawn")
            screens.append(screen_strips(app))
            counts.append(drawn[0])

        await step(True)
        for _ in range(2):
            await pilot.press("tab")
            await step(False)
            await pilot.press("shift+tab")
            await step(True)
        await pilot.press("tab")
        await step(False)
        themes: list[object] = []
        app.theme_changed_signal.subscribe(app.screen, themes.append)
        app.theme = "nord"
        await until(pilot, lambda: themes, "the new theme")
        await step(False)
        await pilot.press("shift+tab")
        await step(True)
    return screens, counts


async def test_a_table_coming_back_into_focus_is_not_drawn_again(tmp_path, monkeypatch):
    assert DataTable.render_lines is textual_internals._render_lines_checking_styles
    _, counts = await focus_round_trips(tmp_path, monkeypatch)
    drawn = [after - before for before, after in itertools.pairwise(counts)]
    # The cells on screen are drawn once out of focus (as they were in it, at the start),
    # and then kept, in and out of focus.
    assert drawn[0] > 0
    assert drawn[1] == drawn[2] == drawn[3] == 0
    assert drawn[5] > 0  # back after a new theme: drawn in its colours


async def test_a_table_kept_across_focus_looks_as_textuals_own_draws_it(tmp_path, monkeypatch):
    ours, _ = await focus_round_trips(tmp_path / "ours", monkeypatch)
    for name, method in textual_internals._textuals_table.items():
        monkeypatch.setattr(DataTable, name, method)
    textuals, counts = await focus_round_trips(tmp_path / "textuals", monkeypatch)
    assert counts[3] > counts[2]  # Textual's own code draws every cell again
    assert ours == textuals


def test_on_another_textual_a_table_empties_its_caches_as_textual_does(monkeypatch, capfd):
    for name, method in textual_internals._textuals_table.items():
        monkeypatch.setattr(DataTable, name, method)
    changed(monkeypatch, KEPT_FOCUS_RENDERS, "0.0.1")
    assert not textual_internals.install_kept_focus_renders()
    assert DataTable.render_lines is textual_internals._textuals_table["render_lines"]
    assert "the kept-focus-renders patch" in capfd.readouterr().err


class MarkedTable(App[None]):
    """A table whose odd rows are red only while it has the focus and the class ``-marked``."""

    CSS = "DataTable.-marked:focus > .datatable--odd-row { background: red; }"

    def compose(self) -> ComposeResult:
        yield DataTable(zebra_stripes=True, cursor_type="none")
        yield Input()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Name")
        table.add_rows([(name,) for name in ("Orla", "Mags", "Goblin")])


async def marked_out_of_focus() -> list[list[Strip]]:
    """The screen after each step: the table focused, left, marked while away, focused."""
    app = MarkedTable()
    screens: list[list[Strip]] = []
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(DataTable)
        for step in ("focus", "leave", "mark", "focus"):
            if step == "mark":
                table.add_class("-marked")
            else:
                (table if step == "focus" else app.query_one(Input)).focus()
            await pilot.pause()
            await until(pilot, lambda: not table._repaint_required, "the table drawn")
            screens.append(screen_strips(app))
    return screens


async def test_a_table_restyled_out_of_focus_is_drawn_again_in_its_new_look(monkeypatch):
    ours = await marked_out_of_focus()
    assert ours[3] != ours[0]  # red now
    for name, method in textual_internals._textuals_table.items():
        monkeypatch.setattr(DataTable, name, method)
    assert ours == await marked_out_of_focus()
