"""Plain dice in any system, as the log's event: the notation dice bots read (``2d6+3``,
``4d6kh3``, ``1d20ro1+5``, ``(1d8+4)*2``, ``6d10c>=8``, ``1d20+5 >= 15``), read, rolled and
worked out exactly by ``rules.notation``, kept here with every die so a replay needs none.

An event saved before ``rules.notation`` (no ``shown``) still reads as it did: its ``groups``
and ``constant`` were all there was to an expression then.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Annotated

from msgspec import Meta, Struct

from rules.bounds import NAME
from rules.dice import DiceSource
from rules.logline import Line, Span, spans

if TYPE_CHECKING:
    from rules.notation.answer import Answer

# rules.notation is imported where it is used, not with the event: a save is read (and the
# app's first frame drawn) without the dice notation's parser, roller and exact odds.

# The chart in the log: a row fits the log pane at 80 columns, and the roll's line stays in
# sight above its rows at 24 lines.
CHART_WIDTH = 20
CHART_ROWS = 8

_LABEL = r"\[[^\]]*\]"
_LOOKS = r"[0-9dkhlproaemic%!+\-*/(),.<>=≥≤\s]*"
_DIE = r"d[0-9%]"


@cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE)


class Group(Struct, frozen=True):
    """One ``NdS`` as rolled: each die's faces (more than one when ``!`` exploded it) and
    whether the die counts."""

    notation: str
    sign: int
    chains: tuple[tuple[int, ...], ...]
    kept: tuple[bool, ...]

    @property
    def value(self) -> int:
        return self.sign * sum(sum(c) for c, k in zip(self.chains, self.kept, strict=True) if k)


# A fraction as ``str(Fraction)`` writes it, or nothing: what the log reads back with
# ``Fraction``, which would refuse other text with a traceback, or take minutes over an
# exponent (``1e99999999``), each time the line is drawn: a save holding it is refused.
Exact = Annotated[str, Meta(pattern=r"^(-?[0-9]+(/[0-9]+)?)?$")]


class DiceRolled(Struct, frozen=True, tag="dice-rolled"):
    """A core event: plain dice, every die as rolled, the total, and the exact mean and
    chance worked out when rolled (fractions as text: they outgrow a saved integer).

    ``shown`` is the roll as the table reads it; ``goal`` the comparison after the dice
    (``>= 15``, ``< 1d6``), ``made`` whether this roll met it and ``chance`` how likely that
    was; ``at_least`` is N for a goal ``>= N``."""

    notation: str
    groups: tuple[Group, ...]
    constant: int
    total: int
    mean: Exact
    at_least: int | None = None
    chance: Exact = ""
    shown: tuple[Span, ...] = ()
    goal: str = ""
    made: bool | None = None
    against: str = ""
    chart: tuple[str, ...] = ()  # the distribution in blocks, when the line asked for it
    by: str = ""  # the player who rolled, at a served table
    hidden: bool = False  # the GM's roll, seen by the GM alone (``rules.visibility``)


def looks_like_dice(text: str) -> bool:
    """Whether a line is written as dice notation (then it is read as dice, and its mistakes
    are told as dice mistakes) rather than as words: ``2d6+3``, ``d20 >= 15``, ``4d6kh3``,
    ``3d6 chart``."""
    from rules.notation.chart import split_chart

    bare = _pattern(_LABEL).sub("", split_chart(text)[0]).strip()
    return bool(_pattern(_LOOKS).fullmatch(bare)) and bool(_pattern(_DIE).search(bare))


def rolled(notation: str, dice: DiceSource, *, by: str = "", hidden: bool = False) -> DiceRolled:
    """Read, work out and roll a line of dice notation (ending with ``chart``: its
    distribution drawn too): the event it makes (``Rejected`` with one line, before any die
    is rolled, when it cannot be). ``by``: who rolled it; ``hidden``: the GM's secret roll."""
    from rules.notation.answer import answer
    from rules.notation.chart import split_chart

    notation, charted = split_chart(notation)
    return recorded(answer(notation, dice), charted=charted, by=by, hidden=hidden)


def recorded(
    result: Answer, *, charted: bool = False, by: str = "", hidden: bool = False
) -> DiceRolled:
    """A line rolled (``rules.notation.answer``, or a system's dice field read and rolled by
    ``rules.notation.field.roll``) as the log's event: every die, the total, the exact mean
    and the goal's chance, and with ``charted`` the distribution drawn."""
    from rules.notation.chart import chart

    odds = result.odds
    return DiceRolled(
        notation=odds.notation,
        groups=tuple(Group(g.notation, g.sign, g.rolls, g.kept) for g in result.dice if g.rolls),
        constant=int(result.constant),
        total=result.total,
        mean=str(odds.odds.mean),
        at_least=odds.at_least,
        chance="" if odds.chance is None else str(odds.chance),
        shown=tuple(Span(text, style) for text, style in result.pieces),
        goal=odds.goal_text,
        made=result.made,
        against=result.against,
        chart=tuple(chart(odds.odds, CHART_WIDTH, CHART_ROWS)) if charted else (),
        by=by.strip()[:NAME],
        hidden=hidden,
    )


def lines(event: DiceRolled) -> tuple[Line, ...]:
    """The roll's line in the log, then its chart when the line asked for one."""
    return (line(event), *(spans(Span(row, "muted")) for row in event.chart))


def line(event: DiceRolled) -> Line:
    """``🎲 4d6kh3 >= 12: (1) 6 3 5 = 14 · made it · mean 12.24 · 12+: 1/2 (50.0%)``, after
    who rolled it (``Alice: ``) and whether it was hidden (``(hidden) ``)."""
    from rules.notation import words

    shown = [(s.text, s.style) for s in event.shown] or _older(event)
    made = event.made
    if made is None and event.at_least is not None:
        made = event.total >= event.at_least
    pieces = words.line(
        event.notation,
        shown,
        event.total,
        mean=Fraction(event.mean) if event.mean else None,
        made=made,
        against=event.against,
        goal=event.goal,
        at_least=event.at_least,
        chance=Fraction(event.chance) if event.chance else None,
    )
    who: list[tuple[str, str]] = []
    if event.hidden:
        who.append(("(hidden) ", "muted"))
    if event.by:
        who += [(event.by, "name"), (": ", "")]
    pieces = pieces[:1] + who + pieces[1:]  # after the die, before the notation
    return spans(*(Span(text, style) if style else text for text, style in pieces))


def _older(event: DiceRolled) -> list[tuple[str, str]]:
    """An event saved before ``shown``: its dice, an exploded one as its chain (``6+6+2``),
    one not kept in brackets, then its constant."""
    pieces: list[tuple[str, str]] = []
    for index, group in enumerate(event.groups):
        if group.sign < 0 or index:
            pieces.append(((" " if index else "") + ("-" if group.sign < 0 else "+"), ""))
        for chain, kept in zip(group.chains, group.kept, strict=True):
            face = "+".join(str(f) for f in chain)
            if pieces:
                pieces.append((" ", ""))
            pieces.append((face, "die") if kept else (f"({face})", "muted"))
    if event.constant:
        pieces.append((f" {'-' if event.constant < 0 else '+'} {abs(event.constant)}", ""))
    return pieces
