"""The installed tracker's smoke test: the wheel's tracker, used as a user first uses it.

Run by ``make smoke`` (tests/installed/run.py) with the interpreter of a fresh venv that the
wheel was installed in (not editable), from a folder outside the checkout, with fresh user
folders (``HOME``, ``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``). Not a pytest test: pytest never
collects it (its name), and nothing else of the checkout is imported (tests/screen.py is
loaded by its path alone), so a file the wheel left out fails here as it fails for a user.

It runs the real ``tracker`` commands (``tracker.cli.main``) in this process, with
``TrackerApp.run_async`` swapped for a Pilot (``run_test`` at 80x24) that plays a tour by keys:

- ``tracker --version`` and ``tracker library list`` (the installed command, in a process);
- ``tracker`` on a first start: every system's demo written to the user's saves folder and
  the LiveHack copy opened; every screen and dialog opened by its key and closed with Esc;
- ``tracker open`` of each other demo: its roll, system actions and help;
- ``tracker serve`` of a demo with a player's join link: the GM's ``w`` opens the seats dialog
  showing the link, and the link's page is served.

Usage: ``python smoke.py VERSION`` (the version the wheel was built as). A failure ends with
a traceback and exit status 1.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
import sysconfig
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import rules
import tracker
from rules.registry import names
from tracker import cli
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.store import defaults, storage

SIZE = (80, 24)
# Every screen and dialog the encounter screen opens by a key (the LiveHack demo's state has
# something for each: a selected combatant, a last roll), and the command palette.
EVERY_SCREEN = (
    *("question_mark", "r", "t", "s", "a", "e", "x", "c", "o", "R", "S", "f", "F", "D"),
    *("ctrl+o", "N", "colon", "ctrl+p"),
)
A_SYSTEMS_OWN = ("r", "s", "question_mark")  # what differs from system to system
# Dialogs that need something first, by the keys that reach them and what they show: the
# quick turn's question once its roll is made, and a condition to drop.
HITTING_SEED = 5  # the first demo's quick turn hits with these dice
SET_UP_FIRST = (
    (("t", "enter"), "Apply the result?"),
    (("c", *"Prone", "enter", "C"), "Remove a condition from"),
)

Tour = Callable[[Any], Awaitable[None]]
TOURS: list[Tour] = []  # the next app started plays the first


def _screen_text() -> Callable[[Any], str]:
    """tests/screen.py's ``screen_text``, loaded from its file alone."""
    spec = importlib.util.spec_from_file_location("screen", Path(__file__).parents[1] / "screen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.screen_text  # type: ignore[no-any-return]


screen_text = _screen_text()


async def driven(app: TrackerApp, **_: object) -> None:
    """``App.run_async`` for this test: the next tour, by keys, where a terminal would be."""
    tour = TOURS.pop(0)
    async with app.run_test(size=SIZE) as pilot:
        try:
            await tour(pilot)
        except AssertionError as failed:  # what the screen showed then says why
            raise AssertionError(f"{failed}; the screen:\n{screen_text(app)}") from None


# Seconds to wait for a screen: generous, as a loaded machine may take many times longer.
PATIENCE = 60.0


async def until(what: str, condition: Callable[[], object], timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def opens(pilot: Any, key: str, shows: str = "") -> str:
    """Press ``key`` on the encounter screen: a screen opens (showing ``shows``); Esc goes
    back. The screen's name."""
    app = pilot.app
    base = app.screen
    await pilot.press(key)
    await until(f"{key} to open a screen", lambda: app.screen is not base)
    opened = type(app.screen).__name__
    await until(f"{opened} to show {shows!r}", lambda: drawn(app, shows))
    while app.screen is not base:  # a screen opened from a screen needs another Esc
        await closes(pilot, app.screen)
    return opened


def drawn(app: Any, shows: str) -> bool:
    """The screen is drawn (not blank, as it is for a moment after a push) and shows ``shows``."""
    text = screen_text(app)
    return bool(text.strip()) and shows in text


async def closes(pilot: Any, screen: object) -> None:
    await pilot.press("escape")
    await until(f"Esc to close {type(screen).__name__}", lambda: pilot.app.screen is not screen)


async def reaches(pilot: Any, keys: tuple[str, ...], shows: str) -> str:
    """``keys`` pressed from the encounter screen open a dialog showing ``shows``; Esc goes
    back. The dialog's name."""
    app = pilot.app
    base = app.screen
    await pilot.press(*keys)
    await until(f"{' '.join(keys)} to show {shows!r}", lambda: drawn(app, shows))
    opened = type(app.screen).__name__
    while app.screen is not base:
        await closes(pilot, app.screen)
    return opened


def tour_of(
    keys: tuple[str, ...],
    check: Callable[[Any], None] = lambda app: None,
    reached: tuple[tuple[tuple[str, ...], str], ...] = (),
) -> Tour:
    async def tour(pilot: Any) -> None:
        await until("the encounter", lambda: pilot.app.session is not None)
        check(pilot.app)
        shown = []
        for key in keys:
            began = time.monotonic()
            shown.append(f"{key} {await opens(pilot, key)} {time.monotonic() - began:.1f}s")
        for path, shows in reached:
            shown.append(f"{' '.join(path)} {await reaches(pilot, path, shows)}")
        print(f"  {pilot.app.session.state.system}: opened {', '.join(shown)}", flush=True)
        await pilot.press("q")

    return tour


def run(*argv: str, tour: Tour) -> None:
    TOURS.append(tour)
    status = cli.main(list(argv))
    assert status == 0, f"tracker {' '.join(argv)}: exit status {status}"
    assert not TOURS, f"tracker {' '.join(argv)} started no app"


def installed_command(*argv: str) -> str:
    command = Path(sys.executable).parent / "tracker"
    done = subprocess.run([command, *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr, f"tracker {' '.join(argv)}: {done.stderr}"
    return done.stdout


def check_installed() -> Path:
    """The packages imported are the installed ones: the site-packages of this venv."""
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    assert sys.prefix != sys.base_prefix, "not run in a venv"
    for package in (tracker, rules):
        where = Path(package.__file__ or "").resolve()
        assert where.is_relative_to(site), f"{package.__name__} imported from {where}, not {site}"
    print(f"tracker and rules are installed in {site}")
    return site / "tracker"


def check_commands(version: str, package: Path) -> None:
    assert installed_command("--version") == f"tracker {version}\n"
    entries = json.loads(installed_command("library", "list", "--json"))
    bundled = {Path(entry["file"]).resolve() for entry in entries if entry["bundled"]}
    systems = package.parent / "rules" / "systems"
    # A system's own stat blocks and the sets bundled beside them (stat_blocks/srd/).
    files = {*systems.resolve().glob("*/stat_blocks/*.toml")}
    files |= {*systems.resolve().glob("*/stat_blocks/*/*.toml")}
    missing, unlisted = files - bundled, bundled - files
    assert not missing and not unlisted, (sorted(missing)[:5], sorted(unlisted)[:5])
    # stat_blocks/ is optional (docs/contributing/adding-a-system.md): only the systems that have it
    # list any.
    having = {file.relative_to(systems.resolve()).parts[0] for file in files}
    assert having <= set(names()), having - set(names())
    assert {entry["system"] for entry in entries} == having
    print(f"tracker --version, tracker library list: {len(entries)} stat blocks")


def first_start() -> list[Path]:
    """``tracker`` on a first start: every demo written to the user's saves folder."""
    saves = defaults.saves_folder()
    assert not saves.exists(), f"{saves} is not fresh"

    def is_first_demos_copy(app: TrackerApp) -> None:
        session = app.session
        assert session is not None and session.path is not None
        assert session.state.system == defaults.systems()[0]
        assert session.path.parent == saves
        assert not storage.is_demo(session.path)

    # Seeded: the quick turn's attack must hit for its "Apply the result?" (a miss asks
    # nothing); with fresh dice a third of the runs missed.
    run("--seed", str(HITTING_SEED), tour=tour_of(EVERY_SCREEN, is_first_demos_copy, SET_UP_FIRST))
    demos = [saves / f"{stem}{storage.SUFFIX}" for stem in DEMOS]
    assert {storage.read(demo).state.system for demo in demos} == set(names())
    print(f"first start: the demos in {saves}: {', '.join(d.name for d in demos)}")
    return demos


async def seats_tour(pilot: Any) -> None:
    """The GM of a served table opens the seats dialog (w): it lists the player's join
    link, and the link's page is served; from it, the dialog that makes a link (l)."""
    app = pilot.app
    assert await opens(pilot, "w", shows="Alice") == "SeatsScreen"
    (link,) = app.table.links
    page = await asyncio.to_thread(_fetch, app.table.links.url(link))
    assert "textual" in page.lower(), page[:200]
    await pilot.press("w")
    seats = app.screen
    await until("the seats dialog", lambda: type(seats).__name__ == "SeatsScreen")
    await pilot.press("l")
    await until("the link dialog", lambda: "A join link for a browser seat" in screen_text(app))
    while app.screen is not seats:
        await closes(pilot, app.screen)
    await closes(pilot, seats)
    await pilot.press("q")
    print("tracker serve: the seats dialog (w) lists Alice's link; her page is served; l opens")


async def damaged_tour(pilot: Any) -> None:
    """A save whose journal is another save's: one notice, dismissed by Enter."""
    app = pilot.app
    await until("the notice", lambda: "The save was damaged" in screen_text(app))
    assert type(app.screen).__name__ == "NoticeScreen"
    await pilot.press("enter")
    await until("the encounter", lambda: type(app.screen).__name__ == "EncounterScreen")
    await pilot.press("q")
    print("tracker open of a save with a stray journal: its notice, then the encounter")


def damaged(demo: Path, folder: Path) -> None:
    save = folder / f"stray{storage.SUFFIX}"
    save.write_bytes(demo.read_bytes())
    Path(f"{save}.journal").write_bytes(b"not this save's journal")
    run("open", str(save), tour=damaged_tour)


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return str(response.read().decode())


def serve(demo: Path, folder: Path) -> None:
    players = folder / "players.txt"
    players.write_text("player:Alice link\n")
    players.chmod(0o600)
    listen = ("--listen", "127.0.0.1:0", "--web", "127.0.0.1:0")
    run("serve", str(demo), "--players", str(players), *listen, tour=seats_tour)


def main(version: str) -> None:
    started = time.monotonic()
    package = check_installed()
    check_commands(version, package)
    _, *others = first_start()
    for demo in others:
        run("open", str(demo), tour=tour_of(A_SYSTEMS_OWN))
    damaged(others[0], Path.cwd())
    serve(others[-1], Path.cwd())
    print(f"The installed tracker passed its smoke test in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":  # the forecast's worker processes import this file too
    TrackerApp.run_async = driven  # type: ignore[method-assign,assignment]
    main(*sys.argv[1:])
