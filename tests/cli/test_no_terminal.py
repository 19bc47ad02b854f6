"""A tracker started with no terminal to read (its input a pipe, a file or /dev/null: a
script, cron, an editor's runner) says so in one line and ends, where it once drew its
screen and then read the end of its input again and again, a core busy until it was killed
(issue 45, item 8's other half). What it was asked to make is kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.picks import a_demo, a_system, has_bundled_foes
from tracker.store import storage
from tracker.terminal.hangup import NO_TERMINAL

ROOT = Path(__file__).resolve().parents[2]


def run_without_terminal(*args: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "tracker", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,  # it spun forever before: a hang fails the test
    )
    return done.returncode, done.stderr


def test_opening_a_fight_with_no_terminal_says_so_and_ends(tmp_path: Path) -> None:
    save = tmp_path / "fight.fight"
    save.write_bytes((ROOT / "saves" / f"{a_demo()}{storage.SUFFIX}").read_bytes())
    before = storage.read(save).state
    code, err = run_without_terminal("--saves", str(tmp_path), "open", str(save))
    assert code == 2
    assert err.rstrip().endswith(f"tracker: {NO_TERMINAL}")
    assert storage.read(save).state == before


def test_a_new_fight_with_no_terminal_is_kept_and_the_tracker_ends(tmp_path: Path) -> None:
    system = a_system(has_bundled_foes)
    args = ("--saves", str(tmp_path), "new", "--system", system, "--name", "Piped")
    code, err = run_without_terminal(*args)
    save = tmp_path / f"piped{storage.SUFFIX}"
    assert code == 2 and err.splitlines()[-2:] == [
        f"tracker: {NO_TERMINAL}",
        f"tracker: the new encounter is kept: tracker open {save}",
    ]
    assert storage.read(save).state.name == "Piped"
