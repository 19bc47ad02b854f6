"""`tracker library` with Beer Run's stat blocks: a field of another system's sheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_library import run, write
from tracker.store import library


def test_the_wrong_system_names_the_field(tmp_path: Path) -> None:
    with pytest.raises(library.LibraryError, match="Beer Run sheets have no field 'attack'"):
        library.parse('name = "O"\nsystem = "beerrun"\n[sheet]\nattack = 5\n')


def test_a_field_it_has_not_gets_one_line_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path, 'name = "Ogre"\nsystem = "beerrun"\n[sheet]\nattack = 5\n')
    code, out, err = run(capsys, "library", "add", str(source), "--library", str(tmp_path / "l"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "line 4" in err and str(source) in err, err
    assert not (tmp_path / "l").exists()
