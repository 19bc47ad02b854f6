"""What a player's seat sees of Generic d20 when some combatants are hidden from it
(``rules.roles.seats``): a hidden creature's damage on one it sees, without the attacker;
and the system's own state with what names a hidden one taken out, the rest kept (the
default wiped all of it, so a hidden troll's regeneration cost the players every badge,
save owed and "Your roll" of the fight)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from msgspec import Struct, structs

from rules.mentions import mentions

from .events import D20Damaged, D20Immune, D20State, system_state

if TYPE_CHECKING:
    from .events import D20Encounter

T = TypeVar("T", bound=Struct)


def conceal(state: D20Encounter, event: Any, hidden: frozenset[str]) -> Any | None:
    """A hidden creature's damage on one players see, without who dealt it (its roll stays
    hidden); a condition it could not lay on one, its immunity said."""
    if isinstance(event, D20Damaged) and event.target_id not in hidden:
        return structs.replace(event, dealer_id=None)
    if isinstance(event, D20Immune) and event.target_id not in hidden:
        return event
    return None


def conceal_state(state: D20Encounter, hidden: frozenset[str]) -> D20Encounter:
    """The state without what in Generic d20's own names a hidden combatant: each record
    that does left out, the others kept; all of it afresh should any name remain."""
    found = system_state(state)
    if not mentions(found) & hidden:
        return state

    def kept(items: tuple[T, ...]) -> tuple[T, ...]:
        return tuple(i for i in items if not mentions(i) & hidden)

    turn = found.turn if found.turn is None or found.turn.combatant_id not in hidden else None
    seen = structs.replace(
        found,
        concentration_saves=kept(found.concentration_saves),
        death_saved=tuple(m for m in found.death_saved if m[0] not in hidden),
        held=kept(found.held),
        edges=kept(found.edges),
        starts=kept(found.starts),
        starting_id="" if found.starting_id in hidden else found.starting_id,
        regeneration_off_ids=tuple(c for c in found.regeneration_off_ids if c not in hidden),
        turn=turn,
        dropped=kept(found.dropped),
        hit_saves=kept(found.hit_saves),
    )
    if mentions(seen) & hidden:  # a record this does not know of: nothing of it is kept
        seen = D20State()
    return state.update(system_state=seen)
