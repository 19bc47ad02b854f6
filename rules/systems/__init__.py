"""The registry of rule systems.

To add a system: write its module here (sheet, commands, events, and an object that
implements ``rules.system.RuleSystem``), then add it to ``SYSTEMS`` and to the two unions.
"""

from rules.errors import Rejected
from rules.system import RuleSystem
from rules.systems import livehack

SYSTEMS: dict[str, RuleSystem] = {system.name: system for system in (livehack.SYSTEM,)}

# The unions the save format decodes; every member is a tagged Struct.
Sheet = livehack.LiveHackSheet
SystemEvent = livehack.LiveHackRolled | livehack.LiveHackTraitInflicted
RollEvent = livehack.LiveHackRolled


def get_system(name: str) -> RuleSystem:
    try:
        return SYSTEMS[name]
    except KeyError:
        known = ", ".join(sorted(SYSTEMS))
        raise Rejected(f"unknown rule system {name!r} (known: {known})") from None
