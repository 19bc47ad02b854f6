"""`tracker library` and `tracker new --party/--add`: stat blocks as TOML files, checked by the
systems' own sheet forms; bad files get one line naming the field and the line, exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules.systems.livehack.demo import build as livehack_demo
from tests.cli.test_library import new_args, run, write
from tracker.store import library, storage

GOBLIN = """name = "Cave Goblin"
system = "livehack"
notes = "Hates light"

[sheet]
attack = 2
wounds = 0
skills = "Hide +4"
"""


def test_add_keeps_a_file_and_it_stands_in_for_a_bundled_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "lib"
    source = write(tmp_path, GOBLIN.replace("Cave Goblin", "Goblin"), "mine.toml")
    code, _, err = run(capsys, "library", "add", str(source), "--library", str(folder))
    assert code == 0 and "Kept Goblin" in err
    kept = folder / "livehack" / "goblin.toml"
    assert kept.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
    goblin = library.load(folder).need("livehack", "goblin")
    assert not goblin.bundled and goblin.notes == "Hates light"


def test_add_refuses_a_name_already_kept_unless_told_to_replace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "lib"
    first = write(tmp_path, GOBLIN, "first.toml")
    second = write(tmp_path, GOBLIN.replace("Hates light", "Loves light"), "second.toml")
    assert run(capsys, "library", "add", str(first), "--library", str(folder))[0] == 0
    code, _, err = run(capsys, "library", "add", str(second), "--library", str(folder))
    assert code == 2 and "named 'Cave Goblin' already" in err and "--replace" in err
    assert library.load(folder).need("livehack", "cave-goblin").notes == "Hates light"
    code, _, err = run(capsys, "library", "add", str(second), "--replace", "--library", str(folder))
    assert code == 0 and "Kept Cave Goblin" in err
    assert library.load(folder).need("livehack", "cave-goblin").notes == "Loves light"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('name = "Ogre"\nsystem = "livehack"\n[sheet]\nattack = \n', "line 4"),
        ('name = "Ogre"\nsystem = "livehack"\n\n[sheet]\nattack = 5\nmana = 3\n', "line 6"),
        ('name = "Ogre"\nsystem = "livehack"\n[sheet]\nwounds = "lots"\n', "line 4: Wounds"),
        ('name = "Ogre"\nsystem = "dnd"\n', "line 2: unknown rule system 'dnd'"),
        ('name = "Ogre"\nsystem = "livehack"\nlevel = 3\n', "line 3: unknown field 'level'"),
        ('system = "livehack"\n', "no name"),
    ],
    ids=["syntax", "unknown-sheet-field", "bad-value", "no-system", "unknown-field", "no-name"],
)  # fmt: skip
def test_a_bad_file_gets_one_line_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    source = write(tmp_path, text)
    code, out, err = run(capsys, "library", "add", str(source), "--library", str(tmp_path / "l"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and expected in err and str(source) in err, err
    assert not (tmp_path / "l").exists()


def test_an_oversized_file_and_a_fifo_are_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = write(tmp_path, GOBLIN + "#" * library.MAX_BYTES)
    code, _, err = run(capsys, "library", "add", str(big), "--library", str(tmp_path / "l"))
    assert code == 2 and "too big" in err
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # opening it would wait for a writer for ever
    code, _, err = run(capsys, "library", "add", str(fifo), "--library", str(tmp_path / "l"))
    assert code == 2 and "is a pipe" in err
    code, _, err = run(capsys, "library", "add", str(tmp_path), "--library", str(tmp_path / "l"))
    assert code == 2 and "is a folder" in err


def test_a_stat_block_is_never_read_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    block = write(tmp_path, GOBLIN)
    link = tmp_path / "linked.toml"
    link.symlink_to(block)
    code, _, err = run(capsys, "library", "add", str(link), "--library", str(tmp_path / "l"))
    assert code == 2 and "symbolic link" in err and not (tmp_path / "l").exists()
    assert run(capsys, "library", "add", str(block), "--library", str(tmp_path / "l"))[0] == 0


def test_a_bad_file_in_the_library_is_skipped_with_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "name = [", "livehack/broken.toml")
    code, out, err = run(capsys, "library", "list", "--library", str(tmp_path))
    assert code == 0 and "Goblin Sneak" in out
    assert "Skipped" in err and "broken.toml" in err


def test_export_prints_a_combatant_as_toml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "warren.fight"
    storage.write(save, livehack_demo())
    code, out, _ = run(capsys, "library", "export", str(save), "goblin-boss")
    assert code == 0
    entry = library.parse(out)
    # Its stat block, not its state: the demo's Goblin Boss has taken 3 Wounds.
    assert entry.name == "Goblin Boss" and "wounds" not in dict(entry.fields)
    assert livehack_demo().state.combatants[-1].sheet.wounds == 3  # hurt in the save
    code, _, err = run(capsys, "library", "export", str(save), "Zed")
    assert code == 2 and "no combatant 'Zed'" in err


def test_new_with_the_party_as_it_ended_and_a_group(tmp_path: Path) -> None:
    save = tmp_path / "warren.fight"
    storage.write(save, livehack_demo())
    history = new_args(
        tmp_path, "--system", "livehack", "--name", "Bandit Ambush",
        "--party", str(save), "--add", "goblin x3", "--add", "Goblin Boss",
    )  # fmt: skip
    state = history.state
    names = [c.name for c in state.combatants]
    assert names == ["Orla", "Brak", "Goblin 1", "Goblin 2", "Goblin 3", "Goblin Boss"]
    orla = state.combatants[0]
    assert orla.sheet == livehack_demo().state.combatants[0].sheet  # as it ended: Fatigue 1
    assert orla.sheet.fatigue == 1
    history.undo()  # each group is one step
    assert [c.name for c in history.state.combatants][-1] == "Goblin 3"


def test_new_with_a_fresh_party(tmp_path: Path) -> None:
    save = tmp_path / "warren.fight"
    ended = livehack_demo()
    storage.write(save, ended)
    lib = tmp_path / "lib"
    # Brak has a stat block of the user's; Orla has the bundled one.
    write(lib, 'name = "Brak"\nsystem = "livehack"\n[sheet]\nattack = 9\n', "livehack/brak.toml")
    state = new_args(
        tmp_path, "--system", "livehack", "--name", "Again", "--party", str(save), "--fresh"
    ).state
    orla, brak = state.combatants
    assert orla.sheet.fatigue == 0 and brak.sheet.attack == 9


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--add", "zork x2"], "no LiveHack stat block 'zork'"),
        (["--add", "goblin x0"], "a group is 1 to 100"),
        (["--add", "goblin x500"], "a group is 1 to 100"),
        (["--fresh"], "--fresh is for a party"),
    ],
)
def test_new_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], expected: str
) -> None:
    args = ["--saves", str(tmp_path), "--library", str(tmp_path), "new", "--system", "livehack"]
    code, _, err = run(capsys, *args, "--name", "X", *extra)
    assert code == 2 and expected in err and err.count("\n") == 1, err


DEEP = "x = " + "[" * 20_000 + "]" * 20_000 + "\n"  # 40 KB, and past any recursion limit


def test_a_deeply_nested_file_gets_one_line_in_add_list_and_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path, DEEP, "deep.toml")
    code, out, err = run(capsys, "library", "add", str(source), "--library", str(tmp_path / "l"))
    assert code == 2 and out == ""
    assert err == f"tracker: {source}: nested too deeply to be a stat block\n"
    write(tmp_path, DEEP, "lib/livehack/deep.toml")
    code, out, err = run(capsys, "library", "list", "--library", str(tmp_path / "lib"))
    assert code == 0 and "Goblin Sneak" in out
    assert "Skipped" in err and "nested too deeply" in err and "Traceback" not in err
    history = new_args(tmp_path, "--system", "livehack", "--name", "Deep")
    assert history.state.name == "Deep"
