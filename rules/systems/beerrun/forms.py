"""Beer Run's dialogs: the fields of each action, the command a filled form gives, and the line
under the dialog as the user types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.roles.dialogs import Dialogs

from . import decide
from .dice import MAX_REPLACED, parse_die, parse_pool, pool_text, replaced_text
from .events import (
    AddOutcomeDie,
    BuildPool,
    Cede,
    DamageLanded,
    LandDamage,
    Pool,
    RollRound,
    SetCategories,
    SetGoal,
)
from .log import goal_text
from .sheet import Goal, GoalKind, OutcomeDie

if TYPE_CHECKING:
    from .events import BeerRunCombatant, BeerRunEncounter

DIFFICULTY = "difficulty"
GOAL_KINDS: tuple[tuple[str, str], ...] = (
    ("conflict", "Conflict goal"),
    ("helping", "Helping goal (a die for an ally)"),
    ("situational", "Situational goal (a die for later)"),
)
OUTCOME_KINDS: tuple[tuple[str, str], ...] = (
    ("gained", "Gained (a new ability)"),
    ("inflicted", "Inflicted (rolled against them)"),
)


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _split(text: str) -> tuple[tuple[str, int], ...] | None:
    """``"Health 2, Fencing 1"`` -> (("Health", 2), ("Fencing", 1)); blank: None."""
    out = []
    for part in _names(text):
        name, _, pips = part.rpartition(" ")
        if not name or not pips.isdigit():
            raise Rejected(f"Split the pips like Health 2, Fencing 1; {part!r} has no number")
        out.append((name.strip(), int(pips)))
    return tuple(out) or None


def action_form(state: BeerRunEncounter, action: str, selected: str | None) -> list[Field]:
    who = state.find(selected) or (state.combatants[0] if state.combatants else None)
    match action:
        case "roll":
            return []
        case "categories":
            return [
                Field(
                    key="categories",
                    label="Categories",
                    kind="text",
                    default=", ".join(decide.categories(state)),
                    help="e.g. Body, Mind, Social",
                )
            ]
        case "damage":
            return _damage_form(state)
    if who is None:
        raise Rejected("Add the sides of the conflict first (a)")
    people = tuple((c.id, c.name) for c in state.combatants)
    actor = Field(key="who", label="Who", kind="choice", default=who.id, choices=people)
    match action:
        case "goal":
            return _goal_form(state, who, actor, people)
        case "pool":
            return _pool_form(state, who, actor, people)
        case "cede":
            return _cede_form(state, who, actor, people)
        case "outcome":
            return [
                actor,
                Field(
                    key="kind",
                    label="Kind",
                    kind="choice",
                    default="gained",
                    choices=OUTCOME_KINDS,
                ),
                Field(key="name", label="Die name", kind="text", help="e.g. Sword"),
                Field(key="die", label="Die", kind="text", default="d6"),
                Field(key="category", label="Category (gained)", kind="text", help="e.g. Body"),
            ]
    raise Rejected(f"Beer Run has no action {action!r}")


def _goal_form(
    state: BeerRunEncounter,
    who: BeerRunCombatant,
    actor: Field,
    people: tuple[tuple[str, str], ...],
) -> list[Field]:
    goal = decide.sheet_of(who).goal or Goal()
    return [
        actor,
        Field(key="kind", label="Goal", kind="choice", default=goal.kind, choices=GOAL_KINDS),
        Field(key="text", label="Aim", kind="text", default=goal.text, help="e.g. Escape"),
        Field(
            key="ally",
            label="Ally (helping)",
            kind="choice",
            default=goal.ally_id or "",
            choices=(("", "nobody"), *people),
        ),
        Field(
            key="die",
            label="Target die",
            kind="text",
            default=f"d{goal.die}" if goal.die else "",
            help="helping/situational: e.g. d8",
        ),
    ]


def _pool_form(
    state: BeerRunEncounter,
    who: BeerRunCombatant,
    actor: Field,
    people: tuple[tuple[str, str], ...],
) -> list[Field]:
    others = [c for c in state.combatants if c.id != who.id]
    opponent = next((c for c in others if c.side != who.side), others[0] if others else None)
    return [
        actor,
        Field(
            key="dice",
            label="Dice",
            kind="text",
            help="blank: best die per category; +Wits adds extras",
        ),
        Field(
            key="against",
            label="Against",
            kind="choice",
            default=opponent.id if opponent else DIFFICULTY,
            choices=(*people, (DIFFICULTY, "a difficulty pool")),
        ),
        Field(
            key="difficulty",
            label="Difficulty dice",
            kind="text",
            default=worn_difficulty(state, who.id),
            help="e.g. d10,d10,d4 or 2d10+d4; as worn down so far",
        ),
        Field(
            key="replace",
            label="Dice replaced",
            default=str(MAX_REPLACED),
            help="helping/situational: 0-3 difficulty dice become the target die",
        ),
        Field(
            key="penalty_to",
            label="Failed help's penalty",
            kind="choice",
            default="helper",
            choices=PENALTY_TO,
            help="helping: who rolls a failure's penalty die",
        ),
    ]


# *Helping Goal*: "the character in question" of a failure: the helper, or the one helped.
PENALTY_TO: tuple[tuple[str, str], ...] = (("helper", "the helper"), ("helped", "the one helped"))


def worn_difficulty(state: BeerRunEncounter, cid: str) -> str:
    """The static difficulty this actor has worn down so far ("" when none)."""
    worn = next((w for w in decide.br_state(state).worn if w.combatant_id == cid), None)
    return pool_text(worn.dice) if worn else ""


def _cede_form(
    state: BeerRunEncounter,
    who: BeerRunCombatant,
    actor: Field,
    people: tuple[tuple[str, str], ...],
) -> list[Field]:
    winner = _last_opponent(state, who.id)
    return [
        actor,
        Field(key="to", label="Cedes to", kind="choice", default=winner, choices=people),
        Field(
            key="ability",
            label="Ability to zero",
            kind="text",
            help="blank unless the winner's goal takes one",
        ),
    ]


def _last_opponent(state: BeerRunEncounter, cid: str) -> str:
    found = decide.last_opponent(state, cid)
    if found is not None:
        return found
    other = next((c for c in state.combatants if c.id != cid), None)
    return other.id if other else cid


def _damage_form(state: BeerRunEncounter) -> list[Field]:
    waiting = decide.pending_now(state)
    if not waiting:
        raise decide.nothing_to_land(state)
    item = waiting[0]
    target = state.combatant(item.target_id)
    name, pips = decide.default_split(target, item.pips)[0]
    return [
        Field(
            key="split",
            label="Pips",
            kind="text",
            default=f"{name} {pips}",
            help="split like Health 2, Fencing 1",
        )
    ]


def action_command(state: BeerRunEncounter, action: str, values: Mapping[str, str]) -> object:
    fields = {f.key: f for f in action_form(state, action, values.get("who"))}
    match action:
        case "roll":
            return RollRound()
        case "categories":
            cats = tuple(dict.fromkeys(" ".join(c.split()) for c in _names(values["categories"])))
            return SetCategories(cats)
        case "damage":
            return LandDamage(split=_split(values.get("split", "")))
        case "goal":
            return _goal_command(values, fields)
        case "pool":
            return _pool_command(values, fields)
        case "cede":
            return Cede(
                combatant_id=choice_value(values, fields["who"]),
                to_id=choice_value(values, fields["to"]),
                ability=values.get("ability", "").strip() or None,
            )
        case "outcome":
            name = " ".join(values.get("name", "").split())
            if not name:
                raise Rejected("An outcome die needs a name, like Sword")
            kind = choice_value(values, fields["kind"])
            return AddOutcomeDie(
                combatant_id=choice_value(values, fields["who"]),
                die=OutcomeDie(name, parse_die(values.get("die", ""), "The die"), kind),  # type: ignore[arg-type]  # kind: a choice of OUTCOME_KINDS
                category=" ".join(values.get("category", "").split()),
            )
    raise Rejected(f"Beer Run has no action {action!r}")


def _goal_command(values: Mapping[str, str], fields: dict[str, Field]) -> SetGoal:
    kind: GoalKind = choice_value(values, fields["kind"])  # type: ignore[assignment]  # a choice of the goal kinds
    ally = choice_value(values, fields["ally"]) or None
    die = 0
    if kind != "conflict":
        die = parse_die(values.get("die", ""), "The target die")
    if kind == "helping" and ally is None:
        raise Rejected("A helping goal needs the ally who gets the die")
    goal = Goal(
        kind=kind,
        text=" ".join(values.get("text", "").split()),
        ally_id=ally if kind == "helping" else None,
        die=die,
    )
    return SetGoal(combatant_id=choice_value(values, fields["who"]), goal=goal)


def _pool_command(values: Mapping[str, str], fields: dict[str, Field]) -> BuildPool:
    text = values.get("dice", "").strip()
    base: tuple[str, ...] | None = None
    extra: tuple[str, ...] = ()
    if text.startswith("+"):
        extra = _names(text[1:].replace("+", ","))
    elif text:
        base = _names(text)
    against = choice_value(values, fields["against"])
    return BuildPool(
        combatant_id=choice_value(values, fields["who"]),
        base=base,
        extra=extra,
        against=None if against == DIFFICULTY else against,
        difficulty=parse_pool(values.get("difficulty", ""), "The difficulty pool"),
        replace=int_value(values, "replace", "Dice replaced", MAX_REPLACED),
        penalty_to_ally=choice_value(values, fields["penalty_to"]) == "helped",
    )


def preview(state: BeerRunEncounter, action: str, values: Mapping[str, str]) -> str:
    try:
        command = action_command(state, action, values)
        match command:
            case BuildPool():
                return _pool_preview(state, command)
            case LandDamage():
                return _damage_preview(state, command)
            case RollRound():
                return _roll_preview(state)
            case SetGoal():
                who = state.name_of(command.combatant_id)
                return f"{who} aims to {goal_text(state, command.goal) or 'win'}"
            case Cede():
                winner = state.combatant(command.to_id)
                goal = goal_text(state, decide.sheet_of(winner).goal) or "its goal"
                return f"{state.name_of(command.combatant_id)} cedes: {winner.name} gains {goal}"
    except Rejected as exc:
        return exc.message
    return ""


def _pool_preview(state: BeerRunEncounter, cmd: BuildPool) -> str:
    who = state.combatant(cmd.combatant_id)
    plan = decide.plan_pool(state, who, cmd.base, cmd.extra)
    dice = " ".join(f"{a.name} d{a.size}" for a in plan.base)
    if plan.extra:
        dice += " + " + " ".join(f"{a.name} d{a.size}" for a in plan.extra)
    sheet = decide.sheet_of(who)
    text = f"{dice}: {plan.cost} Intensity"
    if plan.extra:
        text += f" (1 + {plan.cost - 1} for {len(plan.extra)} extra)"
    if plan.cost > sheet.intensity:
        text += f"; {who.name} has only {sheet.intensity}: too dear"
    else:
        text += f"; {who.name} has {sheet.intensity}, leaves {sheet.intensity - plan.cost}"
    if plan.missing:
        text += f". No {', '.join(plan.missing)} die: rolls with less"
    if sheet.situation:
        text += ". Adds situation " + " ".join(f"d{d.size}" for d in sheet.situation)
    if plan.cost <= sheet.intensity:
        try:
            pool = decide.build_pool(state, cmd)
        except Rejected as exc:
            return f"{text}. {exc.message}"
        text += ". " + _opposition(state, pool)
    return text


def _opposition(state: BeerRunEncounter, pool: Pool) -> str:
    if pool.against is not None:
        return f"Against {state.name_of(pool.against)}"
    dice = pool_text(pool.difficulty)
    replaced = replaced_text(pool.typed, pool.target_die, pool.asked)
    replaced = f"; {replaced}" if replaced else ""
    if pool.kind == "helping":
        return f"Helping {state.name_of(pool.ally_id)}: against {dice}, rolled first{replaced}"
    if pool.kind == "situational":
        return f"Situational: against {dice}{replaced}"
    return f"Against the difficulty {dice}"


def _damage_preview(state: BeerRunEncounter, cmd: LandDamage) -> str:
    item = decide.pending_now(state)[0]
    events = decide.land_damage(state, cmd.split)
    landed = events[0]
    assert isinstance(landed, DamageLanded)
    hits = ", ".join(f"{h.ability} d{h.before} → d{max(0, h.before - h.pips)}" for h in landed.hits)
    who = state.name_of(item.dealer_id, "The difficulty")
    upper = " (upper hand)" if item.upper else ""
    return f"{who}{upper} lands {item.pips} on {state.name_of(item.target_id)}: {hits}"


def _roll_preview(state: BeerRunEncounter) -> str:
    pools = decide.round_pools(state)
    if not pools:
        return f"Nobody has paid for a pool in round {state.round}"
    parts = []
    for pool in pools:
        name = state.name_of(pool.combatant_id)
        if pool.kind == "helping":
            parts.append(f"{name} helps {state.name_of(pool.ally_id)} (rolls first)")
        else:
            parts.append(f"{name} vs {state.name_of(pool.against, 'difficulty')}")
    return f"Round {state.round}: " + "; ".join(parts)


class BeerRunDialogs(Dialogs):
    """Beer Run's dialogs part (``rules.roles.dialogs``); its list of actions is the
    system's."""

    action_form = staticmethod(action_form)
    action_command = staticmethod(action_command)
    preview = staticmethod(preview)
