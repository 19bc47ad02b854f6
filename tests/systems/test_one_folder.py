"""A rule system is one folder, its tests included: no test module outside
``tests/systems/<name>/`` imports ``rules.systems.<name>``, so deleting the system's folder
(and its own tests with it, ``conftest.py``) leaves the others collected and green.
``make without`` checks it in earnest (``tests/without.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from rules.registry import names

TESTS = Path(__file__).resolve().parents[1]
# Modules still driving one named system as "a system" (issue #28: each is to pick its system
# through rules.registry or rules.testing, or move to that system's folder). Shrink, never grow.
ALLOWED = {
    "app/test_app.py",
    "app/test_app_command_line.py",
    "app/test_app_solo.py",
    "app/test_app_table_tools.py",
    "app/test_open_save.py",
    "app/test_replay.py",
    "app/test_typed_keys.py",
    "cli/test_cli.py",
    "helpers.py",
    "rules/test_engine.py",
    "rules/test_history.py",
    "rules/test_purity.py",
    "rules/test_snapshot.py",
    "serve/test_hidden.py",
    "serve/test_serve.py",
    "serve/test_serve_browser.py",
    "serve/test_serve_rules.py",
    "serve/test_serve_web.py",
    "storage/test_corruption.py",
    "storage/test_storage.py",
}


def systems_named(text: str) -> set[str]:
    return set(re.findall(r"\brules\.systems\.([a-z][a-z0-9]*)\b", text))


def offences() -> dict[str, set[str]]:
    """Each test module naming a registered system's modules outside that system's folder."""
    found = {}
    registered = set(names())
    for path in sorted(TESTS.rglob("*.py")):
        where = path.relative_to(TESTS).as_posix()
        home = where.split("/")[1] if where.startswith("systems/") and where.count("/") > 1 else ""
        named = (systems_named(path.read_text(encoding="utf-8")) & registered) - {home}
        if named and where not in ALLOWED:
            found[where] = named
    return found


def test_no_test_outside_a_systems_folder_imports_it() -> None:
    assert offences() == {}


def test_the_check_sees_an_import() -> None:
    assert systems_named("from rules.systems.coin9.demo import build") == {"coin9"}
    assert systems_named("from rules import registry  # rules.systemsx") == set()


def test_the_allowed_list_holds_only_modules_that_need_it() -> None:
    # A module freed of its named system leaves the list, so the list only shrinks.
    needless = {
        where
        for where in ALLOWED
        if not (TESTS / where).exists()
        or not systems_named((TESTS / where).read_text(encoding="utf-8"))
    }
    assert needless == set()
