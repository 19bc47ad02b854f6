"""Fight reports: a readable Markdown account, or a JSON document for other tools.

Headless: no Textual. Unless the report is for the GM, it is what players see
(``rules.visibility``): no GM-only combatant, nothing of their rolls, and the combatants
numbered by the report itself (``c1``, ``c2``... as they appear), so no id hints at one.
Both reports are inert (``rules.text``): no character in them can act on the terminal
they are printed to, whatever the save holds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec

from rules.encounter import AnyEncounter, CombatantAdded
from rules.engine import describe
from rules.errors import Rejected
from rules.events import ConditionAdded, ConditionRemoved, TurnAdvanced
from rules.history import History
from rules.hp_view import shown_stats
from rules.logline import Line, plural
from rules.mentions import relabel
from rules.outcome import Summary, luck_text, outcome, summary
from rules.registry import get_system
from rules.text import inert, inert_document, inert_value
from rules.turn_times import history_turns, took, took_line
from rules.visibility import follow, hidden_ids
from tracker.store import storage

EXPORT_VERSION = 1
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|<>#])")


def md(text: str) -> str:
    """Markdown-escape text typed by users, so a name like ``*x*`` stays as typed (and on
    one line: a line break in it could start a heading)."""
    return _MD_SPECIAL.sub(r"\\\1", inert(text))


def _seen(history: History, gm: bool) -> tuple[list[tuple[Any, AnyEncounter]], AnyEncounter]:
    """The events the report's reader may see, each with the state before it, and the
    state they end in, as that reader sees it."""
    if gm:
        return list(history.in_effect()), history.state
    hidden = frozenset(hidden_ids(history.effective_events(), history.state))
    return follow(history.in_effect(), history.state, hidden)


def _summary(
    history: History, pairs: list[tuple[Any, AnyEncounter]], seen: AnyEncounter
) -> Summary:
    """The fight's figures as the report's reader may see them; whether it is over and who
    won are the whole encounter's (a hidden side still standing keeps it going)."""
    return summary(pairs, seen, outcome(history.state))


def initiative_cell(initiative: int | None) -> str:
    return "" if initiative is None else str(initiative)


def rolls(count: int) -> str:
    return plural(count, "roll")


def _outcome_lines(figures: Summary) -> list[str]:
    head = figures.outcome.headline or "The fight is not over"
    lines = [
        "## Outcome",
        "",
        f"{head}: {plural(figures.rounds, 'round')}, {rolls(figures.rolls)} "
        f"(damage in {figures.unit}).",
        "",
    ]
    ranked = any(f.initiative is not None for f in figures.fighters)
    header = ["Combatant", *(["Init"] if ranked else []), "Side", "Out", "Dealt", "Taken", "Rolls"]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for f in figures.fighters:
        out = f"✗ {f.out}" if f.out else "in"
        init = [initiative_cell(f.initiative)] if ranked else []
        cells = [md(f.name), *init, md(f.side), out, str(f.dealt), str(f.taken), str(f.rolls)]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Luck, how the rolls landed against their exact odds (50% is par):", ""]
    lines += [f"- {md(s.side)}: {luck_text(s.luck)}, over {rolls(s.rolls)}" for s in figures.luck]
    return lines


def to_markdown(history: History, gm: bool = False) -> str:
    state = history.state
    system = get_system(state.system)
    lines = [
        f"# {md(state.name)}",
        "",
        f"{system.title} · round {state.round}",
        "",
        "## Round 1",
        "",
    ]
    gained = lost = 0
    pairs, seen = _seen(history, gm)
    for event, before in pairs:
        if isinstance(event, TurnAdvanced):
            if event.round != before.round:
                lines += ["", f"## Round {event.round}", ""]
            if event.actor_id is not None:
                lines += ["", f"### {md(before.name_of(event.actor_id))}'s turn", ""]
            continue
        gained += isinstance(event, ConditionAdded)
        lost += isinstance(event, ConditionRemoved)
        entry = describe(before, event)
        first, *rest = [_md_line(line) for line in entry.lines]
        lines.append(f"- {first.strip()}")
        lines += [f"    - {line.strip()}" for line in rest]
    lines += ["", "## Final state", ""]
    # In the turn order, with each one's initiative once anyone has one (as the pane shows).
    ranked = any(c.initiative is not None for c in seen.combatants)
    header = ["Combatant", *(["Init"] if ranked else []), "Side", *system.stat_columns]
    header.append("Conditions")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for combatant in seen.combatants:
        cells = [
            md(combatant.name),
            *([initiative_cell(combatant.initiative)] if ranked else []),
            md(combatant.side),
            *shown_stats(system, combatant),
            md(", ".join(c.name for c in combatant.conditions)),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"Conditions gained: {gained}; conditions lost: {lost}.", ""]
    lines += [*_outcome_lines(_summary(history, pairs, seen)), ""]
    timed = took(history_turns(history), seen)
    if timed:  # who took longest: the turns the clock timed (the app stamps its records)
        lines += ["Time in turns, the longest first:", ""]
        lines += [f"- {md(took_line(t))}" for t in timed]
        lines.append("")
    return inert_document(re.sub(r"\n{3,}", "\n\n", "\n".join(lines)))


USER_TEXT = {"name", "note", "condition"}


def _md_line(line: Line) -> str:
    # Only what users typed is escaped: the rules' own text (dice in brackets) stays readable.
    # A log line is one line, whatever a span holds (a side's name is part of the rules' text).
    return "".join(md(span.text) if span.style in USER_TEXT else inert(span.text) for span in line)


def to_json(history: History, gm: bool = False) -> dict[str, Any]:
    state = history.state
    pairs, seen = _seen(history, gm)
    events = []
    round_ = 1
    for index, (event, before) in enumerate(pairs):
        if isinstance(event, TurnAdvanced):
            round_ = event.round
        entry = describe(before, event)
        events.append(
            {
                "index": index,
                "round": round_,
                "kind": entry.kind,
                "text": entry.plain,
                "event": _unveiled(msgspec.to_builtins(event), gm),
            }
        )
    report = {
        "export": "combat-tracker",
        "version": EXPORT_VERSION,
        "gm": gm,
        "encounter": state.name,
        "system": state.system,
        "round": state.round,
        "events": events,
        "combatants": [_unveiled(msgspec.to_builtins(c), gm) for c in seen.combatants],
        "outcome": _summary(history, pairs, seen).to_json(),
        "turn_times": [
            {
                "id": t.combatant_id,
                "name": t.name,
                "seconds": round(t.total),
                "turns": t.turns,
                "longest": round(t.longest),
            }
            for t in took(history_turns(history), seen)
        ],
    }
    # An event's text keeps its lines ("— Round 2 —", then "▶ Mara's turn").
    if gm:
        return inert_value(report, lines=True)
    labelled: dict[str, Any] = relabel(report, _labels(pairs, seen))
    return inert_value(labelled, lines=True)


def _unveiled(value: Any, gm: bool) -> Any:
    """A player's report without the sheet of a combatant whose main track is veiled
    (rules.hp_view): its maximum and the like are in it; the outcome's stats say what the
    seat sees of it."""
    if gm or not isinstance(value, dict):
        return value
    if value.get("hp_shown") and "sheet" in value:
        return {**value, "sheet": None}
    return {k: _unveiled(v, gm) for k, v in value.items()}


def _labels(pairs: list[tuple[Any, AnyEncounter]], seen: AnyEncounter) -> dict[str, str]:
    """A player's report's own ids: ``c1``, ``c2``... in the order its combatants appear."""
    order = [e.combatant.id for e, _ in pairs if isinstance(e, CombatantAdded)]
    order += [c.id for c in seen.combatants]
    return {cid: f"c{number}" for number, cid in enumerate(dict.fromkeys(order), 1)}


# --- a report as a file ----------------------------------------------------------------------

SUFFIXES = {"markdown": ".md", "json": ".json"}
MAX_FILE_NAME = 100


def report_text(history: History, fmt: str, gm: bool) -> str:
    """The report in ``fmt`` ("markdown" or "json"), as written to a file or stdout."""
    if fmt == "json":
        return json.dumps(to_json(history, gm), indent=2) + "\n"
    return to_markdown(history, gm)


def report_path(save: Path | None, fmt: str, name: str = "") -> Path:
    """Where the app writes a report: ``name`` (or the save's name, ``-report``) in the save's
    folder, with the format's suffix when it has none; ``Rejected`` for a name that is a
    path, too long, or a save's."""
    if save is None:
        raise Rejected("This encounter is not saved to a file, so it has no saves folder")
    path = save.parent / (check_name(name.strip()) or f"{save.stem}-report")
    return path if path.suffix else path.with_suffix(SUFFIXES[fmt])


def check_name(name: str) -> str:
    """``name`` if a report may be called so: a plain file name, not a save's."""
    if len(name) > MAX_FILE_NAME:
        raise Rejected(f"A report's file name is at most {MAX_FILE_NAME} characters")
    if "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
        raise Rejected(f"{name!r}: give a file name, not a path (reports go beside the save)")
    if storage.owned_by_name(name) is not None:
        raise Rejected(f"{name}: that is a save's name; choose another for the report")
    return name


def write_report(history: History, fmt: str, save: Path | None, name: str = "") -> Path:
    """Write the GM's report beside the save (atomically); the path written."""
    if fmt not in SUFFIXES:
        raise Rejected(f"a report is markdown or json, not {fmt!r}")
    path = report_path(save, fmt, name)
    if path.is_dir():
        raise Rejected(f"{path.name} is a folder; choose another name for the report")
    owned = storage.owned_by_a_save(path, (save,) if save else ())
    if owned is not None:
        raise Rejected(f"{path.name} {owned}; choose another name for the report")
    storage.write_text(path, report_text(history, fmt, gm=True))
    return path
