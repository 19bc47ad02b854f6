"""The roll log: every event in effect, newest at the bottom, rolls with their full dice.

A fight can hold tens of thousands of entries, so the log is virtual (Textual's line API):
an opened fight's entries are described only when first drawn or read
(``tracker.widgets.log_entries``), and only the lines on screen are rendered, cached until
the width or the theme changes. How many lines an entry takes at the pane's width is known
from its lines' widths when they all fit; an entry with a longer line, or not described
yet, is only guessed until it is first drawn, when its count is corrected and the lines
after it move. So opening or narrowing a long fight costs the entries on screen, not the
fight (a 20,000-entry fight at 80 columns had every entry described, and nearly every one
wrapped by Rich at every width change). Appending and undoing touch only the end of the
log. Text selected with the mouse is highlighted, and ctrl+c copies it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.actions import SkipAction
from textual.color import Color
from textual.geometry import Offset, Region, Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip

from rules.encounter import AnyEncounter, Event
from rules.engine import describe
from rules.logline import LogEntry
from tracker.terminal.render import STYLES, entry_text, system_styles
from tracker.widgets.log_entries import MARK, LogEntries
from tracker.widgets.scrolled_lines import keep_scrolled_lines

CACHED_ENTRIES = 400  # rendered entries kept (a few screens' worth)
# Guessed line counts are made exact at once while this few (a few screens' worth): a short
# log's scrollbar is then exact from its first frame, as it always was.
EXACT_UP_TO = 64
SHARED_ENTRIES = 256  # recent entries kept for every log in the process


class Shared:
    """What several logs showing the same change would each work out: done once.

    A served table runs a log per seat in one process, and the seats that see the same
    view are handed the very same (event, state before) pairs: the entry is described, and
    drawn at a width in a theme, once for all of them. Keys are the objects' identities;
    the objects are held with the result, so an identity is never reused while it is kept.
    """

    def __init__(self, size: int = SHARED_ENTRIES) -> None:
        self.size = size
        self._entries: dict[tuple[int, int], tuple[Event, AnyEncounter, LogEntry]] = {}
        self._strips: dict[tuple[int, int, tuple[object, ...]], tuple[LogEntry, list[Strip]]] = {}

    def entry(self, before: AnyEncounter, event: Event) -> LogEntry:
        key = (id(event), id(before))
        known = self._entries.get(key)
        if known is not None:
            return known[2]
        entry = describe(before, event)
        self._keep(self._entries, key, (event, before, entry))
        return entry

    def strips(self, entry: LogEntry, width: int, styles: tuple[object, ...]) -> list[Strip] | None:
        known = self._strips.get((id(entry), width, styles))
        return known[1] if known is not None else None

    def keep_strips(
        self, entry: LogEntry, width: int, styles: tuple[object, ...], strips: list[Strip]
    ) -> None:
        self._keep(self._strips, (id(entry), width, styles), (entry, strips))

    def _keep(self, cache: dict[Any, Any], key: Any, value: Any) -> None:
        if len(cache) >= self.size:
            cache.pop(next(iter(cache)))
        cache[key] = value


SHARED = Shared()


class RollLog(ScrollView, can_focus=True):
    """Entries wrap to the pane; the log follows the newest entry unless scrolled up."""

    # The log's semantic styles, coloured by the theme in tracker.tcss (a system's own styles
    # name the theme's colours themselves: ``_style_map``).
    COMPONENT_CLASSES = {f"roll-log--{name}" for name in STYLES}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # Each entry's plain text (a sequence of str: for seats, tests and copying), each
        # described when first drawn or asked for.
        self.entries = LogEntries()
        self._counts: list[int] = []  # lines each entry takes at self._width...
        self._guessed: set[int] = set()  # ...only guessed for these, never drawn at it
        self._ends: list[int] = []  # line number just after each entry, at self._width
        self._width = 0
        self._strips: dict[int, list[Strip]] = {}  # entry index -> its rendered lines
        self._styles: dict[str, Style] | None = None
        self._system = ""  # the system whose own log styles are drawn
        self._following = False  # a scroll to the newest entry is on its way
        # Whether the newest line was in view when the log last scrolled: kept through a
        # resize (which can leave the end out of view without a scroll), so the log goes
        # on following its newest entry after one unless it was scrolled up.
        self._pinned = True
        self._rewrap_due = False
        self.drawn = False  # its entries' lines have been drawn (``EncounterScreen`` waits)
        self._frame: tuple[Offset, int, Style, Selection | None] | None = (
            None  # set while a frame is drawn
        )
        keep_scrolled_lines(self)  # a new entry scrolls the log: only new lines are framed

    # --- filling --------------------------------------------------------------------------------

    def show(
        self,
        events: Iterable[tuple[Event, AnyEncounter | None]],
        mark_last: bool = False,
        folds: bool = False,
    ) -> None:
        """Replace the log with these (event, state before it) pairs.

        ``mark_last`` highlights the newest entry, as the replay's current event. ``folds``:
        each state is the one before with its event applied (``HistoryView.in_effect_folds``),
        so only some are kept (``LogEntries``), and a state may be left out (None: folded
        when needed); else every one is kept. Either way an entry is described when first
        drawn.
        """
        self.entries.clear(folds=folds)
        self._counts.clear()
        self._guessed.clear()
        self._ends.clear()
        self._strips.clear()
        if mark_last:
            events = list(events)
            self.entries.mark(len(events) - 1 if events else None)
        self._add(events, lazy=True)
        self._laid_out(follow=True)

    def append(self, events: Iterable[tuple[Event, AnyEncounter]]) -> None:
        follow = self._at_end()
        # Followed, the new entries are drawn now anyway: their counts are made exact now,
        # so that the frame that shows them is the only one.
        self._add(events, exact=follow)
        self._laid_out(follow=follow)

    def drop(self, count: int) -> None:
        """Remove the newest ``count`` entries (an undone command's)."""
        follow = self._at_end()
        keep = max(0, len(self.entries) - count)
        for index in range(keep, len(self.entries)):
            self._strips.pop(index, None)
            self._guessed.discard(index)
        self.entries.truncate(keep)
        del self._counts[keep:], self._ends[keep:]
        self._laid_out(follow=follow)

    def _add(
        self,
        events: Iterable[tuple[Event, AnyEncounter | None]],
        exact: bool = False,
        lazy: bool = False,
    ) -> None:
        """``lazy``: described when first drawn (a whole fight's log, opened), else now
        (new entries, described once for every seat that shows them)."""
        entries = self.entries
        first = len(entries)
        for event, before in events:
            if before is None:
                assert lazy, "an entry described now needs its state"
                entries.add(event, None)
                continue
            if before.system != self._system:  # its own log styles
                self._system, self._styles = before.system, None
                self._strips.clear()
            entries.add(event, before, None if lazy else SHARED.entry(before, event))
        if self._width:
            added = range(first, len(entries))
            if lazy:  # none described yet: a line each, guessed (see _line_count)
                counts = [1] * len(added)
                self._guessed.update(added)
            else:
                counts = [self._line_count(index, exact) for index in added]
            self._counts += counts
            self._ends += list(accumulate(counts, initial=self._total()))[1:]

    # --- layout ---------------------------------------------------------------------------------

    def _total(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _line_count(self, index: int, exact: bool = False) -> int:
        """Lines the entry takes at the current width: exact if its lines fit, it has been
        drawn at this width or ``exact`` (it is drawn now), else guessed (and the entry
        noted, to be corrected when drawn)."""
        width = self._width
        widths = self.entries.widths(index, describe=exact)
        self._guessed.discard(index)
        if widths is None:
            self._guessed.add(index)
            return 1  # not described yet: at least a line
        if all(w <= width for w in widths):
            return len(widths)
        drawn = self._strips.get(index)
        if drawn is not None or exact:
            return len(drawn or self._render_entry(index))
        self._guessed.add(index)
        # At least this many: a word-wrapped line never takes fewer rows than its width needs.
        return sum(-(-w // width) or 1 for w in widths)

    def _settle(self, top: int, bottom: int) -> bool:
        """Draw the entries on lines ``top`` to ``bottom`` whose line counts were guessed, and
        correct the counts (and so the lines after them): whether any count changed."""
        index = bisect_right(self._ends, top)
        start = self._ends[index - 1] if index else 0
        counts, guessed = self._counts, self._guessed
        changed: int | None = None
        while index < len(counts) and start < bottom:
            if index in guessed:
                guessed.discard(index)
                count = len(self._render_entry(index))
                if count != counts[index]:
                    counts[index] = count
                    changed = index if changed is None else changed
            start += counts[index]
            index += 1
        if changed is None:
            return False
        before = self._ends[changed - 1] if changed else 0
        self._ends[changed:] = list(accumulate(counts[changed:], initial=before))[1:]
        return True

    def _settle_view(self) -> None:
        """Make the lines about to be drawn exact (see ``_settle``); a log that follows its
        newest entry stays at its end as the counts grow."""
        if not self._guessed or not self._width:
            return
        follow = self._at_end()
        height = max(self.scrollable_content_region.height, 1)
        # A few passes at most: each makes more entries exact, and only a log at its end moves.
        for _ in range(8):
            top = round(self.scroll_y)
            if not self._settle(top, top + height):
                return
            self._laid_out(follow=follow)
            if not follow:
                return

    def _exact_if_few(self) -> None:
        """Draw the entries whose counts were guessed, if they are few (``EXACT_UP_TO``)."""
        if not self._guessed or len(self._guessed) > EXACT_UP_TO:
            return
        for index in sorted(self._guessed):
            self._counts[index] = len(self._render_entry(index))
        self._guessed.clear()
        self._ends = list(accumulate(self._counts))

    def _laid_out(self, follow: bool) -> None:
        self._exact_if_few()
        size = Size(self._width, self._total())
        container = self.container_size
        # Only the height changed and the scrollbar neither comes nor goes: nothing moves on
        # the screen, so no layout pass (Textual's setter would lay the whole screen out);
        # the scrollbar's thumb is moved through its own attributes, in the very frame that
        # draws the entry (a served table draws every seat on one loop: a frame of its own
        # for the thumb was a frame more for every seat that draws itself).
        quiet = (
            size.width == self.virtual_size.width
            and bool(container)
            and (size.height > container.height) == self.show_vertical_scrollbar
        )
        if quiet:
            self.set_reactive(RollLog.virtual_size, size)
        else:
            self.virtual_size = size
        if follow:
            # Scrolled now, so the newest entry shows in the very frame that draws it (on a
            # served table a second frame per change would double every seat's work); once
            # more after the next refresh, in case a layout changed the pane's height.
            end = self.max_scroll_y
            if quiet:  # without moving the thumb now
                self.scroll_target_y = end
                self.set_scroll(None, end)
            else:
                self.scroll_to(y=end, animate=False, force=True)
            self._following = True
            self.call_after_refresh(self._to_end)
        if quiet:
            self._move_thumb()
        # The content's lines only: the frame stays, and lines still shown keep their looks.
        self.refresh(self.size.region)

    def _move_thumb(self) -> None:
        """What Textual does for a new virtual size, through the scrollbar's own attributes:
        the bar neither came nor went since (see ``_laid_out``), so only its thumb moves."""
        self.scroll_y = self.validate_scroll_y(self.scroll_y)  # undo may have shortened the log
        if self.show_vertical_scrollbar:
            bar = self.vertical_scrollbar
            bar.window_virtual_size = self.virtual_size.height
            bar.window_size = self.container_size.height - self.scrollbar_size_horizontal
            bar.position = self.scroll_y

    def _to_end(self) -> None:
        # Forced: the scrollbar that allows the scroll may not be laid out yet.
        self.scroll_end(animate=False, immediate=True, x_axis=False, force=True)
        self._following = False
        # Scrolled while the scrollbar was still hidden, the log's thumb kept its old place
        # (Textual moves it only on a scroll while shown): draw it where the log is.
        if self.show_vertical_scrollbar:
            self.vertical_scrollbar.position = self.scroll_y

    def action_scroll_end(self) -> None:
        """To the newest entry at once, following it: an animated scroll would stop where
        the end was guessed to be as it set off (the entries drawn on its way correct it)."""
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self._pinned = True
        self._to_end()

    def action_scroll_home(self) -> None:
        """To the oldest entry at once: animated, the scroll drew (and described) every
        entry on its way, two seconds to the first on a 20,000-entry fight."""
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_home(animate=False, x_axis=False)

    def _at_end(self) -> bool:
        return self._following or self._pinned

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._pinned = new_value >= self.max_scroll_y

    def on_resize(self) -> None:
        follow = self._at_end()
        self._rewrap()
        if follow and self.scroll_y < self.max_scroll_y:
            # Shorter now (the combatants pane grew above it): the newest entry stays shown.
            self._to_end()

    def _rewrap(self) -> None:
        """Lay the entries out again for the width of the pane (a scrollbar takes some)."""
        self._rewrap_due = False
        width = max(self.scrollable_content_region.width, 1)
        if width == self._width:
            return
        follow = self._at_end()
        self._width = width
        self._strips.clear()
        # An entry not yet described takes a line, guessed (see _line_count): counted
        # apart only are those described, so a long fight's rewrap costs what was drawn.
        count = len(self.entries)
        self._counts = [1] * count
        self._guessed = set(range(count))
        for index in self.entries.described_indices():
            self._counts[index] = self._line_count(index)
        self._ends = list(accumulate(self._counts))
        self._laid_out(follow=follow)

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object) -> None:
        """Draw the entries again in the new theme's colours."""
        self._styles = None
        self._strips.clear()
        self.refresh()

    # --- drawing --------------------------------------------------------------------------------

    def _style_map(self) -> dict[str, Style]:
        if self._styles is None:
            self._styles = {
                name: self.get_component_rich_style(f"roll-log--{name}", partial=True)
                for name in STYLES
            }
            if self._system:
                theme = self.app.theme_variables

                def colour(name: str) -> str:  # as tracker.tcss's $name gives it
                    return Color.parse(theme[name]).rich_color.name if name in theme else ""

                own = system_styles(self._system, colour)
                self._styles.update((name, Style.parse(style)) for name, style in own.items())
        return self._styles

    def _render_entry(self, index: int) -> list[Strip]:
        strips = self._strips.get(index)
        if strips is not None:
            return strips
        entry = self.entries.entry(index)
        styles = self._style_map()
        shared = index != self.entries.marked  # the replay's marked entry is this log's own
        looks = tuple(styles.items())
        width = max(self._width, 1)
        strips = SHARED.strips(entry, width, looks) if shared else None
        if strips is None:
            text = entry_text(entry, styles)
            if not shared:
                if not entry.plain.startswith(MARK):
                    text = Text(MARK, style="bold") + text
                text.stylize("reverse")
            console = self.app.console
            options = console.options.update_width(width)
            strips = [Strip(line) for line in console.render_lines(text, options, pad=False)]
            if shared:
                SHARED.keep_strips(entry, width, looks, strips)
        if len(self._strips) >= CACHED_ENTRIES:
            self._strips.pop(next(iter(self._strips)))
        self._strips[index] = strips
        return strips

    def render_lines(self, crop: Region) -> list[Strip]:
        self._settle_view()
        self.drawn = self.drawn or bool(self._ends)  # its lines, not an empty box
        # What every line needs, worked out once a frame rather than twice a line (the
        # pane's style is resolved from its CSS each time it is asked for).
        self._frame = (
            self.scroll_offset,
            self.scrollable_content_region.width,
            self.rich_style,
            self.text_selection,
        )
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    def render_line(self, y: int) -> Strip:
        (scroll_x, scroll_y), width, style, selection = self._frame or (
            self.scroll_offset,
            self.scrollable_content_region.width,
            self.rich_style,
            self.text_selection,
        )
        line = scroll_y + y
        if width != self._width and not self._rewrap_due:
            self._rewrap_due = True  # a scrollbar came or went: once, after this frame
            self.call_later(self._rewrap)
        strip = self._line(line)
        if strip is None:
            return Strip.blank(width, style)
        if selection is not None:
            strip = self._highlighted(strip, selection.get_span(line))
        strip = strip.crop_extend(scroll_x, scroll_x + width, style).apply_style(style)
        # Where each character comes from, so that the mouse can select text. Cached on the
        # strip by Textual: the same line hands back the same Strip (see scrolled_lines).
        return strip.apply_offsets(scroll_x, line)

    def _line(self, line: int) -> Strip | None:
        """The log's line ``line`` (0 is the first entry's first line), or None past the end."""
        if not self._width or line >= self._total():
            return None
        index = bisect_right(self._ends, line)
        start = self._ends[index - 1] if index else 0
        strips = self._render_entry(index)
        return strips[line - start] if line - start < len(strips) else None

    # --- selecting with the mouse ---------------------------------------------------------------

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The selected text (what ctrl+c copies): whole entries as written, a part of an
        entry as its lines show it.

        Whole entries are not drawn for this, so selecting a long fight's log costs little
        (a served table would wait for it).
        """
        start, end = selection
        total = self._total()
        if start is not None and start.y >= total:
            return None
        if end is not None and end.y >= total:
            end = None  # below the last line: to the end of the log
        first = 0 if start is None else start.y
        last = total - 1 if end is None else end.y
        pieces: list[str] = []
        for index in range(bisect_right(self._ends, first), bisect_right(self._ends, last) + 1):
            top, bottom = self._ends[index - 1] if index else 0, self._ends[index]
            starts_inside = start is not None and start.transpose > (top, 0)
            ends_inside = end is not None and end.y < bottom
            if not (starts_inside or ends_inside):
                pieces.append(self.entries[index])
                continue
            lines = "\n".join(strip.text.rstrip() for strip in self._render_entry(index))
            part = Selection(
                start - (0, top) if start is not None and starts_inside else None,
                end - (0, top) if end is not None and ends_inside else None,
            )
            pieces.append(part.extract(lines))
        return "\n".join(pieces), "\n"

    def _highlighted(self, strip: Strip, span: tuple[int, int] | None) -> Strip:
        """``strip`` with its selected characters (``span``, -1: to the end) highlighted."""
        if span is None:
            return strip
        text = strip.text
        start, end = span
        left = cell_len(text[:start])
        right = strip.cell_length if end == -1 else cell_len(text[:end])
        if left >= right:
            return strip
        before, chosen, after = strip.divide([left, right, strip.cell_length])
        selected = self.screen.get_component_rich_style("screen--selection")
        chosen = Strip(Segment.apply_style(chosen, post_style=selected), right - left)
        return Strip.join([before, chosen, after])
