"""Every failure of a command that opens, replays, exports or starts a save is one line on
stderr and exit status 2, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.engine import new_encounter
from rules.history import History
from tests.cli.support import tracker
from tests.picks import a_system
from tracker import cli, launch
from tracker.cli import cmd_export
from tracker.store import storage


def a_save(folder: Path) -> Path:
    path = folder / "ok.fight"
    storage.write(path, History(new_encounter("Ok", a_system())))
    return path


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("open", ""), ".: is a folder, not a save file"),
        (("open", "/"), "/: is a folder, not a save file"),
        (("open", "{tmp}/missing.fight"), "{tmp}/missing.fight: no such file"),
        (("replay", "/dev/null"), "/dev/null: is a device, not a save file"),
        (("export", "{tmp}"), "{tmp}: is a folder, not a save file"),
        (("export", "{save}", "-o", "{save}"), "{save}: is a save; choose another file"),
        (("export", "{save}", "-o", "{file}/out.md"), "{file}/out.md: could not save"),
        (
            ("--saves", "{file}", "new", "--system", a_system(), "--name", "A"),
            "{file}/a.fight: cannot be saved: {file} is not a folder",
        ),
        (("--saves", "{tmp}/none"), "{tmp}/none: no saves and no demo here"),
    ],
)
def test_each_failure_is_one_line_and_exit_2(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    save = a_save(tmp_path)
    plain = tmp_path / "plain.txt"
    plain.write_text("not a folder")
    names = {"tmp": str(tmp_path), "save": str(save), "file": str(plain)}
    done = tracker(*(arg.format(**names) for arg in args), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"tracker: {said.format(**names)}")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert storage.read(save).state.name == "Ok"  # nothing written over


def test_an_unforeseen_file_system_error_is_still_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def vanished(args: object) -> int:
        raise FileNotFoundError(2, "No such file or directory", "saves/gone.fight")

    monkeypatch.setattr(cmd_export, "report", vanished)
    assert cli.main(["export", "x.fight"]) == 2
    assert capsys.readouterr().err == "tracker: saves/gone.fight: No such file or directory\n"


def test_an_app_that_crashes_exits_non_zero(tmp_path: Path) -> None:
    from rules.dice import SeededDice
    from tracker.app import TrackerApp
    from tracker.session import EncounterSession

    class Crashing(TrackerApp):
        CSS_PATH = str(Path(launch.__file__).with_name("tracker.tcss"))  # relative to a module

        def on_mount(self) -> None:
            raise RuntimeError("a bug")

        def run(self, *args: Any, **kwargs: Any) -> Any:  # no terminal in a test
            return super().run(*args, headless=True, **kwargs)

    path = tmp_path / "x.fight"
    session = EncounterSession(History(new_encounter("Crash", a_system())), SeededDice(1), path)
    assert launch._run(Crashing(session, saves=tmp_path)) == 1
