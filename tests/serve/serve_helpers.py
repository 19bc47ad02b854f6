"""A served table on loopback and real asyncssh clients at it, for the serve tests. The table
plays a system picked by need (``tests/picks.py``): one where a player rolls for their own."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from rules.commands import AddCombatant, EditCombatant
from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import describe, new_encounter
from rules.history import History
from rules.registry import get_system
from tests.picks import a_system, player_rolls
from tests.serve.terminal import Terminal
from tracker.serve.channel import SeatChannel
from tracker.serve.config import Config
from tracker.serve.driver import LEAVE_SCREEN
from tracker.serve.players import Player
from tracker.serve.seats import Seat, Table
from tracker.serve.server import TableServer
from tracker.session import EncounterSession

SECRET = "Vexmoor"  # the GM-only combatant's name: never on a player's screen
SECRET_NOTE = "weak to silver"  # a GM note (a hidden stat) on a visible combatant
# How long any wait in the serve tests may take before the test fails. Every wait is on
# state, so a quick machine never waits this long; a loaded one (both cores busy, a load
# average of 12) may take many seconds for a join, and must not fail for it.
LIMIT = 60.0


async def until(condition: Callable[[], object], timeout: float = LIMIT) -> None:
    """Wait for ``condition`` (a function, or a coroutine function) to hold, failing after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        held = condition()
        if inspect.isawaitable(held):
            held = await held
        if held:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting ({timeout:g} s)")
        await asyncio.sleep(0.02)


def said_farewell(output: str, message: str) -> bool:
    """A closed seat's last bytes: its terminal's modes left (the alternate screen with
    them), then nothing drawn, only ``message``, on a line cleared for it. A frame sent after
    the alternate screen was left lands on the terminal's own screen, the farewell written
    over it (a kicked seat's showed `The GM closed your seat.eneric d20  ·  Round 2...`)."""
    left = output.find(LEAVE_SCREEN)
    return left >= 0 and output[left:].replace(LEAVE_SCREEN, "") == f"\r\x1b[2K{message}\r\n"


@dataclass
class Served:
    server: TableServer
    table: Table
    session: EncounterSession
    keys: dict[str, asyncssh.SSHKey]
    ids: dict[str, str] = field(default_factory=dict)

    @property
    def port(self) -> int:
        return self.server.port


def encounter(
    path: Path | None = None, system: str = ""
) -> tuple[EncounterSession, dict[str, str]]:
    """Orla and Brak (the party), Goblin (with a GM note) and the GM-only foe, Orla first to
    act, in ``system`` (by default one where a player rolls for their own); their ids by name."""
    fight = History(new_encounter("Cellar", system or a_system(player_rolls)))
    session = EncounterSession(fight, SeededDice(3), path)
    for name, side, hidden, notes in (
        ("Orla", "party", False, ""),
        ("Brak", "party", False, ""),
        ("Goblin", "foes", False, SECRET_NOTE),
        (SECRET, "foes", True, "the real villain"),
    ):
        session.execute(AddCombatant(name=name, side=side, gm_only=hidden, notes=notes))
    return session, {c.name: c.id for c in session.state.combatants}


def roll(state: Encounter, by: str, at: str) -> object:
    """The roll dialog's command with its defaults, but for who rolls (``by``) and at whom
    (``at``): the dialog's first two fields that choose a combatant."""
    system = get_system(state.system)
    fields = system.action_form(state, "roll", by)
    values = {field.key: field.default for field in fields}
    ids = {combatant.id for combatant in state.combatants}
    choosing = [f.key for f in fields if f.kind == "choice" and ids & {v for v, _ in f.choices}]
    values.update(zip(choosing, (by, at), strict=False))
    return system.action_command(state, "roll", values)


def roll_title(state: Encounter) -> str:
    """The roll dialog's title, as the system words it."""
    system = get_system(state.system)
    return next(action.title for action in system.actions(state) if action.id == "roll")


def roll_logged(session: EncounterSession) -> str:
    """The start of the last roll's line in the log ("Orla vs Goblin"...): what a log pane of
    any width shows of it."""
    kinds = session.system.roll_event_types
    event, before = [pair for pair in session.history.in_effect() if isinstance(pair[0], kinds)][-1]
    return describe(before, event).plain.splitlines()[0][:20]


def fell(session: EncounterSession, combatant_id: str) -> None:
    """Take a combatant out of the fight by its sheet: its main track at its worst end (in a
    system where that fells one: ``tests.picks.falls_at_worst_track``)."""
    system, combatant = session.system, session.state.combatant(combatant_id)
    track = system.main_track(combatant)
    assert track is not None, f"{system.name} has no main track"
    worst = system.with_track(combatant.sheet, track.high if track.rising else track.low)
    session.execute(EditCombatant(combatant_id=combatant_id, sheet=worst))
    assert system.out_of_fight(session.state, session.state.combatant(combatant_id))


def table(path: Path) -> Table:
    """``encounter``'s table, saved at ``path``, Alice given Orla (for seats driven by Pilot)."""
    session, ids = encounter(path)
    served = Table(session)
    served.assign("Alice", frozenset({ids["Orla"]}))
    return served


async def serve(
    tmp_path: Path,
    fight: tuple[EncounterSession, dict[str, str]] | None = None,
    more: tuple[str, ...] = (),
    **config: object,
) -> Served:
    """A table serving ``fight`` (else ``encounter``'s, Alice given Orla) to the keys gm,
    alice, bob (a spectator) and one player key for each name in ``more`` (its key by the
    name in lower case)."""
    names = ("gm", "alice", "bob", *(name.lower() for name in more))
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in names}
    players = [
        Player("gm", "GM", keys["gm"]),
        Player("player", "Alice", keys["alice"]),
        Player("spectator", "Bob", keys["bob"]),
        *(Player("player", name, keys[name.lower()]) for name in more),
    ]
    session, ids = fight or encounter(tmp_path / "cellar.fight")
    table = Table(session)
    if fight is None:
        table.assign("Alice", frozenset({ids["Orla"]}))
    settings: dict[str, object] = {
        "port": 0,
        "players": players,
        "host_key": tmp_path / "host_key",
        "saves": tmp_path,
        "login_timeout": LIMIT,  # a login on a loaded machine is slow; the tests of the
        **config,  # login timeout itself set their own
    }
    server = TableServer(table, Config(**settings))  # type: ignore[arg-type]
    await server.start()
    return Served(server, table, session, keys, ids)


class Client:
    """A real SSH client with a terminal; ``output`` is every character the server sent,
    and ``text()`` what its terminal shows (a VT emulator fed that output)."""

    def __init__(
        self,
        served: Served,
        conn: asyncssh.SSHClientConnection,
        process,
        size: tuple[int, int] = (100, 30),
    ) -> None:
        self.served = served
        self.conn = conn
        self.process = process
        self.port = conn.get_extra_info("sockname")[1]  # kept: a closed connection has none
        self.terminal = Terminal(size)
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def join(
        cls,
        served: Served,
        key: str,
        size: tuple[int, int] = (100, 30),
        term: str | None = "xterm-256color",
        wait: bool = True,
        password: str | None = None,
    ) -> Client:
        """Join as ``key`` (a key of ``serve``'s), or by the table password as that login."""
        login: dict[str, object] = (
            {"password": password, "client_keys": None}
            if password is not None
            else {"client_keys": [served.keys[key]]}
        )
        conn = await asyncssh.connect(
            "127.0.0.1", served.port, username=key, known_hosts=None, **login
        )
        process = await conn.create_process(term_type=term, term_size=size)
        client = cls(served, conn, process, size)
        if term is not None and wait:
            await until(lambda: "Roll log" in client.text() and "palette" in client.text())
            # Its own app starts after that first frame (a shared view's): tests reach into it.
            await until(lambda: client.seat is not None and client.channel.ready)
        return client

    async def _read(self) -> None:
        while True:
            data = await self.process.stdout.read(65536)
            if not data:
                return
            self.terminal.receive(data)

    @property
    def seat(self) -> Seat | None:
        return next(
            (s for s in self.served.table.seats.values() if s.peer.endswith(f":{self.port}")),
            None,
        )

    @property
    def channel(self) -> SeatChannel:
        """The server's side of this client's session."""
        seat = self.seat
        return next(c for c in self.served.server.channels if c.seat is seat and seat)

    @property
    def output(self) -> str:
        """Every character the server sent."""
        return self.terminal.output

    def text(self) -> str:
        """What the client's terminal shows now, line by line."""
        return self.terminal.text()

    def type(self, keys: str) -> None:
        self.process.stdin.write(keys)

    def resize(self, width: int, height: int) -> None:
        self.process.change_terminal_size(width, height)
        self.terminal.resize(width, height)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        self._reader.cancel()
