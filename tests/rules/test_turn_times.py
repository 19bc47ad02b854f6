"""Turn times from the records' stamps: a break (an hour or more with nothing saved) is left
out of a turn's time, in the summary's turns and in the clock of the turn going on."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.events import NoteAdded, TurnAdvanced
from rules.history import Applied
from rules.turn_times import BREAK, started, turns

HOUR = 3600.0


def passed(to: str, at: float | None, round_: int = 1) -> Applied[Any]:
    return Applied((TurnAdvanced(round=round_, actor_id=to),), "next", at)


def note(at: float | None) -> Applied[Any]:
    return Applied((NoteAdded("x"),), "note", at)


def test_a_turn_is_the_time_between_its_stamps() -> None:
    records = [passed("orla", 100.0), note(130.0), passed("goblin", 190.0), passed("orla", 200.0)]
    assert [(t.combatant_id, t.seconds) for t in turns(records)] == [("orla", 90.0), ("goblin", 10)]


def test_a_break_in_a_turn_is_left_out() -> None:
    # Orla's turn: 2 minutes, the fight closed for a week, 3 minutes more.
    week = 7 * 24 * HOUR
    records = [passed("orla", 0.0), note(120.0), note(120.0 + week), passed("goblin", 300.0 + week)]
    assert turns(records)[0].seconds == 300.0


def test_a_gap_just_under_a_break_is_play() -> None:
    records = [passed("orla", 0.0), passed("goblin", BREAK - 1)]
    assert turns(records)[0].seconds == BREAK - 1
    records = [passed("orla", 0.0), passed("goblin", BREAK)]
    assert turns(records)[0].seconds == 0.0


def test_a_turn_without_a_stamp_at_either_end_is_not_timed() -> None:
    assert turns([passed("orla", None), passed("goblin", 50.0), passed("orla", None)]) == []
    # Its records between may have none: the gaps between the stamps there are are counted.
    records = [passed("orla", 10.0), note(None), note(40.0), passed("goblin", 70.0)]
    assert turns(records)[0].seconds == 60.0


def test_the_clock_of_the_turn_going_on_counts_from_its_start() -> None:
    newest_first = [note(130.0), passed("orla", 100.0)]
    assert started(newest_first, "orla") == 100.0
    assert started(newest_first, "goblin") is None  # not whose turn the records gave
    assert started([note(130.0), passed("orla", None)], "orla") is None  # start unknown


def test_the_clock_leaves_out_a_break_and_counts_from_the_opening_after_one() -> None:
    # Orla's turn: 2 minutes played, then the fight was closed; opened again a day later.
    day = 24 * HOUR
    newest_first = [note(120.0), passed("orla", 0.0)]
    start = started(newest_first, "orla", opened=120.0 + day)
    assert start is not None
    now = 120.0 + day + 30.0
    assert now - start == 150.0  # the 2 minutes before, and 30 s since the opening
    # Opened again soon after (less than a break): the time closed counts, as in the summary.
    assert started(newest_first, "orla", opened=600.0) == 0.0
    # Something saved after the opening: the clock goes on from it, with no jump.
    newest_first = [note(120.0 + day + 30.0), note(120.0), passed("orla", 0.0)]
    start = started(newest_first, "orla", opened=120.0 + day)
    assert start is not None and now - start == 150.0
    # A break inside the turn's records is left out too.
    newest_first = [note(60.0 + day), note(60.0), passed("orla", 0.0)]
    assert started(newest_first, "orla") == day


@given(
    st.lists(
        st.tuples(st.booleans(), st.floats(min_value=0, max_value=3 * BREAK)),
        min_size=1,
        max_size=12,
    )
)
def test_the_clock_and_the_summary_agree_on_a_turn(steps: list[tuple[bool, float]]) -> None:
    """The turn going on, as its clock reads at its end, is the time the summary gives it."""
    at = 0.0
    records = [passed("orla", at)]
    for stamped, gap in steps:
        at += gap
        records.append(note(at if stamped else None))
    start = started(list(reversed(records)), "orla")
    assert start is not None
    last = max((r.at for r in records if r.at is not None), default=0.0)
    clock = last - start  # the clock as the last record saved is read
    summary = turns([*records, passed("goblin", last)])[0].seconds
    assert abs(clock - summary) < 1e-6
