"""A fifth system is one folder: Coin Flip, the worked example of
docs/contributing/adding-a-system.md, copied from the page into a temporary folder at test time, is
found by the registry and keeps the contract. The folder is forgotten afterwards, so no other test
sees it."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

import tests.app.test_app_odds as odds_screen
import tests.app.test_app_quick_flow as quick_flow
import tests.serve.test_seat_forms as seat_forms
from rules import registry, snapshot
from rules.errors import Rejected
from rules.forecast import forecast
from rules.system import RuleSystem
from tests.rules.test_purity import offences
from tracker.demos import DEMOS

from .headless_checks import (
    check_demo_stem,
    check_odds_cli,
    check_roll_cli,
    check_tracker_roll_and_odds,
)
from .initiative_checks import (
    check_initiative,
)
from .solo_checks import (
    check_solo_sides,
)
from .support import (
    ROOT,
    check_action,
    check_consequence,
    check_identity,
    check_outcome,
    check_pending,
    check_roll,
    check_roll_odds,
    check_save_round_trip,
    check_sheet_round_trip,
    check_tags,
    demo,
    roll_from_demo,
    selections,
    sheets_to_check,
)

DOC = ROOT / "docs" / "contributing" / "adding-a-system.md"
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
def coinflip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RuleSystem]:
    """The toy system, registered by its folder alone (in a temporary place the registry
    is pointed at), its demo among the app's, and unregistered afterwards."""
    if TOY in registry.names():  # make example: it is in rules/systems/, checked there
        pytest.skip(f"{TOY} is in rules/systems/ itself: every generic test checks it there")
    for path, code in files_in_the_doc().items():
        target = tmp_path / "systems" / PurePosixPath(path).relative_to("rules/systems")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    (tmp_path / "systems" / TOY / "__init__.py").touch()
    package = importlib.import_module(registry.PACKAGE)
    before = list(package.__path__)
    package.__path__ = [*before, str(tmp_path / "systems")]
    forget()
    try:
        demo_part = registry.part(TOY, "demo")
        assert demo_part is not None
        monkeypatch.setitem(DEMOS, demo_part.STEM, demo_part.build)
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
    check_initiative(coinflip, history)  # the initiative hooks' defaults


def test_the_toy_has_the_headless_parts(coinflip: RuleSystem, capsys):
    check_demo_stem(TOY)
    check_roll_cli(TOY)
    check_odds_cli(coinflip)
    check_tracker_roll_and_odds(coinflip, capsys)


def test_a_dialog_proposes_whoever_s_turn_it_is(coinflip: RuleSystem):
    history = demo(TOY)
    state = history.state
    assert state.current_id is not None
    other = next(c.id for c in state.combatants if c.id != state.current_id)
    fields = coinflip.action_form(state, "roll", other)  # another combatant highlighted
    assert fields[0].default == state.current_id


# The app's generic tests, run on the toy as on every system (``make example`` runs them all,
# with the walk and the real terminal, on a copy of the project with the toy in place).


async def test_the_toy_takes_a_quick_turn_by_keys(coinflip: RuleSystem, tmp_path: Path):
    await quick_flow.test_four_keys_in_every_demo(tmp_path, TOY)


async def test_the_toy_at_a_served_players_seat(coinflip: RuleSystem, tmp_path: Path):
    stem = registry.part(TOY, "demo").STEM  # type: ignore[union-attr]
    await seat_forms.test_a_players_refused_roll_keeps_the_buttons_on_screen(tmp_path, stem)


async def test_the_toys_odds_say_whose_they_are(coinflip: RuleSystem, tmp_path: Path):
    stem = registry.part(TOY, "demo").STEM  # type: ignore[union-attr]
    await odds_screen.test_every_systems_odds_say_whose_they_are(tmp_path, stem)


def test_the_toys_stat_blocks_are_optional(coinflip: RuleSystem):
    from tracker.store import library

    # Without stat_blocks/ (as the page writes it): no bundled stat block, no problem.
    assert [e for e in library.load(None).entries if e.system == TOY] == []
    assert library.load(None).problems == []
    # With one, written into its folder as a contributor would: listed as bundled.
    system_module = registry.part(TOY, "system")
    assert system_module is not None and system_module.__file__ is not None
    folder = Path(system_module.__file__).parent / library.BUNDLED
    folder.mkdir()
    flipper = demo(TOY).state.combatants[0]
    entry = library.from_combatant(TOY, flipper, fresh=True)
    (folder / f"flipper{library.SUFFIX}").write_text(library.to_toml(entry), encoding="utf-8")
    found = [e for e in library.load(None).entries if e.system == TOY]
    assert [e.name for e in found] == [entry.name]
    assert library.load(None).problems == []
