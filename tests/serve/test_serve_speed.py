"""What keeps a served table quick: one frame per new log entry, the scrollbar's thumb in
it, entries described once for every seat, and the served heap frozen once seats
settle. (Speed itself is bench/serve.py's job; these check that nothing is lost for it, and
wait on state, never on the clock: how soon the thumb or the heap settles is not asserted.)
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from rules.commands import AddNote
from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tests.picks import a_system
from tests.screen import screen_text
from tests.serve.serve_helpers import until
from tracker.app import TrackerApp
from tracker.serve import heap as heap_module
from tracker.serve.heap import Heap
from tracker.session import EncounterSession
from tracker.terminal.textual_internals import Compositor
from tracker.widgets import roll_log
from tracker.widgets.roll_log import RollLog, Shared


def app_on(tmp_path: Path, notes: int) -> TrackerApp:
    session = EncounterSession(
        History(new_encounter("Quick", a_system())), SeededDice(1), tmp_path / "q.fight"
    )
    for number in range(notes):
        session.execute(AddNote(f"old note {number}"))
    return TrackerApp(session, saves=tmp_path)


async def test_a_new_entry_shows_at_once_and_the_thumb_catches_up(tmp_path: Path) -> None:
    app = app_on(tmp_path, 40)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        bar = log.vertical_scrollbar
        assert log.show_vertical_scrollbar and log.is_vertical_scroll_end
        for number in range(3):
            app.session.execute(AddNote(f"fresh note {number}"))
        await pilot.pause()
        # The newest entry is on screen, the log at its end, no layout pass awaited.
        assert "fresh note 2" in screen_text(app)
        assert log.virtual_size.height == len(log.entries)
        end = log.virtual_size.height - log.container_size.height
        assert log.scroll_y == log.max_scroll_y == end

        def thumb_caught_up() -> bool:
            return bar.window_virtual_size == log.virtual_size.height

        await until(thumb_caught_up)  # the thumb may lag behind the entries, never for good
        assert bar.window_size == log.container_size.height
        assert bar.position == log.scroll_y
        # A key scrolls from where the log is now, not from where it was before the notes.
        await pilot.click(RollLog)
        await pilot.press("up")
        assert log.scroll_y == end - 1
        # Scrolled up, the log stays put while entries arrive; End follows them again.
        app.session.execute(AddNote("while reading"))
        await until(lambda: log.virtual_size.height == end + log.container_size.height + 1)
        await until(thumb_caught_up)  # all the entry's work is done
        assert log.scroll_y == end - 1 and "while reading" not in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert "while reading" in screen_text(app)


async def test_a_new_entry_is_one_frame_with_its_thumb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every seat of a served table draws each frame: a note once cost two or three (the
    # entry, the thumb moved as the log scrolled, the thumb caught up half a second later).
    app = app_on(tmp_path, 40)
    frames: list[list[str]] = []
    drawn: list[str] = []
    update, lines = Compositor.render_partial_update, Widget.render_lines

    def counted_update(self: Compositor):  # type: ignore[no-untyped-def]
        drawn.clear()
        sent = update(self)
        if sent is not None:
            frames.append(list(drawn))
        return sent

    def counted_lines(self: Widget, crop: Region) -> list[Strip]:
        drawn.append(type(self).__name__)
        return lines(self, crop)

    async with app.run_test(size=(80, 24)) as pilot:
        log = app.screen.query_one(RollLog)
        bar = log.vertical_scrollbar
        await until(lambda: bar.window_virtual_size == log.virtual_size.height)
        await pilot.pause()
        monkeypatch.setattr(Compositor, "render_partial_update", counted_update)
        monkeypatch.setattr(Widget, "render_lines", counted_lines)
        await pilot.pause()
        frames.clear()  # what the start left to draw
        app.session.execute(AddNote("one more"))
        await until(lambda: bar.window_virtual_size == log.virtual_size.height)
        await until(lambda: frames)
        await pilot.pause()
        assert "one more" in screen_text(app) and bar.position == log.scroll_y
        assert len(frames) == 1 and "RollLog" in frames[0]


def test_an_entry_is_described_and_drawn_once_for_every_log(monkeypatch) -> None:
    calls: list[object] = []
    real = roll_log.describe

    def counting(before, event):  # type: ignore[no-untyped-def]
        calls.append(event)
        return real(before, event)

    monkeypatch.setattr(roll_log, "describe", counting)
    shared = Shared(size=2)
    history = History(new_encounter("Quick", a_system()))
    (event, before), *_ = history.in_effect()
    first = shared.entry(before, event)
    assert shared.entry(before, event) is first and len(calls) == 1
    # Equal but other objects (another view's state) are described on their own.
    other = before.update(name=before.name)
    assert other == before and other is not before
    assert shared.entry(other, event).plain == first.plain and len(calls) == 2
    strips = ["drawn"]
    shared.keep_strips(first, 40, ("looks",), strips)  # type: ignore[list-item]
    assert shared.strips(first, 40, ("looks",)) is strips
    assert shared.strips(first, 41, ("looks",)) is None  # another width is drawn anew
    # Only the newest are kept.
    shared.entry(before.update(round=2), event)
    assert shared.entry(before, event) is not first and len(calls) == 4


async def test_the_heap_is_frozen_once_seats_settle_and_given_back_on_close() -> None:
    heap = Heap(delay=0.05)
    try:
        heap.changed()
        heap.changed()  # a burst of joins settles once
        assert gc.get_freeze_count() == 0 and not heap.settled
        await until(lambda: heap.settled)
        assert gc.get_freeze_count() > 0
    finally:
        heap.close()
    assert gc.get_freeze_count() == 0
    heap.changed()  # a seat ending after the table closed freezes nothing again...
    assert heap.settled  # ...nor will: nothing is due
    assert gc.get_freeze_count() == 0


async def test_only_an_ended_app_unfreezes_the_heap_to_free_its_objects() -> None:
    class Node:
        pass

    heap = Heap(delay=0.05)
    try:
        node = Node()
        node.cycle = node  # type: ignore[attr-defined]  # freed only by a full collection
        gone = weakref.ref(node)
        heap.changed()
        await until(lambda: heap.settled)
        del node
        heap.changed()  # a seat joined or woke: only what is not frozen is collected
        await until(lambda: heap.settled)
        assert gone() is not None
        heap.changed(ended=True)  # a seat left: everything is looked at once
        await until(lambda: heap.settled)
        assert gone() is None
    finally:
        heap.close()


async def test_a_busy_table_frees_ended_apps_in_a_quiet_moment_or_after_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Node:
        pass

    busy = [True]  # seats are typing
    heap = Heap(delay=0.05, busy=lambda: busy[0])
    monkeypatch.setattr(heap_module, "RECLAIM_AFTER", 2)
    nodes = [Node() for _ in range(3)]  # three apps' objects, freed only by a full collection
    for node in nodes:
        node.cycle = node  # type: ignore[attr-defined]
    gone = [weakref.ref(node) for node in nodes]
    try:
        heap.changed()
        await until(lambda: heap.settled)  # frozen
        del node
        nodes.pop(0)
        heap.changed(ended=True)
        done = heap.collections
        await until(lambda: heap.collections > done)
        assert gone[0]() is not None and heap.unfreed == 1 and not heap.settled  # it waits
        nodes.pop(0)
        heap.changed(ended=True)  # the second app ended: both freed, however busy
        await until(lambda: heap.settled)
        assert gone[0]() is None and gone[1]() is None and heap.unfreed == 0
        nodes.pop(0)
        heap.changed(ended=True)
        done = heap.collections
        await until(lambda: heap.collections > done)
        assert gone[2]() is not None
        busy[0] = False  # a quiet moment
        await until(lambda: heap.settled)
        assert gone[2]() is None
    finally:
        heap.close()
