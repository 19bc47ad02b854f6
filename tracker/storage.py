"""Save files on disk: atomic writes, and one clear line for any file that cannot be read."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rules import snapshot
from rules.history import History

SUFFIX = ".fight"
DEMO_PREFIX = "demo-"
DEFAULT_SAVES = Path("saves")


class SaveError(Exception):
    """A save that cannot be read or written; ``str()`` is the one line to show."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def read(path: Path) -> History:
    """Open a save. Never writes to ``path``."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, "no such file") from None
    except IsADirectoryError:
        raise SaveError(path, "is a folder, not a save file") from None
    except PermissionError:
        raise SaveError(path, "permission denied") from None
    except OSError as exc:
        raise SaveError(path, exc.strerror or str(exc)) from None
    try:
        return snapshot.decode(data)
    except snapshot.SnapshotError as exc:
        raise SaveError(path, str(exc)) from None


def write(path: Path, history: History) -> None:
    """Replace ``path`` with the encounter, atomically: a reader sees the old or the new file."""
    data = snapshot.encode(history)
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


def is_demo(path: Path) -> bool:
    return path.name.startswith(DEMO_PREFIX)


def saves_by_recency(folder: Path) -> list[Path]:
    """The player's saves (demos excluded), newest first."""
    if not folder.is_dir():
        return []
    saves = [p for p in folder.glob(f"*{SUFFIX}") if p.is_file() and not is_demo(p)]
    return sorted(saves, key=lambda p: p.stat().st_mtime, reverse=True)


def demos(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{DEMO_PREFIX}*{SUFFIX}")) if folder.is_dir() else []


@dataclass
class Opened:
    """An encounter ready to play: its history and the file it is saved to."""

    history: History
    path: Path
    note: str = ""


def play_copy_of_demo(demo: Path, folder: Path) -> Opened:
    """Demos stay pristine: play a copy of one, in the saves folder."""
    history = read(demo)
    target = free_path(folder, history.state.name)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(demo, target)
    return Opened(history, target, f"Playing a copy of the demo: {target}")
