"""The encounter screen's turns: the next one, and playing on past the fight's end."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding

from rules.commands import NextTurn, PassTurn
from rules.encounter import AnyEncounter
from tracker.line_commands.table import ANY_TURN  # the GM's n: anyone's turn (rules.passing)
from tracker.screens.encounter_keys.area import Area

OVER = "The fight is over: the GM decides whether to play on"


class TurnKeys(Area):
    """``n``: the next turn (or round); on a player's seat, the end of their own turn."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("n", "next_turn", "Next turn/round", id="encounter.next_turn"),
    ]
    PLAYERS = frozenset({"next_turn"})

    _warned_at: AnyEncounter | None  # n refused here: n again asks to play on

    def action_next_turn(self) -> None:
        """The next turn (asked first over a result not yet applied); once the fight is over, n
        says so, and n again asks to play on."""
        if not self.session.allows(ANY_TURN):
            self._pass_own_turn(self.session.stopped())
            return
        if not self.session.stopped():
            self._end_turn()
            return
        result = self.session.outcome()
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
                self.session.playing_on = result.headline  # every seat's turns too
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

    def _pass_own_turn(self, stopped: bool) -> None:
        """A player's n: their own combatant's turn ends, at once (nothing is asked: what
        would be asked is refused in one line, rules.passing); anything else says why not."""
        current = self.state.current
        system = self.session.system
        if stopped:
            self.notify(OVER, severity="warning", markup=False)
        elif not system.uses_turn_order:
            self.notify(f"{system.title} plays in rounds: the GM ends the round", markup=False)
        elif current is None:
            self.notify("Nobody's turn is on: n ends your own turn when it comes", markup=False)
        else:
            self.run(PassTurn(current.id), "n: end my turn")
