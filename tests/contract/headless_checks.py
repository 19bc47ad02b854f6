"""The contract's checks of the parts the tracker looks up by name (``rules/cli_interface.py``):
the demo, ``roll_cli`` and ``odds_cli``; and what a fresh process loads."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

from rules import registry
from rules.dice import SeededDice
from rules.system import RuleSystem

from .support import ROOT, SEED, check_odds


def parsed(module: Any, words: tuple[str, ...]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    return parser.parse_args(list(words))


def example(module: Any) -> tuple[str, ...]:
    words = module.EXAMPLE
    assert isinstance(words, tuple) and all(isinstance(w, str) for w in words), words
    return words


def check_demo_stem(name: str) -> str:
    stem = registry.part(name, "demo").STEM  # type: ignore[union-attr]
    assert isinstance(stem, str) and stem.strip() and "/" not in stem, repr(stem)
    return stem


def check_roll_cli(name: str) -> None:
    from rules.cli_interface import RollReport

    module = registry.part(name, "roll_cli")
    assert module is not None, f"rules/systems/{name}/roll_cli.py is missing"
    words = example(module)
    report = module.roll(parsed(module, words), SeededDice(SEED))
    assert isinstance(report, RollReport)
    assert isinstance(report.text, str) and report.text.strip()
    assert isinstance(report.data, dict) and report.data.get("system") == name
    assert json.loads(json.dumps(report.data)) == report.data, "the data is not JSON-ready"
    assert module.roll(parsed(module, words), SeededDice(SEED)) == report, "not reproducible"


def odds_cli(system: RuleSystem) -> Any:
    """The system's odds_cli; None only for a system without odds, which may have none."""
    module = registry.part(system.name, "odds_cli")
    assert module is not None or not system.has_odds, (
        f"rules/systems/{system.name}/odds_cli.py is missing"
    )
    return module


def check_odds_cli(system: RuleSystem) -> None:
    module = odds_cli(system)
    if module is not None:
        answer = module.answer(parsed(module, example(module)))
        check_odds(system, answer, "odds_cli.answer")


def check_tracker_roll_and_odds(system: RuleSystem, capsys: Any) -> None:
    """``tracker roll`` and ``tracker odds`` with the parts' EXAMPLEs: exit 0, some output,
    and with --json, JSON naming the system."""
    from tracker import cli

    name = system.name
    asked = [["roll", name, *example(registry.part(name, "roll_cli")), "--seed", "1"]]
    module = odds_cli(system)
    if module is not None:
        asked.append(["odds", name, *example(module)])
    for words in asked:
        assert cli.main(words) == 0, words
        assert capsys.readouterr().out.strip(), words
        assert cli.main([*words, "--json"]) == 0, words
        assert json.loads(capsys.readouterr().out)["system"] == name, words


# --- what a fresh process loads ----------------------------------------------------------------

# Imports the modules named, runs the code given, and prints every module loaded since.
PROBE = """
import sys
before = set(sys.modules)
for name in sys.argv[2:]:
    __import__(name)
exec(sys.argv[1])
print(" ".join(sorted(set(sys.modules) - before)))
"""


def loaded(code: str, *modules: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, code, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())
