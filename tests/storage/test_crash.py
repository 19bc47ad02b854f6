"""Crash test: the real session, writing real files, killed with SIGKILL again and again.

After every kill the encounter must open and hold exactly the notes that were acknowledged
(the session returned, so the record was flushed), plus at most the one being written. The
writer compacts every few records, so most kills land in the middle of a snapshot packed in
compressed blocks: with blocks of a few records, too, its full blocks kept from one
compaction to the next and from one run to the next.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules import snapshot
from rules.events import NoteAdded
from tests.picks import a_system
from tests.storage.support import blocks_of
from tracker.store import storage

WRITER = """
import sys
from pathlib import Path

from rules.commands import AddNote
from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tracker.store import storage
from tracker.session import EncounterSession

from rules import snapshot

path, trial, system, block = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
snapshot.BLOCK = block
if path.exists():
    opened = storage.open_save(path)
else:
    opened = storage.Opened(History(new_encounter("Crash", system)), path)
session, error = EncounterSession.resume(opened, SeededDice(1))
assert error is None, error
session.COMPACT_EVERY = 7  # compactions happen under fire too
number = 0
while True:
    session.execute(AddNote(f"{trial}-{number}"))
    print(number, flush=True)  # acknowledged: the record is on disk
    number += 1
"""


def notes_in(path: Path) -> list[str]:
    history = storage.read(path)
    return [e.text for e in history.effective_events() if isinstance(e, NoteAdded)]


@pytest.mark.parametrize(("block", "trials"), [(snapshot.BLOCK, 12), (20, 6)])
def test_sigkill_at_random_moments_loses_at_most_the_record_in_flight(
    tmp_path: Path, block: int, trials: int
) -> None:
    path = tmp_path / "crash.fight"
    chance = random.Random(20261121)
    sent: list[str] = []  # every note acknowledged so far, in order
    for trial in range(trials):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(trial), a_system(), str(block)],
            stdout=subprocess.PIPE,
            text=True,
        )
        # Wait for the writer to get going (imports take a while), then kill it mid-stream.
        assert writer.stdout is not None
        first = writer.stdout.readline()
        assert first.strip() == "0", "the writer did not start"
        # A number of notes first (not a time: on a busy machine a writer may write few), so
        # the last trial of small blocks leaves a snapshot of many; then a random moment.
        wanted = chance.randint(0, 30)
        if block < snapshot.BLOCK and trial == trials - 1:
            wanted = max(wanted, 3 * block)
        read = 1 + sum(1 for _ in range(wanted) if writer.stdout.readline())
        time.sleep(chance.uniform(0.0, 0.15))
        writer.send_signal(signal.SIGKILL)
        # Read through the same buffered file: communicate() would skip what readline buffered.
        rest = writer.stdout.read()
        writer.wait(timeout=30)
        acknowledged = read + len(rest.split())
        sent += [f"{trial}-{n}" for n in range(acknowledged)]
        found = notes_in(path)
        in_flight = f"{trial}-{acknowledged}"
        assert found in (sent, [*sent, in_flight]), (
            f"trial {trial}: acknowledged {len(sent)} notes ending {sent[-3:]}, "
            f"the save holds {len(found)} ending {found[-3:]}"
        )
        sent = found
    if block < snapshot.BLOCK:  # the snapshot left by the last kill: many blocks, kept
        assert len(blocks_of(path)) > 2
