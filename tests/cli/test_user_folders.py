"""An installed tracker keeps its files in the platform's user folders (platformdirs)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tracker import launch
from tracker.demos import DEMOS, write_demos
from tracker.serve.config import default_host_key
from tracker.store import defaults, settings, storage

ROOT = Path(__file__).resolve().parents[2]


def test_the_user_folders_follow_the_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv(settings.ENV_FILE, raising=False)
    monkeypatch.delenv("TRACKER_HOST_KEY", raising=False)
    assert defaults.saves_folder() == tmp_path / "data" / "combat-tracker" / "saves"
    assert defaults.library_folder() == tmp_path / "data" / "combat-tracker" / "library"
    assert settings.settings_path() == tmp_path / "config" / "combat-tracker" / "settings.json"
    key = tmp_path / "config" / "combat-tracker" / "ssh_host_ed25519_key"
    assert default_host_key() == key
    # A host key made where earlier versions kept it stays in use (clients would see a change).
    earlier = tmp_path / "home" / ".config" / "tracker" / "ssh_host_ed25519_key"
    earlier.parent.mkdir(parents=True)
    earlier.write_text("key")
    assert default_host_key() == earlier


def test_a_first_start_in_the_user_folder_opens_the_demo(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    args = argparse.Namespace(command=None, saves=folder, user_saves=True)
    opened, skipped = launch.choose_encounter(args)
    assert not skipped
    assert opened.history.state.system == defaults.systems()[0]
    assert sorted(path.stem for path in storage.demos(folder)) == sorted(DEMOS)  # each system's
    assert storage.demos(folder)[0].name == defaults.first_demo() + storage.SUFFIX
    assert opened.path.parent == folder and not storage.is_demo(opened.path)


def test_every_committed_demo_is_what_its_demo_py_builds(tmp_path: Path) -> None:
    """``saves/`` holds the demos ``make run`` opens: each as ``make demo`` writes it today
    (a system without one there has it written by ``make run``)."""
    committed = sorted(ROOT.joinpath("saves").glob(f"{storage.DEMO_PREFIX}*{storage.SUFFIX}"))
    assert {path.stem for path in committed} <= set(DEMOS), "a demo no system builds"
    for path in write_demos(tmp_path):
        kept = ROOT / "saves" / path.name
        if kept.exists():
            assert kept.read_bytes() == path.read_bytes(), f"{kept} has drifted: run make demo"


def test_a_folder_given_with_saves_gets_no_demos_written(tmp_path: Path) -> None:
    args = argparse.Namespace(command=None, saves=tmp_path, user_saves=False)
    with pytest.raises(storage.SaveError, match="no saves and no demo here"):
        launch.choose_encounter(args)
    assert list(tmp_path.iterdir()) == []
