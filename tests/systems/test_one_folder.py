"""A rule system is one folder, its tests included: no test module outside
``tests/systems/<name>/`` imports ``rules.systems.<name>`` or names it in a string (its name,
or its demo's file stem), so deleting the system's folder (and its own tests with it,
``conftest.py``) leaves the others collected and green. ``make without`` checks it in
earnest (``tests/without.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from rules.registry import names, part
from tests.contract.test_fifth_system import TOY

TESTS = Path(__file__).resolve().parents[1]
# The test that copies the doc's worked example out of the doc names it; ``make example``
# writes that same system into rules/systems/, where it is registered like any other.
EXAMPLE = {"contract/test_fifth_system.py": TOY}
DIE = re.compile(r"d[0-9]+")
QUOTED = re.compile(r"[\"']([^\"'\n]*)[\"']")
WORD = re.compile(r"(?<![A-Za-z0-9_])([a-z][a-z0-9]*)(?![A-Za-z0-9_])")


def imported(text: str) -> set[str]:
    """The systems whose modules ``text`` imports."""
    return set(re.findall(r"\brules\.systems\.([a-z][a-z0-9]*)\b", text))


def systems_named(text: str, stems: dict[str, str] | None = None) -> set[str]:
    """The systems whose modules ``text`` imports, or whose name a string in it holds as a
    word (``"coin9"``, ``"odds coin9"``, ``"saves/demo-coin9.fight"``), or whose
    demo's file stem (in ``stems``, by system) a string holds (``"demo-two-coins"``)."""
    named = imported(text)
    for quoted in QUOTED.findall(text):
        # A name that is also a die ("d20") is quoted by dice tests: only its imports count.
        named |= {word for word in WORD.findall(quoted) if not DIE.fullmatch(word)}
        named |= {name for name, stem in (stems or {}).items() if stem in quoted}
    return named


def demo_stems() -> dict[str, str]:
    return {name: module.STEM for name in names() if (module := part(name, "demo")) is not None}


def offences() -> dict[str, set[str]]:
    """Each test module naming a registered system outside that system's folder."""
    found = {}
    registered = set(names())
    stems = demo_stems()
    for path in sorted(TESTS.rglob("*.py")):
        where = path.relative_to(TESTS).as_posix()
        home = where.split("/")[1] if where.startswith("systems/") and where.count("/") > 1 else ""
        text = path.read_text(encoding="utf-8")
        # In a system's own folder only imports count: its words may be another's name.
        named = (systems_named(text, stems) if not home else imported(text)) & (registered - {home})
        named.discard(EXAMPLE.get(where, ""))
        if named:
            found[where] = named
    return found


def test_no_test_outside_a_systems_folder_imports_or_names_it() -> None:
    assert offences() == {}


def test_the_check_sees_an_import_a_name_and_a_demo() -> None:
    assert systems_named("from rules.systems.coin9.demo import build") == {"coin9"}
    assert "coin9" not in systems_named("from rules import registry  # rules.systemsx")
    assert "coin9" in systems_named('new_encounter("Pit", "coin9")')
    assert "coin9" in systems_named('storage.read(ROOT / "saves/demo-coin9.fight")')
    assert "coin9" in systems_named('cli.main(["odds coin9"])')
    assert "coin9" in systems_named('demo_app("demo-two-coins")', {"coin9": "demo-two-coins"})
    assert "coin9" not in systems_named('"coin9_sheet" or "acoin9"')
    assert "d20" not in systems_named('roll("d20")')
