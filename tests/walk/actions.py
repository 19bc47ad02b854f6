"""What a walk may do next: what the current screen offers, drawn at random.

A step is a few keys, as a user types them: one key a binding offers; a `:` line with words
drawn from the encounter; a value typed (or pasted) into the focused field; Enter or Esc.
A token is a key name for ``Pilot.press``, or ``paste:`` and text, which arrives as a
terminal's bracketed paste (how control characters and very long text reach an app).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.app import App
from textual.screen import ModalScreen, Screen
from textual.widgets import Input

from rules.encounter import Encounter
from tests.app.support import keys_of
from tests.hostile_text import CONTROLS, SEQUENCES, SPOOFING
from tracker.line_commands.names import handles
from tracker.line_commands.table import BUILTINS
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen

if TYPE_CHECKING:
    from tests.walk.world import World

Step = tuple[str, ...]
PASTE = "paste:"
GM = "gm:"  # what the GM does at the same table meanwhile (a player's or spectator's walk)
# A combatant the players saw may be hidden (and renamed Zorbex...: no trace of the new name
# may reach them) or removed.
GM_MOVES = ("next", "next", "roll", "hidden-roll", "apply", "undo", "hide", "remove", "dice")
# Typed a key at a time up to this length; longer text is pasted (a key each is slow).
TYPED = 12
# Never pressed: quitting ends the walk, and the palette's titles reach it too.
SKIPPED_ACTIONS = {"quit", "app.quit", "command_palette", "app.command_palette", "help_quit"}
SKIPPED_ACTIONS |= {"app.help_quit", "screenshot", "app.screenshot", "app.suspend_process"}
# The screen's own keys a user may press though it does not offer them (a player's `n`).
STRAY_KEYS = ("r", "t", "d", "n", "a", "e", "x", "c", "C", "o", "u", "ctrl+r", "w", "plus")
# The commands a `:` line starts with, besides the system's actions; a few misspelt.
TYPOS = ("atack", "nxt", "", "quitt", "undo undo", "roll roll")
DICE = ("2d6+3", "d20", "4d6kh3", "2d20kl1", "3d6!", "1d1000", "100d6!", "0d6", "2d", "d0")
NUMBERS = ("0", "1", "2", "3", "5", "-1", "-7", "12", "999999999999999999999", "1e9", "x")
CONDITIONS = ("Prone", "Dazed", "Dead", "Blinded", "On fire")
WORDS = ("round", "next-turn", "x3", "x999", "+effort", "2", ">=", "10", "md", "json", "zero")
# `:init` and `:order` words (`init roll each`, `order NAME before NAME`, `add X after NAME`).
WORDS += ("roll", "sort", "each", "before", "after")
WORDS += ("hidden",)  # `:roll 2d6 hidden`: the GM's secret dice, refused to a player
# `:init each-round on`, `:clock 2m`, `:ready NAME when it moves`, `:surprise way 2024`,
# `:hp foes band`.
WORDS += ("each-round", "on", "off", "2m", "90s", "1:30", "when", "way", "2024", "band", "exact")
LONG = ("A" * 300, "word " * 400, "9" * 200)


def hostile() -> list[str]:
    """Text that must stay inert: control characters, spoofing, escape sequences."""
    return [*SEQUENCES, CONTROLS[:16], CONTROLS[16:], SPOOFING, *LONG]


def names(state: Encounter) -> list[str]:
    """The ways to name a combatant the role can see: its name (quoted) and its handle."""
    out = []
    for handle, combatant in handles(state):
        name = combatant.name
        out += [handle, f'"{name}"' if " " in name else name]
    return out or ["nobody"]


def conditions(state: Encounter) -> list[str]:
    found = [condition.name for c in state.combatants for condition in c.conditions]
    return [*CONDITIONS, *found]


def text_values(rng: random.Random, state: Encounter) -> str:
    """A value for a text field: a name, a condition, dice, a number, or hostile text."""
    pool = rng.choice(
        [names(state), conditions(state), DICE, NUMBERS, hostile(), ["", " ", "Ogre"]]
    )
    return rng.choice(pool)


def int_values(rng: random.Random) -> str:
    return rng.choice(NUMBERS)


def command_words(world: World) -> list[str]:
    system = world.session.system
    actions = [action.id for action in system.actions(world.seen)]
    return [b.name for b in BUILTINS if b.name != "open"] + actions + list(TYPOS)


def command_line(rng: random.Random, world: World) -> str:
    """A `:` line: a command and a few words drawn from the encounter."""
    state = world.seen
    words = [rng.choice(command_words(world))]
    pools: list[Sequence[str]] = [names(state), names(state), conditions(state), DICE]
    pools += [NUMBERS, WORDS, hostile()]
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
        words.append(rng.choice(rng.choice(pools)))
    return " ".join(words)


def typing(text: str) -> Step:
    """The keys that type ``text``, or a paste of it when it is long or holds a control."""
    if len(text) > TYPED or any(not character.isprintable() for character in text):
        return (PASTE + text,)
    return tuple(keys_of(text))


def offered(world: World) -> tuple[list[str], list[str]]:
    """The keys the current screen offers (its bindings, as ``check_action`` allows them):
    the screen's and the app's, then the focused widget's (scrolling, a cursor). A text
    field's own editing keys are left to the steps that type."""
    screens: list[str] = []
    widgets: list[str] = []
    for key, active in world.app.screen.active_bindings.items():
        if isinstance(active.node, Input) or active.binding.action in SKIPPED_ACTIONS:
            continue
        if active.enabled:
            (screens if isinstance(active.node, Screen | App) else widgets).append(key)
    return sorted(screens), sorted(widgets)


def choose(rng: random.Random, world: World) -> Step:
    """The next step, among what the screen offers now."""
    app = world.app
    screen = app.screen
    focused = app.focused
    options: list[tuple[int, Callable[[], Step]]] = []
    keys, widget_keys = offered(world)
    if keys:
        options.append((6, lambda: (rng.choice(keys),)))
    if widget_keys:
        options.append((1, lambda: (rng.choice(widget_keys),)))
    options.append((2, lambda: (rng.choice(("enter", "escape")),)))
    if isinstance(screen, EncounterScreen):
        if "colon" in keys:
            line = command_line(rng, world)
            options.append((4, lambda: ("colon", *typing(line), "enter")))
        options.append((1, lambda: (rng.choice(STRAY_KEYS),)))
        titles = [title for title, action, _ in screen.palette_commands() if action != "quit"]
        options.append((1, lambda: ("ctrl+p", *typing(rng.choice(titles)), "enter")))
        options.append((2, lambda: (rng.choice(("up", "down", "tab")),)))
    if isinstance(focused, Input):
        if isinstance(screen, CommandLineScreen):
            value = command_line(rng, world)
        elif focused.type == "integer":
            value = int_values(rng)
        else:
            value = text_values(rng, world.seen)
        clear = rng.random() < 0.7 or not value  # typing nothing: the field cleared
        options.append((6, lambda: (*(("home", "ctrl+k") if clear else ()), *typing(value))))
        options.append((1, lambda: (rng.choice(("backspace", "right", "tab", "up", "down")),)))
    if world.table is not None and not world.sees_hidden:
        options.append((2, lambda: (GM + rng.choice(GM_MOVES),)))
    if isinstance(screen, ModalScreen):
        options.append((3, lambda: (rng.choice(("tab", "shift+tab", "down", "up", "space")),)))
    weights = [weight for weight, _ in options]
    [(_, make)] = rng.choices(options, weights)
    return make()


def shown(step: Step) -> str:
    """A step as typed: runs of characters as one string, other keys by name."""
    out: list[str] = []
    run = ""
    for token in step:
        if len(token) == 1:
            run += token
            continue
        if run:
            out.append(repr(run))
            run = ""
        out.append(f"paste {token[len(PASTE) :]!r}" if token.startswith(PASTE) else token)
    if run:
        out.append(repr(run))
    return " ".join(out)
