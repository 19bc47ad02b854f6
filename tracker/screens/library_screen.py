"""Add from the library: the system's stat blocks, filtered as you type (a name fragment,
``cr:1/4..3``, ``type:dragon``), the one chosen shown before it joins (its actions with their
odds against the selected combatant), or a blank sheet; and the fight's difficulty with the
chosen stat block added, worked out in the background as the choice changes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from rules.commands import AddCombatants
from rules.dice import SeededDice
from rules.encounter import AnyEncounter, Combatant
from rules.engine import MAX_GROUP, decide, fold_onto
from rules.errors import Rejected
from rules.registry import get_system
from rules.text import inert
from tracker.headless.difficulty_runs import SEED
from tracker.store.library import GROUP, Entry, LibraryError, parse_group
from tracker.store.library_find import Wanted, columns, filter_example, matches, wanted
from tracker.widgets.difficulty_line import DifficultyLine
from tracker.widgets.more_sign import keep_more_sign
from tracker.widgets.one_line import OneLine

BLANK = "blank"
SETTLE = 0.3  # seconds the choice stays put before its difficulty is worked out (typing)
# ``cr:2``, ``cr:1/4..3``, ``type:dragon``, ``source:srd``: a filter word among the name's.
FILTER_WORD = re.compile(r"(?P<key>cr|type|source):(?P<value>\S*)", re.IGNORECASE)


def _rank(name: str, wanted: str) -> int:
    """How well a name fits what is typed, best first, as ``:add`` finds one: the name
    itself (goblin: Goblin before Bog Goblin), one it starts, one a word of it starts, the
    rest."""
    if not wanted or name == wanted:
        return 0
    if name.startswith(wanted):
        return 1
    return 2 if any(word.startswith(wanted) for word in name.split()) else 3


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
        state: AnyEncounter | None = None,
        target: Combatant[Any] | None = None,
    ) -> None:
        """``present``: (name, side) of each combatant in the fight, which is not chosen
        before the others (a stray Enter would add a hero twice). ``state``: the fight, whose
        difficulty with the choice added is shown (none: no difficulty line). ``target``: the
        selected combatant, whom the preview gives each action's odds against."""
        super().__init__()
        self.entries = entries
        self.system_title = title
        self.present = {(name.casefold(), side) for name, side in present}
        self.state = state
        self.previewed: AnyEncounter | None = None  # the fight whose difficulty is shown
        self.settling: Timer | None = None
        self.target = target
        self.lines: dict[tuple[int, int], Text] = {}  # each entry's line, made once a width
        self.problem = ""  # a filter word that is no filter (cr:x), said on the hint line

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide library"):
            yield Label(id="library-title")
            yield Input(placeholder=filter_example(self.entries), id="filter")
            yield OptionList(id="stat-blocks")
            with VerticalScroll(id="library-preview"):
                yield Static(id="library-preview-text")
            yield Label(id="library-hint")
            if self.state is not None:
                yield DifficultyLine(id="library-difficulty")

    def on_mount(self) -> None:
        self.query_one("#filter", Input).focus()
        self.refilter()
        keep_more_sign(self.query_one("#dialog"), self.query_one("#stat-blocks"))

    def _typed(self) -> tuple[str, Wanted]:
        """The filter's text without its filter words, and what those words ask for."""
        text = self.query_one("#filter", Input).value
        asked = {m.group("key").casefold(): m.group("value") for m in FILTER_WORD.finditer(text)}
        rest = FILTER_WORD.sub(" ", text)
        self.problem = ""
        try:
            want = wanted(
                challenge=asked.get("cr", ""),
                creature_type=asked.get("type", ""),
                source=asked.get("source", ""),
            )
        except LibraryError as exc:
            self.problem = str(exc).replace("--cr", "cr:", 1).replace("cr: '", "cr:'", 1)
            want = Wanted()
        return rest, want

    def _asked(self) -> tuple[str, int]:
        text = self._typed()[0]
        try:
            return parse_group(text)
        except LibraryError:
            found = GROUP.fullmatch(" ".join(text.split()))
            return (found.group("name") if found else text.strip()), 0

    def _line(self, index: int, width: int) -> Text:
        """An entry's line in the list: its name, side, type and figures (made once)."""
        key = (index, width)  # the names' column is as wide as the longest shown
        line = self.lines.get(key)
        if line is None:
            entry = self.entries[index]
            line = Text(f"{entry.name:<{width}}  ", style="bold")
            line.append(f"{entry.side:<9} ", style="dim")
            if entry.creature_type:
                line.append(f"{entry.creature_type}  ", style="italic")
            figures = columns(entry)  # the system's library columns (HP, AC, CR...)
            line.append("  ".join(f"{head} {value}" for head, value in figures if value.strip()))
            self.lines[key] = line
        return line

    def refilter(self) -> None:
        wanted, count = self._asked()
        want = self._typed()[1]
        wanted = wanted.casefold()
        shown = [
            i
            for i, e in enumerate(self.entries)
            if wanted in f"{e.name} {e.side} {e.notes}".casefold() and matches(e, want)
        ]
        shown.sort(key=lambda i: _rank(self.entries[i].name.casefold(), wanted))
        options = self.query_one("#stat-blocks", OptionList)
        options.clear_options()
        blank = f"New combatant: {wanted}" if wanted else "New combatant (a blank sheet)"
        width = max((len(self.entries[i].name) for i in shown), default=0)
        # All at once: one option at a time lays the list out again for each of hundreds.
        # Each one line, made and drawn only when in sight: the list measures none of them.
        options.add_options(
            [
                Option(OneLine(Text(f"+ {blank}", style="italic")), id=BLANK),
                *(Option(OneLine(partial(self._line, i, width)), id=str(i)) for i in shown),
            ]
        )
        shown_entries = [self.entries[i] for i in shown]
        # The best match first, one not in the fight already if there is one: the blank sheet
        # only when nothing matches.
        absent = [
            i
            for i, e in enumerate(shown_entries, 1)
            if (e.name.casefold(), e.side) not in self.present
        ]
        options.highlighted = (absent[0] if absent else 1) if shown else 0
        total = len(self.entries)
        matched = f"{len(shown)} of {total}" if len(shown) < total else f"{total}"
        self.query_one("#library-title", Label).update(
            Text(f"Add a combatant: {matched} {self.system_title} stat blocks", style="bold")
        )
        self._hint(count)

    def _hint(self, count: int) -> None:
        picked = self._picked()
        self._preview(picked)
        if self.problem:
            how = self.problem
        elif count == 0:
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

    def with_choice(self) -> AnyEncounter | None:
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

    def _preview(self, picked: Entry | None) -> None:
        """The chosen stat block as it would join: the system's preview lines of it."""
        text = self.query_one("#library-preview-text", Static)
        if picked is None:
            text.update(Text("A blank sheet: its fields are asked next", style="dim"))
            return
        try:
            lines = get_system(picked.system).preview_lines(picked.sheet(), self.target)
        except Rejected as exc:  # a file's stat block the rules cannot work out
            lines = (f"No preview: {exc.message}",)
        shown = Text(inert(picked.name), style="bold")
        for line in lines:
            shown.append("\n" + inert(line))
        text.update(shown)
        self.query_one("#library-preview", VerticalScroll).scroll_home(animate=False)

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
