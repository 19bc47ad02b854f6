"""LiveHack's log lines and notifications: every part and every die, in words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.events import TurnAdvanced
from rules.logline import Line, LogEntry, Span, spans
from rules.roles.log import Log

from .events import (
    DIE,
    GRIM_EXPERIENCES,
    LiveHackAidRolled,
    LiveHackBecameGrimlock,
    LiveHackHealed,
    LiveHackJointRolled,
    LiveHackPositionHeld,
    LiveHackPositionLost,
    LiveHackRolled,
    LiveHackSaveRolled,
    LiveHackTraitInflicted,
    SideRoll,
    cannot_act,
    condition_for,
)
from .parts import POSITIONAL
from .sheet import TRAITS, LiveHackSheet, offset_effects
from .table import row_label

if TYPE_CHECKING:
    from .events import LiveHackEncounter


def trait_name(trait: str) -> str:
    return dict(TRAITS).get(trait, trait)


def _chain_spans(chain: tuple[int, ...], sign: str, style: str) -> list[Span]:
    out: list[Span] = []
    for index, face in enumerate(chain):
        if index:
            out.append(Span("→", "muted"))
        out.append(Span(str(face), style if face == DIE else "die"))
    return [Span(f"{sign}[", "muted"), *out, Span("]", "muted")]


def side_spans(name: str, side: SideRoll) -> list[Span]:
    out: list[Span] = [Span("  "), Span(name, "name"), Span(": ")]
    for part in side.parts:
        out.append(Span(f"{part.label} {part.value:+d} ", "muted"))
    if side.take == "zero":
        out.append(Span("take zero ", "muted"))
    elif side.take == "ten":
        out.append(Span("take ten +10 ", "muted"))
    elif side.dice is not None:
        out += _chain_spans(side.dice.boon, "boon ", "noon")
        out += _chain_spans(side.dice.bane, " - bane ", "midnight")
        out.append(Span(f" = {side.dice.total:+d} "))
        if side.dice.eclipse:
            out.append(Span(" ECLIPSE ", "eclipse"))
        elif side.dice.noon:
            out.append(Span(" NOON ", "noon"))
        elif side.dice.midnight:
            out.append(Span(" MIDNIGHT ", "midnight"))
    out.append(Span(f" total {side.total}", "total"))
    return out


def side_name(state: LiveHackEncounter, side: SideRoll, fallback: str) -> str:
    return side.who or state.name_of(side.combatant_id, fallback)


def _eclipse_lines(state: LiveHackEncounter, sides: tuple[SideRoll, ...]) -> list[Line]:
    return [
        spans(
            Span("  ECLIPSE", "eclipse"),
            f" for {side_name(state, s, 'a roller')}: something completely bizarre happens "
            "(note what with o)",
        )
        for s in sides
        if s.dice is not None and s.dice.eclipse
    ]


def roll_lines(state: LiveHackEncounter, roll: LiveHackRolled) -> list[Line]:
    attacker = side_name(state, roll.attacker, "Attacker")
    defender = side_name(state, roll.defender, "Defender")
    row = roll.row
    grim = roll.kind == "grim"
    if row is None:
        missed = "meets the DR" if grim and not roll.margin else f"by {-roll.margin}"
        outcome = Span(f"{'RESISTED' if grim else 'MISS'} {missed}", "failure")
        result = Span("  no effect" if not grim else "  no Grimness", "muted")
    elif not roll.answers_table:
        # A hit (or a skill's success) has no table row: its bonus goes on to the next roll.
        outcome = Span(f"{'HIT' if roll.hit else 'SUCCESS'}, margin {roll.margin:+d}", "success")
        bonus = roll.margin_bonus
        if roll.hit:
            text = "  damage roll next (Fortitude)"
            if bonus:
                text += f", +{bonus} rolled over into it, or held as a position"
        else:
            text = f"  +{bonus} rolls over to a related roll, or is held" if bonus else "  succeeds"
        result = Span(text, "tier")
    else:
        outcome = Span(f"{'GRIM' if grim else 'HIT'}, margin {roll.margin:+d}", "success")
        condition = condition_for(row, roll.defense)
        # The band as the Consequences pane and the odds write it (a grim test's from 1).
        text = f"  tier {row_label(row, grim)}: "
        text += f"{row.levels} {trait_name(roll.trait)}"
        if condition:
            text += f" + {condition}"
            if grim and condition == "Incapacitated":
                text += " (until cheered up)"
            if grim and condition == "Transforming":
                text += " into a Grimlock"
        result = Span(text, "tier")
    against = roll.note if roll.defense == "skill" else roll.defense.capitalize()
    head = spans(
        Span("Grim test: " if grim else ""),
        Span(attacker, "name"),
        " vs ",
        Span(defender, "name"),
        Span(f" (vs {against}) ", "muted"),
        Span(f"{roll.attacker.total} vs {roll.defender.total} ", "total"),
        outcome,
    )
    lines = [
        head,
        tuple(side_spans(attacker, roll.attacker)),
        tuple(side_spans(defender, roll.defender)),
        spans(result),
    ]
    position = _position_line(state, roll)
    if position is not None:
        lines.append(position)
    if roll.acts_though:
        lines.append(_override_line(attacker, roll.acts_though))
    if roll.effort:
        lines.append(_effort_line(attacker, roll.effort))
    if roll.defender_effort:
        lines.append(_effort_line(defender, roll.defender_effort))
    if roll.grim_advantage and roll.success:
        lines.append(
            spans(
                Span(f"  Grim Advantage succeeded: {attacker} must take a grim test{_goal(roll)}")
            )
        )
    return lines + _eclipse_lines(state, (roll.attacker, roll.defender))


def _override_line(name: str, why: str) -> Line:
    """F4-13: the GM let one who cannot act act anyway; the log keeps the GM's word."""
    return spans(Span(f"  GM override: {name} acts though {why}", "tier"))


def _position_line(state: LiveHackEncounter, roll: LiveHackRolled) -> Line | None:
    """What became of the position the attacker holds over the defender (rulings.md, F4-01):
    cashed in, or still held after a hit (to grow by a hold) or a miss."""
    used = next((p.value for p in roll.attacker.parts if p.label == POSITIONAL), 0)
    if roll.cashed:
        holder = state.find(roll.attacker.combatant_id)
        held = holder.sheet.held_over(roll.defender.combatant_id) if holder else 0
        return spans(Span(f"  position +{held or used} cashed in", "muted"))
    if not used:
        return None
    if roll.hit and roll.margin_bonus:
        text = f"  position +{used} still held: a hold adds the +{roll.margin_bonus} won to it"
    elif roll.hit:
        text = f"  position +{used} still held until its damage roll cashes it in"
    else:
        text = f"  position +{used} still held: a miss loses no position"
    return spans(Span(text, "muted"))


def _goal(roll: LiveHackRolled) -> str:
    """The grim experience a Grim Advantage was for, as " (Killing a helpless foe)"."""
    found = next((e for e in GRIM_EXPERIENCES if e.key == roll.grim_goal), None)
    return f" ({found.label.lower()})" if found is not None else ""


def _joint(state: LiveHackEncounter, event: LiveHackJointRolled) -> LogEntry:
    chosen = event.rolls[event.chosen]
    who = side_name(state, chosen.attacker, "?")
    if event.kind == "cooperation":
        head = f"Cooperation: the best margin counts ({who}, {chosen.margin:+d})"
    else:
        head = (
            f"Chaos: they got in each other's way, the lowest margin counts ({who}, "
            f"{chosen.margin:+d})"
        )
    lines: list[Line] = [spans(Span(head, "tier"))]
    for roll in event.rolls:
        name = side_name(state, roll.attacker, "?")
        lines.append((*tuple(side_spans(name, roll.attacker)), Span(f"  margin {roll.margin:+d}")))
    lines += roll_lines(state, chosen)[2:]
    lines += [
        _effort_line(side_name(state, roll.attacker, "?"), roll.effort)
        for i, roll in enumerate(event.rolls)
        if roll.effort and i != event.chosen
    ]
    return LogEntry("roll", tuple(lines))


def _effort_line(name: str, effort: int) -> Line:
    return spans(Span(f"  effort +{effort}: {name} gains {effort} Fatigue"))


def _save(state: LiveHackEncounter, event: LiveHackSaveRolled) -> LogEntry:
    name = state.name_of(event.roller.combatant_id)
    title = {"dying": "Dying save", "transforming": "Transformation save", "check": "Check"}
    why = f" ({event.note})" if event.note else ""
    head = spans(
        Span(f"{title[event.kind]}{why}: "),
        Span(name, "name"),
        Span(f" {event.roller.total} vs {event.target.total} (MOS {event.margin:+d}) ", "total"),
        Span(f"{name} {event.outcome}", "tier"),
    )
    lines = [head, tuple(side_spans(name, event.roller)), tuple(side_spans("DR", event.target))]
    if event.effort:
        lines.append(_effort_line(name, event.effort))
    return LogEntry("roll", (*lines, *_eclipse_lines(state, (event.roller,))))


def describe(state: LiveHackEncounter, event: Any) -> LogEntry:
    name = state.name_of
    match event:
        case LiveHackRolled():
            return LogEntry("roll", tuple(roll_lines(state, event)))
        case LiveHackJointRolled():
            return _joint(state, event)
        case LiveHackSaveRolled():
            return _save(state, event)
        case LiveHackAidRolled():
            helper = name(event.helper.combatant_id)
            head = spans(
                Span("Aid: "),
                Span(helper, "name"),
                f" helps {name(event.aided_id)}: {event.helper.total} vs DR {event.target.total}"
                f" (MOS {event.helper.total - event.target.total:+d}) → ",
                Span(f"{event.bonus:+d} on the next roll", "tier"),
            )
            lines = [head, tuple(side_spans(helper, event.helper))]
            if event.acts_though:
                lines.append(_override_line(helper, event.acts_though))
            if event.effort:
                lines.append(_effort_line(helper, event.effort))
            return LogEntry("roll", tuple(lines))
        case LiveHackTraitInflicted():
            text = f" takes {event.levels} level{'s' if event.levels != 1 else ''} of "
            return LogEntry(
                "consequence",
                (
                    spans(
                        Span(name(event.combatant_id), "name"),
                        text,
                        Span(trait_name(event.trait), "tier"),
                        f" (margin {event.margin:+d})" if event.margin is not None else "",
                    ),
                ),
            )
        case LiveHackPositionHeld():
            what = f": {event.description}" if event.description else ""
            holder = state.find(event.holder_id)
            before = holder.sheet.held_over(event.target_id) if holder is not None else 0
            # F4-01: a hold adds to what is held ("accumulate an even higher bonus").
            held = f"+{event.bonus} more, +{before + event.bonus}" if before else f"+{event.bonus}"
            line = spans(
                Span(name(event.holder_id), "name"),
                f" holds {held} positional bonus over ",
                Span(name(event.target_id), "name"),
                Span(what, "tier"),
                " (no damage roll)",
            )
            return LogEntry("consequence", (line,))
        case LiveHackPositionLost():
            why = (
                f"cancelled by {name(event.by_id)} (no damage)"
                if event.by_id
                else f"lost: {event.reason}"
            )
            holder = state.find(event.holder_id)
            what = holder.sheet.position_over(event.target_id) if holder is not None else ""
            line = spans(
                Span(name(event.holder_id), "name"),
                f"'s +{event.bonus} position over ",
                Span(name(event.target_id), "name"),
                f" ({what})" if what else "",
                f" is {why}",
            )
            return LogEntry("consequence", (line,))
        case LiveHackHealed():
            line = spans(Span(name(event.combatant_id), "name"), f" heals {event.levels} Wounds")
            return LogEntry("consequence", (line,))
        case LiveHackBecameGrimlock():
            line = spans(
                Span(name(event.combatant_id), "name"),
                f" becomes a Grimlock: Str +{event.grim}, Wis -{event.grim}, blind sight;"
                " lost to the player",
            )
            return LogEntry("consequence", (line,))
    raise TypeError(f"not a LiveHack event: {event!r}")


# --- notifications ---------------------------------------------------------------------------


def _eclipse_alerts(state: LiveHackEncounter, sides: tuple[SideRoll, ...]) -> list[str]:
    return [
        f"Eclipse for {side_name(state, s, 'a roller')}! Something completely bizarre "
        "happens, tangential to the action (add a note with o)."
        for s in sides
        if s.dice is not None and s.dice.eclipse
    ]


def event_alerts(state: LiveHackEncounter, event: Any) -> list[str]:
    match event:
        case LiveHackRolled():
            out = _eclipse_alerts(state, (event.attacker, event.defender))
            if event.grim_advantage and event.success:
                who = state.name_of(event.attacker.combatant_id)
                out.append(
                    f"{who} used Grim Advantage and succeeded: grim test due{_goal(event)} "
                    "(s, Grim test)."
                )
            return out
        case LiveHackJointRolled():
            sides = (*tuple(r.attacker for r in event.rolls), event.rolls[0].defender)
            out = _eclipse_alerts(state, sides)
            if event.kind == "chaos":
                out.append("Chaos: they got in each other's way; the lowest roll counts.")
            return out
        case LiveHackSaveRolled() if event.kind != "check":
            who = state.name_of(event.roller.combatant_id)
            return [f"{who} {event.outcome}.", *_eclipse_alerts(state, (event.roller,))]
        case LiveHackSaveRolled() | LiveHackAidRolled():
            side = event.roller if isinstance(event, LiveHackSaveRolled) else event.helper
            return _eclipse_alerts(state, (side,))
        case LiveHackBecameGrimlock():
            return [f"{state.name_of(event.combatant_id)} is now a Grimlock, lost to the player."]
    return []


def turn_alerts(state: LiveHackEncounter, event: TurnAdvanced) -> list[str]:
    """At a new round, the dying saves due; at a turn, what the actor must roll or cannot do."""
    out = []
    if event.round != state.round:
        for c in state.combatants:
            # The tracker rolls a solo combatant's dying save itself, as the round ends.
            dying = c.condition("Dying") or c.condition("Comatose")
            if dying and not c.condition("Dead") and not state.is_solo(c):
                # A seat that sees its Wounds as a band (rules.hp_view) is not told them.
                wounds = "its Wounds" if c.hp_shown else f"Wounds {c.sheet.wounds}"
                out.append(
                    f"End of round {state.round}: {c.name} is dying: Fortitude save vs "
                    f"{wounds} (s, Dying save)."
                )
    actor = state.find(event.actor_id)
    if actor is None or state.is_solo(actor):  # the tracker plays its turn: nothing to ask
        return out
    if actor.condition("Transforming"):
        out.append(f"{actor.name} is Transforming: save now (s, Transformation save).")
    reason = cannot_act(actor)
    if reason:
        out.append(f"{actor.name} cannot act ({reason}): pass the turn with n.")
    sheet: LiveHackSheet = actor.sheet
    for effect in offset_effects(sheet):
        if effect.check:
            out.append(f"{actor.name}: {effect.check} -5, {effect.text} (s, Attribute check).")
        elif effect.level == -10 and not effect.stops_acting:  # it acts, within these bounds
            out.append(f"{actor.name}: {effect.attribute.capitalize()} -10, {effect.text}.")
    return out


class LiveHackLog(Log):
    """LiveHack's log part (``rules.roles.log``)."""

    log_styles = {  # a Noon, a Midnight and an Eclipse stand out in the log
        "noon": "bold $warning",
        "midnight": "bold $secondary",
        "eclipse": "bold reverse $warning",
    }
    describe = staticmethod(describe)

    def alerts(self, state: LiveHackEncounter, event: object) -> list[str]:
        if isinstance(event, TurnAdvanced):
            return turn_alerts(state, event)
        return event_alerts(state, event)
