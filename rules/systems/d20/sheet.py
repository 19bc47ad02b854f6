"""Generic d20's sheet: hit points (fixed, or dice rolled when the combatant is added),
Armour Class, its main attack, a stat block's actions (``actions.py``), saving throws, damage
modifiers, legendary actions, and what a fight spends of it (temporary hit points, death
saves, concentration, a reaction)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated

from msgspec import Meta, Struct, structs

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value, is_yes, yes_no_field
from rules.notation import field as dice_field
from rules.notation.answer import Odds
from rules.roles.sheets import Sheets

from .actions import (
    MAX_ACTIONS,
    MAX_NAME,
    MAX_PER_DAY,
    D20Action,
    actions_text,
    checked_makes,
    made,
    parse_actions,
)
from .condition_names import parse_conditions
from .damage_parts import parts_of
from .damage_types import parse_types
from .table import ABILITIES, CONDITIONS, CRIT, MAX_LEGENDARY, split_damage
from .traits import MAX_TRAITS, PLAYED, down_not_dead, parse_traits, traits_text

HERO, MONSTER, LAIR = "hero", "monster", "lair"
KINDS = (
    (MONSTER, "Monster: dead at 0 hit points (a troll: down)"),
    (HERO, "Hero: dying at 0, death saves"),
    (LAIR, "Lair: acts at initiative 20, losing ties; not a fighter"),
)
LAIR_INITIATIVE = 20
REACHES = (("melee", "Melee (within 5 feet)"), ("ranged", "Ranged"))
MAX_HP = 10_000
MAX_AC = 40
MAX_DC = 40
MAX_MULTIATTACK = 10
MAX_TEXT = 60
_SAVE = re.compile(r"(str|dex|con|int|wis|cha)\w*\s*([+-]?\s*[0-9]+)", re.IGNORECASE)
_LAIR_SAVE = re.compile(r"\s*(str|dex|con|int|wis|cha)\w*\s+([0-9]{1,2})\s*", re.IGNORECASE)
_HP = re.compile(r"\s*([0-9]+)\s*(?:/\s*([0-9]+))?\s*")
Stamp = tuple[int, int]  # (round, the acting combatant's place): when something was spent


class D20Sheet(Struct, frozen=True, kw_only=True, tag="d20.sheet"):
    kind: str = MONSTER
    hp: int = 10
    hp_max: int = 10
    hp_dice: str = ""  # "2d8+2": rolled when the combatant is added
    hp_rolled: tuple[int, ...] = ()  # the dice that gave ``hp_max`` (none: not rolled)
    temp_hp: int = 0
    ac: int = 10
    attack: str = "Attack"
    attack_bonus: int = 0
    damage: str = "1d6"
    damage_type: str = "bludgeoning"
    ranged: bool = False
    crit_range: int = CRIT
    saves: tuple[int, ...] = (0, 0, 0, 0, 0, 0)  # Str Dex Con Int Wis Cha
    initiative: int = 0
    resistances: tuple[str, ...] = ()  # damage types; "nonmagical slashing" (damage_types.py)
    vulnerabilities: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()
    magical: bool = False  # its weapon attacks are magical: "nonmagical" resistances ignore them
    condition_immunities: Annotated[  # SRD condition names: never laid on it by a rule
        tuple[Annotated[str, Meta(max_length=MAX_NAME)], ...], Meta(max_length=len(CONDITIONS))
    ] = ()
    traits: Annotated[  # the traits the tracker plays (traits.py), by name
        tuple[Annotated[str, Meta(max_length=MAX_NAME)], ...], Meta(max_length=MAX_TRAITS)
    ] = ()
    # Counts that drive a loop (the attacks solo play makes, one by one): a save holding more
    # than the form lets anyone type is refused as it is decoded (a Multiattack of 10**9
    # once took 20 GB in a minute).
    legendary: Annotated[int, Meta(le=MAX_LEGENDARY)] = 0  # legendary actions a round
    legendary_spent: tuple[Stamp, ...] = ()
    # attacks its action makes (a stat block's Multiattack)
    multiattack: Annotated[int, Meta(le=MAX_MULTIATTACK)] = 1
    attacks_made: tuple[Stamp, ...] = ()  # its action's attacks on the turn under way
    bonus_attack: bool = False  # it makes its attack again as a bonus action (economy.py)
    lair_save: str = ""  # a lair's action as a save for every foe, "dex 15" ("": an attack)
    # A stat block's actions as the SRD writes them (actions.py): with them, the main attack
    # above is the first of them that rolls to hit, kept for what reads one attack.
    actions: Annotated[tuple[D20Action, ...], Meta(max_length=MAX_ACTIONS)] = ()
    legendary_actions: Annotated[tuple[D20Action, ...], Meta(max_length=MAX_ACTIONS)] = ()
    reactions: Annotated[tuple[D20Action, ...], Meta(max_length=MAX_ACTIONS)] = ()
    legendary_resistance: Annotated[int, Meta(ge=0, le=MAX_PER_DAY)] = 0  # uses a day
    reaction_round: int = 0  # the round its reaction was used in (0: never)
    death_successes: int = 0
    death_failures: int = 0
    stable: bool = False
    dead: bool = False
    concentrating: str = ""  # the effect it concentrates on ("": none)
    challenge: str = ""  # a challenge rating or a level, as a stat block says it
    hp_max_lost: int = 0  # taken off ``hp_max`` by a drain until a long rest (drain.py)
    exhaustion: int = 0  # its level, 0 to 6 (exhaustion.py)
    exhaustion_halved: int = 0  # taken off ``hp_max`` by exhaustion 4 or more
    # What its actions have spent (uses.py): the recharge actions waiting for their d6, the
    # uses of per-day actions and of Legendary Resistance since its last long rest.
    recharging: Annotated[
        tuple[Annotated[str, Meta(max_length=MAX_NAME)], ...], Meta(max_length=MAX_ACTIONS)
    ] = ()
    used_today: Annotated[
        tuple[
            tuple[
                Annotated[str, Meta(max_length=MAX_NAME)],
                Annotated[int, Meta(ge=1, le=MAX_PER_DAY)],
            ],
            ...,
        ],
        Meta(max_length=MAX_ACTIONS),
    ] = ()
    resisted: Annotated[int, Meta(ge=0, le=MAX_PER_DAY)] = 0

    @property
    def hero(self) -> bool:
        return self.kind == HERO

    def save(self, ability: str) -> int:
        return self.saves[ABILITIES.index(ability)]

    @property
    def down(self) -> bool:
        return self.hp <= 0

    @property
    def lair_dc(self) -> tuple[str, int] | None:
        """A lair action's save, its ability and DC (None: the lair attacks)."""
        if self.kind != LAIR or not self.lair_save:
            return None
        ability, dc = self.lair_save.split()
        return ability, int(dc)


def saves_text(saves: tuple[int, ...]) -> str:
    return " ".join(f"{a.capitalize()} {v:+d}" for a, v in zip(ABILITIES, saves, strict=True))


def parse_saves(text: str) -> tuple[int, ...]:
    """ "Str +2 Dex +1 Con +3 ..." (any order, missing ones +0)."""
    found = dict.fromkeys(ABILITIES, 0)
    rest = _SAVE.sub("", text).strip(" ,;")
    if rest:
        raise Rejected(f"Saves: write each as an ability and a bonus, like Dex +2, not {rest!r}")
    for ability, bonus in _SAVE.findall(text):
        value = int(bonus.replace(" ", ""))
        if abs(value) > MODIFIER:
            raise Rejected(f"Saves: a bonus is between -{MODIFIER} and +{MODIFIER}")
        found[ability[:3].lower()] = value
    return tuple(found[a] for a in ABILITIES)


def parse_lair_save(text: str) -> str:
    """ "Dex 15" as "dex 15"; "" for none (the lair attacks)."""
    if not text.strip():
        return ""
    found = _LAIR_SAVE.fullmatch(text)
    if found is None or not 1 <= int(found.group(2)) <= MAX_DC:
        raise Rejected(f"Lair action save: an ability and a DC from 1 to {MAX_DC}, like Dex 15")
    return f"{found.group(1).lower()} {int(found.group(2))}"


def lair_save_text(value: str) -> str:
    ability, _, dc = value.partition(" ")
    return f"{ability.capitalize()} {dc}" if value else ""


def hp_text(sheet: D20Sheet) -> str:
    return f"{sheet.hp}/{sheet.hp_max}"


def hp_field(sheet: D20Sheet) -> str:
    """The HP field: the dice while they wait to be rolled, else now/max."""
    return sheet.hp_dice if sheet.hp_dice and not sheet.hp_rolled else hp_text(sheet)


def sheet_fields(sheet: D20Sheet) -> list[Field]:
    damage = f"{sheet.damage} {sheet.damage_type}".strip()
    return [
        Field(key="kind", label="Kind", kind="choice", default=sheet.kind, choices=KINDS),
        Field(
            key="hp",
            label="Hit points",
            kind="text",
            default=hp_field(sheet),
            help="now/max, or dice rolled when added: 2d8+2",
        ),
        Field(key="temp_hp", label="Temporary HP", default=str(sheet.temp_hp)),
        Field(key="ac", label="Armour Class", default=str(sheet.ac)),
        Field(key="attack", label="Attack", kind="text", default=sheet.attack),
        Field(key="attack_bonus", label="Attack bonus", default=str(sheet.attack_bonus)),
        Field(
            key="damage",
            label="Damage",
            kind="text",
            default=damage,
            help="dice and a type: 1d8+3 slashing; more types: + 2d6 fire",
        ),
        Field(
            key="reach",
            label="Reach",
            kind="choice",
            default="ranged" if sheet.ranged else "melee",
            choices=REACHES,
        ),
        Field(
            key="crit_range",
            label="Critical on",
            default=str(sheet.crit_range),
            help="the lowest natural roll that is a critical hit: 20, or 19 for 19-20",
        ),
        Field(key="saves", label="Saves", kind="text", default=saves_text(sheet.saves)),
        Field(key="initiative", label="Initiative bonus", default=str(sheet.initiative)),
        Field(
            key="resistances",
            label="Resistances",
            kind="text",
            default=", ".join(sheet.resistances),
        ),
        Field(
            key="vulnerabilities",
            label="Vulnerabilities",
            kind="text",
            default=", ".join(sheet.vulnerabilities),
        ),
        Field(
            key="immunities", label="Immunities", kind="text", default=", ".join(sheet.immunities)
        ),
        Field(
            key="condition_immunities",
            label="Condition immunities",
            kind="text",
            default=", ".join(sheet.condition_immunities),
            help="SRD conditions no rule lays on it: poisoned, charmed, frightened...",
        ),
        Field(
            key="multiattack",
            label="Multiattack",
            default=str(sheet.multiattack),
            help="attacks its action makes: 2 for two claws",
        ),
        yes_no_field(
            "bonus_attack",
            "Bonus attack",
            sheet.bonus_attack,
            "its attack again as a bonus action (two weapons, Crossbow Expert)",
        ),
        Field(key="legendary", label="Legendary actions", default=str(sheet.legendary)),
        Field(
            key="lair_save",
            label="Lair action save",
            kind="text",
            default=lair_save_text(sheet.lair_save),
            help="a lair: every foe saves, like Dex 15 (empty: it attacks)",
        ),
        Field(
            key="actions",
            label="Actions",
            kind="text",
            default=actions_text(sheet.actions),
            help="Bite: +4, 1d6+2 piercing; Breath: Dex 13 half, 5d6 fire, recharge 5-6",
        ),
        Field(
            key="legendary_actions",
            label="Legendary actions list",
            kind="text",
            default=actions_text(sheet.legendary_actions),
            help="Tail Attack: Tail; Wing Attack: Dex 22, 2d6+8 bludgeoning, costs 2",
        ),
        Field(
            key="reactions",
            label="Reactions",
            kind="text",
            default=actions_text(sheet.reactions),
            help="Parry; or one played: Riposte: +5, 1d8+3 piercing",
        ),
        Field(
            key="legendary_resistance",
            label="Legendary resistance",
            default=str(sheet.legendary_resistance),
            help="failed saves it may turn into successes a day",
        ),
        Field(
            key="concentrating", label="Concentrating on", kind="text", default=sheet.concentrating
        ),
        Field(key="challenge", label="Challenge or level", kind="text", default=sheet.challenge),
        yes_no_field(
            "magical",
            "Magical attacks",
            sheet.magical,
            "its weapon attacks are magical: a nonmagical resistance does not halve them",
        ),
        Field(
            key="traits",
            label="Traits",
            kind="text",
            default=traits_text(sheet.traits),
            help=f"those the tracker plays: {', '.join(PLAYED)}",
        ),
    ]


def _hit_points(raw: str, sheet: D20Sheet) -> dict[str, object]:
    """The HP field: "now/max" or "max", or dice notation rolled when the combatant is added
    (its average until then)."""
    text = raw.strip()
    if text == hp_field(sheet):
        return {}
    plain = _HP.fullmatch(text)
    if plain is not None:
        now = int(plain.group(1)[:6])
        most = int(plain.group(2)[:6]) if plain.group(2) else now
        if not 1 <= most <= MAX_HP or now > most:
            raise Rejected(f"Hit points: now/max, max between 1 and {MAX_HP}, like 12/15")
        return {"hp": now, "hp_max": most, "hp_dice": "", "hp_rolled": ()}
    if len(text) > MAX_TEXT:
        raise Rejected(f"Hit points: at most {MAX_TEXT} characters")
    odds = hp_odds(text)
    average = _average(odds.notation)
    return {"hp": average, "hp_max": average, "hp_dice": odds.notation, "hp_rolled": ()}


def _average(dice: str) -> int:
    return max(int(hp_odds(dice).odds.mean), 1)


def hp_odds(dice: str) -> Odds:
    """Hit point dice worked out exactly, as ``:roll`` works dice out (bounded), and checked
    to give 1 to ``MAX_HP``; ``Rejected`` in one line naming the field."""
    # Read as the library loads, as the sheet is made and as each of a group joins: the
    # working out is done once a text (``rules.notation.answer`` keeps lines worked out).
    odds = dice_field.read(dice, "Hit points")
    if min(odds.odds.weights) < 1 or max(odds.odds.weights) > MAX_HP:
        raise Rejected(f"Hit points: dice that always give 1 to {MAX_HP}, like 2d8+2")
    return odds


def checked(sheet: D20Sheet) -> D20Sheet:
    """A sheet entering the fight (added or edited) whose dice can all be worked out: its
    damage, and the damage doubled on a critical, and its hit point dice still to roll. A
    sheet from a form was checked as it was read; one carried over from an older save (a
    party) or sent whole was not, and is refused here as the form would refuse it."""
    try:
        split_damage(sheet.damage, typed=False)  # its types were read as it was kept
    except Rejected as refused:
        raise Rejected(f"Damage: {refused.message}") from None
    if sheet.hp_dice and not sheet.hp_rolled:
        hp_odds(sheet.hp_dice)
    return sheet


def sheet_from_values(values: Mapping[str, str], sheet: D20Sheet) -> D20Sheet:
    fields = {f.key: f for f in sheet_fields(sheet)}
    changes: dict[str, object] = {
        "kind": choice_value(values, fields["kind"]),
        "temp_hp": int_value(values, "temp_hp", "Temporary HP", 0, MAX_HP, 0),
        "ac": int_value(values, "ac", "Armour Class", 10, MAX_AC, 0),
        "attack_bonus": int_value(values, "attack_bonus", "Attack bonus", 0, MODIFIER),
        "ranged": choice_value(values, fields["reach"]) == "ranged",
        "crit_range": int_value(values, "crit_range", "Critical on", CRIT, CRIT, 2),
        "initiative": int_value(values, "initiative", "Initiative bonus", 0, MODIFIER),
        "legendary": int_value(values, "legendary", "Legendary actions", 0, MAX_LEGENDARY, 0),
        "multiattack": int_value(values, "multiattack", "Multiattack", 1, MAX_MULTIATTACK, 1),
        "bonus_attack": is_yes(values, fields["bonus_attack"]),
        "magical": is_yes(values, fields["magical"]),
    }
    changes["legendary_resistance"] = int_value(
        values, "legendary_resistance", "Legendary resistance", 0, MAX_PER_DAY, 0
    )
    lair = values.get("lair_save", lair_save_text(sheet.lair_save))
    if lair.strip() != lair_save_text(sheet.lair_save):
        changes["lair_save"] = parse_lair_save(lair)
    changes.update(_hit_points(values.get("hp", hp_field(sheet)), sheet))
    for key, label in (
        ("attack", "Attack"),
        ("concentrating", "Concentrating on"),
        ("challenge", "Challenge or level"),
    ):
        text = " ".join(values.get(key, getattr(sheet, key)).split())
        if len(text) > MAX_TEXT:
            raise Rejected(f"{label}: at most {MAX_TEXT} characters")
        changes[key] = text
    if not changes["attack"]:
        changes["attack"] = "Attack"
    damage = values.get("damage", f"{sheet.damage} {sheet.damage_type}")
    if damage.strip() != f"{sheet.damage} {sheet.damage_type}".strip():
        try:
            changes["damage"], changes["damage_type"] = split_damage(damage)
        except Rejected as refused:
            raise Rejected(f"Damage: {refused.message}") from None
    saves = values.get("saves", saves_text(sheet.saves))
    if saves.strip() != saves_text(sheet.saves):
        changes["saves"] = parse_saves(saves)
    changes.update(_action_lists(values, sheet))
    immune = values.get("condition_immunities", ", ".join(sheet.condition_immunities))
    if immune.strip() != ", ".join(sheet.condition_immunities):
        changes["condition_immunities"] = parse_conditions(immune, "Condition immunities")
    traits = values.get("traits", traits_text(sheet.traits))
    if traits.strip() != traits_text(sheet.traits):
        changes["traits"] = parse_traits(traits)
    for key, label in (
        ("resistances", "Resistances"),
        ("vulnerabilities", "Vulnerabilities"),
        ("immunities", "Immunities"),
    ):
        raw = values.get(key, ", ".join(getattr(sheet, key)))
        if raw.strip() != ", ".join(getattr(sheet, key)):
            changes[key] = parse_types(raw, label)
    return structs.replace(sheet, **changes)


_LISTS = (
    ("actions", "Actions"),
    ("legendary_actions", "Legendary actions list"),
    ("reactions", "Reactions"),
)


def _action_lists(values: Mapping[str, str], sheet: D20Sheet) -> dict[str, object]:
    """The action lists typed, checked (what each makes is one of the block's actions), and
    the main attack and its Multiattack count taken from them when they changed."""
    lists = {key: getattr(sheet, key) for key, _ in _LISTS}
    changed = False
    for key, label in _LISTS:
        raw = values.get(key, actions_text(lists[key]))
        if raw.strip() != actions_text(lists[key]):
            lists[key], changed = parse_actions(raw, label), True
    if not changed:
        return {}
    checked_makes(lists["actions"], "Actions")
    checked_makes(lists["legendary_actions"], "Legendary actions list", lists["actions"])
    checked_makes(lists["reactions"], "Reactions", lists["actions"])
    changes: dict[str, object] = dict(lists)
    changes.update(main_attack(lists["actions"]))
    return changes


def main_attack(actions: tuple[D20Action, ...]) -> dict[str, object]:
    """The sheet's one attack and Multiattack count as its actions give them: the first
    attack (the one a Multiattack makes first, when it has one), and the attacks that
    Multiattack makes ({} when no action rolls to hit)."""
    composed = next((a for a in actions if a.makes), None)
    order = [*(made(actions, composed) if composed else ()), *actions]
    first = next((a for a in order if a.attack), None)
    if first is None:
        return {}
    attacks = sum(1 for a in made(actions, composed) if a.attack) if composed else 1
    found: dict[str, object] = {
        "attack": first.name,
        "attack_bonus": first.bonus,
        "ranged": first.ranged,
        "multiattack": min(max(attacks, 1), MAX_MULTIATTACK),
    }
    if first.damage:  # an attack that deals none (a net) keeps the sheet's
        found["damage"], found["damage_type"] = split_damage(first.damage)
    return found


def fresh(sheet: D20Sheet) -> D20Sheet:
    """The sheet as a new fight starts it: hit points full (dice rolled again as it joins),
    nothing spent."""
    if sheet.hp_max_lost:  # a new fight starts whole
        sheet = structs.replace(sheet, hp_max=sheet.hp_max + sheet.hp_max_lost, hp_max_lost=0)
    if sheet.hp_dice:
        sheet = structs.replace(sheet, hp_max=_average(sheet.hp_dice), hp_rolled=())
    return structs.replace(
        sheet,
        hp=sheet.hp_max,
        temp_hp=0,
        legendary_spent=(),
        attacks_made=(),
        reaction_round=0,
        death_successes=0,
        death_failures=0,
        stable=False,
        dead=False,
        concentrating="",
        recharging=(),  # a new fight starts with its recharge actions ready
    )


def hp_column(sheet: D20Sheet) -> str:
    extra = f"+{sheet.temp_hp}" if sheet.temp_hp else ""
    return f"{sheet.hp}/{sheet.hp_max}{extra}"


def life_word(sheet: D20Sheet) -> str:
    """Where it stands at 0 hit points: "dead", "stable", "dying", "down" (a troll, till its
    turn starts: ``regeneration.py``), or "" above 0."""
    if sheet.hp > 0 and not sheet.dead:
        return ""  # most combatants, most of the time: asked often (a forecast's runs)
    if sheet.dead:
        return "dead"
    if sheet.kind != HERO:
        return "dead" if dies_at_zero(sheet) else "down"
    return "stable" if sheet.stable else "dying"


def dies_at_zero(sheet: D20Sheet) -> bool:
    """Whether it is dead at 0 hit points: a monster or a lair, but a troll, down there till
    its turn starts (``regeneration.py``, D5-16)."""
    return not sheet.hero and not (sheet.kind == MONSTER and down_not_dead(sheet.traits))


def attack_damage(sheet: D20Sheet, typed: str) -> tuple[str, str]:
    """The damage an attack deals, as a sheet keeps it (notation and type, or the whole text
    of several types and no one type): what the attack dialog or the ``:attack`` line typed
    (``1d8+3 slashing + 2d6 fire``), checked as the sheet's is, or else the sheet's."""
    if not typed.strip():
        return sheet.damage, sheet.damage_type
    try:
        return split_damage(typed)
    except Rejected as refused:
        raise Rejected(f"Damage: {refused.message}") from None


def damage_dice(sheet: D20Sheet) -> str:
    """A sheet's damage dice, every type's added up (``1d8+3+2d6``): a row's narrow column."""
    try:
        return "+".join(part.dice for part in parts_of(sheet.damage, sheet.damage_type))
    except Rejected:  # unreadable (a crafted save): shown as it is, refused where rolled
        return sheet.damage


class D20Sheets(Sheets):
    """Generic d20's sheets part (``rules.roles.sheets``)."""

    new_sheet = staticmethod(D20Sheet)
    sheet_form = staticmethod(sheet_fields)
    sheet_from_form = staticmethod(sheet_from_values)
    fresh_sheet = staticmethod(fresh)
