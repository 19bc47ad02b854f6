"""What a walk walks: a system's demo saved to a real file, with one GM-only combatant, played
by one role at one terminal size."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from msgspec import structs

from rules import registry
from rules.dice import SeededDice
from rules.encounter import CombatantAdded, Encounter
from rules.history import History
from tests.contract.support import demo
from tracker.app import TrackerApp
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.session import EncounterSession
from tracker.store import storage

Role = Literal["gm", "gm-seat", "player", "spectator"]
ROLES: tuple[Role, ...] = get_args(Role)
SIZES = ((80, 24), (160, 48))
SMALL = SIZES[0]
# The GM-only combatant: a copy of the demo's last combatant, named and numbered so that any
# trace of it on a player's screen or export is found by a plain search.
HIDDEN_NAME = "Zorbex"
HIDDEN_ID = "c9077"  # ids are c and a number; new ones number on from it
# The GM's hidden dice (`:roll ... hidden`), rolled at the table while a player walks: no
# seat but the GM's may show them (no walk types these dice itself).
SECRET_DICE = "1d20+4321"
PLAYER = "Alice"


@dataclass(frozen=True)
class Case:
    """One walk's set-up: which system, which role, which terminal size."""

    system: str
    role: Role
    size: tuple[int, int]

    def __str__(self) -> str:
        width, height = self.size
        return f"{self.system}-{self.role}-{width}x{height}"

    @classmethod
    def parse(cls, system: str, role: str, size: str) -> Case:
        registry.known(system)
        if role not in ROLES:
            raise ValueError(f"role {role!r} is not one of {', '.join(ROLES)}")
        width, _, height = size.partition("x")
        return cls(system, role, (int(width), int(height)))


def cases() -> list[Case]:
    """Every registered system, every role, both sizes."""
    return [
        Case(system, role, size) for system in registry.names() for role in ROLES for size in SIZES
    ]


@dataclass
class World:
    """The app under the walk, and the session and table behind it."""

    case: Case
    app: TrackerApp
    table: Table | None
    folder: Path
    start: int = 0  # records in effect when the walk began
    assigned: frozenset[str] = frozenset()  # the player's combatants

    @property
    def session(self) -> EncounterSession:
        """The encounter being played (the local GM may open another one on the way)."""
        if self.table is not None:
            return self.table.session
        assert isinstance(self.app.session, EncounterSession)
        return self.app.session

    @property
    def sees_hidden(self) -> bool:
        return self.case.role in ("gm", "gm-seat")

    @property
    def seen(self) -> Encounter:
        """The encounter as this role sees it."""
        assert self.app.session is not None
        return self.app.session.state

    def close(self) -> None:
        session = self.session
        session.close()
        if self.table is not None:
            self.table.close()


def with_hidden_foe(system: str) -> History:
    """The demo, with a GM-only copy of its last combatant."""
    history = demo(system)
    last = history.state.combatants[-1]
    hidden = structs.replace(last, id=HIDDEN_ID, name=HIDDEN_NAME, gm_only=True, notes="")
    history.commit([CombatantAdded(hidden)], f"add {HIDDEN_NAME}")
    return history


def build(case: Case, folder: Path, seed: int) -> World:
    """The case's app over the demo, saved in ``folder`` (snapshot and journal, locked)."""
    opened = storage.create(folder, with_hidden_foe(case.system))
    session, _ = EncounterSession.resume(opened, SeededDice(seed))
    if case.role == "gm":
        library = folder / "library"
        library.mkdir(exist_ok=True)
        app = TrackerApp(session, saves=folder, library=library)
        return World(case, app, None, folder, len(session.history.applied_in_effect()))
    table = Table(session)
    players = frozenset(assigned(session.state))
    if case.role == "player":
        table.assign(PLAYER, players)
    if case.role == "gm-seat":  # someone at the table for the seats dialog to assign to
        table.join("player", PLAYER)
        table.join("spectator", "Bob")
    role = "gm" if case.role == "gm-seat" else case.role
    seat = table.join(role, {"gm": "GM", "player": PLAYER, "spectator": "Bob"}[role])
    start = len(session.history.applied_in_effect())
    return World(case, TableApp(table, seat, saves=folder), table, folder, start, players)


def assigned(state: Encounter) -> list[str]:
    """The player's combatants: the first side's first two the players can see."""
    visible = [c for c in state.combatants if not c.gm_only]
    side = visible[0].side
    return [c.id for c in visible if c.side == side][:2]
