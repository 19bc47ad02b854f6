"""Where a fight turned (``rules.swings``) for the replay's ``W`` and ``tracker export
--swings``: each point's chance from the forecast's worker pool, one seed for every point;
the chart (block characters, a round's start marked on its axis), and the report as text,
Markdown and JSON."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from rules.encounter import AnyEncounter
from rules.forecast import DEFAULT_ROUNDS, Report, job_bytes, report
from rules.logline import side_possessive
from rules.odds import whole_percent
from rules.swings import Ask, Chances, Many, Swing, Swings
from rules.tune import Chance
from tracker.headless.batches import run_jobs
from tracker.headless.forecast_pool import Workers, run_forecast

EIGHTHS = " ▁▂▃▄▅▆▇█"
HEIGHT = 8  # rows of the chart
LABEL = 5  # "100% "


def chances_over(
    party: str,
    seed: int,
    workers: Workers | None,
    cancel: threading.Event | None = None,
) -> Chances:
    """The party's chance from a state, in ``runs`` fights on the pool: the same seeds at
    every point, a batch after the first on seeds of its own."""

    def chance(state: AnyEncounter, runs: int, batch: int = 0) -> Chance:
        # A batch's own seeds: the forecast's are the seed's bits and the run's index.
        result = run_forecast(state, runs, seed + batch, DEFAULT_ROUNDS, workers, None, cancel)
        return _party_chance(result, party)

    return chance


def many_over(
    party: str,
    seed: int,
    workers: Workers | None,
    cancel: threading.Event | None = None,
) -> Many:
    """``chances_over``'s answers to many questions at once: every span of every point's runs
    in one queue on the pool, so no process waits for one point to end before the next."""

    def many(asks: Sequence[Ask], told: Callable[[int], None]) -> list[Chance]:
        jobs = [
            (job_bytes(state, seed + batch, DEFAULT_ROUNDS), runs) for state, runs, batch in asks
        ]
        tallies = run_jobs(jobs, workers, told, cancel)
        return [
            _party_chance(report(state, tally, seed + batch, DEFAULT_ROUNDS), party)
            for (state, _, batch), tally in zip(asks, tallies, strict=True)
        ]

    return many


def _party_chance(result: Report, party: str) -> Chance:
    side = next((s for s in result.sides if s.side == party), None)
    if side is None:
        return Chance(0.0, 0.0, 1.0, result.runs)
    return Chance(side.p, side.low, side.high, result.runs)


def swing_line(number: int, swing: Swing, party: str) -> str:
    """ "1. Round 3, event 17: Orla's Longsword at ... took the party from 40% to 85%"."""
    return (
        f"{number}. Round {swing.round}, event {swing.position + 1}: {swing.line} took the "
        f"{party} from {whole_percent(swing.before.p)} to {whole_percent(swing.after.p)}"
    )


def columns(found: Swings, width: int) -> list[int]:
    """Which point each column of a chart at most ``width`` wide shows: a few columns each
    when the points are fewer, else the last point of each column's share."""
    count = len(found.points)
    if count <= width:
        return [i for i in range(count) for _ in range(width // count)]
    return [min(count - 1, ((j + 1) * count + width - 1) // width - 1) for j in range(width)]


def chart(found: Swings, width: int = 75, height: int = HEIGHT) -> list[str]:
    """The party's chance as a block chart: 0% to 100% up the side, the events along, a
    round's start marked ``┴`` on the axis and each named swing by its number under it."""
    if not found.points:
        return ["(no point of the fight has two sides)"]
    shown = columns(found, max(4, width - LABEL))
    values = [found.points[i].chance.p for i in shown]
    rows = []
    for row in range(height - 1, -1, -1):
        cells = "".join(EIGHTHS[max(0, min(8, round((v * height - row) * 8)))] for v in values)
        label = {height - 1: "100%", height // 2: " 50%", 0: "  0%"}.get(row, "")
        rows.append(f"{label:>4}│{cells}")
    starts = {i for i, p in enumerate(found.points) if p.position in found.rounds}
    swing_at = {s.position: n for n, s in enumerate(found.swings, 1)}
    axis, marks = [], []
    previous = -1
    for index in shown:
        span = range(previous + 1, index + 1)  # the points this column is the first to show
        previous = max(previous, index)
        axis.append("┴" if any(i in starts for i in span) else "─")
        named = [swing_at[p] for i in span if (p := found.points[i].position) in swing_at]
        marks.append(str(named[0]) if named else " ")
    first, last = found.points[0], found.points[-1]
    along = (
        f"event {first.position + 1} (round {first.round}) to "
        f"{last.position + 1} (round {last.round})"
    )
    return [
        *rows,
        f"    └{''.join(axis)}",
        f"     {''.join(marks)}".rstrip(),
        f"     {along}; ┴ a round begins"[:width],
    ]


def as_lines(found: Swings, width: int = 80) -> list[str]:
    title = f"The {side_possessive(found.party)} chance to win, event by event"
    lines = [title, *chart(found, width - 1)]
    lines.append("")
    if not found.swings:
        lines.append("No roll moved the chance.")
    lines += [swing_line(n, s, found.party) for n, s in enumerate(found.swings, 1)]
    return lines


def _chance(c: Chance) -> dict[str, Any]:
    figures = {"win": c.p, "low": c.low, "high": c.high}
    return {**{k: round(v, 4) for k, v in figures.items()}, "runs": c.runs}


def as_json(found: Swings, seed: int) -> dict[str, Any]:
    return {
        "party": found.party,
        "seed": seed,
        "points": [
            {"event": p.position + 1, "round": p.round, **_chance(p.chance)} for p in found.points
        ],
        "swings": [
            {
                "event": s.position + 1,
                "round": s.round,
                "roll": s.line,
                "before": _chance(s.before),
                "after": _chance(s.after),
                "change": round(s.change, 4),
                "text": swing_line(n, s, found.party).split(". ", 1)[1],
            }
            for n, s in enumerate(found.swings, 1)
        ],
    }


def as_markdown(found: Swings, name: str, seed: int, md: Callable[[str], str]) -> str:
    """``md``: how user text is escaped (the report's own)."""
    lines = [
        f"# Where {md(name)} turned",
        "",
        f"The {md(side_possessive(found.party))} chance to win, event by event:",
    ]
    lines += ["", "```", *chart(found), "```", ""]
    lines += ["## The swings", ""]
    if not found.swings:
        lines.append("No roll moved the chance.")
    for number, swing in enumerate(found.swings, 1):
        lines.append(
            f"{number}. Round {swing.round}, event {swing.position + 1}: {md(swing.line)} took "
            f"the {md(found.party)} from {whole_percent(swing.before.p)} to "
            f"{whole_percent(swing.after.p)} "
            f"({_interval(swing.before)} before, {_interval(swing.after)} after)"
        )
    lines += ["", "## Event by event", ""]
    lines += ["| Event | Round | Win | 95% interval | Runs |", "|---|---|---|---|---|"]
    for point in found.points:
        c = point.chance
        runs = "exact" if c.exact else f"{c.runs:,}"
        lines.append(
            f"| {point.position + 1} | {point.round} | {whole_percent(c.p)} | "
            f"{whole_percent(c.low)}-{whole_percent(c.high)} | {runs} |"
        )
    lines += ["", f"Forecast seed {seed}: every point played on the same dice.", ""]
    return "\n".join(lines)


def _interval(c: Chance) -> str:
    return "exact" if c.exact else f"{whole_percent(c.low)}-{whole_percent(c.high)}"
