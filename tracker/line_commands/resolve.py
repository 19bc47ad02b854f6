"""A typed line resolved into what to do, and how a command is used."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from msgspec import structs

from rules import plain_dice
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
from rules.encounter import AnyCombatant
from rules.engine import MAX_GROUP
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.outcome import outcome as fight_outcome
from rules.spelling import slip_for
from tracker.line_commands.action_fields import system_outcome
from tracker.line_commands.did_you_mean import (
    combatant_words,
    did_you_mean,
    no_combatant,
)
from tracker.line_commands.names import (
    find_combatant,
    find_combatant_quiet,
    handles,
    need_combatant,
    norm,
    own_pick,
    quote,
    slug,
    split_words,
    suggest,
)
from tracker.line_commands.order import init_outcome, order_outcome, where
from tracker.line_commands.outcomes import Context, Execute, Outcome, Redo, Say, ScreenAction, Undo
from tracker.line_commands.table import (
    ANY_TURN,
    BUILTIN_NAMES,
    BUILTINS,
    DIALOG_OF,
    FORM_USAGE,
    ROLLS,
    Named,
    command_names,
    named_as,
    offered,
    shared_action,
)
from tracker.line_commands.turns import (
    act_outcome,
    clock_outcome,
    delay_outcome,
    hp_outcome,
    ready_outcome,
    surprise_outcome,
)
from tracker.store.export import check_name
from tracker.store.library import COUNT

BLANK = "blank"  # ``add NAME blank``: a blank sheet, not the library's
MAX_STEPS = 1000  # undo/redo steps in one command: far more than anyone means to type
DURATION_WORDS: dict[str, Duration] = {
    "until-removed": Duration("until-removed"),
    "next-turn": Duration("end-of-next-turn"),
    "end-of-next-turn": Duration("end-of-next-turn"),
    "round": Duration("end-of-round"),
    "end-of-round": Duration("end-of-round"),
}
ROUNDS = re.compile(r"([0-9]+)r?")


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


HIDDEN = "hidden"  # the last word of a plain roll only the GM sees
_HIDDEN_WORD = re.compile(rf"\s{HIDDEN}", re.IGNORECASE)  # where it begins a word


def condition_names(ctx: Context) -> list[str]:
    """Conditions worth offering: those on someone now, then those seen in the log."""
    names = [c.name for person in ctx.state.combatants for c in person.conditions]
    return list(dict.fromkeys([*names, *ctx.known_conditions]))


def _hidden(rest: str) -> tuple[str, bool]:
    """Dice and whether they are rolled hidden (``1d20 hidden``: the GM's eyes only). Dice
    and then ``hidden`` with more after it are refused: two lines typed as one (``1d20
    hidden:dice 3d6``) were read as the system's roll, whose free text every seat reads, the
    GM's hidden dice among it."""
    dice, _, last = rest.rstrip().rpartition(" ")
    if dice.strip() and last.casefold() == HIDDEN:
        return dice.strip(), True
    found = _HIDDEN_WORD.search(rest)
    if found and plain_dice.looks_like_dice(rest[: found.start()]):
        shown = f"{rest[: found.start()].strip()} {HIDDEN}"
        raise Rejected(f"{HIDDEN!r} ends a line of dice, with nothing after it ({shown!r})")
    return rest, False


def _builtin(ctx: Context, name: str, rest: str) -> Outcome:
    state = ctx.state
    if name == "note":  # the rest of the line as typed: quotes and apostrophes stay
        # At a player's seat, about one of their own: as their note dialog starts.
        return Execute(AddNote(rest, own_pick(state, ctx.mine, ctx.selected)), "note")
    words = split_words(rest)
    dice, hidden = _hidden(rest) if name in ("roll", "dice", "attack") else (rest, False)
    match name:
        case "roll" if plain_dice.looks_like_dice(dice):
            return Execute(RollDice(dice, hidden=hidden), f"roll {rest}")
        case "dice":
            return Execute(RollDice(dice, hidden=hidden), f"roll {rest}")
        case "attack" | "roll" if hidden:
            # Its words would be the roll's own, which every seat reads.
            raise Rejected(
                f"{HIDDEN!r} is for plain dice (roll 2d6 {HIDDEN}): a system's roll is seen "
                f"by every seat (quote a text that ends with the word)"
            )
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
                raise Rejected(f"usage: cond {cond_usage(ctx)}")
            person = need_combatant(state, words[0])
            known = {c.casefold(): c for c in condition_names(ctx)}
            typed = words[1]
            _check_condition(ctx, typed, known)
            # A known name keeps its spelling; a new one typed in lower case gets a capital,
            # as the dialogs' conditions have ("prone" -> "Prone").
            condition = known.get(
                typed.casefold(), typed.capitalize() if typed.islower() else typed
            )
            ending = _system_ending(ctx, person.id, condition, words[2:])
            if ending is not None:  # a system's own ending (Generic d20: save wis 13)
                return Execute(ending, "add condition")
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
            # As the n key: over, it says so and asks to play on; at a player's seat, it ends
            # only their own combatant's turn (a PassTurn), never the GM's NextTurn.
            if fight_outcome(state).over or not ctx.allows(ANY_TURN, ""):
                return ScreenAction("next_turn")
            doing = "end the turn" if ctx.system.uses_turn_order else "end the round"
            return Execute(NextTurn(), "next turn", leaves=doing)
        case "init":
            return init_outcome(ctx, words)
        case "order":
            return order_outcome(ctx, words)
        case "delay":
            return delay_outcome(ctx, words)
        case "ready":
            return ready_outcome(ctx, words)
        case "act":
            return act_outcome(ctx, words)
        case "clock":
            return clock_outcome(ctx, words)
        case "surprise":
            return surprise_outcome(ctx, words)
        case "hp":
            return hp_outcome(ctx, words)
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


def _add(ctx: Context, typed: Sequence[str]) -> Outcome:
    """``add NAME [SIDE] [xK] [blank] [before|after NAME]``: K of the library's NAME, or K
    blank sheets called NAME when asked (``blank``: a mistyped name is refused with the
    nearest names, never a blank sheet by surprise); a group shares one initiative roll."""
    words, index = where(ctx.state, typed)
    blank = [w for w in words[1:] if w.casefold() == BLANK]
    words = [w for w in words if w not in blank]
    counts = [found for w in words[1:] if (found := COUNT.fullmatch(w))]
    rest = [w for w in words if not any(w == c.group(0) for c in counts)]
    if not rest or len(rest) > 2 or len(counts) > 1:
        raise Rejected(
            'usage: add NAME [SIDE] [xK] [before|after NAME] (quote a name with spaces: "Goblin'
            ' Archer")'
        )
    count = int(counts[0].group("count")) if counts else 1
    if not 1 <= count <= MAX_GROUP:
        raise Rejected(f"a group is 1 to {MAX_GROUP} combatants, not {count}")
    side = rest[1] if len(rest) > 1 else None
    entry, several = ctx.library.seek(ctx.system.name, rest[0]) if ctx.library else (None, [])
    if entry is None and ctx.library is not None and not blank:
        meant = ctx.library.meant(ctx.system.name, rest[0], several)
        raise Rejected(
            f"no stat block '{rest[0]}'{meant} (:add {quote(rest[0])} blank for a blank sheet)"
        )
    if entry is not None and not blank:
        members = entry.copies(count, side)
    else:
        members = (AddCombatant(name=rest[0], side=side or "foes"),) * count
    if index is not None:
        members = tuple(structs.replace(m, index=index + i) for i, m in enumerate(members))
    entry = None if blank else entry
    label = f"add {entry.name if entry else rest[0]}" + (f" x{count}" if count > 1 else "")
    return Execute(members[0] if count == 1 else AddCombatants(members, together=True), label)


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


def _system_ending(ctx: Context, person_id: str, condition: str, tail: Sequence[str]) -> object:
    """The system's command for a condition's ending (None: a core duration), the name in
    ``end NAME`` found as every name on the line is (``end orla``), and refused with "did
    you mean" when the system finds none and a name is close to it."""
    takes_name = {e.split()[0] for e in ctx.system.condition_line_endings() if e.endswith("NAME")}
    if len(tail) < 2 or tail[0].casefold() not in takes_name:
        return ctx.system.condition_line(ctx.state, person_id, condition, tail)
    typed = " ".join(tail[1:])
    found = find_combatant(ctx.state, typed)  # several fit: "did you mean A or B?"
    if found is not None:
        return ctx.system.condition_line(ctx.state, person_id, condition, [tail[0], found.id])
    try:  # not a name: the system's own words ("end of round")
        return ctx.system.condition_line(ctx.state, person_id, condition, tail)
    except Rejected:
        people = combatant_words(ctx.state, handles(ctx.state))
        if did_you_mean(typed, people):
            raise no_combatant(typed, people) from None
        raise


def cond_usage(ctx: Context) -> str:
    """``cond``'s usage: the core's durations, then the ways the system's rules end one."""
    endings = " | ".join(("N", "round", "next-turn", *ctx.system.condition_line_endings()))
    return f"NAME CONDITION [{endings}]"


def _check_condition(ctx: Context, typed: str, known: dict[str, str]) -> None:
    """Refuse a condition name close to one the rules know but none of them ("prne"); one
    on someone or in the log, or far from all of them (a label of the table's own), passes."""
    rules = ctx.system.condition_names()
    if typed.casefold() in known or typed.casefold() in {n.casefold() for n in rules}:
        return
    meant = slip_for(typed, rules)
    if meant:
        raise Rejected(
            f"no condition '{typed}': did you mean '{meant}'? (the c dialog takes a label of"
            " your own)"
        )


def _condition_on(person: AnyCombatant, words: Sequence[str]) -> str:
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
    names = [c.name for c in person.conditions]
    raise Rejected(f"{person.name} is not {words[0]}{suggest(words[0], names)}")


def resolve(text: str, ctx: Context) -> Outcome:
    """What a typed line asks for; raises ``Rejected`` with one line when it cannot be done."""
    name, rest = _split_name(text)
    if not name:
        raise Rejected("type a command, e.g. attack, cond, next, undo, help")
    named = named_as(ctx, name)
    if named.kind == "palette":
        if rest:
            raise Rejected(f"{name} takes no words; it works as its key does")
        return ScreenAction(named.key)
    if named.kind == "system":
        return system_outcome(ctx, named.key, split_words(rest))
    shared = shared_action(named)
    if shared is None:
        return _as_builtin(ctx, named, rest)
    # A built-in and a system action of one name (Generic d20's save): the built-in takes
    # the words it fits, the action any others, so no action's words are lost to it.
    if not offered(ctx, named):
        return system_outcome(ctx, shared.key, split_words(rest))
    try:
        return _as_builtin(ctx, named, rest)
    except Rejected as refused:
        words = split_words(rest)
        if not offered(ctx, shared):
            raise
        if words and not _addressed(ctx, words):  # said as :help says it: both uses
            raise Rejected(
                f"{refused.message} · with a combatant or a +field, {shared.help}"
            ) from None
        try:
            return system_outcome(ctx, shared.key, words)
        except Rejected as also:
            if also.message == refused.message:
                raise
            raise Rejected(f"{refused.message} · {shared.help}: {also.message}") from None


def _addressed(ctx: Context, words: list[str]) -> bool:
    """Whether the words name a field (``+dc 13``) or a combatant: a shared name's system
    action takes them then (or none: its dialog opens), never a stray word alone (``:save
    now`` rolled an effect with the condition "now" on a whole side)."""
    return any(
        w.startswith("+") or "=" in w or find_combatant_quiet(ctx.state, w) is not None
        for w in words
    )


def _as_builtin(ctx: Context, named: Named, rest: str) -> Outcome:
    if not rest and named.key in DIALOG_OF:
        return ScreenAction(DIALOG_OF[named.key])
    if rest and not BUILTIN_NAMES[named.key].usage:
        raise Rejected(f"{named.key} takes no words")
    return _builtin(ctx, named.key, rest)


def usage(ctx: Context, name: str) -> str:
    """How a command is used, in one line (a built-in sharing its name with a system action:
    both, the built-in first)."""
    named = named_as(ctx, name)
    shared = shared_action(named)
    if shared is not None:
        return f"{_usage(ctx, name, named)} · with other words, {shared.help}: " + _usage(
            ctx, name, shared
        )
    return _usage(ctx, name, named)


def _usage(ctx: Context, name: str, named: Named) -> str:
    if named.kind == "palette":
        return f"{name}: {named.help}"
    if named.kind == "builtin" and named.key not in ROLLS:
        builtin = BUILTIN_NAMES[named.key]
        said = cond_usage(ctx) if named.key == "cond" else builtin.usage
        return f"{builtin.name} {said}".strip() + f": {builtin.help}"
    action_id = "roll" if named.kind == "builtin" else named.key
    try:
        fields = ctx.system.action_form(ctx.state, action_id, ctx.selected)
    except Rejected as exc:
        return f"{name}: {exc.message}"
    keys = " ".join("+" + norm(f.key) for f in fields)
    return f"{name} {FORM_USAGE if fields else ''}".strip() + (f"; fields: {keys}" if keys else "")


def hint(text: str, ctx: Context) -> str:
    """A line under the prompt: how the command being typed is used."""
    name, _ = _split_name(text)
    typing_name = " " not in text.lstrip(": ")
    if not name or (typing_name and name.casefold() not in command_names(ctx)):
        offers = [b.name for b in BUILTINS if offered(ctx, Named("builtin", b.name))]
        return "commands: " + " ".join(offers) + " … (Tab completes)"
    try:
        return usage(ctx, name)
    except Rejected as exc:
        return exc.message


def logged_conditions(events: Iterable[object]) -> list[str]:
    """Condition names added in a log (newest first, as ``recent_events`` gives), each once."""
    names = [e.condition.name for e in events if isinstance(e, ConditionAdded)]
    return list(dict.fromkeys(names))
