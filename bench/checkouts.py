"""Benchmarks timed beside an older checkout: each run a fresh process per checkout, the
checkouts alternated so that both see the same machine load."""

from __future__ import annotations

import compileall
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def alternated(
    runs: int, roots: dict[str, Path], code: Callable[[str, Path], str]
) -> dict[str, list[dict[str, Any]]]:
    """Per checkout (by name), the JSON each of ``runs`` fresh processes printed last, each
    running ``code(name, root)`` (its checkout's own code first on its path)."""
    for root in roots.values():
        for package in ("rules", "tracker"):
            compileall.compile_dir(root / package, quiet=1)
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in roots}
    for _ in range(runs):
        for name, root in roots.items():
            done = subprocess.run(
                [sys.executable, "-c", code(name, root)],
                capture_output=True,
                text=True,
                check=True,
            )
            found[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
    return found
