"""`tracker library` and `tracker new --party`, in any system: every demo's combatants are
bundled stat blocks, round trip through TOML, and a party from another system's save is
refused in one line (each system's own cases: tests/systems/<name>/test_library_<name>.py)."""

from __future__ import annotations

import os
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.registry import get_system
from tests.picks import a_system, has_bundled_foes
from tracker import cli, launch
from tracker.demos import DEMOS
from tracker.store import library, library_find, storage


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "block.toml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def new_args(tmp_path: Path, *extra: str) -> History:
    args = cli.build_parser().parse_args(
        ["--saves", str(tmp_path), "--library", str(tmp_path / "lib"), "new", *extra]
    )
    opened, _ = launch.choose_encounter(args)
    return opened.history


def test_every_demo_combatant_is_in_its_systems_bundled_library() -> None:
    found = library.load(None)
    assert found.problems == []
    for build in DEMOS.values():
        state = build().state
        if not found.of(state.system):
            continue  # a system may bundle no stat blocks
        for combatant in state.combatants:
            entry = found.find(state.system, combatant.name)
            assert entry is not None and entry.bundled, combatant.name
            fresh = library.from_combatant(state.system, combatant, fresh=True)
            assert entry.sheet() == fresh.sheet()


def test_a_stat_block_round_trips_through_toml() -> None:
    for build in DEMOS.values():
        state = build().state
        for combatant in state.combatants:
            entry = library.from_combatant(state.system, combatant)
            again = library.parse(library.to_toml(entry))
            assert again.sheet() == entry.sheet() and again.name == combatant.name


def test_new_refuses_a_party_from_another_systems_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demos = {build().state.system: build for build in DEMOS.values()}
    if len(demos) < 2:
        pytest.skip("one system only: no other system's save to refuse")
    ours, theirs = list(demos)[:2]
    save = tmp_path / "theirs.fight"
    storage.write(save, demos[theirs]())
    args = ["--saves", str(tmp_path), "--library", str(tmp_path), "new", "--system", ours]
    code, _, err = run(capsys, *args, "--name", "X", "--party", str(save))
    expected = f"is a {get_system(theirs).title} encounter, not {get_system(ours).title}"
    assert code == 2 and expected in err and err.count("\n") == 1, err


def test_export_finds_a_combatant_as_the_line_does_and_says_did_you_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tracker library export SAVE NAME``: a first name or a unique prefix finds it, a word
    that fits several or none is refused in one line with "did you mean"."""
    history = History(new_encounter("Ambush", a_system()))
    for name in ("Orla Vance", "Orc Brute", "Bram"):
        history.commit(decide(history.state, AddCombatant(name=name), SeededDice(1)), "add")
    save = tmp_path / "ambush.fight"
    storage.write(save, history)
    for word in ("orla", "BR", "orla-vance"):
        code, out, _ = run(capsys, "library", "export", str(save), word)
        assert code == 0 and library.parse(out).name in ("Orla Vance", "Bram"), word
    for word, said in (
        ("or", "'or' fits 2 combatants: did you mean 'Orla Vance' or 'Orc Brute'?"),
        ("orlaa", "no combatant 'orlaa': did you mean 'Orla Vance'?"),
    ):
        code, _, err = run(capsys, "library", "export", str(save), word)
        assert code == 2 and err.count("\n") == 1 and said in err, err


def test_new_with_a_mistyped_stat_block_says_did_you_mean_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def started(app: object) -> int:
        raise AssertionError("the typo was taken: the app was started")

    monkeypatch.setattr(launch, "_run", started)  # a typo taken would otherwise run it
    system = a_system(has_bundled_foes)
    foe = next(e for e in library.load(None).of(system) if e.side == "foes")
    # The last letter changed, not dropped: a name's start alone is taken when only one
    # stat block starts so ("Bounce" is Beer Run's "Bouncer").
    typo = foe.name[:-1] + ("q" if foe.name[-1] != "q" else "x")  # "Goblin" -> "Gobliq"
    code, _, err = run(
        capsys, "--saves", str(tmp_path), "new", "--system", system, "--name", "X", "--add", typo
    )
    assert code == 2 and err.count("\n") == 1, err
    assert f"did you mean '{foe.name}'" in err and "library list" in err


def test_a_huge_name_the_library_does_not_have_is_echoed_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    system = a_system(has_bundled_foes)
    huge = "Gh" * 2500
    code, _, err = run(
        capsys, "--saves", str(tmp_path), "new", "--system", system, "--name", "X", "--add", huge
    )
    assert code == 2 and err.count("\n") == 1, err
    assert f"'{'Gh' * 30}…'" in err and len(err) < 400, err


# --- reading it again: a file unchanged is not parsed again (#41) ---------------------------


def counted_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources ``library.parse`` is given from now on."""
    parsed: list[str] = []
    real = library.parse

    def parse(text: str, source: str = "stat block") -> library.Entry:
        parsed.append(source)
        return real(text, source)

    monkeypatch.setattr(library, "parse", parse)
    return parsed


def test_a_stat_block_unchanged_is_not_parsed_again_and_a_changed_one_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = library.load(None).entries[0]  # any system's first bundled stat block
    folder = tmp_path / "lib"
    path = write(folder, library.to_toml(replace(entry, name="Zed")), f"{entry.system}/zed.toml")
    long_ago = time.time() - 600
    os.utime(path, (long_ago, long_ago))
    parsed = counted_parses(monkeypatch)
    assert library.load(folder).find(entry.system, "Zed") is not None
    assert parsed == [str(path)]  # the bundled ones were read above: kept
    assert library.load(folder).find(entry.system, "Zed") is not None and len(parsed) == 1
    path.write_text(library.to_toml(replace(entry, name="Zef")), encoding="utf-8")  # its size
    assert library.load(folder).find(entry.system, "Zef") is not None and len(parsed) == 2
    path.write_text(library.to_toml(replace(entry, name="Zed Two")), encoding="utf-8")
    found = library.load(folder)
    assert found.find(entry.system, "Zed Two") and found.find(entry.system, "Zef") is None


def test_a_broken_stat_block_is_told_on_every_reading_though_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = library.load(None).entries[0].system
    write(tmp_path, 'name = "Broken"\n[sheet', f"{system}/broken.toml")
    parsed = counted_parses(monkeypatch)
    first, again = library.load(tmp_path), library.load(tmp_path)
    assert len(first.problems) == len(again.problems) == 1
    assert "broken.toml" in again.problems[0] and len(parsed) == 1


def test_a_new_encounter_without_foes_or_a_party_reads_no_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unread(folder: Path | None) -> library.Library:
        raise AssertionError("the library was read")

    system = library.load(None).entries[0].system
    monkeypatch.setattr(library, "load", unread)
    history = new_args(tmp_path, "--system", system, "--name", "Quiet")
    assert history.state.name == "Quiet" and not history.state.combatants


def test_every_name_as_the_listing_shows_it_adds_that_stat_block(tmp_path: Path) -> None:
    """A name copied from `tracker library list` is taken by `--add`: Pain Pool lists
    "Goons (challenge)", and `--add "Goons (challenge) x2"` said there was no such stat
    block."""
    for entry in library.load(None).entries:
        if entry.source == "srd" and not entry.name.startswith("G"):
            continue  # the SRD's 334 monsters list by their plain names: a few are enough
        row = library_find.listing([entry]).splitlines()[2]
        listed = re.split(r"\s{2,}", row.strip())[0]
        history = new_args(
            tmp_path, "--system", entry.system, "--name", "X", "--add", f"{listed} x2"
        )
        names = [c.name for c in history.state.combatants]
        assert names == [f"{entry.name} 1", f"{entry.name} 2"], (listed, names)
