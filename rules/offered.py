"""Who a dialog's choice of combatants offers first: those still in the fight, then those out
of it (down, fled...), then the dead, each in the order the system gave. A choice of anything
else, and any option that names no combatant ("Everyone of heroes"), is left where it was."""

from collections.abc import Callable, Sequence

from msgspec import structs

from rules.encounter import AnyEncounter
from rules.forms import Field
from rules.system import RuleSystem

DEAD = "dead"  # the word every system says of the dead (out_of_fight): offered last of all


def _out(system: RuleSystem, state: AnyEncounter) -> dict[str, int]:
    """Each combatant out of the fight, 1 (down, fled...) or 2 (dead): its place in a choice."""
    words = {c.id: system.out_of_fight(state, c) for c in state.combatants}
    return {cid: 2 if word == DEAD else 1 for cid, word in words.items() if word}


def living_first(system: RuleSystem, state: AnyEncounter, fields: Sequence[Field]) -> list[Field]:
    """``fields`` with the combatants out of the fight moved after the others in each choice,
    the dead last (a troll down at 0 before a dead vampire)."""
    ids = {combatant.id for combatant in state.combatants}
    out = _out(system, state)
    if not out:
        return list(fields)

    def rank(cid: str) -> tuple[int, bool]:
        return out.get(cid, 0), False

    return [_ranked(field, ids, rank) if field.kind == "choice" else field for field in fields]


def own_first(
    system: RuleSystem, state: AnyEncounter, fields: Sequence[Field], mine: frozenset[str]
) -> list[Field]:
    """``fields`` as a player's seat offers them: the first choice of combatants (who acts,
    ``RuleSystem.default_actor``) only the player's own, one acting now the default; every
    later one (targets) the other side first, those out of the fight after the rest."""
    ids = {combatant.id for combatant in state.combatants}
    own = [c for c in state.combatants if c.id in mine]
    if not own:
        return list(fields)
    sides = {c.side for c in own}
    out = _out(system, state)
    ours = {c.id for c in state.combatants if c.side in sides}
    shown: list[Field] = []
    actor_seen = False
    for field in fields:
        if field.kind != "choice" or not any(value in ids for value, _ in field.choices):
            shown.append(field)
        elif not actor_seen:
            actor_seen = True
            shown.append(_only_own(field, state, mine))
        else:
            shown.append(_ranked(field, ids, lambda cid: (out.get(cid, 0), cid in ours)))
    return shown


def _only_own(field: Field, state: AnyEncounter, mine: frozenset[str]) -> Field:
    choices = tuple(choice for choice in field.choices if choice[0] in mine)
    if not choices:
        return field  # none of theirs to offer: the command says why, as ever
    values = [value for value, _ in choices]
    default = field.default if field.default in values else ""
    default = default or (state.current_id if state.current_id in values else values[0])
    return structs.replace(field, choices=choices, default=default or "")


def _ranked(field: Field, ids: set[str], rank: Callable[[str], tuple[int, bool]]) -> Field:
    # The places combatants hold in the list, filled again in ``rank``'s order (stable).
    people = [choice for choice in field.choices if choice[0] in ids]
    ranked = iter(sorted(people, key=lambda choice: rank(choice[0])))
    choices = tuple(
        next(ranked) if value in ids else (value, label) for value, label in field.choices
    )
    return field if choices == field.choices else structs.replace(field, choices=choices)
