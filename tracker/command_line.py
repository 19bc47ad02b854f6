"""The `:` command line: a typed line becomes what to do, and what is typed can be completed.

No Textual here: ``resolve`` turns a line into an outcome (a rules command for the session,
undo/redo steps, or a screen action such as a dialog to open), ``complete`` lists the words
that fit where the line ends, and ``hint`` says how the command being typed is used. A
system's actions are filled from the same form fields as their dialogs, so every system works
without code of its own here. Any mistake raises ``Rejected`` with one line for the user.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rules import plain_dice, solo
from rules.commands import (
    AddCombatant,
    AddCombatants,
    AddCondition,
    AddNote,
    NextTurn,
    RemoveCondition,
    RollDice,
)
from rules.conditions import Duration
from rules.encounter import Combatant, Encounter
from rules.engine import MAX_GROUP
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.forms import Field
from rules.outcome import outcome as fight_outcome
from rules.system import Action, RuleSystem
from tracker.export import check_name
from tracker.library import COUNT, Library
from tracker.storage import slug as file_slug

MAX_STEPS = 1000  # undo/redo steps in one command: far more than anyone means to type
DICE = ("d4", "d6", "d8", "d10", "d12", "d20")
DURATION_WORDS: dict[str, Duration] = {
    "until-removed": Duration("until-removed"),
    "next-turn": Duration("end-of-next-turn"),
    "end-of-next-turn": Duration("end-of-next-turn"),
    "round": Duration("end-of-round"),
    "end-of-round": Duration("end-of-round"),
}
ROUNDS = re.compile(r"([0-9]+)r?")


# --- outcomes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Execute:
    """A command for the session, with the choices made for solo sides inside it."""

    command: object
    label: str
    moves: tuple[solo.Move, ...] = ()
    leaves: str = ""  # what it would leave a waiting result behind to do ("roll again")
    action: str = ""  # the system action it comes from, if any


@dataclass(frozen=True)
class Undo:
    steps: int


@dataclass(frozen=True)
class Redo:
    steps: int


@dataclass(frozen=True)
class ScreenAction:
    """An action of the encounter screen, e.g. "help" or "system('grim')" (opens its dialog)."""

    action: str


@dataclass(frozen=True)
class Say:
    """A line to show the user, changing nothing (``:help attack``)."""

    text: str


Outcome = Execute | Undo | Redo | ScreenAction | Say


@dataclass(frozen=True)
class Context:
    """What a line is read against: the state, its system, and the screen's palette list."""

    state: Encounter
    system: RuleSystem
    palette: Sequence[tuple[str, str, str]] = ()  # (title, action, help), as the palette lists
    selected: str | None = None
    known_conditions: Sequence[str] = ()  # condition names seen in the log, for completion
    library: Library | None = None  # the stat blocks ``add`` finds by name


# --- the built-in commands ---------------------------------------------------------------------


@dataclass(frozen=True)
class Builtin:
    name: str
    usage: str
    help: str


FORM_USAGE = "[ACTOR] [TARGET] [word]... [+field value | field=value]..."
BUILTINS: tuple[Builtin, ...] = (
    Builtin("attack", FORM_USAGE, "roll the system's roll: names, choices, then +field value"),
    Builtin("roll", FORM_USAGE, "the same as attack; dice notation rolls plain dice"),
    Builtin("dice", "NOTATION [>= N]", "plain dice: 2d6+3, 4d6kh3, 1d20ro1+5, 6d10c>=8"),
    Builtin("wound", "NAME [N]", "the main track N worse (1): Wounds, Health..."),
    Builtin("heal", "NAME [N]", "the main track N better (1)"),
    Builtin("cond", "NAME CONDITION [N | round | next-turn]", "add a condition (N rounds)"),
    Builtin("uncond", "NAME [CONDITION]", "drop a condition"),
    Builtin("next", "", "next turn (or round)"),
    Builtin("undo", "[N]", "undo N steps (1)"),
    Builtin("redo", "[N]", "redo N steps (1)"),
    Builtin("apply", "", "apply the last roll's consequence"),
    Builtin("note", "TEXT", "add a note to the log"),
    Builtin(
        "add",
        "NAME [SIDE] [xK]",
        "add K (1) of a library stat block, or a blank sheet (side: foes)",
    ),
    Builtin("keep", "[NAME]", "keep a combatant (the selected) in the library"),
    Builtin("export", "[md | json] [FILE]", "a fight report, written in the saves folder"),
    Builtin("save", "", "save now"),
    Builtin("open", "", "open another encounter"),
    Builtin("help", "[COMMAND]", "every key; with a command, how it is used"),
)
BUILTIN_NAMES = {b.name: b for b in BUILTINS}
# Without words, these open their dialog rather than complain.
DIALOG_OF = {"cond": "add_condition", "uncond": "remove_condition", "note": "note"}
DIALOG_OF |= {"add": "add_combatant", "attack": "roll", "roll": "roll"}


def slug(text: str) -> str:
    """ "Goblin Sneak" -> "goblin-sneak": a name that needs no quotes on the line."""
    return re.sub(r"[^0-9a-z]+", "-", text.casefold()).strip("-")


def _norm(word: str) -> str:
    return slug(word.replace("_", "-"))


def _suggest(word: str, names: Iterable[str]) -> str:
    close = difflib.get_close_matches(word.casefold(), list(names), n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""


# --- command names -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Named:
    """What a command name stands for: a built-in, a system action or a palette entry."""

    kind: str  # "builtin" | "system" | "palette"
    key: str  # the builtin's name, the action's id or the screen action
    help: str = ""


def command_names(ctx: Context) -> dict[str, Named]:
    """Every name the line accepts, built-ins first (they win a clash)."""
    names: dict[str, Named] = {}
    for builtin in BUILTINS:
        names[builtin.name] = Named("builtin", builtin.name, builtin.help)
    for action in ctx.system.actions(ctx.state):
        for name in (_norm(action.id), slug(action.title)):
            names.setdefault(name, Named("system", action.id, action.title))
    # The system's own words for a quick track change, where no action has them already.
    for word, key in zip(ctx.system.track_words, ("wound", "heal"), strict=True):
        names.setdefault(word, Named("builtin", key, BUILTIN_NAMES[key].help))
    for title, screen_action, help_text in ctx.palette:
        if screen_action.startswith("system("):
            continue  # the system's actions are listed above, with their fields
        for name in (slug(title), _norm(screen_action) if screen_action.isidentifier() else ""):
            if name:
                names.setdefault(name, Named("palette", screen_action, f"{title} ({help_text})"))
    return names


def _named(ctx: Context, word: str) -> Named:
    names = command_names(ctx)
    found = names.get(word.casefold()) or names.get(_norm(word))
    if found is None:
        shown = word if word else "(nothing)"
        raise Rejected(f"no command '{shown}'{_suggest(word, names)}")
    return found


# --- combatants ----------------------------------------------------------------------------------


def handles(state: Encounter) -> list[tuple[str, Combatant]]:
    """A word for each combatant: its slug, numbered in turn order when names repeat."""
    bases = [slug(c.name) or c.id for c in state.combatants]
    counts = Counter(bases)
    seen: Counter[str] = Counter()
    out = []
    for combatant, base in zip(state.combatants, bases, strict=True):
        seen[base] += 1
        out.append((base if counts[base] == 1 else f"{base}-{seen[base]}", combatant))
    return out


def find_combatant(state: Encounter, word: str) -> Combatant | None:
    """The combatant a word names (its name in any case, its handle, or its id), or None."""
    wanted = word.casefold()
    named = [c for c in state.combatants if c.name.casefold() == wanted]
    if len(named) == 1:
        return named[0]
    by_handle = [c for h, c in handles(state) if h == wanted or h == slug(word)]
    if len(by_handle) == 1:
        return by_handle[0]
    if len(named) > 1:
        others = ", ".join(h for h, c in handles(state) if c in named)
        raise Rejected(f"{len(named)} combatants are called {word!r}: say {others}")
    return state.find(word)


def need_combatant(state: Encounter, word: str) -> Combatant:
    found = find_combatant(state, word)
    if found is None:
        raise Rejected(f"no combatant '{word}'{_suggest(word, [h for h, _ in handles(state)])}")
    return found


# --- the system's forms ------------------------------------------------------------------------


def _people_field(state: Encounter, form_field: Field) -> bool:
    return form_field.kind == "choice" and any(state.find(v) for v, _ in form_field.choices)


def _field_named(fields: Sequence[Field], word: str, title: str) -> Field:
    wanted = _norm(word)
    for form_field in fields:
        if wanted in (_norm(form_field.key), slug(form_field.label)):
            return form_field
    keys = [_norm(f.key) for f in fields]
    raise Rejected(f"{title} has no field '{word}'{_suggest(wanted, keys)}")


def _choice_matching(state: Encounter, form_field: Field, word: str) -> str | None:
    wanted = word.casefold()
    for value, label in form_field.choices:
        if value and wanted in (value.casefold(), slug(value), slug(label), label.casefold()):
            return value
    if _people_field(state, form_field):
        person = find_combatant(state, word)
        if person is not None and any(v == person.id for v, _ in form_field.choices):
            return person.id
    return None


def _choice_value(state: Encounter, form_field: Field, word: str) -> str:
    found = _choice_matching(state, form_field, word)
    if found is None:
        allowed = ", ".join(slug(v) or "''" for v, _ in form_field.choices)
        raise Rejected(f"{form_field.label} must be one of: {allowed} (not {word!r})")
    return found


def split_words(rest: str) -> list[str]:
    try:
        return shlex.split(rest)
    except ValueError as exc:  # an unclosed quote
        raise Rejected(f"cannot read the line: {exc}") from None


def fill_form(
    state: Encounter, fields: Sequence[Field], words: Sequence[str], title: str
) -> dict[str, str]:
    """A dialog's values from words: the dialog's defaults, then what the words say.

    ``+field value`` or ``field=value`` sets a field by its key or label. Any other word
    names a combatant (the next people field that can take it: attacker, then defender...),
    or a choice of a field not set yet (``fortitude``, ``zero``), or else fills the next
    empty text field (a skill such as ``sword``).
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
            _place(state, fields, word, title, done, put)
            continue
        form_field = _field_named(fields, named, title)
        put(form_field, _choice_value(state, form_field, value) if form_field.choices else value)
    return values


def _place(
    state: Encounter,
    fields: Sequence[Field],
    word: str,
    title: str,
    done: set[str],
    put: Callable[[Field, str], None],
) -> None:
    """Put a word without a field name where it fits (see ``fill_form``)."""
    open_fields = [f for f in fields if f.key not in done]
    person = find_combatant(state, word)
    if person is not None:
        for form_field in open_fields:
            if _people_field(state, form_field) and any(
                v == person.id for v, _ in form_field.choices
            ):
                return put(form_field, person.id)
        raise Rejected(f"{title} has no place left for {person.name}")
    for form_field in open_fields:
        if form_field.kind == "choice" and not _people_field(state, form_field):
            value = _choice_matching(state, form_field, word)
            if value is not None:
                return put(form_field, value)
    for form_field in open_fields:
        if form_field.kind == "text" and not form_field.default:
            return put(form_field, word)
    raise Rejected(f"'{word}' fits no field of {title}: name one with +field value")


def _action(ctx: Context, action_id: str) -> Action:
    return next(a for a in ctx.system.actions(ctx.state) if a.id == action_id)


def system_outcome(ctx: Context, action_id: str, words: Sequence[str]) -> Outcome:
    action = _action(ctx, action_id)
    fields = ctx.system.action_form(ctx.state, action_id, ctx.selected)
    if not words and fields:
        return ScreenAction(f"system({action_id!r})")
    values = fill_form(ctx.state, fields, words, action.title)
    values, moves = solo.fill(ctx.state, action_id, values)
    command = ctx.system.action_command(ctx.state, action_id, values)
    leaves = "roll again" if action_id in ctx.system.roll_actions else ""
    return Execute(command, action.title, tuple(moves), leaves, action_id)


# --- resolving a line ---------------------------------------------------------------------------


def _split_name(text: str) -> tuple[str, str]:
    parts = text.strip().removeprefix(":").split(maxsplit=1)
    return (parts[0], parts[1].strip()) if len(parts) == 2 else (parts[0] if parts else "", "")


def _steps(words: Sequence[str], what: str) -> int:
    if not words:
        return 1
    if len(words) > 1 or not words[0].isdigit() or not 1 <= int(words[0]) <= MAX_STEPS:
        typed = " ".join(words)
        raise Rejected(f"{what} takes a number of steps from 1 to {MAX_STEPS}, not {typed!r}")
    return int(words[0])


def duration_of(words: Sequence[str]) -> Duration:
    text = "-".join(w.casefold() for w in words)
    if not text:
        return Duration()
    if text in DURATION_WORDS:
        return DURATION_WORDS[text]
    rounds = ROUNDS.fullmatch(text.removesuffix("-rounds").removesuffix("-round"))
    if rounds and 1 <= int(rounds.group(1)) <= MAX_STEPS:
        return Duration("rounds", int(rounds.group(1)))
    options = ", ".join(["N (rounds)", *DURATION_WORDS])
    raise Rejected(f"a duration is one of: {options} (not {' '.join(words)!r})")


def condition_names(ctx: Context) -> list[str]:
    """Conditions worth offering: those on someone now, then those seen in the log."""
    names = [c.name for person in ctx.state.combatants for c in person.conditions]
    return list(dict.fromkeys([*names, *ctx.known_conditions]))


def _builtin(ctx: Context, name: str, rest: str) -> Outcome:
    state = ctx.state
    if name == "note":  # the rest of the line as typed: quotes and apostrophes stay
        return Execute(AddNote(rest), "note")
    words = split_words(rest)
    match name:
        case "roll" if plain_dice.looks_like_dice(rest):
            return Execute(RollDice(rest), f"roll {rest}")
        case "dice":
            return Execute(RollDice(rest), f"roll {rest}")
        case "attack" | "roll":
            return system_outcome(ctx, "roll", words)
        case "wound" | "heal":
            if not 1 <= len(words) <= 2:
                raise Rejected(f"usage: {name} NAME [N]")
            person = need_combatant(state, words[0])
            if len(words) == 2 and not (words[1].isdigit() and 1 <= int(words[1]) <= MAX_STEPS):
                raise Rejected(f"{name} {words[0]} N: N is from 1 to {MAX_STEPS}, not {words[1]!r}")
            steps = int(words[1]) if len(words) == 2 else 1
            steps = steps if name == "wound" else -steps
            command = ctx.system.track_command(state, person, steps)
            return Execute(command, f"{name} {person.name} {abs(steps)}")
        case "export":
            return ScreenAction(_export_action(words))
        case "cond":
            if len(words) < 2:
                raise Rejected("usage: cond NAME CONDITION [N | round | next-turn]")
            person = need_combatant(state, words[0])
            known = {c.casefold(): c for c in condition_names(ctx)}
            typed = words[1]
            # A known name keeps its spelling; a new one typed in lower case gets a capital,
            # as the dialogs' conditions have ("prone" -> "Prone").
            condition = known.get(
                typed.casefold(), typed.capitalize() if typed.islower() else typed
            )
            return Execute(
                AddCondition(person.id, condition, duration_of(words[2:])), "add condition"
            )
        case "uncond":
            if not words or len(words) > 2:
                raise Rejected("usage: uncond NAME [CONDITION]")
            person = need_combatant(state, words[0])
            return Execute(
                RemoveCondition(person.id, _condition_on(person, words[1:])), "remove condition"
            )
        case "next":
            if fight_outcome(state).over:  # the n key's check: it says so, and asks to play on
                return ScreenAction("next_turn")
            doing = "end the turn" if ctx.system.uses_turn_order else "end the round"
            return Execute(NextTurn(), "next turn", leaves=doing)
        case "undo":
            return Undo(_steps(words, "undo"))
        case "redo":
            return Redo(_steps(words, "redo"))
        case "apply":
            if ctx.system.pending_action(state):
                return ScreenAction("apply_result")  # its dialog takes the user's choices
            return Execute(ctx.system.consequence_command(state), "apply result")
        case "add":
            return _add(ctx, words)
        case "keep":
            if len(words) > 1:
                raise Rejected('usage: keep [NAME] (quote a name with spaces: "Goblin Archer")')
            chosen = need_combatant(state, words[0]).id if words else ""
            return ScreenAction(f"keep_combatant({chosen!r})")
        case "save":
            return ScreenAction("save")
        case "open":
            return ScreenAction("open_save")
        case _:  # help
            if not words:
                return ScreenAction("help")
            return Say(usage(ctx, words[0]))


def _add(ctx: Context, words: Sequence[str]) -> Outcome:
    """``add NAME [SIDE] [xK]``: K of the library's NAME, else K blank sheets called NAME."""
    counts = [found for w in words[1:] if (found := COUNT.fullmatch(w))]
    rest = [w for w in words if not any(w == c.group(0) for c in counts)]
    if not rest or len(rest) > 2 or len(counts) > 1:
        raise Rejected('usage: add NAME [SIDE] [xK] (quote a name with spaces: "Goblin Archer")')
    count = int(counts[0].group("count")) if counts else 1
    if not 1 <= count <= MAX_GROUP:
        raise Rejected(f"a group is 1 to {MAX_GROUP} combatants, not {count}")
    side = rest[1] if len(rest) > 1 else None
    entry = ctx.library.find(ctx.system.name, rest[0]) if ctx.library else None
    if entry is not None:
        members = entry.copies(count, side)
    else:
        members = (AddCombatant(name=rest[0], side=side or "foes"),) * count
    label = f"add {entry.name if entry else rest[0]}" + (f" x{count}" if count > 1 else "")
    return Execute(members[0] if count == 1 else AddCombatants(members), label)


REPORT_FORMATS = {"md": "markdown", "markdown": "markdown", "json": "json"}


def _export_action(words: Sequence[str]) -> str:
    """``export [md|json] [FILE]`` as the screen's action: a file's ``.json`` chooses JSON."""
    words = list(words)
    fmt = REPORT_FORMATS.get(words[0].casefold()) if words else None
    if fmt is not None:
        words.pop(0)
    if len(words) > 1:
        raise Rejected('usage: export [md | json] [FILE] (quote a name with spaces: "my fight")')
    file = check_name(words[0]) if words else ""
    if fmt is None:
        fmt = "json" if file.casefold().endswith(".json") else "markdown"
    return f"export({fmt!r}, {file!r})"


def _condition_on(person: Combatant, words: Sequence[str]) -> str:
    if not person.conditions:
        raise Rejected(f"{person.name} has no conditions")
    if not words:
        if len(person.conditions) > 1:
            listed = ", ".join(c.name for c in person.conditions)
            raise Rejected(f"{person.name} has {listed}: say which")
        return person.conditions[0].name
    for condition in person.conditions:
        if words[0].casefold() in (condition.name.casefold(), slug(condition.name)):
            return condition.name
    names = [slug(c.name) for c in person.conditions]
    raise Rejected(f"{person.name} is not {words[0]}{_suggest(words[0], names)}")


def resolve(text: str, ctx: Context) -> Outcome:
    """What a typed line asks for; raises ``Rejected`` with one line when it cannot be done."""
    name, rest = _split_name(text)
    if not name:
        raise Rejected("type a command, e.g. attack, cond, next, undo, help")
    named = _named(ctx, name)
    if named.kind == "palette":
        if rest:
            raise Rejected(f"{name} takes no words; it works as its key does")
        return ScreenAction(named.key)
    if named.kind == "system":
        return system_outcome(ctx, named.key, split_words(rest))
    if not rest and named.key in DIALOG_OF:
        return ScreenAction(DIALOG_OF[named.key])
    return _builtin(ctx, named.key, rest)


def usage(ctx: Context, name: str) -> str:
    """How a command is used, in one line."""
    named = _named(ctx, name)
    if named.kind == "palette":
        return f"{name}: {named.help}"
    if named.kind == "builtin" and named.key not in ("attack", "roll"):
        builtin = BUILTIN_NAMES[named.key]
        return f"{builtin.name} {builtin.usage}".strip() + f": {builtin.help}"
    action_id = "roll" if named.kind == "builtin" else named.key
    try:
        fields = ctx.system.action_form(ctx.state, action_id, ctx.selected)
    except Rejected as exc:
        return f"{name}: {exc.message}"
    keys = " ".join("+" + _norm(f.key) for f in fields)
    return f"{name} {FORM_USAGE if fields else ''}".strip() + (f"; fields: {keys}" if keys else "")


# --- completion -------------------------------------------------------------------------------


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


def sheet_words(combatant: Combatant) -> list[str]:
    """Names on a sheet worth completing (skills, weapons, boons...): any named part."""
    out: list[str] = []
    sheet = combatant.sheet
    for key in getattr(sheet, "__struct_fields__", ()):
        value = getattr(sheet, key)
        if isinstance(value, tuple):
            out += [p.name for p in value if isinstance(getattr(p, "name", None), str)]
    return [_word(name) for name in out]


def _word(text: str) -> str:
    """A value as it can be typed: quoted when it holds a space."""
    return shlex.quote(text) if any(ch.isspace() for ch in text) else text


def _form_options(ctx: Context, action_id: str, before: Sequence[str], word: str) -> list[str]:
    try:
        fields = ctx.system.action_form(ctx.state, action_id, ctx.selected)
    except Rejected:
        return []
    previous = before[-1] if before else ""
    if word.startswith("+"):
        return ["+" + _norm(f.key) for f in fields]
    target: Field | None = None
    if "=" in word:
        target = next((f for f in fields if _norm(f.key) == _norm(word.split("=", 1)[0])), None)
        prefix = word.split("=", 1)[0] + "="
        return [prefix + o for o in _value_options(ctx, target)] if target else []
    if previous.startswith("+"):
        target = next((f for f in fields if _norm(f.key) == _norm(previous[1:])), None)
        return _value_options(ctx, target) if target else []
    people = [h for h, _ in handles(ctx.state)]
    choices = [
        slug(v)
        for f in fields
        if f.kind == "choice" and not _people_field(ctx.state, f)
        for v, _ in f.choices
        if v
    ]
    actor = next((c for c in (find_combatant_quiet(ctx.state, w) for w in before) if c), None)
    actor = actor or ctx.state.current or ctx.state.find(ctx.selected)
    return [*people, *choices, *(sheet_words(actor) if actor else [])]


def _value_options(ctx: Context, target: Field) -> list[str]:
    if _people_field(ctx.state, target):
        ids = {v for v, _ in target.choices}
        return [h for h, c in handles(ctx.state) if c.id in ids]
    if target.choices:
        return [slug(v) for v, _ in target.choices if v]
    if target.kind == "text" and any(w in target.key for w in ("dic", "die", "pool")):
        return list(DICE)
    return []


def find_combatant_quiet(state: Encounter, word: str) -> Combatant | None:
    try:
        return find_combatant(state, word)
    except Rejected:
        return None


def complete(text: str, ctx: Context) -> Completion:
    """The words that could end the line where it stands (the cursor at its end)."""
    line = text.removeprefix(":")
    offset = len(text) - len(line)
    start = max(line.rfind(" "), line.rfind("\t")) + 1
    word = line[start:]
    before = line[:start].split()
    if not before:
        names = command_names(ctx)
        return Completion(offset + start, _starting(word, names))
    try:
        named = _named(ctx, before[0])
    except Rejected:
        return Completion(offset + start)
    args = before[1:]
    options: list[str] = []
    if named.kind == "system":
        options = _form_options(ctx, named.key, args, word)
    elif named.kind == "builtin":
        options = _builtin_options(ctx, named.key, args, word)
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
            return [_word(n) for n in condition_names(ctx)]
        case "cond", 2:
            return list(DURATION_WORDS)
        case "uncond", 1:
            person = find_combatant_quiet(ctx.state, args[0])
            return [_word(c.name) for c in person.conditions] if person else []
        case "add", 0:
            return _library_words(ctx)
        case "add", 1:
            return list(dict.fromkeys(c.side for c in ctx.state.combatants))
        case "keep", 0:
            return people
        case "help", 0:
            return list(command_names(ctx))
    return []


def _library_words(ctx: Context) -> list[str]:
    if ctx.library is None:
        return []
    return [file_slug(e.name) for e in ctx.library.of(ctx.system.name)]


def hint(text: str, ctx: Context) -> str:
    """A line under the prompt: how the command being typed is used."""
    name, _ = _split_name(text)
    typing_name = " " not in text.lstrip(": ")
    if not name or (typing_name and name.casefold() not in command_names(ctx)):
        return "commands: " + " ".join(b.name for b in BUILTINS) + " … (Tab completes)"
    try:
        return usage(ctx, name)
    except Rejected as exc:
        return exc.message


def logged_conditions(events: Iterable[object]) -> list[str]:
    """Condition names added in a log (newest first, as ``recent_events`` gives), each once."""
    names = [e.condition.name for e in events if isinstance(e, ConditionAdded)]
    return list(dict.fromkeys(names))
