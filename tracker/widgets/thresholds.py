"""The consequence thresholds of the current system, with the last result marked in its tier.

Where the system can say so, each tier also shows its exact chance: live while a roll is
being prepared, and for the last roll, the chance the tier it landed in had.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.encounter import AnyEncounter
from rules.errors import Rejected
from rules.odds import Odds, percent
from rules.registry import get_system
from rules.system import RuleSystem
from tracker.widgets.encounter_header import waiting_text
from tracker.widgets.odds_table import odds_grid, odds_note


def bound(value: int | None) -> str:
    return "" if value is None else f"{value:+d}"


def _chance_of(odds: Odds | None, index: int, label: str) -> str:
    if odds is None:
        return ""
    tiers = odds.tiers
    tier = tiers[index] if index < len(tiers) and tiers[index].label == label else None
    tier = tier or next((t for t in tiers if t.label == label), None)
    return percent(float(tier.p)) if tier is not None else ""


def _last_odds(system: RuleSystem, state: AnyEncounter) -> Odds | None:
    """The last roll's odds, or none when they cannot be worked out (a sheet's dice from
    before they were checked): odds are shown beside a roll, never needed to draw it."""
    try:
        return system.last_odds(state)
    except Rejected:
        return None


class ThresholdsPane(Static):
    read_only = False  # a replay: what waits is shown without the key that applies it
    _shown: AnyEncounter | None = None  # redrawn only when the state differs
    _drawn = False  # the first drawing leaves the odds to the next frame
    _looks: tuple[object, ...] | None = None  # what the pane shows, to skip a same drawing

    def show(self, state: AnyEncounter) -> None:
        if state == self._shown:
            return
        first = self._shown is None and not self._drawn
        self._shown = state
        self._drawn = True
        if first:
            # The app's first frame does not wait for the odds (an exact sum over the
            # dice): the tiers come at once, their chances in the frame after.
            self._draw(state, with_odds=False)
            self.call_after_refresh(self._draw, state, True)
        else:
            self._draw(state, with_odds=True)

    def _draw(self, state: AnyEncounter, with_odds: bool) -> None:
        if state is not self._shown:
            return  # a later state is already drawn
        system = get_system(state.system)
        landing = system.landing(state)
        odds = _last_odds(system, state) if with_odds else None
        tiers = tuple(
            (
                landing is not None and landing.tier == index,
                tier.label,
                tier.effect,
                _chance_of(odds, index, tier.label),
            )
            for index, tier in enumerate(system.tiers(state))
        )
        summary = None if landing is None else landing.summary
        applied = landing is not None and state.last_roll_applied
        whose = odds.whose if odds is not None else ""
        note = odds_note(odds) if odds is not None else None
        discarded = applied and state.last_roll_discarded
        waiting = system.pending(state)
        # Most changes (a turn, a note, a wound) leave the pane as it is: not drawn again,
        # which would lay the screen out and render the pane anew on every seat.
        looks = (tiers, summary, applied, discarded, waiting, odds is not None, whose, note)
        if looks == self._looks:
            return
        self._looks = looks
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        if odds is not None:
            table.add_column(justify="right", no_wrap=True)
        landed_label = landed_chance = ""
        for landed, label, effect, chance in tiers:
            style = "reverse bold" if landed else ""
            if landed:
                landed_label, landed_chance = label, chance
            cells = [
                Text("◆" if landed else " ", style="bold"),
                Text(label, style=style),
                Text(effect, style=style),
            ]
            if odds is not None:
                cells.append(Text(chance, style="dim"))
            table.add_row(*cells)
        text = Text("No roll yet", style="dim") if summary is None else Text(summary)
        if applied:
            text.append("  (discarded)" if discarded else "  (applied)", style="dim")
        grid = Table.grid(expand=True)
        grid.add_row(text)
        if waiting:
            grid.add_row(Text(waiting_text(waiting, self.read_only), style="bold"))
        if whose:
            grid.add_row(Text(whose, style="bold"))
        if landing is not None and landed_chance:
            grid.add_row(
                Text(
                    f"landed in {landed_label}, which had a {landed_chance} chance", style="italic"
                )
            )
        if note is not None:
            grid.add_row(note)
        grid.add_row(table)
        self.update(grid)

    def show_preview(self, odds: Odds) -> None:
        """The odds of the roll being prepared in a dialog, until it is rolled or closed."""
        self._shown = None
        self._looks = None
        grid = Table.grid(expand=True)
        title = "Odds of the roll being prepared"
        if odds.whose:
            title = f"{odds.whose}, before the dice"
        grid.add_row(Text(title, style="bold"))
        grid.add_row(odds_grid(odds, bar_width=10))
        note = odds_note(odds)
        if note is not None:
            grid.add_row(note)
        self.update(grid)
