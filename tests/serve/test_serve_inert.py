"""What a seat's terminal receives is inert: text holding raw control characters (made
without the rules' checks, which would clean it first) reaches no seat as codes."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncssh
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from msgspec import structs

from rules.conditions import Condition
from rules.encounter import CombatantEdited
from rules.events import ConditionAdded, NoteAdded
from tests.hostile_text import CONTROLS, EVERY, SEQUENCES, SPOOFING, hostile_text, unsafe
from tests.serve.serve_helpers import Client, Served, serve, until
from tests.threaded import InThread
from tracker.serve import players
from tracker.serve.players import PlayersError

Seats = tuple[Served, Client, Client]

# What Textual itself writes: control sequences (CSI) and the mouse pointer's shape (OSC 22);
# and a turn alert's bell and notifications (tracker/serve/alerts.py), their words inert.
TEXTUALS = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\]22;[a-z-]*\x07"
    r"|\x07\x1b\]9;[^\x00-\x1f\x7f-\x9f;]*\x1b\\"
    r"\x1b\]777;notify;[^\x00-\x1f;]*;[^\x00-\x1f\x7f-\x9f;]*\x1b\\"
)


def not_textuals(output: str) -> list[str]:
    """The unsafe characters a seat was sent beyond Textual's own codes."""
    return unsafe(TEXTUALS.sub("", output), allowed="\n")


@asynccontextmanager
async def table(folder: Path) -> AsyncIterator[Seats]:
    served = await serve(folder)
    gm = await Client.join(served, "gm")
    alice = await Client.join(served, "alice")  # a player: her own view of the fight
    try:
        yield served, gm, alice
    finally:
        for client in (gm, alice):
            await client.close()
        served.server.close()
        await served.server.wait_closed()


async def show(seats: Seats, name: str, note: str, condition: str, mark: str) -> list[str]:
    """Orla renamed, a condition on her and a note about her, raw; what each seat was sent."""
    served, *clients = seats
    session = served.session
    orla = session.state.combatant(served.ids["Orla"])
    sent = [len(client.output) for client in clients]
    before = session.state
    record = session.history.commit(
        [
            CombatantEdited(structs.replace(orla, name=f"Orla {name}")),
            ConditionAdded(orla.id, Condition(f"Dazed {condition}")),
            NoteAdded(f"{mark} {note}", orla.id),
        ],
        "raw",
    )
    # As a session publishes a command's events, without the rules' checks.
    session._publish("applied", record, before)
    await until(lambda: all(mark in client.text() for client in clients))
    return [client.output[start:] for client, start in zip(clients, sent, strict=True)]


@pytest.fixture(scope="module")
def seats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InThread[Seats]]:
    with InThread(lambda: table(tmp_path_factory.mktemp("seats"))) as running:
        yield running


examples = iter(range(1_000_000))


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(hostile_text, min_size=3, max_size=3))
@example(["".join(SEQUENCES[:3]), EVERY, CONTROLS + SPOOFING])
def test_no_seat_is_sent_a_control_character(seats: InThread[Seats], texts: list[str]) -> None:
    name, note, condition = texts
    mark = f"mark{next(examples)}"
    for output in seats.run(lambda table: show(table, name, note, condition, mark)):
        assert not_textuals(output) == []
        for sequence in ("\x1b]0;", "\x1bc", "\x1b(0", "\x1b[2J", "\x1b]8;", "\x1b]52;"):
            assert sequence not in output


def test_the_check_sees_what_textual_does_not_send() -> None:
    assert not_textuals("\x1b[1;2H\x1b[38;5;2mOrla\x1b]22;default\x07\n") == []
    assert not_textuals("Orla\x1bc") == ["\x1b"]
    assert not_textuals("\x1b]0;PWNED\x07") == ["\x07", "\x1b"]
    assert not_textuals("Or\u202ela\x9b") == ["\x9b", "\u202e"]


def test_a_players_file_name_with_a_control_character_is_refused() -> None:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    with pytest.raises(PlayersError, match="line 2: the name 'Al\\\\x1bice' holds a control"):
        players.parse(f"gm {key}\nplayer:Al\x1bice {key}")
    # A key's comment is only a default name: its controls are dropped.
    (player,) = players.parse(f"spectator {key} bob\u202e\x1b]0;x\x07@home")
    assert player.name == "bob]0;x@home"
