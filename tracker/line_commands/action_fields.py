"""A system's actions on the line: words fill the fields of the action's dialog."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.encounter import AnyCombatant, AnyEncounter
from rules.errors import Rejected
from rules.forms import Field, Refill
from tracker.dialog_flow import ROLL_AGAIN, DialogFlow
from tracker.line_commands.did_you_mean import (
    check_sheet_word,
    combatant_words,
    meant_a_combatant,
    no_combatant,
    sheet_names,
)
from tracker.line_commands.names import (
    find_combatant,
    handles,
    norm,
    slug,
    suggest,
)
from tracker.line_commands.outcomes import Context, Execute, Outcome, ScreenAction


def people_field(state: AnyEncounter, form_field: Field) -> bool:
    return form_field.kind == "choice" and any(state.find(v) for v, _ in form_field.choices)


def _field_named(fields: Sequence[Field], word: str, title: str) -> Field:
    wanted = norm(word)
    for form_field in fields:
        if wanted in (norm(form_field.key), slug(form_field.label)):
            return form_field
    keys = [norm(f.key) for f in fields]
    raise Rejected(f"{title} has no field '{word}'{suggest(wanted, keys)}")


def _listed_choice(form_field: Field, word: str) -> str | None:
    """The choice ``word`` names by its value or its label."""
    wanted = word.casefold()
    for value, label in form_field.choices:
        if value and wanted in (value.casefold(), slug(value), slug(label), label.casefold()):
            return value
    return None


def _choice_matching(state: AnyEncounter, form_field: Field, word: str) -> str | None:
    listed = _listed_choice(form_field, word)
    if listed is not None:
        return listed
    if people_field(state, form_field):
        person = find_combatant(state, word)
        if person is not None and any(v == person.id for v, _ in form_field.choices):
            return person.id
    return None


def _choice_value(state: AnyEncounter, form_field: Field, word: str) -> str:
    found = _choice_matching(state, form_field, word)
    if found is None:
        allowed = ", ".join(slug(v) or "''" for v, _ in form_field.choices)
        raise Rejected(f"{form_field.label} must be one of: {allowed} (not {word!r})")
    return found


def fill_form(
    state: AnyEncounter,
    fields: Sequence[Field],
    words: Sequence[str],
    title: str,
    refill: Refill | None = None,
) -> dict[str, str]:
    """A dialog's values from words: the dialog's defaults, then what the words say.

    ``+field value`` or ``field=value`` sets a field by its key or label. Any other word
    names a combatant (the next people field that can take it: attacker, then defender...),
    or a choice of a field not set yet (``fortitude``, ``zero``), or else fills the next
    empty text field (a skill such as ``sword``). The fields not named take the defaults
    that follow the first choice named (``refill``: ``:attack imp bram`` on Bram's turn is
    the Imp's attack as the Imp would make it, not as Bram would).
    """
    values = {f.key: f.default for f in fields}
    done: set[str] = set()

    def put(form_field: Field, value: str) -> None:
        values[form_field.key] = value
        done.add(form_field.key)

    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word.startswith("+") and len(word) > 1:
            if index >= len(words):
                raise Rejected(f"{word} needs a value after it")
            named, value = word[1:], words[index]
            index += 1
        elif "=" in word and not word.startswith("="):
            named, value = word.split("=", 1)
        else:
            _place(state, fields, word, title, done, put, values)
            continue
        form_field = _field_named(fields, named, title)
        put(form_field, _choice_value(state, form_field, value) if form_field.choices else value)
    chosen = next((f.key for f in fields if f.key in done and f.choices), None)
    again = refill(values, chosen) if refill is not None and chosen is not None else None
    if again is not None and [f.key for f in again] == [f.key for f in fields]:
        values.update({f.key: f.default for f in again if f.key not in done})
    return values


def _place(
    state: AnyEncounter,
    fields: Sequence[Field],
    word: str,
    title: str,
    done: set[str],
    put: Callable[[Field, str], None],
    values: dict[str, str],
) -> None:
    """Put a word without a field name where it fits (see ``fill_form``); a word close to
    a combatant's name or a name on a sheet, but not it, is refused
    (``tracker.line_commands.did_you_mean``)."""
    open_fields = [f for f in fields if f.key not in done]

    def put_person(person: AnyCombatant) -> None:
        for form_field in open_fields:
            if people_field(state, form_field) and any(
                v == person.id for v, _ in form_field.choices
            ):
                return put(form_field, person.id)
        raise Rejected(f"{title} has no place left for {person.name}")

    person = find_combatant(state, word, loose=False)
    if person is not None:
        return put_person(person)
    for form_field in open_fields:
        if form_field.kind != "choice":
            continue
        if people_field(state, form_field):  # a choice of it that is no one: a whole side
            value = _listed_choice(form_field, word)
        else:
            value = _choice_matching(state, form_field, word)
        if value is not None:
            return put(form_field, value)
    people = [f for f in fields if people_field(state, f)]
    named = [c for f in people if (c := state.find(values[f.key])) is not None]
    if any(f in open_fields for f in people):
        # A first name or a prefix (``orla`` for "Orla Vance"), unless a sheet has that word.
        on_sheets = {slug(n) for c in state.combatants for n in sheet_names(c)}
        if slug(word) not in on_sheets and (person := find_combatant(state, word)) is not None:
            return put_person(person)
        choices = [label for f in fields if f not in people for _v, label in f.choices]
        others = [*choices, *(n for c in state.combatants for n in sheet_names(c))]
        suggestions = combatant_words(state, handles(state))
        if meant_a_combatant(word, suggestions, others):
            raise no_combatant(word, suggestions)
    for form_field in open_fields:
        if form_field.kind == "text" and not form_field.default:
            check_sheet_word(word, named)
            return put(form_field, word)
    # A slip of a choice's name (an action's: bight for bite) says the nearest.
    listed = [slug(v) for f in open_fields if not people_field(state, f) for v, _ in f.choices]
    hint = suggest(slug(word), [v for v in listed if v])
    raise Rejected(f"'{word}' fits no field of {title}{hint or ': name one with +field value'}")


def system_outcome(ctx: Context, action_id: str, words: Sequence[str]) -> Outcome:
    flow = DialogFlow(ctx, action_id)
    fields = flow.fields(ctx.selected)
    if not words and fields:
        return ScreenAction(f"system({action_id!r})")
    values = fill_form(ctx.state, fields, words, flow.action.title, flow.refill)
    command, label, moves = flow.prepare(values)
    leaves = ROLL_AGAIN if flow.rolls else ""
    return Execute(command, label, tuple(moves), leaves, action_id)
