"""Add from the library: the system's stat blocks, filtered as you type, or a blank sheet; and
the fight's difficulty with the chosen stat block added, worked out in the background as the
choice changes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from rules.commands import AddCombatants
from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import MAX_GROUP, decide, fold_onto
from rules.errors import Rejected
from tracker.headless.difficulty import SEED
from tracker.library import GROUP, Entry, LibraryError, parse_group
from tracker.widgets.difficulty_line import DifficultyLine
from tracker.widgets.more_sign import keep_more_sign

BLANK = "blank"
SETTLE = 0.3  # seconds the choice stays put before its difficulty is worked out (typing)


@dataclass(frozen=True)
class Pick:
    """What to add: ``count`` of ``entry``, or (entry None) a blank sheet named ``name``."""

    entry: Entry | None
    count: int = 1
    name: str = ""


class LibraryScreen(ModalScreen[Pick | None]):
    """Type to filter (``gob x3``: three of it), ↑/↓ to choose, Enter to add, Esc to close."""

    BINDINGS = [
        Binding("escape", "close", "Close", id="library.close"),
        Binding("down", "move(1)", "Next", show=False, priority=True, id="library.down"),
        Binding("up", "move(-1)", "Previous", show=False, priority=True, id="library.up"),
    ]

    def __init__(
        self,
        entries: list[Entry],
        title: str,
        present: Iterable[tuple[str, str]] = (),
        state: Encounter | None = None,
    ) -> None:
        """``present``: (name, side) of each combatant in the fight, which is not chosen
        before the others (a stray Enter would add a hero twice). ``state``: the fight, whose
        difficulty with the choice added is shown (none: no difficulty line)."""
        super().__init__()
        self.entries = entries
        self.system_title = title
        self.present = {(name.casefold(), side) for name, side in present}
        self.state = state
        self.previewed: Encounter | None = None  # the fight whose difficulty is shown
        self.settling: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide"):
            yield Label(id="library-title")
            yield Input(placeholder="type to filter; goblin x3 adds three", id="filter")
            yield OptionList(id="stat-blocks")
            yield Label(id="library-hint")
            if self.state is not None:
                yield DifficultyLine(id="library-difficulty")

    def on_mount(self) -> None:
        self.query_one("#filter", Input).focus()
        self.refilter()
        keep_more_sign(self.query_one("#dialog"), self.query_one("#stat-blocks"))

    def _asked(self) -> tuple[str, int]:
        text = self.query_one("#filter", Input).value
        try:
            return parse_group(text)
        except LibraryError:
            found = GROUP.fullmatch(" ".join(text.split()))
            return (found.group("name") if found else text.strip()), 0

    def refilter(self) -> None:
        wanted, count = self._asked()
        wanted = wanted.casefold()
        shown = [e for e in self.entries if wanted in f"{e.name} {e.side} {e.notes}".casefold()]
        options = self.query_one("#stat-blocks", OptionList)
        options.clear_options()
        blank = f"New combatant: {wanted}" if wanted else "New combatant (a blank sheet)"
        options.add_option(Option(Text(f"+ {blank}", style="italic"), id=BLANK))
        width = max((len(e.name) for e in shown), default=0)
        for entry in shown:
            line = Text(f"{entry.name:<{width}}  ", style="bold")
            line.append(f"{entry.side:<9} ", style="dim")
            line.append(entry.summary())
            options.add_option(Option(line, id=str(self.entries.index(entry))))
        # The best match first, one not in the fight already if there is one: the blank sheet
        # only when nothing matches.
        absent = [
            i for i, e in enumerate(shown, 1) if (e.name.casefold(), e.side) not in self.present
        ]
        options.highlighted = (absent[0] if absent else 1) if shown else 0
        total = len(self.entries)
        matched = f"{len(shown)} of {total}" if wanted else f"{total}"
        self.query_one("#library-title", Label).update(
            Text(f"Add a combatant: {matched} {self.system_title} stat blocks", style="bold")
        )
        self._hint(count)

    def _hint(self, count: int) -> None:
        picked = self._picked()
        if count == 0:
            how = f"a group is 1 to {MAX_GROUP}"
        elif picked is None:
            how = "Enter opens a blank sheet"
        else:
            how = f"Enter adds {count} x {picked.name}"
        self.query_one("#library-hint", Label).update(
            Text(f"{how} · type x3 for three · Esc closes", style="dim")
        )
        if self.state is not None:  # worked out once the choice stays put (not per key)
            if self.settling is not None:
                self.settling.stop()
            self.settling = self.set_timer(SETTLE, self.preview)

    def with_choice(self) -> Encounter | None:
        """The fight with the chosen stat block added as many times as asked (the fight as it
        is when the choice is a blank sheet or not a group), on the difficulty's own dice."""
        if self.state is None:
            return None
        picked, count = self._picked(), self._asked()[1]
        if picked is None or count == 0:
            return self.state
        try:
            members = picked.copies(count)
            return fold_onto(
                self.state, decide(self.state, AddCombatants(members), SeededDice(SEED))
            )
        except (Rejected, LibraryError):
            return self.state

    def preview(self) -> None:
        """The difficulty of the fight with the choice added, unless it is already shown or
        being worked out (a timer per change: only the last choice's makes a run)."""
        fight = self.with_choice()
        if fight is None or not self.is_mounted or fight == self.previewed:
            return
        self.previewed = fight
        self.query_one(DifficultyLine).show(fight)

    def _picked(self) -> Entry | None:
        options = self.query_one("#stat-blocks", OptionList)
        index = options.highlighted
        if index is None:
            return None
        option_id = options.get_option_at_index(index).id
        return None if option_id in (None, BLANK) else self.entries[int(option_id)]

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refilter()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._hint(self._asked()[1])

    def action_move(self, delta: int) -> None:
        options = self.query_one("#stat-blocks", OptionList)
        last = options.option_count - 1
        current = options.highlighted or 0
        options.highlighted = max(0, min(current + delta, last))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.choose()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose()

    def choose(self) -> None:
        name, count = self._asked()
        if count == 0:
            self.notify(f"A group is 1 to {MAX_GROUP} combatants", severity="warning")
            return
        picked = self._picked()
        if picked is None:
            self.dismiss(Pick(None, 1, name))
        else:
            self.dismiss(Pick(picked, count))

    def action_close(self) -> None:
        self.dismiss(None)
