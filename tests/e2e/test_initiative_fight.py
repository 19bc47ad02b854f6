"""A ten-combatant fight in the real program at 80x24, by keys: initiative rolled and the
order sorted, a reinforcement taking its place by initiative, a condition ticking down on
screen, and the fight played to its end."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from rules import registry
from rules.encounter import Encounter
from rules.registry import get_system
from rules.system import RuleSystem
from rules.testing import kit
from tests.e2e.test_real_program import fight_to_the_end, hand_the_foes_over, start
from tests.e2e.tmux import Tmux
from tests.helpers import rolls_initiative_on_add
from tracker.line_commands.names import slug
from tracker.store import library, storage

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: no real terminal to drive"
)

TEN = 10
MOVES = 400  # ten fighters take longer than the demo's few
QUIET = 0.6  # seconds of a still screen before the next move: ten rows draw slower


def fought_in_order() -> str:
    """A system with a turn order, a demo, and fights that end (someone falls)."""
    return next(
        name
        for name in registry.names()
        if get_system(name).uses_turn_order
        and not rolls_initiative_on_add(get_system(name))
        and type(get_system(name)).out_of_fight is not RuleSystem.out_of_fight
        and registry.part(name, "demo") is not None
    )


PATIENCE = 30.0  # seconds for the program to save what was typed: ten commands on a busy CI


def saved(path: Path, condition: Callable[[Encounter], bool], what: str) -> Encounter:
    """The encounter as the program saved it, once ``condition`` holds (it saves after every
    change; a read may meet a journal frame half written, and is tried again)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            state = storage.read(path).state
        except Exception:  # a frame being written: read again
            state = None
        if state is not None and condition(state):
            return state
        if time.monotonic() > deadline:
            seen = state and [(c.name, [k.name for k in c.conditions]) for c in state.combatants]
            raise AssertionError(f"never saved: {what}; the last saved: {seen}")
        time.sleep(0.05)


def pane_rows(screen: str) -> list[str]:
    return screen.split("┏━ Combatants")[1].split("┗")[0].splitlines()[1:]


def test_a_ten_combatant_fight_by_initiative_to_its_end(tmux: Tmux, tmp_path: Path) -> None:
    system = fought_in_order()
    foe = next(e for e in library.load(None).of(system) if e.side == "foes" and not e.hidden)
    start(tmux, tmp_path, system, kit(system).fight_seed, (80, 24))
    hand_the_foes_over(tmux)  # as the demo lists its sides: the party first
    tmux.settle()
    [demo] = tmp_path.glob(f"*{storage.SUFFIX}")  # the demo's copy, played and saved
    first = storage.read(demo).state
    tmux.burst(f":add {slug(foe.name)} x{TEN - 1 - len(first.combatants)}", "Enter")
    state = saved(demo, lambda s: len(s.combatants) == TEN - 1, "nine combatants")

    tmux.burst(":init roll", "Enter")
    screen = tmux.wait_for("sorted by initiative")
    rows = pane_rows(screen)
    assert "Init" in rows[0], screen
    state = saved(demo, lambda s: all(c.initiative is not None for c in s.combatants), "rolls")
    ranks = [c.initiative for c in state.combatants]
    assert ranks == sorted(ranks, reverse=True)  # type: ignore[type-var]

    newcomer = f"c{state.next_number}"  # the reinforcement's id, typed as its name
    tmux.burst(f":add {slug(foe.name)}", "Enter")
    state = saved(demo, lambda s: len(s.combatants) == TEN, "the reinforcement")
    tmux.burst(f":init {newcomer} 99", "Enter")
    screen = tmux.wait_for("initiative 99")
    state = saved(demo, lambda s: s.combatants[0].id == newcomer, "the reinforcement first")
    rows = pane_rows(screen)
    assert state.combatants[0].name in rows[1], screen  # first in the order, on screen
    assert all(c.name in "\n".join(rows) for c in state.combatants), screen  # all ten

    # Hexed on every combatant: whoever is still up in the next round shows it a round less
    # (a downed one may be out before then, as the dice fall).
    for combatant in state.combatants:
        tmux.burst(f":cond {combatant.id} Hexed 2", "Enter")
    saved(demo, lambda s: all(c.conditions for c in s.combatants), "everyone hexed")
    tmux.wait_for("Hexed 2r")
    shown: list[str] = []

    def ticking(screen: str) -> None:
        if "┏━ Combatants" not in screen:
            return  # a dialog over the pane
        left = [int(n) for row in pane_rows(screen) for n in re.findall(r"Hexed (\d+)r", row)]
        shown.append(f"{min(left)}r" if left else "")

    fight_to_the_end(tmux, system, MOVES, ticking, quiet=QUIET)
    screen = tmux.wait_for("Fight over:")
    ticks = list(dict.fromkeys(t for t in shown if t))
    assert ticks[:2] == ["2r", "1r"], f"{shown}\n{screen}"  # a round less, on screen
