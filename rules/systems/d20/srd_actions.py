"""A monster's actions, legendary actions and reactions in the SRD's structured data, made
into the stat block's action lists (``actions.py``). Its numbers are taken as the data gives
them; the ``desc`` is read only for facts the fields leave out or get wrong (melee or
ranged, the condition an effect lays, half damage on a save, whether it is repeated, the
save a hit asks for, what a legendary action makes) and never copied. What the lists cannot
hold, and each slip of the data mended, is noted in a few words of our own for the generated
page."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.text import inert

from .actions import (
    MAX_ACTIONS,
    MAX_COUNT,
    MAX_DC,
    MAX_NAME,
    D20Action,
    action_text,
    parse_actions,
)
from .damage_types import DAMAGE_TYPES
from .table import ABILITIES

NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
}  # fmt: skip
# An SRD condition an effect lays, as its text says it ("or be frightened", "is grappled",
# "knocked prone", "fall unconscious"): the first one said so.
_CONDITIONS = (
    r"(blinded|charmed|deafened|frightened|grappled|incapacitated|paralyzed|petrified|"
    r"poisoned|prone|restrained|stunned|unconscious)\b"
)
_LAID = re.compile(
    r"\b(?:is|are|be|become|becomes|falls?|knocked)\s+(?:magically\s+|also\s+)?" + _CONDITIONS,
    re.IGNORECASE,
)
_CONDITION = re.compile(r"\b" + _CONDITIONS, re.IGNORECASE)
_HALVES = re.compile(r"half as much damage|takes half|half damage", re.IGNORECASE)
# The save a hit asks of its target ("it must succeed on a DC 10 Constitution saving throw",
# "the target must make a DC 11 ..."); not the monster's own ("the kraken must succeed ...").
_ASKED = re.compile(
    r"\b(?:it|target|creature)\s+must\s+(?:succeed\s+on|make(?:\s+on)?)\s+a\s+"
    rf"DC\s*([0-9]{{1,2}})\s+({'|'.join(ABILITIES)})[a-z]*\s+saving\s+throw\b",
    re.IGNORECASE,
)
_SAVING = re.compile(r"\bsaving\s+throw\b", re.IGNORECASE)  # "saving throws": a disadvantage
_SAID_DAMAGE = re.compile(
    r"\(\s*([0-9]{1,3}d[0-9]{1,3}(?:\s*[+-]\s*[0-9]{1,3})?)\s*\)\s+([a-z]{1,20})\s+damage",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"\.(?=\s|$)|\n")
_ON_FAILURE = re.compile(r"\s*on\s+a\s+failed\s+save\b", re.IGNORECASE)
_REPEATS = re.compile(
    r"repeat\s+the\s+saving\s+throw\s+at\s+the\s+end\s+of\s+each\s+of\s+its\s+turns",
    re.IGNORECASE,
)
_COSTS = re.compile(r"\(\s*costs\s+([0-9])\s+actions?\s*\)", re.IGNORECASE)
_SUFFIX = re.compile(r"\((?:costs\s+[0-9]+\s+actions?|recharge[^)]*|[0-9]+\s*/\s*day)\)", re.I)
_RANGED = re.compile(r"^\s*ranged\b", re.IGNORECASE)
_DAMAGE = re.compile(r"[0-9]{1,3}(?:d[0-9]{1,3}(?:[+-][0-9]{1,3})?)?")
_TYPE = re.compile(r"[a-z]{1,20}")


@dataclass
class Notes:
    """What one monster's conversion left out and mended, in a few words each."""

    left_out: list[str] = field(default_factory=list)
    corrections: list[str] = field(default_factory=list)


def clean_name(raw: object) -> str:
    """An action's name as the lists write it: its cost, recharge or uses a day taken out
    (they are parts of their own), no ``:;,`` (the lists' marks), at most 40 characters."""
    name = _SUFFIX.sub(" ", inert(str(raw)))
    name = re.sub(r"[:;,]", " ", name)
    return " ".join(name.split())[:MAX_NAME].strip() or "Action"


def _dice(entry: Mapping[str, Any]) -> tuple[str, str] | None:
    """A damage part as the data gives it: dice as the SRD writes them ("2d10+8", "5") and
    a damage type's index ("fire"); None for anything else (a GM's file may hold anything)."""
    dice, kind = entry.get("damage_dice"), entry.get("damage_type")
    if not isinstance(dice, str) or not isinstance(kind, Mapping):
        return None
    index = kind.get("index")
    dice = "".join(dice.split())
    if not isinstance(index, str) or not _DAMAGE.fullmatch(dice) or not _TYPE.fullmatch(index):
        return None
    return dice, index


def _parts(action: Mapping[str, Any], name: str, notes: Notes) -> list[tuple[str, str]]:
    """Its damage parts (dice, type); where it offers a choice (``choose``/``from``: one- or
    two-handed, lightning or thunder), the first, the others noted."""
    found: list[tuple[str, str]] = []
    damage = action.get("damage", [])
    for entry in damage if isinstance(damage, list) else []:
        if not isinstance(entry, Mapping):
            continue
        part = _dice(entry)
        if part is not None:
            found.append(part)
            continue
        options = entry.get("from", {})
        options = options.get("options", []) if isinstance(options, Mapping) else []
        choices = [p for o in options if isinstance(o, Mapping) and (p := _dice(o))]
        if not choices:
            notes.left_out.append(f"{name}: a damage it gives that cannot be read")
        else:
            found.append(choices[0])
            others = ", ".join(f"{d} {k}" for d, k in choices[1:])
            notes.left_out.append(f"{name}: the damage it may deal instead ({others})")
    return found


def _written(parts: list[tuple[str, str]]) -> str:
    return " + ".join(f"{dice} {kind}" for dice, kind in parts)  # as split_damage writes it


def _in_desc(part: tuple[str, str], desc: str) -> int:
    """Where a damage part ("2d10+8", "fire") is said in the desc ("(2d10 + 8) fire"), its dice
    alone if not with its type, or -1."""
    dice, kind = part
    spaced = "".join(rf"\s*\{c}\s*" if c in "+-" else re.escape(c) for c in dice if c != " ")
    # With its type first: a hit's and its save's damage may roll the same dice.
    found = re.search(rf"\(\s*{spaced}\s*\)\s*{re.escape(kind)}", desc, re.IGNORECASE)
    found = found or re.search(rf"\(\s*{spaced}\s*\)", desc)
    return found.start() if found else -1


def _save_of(action: Mapping[str, Any]) -> tuple[str, int, str] | None:
    dc = action.get("dc")
    damage = action.get("damage")
    if not isinstance(dc, Mapping) and "attack_bonus" in action and isinstance(damage, list):
        # An attack's save may be given on the damage it deals (an assassin's poison).
        dc = next((e["dc"] for e in damage if isinstance(e, Mapping) and "dc" in e), None)
    if not isinstance(dc, Mapping):
        return None
    kind, value = dc.get("dc_type"), dc.get("dc_value")
    ability = kind.get("index") if isinstance(kind, Mapping) else None
    if ability not in ABILITIES or not isinstance(value, int) or isinstance(value, bool):
        return None
    success = dc.get("success_type")
    return str(ability), value, success if isinstance(success, str) else "none"


def _usage(action: Mapping[str, Any], name: str, fields: dict[str, Any], notes: Notes) -> None:
    usage = action.get("usage")
    if not isinstance(usage, Mapping):
        return
    kind = usage.get("type")
    least, times = usage.get("min_value"), usage.get("times")
    if kind == "recharge on roll" and isinstance(least, int) and 1 <= least <= 6:
        fields["recharge"] = least
    elif kind == "per day" and isinstance(times, int) and 1 <= times <= 9:
        fields["per_day"] = times
    elif kind == "recharge after rest":
        fields["per_day"] = 1
        notes.left_out.append(f"{name}: back after a rest, so once a fight (1/day here)")


def convert(action: Mapping[str, Any], notes: Notes, legendary: bool = False) -> D20Action:
    """One action of the data as the lists hold it (its name alone when it has no attack
    roll and no save: played by hand)."""
    raw_name = str(action.get("name", ""))
    name = clean_name(raw_name)
    desc = str(action.get("desc", ""))
    fields: dict[str, Any] = {"name": name}
    parts = _parts(action, name, notes)
    save = _save_of(action)
    bonus = action.get("attack_bonus")
    if isinstance(bonus, int) and desc and "to hit" not in desc:
        notes.corrections.append(
            f"{name}: the data gives it an attack roll ({bonus:+d}) its words do not"
        )
        bonus = None
    if isinstance(bonus, int) and not -MODIFIER <= bonus <= MODIFIER:
        notes.left_out.append(f"{name}: an attack bonus past {MODIFIER}")
        bonus = None
    if save is not None and not 1 <= save[1] <= MAX_DC:
        notes.left_out.append(f"{name}: a save's DC past {MAX_DC}")
        save = None
    if isinstance(bonus, int) and not isinstance(bonus, bool):
        fields["bonus"] = bonus
        fields["ranged"] = bool(_RANGED.match(desc))
        # What a hit does is said after "Hit:" (before it, whom it may target: "a creature
        # that is grappled").
        start = max(desc.find("Hit:"), 0)
        if save is not None or _SAVING.search(desc, start):
            _hit_save(fields, parts, save, desc[start:], name, notes)
        else:
            if laid := _LAID.search(desc, start):
                said = laid.group(1).casefold()
                opening = max(desc.rfind(". ", start, laid.start()) + 1, start)
                if "advantage" in desc[opening : laid.start()]:  # a cloaker's: laid only so
                    notes.left_out.append(f"{name}: {said} only when it has advantage")
                else:
                    fields["condition"] = said
            if parts:
                fields["damage"] = _written(parts)
    elif save is not None:
        ability, dc, success = save
        fields["save"] = f"{ability} {dc}"
        fields["half"] = success == "half"
        if parts:
            fields["damage"] = _written(parts)
            if success != "half" and _HALVES.search(desc):
                fields["half"] = True
                _halved(name, success, notes)
        if laid := _LAID.search(desc):
            fields["condition"] = laid.group(1).casefold()
            fields["repeat"] = _repeated(desc, 0, fields["condition"])
    _usage(action, name, fields, notes)
    if legendary and (cost := _COSTS.search(raw_name)):
        fields["cost"] = int(cost.group(1))
    return _checked(D20Action(**fields), notes)


def _halved(name: str, success: str, notes: Notes) -> None:
    notes.corrections.append(
        f"{name}: the data says no damage on a successful save "
        f'(success_type "{success}"); the SRD halves it'
    )


def _hit_save(
    fields: dict[str, Any],
    parts: list[tuple[str, str]],
    save: tuple[str, int, str] | None,
    on_hit: str,
    name: str,
    notes: Notes,
) -> None:
    """An attack whose hit asks for a saving throw: the damage said before the save is the
    hit's; the save's own is what its sentence (and one after, "On a failed save, ...") says
    a failure takes, and the condition it lays. A save none of whose consequences the lists
    hold (a disease, a lowered hit point maximum) is noted, the hit kept alone."""
    asked = _ASKED.search(on_hit)
    found = _SAVING.search(on_hit)
    # Where the words ask for no save (the data's ``dc`` alone), all they say is the hit's.
    anchor = asked.start() if asked else found.start() if found else len(on_hit)
    end = _sentence_end(on_hit, anchor)
    while _ON_FAILURE.match(on_hit, end):
        end = _sentence_end(on_hit, end)
    span = on_hit[anchor:end]
    hit = [p for n, p in enumerate(parts) if n == 0 or 0 <= _in_desc(p, on_hit) < anchor]
    if hit:
        fields["damage"] = _written(hit)
    rest = [p for p in parts if p not in hit]
    # A part the words do not say is the data's word for the save's; one said past the
    # save's sentences (an aboleth's disease's acid) is not.
    own = [p for p in rest if (at := _in_desc(p, on_hit)) < 0 or anchor <= at < end]
    own = own or [
        ("".join(said.group(1).split()), said.group(2).casefold())
        for said in _SAID_DAMAGE.finditer(span)
        if said.group(2).casefold() in DAMAGE_TYPES
    ]
    other = [p for p in rest if p not in own]
    ability, dc = (save[0], save[1]) if save else ("", 0)
    if asked:
        said_dc, said_ability = int(asked.group(1)), asked.group(2).casefold()
        if save and (said_dc, said_ability) != (dc, ability):
            notes.corrections.append(
                f"{name}: the data's save is DC {dc} {ability.capitalize()}, "
                f"the SRD's words DC {said_dc} {said_ability.capitalize()}"
            )
        ability, dc = said_ability, said_dc
    laid = _LAID.search(span)
    also = f", {_written(other)}" if other else ""
    if not 1 <= dc <= MAX_DC:
        past = f"a save's DC past {MAX_DC}" if dc else "a saving throw on a hit"
        notes.left_out.append(f"{name}: {past}{also}")
        return
    if not own and not laid:
        notes.left_out.append(f"{name}: a DC {dc} {ability.capitalize()} save on a hit{also}")
        return
    if other:
        notes.left_out.append(f"{name}: the damage it deals besides its save's ({_written(other)})")
    fields["save"] = f"{ability} {dc}"
    success = save[2] if save else "none"
    fields["half"] = bool(own) and (success == "half" or bool(_HALVES.search(span)))
    if own:
        fields["save_damage"] = _written(own)
        if save and success != "half" and fields["half"]:
            _halved(name, success, notes)
    if laid:
        fields["condition"] = laid.group(1).casefold()
        fields["repeat"] = _repeated(on_hit, anchor, fields["condition"])


def _repeated(desc: str, start: int, condition: str) -> bool:
    """Whether, as the desc says past ``start``, whoever fails saves again at the end of each
    of its turns; not where that is said of another condition than the one laid ("A
    frightened creature can repeat ..." of a roar that deafens, and frightens too)."""
    found = _REPEATS.search(desc, start)
    if found is None:
        return False
    opening = max(desc.rfind(". ", start, found.start()) + 1, start)
    said = {c.group(1).casefold() for c in _CONDITION.finditer(desc, opening, found.start())}
    return not said or condition in said


def _sentence_end(text: str, start: int) -> int:
    """Where the sentence ``start`` is in ends (past its full stop), or the text's end."""
    found = _SENTENCE_END.search(text, start)
    return found.end() if found else len(text)


def _checked(action: D20Action, notes: Notes) -> D20Action:
    """The action as the lists read it back; one they refuse keeps its name alone, noted."""
    try:
        read = parse_actions(action_text(action))
    except Rejected as refused:
        notes.left_out.append(f"{action.name}: its figures ({refused.message})")
        return D20Action(name=action.name, cost=action.cost)
    if read != (action,):  # a name or a part that reads as something else
        notes.left_out.append(f"{action.name}: its figures (they read otherwise)")
        return D20Action(name=action.name, cost=action.cost)
    return action


def split(action: Mapping[str, Any], notes: Notes) -> list[Mapping[str, Any]]:
    """An action that is a choice of several (a dragon's Breath Weapons, a sphinx's Roar):
    each choice as an action of its own, with the recharge or uses of the whole."""
    options = action.get("options", {})
    choices = options.get("from", {}) if isinstance(options, Mapping) else {}
    listed = choices.get("options", []) if isinstance(choices, Mapping) else []
    listed = listed or action.get("attacks", [])
    listed = [o for o in listed if isinstance(o, Mapping) and isinstance(o.get("name"), str)]
    if not listed:
        return [action]
    name = clean_name(action.get("name"))
    usage = action.get("usage")
    each: dict[str, Any] = {"usage": usage} if isinstance(usage, Mapping) else {}
    if isinstance(usage, Mapping) and usage.get("type") == "per day":
        each = {"usage": {"type": "per day", "times": 1}}
        notes.left_out.append(f"{name}: its {len(listed)} choices once a day each, in any order")
    else:
        named = ", ".join(clean_name(o["name"]) for o in listed)
        notes.left_out.append(f"{name}: {named} each recharge on their own (one in the SRD)")
    return [{**o, **each, "desc": _desc_of(str(action.get("desc", "")), o)} for o in listed]


def _desc_of(desc: str, option: Mapping[str, Any]) -> str:
    """The paragraph of a choice's desc about that choice, for its facts ("" if none)."""
    start = desc.find(str(option.get("name", "")))
    if start < 0:
        return ""
    end = desc.find("\n", start)
    return desc[start : end if end > 0 else len(desc)]


def actions_of(monster: Mapping[str, Any], notes: Notes) -> tuple[D20Action, ...]:
    """The monster's actions, a Multiattack's composition resolved against them."""
    raw = [a for a in monster.get("actions", []) if isinstance(a, Mapping)]
    flat = [piece for a in raw for piece in (split(a, notes) if _is_choice(a) else [a])]
    converted: list[D20Action] = []
    composing: list[tuple[int, Mapping[str, Any]]] = []
    for action in flat:
        made = convert(action, notes)
        if any(a.name.casefold() == made.name.casefold() for a in converted):
            notes.left_out.append(f"{made.name}: a second action of that name")
            continue
        if action.get("multiattack_type") or action.get("action_options"):
            composing.append((len(converted), action))
        converted.append(made)
    for place, action in composing:
        converted[place] = _composed(converted[place], action, converted, monster, notes)
    return _bounded(converted, "actions", notes)


def _is_choice(action: Mapping[str, Any]) -> bool:
    return bool(action.get("options") or action.get("attacks"))


def _bounded(actions: list[D20Action], what: str, notes: Notes) -> tuple[D20Action, ...]:
    if len(actions) > MAX_ACTIONS:
        dropped = ", ".join(a.name for a in actions[MAX_ACTIONS:])
        notes.left_out.append(f"{what} past {MAX_ACTIONS}: {dropped}")
    return tuple(actions[:MAX_ACTIONS])


def _composition(action: Mapping[str, Any], name: str, notes: Notes) -> list[Mapping[str, Any]]:
    """What a Multiattack makes: its ``actions[]``, or the first of its ``action_options``
    (the others noted)."""
    listed = action.get("actions")
    if isinstance(listed, list) and listed:
        return [i for i in listed if isinstance(i, Mapping)]
    options = action.get("action_options", {})
    choices = options.get("from", {}) if isinstance(options, Mapping) else {}
    found = choices.get("options", []) if isinstance(choices, Mapping) else []
    found = [o for o in found if isinstance(o, Mapping)]
    if not found:
        return []

    def items(option: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        inner = option.get("items")
        return [i for i in inner if isinstance(i, Mapping)] if isinstance(inner, list) else [option]

    for other in found[1:]:
        words = ", ".join(
            f"{_count_word(i)}{clean_name(i.get('action_name'))}" for i in items(other)
        )
        notes.left_out.append(f"{name}: the other choice of {words}")
    return items(found[0])


def _count_word(item: Mapping[str, Any]) -> str:
    count = item.get("count", 1)
    return "" if count in (1, "1") else f"{count} "


def _composed(
    multi: D20Action,
    action: Mapping[str, Any],
    actions: list[D20Action],
    monster: Mapping[str, Any],
    notes: Notes,
) -> D20Action:
    makes: list[tuple[str, int]] = []
    for item in _composition(action, multi.name, notes):
        asked = clean_name(item.get("action_name"))
        found = _resolved(asked, actions, multi)
        if found is None:
            notes.left_out.append(f"{multi.name}: its {asked} (no action of that name)")
            continue
        if found.casefold() != asked.casefold():
            notes.corrections.append(
                f"{multi.name}: the data names {asked!r}, the action {found!r}"
            )
        count = _count(item.get("count", 1), monster, multi.name, notes)
        said = _said_count(str(action.get("desc", "")), found) if action.get("actions") else 0
        if said and said != count:
            notes.corrections.append(
                f"{multi.name}: the data makes {count} {found}, the SRD's words {said}"
            )
            count = said
        if found.casefold() in (m.casefold() for m, _ in makes):
            makes = [(m, c + count if m.casefold() == found.casefold() else c) for m, c in makes]
        else:
            makes.append((found, count))
    makes = [(m, min(c, MAX_COUNT)) for m, c in makes]
    return D20Action(name=multi.name, makes=tuple(makes)) if makes else multi


def _said_count(desc: str, name: str) -> int:
    """How many attacks with ``name`` a Multiattack's words make ("two longsword attacks",
    "a shortsword attack", "two with its claws"); 0 where they do not say, or say it twice."""
    bare = re.escape(re.sub(r"\s*\(.*?\)", "", name))
    counts = "|".join(NUMBERS)
    found = re.findall(
        rf"\b({counts})\s+(?:{bare}s?\s+attacks?|(?:attacks?\s+)?with\s+its\s+{bare}s?)\b",
        desc,
        re.IGNORECASE,
    )
    said = {NUMBERS[word.casefold()] for word in found}
    return said.pop() if len(said) == 1 else 0


def _resolved(asked: str, actions: list[D20Action], multi: D20Action) -> str | None:
    """The block's action a composition names: by its name, else without what is in
    brackets ("Bite (Bat or Vampire Form Only)"), else in the singular ("Claws")."""
    candidates = [a for a in actions if a is not multi and not a.makes]

    def keys(name: str) -> tuple[str, ...]:
        bare = re.sub(r"\s*\(.*?\)", "", name).strip().casefold()
        return name.casefold(), bare, bare.removesuffix("s")

    wanted = keys(asked)
    for depth in range(3):
        for action in candidates:
            if keys(action.name)[depth] == wanted[depth]:
                return action.name
    return None


def _count(raw: object, monster: Mapping[str, Any], name: str, notes: Notes) -> int:
    """A composition's count: a number, or as many as the monster has of what it names
    ("Number of Heads": its heads), or a die's average rounded down ("1d4": 2)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return max(raw, 1)
    text = str(raw).strip()
    if text.isdigit():
        return max(int(text), 1)
    if dice := re.fullmatch(r"([0-9])d([0-9]{1,2})", text):
        count = int(dice.group(1)) * (int(dice.group(2)) + 1) // 2
        notes.left_out.append(f"{name}: {text} attacks, rolled in the SRD ({count} here)")
        return max(count, 1)
    what = text.split()[-1].casefold() if text.split() else ""
    for ability in monster.get("special_abilities", []):
        said = str(ability.get("desc", "")) if isinstance(ability, Mapping) else ""
        found = (
            re.search(rf"\bhas (\w+) {re.escape(what)}\b", said, re.IGNORECASE) if what else None
        )
        if found and found.group(1).casefold() in NUMBERS:
            count = NUMBERS[found.group(1).casefold()]
            notes.corrections.append(
                f"{name}: the data's count {text!r} is {count}, as many as it has"
            )
            return count
    notes.left_out.append(f"{name}: a count of {text!r} (1 here)")
    return 1


def legendary_of(
    monster: Mapping[str, Any], actions: tuple[D20Action, ...], notes: Notes
) -> tuple[D20Action, ...]:
    """Its legendary actions with their costs; one with no roll of its own that makes one of
    the block's actions ("makes a tail attack") makes it."""
    found: list[D20Action] = []
    for raw in monster.get("legendary_actions", []):
        if not isinstance(raw, Mapping):
            continue
        action = convert(raw, notes, legendary=True)
        if not action.attack and not action.save:
            action = _making(action, str(raw.get("desc", "")), actions)
        if any(a.name.casefold() == action.name.casefold() for a in found):
            continue
        found.append(action)
    return _bounded(found, "legendary actions", notes)


def _making(action: D20Action, desc: str, actions: tuple[D20Action, ...]) -> D20Action:
    """A legendary action that makes one of the block's actions, as its text says ("makes
    one claw attack", "uses its Fling"): the first named, with its count."""
    best: tuple[int, str, int] | None = None
    for other in actions:
        if other.makes or (not other.attack and not other.save):
            continue
        bare = re.sub(r"\s*\(.*?\)", "", other.name)
        pattern = rf"(?:\b(\w+)\s+)?\b{re.escape(bare)}s?\b"
        for said in re.finditer(pattern, desc, re.IGNORECASE):
            if best is None or said.start() < best[0]:
                count = NUMBERS.get((said.group(1) or "").casefold(), 1)
                best = (said.start(), other.name, count)
            break
    if best is None:
        return action
    _, name, count = best
    if name.casefold() == action.name.casefold():  # "Claw" making "Claw": its own figures
        other = next(a for a in actions if a.name == name)
        return D20Action(**{**_fields(other), "cost": action.cost})
    return D20Action(name=action.name, cost=action.cost, makes=((name, min(count, MAX_COUNT)),))


def _fields(action: D20Action) -> dict[str, Any]:
    return {f: getattr(action, f) for f in action.__struct_fields__}


def reactions_of(monster: Mapping[str, Any], notes: Notes) -> tuple[D20Action, ...]:
    found: list[D20Action] = []
    for raw in monster.get("reactions", []):
        if isinstance(raw, Mapping):
            action = convert(raw, notes)
            if all(a.name.casefold() != action.name.casefold() for a in found):
                found.append(action)
    return _bounded(found, "reactions", notes)
