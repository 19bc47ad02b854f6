"""A fight tuned to the difficulty asked for (``tracker tune``, the app's "Balance..."): foes
of the fight's kinds (or the library's, as the caller gives them) added or removed, then
their hit points scaled, until the party's chance to win lands within a few points of the
target.

Pure: the chance of a state is the caller's (``Estimate``: a forecast over the worker pool,
the same seed every time so that two steps differ by their change and not by the dice, or a
system's exact odds for a duel), and the change is one ``Commands``, decided only when the
GM accepts it. The search is bounded: the count of foes by doubling then bisection, then the
scale of their hit points by bisection on its logarithm, ``MAX_STEPS`` chances in all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from rules.commands import AddCombatant, Commands, EditCombatant, RemoveCombatant
from rules.dice import DiceSource
from rules.encounter import AnyEncounter, Combatant
from rules.engine import MAX_GROUP, apply, decide
from rules.errors import Rejected
from rules.forecast import wilson
from rules.odds import whole_percent
from rules.outcome import in_fight
from rules.registry import get_system

TOLERANCE = 0.03  # "within a few points": the search stops this near the target
MAX_STEPS = 16  # chances asked for in one tune: a tune stays under 20 s (bench/tune.py)
HP_STEPS = 7  # of them, at most this many on the hit points' scale
LOWEST_SCALE, HIGHEST_SCALE = 0.25, 4.0
NUMBERED = re.compile(r"(.*\S)\s+[0-9]+")  # "Goblin 2": a kind and its number


class Chance(NamedTuple):
    """The party's chance to win a state, with its 95% interval; ``runs`` 0: exact."""

    p: float
    low: float
    high: float
    runs: int

    @property
    def exact(self) -> bool:
        return self.runs == 0


Estimate = Callable[[AnyEncounter], Chance]


def together(first: Chance, more: Chance) -> Chance:
    """Two batches of fights of one state, on seeds of their own, as one (their wins added)."""
    wins = round(first.p * first.runs) + round(more.p * more.runs)
    total = first.runs + more.runs
    if total == 0:
        return first
    return Chance(wins / total, *wilson(wins, total), total)


class Kind(NamedTuple):
    """A kind of foe a tune may add: its name and the sheet each copy starts with."""

    name: str
    side: str
    sheet: Any
    gm_only: bool = False


class Plan(NamedTuple):
    """A change to the fight: foes added by kind, foes removed, and the scale of the hit
    points of every foe (1: as they are)."""

    added: tuple[int, ...]  # how many of each kind
    removed: tuple[str, ...]  # ids
    scale: float = 1.0


class Step(NamedTuple):
    what: str  # the plan in a few words
    chance: Chance


class Tuning(NamedTuple):
    target: float
    start: Chance
    steps: tuple[Step, ...]
    plan: Plan
    chance: Chance  # the settled plan's
    command: Commands | None  # None: nothing to change
    reached: bool
    line: str  # what it settled on, in one line


def foes_of(state: AnyEncounter, party: str) -> list[Combatant[Any]]:
    """The foes still in the fight (every side but the party's)."""
    return [c for c in state.combatants if c.side != party and in_fight(state, c)]


def kinds_of(state: AnyEncounter, party: str) -> list[Kind]:
    """The fight's kinds of foe, in turn order: one per name without its number, a copy
    starting as the first of them started the fight (``fresh_sheet``)."""
    system = get_system(state.system)
    kinds: dict[str, Kind] = {}
    for c in foes_of(state, party):
        found = NUMBERED.fullmatch(c.name)
        name = found.group(1) if found else c.name
        if name not in kinds:
            kinds[name] = Kind(name, c.side, system.fresh_sheet(c.sheet), c.gm_only)
    return list(kinds.values())


def scales(system: str, kinds: Sequence[Kind]) -> bool:
    """Whether a tune may scale these foes' hit points: the system has them to scale
    (``RuleSystem.scaled``); else it adds and removes foes only."""
    return bool(kinds) and get_system(system).scaled(kinds[0].sheet, 2.0) is not None


def plan_words(plan: Plan, kinds: Sequence[Kind], state: AnyEncounter) -> str:
    parts = [f"+{n} {k.name}" for k, n in zip(kinds, plan.added, strict=True) if n]
    parts += [f"-{c.name}" for c in state.combatants if c.id in plan.removed]
    if plan.scale != 1.0:
        parts.append(f"foes' hit points x{plan.scale:.2f}")
    return ", ".join(parts) or "as it is"


def plan_command(
    state: AnyEncounter, party: str, plan: Plan, kinds: Sequence[Kind]
) -> Commands | None:
    """The plan as one command: removals, the hit points scaled, then the newcomers."""
    system = get_system(state.system)
    steps: list[Any] = [RemoveCombatant(cid) for cid in plan.removed]
    if plan.scale != 1.0:
        for c in foes_of(state, party):
            if c.id in plan.removed:
                continue
            sheet = system.scaled(c.sheet, plan.scale)
            if sheet is not None and sheet != c.sheet:
                steps.append(EditCombatant(combatant_id=c.id, sheet=sheet))
    for kind, count in zip(kinds, plan.added, strict=True):
        sheet = kind.sheet
        if plan.scale != 1.0:
            sheet = system.scaled(sheet, plan.scale) or sheet
        steps += [
            AddCombatant(name=kind.name, side=kind.side, gm_only=kind.gm_only, sheet=sheet)
        ] * count
    return Commands(tuple(steps)) if steps else None


def planned(state: AnyEncounter, command: Commands | None, dice: DiceSource) -> AnyEncounter:
    """The fight as the plan leaves it, on a scratch copy."""
    if command is None:
        return state
    for event in decide(state, command, dice):
        state = apply(state, event)
    return state


class _Search:
    def __init__(
        self,
        state: AnyEncounter,
        party: str,
        kinds: Sequence[Kind],
        estimate: Estimate,
        dice: Callable[[], DiceSource],
        max_steps: int,
        told: Callable[[Step], None] | None = None,
    ) -> None:
        self.told = told
        self.state, self.party, self.kinds = state, party, list(kinds)
        self.estimate, self.dice, self.left = estimate, dice, max_steps
        self.steps: list[Step] = []
        self.seen: dict[Plan, Chance] = {}
        self.foes = foes_of(state, party)

    def count_plan(self, delta: int, scale: float = 1.0) -> Plan:
        """``delta`` foes more (round the kinds in turn) or fewer (the last in the order
        first); never fewer than one."""
        if delta >= 0:
            added = [0] * len(self.kinds)
            for index in range(delta):
                added[index % len(self.kinds)] += 1
            return Plan(tuple(added), (), scale)
        gone = tuple(c.id for c in reversed(self.foes))[: min(-delta, len(self.foes) - 1)]
        return Plan((0,) * len(self.kinds), gone, scale)

    def chance(self, plan: Plan) -> Chance | None:
        """The plan's chance, asked once; None when the steps are spent."""
        if plan in self.seen:
            return self.seen[plan]
        if self.left <= 0:
            return None
        self.left -= 1
        command = plan_command(self.state, self.party, plan, self.kinds)
        found = self.estimate(planned(self.state, command, self.dice()))
        self.seen[plan] = found
        step = Step(plan_words(plan, self.kinds, self.state), found)
        self.steps.append(step)
        if self.told is not None:
            self.told(step)
        return found


def tune(
    state: AnyEncounter,
    party: str,
    target: float,
    estimate: Estimate,
    dice: Callable[[], DiceSource],
    *,
    kinds: Sequence[Kind] | None = None,
    tolerance: float = TOLERANCE,
    scale_hp: bool = True,
    count: bool = True,
    max_steps: int = MAX_STEPS,
    describe: Callable[[float], str] = whole_percent,
    told: Callable[[Step], None] | None = None,
) -> Tuning:
    """Search for the change that brings the party's chance to win to ``target`` (0 to 1).

    ``kinds``: the foes a tune may add (None: the fight's own); ``count`` False: none added
    or removed, ``scale_hp`` False: no hit points scaled. ``dice``: a fresh source for
    each scratch copy (a newcomer rolls initiative as it joins), the same each time.
    ``describe``: how a chance is said in the settled line (a percentage; the place for a
    difficulty band). ``told``: each step as it is measured."""
    if not 0.0 <= target <= 1.0:
        raise Rejected(f"the party's chance to win is 0% to 100%, not {target * 100:g}%")
    if party not in {c.side for c in state.combatants}:
        raise Rejected(f"no side {party!r} in {state.name}")
    if not foes_of(state, party):
        raise Rejected("nobody fights the party: there is no foe to add, remove or scale")
    kinds = list(kinds) if kinds is not None else kinds_of(state, party)
    if not kinds:
        raise Rejected("no kind of foe to add")
    if not (count or scale_hp):
        raise Rejected("nothing a tune may change: neither the foes nor their hit points")
    can_scale = scale_hp and scales(state.system, kinds)
    if not (count or can_scale):
        title = get_system(state.system).title
        raise Rejected(f"{title} has no hit points to scale: a tune there adds or removes foes")
    search = _Search(state, party, kinds, estimate, dice, max(2, max_steps), told)
    start = search.chance(Plan((0,) * len(kinds), ()))
    assert start is not None
    best = _count_search(search, target, tolerance) if count else search.count_plan(0)
    if can_scale and abs(search.seen[best].p - target) > tolerance:
        best = _scale_search(search, best, target, tolerance)
    chance = search.seen[best]
    reached = abs(chance.p - target) <= tolerance
    command = plan_command(state, party, best, kinds)
    words = plan_words(best, kinds, state)
    if reached:
        line = f"Settled on {words}: the party wins {describe(chance.p)} (asked {describe(target)})"
    else:
        line = (
            f"Cannot reach {describe(target)} in {len(search.steps)} steps: the nearest is "
            f"{words}, where the party wins {describe(chance.p)}"
        )
    return Tuning(target, start, tuple(search.steps), best, chance, command, reached, line)


def _count_search(search: _Search, target: float, tolerance: float) -> Plan:
    """The count of foes: doubling away from none until the target is passed, then bisection
    between the last two; the nearest plan seen."""
    base = search.count_plan(0)
    first = search.seen[base]
    if abs(first.p - target) <= tolerance:
        return base
    direction = 1 if first.p > target else -1  # the party wins too often: more foes
    limit = MAX_GROUP if direction > 0 else len(search.foes) - 1
    near, far = 0, 0  # |delta| on the start's side of the target, and past it
    size = 1
    while size <= limit:
        found = search.chance(search.count_plan(direction * size))
        if found is None:
            break
        if abs(found.p - target) <= tolerance:
            return search.count_plan(direction * size)
        if (found.p > target) != (first.p > target):
            far = size
            break
        near = size
        if size == limit:
            break
        size = min(limit, size * 2)
    while far and far - near > 1:
        middle = (near + far) // 2
        found = search.chance(search.count_plan(direction * middle))
        if found is None:
            break
        if abs(found.p - target) <= tolerance:
            return search.count_plan(direction * middle)
        if (found.p > target) == (first.p > target):
            near = middle
        else:
            far = middle
    return _nearest(search, target)


def _scale_search(search: _Search, plan: Plan, target: float, tolerance: float) -> Plan:
    """The foes' hit points scaled, by bisection on the scale's logarithm: above 1 when the
    party still wins too often, below it when too seldom."""
    chance = search.seen[plan]
    counted = plan._replace(scale=1.0)
    if chance.p > target:
        low, high = 0.0, math.log(HIGHEST_SCALE)  # harder: more hit points
    else:
        low, high = math.log(LOWEST_SCALE), 0.0
    for _ in range(HP_STEPS):
        middle = (low + high) / 2
        scale = round(math.exp(middle), 2)
        found = search.chance(counted._replace(scale=scale))
        if found is None:
            break
        if abs(found.p - target) <= tolerance:
            return counted._replace(scale=scale)
        if found.p > target:  # more hit points for the foes
            low = middle
        else:
            high = middle
    return _nearest(search, target)


def _nearest(search: _Search, target: float) -> Plan:
    """The plan seen nearest the target; of two as near, the smaller change."""
    return min(
        search.seen,
        key=lambda p: (abs(search.seen[p].p - target), sum(p.added) + len(p.removed)),
    )
