"""The two-key flow: who acts now, against whom, and what applying the result would do.

No Textual here. The roll dialog is preset with the actor and its last target; after the
roll, ``consequence_preview`` shows the log lines the consequence would add, worked out on
the state without changing it, so the user confirms what they see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec import Struct, structs

from rules.dice import ScriptedDice, ScriptExhausted
from rules.encounter import AnyCombatant, AnyEncounter
from rules.engine import apply, decide, describe
from rules.errors import Rejected
from rules.forms import Field
from rules.history import HistoryView
from rules.logline import Line
from rules.outcome import Outcome
from rules.system import RuleSystem


def roll_parties(event: object) -> list[str]:
    """The combatant ids a roll event names, in order (attacker first, then defender).

    Read from the event's own fields: ``x_id`` strings, or parts with a ``combatant_id``.
    """
    found: list[str] = []
    for key in getattr(event, "__struct_fields__", ()):
        value = getattr(event, key)
        if isinstance(value, str) and key.endswith("_id") and value:
            found.append(value)
        elif isinstance(value, Struct) and isinstance(
            party := getattr(value, "combatant_id", None), str
        ):
            found.append(party)
    return found


def in_fight(system: RuleSystem, state: AnyEncounter, combatant: AnyCombatant) -> bool:
    """Still in the fight (``RuleSystem.out_of_fight``): a target worth choosing."""
    return not system.out_of_fight(state, combatant)


def refusal(
    state: AnyEncounter, system: RuleSystem, selected: str | None, result: Outcome
) -> str | None:
    """Why the quick key has nothing to prepare, or None: the fight is over, or the actor is
    out of it."""
    if result.over:
        return f"{result.headline}: nothing left to roll (f: the summary)"
    actor = quick_actor(state, selected)
    why = system.out_of_fight(state, actor) if actor is not None else ""
    if actor is None or not why:
        return None
    if state.current is not None:
        return f"{actor.name} is out of the fight ({why}): n passes its turn"
    return f"{actor.name} is out of the fight ({why}): select someone still in it"


def quick_actor(state: AnyEncounter, selected: str | None) -> AnyCombatant | None:
    """Whose action the quick key prepares: the current actor, else the selected combatant.

    Beer Run and Pain Pool have no turn order, so there it is always the selected one.
    """
    return state.current or state.find(selected)


def last_target(
    history: HistoryView, system: RuleSystem, actor: AnyCombatant, state: AnyEncounter
) -> AnyCombatant | None:
    """The defender of the last roll the actor made (else the last who rolled against it),
    if it is still in the fight; else the first combatant of another side still in it."""
    made: str | None = None
    received: str | None = None
    for event in history.recent_events():
        if not isinstance(event, system.roll_event_types):
            continue
        parties = roll_parties(event)
        if len(parties) < 2 or actor.id not in parties[:2]:
            continue
        if parties[0] == actor.id:
            made = parties[1]
            break
        received = received or parties[0]
    for candidate in (made, received):
        found = state.find(candidate)
        if found is not None and found.id != actor.id and in_fight(system, state, found):
            return found
    return next(
        (
            c
            for c in state.combatants
            if c.side != actor.side and c.id != actor.id and in_fight(system, state, c)
        ),
        None,
    )


def preset(
    state: AnyEncounter, fields: Sequence[Field], people: Sequence[AnyCombatant]
) -> dict[str, str]:
    """Values putting the actor, then its target, into the form's first two people fields
    (attacker and defender, hero and challenge...), each into one that offers them."""
    pair = [f for f in fields if f.kind == "choice" and any(state.find(v) for v, _ in f.choices)][
        :2
    ]
    out: dict[str, str] = {}
    for person in people:
        for form_field in pair:
            if form_field.key not in out and any(v == person.id for v, _ in form_field.choices):
                out[form_field.key] = person.id
                break
    return out


def with_defaults(fields: Sequence[Field], values: Mapping[str, str]) -> list[Field]:
    """The fields with some defaults replaced, so a dialog opens filled in."""
    return [structs.replace(f, default=values[f.key]) if f.key in values else f for f in fields]


def without_gm_choices(system: RuleSystem, fields: Sequence[Field]) -> list[Field]:
    """The fields as a player's dialog offers them: without the choices that are the GM's
    approval (``RuleSystem.gm_choice``); a field left with one choice keeps it."""
    out = []
    for f in fields:
        kept = tuple((v, label) for v, label in f.choices if not system.gm_choice(f.key, v))
        if len(kept) == len(f.choices) or not kept:
            out.append(f)
            continue
        default = f.default if any(v == f.default for v, _ in kept) else kept[0][0]
        out.append(structs.replace(f, choices=kept, default=default))
    return out


def consequence_preview(state: AnyEncounter, system: RuleSystem) -> tuple[object, list[Line]]:
    """The consequence command and the log lines it would add; raises ``Rejected``.

    Worked out on the state as it is (nothing is committed); a consequence that needs dice
    cannot be shown in advance and gets a plain line instead.
    """
    command = system.consequence_command(state)
    try:
        events = decide(state, command, ScriptedDice([]))
    except ScriptExhausted:
        return command, []
    lines: list[Line] = []
    for event in events:
        lines += describe(state, event).lines
        state = apply(state, event)
    return command, lines


def roll_preset(history: HistoryView, system: RuleSystem, selected: str | None) -> dict[str, str]:
    """The roll dialog's values for the quick key: the actor, then its last target."""
    state = history.state
    actor = quick_actor(state, selected)
    if actor is None:
        return {}
    try:
        fields = system.action_form(state, "roll", selected)
    except Rejected:
        return {}  # the dialog itself says why it cannot open
    target = last_target(history, system, actor, state)
    return preset(state, fields, [actor, *([target] if target else [])])
