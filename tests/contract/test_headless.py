"""The parts the tracker looks up by name: the demo, ``roll_cli`` and ``odds_cli``.

``tracker roll <name>`` and ``tracker odds <name>`` run a system's ``roll_cli`` and
``odds_cli`` (see ``rules/cli_interface.py``); ``make demo`` saves each ``demo`` as ``STEM``.
"""

from __future__ import annotations

from rules import registry
from rules.system import RuleSystem

from .headless_checks import (
    check_demo_stem,
    check_odds_cli,
    check_roll_cli,
    check_tracker_roll_and_odds,
    loaded,
)
from .support import (
    demo,
)


def test_the_demo_builds_a_fight_of_the_system(name: str):
    assert demo(name).state.system == name


def test_the_demo_has_a_stem(name: str):
    check_demo_stem(name)


def test_no_two_demos_share_a_stem():
    stems = [check_demo_stem(name) for name in registry.names()]
    assert len(set(stems)) == len(stems), stems


def test_roll_cli_rolls_its_example_reproducibly(name: str):
    check_roll_cli(name)


def test_odds_cli_answers_its_example_exactly(system: RuleSystem):
    check_odds_cli(system)


def test_odds_cli_loads_no_msgspec_and_not_the_system(system: RuleSystem, name: str):
    if not system.has_odds:
        return
    modules = loaded(f"import rules.registry as r; assert r.part({name!r}, 'odds_cli')")
    assert "msgspec" not in modules
    assert f"rules.systems.{name}.system" not in modules


def test_tracker_roll_and_odds_run_the_examples(system: RuleSystem, capsys):
    check_tracker_roll_and_odds(system, capsys)
