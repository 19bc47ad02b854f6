"""Random damage to a real save (snapshot and journal): a clean error or a correct load, never
an exception escaping, and never a write to the damaged files."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.commands import AddNote, NextTurn
from rules.dice import SeededDice
from tests.contract.support import demo
from tests.picks import a_system, has_demo
from tracker.session import EncounterSession
from tracker.store import storage


def real_save() -> tuple[bytes, bytes, list]:
    """A real save's snapshot and journal, and its records: written in a folder removed
    after (one made at import and left stayed in /tmp, one a test worker a run)."""
    with tempfile.TemporaryDirectory(prefix="corruption-") as folder:
        path = Path(folder) / "real.fight"
        session = EncounterSession(demo(a_system(has_demo)), SeededDice(3), path)
        for number in range(4):
            session.execute(AddNote(f"n{number}"))
            session.execute(NextTurn())
        saved = path.read_bytes(), storage.journal_path(path).read_bytes()
        session.let_go()
        return *saved, list(session.history.records)


SNAPSHOT, JOURNAL, RECORDS = real_save()

damage = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.integers(0, 255)),
)


def apply_damage(data: bytes, how: tuple[str, int, int]) -> bytes:
    kind, where, value = how
    if not data:
        return data
    at = where % len(data)
    if kind == "flip":
        return data[:at] + bytes([data[at] ^ value]) + data[at + 1 :]
    if kind == "cut":
        return data[:at]
    return data[:at] + bytes([value]) + data[at:]


@settings(max_examples=150, deadline=None)
@given(target=st.sampled_from(["snapshot", "journal"]), how=damage)
def test_random_damage_is_a_clean_error_or_a_correct_load(target: str, how: tuple) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "real.fight"
        snapshot_bytes = apply_damage(SNAPSHOT, how) if target == "snapshot" else SNAPSHOT
        journal_bytes = apply_damage(JOURNAL, how) if target == "journal" else JOURNAL
        path.write_bytes(snapshot_bytes)
        storage.journal_path(path).write_bytes(journal_bytes)
        try:
            loaded = storage.load(path)
        except storage.SaveError as exc:
            assert "\n" not in str(exc) and str(exc).startswith(str(path))
        else:
            # Whatever loads is a prefix of the real fight: a damaged journal end is dropped
            # (with a notice, unless the cut fell exactly between two records).
            records = loaded.history.records
            assert records == RECORDS[: len(records)]
            if loaded.notice is not None:
                assert "\n" not in loaded.notice and records != RECORDS
        assert path.read_bytes() == snapshot_bytes
        assert storage.journal_path(path).read_bytes() == journal_bytes
