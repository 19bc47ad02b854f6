"""How Beer Run reads in the log (the two sorted rows of a comparison side by side), and its
notifications."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.events import ConditionAdded, TurnAdvanced
from rules.logline import Line, LogEntry, Span, spans
from rules.roles.log import Log

from . import decide
from .dice import NO_DIE, Outcome, Winner, compare, pool_text, replaced_text
from .events import (
    CategoriesSet,
    Ceded,
    Contest,
    DamageLanded,
    DiceGained,
    DifficultyWorn,
    GoalGained,
    GoalSet,
    Hit,
    OutcomeDieAdded,
    PoolBuilt,
    RoundRolled,
    SuccessesLost,
)
from .sheet import Goal

if TYPE_CHECKING:
    from .events import BeerRunEncounter

CELL = 3  # a column per pair: two digits and a space, wider when a face has more digits
# Pair marks: the top row's success, the bottom row's; hollow when that success is discarded.
MARKS = {("top", True): "▲", ("top", False): "△", ("bottom", True): "▼", ("bottom", False): "▽"}


def goal_text(state: BeerRunEncounter, goal: Goal | None) -> str:
    if goal is None:
        return ""
    done = "✓ " if goal.gained else ""
    match goal.kind:
        case "helping":
            text = f"help {state.name_of(goal.ally_id, 'someone')} to a d{goal.die}"
        case "situational":
            text = f"gain a d{goal.die}"
        case _:
            text = ""
    if goal.text:
        text = f"{text}: {goal.text}" if text else goal.text
    return done + text


UNSEEN = ""  # in a player's view: a combatant the GM hides (``BeerRun.conceal``)


def side_name(state: BeerRunEncounter, combatant_id: str | None) -> str:
    if combatant_id == UNSEEN:
        return "Someone"
    return "Difficulty" if combatant_id is None else state.name_of(combatant_id)


def contest_lines(
    state: BeerRunEncounter, contest: Contest, names: tuple[str, str] | None = None
) -> list[Line]:
    """A headline, the two sorted rows side by side, each pair's mark, and what is kept."""
    outcome = compare(contest.top, contest.bottom)
    top, bottom = names or (side_name(state, contest.top_id), side_name(state, contest.bottom_id))
    width = max(len(top), len(bottom), 6)
    head = _contest_head(top, bottom, _verb(state, contest), outcome)
    rows: list[Line] = [head]
    faces = [die.face for pair in outcome.pairs for die in (pair.top, pair.bottom)]
    cell = max(CELL, max((len(str(face)) + 1 for face in faces), default=CELL))
    for name, which in ((top, "top"), (bottom, "bottom")):
        cells: list[Span] = [Span("  "), Span(name.ljust(width), "name")]
        for pair in outcome.pairs:
            die = pair.top if which == "top" else pair.bottom
            style = "muted" if die == NO_DIE else "die"
            cells.append(Span(str(die.face).rjust(cell), style))
        cells.append(Span("   " + _dice_sizes(pairs_dice(outcome, which)), "muted"))
        rows.append(tuple(cells))
    marks: list[Span] = [Span("  " + " " * width)]
    for index, pair in enumerate(outcome.pairs):
        if pair.winner == "tie":
            marks.append(Span("=".rjust(cell), "muted"))
        else:
            kept = index in outcome.kept_pairs
            marks.append(Span(MARKS[(pair.winner, kept)].rjust(cell), "success"))
    rows.append(tuple(marks))
    rows.append(_summary(top, bottom, outcome))
    return rows


def pairs_dice(outcome: Outcome, which: str) -> list[tuple[int, str]]:
    return [
        (
            (p.top if which == "top" else p.bottom).size,
            (p.top if which == "top" else p.bottom).label,
        )
        for p in outcome.pairs
    ]


def _dice_sizes(dice: list[tuple[int, str]]) -> str:
    return " ".join(f"d{size}" if label != "no die" else "-" for size, label in dice)


def _verb(state: BeerRunEncounter, contest: Contest) -> str:
    match contest.kind:
        case "helping":
            return f" helps {state.name_of(contest.ally_id)} to a d{contest.target_die} vs "
        case "situational":
            return f" seeks a d{contest.target_die} situation vs "
    return " vs "


def _contest_head(top: str, bottom: str, verb: str, outcome: Outcome) -> Line:
    head: list[Span | str] = [Span(top, "name"), verb, Span(bottom, "name")]
    if outcome.upper == "tie":
        head.append(Span(": every pair ties, nobody scores", "muted"))
    else:
        leader = top if outcome.upper == "top" else bottom
        head += [": ", Span(leader, "name"), Span(" has the upper hand", "success")]
    return spans(*head)


def _summary(top: str, bottom: str, outcome: Outcome) -> Line:
    parts: list[Span | str] = [Span("  ")]
    sides: tuple[tuple[str, Winner], ...] = ((top, "top"), (bottom, "bottom"))
    for name, side in sides:
        if side == "bottom":
            parts.append(" · ")
        got = outcome.successes(side)
        kept = outcome.kept(side)
        parts += [Span(name, "name"), f" {got} success{'es' if got != 1 else ''}, keeps "]
        parts.append(Span(str(kept), "total"))
    return spans(*parts)


def describe_event(state: BeerRunEncounter, event: object) -> LogEntry:
    match event:
        case RoundRolled():
            return _describe_round(state, event)
        case PoolBuilt(pool=pool):
            dice = ", ".join(f"{d.label} d{d.size}" for d in pool.dice)
            against = (
                state.name_of(pool.against)
                if pool.against
                else "difficulty " + ",".join(f"d{s}" for s in pool.difficulty)
            )
            replaced = replaced_text(pool.typed, pool.target_die, pool.asked)
            return LogEntry(
                "roll",
                (
                    spans(
                        Span(state.name_of(pool.combatant_id), "name"),
                        f" pays {pool.cost} Intensity: {dice}",
                        Span(f" ({pool.extra} extra)", "muted") if pool.extra else "",
                        " vs ",
                        Span(against, "name"),
                        Span(f"; {replaced}", "muted") if replaced else "",
                    ),
                ),
            )
        case GoalSet(combatant_id=cid, goal=goal):
            text = goal_text(state, goal) or "a goal"
            return LogEntry("note", (spans(Span(state.name_of(cid), "name"), f" aims to {text}"),))
        case DifficultyWorn(combatant_id=cid, pips=pips, before=before, left=left):
            standing = pool_text(left) if left else "a die at zero"
            return LogEntry(
                "roll",
                (
                    spans(
                        Span(state.name_of(cid), "name"),
                        f" wears the difficulty {pool_text(before)} down by {pips}: {standing}",
                    ),
                ),
            )
        case GoalGained(combatant_id=cid, reason=reason):
            return LogEntry(
                "roll",
                (
                    spans(
                        Span(state.name_of(cid), "name"),
                        Span(" gains its goal", "success"),
                        f" ({reason})",
                    ),
                ),
            )
        case DamageLanded():
            return _describe_damage(state, event)
        case DiceGained():
            what = "situation die" if event.kind == "situation" else "penalty die"
            rolls = f"{event.uses} roll{'s' if event.uses != 1 else ''}"
            return LogEntry(
                "roll",
                (
                    spans(
                        Span(state.name_of(event.combatant_id), "name"),
                        f" gains a d{event.size} {what} for {rolls}",
                    ),
                ),
            )
        case SuccessesLost(combatant_id=cid, targets=targets, pips=pips):
            on = ", ".join(state.name_of(t) for t in targets)
            return LogEntry(
                "consequence",
                (
                    spans(
                        Span(state.name_of(cid), "name"),
                        f" dies before its {pips} kept pip{'s' if pips != 1 else ''} land on ",
                        Span(on, "name"),
                        Span(
                            ": lost (the upper hand lands first; the dead strike no blow)", "tier"
                        ),
                    ),
                ),
            )
        case Ceded(combatant_id=cid, to_id=to):
            return LogEntry(
                "roll",
                (
                    spans(
                        Span(state.name_of(cid), "name"),
                        " cedes to ",
                        Span(state.name_of(to), "name"),
                    ),
                ),
            )
        case OutcomeDieAdded(combatant_id=cid, die=die):
            verb = "gains" if die.kind == "gained" else "is inflicted with"
            return LogEntry(
                "roll",
                (
                    spans(
                        Span(state.name_of(cid), "name"),
                        f" {verb} the outcome die {die.name} d{die.size}",
                    ),
                ),
            )
        case CategoriesSet(categories=cats):
            return LogEntry(
                "note", (spans("Ability categories: ", ", ".join(cats) or "from the sheets"),)
            )
    raise TypeError(f"not a Beer Run event: {event!r}")


def _describe_round(state: BeerRunEncounter, event: RoundRolled) -> LogEntry:
    title = "helping pools" if event.stage == "helping" else "pools"
    lines: list[Line] = [spans(Span(f"Round {event.round}: {title} rolled", "total"))]
    for contest in event.contests:
        lines += contest_lines(state, contest)
    if event.spent:
        used = ", ".join(f"{state.name_of(s.combatant_id)} {s.kind} d{s.size}" for s in event.spent)
        lines.append(spans(Span(f"  spent: {used}", "muted")))
    return LogEntry("roll", tuple(lines))


def _hit_text(hit: Hit, veiled: bool) -> str:
    """A die's pips lost: its size before and after; a Health die a seat sees as a band
    (rules.hp_view) says only the pips it lost."""
    if veiled and hit.ability == "Health":
        return f"{hit.ability} -{hit.pips}"
    return f"{hit.ability} d{hit.before} → d{max(0, hit.before - hit.pips)}"


def _describe_damage(state: BeerRunEncounter, event: DamageLanded) -> LogEntry:
    found = state.find(event.target_id)
    veiled = found is not None and bool(found.hp_shown)
    hits = ", ".join(_hit_text(h, veiled) for h in event.hits)
    dealer = side_name(state, event.dealer_id)
    target = state.name_of(event.target_id)
    pips = sum(h.pips for h in event.hits)
    if not event.hits:
        line = spans(Span(dealer, "name"), "'s successes find every die of ", Span(target, "name"))
        return LogEntry("consequence", (spans(*line, Span(" at zero already", "tier")),))
    return LogEntry(
        "consequence",
        (
            spans(
                Span(dealer, "name"),
                f" lands {pips} pip{'s' if pips != 1 else ''} on ",
                Span(target, "name"),
                ": ",
                Span(hits, "tier"),
            ),
        ),
    )


def alerts(state: BeerRunEncounter, event: object) -> list[str]:
    match event:
        case TurnAdvanced(round=round_) if round_ != state.round:
            left = decide.pending_now(state)
            out = [
                f"Round {round_}: every side states its goal and pays Intensity again "
                "(s: Goal, Build pool), then r rolls all pools at once."
            ]
            if left:
                out.append(
                    f"{len(left)} set(s) of successes from round {state.round} never landed."
                )
            return out
        case GoalGained(combatant_id=cid):
            return [
                f"{state.name_of(cid)} gains its goal: declare a new goal (s: Goal) "
                "or let the other side cede."
            ]
        case ConditionAdded(combatant_id=cid, condition=c) if c.name == decide.DEAD:
            return [f"{state.name_of(cid)}'s Health is at zero: {state.name_of(cid)} dies."]
    return []


class BeerRunLog(Log):
    """Beer Run's log part (``rules.roles.log``)."""

    describe = staticmethod(describe_event)
    alerts = staticmethod(alerts)
