"""Save files on disk: atomic writes, and one clear line for any file that cannot be read."""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from rules import snapshot
from rules.history import History, Record

SUFFIX = ".fight"
DEMO_PREFIX = "demo-"
FIRST_DEMO = "demo-livehack.fight"  # what a fresh `make run` opens


class SaveError(Exception):
    """A save that cannot be read or written; ``str()`` is the one line to show."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def journal_path(path: Path) -> Path:
    """The journal beside a snapshot: records committed since the snapshot was written."""
    return path.with_name(path.name + ".journal")


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, "no such file") from None
    except IsADirectoryError:
        raise SaveError(path, "is a folder, not a save file") from None
    except PermissionError:
        raise SaveError(path, "permission denied") from None
    except OSError as exc:
        raise SaveError(path, exc.strerror or str(exc)) from None


@dataclass
class Loaded:
    """A save as read: its history, and a notice when a torn journal end was dropped."""

    history: History
    notice: str | None = None


def load(path: Path) -> Loaded:
    """Open a save: the snapshot, then its journal. Never writes to either file."""
    data = _read_bytes(path)
    try:
        journal = journal_path(path)
        records: list[Record] = []
        problem = None
        if journal.exists():
            frames = snapshot.decode_frames(_read_bytes(journal), snapshot.read_header(data).system)
            records, problem = snapshot.continue_log(snapshot.records_in(data), frames)
        history = snapshot.open_lazily(data, records)
    except snapshot.SnapshotError as exc:
        raise SaveError(path, str(exc)) from None
    notice = f"{path}: {problem}; the records before it were kept" if problem else None
    return Loaded(history, notice)


def read(path: Path) -> History:
    """Open a save (see ``load``), ignoring any notice."""
    return load(path).history


def write(path: Path, history: History) -> None:
    """Replace ``path`` with the encounter, atomically: a reader sees the old or the new file."""
    _write_atomically(path, snapshot.encode(history))


def _write_atomically(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _fsync_folder(path.parent)
    except OSError as exc:
        raise SaveError(path, f"could not save ({exc.strerror or exc})") from None


def write_text(path: Path, text: str) -> None:
    """Write a report atomically, like a save."""
    _write_atomically(path, text.encode())


def is_save(path: Path) -> bool:
    """Whether a file starts like one of our saves (so a report never overwrites one)."""
    try:
        with open(path, "rb") as file:
            return file.read(len(snapshot.MAGIC)) == snapshot.MAGIC
    except OSError:
        return False


def _fsync_folder(folder: Path) -> None:
    # Makes the rename itself durable; some file systems refuse to open a folder for this.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def slug(name: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    return text[:40] or "encounter"


def free_path(folder: Path, name: str) -> Path:
    """A new file name in ``folder`` for an encounter called ``name``; never an existing file."""
    base = slug(name)
    candidate = folder / f"{base}{SUFFIX}"
    number = 2
    while candidate.exists():
        candidate = folder / f"{base}-{number}{SUFFIX}"
        number += 1
    return candidate


@dataclass(frozen=True)
class Listing:
    """One line of the saves browser: what a save is, or why it cannot be opened."""

    path: Path
    name: str
    system: str
    round: int
    changed: float  # modification time, seconds since the epoch
    size: int  # bytes, snapshot and journal together
    problem: str = ""
    copy_of: str = ""  # the file name of the demo this save was copied from

    @property
    def demo(self) -> bool:
        return is_demo(self.path)


def describe_save(path: Path) -> Listing:
    return _described(path)[0]


def _described(path: Path) -> tuple[Listing, History | None]:
    journal = journal_path(path)
    try:
        stat = path.stat()
        size = stat.st_size + (journal.stat().st_size if journal.exists() else 0)
        changed = max(stat.st_mtime, journal.stat().st_mtime if journal.exists() else 0)
    except OSError as exc:
        return Listing(path, path.name, "?", 0, 0, 0, exc.strerror or str(exc)), None
    try:
        history = read(path)
    except SaveError as exc:
        return Listing(path, path.name, "?", 0, changed, size, exc.problem), None
    state = history.state
    return Listing(path, state.name, state.system, state.round, changed, size), history


def list_saves(folder: Path) -> list[Listing]:
    """Every save in a folder (demos too), newest first; a copy of a demo in the folder
    says so (its log begins with the whole demo's)."""
    if not folder.is_dir():
        return []
    found = [_described(p) for p in folder.glob(f"*{SUFFIX}") if p.is_file()]
    demos = [(item, history) for item, history in found if item.demo and history is not None]
    listings = []
    for item, history in found:
        if history is not None and not item.demo:
            origin = next((d for d, h in demos if _continues(history, d, h)), None)
            if origin is not None:
                item = replace(item, copy_of=origin.path.name)
        listings.append(item)
    return sorted(listings, key=lambda item: item.changed, reverse=True)


def _continues(history: History, demo: Listing, played: History) -> bool:
    """Whether ``history`` is the demo's, played on (its records begin with all of them)."""
    if (history.state.name, history.state.system) != (demo.name, demo.system):
        return False
    ours, theirs = history.records, played.records
    return len(ours) >= len(theirs) and all(ours[i] == theirs[i] for i in range(len(theirs)))


def is_demo(path: Path) -> bool:
    return path.name.startswith(DEMO_PREFIX)


def saves_by_recency(folder: Path) -> list[Path]:
    """The player's saves (demos excluded), newest first."""
    if not folder.is_dir():
        return []
    saves = [p for p in folder.glob(f"*{SUFFIX}") if p.is_file() and not is_demo(p)]
    return sorted(saves, key=lambda p: p.stat().st_mtime, reverse=True)


def demos(folder: Path) -> list[Path]:
    """The bundled demos, the one to start on first (the LiveHack fight), then by name."""
    found = sorted(folder.glob(f"{DEMO_PREFIX}*{SUFFIX}")) if folder.is_dir() else []
    return sorted(found, key=lambda path: path.name != FIRST_DEMO)


@dataclass
class Opened:
    """An encounter ready to play: its history and the file it is saved to."""

    history: History
    path: Path
    note: str = ""
    repaired: bool = False  # a torn journal end was dropped: compact before appending


def open_save(path: Path) -> Opened:
    loaded = load(path)
    return Opened(loaded.history, path, loaded.notice or "", repaired=loaded.notice is not None)


def play_copy_of_demo(demo: Path, folder: Path) -> Opened:
    """Demos stay pristine: play a copy of one, in the saves folder."""
    history = read(demo)
    target = free_path(folder, history.state.name)
    write(target, history)
    return Opened(history, target, f"Playing a copy of the demo: {target}")


class Journal:
    """Appends each record to the save's journal, flushed to disk before it returns.

    Appending costs the same however long the fight is; ``compact`` folds the journal into a
    new snapshot (written atomically) and empties it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.journal = journal_path(path)
        self._fd: int | None = None

    def append(self, number: int, record: Record) -> None:
        frame = snapshot.encode_frame(number, record)
        try:
            if self._fd is None:
                self.journal.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            os.write(self._fd, frame)
            os.fsync(self._fd)
        except OSError as exc:
            raise SaveError(self.journal, f"could not save ({exc.strerror or exc})") from None

    def compact(self, history: History) -> None:
        # The snapshot lands first; a crash before the journal is emptied leaves records the
        # snapshot already holds, which opening skips by their numbers.
        write(self.path, history)
        try:
            with open(self.journal, "wb") as out:
                os.fsync(out.fileno())
        except OSError as exc:
            raise SaveError(self.journal, f"could not clear ({exc.strerror or exc})") from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
