"""The library of stat blocks: one human-editable TOML file per combatant.

A stat block names its system and gives the sheet's fields by the keys of the system's add
form, each checked by the system's own form parsing::

    name = "Goblin Sneak"
    system = "livehack"
    side = "foes"
    notes = "Stabs from the dark"

    [sheet]
    attack = 2
    skills = "Hide +3, Spot +1"

A system with more than one kind of sheet (Pain Pool: hero, challenge) says which with
``kind = "challenge"``. The bundled set is each system's own, in its folder
(``rules/systems/<system>/stat_blocks/``, found through the registry); the user's
library (``--library``, else ``tracker.store.defaults.library_folder()``) holds the same files, and
one of theirs stands in for a bundled one of the same system and name. No Textual here.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import Any

from rules.commands import AddCombatant
from rules.encounter import Combatant
from rules.engine import MAX_GROUP, MAX_NAME, NUMBERED
from rules.errors import Rejected
from rules.forms import Field
from rules.registry import PACKAGE, get_system, known, names
from rules.system import RuleSystem
from tracker.line_commands.did_you_mean import nearest
from tracker.store import files, storage
from tracker.store.storage import slug

BUNDLED = "stat_blocks"  # a system's own, in its folder: rules/systems/<system>/stat_blocks/
SUFFIX = ".toml"
MAX_BYTES = 64 * 1024  # a stat block is a few hundred bytes; this is room for long notes
MAX_FILES = 2000  # read from one library folder: more than anyone keeps, fewer than a stall
MAX_TEXT = 2000  # characters of one value (notes, a list of skills)
TOP = ("name", "system", "kind", "type", "side", "hidden", "notes", "sheet")
MEANT = 3  # names offered after a name the library does not have
MAX_ECHO = 60  # characters of a name echoed back in a refusal
MAX_TYPE = 40  # characters of a creature type ("humanoid (any race)", "swarm of Tiny beasts")
OWN, USER = "own", "user"  # where a stat block comes from: a system's own set, the user's
COUNT = re.compile(r"x(?P<count>[0-9]{1,4})", re.IGNORECASE)  # "x3": three of them
GROUP = re.compile(rf"(?P<name>.*?\S)\s+{COUNT.pattern}", re.IGNORECASE)  # "Goblin x3"


class LibraryError(Exception):
    """A stat block that cannot be read or kept; ``str()`` is the one line to show."""


@dataclass(frozen=True)
class Entry:
    """A stat block: ``fields`` are the sheet's form values, by key, as typed."""

    name: str
    system: str
    side: str = "foes"
    notes: str = ""
    hidden: bool = False
    kind: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    path: Path | None = None
    bundled: bool = False
    creature_type: str = ""  # "dragon", "undead": a stat block's type, as the SRD gives it
    # Where it comes from: a system's own set (``own``), a bundled set of its folder named for
    # its subfolder (``stat_blocks/srd/``: ``srd``), or the user's library (``user``).
    source: str = USER

    def sheet(self) -> Any:
        return _sheet(self.system, self.kind, self.fields)

    def command(self, name: str | None = None, side: str | None = None) -> AddCombatant:
        return AddCombatant(
            name=name or self.name,
            side=side or self.side,
            gm_only=self.hidden,
            notes=self.notes,
            sheet=self.sheet(),
        )

    def copies(self, count: int, side: str | None = None) -> tuple[AddCombatant, ...]:
        """``count`` of it, each under the entry's name: adding numbers them (Goblin 1...)."""
        if not 1 <= count <= MAX_GROUP:
            raise LibraryError(f"a group is 1 to {MAX_GROUP} combatants, not {count}")
        return (self.command(side=side),) * count

    def summary(self) -> str:
        """The sheet in a few words, as the combatants pane shows it."""
        system = get_system(self.system)
        stats = zip(system.stat_columns, system.sheet_stats(self.sheet()), strict=False)
        return "  ".join(f"{column} {value}" for column, value in stats if value.strip())

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "system": self.system,
            "kind": self.kind,
            "side": self.side,
            "hidden": self.hidden,
            "notes": self.notes,
            "sheet": dict(self.fields),
            "bundled": self.bundled,
            "type": self.creature_type,
            "source": self.source,
            "file": str(self.path) if self.path else None,
        }


# --- reading -----------------------------------------------------------------------------------


# Sheets built, by their system, kind and form values: a library of hundreds is listed and
# summed up again on every look (each `a`, each `:`), and a sheet is frozen, so one is shared.
_SHEETS: dict[tuple[str, str, tuple[tuple[str, str], ...]], Any] = {}
MAX_SHEETS = 4 * MAX_FILES  # kept at most; past it the cache starts afresh


def _sheet(system_name: str, kind: str, fields: tuple[tuple[str, str], ...]) -> Any:
    key = (system_name, kind, fields)
    found = _SHEETS.get(key)
    if found is None:
        system = get_system(system_name)
        found = system.sheet_from_form(dict(fields), _blank(system, kind))
        if len(_SHEETS) >= MAX_SHEETS:
            _SHEETS.clear()
        _SHEETS[key] = found
    return found


def _blank(system: RuleSystem, kind: str) -> Any:
    return dict(system.sheet_kinds())[kind]


def _form(system: RuleSystem, kind: str) -> dict[str, Field]:
    return {f.key: f for f in system.sheet_form(_blank(system, kind))}


def _line_of(text: str, key: str, table: str = "") -> int:
    """The line (from 1) where ``key`` is set, in ``[table]`` or at the top; 1 if not found."""
    current = ""
    pattern = re.compile(rf"""\s*(["']?){re.escape(key)}\1\s*=""")
    header = re.compile(r"\s*\[\s*([^\]]*?)\s*\]")
    for number, line in enumerate(text.splitlines(), 1):
        found = header.match(line)
        if found:
            current = found.group(1).strip("\"'")
            if key == table == current:
                return number
        elif current == table and pattern.match(line):
            return number
    return 1


class _At:
    """Where a key is set, "FILE line N", found only when a message says it (finding the line
    scans the text: once a field for every file made reading a library twice as slow)."""

    def __init__(self, text: str, source: str, key: str, table: str = "") -> None:
        self.text, self.source, self.key, self.table = text, source, key, table

    def __str__(self) -> str:
        return f"{self.source} line {_line_of(self.text, self.key, self.table)}"


def _text(value: object, what: str, where: object, limit: int = MAX_TEXT) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise LibraryError(f"{where}: {what} must be text")
    text = str(value)
    if len(text) > limit:
        raise LibraryError(f"{where}: {what} is longer than {limit:,} characters")
    return text


def parse(text: str, source: str = "stat block") -> Entry:
    """A stat block from its TOML text; ``LibraryError`` names the source, line and field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LibraryError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once a level: arrays in arrays, 20,000 deep
        raise LibraryError(f"{source}: nested too deeply to be a stat block") from None

    def at(key: str, table: str = "") -> _At:
        return _At(text, source, key, table)

    for key in data:
        if key not in TOP:
            raise LibraryError(f"{at(key)}: unknown field {key!r} (fields: {', '.join(TOP)})")
    if "system" not in data:
        raise LibraryError(f"{source}: no system (one of: {', '.join(names())})")
    system_name = _text(data["system"], "system", at("system"))
    try:
        system = get_system(known(system_name))
    except Rejected as exc:
        raise LibraryError(f"{at('system')}: {exc.message}") from None
    if "name" not in data:
        raise LibraryError(f'{source}: no name (e.g. name = "Goblin")')
    name = " ".join(_text(data["name"], "name", at("name")).split())
    if not name or len(name) > MAX_NAME:
        raise LibraryError(f"{at('name')}: a name has 1 to {MAX_NAME} characters")
    kinds = [k for k, _ in system.sheet_kinds()]
    kind = _text(data.get("kind", kinds[0]), "kind", at("kind"))
    if kind not in kinds:
        listed = ", ".join(k for k in kinds if k) or "none: leave it out"
        raise LibraryError(f"{at('kind')}: {system.title} has no kind {kind!r} (kinds: {listed})")
    hidden = data.get("hidden", False)
    if not isinstance(hidden, bool):
        raise LibraryError(f"{at('hidden')}: hidden must be true or false")
    sheet = data.get("sheet", {})
    if not isinstance(sheet, dict):
        raise LibraryError(f"{at('sheet')}: sheet must be a table ([sheet])")
    form = _form(system, kind)
    blank = _blank(system, kind)
    fields: list[tuple[str, str]] = []
    for key, value in sheet.items():
        where = at(key, "sheet")
        if key not in form:
            keys = ", ".join(form)
            raise LibraryError(f"{where}: {system.title} sheets have no field {key!r} ({keys})")
        typed = ("yes" if value else "no") if isinstance(value, bool) else value
        fields.append((key, _text(typed, form[key].label, where)))
    creature_type = " ".join(_text(data.get("type", ""), "type", at("type"), MAX_TYPE).split())
    entry = Entry(
        name=name,
        system=system.name,
        creature_type=creature_type,
        side=" ".join(_text(data.get("side", "foes"), "side", at("side"), MAX_NAME).split())
        or "foes",
        notes=_text(data.get("notes", ""), "notes", at("notes")).strip(),
        hidden=hidden,
        kind=kind,
        fields=tuple(fields),
    )
    try:
        entry.sheet()
    except Rejected as exc:
        # The line of the first field refused on its own (a field may need another: Pain
        # Pool's Impacted boon is one of the boons), else the table's.
        line: _At = at("sheet", "sheet")
        for key, value in fields:
            try:
                system.sheet_from_form({key: value}, blank)
            except Rejected:
                line = at(key, "sheet")
                break
        raise LibraryError(f"{line}: {exc.message}") from None
    return entry


def read_text(path: Path) -> str:
    """A stat block file's text: a regular file of at most ``MAX_BYTES``, in UTF-8, never
    read through a link (a library folder may be shared)."""
    try:
        data = files.read_bytes(path, MAX_BYTES, "stat block file")
    except FileNotFoundError:
        raise LibraryError(f"{path}: no such file") from None
    except OSError as exc:
        raise LibraryError(f"{path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LibraryError(f"{path}: is not UTF-8 text") from None


def read(path: Path, bundled: bool = False, text: str | None = None) -> Entry:
    text = read_text(path) if text is None else text
    entry = replace(parse(text, str(path)), path=path, bundled=bundled)
    if bundled:  # its set: the subfolder of ``stat_blocks/`` it is in, or the system's own
        folder = path.parent.name
        entry = replace(entry, source=OWN if folder == BUNDLED else folder)
    return entry


@dataclass
class Library:
    """The stat blocks found: the bundled set, then the user's (theirs win a clash), and a
    line for each file that could not be read (skipped)."""

    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def of(self, system: str) -> list[Entry]:
        return [e for e in self.entries if e.system == system]

    def find(self, system: str, word: str) -> Entry | None:
        """The entry a word names: its name in any case, its slug (``goblin-sneak``), or its
        name as the listing shows it, with its kind (``Goons (challenge)``)."""
        wanted = word.strip().casefold()
        for entry in self.of(system):
            if wanted in (entry.name.casefold(), slug(entry.name), _listed(entry)):
                return entry
        return None

    def seek(self, system: str, word: str) -> tuple[Entry | None, list[Entry]]:
        """What a typed word names: ``find``'s entry, else the only one whose name or slug
        starts with it (``gob`` for Goblin); else none, with those it starts when several do
        (``hollow``: Hollow Crypt, Hollow King)."""
        found = self.find(system, word)
        if found is not None:
            return found, []
        wanted, wanted_slug = " ".join(word.split()).casefold(), slug(word)
        if not wanted:
            return None, []
        starting = [
            e
            for e in self.of(system)
            if e.name.casefold().startswith(wanted)
            or (wanted_slug and slug(e.name).startswith(wanted_slug))
        ]
        return (starting[0], []) if len(starting) == 1 else (None, starting)

    def need(self, system: str, word: str) -> Entry:
        found, several = self.seek(system, word)
        if found is None:
            title = get_system(system).title
            shown = word if len(word) <= MAX_ECHO else f"{word[:MAX_ECHO]}…"  # a line, not a page
            raise LibraryError(
                f"no {title} stat block {shown!r} in the library{self.meant(system, word, several)}"
                f" (tracker library list --system {system} lists them)"
            )
        return found

    def meant(self, system: str, word: str, several: Sequence[Entry] = ()) -> str:
        """ ": did you mean 'A' or 'B'?" after a name the library does not have: the names it
        starts when several do, else the nearest names ("" when none is near)."""

        near = [e.name for e in several][:MEANT] or nearest(word, [e.name for e in self.of(system)])
        if not near:
            return ""
        shown = [f"'{n}'" for n in near]
        return (
            ": did you mean "
            + (", ".join(shown[:-1]) + " or " if len(shown) > 1 else "")
            + f"{shown[-1]}?"
        )


def _listed(entry: Entry) -> str:
    """Its name with its kind, as ``tracker library list`` may show it, case folded."""
    return f"{entry.name} ({entry.kind})".casefold() if entry.kind else ""


def _files(folder: Path, pattern: str = f"*/*{SUFFIX}") -> list[Path]:
    try:
        return sorted(folder.glob(pattern))[:MAX_FILES]
    except OSError:
        return []


def bundled_files() -> list[Path]:
    """Every system's own stat blocks, by the registry's systems, and the sets bundled in
    subfolders of its ``stat_blocks/`` (``srd/``)."""
    found = []
    for name in names():
        for folder in import_module(f"{PACKAGE}.{name}").__path__:
            found += _files(Path(folder) / BUNDLED, f"*{SUFFIX}")
            found += _files(Path(folder) / BUNDLED, f"*/*{SUFFIX}")
    return found


# Each file read, as it was read: its stamp, its text, and the stat block or the line saying why
# not. The app reads the library anew on every `a` and `:` (the files may have changed), and
# parsing hundreds of stat blocks takes most of a second; a file unchanged is not parsed again.
Stamp = tuple[int, int, int, int]
_READ: dict[tuple[Path, bool], tuple[Stamp, str, Entry | str]] = {}
RACY_NS = 2 * 10**9  # a file changed this recently may change again within its clock's tick


def _stamp(path: Path) -> Stamp | None:
    try:
        found = path.lstat()  # a link is refused as it is read: its own change counts
    except OSError:
        return None
    return found.st_mtime_ns, found.st_ctime_ns, found.st_size, found.st_ino


def read_cached(path: Path, bundled: bool, now_ns: int) -> Entry:
    """``read``, unless the file is as it was when last read: its stamp the same and older
    than a clock's tick (then trusted unread), or its text the same (then not parsed again)."""
    stamp = _stamp(path)
    kept = _READ.get((path, bundled))
    text: str | None = None
    # A stamp older than a clock's tick is trusted; a newer one, the text is compared.
    if kept is not None and stamp == kept[0] and now_ns - max(stamp[0], stamp[1]) >= RACY_NS:
        text = kept[1]
    if text is None:
        text = read_text(path)  # LibraryError: no such file, too large... (not kept)
    if kept is None or kept[1] != text or stamp is None or kept[0] != stamp:
        try:
            result: Entry | str = read(path, bundled, text)
        except LibraryError as exc:
            result = str(exc)
        if len(_READ) >= MAX_SHEETS:
            _READ.clear()
        kept = (stamp or (0, 0, 0, 0), text, result)
        _READ[path, bundled] = kept
    if isinstance(kept[2], str):
        raise LibraryError(kept[2])
    return kept[2]


_LOADING = threading.Lock()  # one reading at a time: a second waits, then finds it all kept


def warm(folder: Path | None) -> None:
    """Read the library in a thread of its own, so the first `a` or `:` finds every file
    parsed already; what goes wrong is left for that reading to say (it reads them again)."""

    def read_all() -> None:
        with contextlib.suppress(Exception):  # only a head start: the next load says it
            load(folder)

    threading.Thread(target=read_all, name="library-warm", daemon=True).start()


def load(folder: Path | None) -> Library:
    """Every stat block: bundled, then ``folder``'s (None: the bundled set alone); a file
    read before and unchanged is not parsed again (``read_cached``)."""
    with _LOADING:
        return _load(folder)


def _load(folder: Path | None) -> Library:
    library = Library()
    chosen: dict[tuple[str, str], Entry] = {}
    now_ns = time.time_ns()
    for bundled, paths in ((True, bundled_files()), (False, _files(folder) if folder else [])):
        for path in paths:
            try:
                entry = read_cached(path, bundled, now_ns)
            except LibraryError as exc:
                library.problems.append(f"Skipped {exc}")
                continue
            chosen[entry.system, entry.name.casefold()] = entry
    library.entries = sorted(chosen.values(), key=lambda e: (e.system, e.name.casefold()))
    return library


# --- writing -----------------------------------------------------------------------------------


def _toml_string(text: str) -> str:
    # A JSON string is a TOML basic string, but for DEL, which TOML wants escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def to_toml(entry: Entry) -> str:
    """The stat block as a TOML file (numbers as numbers, the rest as text)."""
    system = get_system(entry.system)
    form = _form(system, entry.kind)
    lines = [
        f"# A {system.title} stat block for the combat tracker (tracker library add FILE)",
        f"name = {_toml_string(entry.name)}",
        f"system = {_toml_string(entry.system)}",
    ]
    if entry.kind:
        lines.append(f"kind = {_toml_string(entry.kind)}")
    if entry.creature_type:
        lines.append(f"type = {_toml_string(entry.creature_type)}")
    lines.append(f"side = {_toml_string(entry.side)}")
    if entry.hidden:
        lines.append("hidden = true")
    if entry.notes:
        lines.append(f"notes = {_toml_string(entry.notes)}")
    lines += ["", "[sheet]"]
    for key, value in entry.fields:
        number = form[key].kind == "int" and re.fullmatch(r"[+-]?[0-9]{1,15}", value)
        lines.append(f"{_toml_key(key)} = {int(value) if number else _toml_string(value)}")
    return "\n".join(lines) + "\n"


def _kind_of(system: RuleSystem, sheet: object) -> str:
    return next((k for k, blank in system.sheet_kinds() if type(blank) is type(sheet)), "")


def from_combatant(system_name: str, combatant: Combatant[Any], fresh: bool = False) -> Entry:
    """A combatant as a stat block: its sheet's form values, those left blank left out.

    ``fresh``: its sheet as a new fight begins (``RuleSystem.fresh_sheet``), under its name
    without the number adding gave it ("Goblin 2" is kept as "Goblin").
    """
    system = get_system(system_name)
    sheet = system.fresh_sheet(combatant.sheet) if fresh else combatant.sheet
    kind = _kind_of(system, sheet)
    blank = _form(system, kind)
    fields = tuple(
        (f.key, f.default)
        for f in system.sheet_form(sheet)
        if f.key in blank and f.default != blank[f.key].default
    )
    name = combatant.name
    numbered = NUMBERED.fullmatch(name) if fresh else None
    return Entry(
        name=numbered.group(1) if numbered else name,
        system=system_name,
        side=combatant.side,
        notes=combatant.notes,
        hidden=combatant.gm_only,
        kind=kind,
        fields=fields,
    )


def path_for(folder: Path, entry: Entry) -> Path:
    return folder / entry.system / f"{slug(entry.name)}{SUFFIX}"


def write(folder: Path, entry: Entry, text: str | None = None) -> Path:
    """Keep a stat block in ``folder`` (as ``text`` when given, so a user's comments stay),
    replacing one of the same name; the path written."""
    path = path_for(folder, entry)
    owned = storage.owned_by_a_save(path)  # a library folder in the saves' or linked to it
    if owned is not None:
        raise LibraryError(f"{path}: {owned}; a stat block is never kept in its place")
    try:
        storage.write_text(path, text if text is not None else to_toml(entry))
    except storage.SaveError as exc:
        raise LibraryError(str(exc)) from None
    return path


def add_file(folder: Path, path: Path, replace: bool = False) -> tuple[Entry, Path]:
    """Check a stat block file and copy it into the library; one of the same system and name
    already there is replaced only when told to (``replace``)."""
    text = read_text(path)
    entry = parse(text, str(path))
    target = path_for(folder, entry)
    if not replace and (target.exists() or target.is_symlink()):
        raise LibraryError(
            f"{target}: the library has a stat block named {entry.name!r} already; "
            "add --replace to replace it"
        )
    return entry, write(folder, entry, text)


# --- groups --------------------------------------------------------------------------------------


def parse_group(text: str) -> tuple[str, int]:
    """ "Goblin x3" -> ("Goblin", 3); a name alone is one."""
    text = " ".join(text.split())
    found = GROUP.fullmatch(text)
    if found is None:
        return text, 1
    count = int(found.group("count"))
    if not 1 <= count <= MAX_GROUP:
        raise LibraryError(f"{text!r}: a group is 1 to {MAX_GROUP} combatants")
    return found.group("name"), count


def groups(
    library: Library, system: str, asked: Iterable[str]
) -> list[tuple[Entry, tuple[AddCombatant, ...]]]:
    """Each "NAME xK" asked for: its entry and the K copies to add."""
    out = []
    for text in asked:
        name, count = parse_group(text)
        entry = library.need(system, name)
        out.append((entry, entry.copies(count)))
    return out
