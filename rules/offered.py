"""Who a dialog's choice of combatants offers first: those still in the fight, then those out
of it (dead, fled...), each in the order the system gave. A choice of anything else, and any
option that names no combatant ("Everyone of heroes"), is left where it was."""

from collections.abc import Sequence

from msgspec import structs

from rules.encounter import Encounter
from rules.forms import Field
from rules.system import RuleSystem


def living_first(system: RuleSystem, state: Encounter, fields: Sequence[Field]) -> list[Field]:
    """``fields`` with the combatants out of the fight moved after the others in each choice."""
    ids = {combatant.id for combatant in state.combatants}
    out = {c.id for c in state.combatants if system.out_of_fight(state, c)}
    if not out:
        return list(fields)
    return [_reordered(field, ids, out) if field.kind == "choice" else field for field in fields]


def _reordered(field: Field, ids: set[str], out: set[str]) -> Field:
    # The places combatants hold in the list, filled again with the living, then the out.
    people = [choice for choice in field.choices if choice[0] in ids]
    ranked = iter(sorted(people, key=lambda choice: choice[0] in out))  # sorted() is stable
    choices = tuple(
        next(ranked) if value in ids else (value, label) for value, label in field.choices
    )
    return field if choices == field.choices else structs.replace(field, choices=choices)
