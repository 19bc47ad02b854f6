"""`tracker library` and `tracker new --party --fresh` with Pain Pool's stat blocks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.systems.painpool.demo import build as painpool_demo
from tests.cli.support import tracker
from tests.cli.test_library import new_args, run, write
from tracker.store import storage


def test_new_party_without_a_library_entry_is_reset_to_full(tmp_path: Path) -> None:
    history = painpool_demo()
    save = tmp_path / "pain.fight"
    storage.write(save, history)
    state = new_args(
        tmp_path, "--system", "painpool", "--name", "Next", "--party", str(save), "--fresh"
    ).state
    assert all(b.damage == 0 and b.failure == 0 for c in state.combatants for b in c.sheet.boons)
    assert {c.side for c in state.combatants} == {"heroes"}


def test_the_library_command_from_the_shell(tmp_path: Path) -> None:
    result = tracker("library", "list", "--system", "painpool", "--library", str(tmp_path))
    assert result.returncode == 0 and "Juggernaut" in result.stdout and result.stderr == ""


def test_a_bad_kind_gets_one_line_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path, 'name = "Ogre"\nsystem = "painpool"\nkind = "boss"\n')
    code, out, err = run(capsys, "library", "add", str(source), "--library", str(tmp_path / "l"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "line 3: Pain Pool has no kind" in err, err
    assert str(source) in err and not (tmp_path / "l").exists()


def test_list_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "library", "list", "--json", "--library", str(tmp_path))
    assert code == 0
    listed = json.loads(out)
    juggernaut = next(e for e in listed if e["name"] == "Juggernaut")
    assert juggernaut["kind"] == "challenge" and juggernaut["sheet"]["tokens"] == "8"
    assert juggernaut["bundled"] is True
