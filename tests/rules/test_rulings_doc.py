"""docs/rulings.md and each system's own rulings (``rules/systems/<name>/rulings.md``) stay true
to the code: every test, module and name they cite exists, and every link leads to a heading of
the page it names (their "Coverage" tables are read this way)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from docs.hooks import RULINGS_INDEX
from rules.registry import names

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "docs" / "rulings.md"

# `path.py`, `path.py::name`, `path.py::Class.name`, or `::name` (in the path cited last).
PAGES = [RULINGS, *sorted(ROOT.joinpath("rules", "systems").glob("*/rulings.md"))]
REFERENCE = re.compile(r"`((?:tests|rules|tracker)/[\w/]+\.py)?(?:::([\w.]+))?`")
LINK = re.compile(r"\]\(([^)#\s]*)(?:#([^)]+))?\)")  # a page (this one: ""), its heading


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to -."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def defines(source: str, name: str) -> bool:
    """Whether a module defines ``name`` (a function, class or assigned name), at any depth;
    a test (``test_...``) only as pytest collects it: a function of the module or a method."""
    if name.startswith("test_"):
        return name in collected(source)
    pattern = rf"^\s*(?:(?:async\s+)?def|class)\s+{name}\b|^\s*{name}\s*[:=]"
    return re.search(pattern, source, re.MULTILINE) is not None


def collected(source: str) -> set[str]:
    """The functions of a module and the methods of its classes: where pytest finds tests."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    tree = ast.parse(source)
    found = {node.name for node in tree.body if isinstance(node, functions)}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            found |= {item.name for item in node.body if isinstance(item, functions)}
    return found


def references(text: str) -> list[tuple[str, str | None]]:
    """Every (path, name) cited; a bare ``::name`` belongs to the path cited just before."""
    found: list[tuple[str, str | None]] = []
    current: str | None = None
    for match in REFERENCE.finditer(text):
        path, name = match.group(1), match.group(2)
        if path is None and name is None:
            continue
        current = path or current
        assert current is not None, f"`::{name}` with no file cited before it"
        found.append((current, name))
    return found


def anchors_of(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_cited_file_and_name_exists(page: Path) -> None:
    missing = []
    for path, name in references(page.read_text(encoding="utf-8")):
        file = ROOT / path
        if gone(file):
            continue
        if not file.is_file():
            missing.append(path)
        elif name is not None:
            source = file.read_text(encoding="utf-8")
            missing += [f"{path}::{name}" for part in name.split(".") if not defines(source, part)]
    assert missing == []


def gone(linked: Path) -> bool:
    """Whether ``linked`` is in the folder of a system that is not registered (its rules' or
    its tests'): a deleted system takes its pages and tests with it, and the links and
    citations to them are the guide's to mend."""
    for systems in (ROOT / "rules" / "systems", ROOT / "tests" / "systems"):
        if linked.is_relative_to(systems):
            parts = linked.relative_to(systems).parts
            return len(parts) > 1 and parts[0] not in names()
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_to_a_heading(page: Path) -> None:
    broken = []
    for target, anchor in LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http:", "https:")):
            continue
        linked = (page.parent / target).resolve() if target else page
        if gone(linked):
            continue
        if not linked.is_file() or (anchor and anchor not in anchors_of(linked)):
            broken.append(f"{target}#{anchor}")
    assert broken == []


def test_each_systems_rulings_are_listed_on_the_tracker_wide_page_as_the_site_is_built() -> None:
    # The list is the registry's (docs/hooks.py), so a system added or deleted needs no line
    # here; tests/docs/test_docs_site.py checks every system is on it.
    assert RULINGS_INDEX in RULINGS.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ('### Aiding: MOS 0 and "part thereof"', "aiding-mos-0-and-part-thereof"),
        ("### 15+ on a Will roll transforms", "15-on-a-will-roll-transforms"),
        ("## Any System (`001`)", "any-system-001"),
        ("### Solo play: the GM's challenges", "solo-play-the-gms-challenges"),
    ],
)
def test_anchors_are_made_as_github_makes_them(heading: str, anchor: str) -> None:
    assert slug(heading.lstrip("#")) == anchor


def test_the_checks_catch_a_missing_name_and_a_bare_name() -> None:
    cited = references("`tests/rules/test_rulings_doc.py::slug`, `::no_such_name`")
    assert cited == [
        ("tests/rules/test_rulings_doc.py", "slug"),
        ("tests/rules/test_rulings_doc.py", "no_such_name"),
    ]
    source = Path(__file__).read_text(encoding="utf-8")
    assert defines(source, "slug") and not defines(source, "no_such_" + "name")
    nested = "def helper():\n    def test_inner():\n        pass\n\ntest_alias = helper\n"
    assert not defines(nested, "test_inner") and not defines(nested, "test_alias")
    assert defines(source, "test_the_checks_catch_a_missing_name_and_a_bare_name")
