"""Generic d20's system actions, as the `s` menu, the palette and the `:` line offer them:
each an id, a name and a line on what it does."""

from __future__ import annotations

from rules.system import Action

from . import uses

ACTIONS: tuple[Action, ...] = (
    Action("roll", "Attack", "d20 + attack bonus against Armour Class"),
    Action("save", "Saving throw effect", "One or more targets save against a DC"),
    Action("heal", "Heal", "Hit points back, or temporary hit points"),
    Action("death", "Death save", "A dying hero's d20: 10 or more succeeds"),
    Action(
        "stabilise",
        "Stabilise",
        "An action: Wisdom (Medicine) DC 10, or spare the dying, on a dying hero",
    ),
    Action("reaction", "Reaction", "Mark a reaction used this round"),
    Action(
        "legendary",
        "Legendary action",
        "One other than the attack, at the end of another's turn",
    ),
    Action("use", "Use an action", "A stat block's action by name, legendary too"),
    Action("unconcentrate", "End concentration", "Stop concentrating on an effect"),
    Action("exhaustion", "Exhaustion", "Set a level, 0 to 6: what each does applies"),
    Action("rest", "Rest", "A long rest: hit points, one exhaustion level off"),
    Action(
        "ending",
        "Condition's end",
        "Save ends, or until the start or end of someone's next turn",
    ),
    Action(
        "turnstart",
        "Start of turn",
        "Ongoing damage, regeneration or a recharge at the start of each of its turns",
    ),
    Action("regenoff", "Regeneration off", "None at its next turn's start (fire, acid)"),
    uses.RESIST_ACTION,
)
