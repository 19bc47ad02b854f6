"""Fatigue & Thresholds: fatigue pools, stress dice, and consequence thresholds that narrow.

Source: ``shared/rules-texts/003`` ("Resolving Actions"). A check: both sides pay their
nominal effort N and roll the dice of their situation; dice + skills - fatigue penalty +
attitude; the defender wins ties. A loss costs 2N and, past each threshold (10 apart, less
when tired), a worse named penalty from the weapon's table. Dice order: attacker, defender.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from msgspec import structs

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.logline import LogEntry, Span, spans
from rules.system import Action, Landing, NoState, Tier

from . import odds as exact
from .arithmetic import (
    ATTITUDES,
    DICE,
    LEVEL_NAMES,
    SPACING,
    Cost,
    aid_bonus,
    aid_target,
    defense_bands,
    parse_effort,
    roll_stress,
)
from .check import (
    check,
    consequence_of,
    make_side,
    resolve_skills,
    spend,
)
from .events import (
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
    level_name,
    pending,
    sheet_of,
    thresholds_text,
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
    sheet_fields,
    sheet_from_values,
)

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter
    from rules.odds import Odds
    from rules.solo import Move, Policy

NATURE = "nature"
DEFAULT_DEFENSE = "5 Wind"  # "Dodging that same attack has an N of 5 Wind"
MAX_COST_TEXT = 80


# --- forms ---------------------------------------------------------------------------------


def _names(raw: str) -> tuple[str, ...]:
    """Skill names typed with commas; a skill named twice still counts once."""
    unique: dict[str, str] = {}
    for part in raw.split(","):
        name = " ".join(part.split())
        if name:
            unique.setdefault(name.casefold(), name)
    return tuple(unique.values())


def _dice_field(key: str, label: str) -> Field:
    return Field(key=key, label=label, kind="choice", default="1d20", choices=DICE)


def _attitude_field(key: str, label: str) -> Field:
    return Field(key=key, label=label, kind="choice", default="ordinary", choices=ATTITUDES)


def first_skill(combatant: Combatant, prefer: str = "") -> str:
    sheet = sheet_of(combatant)
    found = sheet.skill(prefer) if prefer else None
    chosen = found or (sheet.skills[0] if sheet.skills else None)
    return chosen.name if chosen else ""


def default_target(state: Encounter, attacker: Combatant) -> Combatant:
    last = state.last_roll
    if (
        isinstance(last, FatigueChecked)
        and last.attacker is not None
        and last.attacker.combatant_id == attacker.id
    ):
        target = state.find(last.defender.combatant_id)
        if target is not None:
            return target
    others = [c for c in state.combatants if c.id != attacker.id]
    return next((c for c in others if c.side != attacker.side), others[0])


def check_form(state: Encounter) -> list[Field]:
    if len(state.combatants) < 1:
        raise Rejected("A check needs a combatant: add one first")
    people = tuple((c.id, c.name) for c in state.combatants)
    attacker = state.current or state.combatants[0]
    alone = len(state.combatants) < 2
    defender = attacker if alone else default_target(state, attacker)
    weapons = sheet_of(attacker).weapons
    return [
        Field(
            key="attacker",
            label="Attacker",
            kind="choice",
            default=NATURE if alone else attacker.id,
            choices=((NATURE, "Nature (GM's total)"), *people),
        ),
        Field(key="defender", label="Defender", kind="choice", default=defender.id, choices=people),
        Field(
            key="weapon",
            label="Weapon",
            kind="text",
            default=weapons[0].name if weapons else "",
            help="blank: no weapon",
        ),
        Field(
            key="attacker_skills",
            label="Attacker skills",
            kind="text",
            default=first_skill(attacker),
            help="names, with commas",
        ),
        _dice_field("attacker_dice", "Attacker dice"),
        _attitude_field("attacker_attitude", "Attacker attitude"),
        Field(
            key="attacker_effort",
            label="Attacker effort N",
            kind="text",
            default="",
            help="blank: the weapon's N Wind",
        ),
        Field(
            key="defender_skills",
            label="Defender skills",
            kind="text",
            default=first_skill(defender, "Dodge"),
        ),
        _dice_field("defender_dice", "Defender dice"),
        _attitude_field("defender_attitude", "Defender attitude"),
        Field(
            key="defender_effort", label="Defender effort N", kind="text", default=DEFAULT_DEFENSE
        ),
        Field(key="nature_total", label="Nature's total to beat", default="0"),
        Field(
            key="fumble",
            label="Fumble threshold",
            kind="text",
            default="",
            help="blank: weapon's (0 walk, 4 punch, 8 sword, 12 greatsword, 16 flail)",
        ),
    ]


def check_command(state: Encounter, values: Mapping[str, str]) -> FatigueCheck:
    fields = {f.key: f for f in check_form(state)}
    attacker = choice_value(values, fields["attacker"])
    effort_raw = values.get("attacker_effort", "").strip()
    fumble_raw = values.get("fumble", "").strip()
    return FatigueCheck(
        attacker_id=None if attacker == NATURE else attacker,
        defender_id=choice_value(values, fields["defender"]),
        weapon="" if attacker == NATURE else values.get("weapon", "").strip(),
        attacker_skills=_names(values.get("attacker_skills", "")),
        defender_skills=_names(values.get("defender_skills", "")),
        attacker_dice=choice_value(values, fields["attacker_dice"]),  # type: ignore[arg-type]
        defender_dice=choice_value(values, fields["defender_dice"]),  # type: ignore[arg-type]
        attacker_attitude=choice_value(values, fields["attacker_attitude"]),  # type: ignore[arg-type]
        defender_attitude=choice_value(values, fields["defender_attitude"]),  # type: ignore[arg-type]
        attacker_effort=parse_effort(effort_raw, "Attacker effort") if effort_raw else None,
        defender_effort=parse_effort(values.get("defender_effort", ""), "Defender effort"),
        nature_total=int_value(values, "nature_total", "Nature's total"),
        fumble_threshold=int_value(values, "fumble", "Fumble threshold") if fumble_raw else None,
    )


def check_preview(state: Encounter, values: Mapping[str, str]) -> str:
    """Both sides before the dice, the defender's thresholds and the fumble line."""
    cmd = check_command(state, values)
    # A dry run with every die showing 0 would not fit the dice; use a fixed middle face.
    roll = check(state, cmd, _MiddleDice())
    defender = state.name_of(roll.defender.combatant_id)
    d_mod = roll.defender.total - roll.defender.dice_total
    text = (
        f"{defender} {roll.defender.dice} {d_mod:+d}, thresholds {thresholds_text(roll.defender)}"
    )
    if roll.attacker is None:
        return f"Nature {roll.nature_total} vs {text}"
    a_mod = roll.attacker.total - roll.attacker.dice_total
    attacker = state.name_of(roll.attacker.combatant_id)
    return f"{attacker} {roll.attacker.dice} {a_mod:+d}, fumble line {roll.fumble_line} vs {text}"


class _MiddleDice:
    """Dice for previews: nothing is recorded, and no 1 or 20 is shown (no second die)."""

    def roll(self, sides: int) -> int:
        return 2


def suckage_form(state: Encounter) -> list[Field]:
    roll = pending(state)
    offer = roll.suckage_offer
    if not offer:
        raise Rejected("Suckage points only lift a failed defense: the last check has none")
    return [
        Field(key="points", label="Suckage points", default=str(offer)),
        Field(key="cost", label="Narrated cost", kind="text", help="e.g. falls to one knee"),
    ]


def calloff_form(state: Encounter) -> list[Field]:
    pending(state)
    return [Field(key="levels", label="Levels lower (1 or 2)", default="1")]


def aid_form(state: Encounter, selected: str | None) -> list[Field]:
    roll = pending(state)
    people = tuple((c.id, c.name) for c in state.combatants)
    helper = selected if state.find(selected) else state.combatants[0].id
    sides = (("defender", "the defender"),)
    if roll.attacker is not None:
        sides = (("attacker", "the attacker"), *sides)
    return [
        Field(key="helper", label="Helper", kind="choice", default=helper, choices=people),
        Field(key="side", label="Aiding", kind="choice", default=sides[0][0], choices=sides),
        Field(key="skills", label="Helper skills", kind="text", help="names, with commas"),
        _dice_field("dice", "Helper dice"),
        Field(key="effort", label="Helper effort N", kind="text", help="e.g. 2 Wit"),
    ]


# --- the system ------------------------------------------------------------------------------


class FatigueThresholds:
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
    roll_event_types = (FatigueChecked,)
    state_type = NoState
    stat_columns = ("Wind", "Sta", "HP", "Mind", "Pen")
    uses_turn_order = True

    def new_state(self) -> NoState:
        return NoState()

    # sheets

    def new_sheet(self) -> FatigueSheet:
        return FatigueSheet()

    def sheet_form(self, sheet: FatigueSheet) -> list[Field]:
        return sheet_fields(sheet)

    def sheet_from_form(self, values: Mapping[str, str], sheet: FatigueSheet) -> FatigueSheet:
        return sheet_from_values(values, sheet)

    def sheet_stats(self, sheet: FatigueSheet) -> tuple[str, ...]:
        return (
            bar(*sheet.pool("wind")),
            bar(*sheet.pool("stamina")),
            bar(*sheet.pool("health")),
            f"{sheet.wit}/{sheet.focus}/{sheet.sanity}",
            f"{sheet.physical_penalty}/{sheet.mental_penalty}",
        )

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
                    side=choice_value(values, fields["side"]),  # type: ignore[arg-type]
                    dice=choice_value(values, fields["dice"]),  # type: ignore[arg-type]
                    skills=_names(values.get("skills", "")),
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
            roll = check(state, check_command(state, values), _MiddleDice())
        except Rejected:
            return None
        return exact.checked_odds(roll)

    def last_odds(self, state: Encounter) -> Odds | None:
        """The chances the last check had before its dice (aid and suckage came after)."""
        roll = state.last_roll
        return exact.checked_odds(roll) if isinstance(roll, FatigueChecked) else None

    def consequence_command(self, state: Encounter) -> FatigueApply:
        return FatigueApply()

    # solo play (rules/solo.py); imported here, since fatigue_solo imports this module

    @property
    def solo_policies(self) -> tuple[Policy, ...]:
        from . import solo as fatigue_solo

        return fatigue_solo.POLICIES

    def solo_move(self, state: Encounter) -> Move | None:
        from . import solo as fatigue_solo

        return fatigue_solo.next_move(state)

    def solo_fill(
        self, state: Encounter, action: str, values: dict[str, str]
    ) -> tuple[dict[str, str], list[Move]]:
        from . import solo as fatigue_solo

        return fatigue_solo.fill(state, action, values)

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
        if roll.called_off:
            raise Rejected("That effort has already been called off")
        sufferer = roll.sufferer
        if roll.level is None or sufferer is None:
            raise Rejected("There is no consequence to call off")
        if sufferer.attitude == "intense":
            name = state.name_of(sufferer.combatant_id)
            raise Rejected(f"{name} set out with an intense effort and cannot call it off")
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
                state = state.update(last_roll=event, last_roll_applied=False)
                if event.attacker is not None:
                    state = spend(state, event.attacker.combatant_id, event.attacker.upfront)
                return spend(state, event.defender.combatant_id, event.defender.upfront)
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
                return spend(state, event.combatant_id, event.costs).update(last_roll_applied=True)
        raise TypeError(f"not a Fatigue & Thresholds event: {event!r}")

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
            return Landing(tier=0, value=roll.loss, summary=summary)
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

    def alerts(self, state: Encounter, event: object) -> list[str]:
        match event:
            case FatigueChecked():
                return check_alerts(state, event)
            case FatiguePoolsSpent():
                return emptied_alerts(state, event.combatant_id, event.costs)
            case FatigueAided():
                return emptied_alerts(
                    state, event.aid.helper.combatant_id, event.aid.helper.upfront
                )
        return []

    def status(self, state: Encounter) -> str:
        """The consequence waiting for ``d``, so nobody forgets to pay it."""
        roll = state.last_roll
        if not isinstance(roll, FatigueChecked) or state.last_roll_applied:
            return ""
        if roll.level is None or roll.sufferer is None:
            return ""
        who = state.name_of(roll.sufferer.combatant_id)
        return f"to pay (d): {who}, {level_name(roll, roll.level)}"

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


SYSTEM = FatigueThresholds()
