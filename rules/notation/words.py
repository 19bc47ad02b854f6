"""The one line a roll reads as, in the log, on a seat and on the command line:
``🎲 4d6kh3 >= 12: (1) 6 3 5 = 14 · made it · mean 12.24 · 12+: 1/2 (50.0%)``."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rules.notation.roll import Piece
from rules.odds import percent


def line(
    notation: str,
    shown: Sequence[Piece],
    total: int,
    *,
    mean: Fraction | None,
    made: bool | None = None,
    against: str = "",
    goal: str = "",
    at_least: int | None = None,
    chance: Fraction | None = None,
) -> list[Piece]:
    """The dice as they fell, the total, whether the goal was made, then the exact mean and
    the goal's chance (``N+`` for ``>= N``)."""
    pieces: list[Piece] = [("🎲 ", "muted"), (notation, "name"), (":", ""), (" ", "")]
    pieces += [*shown, (" = ", ""), (str(total), "tier")]
    if made is not None:
        if against:
            pieces.append((f" vs {against}", ""))
        pieces += [(" · ", ""), ("made it", "success") if made else ("missed", "failure")]
    if mean is not None:
        pieces.append((f" · mean {figure(mean)}", ""))
    if chance is not None and (at_least is not None or goal):
        label = f"{at_least}+" if at_least is not None else goal
        pieces.append((f" · {label}: {chance_text(chance)}", ""))
    return pieces


def figure(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.2f}"


def chance_text(chance: Fraction) -> str:
    """A chance as a percentage, after its fraction when that is short: ``1/6 (16.7%)``."""
    shown = percent(chance)
    return f"{chance} ({shown})" if chance.denominator <= 1000 and 0 < chance < 1 else shown
