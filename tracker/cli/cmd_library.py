"""``tracker library list|add|import|export``: the stat blocks, bundled and the user's own."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.cli.parsing import Building, Parser
from tracker.cli.with_saves import with_saves

HELP = "the library of stat blocks"
FOLDERS = True


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    folders = building.folders
    what = parser.add_subparsers(dest="library_command", required=True, parser_class=Parser)
    listed = what.add_parser(
        "list",
        parents=[folders],
        help="every stat block, bundled and your own",
        description=(
            "Every stat block with its system's figures (hit points, Armour Class, a "
            "challenge rating and its XP, as the system gives them), its type, side and "
            "source, those matching every filter given: --cr 1/4..3 --type undead"
        ),
    )
    listed.add_argument("--system", help="only this system's")
    listed.add_argument("name", nargs="?", default="", metavar="NAME", help="a name fragment")
    listed.add_argument("--name", dest="name_option", default="", help="a name fragment")
    listed.add_argument("--cr", default="", help="a challenge rating or a range: 2, 1/4..3, 5..")
    listed.add_argument("--type", dest="creature_type", default="", help="a type: undead")
    listed.add_argument(
        "--source", default="", help="where from: own, srd (a bundled set), user (your files)"
    )
    listed.add_argument("--json", action="store_true", help="print them as JSON")
    add = what.add_parser(
        "add", parents=[folders], help="check a stat block file and keep it in the library"
    )
    add.add_argument("file", type=Path, metavar="FILE.toml")
    add.add_argument("--replace", action="store_true", help="replace one of the same name")
    imported = what.add_parser(
        "import",
        parents=[folders],
        help="keep monsters from another tool's JSON (a D&D 5e API monster, or a list)",
        description=(
            "Keep monsters in the SRD's structured-data shape (the D&D 5e API's "
            "/api/2014/monsters/<index>, the 5e-bits database: one, or a list) in your "
            "library as stat blocks, each listed with its figures and what its sheet leaves "
            "out. Every monster is checked before any is kept; a file of another shape, a "
            "damaged monster or one already kept (without --replace) is refused in one line."
        ),
    )
    imported.add_argument("file", type=Path, metavar="FILE.json")
    imported.add_argument(
        "--dry-run", action="store_true", help="show what would be kept, and keep nothing"
    )
    imported.add_argument("--replace", action="store_true", help="replace those of the same name")
    export = what.add_parser(
        "export", parents=[folders], help="print a combatant of a save as a stat block"
    )
    export.add_argument("save", type=Path, metavar="SAVE")
    export.add_argument("name", metavar="NAME")


def run(args: argparse.Namespace) -> int:
    return with_saves(args, library_command)


def library_command(args: argparse.Namespace) -> int:
    import json

    from rules.registry import known
    from rules.text import inert, inert_document
    from tracker.launch import library_of
    from tracker.line_commands.names import need_combatant
    from tracker.store import library, storage

    folder = library_of(args)
    if args.library_command == "add":
        entry, path = library.add_file(folder, args.file, args.replace)
        print(inert(f"Kept {entry.name} ({entry.system}) in {path}"), file=sys.stderr)
        return 0
    if args.library_command == "import":
        return import_command(folder, args.file, args.dry_run, args.replace)
    if args.library_command == "export":
        state = storage.read(args.save).state
        combatant = need_combatant(state, args.name)
        # Its stat block, as a fight starts (unhurt, its number dropped), not its state now.
        kept = library.from_combatant(state.system, combatant, fresh=True)
        sys.stdout.write(library.to_toml(kept))
        return 0
    from tracker.store import library_find

    # The filters are checked before the library is read: a bad range is one line at once.
    want = library_find.wanted(
        args.name_option or args.name, args.cr, args.creature_type, args.source
    )
    found = library.load(folder)
    for problem in found.problems:
        print(inert(f"tracker: {problem}"), file=sys.stderr)
    entries = found.of(known(args.system)) if args.system else found.entries
    library_find.check_source(found.entries, want)
    entries = library_find.select(entries, want)
    if args.json:
        print(json.dumps([library_find.to_json(e) for e in entries], indent=2))
    else:
        print(inert_document(library_find.listing(entries)))
    return 0


def import_command(folder: Path, path: Path, dry_run: bool, replace: bool) -> int:
    """Every monster of the file checked and converted before one is kept; each listed
    with its figures and what its sheet leaves out."""
    from rules.text import inert
    from tracker.store import library_sets

    plan = library_sets.planned(folder, path, replace)
    if not dry_run:
        library_sets.kept(folder, plan)
    for item in plan:
        left = f"; left out: {'; '.join(item.block.left_out)}" if item.block.left_out else ""
        mended = f"; mended: {'; '.join(item.block.corrections)}" if item.block.corrections else ""
        print(inert(f"{item.entry.name}: {item.block.facts}{left}{mended}"))
    verb = "Would keep" if dry_run else "Kept"
    where = folder / plan[0].entry.system if plan else folder
    blocks = "stat block" if len(plan) == 1 else "stat blocks"
    print(inert(f"{verb} {len(plan)} {blocks} in {where}"), file=sys.stderr)
    return 0
