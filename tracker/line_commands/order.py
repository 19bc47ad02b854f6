"""The `:` line's initiative and turn order: ``init``, ``order``, and ``add ... after NAME``."""

from __future__ import annotations

from collections.abc import Sequence

from rules.commands import MoveCombatant, RollInitiative, SetInitiative, SortInitiative
from rules.encounter import AnyEncounter
from rules.errors import Rejected
from tracker.line_commands.names import need_combatant
from tracker.line_commands.outcomes import Context, Execute, Outcome
from tracker.line_commands.turns import EACH_ROUND, each_round_outcome

INIT_USAGE = "NAME [N | DICE] | roll [DICE] [each] | sort | each-round on|off"
ORDER_USAGE = "NAME before|after NAME"
WHERE = ("before", "after")


def init_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``init NAME N`` / ``init NAME 1d20+2`` / ``init NAME`` (the system's dice), ``init
    roll [DICE] [each]`` (everyone who has none), ``init sort``."""
    if reason := ctx.system.why_no_initiative():
        raise Rejected(reason)
    if not words:
        raise Rejected(f"usage: init {INIT_USAGE}")
    first = words[0].casefold()
    if first == EACH_ROUND:
        return each_round_outcome(ctx, words[1:])
    if first == "sort":
        if len(words) > 1:
            raise Rejected("init sort takes no more words")
        return Execute(SortInitiative(), "sort by initiative")
    if first == "roll":
        rest = list(words[1:])
        each = bool(rest) and rest[-1].casefold() == "each"
        if each:
            rest.pop()
        if len(rest) > 1:
            raise Rejected(f"usage: init roll [DICE] [each] (not {' '.join(words[1:])!r})")
        dice = rest[0] if rest else ""
        label = "roll initiative" + (f" {dice}" if dice else "") + (" each" if each else "")
        return Execute(RollInitiative(dice, each), label)
    if len(words) > 2:
        raise Rejected(f"usage: init {INIT_USAGE} (quote a name with spaces)")
    person = need_combatant(ctx.state, words[0])
    value = words[1] if len(words) == 2 else ""
    label = f"initiative {person.name}" + (f" {value}" if value else "")
    return Execute(SetInitiative(person.id, value), label)


def where(state: AnyEncounter, words: Sequence[str]) -> tuple[list[str], int | None]:
    """The words before a trailing ``before NAME`` / ``after NAME``, and the index in the
    order it names (None: no such words)."""
    if len(words) >= 2 and words[-2].casefold() in WHERE:
        other = need_combatant(state, words[-1])
        index = state.index_of(other.id) + (words[-2].casefold() == "after")
        return list(words[:-2]), index
    return list(words), None


def order_outcome(ctx: Context, words: Sequence[str]) -> Outcome:
    """``order NAME before|after NAME``: one move in the turn order."""
    if len(words) != 3 or words[1].casefold() not in WHERE:
        raise Rejected(f"usage: order {ORDER_USAGE} (quote a name with spaces)")
    state = ctx.state
    moved = need_combatant(state, words[0])
    other = need_combatant(state, words[2])
    if moved.id == other.id:
        raise Rejected(f"{moved.name} cannot move {words[1].casefold()} itself")
    rest = [c.id for c in state.combatants if c.id != moved.id]
    index = rest.index(other.id) + (words[1].casefold() == "after")
    if index == state.index_of(moved.id):
        raise Rejected(f"{moved.name} is {words[1].casefold()} {other.name} already")
    return Execute(MoveCombatant(moved.id, index), f"order {moved.name}")
