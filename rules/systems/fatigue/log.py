"""Fatigue & Thresholds: log lines and alerts, every number of a check spelled out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.logline import Line, LogEntry, Span, plural, spans
from rules.roles.log import Log

from .arithmetic import POOL_TITLES, Cost, cutoffs, dice_text, effort_text, merge, spacing
from .check import first_comparison
from .events import (
    RUINED,
    TRADES,
    Aid,
    FatigueAided,
    FatigueCalledOff,
    FatigueChecked,
    FatiguePoolsSpent,
    FatigueSuckageTaken,
    FatigueTraded,
    Side,
    Suckage,
    level_name,
    pending,
    sheet_of,
    thresholds_text,
)
from .sheet import SHORT, costs_text

if TYPE_CHECKING:
    from .events import FatigueEncounter


def emptied_alerts(
    state: FatigueEncounter, combatant_id: str, costs: tuple[Cost, ...]
) -> list[str]:
    """A pool running out raises penalties and narrows thresholds; a pool going below zero
    that sets the floor T (Stamina, Focus, Health, Sanity) lowers T: say so."""
    target = state.find(combatant_id)
    if target is None:
        return []
    before = sheet_of(target)
    after = before.spent(costs)
    out = []
    for cost in costs:
        old, new = getattr(before, cost.pool), getattr(after, cost.pool)
        emptied = old > 0 >= new
        floor_dropped = after.floor < before.floor and old >= 0 > new
        if not (emptied or floor_dropped):
            continue
        word = "is empty" if new == 0 else f"is at {new}"
        space = spacing(after.physical_penalty, after.floor)
        cuts = "/".join(str(cut) for cut in cutoffs(space))
        out.append(
            f"{target.name}'s {cost.pool.capitalize()} {word}: penalty "
            f"{after.physical_penalty} physical, {after.mental_penalty} mental; "
            f"thresholds now {cuts} (T {after.floor})"
        )
    return out


def _solo(state: FatigueEncounter, side: Side) -> bool:
    fighter = state.find(side.combatant_id)
    return fighter is not None and state.is_solo(fighter)


def check_alerts(state: FatigueEncounter, event: FatigueChecked, roll: FatigueChecked) -> list[str]:
    """Alerts for a check ``event``, whose open comparison is ``roll``."""
    out = []
    # A fighter the tracker plays settles its own fumble and suckage: no prompt for the user.
    if roll.fumbled and roll.attacker is not None:
        if not _solo(state, roll.attacker):
            out.append(
                f"{state.name_of(roll.attacker.combatant_id)} fumbles (total "
                f"{roll.attacker_total}, must beat {roll.fumble_line}): "
                f"{level_name(roll, roll.level)}, and the attack has no effect. Press d to pay it"
                + (
                    f" (or s: {roll.suckage_offer} suckage points lift it a threshold)."
                    if roll.suckage_offer
                    else "."
                )
            )
    elif roll.suckage_offer and not _solo(state, roll.defender):
        defender = state.name_of(roll.defender.combatant_id)
        lifted = structs.replace(roll, suckage=(Suckage(roll.suckage_offer, ""),))
        out.append(
            f"{defender} lost by {roll.loss} ({level_name(roll, roll.level)}): "
            f"{roll.suckage_offer} suckage points would lift it to "
            f"{level_name(lifted, lifted.level)} (s: Take suckage points)."
        )
    for side in (event.attacker, event.defender, *event.waiting, *event.spared):
        if side is not None:
            out += emptied_alerts(state, side.combatant_id, side.upfront)
    return out


def side_spans(
    state: FatigueEncounter, side: Side, aid: int = 0, spill: bool = False
) -> list[Span]:
    out: list[Span | str] = [
        "  ",
        Span(state.name_of(side.combatant_id), "name"),
        ": ",
        Span(dice_text(side.dice, side.faces), "die"),
        f" = {side.dice_total}",
    ]
    out += [Span(f" + {s.name} {s.level}", "muted") for s in side.skills]
    out.append(Span(f" - fatigue {side.penalty}", "muted"))
    if side.attitude_modifier:
        out.append(Span(f" {side.attitude} {side.attitude_modifier:+d}", "muted"))
    if aid:
        out.append(Span(f" aid {aid:+d}", "muted"))
    out.append(Span(f" = {side.total + aid}", "total"))
    out.append(Span(f"; {paid_text(state, side, spill)}", "muted"))
    return list(spans(*out))


def paid_text(state: FatigueEncounter, side: Side, spill: bool) -> str:
    """What the side's effort really took, read from its sheet before it paid: ``paid 3
    Wind``, or ``paid 3 Stamina for 3 Wind (Wind ran short)`` when a pool could not pay."""
    asked = merge(side.upfront)
    person = state.find(side.combatant_id)
    if person is None:
        return f"paid {effort_text(asked)}"
    paid = sheet_of(person).paying(asked, spill)[1]
    if paid == asked:
        return f"paid {effort_text(paid)}"
    short = [c.pool for c in asked if not any(p == c for p in paid)]
    took = effort_text(paid) if paid else "nothing"
    ran = " and ".join(POOL_TITLES[pool] for pool in short)
    return f"paid {took} for {effort_text(asked)} ({ran} ran short)"


def _outcome(state: FatigueEncounter, roll: FatigueChecked) -> Span:
    defender = state.name_of(roll.defender.combatant_id)
    attacker = state.name_of(roll.attacker.combatant_id if roll.attacker else None, "Nature")
    if roll.fumbled:
        return Span(f"{attacker} FUMBLES: {level_name(roll, roll.level)}, no effect", "failure")
    if roll.loss <= 0:
        return Span(f"{defender} defends", "success")
    return Span(f"{defender} loses by {roll.loss}: {level_name(roll, roll.level)}", "failure")


def _more_defenders(state: FatigueEncounter, roll: FatigueChecked) -> list[Line]:
    """A line per further defender: its roll, and its own result or why it did not defend."""
    lines: list[Line] = []
    for side in roll.waiting:
        alone = structs.replace(roll, defender=side, waiting=(), spared=())
        lines.append(tuple(side_spans(state, side, spill=roll.spill)))
        result = spans(
            "    ",
            _outcome(state, alone),
            Span(f" (thresholds {thresholds_text(side)}; settled in turn)", "muted"),
        )
        lines.append(result)
    for side in roll.spared:
        lines.append(tuple(side_spans(state, side, spill=roll.spill)))
        lines.append(spans(Span("    scored higher: does not defend", "muted")))
    return lines


def describe_check(state: FatigueEncounter, roll: FatigueChecked) -> LogEntry:
    defender = state.name_of(roll.defender.combatant_id)
    attacker = state.name_of(roll.attacker.combatant_id if roll.attacker else None, "Nature")
    outcome = _outcome(state, roll)
    if roll.spared:
        rolled = len(roll.spared) + (2 if roll.attacker else 1)  # the attacker scored too
        outcome = Span(f"{outcome.text} (the lowest of {rolled})", outcome.style)
    head = spans(
        Span(attacker, "name"),
        " vs ",
        Span(defender, "name"),
        Span(f" {roll.attacker_total} vs {roll.defender_total} ", "total"),
        outcome,
    )
    lines = [head]
    if roll.attacker is not None:
        lines.append(tuple(side_spans(state, roll.attacker, roll.aid_for("attacker"), roll.spill)))
    else:
        lines.append(spans("  ", Span("Nature", "name"), f": the GM's total {roll.nature_total}"))
    lines.append(tuple(side_spans(state, roll.defender, roll.aid_for("defender"), roll.spill)))
    d = roll.defender
    detail = (
        f"  {defender}'s thresholds {thresholds_text(d)} "
        f"(10 - fatigue {d.penalty}, floor {d.floor})"
    )
    if roll.attacker is not None:
        verdict = "missed" if roll.fumbled else "beaten"
        detail += (
            f"; fumble line {roll.fumble_threshold} + {roll.attacker.fumble_penalty} "
            f"= {roll.fumble_line}: {verdict}"
        )
    if roll.weapon is not None:
        detail += f"; {roll.weapon.describe()}"
    lines.append(spans(Span(detail, "tier")))
    if roll.suckage_offer:
        lines.append(
            spans(Span(f"  {roll.suckage_offer} suckage points lift it a threshold", "muted"))
        )
    lines += _more_defenders(state, roll)
    return LogEntry("roll", tuple(lines))


def describe_aid(state: FatigueEncounter, aid: Aid) -> LogEntry:
    helper = state.name_of(aid.helper.combatant_id)
    spilling = isinstance(state.last_roll, FatigueChecked) and state.last_roll.spill
    percent = 100 * aid.helper.total // aid.target
    line = spans(
        Span(helper, "name"),
        f" aids the {aid.side}: ",
        *side_spans(state, aid.helper, spill=spilling)[3:],
    )
    result = spans(
        Span(
            f"  {aid.helper.total} of target {aid.target} (max(30, {aid.main})) = {percent}%: "
            f"aid {aid.bonus:+d}",
            "tier",
        )
    )
    return LogEntry("roll", (line, result))


def describe_payment(state: FatigueEncounter, event: FatiguePoolsSpent) -> LogEntry:
    target = state.find(event.combatant_id)
    name = state.name_of(event.combatant_id)
    if not event.costs:
        what = event.reckoning or event.what
        return LogEntry("consequence", (spans(Span(name, "name"), f": {what}"),))
    after = sheet_of(target).spent(event.costs) if target is not None else None
    pools = ""
    if after is not None:
        # A seat that sees Health as a band (rules.hp_view) reads no Health figure: its
        # veiled sheet's is not the true one, and its maximum is not the seat's to know.
        veiled = target is not None and bool(target.hp_shown)
        pools = ", ".join(
            "{} {}/{}".format(SHORT[c.pool], *after.pool(c.pool))
            for c in event.costs
            if not (veiled and c.pool == "health")
        )
    lines = [
        spans(
            Span(name, "name"),
            " pays ",
            Span(costs_text(event.costs), "total"),
            " for ",
            Span(event.what, "tier"),
            Span(f" ({event.reckoning})" if event.reckoning else "", "muted"),
            f" -> {pools}" if pools else "",
        )
    ]
    if event.narrate:
        lines.append(spans(Span(f"  {event.narrate}", "note")))
    if event.ruined:
        lines.append(spans(Span(f"  {ruined_text(state, event.what)}", "note")))
    return LogEntry("consequence", tuple(lines))


def ruined_text(state: FatigueEncounter, what: str) -> str:
    """The line under a payment of the second penalty or worse (issue 39, F4-09)."""
    roll = state.last_roll
    gear = "the equipment used in it"
    if isinstance(roll, FatigueChecked) and roll.fumbled and roll.weapon is not None:
        gear = f"the {roll.weapon.name}"
    return (
        f"{what}: do not count on using {gear} ever again: marked {RUINED} "
        "(the GM removes the mark if nothing was used or it survived)"
    )


# --- the hooks: notifications and log entries -----------------------------------------------


def alerts(state: FatigueEncounter, event: object) -> list[str]:
    match event:
        case FatigueChecked():
            return check_alerts(state, event, first_comparison(event))
        case FatiguePoolsSpent():
            return emptied_alerts(state, event.combatant_id, event.costs)
        case FatigueAided():
            return emptied_alerts(state, event.aid.helper.combatant_id, event.aid.helper.upfront)
    return []


def describe(state: FatigueEncounter, event: object) -> LogEntry:
    match event:
        case FatigueChecked():
            return describe_check(state, event)
        case FatigueSuckageTaken():
            roll = pending(state)
            after = structs.replace(roll, suckage=(*roll.suckage, event.suckage))
            payer = roll.sufferer or roll.defender
            moved = (
                f"missed by {roll.fumble_missed} -> {after.fumble_missed}"
                if roll.fumbled
                else f"lost by {roll.loss} -> {after.loss}"
            )
            line = spans(
                Span(state.name_of(payer.combatant_id), "name"),
                f" takes {plural(event.suckage.points, 'suckage point')} (",
                Span(event.suckage.cost, "note"),
                f"): {moved}, now ",
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
        case FatigueTraded():
            instead = dict(TRADES).get(event.instead, event.instead)
            line = spans(
                Span(state.name_of(event.combatant_id), "name"),
                f" is {instead} instead of paying {event.wind} Wind (the GM's option)",
            )
            return LogEntry("roll", (line,))
        case FatiguePoolsSpent():
            return describe_payment(state, event)
    raise TypeError(f"not a Fatigue & Thresholds event: {event!r}")


class FatigueLog(Log):
    """Fatigue's log part (``rules.roles.log``)."""

    describe = staticmethod(describe)
    alerts = staticmethod(alerts)
