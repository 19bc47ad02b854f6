"""The encounter screen's table tools: solo play, the fight's summary, the forecast, the
difficulty, and the fight balanced to a chance for the party to win."""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding

from rules.outcome import Summary, summary
from rules.turn_times import Took, took
from tracker.screens.encounter_keys.area import Area

if TYPE_CHECKING:
    from tracker.screens.solo_screen import SoloChoices


class ToolKeys(Area):
    """``S``, ``f``, ``F``, ``D``, ``B``."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("S", "solo", "Solo play", show=False, id="encounter.solo"),
        Binding("f", "fight_summary", "Fight summary", show=False, id="encounter.fight_summary"),
        Binding("F", "forecast", "Forecast", show=False, id="encounter.forecast"),
        Binding(
            "D",
            "difficulty",
            "Difficulty: how hard the fight is",
            show=False,
            id="encounter.difficulty",
        ),
        Binding("B", "balance", "Balance...", show=False, id="encounter.balance"),
    ]
    PLAYERS = frozenset({"fight_summary"})
    SPECTATORS = frozenset({"fight_summary"})

    def action_solo(self) -> None:
        from tracker.screens.solo_screen import SoloScreen, apply_choices

        def warn(message: str) -> None:
            self.notify(message, severity="warning", markup=False)

        def chosen(result: SoloChoices | None) -> None:
            apply_choices(self.session, result, warn)

        self.app.push_screen(SoloScreen(self.state), chosen)

    def action_fight_summary(self) -> None:
        """Who won, the rounds, each combatant's part and end state, each side's luck."""
        from tracker.screens.summary import SummaryScreen

        # The events in effect and the states are taken now (the first step of in_effect);
        # counting them up, a long fight's second or two, is the screen's worker's.
        pairs = iter(self.session.history.in_effect())  # a seat's is a list already
        first = next(pairs)
        state, result = self.state, self.session.outcome()

        def count() -> Summary:
            return summary(chain([first], pairs), state, result)

        def times() -> list[Took]:
            return took(self.session.turn_times(), state)

        self.app.push_screen(SummaryScreen(result, count, times))

    def action_forecast(self) -> None:
        from tracker.screens.forecast_screen import ForecastScreen

        self.app.push_screen(ForecastScreen(self.state))

    def action_difficulty(self) -> None:
        from tracker.screens.difficulty_screen import DifficultyScreen

        self.app.push_screen(DifficultyScreen(self.state))

    def action_balance(self) -> None:
        """Foes added or removed, their hit points scaled, to the party's chance asked for;
        accepted, one command (one undo step)."""
        from rules.commands import Commands
        from rules.errors import Rejected
        from tracker.screens.balance import BalanceScreen
        from tracker.store.prepare import party_side

        try:
            party = party_side(self.state)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return

        def accepted(change: tuple[Commands, str] | None) -> None:
            if change is not None:
                self.run(*change)

        self.app.push_screen(BalanceScreen(self.state, party), accepted)
