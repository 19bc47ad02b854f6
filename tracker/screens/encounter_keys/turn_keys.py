"""The encounter screen's turns: the next one, and playing on past the fight's end."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding

from rules.commands import NextTurn
from rules.encounter import Encounter
from tracker.screens.encounter_keys.area import Area


class TurnKeys(Area):
    """``n``: the next turn (or round)."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("n", "next_turn", "Next turn/round"),
    ]

    _warned_at: Encounter | None  # n refused here: n again asks to play on
    _playing_on: str | None  # the headline of the end the GM plays on past

    def action_next_turn(self) -> None:
        """The next turn (asked first over a result not yet applied); once the fight is over, n
        says so, and n again asks to play on."""
        result = self.session.outcome()
        if not result.over or result.headline == self._playing_on:
            self._end_turn()
            return
        state = self.state
        if self._warned_at is None or not (self._warned_at is state or self._warned_at == state):
            self._warned_at = state
            self.notify(
                f"{result.headline}: n no longer ends the turn. Press n again to play on "
                "anyway, u to undo, f for the summary",
                severity="warning",
                markup=False,
            )
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._playing_on = result.headline
                self._end_turn()

        from tracker.screens.confirm import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen(f"{result.headline}. Play on with the next turn anyway?"), answered
        )

    def _end_turn(self) -> None:
        def end() -> None:
            self.run(NextTurn(), "next turn")

        doing = "end the turn" if self.session.system.uses_turn_order else "end the round"
        self.settle_first(doing, end)
