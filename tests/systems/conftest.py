"""A system's own tests live in ``tests/systems/<name>/``: a folder whose system is not
registered (its ``rules/systems/<name>/`` deleted) is not collected, so they go with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.registry import names

HERE = Path(__file__).resolve().parent


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """True for ``tests/systems/<name>/`` when no system ``<name>`` is registered; else
    None, which leaves the choice to pytest."""
    path = collection_path.resolve()
    if path.parent == HERE and path.is_dir() and not path.name.startswith("_"):
        return path.name not in names() or None
    return None
