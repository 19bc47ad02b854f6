"""The ``tracker`` command. Headless subcommands never import Textual."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from rules.dice import SeededDice
from rules.errors import Rejected
from rules.systems import SYSTEMS
from tracker import storage


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, with exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> Parser:
    saves = Parser(add_help=False)
    saves.add_argument(
        "--saves",
        type=Path,
        default=storage.DEFAULT_SAVES,
        metavar="DIR",
        help="folder of saved encounters (default: ./saves)",
    )
    parser = Parser(
        prog="tracker",
        parents=[saves],
        description="A keyboard-driven combat tracker. No command: the newest save, or the demo.",
    )
    parser.add_argument("--seed", type=int, help="seed the dice (for reproducible play)")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)

    new = sub.add_parser("new", parents=[saves], help="start a new encounter")
    new.add_argument("--system", required=True, choices=sorted(SYSTEMS))
    new.add_argument("--name", required=True)

    open_ = sub.add_parser("open", parents=[saves], help="open a saved encounter")
    open_.add_argument("file", type=Path)

    roll = sub.add_parser("roll", help="roll once, headless, and print the breakdown")
    systems = roll.add_subparsers(dest="system", required=True, parser_class=Parser)
    livehack = systems.add_parser("livehack", help="an opposed Boon/Bane roll")
    livehack.add_argument("--attacker", type=int, required=True, metavar="MOD")
    livehack.add_argument("--defender", type=int, required=True, metavar="MOD")
    livehack.add_argument("--attacker-take", choices=["zero", "ten"])
    livehack.add_argument("--defender-take", choices=["zero", "ten"])
    livehack.add_argument("--seed", type=int)
    livehack.add_argument("--json", action="store_true", help="print every die as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "roll":
            return roll_livehack(args)
        return run_app(args)
    except (storage.SaveError, Rejected) as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 2


# --- headless rolls ----------------------------------------------------------------------------


def roll_livehack(args: argparse.Namespace) -> int:
    from rules.systems import livehack as lh

    seed = args.seed if args.seed is not None else secrets.randbits(32)
    dice = SeededDice(seed)
    attacker = lh.roll_side(
        (lh.Part("modifier", args.attacker),), args.attacker_take or "roll", dice
    )
    defender = lh.roll_side(
        (lh.Part("modifier", args.defender),), args.defender_take or "roll", dice
    )
    roll = lh.opposed_roll(attacker, defender, "reflex", "wounds")
    if args.json:
        print(json.dumps(livehack_json(roll, seed)))
        return 0
    from rules.encounter import Encounter

    print(lh.SYSTEM.describe(Encounter(name="", system="livehack"), roll).plain)
    print(f"(seed {seed})")
    return 0


def livehack_json(roll: object, seed: int) -> dict[str, object]:
    from rules.systems import livehack as lh

    assert isinstance(roll, lh.LiveHackRolled)

    def side(s: lh.SideRoll) -> dict[str, object]:
        return {
            "modifier": s.modifier,
            "take": s.take,
            "boon": list(s.dice.boon) if s.dice else [],
            "bane": list(s.dice.bane) if s.dice else [],
            "noon": bool(s.dice and s.dice.noon),
            "midnight": bool(s.dice and s.dice.midnight),
            "eclipse": bool(s.dice and s.dice.eclipse),
            "dice_total": s.dice_total,
            "total": s.total,
        }

    row = lh.consequence_for(roll.margin)
    tier = None
    if row is not None:
        tier = {
            "low": row.low,
            "high": row.high,
            "levels": row.levels,
            "condition": lh.condition_for(row, roll.defense),
        }
    return {
        "system": "livehack",
        "seed": seed,
        "attacker": side(roll.attacker),
        "defender": side(roll.defender),
        "margin": roll.margin,
        "success": roll.success,
        "margin_bonus": roll.margin_bonus,
        "tier": tier,
    }


# --- the app -------------------------------------------------------------------------------------


def choose_encounter(args: argparse.Namespace) -> tuple[storage.Opened, list[str]]:
    """The encounter to start on, and the lines to tell the user about files passed over."""
    from rules.engine import new_encounter
    from rules.history import History

    folder: Path = args.saves
    if args.command == "new":
        history = History(new_encounter(args.name, args.system))
        path = storage.free_path(folder, args.name)
        return storage.Opened(history, path, f"New encounter: {path}"), []
    if args.command == "open":
        if storage.is_demo(args.file):
            return storage.play_copy_of_demo(args.file, folder), []
        return storage.Opened(storage.read(args.file), args.file), []
    skipped: list[str] = []
    for path in storage.saves_by_recency(folder):
        try:
            return storage.Opened(storage.read(path), path), skipped
        except storage.SaveError as exc:
            skipped.append(f"Skipped {exc}")
    for demo in storage.demos(folder):
        try:
            return storage.play_copy_of_demo(demo, folder), skipped
        except storage.SaveError as exc:
            skipped.append(f"Skipped {exc}")
    raise storage.SaveError(
        folder, "no saves and no demo here; try: tracker new --system livehack --name NAME"
    )


def run_app(args: argparse.Namespace) -> int:
    opened, skipped = choose_encounter(args)
    from tracker.app import TrackerApp  # Textual is loaded only for the app
    from tracker.session import EncounterSession

    seed = args.seed if args.seed is not None else secrets.randbits(32)
    session = EncounterSession(opened.history, SeededDice(seed), opened.path)
    if args.command == "new":
        error = session.save()
        if error:
            raise storage.SaveError(opened.path, error)
    notes = [line for line in (opened.note, *skipped) if line]
    TrackerApp(session, saves=args.saves, notes=notes).run()
    return 0
