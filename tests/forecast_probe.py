"""Run in a forecast's worker process by a test: it imports only what a worker imports, and
says what the worker has loaded once it has played a few fights."""

from __future__ import annotations

import sys
from pathlib import Path

from rules.forecast import job_bytes, simulate
from rules.snapshot import open_lazily
from tracker.store.defaults import first_demo

DEMO = Path(__file__).resolve().parents[1] / "saves" / f"{first_demo()}.fight"


def loaded_in_worker() -> list[str]:
    simulate(job_bytes(open_lazily(DEMO.read_bytes()).state, 1, 5), 0, 2)
    return sorted(
        m
        for m in sys.modules
        if m.split(".")[0] in ("textual", "rich") or m in ("tracker.store.storage", "tracker.app")
    )
