"""Generic d20's action economy (SRD 5.1, "Actions in Combat", "Bonus Actions", "Reactions"):
on its turn a combatant has one action and one bonus action, and one reaction a round.

What the turn under way has spent is kept in the state (``D20State.turn``), folded from the
rolls that spend it; it names the turn by its stamp, so the next turn (a ``NextTurn``, an
undo, a replay) finds nothing spent without an event of its own. An action, or a bonus
action, taken off its own turn (before the fight starts, or a roll the GM makes late) is not
counted: only its own turn has them. The readings are in rulings.md (D4-01).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.errors import Rejected

from .events import (
    ACTION,
    BONUS,
    EXTRA,
    FREE,
    LEGENDARY,
    REACTION,
    Turn,
    sheet_of,
    stamp_of,
    system_state,
)
from .surprise import SURPRISED

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

WORDS = {
    ACTION: "Action",
    BONUS: "Bonus action",
    REACTION: "Reaction",
    LEGENDARY: "Legendary",
    EXTRA: "Extra action",
    FREE: "No action",
}
LETTERS = ((ACTION, "A"), (BONUS, "B"))
ANOTHER = "As: Extra action, or :attack ... extra"


def word(usage: str) -> str:
    """The dialog's and the log's word for a use ("" for a value no dialog gives)."""
    return WORDS.get(usage, "")


def own_turn(state: D20Encounter, combatant_id: str) -> bool:
    return state.current_id == combatant_id


def spent(state: D20Encounter, combatant: D20Combatant, what: str) -> bool:
    """Whether ``combatant`` has spent ``what`` (its action, its bonus action) this turn."""
    turn = system_state(state).turn
    return (
        turn is not None
        and turn.combatant_id == combatant.id
        and what in turn.spent
        and own_turn(state, combatant.id)
        and turn.stamp == stamp_of(state)
    )


def reaction_spent(state: D20Encounter, combatant: D20Combatant) -> bool:
    return sheet_of(combatant).reaction_round == state.round


def check(state: D20Encounter, actor: D20Combatant, usage: str) -> None:
    """Refused, in one line, unless ``actor`` can spend ``usage`` now."""
    if usage not in WORDS:
        raise Rejected(f"A roll is an {', '.join(WORDS.values())}, not {usage[:20]!r}")
    if usage == REACTION and actor.condition(SURPRISED) is not None:
        raise Rejected(f"{actor.name} is surprised: no reaction until the first round ends")
    if usage == REACTION and reaction_spent(state, actor):
        raise Rejected(f"{actor.name} has used its reaction this round")
    if usage not in (ACTION, BONUS):
        return
    if usage == BONUS and state.current_id not in (None, actor.id):
        now = state.name_of(state.current_id)
        raise Rejected(f"A bonus action is taken on its own turn, not on {now}'s")
    if spent(state, actor, usage):
        what = "the action" if usage == ACTION else "the bonus action"
        raise Rejected(f"{actor.name} has used {what} this turn (As: Extra action)")


def spend(state: D20Encounter, who: str, usage: str, stamp: tuple[int, int]) -> D20Encounter:
    """The state once ``who`` has spent ``usage`` on the roll made at ``stamp``: its action or
    bonus action on its own turn, its reaction for the round; nothing else is counted."""
    if usage == REACTION:
        found = state.find(who)
        if found is None:
            return state
        sheet = structs.replace(sheet_of(found), reaction_round=state.round)
        return state.replace_combatant(structs.replace(found, sheet=sheet))
    if usage not in (ACTION, BONUS) or not own_turn(state, who) or stamp != stamp_of(state):
        return state
    found_state = system_state(state)
    turn = found_state.turn
    if turn is None or turn.combatant_id != who or turn.stamp != stamp:
        turn = Turn(who, stamp)
    if usage in turn.spent:
        return state
    turn = structs.replace(turn, spent=(*turn.spent, usage))
    return state.update(system_state=structs.replace(found_state, turn=turn))


def badge(state: D20Encounter, combatant: D20Combatant) -> str:
    """The row's word for what it has spent: "spent A B R" ("" for nothing)."""
    letters = [letter for what, letter in LETTERS if spent(state, combatant, what)]
    if reaction_spent(state, combatant):
        letters.append("R")
    return f"spent {' '.join(letters)}" if letters else ""


def spent_line(before: D20Encounter, after: D20Encounter, who: str) -> str:
    """The log's line when a roll, folded from ``before`` into ``after``, spends the action or
    the bonus action of ``who`` ("" when it spends neither)."""
    found = before.find(who)
    if found is None:
        return ""
    newly = [w for w in (ACTION, BONUS) if spent(after, found, w) and not spent(before, found, w)]
    if not newly:
        return ""
    return f"{found.name} has used the {'action' if newly[0] == ACTION else 'bonus action'}"


def default_usage(state: D20Encounter, actor: D20Combatant, bonus_too: bool) -> str:
    """What a dialog proposes: the action, or the bonus action once the action is spent on its
    own turn (``bonus_too``: when a bonus action can do what the dialog does)."""
    if bonus_too and spent(state, actor, ACTION) and not spent(state, actor, BONUS):
        return BONUS
    return ACTION


def note(state: D20Encounter, actor: D20Combatant, usage: str) -> str:
    """The dialog's word on what the roll spends of ``actor``'s turn under way ("" off it)."""
    if not own_turn(state, actor.id) or usage not in (ACTION, BONUS, EXTRA):
        return ""
    if usage == EXTRA:
        return "; an extra action, past the turn's one"
    what = "the action" if usage == ACTION else "the bonus action"
    if spent(state, actor, usage):
        return f"; {what} is used: refused ({ANOTHER})"
    return f"; uses {what}"
