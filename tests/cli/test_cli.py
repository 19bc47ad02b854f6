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
from tests.cli.support import tracker
from tests.picks import a_system, has_demo
from tracker import cli, launch
from tracker.store import storage

SYSTEM = a_system()
ROLL = registry.part(SYSTEM, "roll_cli").EXAMPLE  # a roll its `tracker roll` takes


@pytest.mark.parametrize(
    "args",
    [
        ("roll", SYSTEM, *ROLL, "--no-such-option", "1"),
        ("roll", SYSTEM, *ROLL[:-1]),  # the last option without its value
        ("roll", "dnd", "--attacker", "1", "--defender", "1"),
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


@pytest.mark.parametrize(
    ("args", "meant"),
    [(("librar",), "library"), (("library", "lst"), "list"), (("forcast", "x"), "forecast")],
)
def test_a_mistyped_command_is_told_the_one_it_is_closest_to(
    args: tuple[str, ...], meant: str
) -> None:
    result = tracker(*args)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.rstrip().endswith(f"did you mean '{meant}'?")


def test_a_command_close_to_none_is_told_the_choices_alone() -> None:
    result = tracker("zzz")
    assert result.returncode == 2 and "did you mean" not in result.stderr


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
        f"main({['roll', SYSTEM, *ROLL, '--json']!r}); "
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().endswith("False")


@pytest.mark.parametrize("command", ["odds", "roll"])
def test_the_help_says_what_each_systems_odds_and_rolls_are_for(command: str) -> None:
    said = " ".join(tracker(command, "--help").stdout.split())
    parts = [registry.part(name, f"{command}_cli") for name in registry.names()]
    helps = [part.HELP for part in parts if part is not None and hasattr(part, "HELP")]
    assert helps, "no system says what its odds are for"
    for help_ in helps:
        assert help_ in said


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
    # all msgspec-free
    light = {"table", "damage_parts", "damage_types", "pools", "bands", "odds", "odds_cli"}
    light = {f"rules.systems.{system}.{name}" for name in light}
    assert [
        m for m in json.loads(loaded_line) if m not in light | {f"rules.systems.{system}"}
    ] == []


def test_no_command_loads_no_subcommand_and_no_system_before_the_app() -> None:
    """A plain ``tracker`` (the newest save) builds its parser without the subcommands': they
    loaded every system's headless parts (150 modules) before the app's first frame."""
    code = (
        "import sys, json; from tracker import cli; "
        "argv = ['--saves', 'x', '--seed', '3']; "
        "args = cli.build_parser(*cli.headless_asked_for(argv)).parse_args(argv); "
        "print(args.command, args.seed, json.dumps(sorted(m for m in sys.modules "
        "if m.startswith(('tracker.cli.cmd_', 'rules.systems.', 'inspect', 'pkgutil')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.split(" ", 2) == ["None", "3", "[]\n"]
    assert "{new,open," in cli.build_parser(*cli.headless_asked_for(["--help"])).format_usage()


def args_for(*argv: str):
    return cli.build_parser().parse_args(list(argv))


def test_no_command_opens_the_newest_save(tmp_path: Path) -> None:
    older, newer = tmp_path / "a.fight", tmp_path / "b.fight"
    storage.write(older, History(new_encounter("Older", SYSTEM)))
    storage.write(newer, History(new_encounter("Newer", SYSTEM)))
    import os

    os.utime(older, (1, 1))
    opened, skipped = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.path == newer and skipped == []


def test_no_command_skips_a_damaged_save_and_says_so(tmp_path: Path) -> None:
    good = tmp_path / "good.fight"
    storage.write(good, History(new_encounter("Good", SYSTEM)))
    bad = tmp_path / "bad.fight"
    bad.write_bytes(b"junk")
    import os

    os.utime(good, (1, 1))
    opened, skipped = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.path == good
    assert skipped == [f"Skipped {bad}: not a combat tracker save"]
    assert bad.read_bytes() == b"junk"


def test_a_fresh_start_opens_the_first_listed_systems_demo_among_all_the_demos(
    tmp_path: Path,
) -> None:
    from tracker.demos import write_demos

    assert len(write_demos(tmp_path)) == len(registry.names())
    first = a_system(has_demo)
    copy = storage.free_path(tmp_path, registry.part(first, "demo").build().state.name)
    opened, _ = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.history.state.system == first
    assert opened.path == copy


def test_no_saves_plays_a_copy_of_the_demo(tmp_path: Path) -> None:
    demo = registry.part(a_system(has_demo), "demo")
    storage.write(tmp_path / f"{demo.STEM}.fight", demo.build())
    copy = storage.free_path(tmp_path, demo.build().state.name)
    opened, _ = launch.choose_encounter(args_for("--saves", str(tmp_path)))
    assert opened.path == copy
    assert "copy of the demo" in opened.note


def test_new_picks_a_fresh_file(tmp_path: Path) -> None:
    (tmp_path / "ambush.fight").write_bytes(b"someone else's")
    opened, _ = launch.choose_encounter(
        args_for("new", "--system", SYSTEM, "--name", "Ambush", "--saves", str(tmp_path))
    )
    assert opened.path == tmp_path / "ambush-2.fight"
    assert opened.history.state.name == "Ambush"


def test_saves_may_come_before_or_after_the_command():
    from pathlib import Path

    from tracker.cli import build_parser

    parse = build_parser().parse_args
    assert parse(["--saves", "mine", "open", "f.fight"]).saves == Path("mine")
    assert parse(["open", "f.fight", "--saves", "other"]).saves == Path("other")
    # Not given: the user's data folder (tracker.store.defaults.saves_folder, chosen after parsing).
    assert parse(["open", "f.fight"]).saves is None
    assert parse([]).saves is None


def test_a_reader_that_goes_away_gets_no_traceback():
    import subprocess
    import sys

    example = registry.part(SYSTEM, "odds_cli").EXAMPLE
    odds = [sys.executable, "-m", "tracker", "odds", SYSTEM, *example]
    reader = subprocess.Popen(odds, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
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
