"""The docs' generated pages, made from the app itself so they never drift from it.

- ``reference/keys.md``: every key of the encounter screen, a served table and the replay,
  from their bindings (what ``?`` shows);
- ``reference/command-line.md``: ``tracker --help`` and every subcommand's help.

The site's build makes these pages (docs/hooks.py), so they are never out of date. Run as
``python -m docs.generate`` (``make docs`` does), it redraws the pictures:
``docs/images/tracker-80x24.svg`` (the README's) and ``tracker-120x36.svg``, the tracker on
the first bundled demo, drawn by Textual's own screenshot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from textual.binding import Binding, BindingType

DOCS = Path(__file__).resolve().parent
IMAGES = DOCS / "images"
GENERATED = "<!-- Made by docs/generate.py from the app itself, as the site is built. -->"


def key_rows(bindings: Iterable[BindingType]) -> Iterator[str]:
    from tracker.screens.help import key_label

    for binding in bindings:
        # The replay's ten digits (ids ``replay.digit_0`` to ``_9``) share one line.
        if not isinstance(binding, Binding) or re.search(r"_[1-9]$", binding.id or ""):
            continue
        keys = " / ".join(f"`{key}`" for key in key_label(binding.key).split(" / "))
        name = (binding.id or "").removesuffix("_0")
        if name != binding.id:
            name, keys = f"`{name}_0` … `{name}_9`", "`0` … `9`"
        else:
            name = f"`{name}`"
        yield f"| {keys.replace('|', '&#124;')} | {binding.description} | {name} |"


def keys_page() -> str:
    from tracker.screens.encounter_screen import EncounterScreen
    from tracker.screens.replay_screen import ReplayScreen
    from tracker.serve.seat_app import TableApp
    from tracker.store.keymap import app_bindings

    shown = [*EncounterScreen.BINDINGS, *TableApp.BINDINGS, *ReplayScreen.BINDINGS]
    ids = {binding.id for binding in shown if isinstance(binding, Binding)}
    rest = sorted(
        (binding for binding in app_bindings() if binding.id not in ids),
        key=lambda binding: binding.id or "",
    )

    def table(bindings: Iterable[BindingType]) -> str:
        head = ["| Key | What it does | Id (for your keymap) |", "|---|---|---|"]
        return "\n".join([*head, *key_rows(bindings)])

    return "\n\n".join(
        [
            GENERATED,
            "# Keys",
            "Every key, as `?` lists it in the app. `ctrl+p` opens the command palette, where "
            "every action is found by name, and `:` the command line "
            "([Command line](command-line.md) is the shell's).",
            "These are the default keys. To change one, name it by its id in `keymap.toml` "
            "in your config folder (on Linux `~/.config/combat-tracker/`; the environment "
            "variable `TRACKER_KEYMAP` names another file), in a `[keys]` table:",
            fence('[keys]\n"encounter.roll" = "g"\n"replay.next_event" = "right,l"'),
            "A key is a letter (`R` is shift+r), a name (`f5`, `space`, `question_mark`) or "
            "either after `ctrl+`, `shift+` or `alt+`; several keys are separated by commas. "
            "`?` and the palette then show your keys. An entry with an unknown id, a key that "
            "is not a key, or a key another key of the same screen (the id's first part) "
            "already has keeps its default, and the app says so in one line as it starts. "
            "The app never writes the file.",
            "## The encounter",
            table(EncounterScreen.BINDINGS),
            "## A served table (the GM's seats and links, a player's turn alerts)",
            table(TableApp.BINDINGS),
            "## The replay (`R`, or `tracker replay FILE`)",
            table(ReplayScreen.BINDINGS),
            "## Dialogs and lists (by id: the part before the dot names the dialog)",
            table(rest),
        ]
    )


def command_line_page() -> str:
    from tracker.cli import build_parser

    parser = build_parser()
    parts = [GENERATED, "# Command line", "`tracker --help` and each command's `--help`."]
    parts.append(fence(parser.format_help()))
    for name, command in subcommands(parser):
        parts.append(f"## tracker {name}")
        parts.append(fence(command.format_help()))
    return "\n\n".join(parts)


def subcommands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:  # argparse has no public way to list its subparsers
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                full = f"{prefix}{name}"
                yield full, sub
                yield from subcommands(sub, f"{full} ")


def fence(text: str) -> str:
    return f"```text\n{text.rstrip()}\n```"


async def screenshot(demo: str, size: tuple[int, int]) -> str:
    from rules.dice import SeededDice
    from tracker.app import TrackerApp
    from tracker.demos import DEMOS
    from tracker.session import EncounterSession

    session = EncounterSession(DEMOS[demo](), SeededDice(7), None)
    app = TrackerApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        return app.export_screenshot(title=f"Combat Tracker: {demo}")


def pages() -> dict[str, str]:
    """The generated Markdown pages, by their place in the site."""
    # argparse wraps its help to the terminal's width: the page's is fixed.
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        return {
            "reference/keys.md": keys_page() + "\n",
            "reference/command-line.md": command_line_page() + "\n",
        }
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def main() -> None:
    from tracker.demos import DEMOS

    for size in ((80, 24), (120, 36)):
        path = IMAGES / f"tracker-{size[0]}x{size[1]}.svg"
        path.write_text(asyncio.run(screenshot(next(iter(DEMOS)), size)))
        print(f"wrote {path.relative_to(DOCS.parent)}")


if __name__ == "__main__":
    main()
