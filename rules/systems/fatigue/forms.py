"""Fatigue & Thresholds' dialogs: the fields of a check and its follow-ups, the command a
filled form gives, and its preview line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from msgspec import structs

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.roles.dialogs import Dialogs

from .arithmetic import ATTITUDES, Attitude, DiceKind, parse_effort
from .check import check, tradable_wind
from .events import (
    SIDES,
    TRADES,
    DefenderWay,
    FatigueAid,
    FatigueCallOff,
    FatigueCheck,
    FatigueChecked,
    FatigueTakeSuckage,
    FatigueTrade,
    Suckage,
    call_off_refusal,
    level_name,
    out_word,
    pending,
    sheet_of,
    suckage_refusal,
    thresholds_text,
)
from .table import DICE

if TYPE_CHECKING:
    from .events import FatigueCombatant, FatigueEncounter

NATURE = "nature"
WHO_DEFENDS: tuple[tuple[str, str], ...] = (
    ("each", "each defender, in turn"),
    ("lowest", "whoever scores lowest"),
)
DEFAULT_DEFENSE = "5 Wind"  # "Dodging that same attack has an N of 5 Wind"
MAX_COST_TEXT = 80


# --- forms ---------------------------------------------------------------------------------


def split_names(raw: str) -> tuple[str, ...]:
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


def first_skill(combatant: FatigueCombatant, prefer: str = "") -> str:
    sheet = sheet_of(combatant)
    found = sheet.skill(prefer) if prefer else None
    chosen = found or (sheet.skills[0] if sheet.skills else None)
    return chosen.name if chosen else ""


def default_target(state: FatigueEncounter, attacker: FatigueCombatant) -> FatigueCombatant:
    last = state.last_roll
    if (
        isinstance(last, FatigueChecked)
        and last.attacker is not None
        and last.attacker.combatant_id == attacker.id
    ):
        target = state.find(last.defender.combatant_id)
        if target is not None and not out_word(target):
            return target
    others = [c for c in state.combatants if c.id != attacker.id]
    foes = [c for c in others if c.side != attacker.side]
    return next((c for c in foes if not out_word(c)), foes[0] if foes else others[0])


# *Attitudes*: "halves the value of N, to a minimum of 1": an odd N is the GM's to round.
RELAXED_ROUNDING: tuple[tuple[str, str], ...] = (
    ("down", "rounded down (5 -> 2)"),
    ("up", "rounded up (5 -> 3)"),
)


# *Threshold Narrowing*: Wind "completely empty" has a penalty of 4; what it cannot pay is the
# GM's: not paid (the default), or taken from Stamina (Focus for Wit).
SHORT_POOLS: tuple[tuple[str, str], ...] = (
    ("lost", "the rest is not paid"),
    ("spill", "the rest from Stamina/Focus"),
)


def check_form(state: FatigueEncounter) -> list[Field]:
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
        Field(
            key="more_defenders",
            label="More defenders",
            kind="text",
            help="Cid, Dan (2d10 intense 3 Wind)",
        ),
        Field(
            key="who_defends",
            label="Who defends",
            kind="choice",
            default="each",
            choices=WHO_DEFENDS,
        ),
        Field(
            key="short_pools",
            label="Wind/Wit run out",
            kind="choice",
            default="lost",
            choices=SHORT_POOLS,
        ),
        Field(
            key="relaxed_n",
            label="Relaxed: half of N",
            kind="choice",
            default="down",
            choices=RELAXED_ROUNDING,
        ),
    ]


def check_command(state: FatigueEncounter, values: Mapping[str, str]) -> FatigueCheck:
    fields = {f.key: f for f in check_form(state)}
    attacker = choice_value(values, fields["attacker"])
    effort_raw = values.get("attacker_effort", "").strip()
    fumble_raw = values.get("fumble", "").strip()
    ways = more_defenders(state, values.get("more_defenders", ""))
    return FatigueCheck(
        attacker_id=None if attacker == NATURE else attacker,
        defender_id=choice_value(values, fields["defender"]),
        weapon="" if attacker == NATURE else values.get("weapon", "").strip(),
        attacker_skills=split_names(values.get("attacker_skills", "")),
        defender_skills=split_names(values.get("defender_skills", "")),
        attacker_dice=choice_value(values, fields["attacker_dice"], DICE),
        defender_dice=choice_value(values, fields["defender_dice"], DICE),
        attacker_attitude=choice_value(values, fields["attacker_attitude"], ATTITUDES),
        defender_attitude=choice_value(values, fields["defender_attitude"], ATTITUDES),
        attacker_effort=parse_effort(effort_raw, "Attacker effort") if effort_raw else None,
        defender_effort=parse_effort(values.get("defender_effort", ""), "Defender effort"),
        nature_total=int_value(values, "nature_total", "Nature's total", limit=MODIFIER),
        fumble_threshold=(
            int_value(values, "fumble", "Fumble threshold", limit=MODIFIER) if fumble_raw else None
        ),
        more_defenders=tuple(way.combatant_id for way in ways),
        ways=tuple(way for way in ways if way != DefenderWay(combatant_id=way.combatant_id)),
        lowest=choice_value(values, fields["who_defends"]) == "lowest",
        relaxed_up=choice_value(values, fields["relaxed_n"]) == "up",
        spill=choice_value(values, fields["short_pools"]) == "spill",
    )


# A further defender's own way (issue 39, F4-14): "Cid (2d10 intense 3 Wind)".
WAY_HELP = "like 'Cid (2d10 intense 3 Wind)': dice, attitude, N, each optional"


def more_defenders(state: FatigueEncounter, raw: str) -> tuple[DefenderWay, ...]:
    """Combatants typed by name (any case) or id, with commas, each perhaps with its own
    dice, attitude and N in brackets."""
    out: list[DefenderWay] = []
    for part in outside_brackets(raw):
        text = " ".join(part.split())
        if not text:
            continue
        found = named(state, text)
        way = DefenderWay(combatant_id=found.id) if found is not None else own_way(state, text)
        if all(way.combatant_id != other.combatant_id for other in out):
            out.append(way)
    return tuple(out)


def outside_brackets(raw: str) -> list[str]:
    """The parts between commas that are not in brackets, in one pass (a long paste stays
    quick)."""
    parts: list[str] = []
    depth = start = 0
    for index, char in enumerate(raw):
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif char == "," and not depth:
            parts.append(raw[start:index])
            start = index + 1
    return [*parts, raw[start:]]


def named(state: FatigueEncounter, text: str) -> FatigueCombatant | None:
    wanted = text.casefold()
    return next(
        (c for c in state.combatants if wanted in (c.name.casefold(), c.id.casefold())), None
    )


def own_way(state: FatigueEncounter, text: str) -> DefenderWay:
    """``Name (dice attitude N)``: each word a situation's dice or an attitude, the rest N."""
    name, _, way = text.removesuffix(")").partition("(")
    if not text.endswith(")") or "(" in way or ")" in name + way:
        raise Rejected(f"No combatant named {text!r} to defend")
    found = named(state, name.strip())
    if found is None:
        raise Rejected(f"No combatant named {name.strip()!r} to defend")
    dice: DiceKind | None = None
    attitude: Attitude | None = None
    rest: list[str] = []
    for word in way.replace(",", " ").split():
        key = word.casefold()
        if key in dict(DICE):
            dice = key
        elif key in dict(ATTITUDES):
            attitude = key
        else:
            rest.append(word)
    effort = None
    if rest:
        try:
            effort = parse_effort(" ".join(rest), f"{found.name}'s N")
        except Rejected:
            raise Rejected(
                f"More defenders: {found.name}'s own way reads {WAY_HELP}, not {way.strip()!r}"
            ) from None
    return DefenderWay(combatant_id=found.id, dice=dice, attitude=attitude, effort=effort)


def check_preview(state: FatigueEncounter, values: Mapping[str, str]) -> str:
    """Both sides before the dice, the defender's thresholds and the fumble line."""
    cmd = check_command(state, values)
    # A dry run with every die showing 0 would not fit the dice; use a fixed middle face.
    roll = check(state, cmd, MiddleDice())
    defender = state.name_of(roll.defender.combatant_id)
    d_mod = roll.defender.total - roll.defender.dice_total
    text = (
        f"{defender} {roll.defender.dice} {d_mod:+d}, thresholds {thresholds_text(roll.defender)}"
    )
    more = len(roll.waiting) + len(roll.spared)
    if more:
        text += f" (+{more} more: {'lowest defends' if cmd.lowest else 'each in turn'})"
    if roll.attacker is None:
        return f"Nature {roll.nature_total} vs {text}"
    a_mod = roll.attacker.total - roll.attacker.dice_total
    attacker = state.name_of(roll.attacker.combatant_id)
    return f"{attacker} {roll.attacker.dice} {a_mod:+d}, fumble line {roll.fumble_line} vs {text}"


class MiddleDice:
    """Dice for previews: nothing is recorded, and no 1 or 20 is shown (no second die)."""

    def roll(self, sides: int) -> int:
        return 2


def suckage_form(state: FatigueEncounter) -> list[Field]:
    roll = pending(state)
    offer = roll.suckage_offer
    if not offer:
        raise Rejected("Suckage points only lift a failed roll across a threshold: none here")
    return [
        Field(key="points", label="Suckage points", default=str(offer)),
        Field(key="cost", label="Narrated cost", kind="text", help="e.g. falls to one knee"),
    ]


def trade_form(state: FatigueEncounter) -> list[Field]:
    """*Melee*: "At GM's option can substitute getting knocked prone, disarmed, etc for some of
    fatigue": what instead, and how much Wind it spares (half by default)."""
    most = tradable_wind(pending(state))
    if not most:
        raise Rejected("Only a melee consequence's Wind may be traded, once, for a condition")
    return [
        Field(key="instead", label="Instead", kind="choice", default="Prone", choices=TRADES),
        Field(key="wind", label=f"Wind spared (1-{most})", default=str(max(1, most // 2))),
    ]


GM_ALLOWS: tuple[tuple[str, str], ...] = (("no", "No"), ("yes", "Yes"))


def calloff_form(state: FatigueEncounter) -> list[Field]:
    roll = pending(state)
    refusal = call_off_refusal(state, roll, gm_allows=True)
    if refusal:
        raise Rejected(refusal)
    levels = Field(key="levels", label="Levels lower (1 or 2)", default="1")
    by_rule = call_off_refusal(state, roll)
    if not by_rule:
        return [levels]
    # Combat or an intense effort: refused unless the GM allows it (the field says why).
    allows = Field(
        key="gm_allows",
        label="GM allows it",
        kind="choice",
        default="no",
        choices=GM_ALLOWS,
        help=by_rule,
    )
    return [levels, allows]


def aid_form(state: FatigueEncounter, selected: str | None) -> list[Field]:
    roll = pending(state)
    people = tuple((c.id, c.name) for c in state.combatants)
    found = state.find(selected)
    helper = found.id if found is not None else state.combatants[0].id
    sides = SIDES if roll.attacker is not None else SIDES[1:]  # Nature has no helper
    return [
        Field(key="helper", label="Helper", kind="choice", default=helper, choices=people),
        Field(key="side", label="Aiding", kind="choice", default=sides[0][0], choices=sides),
        Field(key="skills", label="Helper skills", kind="text", help="names, with commas"),
        _dice_field("dice", "Helper dice"),
        Field(key="effort", label="Helper effort N", kind="text", help="e.g. 2 Wit"),
    ]


# --- the actions' dialogs, commands and previews -------------------------------------------


def action_form(state: FatigueEncounter, action: str, selected: str | None) -> list[Field]:
    match action:
        case "roll":
            return check_form(state)
        case "suckage":
            return suckage_form(state)
        case "calloff":
            return calloff_form(state)
        case "aid":
            return aid_form(state, selected)
        case "trade":
            return trade_form(state)
    raise Rejected(f"Fatigue & Thresholds has no action {action!r}")


def action_command(state: FatigueEncounter, action: str, values: Mapping[str, str]) -> object:
    match action:
        case "roll":
            return check_command(state, values)
        case "suckage":
            cost = " ".join(values.get("cost", "").split())
            return FatigueTakeSuckage(int_value(values, "points", "Suckage points"), cost)
        case "trade":
            fields = {f.key: f for f in trade_form(state)}
            return FatigueTrade(
                instead=choice_value(values, fields["instead"], TRADES),
                wind=int_value(values, "wind", "Wind traded", 1),
            )
        case "calloff":
            allows = values.get("gm_allows", "no") == "yes"
            return FatigueCallOff(int_value(values, "levels", "Levels", 1), gm_allows=allows)
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


def preview(state: FatigueEncounter, action: str, values: Mapping[str, str]) -> str:
    try:
        if action == "roll":
            return check_preview(state, values)
        if action == "suckage":
            roll = pending(state)
            points = int_value(values, "points", "Suckage points")
            refusal = suckage_refusal(roll, points)
            if refusal:
                return refusal
            lifted = structs.replace(roll, suckage=(*roll.suckage, Suckage(points, "")))
            if roll.fumbled:
                moved = f"missed by {roll.fumble_missed} -> {lifted.fumble_missed}"
            else:
                moved = f"lost by {roll.loss} -> {lifted.loss}"
            return f"{moved}: {level_name(lifted, lifted.level)}"
        if action == "calloff":
            roll = pending(state)
            command = action_command(state, action, values)
            assert isinstance(command, FatigueCallOff)
            refusal = call_off_refusal(state, roll, command.gm_allows, command.levels)
            if refusal:
                return refusal
            lowered = structs.replace(roll, called_off=command.levels)
            return f"{level_name(roll, roll.level)} -> {level_name(lowered, lowered.level)}"
    except Rejected as exc:
        return exc.message
    return ""


class FatigueDialogs(Dialogs):
    """Fatigue's dialogs part (``rules.roles.dialogs``); its list of actions is the
    system's."""

    action_form = staticmethod(action_form)
    action_command = staticmethod(action_command)
    preview = staticmethod(preview)
