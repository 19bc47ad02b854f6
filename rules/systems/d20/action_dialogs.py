"""The fields a d20 dialog shares (who is there, whom an attack proposes) and the legendary
and reaction dialogs, which list a stat block's legendary actions and reactions by name
(action_forms.py plays the one chosen), or take one typed by hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import Rejected
from rules.forms import Field

from .action_forms import legendary_choices, side_choices
from .events import sheet_of
from .standing import legendary_left, out_word

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

COSTS = (("1", "1 action"), ("2", "2 actions"), ("3", "3 actions"))
OTHER = ("", "Another, typed below")  # a legendary action or reaction of no stat block's


def people(state: D20Encounter) -> tuple[tuple[str, str], ...]:
    return tuple((c.id, c.name) for c in state.combatants)


def foes_of(state: D20Encounter, combatant: D20Combatant) -> list[D20Combatant]:
    """Everyone still in the fight on another side, in turn order."""
    return [c for c in state.combatants if c.side != combatant.side and not out_word(c)]


def default_target(state: D20Encounter, actor: D20Combatant) -> D20Combatant | None:
    """Whom an attack or an effect proposes: the first foe still in the fight; else the first
    foe down (a troll to burn) before the dead; else anyone else (it proposed a dead ally
    once the foes were all out)."""
    foes = foes_of(state, actor)
    if foes:
        return foes[0]
    others = [c for c in state.combatants if c.id != actor.id]
    ranked = sorted(others, key=lambda c: (c.side == actor.side, out_word(c) == "dead"))
    return ranked[0] if ranked else None


def legendary_ready(state: D20Encounter, actor: D20Combatant) -> bool:
    """Whether ``actor``'s attack now would be a legendary action: not its turn, and one left."""
    return state.current_id not in (None, actor.id) and legendary_left(state, actor) > 0


def typed_field(default: str) -> Field:
    return Field(
        key="typed",
        label="Or typed",
        kind="text",
        default=default,
        help="when it is Another: one of no stat block's",
        focus_first=False,
    )


def listed(state: D20Encounter, key: str) -> tuple[tuple[str, str], ...]:
    """Every legendary action or reaction on a sheet, by name (with its cost), once each."""
    found: dict[str, tuple[str, str]] = {}
    for combatant in state.combatants:
        for value, label in legendary_choices(getattr(sheet_of(combatant), key)):
            found.setdefault(value.casefold(), (value, label))
    return tuple(found.values())


def target_field(state: D20Encounter, actor: D20Combatant) -> Field:
    target = default_target(state, actor)
    return Field(
        key="target",
        label="Target",
        kind="choice",
        default=target.id if target is not None else actor.id,
        choices=(*people(state), *side_choices(state)),
        help="of its attack, or its save effect's: one, or a whole side",
    )


def reaction_form(state: D20Encounter, actor: D20Combatant) -> list[Field]:
    """Who reacts and with what: a reaction of a stat block's list, or one typed (Shield)."""
    everyone = people(state)
    listing = next((c for c in state.combatants if sheet_of(c).reactions), None)
    if listing is None:  # nobody has a stat block's reactions: one typed by hand
        return [
            Field(key="who", label="Who", kind="choice", default=actor.id, choices=everyone),
            Field(key="what", label="Reaction", kind="text", default="Shield"),
        ]
    reacting = actor if sheet_of(actor).reactions else listing
    return [
        Field(key="who", label="Who", kind="choice", default=reacting.id, choices=everyone),
        Field(
            key="what",
            label="Reaction",
            kind="choice",
            default=sheet_of(reacting).reactions[0].name,
            choices=(*listed(state, "reactions"), OTHER),
            help="one of its stat block's, played as its attack or save",
        ),
        typed_field("Shield"),
        target_field(state, reacting),
    ]


def legendary_form(state: D20Encounter) -> list[Field]:
    """Which legendary creature, and its legendary action: one of its stat block's list (by
    name, with its cost), or one typed with a cost."""
    legendary = [c for c in state.combatants if sheet_of(c).legendary]
    if not legendary:
        raise Rejected("Nobody has legendary actions")
    first = next((c for c in legendary if legendary_ready(state, c)), legendary[0])
    who = Field(
        key="who",
        label="Who",
        kind="choice",
        default=first.id,
        choices=tuple((c.id, c.name) for c in legendary),
    )
    if not any(sheet_of(c).legendary_actions for c in legendary):
        return [  # none listed on a stat block: typed by hand, with its cost
            who,
            Field(key="what", label="Legendary action", kind="text", default="Move"),
            Field(key="cost", label="Costs", kind="choice", default="1", choices=COSTS),
        ]
    own = sheet_of(first).legendary_actions
    return [
        who,
        Field(
            key="what",
            label="Legendary action",
            kind="choice",
            default=own[0].name if own else OTHER[0],
            choices=(*listed(state, "legendary_actions"), OTHER),
            help="its cost is the stat block's; one that makes an attack rolls it",
        ),
        typed_field("Move"),
        Field(
            key="cost",
            label="Costs",
            kind="choice",
            default="1",
            choices=COSTS,
            help="of one typed",
        ),
        target_field(state, first),
    ]
