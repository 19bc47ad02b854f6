"""A Generic d20 stat block's actions as the SRD writes them, and as a sheet or a library
file types them: one line a list, an action after each ``;`` (or on a line of its own)::

    Multiattack: Frightful Presence, Bite, Claw x2;
    Bite: +14, 2d10+8 piercing plus 2d6 fire;
    Fire Breath: Dex 21 half, 18d6 fire, recharge 5-6;
    Frightful Presence: Wis 19 none, frightened, save ends

An action is its name, a colon and its parts, each after a comma, in any order:

- ``+14`` an attack roll with that bonus (``+6 ranged``: a ranged attack);
- ``Dex 21`` a saving throw against that DC, ``half`` or ``none`` the damage on a success
  (half when not said); ``save ends``: whoever fails saves again at the end of each of its
  turns;
- a damage, dice and types as a sheet writes them (``2d10+8 piercing plus 2d6 fire``);
- an SRD condition it lays on a hit or a failed save (``frightened``);
- ``recharge 5-6`` (or ``recharge 6``), ``3/day``, ``costs 2`` (a legendary action's cost);
- ``magical``: a spell or other magical effect (Magic Resistance saves against it with
  advantage), or a magic weapon's attack (a resistance "from nonmagical weapons" lets it
  through);
- the names of the block's other actions, each with a count (``Claw x2``): what a Multiattack
  makes, or what a legendary action does ("Tail Attack: Tail").

An attack with a save asks for the save on a hit, once the hit's damage is dealt: its
condition is laid on a failed save, and the save's own damage is written in the save's part
(a giant spider's bite: ``Bite: +5, 1d8+3 piercing, Con 11 half 2d8 poison``).

An action with nothing after its name (``Detect``) is listed, for the GM to play by hand.
Nothing here rolls or decides: the parts are read and checked, and written back the same.
"""

from __future__ import annotations

import re
from typing import Annotated

from msgspec import Meta, Struct

from rules.bounds import MODIFIER
from rules.errors import Rejected

from .condition_names import srd_name
from .table import ABILITIES, split_damage

MAX_ACTIONS = 16  # in one list: the SRD's longest is 9 (a lich's, a solar's)
MAX_NAME = 40  # characters of an action's name
MAX_COUNT = 6  # of one action a composition makes (the SRD's most: a hydra's 5 bites)
MAX_DC = 40
MAX_COST = 3  # the SRD's dearest legendary action costs 3
MAX_PER_DAY = 9
MAX_TEXT = 2000  # characters of one list
MAX_DAMAGE = 400  # characters of an action's damage (as ``damage_parts`` bounds it)
HALF, NONE = "half", "none"
MAGICAL = "magical"
_BONUS = re.compile(r"([+-][0-9]{1,3})(?:\s+(melee|ranged))?", re.IGNORECASE)
_ABILITY = "|".join(ABILITIES)
_SAVE = re.compile(
    rf"(?:dc\s*([0-9]{{1,2}})\s+({_ABILITY})\w*|({_ABILITY})\w*\s+(?:dc\s*)?([0-9]{{1,2}}))"
    r"(?:\s+(half|none))?",
    re.IGNORECASE,
)
_SAVE_ENDS = re.compile(r"save\s+ends|repeats?", re.IGNORECASE)
_RECHARGE = re.compile(r"recharge\s+([1-6])(?:\s*-\s*6)?", re.IGNORECASE)
_PER_DAY = re.compile(r"([0-9]{1,2})\s*/\s*day", re.IGNORECASE)
_COST = re.compile(r"costs?\s+([0-9]{1,2})(?:\s+actions?)?", re.IGNORECASE)
_MAKES = re.compile(r"(.+?)(?:\s+x\s*([0-9]{1,2}))?", re.IGNORECASE)
_DICE = re.compile(r"[0-9]d[0-9]|^[0-9]+\s+[a-z]+$", re.IGNORECASE)
_NAME = re.compile(r"[^:;,\n\x00-\x1f\x7f]+")


class D20Action(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One action of a stat block: an attack, a save effect, both, what other actions it makes
    (a Multiattack), or a name alone (played by hand)."""

    name: Annotated[str, Meta(max_length=MAX_NAME)]
    bonus: Annotated[int, Meta(ge=-MODIFIER, le=MODIFIER)] | None = None  # None: no attack roll
    ranged: bool = False
    damage: Annotated[str, Meta(max_length=MAX_DAMAGE)] = (
        ""  # as ``table.split_damage`` writes it back: "2d10+8 piercing + 2d6 fire"
    )
    save: Annotated[str, Meta(max_length=6)] = (
        ""  # "dex 21": the saving throw it asks for ("": none)
    )
    half: bool = True  # half damage on a successful save (else none)
    save_damage: Annotated[str, Meta(max_length=MAX_DAMAGE)] = (
        ""  # an attack's save's own damage, dealt on a failure ("2d8 poison"); "": none
    )
    repeat: bool = False  # save ends: its condition's target saves at the end of its turns
    magical: bool = False  # a spell or magical effect; an attack: a magic weapon's
    condition: Annotated[str, Meta(max_length=MAX_NAME)] = (
        ""  # the SRD condition laid on a hit or a failed save
    )
    recharge: Annotated[int, Meta(ge=0, le=6)] = 0  # the least d6 that brings it back (0: none)
    per_day: Annotated[int, Meta(ge=0, le=MAX_PER_DAY)] = 0  # uses a day (0: no limit)
    cost: Annotated[int, Meta(ge=1, le=MAX_COST)] = 1  # legendary actions it spends
    makes: Annotated[
        tuple[
            tuple[
                Annotated[str, Meta(max_length=MAX_NAME)], Annotated[int, Meta(ge=1, le=MAX_COUNT)]
            ],
            ...,
        ],
        Meta(max_length=MAX_ACTIONS),
    ] = ()

    @property
    def attack(self) -> bool:
        return self.bonus is not None

    @property
    def save_dc(self) -> tuple[str, int] | None:
        """Its saving throw's ability and DC (None: it asks for none)."""
        if not self.save:
            return None
        ability, dc = self.save.split()
        return ability, int(dc)


def parse_actions(text: str, label: str = "Actions") -> tuple[D20Action, ...]:
    """A list as a sheet types it; ``Rejected`` in one line naming ``label`` and the action."""
    if len(text) > MAX_TEXT:
        raise Rejected(f"{label}: at most {MAX_TEXT:,} characters")
    items = [" ".join(item.split()) for item in re.split(r"[;\n]", text)]
    items = [item for item in items if item]
    if len(items) > MAX_ACTIONS:
        raise Rejected(f"{label}: at most {MAX_ACTIONS} actions")
    found = tuple(_action(item, label) for item in items)
    names = [a.name.casefold() for a in found]
    for action in found:
        if names.count(action.name.casefold()) > 1:
            raise Rejected(f"{label}: two actions are named {action.name!r}")
    return found


def checked_makes(
    actions: tuple[D20Action, ...], label: str, among: tuple[D20Action, ...] = ()
) -> None:
    """Refuse a composition naming an action the block does not have (``among``: the other
    actions it may name, a legendary action's the block's actions), or itself."""
    known = {a.name.casefold() for a in (*actions, *among)}
    for action in actions:
        for name, _ in action.makes:
            if name.casefold() not in known or name.casefold() == action.name.casefold():
                listed = ", ".join(a.name for a in (*among, *actions) if not a.makes) or "none"
                raise Rejected(
                    f"{label}: {action.name} makes {name!r}, which is not one of its "
                    f"actions ({listed})"
                )


def _action(item: str, label: str) -> D20Action:
    name, colon, rest = item.partition(":")
    name = name.strip()
    where = f"{label}: {name[:MAX_NAME]}"
    if not name or not _NAME.fullmatch(name) or len(name) > MAX_NAME:
        raise Rejected(
            f"{label}: an action is a name of 1 to {MAX_NAME} characters, a colon and its "
            "parts, like Bite: +4, 1d6+2 piercing"
        )
    fields: dict[str, object] = {"name": name}
    makes: list[tuple[str, int]] = []
    for part in (p.strip() for p in rest.split(",")) if colon else ():
        if not part:
            continue
        if not _part(part, fields, where):
            found = _MAKES.fullmatch(part)
            assert found is not None  # a non-empty part always matches
            count = int(found.group(2) or 1)
            if not 1 <= count <= MAX_COUNT or not _NAME.fullmatch(found.group(1)):
                raise Rejected(
                    f"{where}: an action it makes is a name and a count from 1 to {MAX_COUNT}, "
                    f"like Claw x2, not {part!r}"
                )
            makes.append((found.group(1).strip(), count))
    if makes:
        fields["makes"] = tuple(makes)
    if ("half" in fields or "repeat" in fields) and "save" not in fields:
        raise Rejected(
            f"{where}: half, none and save ends are what a save does, and it has no save (Dex 15)"
        )
    if "save_damage" in fields and "bonus" not in fields:  # a save effect's own damage
        if "damage" in fields:
            raise Rejected(f"{where}: a save effect has one damage, written once")
        fields["damage"] = fields.pop("save_damage")
    return D20Action(**fields)  # type: ignore[arg-type]


def _part(part: str, fields: dict[str, object], where: str) -> bool:
    """Read one part into ``fields``; False when it is no part but an action's name."""
    if found := _BONUS.fullmatch(part):
        bonus = int(found.group(1))
        if abs(bonus) > MODIFIER:
            raise Rejected(f"{where}: an attack bonus is between -{MODIFIER} and +{MODIFIER}")
        fields["bonus"] = bonus
        fields["ranged"] = (found.group(2) or "").casefold() == "ranged"
    elif part.casefold() in ("ranged", "melee"):
        fields["ranged"] = part.casefold() == "ranged"
    elif (found := _SAVE.match(part)) and (found.end() == len(part) or part[found.end()] == " "):
        dc = int(found.group(1) or found.group(4))
        ability = (found.group(2) or found.group(3)).casefold()
        if not 1 <= dc <= MAX_DC:
            raise Rejected(f"{where}: a save's DC is from 1 to {MAX_DC}")
        fields["save"] = f"{ability} {dc}"
        if found.group(5):
            fields["half"] = found.group(5).casefold() == HALF
        if rest := part[found.end() :].strip():  # the save's own damage: "Con 11 half 2d8 poison"
            fields["save_damage"] = _damage(rest, where)
    elif _SAVE_ENDS.fullmatch(part):
        fields["repeat"] = True
    elif part.casefold() == MAGICAL:
        fields["magical"] = True
    elif part.casefold() in (HALF, NONE):
        fields["half"] = part.casefold() == HALF
    elif found := _RECHARGE.fullmatch(part):
        fields["recharge"] = int(found.group(1))
    elif found := _PER_DAY.fullmatch(part):
        uses = int(found.group(1))
        if not 1 <= uses <= MAX_PER_DAY:
            raise Rejected(f"{where}: uses a day are from 1 to {MAX_PER_DAY}")
        fields["per_day"] = uses
    elif found := _COST.fullmatch(part):
        cost = int(found.group(1))
        if not 1 <= cost <= MAX_COST:
            raise Rejected(f"{where}: a legendary action costs 1 to {MAX_COST} actions")
        fields["cost"] = cost
    elif srd_name(part):
        fields["condition"] = srd_name(part)
    elif _DICE.search(part):
        fields["damage"] = _damage(part, where)
    else:
        return False
    return True


def _damage(part: str, where: str) -> str:
    """A damage part as ``table.split_damage`` writes it back."""
    if not _DICE.search(part):
        raise Rejected(f"{where}: after a save comes the damage it deals, like 2d8 poison")
    try:
        damage, kind = split_damage(part)
    except Rejected as refused:
        raise Rejected(f"{where}: {refused.message}") from None
    return f"{damage} {kind}".strip()


def action_text(action: D20Action) -> str:
    """An action written back as it is typed (read back, the same action)."""
    parts: list[str] = []
    if action.bonus is not None:
        parts.append(f"{action.bonus:+d}" + (" ranged" if action.ranged else ""))
    elif action.ranged:
        parts.append("ranged")
    save = ""
    if action.save:
        ability, dc = action.save.split()
        save = f"{ability.capitalize()} {dc} {HALF if action.half else NONE}"
        save += f" {action.save_damage}" if action.save_damage else ""
    # An attack's save follows its hit's damage, as the SRD says them.
    first, second = (action.damage, save) if action.attack else (save, action.damage)
    parts += [p for p in (first, second, action.condition) if p]
    if action.repeat:
        parts.append("save ends")
    if action.magical:
        parts.append(MAGICAL)
    if action.recharge:
        parts.append(f"recharge {action.recharge}-6" if action.recharge < 6 else "recharge 6")
    if action.per_day:
        parts.append(f"{action.per_day}/day")
    if action.cost > 1:
        parts.append(f"costs {action.cost}")
    parts += [name if count == 1 else f"{name} x{count}" for name, count in action.makes]
    return f"{action.name}: {', '.join(parts)}" if parts else action.name


def actions_text(actions: tuple[D20Action, ...]) -> str:
    return "; ".join(action_text(a) for a in actions)


def named(actions: tuple[D20Action, ...], name: str) -> D20Action | None:
    """The action called ``name``, in any case."""
    wanted = name.casefold()
    return next((a for a in actions if a.name.casefold() == wanted), None)


def made(actions: tuple[D20Action, ...], action: D20Action) -> tuple[D20Action, ...]:
    """The actions ``action`` makes, one a use, in its order ("Claw x2": two Claws); itself
    when it makes none."""
    if not action.makes:
        return (action,)
    found: list[D20Action] = []
    for name, count in action.makes:
        other = named(actions, name)
        if other is not None and not other.makes:
            found += [other] * count
    return tuple(found)
