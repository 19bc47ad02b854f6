"""Every use of Textual's private code, in one module: what each buys, and how each fails.

textual is pinned (pyproject.toml, constraints.txt), and still what is used here is checked
against the code it was written for, Textual ``WRITTEN_FOR``, before it is used:

- The nine speed patches, two memory patches and one speed route fail open. If Textual's
  code under one is not the code it was written for (a fingerprint of its source), it is
  not installed (or used): the app runs on Textual's own code, slower (or larger) and still
  correct, and says so once on stderr.
- Serving needs two things Textual and Rich have no public route to (a terminal's input
  parser, a console's colour system). With another Textual they fail at once, with an error
  that says what is missing.

Nothing else in tracker/ imports a private Textual module or reads a private attribute.
After an upgrade, tests/app/test_textual_internals.py says which fingerprint changed: read
the new Textual code against the patch, then record the fingerprint it prints.
"""

from __future__ import annotations

import linecache
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

import textual
from rich.cells import cell_len
from rich.console import COLOR_SYSTEMS, Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App
from textual.cache import FIFOCache
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.geometry import Region
from textual.reactive import Reactive
from textual.render import measure as textual_measure
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

# Private modules, imported here only; on a Textual without them the patches that rely on
# them are not installed (see ``usable``) rather than the app failing to start.
try:
    from textual._compositor import ChopsUpdate, LayoutUpdate
    from textual._compositor import Compositor as Compositor  # partial_renders' type
except ImportError:
    ChopsUpdate = Compositor = LayoutUpdate = None  # type: ignore[assignment,misc]  # gone: no patch
try:
    from textual._styles_cache import StylesCache as StylesCache  # scrolled_lines' base
except ImportError:
    StylesCache = object  # type: ignore[assignment,misc]  # a base for ScrolledLinesCache
try:
    from textual.widgets._footer import Footer, FooterKey
except ImportError:
    Footer = FooterKey = None  # type: ignore[assignment,misc]  # gone: no patch

if TYPE_CHECKING:
    from textual._xterm_parser import XTermParser
    from textual.widgets import DataTable

WRITTEN_FOR = "8.2.8"  # the Textual whose code the fingerprints below were taken from

RenderChops = Callable[[Any, Region, Callable[[int], bool]], Sequence[Mapping[int, Strip]]]


class Patch(NamedTuple):
    """A speed patch, and the Textual code it was written for."""

    name: str  # as stderr names it
    fingerprint: str  # of ``relies_on()``'s source in Textual WRITTEN_FOR
    relies_on: Callable[[], Sequence[object]]  # the functions it replaces or leans on


# --- speed patch: partial renders (tracker/terminal/partial_renders.py)
# -------------------------------
#
# Buys, with the scrolled-lines cache below (and the control-code filter's fast path): a
# note's frame 1.5-1.7 ms instead of 3.6-4.2 ms, and a note to 32 seats drawn in 52-61 ms
# instead of 106-329 ms (docs/contributing/performance.md, "One seat's frame"; measured together).
# This patch's share: the header, footer, panes, containers and screen are no longer rendered
# for a new line in the roll log; and a whole frame (the screen back from a dialog, or dimmed
# behind one) renders no container or screen that the panes cover, nor cuts their lines at
# every edge in front of them. Public route that would replace it: none in Textual 8.2; it
# would take Textual's compositor rendering only the widgets and rows it sends (an upstream
# change to ``Compositor._render_chops``).
def _getter(owner: type, name: str) -> object:
    """The function behind a property (its source is what a fingerprint covers)."""
    found = vars(owner).get(name)
    return found.fget if isinstance(found, property) else found


TEXTUALS_RENDER_CHOPS: RenderChops | None = getattr(Compositor, "_render_chops", None)
PARTIAL_RENDERS = Patch(
    "partial-render",
    "a2e6f2e6",
    lambda: (
        TEXTUALS_RENDER_CHOPS,  # replaced
        Compositor._get_renders,  # what ours renders instead
        Compositor.render_partial_update,  # its callers: the crop and the rows sent...
        Compositor.render_full_update,  # ...the whole screen...
        Compositor.render_strips,  # ...and a screen dimmed behind a dialog
        ChopsUpdate.render_segments,  # which pieces are sent
        _getter(Compositor, "cuts"),
        _getter(Compositor, "visible_widgets"),
    ),
)


def install_partial_renders(render_chops: RenderChops) -> bool:
    """Every compositor renders its updates with ``render_chops`` from now on, if Textual's
    code under it is the code it was written for. Returns whether it is installed."""
    if not usable(PARTIAL_RENDERS):
        return False
    Compositor._render_chops = render_chops  # type: ignore[method-assign,assignment]  # the patch
    return True


def installed_chops() -> RenderChops | None:
    """What compositors render their updates' pieces with now: ours, or Textual's."""
    return getattr(Compositor, "_render_chops", None)


@contextmanager
def textuals_own_chops() -> Iterator[None]:
    """Compositors render with Textual's own code while inside (to compare ours with)."""
    installed = Compositor._render_chops
    Compositor._render_chops = TEXTUALS_RENDER_CHOPS  # type: ignore[method-assign,assignment]  # back
    try:
        yield
    finally:
        Compositor._render_chops = installed  # type: ignore[method-assign]  # the patch again


# --- speed patch: scrolled lines (tracker/widgets/scrolled_lines.py) -------------------------
#
# Buys the other share of the figures above: after a note scrolls the roll log, only the new
# line is framed (padding, border, line filters) instead of all 13 on screen. Public route
# that would replace it: none in Textual 8.2; it would take Textual keeping a widget's framed
# lines by the content line they were made from, not by row (an upstream StylesCache change).
SCROLLED_LINES = Patch(
    "scrolled-lines",
    "8f6a5bd8",
    lambda: (
        StylesCache.__init__,  # ScrolledLinesCache overrides four of these...
        StylesCache.clear,
        StylesCache.render,
        StylesCache.render_line,
        StylesCache.render_widget,  # ...and this one calls them
        Widget.render_lines,  # a widget draws through its styles cache...
        Widget._set_dirty,  # ...and clears it on a full refresh
    ),
)


def keep_framing_cache(widget: Widget, make: Callable[[], StylesCache]) -> bool:
    """Give ``widget`` (before it is first drawn) the styles cache ``make()``, if Textual's
    code under it is the code it was written for. Returns whether it was given."""
    if not usable(SCROLLED_LINES) or not isinstance(framing_cache(widget), StylesCache):
        return False
    widget._styles_cache = make()
    return True


def framing_cache(widget: Widget) -> StylesCache | None:
    """The styles cache ``widget`` draws through (None on a Textual without one)."""
    return getattr(widget, "_styles_cache", None)


# --- speed patch: footer keys styled once (tracker/widgets/key_bar.py) ----------------------
#
# Buys about a quarter of an app's start (and of each screen's footer redrawn after its
# bindings change). Textual's Footer makes each key at FooterKey's ``compact`` default (True)
# and binds it to the footer's own (False) once mounted; so each key is styled when it is
# registered, then again as its watcher adds ``-compact``, and again as the binding takes it
# away. Given the footer's value and class before it is registered, the key is styled once
# and the watcher finds nothing to change; a key the footer does not bind (the palette's) is
# left as it is. A later change of the footer's ``compact`` still restyles its keys. Public
# route that would replace it: none in Textual 8.2; it would take Footer making its keys at
# its own ``compact`` (an upstream change to ``Footer.compose``).
TEXTUALS_DATA_BIND = DOMNode.data_bind
SETTLED_FOOTER_KEYS = Patch(
    "footer-keys",
    "6fa42d95",
    lambda: (
        Footer.compose,  # makes the keys, binding ``compact`` before they are registered
        FooterKey.__init__,  # sets no ``compact`` and no ``-compact`` class
        FooterKey._watch_compact,  # the class the value stands for
        TEXTUALS_DATA_BIND,  # wrapped: where the binding is recorded...
        DOMNode._initialize_data_bind,  # ...and set once mounted, watchers called
        DOMNode.set_reactive,  # a value set without its watcher...
        Reactive._initialize_reactive,  # ...is not set to the default (and watched) at mount
        DOMNode.add_class,  # a class already there is not restyled...
        DOMNode.remove_class,  # ...nor one already gone
    ),
)


def settled_data_bind(key: FooterKey, *reactives: Any, **bind_vars: Any) -> FooterKey:
    """Textual's ``data_bind``; a key not yet registered whose ``compact`` it binds to a
    footer's is given that value (and its class) now, so it is styled once."""
    TEXTUALS_DATA_BIND(key, *reactives, **bind_vars)
    footer, reactive = (key._reactive_connect or {}).get("compact", (None, None))
    if reactive is Footer.compact and isinstance(footer, Footer) and key.parent is None:
        key.set_reactive(FooterKey.compact, footer.compact)
        key.set_class(footer.compact, "-compact", update=False)
    return key


def install_settled_footer_keys() -> bool:
    """Every footer's keys are styled once from now on, if Textual's code under it is the
    code it was written for. Returns whether it is installed."""
    if not usable(SETTLED_FOOTER_KEYS):
        return False
    FooterKey.data_bind = settled_data_bind  # type: ignore[method-assign,assignment]  # the patch
    return True


# --- speed patch: a kept dialog is not restyled as it shows again (tracker/screens/form.py) ---
#
# Buys about two fifths of `r` to the roll dialog (profiled on the 200-combatant fight at
# 80x24: 105 widgets restyled at every opening). Textual's ``push_screen`` has the screen it
# shows restyle every widget in it (``ScreenResume(refresh_styles=True)``). A dialog the
# encounter screen keeps and shows again was styled when it was last shown, and every
# change to it since restyled what it changed (a class, focus, hover: Textual restyles those
# as they happen), but for a change of the app's CSS (a theme) while it was hidden, which
# Textual counts in ``App._css_update_count``. So a screen whose class says ``KEEPS_STYLES``
# is restyled as it shows only when that count moved since it was last restyled so. Public
# route that would replace it: none in Textual 8.2; it would take ``push_screen`` restyling
# a screen only when its CSS changed (an upstream change to ``Screen._on_screen_resume``).
# The same holds for a screen as it first shows, its widgets styled as they were mounted
# just before (``styled_as_mounted``: the encounter screen, at every start).
TEXTUALS_SCREEN_RESUME = Screen._on_screen_resume
KEPT_STYLES = Patch(
    "kept-styles",
    "433c991d",
    lambda: (
        TEXTUALS_SCREEN_RESUME,  # wrapped: the only reader of ``refresh_styles``
        App.push_screen,  # posts ScreenResume(), restyling
        App.pop_screen,  # posts ScreenResume(refresh_styles=False)
        App._invalidate_css,  # counts every change of the CSS...
        App.refresh_css,  # ...and restyles the screens in the stack only
    ),
)
STYLED_AT = "_tracker_styled_at"  # a kept screen's: the CSS count it was last restyled at
# A screen's, from its mount to its first show: the CSS count its widgets were styled at as
# they were mounted (``styled_as_mounted``).
MOUNTED_AT = "_tracker_mounted_at"


def styled_as_mounted(screen: Screen[Any]) -> None:
    """``screen``'s widgets were styled as they were mounted, just now: as it first shows, it
    is not restyled whole again unless the app's CSS changed in between (the encounter
    screen: some 2% of a start's work; a dialog: a third of its first opening). Call from
    the screen's ``on_mount``."""
    if usable(KEPT_STYLES):
        setattr(screen, MOUNTED_AT, screen.app._css_update_count)


def _resume_keeping_styles(screen: Screen[Any], event: events.ScreenResume) -> None:
    """Textual's ``_on_screen_resume``; a screen that ``KEEPS_STYLES`` is not restyled if its
    last restyle was at the app's CSS as it is now, nor one showing for the first time since
    it was ``styled_as_mounted`` at that CSS."""
    mounted = screen.__dict__.pop(MOUNTED_AT, None)
    if event.refresh_styles and mounted == screen.app._css_update_count:
        event.refresh_styles = False  # styled as mounted, and kept up since
        if getattr(screen, "KEEPS_STYLES", False):
            setattr(screen, STYLED_AT, mounted)  # as if restyled now: not when shown again
    elif event.refresh_styles and getattr(screen, "KEEPS_STYLES", False):
        count = screen.app._css_update_count
        if getattr(screen, STYLED_AT, None) == count:
            event.refresh_styles = False  # styled at this CSS, and kept up since
        elif screen.is_attached:
            setattr(screen, STYLED_AT, count)  # restyled now, just below
    TEXTUALS_SCREEN_RESUME(screen, event)


def install_kept_styles() -> bool:
    """Screens that ``KEEPS_STYLES`` are restyled as they show only after a change of CSS,
    from now on, if Textual's code under it is the code it was written for. Returns whether
    it is installed."""
    if not usable(KEPT_STYLES):
        return False
    Screen._on_screen_resume = _resume_keeping_styles  # type: ignore[method-assign,assignment]  # the patch
    return True


# --- speed patch: the screen behind a dialog dimmed style by style (every dialog) -----------
#
# Buys about a fifth of `r` to the roll dialog at 80x24 (profiled: the encounter behind it,
# some 350 pieces of text, each of its colours blended with the dialog's background in
# Python for every frame of the dialog). A piece's dimmed style depends only on its style
# and the tint, and a screen holds a few dozen styles: each is worked out once, by
# Textual's own code, and kept. Public route that would replace it: none in Textual 8.2; it
# would take ``BackgroundScreen.process_segments`` caching what it blends (upstream).
TEXTUALS_DIMMING = BackgroundScreen.__dict__["process_segments"].__func__
DIMMED_STYLES = Patch(
    "dimmed-styles",
    "37578be2",
    lambda: (TEXTUALS_DIMMING, BackgroundScreen.__rich_console__),
)
DIMMED_KEPT = 2048  # styles kept (a theme's worth many times over); emptied when full
_dimmed: dict[tuple[Style | None, object], Style | None] = {}


def _dimmed_segments(
    cls: type[BackgroundScreen], segments: Iterable[Segment], color: Any
) -> Iterator[Segment]:
    """Textual's ``process_segments``, each style's dimmed style worked out once."""
    if color.a == 0:  # Textual's special case: no blending
        yield from TEXTUALS_DIMMING(cls, segments, color)
        return
    for segment in segments:
        text, style, control = segment
        if control:
            yield segment
            continue
        key = (style, color)
        if key in _dimmed:
            dimmed = _dimmed[key]
        else:
            if len(_dimmed) >= DIMMED_KEPT:
                _dimmed.clear()
            (made,) = TEXTUALS_DIMMING(cls, [Segment(" ", style)], color)
            dimmed = _dimmed[key] = made.style
        yield Segment(text, dimmed, control)


def install_dimmed_styles() -> bool:
    """The screen behind a dialog is dimmed style by style from now on, if Textual's code
    under it is the code it was written for. Returns whether it is installed."""
    if not usable(DIMMED_STYLES):
        return False
    BackgroundScreen.process_segments = classmethod(_dimmed_segments)  # type: ignore[method-assign,assignment]  # the patch
    return True


# --- speed patch: a table's rows updated alone (tracker/widgets/combatants.py) -----------------
#
# Buys, on the 200-combatant fight at 80x24, 2-7 ms of every frame after a change (a roll, an
# undo): ``DataTable.update_cell`` counts an update of the whole table, which every cache of
# its renders is keyed by, so one changed cell had every cell of every row on screen drawn
# through Rich again. Here the cells are put in place, only the changed rows' renders are
# dropped, and only those rows are refreshed. Public route that would replace it: none in
# Textual 8.2; it would take ``update_cell`` invalidating its own row only (an upstream change).
def _kept_rows_rely_on() -> Sequence[object]:
    from textual.widgets import DataTable  # where a table is drawn: not at every start

    return (
        DataTable.update_cell,  # what ``update_rows`` does instead
        DataTable.__init__,  # the caches of renders, and what each is keyed by...
        DataTable._get_row_renderables,  # ...(update count, row index)...
        DataTable._render_cell,  # ...(row key, column key, ...)...
        DataTable._render_line_in_row,  # ...(row key, ...)...
        DataTable._render_line,  # ...(line, ...): emptied
        DataTable.refresh_row,  # the row's region refreshed
    )


KEPT_ROWS = Patch("kept-rows", "a883484f", _kept_rows_rely_on)


def update_rows(table: DataTable[Any], rows: Mapping[str, Mapping[str, object]]) -> None:
    """Put these cells (by row key, then column key; each must exist) in ``table`` and draw
    again only their rows, keeping the other rows' renders; with Textual's ``update_cell``
    (which draws every row again) if its code is not the code this was written for."""
    if not rows:
        return
    if not _kept_rows[0]:
        for row, cells in rows.items():
            for column, value in cells.items():
                table.update_cell(row, column, value)
        return
    from textual.widgets.data_table import CellDoesNotExist, ColumnKey, RowKey

    changed = {RowKey(row) for row in rows}
    data = table._data
    for row, cells in rows.items():
        for column, value in cells.items():
            if RowKey(row) not in data or ColumnKey(column) not in table._column_locations:
                raise CellDoesNotExist(f"No cell exists for row {row!r}, column {column!r}.")
            data[RowKey(row)][ColumnKey(column)] = value
    indexes = {table._row_locations.get(key) for key in changed}
    _forget(table._row_renderable_cache, lambda key: key[1] in indexes)  # (count, index)
    _forget(table._cell_render_cache, lambda key: key[0] in changed)  # (row key, column...)
    _forget(table._row_render_cache, lambda key: key[0] in changed)  # (row key, line...)
    table._line_cache.clear()
    for index in indexes:
        if index is not None:
            table.refresh_row(index)


def _forget(cache: Any, dropped: Callable[[Any], bool]) -> None:
    """Drop a cache's entries whose keys ``dropped`` picks (a Textual ``LRUCache``)."""
    keys = cache.keys()
    for key in [key for key in keys if dropped(key)]:
        cache.discard(key)


_kept_rows = [False]  # installed; and not inside ``textuals_own_cell_updates``


def install_kept_rows() -> bool:
    """``update_rows`` keeps the other rows' renders from now on, if Textual's code under it
    is the code it was written for. Returns whether it is installed."""
    _kept_rows[0] = usable(KEPT_ROWS)
    return _kept_rows[0]


@contextmanager
def textuals_own_cell_updates() -> Iterator[None]:
    """``update_rows`` updates with Textual's own ``update_cell`` while inside."""
    installed = _kept_rows[0]
    _kept_rows[0] = False
    try:
        yield
    finally:
        _kept_rows[0] = installed


# --- speed patch: a table's text cells measured by their lines (tracker/widgets/combatants.py) --
#
# Buys, on the 200-combatant fight at 80x24, most of the 40-80 ms its combatants pane took to
# size its rows for the first frame, and as much of every change that adds or takes away a
# combatant: a table measures every cell of every row it is given (``textual.render.measure``)
# to size its columns, even where each column has a width of its own, as the pane's do, and
# each measure asks the console for its options (the terminal's size: three system calls)
# and Rich's measure of a Text splits it into words as well as lines. Here a Text is
# measured by its lines alone, which is the width Textual reads (the measurement's
# maximum); anything else as Textual measures it. Public route that would replace it: none
# in Textual 8.2; a column given a width could skip measuring (an upstream change to
# ``DataTable._update_dimensions``).
def _text_measure_relies_on() -> Sequence[object]:
    from textual.widgets import _data_table  # where a table is drawn

    return (
        textual_measure,  # replaced, in the table's module only
        _data_table.DataTable._update_dimensions,  # its caller: the maximum is what it reads
        Text.__rich_measure__,  # a Text's maximum: its longest line
    )


TEXT_MEASURE = Patch("text-measure", "b3493a02", _text_measure_relies_on)


def _text_measured(
    console: Console, renderable: Any, default: int, *, container_width: int | None = None
) -> int:
    """Textual's ``measure``, a Text measured by its lines alone."""
    if type(renderable) is Text:
        lines = renderable.plain.splitlines()
        return max(map(cell_len, lines)) if lines else 0
    return textual_measure(console, renderable, default, container_width=container_width)


def install_text_measure() -> bool:
    """A table measures its text cells by their lines from now on, if Textual's code under
    it is the code it was written for. Returns whether it is installed."""
    if not usable(TEXT_MEASURE):
        return False
    from textual.widgets import _data_table

    _data_table.measure = _text_measured  # type: ignore[attr-defined]  # the patch
    return True


# --- speed patch: a table's drawn cells kept across a focus change (the combatants pane) ------
#
# Buys, on the 200-combatant fight, most of the pane's drawing at every move of the focus to
# or from it (`tab`; a dialog opening and closing, `r` and `enter`): ``DataTable`` empties
# every cache of its drawn cells, rows and lines whenever its styles are touched, and the
# focus touches them, though each of those caches is keyed by the table's pseudo-classes
# (focus, hover, disabled). So every cell on screen was drawn through Rich again at each
# press. Here they are emptied only when what the table draws with has changed since it
# last drew in the same pseudo-classes: its own style and each of its components' (a new
# theme, a class). Public route that would replace it: none in Textual 8.2; it would take
# ``DataTable.notify_style_update`` keeping the caches its keys already tell apart (upstream).
_textuals_table: dict[str, Any] = {}  # DataTable's methods as Textual wrote them, once replaced


def _kept_focus_renders_rely_on() -> Sequence[object]:
    from textual.widgets import DataTable

    return (
        # replaced: what it empties, less the keyed caches
        _textuals_table.get("notify_style_update", DataTable.notify_style_update),
        # wrapped: it reads the pseudo-classes the keys hold
        _textuals_table.get("render_lines", DataTable.render_lines),
        DataTable.__init__,  # the caches...
        DataTable._render_cell,  # ...and their keys: the pseudo-classes in each...
        DataTable._render_line_in_row,
        DataTable._render_line,
        DataTable._get_styles_to_render_cell.__wrapped__,  # ...but this one's (emptied)
        Widget.notify_style_update,  # the super() it calls
    )


KEPT_FOCUS_RENDERS = Patch("kept-focus-renders", "51945579", _kept_focus_renders_rely_on)
RESTYLED = "_tracker_restyled"  # a table's: its styles were touched since it last drew
DREW_WITH = "_tracker_drew_with"  # a table's: pseudo-classes -> the styles it drew with


def _restyled_keeping_renders(table: DataTable[Any]) -> None:
    """Textual's ``DataTable.notify_style_update``, leaving the caches keyed by the
    pseudo-classes to ``_render_lines_checking_styles``."""
    Widget.notify_style_update(table)
    table._row_renderable_cache.clear()
    table._styles_cache.clear()
    table._get_styles_to_render_cell.cache_clear()
    setattr(table, RESTYLED, True)
    table.refresh()


def _drawn_with(table: DataTable[Any]) -> tuple[Style, ...]:
    """What a table's cells are drawn with: its style and each of its components'."""
    names = sorted(type(table).COMPONENT_CLASSES)
    return (table.rich_style, *(table.get_component_rich_style(name) for name in names))


def _render_lines_checking_styles(table: DataTable[Any], crop: Region) -> list[Strip]:
    """Textual's ``DataTable.render_lines``; first, if the table's styles were touched, its
    drawn cells, rows and lines are emptied where it draws with other styles than it last
    did in these pseudo-classes (its components' styles are only complete by now)."""
    if table.__dict__.pop(RESTYLED, False):
        state = table.get_pseudo_class_state()
        styles = _drawn_with(table)
        drew_with: dict[object, tuple[Style, ...]] = table.__dict__.setdefault(DREW_WITH, {})
        if drew_with.get(state, styles) != styles:
            table._row_render_cache.clear()
            table._cell_render_cache.clear()
            table._line_cache.clear()
            drew_with.clear()
        drew_with[state] = styles
    render_lines: Callable[[DataTable[Any], Region], list[Strip]] = _textuals_table["render_lines"]
    return render_lines(table, crop)


def install_kept_focus_renders() -> bool:
    """Tables keep their drawn cells across a change of focus from now on, if Textual's code
    under it is the code it was written for. Returns whether it is installed."""
    if not usable(KEPT_FOCUS_RENDERS):
        return False
    from textual.widgets import DataTable

    for name in ("notify_style_update", "render_lines"):
        _textuals_table.setdefault(name, DataTable.__dict__[name])
    DataTable.notify_style_update = _restyled_keeping_renders  # type: ignore[method-assign,assignment]  # the patch
    DataTable.render_lines = _render_lines_checking_styles  # type: ignore[method-assign,assignment]  # the patch
    return True


# --- speed route: a dialog built unseen, ahead of its key (tracker/screens/encounter_keys/) ----
#
# Buys four fifths of the first `r` of a process (in tmux at 80x24 on the big fight: 163 ms
# before, 30 ms with it, as fast as every later `r`, which shows the kept dialog;
# docs/contributing/performance/app.md): composing, mounting, styling, laying out and
# drawing the roll dialog's 55 widgets, done while the user reads the first frame. Textual
# makes a screen's widgets only as it is pushed (``_get_screen`` registers it) and lays
# them out only as it shows (``_on_screen_resume``, then again on the Resize that layout
# sends the screen). Here a screen is registered without being pushed, then laid out at the
# app's size until its scrollbars hold still, so that showing it finds its size unchanged
# and lays out nothing; drawn once, unseen, so that its widgets' lines are ready when it
# shows; and its update timer started, so that its first tick does not wait. It replaces
# no Textual code: on another Textual nothing is built ahead, and the first `r` builds its
# dialog as before. Public route that would replace it: none in Textual 8.2; it would take
# a public "mount this screen, unshown" (``App.install_screen`` only names one).
BUILT_UNSEEN = Patch(
    "built-unseen",
    "7376a778",
    lambda: (
        App._get_screen,  # registers an installed screen that is not running: its widgets
        App.push_screen,  # showing a running screen: no second registration
        Screen._refresh_layout,  # lays out at a size; draws only if the screen is current
        TEXTUALS_SCREEN_RESUME,  # lays out again only at another size (kept-styles wraps it)
        Screen._screen_resized,  # the screen's own Resize: nothing until it has shown
        Compositor.render_update,  # draws what is laid out; each widget keeps its lines
        Widget._refresh_scrollbars,  # a scrollbar shown or hidden asks for a layout...
        Widget._check_refresh,  # ...which, when idle, empties its containers' arrangements
        Widget._get_virtual_dom,  # the scrollbars, outside the children
        _getter(Screen, "_update_timer"),  # paused at its making...
        Screen._on_timer_update,  # ...its tick lays out and draws only the current screen
        Timer._run,  # a timer's first resume waits a period; a later one ticks at once
    ),
)


def can_build_unseen() -> bool:
    """Whether ``build_unseen`` will build (said once on stderr if not). Ask before an app
    runs: a running app takes stderr over."""
    return usable(BUILT_UNSEEN)


_LAYOUT_PASSES = 3  # a scrollbar shown, and the other one it can bring


def _scrollbars(screen: Screen[Any]) -> list[tuple[bool, bool]]:
    return [
        (widget.show_vertical_scrollbar, widget.show_horizontal_scrollbar)
        for widget in screen.walk_children(Widget, with_self=True)
    ]


async def build_unseen(app: App[Any], screen: Screen[Any]) -> bool:
    """Compose, mount, style, lay out and draw ``screen`` at ``app``'s size, without showing
    it: a later ``push_screen`` of it only shows it. Returns whether it was built (not on another
    Textual, see ``can_build_unseen``)."""
    if not can_build_unseen():
        return False
    _, mounted = app._get_screen(screen)
    await mounted
    if screen.is_attached and not screen.is_current:
        # Laid out again while that shows or hides a scrollbar, which narrows or widens what
        # it holds: Textual does that second pass from its message loop, for the current
        # screen only, so unseen it was left to the key (at 80x24 the fields' scrollbar).
        for _ in range(_LAYOUT_PASSES):
            shown = _scrollbars(screen)
            screen._refresh_layout(app.size)
            if _scrollbars(screen) == shown:
                break
        # Those passes are what their widgets asked for. Left asking, each would empty its
        # containers' arrangements when next idle, and the key would work them out again.
        for widget in screen.walk_children(Widget, with_self=True):
            for part in (widget, *widget._get_virtual_dom()):  # its scrollbars too
                part._layout_required = False
        # Drawn once too, unseen: each widget keeps its lines for the first show.
        screen._compositor.render_update(full=True)
        # Its update timer set going now (its tick does nothing off screen): a timer's first
        # start waits a whole period (1/60 s) for its first tick, and the key's frame did.
        screen._update_timer.resume()
    return True


# --- speed patch: scrollbars drawn once for every seat (tracker/terminal/shared_lines.py) --
#
# Buys, on a served table, one scrollbar drawn for every seat at a size and in a theme that
# shows it the same, instead of one for each, twice a new entry (the entry's frame and the
# thumb's); docs/contributing/performance.md, "Serving over SSH". Public route that would replace
# it: none in Textual 8.2 (a widget's rendered lines are cached per widget, privately); it would
# take a public hook to render a widget's lines, or Textual sharing equal renders itself.
ScrollbarLines = Callable[[ScrollBar, Region], list[Strip]]
SHARED_SCROLLBARS = Patch(
    "shared-scrollbars",
    "77244075",
    lambda: (
        ScrollBar.render,  # what a bar's lines are made from: its colours...
        ScrollBar._render_bar,  # ...its extent and position
        Widget.render_lines,  # replaced for ScrollBar (and still called to draw)
        Widget.render_line,  # what the styles cache draws through...
        Widget._render_content,  # ...and the content's lines
        StylesCache.render_widget,  # what else a widget's lines are made from
        StylesCache.render,
    ),
)


def install_shared_scrollbars(render_lines: ScrollbarLines) -> bool:
    """Every scrollbar draws its lines with ``render_lines`` from now on, if Textual's code
    under it is the code it was written for. Returns whether it is installed."""
    if not usable(SHARED_SCROLLBARS):
        return False
    ScrollBar.render_lines = render_lines  # type: ignore[method-assign,assignment]  # the patch
    return True


def textuals_scrollbar_lines(bar: ScrollBar, crop: Region) -> list[Strip]:
    """Textual's own drawing of a scrollbar's lines (what ``render_lines`` replaces)."""
    return Widget.render_lines(bar, crop)


@contextmanager
def textuals_own_scrollbars() -> Iterator[None]:
    """Scrollbars draw with Textual's own code while inside (to compare ours with)."""
    installed = vars(ScrollBar).get("render_lines")
    if installed is not None:
        del ScrollBar.render_lines
    try:
        yield
    finally:
        if installed is not None:
            ScrollBar.render_lines = installed  # type: ignore[method-assign]  # the patch again


# --- memory patch: a strip's caches made as first used (every app) ---------------------------
#
# Buys about a quarter of a served seat's memory (tracemalloc, a typed seat at 80x24 on the
# first system's demo: 0.7 of 2.8 MB). Textual's Strip makes seven empty caches as it is
# made (seven FIFOCaches and their dicts, about 0.9 KB), and an app keeps some 800 strips
# (every widget's lines, kept by its styles cache), most of whose caches are never used.
# Made as first used, each cache is the one Textual would have made; a strip is a little
# cheaper to make and its caches a little dearer to reach. Public route that would replace
# it: none in Textual 8.2; it would take Strip making its caches lazily (upstream).
TEXTUALS_STRIP_INIT = Strip.__init__
LEAN_STRIPS = Patch("lean-strips", "11f3efd8", lambda: (TEXTUALS_STRIP_INIT,))
STRIP_CACHES = {  # each cache Strip.__init__ makes, and its size
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}


class _CacheSlot:
    """A strip's slot for one of its caches, made as it is first read."""

    __slots__ = ("size", "slot")

    def __init__(self, slot: Any, size: int) -> None:
        self.slot = slot  # Textual's own slot, where the cache is kept
        self.size = size

    def __get__(self, strip: Strip | None, owner: type | None = None) -> Any:
        if strip is None:
            return self
        try:
            return self.slot.__get__(strip, owner)
        except AttributeError:  # not made yet
            cache: FIFOCache[Any, Any] = FIFOCache(self.size)
            self.slot.__set__(strip, cache)
            return cache

    def __set__(self, strip: Strip, value: Any) -> None:
        self.slot.__set__(strip, value)


def _lean_strip_init(
    self: Strip, segments: Iterable[Segment], cell_length: int | None = None
) -> None:
    """Textual's ``Strip.__init__`` without its seven caches (made as first used)."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def install_lean_strips() -> bool:
    """Strips make their caches as they first use them from now on, if Textual's code under
    it is the code it was written for. Returns whether it is installed."""
    if not usable(LEAN_STRIPS):
        return False
    if Strip.__init__ is _lean_strip_init:
        return True
    for name, size in STRIP_CACHES.items():
        setattr(Strip, name, _CacheSlot(vars(Strip)[name], size))
    Strip.__init__ = _lean_strip_init  # type: ignore[method-assign]  # the patch
    return True


# --- memory patch: a style sheet parsed once for every app (tracker/serve/) -----------------
#
# Buys, on a served table, each seat's app its style sheet's rules without parsing them
# (tracemalloc: about 0.3 MB a seat, and the parse's CPU at every join). Textual parses
# every app's CSS, and every widget's default CSS, into rule sets of its own; rule sets are
# only read once parsed, and the same text with the same variables (the theme's colours)
# parses to the same rules. So they are kept for the process by all that goes into them.
# Public route that would replace it: none in Textual 8.2 (the parse cache is per style
# sheet); it would take Textual sharing parsed rules between apps (upstream).
TEXTUALS_PARSE_RULES = Stylesheet._parse_rules
SHARED_CSS = Patch(
    "shared-css",
    "428cc705",
    lambda: (
        TEXTUALS_PARSE_RULES,  # wrapped: what the rules are parsed from
        Stylesheet.__init__,  # the variables it keeps
        Stylesheet.set_variables,
        Stylesheet.parse,  # its callers, which only read the rules...
        Stylesheet.reparse,
        Stylesheet.apply,  # ...as does applying them
    ),
)
PARSED_KEPT = 512  # sources parsed (a few themes' worth of an app's); emptied when full
_parsed: dict[tuple[object, ...], Any] = {}
_variables_seen: dict[int, tuple[dict[str, str], tuple[tuple[str, str], ...]]] = {}


def _variables_key(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The variables' items, worked out once for each dict (each app makes its own)."""
    seen = _variables_seen.get(id(variables))
    if seen is None or seen[0] is not variables:
        if len(_variables_seen) >= PARSED_KEPT:
            _variables_seen.clear()
        seen = _variables_seen[id(variables)] = (variables, tuple(sorted(variables.items())))
    return seen[1]


def _shared_parse_rules(
    sheet: Stylesheet,
    css: str,
    read_from: Any,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> Any:
    """Textual's ``_parse_rules``, kept for every style sheet in the process."""
    key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(sheet._variables))
    rules = _parsed.get(key)
    if rules is None:
        rules = TEXTUALS_PARSE_RULES(sheet, css, read_from, is_default_rules, tie_breaker, scope)
        if len(_parsed) >= PARSED_KEPT:
            _parsed.clear()
        _parsed[key] = rules
    return rules


def install_shared_css() -> bool:
    """Style sheets share parsed rules from now on, if Textual's code under it is the code
    it was written for. Returns whether it is installed."""
    if not usable(SHARED_CSS):
        return False
    Stylesheet._parse_rules = _shared_parse_rules  # type: ignore[method-assign,assignment]  # the patch
    return True


# --- checking a patch -------------------------------------------------------------------------

_verdicts: dict[str, bool] = {}  # patch name -> usable, worked out once a process


def usable(patch: Patch) -> bool:
    """Whether Textual's code under ``patch`` is the code it was written for; if not, said
    once on stderr. Ask before an app runs: a running app takes stderr over."""
    verdict = _verdicts.get(patch.name)
    if verdict is None:
        try:
            verdict = fingerprint(patch.relies_on()) == patch.fingerprint
        except (AttributeError, OSError, TypeError, ValueError):  # gone, or no source
            verdict = False
        _verdicts[patch.name] = verdict
        if not verdict:
            print(not_installed(patch), file=sys.stderr)
    return verdict


def not_installed(patch: Patch) -> str:
    version = textual_version()
    if version != WRITTEN_FOR:
        what = f"Textual {version} is not the version the {patch.name} patch was written for"
    else:  # the same version number, other code (an edited install)
        what = f"Textual {version} is not the code the {patch.name} patch was written for"
    return f"tracker: {what} ({WRITTEN_FOR}); running without it (slower, still correct)"


def textual_version() -> str:
    return str(textual.__version__)  # looked up only when asked (importlib.metadata is slow)


def fingerprint(functions: Sequence[object]) -> str:
    """A checksum of the functions' source. It guards against change, not malice, so CRC-32
    will do: zlib is loaded already, where hashlib would add 1.5 ms to every start."""
    checksum = 0
    for function in functions:
        checksum = zlib.crc32(source_of(function).encode(), checksum)
    return f"{checksum:08x}"


def source_of(function: object) -> str:
    """What ``inspect.getsource(function)`` returns (a test checks it), read through the
    function's code object: the check runs at every start, and inspect's tokenizer would
    take about 10 ms of it for these dozen functions (this: under 1 ms)."""
    code = getattr(function, "__code__")  # noqa: B009 - any function-like object
    # The last line any instruction reaches (a map, not a generator: a third of the time).
    last = max(filter(None, map(itemgetter(1), code.co_positions())))
    return "".join(linecache.getlines(code.co_filename)[code.co_firstlineno - 1 : last])


# --- serving (tracker/serve/) -----------------------------------------------------------------


class TextualMismatch(RuntimeError):
    """Textual (or Rich) lacks private code that serving needs, with no public route to it."""


def check_serving() -> None:
    """Raise TextualMismatch now, before any seat joins, if serving needs what is missing."""
    parser = _xterm_parser_class()
    if not all(callable(getattr(parser, name, None)) for name in ("feed", "tick")):
        raise TextualMismatch(_missing("XTermParser.feed and .tick"))
    _check_color_system(Console(color_system=None))


def xterm_parser(debug: bool = False) -> XTermParser:
    """Textual's parser of what a terminal sends (keys, mouse, pastes, focus...), for a
    driver fed by an SSH channel. Public route: none (Textual's drivers keep theirs private)."""
    return _xterm_parser_class()(debug)


def _xterm_parser_class() -> type[XTermParser]:
    try:
        from textual._xterm_parser import XTermParser
    except ImportError as error:
        raise TextualMismatch(_missing("textual._xterm_parser.XTermParser")) from error
    return XTermParser


def use_colours(console: Console, name: str) -> None:
    """Draw with ``console`` in the colours ``name`` ("standard", "256", "truecolor"): a
    seat's terminal's, not the server's. Public route: none (Rich's ``color_system`` is read
    only, Textual makes each app's console itself from the server's environment, and its
    TEXTUAL_COLOR_SYSTEM is read once, at import, for every app in the process)."""
    _check_color_system(console)
    console._color_system = COLOR_SYSTEMS[name]


def _check_color_system(console: Console) -> None:
    if not hasattr(console, "_color_system"):
        raise TextualMismatch(_missing("rich's Console._color_system"))


def _missing(what: str) -> str:
    return (
        f"tracker serve needs {what}, which this Textual {textual_version()} (or its Rich) "
        f"does not have; it was written for Textual {WRITTEN_FOR} "
        '(pip install -c constraints.txt -e ".[test]" installs the pinned versions)'
    )


def first_error(app: App[Any]) -> BaseException | None:
    """The first exception that ended ``app`` (None if none did), for a one-line report
    instead of Textual's traceback. Public route: none (``run_test`` re-raises it; an app's
    ``run_async`` only prints it). Fails open: without it the report says less."""
    error = getattr(app, "_exception", None)
    return error if isinstance(error, BaseException) else None


def whole_screen(app: App[Any]) -> str | None:
    """``app``'s whole screen (a dialog over what it dims), rendered now, as a terminal would
    be sent it in a full frame, in the app's own context whatever context asks; what the app
    has yet to draw is still drawn. Public route: ``export_screenshot`` (an SVG, many times
    dearer, and it takes the pending update's regions as drawn). Fails open: None (seats
    then never share frames as twins, tracker/serve/twins.py)."""
    try:
        from textual._context import active_app, visible_screen_stack

        compositor = app.screen._compositor
        stack = list(app._background_screens)  # a dimmed screen pops its own from it
    except (ImportError, AttributeError):
        return None
    app_token = active_app.set(app)
    stack_token = visible_screen_stack.set(stack)
    try:
        lines: list[Iterable[Strip]] = [[strip] for strip in compositor.render_strips()]
        return str(LayoutUpdate(lines, compositor.size.region).render_segments(app.console))
    except Exception:  # whatever rendering outside its frame meets: not known, never an error
        return None
    finally:
        visible_screen_stack.reset(stack_token)
        active_app.reset(app_token)


def footer_bindings_ready(footer: Widget) -> bool:
    """Whether a Footer has been given its screen's bindings yet (``_bindings_ready``), so
    what it shows can be read. Public route: none. Fails open: True if Textual no longer has
    it, and the footer is built again as stock Textual builds it."""
    return bool(getattr(footer, "_bindings_ready", True))
