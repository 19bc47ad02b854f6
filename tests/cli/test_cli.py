"""The tracker command: headless rolls, choosing what to open, and one-line errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from rules import registry
from rules.engine import new_encounter
from rules.history import History
from rules.systems.livehack.demo import build as livehack_demo
from tests.cli.support import tracker
from tracker import cli, launch, storage


def test_roll_json_has_every_die_and_is_reproducible() -> None:
    args = ("roll", "livehack", "--attacker", "5", "--defender", "3", "--seed", "4", "--json")
    first = json.loads(tracker(*args).stdout)
    assert first == json.loads(tracker(*args).stdout)
    assert first["attacker"]["boon"] and first["attacker"]["bane"]
    attacker, defender = first["attacker"], first["defender"]
    assert attacker["total"] == 5 + sum(attacker["boon"]) - sum(attacker["bane"])
    assert first["margin"] == attacker["total"] - defender["total"]
    assert first["success"] == (first["margin"] >= 0)


def test_roll_with_take_ten_and_zero_rolls_no_dice() -> None:
    result = tracker(
        "roll", "livehack", "--attacker", "2", "--defender", "1",
        "--attacker-take", "ten", "--defender-take", "zero", "--json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert data["attacker"]["boon"] == [] and data["attacker"]["total"] == 12
    assert data["defender"]["total"] == 1 and data["margin"] == 11
    assert data["tier"] is None  # a roll to hit: its damage roll comes next (issue 30)
    assert data["margin_bonus"] == 2


def test_the_json_tier_is_the_damage_tables_only_for_a_roll_it_answers() -> None:
    """Issue 30: `--defense reflex --json` gave a roll to hit a damage-table tier."""
    result = tracker(
        "roll", "livehack", "--attacker", "2", "--defender", "1", "--defense", "fortitude",
        "--attacker-take", "ten", "--defender-take", "zero", "--json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert data["tier"] == {"low": 10, "high": 14, "levels": 3, "condition": "Incapacitated"}


def test_roll_prints_a_readable_breakdown() -> None:
    out = tracker("roll", "livehack", "--attacker", "5", "--defender", "3", "--seed", "4").stdout
    assert "Attacker vs Defender" in out and "boon [" in out and "(seed 4)" in out


@pytest.mark.parametrize(
    "args",
    [
        ("roll", "livehack", "--attacker", "x", "--defender", "1"),
        ("roll", "livehack", "--attacker", "1"),
        ("roll", "dnd", "--attacker", "1", "--defender", "1"),
        ("roll", "livehack", "--attacker", "1", "--defender", "1", "--attacker-take", "five"),
        ("new", "--system", "gurps", "--name", "x"),
        ("open",),
        ("--bogus",),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    result = tracker(*args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_version_is_the_installed_distributions() -> None:
    result = tracker("--version")
    assert result.returncode == 0
    assert result.stdout == f"tracker {version('combat-tracker')}\n"


def test_opening_a_bad_file_is_one_line_exit_2_and_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.fight"
    bad.write_bytes(b"\x00garbage")
    result = tracker("open", str(bad))
    assert result.returncode == 2
    assert result.stderr == f"tracker: {bad}: not a combat tracker save\n"
    assert bad.read_bytes() == b"\x00garbage"


def test_each_subcommand_is_one_module_in_the_table() -> None:
    """A ``cmd_*.py`` the table misses would never be offered; one listed must exist."""
    folder = Path(cli.__file__).parent
    assert sorted(p.stem.removeprefix("cmd_") for p in folder.glob("cmd_*.py")) == sorted(
        cli.COMMANDS
    )
    usage = cli.build_parser().format_usage()
    assert "{" + ",".join(cli.COMMANDS) + "}" in usage


def test_headless_roll_does_not_load_textual() -> None:
    code = (
        "import sys; from tracker.cli import main; "
        "main(['roll','livehack','--attacker','1','--defender','1','--json']); "
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().endswith("False")


@pytest.mark.parametrize("system", registry.names())
def test_headless_odds_load_no_msgspec_and_no_system_module(system: str) -> None:
    """``tracker odds`` starts fast: only the msgspec-free tables and the odds engine load."""
    odds_cli = registry.part(system, "odds_cli")
    assert odds_cli is not None, f"{system} has no odds_cli"
    argv = ["odds", system, *odds_cli.EXAMPLE, "--json"]
    code = (
        "import sys, json; from tracker.cli import main; "
        f"main({argv!r}); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('msgspec', 'textual', "
        "'rules.systems.', 'rules.encounter')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    odds_line, loaded_line = out.strip().splitlines()
    assert json.loads(odds_line)["system"] == system
    light = {"table", "pools", "bands", "odds", "odds_cli"}
    light = {f"rules.systems.{system}.{name}" for name in light}
    assert [
        m for m in json.loads(loaded_line) if m not in light | {f"rules.systems.{system}"}
    ] == []


def args_for(*argv: str):
    return cli.build_parser().parse_args(list(argv))


def test_no_command_opens_the_newest_save(tmp_path: Path) -> None:
    older, newer = tmp_path / "a.fight", tmp_path / "b.fight"
    storage.write(older, History(new_encounter("Older", "livehack")))
    storage.write(newer, History(new_encounter("Newer", "livehack")))
    import os

    os.utime(older, (1, 1))
    opened, skipped = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.path == newer and skipped == []


def test_no_command_skips_a_damaged_save_and_says_so(tmp_path: Path) -> None:
    good = tmp_path / "good.fight"
    storage.write(good, History(new_encounter("Good", "livehack")))
    bad = tmp_path / "bad.fight"
    bad.write_bytes(b"junk")
    import os

    os.utime(good, (1, 1))
    opened, skipped = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.path == good
    assert skipped == [f"Skipped {bad}: not a combat tracker save"]
    assert bad.read_bytes() == b"junk"


def test_a_fresh_start_opens_the_livehack_demo_among_all_the_demos(tmp_path: Path) -> None:
    import shutil

    for demo in (Path(__file__).parents[2] / "saves").glob("demo-*.fight"):
        shutil.copy(demo, tmp_path / demo.name)
    assert len(list(tmp_path.glob("demo-*.fight"))) == len(registry.names())
    opened, _ = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.history.state.system == "livehack"
    assert opened.path == tmp_path / "goblin-warren.fight"


def test_no_saves_plays_a_copy_of_the_demo(tmp_path: Path) -> None:
    storage.write(tmp_path / "demo-livehack.fight", livehack_demo())
    opened, _ = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.path == tmp_path / "goblin-warren.fight"
    assert "copy of the demo" in opened.note


def test_new_picks_a_fresh_file(tmp_path: Path) -> None:
    (tmp_path / "ambush.fight").write_bytes(b"someone else's")
    opened, _ = launch.choose_encounter(
        args_for("new", "--system", "livehack", "--name", "Ambush", "--saves", str(tmp_path))
    )
    assert opened.path == tmp_path / "ambush-2.fight"
    assert opened.history.state.name == "Ambush"


def test_the_bundled_demo_is_what_the_issue_asks_for() -> None:
    state = storage.read(Path(__file__).parents[2] / "saves" / "demo-livehack.fight").state
    assert state.system == "livehack" and state.round == 2
    assert len(state.combatants) == 4
    assert state.last_roll is not None
    assert any(c.conditions for c in state.combatants)
    assert state == livehack_demo().state  # the committed file matches demo.py


def test_saves_may_come_before_or_after_the_command():
    from pathlib import Path

    from tracker.cli import build_parser

    parse = build_parser().parse_args
    assert parse(["--saves", "mine", "open", "f.fight"]).saves == Path("mine")
    assert parse(["open", "f.fight", "--saves", "other"]).saves == Path("other")
    # Not given: the user's data folder (tracker.defaults.saves_folder, chosen after parsing).
    assert parse(["open", "f.fight"]).saves is None
    assert parse([]).saves is None


def test_a_reader_that_goes_away_gets_no_traceback():
    import subprocess
    import sys

    odds = [sys.executable, "-m", "tracker", "odds", "beerrun", "--pool", "d12,d8", "--against"]
    reader = subprocess.Popen([*odds, "d10,d6"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None
    reader.stdout.close()  # gone before the first line is written
    _, err = reader.communicate(timeout=30)
    assert b"Traceback" not in err


@pytest.mark.parametrize("system", registry.names())
def test_a_headless_roll_names_no_key_of_the_app(
    system: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """On the command line there is no `s` or `d` to press: a roll says what it did only."""
    roll_cli = registry.part(system, "roll_cli")
    assert roll_cli is not None, f"{system} has no roll_cli"
    for seed in range(1, 13):
        assert cli.main(["roll", system, *roll_cli.EXAMPLE, "--seed", str(seed)]) == 0
        out = capsys.readouterr().out
        assert not re.search(r"(?<!\w)[A-Za-z] → |\([A-Za-z] applies\)", out), out
