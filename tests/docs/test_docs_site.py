"""The docs site builds with no broken link, and its made pages hold what the app has."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from textual.binding import Binding

from docs.generate import pages, subcommands
from docs.hooks import on_page_markdown, system_pages
from rules.registry import names, part
from tracker.cli import build_parser
from tracker.screens.encounter_screen import EncounterScreen

ROOT = Path(__file__).resolve().parents[2]


def test_the_keys_page_has_every_key_of_the_encounter() -> None:
    page = pages()["reference/keys.md"]
    for binding in EncounterScreen.BINDINGS:
        assert isinstance(binding, Binding)
        assert f"| {binding.description} |" in page


def test_the_command_line_page_has_every_command() -> None:
    page = pages()["reference/command-line.md"]
    names = [name for name, _ in subcommands(build_parser())]
    assert "dice" in names and "library add" in names  # the nested ones too
    for name in names:
        assert f"## tracker {name}\n" in page


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    mkdocs = Path(sys.executable).parent / "mkdocs"
    done = subprocess.run(
        # not --quiet: it hides from strict the warnings it counts, a broken link among them
        [mkdocs, "build", "--strict", "--site-dir", tmp_path / "site"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    keys = (tmp_path / "site" / "reference" / "keys" / "index.html").read_text()
    assert "Move up in order" in keys
    assert (tmp_path / "site" / "systems" / "index.html").exists()


def test_a_system_page_links_the_other_docs_inside_the_site() -> None:
    found = system_pages()
    assert found, "no system has a page"
    for uri, (_, text) in found.items():
        assert "](../../../" not in text, f"{uri} links out of the site"
    assert any("](../rulings.md" in text for _, text in found.values())


def test_the_rulings_page_lists_each_systems_rulings_from_the_registry() -> None:
    page = (ROOT / "docs" / "rulings.md").read_text()
    assert "](../rules/" not in page  # a link to the repository is a 404 when served
    made = on_page_markdown(page, _Page("rulings.md"), None, None)
    for uri in system_pages():  # a system without a page (the worked example) has none
        assert f"({uri})" in made


def test_the_install_page_lists_every_systems_demo() -> None:
    page = (ROOT / "docs" / "guide" / "install.md").read_text()
    made = on_page_markdown(page, _Page("guide/install.md"), None, None)
    for name in names():
        demo = part(name, "demo")
        if demo is not None:
            assert f"`saves/{demo.STEM}.fight`" in made


def test_a_link_out_of_the_site_fails_the_strict_build(tmp_path: Path) -> None:
    ours = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n[the code](../rules/registry.py)\n")
    config = {"site_name": "t", "strict": True, "validation": ours["validation"]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    mkdocs = Path(sys.executable).parent / "mkdocs"
    done = subprocess.run(
        [mkdocs, "build"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
    assert done.returncode != 0
    assert "rules/registry.py" in done.stderr


class _Page:
    """What ``on_page_markdown`` reads of mkdocs' page: its source's place in the docs."""

    def __init__(self, uri: str) -> None:
        self.file = type("File", (), {"src_uri": uri})()
