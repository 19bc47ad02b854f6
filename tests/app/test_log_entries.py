"""The roll log's entries described lazily, folded forward from a state kept every
``EVERY`` events, read exactly as each (event, state before) pair described at once: in
any order, after the newest are dropped (an undo) and others added, and with the replay's
mark."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from bench.big import big_fight
from rules.encounter import AnyEncounter, Event
from rules.engine import describe
from rules.history import History
from rules.snapshot import encode, open_lazily
from tests.picks import every_system, has_demo
from tracker.widgets.log_entries import EVERY, MARK, LogEntries

FIGHTS: dict[str, History] = {}


def fight(system: str) -> History:
    """A fight of a few hundred entries (several kept states), built once per system."""
    if system not in FIGHTS:
        FIGHTS[system] = big_fight(system, 6, 5 * EVERY)
    return FIGHTS[system]


def lazily(pairs: Iterable[tuple[Event, AnyEncounter | None]]) -> LogEntries:
    entries = LogEntries()
    for event, before in pairs:
        entries.add(event, before)
    return entries


# How a log is given its states: every one; those a fight played in the app knows (each
# record's first event's); those a save opened and checked knows (every KEPT-th record's);
# and those a save opened knows before it is checked (the first event's only).
SOURCES = ["every state", "as played", "opened", "opened unchecked"]


def sparse(system: str, source: str) -> list[tuple[Event, AnyEncounter | None]]:
    history = fight(system)
    if source == "every state":
        return list(history.in_effect())
    if source != "as played":
        history = open_lazily(encode(history))
        if source == "opened":
            history.refold()
    return list(history.in_effect_sparse())


def plain(pairs: list[tuple[Event, AnyEncounter]]) -> list[str]:
    return [describe(before, event).plain for event, before in pairs]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("system", every_system(has_demo))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.randoms(use_true_random=False))
def test_entries_described_in_any_order_read_as_described_at_once(
    system: str, source: str, order: random.Random
) -> None:
    pairs = list(fight(system).in_effect())
    entries = lazily(sparse(system, source))
    assert len(pairs) > 3 * EVERY
    indices = list(range(len(pairs)))
    order.shuffle(indices)
    expected = plain(pairs)
    for index in indices[: 2 * EVERY]:
        assert entries[index] == expected[index]
        assert entries.entry(index) == describe(pairs[index][1], pairs[index][0])
    assert list(entries) == expected and entries == expected


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("system", every_system(has_demo))
def test_entries_after_an_undo_and_new_ones_read_as_described_at_once(
    system: str, source: str
) -> None:
    pairs = list(fight(system).in_effect())
    given = sparse(system, source)
    entries = lazily(given)
    for keep in (len(pairs) - 3, 2 * EVERY + 1, 2 * EVERY, 1):
        entries.truncate(keep)
        assert len(entries) == keep and entries[-1] == plain(pairs[keep - 1 : keep])[0]
        for event, before in pairs[keep : keep + EVERY + 3]:  # given again, described now
            entries.add(event, before, describe(before, event))
        for event, known in given[keep + EVERY + 3 :]:  # and the rest lazily
            entries.add(event, known)
        assert entries == plain(pairs)


def test_the_marked_entry_reads_with_its_mark_and_its_widths_count_it() -> None:
    (system,) = every_system(has_demo)[:1]
    pairs = list(fight(system).in_effect())[:10]
    entries = lazily(pairs)
    expected = plain(pairs)
    entries.mark(9)
    assert entries[9] == (expected[9] if expected[9].startswith(MARK) else MARK + expected[9])
    lines = entries[9].split("\n")
    assert entries.widths(9, describe=True) == tuple(cell_len(line) for line in lines)
    entries.mark(None)
    assert entries[9] == expected[9]
    assert entries.widths(3) is None and entries.widths(3, describe=True) is not None
    assert entries[-1] == expected[-1] and entries[2:4] == expected[2:4]
    with pytest.raises(IndexError):
        entries[10]


@pytest.mark.parametrize("system", every_system(has_demo)[:1])
def test_entries_described_as_given_never_fold(
    system: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's log is given its view's states, which do not fold one into the next: its
    entries are described as they come, and an undo's drop folds nothing either."""

    def no_fold(state: AnyEncounter, event: Event) -> AnyEncounter:
        raise AssertionError("folded a log whose states were all given")

    monkeypatch.setattr("tracker.widgets.log_entries.apply", no_fold)
    pairs = list(fight(system).in_effect())
    entries = LogEntries()
    for keep in (len(pairs) - 3, EVERY + 5, EVERY + 1, 1):
        for event, before in pairs[len(entries) :]:
            entries.add(event, before, describe(before, event))
        entries.truncate(keep)
        assert entries == plain(pairs[:keep])
