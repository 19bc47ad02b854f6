"""How Pain Pool reads in the log: the three pools and the Pain Pool, die by die, the outcome
and dominance; and its notifications."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.logline import Line, LogEntry, Span, spans
from rules.roles.log import Log

from .events import (
    BonusGranted,
    BonusPassed,
    BoonsDamaged,
    DespairSpent,
    HopeSpent,
    SceneEnded,
    TokensLost,
    changed_roll,
    combatants_with,
    named_challenge,
    named_hero,
    open_roll,
)
from .roll import (
    OUTCOME_WORDS,
    PainPoolRolled,
    PainRoll,
    PoolRoll,
    describe_dominance,
)
from .sheet import (
    POOL_TITLES,
    ChallengeSheet,
    HeroSheet,
    pain_base,
)

if TYPE_CHECKING:
    from .events import PainPoolEncounter

# --- the log ---------------------------------------------------------------------------------


# What the app's keys do next, said after a result: a headless roll (``roll_cli``) has no keys.
APPLY_KEY = " (d applies)"
DAMAGE_KEY = ": s → Take damage to choose boons"
KEY_HINTS = (APPLY_KEY, DAMAGE_KEY)


def _dice_spans(faces: tuple[int, ...], kept: set[int] | None) -> list[Span]:
    """Dice as text, the kept ones in [brackets] (``kept`` holds their positions)."""
    out: list[Span] = []
    for index, face in enumerate(faces):
        if index:
            out.append(Span(" "))
        if kept is not None and index in kept:
            out.append(Span(f"[{face}]", "total"))
        else:
            out.append(Span(str(face), "die"))
    return out


def pool_lines(pool: PoolRoll) -> list[Line]:
    """The pool's dice, then one line per Hope re-roll; the kept die in [brackets]."""
    rolls = (pool.faces, *pool.rerolls)
    kept_in = next(i for i, faces in enumerate(rolls) if max(faces) == pool.kept)
    extras = []
    if pool.boon:
        extras.append(f"{pool.boon} +{len(pool.boon_dice)}d")
    if pool.bonus:
        extras.append("bonus " + ", ".join(pool.bonus))
    lines: list[list[Span]] = []
    for index, faces in enumerate(rolls):
        mark = {faces.index(pool.kept)} if index == kept_in else None
        if index:
            lines.append([Span("    Hope re-roll: ", "muted"), *_dice_spans(faces, mark)])
            continue
        lines.append([Span(f"  {POOL_TITLES[pool.pool]} {pool.count}d{pool.size}: ")])
        lines[0] += _dice_spans(faces, mark)
        if extras:
            lines[0].append(Span(f"  (attribute, {'; '.join(extras)})", "muted"))
    lines[-1].append(Span(f" → {pool.kept}", "total"))
    return [tuple(line) for line in lines]


def pain_lines(name: str, pain: PainRoll) -> list[Line]:
    """The Pain Pool's dice, then one line per Despair re-roll; the kept three in [brackets]."""
    label = ", ".join(
        f"{p.label} {p.value:+d}" if i else f"{p.label} {p.value}" for i, p in enumerate(pain.parts)
    )
    rolls = (pain.dice, *pain.rerolls)
    best = rolls.index(pain.best)
    lines: list[list[Span]] = []
    for index, faces in enumerate(rolls):
        mark = _kept_positions(faces) if index == best else None
        if index:
            lines.append([Span("    Despair re-roll: ", "muted"), *_dice_spans(faces, mark)])
            continue
        head = [Span("  "), Span(name, "name"), Span(f" Pain {len(faces)}d6 ")]
        lines.append([*head, Span(f"({label}): ", "muted"), *_dice_spans(faces, mark)])
    lines[-1].append(Span(f" → {' + '.join(map(str, pain.kept))} = {pain.total}", "total"))
    return [tuple(line) for line in lines]


def _kept_positions(faces: tuple[int, ...]) -> set[int]:
    order = sorted(range(len(faces)), key=lambda i: (-faces[i], i))
    return set(order[:3])


def outcome_lines(state: PainPoolEncounter, roll: PainPoolRolled) -> list[Line]:
    word = OUTCOME_WORDS[roll.outcome]
    style = {"success": "success", "tie": "tier", "failure": "failure"}[roll.outcome]
    text = {"success": roll.best, "tie": roll.good, "failure": roll.worst}[roll.outcome]
    head = spans(
        Span(f"{roll.hero_total} vs {roll.pain.total} ", "total"),
        Span(f"{roll.outcome.upper()} ({word} outcome)", style),
        Span(f" difference {roll.difference:+d}"),
    )
    lines = [head]
    if text:
        lines.append(spans(Span(f"  {word}: "), Span(text, "note")))
    lines.append(spans(Span(f"  {describe_dominance(roll.dominant)}", "tier")))
    lines.append(spans(Span(f"  {consequence_text(state, roll)}", "muted")))
    return lines


def consequence_text(state: PainPoolEncounter, roll: PainPoolRolled) -> str:
    who = state.name_of(roll.hero_id, "The hero")
    foe = state.name_of(roll.challenge_id, "The challenge")
    if roll.kind == "maneuver" and roll.outcome == "success":
        to = state.name_of(roll.beneficiary_id)
        return f"Maneuver succeeds: a bonus die for {to}{APPLY_KEY}"
    if roll.tokens_lost:
        plural = "s" * (roll.tokens_lost != 1)
        return f"{foe} loses {roll.tokens_lost} health token{plural}{APPLY_KEY}"
    if roll.hero_damage:
        adjust = "".join(f", {p.label} {p.value:+d}" for p in roll.damage_parts)
        kind = "damage" if roll.harm_taken == "damage" else "failure levels"
        return f"{who} takes {roll.hero_damage} {kind} ({-roll.difference}{adjust}){DAMAGE_KEY}"
    return "No damage either way"


def describe_roll(state: PainPoolEncounter, roll: PainPoolRolled) -> LogEntry:
    who = state.name_of(roll.hero_id, "Hero")
    foe = state.name_of(roll.challenge_id, "Challenge")
    kind = "maneuver" if roll.kind == "maneuver" else "attack"
    by = "" if roll.initiator == "hero" else f", {foe} initiates"
    head = [Span(who, "name"), Span(" vs "), Span(foe, "name"), Span(f" ({kind}{by})", "muted")]
    if roll.intent:
        head += [Span(" intent: "), Span(roll.intent, "note")]
    lines: list[Line] = [tuple(head)]
    for pool in roll.pools:
        lines += pool_lines(pool)
    lines += pain_lines(foe, roll.pain)
    if roll.favor_spent:
        lines.append(spans(Span(f"  {roll.favor_spent} favor spent on sticky bonus dice")))
    lines += outcome_lines(state, roll)
    if roll.despair_given:
        lines.append(spans(Span("  The GM gains a Despair token", "failure")))
    return LogEntry("roll", tuple(lines))


def describe(state: PainPoolEncounter, event: object) -> LogEntry:
    match event:
        case PainPoolRolled():
            return describe_roll(state, event)
        case DespairSpent() | HopeSpent():
            return describe_reroll(state, event)
        case TokensLost():
            challenge = named_challenge(state, event.challenge_id)
            foe: ChallengeSheet = challenge.sheet
            # A seat that sees its tokens as a band (rules.hp_view) is not told how many left.
            left = "" if challenge.hp_shown else f": {foe.remaining - event.tokens} left"
            line = spans(
                Span(state.name_of(event.challenge_id), "name"),
                f" loses {event.tokens} health token{'s' * (event.tokens != 1)}{left}",
            )
            return LogEntry("consequence", (line, *_spiral_lines(foe, event.tokens)))
        case BonusGranted():
            sticky = " (sticky)" if event.sticky else ""
            line = spans(
                Span(state.name_of(event.hero_id), "name"),
                " holds a bonus die from ",
                Span(event.name, "note"),
                sticky,
            )
            return LogEntry("consequence", (line,))
        case BoonsDamaged():
            return describe_damage(state, event)
        case SceneEnded():
            return describe_scene(state, event)
        case BonusPassed():
            holder = named_hero(state, event.hero_id)
            die = holder.sheet.held[event.index]
            where = f" gives it to {state.name_of(event.to_id)}" if event.to_id else " drops it"
            line = spans(Span(holder.name, "name"), " holds ", Span(die.name, "note"), f":{where}")
            return LogEntry("consequence", (line,))
    raise TypeError(f"not a Pain Pool event: {event!r}")


def _spiral_lines(foe: ChallengeSheet, lost: int) -> list[Line]:
    after = ChallengeSheet(
        pool=foe.pool,
        tokens=foe.tokens,
        lost=foe.lost + lost,
        spiral=foe.spiral,
        templates=foe.templates,
    )
    lines = []
    if after.spiral_loss > foe.spiral_loss:
        dice = pain_base(after)
        lines.append(spans(Span(f"  Death spiral: the Pain Pool shrinks to {dice}d6", "tier")))
    if after.passed:
        lines.append(spans(Span("  The challenge is passed!", "success")))
    return lines


def describe_reroll(state: PainPoolEncounter, event: DespairSpent | HopeSpent) -> LogEntry:
    roll = open_roll(state)
    changed = changed_roll(roll, event)
    if isinstance(event, DespairSpent):
        head = spans(Span("GM spends Despair", "failure"), ": the players gain a Hope token")
        lines = [head, *pain_lines(state.name_of(roll.challenge_id), changed.pain)]
    elif event.raised:
        who = Span(state.name_of(event.hero_id), "name")
        lines = [spans(who, f" spends Hope: +{event.raised} to the roll for {event.raised} favor")]
    else:
        who = Span(state.name_of(event.hero_id), "name")
        rerolled = {r.pool for r in event.rerolls}
        head = spans(who, " spends Hope: re-roll, each pool keeps the higher")
        lines = [head]
        for pool in changed.pools:
            lines += pool_lines(pool) if pool.pool in rerolled else []
    lines += outcome_lines(state, changed)
    if changed.dominant == "pain" and not roll.despair_given:
        lines.append(spans(Span("  The GM gains a Despair token", "failure")))
    return LogEntry("roll", tuple(lines))


def describe_damage(state: PainPoolEncounter, event: BoonsDamaged) -> LogEntry:
    kind = "damage" if event.harm == "damage" else "failure levels"
    hits = ", ".join(f"{h.boon} -{h.levels}" for h in event.hits)
    lines = [
        spans(Span(state.name_of(event.hero_id), "name"), f" takes {kind}: ", Span(hits, "tier"))
    ]
    if event.impacted:
        lines.append(spans("  ", Span(event.impacted, "note"), " is now the Impacted Boon"))
    return LogEntry("consequence", tuple(lines))


def describe_scene(state: PainPoolEncounter, event: SceneEnded) -> LogEntry:
    lines = [spans(Span("— End of scene —", "round"))]
    for who in combatants_with(state, HeroSheet):
        back = [(b.name, b.failure + (b.damage if event.heal else 0)) for b in who.sheet.boons]
        back = [(name, levels) for name, levels in back if levels]
        if back:
            text = ", ".join(f"{name} +{levels}" for name, levels in back)
            lines.append(spans("  ", Span(who.name, "name"), " recovers ", Span(text, "tier")))
    if len(lines) == 1:
        lines.append(spans(Span("  No boon levels to recover", "muted")))
    if event.bonus_ends:
        held = [who.name for who in combatants_with(state, HeroSheet) if who.sheet.held]
        if held:
            lines.append(spans(Span(f"  Bonus dice end: {', '.join(held)}", "muted")))
    return LogEntry("consequence", tuple(lines))


# --- alerts --------------------------------------------------------------------------------------


def alerts(state: PainPoolEncounter, event: object) -> list[str]:
    """Notifications for an event, worded from the state before it."""
    out = []
    match event:
        case PainPoolRolled(despair_given=True):
            out.append("Pain dominates: the GM gains a Despair token.")
        case DespairSpent() | HopeSpent():
            roll = open_roll(state)
            if isinstance(event, DespairSpent):
                out.append("Despair spent: the players gain a Hope token.")
            if not roll.despair_given and changed_roll(roll, event).dominant == "pain":
                out.append("Pain dominates: the GM gains a Despair token.")
        case TokensLost():
            foe = named_challenge(state, event.challenge_id)
            if foe.sheet.remaining <= event.tokens:
                out.append(f"{foe.name} has no health tokens left: the challenge is passed!")
        case BoonsDamaged(impacted=impacted) if impacted:
            who = state.name_of(event.hero_id)
            out.append(f"{impacted} is now {who}'s Impacted Boon: GM, start a subplot about it.")
    return out


class PainPoolLog(Log):
    """Pain Pool's log part (``rules.roles.log``)."""

    describe = staticmethod(describe)
    alerts = staticmethod(alerts)
