"""The contract every rule system implements, and the values it shares with the app.

A rule system is one package, ``rules/systems/<name>/``, whose ``system`` module holds
``SYSTEM``, an instance of a ``RuleSystem`` subclass (see ``docs/contributing/adding-a-system.md``).
``RuleSystem`` is composed of the parts of ``rules.roles``, one by role (sheets, dialogs,
rules, log...): their abstract methods are what every system must say; every other hook has
a default there, so callers never probe a system for what it offers.
"""

from __future__ import annotations

from abc import ABC
from typing import Any, ClassVar

from rules.roles.conditions import Conditions
from rules.roles.consequences import Consequences
from rules.roles.decisions import Decisions
from rules.roles.dialogs import Action, Dialogs
from rules.roles.library import Library
from rules.roles.log import Log
from rules.roles.rolls import Landing, Luck, Rolls, Tier, luck_against
from rules.roles.seats import LAST_ROLL, LAST_ROLLER, Seats
from rules.roles.sheets import Sheets, Track
from rules.roles.solo import Figure, Move, Policy, Solo, policy_among
from rules.roles.standing import Damage, Standing
from rules.roles.turns import Turns

# The values the parts define, where the systems and the app have always found them.
__all__ = [
    "LAST_ROLL",
    "LAST_ROLLER",
    "Action",
    "Damage",
    "Figure",
    "Landing",
    "Luck",
    "Move",
    "Policy",
    "RuleSystem",
    "Tier",
    "Track",
    "luck_against",
    "policy_among",
]


class RuleSystem(
    Sheets,
    Library,
    Dialogs,
    Decisions,
    Consequences,
    Log,
    Rolls,
    Solo,
    Seats,
    Turns,
    Conditions,
    Standing,
    ABC,
):
    """A resolution system: every part of the contract, and what the system is.

    Sheets, commands, events and the system's state are its own msgspec Structs; each
    event, sheet and state type has an explicit tag starting with the system's name (tags
    are the save format: never rename one). The registry finds the system by its folder.
    """

    # What the system is (class attributes every system sets; the parts say what each is).
    name: ClassVar[str]  # the folder's name, and the ``system`` field of its saves
    title: ClassVar[str]

    REQUIRED: ClassVar[tuple[str, ...]] = (
        "name",
        "title",
        "sheet_types",
        "event_types",
        "command_types",
        "roll_event_types",
        "stat_columns",
        "uses_turn_order",
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Refused as the class is defined, not when a fight first reads the attribute.
        super().__init_subclass__(**kwargs)
        if missing := [attr for attr in cls.REQUIRED if not hasattr(cls, attr)]:
            raise TypeError(f"{cls.__qualname__} must set {', '.join(missing)} (RuleSystem)")

    def missing(self) -> list[str]:
        """The class attributes of ``REQUIRED`` this system has not set (the registry checks)."""
        return [attr for attr in self.REQUIRED if not hasattr(self, attr)]
