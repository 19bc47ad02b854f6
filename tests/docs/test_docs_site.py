"""The docs site builds with no broken link, and its made pages hold what the app has."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from textual.binding import Binding

from docs.generate import pages, subcommands
from tracker.cli import build_parser
from tracker.screens.encounter import EncounterScreen

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
        [mkdocs, "build", "--strict", "--quiet", "--site-dir", tmp_path / "site"],
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
