"""Fatigue & Thresholds: fatigue pools, stress dice, and consequence thresholds that narrow.

Source: ``shared/rules-texts/003`` ("Resolving Actions"). A check: both sides pay their
nominal effort N and roll the dice of their situation; dice + skills - fatigue penalty +
attitude; the defender wins ties. A loss costs 2N and, past each threshold (10 apart, less
when tired), a worse named penalty from the weapon's table. Dice order: attacker, defender.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.dice import DiceSource
from rules.encounter import NoState
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.logline import LogEntry, Span, spans
from rules.odds import percent, whose_chances
from rules.system import LAST_ROLL, Action, Damage, Landing, RuleSystem, Tier, Track

from . import odds, solo
from .arithmetic import (
    LEVEL_NAMES,
    POOLS,
    SPACING,
    Cost,
    aid_bonus,
    aid_target,
    defense_bands,
    parse_effort,
    roll_stress,
)
from .bands import DICE
from .check import (
    check,
    consequence_of,
    first_comparison,
    make_side,
    next_comparison,
    paying_sides,
    resolve_skills,
    spend,
)
from .events import (
    SIDES,
    Aid,
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
    Suckage,
    call_off_refusal,
    level_name,
    out_word,
    pending,
    sheet_of,
    thresholds_text,
)
from .forms import (
    MAX_COST_TEXT,
    MiddleDice,
    aid_form,
    calloff_form,
    check_command,
    check_form,
    check_preview,
    default_target,
    split_names,
    suckage_form,
)
from .log import (
    check_alerts,
    describe_aid,
    describe_check,
    describe_payment,
    emptied_alerts,
    plural,
)
from .sheet import (
    FatigueSheet,
    Weapon,
    bar,
    costs_text,
    defense_consequence,
    rested,
    sheet_fields,
    sheet_from_values,
)

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter
    from rules.odds import Odds
    from rules.solo import Move

# --- the system ------------------------------------------------------------------------------


class FatigueThresholds(RuleSystem):
    name = "fatigue"
    title = "Fatigue & Thresholds"
    sheet_types = (FatigueSheet,)
    event_types = (
        FatigueChecked,
        FatigueSuckageTaken,
        FatigueCalledOff,
        FatigueAided,
        FatiguePoolsSpent,
    )
    command_types = (FatigueCheck, FatigueApply, FatigueTakeSuckage, FatigueCallOff, FatigueAid)
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
    has_odds = True
    solo_policies = solo.POLICIES
    damage_unit = "pool points"

    def new_state(self) -> NoState:
        return NoState()

    # sheets

    def new_sheet(self) -> FatigueSheet:
        return FatigueSheet()

    def sheet_form(self, sheet: FatigueSheet) -> list[Field]:
        return sheet_fields(sheet)

    def sheet_from_form(self, values: Mapping[str, str], sheet: FatigueSheet) -> FatigueSheet:
        return sheet_from_values(values, sheet)

    def fresh_sheet(self, sheet: FatigueSheet) -> FatigueSheet:
        return rested(sheet)

    track_words = ("damage", "heal")

    def main_track(self, combatant: Combatant[Any]) -> Track | None:
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

    def out_of_fight(self, state: Encounter, combatant: Combatant) -> str:
        return out_word(combatant)

    def damage(self, state: Encounter, event: object) -> tuple[Damage, ...]:
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

    def roll_sides(self, state: Encounter, event: object) -> tuple[str | None, str | None]:
        """A deeper loss (a higher band) favours the attacker (None: nature)."""
        if not isinstance(event, FatigueChecked):
            return None, None
        attacker = event.attacker.combatant_id if event.attacker is not None else None
        return attacker, event.defender.combatant_id

    # actions

    def actions(self, state: Encounter) -> list[Action]:
        return [
            Action("roll", "Check", "Dice + skills - fatigue, attacker against defender"),
            Action("suckage", "Take suckage points", "Lift a failed defense at a narrated cost"),
            Action("calloff", "Call off the effort", "Lower the consequence one or two levels"),
            Action("aid", "Aid the check", "A helper's roll adds up to +8 to one side"),
        ]

    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        match action:
            case "roll":
                return check_form(state)
            case "suckage":
                return suckage_form(state)
            case "calloff":
                return calloff_form(state)
            case "aid":
                return aid_form(state, selected)
        raise Rejected(f"Fatigue & Thresholds has no action {action!r}")

    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> object:
        match action:
            case "roll":
                return check_command(state, values)
            case "suckage":
                cost = " ".join(values.get("cost", "").split())
                return FatigueTakeSuckage(int_value(values, "points", "Suckage points"), cost)
            case "calloff":
                return FatigueCallOff(int_value(values, "levels", "Levels", 1))
            case "aid":
                fields = {f.key: f for f in aid_form(state, None)}
                return FatigueAid(
                    helper_id=choice_value(values, fields["helper"]),
                    side=choice_value(values, fields["side"], SIDES),
                    dice=choice_value(values, fields["dice"], DICE),
                    skills=split_names(values.get("skills", "")),
                    effort=parse_effort(values.get("effort", ""), "Helper effort"),
                )
        raise Rejected(f"Fatigue & Thresholds has no action {action!r}")

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        try:
            if action == "roll":
                return check_preview(state, values)
            if action == "suckage":
                roll = pending(state)
                points = int_value(values, "points", "Suckage points")
                lifted = structs.replace(roll, suckage=(*roll.suckage, Suckage(points, "")))
                return f"lost by {roll.loss} -> {lifted.loss}: {level_name(lifted, lifted.level)}"
            if action == "calloff":
                roll = pending(state)
                levels = int_value(values, "levels", "Levels", 1)
                lowered = structs.replace(roll, called_off=levels)
                return f"{level_name(roll, roll.level)} -> {level_name(lowered, lowered.level)}"
        except Rejected as exc:
            return exc.message
        return ""

    def odds(self, state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The exact chance of each band for the check the dialog describes (None: no check yet,
        or values the roll would refuse)."""
        if action != "roll":
            return None
        try:
            roll = check(state, check_command(state, values), MiddleDice())
        except Rejected:
            return None
        return _named(state, roll, odds.checked_odds(roll))

    def last_odds(self, state: Encounter) -> Odds | None:
        """The chances the last check had before its dice (aid and suckage came after)."""
        roll = state.last_roll
        if not isinstance(roll, FatigueChecked):
            return None
        return _named(state, roll, odds.checked_odds(roll))

    def consequence_command(self, state: Encounter) -> FatigueApply:
        return FatigueApply()

    # solo play (rules/solo.py)

    def solo_move(self, state: Encounter) -> Move | None:
        return solo.next_move(state)

    def solo_fill(
        self, state: Encounter, action: str, values: dict[str, str]
    ) -> tuple[dict[str, str], list[Move]]:
        return solo.fill(state, action, values)

    # decide and apply

    def decide(self, state: Encounter, command: object, dice: DiceSource) -> list[object]:
        match command:
            case FatigueCheck():
                return [check(state, command, dice)]
            case FatigueApply():
                return [self._pay(state)]
            case FatigueTakeSuckage():
                return [self._suckage(state, command)]
            case FatigueCallOff():
                return [self._call_off(state, command)]
            case FatigueAid():
                return [self._aid(state, command, dice)]
        raise Rejected(f"Fatigue & Thresholds does not know the command {type(command).__name__}")

    def _pay(self, state: Encounter) -> FatiguePoolsSpent:
        roll = pending(state)
        found = consequence_of(roll)
        if found is None:
            if roll.called_off and roll.sufferer is not None:
                return FatiguePoolsSpent(
                    combatant_id=roll.sufferer.combatant_id,
                    costs=(),
                    what="an effort called off",
                    reckoning="called off: no consequence",
                )
            if next_comparison(roll) is not None:  # lifted to a win: on to the next defender
                return FatiguePoolsSpent(
                    combatant_id=roll.defender.combatant_id,
                    costs=(),
                    what="Successful defense",
                    reckoning="defends: nothing beyond N",
                )
            raise Rejected(
                f"{state.name_of(roll.defender.combatant_id)} defended: "
                "nothing to pay beyond N, paid at the check"
            )
        target, consequence = found
        if state.find(target) is None:
            raise Rejected("The one who pays is no longer in the encounter")
        return FatiguePoolsSpent(
            combatant_id=target,
            costs=consequence.costs,
            what=level_name(roll, roll.level),
            reckoning=consequence.reckoning,
            narrate=consequence.narrate,
        )

    def _suckage(self, state: Encounter, cmd: FatigueTakeSuckage) -> FatigueSuckageTaken:
        roll = pending(state)
        if roll.fumbled or roll.defense_rolled is None:
            raise Rejected("Suckage points only lift a failed defense: the last check has none")
        if not 1 <= cmd.points <= roll.loss:
            raise Rejected(
                f"Take 1 to {roll.loss} suckage points (the defense lost by {roll.loss})"
            )
        if not cmd.cost:
            raise Rejected("Say what the suckage costs (e.g. falls to one knee)")
        if len(cmd.cost) > MAX_COST_TEXT:
            raise Rejected(f"Keep the cost under {MAX_COST_TEXT} characters")
        return FatigueSuckageTaken(Suckage(cmd.points, cmd.cost))

    def _call_off(self, state: Encounter, cmd: FatigueCallOff) -> FatigueCalledOff:
        roll = pending(state)
        if cmd.levels not in (1, 2):
            raise Rejected("Calling off lowers the consequence one or two levels")
        refusal = call_off_refusal(state, roll)
        if refusal:
            raise Rejected(refusal)
        return FatigueCalledOff(cmd.levels)

    def _aid(self, state: Encounter, cmd: FatigueAid, dice: DiceSource) -> FatigueAided:
        roll = pending(state)
        if cmd.side == "attacker" and roll.attacker is None:
            raise Rejected("Nature needs no aid: aid the defender")
        helper = state.combatant(cmd.helper_id)
        resolve_skills(helper, cmd.skills)
        faces = roll_stress(dice, cmd.dice)
        side = make_side(helper, cmd.dice, faces, cmd.skills, "ordinary", cmd.effort)
        aided = roll.attacker if cmd.side == "attacker" else roll.defender
        main = aided.total if aided is not None else 0
        return FatigueAided(
            Aid(
                helper=side,
                side=cmd.side,
                main=main,
                target=aid_target(main),
                bonus=aid_bonus(side.total, main),
            )
        )

    def apply(self, state: Encounter, event: object) -> Encounter:
        match event:
            case FatigueChecked():
                state = state.update(last_roll=first_comparison(event), last_roll_applied=False)
                for side in paying_sides(event):
                    state = spend(state, side.combatant_id, side.upfront)
                return state
            case FatigueSuckageTaken():
                roll = pending(state)
                return state.update(
                    last_roll=structs.replace(roll, suckage=(*roll.suckage, event.suckage))
                )
            case FatigueCalledOff():
                return state.update(
                    last_roll=structs.replace(pending(state), called_off=event.levels)
                )
            case FatigueAided():
                roll = pending(state)
                state = state.update(last_roll=structs.replace(roll, aids=(*roll.aids, event.aid)))
                return spend(state, event.aid.helper.combatant_id, event.aid.helper.upfront)
            case FatiguePoolsSpent():
                state = spend(state, event.combatant_id, event.costs)
                return self._settled(state)
        raise TypeError(f"not a Fatigue & Thresholds event: {event!r}")

    def _settled(self, state: Encounter) -> Encounter:
        """The open comparison settled: the next defender's comes up, if one lost."""
        roll = state.last_roll
        following = next_comparison(roll) if isinstance(roll, FatigueChecked) else None
        if following is None:
            return state.update(last_roll_applied=True)
        return state.update(last_roll=following, last_roll_applied=False)

    def discard(self, state: Encounter) -> Encounter:
        return self._settled(state)

    # what the app shows

    def tiers(self, state: Encounter) -> list[Tier]:
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

    def _next_defender(self, state: Encounter) -> tuple[int, tuple[Cost, ...], Weapon | None]:
        """Before any check: the thresholds the current actor's usual target would face."""
        effort = (Cost("wind", 5),)
        actor = state.current
        if actor is None or len(state.combatants) < 2:
            return SPACING, effort, None
        target = default_target(state, actor)
        weapons = sheet_of(actor).weapons
        side = make_side(target, "1d20", (10,), (), "ordinary", effort)
        return side.spacing, effort, weapons[0] if weapons else None

    def landing(self, state: Encounter) -> Landing | None:
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

    def conceal(self, state: Encounter, event: object, hidden: frozenset[str]) -> object | None:
        """What a hidden attacker's check costs a combatant players see: the pools and the
        level, not the reckoning (its N, its weapon)."""
        if isinstance(event, FatiguePoolsSpent) and event.combatant_id not in hidden:
            return structs.replace(event, reckoning="")
        return None

    def alerts(self, state: Encounter, event: object) -> list[str]:
        match event:
            case FatigueChecked():
                return check_alerts(state, event, first_comparison(event))
            case FatiguePoolsSpent():
                return emptied_alerts(state, event.combatant_id, event.costs)
            case FatigueAided():
                return emptied_alerts(
                    state, event.aid.helper.combatant_id, event.aid.helper.upfront
                )
        return []

    def pending(self, state: Encounter) -> str:
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

    # the log

    def describe(self, state: Encounter, event: object) -> LogEntry:
        match event:
            case FatigueChecked():
                return describe_check(state, event)
            case FatigueSuckageTaken():
                roll = pending(state)
                after = structs.replace(roll, suckage=(*roll.suckage, event.suckage))
                line = spans(
                    Span(state.name_of(roll.defender.combatant_id), "name"),
                    f" takes {plural(event.suckage.points, 'suckage point')} (",
                    Span(event.suckage.cost, "note"),
                    f"): lost by {roll.loss} -> {after.loss}, now ",
                    Span(level_name(after, after.level), "tier"),
                )
                return LogEntry("roll", (line,))
            case FatigueCalledOff():
                roll = pending(state)
                after = structs.replace(roll, called_off=event.levels)
                who = state.name_of(roll.sufferer.combatant_id if roll.sufferer else None)
                line = spans(
                    Span(who, "name"),
                    f" calls off the effort ({plural(event.levels, 'level')}): ",
                    f"{level_name(roll, roll.level)} -> ",
                    Span(level_name(after, after.level), "tier"),
                )
                return LogEntry("roll", (line,))
            case FatigueAided():
                return describe_aid(state, event.aid)
            case FatiguePoolsSpent():
                return describe_payment(state, event)
        raise TypeError(f"not a Fatigue & Thresholds event: {event!r}")


def waiting_names(state: Encounter, roll: FatigueChecked) -> str:
    """The defenders who lost and are still to settle after the open comparison."""
    names = []
    following = next_comparison(roll)
    while following is not None:
        names.append(state.name_of(following.defender.combatant_id))
        following = next_comparison(following)
    return ", ".join(names)


def _named(state: Encounter, roll: FatigueChecked, found: Odds) -> Odds:
    """Odds saying whose they are, and the attacker's chance of a fumble (which lands in the
    first band, the defender's, so the bands alone would hide it)."""
    defender = state.name_of(roll.defender.combatant_id)
    if roll.attacker is None:
        return found._replace(whose=whose_chances("Nature", defender))
    attacker = state.name_of(roll.attacker.combatant_id)
    extra = found.extra
    fumble = extra.get("fumble")
    if isinstance(fumble, Fraction):
        first = found.tiers[0].label
        note = f"{attacker} fumbles: {percent(fumble)} ({roll.fumble_line} or less; in {first})"
        extra = {**extra, "note": note}
    return found._replace(whose=whose_chances(attacker, defender), extra=extra)


SYSTEM = FatigueThresholds()
