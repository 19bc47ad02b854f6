"""The walk: a seeded run of steps through the app, every invariant checked on the way."""

from __future__ import annotations

import asyncio
import random
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from rules.commands import EditCombatant, NextTurn, RemoveCombatant, RollDice
from rules.errors import Rejected
from tests.contract.support import actor, values_of
from tests.screen import screen_text
from tests.walk import invariants
from tests.walk.actions import GM, PASTE, Step, choose, shown
from tests.walk.world import HIDDEN_ID, HIDDEN_NAME, SECRET_DICE, Case, World, build

COSTLY_EVERY = 6  # steps between the costly checks (and always after the last step)
STEP_TIMEOUT = 60.0  # seconds: a step not done by then hung the app (even on a busy machine)


@dataclass
class Walked:
    """What one walk did and reached; ``problem`` names what broke, at step ``failed_at``."""

    case: Case
    seed: int
    steps: list[tuple[str, Step]] = field(default_factory=list)  # (screen, keys)
    screens: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    problem: str | None = None
    failed_at: int = 0

    def replay(self) -> str:
        width, height = self.case.size
        return (
            f"python -m tests.walk --seed {self.seed} --system {self.case.system} "
            f"--role {self.case.role} --size {width}x{height} --steps {len(self.steps)}"
        )

    def report(self) -> str:
        """What broke (if anything), how to replay it, and the steps taken, as typed."""
        what = f"failed at step {self.failed_at}: {self.problem}" if self.problem else "passed"
        lines = [
            f"walk {self.case} seed {self.seed} {what}",
            f"replay: {self.replay()}",
            "steps:",
        ]
        for number, (screen, step) in enumerate(self.steps, start=1):
            lines.append(f"  {number:3} {screen}: {shown(step)}")
        return "\n".join(lines)


async def perform(pilot: Pilot[None], world: World, step: Step) -> None:
    """Type the step's keys (a paste arrives as the terminal's bracketed paste)."""
    for token in step:
        if token.startswith(PASTE):
            world.app.post_message(events.Paste(token[len(PASTE) :]))
            await pilot.pause()
        elif token.startswith(GM):
            gm_move(world, token[len(GM) :])
            await pilot.pause()
        else:
            await pilot.press(token)
    await pilot.pause()


def gm_move(world: World, move: str) -> None:
    """What the GM does at the table while a player or spectator walks (refusals pass)."""
    session = world.session
    state, system = session.state, session.system
    try:
        if move == "next":
            session.execute(NextTurn(), "next")
        elif move in ("roll", "hidden-roll"):
            by = HIDDEN_ID if move == "hidden-roll" and state.find(HIDDEN_ID) else actor(state)
            values = values_of(system.action_form(state, "roll", by))
            session.execute(system.action_command(state, "roll", values), "roll")
        elif move == "dice":  # the GM's hidden dice: never on this seat's screen
            session.execute(RollDice(SECRET_DICE, hidden=True), f"roll {SECRET_DICE} hidden")
        elif move == "apply":
            session.execute(system.consequence_command(state), "apply")
        elif move in ("hide", "remove"):
            others = [c for c in state.combatants if not c.gm_only and c.id not in world.assigned]
            if others:
                them = others[len(session.history.records) % len(others)]
                session.execute(
                    EditCombatant(
                        combatant_id=them.id, name=f"{HIDDEN_NAME} {them.id}", gm_only=True
                    )
                    if move == "hide"
                    else RemoveCombatant(them.id),
                    move,
                )
        elif move == "undo" and len(session.history.applied_in_effect()) > world.start:
            session.undo()  # only what was done in the walk: the hidden foe stays
    except Rejected:
        pass


def label(world: World, step: Step) -> str:
    """What a step did, for the explore summary: the binding's action, or the kind of step."""
    first = step[0]
    if first.startswith(GM):
        return first
    if first.startswith(PASTE) or first == "home":
        return "type into a field"
    if first == "colon" and len(step) > 2:
        typed = "".join(t if len(t) == 1 else " " for t in step[1:-1]).split()
        return f":{typed[0] if typed else ''}"
    if len(first) == 1 and isinstance(world.app.focused, Input):
        return "type into a field"
    active = world.app.screen.active_bindings.get(first)
    return active.binding.action if active is not None else first


async def walk(
    case: Case,
    seed: int,
    steps: int,
    folder: Path | None = None,
    keep_screen: list[str] | None = None,
) -> Walked:
    """Walk ``steps`` steps from the case's demo; the result says what broke, if anything.
    ``keep_screen`` gets the screen's text where the walk stopped (for a replay)."""
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="walk-") as temporary:
            return await walk(case, seed, steps, Path(temporary), keep_screen)
    walked = Walked(case, seed)
    rng = random.Random(seed)
    world = build(case, folder, seed)
    try:
        async with world.app.run_test(size=case.size) as pilot:
            await pilot.pause()
            walked.problem = invariants.cheap(world)
            for number in range(1, steps + 1):
                if walked.problem is not None:
                    break
                screen = type(world.app.screen).__name__
                walked.screens[screen] += 1
                step = choose(rng, world)
                walked.steps.append((screen, step))
                did = label(world, step)
                walked.actions[f"{screen}: {did}"] += 1
                walked.failed_at = number
                try:
                    await asyncio.wait_for(perform(pilot, world, step), STEP_TIMEOUT)
                except TimeoutError:
                    walked.problem = f"the step did not end in {STEP_TIMEOUT:g} s: the app hung"
                    break
                walked.problem = invariants.cheap(world, scrolled=did.startswith("scroll"))
                if walked.problem is None and (number % COSTLY_EVERY == 0 or number == steps):
                    walked.problem = invariants.costly(world)
            if keep_screen is not None:
                keep_screen.append(screen_text(world.app))
    except Exception as exc:  # what escaped the app, as run_test raises it
        walked.problem = walked.problem or _escaped(exc)
    finally:
        world.close()
    if walked.problem is None:
        walked.failed_at = 0
    return walked


def _escaped(exc: Exception) -> str:
    where = traceback.extract_tb(exc.__traceback__)
    last = where[-1] if where else None
    place = f" at {Path(last.filename).name}:{last.lineno} ({last.name})" if last else ""
    return f"{type(exc).__name__}: {exc}{place}"
