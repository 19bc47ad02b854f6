"""How hard a fight is, read from its forecast: one of four bands (trivial, easy, hard,
deadly) from two chances, and the one line a GM reads at a glance.

The two chances are the party's chance to win and the chance that at least one of its heroes
drops (goes out of the fight at some point of a run, standing again by the end or not). Each
chance falls in a band of its own by the edges below; the fight's band is the worse of the two,
so a fight the party nearly always wins but where someone nearly always drops is not "easy".
The edges are written out, with why, in docs/guide/difficulty.md.

Pure, like the rest of ``rules``: the figures come from a ``rules.forecast.Report`` or its
counts; nothing here plays a run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from rules.budget import Band, Budget
from rules.encounter import AnyEncounter
from rules.forecast import Report, wilson
from rules.logline import side_wins
from rules.registry import get_system

__all__ = ["Band", "Budget", "band", "difficulty_line", "lines"]

BANDS = tuple(Band)

# The party's chance to win: at least this much is the band's (below the last, deadly).
WIN_EDGES = ((0.99, Band.TRIVIAL), (0.90, Band.EASY), (0.60, Band.HARD))
# The chance that at least one hero drops: below this is the band's (from the last, deadly).
DROP_EDGES = ((0.05, Band.TRIVIAL), (0.25, Band.EASY), (0.60, Band.HARD))

# The sides that are the party by their usual names; else the first side not a foe's.
PARTY_SIDES = ("party", "heroes")
FOE_SIDES = ("foes", "challenge")
NAME_WIDTH = 16  # a hero's name in the line, at most


def _chance(p: float) -> float:
    if math.isnan(p):
        raise ValueError("a chance must be a number from 0 to 1")
    return min(1.0, max(0.0, p))


def by_win(win: float) -> Band:
    """The band the party's chance to win alone puts a fight in."""
    win = _chance(win)
    return next((b for edge, b in WIN_EDGES if win >= edge), Band.DEADLY)


def by_drop(drop: float) -> Band:
    """The band the chance that at least one hero drops alone puts a fight in."""
    drop = _chance(drop)
    return next((b for edge, b in DROP_EDGES if drop < edge), Band.DEADLY)


def worse(a: Band, b: Band) -> Band:
    return max(a, b, key=BANDS.index)


def band(win: float, drop: float) -> Band:
    """The band of a fight the party wins with chance ``win``, where at least one hero drops
    with chance ``drop``: the worse of the two chances' bands. A ``Band`` is a ``str``."""
    return worse(by_win(win), by_drop(drop))


def band_between(win: tuple[float, float], drop: tuple[float, float]) -> Band | None:
    """The band when every pair of chances within the intervals ``win`` and ``drop`` (low,
    high) has the same one, else None. The band only worsens as the win chance falls or the
    drop chance rises, so the two corners decide it."""
    best, worst = band(win[1], drop[0]), band(win[0], drop[1])
    return best if best == worst else None


class Counts(NamedTuple):
    """What a difficulty is read from: of ``runs`` fights, those the party won and those in
    which at least one hero dropped."""

    runs: int
    wins: int
    drops: int


def settled(counts: Counts) -> Band | None:
    """The band, once the 95% Wilson intervals of both chances sit inside one (the sequential
    forecast stops there); None while they straddle an edge, or before any run."""
    if counts.runs <= 0:
        return None
    return band_between(wilson(counts.wins, counts.runs), wilson(counts.drops, counts.runs))


def party_of(sides: Iterable[str]) -> str | None:
    """The side that is the party: "party" or "heroes" when there is one, else the first side
    that is not "foes" or "challenge"; None when every side is a foe's."""
    names = list(dict.fromkeys(sides))
    for wanted in PARTY_SIDES:
        found = next((s for s in names if s.casefold() == wanted), None)
        if found is not None:
            return found
    return next((s for s in names if s.casefold() not in FOE_SIDES), None)


def unready(state: AnyEncounter) -> str:
    """Why ``state`` has no difficulty to work out yet ("" when it has): no party, no foes."""
    sides = list(dict.fromkeys(c.side for c in state.combatants))
    party = party_of(sides)
    if party is None:
        return "Difficulty: no party yet (a side named party or heroes, or one not foes)"
    if len(sides) < 2:
        return "Difficulty: no foes yet"
    return ""


def counts(report: Report, party: str) -> Counts:
    """The counts of ``report`` for the side ``party``."""
    wins = next((s.wins for s in report.sides if s.side == party), 0)
    return Counts(report.runs, wins, report.side_fell.get(party, 0))


class Difficulty(NamedTuple):
    """A forecast read as a difficulty: its band (and whether the runs settle it), the
    chances and who of the party is likeliest to drop."""

    band: Band
    certain: bool  # the band holds across both chances' 95% intervals
    party: str
    runs: int
    win: float
    drop: float
    likeliest: str  # "" when no hero ever dropped
    likeliest_drop: float
    rounds: float


def read(report: Report, party: str | None = None) -> Difficulty | None:
    """The difficulty ``report`` shows for ``party`` (by default the side ``party_of`` picks);
    None when there is no party side or no run."""
    party = party if party is not None else party_of(s.side for s in report.sides)
    if party is None or report.runs <= 0:
        return None
    n = counts(report, party)
    heroes: Sequence[tuple[float, str]] = [
        (c.fell, c.name) for c in report.combatants if c.side == party
    ]
    chance, name = max(heroes, key=lambda h: h[0], default=(0.0, ""))
    win, drop = n.wins / n.runs, n.drops / n.runs
    return Difficulty(
        band=band(win, drop),
        certain=settled(n) is not None,
        party=party,
        runs=n.runs,
        win=win,
        drop=drop,
        likeliest=name if chance > 0 else "",
        likeliest_drop=chance,
        rounds=report.mean_rounds,
    )


def _pc(p: float) -> str:
    """A chance as a whole percent, rounded down (the edges are whole percents, so a chance
    shown is on the side of an edge its band is: a drop chance of 4.9% reads 4%, trivial),
    and never 0% for what is merely rare."""
    whole = math.floor(p * 100 + 1e-9)
    return "<1%" if whole == 0 and p > 0 else f"{whole}%"


def line_of(d: Difficulty) -> str:
    """The line for a difficulty: "Hard: party wins 84%, a hero drops in 41% (Orla 23%),
    ~4.2 rounds"."""
    name = d.likeliest if len(d.likeliest) <= NAME_WIDTH else d.likeliest[: NAME_WIDTH - 1] + "…"
    who = f" ({name} {_pc(d.likeliest_drop)})" if name else ""
    party = d.party if len(d.party) <= NAME_WIDTH else d.party[: NAME_WIDTH - 1] + "…"
    return (
        f"{d.band.value.capitalize()}: {side_wins(party)} "
        f"{_pc(d.win)}, "
        f"a hero drops in {_pc(d.drop)}{who}, ~{d.rounds:.1f} rounds"
    )


def difficulty_line(report: Report, party: str | None = None) -> str:
    """One line a GM reads at a glance: the band, the party's chance to win, the chance at
    least one hero drops (and who is likeliest), the expected rounds."""
    d = read(report, party)
    if d is None:
        if report.runs <= 0:
            return "Difficulty: no fights played"
        return "Difficulty: no party side (a side named party or heroes, or one not foes)"
    return line_of(d)


def _why(d: Difficulty) -> str:
    """The chance (or both) behind the simulation's band, in a few words."""
    why = [f"the party wins {_pc(d.win)}"] if by_win(d.win) == d.band else []
    if by_drop(d.drop) == d.band:
        why.append(f"a hero drops in {_pc(d.drop)}")
    return ", ".join(why)


def disagreement(budget: Budget, d: Difficulty) -> str:
    """ "" when the table and the simulation agree; else what each says and why the
    simulation says it: "XP says easy; the simulation: deadly, a hero drops in 62%"."""
    if budget.band == d.band:
        return ""
    return f"XP says {budget.says}; the simulation: {d.band.value}, {_why(d)}"


def lines(state: AnyEncounter, report: Report) -> tuple[str, ...]:
    """What the GM reads of a prepared fight: the difficulty line, and where the system has an
    XP budget, its lines and, when it disagrees with the simulation, what each says."""
    d = read(report)
    if d is None:
        return (difficulty_line(report),)
    budget = get_system(state.system).xp_budget(state, d.party)
    if budget is None:
        return (line_of(d),)
    differs = disagreement(budget, d)
    return (line_of(d), *budget.lines, *((differs,) if differs else ()))


def as_json(d: Difficulty, said: Sequence[str]) -> dict[str, Any]:
    """A difficulty for a program: its band, chances, runs and the lines a GM reads."""
    return {
        "band": d.band.value,
        "settled": d.certain,
        "party": d.party,
        "runs": d.runs,
        "win": round(d.win, 4),
        "drop": round(d.drop, 4),
        "likeliest": {"name": d.likeliest, "drop": round(d.likeliest_drop, 4)},
        "rounds": round(d.rounds, 3),
        "lines": list(said),
    }
