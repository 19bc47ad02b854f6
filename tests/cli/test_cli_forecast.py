"""``tracker forecast``: text with bars, JSON for scripts, the save untouched, one line and
exit 2 for bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from rules.commands import AddCombatant
from rules.difficulty import unready
from rules.encounter import Combatant
from rules.forecast import MAX_ROUNDS, MAX_RUNS, MAX_SEED
from tests.app.support import fight_of
from tests.picks import a_demo, a_system, plays_solo
from tracker.cli import build_parser
from tracker.store import storage

from .support import tracker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def save(tmp_path: Path) -> Path:
    """A played copy of a demo (not a demo: a forecast of a real save)."""
    path = tmp_path / "brawl.fight"
    shutil.copy(ROOT / "saves" / f"{a_demo(plays_solo)}{storage.SUFFIX}", path)
    return path


@pytest.mark.parametrize("name", ["brawl", "brawl.fight"])
def test_a_save_is_found_by_its_name_in_the_saves_folder(save: Path, name: str) -> None:
    elsewhere = save.parent / "elsewhere"
    elsewhere.mkdir()
    args = ("--saves", str(save.parent), "forecast", name, "--runs", "5", "--jobs", "1")
    done = tracker(*args, cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert "Who wins" in done.stdout


def test_a_name_in_no_folder_is_no_such_file(save: Path) -> None:
    done = tracker("--saves", str(save.parent), "forecast", "nothere", cwd=save.parent)
    assert (done.returncode, done.stderr) == (2, "tracker: nothere: no such file\n")


def test_a_file_here_comes_before_the_saves_folders_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "fight.fight").write_text("")
    monkeypatch.chdir(tmp_path)
    assert storage.located(Path("fight"), folder) == folder / "fight.fight"
    assert storage.located(Path("x/fight"), folder) == Path("x/fight")  # a path is a path
    (tmp_path / "fight").write_text("")
    assert storage.located(Path("fight"), folder) == Path("fight")


def first_fighter(save: Path) -> Combatant[Any]:
    return storage.read(save).state.combatants[0]


def test_text_shows_the_chances_with_bars_and_each_combatants_risk(save: Path) -> None:
    done = tracker("forecast", str(save), "--runs", "40", "--seed", "4", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    round_ = storage.read(save).state.round
    assert out.startswith(f"40 fights from round {round_}, seed 4 (at most 50 rounds each)")
    assert "Who wins" in out and "█" in out
    assert "party" in out and "foes" in out and "no winner" in out
    assert "rounds on average" in out
    assert first_fighter(save).name in out and "out  first  expected at the end" in out


def test_json_same_seed_same_forecast_and_the_save_never_changes(save: Path) -> None:
    before = save.read_bytes()
    runs = [
        tracker("forecast", str(save), "--runs", "30", "--seed", "8", "--jobs", jobs, "--json")
        for jobs in ("1", "2")
    ]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout
    doc = json.loads(runs[0].stdout)
    assert (doc["runs"], doc["seed"]) == (30, 8)
    assert set(doc["sides"]) == {"party", "foes"}
    first = first_fighter(save)
    assert doc["combatants"][first.id]["name"] == first.name
    assert save.read_bytes() == before
    assert sorted(p.name for p in save.parent.iterdir()) == ["brawl.fight"]  # no journal


def test_a_seed_is_chosen_and_printed_back_when_none_is_given(save: Path) -> None:
    done = tracker("forecast", str(save), "--runs", "3", "--jobs", "1", "--json")
    assert done.returncode == 0
    assert isinstance(json.loads(done.stdout)["seed"], int)


@pytest.mark.parametrize(
    "args",
    [
        ["--runs", "0"],
        ["--runs", "many"],
        ["--runs", str(MAX_RUNS + 1)],
        ["--jobs", "0"],
        ["--rounds", "0"],
        ["--rounds", str(MAX_ROUNDS + 1)],
        ["--seed", "-1"],
        ["--seed", str(MAX_SEED + 1)],
    ],
)
def test_bad_input_is_one_line_and_exit_2(save: Path, args: list[str]) -> None:
    done = tracker("forecast", str(save), *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "error" in done.stderr


def test_a_missing_or_foreign_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.fight"
    foreign.write_text("not a save")
    for path in (tmp_path / "nowhere.fight", foreign, tmp_path):
        done = tracker("forecast", str(path), "--runs", "2")
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("tracker: ")


def test_the_command_lines_bounds_are_the_forecasts() -> None:
    parser = build_parser()
    args = parser.parse_args(["forecast", "x", "--runs", str(MAX_RUNS)])
    assert args.runs == MAX_RUNS
    args = parser.parse_args(
        ["forecast", "x", "--rounds", str(MAX_ROUNDS), "--seed", str(MAX_SEED)]
    )
    assert (args.rounds, args.seed, args.jobs, args.json) == (MAX_ROUNDS, MAX_SEED, None, False)


def one_sided(tmp_path: Path) -> Path:
    """A fight of two goblins and nobody else: a system with solo play, foes alone."""
    history = fight_of(a_system(plays_solo), *foes("Goblin 1", "Goblin 2"))
    path = tmp_path / "goblins.fight"
    storage.write(path, history)
    return path


def foes(*names: str) -> list[AddCombatant]:
    return [AddCombatant(name=name, side="foes") for name in names]


def test_a_fight_of_one_side_is_refused_in_one_line_before_any_fight(tmp_path: Path) -> None:
    """A forecast of the foes alone once played 1,000 fights to the round cap and printed
    "foes 0.0%, no winner 100.0%"; it is refused, as the app's F refuses it."""
    path = one_sided(tmp_path)
    for more in ((), ("--json",)):
        done = tracker("forecast", str(path), "--runs", "5", "--jobs", "1", *more)
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr == "tracker: one side only (foes): a forecast needs two sides\n"


def test_a_brief_forecast_of_one_side_says_the_difficulty_s_refusal(tmp_path: Path) -> None:
    path = one_sided(tmp_path)
    done = tracker("forecast", str(path), "--brief", "--runs", "5", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{unready(storage.read(path).state)}\n"  # the app's D says it
    assert done.stdout.startswith("Difficulty: no party yet")
