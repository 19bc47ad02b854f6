"""Fatigue & Thresholds: the character sheet (pools, skills, weapons) and consequence tables."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal, cast

from msgspec import Struct, structs

from rules.errors import Rejected
from rules.forms import Field
from rules.roles.sheets import Sheets

from .arithmetic import (
    FLOOR,
    MENTAL,
    PHYSICAL,
    POOLS,
    SPILLS_INTO,
    Cost,
    PoolName,
    is_physical,
    merge,
    pay,
    pool_floor,
    pool_penalty,
    scaled,
    total_n,
)

WeaponKind = Literal["melee", "gun"]
HITS_FOR: dict[str, int] = {"melee": 3, "gun": 4}
MAX_NAME = 30
SHORT: dict[str, str] = {
    "wind": "Wind",
    "stamina": "Sta",
    "wit": "Wit",
    "focus": "Foc",
    "sanity": "San",
    "health": "HP",
}


def rested(sheet: FatigueSheet) -> FatigueSheet:
    """The sheet as a new fight begins: every pool at its maximum."""
    return structs.replace(sheet, **{pool: getattr(sheet, f"{pool}_max") for pool in POOLS})


class Skill(Struct, frozen=True):
    name: str
    level: int


class Weapon(Struct, frozen=True, kw_only=True):
    """A weapon: its N (in Wind), fumble threshold and hit ratings (3 melee, 4 for guns)."""

    name: str
    kind: WeaponKind = "melee"
    n: int = 3
    fumble: int = 8
    hits: tuple[int, ...] = (10, 20, 40)

    def describe(self) -> str:
        hits = "/".join(str(hit) for hit in self.hits)
        return f"{self.name} {self.kind} N{self.n} F{self.fumble} {hits}"


class FatigueSheet(Struct, frozen=True, kw_only=True, tag="fatigue.sheet"):
    """Six pools (current and maximum), skills with levels, weapons."""

    wind: int = 40
    wind_max: int = 40
    stamina: int = 40
    stamina_max: int = 40
    wit: int = 30
    wit_max: int = 30
    focus: int = 30
    focus_max: int = 30
    sanity: int = 30
    sanity_max: int = 30
    health: int = 30
    health_max: int = 30
    skills: tuple[Skill, ...] = ()
    weapons: tuple[Weapon, ...] = ()

    def pool(self, name: str) -> tuple[int, int]:
        return getattr(self, name), getattr(self, f"{name}_max")

    def penalty_of(self, name: str) -> int:
        return pool_penalty(*self.pool(name))

    @property
    def physical_penalty(self) -> int:
        return sum(self.penalty_of(pool) for pool in PHYSICAL)

    @property
    def mental_penalty(self) -> int:
        return sum(self.penalty_of(pool) for pool in MENTAL)

    @property
    def floor(self) -> int:
        """T: 3, 2 with negative Stamina or Focus, 1 with negative Health or Sanity."""
        if self.health < 0 or self.sanity < 0:
            return 1
        if self.stamina < 0 or self.focus < 0:
            return 2
        return FLOOR

    def skill(self, name: str) -> Skill | None:
        wanted = name.casefold()
        return next((s for s in self.skills if s.name.casefold() == wanted), None)

    def weapon(self, name: str) -> Weapon | None:
        wanted = name.casefold()
        return next((w for w in self.weapons if w.name.casefold() == wanted), None)

    def spent(self, costs: tuple[Cost, ...], spill: bool = False) -> FatigueSheet:
        """The sheet after paying costs: Wind and Wit stop at 0, the other pools at minus
        their maximum; what a pool cannot pay is lost, or with ``spill`` (the GM's choice)
        what Wind or Wit cannot pay comes out of Stamina or Focus."""
        return self.paying(costs, spill)[0]

    def paying(
        self, costs: tuple[Cost, ...], spill: bool = False
    ) -> tuple[FatigueSheet, tuple[Cost, ...]]:
        """``spent``'s sheet, and what each pool really paid (the log says it: Wind already
        at 0 pays nothing, and what spills is Stamina's)."""
        sheet = self
        paid: list[Cost] = []
        for cost in merge(costs):
            now, top = sheet.pool(cost.pool)
            after = pay(now, cost.amount, pool_floor(cost.pool, top))
            sheet = structs.replace(sheet, **{cost.pool: after})
            taken = max(now - after, 0)
            paid.append(Cost(cost.pool, taken))
            rest = cost.amount - taken
            if spill and rest > 0 and cost.pool in SPILLS_INTO:
                sheet, more = sheet.paying((Cost(SPILLS_INTO[cost.pool], rest),))
                paid += more
        return sheet, merge(tuple(paid))

    def out_of_fight(self, fled: bool) -> str:
        """Why a fighter with this sheet is out of the fight ("" while it fights): "dead" at
        the bottom of its Health, "down" at 0 Health or less, "fled", or "spent" with Wind
        and Stamina both gone."""
        if self.health <= pool_floor("health", self.health_max):
            return "dead"
        if self.health <= 0:
            return "down"
        if fled:
            return "fled"
        if self.wind <= 0 and self.stamina <= 0:
            return "spent"
        return ""


def task_penalties(sheet: FatigueSheet, pools: tuple[str, ...]) -> tuple[int, int]:
    """(check penalty, fumble penalty) for a task drawing on these pools.

    Physical effort takes the physical penalty, mental effort the mental one (both for a
    mixed task). Fumble lines rise by mental + physical for physical tasks, 2 x mental else.
    """
    physical = is_physical(pools) or not pools
    mental = any(pool in MENTAL for pool in pools)
    check = (sheet.physical_penalty if physical else 0) + (sheet.mental_penalty if mental else 0)
    both = sheet.physical_penalty + sheet.mental_penalty
    fumble = both if physical else 2 * sheet.mental_penalty
    return check, fumble


# --- the sheet as a form -----------------------------------------------------------------------

BAR_CELLS = "▮▯"  # a gauge's full and empty cells
POOL_FIELD = re.compile(r"\s*([+-]?[0-9]+)\s*(?:/\s*([0-9]+)\s*)?")
SKILL = re.compile(r"\s*(.*?\S)\s+([+-]?[0-9]+)\s*")
WEAPON = re.compile(
    r"\s*(?P<name>.+?)\s+(?P<kind>melee|gun)\s+N(?P<n>[0-9]+)\s+F(?P<fumble>[+-]?[0-9]+)"
    r"\s+(?P<hits>[0-9]+(?:/[0-9]+)*)\s*",
    re.IGNORECASE,
)
LIMIT = 100_000


def sheet_fields(sheet: FatigueSheet) -> list[Field]:
    pools = [
        Field(
            key=pool,
            label=f"{pool.capitalize()} (now/max)",
            kind="text",
            default="{}/{}".format(*sheet.pool(pool)),
        )
        for pool in POOLS
    ]
    skills = ", ".join(f"{s.name} {s.level}" for s in sheet.skills)
    weapons = "; ".join(w.describe() for w in sheet.weapons)
    return [
        *pools,
        Field(key="skills", label="Skills", kind="text", default=skills, help="Sword 3, Dodge 2"),
        Field(
            key="weapons",
            label="Weapons",
            kind="text",
            default=weapons,
            help="Sword melee N3 F8 10/20/40; 9mm gun N2 F8 10/30/60/100",
        ),
    ]


def parse_pool(raw: str, label: str, maximum: int) -> tuple[int, int]:
    match = POOL_FIELD.fullmatch(raw.strip().lstrip(BAR_CELLS))  # the pane's gauge may come too
    if match is None:
        raise Rejected(f"{label} must look like 30/40 (now/max), not {raw!r}")
    current = int(match.group(1))
    top = int(match.group(2)) if match.group(2) else maximum
    if top < 1 or top > LIMIT or abs(current) > LIMIT:
        raise Rejected(f"{label}: the maximum must be 1 to {LIMIT:,} and the value within it")
    return current, top


def parse_skills(raw: str) -> tuple[Skill, ...]:
    out: list[Skill] = []
    for part in raw.split(","):
        if not part.strip():
            continue
        match = SKILL.fullmatch(part)
        if match is None:
            raise Rejected(
                f"Skills: write each as a name and a level, like 'Sword 3', not {part!r}"
            )
        name, level = " ".join(match.group(1).split()), int(match.group(2))
        if len(name) > MAX_NAME or abs(level) > 100:
            raise Rejected(f"Skills: {name!r} needs a name of at most {MAX_NAME} characters "
                           "and a level from -100 to 100")  # fmt: skip
        if any(s.name.casefold() == name.casefold() for s in out):
            raise Rejected(f"Skills: {name!r} is listed twice")
        out.append(Skill(name, level))
    return tuple(out)


def parse_weapon(raw: str) -> Weapon:
    match = WEAPON.fullmatch(raw)
    if match is None:
        raise Rejected(
            f"Weapons: write each like 'Sword melee N3 F8 10/20/40' or "
            f"'9mm gun N2 F8 10/30/60/100', not {raw.strip()!r}"
        )
    kind = cast(WeaponKind, match.group("kind").casefold())  # the pattern takes melee or gun
    hits = tuple(int(hit) for hit in match.group("hits").split("/"))
    name = " ".join(match.group("name").split())
    if len(hits) != HITS_FOR[kind]:
        raise Rejected(f"Weapons: a {kind} weapon has {HITS_FOR[kind]} hit ratings ({name})")
    if len(name) > MAX_NAME or max(hits) > LIMIT or int(match.group("n")) > LIMIT:
        raise Rejected(f"Weapons: {name!r} has a name or a number that is too long")
    return Weapon(
        name=name,
        kind=kind,
        n=int(match.group("n")),
        fumble=int(match.group("fumble")),
        hits=hits,
    )


def parse_weapons(raw: str) -> tuple[Weapon, ...]:
    weapons = tuple(parse_weapon(part) for part in raw.split(";") if part.strip())
    names = [w.name.casefold() for w in weapons]
    if len(set(names)) != len(names):
        raise Rejected("Weapons: two weapons have the same name")
    return weapons


def sheet_from_values(values: Mapping[str, str], sheet: FatigueSheet) -> FatigueSheet:
    changes: dict[str, object] = {}
    for pool in POOLS:
        current, top = sheet.pool(pool)
        raw = values.get(pool, "").strip()
        if raw:
            current, top = parse_pool(raw, pool.capitalize(), top)
            floor = pool_floor(pool, top)
            if current < floor and (current, top) != sheet.pool(pool):
                raise Rejected(f"{pool.capitalize()} stops at {floor}, not {current}")
        changes[pool], changes[f"{pool}_max"] = current, top
    if "skills" in values:
        changes["skills"] = parse_skills(values["skills"])
    if "weapons" in values:
        changes["weapons"] = parse_weapons(values["weapons"])
    return structs.replace(sheet, **changes)


def bar(current: int, maximum: int, cells: int = 4) -> str:
    """A short gauge: '▮▮▮▯ 30/40' (any points left show at least one block)."""
    top = max(maximum, 1)
    filled = 0 if current <= 0 else min(cells, max(1, -(-cells * current // top)))
    return BAR_CELLS[0] * filled + BAR_CELLS[1] * (cells - filled) + f" {current}/{maximum}"


# --- consequences ------------------------------------------------------------------------------


class Consequence(Struct, frozen=True):
    """What a level costs: pool losses, how they were reckoned, and what the GM narrates."""

    costs: tuple[Cost, ...]
    reckoning: str
    narrate: str = ""


def first_penalty(n: int, pools: tuple[str, ...]) -> tuple[Cost, ...]:
    """8N Wind + 2N Stamina (a mental task pays 8N Wit + 2N Focus instead)."""
    if is_physical(pools) or not pools:
        return (Cost("wind", 8 * n), Cost("stamina", 2 * n))
    return (Cost("wit", 8 * n), Cost("focus", 2 * n))


def first_penalty_text(pools: tuple[str, ...]) -> str:
    return "8N Wind, 2N Stamina" if is_physical(pools) or not pools else "8N Wit, 2N Focus"


def defense_consequence(level: int, effort: tuple[Cost, ...], weapon: Weapon | None) -> Consequence:
    """A failed defense: 2N, then the weapon's table (melee, gun) or a narrated failure."""
    n = total_n(effort)
    twice = f"2N (N = {n})"
    if level == 0:
        return Consequence(scaled(effort, 2), twice)
    table = table_consequence(level, effort, weapon)
    if table is None:
        return Consequence(scaled(effort, 2), twice, narrate=NARRATED[level])
    return Consequence(merge(scaled(effort, 2), table.costs), f"{twice}, {table.reckoning}")


def table_consequence(
    level: int, effort: tuple[Cost, ...], weapon: Weapon | None
) -> Consequence | None:
    """Level 1-4 of the task's own table (*Melee*, *Guns*), None for a task without one.

    Melee: levels 1-3 the first consequence's fatigue (8N Wind, 2N Stamina), levels 2-4 the
    weapon's first, second, third hit; guns: level k is the k-th hit."""
    if weapon is None:
        return None
    n = total_n(effort)
    pools = tuple(c.pool for c in effort)
    costs: tuple[Cost, ...] = ()
    words: list[str] = []
    if weapon.kind == "melee":
        if level <= 3:
            costs = first_penalty(n, pools)
            words.append(first_penalty_text(pools))
        if level >= 2:
            hit = weapon.hits[level - 2]
            costs = merge(costs, (Cost("health", hit),))
            words.append(f"{('first', 'second', 'third')[level - 2]} hit {hit} Health")
    else:
        hit = weapon.hits[level - 1]
        costs = (Cost("health", hit),)
        words.append(f"hit level {level}: {hit} Health")
    return Consequence(costs, ", ".join(words))


def fumble_consequence(level: int, effort: tuple[Cost, ...], weapon: Weapon | None) -> Consequence:
    """An attacker's fumble (issue 39, F4-02): "they suffer a first consequence, each
    threshold by which they miss the fumble threshold upgrades the consequence", from the
    attack's own table: a sword's Bad fumble is its first consequence and its first hit, a
    gun's first fumble its first hit. Without a weapon, the first consequence's fatigue and
    the GM narrates the worse levels (*Other Things* has no costs)."""
    n = total_n(effort)
    table = table_consequence(level, effort, weapon)
    if table is not None and weapon is not None and weapon.kind == "gun":
        return table  # a gun's consequences are its hits: N plays no part
    if table is not None:
        return Consequence(table.costs, f"N = {n}: {table.reckoning}")
    pools = tuple(c.pool for c in effort)
    costs = first_penalty(n, pools)
    return Consequence(costs, f"{first_penalty_text(pools)} (N = {n})", narrate=NARRATED[level])


NARRATED = (
    "",
    "GM: a slip, strain or lost ground (first consequence)",
    "GM: something breaks or an injury (second consequence)",
    "GM: a device blows up or a severe injury (third consequence)",
    "GM: disaster, a crippling injury (fourth consequence)",
)


def costs_text(costs: tuple[Cost, ...]) -> str:
    return " ".join(f"{c.amount} {SHORT[c.pool]}" for c in costs) or "nothing"


def pool_title(pool: PoolName) -> str:
    return pool.capitalize()


class FatigueSheets(Sheets):
    """Fatigue's sheets part (``rules.roles.sheets``)."""

    new_sheet = staticmethod(FatigueSheet)
    sheet_form = staticmethod(sheet_fields)
    sheet_from_form = staticmethod(sheet_from_values)
    fresh_sheet = staticmethod(rested)
