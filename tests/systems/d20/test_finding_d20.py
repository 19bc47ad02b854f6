"""Finding a Generic d20 stat block (#41, item 4): `tracker library list` with HP, AC, CR, XP
and type, filtered by a challenge range, a type, a source and a name; `:add` and `tracker new
--add` by a name, a slug or a unique prefix; the library dialog (`a`) filtering as you type
and showing the chosen stat block's actions with their odds against the selected target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.commands import AddCombatant, AddCombatants
from rules.dice import SeededDice
from tests.app.line_support import context
from tests.app.support import until
from tests.cli.test_library import new_args, run, write
from tests.screen import screen_text
from tests.systems.d20.support import HERO_SHEET, history_of
from tracker.app import TrackerApp
from tracker.line_commands.outcomes import Execute
from tracker.line_commands.resolve import resolve
from tracker.screens.library_screen import LibraryScreen
from tracker.session import EncounterSession
from tracker.store import library

SIZE = (80, 24)
GOBLIN = """name = "Goblin"
system = "d20"
type = "humanoid (goblinoid)"

[sheet]
hp = "2d6"
ac = "15"
challenge = "1/4"
actions = "Scimitar: +4, 1d6+2 slashing; Shortbow: +4 ranged, 1d6+2 piercing"
"""
ZOMBIE = """name = "Zombie"
system = "d20"
type = "undead"

[sheet]
hp = "3d8+9"
ac = "8"
challenge = "1/4"
"""
DRAGON = """name = "Quillback Drake"
system = "d20"
type = "dragon"

[sheet]
hp = "17d10+85"
ac = "18"
challenge = "10"
actions = \"\"\"
Multiattack: Bite, Claw x2
Bite: +10, 2d10+6 piercing plus 1d6 fire
Claw: +10, 2d6+6 slashing
Fire Breath: Dex 17 half, 16d6 fire, recharge 5-6
\"\"\"
"""


def user_library(tmp_path: Path) -> Path:
    folder = tmp_path / "lib"
    for name, text in (("goblin", GOBLIN), ("zombie", ZOMBIE), ("quillback-drake", DRAGON)):
        write(folder, text, f"d20/{name}.toml")
    return folder


def listed(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> tuple[int, str, str]:
    return run(capsys, "library", "list", "--system", "d20", "--library", str(folder), *args)


def row(out: str, name: str) -> list[str]:
    return next(line.split() for line in out.splitlines() if line.startswith(name))


# --- tracker library list ------------------------------------------------------------------


def test_library_list_shows_hp_ac_cr_xp_and_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = listed(capsys, user_library(tmp_path))
    assert code == 0 and err == ""
    head = out.splitlines()[1].split()
    assert head == ["Name", "HP", "AC", "CR", "XP", "Type", "Side", "Source"]
    assert row(out, "Goblin")[:6] == ["Goblin", "7", "15", "1/4", "50", "humanoid"]
    assert row(out, "Quillback Drake")[2:7] == ["178", "18", "10", "5,900", "dragon"]
    assert row(out, "Bog Goblin")[-1] == "own"  # a bundled one says its set


def test_library_list_filters_by_challenge_range_type_source_and_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = user_library(tmp_path)

    def names(*args: str) -> set[str]:
        code, out, err = listed(capsys, folder, *args)
        assert code == 0 and err == "", err
        return {line.split("  ")[0].split(" (")[0] for line in out.splitlines()[2:]}

    quarter = names("--cr", "1/4", "--source", "user")
    assert quarter == {"Goblin", "Zombie"}
    assert names("--cr", "5..10", "--source", "user") == {"Quillback Drake"}
    assert names("--cr", "1/8..1/2", "--type", "undead", "--source", "user") == {"Zombie"}
    assert names("--type", "GOBLINOID", "--source", "user") == {"Goblin"}
    assert names("gob", "--source", "user") == {"Goblin"}
    assert names("--name", "goblin", "--source", "own") == {"Bog Goblin"}
    assert "Bog Goblin" in names("--cr", "..1/4") and "Hollow King" not in names("--cr", "..1/4")


@pytest.mark.parametrize(
    ("cr", "said"),
    [
        ("3..1", "the range goes from the lower to the higher"),
        ("x", "write a challenge rating (2, 1/4) or a range of them (1/4..3)"),
        ("..", "write a challenge rating"),
        ("1/0", "a challenge rating of 1/0 is none"),
        ("1" * 200, "write a challenge rating"),
    ],
)
def test_a_bad_challenge_range_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cr: str, said: str
) -> None:
    code, out, err = listed(capsys, tmp_path, "--cr", cr)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert said in err and "Traceback" not in err


def test_a_source_nobody_has_is_refused_naming_those_there_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = listed(capsys, tmp_path, "--source", "srdd")
    assert code == 2 and out == "" and "the sources are" in err and "own" in err


def test_the_json_listing_keeps_working_with_the_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = listed(
        capsys, user_library(tmp_path), "--json", "--type", "dragon", "--source", "user"
    )
    assert code == 0
    (dragon,) = json.loads(out)
    assert dragon["name"] == "Quillback Drake" and dragon["type"] == "dragon"
    assert dragon["source"] == "user"
    assert dragon["columns"] == {"HP": "178", "AC": "18", "CR": "10", "XP": "5,900"}


# --- :add and tracker new --add ------------------------------------------------------------


def added(line: str, found: library.Library) -> list[str]:
    outcome = resolve(line, context(history_of(), library=found))
    assert isinstance(outcome, Execute), outcome
    command = outcome.command
    members = command.members if isinstance(command, AddCombatants) else (command,)
    assert all(isinstance(m, AddCombatant) for m in members)
    return [m.name for m in members]


def test_add_goblin_finds_the_goblin_before_the_bog_goblin_and_a_unique_prefix_finds_one(
    tmp_path: Path,
) -> None:
    found = library.load(user_library(tmp_path))
    assert added("add goblin", found) == ["Goblin"]
    assert added("add bog x2", found) == ["Bog Goblin", "Bog Goblin"]  # a unique prefix
    assert added("add quillback-d", found) == ["Quillback Drake"]  # a slug's prefix
    assert added("add ZOMBIE", found) == ["Zombie"]


def test_add_a_prefix_of_several_names_them_and_adds_none(tmp_path: Path) -> None:
    found = library.load(user_library(tmp_path))
    with pytest.raises(Exception, match="did you mean 'Hollow Crypt' or 'Hollow King'") as caught:
        resolve("add hollow", context(history_of(), library=found))
    assert ":add hollow blank" in str(caught.value)
    assert added("add hollow blank", found) == ["hollow"]  # a blank sheet only when asked


def test_new_add_finds_a_stat_block_by_a_unique_prefix_and_offers_the_nearest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user_library(tmp_path)
    history = new_args(tmp_path, "--system", "d20", "--name", "Raid", "--add", "quill x2")
    assert [c.name for c in history.state.combatants] == ["Quillback Drake 1", "Quillback Drake 2"]
    code, _, err = run(
        capsys, "--saves", str(tmp_path), "--library", str(tmp_path / "lib"),
        "new", "--system", "d20", "--name", "Raid", "--add", "zombei x2",
    )  # fmt: skip
    assert code == 2 and "did you mean 'Zombie'" in err and err.count("\n") == 1


# --- the library dialog ----------------------------------------------------------------------


def dialog_app(tmp_path: Path) -> TrackerApp:
    """A fight of one hero, Vex (AC 15, Dex save +1), selected; the user's library above."""
    history = history_of(("Vex", "party", HERO_SHEET))
    session = EncounterSession(history, SeededDice(3), tmp_path / "raid.fight")
    return TrackerApp(session, saves=tmp_path, library=user_library(tmp_path))


async def test_the_library_dialog_filters_by_name_challenge_and_type_as_you_type(
    tmp_path: Path,
) -> None:
    app = dialog_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        await pilot.press(*"source:user cr:1/4")
        await until(pilot, lambda: "Zombie" in screen_text(app), "the quarter challenges")
        text = screen_text(app)
        assert "Goblin" in text and "Quillback" not in text and "Bog Goblin" not in text
        await pilot.press("space", *"type:undead")
        await until(pilot, lambda: "1 of " in screen_text(app), "the undead alone")
        assert "Zombie" in screen_text(app) and "Scimitar" not in screen_text(app)
        await pilot.press(*["backspace"] * len("source:user cr:1/4 type:undead"), *"cr:9..x")
        await until(pilot, lambda: "cr:'9..x'" in screen_text(app), "the bad range said")
        await pilot.press(*["backspace"] * len("cr:9..x"), *"quill x2", "enter")
        await until(pilot, lambda: len(app.session.state.combatants) == 3, "two dragons")  # type: ignore[union-attr]
        names = {c.name for c in app.session.state.combatants}  # type: ignore[union-attr]
        assert names == {"Vex", "Quillback Drake 1", "Quillback Drake 2"}


async def test_the_library_dialog_shows_the_actions_with_their_odds_against_the_target(
    tmp_path: Path,
) -> None:
    app = dialog_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        await pilot.press(*"goblin")
        await until(pilot, lambda: "Scimitar" in screen_text(app), "the goblin's preview")
        text = screen_text(app)
        assert "HP 7 (2d6)  AC 15  CR 1/4 (50 XP)" in text and "Against Vex (AC 15)" in text
        # +4 against AC 15: 11 to 19 hit, 20 is critical; 1d6+2 is 5.5, 9 on a critical.
        assert "Scimitar: +4, 1d6+2 slashing · 50% to hit, 2.9 avg" in text
        await pilot.press(*["backspace"] * 6, *"quillback")
        await until(pilot, lambda: "Fire Breath" in screen_text(app), "the dragon's preview")
        text = screen_text(app)
        # Dex 17 against Vex's Dex +1: saved on 16 or more, 5 in 20.
        assert "recharge 5-6 · fails 75%" in text
        assert "Multiattack: Bite, Claw x2 ·" in text and "avg" in text
        assert len(app.session.state.combatants) == 1  # type: ignore[union-attr]
