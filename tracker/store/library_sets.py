"""Stat blocks made from another tool's data (JSON): a GM's download kept in their library
(``tracker library import``), and a set bundled in a system's folder from a shared file
(``make srd``, a maintainer's command). Each system says what it reads through its
``convert_stat_blocks`` hook; nothing here names a system. Everything is checked before
anything is written, and a failure part-way puts back what was there."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from rules.conversion import Conversion, ConvertedBlock
from rules.errors import Rejected
from rules.registry import PACKAGE, get_system, names
from tracker.store import files, storage
from tracker.store.library import BUNDLED, SUFFIX, Entry, LibraryError, parse, path_for, write
from tracker.store.storage import slug

MAX_BYTES = 4 * 1024 * 1024  # a file of monsters: the SRD's 334 are 1.3 MB
README = "README.md"


def read_data(path: Path) -> object:
    """A JSON file's data: a regular file of at most ``MAX_BYTES``, in UTF-8."""
    try:
        raw = files.read_bytes(path, MAX_BYTES, "file")
    except FileNotFoundError:
        raise LibraryError(f"{path}: no such file") from None
    except OSError as exc:
        raise LibraryError(f"{path}: {exc.strerror or exc}") from None
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise LibraryError(f"{path}: is not UTF-8 text") from None
    except RecursionError:
        raise LibraryError(f"{path}: nested too deeply to be stat blocks") from None
    except ValueError as exc:  # json.JSONDecodeError, and numbers too long to read
        raise LibraryError(f"{path}: not JSON ({str(exc)[:80]})") from None


def converted(data: object, source: str) -> tuple[str, Conversion]:
    """The first system that reads ``data``'s shape, and what it made of it."""
    for name in names():
        try:
            found = get_system(name).convert_stat_blocks(data)
        except Rejected as exc:
            raise LibraryError(f"{source}: {exc.message}") from None
        except RecursionError:
            raise LibraryError(f"{source}: nested too deeply to be stat blocks") from None
        if found is not None:
            return name, found
    raise LibraryError(
        f"{source}: not stat blocks of a shape the tracker reads (such as a monster of "
        "the D&D 5e API, or a list of them)"
    )


@dataclass(frozen=True)
class Imported:
    entry: Entry
    block: ConvertedBlock
    path: Path


def planned(folder: Path, path: Path, replace: bool = False) -> list[Imported]:
    """What importing ``path`` would keep, each block read as the library reads it, and
    refused whole in one line if any cannot be kept (two of one name, one already there)."""
    _, conversion = converted(read_data(path), str(path))
    found: list[Imported] = []
    targets: dict[Path, str] = {}
    for block in conversion.blocks:
        entry = parse(block.text, f"{path}: {block.name}")
        target = path_for(folder, entry)
        if target in targets:
            raise LibraryError(
                f"{path}: {targets[target]!r} and {entry.name!r} would be kept in one file "
                f"({target.name}); nothing was imported"
            )
        targets[target] = entry.name
        if not replace and (target.exists() or target.is_symlink()):
            raise LibraryError(
                f"{target}: the library has a stat block named {entry.name!r} already; "
                "add --replace to replace it (nothing was imported)"
            )
        found.append(Imported(entry, block, target))
    return found


def kept(folder: Path, plan: list[Imported]) -> None:
    """Keep every planned block; if one cannot be written, those written before it are put
    back as they were, so the library is never left half-imported."""
    before: list[tuple[Path, bytes | None]] = []
    try:
        for item in plan:
            try:
                old: bytes | None = files.read_bytes(item.path, MAX_BYTES, "stat block file")
            except FileNotFoundError:
                old = None
            before.append((item.path, old))
            write(folder, item.entry, item.block.text)
    except (LibraryError, OSError):
        for path, old in reversed(before):
            _put_back(path, old)
        raise


def _put_back(path: Path, old: bytes | None) -> None:
    try:
        if old is None:
            path.unlink(missing_ok=True)
        else:
            storage.write_text(path, old.decode("utf-8"))
    except (OSError, storage.SaveError, UnicodeDecodeError):
        pass  # the error that got us here is the one to report


# --- a bundled set (make srd) -------------------------------------------------------------------


def system_folder(name: str) -> Path:
    return Path(next(iter(import_module(f"{PACKAGE}.{name}").__path__)))


def bundle(conversion: Conversion) -> dict[str, str]:
    """A bundled set's files by their path in the system's folder: each block in
    ``stat_blocks/<set>/``, the notice its licence asks for beside them, and the page."""
    where = f"{BUNDLED}/{conversion.set_name}"
    found: dict[str, str] = {}
    for block in conversion.blocks:
        name = f"{where}/{slug(block.name)}{SUFFIX}"
        if name in found:
            raise LibraryError(f"two stat blocks of the set would be {name}")
        found[name] = block.text
    found[f"{where}/{README}"] = (
        f"# The {conversion.set_name.upper()} stat blocks\n\n"
        f"Made by `make srd` from the shared data; do not edit (the suite checks they are "
        f"what the converter makes). What the conversion left out and mended: "
        f"[{conversion.page_name}](../../{conversion.page_name}).\n\n"
        + "".join(f"> {line}\n" for line in conversion.notice.splitlines())
    )
    if conversion.page_name:
        found[conversion.page_name] = conversion.page
    return found


def bundles(data: object, source: str) -> dict[str, dict[str, str]]:
    """Each system's bundled set made from ``data``, by the system's name."""
    name, conversion = converted(data, source)
    if not conversion.set_name:
        raise LibraryError(f"{source}: {get_system(name).title} bundles no set from it")
    return {name: bundle(conversion)}


def build(path: Path) -> list[Path]:
    """Write the sets made from ``path`` into their systems' folders, the set's old blocks
    that are no longer made removed; the paths written."""
    written: list[Path] = []
    for name, found in bundles(read_data(path), str(path)).items():
        folder = system_folder(name)
        sets = {(folder / p).parent for p in found if p.endswith(SUFFIX)}
        for old in (o for s in sets for o in s.glob(f"*{SUFFIX}")):
            if str(old.relative_to(folder)) not in found:
                old.unlink()
        for relative, text in found.items():
            target = folder / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            storage.write_text(target, text)
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m tracker.store.library_sets FILE``: ``make srd``'s bundle."""
    import sys

    from rules.text import inert

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tracker.store.library_sets FILE.json", file=sys.stderr)
        return 2
    try:
        written = build(Path(args[0]))
    except (LibraryError, storage.SaveError, OSError) as exc:
        print(inert(f"tracker: {exc}"), file=sys.stderr)
        return 2
    print(inert(f"{len(written)} files written from {args[0]}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
