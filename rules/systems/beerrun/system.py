"""Beer Run: conflict rounds with dice pools, Intensity, the upper hand and die damage.

Source: ``shared/rules-texts/002`` (Beer Run, by Mike Holmes). There is no turn order: every
side states a goal, pays Intensity for a pool, and all pools roll at once (``r``). ``n`` ends
the round. Values live in ``model``, the dice in ``dice``, the rules in
``conflict`` and the log lines in ``log``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.events import ConditionAdded, TurnAdvanced
from rules.forms import Field, choice_value, int_value
from rules.logline import LogEntry
from rules.mentions import mentions
from rules.odds import mid_percentile, percent
from rules.system import LAST_ROLL, Action, Damage, Figure, Landing, Luck, RuleSystem, Tier, Track

from . import conflict, forecast, solo
from .dice import MAX_REPLACED, compare, parse_die, parse_pool, pool_text
from .log import UNSEEN, describe_event, goal_text
from .model import (
    DEFAULT_CATEGORY,
    MAX_INTENSITY,
    Ability,
    AddOutcomeDie,
    BeerRunSheet,
    BeerRunState,
    BuildPool,
    CategoriesSet,
    Cede,
    Ceded,
    Contest,
    DamageLanded,
    DiceGained,
    Goal,
    GoalGained,
    GoalKind,
    GoalSet,
    LandDamage,
    OutcomeDie,
    OutcomeDieAdded,
    Pool,
    PoolBuilt,
    RollRound,
    RoundRolled,
    SetCategories,
    SetGoal,
    TempDie,
    abilities_text,
    damaged,
    outcomes_text,
    parse_abilities,
    parse_outcomes,
    parse_temp_dice,
    rested,
    spend_one,
    temp_text,
)
from .odds import pool_odds, upper_hand_odds
from .pools import PIP_BANDS

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter
    from rules.odds import Odds

DIFFICULTY = "difficulty"
GOAL_KINDS: tuple[tuple[str, str], ...] = (
    ("conflict", "Conflict goal"),
    ("helping", "Helping goal (a die for an ally)"),
    ("situational", "Situational goal (a die for later)"),
)
OUTCOME_KINDS: tuple[tuple[str, str], ...] = (
    ("gained", "Gained (a new ability)"),
    ("inflicted", "Inflicted (rolled against them)"),
)
PIP_TIERS = tuple(Tier(*band) for band in PIP_BANDS)


class _AnyFace:
    """Dice for finding which dice a roll would compare; their faces are never used."""

    def roll(self, sides: int) -> int:
        return 1


ANY_FACE = _AnyFace()


def contest_odds(contest: Contest, state: Encounter) -> Odds:
    """The exact odds of one comparison, its top row as the pool. The tiers count the upper
    hand's kept successes, whoever has it: the note says how likely each side is to."""
    found = pool_odds(tuple(d.size for d in contest.top), tuple(d.size for d in contest.bottom))
    top = state.name_of(contest.top_id)
    bottom = state.name_of(contest.bottom_id, "the difficulty")
    upper = found.extra["upper_hand"]
    assert isinstance(upper, dict)
    note = (
        f"upper hand: {top} {percent(upper['pool'])}, {bottom} {percent(upper['against'])}, "
        f"neither {percent(upper['none'])}"
    )
    whose = f"the upper hand's successes in {top} vs {bottom}"
    return found._replace(whose=whose, extra={**found.extra, "note": note})


def _pips_on(target: Combatant, tier: Tier) -> str:
    """What a tier's pips do to ``target``'s dice: "Health d6 → d4"."""
    if not tier.low:
        return tier.effect  # ties: nothing lands
    split = conflict.default_split(target, tier.low)
    ability = conflict.sheet_of(target).ability(split[0][0]) if split else None
    if ability is None:
        return "no die left to damage"
    after = ability.size - tier.low
    if tier.high is None and after >= 1:  # 5+ pips: this die or less
        return f"{ability.name} d{ability.size} → ≤d{after}"
    return f"{ability.name} d{ability.size} → d{max(0, after)}"


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _split(text: str) -> tuple[tuple[str, int], ...] | None:
    """``"Health 2, Fencing 1"`` -> (("Health", 2), ("Fencing", 1)); blank: None."""
    out = []
    for part in _names(text):
        name, _, pips = part.rpartition(" ")
        if not name or not pips.isdigit():
            raise Rejected(f"Split the pips like Health 2, Fencing 1; {part!r} has no number")
        out.append((name.strip(), int(pips)))
    return tuple(out) or None


class BeerRun(RuleSystem):
    name = "beerrun"
    title = "Beer Run"
    sheet_types = (BeerRunSheet,)
    event_types = (
        CategoriesSet,
        GoalSet,
        PoolBuilt,
        RoundRolled,
        DiceGained,
        GoalGained,
        DamageLanded,
        Ceded,
        OutcomeDieAdded,
    )
    command_types = (SetCategories, SetGoal, BuildPool, RollRound, LandDamage, Cede, AddOutcomeDie)
    command_actors = {  # whom each acts for; the rest are the GM's
        SetGoal: "combatant_id",
        BuildPool: "combatant_id",
        Cede: "combatant_id",
        AddOutcomeDie: "combatant_id",
        LandDamage: LAST_ROLL,
    }
    roll_event_types = (RoundRolled,)
    state_type = BeerRunState
    stat_columns = ("Int", "Abilities", "Goal", "Extra dice")
    uses_turn_order = False
    has_odds = True
    gm_commands = (RollRound, SetCategories)  # every side's pools at once; the table's dice
    gm_actions = frozenset({"roll", "categories"})
    solo_policies = solo.POLICIES
    damage_unit = "pips"

    def new_state(self) -> BeerRunState:
        return BeerRunState()

    # --- the end of the fight ---

    def out_of_fight(self, state: Encounter, combatant: Combatant) -> str:
        return conflict.out_of_fight(combatant)

    def damage(self, state: Encounter, event: object) -> tuple[Damage, ...]:
        """Pips landed (a die stops at zero), by the dealer (None: a difficulty pool)."""
        if not isinstance(event, DamageLanded):
            return ()
        pips = sum(min(hit.pips, hit.before) for hit in event.hits)
        return (Damage(event.dealer_id, event.target_id, pips),) if pips else ()

    def roll_sides(self, state: Encounter, event: object) -> tuple[str | None, str | None]:
        """The first comparison's pool and its opposition (None: a difficulty pool)."""
        if not isinstance(event, RoundRolled) or not event.contests:
            return None, None
        return event.contests[0].top_id, event.contests[0].bottom_id

    def roll_luck(self, state: Encounter, event: object) -> tuple[Luck, ...]:
        """Every comparison of the round, from its pool's side: where its upper hand and
        successes fell among every result the two rows of dice could give (the tiers count
        the upper hand's successes whoever has it, so they say nothing of who was lucky)."""
        if not isinstance(event, RoundRolled):
            return ()
        out: list[Luck] = []
        for contest in event.contests:
            try:
                chances = upper_hand_odds(
                    tuple(d.size for d in contest.top), tuple(d.size for d in contest.bottom)
                )
            except Rejected:
                continue  # too large for exact odds
            outcome = compare(contest.top, contest.bottom)
            kept = outcome.kept(outcome.upper) if outcome.upper != "tie" else 0
            signed = -kept if outcome.upper == "bottom" else kept
            middle = (len(chances) - 1) // 2
            percentile = mid_percentile(list(chances), middle + signed)
            out.append(Luck(contest.top_id, percentile))
            if contest.bottom_id is not None:
                out.append(Luck(contest.bottom_id, 1 - percentile))
        return tuple(out)

    # --- sheets ---

    def new_sheet(self) -> BeerRunSheet:
        return BeerRunSheet()

    def sheet_form(self, sheet: BeerRunSheet) -> list[Field]:
        return [
            Field(
                key="abilities",
                label="Abilities",
                kind="text",
                default=abilities_text(sheet.abilities),
                help="Body: Fencing d8, Health d6; Mind: Wits d6",
            ),
            Field(key="intensity", label="Intensity", default=str(sheet.intensity)),
            Field(
                key="situation",
                label="Situation dice",
                kind="text",
                default=temp_text(sheet.situation),
                help="d8x2 = a d8 for 2 rolls",
            ),
            Field(
                key="penalty",
                label="Penalty dice",
                kind="text",
                default=temp_text(sheet.penalty),
                help="d6x1",
            ),
            Field(
                key="outcomes",
                label="Outcome dice",
                kind="text",
                default=outcomes_text(sheet.outcomes),
                help="+Sword d6 (gained), -Limp d4 (inflicted)",
            ),
        ]

    def sheet_from_form(self, values: Mapping[str, str], sheet: BeerRunSheet) -> BeerRunSheet:
        intensity = int_value(values, "intensity", "Intensity", sheet.intensity)
        if not 0 <= intensity <= MAX_INTENSITY:
            raise Rejected(f"Intensity must be between 0 and {MAX_INTENSITY}")
        return structs.replace(
            sheet,
            abilities=self._kept_damage(
                sheet, parse_abilities(values.get("abilities", ""), sheet.abilities)
            ),
            intensity=intensity,
            situation=parse_temp_dice(values.get("situation", ""), "Situation dice"),
            penalty=parse_temp_dice(values.get("penalty", ""), "Penalty dice"),
            outcomes=parse_outcomes(values.get("outcomes", "")),
        )

    def fresh_sheet(self, sheet: BeerRunSheet) -> BeerRunSheet:
        return rested(sheet)

    def fit_sheet(self, state: Encounter, sheet: BeerRunSheet) -> BeerRunSheet:
        """Abilities typed without a category (as the combatants pane shows them): each takes
        the category the same ability has on a sheet here, else that of its nearest neighbour
        in the list that has one (the pane lists a sheet category by category); with none at
        all, the encounter's only category (``General`` in one that has none yet), and with
        several to choose from, refused (see rulings.md)."""
        if all(a.category for a in sheet.abilities):
            return sheet
        filed = {
            a.name.casefold(): a.category
            for c in reversed(state.combatants)  # the first in the order has the last word
            if isinstance(c.sheet, BeerRunSheet)
            for a in c.sheet.abilities
            if a.category
        }
        found = [a.category or filed.get(a.name.casefold(), "") for a in sheet.abilities]
        game = conflict.categories(state)
        if not any(found) and len(game) <= 1:
            # One category or none: nothing to choose, and the base pool is one die either way.
            found = [game[0] if game else DEFAULT_CATEGORY] * len(found)
        if not any(found):
            first = sheet.abilities[0]
            raise Rejected(
                f"Which category is {first.name} in? Write the abilities under their "
                f"categories, like {game[0]}: {first.text()} (categories here: {', '.join(game)})"
            )
        for index, category in enumerate(found):
            if not category:
                before = [c for c in found[:index] if c]
                found[index] = before[-1] if before else next(c for c in found[index:] if c)
        abilities = tuple(
            structs.replace(a, category=category)
            for a, category in zip(sheet.abilities, found, strict=True)
        )
        return structs.replace(sheet, abilities=abilities)

    @staticmethod
    def _kept_damage(sheet: BeerRunSheet, typed: tuple[Ability, ...]) -> tuple[Ability, ...]:
        """An edit that leaves a damaged die as it was keeps its undamaged size."""
        out = []
        for ability in typed:
            before = sheet.ability(ability.name)
            if before is not None and before.size == ability.size:
                ability = structs.replace(ability, full=before.full)
            out.append(ability)
        return tuple(out)

    def main_track(self, combatant: Combatant[Any]) -> Track | None:
        # The Health die, in pips: at zero the character dies (*Effects*).
        health = combatant.sheet.ability("Health")
        return None if health is None else Track("Health", health.size, 0, health.rating)

    def with_track(self, sheet: BeerRunSheet, value: int) -> BeerRunSheet:
        health = sheet.ability("Health")
        if health is None:
            raise Rejected("This sheet has no Health die")
        return damaged(sheet, health.name, health.size - value)

    def sheet_stats(self, sheet: BeerRunSheet) -> tuple[str, ...]:
        extra = [f"+d{d.size}x{d.uses}" for d in sheet.situation]
        extra += [f"-d{d.size}x{d.uses}" for d in sheet.penalty]
        extra += [f"-{o.name} d{o.size}" for o in sheet.burdens]
        goal = sheet.goal
        shown = ""
        if goal is not None:
            shown = ("✓ " if goal.gained else "") + (
                goal.text or {"helping": "help", "situational": "situation"}.get(goal.kind, "")
            )
            if goal.kind != "conflict":
                shown += f" (d{goal.die})"
        return (
            str(sheet.intensity),
            ", ".join(a.text() for a in sheet.abilities),
            shown,
            " ".join(extra),
        )

    # --- actions ---

    def actions(self, state: Encounter) -> list[Action]:
        return [
            Action("roll", "Roll the round", "every paid pool at once; helping pools first"),
            Action("goal", "Goal", "state a side's goal for the round (helping, situational...)"),
            Action("pool", "Build pool", "pay Intensity: 1 for the base pool, 1, 2, 3 ... more"),
            Action("damage", "Land damage", "the next successes as pips off opposing dice"),
            Action("cede", "Cede", "give up the contest: the other side gains its goal"),
            Action("outcome", "Outcome die", "a permanent die gained or inflicted"),
            Action("categories", "Categories", "the ability categories of this game"),
        ]

    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        who = state.find(selected) or (state.combatants[0] if state.combatants else None)
        match action:
            case "roll":
                return []
            case "categories":
                return [
                    Field(
                        key="categories",
                        label="Categories",
                        kind="text",
                        default=", ".join(conflict.categories(state)),
                        help="e.g. Body, Mind, Social",
                    )
                ]
            case "damage":
                return self._damage_form(state)
        if who is None:
            raise Rejected("Add the sides of the conflict first (a)")
        people = tuple((c.id, c.name) for c in state.combatants)
        actor = Field(key="who", label="Who", kind="choice", default=who.id, choices=people)
        match action:
            case "goal":
                return self._goal_form(state, who, actor, people)
            case "pool":
                return self._pool_form(state, who, actor, people)
            case "cede":
                return self._cede_form(state, who, actor, people)
            case "outcome":
                return [
                    actor,
                    Field(
                        key="kind",
                        label="Kind",
                        kind="choice",
                        default="gained",
                        choices=OUTCOME_KINDS,
                    ),
                    Field(key="name", label="Die name", kind="text", help="e.g. Sword"),
                    Field(key="die", label="Die", kind="text", default="d6"),
                    Field(key="category", label="Category (gained)", kind="text", help="e.g. Body"),
                ]
        raise Rejected(f"Beer Run has no action {action!r}")

    def _goal_form(
        self, state: Encounter, who: Combatant, actor: Field, people: tuple[tuple[str, str], ...]
    ) -> list[Field]:
        goal = conflict.sheet_of(who).goal or Goal()
        return [
            actor,
            Field(key="kind", label="Goal", kind="choice", default=goal.kind, choices=GOAL_KINDS),
            Field(key="text", label="Aim", kind="text", default=goal.text, help="e.g. Escape"),
            Field(
                key="ally",
                label="Ally (helping)",
                kind="choice",
                default=goal.ally_id or "",
                choices=(("", "nobody"), *people),
            ),
            Field(
                key="die",
                label="Target die",
                kind="text",
                default=f"d{goal.die}" if goal.die else "",
                help="helping/situational: e.g. d8",
            ),
        ]

    def _pool_form(
        self, state: Encounter, who: Combatant, actor: Field, people: tuple[tuple[str, str], ...]
    ) -> list[Field]:
        others = [c for c in state.combatants if c.id != who.id]
        opponent = next((c for c in others if c.side != who.side), others[0] if others else None)
        return [
            actor,
            Field(
                key="dice",
                label="Dice",
                kind="text",
                help="blank: best die per category; +Wits adds extras",
            ),
            Field(
                key="against",
                label="Against",
                kind="choice",
                default=opponent.id if opponent else DIFFICULTY,
                choices=(*people, (DIFFICULTY, "a difficulty pool")),
            ),
            Field(key="difficulty", label="Difficulty dice", kind="text", help="e.g. d10,d10,d4"),
            Field(
                key="replace",
                label="Dice replaced",
                default=str(MAX_REPLACED),
                help="helping/situational: 0-3 difficulty dice become the target die",
            ),
        ]

    def _cede_form(
        self, state: Encounter, who: Combatant, actor: Field, people: tuple[tuple[str, str], ...]
    ) -> list[Field]:
        winner = self._last_opponent(state, who.id)
        return [
            actor,
            Field(key="to", label="Cedes to", kind="choice", default=winner, choices=people),
            Field(
                key="ability",
                label="Ability to zero",
                kind="text",
                help="blank unless the winner's goal takes one",
            ),
        ]

    def _last_opponent(self, state: Encounter, cid: str) -> str:
        found = conflict.last_opponent(state, cid)
        if found is not None:
            return found
        other = next((c for c in state.combatants if c.id != cid), None)
        return other.id if other else cid

    def _damage_form(self, state: Encounter) -> list[Field]:
        waiting = conflict.pending_now(state)
        if not waiting:
            raise conflict.nothing_to_land(state)
        item = waiting[0]
        target = state.combatant(item.target_id)
        name, pips = conflict.default_split(target, item.pips)[0]
        return [
            Field(
                key="split",
                label="Pips",
                kind="text",
                default=f"{name} {pips}",
                help="split like Health 2, Fencing 1",
            )
        ]

    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> object:
        fields = {f.key: f for f in self.action_form(state, action, values.get("who"))}
        match action:
            case "roll":
                return RollRound()
            case "categories":
                cats = tuple(
                    dict.fromkeys(" ".join(c.split()) for c in _names(values["categories"]))
                )
                return SetCategories(cats)
            case "damage":
                return LandDamage(split=_split(values.get("split", "")))
            case "goal":
                return self._goal_command(values, fields)
            case "pool":
                return self._pool_command(values, fields)
            case "cede":
                return Cede(
                    combatant_id=choice_value(values, fields["who"]),
                    to_id=choice_value(values, fields["to"]),
                    ability=values.get("ability", "").strip() or None,
                )
            case "outcome":
                name = " ".join(values.get("name", "").split())
                if not name:
                    raise Rejected("An outcome die needs a name, like Sword")
                kind = choice_value(values, fields["kind"])
                return AddOutcomeDie(
                    combatant_id=choice_value(values, fields["who"]),
                    die=OutcomeDie(name, parse_die(values.get("die", ""), "The die"), kind),  # type: ignore[arg-type]  # kind: a choice of OUTCOME_KINDS
                    category=" ".join(values.get("category", "").split()),
                )
        raise Rejected(f"Beer Run has no action {action!r}")

    def _goal_command(self, values: Mapping[str, str], fields: dict[str, Field]) -> SetGoal:
        kind: GoalKind = choice_value(values, fields["kind"])  # type: ignore[assignment]  # a choice of the goal kinds
        ally = choice_value(values, fields["ally"]) or None
        die = 0
        if kind != "conflict":
            die = parse_die(values.get("die", ""), "The target die")
        if kind == "helping" and ally is None:
            raise Rejected("A helping goal needs the ally who gets the die")
        goal = Goal(
            kind=kind,
            text=" ".join(values.get("text", "").split()),
            ally_id=ally if kind == "helping" else None,
            die=die,
        )
        return SetGoal(combatant_id=choice_value(values, fields["who"]), goal=goal)

    def _pool_command(self, values: Mapping[str, str], fields: dict[str, Field]) -> BuildPool:
        text = values.get("dice", "").strip()
        base: tuple[str, ...] | None = None
        extra: tuple[str, ...] = ()
        if text.startswith("+"):
            extra = _names(text[1:].replace("+", ","))
        elif text:
            base = _names(text)
        against = choice_value(values, fields["against"])
        return BuildPool(
            combatant_id=choice_value(values, fields["who"]),
            base=base,
            extra=extra,
            against=None if against == DIFFICULTY else against,
            difficulty=parse_pool(values.get("difficulty", ""), "The difficulty pool"),
            replace=int_value(values, "replace", "Dice replaced", MAX_REPLACED),
        )

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        try:
            command = self.action_command(state, action, values)
            match command:
                case BuildPool():
                    return self._pool_preview(state, command)
                case LandDamage():
                    return self._damage_preview(state, command)
                case RollRound():
                    return self._roll_preview(state)
                case SetGoal():
                    who = state.name_of(command.combatant_id)
                    return f"{who} aims to {goal_text(state, command.goal) or 'win'}"
                case Cede():
                    winner = state.combatant(command.to_id)
                    goal = goal_text(state, conflict.sheet_of(winner).goal) or "its goal"
                    return (
                        f"{state.name_of(command.combatant_id)} cedes: {winner.name} gains {goal}"
                    )
        except Rejected as exc:
            return exc.message
        return ""

    def _pool_preview(self, state: Encounter, cmd: BuildPool) -> str:
        who = state.combatant(cmd.combatant_id)
        plan = conflict.plan_pool(state, who, cmd.base, cmd.extra)
        dice = " ".join(f"{a.name} d{a.size}" for a in plan.base)
        if plan.extra:
            dice += " + " + " ".join(f"{a.name} d{a.size}" for a in plan.extra)
        sheet = conflict.sheet_of(who)
        text = f"{dice}: {plan.cost} Intensity"
        if plan.extra:
            text += f" (1 + {plan.cost - 1} for {len(plan.extra)} extra)"
        if plan.cost > sheet.intensity:
            text += f"; {who.name} has only {sheet.intensity}: too dear"
        else:
            text += f"; {who.name} has {sheet.intensity}, leaves {sheet.intensity - plan.cost}"
        if plan.missing:
            text += f". No {', '.join(plan.missing)} die: rolls with less"
        if sheet.situation:
            text += ". Adds situation " + " ".join(f"d{d.size}" for d in sheet.situation)
        if plan.cost <= sheet.intensity:
            try:
                pool = conflict.build_pool(state, cmd)
            except Rejected as exc:
                return f"{text}. {exc.message}"
            text += ". " + self._opposition(state, pool)
        return text

    @staticmethod
    def _opposition(state: Encounter, pool: Pool) -> str:
        if pool.against is not None:
            return f"Against {state.name_of(pool.against)}"
        dice = pool_text(pool.difficulty)
        if pool.kind == "helping":
            return f"Helping {state.name_of(pool.ally_id)}: against {dice}, rolled first"
        if pool.kind == "situational":
            return f"Situational: against {dice}"
        return f"Against the difficulty {dice}"

    def _damage_preview(self, state: Encounter, cmd: LandDamage) -> str:
        item = conflict.pending_now(state)[0]
        events = conflict.land_damage(state, cmd.split)
        landed = events[0]
        assert isinstance(landed, DamageLanded)
        hits = ", ".join(
            f"{h.ability} d{h.before} → d{max(0, h.before - h.pips)}" for h in landed.hits
        )
        who = state.name_of(item.dealer_id, "The difficulty")
        upper = " (upper hand)" if item.upper else ""
        return f"{who}{upper} lands {item.pips} on {state.name_of(item.target_id)}: {hits}"

    def _roll_preview(self, state: Encounter) -> str:
        pools = conflict.round_pools(state)
        if not pools:
            return f"Nobody has paid for a pool in round {state.round}"
        parts = []
        for pool in pools:
            name = state.name_of(pool.combatant_id)
            if pool.kind == "helping":
                parts.append(f"{name} helps {state.name_of(pool.ally_id)} (rolls first)")
            else:
                parts.append(f"{name} vs {state.name_of(pool.against, 'difficulty')}")
        return f"Round {state.round}: " + "; ".join(parts)

    def consequence_command(self, state: Encounter) -> LandDamage:
        if not conflict.pending_now(state):
            raise conflict.nothing_to_land(state)
        return LandDamage()

    def pending(self, state: Encounter) -> str:
        """The next successes to land this round ("Orla lands 3 on Goblin"), and how many
        more sets wait after them: the round's end would lose them all."""
        waiting = conflict.pending_now(state)
        if not waiting:
            return ""
        item = waiting[0]
        dealer = state.name_of(item.dealer_id, "The difficulty")
        text = f"{dealer} lands {item.pips} on {state.name_of(item.target_id)}"
        return text + (f" (+{len(waiting) - 1} more)" if len(waiting) > 1 else "")

    def discard(self, state: Encounter) -> Encounter:
        """The next successes are dropped, as landing them would take them off the list."""
        rest = conflict.pending_now(state)[1:]
        own = structs.replace(conflict.br_state(state), pending=rest)
        return state.update(system_state=own, last_roll_applied=not rest)

    # --- solo play (rules/solo.py) ---

    def solo_move(self, state: Encounter) -> solo.Move | None:
        return solo.next_move(state)

    def forecast_move(self, state: Encounter, acted: frozenset[str]) -> solo.Move | None:
        return forecast.forecast_move(state, acted)

    def end_figures(self, state: Encounter, combatant: Combatant) -> tuple[Figure, ...]:
        return forecast.end_figures(combatant)

    # --- decide and apply ---

    def decide(self, state: Encounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case SetCategories():
                return [CategoriesSet(command.categories)]
            case SetGoal():
                return self._set_goal(state, command)
            case BuildPool():
                return [PoolBuilt(conflict.build_pool(state, command))]
            case RollRound():
                return conflict.roll_round(state, dice, self.apply)
            case LandDamage():
                return conflict.land_damage(state, command.split)
            case Cede():
                return conflict.cede(state, command)
            case AddOutcomeDie():
                return self._outcome(state, command)
        raise Rejected(f"Beer Run does not know the command {type(command).__name__}")

    def _set_goal(self, state: Encounter, cmd: SetGoal) -> list[object]:
        who = state.combatant(cmd.combatant_id)
        conflict.sheet_of(who)
        if cmd.goal.ally_id is not None:
            ally = state.combatant(cmd.goal.ally_id)
            if ally.id == who.id:
                raise Rejected(f"{who.name} cannot help themselves: choose a situational goal")
        return [GoalSet(who.id, cmd.goal)]

    def _outcome(self, state: Encounter, cmd: AddOutcomeDie) -> list[object]:
        who = state.combatant(cmd.combatant_id)
        sheet = conflict.sheet_of(who)
        if cmd.die.kind == "gained":
            if sheet.ability(cmd.die.name) is not None:
                raise Rejected(f"{who.name} already has an ability called {cmd.die.name}")
            if not cmd.category:
                raise Rejected("A gained die needs the category it belongs to, like Body")
        return [OutcomeDieAdded(combatant_id=who.id, die=cmd.die, category=cmd.category)]

    def apply(self, state: Encounter, event: object) -> Encounter:
        own: BeerRunState = conflict.br_state(state)
        match event:
            case CategoriesSet():
                return state.update(system_state=structs.replace(own, categories=event.categories))
            case GoalSet():
                return self._with_sheet(state, event.combatant_id, goal=event.goal)
            case PoolBuilt(pool=pool):
                sheet = conflict.sheet_of(state.combatant(pool.combatant_id))
                state = self._with_sheet(
                    state, pool.combatant_id, intensity=sheet.intensity - pool.cost
                )
                return state.update(system_state=structs.replace(own, pools=(*own.pools, pool)))
            case RoundRolled():
                return self._apply_round(state, own, event)
            case DiceGained():
                sheet = conflict.sheet_of(state.combatant(event.combatant_id))
                die = TempDie(event.size, event.uses)
                if event.kind == "situation":
                    return self._with_sheet(
                        state, event.combatant_id, situation=(*sheet.situation, die)
                    )
                return self._with_sheet(state, event.combatant_id, penalty=(*sheet.penalty, die))
            case GoalGained():
                sheet = conflict.sheet_of(state.combatant(event.combatant_id))
                goal = structs.replace(sheet.goal or Goal(), gained=True)
                return self._with_sheet(state, event.combatant_id, goal=goal)
            case DamageLanded():
                return self._apply_damage(state, own, event)
            case Ceded():
                return self._with_sheet(state, event.combatant_id, goal=None)
            case OutcomeDieAdded():
                return self._apply_outcome(state, event)
        raise TypeError(f"not a Beer Run event: {event!r}")

    def _with_sheet(self, state: Encounter, cid: str, **changes: object) -> Encounter:
        who = state.combatant(cid)
        sheet = structs.replace(conflict.sheet_of(who), **changes)
        return state.replace_combatant(structs.replace(who, sheet=sheet))

    def _apply_round(self, state: Encounter, own: BeerRunState, event: RoundRolled) -> Encounter:
        for spent in event.spent:
            sheet = conflict.sheet_of(state.combatant(spent.combatant_id))
            field = "situation" if spent.kind == "situation" else "penalty"
            left = spend_one(getattr(sheet, field), spent.size)
            state = self._with_sheet(state, spent.combatant_id, **{field: left})
        if event.stage == "helping":
            return state
        pending = [p for c in event.contests for p in conflict.pending_from(event.round, c)]
        kept = tuple(p for p in own.pending if p.round == event.round)
        own = structs.replace(own, pending=(*kept, *pending), rolled_round=event.round)
        return state.update(system_state=own, last_roll=event, last_roll_applied=not pending)

    def _apply_damage(self, state: Encounter, own: BeerRunState, event: DamageLanded) -> Encounter:
        sheet = conflict.sheet_of(state.combatant(event.target_id))
        for hit in event.hits:
            sheet = damaged(sheet, hit.ability, hit.pips)
        who = state.combatant(event.target_id)
        state = state.replace_combatant(structs.replace(who, sheet=sheet))
        if not event.from_pending:
            return state  # a cede's damage: nothing was waiting
        rest = conflict.pending_now(state)[1:]  # the first waiting set landed; older ones are void
        return state.update(
            system_state=structs.replace(own, pending=rest), last_roll_applied=not rest
        )

    def _apply_outcome(self, state: Encounter, event: OutcomeDieAdded) -> Encounter:
        sheet = conflict.sheet_of(state.combatant(event.combatant_id))
        changes: dict[str, object] = {"outcomes": (*sheet.outcomes, event.die)}
        if event.die.kind == "gained":
            ability = Ability(name=event.die.name, category=event.category, size=event.die.size)
            changes["abilities"] = (*sheet.abilities, ability)
        return self._with_sheet(state, event.combatant_id, **changes)

    # --- odds ---

    def odds(self, state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The exact odds of the contest the Consequences pane would show after this action.

        ``roll``: the round's first comparison (None once rolled, or while helping pools wait:
        their successes change the dice of the rest). ``pool``: the pool being built against
        its opponent's paid pool (or its missing dice) or its difficulty.
        """
        try:
            if action == "roll":
                contest = self._next_contest(state)
            elif action == "pool":
                contest = self._pool_contest(state, values)
            else:
                return None
            return None if contest is None else contest_odds(contest, state)
        except Rejected:  # values that do not parse, or pools too large for exact odds
            return None

    def last_odds(self, state: Encounter) -> Odds | None:
        roll = state.last_roll
        if not isinstance(roll, RoundRolled) or not roll.contests:
            return None
        try:
            return contest_odds(roll.contests[0], state)
        except Rejected:
            return None

    @staticmethod
    def _next_contest(state: Encounter) -> Contest | None:
        if conflict.br_state(state).rolled_round == state.round:
            return None
        pools = conflict.round_pools(state)
        if not pools or any(p.kind == "helping" for p in pools):
            return None
        rolled = conflict.roll_main(state, list(pools), ANY_FACE, {})[0]
        assert isinstance(rolled, RoundRolled)
        return rolled.contests[0] if rolled.contests else None

    def _pool_contest(self, state: Encounter, values: Mapping[str, str]) -> Contest | None:
        command = self.action_command(state, "pool", values)
        assert isinstance(command, BuildPool)
        pool = conflict.build_pool(state, command)
        state = self.apply(state, PoolBuilt(pool))
        helpers: dict[str, conflict.SideRoll] = {}
        if pool.kind == "helping":
            rolled = conflict.roll_helping(state, [pool], ANY_FACE, helpers)[0]
        else:
            pools = conflict.round_pools(state)
            helping = [p for p in pools if p.kind == "helping"]
            conflict.roll_helping(state, helping, ANY_FACE, helpers)  # a helper resists with it
            main = [p for p in pools if p.kind != "helping"]
            rolled = conflict.roll_main(state, main, ANY_FACE, helpers)[0]
        assert isinstance(rolled, RoundRolled)
        who = pool.combatant_id
        for contest in rolled.contests:
            if contest.top_id == who:
                return contest
            if contest.bottom_id == who:  # the opponent paid first: seen from the builder
                return structs.replace(
                    contest,
                    top=contest.bottom,
                    bottom=contest.top,
                    top_id=who,
                    bottom_id=contest.top_id,
                )
        return None

    # --- what the app shows ---

    def tiers(self, state: Encounter) -> list[Tier]:
        """The pips each tier lands, on the dice of the one the last roll's upper hand strikes
        (as ``d`` lands them: on Health, or the largest die left); generic before then."""
        struck = self._struck(state)
        if struck is None:
            return list(PIP_TIERS)
        return [structs.replace(tier, effect=_pips_on(struck, tier)) for tier in PIP_TIERS]

    @staticmethod
    def _struck(state: Encounter) -> Combatant | None:
        """Whom the last roll's upper hand lands its successes on; None after a tie, against
        a difficulty, or before any roll."""
        roll = state.last_roll
        if not isinstance(roll, RoundRolled) or not roll.contests:
            return None
        contest = roll.contests[0]
        if contest.kind != "conflict":
            return None
        upper = compare(contest.top, contest.bottom).upper
        if upper == "tie":
            return None
        return state.find(contest.bottom_id if upper == "top" else contest.top_id)

    def landing(self, state: Encounter) -> Landing | None:
        roll = state.last_roll
        if not isinstance(roll, RoundRolled) or not roll.contests:
            return None
        contest = roll.contests[0]
        outcome = compare(contest.top, contest.bottom)
        value = outcome.kept(outcome.upper)
        index = next(i for i, tier in enumerate(PIP_TIERS) if tier.contains(value))
        top = state.name_of(contest.top_id)
        bottom = state.name_of(contest.bottom_id, "the difficulty")
        if outcome.upper == "tie":
            summary = f"{top} vs {bottom}: every pair tied"
        else:
            leader, other = (top, bottom) if outcome.upper == "top" else (bottom, top)
            other_side = "bottom" if outcome.upper == "top" else "top"
            summary = (
                f"{leader} has the upper hand over {other}: keeps {value}; "
                f"{other} keeps {outcome.kept(other_side)}"  # type: ignore[arg-type]  # "top" or "bottom"
            )
        return Landing(tier=index, value=value, summary=summary)

    def describe(self, state: Encounter, event: object) -> LogEntry:
        return describe_event(state, event)

    def alerts(self, state: Encounter, event: object) -> list[str]:
        match event:
            case TurnAdvanced(round=round_) if round_ != state.round:
                left = conflict.pending_now(state)
                out = [
                    f"Round {round_}: every side states its goal and pays Intensity again "
                    "(s: Goal, Build pool), then r rolls all pools at once."
                ]
                if left:
                    out.append(
                        f"{len(left)} set(s) of successes from round {state.round} never landed."
                    )
                return out
            case GoalGained(combatant_id=cid):
                return [
                    f"{state.name_of(cid)} gains its goal: declare a new goal (s: Goal) "
                    "or let the other side cede."
                ]
            case ConditionAdded(combatant_id=cid, condition=c) if c.name == conflict.DEAD:
                return [f"{state.name_of(cid)}'s Health is at zero: {state.name_of(cid)} dies."]
        return []

    # --- what a player may see ---

    def conceal(self, state: Encounter, event: object, hidden: frozenset[str]) -> object | None:
        """A round's contests players may see (the others left out), and the pips a hidden
        dealer lands on one they see, from someone unseen (``UNSEEN``)."""
        match event:
            case RoundRolled():
                contests = tuple(c for c in event.contests if not mentions(c) & hidden)
                spent = tuple(s for s in event.spent if s.combatant_id not in hidden)
                if not contests and not spent:
                    return None
                return structs.replace(event, contests=contests, spent=spent)
            case DamageLanded() if event.target_id not in hidden:
                unseen = event.dealer_id in hidden
                return structs.replace(event, dealer_id=UNSEEN) if unseen else event
            case DiceGained() if event.combatant_id not in hidden:
                unseen = event.source_id in hidden
                return structs.replace(event, source_id=UNSEEN) if unseen else event
        return None

    def conceal_state(self, state: Encounter, hidden: frozenset[str]) -> Encounter:
        own = conflict.br_state(state)
        own = structs.replace(
            own,
            pools=tuple(p for p in own.pools if not mentions(p) & hidden),
            pending=tuple(p for p in own.pending if not mentions(p) & hidden),
        )

        def unseen_ally(who: Combatant) -> Combatant:
            goal = who.sheet.goal
            if goal is None or goal.ally_id not in hidden:
                return who
            sheet = structs.replace(who.sheet, goal=structs.replace(goal, ally_id=None))
            return structs.replace(who, sheet=sheet)

        combatants = tuple(unseen_ally(c) for c in state.combatants)
        return state.update(system_state=own, combatants=combatants)

    def status(self, state: Encounter) -> str:
        """Where the round stands, in place of whose turn it is."""
        own = conflict.br_state(state)
        if own.rolled_round == state.round:
            if conflict.pending_now(state):
                return ""  # the header's waiting part says what is left to land (pending)
            return "rolled: cede (s) or n ends the round"
        paid = [state.name_of(p.combatant_id) for p in conflict.round_pools(state)]
        return "all sides act at once · paid: " + (", ".join(paid) or "nobody yet")


SYSTEM = BeerRun()
