"""The core knows no system, and a system loads no other: each is one folder, found by name."""

from __future__ import annotations

from .headless_checks import (
    loaded,
)

CORE = ("rules.engine", "rules.history", "rules.snapshot", "rules.solo")


def systems_in(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith("rules.systems.")}


def test_importing_the_core_loads_no_system():
    modules = loaded("", *CORE)
    assert set(CORE) <= modules  # the probe really imported them
    assert systems_in(modules) == set()


def test_listing_the_systems_loads_none_of_them():
    assert systems_in(loaded("import rules.registry as r; r.names()")) == set()


def test_a_system_and_its_demo_load_no_other_system(name: str):
    code = f"import rules.registry as r; r.get_system({name!r}); r.part({name!r}, 'demo')"
    modules = systems_in(loaded(code))
    assert f"rules.systems.{name}.system" in modules
    others = {m for m in modules if m.split(".")[2] != name}
    assert others == set(), f"loading {name} loads {sorted(others)}"
