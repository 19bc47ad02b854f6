"""Screenshots of the app (pytest-textual-snapshot), compared with the SVGs in __snapshots__/.

A system's own screens (its roll dialog, help, replay) are its own, in
``tests/systems/<name>/test_snapshots_<name>.py``. After an intended change to what the app
shows, regenerate them all with
``.venv/bin/pytest tests/app/test_snapshots.py --snapshot-update`` and look at the diff.
Each app here is deterministic: a demo built in memory (no file, so no path on screen),
seeded dice, the default theme and no settings file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from rules.dice import SeededDice
from rules.history import History
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.session import EncounterSession

SIZES = ((80, 24), (160, 48))
STORED = Path(__file__).with_name("__snapshots__") / "test_snapshots"


def demo_app(demo: str) -> TrackerApp:
    # No path: nothing is saved and no save path can appear on screen.
    session = EncounterSession(DEMOS[demo](), SeededDice(7), None)
    session.clock = lambda: None  # type: ignore[method-assign]  # no turn clock: it would tick
    return TrackerApp(session)


def replay_app(demo: str) -> TrackerApp:
    history: History = DEMOS[demo]()
    return TrackerApp(None, replay=history, dice=SeededDice(7))


async def settle(pilot) -> None:
    """Let workers (the odds) finish and the screen catch up."""
    await pilot.pause()
    # The odds worker hands its result to the screen (beneath the dialog too) before it ends.
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def pressing(*keys: str):
    """Keys pressed before the screen settles (snap_compare's ``press`` comes after it)."""

    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press(*keys)
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a blinking cursor is on or off by the clock
        await settle(pilot)

    return run_before


@pytest.fixture
def stored(request: pytest.FixtureRequest) -> None:
    """A demo's screen is compared once its SVG is stored: a new system's are skipped, saying
    how to store them (and to look at them first)."""
    svg = STORED / f"{request.node.name}.svg"
    if not svg.exists() and not request.config.getoption("--snapshot-update"):
        pytest.skip(f"no {svg.name} yet: look at it, then store it with --snapshot-update")


@pytest.mark.usefixtures("stored")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("demo", sorted(DEMOS))
def test_main_screen(snap_compare, demo: str, size: tuple[int, int]) -> None:
    assert snap_compare(demo_app(demo), terminal_size=size, run_before=settle)


# At 80x24, with all that makes the screen crowded: a consequence waiting to be applied (the
# demo's, else the roll dialog's defaults rolled), the foes played by the tracker (the Solo
# column), and a long condition on the selected foe (abbreviated in its row, in full on the
# pane's lower border). Nothing may be cut off.


NET = "Entangled in a weighted net"  # the long condition


def crowded(demo: str):
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press("S", "down", "right", "enter")  # the tracker plays the second side
        session = pilot.app.session
        if not session.system.pending(session.state):
            await pilot.press("r", "enter")  # a roll, not applied
        await settle(pilot)
        await pilot.press("down", "down", "down", "down", "down")  # a foe (the last row if few)
        await pilot.press("c", *NET, "enter")
        await settle(pilot)
        pilot.app.clear_notifications()
        await settle(pilot)

    return run_before


@pytest.mark.usefixtures("stored")
@pytest.mark.parametrize("demo", sorted(DEMOS))
def test_crowded_main_screen_at_80x24(snap_compare, demo: str) -> None:
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=crowded(demo))
