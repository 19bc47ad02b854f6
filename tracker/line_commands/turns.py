"""The `:` line's held turns and table options: ``delay``, ``ready``, ``act``, ``clock``,
and ``init each-round on|off``."""

from __future__ import annotations

from collections.abc import Sequence

from rules.commands import Act, Delay, Ready, SetOption, Surprise
from rules.errors import Rejected
from tracker.line_commands.names import need_combatant
from tracker.line_commands.outcomes import Context, Execute, Outcome

EACH_ROUND = "each-round"
SWITCH = ("on", "off")
CLOCK_WORDS = ("off", "1m", "2m", "3m", "5m")
WAY = "way"  # ``surprise way WAY``: how the table plays surprise


def _acting_or_named(ctx: Context, words: Sequence[str], usage: str) -> str:
    """The id of the one named, else of whoever acts now."""
    if len(words) > 1:
        raise Rejected(f"usage: {usage} (quote a name with spaces)")
    if words:
        return need_combatant(ctx.state, words[0]).id
    if ctx.state.current_id is None:
        raise Rejected(f"nobody acts now: {usage}")
    return ctx.state.current_id


def _refuse_without_order(ctx: Context) -> None:
    if reason := ctx.system.why_no_initiative():
        raise Rejected(reason)


def delay_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``delay [NAME]``: the one acting (or NAME) leaves the order until ``act NAME``."""
    _refuse_without_order(ctx)
    who = _acting_or_named(ctx, words, "delay [NAME]")
    return Execute(Delay(who), f"delay {ctx.state.name_of(who)}", leaves="end the turn")


def ready_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``ready NAME TRIGGER...``: a reaction held until the trigger."""
    if len(words) < 2:
        raise Rejected("usage: ready NAME TRIGGER (e.g. ready orla when the door opens)")
    person = need_combatant(ctx.state, words[0])
    return Execute(Ready(person.id, " ".join(words[1:])), f"ready {person.name}")


def act_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``act NAME``: a delayer acts now, or a readied reaction is taken."""
    if len(words) != 1:
        raise Rejected("usage: act NAME (quote a name with spaces)")
    person = need_combatant(ctx.state, words[0])
    return Execute(Act(person.id), f"act {person.name}")


def clock_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``clock 2m`` / ``clock 90s`` / ``clock off``: the turn clock's limit."""
    if len(words) != 1:
        raise Rejected("usage: clock LIMIT | off (e.g. clock 2m, clock 90s, clock 1:30)")
    return Execute(SetOption("turn-limit", words[0]), f"clock {words[0]}")


def each_round_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``init each-round on|off``: everyone's initiative rolled again as a round begins."""
    _refuse_without_order(ctx)
    if len(words) != 1 or words[0].casefold() not in SWITCH:
        raise Rejected("usage: init each-round on|off")
    return Execute(SetOption("init-each-round", words[0]), f"init each-round {words[0]}")


def surprise_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``surprise SIDE``: the side is surprised, as the system says; ``surprise way WAY``:
    the way the table plays it (Generic d20: 2014 or 2024)."""
    if len(words) == 2 and words[0].casefold() == WAY:
        return Execute(SetOption("surprise-way", words[1]), f"surprise way {words[1]}")
    if len(words) != 1:
        raise Rejected("usage: surprise SIDE | way WAY (quote a side with spaces)")
    sides = list(dict.fromkeys(c.side for c in ctx.state.combatants))
    typed = words[0]
    side = next((s for s in sides if s.casefold() == typed.casefold()), typed)
    return Execute(Surprise(side), f"surprise {side}")


def surprise_words(ctx: Context, args: Sequence[str]) -> list[str]:
    """What ``surprise`` completes: the sides and ``way``, then the system's ways."""
    if args and args[0].casefold() == WAY:
        return [way for way, _ in ctx.system.surprise_ways] if len(args) == 1 else []
    if args:
        return []
    sides = list(dict.fromkeys(c.side for c in ctx.state.combatants))
    return [*sides, *([WAY] if ctx.system.surprise_ways else [])]


HP_MODES = ("exact", "band", "hidden")


def hp_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``hp SIDE exact|band|hidden``: how seats see that side's hit points."""
    if len(words) != 2 or words[1].casefold() not in HP_MODES:
        raise Rejected("usage: hp SIDE exact|band|hidden (quote a side with spaces)")
    sides = list(dict.fromkeys(c.side for c in ctx.state.combatants))
    side = next((s for s in sides if s.casefold() == words[0].casefold()), words[0])
    mode = words[1].casefold()
    return Execute(SetOption("hp-view", f"{mode} {side}"), f"hp {side} {mode}")


def hp_words(ctx: Context, args: Sequence[str]) -> list[str]:
    if not args:
        return list(dict.fromkeys(c.side for c in ctx.state.combatants))
    return list(HP_MODES) if len(args) == 1 else []
