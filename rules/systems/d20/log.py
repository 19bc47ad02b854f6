"""Generic d20's log lines and notifications: every die and number of a roll spelled out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.encounter import CombatantAdded, CombatantEdited
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.logline import Line, LogEntry, Span, plural, spans
from rules.roles.log import Log

from . import regeneration
from .apply import apply
from .condition_names import srd_name
from .cover import WORD
from .damage_parts import parts_of
from .damage_said import damage_notes
from .damage_types import plain_type, type_note
from .economy import WORDS, spent_line
from .events import (
    ACTION,
    FREE,
    LEGENDARY,
    TARGETS_DEAD,
    D20ActionUsed,
    D20Attacked,
    D20ConcentrationEnded,
    D20ConcentrationSaved,
    D20ConcentrationStarted,
    D20Damaged,
    D20DeathSaved,
    D20Exhausted,
    D20Healed,
    D20Immune,
    D20LegendaryUsed,
    D20ReactionUsed,
    D20Rested,
    D20Saved,
    D20Settled,
    D20Stabilised,
    sheet_of,
    system_state,
)
from .exhaustion import DEATH, WHAT, rest_line, rested
from .fortitude import kinds_of
from .sheet import D20Sheet
from .standing import immune
from .table import ABILITY_NAMES, INCAPACITATING, MODE_WORD
from .taken import dealt
from .traits import RELENTLESS, UNDEAD_FORTITUDE, regeneration_of
from .turn_edge_events import D20Perished
from .wounds import massive

if TYPE_CHECKING:
    from .events import D20Encounter

STYLES = {"critical": "bold reverse $warning", "dying": "bold $error"}
_OUTCOME = {
    "miss": ("misses", "failure"),
    "hit": ("hits", "success"),
    "critical": ("CRITICAL HIT", "critical"),
}


def _name(state: D20Encounter, cid: str | None) -> Span:
    return Span(state.name_of(cid), "name")


def _faces(faces: tuple[int, ...], natural: int) -> list[str | Span]:
    if len(faces) == 1:
        return [Span(str(faces[0]), "die")]
    kept = [Span(str(natural), "die")]
    other = faces[1] if faces[0] == natural else faces[0]
    return [*kept, Span(f" ({other})", "muted")]


def describe(state: D20Encounter, event: Any) -> LogEntry:
    match event:
        case D20Attacked():
            head = _attacked(state, event)
            return LogEntry("roll", (*head, *_spent(state, event, event.attacker_id)))
        case D20Saved():
            head = _saved(state, event)
            return LogEntry("roll", (*head, *_spent(state, event, event.source_id)))
        case D20Damaged():
            held = _at_zero(state, event)
            return LogEntry("consequence", (_damaged(state, event), *held))
        case D20Settled():
            return LogEntry("consequence", (spans(Span("✓ ", "muted"), "Dealt"),))
        case D20Immune():
            line = spans(_name(state, event.target_id), f" is immune to {event.condition}")
            return LogEntry("consequence", (line,))
        case D20DeathSaved():
            line = spans(
                _name(state, event.combatant_id),
                "'s death save: ",
                Span(str(event.face), "die"),
                " → ",
                Span(event.result, "tier"),
                f" ({plural(event.successes, 'success')}, {plural(event.failures, 'failure')})",
            )
            ends = []
            if event.result == "revived":
                # A seat that sees its hit points as a band (rules.hp_view) reads no number.
                found = state.find(event.combatant_id)
                back = " is back up" if found and found.hp_shown else " is back with 1 hit point"
                ends.append(spans(_name(state, event.combatant_id), back))
            elif event.failures >= 3:
                ends.append(spans(_name(state, event.combatant_id), Span(" dies", "dying")))
            elif event.successes >= 3:
                ends.append(spans(_name(state, event.combatant_id), " is stable"))
            return LogEntry("roll", (line, *ends))
        case D20ConcentrationSaved():
            verdict = ("keeps", "success") if event.success else ("loses", "failure")
            line = spans(
                _name(state, event.combatant_id),
                " Con save ",
                *_faces(event.faces, event.faces[0]),
                f" {event.bonus:+d} = ",
                Span(str(event.total), "total"),
                f" vs DC {event.dc}: ",
                Span(verdict[0], verdict[1]),
                f" concentration on {event.effect}",
            )
            return LogEntry("roll", (line,))
        case D20ConcentrationStarted():
            line = spans(_name(state, event.combatant_id), f" concentrates on {event.effect}")
            return LogEntry("consequence", (line,))
        case D20ConcentrationEnded():
            why = _why_unfocused(state, event)
            line = spans(
                _name(state, event.combatant_id), f" stops concentrating on {event.effect} ({why})"
            )
            return LogEntry("consequence", (line,))
        case D20Healed():
            word = "temporary hit points" if event.temporary else "hit points"
            shown = [Span(" ("), *event.shown, Span(")")] if event.shown else []
            # One's own (a troll's regeneration, a second wind): "Troll regains 10", not
            # "Troll gives Troll 10".
            whom = (
                [" regains "]
                if event.healer_id == event.target_id
                else [" gives ", _name(state, event.target_id), " "]
            )
            line = spans(
                _name(state, event.healer_id),
                *whom,
                Span(str(event.amount), "total"),
                f" {word}",
                *shown,
                _how(event.usage),
            )
            return LogEntry("consequence", (line, *_spent(state, event, event.healer_id)))
        case D20Stabilised():
            spent_now = _spent(state, event, event.medic_id)
            return LogEntry("roll", (_stabilised(state, event), *spent_now))
        case D20Exhausted():
            line = spans(
                _name(state, event.combatant_id),
                f": exhaustion {event.before} → ",
                Span(WHAT[str(event.level)], "total"),
            )
            return LogEntry("consequence", (line,))
        case D20Rested():
            lines = [spans("Long rest")]
            for cid in event.combatant_ids:
                found = state.find(cid)
                if found is not None:
                    before = sheet_of(found)
                    said = rest_line(before, rested(before), bool(found.hp_shown))
                    lines.append(spans("  ", _name(state, cid), f": {said or 'nothing to regain'}"))
            return LogEntry("consequence", tuple(lines))
        case D20ReactionUsed():
            line = spans(_name(state, event.combatant_id), f" uses its reaction: {event.what}")
            return LogEntry("roll", (line,))
        case D20ActionUsed():
            line = spans(
                _name(state, event.combatant_id), f" uses {event.action}{_how(event.usage)}"
            )
            return LogEntry("roll", (line, *_spent(state, event, event.combatant_id)))
        case D20LegendaryUsed():
            cost = f" (costs {event.cost})" if event.cost > 1 else ""
            line = spans(
                _name(state, event.combatant_id), f" takes a legendary action: {event.what}{cost}"
            )
            return LogEntry("roll", (line,))
    raise TypeError(f"not a Generic d20 event: {event!r}")


WHY_UNFOCUSED = {
    "failed": "the save failed",
    "replaced": "a new effect",
    "down": "down",
    "ended": "ended",
    "dying": "down",
    "stable": "down",
    "dead": "dead",
    "incapacitated": "incapacitated",
}


def _why_unfocused(state: D20Encounter, event: D20ConcentrationEnded) -> str:
    """Why a concentration ended, in a few words: a condition that includes incapacitated
    says so ("stunned: incapacitated"). A dead target is not named: it may be one a player's
    seat does not see."""
    if event.why == TARGETS_DEAD:
        held = {h.target_id for h in system_state(state).held if h.source_id == event.combatant_id}
        return "its targets are dead" if len(held) > 1 else "its target is dead"
    if event.why in WHY_UNFOCUSED:
        return WHY_UNFOCUSED[event.why]
    return f"{event.why}: incapacitated" if event.why in INCAPACITATING else event.why


def _how(usage: str, of: str = "", cost: int = 1) -> str:
    """A roll's use, but the action's (the commonest, said once spent: ``_spent``); what made
    it (a Multiattack, a legendary action: stat_actions.py) and a legendary cost past 1."""
    said = WORDS.get(usage, "") if usage not in (ACTION, FREE) else ""
    said = ": ".join(w for w in (said.lower(), of) if w)
    if cost > 1 and usage == LEGENDARY:
        said += f", costs {cost}"
    return f" ({said})" if said else ""


def _spent(state: D20Encounter, event: Any, who: str) -> tuple[Line, ...]:
    """The line saying the roll spends the action or the bonus action (economy.py)."""
    said = spent_line(state, apply(state, event), who)
    return (spans(Span(f"  {said}", "muted")),) if said else ()


def _attacked(state: D20Encounter, event: D20Attacked) -> tuple[Line, ...]:
    word, style = _OUTCOME[event.outcome]
    how = _how(event.usage, event.of, event.cost)
    mode = f", {MODE_WORD[event.mode]}" if event.mode else ""
    head = spans(
        _name(state, event.attacker_id),
        f"'s {event.attack}{how} at ",
        _name(state, event.target_id),
        f"{mode}: ",
        *_faces(event.faces, event.natural),
        f" {event.bonus:+d} = ",
        Span(str(event.total), "total"),
        f" vs AC {event.ac}{_cover_words(event.cover)}: ",
        Span(word, style),
    )
    lines = [head]
    if event.reasons:
        shown = ", ".join(event.reasons)
        lines.append(spans(Span(f"  ({shown})", "muted")))
    if event.outcome != "miss":
        lines.append(
            spans(
                "  ",
                Span(event.damage, "name"),
                ": ",
                *event.damage_shown,
                " = ",
                Span(f"{event.damage_total} {event.damage_type}".rstrip(), "total"),
            )
        )
    return tuple(lines)


def _cover_words(cover: int) -> str:
    return f" ({WORD[cover]}, +{cover})" if cover in WORD else ""


def _stabilised(state: D20Encounter, event: D20Stabilised) -> Line:
    target = _name(state, event.target_id)
    verdict = (
        spans(target, Span(" is stable", "success"))
        if event.success
        else spans(Span("fails", "failure"), ": ", target, " is still dying")
    )
    if event.spell:
        return spans(_name(state, event.medic_id), " casts spare the dying on ", target, ": ",
                     *verdict)  # fmt: skip
    mode = f", {MODE_WORD[event.mode]}" if event.mode else ""
    natural = min(event.faces)
    return spans(
        _name(state, event.medic_id),
        " tends ",
        target,
        f": Wisdom (Medicine){mode} ",
        *_faces(event.faces, natural),
        f" {event.bonus:+d} = ",
        Span(str(event.total), "total"),
        " vs DC 10: ",
        *verdict,
    )


def _saved(state: D20Encounter, event: D20Saved) -> tuple[Line, ...]:
    ability = ABILITY_NAMES.get(event.ability, event.ability)
    lines = [
        spans(
            _name(state, event.source_id),
            f"'s {event.effect}{', on a hit' if event.hit else ''}"
            f"{_how(event.usage, event.of, event.cost)}: {ability} save DC ",
            Span(str(event.dc), "total"),
            _cover_words(event.cover),
            " (magical)" if event.magical else "",
        )
    ]
    for roll in event.rolls:
        verdict = ("saves", "success") if roll.success else ("fails", "failure")
        natural = max(roll.faces) if roll.mode > 0 else min(roll.faces)
        said = (
            [Span("fails outright", "failure")]  # no roll: the verdict says it once
            if roll.auto_fail
            else [
                *_faces(roll.faces, natural),
                f" {roll.bonus:+d} = ",
                Span(str(roll.total), "total"),
                " ",
                Span(*verdict),
            ]
        )
        if roll.mode and not roll.auto_fail:  # Magic Resistance; restrained, exhaustion
            said.append(Span(f" ({MODE_WORD[roll.mode]})", "muted"))
        lines.append(spans("  ", _name(state, roll.target_id), ": ", *said))
    if event.damage:
        half = ", half on a save" if event.half else ", none on a save"
        lines.append(
            spans(
                "  ",
                Span(event.damage, "name"),
                ": ",
                *event.damage_shown,
                " = ",
                Span(f"{event.damage_total} {event.damage_type}".rstrip(), "total"),
                half,
            )
        )
    if event.condition:
        lines.append(spans(f"  on a failure: {event.condition}"))
    return tuple(lines)


def _damaged(state: D20Encounter, event: D20Damaged) -> Line:
    target = state.find(event.target_id)
    parts: list[str | Span] = [
        _name(state, event.target_id),
        " takes ",
        Span(f"{event.amount}", "total"),
        f" {event.damage_type}".rstrip(),
    ]
    parts.append(damage_notes(event))
    # A seat that sees the target's hit points as a band (rules.hp_view) reads no number.
    if target is not None and not target.hp_shown:
        before = sheet_of(target)
        after = dealt(before, event)
        parts.append(f": {before.hp} → {after.hp} HP")
        if after.hp_max != before.hp_max:
            parts.append(f", maximum {before.hp_max} → {after.hp_max}")
        if before.temp_hp != after.temp_hp:
            parts.append(f" (temp {before.temp_hp} → {after.temp_hp})")
        if after.dead and not before.dead:
            why = f": {why_dead(before, event.amount)}" if before.hero else ""
            if not after.hp_max:
                why = ": its hit point maximum is 0"
            parts.append(Span(f" dead{why}" if before.hero or why else " dies", "dying"))
        elif after.down and not before.down:
            parts.append(Span(" dying" if after.hero else " down", "dying"))
        elif before.down and after.death_failures != before.death_failures:
            parts.append(f", death save failures {after.death_failures}")
    return spans(*parts)


def _at_zero(state: D20Encounter, event: D20Damaged) -> tuple[Line, ...]:
    """Undead Fortitude's save under the damage that asked it (fortitude.py), or Relentless
    spent (relentless.py)."""
    if event.relentless:
        return (spans(f"  {RELENTLESS}: 1 hit point instead of 0, once until a long rest"),)
    save = event.fortitude
    if save is None:
        return ()
    target = state.find(event.target_id)
    shown = target is not None and not target.hp_shown
    mode = f", {MODE_WORD[save.mode]}" if save.mode else ""
    made = "stays at 1 hit point" if shown else "stays up"
    verdict = Span(made, "success") if save.success else Span("fails", "failure")
    return (
        spans(
            f"  {UNDEAD_FORTITUDE}: Con save{mode} ",
            *_faces(save.faces, save.total - save.bonus),
            f" {save.bonus:+d} = ",
            Span(str(save.total), "total"),
            f" vs DC {event.fortitude_dc}: ",
            verdict,
        ),
    )


def why_dead(hero: D20Sheet, amount: int) -> str:
    """Why ``amount`` damage kills a hero: massive damage (the numbers that make it so), or
    its third death save failure."""
    past = massive(hero, amount)
    if not past:
        return "three death save failures"
    where = "past 0" if hero.hp > 0 else "at 0 hit points"
    return f"massive damage, {past} {where} is at least its maximum of {hero.hp_max}"


def alerts(state: D20Encounter, event: Any) -> list[str]:
    """A critical hit, a hero dropping or dying (and why), a monster slain; a damage type of
    the table's own a sheet just brought (the first, in one line). How a condition just
    added is read is ``condition_note``'s (the system's ``notices`` add it)."""
    match event:
        case D20Attacked(outcome="critical"):
            return [f"Critical hit on {state.name_of(event.target_id)}!"]
        case D20Damaged():
            target = state.find(event.target_id)
            if target is None or target.hp_shown:
                return []  # a veiled target's numbers are not its own: hp_view.fallen says it
            before = sheet_of(target)
            after = dealt(before, event)
            if after.dead and not before.dead:
                why = f": {why_dead(before, event.amount)}" if before.hero else ""
                if not after.hp_max:
                    why = ": its hit point maximum is 0"
                return [f"{target.name} is dead{why}"]
            if after.down and not before.down:
                off = bool(regeneration.stopped(target, kinds_of(event), event.amount)) or (
                    target.id in system_state(state).regeneration_off_ids
                )
                return [f"{target.name} drops to 0 hit points: {_down_words(after, off)}"]
            if event.fortitude is not None and event.fortitude.success:
                return [f"{target.name} stays up at 1 hit point: {UNDEAD_FORTITUDE}"]
            if event.relentless:
                return [f"{target.name} stays up at 1 hit point: {RELENTLESS}"]
        case D20Perished():
            name = state.name_of(event.combatant_id)
            return [f"{name} is dead: it started its turn at 0 hit points without regenerating"]
        case D20DeathSaved(failures=failures) if failures >= 3:
            return [f"{state.name_of(event.combatant_id)} dies"]
        case ConditionAdded() if (found := state.find(event.combatant_id)) is not None and immune(
            found, event.condition.name
        ):  # laid by hand: the GM's call, said
            return [f"{found.name} is immune to {srd_name(event.condition.name)}: laid as asked"]
        case D20Exhausted(level=level) if level >= DEATH:
            return [f"{state.name_of(event.combatant_id)} is dead: exhaustion {level}"]
        case CombatantAdded() | CombatantEdited() if isinstance(event.combatant.sheet, D20Sheet):
            was = state.find(event.combatant.id)
            had = _types(was.sheet) if was and isinstance(was.sheet, D20Sheet) else set()
            fresh = sorted(_types(event.combatant.sheet) - had)
            return [note for kind in fresh if (note := type_note(kind))][:1]
    return []


def _down_words(sheet: D20Sheet, off: bool) -> str:
    """What 0 hit points leave: a hero dying, a troll down until its turn starts (``off``:
    its regeneration off for that turn, the blow's own type or an earlier one's)."""
    found = regeneration_of(sheet.traits)
    if sheet.hero or found is None:
        return "dying"
    if off:
        return "down, its regeneration off: it dies as its turn starts"
    stops = f" unless it takes {' or '.join(found.stops)} first" if found.stops else ""
    return f"down; it regenerates as its turn starts{stops}"


def _types(sheet: D20Sheet) -> set[str]:
    """The damage types a sheet names: its damage's and its defences'."""
    try:
        kinds = {part.kind for part in parts_of(sheet.damage, sheet.damage_type)}
    except Rejected:  # a damage an older save kept that no longer reads: its defences still do
        kinds = set()
    defences = (*sheet.resistances, *sheet.vulnerabilities, *sheet.immunities)
    return kinds | {plain_type(k) for k in defences}


class D20Log(Log):
    """Generic d20's notifications and styles; its lines (``describe``) are told by three
    modules, which ``system.py`` picks among (``rules.roles.log``)."""

    log_styles = STYLES
    alerts = staticmethod(alerts)
