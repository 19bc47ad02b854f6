"""Generic d20's tables, shared by its odds, its headless commands and the system: the
abilities, what the SRD's conditions do to rolls, the tiers of each roll; and damage in dice
notation (``rules.notation``): read, doubled on a critical, rolled, worked out exactly and
adjusted by resistance, vulnerability or immunity. No msgspec."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.notation.exact import Budget, Distribution, distribution
from rules.notation.parse import parse
from rules.notation.roll import Piece, roll
from rules.notation.tree import Binary, Dice, Group, Node, Paren, Unary, Value, notation

from .damage_parts import Part, parts_of, read_parts, written
from .damage_types import check_type

Band = tuple[str, int | None, int | None, str]  # label, low, high, effect

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
ABILITY_NAMES = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}
MODES = ("normal", "advantage", "disadvantage")
MODE_OF = {"normal": 0, "advantage": 1, "disadvantage": -1}
MODE_WORD = {0: "", 1: "advantage", -1: "disadvantage"}
CRIT = 20  # a natural 20 is a critical hit (a sheet's range may start lower)
DEATH_SAVES = 3  # successes to stabilise, failures to die
DEATH_DC = 10
CONCENTRATION_DC = 10  # or half the damage taken, whichever is higher
MAX_LEGENDARY = 5

# The SRD 5.1's conditions (Appendix PH-A), and what the tracker applies of them to rolls.
CONDITIONS = (
    "blinded",
    "charmed",
    "deafened",
    "exhaustion",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
)
# The bearer's attack rolls have disadvantage / advantage.
ATTACKS_AT_DISADVANTAGE = frozenset({"blinded", "frightened", "poisoned", "prone", "restrained"})
ATTACKS_AT_ADVANTAGE = frozenset({"invisible"})
# Attack rolls against the bearer have advantage / disadvantage.
ATTACKED_WITH_ADVANTAGE = frozenset(
    {"blinded", "paralyzed", "petrified", "restrained", "stunned", "unconscious"}
)
ATTACKED_WITH_DISADVANTAGE = frozenset({"invisible"})
# Prone: attacks against it within 5 feet have advantage, from farther disadvantage.
PRONE = "prone"
UNCONSCIOUS, PETRIFIED = "unconscious", "petrified"  # unconscious includes prone
# A hit from within 5 feet on the bearer is a critical hit.
CRITICAL_WHEN_HIT = frozenset({"paralyzed", "unconscious"})
# The bearer automatically fails Strength and Dexterity saving throws.
FAILS_STR_DEX = frozenset({"paralyzed", "petrified", "stunned", "unconscious"})
# Restrained: disadvantage on Dexterity saving throws.
DEX_SAVES_AT_DISADVANTAGE = frozenset({"restrained"})
# The bearer's speed is 0: it cannot stand up from prone.
SPEED_0 = frozenset({"grappled", "restrained"})
# The bearer can take no actions or reactions.
INCAPACITATING = frozenset({"incapacitated", "paralyzed", "petrified", "stunned", "unconscious"})

# The tiers of an attack, on the margin (total - AC); a critical is a natural roll, not a
# band of margins (``lands_in`` says so).
ATTACK_TIERS: tuple[Band, ...] = (
    ("miss", None, -1, "no damage"),
    ("hit", 0, None, "the damage"),
    ("critical", None, None, "the damage dice doubled"),
)
# A saving throw's tiers, on the margin (total - DC).
SAVE_TIERS: tuple[Band, ...] = (
    ("fail", None, -1, "the full effect"),
    ("save", 0, None, "half or none, as the effect says"),
)
# A death saving throw's tiers, on the natural d20.
DEATH_TIERS: tuple[Band, ...] = (
    ("two failures", None, 1, "a natural 1: two failures"),
    ("failure", 2, 9, "one failure"),
    ("success", 10, 19, "one success"),
    ("revived", 20, None, "a natural 20: back with 1 hit point"),
)


# --- damage in dice notation -------------------------------------------------------------


def split_damage(text: str, critical: bool = True, typed: bool = True) -> tuple[str, str]:
    """ "1d8+3 slashing" as its notation ("1d8+3") and its type ("slashing"; "" for none);
    several types (``parts``) as their whole text written back and no one type:
    ("1d8+3 slashing + 2d6 fire", ""). ``Rejected`` in one line when the dice cannot be read
    or worked out exactly, nor (when it can be ``critical``, an attack's) the dice doubled,
    or (``typed``: just typed, not kept from a save) a type is a slip for the SRD's
    ("slashng")."""
    found = read_parts(text)
    if typed:  # a save's own types stay as it kept them: nothing it holds is refused later
        for part in found:
            check_type(part.kind)
    checked = tuple(Part(_checked_dice(part.dice, critical), part.kind) for part in found)
    if len(checked) == 1:
        return checked[0]
    for doubling in (False, True) if critical else (False,):  # their sum too
        worked_out(written(checked), doubling)
    return written(checked), ""


def _checked_dice(dice: str, critical: bool) -> str:
    """One part's dice as notation, refused when they cannot be read or worked out."""
    tree(dice)  # refuses what cannot be read
    worked_out(dice, False)  # or worked out exactly
    if critical:  # and an attack's critical (the dice doubled): its odds are shown too
        try:
            worked_out(dice, True)
        except Rejected as refused:
            raise Rejected(
                f"a critical hit doubles the dice to {critical_notation(dice)}: {refused.message}"
            ) from None
    return notation(tree(dice))


@lru_cache(maxsize=256)
def tree(text: str) -> Node:
    """The notation read once (a forecast rolls the same few damages many times)."""
    return parse(text)


def doubled(node: Node) -> Node:
    """The tree with its damage dice rolled twice: a critical hit's damage. Dice whose
    operations treat each die alone (explode, reroll, a minimum, a count) are twice as many
    (``2d6`` is ``4d6``, ``1d6e6`` is ``2d6e6``: the same odds); dice kept or dropped by rank
    (``kh``, ``pl``...), or rerolled and added once (``ra``), and a set with an operation are
    rolled twice, each group kept on its own (``4d6kh3`` is ``4d6kh3+4d6kh3``, never
    ``8d6kh3``, which keeps 3 of 8)."""
    match node:
        case Dice() if _each_die_alone(node):
            return node._replace(quantity=node.quantity * 2)
        case Dice() | Group(ops=(_, *_)):
            return Binary("+", node, node)
        case Group(items=items):  # a set's items are apart (commas): a sum needs no brackets
            return node._replace(items=tuple(doubled(item) for item in items))
        case Paren(inner=inner):
            return node._replace(inner=doubled(inner))
        case Unary(operand=operand):
            return node._replace(operand=_bracketed(operand, safe=False))
        case Binary(op=op, left=left, right=right):
            return node._replace(
                left=_bracketed(left, safe=op in ("+", "-")),
                right=_bracketed(right, safe=op == "+"),
            )
    return node


def _each_die_alone(node: Dice) -> bool:
    """Whether every operation on the dice looks at each die alone (none ranks them, none
    stops after one): then twice the dice roll as the dice twice do."""
    return all(
        op.name != "ra" and not any(selector.ranks for selector in op.selectors) for op in node.ops
    )


def _bracketed(node: Node, *, safe: bool) -> Node:
    """``node`` doubled, in brackets when it became a sum where a sum would bind wrongly
    (``10-4d6kh3`` is ``10-(4d6kh3+4d6kh3)``, ``2*4d6kh3`` is ``2*(4d6kh3+4d6kh3)``)."""
    twice = doubled(node)
    if safe or isinstance(node, Binary) or not isinstance(twice, Binary):
        return twice
    return Paren(twice)


def worked_out(text: str, critical: bool) -> Distribution:
    """The exact distribution of the damage rolled (before any resistance), never below 0;
    several types (``parts``) added up; ``Rejected`` (``TooBig``) when it cannot be worked
    out, refused again at once."""
    return adjusted_worked_out(text, critical, "")


def adjusted_worked_out(
    text: str, critical: bool, modifiers: str | tuple[str, ...], half: bool = False
) -> Distribution:
    """The exact distribution of the damage dealt: each part (``parts``) rolled on its own,
    halved by a save (``half``) and adjusted by its own modifier (one for all when
    ``modifiers`` is a word), then the parts added up."""
    found = _adjusted(text, critical, modifiers, half)
    if isinstance(found, Distribution):
        return found
    kind, message = found
    raise kind(message)  # a new one each time: a kept exception would grow its traceback


@lru_cache(maxsize=256)
def _adjusted(
    text: str, critical: bool, modifiers: str | tuple[str, ...], half: bool
) -> Distribution | tuple[type[Rejected], str]:
    """The distribution, or the refusal: a damage too big to work out is asked for again on
    every redraw of what shows its odds, and each try spends the whole budget."""
    try:
        dices = tuple(part.dice for part in read_parts(text))
        each = (modifiers,) * len(dices) if isinstance(modifiers, str) else modifiers
        if len(each) != len(dices):
            raise Rejected(f"{len(each)} damage modifiers for {len(dices)} damage types")
        budget = Budget()
        total = Distribution({0: 1}, 1)
        for dice, modifier in zip(dices, each, strict=True):
            found = _part_worked_out(dice, critical)
            if not isinstance(found, Distribution):
                return found
            part = found.mapped(_adjuster(modifier, half))
            total = _added(total, part, budget) if len(dices) > 1 else part
    except Rejected as refused:
        return type(refused), refused.message
    return total


def _adjuster(modifier: str, half: bool) -> Callable[[Value], Value]:
    return lambda value: adjusted(int(value), modifier, half)


def _added(a: Distribution, b: Distribution, budget: Budget) -> Distribution:
    """The sum of two independent damages, paid for from ``budget`` as dice are."""
    budget.spend(len(a.weights) * len(b.weights))
    out: dict[Value, int] = {}
    for x, w in a.weights.items():
        for y, v in b.weights.items():
            out[x + y] = out.get(x + y, 0) + w * v
    return Distribution(out, a.denominator * b.denominator)


@lru_cache(maxsize=256)
def _part_worked_out(text: str, critical: bool) -> Distribution | tuple[type[Rejected], str]:
    """One part's distribution (never below 0), or the refusal."""
    node = tree(text)
    try:
        found = distribution(doubled(node) if critical else node)
    except Rejected as refused:
        return type(refused), refused.message
    return found.mapped(lambda v: max(int(v), 0))


def critical_notation(text: str) -> str:
    """The notation a damage rolls on a critical hit (its dice doubled)."""
    return _rolled_tree(text, True)[1]


@lru_cache(maxsize=256)
def _rolled_tree(text: str, critical: bool) -> tuple[Node, str]:
    """The tree a damage rolls (doubled on a critical) and its notation, worked out once."""
    node = doubled(tree(text)) if critical else tree(text)
    return node, notation(node)


def rolled(text: str, critical: bool, dice: DiceSource) -> tuple[int, tuple[Piece, ...], str]:
    """The damage rolled: its total (never below 0), the dice as they fell, and the notation
    rolled (doubled on a critical); several types (``parts``) added up."""
    totals, pieces, written_text = rolled_parts(text, "", critical, dice)
    return sum(totals), pieces, written_text


def rolled_parts(
    text: str, kind: str, critical: bool, dice: DiceSource
) -> tuple[tuple[int, ...], tuple[Piece, ...], str]:
    """Each part of a damage rolled (``parts.parts_of(text, kind)``): their totals (each
    never below 0), the dice as they fell (each part's followed by its total and type when
    there are several), and the notation rolled (doubled on a critical), with the types of
    several."""
    found = parts_of(text, kind)
    totals: list[int] = []
    pieces: list[Piece] = []
    notations: list[Part] = []
    for part in found:
        node, part_notation = _rolled_tree(part.dice, critical)
        result = roll(node, dice)
        total = max(int(result.value), 0)
        totals.append(total)
        if len(found) == 1:
            return (total,), result.pieces, part_notation
        if pieces:
            pieces.append((", ", ""))
        pieces += [*result.pieces, (" → ", ""), (f"{total} {part.kind}".rstrip(), "")]
        notations.append(Part(part_notation, part.kind))
    return tuple(totals), tuple(pieces), written(tuple(notations))


def modifier_of(
    kind: str, resist: tuple[str, ...], vulnerable: tuple[str, ...], immune: tuple[str, ...]
) -> str:
    """What the target's sheet does to a damage type: "immune", "resistant", "vulnerable",
    both (``RESISTANT_THEN_VULNERABLE``) or ""."""
    if not kind:
        return ""
    if kind in immune:
        return "immune"
    halves, doubles = kind in resist, kind in vulnerable
    if halves and doubles:
        return RESISTANT_THEN_VULNERABLE
    return "resistant" if halves else "vulnerable" if doubles else ""


# Both to one type: the SRD applies resistance, then vulnerability (25 -> 12 -> 24).
RESISTANT_THEN_VULNERABLE = "resistant then vulnerable"


def adjusted(amount: int, modifier: str, half: bool = False) -> int:
    """Damage after a save's half (rounded down) and then the target's modifier."""
    if half:
        amount //= 2
    match modifier:
        case "immune":
            return 0
        case "resistant":
            return amount // 2
        case "vulnerable":
            return amount * 2
        case "resistant then vulnerable":  # halved (rounded down), then doubled
            return amount // 2 * 2
    return amount
