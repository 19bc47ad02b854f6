"""`tracker library import FILE`: monsters in the SRD data's shape (a download from the D&D
5e API or the 5e-bits database) kept in the user's library as Generic d20 stat blocks, with
--dry-run showing what would be kept; anything else refused in one inert line, exit 2, and
nothing written, not even part of a list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_library import run
from tests.systems.d20.test_srd_convert_d20 import DATA, data
from tracker.store import library, library_sets


def lib(tmp_path: Path) -> Path:
    return tmp_path / "lib"


def importing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: Path, *extra: str
) -> tuple[int, str, str]:
    return run(capsys, "library", "import", str(path), "--library", str(lib(tmp_path)), *extra)


def kept_files(tmp_path: Path) -> list[str]:
    folder = lib(tmp_path) / "d20"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def written(tmp_path: Path, raw: object, name: str = "monsters.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def test_a_list_of_monsters_is_kept_in_the_users_library_each_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = importing(capsys, tmp_path, DATA / "band.json")
    assert code == 0, err
    assert kept_files(tmp_path) == ["mire-rat.toml", "reed-bandit.toml"]
    assert "Reed Bandit: HP 3d8+3, AC 13, CR 1/2; left out: " in out
    assert "Mire Rat: HP 1, AC 10, CR 0" in out
    assert "Kept 2 stat blocks in" in err
    found = library.load(lib(tmp_path)).need("d20", "reed-bandit")
    assert found.source == "user" and found.sheet().challenge == "1/2"


def test_a_dry_run_shows_what_would_be_kept_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = importing(capsys, tmp_path, DATA / "drake.json", "--dry-run")
    assert code == 0, err
    assert out.startswith("Cinder Drake: HP 13d10+39, AC 17, CR 7; left out: ")
    assert "mended: Cinder Breath" in out
    assert "Would keep 1 stat block in" in err
    assert kept_files(tmp_path) == []


def test_one_already_in_the_library_is_replaced_only_when_told_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert importing(capsys, tmp_path, DATA / "drake.json")[0] == 0
    kept = lib(tmp_path) / "d20" / "cinder-drake.toml"
    kept.write_text(kept.read_text(encoding="utf-8").replace('ac = "17"', 'ac = "18"'))
    code, _, err = importing(capsys, tmp_path, DATA / "band.json")
    assert code == 0  # other names: kept beside it
    code, _, err = importing(capsys, tmp_path, DATA / "drake.json")
    assert code == 2 and "add --replace" in err and len(err.splitlines()) == 1
    assert 'ac = "18"' in kept.read_text(encoding="utf-8")
    assert importing(capsys, tmp_path, DATA / "drake.json", "--replace")[0] == 0
    assert 'ac = "17"' in kept.read_text(encoding="utf-8")


def hostile_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Files to refuse, each with what its one line says."""
    band = data("band.json")
    damaged = [band[0], {k: v for k, v in band[1].items() if k != "armor_class"}]
    twice = [band[0], band[0]]
    huge = tmp_path / "huge.json"
    huge.write_bytes(b"[" + b" " * library_sets.MAX_BYTES + b"]")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    api_list = {"count": 1, "results": []}
    return {
        "missing": (tmp_path / "nowhere.json", "no such file"),
        "prose": (_text(tmp_path, "goblin.json", "A goblin, AC 15"), "not JSON"),
        "other-shape": (written(tmp_path, api_list, "b.json"), "not stat blocks"),
        "damaged-in-a-list": (written(tmp_path, damaged, "c.json"), "2 ('Mire Rat'): armor_class"),
        "twice": (written(tmp_path, twice, "d.json"), "would be kept in one file"),
        "too-many": (written(tmp_path, [band[1]] * 1001, "e.json"), "more than 1,000 monsters"),
        "huge": (huge, "too big"),
        "deep": (deep, "nested too deeply"),
        "binary": (binary, "not UTF-8"),
        "folder": (tmp_path, "not a"),
    }  # fmt: skip


def _text(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


CASES = ("missing", "prose", "other-shape", "damaged-in-a-list", "twice", "too-many", "huge",
         "deep", "binary", "folder")  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_anything_else_is_refused_in_one_line_and_nothing_is_written(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, said = hostile_files(tmp_path)[case]
    code, out, err = importing(capsys, tmp_path, path)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and said in err, err
    assert "Traceback" not in err
    assert kept_files(tmp_path) == []


def test_control_characters_in_a_monster_are_inert_in_the_output_and_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = data("drake.json")
    raw["name"] = "Evil\x1b]0;PWNED\x07\nDrake\u202e"
    raw["special_abilities"][0]["name"] = "Trait\x1b[2J"
    code, out, err = importing(capsys, tmp_path, written(tmp_path, raw))
    assert code == 0, err
    for text in (out, err, *(p.read_text() for p in (lib(tmp_path) / "d20").iterdir())):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "Evil]0;PWNED Drake: HP" in out and "Trait[2J" in out


def test_a_failure_while_writing_puts_back_what_was_written_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = library_sets.planned(lib(tmp_path), DATA / "band.json")
    real = library_sets.write
    calls: list[str] = []

    def failing(folder: Path, entry: library.Entry, text: str | None = None) -> Path:
        calls.append(entry.name)
        if len(calls) == 2:
            raise library.LibraryError("disk full")
        return real(folder, entry, text)

    monkeypatch.setattr(library_sets, "write", failing)
    with pytest.raises(library.LibraryError):
        library_sets.kept(lib(tmp_path), plan)
    assert calls == ["Reed Bandit", "Mire Rat"] and kept_files(tmp_path) == []
