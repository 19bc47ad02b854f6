"""The registry of rule systems.

To add a system, write its module in ``rules/systems/`` (see ``rules.system.RuleSystem``)
and list it in ``MODULES``. The unions below, which the save format decodes, are built from
that list.
"""

from typing import Union

from rules.errors import Rejected
from rules.system import NoState, RuleSystem
from rules.systems.beerrun import system as beerrun
from rules.systems.fatigue import system as fatigue
from rules.systems.livehack import system as livehack
from rules.systems.painpool import system as painpool

MODULES = (livehack, beerrun, fatigue, painpool)

SYSTEMS: dict[str, RuleSystem] = {module.SYSTEM.name: module.SYSTEM for module in MODULES}


def _union(types: list[type]) -> object:
    unique = list(dict.fromkeys(types))
    return unique[0] if len(unique) == 1 else Union[tuple(unique)]  # noqa: UP007


Sheet = _union([t for s in SYSTEMS.values() for t in s.sheet_types])
SystemEvent = _union([t for s in SYSTEMS.values() for t in s.event_types])
RollEvent = _union([t for s in SYSTEMS.values() for t in s.roll_event_types])
SystemState = _union([NoState, *(s.state_type for s in SYSTEMS.values())])


def get_system(name: str) -> RuleSystem:
    try:
        return SYSTEMS[name]
    except KeyError:
        known = ", ".join(sorted(SYSTEMS))
        raise Rejected(f"unknown rule system {name!r} (known: {known})") from None
