"""The registry of rule systems: every package in ``rules/systems/`` is one, by its name.

A system is found by its folder and loaded on first use, so the core never imports a system
and a headless command loads only the one it needs (``known`` and ``part`` load no other module
of the core, so ``tracker odds`` stays free of msgspec). Besides its ``system`` module (which
holds ``SYSTEM``), a system's package may have other parts the tracker looks up by name:
``demo``, ``odds_cli`` and ``roll_cli`` (``rules/cli_interface.py``;
``docs/contributing/adding-a-system.md``).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import import_module, util
from types import ModuleType
from typing import TYPE_CHECKING

from rules.errors import Rejected

if TYPE_CHECKING:
    from rules.system import RuleSystem

PACKAGE = "rules.systems"
# A system's name: its folder, its saves' ``system`` field and its tags' prefix.
NAME = re.compile(r"[a-z][a-z0-9]*")
NAME_RULE = "a rule system's name is lowercase letters and digits, starting with a letter"


@cache
def names() -> tuple[str, ...]:
    """Every registered system's name, sorted; nothing of any system is imported."""
    import pkgutil  # here: ``known`` and ``part`` (all ``tracker odds`` needs) do without

    folder = import_module(PACKAGE).__path__
    return tuple(sorted(info.name for info in pkgutil.iter_modules(folder) if info.ispkg))


def known(name: str) -> str:
    """``name`` if it is a registered system; else Rejected, naming those there are.

    The same test as ``names`` (a package with an ``__init__``), without listing the folder:
    ``pkgutil`` lists it with ``inspect``, which costs ``tracker odds`` a good part of its
    start-up.
    """
    spec = util.find_spec(f"{PACKAGE}.{name}") if name.isidentifier() else None
    if spec is None or spec.origin is None or spec.submodule_search_locations is None:
        raise Rejected(f"unknown rule system {name!r} (known: {', '.join(names())})")
    return name


@cache
def get_system(name: str) -> RuleSystem:
    from rules.system import RuleSystem  # here, not above: `tracker odds` loads no msgspec

    if NAME.fullmatch(name) is None and name in names():  # a folder no save may name
        raise TypeError(f"{PACKAGE}.{name}: {NAME_RULE}")
    system = part(name, "system")
    found = getattr(system, "SYSTEM", None) if system is not None else None
    if not isinstance(found, RuleSystem) or found.missing() or found.name != name:
        raise TypeError(
            f"{PACKAGE}.{name}.system must define SYSTEM, a RuleSystem named {name!r} "
            "with every attribute of RuleSystem.REQUIRED"
        )
    return found


def part(name: str, module: str) -> ModuleType | None:
    """The module ``rules.systems.<name>.<module>``, or None when the system has none."""
    dotted = f"{PACKAGE}.{known(name)}.{module}"
    try:
        return import_module(dotted)
    except ModuleNotFoundError as exc:
        if exc.name == dotted:
            return None
        raise


def listed_first(name: str) -> bool:
    """Whether the system's package says ``LISTED_FIRST = True``: it is listed first, and its
    demo is what a fresh start opens. Only the package's ``__init__`` is read (it holds no
    code), so listing the systems loads none of them."""
    return bool(getattr(import_module(f"{PACKAGE}.{known(name)}"), "LISTED_FIRST", False))


def all_systems() -> tuple[RuleSystem, ...]:
    """Every registered system, loaded (for the app's pickers and the contract tests)."""
    return tuple(get_system(name) for name in names())
