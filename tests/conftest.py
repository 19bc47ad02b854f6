"""Shared by every test: the user's own folders are never touched."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tracker import library

# platformdirs reads these (on Linux): saves, the library, settings and the host key of a
# `tracker` started without --saves go here, in this process and the ones it starts.
_HOME = tempfile.mkdtemp(prefix="tracker-user-")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")

# A bundled stat block read once a worker: library.load reads all of them (350, most of a
# second of CPU, the SRD set's dice worked out) on every call, and the picks' has_bundled_foes
# calls it for each system as test modules are collected, in every worker. Keyed by the file's
# size and time, so a file changed on disk is read anew; the user's files are always read.
_read = library.read
_bundled_read: dict[tuple[Path, int, int], library.Entry] = {}


def _read_once(path: Path, bundled: bool = False) -> library.Entry:
    if not bundled:
        return _read(path, bundled)
    try:
        stat = path.stat()
    except OSError:
        return _read(path, bundled)  # says why, as ever
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _bundled_read:
        _bundled_read[key] = _read(path, bundled)
    return _bundled_read[key]


library.read = _read_once


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: a test of half a minute or more on a busy machine; the suite starts it first",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first: with xdist, one handed out last keeps a worker (and the run)
    going long after the others are done; first, they overlap with the many short ones."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
