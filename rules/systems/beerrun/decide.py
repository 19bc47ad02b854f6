"""Beer Run's decisions: stating goals, building pools, rolling a round, landing damage, ceding,
outcome dice; and the state they read.

Dice order in a round: helping pools first (each: its dice, the penalty and inflicted dice
rolled against it, then its difficulty); then every other pool in the order they were paid
for (abilities, situation dice, then the dice rolled against it), then each difficulty pool
as its comparison comes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.conditions import Condition, Duration
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.events import ConditionAdded

from .dice import MAX_REPLACED, Die, compare, pool_cost, roll_dice, with_target_die
from .events import (
    AddOutcomeDie,
    BeerRunState,
    BuildPool,
    Cede,
    Ceded,
    Contest,
    DamageLanded,
    DiceGained,
    DifficultyWorn,
    GoalGained,
    GoalSet,
    Hit,
    OutcomeDieAdded,
    Pending,
    Pool,
    PoolDie,
    RoundRolled,
    SetGoal,
    Spent,
    SuccessesLost,
)
from .sheet import HEALTH, Ability, BeerRunSheet

if TYPE_CHECKING:
    from .events import BeerRunCombatant, BeerRunEncounter

DEAD = "Dead"
CEDED = "Ceded"


def br_state(state: BeerRunEncounter) -> BeerRunState:
    found = state.system_state
    return found if isinstance(found, BeerRunState) else BeerRunState()


def sheet_of(combatant: BeerRunCombatant) -> BeerRunSheet:
    sheet = combatant.sheet
    if not isinstance(sheet, BeerRunSheet):
        raise Rejected(f"{combatant.name} has no Beer Run sheet")
    return sheet


def categories(state: BeerRunEncounter) -> tuple[str, ...]:
    """The GM's categories, or else every category on a sheet, in order of appearance."""
    chosen = br_state(state).categories
    if chosen:
        return chosen
    seen: dict[str, None] = {}
    for combatant in state.combatants:
        if isinstance(combatant.sheet, BeerRunSheet):
            for ability in combatant.sheet.abilities:
                seen.setdefault(ability.category, None)
    return tuple(seen)


def round_pools(state: BeerRunEncounter) -> tuple[Pool, ...]:
    """This round's pools, of combatants still in the encounter."""
    return tuple(
        p
        for p in br_state(state).pools
        if p.round == state.round and state.find(p.combatant_id) is not None
    )


def pending_now(state: BeerRunEncounter) -> tuple[Pending, ...]:
    """This round's successes still to land, between combatants still in the encounter."""
    return tuple(
        p
        for p in br_state(state).pending
        if p.round == state.round
        and state.find(p.target_id) is not None
        and (p.dealer_id is None or state.find(p.dealer_id) is not None)
    )


def nothing_to_land(state: BeerRunEncounter) -> Rejected:
    if br_state(state).rolled_round == state.round:
        return Rejected(f"Round {state.round}'s successes have all landed: cede (s) or n")
    return Rejected("No successes are waiting to land: roll the round first (r)")


def is_dead(combatant: BeerRunCombatant) -> bool:
    return combatant.condition(DEAD) is not None


def out_of_fight(combatant: BeerRunCombatant) -> str:
    """Why a combatant has left the conflict ("" while in it): Health at zero made it Dead,
    or it ceded (drop the condition to bring it back)."""
    if is_dead(combatant):
        return "dead"
    if combatant.condition(CEDED) is not None:
        return "ceded"
    return ""


# --- building a pool ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A pool before it is paid: the base dice, the extras, and the categories it lacks."""

    base: list[Ability]
    extra: list[Ability]
    missing: list[str]

    @property
    def cost(self) -> int:
        return pool_cost(len(self.extra))

    @property
    def dice(self) -> tuple[PoolDie, ...]:
        return tuple(PoolDie(a.name, a.size) for a in (*self.base, *self.extra))


def _find(combatant: BeerRunCombatant, name: str) -> Ability:
    sheet = sheet_of(combatant)
    ability = sheet.ability(name)
    if ability is None:
        known = ", ".join(a.name for a in sheet.abilities) or "none"
        raise Rejected(f"{combatant.name} has no ability {name.strip()!r} (has: {known})")
    if ability.size <= 0:
        raise Rejected(f"{combatant.name}'s {ability.name} is at zero: it cannot be rolled")
    return ability


def _largest_per_category(sheet: BeerRunSheet, game: tuple[str, ...]) -> list[Ability]:
    chosen = []
    for category in game:
        options = [a for a in sheet.live_abilities() if a.category == category]
        if options:
            chosen.append(max(options, key=lambda a: a.size))
    return chosen


def _split_listed(
    listed: list[Ability], game: tuple[str, ...]
) -> tuple[list[Ability], list[Ability]]:
    """A listed pool: the first die of each game category is its base die, the rest extra."""
    base: list[Ability] = []
    extra: list[Ability] = []
    for ability in listed:
        first = ability.category in game and all(b.category != ability.category for b in base)
        (base if first else extra).append(ability)
    return base, extra


def plan_pool(
    state: BeerRunEncounter,
    combatant: BeerRunCombatant,
    base: tuple[str, ...] | None,
    extra: tuple[str, ...],
) -> Plan:
    """Check a choice of dice: one die per category in the base, each ability once."""
    sheet = sheet_of(combatant)
    game = categories(state)
    if base is None:
        base_dice = _largest_per_category(sheet, game)
        extras = [_find(combatant, name) for name in extra]
    else:
        listed = [_find(combatant, name) for name in (*base, *extra)]
        base_dice, extras = _split_listed(listed, game)
    names = [a.name for a in (*base_dice, *extras)]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise Rejected(f"{twice} is in the pool twice: each ability die is rolled once")
    if not names:
        raise Rejected(f"{combatant.name} has no ability dice to roll")
    have = {a.category for a in sheet.live_abilities()}
    covered = {a.category for a in base_dice}
    for category in game:
        if category in have and category not in covered:
            options = ", ".join(a.name for a in sheet.live_abilities() if a.category == category)
            raise Rejected(f"The base pool needs one die from {category}: add one of {options}")
    missing = [c for c in game if c not in have]
    return Plan(base_dice, extras, missing)


def build_pool(state: BeerRunEncounter, cmd: BuildPool) -> Pool:
    combatant = state.combatant(cmd.combatant_id)
    sheet = sheet_of(combatant)
    if is_dead(combatant):
        raise Rejected(f"{combatant.name} is dead and cannot act")
    if br_state(state).rolled_round == state.round:
        raise Rejected(f"Round {state.round} is rolled: end it with n before paying for new pools")
    if any(p.combatant_id == combatant.id for p in round_pools(state)):
        raise Rejected(f"{combatant.name} has already paid for a pool this round (u to undo it)")
    plan = plan_pool(state, combatant, cmd.base, cmd.extra)
    if plan.cost > sheet.intensity:
        raise Rejected(
            f"That pool costs {plan.cost} Intensity and {combatant.name} has {sheet.intensity}: "
            "drop some extra dice"
        )
    goal = sheet.goal
    kind = goal.kind if goal is not None and not goal.gained else "conflict"
    if kind != "conflict":
        assert goal is not None
        if not 0 <= cmd.replace <= MAX_REPLACED:
            raise Rejected(
                f"The GM may replace up to {MAX_REPLACED} difficulty dice, not {cmd.replace}"
            )
        if not cmd.difficulty and not cmd.replace:
            raise Rejected("A blank difficulty is target dice: replace 1 to 3, or type the dice")
        return Pool(
            combatant_id=combatant.id,
            round=state.round,
            dice=plan.dice,
            extra=len(plan.extra),
            cost=plan.cost,
            kind=kind,
            against=None,
            difficulty=with_target_die(cmd.difficulty, goal.die, cmd.replace),
            ally_id=goal.ally_id,
            target_die=goal.die,
            penalty_to_ally=kind == "helping" and cmd.penalty_to_ally,
            typed=cmd.difficulty,
            asked=cmd.replace,
        )
    if cmd.against is None:
        if not cmd.difficulty:
            raise Rejected("A difficulty pool needs dice, like d10,d10,d4")
    else:
        opponent = state.combatant(cmd.against)
        if opponent.id == combatant.id:
            raise Rejected(f"{combatant.name} cannot roll against themselves")
    return Pool(
        combatant_id=combatant.id,
        round=state.round,
        dice=plan.dice,
        extra=len(plan.extra),
        cost=plan.cost,
        against=cmd.against,
        difficulty=cmd.difficulty if cmd.against is None else (),
    )


# --- rolling the round -----------------------------------------------------------------------


@dataclass(frozen=True)
class SideRoll:
    """A pool's roll: its own dice, the dice rolled against it, and the temporary dice spent."""

    own: tuple[Die, ...]
    against: tuple[Die, ...]
    spent: list[Spent]


def roll_side(state: BeerRunEncounter, pool: Pool, dice: DiceSource) -> SideRoll:
    sheet = sheet_of(state.combatant(pool.combatant_id))
    own = [(d.label, d.size) for d in pool.dice]
    own += [("situation", d.size) for d in sheet.situation]
    against = [("penalty", d.size) for d in sheet.penalty]
    against += [(o.name, o.size) for o in sheet.burdens]
    spent = [Spent(pool.combatant_id, "situation", d.size) for d in sheet.situation]
    spent += [Spent(pool.combatant_id, "penalty", d.size) for d in sheet.penalty]
    return SideRoll(roll_dice(dice, tuple(own)), roll_dice(dice, tuple(against)), spent)


def _difficulty(pool: Pool, dice: DiceSource) -> tuple[Die, ...]:
    return roll_dice(dice, tuple(("difficulty", size) for size in pool.difficulty))


def roll_round(
    state: BeerRunEncounter,
    dice: DiceSource,
    apply: Callable[[BeerRunEncounter, object], BeerRunEncounter],
) -> list[object]:
    """Every pool of the round; ``apply`` folds the helping results in before the rest roll."""
    if br_state(state).rolled_round == state.round:
        raise Rejected(f"Round {state.round} is already rolled: land damage (d), cede, or n")
    pools = round_pools(state)
    if not pools:
        raise Rejected(f"Nobody has paid for a pool in round {state.round}: s, Build pool")
    events: list[object] = []
    helping = [p for p in pools if p.kind == "helping"]
    helpers: dict[str, SideRoll] = {}
    if helping:
        events += roll_helping(state, helping, dice, helpers)
        for event in events:
            state = apply(state, event)
    events += roll_main(state, [p for p in pools if p.kind != "helping"], dice, helpers)
    return events


def roll_helping(
    state: BeerRunEncounter, pools: list[Pool], dice: DiceSource, rolls: dict[str, SideRoll]
) -> list[object]:
    """The helping pools' round, each roll kept in ``rolls``: a helper attacked this round
    resists with the pool it paid for, rolled once."""
    contests: list[Contest] = []
    spent: list[Spent] = []
    for pool in pools:
        side = roll_side(state, pool, dice)
        rolls[pool.combatant_id] = side
        spent += side.spent
        contests.append(
            Contest(
                kind="helping",
                top_id=pool.combatant_id,
                top=side.own,
                bottom_id=None,
                bottom=_difficulty(pool, dice) + side.against,
                target_die=pool.target_die,
                ally_id=pool.ally_id,
                penalty_to_ally=pool.penalty_to_ally,
            )
        )
    events: list[object] = [
        RoundRolled(
            round=state.round, stage="helping", contests=tuple(contests), spent=tuple(spent)
        )
    ]
    for contest in contests:
        outcome = compare(contest.top, contest.bottom)
        ally = state.find(contest.ally_id)  # None if the ally has left the encounter
        if outcome.top_kept and ally is not None:
            events.append(
                DiceGained(
                    combatant_id=ally.id,
                    kind="situation",
                    size=contest.target_die,
                    uses=outcome.top_kept,
                    source_id=contest.top_id,
                )
            )
        if outcome.bottom_kept and (ally is not None or not contest.penalty_to_ally):
            sufferer = ally.id if ally is not None and contest.penalty_to_ally else contest.top_id
            events.append(
                DiceGained(
                    combatant_id=sufferer,
                    kind="penalty",
                    size=contest.target_die,
                    uses=outcome.bottom_kept,
                    source_id=contest.top_id,
                )
            )
    return events


def roll_main(
    state: BeerRunEncounter, pools: list[Pool], dice: DiceSource, helpers: dict[str, SideRoll]
) -> list[object]:
    rolls = {pool.combatant_id: roll_side(state, pool, dice) for pool in pools}
    contests: list[Contest] = []
    paired: set[frozenset[str]] = set()
    for pool in pools:
        mine = rolls[pool.combatant_id]
        if pool.against is None:
            contests.append(
                Contest(
                    kind=pool.kind,
                    top_id=pool.combatant_id,
                    top=mine.own,
                    bottom_id=None,
                    bottom=_difficulty(pool, dice) + mine.against,
                    target_die=pool.target_die,
                )
            )
            continue
        pair = frozenset((pool.combatant_id, pool.against))
        if pair in paired or state.find(pool.against) is None:
            continue  # they chose each other: one comparison; or the opponent has left
        paired.add(pair)
        # "Every pool is now rolled by its owner": a helper's is its helping roll.
        theirs = rolls.get(pool.against) or helpers.get(pool.against)
        contests.append(
            Contest(
                kind="conflict",
                top_id=pool.combatant_id,
                top=mine.own + (theirs.against if theirs else ()),
                bottom_id=pool.against,
                bottom=(theirs.own if theirs else ()) + mine.against,
            )
        )
    spent = tuple(s for roll in rolls.values() for s in roll.spent)
    events: list[object] = [
        RoundRolled(round=state.round, stage="main", contests=tuple(contests), spent=spent)
    ]
    for contest in contests:
        events += _main_results(state, contest)
    return events


def _main_results(state: BeerRunEncounter, contest: Contest) -> list[object]:
    outcome = compare(contest.top, contest.bottom)
    if contest.kind == "situational":
        if not outcome.top_kept:
            return []
        return [
            DiceGained(
                combatant_id=contest.top_id,
                kind="situation",
                size=contest.target_die,
                uses=outcome.top_kept,
                source_id=contest.top_id,
            )
        ]
    if contest.bottom_id is None and outcome.top_kept:
        return wear_difficulty(contest, outcome.top_kept)
    return []


def wear_difficulty(contest: Contest, pips: int) -> list[object]:
    """*Determine Effects* against a static difficulty: its dice stand for what opposes the
    goal, and the actor's kept successes land on them as on abilities, all on the smallest
    die (the quickest way to zero); a die at zero gains the goal (*Abilities Reduced to
    Zero*). So "kill the dragon" against 4d12 takes rounds, not one lucky pair."""
    before = tuple(d.size for d in contest.bottom if d.label == "difficulty")
    if not before:
        return []
    smallest = before.index(min(before))
    size = before[smallest] - pips
    left = () if size <= 0 else (*before[:smallest], size, *before[smallest + 1 :])
    worn = DifficultyWorn(combatant_id=contest.top_id, pips=pips, before=before, left=left)
    if left:
        return [worn]
    return [worn, GoalGained(combatant_id=contest.top_id, reason="wore the difficulty down")]


# --- damage and ceding --------------------------------------------------------------------------


def default_die(target: BeerRunCombatant) -> Ability | None:
    """Health if it stands, else the largest die; None when every die is at zero."""
    live = sheet_of(target).live_abilities()
    health = next((a for a in live if a.name.casefold() == HEALTH), None)
    return health or max(live, key=lambda a: a.size, default=None)


def default_split(target: BeerRunCombatant, pips: int) -> tuple[tuple[str, int], ...]:
    """All on Health if it stands, else on the largest die; none when every die is at zero."""
    chosen = default_die(target)
    return () if chosen is None else ((chosen.name, pips),)


def land_damage(state: BeerRunEncounter, split: tuple[tuple[str, int], ...] | None) -> list[object]:
    waiting = pending_now(state)
    if not waiting:
        raise nothing_to_land(state)
    item = waiting[0]
    target = state.combatant(item.target_id)
    if split is None or not sheet_of(target).live_abilities():
        split = default_split(target, item.pips)  # with nothing left, the pips are lost
    total = sum(pips for _, pips in split)
    dealer = state.name_of(item.dealer_id, "The difficulty")
    if split and total != item.pips:
        raise Rejected(f"{dealer} has {item.pips} pips to land on {target.name}, not {total}")
    hits: list[Hit] = []
    for name, pips in split:
        if pips < 1:
            raise Rejected(f"Each ability in the split takes at least 1 pip ({name}: {pips})")
        ability = _find(target, name)
        if any(h.ability == ability.name for h in hits):
            raise Rejected(f"{ability.name} is in the split twice")
        hits.append(Hit(ability.name, pips, ability.size))
    landed = DamageLanded(dealer_id=item.dealer_id, target_id=target.id, hits=tuple(hits))
    zeroed = zeroed_events(state, landed)
    return [landed, *zeroed, *lost_to_death(state, target, zeroed)]


def lost_to_death(
    state: BeerRunEncounter, target: BeerRunCombatant, zeroed: list[object]
) -> list[object]:
    """The upper hand lands first (*Determine Effects*): a side it kills strikes no blow, its
    waiting successes are lost (issue 39, F4-11); any other ability at zero still lands."""
    died = any(isinstance(e, ConditionAdded) and e.condition.name == DEAD for e in zeroed)
    later = [p for p in pending_now(state)[1:] if p.dealer_id == target.id]
    if not died or not later:
        return []
    targets = tuple(dict.fromkeys(p.target_id for p in later))
    return [SuccessesLost(combatant_id=target.id, targets=targets, pips=sum(p.pips for p in later))]


def zeroed_events(state: BeerRunEncounter, landed: DamageLanded) -> list[object]:
    """An ability at zero: the dealing side gains its goal. Health at zero: death."""
    target = state.combatant(landed.target_id)
    zeroed = [h.ability for h in landed.hits if h.pips >= h.before]
    if not zeroed:
        return []
    events: list[object] = []
    if landed.dealer_id is not None:
        reason = f"{target.name}'s {zeroed[0]} is at zero"
        events.append(GoalGained(combatant_id=landed.dealer_id, reason=reason, about_id=target.id))
    if any(name.casefold() == HEALTH for name in zeroed) and not is_dead(target):
        events.append(ConditionAdded(target.id, Condition(DEAD, Duration("until-removed"), None)))
    return events


def cede(state: BeerRunEncounter, cmd: Cede) -> list[object]:
    ceder = state.combatant(cmd.combatant_id)
    winner = state.combatant(cmd.to_id)
    if ceder.id == winner.id:
        raise Rejected(f"{ceder.name} cannot cede to themselves")
    if pending_now(state):
        raise Rejected("Land this round's damage first (d): a side cedes after the effects")
    # "Either side may then decide to cede": after a round's effects, before the next
    # round's pools are paid.
    rolled = br_state(state).rolled_round
    if rolled != state.round:
        if round_pools(state):
            raise Rejected(
                f"Round {state.round}'s pools are paid: roll it (r) and land its effects, "
                "then a side may cede"
            )
        if not rolled:
            raise Rejected("A side cedes after a round's effects: roll the first round (r)")
    events: list[object] = [
        Ceded(combatant_id=ceder.id, to_id=winner.id),
        GoalGained(combatant_id=winner.id, reason=f"{ceder.name} ceded", about_id=ceder.id),
    ]
    if ceder.condition(CEDED) is None:  # a solo side marks itself before it cedes
        events.append(ConditionAdded(ceder.id, Condition(CEDED, Duration("until-removed"), None)))
    if cmd.ability:
        ability = _find(ceder, cmd.ability)
        landed = DamageLanded(
            dealer_id=winner.id,
            target_id=ceder.id,
            hits=(Hit(ability.name, ability.size, ability.size),),
            from_pending=False,
        )
        events.append(landed)
        if ability.name.casefold() == HEALTH and not is_dead(ceder):
            events.append(
                ConditionAdded(ceder.id, Condition(DEAD, Duration("until-removed"), None))
            )
    return events


def last_opponent(state: BeerRunEncounter, cid: str) -> str | None:
    """Whom ``cid`` faced in the last roll of pools, if it was in one."""
    roll = state.last_roll
    if isinstance(roll, RoundRolled):
        for contest in roll.contests:
            if contest.top_id == cid and contest.bottom_id:
                return contest.bottom_id
            if contest.bottom_id == cid:
                return contest.top_id
    return None


def set_goal(state: BeerRunEncounter, cmd: SetGoal) -> list[object]:
    who = state.combatant(cmd.combatant_id)
    sheet_of(who)
    if cmd.goal.ally_id is not None:
        ally = state.combatant(cmd.goal.ally_id)
        if ally.id == who.id:
            raise Rejected(f"{who.name} cannot help themselves: choose a situational goal")
    return [GoalSet(who.id, cmd.goal)]


def add_outcome(state: BeerRunEncounter, cmd: AddOutcomeDie) -> list[object]:
    who = state.combatant(cmd.combatant_id)
    sheet = sheet_of(who)
    if cmd.die.kind == "gained":
        if sheet.ability(cmd.die.name) is not None:
            raise Rejected(f"{who.name} already has an ability called {cmd.die.name}")
        if not cmd.category:
            raise Rejected("A gained die needs the category it belongs to, like Body")
    return [OutcomeDieAdded(combatant_id=who.id, die=cmd.die, category=cmd.category)]
