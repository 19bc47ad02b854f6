"""The rules package stays pure: no UI, no I/O, no clock, no global randomness."""

import ast
from pathlib import Path

import pytest

from rules import registry
from tests.contract.headless_checks import loaded

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
SOURCES = sorted(RULES.rglob("*.py"))

FORBIDDEN_MODULES = (
    "textual",
    "rich",
    "asyncio",
    "tracker",
    "socket",
    "subprocess",
    "threading",
    "pathlib",
    "shutil",
    "tempfile",
)

ALLOWED_IMPORTS = {
    "__future__",
    "abc",
    "typing",
    "collections",
    "contextlib",
    "collections.abc",
    "dataclasses",
    "enum",
    "fractions",
    "math",
    "itertools",
    "functools",
    "operator",
    "bisect",
    "re",
    "difflib",  # close names for a "did you mean": computation alone, no clock, files or chance
    "zlib",
    "msgspec",
}
FORBIDDEN_NAMES = {"time", "datetime", "os", "sys"}
# The registry alone finds the systems' packages and loads one on first use.
LOADER_IMPORTS = {"pkgutil", "importlib", "types"}
LOADER = "rules/registry.py"


def allowed(module: str, relative: str) -> bool:
    return module in ALLOWED_IMPORTS or (relative == LOADER and module in LOADER_IMPORTS)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


RULES_MODULES = [module_name(path) for path in SOURCES]


# Uses nothing but builtins, so the only modules it adds are the ones the imports pull in.
def newly_loaded(names: list[str]) -> set[str]:
    """The modules a fresh process loads to import ``names``."""
    return loaded("pass", *names)


def forbidden(loaded: set[str]) -> list[str]:
    return sorted(
        name
        for name in loaded
        for bad in FORBIDDEN_MODULES
        if name == bad or name.startswith(bad + ".")
    )


def test_every_rules_module_is_found():
    systems = {f"rules.systems.{name}" for name in registry.names()}
    assert {"rules", "rules.engine", "rules.snapshot", *systems} <= set(RULES_MODULES)
    assert len(RULES_MODULES) == len(SOURCES)


def test_importing_the_rules_loads_no_ui_io_or_concurrency_module():
    loaded = newly_loaded(RULES_MODULES)
    assert set(RULES_MODULES) <= loaded  # they really were imported
    assert forbidden(loaded) == []


def test_the_import_probe_can_see_a_forbidden_module():
    assert "asyncio" in forbidden(newly_loaded(["asyncio"]))


# --- a static scan ----------------------------------------------------------------------------


def from_import_allowed(node: ast.ImportFrom, relative: str) -> bool:
    module = node.module or ""
    if node.level or module.split(".")[0] in {"rules", "msgspec"} or allowed(module, relative):
        return True
    plain_random = [(a.name, a.asname) for a in node.names] == [("Random", None)]
    return module == "random" and plain_random and relative == "rules/dice.py"


def offences(path: Path, source: str) -> list[str]:
    """Every import outside the allowlist, call to open, or clock/OS name imported."""
    relative = path.relative_to(ROOT).as_posix() if path.is_absolute() else path.as_posix()
    found = []

    def offend(node: ast.AST, what: str) -> None:
        found.append(f"{relative}:{node.lineno}: {what}")

    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if not allowed(alias.name, relative) and root not in {"rules", "msgspec"}:
                    offend(node, f"import {alias.name}")
                if {alias.name, root, alias.asname} & FORBIDDEN_NAMES:
                    offend(node, f"imports the name {alias.asname or root}")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if not from_import_allowed(node, relative):
                names = ", ".join(alias.name for alias in node.names)
                offend(node, f"from {module} import {names}")
            for alias in node.names:
                if {alias.name, alias.asname} & FORBIDDEN_NAMES:
                    offend(node, f"imports the name {alias.asname or alias.name}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "open"
        ):
            offend(node, "calls open()")
    return found


def test_there_are_rules_sources_to_scan():
    assert RULES / "dice.py" in SOURCES
    assert {RULES / "systems" / name / "system.py" for name in registry.names()} <= set(SOURCES)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_rules_source_imports_only_pure_modules(path):
    problems = offences(path, path.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


BAD_SOURCE = """\
import os
from time import monotonic
from random import Random
from random import randint
from rules.x import sys
import msgspec.json
from . import sibling
data = open("save.bin").read()
"""


def test_the_scan_reports_each_offence_with_its_line():
    found = offences(Path("rules/engine.py"), BAD_SOURCE)
    assert found == [
        "rules/engine.py:1: import os",
        "rules/engine.py:1: imports the name os",
        "rules/engine.py:2: from time import monotonic",
        "rules/engine.py:3: from random import Random",
        "rules/engine.py:4: from random import randint",
        "rules/engine.py:5: imports the name sys",
        "rules/engine.py:8: calls open()",
    ]


def test_random_is_allowed_only_as_random_in_dice():
    assert offences(Path("rules/dice.py"), "from random import Random\n") == []
    assert offences(Path("rules/dice.py"), "import random\n") == ["rules/dice.py:1: import random"]
    assert offences(Path("rules/dice.py"), "from random import Random as R\n") == [
        "rules/dice.py:1: from random import Random"
    ]
