"""The theme: chosen in the command palette, remembered across restarts in a settings file."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tests.app.support import until
from tests.picks import a_system
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.session import EncounterSession
from tracker.store import settings

SIZE = (100, 30)


def make_app(tmp_path: Path, settings_file: Path | None) -> TrackerApp:
    history = History(new_encounter("Cellar", a_system()))
    session = EncounterSession(history, SeededDice(1), tmp_path / "cellar.fight")
    return TrackerApp(session, saves=tmp_path, settings_file=settings_file)


def test_where_settings_live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(settings.ENV_FILE, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    expected = tmp_path / "home" / ".config" / "combat-tracker" / "settings.json"
    assert settings.settings_path() == expected
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/is/ignored")  # as the XDG spec says
    assert settings.settings_path() == expected
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert settings.settings_path() == tmp_path / "xdg" / "combat-tracker" / "settings.json"
    monkeypatch.setenv(settings.ENV_FILE, str(tmp_path / "mine.json"))
    assert settings.settings_path() == tmp_path / "mine.json"


def test_settings_round_trip_and_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "settings.json"
    assert settings.load(path) == (settings.Settings(), None)  # no file yet: defaults, quietly
    assert settings.save(path, settings.Settings(theme="nord")) is None
    assert settings.load(path) == (settings.Settings(theme="nord"), None)
    for bad in ("{not json", "[1, 2]", '{"theme": 3}', "\udcff"):
        path.write_text(bad, encoding="utf-8", errors="surrogateescape")
        loaded, problem = settings.load(path)
        assert loaded == settings.Settings()
        assert problem is not None and str(path) in problem and "defaults" in problem
    path.unlink()
    path.mkdir()  # a folder where the file should be: reading and writing both fail cleanly
    assert settings.load(path)[1] is not None
    assert "Settings not saved" in (settings.save(path, settings.Settings(theme="nord")) or "")


async def test_the_palette_switches_the_theme_and_it_is_remembered(tmp_path: Path) -> None:
    file = tmp_path / "config" / "settings.json"
    app = make_app(tmp_path, file)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
        assert not file.exists()  # nothing is written until the user picks a theme
        await pilot.press("ctrl+p")
        await pilot.press(*"theme")
        await pilot.pause()
        await pilot.press("enter")  # the theme picker
        await pilot.pause()
        await pilot.press(*"nord")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "nord"
    assert settings.load(file) == (settings.Settings(theme="nord"), None)

    again = make_app(tmp_path, file)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_a_corrupt_settings_file_gives_one_notice(tmp_path: Path) -> None:
    file = tmp_path / "settings.json"
    file.write_text('{"theme": "nord",', encoding="utf-8")
    app = make_app(tmp_path, file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        # The toast and the encounter are drawn over a few frames.
        await until(pilot, lambda: "Settings file" in screen_text(app), "the notice")
        await until(pilot, lambda: "Cellar" in screen_text(app), "the encounter")
        # Private, like the compositor in tests/screen.py: a toast wraps its text.
        notices = [n.message for n in app._notifications]
        assert notices == [
            f"Settings file {file} is not valid JSON; using the defaults "
            "(it is rewritten when you next change a setting)"
        ]
        assert "Settings file" in screen_text(app)
        assert app.theme == "textual-dark"
        assert "Cellar" in screen_text(app)  # the app works as usual


async def test_an_unknown_theme_falls_back_with_a_notice(tmp_path: Path) -> None:
    file = tmp_path / "settings.json"
    settings.save(file, settings.Settings(theme="no-such-theme"))
    app = make_app(tmp_path, file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert "'no-such-theme' is not known" in screen_text(app)
        assert app.theme == "textual-dark"
