"""The built-in commands, and every name the line accepts."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import Rejected
from tracker.line_commands.names import (
    norm,
    slug,
    suggest,
)
from tracker.line_commands.outcomes import Context


@dataclass(frozen=True)
class Builtin:
    name: str
    usage: str
    help: str


FORM_USAGE = "[ACTOR] [TARGET] [word]... [+field value | field=value]..."
BUILTINS: tuple[Builtin, ...] = (
    Builtin("attack", FORM_USAGE, "roll the system's roll: names, choices, then +field value"),
    Builtin("roll", FORM_USAGE, "the same as attack; dice notation rolls plain dice"),
    Builtin(
        "dice",
        "NOTATION [>= N] [chart] [hidden]",
        "plain dice: 2d6+3, 4d6kh3, 6d10c>=8; chart: the odds drawn; hidden: GM only",
    ),
    Builtin("wound", "NAME [N]", "the main track N worse (1): Wounds, Health..."),
    Builtin("heal", "NAME [N]", "the main track N better (1)"),
    Builtin("cond", "NAME CONDITION [N | round | next-turn]", "add a condition (N rounds)"),
    Builtin("uncond", "NAME [CONDITION]", "drop a condition"),
    Builtin("next", "", "next turn (or round)"),
    Builtin(
        "init",
        "NAME [N | DICE] | roll [DICE] [each] | sort | each-round on|off",
        "initiative: one set or rolled, everyone's rolled (a group shares one), the order"
        " sorted; each-round: rolled again as each round begins",
    ),
    Builtin("delay", "[NAME]", "the one acting (or NAME) leaves the order until act NAME"),
    Builtin("ready", "NAME TRIGGER", "hold a reaction until the trigger you name"),
    Builtin("act", "NAME", "a delayer takes its place and acts now; a readied reaction taken"),
    Builtin("clock", "LIMIT | off", "the turn clock's limit (2m, 90s, 1:30): it only warns"),
    Builtin("surprise", "SIDE | way WAY", "a side surprised as the system says; way: how played"),
    Builtin("hp", "SIDE exact|band|hidden", "how seats see a side's hit points (the GM: exact)"),
    Builtin("order", "NAME before|after NAME", "move a combatant in the turn order"),
    Builtin("undo", "[N]", "undo N steps (1)"),
    Builtin("redo", "[N]", "redo N steps (1)"),
    Builtin("apply", "", "apply the last roll's consequence"),
    Builtin("note", "TEXT", "add a note to the log"),
    Builtin(
        "add",
        "NAME [SIDE] [xK] [before|after NAME]",
        "add K (1) of a library stat block, or a blank sheet (side: foes)",
    ),
    Builtin("keep", "[NAME]", "keep a combatant (the selected) in the library"),
    Builtin("export", "[md | json] [FILE]", "a fight report, written in the saves folder"),
    Builtin("save", "", "save now"),
    Builtin("open", "", "open another encounter"),
    Builtin("help", "[COMMAND]", "every key; with a command, how it is used"),
)
BUILTIN_NAMES = {b.name: b for b in BUILTINS}
# Whether a seat may end any combatant's turn (the GM), or only its own (a player: n).
ANY_TURN = "any_turn"
# The screen action each built-in does by key: a role that is not offered the key is not
# offered the command either (a player's completions list none of the GM's).
AS_KEY = {
    "attack": "roll",
    "roll": "roll",
    "dice": "roll",
    "wound": "nudge",
    "heal": "nudge",
    "cond": "add_condition",
    "uncond": "remove_condition",
    "next": "next_turn",
    "init": "initiative",
    "order": "move",
    "undo": "undo",
    "redo": "redo",
    "apply": "apply_result",
    "note": "note",
    "add": "add_combatant",
    "keep": "keep_combatant",
    "export": "export",
    "save": "save",
    "open": "open_save",
    "help": "help",
}
ROLLS = ("attack", "roll")  # the built-ins that are the system's roll
# Without words, these open their dialog rather than complain.
DIALOG_OF = {"cond": "add_condition", "uncond": "remove_condition", "note": "note"}
DIALOG_OF |= {"add": "add_combatant", "attack": "roll", "roll": "roll", "init": "initiative"}


@dataclass(frozen=True)
class Named:
    """What a command name stands for: a built-in, a system action or a palette entry."""

    kind: str  # "builtin" | "system" | "palette"
    key: str  # the builtin's name, the action's id or the screen action
    help: str = ""
    # A built-in's name that is also a system action's id or title (Generic d20's ``save``,
    # its Heal): that action's id and title. The built-in takes the words it fits, the
    # action any others (``tracker.line_commands.resolve``).
    shares: str = ""
    shared_title: str = ""


def command_names(ctx: Context) -> dict[str, Named]:
    """Every name the line accepts, built-ins first: a built-in keeps its name, and the
    system action of that name takes the words the built-in does not (``Named.shares``)."""
    names: dict[str, Named] = {}
    for builtin in BUILTINS:
        names[builtin.name] = Named("builtin", builtin.name, builtin.help)
    for action in ctx.system.actions(ctx.state):
        for name in (norm(action.id), slug(action.title)):
            named = names.setdefault(name, Named("system", action.id, action.title))
            if named.kind == "builtin" and not named.shares and not _is_roll(named, action.id):
                names[name] = replace(named, shares=action.id, shared_title=action.title)
    # The system's own words for a quick track change, where no action has them already.
    for word, key in zip(ctx.system.track_words, ("wound", "heal"), strict=True):
        names.setdefault(word, Named("builtin", key, BUILTIN_NAMES[key].help))
    for title, screen_action, help_text in ctx.palette:
        if screen_action.startswith("system("):
            continue  # the system's actions are listed above, with their fields
        for name in (slug(title), norm(screen_action) if screen_action.isidentifier() else ""):
            if name:
                names.setdefault(name, Named("palette", screen_action, f"{title} ({help_text})"))
    return names


def _is_roll(named: Named, action_id: str) -> bool:
    """Whether a built-in is that action already: ``attack`` and ``roll`` are the system's
    roll (whatever its title: Generic d20's Attack)."""
    return named.key in ROLLS and action_id == "roll"


def shared_action(named: Named) -> Named | None:
    """The system action a built-in shares its name with, if any."""
    return Named("system", named.shares, named.shared_title) if named.shares else None


def offered(ctx: Context, named: Named) -> bool:
    """Whether whoever types is offered a command: as the key that does the same is (a
    built-in sharing its name with a system action: either)."""
    shared = shared_action(named)
    if shared is not None and offered(ctx, shared):
        return True
    match named.kind:
        case "builtin":
            # A built-in with no key of its own (delay, clock...) is asked by its name: a
            # seat's role offers only what it names, so those stay the GM's.
            return ctx.allows(AS_KEY.get(named.key, named.key), "")
        case "system":
            return ctx.allows("system", named.key)
    return ctx.allows(named.key.partition("(")[0], "")


def offered_names(ctx: Context) -> list[str]:
    """The names the line accepts that whoever types is offered (completion lists these)."""
    return [name for name, named in command_names(ctx).items() if offered(ctx, named)]


def named_as(ctx: Context, word: str) -> Named:
    names = command_names(ctx)
    found = names.get(word.casefold()) or names.get(norm(word))
    if found is None:
        shown = word if word else "(nothing)"
        raise Rejected(f"no command '{shown}'{suggest(word, names)}")
    return found
