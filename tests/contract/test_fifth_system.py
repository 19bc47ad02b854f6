"""A fifth system is one folder: Coin Flip, the worked example of docs/adding-a-system.md,
copied from the page into a temporary folder at test time, is found by the registry and
keeps the contract. The folder is forgotten afterwards, so no other test sees it."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

from rules import registry, snapshot
from rules.errors import Rejected
from rules.forecast import forecast
from rules.system import RuleSystem
from tests.rules.test_purity import offences

from .support import (
    ROOT,
    check_action,
    check_consequence,
    check_demo_stem,
    check_identity,
    check_odds_cli,
    check_outcome,
    check_pending,
    check_roll,
    check_roll_cli,
    check_roll_odds,
    check_save_round_trip,
    check_sheet_round_trip,
    check_solo_sides,
    check_tags,
    check_tracker_roll_and_odds,
    demo,
    roll_from_demo,
    selections,
    sheets_to_check,
)

DOC = ROOT / "docs" / "adding-a-system.md"
TOY = "coinflip"
# A code block of the page that is a whole file: its first line is a comment naming it.
FILE_BLOCK = re.compile(r"```python\n# (rules/systems/coinflip/\w+\.py)\n(.*?)```", re.DOTALL)


def files_in_the_doc() -> dict[str, str]:
    """The toy's files, by their path in the project, as the page shows them."""
    text = DOC.read_text(encoding="utf-8")
    return {path: f"# {path}\n{code}" for path, code in FILE_BLOCK.findall(text)}


def forget() -> None:
    registry.names.cache_clear()
    registry.get_system.cache_clear()
    snapshot.codec.cache_clear()
    importlib.invalidate_caches()


@pytest.fixture
def coinflip(tmp_path: Path) -> Iterator[RuleSystem]:
    """The toy system, registered by its folder alone (in a temporary place the registry
    is pointed at), and unregistered afterwards."""
    for path, code in files_in_the_doc().items():
        target = tmp_path / PurePosixPath(path).relative_to("rules/systems")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    (tmp_path / TOY / "__init__.py").touch()
    package = importlib.import_module(registry.PACKAGE)
    before = list(package.__path__)
    package.__path__ = [*before, str(tmp_path)]
    forget()
    try:
        yield registry.get_system(TOY)
    finally:
        package.__path__ = before
        for module in [m for m in sys.modules if m.startswith(f"{registry.PACKAGE}.{TOY}")]:
            del sys.modules[module]
        forget()
        assert TOY not in registry.names()


def test_the_page_shows_every_file_of_the_toy():
    names = {PurePosixPath(path).name for path in files_in_the_doc()}
    assert names == {"system.py", "odds.py", "demo.py", "roll_cli.py", "odds_cli.py"}


@pytest.mark.parametrize("path", sorted(files_in_the_doc()))
def test_the_toy_would_pass_the_purity_scan(path: str):
    assert offences(Path(path), files_in_the_doc()[path]) == []


def test_a_folder_is_all_it_takes_to_register_a_system(coinflip: RuleSystem):
    assert TOY in registry.names()
    assert {system.name for system in registry.all_systems()} == set(registry.names())
    check_identity(TOY)
    tags = check_tags(coinflip)
    for other in registry.names():
        if other != TOY:
            assert not set(tags) & set(check_tags(registry.get_system(other)))


def test_the_toy_keeps_the_contract(coinflip: RuleSystem):
    history = demo(TOY)
    for sheet in sheets_to_check(coinflip, history):
        check_sheet_round_trip(coinflip, sheet)
    check_save_round_trip(history)
    state = history.state
    for action in coinflip.actions(state):
        for selected in selections(state):
            must_roll = action.id == "roll" and selected == selections(state)[0]
            check_action(coinflip, history, action.id, selected, must_roll)
    rolled = roll_from_demo(coinflip, history)
    check_roll(coinflip, rolled)
    check_roll_odds(coinflip, rolled)
    check_save_round_trip(rolled.history)
    assert check_solo_sides(coinflip, rolled.history) == []  # no policies: no moves
    check_pending(coinflip, rolled.history)  # the default hooks: d's consequence waits
    check_consequence(coinflip, rolled)
    figures = check_outcome(coinflip, rolled.history)  # the hooks' defaults
    assert not figures.outcome.out and all(side.luck is None for side in figures.luck)
    with pytest.raises(Rejected, match="Coin Flip has no solo play"):  # no policy plays it
        forecast(history.state, runs=10)


def test_the_toy_has_the_headless_parts(coinflip: RuleSystem, capsys):
    check_demo_stem(TOY)
    check_roll_cli(TOY)
    check_odds_cli(coinflip)
    check_tracker_roll_and_odds(coinflip, capsys)
