"""The log's lines for what a turn's start or end brings (turn_edges.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.logline import Line, LogEntry, Span, spans

from .events import sheet_of, system_state
from .table import ABILITY_NAMES, MODE_WORD
from .turn_edge_events import (
    SAVE,
    START,
    D20EndingSet,
    D20EndOfTurnSaved,
    D20Perished,
    D20Recharged,
    D20RegenerationStopped,
    D20TurnPassed,
    D20TurnStarted,
    D20TurnStartSet,
    Edge,
    TurnStart,
)
from .turn_edges import recharge_text
from .uses import waiting_words

if TYPE_CHECKING:
    from .events import D20Encounter


def _name(state: D20Encounter, cid: str) -> Span:
    return Span(state.name_of(cid), "name")


def ending_words(state: D20Encounter, edge: Edge) -> str:
    if edge.at == SAVE:
        ability = ABILITY_NAMES.get(edge.ability, edge.ability)
        return f"on a {ability} save DC {edge.dc} at the end of each of its turns"
    when = "start" if edge.at == START else "end"
    whose = "its" if edge.who_id == edge.target_id else f"{state.name_of(edge.who_id)}'s"
    return f"at the {when} of {whose} next turn"


def start_words(start: TurnStart, regeneration: str = "") -> str:
    """What ``start`` brings; ``regeneration``: what its regeneration does this turn, when
    not the hit points it regains (off, or nothing to regain)."""
    parts = []
    if start.ongoing:
        parts.append(f"takes {start.ongoing}")
    if start.regeneration:
        parts.append(regeneration or f"regains {start.regeneration} HP")
    if start.recharge:
        ready = "ready" if start.ready else "spent"
        parts.append(f"recharge {recharge_text(start.recharge)} ({ready})")
    return ", ".join(parts) or "nothing"


def describe(state: D20Encounter, event: Any) -> LogEntry:
    lines: tuple[Line, ...]
    match event:
        case D20EndingSet(edge=edge):
            lines = (
                spans(
                    _name(state, edge.target_id),
                    "'s ",
                    Span(edge.condition, "condition"),
                    f" ends {ending_words(state, edge)}",
                ),
            )
            return LogEntry("condition", lines)
        case D20TurnStartSet(start=start):
            line = spans(
                _name(state, start.combatant_id),
                f" at the start of each of its turns: {start_words(start)}",
            )
            return LogEntry("condition", (line,))
        case D20RegenerationStopped():
            line = spans(
                _name(state, event.combatant_id), " does not regenerate at its next turn's start"
            )
            return LogEntry("condition", (line,))
        case D20TurnPassed():
            return LogEntry("turn", _passed(state, event))
        case D20EndOfTurnSaved():
            return LogEntry("roll", (_saved(state, event),))
        case D20Recharged():
            word = ("recharged", "success") if event.ready else ("not recharged", "failure")
            line = spans(
                _name(state, event.combatant_id),
                f"'s recharge ({recharge_text(event.lowest)}): d6 ",
                Span(str(event.face), "die"),
                " → ",
                Span(word[0], word[1]),
            )
            return LogEntry("roll", (line,))
        case D20Perished():
            line = spans(
                _name(state, event.combatant_id),
                " starts its turn at 0 hit points without regenerating: ",
                Span("dies", "dying"),
            )
            return LogEntry("consequence", (line,))
        case D20TurnStarted():
            line = spans(
                Span("✓ ", "muted"), _name(state, event.combatant_id), "'s turn start dealt"
            )
            return LogEntry("consequence", (line,))
    raise TypeError(f"not a turn's edge event: {event!r}")


def _passed(state: D20Encounter, event: D20TurnPassed) -> tuple[Line, ...]:
    found = system_state(state)
    lines = [
        spans(
            _name(state, e.target_id),
            f" owes a {ABILITY_NAMES.get(e.ability, e.ability)} save DC {e.dc} against ",
            Span(e.condition, "condition"),
        )
        for e in found.edges
        if e.at == SAVE and e.target_id == event.ending_id
    ]
    start = next((s for s in found.starts if s.combatant_id == event.following_id), None)
    following = state.find(event.following_id)
    if start is not None:
        regeneration = ""
        if event.following_id in found.regeneration_off_ids:
            regeneration = "no regeneration (switched off)"
        elif following is not None and sheet_of(following).hp >= sheet_of(following).hp_max:
            regeneration = "nothing to regenerate (at its maximum)"
        words = start_words(start, regeneration)
        lines.append(spans(_name(state, event.following_id), f"'s turn starts: {words}"))
    recharges = waiting_words(sheet_of(following)) if following is not None else ""
    if recharges:  # a stat block's spent actions, each rolled for (uses.py)
        lines.append(spans(_name(state, event.following_id), f"'s turn starts: {recharges}"))
    return tuple(lines) or (spans(_name(state, event.following_id), "'s turn"),)


def _saved(state: D20Encounter, event: D20EndOfTurnSaved) -> Line:
    ability = ABILITY_NAMES.get(event.ability, event.ability)
    mode = f", {MODE_WORD[event.mode]}" if event.mode else ""
    kept = min(event.faces) if event.mode < 0 else max(event.faces)
    faces: list[str | Span] = [Span(str(kept), "die")]
    if len(event.faces) == 2:
        other = event.faces[1] if event.faces[0] == kept else event.faces[0]
        faces.append(Span(f" ({other})", "muted"))
    if event.auto_fail:
        verdict = spans(Span("fails", "failure"), f" outright: {event.condition} stays")
    elif event.success:
        verdict = spans(Span("success", "success"), f": {event.condition} ends")
    else:
        verdict = spans(Span("failure", "failure"), f": {event.condition} stays")
    return spans(
        _name(state, event.target_id),
        f"'s end-of-turn {ability} save{mode} ",
        *faces,
        f" {event.bonus:+d} = ",
        Span(str(event.total), "total"),
        f" vs DC {event.dc}: ",
        *verdict,
    )
