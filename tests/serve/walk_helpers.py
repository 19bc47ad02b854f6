"""A served table walked by every seat at once: random keys from what each role is offered,
and the checks that must hold however they interleave (tests/serve/test_serve_walk.py)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.app import App

from rules.commands import AddCombatant
from rules.dice import SeededDice
from rules.engine import fold
from rules.registry import part
from tests.hostile_text import CONTROLS, SEQUENCES, SPOOFING
from tests.serve.serve_helpers import SECRET, Served, until
from tracker.screens.help import HelpScreen
from tracker.serve.channel import SeatChannel
from tracker.serve.seats import Seat
from tracker.session import EncounterSession
from tracker.store import storage

ESC = "\x1b"
BOTTOM = 2  # screens under everything: Textual's default one, and the encounter's
KEYS = {  # what each role is offered, as its terminal sends it
    # The GM's w opens the seats: p and b there change the table's settings (players end
    # their own turn, turn alerts), g gives combatants to a player by name.
    "gm": (
        *("r", "t", "\r", ESC, "d", "n", ":", "f", "?", "\t", "\x1b[A", "\x1b[B", "u"),
        *("w", "p", "b", "g"),
    ),
    # A player's n ends their own turn; b turns their seat's alerts off and on.
    "player": ("r", "t", "\r", ESC, "d", ":", "f", "?", "\t", "\x1b[A", "\x1b[B", "n", "b"),
}
WORDS = ("note", "dice", "roll", "attack", "cond", "uncond", "wound", "heal", "apply", "help")
DICE = ("2d6+3", "d20", "4d6kh3", "3d6!", "1d1000", "0d0", "d", "999d999")
# The GM's hidden dice (`:dice 1d20+4321 hidden`): no player's screen or wire carries them.
# A player's `:dice ... hidden` is refused.
SECRET_DICE = "1d20+4321"
# Keys that end a seat as its person asked (quit), not as a failure: never typed.
QUITS = "\x11"
HOSTILE = tuple(c for c in CONTROLS + SPOOFING if c not in QUITS) + SEQUENCES


def demo_fight(name: str, folder: Path) -> tuple[EncounterSession, dict[str, str]]:
    """System ``name``'s demo, saved in ``folder``, with a GM-only foe named ``SECRET``."""
    demo = part(name, "demo")
    assert demo is not None, f"{name} has no demo"
    path = folder / f"{demo.STEM}-walk{storage.SUFFIX}"
    session = EncounterSession(demo.build(), SeededDice(7), path)
    session.execute(AddCombatant(name=SECRET, side="foes", gm_only=True))
    session.save()
    return session, {c.name: c.id for c in session.state.combatants}


def words_of(session: EncounterSession) -> tuple[list[str], list[str]]:
    """Names and handles a command may be given (the secret's only by the GM), and the
    conditions and dice the fight knows."""
    state = session.state
    names = [c.name for c in state.combatants if not c.gm_only]
    hidden = [c.name.lower() for c in state.combatants if c.gm_only]
    extra = [cond.name for c in state.combatants for cond in c.conditions]
    return names + extra + list(DICE) + ["1", "3", "-2", "x" * 80], hidden


@dataclass
class Walker:
    """One seat that walks: how to type on it, read its screen, and find its seat."""

    name: str
    role: str  # "gm" or "player"
    send: Callable[[str], Awaitable[None]]
    text: Callable[[], str]
    output: Callable[[], str]
    seat: Callable[[], Seat | None]
    channel: Callable[[], SeatChannel | None]
    steps: list[str] = field(default_factory=list)

    @property
    def sees_secret(self) -> bool:
        return self.role == "gm"


def line(rng: random.Random, role: str, words: list[str], hidden: list[str]) -> str:
    """A `:` command line: a command, then names, numbers, dice and hostile text."""
    parts = [rng.choice(WORDS)]
    if parts[0] in ("dice", "roll") and rng.random() < 0.3:
        return f"{parts[0]} {SECRET_DICE if role == 'gm' else rng.choice(DICE)} hidden"
    for _ in range(rng.randrange(3)):
        if role == "gm" and names_here(parts) and hidden and rng.random() < 0.3:
            parts.append(rng.choice(hidden))  # the GM may act on the secret, never say it
        elif rng.random() < 0.2:
            parts.append(rng.choice(HOSTILE))
        else:
            parts.append(rng.choice(words))
    return " ".join(parts)[:40]


def names_here(parts: list[str]) -> bool:
    """Whether the word after ``parts`` is read as a name, not as the GM's own words: a
    note's text, or a condition's (`:cond Bullet vexmoor` labels Bullet "Vexmoor" for all to
    see, as a note saying it would: seed 620004)."""
    command = parts[0]
    return command != "note" and not (command in ("cond", "uncond") and len(parts) > 1)


def step(rng: random.Random, walker: Walker, words: list[str], hidden: list[str]) -> str:
    """The next thing ``walker`` types: a key it is offered, or a line after `:`, or
    hostile text typed or pasted."""
    roll = rng.random()
    if roll < 0.7:
        return rng.choice(KEYS[walker.role])
    if roll < 0.85:
        return ":" + line(rng, walker.role, words, hidden) + rng.choice(("\r", ESC, ""))
    text = "".join(rng.choice(HOSTILE) for _ in range(rng.randrange(1, 4)))
    return f"\x1b[200~{text}\x1b[201~" if rng.random() < 0.5 else text


def read(channel: SeatChannel | None) -> bool:
    """All the seat was sent is read: parsed and handed to its app, a lone Esc too."""
    if channel is None or channel.app is None:
        return True
    driver = channel.app.channel_driver
    return driver is None or (not driver._pending and driver._step is None and not driver._tick)


async def press(walker: Walker, keys: str) -> None:
    """Type ``keys`` on the seat and wait until the seat has read them."""
    seat = walker.seat()
    before = seat.last_input if seat is not None else 0.0
    await walker.send(keys)

    def arrived() -> bool:
        now = walker.seat()
        return now is None or (now.last_input != before and read(walker.channel()))

    await until(arrived)


async def walk(
    walker: Walker,
    rng: random.Random,
    count: int,
    words: list[str],
    hidden: list[str],
    check: Callable[[Walker], None],
) -> None:
    for _ in range(count):
        keys = step(rng, walker, words, hidden)
        walker.steps.append(keys)
        await press(walker, keys)
        check(walker)


def failures(served: Served) -> list[str]:
    return [n for n in served.table.notices if "error" in n or "failed" in n]


async def answers(walker: Walker) -> None:
    """The seat still answers: Esc closes what is open (one screen at a time), then `?`
    draws the help. Waits on the seat's screens, not on its frames, until the last: the
    frames of four seats read by four terminal emulators in the test's own loop may lag
    far behind on a loaded machine, and a key pressed again would toggle what lags."""
    channel = walker.channel()
    assert channel is not None and channel.app is not None, (
        f"{walker.name}'s seat is gone; its last words: {walker.output()[-200:]!r}"
    )
    app = channel.app
    for _ in range(4):  # another seat's change may open a screen (the fight's summary)
        await close_all(walker, app)
        await press(walker, "?")
        with contextlib.suppress(AssertionError):
            await until(lambda: len(app.screen_stack) > BOTTOM)
        if isinstance(app.screen, HelpScreen):
            break
    try:
        await until(lambda: "closes this help" in walker.text(), timeout=120)
    except AssertionError:
        raise AssertionError(
            f"{walker.name}'s seat no longer draws the help; its screens"
            f" {app.screen_stack}:\n{walker.text()}"
        ) from None


async def close_all(walker: Walker, app: App[object]) -> None:
    """Esc until only the encounter is on screen."""
    for _ in range(8):
        depth = len(app.screen_stack)
        if depth <= BOTTOM:
            return
        await press(walker, ESC)
        with contextlib.suppress(AssertionError):  # Esc may not close it: try again
            await until(lambda: len(app.screen_stack) < depth)  # noqa: B023
    raise AssertionError(f"Esc closes nothing on {walker.name}'s seat: {app.screen_stack}")


def same_everywhere(session: EncounterSession) -> None:
    """The session's state is the save reopened from disk, and the fold of its log."""
    assert session.path is not None
    assert storage.read(session.path).state == session.state, "the save differs from the table"
    assert fold(session.history.effective_events()) == session.state, "the log's fold differs"
