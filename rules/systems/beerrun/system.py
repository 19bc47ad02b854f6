"""Beer Run: conflict rounds with dice pools, Intensity, the upper hand and die damage.

Source: ``shared/rules-texts/002`` (Beer Run, by Mike Holmes). There is no turn order: every
side states a goal, pays Intensity for a pool, and all pools roll at once (``r``). ``n`` ends
the round. The sheet lives in ``sheet``, commands and events in ``events``, the dice in
``dice``, the decisions in ``decide``, the fold in ``apply``, the dialogs in ``forms``, the
log in ``log`` and the odds in ``encounter_odds``; this module ties them into the
``RuleSystem``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.mentions import mentioned
from rules.odds import mid_percentile
from rules.remembered import EachOf
from rules.system import LAST_ROLL, Action, Damage, Figure, Landing, Luck, RuleSystem, Tier, Track

from . import apply, decide, forecast
from .dice import compare
from .encounter_odds import BeerRunOdds, sided_bands
from .events import (
    AddOutcomeDie,
    BeerRunState,
    BuildPool,
    CategoriesSet,
    Cede,
    Ceded,
    DamageLanded,
    DiceGained,
    DifficultyWorn,
    GoalGained,
    GoalSet,
    LandDamage,
    OutcomeDieAdded,
    PoolBuilt,
    RollRound,
    RoundRolled,
    SetCategories,
    SetGoal,
    StruckDie,
    SuccessesLost,
    pending_from,
)
from .forecast import BeerRunForecast
from .forms import BeerRunDialogs
from .log import UNSEEN, BeerRunLog
from .odds import upper_hand_odds
from .sheet import (
    DEFAULT_CATEGORY,
    BeerRunSheet,
    BeerRunSheets,
    damaged,
)
from .solo import BeerRunSolo
from .table import PIP_BANDS

if TYPE_CHECKING:
    from .events import BeerRunCombatant, BeerRunEncounter

PIP_TIERS = tuple(Tier(*band) for band in PIP_BANDS)


def _pips_on(die: StruckDie | None, pips: int, open_: bool) -> str:
    """What a band of pips does to the struck die: "Health d6→d4" (5+: "d6→≤d1"), the
    arrow unspaced to fit the pane beside a name."""
    if not pips:
        return "nothing lands"
    if die is None:
        return f"{pips}{'+' if open_ else ''} pip{'s' if pips > 1 else ''} off a die"
    if not die.size:
        return "no die left to damage"
    after = die.size - pips
    if open_ and after >= 1:  # 5+ pips: this die or less
        return f"{die.ability} d{die.size}→≤d{after}"
    return f"{die.ability} d{die.size}→d{max(0, after)}"


def _struck_die(state: BeerRunEncounter, roll: RoundRolled, cid: str | None) -> StruckDie | None:
    """The die ``d`` struck on ``cid``'s side as ``roll`` was rolled (None: a difficulty,
    or not known). A save older than ``BeerRunState.struck_dice`` has the sheet as it is
    now, which is the sheet as rolled only while none of the roll's pips has landed."""
    if cid is None:
        return None
    own = decide.br_state(state)
    if own.struck_dice:
        return next((d for d in own.struck_dice if d.combatant_id == cid), None)
    landing = [p for c in roll.contests for p in pending_from(roll.round, c)]
    who = state.find(cid)
    if who is None or any(p not in own.pending for p in landing):
        return None
    die = decide.default_die(who)
    return StruckDie(cid, "", 0) if die is None else StruckDie(cid, die.name, die.size)


class BeerRun(
    BeerRunSheets,
    BeerRunDialogs,
    BeerRunLog,
    BeerRunOdds,
    BeerRunSolo,
    BeerRunForecast,
    RuleSystem,
):
    name = "beerrun"
    title = "Beer Run"
    sheet_types = (BeerRunSheet,)
    event_types = (
        CategoriesSet,
        GoalSet,
        PoolBuilt,
        RoundRolled,
        DiceGained,
        DifficultyWorn,
        GoalGained,
        DamageLanded,
        Ceded,
        OutcomeDieAdded,
        SuccessesLost,
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
    gm_commands = (RollRound, SetCategories)  # every side's pools at once; the table's dice
    gm_actions = frozenset({"roll", "categories"})
    damage_unit = "pips"
    out_of_fight_reads_state = False  # out_of_fight reads the combatant alone

    # --- the end of the fight ---

    def out_of_fight(self, state: BeerRunEncounter, combatant: BeerRunCombatant) -> str:
        return decide.out_of_fight(combatant)

    def damage(self, state: BeerRunEncounter, event: object) -> tuple[Damage, ...]:
        """Pips landed (a die stops at zero), by the dealer (None: a difficulty pool)."""
        if not isinstance(event, DamageLanded):
            return ()
        pips = sum(min(hit.pips, hit.before) for hit in event.hits)
        return (Damage(event.dealer_id, event.target_id, pips),) if pips else ()

    def roll_sides(self, state: BeerRunEncounter, event: object) -> tuple[str | None, str | None]:
        """The first comparison's pool and its opposition (None: a difficulty pool)."""
        if not isinstance(event, RoundRolled) or not event.contests:
            return None, None
        return event.contests[0].top_id, event.contests[0].bottom_id

    def roll_luck(self, state: BeerRunEncounter, event: object) -> tuple[Luck, ...]:
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

    def fit_sheet(self, state: BeerRunEncounter, sheet: BeerRunSheet) -> BeerRunSheet:
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
        game = decide.categories(state)
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

    def main_track(self, combatant: BeerRunCombatant) -> Track | None:
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

    def actions(self, state: BeerRunEncounter) -> list[Action]:
        return [
            Action("roll", "Roll the round", "every paid pool at once; helping pools first"),
            Action("goal", "Goal", "state a side's goal for the round (helping, situational...)"),
            Action("pool", "Build pool", "pay Intensity: 1 for the base pool, 1, 2, 3 ... more"),
            Action("damage", "Land damage", "the next successes as pips off opposing dice"),
            Action("cede", "Cede", "give up the contest: the other side gains its goal"),
            Action("outcome", "Outcome die", "a permanent die gained or inflicted"),
            Action("categories", "Categories", "the ability categories of this game"),
        ]

    def consequence_command(self, state: BeerRunEncounter) -> LandDamage:
        if not decide.pending_now(state):
            raise decide.nothing_to_land(state)
        return LandDamage()

    def pending(self, state: BeerRunEncounter) -> str:
        """The next successes to land this round ("Orla lands 3 on Goblin"), and how many
        more sets wait after them: the round's end would lose them all."""
        waiting = decide.pending_now(state)
        if not waiting:
            return ""
        item = waiting[0]
        dealer = state.name_of(item.dealer_id, "The difficulty")
        text = f"{dealer} lands {item.pips} on {state.name_of(item.target_id)}"
        target = state.find(item.target_id)
        die = decide.default_die(target) if target is not None else None
        if die is not None:  # where d lands them all (the dialog's Land damage splits them)
            text += f"'s {die.name}"
        return text + (f" (+{len(waiting) - 1} more)" if len(waiting) > 1 else "")

    def discard(self, state: BeerRunEncounter) -> BeerRunEncounter:
        """The next successes are dropped, as landing them would take them off the list."""
        rest = decide.pending_now(state)[1:]
        own = structs.replace(decide.br_state(state), pending=rest)
        return state.update(system_state=own, last_roll_applied=not rest)

    # --- forecasts (rules/forecast.py) ---

    def end_figures(
        self, state: BeerRunEncounter, combatant: BeerRunCombatant
    ) -> tuple[Figure, ...]:
        return forecast.end_figures(combatant)

    # --- decide and apply ---

    apply = staticmethod(apply.apply)

    def decide(self, state: BeerRunEncounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case SetCategories():
                return [CategoriesSet(command.categories)]
            case SetGoal():
                return decide.set_goal(state, command)
            case BuildPool():
                return [PoolBuilt(decide.build_pool(state, command))]
            case RollRound():
                return decide.roll_round(state, dice, self.apply)
            case LandDamage():
                return decide.land_damage(state, command.split)
            case Cede():
                return decide.cede(state, command)
            case AddOutcomeDie():
                return decide.add_outcome(state, command)
        raise Rejected(f"Beer Run does not know the command {type(command).__name__}")

    # --- what the app shows ---

    def tiers(self, state: BeerRunEncounter) -> list[Tier]:
        """Once a round is rolled, its first comparison's results split by who takes the
        upper hand (``encounter_odds.sided_bands``), each with what its kept successes do to
        the die ``d`` strikes on the other side, as it was when rolled (Health, or the largest
        die left); generic bands of pips before any roll."""
        roll = state.last_roll
        if not isinstance(roll, RoundRolled) or not roll.contests:
            return list(PIP_TIERS)
        contest = roll.contests[0]
        conflict = contest.kind == "conflict"
        struck = {
            "top": _struck_die(state, roll, contest.bottom_id) if conflict else None,
            "bottom": _struck_die(state, roll, contest.top_id) if conflict else None,
        }
        return [
            Tier(
                band.label,
                band.low,
                band.high,
                _pips_on(struck.get(band.side), band.pips, band.open),
            )
            for band in sided_bands(contest, state)
        ]

    def landing(self, state: BeerRunEncounter) -> Landing | None:
        """The tier of the side that took the upper hand and the successes it keeps (the
        bottom side's as negatives); the summary says what both sides keep."""
        roll = state.last_roll
        if not isinstance(roll, RoundRolled) or not roll.contests:
            return None
        contest = roll.contests[0]
        outcome = compare(contest.top, contest.bottom)
        kept = outcome.kept(outcome.upper)
        value = -kept if outcome.upper == "bottom" else kept
        index = next(i for i, tier in enumerate(self.tiers(state)) if tier.contains(value))
        top = state.name_of(contest.top_id)
        bottom = state.name_of(contest.bottom_id, "the difficulty")
        if outcome.upper == "tie":
            summary = f"{top} vs {bottom}: every pair tied"
        else:
            leader, other = (top, bottom) if outcome.upper == "top" else (bottom, top)
            other_kept = outcome.bottom_kept if outcome.upper == "top" else outcome.top_kept
            # "(applied)" follows the summary once it has landed: it ends on what landed.
            if other_kept:
                summary = (
                    f"{leader} has the upper hand over {other}: keeps {kept}; "
                    f"{other} keeps {other_kept}"
                )
            else:
                summary = (
                    f"{leader} has the upper hand over {other}, who scores no success: "
                    f"{leader} keeps {kept}"
                )
        return Landing(tier=index, value=value, summary=summary)

    # --- what a player may see ---

    def conceal(
        self, state: BeerRunEncounter, event: object, hidden: frozenset[str]
    ) -> object | None:
        """A round's contests players may see (the others left out), and the pips a hidden
        dealer lands on one they see, from someone unseen (``UNSEEN``)."""
        match event:
            case RoundRolled():
                contests = tuple(c for c in event.contests if not mentioned(c, hidden))
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

    def conceal_state(self, state: BeerRunEncounter, hidden: frozenset[str]) -> BeerRunEncounter:
        own = decide.br_state(state)
        own = structs.replace(
            own,
            pools=tuple(p for p in own.pools if not mentioned(p, hidden)),
            pending=tuple(p for p in own.pending if not mentioned(p, hidden)),
            struck_dice=tuple(d for d in own.struck_dice if d.combatant_id not in hidden),
        )

        def unseen_ally(who: BeerRunCombatant) -> BeerRunCombatant:
            goal = who.sheet.goal
            if goal is None or goal.ally_id not in hidden:
                return who
            sheet = structs.replace(who.sheet, goal=structs.replace(goal, ally_id=None))
            return structs.replace(who, sheet=sheet)

        # A player's view of a fight asks this of each state: only changed combatants again.
        combatants = _ALLIES.map(state.combatants, hidden, unseen_ally)
        return state.update(system_state=own, combatants=combatants)

    def status(self, state: BeerRunEncounter) -> str:
        """Where the round stands, in place of whose turn it is."""
        own = decide.br_state(state)
        if own.rolled_round == state.round:
            if decide.pending_now(state):
                return ""  # the header's waiting part says what is left to land (pending)
            return "rolled: cede (s), or the GM ends the round (n)"
        paid = [state.name_of(p.combatant_id) for p in decide.round_pools(state)]
        return "all sides act at once · paid: " + (", ".join(paid) or "nobody yet")


_ALLIES: EachOf[BeerRunCombatant] = EachOf()
SYSTEM = BeerRun()
