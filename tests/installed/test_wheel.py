"""The wheel holds every file the tracker reads at run time, not only its Python.

An installed tracker (``make install``, pipx, an index) has only what the wheel holds: a style
sheet left out once crashed the installed ``tracker serve`` on ``w``. Each test builds a real
wheel (a few seconds) from a copy of the checkout (tests/installed/wheel.py).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from tests.installed.wheel import build_wheel, copy_sources, data_files, missing_from

# What pyproject.toml's package-data once said: only tracker/'s own folder and the stat blocks.
OLD_PACKAGE_DATA = 'tracker = ["*.tcss", "stat_blocks/*/*.toml"]'


def test_the_wheel_holds_every_file_that_is_not_python(tmp_path: Path) -> None:
    wheel = build_wheel(copy_sources(tmp_path / "source"), tmp_path / "dist")
    assert "tracker/serve/seats.tcss" in data_files()
    assert missing_from(wheel) == []
    # The licence too: its pattern matching no file is a warning now, an error in 2027.
    with zipfile.ZipFile(wheel) as held:
        assert any(name.endswith(".dist-info/licenses/LICENSE") for name in held.namelist())


def test_a_narrower_package_data_is_caught(tmp_path: Path) -> None:
    """The check above fails when package-data does not reach every folder."""
    source = copy_sources(tmp_path / "source")
    pyproject = source / "pyproject.toml"
    # The table's lines, up to the blank line that ends it, become the old one.
    table = re.compile(r"^(\[tool\.setuptools\.package-data\]\n)(.+\n)+", re.MULTILINE)
    text, found = table.subn(rf"\g<1>{OLD_PACKAGE_DATA}\n", pyproject.read_text())
    assert found == 1
    pyproject.write_text(text)
    wheel = build_wheel(source, tmp_path / "dist")
    assert "tracker/serve/seats.tcss" in missing_from(wheel)
