"""Every system: plain dice roll and a quick track change works, is logged, saved and undone."""

from __future__ import annotations

import pytest

from rules.commands import ChangeTrack, RollDice
from rules.dice import ScriptedDice
from rules.engine import decide, describe
from rules.errors import Rejected
from rules.events import TrackChanged
from rules.history import History
from rules.plain_dice import DiceRolled
from rules.system import RuleSystem

from .support import check_save_round_trip, one_line


def test_plain_dice_in_any_system(history: History) -> None:
    before = history.state
    events = decide(before, RollDice("2d6+3 >= 10"), ScriptedDice([4, 2]))
    assert len(events) == 1 and isinstance(events[0], DiceRolled)
    history.commit(events, "roll 2d6+3")
    assert history.state == before  # dice change nothing in the encounter
    line = "🎲 2d6+3 >= 10: 4 2 + 3 = 9 · missed · mean 10 · 10+: 7/12 (58.3%)"
    assert describe(before, events[0]).plain == line
    check_save_round_trip(history)  # every die is in the save: a replay needs no dice
    history.undo()
    assert history.state == before


def test_a_quick_track_change(system: RuleSystem, history: History) -> None:
    state = history.state
    tracked = [(c, t) for c in state.combatants if (t := system.main_track(c)) is not None]
    if not tracked:  # main_track's default: test_a_track_stops_at_its_bounds sees it refused
        pytest.skip(f"{system.name} has no main track")
    for combatant, track in tracked:
        assert track.low <= track.value <= track.high
        worse = system.track_command(state, combatant, 1)
        try:
            events = decide(state, worse, ScriptedDice([]))
        except Rejected as exc:  # already at its worst
            one_line(exc, f"{combatant.name} worse")
            continue
        history.commit(events, "wound")
        after = system.main_track(history.state.combatant(combatant.id))
        assert after is not None
        assert after.value == track.value + (1 if track.rising else -1)
        change = next(e for e in events if isinstance(e, TrackChanged))
        assert describe(state, change).plain.startswith(f"{combatant.name} {track.name}: ")
        check_save_round_trip(history)
        history.undo()
        assert history.state == state
        better = system.track_command(state, combatant, -1)
        if track.value != (track.low if track.rising else track.high):
            history.commit(decide(state, better, ScriptedDice([])), "heal")
            healed = system.main_track(history.state.combatant(combatant.id))
            assert healed is not None and healed.value == track.value - (1 if track.rising else -1)
            history.undo()
        break


def test_a_track_stops_at_its_bounds(system: RuleSystem, history: History) -> None:
    state = history.state
    for combatant in state.combatants:
        track = system.main_track(combatant)
        if track is None:
            refused = None
            try:
                decide(state, ChangeTrack(combatant.id, 1), ScriptedDice([]))
            except Rejected as exc:
                refused = exc
            assert refused is not None and "no track" in refused.message
            continue
        far = ChangeTrack(combatant.id, 10**6)
        events = decide(state, far, ScriptedDice([]))
        change = events[-1]
        assert isinstance(change, TrackChanged)
        assert change.after == (track.high if track.rising else track.low)
        try:
            decide(state, ChangeTrack(combatant.id, 10**7), ScriptedDice([]))
        except Rejected as exc:
            one_line(exc, "a change beyond the bound")
            assert "between" in exc.message
        else:
            raise AssertionError("a change of 10,000,000 was taken")
