"""The real tracker program in a real terminal (tmux, 80x24), driven by keys as a person
would: each system's demo fought to its end with the foes played by the tracker, a note
typed after the terminal shrank, and lines typed in one burst after the key that opens them."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rules import registry
from rules.registry import get_system
from rules.system import RuleSystem
from rules.testing import kit
from tests.e2e.tmux import Tmux
from tests.picks import a_system, has_demo, has_turn_order
from tracker.store import storage

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: no real terminal to drive"
)

TRACKER = Path(sys.executable).parent / "tracker"
STEPS = 120  # moves (a key or a few) at most before the fight must be over


def start(tmux: Tmux, tmp_path: Path, system: str, seed: int, size: tuple[int, int]) -> str:
    part = registry.part(system, "demo")
    assert part is not None, f"{system} has no demo"
    demo = tmp_path / "demos" / f"{part.STEM}{storage.SUFFIX}"  # as make demo writes it
    demo.parent.mkdir()
    storage.write(demo, part.build())
    command = [str(TRACKER), "--saves", str(tmp_path), "--seed", str(seed), "open", str(demo)]
    tmux.start(command, *size)
    return tmux.wait_for("Round")


def hand_the_foes_over(tmux: Tmux) -> None:
    tmux.keys("S")
    tmux.wait_for("Solo play: the tracker plays a side")
    tmux.keys("Down", "Right")
    tmux.wait_for("played by the tracker")
    tmux.keys("Enter")
    tmux.wait_for("⚙ solo: ")


# What the player does on the main screen when nothing else is asked of them: the system's
# test kit's plan (rules.testing), by default t (the actor's attack; the dialogs that follow
# take Enter), then n (the turn ends); after the kit's ``round_over`` words in the header, n.
DIALOG = "█▀▀▀"  # a dialog's top edge


def header(screen: str) -> str:
    return "\n".join(screen.splitlines()[:2])


def next_keys(system: str, screen: str, step: int) -> tuple[tuple[str, ...], int]:
    """The keys for the main screen, and the next step of the plan."""
    plan = kit(system)
    if plan.round_over and plan.round_over in header(screen):
        return ("n",), 0
    return plan.fight_plan[step % len(plan.fight_plan)], step + 1


def fight_to_the_end(
    tmux: Tmux,
    system: str,
    steps: int = STEPS,
    seen: Callable[[str], None] | None = None,
    quiet: float = 0.2,
) -> str:
    """Play the party by keys until `Fight over` shows, as a person would: `Enter` on every
    dialog (its defaults), `d` on a result waiting to be applied, else the next of the
    system's keys. Fails with the last screen when a dialog refuses its own defaults, or when
    the fight has not ended within ``steps`` moves. ``seen`` is shown every screen; a move is
    done once the screen has been ``quiet`` that long (a big fight's dialog opens slower)."""
    step = 0
    screen = tmux.settle()
    for _move in range(steps):
        if seen is not None:
            seen(screen)
        if "Fight over" in screen:
            return screen
        if "Not applied yet" in screen:  # asked before a roll or the turn's end: apply it
            keys: tuple[str, ...] = ("d",)
        elif DIALOG in screen:  # a roll, the result to apply, a pool to pay, damage to take
            keys = ("Enter",)
        elif "waiting (d)" in header(screen):
            keys = ("d",)
        else:
            keys, step = next_keys(system, screen, step)
        for key in keys[:-1]:  # each once the screen has taken the one before, as a person types
            tmux.keys(key)
            tmux.settle(quiet=0.1)
        tmux.keys(keys[-1])
        before, screen = screen, tmux.changed(screen, quiet=quiet)
        if screen == before:  # every move shows something: a dialog, a roll, a new turn
            raise AssertionError(f"nothing came of {' '.join(keys)}; the screen:\n{screen}")
    raise AssertionError(f"the fight never ended in {steps} moves; the last screen:\n{screen}")


@pytest.mark.parametrize("system", registry.names())
def test_a_demo_fought_to_its_end_in_a_real_terminal(
    tmux: Tmux, tmp_path: Path, system: str
) -> None:
    if type(get_system(system)).out_of_fight is RuleSystem.out_of_fight:
        pytest.skip("nobody is ever out of its fights (out_of_fight's default): they never end")
    start(tmux, tmp_path, system, kit(system).fight_seed, (80, 24))
    hand_the_foes_over(tmux)
    fight_to_the_end(tmux, system)
    tmux.wait_for("Fight over:")
    # The summary opens by itself, its figures counted in the background: the rounds and
    # rolls, a line per combatant, each side's luck.
    screen = tmux.wait_for(" · damage in ")
    assert re.search(r"\d+ rounds? · \d+ rolls? · damage in", screen), screen
    rows = [line for line in screen.splitlines() if line.startswith("█ ")]
    assert any(" Out " in row and " Dealt " in row and " Taken " in row for row in rows), screen
    assert any(" ✗ " in row for row in rows), screen  # a fallen fighter's line
    assert re.search(r"odds\), over \d+ rolls?", screen), screen


def test_a_note_typed_after_the_terminal_shrank_shows(tmux: Tmux, tmp_path: Path) -> None:
    start(tmux, tmp_path, a_system(has_demo), 1, (160, 48))
    tmux.resize(80, 24)
    tmux.wait_for("Round")
    tmux.settle()
    tmux.keys("o")
    tmux.settle()
    tmux.type("Rope bridge sways")
    tmux.keys("Enter")
    screen = tmux.wait_for("Rope bridge sways")
    assert all(len(line) <= 80 for line in screen.splitlines())
    assert len(screen.splitlines()) <= 24


def test_lines_typed_in_one_burst_land(tmux: Tmux, tmp_path: Path) -> None:
    # Read by the program in one go: the keys after `:` or `o` once went to the encounter's
    # table while the prompt or the dialog was still opening, and were lost.
    system = a_system(has_demo, has_turn_order)
    start(tmux, tmp_path, system, 1, (80, 24))
    current = registry.part(system, "demo").build().state.current
    assert current is not None, f"{system}'s demo has nobody to act"
    tmux.settle()
    tmux.burst(":note burst test", "Enter")
    tmux.wait_for("✎ burst test")
    tmux.burst(":note one", "Enter", ":note two", "Enter", "o", "three", "Enter")
    screen = tmux.wait_for("✎ three")
    # A note's text, up to the log's edge or a notification over it.
    log = [line.split("✎ ")[1].split("  ")[0] for line in screen.splitlines() if "✎ " in line]
    assert log == ["burst test", "one", "two", "three"], screen
    # No key of the burst reached the encounter (n).
    assert f"{current.name}'s turn" in header(screen)
