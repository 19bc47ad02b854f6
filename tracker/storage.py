"""Save files on disk: atomic writes, one writer per save, and one clear line for any file
that cannot be read."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
import stat
import tempfile
import time
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


class SaveLocked(SaveError):
    """Another process is writing this save."""


# A 100,000-record fight is 17 MB (docs/performance.md): anything past this is not a save,
# and is refused from its size alone, before a byte of it is read.
MAX_BYTES = 256 * 1024 * 1024
_MAX_MB = MAX_BYTES // 2**20


def journal_path(path: Path) -> Path:
    """The journal beside a snapshot: records committed since the snapshot was written."""
    return path.with_name(path.name + ".journal")


def lock_path(path: Path) -> Path:
    """The hidden file whose lock says a process is writing the save."""
    return path.with_name(f".{path.name}.lock")


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode is no save (a pipe would hang a read, a device never end)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a save file"
    if stat.S_ISFIFO(mode):
        return "is a pipe (FIFO), not a save file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a save file"
    return "is not a regular file"


def _check_file(path: Path, info: os.stat_result) -> None:
    problem = _not_regular(info.st_mode)
    if problem is None and info.st_size > MAX_BYTES:
        problem = f"is {info.st_size // 2**20} MB, too big for a save (at most {_MAX_MB} MB)"
    if problem is not None:
        raise SaveError(path, problem)


def _os_problem(path: Path, exc: OSError) -> SaveError:
    if isinstance(exc, FileNotFoundError):
        return SaveError(path, "no such file")
    if isinstance(exc, PermissionError):
        return SaveError(path, "permission denied")
    return SaveError(path, exc.strerror or str(exc))


def _check_save(path: Path) -> None:
    """Refuse at once what cannot be a save: missing, a folder, a pipe, a device, too big."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise _os_problem(path, exc) from None
    _check_file(path, info)


def _read_bytes(path: Path) -> bytes:
    _check_save(path)  # a pipe or a device is never even opened
    try:
        # Non-blocking, in case it became a pipe since: the open then cannot hang.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            _check_file(path, os.fstat(fd))
            with os.fdopen(fd, "rb", closefd=False) as file:
                data = file.read(MAX_BYTES + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        raise _os_problem(path, exc) from None
    if len(data) > MAX_BYTES:  # it grew while it was read
        raise SaveError(path, f"is too big for a save (at most {_MAX_MB} MB)")
    return data


@dataclass
class Loaded:
    """A save as read: its history, and a notice when a torn journal end was dropped."""

    history: History
    notice: str | None = None
    problem: str | None = None  # the damage itself, as the notice names it


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
    return Loaded(history, notice, problem)


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
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False  # opening a pipe to look would hang
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


class SaveLock:
    """The one writer's claim on a save: an ``flock`` on a hidden lock file beside it.

    The kernel drops the lock when the holder exits however it ends (``kill -9`` too), so a
    crash never leaves a save locked. ``fcntl`` is POSIX-only, as the tracker is. The lock
    file is never removed: removing it would let a late opener lock a file no longer there.
    The ``filelock`` library does not fit: it truncates the file on every try, wiping the
    holder's PID that the refusal names.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    @classmethod
    def take(cls, path: Path) -> SaveLock:
        """Lock ``path`` for this process; ``SaveLocked`` if another holds it."""
        lock = cls(path)
        where = lock_path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise SaveError(path, f"cannot be saved: {path.parent} is not a folder") from None
        except OSError as exc:
            raise SaveError(path, f"cannot be saved there ({exc.strerror or exc})") from None
        try:
            flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
            fd = os.open(where, flags, 0o644)
        except OSError as exc:
            raise SaveError(path, f"cannot be locked for writing ({exc.strerror or exc})") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SaveError(path, f"cannot be locked for writing ({where} is not a file)")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise SaveError(path, f"cannot be locked ({exc.strerror or exc})") from None
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                who = f"PID {holder}" if holder.isdigit() else "another process"
                raise SaveLocked(path, f"is already open by {who}") from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        lock._fd = fd
        return lock

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = None


@dataclass
class Opened:
    """An encounter ready to play: its history and the file it is saved to, locked for this
    process (the session that plays it releases the lock when it closes)."""

    history: History
    path: Path
    note: str = ""
    repaired: bool = False  # a torn journal end was dropped: compact before appending
    lock: SaveLock | None = None


# mkstemp's names in _write_atomically: the prefix, eight of these characters, the suffix.
_TEMP_NAME = "[a-z0-9_]{8}\\.tmp"


def _remove_stale_temp_files(path: Path) -> None:
    """Temporary files of a writer of this save that died mid-write (we hold its lock, so
    no live writer has any)."""
    pattern = re.compile(re.escape(f".{path.name}.") + _TEMP_NAME)
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        if pattern.fullmatch(name):
            with contextlib.suppress(OSError):  # left for next time: it costs space, not data
                os.unlink(path.parent / name)


def _keep_damaged(path: Path) -> list[Path]:
    """Copies of a damaged save and journal beside them, before anything rewrites them."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = []
    for original in (path, journal_path(path)):
        copy = original.with_name(f"{original.name}.damaged-{stamp}")
        number = 2
        while copy.exists():
            copy = original.with_name(f"{original.name}.damaged-{stamp}-{number}")
            number += 1
        try:
            shutil.copyfile(original, copy)
        except OSError as exc:
            copy.unlink(missing_ok=True)
            raise SaveError(
                path, f"is damaged, and a copy of it could not be kept ({exc.strerror or exc})"
            ) from None
        kept.append(copy)
    return kept


def open_save(path: Path) -> Opened:
    """Open a save to play: locked first, so no other writer reads it half-written or writes
    it after us; a damaged one is copied aside before the session rewrites it."""
    _check_save(path)  # no lock file is made beside a folder, a pipe or a missing file
    lock = SaveLock.take(path)
    try:
        loaded = load(path)
        _remove_stale_temp_files(path)
        note = ""
        if loaded.notice:
            kept = _keep_damaged(path)
            note = f"{loaded.notice}; the damaged files were copied to " + " and ".join(
                p.name for p in kept
            )
    except BaseException:
        lock.release()
        raise
    return Opened(loaded.history, path, note, repaired=bool(note), lock=lock)


def create(folder: Path, history: History, note: str = "") -> Opened:
    """A new save in ``folder`` for ``history``, locked and written (its first snapshot)."""
    while True:
        path = free_path(folder, history.state.name)
        lock = SaveLock.take(path)
        if not path.exists():  # not taken by another process since free_path looked
            break
        lock.release()
    try:
        write(path, history)
    except BaseException:
        lock.release()
        raise
    return Opened(history, path, note.format(path=path), lock=lock)


def play_copy_of_demo(demo: Path, folder: Path) -> Opened:
    """Demos stay pristine: play a copy of one, in the saves folder."""
    return create(folder, read(demo), "Playing a copy of the demo: {path}")


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
                # Non-blocking: a pipe put in the journal's place fails here instead of hanging.
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC
                fd = os.open(self.journal, flags, 0o644)
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    os.close(fd)
                    raise SaveError(self.journal, "could not save (it is not a regular file)")
                self._fd = fd
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
