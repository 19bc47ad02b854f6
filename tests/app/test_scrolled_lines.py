"""tracker.widgets.scrolled_lines: a scrolled log frames only its new lines, drawn the same."""

from __future__ import annotations

from pathlib import Path

from textual.geometry import Region

from rules.commands import AddNote
from rules.dice import SeededDice
from tests.app.support import add_combatant, make_app, until
from tracker.terminal.textual_internals import StylesCache, framing_cache
from tracker.widgets.roll_log import RollLog
from tracker.widgets.scrolled_lines import ScrolledLinesCache

# Whether Textual's code is the code the cache was written for, and what happens when it is
# not: tests/app/test_textual_internals.py.


async def test_a_new_entry_frames_only_its_own_lines_and_the_log_looks_the_same(
    tmp_path: Path, monkeypatch
) -> None:
    framed: list[int] = []
    textuals = StylesCache.render_line

    def counting(self, styles, y, *rest):
        if isinstance(self, ScrolledLinesCache):
            framed.append(y)
        return textuals(self, styles, y, *rest)

    monkeypatch.setattr(StylesCache, "render_line", counting)
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await add_combatant(pilot, "Orla", "party")
        log = app.screen.query_one(RollLog)
        assert isinstance(framing_cache(log), ScrolledLinesCache)
        for number in range(30):
            framed.clear()
            app.session.execute(AddNote(f"note {number}"))
            await pilot.pause()
            shown = log.render_lines(Region(0, 0, *log.outer_size))
            fresh = StylesCache().render_widget(log, Region(0, 0, *log.outer_size))
            assert [strip.text for strip in shown] == [strip.text for strip in fresh]
            assert shown == fresh  # the same segments, styles included
            if log.max_scroll_y > 0 and number > 20:
                assert len(framed) <= 2  # the new note's line, not the whole pane
        assert "note 29" in "".join(strip.text for strip in shown)
        # The last note's scroll to the end lands after a refresh: scrolled by hand before
        # it, the log would be pulled back to the end.
        await until(pilot, lambda: not log._following, "the log's follow landed")
        for y in (3, 4, 0, 9):  # scrolled by hand: lines seen before and lines never seen
            log.scroll_to(y=y, animate=False, immediate=True)
            await pilot.pause()
            shown = log.render_lines(Region(0, 0, *log.outer_size))
            fresh = StylesCache().render_widget(log, Region(0, 0, *log.outer_size))
            assert log.scroll_y == y and shown == fresh
