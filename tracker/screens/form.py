"""A dialog drawn from a list of ``rules.forms.Field``: the rules describe, the app asks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypedDict

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static
from textual.worker import get_current_worker

from rules.errors import Rejected
from rules.forms import Field, Refill
from rules.odds import Odds
from tracker.terminal import textual_internals
from tracker.widgets.choice import Choice
from tracker.widgets.more_sign import keep_more_sign, show_more_sign
from tracker.widgets.odds_table import OddsTable

Submit = Callable[[Mapping[str, str]], None]
Preview = Callable[[Mapping[str, str]], str]
OddsOf = Callable[[Mapping[str, str]], Odds | None]


class FormSettings(TypedDict, total=False):
    """The keyword arguments of ``FormScreen`` and of its ``reopen``."""

    ok_label: str
    focus_key: str | None
    preview: Preview | None
    odds: OddsOf | None
    on_odds: Callable[[Odds | None], None] | None
    refill: Refill | None


def _field_id(key: str) -> str:
    return "field-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in key)


class FieldsScroll(VerticalScroll, can_focus=False):
    """A dialog's fields. Scrolled by a key or the mouse, the focus goes along: a field out
    of view is never the one typed into (the walk's seed 202940950: Page Down left it
    above the dialog). The list itself takes no focus: a dialog of choices opens on its
    first, so → changes it at once (on the list, → did nothing), and its keys scroll it
    from the field focused."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.call_after_refresh(self._focus_in_view)

    def _focus_in_view(self) -> None:
        if self.scroll_y != self.scroll_target_y:
            # Still on its way (the focus itself may have set it off, chasing a field below
            # the list): judge where it stops, or ↓ is undone halfway (seen on a busy machine).
            return
        view = self.content_region
        focused = self.screen.focused
        if (
            focused is None
            or focused not in self.walk_children()
            or view.contains_region(focused.region)
        ):
            return
        for widget in self.walk_children(Widget):
            if widget.focusable and view.contains_region(widget.region):
                widget.focus(scroll_visible=False)
                return


class FormScreen(ModalScreen[bool]):
    """Enter submits (from any text box), Escape cancels. A refused value keeps the dialog open."""

    # A short terminal gets a shorter, scrolling field list, so the preview and the odds fit.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    # The encounter screen keeps a system action's dialog and shows it again: it is not
    # restyled whole each time (tracker.terminal.textual_internals, "kept-styles").
    KEEPS_STYLES = True

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        Binding("enter,ctrl+s", "submit", "Submit", id="form.submit"),
        # Priority: the app moves focus as the key arrives, so keys typed right after Tab
        # (a fast typist, or a burst over SSH) land in the next field, not the last one.
        Binding(
            "tab", "app.focus_next", "Next field", show=False, priority=True, id="form.focus_next"
        ),
        Binding(
            "shift+tab",
            "app.focus_previous",
            "Previous field",
            show=False,
            priority=True,
            id="form.focus_previous",
        ),
        # ↓ and ↑ move between fields too, as in most forms: left to the field list, they
        # scrolled it and could hide the focused field above its top (found by the walk).
        Binding(
            "down",
            "app.focus_next",
            "Next field",
            show=False,
            priority=True,
            id="form.focus_next_arrow",
        ),
        Binding(
            "up",
            "app.focus_previous",
            "Previous field",
            show=False,
            priority=True,
            id="form.focus_previous_arrow",
        ),
    ]

    def __init__(
        self,
        title: str,
        fields: list[Field],
        submit: Submit,
        *,
        ok_label: str = "OK",
        focus_key: str | None = None,
        preview: Preview | None = None,
        odds: OddsOf | None = None,
        on_odds: Callable[[Odds | None], None] | None = None,
        refill: Refill | None = None,
    ) -> None:
        super().__init__()
        # The class its first resize would give it (VERTICAL_BREAKPOINTS), given as it is
        # made: added by that resize, it restyled the whole dialog again as it first showed.
        height = self.app.size.height
        for floor, name in sorted(self.VERTICAL_BREAKPOINTS, reverse=True):  # as Textual picks
            if height >= floor:
                self.add_class(name, update=False)  # styled as it is mounted
                break
        self._configure(title, fields, submit, ok_label, focus_key, preview, odds, on_odds, refill)

    def _configure(
        self,
        title: str,
        fields: list[Field],
        submit: Submit,
        ok_label: str,
        focus_key: str | None,
        preview: Preview | None,
        odds: OddsOf | None,
        on_odds: Callable[[Odds | None], None] | None,
        refill: Refill | None,
    ) -> None:
        self.odds = odds
        self.refill = refill
        self.on_odds = on_odds
        self.title_text = title
        self.fields = fields
        self.submit = submit
        self.preview = preview
        self.ok_label = ok_label
        self.focus_key = focus_key
        self._fresh = True  # focus and preview are set up when next shown

    @staticmethod
    def shape(fields: list[Field]) -> tuple[tuple[str, str], ...]:
        """What decides the dialog's widgets; two forms of one shape can share a dialog."""
        return tuple((field.key, field.kind) for field in fields)

    def reopen(
        self,
        title: str,
        fields: list[Field],
        submit: Submit,
        *,
        ok_label: str = "OK",
        focus_key: str | None = None,
        preview: Preview | None = None,
        odds: OddsOf | None = None,
        on_odds: Callable[[Odds | None], None] | None = None,
        refill: Refill | None = None,
    ) -> None:
        """Make this built (and closed) dialog ask for ``fields`` afresh, when pushed again.

        Composing and styling the widgets is nearly all the time a dialog takes to open; a
        dialog kept installed only has its words and values put back. The fields must have
        this dialog's ``shape``.
        """
        assert self.shape(fields) == self.shape(self.fields)
        before = self.fields
        if title != self.title_text:
            self.query_one("#form-title", Label).update(Text(title, style="bold"))
        if ok_label != self.ok_label:
            self.query_one("#ok", Button).label = ok_label
        self._configure(title, fields, submit, ok_label, focus_key, preview, odds, on_odds, refill)
        labels = self.query_one("#fields").query_children(Label)
        with self.prevent(Input.Changed, Choice.Changed):
            for field, old, label in zip(fields, before, labels, strict=True):
                if field.label != old.label:
                    label.update(Text(field.label))
                widget = self.query_one(f"#{_field_id(field.key)}")
                if isinstance(widget, Choice):
                    widget.reset(field.choices, field.default)
                elif isinstance(widget, Input):
                    widget.placeholder = field.help
                    widget.value = field.default
        self.query_one("#fields", FieldsScroll).scroll_home(animate=False)
        self._focus_first()  # before it is pushed: see ``_focus_first``
        self.say("")
        self.query_one(OddsTable).show(None)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text(self.title_text, style="bold"), id="form-title")
            # A two-column grid, not a row container per field: a third fewer widgets for
            # Textual to compose and style, which is most of the time the dialog takes to open.
            with FieldsScroll(id="fields", classes="form-grid"):
                for field in self.fields:
                    yield Label(Text(field.label), classes="label")
                    yield self._widget_for(field)
            yield Static("", id="preview")
            yield OddsTable(id="form-odds")
            with Vertical(id="form-foot"):
                # Shown only with an error: an empty row would take the room of the odds.
                yield Static("", id="error", classes="-empty")
                with Horizontal(id="buttons"):
                    yield Button(self.ok_label, variant="primary", id="ok")
                    yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        keep_more_sign(self.query_one("#dialog"), self.query_one("#fields"))
        self._focus_first()
        textual_internals.styled_as_mounted(self)  # its first show does not restyle it all

    def _focus_first(self) -> None:
        """The field to type in first has the focus before the dialog is shown, not once its
        ScreenResume is handled: a key typed right after the opener is routed as the app
        reads it, and under load one reached the choice Textual focuses first ("Fireball"'s
        ``l``s stepped a saving throw's Source to a dead goblin)."""
        wanted = self.focus_key
        if wanted is None:
            typed = (f for f in self.fields if f.kind != "choice" and f.focus_first)
            wanted = next((f.key for f in typed), None)
        if wanted is not None:
            self.set_focus(self.query_one(f"#{_field_id(wanted)}"))
        elif self.is_mounted:
            # A kept dialog: not where the focus was left, but where Textual's auto focus
            # puts it as the dialog is pushed, as for a new one (the first field).
            self.set_focus(None)

    def on_resize(self) -> None:
        fields = self.query_one("#fields")
        self.call_after_refresh(show_more_sign, self.query_one("#dialog"), fields)

    def _widget_for(self, field: Field) -> Input | Choice:
        if field.kind == "choice":
            return Choice(field.choices, field.default, id=_field_id(field.key))
        return Input(
            value=field.default,
            placeholder=field.help,
            type="integer" if field.kind == "int" else "text",
            id=_field_id(field.key),
        )

    def on_screen_resume(self) -> None:
        # When first shown, new or kept from before (see ``reopen``); not on coming back from
        # a screen opened over the dialog. The focus is given before (``_focus_first``).
        if not self._fresh:
            return
        self._fresh = False
        self.update_preview()

    def update_preview(self) -> None:
        if self.odds is not None:
            self.compute_odds(dict(self.values()))
        if self.preview is None:
            return
        try:
            text = self.preview(self.values())
        except Rejected as exc:
            text = exc.message
        self.query_one("#preview", Static).update(Text(text, style="italic"))

    @work(thread=True, exclusive=True, group="odds")
    def compute_odds(self, values: dict[str, str]) -> None:
        # Exact odds can take a moment for big pools: off the UI thread, newest values only.
        assert self.odds is not None
        try:
            result = self.odds(values)
        except Exception:  # a half-typed value: no odds until it parses
            result = None
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_odds, result)

    def show_odds(self, odds: Odds | None) -> None:
        if self.app.screen is not self:
            return  # computed for a dialog that has since closed
        self.query_one(OddsTable).show(odds)
        if self.on_odds is not None:
            self.on_odds(odds)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.update_preview()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        self._refill(event.choice)
        self.update_preview()

    def _refill(self, changed: Choice) -> None:
        """The defaults that follow the choice just made (``Refill``: the attacker's own
        attacks), put in the fields still at the old ones; a field changed by hand keeps
        its value while the choices offered allow it."""
        key = next((f.key for f in self.fields if _field_id(f.key) == changed.id), None)
        again = self.refill(self.values(), key) if self.refill and key else None
        if again is None or self.shape(again) != self.shape(self.fields):
            return
        with self.prevent(Input.Changed, Choice.Changed):
            for old, new in zip(self.fields, again, strict=True):
                widget = self.query_one(f"#{_field_id(new.key)}")
                if new.key == key or not isinstance(widget, Input | Choice):
                    continue
                left = widget.value == old.default
                if isinstance(widget, Choice) and (left or old.choices != new.choices):
                    kept = not left and any(v == widget.value for v, _ in new.choices)
                    widget.reset(new.choices, widget.value if kept else new.default)
                elif isinstance(widget, Input) and left:
                    widget.value = new.default
        self.fields = again

    def values(self) -> dict[str, str]:
        out = {}
        for field in self.fields:
            widget = self.query_one(f"#{_field_id(field.key)}")
            assert isinstance(widget, Input | Choice)
            out[field.key] = widget.value
        return out

    def action_submit(self) -> None:
        try:
            self.submit(self.values())
        except Rejected as exc:
            self.say(exc.message)
            return
        self.dismiss(True)

    def say(self, error: str) -> None:
        """The line under the fields saying why a value is refused ("" hides it)."""
        line = self.query_one("#error", Static)
        line.update(Text(error))
        line.set_class(not error, "-empty")

    def action_cancel(self) -> None:
        self.dismiss(False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self.action_submit()
        else:
            self.action_cancel()
