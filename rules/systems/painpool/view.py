"""Pain Pool's side of the app: action forms and commands, previews, tiers, log lines, alerts.

Pure helpers for ``rules.systems.painpool.system``: forms are data, log lines are Span tuples.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import TYPE_CHECKING, Literal

from rules.commands import AddCombatant
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.logline import Line, LogEntry, Span, spans
from rules.system import Action, Landing, Tier

from .events import (
    BonusGranted,
    BonusPassed,
    BoonsDamaged,
    DespairSpent,
    EndScene,
    HopeMode,
    HopeSpent,
    PainPoolRoll,
    PassBonus,
    SceneEnded,
    SpendDespair,
    SpendHope,
    TakeDamage,
    TokensLost,
    changed_roll,
    damage_targets,
    hero,
    open_roll,
    tokens,
)
from .roll import (
    OUTCOME_WORDS,
    Harm,
    Initiator,
    Kind,
    PainPoolRolled,
    PainRoll,
    PoolRoll,
    describe_dominance,
    pain_count,
    pain_parts,
)
from .sheets import (
    POOL_TITLES,
    POOLS,
    YES_NO,
    Boon,
    ChallengeSheet,
    HeroSheet,
    PoolName,
    challenge_form,
    challenge_from_form,
    pain_base,
)
from .table import TIER_BOUNDS as TIER_BOUNDS
from .table import TIER_LABELS as TIER_LABELS

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

DROP = "drop"  # a bonus die given to nobody: the situation that made it has ended

ACTIONS = [
    Action("roll", "Roll the pools", "Power, Precision and Possibility against the Pain Pool"),
    Action("challenge", "Add challenge", "A Pain Pool with health tokens, spiral and templates"),
    Action("damage", "Take damage", "Cross off boon levels for the last roll's damage"),
    Action("despair", "Spend Despair", "GM: re-roll the Pain Pool, keep the higher; +1 Hope"),
    Action("hope", "Spend Hope", "Re-roll hero pools keeping the higher, or raise for favor"),
    Action("scene", "End scene", "Failure levels return, bonus dice end; damage lingers"),
    Action("bonus", "Give or drop a bonus die", "Hand a held bonus die on, or end it"),
]

KINDS: tuple[tuple[Kind, str], ...] = (
    ("attack", "Attack (risks and deals damage)"),
    ("maneuver", "Maneuver (a bonus die)"),
)
INITIATORS: tuple[tuple[Initiator, str], ...] = (
    ("hero", "The hero acts"),
    ("challenge", "The challenge acts"),
)
HARMS: tuple[tuple[Harm, str], ...] = (
    ("damage", "Damage (lingers)"),
    ("failure", "Failure levels (back at scene end)"),
)
BONUS_USES: tuple[tuple[PoolName | Literal[""], str], ...] = (
    ("", "Keep it"),
    *((p, POOL_TITLES[p]) for p in POOLS),
)
HOPE_MODES: tuple[tuple[HopeMode, str], ...] = (
    ("reroll", "Re-roll pools, keep the higher"),
    ("raise", "Raise the roll (favor)"),
)
# The outcome tiers (TIER_LABELS, TIER_BOUNDS) are in table.


def _people(state: Encounter, sheet_type: type) -> list[Combatant]:
    return [c for c in state.combatants if isinstance(c.sheet, sheet_type)]


def _choice(key: str, label: str, choices: tuple[tuple[str, str], ...], default: str) -> Field:
    return Field(key=key, label=label, kind="choice", default=default, choices=choices)


# --- forms -----------------------------------------------------------------------------------


def action_form(state: Encounter, action: str, selected: str | None) -> list[Field]:
    match action:
        case "roll":
            return roll_form(state, selected)
        case "challenge":
            name = Field(key="name", label="Name", kind="text", help="e.g. The Ogre")
            return [name, *(f for f in challenge_form(ChallengeSheet()) if f.key != "lost")]
        case "damage":
            return damage_form(state)
        case "despair":
            open_roll(state)
            if tokens(state).despair < 1:
                raise Rejected("The GM has no Despair token to spend")
            return []
        case "hope":
            open_roll(state)
            if tokens(state).hope < 1:
                raise Rejected("The players' pot has no Hope token")
            rerolls = [
                _choice(f"reroll_{p}", f"Re-roll {POOL_TITLES[p]}", YES_NO, "yes") for p in POOLS
            ]
            return [
                _choice("mode", "Hope", HOPE_MODES, "reroll"),
                *rerolls,
                Field(key="raise_by", label="Raise by (1 favor each)", default="1"),
            ]
        case "scene":
            return [_choice("heal", "Damage heals too", YES_NO, "no")]
        case "bonus":
            return bonus_form(state, selected)
    raise Rejected(f"Pain Pool has no action {action!r}")


def bonus_form(state: Encounter, selected: str | None) -> list[Field]:
    holders = [c for c in _people(state, HeroSheet) if c.sheet.held]
    if not holders:
        raise Rejected("No hero holds a bonus die: a successful maneuver gives one")
    holder = next((h for h in holders if h.id == selected), holders[0])
    dice = tuple(
        (f"{h.id}:{i}", f"{h.name}: {die.name}{' (sticky)' * die.sticky}")
        for h in holders
        for i, die in enumerate(h.sheet.held)
    )
    others = tuple((c.id, c.name) for c in _people(state, HeroSheet))
    return [
        _choice("die", "Bonus die", dice, f"{holder.id}:0"),
        _choice("to", "Give to", ((DROP, "nobody: the situation ended it"), *others), DROP),
    ]


def roll_form(state: Encounter, selected: str | None) -> list[Field]:
    heroes = _people(state, HeroSheet)
    foes = [c for c in _people(state, ChallengeSheet) if not c.sheet.passed]
    if not heroes:
        raise Rejected("A Pain Pool roll needs a hero: add one with a")
    if not foes:
        raise Rejected("A Pain Pool roll needs a challenge with health: s → Add challenge")
    roller = next((h for h in heroes if h.id == selected), heroes[0])
    last = state.last_roll
    foe = next(
        (f for f in foes if isinstance(last, PainPoolRolled) and f.id == last.challenge_id), foes[0]
    )
    sheet: HeroSheet = roller.sheet
    fields = [
        _choice("hero", "Hero", ((roller.id, roller.name),), roller.id),
        _choice("challenge", "Against", tuple((f.id, f.name) for f in foes), foe.id),
        Field(key="intent", label="Intent", kind="text", help="what the hero wants"),
        _choice("kind", "Action", KINDS, "attack"),
        _choice("initiator", "Initiated by", INITIATORS, "hero"),
        _choice("harm", "A loss costs", HARMS, "damage"),
        *_boon_fields(sheet),
    ]
    for index, bonus in enumerate(sheet.held):
        cost = " (sticky: 1 favor)" if bonus.used else " (sticky)" if bonus.sticky else ""
        fields.append(_choice(f"bonus{index}", f"Bonus die: {bonus.name}{cost}", BONUS_USES, ""))
    people = tuple((h.id, h.name) for h in heroes)
    return [
        *fields,
        Field(key="pain_extra", label="Extra pain dice (GM)", default="0"),
        _choice("beneficiary", "Maneuver's bonus die to", people, roller.id),
        _choice("sticky", "Sticky maneuver", YES_NO, "no"),
        Field(key="best", label="Best outcome", kind="text"),
        Field(key="good", label="Good outcome", kind="text"),
        Field(key="worst", label="Worst outcome", kind="text"),
    ]


def _boon_fields(sheet: HeroSheet) -> list[Field]:
    """One boon choice per pool, defaulting to the boons that add the most dice together."""
    usable = {
        pool: sorted(
            (b for b in sheet.boons if pool in b.pools and b.usable), key=lambda b: -b.usable
        )
        for pool in POOLS
    }
    defaults = best_boons(usable)
    fields = []
    for pool in POOLS:
        choices = (("", "no boon"), *((b.name, f"{b.name} +{b.usable}d") for b in usable[pool]))
        label = f"{POOL_TITLES[pool]} boon"
        fields.append(_choice(f"boon_{pool}", label, choices, defaults[pool]))
    return fields


def best_boons(usable: dict[PoolName, list[Boon]]) -> dict[PoolName, str]:
    """The boon names, one per pool and each boon once, that add the most dice in all."""
    options = [[None, *usable[pool]] for pool in POOLS]
    best: tuple[Boon | None, ...] = (None, None, None)
    best_dice = 0
    for combo in product(*options):
        names = [b.name for b in combo if b is not None]
        dice = sum(b.usable for b in combo if b is not None)
        if len(set(names)) == len(names) and dice > best_dice:
            best, best_dice = combo, dice
    return {pool: b.name if b else "" for pool, b in zip(POOLS, best, strict=True)}


def damage_form(state: Encounter) -> list[Field]:
    roll = open_roll(state)
    who = hero(state, roll.hero_id)
    if not roll.hero_damage:
        raise Rejected(f"{who.name} has no damage to take from the last roll")
    fields = []
    cascades = {b.cascade for b in who.sheet.boons if b.cascade}
    for index, (target, room) in enumerate(damage_targets(who.sheet)):
        if target in cascades:
            label = f"Cascade {target} ({room} boon{'s' * (room != 1)}, highest first)"
        else:
            label = f"{target} ({room} level{'s' * (room != 1)} left)"
        fields.append(Field(key=f"hit{index}", label=label, default="0"))
    if not fields:
        raise Rejected(f"{who.name} has no boon levels left to cross off")
    return fields


# --- commands ----------------------------------------------------------------------------------


def action_command(state: Encounter, action: str, values: Mapping[str, str]) -> object:
    match action:
        case "roll":
            return roll_command(state, values)
        case "challenge":
            sheet = challenge_from_form(values, ChallengeSheet())
            return AddCombatant(name=values.get("name", ""), side="challenge", sheet=sheet)
        case "damage":
            return damage_command(state, values)
        case "despair":
            return SpendDespair()
        case "hope":
            fields = {f.key: f for f in action_form(state, "hope", None)}
            pools = tuple(p for p in POOLS if choice_value(values, fields[f"reroll_{p}"]) == "yes")
            mode = choice_value(values, fields["mode"], HOPE_MODES)
            raise_by = int_value(values, "raise_by", "Raise by", 1) if mode == "raise" else 0
            return SpendHope(mode=mode, pools=pools, raise_by=raise_by)
        case "scene":
            return EndScene(heal=values.get("heal") == "yes")
        case "bonus":
            fields = {f.key: f for f in bonus_form(state, None)}
            holder, _, index = choice_value(values, fields["die"]).rpartition(":")
            to = choice_value(values, fields["to"])
            return PassBonus(hero_id=holder, index=int(index), to_id="" if to == DROP else to)
    raise Rejected(f"Pain Pool has no action {action!r}")


def roll_command(state: Encounter, values: Mapping[str, str]) -> PainPoolRoll:
    fields = {f.key: f for f in roll_form(state, values.get("hero"))}
    boons = tuple((p, choice_value(values, fields[f"boon_{p}"])) for p in POOLS)
    bonus: list[tuple[int, PoolName]] = []
    for key, field in fields.items():
        if key.startswith("bonus") and (pool := choice_value(values, field, BONUS_USES)):
            bonus.append((int(key.removeprefix("bonus")), pool))
    return PainPoolRoll(
        hero_id=choice_value(values, fields["hero"]),
        challenge_id=choice_value(values, fields["challenge"]),
        intent=values.get("intent", ""),
        best=values.get("best", ""),
        good=values.get("good", ""),
        worst=values.get("worst", ""),
        kind=choice_value(values, fields["kind"], KINDS),
        initiator=choice_value(values, fields["initiator"], INITIATORS),
        harm=choice_value(values, fields["harm"], HARMS),
        boons=boons,
        bonus=tuple(bonus),
        pain_extra=int_value(values, "pain_extra", "Extra pain dice"),
        beneficiary_id=choice_value(values, fields["beneficiary"]),
        sticky=choice_value(values, fields["sticky"]) == "yes",
    )


def damage_command(state: Encounter, values: Mapping[str, str]) -> TakeDamage:
    who = hero(state, open_roll(state).hero_id)
    hits = tuple(
        (target, int_value(values, f"hit{i}", target))
        for i, (target, _) in enumerate(damage_targets(who.sheet))
    )
    return TakeDamage(hits=tuple(h for h in hits if h[1]))


# --- previews ------------------------------------------------------------------------------------


def preview(state: Encounter, action: str, values: Mapping[str, str]) -> str:
    match action:
        case "roll":
            return roll_preview(state, roll_command(state, values))
        case "damage":
            roll = open_roll(state)
            who = hero(state, roll.hero_id)
            room = sum(r for _, r in damage_targets(who.sheet))
            due = min(roll.hero_damage, room)
            assigned = sum(points for _, points in damage_command(state, values).hits)
            kind = "damage" if roll.harm_taken == "damage" else "failure levels"
            return f"{who.name} takes {due} {kind}: {assigned} of {due} assigned"
        case "despair":
            count = pain_count(open_roll(state).pain.parts)
            return f"Re-roll the Pain Pool ({count}d6), keep the higher total; players gain Hope"
        case "hope":
            return hope_preview(state, values)
        case "scene":
            heal = values.get("heal") == "yes"
            back = "Failure levels return" + (" and damage heals" if heal else "; damage lingers")
            return back + "; held bonus dice end with the scene"
    return ""


def roll_preview(state: Encounter, cmd: PainPoolRoll) -> str:
    who = hero(state, cmd.hero_id)
    foe = state.combatant(cmd.challenge_id)
    sheet: HeroSheet = who.sheet
    parts = [
        f"{POOL_TITLES[pool][:3]} {count}d{size}" for pool, count, size in pool_dice(sheet, cmd)
    ]
    pain = pain_parts(foe.sheet, cmd.initiator, cmd.pain_extra)
    pain_text = f"Pain {pain_count(pain)}d6"
    if len(pain) > 1:
        pain_text += " (" + ", ".join(f"{p.label} {p.value:+d}" for p in pain[1:]) + ")"
    favor = sum(sheet.held[i].favor_cost for i, _ in cmd.bonus if 0 <= i < len(sheet.held))
    cost = f"; {favor} favor for sticky dice" if favor else ""
    return f"{who.name}: {', '.join(parts)} vs {foe.name}: {pain_text}{cost}"


def pool_dice(sheet: HeroSheet, cmd: PainPoolRoll) -> list[tuple[PoolName, int, int]]:
    """Each pool's dice for a roll command: (pool, attribute + boon + bonus dice, size)."""
    chosen = dict(cmd.boons)
    out = []
    for pool in POOLS:
        boon = sheet.boon(chosen.get(pool, ""))
        bonus = sum(1 for _, p in cmd.bonus if p == pool)
        out.append((pool, 1 + (boon.usable if boon else 0) + bonus, sheet.die(pool)))
    return out


def hope_preview(state: Encounter, values: Mapping[str, str]) -> str:
    roll = open_roll(state)
    cmd = action_command(state, "hope", values)
    assert isinstance(cmd, SpendHope)
    who = hero(state, roll.hero_id)
    if cmd.mode == "raise":
        return (
            f"+{cmd.raise_by} to {roll.hero_total}: costs {cmd.raise_by} favor "
            f"({who.name} has {who.sheet.favor}); Pain will dominate"
        )
    names = ", ".join(POOL_TITLES[p] for p in cmd.pools) or "no pool"
    return f"Re-roll {names}; each keeps the higher die"


# --- tiers and landing ---------------------------------------------------------------------------


def tiers(state: Encounter) -> list[Tier]:
    roll = state.last_roll if isinstance(state.last_roll, PainPoolRolled) else None
    maneuver = roll is not None and roll.kind == "maneuver"
    hurt = "failure levels" if roll is not None and roll.harm_taken == "failure" else "damage"
    best = "success: a bonus die" if maneuver else "success: tokens off the Pain Pool"
    worst = f"failure: the hero takes {hurt}"
    texts = (roll.best, roll.good, roll.worst) if roll else ("", "", "")
    effects = (best, "tie: partial, no damage", worst)
    return [
        Tier(label, low, high, f"{effect}" + (f" — {text}" if text else ""))
        for label, (low, high), effect, text in zip(
            TIER_LABELS, TIER_BOUNDS, effects, texts, strict=True
        )
    ]


def landing(state: Encounter) -> Landing | None:
    roll = state.last_roll
    if not isinstance(roll, PainPoolRolled):
        return None
    index = {"success": 0, "tie": 1, "failure": 2}[roll.outcome]
    summary = (
        f"{roll.hero_total} vs {roll.pain.total}: {roll.outcome}, difference "
        f"{roll.difference:+d} · {POOL_TITLES[roll.dominant]} dominates"
    )
    return Landing(tier=index, value=roll.difference, summary=summary)


# --- the log ---------------------------------------------------------------------------------


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


def outcome_lines(state: Encounter, roll: PainPoolRolled) -> list[Line]:
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


def consequence_text(state: Encounter, roll: PainPoolRolled) -> str:
    who = state.name_of(roll.hero_id, "The hero")
    foe = state.name_of(roll.challenge_id, "The challenge")
    if roll.kind == "maneuver" and roll.outcome == "success":
        to = state.name_of(roll.beneficiary_id)
        return f"Maneuver succeeds: a bonus die for {to} (d applies)"
    if roll.tokens_lost:
        plural = "s" * (roll.tokens_lost != 1)
        return f"{foe} loses {roll.tokens_lost} health token{plural} (d applies)"
    if roll.hero_damage:
        adjust = "".join(f", {p.label} {p.value:+d}" for p in roll.damage_parts)
        kind = "damage" if roll.harm_taken == "damage" else "failure levels"
        return (
            f"{who} takes {roll.hero_damage} {kind} ({-roll.difference}{adjust}): "
            "s → Take damage to choose boons"
        )
    return "No damage either way"


def describe_roll(state: Encounter, roll: PainPoolRolled) -> LogEntry:
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


def describe(state: Encounter, event: object) -> LogEntry:
    match event:
        case PainPoolRolled():
            return describe_roll(state, event)
        case DespairSpent() | HopeSpent():
            return describe_reroll(state, event)
        case TokensLost():
            foe: ChallengeSheet = state.combatant(event.challenge_id).sheet
            left = foe.remaining - event.tokens
            line = spans(
                Span(state.name_of(event.challenge_id), "name"),
                f" loses {event.tokens} health token{'s' * (event.tokens != 1)}: {left} left",
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
            holder = state.combatant(event.hero_id)
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


def describe_reroll(state: Encounter, event: DespairSpent | HopeSpent) -> LogEntry:
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


def describe_damage(state: Encounter, event: BoonsDamaged) -> LogEntry:
    kind = "damage" if event.harm == "damage" else "failure levels"
    hits = ", ".join(f"{h.boon} -{h.levels}" for h in event.hits)
    lines = [
        spans(Span(state.name_of(event.hero_id), "name"), f" takes {kind}: ", Span(hits, "tier"))
    ]
    if event.impacted:
        lines.append(spans("  ", Span(event.impacted, "note"), " is now the Impacted Boon"))
    return LogEntry("consequence", tuple(lines))


def describe_scene(state: Encounter, event: SceneEnded) -> LogEntry:
    lines = [spans(Span("— End of scene —", "round"))]
    for who in _people(state, HeroSheet):
        back = [(b.name, b.failure + (b.damage if event.heal else 0)) for b in who.sheet.boons]
        back = [(name, levels) for name, levels in back if levels]
        if back:
            text = ", ".join(f"{name} +{levels}" for name, levels in back)
            lines.append(spans("  ", Span(who.name, "name"), " recovers ", Span(text, "tier")))
    if len(lines) == 1:
        lines.append(spans(Span("  No boon levels to recover", "muted")))
    if event.bonus_ends:
        held = [who.name for who in _people(state, HeroSheet) if who.sheet.held]
        if held:
            lines.append(spans(Span(f"  Bonus dice end: {', '.join(held)}", "muted")))
    return LogEntry("consequence", tuple(lines))


# --- alerts --------------------------------------------------------------------------------------


def alerts(state: Encounter, event: object) -> list[str]:
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
            foe = state.combatant(event.challenge_id)
            if foe.sheet.remaining <= event.tokens:
                out.append(f"{foe.name} has no health tokens left: the challenge is passed!")
        case BoonsDamaged(impacted=impacted) if impacted:
            who = state.name_of(event.hero_id)
            out.append(f"{impacted} is now {who}'s Impacted Boon: GM, start a subplot about it.")
    return out
