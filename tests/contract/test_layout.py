"""Every system's folder keeps to the one layout of docs/contributing/adding-a-system.md: the
modules its table marks required, none over 600 lines, and a module name two systems share is one of
the table's (one name for one job, written down where a new system's author reads it)."""

from __future__ import annotations

import re
from collections import Counter
from importlib import util
from pathlib import Path

from rules import registry

from .support import ROOT

DOC = ROOT / "docs" / "contributing" / "adding-a-system.md"
MOST_LINES = 600
# A row of the page's layout table: | `module.py` | what it holds | required or when |
ROW = re.compile(r"^\| `(\w+)\.py` \| .+ \| (required|optional|with [^|]+) \|$", re.MULTILINE)


def layout() -> dict[str, str]:
    """The page's table: each module's name, and whether a system must have it."""
    return dict(ROW.findall(DOC.read_text(encoding="utf-8")))


def modules(name: str) -> list[Path]:
    spec = util.find_spec(f"{registry.PACKAGE}.{name}")
    assert spec is not None and spec.submodule_search_locations is not None
    return sorted(Path(spec.submodule_search_locations[0]).glob("*.py"))


def test_the_page_has_the_layout_table() -> None:
    table = layout()
    assert {m for m, need in table.items() if need == "required"} >= {"system", "demo"}
    assert {"events", "decide", "apply", "forms", "log"} <= set(table)


def test_a_system_has_every_required_module(name: str) -> None:
    required = {m for m, need in layout().items() if need == "required"}
    assert required - {path.stem for path in modules(name)} == set()


def test_no_module_of_a_system_is_over_600_lines(name: str) -> None:
    sizes = {path.name: len(path.read_text("utf-8").splitlines()) for path in modules(name)}
    long = {module: lines for module, lines in sizes.items() if lines > MOST_LINES}
    assert long == {}, (
        f"split by what each part holds (docs/contributing/adding-a-system.md): {long}"
    )


def test_a_module_name_systems_share_is_in_the_layout_table() -> None:
    counts = Counter(path.stem for name in registry.names() for path in modules(name))
    shared = {module for module, systems in counts.items() if systems > 1}
    unlisted = shared - set(layout())
    assert unlisted == set(), (
        f"add a row for each to docs/contributing/adding-a-system.md: {unlisted}"
    )


def test_at_most_one_system_is_listed_first() -> None:
    first = [name for name in registry.names() if registry.listed_first(name)]
    assert len(first) <= 1, f"only one system's __init__.py may say LISTED_FIRST: {first}"
