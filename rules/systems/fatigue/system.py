"""Fatigue & Thresholds: fatigue pools, stress dice, and consequence thresholds that narrow.

Source: ``shared/rules-texts/003`` ("Resolving Actions"). A check: both sides pay their
nominal effort N and roll the dice of their situation; dice + skills - fatigue penalty +
attitude; the defender wins ties. A loss costs 2N and, past each threshold (10 apart, less
when tired), a worse named penalty from the weapon's table. Dice order: attacker, defender.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.dice import DiceSource
from rules.encounter import NoState
from rules.errors import Rejected
from rules.system import LAST_ROLL, Action, Damage, Landing, RuleSystem, Tier, Track

from . import apply, decide
from .arithmetic import (
    LEVEL_NAMES,
    POOLS,
    SPACING,
    Cost,
    defense_bands,
)
from .check import (
    check,
    consequence_of,
    make_side,
    next_comparison,
)
from .encounter_odds import FatigueOdds
from .events import (
    FatigueAid,
    FatigueAided,
    FatigueApply,
    FatigueCalledOff,
    FatigueCallOff,
    FatigueCheck,
    FatigueChecked,
    FatiguePoolsSpent,
    FatigueSuckageTaken,
    FatigueTakeSuckage,
    FatigueTrade,
    FatigueTraded,
    level_name,
    out_word,
    sheet_of,
    thresholds_text,
)
from .forms import (
    FatigueDialogs,
    default_target,
)
from .log import FatigueLog
from .sheet import (
    FatigueSheet,
    FatigueSheets,
    Weapon,
    bar,
    costs_text,
    defense_consequence,
)
from .solo import FatigueSolo

if TYPE_CHECKING:
    from .events import FatigueCombatant, FatigueEncounter

# --- the system ------------------------------------------------------------------------------


class FatigueThresholds(
    FatigueSheets, FatigueDialogs, FatigueLog, FatigueOdds, FatigueSolo, RuleSystem
):
    name = "fatigue"
    title = "Fatigue & Thresholds"
    sheet_types = (FatigueSheet,)
    event_types = (
        FatigueChecked,
        FatigueSuckageTaken,
        FatigueCalledOff,
        FatigueAided,
        FatiguePoolsSpent,
        FatigueTraded,
    )
    command_types = (
        FatigueCheck,
        FatigueApply,
        FatigueTakeSuckage,
        FatigueCallOff,
        FatigueAid,
        FatigueTrade,
    )
    command_actors = {  # whom each acts for; the rest are the GM's
        FatigueCheck: "attacker_id",
        FatigueApply: LAST_ROLL,
        FatigueTakeSuckage: LAST_ROLL,
        FatigueCallOff: LAST_ROLL,
        FatigueAid: "helper_id",
    }
    roll_event_types = (FatigueChecked,)
    state_type = NoState
    stat_columns = ("Wind", "Sta", "HP", "Mind", "Pen")
    uses_turn_order = True
    damage_unit = "pool points"
    out_of_fight_reads_state = False  # out_of_fight reads the combatant alone

    # sheets

    track_words = ("damage", "heal")

    def main_track(self, combatant: FatigueCombatant) -> Track | None:
        # Health: the pool whose loss kills (*Consequences*: "Health damage"); it stops at
        # minus its maximum, as the other pools but Wind and Wit do.
        sheet: FatigueSheet = combatant.sheet
        return Track("Health", sheet.health, -sheet.health_max, sheet.health_max)

    def with_track(self, sheet: FatigueSheet, value: int) -> FatigueSheet:
        return structs.replace(sheet, health=value)

    def sheet_stats(self, sheet: FatigueSheet) -> tuple[str, ...]:
        return (
            bar(*sheet.pool("wind")),
            bar(*sheet.pool("stamina")),
            bar(*sheet.pool("health")),
            f"{sheet.wit}/{sheet.focus}/{sheet.sanity}",
            f"{sheet.physical_penalty}/{sheet.mental_penalty}",
        )

    # the end of the fight

    def out_of_fight(self, state: FatigueEncounter, combatant: FatigueCombatant) -> str:
        return out_word(combatant)

    def damage(self, state: FatigueEncounter, event: object) -> tuple[Damage, ...]:
        """A consequence paid: every pool point it took (a pool stops at its floor), dealt
        by the check's attacker unless the payer is the attacker (a fumble)."""
        if not isinstance(event, FatiguePoolsSpent):
            return ()
        payer = state.find(event.combatant_id)
        if payer is None or not event.costs:
            return ()
        before = sheet_of(payer)
        after = before.spent(event.costs)
        lost = sum(before.pool(p)[0] - after.pool(p)[0] for p in POOLS)
        roll = state.last_roll
        dealer = None
        if isinstance(roll, FatigueChecked) and roll.attacker is not None:
            dealer = roll.attacker.combatant_id if roll.attacker.combatant_id != payer.id else None
        return (Damage(dealer, payer.id, lost),) if lost else ()

    def roll_sides(self, state: FatigueEncounter, event: object) -> tuple[str | None, str | None]:
        """A deeper loss (a higher band) favours the attacker (None: nature)."""
        if not isinstance(event, FatigueChecked):
            return None, None
        attacker = event.attacker.combatant_id if event.attacker is not None else None
        return attacker, event.defender.combatant_id

    # actions

    def actions(self, state: FatigueEncounter) -> list[Action]:
        return [
            Action("roll", "Check", "Dice + skills - fatigue, attacker against defender"),
            Action("suckage", "Take suckage points", "Lift a failed defense at a narrated cost"),
            Action("calloff", "Call off the effort", "Lower the consequence one or two levels"),
            Action("aid", "Aid the check", "A helper's roll adds up to +8 to one side"),
            Action("trade", "Trade Wind (GM)", "Melee: knocked prone or disarmed for some Wind"),
        ]

    # The GM's approval: calling off a combat or intense effort all the same (*Other Things*).

    def gm_choice(self, key: str, value: str) -> bool:
        return key == "gm_allows" and value == "yes"

    def gm_approvals(self, command: Any) -> tuple[str, ...]:
        if isinstance(command, FatigueCallOff) and command.gm_allows:
            return ("calling off a combat or intense effort",)
        return ()

    def consequence_command(self, state: FatigueEncounter) -> FatigueApply:
        return FatigueApply()

    discard = staticmethod(apply.settled)

    # decide and apply

    apply = staticmethod(apply.apply)

    def decide(self, state: FatigueEncounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case FatigueCheck():
                return [check(state, command, dice)]
            case FatigueApply():
                return decide.pay(state)
            case FatigueTakeSuckage():
                return [decide.suckage(state, command)]
            case FatigueCallOff():
                return [decide.call_off(state, command)]
            case FatigueAid():
                return [decide.aid(state, command, dice)]
            case FatigueTrade():
                return decide.trade(state, command)
        raise Rejected(f"Fatigue & Thresholds does not know the command {type(command).__name__}")

    # what the app shows

    def tiers(self, state: FatigueEncounter) -> list[Tier]:
        roll = state.last_roll
        if isinstance(roll, FatigueChecked):
            space, effort, weapon = roll.defender.spacing, roll.defender.effort, roll.weapon
        else:
            space, effort, weapon = self._next_defender(state)
        (win, *levels) = defense_bands(space)
        out = [Tier(*win, "Defended, N only")]
        for level, (label, low, high) in enumerate(levels):
            costs = defense_consequence(level, effort, weapon).costs
            out.append(Tier(label, low, high, f"{LEVEL_NAMES[level]} {costs_text(costs)}"))
        return out

    def _next_defender(
        self, state: FatigueEncounter
    ) -> tuple[int, tuple[Cost, ...], Weapon | None]:
        """Before any check: the thresholds the current actor's usual target would face."""
        effort = (Cost("wind", 5),)
        actor = state.current
        if actor is None or len(state.combatants) < 2:
            return SPACING, effort, None
        target = default_target(state, actor)
        weapons = sheet_of(actor).weapons
        side = make_side(target, "1d20", (10,), (), "ordinary", effort)
        return side.spacing, effort, weapons[0] if weapons else None

    def landing(self, state: FatigueEncounter) -> Landing | None:
        roll = state.last_roll
        if not isinstance(roll, FatigueChecked):
            return None
        defender = state.name_of(roll.defender.combatant_id)
        head = f"{roll.attacker_total} vs {roll.defender_total}"
        cuts = f"\n{defender}: thresholds {thresholds_text(roll.defender)}"
        if roll.fumbled and roll.attacker is not None:
            attacker = state.name_of(roll.attacker.combatant_id)
            summary = f"{head}: {attacker} FUMBLES, {level_name(roll, roll.level)}{cuts}"
            # No meaningful attack is made: the defender's band is the first, whatever the sums.
            return Landing(tier=0, value=min(roll.loss, 0), summary=summary)
        value = roll.loss
        if value <= 0:
            summary = f"{head}: {defender} defends{cuts}"
        else:
            summary = f"{head}: lost by {value}, {level_name(roll, roll.level)}{cuts}"
            if roll.suckage_offer and not state.last_roll_applied:
                summary += f"\n{roll.suckage_offer} suckage lifts it a threshold"
        tiers = self.tiers(state)
        index = next(i for i, tier in enumerate(tiers) if tier.contains(value))
        return Landing(tier=index, value=value, summary=summary)

    def conceal(
        self, state: FatigueEncounter, event: object, hidden: frozenset[str]
    ) -> object | None:
        """What a hidden attacker's check costs a combatant players see: the pools and the
        level, not the reckoning (its N, its weapon)."""
        if isinstance(event, FatiguePoolsSpent) and event.combatant_id not in hidden:
            return structs.replace(event, reckoning="")
        return None

    def pending(self, state: FatigueEncounter) -> str:
        """The consequence waiting for ``d``, so nobody forgets to pay it."""
        roll = state.last_roll
        if not isinstance(roll, FatigueChecked) or state.last_roll_applied:
            return ""
        found = consequence_of(roll)
        later = waiting_names(state, roll)
        if found is None or state.find(found[0]) is None:
            return f"{later} still to pay" if later else ""
        then = f", then {later}" if later else ""
        return f"{state.name_of(found[0])} pays for {level_name(roll, roll.level)}{then}"


def waiting_names(state: FatigueEncounter, roll: FatigueChecked) -> str:
    """The defenders who lost and are still to settle after the open comparison."""
    names = []
    following = next_comparison(roll)
    while following is not None:
        names.append(state.name_of(following.defender.combatant_id))
        following = next_comparison(following)
    return ", ".join(names)


SYSTEM = FatigueThresholds()
