"""A fight as a timeline of events, for stepping through it and branching from any point.

Position ``i`` means "after event i". States are kept every ``every`` events, so seeking
anywhere replays at most that many events, however long the fight.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from rules.encounter import AnyEncounter, Event
from rules.engine import apply, initial_state
from rules.events import EncounterCreated, TurnAdvanced
from rules.history import History


class Timeline:
    def __init__(self, history: History, every: int = 250) -> None:
        self.records = history.applied_in_effect()
        self.events: list[Event] = [e for record in self.records for e in record.events]
        self.every = every
        self._checkpoints: list[AnyEncounter] = []  # state after event k * every
        self._turns: list[int] = []  # positions where a turn begins
        self._rounds: list[int] = []  # positions where a round begins
        # One fold of its own, not History.in_effect()'s pairs: folding those pairs again
        # applied every event twice (issue 45).
        created = self.events[0]
        assert isinstance(created, EncounterCreated)
        state = initial_state(created)
        self._checkpoints.append(state)
        for index in range(1, len(self.events)):
            event = self.events[index]
            if isinstance(event, TurnAdvanced):
                self._turns.append(index)
                if event.round != state.round:
                    self._rounds.append(index)
            state = apply(state, event)
            if index % every == 0:
                self._checkpoints.append(state)
        self.final = history.state

    def __len__(self) -> int:
        return len(self.events)

    @property
    def last(self) -> int:
        return len(self.events) - 1

    def state_at(self, position: int) -> AnyEncounter:
        """The encounter just after event ``position``."""
        position = max(0, min(position, self.last))
        base = position // self.every
        state = self._checkpoints[base]
        for event in self.events[base * self.every + 1 : position + 1]:
            state = apply(state, event)
        return state

    def before(self, position: int) -> AnyEncounter:
        """The encounter just before event ``position`` (for naming things in its log line)."""
        return self.state_at(position - 1) if position > 0 else self.state_at(0)

    def next_turn(self, position: int) -> int:
        return self._after(self._turns, position)

    def previous_turn(self, position: int) -> int:
        return self._before(self._turns, position)

    def next_round(self, position: int) -> int:
        return self._after(self._rounds, position)

    def previous_round(self, position: int) -> int:
        return self._before(self._rounds, position)

    def _after(self, marks: list[int], position: int) -> int:
        index = bisect_right(marks, position)
        return marks[index] if index < len(marks) else self.last

    def _before(self, marks: list[int], position: int) -> int:
        index = bisect_left(marks, position) - 1
        return marks[index] if index >= 0 else 0

    def branch(self, position: int) -> History:
        """A new history holding the fight up to and including event ``position``."""
        opening, *rest = self.records
        created = opening.events[0]
        assert isinstance(created, EncounterCreated)
        history = History(EncounterCreated(f"{created.name} (branch)"[:60], created.system))
        remaining = position  # events still to take after the opening one
        for record in rest:
            if remaining <= 0:
                break
            taken = record.events[:remaining]
            history.commit(taken, record.label)
            remaining -= len(taken)
        return history
