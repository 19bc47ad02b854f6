"""Files opened as files: every read and write of the tracker's own files goes through here.

A save, its journal, a report, a stat block kept, the settings or the command history is
never read or written through a symbolic link (``O_NOFOLLOW``), never a pipe, a device or a
folder, and never read past a bound. Writes are atomic (a new temporary file made with
``O_EXCL``, then a rename, which replaces a link rather than writing through it), so a link
planted in a shared folder of saves cannot make the tracker empty, grow or create another
file. Each refusal is an ``OSError`` whose ``strerror`` is the one line's problem.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

LINK = "is a symbolic link (the tracker never reads or writes its files through a link)"

_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
# Non-blocking: a pipe put in a file's place fails the open instead of hanging it.
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class Refused(OSError):
    """A path that is not a plain file: ``strerror`` says what it is instead."""

    def __init__(self, problem: str) -> None:
        super().__init__(errno.EINVAL, problem)


def kind_problem(mode: int, what: str = "file") -> str | None:
    """Why a file of this mode (from ``lstat``) is not a ``what`` to read or write; None if
    it can be."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return LINK
    if stat.S_ISDIR(mode):
        return f"is a folder, not a {what}"
    if stat.S_ISFIFO(mode):
        return f"is a pipe (FIFO), not a {what}"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return f"is a device, not a {what}"
    return "is not a regular file"


def _refused(exc: OSError) -> OSError:
    # O_NOFOLLOW on a link fails with ELOOP, whose own words ("too many levels") mislead.
    return Refused(LINK) if exc.errno == errno.ELOOP else exc


def check(path: Path, what: str = "file") -> os.stat_result:
    """The file's status, or ``Refused`` if it is a link, a folder, a pipe or a device."""
    info = os.lstat(path)
    problem = kind_problem(info.st_mode, what)
    if problem is not None:
        raise Refused(problem)
    return info


def _checked_fd(fd: int, what: str = "file") -> os.stat_result:
    info = os.fstat(fd)
    problem = kind_problem(info.st_mode, what)
    if problem is not None:
        os.close(fd)
        raise Refused(problem)
    return info


def _open_read(path: Path, what: str) -> tuple[int, os.stat_result]:
    check(path, what)  # a pipe or a device is never even opened
    try:
        fd = os.open(path, _READ)
    except OSError as exc:
        raise _refused(exc) from None
    return fd, _checked_fd(fd, what)  # it may have changed since it was looked at


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of a regular file (to tell what it is)."""
    fd, _ = _open_read(path, "file")
    with os.fdopen(fd, "rb") as file:
        return file.read(size)


def read_bytes(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (``Refused`` past it)."""
    fd, info = _open_read(path, what)
    with os.fdopen(fd, "rb") as file:
        if info.st_size > limit:
            raise Refused(f"is too big (at most {limit:,} bytes)")
        data = file.read(limit + 1)
    if len(data) > limit:  # it grew while it was read
        raise Refused(f"is too big (at most {limit:,} bytes)")
    return data


def open_append(path: Path) -> int:
    """A descriptor appending to ``path`` (made if missing): never through a link, and a
    dangling link never creates its target."""
    try:
        fd = os.open(path, _APPEND, 0o644)
    except OSError as exc:
        raise _refused(exc) from None
    _checked_fd(fd)
    return fd


def write_new(path: Path, data: bytes) -> None:
    """Write a file that must not exist yet (``FileExistsError`` if anything is there)."""
    fd = os.open(path, _NEW, 0o644)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``: a reader sees the old or the new file. A link, a folder
    or a device in ``path``'s place is refused, never written through."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        check(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)  # a link put there since is replaced, not followed
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable; some file systems refuse to open a folder for it."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
