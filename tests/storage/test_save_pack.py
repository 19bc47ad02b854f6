"""A save pack (a folder of saves from someone else) cannot touch other files: a link in a
save's, journal's or report's place is refused in one line and never written through, a
journal is tied to its save, and every record of a save is checked before it is used."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules import snapshot
from rules.bounds import SAVED_NUMBER, TEXT
from rules.commands import AddNote
from rules.dice import SeededDice
from rules.events import NoteAdded
from tests.cli.support import tracker
from tests.storage.support import body_of, fresh, rewrite
from tracker.session import EncounterSession
from tracker.store import files, storage

KEY = b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHkey someone@example\n"


def played(path: Path, *notes: str, name: str = "Foo") -> EncounterSession:
    """A session on a new save at ``path``: its first change writes the snapshot, the rest
    go to its journal (left as a ``kill -9`` leaves them: not closed)."""
    session = EncounterSession(fresh(name), SeededDice(1), path)
    for note in notes:
        session.execute(AddNote(note))
    return session


def notes_in(path: Path) -> list[str]:
    return [e.text for e in storage.read(path).effective_events() if isinstance(e, NoteAdded)]


def precious(folder: Path) -> Path:
    """A file outside the saves that a hostile pack would like emptied or grown."""
    folder.mkdir(exist_ok=True)
    target = folder / "authorized_keys"
    target.write_bytes(KEY)
    return target


# --- links ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["open", "replay", "export"])
def test_a_journal_linked_to_another_file_is_refused_and_never_touched(
    tmp_path: Path, command: str
) -> None:
    saves = tmp_path / "saves"
    path = saves / "x.fight"
    played(path, "one").let_go()
    target = precious(tmp_path / "home")
    journal = storage.journal_path(path)
    journal.unlink()
    journal.symlink_to(target)
    done = tracker("--saves", str(saves), command, str(path))
    assert done.returncode == 2
    assert done.stderr == f"tracker: {journal}: {files.LINK}\n"
    assert target.read_bytes() == KEY


def test_a_dangling_journal_link_never_creates_its_target(tmp_path: Path) -> None:
    path = tmp_path / "x.fight"
    session = played(path, "one")
    session.let_go()
    journal = storage.journal_path(path)
    journal.unlink()
    target = tmp_path / "elsewhere" / "created"
    (tmp_path / "elsewhere").mkdir()
    journal.symlink_to(target)
    appending = storage.Journal(path)
    with pytest.raises(storage.SaveError, match="symbolic link"):
        appending.append(2, session.history.records[1])
    assert not target.exists()
    with pytest.raises(storage.SaveError, match="symbolic link"):
        storage.open_save(path)
    assert not target.exists()


def test_a_save_report_or_setting_in_place_of_a_link_is_refused(tmp_path: Path) -> None:
    target = precious(tmp_path / "home")
    history = fresh("Foo")
    for name in ("x.fight", "report.md"):
        link = tmp_path / name
        link.symlink_to(target)
        with pytest.raises(storage.SaveError, match="symbolic link"):
            storage.write(link, history)
        with pytest.raises(storage.SaveError, match="symbolic link"):
            storage.write_text(link, "a report")
        assert link.is_symlink() and target.read_bytes() == KEY
    save = tmp_path / "real.fight"
    storage.write(save, history)
    done = tracker("export", str(save), "--output", str(tmp_path / "report.md"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "symbolic link" in done.stderr
    assert target.read_bytes() == KEY


def test_a_new_save_never_takes_the_name_of_a_dangling_link(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    (tmp_path / "foo.fight").symlink_to(target)
    opened = storage.create(tmp_path, fresh("Foo"))
    assert opened.path == tmp_path / "foo-2.fight"
    assert not target.exists()


def test_a_dangling_link_for_a_new_save_is_moved_aside_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    storage.journal_path(tmp_path / "foo.fight").symlink_to(target)
    opened = storage.create(tmp_path, fresh("Foo"))
    assert opened.path == tmp_path / "foo.fight" and "kept as" in opened.note
    assert not target.exists()


def test_the_command_history_and_settings_are_not_written_through_links(tmp_path: Path) -> None:
    from tracker.line_commands import command_history
    from tracker.store import settings

    target = precious(tmp_path / "home")
    history_file = tmp_path / command_history.FILE_NAME
    history_file.symlink_to(target)
    assert command_history.remember([], "note hello", history_file) == ["note hello"]
    settings_file = tmp_path / "settings.json"
    settings_file.symlink_to(target)
    assert "symbolic link" in (settings.save(settings_file, settings.Settings("nord")) or "")
    assert target.read_bytes() == KEY


# --- a journal is tied to its save ------------------------------------------------------------


def test_a_journal_left_by_a_deleted_save_is_kept_aside_not_adopted(tmp_path: Path) -> None:
    first = played(tmp_path / "foo.fight", "a", "b", "c")  # then killed: the journal stays
    first.let_go()
    (tmp_path / "foo.fight").unlink()
    opened = storage.create(tmp_path, fresh("Foo"))
    assert opened.path == tmp_path / "foo.fight"
    assert "is not this save's journal" in opened.note
    kept = [p for p in tmp_path.iterdir() if ".journal.stray-" in p.name]
    assert len(kept) == 1 and b"a" in kept[0].read_bytes()
    session, _ = EncounterSession.resume(opened, SeededDice(1))
    for note in ("d", "e", "f"):
        session.execute(AddNote(note))
    session.let_go()  # killed again
    assert notes_in(tmp_path / "foo.fight") == ["d", "e", "f"]
    done = tracker("export", str(tmp_path / "foo.fight"))
    assert done.returncode == 0 and "d" in done.stdout and "\na\n" not in done.stdout


def test_another_saves_journal_is_never_merged(tmp_path: Path) -> None:
    mine, theirs = tmp_path / "mine.fight", tmp_path / "theirs.fight"
    played(mine, "mine").let_go()
    played(theirs, "x", "theirs 1", "theirs 2").let_go()
    os.replace(storage.journal_path(theirs), storage.journal_path(mine))
    stray = storage.journal_path(mine).read_bytes()
    loaded = storage.load(mine)
    assert loaded.stray and loaded.notice and "not this save's journal" in loaded.notice
    assert notes_in(mine) == ["mine"]  # in its snapshot; nothing of theirs
    assert storage.journal_path(mine).read_bytes() == stray  # a reader never moves it
    done = tracker("export", str(mine))
    assert done.returncode == 0 and "mine" in done.stdout and "theirs" not in done.stdout
    assert done.stderr == f"tracker: {loaded.notice}\n"
    opened = storage.open_save(mine)
    assert opened.repaired and "kept as" in opened.note
    assert not storage.journal_path(mine).exists()
    kept = [p for p in tmp_path.iterdir() if ".journal.stray-" in p.name]
    assert [p.read_bytes() for p in kept] == [stray]
    assert opened.lock is not None
    opened.lock.release()


def test_a_save_from_before_ids_still_takes_its_journal(tmp_path: Path) -> None:
    path = tmp_path / "old.fight"
    history = fresh("Old")
    path.write_bytes(snapshot.encode(history, b""))  # a format-3 save has no id
    history.commit([NoteAdded("kept")])
    storage.journal_path(path).write_bytes(snapshot.encode_frame(1, history.records[1]))
    assert notes_in(path) == ["kept"]
    session, _ = EncounterSession.resume(storage.open_save(path), SeededDice(1))
    session.execute(AddNote("more"))
    assert session.close() is None  # compacting gives it an id, and its journal too
    assert snapshot.read_header(path.read_bytes()).save_id != b""
    assert notes_in(path) == ["kept", "more"]


# --- every record is checked -------------------------------------------------------------------


def crafted(path: Path) -> tuple[bytes, bytes]:
    """A save with four records replaced by junk and its checksum made good again; its
    bytes and its journal's."""
    played(path, "one", "two", "three", "four", "five").close()
    body = body_of(path)
    body["records"][1:5] = [12345, "x", None, {"type": "nope"}]
    rewrite(path, body)
    return path.read_bytes(), storage.journal_path(path).read_bytes()


@pytest.mark.parametrize("command", ["open", "replay", "export"])
def test_a_crafted_save_with_a_good_checksum_gets_one_line(tmp_path: Path, command: str) -> None:
    path = tmp_path / "crafted.fight"
    before = crafted(path)
    done = tracker("--saves", str(tmp_path), command, str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"tracker: {path}: ")
    assert "Traceback" not in done.stderr
    assert (path.read_bytes(), storage.journal_path(path).read_bytes()) == before


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda doc: doc.update(done=[0, 99]), "names records its log does not hold"),
        (lambda doc: doc.update(undone=[0]), "in effect twice"),
        (lambda doc: doc.update(record_count=2), "record count"),
        (lambda doc: doc.update(record_count=10**9), "more than a save may"),
        (lambda doc: doc.update(save_id=b"short"), "its id"),
    ],
)
def test_a_crafted_log_that_does_not_fit_is_refused(
    tmp_path: Path, change: object, why: str
) -> None:
    path = tmp_path / "crafted.fight"
    played(path, "one", "two").close()
    body = body_of(path)
    change(body)  # type: ignore[operator]
    rewrite(path, body)
    with pytest.raises(storage.SaveError, match=why):
        storage.load(path)


def test_a_name_too_long_to_draw_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "long.fight"
    played(path, "one").close()
    body = body_of(path)
    body["state"]["name"] = "N" * 10_000
    rewrite(path, body)
    done = tracker("--saves", str(tmp_path), "open", str(path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "length <= 200" in done.stderr


def with_record(path: Path, event: dict[str, object]) -> None:
    """A save whose second record holds ``event`` (as MessagePack), its checksum made good."""
    played(path, "one", "two").close()
    body = body_of(path)
    body["records"][1]["events"] = [event]
    rewrite(path, body)


@pytest.mark.parametrize(
    ("event", "why"),
    [
        ({"type": "note-added", "text": "x" * (TEXT + 1)}, f"at most {TEXT:,}"),
        ({"type": "turn-advanced", "round": 10**15, "actor_id": None}, "a number is"),
    ],
)
@pytest.mark.parametrize("command", ["open", "export"])
def test_a_text_or_number_no_input_could_hold_is_refused(
    tmp_path: Path, event: dict[str, object], why: str, command: str
) -> None:
    path = tmp_path / "big.fight"
    with_record(path, event)
    done = tracker("--saves", str(tmp_path), command, str(path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and why in done.stderr
    assert done.stderr.startswith(f"tracker: {path}: it holds what no input could")


def test_big_but_honest_numbers_and_texts_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "honest.fight"
    with_record(path, {"type": "note-added", "text": "é" * TEXT})  # 8,000 bytes
    assert notes_in(path) == ["é" * TEXT, "two"]
    with_record(path, {"type": "turn-advanced", "round": SAVED_NUMBER, "actor_id": None})
    rounds = [getattr(e, "round", 0) for e in storage.read(path).effective_events()]
    assert SAVED_NUMBER in rounds


@pytest.mark.parametrize("command", ["replay", "export", "open"])
def test_an_event_for_a_combatant_never_added_is_refused_in_one_line(
    tmp_path: Path, command: str
) -> None:
    path = tmp_path / "ghost.fight"
    ghost = {"type": "track-changed", "combatant_id": "c999", "track": "t", "before": 0, "after": 5}
    with_record(path, ghost)
    done = tracker("--saves", str(tmp_path), command, str(path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"tracker: {path}: its event log cannot be replayed")
    assert "Traceback" not in done.stderr + done.stdout
