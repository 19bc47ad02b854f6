"""The user's keymap: their own keys for the app's keys, each named by its binding's id.

The file is ``keymap.toml`` beside the settings (``tracker.store.defaults``; on Linux
``~/.config/combat-tracker/``); ``TRACKER_KEYMAP`` names another file (tests use it). It
holds one table, ``[keys]``, of a binding's id to its keys, e.g. ``"encounter.roll" = "R"``
or ``"replay.next_event" = "right,l"``. The app only reads it, so nothing in it is ever lost.

A bad entry (an id no key has, a key that cannot be a key, a key another key of the same
screen holds) keeps its default, and start-up says so in one line; a file that cannot be read
keeps every default.
"""

from __future__ import annotations

import importlib
import os
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from textual.binding import Binding
from textual.keys import KEY_TO_UNICODE_NAME, REPLACED_KEYS, Keys

from tracker.store import files
from tracker.store.defaults import config_folder

ENV_FILE = "TRACKER_KEYMAP"
NAME = "keymap.toml"
MAX_BYTES = 64 * 1024  # a line a key, for every key the app has, many times over
MAX_ENTRIES = 400  # the app has about a hundred keys
MAX_KEYS_LENGTH = 80  # a few keys with modifiers; an id is shorter
MAX_SAID = 3  # problems named in the start-up line; the rest are counted
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
# Where the app's keys are: every screen and widget module, and a served table's two.
KEY_PACKAGES = ("tracker.screens", "tracker.widgets")
KEY_MODULES = ("tracker.app", "tracker.serve.seat_app", "tracker.serve.seats_screen")


def keymap_path() -> Path:
    """Where the keymap lives: TRACKER_KEYMAP, else the user's config folder."""
    override = os.environ.get(ENV_FILE)
    if override:
        return Path(override).expanduser()
    return config_folder() / NAME


def read(path: Path) -> tuple[dict[str, str], list[str]]:
    """The entries of ``path``'s ``[keys]`` (none if there is no file), and what was wrong."""
    try:
        # Read through a link (a dotfiles manager may link it).
        raw = files.read_bytes(path.resolve(), MAX_BYTES).decode("utf-8")
    except FileNotFoundError:
        return {}, []
    except (OSError, UnicodeDecodeError) as exc:
        return {}, [getattr(exc, "strerror", None) or str(exc)]
    import tomllib  # only for a keymap file: a start-up without one parses no TOML

    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        return {}, [f"is not valid TOML ({exc})"]
    table = data.get("keys", {})
    if not isinstance(table, dict) or set(data) - {"keys"}:
        return {}, ["holds something other than one [keys] table"]
    if len(table) > MAX_ENTRIES:
        return {}, [f"has {len(table)} keys (at most {MAX_ENTRIES})"]
    entries: dict[str, str] = {}
    problems = []
    for binding_id, keys in table.items():
        if len(binding_id) > MAX_KEYS_LENGTH:  # no id is this long: not repeated on screen
            problems.append(f"an id of {len(binding_id)} characters is no key's")
        elif isinstance(keys, str) and len(keys) <= MAX_KEYS_LENGTH:
            entries[binding_id] = keys
        else:
            problems.append(f"{binding_id!r}'s keys are not a short string")
    return entries, problems


def normalize(keys: str) -> str | None:
    """``keys`` (comma-separated) in Textual's long form (``?`` is ``question_mark``), or None
    if one of them cannot be a key."""
    out = []
    for key in keys.split(","):
        key = key.strip()
        *modifiers, base = key.split("+") if len(key) > 1 else [key]
        if any(m not in MODIFIERS for m in modifiers):
            return None
        name = _key_name(base)
        if name is None:
            return None
        out.append("+".join([*modifiers, name]))
    return ",".join(out)


def _key_name(base: str) -> str | None:
    if len(base) == 1:
        return _character_name(base) if base.isprintable() and base != " " else None
    if base in {key.value for key in Keys} or base == "space":
        return base
    unicode_name = KEY_TO_UNICODE_NAME.get(base, REPLACED_KEYS.get(base, base))
    try:
        character = unicodedata.lookup(unicode_name.replace("_", " "))
    except KeyError:
        return None
    return base if _character_name(character) == base else None


def _character_name(character: str) -> str:
    """A character's key name as Textual gives it (``_character_to_key``, private there)."""
    if character.isalnum():
        return character
    name = unicodedata.name(character, character).lower().replace("-", "_").replace(" ", "_")
    return {value: key for key, value in REPLACED_KEYS.items()}.get(name, name)


def check(
    entries: Mapping[str, str], bindings: Iterable[Binding]
) -> tuple[dict[str, str], list[str]]:
    """The entries to use (their keys in long form), and a problem for each left out.

    Two keys clash when their ids share a first part (``encounter.``: one screen's keys)."""
    defaults: dict[str, str] = {}
    for binding in bindings:
        if binding.id is not None:
            defaults[binding.id] = normalize(binding.key) or binding.key
    keymap: dict[str, str] = {}
    problems = []
    for binding_id, keys in entries.items():
        normal = normalize(keys)
        if binding_id not in defaults:
            problems.append(f"no key has the id {binding_id!r}")
        elif normal is None:
            problems.append(f"{keys!r} for {binding_id!r} is not a key")
        else:
            keymap[binding_id] = normal
    while clashing := _clashes({**defaults, **keymap}, keymap):
        for binding_id in sorted(clashing):
            problems.append(f"{keymap.pop(binding_id)!r} for {binding_id!r} is another key's")
    return keymap, problems


def _clashes(keys: Mapping[str, str], chosen: Mapping[str, str]) -> set[str]:
    """The chosen ids whose keys another id of their screen holds too."""
    holders: dict[tuple[str, str], set[str]] = {}
    for binding_id, keylist in keys.items():
        screen = binding_id.partition(".")[0]
        for key in keylist.split(","):
            holders.setdefault((screen, key), set()).add(binding_id)
    return {
        binding_id
        for ids in holders.values()
        if len(ids) > 1
        for binding_id in ids
        if binding_id in chosen
    }


def summary(path: Path, problems: list[str]) -> str:
    """The one start-up line for a keymap's problems."""
    said = "; ".join(problems[:MAX_SAID])
    more = f" (and {len(problems) - MAX_SAID} more)" if len(problems) > MAX_SAID else ""
    return f"Keymap {path}: {said}{more}; those keep their default keys"


def load(path: Path) -> tuple[dict[str, str], str | None]:
    """The user's keymap in ``path`` checked against the app's keys, and the line to show."""
    entries, problems = read(path)
    keymap: dict[str, str] = {}
    if entries:
        keymap, more = check(entries, app_bindings())
        problems += more
    return keymap, summary(path, problems) if problems else None


def app_bindings() -> list[Binding]:
    """Every key the app has, from every screen and widget (imported only when a user has a
    keymap: a start-up without one loads no more than before)."""
    import pkgutil

    from textual.dom import DOMNode

    for package in KEY_PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            importlib.import_module(info.name)
    for name in KEY_MODULES:
        importlib.import_module(name)
    found: dict[str, Binding] = {}
    for cls in _subclasses(DOMNode):
        if cls.__module__.startswith("tracker."):
            for binding in cls.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding) and binding.id is not None:
                    found[binding.id] = binding
    return list(found.values())


def _subclasses(cls: type) -> Iterator[type]:
    sub: type
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def user_key(keymap: Mapping[str, str], binding: Binding) -> str:
    """The keys ``binding`` answers to under the user's keymap."""
    return keymap.get(binding.id, binding.key) if binding.id is not None else binding.key
