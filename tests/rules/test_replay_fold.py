"""The replay's timeline folds a fight once and decodes each record once (issue 45, item 4).

It once folded the pairs ``History.in_effect()`` had folded already, applying every event
twice, and a save's records were decoded once to check them and again to read them. The
timeline is checked against that double fold, kept here as the reference, on random
histories with undo and redo, as built and as read back from a save.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.big import big_fight
from rules import history as history_module
from rules import replay, snapshot
from rules.commands import AddCondition, AddNote, NextTurn, RemoveCondition
from rules.conditions import Duration
from rules.encounter import Encounter
from rules.engine import apply
from rules.errors import Rejected
from rules.events import EncounterCreated, TurnAdvanced
from rules.history import History
from rules.replay import Timeline
from tests.helpers import people, run
from tests.picks import a_system, has_demo, has_turn_order
from tracker.store import storage


def reference(history: History, every: int) -> tuple[list[Encounter], list[int], list[int]]:
    """The states after each event, the turns and the rounds, as the timeline once found them:
    ``History.in_effect()``'s folded pairs, each event applied again."""
    states: list[Encounter] = []
    turns: list[int] = []
    rounds: list[int] = []
    for index, (event, before) in enumerate(history.in_effect()):
        if isinstance(event, TurnAdvanced):
            turns.append(index)
            if event.round != before.round:
                rounds.append(index)
        states.append(before if isinstance(event, EncounterCreated) else apply(before, event))
    return states, turns, rounds


STEPS = st.lists(st.sampled_from(["turn", "note", "prone", "stand", "undo", "redo"]), max_size=40)


def played(steps: list[str]) -> History:
    """Three combatants, then ``steps``: commands, and undo and redo taking them back."""
    history = people(3)
    for number, step in enumerate(steps):
        who = history.state.current_id or "c1"
        try:
            if step == "undo":
                history.undo()
            elif step == "redo":
                history.redo()
            elif step == "turn":
                run(history, NextTurn())
            elif step == "note":
                run(history, AddNote(f"note {number}"))
            elif step == "prone":
                run(history, AddCondition(who, "Prone", Duration("until-removed")))
            else:
                run(history, RemoveCondition(who, "Prone"))
        except Rejected:
            pass  # nothing to undo or redo, no one prone: the step is skipped
    return history


def same_as_the_double_fold(history: History, every: int) -> None:
    timeline = Timeline(history, every=every)
    states, turns, rounds = reference(history, every)
    assert timeline._checkpoints == states[::every]
    assert (timeline._turns, timeline._rounds) == (turns, rounds)
    assert [timeline.state_at(position) for position in range(len(states))] == states
    assert timeline.final == states[-1] == history.state


@settings(max_examples=40, deadline=None)
@given(steps=STEPS, every=st.integers(1, 12))
def test_the_timeline_is_the_double_fold_it_replaced_with_undo_and_redo(
    steps: list[str], every: int
) -> None:
    history = played(steps)
    same_as_the_double_fold(history, every)
    # Read back from a save too: the history is lazy, its records decoded as it opened.
    same_as_the_double_fold(snapshot.open_lazily(snapshot.encode(history)), every)


EVENTS = 20_000


@pytest.fixture(scope="module")
def long_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fold") / "long.fight"
    storage.write(path, big_fight(a_system(has_demo, has_turn_order), 6, EVENTS))
    return path


class Counting:
    """A decoder of a record, or of a list of them at once, that counts the records it
    decodes."""

    def __init__(self, decoder: Any) -> None:
        self.decoder = decoder
        self.count = 0

    def decode(self, raw: Any) -> Any:
        decoded = self.decoder.decode(raw)
        self.count += len(decoded) if isinstance(decoded, list) else 1
        return decoded


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """How many records are decoded and how many events applied, from here on."""
    counts: dict[str, Any] = {"applied": 0, "decoders": []}
    real_codec = snapshot.codec

    def codec(system: str) -> snapshot.Codec:
        found = real_codec(system)
        one, many = Counting(found.record), Counting(found.records)
        counts["decoders"] += [one, many]
        return found._replace(record=one, records=many)

    def counting_apply(state: Encounter, event: Any) -> Encounter:
        counts["applied"] += 1
        return apply(state, event)

    monkeypatch.setattr(snapshot, "codec", codec)
    monkeypatch.setattr(replay, "apply", counting_apply)
    monkeypatch.setattr(history_module, "apply", counting_apply)
    yield counts


def test_a_long_save_replayed_decodes_each_record_once_and_applies_each_event_once(
    long_save: Path, counted: dict[str, Any]
) -> None:
    history = storage.read(long_save)
    timeline = Timeline(history)
    records = len(history.records)
    events = len(timeline)
    assert events >= EVENTS
    assert sum(decoder.count for decoder in counted["decoders"]) == records
    assert counted["applied"] == events - 1  # every event but the creation, once
    assert timeline.state_at(timeline.last) == history.state


def test_a_long_save_replayed_from_the_command_line_is_folded_once_as_its_check(
    long_save: Path, counted: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tracker replay`` refuses a log that does not fold, in a line, before the app: that
    check was a fold of its own, and the timeline's fold came after it."""
    from tracker import cli, launch

    shown: list[Any] = []

    def run(app: Any) -> int:
        shown.append(app.replay)
        return 0

    monkeypatch.setattr(launch, "_run", run)
    assert cli.main(["--saves", str(long_save.parent), "replay", str(long_save)]) == 0
    (timeline,) = shown
    assert isinstance(timeline, Timeline) and len(timeline) >= EVENTS
    assert counted["applied"] == len(timeline) - 1
    records = sum(decoder.count for decoder in counted["decoders"])
    assert records == len(storage.read(long_save).records)
