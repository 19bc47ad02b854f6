"""The words that could end a typed line where it stands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rules.encounter import AnyCombatant
from rules.errors import Rejected
from rules.forms import Field
from tracker.line_commands.action_fields import people_field
from tracker.line_commands.did_you_mean import sheet_names
from tracker.line_commands.names import (
    find_combatant_quiet,
    handles,
    norm,
    quote,
    slug,
)
from tracker.line_commands.order import WHERE
from tracker.line_commands.outcomes import Context
from tracker.line_commands.resolve import DURATION_WORDS, REPORT_FORMATS, condition_names
from tracker.line_commands.table import named_as, offered_names
from tracker.line_commands.turns import (
    CLOCK_WORDS,
    EACH_ROUND,
    SWITCH,
    hp_words,
    surprise_words,
)
from tracker.store.storage import slug as file_slug

DICE = ("d4", "d6", "d8", "d10", "d12", "d20")


@dataclass(frozen=True)
class Completion:
    """Words that fit the word being typed, which starts at ``start`` in the line."""

    start: int
    options: list[str] = field(default_factory=list)

    def lines(self, text: str) -> list[str]:
        return [text[: self.start] + option for option in self.options]


def _starting(word: str, options: Iterable[str]) -> list[str]:
    wanted = word.casefold()
    return list(dict.fromkeys(o for o in options if o and o.casefold().startswith(wanted)))


def sheet_words(combatant: AnyCombatant) -> list[str]:
    """Names on a sheet worth completing (skills, weapons, boons...): any named part."""
    return [quote(name) for name in sheet_names(combatant)]


def _form_options(ctx: Context, action_id: str, before: Sequence[str], word: str) -> list[str]:
    try:
        fields = ctx.system.action_form(ctx.state, action_id, ctx.selected)
    except Rejected:
        return []
    previous = before[-1] if before else ""
    if word.startswith("+"):
        return ["+" + norm(f.key) for f in fields]
    target: Field | None = None
    if "=" in word:
        target = next((f for f in fields if norm(f.key) == norm(word.split("=", 1)[0])), None)
        prefix = word.split("=", 1)[0] + "="
        return [prefix + o for o in _value_options(ctx, target)] if target else []
    if previous.startswith("+"):
        target = next((f for f in fields if norm(f.key) == norm(previous[1:])), None)
        return _value_options(ctx, target) if target else []
    people = [h for h, _ in handles(ctx.state)]
    choices = [
        slug(v)
        for f in fields
        if f.kind == "choice" and not people_field(ctx.state, f)
        for v, _ in f.choices
        if v
    ]
    actor = next((c for c in (find_combatant_quiet(ctx.state, w) for w in before) if c), None)
    actor = actor or ctx.state.current or ctx.state.find(ctx.selected)
    return [*people, *choices, *(sheet_words(actor) if actor else [])]


def _value_options(ctx: Context, target: Field) -> list[str]:
    if people_field(ctx.state, target):
        ids = {v for v, _ in target.choices}
        return [h for h, c in handles(ctx.state) if c.id in ids]
    if target.choices:
        return [slug(v) for v, _ in target.choices if v]
    if target.kind == "text" and any(w in target.key for w in ("dic", "die", "pool")):
        return list(DICE)
    return []


def complete(text: str, ctx: Context) -> Completion:
    """The words that could end the line where it stands (the cursor at its end)."""
    line = text.removeprefix(":")
    offset = len(text) - len(line)
    start = max(line.rfind(" "), line.rfind("\t")) + 1
    word = line[start:]
    before = line[:start].split()
    if not before:
        return Completion(offset + start, _starting(word, offered_names(ctx)))
    try:
        named = named_as(ctx, before[0])
    except Rejected:
        return Completion(offset + start)
    args = before[1:]
    options: list[str] = []
    if named.kind == "system":
        options = _form_options(ctx, named.key, args, word)
    elif named.kind == "builtin":
        options = _builtin_options(ctx, named.key, args, word)
        if named.shares:  # the system action of that name takes the words the built-in does not
            options += _form_options(ctx, named.shares, args, word)
    return Completion(offset + start, _starting(word, options))


def _builtin_options(ctx: Context, name: str, args: Sequence[str], word: str) -> list[str]:
    people = [h for h, _ in handles(ctx.state)]
    match name, len(args):
        case (("attack" | "roll"), _):
            return _form_options(ctx, "roll", args, word)
        case (("cond" | "uncond" | "wound" | "heal"), 0):
            return people
        case "export", 0:
            return list(REPORT_FORMATS)
        case "cond", 1:
            return [quote(n) for n in condition_names(ctx)]
        case "cond", 2:
            endings = [e.split()[0] for e in ctx.system.condition_line_endings()]
            return [*DURATION_WORDS, *endings]
        case "uncond", 1:
            person = find_combatant_quiet(ctx.state, args[0])
            return [quote(c.name) for c in person.conditions] if person else []
        case "add", 0:
            return _library_words(ctx)
        case "add", 1:
            return list(dict.fromkeys(c.side for c in ctx.state.combatants))
        case "keep", 0:
            return people
        case "init", 0:
            return ["roll", "sort", EACH_ROUND, *people]
        case "init", 1 if args[0].casefold() == EACH_ROUND:
            return list(SWITCH)
        case (("delay" | "ready" | "act"), 0):
            return people
        case "clock", 0:
            return list(CLOCK_WORDS)
        case "surprise", _:
            return surprise_words(ctx, args)
        case "hp", _:
            return hp_words(ctx, args)
        case "init", 1 if args[0].casefold() == "roll":
            return ["each", *DICE]
        case "init", 1:
            return list(DICE)
        case "order", 0:
            return people
        case "order", 1:
            return list(WHERE)
        case "order", 2:
            return people
        case "help", 0:
            return offered_names(ctx)
    return []


def _library_words(ctx: Context) -> list[str]:
    if ctx.library is None:
        return []
    return [file_slug(e.name) for e in ctx.library.of(ctx.system.name)]
