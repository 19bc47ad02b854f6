"""Shared by every test: the user's own folders are never touched."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import tempfile

import pytest

# platformdirs reads these (on Linux): saves, the library, settings and the host key of a
# `tracker` started without --saves go here, in this process and the ones it starts.
_HOME = tempfile.mkdtemp(prefix="tracker-user-")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)  # one a process, else left in /tmp


# Each app a test runs leaves a few tens of thousands of objects in cycles (Textual's widgets,
# timers and messages point at each other) and the worker holds every test module: with the
# default thresholds a worker made a full collection every few tests, 0.3 s of CPU each and
# some 8% of the suite's. Collected less often, the same garbage goes in fewer, larger sweeps.
gc.set_threshold(50_000, 20, 100)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: a test of half a minute or more on a busy machine; the suite starts it first",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first: with xdist, one handed out last keeps a worker (and the run)
    going long after the others are done; first, they overlap with the many short ones."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
