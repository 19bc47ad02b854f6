"""Save files on disk: atomic writes, one writer per save, and one clear line for any file
that cannot be read."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gc
import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rules import snapshot
from rules.history import History, Record
from tracker.store import defaults, files

if TYPE_CHECKING:
    from rules.replay import Timeline

SUFFIX = ".fight"
DEMO_PREFIX = "demo-"


class SaveError(Exception):
    """A save that cannot be read or written; ``str()`` is the one line to show."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class SaveLocked(SaveError):
    """Another process is writing this save."""


# A 100,000-record fight was 24 MB before its records were compressed (format 5: under 1 MB,
# docs/contributing/performance.md): anything past this is not a save, and is refused from its size
# alone, before a byte of it is read. With snapshot.MAX_RECORDS and snapshot.MAX_UNPACKED (what its
# records may unpack to: this much) it bounds the memory an opened save takes.
MAX_BYTES = 64 * 1024 * 1024
_MAX_MB = MAX_BYTES // 2**20


_JOURNAL = ".journal"


def journal_path(path: Path) -> Path:
    """The journal beside a snapshot: records committed since the snapshot was written."""
    return path.with_name(path.name + _JOURNAL)


def lock_path(path: Path) -> Path:
    """The hidden file whose lock says a process is writing the save."""
    return path.with_name(f".{path.name}.lock")


# --- the files a save owns: never another file's to write over -----------------------------

# mkstemp's names in _write_atomically: the prefix, eight of these characters, the suffix.
_TEMP_NAME = "[a-z0-9_]{8}\\.tmp"
# The names of a save's files beside it, from its own name: its journal (journal_path), its
# lock file (lock_path), a temporary file of a write in progress, a copy kept aside
# (``_aside``: damaged, or a stray journal moved out of the way); the last two of its
# journal too.
_TEMP = re.compile(f"\\.(.+)\\.{_TEMP_NAME}")
_LOCK = re.compile(r"\.(.+)\.lock")
_ASIDE = re.compile(r"(.+)\.(?:damaged|stray)-\d{8}-\d{6}(?:-\d+)?")
# Past this many entries a folder is not searched for another name of a hard-linked file.
_MOST_SEARCHED = 100_000


_SAID = {
    "journal": "the journal of {}",
    "lock": "the lock file of {}",
    "temporary": "a temporary file of {}",
    "aside": "a copy of {} kept aside",
}


@dataclass(frozen=True)
class Owned:
    """One of a save's own files; ``str()`` says which ("is the journal of x.fight"), to
    follow the path in one line."""

    kind: str  # "save", or one of _SAID's
    of: str = ""  # the file it belongs to, when its name says it

    def __str__(self) -> str:
        if self.kind == "save":
            return "is a save"
        if not self.of:
            return f"is a save's {self.kind}"
        return "is " + _SAID[self.kind].format(self.of)


def owned_by_a_save(path: Path, saves: tuple[Path, ...] = ()) -> Owned | None:
    """Which of a save's own files ``path`` is (its snapshot, journal, lock file, a temporary
    file or a copy kept aside), any save's, ``saves`` among them; None if no save's. A report
    or a save written elsewhere never lands on one (an open fight's journal or lock among them).

    Judged by what the file is, not only by the name given: the name it is given and the
    one its links resolve to (so a link to a journal, or a path through a linked folder, is
    the journal), what it holds where it exists (a save's or a journal's first bytes), whether
    it is the very file (device and inode) of one of ``saves``' own, and, for a file with
    other names (a hard link), whether one of them in its folder or a known save's is one of
    these. A file not there yet is judged by its name: ``x.fight.journal``
    is a journal even before ``x.fight`` is written, and ``.NAME.lock`` is a lock file when
    ``NAME`` is a save.
    """
    known = tuple(name for save in saves for name in _names(save))
    given, real = _names(path)
    for name in (given, real):
        found = _owned_by_name(name.parent, name.name, known)
        if found is not None:
            return found
    try:
        info = os.stat(real)
    except (OSError, ValueError):  # nothing there (or a name no file can have)
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    with contextlib.suppress(OSError):
        head = files.read_head(real, len(snapshot.MAGIC))
        if head == snapshot.MAGIC:
            return Owned("save")
        if head == snapshot.JOURNAL_MAGIC:
            return Owned("journal")
    for save in known:  # the very file, whatever it is called (a case-blind file system)
        for own in (save, journal_path(save), lock_path(save)):
            with contextlib.suppress(OSError, ValueError):
                if os.path.samestat(os.stat(own), info):
                    return _owned_by_name(own.parent, own.name, known)
    if info.st_nlink < 2:  # no other name
        return None
    folders = dict.fromkeys(f.resolve() for f in (real.parent, *(s.parent for s in known)))
    named = (_other_name(folder, info, known) for folder in folders)
    return next((owned for owned in named if owned is not None), None)


def _names(path: Path) -> tuple[Path, Path]:
    """``path`` made absolute as given, and with its links resolved."""
    given = Path(os.path.abspath(path))
    try:
        return given, given.resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of links; a NUL in the name
        return given, given


def _owned_by_name(folder: Path | None, name: str, saves: tuple[Path, ...]) -> Owned | None:
    """Which of a save's files ``name`` names in ``folder``, by its name and whether what it
    derives from is a save (its name, ``saves``, or, given ``folder``, the file's bytes)."""
    if name.endswith(SUFFIX) or (folder is not None and folder / name in saves):
        return Owned("save")
    for pattern, kind in ((_TEMP, "temporary"), (_LOCK, "lock"), (_ASIDE, "aside")):
        matched = pattern.fullmatch(name)
        # A temporary file or a copy kept aside may be its journal's ("x.fight.journal.").
        of = matched.group(1) if matched else ""
        if of and _is_save_name(folder, of if kind == "lock" else of.removesuffix(_JOURNAL), saves):
            return Owned(kind, of)
    of = name.removesuffix(_JOURNAL)
    if of != name and _is_save_name(folder, of, saves):
        return Owned("journal", of)
    return None


def owned_by_name(name: str) -> Owned | None:
    """Which of a save's files a bare file name may be, before any folder is looked at (a
    report's name as it is typed): any file may be a save, so ``NAME.journal`` is a journal."""
    return _owned_by_name(None, name, ())


def _is_save_name(folder: Path | None, name: str, saves: tuple[Path, ...]) -> bool:
    if not name or name.endswith(SUFFIX) or folder is None:
        return bool(name)
    return folder / name in saves or is_save(folder / name)


def _other_name(folder: Path, info: os.stat_result, saves: tuple[Path, ...]) -> Owned | None:
    """A save's file in ``folder`` that is the very file ``info`` describes (a hard link)."""
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= _MOST_SEARCHED:
                    return None
                owned = _owned_by_name(folder, entry.name, saves)
                if owned is None:
                    continue
                with contextlib.suppress(OSError):
                    if os.path.samestat(entry.stat(follow_symlinks=False), info):
                        return owned
    except OSError:
        return None
    return None


def _os_problem(path: Path, exc: OSError) -> SaveError:
    if isinstance(exc, FileNotFoundError):
        return SaveError(path, "no such file")
    if isinstance(exc, PermissionError):
        return SaveError(path, "permission denied")
    return SaveError(path, exc.strerror or str(exc))


def _check_save(path: Path) -> None:
    """Refuse at once what cannot be a save: missing, a link, a folder, a pipe, a device, too
    big."""
    try:
        info = files.check(path, "save file")
    except OSError as exc:
        raise _os_problem(path, exc) from None
    if info.st_size > MAX_BYTES:
        raise SaveError(
            path, f"is {info.st_size // 2**20} MB, too big for a save (at most {_MAX_MB} MB)"
        )


def _read_bytes(path: Path) -> bytes:
    _check_save(path)
    try:
        return files.read_bytes(path, MAX_BYTES, "save file")
    except OSError as exc:
        raise _os_problem(path, exc) from None


def new_save_id() -> bytes:
    """A new save's id, which its journal repeats: a journal left by another save never
    matches it."""
    return os.urandom(snapshot.ID_BYTES)


@dataclass
class Loaded:
    """A save as read: its history, and a notice when a torn journal end was dropped or its
    journal was not its own."""

    history: History
    notice: str | None = None
    problem: str | None = None  # the damage itself, as the notice names it
    save_id: bytes = b""
    stray: bool = False  # the journal beside it belongs to another save, and was not used


def load(path: Path, read_later: bool = False) -> Loaded:
    """Open a save: the snapshot, then its journal. Never writes to either file.
    ``read_later``: see ``snapshot.open_lazily`` (its older records read by ``refolded``)."""
    data = _read_bytes(path)
    journal = journal_path(path)
    try:
        header = snapshot.read_header(data)
        owner, rest = (None, b"") if not os.path.lexists(journal) else _journal_of(journal)
        stray = owner is not None and owner != header.save_id
        records: list[Record] = []
        problem = None
        if owner is not None and not stray:
            frames = snapshot.decode_frames(rest, header.system)
            records, problem = snapshot.continue_log(snapshot.records_in(data), frames)
        with _collector_paused():
            history = snapshot.open_lazily(data, records, read_later)
    except snapshot.SnapshotError as exc:
        raise SaveError(path, str(exc)) from None
    if stray:
        return Loaded(history, f"{journal}: {STRAY}", None, header.save_id, stray=True)
    notice = f"{path}: {problem}; the records before it were kept" if problem else None
    return Loaded(history, notice, problem, header.save_id)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection while a save is decoded: its records are kept as decoded, a
    long fight's many objects, none in a cycle, and the collector walking them again and
    again as they came made the open of 100,000 records take 1.1-1.9 s, not 0.42 s."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


STRAY = "is not this save's journal (it was left by another save), so it was not used"


def _journal_of(journal: Path) -> tuple[bytes | None, bytes]:
    return snapshot.journal_owner(_read_bytes(journal))


def read(path: Path) -> History:
    """Open a save (see ``load``), ignoring any notice."""
    return load(path).history


def write(path: Path, history: History, save_id: bytes | None = None) -> None:
    """Replace ``path`` with the encounter, atomically: a reader sees the old or the new file.
    Without ``save_id`` it is a new save, with an id of its own."""
    _write_atomically(path, snapshot.encode(history, save_id or new_save_id()))


def _write_atomically(path: Path, data: bytes) -> None:
    try:
        files.write_atomically(path, data)
    except OSError as exc:
        raise SaveError(path, f"could not save ({exc.strerror or exc})") from None


def write_text(path: Path, text: str) -> None:
    """Write a report atomically, like a save."""
    _write_atomically(path, text.encode())


def is_save(path: Path) -> bool:
    """Whether a file starts like one of our saves (so a report never overwrites one)."""
    try:
        return files.read_head(path, len(snapshot.MAGIC)) == snapshot.MAGIC
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return False


def slug(name: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    return text[:40] or "encounter"


def free_path(folder: Path, name: str) -> Path:
    """A new file name in ``folder`` for an encounter called ``name``; never an existing file."""
    base = slug(name)
    candidate = folder / f"{base}{SUFFIX}"
    number = 2
    while os.path.lexists(candidate):  # a dangling link is taken too: never written through
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


def located(path: Path, folder: Path) -> Path:
    """The save a command line names: the path as given when there is something there (or it
    names a folder); else the saves folder's save of that name, with or without ``.fight``
    (``tracker forecast my-fight``), when it has one; else the path as given (refused then)."""
    if os.path.lexists(path) or path.parent != Path():
        return path
    for name in (path.name, path.name + SUFFIX):
        if (folder / name).is_file():
            return folder / name
    return path


def is_demo(path: Path) -> bool:
    return path.name.startswith(DEMO_PREFIX)


def saves_by_recency(folder: Path) -> list[Path]:
    """The player's saves (demos excluded), newest first."""
    if not folder.is_dir():
        return []
    saves = [p for p in folder.glob(f"*{SUFFIX}") if p.is_file() and not is_demo(p)]
    return sorted(saves, key=lambda p: p.stat().st_mtime, reverse=True)


def demos(folder: Path) -> list[Path]:
    """The bundled demos, the one to start on first (``defaults.first_demo``), then by name."""
    found = sorted(folder.glob(f"{DEMO_PREFIX}*{SUFFIX}")) if folder.is_dir() else []
    first = defaults.first_demo() + SUFFIX if found else ""
    return sorted(found, key=lambda path: path.name != first)


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
    save_id: bytes | None = None  # None: as the snapshot on disk says
    checked: bool = True  # False: its log is still to be folded (``open_save``'s check_later)


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


def _aside(original: Path, why: str) -> Path:
    """A free name beside ``original`` for a copy of it kept aside (``.damaged-STAMP``)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    copy = original.with_name(f"{original.name}.{why}-{stamp}")
    number = 2
    while os.path.lexists(copy):
        copy = original.with_name(f"{original.name}.{why}-{stamp}-{number}")
        number += 1
    return copy


def _keep_damaged(path: Path) -> list[Path]:
    """Copies of a damaged save and journal beside them, before anything rewrites them."""
    kept = []
    for original in (path, journal_path(path)):
        copy = _aside(original, "damaged")
        try:
            files.write_new(copy, _read_bytes(original))
        except (OSError, SaveError) as exc:
            why = exc.problem if isinstance(exc, SaveError) else exc.strerror or exc
            raise SaveError(
                path, f"is damaged, and a copy of it could not be kept ({why})"
            ) from None
        kept.append(copy)
    return kept


def _set_aside(path: Path) -> str:
    """Move a journal that is not this save's out of its way (renamed, never merged or
    dropped); the notice to give."""
    journal = journal_path(path)
    kept = _aside(journal, "stray")
    try:
        os.rename(journal, kept)
    except OSError as exc:
        raise SaveError(
            path,
            f"has a journal that is not its own, which could not be moved aside "
            f"({exc.strerror or exc})",
        ) from None
    return f"{journal}: {STRAY}; it was kept as {kept.name}"


def open_save(path: Path, check_later: bool = False) -> Opened:
    """Open a save to play: locked first, so no other writer reads it half-written or writes
    it after us; a damaged one is copied aside before the session rewrites it, and a journal
    left by another save is moved aside.

    ``check_later``: a sound save that keeps a state near its end (``History.near_end``)
    opens without its older records read or its whole log folded, which a long fight's
    first frame would wait for; the session reads and folds them before it writes anything
    (``EncounterSession.check``)."""
    _check_save(path)  # no lock file is made beside a folder, a pipe or a missing file
    lock = SaveLock.take(path)
    try:
        loaded = load(path, read_later=check_later)
        sound = not (loaded.stray or loaded.notice)  # else rewritten as it opens: checked first
        checked = not (check_later and sound and loaded.history.near_known)
        refolded(path, loaded.history, whole=checked)
        _remove_stale_temp_files(path)
        note = ""
        if loaded.stray:
            note = _set_aside(path)
        elif loaded.notice:
            kept = _keep_damaged(path)
            note = f"{loaded.notice}; the damaged files were copied to " + " and ".join(
                p.name for p in kept
            )
    except BaseException:
        lock.release()
        raise
    return Opened(
        loaded.history,
        path,
        note,
        repaired=bool(note),
        lock=lock,
        save_id=loaded.save_id,
        checked=checked,
    )


def create(folder: Path, history: History, note: str = "") -> Opened:
    """A new save in ``folder`` for ``history``, locked and written (its first snapshot); a
    journal left beside the name by a deleted save is moved aside, never continued."""
    while True:
        path = free_path(folder, history.state.name)
        lock = SaveLock.take(path)
        if not os.path.lexists(path):  # not taken by another process since free_path looked
            break
        lock.release()
    save_id = new_save_id()
    try:
        told = note.format(path=path)
        if os.path.lexists(journal_path(path)):
            told = "; ".join(line for line in (told, _set_aside(path)) if line)
        write(path, history, save_id)
    except BaseException:
        lock.release()
        raise
    return Opened(history, path, told, lock=lock, save_id=save_id)


def play_copy_of_demo(demo: Path, folder: Path) -> Opened:
    """Demos stay pristine: play a copy of one, in the saves folder."""
    return create(folder, read(demo), "Playing a copy of the demo: {path}")


class Journal:
    """Appends each record to the save's journal, flushed to disk before it returns.

    Appending costs the same however long the fight is; ``compact`` folds the journal into a
    new snapshot (written atomically) and starts a new journal. A journal opens with its
    save's id (``snapshot.journal_header``), so one left by another save is never taken for
    this one's. ``save_id`` None: read from the snapshot when first needed.
    """

    def __init__(self, path: Path, save_id: bytes | None = None) -> None:
        self.path = path
        self.journal = journal_path(path)
        self.save_id = save_id
        self._fd: int | None = None

    def _owner(self) -> bytes:
        if self.save_id is None:
            try:
                self.save_id = snapshot.read_header(_read_bytes(self.path)).save_id
            except SaveError:
                self.save_id = b""  # no snapshot yet: the first compaction gives it an id
            except snapshot.SnapshotError as exc:
                raise SaveError(self.path, str(exc)) from None
        return self.save_id

    def append(self, number: int, record: Record) -> None:
        frame = snapshot.encode_frame(number, record)
        try:
            if self._fd is None:
                self.journal.parent.mkdir(parents=True, exist_ok=True)
                owner = self._owner()  # before the open: a refusal here leaves no descriptor
                fd = files.open_append(self.journal)
                if os.fstat(fd).st_size == 0:
                    frame = snapshot.journal_header(owner) + frame
                self._fd = fd
            os.write(self._fd, frame)
            os.fsync(self._fd)
        except OSError as exc:
            raise SaveError(self.journal, f"could not save ({exc.strerror or exc})") from None

    def compact(self, history: History) -> None:
        # The snapshot lands first; a crash before the new journal replaces the old one
        # leaves records the snapshot already holds, which opening skips by their numbers.
        save_id = self._owner() or new_save_id()  # a save from before ids gets one now
        write(self.path, history, save_id)
        self.save_id = save_id
        self.close()
        try:
            files.write_atomically(self.journal, snapshot.journal_header(save_id))
        except OSError as exc:
            raise SaveError(self.journal, f"could not clear ({exc.strerror or exc})") from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def refolded(path: Path, history: History, whole: bool = True) -> History:
    """``history``, read from ``path``, once its log is found to fold (``History.refold``):
    before it is played, so a crafted log is refused as it opens, in one line, and not when
    its roll log or an undo first folds it. Not ``whole``: only its tail, after the state it
    keeps near its end (``History.fold_tail``), the rest to be checked later."""
    with _folding(path):
        if whole:
            history.refold()
        else:
            history.fold_tail()
    return history


def replayable(path: Path, history: History) -> Timeline:
    """``history``, read from ``path``, as a timeline to replay: the timeline's own fold is
    the check ``refolded`` makes, so a replay folds each event once (it folded each twice,
    the check's fold and then the timeline's)."""
    from rules.replay import Timeline  # only a replay needs it

    with _folding(path):
        return Timeline(history)


@contextlib.contextmanager
def _folding(path: Path) -> Iterator[None]:
    """Any rule error folding the log of ``path`` raised as ``unreplayable``, and a record
    read as it folds found not to be one (``snapshot.open_lazily``'s read_later) as a
    damaged save: the file, not the app, is at fault."""
    try:
        yield
    except snapshot.SnapshotError as exc:
        raise SaveError(path, str(exc)) from None
    except Exception as exc:
        raise unreplayable(path, exc) from None


def unreplayable(path: Path, exc: Exception) -> SaveError:
    """A save whose checked records still do not fold: a crafted one (an event for a
    combatant its log never added, say), refused like a damaged one."""
    return SaveError(path, f"its event log cannot be replayed ({exc})")
