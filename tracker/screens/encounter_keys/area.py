"""What every area of the encounter screen's keys shares: the session, the selection, and
how a key runs a command or asks in a dialog."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Unpack

from textual.binding import Binding
from textual.message import Message

from rules.encounter import AnyCombatant, AnyEncounter
from rules.errors import Rejected
from rules.forms import Field
from rules.history import History
from rules.offered import living_first
from tracker.line_commands.names import own_pick
from tracker.session import EncounterSession
from tracker.widgets.combatants import CombatantsPane

if TYPE_CHECKING:
    from textual.screen import Screen

    from tracker.screens.form import FormSettings
    from tracker.store.library import Library

    Base = Screen[None]
else:
    Base = object  # an area is a mixin: the screen is the one Screen


class Area(Base):
    """One area of keys: its bindings, the actions they run, which roles may use them."""

    KEYS: ClassVar[list[Binding]] = []  # in the order the footer and the help list them
    # The actions (a key's, or one that has no key: "system", "export") each role may use;
    # the GM may use all.
    PLAYERS: ClassVar[frozenset[str]] = frozenset()
    SPECTATORS: ClassVar[frozenset[str]] = frozenset()
    # Keys that open one of the system's actions, by id: a system may keep that action for
    # the GM (``RuleSystem.gm_actions``), and then the key is the GM's too.
    OPENS: ClassVar[dict[str, str]] = {}

    session: EncounterSession
    library_folder: Path | None  # the user's stat blocks folder; None: no library
    library_told: set[str]  # the library's problems told already

    # The messages keep the screen's name: the app handles ``on_encounter_screen_...``.
    class OpenRequested(Message, namespace="encounter_screen"):
        """The user asked for another encounter: the app that can open one shows its saves."""

    class BranchRequested(Message, namespace="encounter_screen"):
        """The user branched the replay: the app that can save it plays the branch."""

        def __init__(self, branch: History) -> None:
            super().__init__()
            self.branch = branch

    class NewEncounterRequested(Message, namespace="encounter_screen"):
        """A new encounter was prepared (the party carried over): the app saves and plays it."""

        def __init__(self, history: History) -> None:
            super().__init__()
            self.history = history

    if TYPE_CHECKING:  # the rolls' area's (tracker.screens.encounter_keys.roll_keys)

        def settle_first(
            self, doing: str, go_on: Callable[[], None], *, over: bool | None = None
        ) -> None: ...

        # The initiative area's (tracker.screens.encounter_keys.initiative_keys)
        def initiative_palette(self) -> list[tuple[str, str, str]]: ...

    @property
    def state(self) -> AnyEncounter:
        return self.session.state

    def run(self, command: object, label: str) -> bool:
        """Execute from a key: a refusal becomes a notification (and False)."""
        try:
            self.session.execute(command, label)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return False
        return True

    def selected(self) -> AnyCombatant | None:
        found = self.state.find(self.query_one(CombatantsPane).selected_id)
        if found is None:
            self.notify("Select a combatant first (add one with a)", severity="warning")
        return found

    def own_selected(self) -> AnyCombatant | None:
        """The combatant a key acts on: the selected one; at a player's seat the selected if
        it is theirs, else their first (a player acts for their own only: rules.permissions),
        with one line when they have nobody yet."""
        mine = self.session.acts_for()
        if mine is None:
            return self.selected()
        picked = own_pick(self.state, mine, self.query_one(CombatantsPane).selected_id)
        found = self.state.find(picked) if picked else None
        if found is None:
            self.notify("Nobody is yours yet: the GM assigns you combatants", severity="warning")
        return found

    def people(self) -> tuple[tuple[str, str], ...]:
        """Every combatant as a choice, in the order of the fight (``ask`` puts those out of
        it last)."""
        return tuple((c.id, c.name) for c in self.state.combatants)

    def ask(
        self,
        title: str,
        fields: list[Field],
        submit: Callable[[Mapping[str, str]], None],
        **kw: Unpack[FormSettings],
    ) -> None:
        """A dialog of ``fields``: each choice of combatants offers those out of the fight
        after the others (``rules.offered.living_first``, as a system action's dialog does)."""
        from tracker.screens.form import FormScreen

        fields = living_first(self.session.system, self.state, fields)
        self.app.push_screen(FormScreen(title, fields, submit, **kw))

    def library(self) -> Library | None:
        """The stat blocks (read anew: the files may have changed), or None without a library;
        a file that cannot be read is skipped, with a notice."""
        if self.library_folder is None:
            return None
        from tracker.store import library

        found = library.load(self.library_folder)
        # Each broken file is told once, not on every read (after every :attack, a, N).
        told = self.library_told
        for problem in [p for p in found.problems if p not in told][:3]:
            told.add(problem)
            self.notify(problem, severity="warning", markup=False)
        return found
