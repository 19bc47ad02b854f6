"""A key is a setting: every binding has an id, and a user's keymap file rebinds it."""

from __future__ import annotations

import ast
from pathlib import Path

from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tests.app.support import until
from tests.picks import a_system
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.help import HelpScreen
from tracker.session import EncounterSession
from tracker.store import keymap

SIZE = (100, 30)
TRACKER = Path(__file__).resolve().parents[2] / "tracker"


def make_app(tmp_path: Path, keymap_file: Path) -> TrackerApp:
    history = History(new_encounter("Cellar", a_system()))
    session = EncounterSession(history, SeededDice(1), tmp_path / "cellar.fight")
    return TrackerApp(session, saves=tmp_path, keymap_file=keymap_file)


def binding_ids_in_source() -> list[str]:
    """The id of every ``Binding(...)`` written in tracker/ (an f-string's literal part,
    as ``replay.digit_``); a binding without one fails the test that reads this."""
    ids = []
    for path in sorted(TRACKER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Binding"):
                continue
            given = [k.value for k in node.keywords if k.arg == "id"]
            where = f"{path.relative_to(TRACKER.parent)}:{node.lineno}"
            assert given, f"{where}: a Binding with no id= (give it one, as 'screen.what')"
            value = given[0]
            if isinstance(value, ast.JoinedStr):  # one id a digit, made in a loop
                value = value.values[0]
            assert isinstance(value, ast.Constant) and isinstance(value.value, str), where
            ids.append(value.value)
    return ids


def test_every_binding_has_a_unique_id_and_the_keymap_knows_it() -> None:
    ids = binding_ids_in_source()
    assert len(ids) > 90
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert all("." in i for i in ids), [i for i in ids if "." not in i]
    # The keymap checks a user's ids against these: every one written is found there.
    known = {binding.id for binding in keymap.app_bindings()}
    assert {i for i in ids if not i.endswith("_")} <= known
    assert {f"replay.digit_{d}" for d in range(10)} <= known


async def test_a_keymap_file_changes_a_key_in_the_app_and_in_help(tmp_path: Path) -> None:
    file = tmp_path / "keymap.toml"
    file.write_text(
        '[keys]\n"encounter.help" = "f1"\n"encounter.roll" = "f2"\n"help.dismiss" = "escape,f1"\n',
        encoding="utf-8",
    )
    app = make_app(tmp_path, file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await until(pilot, lambda: "Cellar" in screen_text(app), "the encounter")
        await pilot.press("question_mark")  # the default no longer opens help
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help on f1")
        rows = [line.split() for line in screen_text(app).splitlines()]
        pairs = {(row[i], row[i + 1]) for row in rows for i in range(len(row) - 1)}
        assert ("f2", "Roll") in pairs and ("r", "Roll") not in pairs
        assert "Esc / f1 closes this help" in screen_text(app)
        assert not app._notifications  # private, as in test_settings: no complaint
        await pilot.press("f1")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed")
        palette = dict((t, h) for t, _, h in app.screen.palette_commands())  # type: ignore[attr-defined]
        assert palette["Help"] == "key: f1"
        assert palette["Roll"] == "key: f2"


async def test_a_bad_keymap_gives_one_line_and_keeps_the_defaults(tmp_path: Path) -> None:
    file = tmp_path / "keymap.toml"
    file.write_text(
        "[keys]\n"
        '"encounter.nope" = "h"\n'  # no such id
        '"encounter.roll" = "ctrl+"\n'  # not a key
        '"encounter.undo" = "n"\n'  # next turn's key
        '"encounter.help" = "f1"\n',  # fine: kept
        encoding="utf-8",
    )
    app = make_app(tmp_path, file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await until(pilot, lambda: "Keymap" in screen_text(app), "the notice")
        notices = [n.message for n in app._notifications]
        assert notices == [
            f"Keymap {file}: no key has the id 'encounter.nope'; "
            "'ctrl+' for 'encounter.roll' is not a key; "
            "'n' for 'encounter.undo' is another key's; those keep their default keys"
        ]
        assert app.user_keys == {"encounter.help": "f1"}


def test_a_keymap_file_that_cannot_be_used_keeps_every_default(tmp_path: Path) -> None:
    file = tmp_path / "keymap.toml"
    assert keymap.load(file) == ({}, None)  # no file: quietly none
    for bad, said in (
        ("[keys\n", "is not valid TOML"),
        ("theme = 1\n", "one [keys] table"),
        ('[keys]\n"encounter.help" = 3\n', "not a short string"),
        ('[keys]\n"encounter.help" = "' + "a," * 100 + '"\n', "not a short string"),
        ("[keys]\n" + "".join(f'"x.{i}" = "a"\n' for i in range(500)), "at most"),
    ):
        file.write_text(bad, encoding="utf-8")
        loaded, problem = keymap.load(file)
        assert loaded == {}
        assert problem is not None and said in problem and "\n" not in problem
    file.write_text(f'[keys]\n"{"x" * 5000}" = "a"\n', encoding="utf-8")
    loaded, problem = keymap.load(file)
    assert loaded == {} and problem is not None and len(problem) < 200 + len(str(file))
    file.write_bytes(b"x" * (keymap.MAX_BYTES + 1))
    assert keymap.load(file)[1] is not None


def test_keys_are_read_as_textual_names_them() -> None:
    assert keymap.normalize("?") == "question_mark"
    assert keymap.normalize("ctrl+s, R") == "ctrl+s,R"
    assert keymap.normalize("full_stop") == "full_stop"
    assert keymap.normalize("f5") == "f5"
    for bad in ("", "ctrl+", "hyper+nokey", "nokey", "fancy+a", " ", "\x1b"):
        assert keymap.normalize(bad) is None, bad


def test_swapped_keys_do_not_clash() -> None:
    keys, problems = keymap.check(
        {"encounter.roll": "u", "encounter.undo": "r"}, keymap.app_bindings()
    )
    assert keys == {"encounter.roll": "u", "encounter.undo": "r"} and problems == []
