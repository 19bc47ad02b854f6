"""The dialogs of what a turn's start or end brings (turn_edges.py): how a condition ends
(a save at the end of each of its bearer's turns, or the start or end of someone's next
turn), what a combatant's turn starts with, and regeneration switched off for a turn."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.roles.conditions import Conditions

from .events import sheet_of, system_state
from .sheet import MAX_DC, MAX_HP
from .table import ABILITIES, ABILITY_NAMES
from .turn_edge_events import (
    END,
    SAVE,
    START,
    D20RegenerationOff,
    D20SetEnding,
    D20SetTurnStart,
    TurnStart,
)
from .turn_edges import DIE, recharge_text

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

EDGE_ACTIONS = ("ending", "turnstart", "regenoff")
ENDS = (
    (SAVE, "A save at the end of each of its turns"),
    (END, "At the end of the next turn of"),
    (START, "At the start of the next turn of"),
)
READY = (("ready", "Ready"), ("spent", "Spent: rolled for at its turn's start"))
_RECHARGE = re.compile(r"\s*([1-6])\s*(?:-\s*6\s*)?")


def _people(state: D20Encounter) -> tuple[tuple[str, str], ...]:
    return tuple((c.id, c.name) for c in state.combatants)


def edge_form(state: D20Encounter, action: str, actor: D20Combatant) -> list[Field]:
    everyone = _people(state)
    if action == "ending":
        return [
            Field(key="who", label="Who", kind="choice", default=actor.id, choices=everyone),
            Field(
                key="condition",
                label="Condition",
                kind="text",
                default=actor.conditions[0].name if actor.conditions else "",
                help="laid now if it is not on: paralyzed, frightened...",
            ),
            Field(key="ends", label="Ends", kind="choice", default=SAVE, choices=ENDS),
            Field(
                key="whose",
                label="Whose turn",
                kind="choice",
                default=actor.id,
                choices=everyone,
                help="a turn's start or end: its next turn",
            ),
            *save_fields("wis"),
        ]
    if action == "turnstart":
        found = _start_of(state, actor)
        return [
            Field(key="who", label="Who", kind="choice", default=actor.id, choices=everyone),
            Field(
                key="ongoing",
                label="Ongoing damage",
                kind="text",
                default=found.ongoing,
                help="dice and a type at the start of each of its turns: 1d10 fire",
            ),
            Field(
                key="regeneration",
                label="Regeneration",
                default=str(found.regeneration),
                help="hit points regained at the start of each of its turns (0: none)",
            ),
            Field(
                key="recharge",
                label="Recharge",
                kind="text",
                default=recharge_text(found.recharge) if found.recharge else "",
                help="a d6 at its turn's start while spent: 5-6, or 6 (empty: none)",
            ),
            Field(
                key="ready",
                label="Its recharge ability",
                kind="choice",
                default="ready" if found.ready else "spent",
                choices=READY,
            ),
        ]
    regenerating = [
        c for c in state.combatants if _start_of(state, c).regeneration and not sheet_of(c).dead
    ]
    if not regenerating:
        raise Rejected("Nobody regenerates (Start of turn sets it)")
    first = next((c for c in regenerating if c.id == actor.id), regenerating[0])
    return [
        Field(
            key="who",
            label="Who",
            kind="choice",
            default=first.id,
            choices=tuple((c.id, c.name) for c in regenerating),
            help="no regeneration at the start of its next turn (fire, acid)",
        )
    ]


def _start_of(state: D20Encounter, who: D20Combatant) -> TurnStart:
    found = system_state(state).starts
    return next((s for s in found if s.combatant_id == who.id), TurnStart(who.id))


def parse_recharge(text: str) -> int:
    """ "5-6" as 5, "6" as 6, "" as 0 (none)."""
    if not text.strip():
        return 0
    found = _RECHARGE.fullmatch(text)
    if found is None:
        raise Rejected(f"Recharge: the faces of a d{DIE} that recharge, like 5-6 or 6")
    return int(found.group(1))


def edge_command(
    state: D20Encounter, action: str, values: Mapping[str, str], fields: Mapping[str, Field]
) -> Any:
    who = choice_value(values, fields["who"])
    if action == "ending":
        return D20SetEnding(
            who,
            values.get("condition", ""),
            choice_value(values, fields["ends"]),
            choice_value(values, fields["whose"]),
            choice_value(values, fields["ability"]),
            int_value(values, "dc", "DC", 13, MAX_DC, 1),
        )
    if action == "turnstart":
        return D20SetTurnStart(
            who,
            values.get("ongoing", ""),
            int_value(values, "regeneration", "Regeneration", 0, MAX_HP, 0),
            parse_recharge(values.get("recharge", "")),
            choice_value(values, fields["ready"]) == "ready",
        )
    return D20RegenerationOff(who)


# --- the core's condition dialog (``c``) and ``:cond``: a save or someone's turn ends it ------

LASTS = (
    ("save-ends", "Save ends: a save at the end of each of its turns"),
    ("end-of", "Until the end of the next turn of (Whose turn)"),
    ("start-of", "Until the start of the next turn of (Whose turn)"),
)
AT = {"save-ends": SAVE, "end-of": END, "start-of": START}
LINE_AT = {"save": SAVE, "end": END, "start": START}
LINE_USAGE = ("save ABILITY DC", "end NAME", "start NAME")  # as the `:cond` hint shows them


def condition_endings(state: D20Encounter) -> tuple[tuple[tuple[str, str], ...], list[Field]]:
    current = state.current or (state.combatants[0] if state.combatants else None)
    return LASTS, [
        Field(
            key="whose",
            label="Whose turn",
            kind="choice",
            default=current.id if current is not None else "",
            choices=_people(state),
            help="until the start or end of its next turn",
        ),
        *save_fields("wis", "save ends: "),
    ]


def save_fields(ability: str, said: str = "") -> list[Field]:
    """A save's two fields, its ability (``ability`` first) and its DC (13): every dialog
    that asks for a save (``said``: what its help says the save is for)."""
    return [
        Field(
            key="ability",
            label="Save",
            kind="choice",
            default=ability,
            choices=tuple((a, ABILITY_NAMES[a]) for a in ABILITIES),
            help=f"{said}the ability" if said else "",
        ),
        Field(key="dc", label="DC", default="13", help=f"{said}the DC" if said else ""),
    ]


def condition_command(
    state: D20Encounter, combatant_id: str, name: str, values: Mapping[str, str]
) -> D20SetEnding | None:
    at = AT.get(values.get("duration", ""))
    if at is None:
        return None
    fields = {f.key: f for f in condition_endings(state)[1]}
    return D20SetEnding(
        combatant_id,
        name,
        at,
        choice_value(values, fields["whose"]) if at != SAVE else "",
        choice_value(values, fields["ability"]),
        int_value(values, "dc", "DC", 13, MAX_DC, 1),
    )


def condition_line(
    state: D20Encounter, combatant_id: str, name: str, words: Sequence[str]
) -> D20SetEnding | None:
    """``save wis 13``, ``end Orla``, ``start Goblin`` (anything else: the core's)."""
    at = LINE_AT.get(words[0].casefold()) if len(words) >= 2 else None
    if at is None or (at == END and words[1].casefold() == "of"):  # "end of round": the core's
        return None
    if at != SAVE:
        return D20SetEnding(combatant_id, name, at, _whose(state, " ".join(words[1:])).id)
    ability = words[1][:3].casefold()
    if len(words) != 3 or ability not in ABILITIES or not words[2].isdigit():
        raise Rejected("save ends: cond NAME CONDITION save ABILITY DC, like save wis 13")
    return D20SetEnding(combatant_id, name, SAVE, "", ability, int(words[2][:3]))


def _whose(state: D20Encounter, typed: str) -> D20Combatant:
    wanted = typed.casefold()
    exact = [c for c in state.combatants if wanted in (c.name.casefold(), c.id)]
    found = exact or [c for c in state.combatants if c.name.casefold().startswith(wanted)]
    if len(found) != 1:
        raise Rejected(f"whose turn: no one combatant is called {typed!r}")
    return found[0]


class D20Endings(Conditions):
    """The ways Generic d20's conditions end beyond the core's (``rules.roles.conditions``)."""

    condition_endings = staticmethod(condition_endings)
    condition_command = staticmethod(condition_command)
    condition_line = staticmethod(condition_line)

    def condition_line_endings(self) -> tuple[str, ...]:
        return LINE_USAGE
