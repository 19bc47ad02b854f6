"""A save may hold only so many of anything (``rules.bounds``: combatants, conditions on one,
records, the items of any list; a system's own counts by its sheet's type): a crafted save
holding more is refused in one line at once, in bounded memory, and is never written to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from msgspec import structs

from rules import snapshot
from rules.bounds import COMBATANTS, SAVED_CONDITIONS, SAVED_COUNT
from rules.encounter import CombatantAdded
from rules.events import NoteAdded
from rules.history import Applied, History
from tests.cli.support import Measured, measured, tracker
from tests.helpers import people
from tests.storage.support import body_of, rewrite
from tracker.store import storage

# What refusing a crafted save may cost beyond exporting a small honest one: the saves
# took minutes and gigabytes; a refusal reads the file (20 MB at most here) and stops.
EXTRA_CPU = 1.0  # seconds
EXTRA_MB = 150


def crowded(
    path: Path, combatants: int, conditions: int = 0, first: History | None = None, **sheet: Any
) -> bytes:
    """A save whose log adds ``combatants`` goblins, one a record, and whose state holds them
    all, each a copy of ``first``'s first combatant (else a blank one's) with ``conditions``
    conditions of one name and its sheet's fields changed to ``sheet``: what a save pack can
    carry with a good checksum. Its bytes."""
    storage.write(path, first or people(1))
    body = body_of(path)
    goblin = body["state"]["combatants"][0]
    goblin["conditions"] = [{"name": "Prone"}] * conditions
    goblin["sheet"].update(sheet)
    everyone = [{**goblin, "id": f"c{n}", "name": f"Goblin {n}"} for n in range(1, combatants + 1)]
    added = [
        {"type": "applied", "events": [{"type": "combatant-added", "combatant": c}]}
        for c in everyone
    ]
    body["records"] = [body["records"][0], *added]
    body.update(record_count=len(body["records"]), done=list(range(len(added) + 1)), undone=[])
    body["state"].update(combatants=everyone, next_number=combatants + 1)
    return rewrite(path, body)


def plain_export(folder: Path) -> Measured:
    """What exporting a small honest save costs: the start of Python and the tracker."""
    path = folder / "plain.fight"
    crowded(path, 3)
    done = measured("--saves", str(folder), "export", str(path))
    assert done.returncode == 0, done.stderr
    return done


def refused_at_once(done: Measured, plain: Measured, path: Path, why: str) -> None:
    """One line naming the save and why, costing little more than a plain export."""
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"tracker: {path}: ")
    assert why in done.stderr and "Traceback" not in done.stderr + done.stdout
    assert done.cpu - plain.cpu < EXTRA_CPU, (done.cpu, plain.cpu)
    assert done.peak_mb - plain.peak_mb < EXTRA_MB, (done.peak_mb, plain.peak_mb)


@pytest.mark.parametrize("count", [COMBATANTS + 1, 20_000])
@pytest.mark.parametrize("command", ["export", "open", "replay"])
def test_a_save_of_more_combatants_than_a_fight_may_hold_is_refused_at_once(
    tmp_path: Path, count: int, command: str
) -> None:
    path = tmp_path / "horde.fight"
    before = crowded(path, count)  # 20,000: the 20 MB save, 3.3 GB to export
    done = measured("--saves", str(tmp_path), command, str(path))
    refused_at_once(done, plain_export(tmp_path), path, f"length <= {COMBATANTS}")
    assert done.stderr.startswith(f"tracker: {path}: it holds more than a save may")
    assert path.read_bytes() == before


@pytest.mark.parametrize("count", [SAVED_CONDITIONS + 1, 20_000])
@pytest.mark.parametrize("command", ["export", "open", "replay"])
def test_a_save_of_more_conditions_on_a_combatant_than_it_may_carry_is_refused_at_once(
    tmp_path: Path, count: int, command: str
) -> None:
    path = tmp_path / "prone.fight"
    before = crowded(path, 5, conditions=count)  # 20,000 alike: not drawn after 600 s
    done = measured("--saves", str(tmp_path), command, str(path))
    refused_at_once(done, plain_export(tmp_path), path, f"length <= {SAVED_CONDITIONS}")
    assert path.read_bytes() == before


def test_the_most_a_save_may_hold_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "full.fight"
    crowded(path, COMBATANTS, conditions=SAVED_CONDITIONS)
    state = storage.read(path).state
    assert len(state.combatants) == COMBATANTS
    assert {len(c.conditions) for c in state.combatants} == {SAVED_CONDITIONS}


def with_journal(path: Path, *records: Applied[Any]) -> None:
    """``records`` in the journal of the save at ``path``, after its snapshot's, as a session
    appends them."""
    header = snapshot.read_header(path.read_bytes())
    start = header.record_count
    frames = b"".join(snapshot.encode_frame(start + n, r) for n, r in enumerate(records))
    storage.journal_path(path).write_bytes(snapshot.journal_header(header.save_id) + frames)


def test_a_journal_adding_a_combatant_past_the_most_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "full.fight"
    crowded(path, COMBATANTS)
    one = storage.read(path).state.combatants[0]
    newcomer = structs.replace(one, id=f"c{COMBATANTS + 1}", name="One too many")
    with_journal(path, Applied((CombatantAdded(newcomer),)))
    before = path.read_bytes(), storage.journal_path(path).read_bytes()
    for command in ("open", "export"):
        done = tracker("--saves", str(tmp_path), command, str(path))
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert f"at most {COMBATANTS:,} combatants" in done.stderr
    assert (path.read_bytes(), storage.journal_path(path).read_bytes()) == before


def test_a_journal_of_more_records_than_a_save_may_hold_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "long.fight"
    storage.write(path, people(1))
    note = Applied((NoteAdded("x"),))
    with_journal(path, *[note] * 6)
    monkeypatch.setattr(snapshot, "MAX_RECORDS", 5)  # 500,000 frames would be 15 MB to write
    with pytest.raises(storage.SaveError, match="its journal holds more records than a save"):
        storage.load(path)


def test_a_record_of_more_events_than_a_save_may_hold_is_refused_before_they_are_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "loud.fight"
    storage.write(path, people(1))
    body = body_of(path)
    body["records"][1]["events"] = [0] * (SAVED_COUNT + 1)  # not even events: never decoded
    rewrite(path, body)
    with pytest.raises(storage.SaveError, match=f"more than a save may .*length <= {SAVED_COUNT}"):
        storage.load(path)
