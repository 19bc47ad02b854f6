"""A rule system is one folder, its tests included: no test module outside
``tests/systems/<name>/`` imports ``rules.systems.<name>`` or quotes its name, so deleting the
system's folder (and its own tests with it, ``conftest.py``) leaves the others collected and
green. ``make without`` checks it in earnest (``tests/without.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from rules.registry import names

TESTS = Path(__file__).resolve().parents[1]
DIE = re.compile(r"d[0-9]+")
# Modules still driving a named system, mostly LiveHack, as "a system" (issue #28: each is to
# pick its system through rules.registry or rules.testing, or move to that system's folder;
# tests/helpers.py and tests/app/support.py first). Shrink, never grow.
ALLOWED: set[str] = set()


def imported(text: str) -> set[str]:
    """The systems whose modules ``text`` imports."""
    return set(re.findall(r"\brules\.systems\.([a-z][a-z0-9]*)\b", text))


def systems_named(text: str) -> set[str]:
    """The systems whose modules ``text`` imports, or whose name it quotes."""
    quoted = set(re.findall(r"[\"']([a-z][a-z0-9]*)[\"']", text))
    # A name that is also a die ("d20") is quoted by dice tests: only its imports count.
    return imported(text) | {name for name in quoted if not DIE.fullmatch(name)}


def offences() -> dict[str, set[str]]:
    """Each test module naming a registered system's modules outside that system's folder."""
    found = {}
    registered = set(names())
    for path in sorted(TESTS.rglob("*.py")):
        where = path.relative_to(TESTS).as_posix()
        home = where.split("/")[1] if where.startswith("systems/") and where.count("/") > 1 else ""
        text = path.read_text(encoding="utf-8")
        # In a system's own folder only imports count: its words may be another's name.
        named = (systems_named(text) if not home else imported(text)) & (registered - {home})
        if named and where not in ALLOWED:
            found[where] = named
    return found


def test_no_test_outside_a_systems_folder_imports_or_names_it() -> None:
    assert offences() == {}


def test_the_check_sees_an_import() -> None:
    assert systems_named("from rules.systems.coin9.demo import build") == {"coin9"}
    assert systems_named("from rules import registry  # rules.systemsx") == set()
    assert "coin9" in systems_named('new_encounter("Pit", "coin9")')


def test_the_allowed_list_holds_only_modules_that_need_it() -> None:
    # A module freed of its named system leaves the list, so the list only shrinks. A system
    # deleted still counts here (its tests' folder names it), so the check holds without it.
    known = set(names()) | {path.name for path in (TESTS / "systems").iterdir() if path.is_dir()}
    needless = {
        where
        for where in ALLOWED
        if not (TESTS / where).exists()
        or not systems_named((TESTS / where).read_text(encoding="utf-8")) & known
    }
    assert needless == set()
