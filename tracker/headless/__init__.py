"""Headless subcommands, ``tracker roll <system>`` and ``tracker odds <system>``, for every
system that offers them. None of them imports Textual.

A system offers them as parts of its package, found through ``rules.registry.part``:
``roll_cli`` and ``odds_cli`` (their interface: ``rules/cli_interface.py``). They add their options
and answer; this module adds ``--seed`` and ``--json``, seeds the dice, prints and turns a
refusal into one line on stderr. A part is imported only when asked for, so a headless command
loads one rule system, not all of them, and ``tracker odds`` only its light ``odds_cli``.
"""

from __future__ import annotations

import argparse
import sys
from types import ModuleType

from rules.errors import Rejected
from rules.registry import part
from rules.text import inert
from tracker.headless.odds_output import print_odds

COMMANDS = {"roll": "roll_cli", "odds": "odds_cli"}


def command_part(command: str, system: str) -> ModuleType | None:
    """The system's part for ``command`` (``roll`` or ``odds``), or None if it has none."""
    return part(system, COMMANDS[command])


def add_arguments(command: str, module: ModuleType, parser: argparse.ArgumentParser) -> None:
    """The system's options for ``command``, then those every system shares."""
    module.add_arguments(parser)
    if command == "roll":
        # Set only when given here, so `tracker --seed 5 roll ...` keeps the top-level seed.
        parser.add_argument(
            "--seed", type=int, default=argparse.SUPPRESS, help="seed the dice, to reproduce a roll"
        )
        parser.add_argument("--json", action="store_true", help="print every die as JSON")
    else:
        parser.add_argument("--json", action="store_true", help="print the odds as JSON")


def run(args: argparse.Namespace) -> int:
    """Run ``tracker roll`` or ``tracker odds`` for ``args.system``: 0, or 2 when refused."""
    module = command_part(args.command, args.system)
    assert module is not None  # the parser offers only the systems that have the part
    try:
        if args.command == "roll":
            run_roll(module, args)
        else:
            print_odds(module.answer(args), args.json)
    except Rejected as exc:
        print(inert(f"tracker: {exc}"), file=sys.stderr)
        return 2
    return 0


def run_roll(module: ModuleType, args: argparse.Namespace) -> None:
    from tracker.headless.seeds import dice_for  # only a roll needs dice: odds start quicker

    seed, dice = dice_for(args.seed)
    report = module.roll(args, dice)
    if args.json:
        import json  # only here: the printout does without it

        print(json.dumps({"system": args.system, "seed": seed} | report.data))
    else:
        print(report.text)
        print(f"(seed {seed})")
